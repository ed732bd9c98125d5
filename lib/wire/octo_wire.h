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

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_mbuf.h>
#include <octopus_dpdk_compat.h>

/** First word of every generated payload (ASCII "OCTO"). */
#define OCTO_WIRE_MAGIC 0x4f43544fu

/**
 * Largest flow count: the generator's IPv4 source addresses carry the flow
 * id in their 24 host bits (10.0.0.0/8), which keeps 5-tuples distinct.
 */
#define OCTO_WIRE_MAX_FLOWS (1u << 24)

/**
 * Payload the generator writes right after the L4 header (all fields in
 * network order); the rest of the frame is zero.
 */
struct __rte_packed_begin octo_wire_payload {
	rte_be32_t magic;	/**< OCTO_WIRE_MAGIC */
	rte_be32_t flow_id;	/**< 0 .. nb_flows - 1 */
	rte_be64_t seq;		/**< per-flow sequence number, from 0 */
} __rte_packed_end;

/**
 * Generator configuration.
 *
 * Flow f of a generator gets (b and p fixed by the seed):
 * - source address 10.0.0.0/8 host (f + b) mod 2^24 (IPv4), or
 *   fd6f:6374:<seed bits>::(f + b) (IPv6; the flow label is f mod 2^20);
 * - source port 49152 + (f + p) mod 16384;
 * - destination address and port, one per seed (198.18.0.0/15 for IPv4).
 * Consecutive flows thus differ in the LOW bits of the source port and
 * address, which the model's RSS-like spreading uses.
 */
struct octo_gen_conf {
	uint32_t nb_flows;	/**< distinct 5-tuples, used round-robin */
	uint16_t pkt_len;	/**< frame length without CRC (>= 64) */
	uint8_t ipv6;		/**< 1: IPv6, 0: IPv4 */
	/** IPPROTO_UDP, IPPROTO_TCP, IPPROTO_SCTP (the payload right after
	 * the common header, no chunk), IPPROTO_ICMP (IPv4) or IPPROTO_ICMPV6
	 * (IPv6): echo requests whose identifier is the flow's source port
	 * and whose sequence number is the low 16 bits of the frame's
	 */
	uint8_t l4_proto;
	uint32_t seed;		/**< varies the addresses and ports */
};

struct octo_gen;

/**
 * Shortest pkt_len octo_gen_create() accepts for this IP version and L4
 * protocol (headers + payload, at least 64), 0 for an unsupported protocol
 * (or ICMP over IPv6, ICMPv6 over IPv4).
 */
uint16_t octo_gen_min_len(uint8_t ipv6, uint8_t l4_proto);

/**
 * Create a generator (malloc); NULL on bad conf (errno EINVAL: no flows,
 * more than OCTO_WIRE_MAX_FLOWS, pkt_len below octo_gen_min_len(), a
 * protocol octo_gen_min_len() refuses) or ENOMEM.
 */
struct octo_gen *octo_gen_create(const struct octo_gen_conf *conf);
void octo_gen_free(struct octo_gen *g);

/**
 * Write the next frame into @p buf (room @p room bytes): Ethernet, IP and
 * L4 headers with valid checksums (SCTP: CRC32c), then a payload carrying a magic word,
 * the flow id and the flow's next sequence number.
 *
 * @return the frame length, 0 when @p room is too small.
 */
uint16_t octo_gen_next(struct octo_gen *g, uint8_t *buf, uint16_t room);

/** Frames produced so far. */
uint64_t octo_gen_count(const struct octo_gen *g);

/**
 * Replace the Ethernet addresses of the frames to come (the defaults are
 * locally administered addresses derived from the seed).
 */
void octo_gen_set_eth(struct octo_gen *g, const struct rte_ether_addr *src,
		const struct rte_ether_addr *dst);

