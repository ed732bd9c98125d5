/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Failover to the nearest member on a 4- or 8-socket machine:
 *
 *   test_octopus_failover_nearest N     (N = 4 or 8; run under
 *                                        tools/octopus-numa-emu --nodes N)
 *
 * net_octopus over the N PFs of one net_octonic NIC, PF k on socket k,
 * wire=gen with 1024 sequence-numbered flows, N virtual queues, queue k set
 * up on socket k and polled (and sent through) by an lcore of socket k.
 * Members are unplugged and plugged back under traffic, two out at once:
 *   PF1 out, PF0 out (queue 1, displaced onto PF0, moves again), PF0 back,
 *   PF1 back.
 * After each step every queue must be steady on the member this test
 * expects and deliver through it: a queue whose member is out goes to the
 * serving member nearest to its poller's socket by the machine's SLIT
 * (nodeX/distance in sysfs, read here directly: lowest distance, then
 * lowest member index), stays there while it serves, and goes home when its
 * own member is back.  With the emulation's 8-node table the choices differ
 * from "the next member" (4 nodes, PF0 and PF1 out: queues 0 and 1 both
 * go to PF2, none to PF3).
 * At the end: nothing reordered or duplicated at Rx nor on the wire,
 * received + NIC drops + what the lost PFs' rings held = generated.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_udp.h>

#include <octopus_dpdk_compat.h>

#include "octo_wire.h"
#include "rte_pmd_octonic.h"
#include "rte_pmd_octopus.h"

#include "../common/octo_check.h"
#include "../common/octo_pfs.h"
#include "../common/octo_port.h"
#include "../common/octo_state.h"
#include "../common/octo_test_eal.h"

#define MAX_PF OCTO_PFS_MAX
#define NB_DESC 1024
#define NB_FLOWS 1024
#define LIMIT_MS 20000		/* N+1 pollers share 2 CPUs with other tests */
#define PAYLOAD_OFF (sizeof(struct rte_ether_hdr) + sizeof(struct rte_ipv4_hdr) + \
	sizeof(struct rte_udp_hdr))

static unsigned int nb_pf;
static uint16_t port, pf[MAX_PF];
static unsigned int poller[MAX_PF];	/* lcore of queue q: on socket q */
static volatile int stop;
static uint64_t received;

/* per flow: only the poller of the flow's queue touches it */
static uint64_t next_seq[NB_FLOWS];
static uint64_t reordered, duplicated;

/* Where each queue must be after a change of @p serving: @p at updated. */
static void
expect(const int *serving, int *at)
{
	unsigned int q;

	for (q = 0; q < nb_pf; q++) {
		if (serving[q])
			at[q] = (int)q;		/* home, or back home */
		else if (at[q] < 0 || !serving[at[q]])
			at[q] = octo_pfs_nearest(nb_pf, q, serving);
	}
}

static void
seq_check(struct rte_mbuf *m)
{
	const struct octo_wire_payload *pl;
	uint32_t flow;
	uint64_t seq;

	if (rte_pktmbuf_data_len(m) < PAYLOAD_OFF + sizeof(*pl))
		return;
	pl = rte_pktmbuf_mtod_offset(m, const struct octo_wire_payload *, PAYLOAD_OFF);
	flow = rte_be_to_cpu_32(pl->flow_id);
	seq = rte_be_to_cpu_64(pl->seq);
	if (rte_be_to_cpu_32(pl->magic) != OCTO_WIRE_MAGIC || flow >= NB_FLOWS)
		return;
	if (next_seq[flow] != 0 && seq < next_seq[flow]) {
		if (seq + 1 == next_seq[flow])
			duplicated++;
		else
			reordered++;
		return;
	}
	next_seq[flow] = seq + 1;
}

