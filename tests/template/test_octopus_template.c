/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * rte_flow's template and asynchronous API on net_octopus over net_octonic
 * PFs on 2 (emulated) sockets; lcore q polls virtual queue q (lcores 0,2 on
 * socket 0, 1,3 on socket 1) and counts every packet by queue and
 * generator flow. Run under tools/octopus-numa-emu.
 *
 *   queue     info_get's limits; templates and a table on the port; two
 *       rules made on two flow queues (the queue per rule, and fixed by the
 *       template), pushed, pulled: one completion each, with the
 *       application's user_data; their flows reach their queues, DMA-written
 *       on the poller's socket; a synchronous rule beside them; destroyed,
 *       the e-switch holds what it held before.
 *   filtering what DPDK 25.11's flow_filtering example does: one flow
 *       queue configured, the rule made on flow queue 1 (postpone 0) and
 *       never pushed or pulled: its flow reaches its queue.
 *   bad       refusals, each with its rte_flow_error message: configure
 *       while started, a second configure with other settings, transfer
 *       templates, RSS in a template, an unknown item, a table in the
 *       steering's groups, a flow queue out of range, a queue index out of
 *       range in a rule; a synchronous rule's handle, or one that is no
 *       rule's, given to the asynchronous destroy (testpmd does so) and
 *       update; nothing left on the e-switch.
 *   full      the e-switch full (rte_pmd_octonic_flow_room_set) while three
 *       rules are in flight: two complete, the third gets an error
 *       completion (or is refused at once), nothing of it left: the table's
 *       records are all back once the two are destroyed.
 *   migrate   the queue of a template rule moves to the other socket: the
 *       rule's flow still reaches it, now through the other member.
 *   failover  PF1 (the home of the rule's queue) unplugged and plugged back:
 *       the rule's flow keeps reaching its queue, and the rule is destroyed
 *       through its flow queue afterwards.
 *   proxy_released  PF0, the transfer proxy, unplugged and closed: every
 *       template op answers ENODEV saying why; the port stops and closes.
 *   update    (DPDK 23.03 and later) rte_flow_async_actions_update moves a
 *       rule's flow to another queue; where the members' e-switch refuses
 *       updates, the refusal reaches the application with the rule
 *       unchanged, and the case says it was skipped (exit 77).
 *   sws       (under mlx5-sws: software steering, where mlx5 has no
 *       template API) rte_flow_info_get and rte_flow_configure on the port
 *       are refused, ENOTSUP, with the member's reason; a template op after
 *       them is refused; a synchronous rule still steers its flow.
 *   restart   template rules (one made while the port is stopped, one
 *       whose queue the template fixes) and a synchronous rule through ten
 *       stops and starts: after each start every rule's flow reaches its
 *       queue and every packet arrives; a rule made, destroyed and (DPDK
 *       23.03 and later) updated while stopped completes at once and
 *       counts from the next start. Where the members keep no rules across
 *       their stop (no FLOW_RULE_KEEP), the e-switch holds none of the
 *       port's while it is stopped.
 */

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_flow.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#include <octopus_dpdk_compat.h>

#include "rte_pmd_octonic.h"
#include "rte_pmd_octopus.h"

#include "../common/octo_cases.h"
#include "../common/octo_eal.h"
#include "../common/octo_flow_rule.h"
#include "../common/octo_poll.h"
#include "../common/octo_check.h"
#include "../common/octo_port.h"
#include "../common/octo_state.h"
#include "../common/octo_dialect.h"
#include "../common/octo_gen_flow.h"
#include "../common/octo_test_eal.h"

#define NB_Q 4
#define NB_DESC 4096
#define NB_FLOWS 64
#define PER_FLOW 16
#define PHASE_PKTS (NB_FLOWS * PER_FLOW)
#define FQ_SIZE 64			/* flow queue size */

static uint16_t port, pf[2];
/* where each flow's packets arrived, what the flows look like */
static struct octo_phase ph;
static_assert(NB_Q <= OCTO_PHASE_MAXQ && NB_FLOWS <= OCTO_PHASE_MAXFLOWS,
	"octo_phase holds the counts");
static int skipped;	/* the case could not run in full: exit 77 (meson: skipped) */

/* PER_FLOW packets of every flow, counted where they arrive. */
static void
run_phase(void)
{
	CHECK(octo_phase_run(&ph, PHASE_PKTS, PHASE_PKTS) == 0, "generator: gen_get, gen_set");
	CHECK(ph.received == PHASE_PKTS, "received %" PRIu64 " of %u", ph.received, PHASE_PKTS);
}

/* The queue every packet of flow f reached, -1: none or several. */
static int
flow_queue(int f)
{
	return octo_phase_flow_queue(&ph, f);
}

/* Packets DMA-written into another socket's memory by the members' Rx queues. */
static uint64_t
remote_dma(void)
{
	struct rte_pmd_octonic_locality loc;
	uint64_t n = 0;
	uint16_t q;
	int i;

	for (i = 0; i < 2; i++)
		for (q = 0; q < NB_Q; q++)
			if (rte_pmd_octonic_locality_get(pf[i], q, 0, &loc) == 0)
				n += loc.remote_dma_pkts;
	return n;
}

/* Every rule of the e-switch, all domains (what its room counts). */
static uint32_t
all_rules(void)
{
	struct rte_pmd_octonic_flow_stats fs0, fs1;

	memset(&fs0, 0, sizeof(fs0));
	memset(&fs1, 0, sizeof(fs1));
	CHECK(rte_pmd_octonic_flow_stats_get(pf[0], &fs0) == 0 &&
		rte_pmd_octonic_flow_stats_get(pf[1], &fs1) == 0, "flow stats");
	return fs0.transfer_rules + fs0.ingress_rules + fs1.ingress_rules;
}

static uint32_t
transfer_rules(void)
{
	struct rte_pmd_octonic_flow_stats fs;

	memset(&fs, 0, sizeof(fs));
	CHECK(rte_pmd_octonic_flow_stats_get(pf[0], &fs) == 0, "flow stats");
	return fs.transfer_rules;
}

/* Port set up and started (its Rx queues polled by lcore q, on its socket). */
static void
port_up(struct rte_mempool *mp)
{
	struct octo_port_conf c = {
		.nb_rxq = NB_Q, .nb_txq = NB_Q, .nb_desc = NB_DESC,
		.socket = OCTO_SOCKET_OF_LCORE, .pool = mp,
	};

	CHECK(octo_port_start(port, &c) == 0, "configure, set up and start the port");
}

/* rte_flow_configure with @p nb flow queues of FQ_SIZE, the port stopped. */
static int
flow_configure(uint16_t nb, struct rte_flow_error *err)
{
	struct rte_flow_port_attr pa = { .nb_counters = 0 };
	struct rte_flow_queue_attr qa = { .size = FQ_SIZE };
	const struct rte_flow_queue_attr *qas[8];
	uint16_t i;

	for (i = 0; i < RTE_DIM(qas); i++)
		qas[i] = &qa;
	return rte_flow_configure(port, &pa, nb, qas, err);
}

/* Pattern template eth / ipv4 (src) / udp (src): a generator flow's 5-tuple part. */
static struct rte_flow_pattern_template *
pattern_template(struct rte_flow_error *err)
{
	static struct rte_flow_item_ipv4 ip_mask = { .hdr.src_addr = RTE_BE32(0xffffffff) };
	static struct rte_flow_item_udp udp_mask = { .hdr.src_port = RTE_BE16(0xffff) };
	struct rte_flow_pattern_template_attr attr = { .relaxed_matching = 1, .ingress = 1 };
	struct rte_flow_item items[] = OCTO_ITEMS_UDP_MASK(&ip_mask, &udp_mask);

	return rte_flow_pattern_template_create(port, &attr, items, err);
}

/*
 * Actions template QUEUE: index per rule (@p fixed < 0) or fixed to @p fixed.
 * Per rule, the mask has a conf of index 0, as testpmd's "mask queue / end"
 * makes it (mlx5 fixes the index only under a non-zero mask).
 */
static struct rte_flow_actions_template *
queue_template(int fixed, struct rte_flow_error *err)
{
	struct rte_flow_actions_template_attr attr = { .ingress = 1 };
	struct rte_flow_action_queue q = { .index = fixed < 0 ? 0 : (uint16_t)fixed };
	struct rte_flow_action_queue qm = { .index = UINT16_MAX };
	struct rte_flow_action_queue any = { .index = 0 };
	struct rte_flow_action acts[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &q },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_action masks[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = fixed < 0 ? &any : &qm },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};

	return rte_flow_actions_template_create(port, &attr, acts, masks, err);
}

