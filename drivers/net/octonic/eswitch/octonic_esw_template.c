/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/* The template API's control path: info_get, configure, pattern and
 * actions templates, template tables (the layout is in
 * octonic_esw_template.h; their rule slots: octonic_esw_slot.c).
 * Everything here runs under sw->lock.
 */

#include <errno.h>
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>

#include "octonic_esw_template.h"

static struct sw_fport *
fport_of(struct octonic_eswitch *sw, uint16_t pf, struct rte_flow_error *error)
{
	if (pf >= sw->nb_pfs) {
		octonic_esw_no_pf(error, pf);
		return NULL;
	}
	if (sw->fport[pf] == NULL &&
			octonic_esw_dialect_templates(sw, "template or table", error) == 0)
		octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"the flow engine of PF %u is not configured: call rte_flow_configure first",
			pf);
	return sw->fport[pf];
}

int
octonic_eswitch_flow_info_get(struct octonic_eswitch *sw, uint16_t pf,
		struct rte_flow_port_info *port_info,
		struct rte_flow_queue_info *queue_info, struct rte_flow_error *error)
{
	if (pf >= sw->nb_pfs)
		return octonic_esw_no_pf(error, pf);
	if (octonic_esw_dialect_templates(sw, "info get", error) != 0)
		return -ENOTSUP;
	if (port_info == NULL || queue_info == NULL)
		return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"port_info and queue_info are needed");
	memset(port_info, 0, sizeof(*port_info));
	memset(queue_info, 0, sizeof(*queue_info));
	port_info->max_nb_queues = SW_TMPL_MAX_QUEUES;
	/* COUNT is a rule's own counter: no pool to size. */
	port_info->max_nb_counters = UINT32_MAX;
	queue_info->max_size = SW_TMPL_MAX_QUEUE_SIZE;
	return 0;
}

/* ---- configure ---- */

static int
same_config(const struct sw_fport *fp, const struct rte_flow_port_attr *attr,
		uint16_t nb_queue, const struct rte_flow_queue_attr *qa[])
{
	uint16_t i;

	if (fp->nb_queue != nb_queue ||
			fp->attr.nb_counters != attr->nb_counters ||
			fp->attr.flags != attr->flags)
		return 0;
	for (i = 0; i < nb_queue; i++)
		if (fp->q[i].size != qa[i]->size)
			return 0;
	return 1;
}

static void
fport_release(struct sw_fport *fp)
{
	uint32_t i;

	if (fp == NULL)
		return;
	for (i = 0; i < fp->nb_q && fp->q != NULL; i++) {
		rte_free(fp->q[i].ops);
		free(fp->q[i].dead);
	}
	rte_free(fp->q);
	free(fp);
}

static struct sw_fport *
fport_new(struct octonic_eswitch *sw, uint16_t pf,
		const struct rte_flow_port_attr *attr, uint16_t nb_queue,
		const struct rte_flow_queue_attr *qa[])
{
	struct sw_fport *fp = calloc(1, sizeof(*fp));
	uint32_t i;

	if (fp == NULL)
		return NULL;
	fp->pf = pf;
	fp->attr = *attr;
	fp->nb_queue = nb_queue;
	/* mlx5's hardware steering adds a control queue of its own at index
	 * nb_queue, as big as queue 0 (mlx5_flow_hw.c, __flow_hw_configure:
	 * nb_q_updated = nb_queue + 1); applications (DPDK's flow_filtering)
	 * insert on it.
	 */
	fp->nb_q = nb_queue + (sw->dialect == OCTONIC_DIALECT_MLX5_HWS);
	TAILQ_INIT(&fp->pts);
	TAILQ_INIT(&fp->ats);
	TAILQ_INIT(&fp->tables);
	fp->q = rte_zmalloc_socket("octonic_fq", fp->nb_q * sizeof(*fp->q),
		RTE_CACHE_LINE_SIZE, sw->socket);
	if (fp->q == NULL)
		goto fail;
	for (i = 0; i < fp->nb_q; i++) {
		uint32_t size = qa[i < nb_queue ? i : 0]->size;

		fp->q[i].size = size;
		fp->q[i].ops = rte_zmalloc_socket("octonic_fq_ops",
			size * sizeof(struct sw_op), RTE_CACHE_LINE_SIZE, sw->socket);
		fp->q[i].dead = malloc(size * sizeof(*fp->q[i].dead));
		if (fp->q[i].ops == NULL || fp->q[i].dead == NULL)
			goto fail;
	}
	return fp;
fail:
	fport_release(fp);
	return NULL;
}

/* A flow engine configuration's arguments, as rte_flow_info_get bounds them */
static int
configure_check(const struct octonic_eswitch *sw, uint16_t pf, int started,
		const struct rte_flow_port_attr *port_attr, uint16_t nb_queue,
		const struct rte_flow_queue_attr *queue_attr[],
		struct rte_flow_error *error)
{
	uint16_t i;

