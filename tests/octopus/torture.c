/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Torture run: net_octopus over N net_octonic PFs on N emulated
 * sockets (--pfs 2..8, run under tools/octopus-numa-emu --nodes N), the
 * model's generator on (1024 sequence-numbered UDP flows), lcores 1..N+1
 * (lcore k on socket k mod N) forwarding each virtual queue back to the
 * wire, while the main lcore applies a random sequence of operations for
 * --duration seconds, chosen by a seeded generator (--seed, printed):
 *
 *   mig_api    a queue moved to another socket's lcore by the API
 *              (rte_pmd_octopus_queue_migrate_lcore), its poller follows
 *   mig_auto   automatic migration on, a queue's poller moved to another
 *              socket's lcore: the port follows it
 *   auto       automatic migration switched on or off
 *   reta       the RETA rewritten at random over the queues
 *   rule       a synchronous 5-tuple QUEUE rule for one of 16 flows made,
 *              moved to another queue (destroy + create, or make before
 *              break) or destroyed
 *   tmpl       the same for 16 other flows with template rules
 *              (rte_flow_async_create/destroy on a table of the port, each
 *              pushed and its completion pulled before the next operation)
 *   member     a PF (never PF0, the transfer proxy) unplugged, or the one
 *              out plugged back (rte_pmd_octonic_unplug/plug)
 *   restart    port stop and start
 *   reconf     port stop, configure with another number of queues (rules
 *              destroyed first: they may name a queue that goes), start
 *
 * --ops KIND,... applies only those kinds (all by default). *
 * --contend N starts N threads that spin on every CPU of the process for
 * the whole run (CPU contention).
 *
 * Before each stop (restart, reconf) and at the end, the generator is
 * paused and the port drained (with a deadline): that ends an epoch, whose
 * balance is checked exactly: frames generated = delivered to the pollers
 * + the port's NIC drops (imissed: ring full, steered to a PF down, to a
 * queue not started) + what sat in a lost member's rings
 * (outage_lost_packets) + what the port had read but freed at the stop
 * (stop_freed_packets, its stash or held[]; checked 0 apart, as the drain
 * should leave none), 0 unexplained; delivered = reached the wire + the
 * port's Tx drops (oerrors, a Tx member unplugged) + what the pollers could
 * not send. And across the run: 0 frames reordered or duplicated at Rx
 * (per flow) and at the NIC's sink, no foreign frame, no gate timeout (none
 * is caused here), every kind of operation applied at least once. The
 * model's drop counters by reason are printed next to imissed.
 *
 * Not applied: member detach/reattach, device-fatal loss, stop under traffic (the model drops what a stopped
 * PF's rings hold without counting it, so each stop comes after a drain).
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_flow.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#include <octopus_dpdk_compat.h>

#include "octo_wire.h"
#include "rte_pmd_octonic.h"
#include "rte_pmd_octopus.h"

#include "../common/octo_check.h"
#include "../common/octo_dialect.h"
#include "../common/octo_flow_rule.h"
#include "../common/octo_gen_flow.h"
#include "../common/octo_hold.h"
#include "../common/octo_pfs.h"
#include "../common/octo_port.h"
#include "../common/octo_state.h"
#include "../common/octo_seq_check.h"
#include "../common/octo_test_eal.h"

#define NB_FLOWS 1024
#define NB_PIN 16		/* flows the rules pick from ... */
#define NB_TPIN 16		/* ... and the template rules, after them */
#define TMPL_FQ 0		/* the flow queue of the template rules */
#define MAX_Q 16
#define MAX_CONTEND 16
#define QUIESCE_S 10		/* deadline of a drain */

enum op {
	OP_MIG_API, OP_MIG_AUTO, OP_AUTO, OP_RETA, OP_RULE, OP_TMPL, OP_MEMBER,
	OP_RESTART, OP_RECONF, OP_MAX
};
static const char *const op_name[OP_MAX] = {
	"mig_api", "mig_auto", "auto", "reta", "rule", "tmpl", "member", "restart",
	"reconf",
};
/* relative frequency of each */
static unsigned int op_weight[OP_MAX] = { 20, 15, 3, 15, 25, 15, 4, 2, 2 };

/* Keep only the kinds named in @p list (comma-separated); false if one is unknown. */
static bool
ops_only(const char *list)
{
	unsigned int keep[OP_MAX] = { 0 }, i;
	char buf[256], *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < OP_MAX && strcmp(tok, op_name[i]) != 0; i++)
			;
		if (i == OP_MAX)
			return false;
		keep[i] = 1;
	}
	for (i = 0; i < OP_MAX; i++)
		op_weight[i] *= keep[i];
	return true;
}

static unsigned int nb_pf;
static uint16_t port, pf[OCTO_PFS_MAX], nb_q, nb_desc;
static int owner[MAX_Q];		/* lcore polling queue q, -1: none */
static int holder[MAX_Q];		/* 1 while an lcore is in a burst of q */
static uint64_t received, tx_unsent;
static volatile int stop;

/* per flow, shared by the lcores (a flow moves between queues) */
static uint64_t next_seq[NB_FLOWS];
static uint64_t reordered, duplicated, foreign;
static rte_be32_t pin_src[NB_PIN + NB_TPIN];
static rte_be16_t pin_sport[NB_PIN + NB_TPIN];
static int pin_known[NB_PIN + NB_TPIN];
static struct rte_flow *pin_rule[NB_PIN + NB_TPIN];	/* sync, then template */
static struct rte_flow_template_table *tmpl_table;

static uint64_t op_ok[OP_MAX], op_refused[OP_MAX], op_max_cyc[OP_MAX];
static int member_out = -1;	/* the PF unplugged, -1: none */
static uint64_t rng;

