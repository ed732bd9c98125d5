/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTONIC_DEVARGS_H
#define OCTONIC_DEVARGS_H

/**
 * @file
 * net_octonic's devargs, parsed without EAL (rte_kvargs only) so that a
 * cmocka test covers every good and bad form.
 */

#include <stddef.h>
#include <stdint.h>

/** Most PFs (one per socket) a NIC may have. */
#define OCTONIC_MAX_PFS 8
/** Largest frame the generator may make (and the wire carries). */
#define OCTONIC_MAX_FRAME 9618
/** Length of a wire=<ethdev name> value. */
#define OCTONIC_WIRE_NAME_LEN 64

enum octonic_wire_kind {
	OCTONIC_WIRE_GEN,	/**< built-in generator in, sink out */
	OCTONIC_WIRE_LOOP,	/**< whatever a PF transmits re-enters the NIC */
	OCTONIC_WIRE_ETHDEV,	/**< another ethdev port is the cable */
};

enum octonic_mac_mode {
	OCTONIC_MAC_SHARED,	/**< octoNIC: every PF has the NIC's MAC */
	OCTONIC_MAC_PER_PF,	/**< Socket Direct: one MAC per PF */
};

/**
 * Which NIC's rule vocabulary the e-switch speaks (dialect=).  Generic
 * accepts everything the model implements; the mlx5 dialects refuse what
 * DPDK's mlx5 PMD refuses with software (dv_flow_en=1) or hardware
 * (dv_flow_en=2) steering (octonic.rst "Dialects").
 */
enum octonic_dialect {
	OCTONIC_DIALECT_GENERIC,	/**< dialect=generic (default) */
	OCTONIC_DIALECT_MLX5_SWS,	/**< dialect=mlx5-sws */
	OCTONIC_DIALECT_MLX5_HWS,	/**< dialect=mlx5-hws */
};

/**
 * Which DPDK release's mlx5 PMD the mlx5 dialects follow (mlx5_dpdk=), as
 * year * 100 + month.  Default: that of the DPDK built against (22.11 for
 * anything older than 25.11).
 */
#define OCTONIC_MLX5_DPDK_22_11 2211
#define OCTONIC_MLX5_DPDK_25_11 2511

/** Highest xmeta= value (mlx5's dv_xmeta_en modes 0..4). */
#define OCTONIC_XMETA_MAX 4

/**
 * How the PFs of one NIC appear to DPDK (topology=; octonic.rst "Topologies").
 */
enum octonic_topology {
	/** One rte_device and one e-switch for every PF, each PF DMA-ing on
	 *  its own socket: the IOctopus octoNIC (default).
	 */
	OCTONIC_TOPO_OCTONIC,
	/** mlx5's multiport e-switch: one rte_device (the owner, PF0),
	 *  ports <name>_p<i>, all reporting and DMA-ing through the owner's
	 *  socket; REPRESENTED_PORT to a PF leaves by the wire.
	 */
	OCTONIC_TOPO_MPESW,
	/** Each PF its own rte_device and e-switch; wire frames go to the
	 *  PF whose MAC they carry (a multi-host NIC).
	 */
	OCTONIC_TOPO_SEPARATE,
};

/** How an Rx queue's descriptors are kept (rx_ring=; octonic.rst "Datapath"). */
enum octonic_rx_ring {
	/** The NIC takes an mbuf from the pool per frame; a burst returns
	 *  what the ring holds, up to what was asked (default).
	 */
	OCTONIC_RX_RING_PLAIN,
	/** mlx5's: buffers posted by the driver, the NIC writes only into
	 *  posted ones, bursts stop at the ring end and the posted limit.
	 */
	OCTONIC_RX_RING_MLX5,
};

/**
 * What a DMA into memory of another socket than the PF's costs in the
 * model (nudma_dma=; octonic.rst "Emulation cost and the NUDMA model").
 */
enum octonic_nudma_dma {
	/** The lines it wrote leave the caches: the poller takes the misses
	 *  DDIO would have saved (default, unless nudma_dma_ns= is given).
	 */
	OCTONIC_NUDMA_DMA_FLUSH,
	/** The poller busy-waits nudma_dma_ns= per remote DMA. */
	OCTONIC_NUDMA_DMA_WAIT,
};

/** Largest rx_step= (mlx5's vector Rx works in passes of at most 64). */
#define OCTONIC_RX_STEP_MAX 64
/** Largest tx_comp_every=. */
#define OCTONIC_TX_COMP_EVERY_MAX 1024
/** mlx5's datapath values, the mlx5-hws defaults (mlx5_defs.h:
 *  MLX5_VPMD_DESCS_PER_LOOP, MLX5_TX_COMP_THRESH).
 */
