/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef RTE_PMD_OCTONIC_H
#define RTE_PMD_OCTONIC_H

/**
 * @file
 * net_octonic: a software model of a NIC with one PCIe PF per socket
 * (an IOctopus "octoNIC" / a Socket Direct NIC), one wire, and an rte_flow
 * e-switch between them.
 *
 * This header gives what a hardware NIC would not: fault injection, the
 * built-in traffic generator and sink, the locality counters that prove
 * whether the NIC's DMA stayed on the polling lcore's socket, and the
 * e-switch's rule counters.
 *
 * Ports: "--vdev net_octonicN,pfs=K,..." creates K ethdev ports named
 * "net_octonicN_pf0" ... "net_octonicN_pf<K-1>", one per PF, all sharing
 * one switch domain (rte_eth_dev_info.switch_info.port_id is the PF index).
 * topology=mpesw names them "net_octonicN_p<i>" as mlx5 names the uplinks
 * of its multiport e-switch; topology=separate makes each PF a device and
 * a switch domain of its own (doc/guides/nics/octonic.rst, "Topologies").
 *
 * Devargs: pfs=1..8, numa=n0:n1:... (node of each PF; default PF i on
 * socket i % sockets), mac=shared|per-pf, wire=gen|loop|<ethdev name>,
 * flows=, pkt_len=, proto=udp|tcp|sctp|icmp|icmp6, ipv6=0|1, gen_rate=
 * (pps up to 10^9, 0: as fast as polled), gen_limit= (these six with
 * wire=gen only), nudma_dma=flush|wait (a remote DMA flushes the lines
 * it wrote, the default, or busy-waits), nudma_dma_ns=, nudma_poll_ns=
 * (busy-wait per remote DMA / remote poll; 107 ns, a published PCIe
 * remote-read penalty, is the suggested value; 0 = off, the default;
 * nudma_dma_ns= alone selects nudma_dma=wait), dialect=generic|mlx5-sws|
 * mlx5-hws and xmeta=0..4 (the rules a real NIC would refuse, refused in
 * its terms; doc/guides/nics/octonic.rst, "Dialects"), topology=
 * octonic|mpesw|separate, and the datapath's realism: rx_step=,
 * rx_ring=plain|mlx5, tx_comp_every=, tx_cleanup=0|1, tx_read_ns= (the
 * NIC reads a Tx post within this after its doorbell; mlx5-hws defaults
 * to mlx5's values; octonic.rst "Datapath").
 *
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 */

#include <stdint.h>
#include <stdio.h>

#include <rte_compat.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Where a PF port sits in its NIC. */
struct rte_pmd_octonic_pf_info {
	uint16_t pf;		/**< index of this PF in the NIC */
	uint16_t nb_pfs;	/**< PFs of the NIC */
	/**
	 * NUMA node of this PF (its port's: under
	 * topology=mpesw the owner's, PF0's)
	 */
	int socket_id;
	uint16_t pf_port[8];	/**< port id of each PF (RTE_MAX_ETHPORTS once closed) */
};

/**
 * Which PF of which NIC @p port_id is.
 *
 * @return 0, -ENODEV (not an octonic port), -EINVAL (NULL @p info).
 */
__rte_experimental
int rte_pmd_octonic_pf_info(uint16_t port_id, struct rte_pmd_octonic_pf_info *info);

/** Locality counters of one PF queue (Rx or Tx). */
struct rte_pmd_octonic_locality {
	/**
	 * packets DMA-written into (Rx) or read
	 * from (Tx) mbufs on another socket
	 */
	uint64_t remote_dma_pkts;
	uint64_t remote_dma_bytes; /**< their bytes */
	uint64_t remote_polls;     /**< bursts called by an lcore of another socket */
	uint64_t polls;            /**< all bursts on this queue */
};

/**
 * Locality counters of an Rx or Tx queue of an octonic PF port.
 *
 * @return 0, -ENODEV (not an octonic port), -EINVAL (bad queue).
 */
__rte_experimental
int rte_pmd_octonic_locality_get(uint16_t port_id, uint16_t queue_id, int tx,
		struct rte_pmd_octonic_locality *loc);

/**
 * Unplug PF @p port_id: its link goes down and RTE_ETH_EVENT_INTR_RMV fires
 * (RTE_ETH_EVENT_INTR_LSC too when intr_conf.lsc is set).  Wire packets
 * steered to it are then counted as imissed; what it transmits is dropped
 * (oerrors).
 *
 * @return 0, -ENODEV, -EALREADY (already unplugged).
 */
__rte_experimental
int rte_pmd_octonic_unplug(uint16_t port_id);

/**
 * Plug PF @p port_id back; link comes up again when started.
 *
 * @return 0, -ENODEV, -EALREADY (not unplugged).
 */
__rte_experimental
int rte_pmd_octonic_plug(uint16_t port_id);