	if (pf >= sw->nb_pfs)
		return octonic_esw_no_pf(error, pf);
	if (octonic_esw_dialect_templates(sw, "port configure", error) != 0)
		return -ENOTSUP;
	if (started)
		return octonic_esw_error(error, EBUSY, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"the port is started: configure the flow engine while it is stopped");
	if (port_attr == NULL || (nb_queue != 0 && queue_attr == NULL))
		return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"port and queue attributes are needed");
	if (nb_queue == 0 || nb_queue > SW_TMPL_MAX_QUEUES)
		return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"%u flow queues: the port has 1 to %u (rte_flow_info_get)",
			nb_queue, SW_TMPL_MAX_QUEUES);
	for (i = 0; i < nb_queue; i++) {
		if (queue_attr[i] == NULL || queue_attr[i]->size == 0 ||
				queue_attr[i]->size > SW_TMPL_MAX_QUEUE_SIZE) {
			return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_UNSPECIFIED,
				NULL, "flow queue %u: size must be 1 to %u (rte_flow_info_get)",
				i, SW_TMPL_MAX_QUEUE_SIZE);
		}
	}
	for (i = 1; i < nb_queue && sw->dialect == OCTONIC_DIALECT_MLX5_HWS; i++)
		if (queue_attr[i]->size != queue_attr[0]->size) {
			/* mlx5_flow_hw.c, flow_hw_validate_attributes */
			return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_UNSPECIFIED,
				NULL, "%s: All flow queues must have the same size",
				octonic_esw_dialect_name(sw));
		}
	if (port_attr->nb_aging_objects != 0 || port_attr->nb_meters != 0 ||
			port_attr->nb_conn_tracks != 0) {
		/* (25.11's nb_quotas needs no check: no QUOTA action parses) */
		return octonic_esw_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"aging, meters and connection tracking are not supported (rte_flow_info_get: 0)");
	}
	return 0;
}

int
octonic_eswitch_flow_configure(struct octonic_eswitch *sw, uint16_t pf,
		int started, const struct rte_flow_port_attr *port_attr,
		uint16_t nb_queue, const struct rte_flow_queue_attr *queue_attr[],
		struct rte_flow_error *error)
{
	struct sw_fport *fp, *old;
	uint16_t i;
	int ret;

	ret = configure_check(sw, pf, started, port_attr, nb_queue, queue_attr,
		error);
	if (ret != 0)
		return ret;
	pthread_mutex_lock(&sw->lock);
	old = sw->fport[pf];
	if (old != NULL) {
		for (i = 0; i < old->nb_q; i++)
			if (old->q[i].n != 0) {
				ret = (octonic_esw_error(error, EBUSY,
					RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
					"flow queue %u holds operations: pull them first",
					i), -EBUSY);
				goto out;
			}
		if (same_config(old, port_attr, nb_queue, queue_attr))
			goto out;
		if (sw->dialect == OCTONIC_DIALECT_MLX5_HWS &&
				sw->mlx5_dpdk >= OCTONIC_MLX5_DPDK_25_11) {
			/* mlx5_flow_hw.c, __flow_hw_configure */
			ret = (octonic_esw_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_UNSPECIFIED,
				NULL, "%s: Changing HWS configuration attributes is not supported",
				octonic_esw_dialect_name(sw)), -ENOTSUP);
			goto out;
		}
		if (sw->dialect == OCTONIC_DIALECT_MLX5_HWS) {
			/* 22.11's flow_hw_configure releases what the first
			 * configuration made, tables and templates included
			 * (flow_hw_resource_release): their handles are then
			 * dangling, as there
			 */
			SW_LOG(WARNING, "%s: PF %u configured again: its tables and templates are released",
				octonic_esw_dialect_name(sw), pf);
			octonic_esw_fport_free(sw, pf);
			old = NULL;
		} else if (!TAILQ_EMPTY(&old->tables) || !TAILQ_EMPTY(&old->pts) ||
				!TAILQ_EMPTY(&old->ats)) {
			ret = (octonic_esw_error(error, EBUSY, RTE_FLOW_ERROR_TYPE_UNSPECIFIED,
				NULL, "templates or tables exist: %s",
				"destroy them before configuring again"),
				-EBUSY);
			goto out;
		}
	}
	fp = fport_new(sw, pf, port_attr, nb_queue, queue_attr);
	if (fp == NULL) {
		ret = (octonic_esw_error(error, ENOMEM, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"out of memory for the flow queues"), -ENOMEM);
		goto out;
	}
	sw->fport[pf] = fp;
	sw->flow_ctx[pf] = 1;
	fport_release(old);
out:
	pthread_mutex_unlock(&sw->lock);
	return ret;
}

/* ---- templates ---- */

static void *
conv_dup(struct octonic_eswitch *sw, enum rte_flow_conv_op op, const void *src,
		struct rte_flow_error *error)
{
	int len = rte_flow_conv(op, NULL, 0, src, error);
	void *dst;

	if (len < 0)
		return NULL;
	dst = rte_zmalloc_socket("octonic_tmpl", len, RTE_CACHE_LINE_SIZE,
		sw->socket);
	if (dst == NULL) {
		octonic_esw_error(error, ENOMEM, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"out of memory for the template");
		return NULL;
	}
	if (rte_flow_conv(op, dst, len, src, error) < 0) {
		rte_free(dst);
		return NULL;
	}
	return dst;
}

/* The directions of a template: one of ingress and transfer (the model
 * has no egress rules), transfer only on the transfer proxy.
 */
static int
check_dir(struct octonic_eswitch *sw, uint16_t pf, uint8_t ingress,
		uint8_t egress, uint8_t transfer, struct rte_flow_error *error)
{
	if (egress)
		return octonic_esw_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR_EGRESS, NULL,
			"egress rules are not supported");
	if (ingress == transfer)
		return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ATTR, NULL,
			"exactly one of ingress and transfer must be set");
	if (transfer && pf != 0) {
		/* mlx5_flow_hw.c, flow_hw_pattern_validate / flow_hw_actions_validate */
		return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ATTR_TRANSFER, NULL,
			"%s: transfer templates only on the transfer proxy port %u (PF0), see rte_flow_pick_transfer_proxy",
			octonic_esw_dialect_name(sw), sw->pf[0].port_id);
	}
	return 0;
}

/* ---- pattern plans (struct sw_pplan) ---- */

/* Probing specs: one buffer per item, zero but for the bits probed. */
typedef uint8_t sw_probe_specs[SW_TMPL_MAX_ITEMS][SW_PPLAN_SPEC_MAX];