#define OCTONIC_MLX5_RX_STEP 4
#define OCTONIC_MLX5_TX_COMP_EVERY 32
/** Largest tx_read_ns= (100 ms: far above any NIC's doorbell latency). */
#define OCTONIC_TX_READ_NS_MAX 100000000u
/** mlx5-hws default of tx_read_ns=: a ConnectX fetches a WQE within about
 *  a microsecond of its doorbell; twice that.
 */
#define OCTONIC_MLX5_TX_READ_NS 2000u

/** Everything a --vdev net_octonicN,... line can set. */
struct octonic_devargs {
	uint16_t nb_pfs;		/**< pfs=K, 1..8 (default 2) */
	uint8_t numa_given;		/**< numa= was present */
	int16_t numa[OCTONIC_MAX_PFS];	/**< numa=a:b:..., node of each PF */
	enum octonic_mac_mode mac;	/**< mac=shared|per-pf */
	enum octonic_wire_kind wire;	/**< wire=gen|loop|<ethdev name> */
	char wire_name[OCTONIC_WIRE_NAME_LEN]; /**< for OCTONIC_WIRE_ETHDEV */
	uint32_t flows;			/**< flows=N (default 64) */
	/**
	 * pkt_len=64..9618 (default: the
	 * shortest frame of the chosen
	 * IP version and L4, 64 for IPv4/UDP)
	 */
	uint16_t pkt_len;
	uint8_t pkt_len_given;		/**< pkt_len= was present */
	/** proto=udp|tcp|sctp|icmp|icmp6 (IPPROTO_*) */
	uint8_t l4_proto;
	uint8_t ipv6;			/**< ipv6=0|1 */
	uint64_t gen_rate;		/**< gen_rate=pps, 0: as fast as polled */
	uint64_t gen_limit;		/**< gen_limit=N, 0: unlimited */
	/** nudma_dma=flush|wait (default flush; wait when only nudma_dma_ns= is given) */
	enum octonic_nudma_dma nudma_dma;
	uint32_t nudma_dma_ns;		/**< nudma_dma=wait: per remote DMA, 0: off */
	uint32_t nudma_poll_ns;		/**< busy-wait per remote poll, 0: off */
	enum octonic_dialect dialect;	/**< dialect=generic|mlx5-sws|mlx5-hws */
	/**
	 * xmeta=0..4 (mlx5's dv_xmeta_en; default 0, mlx5's default: legacy
	 * metadata); mlx5 dialects only, 4 with mlx5-hws only
	 */
	uint8_t xmeta;
	uint8_t xmeta_given;		/**< xmeta= was present */
	/** mlx5_dpdk=22.11|25.11 (OCTONIC_MLX5_DPDK_*) */
	uint16_t mlx5_dpdk;
	uint8_t mlx5_dpdk_given;	/**< mlx5_dpdk= was present */
	/**
	 * fdb_mark=0|1: the NIC can MARK
	 * in transfer rules (mlx5's
	 * fdb_rx_set_flow_tag_stc capability);
	 * mlx5-hws with mlx5_dpdk=25.11 only
	 */
	uint8_t fdb_mark;
	uint8_t mac_given;		/**< mac= was present */
	enum octonic_topology topology;	/**< topology=octonic|mpesw|separate */
	/* Datapath realism (default off; on under dialect=mlx5-hws) */
	/**
	 * rx_step=1..64: Rx bursts in steps of
	 * N, a request below N returns 0
	 * (1: none; mlx5-hws: 4)
	 */
	uint8_t rx_step;
	enum octonic_rx_ring rx_ring;	/**< rx_ring=plain|mlx5 (mlx5-hws: mlx5) */
	/**
	 * tx_comp_every=1..1024: a Tx completion, and the freeing of the mbufs
	 * it covers, every N descriptors (1: each as the NIC reads it;
	 * mlx5-hws: 32)
	 */
	uint16_t tx_comp_every;
	/** tx_cleanup=0|1: tx_done_cleanup is offered (mlx5-hws: 0) */
	uint8_t tx_cleanup;
	/**
	 * tx_read_ns=0..10^8: the NIC reads a Tx post within this after its
	 * doorbell, posts further apart leave in posting order (0: at once, in
	 * posting order; mlx5-hws: 2000)
	 */
	uint32_t tx_read_ns;
};

/** Fill @p da with the defaults. */
void octonic_devargs_default(struct octonic_devargs *da);

/**
 * Parse a devargs string ("pfs=2,wire=loop"; NULL or "" gives the defaults).
 *
 * @param err
 *   On failure, a one-line message naming the offending key and value.
 * @return
 *   0, or -EINVAL (unknown key, repeated key, malformed or out-of-range value).
 */
int octonic_devargs_parse(const char *args, struct octonic_devargs *da,
		char *err, size_t err_len);

#endif /* OCTONIC_DEVARGS_H */
