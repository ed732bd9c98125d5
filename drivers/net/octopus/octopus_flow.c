/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Flow ops of the virtual port: the application's rules become transfer
 * classification rules on the members' e-switch (octopus_flow.h), created
 * through the members' common transfer proxy.  ethdev serialises these ops
 * (the port does not claim RTE_ETH_DEV_FLOW_OPS_THREAD_SAFE), so the rule
 * list needs no lock of its own.
 *
 * Nothing half-made: a rule whose member rules cannot all be created has
 * the ones made removed again before the error returns.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_hash_crc.h>
#include <rte_malloc.h>
#include <ethdev_driver.h>

#include "octopus_internal.h"
#include "octopus_flow.h"
#include "octopus_migrate.h"

int octopus_flow_fault_after;

static struct octopus_flows *
flows_get(struct octopus_priv *p)
{
	if (p->flows == NULL) {
		p->flows = rte_zmalloc("octopus_flows", sizeof(*p->flows), 0);
		if (p->flows == NULL)
			return NULL;
		TAILQ_INIT(&p->flows->list);
		p->flows->reach = rte_calloc("octopus_flow_reach",
			(size_t)(p->args.reta_size + 2) * OCTOPUS_MAX_QUEUES,
			sizeof(*p->flows->reach), 0);
		if (p->flows->reach == NULL) {
			rte_free(p->flows);
			p->flows = NULL;
		}
	}
	return p->flows;
}

/*
 * The port the application rules are created on: the members' common
 * transfer proxy.  Refused (ENOTSUP) for members without an e-switch, as
 * the steering is (its reason is kept in steer_why).
 */
static int
proxy_get(struct octopus_priv *p, uint16_t *proxy, struct rte_flow_error *error)
{
	struct octopus_member *m;
	uint16_t i, px = RTE_MAX_ETHPORTS;

	if (p->started && p->steer == NULL && rte_eth_devices[p->port_id].data->nb_rx_queues)
		return octopus_flow_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"no e-switch steering on this port's members (%s): rte_flow rules need it",
			p->steer_why[0] ? p->steer_why : "not supported");
	if (p->nb_members == 0)
		return octopus_flow_error(error, ENODEV, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"no members");
	OCTO_FOREACH_MEMBER(p, i, m) {
		struct rte_flow_error err = { 0 };
		uint16_t mp = RTE_MAX_ETHPORTS;
		int ret;

		if (m->state < OCTO_MEMBER_OWNED && m->loss == OCTO_LOSS_RELEASED)
			continue;	/* gone: the others still share the e-switch */
		if (m->state < OCTO_MEMBER_OWNED)
			return octopus_flow_error(error, ENODEV, RTE_FLOW_ERROR_TYPE_UNSPECIFIED,
				NULL, "member %s not found yet", m->name);
		ret = rte_flow_pick_transfer_proxy(m->port_id, &mp, &err);
		if (ret != 0)
			return octopus_flow_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_UNSPECIFIED,
				NULL, "member %s has no rte_flow e-switch (transfer proxy: %s)",
				m->name, err.message != NULL ? err.message : rte_strerror(-ret));
		if (px == RTE_MAX_ETHPORTS)
			px = mp;
		else if (mp != px)
			return octopus_flow_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_UNSPECIFIED,
				NULL, "members are not ports of one e-switch (transfer proxies %u and %u)",
				px, mp);
	}
	if (px == RTE_MAX_ETHPORTS)
		return octopus_flow_error(error, ENODEV, RTE_FLOW_ERROR_TYPE_UNSPECIFIED,
			NULL, "every member is gone");
	*proxy = px;
	return 0;
}

static struct octo_steer_app_conf
app_conf(const struct octopus_priv *p)
{
	struct octo_steer_app_conf c;

	memset(&c, 0, sizeof(c));
	c.nb_queues = rte_eth_devices[p->port_id].data->nb_rx_queues;
	c.reta_size = p->args.reta_size;
	c.field = (enum octo_steer_field)p->args.field;
	c.home_group = 0;	/* the steering's default home group */
	return c;
}

