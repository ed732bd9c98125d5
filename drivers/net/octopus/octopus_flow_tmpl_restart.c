/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Template rules across a restart (Restart in octopus_flow_tmpl_priv.h):
 * where the members keep no rules across their stop, every template rule
 * is taken off the proxy before they stop and made again, from its copy,
 * once they run; both through the port's own operations on the extra
 * flow queue.
 */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_pause.h>
#include <ethdev_driver.h>

#include "octopus_internal.h"
#include "octopus_flow.h"
#include "octopus_flow_tmpl_priv.h"

struct tmpl_rule_again {
	struct rte_flow_item items[TMPL_MAX_ITEMS + 1];
	struct rte_flow_action actions[TMPL_MAX_ACTIONS + 1];
	struct rte_flow_action_queue queue;
	struct rte_flow_action_jump jump;
};

static void
rule_from_copy(const struct octopus_tmpl_table *tb, const struct octopus_tmpl_rule *r,
		struct tmpl_rule_again *g)
{
	const struct octopus_tmpl_pattern *pt = tb->pt[r->pt];
	const struct octopus_tmpl_actions *at = tb->at[r->at];
	uint8_t *c = copy_of(tb, r);
	const struct tmpl_copy_hdr *h = (const struct tmpl_copy_hdr *)c;
	const uint8_t *a = c + sizeof(*h) + tb->pt_room + h->slot * tb->at_room;
	unsigned int k;

	memset(g, 0, sizeof(*g));
	for (k = 0; k < pt->nb_items; k++)
		g->items[k].type = pt->type[k];
	g->items[pt->nb_items].type = RTE_FLOW_ITEM_TYPE_END;
	for (k = 0; k < pt->nb_spec; k++)
		if (h->specs & (UINT32_C(1) << k))
			g->items[pt->spec_item[k]].spec = c + sizeof(*h) + pt->spec_off[k];
	for (k = 0; k + 1 < at->nb_app; k++)
		g->actions[k].type = at->app_type[k];
	g->actions[at->nb_app - 1].type = RTE_FLOW_ACTION_TYPE_END;
	for (k = 0; k < at->nb_conf; k++)
		if (h->act[h->slot].confs & (UINT32_C(1) << k))
			g->actions[at->conf_act[k]].conf = a + at->conf_off[k];
	if (at->fate == TMPL_FATE_QUEUE) {
		g->queue.index = (uint16_t)h->act[h->slot].value;
		g->actions[at->app_fate].conf = &g->queue;
	} else if (at->fate == TMPL_FATE_JUMP) {
		g->jump.group = h->act[h->slot].value;
		g->actions[at->app_fate].conf = &g->jump;
	}
}

/*
 * The port's own operations on the proxy (octopus_tmpl_park, _replay):
 * their user_data is the rule's record with bit 0 set, never one of the
 * application's operation records (struct tmpl_op, aligned).
 */
#define OWN_OP(r)	((void *)((uintptr_t)(r) | 1))
#define OWN_RULE(u)	((struct octopus_tmpl_rule *)((uintptr_t)(u) & ~(uintptr_t)1))
#define IS_OWN_OP(u)	(((uintptr_t)(u) & 1) != 0)

static inline struct octopus_tmpl_rule *
rule_at(const struct octopus_tmpl_table *tb, uint32_t i)
{
	return (struct octopus_tmpl_rule *)(tb->recs.base + ((size_t)i << tb->recs.shift));
}

/*
 * Push flow queue @p qid of the proxy and pull it until none of the port's
 * own operations (*@p own of them) is in flight, nor, with @p app, any of
 * the application's; the application's completions met on the way wait
 * for its pull. A create of the port's that failed leaves its rule in its
 * copy only. @return how many of the port's failed.
 */
static unsigned int
own_collect(struct octopus_priv *p, struct octopus_tmpl *t, uint32_t qid, uint32_t *own,
		bool app)
{
	struct octopus_tmpl_queue *q = &t->q[qid];
	uint64_t deadline = rte_get_timer_cycles() + rte_get_timer_hz() / 1000 * TMPL_WAIT_MS;
	struct rte_flow_op_result res[32];
	struct rte_flow_error err;
	unsigned int failed = 0;
	int got, i;

	memset(&err, 0, sizeof(err));
	if (octo_dpdk_flow_fp_push(&t->fp, qid, &err) != 0)
		OCTO_LOG(ERR, "port %u: flow queue %u: push: %s", p->port_id, qid,
			err.message != NULL ? err.message : "?");
	while (*own > 0 || (app && q->nb_free < q->size)) {
		got = octo_dpdk_flow_fp_pull(&t->fp, qid, res, RTE_DIM(res), &err);
		if (got < 0) {
			OCTO_LOG(ERR, "port %u: flow queue %u: pull: %s", p->port_id, qid,
				err.message != NULL ? err.message : rte_strerror(-got));
			break;
		}
		for (i = 0; i < got; i++) {
			if (!IS_OWN_OP(res[i].user_data)) {
				octopus_tmpl_op_stash(p, q, &res[i]);
				continue;
			}
			(*own)--;
			if (res[i].status != RTE_FLOW_OP_SUCCESS) {
				OWN_RULE(res[i].user_data)->hw = NULL;
				failed++;
			}
		}
		if (got == 0 && rte_get_timer_cycles() > deadline) {
			OCTO_LOG(ERR, "port %u: flow queue %u: the e-switch did not complete %u operations within %u ms",
				p->port_id, qid, *own + (app ? q->size - q->nb_free : 0),
				TMPL_WAIT_MS);
			failed += *own;
			*own = 0;
			break;
		}
		if (got == 0)
			rte_pause();
	}
	return failed;
}

