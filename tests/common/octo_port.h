/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTO_PORT_H
#define OCTO_PORT_H

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>

/* The port id of ethdev @p name; RTE_MAX_ETHPORTS when there is none. */
static inline uint16_t
port_of(const char *name)
{
	uint16_t p = RTE_MAX_ETHPORTS;

	rte_eth_dev_get_port_by_name(name, &p);
	return p;
}

/* The MAC address of @p port (zero if it has none). */
static inline struct rte_ether_addr
octo_mac(uint16_t port)
{
	struct rte_ether_addr a = { { 0 } };

	rte_eth_macaddr_get(port, &a);
	return a;
}

/* Extended statistic @p name of @p port; UINT64_MAX when it has none. */
static inline uint64_t
octo_xstat(uint16_t port, const char *name)
{
	uint64_t id, v = UINT64_MAX;

	if (rte_eth_xstats_get_id_by_name(port, name, &id) != 0 ||
	    rte_eth_xstats_get_by_id(port, &id, &v, 1) != 1)
		return UINT64_MAX;
	return v;
}

/*
 * Wait until extended statistic @p name of @p port is @p want, @p ms at
 * most: for a state the port reaches on its own (a control thread, an
 * event) that the next step of a test depends on. Whether it got there.
 */
static inline bool
octo_xstat_wait(uint16_t port, const char *name, uint64_t want, unsigned int ms)
{
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz() / 1000 * ms;

	while (octo_xstat(port, name) != want) {
		if (rte_get_timer_cycles() > end)
			return false;
		rte_delay_us_sleep(100);
	}
	return true;
}

/* Queue socket choices of struct octo_port_conf, besides a socket id and
 * SOCKET_ID_ANY. */
#define OCTO_SOCKET_OF_PORT	(-2)	/* the port's socket */
#define OCTO_SOCKET_OF_LCORE	(-3)	/* queue q: the socket of lcore q, its poller */
#define OCTO_SOCKET_ALTERNATE	(-4)	/* queue q: socket q & 1 */
#define OCTO_SOCKET_SPREAD	(-5)	/* queue q: socket q mod the sockets */

/* the most a test asks: 64 queues, 8 per socket at 8 PFs (bench_scale8) */
#define OCTO_PORT_MAXQ 64

/*
 * What differs between the tests' port bring-ups. Zeroed fields ask for
 * the plain port: one queue each way, 512 descriptors, no RSS, queues on
 * socket 0.
 */
struct octo_port_conf {
	uint16_t nb_rxq, nb_txq;	/* 0: 1 */
	uint16_t nb_desc;		/* 0: 512 */
	int socket;			/* of the queues: an id or OCTO_SOCKET_* */
	int rss;			/* RSS mode (RETA updates need it) ... */
	uint64_t rss_hf;		/* ... with these types; non-zero implies it */
	struct rte_mempool *pool;	/* Rx pool of the queues ... */
	struct rte_mempool *rx_pool[OCTO_PORT_MAXQ];	/* ... but where set here */
	uint8_t deferred_rxq[OCTO_PORT_MAXQ];	/* Rx queue left stopped at start */
	uint64_t rx_offloads, tx_offloads;
	int lsc;			/* link state change interrupts */
};

static inline int
octo_port_queue_socket(uint16_t port, uint16_t q, int socket)
{
	switch (socket) {
	case OCTO_SOCKET_OF_PORT:
		return rte_eth_dev_socket_id(port);
	case OCTO_SOCKET_OF_LCORE:
		return (int)rte_lcore_to_socket_id(q);
	case OCTO_SOCKET_ALTERNATE:
		return q & 1;
	case OCTO_SOCKET_SPREAD:
		return rte_socket_id_by_idx(q % rte_socket_count());
	default:
		return socket;
	}
}

/*
 * Configure @p port as @p c says and set its queues up, leaving it
 * stopped. Returns 0, or the first failing call's error.
 */
static inline int
octo_port_setup(uint16_t port, const struct octo_port_conf *c)
{
	uint16_t nb_rxq = c->nb_rxq != 0 ? c->nb_rxq : 1;
	uint16_t nb_txq = c->nb_txq != 0 ? c->nb_txq : 1;
	uint16_t nb_desc = c->nb_desc != 0 ? c->nb_desc : 512;
	struct rte_eth_dev_info info;
	struct rte_eth_rxconf rxc;
	struct rte_eth_conf conf;
	struct rte_mempool *mp;
	uint16_t q;
	int ret;

	if (nb_rxq > OCTO_PORT_MAXQ || nb_txq > OCTO_PORT_MAXQ)
		return -EINVAL;
	memset(&conf, 0, sizeof(conf));
	if (c->rss || c->rss_hf != 0) {
		conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
		conf.rx_adv_conf.rss_conf.rss_hf = c->rss_hf;
	}
	conf.rxmode.offloads = c->rx_offloads;
	conf.txmode.offloads = c->tx_offloads;
	conf.intr_conf.lsc = c->lsc;
	ret = rte_eth_dev_configure(port, nb_rxq, nb_txq, &conf);
	if (ret != 0)
		return ret;
	ret = rte_eth_dev_info_get(port, &info);
	if (ret != 0)
		return ret;
	for (q = 0; q < nb_rxq; q++) {
		/* what ethdev takes for no rxconf, and what differs */
		rxc = info.default_rxconf;
		rxc.rx_deferred_start = c->deferred_rxq[q];
		rxc.offloads = c->rx_offloads;
		mp = c->rx_pool[q] != NULL ? c->rx_pool[q] : c->pool;
		ret = rte_eth_rx_queue_setup(port, q, nb_desc,
			octo_port_queue_socket(port, q, c->socket),
			&rxc, mp);
		if (ret != 0)
			return ret;
	}
	for (q = 0; q < nb_txq; q++) {
		ret = rte_eth_tx_queue_setup(port, q, nb_desc,
			octo_port_queue_socket(port, q, c->socket), NULL);
		if (ret != 0)
			return ret;
	}
	return 0;
}

/*
 * Configure @p port as @p c says, set its queues up and start it: the one
 * bring-up of the C tests. Returns 0, or the first failing call's error.
 */
static inline int
octo_port_start(uint16_t port, const struct octo_port_conf *c)
{
	int ret = octo_port_setup(port, c);

	return ret != 0 ? ret : rte_eth_dev_start(port);
}

#endif /* OCTO_PORT_H */
