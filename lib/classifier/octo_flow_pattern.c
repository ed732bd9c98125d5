/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/* rte_flow pattern -> (key, mask).  Each item is checked on its own (last,
 * fields the key cannot hold) and against the items before it (stack
 * order, duplicates), so a refusal names the item that caused it.
 */

#include <errno.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>

#include "octo_classifier.h"

/* Position of a layer in the protocol stack; items must climb it. */
enum stack_rank {
	RANK_NONE = 0,
	RANK_ETH,
	RANK_VLAN,
	RANK_L3,
	RANK_L4,
};

static int
refuse(struct octo_cls_error *err, int item, int code, const char *msg)
{
	if (err != NULL) {
		err->item = item;
		err->msg = msg;
	}
	return -code;
}

/* key = spec & mask, mask = mask, for one field of n bytes. */
static void
put(uint8_t *kf, uint8_t *mf, const void *spec, const void *mask, size_t n)
{
	const uint8_t *s = spec, *m = mask;
	size_t i;

	for (i = 0; i < n; i++) {
		mf[i] = m[i];
		kf[i] = s != NULL ? (uint8_t)(s[i] & m[i]) : 0;
	}
}

#define PUT(mt, field, sp, mk, sfield) \
	put((uint8_t *)&(mt)->key.field, (uint8_t *)&(mt)->mask.field, \
	    (sp) != NULL ? (const void *)&(sp)->sfield : NULL, \
	    &(mk)->sfield, sizeof((mt)->key.field))

static int
conv_eth(const struct rte_flow_item *it, int idx, struct octo_match *m,
		struct octo_cls_error *err)
{
	const struct rte_flow_item_eth *s = it->spec;
	const struct rte_flow_item_eth *k = it->mask != NULL ? it->mask :
		&rte_flow_item_eth_mask;

	if (s == NULL)
		return 0;
	if (k->reserved != 0)
		return refuse(err, idx, ENOTSUP, "eth: reserved bits in mask");
	PUT(m, eth_dst, s, k, hdr.dst_addr);
	PUT(m, eth_src, s, k, hdr.src_addr);
	PUT(m, eth_type, s, k, hdr.ether_type);
	if (k->has_vlan) {
		m->mask.layers |= OCTO_L_VLAN;
		if (s->has_vlan)
			m->key.layers |= OCTO_L_VLAN;
	}
	return 0;
}

static int
conv_vlan(const struct rte_flow_item *it, int idx, struct octo_match *m,
		struct octo_cls_error *err)
{
	const struct rte_flow_item_vlan *s = it->spec;
	const struct rte_flow_item_vlan *k = it->mask != NULL ? it->mask :
		&rte_flow_item_vlan_mask;

	/* An ETH item saying has_vlan=0 and a VLAN item cannot both hold. */
	if ((m->mask.layers & OCTO_L_VLAN) != 0 && (m->key.layers & OCTO_L_VLAN) == 0)
		return refuse(err, idx, EINVAL, "vlan: contradicts eth has_vlan=0");
	if (s == NULL)
		return 0;
	if (k->has_more_vlan || k->reserved != 0)
		return refuse(err, idx, ENOTSUP,
			"vlan: only the outer tag is matched (has_more_vlan unsupported)");
	PUT(m, vlan_tci, s, k, hdr.vlan_tci);
	PUT(m, vlan_inner_type, s, k, hdr.eth_proto);
	return 0;
}

/*
 * Whether @p last makes a range of an n-byte field: rte_flow ignores a
 * last that is 0 or equal to the spec under the mask, field by field.
 */
static int
is_range(const void *spec, const void *last, const void *mask, size_t n)
{
	const uint8_t *s = spec, *l = last, *k = mask;
	int zero = 1, same = 1;
	size_t i;

	for (i = 0; i < n; i++) {
		zero &= (l[i] & k[i]) == 0;
		same &= (l[i] & k[i]) == (s[i] & k[i]);
	}
	return !zero && !same;
}

#define RANGE(sp, la, mk, field) \
	is_range(&(sp)->field, &(la)->field, &(mk)->field, sizeof((sp)->field))

/*
 * IPv4 fragment_offset (flags and offset).  A spec without a range is a
 * masked compare of the field; the two ranges a NIC parser knows as
 * "fragment" and "not the first fragment" become the key's fragment bits.
 */
