/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * net_octonic's template and asynchronous flow API on real ports:
 *   test_octonic_template -m 512 --no-pci --file-prefix X -- <case>
 * generic and mlx5_hws: info_get, configure refusals, template and table
 * refusals, async create/destroy with push/pull (one completion per
 * operation, user_data, queue full, table full), a template rule steering
 * wire traffic exactly as the same rule made by rte_flow_create, both
 * kinds side by side, flush and rte_flow_destroy leaving template rules.
 * flow_filtering: DPDK 25.11's example's sequence under mlx5-hws (one
 * flow queue, insert on queue 1, never pull).  bench: the model's own
 * async and sync insertion and deletion rates, 100k rules on a bare PF.
 */

#include <errno.h>
#include <pthread.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_bus_vdev.h>
#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_flow.h>
#include <rte_mbuf.h>

#include <octopus_dpdk_compat.h>
#include <rte_pmd_octonic.h>
#include "../common/octo_cases.h"
#include "../common/octo_check.h"
#include "../common/octo_flow_rule.h"
#include "../common/octo_port.h"
#include "../common/octo_state.h"
#include "../common/octo_test_eal.h"
#include "octonic_nic.h"

#define BURST 32
#define FRAMES 1000
#define MARK_ID 0x55

static void
nic_close(struct nic *n)
{
	/* the transfer proxy last: mlx5-hws refuses it first */
	rte_eth_dev_stop(n->port[1]);
	rte_eth_dev_stop(n->port[0]);
	/* template rules, tables and templates still there: freed at close */
	CHECK(rte_vdev_uninit(n->name) == 0, "uninit %s", n->name);
}

/* Configure @p nb_queue flow queues of @p size on @p port, stopped. */
static int
flow_configure(uint16_t port, uint16_t nb_queue, uint32_t size,
		struct rte_flow_error *err)
{
	struct rte_flow_port_attr pa = { .nb_counters = 1 };
	struct rte_flow_queue_attr qa = { .size = size };
	const struct rte_flow_queue_attr *qas[8];
	unsigned int i;

	for (i = 0; i < RTE_DIM(qas); i++)
		qas[i] = &qa;
	return rte_flow_configure(port, &pa, nb_queue, qas, err);
}

/* ---- traffic ---- */

struct counts {
	uint64_t q[2][NB_RXQ];	/* received, and missed on PF0's queues */
	uint64_t missed[NB_RXQ];	/* missed on PF0's queues */
	uint64_t marked;
	uint64_t total;
};

/* Receive until @p want frames or 200 ms without any. */
static void
poll_counts(const struct nic *n, uint64_t want, struct counts *c)
{
	struct rte_mbuf *pkts[BURST];
	uint64_t hz = rte_get_tsc_hz(), last = rte_get_tsc_cycles();
	unsigned int p, i;
	uint16_t q, nb;

	memset(c, 0, sizeof(*c));
	while (c->total < want && rte_get_tsc_cycles() - last < hz / 5) {
		for (p = 0; p < 2; p++)
			for (q = 0; q < NB_RXQ; q++) {
				nb = rte_eth_rx_burst(n->port[p], q, pkts, BURST);
				if (nb > 0)
					last = rte_get_tsc_cycles();
				c->total += nb;
				c->q[p][q] += nb;
				for (i = 0; i < nb; i++) {
					if ((pkts[i]->ol_flags & RTE_MBUF_F_RX_FDIR_ID) != 0 &&
							pkts[i]->hash.fdir.hi == MARK_ID)
						c->marked++;
					rte_pktmbuf_free(pkts[i]);
				}
			}
	}
}

/* Frames PF0's queue @p q missed so far (its ring full: a loaded
 * machine descheduled the poller). */
static uint64_t
missed(const struct nic *n, uint16_t q)
{
	char name[RTE_ETH_XSTATS_NAME_SIZE];
	uint64_t id, v = 0;

	snprintf(name, sizeof(name), "rx_q%u_missed_packets", q);
	if (rte_eth_xstats_get_id_by_name(n->port[0], name, &id) == 0)
		rte_eth_xstats_get_by_id(n->port[0], &id, &v, 1);
	return v;
}

/* Generate exactly FRAMES frames (none before) and count where they land. */
static void
traffic(const struct nic *n, struct counts *c)
{
	uint64_t m0[NB_RXQ];
	uint16_t q;

	CHECK(rte_pmd_octonic_gen_enable(n->port[0], 0) == 0, "gen pause");
	poll_counts(n, UINT64_MAX, c);
	for (q = 0; q < NB_RXQ; q++)
		m0[q] = missed(n, q);
	REQUIRE(octo_gen_limit(n->port[0], FRAMES) == 0 &&
		rte_pmd_octonic_gen_enable(n->port[0], 1) == 0, "gen get, set and start");
	poll_counts(n, FRAMES, c);
	for (q = 0; q < NB_RXQ; q++) {
		c->missed[q] = missed(n, q) - m0[q];
		c->q[0][q] += c->missed[q];
		c->total += c->missed[q];
	}
}

/* All FRAMES frames on PF0 queue @p q, marked or not as @p marked says;
 * frames the queue missed count as arrived there, marked as expected
 * (the rule sent them there). */
