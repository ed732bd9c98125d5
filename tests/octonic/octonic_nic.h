/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTONIC_NIC_H
#define OCTONIC_NIC_H

/*
 * A two-PF net_octonic NIC with both ports started, NB_RXQ Rx queues each
 * (RSS over IP and UDP), for the EAL tests of one test program: the
 * program creates pool before the first nic_open().
 */

#include <stdio.h>

#include <rte_bus_vdev.h>
#include <rte_ethdev.h>
#include <rte_mempool.h>

#include <rte_mbuf.h>

#include "../common/octo_cases.h"
#include "../common/octo_check.h"
#include "../common/octo_eal.h"
#include "../common/octo_port.h"
#include "../common/octo_test_eal.h"

#define NB_RXQ 4

static struct rte_mempool *pool;

struct nic {
	const char *name;
	uint16_t port[2];	/* PF0 (the transfer proxy), PF1 */
};

static int
nic_open(struct nic *n, const char *name, const char *args)
{
	struct octo_port_conf c = {
		.nb_rxq = NB_RXQ, .nb_txq = 1, .nb_desc = 1024,
		.socket = OCTO_SOCKET_OF_PORT, .pool = pool,
		.rss_hf = RTE_ETH_RSS_IP | RTE_ETH_RSS_UDP,
	};
	char pf[RTE_ETH_NAME_MAX_LEN];
	unsigned int i;

	n->name = name;
	if (rte_vdev_init(name, args) != 0)
		return -1;
	for (i = 0; i < 2; i++) {
		snprintf(pf, sizeof(pf), "%s_pf%u", name, i);
		if (rte_eth_dev_get_port_by_name(pf, &n->port[i]) != 0)
			return -1;
		if (octo_port_start(n->port[i], &c) != 0)
			return -1;
	}
	return 0;
}

/* main() of such a program: EAL, pool, the cases named on the command
 * line, the verdict. */
static int
nic_test_main(int argc, char **argv, const struct octo_case *cases,
		unsigned int nb_cases)
{
	if (octo_eal_init_args(&argc, &argv, 512) < 0)
		return 1;
	/* mlx5-hws posts every Rx descriptor when a queue starts, as mlx5
	 * does (rx_ring=mlx5): 2 PFs x NB_RXQ x 1024, and room for traffic */
	pool = octo_app_pool("nic_test_pool", 16383, SOCKET_ID_ANY);
	if (pool == NULL) {
		printf("cannot create the pool\n");
		return 1;
	}
	if (octo_cases_run(cases, nb_cases, argv + 1, argc - 1, argv[0], NULL) < 0)
		return 1;
	/* a port a failed case left holds buffers of it until EAL removes
	 * the port */
	if (rte_eth_dev_count_total() == 0)
		rte_mempool_free(pool);
	rte_eal_cleanup();
	return octo_check_verdict(argv[0]);
}

/* The main() of such a program over its table of cases @p cases. */
#define NIC_TEST_MAIN(cases) \
int \
main(int argc, char **argv) \
{ \
	return nic_test_main(argc, argv, cases, RTE_DIM(cases)); \
}

#endif /* OCTONIC_NIC_H */
