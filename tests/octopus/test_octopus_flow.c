/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * The application's rte_flow rules on net_octopus over N net_octonic PFs on
 * N (emulated) sockets (N = $OCTO_PFS, 2 by default; octo_pfs.h), max(4, N)
 * virtual queues; lcore q, on socket q mod N (at 2 PFs: 0,2 on socket 0,
 * 1,3 on socket 1), polls virtual queue q, set up on its socket, and counts
 * every packet by queue and generator flow (the flow id is in the
 * payload).  Run under tools/octopus-numa-emu --nodes N.
 *
 *   test_octopus_flow queue  a QUEUE+MARK+COUNT rule for one generated
 *       5-tuple: that flow, and only it, arrives at the chosen queue, every
 *       packet of it marked, none of the others; a FLAG+QUEUE rule's flow
 *       arrives flagged without a mark id (where the NIC refuses MARK and
 *       FLAG in transfer rules, as mlx5 hardware steering does, each rule
 *       adds one ingress rule per member instead); COUNT equals what arrived;
 *       validate creates nothing; a DROP rule drops its flow (COUNT = its
 *       packets); reta_update moves the buckets while the rule keeps its
 *       flow; the rules survive stop/start; destroy and flush remove every
 *       member rule (the e-switch's rule count returns to the steering's).
 *   test_octopus_flow rss    an RSS rule over {2,3} takes every flow, each
 *       flow to one queue, both queues used, its COUNT (two member rules)
 *       equal to all packets; over {0,2,3} (not a power of
 *       two) queue 1 gets nothing and the three share the flows; an RSS
 *       rule over {1} made while the port is stopped takes every flow once
 *       it starts.
 *   test_octopus_flow bad    bad rules are refused by validate and create
 *       with an rte_flow_error message naming the cause, and leave the
 *       e-switch's rule counters unchanged; members without an e-switch
 *       (net_null) refuse flows with ENOTSUP.
 *   test_octopus_flow isolate  in isolated mode only a QUEUE rule's flow
 *       arrives (one e-switch rule added); out of it, every flow again.
 *   test_octopus_flow ovs    Open vSwitch's rules: its partial offload
 *       (MARK + RSS, ipv4 fragment_offset "not a fragment") marks every
 *       packet and spreads the flows; its later-fragment range is taken or
 *       refused as the NIC says; its full offload (transfer) refused.
 *   test_octopus_flow rollback a member refusing member rule 30 of an RSS
 *       rule (test-only fault injection): the 29 made are removed again,
 *       nothing is kept; a rule's member rules removed and replayed from
 *       its copy steer as before.
 *   test_octopus_flow restart  the port says FLOW_RULE_KEEP and keeps
 *       what it says: a rule made before the first start takes its flows
 *       once started; QUEUE+COUNT, MARK+QUEUE, DROP, RSS and JUMP rules
 *       (and one made while stopped, and isolated mode set while stopped)
 *       through ten stops and starts, made again from the port's copies
 *       (the application's rules overwritten once made): after each start
 *       every rule's flow reaches its queue, marked, dropped or isolated as made, and the
 *       COUNT has counted every packet since the rule was made. Where the
 *       members keep no rules across their stop (no FLOW_RULE_KEEP,
 *       mlx5-hws), the e-switch holds none of the port's while it is
 *       stopped; where they do, the rules stay there.
 *   test_octopus_flow reconfigure  kept rules for queues a configure takes
 *       away wait in their copies, and steer once the queues are back.
 */

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_flow.h>
#include <rte_ip.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_udp.h>

#include <octopus_dpdk_compat.h>

#include "rte_pmd_octonic.h"
#include "octopus_internal.h"
#include "octopus_flow.h"

#include "../common/octo_cases.h"
#include "../common/octo_eal.h"
#include "../common/octo_flow_rule.h"
#include "../common/octo_poll.h"
#include "../common/octo_check.h"
#include "../common/octo_pfs.h"
#include "../common/octo_port.h"
#include "../common/octo_state.h"
#include "../common/octo_dialect.h"
#include "../common/octo_gen_flow.h"
#include "../common/octo_test_eal.h"

/* queues: 4, or one per PF beyond */
#define MAX_Q OCTO_PFS_MAX
#define NB_DESC 4096
/* beyond 2 PFs (rx_pool=app): the application's pool fills every member's
 * rings at start under mlx5-hws (the model posts them all, as mlx5 does)
 */
#define NB_DESC_MANY 1024
#define NB_FLOWS 256
#define PER_FLOW 16			/* packets per flow and phase */
#define PHASE_PKTS (NB_FLOWS * PER_FLOW)

/* An action of type RTE_FLOW_ACTION_TYPE_<t> with conf @p c, in a list. */
#define ACT(t, c) { .type = RTE_FLOW_ACTION_TYPE_ ## t, .conf = (c) }

static unsigned int nb_pf;	/* OCTO_PFS: PF k on socket k */
static uint16_t nb_q;
static uint16_t port, nic_port;
/* per queue, per flow: written by the queue's poller only */
static uint32_t marked[MAX_Q][NB_FLOWS];	/* with FDIR_ID */
static uint32_t mark_val[NB_FLOWS];
static uint32_t fdir_any[MAX_Q];		/* any FDIR flag */
/* where each flow's packets arrived, what the flows look like */
static struct octo_phase ph;
static_assert(MAX_Q <= OCTO_PHASE_MAXQ && NB_FLOWS <= OCTO_PHASE_MAXFLOWS,
	"octo_phase holds the counts");

/* The marks of each packet, besides the phase's counts. */
static void
count_marks(struct octo_phase *p, uint16_t q, struct rte_mbuf *m, int f)
{
	RTE_SET_USED(p);
	if (m->ol_flags & RTE_MBUF_F_RX_FDIR)
		fdir_any[q]++;
	if (f >= 0 && (m->ol_flags & RTE_MBUF_F_RX_FDIR_ID)) {
		marked[q][f]++;
		mark_val[f] = m->hash.fdir.hi;
	}
}

/*
 * Generate PER_FLOW packets of every flow and count where they arrive; the
 * phase ends when all but @p dropped_flows flows' packets arrived (or after
 * 20 s).
 */
static void
run_phase_drop(unsigned int dropped_flows)
{
	memset(marked, 0, sizeof(marked));
	memset(fdir_any, 0, sizeof(fdir_any));
	CHECK(octo_phase_run(&ph, PHASE_PKTS, (uint64_t)(NB_FLOWS - dropped_flows) * PER_FLOW) == 0,
		"generator: gen_get, gen_set");
	if (getenv("FLOW_TEST_DEBUG") != NULL) {
		uint64_t gen = 0;
		struct rte_eth_stats st;

		rte_pmd_octonic_gen_count(nic_port, &gen);
		rte_eth_stats_get(port, &st);
		fprintf(stderr, "phase: generated %" PRIu64 " received %" PRIu64
			" imissed %" PRIu64 " q %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
			gen, ph.received, st.imissed, octo_xstat(port, "rx_q0_packets"),
			octo_xstat(port, "rx_q1_packets"), octo_xstat(port, "rx_q2_packets"),
			octo_xstat(port, "rx_q3_packets"));
	}
}

static void
run_phase(void)
{
	run_phase_drop(0);
}

static uint32_t
flow_total(int f)
{
	return octo_phase_flow_total(&ph, f);
}

/* The queue every packet of flow f reached, -1: none or several. */
static int
flow_queue(int f)
{
	return octo_phase_flow_queue(&ph, f);
}

static uint64_t
imissed(void)
{
	struct rte_eth_stats st;

	memset(&st, 0, sizeof(st));
	rte_eth_stats_get(port, &st);
	return st.imissed;
}

static void
setup_port(struct rte_mempool *mp, int rss_mode)
{
	/* ethdev offers reta_update only in RSS mode */
	struct octo_port_conf c = {
		.nb_rxq = nb_q, .nb_txq = nb_q, .nb_desc = nb_pf > 2 ? NB_DESC_MANY : NB_DESC,
		.socket = OCTO_SOCKET_OF_LCORE, .pool = mp,
		.rss_hf = rss_mode ? RTE_ETH_RSS_IP | RTE_ETH_RSS_UDP : 0,
	};

	CHECK(octo_port_start(port, &c) == 0, "configure, set up and start the port");
}

/* A rule for exactly flow f's source address and port. */
struct five_tuple_rule {
	struct rte_flow_attr attr;
	struct octo_udp_match pat;
	struct rte_flow_action actions[5];
	struct rte_flow_action_queue queue;
	struct rte_flow_action_mark mark;
	struct rte_flow_action_count count;
};

static void
five_tuple(struct five_tuple_rule *r, int f)
{
	memset(r, 0, sizeof(*r));
	r->attr.ingress = 1;
	octo_udp_match_init(&r->pat);
	r->pat.ip.hdr.src_addr = ph.flow_src[f];
	r->pat.ip_mask.hdr.src_addr = RTE_BE32(0xffffffff);
	r->pat.udp.hdr.src_port = ph.flow_sport[f];
	r->pat.udp_mask.hdr.src_port = RTE_BE16(0xffff);
}

/* The e-switch holds the transfer and PF0 ingress rules of @p fs0 again, @p when. */
static void
rules_as_before(const struct rte_pmd_octonic_flow_stats *fs0, const char *when)
{
	struct rte_pmd_octonic_flow_stats fs = octo_fstats(nic_port);

	CHECK(fs.transfer_rules == fs0->transfer_rules && fs.ingress_rules == fs0->ingress_rules,
		"%s: %u transfer rules, %u PF0 ingress rules; before: %u, %u", when,
		fs.transfer_rules, fs.ingress_rules, fs0->transfer_rules, fs0->ingress_rules);
}

/*
 * The hits of rule @p flow's COUNT (summed over its member rules by the
 * port), UINT64_MAX when there is no rule or the query fails or sets none.
 */
static uint64_t
rule_hits(struct rte_flow *flow)
{
	static const struct rte_flow_action count[] = { ACT(COUNT, NULL), ACT(END, NULL) };
	struct rte_flow_query_count qc;
	struct rte_flow_error err;

	memset(&qc, 0, sizeof(qc));
	if (flow == NULL || rte_flow_query(port, flow, count, &qc, &err) != 0 || !qc.hits_set)
		return UINT64_MAX;
	return qc.hits;
}

static int
reta_set_all(uint16_t (*fn)(uint16_t b))
{
	struct rte_eth_rss_reta_entry64 reta[8];
	struct rte_eth_dev_info info;
	uint16_t b;

	CHECK(rte_eth_dev_info_get(port, &info) == 0, "info of port");
	memset(reta, 0, sizeof(reta));
	for (b = 0; b < info.reta_size; b++) {
		reta[b / 64].mask |= 1ULL << (b % 64);
		reta[b / 64].reta[b % 64] = fn(b);
	}
	return rte_eth_dev_rss_reta_update(port, reta, info.reta_size);
}

/*
 * Whether the members' e-switch takes MARK in transfer rules, asked of its
 * transfer proxy (PF0) the way net_octopus's rules would use it.
 */
static int
nic_takes_transfer_mark(void)
{
	struct rte_flow_attr attr = { .group = 1, .transfer = 1 };
	struct rte_flow_item items[2] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_action_mark mark = { .id = 1 };
	struct rte_flow_action_jump jump = { .group = 2 };
	struct rte_flow_action actions[3] = { ACT(MARK, &mark), ACT(JUMP, &jump), ACT(END, NULL) };
	struct rte_flow_error err;
	struct rte_flow *f;

	/* created, not validated: mlx5's hardware steering validates the
	 * pattern only (facts F1) and refuses a transfer MARK at create
	 */
	f = rte_flow_create(nic_port, &attr, items, actions, &err);
	if (f == NULL)
		return false;
	rte_flow_destroy(nic_port, f, &err);
	return true;
}

static uint16_t to_01(uint16_t b) { return b % 2; }
static uint16_t to_0(uint16_t b) { RTE_SET_USED(b); return 0; }

static void
test_queue(struct rte_mempool *mp)
{
	struct rte_pmd_octonic_flow_stats fs0, fs;
	struct five_tuple_rule r, d, g;
	uint64_t hits;
	struct rte_flow_error err;
	struct rte_flow *flow, *drop, *flag;
	const int X = 37, Y = 100, Z = 5;
	struct rte_pmd_octonic_flow_stats pf1_0, pf1;
	int f, i, q, ingress_marks;

	setup_port(mp, 1);
	/* the default buckets use queues 0 and 1 only: 2 and 3 get nothing */
	CHECK(reta_set_all(to_01) == 0, "reta 0/1");
	run_phase();
	CHECK(ph.received == PHASE_PKTS && imissed() == 0, "learning phase: %" PRIu64
		" of %u, missed %" PRIu64, ph.received, PHASE_PKTS, imissed());
	for (f = 0; f < NB_FLOWS; f++)
		CHECK(flow_total(f) == PER_FLOW && (flow_queue(f) == 0 || flow_queue(f) == 1),
			"flow %d: %u packets, queue %d", f, flow_total(f), flow_queue(f));
	CHECK(fdir_any[0] == 0 && fdir_any[1] == 0, "FDIR flags without a rule");

	five_tuple(&r, X);
	r.queue.index = 3;
	r.mark.id = 0xabc;
	r.actions[0].type = RTE_FLOW_ACTION_TYPE_MARK;
	r.actions[0].conf = &r.mark;
	r.actions[1].type = RTE_FLOW_ACTION_TYPE_COUNT;
	r.actions[1].conf = &r.count;
	r.actions[2].type = RTE_FLOW_ACTION_TYPE_QUEUE;
	r.actions[2].conf = &r.queue;
	r.actions[3].type = RTE_FLOW_ACTION_TYPE_END;
	/* FLAG for flow Z, to queue 2 */
	five_tuple(&g, Z);
	g.queue.index = 2;
	g.actions[0].type = RTE_FLOW_ACTION_TYPE_FLAG;
	g.actions[1].type = RTE_FLOW_ACTION_TYPE_QUEUE;
	g.actions[1].conf = &g.queue;
	g.actions[2].type = RTE_FLOW_ACTION_TYPE_END;
	/* the mark's place: the transfer rule, or one ingress rule per member */
	ingress_marks = nic_takes_transfer_mark() ? 0 : (int)nb_pf;
	fs0 = octo_fstats(nic_port);
	memset(&pf1_0, 0, sizeof(pf1_0));
	rte_pmd_octonic_flow_stats_get(port_of("net_octonic0_pf1"), &pf1_0);
	memset(&err, 0, sizeof(err));
	CHECK(rte_flow_validate(port, &r.attr, r.pat.items, r.actions, &err) == 0,
		"validate: %s", err.message ? err.message : "?");
	fs = octo_fstats(nic_port);
	CHECK(fs.creates == fs0.creates && fs.transfer_rules == fs0.transfer_rules,
		"validate created rules (%" PRIu64 " -> %" PRIu64 ")", fs0.creates, fs.creates);
	flow = rte_flow_create(port, &r.attr, r.pat.items, r.actions, &err);
	CHECK(flow != NULL, "create: %s", err.message ? err.message : "?");
	fs = octo_fstats(nic_port);
	/* rules made and kept: the port may probe a shape by creating and
	 * destroying a rule at its first create
	 */
	CHECK(fs.creates - fs.destroys == fs0.creates - fs0.destroys + 1 + ingress_marks &&
		fs.transfer_rules == fs0.transfer_rules + 1 &&
		fs.ingress_rules == fs0.ingress_rules + ingress_marks / (int)nb_pf,
		"a QUEUE rule is one transfer rule (and %d ingress MARK rules): creates - destroys +%" PRIu64
		", transfer rules %u -> %u, PF0 ingress rules %u -> %u", ingress_marks,
		(fs.creates - fs.destroys) - (fs0.creates - fs0.destroys), fs0.transfer_rules, fs.transfer_rules,
		fs0.ingress_rules, fs.ingress_rules);
	/* and on the other member: its traffic is marked wherever q's home is */
	memset(&pf1, 0, sizeof(pf1));
	rte_pmd_octonic_flow_stats_get(port_of("net_octonic0_pf1"), &pf1);
	CHECK(pf1.ingress_rules == pf1_0.ingress_rules + ingress_marks / (int)nb_pf,
		"PF1 ingress rules %u -> %u", pf1_0.ingress_rules, pf1.ingress_rules);

	/* DROP (with COUNT) for flow Y */
	five_tuple(&d, Y);
	d.actions[0].type = RTE_FLOW_ACTION_TYPE_COUNT;
	d.actions[0].conf = &d.count;
	d.actions[1].type = RTE_FLOW_ACTION_TYPE_DROP;
	d.actions[2].type = RTE_FLOW_ACTION_TYPE_END;
	drop = rte_flow_create(port, &d.attr, d.pat.items, d.actions, &err);
	CHECK(drop != NULL, "create drop: %s", err.message ? err.message : "?");
	flag = rte_flow_create(port, &g.attr, g.pat.items, g.actions, &err);
	CHECK(flag != NULL, "create flag: %s", err.message ? err.message : "?");

	for (i = 0; i < 2; i++) {
		run_phase_drop(1);
		CHECK(ph.cnt[3][X] == PER_FLOW && flow_queue(X) == 3,
			"round %d: flow %d: %u of %u packets at queue 3 (queue %d)", i, X,
			ph.cnt[3][X], PER_FLOW, flow_queue(X));
		CHECK(marked[3][X] == PER_FLOW && mark_val[X] == 0xabc,
			"round %d: %u of %u marked, mark 0x%x", i, marked[3][X], PER_FLOW,
			mark_val[X]);
		CHECK(ph.cnt[2][Z] == PER_FLOW && flow_queue(Z) == 2 &&
			fdir_any[2] == PER_FLOW && marked[2][Z] == 0,
			"round %d: flagged flow %d: %u of %u at queue 2, %u flagged, %u with an id",
			i, Z, ph.cnt[2][Z], PER_FLOW, fdir_any[2], marked[2][Z]);
		for (f = 0; f < NB_FLOWS; f++) {
			if (f == X || f == Z)
				continue;
			CHECK(ph.cnt[3][f] == 0 && ph.cnt[2][f] == 0,
				"round %d: flow %d reached queue 3 (%u) or 2 (%u)", i, f,
				ph.cnt[3][f], ph.cnt[2][f]);
			CHECK(f == Y || flow_total(f) == PER_FLOW,
				"round %d: flow %d: %u packets", i, f, flow_total(f));
			CHECK(marked[0][f] + marked[1][f] == 0, "flow %d marked", f);
		}
		CHECK(flow_total(Y) == 0, "round %d: dropped flow %d: %u packets arrived",
			i, Y, flow_total(Y));
		CHECK(fdir_any[0] == 0 && fdir_any[1] == 0, "FDIR on unmarked queues");
		/* COUNT: what matched, summed over the member rules, kept over restarts */
		hits = rule_hits(flow);
		CHECK(hits == (uint64_t)PER_FLOW * (i + 1),
			"round %d: queue rule count %" PRIu64 ", want %u", i, hits,
			PER_FLOW * (i + 1));
		hits = rule_hits(drop);
		CHECK(hits == (uint64_t)PER_FLOW * (i + 1),
			"round %d: drop rule count %" PRIu64 ", want %u", i, hits,
			PER_FLOW * (i + 1));
		if (i == 0) {
			/* rules survive stop/start */
			CHECK(rte_eth_dev_stop(port) == 0, "stop");
			CHECK(rte_eth_dev_start(port) == 0, "start");
		}
	}
	/* reta_update moves the buckets; the rule keeps its flow */
	CHECK(reta_set_all(to_0) == 0, "reta all 0");
	run_phase_drop(1);
	for (f = 0; f < NB_FLOWS; f++) {
		q = f == X ? 3 : f == Y ? -1 : f == Z ? 2 : 0;
		CHECK(flow_queue(f) == q && (q < 0 || flow_total(f) == PER_FLOW),
			"after reta: flow %d at queue %d (%u packets), want %d", f,
			flow_queue(f), flow_total(f), q);
	}
	/* destroy: back to the buckets, member rule gone */
	CHECK(rte_flow_destroy(port, flow, &err) == 0, "destroy");
	fs = octo_fstats(nic_port);
	CHECK(fs.transfer_rules == fs0.transfer_rules + 2, "after destroy: %u transfer rules, want %u",
		fs.transfer_rules, fs0.transfer_rules + 2);
	run_phase_drop(1);
	CHECK(flow_queue(X) == 0 && ph.cnt[0][X] == PER_FLOW && marked[0][X] == 0,
		"destroyed rule still steers: flow %d at queue %d", X, flow_queue(X));
	/* flush removes the rest */
	flow = rte_flow_create(port, &r.attr, r.pat.items, r.actions, &err);
	CHECK(flow != NULL, "create again: %s", err.message ? err.message : "?");
	CHECK(rte_flow_flush(port, &err) == 0, "flush");
	rules_as_before(&fs0, "after flush");
	CHECK(rte_flow_destroy(port, flow, &err) != 0, "a flushed rule destroyed again");
	run_phase();
	CHECK(flow_total(Y) == PER_FLOW && flow_queue(X) == 0, "after flush: Y %u, X at %d",
		flow_total(Y), flow_queue(X));
	octo_port_stop_close(port);
}

static void
rss_rule(const uint16_t *queues, uint32_t n, struct rte_flow **flow)
{
	struct rte_flow_attr attr = { .ingress = 1 };
	struct rte_flow_item items[] = OCTO_ITEMS_UDP;
	struct rte_flow_action_rss rss = { .queue_num = n, .queue = queues };
	struct rte_flow_action actions[] = { ACT(COUNT, NULL), ACT(RSS, &rss), ACT(END, NULL) };
	struct rte_flow_error err;

	memset(&err, 0, sizeof(err));
	*flow = rte_flow_create(port, &attr, items, actions, &err);
	CHECK(*flow != NULL, "rss create: %s", err.message ? err.message : "?");
}

/* The port's rules flushed: the e-switch holds @p want transfer rules again. */
static void
flush_to(uint32_t want)
{
	struct rte_pmd_octonic_flow_stats fs;
	struct rte_flow_error err;

	CHECK(rte_flow_flush(port, &err) == 0, "flush");
	fs = octo_fstats(nic_port);
	CHECK(fs.transfer_rules == want, "after flush: %u transfer rules, want %u",
		fs.transfer_rules, want);
}

static void
test_rss(struct rte_mempool *mp)
{
	static const uint16_t q23[] = { 2, 3 }, q023[] = { 0, 2, 3 }, q1[] = { 1 };
	struct rte_pmd_octonic_flow_stats fs0, fs;
	struct rte_flow_error err;
	struct rte_flow *flow;
	uint32_t per_q[MAX_Q];
	uint64_t hits;
	int f, q;

	setup_port(mp, 0);
	fs0 = octo_fstats(nic_port);
	rss_rule(q23, 2, &flow);
	fs = octo_fstats(nic_port);
	CHECK(fs.transfer_rules == fs0.transfer_rules + 2, "rss over 2 queues: %u member rules",
		fs.transfer_rules - fs0.transfer_rules);
	run_phase();
	memset(per_q, 0, sizeof(per_q));
	for (f = 0; f < NB_FLOWS; f++) {
		q = flow_queue(f);
		CHECK((q == 2 || q == 3) && flow_total(f) == PER_FLOW,
			"rss {2,3}: flow %d at queue %d, %u packets", f, q, flow_total(f));
		if (q >= 0)
			per_q[q]++;
	}
	CHECK(per_q[2] >= NB_FLOWS / 4 && per_q[3] >= NB_FLOWS / 4,
		"rss {2,3}: flows per queue %u %u", per_q[2], per_q[3]);
	/* COUNT of one app rule = the sum over its member rules */
	hits = rule_hits(flow);
	CHECK(hits == ph.received && ph.received == PHASE_PKTS,
		"rss count %" PRIu64 ", received %" PRIu64, hits, ph.received);
	CHECK(rte_flow_destroy(port, flow, &err) == 0, "destroy");

	rss_rule(q023, 3, &flow);
	fs = octo_fstats(nic_port);
	CHECK(fs.transfer_rules == fs0.transfer_rules + 64,
		"rss over 3 queues: %u member rules (the port's 64 buckets)",
		fs.transfer_rules - fs0.transfer_rules);
	run_phase();
	memset(per_q, 0, sizeof(per_q));
	for (f = 0; f < NB_FLOWS; f++) {
		q = flow_queue(f);
		CHECK(q == 0 || q == 2 || q == 3, "rss {0,2,3}: flow %d at queue %d", f, q);
		if (q >= 0)
			per_q[q]++;
	}
	CHECK(per_q[1] == 0 && per_q[0] >= NB_FLOWS / 5 && per_q[2] >= NB_FLOWS / 5 &&
		per_q[3] >= NB_FLOWS / 5, "rss {0,2,3}: flows per queue %u %u %u %u",
		per_q[0], per_q[1], per_q[2], per_q[3]);
	flush_to(fs0.transfer_rules);
	/* a rule created while the port is stopped steers once it starts */
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	rss_rule(q1, 1, &flow);
	CHECK(rte_eth_dev_start(port) == 0, "start");
	run_phase();
	for (f = 0; f < NB_FLOWS; f++)
		CHECK(flow_queue(f) == 1 && flow_total(f) == PER_FLOW,
			"rule made while stopped: flow %d at queue %d", f, flow_queue(f));
	octo_port_stop_close(port);
}

/* isolate: only the application's rules deliver; off again: all do. */
static void
test_isolate(struct rte_mempool *mp)
{
	struct rte_pmd_octonic_flow_stats fs0, fs;
	struct five_tuple_rule r;
	struct rte_flow_error err;
	struct rte_flow *flow;
	const int X = 11;
	int f;

	setup_port(mp, 0);
	run_phase();	/* learn the tuples */
	CHECK(ph.received == PHASE_PKTS, "learning: %" PRIu64, ph.received);
	fs0 = octo_fstats(nic_port);
	memset(&err, 0, sizeof(err));
	CHECK(rte_flow_isolate(port, 1, &err) == 0, "isolate: %s",
		err.message ? err.message : "?");
	fs = octo_fstats(nic_port);
	CHECK(fs.transfer_rules == fs0.transfer_rules + 1, "isolate rule: %u -> %u",
		fs0.transfer_rules, fs.transfer_rules);
	five_tuple(&r, X);
	r.queue.index = 2;
	r.actions[0].type = RTE_FLOW_ACTION_TYPE_QUEUE;
	r.actions[0].conf = &r.queue;
	r.actions[1].type = RTE_FLOW_ACTION_TYPE_END;
	flow = rte_flow_create(port, &r.attr, r.pat.items, r.actions, &err);
	CHECK(flow != NULL, "create: %s", err.message ? err.message : "?");
	run_phase_drop(NB_FLOWS - 1);
	for (f = 0; f < NB_FLOWS; f++)
		CHECK(f == X ? (flow_queue(f) == 2 && flow_total(f) == PER_FLOW) :
			flow_total(f) == 0, "isolated: flow %d: %u packets at queue %d", f,
			flow_total(f), flow_queue(f));
	CHECK(rte_flow_isolate(port, 0, &err) == 0, "isolate off");
	run_phase();
	for (f = 0; f < NB_FLOWS; f++)
		CHECK(flow_total(f) == PER_FLOW && (f != X || flow_queue(f) == 2),
			"not isolated: flow %d: %u packets at queue %d", f, flow_total(f),
			flow_queue(f));
	flush_to(fs0.transfer_rules);
	octo_port_stop_close(port);
}

/* Whether every PF of the generating NIC keeps rules across its stop. */
static bool
members_keep_rules(void)
{
	struct rte_eth_dev_info info;

	return rte_eth_dev_info_get(nic_port, &info) == 0 &&
		(info.dev_capa & RTE_ETH_DEV_CAPA_FLOW_RULE_KEEP) != 0;
}

/* A five-tuple rule for flow f with actions @p a0, @p a1 (END to leave out). */
static struct rte_flow *
restart_rule(struct five_tuple_rule *r, int f, uint32_t group,
		enum rte_flow_action_type a0, enum rte_flow_action_type a1, uint16_t q)
{
	struct rte_flow_error err;
	struct rte_flow *flow;

	five_tuple(r, f);
	r->attr.group = group;
	r->queue.index = q;
	r->mark.id = 0x77;
	r->actions[0].type = a0;
	r->actions[1].type = a1;
	r->actions[2].type = RTE_FLOW_ACTION_TYPE_END;
	for (int k = 0; k < 2; k++)
		r->actions[k].conf = r->actions[k].type == RTE_FLOW_ACTION_TYPE_QUEUE ? (void *)&r->queue :
			r->actions[k].type == RTE_FLOW_ACTION_TYPE_MARK ? (void *)&r->mark :
			r->actions[k].type == RTE_FLOW_ACTION_TYPE_COUNT ? (void *)&r->count : NULL;
	memset(&err, 0, sizeof(err));
	flow = rte_flow_create(port, &r->attr, r->pat.items, r->actions, &err);
	CHECK(flow != NULL, "create for flow %d (port %s): %s", f,
		rte_eth_devices[port].data->dev_started ? "started" : "stopped",
		err.message ? err.message : "?");
	return flow;
}

static void
test_restart(struct rte_mempool *mp)
{
	struct octo_port_conf c = {
		.nb_rxq = nb_q, .nb_txq = nb_q, .nb_desc = nb_pf > 2 ? NB_DESC_MANY : NB_DESC,
		.socket = OCTO_SOCKET_OF_LCORE, .pool = mp,
	};
	struct rte_flow_item udp_items[] = OCTO_ITEMS_UDP;
	struct rte_flow_action_queue q3 = { .index = 3 };
	struct rte_flow_action to_q3[] = OCTO_ACTIONS_QUEUE(&q3);
	static const uint16_t q03[] = { 0, 3 };
	struct rte_flow_action_rss rss = { .queue_num = 2, .queue = q03 };
	struct rte_flow_action to_rss[] = { ACT(RSS, &rss), ACT(END, NULL) };
	struct rte_flow_action_jump jump = { .group = 1 };
	struct rte_flow_action to_group1[] = { ACT(JUMP, &jump), ACT(END, NULL) };
	struct rte_flow_attr ingress = { .ingress = 1 }, group1 = { .group = 1, .ingress = 1 };
	struct five_tuple_rule ra, rb, rd, rr, rj, rf;
	struct rte_pmd_octonic_flow_stats fs, fs_steer;
	struct rte_eth_dev_info info;
	uint64_t hits;
	struct rte_flow_error err;
	struct rte_flow *w, *fa, *fb, *fd, *fr, *fj, *fg, *ff = NULL;
	const int A = 1, B = 2, D = 3, R = 4, J = 5, F = 6;
	bool keep = members_keep_rules();
	uint64_t phases = 0;
	int k, f, q;

	CHECK(rte_eth_dev_info_get(port, &info) == 0 &&
		(info.dev_capa & RTE_ETH_DEV_CAPA_FLOW_RULE_KEEP) != 0,
		"the port does not say FLOW_RULE_KEEP (dev_capa 0x%" PRIx64 ")", info.dev_capa);
	printf("members %s rules across their stop\n", keep ? "keep" : "do not keep");
	/* before the first start: kept (no RTE_FLOW_ERROR_TYPE_STATE), made at start */
	REQUIRE(octo_port_setup(port, &c) == 0, "configure and set up");
	memset(&err, 0, sizeof(err));
	w = rte_flow_create(port, &ingress, udp_items, to_q3, &err);
	CHECK(w != NULL, "rule before the first start: %s (type %d)",
		err.message ? err.message : "?", err.type);
	REQUIRE(rte_eth_dev_start(port) == 0, "start");
	run_phase();	/* learns the tuples too */
	for (f = 0; f < NB_FLOWS; f++)
		CHECK(flow_queue(f) == 3 && flow_total(f) == PER_FLOW,
			"the rule made before the first start: flow %d at queue %d (%u packets)", f,
			flow_queue(f), flow_total(f));
	CHECK(w != NULL && rte_flow_destroy(port, w, &err) == 0, "destroy");
	fs_steer = octo_fstats(nic_port);

	fa = restart_rule(&ra, A, 0, RTE_FLOW_ACTION_TYPE_COUNT, RTE_FLOW_ACTION_TYPE_QUEUE, 2);
	fb = restart_rule(&rb, B, 0, RTE_FLOW_ACTION_TYPE_MARK, RTE_FLOW_ACTION_TYPE_QUEUE, 1);
	fd = restart_rule(&rd, D, 0, RTE_FLOW_ACTION_TYPE_DROP, RTE_FLOW_ACTION_TYPE_END, 0);
	five_tuple(&rr, R);
	fr = rte_flow_create(port, &rr.attr, rr.pat.items, to_rss, &err);
	CHECK(fr != NULL, "RSS rule: %s", err.message ? err.message : "?");
	five_tuple(&rj, J);
	fj = rte_flow_create(port, &rj.attr, rj.pat.items, to_group1, &err);
	CHECK(fj != NULL, "JUMP rule: %s", err.message ? err.message : "?");
	fg = rte_flow_create(port, &group1, udp_items, to_q3, &err);
	CHECK(fg != NULL, "group 1 rule: %s", err.message ? err.message : "?");
	/* the port makes its rules again from its own copies: what the
	 * application made them from is gone (overwritten) from here on
	 */
	memset(&ra, 0xff, sizeof(ra));
	memset(&rb, 0xff, sizeof(rb));
	memset(&rd, 0xff, sizeof(rd));
	memset(&rr, 0xff, sizeof(rr));
	memset(&rj, 0xff, sizeof(rj));
	memset(&rss, 0xff, sizeof(rss));
	memset(&jump, 0xff, sizeof(jump));
	memset(&q3, 0xff, sizeof(q3));

	for (k = 0; k < 10; k++) {
		REQUIRE(rte_eth_dev_stop(port) == 0, "stop %d", k);
		if (k == 0) {
			/* made while stopped, after a stop */
			ff = restart_rule(&rf, F, 0, RTE_FLOW_ACTION_TYPE_QUEUE,
				RTE_FLOW_ACTION_TYPE_END, 1);
		}
		fs = octo_fstats(nic_port);
		if (keep)
			CHECK(fs.transfer_rules > 0, "stopped %d: the members keep rules, but the e-switch holds none",
				k);
		else
			CHECK(fs.transfer_rules == 0 && fs.ingress_rules == 0,
				"stopped %d: members that keep no rules still hold %u transfer and %u ingress rules",
				k, fs.transfer_rules, fs.ingress_rules);
		if (k == 8) {
			CHECK(rte_flow_isolate(port, 1, &err) == 0, "isolate while stopped: %s",
				err.message ? err.message : "?");
		}
		REQUIRE(rte_eth_dev_start(port) == 0, "start %d", k);
		fs = octo_fstats(nic_port);
		CHECK(fs.transfer_rules > fs_steer.transfer_rules,
			"started %d: %u transfer rules, the steering alone had %u", k,
			fs.transfer_rules, fs_steer.transfer_rules);
		if (k == 8) {
			/* isolated: only the rules' flows (A, B, R, and J's and
			 * F's through their rules) arrive
			 */
			run_phase_drop(NB_FLOWS - 5);
			for (f = 0; f < NB_FLOWS; f++)
				CHECK((f == A || f == B || f == R || f == J || f == F) ?
					flow_total(f) == PER_FLOW : flow_total(f) == 0,
					"isolated after restart %d: flow %d: %u packets", k, f,
					flow_total(f));
			CHECK(rte_flow_isolate(port, 0, &err) == 0, "isolate off");
			phases++;
			continue;
		}
		run_phase_drop(1);
		phases++;
		CHECK(flow_queue(A) == 2 && flow_total(A) == PER_FLOW,
			"restart %d: flow A at queue %d (%u packets)", k, flow_queue(A), flow_total(A));
		CHECK(flow_queue(B) == 1 && marked[1][B] == PER_FLOW && mark_val[B] == 0x77,
			"restart %d: flow B at queue %d, %u of %u marked 0x%x", k, flow_queue(B),
			marked[1][B], PER_FLOW, mark_val[B]);
		CHECK(flow_total(D) == 0, "restart %d: dropped flow D: %u packets", k,
			flow_total(D));
		q = flow_queue(R);
		CHECK((q == 0 || q == 3) && flow_total(R) == PER_FLOW,
			"restart %d: RSS flow R at queue %d", k, q);
		CHECK(flow_queue(J) == 3 && flow_total(J) == PER_FLOW,
			"restart %d: flow J (jump to group 1) at queue %d", k, flow_queue(J));
		CHECK(flow_queue(F) == 1 && flow_total(F) == PER_FLOW,
			"restart %d: flow F (rule made while stopped) at queue %d", k, flow_queue(F));
		hits = rule_hits(fa);
		CHECK(hits == phases * PER_FLOW,
			"restart %d: COUNT of A %" PRIu64 ", want %" PRIu64, k, hits,
			phases * PER_FLOW);
	}
	RTE_SET_USED(fb);
	RTE_SET_USED(fd);
	RTE_SET_USED(ff);
	flush_to(fs_steer.transfer_rules);
	octo_port_stop_close(port);
}

/*
 * The member rules of every application rule gone from the e-switch, the
 * port's records of them dropped (octopus_flows_forget_hw, as when the port
 * they were made through is released): what a replay makes again.
 */
static void
member_rules_lost(struct octopus_priv *p, uint16_t proxy)
{
	struct octopus_flow *f;
	uint32_t i;

	TAILQ_FOREACH(f, &p->flows->list, next)
		for (i = 0; i < f->nb_hw; i++)
			if (f->hw[i] != NULL)
				CHECK(rte_flow_destroy(f->proxy, f->hw[i], NULL) == 0,
					"removing a member rule");
	octopus_flows_forget_hw(p, proxy);
}

/*
 * A member out of room at rule 30 of an RSS expansion (the NIC model's
 * e-switch given room for 29 more rules): the 29 made are removed, the
 * error names the cause.  Then the rule's member rules are lost and
 * made again from its copy (what a restart or a returning member needs).
 */
static void
test_rollback(struct rte_mempool *mp)
{
	static const uint16_t q023[] = { 0, 2, 3 };
	struct rte_flow_attr attr = { .ingress = 1 };
	struct rte_flow_item items[] = OCTO_ITEMS_UDP;
	struct rte_flow_action_rss rss = { .queue_num = 3, .queue = q023 };
	struct rte_flow_action actions[] = { ACT(RSS, &rss), ACT(END, NULL) };
	struct rte_pmd_octonic_flow_stats fs0, fs;
	struct octopus_priv *p;
	struct rte_flow_error err;
	struct rte_flow *flow;
	uint16_t proxy = RTE_MAX_ETHPORTS, pf1;
	uint32_t held;
	int f;

	setup_port(mp, 0);
	p = rte_eth_devices[port].data->dev_private;
	CHECK(rte_flow_pick_transfer_proxy(nic_port, &proxy, NULL) == 0, "transfer proxy");
	fs0 = octo_fstats(nic_port);
	held = fs0.transfer_rules + fs0.ingress_rules;
	CHECK(rte_eth_dev_get_port_by_name("net_octonic0_pf1", &pf1) == 0 &&
		rte_pmd_octonic_flow_stats_get(pf1, &fs) == 0, "PF1's rules");
	held += fs.ingress_rules;
	CHECK(rte_pmd_octonic_flow_room_set(nic_port, held + 29) == 0, "room");
	memset(&err, 0, sizeof(err));
	flow = rte_flow_create(port, &attr, items, actions, &err);
	CHECK(rte_pmd_octonic_flow_room_set(nic_port, 0) == 0, "room");
	fs = octo_fstats(nic_port);
	CHECK(flow == NULL && err.message != NULL && strstr(err.message, "no room") != NULL &&
		rte_errno == ENOSPC,
		"half-made rule: %p, %s (%d)", (void *)flow, err.message ? err.message : "?",
		rte_errno);
	/* 29 made and removed again, and the probes of a first create */
	CHECK(fs.creates - fs0.creates >= 29 &&
		fs.creates - fs0.creates == fs.destroys - fs0.destroys &&
		fs.transfer_rules == fs0.transfer_rules,
		"rollback: %" PRIu64 " created, %" PRIu64 " removed, transfer rules %u -> %u",
		fs.creates - fs0.creates, fs.destroys - fs0.destroys, fs0.transfer_rules,
		fs.transfer_rules);
	CHECK(p->flows == NULL || p->flows->nb == 0, "a refused rule is kept");

	flow = rte_flow_create(port, &attr, items, actions, &err);
	CHECK(flow != NULL, "create: %s", err.message ? err.message : "?");
	member_rules_lost(p, proxy);
	fs = octo_fstats(nic_port);
	CHECK(fs.transfer_rules == fs0.transfer_rules, "lost: %u, want %u",
		fs.transfer_rules, fs0.transfer_rules);
	CHECK(octopus_flows_replay(p) == 0, "replay");
	fs = octo_fstats(nic_port);
	CHECK(fs.transfer_rules == fs0.transfer_rules + 64, "replayed: %u, want %u",
		fs.transfer_rules, fs0.transfer_rules + 64);
	run_phase();
	for (f = 0; f < NB_FLOWS; f++) {
		int q = flow_queue(f);

		CHECK((q == 0 || q == 2 || q == 3) && flow_total(f) == PER_FLOW,
			"after replay: flow %d at queue %d", f, q);
	}
	CHECK(rte_flow_destroy(port, flow, &err) == 0, "destroy");
	fs = octo_fstats(nic_port);
	CHECK(fs.transfer_rules == fs0.transfer_rules, "after destroy %u", fs.transfer_rules);
	octo_port_stop_close(port);
}

/* A rule that must be refused: by validate and create, with a message
 * containing @p text, and without any rule operation on the e-switch.
 */
static void
refused(const char *what, const struct rte_flow_attr *attr,
		const struct rte_flow_item *items, const struct rte_flow_action *actions,
		const char *text)
{
	struct rte_pmd_octonic_flow_stats fs0 = octo_fstats(nic_port), fs;
	struct rte_flow_error err;
	struct rte_flow *flow;

	memset(&err, 0, sizeof(err));
	CHECK(rte_flow_validate(port, attr, items, actions, &err) < 0, "%s: validated", what);
	CHECK(err.message != NULL && strstr(err.message, text) != NULL,
		"%s: validate says \"%s\", want \"%s\"", what,
		err.message ? err.message : "(none)", text);
	memset(&err, 0, sizeof(err));
	flow = rte_flow_create(port, attr, items, actions, &err);
	CHECK(flow == NULL, "%s: created", what);
	CHECK(err.message != NULL && strstr(err.message, text) != NULL,
		"%s: create says \"%s\", want \"%s\"", what,
		err.message ? err.message : "(none)", text);
	fs = octo_fstats(nic_port);
	/* nothing left: a probe's rule is destroyed as soon as made */
	CHECK(fs.creates - fs0.creates == fs.destroys - fs0.destroys &&
		fs.transfer_rules == fs0.transfer_rules && fs.ingress_rules == fs0.ingress_rules,
		"%s: rule operations %" PRIu64 "/%" PRIu64 " -> %" PRIu64 "/%" PRIu64, what,
		fs0.creates, fs0.destroys, fs.creates, fs.destroys);
	printf("refused %-22s: %s\n", what, err.message ? err.message : "");
}

static void
test_bad(struct rte_mempool *mp)
{
	const struct rte_flow_attr in = { .ingress = 1 }, out = { .egress = 1 };
	const struct rte_flow_attr transfer = { .ingress = 1, .transfer = 1 };
	const struct rte_flow_attr prio15 = { .ingress = 1, .priority = 15 };
	const struct rte_flow_attr group64 = { .ingress = 1, .group = 64 };
	struct rte_flow_item_ipv4 ip = { .hdr.src_addr = RTE_BE32(0x0a000001) };
	struct rte_flow_item udp_items[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4, .spec = &ip },
		{ .type = RTE_FLOW_ITEM_TYPE_UDP },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_item_meta meta = { .data = 1 };
	struct rte_flow_item meta_items[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_META, .spec = &meta },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_item eth_only[] = OCTO_ITEMS_ETH;
	struct rte_flow_action_queue q1 = { .index = 1 }, q9 = { .index = nb_q };
	struct rte_flow_action_port_id pid = { .id = 0 };
	struct rte_flow_action_mark mk1 = { .id = 1 }, mk2 = { .id = 2 };
	uint16_t rq[] = { 0, 1, 2 };
	struct rte_flow_action_rss rss = { .queue_num = 3, .queue = rq };
	struct rte_flow_action act_queue[] = OCTO_ACTIONS_QUEUE(&q1);
	/* what the port refuses, and words of the reason it gives */
	const struct {
		const char *what;
		const struct rte_flow_attr *attr;
		const struct rte_flow_item *items;
		struct rte_flow_action acts[4];
		const char *says;
	} bad[] = {
		{ "unknown action", &in, udp_items, { ACT(PORT_ID, &pid), ACT(END, NULL) },
			"action type" },
		{ "queue out of range", &in, udp_items, OCTO_ACTIONS_QUEUE(&q9), "queue index 4" },
		{ "egress", &out, udp_items, OCTO_ACTIONS_QUEUE(&q1), "egress" },
		{ "transfer", &transfer, udp_items, OCTO_ACTIONS_QUEUE(&q1), "transfer" },
		{ "meta item", &in, meta_items, OCTO_ACTIONS_QUEUE(&q1), "item type" },
		{ "no fate", &in, udp_items, { ACT(COUNT, NULL), ACT(END, NULL) }, "needs one of" },
		{ "two fates", &in, udp_items,
			{ ACT(QUEUE, &q1), ACT(DROP, NULL), ACT(END, NULL) }, "only one of" },
		{ "two marks", &in, udp_items,
			{ ACT(MARK, &mk1), ACT(MARK, &mk2), ACT(QUEUE, &q1), ACT(END, NULL) },
			"one mark or flag per rule" },
		{ "mark and flag", &in, udp_items,
			{ ACT(MARK, &mk1), ACT(FLAG, NULL), ACT(QUEUE, &q1), ACT(END, NULL) },
			"one mark or flag per rule" },
		{ "two counts", &in, udp_items,
			{ ACT(COUNT, NULL), ACT(COUNT, NULL), ACT(QUEUE, &q1), ACT(END, NULL) },
			"count given twice" },
		{ "priority 15", &prio15, udp_items, OCTO_ACTIONS_QUEUE(&q1), "priority 15" },
		{ "group 64", &group64, udp_items, OCTO_ACTIONS_QUEUE(&q1), "group 64" },
		{ "rss without IP", &in, eth_only, { ACT(RSS, &rss), ACT(END, NULL) },
			"IPv4 or IPv6" },
		{ "no pattern", &in, NULL, OCTO_ACTIONS_QUEUE(&q1), "pattern" },
	};
	struct rte_flow_error err;
	uint16_t null_port;
	unsigned int b;

	setup_port(mp, 0);
	for (b = 0; b < RTE_DIM(bad); b++)
		refused(bad[b].what, bad[b].attr, bad[b].items, bad[b].acts, bad[b].says);

	/* handles that are not the port's: refused, never followed, and a
	 * destroyed rule's handle stays refused after its slot is reused
	 */
	{
		struct rte_flow *h[2], *stale;
		uint8_t not_a_rule[64];
		int i;

		for (i = 0; i < 2; i++) {
			memset(&err, 0, sizeof(err));
			h[i] = rte_flow_create(port, &in, udp_items, act_queue, &err);
			CHECK(h[i] != NULL, "create %d: %s", i, err.message ? err.message : "?");
		}
		stale = h[0];
		CHECK(rte_flow_destroy(port, h[0], &err) == 0, "destroy");
		CHECK(rte_flow_destroy(port, stale, &err) == -EINVAL &&
			err.type == RTE_FLOW_ERROR_TYPE_HANDLE, "a destroyed handle destroyed again");
		CHECK(rte_flow_destroy(port, (struct rte_flow *)not_a_rule, &err) == -EINVAL,
			"an address as a handle");
		CHECK(rte_flow_destroy(port, (struct rte_flow *)(uintptr_t)100000, &err) ==
			-EINVAL, "a slot never used");
		/* the freed slot is taken again: h[0]'s value names the new rule */
		h[0] = rte_flow_create(port, &in, udp_items, act_queue, &err);
		CHECK(h[0] == stale, "freed slot not reused: %p, was %p", (void *)h[0],
			(void *)stale);
		for (i = 0; i < 2; i++)
			CHECK(h[i] != NULL && rte_flow_destroy(port, h[i], &err) == 0,
				"destroy %d", i);
		CHECK(rte_flow_destroy(port, h[1], &err) == -EINVAL, "h[1] again");
	}

	octo_port_stop_close(port);

	/* members without an e-switch */
	null_port = port_of("net_octopus1");
	CHECK(null_port < RTE_MAX_ETHPORTS, "no null-member port");
	{
		struct rte_eth_conf conf;
		struct rte_flow *flow;

		memset(&conf, 0, sizeof(conf));
		CHECK(rte_eth_dev_configure(null_port, 2, 2, &conf) == 0, "configure null");
		CHECK(rte_eth_rx_queue_setup(null_port, 0, 256, 0, NULL, mp) == 0 &&
			rte_eth_rx_queue_setup(null_port, 1, 256, 0, NULL, mp) == 0 &&
			rte_eth_tx_queue_setup(null_port, 0, 256, 0, NULL) == 0 &&
			rte_eth_tx_queue_setup(null_port, 1, 256, 0, NULL) == 0, "queues null");
		memset(&err, 0, sizeof(err));
		CHECK(rte_flow_validate(null_port, &in, udp_items, act_queue, &err) == -ENOTSUP,
			"null members: validate %s", err.message ? err.message : "?");
		CHECK(rte_eth_dev_start(null_port) == 0, "start null");
		memset(&err, 0, sizeof(err));
		flow = rte_flow_create(null_port, &in, udp_items, act_queue, &err);
		CHECK(flow == NULL && rte_errno == ENOTSUP && err.message != NULL &&
			strstr(err.message, "e-switch") != NULL,
			"null members: create %p errno %d: %s", (void *)flow, rte_errno,
			err.message ? err.message : "?");
		printf("refused on null members : %s\n", err.message ? err.message : "");
		CHECK(rte_eth_dev_stop(null_port) == 0, "stop null");
		CHECK(rte_eth_dev_close(null_port) == 0, "close null");
	}
}

/* Bytes DPDK's heaps have given out, every socket. */
static size_t
heap_bytes(void)
{
	struct rte_malloc_socket_stats st;
	size_t n = 0;
	unsigned int i;

	for (i = 0; i < rte_socket_count(); i++)
		if (rte_malloc_get_socket_stats(rte_socket_id_by_idx(i), &st) == 0)
			n += st.heap_allocsz_bytes;
	return n;
}

/* 512 rules made and destroyed through the port, then a flush. */
static void
slab_through_port(struct rte_mempool *mp)
{
	struct rte_flow_attr attr = { .ingress = 1 };
	struct rte_flow_item_ipv4 spec, mask;
	struct rte_flow_action_queue q0 = { .index = 0 };
	struct rte_flow_item items[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4, .spec = &spec, .mask = &mask },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_action actions[] = OCTO_ACTIONS_QUEUE(&q0);
	struct rte_flow *flows[512];
	struct rte_flow_error err;
	struct octopus_priv *p;
	size_t kept, flushed;
	unsigned int i;

	setup_port(mp, 0);
	p = rte_eth_devices[port].data->dev_private;
	memset(&spec, 0, sizeof(spec));
	memset(&mask, 0, sizeof(mask));
	mask.hdr.src_addr = RTE_BE32(0xffffffff);
	for (i = 0; i < RTE_DIM(flows); i++) {
		spec.hdr.src_addr = rte_cpu_to_be_32(RTE_IPV4(10, 9, i >> 8, i & 0xff));
		flows[i] = rte_flow_create(port, &attr, items, actions, &err);
		REQUIRE(flows[i] != NULL, "rule %u: %s", i, err.message ? err.message : "?");
	}
	for (i = 0; i < RTE_DIM(flows); i++)
		CHECK(rte_flow_destroy(port, flows[i], &err) == 0, "destroy %u", i);
	CHECK(p->flows != NULL && p->flows->slab.in_use == 0 &&
		p->flows->slab.chunks != NULL && p->flows->slab.chunks->next != NULL,
		"the records' chunks kept with every rule destroyed");
	kept = heap_bytes();
	CHECK(rte_flow_flush(port, &err) == 0, "flush: %s", err.message ? err.message : "?");
	flushed = heap_bytes();
	CHECK(p->flows->slab.chunks == NULL && flushed + 2 * 64 * 1024 <= kept,
		"flush gives the chunks back: %zu -> %zu bytes of DPDK's heap", kept, flushed);
	octo_port_stop_close(port);
}

/*
 * The rule records' memory (octopus_flow_slab): sizes by class of 64 bytes,
 * a freed record's memory reused by the next of its class, sizes above the
 * largest class from malloc, the chunks kept when nothing is in use (the
 * next records take them again), and nothing left after release. Through
 * the port: its records' chunks stay when its last rule is destroyed, and
 * rte_flow_flush gives them back to DPDK's heap.
 */
static void
test_slab(struct rte_mempool *mp)
{
	struct octopus_flow_slab s;
	struct rte_malloc_socket_stats before, mid, after;
	void *a, *b, *c, *big, *many[4096];
	uint8_t ca, cb, cc, cbig, cm[4096];
	unsigned int i;

	RTE_SET_USED(mp);
	memset(&s, 0, sizeof(s));
	rte_malloc_get_socket_stats(rte_socket_id(), &before);
	REQUIRE(octopus_flow_slab_get(&s, 200, &a, &ca) == 0, "get 200");
	REQUIRE(octopus_flow_slab_get(&s, 250, &b, &cb) == 0, "get 250");
	CHECK(ca == 4 && cb == 4, "200 and 250 bytes are class 4 (256): %u %u", ca, cb);
	CHECK((uintptr_t)a % 8 == 0 && (char *)b - (char *)a == 256,
		"one class, one stride: %p %p", a, b);
	memset(a, 0xa5, 200);
	memset(b, 0x5a, 250);
	octopus_flow_slab_put(&s, a, ca);
	REQUIRE(octopus_flow_slab_get(&s, 256, &c, &cc) == 0, "get 256");
	CHECK(c == a && cc == ca, "a freed record's memory serves the next of its class");
	REQUIRE(octopus_flow_slab_get(&s, OCTOPUS_FLOW_SLAB_CLASS *
		OCTOPUS_FLOW_SLAB_CLASSES + 1, &big, &cbig) == 0, "get big");
	CHECK(cbig == 0, "above the largest class: malloc (class %u)", cbig);
	memset(big, 0, OCTOPUS_FLOW_SLAB_CLASS * OCTOPUS_FLOW_SLAB_CLASSES + 1);
	CHECK(s.in_use == 3, "3 in use: %" PRIu64, s.in_use);
	octopus_flow_slab_put(&s, big, cbig);
	octopus_flow_slab_put(&s, b, cb);
	octopus_flow_slab_put(&s, c, cc);
	CHECK(s.in_use == 0 && s.chunks != NULL && s.chunks->next == NULL,
		"one chunk kept with nothing in use");
	/* more than one chunk: kept, and the records of a second round
	 * come from them (no chunk more)
	 */
	for (i = 0; i < RTE_DIM(many); i++)
		REQUIRE(octopus_flow_slab_get(&s, 448, &many[i], &cm[i]) == 0, "get %u", i);
	CHECK(s.chunks != NULL && s.chunks->next != NULL, "4096 x 448 bytes span chunks");
	rte_malloc_get_socket_stats(rte_socket_id(), &mid);
	for (i = 0; i < RTE_DIM(many); i++)
		octopus_flow_slab_put(&s, many[i], cm[i]);
	CHECK(s.in_use == 0 && s.chunks != NULL, "the chunks kept with nothing in use");
	for (i = 0; i < RTE_DIM(many); i++)
		REQUIRE(octopus_flow_slab_get(&s, 448, &many[i], &cm[i]) == 0, "again %u", i);
	rte_malloc_get_socket_stats(rte_socket_id(), &after);
	CHECK(after.heap_allocsz_bytes == mid.heap_allocsz_bytes,
		"a second round from the kept chunks: %zu -> %zu bytes",
		mid.heap_allocsz_bytes, after.heap_allocsz_bytes);
	for (i = 0; i < RTE_DIM(many); i++)
		octopus_flow_slab_put(&s, many[i], cm[i]);
	octopus_flow_slab_release(&s);
	CHECK(s.chunks == NULL, "every chunk back after release");
	rte_malloc_get_socket_stats(rte_socket_id(), &after);
	CHECK(after.heap_allocsz_bytes == before.heap_allocsz_bytes,
		"DPDK's heap as before: %zu -> %zu bytes", before.heap_allocsz_bytes,
		after.heap_allocsz_bytes);
	slab_through_port(mp);
}

/*
 * Open vSwitch's rules (its rte_flow offload, OVS 3.1 to 3.7): the partial
 * offload of a UDP datapath flow, eth type and has_vlan 0 / ipv4 proto and
 * fragment_offset 0 under 0x3fff ("not a fragment") / an unmasked udp item,
 * MARK + RSS over every queue, takes every generated flow (DF set), each to
 * one queue, every packet marked; its shape for later fragments (a
 * fragment_offset range 1..0x1fff, no L4 item: the spreading narrows the
 * address, whose last is left out) is taken by the model, refused by mlx5
 * with its reason; its full offload (transfer, output to a port) is refused
 * with the port's.
 */
static void
test_ovs(struct rte_mempool *mp)
{
	const char *dialect = getenv("OCTONIC_DIALECT");
	int mlx5 = dialect != NULL && strstr(dialect, "mlx5") != NULL;
	struct rte_flow_item_eth eth = { .hdr.ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV4) };
	struct rte_flow_item_eth ethm = { .hdr.ether_type = RTE_BE16(0xffff), .has_vlan = 1 };
	struct rte_flow_item_ipv4 ip = { .hdr.next_proto_id = IPPROTO_UDP };
	struct rte_flow_item_ipv4 ipm = { .hdr.next_proto_id = 0xff,
		.hdr.fragment_offset = RTE_BE16(0x3fff) };
	struct rte_flow_item_ipv4 later = { .hdr.fragment_offset = RTE_BE16(1) };
	struct rte_flow_item_ipv4 laterm = { .hdr.fragment_offset = RTE_BE16(0x1fff) };
	struct rte_flow_item_udp udp, udpm;
	struct rte_flow_item items[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH, .spec = &eth, .mask = &ethm },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4, .spec = &ip, .mask = &ipm },
		{ .type = RTE_FLOW_ITEM_TYPE_UDP, .spec = &udp, .mask = &udpm },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	uint16_t queues[MAX_Q];
	struct rte_flow_action_mark mark = { .id = 1 };
	struct rte_flow_action_rss rss = {
		.types = RTE_ETH_RSS_IP | RTE_ETH_RSS_UDP | RTE_ETH_RSS_TCP,
		.queue_num = nb_q, .queue = queues,
	};
	struct rte_flow_action actions[] = { ACT(MARK, &mark), ACT(RSS, &rss), ACT(END, NULL) };
	struct rte_flow_action_port_id out = { .id = 1 };
	struct rte_flow_action full[] = { ACT(COUNT, NULL), ACT(PORT_ID, &out), ACT(END, NULL) };
	struct rte_flow_attr attr = { .ingress = 1 }, transfer = { .transfer = 1 };
	struct rte_pmd_octonic_flow_stats fs0;
	struct rte_flow_error err;
	struct rte_flow *flow;
	uint32_t per_q[MAX_Q];
	int f, q, used = 0;

	memset(&udp, 0, sizeof(udp));
	memset(&udpm, 0, sizeof(udpm));
	for (q = 0; q < nb_q; q++)
		queues[q] = (uint16_t)q;
	setup_port(mp, 0);
	fs0 = octo_fstats(nic_port);

	/* partial offload: MARK + RSS */
	memset(&err, 0, sizeof(err));
	flow = rte_flow_create(port, &attr, items, actions, &err);
	REQUIRE(flow != NULL, "OVS's partial offload refused: %s",
		err.message != NULL ? err.message : "(no message)");
	run_phase();
	memset(per_q, 0, sizeof(per_q));
	for (f = 0; f < NB_FLOWS; f++) {
		q = flow_queue(f);
		CHECK(q >= 0 && flow_total(f) == PER_FLOW && marked[q][f] == PER_FLOW &&
			mark_val[f] == 1, "flow %d: queue %d, %u packets, %u marked (id %u)",
			f, q, flow_total(f), q >= 0 ? marked[q][f] : 0, mark_val[f]);
		if (q >= 0 && per_q[q]++ == 0)
			used++;
	}
	CHECK(used >= 2, "OVS's RSS spread its flows over %d queue(s)", used);
	CHECK(rte_flow_destroy(port, flow, &err) == 0, "destroy");
	rules_as_before(&fs0, "after destroy");

	/* later fragments: a range on fragment_offset */
	items[1].spec = &later;
	items[1].mask = &laterm;
	items[1].last = &laterm;
	items[2].type = RTE_FLOW_ITEM_TYPE_END;
	mark.id = 2;
	memset(&err, 0, sizeof(err));
	flow = rte_flow_create(port, &attr, items, actions, &err);
	if (mlx5) {
		CHECK(flow == NULL && err.message != NULL &&
			strstr(err.message, "must use full mask for fragment_offset") != NULL,
			"mlx5 took OVS's later-fragment match: %s",
			err.message != NULL ? err.message : "(no message)");
	} else {
		REQUIRE(flow != NULL, "OVS's later-fragment match refused: %s",
			err.message != NULL ? err.message : "(no message)");
		run_phase();
		for (f = 0; f < NB_FLOWS; f++) {
			q = flow_queue(f);
			CHECK(q >= 0 && flow_total(f) == PER_FLOW && marked[q][f] == 0,
				"no fragment generated, flow %d marked", f);
		}
		CHECK(rte_flow_destroy(port, flow, &err) == 0, "destroy");
	}

	/* full offload: refused, the port's reason */
	memset(&err, 0, sizeof(err));
	flow = rte_flow_create(port, &transfer, items, full, &err);
	CHECK(flow == NULL && err.type == RTE_FLOW_ERROR_TYPE_ATTR_TRANSFER &&
		err.message != NULL && strstr(err.message, "transfer") != NULL,
		"OVS's full offload: %s (type %d)",
		err.message != NULL ? err.message : "(no message)", err.type);
	rules_as_before(&fs0, "after the full offload");
	octo_port_stop_close(port);
}

