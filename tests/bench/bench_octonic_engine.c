/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Rate of net_octonic's NIC engine: 64 B generated packets, classified by
 * a few rules (transfer -> PF0, ingress -> queue 0) into one Rx queue that
 * one lcore polls; then the same with 100k more ingress rules installed
 * (exact IPv4 sources the traffic never has, so each packet is looked up
 * against them and falls through to the catch-all).  Prints Mpps for both.
 *
 *   bench_octonic_engine --no-huge -m 512 --no-pci -l 0 -- [seconds] [rules]
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_flow.h>
#include <rte_mbuf.h>

#include <rte_pmd_octonic.h>
#include "../common/octo_eal.h"
#include "../common/octo_test_eal.h"
#include "../common/octo_port.h"

static double
measure(uint16_t port, double seconds, uint64_t *missed)
{
	struct rte_mbuf *pkts[32];
	struct rte_eth_stats st;
	uint64_t hz = rte_get_tsc_hz(), start, end, got = 0;
	uint16_t n, i;

	rte_eth_stats_reset(port);
	start = rte_get_tsc_cycles();
	end = start + (uint64_t)(seconds * hz);
	while (rte_get_tsc_cycles() < end) {
		n = rte_eth_rx_burst(port, 0, pkts, 32);
		for (i = 0; i < n; i++)
			rte_pktmbuf_free(pkts[i]);
		got += n;
	}
	rte_eth_stats_get(port, &st);
	*missed = st.imissed + st.rx_nombuf;
	return got / ((double)(rte_get_tsc_cycles() - start) / hz) / 1e6;
}

static int
add_rule(uint16_t port, int transfer, uint32_t src, uint32_t prio)
{
	struct rte_flow_attr attr = { .ingress = !transfer, .transfer = transfer,
		.priority = prio };
	struct rte_flow_item_ipv4 spec = { .hdr.src_addr = rte_cpu_to_be_32(src) };
	struct rte_flow_item_ipv4 mask = { .hdr.src_addr = UINT32_MAX };
	struct rte_flow_item pattern[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4, .spec = src ? &spec : NULL,
		  .mask = src ? &mask : NULL },
		{ .type = RTE_FLOW_ITEM_TYPE_UDP },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_action_ethdev rp = { .port_id = port };
	struct rte_flow_action_queue q = { .index = 0 };
	struct rte_flow_action actions[] = {
		{ .type = transfer ? RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT :
			RTE_FLOW_ACTION_TYPE_QUEUE,
		  .conf = transfer ? (void *)&rp : (void *)&q },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_error err;

	if (rte_flow_create(port, &attr, pattern, actions, &err) == NULL) {
		printf("rule refused: %s\n", err.message ? err.message : "?");
		return -1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct octo_port_conf c = { .nb_desc = 1024, .socket = OCTO_SOCKET_OF_PORT };
	struct rte_mempool *mp;
	double seconds = 2.0, mpps0, mpps1;
	uint64_t missed0, missed1, t0;
	unsigned int nb_rules = 100000, i;
	uint16_t port;

	if (octo_eal_init_args(&argc, &argv, 512) < 0)
		return 1;
	if (argc > 1)
		seconds = atof(argv[1]);
	if (argc > 2)
		nb_rules = atoi(argv[2]);
	if (rte_vdev_init("net_octonic0", "pfs=2,flows=1024,pkt_len=64") != 0 ||
			rte_eth_dev_get_port_by_name("net_octonic0_pf0", &port) != 0)
		return 1;
	mp = octo_app_pool("bench", 8191, rte_eth_dev_socket_id(port));
	c.pool = mp;
	if (mp == NULL || octo_port_start(port, &c) != 0)
		return 1;
	/* a few rules: the transfer rule and the catch-all ingress rule */
	if (add_rule(port, 1, 0, 0) != 0 || add_rule(port, 0, 0, 2) != 0 ||
			add_rule(port, 0, 0xc0a80001, 1) != 0)
		return 1;
	mpps0 = measure(port, seconds, &missed0);
	printf("few rules:    %.2f Mpps into 1 queue (%" PRIu64 " missed)\n",
		mpps0, missed0);

	t0 = rte_get_tsc_cycles();
	for (i = 0; i < nb_rules; i++)
		if (add_rule(port, 0, 0xc0a80000 + 2 + i, 1) != 0)
			return 1;
	printf("installed %u rules in %.2f s\n", nb_rules,
		(double)(rte_get_tsc_cycles() - t0) / rte_get_tsc_hz());
	mpps1 = measure(port, seconds, &missed1);
	printf("%u rules: %.2f Mpps into 1 queue (%" PRIu64 " missed)\n",
		nb_rules, mpps1, missed1);

	rte_eth_dev_stop(port);
	rte_vdev_uninit("net_octonic0");
	rte_mempool_free(mp);
	rte_eal_cleanup();
	return 0;
}