static volatile int contend_stop;
static uint64_t contend_spins[MAX_CONTEND];

static uint64_t
rnd(void)
{
	/* xorshift64* */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dull;
}

static unsigned int
rnd_below(unsigned int n)
{
	return (unsigned int)(rnd() % n);
}

#define LD(x) rte_atomic_load_explicit(&(x), rte_memory_order_acquire)
#define ST(x, v) rte_atomic_store_explicit(&(x), (v), rte_memory_order_release)
#define INC(x, n) rte_atomic_fetch_add_explicit(&(x), (n), rte_memory_order_relaxed)

/* Per-flow order of frame @p m, and the addresses of the flows rules pin. */
/* The first frames found out of order: where, for the log. */
struct reorder_ev {
	uint16_t q;
	int lcore;
	uint32_t flow;
	uint64_t seq, next, tsc;
};
static struct reorder_ev reorder_evs[8];

static void
reorder_note(uint16_t q, uint32_t flow, uint64_t seq, uint64_t next)
{
	uint64_t k = INC(reordered, 1);

	if (k < RTE_DIM(reorder_evs))
		reorder_evs[k] = (struct reorder_ev){ q, (int)rte_lcore_id(), flow, seq, next,
			rte_get_timer_cycles() };
}

static void
account(uint16_t q, struct rte_mbuf *m)
{
	const struct octo_wire_payload *pl;
	uint64_t seq, next;
	uint32_t flow;
	rte_be32_t src;
	rte_be16_t sport;

	if (rte_pktmbuf_data_len(m) < OCTO_SEQ_UDP4_PAYLOAD_OFF + sizeof(*pl)) {
		INC(foreign, 1);
		return;
	}
	pl = rte_pktmbuf_mtod_offset(m, const struct octo_wire_payload *, OCTO_SEQ_UDP4_PAYLOAD_OFF);
	flow = rte_be_to_cpu_32(pl->flow_id);
	seq = rte_be_to_cpu_64(pl->seq);
	if (rte_be_to_cpu_32(pl->magic) != OCTO_WIRE_MAGIC || flow >= NB_FLOWS) {
		INC(foreign, 1);
		return;
	}
	/* next_seq: the highest seen + 1; a flow is delivered by one queue
	 * at a time (the gates), so only its current poller writes it
	 */
	next = LD(next_seq[flow]);
	if (seq + 1 == next)
		INC(duplicated, 1);
	else if (seq < next)
		reorder_note(q, flow, seq, next);
	else
		ST(next_seq[flow], seq + 1);
	if (flow < NB_PIN + NB_TPIN && !LD(pin_known[flow]) &&
			octo_gen_flow_of(m, NB_PIN + NB_TPIN, &src, &sport) == (int)flow) {
		pin_src[flow] = src;
		pin_sport[flow] = sport;
		ST(pin_known[flow], 1);
	}
}

/* One burst of queue @p q: receive, check, send back; the packets it took. */
static uint64_t
forward(uint16_t q)
{
	struct rte_mbuf *pkts[32];
	unsigned int tries = 0;
	uint16_t n, k, i;

	n = rte_eth_rx_burst(port, q, pkts, RTE_DIM(pkts));
	for (i = 0; i < n; i++)
		account(q, pkts[i]);
	/* an empty Tx burst still runs the NIC model and the Tx drain */
	k = rte_eth_tx_burst(port, q, pkts, n);
	while (k < n && ++tries < 1000)
		k += rte_eth_tx_burst(port, q, pkts + k, n - k);
	if (k < n) {
		INC(tx_unsent, n - k);
		rte_pktmbuf_free_bulk(pkts + k, n - k);
	}
	INC(received, n);
	return n;
}

static int
worker(void *arg)
{
	RTE_SET_USED(arg);
	/* N+1 pollers and the contenders share this host's CPUs */
	octo_hold_poll(owner, holder, MAX_Q, &stop, forward, true);
	return 0;
}

static void *
contender(void *arg)
{
	uint64_t *spins = arg;

	while (!contend_stop)
		rte_atomic_fetch_add_explicit(spins, 1, rte_memory_order_relaxed);
	return NULL;
}

/* Lcore on socket @p s for queue @p q (lcores 1..N+1, lcore k on k mod N). */
static int
lcore_on(unsigned int s, uint16_t q)
{
	if (s == 0)
		return (int)nb_pf;
	if (s == 1)
		return (q & 1) ? 1 : (int)nb_pf + 1;
	return (int)s;
}

/* Take every queue from its poller (each out of its burst); @p saved gets them. */
static void
pollers_park(int *saved)
{
	uint16_t q;

	for (q = 0; q < MAX_Q; q++) {
		saved[q] = LD(owner[q]);
		ST(owner[q], -1);
	}
	/* the owners' stores before the holders' loads: without it a poller
	 * that took a queue (octo_hold) and read its owner before our store
	 * showed can be missed here, and burst on a stopped port
	 */
	rte_atomic_thread_fence(rte_memory_order_seq_cst);
	for (q = 0; q < MAX_Q; q++)
		while (LD(holder[q]) != 0)
			rte_pause();
}

static void
pollers_home(void)
{
	uint16_t q;

	for (q = 0; q < MAX_Q; q++)
		ST(owner[q], q < nb_q ? lcore_on(q % nb_pf, q) : -1);
}

/* What an epoch's balance is made of. */
struct counts {
	uint64_t gen, received, tx_unsent;
	uint64_t imissed, oerrors, outage, stop_freed;
	/* the model's drops by reason, all PFs */
	uint64_t ring_full, port_down, no_queue, flow_drop, nombuf, tx_down;
	uint64_t sink_pkts, gate_timeouts;
};