static struct rte_flow_template_table *
table_of(struct rte_flow_pattern_template *pt, struct rte_flow_actions_template **at,
		uint8_t nb_at, uint32_t nb_flows, struct rte_flow_error *err)
{
	struct rte_flow_template_table_attr attr = {
		.flow_attr = { .group = 0, .priority = 0, .ingress = 1 },
		.nb_flows = nb_flows,
	};

	return rte_flow_template_table_create(port, &attr, &pt, 1, at, nb_at, err);
}

/* A rule's pattern for flow f, and its QUEUE action (index @p q). */
struct rule_spec {
	struct rte_flow_item items[4];
	struct rte_flow_item_ipv4 ip;
	struct rte_flow_item_udp udp;
	struct rte_flow_action acts[2];
	struct rte_flow_action_queue queue;
};

static void
rule_spec(struct rule_spec *r, int f, uint16_t q)
{
	memset(r, 0, sizeof(*r));
	r->ip.hdr.src_addr = ph.flow_src[f];
	r->udp.hdr.src_port = ph.flow_sport[f];
	r->items[0].type = RTE_FLOW_ITEM_TYPE_ETH;
	r->items[1].type = RTE_FLOW_ITEM_TYPE_IPV4;
	r->items[1].spec = &r->ip;
	r->items[2].type = RTE_FLOW_ITEM_TYPE_UDP;
	r->items[2].spec = &r->udp;
	r->items[3].type = RTE_FLOW_ITEM_TYPE_END;
	r->queue.index = q;
	r->acts[0].type = RTE_FLOW_ACTION_TYPE_QUEUE;
	r->acts[0].conf = &r->queue;
	r->acts[1].type = RTE_FLOW_ACTION_TYPE_END;
}

static const char *
msg(const struct rte_flow_error *e)
{
	return e->message != NULL ? e->message : "(no message)";
}

/*
 * Pull flow queue @p fq until @p n completions came (or 1 s passed), into
 * @p res. @return how many.
 */
static int
pull_n(uint32_t fq, struct rte_flow_op_result *res, int n)
{
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz();
	struct rte_flow_error err;
	int got = 0, k;

	while (got < n && rte_get_timer_cycles() < end) {
		k = rte_flow_pull(port, fq, res + got, (uint16_t)(n - got), &err);
		if (k < 0) {
			CHECK(k >= 0, "pull: %s", msg(&err));
			break;
		}
		got += k;
		if (got < n)
			rte_flow_push(port, fq, &err);
	}
	return got;
}

/* Whether the next completion of flow queue @p fq is a success for @p user_data. */
static bool
completed(uint32_t fq, uintptr_t user_data)
{
	struct rte_flow_op_result res;

	return pull_n(fq, &res, 1) == 1 && res.status == RTE_FLOW_OP_SUCCESS &&
		res.user_data == (void *)user_data;
}

