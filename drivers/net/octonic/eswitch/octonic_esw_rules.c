/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/* The control path: rte_flow validate/create/destroy/flush/query/isolate
 * on the tuple-space tables (see octonic_esw_internal.h for the layout and
 * the generation/RCU protocol).  All of it runs under sw->lock.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_hash_crc.h>
#include <rte_malloc.h>

#include "octonic_esw_internal.h"

/* What a change unlinked, freed after the grace period. */
struct sw_garbage {
	void **ptrs;		/* rte_malloc'd: buckets, views */
	uint32_t nb_ptrs, max_ptrs;
	struct { struct rte_hash *h; int32_t pos; } *keys;
	uint32_t nb_keys, max_keys;
	struct rte_hash **hashes;	/* whole tables */
	uint32_t nb_hashes, max_hashes;
	struct sw_hot **hots;		/* hot records back to the free stack */
	uint32_t nb_hots, max_hots;
	int oom;		/* could not record: leak rather than crash */
};

static int
grow_array(void **arr, uint32_t *max, size_t elt, uint32_t need)
{
	void *n;
	uint32_t m;

	if (need <= *max)
		return 0;
	m = *max != 0 ? *max : 16;
	while (m < need)
		m *= 2;
	n = realloc(*arr, (size_t)m * elt);
	if (n == NULL)
		return -ENOMEM;
	*arr = n;
	*max = m;
	return 0;
}

/* Room for one more record; without it the garbage leaks (oom) */
static bool
gc_room(struct sw_garbage *g, void **arr, uint32_t *max, size_t elt,
		uint32_t nb)
{
	if (grow_array(arr, max, elt, nb + 1) == 0)
		return true;
	g->oom = 1;
	return false;
}

static void
gc_ptr(struct sw_garbage *g, void *p)
{
	if (p != NULL && gc_room(g, (void **)&g->ptrs, &g->max_ptrs,
			sizeof(void *), g->nb_ptrs))
		g->ptrs[g->nb_ptrs++] = p;
}

static void
gc_key(struct sw_garbage *g, struct rte_hash *h, int32_t pos)
{
	if (!gc_room(g, (void **)&g->keys, &g->max_keys, sizeof(g->keys[0]),
			g->nb_keys))
		return;
	g->keys[g->nb_keys].h = h;
	g->keys[g->nb_keys++].pos = pos;
}

static void
gc_hash(struct sw_garbage *g, struct rte_hash *h)
{
	if (gc_room(g, (void **)&g->hashes, &g->max_hashes, sizeof(h),
			g->nb_hashes))
		g->hashes[g->nb_hashes++] = h;
}

static void
gc_hot(struct sw_garbage *g, struct sw_hot *h)
{
	if (gc_room(g, (void **)&g->hots, &g->max_hots, sizeof(h), g->nb_hots))
		g->hots[g->nb_hots++] = h;
}

/* ---- hot records ---- */

static struct sw_hot *
hot_alloc(struct octonic_eswitch *sw)
{
	RTE_BUILD_BUG_ON(sizeof(struct sw_hot) != 32);
	if (sw->nb_hot_free == 0) {
		struct sw_hot *chunk, **nf;
		void **nc;
		uint32_t total = (sw->nb_hot_chunks + 1) * SW_HOT_CHUNK, i;

		nc = realloc(sw->hot_chunks, (sw->nb_hot_chunks + 1) * sizeof(*nc));
		if (nc == NULL)
			return NULL;
		sw->hot_chunks = nc;
		/* The free stack can hold every record, so release never fails. */
		nf = realloc(sw->hot_free, total * sizeof(*nf));
		if (nf == NULL)
			return NULL;
		sw->hot_free = nf;
		chunk = rte_zmalloc_socket("octonic_hot", SW_HOT_CHUNK * sizeof(*chunk),
			RTE_CACHE_LINE_SIZE, sw->socket);
		if (chunk == NULL)
			return NULL;
		sw->hot_chunks[sw->nb_hot_chunks++] = chunk;
		/* Pushed in reverse: records are handed out in address order. */
		for (i = 0; i < SW_HOT_CHUNK; i++)
			sw->hot_free[sw->nb_hot_free++] = &chunk[SW_HOT_CHUNK - 1 - i];
	}
	return sw->hot_free[--sw->nb_hot_free];
}

static void
hot_release(struct octonic_eswitch *sw, struct sw_hot *h)
{
	memset(h, 0, sizeof(*h));
	sw->hot_free[sw->nb_hot_free++] = h;
}

/* Free everything recorded; the caller has waited for the grace period. */
static void
gc_run(struct octonic_eswitch *sw, struct sw_garbage *g)
{
	uint32_t i;

	for (i = 0; i < g->nb_hots; i++)
		hot_release(sw, g->hots[i]);
	free(g->hots);

	for (i = 0; i < g->nb_ptrs; i++)
		rte_free(g->ptrs[i]);
	for (i = 0; i < g->nb_keys; i++)
		rte_hash_free_key_with_position(g->keys[i].h, g->keys[i].pos);
	for (i = 0; i < g->nb_hashes; i++)
		rte_hash_free(g->hashes[i]);
	if (g->oom)
		SW_LOG(ERR, "out of memory recording garbage: some memory leaked");
	free(g->ptrs);
	free(g->keys);
	free(g->hashes);
	memset(g, 0, sizeof(*g));
}

static void
rule_free(struct rte_flow *r)
{
	if (r == NULL)
		return;
	r->magic = 0;
	rte_free(r->rss);
	rte_free(r);
}

/* ---- tables ---- */

/* Keys are whole 64-bit words (key_len is a multiple of 8): three XORs for
 * an IPv4 5-tuple, where rte_hash would use memcmp for lengths it has no
 * vector compare for (24, 56, 120).  A custom compare is a function
 * pointer, valid in this process only; the e-switch lives in the primary
 * process (net_octonic refuses secondaries).
 */
static int
hkey_cmp(const void *a, const void *b, size_t len)
{
	const uint8_t *x = a, *y = b;
	uint64_t diff = 0, u, v;
	size_t i;

	for (i = 0; i < len; i += sizeof(u)) {
		memcpy(&u, x + i, sizeof(u));
		memcpy(&v, y + i, sizeof(v));
		diff |= u ^ v;
	}
	return diff != 0;
}