/* Sum of the xstats of @p p whose name ends with @p suffix. */
static uint64_t
xstat_sum(uint16_t p, const char *suffix)
{
	struct rte_eth_xstat_name *names;
	struct rte_eth_xstat *xs;
	size_t ls = strlen(suffix), ln;
	int n = rte_eth_xstats_get_names(p, NULL, 0), i;
	uint64_t sum = 0;

	if (n <= 0)
		return 0;
	names = calloc((size_t)n, sizeof(*names));
	xs = calloc((size_t)n, sizeof(*xs));
	if (names != NULL && xs != NULL &&
	    rte_eth_xstats_get_names(p, names, (unsigned int)n) == n &&
	    rte_eth_xstats_get(p, xs, (unsigned int)n) == n)
		for (i = 0; i < n; i++) {
			ln = strlen(names[i].name);
			if (ln >= ls && strcmp(names[i].name + ln - ls, suffix) == 0)
				sum += xs[i].value;
		}
	free(names);
	free(xs);
	return sum;
}

static void
counts_get(struct counts *c)
{
	struct rte_pmd_octonic_sink_stats sink;
	struct rte_eth_stats st;
	unsigned int i;

	memset(c, 0, sizeof(*c));
	rte_pmd_octonic_gen_count(pf[0], &c->gen);
	c->received = LD(received);
	c->tx_unsent = LD(tx_unsent);
	memset(&st, 0, sizeof(st));
	rte_eth_stats_get(port, &st);
	c->imissed = st.imissed;
	c->oerrors = st.oerrors;
	c->outage = xstat_sum(port, "outage_lost_packets");
	c->stop_freed = xstat_sum(port, "stop_freed_packets");
	c->gate_timeouts = xstat_sum(port, "_gate_timeouts");
	for (i = 0; i < nb_pf; i++) {
		c->ring_full += xstat_sum(pf[i], "_missed_packets");
		c->nombuf += xstat_sum(pf[i], "_nombuf");
		c->port_down += xstat_sum(pf[i], "rx_port_down_drop_packets");
		c->no_queue += xstat_sum(pf[i], "rx_no_queue_drop_packets");
		c->flow_drop += xstat_sum(pf[i], "rx_flow_drop_packets");
		c->tx_down += xstat_sum(pf[i], "tx_port_down_drop_packets");
	}
	memset(&sink, 0, sizeof(sink));
	rte_pmd_octonic_sink_stats_get(pf[0], &sink);
	c->sink_pkts = sink.pkts;
}

/* d = b - a, field by field */
static void
counts_sub(struct counts *d, const struct counts *b, const struct counts *a)
{
	const uint64_t *pb = (const uint64_t *)b, *pa = (const uint64_t *)a;
	uint64_t *pd = (uint64_t *)d;
	size_t i;

	for (i = 0; i < sizeof(*d) / sizeof(uint64_t); i++)
		pd[i] = pb[i] - pa[i];
}

static void
counts_add(struct counts *t, const struct counts *d)
{
	const uint64_t *pd = (const uint64_t *)d;
	uint64_t *pt = (uint64_t *)t;
	size_t i;

	for (i = 0; i < sizeof(*t) / sizeof(uint64_t); i++)
		pt[i] += pd[i];
}

static struct counts epoch_base, total;
static unsigned int epochs;
static uint64_t rx_unexplained, tx_unexplained;

/*
 * Whether the PFs' Rx rings of the port's queues are empty (a PF
 * unplugged is not looked at: what its rings hold is lost with it). A
 * queue behind a gate delivers nothing for as long as the gate waits (a
 * descheduled source is waited for): no progress alone is not drained.
 */
static bool
rings_empty(void)
{
	unsigned int i;
	uint16_t q;

	for (i = 0; i < nb_pf; i++)
		for (q = 0; q < nb_q && (int)i != member_out; q++)
			if (rte_eth_rx_queue_count(pf[i], q) > 0)
				return false;
	return true;
}

/* What holds a drain up: each queue's rings, poller and migration state. */
static void
drain_report(uint64_t rx_moved, uint64_t sink_moved)
{
	struct rte_pmd_octopus_migration st;
	unsigned int i;
	uint16_t q;
	int c;

	printf("drain: last 20 ms: %" PRIu64 " received, %" PRIu64 " at the sink; PF out %d\n",
		rx_moved, sink_moved, member_out);
	for (q = 0; q < nb_q; q++) {
		printf("drain: queue %u: poller %d holder %d", q, LD(owner[q]), LD(holder[q]));
		for (i = 0; i < nb_pf; i++) {
			c = rte_eth_rx_queue_count(pf[i], q);
			if (c != 0)
				printf(" pf%u ring %d", i, c);
		}
		if (rte_pmd_octopus_migration_get(port, q, 0, &st) == 0)
			printf(" phase %d home %u old %u gates %" PRIu64 " gated_bursts %" PRIu64
				" gate_timeouts %" PRIu64, (int)st.phase, st.home_member,
				st.old_member, st.gates, st.gated_bursts, st.gate_timeouts);
		printf("\n");
	}
}

/*
 * Pause the generator and wait until the pollers take nothing more, the
 * sink gets nothing more and the rings are empty; false after QUIESCE_S
 * (what held it up printed, then watched until it drains or 60 s more).
 */
