/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/* Unit tests of lib/classifier, no EAL: frame parsing, pattern -> match
 * (and its refusals), masked matching, the text form.
 */

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_icmp.h>
#include <rte_ip.h>
#include <rte_sctp.h>
#include <rte_tcp.h>
#include <rte_udp.h>
#include <octopus_dpdk_compat.h>

#include "octo_classifier.h"

/* ---- frame builders ---- */

static const uint8_t mac_a[6] = { 0x02, 0, 0, 0, 0, 0x0a };
static const uint8_t mac_b[6] = { 0x02, 0, 0, 0, 0, 0x0b };

static size_t
put_eth(uint8_t *p, uint16_t type)
{
	struct rte_ether_hdr *e = (struct rte_ether_hdr *)p;

	memcpy(&e->dst_addr, mac_a, 6);
	memcpy(&e->src_addr, mac_b, 6);
	e->ether_type = rte_cpu_to_be_16(type);
	return sizeof(*e);
}

static size_t
put_vlan(uint8_t *p, uint16_t tci, uint16_t inner)
{
	struct rte_vlan_hdr *v = (struct rte_vlan_hdr *)p;

	v->vlan_tci = rte_cpu_to_be_16(tci);
	v->eth_proto = rte_cpu_to_be_16(inner);
	return sizeof(*v);
}

static size_t
put_ipv4(uint8_t *p, uint32_t src, uint32_t dst, uint8_t proto, uint16_t frag)
{
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)p;

	memset(ip, 0, sizeof(*ip));
	ip->version_ihl = 0x45;
	ip->type_of_service = 0x2c;
	ip->time_to_live = 61;
	ip->next_proto_id = proto;
	ip->fragment_offset = rte_cpu_to_be_16(frag);
	ip->src_addr = rte_cpu_to_be_32(src);
	ip->dst_addr = rte_cpu_to_be_32(dst);
	return sizeof(*ip);
}

static size_t
put_ipv6(uint8_t *p, uint8_t last_src, uint8_t nh, uint8_t tc)
{
	struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)p;

	memset(ip, 0, sizeof(*ip));
	ip->vtc_flow = rte_cpu_to_be_32(6u << 28 | (uint32_t)tc << 20 | 0x12345);
	ip->proto = nh;
	ip->hop_limits = 17;
	OCTO_IPV6_BYTES(ip->src_addr)[0] = 0x20;
	OCTO_IPV6_BYTES(ip->src_addr)[1] = 0x01;
	OCTO_IPV6_BYTES(ip->src_addr)[15] = last_src;
	OCTO_IPV6_BYTES(ip->dst_addr)[0] = 0xfe;
	OCTO_IPV6_BYTES(ip->dst_addr)[15] = 0x99;
	return sizeof(*ip);
}

static size_t
put_udp(uint8_t *p, uint16_t sp, uint16_t dp)
{
	struct rte_udp_hdr *u = (struct rte_udp_hdr *)p;

	memset(u, 0, sizeof(*u));
	u->src_port = rte_cpu_to_be_16(sp);
	u->dst_port = rte_cpu_to_be_16(dp);
	return sizeof(*u);
}

static size_t
put_tcp(uint8_t *p, uint16_t sp, uint16_t dp, uint8_t flags)
{
	struct rte_tcp_hdr *t = (struct rte_tcp_hdr *)p;

	memset(t, 0, sizeof(*t));
	t->src_port = rte_cpu_to_be_16(sp);
	t->dst_port = rte_cpu_to_be_16(dp);
	t->data_off = 0x50;
	t->tcp_flags = flags;
	return sizeof(*t);
}

static size_t
frame_v4_udp(uint8_t *f, uint32_t src, uint32_t dst, uint16_t sp, uint16_t dp)
{
	size_t n = put_eth(f, RTE_ETHER_TYPE_IPV4);

	n += put_ipv4(f + n, src, dst, IPPROTO_UDP, 0);
	n += put_udp(f + n, sp, dp);
	return n + 8;
}

/* ---- parsing ---- */

static void
test_parse_ipv4_udp(void **state)
{
	uint8_t f[128] = { 0 };
	struct octo_flow_key k;
	size_t n = frame_v4_udp(f, 0x0a000001, 0x0a000002, 1234, 53);
	uint8_t src[4] = { 10, 0, 0, 1 }, dst[4] = { 10, 0, 0, 2 };

	(void)state;
	octo_flow_key_parse(f, n, 77, &k);
	assert_int_equal(k.layers, OCTO_L_ETH | OCTO_L_IPV4 | OCTO_L_UDP);
	assert_int_equal(k.meta, 77);
	assert_memory_equal(k.eth_dst, mac_a, 6);
	assert_memory_equal(k.eth_src, mac_b, 6);
	assert_int_equal(rte_be_to_cpu_16(k.eth_type), RTE_ETHER_TYPE_IPV4);
	assert_memory_equal(k.ip_src, src, 4);
	assert_memory_equal(k.ip_dst, dst, 4);
	assert_int_equal(k.ip_src[4], 0);
	assert_int_equal(k.ip_proto, IPPROTO_UDP);
	assert_int_equal(k.ip_tos, 0x2c);
	assert_int_equal(k.ip_ttl, 61);
	assert_int_equal(rte_be_to_cpu_16(k.src_port), 1234);
	assert_int_equal(rte_be_to_cpu_16(k.dst_port), 53);
}

static void
test_parse_vlan_tcp(void **state)
{
	uint8_t f[128] = { 0 };
	struct octo_flow_key k;
	size_t n = put_eth(f, RTE_ETHER_TYPE_VLAN);

	(void)state;
	n += put_vlan(f + n, 0x2064, RTE_ETHER_TYPE_IPV4);
	n += put_ipv4(f + n, 1, 2, IPPROTO_TCP, 0);
	n += put_tcp(f + n, 80, 4000, RTE_TCP_SYN_FLAG | RTE_TCP_ACK_FLAG);
	octo_flow_key_parse(f, n, 0, &k);
	assert_int_equal(k.layers, OCTO_L_ETH | OCTO_L_VLAN | OCTO_L_IPV4 | OCTO_L_TCP);
	assert_int_equal(rte_be_to_cpu_16(k.eth_type), RTE_ETHER_TYPE_VLAN);
	assert_int_equal(rte_be_to_cpu_16(k.vlan_tci), 0x2064);
	assert_int_equal(rte_be_to_cpu_16(k.vlan_inner_type), RTE_ETHER_TYPE_IPV4);
	assert_int_equal(k.tcp_flags, RTE_TCP_SYN_FLAG | RTE_TCP_ACK_FLAG);
	assert_int_equal(rte_be_to_cpu_16(k.src_port), 80);
	assert_int_equal(rte_be_to_cpu_16(k.dst_port), 4000);
}

