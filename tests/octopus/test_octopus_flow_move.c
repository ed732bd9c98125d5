/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Application flows and moves, on net_octopus over N net_octonic PFs on N
 * (emulated) sockets (N = $OCTO_PFS, 2 by default; octo_pfs.h), lcore q
 * polling virtual queue q, on socket q mod N (at 2 PFs lcore 2 on socket
 * 0; 1,3 on socket 1; lcore 4 on socket 0 polls queue 0, the main lcore 0
 * runs the test), migration=manual.  Run under tools/octopus-numa-emu
 * --nodes N. A queue "moved to the other socket" goes to the socket N/2
 * away from its home (socket 0 from socket 1 at 2 PFs).
 *
 *   test_octopus_flow_move pinned  queue 1 carries 1 pinned flow (an app
 *       QUEUE rule), queue 3 carries 100000 (both homed on socket 1 and
 *       polled there); moving each to socket 0
 *       (rte_pmd_octopus_queue_migrate) costs the e-switch the same rule
 *       operations (creates and destroys of the NIC model), and few.
 *   test_octopus_flow_move flow    under traffic, one generated flow is moved
 *       back and forth between queue 0 (socket 0) and queue 1 (socket 1) by
 *       destroy + create and by make-before-break (create, then destroy):
 *       every change of queue puts a drain gate on the new queue (migration
 *       counters), also within a member (destroy + create is two changes:
 *       to the flow's default bucket's queue and from it);
 *       no flow's sequence numbers go back, no gate opens on its timeout,
 *       and nothing is lost that the NIC did not count.
 *   test_octopus_flow_move wide    the same by destroy + create with a rule
 *       that names the flow's source address only, so fixes no bucket of the
 *       spreading field (the source port): a destroy gates every queue the
 *       RETA names on the rule's queue, a create (the first one too) gates
 *       the new queue on all of them (exact counts, none else).
 *   test_octopus_flow_move order   every flow changes queue: RETA updates of
 *       all buckets (one gate per old -> new queue pair) and a rule taking all
 *       UDP to one queue, created and destroyed (gated on every other queue);
 *       exact gate counts, 0 packets out of order at Rx and 0 gate
 *       timeouts in each part. Prints the time of a gated RETA update.
 *   test_octopus_flow_move mark    a QUEUE+MARK rule for one flow; its queue
 *       moved to the other socket and back: once marked, every packet of the
 *       flow arrives marked, on both homes (where the e-switch refuses MARK
 *       in transfer rules, each member's ingress marks it).
 *   test_octopus_flow_move slow_source  RETA moves whose old queue's poller
 *       sleeps past the gate's deadline, or whose old queue another thread
 *       polls slowly: the gate waits, 0 out of order and 0 gate timeouts.
 *
 * The gate rule (octopus_flow.c): a create or destroy of a QUEUE rule gates
 * each queue the traffic moves to on each queue it may come from: the
 * RETA queue of the pattern's bucket (all RETA queues for a pattern fixing
 * none) and the queue of every other rule that may hit that bucket.
 * Make-before-break is two changes: the create moves the flow from the old
 * rule's queue and the bucket's, the destroy from the old rule's queue to
 * the new rule's and the bucket's. Nothing is out of order as the pollers
 * account it, and no gate opens on its timeout: these tests cause none (a
 * poller the host deschedules is waited for, octopus_gate.c), and one that
 * opened may reorder, so it fails the test rather than excusing a reorder.
 * Only the stall test times a gate out, on purpose.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_alarm.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_flow.h>
#include <rte_ip.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_string_fns.h>
#include <rte_udp.h>

#include <octopus_dpdk_compat.h>

#include "rte_pmd_octonic.h"
#include "rte_pmd_octopus.h"

#include "../common/octo_cases.h"
#include "../common/octo_eal.h"
#include "../common/octo_flow_rule.h"
#include "../common/octo_check.h"
#include "../common/octo_pfs.h"
#include "../common/octo_port.h"
#include "../common/octo_state.h"
#include "../common/octo_dialect.h"
#include "../common/octo_test_eal.h"

#define NB_Q 4
#define NB_FLOWS 256
#define GEN_PPS 100000
#define PINNED 100000
#define MAGIC 0x4f43544fu
#define OCTOPUS_TEST_RETA 512

static unsigned int nb_pf;	/* OCTO_PFS: PF k on socket k */
static uint16_t nb_desc;
static uint16_t port, nic_port;
static volatile int stop;
/* per flow: last sequence number seen (any queue), packets, reorders */
static uint64_t last_seq[NB_FLOWS];
static uint64_t seen[NB_FLOWS];
static uint64_t per_q_flow[NB_Q];	/* packets of the moved flow per queue */
static uint64_t reordered;
static int watched = -1;		/* flow the test moves */
#define MARK_ID 0x5a5a
static uint64_t marked_q[NB_Q];		/* its packets with MARK_ID, per queue */
static uint64_t unmarked_late;		/* its packets without, after a marked one */
static rte_be32_t flow_src[NB_FLOWS];
static rte_be16_t flow_sport[NB_FLOWS];

/* queue q's poller stops polling (test_stall, test_slow_source): it spins
 * (PAUSE_SPIN) or sleeps (PAUSE_SLEEP, as if blocked); parked: it has
 */
enum { PAUSE_NONE, PAUSE_SPIN, PAUSE_SLEEP };
static int paused[NB_Q], parked[NB_Q];

static void
account(uint16_t q, struct rte_mbuf *m)
{
	const struct rte_ether_hdr *eh = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);
	const struct rte_ipv4_hdr *ip = (const struct rte_ipv4_hdr *)(eh + 1);
	const struct rte_udp_hdr *udp;
	const uint8_t *pl;
	uint32_t magic, id;
	uint64_t seq;
	size_t off;

	if (eh->ether_type != rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4) ||
			ip->next_proto_id != IPPROTO_UDP)
		return;
	off = sizeof(*eh) + rte_ipv4_hdr_len(ip);
	if (off + sizeof(*udp) + 16 > m->data_len)
		return;
	udp = rte_pktmbuf_mtod_offset(m, const struct rte_udp_hdr *, off);
	pl = (const uint8_t *)(udp + 1);
	memcpy(&magic, pl, 4);
	memcpy(&id, pl + 4, 4);
	memcpy(&seq, pl + 8, 8);
	id = rte_be_to_cpu_32(id);
	if (rte_be_to_cpu_32(magic) != MAGIC || id >= NB_FLOWS)
		return;
	seq = rte_be_to_cpu_64(seq);
	flow_src[id] = ip->src_addr;
	flow_sport[id] = udp->src_port;
	/* a flow is on one queue at a time except across a move: the
	 * gate makes the new queue wait, so seq must only grow
	 */
	if (seen[id] > 0 && seq <= rte_atomic_load_explicit(&last_seq[id], rte_memory_order_acquire))
		rte_atomic_fetch_add_explicit(&reordered, 1, rte_memory_order_relaxed);
	rte_atomic_store_explicit(&last_seq[id], seq, rte_memory_order_release);
	rte_atomic_fetch_add_explicit(&seen[id], 1, rte_memory_order_relaxed);
	if ((int)id == watched) {
		rte_atomic_fetch_add_explicit(&per_q_flow[q], 1, rte_memory_order_relaxed);
		if ((m->ol_flags & RTE_MBUF_F_RX_FDIR_ID) != 0 && m->hash.fdir.hi == MARK_ID)
			rte_atomic_fetch_add_explicit(&marked_q[q], 1, rte_memory_order_relaxed);
		else if (rte_atomic_load_explicit(&marked_q[q], rte_memory_order_relaxed) > 0)
			rte_atomic_fetch_add_explicit(&unmarked_late, 1, rte_memory_order_relaxed);
	}
}