static int
plan(const struct octopus_priv *p, const struct octo_steer_app_rule *r,
		struct octo_steer_app_entry **e, uint32_t *nb, struct rte_flow_error *error)
{
	struct octo_steer_app_conf c = app_conf(p);
	char why[160];
	int ret;

	ret = octo_steer_app_plan(&c, r, e, nb, why, sizeof(why));
	if (ret != 0)
		return octopus_flow_error(error, -ret, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"%s", why);
	return 0;
}

/* Member errors keep their cause but say where they came from. */
static int
member_error(struct rte_flow_error *error, int ret, uint16_t proxy)
{
	const char *msg = error != NULL && error->message != NULL ? error->message :
		rte_strerror(-ret);
	enum rte_flow_error_type type = error != NULL ? error->type :
		RTE_FLOW_ERROR_TYPE_UNSPECIFIED;
	char copy[200];

	snprintf(copy, sizeof(copy), "%s", msg);
	/* a PMD without rte_flow is "cannot", not "bad rule" */
	if (ret == -ENOSYS)
		ret = -ENOTSUP;
	return octopus_flow_error(error, -ret, type, NULL,
		"members' e-switch (port %u) refused the rule: %s", proxy, copy);
}

static void
hw_remove(struct octopus_flow *f)
{
	struct rte_flow_query_count c;
	struct rte_flow_action count[2] = {
		{ .type = RTE_FLOW_ACTION_TYPE_COUNT },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	uint32_t i;

	for (i = 0; i < f->nb_hw; i++) {
		if (f->hw[i] == NULL)
			continue;
		/* keep what it counted: the application's count spans restarts */
		if (f->app.has_count) {
			memset(&c, 0, sizeof(c));
			if (rte_flow_query(f->proxy, f->hw[i], count, &c, NULL) == 0) {
				f->hits_gone += c.hits;
				f->bytes_gone += c.bytes;
			}
		}
		if (rte_flow_destroy(f->proxy, f->hw[i], NULL) != 0)
			OCTO_LOG(ERR, "flow: removing a member rule on port %u failed",
				f->proxy);
		f->hw[i] = NULL;
	}
	free(f->hw);
	f->hw = NULL;
	f->nb_hw = 0;
	f->installed = 0;
}

/*
 * Create the member rules of @p f, all or nothing, from @p given (the
 * parse of the rule being created) or, when NULL (replay), from a parse of
 * its copy.
 */
static int
hw_install(struct octopus_priv *p, struct octopus_flow *f,
		struct octopus_flow_parsed *given, struct rte_flow_error *error)
{
	struct octopus_flow_parsed *parsed = given;
	struct octo_steer_app_entry *e = NULL;
	uint32_t nb = 0, i;
	uint16_t proxy;
	int ret;

	ret = proxy_get(p, &proxy, error);
	if (ret != 0)
		return -rte_errno;
	if (parsed == NULL) {
		parsed = malloc(sizeof(*parsed));
		if (parsed == NULL)
			return octopus_flow_error(error, ENOMEM, RTE_FLOW_ERROR_TYPE_UNSPECIFIED,
				NULL, "no memory");
		ret = octopus_flow_parse(p, f->copy->attr_ro, f->copy->pattern_ro,
			f->copy->actions_ro, parsed, error);
	}
	if (ret == 0) {
		parsed->app.level = f->app.level;
		ret = plan(p, &parsed->app, &e, &nb, error);
	}
	if (ret != 0) {
		if (parsed != given)
			free(parsed);
		return -rte_errno;
	}
	/* control data of this process only: the C heap, not the shared one */
	f->hw = calloc(nb, sizeof(*f->hw));
	if (f->hw == NULL) {
		free(e);
		if (parsed != given)
			free(parsed);
		return octopus_flow_error(error, ENOMEM, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"no memory for %u member rules", nb);
	}
	f->nb_hw = nb;
	f->proxy = proxy;
	for (i = 0; i < nb; i++) {
		if (octopus_flow_fault_after > 0 && --octopus_flow_fault_after == 0)
			ret = octopus_flow_error(error, ENOSPC, RTE_FLOW_ERROR_TYPE_UNSPECIFIED,
				NULL, "injected: no room for member rule %u of %u", i, nb);
		else
			ret = octopus_flow_hw_make(proxy, f->copy->pattern_ro, &e[i], 0,
				&f->hw[i], error);
		if (ret < 0) {
			ret = member_error(error, ret, proxy);
			hw_remove(f);
			break;
		}
		if (ret == 1)
			f->hw[i] = NULL;	/* the pattern excludes this bucket */
		ret = 0;
	}
	if (ret == 0)
		f->installed = 1;
	free(e);
	if (parsed != given)
		free(parsed);
	return ret;
}

static void
flow_free(struct octopus_flow *f)
{
	if (f == NULL)
		return;
	free(f->hw);
	free(f->copy);
	free(f);
}

/*
 * Gating: every create or destroy of a group-0 QUEUE or RSS rule gates each
 * queue the rule's traffic moves to on each queue it may come from, prepared
 * before the rule changes.  Without the rule that traffic may go to the RETA
 * queue of every default bucket its pattern can hit and to the queues of
 * every other such rule that can hit one of those buckets (reach_of): a
 * create moves it from all of those to the rule's queues, a destroy from the
 * rule's queues to all of those.  No state is kept across calls: a destroy +
 * create of the same traffic is two gated changes.
 */

/* Row of octopus_flows.reach: bucket b, or every bucket (wide), or the sum. */
static uint32_t *
reach_row(const struct octopus_priv *p, int b)
{
	return p->flows->reach + (size_t)(b < 0 ? p->args.reta_size : b) * OCTOPUS_MAX_QUEUES;
}

static uint32_t *
reach_all(const struct octopus_priv *p)
{
	return p->flows->reach + (size_t)(p->args.reta_size + 1) * OCTOPUS_MAX_QUEUES;
}

/* Count (@p n = 1) or uncount (-1) the queues of @p f where it may deliver. */
static void
reach_count(struct octopus_priv *p, const struct octopus_flow *f, int n)
{
	uint32_t *row = reach_row(p, f->bucket), *all = reach_all(p);
	uint64_t qs;
	unsigned int q;

	for (qs = f->queues; qs != 0; qs &= qs - 1) {
		q = __builtin_ctzll(qs);
		row[q] += n;
		all[q] += n;
	}
}

/* The queues traffic hitting bucket @p b (-1: any) may go to without @p f. */
static uint64_t
reach_of(const struct octopus_priv *p, int b)
{
	const uint32_t *row = reach_row(p, b), *wide = reach_row(p, -1), *all = reach_all(p);
	uint64_t qs = 0;
	unsigned int i;

	for (i = 0; i < p->args.reta_size; i++)
		if (b < 0 || (int)i == b)
			qs |= UINT64_C(1) << (p->reta[i] % OCTOPUS_MAX_QUEUES);
	for (i = 0; i < OCTOPUS_MAX_QUEUES; i++)
		if (b < 0 ? all[i] != 0 : row[i] != 0 || wide[i] != 0)
			qs |= UINT64_C(1) << i;
	return qs;
}

/* Queues a rule delivers to: those of a group-0 QUEUE or RSS rule. */
static uint64_t
flow_queues(const struct octo_steer_app_rule *app)
{
	uint64_t qs = 0;
	uint32_t i;

	if (app->group != 0)
		return 0;
	if (app->fate == OCTO_STEER_APP_QUEUE)
		qs = UINT64_C(1) << (app->queue % OCTOPUS_MAX_QUEUES);
	else if (app->fate == OCTO_STEER_APP_RSS)
		for (i = 0; i < app->rss_num; i++)
			qs |= UINT64_C(1) << (app->rss_queues[i] % OCTOPUS_MAX_QUEUES);
	return qs;
}

/* The gates of creating (@p create) or destroying @p f, f not counted. */
static void
flow_gates(const struct octopus_priv *p, const struct octopus_flow *f, bool create,
		struct octopus_gate_set *s)
{
	uint64_t other = f->queues != 0 ? reach_of(p, f->bucket) : 0;
	uint64_t to = create ? f->queues : other;
	unsigned int d;

	memset(s, 0, sizeof(*s));
	for (; to != 0; to &= to - 1) {
		d = __builtin_ctzll(to);
		s->src[d] = create ? other : f->queues;
	}
}

/* ---- index: by key and by handle -------------------------------------- */

static uint32_t
ptr_hash(const void *ptr)
{
	return rte_hash_crc_8byte((uint64_t)(uintptr_t)ptr, 0);
}

static void
index_link(struct octopus_flows *fl, struct octopus_flow *f)
{
	uint32_t mask = fl->nb_buckets - 1;
	uint32_t kb = f->key & mask, pb = ptr_hash(f) & mask;

	f->key_next = fl->by_key[kb];
	fl->by_key[kb] = f;
	f->ptr_next = fl->by_ptr[pb];
	fl->by_ptr[pb] = f;
}

/* Room for @p n rules: rebuild both tables from the list when short. */
static int
index_reserve(struct octopus_flows *fl, uint32_t n)
{
	struct octopus_flow **bk, **bp;
	struct octopus_flow *f;
	uint32_t nb = fl->nb_buckets ? fl->nb_buckets : 64;

	if (n <= fl->nb_buckets)
		return 0;
	while (nb < n)
		nb <<= 1;
	bk = rte_calloc("octopus_flow_by_key", nb, sizeof(*bk), 0);
	bp = rte_calloc("octopus_flow_by_ptr", nb, sizeof(*bp), 0);
	if (bk == NULL || bp == NULL) {
		rte_free(bk);
		rte_free(bp);
		return -ENOMEM;
	}
	rte_free(fl->by_key);
	rte_free(fl->by_ptr);
	fl->by_key = bk;
	fl->by_ptr = bp;
	fl->nb_buckets = nb;
	TAILQ_FOREACH(f, &fl->list, next)
		index_link(fl, f);
	return 0;
}

static void
index_unlink(struct octopus_flows *fl, struct octopus_flow *f)
{
	uint32_t mask = fl->nb_buckets - 1;
	struct octopus_flow **pp;

	for (pp = &fl->by_key[f->key & mask]; *pp != NULL; pp = &(*pp)->key_next)
		if (*pp == f) {
			*pp = f->key_next;
			break;
		}
	for (pp = &fl->by_ptr[ptr_hash(f) & mask]; *pp != NULL; pp = &(*pp)->ptr_next)
		if (*pp == f) {
			*pp = f->ptr_next;
			break;
		}
}

static void
index_free(struct octopus_flows *fl)
{
	rte_free(fl->by_key);
	rte_free(fl->by_ptr);
	fl->by_key = NULL;
	fl->by_ptr = NULL;
	fl->nb_buckets = 0;
}

/* Another rule matching the same traffic (same attr and pattern). */
static struct octopus_flow *
twin_of(struct octopus_flows *fl, uint32_t key, const struct octopus_flow *self)
{
	struct octopus_flow *f;

	if (fl->nb_buckets == 0)
		return NULL;
	for (f = fl->by_key[key & (fl->nb_buckets - 1)]; f != NULL; f = f->key_next)
		if (f != self && f->key == key)
			return f;
	return NULL;
}

/* The rule behind @p handle; the handle is compared, never dereferenced
 * before it is known to be one of ours.
 */
static struct octopus_flow *
flow_find(struct octopus_flows *fl, const struct rte_flow *handle)
{
	struct octopus_flow *f;

	if (fl == NULL || fl->nb_buckets == 0)
		return NULL;
	for (f = fl->by_ptr[ptr_hash(handle) & (fl->nb_buckets - 1)]; f != NULL;
			f = f->ptr_next)
		if ((const void *)f == (const void *)handle)
			return f;
	return NULL;
}

/* ---- ops --------------------------------------------------------------- */

static int
flow_validate(struct rte_eth_dev *dev, const struct rte_flow_attr *attr,
		const struct rte_flow_item pattern[], const struct rte_flow_action actions[],
		struct rte_flow_error *error)
{
	struct octopus_priv *p = octo_priv(dev);
	struct octopus_flow_parsed *parsed;
	struct octo_steer_app_entry *e = NULL;
	uint32_t nb = 0, i;
	uint16_t proxy;
	int ret;

	parsed = malloc(sizeof(*parsed));
	if (parsed == NULL)
		return octopus_flow_error(error, ENOMEM, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"no memory");
	ret = octopus_flow_parse(p, attr, pattern, actions, parsed, error);
	if (ret == 0)
		ret = proxy_get(p, &proxy, error);
	if (ret == 0)
		ret = plan(p, &parsed->app, &e, &nb, error);
	for (i = 0; ret == 0 && i < nb; i++) {
		ret = octopus_flow_hw_make(proxy, pattern, &e[i], 1, NULL, error);
		if (ret < 0)
			ret = member_error(error, ret, proxy);
		else
			ret = 0;
	}
	free(e);
	free(parsed);
	return ret;
}

static struct rte_flow *
flow_create(struct rte_eth_dev *dev, const struct rte_flow_attr *attr,
		const struct rte_flow_item pattern[], const struct rte_flow_action actions[],
		struct rte_flow_error *error)
{
	struct octopus_priv *p = octo_priv(dev);
	struct rte_flow_conv_rule in = {
		.attr_ro = attr, .pattern_ro = pattern, .actions_ro = actions,
	};
	struct octopus_flow_parsed *parsed;
	struct octopus_flow *f = NULL, *twin;
	struct octopus_gate_set gates;
	struct octopus_flows *fl;
	int size, ret;

	parsed = malloc(sizeof(*parsed));
	if (parsed == NULL) {
		octopus_flow_error(error, ENOMEM, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"no memory");
		return NULL;
	}
	ret = octopus_flow_parse(p, attr, pattern, actions, parsed, error);
	if (ret != 0)
		goto fail;
	fl = flows_get(p);
	f = calloc(1, sizeof(*f));
	if (fl == NULL || f == NULL) {
		octopus_flow_error(error, ENOMEM, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"no memory");
		goto fail;
	}
	/* the deep copy: the rule can be installed again without the app */
	size = rte_flow_conv(RTE_FLOW_CONV_OP_RULE, NULL, 0, &in, error);
	if (size < 0)
		goto fail;
	f->copy = malloc(size);
	if (f->copy == NULL) {
		octopus_flow_error(error, ENOMEM, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"no memory for the rule's copy (%d bytes)", size);
		goto fail;
	}
	if (rte_flow_conv(RTE_FLOW_CONV_OP_RULE, f->copy, size, &in, error) != size)
		goto fail;
	f->app = parsed->app;
	f->app.rss_queues = NULL;	/* a replay parses the copy again */
	f->key = octopus_flow_key(attr, pattern);
	/*
	 * Make-before-break: a rule for traffic another rule already takes
	 * gets the other level, so that whichever is removed last, some rule
	 * always takes the traffic.  Level 0 wins, so such a rule wins at once
	 * when its twin is at level 1 (the level of every first rule).
	 */
	twin = twin_of(fl, f->key, NULL);
	f->app.level = twin != NULL ? twin->app.level ^ 1 : 1;
	if (index_reserve(fl, fl->nb + 1) != 0) {
		octopus_flow_error(error, ENOMEM, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"no memory for the rule index");
		goto fail;
	}
	f->bucket = octopus_flow_bucket_of((enum octo_steer_field)p->args.field,
		p->args.reta_size, pattern);
	f->queues = flow_queues(&parsed->app);
	flow_gates(p, f, true, &gates);
	octopus_migrate_gates_prepare(p, &gates);
	ret = hw_install(p, f, parsed, error);
	octopus_migrate_gates_finish(p, &gates, ret == 0);
	if (ret != 0)
		goto fail;
	TAILQ_INSERT_TAIL(&fl->list, f, next);
	index_link(fl, f);
	fl->nb++;
	reach_count(p, f, 1);
	free(parsed);
	return (struct rte_flow *)f;
fail:
	flow_free(f);
	free(parsed);
	return NULL;
}

/*
 * Remove rule @p f.  @p gate: its traffic goes elsewhere now, gated; flush
 * does not gate (everything goes).
 */
static void
flow_remove(struct octopus_priv *p, struct octopus_flow *f, bool gate)
{
	struct octopus_flows *fl = p->flows;
	struct octopus_gate_set gates;

	reach_count(p, f, -1);
	if (gate) {
		flow_gates(p, f, false, &gates);
		octopus_migrate_gates_prepare(p, &gates);
	}
	hw_remove(f);
	if (gate)
		octopus_migrate_gates_finish(p, &gates, true);
	TAILQ_REMOVE(&fl->list, f, next);
	index_unlink(fl, f);
	fl->nb--;
	flow_free(f);
}

static int
flow_destroy(struct rte_eth_dev *dev, struct rte_flow *handle,
		struct rte_flow_error *error)
{
	struct octopus_priv *p = octo_priv(dev);
	struct octopus_flow *f = flow_find(p->flows, handle);

	if (f == NULL)
		return octopus_flow_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_HANDLE, handle,
			"not a rule of this port");
	flow_remove(p, f, true);
	return 0;
}

