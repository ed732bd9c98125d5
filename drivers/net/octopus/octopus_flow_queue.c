/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * The flow queues of rte_flow's template API on the virtual port: rules
 * made, updated and destroyed on a flow queue, push and pull
 * (octopus_flow_tmpl_priv.h names the files of the template side).
 *
 * A rule is one rule of the proxy's table, on the same flow queue (flow
 * queue q of the application is flow queue q of the proxy), whose
 * completion carries the port's operation record as user_data: pull maps
 * it back to the application's user_data, one completion per application
 * operation, and undoes a failed create.
 *
 * Flow queue q (application or proxy) belongs to the lcore that uses it:
 * its operation records, actions scratch and completions taken early are
 * struct octopus_tmpl_queue's, used without locks; rule records come from
 * an array per table, with free ones kept per flow queue
 * (octopus_flow_tmpl_recs.c).
 *
 * Order: a group-0 QUEUE rule changes where its traffic goes, as a
 * synchronous one does; where that moves traffic between polled queues
 * (octopus_flow_gates()), the operation is gated like a synchronous rule:
 * the gates are prepared, the proxy's operation pushed and waited for
 * (its completion kept for pull), then the gates finish. Other operations
 * are not waited for.
 */

#include <errno.h>
#include <stdalign.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_pause.h>
#include <ethdev_driver.h>

#include "octopus_internal.h"
#include "octopus_flow.h"
#include "octopus_flow_tmpl_priv.h"

/* ---- rule copies (Restart) --------------------------------------------- */

/* Keep, in slot @p slot of @p c, the confs rule actions @p actions give @p at. */
static inline void
copy_actions(const struct octopus_tmpl_table *tb, uint8_t *c, unsigned int slot,
		const struct octopus_tmpl_actions *at, const struct rte_flow_action actions[],
		uint32_t value)
{
	struct tmpl_copy_hdr *h = (struct tmpl_copy_hdr *)c;
	uint8_t *a = c + sizeof(*h) + tb->pt_room + slot * tb->at_room;
	uint32_t confs = 0;
	unsigned int k;

	for (k = 0; k < at->nb_conf; k++) {
		const void *conf = actions[at->conf_act[k]].conf;

		if (conf != NULL) {
			octopus_flow_copy_bytes(a + at->conf_off[k], conf, at->conf_size[k]);
			confs |= UINT32_C(1) << k;
		}
	}
	h->act[slot].confs = confs;
	h->act[slot].value = value;
}

/* Keep rule @p r's pattern specs and actions' confs (made with value @p value). */
static inline void
copy_rule(const struct octopus_tmpl_table *tb, const struct octopus_tmpl_rule *r,
		const struct rte_flow_item pattern[], const struct rte_flow_action actions[],
		uint32_t value)
{
	const struct octopus_tmpl_pattern *pt = tb->pt[r->pt];
	uint8_t *c = copy_of(tb, r);
	struct tmpl_copy_hdr *h = (struct tmpl_copy_hdr *)c;
	uint32_t specs = 0;
	unsigned int k;

	for (k = 0; k < pt->nb_spec; k++) {
		const void *spec = pattern[pt->spec_item[k]].spec;

		if (spec != NULL) {
			octopus_flow_copy_bytes(c + sizeof(*h) + pt->spec_off[k], spec,
				pt->spec_size[k]);
			specs |= UINT32_C(1) << k;
		}
	}
	h->specs = specs;
	h->slot = 0;
	copy_actions(tb, c, 0, tb->at[r->at], actions, value);
}

/* A rule's pattern and application actions again, from its copy. */
/* ---- the flow queues ---------------------------------------------------- */

/* The flow queue @p queue_id of the port, NULL (error set) when there is none. */
static inline struct octopus_tmpl_queue *
queue_of(struct rte_eth_dev *dev, uint32_t queue_id, struct octopus_tmpl **tp,
		struct rte_flow_error *error)
{
	struct octopus_tmpl *t = octo_priv(dev)->tmpl;

	if (unlikely(t == NULL || t->proxy_gone)) {
		tmpl_of(dev, error);
		return NULL;
	}
	if (unlikely(queue_id >= t->nb_hwq)) {
		octopus_flow_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"flow queue %u: the port has %u (and %u, as mlx5)", queue_id,
			t->nb_queue, t->nb_queue);
		return NULL;
	}
	*tp = t;
	return &t->q[queue_id];
}