static int
poll_queue(void *arg)
{
	/* lcore 4 (socket 0) polls queue 0: the main lcore runs the test */
	uint16_t q = rte_lcore_id() == 4 ? 0 : (uint16_t)rte_lcore_id();
	struct rte_mbuf *pkts[32];
	uint16_t n, k;
	int mode;

	RTE_SET_USED(arg);
	if (q >= NB_Q || rte_lcore_id() == rte_get_main_lcore())
		return 0;
	while (!stop) {
		mode = rte_atomic_load_explicit(&paused[q], rte_memory_order_acquire);
		if (mode != PAUSE_NONE) {
			rte_atomic_store_explicit(&parked[q], 1, rte_memory_order_release);
			/* long sleeps: asleep (S) when the gate looks, even
			 * on a host that leaves it runnable for a while once woken
			 */
			if (mode == PAUSE_SLEEP)
				rte_delay_us_sleep(50 * 1000);
			else
				rte_pause();
			continue;
		}
		rte_atomic_store_explicit(&parked[q], 0, rte_memory_order_relaxed);
		n = rte_eth_rx_burst(port, q, pkts, RTE_DIM(pkts));
		for (k = 0; k < n; k++) {
			account(q, pkts[k]);
			rte_pktmbuf_free(pkts[k]);
		}
	}
	return 0;
}

/*
 * Let the traffic flow: wait until the pollers have received what the
 * generator makes in @p ms (10 s at most), so that every step of a test
 * meets packets in flight however the pollers are scheduled.
 */
static void
traffic_flows(unsigned int ms)
{
	uint64_t want = octo_sum(seen, NB_FLOWS) + (uint64_t)GEN_PPS * ms / 1000;
	uint64_t end = rte_get_timer_cycles() + 10 * rte_get_timer_hz();

	while (octo_sum(seen, NB_FLOWS) < want && rte_get_timer_cycles() < end)
		rte_delay_us_sleep(1000);
	CHECK(octo_sum(seen, NB_FLOWS) >= want, "under %u ms of traffic received in 10 s", ms);
}

/* Wait until a poller's counter @p v is above @p since (10 s at most); -1 if it is not. */
static int
wait_above(const uint64_t *v, uint64_t since)
{
	uint64_t end = rte_get_timer_cycles() + 10 * rte_get_timer_hz();

	while (rte_atomic_load_explicit(v, rte_memory_order_relaxed) <= since) {
		if (rte_get_timer_cycles() > end)
			return -1;
		rte_delay_us_sleep(1000);
	}
	return 0;
}

/* Wait until the watched flow has more than @p since packets on queue @p q
 * (10 s at most); -1 if it has not. */
static int
wait_flow_on(uint16_t q, uint64_t since)
{
	return wait_above(&per_q_flow[q], since);
}

static void
setup_port(struct rte_mempool *mp)
{
	struct octo_port_conf c = {
		.nb_rxq = NB_Q, .nb_txq = NB_Q, .nb_desc = nb_desc,
		.socket = OCTO_SOCKET_OF_LCORE, .pool = mp,
		.rss = 1,	/* RETA updates allowed */
	};

	CHECK(octo_port_start(port, &c) == 0, "configure, set up and start the port");
	CHECK(rte_pmd_octopus_migration_auto_get(port) == 0, "migration is not manual");
}

/*
 * A QUEUE rule for the packets from source address @p src and, when
 * @p sport is not NULL, source port *sport: the port pins the flow's
 * bucket of the spreading field (the source port), the address alone not.
 */
static struct rte_flow *
src_rule(rte_be32_t src, const rte_be16_t *sport, uint16_t queue,
		struct rte_flow_error *err)
{
	struct rte_flow_item_ipv4 ip = { .hdr.src_addr = src };
	struct rte_flow_item_ipv4 ip_mask = { .hdr.src_addr = RTE_BE32(0xffffffff) };
	struct rte_flow_item_udp udp = { .hdr.src_port = sport ? *sport : 0 };
	struct rte_flow_item_udp udp_mask = { .hdr.src_port = RTE_BE16(0xffff) };
	struct rte_flow_item items[] = OCTO_ITEMS_UDP_MATCH(&ip, &ip_mask,
		sport ? &udp : NULL, sport ? &udp_mask : NULL);

	return octo_items_to_queue(port, items, queue, err);
}

static struct rte_flow *
pin(rte_be32_t src, rte_be16_t sport, uint16_t queue, struct rte_flow_error *err)
{
	return src_rule(src, &sport, queue, err);
}

static struct rte_flow *
wide(rte_be32_t src, uint16_t queue, struct rte_flow_error *err)
{
	return src_rule(src, NULL, queue, err);
}

/* Move queue q to @p socket and wait until it is steady there. */
static void
move_queue(uint16_t q, int socket, uint64_t *creates, uint64_t *destroys,
		uint64_t *lat_ns)
{
	struct rte_pmd_octonic_flow_stats a, b;
	struct rte_pmd_octopus_migration st = octo_migration(port, 0, q);
	uint64_t before = st.migrations;
	uint64_t end = rte_get_timer_cycles() + 10 * rte_get_timer_hz();
	int ret;

	a = octo_fstats(nic_port);
	ret = rte_pmd_octopus_queue_migrate(port, q, socket);
	CHECK(ret == 0, "migrate queue %u to socket %d: %d", q, socket, ret);
	do {
		rte_delay_us_sleep(1000);
		st = octo_migration(port, 0, q);
	} while ((st.migrations == before || st.phase != RTE_PMD_OCTOPUS_MIG_STEADY) &&
		rte_get_timer_cycles() < end);
	b = octo_fstats(nic_port);
	CHECK(st.migrations == before + 1 && st.home_socket == socket,
		"queue %u: %" PRIu64 " migrations, home socket %d", q, st.migrations,
		st.home_socket);
	*creates = b.creates - a.creates;
	*destroys = b.destroys - a.destroys;
	*lat_ns = st.last_latency_ns;
}

