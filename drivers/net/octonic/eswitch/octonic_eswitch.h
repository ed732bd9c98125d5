/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTONIC_ESWITCH_H
#define OCTONIC_ESWITCH_H

/**
 * @file
 * The NIC model's e-switch: the contract between the ethdev glue
 * (octonic_ethdev.c, octonic_rxtx.c: ports, queues, the DMA engine) and the
 * flow engine (eswitch/, octonic_flow.c: rte_flow rules, the
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
#include <stdio.h>

#include <rte_ethdev.h>
#include <rte_flow.h>
#include <rte_mbuf.h>

#include "octonic_devargs.h"

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
	/** a PF's frame no transfer rule took: out on the wire (classify_tx) */
	uint8_t to_wire;
	/**
	 * REPRESENTED_PORT to PF pf where the PFs
	 * are uplinks (octonic_eswitch_uplinks_set):
	 * out by that PF's wire, not to its queues
	 */
	uint8_t to_uplink;
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
	uint64_t grace_periods;	/**< waits for readers (rule changes, frees) */
	uint64_t grace_wait_ns;	/**< time spent in them, in total */
	uint64_t grace_wait_max_ns;	/**< the longest one */
	uint64_t grace_sleeps;	/**< waits that slept until a reader left */
};

/** Create the e-switch of a NIC with @p nb_pfs PFs (1..8), memory on @p socket. */
struct octonic_eswitch *octonic_eswitch_create(const char *name, uint16_t nb_pfs,
		int socket);

/**
 * Choose the rule vocabulary (devargs dialect= and xmeta=), before the
 * first rule: under an mlx5 dialect, validate and create refuse what that
 * NIC refuses (octonic.rst "Dialects"), and accept MODIFY_FIELD (META from an
 * immediate value) and, with mlx5-hws, PORT_REPRESENTOR to the e-switch
 * manager.  OCTONIC_DIALECT_GENERIC (the default) is the model's own
 * vocabulary.
 */
void octonic_eswitch_dialect_set(struct octonic_eswitch *sw,
		enum octonic_dialect dialect, uint8_t xmeta);

/**
 * Which DPDK release's mlx5 the mlx5 dialects follow (devargs mlx5_dpdk=,
 * OCTONIC_MLX5_DPDK_*; the default is the DPDK built against) and, for
 * mlx5-hws from 25.11, whether the NIC can MARK in transfer rules
 * (devargs fdb_mark=, mlx5's fdb_rx_set_flow_tag_stc capability).  Before
 * the first rule.
 */
void octonic_eswitch_mlx5_model_set(struct octonic_eswitch *sw,
		uint16_t mlx5_dpdk, uint8_t fdb_mark);

/**
 * The PFs' ports are uplinks (topology=mpesw, mlx5's multiport e-switch):
 * a transfer rule's REPRESENTED_PORT to one sends the packet out of its
 * physical port (verdict to_uplink) instead of to its Rx queues, and a
 * packet no transfer rule takes goes to the uplink it arrived by, the PF
 * index the caller of octonic_eswitch_classify*() puts in its mbuf's
 * port field (0 otherwise).  Before the first rule.
 */
void octonic_eswitch_uplinks_set(struct octonic_eswitch *sw, int on);

/** Destroy every rule and free the e-switch. */
void octonic_eswitch_free(struct octonic_eswitch *sw);

/** Tell the e-switch which ethdev port is PF @p pf (for REPRESENTED_PORT). */
void octonic_eswitch_set_pf_port(struct octonic_eswitch *sw, uint16_t pf,
		uint16_t port_id);

/**
 * PF @p pf's port is closed: its port id may name another device from now
 * on, so no rule may name it and, for PF0, there is no transfer proxy.
 */
void octonic_eswitch_forget_pf_port(struct octonic_eswitch *sw, uint16_t pf);

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

/**
 * Classify @p n frames PF @p pf transmitted, under mlx5-hws where the
 * transfer domain sees what every port sends (F9): as
 * octonic_eswitch_classify, from that PF instead of the wire, a transfer
 * miss giving to_wire.  Between reader_enter and reader_leave.
 */
void octonic_eswitch_classify_tx(struct octonic_eswitch *sw, uint16_t pf,
		struct rte_mbuf **pkts, uint16_t n, struct octonic_verdict *v);