/*
 * The pattern and queue-per-rule actions templates into *@p pt and *@p at,
 * and a table of @p nb_flows rules of them; NULL, the failure CHECKed, if
 * one could not be made.
 */
static struct rte_flow_template_table *
rule_table(struct rte_flow_pattern_template **pt, struct rte_flow_actions_template **at,
		uint32_t nb_flows)
{
	struct rte_flow_template_table *tb;
	struct rte_flow_error err;

	*pt = pattern_template(&err);
	REQUIRE_OR(NULL, *pt != NULL, "pattern template: %s", msg(&err));
	*at = queue_template(-1, &err);
	REQUIRE_OR(NULL, *at != NULL, "actions template: %s", msg(&err));
	tb = table_of(*pt, at, 1, nb_flows, &err);
	CHECK(tb != NULL, "table: %s", msg(&err));
	return tb;
}

/* Table @p tb destroyed, CHECKed. */
static void
table_destroy(struct rte_flow_template_table *tb)
{
	struct rte_flow_error err;

	CHECK(rte_flow_template_table_destroy(port, tb, &err) == 0, "table destroy: %s",
		msg(&err));
}

/* Stopped, flow-configured with @p nb queues, started, flows learnt. */
static void
template_port(struct rte_mempool *mp, uint16_t nb)
{
	struct rte_flow_error err;

	port_up(mp);
	run_phase();	/* learn the flows' addresses */
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	CHECK(flow_configure(nb, &err) == 0, "flow configure: %s", msg(&err));
	CHECK(rte_eth_dev_start(port) == 0, "start");
}

static void
case_queue(struct rte_mempool *mp)
{
	struct rte_flow_op_attr now = { .postpone = 0 }, later = { .postpone = 1 };
	struct rte_flow_actions_template *at[2];
	struct rte_flow_pattern_template *pt;
	struct rte_flow_template_table *tb;
	struct rte_flow_port_info pi, mi;
	struct rte_flow_queue_info qi, mqi;
	struct rte_flow_op_result res[4];
	struct rule_spec a, b, c;
	struct rte_flow_item_ipv4 src_mask = { .hdr.src_addr = RTE_BE32(0xffffffff) };
	struct rte_flow_item_udp sport_mask = { .hdr.src_port = RTE_BE16(0xffff) };
	struct rte_flow_attr attr = { .ingress = 1 };
	struct rte_flow_error err;
	struct rte_flow *ra, *rb, *rc;
	struct rte_pmd_octopus_migration m2, m3;
	uint32_t base;
	uint64_t dma0;

	port_up(mp);
	run_phase();
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	memset(&pi, 0, sizeof(pi));
	memset(&mi, 0, sizeof(mi));
	CHECK(rte_flow_info_get(port, &pi, &qi, &err) == 0, "info_get: %s", msg(&err));
	CHECK(rte_flow_info_get(pf[0], &mi, &mqi, &err) == 0, "PF0 info_get: %s", msg(&err));
	/* one queue of the members' is the extra one at nb_queue */
	CHECK(pi.max_nb_queues + 1 == mi.max_nb_queues, "max_nb_queues %u, PF0's %u",
		pi.max_nb_queues, mi.max_nb_queues);
	CHECK(qi.max_size <= mqi.max_size && qi.max_size > 0, "max_size %u, PF0's %u",
		qi.max_size, mqi.max_size);
	printf("info_get: max_nb_queues %u (PF0 %u), queue max_size %u, counters %u\n",
		pi.max_nb_queues, mi.max_nb_queues, qi.max_size, pi.max_nb_counters);
	CHECK(flow_configure(2, &err) == 0, "flow configure: %s", msg(&err));
	/* the same settings again: taken, as mlx5 does */
	CHECK(flow_configure(2, &err) == 0, "second configure, same: %s", msg(&err));
	CHECK(rte_eth_dev_start(port) == 0, "start");
	base = transfer_rules();

	pt = pattern_template(&err);
	REQUIRE(pt != NULL, "pattern template: %s", msg(&err));
	at[0] = queue_template(-1, &err);
	REQUIRE(at[0] != NULL, "actions template (queue per rule): %s", msg(&err));
	at[1] = queue_template(3, &err);
	REQUIRE(at[1] != NULL, "actions template (queue 3): %s", msg(&err));
	tb = table_of(pt, at, 2, 64, &err);
	REQUIRE(tb != NULL, "table: %s", msg(&err));

	rule_spec(&a, 5, 2);
	rule_spec(&b, 9, 0);	/* the template fixes queue 3 */
	ra = rte_flow_async_create(port, 0, &later, tb, a.items, 0, a.acts, 0,
		(void *)(uintptr_t)0x1111, &err);
	CHECK(ra != NULL, "async create on flow queue 0: %s", msg(&err));
	rb = rte_flow_async_create(port, 1, &later, tb, b.items, 0, b.acts, 1,
		(void *)(uintptr_t)0x2222, &err);
	CHECK(rb != NULL, "async create on flow queue 1: %s", msg(&err));
	CHECK(rte_flow_push(port, 0, &err) == 0, "push 0: %s", msg(&err));
	CHECK(rte_flow_push(port, 1, &err) == 0, "push 1: %s", msg(&err));
	CHECK(completed(0, 0x1111), "completion of the create on 0");
	/* queues 2 and 3 were polled: a rule moving a flow there from its
	 * bucket's queue is gated (and its completion still comes once)
	 */
	rte_pmd_octopus_migration_get(port, 2, 0, &m2);
	rte_pmd_octopus_migration_get(port, 3, 0, &m3);
	printf("gates: queue 2 %" PRIu64 ", queue 3 %" PRIu64 "\n", m2.gates, m3.gates);
	CHECK(completed(1, 0x2222), "completion of the create on 1");
	CHECK(rte_flow_pull(port, 0, res, 4, &err) == 0, "no more completions");
	/* a synchronous rule beside them */
	rule_spec(&c, 12, 1);
	c.items[1].mask = &src_mask;
	c.items[2].mask = &sport_mask;
	rc = rte_flow_create(port, &attr, c.items, c.acts, &err);
	CHECK(rc != NULL, "synchronous create on a configured port: %s", msg(&err));
	CHECK(transfer_rules() == base + 3, "e-switch rules %u, expected %u", transfer_rules(),
		base + 3);

	dma0 = remote_dma();
	run_phase();
	CHECK(flow_queue(5) == 2, "flow 5 (template rule, queue per rule) at queue %d",
		flow_queue(5));
	CHECK(flow_queue(9) == 3, "flow 9 (template rule, queue fixed) at queue %d",
		flow_queue(9));
	CHECK(flow_queue(12) == 1, "flow 12 (synchronous rule) at queue %d", flow_queue(12));
	CHECK(remote_dma() == dma0, "remote DMA: %" PRIu64, remote_dma() - dma0);

	CHECK(rte_flow_async_destroy(port, 1, &now, ra, (void *)(uintptr_t)0x3333, &err) == 0,
		"async destroy: %s", msg(&err));
	CHECK(rte_flow_async_destroy(port, 1, &now, rb, (void *)(uintptr_t)0x4444, &err) == 0,
		"async destroy: %s", msg(&err));
	CHECK(pull_n(1, res, 2) == 2 && res[0].status == RTE_FLOW_OP_SUCCESS &&
		res[1].status == RTE_FLOW_OP_SUCCESS &&
		res[0].user_data == (void *)(uintptr_t)0x3333 &&
		res[1].user_data == (void *)(uintptr_t)0x4444, "completions of the destroys");
	CHECK(rte_flow_destroy(port, rc, &err) == 0, "destroy: %s", msg(&err));
	CHECK(transfer_rules() == base, "e-switch rules %u, expected %u", transfer_rules(), base);
	table_destroy(tb);
	CHECK(rte_flow_actions_template_destroy(port, at[0], &err) == 0, "at destroy: %s",
		msg(&err));
	CHECK(rte_flow_actions_template_destroy(port, at[1], &err) == 0, "at destroy: %s",
		msg(&err));
	CHECK(rte_flow_pattern_template_destroy(port, pt, &err) == 0, "pt destroy: %s",
		msg(&err));
	rte_eth_dev_stop(port);
}