static inline struct tmpl_op *
op_get(struct octopus_tmpl_queue *q, uint32_t queue_id, struct rte_flow_error *error)
{
	struct tmpl_op *op;

	if (unlikely(q->nb_free == 0)) {
		octopus_flow_error(error, EBUSY, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"flow queue %u full (%u operations not pulled)", queue_id, q->size);
		return NULL;
	}
	op = &q->ops[q->free[--q->nb_free]];
	op->done = 0;
	return op;
}

static inline void
op_put(struct octopus_tmpl_queue *q, struct tmpl_op *op)
{
	q->free[q->nb_free++] = (uint32_t)(op - q->ops);
}

/*
 * Lay out @p q's proxy actions for rules of actions template @p at: the
 * types, and the confs that are the port's (META write, jumps); a rule
 * then writes its own confs and values (actions_of). The value written
 * here is none of a rule's: actions_of writes it before every use.
 */
static void
actions_lay_out(const struct octopus_tmpl *t, struct octopus_tmpl_queue *q,
		const struct octopus_tmpl_actions *at)
{
	unsigned int k;

	for (k = 0; k < at->nb; k++) {
		q->acts[k].type = at->act[k].type;
		q->acts[k].conf = NULL;
	}
	if (at->fate == TMPL_FATE_QUEUE) {
		octopus_steer_meta_action(at->meta_how, 0, &q->acts[at->meta_pos],
			&q->meta, &q->mod);
		q->home.group = OCTO_STEER_HOME_GROUP + t->shape.base;
		q->acts[at->meta_pos + 1].conf = &q->home;
	} else if (at->fate == TMPL_FATE_JUMP) {
		q->acts[at->jump_pos].conf = &q->jump;
	}
	q->built = at->id;
}

/*
 * The proxy's actions of a rule made with actions template @p at from the
 * application's @p actions, in @p q's scratch: the template's, with the
 * values it leaves to each rule translated. *@p qs: the queue it delivers
 * to (bit), 0 for none; *@p value: the QUEUE index or JUMP group. NULL
 * (error set) for a bad value.
 */
static inline const struct rte_flow_action *
actions_of(const struct octopus_tmpl *t, struct octopus_tmpl_queue *q,
		const struct octopus_tmpl_actions *at, const struct rte_flow_action actions[],
		uint16_t nb_rxq, uint64_t *qs, uint32_t *value, struct rte_flow_error *error)
{
	uint32_t v = at->value;
	unsigned int k;

	if (unlikely(q->built != at->id))
		actions_lay_out(t, q, at);
	for (k = 0; k < at->nb_from; k++)
		q->acts[at->from_pos[k]].conf = actions[at->act[at->from_pos[k]].from].conf;
	*qs = 0;
	if (at->fate == TMPL_FATE_QUEUE) {
		if (!at->masked) {
			const struct rte_flow_action_queue *c = actions[at->app_fate].conf;

			if (unlikely(c == NULL || c->index >= nb_rxq)) {
				octopus_flow_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF,
					&actions[at->app_fate],
					"queue index %u: the port has %u Rx queues",
					c == NULL ? UINT16_MAX : c->index, nb_rxq);
				return NULL;
			}
			v = c->index;
		}
		octopus_steer_meta_value(at->meta_how, v, &q->meta, &q->mod);
		*qs = UINT64_C(1) << (v % OCTOPUS_MAX_QUEUES);
	} else if (at->fate == TMPL_FATE_JUMP) {
		if (!at->masked) {
			const struct rte_flow_action_jump *c = actions[at->app_fate].conf;

			if (unlikely(c == NULL || c->group == 0 ||
					c->group >= OCTO_STEER_HOME_GROUP)) {
				octopus_flow_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF,
					&actions[at->app_fate], "jump: groups 1..%u",
					OCTO_STEER_HOME_GROUP - 1);
				return NULL;
			}
			v = c->group;
		}
		q->jump.group = t->shape.base + v;
	}
	*value = v;
	return q->acts;
}