/**
 * Make PF @p port_id need a reset, as a device does after a firmware or
 * PF-driver reset: RTE_ETH_EVENT_INTR_RESET fires, then the link goes down
 * (RTE_ETH_EVENT_INTR_LSC too when intr_conf.lsc is set). Until the
 * application calls rte_eth_dev_reset() on it, the PF neither receives (wire
 * packets steered to it are counted as imissed) nor transmits (dropped,
 * oerrors). rte_eth_dev_reset() releases its queues and keeps the
 * e-switch's rules; the application then configures it again, sets up its
 * queues and starts it.
 *
 * @return 0, -ENODEV, -EALREADY (a reset is already pending).
 */
__rte_experimental
int rte_pmd_octonic_reset_raise(uint16_t port_id);

/**
 * Make every Rx burst of PF @p port_id return at most @p max frames, fewer
 * than asked while its ring holds more, as a PMD may (0: no such limit, the
 * default). A caller that takes a short burst for an empty ring then leaves
 * frames behind. It caps what the burst's other rules let through: a
 * request below the step (rx_step=) still returns nothing, one above it
 * at most @p max.
 *
 * @return 0, -ENODEV (not an octonic port).
 */
__rte_experimental
int rte_pmd_octonic_rx_burst_max(uint16_t port_id, uint16_t max);

/**
 * Make the Rx queue count of PF @p port_id (rte_eth_rx_queue_count, and
 * the descriptor status built on it) answer 0 whatever its rings hold
 * (@p on 1), as a PMD with a broken count would; 0 undoes it. With
 * rte_pmd_octonic_rx_burst_max(), a caller that takes a short burst and a
 * count of 0 for an empty ring then leaves frames behind: the negative
 * control of a drain's test.
 *
 * @return 0, -ENODEV (not an octonic port).
 */
__rte_experimental
int rte_pmd_octonic_rx_count_zero(uint16_t port_id, int on);

/** Progress of an Rx stall (rte_pmd_octonic_rx_stall). */
enum rte_pmd_octonic_stall {
	RTE_PMD_OCTONIC_STALL_NONE = 0,	/**< none asked */
	RTE_PMD_OCTONIC_STALL_ARMED,	/**< asked, no Rx burst since */
	RTE_PMD_OCTONIC_STALL_INSIDE,	/**< a burst sleeps inside the PMD */
	RTE_PMD_OCTONIC_STALL_DONE,	/**< that burst went on and returned */
};

/**
 * Make the next Rx burst of PF @p port_id (any queue) sleep @p us
 * microseconds inside the PMD, after its first access to the queue and
 * before it reads the ring: a poller preempted in the middle of a burst,
 * on demand. Whoever frees the queue meanwhile (a removal) must wait for
 * it. @p us 0 disarms a stall not begun.
 *
 * @return 0, -ENODEV (not an octonic port).
 */
__rte_experimental
int rte_pmd_octonic_rx_stall(uint16_t port_id, uint32_t us);

/**
 * @return the progress of PF @p port_id's last Rx stall
 * (enum rte_pmd_octonic_stall), -ENODEV (not an octonic port).
 */
__rte_experimental
int rte_pmd_octonic_rx_stall_state(uint16_t port_id);

/**
 * Make the rte_device of @p port_id fail, as a device-fatal event does
 * (mlx5's): every port of that device goes down at once, and each port
 * configured with intr_conf.rmv gets RTE_ETH_EVENT_INTR_RMV, once until it
 * is plugged back (rte_pmd_octonic_plug). The device is the whole NIC
 * under topology=octonic and mpesw, the one PF under topology=separate.
 *
 * @return 0, -ENODEV, -EALREADY (every port of the device already gone).
 */
__rte_experimental
int rte_pmd_octonic_device_fatal(uint16_t port_id);

/** How the PFs of a NIC appear (devargs topology=). */
enum rte_pmd_octonic_topology {
	RTE_PMD_OCTONIC_TOPOLOGY_OCTONIC,	/**< one device and e-switch */
	RTE_PMD_OCTONIC_TOPOLOGY_MPESW,		/**< mlx5's multiport e-switch */
	RTE_PMD_OCTONIC_TOPOLOGY_SEPARATE,	/**< a device and e-switch per PF */
};

/** The datapath rules a PF follows (octonic.rst "Datapath"). */
struct rte_pmd_octonic_datapath {
	enum rte_pmd_octonic_topology topology;
	uint16_t rx_step;	/**< Rx bursts in steps of this (1: none) */
	uint8_t rx_ring_mlx5;	/**< rx_ring=mlx5: posted buffers, ring end */
	uint8_t tx_cleanup;	/**< rte_eth_tx_done_cleanup is offered */
	uint16_t tx_comp_every;	/**< a Tx completion every this many descriptors */
	uint16_t rx_burst_max;	/**< rte_pmd_octonic_rx_burst_max's cap, 0: none */
	/**
	 * NUMA node of the PF's own PCIe function
	 * (under mpesw its port reports and DMAs
	 * through the owner's)
	 */
	int pci_socket_id;
};