static void
test_parse_qinq_outer_tag_only(void **state)
{
	uint8_t f[128] = { 0 };
	struct octo_flow_key k;
	size_t n = put_eth(f, RTE_ETHER_TYPE_QINQ);

	(void)state;
	n += put_vlan(f + n, 100, RTE_ETHER_TYPE_VLAN);
	n += put_vlan(f + n, 200, RTE_ETHER_TYPE_IPV4);
	n += put_ipv4(f + n, 1, 2, IPPROTO_UDP, 0);
	n += put_udp(f + n, 7, 8);
	octo_flow_key_parse(f, n, 0, &k);
	assert_int_equal(rte_be_to_cpu_16(k.vlan_tci), 100);
	assert_true((k.layers & OCTO_L_UDP) != 0);
	assert_int_equal(rte_be_to_cpu_16(k.dst_port), 8);
}

static void
test_parse_ipv6_udp_and_ext(void **state)
{
	uint8_t f[160] = { 0 };
	struct octo_flow_key k;
	size_t n = put_eth(f, RTE_ETHER_TYPE_IPV6);

	(void)state;
	/* IPv6, hop-by-hop options (8 bytes), then UDP. */
	n += put_ipv6(f + n, 0x42, 0, 0xb8);
	f[n] = IPPROTO_UDP;
	f[n + 1] = 0;
	n += 8;
	n += put_udp(f + n, 5000, 6000);
	octo_flow_key_parse(f, n, 0, &k);
	assert_int_equal(k.layers, OCTO_L_ETH | OCTO_L_IPV6 | OCTO_L_UDP);
	assert_int_equal(k.ip_proto, IPPROTO_UDP);
	assert_int_equal(k.ip_tos, 0xb8);
	assert_int_equal(k.ip_ttl, 17);
	assert_int_equal(k.ip_src[0], 0x20);
	assert_int_equal(k.ip_src[15], 0x42);
	assert_int_equal(k.ip_dst[15], 0x99);
	assert_int_equal(rte_be_to_cpu_16(k.src_port), 5000);
}

static void
test_parse_arp_and_truncated(void **state)
{
	uint8_t f[128] = { 0 };
	struct octo_flow_key k;
	size_t n = put_eth(f, RTE_ETHER_TYPE_ARP);

	(void)state;
	octo_flow_key_parse(f, n + 28, 0, &k);
	assert_int_equal(k.layers, OCTO_L_ETH);
	assert_int_equal(rte_be_to_cpu_16(k.eth_type), RTE_ETHER_TYPE_ARP);
	assert_int_equal(k.ip_proto, 0);
	/* IPv4 header cut short: ETH only, no garbage. */
	n = frame_v4_udp(f, 1, 2, 3, 4);
	octo_flow_key_parse(f, 14 + 10, 0, &k);
	assert_int_equal(k.layers, OCTO_L_ETH);
	/* UDP cut short: L3 but no L4. */
	octo_flow_key_parse(f, 14 + 20 + 4, 0, &k);
	assert_int_equal(k.layers, OCTO_L_ETH | OCTO_L_IPV4);
	assert_int_equal(k.src_port, 0);
	/* Less than an Ethernet header: nothing. */
	octo_flow_key_parse(f, 10, 0, &k);
	assert_int_equal(k.layers, 0);
}

static void
test_parse_fragment_has_no_l4(void **state)
{
	uint8_t f[128] = { 0 };
	struct octo_flow_key k;
	size_t n = put_eth(f, RTE_ETHER_TYPE_IPV4);

	(void)state;
	n += put_ipv4(f + n, 1, 2, IPPROTO_UDP, 100); /* offset 800 bytes */
	n += put_udp(f + n, 1, 2);
	octo_flow_key_parse(f, n, 0, &k);
	assert_int_equal(k.layers, OCTO_L_ETH | OCTO_L_IPV4 | OCTO_L_FRAG |
		OCTO_L_FRAG_LATER);
	assert_int_equal(k.ip_proto, IPPROTO_UDP);
	assert_int_equal(rte_be_to_cpu_16(k.ip_frag), 100);
}

/* ---- IPv4 fragments ---- */

/* An IPv4/UDP frame whose fragment_offset field is @p frag. */
static void
frag_key(uint16_t frag, struct octo_flow_key *k)
{
	uint8_t f[128] = { 0 };
	size_t n = put_eth(f, RTE_ETHER_TYPE_IPV4);

	n += put_ipv4(f + n, 0x0a000001, 0x0a000002, IPPROTO_UDP, frag);
	n += put_udp(f + n, 1, 2);
	octo_flow_key_parse(f, n + 8, 0, k);
}

/* Which of the frames (DF only, MF alone: first fragment, MF with an
 * offset, last fragment, none) @p pat matches, as a bit per frame. */
static int
frag_matches(const struct rte_flow_item *pat)
{
	static const uint16_t frames[] = {
		RTE_IPV4_HDR_DF_FLAG, RTE_IPV4_HDR_MF_FLAG, RTE_IPV4_HDR_MF_FLAG | 185,
		370, 0,
	};
	struct octo_flow_key k;
	struct octo_match m;
	unsigned int i;
	int hits = 0;

	assert_int_equal(octo_match_from_pattern(pat, &m, NULL), 0);
	for (i = 0; i < RTE_DIM(frames); i++) {
		frag_key(frames[i], &k);
		if (octo_match_test(&m, &k))
			hits |= 1 << i;
	}
	return hits;
}

/* What OVS asks (lib/netdev-offload-dpdk.c, parse_flow_match) for frag=no,
 * frag=first and frag=later, and the range mlx5 takes ("a fragment"). */