/* Bytes of an item's spec: rte_flow_conv's size of the item with a spec,
 * less the item's own; -1 when it does not know the type.
 */
static int
spec_size(enum rte_flow_item_type type)
{
	static const uint8_t zero[SW_PPLAN_SPEC_MAX];
	const struct rte_flow_item it = { .type = type, .spec = zero };
	int n = rte_flow_conv(RTE_FLOW_CONV_OP_ITEM, NULL, 0, &it, NULL);

	return n < (int)sizeof(it) ? -1 : n - (int)sizeof(it);
}

/* The parse of @p pt's rule with @p spec (none for the items of
 * @p no_spec, as for those the template leaves unmasked).
 */
static int
probe(const struct rte_flow_pattern_template *pt, sw_probe_specs spec,
		uint32_t no_spec, struct octo_match *m)
{
	struct rte_flow_item it[SW_TMPL_MAX_ITEMS + 1];
	struct octo_cls_error cerr;
	uint32_t i;

	for (i = 0; i < pt->nb_items; i++) {
		it[i].type = pt->items[i].type;
		it[i].spec = pt->items[i].mask != NULL &&
			(no_spec >> i & 1) == 0 ? spec[i] : NULL;
		it[i].last = NULL;
		it[i].mask = pt->items[i].mask;
	}
	memset(&it[i], 0, sizeof(it[i]));
	it[i].type = RTE_FLOW_ITEM_TYPE_END;
	return octo_match_from_pattern(it, m, &cerr);
}

/* Where the one spec bit set in @p spec lands in the key: its bit index,
 * -1 nowhere, -2 the parse does what a plan cannot (refuses, changes the
 * mask, clears a bit or sets several).
 */
static int
probe_bit(const struct rte_flow_pattern_template *pt, sw_probe_specs spec,
		const struct octo_match *base)
{
	const uint8_t *k, *b = (const uint8_t *)&base->key;
	struct octo_match m;
	uint32_t d;
	int pos = -1;

	if (probe(pt, spec, 0, &m) != 0 ||
			!octo_flow_key_equal(&m.mask, &base->mask))
		return -2;
	k = (const uint8_t *)&m.key;
	for (d = 0; d < sizeof(m.key); d++) {
		uint8_t x = k[d] ^ b[d];

		if (x == 0)
			continue;
		if ((b[d] & ~k[d]) != 0 || pos >= 0 || (x & (x - 1)) != 0)
			return -2;
		pos = (int)(d * 8) + rte_ctz32(x);
	}
	return pos;
}

static int
plan_copy(struct sw_pplan *p, uint32_t item, uint32_t src, uint32_t dst)
{
	struct sw_pcopy *c = p->nb_copies != 0 ? &p->copy[p->nb_copies - 1] :
		NULL;

	if (c != NULL && c->item == item && c->src + c->len == src &&
			c->dst + c->len == dst && c->len < 8) {
		c->len++;
		return 0;
	}
	if (p->nb_copies == RTE_DIM(p->copy))
		return -1;
	p->copy[p->nb_copies++] = (struct sw_pcopy){ .item = item, .src = src,
		.dst = dst, .len = 1 };
	return 0;
}

/* Spec byte @p j of item @p i: the key bits @p pos[] of its bits (-1:
 * none) as a copy when they stay in place in one byte, else bit by bit.
 */
static int
plan_byte(struct sw_pplan *p, uint32_t i, uint32_t j, const int pos[8])
{
	uint8_t *keep = (uint8_t *)p->keep, bits = 0;
	int d = -1, b, inplace = 1;

	for (b = 0; b < 8; b++) {
		if (pos[b] < 0)
			continue;
		bits |= 1u << b;
		if (pos[b] % 8 != b || (d >= 0 && pos[b] / 8 != d))
			inplace = 0;
		d = pos[b] / 8;
	}
	if (bits == 0)
		return 0;
	if (inplace) {
		keep[d] |= bits;
		return plan_copy(p, i, j, (uint32_t)d);
	}
	for (b = 0; b < 8; b++) {
		if (pos[b] < 0)
			continue;
		if (p->nb_bits == RTE_DIM(p->bit))
			return -1;
		p->bit[p->nb_bits++] = (struct sw_pbit){ .item = i, .src = j,
			.sbit = b, .dst = pos[b] / 8, .dbit = pos[b] % 8 };
	}
	return 0;
}

/*
 * Work out @p pt's plan: parse the template once with zero specs (the
 * base), once per item without its spec (is it needed?), once per spec
 * bit alone (where does it land?); then check the plan against the parse
 * with every spec bit set.  The parser maps each spec bit on its own
 * (key = spec & mask, field by field), which is what makes the plan
 * exact; a template whose parse is not that keeps the parse (ok 0).
 * Costs a few hundred parses, once per template.
 */