/* A translated completion for the application; the operation is over. */
static __rte_always_inline void
op_complete(struct octopus_priv *p, struct octopus_tmpl_queue *q,
		struct rte_flow_op_result *res)
{
	struct tmpl_op *op = res->user_data;
	struct octopus_tmpl_rule *r = op->rule;
	bool ok = res->status == RTE_FLOW_OP_SUCCESS;

	switch (op->kind) {
	case TMPL_OP_CREATE:
		if (!ok && !r->live) {
			/* a destroy of it is in flight (reach uncounted then):
			 * its completion frees the record
			 */
			r->failed = 1;
		} else if (!ok) {
			/* nothing else was made of it: the record goes */
			if (r->qs != 0)
				octopus_flow_reach_count(p, r->bucket, r->qs, -1);
			r->live = 0;
			octopus_tmpl_recs_put(&r->tbl->recs, q->id, r);
		}
		break;
	case TMPL_OP_DESTROY:
		if (ok || r->failed) {
			octopus_tmpl_recs_put(&r->tbl->recs, q->id, r);
		} else {
			/* still there: counted again */
			r->live = 1;
			if (r->qs != 0)
				octopus_flow_reach_count(p, r->bucket, r->qs, 1);
		}
		break;
	case TMPL_OP_UPDATE:
		/* counted both ways while in flight: the loser goes */
		if (ok) {
			if (r->qs != 0)
				octopus_flow_reach_count(p, r->bucket, r->qs, -1);
			r->qs = op->qs;
			r->at = op->at;
			if (r->tbl->copies != NULL)
				((struct tmpl_copy_hdr *)copy_of(r->tbl, r))->slot = op->slot;
		} else if (op->qs != 0) {
			octopus_flow_reach_count(p, r->bucket, op->qs, -1);
		}
		break;
	}
	res->user_data = op->user_data;
	op_put(q, op);
}

/*
 * Operation @p op done without the proxy (a rule kept in its copy only):
 * its completion, a success, waits for the application's pull.
 */
static void
complete_now(struct octopus_priv *p, struct octopus_tmpl_queue *q, struct tmpl_op *op)
{
	struct rte_flow_op_result res = { .status = RTE_FLOW_OP_SUCCESS, .user_data = op };

	op_complete(p, q, &res);
	q->stash[(q->stash_head + q->stash_n++) % q->size] = res;
}

/*
 * A rule made while the port is stopped and its members take no rules
 * (Restart): kept in its copy (made already), made on the proxy at start.
 */
static __rte_noinline struct rte_flow *
create_parked(struct octopus_priv *p, struct octopus_tmpl_queue *q, struct tmpl_op *op,
		struct octopus_tmpl_rule *r, void *user_data, struct rte_flow_error *error)
{
	if (r->tbl->copies == NULL) {
		r->live = 0;
		octopus_tmpl_recs_put(&r->tbl->recs, q->id, r);
		op_put(q, op);
		octopus_flow_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"the port is stopped and its members keep no rules, and this table keeps none: start the port first");
		return NULL;
	}
	r->hw = NULL;
	if (r->qs != 0)
		octopus_flow_reach_count(p, r->bucket, r->qs, 1);
	op->user_data = user_data;
	op->rule = r;
	op->kind = TMPL_OP_CREATE;
	complete_now(p, q, op);
	return (struct rte_flow *)r;
}

/*
 * Pull up to @p n of the proxy's completions of flow queue @p qid into
 * @p res, translated. @return how many, or -errno.
 */
static int
pull_hw(struct octopus_priv *p, struct octopus_tmpl *t, uint32_t qid,
		struct rte_flow_op_result *res, uint16_t n, struct rte_flow_error *error)
{
	struct octopus_tmpl_queue *q = &t->q[qid];
	int got, i;

	got = octo_dpdk_flow_fp_pull(&t->fp, qid, res, n, error);
	if (got < 0)
		return octopus_flow_member_error(error, got, t->proxy);
	for (i = 0; i < got; i++)
		op_complete(p, q, &res[i]);
	return got;
}

/*
 * Push flow queue @p qid and wait for the completion of @p op, keeping
 * every completion taken meanwhile for the application's pull.
 * @return 0 (its status is in the stash), -ETIMEDOUT, -errno.
 */
