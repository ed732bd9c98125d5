/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Traffic generator. It runs in the NIC model's hot loop, so the work per
 * frame is: copy one header template shared by all flows, patch the few
 * per-flow words (source address, source port, IPv6 flow label), write the
 * payload and add the patched words to checksum sums precomputed over the
 * template. Keeping one template instead of one per flow keeps the state per
 * flow at 8 bytes (its next sequence number), which stays in cache with many
 * flows. The per-flow words are cheap functions of the flow id.
 */

#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_crc_sw.h>
#include <rte_ether.h>
#include <rte_icmp.h>
#include <rte_ip.h>
#include <rte_sctp.h>
#include <rte_tcp.h>
#include <rte_udp.h>
#include <octopus_dpdk_compat.h>

#include "octo_wire.h"
#include "octo_wire_parse.h"

#define GEN_HDR_MAX (RTE_ETHER_HDR_LEN + sizeof(struct rte_ipv6_hdr) + \
		sizeof(struct rte_tcp_hdr))
/* Source ports come from the ephemeral range 49152-65535. */
#define GEN_SPORT_BASE 0xc000u
#define GEN_SPORT_MASK 0x3fffu
#define GEN_V4_SRC_NET 0x0a000000u	/* 10.0.0.0/8 */
#define GEN_V4_SRC_MASK 0x00ffffffu

struct octo_gen {
	struct octo_gen_conf conf;
	uint16_t l4_off;	/**< Ethernet + IP header */
	uint16_t pay_off;	/**< headers: where the payload starts */
	uint16_t src_off;	/**< the per-flow 32 bits of the source address */
	uint16_t sport_off;	/**< the per-flow port (ICMP: echo identifier) */
	uint16_t icmp_seq_off;	/**< ICMP echo sequence number, 0: none */
	uint16_t cksum_off;	/**< L4 checksum field (SCTP: CRC32c) */
	uint32_t ip_sum;	/**< IPv4 header sum, per-flow words zero */
	uint32_t l4_sum;	/**< pseudo header + L4 + magic, per-flow words zero */
	uint32_t addr_base;	/**< seed's offset of the per-flow address bits */
	uint32_t port_base;	/**< seed's offset of the source ports */
	uint32_t next_flow;
	uint64_t count;		/**< relaxed atomic: read by stats threads */
	uint8_t tmpl[GEN_HDR_MAX + sizeof(struct octo_wire_payload)];
	uint64_t seq[];		/**< next sequence number of each flow */
};

/* One's-complement sum of the 16-bit memory words of a 32/64-bit value. */
static inline uint32_t
words32(uint32_t v)
{
	return (v & 0xffff) + (v >> 16);
}

static inline uint32_t
words64(uint64_t v)
{
	return words32((uint32_t)v) + words32((uint32_t)(v >> 32));
}

/* Spread the seed's bits so that nearby seeds give unrelated addresses. */
static uint32_t
mix32(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352du;
	x ^= x >> 15;
	x *= 0x846ca68bu;
	x ^= x >> 16;
	return x;
}

static inline rte_be32_t
flow_src_word(const struct octo_gen *g, uint32_t flow)
{
	if (g->conf.ipv6)
		return rte_cpu_to_be_32(flow + g->addr_base);
	return rte_cpu_to_be_32(GEN_V4_SRC_NET |
			((flow + g->addr_base) & GEN_V4_SRC_MASK));
}

static inline rte_be16_t
flow_sport(const struct octo_gen *g, uint32_t flow)
{
	return rte_cpu_to_be_16((uint16_t)(GEN_SPORT_BASE |
			((flow + g->port_base) & GEN_SPORT_MASK)));
}