static void
pplan_build(const struct rte_flow_pattern_template *pt, struct sw_pplan *p)
{
	alignas(sizeof(uint64_t)) sw_probe_specs spec;
	struct rte_flow_item it[SW_TMPL_MAX_ITEMS];
	uint8_t claimed[sizeof(struct octo_flow_key)] = { 0 };
	struct octo_match base, m, planned;
	int size[SW_TMPL_MAX_ITEMS], pos[8];
	uint32_t i, j, b;

	memset(p, 0, sizeof(*p));
	memset(spec, 0, sizeof(spec));
	for (i = 0; i < pt->nb_items; i++) {
		size[i] = pt->items[i].mask != NULL ?
			spec_size(pt->items[i].type) : 0;
		if (size[i] < 0 || size[i] > SW_PPLAN_SPEC_MAX)
			return;
	}
	if (probe(pt, spec, 0, &base) != 0)
		return;
	memcpy(p->kbase, &base.key, sizeof(p->kbase));
	p->mask = base.mask;
	for (i = 0; i < pt->nb_items; i++)
		if (pt->items[i].mask != NULL && (probe(pt, spec, 1u << i, &m) != 0 ||
				memcmp(&m, &base, sizeof(m)) != 0))
			p->spec_needed |= 1u << i;
	for (i = 0; i < pt->nb_items; i++)
		for (j = 0; j < (uint32_t)size[i]; j++) {
			for (b = 0; b < 8; b++) {
				spec[i][j] = 1u << b;
				pos[b] = probe_bit(pt, spec, &base);
				spec[i][j] = 0;
				if (pos[b] == -2)
					return;
				if (pos[b] < 0)
					continue;
				/* two spec bits on one key bit, or a bit that
				 * counts in a spec that need not be given
				 */
				if ((claimed[pos[b] / 8] >> (pos[b] % 8) & 1) != 0 ||
						(p->spec_needed >> i & 1) == 0)
					return;
				claimed[pos[b] / 8] |= 1u << (pos[b] % 8);
			}
			if (plan_byte(p, i, j, pos) != 0)
				return;
		}
	for (i = 0; i < pt->nb_items; i++) {
		memset(spec[i], 0xff, size[i]);
		it[i].spec = spec[i];
	}
	if (probe(pt, spec, 0, &m) != 0 || sw_pplan_apply(p, it, &planned) != 0 ||
			memcmp(&m, &planned, sizeof(m)) != 0)
		return;
	p->ok = 1;
}

/*
 * The plan of @p pt where a transfer pattern of mlx5-hws says which port
 * its frames come from (a REPRESENTED_PORT item, the e-switch's own
 * vocabulary: octonic_esw_pattern_parse): the plan of the other items, their
 * indices moved back to the template's, and the port's place, which each
 * rule's spec names (its source is looked up per rule).
 */
static void
pplan_build_ported(const struct rte_flow_pattern_template *pt, struct sw_pplan *p)
{
	struct rte_flow_pattern_template *sub;
	uint32_t i, n = 0, port = UINT32_MAX;
	uint32_t needed;
	const struct rte_flow_item_ethdev *mask;

	for (i = 0; i < pt->nb_items; i++)
		if (pt->items[i].type == RTE_FLOW_ITEM_TYPE_REPRESENTED_PORT) {
			if (port != UINT32_MAX)
				return;	/* refused by the parse */
			port = i;
		}
	if (port == UINT32_MAX) {
		pplan_build(pt, p);
		return;
	}
	mask = pt->items[port].mask;
	if (mask == NULL || mask->port_id != UINT16_MAX)
		return;	/* partial or no port match: parsed */
	sub = calloc(1, sizeof(*sub) + (pt->nb_items + 1) * sizeof(*sub->items));
	if (sub == NULL)
		return;
	*sub = *pt;
	sub->items = (struct rte_flow_item *)(sub + 1);
	for (i = 0; i <= pt->nb_items; i++)
		if (i != port)
			sub->items[n++] = pt->items[i];
	sub->nb_items = pt->nb_items - 1;
	pplan_build(sub, p);
	free(sub);
	if (!p->ok)
		return;
	for (i = 0; i < p->nb_copies; i++)
		p->copy[i].item += p->copy[i].item >= port;
	for (i = 0; i < p->nb_bits; i++)
		p->bit[i].item += p->bit[i].item >= port;
	needed = p->spec_needed;
	p->spec_needed = (needed & ((1u << port) - 1)) |
		((needed >> port) << (port + 1)) | 1u << port;
	p->mask.layers |= OCTO_L_IN_PORT;
	p->port_item = (uint8_t)(port + 1);
}

struct rte_flow_pattern_template *
octonic_eswitch_pattern_template_create(struct octonic_eswitch *sw, uint16_t pf,
		const struct rte_flow_pattern_template_attr *attr,
		const struct rte_flow_item pattern[], struct rte_flow_error *error)
{
	struct rte_flow_pattern_template *pt = NULL;
	struct sw_fport *fp;
	uint32_t n = 0;
	int ret = -EINVAL;

	pthread_mutex_lock(&sw->lock);
	fp = fport_of(sw, pf, error);
	if (fp == NULL)
		goto fail;
	if (attr == NULL || pattern == NULL) {
		octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ATTR, NULL,
			"attributes and pattern are needed");
		goto fail;
	}
	ret = check_dir(sw, pf, attr->ingress, attr->egress, attr->transfer, error);
	if (ret != 0)
		goto fail;
	while (pattern[n].type != RTE_FLOW_ITEM_TYPE_END) {
		if (++n > SW_TMPL_MAX_ITEMS) {
			ret = octonic_esw_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM_NUM, NULL,
				"more than %u items", SW_TMPL_MAX_ITEMS);
			goto fail;
		}
		if (pattern[n - 1].last != NULL) {
			ret = octonic_esw_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM_LAST,
				&pattern[n - 1], "range matching (last) is not supported");
			goto fail;
		}
	}
	pt = calloc(1, sizeof(*pt));
	if (pt == NULL) {
		ret = octonic_esw_error(error, ENOMEM, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"out of memory for the template");
		goto fail;
	}
	pt->items = conv_dup(sw, RTE_FLOW_CONV_OP_PATTERN, pattern, error);
	if (pt->items == NULL) {
		ret = -(error != NULL && error->type != RTE_FLOW_ERROR_TYPE_NONE &&
			rte_errno != 0 ? rte_errno : ENOTSUP);
		goto fail;
	}
	pt->magic = SW_PT_MAGIC;
	pt->pf = pf;
	pt->ingress = attr->ingress;
	pt->egress = attr->egress;
	pt->transfer = attr->transfer;
	pt->relaxed = attr->relaxed_matching;
	pt->nb_items = n;
	if (sw->dialect == OCTONIC_DIALECT_MLX5_HWS && pt->transfer)
		pplan_build_ported(pt, &pt->plan);
	else
		pplan_build(pt, &pt->plan);
	TAILQ_INSERT_TAIL(&fp->pts, pt, next);
	pthread_mutex_unlock(&sw->lock);
	return pt;
