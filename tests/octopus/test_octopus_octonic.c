/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * net_octopus over N net_octonic members on N (emulated) sockets (N =
 * $OCTO_PFS, 2 by default; octo_pfs.h), max(4, N) queues polled by lcores
 * of every socket (lcore q on socket q mod N: at 2 PFs lcores 0,2 on
 * socket 0, 1,3 on 1; lcore q polls queue q and sends back what it got).
 * Run under tools/octopus-numa-emu --nodes N.
 *
 *   test_octopus_octonic octopus   the virtual port over both PFs: every
 *       generated packet arrives and reaches the sink in order; each
 *       queue's home PF is on its poller's socket; the NIC model's
 *       remote-DMA and remote-poll counters stay 0 and the port's locality
 *       xstats agree.
 *   test_octopus_octonic single    the same traffic through one PF polled
 *       directly by a NUMA-aware app (per-socket pools): the remote
 *       counters grow, so the first case can fail.
 *   test_octopus_octonic domains   nic= takes every PF of a NIC; members of
 *       two NICs are refused unless force=1.
 *   test_octopus_octonic reta      the default RETA spreads the buckets over
 *       every queue; reta_update moves every bucket to the last queue
 *       (homed on the last PF): all traffic arrives there; a bad entry is
 *       refused.
 *   test_octopus_octonic thread    a non-EAL thread on a socket-1 CPU polls a
 *       queue homed there: its polls count as local; when the main lcore
 *       polls the queue next, the port reports that poller.
 *   test_octopus_octonic link      the port's link is up while any member's
 *       is (unplug/plug PFs); LSC events on the port follow it; a MAC
 *       added/removed on the port is added/removed on every member.
 *   test_octopus_octonic refused   (run with OCTONIC_DIALECT naming a NIC
 *       that cannot carry META from its e-switch to a PF's ingress) start
 *       is refused (ENOTSUP) with a log line naming that capability and the
 *       NIC's cause; the port stays stopped, then is closed cleanly.
 *   test_octopus_octonic order     a port over two ports of one e-switch
 *       given proxy last, their start and stop wrapped to act as mlx5's
 *       with an e-switch does (a port started before its transfer proxy:
 *       EAGAIN; the proxy stopped before a port: EBUSY): the port starts
 *       the proxy first and stops it last; a member whose stop fails makes
 *       the port's stop fail, with that member and the proxy still
 *       started, and a second stop stops both; a member that answers
 *       EAGAIN once is started again after the others; one that always
 *       does, or fails otherwise, fails the port's start with every member
 *       stopped. Then net_octonic2's PFs, proxy given last, started and
 *       stopped twice under the dialect (mlx5-hws: its own order rules).
 *   test_octopus_octonic mpesw     a port over the two uplinks of a NIC
 *       under mlx5's multiport e-switch (topology=mpesw: ports of one
 *       device, both on its node; socket_of= names another for one): taken,
 *       not refused as two members on one socket; its start logs, once,
 *       that their queues DMA through one function and that REPRESENTED_PORT
 *       to them is refused for steering; an rte_flow rule is refused saying
 *       so; every generated packet arrives, and no queue polled from the
 *       other socket counts a packet as local.
 *   test_octopus_octonic separate  a port over a NIC's PFs probed as
 *       separate devices (topology=separate, force=1: no common
 *       e-switch): no steering, the log says Tx is local and Rx comes where
 *       the NIC delivers; every packet arrives, every Tx packet goes
 *       through the poller's PF (all local), Rx through PF0 (the MAC the
 *       frames carry) for pollers of both sockets.
 *   test_octopus_octonic nic_repr  nic= over a switch domain of three
 *       net_null ports made one NIC (their device info wrapped): a plain
 *       port, a VF representor and a PF representor (mlx5's second uplink
 *       under its multiport e-switch is one): the VF representor is left
 *       out, the two others are the members.
 *   In the first case, the e-switch holds the port's steering rules while it
 *   runs and none after stop.
 */

#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_flow.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <ethdev_driver.h>
#include <rte_flow_driver.h>

#include <octopus_dpdk_compat.h>

#include "rte_pmd_octonic.h"
#include "rte_pmd_octopus.h"
#include "octo_steering.h"

#include "../common/octo_cases.h"
#include "../common/octo_eal.h"
#include "../common/octo_flow_rule.h"
#include "../common/octo_check.h"
#include "../common/octo_pfs.h"
#include "../common/octo_port.h"
#include "../common/octo_state.h"
#include "../common/octo_dialect.h"
#include "../common/octo_test_eal.h"

/* queues: 4, or one per PF beyond */
#define MAX_Q OCTO_PFS_MAX
#define LIMIT 40000

static unsigned int nb_pf;	/* OCTO_PFS: PF k on socket k */
static uint16_t nb_q, nb_desc;
/* beyond 2 PFs: the application's Rx pool of each socket (rx_pool=app) */
static struct rte_mempool *app_pool[OCTO_PFS_MAX];
static uint16_t port;		/* the port the lcores poll */
static uint16_t nic_port;	/* a PF of the generating NIC */
static uint64_t received[MAX_Q];
static uint64_t sent[MAX_Q];
static volatile int stop;
static uint64_t deadline;

/* lcore q polls queue q and returns every packet through its Tx queue q. */
static int
poll_queue(void *arg)
{
	uint16_t q = (uint16_t)rte_lcore_id();
	struct rte_mbuf *pkts[32];
	uint16_t n, k;

	RTE_SET_USED(arg);
	if (q >= nb_q)
		return 0;
	while (!stop) {
		n = rte_eth_rx_burst(port, q, pkts, RTE_DIM(pkts));
		rte_atomic_fetch_add_explicit(&received[q], n, rte_memory_order_relaxed);
		for (k = 0; k < n; )
			k += rte_eth_tx_burst(port, q, pkts + k, n - k);
		sent[q] += n;
		/* beyond 2 PFs, more pollers than this 2-CPU machine's CPUs */
		if (n == 0 && nb_pf > 2 && rte_lcore_id() != rte_get_main_lcore())
			rte_delay_us_sleep(50);
		if (n == 0 && rte_lcore_id() == rte_get_main_lcore()) {
			uint64_t gen = 0;

			struct rte_eth_stats st = { .imissed = 0 };

			rte_pmd_octonic_gen_count(nic_port, &gen);
			rte_eth_stats_get(port, &st);
			/* all in, or dropped by the NIC (counted as missed) */
			if ((gen >= LIMIT && octo_sum(received, nb_q) + st.imissed >= gen) ||
					rte_get_timer_cycles() > deadline)
				stop = 1;
		}
	}
	/* flush Tx: poll once more so the NIC engine drains the Tx rings */
	for (k = 0; k < 64; k++)
		rte_eth_tx_burst(port, q, pkts, 0);
	return 0;
}

static void
run_traffic(void)
{
	deadline = rte_get_timer_cycles() + 20 * rte_get_timer_hz();
	stop = 0;
	rte_eal_mp_remote_launch(poll_queue, NULL, SKIP_MAIN);
	poll_queue(NULL);	/* the main lcore polls queue 0 and decides the end */
	stop = 1;
	rte_eal_mp_wait_lcore();
}

/*
 * Configure port @p pid with nb_q queues (RSS over @p rss_hf, none when 0),
 * queue q set up on the socket of lcore q, its poller, Rx from @p mp0 or
 * @p mp1 by that socket; then start it.
 */