/**
 * Verdicts remembered per flow (the parsed header fields every rule and RSS
 * read): a packet of a flow classified before, under the same rules and
 * PF RSS/isolation state, gets the same verdict without a table lookup,
 * as the NIC's hardware would decide it at no extra cost.  Verdicts of
 * packets counted by a COUNT rule are never remembered.  One user at a
 * time (the NIC engine, under its lock).
 */
struct octonic_eswitch_cache;

/** A cache for 4096 flows on @p socket; NULL when out of memory. */
struct octonic_eswitch_cache *octonic_eswitch_cache_create(int socket);
void octonic_eswitch_cache_free(struct octonic_eswitch_cache *c);

/** octonic_eswitch_classify() through the cache @p c. */
void octonic_eswitch_classify_cached(struct octonic_eswitch *sw,
		struct octonic_eswitch_cache *c, struct rte_mbuf **pkts,
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

/*
 * The rte_flow entry points below take the e-switch and a PF index instead of an ethdev, so that
 * the e-switch can be driven and tested without ports; octonic_flow_ops wraps them for the ethdev
 * layer. What rules mean (domains, groups, priorities, items, actions, defaults) is in
 * doc/guides/nics/octonic.rst, "E-switch"; beyond it:
 * - JUMP goes to a higher group only, so there are no loops; a packet follows at most 16 JUMPs per
 *   domain, a 17th ends the domain with its default.
 * - Every refusal fills rte_flow_error naming the attr/item/action and leaves nothing behind.
 * - Metadata starts at 0 on the wire; SET_META (transfer) updates (meta & ~mask) | (data & mask),
 *   and later lookups, including the ingress META item, see the updated value.
 * - RSS (the PF default and RSS actions): Toeplitz (rte_softrss) over the IPv4/IPv6 4-tuple when
 *   the packet's TCP/UDP type is in the hash types, else over the address pair when an L3 type of
 *   its IP version is, else no hash (has_rss=0: queue 0, or the action's first queue). Default:
 *   queue = RETA[hash % 128]. RSS action: queue = queue[hash % queue_num]; types 0 and key_len 0
 *   take the PF's types and key at rule creation.
 * - Each packet is classified by exactly one rule-set generation: all of a flush disappears at
 *   once; a create or destroy is atomic.
 *
 * Readers without an lcore id (rte_lcore_id() == LCORE_ID_ANY) may call
 * octonic_eswitch_reader_enter/leave too: they are tracked by two epoch counters instead of the
 * per-lcore QSBR state. A thread must not be inside a read-side section of an e-switch when it
 * calls a control function (create, destroy, flush, RSS/RETA updates, free) of that e-switch: the
 * control path waits for readers.
 *
 * Dump format (octonic_eswitch_dump), one rule per line, sorted: transfer
 * rules by (group, prio, creation order), then ingress rules by (pf, group,
 * prio, creation order):
 *   transfer group=G prio=P pattern=PAT actions=ACT
 *   ingress pf=N group=G prio=P pattern=PAT actions=ACT
 * PAT is octo_match_format() (lib/classifier/octo_classifier.h), after
 * "represented_port(PORT_ID)/" for a rule with that item (mlx5-hws), e.g.
 *   eth/ipv4(src=10.0.0.1/255.255.255.255)/udp(src=0x0003/0x000f)/meta(7/0xffffffff)
 *   ("any" for an empty pattern); ACT is a comma-separated list in this
 * fixed order: set_meta(DATA/0xMASK), mark(ID), flag, count, then the fate:
 * jump(G) | represented_port(PORT_ID) | drop | queue(Q) |
 * rss(queues=Q0:Q1:...,types=0xHF[,key=custom]); DATA, ID, G, Q, PORT_ID
 * in decimal.  Example:
 *   transfer group=0 prio=3 pattern=eth/ipv4/udp(src=0x0003/0x000f)
 *     actions=set_meta(7/0xffffffff),jump(1)
 *   ingress pf=1 group=0 prio=0 pattern=meta(7/0xffffffff) actions=queue(7)
 */

/** RSS hash types the model supports (dev_info.flow_type_rss_offloads). */
#define OCTONIC_RSS_OFFLOAD_ALL (RTE_ETH_RSS_IPV4 | RTE_ETH_RSS_FRAG_IPV4 | \
	RTE_ETH_RSS_NONFRAG_IPV4_TCP | RTE_ETH_RSS_NONFRAG_IPV4_UDP | \
	RTE_ETH_RSS_NONFRAG_IPV4_OTHER | RTE_ETH_RSS_IPV6 | \
	RTE_ETH_RSS_FRAG_IPV6 | RTE_ETH_RSS_NONFRAG_IPV6_TCP | \
	RTE_ETH_RSS_NONFRAG_IPV6_UDP | RTE_ETH_RSS_NONFRAG_IPV6_OTHER | \
	RTE_ETH_RSS_IPV6_EX | RTE_ETH_RSS_IPV6_TCP_EX | RTE_ETH_RSS_IPV6_UDP_EX)

