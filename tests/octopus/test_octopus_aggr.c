/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * DPDK's aggregated-port API on net_octopus (ethdev 23.03: built against
 * 25.11 only): net_octopus over two net_octonic PFs (PF k on socket k),
 * wire=gen, 2 queues each way set up on sockets 0 and 1, migration=auto
 * (migrate_after=20). Lcore 1, on socket 0, forwards both queues (Rx q ->
 * Tx q). Run under tools/octopus-numa-emu --nodes 2.
 *
 *   test_octopus_aggr pin
 *     - rte_eth_dev_count_aggr_ports() is 2, the members;
 *     - refused: a mapping while started (-EBUSY), an affinity beyond the
 *       members, a Tx queue not set up (-EINVAL);
 *     - Tx queue 0 pinned to member 1 (affinity 2) and started: Tx queue 1
 *       (homed on PF1 by its setup) follows its poller to PF0, Tx queue 0
 *       stays on PF1 (no migration, its packets sent through PF1 from
 *       socket 0: remote, foreign polls);
 *     - rte_pmd_octopus_queue_migrate() of queue 0 moves its Rx side only;
 *     - PF1 unplugged: Tx queue 0 served by PF0; plugged back: on PF1
 *       again, though its poller is on socket 0;
 *     - affinity 0: the queue is given back (homed as its setup placed
 *       it, moved by the API, then back to its poller's socket by
 *       migration=auto).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#include <octopus_dpdk_compat.h>

#include "rte_pmd_octonic.h"
#include "rte_pmd_octopus.h"

#include "../common/octo_cases.h"
#include "../common/octo_eal.h"
#include "../common/octo_check.h"
#include "../common/octo_port.h"
#include "../common/octo_state.h"
#include "../common/octo_test_eal.h"

static uint16_t port, pf[2];
static volatile int stop;

static int
forwarder(void *arg)
{
	struct rte_mbuf *b[32];
	uint16_t q, n, s;

	RTE_SET_USED(arg);
	while (!stop)
		for (q = 0; q < 2; q++) {
			n = rte_eth_rx_burst(port, q, b, RTE_DIM(b));
			s = rte_eth_tx_burst(port, q, b, n);
			if (s < n)
				rte_pktmbuf_free_bulk(&b[s], n - s);
		}
	return 0;
}

/* Wait up to 5 s until Tx queue @p q is steady on member @p m. */
static int
tx_home_becomes(uint16_t q, int m)
{
	uint64_t end = rte_get_timer_cycles() + 5 * rte_get_timer_hz();
	struct rte_pmd_octopus_migration st;

	do {
		st = octo_migration(port, 1, q);
		if (st.phase == RTE_PMD_OCTOPUS_MIG_STEADY && st.home_member == m)
			return 1;
		rte_delay_us_sleep(1000);
	} while (rte_get_timer_cycles() < end);
	return 0;
}

static void
run(int on)
{
	if (on) {
		stop = 0;
		CHECK(rte_pmd_octonic_gen_enable(pf[0], 1) == 0, "generator on");
		rte_eal_mp_remote_launch(forwarder, NULL, SKIP_MAIN);
	} else {
		CHECK(rte_pmd_octonic_gen_enable(pf[0], 0) == 0, "generator off");
		stop = 1;
		rte_eal_mp_wait_lcore();
	}
}

