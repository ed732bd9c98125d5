/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * The virtual port's datapath next to its peers, without testpmd around it:
 * rx+tx bursts of 32 on one queue of
 *   direct           a net_null port,
 *   octopus          net_octopus over two net_null members, rx_pool=app
 *                    (the members Rx into the application's pool, as the
 *                    direct port does: the same kind of pool),
 *   octopus-local    the same with the port's own pools (rx_pool=local),
 *   failsafe         net_failsafe over one net_null (rewrites mbuf->port),
 *   bonding-ab       net_bonding mode 1 over two net_null (does not),
 * all fed by the application's one pool. Not a test: a measurement.
 *
 *   bench_datapath [EAL args] -- [cycles [ROUNDS] | ir [BURSTS]]
 *
 * cycles: the best and the median of ROUNDS (default 200) rounds of 2000
 *   bursts, setups interleaved, cycles/packet, and the overhead over direct.
 * ir: BURSTS (default 20000) bursts per setup, each setup in a function of
 *   its own (loop_<setup>), for valgrind --tool=callgrind: instructions per
 *   packet = the function's inclusive Ir / the packets printed here.
 * Run under octopus-numa-emu --nodes 2 (the octopus members are on two
 * sockets).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <octopus_dpdk_compat.h>

#include "../common/octo_eal.h"
#include "../common/octo_test_eal.h"
#include "../common/octo_port.h"

#include "bench_chunks.h"

#define BURST 32
#define NB_SETUPS 5

static const char *const names[NB_SETUPS] = {
	"direct", "octopus", "octopus-local", "failsafe", "bonding-ab",
};
static uint16_t ports[NB_SETUPS];

/* @p iters rx+tx bursts on @p port; the app reads each packet's length. */
static inline uint64_t
bursts(uint16_t port, unsigned int iters)
{
	struct rte_mbuf *pkts[BURST];
	uint64_t pk = 0, len = 0;
	unsigned int i;
	uint16_t n, j;

	for (i = 0; i < iters; i++) {
		n = rte_eth_rx_burst(port, 0, pkts, BURST);
		pk += n;
		for (j = 0; j < n; j++)
			len += pkts[j]->data_len;
		j = rte_eth_tx_burst(port, 0, pkts, n);
		if (j < n)
			rte_pktmbuf_free_bulk(pkts + j, n - j);
	}
	if (len == UINT64_MAX)	/* keep the reads */
		printf("\n");
	return pk;
}

/* One function per setup, so that callgrind attributes each on its own. */
static __rte_noinline uint64_t loop_direct(unsigned int n) { return bursts(ports[0], n); }
static __rte_noinline uint64_t loop_octopus(unsigned int n) { return bursts(ports[1], n); }
static __rte_noinline uint64_t loop_octopus_local(unsigned int n) { return bursts(ports[2], n); }
static __rte_noinline uint64_t loop_failsafe(unsigned int n) { return bursts(ports[3], n); }
static __rte_noinline uint64_t loop_bonding(unsigned int n) { return bursts(ports[4], n); }

static uint64_t (*const loops[NB_SETUPS])(unsigned int) = {
	loop_direct, loop_octopus, loop_octopus_local, loop_failsafe, loop_bonding,
};

static int
setup(uint16_t port, struct rte_mempool *mp)
{
	struct octo_port_conf c = { .pool = mp };

	return octo_port_start(port, &c);
}

