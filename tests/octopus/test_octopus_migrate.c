/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Queue migration under load: net_octopus over N net_octonic PFs on N
 * (emulated) sockets (N = $OCTO_PFS, 2 by default; octo_pfs.h), wire=gen
 * with 1024 sequence-numbered flows, max(4, N) virtual queues, queue q
 * homed on socket q mod N. Lcore 0 drives; lcores 1..N+1, lcore k on
 * socket k mod N (at 2 PFs: 1, 3 on socket 1 and 2 on socket 0), poll:
 * lcore owner[q] polls queue q, checks per-flow order of what it receives
 * and sends it back through Tx queue q (the NIC's sink checks the order on
 * the wire). Run under tools/octopus-numa-emu --nodes N. A move takes a
 * queue to another socket, each of the N - 1 others in turn.
 *
 *   test_octopus_migrate order [N]    N moves (default 1000), half with
 *       the API (queue_migrate_lcore, then the poller changes), half
 *       automatic (only the poller changes, migration=auto): 0 reordered,
 *       0 duplicated per flow at Rx and at the sink, losses only where the
 *       NIC counted a drop; after each move completes, the NIC's remote-DMA
 *       and remote-poll counters of that queue stop growing.
 *   test_octopus_migrate nodrain [N]  the same with PFs whose Rx bursts come
 *       back short while their rings hold more (rte_pmd_octonic_rx_burst_max)
 *       and whose queue counts say 0 (rte_pmd_octonic_rx_count_zero), which
 *       the drain takes for empty: reordering is seen, so the first case can
 *       fail.
 *   test_octopus_migrate nosteer      members without e-switch (net_null):
 *       a poller on the other socket moves Rx and Tx (migration=auto), the
 *       API moves them back; the API's refusals; bad devargs refused.
 *   test_octopus_migrate gate         the flow gate: a flow moved from
 *       queue 0 to queue 1 (RETA) is not delivered by queue 1 until queue 0
 *       drained; without the gate it is, out of order.
 *   test_octopus_migrate failover     PF1 (PF3 beyond 2 PFs) unplugged
 *       under load, then plugged back: its queues served within a bound by
 *       the member the SLIT names nearest to its socket, in order, losses
 *       accounted; back home, remote counters flat.
 *   test_octopus_migrate idle         2 s of steady forwarding, migration=auto:
 *       the control thread is not on a CPU (no spin, no timer).
 *   test_octopus_migrate tx           Tx queue moves under load and quiet
 *       (test_tx): each ends in time, the wire in order, none lost; under
 *       sparse Tx completions some end on the settle bound.
 *   test_octopus_migrate tx_late      the same with the NIC reading Tx
 *       posts up to 5 ms late, above the bound: must reorder on the wire.
 *   test_octopus_migrate follow       automatic migration follows a poller:
 *       a 50 ms drain and one-off polls from the other socket move nothing;
 *       a new poller moves the queue after migrate_after (default), not before.
 * The latency of a move is measured by bench_migrate (bench_migrate.sh).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_alarm.h>
#include <rte_bus_vdev.h>
#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#include <octopus_dpdk_compat.h>

#include "octo_wire.h"
#include "octopus_internal.h"
#include "rte_pmd_octonic.h"
#include "rte_pmd_octopus.h"

#include "../common/octo_check.h"
#include "../common/octo_cases.h"
#include "../common/octo_eal.h"
#include "../common/octo_hold.h"
#include "../common/octo_migration.h"
#include "../common/octo_pfs.h"
#include "../common/octo_port.h"
#include "../common/octo_state.h"
#include "../common/octo_sched.h"
#include "../common/octo_seq_check.h"
#include "../common/octo_dialect.h"
#include "../common/octo_test_eal.h"

/* queues: 4, or one per socket at more PFs; queue q on socket q mod the PFs */
#define MAX_Q OCTO_PFS_MAX
#define MAX_FLOWS 100000

static unsigned int nb_pf;	/* OCTO_PFS: PF k on socket k */
static uint16_t nb_q, nb_desc;
static uint16_t port, pf[OCTO_PFS_MAX];
static int owner[MAX_Q];		/* lcore polling queue q */
static int holder[MAX_Q];	/* 1 while an lcore is inside a burst of q */
static uint64_t polls[MAX_Q];
static uint64_t received;
static volatile int stop;

/* per flow, touched only by the holder of the flow's queue */
OCTO_SEQ_CHECK_DEFINE(seq, MAX_FLOWS);

/* One burst of queue @p q, forwarded; the packets it took. */
static uint64_t
poll_queue(uint16_t q)
{
	uint64_t n = octo_seq_forward(&seq, port, q);

	rte_atomic_fetch_add_explicit(&received, n, rte_memory_order_relaxed);
	rte_atomic_fetch_add_explicit(&polls[q], 1, rte_memory_order_release);
	return n;
}

static int
worker(void *arg)
{
	RTE_SET_USED(arg);
	/* beyond 2 PFs, N+1 pollers share this 2-CPU machine's CPUs: an
	 * idle one leaves them to the others
	 */
	octo_hold_poll(owner, holder, nb_q, &stop, poll_queue, nb_pf > 2);
	return 0;
}

/*
 * Lcore of socket @p s for queue q: lcores 1..N+1 are on socket k mod N,
 * so socket 0 has lcore N, socket 1 lcores 1 and N+1 (odd queues on 1),
 * socket s > 1 lcore s.
 */
static int
lcore_on(int s, uint16_t q)
{
	if (s == 0)
		return (int)nb_pf;
	if (s == 1)
		return (q & 1) ? 1 : (int)nb_pf + 1;
	return s;
}

static uint64_t
remote_of(uint16_t q)
{
	struct rte_pmd_octonic_locality l;
	uint64_t t = 0;
	int m, tx;

	for (m = 0; m < (int)nb_pf; m++)
		for (tx = 0; tx < 2; tx++) {
			memset(&l, 0, sizeof(l));
			rte_pmd_octonic_locality_get(pf[m], q, tx, &l);
			t += l.remote_dma_pkts + l.remote_polls;
		}
	return t;
}

/* Wait until queue q's poller has done @p bursts more; false on timeout. */
static bool
wait_polls(uint16_t q, uint64_t bursts)
{
	uint64_t want = rte_atomic_load_explicit(&polls[q], rte_memory_order_acquire) + bursts;
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz();

	/* sleep, not spin: the pollers share 2 CPUs with this lcore */
	while (rte_atomic_load_explicit(&polls[q], rte_memory_order_acquire) < want) {
		if (rte_get_timer_cycles() > end)
			return false;
		rte_delay_us_sleep(20);
	}
	return true;
}

/* Wait until every queue's poller has done @p bursts more. */
static void
wait_all_polls(uint64_t bursts)
{
	uint16_t q;

	for (q = 0; q < nb_q; q++)
		wait_polls(q, bursts);
}

/*
 * True once a window of 4 polls of every queue passes in which no queue's
 * remote DMA or remote polls grew, looked for up to 2 s. After a move the
 * drained frames' Tx (mbufs of the old socket) and a burst already under
 * way on the old lcore may still count remote for a while, longer on a
 * loaded host; a queue still served remotely grows in every window.
 */