static int
wait_op(struct octopus_priv *p, struct octopus_tmpl *t, uint32_t qid, struct tmpl_op *op,
		struct rte_flow_error *error)
{
	struct octopus_tmpl_queue *q = &t->q[qid];
	uint64_t deadline = rte_get_timer_cycles() + rte_get_timer_hz() / 1000 * TMPL_WAIT_MS;
	struct rte_flow_op_result res[32];
	int got, i, ret;

	ret = octo_dpdk_flow_fp_push(&t->fp, qid, error);
	if (ret != 0)
		return octopus_flow_member_error(error, ret, t->proxy);
	for (;;) {
		bool found = false;

		/* room: at most q->size operations are in flight */
		got = octo_dpdk_flow_fp_pull(&t->fp, qid, res,
			(uint16_t)RTE_MIN(RTE_DIM(res), q->size - q->stash_n), error);
		if (got < 0)
			return octopus_flow_member_error(error, got, t->proxy);
		for (i = 0; i < got; i++) {
			if (res[i].user_data == op)
				found = true;
			op_complete(p, q, &res[i]);
			q->stash[(q->stash_head + q->stash_n++) % q->size] = res[i];
		}
		if (found)
			return 0;
		if (rte_get_timer_cycles() > deadline)
			break;
		rte_pause();
	}
	return octopus_flow_error(error, ETIMEDOUT, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
		"flow queue %u: the e-switch did not complete a gated operation within %u ms",
		qid, TMPL_WAIT_MS);
}

/* Whether Rx queue @p qid has had a poller. */
static inline bool
queue_polled(const struct octopus_priv *p, uint16_t qid)
{
	const struct octopus_queue *q = octopus_queue_get(p, qid, 0);

	return q != NULL && rte_atomic_load_explicit(&q->poller_lcore,
		rte_memory_order_relaxed) >= 0;
}

/* gates_prepare past its early returns (kept out of the operations' own code) */
static __rte_noinline void
gates_compute(struct octopus_priv *p, const struct octopus_tmpl_rule *r, uint64_t from,
		uint64_t to, struct octopus_gate_set *s)
{
	uint64_t m;

	if (from == 0) {
		octopus_flow_gates(p, r->bucket, to, true, s);
	} else if (to == 0) {
		octopus_flow_gates(p, r->bucket, from, false, s);
	} else if (from != to) {
		/* an update: the traffic moves from one queue to the other */
		s->dsts = to;
		s->src[rte_ctz64(to)] = from;
	}
	/* a queue nobody has polled yet delivers nothing before its first
	 * poller comes, so it is not waited for: the price of a gate here is
	 * a wait for the e-switch's completion
	 */
	for (m = s->dsts; m != 0; m &= m - 1)
		if (!queue_polled(p, rte_ctz64(m)))
			s->dsts &= ~(m & -m);
	if (s->dsts != 0) {
		/* one gated change at a time, as the synchronous ones (under
		 * ethdev's flow ops mutex): flow queues run on several lcores
		 */
		pthread_mutex_lock(&rte_eth_devices[p->port_id].data->flow_ops_mutex);
		octopus_gate_prepare(p, s);
	}
}

/*
 * The gates of a change of the rule's traffic (a QUEUE rule of group 0)
 * from queues @p from to queues @p to (bit q; one of them 0 for a create
 * or a destroy), prepared; s->dsts == 0 when nothing needs waiting for.
 */
static __rte_always_inline void
gates_prepare(struct octopus_priv *p, const struct octopus_tmpl_rule *r, uint64_t from,
		uint64_t to, struct octopus_gate_set *s)
{
	s->dsts = 0;
	if (!p->started || !p->mig.running)
		return;
	/* a create gates its own queue only: nothing to count if nobody polls it */
	if (from == 0 && !queue_polled(p, rte_ctz64(to)))
		return;
	/* a destroy's traffic goes to other queues: none was ever polled */
	if (to == 0 && (rte_atomic_load_explicit(&p->rxq_polled,
			rte_memory_order_relaxed) & ~from) == 0)
		return;
	gates_compute(p, r, from, to, s);
}

/* After a gated change (@p changed) or its refusal: the gates finish, the next may run. */
static void
gates_done(struct octopus_priv *p, const struct octopus_gate_set *s, bool changed)
{
	octopus_gate_finish(p, s, changed);
	pthread_mutex_unlock(&rte_eth_devices[p->port_id].data->flow_ops_mutex);
}

