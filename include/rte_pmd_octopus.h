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
	int poller_lcore;	/**< first lcore that polled the queue, -1 if none,
				 *  RTE_MAX_LCORE for a non-EAL thread */
	int poller_socket;	/**< that lcore's socket, -1 if none */
	uint8_t steered;	/**< 1: NIC steering sends the queue's traffic to the
				 *  home only; 0: no steering, every member is polled */
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

#ifdef __cplusplus
}
#endif

#endif /* RTE_PMD_OCTOPUS_H */
