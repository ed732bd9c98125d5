/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * octopus_fwd: a small l3fwd-style IPv4 forwarder.
 *
 *   octopus_fwd [EAL options] -- [-p PORTMASK] [-r A.B.C.D/LEN=PORT]...
 *               [-t SECONDS] [-P] [-d DESCRIPTORS] [-x TEXT[,..]] [-n]
 *
 * Every worker lcore (all but the main one) polls one Rx queue on every
 * enabled port (lcore k of n -> queue k), looks the destination address up
 * in an LPM table (one copy per socket), decrements the TTL, rewrites the
 * Ethernet addresses (source: the output port's MAC, destination
 * 02:00:00:00:00:<port>) and sends the packet on its own Tx queue of the
 * output port.  Each queue is set up on its lcore's socket with an mbuf pool
 * of that socket (unless -n): on net_octopus this makes each queue's home the
 * PF of the lcore's socket, so the NIC's DMA stays socket-local.
 *
 *   -p PORTMASK   ports to use (default: every port the app may use)
 *   -r ROUTE      route, repeatable; default 198.18.0.0/15 (RFC 2544
 *                 benchmark range) to the first enabled port
 *   -t SECONDS    stop after SECONDS (default 0: run until SIGINT/SIGTERM)
 *   -P            promiscuous mode on every port
 *   -d N          Rx and Tx descriptors per queue (default 512)
 *   -x TEXT[,..]  on stop, also print the xstats whose names contain one
 *                 of the TEXTs, of every port (a virtual port's members too)
 *   -n            NUMA-unaware, as l3fwd --no-numa: every queue, mbuf pool and
 *                 routing table on socket 0, whatever socket its lcore is on
 *                 (on net_octopus with migration=auto, a queue polled from
 *                 another socket then moves there by itself)
 *
 * On stop it prints one line per (port, queue) with its counters and, for a
 * net_octopus port, each queue's home and locality (rte_pmd_octopus.h), and
 * per forwarding lcore the TSC cycles and CPU time its loop took.
 *
 * Run on the virtual port over the software NIC on 2 (emulated) sockets:
 *
 *   tools/octopus-numa-emu --nodes 2 -- build/examples/octopus_fwd/octopus_fwd \
 *       --no-huge -m 512 --no-pci --lcores '0@0,1@0,2@1,3@0,4@1' \
 *       -d build/drivers/net/octonic/librte_net_octonic.so \
 *       --vdev net_octonic0,pfs=2,numa=0:1,wire=gen \
 *       --vdev net_octopus0,member=net_octonic0_pf0,member=net_octonic0_pf1 \
 *       -- -t 5
 */

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_lpm.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "octopus_fwd.h"

#define OFWD_POOL_CACHE 256

struct ofwd_conf ofwd_conf;
RTE_ATOMIC(bool) ofwd_quit;

static struct ofwd_lcore ofwd_lcores[RTE_MAX_LCORE];
static unsigned int ofwd_nb_lcores;
static struct rte_mempool *ofwd_pools[RTE_MAX_NUMA_NODES];
static struct rte_lpm *ofwd_lpms[RTE_MAX_NUMA_NODES];
static uint64_t ofwd_portmask = UINT64_MAX;
static unsigned int ofwd_seconds;
static bool ofwd_promisc;
static uint16_t ofwd_nb_desc = 512;
static const char *ofwd_xstats_match;
static bool ofwd_numa_unaware;

static void
ofwd_signal(int sig)
{
	RTE_SET_USED(sig);
	rte_atomic_store_explicit(&ofwd_quit, true, rte_memory_order_relaxed);
}

static void
ofwd_usage(const char *prog)
{
	fprintf(stderr, "usage: %s [EAL options] -- [-p PORTMASK] [-r A.B.C.D/LEN=PORT]..."
		" [-t SECONDS] [-P] [-d DESCRIPTORS] [-x TEXT] [-n]\n", prog);
}

static int
ofwd_parse_args(int argc, char **argv)
{
	char *end;
	int opt;

	while ((opt = getopt(argc, argv, "p:r:t:Pd:x:n")) != -1) {
		errno = 0;
		switch (opt) {
		case 'p':
			ofwd_portmask = strtoull(optarg, &end, 16);
			if (errno != 0 || *end != '\0' || ofwd_portmask == 0)
				return -1;
			break;
		case 'r':
			if (ofwd_conf.nb_routes == OFWD_MAX_ROUTES ||
					ofwd_route_parse(optarg,
					&ofwd_conf.routes[ofwd_conf.nb_routes]) != 0) {
				fprintf(stderr, "bad or too many routes: %s\n", optarg);
				return -1;
			}
			ofwd_conf.nb_routes++;
			break;
		case 't':
			ofwd_seconds = strtoul(optarg, &end, 10);
			if (errno != 0 || *end != '\0')
				return -1;
			break;
		case 'P':
			ofwd_promisc = true;
			break;
		case 'd':
			ofwd_nb_desc = strtoul(optarg, &end, 10);
			if (errno != 0 || *end != '\0' || ofwd_nb_desc == 0)
				return -1;
			break;
		case 'x':
			ofwd_xstats_match = optarg;
			break;
		case 'n':
			ofwd_numa_unaware = true;
			break;
		default:
			return -1;
		}
	}
	return optind < argc ? -1 : 0;
}

/* Worker lcores get queues 0..n-1; mbuf pools and LPM copies per socket. */
static void
ofwd_setup_lcores(void)
{
	unsigned int lcore_id, per_socket[RTE_MAX_NUMA_NODES] = { 0 };
	char name[RTE_MEMPOOL_NAMESIZE];
	int s;

	RTE_LCORE_FOREACH_WORKER(lcore_id) {
		struct ofwd_lcore *lc = &ofwd_lcores[ofwd_nb_lcores];

		lc->lcore_id = lcore_id;
		lc->socket = (int)rte_lcore_to_socket_id(lcore_id);
		lc->mem_socket = ofwd_numa_unaware ? 0 : lc->socket;
		lc->queue = (uint16_t)ofwd_nb_lcores++;
		per_socket[lc->mem_socket]++;
	}
	if (ofwd_nb_lcores == 0)
		rte_exit(EXIT_FAILURE, "no worker lcore: give at least 2 lcores\n");
	for (s = 0; s < RTE_MAX_NUMA_NODES; s++) {
		unsigned int n;

		if (per_socket[s] == 0)
			continue;
		/* Rx rings full, Tx rings full, a burst in hand, caches. */
		n = per_socket[s] * (ofwd_conf.nb_ports * (2u * ofwd_nb_desc + OFWD_BURST) +
				OFWD_POOL_CACHE);
		snprintf(name, sizeof(name), "ofwd_pool_s%d", s);
		ofwd_pools[s] = rte_pktmbuf_pool_create(name, RTE_MAX(n, 4096u),
				OFWD_POOL_CACHE, 0, RTE_MBUF_DEFAULT_BUF_SIZE, s);
		if (ofwd_pools[s] == NULL)
			rte_exit(EXIT_FAILURE, "mbuf pool on socket %d: %s\n", s,
				rte_strerror(rte_errno));
		ofwd_lpms[s] = ofwd_lpm_build(s);
		if (ofwd_lpms[s] == NULL)
			rte_exit(EXIT_FAILURE, "LPM table on socket %d: %s\n", s,
				rte_strerror(rte_errno));
	}
}

static void
ofwd_setup_port(uint16_t port)
{
	struct rte_eth_conf conf = { 0 };
	struct rte_eth_dev_info info;
	struct rte_eth_rxconf rxconf;
	struct rte_eth_txconf txconf;
	uint16_t nb_rxd = ofwd_nb_desc, nb_txd = ofwd_nb_desc;
	uint16_t nq = (uint16_t)ofwd_nb_lcores;
	unsigned int i;
	int ret;

	ret = rte_eth_dev_info_get(port, &info);
	if (ret != 0)
		rte_exit(EXIT_FAILURE, "port %u: dev_info: %s\n", port, strerror(-ret));
	if (info.rx_offload_capa & RTE_ETH_RX_OFFLOAD_IPV4_CKSUM)
		conf.rxmode.offloads |= RTE_ETH_RX_OFFLOAD_IPV4_CKSUM;
	if (nq > 1 && info.flow_type_rss_offloads != 0) {
		conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
		conf.rx_adv_conf.rss_conf.rss_hf = info.flow_type_rss_offloads &
			(RTE_ETH_RSS_IP | RTE_ETH_RSS_UDP | RTE_ETH_RSS_TCP);
	}
	ret = rte_eth_dev_configure(port, nq, nq, &conf);
	if (ret == 0)
		ret = rte_eth_dev_adjust_nb_rx_tx_desc(port, &nb_rxd, &nb_txd);
	if (ret != 0)
		rte_exit(EXIT_FAILURE, "port %u: configure %u queues: %s\n", port, nq,
			strerror(-ret));
	ret = rte_eth_macaddr_get(port, &ofwd_conf.src_mac[port]);
	if (ret != 0)
		rte_exit(EXIT_FAILURE, "port %u: MAC: %s\n", port, strerror(-ret));
	ofwd_conf.dst_mac[port] = (struct rte_ether_addr){
		{ 0x02, 0, 0, 0, 0, (uint8_t)port } };

	rxconf = info.default_rxconf;
	rxconf.offloads = conf.rxmode.offloads;
	txconf = info.default_txconf;
	for (i = 0; i < ofwd_nb_lcores; i++) {
		struct ofwd_lcore *lc = &ofwd_lcores[i];

		ret = rte_eth_rx_queue_setup(port, lc->queue, nb_rxd, lc->mem_socket,
				&rxconf, ofwd_pools[lc->mem_socket]);
		if (ret == 0)
			ret = rte_eth_tx_queue_setup(port, lc->queue, nb_txd,
					lc->mem_socket, &txconf);
		if (ret != 0)
			rte_exit(EXIT_FAILURE, "port %u queue %u: setup: %s\n", port,
				lc->queue, strerror(-ret));
		lc->txb[port] = rte_zmalloc_socket("ofwd_txb",
				RTE_ETH_TX_BUFFER_SIZE(OFWD_BURST), 0, lc->mem_socket);
		if (lc->txb[port] == NULL)
			rte_exit(EXIT_FAILURE, "Tx buffer: out of memory\n");
		rte_eth_tx_buffer_init(lc->txb[port], OFWD_BURST);
		rte_eth_tx_buffer_set_err_callback(lc->txb[port],
				rte_eth_tx_buffer_count_callback, &lc->st[port].tx_drop);
		lc->lpm = ofwd_lpms[lc->mem_socket];
	}
	ret = rte_eth_dev_start(port);
	if (ret != 0)
		rte_exit(EXIT_FAILURE, "port %u: start: %s\n", port, strerror(-ret));
	if (ofwd_promisc) {
		ret = rte_eth_promiscuous_enable(port);
		if (ret != 0 && ret != -ENOTSUP)
			rte_exit(EXIT_FAILURE, "port %u: promiscuous: %s\n", port,
				strerror(-ret));
	}
	printf("port %u: %u queues, %u/%u descriptors\n", port, nq, nb_rxd, nb_txd);
	ofwd_report_members(port);
}

int
main(int argc, char **argv)
{
	uint64_t deadline;
	unsigned int i;
	uint16_t port;
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0)
		rte_exit(EXIT_FAILURE, "EAL init failed\n");
	argc -= ret;
	argv += ret;
	if (ofwd_parse_args(argc, argv) != 0) {
		ofwd_usage(argv[0]);
		rte_exit(EXIT_FAILURE, "bad arguments\n");
	}
	signal(SIGINT, ofwd_signal);
	signal(SIGTERM, ofwd_signal);

	RTE_ETH_FOREACH_DEV(port) {
		if (port >= OFWD_MAX_PORTS || (ofwd_portmask & (1ULL << port)) == 0)
			continue;
		ofwd_conf.ports[ofwd_conf.nb_ports++] = port;
	}
	if (ofwd_conf.nb_ports == 0)
		rte_exit(EXIT_FAILURE, "no port to use\n");
	if (ofwd_conf.nb_routes == 0) {
		/* 198u: RTE_IPV4 shifts its first byte as an int, and
		 * 198 << 24 does not fit one
		 */
		ofwd_conf.routes[0] = (struct ofwd_route){
			.ip = RTE_IPV4(198u, 18, 0, 0), .depth = 15,
			.port = ofwd_conf.ports[0] };
		ofwd_conf.nb_routes = 1;
	}
	ofwd_setup_lcores();
	for (i = 0; i < ofwd_conf.nb_ports; i++)
		ofwd_setup_port(ofwd_conf.ports[i]);

	for (i = 0; i < ofwd_nb_lcores; i++)
		rte_eal_remote_launch(ofwd_lcore_main, &ofwd_lcores[i],
				ofwd_lcores[i].lcore_id);
	printf("forwarding on %u lcores%s\n", ofwd_nb_lcores,
		ofwd_seconds ? "" : " until SIGINT/SIGTERM");
	fflush(stdout);

	/* The main lcore only waits: for the signal, or for the deadline.
	 * It sleeps (rte_delay_ms busy-waits): it may share a CPU with a
	 * forwarding lcore.
	 */
	deadline = rte_get_timer_cycles() + (uint64_t)ofwd_seconds * rte_get_timer_hz();
	while (!rte_atomic_load_explicit(&ofwd_quit, rte_memory_order_relaxed)) {
		if (ofwd_seconds != 0 && rte_get_timer_cycles() >= deadline)
			rte_atomic_store_explicit(&ofwd_quit, true, rte_memory_order_relaxed);
		rte_delay_us_sleep(50 * 1000);
	}
	rte_eal_mp_wait_lcore();
	printf("stopping\n");

	ofwd_report_queues(ofwd_lcores, ofwd_nb_lcores);
	ofwd_report_lcores(ofwd_lcores, ofwd_nb_lcores);
	if (ofwd_xstats_match != NULL)
		ofwd_report_xstats(ofwd_xstats_match);
	for (i = 0; i < ofwd_conf.nb_ports; i++) {
		port = ofwd_conf.ports[i];
		ofwd_report_locality(port, (uint16_t)ofwd_nb_lcores);
		ret = rte_eth_dev_stop(port);
		if (ret == 0)
			ret = rte_eth_dev_close(port);
		if (ret != 0)
			printf("port %u: stop/close: %s\n", port, strerror(-ret));
	}
	for (i = 0; i < ofwd_nb_lcores; i++)
		for (port = 0; port < OFWD_MAX_PORTS; port++)
			rte_free(ofwd_lcores[i].txb[port]);
	for (i = 0; i < RTE_MAX_NUMA_NODES; i++) {
		rte_lpm_free(ofwd_lpms[i]);
		rte_mempool_free(ofwd_pools[i]);
	}
	rte_eal_cleanup();
	printf("bye\n");
	return 0;
}