static void
start_port(uint16_t pid, uint64_t rss_hf, struct rte_mempool *mp0, struct rte_mempool *mp1)
{
	struct octo_port_conf c = {
		.nb_rxq = nb_q, .nb_txq = nb_q, .nb_desc = nb_desc,
		.socket = OCTO_SOCKET_OF_LCORE, .rss_hf = rss_hf,
	};
	uint16_t q;

	for (q = 0; q < nb_q; q++) {
		unsigned int s = rte_lcore_to_socket_id(q);

		c.rx_pool[q] = s < OCTO_PFS_MAX && app_pool[s] != NULL ? app_pool[s] :
			s == 0 ? mp0 : mp1;
	}
	CHECK(octo_port_start(pid, &c) == 0, "configure, set up and start the port");
}

static void
nic_locality(uint16_t pf, uint16_t q, int tx, struct rte_pmd_octonic_locality *l)
{
	memset(l, 0, sizeof(*l));
	CHECK(rte_pmd_octonic_locality_get(pf, q, tx, l) == 0, "locality pf %u q %u", pf, q);
}

static void
test_octopus(struct rte_mempool *mp)
{
	uint16_t pf[OCTO_PFS_MAX];
	struct rte_pmd_octonic_sink_stats sink;
	struct rte_pmd_octopus_queue_info qi;
	struct rte_pmd_octopus_locality loc;
	struct rte_pmd_octonic_locality nl;
	struct rte_eth_stats st;
	uint64_t gen = 0, xs_id, v;
	char name[64];
	uint16_t q, m;
	int sock;

	port = port_of("net_octopus0");
	CHECK(port < RTE_MAX_ETHPORTS, "no octopus port");
	for (m = 0; m < nb_pf; m++) {
		snprintf(name, sizeof(name), "net_octonic0_pf%u", m);
		pf[m] = port_of(name);
		CHECK(pf[m] < RTE_MAX_ETHPORTS && rte_eth_dev_socket_id(pf[m]) == m,
			"PF%u: port %u on socket %d", m, pf[m], rte_eth_dev_socket_id(pf[m]));
	}
	nic_port = pf[0];
	start_port(port, 0, mp, mp);
	for (q = 0; q < nb_q; q++) {
		sock = (int)rte_lcore_to_socket_id(q);
		CHECK(rte_pmd_octopus_queue_info_get(port, q, 0, &qi) == 0 &&
			qi.has_home && qi.home_socket == sock &&
			rte_eth_dev_socket_id(qi.home_port) == sock && qi.steered,
			"rxq %u: home socket %d (port %u), lcore socket %d, steered %u",
			q, qi.home_socket, qi.home_port, sock, qi.steered);
	}
	{
		struct rte_pmd_octonic_flow_stats fs;
		uint64_t id, rules = 0;

		CHECK(rte_pmd_octonic_flow_stats_get(pf[0], &fs) == 0, "flow stats");
		if (rte_eth_xstats_get_id_by_name(port, "steering_rules", &id) == 0)
			rte_eth_xstats_get_by_id(port, &id, &rules, 1);
		/* classification (buckets + catch-all) + home + ingress per PF */
		CHECK(fs.transfer_rules > nb_q && fs.ingress_rules == nb_q && rules > 0,
			"rules: transfer %u ingress %u, port says %" PRIu64,
			fs.transfer_rules, fs.ingress_rules, rules);
	}
	/* one home rule per queue, to the PF of its poller's socket */
	{
		char *dump = NULL, want[128];
		size_t len = 0;
		FILE *f = open_memstream(&dump, &len);
		const char *at;
		int hits;

		rte_pmd_octonic_flow_dump(pf[0], f);
		fclose(f);
		for (q = 0; q < nb_q; q++) {
			rte_pmd_octopus_queue_info_get(port, q, 0, &qi);
			/* home rules match META's queue half */
			snprintf(want, sizeof(want),
				"pattern=meta(%u/0x%08x) actions=represented_port(%u)\n",
				q, OCTO_STEER_META_QUEUE_MASK, qi.home_port);
			for (hits = 0, at = dump; (at = strstr(at, want)) != NULL; at++)
				hits++;
			CHECK(hits == 1, "queue %u: %d home rules \"%s\"", q, hits, want);
			snprintf(want, sizeof(want), "pattern=meta(%u/0x%08x) actions=represented_port",
				q, OCTO_STEER_META_QUEUE_MASK);
			for (hits = 0, at = dump; (at = strstr(at, want)) != NULL; at++)
				hits++;
			CHECK(hits == 1, "queue %u: %d rules to some PF", q, hits);
		}
		free(dump);
	}
	CHECK(rte_pmd_octonic_gen_enable(nic_port, 1) == 0, "generator on");
	run_traffic();

	rte_pmd_octonic_gen_count(nic_port, &gen);
	CHECK(gen == LIMIT, "generated %" PRIu64, gen);
	CHECK(octo_sum(received, nb_q) == gen, "received %" PRIu64 " of %" PRIu64,
		octo_sum(received, nb_q), gen);
	for (q = 0; q < nb_q; q++) {
		sock = (int)rte_lcore_to_socket_id(q);
		CHECK(received[q] > 0, "queue %u received nothing", q);
		rte_pmd_octopus_queue_info_get(port, q, 0, &qi);
		CHECK(qi.poller_lcore == q && qi.poller_socket == sock,
			"rxq %u poller %d socket %d", q, qi.poller_lcore, qi.poller_socket);
		/* the port's own view */
		CHECK(rte_pmd_octopus_locality_get(port, q, 0, &loc) == 0 &&
			loc.local_pkts == received[q] && loc.remote_pkts == 0 &&
			loc.foreign_polls == 0 && loc.member_pkts[qi.home_member] == received[q],
			"rxq %u: local %" PRIu64 " remote %" PRIu64 " foreign polls %" PRIu64
			" received %" PRIu64, q, loc.local_pkts, loc.remote_pkts,
			loc.foreign_polls, received[q]);
		snprintf(name, sizeof(name), "rx_q%u_local_packets", q);
		v = UINT64_MAX;
		if (rte_eth_xstats_get_id_by_name(port, name, &xs_id) == 0)
			rte_eth_xstats_get_by_id(port, &xs_id, &v, 1);
		CHECK(v == received[q], "xstat %s = %" PRIu64, name, v);
		CHECK(rte_pmd_octopus_locality_get(port, q, 1, &loc) == 0 &&
			loc.local_pkts == sent[q] && loc.remote_pkts == 0 &&
			loc.foreign_polls == 0, "txq %u: local %" PRIu64 " remote %" PRIu64,
			q, loc.local_pkts, loc.remote_pkts);
		/* the NIC's view: no DMA or poll crossed sockets, on any PF */
		for (m = 0; m < nb_pf; m++) {
			nic_locality(pf[m], q, 0, &nl);
			CHECK(nl.remote_dma_pkts == 0 && nl.remote_polls == 0,
				"pf%u rxq %u: remote DMA %" PRIu64 " remote polls %" PRIu64,
				m, q, nl.remote_dma_pkts, nl.remote_polls);
			nic_locality(pf[m], q, 1, &nl);
			CHECK(nl.remote_dma_pkts == 0 && nl.remote_polls == 0,
				"pf%u txq %u: remote DMA %" PRIu64 " remote polls %" PRIu64,
				m, q, nl.remote_dma_pkts, nl.remote_polls);
		}
	}
	CHECK(rte_eth_stats_get(port, &st) == 0 && st.ipackets == gen,
		"stats ipackets %" PRIu64, st.ipackets);
	CHECK(rte_pmd_octonic_sink_stats_get(nic_port, &sink) == 0, "sink");
	CHECK(sink.pkts == gen && sink.out_of_order == 0 && sink.duplicates == 0 &&
		sink.lost == 0 && sink.foreign == 0,
		"sink: %" PRIu64 " pkts, %" PRIu64 " out of order, %" PRIu64 " dup, %"
		PRIu64 " lost, %" PRIu64 " foreign", sink.pkts, sink.out_of_order,
		sink.duplicates, sink.lost, sink.foreign);
	printf("octopus: %" PRIu64 " packets, per queue %" PRIu64 " %" PRIu64 " %"
		PRIu64 " %" PRIu64 "\n", gen, received[0], received[1], received[2],
		received[3]);
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	for (m = 0; m < nb_pf; m++) {
		struct rte_pmd_octonic_flow_stats fs;

		CHECK(rte_pmd_octonic_flow_stats_get(pf[m], &fs) == 0 &&
			fs.transfer_rules == 0 && fs.ingress_rules == 0,
			"pf%u after stop: %u transfer, %u ingress rules", m,
			fs.transfer_rules, fs.ingress_rules);
	}
	CHECK(rte_eth_dev_close(port) == 0, "close");
}