/*
 * A gated operation, enqueued: the traffic moves once the e-switch has
 * done it, so push, wait for its completion (kept for pull), then open
 * the gates. A wait that times out is logged: the gates open anyway.
 */
static void
gated_finish(struct octopus_priv *p, struct octopus_tmpl *t, uint32_t queue_id,
		struct tmpl_op *op, const struct octopus_gate_set *gates,
		struct rte_flow_error *error)
{
	int ret = wait_op(p, t, queue_id, op, error);

	gates_done(p, gates, true);
	if (ret != 0)
		OCTO_LOG(ERR, "port %u: %s", p->port_id, error != NULL &&
			error->message != NULL ? error->message : rte_strerror(-ret));
}

struct rte_flow *
octopus_tmpl_async_create(struct rte_eth_dev *dev, uint32_t queue_id,
		const struct rte_flow_op_attr *op_attr, struct rte_flow_template_table *table,
		const struct rte_flow_item pattern[], uint8_t pt_index,
		const struct rte_flow_action actions[], uint8_t at_index,
		void *user_data, struct rte_flow_error *error)
{
	struct octopus_priv *p = octo_priv(dev);
	struct octopus_tmpl_table *tb = (struct octopus_tmpl_table *)table;
	const struct rte_flow_action *hw_actions;
	struct octopus_tmpl_rule *r;
	struct octopus_tmpl_queue *q;
	struct octopus_gate_set gates;
	struct tmpl_hw_items hw;
	struct octopus_tmpl *t;
	struct tmpl_op *op;
	uint32_t value;
	uint64_t qs;
	int ret;

	q = queue_of(dev, queue_id, &t, error);
	if (unlikely(q == NULL))
		return NULL;
	if (unlikely(tb == NULL || pt_index >= tb->nb_pt || at_index >= tb->nb_at)) {
		octopus_flow_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"no such table or template index");
		return NULL;
	}
	hw_actions = actions_of(t, q, tb->at[at_index], actions, dev->data->nb_rx_queues,
		&qs, &value, error);
	if (unlikely(hw_actions == NULL))
		return NULL;
	op = op_get(q, queue_id, error);
	if (unlikely(op == NULL))
		return NULL;
	r = octopus_tmpl_recs_get(&tb->recs, queue_id);
	if (unlikely(r == NULL)) {
		op_put(q, op);
		octopus_flow_error(error, ENOSPC, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, tb,
			"table full");
		return NULL;
	}
	r->tbl = tb;
	r->pt = pt_index;
	r->at = at_index;
	r->live = 1;
	r->failed = 0;
	r->qs = tb->group == 0 ? qs : 0;
	/* where the traffic went before: the rule's bucket, and the rules that
	 * may take it (octopus_flow.c's reach); kept for an update to QUEUE
	 */
	r->bucket = tb->group == 0 ?
		octopus_flow_bucket_run(&tb->pt[pt_index]->bucket, pattern) : -1;
	if (tb->copies != NULL)
		copy_rule(tb, r, pattern, actions, value);
	if (unlikely(t->park))
		return create_parked(p, q, op, r, user_data, error);
	gates.dsts = 0;
	if (r->qs != 0) {
		gates_prepare(p, r, 0, r->qs, &gates);
		octopus_flow_reach_count(p, r->bucket, r->qs, 1);
	}
	op->user_data = user_data;
	op->rule = r;
	op->kind = TMPL_OP_CREATE;
	r->hw = octo_dpdk_flow_fp_create(&t->fp, queue_id, op_attr, tb->hw,
		hw_items(t, pattern, tb->pt[pt_index]->nb_items, &hw), pt_index, hw_actions,
		at_index, op, error);
	if (unlikely(r->hw == NULL)) {
		ret = rte_errno > 0 ? -rte_errno : -EIO;
		if (gates.dsts != 0)
			gates_done(p, &gates, false);
		if (r->qs != 0)
			octopus_flow_reach_count(p, r->bucket, r->qs, -1);
		r->live = 0;
		octopus_tmpl_recs_put(&tb->recs, queue_id, r);
		op_put(q, op);
		octopus_flow_member_error(error, ret, t->proxy);
		return NULL;
	}
	if (gates.dsts != 0)
		gated_finish(p, t, queue_id, op, &gates, error);
	return (struct rte_flow *)r;
}