static int
flow_flush(struct rte_eth_dev *dev, struct rte_flow_error *error)
{
	struct octopus_priv *p = octo_priv(dev);
	struct octopus_flow *f;

	RTE_SET_USED(error);
	if (p->flows == NULL)
		return 0;
	while ((f = TAILQ_LAST(&p->flows->list, octopus_flow_list)) != NULL)
		flow_remove(p, f, false);
	return 0;
}

static int
flow_query(struct rte_eth_dev *dev, struct rte_flow *handle,
		const struct rte_flow_action *action, void *data,
		struct rte_flow_error *error)
{
	struct octopus_priv *p = octo_priv(dev);
	struct octopus_flow *f = flow_find(p->flows, handle);
	struct rte_flow_query_count *out = data, c;
	uint64_t hits, bytes;
	uint32_t i;
	int ret;

	if (f == NULL)
		return octopus_flow_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_HANDLE, handle,
			"not a rule of this port");
	if (action == NULL || action->type != RTE_FLOW_ACTION_TYPE_COUNT)
		return octopus_flow_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, action,
			"only COUNT can be queried");
	if (!f->app.has_count)
		return octopus_flow_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION, action,
			"the rule has no COUNT action");
	hits = f->hits_gone;
	bytes = f->bytes_gone;
	/* one application rule may be many member rules (RSS): their sum */
	for (i = 0; i < f->nb_hw; i++) {
		if (f->hw[i] == NULL)
			continue;
		memset(&c, 0, sizeof(c));
		c.reset = out->reset;
		ret = rte_flow_query(f->proxy, f->hw[i], action, &c, error);
		if (ret != 0)
			return member_error(error, ret, f->proxy);
		hits += c.hits;
		bytes += c.bytes;
	}
	if (out->reset) {
		f->hits_gone = 0;
		f->bytes_gone = 0;
	}
	out->hits_set = 1;
	out->bytes_set = 1;
	out->hits = hits;
	out->bytes = bytes;
	return 0;
}

