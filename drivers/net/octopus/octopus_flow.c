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
#include <rte_malloc.h>
#include <rte_prefetch.h>
#include <ethdev_driver.h>

#include "octopus_internal.h"
#include "octopus_flow.h"

struct octopus_flows *
octopus_flows_get(struct octopus_priv *p)
{
	if (p->flows == NULL) {
		p->flows = rte_zmalloc("octopus_flows", sizeof(*p->flows), 0);
		if (p->flows == NULL)
			return NULL;
		TAILQ_INIT(&p->flows->list);
		rte_spinlock_init(&p->flows->reach_lock);
		p->flows->reach = rte_calloc("octopus_flow_reach",
			((size_t)p->args.reta_size + OCTO_REACH_ROWS) * OCTOPUS_MAX_QUEUES,
			sizeof(*p->flows->reach), 0);
		p->flows->reach_mask = rte_calloc("octopus_flow_reach_mask",
			(size_t)p->args.reta_size + OCTO_REACH_ROWS,
			sizeof(*p->flows->reach_mask), 0);
		if (p->flows->reach == NULL || p->flows->reach_mask == NULL) {
			rte_free(p->flows->reach);
			rte_free(p->flows->reach_mask);
			rte_free(p->flows);
			p->flows = NULL;
		}
	}
	return p->flows;
}

int
octopus_flow_proxy_get(struct octopus_priv *p, uint16_t *proxy,
		struct rte_flow_error *error)
{
	uint16_t i, ports[OCTOPUS_MAX_MEMBERS];
	struct octopus_member *m;
	char why[160];
	int ret;

	if (p->one_function)
		return octopus_flow_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"no e-switch steering on this port's members: they are ports of one device, where a REPRESENTED_PORT to one of them leaves by its physical port instead of reaching its Rx queues (mlx5's multiport e-switch): rte_flow rules need the steering");
	if (p->started && p->steer == NULL && rte_eth_devices[p->port_id].data->nb_rx_queues)
		return octopus_flow_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"no e-switch steering on this port's members (%s): rte_flow rules need it",
			p->steer_why[0] ? p->steer_why : "not supported");
	if (p->nb_members == 0)
		return octopus_flow_error(error, ENODEV, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"no members");
	/* installed steering found it, every member present then sharing it;
	 * a member lost since is either not the proxy or took the steering
	 * with it (octopus_steer_member_gone)
	 */
	if (p->steer != NULL) {
		*proxy = octopus_steer_proxy(p->steer);
		return 0;
	}
	for (i = 0; i < p->nb_members; i++)
		ports[i] = OCTOPUS_STEER_PORT_ABSENT;
	OCTO_FOREACH_MEMBER(p, i, m) {
		if (m->state < OCTO_MEMBER_OWNED && m->loss == OCTO_LOSS_RELEASED)
			continue;	/* gone: the others still share the e-switch */
		if (m->state < OCTO_MEMBER_OWNED)
			return octopus_flow_error(error, ENODEV, RTE_FLOW_ERROR_TYPE_UNSPECIFIED,
				NULL, "member %s not found yet", m->name);
		ports[i] = m->port_id;
	}
	ret = octopus_steer_common_proxy(ports, p->nb_members, proxy, why, sizeof(why));
	if (ret == -EINVAL)
		return octopus_flow_error(error, ENODEV, RTE_FLOW_ERROR_TYPE_UNSPECIFIED,
			NULL, "every member is gone");
	if (ret != 0)
		return octopus_flow_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_UNSPECIFIED,
			NULL, "%s", why);
	return 0;
}

static struct octo_steer_app_conf
app_conf(const struct octopus_priv *p)
{
	struct octo_steer_app_conf c;

	memset(&c, 0, sizeof(c));
	c.nb_queues = rte_eth_devices[p->port_id].data->nb_rx_queues;
	c.reta_size = p->args.reta_size;
	c.field = p->args.field;
	c.home_group = 0;	/* the steering's default home group */
	return c;
}

static int
plan(const struct octopus_priv *p, const struct octopus_flow_shape *sh,
		const struct octo_steer_app_rule *r,
		struct octo_steer_app_entry *one, struct octo_steer_app_entry **e, uint32_t *nb,
		struct rte_flow_error *error)
{
	struct octo_steer_app_conf c = app_conf(p);
	char why[160];
	int ret;

	c.mark_ingress = sh->mark_ingress;
	c.group_base = sh->base;
	/* one entry (all but RSS rules) in the caller's @p one */
	ret = octo_steer_app_plan_in(&c, r, one, 1, e, nb, why, sizeof(why));
	if (ret != 0)
		return octopus_flow_error(error, -ret, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"%s", why);
	return 0;
}

int
octopus_flow_member_error(struct rte_flow_error *error, int ret, uint16_t proxy)
{
	const char *msg = error != NULL && error->message != NULL ? error->message :
		rte_strerror(-ret);
	enum rte_flow_error_type type = error != NULL ? error->type :
		RTE_FLOW_ERROR_TYPE_UNSPECIFIED;
	char copy[320];

	snprintf(copy, sizeof(copy), "%s", msg);
	/* a PMD without rte_flow is "cannot", not "bad rule" */
	if (ret == -ENOSYS)
		ret = -ENOTSUP;
	return octopus_flow_error(error, -ret, type, NULL,
		"the members' e-switch (port %u) refused: %s", proxy, copy);
}