/**
 * Per-NIC sink counters.
 *
 * - pkts: every frame accounted, ours or not.
 * - in_order: ours, with a sequence number above all seen before in its
 *   flow (a gap before it still counts as in order; the gap is "lost").
 * - out_of_order: ours, arriving after a higher sequence number of its
 *   flow, not seen before.
 * - duplicates: ours, a sequence number already seen in its flow (detected
 *   within the last OCTO_SINK_WINDOW sequence numbers of the flow; an older
 *   repeat is counted as out of order).
 * - lost: sum over flows of (highest seq seen + 1) - distinct seqs seen,
 *   computed when read: a late arrival fills its gap, and losses after the
 *   last frame of a flow are not visible.
 * - foreign: not parsed as Ethernet/IP/TCP|UDP|SCTP|ICMP|ICMPv6
 *   (unfragmented) carrying
 *   OCTO_WIRE_MAGIC and a flow id below the sink's flow count.
 */
struct octo_sink_stats {
	uint64_t pkts, in_order, out_of_order, duplicates, lost, foreign;
};

/** Sequence numbers per flow the sink remembers to tell duplicates. */
#define OCTO_SINK_WINDOW 64

struct octo_sink;

/**
 * A sink for up to @p nb_flows flows (16 bytes of state per flow, malloc);
 * NULL with errno set on failure.
 */
struct octo_sink *octo_sink_create(uint32_t nb_flows);
void octo_sink_free(struct octo_sink *s);

/**
 * Account one frame that reached the wire (contiguous bytes).
 * One writer at a time: the sink takes no lock.
 */
void octo_sink_account(struct octo_sink *s, const uint8_t *frame, uint32_t len);

/**
 * As octo_sink_account(), and for one of our frames (the return is 1) also
 * its flow and sequence number; 0 for a foreign frame.
 */
int octo_sink_account_id(struct octo_sink *s, const uint8_t *frame,
		uint32_t len, uint32_t *flow, uint64_t *seq);

/**
 * Latency of generated frames from their generation to the sink, in the
 * caller's time unit (the NIC model: TSC cycles).  The generator's k-th
 * frame since its creation is stamped (octo_latency_stamp, once per burst
 * with the burst's time); the sink's flow and sequence number give k back
 * (flows are used round-robin from 0).  One writer at a time.
 */
struct octo_latency;

/**
 * For a generator of @p nb_flows flows, remembering the stamps of the
 * last 2^window_log2 frames (16 bytes each, malloc); NULL with errno set.
 */
struct octo_latency *octo_latency_create(uint32_t nb_flows,
		unsigned int window_log2);
void octo_latency_free(struct octo_latency *l);
/** Frames first .. first + n - 1 left the generator at time @p t. */
void octo_latency_stamp(struct octo_latency *l, uint64_t first, uint16_t n,
		uint64_t t);
/** The frame of @p flow, @p seq reached the sink at @p now. */
void octo_latency_record(struct octo_latency *l, uint32_t flow, uint64_t seq,
		uint64_t now);
/**
 * The @p q quantile (0..1) of the latencies recorded, within 1/16 (the
 * middle of its histogram bucket); -1 when none was recorded.  Safe from
 * any thread while the writer runs (not one instant across buckets).
 */
int octo_latency_quantile(const struct octo_latency *l, double q, uint64_t *v);
/** Frames counted, and frames whose stamp was already reused. */
void octo_latency_counts(const struct octo_latency *l, uint64_t *samples,
		uint64_t *stale);

/** Buckets of the latency histogram: 16 per power of 2 (see octo_latency.c). */
#define OCTO_LATENCY_BUCKETS (64 * 16)
/**
 * Copy the histogram: @p counts[b] latencies in [octo_latency_bucket_low(b),
 * octo_latency_bucket_low(b + 1)).  Safe from any thread while the writer
 * runs (each bucket exact, not one instant across buckets).  Two copies
 * taken at different times give, by difference, the latencies recorded in
 * between.
 */
void octo_latency_hist(const struct octo_latency *l,
		uint64_t counts[OCTO_LATENCY_BUCKETS]);