/* DPDK 25.11's flow_filtering, template mode: queue 1 of 1, never pushed or pulled. */
static void
case_filtering(struct rte_mempool *mp)
{
	struct rte_flow_op_attr now = { .postpone = 0 };
	struct rte_flow_actions_template *at;
	struct rte_flow_pattern_template *pt;
	struct rte_flow_template_table *tb;
	struct rte_flow_error err;
	struct rule_spec a;
	struct rte_flow *r;

	template_port(mp, 1);
	/* flow_filtering's mask: the QUEUE type, no conf (the index per rule) */
	tb = rule_table(&pt, &at, 1);
	if (tb == NULL)
		return;
	rule_spec(&a, 7, 1);
	r = rte_flow_async_create(port, 1, &now, tb, a.items, 0, a.acts, 0, NULL, &err);
	CHECK(r != NULL, "async create on flow queue 1 of 1: %s", msg(&err));
	run_phase();
	CHECK(flow_queue(7) == 1, "flow 7 at queue %d", flow_queue(7));
	rte_eth_dev_stop(port);
}

static void
case_bad(struct rte_mempool *mp)
{
	struct rte_flow_op_attr now = { .postpone = 0 };
	struct rte_flow_pattern_template_attr pattr = { .transfer = 1 };
	struct rte_flow_actions_template_attr aattr = { .ingress = 1 };
	struct rte_flow_item eth_only[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH }, { .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_item gtp[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_GTP }, { .type = RTE_FLOW_ITEM_TYPE_END },
	};
	uint16_t rss_q[2] = { 0, 1 };
	struct rte_flow_action_rss rss = { .queue_num = 2, .queue = rss_q };
	struct rte_flow_action rss_acts[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_RSS, .conf = &rss },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_template_table_attr tattr = {
		.flow_attr = { .group = 64, .ingress = 1 }, .nb_flows = 8,
	};
	struct rte_flow_actions_template *at;
	struct rte_flow_pattern_template *pt;
	struct rte_flow_item_ipv4 src_only = { .hdr.src_addr = RTE_BE32(0xffffffff) };
	struct rte_flow_item_udp sport_only = { .hdr.src_port = RTE_BE16(0xffff) };
	struct rte_flow_attr sattr = { .ingress = 1 };
	struct rte_flow_template_table *tb;
	struct rte_flow_op_result res[4];
	struct rte_flow_error err;
	struct rte_flow *sync;
	struct rule_spec a;
	uint32_t base;

	port_up(mp);
	run_phase();
	memset(&err, 0, sizeof(err));
	CHECK(flow_configure(2, &err) != 0, "configure while started taken");
	printf("configure while started: %s\n", msg(&err));
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	CHECK(flow_configure(2, &err) == 0, "flow configure: %s", msg(&err));
	CHECK(flow_configure(3, &err) != 0 && strstr(msg(&err), "other settings") != NULL,
		"second configure with other settings: %s", msg(&err));
	CHECK(rte_eth_dev_start(port) == 0, "start");
	base = transfer_rules();

	CHECK(rte_flow_pattern_template_create(port, &pattr, eth_only, &err) == NULL &&
		strstr(msg(&err), "ingress only") != NULL, "transfer template: %s", msg(&err));
	pattr.transfer = 0;
	pattr.ingress = 1;
	CHECK(rte_flow_pattern_template_create(port, &pattr, gtp, &err) == NULL &&
		strstr(msg(&err), "not supported") != NULL, "GTP item: %s", msg(&err));
	CHECK(rte_flow_actions_template_create(port, &aattr, rss_acts, rss_acts, &err) == NULL &&
		strstr(msg(&err), "rss") != NULL, "RSS in a template: %s", msg(&err));
	pt = pattern_template(&err);
	REQUIRE(pt != NULL, "pattern template: %s", msg(&err));
	at = queue_template(-1, &err);
	REQUIRE(at != NULL, "actions template: %s", msg(&err));
	CHECK(rte_flow_template_table_create(port, &tattr, &pt, 1, &at, 1, &err) == NULL &&
		strstr(msg(&err), "groups 0..63") != NULL, "table in group 64: %s", msg(&err));
	tb = table_of(pt, &at, 1, 8, &err);
	REQUIRE(tb != NULL, "table: %s", msg(&err));
	rule_spec(&a, 3, 1);
	CHECK(rte_flow_async_create(port, 3, &now, tb, a.items, 0, a.acts, 0, NULL,
		&err) == NULL && strstr(msg(&err), "flow queue 3") != NULL,
		"flow queue 3 of 2 (+1): %s", msg(&err));
	a.queue.index = NB_Q;
	CHECK(rte_flow_async_create(port, 0, &now, tb, a.items, 0, a.acts, 0, NULL,
		&err) == NULL && strstr(msg(&err), "queue index") != NULL,
		"queue index %u: %s", NB_Q, msg(&err));
	CHECK(transfer_rules() == base, "e-switch rules %u, expected %u", transfer_rules(), base);
	/* a synchronous rule's handle (testpmd keeps both kinds in one list
	 * and gives either to `flow queue destroy`): refused, the rule stays
	 */
	rule_spec(&a, 4, 1);
	a.items[1].mask = &src_only;
	a.items[2].mask = &sport_only;
	sync = rte_flow_create(port, &sattr, a.items, a.acts, &err);
	REQUIRE(sync != NULL, "synchronous rule: %s", msg(&err));
	CHECK(rte_flow_async_destroy(port, 0, &now, sync, NULL, &err) == -EINVAL &&
		strstr(msg(&err), "rte_flow_create") != NULL,
		"asynchronous destroy of a synchronous rule: %s", msg(&err));
#if OCTO_DPDK_HAS_FLOW_ACTIONS_UPDATE
	CHECK(rte_flow_async_actions_update(port, 0, &now, sync, a.acts, 0, NULL,
		&err) == -EINVAL && strstr(msg(&err), "rte_flow_create") != NULL,
		"asynchronous update of a synchronous rule: %s", msg(&err));
#endif
	/* an address that is no record (misaligned) */
	CHECK(rte_flow_async_destroy(port, 0, &now, (struct rte_flow *)(uintptr_t)
		((uintptr_t)&a + 1), NULL, &err) == -EINVAL &&
		strstr(msg(&err), "not a template rule") != NULL,
		"asynchronous destroy of no rule: %s", msg(&err));
	CHECK(rte_flow_pull(port, 0, res, RTE_DIM(res), &err) == 0,
		"a refused operation makes no completion");
	CHECK(transfer_rules() == base + 1, "e-switch rules %u, expected %u", transfer_rules(),
		base + 1);
	CHECK(rte_flow_destroy(port, sync, &err) == 0, "synchronous destroy: %s", msg(&err));
	CHECK(transfer_rules() == base, "e-switch rules %u, expected %u", transfer_rules(), base);
	table_destroy(tb);
	rte_eth_dev_stop(port);
}

