/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/* Flow queues: rte_flow_async_create/_destroy/_actions_update, push, pull
 * (the ring is described in octonic_esw_template.h).
 *
 * When an operation is carried out, when it completes and when a
 * destroyed rule leaves the tables is in octonic.rst "Template API".  A
 * completion waits for the grace period that rte_flow_create pays per
 * rule: no packet classified without the rule is still in the NIC's
 * pipeline when it is reported made (net_octopus's flow gates rely on it).
 */

#include <errno.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>

#include "octonic_esw_template.h"

static struct sw_fq *
queue_of(struct octonic_eswitch *sw, uint16_t pf, uint32_t queue,
		struct rte_flow_error *error)
{
	struct sw_fport *fp = pf < sw->nb_pfs ? sw->fport[pf] : NULL;

	if (fp == NULL) {
		if (octonic_esw_dialect_templates(sw, "flow queue operation", error) == 0)
			octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_UNSPECIFIED,
				NULL, "the flow engine of PF %u is not configured: call rte_flow_configure first",
				pf);
		return NULL;
	}
	if (unlikely(queue >= fp->nb_q)) {
		if (fp->nb_q != fp->nb_queue)
			octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_UNSPECIFIED,
				NULL, "%s: flow queue %u does not exist: %u configured, and the control queue %u",
				octonic_esw_dialect_name(sw), queue, fp->nb_queue,
				fp->nb_queue);
		else
			octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_UNSPECIFIED,
				NULL, "flow queue %u does not exist: %u configured (0 to %u)",
				queue, fp->nb_queue, fp->nb_queue - 1);
		return NULL;
	}
	return &fp->q[queue];
}

static inline struct sw_op *
op_at(struct sw_fq *q, uint32_t i)
{
	uint32_t k = q->head + i;

	return &q->ops[k >= q->size ? k - q->size : k];
}

/* Whether @p flow is a rule of a template table of PF @p pf, made or
 * being made, whose destroy is not enqueued.
 */
static inline int
handle_live(const struct rte_flow *flow, uint16_t pf)
{
	return flow != NULL && flow->ttable != NULL &&
		flow->ttable->magic == SW_TBL_MAGIC && flow->ttable->pf == pf &&
		(flow->tstate == SW_TS_MADE || flow->tstate == SW_TS_IN);
}

static inline void
op_append(struct sw_fq *q, enum sw_op_type type, struct rte_flow *flow,
		struct rte_flow *old, void *user_data)
{
	struct sw_op *op = op_at(q, q->n++);

	op->flow = flow;
	op->old = old;
	op->user_data = user_data;
	op->type = type;
	op->failed = 0;
}

/* Flow queue @p queue when it has room for one more operation; else NULL
 * with @p ret -EINVAL (no such queue) or -EBUSY (full).
 */
static inline struct sw_fq *
queue_room(struct octonic_eswitch *sw, uint16_t pf, uint32_t queue, int *ret,
		struct rte_flow_error *error)
{
	struct sw_fq *q = queue_of(sw, pf, queue, error);

	if (unlikely(q == NULL)) {
		*ret = -EINVAL;
		return NULL;
	}
	*ret = 0;
	if (likely(q->n < q->size))
		return q;
	/* mlx5dr_rule.c, mlx5dr_rule_create_hws: "No room in queue", EBUSY */
	octonic_esw_error(error, EBUSY, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
		"flow queue %u is full: %u operations enqueued or not pulled",
		queue, q->size);
	*ret = -EBUSY;
	return NULL;
}

/* Under sw->lock: the handle's rule gives way to the one @p op made with
 * new actions, in one generation (no packet sees both or neither); the
 * replaced one leaves the tables at the drain.
 */
/* The rule in the tables for handle @p h, NULL when there is none that
 * matches (its create failed, or a destroy got to it first).
 */
static inline struct rte_flow *
live_rule(const struct rte_flow *h)
{
	struct rte_flow *cur = h->live;

	if (cur == NULL || cur->hot == NULL ||
			rte_atomic_load_explicit(&cur->hot->dead,
				rte_memory_order_relaxed) != SW_GEN_INF)
		return NULL;
	return cur;
}