static void
cycles(unsigned int rounds)
{
	double *c = calloc((size_t)rounds * NB_SETUPS, sizeof(*c));
	double med[NB_SETUPS];
	unsigned int r, k;
	uint64_t t0, pk;

	if (c == NULL)
		return;
	for (r = 0; r < rounds; r++)
		for (k = 0; k < NB_SETUPS; k++) {
			t0 = rte_rdtsc();
			pk = loops[k](2000);
			c[k * rounds + r] = (double)(rte_rdtsc() - t0) / (double)pk;
		}
	for (k = 0; k < NB_SETUPS; k++) {
		qsort(c + k * rounds, rounds, sizeof(*c), bench_cmp_double);
		med[k] = c[k * rounds + rounds / 2];
		printf("cycles %-14s best %6.2f  median %6.2f  p90 %6.2f cycles/packet\n",
			names[k], c[k * rounds], med[k], c[k * rounds + rounds * 9 / 10]);
	}
	for (k = 1; k < NB_SETUPS; k++)
		printf("overhead %-14s best %+6.2f  median %+6.2f cycles/packet over direct\n",
			names[k], c[k * rounds] - c[0], med[k] - med[0]);
	free(c);
}

int
main(int argc, char **argv)
{
	char **eal = argv;
	int nb = argc;
	unsigned int k, n;
	struct rte_mempool *mp;
	const char *mode;

	if (octo_eal_init_args(&nb, &eal, 512) < 0)
		return 2;
	mode = nb > 1 ? eal[1] : "cycles";
	n = nb > 2 ? (unsigned int)atoi(eal[2]) : 0;
	if (rte_vdev_init("net_null0", NULL) != 0 || rte_vdev_init("net_null1", NULL) != 0 ||
	    rte_vdev_init("net_null2", NULL) != 0 || rte_vdev_init("net_null3", NULL) != 0 ||
	    rte_vdev_init("net_null4", NULL) != 0 || rte_vdev_init("net_null5", NULL) != 0 ||
	    rte_vdev_init("net_null6", NULL) != 0 ||
	    rte_vdev_init("net_octopus0", "member=net_null1,member=net_null2,"
		"socket_of=net_null1:0,socket_of=net_null2:1,rx_pool=app,migration=manual") != 0 ||
	    rte_vdev_init("net_octopus1", "member=net_null3,member=net_null4,"
		"socket_of=net_null3:0,socket_of=net_null4:1,migration=manual") != 0 ||
	    rte_vdev_init("net_failsafe0", "dev(net_null7)") != 0 ||
	    rte_vdev_init("net_bonding0", "mode=1," OCTO_DPDK_BOND_MEMBER_KEY "=net_null5,"
		OCTO_DPDK_BOND_MEMBER_KEY "=net_null6") != 0) {
		fprintf(stderr, "cannot create the ports (net_failsafe and net_bonding are DPDK's)\n");
		return 2;
	}
	rte_eth_dev_get_port_by_name("net_null0", &ports[0]);
	rte_eth_dev_get_port_by_name("net_octopus0", &ports[1]);
	rte_eth_dev_get_port_by_name("net_octopus1", &ports[2]);
	rte_eth_dev_get_port_by_name("net_failsafe0", &ports[3]);
	rte_eth_dev_get_port_by_name("net_bonding0", &ports[4]);
	mp = octo_app_pool("bench", 16384, 0);
	if (mp == NULL)
		return 2;
	for (k = 0; k < NB_SETUPS; k++)
		if (setup(ports[k], mp) != 0) {
			fprintf(stderr, "%s: cannot start port %u\n", names[k], ports[k]);
			return 2;
		}
	if (strcmp(mode, "ir") == 0) {
		/* counted from the first burst: callgrind counts the calls */
		n = n ? n : 20000;
		for (k = 0; k < NB_SETUPS; k++) {
			const char *fn = k == 2 ? "octopus_local" : k == 4 ? "bonding" : names[k];
			uint64_t pk = loops[k](n);

			printf("ir %-14s loop_%s %" PRIu64 " packets\n", names[k], fn, pk);
			printf("ir-op loop_%s %" PRIu64 "\n", fn, pk);
		}
		fflush(stdout);
	} else {
		/* warm every path up once */
		for (k = 0; k < NB_SETUPS; k++)
			loops[k](1000);
		cycles(n ? n : 200);
	}
	for (k = 0; k < NB_SETUPS; k++) {
		rte_eth_dev_stop(ports[k]);
		rte_eth_dev_close(ports[k]);
	}
	octo_test_eal_cleanup();
	return 0;
}