static void
case_full(struct rte_mempool *mp)
{
	struct rte_flow_op_attr later = { .postpone = 1 };
	struct rte_flow_actions_template *at;
	struct rte_flow_pattern_template *pt;
	struct rte_flow_template_table *tb;
	struct rte_flow_op_result res[4];
	struct rte_flow_error err;
	struct rule_spec s[3];
	struct rte_flow *r[3];
	int i, made = 0, ok = 0, failed = 0, got;
	uint32_t base;

	template_port(mp, 1);
	tb = rule_table(&pt, &at, 16);
	if (tb == NULL)
		return;
	base = transfer_rules();
	CHECK(rte_pmd_octonic_flow_room_set(pf[0], all_rules() + 2) == 0, "room");
	for (i = 0; i < 3; i++) {
		rule_spec(&s[i], 20 + i, 1);
		r[i] = rte_flow_async_create(port, 0, &later, tb, s[i].items, 0, s[i].acts, 0,
			(void *)(uintptr_t)(0x100 + i), &err);
		if (r[i] != NULL)
			made++;
		else
			printf("create %d refused at once: %s\n", i, msg(&err));
	}
	CHECK(rte_flow_push(port, 0, &err) == 0, "push: %s", msg(&err));
	got = pull_n(0, res, made);
	CHECK(got == made, "%d completions for %d operations", got, made);
	for (i = 0; i < got; i++) {
		CHECK(res[i].user_data == (void *)(uintptr_t)(0x100 + i),
			"completion %d: user_data %p", i, res[i].user_data);
		if (res[i].status == RTE_FLOW_OP_SUCCESS)
			ok++;
		else
			failed++;
	}
	printf("full: %d made, %d completed, %d with an error\n", made, ok, failed);
	CHECK(ok == 2 && made - ok == failed && failed + (3 - made) == 1,
		"two rules made, one refused (at once or by its completion)");
	CHECK(transfer_rules() == base + 2, "e-switch rules %u, expected %u", transfer_rules(),
		base + 2);
	/* the two that were made go; then the table has none (the refused one
	 * was undone: the table refuses to go while it holds a rule)
	 */
	for (i = 0; i < got; i++)
		if (res[i].status == RTE_FLOW_OP_SUCCESS)
			CHECK(rte_flow_async_destroy(port, 0, &later, r[i], NULL, &err) == 0,
				"destroy: %s", msg(&err));
	CHECK(pull_n(0, res, ok) == ok, "destroy completions");
	CHECK(transfer_rules() == base, "e-switch rules %u, expected %u", transfer_rules(), base);
	table_destroy(tb);
	rte_pmd_octonic_flow_room_set(pf[0], 0);
	rte_eth_dev_stop(port);
}

