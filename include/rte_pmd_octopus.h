/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef RTE_PMD_OCTOPUS_H
#define RTE_PMD_OCTOPUS_H

/**
 * @file
 * net_octopus: one DPDK port over the per-socket PFs of a NIC.
 *
 * Every virtual queue q of the port has hardware queue q on every member
 * (PF); its home is the member on the socket of the lcore that polls it.
 * This API tells which members a port has, where each queue lives, and how
 * much of its traffic went through a socket-local member.
 *
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 */

#include <stdint.h>

#include <rte_compat.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Most members a port can have. */
#define RTE_PMD_OCTOPUS_MAX_MEMBERS 8

/** One member of a virtual port. */
struct rte_pmd_octopus_member {
	uint16_t port_id;	/**< the member's ethdev port */
	int socket;		/**< NUMA node of the member (PF) */
};

/** Where a virtual queue lives. */
struct rte_pmd_octopus_queue_info {
	uint16_t home_member;	/**< index of the home member in the member list */
	uint16_t home_port;	/**< ethdev port of the home member */
	int home_socket;	/**< socket of the home member */
	/**
	 * lcore that polls the queue (of the latest
	 * burst), -1 if none yet,
	 * RTE_MAX_LCORE for a non-EAL thread
	 */
	int poller_lcore;
	int poller_socket;	/**< that lcore's socket, -1 if none */
	/**
	 * 1: NIC steering sends the queue's traffic to the
	 * home only; 0: no steering, every member is polled
	 */
	uint8_t steered;
	uint8_t has_home;	/**< 0: bound by the first poll (none yet) */
};

/** Locality counters of a virtual queue. */
struct rte_pmd_octopus_locality {
	uint64_t local_pkts;	/**< through the member on the polling lcore's socket */
	uint64_t remote_pkts;	/**< through a member on another socket */
	uint64_t polls;		/**< bursts */
	uint64_t foreign_polls;	/**< bursts from an lcore not on the home's socket */
	uint64_t member_pkts[RTE_PMD_OCTOPUS_MAX_MEMBERS]; /**< per member index */
};

/**
 * Whether @p port_id is a net_octopus port.
 *
 * @return 1 if it is, 0 if not.
 */
__rte_experimental
int rte_pmd_octopus_is_octopus(uint16_t port_id);

/**
 * Members of an octopus port, in devargs order.
 *
 * @param port_id  the octopus port
 * @param members  filled with up to @p size entries; may be NULL
 * @param size     capacity of @p members
 * @return number of resolved members (may exceed @p size), -ENODEV when
 *         @p port_id is not an octopus port.
 */
__rte_experimental
int rte_pmd_octopus_members_get(uint16_t port_id,
		struct rte_pmd_octopus_member *members, uint16_t size);

/**
 * Home and poller of a virtual queue.
 *
 * @param tx  0 for an Rx queue, 1 for a Tx queue
 * @return 0, -ENODEV (not an octopus port), -EINVAL (queue not set up).
 */
__rte_experimental
int rte_pmd_octopus_queue_info_get(uint16_t port_id, uint16_t queue_id, int tx,
		struct rte_pmd_octopus_queue_info *info);

/**
 * Locality counters of a virtual queue (also in xstats as
 * rx_q<N>_local_packets, ...).
 *
 * @param tx  0 for an Rx queue, 1 for a Tx queue
 * @return 0, -ENODEV (not an octopus port), -EINVAL (queue not set up).
 */
__rte_experimental
int rte_pmd_octopus_locality_get(uint16_t port_id, uint16_t queue_id, int tx,
		struct rte_pmd_octopus_locality *loc);

/** Buckets of the migration latency histogram (log2 of microseconds). */
#define RTE_PMD_OCTOPUS_MIG_HIST 20

/** Migration phase of a virtual queue. */
enum rte_pmd_octopus_mig_phase {
	RTE_PMD_OCTOPUS_MIG_STEADY = 0,	/**< served by its home member */
	RTE_PMD_OCTOPUS_MIG_REQUESTED,	/**< a move is asked for, not begun */
	/**
	 * switched; the old member is drained (Rx)
	 * or its Tx descriptors complete
	 */
	RTE_PMD_OCTOPUS_MIG_DRAINING,
};