static int
worker(void *arg)
{
	unsigned int me = rte_lcore_id(), q, k;
	struct rte_mbuf *pkts[32];
	uint16_t n;

	RTE_SET_USED(arg);
	while (!stop)
		for (q = 0; q < nb_pf; q++) {
			if (poller[q] != me)
				continue;
			n = rte_eth_rx_burst(port, q, pkts, RTE_DIM(pkts));
			for (k = 0; k < n; k++)
				seq_check(pkts[k]);
			for (k = 0; k < n; )
				k += rte_eth_tx_burst(port, q, pkts + k, n - k);
			rte_atomic_fetch_add_explicit(&received, n, rte_memory_order_relaxed);
			if (n == 0) {
				/* lets a Tx move finish; leaves the CPU to the
				 * other pollers of this 2-CPU machine
				 */
				rte_eth_tx_burst(port, q, pkts, 0);
				rte_delay_us_sleep(50);
			}
		}
	return 0;
}

static uint64_t
via(unsigned int q, unsigned int m)
{
	struct rte_pmd_octopus_locality l;

	memset(&l, 0, sizeof(l));
	rte_pmd_octopus_locality_get(port, q, 0, &l);
	return l.member_pkts[m];
}

static bool
deadline_passed(uint64_t end)
{
	return rte_get_timer_cycles() > end;
}

/*
 * Wait until every Rx and Tx queue is steady on @p at and every Rx queue
 * delivered through it since.
 */
static void
wait_placed(const char *step, const int *at)
{
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz() / 1000 * LIMIT_MS;
	uint64_t t0 = rte_get_timer_cycles(), base[MAX_PF];
	struct rte_pmd_octopus_migration r;
	unsigned int q, t, placed;
	bool steady = false;

	do {
		for (q = 0, placed = 0; q < nb_pf; q++)
			for (t = 0; t < 2; t++) {
				memset(&r, 0, sizeof(r));
				rte_pmd_octopus_migration_get(port, q, t, &r);
				placed += r.phase == RTE_PMD_OCTOPUS_MIG_STEADY &&
					r.home_member == at[q];
			}
		steady = placed == 2 * nb_pf;
		if (!steady)
			rte_delay_us_sleep(1000);
	} while (!steady && !deadline_passed(end));
	for (q = 0; q < nb_pf && !steady; q++)
		for (t = 0; t < 2; t++) {
			rte_pmd_octopus_migration_get(port, q, t, &r);
			CHECK(r.phase == RTE_PMD_OCTOPUS_MIG_STEADY && r.home_member == at[q],
				"%s: %s queue %u on member %u (phase %d), expected member %d",
				step, t ? "Tx" : "Rx", q, r.home_member, (int)r.phase, at[q]);
		}
	if (!steady)
		return;
	for (q = 0; q < nb_pf; q++)
		base[q] = via(q, (unsigned int)at[q]);
	for (q = 0; q < nb_pf; q++) {
		while (via(q, (unsigned int)at[q]) == base[q] && !deadline_passed(end))
			rte_delay_us_sleep(1000);
		CHECK(via(q, (unsigned int)at[q]) > base[q],
			"%s: queue %u delivered nothing through member %d", step, q, at[q]);
	}
	printf("%s: placed as expected after %.1f ms:", step,
		(double)(rte_get_timer_cycles() - t0) * 1000 / rte_get_timer_hz());
	for (q = 0; q < nb_pf; q++)
		printf(" q%u@PF%d", q, at[q]);
	printf("\n");
}

static void
change(const char *step, unsigned int m, int plug, int *serving, int *at)
{
	int ret = plug ? rte_pmd_octonic_plug(pf[m]) : rte_pmd_octonic_unplug(pf[m]);
	char name[32];

	CHECK(ret == 0, "%s: %s PF%u: %d", step, plug ? "plug" : "unplug", m, ret);
	serving[m] = plug;
	expect(serving, at);
	wait_placed(step, at);
	snprintf(name, sizeof(name), "member%u_in_service", m);
	CHECK(octo_xstat(port, name) == (uint64_t)plug, "%s: %s %" PRIu64, step, name,
		octo_xstat(port, name));
}