static struct rte_hash *
table_hash_create(struct octonic_eswitch *sw, uint32_t capacity,
		uint32_t key_len)
{
	char name[RTE_HASH_NAMESIZE];
	struct rte_hash *h;
	struct rte_hash_parameters p = {
		.name = name,
		.entries = capacity,
		.key_len = key_len,
		.hash_func = rte_hash_crc,
		.socket_id = sw->socket,
		/* Lock-free readers; buckets never overflow on collisions. */
		.extra_flag = RTE_HASH_EXTRA_FLAGS_RW_CONCURRENCY_LF |
			RTE_HASH_EXTRA_FLAGS_EXT_TABLE,
	};

	snprintf(name, sizeof(name), "octsw%u_%u", sw->id, sw->table_serial++);
	h = rte_hash_create(&p);
	if (h != NULL)
		rte_hash_set_cmp_func(h, hkey_cmp);
	return h;
}

int
octonic_esw_table_index(struct octonic_eswitch *sw, const struct octo_flow_key *mask)
{
	uint32_t i = sw->table_hint;

	/* rules come in runs of one shape: the last table first */
	if (i < sw->nb_tables && sw->tables[i].h != NULL &&
			octo_flow_key_equal(&sw->tables[i].mask, mask))
		return (int)i;
	for (i = 0; i < sw->nb_tables; i++)
		if (sw->tables[i].h != NULL &&
				octo_flow_key_equal(&sw->tables[i].mask, mask)) {
			sw->table_hint = i;
			return (int)i;
		}
	return -1;
}

/*
 * Find or create the table of @p mask (@p created: whether it is new).
 * @return its index or -errno.
 */
static int
table_get(struct octonic_eswitch *sw, const struct octo_flow_key *mask, int *created)
{
	struct sw_table *t;
	int idx = octonic_esw_table_index(sw, mask);
	uint32_t i;

	*created = idx < 0;
	if (idx >= 0)
		return idx;
	for (i = 0; i < sw->nb_tables; i++)
		if (sw->tables[i].h == NULL)
			break;
	if (i == sw->nb_tables) {
		t = rte_realloc_socket(sw->tables, (i + 1) * sizeof(*t), 0,
			sw->socket);
		if (t == NULL)
			return -ENOMEM;
		sw->tables = t;
		sw->nb_tables++;
	}
	t = &sw->tables[i];
	memset(t, 0, sizeof(*t));
	octo_key_layout_init(&t->layout, mask);
	t->h = table_hash_create(sw, SW_TABLE_MIN, t->layout.key_len);
	if (t->h == NULL)
		return -ENOMEM;
	t->mask = *mask;
	t->capacity = SW_TABLE_MIN;
	sw->stats.masks++;
	return (int)i;
}

/* Drop an empty table (not referenced by any view once republished). */
static void
table_put(struct octonic_eswitch *sw, uint32_t idx, struct sw_garbage *g)
{
	struct sw_table *t = &sw->tables[idx];

	if (t->h == NULL || t->nb_keys != 0 || t->reserved != 0)
		return;
	gc_hash(g, t->h);
	t->h = NULL;
	sw->stats.masks--;
}

/* ---- (domain, group, table) counts and the view ---- */

static struct sw_dgt *
dgt_find(struct octonic_eswitch *sw, uint16_t dom, uint32_t group, uint32_t table)
{
	uint32_t i = sw->dgt_hint;
	struct sw_dgt *d;

	/* as tables: the last one first */
	if (i < sw->nb_dgts) {
		d = &sw->dgts[i];
		if (d->domain == dom && d->group == group && d->table == table)
			return d;
	}
	for (i = 0; i < sw->nb_dgts; i++) {
		d = &sw->dgts[i];
		if (d->domain == dom && d->group == group && d->table == table) {
			sw->dgt_hint = i;
			return d;
		}
	}
	return NULL;
}

/* An id no (domain, group, table) has: the next of a counter, skipping
 * live ones should it ever wrap.  A reader still probing with a retired id
 * cannot be misled by its reuse: the new owner's rules are born after the
 * generation that reader classifies in.
 */
static uint32_t
dgt_new_id(struct octonic_eswitch *sw)
{
	uint32_t i;

	for (;;) {
		for (i = 0; i < sw->nb_dgts; i++)
			if (sw->dgts[i].id == sw->next_dgt_id)
				break;
		if (i == sw->nb_dgts)
			return sw->next_dgt_id;
		sw->next_dgt_id++;
	}
}

static int
dgt_cmp(const void *a, const void *b)
{
	const struct sw_dgt *x = a, *y = b;

	if (x->domain != y->domain)
		return x->domain < y->domain ? -1 : 1;
	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	if (x->table != y->table)
		return x->table < y->table ? -1 : 1;
	return 0;
}

/* Build and publish a view from sw->dgts; the old one goes to @p g. */
static int
view_publish(struct octonic_eswitch *sw, struct sw_garbage *g)
{
	struct sw_view *v;
	struct sw_gview *gv;
	struct sw_probe *pr;
	uint32_t ngroups = 0, i;
	size_t sz;

	/* qsort takes no NULL base, even for no element (no table yet) */
	if (sw->nb_dgts > 1)
		qsort(sw->dgts, sw->nb_dgts, sizeof(sw->dgts[0]), dgt_cmp);
	for (i = 0; i < sw->nb_dgts; i++)
		if (i == 0 || sw->dgts[i].domain != sw->dgts[i - 1].domain ||
				sw->dgts[i].group != sw->dgts[i - 1].group)
			ngroups++;
	sz = sizeof(*v) + ngroups * sizeof(*gv) + sw->nb_dgts * sizeof(*pr);
	v = rte_zmalloc_socket("octonic_view", sz, RTE_CACHE_LINE_SIZE, sw->socket);
	if (v == NULL)
		return -ENOMEM;
	gv = (struct sw_gview *)(v + 1);
	pr = (struct sw_probe *)(gv + ngroups);
	gv--;
	for (i = 0; i < sw->nb_dgts; i++) {
		const struct sw_dgt *d = &sw->dgts[i];

		if (i == 0 || d->domain != sw->dgts[i - 1].domain ||
				d->group != sw->dgts[i - 1].group) {
			gv++;
			gv->group = d->group;
			gv->probes = pr;
			if (v->groups[d->domain] == NULL)
				v->groups[d->domain] = gv;
			v->nb_groups[d->domain]++;
		}
		pr->h = sw->tables[d->table].h;
		pr->id = d->id;
		pr->layout = sw->tables[d->table].layout;
		pr++;
		gv->nb_probes++;
	}
	gc_ptr(g, sw->view);
	rte_atomic_store_explicit(&sw->view, v, rte_memory_order_release);
	return 0;
}