static int
conv_ipv4_frag(const struct rte_flow_item_ipv4 *s, const struct rte_flow_item_ipv4 *l,
		const struct rte_flow_item_ipv4 *k, int idx, struct octo_match *m,
		struct octo_cls_error *err)
{
	uint16_t mask = rte_be_to_cpu_16(k->hdr.fragment_offset);
	uint16_t lo = rte_be_to_cpu_16(s->hdr.fragment_offset) & mask;
	uint16_t bit;

	if (l == NULL || !RANGE(s, l, k, hdr.fragment_offset)) {
		PUT(m, ip_frag, s, k, hdr.fragment_offset);
		return 0;
	}
	if (mask == (RTE_IPV4_HDR_MF_FLAG | RTE_IPV4_HDR_OFFSET_MASK))
		bit = OCTO_L_FRAG;
	else if (mask == RTE_IPV4_HDR_OFFSET_MASK)
		bit = OCTO_L_FRAG_LATER;
	else
		bit = 0;
	if (bit == 0 || lo != 1 ||
			(rte_be_to_cpu_16(l->hdr.fragment_offset) & mask) != mask)
		return refuse(err, idx, ENOTSUP,
			"ipv4: a fragment_offset range is 1..0x3fff under mask 0x3fff (a fragment) or 1..0x1fff under mask 0x1fff (not the first fragment)");
	m->mask.layers |= bit;
	m->key.layers |= bit;
	return 0;
}

static int
conv_ipv4(const struct rte_flow_item *it, int idx, struct octo_match *m,
		struct octo_cls_error *err)
{
	const struct rte_flow_item_ipv4 *s = it->spec;
	const struct rte_flow_item_ipv4 *l = it->last;
	const struct rte_flow_item_ipv4 *k = it->mask != NULL ? it->mask :
		&rte_flow_item_ipv4_mask;
	const struct rte_ipv4_hdr *h = &k->hdr;

	if (s == NULL)
		return 0;
	if (h->version_ihl != 0 || h->total_length != 0 || h->packet_id != 0 ||
			h->hdr_checksum != 0)
		return refuse(err, idx, ENOTSUP,
			"ipv4: only src, dst, proto, tos, ttl and fragment_offset can be matched");
	if (l != NULL && (RANGE(s, l, k, hdr.src_addr) || RANGE(s, l, k, hdr.dst_addr) ||
			RANGE(s, l, k, hdr.next_proto_id) ||
			RANGE(s, l, k, hdr.type_of_service) ||
			RANGE(s, l, k, hdr.time_to_live)))
		return refuse(err, idx, ENOTSUP,
			"ipv4: a range (last) only on fragment_offset");
	put(m->key.ip_src, m->mask.ip_src, &s->hdr.src_addr, &h->src_addr, 4);
	put(m->key.ip_dst, m->mask.ip_dst, &s->hdr.dst_addr, &h->dst_addr, 4);
	PUT(m, ip_proto, s, k, hdr.next_proto_id);
	PUT(m, ip_tos, s, k, hdr.type_of_service);
	PUT(m, ip_ttl, s, k, hdr.time_to_live);
	return conv_ipv4_frag(s, l, k, idx, m, err);
}

static int
conv_ipv6(const struct rte_flow_item *it, int idx, struct octo_match *m,
		struct octo_cls_error *err)
{
	const struct rte_flow_item_ipv6 *s = it->spec;
	const struct rte_flow_item_ipv6 *k = it->mask != NULL ? it->mask :
		&rte_flow_item_ipv6_mask;
	const struct rte_ipv6_hdr *h = &k->hdr;
	uint32_t vm, vs;
	uint8_t tc_m, tc_s;

	if (s == NULL)
		return 0;
	vm = rte_be_to_cpu_32(h->vtc_flow);
	if ((vm & ~0x0ff00000u) != 0 || h->payload_len != 0 ||
			k->has_hop_ext || k->has_route_ext || k->has_frag_ext ||
			k->has_auth_ext || k->has_esp_ext || k->has_dest_ext ||
			k->has_mobil_ext || k->has_hip_ext || k->has_shim6_ext ||
			k->reserved != 0)
		return refuse(err, idx, ENOTSUP,
			"ipv6: only src, dst, proto, traffic class and hop limit can be matched");
	vs = rte_be_to_cpu_32(s->hdr.vtc_flow);
	tc_m = (uint8_t)(vm >> 20);
	tc_s = (uint8_t)(vs >> 20);
	put(&m->key.ip_tos, &m->mask.ip_tos, &tc_s, &tc_m, 1);
	put(m->key.ip_src, m->mask.ip_src, &s->hdr.src_addr, &h->src_addr, 16);
	put(m->key.ip_dst, m->mask.ip_dst, &s->hdr.dst_addr, &h->dst_addr, 16);
	PUT(m, ip_proto, s, k, hdr.proto);
	PUT(m, ip_ttl, s, k, hdr.hop_limits);
	return 0;
}