/**
 * The datapath rules of PF @p port_id.
 *
 * @return 0, -ENODEV, -EINVAL (NULL @p dp).
 */
__rte_experimental
int rte_pmd_octonic_datapath_get(uint16_t port_id,
		struct rte_pmd_octonic_datapath *dp);

/** Counters of the wire=gen sink (what the NIC received from the PFs' Tx). */
struct rte_pmd_octonic_sink_stats {
	uint64_t pkts;          /**< packets that reached the wire */
	uint64_t in_order;      /**< with the next expected per-flow sequence */
	uint64_t out_of_order;  /**< sequence lower than one already seen */
	uint64_t duplicates;    /**< sequence seen before */
	uint64_t lost;          /**< gaps in per-flow sequences */
	uint64_t foreign;       /**< not generated by this NIC's generator */
};

/**
 * Sink counters of the NIC that @p port_id (any of its PFs) belongs to.
 *
 * @return 0, -ENODEV, -EINVAL, -ENOTSUP (wire is not gen).
 */
__rte_experimental
int rte_pmd_octonic_sink_stats_get(uint16_t port_id,
		struct rte_pmd_octonic_sink_stats *st);

/** Generator controls (wire=gen). */
struct rte_pmd_octonic_gen_conf {
	uint32_t nb_flows;      /**< distinct flows, round-robin */
	/**
	 * frame length without CRC, at least the
	 * shortest frame of ipv6/l4_proto (64..90)
	 */
	uint16_t pkt_len;
	uint8_t ipv6;           /**< 1: IPv6, 0: IPv4 */
	/**
	 * IPPROTO_UDP, _TCP, _SCTP, _ICMP (IPv4
	 * only) or _ICMPV6 (IPv6 only); ICMP frames
	 * are echo requests, identifier per flow
	 */
	uint8_t l4_proto;
	uint64_t rate_pps;      /**< 0: as fast as polled */
	uint64_t limit;         /**< stop after this many packets, 0: no limit */
};

/** Current generator settings; -ENOTSUP unless wire=gen. */
__rte_experimental
int rte_pmd_octonic_gen_get(uint16_t port_id, struct rte_pmd_octonic_gen_conf *c);
/**
 * Replace the generator (and restart the sink, since flows restart their
 * sequences); resets the generated count.  -EINVAL on a bad @p c.
 */
__rte_experimental
int rte_pmd_octonic_gen_set(uint16_t port_id, const struct rte_pmd_octonic_gen_conf *c);
/**
 * Pause (0) or resume (1) the generator.  A pause returns once no frame is
 * being generated: from then on the generated count no longer grows, and
 * every frame it counts is in a PF's Rx ring or counted missed or dropped.
 */
__rte_experimental
int rte_pmd_octonic_gen_enable(uint16_t port_id, int on);
/** Packets the generator has produced since probe or the last gen_set. */
__rte_experimental
int rte_pmd_octonic_gen_count(uint16_t port_id, uint64_t *generated);

/** Rule counters of the NIC's e-switch. */
struct rte_pmd_octonic_flow_stats {
	uint64_t creates;         /**< successful flow creations */
	uint64_t destroys;        /**< successful flow destructions */
	uint32_t transfer_rules;  /**< rules now in the transfer domain */
	uint32_t ingress_rules;   /**< rules now in this PF's ingress */
	/** A rule change returns once the engine holds no frame classified
	 *  by the rules before it (the NIC's acknowledgment):
	 */
	uint64_t grace_periods;    /**< such waits (and those before frees) */
	uint64_t grace_wait_ns;    /**< time spent in them, in total */
	uint64_t grace_wait_max_ns; /**< the longest one */
	/**
	 * waits that gave the CPU away until the
	 * engine left its read section
	 */
	uint64_t grace_sleeps;
};

/** Rule counters of the e-switch; ingress_rules is @p port_id's PF's. */
__rte_experimental
int rte_pmd_octonic_flow_stats_get(uint16_t port_id,
		struct rte_pmd_octonic_flow_stats *st);

/**
 * Room in the NIC's e-switch for as many rules as @p rules, all domains together
 * (0, the default: as many as memory takes). Creates beyond it fail with
 * ENOSPC and a message saying so, as on a NIC whose tables are full; the
 * rules held stay. Lowering it below the rules held refuses every create.
 */
__rte_experimental
int rte_pmd_octonic_flow_room_set(uint16_t port_id, uint32_t rules);

/**
 * Write every rule of the NIC's e-switch to @p f, one per line:
 * "transfer|ingress pf=N group=G prio=P pattern=... actions=...".
 */
__rte_experimental
int rte_pmd_octonic_flow_dump(uint16_t port_id, FILE *f);

#ifdef __cplusplus
}
#endif

#endif /* RTE_PMD_OCTONIC_H */