/* One template rule, flow @p f to queue @p q, made and completed. */
static struct rte_flow *
one_rule(int f, uint16_t q, struct rte_flow_template_table **tbp)
{
	struct rte_flow_op_attr now = { .postpone = 0 };
	struct rte_flow_actions_template *at;
	struct rte_flow_pattern_template *pt;
	struct rte_flow_op_result res;
	struct rte_flow_error err;
	struct rule_spec s;
	struct rte_flow *r;

	*tbp = rule_table(&pt, &at, 16);
	if (*tbp == NULL)
		return NULL;
	rule_spec(&s, f, q);
	r = rte_flow_async_create(port, 0, &now, *tbp, s.items, 0, s.acts, 0, NULL, &err);
	CHECK(r != NULL, "async create: %s", msg(&err));
	CHECK(pull_n(0, &res, 1) == 1 && res.status == RTE_FLOW_OP_SUCCESS, "its completion");
	return r;
}

/* The port up with one flow queue (template_port) and one_rule(@p f, @p q). */
static struct rte_flow *
port_one_rule(struct rte_mempool *mp, int f, uint16_t q, struct rte_flow_template_table **tbp)
{
	template_port(mp, 1);
	return one_rule(f, q, tbp);
}

static void
case_migrate(struct rte_mempool *mp)
{
	struct rte_pmd_octopus_migration st;
	struct rte_flow_template_table *tb;
	struct rte_flow *r;
	uint64_t m1, end;
	char name[64];

	template_port(mp, 1);
	CHECK(rte_pmd_octopus_migration_auto_set(port, 0) == 0, "manual migration");
	r = one_rule(11, 2, &tb);
	REQUIRE(r != NULL, "rule");
	run_phase();
	CHECK(flow_queue(11) == 2, "flow 11 at queue %d", flow_queue(11));
	snprintf(name, sizeof(name), "rx_q2_member1_packets");
	m1 = octo_xstat(port, name);
	CHECK(rte_pmd_octopus_queue_migrate(port, 2, 1) == 0, "move queue 2 to socket 1");
	end = rte_get_timer_cycles() + 2 * rte_get_timer_hz();
	do {
		rte_pmd_octopus_migration_get(port, 2, 0, &st);
	} while (st.migrations == 0 && rte_get_timer_cycles() < end);
	run_phase();
	CHECK(flow_queue(11) == 2, "after the move, flow 11 at queue %d", flow_queue(11));
	CHECK(octo_xstat(port, name) - m1 >= PER_FLOW,
		"queue 2 received %" PRIu64 " packets through member 1",
		octo_xstat(port, name) - m1);
	rte_eth_dev_stop(port);
}

static void
case_failover(struct rte_mempool *mp)
{
	struct rte_flow_op_attr now = { .postpone = 0 };
	struct rte_flow_template_table *tb;
	struct rte_flow_error err;
	struct rte_flow *r;

	/* queue 1 is homed on PF1 (lcore 1, socket 1) */
	r = port_one_rule(mp, 13, 1, &tb);
	REQUIRE(r != NULL, "rule");
	CHECK(rte_pmd_octonic_unplug(pf[1]) == 0, "unplug PF1");
	/* the port's own view of its member is what the phase depends on: the
	 * queue is re-homed by its poller, which runs only in the phase
	 */
	CHECK(octo_xstat_wait(port, "member1_in_service", 0, 2000),
		"PF1 still in service 2 s after its unplug");
	run_phase();
	CHECK(flow_queue(13) == 1, "PF1 out: flow 13 at queue %d", flow_queue(13));
	CHECK(rte_pmd_octonic_plug(pf[1]) == 0, "plug PF1");
	CHECK(octo_xstat_wait(port, "member1_in_service", 1, 2000),
		"PF1 not back in service 2 s after its plug");
	run_phase();
	CHECK(flow_queue(13) == 1, "PF1 back: flow 13 at queue %d", flow_queue(13));
	CHECK(rte_flow_async_destroy(port, 1, &now, r, (void *)(uintptr_t)7, &err) == 0,
		"destroy: %s", msg(&err));
	CHECK(completed(1, 7), "its completion");
	rte_eth_dev_stop(port);
}

static void
case_update(struct rte_mempool *mp)
{
#if OCTO_DPDK_HAS_FLOW_ACTIONS_UPDATE
	struct rte_flow_op_attr now = { .postpone = 0 };
	struct rte_flow_template_table *tb;
	struct rte_flow_error err;
	struct rule_spec s;
	struct rte_flow *r;
	int ret;

	r = port_one_rule(mp, 17, 2, &tb);
	REQUIRE(r != NULL, "rule");
	run_phase();
	CHECK(flow_queue(17) == 2, "flow 17 at queue %d", flow_queue(17));
	rule_spec(&s, 17, 3);
	ret = rte_flow_async_actions_update(port, 0, &now, r, s.acts, 0,
		(void *)(uintptr_t)9, &err);
	if (ret == -ENOTSUP) {
		/* the members' e-switch has none: refused, the rule as it was */
		printf("update: the e-switch refused it (%s)\n", msg(&err));
		run_phase();
		CHECK(flow_queue(17) == 2, "refused update: flow 17 at queue %d",
			flow_queue(17));
		skipped = octo_failures == 0;
		rte_eth_dev_stop(port);
		return;
	}
	CHECK(ret == 0, "update: %s", msg(&err));
	CHECK(completed(0, 9), "its completion");
	run_phase();
	CHECK(flow_queue(17) == 3, "updated: flow 17 at queue %d", flow_queue(17));
	rte_eth_dev_stop(port);
#else
	RTE_SET_USED(mp);
	printf("update: this DPDK has no rte_flow_async_actions_update\n");
	skipped = 1;
#endif
}