static bool
drain(void)
{
	struct rte_pmd_octonic_sink_stats s;
	uint64_t hz = rte_get_timer_hz(), t0 = rte_get_timer_cycles();
	uint64_t end = t0 + QUIESCE_S * hz;
	uint64_t r0, s0, dr = 0, ds = 0;
	unsigned int calm = 0, nw = 0, nr = 0, ns = 0, ne = 0;
	bool late = false;

	rte_pmd_octonic_gen_enable(pf[0], 0);
	for (;;) {
		if (rte_get_timer_cycles() >= end) {
			if (late) {
				drain_report(dr, ds);
				printf("drain: still not drained 60 s later\n");
				return false;
			}
			drain_report(dr, ds);
			late = true;
			end += 60 * hz;
		}
		r0 = LD(received);
		rte_pmd_octonic_sink_stats_get(pf[0], &s);
		s0 = s.pkts;
		rte_delay_ms(20);
		rte_pmd_octonic_sink_stats_get(pf[0], &s);
		dr = LD(received) - r0;
		ds = s.pkts - s0;
		nr += dr != 0;
		ns += ds != 0;
		ne += !rings_empty();
		nw++;
		calm = dr == 0 && ds == 0 && rings_empty() ? calm + 1 : 0;
		if (calm >= 5)
			break;
	}
	if (late) {
		printf("drain: drained after %.1f s, %u windows: %u received, %u at the sink, %u rings not empty\n",
			(double)(rte_get_timer_cycles() - t0) / (double)hz, nw, nr, ns, ne);
		drain_report(dr, ds);
	}
	return !late;
}

/* End an epoch (generator paused, port drained, pollers parked): check its balance. */
static void
epoch_end(void)
{
	struct counts now, d;
	int64_t rx_u, tx_u;

	counts_get(&now);
	counts_sub(&d, &now, &epoch_base);
	counts_add(&total, &d);
	epochs++;
	/* frames the port read but freed at a stop are counted apart: they
	 * are explained, yet a drain before the stop should have left none
	 */
	rx_u = (int64_t)(d.gen - d.received - d.imissed - d.outage - d.stop_freed);
	tx_u = (int64_t)(d.received - d.sink_pkts - d.oerrors - d.tx_unsent);
	if (rx_u != 0 || tx_u != 0 ||
	    d.imissed != d.ring_full + d.port_down + d.no_queue + d.flow_drop)
		printf("epoch %u: generated %" PRIu64 " delivered %" PRIu64 " imissed %" PRIu64
			" (ring full %" PRIu64 ", PF down %" PRIu64 ", no queue %" PRIu64
			", DROP rule %" PRIu64 ") lost-member rings %" PRIu64
			" -> unexplained %" PRId64 "; wire %" PRIu64 " oerrors %" PRIu64
			" unsent %" PRIu64 " -> unexplained %" PRId64 "\n", epochs, d.gen,
			d.received, d.imissed, d.ring_full, d.port_down, d.no_queue, d.flow_drop,
			d.outage, rx_u, d.sink_pkts, d.oerrors, d.tx_unsent, tx_u);
	CHECK(rx_u == 0, "epoch %u: %" PRId64 " frames generated and not accounted for",
		epochs, rx_u);
	CHECK(d.stop_freed == 0, "epoch %u: %" PRIu64 " frames the port read were freed "
		"at a stop after the drain (its stash or held[] never given out)",
		epochs, d.stop_freed);
	CHECK(tx_u == 0, "epoch %u: %" PRId64 " frames delivered and not accounted for",
		epochs, tx_u);
	CHECK(d.imissed == d.ring_full + d.port_down + d.no_queue + d.flow_drop,
		"epoch %u: imissed %" PRIu64 " is not the model's drops by reason %" PRIu64,
		epochs, d.imissed, d.ring_full + d.port_down + d.no_queue + d.flow_drop);
	if (d.gate_timeouts != 0)
		printf("epoch %u: %" PRIu64 " gate timeout(s)\n", epochs, d.gate_timeouts);
	rx_unexplained += rx_u < 0 ? (uint64_t)-rx_u : (uint64_t)rx_u;
	tx_unexplained += tx_u < 0 ? (uint64_t)-tx_u : (uint64_t)tx_u;
}

static void
epoch_begin(void)
{
	counts_get(&epoch_base);
}

/*
 * The port's flow queue (rte_flow_configure, stopped: a second one with the
 * same settings changes nothing) and, once, the table of the template
 * rules: eth / ipv4 src / udp src -> QUEUE, the index per rule.
 */
static int
tmpl_setup(void)
{
	static const struct rte_flow_item_ipv4 ip_mask = {
		.hdr.src_addr = RTE_BE32(0xffffffff) };
	static const struct rte_flow_item_udp udp_mask = { .hdr.src_port = RTE_BE16(0xffff) };
	const struct rte_flow_item items[] = OCTO_ITEMS_UDP_MASK(&ip_mask, &udp_mask);
	const struct rte_flow_action_queue q0 = { .index = 0 };
	const struct rte_flow_action acts[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &q0 },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	const struct rte_flow_port_attr pa = { .nb_counters = 0 };
	const struct rte_flow_queue_attr qa = { .size = 64 };
	const struct rte_flow_queue_attr *qas[] = { &qa };
	const struct rte_flow_pattern_template_attr pta = {
		.relaxed_matching = 1, .ingress = 1 };
	const struct rte_flow_actions_template_attr ata = { .ingress = 1 };
	struct rte_flow_template_table_attr tta = {
		.flow_attr = { .ingress = 1 },
		/* a rule moved make-before-break is there twice for a moment */
		.nb_flows = 2 * NB_TPIN,
	};
	struct rte_flow_pattern_template *pt;
	struct rte_flow_actions_template *at;
	struct rte_flow_error err;

	memset(&err, 0, sizeof(err));
	if (rte_flow_configure(port, &pa, 1, qas, &err) != 0) {
		printf("rte_flow_configure: %s\n", err.message ? err.message : "?");
		return -1;
	}
	if (tmpl_table != NULL)
		return 0;
	/* a zero index under the mask: the index is each rule's */
	pt = rte_flow_pattern_template_create(port, &pta, items, &err);
	at = pt == NULL ? NULL :
		rte_flow_actions_template_create(port, &ata, acts, acts, &err);
	tmpl_table = at == NULL ? NULL :
		rte_flow_template_table_create(port, &tta, &pt, 1, &at, 1, &err);
	if (tmpl_table == NULL)
		printf("templates: %s\n", err.message ? err.message : "?");
	return tmpl_table != NULL ? 0 : -1;
}