static void
test_pattern_ipv4_fragments(void **state)
{
	struct rte_flow_item_ipv4 ip = { 0 }, ipm = { 0 }, ipl = { 0 };
	struct rte_flow_item pat[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4, .spec = &ip, .mask = &ipm },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct octo_flow_key k;

	(void)state;
	frag_key(RTE_IPV4_HDR_DF_FLAG, &k);
	assert_int_equal(k.layers, OCTO_L_ETH | OCTO_L_IPV4 | OCTO_L_UDP);
	frag_key(RTE_IPV4_HDR_MF_FLAG, &k);
	assert_int_equal(k.layers, OCTO_L_ETH | OCTO_L_IPV4 | OCTO_L_UDP | OCTO_L_FRAG);
	/* frag=no: MF and offset zero, DF whatever it is */
	ipm.hdr.fragment_offset = RTE_BE16(0x3fff);
	assert_int_equal(frag_matches(pat), 1 << 0 | 1 << 4);
	/* frag=first: MF, offset zero */
	ip.hdr.fragment_offset = RTE_BE16(RTE_IPV4_HDR_MF_FLAG);
	assert_int_equal(frag_matches(pat), 1 << 1);
	/* a fragment: 1..0x3fff */
	ip.hdr.fragment_offset = RTE_BE16(1);
	ipl.hdr.fragment_offset = RTE_BE16(0x3fff);
	pat[1].last = &ipl;
	assert_int_equal(frag_matches(pat), 1 << 1 | 1 << 2 | 1 << 3);
	/* frag=later: offset 1..0x1fff */
	ipm.hdr.fragment_offset = RTE_BE16(0x1fff);
	ipl.hdr.fragment_offset = RTE_BE16(0x1fff);
	assert_int_equal(frag_matches(pat), 1 << 2 | 1 << 3);
	/* a last equal to the spec, or zero, makes no range */
	ipl.hdr.fragment_offset = ip.hdr.fragment_offset;
	ipl.hdr.src_addr = RTE_BE32(0x01020304);
	assert_int_equal(frag_matches(pat), 0);
	ip.hdr.fragment_offset = RTE_BE16(185);
	ipl.hdr.fragment_offset = 0;
	assert_int_equal(frag_matches(pat), 1 << 2);
	/* DF under its own mask: a masked compare like any field */
	ip.hdr.fragment_offset = RTE_BE16(RTE_IPV4_HDR_DF_FLAG);
	ipm.hdr.fragment_offset = RTE_BE16(RTE_IPV4_HDR_DF_FLAG);
	pat[1].last = NULL;
	assert_int_equal(frag_matches(pat), 1 << 0);
}

static void
test_pattern_ipv4_fragment_refusals(void **state)
{
	struct rte_flow_item_ipv4 ip = { .hdr = { .fragment_offset = RTE_BE16(1) } };
	struct rte_flow_item_ipv4 ipm = { .hdr = { .fragment_offset = RTE_BE16(0x3fff) } };
	struct rte_flow_item_ipv4 ipl = { .hdr = { .fragment_offset = RTE_BE16(0x1fff) } };
	struct rte_flow_item pat[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4, .spec = &ip, .mask = &ipm, .last = &ipl },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct octo_cls_error err;
	struct octo_match m;

	(void)state;
	/* 1..0x1fff under 0x3fff: neither "a fragment" nor "a later one" */
	assert_int_equal(octo_match_from_pattern(pat, &m, &err), -ENOTSUP);
	assert_int_equal(err.item, 1);
	assert_non_null(strstr(err.msg, "fragment_offset range"));
	/* 2..0x3fff */
	ip.hdr.fragment_offset = RTE_BE16(2);
	ipl.hdr.fragment_offset = RTE_BE16(0x3fff);
	assert_int_equal(octo_match_from_pattern(pat, &m, &err), -ENOTSUP);
	/* a range on another field */
	ip.hdr.fragment_offset = RTE_BE16(1);
	ipm.hdr.dst_addr = RTE_BE32(0xffffffff);
	ipl.hdr.dst_addr = RTE_BE32(0x0a0000ff);
	assert_int_equal(octo_match_from_pattern(pat, &m, &err), -ENOTSUP);
	assert_non_null(strstr(err.msg, "only on fragment_offset"));
}

/* ---- pattern -> match ---- */

static void
test_pattern_5tuple_matches(void **state)
{
	struct rte_flow_item_ipv4 ip = { .hdr = {
		.src_addr = RTE_BE32(0x0a000001), .dst_addr = RTE_BE32(0x0a000002),
		.next_proto_id = IPPROTO_UDP } };
	struct rte_flow_item_ipv4 ipm = { .hdr = {
		.src_addr = RTE_BE32(0xffffffff), .dst_addr = RTE_BE32(0xffffffff),
		.next_proto_id = 0xff } };
	struct rte_flow_item_udp udp = { .hdr = {
		.src_port = RTE_BE16(1234), .dst_port = RTE_BE16(53) } };
	struct rte_flow_item pat[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4, .spec = &ip, .mask = &ipm },
		{ .type = RTE_FLOW_ITEM_TYPE_UDP, .spec = &udp },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct octo_cls_error err;
	struct octo_match m;
	struct octo_flow_key k;
	uint8_t f[128] = { 0 };
	size_t n;

	(void)state;
	assert_int_equal(octo_match_from_pattern(pat, &m, &err), 0);
	n = frame_v4_udp(f, 0x0a000001, 0x0a000002, 1234, 53);
	octo_flow_key_parse(f, n, 0, &k);
	assert_true(octo_match_test(&m, &k));
	/* Each field of the 5-tuple matters. */
	n = frame_v4_udp(f, 0x0a000003, 0x0a000002, 1234, 53);
	octo_flow_key_parse(f, n, 0, &k);
	assert_false(octo_match_test(&m, &k));
	n = frame_v4_udp(f, 0x0a000001, 0x0a000002, 1235, 53);
	octo_flow_key_parse(f, n, 0, &k);
	assert_false(octo_match_test(&m, &k));
	n = frame_v4_udp(f, 0x0a000001, 0x0a000002, 1234, 54);
	octo_flow_key_parse(f, n, 0, &k);
	assert_false(octo_match_test(&m, &k));
	/* Same addresses and ports over TCP: the UDP layer is required. */
	n = put_eth(f, RTE_ETHER_TYPE_IPV4);
	n += put_ipv4(f + n, 0x0a000001, 0x0a000002, IPPROTO_TCP, 0);
	n += put_tcp(f + n, 1234, 53, 0);
	octo_flow_key_parse(f, n, 0, &k);
	assert_false(octo_match_test(&m, &k));
	/* Metadata is ignored when not in the pattern. */
	n = frame_v4_udp(f, 0x0a000001, 0x0a000002, 1234, 53);
	octo_flow_key_parse(f, n, 0xdead, &k);
	assert_true(octo_match_test(&m, &k));
}