/* The socket N/2 away from @p s: the other one at 2 PFs. */
static int
across(int s)
{
	return (s + (int)nb_pf / 2) % (int)nb_pf;
}

static void
test_pinned(struct rte_mempool *mp)
{
	struct rte_flow_error err;
	uint64_t c1, d1, c2, d2, l1, l2, t0, t_create, t_flush;
	struct rte_pmd_octonic_flow_stats fs0, fs;
	struct rte_flow *f;
	uint32_t i, made = 0;

	setup_port(mp);
	fs0 = octo_fstats(nic_port);
	/* queue 1: one pinned flow; queue 3: PINNED of them (both on socket 1
	 * at 2 PFs, on sockets 1 and 3 beyond)
	 */
	f = pin(RTE_BE32(0xac100001), RTE_BE16(1000), 1, &err);
	CHECK(f != NULL, "pin: %s", err.message ? err.message : "?");
	t0 = rte_get_timer_cycles();
	for (i = 0; i < PINNED; i++) {
		f = pin(rte_cpu_to_be_32(0xac110000u + i / 50000), rte_cpu_to_be_16(i % 50000 + 1),
			3, &err);
		if (f == NULL) {
			CHECK(f != NULL, "pinned flow %u: %s", i, err.message ? err.message : "?");
			break;
		}
		made++;
	}
	t_create = rte_get_timer_cycles() - t0;
	fs = octo_fstats(nic_port);
	CHECK(made == PINNED && fs.transfer_rules == fs0.transfer_rules + PINNED + 1,
		"%u pinned flows, transfer rules %u -> %u", made, fs0.transfer_rules,
		fs.transfer_rules);
	printf("created %u pinned flows in %.2f s (%.1f us per rule)\n", made,
		(double)t_create / rte_get_timer_hz(),
		1e6 * t_create / rte_get_timer_hz() / (made ? made : 1));

	stop = 0;
	rte_eal_mp_remote_launch(poll_queue, NULL, SKIP_MAIN);
	/* the pollers (lcores 1 and 3) keep polling: the drain needs them */
	move_queue(1, across(1 % (int)nb_pf), &c1, &d1, &l1);
	move_queue(3, across(3 % (int)nb_pf), &c2, &d2, &l2);
	stop = 1;
	rte_eal_mp_wait_lcore();
	printf("move queue with 1 flow: %" PRIu64 " creates, %" PRIu64 " destroys, %.1f us\n",
		c1, d1, l1 / 1000.0);
	printf("move queue with %u flows: %" PRIu64 " creates, %" PRIu64 " destroys, %.1f us\n",
		PINNED, c2, d2, l2 / 1000.0);
	CHECK(c1 == c2 && d1 == d2, "1 flow: %" PRIu64 "/%" PRIu64 ", %u flows: %" PRIu64
		"/%" PRIu64, c1, d1, PINNED, c2, d2);
	CHECK(c1 >= 1 && c1 <= 2 && d1 == c1, "a move is one home rule replaced: %"
		PRIu64 " creates, %" PRIu64 " destroys", c1, d1);

	t0 = rte_get_timer_cycles();
	CHECK(rte_flow_flush(port, &err) == 0, "flush");
	t_flush = rte_get_timer_cycles() - t0;
	fs = octo_fstats(nic_port);
	CHECK(fs.transfer_rules == fs0.transfer_rules, "after flush %u, want %u",
		fs.transfer_rules, fs0.transfer_rules);
	printf("flushed in %.2f s\n", (double)t_flush / rte_get_timer_hz());
	octo_port_stop_close(port);
}

/*
 * Start the port and the traffic with the pollers running, learn the
 * flows' tuples, watch flow @p flow, and snapshot every queue's migration
 * counters into @p g0.
 */
static void
traffic_start(struct rte_mempool *mp, int flow, struct rte_pmd_octopus_migration *g0)
{
	uint64_t end;
	int q;

	setup_port(mp);
	stop = 0;
	rte_pmd_octonic_gen_enable(nic_port, 1);
	rte_eal_mp_remote_launch(poll_queue, NULL, SKIP_MAIN);
	/* until the flow (and so its addresses) is seen, 10 s at most */
	end = rte_get_timer_cycles() + 10 * rte_get_timer_hz();
	while (rte_atomic_load_explicit(&seen[flow], rte_memory_order_relaxed) == 0 &&
			rte_get_timer_cycles() < end)
		rte_delay_us_sleep(1000);
	watched = flow;
	CHECK(seen[watched] > 0, "flow %d not seen", watched);
	for (q = 0; q < NB_Q; q++)
		g0[q] = octo_migration(port, 0, q);
}

/* Wait until queue @p q has more than @p since marked packets of the flow (10 s). */
static int
wait_marked(uint16_t q, uint64_t since)
{
	return wait_above(&marked_q[q], since);
}

static void traffic_stop(void);

static void
test_mark(struct rte_mempool *mp)
{
	struct rte_pmd_octopus_migration g0[NB_Q];
	struct rte_flow_item_ipv4 ip, ip_mask = { .hdr.src_addr = RTE_BE32(0xffffffff) };
	struct rte_flow_item_udp udp, udp_mask = { .hdr.src_port = RTE_BE16(0xffff) };
	struct rte_flow_attr attr = { .ingress = 1 };
	struct rte_flow_action_mark mark = { .id = MARK_ID };
	struct rte_flow_action_queue qa = { .index = 1 };
	struct rte_flow_action actions[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_MARK, .conf = &mark },
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &qa },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_item items[] = OCTO_ITEMS_UDP_MATCH(&ip, &ip_mask, &udp, &udp_mask);
	uint64_t c, d, l, m;
	struct rte_flow_error err;
	struct rte_flow *f;
	int i;

	traffic_start(mp, 9, g0);
	memset(&ip, 0, sizeof(ip));
	memset(&udp, 0, sizeof(udp));
	ip.hdr.src_addr = flow_src[watched];
	udp.hdr.src_port = flow_sport[watched];
	memset(&err, 0, sizeof(err));
	f = rte_flow_create(port, &attr, items, actions, &err);
	CHECK(f != NULL, "create: %s", err.message ? err.message : "?");
	CHECK(wait_marked(1, 0) == 0, "no marked packet of flow %d on queue 1", watched);
	/* queue 1 (socket 1) across and back: another member receives it */
	for (i = 0; i < 2; i++) {
		move_queue(1, i == 0 ? across(1) : 1, &c, &d, &l);
		m = rte_atomic_load_explicit(&marked_q[1], rte_memory_order_relaxed);
		CHECK(wait_marked(1, m) == 0, "move %d: no marked packet after it", i);
	}
	traffic_stop();
	CHECK(unmarked_late == 0 && marked_q[0] + marked_q[2] + marked_q[3] == 0,
		"%" PRIu64 " packets of flow %d unmarked after the first marked one; marked on queues 0, 2, 3: %" PRIu64 " %" PRIu64 " %" PRIu64,
		unmarked_late, watched, marked_q[0], marked_q[2], marked_q[3]);
	printf("flow %d: %" PRIu64 " packets marked on queue 1 over two moves\n", watched,
		marked_q[1]);
	CHECK(rte_flow_destroy(port, f, &err) == 0, "destroy");
}