static void
expect_on(const struct nic *n, const char *what, uint16_t q, int marked)
{
	struct counts c;

	traffic(n, &c);
	if (marked)
		c.marked += c.missed[q];
	CHECK(c.q[0][q] == FRAMES && c.total == FRAMES &&
		c.marked == (marked ? FRAMES : 0),
		"%s: %" PRIu64 " of %u frames on PF0 queue %u (%" PRIu64 " in all, %" PRIu64 " marked)",
		what, c.q[0][q], FRAMES, q, c.total, c.marked);
}

/* All FRAMES frames arrive, none marked: no rule steers them. */
static void
expect_unsteered(const struct nic *n, const char *what)
{
	struct counts c;

	traffic(n, &c);
	CHECK(c.total == FRAMES && c.marked == 0,
		"%s: %" PRIu64 " frames, %" PRIu64 " marked", what, c.total,
		c.marked);
}

/* ---- templates: eth / ipv4 / udp(dst port masked) -> QUEUE (+ MARK) ---- */

struct tmpl {
	struct rte_flow_pattern_template *pt;
	struct rte_flow_actions_template *at;
	struct rte_flow_template_table *tbl;
};

static const struct rte_flow_item_udp udp_dst_mask = {
	.hdr.dst_port = RTE_BE16(0xffff),
};

static struct rte_flow_pattern_template *
pattern_template(uint16_t port, int transfer, struct rte_flow_error *err)
{
	const struct rte_flow_pattern_template_attr attr = {
		.ingress = !transfer, .transfer = transfer,
	};
	const struct rte_flow_item items[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4 },
		{ .type = RTE_FLOW_ITEM_TYPE_UDP, .mask = &udp_dst_mask },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};

	return rte_flow_pattern_template_create(port, &attr, items, err);
}

/*
 * QUEUE from each rule, MARK MARK_ID constant.  The QUEUE mask has a conf
 * whose index is 0, as testpmd's "mask queue / end" makes it: that leaves
 * the index to each rule (mlx5 fixes it only under a non-zero mask).
 */
static struct rte_flow_actions_template *
actions_template(uint16_t port, struct rte_flow_error *err)
{
	static const struct rte_flow_action_mark mark = { .id = MARK_ID };
	static const struct rte_flow_action_queue any_index = { .index = 0 };
	const struct rte_flow_actions_template_attr attr = { .ingress = 1 };
	const struct rte_flow_action acts[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_MARK, .conf = &mark },
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	const struct rte_flow_action masks[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_MARK, .conf = &mark },
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &any_index },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};

	return rte_flow_actions_template_create(port, &attr, acts, masks, err);
}

static struct rte_flow_template_table *
table(uint16_t port, struct tmpl *t, uint32_t prio, uint32_t nb_flows,
		struct rte_flow_error *err)
{
	const struct rte_flow_template_table_attr attr = {
		.flow_attr = { .ingress = 1, .priority = prio },
		.nb_flows = nb_flows,
	};

	return rte_flow_template_table_create(port, &attr, &t->pt, 1, &t->at, 1,
		err);
}

/* A rule's pattern (UDP dst port @p dport, 0: any port) and actions. */
struct rule {
	struct rte_flow_item_udp udp;
	struct rte_flow_item items[4];
	struct rte_flow_action_mark mark;
	struct rte_flow_action_queue queue;
	struct rte_flow_action acts[3];
};

static void
rule_fill(struct rule *r, uint16_t dport, uint16_t queue)
{
	memset(r, 0, sizeof(*r));
	r->udp.hdr.dst_port = rte_cpu_to_be_16(dport);
	r->items[0].type = RTE_FLOW_ITEM_TYPE_ETH;
	r->items[1].type = RTE_FLOW_ITEM_TYPE_IPV4;
	r->items[2].type = RTE_FLOW_ITEM_TYPE_UDP;
	r->items[2].spec = &r->udp;
	r->items[2].mask = &udp_dst_mask;
	r->items[3].type = RTE_FLOW_ITEM_TYPE_END;
	r->mark.id = MARK_ID;
	r->queue.index = queue;
	r->acts[0].type = RTE_FLOW_ACTION_TYPE_MARK;
	r->acts[0].conf = &r->mark;
	r->acts[1].type = RTE_FLOW_ACTION_TYPE_QUEUE;
	r->acts[1].conf = &r->queue;
	r->acts[2].type = RTE_FLOW_ACTION_TYPE_END;
}

/* The generator's frames: UDP to which destination port? */
static uint16_t
gen_dport(const struct nic *n)
{
	struct rte_mbuf *pkts[BURST];
	uint16_t dport = 0, q, nb, i;
	uint64_t until = rte_get_tsc_cycles() + rte_get_tsc_hz();
	struct rte_pmd_octonic_gen_conf gc;

	if (rte_pmd_octonic_gen_get(n->port[0], &gc) != 0) {
		CHECK(0, "gen get");
		return 0;
	}
	gc.limit = 0;
	if (rte_pmd_octonic_gen_set(n->port[0], &gc) != 0 ||
			rte_pmd_octonic_gen_enable(n->port[0], 1) != 0) {
		CHECK(0, "gen start");
		return 0;
	}
	while (dport == 0 && rte_get_tsc_cycles() < until)
		for (q = 0; q < NB_RXQ; q++) {
			nb = rte_eth_rx_burst(n->port[0], q, pkts, BURST);
			for (i = 0; i < nb; i++) {
				const struct rte_udp_hdr *u = rte_pktmbuf_mtod_offset(
					pkts[i], const struct rte_udp_hdr *,
					sizeof(struct rte_ether_hdr) +
					sizeof(struct rte_ipv4_hdr));

				dport = rte_be_to_cpu_16(u->dst_port);
				rte_pktmbuf_free(pkts[i]);
			}
		}
	return dport;
}

