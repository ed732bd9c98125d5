/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/* Frame -> flow key.  Bounds are checked at every header; a short or
 * unknown layer ends the parse with what was found so far, because a NIC
 * classifies every frame, it never rejects one for being odd.
 */

#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_icmp.h>
#include <rte_ip.h>
#include <rte_sctp.h>
#include <rte_tcp.h>
#include <rte_udp.h>

#include "octo_classifier.h"

/* IPv6 extension headers walked over to reach the L4 header. */
#define IP6_HOPOPTS	0
#define IP6_ROUTING	43
#define IP6_FRAGMENT	44
#define IP6_DSTOPTS	60
#define IP6_MAX_EXT	4

/* ICMPv6 header: type, code, checksum; the rest depends on the type. */
#define ICMP6_HDR_LEN 4

/* ICMP is parsed over IPv4 and ICMPv6 over IPv6 only (@p v6), as a NIC
 * does: protocol 58 in an IPv4 header is not ICMPv6.
 */
static void
parse_l4(const uint8_t *p, uint32_t left, uint8_t proto, int v6,
		struct octo_flow_key *key)
{
	if (proto == IPPROTO_TCP && left >= sizeof(struct rte_tcp_hdr)) {
		const struct rte_tcp_hdr *t = (const struct rte_tcp_hdr *)p;

		key->layers |= OCTO_L_TCP;
		key->src_port = t->src_port;
		key->dst_port = t->dst_port;
		key->tcp_flags = t->tcp_flags;
	} else if (proto == IPPROTO_UDP && left >= sizeof(struct rte_udp_hdr)) {
		const struct rte_udp_hdr *u = (const struct rte_udp_hdr *)p;

		key->layers |= OCTO_L_UDP;
		key->src_port = u->src_port;
		key->dst_port = u->dst_port;
	} else if (proto == IPPROTO_SCTP && left >= sizeof(struct rte_sctp_hdr)) {
		const struct rte_sctp_hdr *s = (const struct rte_sctp_hdr *)p;

		key->layers |= OCTO_L_SCTP;
		key->src_port = s->src_port;
		key->dst_port = s->dst_port;
	} else if (!v6 && proto == IPPROTO_ICMP &&
			left >= sizeof(struct rte_icmp_hdr)) {
		const struct rte_icmp_hdr *c = (const struct rte_icmp_hdr *)p;

		key->layers |= OCTO_L_ICMP;
		key->icmp_type = c->icmp_type;
		key->icmp_code = c->icmp_code;
		key->icmp_ident = c->icmp_ident;
		key->icmp_seq = c->icmp_seq_nb;
	} else if (v6 && proto == IPPROTO_ICMPV6 && left >= ICMP6_HDR_LEN) {
		key->layers |= OCTO_L_ICMP6;
		key->icmp_type = p[0];
		key->icmp_code = p[1];
	}
}

static void
parse_ipv4(const uint8_t *p, uint32_t left, struct octo_flow_key *key)
{
	const struct rte_ipv4_hdr *ip = (const struct rte_ipv4_hdr *)p;
	uint16_t frag;
	uint32_t ihl;

	if (left < sizeof(*ip) || (ip->version_ihl >> 4) != 4)
		return;
	ihl = (ip->version_ihl & 0xf) * 4u;
	if (ihl < sizeof(*ip) || ihl > left)
		return;
	key->layers |= OCTO_L_IPV4;
	key->ip_proto = ip->next_proto_id;
	key->ip_tos = ip->type_of_service;
	key->ip_ttl = ip->time_to_live;
	memcpy(key->ip_src, &ip->src_addr, 4);
	memcpy(key->ip_dst, &ip->dst_addr, 4);
	key->ip_frag = ip->fragment_offset;
	frag = rte_be_to_cpu_16(ip->fragment_offset);
	if ((frag & (RTE_IPV4_HDR_MF_FLAG | RTE_IPV4_HDR_OFFSET_MASK)) != 0)
		key->layers |= OCTO_L_FRAG;
	/* Only the first fragment carries the L4 header. */
	if ((frag & RTE_IPV4_HDR_OFFSET_MASK) != 0) {
		key->layers |= OCTO_L_FRAG_LATER;
		return;
	}
	parse_l4(p + ihl, left - ihl, ip->next_proto_id, 0, key);
}

static void
parse_ipv6(const uint8_t *p, uint32_t left, struct octo_flow_key *key)
{
	const struct rte_ipv6_hdr *ip = (const struct rte_ipv6_hdr *)p;
	uint32_t vtc;
	uint8_t nh;
	int i;

	if (left < sizeof(*ip))
		return;
	vtc = rte_be_to_cpu_32(ip->vtc_flow);
	if ((vtc >> 28) != 6)
		return;
	key->layers |= OCTO_L_IPV6;
	key->ip_tos = (uint8_t)(vtc >> 20);
	key->ip_ttl = ip->hop_limits;
	memcpy(key->ip_src, &ip->src_addr, 16);
	memcpy(key->ip_dst, &ip->dst_addr, 16);
	nh = ip->proto;
	p += sizeof(*ip);
	left -= sizeof(*ip);
	/* The key's protocol is the upper-layer one, as a NIC reports it. */
	for (i = 0; i < IP6_MAX_EXT; i++) {
		uint32_t len;

		if (nh != IP6_HOPOPTS && nh != IP6_ROUTING && nh != IP6_DSTOPTS &&
				nh != IP6_FRAGMENT)
			break;
		if (left < 8)
			break;
		if (nh == IP6_FRAGMENT) {
			uint16_t off = (uint16_t)(p[2] << 8 | p[3]);

			nh = p[0];
			key->ip_proto = nh;
			if ((off & 0xfff8) != 0)
				return; /* not the first fragment: no L4 */
			len = 8;
		} else {
			len = (p[1] + 1u) * 8u;
			nh = p[0];
		}
		if (len > left)
			return;
		p += len;
		left -= len;
	}
	key->ip_proto = nh;
	parse_l4(p, left, nh, 1, key);
}

void
octo_flow_key_parse(const uint8_t *frame, uint32_t len, uint32_t meta,
		struct octo_flow_key *key)
{
	const struct rte_ether_hdr *eth = (const struct rte_ether_hdr *)frame;
	uint32_t off = sizeof(*eth);
	uint16_t type;
	int tags = 0;

	memset(key, 0, sizeof(*key));
	key->meta = meta;
	if (len < sizeof(*eth))
		return;
	key->layers = OCTO_L_ETH;
	memcpy(key->eth_dst, &eth->dst_addr, 6);
	memcpy(key->eth_src, &eth->src_addr, 6);
	key->eth_type = eth->ether_type;
	type = rte_be_to_cpu_16(eth->ether_type);
	/* Walk all VLAN tags (QinQ too) but keep only the outer one. */
	while ((type == RTE_ETHER_TYPE_VLAN || type == RTE_ETHER_TYPE_QINQ) &&
			off + sizeof(struct rte_vlan_hdr) <= len && tags < 2) {
		const struct rte_vlan_hdr *v =
			(const struct rte_vlan_hdr *)(frame + off);

		if (tags == 0) {
			key->layers |= OCTO_L_VLAN;
			key->vlan_tci = v->vlan_tci;
			key->vlan_inner_type = v->eth_proto;
		}
		type = rte_be_to_cpu_16(v->eth_proto);
		off += sizeof(*v);
		tags++;
	}
	if (type == RTE_ETHER_TYPE_IPV4)
		parse_ipv4(frame + off, len - off, key);
	else if (type == RTE_ETHER_TYPE_IPV6)
		parse_ipv6(frame + off, len - off, key);
}