static void
update_exec(struct octonic_eswitch *sw, struct sw_op *op)
{
	struct rte_flow *cur = live_rule(op->flow), *nr = op->old;

	if (cur == NULL) {
		op->failed = 1;
		return;
	}
	rte_atomic_store_explicit(&cur->hot->dead, sw->gen + 1,
		rte_memory_order_relaxed);
	if (octonic_esw_rule_add(sw, nr, cur->seq, NULL) != 0) {
		rte_atomic_store_explicit(&cur->hot->dead, SW_GEN_INF,
			rte_memory_order_relaxed);
		op->failed = 1;
		return;
	}
	nr->tstate = SW_TS_IN;
	op->flow->live = nr;
	op->old = cur;
}

/* Under sw->lock: carry out one operation. */
static void
op_exec(struct octonic_eswitch *sw, struct sw_op *op)
{
	struct rte_flow *r = op->flow;

	switch (op->type) {
	case SW_OP_CREATE:
		if (octonic_esw_rule_add(sw, r, UINT64_MAX, NULL) != 0) {
			op->failed = 1;
		} else {
			r->live = r;
			if (r->tstate == SW_TS_MADE)
				r->tstate = SW_TS_IN;
		}
		break;
	case SW_OP_DESTROY:
		/* A rule whose create failed is not in the tables. */
		op->old = live_rule(r);
		if (op->old != NULL)
			octonic_esw_rules_kill(sw, &op->old, 1);
		else
			op->failed = 1;
		break;
	case SW_OP_UPDATE:
		update_exec(sw, op);
		break;
	default:
		op->failed = 1;
		break;
	}
}

/* Under sw->lock: carry out the postponed operations of @p q. */
static void
exec_pending(struct octonic_eswitch *sw, struct sw_fq *q)
{
	for (; q->n_done < q->n; q->n_done++)
		op_exec(sw, op_at(q, q->n_done));
}

/* Under sw->lock: carry out what waits, pay the grace period, unlink
 * the destroyed rules and give their slots back: every operation of @p q
 * is then complete.
 */
static void
drain(struct octonic_eswitch *sw, struct sw_fq *q)
{
	uint32_t i, nb_dead = 0;

	exec_pending(sw, q);
	if (q->n_ready == q->n_done)
		return;
	for (i = q->n_ready; i < q->n_done; i++) {
		struct sw_op *op = op_at(q, i);

		if (op->type != SW_OP_CREATE && !op->failed)
			q->dead[nb_dead++] = op->old;
	}
	if (nb_dead != 0)
		octonic_esw_rules_unlink(sw, q->dead, nb_dead);	/* waits for readers */
	else
		octonic_esw_synchronize(sw);
	for (i = q->n_ready; i < q->n_done; i++) {
		struct sw_op *op = op_at(q, i);

		switch (op->type) {
		case SW_OP_CREATE:
			if (op->failed) {
				rte_free(op->flow->rss);
				octonic_esw_tbl_slot_put(op->flow->ttable, op->flow);
			}
			break;
		case SW_OP_DESTROY:
			if (op->failed)
				break;
			if (op->old != op->flow)
				rte_free(op->old);	/* an update's rule */
			octonic_esw_tbl_slot_put(op->flow->ttable, op->flow);
			break;
		case SW_OP_UPDATE:
			/* failed: the rule not made; else: the one replaced,
			 * unless it is the handle's own slot
			 */
			if (op->failed)
				rte_free(op->old->rss);
			if (op->failed || op->old != op->flow)
				rte_free(op->old);
			break;
		}
	}
	q->n_ready = q->n_done;
}

void
octonic_esw_fport_drain_all(struct octonic_eswitch *sw, struct sw_fport *fp)
{
	uint32_t i;

	for (i = 0; i < fp->nb_q; i++) {
		struct sw_fq *q = &fp->q[i];

		drain(sw, q);
		/* Nobody pulls them any more. */
		q->head = 0;
		q->n = 0;
		q->n_ready = 0;
		q->n_done = 0;
	}
}

/* Whether the rule's actions are of the template's types. */
static int
actions_typed(const struct rte_flow_actions_template *at,
		const struct rte_flow_action actions[], struct rte_flow_error *error)
{
	uint32_t i;

	for (i = 0; i < at->nb_actions; i++)
		if (unlikely(actions[i].type != at->actions[i].type))
			return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION,
				&actions[i],
				"action %u is not of the actions template's type", i);
	return 0;
}