/* A NUMA-aware app on one PF: per-socket pools, lcores of both sockets. */
static void
test_single(struct rte_mempool *unused __rte_unused)
{
	struct rte_mempool *mps[2];
	struct rte_pmd_octonic_locality nl;
	uint64_t gen = 0, remote_dma = 0, remote_polls = 0, local_q_remote = 0;
	uint16_t q;

	port = port_of("net_octonic0_pf0");
	nic_port = port;
	mps[0] = octo_app_pool("s0", 16384, 0);
	mps[1] = octo_app_pool("s1", 16384, 1);
	CHECK(mps[0] != NULL && mps[1] != NULL, "pools");
	start_port(port, RTE_ETH_RSS_IP | RTE_ETH_RSS_UDP, mps[0], mps[1]);
	rte_pmd_octonic_gen_enable(nic_port, 1);
	run_traffic();
	rte_pmd_octonic_gen_count(nic_port, &gen);
	CHECK(gen == LIMIT && octo_sum(received, nb_q) == gen, "received %" PRIu64 " of %"
		PRIu64, octo_sum(received, nb_q), gen);
	for (q = 0; q < nb_q; q++) {
		nic_locality(port, q, 0, &nl);
		if (rte_lcore_to_socket_id(q) == 1) {
			remote_dma += nl.remote_dma_pkts;
			remote_polls += nl.remote_polls;
		} else {
			local_q_remote += nl.remote_dma_pkts + nl.remote_polls;
		}
	}
	printf("single PF: %" PRIu64 " packets, remote DMA %" PRIu64
		", remote polls %" PRIu64 "\n", gen, remote_dma, remote_polls);
	CHECK(remote_dma > 0 && remote_polls > 0,
		"socket-1 queues: remote DMA %" PRIu64 ", remote polls %" PRIu64,
		remote_dma, remote_polls);
	CHECK(local_q_remote == 0, "socket-0 queues counted remote work");
	rte_eth_dev_stop(port);
}

/* nic= takes a NIC's PFs; members of different NICs need force=1. */
static void
test_domains(struct rte_mempool *unused __rte_unused)
{
	struct rte_pmd_octopus_member mb[RTE_PMD_OCTOPUS_MAX_MEMBERS];
	uint16_t before = rte_eth_dev_count_total(), p;
	int n;

	CHECK(rte_vdev_init("net_octopus1", "nic=net_octonic1_pf0") == 0, "nic=");
	p = port_of("net_octopus1");
	n = rte_pmd_octopus_members_get(p, mb, RTE_DIM(mb));
	CHECK(n == 2 && mb[0].port_id == port_of("net_octonic1_pf0") &&
		mb[1].port_id == port_of("net_octonic1_pf1") && mb[0].socket == 0 &&
		mb[1].socket == 1, "nic= found %d members", n);
	CHECK(rte_vdev_uninit("net_octopus1") == 0, "uninit");

	CHECK(rte_vdev_init("net_octopus1",
		"member=net_octonic1_pf0,member=net_octonic2_pf1") < 0,
		"members of two NICs accepted");
	CHECK(rte_eth_dev_count_total() == before, "refusal left a port");
	CHECK(rte_vdev_init("net_octopus1",
		"member=net_octonic1_pf0,member=net_octonic2_pf1,force=1") == 0,
		"force=1 refused");
	CHECK(rte_vdev_uninit("net_octopus1") == 0, "uninit");
	CHECK(rte_eth_dev_count_total() == before, "ports %u, were %u",
		rte_eth_dev_count_total(), before);
}

/* reta_update moves buckets: all traffic to the last queue; bad entries refused. */
static void
test_reta(struct rte_mempool *mp)
{
	struct rte_eth_rss_reta_entry64 reta[4];
	const uint16_t last = (uint16_t)(nb_q - 1);
	struct rte_eth_dev_info info;
	struct rte_eth_stats st;
	uint64_t gen = 0, others = 0;
	uint16_t b, q, size;

	port = port_of("net_octopus0");
	nic_port = port_of("net_octonic0_pf0");
	/* ethdev offers reta_update only in RSS mode */
	start_port(port, RTE_ETH_RSS_IP | RTE_ETH_RSS_UDP, mp, mp);
	CHECK(rte_eth_dev_info_get(port, &info) == 0, "info of port");
	size = info.reta_size;
	CHECK(size > 0 && size <= 256, "reta size %u", size);
	memset(reta, 0, sizeof(reta));
	for (b = 0; b < size; b++)
		reta[b / 64].mask |= 1ULL << (b % 64);
	CHECK(rte_eth_dev_rss_reta_query(port, reta, size) == 0, "query");
	for (b = 0; b < size; b++)
		CHECK(reta[b / 64].reta[b % 64] == b % nb_q, "default bucket %u -> %u",
			b, reta[b / 64].reta[b % 64]);
	/* a bad entry: refused, nothing changed */
	reta[0].reta[0] = nb_q;
	CHECK(rte_eth_dev_rss_reta_update(port, reta, size) < 0, "queue %u accepted", nb_q);
	for (b = 0; b < size; b++)
		reta[b / 64].reta[b % 64] = last;
	CHECK(rte_eth_dev_rss_reta_update(port, reta, size) == 0, "update");
	memset(reta, 0, sizeof(reta));
	for (b = 0; b < size; b++)
		reta[b / 64].mask |= 1ULL << (b % 64);
	CHECK(rte_eth_dev_rss_reta_query(port, reta, size) == 0, "query");
	for (b = 0; b < size; b++)
		CHECK(reta[b / 64].reta[b % 64] == last, "bucket %u -> %u", b,
			reta[b / 64].reta[b % 64]);
	rte_pmd_octonic_gen_enable(nic_port, 1);
	run_traffic();
	rte_pmd_octonic_gen_count(nic_port, &gen);
	/* one queue takes all: its ring may overflow while its lcore shares
	 * a CPU; the NIC counts those as missed
	 */
	rte_eth_stats_get(port, &st);
	for (q = 0; q < last; q++)
		others += received[q];
	CHECK(gen == LIMIT && received[last] + st.imissed == gen &&
		received[last] > gen / 2 && others == 0,
		"generated %" PRIu64 ", missed %" PRIu64 ", queue %u %" PRIu64
		", the others %" PRIu64, gen, st.imissed, last, received[last], others);
	/* stop/start cycles: the rules go and come back, never accumulate */
	{
		struct rte_pmd_octonic_flow_stats fs0, fs;
		int i;

		rte_pmd_octonic_flow_stats_get(nic_port, &fs0);
		for (i = 0; i < 20; i++) {
			CHECK(rte_eth_dev_stop(port) == 0, "stop %d", i);
			rte_pmd_octonic_flow_stats_get(nic_port, &fs);
			CHECK(fs.transfer_rules == 0 && fs.ingress_rules == 0,
				"after stop %d: %u/%u rules", i, fs.transfer_rules,
				fs.ingress_rules);
			CHECK(rte_eth_dev_start(port) == 0, "start %d", i);
			rte_pmd_octonic_flow_stats_get(nic_port, &fs);
			CHECK(fs.transfer_rules == fs0.transfer_rules &&
				fs.ingress_rules == fs0.ingress_rules,
				"after start %d: %u/%u rules, first start %u/%u", i,
				fs.transfer_rules, fs.ingress_rules, fs0.transfer_rules,
				fs0.ingress_rules);
		}
		/* the RETA survives restarts: all buckets still on the last queue */
		memset(reta, 0, sizeof(reta));
		for (b = 0; b < size; b++)
			reta[b / 64].mask |= 1ULL << (b % 64);
		rte_eth_dev_rss_reta_query(port, reta, size);
		for (b = 0; b < size; b++)
			CHECK(reta[b / 64].reta[b % 64] == last, "bucket %u lost after restarts", b);
	}
	octo_port_stop_close(port);
}