static bool
remote_at_rest(void)
{
	uint64_t before[MAX_Q], end = rte_get_timer_cycles() + 2 * rte_get_timer_hz();
	bool still;
	uint16_t q;

	wait_all_polls(3);
	do {
		for (q = 0; q < nb_q; q++)
			before[q] = remote_of(q);
		wait_all_polls(4);
		still = false;
		for (q = 0; q < nb_q; q++)
			still = still || remote_of(q) != before[q];
	} while (still && rte_get_timer_cycles() < end);
	return !still;
}

/*
 * @p nb moves, @p batch at a time (one per queue, in parallel); the first
 * @p nb_explicit through the API, the rest automatic. Latencies (Rx,
 * request to steady) go to @p lat.
 */
static void
move_queues(unsigned int nb, unsigned int batch, unsigned int nb_explicit,
		uint64_t *lat, bool check_remote)
{
	struct rte_pmd_octopus_migration r[MAX_Q], t[MAX_Q];
	unsigned int i, k, bad_remote = 0, timeouts = 0;
	uint64_t end;
	int sock[MAX_Q], to, ret;
	uint16_t qs[MAX_Q], q;
	bool all;

	for (i = 0; i < nb; i += batch) {
		unsigned int nk = RTE_MIN(batch, nb - i);

		if (i >= nb_explicit && rte_pmd_octopus_migration_auto_get(port) == 0)
			CHECK(rte_pmd_octopus_migration_auto_set(port, 1) == 0, "auto");
		for (k = 0; k < nk; k++) {
			q = qs[k] = (i + k) % nb_q;
			rte_pmd_octopus_migration_get(port, q, 0, &r[k]);
			rte_pmd_octopus_migration_get(port, q, 1, &t[k]);
			sock[k] = (int)octo_pfs_other((unsigned int)r[k].home_socket,
				i / nb_q, nb_pf);
			to = lcore_on(sock[k], q);
			if (i < nb_explicit) {
				ret = rte_pmd_octopus_queue_migrate_lcore(port, q, to);
				CHECK(ret == 0, "move %u: queue %u to lcore %d: %d", i + k, q, to, ret);
			}
			/* the poller follows (in auto mode it is the trigger) */
			rte_atomic_store_explicit(&owner[q], to, rte_memory_order_release);
		}
		/* a liveness bound, not a latency check (bench_migrate
		 * measures that): generous, for a loaded 2-CPU machine
		 */
		end = rte_get_timer_cycles() + 10 * rte_get_timer_hz();
		do {
			all = true;
			for (k = 0; k < nk; k++)
				all = all && octo_mig_settled(port, qs[k], sock[k],
					r[k].migrations, t[k].migrations);
			if (!all)
				rte_delay_us_sleep(20);
		} while (!all && rte_get_timer_cycles() < end);
		if (!all) {
			timeouts++;
			continue;
		}
		for (k = 0; k < nk; k++) {
			rte_pmd_octopus_migration_get(port, qs[k], 0, &r[k]);
			lat[i + k] = r[k].last_latency_ns;
		}
		if (!check_remote)
			continue;
		if (!remote_at_rest())
			bad_remote++;
	}
	CHECK(timeouts == 0, "%u batches of moves did not settle within 10 s", timeouts);
	CHECK(bad_remote == 0, "%u of %u moves: remote DMA/polls grew after the move",
		bad_remote, nb);
	CHECK(rte_pmd_octopus_migration_auto_set(port, 0) == 0, "manual");
}

static void
start_port(struct rte_mempool *mp)
{
	struct octo_port_conf c = {
		.nb_rxq = nb_q, .nb_txq = nb_q, .nb_desc = nb_desc,
		.socket = OCTO_SOCKET_SPREAD, .pool = mp,
	};
	uint16_t q;

	for (q = 0; q < nb_q; q++)
		owner[q] = lcore_on(q % nb_pf, q);
	CHECK(octo_port_start(port, &c) == 0, "configure, set up and start the port");
}

static int starved_owner[MAX_Q];

static void
pollers_back(void *arg)
{
	uint16_t q;

	RTE_SET_USED(arg);
	for (q = 0; q < nb_q; q++)
		rte_atomic_store_explicit(&owner[q], starved_owner[q], rte_memory_order_release);
}

/*
 * Every queue left unpolled for @p ms from now (its lcore starved by a
 * loaded host), its poller back after that (an alarm).
 */
static void
pollers_starve(unsigned int ms)
{
	uint16_t q;

	for (q = 0; q < nb_q; q++) {
		starved_owner[q] = rte_atomic_load_explicit(&owner[q], rte_memory_order_acquire);
		rte_atomic_store_explicit(&owner[q], -1, rte_memory_order_release);
	}
	CHECK(rte_eal_alarm_set(ms * 1000, pollers_back, NULL) == 0, "alarm");
}

/* Frames generated that are neither received nor counted dropped yet. */
static bool
unaccounted(void)
{
	struct rte_eth_stats st;
	uint64_t gen = 0;

	memset(&st, 0, sizeof(st));
	rte_pmd_octonic_gen_count(pf[0], &gen);
	rte_eth_stats_get(port, &st);
	return rte_atomic_load_explicit(&received, rte_memory_order_relaxed) + st.imissed +
		octo_xstat(port, "outage_lost_packets") < gen;
}

/*
 * Stop the generator and poll until nothing more arrives (100 ms calm)
 * and every frame generated is received or counted dropped, within a
 * liveness bound: a port that keeps delivering fails the test, one that
 * lost frames fails its balance. Calm alone is not enough: pollers
 * starved for 100 ms (a loaded host) leave frames in the rings.
 */
static void
quiesce(void)
{
	uint64_t last = UINT64_MAX, now;
	uint64_t end = rte_get_timer_cycles() + 10 * rte_get_timer_hz();

	rte_pmd_octonic_gen_enable(pf[0], 0);
	do {
		last = rte_atomic_load_explicit(&received, rte_memory_order_relaxed);
		rte_delay_ms(100);
		now = rte_atomic_load_explicit(&received, rte_memory_order_relaxed);
	} while ((now != last || unaccounted()) && rte_get_timer_cycles() < end);
	CHECK(now == last, "frames still arriving 10 s after the generator stopped");
}

/* The pollers stopped; what the generator made into *@p gen, the port's stats into @p st. */
static void
pollers_end(uint64_t *gen, struct rte_eth_stats *st)
{
	stop = 1;
	rte_eal_mp_wait_lcore();
	rte_pmd_octonic_gen_count(pf[0], gen);
	memset(st, 0, sizeof(*st));
	rte_eth_stats_get(port, st);
}