/* Pull until @p want completions (or 1 s); they go into @p res. */
static int
pull_all(uint16_t port, uint32_t queue, struct rte_flow_op_result *res,
		int want)
{
	struct rte_flow_error err;
	uint64_t until = rte_get_tsc_cycles() + rte_get_tsc_hz();
	int got = 0, n;

	while (got < want && rte_get_tsc_cycles() < until) {
		n = rte_flow_pull(port, queue, res + got, want - got, &err);
		if (n < 0)
			return n;
		got += n;
	}
	return got;
}

/* ---- cases ---- */

static void
api_case(int hws)
{
	struct rte_flow_op_attr later = { .postpone = 1 }, now = { .postpone = 0 };
	struct rte_flow_port_info pi;
	struct rte_flow_queue_info qi;
	struct rte_flow_op_result res[16];
	struct rte_flow_error err;
	struct rte_flow *f[4], *extra, *sync_rule;
	struct rte_flow_attr sattr = { .ingress = 1, .priority = 1 };
	struct rte_flow_pattern_template *pt_t;
	struct tmpl t = { 0 };
	struct nic n;
	struct rule r, rs;
	uint16_t dport, p0;
	int i, ret;

	REQUIRE(nic_open(&n, "net_octonic_tmpl", hws ?
		"pfs=2,flows=16,gen_rate=200000,dialect=mlx5-hws" :
		"pfs=2,flows=16,gen_rate=200000") == 0, "nic open");
	p0 = n.port[0];

	/* info_get states the limits configure enforces */
	REQUIRE(rte_flow_info_get(p0, &pi, &qi, &err) == 0, "info_get");
	CHECK(pi.max_nb_queues == 64 && qi.max_size == 65536,
		"info_get: %u queues of %u", pi.max_nb_queues, qi.max_size);
	CHECK(flow_configure(p0, 65, 8, &err) != 0, "65 queues accepted");
	CHECK(flow_configure(p0, 1, 65537, &err) != 0, "a queue of 65537 accepted");

	/* configure while started: refused */
	CHECK(flow_configure(p0, 2, 8, &err) != 0, "configure while started accepted");
	/* PF1 first: under mlx5-hws the transfer proxy stops last */
	REQUIRE(rte_eth_dev_stop(n.port[1]) == 0 && rte_eth_dev_stop(p0) == 0, "stop");
	{
		/* mlx5-hws: all flow queues of one size (F11) */
		const struct rte_flow_port_attr pa = { .nb_counters = 1 };
		const struct rte_flow_queue_attr q8 = { .size = 8 }, q16 = { .size = 16 };
		const struct rte_flow_queue_attr *qs[] = { &q8, &q16 };

		ret = rte_flow_configure(p0, &pa, 2, qs, &err);
		CHECK(hws ? ret == -EINVAL && strstr(err.message,
			"All flow queues must have the same size") != NULL : ret == 0,
			"queues of 8 and 16: %d", ret);
	}
	REQUIRE(flow_configure(p0, 2, 8, &err) == 0, "configure: %s",
		err.message ? err.message : "");
	REQUIRE(flow_configure(n.port[1], 1, 8, &err) == 0, "configure PF1");
	CHECK(flow_configure(p0, 2, 8, &err) == 0, "same configure again refused");
	ret = flow_configure(p0, 3, 8, &err);
	if (hws && OCTO_DPDK_MLX5_MODEL >= 2511)
		CHECK(ret == -ENOTSUP && err.message != NULL &&
			strstr(err.message, "Changing HWS configuration") != NULL,
			"mlx5-hws: another configuration: %d (%s)", ret,
			err.message ? err.message : "");
	else	/* generic, and 22.11's mlx5, which releases the first */
		CHECK(ret == 0 && flow_configure(p0, 2, 8, &err) == 0,
			"reconfiguring without tables: %d", ret);
	if (hws) {
		/* SET_META: not in hardware steering's template API (F2) */
		static const struct rte_flow_action_set_meta sm = { .data = 1,
			.mask = 1 };
		const struct rte_flow_actions_template_attr aa = { .transfer = 1 };
		const struct rte_flow_action sacts[] = {
			{ .type = RTE_FLOW_ACTION_TYPE_SET_META, .conf = &sm },
			{ .type = RTE_FLOW_ACTION_TYPE_JUMP },
			{ .type = RTE_FLOW_ACTION_TYPE_END },
		};

		CHECK(rte_flow_actions_template_create(p0, &aa, sacts, sacts,
			&err) == NULL && rte_errno == ENOTSUP && strstr(err.message,
			"mlx5-hws: action not supported in template API: SET_META") != NULL,
			"SET_META actions template: %s", err.message);
	}

	/* templates: transfer only on the proxy; tables: in-use templates */
	CHECK(pattern_template(n.port[1], 1, &err) == NULL &&
		rte_errno == EINVAL, "transfer template on PF1 accepted");
	pt_t = pattern_template(p0, 1, &err);
	CHECK(pt_t != NULL, "transfer template on PF0: %s",
		err.message ? err.message : "");
	t.pt = pattern_template(p0, 0, &err);
	t.at = actions_template(p0, &err);
	REQUIRE(t.pt != NULL && t.at != NULL, "templates: %s",
		err.message ? err.message : "");
	t.tbl = table(p0, &t, 0, 4, &err);
	REQUIRE(t.tbl != NULL, "table: %s", err.message ? err.message : "");
	CHECK(rte_flow_pattern_template_destroy(p0, t.pt, &err) == -EBUSY,
		"pattern template in use destroyed");
	CHECK(rte_flow_actions_template_destroy(p0, t.at, &err) == -EBUSY,
		"actions template in use destroyed");
	CHECK(rte_flow_pattern_template_destroy(p0, pt_t, &err) == 0,
		"unused template not destroyed");
	REQUIRE(rte_eth_dev_start(p0) == 0 && rte_eth_dev_start(n.port[1]) == 0,
		"start");

	/* queues: generic has 2, mlx5-hws 2 plus its control queue 2 */
	rule_fill(&r, 1, 3);
	extra = rte_flow_async_create(p0, 3, &now, t.tbl, r.items, 0, r.acts, 0,
		NULL, &err);
	CHECK(extra == NULL && rte_errno == EINVAL, "queue 3 of 2 accepted");
	extra = rte_flow_async_create(p0, 2, &later, t.tbl, r.items, 0, r.acts, 0,
		NULL, &err);
	CHECK(hws ? extra != NULL : extra == NULL,
		"%s: queue 2 (nb_queue) %s", hws ? "mlx5-hws" : "generic",
		extra != NULL ? "accepted" : "refused");
	if (extra != NULL) {
		CHECK(rte_flow_async_destroy(p0, 2, &later, extra, NULL, &err) == 0,
			"destroy on the control queue");
		CHECK(rte_flow_push(p0, 2, &err) == 0 && pull_all(p0, 2, res, 2) == 2,
			"control queue completions");
	}

	/* 4 creates (table of 4), a 5th refused; 4 destroys fill the queue
	 * of 8, a 9th op refused; one completion each, in order */
	for (i = 0; i < 4; i++) {
		rule_fill(&r, 1000 + i, 1);
		f[i] = rte_flow_async_create(p0, 0, &later, t.tbl, r.items, 0,
			r.acts, 0, (void *)(uintptr_t)(i + 1), &err);
		CHECK(f[i] != NULL, "async create %d: %s", i,
			err.message ? err.message : "");
	}
	rule_fill(&r, 2000, 1);
	extra = rte_flow_async_create(p0, 1, &later, t.tbl, r.items, 0, r.acts, 0,
		NULL, &err);
	CHECK(extra == NULL && rte_errno == ENOMEM, "table full: create accepted");
	for (i = 0; i < 4; i++)
		CHECK(rte_flow_async_destroy(p0, 0, &later, f[i],
			(void *)(uintptr_t)(i + 11), &err) == 0, "async destroy %d", i);
	CHECK(rte_flow_async_destroy(p0, 0, &later, f[0], NULL, &err) == -EBUSY,
		"queue full: a 9th operation accepted");
	CHECK(rte_flow_push(p0, 0, &err) == 0, "push");
	ret = rte_flow_pull(p0, 0, res, RTE_DIM(res), &err);
	CHECK(ret == 8, "pull: %d completions, want 8", ret);
	for (i = 0; i < ret && i < 8; i++)
		CHECK(res[i].status == RTE_FLOW_OP_SUCCESS &&
			(uintptr_t)res[i].user_data == (uintptr_t)(i < 4 ? i + 1 : i + 7),
			"completion %d: status %d user_data %p", i, res[i].status,
			res[i].user_data);
	CHECK(rte_flow_pull(p0, 0, res, RTE_DIM(res), &err) == 0,
		"a second pull returned completions");

	/* traffic: the template rule as rte_flow_create's same rule */
	dport = gen_dport(&n);
	REQUIRE(dport != 0, "no generated frame seen");
	rule_fill(&r, dport, 3);
	f[0] = rte_flow_async_create(p0, 1, &now, t.tbl, r.items, 0, r.acts, 0,
		NULL, &err);
	REQUIRE(f[0] != NULL, "async create: %s", err.message ? err.message : "");
	expect_on(&n, "template rule, not pulled", 3, 1);
	CHECK(pull_all(p0, 1, res, 1) == 1 && res[0].status == RTE_FLOW_OP_SUCCESS,
		"completion of the steering rule");
	CHECK(rte_flow_destroy(p0, f[0], &err) != 0,
		"rte_flow_destroy took a template rule");
	CHECK(rte_flow_flush(p0, &err) == 0, "flush");
	if (hws) {
		/* mlx5's hardware steering flushes template rules too */
		expect_unsteered(&n, "template rule after flush");
		CHECK(rte_flow_async_destroy(p0, 1, &now, f[0], NULL, &err) == -EINVAL,
			"destroy of a flushed template rule accepted");
	} else {
		expect_on(&n, "template rule after flush", 3, 1);
		CHECK(rte_flow_async_destroy(p0, 1, &now, f[0], NULL, &err) == 0 &&
			rte_flow_push(p0, 1, &err) == 0 && pull_all(p0, 1, res, 1) == 1,
			"destroy the steering rule");
	}
	sync_rule = rte_flow_create(p0, &(struct rte_flow_attr){ .ingress = 1 },
		r.items, r.acts, &err);
	REQUIRE(sync_rule != NULL, "sync rule: %s", err.message ? err.message : "");
	expect_on(&n, "the same rule by rte_flow_create", 3, 1);
	CHECK(rte_flow_destroy(p0, sync_rule, &err) == 0, "sync destroy");

	/* side by side: a sync rule at priority 1 to queue 2, the template
	 * rule at priority 0 to queue 3 wins until destroyed */
	rule_fill(&rs, dport, 2);
	rs.acts[0].type = RTE_FLOW_ACTION_TYPE_VOID;
	sync_rule = rte_flow_create(p0, &sattr, rs.items, rs.acts, &err);
	REQUIRE(sync_rule != NULL, "sync rule: %s", err.message ? err.message : "");
	f[0] = rte_flow_async_create(p0, 0, &later, t.tbl, r.items, 0, r.acts, 0,
		NULL, &err);
	CHECK(f[0] != NULL && rte_flow_push(p0, 0, &err) == 0 &&
		pull_all(p0, 0, res, 1) == 1, "template rule beside a sync rule");
	expect_on(&n, "template rule (prio 0) over a sync rule (prio 1)", 3, 1);
	CHECK(rte_flow_template_table_destroy(p0, t.tbl, &err) == -EBUSY,
		"a table with a rule destroyed");
	CHECK(rte_flow_async_destroy(p0, 0, &now, f[0], NULL, &err) == 0 &&
		pull_all(p0, 0, res, 1) == 1, "destroy the template rule");
	expect_on(&n, "the sync rule after the template rule went", 2, 0);
	CHECK(rte_flow_destroy(p0, sync_rule, &err) == 0, "sync destroy");

#if OCTO_DPDK_HAS_FLOW_ACTIONS_UPDATE
	/* actions update: the rule moves to queue 0, then 2, keeping its
	 * constant MARK; its completions as any other */
	f[0] = rte_flow_async_create(p0, 0, &now, t.tbl, r.items, 0, r.acts, 0,
		NULL, &err);
	REQUIRE(f[0] != NULL, "async create: %s", err.message ? err.message : "");
	rule_fill(&rs, dport, 0);
	CHECK(rte_flow_async_actions_update(p0, 0, &now, f[0], rs.acts, 0,
		(void *)(uintptr_t)21, &err) == 0, "actions update: %s",
		err.message ? err.message : "");
	expect_on(&n, "after an actions update to queue 0", 0, 1);
	rule_fill(&rs, dport, 2);
	CHECK(rte_flow_async_actions_update(p0, 0, &later, f[0], rs.acts, 0,
		(void *)(uintptr_t)22, &err) == 0 && rte_flow_push(p0, 0, &err) == 0,
		"second actions update");
	expect_on(&n, "after a second update to queue 2", 2, 1);
	CHECK(rte_flow_async_destroy(p0, 0, &now, f[0], (void *)(uintptr_t)23,
		&err) == 0, "destroy the updated rule");
	ret = pull_all(p0, 0, res, 4);
	CHECK(ret == 4 && res[1].user_data == (void *)(uintptr_t)21 &&
		res[2].user_data == (void *)(uintptr_t)22 &&
		res[3].user_data == (void *)(uintptr_t)23 &&
		res[3].status == RTE_FLOW_OP_SUCCESS,
		"update completions: %d", ret);
	{
		struct counts c;

		traffic(&n, &c);
		CHECK(c.total == FRAMES && c.marked == 0,
			"the updated rule destroyed: %" PRIu64 " frames, %" PRIu64 " marked",
			c.total, c.marked);
	}
#endif

	/* a port's stop (F7): under mlx5-hws the template rules go (their
	 * table stays), completions not pulled with them; generic keeps
	 * them */
	f[0] = rte_flow_async_create(p0, 0, &now, t.tbl, r.items, 0, r.acts, 0,
		NULL, &err);
	REQUIRE(f[0] != NULL && pull_all(p0, 0, res, 1) == 1, "rule before stop");
	f[1] = rte_flow_async_create(p0, 1, &later, t.tbl, r.items, 0, r.acts, 0,
		NULL, &err);
	CHECK(f[1] != NULL, "postponed create before stop");
	REQUIRE(rte_eth_dev_stop(n.port[1]) == 0 && rte_eth_dev_stop(p0) == 0 &&
		rte_eth_dev_start(p0) == 0 && rte_eth_dev_start(n.port[1]) == 0,
		"restart");
	if (hws) {
		CHECK(rte_flow_pull(p0, 1, res, RTE_DIM(res), &err) == 0,
			"a completion from before the stop");
		expect_unsteered(&n, "template rules after a restart");
		CHECK(rte_flow_async_destroy(p0, 0, &now, f[0], NULL, &err) == -EINVAL,
			"destroy of a template rule the stop flushed accepted");
		f[0] = rte_flow_async_create(p0, 0, &now, t.tbl, r.items, 0, r.acts,
			0, NULL, &err);
		CHECK(f[0] != NULL && pull_all(p0, 0, res, 1) == 1,
			"the table takes rules after the restart");
	} else {
		expect_on(&n, "template rule after a restart", 3, 1);
		CHECK(rte_flow_push(p0, 1, &err) == 0 && pull_all(p0, 1, res, 1) == 1,
			"the postponed create completes");
	}
	CHECK(rte_flow_async_destroy(p0, 0, &now, f[0], NULL, &err) == 0 &&
		pull_all(p0, 0, res, 1) == 1, "destroy after the restart");
	if (!hws)
		CHECK(rte_flow_async_destroy(p0, 1, &now, f[1], NULL, &err) == 0 &&
			pull_all(p0, 1, res, 1) == 1, "destroy the postponed one");

	/* a rule left in the table, updated once: freed at close
	 * (LeakSanitizer) */
	f[0] = rte_flow_async_create(p0, 0, &later, t.tbl, r.items, 0, r.acts, 0,
		NULL, &err);
	CHECK(f[0] != NULL, "a rule left for close");
#if OCTO_DPDK_HAS_FLOW_ACTIONS_UPDATE
	CHECK(rte_flow_async_actions_update(p0, 0, &now, f[0], rs.acts, 0,
		NULL, &err) == 0, "update of the rule left for close");
#endif
	nic_close(&n);
}