static int
port_bringup(struct rte_mempool *mp)
{
	struct octo_port_conf c = {
		.nb_rxq = nb_q, .nb_txq = nb_q, .nb_desc = nb_desc,
		.socket = OCTO_SOCKET_SPREAD, .pool = mp, .rss = 1,
	};
	int ret = octo_port_setup(port, &c);

	if (ret == 0)
		ret = tmpl_setup();
	return ret != 0 ? ret : rte_eth_dev_start(port);
}

/*
 * Wait for the completion of the template operation just enqueued on
 * TMPL_FQ (pushed here), at most 1 s: 0 when it succeeded.
 */
static int
tmpl_complete(void)
{
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz();
	struct rte_flow_op_result res;
	struct rte_flow_error err;
	int k;

	do {
		rte_flow_push(port, TMPL_FQ, &err);
		k = rte_flow_pull(port, TMPL_FQ, &res, 1, &err);
		if (k != 0)
			return k == 1 && res.status == RTE_FLOW_OP_SUCCESS ? 0 : -EIO;
	} while (rte_get_timer_cycles() < end);
	return -ETIMEDOUT;
}

/* Template rule of flow NB_PIN + @p f to queue @p q into *@p r. */
static int
tmpl_create(unsigned int f, uint16_t q, struct rte_flow **r)
{
	const struct rte_flow_op_attr op = { .postpone = 1 };
	struct rte_flow_item_ipv4 ip = { .hdr.src_addr = pin_src[NB_PIN + f] };
	struct rte_flow_item_udp udp = { .hdr.src_port = pin_sport[NB_PIN + f] };
	const struct rte_flow_item items[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4, .spec = &ip },
		{ .type = RTE_FLOW_ITEM_TYPE_UDP, .spec = &udp },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	const struct rte_flow_action_queue qc = { .index = q };
	const struct rte_flow_action acts[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &qc },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_error err;
	int ret;

	memset(&err, 0, sizeof(err));
	*r = rte_flow_async_create(port, TMPL_FQ, &op, tmpl_table, items, 0, acts, 0,
		NULL, &err);
	if (*r == NULL) {
		printf("tmpl: flow %u to queue %u refused: %s\n", NB_PIN + f, q,
			err.message ? err.message : "?");
		return -1;
	}
	ret = tmpl_complete();
	CHECK(ret == 0, "tmpl: flow %u to queue %u: completion %d", NB_PIN + f, q, ret);
	return ret;
}

static void
tmpl_destroy(struct rte_flow *r)
{
	const struct rte_flow_op_attr op = { .postpone = 1 };
	struct rte_flow_error err;
	int ret;

	memset(&err, 0, sizeof(err));
	ret = rte_flow_async_destroy(port, TMPL_FQ, &op, r, NULL, &err);
	CHECK(ret == 0, "tmpl: destroy refused: %s", err.message ? err.message : "?");
	if (ret == 0) {
		ret = tmpl_complete();
		CHECK(ret == 0, "tmpl: destroy: completion %d", ret);
	}
}

/* Destroy rule @p i of pin_rule[] (synchronous or template), if made. */
static void
pin_destroy(unsigned int i, const char *why)
{
	struct rte_flow_error err;

	if (pin_rule[i] == NULL)
		return;
	if (i >= NB_PIN) {
		tmpl_destroy(pin_rule[i]);
	} else {
		memset(&err, 0, sizeof(err));
		CHECK(rte_flow_destroy(port, pin_rule[i], &err) == 0, "destroy %s: %s",
			why, err.message ? err.message : "?");
	}
	pin_rule[i] = NULL;
}

/* Park, drain, check the epoch, stop; @p reconf: with another queue count. */
static void
op_restart(struct rte_mempool *mp, bool reconf)
{
	int saved[MAX_Q], ret;
	unsigned int i;
	uint16_t was = nb_q;

	/* rules first, the pollers still there: a rule change gates queues
	 * and waits for their pollers (a parked queue times its gate out)
	 */
	if (reconf)
		for (i = 0; i < NB_PIN + NB_TPIN; i++)
			pin_destroy(i, "before reconf");
	CHECK(drain(), "drain before a stop: still receiving after %d s", QUIESCE_S);
	pollers_park(saved);
	ret = rte_eth_dev_stop(port);
	CHECK(ret == 0, "stop: %d", ret);
	/* after the stop: what the port freed then is in this epoch */
	epoch_end();
	if (reconf) {
		/* N/2, N or 3N/2 queues (at least 2), another than now */
		static const unsigned int mul[] = { 1, 2, 3 };

		do
			nb_q = (uint16_t)RTE_MAX(2u, nb_pf * mul[rnd_below(3)] / 2);
		while (nb_q == was);
		ret = port_bringup(mp);
		CHECK(ret == 0, "reconfigure with %u queues: %d", nb_q, ret);
	} else {
		ret = rte_eth_dev_start(port);
		CHECK(ret == 0, "start: %d", ret);
	}
	op_ok[reconf ? OP_RECONF : OP_RESTART] += ret == 0;
	epoch_begin();
	if (reconf)
		pollers_home();
	else
		for (i = 0; i < MAX_Q; i++)
			ST(owner[i], saved[i]);
	rte_pmd_octonic_gen_enable(pf[0], 1);
}