/* A rule's actions (of the template's types): the template's constant
 * ones (those its mask fixes), the rule's confs for the others.
 */
static void
actions_fill(const struct rte_flow_actions_template *at,
		const struct rte_flow_action actions[], struct rte_flow_action ac[])
{
	uint32_t i;

	for (i = 0; i < at->nb_actions; i++) {
		ac[i].type = at->actions[i].type;
		ac[i].conf = at->fixed[i] ? at->actions[i].conf : actions[i].conf;
	}
	ac[i].type = RTE_FLOW_ACTION_TYPE_END;
	ac[i].conf = NULL;
}

/* A refusal naming an element of the rule's pattern or actions as the
 * parse saw them (@p it, @p ac) names the caller's instead.
 */
static void
cause_of_caller(struct rte_flow_error *error, const struct rte_flow_item it[],
		uint32_t nb_it, const struct rte_flow_item items[],
		const struct rte_flow_action ac[], uint32_t nb_ac,
		const struct rte_flow_action actions[])
{
	uintptr_t c;

	if (error == NULL || error->cause == NULL)
		return;
	c = (uintptr_t)error->cause;
	if (it != NULL && c >= (uintptr_t)it && c < (uintptr_t)(it + nb_it))
		error->cause = &items[(const struct rte_flow_item *)c - it];
	else if (ac != NULL && c >= (uintptr_t)ac && c < (uintptr_t)(ac + nb_ac))
		error->cause = &actions[(const struct rte_flow_action *)c - ac];
}

/* The rule parsed: the template's item types and masks with the rule's
 * specs, the actions as actions_fill makes them.
 */
static int
rule_parse(struct octonic_eswitch *sw, struct rte_flow_template_table *t,
		const struct rte_flow_pattern_template *pt,
		const struct rte_flow_actions_template *at,
		const struct rte_flow_item items[],
		const struct rte_flow_action actions[], struct rte_flow *r,
		struct rte_flow_error *error)
{
	struct rte_flow_item it[SW_TMPL_MAX_ITEMS + 1];
	struct rte_flow_action ac[SW_TMPL_MAX_ACTIONS + 1];
	uint32_t i;
	int ret;

	for (i = 0; i < pt->nb_items; i++) {
		const struct rte_flow_item *ti = &pt->items[i];

		it[i].type = ti->type;
		it[i].spec = ti->mask != NULL ? items[i].spec : NULL;
		it[i].last = NULL;
		it[i].mask = ti->mask;
	}
	memset(&it[i], 0, sizeof(it[i]));
	it[i].type = RTE_FLOW_ITEM_TYPE_END;
	actions_fill(at, actions, ac);
	ret = octonic_esw_rule_parse(sw, t->pf, &t->attr, it, ac, r, error);
	if (ret != 0)
		cause_of_caller(error, it, pt->nb_items + 1, items, ac,
			at->nb_actions + 1, actions);
	return ret;
}

/*
 * The rule's match and actions, as rte_flow_create makes them of the
 * template's item types and masks with the rule's specs and of the
 * template's constant actions with the rule's confs for the others:
 * through the template's plans (the match a few copies of spec bytes,
 * the actions only those the rule decides) where they have one, else
 * parsed (rule_parse).
 */
static int
rule_fill(struct octonic_eswitch *sw, struct rte_flow_template_table *t,
		const struct rte_flow_item items[], uint8_t pt_idx,
		const struct rte_flow_action actions[], uint8_t at_idx,
		struct rte_flow *r, struct rte_flow_error *error)
{
	const struct rte_flow_pattern_template *pt = t->pt[pt_idx];
	const struct rte_flow_actions_template *at = t->at[at_idx];
	const struct sw_aplan *ap = &t->aplan[at_idx];
	struct rte_flow_action ac[SW_TMPL_MAX_ACTIONS + 1];
	uint32_t i;
	int ret;