/** rte_flow_validate on PF @p pf. @return 0 or -errno (error set). */
int octonic_eswitch_flow_validate(struct octonic_eswitch *sw, uint16_t pf,
		const struct rte_flow_attr *attr, const struct rte_flow_item pattern[],
		const struct rte_flow_action actions[], struct rte_flow_error *error);

/** rte_flow_create on PF @p pf. @return the rule, NULL with rte_errno/error set. */
/**
 * Room for as many rules as @p rules in all domains together (0: as many as memory
 * takes): a create beyond it is refused with ENOSPC, as a NIC whose tables
 * are full refuses it.
 */
void octonic_eswitch_room_set(struct octonic_eswitch *sw, uint32_t rules);
struct rte_flow *octonic_eswitch_flow_create(struct octonic_eswitch *sw,
		uint16_t pf, const struct rte_flow_attr *attr,
		const struct rte_flow_item pattern[],
		const struct rte_flow_action actions[], struct rte_flow_error *error);

/** rte_flow_destroy: the rule must belong to PF @p pf (transfer: PF0). */
int octonic_eswitch_flow_destroy(struct octonic_eswitch *sw, uint16_t pf,
		struct rte_flow *flow, struct rte_flow_error *error);

/**
 * rte_flow_flush: PF @p pf's ingress rules; PF0 also all transfer rules.
 * Under mlx5-hws the rules of the PF's template tables too, as mlx5's
 * hardware steering flushes them (mlx5_flow_list_flush).
 */
int octonic_eswitch_flow_flush(struct octonic_eswitch *sw, uint16_t pf,
		struct rte_flow_error *error);

/**
 * PF @p pf's port was stopped, under a dialect whose NIC keeps no rule
 * across a stop (mlx5: mlx5_dev_stop flushes them, dev_capa has no
 * FLOW_RULE_KEEP): the rules made on it go, rte_flow_create's and those
 * of its template tables, and for PF0 (the transfer proxy, where every
 * transfer rule is made) every transfer rule.  Templates and tables stay.
 * A flushed rule's handle stays valid for rte_flow_destroy (which then
 * answers 0, as mlx5 does) until the e-switch goes.
 */
void octonic_eswitch_port_stopped(struct octonic_eswitch *sw, uint16_t pf);

/**
 * PF @p pf's port was started: under mlx5-hws with mlx5_dpdk=25.11 its
 * flow engine exists from then on (octonic_eswitch_flow_ctx).
 */
void octonic_eswitch_port_started(struct octonic_eswitch *sw, uint16_t pf);

/**
 * Whether PF @p pf's flow engine exists, mlx5's dr_ctx under hardware
 * steering: rte_flow_configure made it, or (25.11) the port's first start.
 * The transfer proxy's decides whether the order of starts and stops is
 * enforced (mlx5_trigger.c).
 */
int octonic_eswitch_flow_ctx(struct octonic_eswitch *sw, uint16_t pf);

/** rte_flow_query: COUNT only (struct rte_flow_query_count). */
int octonic_eswitch_flow_query(struct octonic_eswitch *sw, uint16_t pf,
		struct rte_flow *flow, const struct rte_flow_action *action,
		void *data, struct rte_flow_error *error);

/** rte_flow_isolate: when on, packets matching no ingress rule are dropped. */
int octonic_eswitch_flow_isolate(struct octonic_eswitch *sw, uint16_t pf,
		int set, struct rte_flow_error *error);

/** The transfer proxy: PF0's ethdev port id (set_pf_port). */
int octonic_eswitch_transfer_proxy(const struct octonic_eswitch *sw,
		uint16_t *port_id);

#endif /* OCTONIC_ESWITCH_H */