static void
test_order(struct rte_mempool *mp, unsigned int nb, bool drain)
{
	struct rte_pmd_octonic_sink_stats sink;
	struct rte_pmd_octopus_migration ms;
	struct rte_eth_stats st;
	uint64_t *lat = calloc(nb, sizeof(*lat));
	uint64_t gen = 0, lost, migrations = 0, drained = 0;
	uint16_t q;

	start_port(mp);
	CHECK(rte_pmd_octopus_migration_auto_get(port) == 0, "manual by default");
	CHECK(rte_pmd_octonic_gen_enable(pf[0], 1) == 0, "generator on");
	stop = 0;
	rte_eal_mp_remote_launch(worker, NULL, SKIP_MAIN);
	wait_all_polls(4);	/* every queue has its poller */
	{
		uint64_t t0 = rte_get_timer_cycles();

		unsigned int round;

		move_queues(nb, nb_q, nb / 2, lat, drain);
		/*
		 * The control without the drain reorders only when a move finds
		 * packets left in the old PF's ring: on a host so loaded that
		 * the generator makes few, a round of moves may find none. More
		 * rounds then (the control must show the check can fail).
		 */
		for (round = 1; !drain && round < 4 &&
				rte_atomic_load_explicit(&seq.reordered, rte_memory_order_relaxed) == 0; round++)
			move_queues(nb, nb_q, nb / 2, lat, drain);
		printf("%u moves in %.2f s\n", nb,
			(double)(rte_get_timer_cycles() - t0) / rte_get_timer_hz());
	}
	quiesce();
	pollers_end(&gen, &st);
	lost = octo_seq_lost(&seq, MAX_FLOWS);
	for (q = 0; q < nb_q; q++) {
		uint64_t id, v = UINT64_MAX, hist = 0;
		char name[64];
		int h;

		rte_pmd_octopus_migration_get(port, q, 0, &ms);
		migrations += ms.migrations;
		drained += ms.drained_pkts;
		for (h = 0; h < RTE_PMD_OCTOPUS_MIG_HIST; h++)
			hist += ms.latency_hist[h];
		snprintf(name, sizeof(name), "rx_q%u_migrations", q);
		if (rte_eth_xstats_get_id_by_name(port, name, &id) == 0)
			rte_eth_xstats_get_by_id(port, &id, &v, 1);
		CHECK(v == ms.migrations && hist == ms.migrations &&
			ms.max_latency_ns >= ms.last_latency_ns && ms.last_latency_ns > 0,
			"rxq %u: xstat %" PRIu64 ", API %" PRIu64 ", histogram %" PRIu64
			", last %" PRIu64 " max %" PRIu64 " ns", q, v, ms.migrations, hist,
			ms.last_latency_ns, ms.max_latency_ns);
	}
	CHECK(rte_pmd_octonic_sink_stats_get(pf[0], &sink) == 0, "sink");
	printf("%s: %u moves, %" PRIu64 " Rx migrations, %" PRIu64 " generated, %" PRIu64
		" received, %" PRIu64 " NIC drops, %" PRIu64 " drained from old PFs;"
		" Rx: %" PRIu64 " reordered %" PRIu64 " dup %" PRIu64 " lost;"
		" sink: %" PRIu64 " pkts %" PRIu64 " out of order %" PRIu64 " dup %"
		PRIu64 " lost\n", drain ? "order" : "nodrain", nb, migrations, gen,
		received, st.imissed, drained, seq.reordered, seq.duplicated, lost, sink.pkts,
		sink.out_of_order, sink.duplicates, sink.lost);
	CHECK(migrations >= nb, "only %" PRIu64 " Rx migrations of %u", migrations, nb);
	CHECK(seq.foreign == 0 && sink.foreign == 0, "foreign frames %" PRIu64, seq.foreign);
	/* without a full drain, frames may be left in a ring nobody reads */
	CHECK(drain ? received + st.imissed == gen : received + st.imissed <= gen,
		"received %" PRIu64 " + NIC drops %" PRIu64 " != generated %" PRIu64,
		received, st.imissed, gen);
	if (drain) {
		CHECK(seq.reordered == 0 && seq.duplicated == 0, "Rx: %" PRIu64 " reordered, %"
			PRIu64 " duplicated", seq.reordered, seq.duplicated);
		CHECK(lost <= st.imissed, "Rx: %" PRIu64 " lost, NIC counted %" PRIu64,
			lost, st.imissed);
		CHECK(sink.pkts == received && sink.out_of_order == 0 &&
			sink.duplicates == 0 && sink.lost <= st.imissed,
			"sink: %" PRIu64 " of %" PRIu64 ", %" PRIu64 " out of order, %" PRIu64
			" dup, %" PRIu64 " lost", sink.pkts, received, sink.out_of_order,
			sink.duplicates, sink.lost);
	} else {
		CHECK(seq.reordered + sink.out_of_order > 0,
			"no drain but no reordering seen (Rx %" PRIu64 ", sink %" PRIu64 ")",
			seq.reordered, sink.out_of_order);
	}
	octo_port_stop_close(port);
	free(lat);
}

/* lcore 1 (socket 1) polls queue 0 of @p vport until both directions settle. */
static int
poll_from_socket1(void *arg)
{
	uint16_t vport = *(uint16_t *)arg;
	struct rte_pmd_octopus_migration r, t;
	uint64_t end = rte_get_timer_cycles() + 2 * rte_get_timer_hz();
	struct rte_mbuf *pkts[32];
	uint16_t n, k;

	do {
		n = rte_eth_rx_burst(vport, 0, pkts, RTE_DIM(pkts));
		k = rte_eth_tx_burst(vport, 0, pkts, n);
		rte_pktmbuf_free_bulk(pkts + k, n - k);
		rte_pmd_octopus_migration_get(vport, 0, 0, &r);
		rte_pmd_octopus_migration_get(vport, 0, 1, &t);
	} while (!(r.home_socket == 1 && t.home_socket == 1 &&
		   r.phase == RTE_PMD_OCTOPUS_MIG_STEADY &&
		   t.phase == RTE_PMD_OCTOPUS_MIG_STEADY) &&
		 rte_get_timer_cycles() < end);
	/* settled: 10 more bursts, all local */
	for (k = 0; k < 10; k++) {
		n = rte_eth_rx_burst(vport, 0, pkts, RTE_DIM(pkts));
		rte_pktmbuf_free_bulk(pkts, n);
		rte_eth_tx_burst(vport, 0, pkts, 0);
	}
	return 0;
}

/*
 * Members without e-switch (net_null): migration moves Tx and the Rx polling
 * order; auto by a poller on the other socket, then back with the API. And
 * the API's refusals, and devargs refused.
 */