	if (unlikely(items == NULL || actions == NULL))
		return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"pattern and actions are needed");
	for (i = 0; i < pt->nb_items; i++)
		if (unlikely(items[i].type != pt->items[i].type))
			return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ITEM, &items[i],
				"item %u is not of the pattern template's type", i);
	ret = actions_typed(at, actions, error);
	if (unlikely(ret != 0))
		return ret;
	if (unlikely(!pt->plan.ok ||
			sw_pplan_apply(&pt->plan, items, &r->match) != 0)) {
		ret = rule_parse(sw, t, pt, at, items, actions, r, error);
		if (ret == 0 && t->wire_orig)
			sw_wire_orig_apply(&r->match);
		return ret;
	}
	if (pt->plan.port_item != 0) {
		ret = octonic_esw_port_item_src(sw, &items[pt->plan.port_item - 1],
				&r->match, error);
		if (unlikely(ret != 0))
			return ret;
	}
	if (t->wire_orig)
		sw_wire_orig_apply(&r->match);
	sw_rule_place(t->pf, &t->attr, r);
	if (likely(t->sw_table[pt_idx] >= 0)) {
		r->table = (uint32_t)t->sw_table[pt_idx];
		r->table_known = 1;
	}
	if (likely(ap->ok))
		return octonic_esw_aplan_apply(sw, t->pf, &t->attr, ap, at->actions,
			at->fixed, actions, r, error);
	actions_fill(at, actions, ac);
	ret = octonic_esw_actions_parse(sw, t->pf, &t->attr, ac, r, error);
	if (ret != 0)
		cause_of_caller(error, NULL, 0, items, ac, at->nb_actions + 1,
			actions);
	return ret;
}

struct rte_flow *
octonic_eswitch_async_create(struct octonic_eswitch *sw, uint16_t pf,
		uint32_t queue, const struct rte_flow_op_attr *op_attr,
		struct rte_flow_template_table *t, const struct rte_flow_item items[],
		uint8_t pt_idx, const struct rte_flow_action actions[], uint8_t at_idx,
		void *user_data, struct rte_flow_error *error)
{
	struct rte_flow *r;
	int ret;
	struct sw_fq *q = queue_room(sw, pf, queue, &ret, error);

	if (unlikely(q == NULL)) {
		rte_errno = -ret;
		return NULL;
	}
	if (unlikely(t == NULL || t->magic != SW_TBL_MAGIC || t->pf != pf ||
			pt_idx >= t->nb_pt || at_idx >= t->nb_at)) {
		octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, t,
			"not a template table of this port, or no such template index in it");
		return NULL;
	}
	r = octonic_esw_tbl_slot_get(sw, t);
	if (unlikely(r == NULL)) {
		/* mlx5_flow_hw.c, flow_hw_async_flow_create_generic: the
		 * table's flow pool (nb_flows) is empty, ENOMEM
		 */
		octonic_esw_error(error, ENOMEM, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"table full: it holds %u rules (nb_flows)", t->nb_flows);
		return NULL;
	}
	r->ttable = t;
	pthread_mutex_lock(&sw->lock);
	ret = rule_fill(sw, t, items, pt_idx, actions, at_idx, r, error);
	if (unlikely(ret != 0)) {
		sw->stats.validate_fail++;
		pthread_mutex_unlock(&sw->lock);
		rte_free(r->rss);
		octonic_esw_tbl_slot_put(t, r);
		rte_errno = -ret;
		return NULL;
	}
	r->tstate = SW_TS_MADE;
	op_append(q, SW_OP_CREATE, r, NULL, user_data);
	if (op_attr == NULL || !op_attr->postpone)
		exec_pending(sw, q);
	pthread_mutex_unlock(&sw->lock);
	return r;
}

int
octonic_eswitch_async_destroy(struct octonic_eswitch *sw, uint16_t pf,
		uint32_t queue, const struct rte_flow_op_attr *op_attr,
		struct rte_flow *flow, void *user_data, struct rte_flow_error *error)
{
	int ret;
	struct sw_fq *q = queue_room(sw, pf, queue, &ret, error);

	if (unlikely(q == NULL))
		return ret;
	if (unlikely(!handle_live(flow, pf)))
		return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_HANDLE, flow,
			"not a rule of a template table of this port, or its destroy is already enqueued");
	flow->tstate = SW_TS_DYING;
	op_append(q, SW_OP_DESTROY, flow, NULL, user_data);
	if (op_attr == NULL || !op_attr->postpone) {
		pthread_mutex_lock(&sw->lock);
		exec_pending(sw, q);
		pthread_mutex_unlock(&sw->lock);
	}
	return 0;
}