/* Whether the members (PF0) keep rules across their stop. */
static bool
members_keep_rules(void)
{
	struct rte_eth_dev_info info;

	return rte_eth_dev_info_get(pf[0], &info) == 0 &&
		(info.dev_capa & RTE_ETH_DEV_CAPA_FLOW_RULE_KEEP) != 0;
}

/* Rule for flow @p f to queue @p q (actions template @p at) on flow queue 0, completed. */
static struct rte_flow *
restart_rule(struct rte_flow_template_table *tb, int f, uint16_t q, uint8_t at)
{
	struct rte_flow_op_attr now = { .postpone = 0 };
	struct rte_flow_error err;
	struct rule_spec s;
	struct rte_flow *r;

	rule_spec(&s, f, q);
	memset(&err, 0, sizeof(err));
	r = rte_flow_async_create(port, 0, &now, tb, s.items, 0, s.acts, at,
		(void *)(uintptr_t)(0x100 + f), &err);
	CHECK(r != NULL, "rule for flow %d: %s", f, msg(&err));
	CHECK(completed(0, 0x100 + f), "its completion");
	return r;
}

static void
case_restart(struct rte_mempool *mp)
{
	struct rte_flow_op_attr now = { .postpone = 0 };
	struct rte_flow_actions_template *at[2];
	struct rte_flow_pattern_template *pt;
	struct rte_flow_template_table *tb;
	struct rte_flow_item_ipv4 src_mask = { .hdr.src_addr = RTE_BE32(0xffffffff) };
	struct rte_flow_item_udp sport_mask = { .hdr.src_port = RTE_BE16(0xffff) };
	struct rte_flow_attr attr = { .ingress = 1 };
	struct rte_flow_op_result two[2];
	struct rte_flow_error err;
	struct rte_flow *ra, *rb, *rc, *rd = NULL;
	struct rule_spec c;
	bool keep = members_keep_rules(), b_gone = false, a_moved = false;
	uint16_t a_queue = 2;
	int k;

	printf("members %s rules across their stop\n", keep ? "keep" : "do not keep");
	template_port(mp, 2);
	pt = pattern_template(&err);
	REQUIRE(pt != NULL, "pattern template: %s", msg(&err));
	at[0] = queue_template(-1, &err);
	at[1] = queue_template(3, &err);
	REQUIRE(at[0] != NULL && at[1] != NULL, "actions templates: %s", msg(&err));
	tb = table_of(pt, at, 2, 64, &err);
	REQUIRE(tb != NULL, "table: %s", msg(&err));
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	ra = restart_rule(tb, 5, 2, 0);		/* made while stopped */
	CHECK(rte_eth_dev_start(port) == 0, "start");
	rb = restart_rule(tb, 9, 0, 1);		/* queue 3, the template's */
	rule_spec(&c, 12, 1);
	c.items[1].mask = &src_mask;
	c.items[2].mask = &sport_mask;
	rc = rte_flow_create(port, &attr, c.items, c.acts, &err);
	CHECK(rc != NULL, "synchronous rule: %s", msg(&err));

	for (k = 0; k < 10; k++) {
		REQUIRE(rte_eth_dev_stop(port) == 0, "stop %d", k);
		if (keep)
			CHECK(transfer_rules() > 0, "stopped %d: members that keep rules hold none", k);
		else
			CHECK(all_rules() == 0, "stopped %d: members that keep no rules hold %u", k,
				all_rules());
		if (k == 0)
			rd = restart_rule(tb, 20, 1, 0);
		if (k == 3 && rb != NULL) {
			CHECK(rte_flow_async_destroy(port, 0, &now, rb, (void *)(uintptr_t)0x33,
				&err) == 0, "destroy while stopped: %s", msg(&err));
			CHECK(completed(0, 0x33), "its completion");
			b_gone = true;
		}
#if OCTO_DPDK_HAS_FLOW_ACTIONS_UPDATE
		if (k == 5 && ra != NULL) {
			struct rule_spec u;

			rule_spec(&u, 5, 0);
			CHECK(rte_flow_async_actions_update(port, 0, &now, ra, u.acts, 0,
				(void *)(uintptr_t)0x55, &err) == 0, "update while stopped: %s",
				msg(&err));
			CHECK(completed(0, 0x55), "its completion");
			a_queue = 0;
			a_moved = true;
		}
#endif
		REQUIRE(rte_eth_dev_start(port) == 0, "start %d", k);
		run_phase();
		CHECK(flow_queue(5) == a_queue, "restart %d: flow 5 at queue %d, want %u%s", k,
			flow_queue(5), a_queue, a_moved ? " (updated while stopped)" : "");
		if (!b_gone)
			CHECK(flow_queue(9) == 3, "restart %d: flow 9 at queue %d", k, flow_queue(9));
		CHECK(flow_queue(12) == 1, "restart %d: flow 12 (synchronous) at queue %d", k,
			flow_queue(12));
		CHECK(flow_queue(20) == 1, "restart %d: flow 20 (made while stopped) at queue %d",
			k, flow_queue(20));
	}
	CHECK(ra != NULL && rte_flow_async_destroy(port, 0, &now, ra, NULL, &err) == 0,
		"destroy: %s", msg(&err));
	CHECK(rd != NULL && rte_flow_async_destroy(port, 0, &now, rd, NULL, &err) == 0,
		"destroy: %s", msg(&err));
	CHECK(pull_n(0, two, 2) == 2 && two[0].status == RTE_FLOW_OP_SUCCESS &&
		two[1].status == RTE_FLOW_OP_SUCCESS, "completions");
	CHECK(rc != NULL && rte_flow_destroy(port, rc, &err) == 0, "destroy: %s", msg(&err));
	table_destroy(tb);
	rte_eth_dev_stop(port);
}