fail:
	free(pt);
	pthread_mutex_unlock(&sw->lock);
	rte_errno = -ret;
	return NULL;
}

/* Whether a template may go: it is one of the port's (@p ok) and no
 * table uses it (mlx5_flow_hw.c, flow_hw_pattern_template_destroy and
 * flow_hw_actions_template_destroy: "<mlx5_name> is in use", EBUSY).
 */
static int
may_destroy(struct octonic_eswitch *sw, uint16_t pf, int ok, uint32_t refcnt,
		const char *what, const char *mlx5_name, struct rte_flow_error *error)
{
	if (fport_of(sw, pf, error) == NULL)
		return -EINVAL;
	if (!ok)
		return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"not %s of this port", what);
	if (refcnt != 0)
		return octonic_esw_error(error, EBUSY, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"%s is in use (by %u tables)", mlx5_name, refcnt);
	return 0;
}

static void
pt_free(struct sw_fport *fp, struct rte_flow_pattern_template *pt)
{
	TAILQ_REMOVE(&fp->pts, pt, next);
	pt->magic = 0;
	rte_free(pt->items);
	free(pt);
}

static void
at_free(struct sw_fport *fp, struct rte_flow_actions_template *at)
{
	TAILQ_REMOVE(&fp->ats, at, next);
	at->magic = 0;
	rte_free(at->actions);
	rte_free(at->masks);
	free(at);
}

int
octonic_eswitch_pattern_template_destroy(struct octonic_eswitch *sw,
		uint16_t pf, struct rte_flow_pattern_template *pt,
		struct rte_flow_error *error)
{
	int ret;

	pthread_mutex_lock(&sw->lock);
	ret = may_destroy(sw, pf, pt != NULL && pt->magic == SW_PT_MAGIC &&
		pt->pf == pf, pt != NULL ? pt->refcnt : 0, "a pattern template",
		"item template", error);
	if (ret == 0)
		pt_free(sw->fport[pf], pt);
	pthread_mutex_unlock(&sw->lock);
	return ret;
}

/*
 * Whether an actions template's mask fixes the action's conf for every
 * rule.  A mask conf alone does not: as in mlx5's hardware steering
 * (mlx5_flow_hw.c, flow_hw_actions_translate and
 * flow_hw_action_modify_field_is_shared), the field that carries the value
 * must be non-zero in the mask, so testpmd's "mask queue / end" (a zeroed
 * QUEUE conf) leaves each rule its own queue.
 */
static uint8_t
action_fixed(const struct rte_flow_action *a, const struct rte_flow_action *m)
{
	const struct rte_flow_action_modify_field *mf;
	uint32_t j;

	if (m->conf == NULL)
		return 0;
	switch (m->type) {
	case RTE_FLOW_ACTION_TYPE_QUEUE:
		return ((const struct rte_flow_action_queue *)m->conf)->index != 0;
	case RTE_FLOW_ACTION_TYPE_JUMP:
		return ((const struct rte_flow_action_jump *)m->conf)->group != 0;
	case RTE_FLOW_ACTION_TYPE_MARK:
		return ((const struct rte_flow_action_mark *)m->conf)->id != 0;
	case RTE_FLOW_ACTION_TYPE_SET_META:
		return ((const struct rte_flow_action_set_meta *)m->conf)->data != 0;
	case RTE_FLOW_ACTION_TYPE_PORT_ID:
		return ((const struct rte_flow_action_port_id *)m->conf)->id != 0;
	case RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT:
	case RTE_FLOW_ACTION_TYPE_PORT_REPRESENTOR:
		return ((const struct rte_flow_action_ethdev *)m->conf)->port_id != 0;
	case RTE_FLOW_ACTION_TYPE_MODIFY_FIELD:
		mf = m->conf;
		if (a->conf == NULL)
			return 1;
		if (((const struct rte_flow_action_modify_field *)a->conf)->src.field ==
				RTE_FLOW_FIELD_VALUE) {
			for (j = 0; j < RTE_DIM(mf->src.value); j++)
				if (mf->src.value[j] != 0)
					return 1;
			return 0;
		}
		if (((const struct rte_flow_action_modify_field *)a->conf)->src.field ==
				RTE_FLOW_FIELD_POINTER)
			return mf->src.pvalue != NULL;
		return 1;
	case RTE_FLOW_ACTION_TYPE_RSS:
		return a->conf != NULL;
	default:
		return 1;
	}
}