static void
test_pattern_partial_mask_and_meta(void **state)
{
	struct rte_flow_item_udp udp = { .hdr = { .src_port = RTE_BE16(0x0003) } };
	struct rte_flow_item_udp udpm = { .hdr = { .src_port = RTE_BE16(0x000f) } };
	struct rte_flow_item_meta meta = { .data = 7 };
	struct rte_flow_item pat[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_VOID },
		{ .type = RTE_FLOW_ITEM_TYPE_UDP, .spec = &udp, .mask = &udpm },
		{ .type = RTE_FLOW_ITEM_TYPE_META, .spec = &meta },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct octo_match m;
	struct octo_flow_key k;
	uint8_t f[128] = { 0 };
	size_t n;

	(void)state;
	assert_int_equal(octo_match_from_pattern(pat, &m, NULL), 0);
	assert_int_equal(m.mask.meta, 0xffffffff);
	n = frame_v4_udp(f, 1, 2, 0x1233, 9);	/* low nibble 3 */
	octo_flow_key_parse(f, n, 7, &k);
	assert_true(octo_match_test(&m, &k));
	octo_flow_key_parse(f, n, 8, &k);	/* wrong metadata */
	assert_false(octo_match_test(&m, &k));
	n = frame_v4_udp(f, 1, 2, 0x1234, 9);	/* low nibble 4 */
	octo_flow_key_parse(f, n, 7, &k);
	assert_false(octo_match_test(&m, &k));
}

static void
test_pattern_vlan_and_has_vlan(void **state)
{
	struct rte_flow_item_vlan vlan = { .hdr = { .vlan_tci = RTE_BE16(100) } };
	struct rte_flow_item_eth eth_novlan = { .has_vlan = 0 };
	struct rte_flow_item_eth eth_novlan_m = { .has_vlan = 1 };
	struct rte_flow_item pat_v[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_VLAN, .spec = &vlan },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_item pat_nv[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH, .spec = &eth_novlan,
			.mask = &eth_novlan_m },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4 },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_item pat_bad[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH, .spec = &eth_novlan,
			.mask = &eth_novlan_m },
		{ .type = RTE_FLOW_ITEM_TYPE_VLAN },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct octo_match mv, mnv;
	struct octo_cls_error err;
	struct octo_flow_key tagged, untagged;
	uint8_t f[128] = { 0 };
	size_t n;

	(void)state;
	n = put_eth(f, RTE_ETHER_TYPE_VLAN);
	n += put_vlan(f + n, 100, RTE_ETHER_TYPE_IPV4);
	n += put_ipv4(f + n, 1, 2, IPPROTO_UDP, 0);
	n += put_udp(f + n, 1, 2);
	octo_flow_key_parse(f, n, 0, &tagged);
	n = frame_v4_udp(f, 1, 2, 1, 2);
	octo_flow_key_parse(f, n, 0, &untagged);

	assert_int_equal(octo_match_from_pattern(pat_v, &mv, NULL), 0);
	assert_true(octo_match_test(&mv, &tagged));
	assert_false(octo_match_test(&mv, &untagged));
	assert_int_equal(octo_match_from_pattern(pat_nv, &mnv, NULL), 0);
	assert_false(octo_match_test(&mnv, &tagged));
	assert_true(octo_match_test(&mnv, &untagged));
	assert_int_equal(octo_match_from_pattern(pat_bad, &mv, &err), -EINVAL);
	assert_int_equal(err.item, 1);
	assert_non_null(strstr(err.msg, "has_vlan"));
}

static void
test_pattern_ipv6(void **state)
{
	struct rte_flow_item_ipv6 ip6 = { 0 }, ip6m = { 0 };
	struct rte_flow_item pat[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_IPV6, .spec = &ip6, .mask = &ip6m },
		{ .type = RTE_FLOW_ITEM_TYPE_UDP },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct octo_match m;
	struct octo_flow_key k;
	uint8_t f[160] = { 0 };
	size_t n;

	(void)state;
	OCTO_IPV6_BYTES(ip6.hdr.src_addr)[0] = 0x20;
	OCTO_IPV6_BYTES(ip6.hdr.src_addr)[1] = 0x01;
	OCTO_IPV6_BYTES(ip6.hdr.src_addr)[15] = 0x42;
	memset(OCTO_IPV6_BYTES(ip6m.hdr.src_addr), 0xff, 16);
	ip6.hdr.vtc_flow = RTE_BE32(0xb8u << 20);
	ip6m.hdr.vtc_flow = RTE_BE32(0xffu << 20);
	assert_int_equal(octo_match_from_pattern(pat, &m, NULL), 0);
	n = put_eth(f, RTE_ETHER_TYPE_IPV6);
	n += put_ipv6(f + n, 0x42, IPPROTO_UDP, 0xb8);
	n += put_udp(f + n, 1, 2);
	octo_flow_key_parse(f, n, 0, &k);
	assert_true(octo_match_test(&m, &k));
	f[14 + 8 + 15] = 0x43;	/* src address last byte */
	octo_flow_key_parse(f, n, 0, &k);
	assert_false(octo_match_test(&m, &k));
	/* The flow label cannot be matched. */
	ip6m.hdr.vtc_flow = RTE_BE32(0x000fffff);
	assert_int_equal(octo_match_from_pattern(pat, &m, NULL), -ENOTSUP);
}