struct thread_arg {
	uint16_t q;
	uint64_t received;
	uint64_t deadline;
};

/* A non-EAL thread polling queue q (it has no lcore id). */
/*
 * The members share one e-switch that refuses to carry META to a PF's
 * ingress: start refuses, saying so, instead of running unsteered.
 */
static void
test_refused(struct rte_mempool *mp)
{
	struct rte_eth_conf conf;
	char *log = NULL, *line;
	size_t len = 0;
	FILE *f, *old;
	uint16_t q;
	int ret;

	port = port_of("net_octopus0");
	memset(&conf, 0, sizeof(conf));
	CHECK(rte_eth_dev_configure(port, nb_q, nb_q, &conf) == 0, "configure");
	for (q = 0; q < nb_q; q++) {
		int sock = (int)rte_lcore_to_socket_id(q);

		CHECK(rte_eth_rx_queue_setup(port, q, nb_desc, sock, NULL, mp) == 0, "rxq");
		CHECK(rte_eth_tx_queue_setup(port, q, nb_desc, sock, NULL) == 0, "txq");
	}
	f = open_memstream(&log, &len);
	REQUIRE(f != NULL, "memstream");
	old = rte_log_get_stream();
	rte_openlog_stream(f);
	ret = rte_eth_dev_start(port);
	rte_openlog_stream(old);
	fclose(f);
	CHECK(ret == -ENOTSUP, "start: %d, want -ENOTSUP", ret);
	line = log != NULL ? strstr(log, "cannot carry the steering") : NULL;
	CHECK(line != NULL && strstr(line, "META") != NULL &&
		strstr(line, "ingress") != NULL && strstr(line, "xmeta") != NULL,
		"no log line naming the capability and the NIC's cause:\n%s",
		log != NULL ? log : "");
	if (line != NULL) {
		while (line > log && line[-1] != '\n')
			line--;
		fprintf(stderr, "refused: %.*s\n", (int)strcspn(line, "\n"), line);
	}
	free(log);
	CHECK(rte_eth_dev_close(port) == 0, "close after a refused start");
}

/* Start @p pid as start_port() does, what it logged in *@p log (free it). */
static void
start_logged(uint16_t pid, struct rte_mempool *mp, char **log)
{
	size_t len = 0;
	FILE *f, *old;

	*log = NULL;
	f = open_memstream(log, &len);
	REQUIRE(f != NULL, "memstream");
	old = rte_log_get_stream();
	rte_openlog_stream(f);
	/* unsteered: the PFs' own RSS spreads the frames over the queues */
	start_port(pid, RTE_ETH_RSS_IP | RTE_ETH_RSS_UDP, mp, mp);
	rte_openlog_stream(old);
	fclose(f);
}

/* Packets of queue @p q's pollers' socket @p s counted local (@p tx: Tx). */
static void
locality_sums(uint16_t pid, int tx, uint64_t local[2], uint64_t remote[2])
{
	struct rte_pmd_octopus_locality loc;
	uint16_t q;

	local[0] = local[1] = remote[0] = remote[1] = 0;
	for (q = 0; q < nb_q; q++) {
		unsigned int s = rte_lcore_to_socket_id(q) & 1;

		memset(&loc, 0, sizeof(loc));
		CHECK(rte_pmd_octopus_locality_get(pid, q, tx, &loc) == 0, "locality %u", q);
		local[s] += loc.local_pkts;
		remote[s] += loc.remote_pkts;
	}
}

/* A new NIC @p nic (devargs @p args) under port @p octo (devargs @p oargs), traffic run. */
static void
topology_run(struct rte_mempool *mp, const char *nic, const char *args, const char *pf0,
		const char *octo, const char *oargs, char **log)
{
	uint64_t gen = 0;
	struct rte_eth_stats st;

	*log = NULL;
	REQUIRE(rte_vdev_init(nic, args) == 0, "%s (%s)", nic, args);
	nic_port = port_of(pf0);
	rte_pmd_octonic_gen_enable(nic_port, 0);
	REQUIRE(rte_vdev_init(octo, oargs) == 0, "octopus port over it (%s)", oargs);
	port = port_of(octo);
	start_logged(port, mp, log);
	memset(received, 0, sizeof(received));
	rte_pmd_octonic_gen_enable(nic_port, 1);
	run_traffic();
	rte_pmd_octonic_gen_count(nic_port, &gen);
	memset(&st, 0, sizeof(st));
	rte_eth_stats_get(port, &st);
	CHECK(gen == LIMIT && octo_sum(received, nb_q) == gen, "received %" PRIu64 " of %" PRIu64
		" (missed %" PRIu64 ")", octo_sum(received, nb_q), gen, st.imissed);
}

static void
topology_end(const char *octo, const char *nic, char *log)
{
	free(log);
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	CHECK(rte_vdev_uninit(octo) == 0, "%s uninit", octo);
	CHECK(rte_vdev_uninit(nic) == 0, "%s uninit", nic);
}

static void
test_mpesw(struct rte_mempool *mp)
{
	const struct rte_flow_item items[] = OCTO_ITEMS_ETH;
	uint64_t local[2], remote[2];
	struct rte_flow_error err;
	char *log = NULL, *l;
	char args[256];

	snprintf(args, sizeof(args), "pfs=2,numa=0:1,wire=gen,flows=1024,gen_rate=200000,"
		"gen_limit=%u,topology=mpesw,dialect=mlx5-hws,xmeta=4", LIMIT);
	topology_run(mp, "net_octonic5", args, "net_octonic5_p0", "net_octopus5",
		"member=net_octonic5_p0,member=net_octonic5_p1,socket_of=net_octonic5_p1:1", &log);
	REQUIRE(port < RTE_MAX_ETHPORTS, "no port");
	CHECK(rte_eth_dev_socket_id(port_of("net_octonic5_p1")) ==
		rte_eth_dev_socket_id(port_of("net_octonic5_p0")), "uplinks on two nodes");
	l = log != NULL ? strstr(log, "ports of one device") : NULL;
	CHECK(l != NULL && strstr(l, "REPRESENTED_PORT") != NULL &&
		strstr(l, "one function") != NULL,
		"no log line saying the members DMA through one function:\n%s", log ? log : "");
	if (l != NULL) {
		while (l > log && l[-1] != '\n')
			l--;
		printf("mpesw: %.*s\n", (int)strcspn(l, "\n"), l);
	}
	CHECK(octo_items_to_queue(port, items, 1, &err) == NULL && rte_errno == ENOTSUP &&
		err.message != NULL && strstr(err.message, "ports of one device") != NULL,
		"rule over one function's ports: %s", err.message ? err.message : "created");
	locality_sums(port, 0, local, remote);
	printf("mpesw Rx: socket 0 pollers %" PRIu64 " local %" PRIu64 " remote; socket 1 %"
		PRIu64 " local %" PRIu64 " remote\n", local[0], remote[0], local[1], remote[1]);
	CHECK(local[1] == 0 && remote[1] > 0 && local[0] > 0,
		"Rx: socket 1 pollers counted %" PRIu64 " local (%" PRIu64 " remote)", local[1],
		remote[1]);
	locality_sums(port, 1, local, remote);
	CHECK(local[1] == 0 && remote[1] > 0, "Tx: socket 1 pollers counted %" PRIu64 " local",
		local[1]);
	topology_end("net_octopus5", "net_octonic5", log);
}