/* Stop the traffic, let the queues empty, stop the pollers. */
static void
traffic_stop(void)
{
	uint64_t gen = 0, total, end;
	struct rte_eth_stats st;

	traffic_flows(100);
	rte_pmd_octonic_gen_enable(nic_port, 0);
	/* until every frame generated is received or counted missed (10 s
	 * at most): the pollers may be slow to empty the queues */
	rte_pmd_octonic_gen_count(nic_port, &gen);
	end = rte_get_timer_cycles() + 10 * rte_get_timer_hz();
	do {
		rte_delay_us_sleep(1000);
		total = octo_sum(seen, NB_FLOWS);
		memset(&st, 0, sizeof(st));
		rte_eth_stats_get(port, &st);
	} while (total + st.imissed < gen && rte_get_timer_cycles() < end);
	stop = 1;
	rte_eal_mp_wait_lcore();
}

/*
 * The order verdict of @p what: no gate opened on its timeout (the test
 * causes none: one that opened may reorder, whatever the count shows) and
 * no packet out of order.
 */
static void
check_order(const char *what, uint64_t reord, uint64_t tmo)
{
	CHECK(tmo == 0, "%s: %" PRIu64 " gate(s) opened on their timeout (%" PRIu64
		" packets out of order)", what, tmo, reord);
	CHECK(reord == 0, "%s: %" PRIu64 " packets out of order", what, reord);
}

static void
test_flow(struct rte_mempool *mp)
{
	struct rte_pmd_octopus_migration g0[NB_Q], g1[NB_Q], gm[NB_Q];
	uint64_t reord_mid = 0, tmo_mbb = 0, tmo_all = 0, nb_gates = 0;
	uint32_t want[NB_Q] = { 0 };
	uint16_t bq;
	struct rte_eth_stats st;
	struct rte_flow_error err;
	struct rte_flow *cur, *next;
	uint64_t gen = 0, total = 0, dropped_by_nic;
	int i, f, q, moves_cross = 0;

	traffic_start(mp, 5, g0);
	/* the flow's default queue: bucket = low 6 bits of its source port,
	 * default RETA bucket b -> queue b % 4; queue q's home is socket q % 2
	 */
	bq = (rte_be_to_cpu_16(flow_sport[watched]) & 63) % NB_Q;
	cur = pin(flow_src[watched], flow_sport[watched], 0, &err);
	CHECK(cur != NULL, "pin: %s", err.message ? err.message : "?");
	if (bq != 0)
		want[0]++;	/* from its bucket's queue to queue 0 */
	for (i = 0; i < 40; i++) {
		uint16_t to = (i % 2 == 0) ? 1 : 0, from = 1 - to;

		if (i < 20) {
			/* destroy: to the bucket's queue; create: from there */
			if (from != bq)
				want[bq]++;
			if (bq != to)
				want[to]++;
		} else {
			/* create: from the old rule's queue and the bucket's */
			want[to]++;
			if (bq != to && bq != from)
				want[to]++;
			/* destroy: the old rule's queue to the new one's and the
			 * bucket's
			 */
			want[to]++;
			if (bq != to && bq != from)
				want[bq]++;
		}

		traffic_flows(20);
		if (i == 20) {
			/* the make-before-break phase starts: its own order count */
			reord_mid = rte_atomic_load_explicit(&reordered, rte_memory_order_relaxed);
			for (q = 0; q < NB_Q; q++)
				gm[q] = octo_migration(port, 0, q);
		}
		if (i < 20) {
			/* destroy + create: the port sees the same traffic go elsewhere */
			CHECK(rte_flow_destroy(port, cur, &err) == 0, "destroy");
			cur = pin(flow_src[watched], flow_sport[watched], to, &err);
		} else {
			/* make-before-break: the new rule wins at its creation */
			next = pin(flow_src[watched], flow_sport[watched], to, &err);
			CHECK(next != NULL, "pin: %s", err.message ? err.message : "?");
			CHECK(rte_flow_destroy(port, cur, &err) == 0, "destroy");
			cur = next;
		}
		CHECK(cur != NULL, "move %d: %s", i, err.message ? err.message : "?");
		moves_cross++;
	}
	/* a move within one member (queue 0 -> 2, both socket 0): gated too */
	traffic_flows(20);
	CHECK(rte_flow_destroy(port, cur, &err) == 0, "destroy");
	cur = pin(flow_src[watched], flow_sport[watched], 2, &err);
	CHECK(cur != NULL, "pin to 2");
	if (bq != 0)		/* 0 -> bucket's queue -> 2 */
		want[bq]++;
	if (bq != 2)
		want[2]++;
	traffic_stop();
	for (q = 0; q < NB_Q; q++)
		g1[q] = octo_migration(port, 0, q);
	rte_pmd_octonic_gen_count(nic_port, &gen);
	for (f = 0; f < NB_FLOWS; f++)
		total += seen[f];
	rte_eth_stats_get(port, &st);
	dropped_by_nic = st.imissed;
	printf("flow %d: %" PRIu64 " packets on queue 0, %" PRIu64 " on 1, %" PRIu64
		" on 2; gates q0 %" PRIu64 " q1 %" PRIu64 " q2 %" PRIu64 ", timeouts %" PRIu64
		"/%" PRIu64 "; reordered %" PRIu64 "; generated %" PRIu64 " received %" PRIu64
		" missed %" PRIu64 "\n", watched, per_q_flow[0], per_q_flow[1], per_q_flow[2],
		g1[0].gates - g0[0].gates, g1[1].gates - g0[1].gates, g1[2].gates - g0[2].gates,
		g1[0].gate_timeouts - g0[0].gate_timeouts, g1[1].gate_timeouts - g0[1].gate_timeouts,
		reordered, gen, total, dropped_by_nic);
	CHECK(per_q_flow[0] > 0 && per_q_flow[1] > 0 && per_q_flow[2] > 0,
		"the flow did not follow its rule");
	/* every change of queue is gated, none else */
	for (q = 0; q < NB_Q; q++)
		CHECK(g1[q].gates - g0[q].gates == want[q],
			"queue %d: %" PRIu64 " gates, want %u (%d moves, bucket queue %u)", q,
			g1[q].gates - g0[q].gates, want[q], moves_cross, bq);
	/*
	 * Gated changes keep every flow in order as the pollers account it
	 * (a gate opens only once the old queue's poller came back for its
	 * next burst); a poller descheduled (5 lcores share 2 CPUs here) is
	 * waited for, so no gate may open on its timeout.
	 */
	for (q = 0; q < NB_Q; q++) {
		tmo_mbb += g1[q].gate_timeouts - gm[q].gate_timeouts;
		tmo_all += g1[q].gate_timeouts - g0[q].gate_timeouts;
		nb_gates += g1[q].gates - g0[q].gates;
	}
	printf("all moves: %" PRIu64 " reordered, %" PRIu64 " gate timeouts, %" PRIu64
		" gates; make-before-break: %" PRIu64 " reordered, %" PRIu64 " gate timeouts\n",
		reordered, tmo_all, nb_gates, reordered - reord_mid, tmo_mbb);
	check_order("flow moves", reordered, tmo_all);
	CHECK(total + dropped_by_nic == gen, "generated %" PRIu64 ", received %" PRIu64
		" + missed %" PRIu64, gen, total, dropped_by_nic);
	octo_port_stop_close(port);
}