static void
test_pattern_refusals(void **state)
{
	struct rte_flow_item_ipv4 ip = { 0 }, ipm = { 0 };
	struct rte_flow_item_tcp tcpm = { .hdr = { .sent_seq = RTE_BE32(1) } };
	struct rte_flow_item_tcp tcp = { 0 };
	struct rte_flow_item_udp udp = { 0 };
	struct octo_cls_error err;
	struct octo_match m;
	struct rte_flow_item p_last[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_UDP, .spec = &udp, .last = &udp },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_item p_type[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_VXLAN },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_item p_order[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_UDP },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4 },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_item p_two_l3[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4 },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV6 },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_item p_ipfield[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_VOID },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4, .spec = &ip, .mask = &ipm },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_item p_tcpfield[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_TCP, .spec = &tcp, .mask = &tcpm },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_item p_meta2[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_META },
		{ .type = RTE_FLOW_ITEM_TYPE_META },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};

	(void)state;
	assert_int_equal(octo_match_from_pattern(p_last, &m, &err), -ENOTSUP);
	assert_int_equal(err.item, 1);
	assert_non_null(strstr(err.msg, "last"));
	assert_int_equal(octo_match_from_pattern(p_type, &m, &err), -ENOTSUP);
	assert_int_equal(err.item, 1);
	assert_non_null(strstr(err.msg, "not supported"));
	assert_int_equal(octo_match_from_pattern(p_order, &m, &err), -EINVAL);
	assert_int_equal(err.item, 1);
	assert_non_null(strstr(err.msg, "order"));
	assert_int_equal(octo_match_from_pattern(p_two_l3, &m, &err), -EINVAL);
	assert_int_equal(err.item, 1);
	ipm.hdr.packet_id = RTE_BE16(0xffff);
	assert_int_equal(octo_match_from_pattern(p_ipfield, &m, &err), -ENOTSUP);
	assert_int_equal(err.item, 2);
	assert_non_null(strstr(err.msg, "ipv4"));
	assert_int_equal(octo_match_from_pattern(p_tcpfield, &m, &err), -ENOTSUP);
	assert_int_equal(err.item, 0);
	assert_non_null(strstr(err.msg, "tcp"));
	assert_int_equal(octo_match_from_pattern(p_meta2, &m, &err), -EINVAL);
	assert_int_equal(err.item, 1);
	assert_int_equal(octo_match_from_pattern(NULL, &m, &err), -EINVAL);
}

static void
test_empty_pattern_matches_all(void **state)
{
	struct rte_flow_item pat[] = { { .type = RTE_FLOW_ITEM_TYPE_END } };
	struct octo_match m;
	struct octo_flow_key k;
	uint8_t f[128] = { 0 };
	char buf[64];

	(void)state;
	assert_int_equal(octo_match_from_pattern(pat, &m, NULL), 0);
	octo_flow_key_parse(f, frame_v4_udp(f, 1, 2, 3, 4), 5, &k);
	assert_true(octo_match_test(&m, &k));
	octo_match_format(&m, buf, sizeof(buf));
	assert_string_equal(buf, "any");
}

/* ---- masked keys, compact keys, text ---- */

static void
test_masked_key(void **state)
{
	struct octo_flow_key a, b, mask, ma, mb;
	uint8_t f[128] = { 0 };

	(void)state;
	octo_flow_key_parse(f, frame_v4_udp(f, 1, 2, 100, 200), 0, &a);
	octo_flow_key_parse(f, frame_v4_udp(f, 1, 2, 100, 201), 0, &b);
	memset(&mask, 0, sizeof(mask));
	mask.src_port = 0xffff;
	octo_flow_key_apply_mask(&a, &mask, &ma);
	octo_flow_key_apply_mask(&b, &mask, &mb);
	/* dst port masked out: same masked key. */
	assert_true(octo_flow_key_equal(&ma, &mb));
	mask.dst_port = 0xffff;
	octo_flow_key_apply_mask(&a, &mask, &ma);
	octo_flow_key_apply_mask(&b, &mask, &mb);
	assert_false(octo_flow_key_equal(&ma, &mb));
	assert_int_equal(sizeof(struct octo_flow_key), 72);
}

/* The mask of an exact IPv4 (or IPv6) 5-tuple rule. */
static void
mask_5tuple(struct octo_flow_key *m, int v6)
{
	memset(m, 0, sizeof(*m));
	m->layers = 0xffff;
	m->ip_proto = 0xff;
	memset(m->ip_src, 0xff, v6 ? 16 : 4);
	memset(m->ip_dst, 0xff, v6 ? 16 : 4);
	m->src_port = 0xffff;
	m->dst_port = 0xffff;
}

static void
test_key_layout_sizes(void **state)
{
	static const uint8_t v4_words[] = {
		offsetof(struct octo_flow_key, layers) / 4,
		offsetof(struct octo_flow_key, ip_proto) / 4,
		offsetof(struct octo_flow_key, ip_src) / 4,
		offsetof(struct octo_flow_key, ip_dst) / 4,
		offsetof(struct octo_flow_key, src_port) / 4,
	};
	struct octo_key_layout l;
	struct octo_flow_key m;

	(void)state;
	memset(&m, 0, sizeof(m));
	octo_key_layout_init(&l, &m);
	assert_int_equal(l.nb_words, 0);
	assert_int_equal(l.key_len, 8);
	/* IPv4 5-tuple: id + 5 words = 20 bytes -> 24, the words in order. */
	mask_5tuple(&m, 0);
	octo_key_layout_init(&l, &m);
	assert_int_equal(l.nb_words, 5);
	assert_int_equal(l.key_len, 24);
	assert_memory_equal(l.word, v4_words, sizeof(v4_words));
	assert_int_equal(l.mask[4], 0xffffffff);
	/* IPv6 5-tuple: id + 11 words = 48 -> 56. */
	mask_5tuple(&m, 1);
	octo_key_layout_init(&l, &m);
	assert_int_equal(l.nb_words, 11);
	assert_int_equal(l.key_len, 56);
	/* Everything: id + 18 words = 76 -> the longest. */
	memset(&m, 0xff, sizeof(m));
	octo_key_layout_init(&l, &m);
	assert_int_equal(l.nb_words, OCTO_KEY_WORDS);
	assert_int_equal(l.key_len, OCTO_KEY_LEN_MAX);
}