/* Move a table's entries into one four times larger and republish the
 * view; the old hash goes to @p g.
 */
static int
table_grow(struct octonic_eswitch *sw, uint32_t idx, struct sw_garbage *g)
{
	struct sw_table *t = &sw->tables[idx];
	struct rte_hash *nh, *oh = t->h;
	const void *key;
	void *data;
	uint32_t it = 0;

	nh = table_hash_create(sw, t->capacity * 4, t->layout.key_len);
	if (nh == NULL)
		return -ENOMEM;
	while (rte_hash_iterate(oh, &key, &data, &it) >= 0) {
		if (rte_hash_add_key_data(nh, key, data) != 0) {
			rte_hash_free(nh);
			return -ENOMEM;
		}
	}
	t->h = nh;
	if (view_publish(sw, g) != 0) {
		t->h = oh;
		rte_hash_free(nh);
		return -ENOMEM;
	}
	gc_hash(g, oh);
	t->capacity *= 4;
	return 0;
}

int
octonic_esw_table_reserve(struct octonic_eswitch *sw, const struct octo_flow_key *mask,
		int64_t n)
{
	struct sw_garbage g = { 0 };
	struct sw_table *t;
	int idx, created, ret = 0;

	if (n < 0) {
		idx = octonic_esw_table_index(sw, mask);
		if (idx < 0)
			return 0;
		t = &sw->tables[idx];
		t->reserved -= RTE_MIN((uint64_t)-n, (uint64_t)t->reserved);
		table_put(sw, (uint32_t)idx, &g);
	} else {
		idx = table_get(sw, mask, &created);
		if (idx < 0)
			return idx;
		t = &sw->tables[idx];
		if ((uint64_t)t->reserved + (uint64_t)n > UINT32_MAX / 4)
			ret = -ENOMEM;
		/* the keys held, template rules among them, and the room
		 * reserved that no template rule takes yet: a template rule
		 * counted once, not as a key and as room
		 */
		while (ret == 0 && (uint64_t)t->nb_keys + t->reserved -
				RTE_MIN(t->tmpl_rules, t->reserved) + n > t->capacity / 2)
			ret = table_grow(sw, (uint32_t)idx, &g);
		if (ret == 0)
			t->reserved += (uint32_t)n;
		else
			table_put(sw, (uint32_t)idx, &g);
	}
	if (g.nb_ptrs != 0 || g.nb_hashes != 0)
		octonic_esw_synchronize(sw);
	gc_run(sw, &g);
	return ret;
}

/* ---- checks ---- */

int
octonic_esw_check_attr(struct octonic_eswitch *sw, uint16_t pf,
		const struct rte_flow_attr *attr, struct rte_flow_error *error)
{
	if (attr == NULL)
		return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ATTR, NULL,
			"attributes missing");
	if (pf >= sw->nb_pfs)
		return octonic_esw_no_pf(error, pf);
	if (attr->egress)
		return octonic_esw_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR_EGRESS, attr,
			"egress rules are not supported");
	if (attr->ingress == attr->transfer)
		return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ATTR, attr,
			"exactly one of ingress and transfer must be set");
	if (attr->priority > SW_MAX_PRIO)
		return octonic_esw_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR_PRIORITY, attr,
			"priority %u above the highest supported, %u",
			attr->priority, SW_MAX_PRIO);
	if (attr->transfer && attr->group == UINT32_MAX &&
			sw->dialect == OCTONIC_DIALECT_MLX5_HWS) {
		/* transfer group g is hardware group g + 1 (fdb_def_rule_en=1,
		 * mlx5_flow_hw.c, __translate_group)
		 */
		return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ATTR_GROUP, attr,
			"%s: group index not supported (transfer group %u is hardware group %u + 1)",
			octonic_esw_dialect_name(sw), attr->group, attr->group);
	}
	if (attr->transfer && pf != 0 && sw->dialect != OCTONIC_DIALECT_GENERIC) {
		/* mlx5: only the e-switch manager takes transfer rules */
		return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ATTR_TRANSFER, attr,
			"%s: transfer rules only through the transfer proxy (e-switch manager) port %u, see rte_flow_pick_transfer_proxy",
			octonic_esw_dialect_name(sw), sw->pf[0].port_id);
	}
	if (attr->transfer && pf != 0)
		return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ATTR_TRANSFER, attr,
			"transfer rules must be created on the transfer proxy port %u (PF0)",
			sw->pf[0].port_id);
	return 0;
}

/* Items a pattern with a REPRESENTED_PORT item may have. */
#define SW_PATTERN_MAX 32

/*
 * A REPRESENTED_PORT item of @p it: which source it matches, into @p src
 * (0: any, the item's spec or mask is empty).  Its mask's port_id is all
 * or nothing, as mlx5 matches the whole port tag when it is non-zero
 * (hws/mlx5dr_definer.c, mlx5dr_definer_conv_item_port).
 */
static int
represented_port_item(const struct octonic_eswitch *sw,
		const struct rte_flow_item *it, uint16_t *src,
		struct rte_flow_error *error)
{
	const struct rte_flow_item_ethdev *spec = it->spec;
	const struct rte_flow_item_ethdev *mask = it->mask != NULL ? it->mask :
		&rte_flow_item_ethdev_mask;
	int p;