static void
test_separate(struct rte_mempool *mp)
{
	uint64_t local[2], remote[2];
	char *log = NULL, *l;
	char args[256];

	snprintf(args, sizeof(args), "pfs=2,numa=0:1,wire=gen,flows=1024,gen_rate=200000,"
		"gen_limit=%u,topology=separate%s", LIMIT, octo_dialect_suffix());
	topology_run(mp, "net_octonic6", args, "net_octonic6_pf0", "net_octopus6",
		"member=net_octonic6_pf0,member=net_octonic6_pf1,force=1", &log);
	REQUIRE(port < RTE_MAX_ETHPORTS, "no port");
	l = log != NULL ? strstr(log, "no e-switch steering") : NULL;
	CHECK(l != NULL && strstr(l, "Tx through the PF on the poller's socket") != NULL &&
		strstr(l, "where the NIC delivers") != NULL,
		"no log line saying which half is local:\n%s", log ? log : "");
	if (l != NULL) {
		while (l > log && l[-1] != '\n')
			l--;
		printf("separate: %.*s\n", (int)strcspn(l, "\n"), l);
	}
	locality_sums(port, 1, local, remote);
	CHECK(remote[0] == 0 && remote[1] == 0 && local[0] > 0 && local[1] > 0,
		"Tx: %" PRIu64 "/%" PRIu64 " local, %" PRIu64 "/%" PRIu64 " remote", local[0],
		local[1], remote[0], remote[1]);
	locality_sums(port, 0, local, remote);
	printf("separate Rx: socket 0 pollers %" PRIu64 " local %" PRIu64 " remote; socket 1 %"
		PRIu64 " local %" PRIu64 " remote\n", local[0], remote[0], local[1], remote[1]);
	CHECK(local[1] == 0 && remote[1] > 0 && remote[0] == 0,
		"Rx (the frames carry PF0's MAC): socket 1 pollers %" PRIu64 " local, socket 0 %"
		PRIu64 " remote", local[1], remote[0]);
	topology_end("net_octopus6", "net_octonic6", log);
}

/* The nic_repr case: three net_null ports in one switch domain. */
static struct eth_dev_ops repr_ops[3];
static const struct eth_dev_ops *repr_orig[3];
static uint16_t repr_port[3];
static uint16_t repr_domain;

static int
repr_infos(struct rte_eth_dev *dev, struct rte_eth_dev_info *info)
{
	int i = dev->data->port_id == repr_port[0] ? 0 :
		dev->data->port_id == repr_port[1] ? 1 : 2;
	int ret = repr_orig[i]->dev_infos_get(dev, info);

	info->switch_info.domain_id = repr_domain;
	info->switch_info.port_id = (uint16_t)i;
	return ret;
}

/* The device's representors: VFs with ids 0..7, PFs 100..101. */
static int
repr_ranges(struct rte_eth_dev *dev, struct rte_eth_representor_info *info)
{
	RTE_SET_USED(dev);
	if (info != NULL) {
		info->nb_ranges = RTE_MIN(2u, info->nb_ranges_alloc);
		info->ranges[0].type = RTE_ETH_REPRESENTOR_VF;
		info->ranges[0].id_base = 0;
		info->ranges[0].id_end = 7;
		if (info->nb_ranges > 1) {
			info->ranges[1].type = RTE_ETH_REPRESENTOR_PF;
			info->ranges[1].id_base = 100;
			info->ranges[1].id_end = 101;
		}
	}
	return 2;
}

static void
test_nic_repr(struct rte_mempool *unused __rte_unused)
{
	struct rte_pmd_octopus_member mb[RTE_PMD_OCTOPUS_MAX_MEMBERS];
	char name[32];
	uint16_t p;
	int i, n;

	REQUIRE(rte_eth_switch_domain_alloc(&repr_domain) == 0, "a switch domain");
	for (i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "net_null_rep%d", i);
		REQUIRE(rte_vdev_init(name, NULL) == 0, "%s", name);
		repr_port[i] = port_of(name);
		repr_orig[i] = rte_eth_devices[repr_port[i]].dev_ops;
		repr_ops[i] = *repr_orig[i];
		repr_ops[i].dev_infos_get = repr_infos;
		repr_ops[i].representor_info_get = repr_ranges;
		rte_eth_devices[repr_port[i]].dev_ops = &repr_ops[i];
	}
	/* port 1: VF 3's representor; port 2: PF 1's */
	rte_eth_devices[repr_port[1]].data->dev_flags |= RTE_ETH_DEV_REPRESENTOR;
	rte_eth_devices[repr_port[1]].data->representor_id = 3;
	rte_eth_devices[repr_port[2]].data->dev_flags |= RTE_ETH_DEV_REPRESENTOR;
	rte_eth_devices[repr_port[2]].data->representor_id = 101;
	CHECK(rte_vdev_init("net_octopus4", "nic=net_null_rep0,socket_of=net_null_rep0:0,"
		"socket_of=net_null_rep2:1") == 0, "nic= over the domain");
	p = port_of("net_octopus4");
	n = rte_pmd_octopus_members_get(p, mb, RTE_DIM(mb));
	CHECK(n == 2 && mb[0].port_id == repr_port[0] && mb[1].port_id == repr_port[2],
		"nic= took %d members (%u, %u), want the plain port %u and the PF representor %u",
		n, n > 0 ? mb[0].port_id : 0, n > 1 ? mb[1].port_id : 0, repr_port[0],
		repr_port[2]);
	CHECK(rte_vdev_uninit("net_octopus4") == 0, "uninit");
	for (i = 0; i < 3; i++) {
		rte_eth_devices[repr_port[i]].data->dev_flags &= ~RTE_ETH_DEV_REPRESENTOR;
		rte_eth_devices[repr_port[i]].dev_ops = repr_orig[i];
		snprintf(name, sizeof(name), "net_null_rep%d", i);
		CHECK(rte_vdev_uninit(name) == 0, "%s uninit", name);
	}
	rte_eth_switch_domain_free(repr_domain);
}

/*
 * The order case, first over two net_null ports made a NIC with one
 * e-switch: their start and stop wrapped, a transfer proxy (the first)
 * and rules that do nothing. The wrappers record every call, answer as
 * mlx5's with an e-switch does (mlx5_trigger.c: EAGAIN for a port started
 * before its transfer proxy, EBUSY for the proxy stopped before its other
 * ports) and fail on demand. (net_octonic knows its PFs by their ops,
 * which a wrapper would change.)
 */
#define ORDER_LOG 32
static struct eth_dev_ops order_ops[2];
static const struct eth_dev_ops *order_orig[2];
static uint16_t order_pf[2];
static char order_log[ORDER_LOG][16];
static unsigned int order_n;
static int order_stop_fail[2];		/* stops of port i to fail (-EIO) */
static int order_start_again[2];	/* starts of port i to answer -EAGAIN, -1: all */
static int order_start_fail[2];		/* starts of port i to fail (-EIO) */
static int order_rules;			/* rules on the e-switch */

static int
order_pf_of(const struct rte_eth_dev *dev)
{
	return dev->data->port_id == order_pf[0] ? 0 : 1;
}

static void
order_note(const char *what, int i, int ret)
{
	if (order_n < ORDER_LOG)
		snprintf(order_log[order_n++], sizeof(order_log[0]), "%s%d%s", what, i,
			ret == -EAGAIN ? "?" : ret != 0 ? "!" : "");
}