static void
test_key_build(void **state)
{
	uint32_t ka[OCTO_KEY_LEN_MAX / 4 + 1], kb[OCTO_KEY_LEN_MAX / 4 + 1];
	struct octo_flow_key a, b, m;
	struct octo_key_layout l;
	uint8_t f[128] = { 0 };
	uint32_t i;

	(void)state;
	mask_5tuple(&m, 0);
	m.dst_port = RTE_BE16(0x00ff);	/* part of a word only */
	octo_key_layout_init(&l, &m);
	octo_flow_key_parse(f, frame_v4_udp(f, 1, 2, 100, 0x1234), 0, &a);
	/* Differs outside the mask: TTL, meta, MACs, the dst port's high byte. */
	octo_flow_key_parse(f, frame_v4_udp(f, 1, 2, 100, 0x9934), 9, &b);
	b.ip_ttl = 1;
	b.eth_src[0] = 0x42;
	memset(ka, 0xaa, sizeof(ka));
	memset(kb, 0x55, sizeof(kb));
	octo_key_build(&l, 7, &a, ka);
	octo_key_build(&l, 7, &b, kb);
	assert_memory_equal(ka, kb, l.key_len);
	assert_int_equal(ka[0], 7);
	/* Zero padding up to key_len, nothing written past it. */
	for (i = 1 + l.nb_words; i < l.key_len / 4u; i++)
		assert_int_equal(ka[i], 0);
	assert_int_equal(ka[l.key_len / 4], 0xaaaaaaaa);
	/* Another id, or a masked bit of the last word gathered: another key. */
	octo_key_build(&l, 8, &a, kb);
	assert_memory_not_equal(ka, kb, l.key_len);
	octo_flow_key_parse(f, frame_v4_udp(f, 1, 2, 100, 0x1235), 0, &b);
	octo_key_build(&l, 7, &b, kb);
	assert_memory_not_equal(ka, kb, l.key_len);
	/* ... or of the first (the layers: TCP instead of UDP). */
	b = a;
	b.layers = (uint16_t)((a.layers & ~OCTO_L_UDP) | OCTO_L_TCP);
	octo_key_build(&l, 7, &b, kb);
	assert_memory_not_equal(ka, kb, l.key_len);
}

static void
test_format(void **state)
{
	struct rte_flow_item_udp udp = { .hdr = { .src_port = RTE_BE16(0x0003) } };
	struct rte_flow_item_udp udpm = { .hdr = { .src_port = RTE_BE16(0x000f) } };
	struct rte_flow_item_ipv4 ip = { .hdr = { .dst_addr = RTE_BE32(0x0a000001) } };
	struct rte_flow_item_ipv4 ipm = { .hdr = { .dst_addr = RTE_BE32(0xffffffff) } };
	struct rte_flow_item_ipv4 ipl = { 0 };
	struct rte_flow_item_meta meta = { .data = 7 };
	struct rte_flow_item pat[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4, .spec = &ip, .mask = &ipm },
		{ .type = RTE_FLOW_ITEM_TYPE_UDP, .spec = &udp, .mask = &udpm },
		{ .type = RTE_FLOW_ITEM_TYPE_META, .spec = &meta },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct octo_match m;
	char buf[256];
	int n;

	(void)state;
	assert_int_equal(octo_match_from_pattern(pat, &m, NULL), 0);
	n = octo_match_format(&m, buf, sizeof(buf));
	assert_string_equal(buf,
		"eth/ipv4(dst=10.0.0.1/255.255.255.255)/udp(src=0x0003/0x000f)/meta(7/0xffffffff)");
	assert_int_equal(n, (int)strlen(buf));
	/* Truncation still reports the full length. */
	assert_int_equal(octo_match_format(&m, buf, 8), n);
	assert_int_equal(strlen(buf), 7);
	/* fragment_offset: the field, and the range "a fragment" */
	ip.hdr.fragment_offset = 0;
	ipm.hdr.fragment_offset = RTE_BE16(0x3fff);
	pat[2].type = RTE_FLOW_ITEM_TYPE_END;
	assert_int_equal(octo_match_from_pattern(pat, &m, NULL), 0);
	octo_match_format(&m, buf, sizeof(buf));
	assert_string_equal(buf,
		"eth/ipv4(dst=10.0.0.1/255.255.255.255,frag=0x0000/0x3fff)");
	ip.hdr.fragment_offset = RTE_BE16(1);
	ipl.hdr.fragment_offset = RTE_BE16(0x3fff);
	pat[1].last = &ipl;
	assert_int_equal(octo_match_from_pattern(pat, &m, NULL), 0);
	octo_match_format(&m, buf, sizeof(buf));
	assert_string_equal(buf, "eth/ipv4(dst=10.0.0.1/255.255.255.255,fragment=1)");
}

/* ---- SCTP, ICMP, ICMPv6 ---- */

/* Ethernet, IPv4 (or IPv6 when v6) with protocol @p proto, then the L4
 * header bytes @p l4 (@p l4_len of them) and 8 bytes of payload. */
static size_t
frame_l4(uint8_t *f, int v6, uint8_t proto, const void *l4, size_t l4_len)
{
	size_t n = put_eth(f, v6 ? RTE_ETHER_TYPE_IPV6 : RTE_ETHER_TYPE_IPV4);

	n += v6 ? put_ipv6(f + n, 7, proto, 0) :
		put_ipv4(f + n, 0x0a000001, 0x0a000002, proto, 0);
	memcpy(f + n, l4, l4_len);
	return n + l4_len + 8;
}

static const struct rte_sctp_hdr sctp_hdr = {
	.src_port = RTE_BE16(3868), .dst_port = RTE_BE16(2905),
	.tag = RTE_BE32(0x11223344), .cksum = RTE_BE32(0x55667788),
};
static const struct rte_icmp_hdr icmp_echo = {
	.icmp_type = RTE_ICMP_TYPE_ECHO_REQUEST, .icmp_code = 0,
	.icmp_cksum = RTE_BE16(0xabcd), .icmp_ident = RTE_BE16(0x4242),
	.icmp_seq_nb = RTE_BE16(9),
};
/* ICMPv6 destination unreachable (1), port unreachable (4), then 4 unused. */
static const uint8_t icmp6_unreach[8] = { 1, 4, 0x12, 0x34 };

