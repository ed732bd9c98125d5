/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef ESWITCH_TEST_UTIL_H
#define ESWITCH_TEST_UTIL_H

/* Shared by the e-switch EAL test and benchmark: packet and rule builders. */

#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_flow.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_udp.h>
#include <octopus_dpdk_compat.h>

#include "../common/octo_flow_rule.h"

/*
 * A fresh mbuf of @p len zeroed bytes but the Ethernet header's type,
 * @p type; NULL if the pool or the mbuf's room ran out.
 */
static inline struct rte_mbuf *
mk_eth(struct rte_mempool *mp, uint16_t len, uint16_t type)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(mp);

	if (m == NULL)
		return NULL;
	if (rte_pktmbuf_append(m, len) == NULL) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	memset(rte_pktmbuf_mtod(m, void *), 0, len);
	rte_pktmbuf_mtod(m, struct rte_ether_hdr *)->ether_type = rte_cpu_to_be_16(type);
	return m;
}

/*
 * An Ethernet/IPv4/UDP frame of @p len bytes in a fresh mbuf, zeroes
 * after the headers (no checksum, no UDP length).
 */
static inline struct rte_mbuf *
mk_udp4_len(struct rte_mempool *mp, uint16_t len, uint32_t src, uint32_t dst, uint16_t sp,
		uint16_t dp)
{
	struct rte_mbuf *m = mk_eth(mp, len, RTE_ETHER_TYPE_IPV4);
	struct rte_ether_hdr *e;
	struct rte_ipv4_hdr *ip;
	struct rte_udp_hdr *u;

	if (m == NULL)
		return NULL;
	e = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	e->dst_addr.addr_bytes[0] = 0x02;
	e->src_addr.addr_bytes[0] = 0x02;
	e->src_addr.addr_bytes[5] = 1;
	ip = (struct rte_ipv4_hdr *)(e + 1);
	ip->version_ihl = 0x45;
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_UDP;
	ip->total_length = rte_cpu_to_be_16(len - sizeof(*e));
	ip->src_addr = rte_cpu_to_be_32(src);
	ip->dst_addr = rte_cpu_to_be_32(dst);
	u = (struct rte_udp_hdr *)(ip + 1);
	u->src_port = rte_cpu_to_be_16(sp);
	u->dst_port = rte_cpu_to_be_16(dp);
	return m;
}

/* An Ethernet/IPv4/UDP frame in a fresh mbuf (64-byte frame). */
static inline struct rte_mbuf *
mk_udp4(struct rte_mempool *mp, uint32_t src, uint32_t dst, uint16_t sp,
		uint16_t dp)
{
	return mk_udp4_len(mp, 64, src, dst, sp, dp);
}

/* An Ethernet/IPv6/UDP frame (80 bytes); addresses 2001:db8::<src>, fe80::<dst>. */
static inline struct rte_mbuf *
mk_udp6(struct rte_mempool *mp, uint8_t src, uint8_t dst, uint16_t sp, uint16_t dp)
{
	struct rte_mbuf *m = mk_eth(mp, 80, RTE_ETHER_TYPE_IPV6);
	struct rte_ipv6_hdr *ip;
	struct rte_udp_hdr *u;

	if (m == NULL)
		return NULL;
	ip = rte_pktmbuf_mtod_offset(m, struct rte_ipv6_hdr *, sizeof(struct rte_ether_hdr));
	ip->vtc_flow = rte_cpu_to_be_32(6u << 28);
	ip->proto = IPPROTO_UDP;
	ip->hop_limits = 64;
	ip->payload_len = rte_cpu_to_be_16(80 - sizeof(struct rte_ether_hdr) - sizeof(*ip));
	OCTO_IPV6_BYTES(ip->src_addr)[0] = 0x20;
	OCTO_IPV6_BYTES(ip->src_addr)[1] = 0x01;
	OCTO_IPV6_BYTES(ip->src_addr)[2] = 0x0d;
	OCTO_IPV6_BYTES(ip->src_addr)[3] = 0xb8;
	OCTO_IPV6_BYTES(ip->src_addr)[15] = src;
	OCTO_IPV6_BYTES(ip->dst_addr)[0] = 0xfe;
	OCTO_IPV6_BYTES(ip->dst_addr)[1] = 0x80;
	OCTO_IPV6_BYTES(ip->dst_addr)[15] = dst;
	u = (struct rte_udp_hdr *)(ip + 1);
	u->src_port = rte_cpu_to_be_16(sp);
	u->dst_port = rte_cpu_to_be_16(dp);
	return m;
}

/* @p p: eth/ipv4/udp with the exact 5-tuple (proto implied by the item). */
static inline void
mk_5tuple_pat(struct octo_udp_match *p, uint32_t src, uint32_t dst, uint16_t sp,
		uint16_t dp)
{
	octo_udp_match_init(p);
	p->ip.hdr.src_addr = rte_cpu_to_be_32(src);
	p->ip.hdr.dst_addr = rte_cpu_to_be_32(dst);
	p->ip_mask.hdr.src_addr = RTE_BE32(0xffffffff);
	p->ip_mask.hdr.dst_addr = RTE_BE32(0xffffffff);
	p->udp.hdr.src_port = rte_cpu_to_be_16(sp);
	p->udp.hdr.dst_port = rte_cpu_to_be_16(dp);
	p->udp_mask.hdr.src_port = RTE_BE16(0xffff);
	p->udp_mask.hdr.dst_port = RTE_BE16(0xffff);
}

#endif /* ESWITCH_TEST_UTIL_H */