static int
order_start(struct rte_eth_dev *dev)
{
	int i = order_pf_of(dev), ret;

	if (i == 1 && !rte_eth_devices[order_pf[0]].data->dev_started) {
		ret = -EAGAIN;
	} else if (order_start_again[i] != 0) {
		order_start_again[i] -= order_start_again[i] > 0;
		ret = -EAGAIN;
	} else if (order_start_fail[i] != 0) {
		order_start_fail[i]--;
		ret = -EIO;
	} else {
		ret = order_orig[i]->dev_start(dev);
	}
	order_note("start", i, ret);
	return ret;
}

static int
order_stop(struct rte_eth_dev *dev)
{
	int i = order_pf_of(dev), ret;

	if (i == 0 && rte_eth_devices[order_pf[1]].data->dev_started) {
		ret = -EBUSY;
	} else if (order_stop_fail[i] != 0) {
		order_stop_fail[i]--;
		ret = -EIO;
	} else {
		ret = order_orig[i]->dev_stop(dev);
	}
	order_note("stop", i, ret);
	return ret;
}

static int
order_proxy(struct rte_eth_dev *dev, uint16_t *proxy, struct rte_flow_error *err)
{
	RTE_SET_USED(dev);
	RTE_SET_USED(err);
	*proxy = order_pf[0];
	return 0;
}

static int
order_validate(struct rte_eth_dev *dev, const struct rte_flow_attr *attr,
		const struct rte_flow_item items[], const struct rte_flow_action actions[],
		struct rte_flow_error *err)
{
	RTE_SET_USED(dev);
	RTE_SET_USED(attr);
	RTE_SET_USED(items);
	RTE_SET_USED(actions);
	RTE_SET_USED(err);
	return 0;
}

static struct rte_flow *
order_create(struct rte_eth_dev *dev, const struct rte_flow_attr *attr,
		const struct rte_flow_item items[], const struct rte_flow_action actions[],
		struct rte_flow_error *err)
{
	static char rule;

	RTE_SET_USED(dev);
	RTE_SET_USED(attr);
	RTE_SET_USED(items);
	RTE_SET_USED(actions);
	RTE_SET_USED(err);
	order_rules++;
	return (struct rte_flow *)&rule;
}

static int
order_destroy(struct rte_eth_dev *dev, struct rte_flow *flow, struct rte_flow_error *err)
{
	RTE_SET_USED(dev);
	RTE_SET_USED(flow);
	RTE_SET_USED(err);
	order_rules--;
	return 0;
}

static const struct rte_flow_ops order_flow_ops = {
	.validate = order_validate,
	.create = order_create,
	.destroy = order_destroy,
	.pick_transfer_proxy = order_proxy,
};

static int
order_flow_ops_get(struct rte_eth_dev *dev, const struct rte_flow_ops **ops)
{
	RTE_SET_USED(dev);
	*ops = &order_flow_ops;
	return 0;
}

/* The calls recorded since the last look, as "start0 start1 ...". */
static const char *
order_calls(void)
{
	static char buf[ORDER_LOG * 16];
	size_t at = 0;
	unsigned int k;

	buf[0] = '\0';
	for (k = 0; k < order_n && at < sizeof(buf); k++)
		at += snprintf(buf + at, sizeof(buf) - at, "%s%s", k ? " " : "", order_log[k]);
	order_n = 0;
	return buf;
}

static bool
started(uint16_t pid)
{
	return rte_eth_devices[pid].data->dev_started != 0;
}

/* Over the wrapped net_null pair: the order, failed stops, EAGAIN. */
static void
order_wrapped(struct rte_mempool *mp)
{
	struct octo_port_conf c = {
		.nb_rxq = 2, .nb_txq = 2, .nb_desc = 512, .socket = 0, .pool = mp,
	};
	const char *calls;
	uint16_t pid;
	int i, ret;

	REQUIRE(rte_vdev_init("net_null_ord0", NULL) == 0 &&
		rte_vdev_init("net_null_ord1", NULL) == 0, "net_null ports");
	order_pf[0] = port_of("net_null_ord0");
	order_pf[1] = port_of("net_null_ord1");
	for (i = 0; i < 2; i++) {
		order_orig[i] = rte_eth_devices[order_pf[i]].dev_ops;
		order_ops[i] = *order_orig[i];
		order_ops[i].dev_start = order_start;
		order_ops[i].dev_stop = order_stop;
		order_ops[i].flow_ops_get = order_flow_ops_get;
		rte_eth_devices[order_pf[i]].dev_ops = &order_ops[i];
	}
	/* the proxy given last */
	REQUIRE(rte_vdev_init("net_octopus9", "member=net_null_ord1,member=net_null_ord0,"
		"socket_of=net_null_ord1:1,socket_of=net_null_ord0:0") == 0, "octopus port");
	pid = port_of("net_octopus9");

	ret = octo_port_start(pid, &c);
	calls = order_calls();
	CHECK(ret == 0 && strcmp(calls, "start0 start1") == 0,
		"start: %d, calls \"%s\", want the proxy (port 0 of the pair) first", ret, calls);
	CHECK(order_rules > 0, "no steering rules on the e-switch (%d)", order_rules);
	ret = rte_eth_dev_stop(pid);
	calls = order_calls();
	CHECK(ret == 0 && strcmp(calls, "stop1 stop0") == 0,
		"stop: %d, calls \"%s\", want the proxy last", ret, calls);

	/* a member whose stop fails: the port says so, takes nothing for stopped */
	CHECK(rte_eth_dev_start(pid) == 0, "start again");
	order_calls();
	order_stop_fail[1] = 1;
	ret = rte_eth_dev_stop(pid);
	calls = order_calls();
	CHECK(ret == -EIO && strcmp(calls, "stop1!") == 0 && started(order_pf[1]) &&
		started(order_pf[0]) && started(pid),
		"a member's failed stop: port stop %d (want -EIO), calls \"%s\", member 1 %s, proxy %s, port %s",
		ret, calls, started(order_pf[1]) ? "started" : "stopped",
		started(order_pf[0]) ? "started" : "stopped", started(pid) ? "started" : "stopped");
	ret = rte_eth_dev_stop(pid);
	calls = order_calls();
	CHECK(ret == 0 && strcmp(calls, "stop1 stop0") == 0 && !started(order_pf[0]) &&
		!started(order_pf[1]) && !started(pid),
		"stop once more: %d, calls \"%s\"", ret, calls);

	/* EAGAIN once: tried again after the others */
	order_start_again[1] = 1;
	ret = rte_eth_dev_start(pid);
	calls = order_calls();
	CHECK(ret == 0 && strcmp(calls, "start0 start1? start1") == 0,
		"EAGAIN once: start %d, calls \"%s\"", ret, calls);
	CHECK(rte_eth_dev_stop(pid) == 0, "stop");
	order_calls();
	/* EAGAIN every time, or another error: the start fails, all stopped */
	order_start_again[1] = -1;
	ret = rte_eth_dev_start(pid);
	calls = order_calls();
	order_start_again[1] = 0;
	CHECK(ret == -EAGAIN && strcmp(calls, "start0 start1? start1? stop0") == 0 &&
		!started(order_pf[0]) && !started(pid),
		"EAGAIN always: start %d, calls \"%s\"", ret, calls);
	order_start_fail[1] = 1;
	ret = rte_eth_dev_start(pid);
	calls = order_calls();
	CHECK(ret == -EIO && strcmp(calls, "start0 start1! stop0") == 0 &&
		!started(order_pf[0]) && !started(pid),
		"a member refusing: start %d, calls \"%s\"", ret, calls);
	CHECK(rte_eth_dev_start(pid) == 0 && rte_eth_dev_stop(pid) == 0, "start and stop after");
	calls = order_calls();
	CHECK(strcmp(calls, "start0 start1 stop1 stop0") == 0, "calls \"%s\"", calls);
	CHECK(rte_eth_dev_close(pid) == 0, "close");
	CHECK(order_rules == 0, "%d rules left on the e-switch", order_rules);
	for (i = 0; i < 2; i++)
		rte_eth_devices[order_pf[i]].dev_ops = order_orig[i];
	CHECK(rte_vdev_uninit("net_octopus9") == 0, "uninit");
}

