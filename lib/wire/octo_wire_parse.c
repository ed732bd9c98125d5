/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#include <netinet/in.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf_ptype.h>

#include "octo_wire_parse.h"

/* Bounded so that a frame made of extension headers cannot loop us long. */
#define IPV6_EXT_MAX 8

static uint16_t
read_be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t
l4_ptype(uint8_t proto)
{
	switch (proto) {
	case IPPROTO_TCP:
		return RTE_PTYPE_L4_TCP;
	case IPPROTO_UDP:
		return RTE_PTYPE_L4_UDP;
	case IPPROTO_SCTP:
		return RTE_PTYPE_L4_SCTP;
	case IPPROTO_ICMP:
	case IPPROTO_ICMPV6:
		return RTE_PTYPE_L4_ICMP;
	default:
		return RTE_PTYPE_L4_NONFRAG;
	}
}

/* Returns the L2 length, or 0 when the frame is not IP (ptype set). */
static uint16_t
parse_l2(const uint8_t *frame, uint32_t len, struct octo_wire_hdrs *h,
		uint16_t *ether_type)
{
	uint16_t off = RTE_ETHER_HDR_LEN;
	uint16_t type;
	unsigned int tags = 0;

	if (len < RTE_ETHER_HDR_LEN)
		return 0;
	type = read_be16(frame + 2 * RTE_ETHER_ADDR_LEN);
	h->ptype = RTE_PTYPE_L2_ETHER;
	/* At most two tags: 802.1Q, or 802.1ad S-tag then C-tag. */
	while ((type == RTE_ETHER_TYPE_VLAN || type == RTE_ETHER_TYPE_QINQ) &&
			tags < 2) {
		if (len < (uint32_t)off + RTE_VLAN_HLEN)
			return 0;
		type = read_be16(frame + off + 2);
		off += RTE_VLAN_HLEN;
		tags++;
	}
	if (tags == 1)
		h->ptype = RTE_PTYPE_L2_ETHER_VLAN;
	else if (tags == 2)
		h->ptype = RTE_PTYPE_L2_ETHER_QINQ;
	else if (type == RTE_ETHER_TYPE_ARP)
		h->ptype = RTE_PTYPE_L2_ETHER_ARP;
	else if (type == RTE_ETHER_TYPE_LLDP)
		h->ptype = RTE_PTYPE_L2_ETHER_LLDP;
	else if (type == RTE_ETHER_TYPE_1588)
		h->ptype = RTE_PTYPE_L2_ETHER_TIMESYNC;
	*ether_type = type;
	return off;
}

static void
parse_ipv4(const uint8_t *frame, uint32_t len, struct octo_wire_hdrs *h)
{
	const struct rte_ipv4_hdr *ip;
	uint32_t ihl, total, frag;

	if (len < (uint32_t)h->l2_len + sizeof(*ip))
		return;
	ip = (const struct rte_ipv4_hdr *)(frame + h->l2_len);
	ihl = (uint32_t)(ip->version_ihl & RTE_IPV4_HDR_IHL_MASK) *
		RTE_IPV4_IHL_MULTIPLIER;
	if ((ip->version_ihl >> 4) != 4 || ihl < sizeof(*ip) ||
			len < h->l2_len + ihl)
		return;
	h->ip_version = 4;
	h->l3_len = (uint16_t)ihl;
	h->l4_proto = ip->next_proto_id;
	h->ptype |= ihl == sizeof(*ip) ? RTE_PTYPE_L3_IPV4 : RTE_PTYPE_L3_IPV4_EXT;
	frag = rte_be_to_cpu_16(ip->fragment_offset);
	if ((frag & (RTE_IPV4_HDR_MF_FLAG | RTE_IPV4_HDR_OFFSET_MASK)) != 0) {
		h->frag = 1;
		h->ptype |= RTE_PTYPE_L4_FRAG;
		return;
	}
	h->ptype |= l4_ptype(h->l4_proto);
	total = rte_be_to_cpu_16(ip->total_length);
	if (total >= ihl) {
		h->l4_len = total - ihl;
		h->l4_fits = (uint32_t)h->l2_len + total <= len;
	}
}