static void
test_nosteer(struct rte_mempool *mp)
{
	struct rte_pmd_octopus_migration r, t;
	struct rte_pmd_octopus_queue_info qi;
	struct rte_pmd_octopus_locality loc;
	struct rte_eth_conf conf;
	uint64_t foreign, end;
	struct rte_mbuf *pkts[32];
	uint16_t vport = RTE_MAX_ETHPORTS, n;

	CHECK(rte_vdev_init("net_null10", NULL) == 0 && rte_vdev_init("net_null11", NULL) == 0,
		"net_null members");
	CHECK(rte_vdev_init("net_octopus9", "member=net_null10,member=net_null11,"
		"socket_of=net_null10:0,socket_of=net_null11:1,migration=bogus") != 0,
		"migration=bogus accepted");
	CHECK(rte_vdev_init("net_octopus9", "member=net_null10,member=net_null11,"
		"socket_of=net_null10:0,socket_of=net_null11:1,drain=2") != 0,
		"drain=2 accepted");
	CHECK(rte_vdev_init("net_octopus1", "member=net_null10,member=net_null11,"
		"socket_of=net_null10:0,socket_of=net_null11:1,migration=auto") == 0,
		"octopus over net_null");
	rte_eth_dev_get_port_by_name("net_octopus1", &vport);
	CHECK(rte_pmd_octopus_migration_auto_get(vport) == 1, "migration=auto not taken");
	memset(&conf, 0, sizeof(conf));
	CHECK(rte_eth_dev_configure(vport, 1, 1, &conf) == 0, "configure");
	CHECK(rte_eth_rx_queue_setup(vport, 0, 512, 0, NULL, mp) == 0, "rxq");
	CHECK(rte_eth_tx_queue_setup(vport, 0, 512, 0, NULL) == 0, "txq");
	CHECK(rte_pmd_octopus_queue_migrate(vport, 0, 1) == -EIO, "moved while stopped");
	CHECK(rte_eth_dev_start(vport) == 0, "start");
	CHECK(rte_pmd_octopus_queue_info_get(vport, 0, 0, &qi) == 0 && !qi.steered &&
		qi.home_socket == 0, "home socket %d steered %u", qi.home_socket, qi.steered);

	/* automatic: polled from socket 1 */
	rte_eal_remote_launch(poll_from_socket1, &vport, 1);
	rte_eal_wait_lcore(1);
	rte_pmd_octopus_migration_get(vport, 0, 0, &r);
	rte_pmd_octopus_migration_get(vport, 0, 1, &t);
	CHECK(r.home_socket == 1 && r.migrations == 1 && r.phase == RTE_PMD_OCTOPUS_MIG_STEADY,
		"rx: home socket %d, %" PRIu64 " migrations, phase %d", r.home_socket,
		r.migrations, r.phase);
	CHECK(t.home_socket == 1 && t.migrations == 1 && t.phase == RTE_PMD_OCTOPUS_MIG_STEADY,
		"tx: home socket %d, %" PRIu64 " migrations, phase %d", t.home_socket,
		t.migrations, t.phase);
	rte_pmd_octopus_locality_get(vport, 0, 0, &loc);
	foreign = loc.foreign_polls;
	rte_eal_remote_launch(poll_from_socket1, &vport, 1);
	rte_eal_wait_lcore(1);
	rte_pmd_octopus_locality_get(vport, 0, 0, &loc);
	CHECK(loc.foreign_polls == foreign, "foreign polls grew after the move: %" PRIu64
		" -> %" PRIu64, foreign, loc.foreign_polls);
	rte_pmd_octopus_migration_get(vport, 0, 0, &r);
	CHECK(r.migrations == 1, "moved again: %" PRIu64, r.migrations);

	/* explicit, back to socket 0 (manual: lcore 0's polls must not move it) */
	CHECK(rte_pmd_octopus_migration_auto_set(vport, 0) == 0, "manual");
	CHECK(rte_pmd_octopus_queue_migrate(vport, 0, 0) == 0, "move back");
	end = rte_get_timer_cycles() + 2 * rte_get_timer_hz();
	do {
		/* a Tx burst lets Tx see its old member's completions */
		n = rte_eth_rx_burst(vport, 0, pkts, RTE_DIM(pkts));
		rte_pktmbuf_free_bulk(pkts, n);
		rte_eth_tx_burst(vport, 0, pkts, 0);
		rte_pmd_octopus_migration_get(vport, 0, 0, &r);
		rte_pmd_octopus_migration_get(vport, 0, 1, &t);
		rte_delay_us_sleep(100);
	} while ((r.migrations < 2 || t.migrations < 2) && rte_get_timer_cycles() < end);
	CHECK(r.home_socket == 0 && r.migrations == 2 && t.home_socket == 0 &&
		t.migrations == 2, "back: rx socket %d (%" PRIu64 "), tx socket %d (%" PRIu64 ")",
		r.home_socket, r.migrations, t.home_socket, t.migrations);
	CHECK(r.latency_hist[0] + r.latency_hist[1] + r.latency_hist[RTE_PMD_OCTOPUS_MIG_HIST - 1] <= 2,
		"histogram");
	/* refusals */
	CHECK(rte_pmd_octopus_queue_migrate(vport, 0, 0) == -EALREADY, "already there");
	CHECK(rte_pmd_octopus_queue_migrate(vport, 0, 5) == -EINVAL, "no member on socket 5");
	CHECK(rte_pmd_octopus_queue_migrate(vport, 7, 1) == -EINVAL, "queue 7");
	CHECK(rte_pmd_octopus_queue_migrate(RTE_MAX_ETHPORTS - 1, 0, 1) == -ENODEV, "bad port");
	CHECK(rte_pmd_octopus_queue_migrate_lcore(vport, 0, RTE_MAX_LCORE) == -EINVAL,
		"bad lcore");
	CHECK(rte_pmd_octopus_queue_migrate_lcore(vport, 0, 3) == 0, "to lcore 3");
	{
		/* the first is in progress (-EBUSY) or done already (-EALREADY) */
		int ret = rte_pmd_octopus_queue_migrate(vport, 0, 1);

		CHECK(ret == -EBUSY || ret == -EALREADY, "a second move: %d", ret);
	}
	CHECK(rte_eth_dev_stop(vport) == 0, "stop");
	CHECK(rte_eth_dev_close(vport) == 0, "close");
}

/*
 * Point every RETA bucket of the port at queue @p q through the steering
 * itself: rte_eth_dev_rss_reta_update() would gate the moves, and this test
 * sets the gate (or not) by hand.
 */
static void
reta_all(struct octopus_priv *p, uint16_t q)
{
	unsigned int i;
	int ret;

	for (i = 0; i < p->args.reta_size; i++) {
		ret = octopus_steer_set_bucket(p->steer, (uint16_t)i, q);
		CHECK(ret == 0, "bucket %u -> %u: %d", i, q, ret);
		if (ret == 0)
			p->reta[i] = q;
	}
}

/* Bursts of queue @p q, frames checked in order; returns how many. */
static uint64_t
take(uint16_t q, unsigned int bursts, bool until_short)
{
	struct rte_mbuf *pkts[32];
	uint64_t total = 0;
	uint16_t n;

	while (bursts-- > 0) {
		n = rte_eth_rx_burst(port, q, pkts, RTE_DIM(pkts));
		octo_seq_check_bulk(&seq, pkts, n);
		rte_pktmbuf_free_bulk(pkts, n);
		total += n;
		if (until_short && n < RTE_DIM(pkts))
			break;
	}
	return total;
}

/* The NIC model runs in bursts: an empty Tx burst runs it, taking nothing. */
static void
run_nic(void)
{
	struct rte_mbuf *none[1];

	rte_eth_tx_burst(port, 0, none, 0);
}

/*
 * The flow gate (octopus_gate_pair, what the flow code calls when a
 * flow moves between queues on different members), on one lcore: traffic
 * piles up in queue 0's hardware queue (PF0), RETA moves it all to queue 1
 * (PF1), and queue 1 is read before queue 0. With the gate queue 1 delivers
 * nothing until queue 0 is drained: no reordering. Without it queue 1
 * delivers at once, ahead of older packets: reordering (the control case).
 */