/*
 * A new queue count under kept rules. Open vSwitch keeps its offloaded
 * rules (MARK + RSS over every Rx queue) across a change of n_rxq, so the
 * port takes a configure with fewer Rx queues than kept rules send to
 * (DPDK's flow guide would let it refuse): such a rule stays in its copy,
 * not installed, while its queue is missing (its flow spread as without
 * it, every packet received), and steers again once the port has its
 * queues back. With a QUEUE rule to the last queue and an RSS rule over
 * the first and the last, configured with half the Rx queues and back.
 */
static void
test_reconfigure(struct rte_mempool *mp)
{
	struct octo_port_conf c = {
		.nb_rxq = nb_q, .nb_txq = nb_q, .nb_desc = nb_pf > 2 ? NB_DESC_MANY : NB_DESC,
		.socket = OCTO_SOCKET_OF_LCORE, .pool = mp,
	};
	struct octo_port_conf half = c;
	uint16_t last = (uint16_t)(nb_q - 1), q0last[2] = { 0, last };
	struct rte_flow_action_rss rss = { .queue_num = 2, .queue = q0last };
	struct rte_flow_action to_rss[] = { ACT(RSS, &rss), ACT(END, NULL) };
	struct five_tuple_rule ra, rr;
	struct rte_flow *fa, *fr;
	struct rte_flow_error err;
	const int A = 1, R = 4;
	int q;

	half.nb_rxq = half.nb_txq = (uint16_t)(nb_q / 2);
	setup_port(mp, 0);
	run_phase();	/* learns the tuples */
	fa = restart_rule(&ra, A, 0, RTE_FLOW_ACTION_TYPE_QUEUE, RTE_FLOW_ACTION_TYPE_END, last);
	five_tuple(&rr, R);
	fr = rte_flow_create(port, &rr.attr, rr.pat.items, to_rss, &err);
	CHECK(fr != NULL, "RSS rule: %s", err.message ? err.message : "?");
	REQUIRE(rte_eth_dev_stop(port) == 0, "stop");
	REQUIRE(octo_port_setup(port, &half) == 0, "configured with %u Rx queues", half.nb_rxq);
	REQUIRE(rte_eth_dev_start(port) == 0, "start with %u Rx queues", half.nb_rxq);
	ph.poll.nb_q = half.nb_rxq;	/* the lcores of the others poll nothing */
	run_phase();
	ph.poll.nb_q = nb_q;
	printf("%u Rx queues: flow A at queue %d, R at %d; missed %" PRIu64 "\n", half.nb_rxq,
		flow_queue(A), flow_queue(R), imissed());
	CHECK(flow_total(A) == PER_FLOW && flow_total(R) == PER_FLOW,
		"%u Rx queues: flows A and R: %u and %u packets of %u", half.nb_rxq,
		flow_total(A), flow_total(R), PER_FLOW);
	REQUIRE(rte_eth_dev_stop(port) == 0, "stop");
	REQUIRE(octo_port_setup(port, &c) == 0, "configured with %u queues again", nb_q);
	REQUIRE(rte_eth_dev_start(port) == 0, "start");
	run_phase();
	CHECK(flow_queue(A) == last && flow_total(A) == PER_FLOW,
		"flow A at queue %d (%u packets), its rule sends to %u", flow_queue(A),
		flow_total(A), last);
	q = flow_queue(R);
	CHECK((q == 0 || q == last) && flow_total(R) == PER_FLOW,
		"RSS flow R at queue %d (%u packets)", q, flow_total(R));
	CHECK(fa != NULL && rte_flow_destroy(port, fa, &err) == 0, "destroy");
	CHECK(fr != NULL && rte_flow_destroy(port, fr, &err) == 0, "destroy");
	octo_port_stop_close(port);
}