	*src = 0;
	if (it->last != NULL)
		return octonic_esw_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM_LAST, it,
			"represented_port: range matching (last) is not supported");
	if (spec == NULL || mask->port_id == 0)
		return 0;
	if (spec->port_id == SW_ESW_MANAGER_PORT) {
		*src = SW_SRC_PF(0);
		return 0;
	}
	p = octonic_esw_pf_of_port(sw, spec->port_id);
	if (p < 0)
		return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ITEM_SPEC, it,
			"represented_port: port %u is not a port of this e-switch",
			spec->port_id);
	*src = p == 0 ? SW_SRC_WIRE : SW_SRC_PF(p);
	return 0;
}

int
octonic_esw_port_item_src(const struct octonic_eswitch *sw, const struct rte_flow_item *it,
		struct octo_match *m, struct rte_flow_error *error)
{
	uint16_t src;
	int ret;

	ret = represented_port_item(sw, it, &src, error);
	if (ret == 0 && src != 0) {
		sw_src_set(&m->key, src);
		m->mask.layers |= OCTO_L_IN_PORT;
	}
	return ret;
}

int
octonic_esw_pattern_parse(const struct octonic_eswitch *sw,
		const struct rte_flow_attr *attr, const struct rte_flow_item pattern[],
		struct octo_match *m, struct rte_flow_error *error)
{
	struct rte_flow_item rest[SW_PATTERN_MAX + 1];
	const struct rte_flow_item *items = pattern;
	const struct rte_flow_item *port_item = NULL;
	struct octo_cls_error cerr;
	uint16_t src = 0;
	uint32_t i, n = 0;
	int ret;

	/* mlx5-hws: transfer rules may say where the frame came from */
	for (i = 0; sw->dialect == OCTONIC_DIALECT_MLX5_HWS &&
			attr->transfer && pattern != NULL &&
			pattern[i].type != RTE_FLOW_ITEM_TYPE_END; i++) {
		if (pattern[i].type != RTE_FLOW_ITEM_TYPE_REPRESENTED_PORT) {
			if (n == SW_PATTERN_MAX)
				return octonic_esw_error(error, ENOTSUP,
					RTE_FLOW_ERROR_TYPE_ITEM_NUM, NULL,
					"more than %u items", SW_PATTERN_MAX);
			rest[n++] = pattern[i];
			continue;
		}
		if (port_item != NULL)
			return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ITEM,
				&pattern[i], "represented_port: one item per pattern");
		port_item = &pattern[i];
		ret = represented_port_item(sw, port_item, &src, error);
		if (ret != 0)
			return ret;
	}
	if (port_item != NULL) {
		memset(&rest[n], 0, sizeof(rest[n]));
		rest[n].type = RTE_FLOW_ITEM_TYPE_END;
		items = rest;
	}
	ret = octo_match_from_pattern(items, m, &cerr);
	if (ret != 0) {
		/* the caller's item, not its copy */
		i = cerr.item >= 0 ? (uint32_t)cerr.item : 0;
		if (port_item != NULL && cerr.item >= 0 &&
				&pattern[i] >= port_item)
			i++;
		return octonic_esw_error(error, -ret, RTE_FLOW_ERROR_TYPE_ITEM,
			cerr.item >= 0 ? &pattern[i] : NULL,
			"pattern item %d: %s", cerr.item >= 0 ? (int)i : -1,
			cerr.msg);
	}
	if (src != 0) {
		sw_src_set(&m->key, src);
		m->mask.layers |= OCTO_L_IN_PORT;
	}
	return 0;
}

int
octonic_esw_rule_parse(struct octonic_eswitch *sw, uint16_t pf,
		const struct rte_flow_attr *attr, const struct rte_flow_item pattern[],
		const struct rte_flow_action actions[], struct rte_flow *r,
		struct rte_flow_error *error)
{
	int ret;

	ret = octonic_esw_pattern_parse(sw, attr, pattern, &r->match, error);
	if (ret != 0)
		return ret;
	sw_rule_place(pf, attr, r);
	return octonic_esw_actions_parse(sw, pf, attr, actions, r, error);
}

/*
 * Fill @p r from attr/pattern/actions, allocating only r->rss.  For
 * rte_flow_validate (@p validate) under mlx5-hws, the attributes and the
 * pattern only: mlx5's hardware steering validates nothing else
 * (mlx5_flow_hw.c, flow_hw_validate), and an application that probes
 * shapes with validate learns nothing of its actions there.
 */
static int
prepare(struct octonic_eswitch *sw, uint16_t pf, const struct rte_flow_attr *attr,
		const struct rte_flow_item pattern[],
		const struct rte_flow_action actions[], struct rte_flow *r,
		int validate, struct rte_flow_error *error)
{
	int ret;

	ret = octonic_esw_check_attr(sw, pf, attr, error);
	if (ret != 0)
		return ret;
	ret = octonic_esw_dialect_check_pattern(sw, attr, pattern, error);
	if (ret != 0)
		return ret;
	if (validate && sw->dialect == OCTONIC_DIALECT_MLX5_HWS)
		return octonic_esw_pattern_parse(sw, attr, pattern, &r->match, error);
	ret = octonic_esw_dialect_check_actions(sw, attr, actions, 0, error);
	if (ret != 0)
		return ret;
	return octonic_esw_rule_parse(sw, pf, attr, pattern, actions, r, error);
}

int
octonic_eswitch_flow_validate(struct octonic_eswitch *sw, uint16_t pf,
		const struct rte_flow_attr *attr, const struct rte_flow_item pattern[],
		const struct rte_flow_action actions[], struct rte_flow_error *error)
{
	struct rte_flow r;
	int ret;

	if (sw == NULL)
		return -ENODEV;
	memset(&r, 0, sizeof(r));
	pthread_mutex_lock(&sw->lock);
	ret = prepare(sw, pf, attr, pattern, actions, &r, 1, error);
	if (ret != 0)
		sw->stats.validate_fail++;
	rte_free(r.rss);
	pthread_mutex_unlock(&sw->lock);
	return ret;
}

/* ---- insert ---- */

/* The rules of an entry, as an array (@p one holds a single rule). */
static uint32_t
entry_rules(const void *e, struct sw_hot **one, struct sw_hot *const **rs)
{
	const struct sw_bucket *b;

	if (e == NULL)
		return 0;
	if (sw_entry_is_one(e)) {
		*one = sw_entry_rule(e);
		*rs = one;
		return 1;
	}
	b = e;
	*rs = b->r;
	return b->n;
}