static int
pin_create(unsigned int f, uint16_t q, struct rte_flow **r)
{
	struct rte_flow_error err;

	*r = octo_flow_to_queue(port, pin_src[f], pin_sport[f], q, &err);
	if (*r == NULL)
		printf("rule: flow %u to queue %u refused: %s\n", f, q,
			err.message ? err.message : "?");
	return *r != NULL ? 0 : -1;
}

/*
 * Make, move or destroy the rule of one of the first NB_PIN flows
 * (synchronous) or of the NB_TPIN after them (@p tmpl: template rules).
 */
static int
op_rule(bool tmpl)
{
	unsigned int f = rnd_below(tmpl ? NB_TPIN : NB_PIN), how = rnd_below(3);
	unsigned int i = tmpl ? NB_PIN + f : f;
	uint16_t q = (uint16_t)rnd_below(nb_q);
	int (*create)(unsigned int, uint16_t, struct rte_flow **) =
		tmpl ? tmpl_create : pin_create;
	struct rte_flow *r;

	if (!LD(pin_known[i]))
		return -ENOENT;
	if (pin_rule[i] == NULL)
		return create(f, q, &pin_rule[i]);
	if (how == 0) {
		pin_destroy(i, "");
		return 0;
	}
	if (how == 1) {
		/* make before break */
		if (create(f, q, &r) != 0)
			return -EIO;
		pin_destroy(i, "(mbb)");
		pin_rule[i] = r;
		return 0;
	}
	pin_destroy(i, "(move)");
	return create(f, q, &pin_rule[i]);
}

static int
op_reta(void)
{
	struct rte_eth_rss_reta_entry64 conf[RTE_ETH_RSS_RETA_SIZE_512 / RTE_ETH_RETA_GROUP_SIZE];
	struct rte_eth_dev_info info;
	unsigned int b;

	if (rte_eth_dev_info_get(port, &info) != 0 || info.reta_size == 0 ||
			info.reta_size > RTE_ETH_RSS_RETA_SIZE_512)
		return -ENOTSUP;
	memset(conf, 0, sizeof(conf));
	for (b = 0; b < info.reta_size; b++) {
		conf[b / RTE_ETH_RETA_GROUP_SIZE].mask |= 1ull << (b % RTE_ETH_RETA_GROUP_SIZE);
		conf[b / RTE_ETH_RETA_GROUP_SIZE].reta[b % RTE_ETH_RETA_GROUP_SIZE] =
			(uint16_t)rnd_below(nb_q);
	}
	return rte_eth_dev_rss_reta_update(port, conf, info.reta_size);
}

static int
op_migrate(bool api)
{
	uint16_t q = (uint16_t)rnd_below(nb_q);
	struct rte_pmd_octopus_migration r;
	unsigned int to;
	int lc, ret = 0;

	rte_pmd_octopus_migration_get(port, q, 0, &r);
	to = rnd_below(nb_pf);
	if (r.home_socket >= 0 && to == (unsigned int)r.home_socket)
		to = (to + 1) % nb_pf;
	lc = lcore_on(to, q);
	if (api)
		ret = rte_pmd_octopus_queue_migrate_lcore(port, q, (unsigned int)lc);
	else if (rte_pmd_octopus_migration_auto_get(port) == 0)
		ret = rte_pmd_octopus_migration_auto_set(port, 1);
	/* the poller follows (automatic: it is the trigger) */
	if (ret == 0)
		ST(owner[q], lc);
	return ret;
}

static int
op_member(void)
{
	int ret;

	if (member_out < 0) {
		int m = 1 + (int)rnd_below(nb_pf - 1);

		ret = rte_pmd_octonic_unplug(pf[m]);
		if (ret == 0)
			member_out = m;
		return ret;
	}
	ret = rte_pmd_octonic_plug(pf[member_out]);
	if (ret == 0)
		member_out = -1;
	return ret;
}

/*
 * Over the port's Rx queues so far: the gate timeouts (poller's and
 * control's), or with @p closed the gates closed (a flow moved).
 */
static uint64_t
gate_count(bool closed)
{
	struct rte_pmd_octopus_migration m;
	uint64_t t = 0;
	uint16_t q;

	for (q = 0; q < nb_q; q++)
		if (rte_pmd_octopus_migration_get(port, q, 0, &m) == 0)
			t += closed ? m.gates : m.gate_timeouts;
	return t;
}

#define gate_timeouts() gate_count(false)

static enum op
op_pick(void)
{
	unsigned int sum = 0, i, x;

	for (i = 0; i < OP_MAX; i++)
		sum += op_weight[i];
	x = rnd_below(sum);
	for (i = 0; x >= op_weight[i]; i++)
		x -= op_weight[i];
	return (enum op)i;
}