static int
conv_tcp(const struct rte_flow_item *it, int idx, struct octo_match *m,
		struct octo_cls_error *err)
{
	const struct rte_flow_item_tcp *s = it->spec;
	const struct rte_flow_item_tcp *k = it->mask != NULL ? it->mask :
		&rte_flow_item_tcp_mask;
	const struct rte_tcp_hdr *h = &k->hdr;

	if (s == NULL)
		return 0;
	if (h->sent_seq != 0 || h->recv_ack != 0 || h->data_off != 0 ||
			h->rx_win != 0 || h->cksum != 0 || h->tcp_urp != 0)
		return refuse(err, idx, ENOTSUP,
			"tcp: only src, dst and flags can be matched");
	PUT(m, src_port, s, k, hdr.src_port);
	PUT(m, dst_port, s, k, hdr.dst_port);
	PUT(m, tcp_flags, s, k, hdr.tcp_flags);
	return 0;
}

static int
conv_udp(const struct rte_flow_item *it, int idx, struct octo_match *m,
		struct octo_cls_error *err)
{
	const struct rte_flow_item_udp *s = it->spec;
	const struct rte_flow_item_udp *k = it->mask != NULL ? it->mask :
		&rte_flow_item_udp_mask;

	if (s == NULL)
		return 0;
	if (k->hdr.dgram_len != 0 || k->hdr.dgram_cksum != 0)
		return refuse(err, idx, ENOTSUP,
			"udp: only src and dst can be matched");
	PUT(m, src_port, s, k, hdr.src_port);
	PUT(m, dst_port, s, k, hdr.dst_port);
	return 0;
}

static int
conv_sctp(const struct rte_flow_item *it, int idx, struct octo_match *m,
		struct octo_cls_error *err)
{
	const struct rte_flow_item_sctp *s = it->spec;
	const struct rte_flow_item_sctp *k = it->mask != NULL ? it->mask :
		&rte_flow_item_sctp_mask;

	if (s == NULL)
		return 0;
	if (k->hdr.tag != 0 || k->hdr.cksum != 0)
		return refuse(err, idx, ENOTSUP,
			"sctp: only src and dst can be matched");
	PUT(m, src_port, s, k, hdr.src_port);
	PUT(m, dst_port, s, k, hdr.dst_port);
	return 0;
}

static int
conv_icmp(const struct rte_flow_item *it, int idx, struct octo_match *m,
		struct octo_cls_error *err)
{
	const struct rte_flow_item_icmp *s = it->spec;
	const struct rte_flow_item_icmp *k = it->mask != NULL ? it->mask :
		&rte_flow_item_icmp_mask;

	if ((m->mask.layers & OCTO_L_IPV6) != 0)
		return refuse(err, idx, EINVAL,
			"icmp: ICMP rides IPv4 (use icmp6 after ipv6)");
	if (s == NULL)
		return 0;
	if (k->hdr.icmp_cksum != 0)
		return refuse(err, idx, ENOTSUP,
			"icmp: only type, code, ident and seq can be matched");
	PUT(m, icmp_type, s, k, hdr.icmp_type);
	PUT(m, icmp_code, s, k, hdr.icmp_code);
	PUT(m, icmp_ident, s, k, hdr.icmp_ident);
	PUT(m, icmp_seq, s, k, hdr.icmp_seq_nb);
	return 0;
}

static int
conv_icmp6(const struct rte_flow_item *it, int idx, struct octo_match *m,
		struct octo_cls_error *err)
{
	const struct rte_flow_item_icmp6 *s = it->spec;
	const struct rte_flow_item_icmp6 *k = it->mask != NULL ? it->mask :
		&rte_flow_item_icmp6_mask;

	if ((m->mask.layers & OCTO_L_IPV4) != 0)
		return refuse(err, idx, EINVAL,
			"icmp6: ICMPv6 rides IPv6 (use icmp after ipv4)");
	if (s == NULL)
		return 0;
	if (k->checksum != 0)
		return refuse(err, idx, ENOTSUP,
			"icmp6: only type and code can be matched");
	PUT(m, icmp_type, s, k, type);
	PUT(m, icmp_code, s, k, code);
	return 0;
}