static void
test_parse_sctp_icmp_icmp6(void **state)
{
	uint8_t f[128] = { 0 };
	struct octo_flow_key k;
	size_t n;

	(void)state;
	n = frame_l4(f, 0, IPPROTO_SCTP, &sctp_hdr, sizeof(sctp_hdr));
	octo_flow_key_parse(f, n, 0, &k);
	assert_int_equal(k.layers, OCTO_L_ETH | OCTO_L_IPV4 | OCTO_L_SCTP);
	assert_int_equal(rte_be_to_cpu_16(k.src_port), 3868);
	assert_int_equal(rte_be_to_cpu_16(k.dst_port), 2905);
	n = frame_l4(f, 1, IPPROTO_SCTP, &sctp_hdr, sizeof(sctp_hdr));
	octo_flow_key_parse(f, n, 0, &k);
	assert_int_equal(k.layers, OCTO_L_ETH | OCTO_L_IPV6 | OCTO_L_SCTP);

	n = frame_l4(f, 0, IPPROTO_ICMP, &icmp_echo, sizeof(icmp_echo));
	octo_flow_key_parse(f, n, 0, &k);
	assert_int_equal(k.layers, OCTO_L_ETH | OCTO_L_IPV4 | OCTO_L_ICMP);
	assert_int_equal(k.icmp_type, RTE_ICMP_TYPE_ECHO_REQUEST);
	assert_int_equal(k.icmp_code, 0);
	assert_int_equal(rte_be_to_cpu_16(k.icmp_ident), 0x4242);
	assert_int_equal(rte_be_to_cpu_16(k.icmp_seq), 9);
	assert_int_equal(k.src_port, 0);
	/* Cut inside the ICMP header: no ICMP layer. */
	octo_flow_key_parse(f, RTE_ETHER_HDR_LEN + 20 + 7, 0, &k);
	assert_int_equal(k.layers, OCTO_L_ETH | OCTO_L_IPV4);

	n = frame_l4(f, 1, IPPROTO_ICMPV6, icmp6_unreach, sizeof(icmp6_unreach));
	octo_flow_key_parse(f, n, 0, &k);
	assert_int_equal(k.layers, OCTO_L_ETH | OCTO_L_IPV6 | OCTO_L_ICMP6);
	assert_int_equal(k.icmp_type, 1);
	assert_int_equal(k.icmp_code, 4);
	assert_int_equal(k.icmp_ident, 0);	/* ICMPv6 has no ident field */

	/* Protocol 1 in IPv6, or 58 in IPv4, is neither ICMP nor ICMPv6. */
	n = frame_l4(f, 1, IPPROTO_ICMP, &icmp_echo, sizeof(icmp_echo));
	octo_flow_key_parse(f, n, 0, &k);
	assert_int_equal(k.layers, OCTO_L_ETH | OCTO_L_IPV6);
	assert_int_equal(k.icmp_type, 0);
	n = frame_l4(f, 0, IPPROTO_ICMPV6, icmp6_unreach, sizeof(icmp6_unreach));
	octo_flow_key_parse(f, n, 0, &k);
	assert_int_equal(k.layers, OCTO_L_ETH | OCTO_L_IPV4);
}

/* Whether @p pat accepts the frame of (v6, proto, l4). */
static int
pattern_takes(const struct rte_flow_item *pat, int v6, uint8_t proto,
		const void *l4, size_t l4_len)
{
	uint8_t f[128] = { 0 };
	struct octo_flow_key k;
	struct octo_match m;

	assert_int_equal(octo_match_from_pattern(pat, &m, NULL), 0);
	octo_flow_key_parse(f, frame_l4(f, v6, proto, l4, l4_len), 0, &k);
	return octo_match_test(&m, &k);
}

static void
test_pattern_sctp_icmp_icmp6(void **state)
{
	struct rte_flow_item_sctp sctp = { .hdr = { .dst_port = RTE_BE16(2905) } };
	struct rte_flow_item_sctp sctpm = { .hdr = { .dst_port = RTE_BE16(0xff00) } };
	struct rte_flow_item_icmp icmp = { .hdr = { .icmp_type = 8,
		.icmp_ident = RTE_BE16(0x4200) } };
	struct rte_flow_item_icmp icmpm = { .hdr = { .icmp_type = 0xff,
		.icmp_ident = RTE_BE16(0xff00) } };
	struct rte_flow_item_icmp6 icmp6 = { .type = 1, .code = 4 };
	struct rte_flow_item p_sctp[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_SCTP, .spec = &sctp, .mask = &sctpm },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_item p_icmp[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4 },
		{ .type = RTE_FLOW_ITEM_TYPE_ICMP, .spec = &icmp, .mask = &icmpm },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	/* Default mask: type and code. */
	struct rte_flow_item p_icmp6[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ICMP6, .spec = &icmp6 },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_item p_any_icmp[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ICMP },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_sctp_hdr s = sctp_hdr;
	struct rte_icmp_hdr c = icmp_echo;
	uint8_t c6[8];

	(void)state;
	/* SCTP: the masked high byte of the port decides, over v4 and v6. */
	assert_true(pattern_takes(p_sctp, 0, IPPROTO_SCTP, &s, sizeof(s)));
	assert_true(pattern_takes(p_sctp, 1, IPPROTO_SCTP, &s, sizeof(s)));
	s.dst_port = RTE_BE16(2905 ^ 0x00ff);
	assert_true(pattern_takes(p_sctp, 0, IPPROTO_SCTP, &s, sizeof(s)));
	s.dst_port = RTE_BE16(2905 ^ 0x0100);
	assert_false(pattern_takes(p_sctp, 0, IPPROTO_SCTP, &s, sizeof(s)));
	/* Same ports in UDP: not SCTP. */
	assert_false(pattern_takes(p_sctp, 0, IPPROTO_UDP, &sctp_hdr, 8));

	/* ICMP: type, and the masked high byte of ident; code and seq free. */
	assert_true(pattern_takes(p_icmp, 0, IPPROTO_ICMP, &c, sizeof(c)));
	c.icmp_seq_nb = RTE_BE16(1000);
	c.icmp_ident = RTE_BE16(0x42ff);
	assert_true(pattern_takes(p_icmp, 0, IPPROTO_ICMP, &c, sizeof(c)));
	c.icmp_ident = RTE_BE16(0x4342);
	assert_false(pattern_takes(p_icmp, 0, IPPROTO_ICMP, &c, sizeof(c)));
	c = icmp_echo;
	c.icmp_type = RTE_ICMP_TYPE_ECHO_REPLY;
	assert_false(pattern_takes(p_icmp, 0, IPPROTO_ICMP, &c, sizeof(c)));
	assert_true(pattern_takes(p_any_icmp, 0, IPPROTO_ICMP, &c, sizeof(c)));
	/* ICMPv6 with the same bytes is not ICMP. */
	assert_false(pattern_takes(p_any_icmp, 1, IPPROTO_ICMPV6, &c, sizeof(c)));

	/* ICMPv6: type and code. */
	memcpy(c6, icmp6_unreach, sizeof(c6));
	assert_true(pattern_takes(p_icmp6, 1, IPPROTO_ICMPV6, c6, sizeof(c6)));
	c6[1] = 3;
	assert_false(pattern_takes(p_icmp6, 1, IPPROTO_ICMPV6, c6, sizeof(c6)));
	assert_false(pattern_takes(p_icmp6, 0, IPPROTO_ICMP, icmp6_unreach,
		sizeof(icmp6_unreach)));
}