static void
test_pin(struct rte_mempool *mp)
{
	struct octo_port_conf c = {
		.nb_rxq = 2, .nb_txq = 2, .socket = OCTO_SOCKET_ALTERNATE, .pool = mp,
	};
	struct rte_pmd_octopus_locality l0, l1;
	struct rte_pmd_octopus_migration st;
	int ret;

	REQUIRE(octo_port_start(port, &c) == 0, "port start");
	CHECK(rte_eth_dev_count_aggr_ports(port) == 2, "aggregated ports: %d",
		rte_eth_dev_count_aggr_ports(port));
	ret = rte_eth_dev_map_aggr_tx_affinity(port, 0, 2);
	CHECK(ret == -EBUSY, "mapped while started: %d", ret);
	REQUIRE(rte_eth_dev_stop(port) == 0, "stop");
	ret = rte_eth_dev_map_aggr_tx_affinity(port, 0, 3);
	CHECK(ret == -EINVAL, "affinity 3 of 2 members: %d", ret);
	ret = rte_eth_dev_map_aggr_tx_affinity(port, 2, 1);
	CHECK(ret == -EINVAL, "Tx queue 2 of 2: %d", ret);

	/* pinned: Tx 0 to member 1 */
	CHECK(rte_eth_dev_map_aggr_tx_affinity(port, 0, 2) == 0, "affinity 2");
	REQUIRE(rte_eth_dev_start(port) == 0, "start");
	st = octo_migration(port, 1, 0);
	CHECK(st.home_member == 1, "pinned Tx 0 homed on member %u", st.home_member);
	run(1);
	CHECK(tx_home_becomes(1, 0), "Tx 1 (unpinned) did not follow its poller to member 0");
	CHECK(rte_pmd_octopus_locality_get(port, 0, 1, &l0) == 0, "locality");
	rte_delay_us_sleep(300 * 1000);	/* 15 times migrate_after */
	CHECK(rte_pmd_octopus_locality_get(port, 0, 1, &l1) == 0, "locality");
	st = octo_migration(port, 1, 0);
	CHECK(st.home_member == 1 && st.migrations == 0,
		"pinned Tx 0: home member %u, %" PRIu64 " migrations", st.home_member,
		st.migrations);
	CHECK(l1.remote_pkts > l0.remote_pkts && l1.foreign_polls > l0.foreign_polls,
		"pinned Tx 0 polled from socket 0: %" PRIu64 " remote packets, %" PRIu64
		" foreign polls in 300 ms", l1.remote_pkts - l0.remote_pkts,
		l1.foreign_polls - l0.foreign_polls);
	printf("pin: Tx 0 pinned to member 1 stayed (%" PRIu64 " packets through PF1 from socket 0 in 300 ms); Tx 1 followed its poller\n",
		l1.remote_pkts - l0.remote_pkts);

	/* the API moves the queue's Rx side, not its pinned Tx */
	ret = rte_pmd_octopus_queue_migrate(port, 0, 1);
	CHECK(ret == 0, "queue_migrate 0 to socket 1: %d", ret);
	rte_delay_us_sleep(100 * 1000);
	st = octo_migration(port, 1, 0);
	CHECK(st.home_member == 1 && st.migrations == 0,
		"the API moved pinned Tx 0: home member %u, %" PRIu64 " migrations",
		st.home_member, st.migrations);

	/* its member out: served by the other; back: home again */
	CHECK(rte_pmd_octonic_unplug(pf[1]) == 0, "unplug PF1");
	CHECK(tx_home_becomes(0, 0), "PF1 out: pinned Tx 0 not moved to member 0");
	CHECK(rte_pmd_octonic_plug(pf[1]) == 0, "plug PF1");
	CHECK(tx_home_becomes(0, 1), "PF1 back: pinned Tx 0 not back on member 1");
	rte_delay_us_sleep(300 * 1000);
	st = octo_migration(port, 1, 0);
	CHECK(st.home_member == 1, "pinned Tx 0 left member 1 after PF1 came back");
	printf("pin: PF1 out and back: Tx 0 on member 0 meanwhile, then member 1 again (%" PRIu64 " moves)\n",
		st.migrations);
	run(0);

	/* given back: affinity 0 */
	REQUIRE(rte_eth_dev_stop(port) == 0, "stop");
	CHECK(rte_eth_dev_map_aggr_tx_affinity(port, 0, 0) == 0, "affinity 0");
	REQUIRE(rte_eth_dev_start(port) == 0, "start");
	st = octo_migration(port, 1, 0);
	CHECK(st.home_member == 0, "Tx 0 without affinity homed on member %u (its setup: 0)",
		st.home_member);
	run(1);
	ret = rte_pmd_octopus_queue_migrate(port, 0, 1);
	CHECK(ret == 0, "queue_migrate 0 to socket 1: %d", ret);
	CHECK(tx_home_becomes(0, 1), "Tx 0 without affinity: the API did not move it");
	CHECK(tx_home_becomes(0, 0), "Tx 0 without affinity did not follow its poller back");
	run(0);
	octo_port_stop_close(port);
}

static const struct octo_case cases[] = {
	{ "pin", test_pin },
};

int
main(int argc, char **argv)
{
	struct rte_mempool *mp;
	struct octo_eal a;
	const char *which;

	which = octo_eal_begin_2pf(&a, argc, argv, "0@0,1@0", "octopus-aggr", ",migrate_after=20",
		",flows=64,gen_rate=100000");
	if (octo_eal_start(&a, 2) < 0)
		return 2;
	port = port_of("net_octopus0");
	pf[0] = port_of("net_octonic0_pf0");
	pf[1] = port_of("net_octonic0_pf1");
	mp = octo_app_pool("app", 8192, 0);
	if (mp == NULL || port >= RTE_MAX_ETHPORTS || pf[1] >= RTE_MAX_ETHPORTS)
		return 2;
	rte_pmd_octonic_gen_enable(pf[0], 0);
	return octo_case_main(cases, RTE_DIM(cases), which, argv[0], mp);
}