static void
torture(struct rte_mempool *mp, double duration)
{
	uint64_t end, t0 = rte_get_timer_cycles(), ops = 0;
	double up;
	struct rte_pmd_octonic_sink_stats sink;
	uint64_t gt, gt_last = 0, ro_last = 0, t_op, rule_gates[2] = { 0, 0 };
	enum op o, hist[6];
	int saved[MAX_Q], ret;
	unsigned int i;

	CHECK(port_bringup(mp) == 0, "configure, set up and start the port");
	pollers_home();
	epoch_begin();
	rte_pmd_octonic_gen_enable(pf[0], 1);
	stop = 0;
	rte_eal_mp_remote_launch(worker, NULL, SKIP_MAIN);
	/* the duration counts from here: bringing 8 PFs up on a loaded host
	 * takes seconds
	 */
	up = (double)(rte_get_timer_cycles() - t0) / rte_get_timer_hz();
	printf("torture: port up in %.1f s\n", up);
	t0 = rte_get_timer_cycles();
	end = t0 + (uint64_t)(duration * rte_get_timer_hz());
	while (rte_get_timer_cycles() < end) {
		o = op_pick();
		t_op = rte_get_timer_cycles();
		switch (o) {
		case OP_MIG_API:
		case OP_MIG_AUTO:
			ret = op_migrate(o == OP_MIG_API);
			break;
		case OP_AUTO:
			ret = rte_pmd_octopus_migration_auto_set(port,
				!rte_pmd_octopus_migration_auto_get(port));
			break;
		case OP_RETA:
			ret = op_reta();
			break;
		case OP_RULE:
		case OP_TMPL:
			gt = gate_count(true);
			ret = op_rule(o == OP_TMPL);
			rule_gates[o == OP_TMPL] += gate_count(true) - gt;
			break;
		case OP_MEMBER:
			ret = op_member();
			break;
		case OP_RESTART:
		case OP_RECONF:
			op_restart(mp, o == OP_RECONF);
			ret = 1;	/* counted inside */
			break;
		default:
			ret = -EINVAL;
		}
		t_op = rte_get_timer_cycles() - t_op;
		op_max_cyc[o] = RTE_MAX(op_max_cyc[o], t_op);
		if (ret == 0)
			op_ok[o]++;
		else if (ret < 0)
			op_refused[o]++;
		hist[ops % RTE_DIM(hist)] = o;
		ops++;
		/* which operations came before a gate timeout */
		gt = gate_timeouts();
		if (gt > gt_last && o != OP_RECONF && o != OP_RESTART) {
			printf("gate timeout at %.3f s, after operation %" PRIu64 ":",
				(double)(rte_get_timer_cycles() - t0) / rte_get_timer_hz(), ops);
			for (i = 0; i < RTE_DIM(hist) && i < ops; i++)
				printf(" %s", op_name[hist[(ops - 1 - i) % RTE_DIM(hist)]]);
			printf(" (latest first)\n");
		}
		gt_last = gt;
		if (LD(reordered) > ro_last) {
			printf("reordering seen at %.3f s (%" PRIu64 " frames), after operation %"
				PRIu64 ":", (double)(rte_get_timer_cycles() - t0) / rte_get_timer_hz(),
				LD(reordered) - ro_last, ops);
			for (i = 0; i < RTE_DIM(hist) && i < ops; i++)
				printf(" %s", op_name[hist[(ops - 1 - i) % RTE_DIM(hist)]]);
			printf(" (latest first)\n");
			ro_last = LD(reordered);
		}
		/* up to 5 ms between operations: some overlap a move, some not */
		rte_delay_us_sleep(rnd_below(5000));
	}
	/* the end: the member back, rules destroyed, drained */
	if (member_out >= 0) {
		CHECK(rte_pmd_octonic_plug(pf[member_out]) == 0, "plug PF%d", member_out);
		op_ok[OP_MEMBER]++;
		member_out = -1;
		rte_delay_ms(100);
	}
	for (i = 0; i < NB_PIN + NB_TPIN; i++)
		pin_destroy(i, "at the end");
	CHECK(drain(), "final drain: still receiving after %d s", QUIESCE_S);
	pollers_park(saved);
	epoch_end();
	stop = 1;
	rte_eal_mp_wait_lcore();

	memset(&sink, 0, sizeof(sink));
	CHECK(rte_pmd_octonic_sink_stats_get(pf[0], &sink) == 0, "sink");
	printf("torture: %u PFs, %.1f s, %" PRIu64 " operations:", nb_pf,
		(double)(rte_get_timer_cycles() - t0) / rte_get_timer_hz(), ops);
	for (i = 0; i < OP_MAX; i++)
		printf(" %s %" PRIu64 "/%" PRIu64, op_name[i], op_ok[i], op_ok[i] + op_refused[i]);
	printf("\ntorture: longest (ms):");
	for (i = 0; i < OP_MAX; i++)
		printf(" %s %.1f", op_name[i], (double)op_max_cyc[i] * 1000 / rte_get_timer_hz());
	printf("\ntorture: %u epochs; generated %" PRIu64 " = delivered %" PRIu64
		" + imissed %" PRIu64 " (ring full %" PRIu64 ", PF down %" PRIu64
		", no queue %" PRIu64 ", DROP rule %" PRIu64 "; nombuf %" PRIu64 ")"
		" + lost-member rings %" PRIu64 " + unexplained %" PRIu64 "; delivered = wire %"
		PRIu64 " + oerrors %" PRIu64 " (PF down %" PRIu64 ") + unsent %" PRIu64
		" + unexplained %" PRIu64 "\n", epochs, total.gen, total.received, total.imissed,
		total.ring_full, total.port_down, total.no_queue, total.flow_drop, total.nombuf,
		total.outage, rx_unexplained, total.sink_pkts, total.oerrors, total.tx_down,
		total.tx_unsent, tx_unexplained);
	printf("torture: Rx %" PRIu64 " reordered %" PRIu64 " duplicated %" PRIu64
		" foreign; sink %" PRIu64 " out of order %" PRIu64 " duplicated %" PRIu64
		" lost %" PRIu64 " foreign; gate timeouts %" PRIu64 "\n", reordered, duplicated,
		foreign, sink.out_of_order, sink.duplicates, sink.lost, sink.foreign,
		total.gate_timeouts);
	for (i = 0; i < RTE_MIN(reordered, RTE_DIM(reorder_evs)); i++)
		printf("torture: out of order at %.3f s: flow %u seq %" PRIu64 " after %" PRIu64
			", Rx queue %u, lcore %d\n",
			(double)(reorder_evs[i].tsc - t0) / rte_get_timer_hz(), reorder_evs[i].flow,
			reorder_evs[i].seq, reorder_evs[i].next - 1, reorder_evs[i].q,
			reorder_evs[i].lcore);
	CHECK(reordered == 0 && duplicated == 0 && foreign == 0,
		"Rx: %" PRIu64 " reordered, %" PRIu64 " duplicated, %" PRIu64 " foreign",
		reordered, duplicated, foreign);
	CHECK(sink.out_of_order == 0 && sink.duplicates == 0 && sink.foreign == 0,
		"sink: %" PRIu64 " out of order, %" PRIu64 " duplicated, %" PRIu64 " foreign",
		sink.out_of_order, sink.duplicates, sink.foreign);
	CHECK(total.gate_timeouts == 0, "%" PRIu64 " gate timeouts", total.gate_timeouts);
	CHECK(total.received > 0, "nothing delivered");
	for (i = 0; i < OP_MAX; i++)
		CHECK(op_weight[i] == 0 || op_ok[i] > 0, "no %s applied (%" PRIu64 " refused)", op_name[i],
			op_refused[i]);
	/* rules that moved flows: their gates closed (a rule's flow may have
	 * been on its queue already, but not every time)
	 */
	printf("torture: gates closed by rules: sync %" PRIu64 ", template %" PRIu64 "\n",
		rule_gates[0], rule_gates[1]);
	CHECK(op_ok[OP_RULE] < 20 || rule_gates[0] > 0, "no synchronous rule moved a flow");
	CHECK(op_ok[OP_TMPL] < 20 || rule_gates[1] > 0, "no template rule moved a flow");
	octo_port_stop_close(port);
}