static void
test_wide(struct rte_mempool *mp)
{
	struct rte_pmd_octopus_migration g0[NB_Q], g1[NB_Q];
	uint32_t want[NB_Q] = { 0 };
	uint64_t gen = 0, total = 0, tmo = 0, since;
	struct rte_eth_stats st;
	struct rte_flow_error err;
	struct rte_flow *cur;
	int i, f, q, d;

	traffic_start(mp, 7, g0);
	/* a first rule: from every queue the RETA names to queue 0 */
	since = rte_atomic_load_explicit(&per_q_flow[0], rte_memory_order_relaxed);
	cur = wide(flow_src[watched], 0, &err);
	CHECK(cur != NULL, "wide: %s", err.message ? err.message : "?");
	want[0] += NB_Q - 1;
	for (i = 0; i < 10 && cur != NULL; i++) {
		uint16_t to = (i % 2 == 0) ? 1 : 0, from = 1 - to;

		/* the default RETA names every queue (bucket b -> b % NB_Q) */
		for (d = 0; d < NB_Q; d++) {
			if (d != from)
				want[d]++;	/* destroy: from -> d */
			if (d != to)
				want[to]++;	/* create: d (from among them) -> to */
		}
		/* the flow reaches the queue its rule names before it moves
		 * on: a wait on that, not a time, as a slow (sanitizer)
		 * build or a busy host need longer */
		CHECK(wait_flow_on(from, since) == 0, "move %d: flow %d not on queue %u in 10 s",
			i, watched, from);
		CHECK(rte_flow_destroy(port, cur, &err) == 0, "destroy");
		since = rte_atomic_load_explicit(&per_q_flow[to], rte_memory_order_relaxed);
		cur = wide(flow_src[watched], to, &err);
		CHECK(cur != NULL, "move %d: %s", i, err.message ? err.message : "?");
	}
	traffic_stop();
	for (q = 0; q < NB_Q; q++) {
		g1[q] = octo_migration(port, 0, q);
		tmo += g1[q].gate_timeouts - g0[q].gate_timeouts;
	}
	rte_pmd_octonic_gen_count(nic_port, &gen);
	for (f = 0; f < NB_FLOWS; f++)
		total += seen[f];
	rte_eth_stats_get(port, &st);
	printf("wide: flow %d: %" PRIu64 " packets on queue 0, %" PRIu64 " on 1; gates %"
		PRIu64 "/%" PRIu64 "/%" PRIu64 "/%" PRIu64 ", timeouts %" PRIu64
		"; reordered %" PRIu64 "\n", watched, per_q_flow[0], per_q_flow[1],
		g1[0].gates - g0[0].gates, g1[1].gates - g0[1].gates,
		g1[2].gates - g0[2].gates, g1[3].gates - g0[3].gates, tmo, reordered);
	CHECK(per_q_flow[0] > 0 && per_q_flow[1] > 0, "the flow did not follow its rule");
	for (q = 0; q < NB_Q; q++)
		CHECK(g1[q].gates - g0[q].gates == want[q],
			"queue %d: %" PRIu64 " gates, want %u", q,
			g1[q].gates - g0[q].gates, want[q]);
	check_order("wide moves", reordered, tmo);
	CHECK(total + st.imissed == gen, "generated %" PRIu64 ", received %" PRIu64
		" + missed %" PRIu64, gen, total, st.imissed);
	octo_port_stop_close(port);
}

/* Every RETA bucket b to queue (b + shift) % NB_Q; the call's duration. */
static uint64_t
reta_rotate(unsigned int shift, uint16_t size)
{
	struct rte_eth_rss_reta_entry64 conf[OCTOPUS_TEST_RETA / RTE_ETH_RETA_GROUP_SIZE];
	uint64_t t0;
	uint16_t b;
	int ret;

	memset(conf, 0, sizeof(conf));
	for (b = 0; b < size; b++) {
		conf[b / RTE_ETH_RETA_GROUP_SIZE].mask |= UINT64_C(1) << (b % RTE_ETH_RETA_GROUP_SIZE);
		conf[b / RTE_ETH_RETA_GROUP_SIZE].reta[b % RTE_ETH_RETA_GROUP_SIZE] =
			(uint16_t)((b + shift) % NB_Q);
	}
	t0 = rte_get_timer_cycles();
	ret = rte_eth_dev_rss_reta_update(port, conf, size);
	t0 = rte_get_timer_cycles() - t0;
	CHECK(ret == 0, "reta update: %d", ret);
	return t0;
}

/* A rule taking every UDP packet (all the generator's flows) to @p queue. */
static struct rte_flow *
all_udp(uint16_t queue, struct rte_flow_error *err)
{
	struct rte_flow_item items[] = OCTO_ITEMS_UDP;

	return octo_items_to_queue(port, items, queue, err);
}

/*
 * Every flow changes queue, again and again: RETA updates of all buckets
 * (each moved bucket's new queue gated on its old one) and a rule taking
 * all UDP to one queue, created and destroyed (gated on every RETA queue).
 * Rx order of every flow as the pollers account it: 0 out of order and no
 * gate opened on its timeout. The gates of a RETA update: one per (old, new)
 * queue pair. Prints what a gated update of all buckets costs.
 */
/* Gate timeouts and gates since @p g0. */
static void
gate_counts(const struct rte_pmd_octopus_migration *g0, uint64_t *tmo, uint64_t *gates)
{
	struct rte_pmd_octopus_migration g;
	int q;

	*tmo = 0;
	*gates = 0;
	for (q = 0; q < NB_Q; q++) {
		g = octo_migration(port, 0, q);
		*tmo += g.gate_timeouts - g0[q].gate_timeouts;
		*gates += g.gates - g0[q].gates;
	}
}