static void
drain(void)
{
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz() / 1000 * LIMIT_MS;
	uint64_t last, now;

	CHECK(rte_pmd_octonic_gen_enable(pf[0], 0) == 0, "generator off");
	do {
		last = rte_atomic_load_explicit(&received, rte_memory_order_relaxed);
		rte_delay_ms(200);
		now = rte_atomic_load_explicit(&received, rte_memory_order_relaxed);
	} while (now != last && !deadline_passed(end));
	stop = 1;
	rte_eal_mp_wait_lcore();
}

static void
check_accounting(void)
{
	struct rte_pmd_octonic_sink_stats sink;
	struct rte_eth_stats st;
	uint64_t gen = 0, outage;

	rte_pmd_octonic_gen_count(pf[0], &gen);
	memset(&st, 0, sizeof(st));
	rte_eth_stats_get(port, &st);
	outage = octo_xstat(port, "outage_lost_packets");
	memset(&sink, 0, sizeof(sink));
	CHECK(rte_pmd_octonic_sink_stats_get(pf[0], &sink) == 0, "sink stats");
	printf("%u PFs: %" PRIu64 " generated, %" PRIu64 " received, %" PRIu64
		" NIC drops, %" PRIu64 " lost in the rings; Rx %" PRIu64 " reordered %"
		PRIu64 " dup; wire %" PRIu64 " out of order %" PRIu64 " dup; losses %"
		PRIu64 " returns %" PRIu64 "\n", nb_pf, gen, received, st.imissed, outage,
		reordered, duplicated, sink.out_of_order, sink.duplicates,
		octo_xstat(port, "member_losses"), octo_xstat(port, "member_returns"));
	CHECK(reordered == 0 && duplicated == 0, "Rx: %" PRIu64 " reordered, %" PRIu64
		" duplicated", reordered, duplicated);
	CHECK(sink.out_of_order == 0 && sink.duplicates == 0,
		"wire: %" PRIu64 " out of order, %" PRIu64 " dup", sink.out_of_order,
		sink.duplicates);
	CHECK(received > 0, "nothing received");
	CHECK(received + st.imissed + outage == gen, "received %" PRIu64 " + NIC drops %"
		PRIu64 " + ring losses %" PRIu64 " != generated %" PRIu64, received,
		st.imissed, outage, gen);
	CHECK(octo_xstat(port, "member_losses") == 2 &&
		octo_xstat(port, "member_returns") == 2, "member losses %" PRIu64
		", returns %" PRIu64, octo_xstat(port, "member_losses"),
		octo_xstat(port, "member_returns"));
}