static void
test_gate(struct rte_mempool *mp)
{
	struct octopus_priv *p;
	struct rte_pmd_octopus_migration ms;
	struct octo_port_conf c = {
		.nb_rxq = 2, .nb_txq = 2, .nb_desc = nb_desc,
		.socket = OCTO_SOCKET_ALTERNATE, .pool = mp,
		.rss = 1,	/* for reta_update */
	};
	uint64_t early, drained, late, end;
	int round;

	CHECK(octo_port_start(port, &c) == 0, "configure, set up and start the port");
	p = rte_eth_devices[port].data->dev_private;
	{
		/* fewer flows than packets piled up: each flow is in both queues */
		struct rte_pmd_octonic_gen_conf gc;

		CHECK(rte_pmd_octonic_gen_get(pf[0], &gc) == 0, "gen get");
		gc.nb_flows = 16;
		CHECK(rte_pmd_octonic_gen_set(pf[0], &gc) == 0, "gen set");
	}
	rte_pmd_octonic_gen_enable(pf[0], 1);
	for (round = 0; round < 2; round++) {
		bool gated = round == 0;

		reta_all(p, 0);
		take(1, 1000, true);	/* what was left for queue 1 */
		/* pile up in queue 0 (polling queue 1 runs the NIC) */
		end = rte_get_timer_cycles() + 2 * rte_get_timer_hz();
		while (rte_eth_rx_queue_count(pf[0], 0) < 256 && rte_get_timer_cycles() < end)
			run_nic();
		seq.reordered = 0;
		reta_all(p, 1);
		if (gated)
			CHECK(octopus_gate_pair(p, 0, 1) == 0, "gate");
		/* until packets wait in queue 1's hardware queue too */
		early = 0;
		end = rte_get_timer_cycles() + 2 * rte_get_timer_hz();
		while (rte_eth_rx_queue_count(pf[1], 1) < 64 && early == 0 &&
				rte_get_timer_cycles() < end) {
			run_nic();
			early += take(1, 1, false);
		}
		if (gated) {
			rte_pmd_octopus_migration_get(port, 1, 0, &ms);
			CHECK(early == 0 && ms.gated_bursts > 0 && ms.gate_timeouts == 0,
				"gated queue 1 delivered %" PRIu64 " (gated bursts %" PRIu64
				", timeouts %" PRIu64 ")", early, ms.gated_bursts, ms.gate_timeouts);
		} else {
			CHECK(early > 0, "ungated queue 1 delivered nothing");
		}
		drained = take(0, 100000, true);
		/*
		 * A burst that returned packets acks the drain at the queue's
		 * next poll (a forwarding loop has passed them to Tx by then):
		 * poll once more, as the loop would, or the gate waits for its
		 * timeout whenever the drain ended on a short, non-empty burst.
		 */
		drained += take(0, 1, false);
		late = take(1, 100, false);
		printf("gate %s: queue 1 before the drain %" PRIu64 ", queue 0 drained %"
			PRIu64 ", queue 1 after %" PRIu64 ", reordered %" PRIu64 "\n",
			gated ? "on" : "off", early, drained, late, seq.reordered);
		CHECK(drained > 0 && late > 0, "drained %" PRIu64 " late %" PRIu64, drained, late);
		if (gated)
			CHECK(seq.reordered == 0, "%" PRIu64 " reordered behind the gate", seq.reordered);
		else
			CHECK(seq.reordered > 0, "no gate, yet no reordering: the test cannot fail");
	}
	rte_pmd_octonic_gen_enable(pf[0], 0);
	octo_port_stop_close(port);
}

/* Whether every queue, Rx and Tx, is steady at home on @p sock[q]. */
static bool
homes_are(const int *sock)
{
	struct rte_pmd_octopus_migration r, t;
	uint16_t q;

	for (q = 0; q < nb_q; q++) {
		rte_pmd_octopus_migration_get(port, q, 0, &r);
		rte_pmd_octopus_migration_get(port, q, 1, &t);
		if (r.phase != RTE_PMD_OCTOPUS_MIG_STEADY || r.home_socket != sock[q] ||
		    t.phase != RTE_PMD_OCTOPUS_MIG_STEADY || t.home_socket != sock[q])
			return false;
	}
	return true;
}

/*
 * Wait until every queue is home on @p sock[q] and each has delivered more
 * through member @p via[q] than when it got there. @return ms taken, or
 * -1 after @p limit_ms.
 */
static double
wait_served(const int *sock, const int *via, unsigned int limit_ms)
{
	uint64_t t0 = rte_get_timer_cycles(), end = t0 + rte_get_timer_hz() / 1000 * limit_ms;
	uint64_t base[MAX_Q];
	bool homed = false, all;
	uint16_t q;

	do {
		if (!homed && homes_are(sock)) {
			homed = true;
			for (q = 0; q < nb_q; q++)
				base[q] = octo_delivered_via(port, q, via[q]);
		}
		all = homed;
		for (q = 0; all && q < nb_q; q++)
			all = octo_delivered_via(port, q, via[q]) > base[q];
		if (all)
			return (double)(rte_get_timer_cycles() - t0) * 1000 / rte_get_timer_hz();
		rte_delay_us_sleep(50);
	} while (rte_get_timer_cycles() < end);
	return -1;
}

/* Packets queue @p q's pollers received through a member of another socket. */
static uint64_t
rx_remote(uint16_t q)
{
	char name[RTE_ETH_XSTATS_NAME_SIZE];

	snprintf(name, sizeof(name), "rx_q%u_remote_packets", q);
	return octo_xstat(port, name);
}

/*
 * Whether, within @p limit_ms, every queue polled from socket @p lost
 * (@p sock) counted more remote Rx packets than in @p before and no other
 * queue did.
 */
static bool
remote_grows_on(const int *sock, int lost, const uint64_t *before, unsigned int limit_ms)
{
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz() / 1000 * limit_ms;
	bool all;
	uint16_t q;

	do {
		all = true;
		for (q = 0; q < nb_q; q++)
			if (sock[q] == lost && rx_remote(q) == before[q])
				all = false;
		if (all)
			break;
		rte_delay_us_sleep(1000);
	} while (rte_get_timer_cycles() < end);
	for (q = 0; q < nb_q; q++)
		if ((rx_remote(q) > before[q]) != (sock[q] == lost))
			return false;
	return true;
}

/*
 * Failover: a PF unplugged while lcores on every socket forward: PF1 at 2
 * PFs, PF3 beyond (whose nearest by the SLIT is PF2, neither PF0 nor the
 * next PF). Its queues are served within a bound by the serving member
 * nearest to its socket by the SLIT (PF0 at 2 PFs; the traffic of the
 * queues polled from its socket flows again through it, remote and counted
 * so), the others stay home; per-flow order kept at Rx and at the sink,
 * losses those the NIC counted plus what sat in the lost PF's rings. The
 * PF plugged back: its queues return (with the drain), and remote DMA and
 * polls stop growing.
 */