static void
test_order(struct rte_mempool *mp)
{
	struct rte_pmd_octopus_migration g0[NB_Q];
	struct rte_eth_dev_info info;
	struct rte_flow_error err;
	struct rte_flow *f;
	uint64_t t, t_sum = 0, t_max = 0, total = 0, gen = 0;
	uint64_t tmo[2], gates[2], want[2] = { 0, 0 }, r[2];
	struct rte_eth_stats st;
	int i, n_reta = 10, n_rule = 10;

	traffic_start(mp, 0, g0);
	CHECK(rte_eth_dev_info_get(port, &info) == 0 && info.reta_size <= OCTOPUS_TEST_RETA,
		"reta size %u", info.reta_size);
	for (i = 0; i < n_reta; i++) {
		traffic_flows(10);
		t = reta_rotate((unsigned int)(i + 1), info.reta_size);
		/* each queue q takes the buckets of queue q - 1 */
		want[0] += NB_Q;
		t_sum += t;
		t_max = RTE_MAX(t_max, t);
	}
	traffic_flows(100);
	r[0] = rte_atomic_load_explicit(&reordered, rte_memory_order_relaxed);
	gate_counts(g0, &tmo[0], &gates[0]);
	for (i = 0; i < n_rule; i++) {
		traffic_flows(10);
		/* from every other queue (the RETA names them all) to i % NB_Q */
		f = all_udp((uint16_t)(i % NB_Q), &err);
		CHECK(f != NULL, "all-UDP rule: %s", err.message ? err.message : "?");
		want[1] += NB_Q - 1;
		traffic_flows(10);
		if (f != NULL)
			CHECK(rte_flow_destroy(port, f, &err) == 0, "destroy");
		want[1] += NB_Q - 1;
	}
	traffic_stop();
	r[1] = rte_atomic_load_explicit(&reordered, rte_memory_order_relaxed) - r[0];
	gate_counts(g0, &tmo[1], &gates[1]);
	tmo[1] -= tmo[0];
	gates[1] -= gates[0];
	for (i = 0; i < NB_FLOWS; i++)
		total += seen[i];
	rte_pmd_octonic_gen_count(nic_port, &gen);
	rte_eth_stats_get(port, &st);
	printf("order: %d gated RETA updates of all %u buckets: %.1f us per call (max %.1f)\n",
		n_reta, info.reta_size, 1e6 * t_sum / n_reta / rte_get_timer_hz(),
		1e6 * t_max / rte_get_timer_hz());
	for (i = 0; i < 2; i++) {
		printf("order: %s: %" PRIu64 " out of order at Rx, %" PRIu64 " gates (want %"
			PRIu64 "), %" PRIu64 " gate timeouts\n",
			i == 0 ? "RETA updates" : "all-UDP rule created and destroyed", r[i],
			gates[i], want[i], tmo[i]);
		CHECK(gates[i] == want[i], "%" PRIu64 " gates, want %" PRIu64, gates[i], want[i]);
		check_order(i == 0 ? "RETA updates" : "all-UDP rule", r[i], tmo[i]);
	}
	CHECK(total + st.imissed == gen, "generated %" PRIu64 ", received %" PRIu64
		" + missed %" PRIu64, gen, total, st.imissed);
	octo_port_stop_close(port);
}

/* Stop queue @p q's poller out of its burst (10 s at most), in @p mode. */
static void
poller_pause(uint16_t q, int mode)
{
	uint64_t end = rte_get_timer_cycles() + 10 * rte_get_timer_hz();

	rte_atomic_store_explicit(&parked[q], 0, rte_memory_order_relaxed);
	rte_atomic_store_explicit(&paused[q], mode, rte_memory_order_release);
	while (!rte_atomic_load_explicit(&parked[q], rte_memory_order_acquire) &&
			rte_get_timer_cycles() < end)
		rte_delay_us_sleep(100);
	CHECK(parked[q], "queue %u's poller did not stop", q);
}

static void
poller_resume(void *arg)
{
	rte_atomic_store_explicit(&paused[(uintptr_t)arg], PAUSE_NONE, rte_memory_order_release);
}

/* Half @p half (0, 1) of queue @p from's default buckets to queue @p to. */
static void
reta_move_half(uint16_t from, uint16_t to, int half, uint16_t size)
{
	struct rte_eth_rss_reta_entry64 conf[OCTOPUS_TEST_RETA / RTE_ETH_RETA_GROUP_SIZE];
	uint16_t b;

	memset(conf, 0, sizeof(conf));
	for (b = 0; b < size; b++)
		if (b % NB_Q == from && (b < size / 2) == (half == 0)) {
			conf[b / RTE_ETH_RETA_GROUP_SIZE].mask |=
				UINT64_C(1) << (b % RTE_ETH_RETA_GROUP_SIZE);
			conf[b / RTE_ETH_RETA_GROUP_SIZE].reta[b % RTE_ETH_RETA_GROUP_SIZE] = to;
		}
	CHECK(rte_eth_dev_rss_reta_update(port, conf, size) == 0, "reta update");
}

/*
 * The start of a test of two gated RETA moves: traffic flowing, the port's
 * counters in @p g0 and its info in @p info; the packets out of order so far.
 */
static uint64_t
two_moves_start(struct rte_mempool *mp, struct rte_pmd_octopus_migration *g0,
		struct rte_eth_dev_info *info)
{
	traffic_start(mp, 0, g0);
	CHECK(rte_eth_dev_info_get(port, info) == 0 && info->reta_size <= OCTOPUS_TEST_RETA,
		"reta size %u", info->reta_size);
	traffic_flows(20);
	return rte_atomic_load_explicit(&reordered, rte_memory_order_relaxed);
}

/*
 * Its end: traffic stopped, the packets out of order since @p r0 in @p r
 * and the gate timeouts since @p g0 in @p tmo, printed; two gates made.
 */
static void
two_moves_end(const char *what, const struct rte_pmd_octopus_migration *g0, uint64_t r0,
		uint64_t *r, uint64_t *tmo)
{
	uint64_t gates;

	traffic_stop();
	*r = rte_atomic_load_explicit(&reordered, rte_memory_order_relaxed) - r0;
	gate_counts(g0, tmo, &gates);
	printf("%s: %" PRIu64 " out of order at Rx, %" PRIu64 " gates, %" PRIu64
		" gate timeouts\n", what, *r, gates, *tmo);
	CHECK(gates == 2, "%s: %" PRIu64 " gates, want 2", what, gates);
}

/*
 * On demand: the pollers of a moved flow's old and new
 * queue starved past the gate's timeout, then the control thread moves
 * more of the same buckets while only the new queue's poller is back. The
 * first gate expired with no poller to see it; the second change's limit
 * goes past it (the moved flows' new frames are delivered ahead of the
 * old queue's). Reordering is then allowed, but only with the expired
 * gate counted: a reorder with no gate timeout is the flake of
 * octopus_testpmd_order_{mac_1,io_2_full} (RETA phase, loaded host).
 */