/* A new entry: @p old's rules plus @p r, sorted by (prio, order). */
static void *
entry_with(const void *old, struct sw_hot *r, int socket)
{
	struct sw_hot *one, *const *rs;
	uint32_t n = entry_rules(old, &one, &rs), i, j = 0;
	struct sw_bucket *b;
	int placed = 0;

	if (n == 0)
		return sw_entry_one(r);
	b = rte_malloc_socket("octonic_bucket", sizeof(*b) + (n + 1) * sizeof(r),
		0, socket);
	if (b == NULL)
		return NULL;
	for (i = 0; i < n; i++) {
		if (!placed && (r->prio < rs[i]->prio ||
				(r->prio == rs[i]->prio &&
				 r->cold->order < rs[i]->cold->order))) {
			b->r[j++] = r;
			placed = 1;
		}
		b->r[j++] = rs[i];
	}
	if (!placed)
		b->r[j++] = r;
	b->n = j;
	return b;
}

/* A new entry: @p old's rules (two or more) without @p r. */
static void *
entry_without(const void *old, const struct sw_hot *r, int socket)
{
	struct sw_hot *one, *const *rs;
	uint32_t n = entry_rules(old, &one, &rs), i, j = 0;
	struct sw_bucket *b;

	if (n == 2)
		return sw_entry_one(rs[0] != r ? rs[0] : rs[1]);
	b = rte_malloc_socket("octonic_bucket", sizeof(*b) + n * sizeof(r), 0,
		socket);
	if (b == NULL)
		return NULL;
	for (i = 0; i < n; i++)
		if (rs[i] != r)
			b->r[j++] = rs[i];
	b->n = j;
	return b;
}

/* Record an entry's bucket (if it has one) for freeing. */
static void
gc_entry(struct sw_garbage *g, void *e)
{
	if (e != NULL && !sw_entry_is_one(e))
		gc_ptr(g, e);
}

static void
hkey_of(const struct octonic_eswitch *sw, const struct rte_flow *r,
		uint32_t *hk)
{
	octo_key_build(&sw->tables[r->table].layout, r->dgt_id, &r->match.key, hk);
}

static void
count_rule(struct octonic_eswitch *sw, const struct rte_flow *r, int delta)
{
	if (r->domain == SW_DOM_TRANSFER)
		sw->stats.transfer_rules += delta;
	else if (r->domain - 1 < (int)RTE_DIM(sw->stats.ingress_rules))
		sw->stats.ingress_rules[r->domain - 1] += delta;
}

/*
 * The room of table @p t that rule @p r must leave free: none for a
 * template rule (it takes the room its template table reserved), the room
 * template tables reserved and their rules do not use yet for any other,
 * so that a synchronous rule sharing the table grows it rather than a
 * template rule later (mlx5 gives a template table its rules' room at
 * creation: their insertion never pays a resize).
 */
static inline uint32_t
room_kept(const struct sw_table *t, const struct rte_flow *r)
{
	if (r->ttable != NULL)
		return 0;
	return t->reserved - RTE_MIN(t->tmpl_rules, t->reserved);
}

/*
 * Where a rule goes among rules of equal priority that match the same
 * packet.  mlx5's hardware steering matches the newest of them in a
 * non-root table, software steering the oldest (mlx5.rst, hardware
 * steering's limitations of the synchronous flow API: "for non-zero
 * group, after adding the new rule, and before the deletion of the old
 * rule, the new rule will be matched").  Under mlx5-hws the root table is
 * NIC Rx group 0 only: with fdb_def_rule_en=1, mlx5's default, transfer
 * group g is hardware group g + 1 (mlx5_flow_hw.c, __translate_group).
 * A rule that replaces another (an actions update) takes its seq, hence
 * its place.
 */
static uint64_t
rule_order(const struct octonic_eswitch *sw, const struct rte_flow *r)
{
	if (sw->dialect == OCTONIC_DIALECT_MLX5_HWS &&
			(r->domain == SW_DOM_TRANSFER || r->group != 0))
		return UINT64_MAX - r->seq;
	return r->seq;
}

/* The hot record of rule @p r; readers of older generations skip it */
static void
hot_init(const struct octonic_eswitch *sw, struct sw_hot *h, struct rte_flow *r)
{
	h->born = sw->gen + 1;
	h->dead = SW_GEN_INF;
	h->cold = r;
	h->prio = (uint16_t)r->prio;
	h->fate = r->fate;
	h->arg = r->fate == SW_FATE_JUMP ? r->jump_group : r->fate_arg;
	h->flags = (r->has_set_meta ? SW_HOT_SET_META : 0) |
		(r->has_mark ? SW_HOT_MARK : 0) |
		(r->has_flag ? SW_HOT_FLAG : 0) |
		(r->has_count ? SW_HOT_COUNT : 0);
	r->hot = h;
}

/*
 * Rule @p r, whose entry @p nb took key @p hk of table @p t (in place of
 * @p old, or NULL), is the first of its (domain, group, table): its count
 * record (reserved), and the view readers probe republished with it.
 * When the view cannot be, the entry is taken out again: -ENOMEM.
 */
static int
dgt_first(struct octonic_eswitch *sw, struct sw_table *t, struct rte_flow *r,
		const uint32_t *hk, hash_sig_t sig, void *old, void *nb,
		struct sw_garbage *g)
{
	struct sw_dgt *d = &sw->dgts[sw->nb_dgts++];
	int32_t pos;

	d->domain = r->domain;
	d->group = r->group;
	d->table = r->table;
	d->nb_rules = 1;
	d->id = r->dgt_id;
	sw->next_dgt_id = r->dgt_id + 1;
	if (view_publish(sw, g) == 0)
		return 0;
	/* In the table but never probed, and hidden by born anyway: take
	 * it out again.
	 */
	sw->nb_dgts--;
	if (old != NULL) {
		rte_hash_add_key_with_hash_data(t->h, hk, sig, old);
		if (!sw_entry_is_one(old))
			g->nb_ptrs--;	/* old was the last recorded */
	} else {
		pos = rte_hash_del_key_with_hash(t->h, hk, sig);
		if (pos >= 0)
			gc_key(g, t->h, pos);
		t->nb_keys--;
	}
	gc_entry(g, nb);
	gc_hot(g, r->hot);
	r->hot = NULL;
	return -ENOMEM;
}