static void
test_failover(struct rte_mempool *mp)
{
	int split[MAX_Q], out[MAX_Q], serving[OCTO_PFS_MAX];
	struct rte_pmd_octonic_sink_stats sink;
	struct rte_eth_stats st;
	uint64_t gen = 0, lost, outage, before[MAX_Q];
	double t_out, t_back;
	const int gone = nb_pf > 2 ? 3 : 1;
	char in_gone[32], in_near[32];
	unsigned int m;
	int near;
	uint16_t q;

	for (m = 0; m < nb_pf; m++)
		serving[m] = (int)m != gone;
	near = octo_pfs_nearest(nb_pf, (unsigned int)gone, serving);
	REQUIRE(near >= 0, "no SLIT in sysfs");
	for (q = 0; q < nb_q; q++) {
		split[q] = q % nb_pf;
		out[q] = split[q] == gone ? near : split[q];
	}
	snprintf(in_gone, sizeof(in_gone), "member%d_in_service", gone);
	snprintf(in_near, sizeof(in_near), "member%d_in_service", near);
	start_port(mp);
	CHECK(homes_are(split), "queues not at home before the unplug");
	CHECK(rte_pmd_octonic_gen_enable(pf[0], 1) == 0, "generator on");
	stop = 0;
	rte_eal_mp_remote_launch(worker, NULL, SKIP_MAIN);
	wait_all_polls(20);

	CHECK(rte_pmd_octonic_unplug(pf[gone]) == 0, "unplug PF%d", gone);
	t_out = wait_served(out, out, 5000);
	CHECK(t_out >= 0, "PF%d's queues not served by PF%d within 5 s of the unplug", gone,
		near);
	CHECK(octo_xstat(port, in_gone) == 0 && octo_xstat(port, in_near) == 1,
		"%s %" PRIu64 ", %s %" PRIu64,
		in_gone, octo_xstat(port, in_gone), in_near, octo_xstat(port, in_near));
	CHECK(octo_xstat(port, "member_losses") == 1, "member_losses %" PRIu64,
		octo_xstat(port, "member_losses"));
	/* the lost PF's socket's pollers' traffic now comes from PF<near>:
	 * remote, and counted so in xstats; the other queues' stays local
	 */
	for (q = 0; q < nb_q; q++)
		before[q] = rx_remote(q);
	CHECK(remote_grows_on(split, gone, before, 1000),
		"outage: rx remote packets %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
		" (were %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "): only the"
		" socket-%d queues' must grow", rx_remote(0), rx_remote(1), rx_remote(2),
		rx_remote(3), before[0], before[1], before[2], before[3], gone);
	/* the pollers stay where they are: the lost PF's socket's now read
	 * PF<near>, remotely; their foreign polls must not move a queue back
	 * onto the lost PF (auto)
	 */
	CHECK(rte_pmd_octopus_migration_auto_set(port, 1) == 0, "auto");
	wait_all_polls(20);
	CHECK(homes_are(out), "automatic migration moved a queue onto the unplugged PF");
	CHECK(rte_pmd_octopus_migration_auto_set(port, 0) == 0, "manual");

	CHECK(rte_pmd_octonic_plug(pf[gone]) == 0, "plug PF%d", gone);
	t_back = wait_served(split, split, 5000);
	CHECK(t_back >= 0, "queues not back on PF%d within 5 s of the plug", gone);
	CHECK(octo_xstat(port, in_gone) == 1 && octo_xstat(port, "member_returns") == 1,
		"after the plug: in service %" PRIu64 ", returns %" PRIu64,
		octo_xstat(port, in_gone), octo_xstat(port, "member_returns"));
	CHECK(remote_at_rest(), "remote DMA/polls still grow 2 s after the return");

	/* the pollers starved as the generator stops (a loaded host): the
	 * quiesce must still wait for what the rings hold
	 */
	pollers_starve(150);
	quiesce();
	pollers_end(&gen, &st);
	outage = octo_xstat(port, "outage_lost_packets");
	lost = octo_seq_lost(&seq, MAX_FLOWS);
	CHECK(rte_pmd_octonic_sink_stats_get(pf[0], &sink) == 0, "sink");
	printf("failover: %u PFs, PF%d's queues served by PF%d %.1f ms after the unplug,"
		" back home %.1f ms after the plug; %" PRIu64 " generated, %" PRIu64 " received, %" PRIu64 " NIC drops, %"
		PRIu64 " lost in PF%d's rings; Rx: %" PRIu64 " reordered %" PRIu64 " dup %"
		PRIu64 " lost; sink: %" PRIu64 " out of order %" PRIu64 " dup\n",
		nb_pf, gone, near, t_out, t_back, gen, received, st.imissed, outage, gone, seq.reordered, seq.duplicated,
		lost, sink.out_of_order, sink.duplicates);
	CHECK(seq.reordered == 0 && seq.duplicated == 0, "Rx: %" PRIu64 " reordered, %" PRIu64
		" duplicated", seq.reordered, seq.duplicated);
	CHECK(sink.out_of_order == 0 && sink.duplicates == 0,
		"sink: %" PRIu64 " out of order, %" PRIu64 " dup", sink.out_of_order,
		sink.duplicates);
	CHECK(outage <= 2 * nb_q * nb_desc, "%" PRIu64 " lost in PF%d's rings: more than they hold",
		outage, gone);
	CHECK(received + st.imissed + outage == gen, "received %" PRIu64 " + NIC drops %"
		PRIu64 " + ring losses %" PRIu64 " != generated %" PRIu64, received,
		st.imissed, outage, gen);
	CHECK(lost <= st.imissed + outage, "Rx: %" PRIu64 " lost, NIC and rings %" PRIu64,
		lost, st.imissed + outage);

	/* unplugged while stopped: queues set up for its socket meanwhile
	 * are homed on the nearest serving member, and the port starts
	 */
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	CHECK(rte_pmd_octonic_unplug(pf[gone]) == 0, "unplug PF%d (stopped)", gone);
	start_port(mp);
	for (q = 0; q < nb_q; q++) {
		struct rte_pmd_octopus_migration r;

		/* (a Tx queue gets its home from its first poller) */
		rte_pmd_octopus_migration_get(port, q, 0, &r);
		CHECK(r.home_socket == out[q], "Rx queue %u set up while PF%d was out is homed on socket %d, not %d",
			q, gone, r.home_socket, out[q]);
	}
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	CHECK(rte_pmd_octonic_plug(pf[gone]) == 0, "plug PF%d (stopped)", gone);
	CHECK(rte_eth_dev_close(port) == 0, "close");
}

/* Rx migrations of queue @p q so far. */
static uint64_t
rx_moves(uint16_t q)
{
	struct rte_pmd_octopus_migration r;

	rte_pmd_octopus_migration_get(port, q, 0, &r);
	return r.migrations;
}

/* The main lcore polls queue @p q (its owner idle) for @p ms, alone. */
static void
poll_alone(uint16_t q, unsigned int ms)
{
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz() / 1000 * ms;
	struct rte_mbuf *pkts[32];
	int was = owner[q], zero = 0;
	uint16_t n;

	rte_atomic_store_explicit(&owner[q], -1, rte_memory_order_release);
	while (!rte_atomic_compare_exchange_strong_explicit(&holder[q], &zero, 1,
			rte_memory_order_acquire, rte_memory_order_relaxed))
		zero = 0;
	while (rte_get_timer_cycles() < end) {
		n = rte_eth_rx_burst(port, q, pkts, RTE_DIM(pkts));
		octo_seq_check_bulk(&seq, pkts, n);
		rte_pktmbuf_free_bulk(pkts, n);
		rte_atomic_fetch_add_explicit(&received, n, rte_memory_order_relaxed);
	}
	rte_atomic_store_explicit(&holder[q], 0, rte_memory_order_release);
	rte_atomic_store_explicit(&owner[q], was, rte_memory_order_release);
}

/*
 * Nothing of the port spins or wakes on a timer while no move is asked:
 * 2 s of steady forwarding with migration=auto, every queue polled from
 * its home's socket, cost the port's control thread (dpdk-omig) under 2 ms
 * of CPU and at most 20 times on a CPU (a thread woken by a timer every
 * 5 us, as it once was, is on a CPU 400,000 times in 2 s).
 */