static int
conv_meta(const struct rte_flow_item *it, struct octo_match *m)
{
	const struct rte_flow_item_meta *s = it->spec;
	const struct rte_flow_item_meta *k = it->mask != NULL ? it->mask :
		&rte_flow_item_meta_mask;

	if (s != NULL) {
		m->mask.meta = k->data;
		m->key.meta = s->data & k->data;
	}
	return 0;
}

/* The items a pattern may hold but META and VOID: rank, layer, converter */
static const struct item_conv {
	enum rte_flow_item_type type;
	enum stack_rank rank;
	uint16_t layer;
	int (*conv)(const struct rte_flow_item *it, int idx, struct octo_match *m,
		struct octo_cls_error *err);
} item_convs[] = {
	{ RTE_FLOW_ITEM_TYPE_ETH, RANK_ETH, OCTO_L_ETH, conv_eth },
	{ RTE_FLOW_ITEM_TYPE_VLAN, RANK_VLAN, OCTO_L_VLAN, conv_vlan },
	{ RTE_FLOW_ITEM_TYPE_IPV4, RANK_L3, OCTO_L_IPV4, conv_ipv4 },
	{ RTE_FLOW_ITEM_TYPE_IPV6, RANK_L3, OCTO_L_IPV6, conv_ipv6 },
	{ RTE_FLOW_ITEM_TYPE_TCP, RANK_L4, OCTO_L_TCP, conv_tcp },
	{ RTE_FLOW_ITEM_TYPE_UDP, RANK_L4, OCTO_L_UDP, conv_udp },
	{ RTE_FLOW_ITEM_TYPE_SCTP, RANK_L4, OCTO_L_SCTP, conv_sctp },
	{ RTE_FLOW_ITEM_TYPE_ICMP, RANK_L4, OCTO_L_ICMP, conv_icmp },
	{ RTE_FLOW_ITEM_TYPE_ICMP6, RANK_L4, OCTO_L_ICMP6, conv_icmp6 },
};

static const struct item_conv *
item_conv_of(enum rte_flow_item_type type)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(item_convs); i++)
		if (item_convs[i].type == type)
			return &item_convs[i];
	return NULL;
}

int
octo_match_from_pattern(const struct rte_flow_item *pattern,
		struct octo_match *m, struct octo_cls_error *err)
{
	const struct rte_flow_item *it;
	const struct item_conv *c;
	enum stack_rank rank = RANK_NONE;
	int have_meta = 0;
	int idx, ret;

	memset(m, 0, sizeof(*m));
	if (err != NULL) {
		err->item = -1;
		err->msg = NULL;
	}
	if (pattern == NULL)
		return refuse(err, -1, EINVAL, "pattern is NULL");
	for (it = pattern, idx = 0; it->type != RTE_FLOW_ITEM_TYPE_END; it++, idx++) {
		if (it->type == RTE_FLOW_ITEM_TYPE_VOID)
			continue;
		if (it->last != NULL && it->type != RTE_FLOW_ITEM_TYPE_IPV4)
			return refuse(err, idx, ENOTSUP,
				"range matching (last) is not supported but on ipv4 fragment_offset");
		if (it->type == RTE_FLOW_ITEM_TYPE_META) {
			if (have_meta)
				return refuse(err, idx, EINVAL, "meta: item repeated");
			have_meta = 1;
			conv_meta(it, m);
			continue;
		}
		c = item_conv_of(it->type);
		if (c == NULL)
			return refuse(err, idx, ENOTSUP,
				"item type not supported (eth, vlan, ipv4, ipv6, tcp, udp, sctp, icmp, icmp6, meta, void)");
		if (c->rank <= rank)
			return refuse(err, idx, EINVAL,
				"item out of protocol stack order or repeated");
		rank = c->rank;
		ret = c->conv(it, idx, m, err);
		if (ret != 0) {
			memset(m, 0, sizeof(*m));
			return ret;
		}
		m->mask.layers |= c->layer;
		m->key.layers |= c->layer;
	}
	return 0;
}

int
octo_match_test(const struct octo_match *m, const struct octo_flow_key *k)
{
	struct octo_flow_key masked;

	octo_flow_key_apply_mask(k, &m->mask, &masked);
	return memcmp(&masked, &m->key, sizeof(masked)) == 0;
}

int
octo_flow_key_equal(const struct octo_flow_key *a, const struct octo_flow_key *b)
{
	return memcmp(a, b, sizeof(*a)) == 0;
}