struct rte_flow_actions_template *
octonic_eswitch_actions_template_create(struct octonic_eswitch *sw,
		uint16_t pf, const struct rte_flow_actions_template_attr *attr,
		const struct rte_flow_action actions[],
		const struct rte_flow_action masks[], struct rte_flow_error *error)
{
	struct rte_flow_actions_template *at = NULL;
	struct sw_fport *fp;
	uint32_t n = 0, i;
	int ret = -EINVAL;

	pthread_mutex_lock(&sw->lock);
	fp = fport_of(sw, pf, error);
	if (fp == NULL)
		goto fail;
	if (attr == NULL || actions == NULL || masks == NULL) {
		octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ATTR, NULL,
			"attributes, actions and masks are needed");
		goto fail;
	}
	/* An actions template without a direction serves any table (as on
	 * mlx5; testpmd's "flow actions_template" sets none unless asked).
	 */
	if (attr->ingress || attr->egress || attr->transfer) {
		ret = check_dir(sw, pf, attr->ingress, attr->egress,
			attr->transfer, error);
		if (ret != 0)
			goto fail;
	}
	for (n = 0; actions[n].type != RTE_FLOW_ACTION_TYPE_END; n++) {
		if (n >= SW_TMPL_MAX_ACTIONS) {
			ret = octonic_esw_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION_NUM,
				NULL, "more than %u actions", SW_TMPL_MAX_ACTIONS);
			goto fail;
		}
	}
	for (i = 0; i <= n; i++)
		if (masks[i].type != actions[i].type) {
			/* mlx5_flow_hw.c, mlx5_flow_hw_actions_validate */
			ret = octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION,
				&masks[i], "mask type does not match action type");
			goto fail;
		}
	ret = octonic_esw_dialect_check_actions_template(sw, actions, masks, error);
	if (ret != 0)
		goto fail;
	at = calloc(1, sizeof(*at));
	if (at == NULL) {
		ret = octonic_esw_error(error, ENOMEM, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"out of memory for the template");
		goto fail;
	}
	at->actions = conv_dup(sw, RTE_FLOW_CONV_OP_ACTIONS, actions, error);
	at->masks = at->actions != NULL ?
		conv_dup(sw, RTE_FLOW_CONV_OP_ACTIONS, masks, error) : NULL;
	if (at->masks == NULL) {
		ret = -ENOTSUP;
		goto fail;
	}
	at->magic = SW_AT_MAGIC;
	at->pf = pf;
	at->ingress = attr->ingress;
	at->egress = attr->egress;
	at->transfer = attr->transfer;
	at->nb_actions = n;
	for (i = 0; i < n; i++)
		at->fixed[i] = action_fixed(&at->actions[i], &at->masks[i]);
	TAILQ_INSERT_TAIL(&fp->ats, at, next);
	pthread_mutex_unlock(&sw->lock);
	return at;
fail:
	if (at != NULL) {
		rte_free(at->actions);
		free(at);
	}
	pthread_mutex_unlock(&sw->lock);
	rte_errno = -ret;
	return NULL;
}

int
octonic_eswitch_actions_template_destroy(struct octonic_eswitch *sw,
		uint16_t pf, struct rte_flow_actions_template *at,
		struct rte_flow_error *error)
{
	int ret;

	pthread_mutex_lock(&sw->lock);
	ret = may_destroy(sw, pf, at != NULL && at->magic == SW_AT_MAGIC &&
		at->pf == pf, at != NULL ? at->refcnt : 0, "an actions template",
		"action template", error);
	if (ret == 0)
		at_free(sw->fport[pf], at);
	pthread_mutex_unlock(&sw->lock);
	return ret;
}

/* ---- tables ---- */

static void
table_release(struct rte_flow_template_table *t)
{
	uint32_t i;

	for (i = 0; i < t->nb_chunks; i++)
		rte_free(t->chunks[i]);
	free(t->chunks);
	free(t->free);
	t->magic = 0;
	free(t);
}

/* Whether a table is specialised for the wire's frames. */
static uint8_t
table_wire_orig(const struct rte_flow_template_table_attr *attr)
{
#if OCTO_DPDK_HAS_TABLE_SPECIALIZE
	return attr->flow_attr.transfer &&
		(attr->specialize & RTE_FLOW_TABLE_SPECIALIZE_TRANSFER_WIRE_ORIG) != 0;
#else
	RTE_SET_USED(attr);
	return 0;
#endif
}

/* What mlx5 refuses when building a table (mlx5_flow_hw.c,
 * flow_hw_table_create and the template validation), plus what the
 * model's e-switch refuses of any rule of the table.
 */
static int
table_check(struct octonic_eswitch *sw, uint16_t pf,
		const struct rte_flow_template_table_attr *attr,
		struct rte_flow_pattern_template *pts[], uint8_t nb_pt,
		struct rte_flow_actions_template *ats[], uint8_t nb_at,
		struct rte_flow_error *error)
{
	const struct rte_flow_attr *fa;
	unsigned int where;
	uint8_t i, j;
	int ret;

	if (attr == NULL)
		return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ATTR, NULL,
			"table attributes are needed");
	fa = &attr->flow_attr;
	if (attr->nb_flows == 0)
		return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ATTR, attr,
			"a table holds at least one rule (nb_flows)");
	if (nb_pt == 0 || nb_pt > SW_TMPL_MAX_PER_TABLE || nb_at == 0 ||
			nb_at > SW_TMPL_MAX_PER_TABLE || pts == NULL || ats == NULL) {
		return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"a table has 1 to %u pattern and 1 to %u actions templates",
			SW_TMPL_MAX_PER_TABLE, SW_TMPL_MAX_PER_TABLE);
	}
	ret = octonic_esw_check_attr(sw, pf, fa, error);
	if (ret != 0)
		return ret;
	for (i = 0; i < nb_pt; i++) {
		if (pts[i] == NULL || pts[i]->magic != SW_PT_MAGIC || pts[i]->pf != pf)
			return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_UNSPECIFIED,
				pts[i], "pattern template %u is not one of this port", i);
		if (pts[i]->ingress != fa->ingress || pts[i]->transfer != fa->transfer)
			return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ATTR, fa,
				"pattern template %u was made for another domain %s",
				i, "than the table's");
	}
	for (j = 0; j < nb_at; j++) {
		if (ats[j] == NULL || ats[j]->magic != SW_AT_MAGIC || ats[j]->pf != pf)
			return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_UNSPECIFIED,
				ats[j], "actions template %u is not one of this port", j);
		if ((ats[j]->ingress || ats[j]->transfer) &&
				(ats[j]->ingress != fa->ingress ||
				 ats[j]->transfer != fa->transfer)) {
			return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ATTR, fa,
				"actions template %u was made for another domain %s",
				j, "than the table's");
		}
	}
	/* The dialect's refusals look at the item and action types and at
	 * the constant parts of the actions: once per pair of templates.
	 */
	where = SW_CHK_TABLE | (table_wire_orig(attr) ? SW_CHK_WIRE_ORIG : 0);
	for (i = 0; i < nb_pt; i++)
		for (j = 0; j < nb_at; j++) {
			ret = octonic_esw_dialect_check(sw, fa, pts[i]->items,
				ats[j]->actions, where, error);
			if (ret != 0)
				return ret;
		}
	return 0;
}