static void
test_idle(struct rte_mempool *mp)
{
	struct octo_sched_times t0, t1;
	uint64_t r0, moves = 0;
	struct rte_pmd_octopus_migration r;
	int tid;
	uint16_t q;

	start_port(mp);
	CHECK(rte_pmd_octopus_migration_auto_set(port, 1) == 0, "auto");
	CHECK(rte_pmd_octonic_gen_enable(pf[0], 1) == 0, "generator on");
	stop = 0;
	rte_eal_mp_remote_launch(worker, NULL, SKIP_MAIN);
	for (q = 0; q < nb_q; q++)
		CHECK(wait_polls(q, 100), "queue %u not polled", q);
	tid = octo_thread_named("dpdk-omig");
	CHECK(tid > 0, "no control thread named dpdk-omig");
	/* schedstat readable: this thread has run */
	CHECK(octo_sched_of(rte_sys_gettid()).run_ns > 0, "no schedstat for this thread");
	r0 = rte_atomic_load_explicit(&received, rte_memory_order_relaxed);
	t0 = octo_sched_of(tid);
	rte_delay_us_sleep(2 * 1000 * 1000);
	t1 = octo_sched_of(tid);
	for (q = 0; q < nb_q; q++) {
		rte_pmd_octopus_migration_get(port, q, 0, &r);
		moves += r.migrations;
	}
	printf("idle: 2 s of forwarding (%" PRIu64 " packets, %" PRIu64 " moves): control thread"
		" %.3f ms on a CPU, %" PRIu64 " times\n",
		rte_atomic_load_explicit(&received, rte_memory_order_relaxed) - r0, moves,
		(t1.run_ns - t0.run_ns) / 1e6, t1.slices - t0.slices);
	CHECK(rte_atomic_load_explicit(&received, rte_memory_order_relaxed) > r0, "nothing forwarded");
	CHECK(moves == 0, "%" PRIu64 " moves with every queue on its home socket", moves);
	CHECK(t1.run_ns - t0.run_ns < 2 * 1000 * 1000 && t1.slices - t0.slices <= 20,
		"control thread busy while idle: %" PRIu64 " ns on a CPU, %" PRIu64 " times",
		t1.run_ns - t0.run_ns, t1.slices - t0.slices);
	quiesce();
	stop = 1;
	rte_eal_mp_wait_lcore();
	octo_port_stop_close(port);
}

/*
 * Automatic migration follows a poller, not a poll (migrate_after=, its
 * default): a queue that another socket's lcore polls alone for less than
 * that (a drain), or now and then between its poller's bursts, stays; a
 * queue whose poller changes socket moves once the new one has polled it
 * alone that long, not before.
 */
static void
test_follow(struct rte_mempool *mp)
{
	const double after_ms = 200;	/* OCTO_MIG_AFTER_MS */
	uint64_t before, t0, end;
	double took = -1;
	unsigned int i;
	uint16_t q = 1;	/* homed on socket 1, polled from there */

	start_port(mp);
	CHECK(rte_pmd_octopus_migration_auto_set(port, 1) == 0, "auto");
	CHECK(rte_pmd_octonic_gen_enable(pf[0], 1) == 0, "generator on");
	stop = 0;
	rte_eal_mp_remote_launch(worker, NULL, SKIP_MAIN);
	wait_all_polls(20);
	before = rx_moves(q);

	/* a drain from socket 0: 50 ms alone, then the poller is back */
	poll_alone(q, 50);
	wait_polls(q, 1000);
	CHECK(rx_moves(q) == before, "a 50 ms drain moved the queue (%" PRIu64 " moves)",
		rx_moves(q) - before);
	/* one-off polls from socket 0 between the poller's, for 400 ms */
	for (i = 0; i < 400; i++) {
		poll_alone(q, 0);
		rte_delay_us_sleep(1000);
	}
	CHECK(rx_moves(q) == before, "one-off polls moved the queue (%" PRIu64 " moves)",
		rx_moves(q) - before);

	/* the poller moves to socket 0: the queue follows after after_ms */
	t0 = rte_get_timer_cycles();
	rte_atomic_store_explicit(&owner[q], lcore_on(0, q), rte_memory_order_release);
	end = t0 + 5 * rte_get_timer_hz();
	while (rte_get_timer_cycles() < end) {
		if (rx_moves(q) > before) {
			took = (double)(rte_get_timer_cycles() - t0) * 1000 / rte_get_timer_hz();
			break;
		}
		rte_delay_us_sleep(200);
	}
	printf("follow: the queue moved %.1f ms after its poller changed socket (migrate_after %.0f ms)\n",
		took, after_ms);
	CHECK(took >= after_ms, "moved after %.1f ms, before migrate_after", took);
	CHECK(took >= 0 && took < after_ms + 2000, "not moved within 2 s after migrate_after");
	CHECK(rx_moves(q) == before + 1, "%" PRIu64 " moves", rx_moves(q) - before);

	rte_pmd_octonic_gen_enable(pf[0], 0);
	stop = 1;
	rte_eal_mp_wait_lcore();
	CHECK(seq.reordered == 0 && seq.duplicated == 0, "Rx: %" PRIu64 " reordered, %" PRIu64 " dup",
		seq.reordered, seq.duplicated);
	octo_port_stop_close(port);
}

/* Tx moves of test_tx under load: ten per queue */
#define TX_MOVES_LOADED 40

/* Rounds of loaded moves the negative control may take to show reordering. */
#define TX_LATE_ROUNDS 20

/*
 * Tx queue moves (the Rx queue moves with each, as the API does it) under
 * the generator's continuous traffic, small posts on every Tx queue
 * (200 kpps over 4 queues), then once more with the traffic stopped (the
 * old member's ring left with what it last got: under mlx5-hws, likely
 * fewer than 32 descriptors with no completion asked for). Each batch of
 * moves must end within move_queues' liveness bound; the wire sees every
 * frame the port took, in order. Under a dialect whose Tx completions are
 * sparse (tx_comp_every > 1) some moves must have ended on the settle
 * bound; where every descriptor completes, most end by status. @p late:
 * the negative control, the NIC reading Tx posts up to 5 ms late
 * (tx_read_ns, far above the bound): the sink must then see reordering.
 */