static void
test_pattern_sctp_icmp_refusals(void **state)
{
	struct rte_flow_item_sctp sctp = { 0 };
	struct rte_flow_item_sctp sctpm = { .hdr = { .tag = RTE_BE32(1) } };
	struct rte_flow_item_icmp icmp = { 0 };
	struct rte_flow_item_icmp icmpm = { .hdr = { .icmp_cksum = RTE_BE16(1) } };
	struct rte_flow_item_icmp6 icmp6 = { 0 };
	struct rte_flow_item_icmp6 icmp6m = { .checksum = RTE_BE16(1) };
	struct rte_flow_item p_tag[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_SCTP, .spec = &sctp, .mask = &sctpm },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_item p_cksum[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ICMP, .spec = &icmp, .mask = &icmpm },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_item p_cksum6[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ICMP6, .spec = &icmp6, .mask = &icmp6m },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_item p_icmp_v6[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_IPV6 },
		{ .type = RTE_FLOW_ITEM_TYPE_ICMP },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_item p_icmp6_v4[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4 },
		{ .type = RTE_FLOW_ITEM_TYPE_ICMP6 },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_item p_two_l4[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_SCTP },
		{ .type = RTE_FLOW_ITEM_TYPE_ICMP },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct octo_cls_error err;
	struct octo_match m;

	(void)state;
	assert_int_equal(octo_match_from_pattern(p_tag, &m, &err), -ENOTSUP);
	assert_non_null(strstr(err.msg, "sctp"));
	assert_int_equal(octo_match_from_pattern(p_cksum, &m, &err), -ENOTSUP);
	assert_non_null(strstr(err.msg, "icmp"));
	assert_int_equal(octo_match_from_pattern(p_cksum6, &m, &err), -ENOTSUP);
	assert_non_null(strstr(err.msg, "icmp6"));
	assert_int_equal(octo_match_from_pattern(p_icmp_v6, &m, &err), -EINVAL);
	assert_int_equal(err.item, 1);
	assert_int_equal(octo_match_from_pattern(p_icmp6_v4, &m, &err), -EINVAL);
	assert_int_equal(err.item, 1);
	assert_int_equal(octo_match_from_pattern(p_two_l4, &m, &err), -EINVAL);
	assert_int_equal(err.item, 1);
}

static void
test_format_sctp_icmp(void **state)
{
	struct rte_flow_item_sctp sctp = { .hdr = { .src_port = RTE_BE16(80) } };
	struct rte_flow_item_icmp icmp = { .hdr = { .icmp_type = 8,
		.icmp_seq_nb = RTE_BE16(5) } };
	struct rte_flow_item_icmp icmpm = { .hdr = { .icmp_type = 0xff,
		.icmp_seq_nb = RTE_BE16(0xffff) } };
	struct rte_flow_item_icmp6 icmp6 = { .type = 135 };
	struct rte_flow_item p_sctp[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_SCTP, .spec = &sctp },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_item p_icmp[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ICMP, .spec = &icmp, .mask = &icmpm },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_item p_icmp6[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ICMP6, .spec = &icmp6 },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct octo_match m;
	char buf[256];

	(void)state;
	assert_int_equal(octo_match_from_pattern(p_sctp, &m, NULL), 0);
	octo_match_format(&m, buf, sizeof(buf));
	assert_string_equal(buf, "sctp(src=0x0050/0xffff,dst=0x0000/0xffff)");
	assert_int_equal(octo_match_from_pattern(p_icmp, &m, NULL), 0);
	octo_match_format(&m, buf, sizeof(buf));
	assert_string_equal(buf, "icmp(type=0x08/0xff,seq=0x0005/0xffff)");
	assert_int_equal(octo_match_from_pattern(p_icmp6, &m, NULL), 0);
	octo_match_format(&m, buf, sizeof(buf));
	assert_string_equal(buf, "icmp6(type=0x87/0xff,code=0x00/0xff)");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_ipv4_udp),
		cmocka_unit_test(test_parse_vlan_tcp),
		cmocka_unit_test(test_parse_qinq_outer_tag_only),
		cmocka_unit_test(test_parse_ipv6_udp_and_ext),
		cmocka_unit_test(test_parse_arp_and_truncated),
		cmocka_unit_test(test_parse_fragment_has_no_l4),
		cmocka_unit_test(test_pattern_ipv4_fragments),
		cmocka_unit_test(test_pattern_ipv4_fragment_refusals),
		cmocka_unit_test(test_pattern_5tuple_matches),
		cmocka_unit_test(test_pattern_partial_mask_and_meta),
		cmocka_unit_test(test_pattern_vlan_and_has_vlan),
		cmocka_unit_test(test_pattern_ipv6),
		cmocka_unit_test(test_pattern_refusals),
		cmocka_unit_test(test_empty_pattern_matches_all),
		cmocka_unit_test(test_masked_key),
		cmocka_unit_test(test_key_layout_sizes),
		cmocka_unit_test(test_key_build),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_parse_sctp_icmp_icmp6),
		cmocka_unit_test(test_pattern_sctp_icmp_icmp6),
		cmocka_unit_test(test_pattern_sctp_icmp_refusals),
		cmocka_unit_test(test_format_sctp_icmp),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