void
octopus_tmpl_park(struct octopus_priv *p)
{
	struct rte_flow_op_attr later = { .postpone = 1 };
	struct octopus_tmpl *t = p->tmpl;
	struct octopus_tmpl_table *tb;
	struct octopus_tmpl_rule *r;
	struct rte_flow_error err;
	uint32_t i, qid, own = 0, nb = 0;
	unsigned int failed = 0;

	if (t == NULL || t->proxy_gone || t->park)
		return;
	t->park = 1;
	/* what the application has in flight first: its completions kept */
	for (qid = 0; qid < t->nb_hwq; qid++)
		failed += own_collect(p, t, qid, &own, true);
	/* the port's own on the extra queue: nothing of the application's
	 * is in flight on it any more
	 */
	qid = t->nb_queue;
	TAILQ_FOREACH(tb, &t->tables, next) {
		if (tb->copies == NULL) {
			OCTO_LOG(WARNING, "port %u: a template table made while the members kept rules keeps no copies: its rules are left to the members",
				p->port_id);
			continue;
		}
		for (i = 0; i < tb->recs.n; i++) {
			r = rule_at(tb, i);
			if (!r->live || r->hw == NULL)
				continue;
			memset(&err, 0, sizeof(err));
			if (octo_dpdk_flow_fp_destroy(&t->fp, qid, &later, r->hw, OWN_OP(r),
					&err) != 0) {
				OCTO_LOG(ERR, "port %u: taking a template rule off the e-switch failed: %s",
					p->port_id, err.message != NULL ? err.message : "?");
				failed++;
			} else {
				own++;
				nb++;
			}
			r->hw = NULL;
			if (own == t->q[qid].size)
				failed += own_collect(p, t, qid, &own, false);
		}
	}
	failed += own_collect(p, t, qid, &own, false);
	OCTO_LOG(INFO, "port %u: %u template rule(s) taken off the members' e-switch for their stop (they keep none), %u failed",
		p->port_id, nb, failed);
}

int
octopus_tmpl_replay(struct octopus_priv *p)
{
	struct rte_flow_op_attr later = { .postpone = 1 };
	struct octopus_tmpl *t = p->tmpl;
	uint16_t nb_rxq = rte_eth_devices[p->port_id].data->nb_rx_queues;
	const struct rte_flow_action *hw_actions;
	struct octopus_tmpl_table *tb;
	struct tmpl_rule_again g;
	struct tmpl_hw_items hw;
	struct octopus_tmpl_queue *q;
	struct octopus_tmpl_rule *r;
	struct rte_flow_error err;
	uint32_t i, qid, own = 0, nb = 0, value;
	unsigned int failed = 0;
	uint64_t qs;

	if (t == NULL || t->proxy_gone || !t->park)
		return 0;
	qid = t->nb_queue;
	q = &t->q[qid];
	TAILQ_FOREACH(tb, &t->tables, next) {
		if (tb->copies == NULL)
			continue;
		for (i = 0; i < tb->recs.n; i++) {
			r = rule_at(tb, i);
			if (!r->live || r->hw != NULL)
				continue;
			rule_from_copy(tb, r, &g);
			memset(&err, 0, sizeof(err));
			hw_actions = octopus_tmpl_rule_actions(t, q, tb->at[r->at],
				g.actions, nb_rxq, &qs, &value, &err);
			if (hw_actions != NULL)
				r->hw = octo_dpdk_flow_fp_create(&t->fp, qid, &later, tb->hw,
					hw_items(t, g.items, tb->pt[r->pt]->nb_items, &hw),
					r->pt, hw_actions, r->at, OWN_OP(r), &err);
			if (r->hw == NULL) {
				OCTO_LOG(ERR, "port %u: making a template rule again failed: %s",
					p->port_id, err.message != NULL ? err.message : "?");
				failed++;
				continue;
			}
			own++;
			nb++;
			if (own == q->nb_free || own == q->size)
				failed += own_collect(p, t, qid, &own, false);
		}
	}
	failed += own_collect(p, t, qid, &own, false);
	t->park = 0;
	OCTO_LOG(INFO, "port %u: %u template rule(s) made again on the members' e-switch, %u failed",
		p->port_id, nb, failed);
	return failed != 0 ? -EIO : 0;
}