/* The mask every rule of @p pt in @p t has (the parse of the template's
 * items with their masks as values), refusing a pattern no rule could
 * have.
 */
static int
pt_mask(const struct octonic_eswitch *sw, const struct rte_flow_template_table *t,
		const struct rte_flow_pattern_template *pt, struct octo_flow_key *mask,
		struct rte_flow_error *error)
{
	struct rte_flow_item it[SW_TMPL_MAX_ITEMS + 1];
	struct octo_match m;
	uint32_t i;
	int ret;

	for (i = 0; i <= pt->nb_items; i++) {
		it[i] = pt->items[i];
		it[i].spec = it[i].mask;
	}
	ret = octonic_esw_pattern_parse(sw, &t->attr, it, &m, error);
	if (ret != 0) {
		/* the template's item, not the probe's */
		if (error != NULL)
			error->cause = NULL;
		return ret;
	}
	if (t->wire_orig)
		sw_wire_orig_apply(&m);
	*mask = m.mask;
	return 0;
}

static void
table_unreserve(struct octonic_eswitch *sw, struct rte_flow_template_table *t)
{
	while (t->nb_reserved > 0)
		octonic_esw_table_reserve(sw, &t->mask[--t->nb_reserved],
			-(int64_t)t->nb_flows);
}

/* Size the e-switch's tables for the rules of @p t now. */
static int
table_reserve(struct octonic_eswitch *sw, struct rte_flow_template_table *t,
		struct rte_flow_error *error)
{
	int ret;

	while (t->nb_reserved < t->nb_pt) {
		ret = pt_mask(sw, t, t->pt[t->nb_reserved],
			&t->mask[t->nb_reserved], error);
		if (ret == 0) {
			ret = octonic_esw_table_reserve(sw, &t->mask[t->nb_reserved],
				t->nb_flows);
			if (ret != 0)
				octonic_esw_error(error, ENOMEM, RTE_FLOW_ERROR_TYPE_UNSPECIFIED,
					NULL, "no memory for a table of %u rules",
					t->nb_flows);
		}
		if (ret != 0) {
			table_unreserve(sw, t);
			return ret;
		}
		t->nb_reserved++;
	}
	return 0;
}

struct rte_flow_template_table *
octonic_eswitch_template_table_create(struct octonic_eswitch *sw, uint16_t pf,
		const struct rte_flow_template_table_attr *attr,
		struct rte_flow_pattern_template *pts[], uint8_t nb_pt,
		struct rte_flow_actions_template *ats[], uint8_t nb_at,
		struct rte_flow_error *error)
{
	struct rte_flow_template_table *t = NULL;
	struct sw_fport *fp;
	uint8_t i;
	int ret = -EINVAL;

	pthread_mutex_lock(&sw->lock);
	fp = fport_of(sw, pf, error);
	if (fp == NULL)
		goto fail;
	ret = table_check(sw, pf, attr, pts, nb_pt, ats, nb_at, error);
	if (ret != 0)
		goto fail;
	ret = -ENOMEM;
	t = calloc(1, sizeof(*t));
	if (t == NULL)
		goto nomem;
	t->free = malloc((size_t)attr->nb_flows * sizeof(*t->free));
	if (t->free == NULL)
		goto nomem;
	t->magic = SW_TBL_MAGIC;
	t->pf = pf;
	t->attr = attr->flow_attr;
	t->nb_flows = attr->nb_flows;
	t->wire_orig = table_wire_orig(attr);
	rte_spinlock_init(&t->slot_lock);
	t->nb_pt = nb_pt;
	t->nb_at = nb_at;
	for (i = 0; i < nb_pt; i++)
		t->pt[i] = pts[i];
	for (i = 0; i < nb_at; i++)
		t->at[i] = ats[i];
	ret = table_reserve(sw, t, error);
	if (ret != 0) {
		free(t->free);
		free(t);
		goto fail;
	}
	RTE_BUILD_BUG_ON(SW_TMPL_MAX_ACTIONS > SW_APLAN_MAX);
	for (i = 0; i < nb_at; i++)
		octonic_esw_aplan_build(sw, pf, &t->attr, ats[i]->actions, ats[i]->fixed,
			ats[i]->nb_actions, &t->aplan[i]);
	for (i = 0; i < nb_pt; i++) {
		struct octo_match pm = { .mask = pts[i]->plan.mask };

		if (t->wire_orig)
			sw_wire_orig_apply(&pm);
		t->sw_table[i] = pts[i]->plan.ok &&
			octo_flow_key_equal(&pm.mask, &t->mask[i]) ?
			octonic_esw_table_index(sw, &t->mask[i]) : -1;
	}
	for (i = 0; i < nb_pt; i++)
		pts[i]->refcnt++;
	for (i = 0; i < nb_at; i++)
		ats[i]->refcnt++;
	TAILQ_INSERT_TAIL(&fp->tables, t, next);
	pthread_mutex_unlock(&sw->lock);
	return t;
nomem:
	octonic_esw_error(error, ENOMEM, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
		"out of memory for the table");
	free(t);
fail:
	pthread_mutex_unlock(&sw->lock);
	rte_errno = -ret;
	return NULL;
}

