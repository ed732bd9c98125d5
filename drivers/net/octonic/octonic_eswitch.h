/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTONIC_ESWITCH_H
#define OCTONIC_ESWITCH_H

/**
 * @file
 * The NIC model's e-switch: the contract between the ethdev glue
 * (octonic_ethdev.c, octonic_rxtx.c: ports, queues, the DMA engine) and the
 * flow engine (octonic_eswitch.c, octonic_flow.c: rte_flow rules, the
 * classifier, RSS).
 *
 * One e-switch per NIC.  It holds the transfer-domain rules (wire -> PF) and
 * each PF's ingress rules (PF -> Rx queue), plus each PF's RSS state (key,
 * hash types, RETA) used when no ingress rule matches.
 *
 * Concurrency: octonic_eswitch_classify() may run on any lcore (whichever
 * lcore runs the NIC engine) while the control path creates and destroys
 * rules.  Rule memory is reclaimed through rte_rcu_qsbr: the engine brackets
 * each classification batch with octonic_eswitch_reader_enter()/_leave(), so
 * every packet is classified entirely by the rule set before or after a
 * change, never by a half-made one.
 */

#include <stdint.h>

#include <rte_flow.h>
#include <rte_mbuf.h>

struct octonic_eswitch;

/** What the e-switch decided for one packet. */
struct octonic_verdict {
	uint16_t pf;		/**< destination PF index (transfer result) */
	uint16_t queue;		/**< Rx queue of that PF (ingress result) */
	uint8_t drop;		/**< dropped by a DROP action (counted) */
	uint8_t has_mark;	/**< MARK: set RTE_MBUF_F_RX_FDIR_ID, hash.fdir.hi */
	uint8_t has_flag;	/**< FLAG: set RTE_MBUF_F_RX_FDIR */
	uint8_t has_rss;	/**< RSS hash computed: set RTE_MBUF_F_RX_RSS_HASH */
	uint32_t mark;
	uint32_t rss_hash;
	uint32_t meta;		/**< metadata set in the transfer domain */
	uint8_t has_meta;
};

/** Rule-operation counters, for tests that count rule changes. */
struct octonic_eswitch_stats {
	uint64_t creates;	/**< successful rte_flow_create */
	uint64_t destroys;	/**< successful rte_flow_destroy (flush counts each) */
	uint64_t validate_fail;	/**< refused validate/create */
	uint32_t transfer_rules;	/**< rules now in the transfer domain */
	uint32_t ingress_rules[RTE_MAX_ETHPORTS > 8 ? 8 : RTE_MAX_ETHPORTS];
				/**< rules now in each PF's ingress */
	uint32_t masks;		/**< distinct match masks (tuple-space tables) */
};

/** Create the e-switch of a NIC with @p nb_pfs PFs (1..8), memory on @p socket. */
struct octonic_eswitch *octonic_eswitch_create(const char *name, uint16_t nb_pfs,
		int socket);

/** Destroy every rule and free the e-switch. */
void octonic_eswitch_free(struct octonic_eswitch *sw);

/** Tell the e-switch which ethdev port is PF @p pf (for REPRESENTED_PORT). */
void octonic_eswitch_set_pf_port(struct octonic_eswitch *sw, uint16_t pf,
		uint16_t port_id);

/**
 * Set PF @p pf's number of Rx queues (at dev_configure) and reset its RSS
 * state to the default: DPDK's default Toeplitz key, hash types from
 * @p rss_hf, RETA spreading round-robin over @p nb_rxq queues.
 * A NULL @p key keeps the default key.
 */
int octonic_eswitch_pf_configure(struct octonic_eswitch *sw, uint16_t pf,
		uint16_t nb_rxq, uint64_t rss_hf, const uint8_t *key, uint8_t key_len);

/** RETA size each PF reports (RTE_ETH_RSS_RETA_SIZE_128). */
#define OCTONIC_RETA_SIZE 128
/** Length of the Toeplitz key (40 bytes). */
#define OCTONIC_RSS_KEY_LEN 40

int octonic_eswitch_reta_update(struct octonic_eswitch *sw, uint16_t pf,
		struct rte_eth_rss_reta_entry64 *conf, uint16_t size);
int octonic_eswitch_reta_query(struct octonic_eswitch *sw, uint16_t pf,
		struct rte_eth_rss_reta_entry64 *conf, uint16_t size);
int octonic_eswitch_rss_hash_update(struct octonic_eswitch *sw, uint16_t pf,
		struct rte_eth_rss_conf *conf);
int octonic_eswitch_rss_hash_conf_get(struct octonic_eswitch *sw, uint16_t pf,
		struct rte_eth_rss_conf *conf);

/**
 * Classify @p n packets arriving from the wire: transfer rules choose a PF
 * (no match: PF0), that PF's ingress rules choose a queue (no match: the PF's
 * RSS).  COUNT actions are counted here.  Must be called between
 * octonic_eswitch_reader_enter() and octonic_eswitch_reader_leave().
 * Packets of a PF that is unplugged are reported with drop=1 by the caller,
 * not here.
 */
void octonic_eswitch_classify(struct octonic_eswitch *sw, struct rte_mbuf **pkts,
		uint16_t n, struct octonic_verdict *v);

/** Enter/leave a read-side critical section (RCU, per lcore). */
void octonic_eswitch_reader_enter(struct octonic_eswitch *sw);
void octonic_eswitch_reader_leave(struct octonic_eswitch *sw);

/** rte_flow ops of PF @p pf's ethdev (returned from flow_ops_get). */
extern const struct rte_flow_ops octonic_flow_ops;

/** Counters of rule operations. */
void octonic_eswitch_stats_get(const struct octonic_eswitch *sw,
		struct octonic_eswitch_stats *st);

/**
 * Dump every rule (domain, group, priority, pattern, actions) in a stable
 * text form to @p f, one rule per line; used by tests and telemetry.
 */
int octonic_eswitch_dump(const struct octonic_eswitch *sw, FILE *f);

/**
 * Implemented by the ethdev glue: the e-switch and PF index behind an
 * octonic port, or NULL when @p dev is not an octonic PF.
 */
struct rte_eth_dev;
struct octonic_eswitch *octonic_dev_eswitch(const struct rte_eth_dev *dev,
		uint16_t *pf);

#endif /* OCTONIC_ESWITCH_H */