static int
insert(struct octonic_eswitch *sw, struct rte_flow *r, struct sw_garbage *g,
		struct rte_flow_error *error)
{
	struct sw_table *t;
	void *old = NULL, *nb;
	struct sw_hot *h;
	struct sw_dgt *d;
	uint32_t hk[OCTO_KEY_LEN_MAX / sizeof(uint32_t)];
	hash_sig_t sig;
	int tidx, new_table, ret;

	r->order = rule_order(sw, r);
	if (r->table_known) {
		tidx = (int)r->table;
		new_table = 0;
	} else {
		tidx = table_get(sw, &r->match.mask, &new_table);
		if (tidx < 0)
			goto nomem;
	}
	t = &sw->tables[tidx];
	r->table = (uint32_t)tidx;
	/* The key starts with the id of the rule's (domain, group, table),
	 * the one to be created if it is the first rule there.
	 */
	d = dgt_find(sw, r->domain, r->group, r->table);
	r->dgt_id = d != NULL ? d->id : dgt_new_id(sw);
	hkey_of(sw, r, hk);
	/* One hash for the lookup and the add: a grown table's hash has the
	 * same function, key length and seed (table_hash_create).
	 */
	sig = rte_hash_hash(t->h, hk);
	if (rte_hash_lookup_with_hash_data(t->h, hk, sig, (void **)&old) < 0)
		old = NULL;
	if (old == NULL && t->nb_keys + 1 + room_kept(t, r) > t->capacity / 2) {
		if (table_grow(sw, r->table, g) != 0)
			goto undo_table;
		/* the view it republished sorted sw->dgts under d */
		d = dgt_find(sw, r->domain, r->group, r->table);
	}
	/* Reserve the count record before touching the table. */
	if (d == NULL && grow_array((void **)&sw->dgts, &sw->max_dgts,
			sizeof(*d), sw->nb_dgts + 1) != 0)
		goto undo_table;
	h = hot_alloc(sw);
	if (h == NULL)
		goto undo_table;
	/* Readers of older generations may find the rule: born hides it. */
	hot_init(sw, h, r);
	nb = entry_with(old, h, sw->socket);
	if (nb == NULL) {
		hot_release(sw, h);
		r->hot = NULL;
		goto undo_table;
	}
	ret = rte_hash_add_key_with_hash_data(t->h, hk, sig, nb);
	if (ret != 0) {
		gc_entry(g, nb);
		hot_release(sw, h);
		r->hot = NULL;
		goto undo_table;
	}
	if (old == NULL)
		t->nb_keys++;
	else
		gc_entry(g, old);
	if (d == NULL) {
		if (dgt_first(sw, t, r, hk, sig, old, nb, g) != 0)
			goto undo_table;
	} else {
		d->nb_rules++;
	}
	/* Publish: from this generation on, readers see the rule. */
	rte_atomic_store_explicit(&sw->gen, sw->gen + 1, rte_memory_order_release);
	TAILQ_INSERT_TAIL(&sw->rules, r, next);
	count_rule(sw, r, 1);
	if (r->ttable != NULL)
		t->tmpl_rules++;
	return 0;
undo_table:
	if (new_table && tidx >= 0)
		table_put(sw, (uint32_t)tidx, g);
nomem:
	return octonic_esw_error(error, ENOMEM, RTE_FLOW_ERROR_TYPE_HANDLE, NULL,
		"out of memory for the rule tables");
}

/* Rules in the tables now, every domain. */
static uint32_t
rules_held(const struct octonic_eswitch *sw)
{
	uint32_t n = sw->stats.transfer_rules, i;

	for (i = 0; i < RTE_DIM(sw->stats.ingress_rules); i++)
		n += sw->stats.ingress_rules[i];
	return n;
}

void
octonic_eswitch_room_set(struct octonic_eswitch *sw, uint32_t rules)
{
	pthread_mutex_lock(&sw->lock);
	sw->room = rules;
	pthread_mutex_unlock(&sw->lock);
}

int
octonic_esw_rule_add(struct octonic_eswitch *sw, struct rte_flow *r, uint64_t seq,
		struct rte_flow_error *error)
{
	struct sw_garbage g = { 0 };
	int ret;

	if (sw->room != 0 && rules_held(sw) >= sw->room)
		return octonic_esw_error(error, ENOSPC, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"no room: the e-switch's tables hold their %u rules", sw->room);
	r->magic = SW_RULE_MAGIC;
	r->sw = sw;
	r->seq = seq != UINT64_MAX ? seq : sw->next_seq++;
	ret = insert(sw, r, &g, error);
	if (ret != 0)
		r->magic = 0;
	else
		sw->stats.creates++;
	/* Only a new (domain, group, table), a shared match or a table that
	 * grew leave garbage; the grace period the caller owes for the rule
	 * itself is its own to batch.
	 */
	if (g.nb_ptrs != 0 || g.nb_keys != 0 || g.nb_hashes != 0 || g.nb_hots != 0)
		octonic_esw_synchronize(sw);
	/* most adds record nothing: no arrays to free either */
	if (g.ptrs != NULL || g.keys != NULL || g.hashes != NULL ||
			g.hots != NULL || g.oom)
		gc_run(sw, &g);
	return ret;
}