static void
test_stall(struct rte_mempool *mp)
{
	const uint16_t a = 1, b = 2;
	struct rte_pmd_octopus_migration g0[NB_Q];
	struct rte_eth_dev_info info;
	uint64_t tmo, r0, r;

	r0 = two_moves_start(mp, g0, &info);
	/* the old queue starved: its drain is not acked */
	poller_pause(a, PAUSE_SPIN);
	reta_move_half(a, b, 0, info.reta_size);
	/* the new queue starved too, past the gate's timeout */
	poller_pause(b, PAUSE_SPIN);
	rte_delay_us_sleep(2 * 50 * 1000);
	/* the new queue's poller comes back as the next change settles */
	CHECK(rte_eal_alarm_set(2000, poller_resume, (void *)(uintptr_t)b) == 0, "alarm");
	reta_move_half(a, b, 1, info.reta_size);
	rte_delay_us_sleep(20 * 1000);
	poller_resume((void *)(uintptr_t)a);
	two_moves_end("stall", g0, r0, &r, &tmo);
	/* A gate waits for a poller the host descheduled: while both
	 * pollers are parked the first gate need not expire, and the second
	 * change then replaces it in order; one that expired must be
	 * counted. Out of order only with a gate timeout.
	 */
	CHECK(r == 0 || tmo >= 1, "a gate expired and was replaced uncounted (%" PRIu64
		" out of order with no gate timeout)", r);
	octo_port_stop_close(port);
}

/*
 * A gate's source that is polled again after a while must be waited for,
 * however long past the gate's deadline, as long as it is still polled:
 * the moved buckets' new queue b waits for queue a to deliver what it held.
 * a's poller asleep (state S: blocked, to the kernel) from before the move
 * to four deadlines past it, then back; then a polled by another thread
 * (the main lcore) a few frames at a time, slowly, for eight deadlines,
 * before its own poller is back. Each time: no gate opens on its timeout,
 * nothing is out of order. Under a loaded host these are a poller blocked
 * for a moment (a page fault, a pipe) and a queue that moved lcore.
 */
static void
test_slow_source(struct rte_mempool *mp)
{
	const uint16_t a = 1, b = 2;
	struct rte_pmd_octopus_migration g0[NB_Q];
	struct rte_eth_dev_info info;
	struct rte_mbuf *pkts[4];
	uint64_t tmo, r0, r;
	uint16_t n, k;
	int i;

	r0 = two_moves_start(mp, g0, &info);
	/* asleep with frames of the moved buckets in its queue */
	poller_pause(a, PAUSE_SLEEP);
	traffic_flows(20);
	reta_move_half(a, b, 0, info.reta_size);
	rte_delay_us_sleep(4 * 50 * 1000);
	poller_resume((void *)(uintptr_t)a);
	traffic_flows(20);
	/* polled by another thread, 4 frames every 10 ms: it cannot have
	 * delivered what it held at the move before its own poller is back
	 */
	poller_pause(a, PAUSE_SLEEP);
	traffic_flows(20);
	reta_move_half(a, b, 1, info.reta_size);
	for (i = 0; i < 40; i++) {
		n = rte_eth_rx_burst(port, a, pkts, RTE_DIM(pkts));
		for (k = 0; k < n; k++) {
			account(a, pkts[k]);
			rte_pktmbuf_free(pkts[k]);
		}
		rte_delay_us_sleep(10 * 1000);
	}
	poller_resume((void *)(uintptr_t)a);
	two_moves_end("slow source", g0, r0, &r, &tmo);
	check_order("source asleep, then polled slowly by another thread", r, tmo);
	octo_port_stop_close(port);
}

/* The queue of flow @p id's bucket in the default RETA (test_flow). */
static uint16_t
bucket_queue(int id)
{
	return (rte_be_to_cpu_16(flow_sport[id]) & 63) % NB_Q;
}

/* The alarm's: the pollers back, if a rule's change waited for them. */
static int resumed_late;

static void
pollers_resume_all(void *arg)
{
	uint16_t q;

	for (q = 0; q < NB_Q; q++)
		poller_resume((void *)(uintptr_t)q);
	if (arg != NULL)
		rte_atomic_store_explicit(&resumed_late, 1, rte_memory_order_release);
}

/*
 * Rules made while the application polls nothing (testpmd's "stop": its
 * lcores wait between bursts): a rule's gate has no burst to wait for
 * (a burst that read the route before the gate closed), and a second
 * rule for the same queue does not wait for the first one's gate to
 * open, so both creates return with the pollers still away (they waited
 * for two more bursts of the destination, then for that gate, a second
 * each for a poller that sleeps for good, until the alarm here for one
 * that naps). Then only the destination's
 * poller runs, and sleeps inside its PF's Rx burst (rte_pmd_octonic_rx_stall)
 * as a rule for it is made: the create returns once that burst ended. In
 * order, no gate timeout, once the pollers are back.
 */