/* The array of member rule handles (not the rules). */
static void
hw_array_free(struct octopus_flow *f)
{
	if (f->hw != &f->hw_one)
		free(f->hw);
	f->hw = NULL;
	f->nb_hw = 0;
}

/* All of a rule's member rules, whatever queue they deliver to. */
#define HW_ALL	UINT64_MAX

/* Bit of the queue member rule @p i of @p f delivers to, 0 for none. */
static uint64_t
hw_queue_bit(const struct octopus_flow *f, uint32_t i)
{
	int q = octo_steer_app_entry_queue(&f->app, i);

	return q < 0 ? 0 : UINT64_C(1) << (q % OCTOPUS_MAX_QUEUES);
}

/* Remove the member rules of @p f that deliver to a queue of @p qs. */
static void
hw_remove_some(struct octopus_flow *f, uint64_t qs)
{
	struct rte_flow_query_count c;
	struct rte_flow_action count[2] = {
		{ .type = RTE_FLOW_ACTION_TYPE_COUNT },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	uint32_t i;

	for (i = 0; i < f->nb_hw; i++) {
		if (f->hw[i] == NULL || (qs != HW_ALL && (hw_queue_bit(f, i) & qs) == 0))
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
}

static void
hw_remove(struct octopus_priv *p, struct octopus_flow *f)
{
	hw_remove_some(f, HW_ALL);
	hw_array_free(f);
	/* upstream first: no traffic is tagged for them any more */
	octopus_flow_mark_remove(p, f);
	f->installed = 0;
}

/*
 * Create the member rules of @p f that deliver to a queue of @p qs, from
 * its parse (at create, and again at a replay). HW_ALL: all of them, all or
 * nothing. Otherwise one step of a create that goes a queue at a time: the
 * first step takes the array of handles, and on failure the rules made stay
 * for the caller to remove.
 */
static int
hw_install(struct octopus_priv *p, struct octopus_flow *f, uint64_t qs,
		struct rte_flow_error *error)
{
	struct octo_steer_app_entry one, *e = NULL;
	struct octopus_flow_shape sh;
	uint32_t nb = 0, i;
	uint16_t proxy;
	int ret;

	ret = octopus_flow_proxy_get(p, &proxy, error);
	if (ret == 0)
		ret = octopus_flow_shape_get(p, proxy, true, &sh, error);
	/* the ingress stage at the first step: later steps keep it */
	if (ret == 0 && f->hw == NULL) {
		/* what a member lost meanwhile is made again (replay) */
		octopus_flow_mark_remove(p, f);
		ret = octopus_flow_mark_tag(p, f, &sh, error);
	}
	if (ret == 0)
		ret = plan(p, &sh, &f->app, &one, &e, &nb, error);
	if (ret == 0 && f->hw == NULL) {
		/* downstream first: the ingress rules before traffic is tagged */
		ret = octopus_flow_mark_install(p, f, e, nb, error);
		if (ret != 0 && e != &one)
			free(e);
	}
	if (ret != 0) {
		if (f->hw == NULL)
			octopus_flow_mark_remove(p, f);
		return -rte_errno;
	}
	if (f->hw == NULL) {
		/* control data of this process only: the C heap, not the shared one */
		f->hw = nb == 1 ? &f->hw_one : calloc(nb, sizeof(*f->hw));
		if (f->hw == NULL) {
			if (e != &one)
				free(e);
			octopus_flow_mark_remove(p, f);
			return octopus_flow_error(error, ENOMEM,
				RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
				"no memory for %u member rules", nb);
		}
		f->hw_one = NULL;
		f->nb_hw = nb;
		f->proxy = proxy;
	}
	for (i = 0; i < nb; i++) {
		if (qs != HW_ALL && (hw_queue_bit(f, i) & qs) == 0)
			continue;
		ret = octopus_flow_hw_make(proxy, sh.meta_how, sh.wire_item,
			f->copy->pattern_ro, &e[i], 0, &f->hw[i], error);
		if (ret < 0) {
			ret = octopus_flow_member_error(error, ret, proxy);
			if (qs == HW_ALL)
				hw_remove(p, f);
			break;
		}
		if (ret == 1)
			f->hw[i] = NULL;	/* the pattern excludes this bucket */
		ret = 0;
	}
	if (ret == 0 && qs == HW_ALL)
		f->installed = 1;
	if (e != &one)
		free(e);
	return ret;
}

/* A rule record with its deep copy (octopus_flow_copy) in one allocation. */
static struct octopus_flow *
flow_alloc(struct octopus_flows *fl, const struct rte_flow_attr *attr,
		const struct rte_flow_item pattern[], const struct rte_flow_action actions[],
		struct rte_flow_error *error)
{
	size_t size = octopus_flow_copy_size(pattern, actions);
	struct octopus_flow *f;
	void *mem;
	uint8_t cls;

	/* the copy right after the record, aligned as its pointers want */
	RTE_BUILD_BUG_ON(sizeof(*f) % sizeof(double) != 0);
	if (octopus_flow_slab_get(&fl->slab, sizeof(*f) + size, &mem, &cls) != 0) {
		octopus_flow_error(error, ENOMEM, RTE_FLOW_ERROR_TYPE_UNSPECIFIED,
			NULL, "no memory for the rule and its copy (%zu bytes)", size);
		return NULL;
	}
	f = mem;
	memset(f, 0, sizeof(*f));
	f->slab_class = cls;
	f->copy = (struct rte_flow_conv_rule *)(f + 1);
	octopus_flow_copy(f->copy, size, attr, pattern, actions);
	return f;
}

/* The queue list of the RSS action of rule copy @p r, NULL without one. */
static const uint16_t *
copy_rss_queues(const struct rte_flow_conv_rule *r)
{
	const struct rte_flow_action *a;

	for (a = r->actions_ro; a->type != RTE_FLOW_ACTION_TYPE_END; a++)
		if (a->type == RTE_FLOW_ACTION_TYPE_RSS)
			return ((const struct rte_flow_action_rss *)a->conf)->queue;
	return NULL;
}

static void
flow_free(struct octopus_flows *fl, struct octopus_flow *f)
{
	if (f == NULL)
		return;
	hw_array_free(f);
	octopus_flow_slab_put(&fl->slab, f, f->slab_class);
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
 *
 * A rule over several queues (RSS) changes one of its queues at a time: the
 * member rules of the buckets that go to queue q, gated as a rule of q
 * alone.  Made in one change, its queues would each be a source of the
 * others' traffic and a destination too, and a queue closed before the
 * change cannot answer the drain request the change makes to it, while one
 * closed only after it may deliver moved traffic early.  One queue per
 * step, no queue is both (struct octopus_gate_set).
 */

/* Row of octopus_flows.reach of a rule hitting bucket @p b (-1: several). */
static size_t
reach_row(const struct octopus_priv *p, int b)
{
	return b >= 0 ? (size_t)b : (size_t)p->args.reta_size + OCTO_REACH_WIDE;
}

/* Row of octopus_flows.reach counting, per queue, the rows with a rule to it. */
static size_t
reach_all(const struct octopus_priv *p)
{
	return (size_t)p->args.reta_size + OCTO_REACH_ALL;
}

/*
 * Count (@p n = 1 or -1) a rule's queue @p q in row @p row. Template rules
 * count from the application's flow queues, each on its own lcore, beside
 * the flow ops: a change that leaves the count non-zero on both sides
 * leaves the mask bits as they are, and is one compare-and-swap; a change
 * to or from 0 takes reach_lock to change them with it, and the row of
 * every rule, which counts such changes. The lock-free ones never cross 0,
 * so a reader holding the lock (reach_of) finds every bit saying exactly
 * whether its count is non-zero.
 *
 * Before rte_flow_configure there are no flow queues: only the flow ops
 * count, one at a time under ethdev's lock, and neither the swap nor the
 * lock is taken (@p alone; two locked instructions of every synchronous
 * create and destroy).
 */
static inline void
reach_add(struct octopus_flows *fl, size_t row, size_t all, unsigned int q, int n,
		bool alone)
{
	RTE_ATOMIC(uint32_t) *cnt = &fl->reach[row * OCTOPUS_MAX_QUEUES + q];
	RTE_ATOMIC(uint32_t) *rows = &fl->reach[all * OCTOPUS_MAX_QUEUES + q];
	uint64_t bit = UINT64_C(1) << q;
	uint32_t c = rte_atomic_load_explicit(cnt, rte_memory_order_relaxed);
	uint32_t r;

	if (alone) {
		rte_atomic_store_explicit(cnt, c + (uint32_t)n, rte_memory_order_relaxed);
	} else {
		while (n > 0 ? c != 0 : c > 1)
			if (rte_atomic_compare_exchange_weak_explicit(cnt, &c,
					c + (uint32_t)n, rte_memory_order_relaxed,
					rte_memory_order_relaxed))
				return;
		rte_spinlock_lock(&fl->reach_lock);
		c = rte_atomic_fetch_add_explicit(cnt, (uint32_t)n, rte_memory_order_relaxed);
	}
	if (n != 0 && (c == 0 || c + (uint32_t)n == 0)) {
		/* the row's count for q crossed 0: the bits follow */
		if (c == 0)
			fl->reach_mask[row] |= bit;
		else
			fl->reach_mask[row] &= ~bit;
		r = rte_atomic_load_explicit(rows, rte_memory_order_relaxed) +
			(c == 0 ? 1 : UINT32_MAX);
		rte_atomic_store_explicit(rows, r, rte_memory_order_relaxed);
		if (r != 0)
			fl->reach_mask[all] |= bit;
		else
			fl->reach_mask[all] &= ~bit;
	}
	if (!alone)
		rte_spinlock_unlock(&fl->reach_lock);
}

void
octopus_flow_reach_count(struct octopus_priv *p, int bucket, uint64_t qs, int n)
{
	struct octopus_flows *fl = p->flows;
	size_t row = reach_row(p, bucket), all = reach_all(p);
	bool alone = p->tmpl == NULL;

	for (; qs != 0; qs &= qs - 1)
		reach_add(fl, row, all, rte_ctz64(qs), n, alone);
}

/* The queues traffic hitting bucket @p b (-1: any) may go to without @p f. */
static uint64_t
reach_of(struct octopus_priv *p, int b)
{
	const uint64_t *m = p->flows->reach_mask;
	bool alone = p->tmpl == NULL;	/* see reach_add() */
	uint64_t qs;

	if (!alone)
		rte_spinlock_lock(&p->flows->reach_lock);
	if (b < 0)
		qs = p->reta_queues | m[reach_all(p)];
	else
		qs = UINT64_C(1) << (p->reta[b] % OCTOPUS_MAX_QUEUES) | m[b] |
			m[reach_row(p, -1)];
	if (!alone)
		rte_spinlock_unlock(&p->flows->reach_lock);
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

void
octopus_flow_gates(struct octopus_priv *p, int bucket, uint64_t qs, bool create,
		struct octopus_gate_set *s)
{
	uint64_t other = qs != 0 ? reach_of(p, bucket) : 0;
	uint64_t to = create ? qs : other, bit;
	unsigned int d;

	s->dsts = 0;
	for (; to != 0; to &= to - 1) {
		d = rte_ctz64(to);
		bit = UINT64_C(1) << d;
		/* a queue is not gated on itself: traffic that stays is in order */
		s->src[d] = (create ? other : qs) & ~bit;
		if (s->src[d] != 0)
			s->dsts |= bit;
	}
}

/* Remove the member rules of @p f that deliver to @p qs, one queue at a time, gated. */
static void
hw_remove_gated(struct octopus_priv *p, struct octopus_flow *f, uint64_t qs)
{
	struct octopus_gate_set gates;
	uint64_t q;

	for (; qs != 0; qs &= qs - 1) {
		q = qs & -qs;
		octopus_flow_gates(p, f->bucket, q, false, &gates);
		octopus_gate_prepare(p, &gates);
		hw_remove_some(f, q);
		octopus_gate_finish(p, &gates, true);
	}
}

/*
 * Create the member rules of @p f, gated: all in one change for a rule of
 * one queue (or none), one queue at a time for a rule of several. On
 * failure nothing is left (what was made is removed, gated as a destroy).
 */
static int
hw_install_gated(struct octopus_priv *p, struct octopus_flow *f,
		struct rte_flow_error *error)
{
	struct octopus_gate_set gates;
	uint64_t qs, q, done = 0;
	int ret = 0;

	if ((f->queues & (f->queues - 1)) == 0) {
		octopus_flow_gates(p, f->bucket, f->queues, true, &gates);
		octopus_gate_prepare(p, &gates);
		ret = hw_install(p, f, HW_ALL, error);
		octopus_gate_finish(p, &gates, ret == 0);
		return ret;
	}
	for (qs = f->queues; qs != 0 && ret == 0; qs &= qs - 1) {
		q = qs & -qs;
		octopus_flow_gates(p, f->bucket, q, true, &gates);
		octopus_gate_prepare(p, &gates);
		ret = hw_install(p, f, q, error);
		/* a failed step may have made some of its rules: still gated */
		octopus_gate_finish(p, &gates, true);
		done |= q;
	}
	if (ret != 0) {
		hw_remove_gated(p, f, done);
		hw_remove(p, f);
		return ret;
	}
	f->installed = 1;
	return 0;
}

/* ---- index: by key and by handle -------------------------------------- */

#define SLOT_FREE(next)		((struct octopus_flow *)(((uintptr_t)(next) << 1) | 1))
#define SLOT_IS_FREE(e)		(((uintptr_t)(e) & 1) != 0)
#define SLOT_NEXT(e)		((uint32_t)((uintptr_t)(e) >> 1))

/* Put (@p key, @p handle) in the key table, which has room. */
static void
key_put(struct octopus_flows *fl, uint32_t key, uint32_t handle)
{
	uint32_t mask = fl->nb_buckets - 1, i;

	for (i = key & mask; fl->by_key[i].handle != 0; i = (i + 1) & mask)
		;
	fl->by_key[i].key = key;
	fl->by_key[i].handle = handle;
}

/* Take @p handle out of the key table, shifting back the pairs after it. */
static void
key_del(struct octopus_flows *fl, uint32_t key, uint32_t handle)
{
	uint32_t mask = fl->nb_buckets - 1, i, j;

	for (i = key & mask; fl->by_key[i].handle != handle; i = (i + 1) & mask)
		if (fl->by_key[i].handle == 0)
			return;
	/* a pair further on moves into the hole unless its home lies
	 * between the hole and it (it would then be found before the hole)
	 */
	for (j = (i + 1) & mask; fl->by_key[j].handle != 0; j = (j + 1) & mask)
		if (((j - (fl->by_key[j].key & mask)) & mask) >= ((j - i) & mask)) {
			fl->by_key[i] = fl->by_key[j];
			i = j;
		}
	fl->by_key[i].handle = 0;
}

/* Index @p f, room reserved (index_reserve): give it a handle, by key. */
static void
index_link(struct octopus_flows *fl, struct octopus_flow *f)
{
	uint32_t i;

	if (fl->slot_free != 0) {
		i = fl->slot_free - 1;
		fl->slot_free = SLOT_NEXT(fl->slot[i]);
	} else {
		i = fl->slots_used++;
	}
	fl->slot[i] = f;
	f->handle = i + 1;
	key_put(fl, f->key, f->handle);
}

/*
 * Room for @p n rules: a larger key table when it would be more than half
 * full, more slots when none is free.
 */
static int
index_reserve(struct octopus_flows *fl, uint32_t n)
{
	struct octopus_flow_key_slot *old = fl->by_key;
	uint32_t nb, i, nb_old = fl->nb_buckets;
	struct octopus_flow **sl;

	if (fl->slot_free == 0 && fl->slots_used == fl->nb_slots) {
		nb = fl->nb_slots ? fl->nb_slots * 2 : 64;
		/* control data of this process only: the C heap */
		sl = realloc(fl->slot, (size_t)nb * sizeof(*sl));
		if (sl == NULL)
			return -ENOMEM;
		fl->slot = sl;
		fl->nb_slots = nb;
	}
	if (2 * (uint64_t)n <= nb_old)
		return 0;
	nb = nb_old ? nb_old : 64;
	while (nb < 2 * (uint64_t)n)
		nb <<= 1;
	/* DPDK's heap: on hugepages, a probe's cache miss costs no TLB miss too
	 * (a 1M-rule table spans 8192 4K pages)
	 */
	fl->by_key = rte_calloc("octopus_flow_by_key", nb, sizeof(*fl->by_key), 0);
	if (fl->by_key == NULL) {
		fl->by_key = old;
		return -ENOMEM;
	}
	fl->nb_buckets = nb;
	for (i = 0; i < nb_old; i++)
		if (old[i].handle != 0)
			key_put(fl, old[i].key, old[i].handle);
	rte_free(old);
	return 0;
}

static void
index_unlink(struct octopus_flows *fl, struct octopus_flow *f)
{
	key_del(fl, f->key, f->handle);
	fl->slot[f->handle - 1] = SLOT_FREE(fl->slot_free);
	fl->slot_free = f->handle;
	f->handle = 0;
}

static void
index_free(struct octopus_flows *fl)
{
	rte_free(fl->by_key);
	free(fl->slot);
	fl->by_key = NULL;
	fl->slot = NULL;
	fl->nb_buckets = 0;
	fl->nb_slots = 0;
	fl->slots_used = 0;
	fl->slot_free = 0;
}

/* A rule matching the same traffic (same attr and pattern, by key). */
static struct octopus_flow *
twin_of(struct octopus_flows *fl, uint32_t key)
{
	uint32_t mask = fl->nb_buckets - 1, i;

	if (fl->nb_buckets == 0)
		return NULL;
	for (i = key & mask; fl->by_key[i].handle != 0; i = (i + 1) & mask)
		if (fl->by_key[i].key == key)
			return fl->slot[fl->by_key[i].handle - 1];
	return NULL;
}

/* The rule behind @p handle, a slot number + 1 (never dereferenced). */
static struct octopus_flow *
flow_find(struct octopus_flows *fl, const struct rte_flow *handle)
{
	uintptr_t h = (uintptr_t)handle;
	struct octopus_flow *f;

	if (fl == NULL || h == 0 || h > fl->slots_used)
		return NULL;
	f = fl->slot[h - 1];
	return SLOT_IS_FREE(f) ? NULL : f;
}

/*
 * Whether @p handle may be one of rte_flow_create's (a slot number, not an
 * address): a template rule's operations answer it instead of reading
 * it. Without the lock: the slots in use only grow while rules live, and a
 * template rule's record is in DPDK's memory, far above any slot count.
 */
bool
octopus_flow_handle_is_sync(const struct octopus_priv *p, const struct rte_flow *handle)
{
	const struct octopus_flows *fl = p->flows;
	uintptr_t h = (uintptr_t)handle;

	return fl != NULL && h != 0 && h <= fl->slots_used;
}

/* ---- ops --------------------------------------------------------------- */

int
octopus_flow_validate(struct rte_eth_dev *dev, const struct rte_flow_attr *attr,
		const struct rte_flow_item pattern[], const struct rte_flow_action actions[],
		struct rte_flow_error *error)
{
	struct octopus_priv *p = octo_priv(dev);
	struct octopus_flow_parsed parsed;
	struct octo_steer_app_entry one, *e = NULL;
	struct octopus_flow_shape sh;
	uint32_t nb = 0, i;
	uint16_t proxy;
	int ret;

	ret = octopus_flow_parse(p, attr, pattern, actions, &parsed, error);
	if (ret == 0)
		ret = octopus_flow_proxy_get(p, &proxy, error);
	if (ret == 0 && octopus_flows_get(p) == NULL)
		ret = octopus_flow_error(error, ENOMEM, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"no memory");
	if (ret == 0)
		ret = octopus_flow_shape_get(p, proxy, false, &sh, error);
	/* any tag stands for the one a create would take */
	if (ret == 0 && sh.mark_ingress && (parsed.app.has_mark || parsed.app.has_flag))
		parsed.app.mark_tag = 1;
	if (ret == 0)
		ret = plan(p, &sh, &parsed.app, &one, &e, &nb, error);
	if (ret == 0 && sh.mark_ingress)
		ret = octopus_flow_mark_validate(p, &parsed.app, e, nb, error);
	for (i = 0; ret == 0 && i < nb; i++) {
		ret = octopus_flow_hw_make(proxy, sh.meta_how, sh.wire_item,
			pattern, &e[i], 1, NULL, error);
		if (ret < 0)
			ret = octopus_flow_member_error(error, ret, proxy);
		else
			ret = 0;
	}
	if (e != &one)
		free(e);
	return ret;
}

struct rte_flow *
octopus_flow_create(struct rte_eth_dev *dev, const struct rte_flow_attr *attr,
		const struct rte_flow_item pattern[], const struct rte_flow_action actions[],
		struct rte_flow_error *error)
{
	struct octopus_priv *p = octo_priv(dev);
	struct octopus_flow_parsed parsed;
	struct octopus_flow *f = NULL, *twin;
	struct octopus_flows *fl;
	bool parked;
	uint32_t key;
	int ret;

	/*
	 * The key table's line is fetched first, to be read after the parse,
	 * the copy and the bucket: with 300k rules the table is 8 MB, and
	 * its probe, with the fetch issued after the parse, still waited for
	 * memory (three quarters of this function's own time in a profile).
	 */
	key = attr != NULL && pattern != NULL ? octopus_flow_key(attr, pattern) : 0;
	fl = p->flows;
	if (fl != NULL && fl->nb_buckets != 0)
		rte_prefetch0(&fl->by_key[key & (fl->nb_buckets - 1)]);
	ret = octopus_flow_parse(p, attr, pattern, actions, &parsed, error);
	if (ret != 0)
		return NULL;
	fl = octopus_flows_get(p);
	if (fl == NULL) {
		octopus_flow_error(error, ENOMEM, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"no memory");
		return NULL;
	}
	/* members that take no rules now: checked as far as they answer,
	 * kept, and made at start (the port keeps rules: FLOW_RULE_KEEP)
	 */
	parked = octopus_flows_parked(p);
	if (parked && octopus_flow_validate(dev, attr, pattern, actions, error) != 0)
		return NULL;
	/* the deep copy: the rule can be installed again without the app */
	f = flow_alloc(fl, attr, pattern, actions, error);
	if (f == NULL)
		return NULL;
	/* parsed once: a replay plans from it (the planner checks the queues
	 * against the port's configuration of the day), its RSS queues those
	 * of the copy
	 */
	f->app = parsed.app;
	f->app.rss_queues = copy_rss_queues(f->copy);
	f->key = key;
	if (index_reserve(fl, fl->nb + 1) != 0) {
		octopus_flow_error(error, ENOMEM, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"no memory for the rule index");
		goto fail;
	}
	f->bucket = octopus_flow_bucket_of(p->args.field,
		p->args.reta_size, pattern);
	f->queues = flow_queues(&parsed.app);
	/*
	 * Make-before-break: a rule for traffic another rule already takes
	 * gets the other level, so that whichever is removed last, some rule
	 * always takes the traffic.  Level 0 wins, so such a rule wins at once
	 * when its twin is at level 1 (the level of every first rule).
	 */
	twin = twin_of(fl, f->key);
	f->app.level = twin != NULL ? twin->app.level ^ 1 : 1;
	ret = parked ? 0 : hw_install_gated(p, f, error);
	if (ret != 0)
		goto fail;
	TAILQ_INSERT_TAIL(&fl->list, f, next);
	index_link(fl, f);
	fl->nb++;
	octopus_flow_reach_count(p, f->bucket, f->queues, 1);
	return (struct rte_flow *)(uintptr_t)f->handle;
fail:
	flow_free(fl, f);
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

	/* fetched while the member rule goes (see octopus_flow_create) */
	rte_prefetch0(&fl->by_key[f->key & (fl->nb_buckets - 1)]);
	octopus_flow_reach_count(p, f->bucket, f->queues, -1);
	if (gate && (f->queues & (f->queues - 1)) != 0) {
		hw_remove_gated(p, f, f->queues);
		gate = false;	/* done, a queue at a time */
	}
	if (gate) {
		octopus_flow_gates(p, f->bucket, f->queues, false, &gates);
		octopus_gate_prepare(p, &gates);
	}
	hw_remove(p, f);
	if (gate)
		octopus_gate_finish(p, &gates, true);
	TAILQ_REMOVE(&fl->list, f, next);
	index_unlink(fl, f);
	fl->nb--;
	flow_free(fl, f);
}

int
octopus_flow_destroy(struct rte_eth_dev *dev, struct rte_flow *handle,
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

int
octopus_flow_flush(struct rte_eth_dev *dev, struct rte_flow_error *error)
{
	struct octopus_priv *p = octo_priv(dev);
	struct octopus_flow *f;

	RTE_SET_USED(error);
	if (p->flows == NULL)
		return 0;
	while ((f = TAILQ_LAST(&p->flows->list, octopus_flow_list)) != NULL)
		flow_remove(p, f, false);
	/* all of them gone on request: their memory goes back too */
	if (p->flows->slab.in_use == 0)
		octopus_flow_slab_release(&p->flows->slab);
	return 0;
}

int
octopus_flow_query(struct rte_eth_dev *dev, struct rte_flow *handle,
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
			return octopus_flow_member_error(error, ret, f->proxy);
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
isolate_rule_make(struct octopus_priv *p, struct rte_flow_error *error)
{
	struct rte_flow_item_ethdev wire;
	struct rte_flow_item items[3] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_action actions[2] = {
		{ .type = RTE_FLOW_ACTION_TYPE_DROP },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_attr attr = {
		.group = 0, .priority = OCTO_STEER_PRIO_ISOLATE, .transfer = 1,
	};
	struct octopus_flows *fl = p->flows;
	struct octopus_flow_shape sh;
	uint16_t proxy;
	int ret;

	ret = octopus_flow_proxy_get(p, &proxy, error);
	if (ret == 0)
		ret = octopus_flow_shape_get(p, proxy, true, &sh, error);
	if (ret != 0)
		return ret;
	attr.group = sh.base;	/* the classification's group */
	if (sh.base == 0 && sh.wire_item) {
		/* the wire's frames only, not what the members send (F9) */
		octopus_steer_wire_item_set(&items[0], &wire, proxy);
		items[1].type = RTE_FLOW_ITEM_TYPE_ETH;
	}
	fl->isolate_rule = rte_flow_create(proxy, &attr, items, actions, error);
	if (fl->isolate_rule == NULL)
		return octopus_flow_member_error(error, rte_errno > 0 ? -rte_errno : -EIO, proxy);
	fl->isolate_proxy = proxy;
	return 0;
}

int
octopus_flow_isolate(struct rte_eth_dev *dev, int set, struct rte_flow_error *error)
{
	struct octopus_priv *p = octo_priv(dev);
	struct octopus_flows *fl;
	int ret;

	set = !!set;
	fl = octopus_flows_get(p);
	if (fl == NULL)
		return octopus_flow_error(error, ENOMEM, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"no memory");
	if (fl->isolated == set)
		return 0;
	if (!set) {
		if (fl->isolate_rule != NULL &&
				rte_flow_destroy(fl->isolate_proxy, fl->isolate_rule, error) != 0)
			return octopus_flow_member_error(error, -rte_errno, fl->isolate_proxy);
		fl->isolate_rule = NULL;
		fl->isolated = 0;
		return 0;
	}
	/* members that take no rules now: the rule is made at start */
	ret = octopus_flows_parked(p) ? 0 : isolate_rule_make(p, error);
	if (ret == 0)
		fl->isolated = 1;
	return ret;
}

/*
 * The isolate rule of an isolated port whose members lost it (or that was
 * isolated while they took no rules), made again.
 */
static int
isolate_replay(struct octopus_priv *p)
{
	struct rte_flow_error err = { 0 };
	int ret;

	if (!p->flows->isolated || p->flows->isolate_rule != NULL)
		return 0;
	ret = isolate_rule_make(p, &err);
	if (ret != 0)
		OCTO_LOG(ERR, "port %u: making the isolate rule again failed: %s",
			p->port_id, err.message != NULL ? err.message : rte_strerror(-ret));
	return ret;
}

void
octopus_flows_shape_probe(struct octopus_priv *p, uint16_t proxy)
{
	struct octopus_flow_shape sh;
	struct rte_flow_error err = { 0 };

	if (octopus_flows_get(p) == NULL ||
	    octopus_flow_shape_get(p, proxy, true, &sh, &err) != 0)
		OCTO_LOG(DEBUG, "port %u: asking the e-switch what it takes for rules failed: %s",
			p->port_id, err.message != NULL ? err.message : "no memory");
}

bool
octopus_flows_parked(const struct octopus_priv *p)
{
	return !p->started && !octopus_members_keep_rules(p);
}

void
octopus_flows_park(struct octopus_priv *p)
{
	struct octopus_flows *fl = p->flows;
	struct rte_flow_error err = { 0 };
	struct octopus_flow *f;

	if (fl == NULL)
		return;
	/* what the rules counted is kept (hits_gone): a query spans restarts */
	TAILQ_FOREACH(f, &fl->list, next)
		if (f->installed || f->hw != NULL || f->mark != NULL)
			hw_remove(p, f);
	if (fl->isolate_rule != NULL) {
		if (rte_flow_destroy(fl->isolate_proxy, fl->isolate_rule, &err) != 0)
			OCTO_LOG(ERR, "port %u: removing the isolate rule failed: %s",
				p->port_id, err.message != NULL ? err.message : "?");
		fl->isolate_rule = NULL;
	}
	/* asked again once the members run: creating is what tells */
	fl->shape_known = 0;
}

int
octopus_flows_replay(struct octopus_priv *p)
{
	struct rte_flow_error err = { 0 };
	struct octopus_flow *f;
	int ret, failed = 0;

	if (p->flows == NULL)
		return 0;
	ret = isolate_replay(p);
	if (ret != 0)
		failed = ret;
	TAILQ_FOREACH(f, &p->flows->list, next) {
		if (f->installed) {
			/* a member back since: its ingress MARK/FLAG rules */
			ret = octopus_flow_mark_fill(p, f, &err);
			if (ret != 0)
				failed = OCTO_ERR(ret, "port %u: re-installing a flow's ingress MARK/FLAG rules failed: %s",
					p->port_id, err.message != NULL ? err.message :
					rte_strerror(-ret));
			continue;
		}
		ret = hw_install(p, f, HW_ALL, &err);
		if (ret != 0)
			failed = OCTO_ERR(ret, "port %u: re-installing a flow rule failed: %s",
				p->port_id, err.message != NULL ? err.message : rte_strerror(-ret));
	}
	return failed;
}

void
octopus_flows_forget_hw(struct octopus_priv *p, uint16_t port)
{
	struct octopus_flow *f;

	if (p->flows == NULL)
		return;
	if (p->flows->shape_proxy == port)
		p->flows->shape_known = 0;
	TAILQ_FOREACH(f, &p->flows->list, next) {
		octopus_flow_mark_forget(p, f, port);
		if (f->hw == NULL || f->proxy != port)
			continue;
		hw_array_free(f);
		f->installed = 0;
	}
}

void
octopus_flows_free(struct octopus_priv *p)
{
	struct octopus_flow *f;

	if (p == NULL || p->flows == NULL)
		return;
	while ((f = TAILQ_FIRST(&p->flows->list)) != NULL) {
		TAILQ_REMOVE(&p->flows->list, f, next);
		hw_remove(p, f);
		flow_free(p->flows, f);
	}
	if (p->flows->isolate_rule != NULL)
		rte_flow_destroy(p->flows->isolate_proxy, p->flows->isolate_rule, NULL);
	index_free(p->flows);
	octopus_flow_mark_release(p->flows);
	octopus_flow_slab_release(&p->flows->slab);
	rte_free(p->flows->reach);
	rte_free(p->flows->reach_mask);
	rte_free(p->flows);
	p->flows = NULL;
}

/* ---- rule record memory (octopus_flow_types.h) ------------------------ */

/* 64 KB: at least 32 records of the largest class per chunk. */
#define SLAB_CHUNK_BYTES	(64 * 1024)

#define SLAB_CHUNK_HEAD	RTE_CACHE_LINE_SIZE

static int
chunk_add(struct octopus_flow_slab *s, uint8_t cls)
{
	struct octopus_flow_slab_chunk *c;

	c = rte_malloc("octopus_flow_slab", SLAB_CHUNK_BYTES, RTE_CACHE_LINE_SIZE);
	if (c == NULL)
		return -ENOMEM;
	c->next = s->chunks;
	s->chunks = c;
	s->bump[cls] = (char *)c + SLAB_CHUNK_HEAD;
	s->end[cls] = (char *)c + SLAB_CHUNK_BYTES;
	return 0;
}

int
octopus_flow_slab_get(struct octopus_flow_slab *s, size_t size, void **obj, uint8_t *cls)
{
	size_t stride;
	uint8_t c;

	RTE_BUILD_BUG_ON(SLAB_CHUNK_HEAD + OCTOPUS_FLOW_SLAB_CLASS *
		OCTOPUS_FLOW_SLAB_CLASSES > SLAB_CHUNK_BYTES);
	if (size == 0 || size > OCTOPUS_FLOW_SLAB_CLASS * OCTOPUS_FLOW_SLAB_CLASSES)
		goto heap;
	c = (uint8_t)((size + OCTOPUS_FLOW_SLAB_CLASS - 1) / OCTOPUS_FLOW_SLAB_CLASS);
	stride = (size_t)c * OCTOPUS_FLOW_SLAB_CLASS;
	if (s->free[c] != NULL) {
		*obj = s->free[c];
		s->free[c] = *(void **)*obj;
	} else {
		if ((size_t)(s->end[c] - s->bump[c]) < stride && chunk_add(s, c) != 0)
			goto heap;	/* DPDK's heap is full: the C heap still serves */
		*obj = s->bump[c];
		s->bump[c] += stride;
	}
	*cls = c;
	s->in_use++;
	return 0;
heap:
	*obj = malloc(size);
	if (*obj == NULL)
		return -ENOMEM;
	*cls = 0;
	s->in_use++;
	return 0;
}

void
octopus_flow_slab_put(struct octopus_flow_slab *s, void *obj, uint8_t cls)
{
	if (obj == NULL)
		return;
	if (cls == 0) {
		free(obj);
	} else {
		*(void **)obj = s->free[cls];
		s->free[cls] = obj;
	}
	/* the chunks stay for the next rules, as mlx5 caches its rules'
	 * memory (reclaim_mem_mode=0, its default): given back at flush and
	 * close. Given back here, with the last rule, DPDK's heap zeroed each
	 * 64 KB chunk on the destroying thread (0.4k instructions a destroy).
	 */
	s->in_use--;
}

void
octopus_flow_slab_release(struct octopus_flow_slab *s)
{
	struct octopus_flow_slab_chunk *c, *next;
	unsigned int i;

	for (c = s->chunks; c != NULL; c = next) {
		next = c->next;
		rte_free(c);
	}
	s->chunks = NULL;
	for (i = 0; i <= OCTOPUS_FLOW_SLAB_CLASSES; i++) {
		s->free[i] = NULL;
		s->bump[i] = NULL;
		s->end[i] = NULL;
	}
}