/** Migration state and counters of a virtual queue. */
struct rte_pmd_octopus_migration {
	enum rte_pmd_octopus_mig_phase phase;
	uint16_t home_member;	/**< current home (the target once switched) */
	int home_socket;	/**< its socket, -1 if no home yet */
	uint16_t old_member;	/**< DRAINING: the member drained; else the home */
	uint64_t migrations;	/**< completed moves (request to steady) */
	uint64_t failures;	/**< moves refused by the NIC (rule change failed) */
	uint64_t last_latency_ns;	/**< request to steady, last move */
	uint64_t max_latency_ns;	/**< request to steady, longest move */
	uint64_t drained_pkts;	/**< Rx: packets read from an old member while draining */
	uint64_t gates;		/**< flow gates put on this queue (flow moved to it) */
	uint64_t gated_bursts;	/**< bursts that delivered nothing behind a gate */
	/**
	 * gates given up on after 50 ms (source not polled, or
	 * this queue's poller not back while a gate closed):
	 * order is not guaranteed across them
	 */
	uint64_t gate_timeouts;
	/** moves by latency: [0] < 1 us, [k] in [2^(k-1), 2^k) us, last: longer */
	uint64_t latency_hist[RTE_PMD_OCTOPUS_MIG_HIST];
	/**
	 * last move: request to the switch (rule
	 * changed; the rest is the drain)
	 */
	uint64_t last_switch_ns;
	/**
	 * Rx: drains acked because what the
	 * poller's lcore sent before them was
	 * posted over the Tx settle bound ago
	 * (its descriptors not reported done:
	 * no completion due yet)
	 */
	uint64_t tx_settle_bound_acks;
	/**
	 * Tx: moves ended because the
	 * queue's first burst after the switch
	 * was the Tx settle bound ago (the old
	 * member's descriptors not reported
	 * done); nothing was posted to the
	 * old member since
	 */
	uint64_t tx_settle_bound_moves;
};

/**
 * Move virtual queue @p queue_id (its Rx and its Tx queue, those set up;
 * not a Tx queue pinned by rte_eth_dev_map_aggr_tx_affinity()) to
 * the member on @p socket. Returns at once: a control thread changes the
 * queue's home rule; the datapath drains the old member (Rx) or waits for
 * its Tx completions or the Tx settle bound (200 us, counted in
 * tx_settle_bound_moves), then uses the new one. Watch the progress with
 * rte_pmd_octopus_migration_get().
 *
 * @return 0 requested (for at least one direction); -EALREADY the queue's
 *   home is on @p socket; -EBUSY a move of the queue is in progress;
 *   -EINVAL no member on @p socket or queue not set up; -EIO port stopped;
 *   -ENODEV not an octopus port.
 */
__rte_experimental
int rte_pmd_octopus_queue_migrate(uint16_t port_id, uint16_t queue_id, int socket);

/**
 * Move virtual queue @p queue_id to the socket of @p lcore_id, ahead of that
 * lcore polling it (same as rte_pmd_octopus_queue_migrate() with
 * rte_lcore_to_socket_id(lcore_id)).
 *
 * @return as rte_pmd_octopus_queue_migrate(); -EINVAL for a bad lcore.
 */
__rte_experimental
int rte_pmd_octopus_queue_migrate_lcore(uint16_t port_id, uint16_t queue_id,
		unsigned int lcore_id);

/**
 * Migration state and counters of a virtual queue.
 *
 * @param tx  0 for the Rx queue, 1 for the Tx queue
 * @return 0, -ENODEV, -EINVAL (queue not set up or NULL @p st).
 */
__rte_experimental
int rte_pmd_octopus_migration_get(uint16_t port_id, uint16_t queue_id, int tx,
		struct rte_pmd_octopus_migration *st);

/**
 * Migration policy of the port (devarg migration=auto|manual, default
 * auto): with auto a queue polled from an lcore on another socket than its
 * home's moves to that socket by itself; with manual only the API moves it.
 *
 * @return 0, -ENODEV.
 */
__rte_experimental
int rte_pmd_octopus_migration_auto_set(uint16_t port_id, int on);

/** 1 when the port migrates queues by itself, 0 if not, -ENODEV. */
__rte_experimental
int rte_pmd_octopus_migration_auto_get(uint16_t port_id);

#ifdef __cplusplus
}
#endif

#endif /* RTE_PMD_OCTOPUS_H */