/*
 * Isolated mode: only the application's rules deliver.  One transfer rule
 * ETH -> DROP between the application's priorities and the default buckets
 * takes everything no application rule took (priority pair 15 of group 0
 * is kept for it).
 */
static int
flow_isolate(struct rte_eth_dev *dev, int set, struct rte_flow_error *error)
{
	struct octopus_priv *p = octo_priv(dev);
	struct rte_flow_item items[2] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_action actions[2] = {
		{ .type = RTE_FLOW_ACTION_TYPE_DROP },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_attr attr = {
		.group = 0, .priority = OCTO_STEER_PRIO_ISOLATE, .transfer = 1,
	};
	struct octopus_flows *fl;
	uint16_t proxy;
	int ret;

	set = !!set;
	fl = flows_get(p);
	if (fl == NULL)
		return octopus_flow_error(error, ENOMEM, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"no memory");
	if (fl->isolated == set)
		return 0;
	if (!set) {
		if (fl->isolate_rule != NULL &&
				rte_flow_destroy(fl->isolate_proxy, fl->isolate_rule, error) != 0)
			return member_error(error, -rte_errno, fl->isolate_proxy);
		fl->isolate_rule = NULL;
		fl->isolated = 0;
		return 0;
	}
	ret = proxy_get(p, &proxy, error);
	if (ret != 0)
		return ret;
	fl->isolate_rule = rte_flow_create(proxy, &attr, items, actions, error);
	if (fl->isolate_rule == NULL)
		return member_error(error, rte_errno > 0 ? -rte_errno : -EIO, proxy);
	fl->isolate_proxy = proxy;
	fl->isolated = 1;
	return 0;
}

static const struct rte_flow_ops octopus_flow_ops = {
	.validate = flow_validate,
	.create = flow_create,
	.destroy = flow_destroy,
	.flush = flow_flush,
	.query = flow_query,
	.isolate = flow_isolate,
};

/* Remove every rule from the members and forget it (close). */
static void
flows_release(struct octopus_priv *p)
{
	struct octopus_flow *f;

	if (p == NULL || p->flows == NULL)
		return;
	while ((f = TAILQ_FIRST(&p->flows->list)) != NULL) {
		TAILQ_REMOVE(&p->flows->list, f, next);
		hw_remove(f);
		flow_free(f);
	}
	if (p->flows->isolate_rule != NULL)
		rte_flow_destroy(p->flows->isolate_proxy, p->flows->isolate_rule, NULL);
	index_free(p->flows);
	rte_free(p->flows->reach);
	rte_free(p->flows);
	p->flows = NULL;
}

/* The copies are freed at close (octopus_close calls octopus_flows_free). */
int
octopus_flow_ops_get(struct rte_eth_dev *dev, const struct rte_flow_ops **ops)
{
	RTE_SET_USED(dev);
	*ops = &octopus_flow_ops;
	return 0;
}

int
octopus_flows_replay(struct octopus_priv *p)
{
	struct rte_flow_error err = { 0 };
	struct octopus_flow *f;
	int ret, failed = 0;

	if (p->flows == NULL)
		return 0;
	TAILQ_FOREACH(f, &p->flows->list, next) {
		if (f->installed)
			continue;
		ret = hw_install(p, f, NULL, &err);
		if (ret != 0) {
			OCTO_LOG(ERR, "port %u: re-installing a flow rule failed: %s",
				p->port_id, err.message != NULL ? err.message : rte_strerror(-ret));
			failed = ret;
		}
	}
	return failed;
}

void
octopus_flows_uninstall(struct octopus_priv *p)
{
	struct octopus_flow *f;

	if (p->flows == NULL)
		return;
	TAILQ_FOREACH(f, &p->flows->list, next)
		hw_remove(f);
}

void
octopus_flows_forget_hw(struct octopus_priv *p, uint16_t port)
{
	struct octopus_flow *f;

	if (p->flows == NULL)
		return;
	TAILQ_FOREACH(f, &p->flows->list, next) {
		if (f->hw == NULL || f->proxy != port)
			continue;
		free(f->hw);
		f->hw = NULL;
		f->nb_hw = 0;
		f->installed = 0;
	}
}

void
octopus_flows_free(struct octopus_priv *p)
{
	flows_release(p);
}