/** Smallest latency bucket @p b holds; UINT64_MAX from the first bucket
 *  that no 64-bit latency can reach (the end of the last one in use).
 */
uint64_t octo_latency_bucket_low(unsigned int b);
/**
 * The histogram's non-empty buckets in ascending order, at most @p max
 * (> 0) of them: entry i counts @p count[i] latencies in [@p low[i],
 * @p high[i]).  When more buckets are non-empty, runs of 2, 4, ... of them
 * are merged into one entry (coarser, each latency still in an entry that
 * holds it).  Returns the number of entries filled.  Safe from any thread
 * while the writer runs, as octo_latency_hist().
 */
unsigned int octo_latency_nonempty(const struct octo_latency *l, uint64_t *low,
		uint64_t *high, uint64_t *count, unsigned int max);

/**
 * Read the counters; safe from any thread while the writer runs (each
 * counter is a relaxed atomic, so the snapshot is per-counter exact but
 * not one instant across counters; lost is clamped at 0).
 */
void octo_sink_stats(const struct octo_sink *s, struct octo_sink_stats *st);

/** Forget all flows and zero the counters; only while no writer runs. */
void octo_sink_reset(struct octo_sink *s);

/**
 * RTE_PTYPE_* of a frame, as far as parsed:
 * - L2: ETHER, ETHER_VLAN (one 802.1Q tag), ETHER_QINQ (two tags),
 *   ETHER_ARP, ETHER_LLDP, ETHER_TIMESYNC;
 * - L3: IPV4, IPV4_EXT (options), IPV6, IPV6_EXT (hop-by-hop, routing,
 *   destination options or fragment headers); nothing when cut short;
 * - L4: TCP, UDP, SCTP, ICMP (v4 and v6), FRAG (IPv4 MF/offset, IPv6
 *   fragment header with MF/offset), NONFRAG (any other protocol).
 * Tunnels are not parsed (no inner types). RTE_PTYPE_UNKNOWN for runts.
 */
uint32_t octo_offload_ptype(const uint8_t *frame, uint32_t len);

/**
 * Rx checksum verdict of a frame, as RTE_MBUF_F_RX_* flags:
 * - IP: GOOD/BAD for IPv4 (header checksum), NONE for IPv6 (no header
 *   checksum), UNKNOWN when not IP.
 * - L4: GOOD/BAD for unfragmented TCP and UDP over the length the IP header
 *   declares (BAD when the frame is shorter); UDP checksum 0 is GOOD over
 *   IPv4 (not computed by the sender) and BAD over IPv6 (forbidden);
 *   UNKNOWN for fragments, other protocols and non-IP.
 */
uint64_t octo_offload_rx_cksum(const uint8_t *frame, uint32_t len);

/**
 * Apply the Tx offloads requested in @p m->ol_flags in software, on a
 * possibly multi-segment mbuf, using m->l2_len and m->l3_len as DPDK apps
 * set them:
 * - RTE_MBUF_F_TX_IP_CKSUM (with RTE_MBUF_F_TX_IPV4): IPv4 header checksum;
 * - RTE_MBUF_F_TX_TCP_CKSUM / RTE_MBUF_F_TX_UDP_CKSUM (with exactly one of
 *   RTE_MBUF_F_TX_IPV4 / RTE_MBUF_F_TX_IPV6): the L4 checksum over the length
 *   the IP header declares, whatever the field held before.
 * The headers up to the L4 checksum field must be in the first segment; the
 * payload may span segments of any (odd) lengths. The flags are left set.
 * VLAN insertion flags are ignored (not a checksum matter).
 *
 * @return 0, or -EINVAL (m untouched) for TSO/USO, tunnels and outer
 *   offloads, SCTP checksum, security offloads, contradictory flags, or
 *   headers that are not where and what the mbuf says.
 */
int octo_offload_tx(struct rte_mbuf *m);

#endif /* OCTO_WIRE_H */