/* Flow queue @p queue with every operation complete, NULL if none such. */
static struct sw_fq *
queue_drained(struct octonic_eswitch *sw, uint16_t pf, uint32_t queue,
		struct rte_flow_error *error)
{
	struct sw_fq *q = queue_of(sw, pf, queue, error);

	if (likely(q != NULL) && q->n_ready != q->n) {
		pthread_mutex_lock(&sw->lock);
		drain(sw, q);
		pthread_mutex_unlock(&sw->lock);
	}
	return q;
}

int
octonic_eswitch_push(struct octonic_eswitch *sw, uint16_t pf, uint32_t queue,
		struct rte_flow_error *error)
{
	return queue_drained(sw, pf, queue, error) != NULL ? 0 : -EINVAL;
}

int
octonic_eswitch_pull(struct octonic_eswitch *sw, uint16_t pf, uint32_t queue,
		struct rte_flow_op_result res[], uint16_t n_res,
		struct rte_flow_error *error)
{
	struct sw_fq *q;
	uint16_t k;

	if (unlikely(res == NULL && n_res != 0))
		return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"no room for the results");
	q = queue_drained(sw, pf, queue, error);
	if (unlikely(q == NULL))
		return -EINVAL;
	for (k = 0; k < n_res && k < q->n_ready; k++) {
		const struct sw_op *op = op_at(q, k);

		res[k].status = op->failed ? RTE_FLOW_OP_ERROR : RTE_FLOW_OP_SUCCESS;
		res[k].user_data = op->user_data;
	}
	q->head += k;
	if (q->head >= q->size)
		q->head -= q->size;
	q->n -= k;
	q->n_ready -= k;
	q->n_done -= k;
	return k;
}

int
octonic_eswitch_async_actions_update(struct octonic_eswitch *sw, uint16_t pf,
		uint32_t queue, const struct rte_flow_op_attr *op_attr,
		struct rte_flow *flow, const struct rte_flow_action actions[],
		uint8_t at_idx, void *user_data, struct rte_flow_error *error)
{
	struct rte_flow_action ac[SW_TMPL_MAX_ACTIONS + 1];
	struct rte_flow_template_table *t;
	struct rte_flow *nr;
	int ret;
	struct sw_fq *q = queue_room(sw, pf, queue, &ret, error);

	if (unlikely(q == NULL))
		return ret;
	if (unlikely(!handle_live(flow, pf) || at_idx >= flow->ttable->nb_at ||
			actions == NULL)) {
		return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_HANDLE, flow,
			"not a live rule of a template table of this port, or no such actions template");
	}
	t = flow->ttable;
	ret = actions_typed(t->at[at_idx], actions, error);
	if (unlikely(ret != 0))
		return ret;
	actions_fill(t->at[at_idx], actions, ac);
	/* The new rule: the handle's match, the new actions.  Not a slot of
	 * the table: the table holds as many rules as before.
	 */
	nr = rte_zmalloc_socket("octonic_rule", sizeof(*nr), RTE_CACHE_LINE_SIZE,
		sw->socket);
	if (nr == NULL)
		return octonic_esw_error(error, ENOMEM, RTE_FLOW_ERROR_TYPE_HANDLE, NULL,
			"out of memory for the rule");
	nr->ttable = t;
	nr->match = flow->match;
	pthread_mutex_lock(&sw->lock);
	nr->domain = flow->domain;
	nr->group = flow->group;
	nr->prio = flow->prio;
	ret = octonic_esw_actions_parse(sw, pf, &t->attr, ac, nr, error);
	if (unlikely(ret != 0)) {
		sw->stats.validate_fail++;
		pthread_mutex_unlock(&sw->lock);
		cause_of_caller(error, NULL, 0, NULL, ac,
			t->at[at_idx]->nb_actions + 1, actions);
		rte_free(nr->rss);
		rte_free(nr);
		return ret;
	}
	op_append(q, SW_OP_UPDATE, flow, nr, user_data);
	if (op_attr == NULL || !op_attr->postpone)
		exec_pending(sw, q);
	pthread_mutex_unlock(&sw->lock);
	return 0;
}