static void
test_stopped(struct rte_mempool *mp)
{
	struct rte_pmd_octopus_migration g0[NB_Q];
	uint64_t hz = rte_get_timer_hz(), t0, t1, end, tmo, gates, r0;
	struct rte_flow *f0, *f1, *f2;
	struct rte_flow_error err;
	uint16_t q, dst;
	int id;
	uint16_t pf1 = port_of("net_octonic0_pf1");
	int st = RTE_PMD_OCTONIC_STALL_NONE, late;

	CHECK(nb_pf == 2, "2 PFs: queues 1 and 3 on PF1");
	traffic_start(mp, 0, g0);
	traffic_flows(20);
	r0 = rte_atomic_load_explicit(&reordered, rte_memory_order_relaxed);
	for (q = 0; q < NB_Q; q++)
		poller_pause(q, PAUSE_SLEEP);
	CHECK(rte_eal_alarm_set(800 * 1000, pollers_resume_all, &resumed_late) == 0, "alarm");
	/* flow 0 from its bucket's queue to another, then another flow to
	 * that queue while the first rule's gate holds
	 */
	dst = (uint16_t)((bucket_queue(0) + 1) % NB_Q);
	for (id = 2; id < NB_FLOWS - 1 && (seen[id] == 0 || bucket_queue(id) == dst); id++)
		;
	CHECK(seen[1] != 0 && seen[id] != 0, "flows 1 and %d not seen yet", id);
	t0 = rte_get_timer_cycles();
	f0 = pin(flow_src[0], flow_sport[0], dst, &err);
	CHECK(f0 != NULL, "pin: %s", err.message ? err.message : "?");
	f2 = pin(flow_src[id], flow_sport[id], dst, &err);
	t1 = rte_get_timer_cycles();
	late = rte_atomic_load_explicit(&resumed_late, rte_memory_order_acquire);
	rte_eal_alarm_cancel(pollers_resume_all, &resumed_late);
	CHECK(f2 != NULL, "pin: %s", err.message ? err.message : "?");
	printf("stopped: two gated rules for rxq %u made in %.2f ms while nothing polls\n",
		dst, (double)(t1 - t0) * 1000 / hz);
	CHECK(!late, "two creates waited %.0f ms, for pollers that polled nothing",
		(double)(t1 - t0) * 1000 / hz);
	/* flow 1 to a queue of PF1 (socket 1) other than its bucket's */
	dst = bucket_queue(1) == 1 ? 3 : 1;
	pollers_resume_all(NULL);
	for (q = 0; q < NB_Q; q++)
		if (q != dst)
			poller_pause(q, PAUSE_SLEEP);
	CHECK(rte_pmd_octonic_rx_stall(pf1, 200 * 1000) == 0, "PF1's Rx stall");
	end = rte_get_timer_cycles() + 10 * hz;
	while (rte_get_timer_cycles() < end &&
			(st = rte_pmd_octonic_rx_stall_state(pf1)) != RTE_PMD_OCTONIC_STALL_INSIDE)
		rte_delay_us_sleep(100);
	CHECK(st == RTE_PMD_OCTONIC_STALL_INSIDE, "no Rx burst of PF1 stalled in 10 s (%d)", st);
	t0 = rte_get_timer_cycles();
	f1 = pin(flow_src[1], flow_sport[1], dst, &err);
	t1 = rte_get_timer_cycles();
	st = rte_pmd_octonic_rx_stall_state(pf1);
	CHECK(f1 != NULL, "pin: %s", err.message ? err.message : "?");
	CHECK(st == RTE_PMD_OCTONIC_STALL_DONE,
		"a rule for rxq %u made in %.1f ms while its poller was inside a burst (%d)",
		dst, (double)(t1 - t0) * 1000 / hz, st);
	printf("stopped: a gated rule made in %.1f ms, once its queue's stalled burst ended\n",
		(double)(t1 - t0) * 1000 / hz);
	pollers_resume_all(NULL);
	traffic_stop();
	gate_counts(g0, &tmo, &gates);
	printf("stopped: %" PRIu64 " gates, %" PRIu64 " gate timeouts, %" PRIu64
		" out of order\n", gates, tmo,
		rte_atomic_load_explicit(&reordered, rte_memory_order_relaxed) - r0);
	check_order("rules made while nothing polls or inside a burst",
		rte_atomic_load_explicit(&reordered, rte_memory_order_relaxed) - r0, tmo);
	octo_port_stop_close(port);
}

/*
 * A rule made on a started port before the application polls anything
 * (testpmd's rules before "start"), the pollers started over a second
 * later: the rule's gates wait for their sources' first bursts (their
 * clocks start when the destination is first polled, not when the gate
 * closed), so every flow stays in order and no gate times out. They gave
 * up at the destination's first burst before (sources unpolled for over
 * a second), counted, with the moved flows' older packets still queued.
 */
static void
test_unpolled(struct rte_mempool *mp)
{
	struct rte_pmd_octopus_migration g0[NB_Q];
	struct rte_flow_error err;
	uint64_t tmo, gates, r;
	struct rte_flow *f;
	uint16_t q;

	setup_port(mp);
	for (q = 0; q < NB_Q; q++)
		g0[q] = octo_migration(port, 0, q);
	stop = 0;
	rte_pmd_octonic_gen_enable(nic_port, 1);
	rte_delay_us_sleep(100 * 1000);		/* the queues fill */
	f = all_udp(1, &err);
	CHECK(f != NULL, "all-UDP rule: %s", err.message ? err.message : "?");
	rte_delay_us_sleep(1200 * 1000);	/* past OCTO_GATE_STILL_MS */
	rte_eal_mp_remote_launch(poll_queue, NULL, SKIP_MAIN);
	traffic_flows(200);
	traffic_stop();
	r = rte_atomic_load_explicit(&reordered, rte_memory_order_relaxed);
	gate_counts(g0, &tmo, &gates);
	printf("unpolled: %" PRIu64 " gates, %" PRIu64 " gate timeouts, %" PRIu64
		" out of order\n", gates, tmo, r);
	CHECK(gates == NB_Q - 1, "%" PRIu64 " gates, want %d", gates, NB_Q - 1);
	check_order("a rule made before the first poll", r, tmo);
	octo_port_stop_close(port);
}

static const struct octo_case cases[] = {
	{ "pinned", test_pinned }, { "flow", test_flow }, { "wide", test_wide },
	{ "order", test_order }, { "mark", test_mark }, { "stall", test_stall },
	{ "slow_source", test_slow_source }, { "stopped", test_stopped },
	{ "unpolled", test_unpolled },
};

int
main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "";
	struct octo_pfs_eal e;
	struct rte_mempool *mp;
	struct octo_eal a;

	nb_pf = octo_pfs();
	if (nb_pf == 0)
		return 2;
	nb_desc = nb_pf == 2 ? 4096 : 1024;
	if (octo_pfs_eal_make(&e, nb_pf, NB_Q) != 0)
		return 2;
	/* lcore q on socket q mod N polls queue q; lcore 4, on socket 0,
	 * queue 0 (the main lcore runs the test)
	 */
	strlcat(e.lcores, ",4@0", sizeof(e.lcores));
	octo_eal_begin(&a, argv[0], 1024, e.lcores, "octopus-flowmove-%s-%u", which, nb_pf);
	octo_eal_vdev(&a, "net_octonic0,%s,wire=gen,flows=%u,gen_rate=%u", e.nic, NB_FLOWS,
		GEN_PPS);
	/* beyond 2 PFs rx_pool=app: the port's own pools (rx_pool=local)
	 * mirror the application's on every member's socket, N times the
	 * memory of the shared hugepages; locality is not what this tests
	 */
	octo_eal_vdev(&a, "net_octopus0,%s,migration=manual%s", e.members,
		nb_pf > 2 ? ",rx_pool=app" : "");
	if (octo_eal_start(&a, NB_Q + 1) < 0 || !octo_pfs_sockets_ok(nb_pf))
		return 2;
	/* rx_pool=app: every queue's ring on every member, as a NIC that
	 * fills its rings at start (mlx5) takes them, the Tx rings and the
	 * lcores' caches */
	mp = octo_app_pool("app", nb_pf > 2 ? (nb_pf + 1) * NB_Q * nb_desc + 8192 : 16384, 0);
	if (mp == NULL)
		return 2;
	port = port_of("net_octopus0");
	nic_port = octo_gen_pf("net_octonic0_pf0");
	return octo_case_main(cases, RTE_DIM(cases), which, argv[0], mp);
}