static void
usage(const char *prog)
{
	fprintf(stderr, "usage: %s [--seed S] [--duration SEC] [--pfs 2..8] [--contend N]"
		" [--ops KIND,...]\n  kinds: mig_api mig_auto auto reta rule member restart reconf (default: all)\n"
		"  (under tools/octopus-numa-emu --nodes <pfs>; OCTONIC_DIALECT for the model's"
		" dialect)\n", prog);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "duration", required_argument, NULL, 'd' },
		{ "pfs", required_argument, NULL, 'p' },
		{ "contend", required_argument, NULL, 'c' },
		{ "ops", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	char prefix[64], octo[512], gen[256];
	pthread_t cth[MAX_CONTEND];
	unsigned int contend = 0, i;
	double duration = 20;
	struct octo_pfs_eal e;
	char *eal[] = {
		argv[0], "--no-pci",
		"--lcores", e.lcores, "--file-prefix", prefix,
		"--vdev", gen, "--vdev", octo,
	};
	int nb_eal = RTE_DIM(eal), opt;
	char **eal_argv = eal;
	struct rte_mempool *mp;
	uint64_t seed = 0;

	nb_pf = octo_pfs();
	while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (opt) {
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'd':
			duration = atof(optarg);
			break;
		case 'p':
			nb_pf = (unsigned int)atoi(optarg);
			break;
		case 'c':
			contend = (unsigned int)atoi(optarg);
			break;
		case 'o':
			if (!ops_only(optarg)) {
				usage(argv[0]);
				return 2;
			}
			break;
		default:
			usage(argv[0]);
			return 2;
		}
	}
	if (nb_pf < 2 || nb_pf > OCTO_PFS_MAX || contend > MAX_CONTEND || duration <= 0) {
		usage(argv[0]);
		return 2;
	}
	if (seed == 0)
		seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	rng = seed;
	printf("torture: seed %" PRIu64 ", %.0f s, %u PFs, %u contending threads, dialect %s\n",
		seed, duration, nb_pf, contend,
		octo_dialect_suffix()[0] != '\0' ? octo_dialect_suffix() + 1 : "generic");
	fflush(stdout);
	/* before EAL pins this thread: the contenders run on every CPU */
	for (i = 0; i < contend; i++)
		if (pthread_create(&cth[i], NULL, contender, &contend_spins[i]) != 0)
			return 2;
	nb_q = (uint16_t)RTE_MAX(4u, nb_pf);
	nb_desc = 512;
	if (octo_pfs_eal_make(&e, nb_pf, nb_pf + 2) != 0)
		return 2;
	snprintf(prefix, sizeof(prefix), "octopus-torture-%u-%d", nb_pf, (int)getpid());
	/* e.nic has the dialect (octo_pfs_nic_args) */
	snprintf(gen, sizeof(gen), "net_octonic0,%s,wire=gen,flows=%u,gen_rate=200000",
		e.nic, NB_FLOWS);
	/* migrate_after=1: automatic moves follow the pollers at once */
	snprintf(octo, sizeof(octo), "net_octopus0,%s,migration=manual,migrate_after=1",
		e.members);
	if (octo_test_eal_init(&nb_eal, &eal_argv, nb_pf > 4 ? 1024 : 512) < 0 ||
	    rte_lcore_count() < nb_pf + 2 || !octo_pfs_sockets_ok(nb_pf)) {
		fprintf(stderr, "EAL init failed (run under tools/octopus-numa-emu --nodes %u)\n",
			nb_pf);
		return 2;
	}
	port = port_of("net_octopus0");
	mp = rte_pktmbuf_pool_create("app", 16384, 256, 0, RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	if (mp == NULL || port >= RTE_MAX_ETHPORTS || octo_pfs_ports(pf, nb_pf) != 0)
		return 2;
	rte_pmd_octonic_gen_enable(pf[0], 0);
	torture(mp, duration);
	contend_stop = 1;
	for (i = 0; i < contend; i++)
		pthread_join(cth[i], NULL);
	fprintf(stderr, "torture (seed %" PRIu64 "): %s (%d failure(s))\n", seed,
		octo_failures ? "FAILED" : "ok", octo_failures);
	octo_test_eal_cleanup();
	return octo_failures ? 1 : 0;
}