static void
test_tx(struct rte_mempool *mp, bool late)
{
	struct rte_pmd_octonic_sink_stats sink;
	struct rte_pmd_octonic_datapath dp;
	struct rte_pmd_octopus_migration ms;
	struct rte_eth_stats st;
	uint64_t lat[TX_MOVES_LOADED];
	uint64_t gen = 0, txm = 0, bound = 0, max_ns = 0;
	unsigned int nb = TX_MOVES_LOADED + nb_q, round;
	uint16_t q;

	CHECK(rte_pmd_octonic_datapath_get(pf[0], &dp) == 0, "datapath");
	start_port(mp);
	CHECK(rte_pmd_octonic_gen_enable(pf[0], 1) == 0, "generator on");
	stop = 0;
	rte_eal_mp_remote_launch(worker, NULL, SKIP_MAIN);
	wait_all_polls(4);
	move_queues(TX_MOVES_LOADED, nb_q, TX_MOVES_LOADED, lat, false);
	/* the negative control: a move reorders only where frames of a flow
	 * were posted around it, which a quiet host may not give in one
	 * round: more rounds under traffic, bounded, until the wire shows it
	 */
	for (round = 1; late && round < TX_LATE_ROUNDS; round++) {
		CHECK(rte_pmd_octonic_sink_stats_get(pf[0], &sink) == 0, "sink");
		if (sink.out_of_order > 0)
			break;
		move_queues(TX_MOVES_LOADED, nb_q, TX_MOVES_LOADED, lat, false);
		nb += TX_MOVES_LOADED;
	}
	quiesce();
	/* quiet: the pollers go on with empty bursts (octo_seq_forward) */
	move_queues(nb_q, nb_q, nb_q, lat, false);
	pollers_end(&gen, &st);
	for (q = 0; q < nb_q; q++) {
		uint64_t id, v = UINT64_MAX;
		char name[64];

		rte_pmd_octopus_migration_get(port, q, 1, &ms);
		txm += ms.migrations;
		bound += ms.tx_settle_bound_moves;
		max_ns = RTE_MAX(max_ns, ms.max_latency_ns);
		snprintf(name, sizeof(name), "tx_q%u_tx_settle_bound_moves", q);
		if (rte_eth_xstats_get_id_by_name(port, name, &id) == 0)
			rte_eth_xstats_get_by_id(port, &id, &v, 1);
		CHECK(v == ms.tx_settle_bound_moves, "txq %u: xstat %" PRIu64 ", API %" PRIu64,
			q, v, ms.tx_settle_bound_moves);
	}
	CHECK(rte_pmd_octonic_sink_stats_get(pf[0], &sink) == 0, "sink");
	printf("tx%s: tx_comp_every %u, %u moves, %" PRIu64 " Tx migrations (%" PRIu64
		" ended on the settle bound), longest %.1f us; %" PRIu64 " generated, %" PRIu64
		" received, %" PRIu64 " NIC drops; Rx: %" PRIu64 " reordered %" PRIu64 " dup;"
		" sink: %" PRIu64 " pkts %" PRIu64 " out of order %" PRIu64 " dup %" PRIu64
		" lost\n", late ? "_late" : "", dp.tx_comp_every, nb, txm, bound, max_ns / 1e3,
		gen, received, st.imissed, seq.reordered, seq.duplicated, sink.pkts,
		sink.out_of_order, sink.duplicates, sink.lost);
	CHECK(txm >= nb, "only %" PRIu64 " Tx migrations of %u", txm, nb);
	CHECK(seq.foreign == 0 && sink.foreign == 0, "foreign frames %" PRIu64, seq.foreign);
	/* every frame received was sent (octo_seq_forward retries) */
	CHECK(received + st.imissed == gen, "received %" PRIu64 " + NIC drops %" PRIu64
		" != generated %" PRIu64, received, st.imissed, gen);
	CHECK(seq.reordered == 0 && seq.duplicated == 0, "Rx: %" PRIu64 " reordered, %"
		PRIu64 " duplicated", seq.reordered, seq.duplicated);
	CHECK(sink.pkts == received && sink.duplicates == 0 && sink.lost <= st.imissed,
		"sink: %" PRIu64 " of %" PRIu64 ", %" PRIu64 " dup, %" PRIu64 " lost",
		sink.pkts, received, sink.duplicates, sink.lost);
	if (dp.tx_comp_every > 1)
		CHECK(bound > 0, "sparse completions, yet no move ended on the bound");
	else
		CHECK(bound < txm, "every completion reported, yet all %" PRIu64
			" moves ended on the bound", txm);
	if (late)
		CHECK(sink.out_of_order > 0, "Tx read %s late, no reordering on the wire",
			"5 ms");
	else
		CHECK(sink.out_of_order == 0, "sink: %" PRIu64 " out of order",
			sink.out_of_order);
	octo_port_stop_close(port);
}

static void
test_tx_moves(struct rte_mempool *mp)
{
	test_tx(mp, false);
}

static void
test_tx_late(struct rte_mempool *mp)
{
	test_tx(mp, true);
}

static unsigned int moves;	/* order, nodrain: how many (argv[2]) */

static void
test_order_drain(struct rte_mempool *mp)
{
	test_order(mp, moves, true);
}

/*
 * The negative control: the port's moves with a drain that ends early (a
 * short burst with a queue count of 0 is an empty ring to it).
 */
static void
test_order_nodrain(struct rte_mempool *mp)
{
	CHECK(rte_pmd_octonic_rx_burst_max(pf[0], 1) == 0 &&
		rte_pmd_octonic_rx_burst_max(pf[1], 1) == 0 &&
		rte_pmd_octonic_rx_count_zero(pf[0], 1) == 0 &&
		rte_pmd_octonic_rx_count_zero(pf[1], 1) == 0,
		"short Rx bursts, queue counts of 0");
	test_order(mp, moves, false);
}

static const struct octo_case cases[] = {
	{ "order", test_order_drain }, { "nodrain", test_order_nodrain },
	{ "nosteer", test_nosteer }, { "gate", test_gate }, { "failover", test_failover },
	{ "follow", test_follow }, { "idle", test_idle },
	{ "tx", test_tx_moves }, { "tx_late", test_tx_late },
};

int
main(int argc, char **argv)
{
	unsigned int nb = argc > 2 ? (unsigned int)atoi(argv[2]) : 1000;
	struct octo_pfs_main m;

	/* main lcore, and lcores 1..N+1 on socket k mod N (lcore_on) */
	if (octo_pfs_main_begin(&m, argc, argv, 2, "octopus-migrate", &nb_pf, &nb_q) != 0)
		return 2;
	/* tx_late: the NIC reads Tx posts up to 5 ms after their doorbell */
	octo_eal_vdev(&m.a, "net_octonic0,%s,wire=gen,flows=1024,gen_rate=200000%s",
		m.e.nic, strcmp(m.which, "tx_late") == 0 ? ",tx_read_ns=5000000" : "");
	/* manual: the explicit moves come first, then the test turns auto on
	 * for the automatic ones; migrate_after=1: the automatic moves follow
	 * the test's pollers within a millisecond (the default, 200, is for
	 * the ones an application makes: testpmd_migrate.sh)
	 */
	octo_eal_vdev(&m.a, "net_octopus0,%s,migration=manual%s", m.e.members,
		strcmp(m.which, "follow") == 0 ? "" : ",migrate_after=1");
	if (octo_eal_start(&m.a, nb_pf + 2) < 0 || !octo_pfs_sockets_ok(nb_pf))
		return 2;
	port = port_of("net_octopus0");
	/* the port's own Rx pools (rx_pool=local) hold 2 x nb_desc mbufs per
	 * queue on every member's socket: 4096 descriptors at 8 PFs would
	 * take 1.2 GB of the machine's shared hugepages
	 */
	nb_desc = nb_pf == 2 ? 4096 : 512;
	m.mp = octo_app_pool("app", 16384, 0);
	if (m.mp == NULL || port >= RTE_MAX_ETHPORTS || octo_pfs_ports(pf, nb_pf) != 0)
		return 2;
	octo_gen_pf("net_octonic0_pf0");
	moves = nb;
	return octo_case_main(cases, RTE_DIM(cases), m.which, argv[0], m.mp);
}