static void
parse_ipv6(const uint8_t *frame, uint32_t len, struct octo_wire_hdrs *h)
{
	const struct rte_ipv6_hdr *ip;
	uint32_t off, payload;
	uint8_t proto;
	unsigned int n;

	if (len < (uint32_t)h->l2_len + sizeof(*ip))
		return;
	ip = (const struct rte_ipv6_hdr *)(frame + h->l2_len);
	if ((rte_be_to_cpu_32(ip->vtc_flow) >> 28) != 6)
		return;
	h->ip_version = 6;
	proto = ip->proto;
	off = h->l2_len + sizeof(*ip);
	for (n = 0; n < IPV6_EXT_MAX; n++) {
		const uint8_t *ext = frame + off;

		if (proto != IPPROTO_HOPOPTS && proto != IPPROTO_ROUTING &&
				proto != IPPROTO_DSTOPTS && proto != IPPROTO_FRAGMENT)
			break;
		if (len < off + 8)
			return;
		if (proto == IPPROTO_FRAGMENT) {
			/* offset or more-fragments set: a real fragment */
			if ((read_be16(ext + 2) & 0xfff9) != 0)
				h->frag = 1;
			off += 8;
		} else {
			off += (ext[1] + 1u) * 8;
		}
		proto = ext[0];
		if (off > len)
			return;
	}
	if (n == IPV6_EXT_MAX)
		return;
	h->l3_len = (uint16_t)(off - h->l2_len);
	h->l4_proto = proto;
	h->ptype |= h->l3_len == sizeof(*ip) ? RTE_PTYPE_L3_IPV6 : RTE_PTYPE_L3_IPV6_EXT;
	if (h->frag) {
		h->ptype |= RTE_PTYPE_L4_FRAG;
		return;
	}
	h->ptype |= l4_ptype(proto);
	payload = rte_be_to_cpu_16(ip->payload_len);
	if (payload + sizeof(*ip) >= h->l3_len) {
		h->l4_len = payload + sizeof(*ip) - h->l3_len;
		h->l4_fits = (uint32_t)h->l2_len + sizeof(*ip) + payload <= len;
	}
}

void
octo_wire_parse(const uint8_t *frame, uint32_t len, struct octo_wire_hdrs *h)
{
	uint16_t type = 0;

	memset(h, 0, sizeof(*h));
	h->l2_len = parse_l2(frame, len, h, &type);
	if (h->l2_len == 0)
		return;
	if (type == RTE_ETHER_TYPE_IPV4)
		parse_ipv4(frame, len, h);
	else if (type == RTE_ETHER_TYPE_IPV6)
		parse_ipv6(frame, len, h);
}

uint32_t
octo_wire_pseudo_sum(const void *l3, uint8_t ip_version, uint8_t proto,
		uint32_t l4_len)
{
	uint32_t sum;

	/* Pseudo-header words as they would sit in memory: sum in memory order. */
	if (ip_version == 4) {
		const struct rte_ipv4_hdr *ip = l3;

		sum = __rte_raw_cksum(&ip->src_addr, 2 * sizeof(ip->src_addr), 0);
		sum += rte_cpu_to_be_16((uint16_t)l4_len);
	} else {
		const struct rte_ipv6_hdr *ip = l3;
		rte_be32_t len_be = rte_cpu_to_be_32(l4_len);

		sum = __rte_raw_cksum(&ip->src_addr, 2 * sizeof(ip->src_addr), 0);
		sum += __rte_raw_cksum(&len_be, sizeof(len_be), 0);
	}
	sum += rte_cpu_to_be_16(proto);
	return sum;
}

uint32_t
octo_wire_raw_sum(const void *buf, uint32_t len, uint32_t sum)
{
	const uint8_t *p = buf;
	uint64_t acc = sum, carry = 0, q;
	uint32_t w;
	uint16_t h;

	/*
	 * End-around carry makes a sum of 64-bit words (carries out of bit 63
	 * counted apart and added back) fold to the sum of their 16-bit parts.
	 */
	for (; len >= 8; len -= 8, p += 8) {
		memcpy(&q, p, sizeof(q));
		acc += q;
		carry += acc < q;
	}
	acc = (acc >> 32) + (acc & 0xffffffff) + carry;
	if (len >= 4) {
		memcpy(&w, p, sizeof(w));
		acc += w;
		len -= 4;
		p += 4;
	}
	if (len >= 2) {
		memcpy(&h, p, sizeof(h));
		acc += h;
		len -= 2;
		p += 2;
	}
	if (len == 1) {
		h = 0;
		memcpy(&h, p, 1);	/* the byte in its memory-order lane */
		acc += h;
	}
	acc = (acc >> 32) + (acc & 0xffffffff);
	acc = (acc >> 32) + (acc & 0xffffffff);
	return octo_wire_fold((uint32_t)acc);
}