/* The template's L4 header at @p l4, and where the per-frame fields are */
static void
build_l4(struct octo_gen *g, uint8_t *l4, uint32_t h, uint16_t l4_len)
{
	const struct octo_gen_conf *c = &g->conf;
	rte_be16_t dport = rte_cpu_to_be_16((uint16_t)(5001 + (h >> 22)));

	g->sport_off = g->l4_off;
	if (c->l4_proto == IPPROTO_SCTP) {
		struct rte_sctp_hdr *sctp = (struct rte_sctp_hdr *)l4;

		sctp->dst_port = dport;
		sctp->tag = rte_cpu_to_be_32(h);
		g->pay_off = g->l4_off + sizeof(*sctp);
		g->cksum_off = g->l4_off + offsetof(struct rte_sctp_hdr, cksum);
	} else if (c->l4_proto == IPPROTO_ICMP || c->l4_proto == IPPROTO_ICMPV6) {
		struct rte_icmp_hdr *icmp = (struct rte_icmp_hdr *)l4;

		/* echo requests: the identifier per flow, the sequence number
		 * per frame, as ping sends them
		 */
		icmp->icmp_type = c->l4_proto == IPPROTO_ICMP ?
			RTE_ICMP_TYPE_ECHO_REQUEST : RTE_ICMP6_ECHO_REQUEST;
		g->sport_off = g->l4_off + offsetof(struct rte_icmp_hdr, icmp_ident);
		g->icmp_seq_off = g->l4_off + offsetof(struct rte_icmp_hdr, icmp_seq_nb);
		g->pay_off = g->l4_off + sizeof(*icmp);
		g->cksum_off = g->l4_off + offsetof(struct rte_icmp_hdr, icmp_cksum);
	} else if (c->l4_proto == IPPROTO_UDP) {
		struct rte_udp_hdr *udp = (struct rte_udp_hdr *)l4;

		udp->dst_port = dport;
		udp->dgram_len = rte_cpu_to_be_16(l4_len);
		g->pay_off = g->l4_off + sizeof(*udp);
		g->cksum_off = g->l4_off + offsetof(struct rte_udp_hdr, dgram_cksum);
	} else {
		struct rte_tcp_hdr *tcp = (struct rte_tcp_hdr *)l4;

		tcp->dst_port = dport;
		tcp->data_off = (sizeof(*tcp) / 4) << 4;
		tcp->tcp_flags = RTE_TCP_ACK_FLAG | RTE_TCP_PSH_FLAG;
		tcp->rx_win = RTE_BE16(0xffff);
		g->pay_off = g->l4_off + sizeof(*tcp);
		g->cksum_off = g->l4_off + offsetof(struct rte_tcp_hdr, cksum);
	}
}