/*
 * Whether @p flow can be read as a template rule's record: not NULL, not
 * a synchronous rule's handle (testpmd keeps both kinds in one list and
 * sends either to `flow queue destroy`), aligned as a record is.
 */
static inline bool
rule_handle_ok(const struct octopus_priv *p, const struct rte_flow *flow,
		struct rte_flow_error *error)
{
	if (unlikely(octopus_flow_handle_is_sync(p, flow))) {
		octopus_flow_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_HANDLE, flow,
			"a rule made with rte_flow_create: rte_flow_destroy removes it");
		return false;
	}
	if (unlikely(flow == NULL ||
			!rte_is_aligned(flow, alignof(struct octopus_tmpl_rule)))) {
		octopus_flow_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_HANDLE, flow,
			"not a template rule of this port");
		return false;
	}
	return true;
}

int
octopus_tmpl_async_destroy(struct rte_eth_dev *dev, uint32_t queue_id,
		const struct rte_flow_op_attr *op_attr, struct rte_flow *flow,
		void *user_data, struct rte_flow_error *error)
{
	struct octopus_priv *p = octo_priv(dev);
	struct octopus_tmpl_rule *r = (struct octopus_tmpl_rule *)flow;
	struct octopus_tmpl_queue *q;
	struct octopus_gate_set gates;
	struct octopus_tmpl *t;
	struct tmpl_op *op;
	int ret;

	q = queue_of(dev, queue_id, &t, error);
	if (unlikely(q == NULL))
		return -rte_errno;
	if (unlikely(!rule_handle_ok(p, flow, error)))
		return -rte_errno;
	if (unlikely(!r->live))
		return octopus_flow_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_HANDLE, flow,
			"not a template rule of this port, or destroyed already");
	op = op_get(q, queue_id, error);
	if (unlikely(op == NULL))
		return -rte_errno;
	op->user_data = user_data;
	op->rule = r;
	op->kind = TMPL_OP_DESTROY;
	if (unlikely(r->hw == NULL)) {
		/* kept in its copy only: nothing on the proxy */
		if (r->qs != 0)
			octopus_flow_reach_count(p, r->bucket, r->qs, -1);
		r->live = 0;
		complete_now(p, q, op);
		return 0;
	}
	gates.dsts = 0;
	if (r->qs != 0) {
		octopus_flow_reach_count(p, r->bucket, r->qs, -1);
		gates_prepare(p, r, r->qs, 0, &gates);
	}
	ret = octo_dpdk_flow_fp_destroy(&t->fp, queue_id, op_attr, r->hw, op, error);
	if (unlikely(ret != 0)) {
		if (gates.dsts != 0)
			gates_done(p, &gates, false);
		if (r->qs != 0)
			octopus_flow_reach_count(p, r->bucket, r->qs, 1);
		op_put(q, op);
		return octopus_flow_member_error(error, ret, t->proxy);
	}
	r->live = 0;
	if (gates.dsts != 0)
		gated_finish(p, t, queue_id, op, &gates, error);
	return 0;
}