static void
test_generic(struct rte_mempool *unused __rte_unused)
{
	api_case(0);
}

static void
test_mlx5_hws(struct rte_mempool *unused __rte_unused)
{
	api_case(1);
}

/*
 * DPDK 25.11's flow_filtering in its template mode: one flow queue
 * configured, the rule inserted on queue 1 without postpone, no push, no
 * pull; under mlx5-hws the rule steers.
 */
static void
test_flow_filtering(struct rte_mempool *unused __rte_unused)
{
	struct rte_flow_op_attr op = { .postpone = 0 };
	struct rte_flow_error err;
	struct tmpl t = { 0 };
	struct rte_flow *f;
	struct nic n;
	struct rule r;
	uint16_t p0;

	REQUIRE(nic_open(&n, "net_octonic_ff",
		"pfs=2,flows=16,gen_rate=200000,dialect=mlx5-hws") == 0, "nic open");
	p0 = n.port[0];
	/* PF1 first (the transfer proxy stops last), and left stopped */
	REQUIRE(rte_eth_dev_stop(n.port[1]) == 0 && rte_eth_dev_stop(p0) == 0,
		"stop");
	REQUIRE(flow_configure(p0, 1, 256, &err) == 0, "configure");
	REQUIRE(rte_eth_dev_start(p0) == 0, "start");
	t.pt = pattern_template(p0, 0, &err);
	t.at = actions_template(p0, &err);
	REQUIRE(t.pt != NULL && t.at != NULL, "templates");
	t.tbl = table(p0, &t, 0, 1, &err);
	REQUIRE(t.tbl != NULL, "table: %s", err.message ? err.message : "");
	rule_fill(&r, gen_dport(&n), 1);
	f = rte_flow_async_create(p0, 1, &op, t.tbl, r.items, 0, r.acts, 0, NULL,
		&err);
	CHECK(f != NULL, "create on queue 1 (nb_queue): %s",
		err.message ? err.message : "");
	expect_on(&n, "flow_filtering's rule, never pulled", 1, 1);
	nic_close(&n);
}