static const struct octo_case cases[] = {
	{ "queue", test_queue }, { "rss", test_rss }, { "bad", test_bad },
	{ "isolate", test_isolate }, { "rollback", test_rollback }, { "slab", test_slab },
	{ "ovs", test_ovs }, { "restart", test_restart }, { "reconfigure", test_reconfigure },
};

int
main(int argc, char **argv)
{
	struct octo_pfs_main m;

	/* lcore q polls queue q: on socket q mod N */
	if (octo_pfs_main_begin(&m, argc, argv, 0, "octopus-flow", &nb_pf, &nb_q) != 0)
		return 2;
	/* beyond 2 PFs a quarter of the rate: a queue's 1024 descriptors
	 * hold half of what one queue may get in a phase (2048), and its
	 * poller shares the 2 CPUs with N others (ASan builds: slower)
	 */
	octo_eal_vdev(&m.a, "net_octonic0,%s,wire=gen,flows=%u,gen_rate=%u", m.e.nic, NB_FLOWS,
		nb_pf > 2 ? 50000 : 200000);
	/* beyond 2 PFs rx_pool=app: the port's own pools (rx_pool=local)
	 * mirror the application's on every member's socket, N times the
	 * memory of the shared hugepages; locality is not what this tests
	 */
	octo_eal_vdev(&m.a, "net_octopus0,%s%s", m.e.members, nb_pf > 2 ? ",rx_pool=app" : "");
	octo_eal_vdev(&m.a, "net_null0");
	octo_eal_vdev(&m.a, "net_null1");
	octo_eal_vdev(&m.a, "net_octopus1,member=net_null0,member=net_null1,"
		"socket_of=net_null0:0,socket_of=net_null1:1");
	if (octo_eal_start(&m.a, nb_q) < 0 || !octo_pfs_sockets_ok(nb_pf))
		return 2;
	m.mp = octo_app_pool("app", nb_pf > 2 ? nb_pf * nb_q * NB_DESC_MANY + 8192 : 16384, 0);
	if (m.mp == NULL)
		return 2;
	port = port_of("net_octopus0");
	nic_port = octo_gen_pf("net_octonic0_pf0");
	ph.poll.port = port;
	ph.poll.nb_q = nb_q;
	/* beyond 2 PFs, more pollers than this 2-CPU machine's CPUs */
	ph.poll.idle_sleep = nb_pf > 2;
	ph.gen_port = nic_port;
	ph.nb_flows = NB_FLOWS;
	ph.each = count_marks;
	return octo_case_main(cases, RTE_DIM(cases), m.which, argv[0], m.mp);
}