static void
build_template(struct octo_gen *g, uint32_t h)
{
	const struct octo_gen_conf *c = &g->conf;
	uint8_t *t = g->tmpl;
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)t;
	uint8_t *l3 = t + RTE_ETHER_HDR_LEN;
	uint8_t *l4;
	uint16_t l4_len;
	struct octo_wire_payload pl = { .magic = rte_cpu_to_be_32(OCTO_WIRE_MAGIC) };

	memset(t, 0, sizeof(g->tmpl));
	/* locally administered unicast, the seed in the low bytes */
	eth->src_addr = (struct rte_ether_addr){ { 0x02, 0x00, (uint8_t)(c->seed >> 24),
		(uint8_t)(c->seed >> 16), (uint8_t)(c->seed >> 8), (uint8_t)c->seed } };
	eth->dst_addr = eth->src_addr;
	eth->dst_addr.addr_bytes[1] = 0x01;

	if (c->ipv6) {
		struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)l3;
		/* fd00::/8 unique-local; the seed picks the /64 */
		static const uint8_t pfx[8] = { 0xfd, 0x6f, 0x63, 0x74 };

		eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV6);
		g->l4_off = RTE_ETHER_HDR_LEN + sizeof(*ip);
		l4_len = c->pkt_len - g->l4_off;
		ip->vtc_flow = rte_cpu_to_be_32(6u << 28);
		ip->payload_len = rte_cpu_to_be_16(l4_len);
		ip->proto = c->l4_proto;
		ip->hop_limits = 64;
		memcpy(OCTO_IPV6_BYTES(ip->src_addr), pfx, sizeof(pfx));
		memcpy(OCTO_IPV6_BYTES(ip->src_addr) + 4, &(rte_be32_t){ rte_cpu_to_be_32(h) }, 4);
		memcpy(OCTO_IPV6_BYTES(ip->dst_addr), OCTO_IPV6_BYTES(ip->src_addr), 8);
		OCTO_IPV6_BYTES(ip->dst_addr)[15] = 1;
		/* the per-flow word, zero in the template: bytes 12-15 */
		g->src_off = RTE_ETHER_HDR_LEN + offsetof(struct rte_ipv6_hdr, src_addr) + 12;
	} else {
		struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)l3;

		eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
		g->l4_off = RTE_ETHER_HDR_LEN + sizeof(*ip);
		l4_len = c->pkt_len - g->l4_off;
		ip->version_ihl = RTE_IPV4_VHL_DEF;
		ip->total_length = rte_cpu_to_be_16(c->pkt_len - RTE_ETHER_HDR_LEN);
		ip->fragment_offset = rte_cpu_to_be_16(RTE_IPV4_HDR_DF_FLAG);
		ip->time_to_live = 64;
		ip->next_proto_id = c->l4_proto;
		/* 198.18.0.0/15 is for benchmarks (RFC 2544) */
		ip->dst_addr = rte_cpu_to_be_32(0xc6120000u | (h & 0x1fffeu) | 1);
		g->src_off = RTE_ETHER_HDR_LEN + offsetof(struct rte_ipv4_hdr, src_addr);
		g->ip_sum = __rte_raw_cksum(ip, sizeof(*ip), 0);
	}

	l4 = t + g->l4_off;
	build_l4(g, l4, h, l4_len);
	/*
	 * The zero padding after the payload adds nothing to the sum, so the
	 * template sum covers the whole L4 segment but the per-flow words.
	 */
	memcpy(t + g->pay_off, &pl, sizeof(pl));
	/* ICMP (v4) has no pseudo header; ICMPv6 has the usual one */
	g->l4_sum = (c->l4_proto == IPPROTO_ICMP ? 0 :
		octo_wire_pseudo_sum(l3, c->ipv6 ? 6 : 4, c->l4_proto, l4_len)) +
		__rte_raw_cksum(l4, g->pay_off + sizeof(pl) - g->l4_off, 0);
	g->addr_base = h;
	g->port_base = h >> 8;
}

static size_t
l4_hdr_len(uint8_t ipv6, uint8_t l4_proto)
{
	switch (l4_proto) {
	case IPPROTO_UDP:
		return sizeof(struct rte_udp_hdr);
	case IPPROTO_TCP:
		return sizeof(struct rte_tcp_hdr);
	case IPPROTO_SCTP:
		return sizeof(struct rte_sctp_hdr);
	case IPPROTO_ICMP:
		return ipv6 ? 0 : sizeof(struct rte_icmp_hdr);
	case IPPROTO_ICMPV6:
		return ipv6 ? sizeof(struct rte_icmp_hdr) : 0;
	default:
		return 0;
	}
}

uint16_t
octo_gen_min_len(uint8_t ipv6, uint8_t l4_proto)
{
	size_t l4 = l4_hdr_len(ipv6, l4_proto), len;

	if (l4 == 0)
		return 0;
	len = RTE_ETHER_HDR_LEN + (ipv6 ? sizeof(struct rte_ipv6_hdr) :
			sizeof(struct rte_ipv4_hdr)) + l4 +
		sizeof(struct octo_wire_payload);
	return (uint16_t)RTE_MAX(len, (size_t)64);
}

/* SCTP's CRC32c (RFC 9260, appendix A) over the L4 segment, checksum field
 * zero; stored in the byte order the RFC's reference code writes it.
 */
static rte_le32_t
sctp_crc32c(const uint8_t *l4, uint32_t len)
{
	uint32_t crc = 0xffffffffu;
	uint64_t w;

	for (; len >= 8; len -= 8, l4 += 8) {
		memcpy(&w, l4, sizeof(w));
		crc = crc32c_2words(rte_le_to_cpu_64(w), crc);
	}
	for (; len > 0; len--, l4++)
		crc = crc32c_1byte(*l4, crc);
	return rte_cpu_to_le_32(~crc);
}