/*
 * The model's own insertion rates on a bare PF: BENCH_RULES rules of one
 * table (eth / ipv4(dst) / udp(dst) -> QUEUE), async in bursts of 32 with
 * a push per burst, then the same rules by rte_flow_create.
 */
#define BENCH_RULES 100000

static double
mrate(uint64_t n, uint64_t cycles)
{
	return cycles == 0 ? 0 : (double)n * rte_get_tsc_hz() / cycles / 1e6;
}

/* This thread's CPU time (the machine may be shared: wall time then
 * counts other processes' turns too). */
static double
cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The grace periods (waits for the NIC engine) since the last call. */
static void
grace_print(uint16_t port, const char *phase)
{
	static struct rte_pmd_octonic_flow_stats last;
	struct rte_pmd_octonic_flow_stats st;

	if (rte_pmd_octonic_flow_stats_get(port, &st) != 0)
		return;
	printf("bench: %-13s %8" PRIu64 " grace periods, %8.3f ms waiting in them, %" PRIu64 " slept\n",
		phase, st.grace_periods - last.grace_periods,
		(st.grace_wait_ns - last.grace_wait_ns) / 1e6,
		st.grace_sleeps - last.grace_sleeps);
	last = st;
}

static void
test_bench(struct rte_mempool *unused __rte_unused)
{
	static const struct rte_flow_item_ipv4 ip_mask = {
		.hdr.dst_addr = RTE_BE32(0xffffffff),
	};
	const struct rte_flow_pattern_template_attr pattr = { .ingress = 1 };
	const struct rte_flow_item titems[] = OCTO_ITEMS_UDP_MASK(&ip_mask, &udp_dst_mask);
	const struct rte_flow_actions_template_attr aattr = { .ingress = 1 };
	const struct rte_flow_action tacts[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_op_attr later = { .postpone = 1 };
	struct rte_flow_op_result res[BURST];
	struct rte_flow_error err;
	struct rte_flow_item_ipv4 ip = { 0 };
	struct rte_flow_item_udp udp = { 0 };
	struct rte_flow_action_queue queue = { .index = 1 };
	struct rte_flow_item items[] = OCTO_ITEMS_UDP_MATCH(&ip, &ip_mask, &udp, &udp_dst_mask);
	struct rte_flow_action acts[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &queue },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow **f = calloc(BENCH_RULES, sizeof(*f));
	struct tmpl t = { 0 };
	uint64_t t0, c_ains, c_adel, c_sins, c_sdel;
	double u0, u[4];
	uint32_t i, j, done;
	struct nic n;
	uint16_t p0;

	REQUIRE(f != NULL, "memory");
	REQUIRE(nic_open(&n, "net_octonic_bench", "pfs=2") == 0,
		"nic open");
	p0 = n.port[0];
	REQUIRE(rte_eth_dev_stop(p0) == 0 && flow_configure(p0, 1, 64, &err) == 0 &&
		rte_eth_dev_start(p0) == 0, "configure");
	t.pt = rte_flow_pattern_template_create(p0, &pattr, titems, &err);
	t.at = rte_flow_actions_template_create(p0, &aattr, tacts, tacts, &err);
	REQUIRE(t.pt != NULL && t.at != NULL, "templates");
	t.tbl = table(p0, &t, 0, BENCH_RULES, &err);
	REQUIRE(t.tbl != NULL, "table");
	grace_print(p0, "setup");

	t0 = rte_rdtsc();
	u0 = cpu_s();
	for (i = 0, done = 0; i < BENCH_RULES; i += BURST) {
		for (j = i; j < i + BURST && j < BENCH_RULES; j++) {
			ip.hdr.dst_addr = rte_cpu_to_be_32(0x0a000000 + (j >> 4));
			udp.hdr.dst_port = rte_cpu_to_be_16(j & 15);
			f[j] = rte_flow_async_create(p0, 0, &later, t.tbl, items, 0,
				acts, 0, NULL, &err);
			REQUIRE(f[j] != NULL, "async create %u: %s", j, err.message);
		}
		rte_flow_push(p0, 0, &err);
		done += rte_flow_pull(p0, 0, res, BURST, &err);
	}
	c_ains = rte_rdtsc() - t0;
	u[0] = cpu_s() - u0;
	grace_print(p0, "async insert");
	CHECK(done == BENCH_RULES, "%u completions of %u", done, BENCH_RULES);
	t0 = rte_rdtsc();
	u0 = cpu_s();
	for (i = 0, done = 0; i < BENCH_RULES; i += BURST) {
		for (j = i; j < i + BURST && j < BENCH_RULES; j++)
			rte_flow_async_destroy(p0, 0, &later, f[j], NULL, &err);
		rte_flow_push(p0, 0, &err);
		done += rte_flow_pull(p0, 0, res, BURST, &err);
	}
	c_adel = rte_rdtsc() - t0;
	u[1] = cpu_s() - u0;
	grace_print(p0, "async delete");
	CHECK(done == BENCH_RULES, "%u destroy completions of %u", done,
		BENCH_RULES);

	t0 = rte_rdtsc();
	u0 = cpu_s();
	for (j = 0; j < BENCH_RULES; j++) {
		ip.hdr.dst_addr = rte_cpu_to_be_32(0x0a000000 + (j >> 4));
		udp.hdr.dst_port = rte_cpu_to_be_16(j & 15);
		f[j] = rte_flow_create(p0, &(struct rte_flow_attr){ .ingress = 1 },
			items, acts, &err);
		REQUIRE(f[j] != NULL, "create %u: %s", j, err.message);
	}
	c_sins = rte_rdtsc() - t0;
	u[2] = cpu_s() - u0;
	grace_print(p0, "sync insert");
	t0 = rte_rdtsc();
	u0 = cpu_s();
	for (j = 0; j < BENCH_RULES; j++)
		rte_flow_destroy(p0, f[j], &err);
	c_sdel = rte_rdtsc() - t0;
	u[3] = cpu_s() - u0;
	grace_print(p0, "sync delete");

	printf("bench: %u rules, one table, net_octonic PF0 (bare), bursts of %u, push+pull per burst\n",
		BENCH_RULES, BURST);
	printf("bench: async insert %.3f Mrules/s, async delete %.3f Mrules/s\n",
		mrate(BENCH_RULES, c_ains), mrate(BENCH_RULES, c_adel));
	printf("bench: sync  insert %.3f Mrules/s, sync  delete %.3f Mrules/s\n",
		mrate(BENCH_RULES, c_sins), mrate(BENCH_RULES, c_sdel));
	printf("bench: on this thread's CPU time: async insert %.3f, delete %.3f; sync insert %.3f, delete %.3f Mrules/s\n",
		BENCH_RULES / u[0] / 1e6, BENCH_RULES / u[1] / 1e6,
		BENCH_RULES / u[2] / 1e6, BENCH_RULES / u[3] / 1e6);
	printf("bench: async/sync insert %.1fx (wall), %.1fx (CPU)\n",
		c_ains == 0 ? 0 : (double)c_sins / c_ains, u[2] / u[0]);
	printf("bench: reproduce: meson test -C <build> --benchmark octonic-template-rate -v\n");
	free(f);
	nic_close(&n);
}

/*
 * Two threads, each on its own flow queue of PF0, insert then destroy
 * CONC_RULES rules each in one table, in bursts with a push and a pull:
 * every operation completes once, successfully, and the e-switch ends
 * with no rule.
 */
#define CONC_RULES 20000

struct conc_arg {
	uint16_t port;
	uint32_t queue;
	struct rte_flow_template_table *tbl;
	uint32_t ok, failed;
};

static void *
conc_thread(void *p)
{
	struct conc_arg *a = p;
	struct rte_flow_op_attr later = { .postpone = 1 };
	struct rte_flow_op_result res[BURST];
	struct rte_flow_error err;
	struct rte_flow **f = calloc(CONC_RULES, sizeof(*f));
	struct rule r;
	uint32_t i, j;
	int k, n;

	if (f == NULL)
		return NULL;
	for (k = 0; k < 2; k++) {
		for (i = 0; i < CONC_RULES; i += BURST) {
			for (j = i; j < i + BURST && j < CONC_RULES; j++) {
				if (k == 0) {
					rule_fill(&r, a->queue * CONC_RULES + j + 1, 1);
					f[j] = rte_flow_async_create(a->port, a->queue,
						&later, a->tbl, r.items, 0, r.acts, 0,
						(void *)(uintptr_t)j, &err);
					if (f[j] == NULL)
						a->failed++;
				} else if (f[j] != NULL &&
						rte_flow_async_destroy(a->port, a->queue,
						&later, f[j], NULL, &err) != 0) {
					a->failed++;
				}
			}
			rte_flow_push(a->port, a->queue, &err);
			do {
				n = rte_flow_pull(a->port, a->queue, res, BURST, &err);
				for (j = 0; j < (uint32_t)RTE_MAX(n, 0); j++) {
					if (res[j].status == RTE_FLOW_OP_SUCCESS)
						a->ok++;
					else
						a->failed++;
				}
			} while (n > 0);
		}
	}
	free(f);
	return NULL;
}

static void
test_concurrent(struct rte_mempool *unused __rte_unused)
{
	struct rte_pmd_octonic_flow_stats st;
	struct conc_arg a[2];
	struct rte_flow_error err;
	struct tmpl t = { 0 };
	pthread_t th[2];
	struct nic n;
	uint16_t p0;
	int i;

	REQUIRE(nic_open(&n, "net_octonic_conc", "pfs=2,flows=16,gen_rate=200000") == 0,
		"nic open");
	p0 = n.port[0];
	REQUIRE(rte_eth_dev_stop(p0) == 0 && flow_configure(p0, 2, 64, &err) == 0 &&
		rte_eth_dev_start(p0) == 0, "configure");
	t.pt = pattern_template(p0, 0, &err);
	t.at = actions_template(p0, &err);
	REQUIRE(t.pt != NULL && t.at != NULL, "templates");
	t.tbl = table(p0, &t, 0, 2 * CONC_RULES, &err);
	REQUIRE(t.tbl != NULL, "table");
	for (i = 0; i < 2; i++) {
		a[i] = (struct conc_arg){ .port = p0, .queue = i, .tbl = t.tbl };
		REQUIRE(pthread_create(&th[i], NULL, conc_thread, &a[i]) == 0,
			"thread");
	}
	/* the wire keeps the engine classifying meanwhile */
	for (i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	for (i = 0; i < 2; i++)
		CHECK(a[i].ok == 2 * CONC_RULES && a[i].failed == 0,
			"queue %d: %u operations completed, %u failed, want %u", i,
			a[i].ok, a[i].failed, 2 * CONC_RULES);
	CHECK(rte_pmd_octonic_flow_stats_get(p0, &st) == 0 &&
		st.ingress_rules == 0, "%u rules left", st.ingress_rules);
	CHECK(rte_flow_template_table_destroy(p0, t.tbl, &err) == 0 &&
		rte_flow_pattern_template_destroy(p0, t.pt, &err) == 0 &&
		rte_flow_actions_template_destroy(p0, t.at, &err) == 0,
		"table and templates destroyed");
	nic_close(&n);
}

static const struct octo_case tests[] = {
	{ "generic", test_generic },
	{ "mlx5_hws", test_mlx5_hws },
	{ "flow_filtering", test_flow_filtering },
	{ "concurrent", test_concurrent },
	{ "bench", test_bench },
};

NIC_TEST_MAIN(tests)