#if OCTO_DPDK_HAS_FLOW_ACTIONS_UPDATE
int
octopus_tmpl_async_update(struct rte_eth_dev *dev, uint32_t queue_id,
		const struct rte_flow_op_attr *op_attr, struct rte_flow *flow,
		const struct rte_flow_action actions[], uint8_t at_index,
		void *user_data, struct rte_flow_error *error)
{
	struct octopus_priv *p = octo_priv(dev);
	struct octopus_tmpl_rule *r = (struct octopus_tmpl_rule *)flow;
	const struct rte_flow_action *hw_actions;
	struct octopus_tmpl_queue *q;
	struct octopus_gate_set gates;
	struct octopus_tmpl *t;
	struct tmpl_op *op;
	uint32_t value;
	uint64_t qs;
	int ret;

	q = queue_of(dev, queue_id, &t, error);
	if (unlikely(q == NULL))
		return -rte_errno;
	if (unlikely(!rule_handle_ok(p, flow, error)))
		return -rte_errno;
	if (unlikely(!r->live || at_index >= r->tbl->nb_at))
		return octopus_flow_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_HANDLE, flow,
			"not a template rule of this port, or no such actions template");
	hw_actions = actions_of(t, q, r->tbl->at[at_index], actions, dev->data->nb_rx_queues,
		&qs, &value, error);
	if (unlikely(hw_actions == NULL))
		return -rte_errno;
	op = op_get(q, queue_id, error);
	if (unlikely(op == NULL))
		return -rte_errno;
	op->user_data = user_data;
	op->rule = r;
	op->kind = TMPL_OP_UPDATE;
	op->at = at_index;
	op->qs = r->tbl->group == 0 ? qs : 0;
	if (r->tbl->copies != NULL) {
		/* the slot not in use: the rule's once the update completes */
		op->slot = ((struct tmpl_copy_hdr *)copy_of(r->tbl, r))->slot ^ 1;
		copy_actions(r->tbl, copy_of(r->tbl, r), op->slot, r->tbl->at[at_index],
			actions, value);
	}
	if (unlikely(r->hw == NULL)) {
		/* kept in its copy only: the copy is the rule */
		if (op->qs != 0)
			octopus_flow_reach_count(p, r->bucket, op->qs, 1);
		complete_now(p, q, op);
		return 0;
	}
	gates.dsts = 0;
	if (op->qs != 0) {
		gates_prepare(p, r, r->qs, op->qs, &gates);
		octopus_flow_reach_count(p, r->bucket, op->qs, 1);
	}
	ret = octo_dpdk_flow_fp_update(&t->fp, queue_id, op_attr, r->hw, hw_actions,
		at_index, op, error);
	if (unlikely(ret != 0)) {
		if (gates.dsts != 0)
			gates_done(p, &gates, false);
		if (op->qs != 0)
			octopus_flow_reach_count(p, r->bucket, op->qs, -1);
		op_put(q, op);
		return octopus_flow_member_error(error, ret, t->proxy);
	}
	if (gates.dsts != 0)
		gated_finish(p, t, queue_id, op, &gates, error);
	return 0;
}
#endif

int
octopus_tmpl_push(struct rte_eth_dev *dev, uint32_t queue_id, struct rte_flow_error *error)
{
	struct octopus_tmpl *t;
	int ret;

	if (unlikely(queue_of(dev, queue_id, &t, error) == NULL))
		return -rte_errno;
	ret = octo_dpdk_flow_fp_push(&t->fp, queue_id, error);
	return unlikely(ret != 0) ? octopus_flow_member_error(error, ret, t->proxy) : 0;
}

int
octopus_tmpl_pull(struct rte_eth_dev *dev, uint32_t queue_id, struct rte_flow_op_result res[],
		uint16_t n_res, struct rte_flow_error *error)
{
	struct octopus_tmpl_queue *q;
	struct octopus_tmpl *t;
	uint16_t n = 0;
	int got;

	q = queue_of(dev, queue_id, &t, error);
	if (unlikely(q == NULL))
		return -rte_errno;
	/* those a gated operation's wait took first, in their order */
	while (q->stash_n != 0 && n < n_res) {
		res[n++] = q->stash[q->stash_head];
		q->stash_head = (q->stash_head + 1) % q->size;
		q->stash_n--;
	}
	if (n == n_res)
		return n;
	got = pull_hw(octo_priv(dev), t, queue_id, res + n, n_res - n, error);
	if (unlikely(got < 0))
		return n != 0 ? n : got;
	return n + got;
}

const struct rte_flow_action *
octopus_tmpl_rule_actions(const struct octopus_tmpl *t, struct octopus_tmpl_queue *q,
		const struct octopus_tmpl_actions *at, const struct rte_flow_action actions[],
		uint16_t nb_rxq, uint64_t *qs, uint32_t *value, struct rte_flow_error *error)
{
	return actions_of(t, q, at, actions, nb_rxq, qs, value, error);
}

void
octopus_tmpl_op_stash(struct octopus_priv *p, struct octopus_tmpl_queue *q,
		struct rte_flow_op_result *res)
{
	op_complete(p, q, res);
	q->stash[(q->stash_head + q->stash_n++) % q->size] = *res;
}