/*
 * The order case: the wrapped pair above, then net_octonic2's PFs given
 * proxy last, whose dialect (mlx5-hws) refuses what mlx5 does: started
 * and stopped twice.
 */
static void
test_order(struct rte_mempool *mp)
{
	struct octo_port_conf c = {
		.nb_rxq = 2, .nb_txq = 2, .nb_desc = 512,
		.socket = OCTO_SOCKET_OF_LCORE, .pool = mp,
	};
	uint16_t pid, pf0 = port_of("net_octonic2_pf0"), pf1 = port_of("net_octonic2_pf1");
	int k;

	order_wrapped(mp);
	REQUIRE(rte_vdev_init("net_octopus8",
		"member=net_octonic2_pf1,member=net_octonic2_pf0") == 0, "octopus port");
	pid = port_of("net_octopus8");
	CHECK(octo_port_start(pid, &c) == 0, "start over the PFs, proxy given last");
	for (k = 0; k < 2; k++) {
		CHECK(started(pf0) && started(pf1), "PFs started");
		CHECK(rte_eth_dev_stop(pid) == 0, "stop %d", k);
		CHECK(!started(pf0) && !started(pf1), "PFs stopped");
		CHECK(rte_eth_dev_start(pid) == 0, "start %d", k);
	}
	CHECK(rte_eth_dev_stop(pid) == 0, "stop");
	CHECK(rte_eth_dev_close(pid) == 0, "close");
	CHECK(rte_vdev_uninit("net_octopus8") == 0, "uninit");
}

static void *
thread_poll(void *p)
{
	struct thread_arg *a = p;
	struct rte_mbuf *pkts[32];
	struct rte_eth_stats st;
	uint64_t gen = 0;
	uint16_t n, k;

	for (;;) {
		n = rte_eth_rx_burst(port, a->q, pkts, RTE_DIM(pkts));
		a->received += n;
		for (k = 0; k < n; )
			k += rte_eth_tx_burst(port, a->q, pkts + k, n - k);
		if (n == 0) {
			rte_pmd_octonic_gen_count(nic_port, &gen);
			memset(&st, 0, sizeof(st));
			rte_eth_stats_get(port, &st);
			if ((gen >= LIMIT && a->received + st.imissed >= gen) ||
					rte_get_timer_cycles() > a->deadline)
				break;
		}
	}
	return NULL;
}

/*
 * A non-EAL thread pinned to a CPU of socket 1 polls queue 1 (home on
 * socket 1): its polls are local, found without an lcore id. Then the main
 * lcore (socket 0) polls it once: the queue's poller is that lcore now.
 */
static void
test_thread(struct rte_mempool *mp)
{
	struct rte_eth_rss_reta_entry64 reta[4];
	struct rte_pmd_octopus_queue_info qi;
	struct rte_pmd_octopus_locality loc;
	struct rte_pmd_octonic_locality nl;
	struct thread_arg a = { .q = 1 };
	struct rte_eth_dev_info info;
	pthread_attr_t attr;
	pthread_t tid;
	cpu_set_t cpus;
	uint16_t b;

	port = port_of("net_octopus0");
	nic_port = port_of("net_octonic0_pf0");
	start_port(port, RTE_ETH_RSS_IP | RTE_ETH_RSS_UDP, mp, mp);
	CHECK(rte_eth_dev_info_get(port, &info) == 0, "info of port");
	memset(reta, 0, sizeof(reta));
	for (b = 0; b < info.reta_size; b++) {
		reta[b / 64].mask |= 1ULL << (b % 64);
		reta[b / 64].reta[b % 64] = a.q;
	}
	CHECK(rte_eth_dev_rss_reta_update(port, reta, info.reta_size) == 0, "reta");
	rte_pmd_octonic_gen_enable(nic_port, 1);
	a.deadline = rte_get_timer_cycles() + 20 * rte_get_timer_hz();
	CPU_ZERO(&cpus);
	CPU_SET(1, &cpus);	/* CPU 1 is on node 1 (octopus-numa-emu) */
	pthread_attr_init(&attr);
	pthread_attr_setaffinity_np(&attr, sizeof(cpus), &cpus);
	CHECK(pthread_create(&tid, &attr, thread_poll, &a) == 0, "thread");
	pthread_join(tid, NULL);
	pthread_attr_destroy(&attr);

	CHECK(a.received > LIMIT / 2, "thread received %" PRIu64, a.received);
	CHECK(rte_pmd_octopus_queue_info_get(port, a.q, 0, &qi) == 0 &&
		qi.poller_lcore == RTE_MAX_LCORE && qi.poller_socket == 1 &&
		qi.home_socket == 1, "poller %d socket %d home socket %d",
		qi.poller_lcore, qi.poller_socket, qi.home_socket);
	CHECK(rte_pmd_octopus_locality_get(port, a.q, 0, &loc) == 0 &&
		loc.foreign_polls == 0 && loc.remote_pkts == 0 &&
		loc.local_pkts == a.received, "local %" PRIu64 " remote %" PRIu64
		" foreign polls %" PRIu64 " of %" PRIu64, loc.local_pkts,
		loc.remote_pkts, loc.foreign_polls, loc.polls);
	nic_locality(port_of("net_octonic0_pf1"), a.q, 0, &nl);
	CHECK(nl.remote_polls == 0 && nl.remote_dma_pkts == 0 && nl.polls > 0,
		"pf1 rxq: remote polls %" PRIu64 " remote DMA %" PRIu64,
		nl.remote_polls, nl.remote_dma_pkts);
	/* another poller takes the queue over: the port reports it */
	{
		struct rte_mbuf *pkts[32];
		uint16_t n = rte_eth_rx_burst(port, a.q, pkts, RTE_DIM(pkts));

		rte_pktmbuf_free_bulk(pkts, n);
	}
	CHECK(rte_pmd_octopus_queue_info_get(port, a.q, 0, &qi) == 0 &&
		qi.poller_lcore == (int)rte_lcore_id() && qi.poller_socket == 0,
		"after a poll from lcore %u: poller %d socket %d", rte_lcore_id(),
		qi.poller_lcore, qi.poller_socket);
	octo_port_stop_close(port);
}

static int lsc_events;

static int
on_lsc(uint16_t p, enum rte_eth_event_type type, void *arg, void *ret)
{
	RTE_SET_USED(p);
	RTE_SET_USED(type);
	RTE_SET_USED(arg);
	RTE_SET_USED(ret);
	rte_atomic_fetch_add_explicit(&lsc_events, 1, rte_memory_order_relaxed);
	return 0;
}

static int
link_status(uint16_t p)
{
	struct rte_eth_link l;

	memset(&l, 0, sizeof(l));
	if (rte_eth_link_get_nowait(p, &l) != 0)
		return -1;
	return l.link_status;
}

