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
 * Which NIC's rule vocabulary the e-switch speaks (dialect=). Generic accepts everything the model
 * implements; the mlx5 dialects refuse what DPDK's mlx5 PMD refuses with software (dv_flow_en=1) or
 * hardware (dv_flow_en=2) steering (octonic.rst "Dialects").
 */
enum octonic_dialect {
	OCTONIC_DIALECT_GENERIC,	/**< dialect=generic (default) */
	OCTONIC_DIALECT_MLX5_SWS,	/**< dialect=mlx5-sws */
	OCTONIC_DIALECT_MLX5_HWS,	/**< dialect=mlx5-hws */
};

/**
 * Which DPDK release's mlx5 PMD the mlx5 dialects follow (mlx5_dpdk=), as year * 100 + month.
 * Default: that of the DPDK built against (22.11 for anything older than 25.11).
 */
#define OCTONIC_MLX5_DPDK_22_11 2211
#define OCTONIC_MLX5_DPDK_25_11 2511

/** Highest xmeta= value (mlx5's dv_xmeta_en modes 0..4). */
#define OCTONIC_XMETA_MAX 4

/** How the PFs of one NIC appear to DPDK (topology=; octonic.rst "Topologies"). */
enum octonic_topology {
	OCTONIC_TOPO_OCTONIC,	/**< one device and e-switch, each PF on its node (default) */
	OCTONIC_TOPO_MPESW,	/**< mlx5's multiport e-switch: every port through PF0 */
	OCTONIC_TOPO_SEPARATE,	/**< each PF a device with its own e-switch */
};

/** How an Rx queue's descriptors are kept (rx_ring=; octonic.rst "Datapath"). */
enum octonic_rx_ring {
	OCTONIC_RX_RING_PLAIN,	/**< an mbuf taken from the pool per frame (default) */
	OCTONIC_RX_RING_MLX5,	/**< mlx5's: the NIC writes only into posted buffers */
};

/** A DMA into another socket's memory (nudma_dma=; octonic.rst "Emulation cost ..."). */
enum octonic_nudma_dma {
	OCTONIC_NUDMA_DMA_FLUSH,	/**< its lines leave the caches (default) */
	OCTONIC_NUDMA_DMA_WAIT,		/**< the poller busy-waits nudma_dma_ns= */
};

/** Frames due while no lcore ran the engine (gen_pause=; octonic.rst "Devargs"). */
enum octonic_gen_pause {
	OCTONIC_GEN_PAUSE_SKIP,		/**< the generator paused with the host (default) */
	OCTONIC_GEN_PAUSE_OWE,		/**< made up, up to the Rx rings' room */
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

/**
 * Everything a --vdev net_octonicN,... line can set: each field is the key of its name, with the
 * range and default doc/guides/nics/octonic.rst "Runtime configuration" gives; *_given: the key
 * was present.
 */
struct octonic_devargs {
	uint16_t nb_pfs;		/**< pfs= */
	uint8_t numa_given;
	int16_t numa[OCTONIC_MAX_PFS];	/**< node of each PF */
	enum octonic_mac_mode mac;
	enum octonic_wire_kind wire;
	char wire_name[OCTONIC_WIRE_NAME_LEN]; /**< for OCTONIC_WIRE_ETHDEV */
	uint32_t flows;
	uint16_t pkt_len;
	uint8_t pkt_len_given;
	uint8_t l4_proto;		/**< proto=, as IPPROTO_* */
	uint8_t ipv6;
	uint64_t gen_rate;
	uint64_t gen_limit;
	enum octonic_gen_pause gen_pause;
	enum octonic_nudma_dma nudma_dma;
	uint32_t nudma_dma_ns;
	uint32_t nudma_poll_ns;
	enum octonic_dialect dialect;
	uint8_t xmeta;
	uint8_t xmeta_given;
	uint16_t mlx5_dpdk;		/**< OCTONIC_MLX5_DPDK_* */
	uint8_t mlx5_dpdk_given;
	uint8_t fdb_mark;
	uint8_t mac_given;
	enum octonic_topology topology;
	/* the datapath's realism: off by default, on under dialect=mlx5-hws */
	uint8_t rx_step;
	enum octonic_rx_ring rx_ring;
	uint16_t tx_comp_every;
	uint8_t tx_cleanup;
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