/*
 * PF0, the transfer proxy, unplugged and its port released: its templates,
 * table and rule went with it; every template op of the port answers
 * ENODEV, saying why; the port still stops (and closes at exit).
 */
static void
case_proxy_released(struct rte_mempool *mp)
{
	struct rte_flow_op_attr now = { .postpone = 0 };
	struct rte_flow_template_table *tb;
	struct rte_flow_op_result res;
	struct rte_flow_error err;
	struct rule_spec s;
	struct rte_flow *r;

	r = port_one_rule(mp, 19, 1, &tb);
	REQUIRE(r != NULL, "rule");
	CHECK(rte_pmd_octonic_unplug(pf[0]) == 0, "unplug PF0");
	/* a transfer proxy stops after the e-switch's other ports (mlx5's
	 * EBUSY under hardware steering, the model's mlx5-hws)
	 */
	CHECK(rte_eth_dev_stop(pf[1]) == 0, "stop PF1");
	CHECK(rte_eth_dev_stop(pf[0]) == 0, "stop PF0");
	CHECK(rte_eth_dev_close(pf[0]) == 0, "close PF0");
	rule_spec(&s, 21, 1);
	memset(&err, 0, sizeof(err));
	CHECK(rte_flow_async_create(port, 0, &now, tb, s.items, 0, s.acts, 0, NULL,
		&err) == NULL && strstr(msg(&err), "transfer proxy was released") != NULL,
		"create with the proxy released: %s", msg(&err));
	CHECK(rte_flow_async_destroy(port, 0, &now, r, NULL, &err) == -ENODEV,
		"destroy with the proxy released: %s", msg(&err));
	CHECK(rte_flow_pull(port, 0, &res, 1, &err) == -ENODEV, "pull: %s", msg(&err));
	CHECK(rte_flow_template_table_destroy(port, tb, &err) == -ENODEV,
		"table destroy: %s", msg(&err));
	CHECK(rte_eth_dev_stop(port) == 0, "stop the port");
}

static void
case_sws(struct rte_mempool *mp)
{
	struct rte_flow_pattern_template_attr pattr = { .ingress = 1 };
	struct rte_flow_attr sattr = { .ingress = 1 };
	struct rte_flow_item_ipv4 src_only = { .hdr.src_addr = RTE_BE32(0xffffffff) };
	struct rte_flow_item_udp sport_only = { .hdr.src_port = RTE_BE16(0xffff) };
	struct rte_flow_port_info pi;
	struct rte_flow_queue_info qi;
	struct rte_flow_error err;
	struct rte_flow *sync;
	struct rule_spec a;

	port_up(mp);
	run_phase();	/* the generator's flows, for rule_spec */
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	memset(&err, 0, sizeof(err));
	CHECK(rte_flow_info_get(port, &pi, &qi, &err) == -ENOTSUP &&
		strstr(msg(&err), "incorrect steering mode") != NULL,
		"info_get: %s", msg(&err));
	CHECK(flow_configure(2, &err) == -ENOTSUP &&
		strstr(msg(&err), "incorrect steering mode") != NULL,
		"configure: %s", msg(&err));
	rule_spec(&a, 3, 1);
	CHECK(rte_flow_pattern_template_create(port, &pattr, a.items, &err) == NULL,
		"pattern template taken without a configure");
	CHECK(rte_eth_dev_start(port) == 0, "start");
	a.items[1].mask = &src_only;
	a.items[2].mask = &sport_only;
	sync = rte_flow_create(port, &sattr, a.items, a.acts, &err);
	REQUIRE(sync != NULL, "synchronous rule: %s", msg(&err));
	run_phase();
	CHECK(flow_queue(3) == 1, "flow 3 at queue %d", flow_queue(3));
	CHECK(rte_flow_destroy(port, sync, &err) == 0, "destroy: %s", msg(&err));
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
}

static const struct octo_case cases[] = {
	{ "queue", case_queue, false },
	{ "filtering", case_filtering, false },
	{ "bad", case_bad, false },
	{ "full", case_full, false },
	{ "migrate", case_migrate, false },
	{ "failover", case_failover, false },
	{ "update", case_update, false },
	{ "proxy_released", case_proxy_released, false },
	{ "restart", case_restart, false },
	{ "sws", case_sws, false },
};

int
main(int argc, char **argv)
{
	struct rte_mempool *mp;
	struct octo_eal a;
	const char *which;
	int ret;

	which = octo_eal_begin_2pf(&a, argc, argv, "0@0,1@1,2@0,3@1", "octopus-tmpl", "",
		",flows=%u,gen_rate=200000%s", NB_FLOWS, octo_dialect_suffix());
	if (octo_eal_start(&a, NB_Q) < 0)
		return 2;
	mp = octo_app_pool("app", 16384, 0);
	if (mp == NULL)
		return 2;
	port = port_of("net_octopus0");
	pf[0] = port_of("net_octonic0_pf0");
	pf[1] = port_of("net_octonic0_pf1");
	rte_pmd_octonic_gen_enable(pf[0], 0);
	ph.poll.port = port;
	ph.poll.nb_q = NB_Q;
	ph.gen_port = pf[0];
	ph.nb_flows = NB_FLOWS;
	ret = octo_case_main(cases, RTE_DIM(cases), which, argv[0], mp);
	return ret == 0 && skipped ? 77 : ret;
}