/* The port's link is up while any member's is; LSC events follow it. */
static void
test_link(struct rte_mempool *mp)
{
	uint16_t pf0 = port_of("net_octonic0_pf0"), pf1 = port_of("net_octonic0_pf1");
	struct rte_eth_conf conf;

	port = port_of("net_octopus0");
	memset(&conf, 0, sizeof(conf));
	conf.intr_conf.lsc = 1;
	CHECK(rte_eth_dev_configure(port, 1, 1, &conf) == 0, "configure");
	CHECK(rte_eth_rx_queue_setup(port, 0, 512, 0, NULL, mp) == 0, "rxq");
	CHECK(rte_eth_tx_queue_setup(port, 0, 512, 0, NULL) == 0, "txq");
	rte_eth_dev_callback_register(port, RTE_ETH_EVENT_INTR_LSC, on_lsc, NULL);
	CHECK(rte_eth_dev_start(port) == 0, "start");
	CHECK(link_status(port) == RTE_ETH_LINK_UP, "link down after start");
	lsc_events = 0;
	CHECK(rte_pmd_octonic_unplug(pf1) == 0, "unplug pf1");
	CHECK(link_status(pf1) == RTE_ETH_LINK_DOWN, "pf1 still up");
	CHECK(link_status(port) == RTE_ETH_LINK_UP && lsc_events == 0,
		"one member down: port link %d, %d events", link_status(port), lsc_events);
	CHECK(rte_pmd_octonic_unplug(pf0) == 0, "unplug pf0");
	CHECK(link_status(port) == RTE_ETH_LINK_DOWN && lsc_events == 1,
		"all members down: port link %d, %d events", link_status(port), lsc_events);
	CHECK(rte_pmd_octonic_plug(pf0) == 0, "plug pf0");
	CHECK(link_status(port) == RTE_ETH_LINK_UP && lsc_events == 2,
		"member back: port link %d, %d events", link_status(port), lsc_events);
	rte_pmd_octonic_plug(pf1);

	/* packet types: the members' (both PFs of one NIC report the same) */
	{
		uint32_t vp[64], mp0[64];
		int nv, nm;

		nv = rte_eth_dev_get_supported_ptypes(port, RTE_PTYPE_ALL_MASK, vp, 64);
		nm = rte_eth_dev_get_supported_ptypes(pf0, RTE_PTYPE_ALL_MASK, mp0, 64);
		CHECK(nm > 0 && nv == nm && memcmp(vp, mp0, nm * sizeof(vp[0])) == 0,
			"ptypes: port %d, member %d", nv, nm);
	}

	/* a MAC added to the port is on every member, and removed from all */
	{
		struct rte_ether_addr extra = {{ 0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0x01 }};
		struct rte_ether_addr list[32];
		uint16_t pfs[2] = { pf0, pf1 };
		int k, n, i, found;

		CHECK(rte_eth_dev_mac_addr_add(port, &extra, 0) == 0, "mac add");
		for (k = 0; k < 2; k++) {
			n = rte_eth_macaddrs_get(pfs[k], list, RTE_DIM(list));
			for (i = 0, found = 0; i < n; i++)
				found += rte_is_same_ether_addr(&list[i], &extra);
			CHECK(found == 1, "pf%d has the added MAC %d times", k, found);
		}
		CHECK(rte_eth_dev_mac_addr_remove(port, &extra) == 0, "mac remove");
		for (k = 0; k < 2; k++) {
			n = rte_eth_macaddrs_get(pfs[k], list, RTE_DIM(list));
			for (i = 0, found = 0; i < n; i++)
				found += rte_is_same_ether_addr(&list[i], &extra);
			CHECK(found == 0, "pf%d kept the removed MAC", k);
		}
	}
	octo_port_stop_close(port);
}

/*
 * An application that exits without closing its ports (legal: EAL closes
 * the devices), its port started or stopped (exit_stopped) with a rule.
 * The vdev bus removes the NIC model's PFs before the octopus port: the
 * port must let them go and release what is left quietly. The log of
 * rte_eal_cleanup() is captured: no error line may come from the virtual
 * port or its steering.
 */
static void
test_exit(struct rte_mempool *mp, bool stopped)
{
	const struct rte_flow_item items[] = OCTO_ITEMS_UDP;
	struct rte_flow_error err;
	char *log = NULL, *line, *save = NULL;
	size_t len = 0;
	unsigned int lines = 0, bad = 0;
	FILE *f;

	port = port_of("net_octopus0");
	start_port(port, 0, mp, mp);
	CHECK(octo_items_to_queue(port, items, 1, &err) != NULL, "flow");
	/* stopped: the rule stays on the e-switch, the steering does not */
	if (stopped)
		CHECK(rte_eth_dev_stop(port) == 0, "stop");
	f = open_memstream(&log, &len);
	REQUIRE(f != NULL, "open_memstream");
	rte_openlog_stream(f);
	octo_test_eal_cleanup();
	fclose(f);
	for (line = strtok_r(log, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		lines++;
		if ((strstr(line, "octopus") != NULL || strstr(line, "octonic") != NULL) &&
		    (strstr(line, "fail") != NULL || strstr(line, "No such device") != NULL ||
		     strstr(line, "refused") != NULL)) {
			if (bad++ < 5)
				fprintf(stderr, "exit: %s\n", line);
		}
	}
	free(log);
	fprintf(stderr, "exit: %u line(s) logged by rte_eal_cleanup(), %u error(s)\n",
		lines, bad);
	CHECK(bad == 0, "%u error line(s) at exit", bad);
}

static void
test_exit_started(struct rte_mempool *mp)
{
	test_exit(mp, false);
}

static void
test_exit_stopped(struct rte_mempool *mp)
{
	test_exit(mp, true);
}

static const struct octo_case cases[] = {
	{ "octopus", test_octopus }, { "single", test_single }, { "domains", test_domains },
	{ "reta", test_reta }, { "thread", test_thread }, { "link", test_link },
	{ "refused", test_refused }, { "order", test_order },
	{ "mpesw", test_mpesw }, { "separate", test_separate }, { "nic_repr", test_nic_repr },
	{ "exit", test_exit_started, true },
	{ "exit_stopped", test_exit_stopped, true },
};

int
main(int argc, char **argv)
{
	struct octo_pfs_main m;

	/* lcore q polls queue q: on socket q mod N */
	if (octo_pfs_main_begin(&m, argc, argv, 0, "octopus-octonic", &nb_pf, &nb_q) != 0)
		return 2;
	nb_desc = nb_pf == 2 ? 4096 : 1024;
	octo_eal_vdev(&m.a, "net_octonic0,%s,wire=gen,flows=1024,gen_rate=200000,gen_limit=%u",
		m.e.nic, LIMIT);
	octo_eal_vdev(&m.a, "net_octonic1,%s,wire=loop", m.e.nic);
	octo_eal_vdev(&m.a, "net_octonic2,pfs=2,numa=0:1,wire=loop%s", octo_dialect_suffix());
	/* single: no octopus port */
	if (strcmp(m.which, "single") != 0) {
		/* beyond 2 PFs rx_pool=app with a pool per socket: the port's
		 * own pools (rx_pool=local) mirror the application's on every
		 * member's socket, N times the memory of the shared hugepages,
		 * while queue q's pool on its home socket keeps its DMA local
		 * (what "octopus" checks)
		 */
		octo_eal_vdev(&m.a, "net_octopus0,%s%s", m.e.members,
			nb_pf > 2 ? ",rx_pool=app" : "");
	}
	if (octo_eal_start(&m.a, nb_q) < 0 || !octo_pfs_sockets_ok(nb_pf))
		return 2;
	m.mp = octo_app_pool("app", 8192, 0);
	/* the queues homed on a socket fill a ring on every member at start
	 * under a NIC that posts its rings then (mlx5: all of them, deferred
	 * or not: octopus.rst, "Rx pools")
	 */
	if (m.mp == NULL || octo_pfs_socket_pools(app_pool, nb_pf, nb_q, nb_desc) != 0)
		return 2;
	octo_gen_pf("net_octonic0_pf0");
	return octo_case_main(cases, RTE_DIM(cases), m.which, argv[0], m.mp);
}