static void
table_unref(struct rte_flow_template_table *t)
{
	uint8_t i;

	for (i = 0; i < t->nb_pt; i++)
		t->pt[i]->refcnt--;
	for (i = 0; i < t->nb_at; i++)
		t->at[i]->refcnt--;
}

int
octonic_eswitch_template_table_destroy(struct octonic_eswitch *sw, uint16_t pf,
		struct rte_flow_template_table *t, struct rte_flow_error *error)
{
	struct sw_fport *fp;
	int ret = 0;

	pthread_mutex_lock(&sw->lock);
	fp = fport_of(sw, pf, error);
	if (fp == NULL) {
		ret = -EINVAL;
	} else if (t == NULL || t->magic != SW_TBL_MAGIC || t->pf != pf) {
		ret = octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, t,
			"not a template table of this port");
	} else if (t->nb_used != 0) {
		/* mlx5_flow_hw.c, flow_hw_table_destroy: rules not yet
		 * destroyed, or whose destroy was not pushed, hold the table
		 */
		ret = (octonic_esw_error(error, EBUSY, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"table is in use (%u rules)", t->nb_used), -EBUSY);
	} else {
		TAILQ_REMOVE(&fp->tables, t, next);
		table_unreserve(sw, t);
		table_unref(t);
		table_release(t);
	}
	pthread_mutex_unlock(&sw->lock);
	return ret;
}

/* The rules in the tables for the made rules of @p t, into @p rs (room
 * for nb_flows); @p updated_only: only those an actions update made, which
 * live outside the table's slots.
 */
static uint32_t
table_live(const struct rte_flow_template_table *t, struct rte_flow **rs,
		int updated_only)
{
	uint32_t c, i, n = 0;

	for (c = 0; c < t->nb_chunks; c++) {
		struct rte_flow *chunk = t->chunks[c];
		uint32_t nb = RTE_MIN(t->nb_flows - c * SW_TBL_CHUNK,
			(uint32_t)SW_TBL_CHUNK);

		for (i = 0; i < nb; i++)
			if (chunk[i].tstate == SW_TS_IN && chunk[i].live != NULL &&
					(!updated_only || chunk[i].live != &chunk[i]))
				rs[n++] = chunk[i].live;
	}
	return n;
}

/* Under sw->lock, the queues drained: every rule of @p t leaves the
 * tables and its slot is free again.  @return 0, or -ENOMEM (its rules
 * stay).
 */
static int
table_flush(struct octonic_eswitch *sw, struct rte_flow_template_table *t)
{
	struct rte_flow **rs;
	uint32_t c, i, n;

	if (t->nb_used == 0)
		return 0;
	rs = malloc(t->nb_flows * sizeof(*rs));
	if (rs == NULL)
		return -ENOMEM;
	/* Every slot of a drained table is free or in the tables. */
	n = table_live(t, rs, 0);
	octonic_esw_rules_kill(sw, rs, n);
	octonic_esw_rules_unlink(sw, rs, n);
	/* what actions updates made live outside the slots */
	n = table_live(t, rs, 1);
	for (i = 0; i < n; i++)
		rte_free(rs[i]);
	free(rs);
	for (c = 0; c < t->nb_chunks; c++) {
		struct rte_flow *chunk = t->chunks[c];
		uint32_t nb = RTE_MIN(t->nb_flows - c * SW_TBL_CHUNK,
			(uint32_t)SW_TBL_CHUNK);

		for (i = 0; i < nb; i++)
			if (chunk[i].tstate == SW_TS_IN)
				octonic_esw_tbl_slot_put(t, &chunk[i]);
	}
	return 0;
}

void
octonic_esw_fport_flush_rules(struct octonic_eswitch *sw, uint16_t pf)
{
	struct sw_fport *fp = pf < SW_MAX_PFS ? sw->fport[pf] : NULL;
	struct rte_flow_template_table *t;

	if (fp == NULL)
		return;
	octonic_esw_fport_drain_all(sw, fp);
	TAILQ_FOREACH(t, &fp->tables, next)
		if (table_flush(sw, t) != 0)
			SW_LOG(ERR, "out of memory flushing a template table: its rules stay");
}

/* Under sw->lock: the PF's port closes, its template rules, tables,
 * templates and queues go.
 */
void
octonic_esw_fport_free(struct octonic_eswitch *sw, uint16_t pf)
{
	struct sw_fport *fp = pf < SW_MAX_PFS ? sw->fport[pf] : NULL;
	struct rte_flow_template_table *t;
	struct rte_flow_pattern_template *pt;
	struct rte_flow_actions_template *at;

	if (fp == NULL)
		return;
	octonic_esw_fport_drain_all(sw, fp);
	while ((t = TAILQ_FIRST(&fp->tables)) != NULL) {
		if (table_flush(sw, t) != 0)
			SW_LOG(ERR, "out of memory freeing a template table: its rules stay");
		TAILQ_REMOVE(&fp->tables, t, next);
		table_unreserve(sw, t);
		table_unref(t);
		table_release(t);
	}
	while ((pt = TAILQ_FIRST(&fp->pts)) != NULL)
		pt_free(fp, pt);
	while ((at = TAILQ_FIRST(&fp->ats)) != NULL)
		at_free(fp, at);
	fport_release(fp);
	sw->fport[pf] = NULL;
}