struct octo_gen *
octo_gen_create(const struct octo_gen_conf *conf)
{
	struct octo_gen *g;

	if (conf == NULL || conf->nb_flows == 0 || conf->nb_flows > OCTO_WIRE_MAX_FLOWS ||
			conf->ipv6 > 1 ||
			octo_gen_min_len(conf->ipv6, conf->l4_proto) == 0 ||
			conf->pkt_len < octo_gen_min_len(conf->ipv6, conf->l4_proto)) {
		errno = EINVAL;
		return NULL;
	}
	g = calloc(1, sizeof(*g) + (size_t)conf->nb_flows * sizeof(g->seq[0]));
	if (g == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	g->conf = *conf;
	build_template(g, mix32(conf->seed));
	return g;
}

void
octo_gen_free(struct octo_gen *g)
{
	free(g);
}

void
octo_gen_set_eth(struct octo_gen *g, const struct rte_ether_addr *src,
		const struct rte_ether_addr *dst)
{
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)g->tmpl;

	/* Ethernet addresses are in no checksum: the sums stay valid. */
	if (src != NULL)
		rte_ether_addr_copy(src, &eth->src_addr);
	if (dst != NULL)
		rte_ether_addr_copy(dst, &eth->dst_addr);
}

uint16_t
octo_gen_next(struct octo_gen *g, uint8_t *buf, uint16_t room)
{
	uint16_t len = g->conf.pkt_len;
	uint32_t flow = g->next_flow;
	uint64_t seq;
	rte_be32_t src;
	rte_be16_t sport, ck;
	uint32_t sum;
	struct octo_wire_payload pl;

	if (room < len)
		return 0;
	if (++g->next_flow == g->conf.nb_flows)
		g->next_flow = 0;
	seq = g->seq[flow]++;

	memcpy(buf, g->tmpl, g->pay_off);
	src = flow_src_word(g, flow);
	sport = flow_sport(g, flow);
	memcpy(buf + g->src_off, &src, sizeof(src));
	memcpy(buf + g->sport_off, &sport, sizeof(sport));
	if (g->conf.ipv6) {
		/* a flow label per flow, as a host stack would set; no checksum */
		rte_be32_t vtc = rte_cpu_to_be_32(6u << 28 | (flow & 0xfffffu));

		memcpy(buf + RTE_ETHER_HDR_LEN, &vtc, sizeof(vtc));
	} else {
		ck = (rte_be16_t)~octo_wire_fold(g->ip_sum + words32(src));
		memcpy(buf + RTE_ETHER_HDR_LEN +
			offsetof(struct rte_ipv4_hdr, hdr_checksum), &ck, sizeof(ck));
	}

	pl.magic = rte_cpu_to_be_32(OCTO_WIRE_MAGIC);
	pl.flow_id = rte_cpu_to_be_32(flow);
	pl.seq = rte_cpu_to_be_64(seq);
	memcpy(buf + g->pay_off, &pl, sizeof(pl));
	memset(buf + g->pay_off + sizeof(pl), 0, len - g->pay_off - sizeof(pl));

	if (g->conf.l4_proto == IPPROTO_SCTP) {
		rte_le32_t crc = sctp_crc32c(buf + g->l4_off, len - g->l4_off);

		memcpy(buf + g->cksum_off, &crc, sizeof(crc));
		goto done;
	}
	sum = g->l4_sum + sport + words32(pl.flow_id) + words64(pl.seq);
	if (g->conf.l4_proto != IPPROTO_ICMP)
		sum += words32(src);	/* in the pseudo header */
	if (g->icmp_seq_off != 0) {
		rte_be16_t iseq = rte_cpu_to_be_16((uint16_t)seq);

		memcpy(buf + g->icmp_seq_off, &iseq, sizeof(iseq));
		sum += iseq;
	}
	ck = (rte_be16_t)~octo_wire_fold(sum);
	/* UDP sends "no checksum" as 0: a computed 0 goes out as 0xffff */
	if (ck == 0 && g->conf.l4_proto == IPPROTO_UDP)
		ck = 0xffff;
	memcpy(buf + g->cksum_off, &ck, sizeof(ck));
done:
	rte_atomic_store_explicit(&g->count, g->count + 1, rte_memory_order_relaxed);
	return len;
}

uint64_t
octo_gen_count(const struct octo_gen *g)
{
	return rte_atomic_load_explicit(&g->count, rte_memory_order_relaxed);
}