int
main(int argc, char **argv)
{
	char lcores[128], nic[160], members[512], name[64], prefix[64];
	unsigned int dist[OCTO_PFS_MAX][OCTO_PFS_MAX];
	/* queue q on socket q, its Rx buffers from socket q's pool */
	struct octo_port_conf pc = {
		.nb_desc = NB_DESC,
		.socket = OCTO_SOCKET_SPREAD,
		.rss_hf = RTE_ETH_RSS_IP | RTE_ETH_RSS_UDP,
	};
	int serving[MAX_PF], at[MAX_PF];
	unsigned int i, lc;
	char *eal[] = {
		argv[0], "--no-pci", "--lcores", lcores, "--file-prefix", prefix,
		"--vdev", nic, "--vdev", members,
	};
	int nb_eal = RTE_DIM(eal), len;
	char **eal_argv = eal;

	nb_pf = argc > 1 ? (unsigned int)atoi(argv[1]) : 0;
	if (nb_pf < 4 || nb_pf > MAX_PF) {
		fprintf(stderr, "usage: %s 4..8 (under octopus-numa-emu --nodes N)\n", argv[0]);
		return 2;
	}
	/* lcore 0 (main) and lcore k+1 on emulated CPU k, of socket k */
	len = snprintf(lcores, sizeof(lcores), "0@0");
	for (i = 0; i < nb_pf; i++)
		len += snprintf(lcores + len, sizeof(lcores) - len, ",%u@%u", i + 1, i);
	len = snprintf(nic, sizeof(nic), "net_octonic0,wire=gen,flows=%u,gen_rate=50000,",
		NB_FLOWS);
	if (octo_pfs_nic_args(nic + len, sizeof(nic) - len, nb_pf) != 0)
		return 2;
	len = snprintf(members, sizeof(members), "net_octopus0");
	for (i = 0; i < nb_pf; i++)
		len += snprintf(members + len, sizeof(members) - len,
			",member=net_octonic0_pf%u", i);
	snprintf(members + len, sizeof(members) - len, ",migration=manual,rx_pool=app");
	snprintf(prefix, sizeof(prefix), "octopus-nearest-%u", nb_pf);

	if (octo_test_eal_init(&nb_eal, &eal_argv, 1024) < 0) {
		fprintf(stderr, "EAL init failed\n");
		return 2;
	}
	if (rte_socket_count() < nb_pf || rte_lcore_count() < nb_pf + 1) {
		fprintf(stderr, "needs %u sockets (EAL sees %u) and %u lcores: run under octopus-numa-emu --nodes %u\n",
			nb_pf, rte_socket_count(), nb_pf + 1, nb_pf);
		return 2;
	}
	if (octo_pfs_distances(nb_pf, dist) != 0) {
		fprintf(stderr, "cannot read the nodes' distances from sysfs\n");
		return 2;
	}
	RTE_LCORE_FOREACH_WORKER(lc)
		if (rte_lcore_to_socket_id(lc) < nb_pf)
			poller[rte_lcore_to_socket_id(lc)] = lc;
	for (i = 0; i < nb_pf; i++) {
		CHECK(poller[i] == i + 1, "lcore %u is not on socket %u (%u)", i + 1, i,
			rte_lcore_to_socket_id(i + 1));
		snprintf(name, sizeof(name), "net_octonic0_pf%u", i);
		if (rte_eth_dev_get_port_by_name(name, &pf[i]) != 0)
			return 2;
		snprintf(name, sizeof(name), "app%u", i);
		/* queue i's ring on every member (a NIC that fills its
		 * rings at start, mlx5, takes them all), its Tx ring and
		 * the lcores' caches */
		pc.rx_pool[i] = rte_pktmbuf_pool_create(name, (nb_pf + 1) * NB_DESC + 4096,
			256, 0, RTE_MBUF_DEFAULT_BUF_SIZE, (int)i);
		if (pc.rx_pool[i] == NULL) {
			fprintf(stderr, "pool on socket %u: %s\n", i, rte_strerror(rte_errno));
			return 2;
		}
		serving[i] = 1;
		at[i] = -1;
	}
	if (octo_failures != 0 || rte_eth_dev_get_port_by_name("net_octopus0", &port) != 0)
		return 1;
	rte_pmd_octonic_gen_enable(pf[0], 0);
	pc.nb_rxq = pc.nb_txq = (uint16_t)nb_pf;
	CHECK(octo_port_start(port, &pc) == 0, "configure, set up and start the port");
	if (octo_failures != 0)
		return 1;
	stop = 0;
	rte_eal_mp_remote_launch(worker, NULL, SKIP_MAIN);
	CHECK(rte_pmd_octonic_gen_enable(pf[0], 1) == 0, "generator on");
	expect(serving, at);
	wait_placed("start", at);
	change("PF1 out", 1, 0, serving, at);
	change("PF0 out too", 0, 0, serving, at);
	change("PF0 back", 0, 1, serving, at);
	change("PF1 back", 1, 1, serving, at);
	drain();
	check_accounting();
	octo_port_stop_close(port);
	rte_eal_cleanup();
	printf("%s: %u failure(s)\n", octo_failures ? "FAIL" : "ok", (unsigned int)octo_failures);
	return octo_failures ? 1 : 0;
}
