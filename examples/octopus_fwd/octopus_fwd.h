/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTOPUS_FWD_H
#define OCTOPUS_FWD_H

/*
 * octopus_fwd: an l3fwd-style IPv4 forwarder, shared declarations.
 * See main.c for what the application does and how to run it.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_lcore.h>
#include <rte_lpm.h>
#include <octopus_dpdk_compat.h>

#define OFWD_BURST 32
#define OFWD_MAX_ROUTES 64
#define OFWD_MAX_PORTS 32

/* One route: IPv4 prefix (host order) to an output port. */
struct ofwd_route {
	uint32_t ip;
	uint8_t depth;
	uint16_t port;
};

/* Counters of one (port, queue) pair, written by its lcore only. */
struct ofwd_queue_stats {
	uint64_t rx;		/* packets received on this Rx queue */
	uint64_t tx;		/* packets sent on this Tx queue (any input port) */
	uint64_t no_route;	/* dropped: no LPM match */
	uint64_t ttl;		/* dropped: TTL would reach 0 */
	uint64_t bad;		/* dropped: not IPv4, or IP checksum bad */
	uint64_t tx_drop;	/* dropped: the Tx queue was full */
};

/* What a forwarding lcore owns: queue @queue of every enabled port. */
struct __rte_cache_aligned ofwd_lcore {
	unsigned int lcore_id;
	int socket;
	int mem_socket;	/* where its queues, mbufs and table are: socket, or 0 (-n) */
	uint16_t queue;
	struct rte_lpm *lpm;	/* the routing table copy on this lcore's socket */
	struct rte_eth_dev_tx_buffer *txb[OFWD_MAX_PORTS];
	struct ofwd_queue_stats st[OFWD_MAX_PORTS];
	/* what the loop cost, from its start to the stop: TSC cycles of
	 * wall time, and CPU time the thread really had (it may share a CPU)
	 */
	uint64_t loop_cycles;
	uint64_t cpu_ns;
};

/* Application-wide configuration, set before the lcores start. */
struct ofwd_conf {
	uint16_t ports[OFWD_MAX_PORTS];	/* enabled ports */
	uint16_t nb_ports;
	struct rte_ether_addr src_mac[OFWD_MAX_PORTS];	/* by port id */
	struct rte_ether_addr dst_mac[OFWD_MAX_PORTS];	/* next hop, by port id */
	struct ofwd_route routes[OFWD_MAX_ROUTES];
	unsigned int nb_routes;
};

extern struct ofwd_conf ofwd_conf;
extern RTE_ATOMIC(bool) ofwd_quit;

/* routes.c */
int ofwd_route_parse(const char *arg, struct ofwd_route *r);
struct rte_lpm *ofwd_lpm_build(int socket);

/* fwd.c: the burst loop of one lcore (rte_eal_remote_launch entry). */
int ofwd_lcore_main(void *arg);

/* report.c */
void ofwd_report_queues(const struct ofwd_lcore *lc, unsigned int nb_lc);
void ofwd_report_lcores(const struct ofwd_lcore *lc, unsigned int nb_lc);
void ofwd_report_xstats(const char *match);
void ofwd_report_members(uint16_t port);
void ofwd_report_locality(uint16_t port, uint16_t nb_queues);

#endif /* OCTOPUS_FWD_H */
