/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTO_WIRE_H
#define OCTO_WIRE_H

/**
 * @file
 * What travels on the NIC model's wire, without EAL: the traffic generator
 * (sequence-numbered flows), the sink that checks per-flow order, and the
 * software offloads (packet type, Rx checksum verification, Tx checksum
 * insertion) that the model reports as hardware would.
 */

#include <stdint.h>

#include <rte_mbuf.h>

/** Generator configuration. */
struct octo_gen_conf {
	uint32_t nb_flows;	/**< distinct 5-tuples, used round-robin */
	uint16_t pkt_len;	/**< frame length without CRC (>= 64) */
	uint8_t ipv6;		/**< 1: IPv6, 0: IPv4 */
	uint8_t l4_proto;	/**< IPPROTO_UDP or IPPROTO_TCP */
	uint32_t seed;		/**< varies the addresses and ports */
};

struct octo_gen;

/** Create a generator (malloc); NULL on bad conf (errno set). */
struct octo_gen *octo_gen_create(const struct octo_gen_conf *conf);
void octo_gen_free(struct octo_gen *g);

/**
 * Write the next frame into @p buf (room @p room bytes): Ethernet, IP and
 * L4 headers with valid checksums, then a payload carrying a magic word,
 * the flow id and the flow's next sequence number.
 *
 * @return the frame length, 0 when @p room is too small.
 */
uint16_t octo_gen_next(struct octo_gen *g, uint8_t *buf, uint16_t room);

/** Frames produced so far. */
uint64_t octo_gen_count(const struct octo_gen *g);

/** Per-NIC sink counters. */
struct octo_sink_stats {
	uint64_t pkts, in_order, out_of_order, duplicates, lost, foreign;
};

struct octo_sink;

/** A sink for up to @p nb_flows flows. */
struct octo_sink *octo_sink_create(uint32_t nb_flows);
void octo_sink_free(struct octo_sink *s);

/** Account one frame that reached the wire (contiguous bytes). */
void octo_sink_account(struct octo_sink *s, const uint8_t *frame, uint32_t len);

void octo_sink_stats(const struct octo_sink *s, struct octo_sink_stats *st);

/** RTE_PTYPE_* of a frame (L2, L3, L4 as far as parsed). */
uint32_t octo_offload_ptype(const uint8_t *frame, uint32_t len);

/**
 * Rx checksum verdict of a frame: RTE_MBUF_F_RX_IP_CKSUM_GOOD/BAD/NONE and
 * RTE_MBUF_F_RX_L4_CKSUM_GOOD/BAD/NONE (UNKNOWN when not parsed).
 */
uint64_t octo_offload_rx_cksum(const uint8_t *frame, uint32_t len);

/**
 * Apply the Tx offloads requested in @p m->ol_flags (IPv4 header checksum,
 * TCP/UDP checksum over IPv4/IPv6) in software, on a possibly multi-segment
 * mbuf.  Uses m->l2_len and m->l3_len as DPDK apps set them.
 *
 * @return 0, or -EINVAL when the headers are not where the mbuf says.
 */
int octo_offload_tx(struct rte_mbuf *m);

#endif /* OCTO_WIRE_H */