struct rte_flow *
octonic_eswitch_flow_create(struct octonic_eswitch *sw, uint16_t pf,
		const struct rte_flow_attr *attr, const struct rte_flow_item pattern[],
		const struct rte_flow_action actions[], struct rte_flow_error *error)
{
	struct sw_garbage g = { 0 };
	struct rte_flow *r;
	int ret;

	if (sw == NULL) {
		rte_errno = ENODEV;
		return NULL;
	}
	r = rte_zmalloc_socket("octonic_rule", sizeof(*r), RTE_CACHE_LINE_SIZE,
		sw->socket);
	if (r == NULL) {
		octonic_esw_error(error, ENOMEM, RTE_FLOW_ERROR_TYPE_HANDLE, NULL,
			"out of memory for the rule");
		return NULL;
	}
	pthread_mutex_lock(&sw->lock);
	if (sw->room != 0 && rules_held(sw) >= sw->room)
		ret = octonic_esw_error(error, ENOSPC, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"no room: the e-switch's tables hold their %u rules", sw->room);
	else
		ret = prepare(sw, pf, attr, pattern, actions, r, 0, error);
	if (ret == 0) {
		r->magic = SW_RULE_MAGIC;
		r->sw = sw;
		r->seq = sw->next_seq++;
		ret = insert(sw, r, &g, error);
	}
	if (ret != 0) {
		sw->stats.validate_fail++;
		rule_free(r);
		r = NULL;
	} else {
		sw->stats.creates++;
	}
	/*
	 * A new rule may take traffic that older rules steered elsewhere: as a
	 * NIC acknowledges a rule only once its pipeline holds no packet
	 * classified without it, return after the readers of older
	 * generations (whose frames land in their queues inside the read
	 * section) are gone.  Whoever drains the old queue after this call
	 * (net_octopus's flow gates) relies on it.
	 */
	if (r != NULL || g.nb_ptrs != 0 || g.nb_keys != 0 || g.nb_hashes != 0)
		octonic_esw_synchronize(sw);
	gc_run(sw, &g);
	pthread_mutex_unlock(&sw->lock);
	if (r == NULL)
		rte_errno = -ret;
	return r;
}

/* ---- removal ---- */

void
octonic_esw_rules_kill(struct octonic_eswitch *sw, struct rte_flow **rs, uint32_t n)
{
	uint32_t i;

	if (n == 0)
		return;
	for (i = 0; i < n; i++)
		rte_atomic_store_explicit(&rs[i]->hot->dead, sw->gen + 1, rte_memory_order_relaxed);
	rte_atomic_store_explicit(&sw->gen, sw->gen + 1, rte_memory_order_release);
}

void
octonic_esw_rules_unlink(struct octonic_eswitch *sw, struct rte_flow **rs, uint32_t n)
{
	struct sw_garbage g = { 0 };
	int need_view = 0;
	uint32_t i;

	if (n == 0)
		return;
	octonic_esw_synchronize(sw);
	/* No reader sees these rules any more: unlink them. */
	for (i = 0; i < n; i++) {
		struct rte_flow *r = rs[i];
		struct sw_table *t = &sw->tables[r->table];
		void *old = NULL, *nb;
		struct sw_dgt *d;
		uint32_t hk[OCTO_KEY_LEN_MAX / sizeof(uint32_t)];
		hash_sig_t sig;

		hkey_of(sw, r, hk);
		sig = rte_hash_hash(t->h, hk);
		if (rte_hash_lookup_with_hash_data(t->h, hk, sig, &old) >= 0 &&
				old != NULL) {
			if (sw_entry_is_one(old)) {
				int32_t pos = rte_hash_del_key_with_hash(t->h,
					hk, sig);

				if (pos >= 0)
					gc_key(&g, t->h, pos);
				t->nb_keys--;
			} else {
				nb = entry_without(old, r->hot, sw->socket);
				/* Without memory the dead rule stays listed (and
				 * ignored by generation): only a leak.
				 */
				if (nb != NULL && rte_hash_add_key_with_hash_data(t->h,
						hk, sig, nb) == 0)
					gc_entry(&g, old);
				else
					gc_entry(&g, nb);
			}
		}
		d = dgt_find(sw, r->domain, r->group, r->table);
		if (d != NULL && --d->nb_rules == 0) {
			*d = sw->dgts[--sw->nb_dgts];
			need_view = 1;
		}
		TAILQ_REMOVE(&sw->rules, r, next);
		count_rule(sw, r, -1);
		if (r->ttable != NULL && t->tmpl_rules != 0)
			t->tmpl_rules--;
		sw->stats.destroys++;
		gc_ptr(&g, r->rss);
		r->rss = NULL;
		gc_hot(&g, r->hot);
		r->hot = NULL;
		r->magic = 0;
		/* A template table's rules live in its slots; a flushed
		 * handle stays (sw->flushed).
		 */
		if (r->ttable == NULL && !r->keep_handle)
			gc_ptr(&g, r);
	}
	if (need_view) {
		if (view_publish(sw, &g) != 0)
			SW_LOG(ERR, "out of memory republishing the view");
		else
			for (i = 0; i < sw->nb_tables; i++)
				table_put(sw, i, &g);
	}
	octonic_esw_synchronize(sw);
	gc_run(sw, &g);
}

/* Remove @p n rules (all in sw->rules) as one change: they die in one
 * generation, then leave the tables after readers of older generations
 * are gone.
 */
static void
remove_rules(struct octonic_eswitch *sw, struct rte_flow **rs, uint32_t n)
{
	octonic_esw_rules_kill(sw, rs, n);
	octonic_esw_rules_unlink(sw, rs, n);
}

/* Whether @p r is a handle of @p pf's port in state @p magic: a rule, or
 * one a port's stop flushed (SW_RULE_FLUSHED: gone, its memory stays).
 */
static int
rule_of(const struct octonic_eswitch *sw, uint16_t pf, const struct rte_flow *r,
		uint32_t magic)
{
	return r != NULL && r->magic == magic && r->sw == sw &&
		(r->domain == 1 + pf || (r->domain == SW_DOM_TRANSFER && pf == 0));
}

int
octonic_eswitch_flow_destroy(struct octonic_eswitch *sw, uint16_t pf,
		struct rte_flow *flow, struct rte_flow_error *error)
{
	if (sw == NULL)
		return -ENODEV;
	pthread_mutex_lock(&sw->lock);
	if (rule_of(sw, pf, flow, SW_RULE_FLUSHED)) {
		/* Its rule went at the port's stop: what is left goes now.
		 * mlx5 answers 0 (mlx5_flow_destroy; software steering finds
		 * no rule at the handle's index, hardware steering's handle
		 * is memory it freed).
		 */
		TAILQ_REMOVE(&sw->flushed, flow, next);
		flow->magic = 0;
		rte_free(flow);
		pthread_mutex_unlock(&sw->lock);
		return 0;
	}
	if (!rule_of(sw, pf, flow, SW_RULE_MAGIC)) {
		pthread_mutex_unlock(&sw->lock);
		return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_HANDLE, flow,
			"not a rule of this port");
	}
	if (flow->ttable != NULL) {
		pthread_mutex_unlock(&sw->lock);
		return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_HANDLE, flow,
			"rule made in a template table: destroy it with rte_flow_async_destroy");
	}
	remove_rules(sw, &flow, 1);
	pthread_mutex_unlock(&sw->lock);
	return 0;
}

int
octonic_esw_rules_flush_domain(struct octonic_eswitch *sw, int dom, int keep)
{
	struct rte_flow **rs, *r;
	uint32_t n = 0, i;

	TAILQ_FOREACH(r, &sw->rules, next)
		if (dom < 0 || (r->domain == dom && r->ttable == NULL))
			n++;
	if (n == 0)
		return 0;
	rs = malloc(n * sizeof(*rs));
	if (rs == NULL)
		return -ENOMEM;
	n = 0;
	TAILQ_FOREACH(r, &sw->rules, next)
		if (dom < 0 || (r->domain == dom && r->ttable == NULL)) {
			r->keep_handle = keep;
			rs[n++] = r;
		}
	remove_rules(sw, rs, n);
	for (i = 0; keep && i < n; i++) {
		rs[i]->magic = SW_RULE_FLUSHED;
		TAILQ_INSERT_TAIL(&sw->flushed, rs[i], next);
	}
	free(rs);
	return (int)n;
}

void
octonic_eswitch_port_started(struct octonic_eswitch *sw, uint16_t pf)
{
	if (sw == NULL || pf >= sw->nb_pfs)
		return;
	pthread_mutex_lock(&sw->lock);
	/* mlx5 25.11 makes the port's steering context at its first start
	 * when rte_flow_configure did not (mlx5_trigger.c, flow_hw_init);
	 * 22.11 only at rte_flow_configure
	 */
	if (sw->dialect == OCTONIC_DIALECT_MLX5_HWS &&
			sw->mlx5_dpdk >= OCTONIC_MLX5_DPDK_25_11)
		sw->flow_ctx[pf] = 1;
	pthread_mutex_unlock(&sw->lock);
}

int
octonic_eswitch_flow_ctx(struct octonic_eswitch *sw, uint16_t pf)
{
	int ret;

	if (sw == NULL || pf >= sw->nb_pfs)
		return 0;
	pthread_mutex_lock(&sw->lock);
	ret = sw->flow_ctx[pf];
	pthread_mutex_unlock(&sw->lock);
	return ret;
}

void
octonic_esw_rules_free_all(struct octonic_eswitch *sw)
{
	struct sw_garbage g = { 0 };
	struct rte_flow *r;
	uint32_t i;

	while (!TAILQ_EMPTY(&sw->rules))
		if (octonic_esw_rules_flush_domain(sw, -1, 0) <= 0)
			break;
	while ((r = TAILQ_FIRST(&sw->flushed)) != NULL) {
		TAILQ_REMOVE(&sw->flushed, r, next);
		r->magic = 0;
		rte_free(r);
	}
	for (i = 0; i < sw->nb_tables; i++)
		if (sw->tables[i].h != NULL)
			gc_hash(&g, sw->tables[i].h);
	gc_ptr(&g, sw->view);
	sw->view = NULL;
	gc_run(sw, &g);
	rte_free(sw->tables);
	sw->tables = NULL;
	sw->nb_tables = 0;
	free(sw->dgts);
	sw->dgts = NULL;
	sw->nb_dgts = 0;
	sw->max_dgts = 0;
	for (i = 0; i < sw->nb_hot_chunks; i++)
		rte_free(sw->hot_chunks[i]);
	free(sw->hot_chunks);
	free(sw->hot_free);
	sw->hot_chunks = NULL;
	sw->hot_free = NULL;
	sw->nb_hot_chunks = 0;
	sw->nb_hot_free = 0;
}

int
octonic_eswitch_flow_query(struct octonic_eswitch *sw, uint16_t pf,
		struct rte_flow *flow, const struct rte_flow_action *action,
		void *data, struct rte_flow_error *error)
{
	struct rte_flow_query_count *c = data;

	if (sw == NULL)
		return -ENODEV;
	pthread_mutex_lock(&sw->lock);
	if (!rule_of(sw, pf, flow, SW_RULE_MAGIC)) {
		pthread_mutex_unlock(&sw->lock);
		return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_HANDLE, flow,
			"not a rule of this port");
	}
	if (action == NULL || action->type != RTE_FLOW_ACTION_TYPE_COUNT ||
			!flow->has_count || c == NULL) {
		pthread_mutex_unlock(&sw->lock);
		return octonic_esw_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, action,
			"only COUNT can be queried, on a rule with a COUNT action");
	}
	if (c->reset) {
		c->hits = rte_atomic_exchange_explicit(&flow->hits, 0, rte_memory_order_relaxed);
		c->bytes = rte_atomic_exchange_explicit(&flow->bytes, 0, rte_memory_order_relaxed);
	} else {
		c->hits = rte_atomic_load_explicit(&flow->hits, rte_memory_order_relaxed);
		c->bytes = rte_atomic_load_explicit(&flow->bytes, rte_memory_order_relaxed);
	}
	c->hits_set = 1;
	c->bytes_set = 1;
	pthread_mutex_unlock(&sw->lock);
	return 0;
}

int
octonic_eswitch_flow_isolate(struct octonic_eswitch *sw, uint16_t pf, int set,
		struct rte_flow_error *error)
{
	if (sw == NULL)
		return -ENODEV;
	if (pf >= sw->nb_pfs)
		return octonic_esw_no_pf(error, pf);
	rte_atomic_store_explicit(&sw->pf[pf].isolated, set != 0, rte_memory_order_release);
	rte_atomic_fetch_add_explicit(&sw->cfg_epoch, 1, rte_memory_order_release);
	return 0;
}
