/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTO_CLASSIFIER_H
#define OCTO_CLASSIFIER_H

/**
 * @file
 * Flow keys and masked matches, without EAL.
 *
 * A frame is parsed into a fixed-size flow key (struct octo_flow_key); an
 * rte_flow pattern becomes a (key, mask) pair (struct octo_match).  A frame
 * matches when (frame_key & mask) == match_key, byte for byte, which is what
 * makes tuple-space search possible: every rule sharing a mask can be found
 * with one exact-match hash lookup of the masked frame key.
 *
 * Header fields are kept in network byte order, exactly as on the wire and
 * as rte_flow specs carry them, so a spec is copied into the key without
 * conversion.  The metadata word is in CPU order, as rte_flow_item_meta and
 * rte_flow_action_set_meta carry it.
 *
 * Pattern semantics (documented because they are a choice):
 * - Items must follow the protocol stack order ETH, VLAN, IPV4|IPV6,
 *   TCP|UDP|SCTP|ICMP|ICMP6, each at most once; any layer may be omitted
 *   ("ipv4/udp" is fine).  META and VOID may appear anywhere, META at most
 *   once.  ICMP is ICMP over IPv4 and ICMP6 ICMPv6 over IPv6, as a NIC
 *   parses them: an ICMP item after an IPV6 item (or ICMP6 after IPV4)
 *   is refused.
 * - An item means "this layer is present"; layers that are not named are
 *   not constrained (eth/ipv4 also matches a VLAN-tagged IPv4 frame, unless
 *   the ETH item masks has_vlan).
 * - Only the outer VLAN tag is matched (tci, inner_type).
 * - Fields the key does not hold must have a zero mask, else the pattern is
 *   refused.
 * - @c last (a range) only on the IPv4 item: its values under the mask that
 *   are 0 or equal to the spec's make no range (as rte_flow reads them);
 *   the one range taken is on fragment_offset, 1..0x3fff under mask 0x3fff
 *   ("a fragment": MF or an offset) or 1..0x1fff under mask 0x1fff ("not
 *   the first fragment"), matched through the key's OCTO_L_FRAG and
 *   OCTO_L_FRAG_LATER bits, since no masked compare of the field says
 *   "not zero".  fragment_offset with a spec and no range is a masked
 *   compare of the whole field (flags and offset), as any other field.
 */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <rte_flow.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Layer-presence bits of octo_flow_key::layers. */
#define OCTO_L_ETH	0x0001
#define OCTO_L_VLAN	0x0002
#define OCTO_L_IPV4	0x0004
#define OCTO_L_IPV6	0x0008
#define OCTO_L_TCP	0x0010
#define OCTO_L_UDP	0x0020
#define OCTO_L_SCTP	0x0040
#define OCTO_L_ICMP	0x0080	/**< ICMP over IPv4 */
#define OCTO_L_ICMP6	0x0100	/**< ICMPv6 over IPv6 */
/** Fragment bits (with the layers: a rule's mask picks them like a layer):
 * an IPv4 fragment (MF set or a non-zero offset), and one that is not the
 * first (a non-zero offset).
 */
#define OCTO_L_FRAG		0x0200
#define OCTO_L_FRAG_LATER	0x0400
/** The top four bits of layers are no layer: where the frame entered a
 * switch, as its owner numbers the ports (net_octonic's e-switch: the
 * wire or a PF's Tx); 0 from octo_flow_key_parse and in a pattern's
 * match.  A rule's mask picks them like a layer.
 */
#define OCTO_L_IN_PORT_SHIFT	12
#define OCTO_L_IN_PORT		0xf000

/**
 * What the classifier knows about a frame.  72 bytes, no implicit padding,
 * so that it can be hashed and compared as bytes.  The ICMP fields have
 * their own words rather than sharing the ports: an ICMP header has four
 * fields a NIC matches (type, code, identifier, sequence number), one more
 * than the ports and TCP flags could hold.
 */
struct octo_flow_key {
	uint32_t meta;		/**< metadata (CPU order) */
	uint16_t layers;	/**< OCTO_L_* present in the frame (CPU order) */
	uint16_t eth_type;	/**< EtherType/TPID right after the MACs */
	uint8_t eth_dst[6];
	uint8_t eth_src[6];
	uint16_t vlan_tci;	/**< outer VLAN TCI */
	uint16_t vlan_inner_type; /**< EtherType after the outer VLAN tag */
	uint8_t ip_proto;	/**< IPv4 protocol / IPv6 next header */
	uint8_t ip_tos;		/**< IPv4 TOS / IPv6 traffic class */
	uint8_t ip_ttl;		/**< IPv4 TTL / IPv6 hop limit */
	uint8_t tcp_flags;
	uint8_t ip_src[16];	/**< IPv4 in the first 4 bytes, rest zero */
	uint8_t ip_dst[16];
	uint16_t src_port;	/**< TCP, UDP or SCTP */
	uint16_t dst_port;
	uint8_t icmp_type;	/**< ICMP or ICMPv6 */
	uint8_t icmp_code;
	uint16_t icmp_ident;	/**< ICMP (v4) header bytes 4-5 */
	uint16_t icmp_seq;	/**< ICMP (v4) header bytes 6-7 */
	uint16_t ip_frag;	/**< IPv4 fragment_offset field: flags and offset */
};

/** A rule's match: frame matches when (frame & mask) == key. */
struct octo_match {
	struct octo_flow_key key;	/**< already masked */
	struct octo_flow_key mask;
};

/** Why a pattern was refused. */
struct octo_cls_error {
	int item;		/**< index of the offending item, -1: none */
	const char *msg;	/**< static message */
};

/**
 * Parse a contiguous frame into @p key (metadata set to @p meta).
 * Unknown or truncated layers simply end the parse; the function never
 * fails.  ARP and other EtherTypes give an ETH-only key.
 */
void octo_flow_key_parse(const uint8_t *frame, uint32_t len, uint32_t meta,
		struct octo_flow_key *key);

/**
 * Convert an rte_flow pattern (ending with END) into a match.
 *
 * @return 0, or -ENOTSUP/-EINVAL with @p err naming the item and the reason.
 */
int octo_match_from_pattern(const struct rte_flow_item *pattern,
		struct octo_match *m, struct octo_cls_error *err);

/** out = in & mask, byte by byte. */
static inline void
octo_flow_key_apply_mask(const struct octo_flow_key *in,
		const struct octo_flow_key *mask, struct octo_flow_key *out)
{
	/* may_alias: the key is written field by field elsewhere; without
	 * it the compiler may reorder those stores after these loads.
	 */
	typedef uint64_t __rte_may_alias word_t;
	const word_t *a = (const word_t *)in;
	const word_t *b = (const word_t *)mask;
	word_t *o = (word_t *)out;
	unsigned int i;

	for (i = 0; i < sizeof(*in) / sizeof(uint64_t); i++)
		o[i] = a[i] & b[i];
}

/** Whether frame key @p k matches @p m. */
int octo_match_test(const struct octo_match *m, const struct octo_flow_key *k);

/** Whether two keys (or masks) are byte-equal. */
int octo_flow_key_equal(const struct octo_flow_key *a,
		const struct octo_flow_key *b);

/** 32-bit words in a flow key. */
#define OCTO_KEY_WORDS (sizeof(struct octo_flow_key) / sizeof(uint32_t))
/** Longest compact key, in bytes. */
#define OCTO_KEY_LEN_MAX 120

/**
 * How a tuple-space table builds the compact hash keys of one mask: a
 * 32-bit id (telling apart the users of one table, e.g. groups) followed
 * by the flow-key words the mask has bits in, masked, then zeros up to
 * key_len.  key_len is 8, 24, 56 or 120 bytes, so that a key plus an 8-byte
 * value fills a half, one or two cache lines.  Keys built with one layout
 * are equal exactly when the ids are equal and the masked flow keys are.
 * An IPv4 5-tuple mask gives 24 bytes where the masked key is 64.
 */
struct octo_key_layout {
	uint8_t nb_words;		/**< words gathered */
	uint8_t key_len;		/**< bytes: 8, 24, 56 or 120 */
	uint8_t word[OCTO_KEY_WORDS];	/**< their index in the flow key */
	uint32_t mask[OCTO_KEY_WORDS];	/**< and their mask */
};

/** Fill @p l for the tables of @p mask. */
void octo_key_layout_init(struct octo_key_layout *l,
		const struct octo_flow_key *mask);

/** Write the compact key (l->key_len bytes at @p out) of flow key @p k
 * under id @p id.
 */
static inline void
octo_key_build(const struct octo_key_layout *l, uint32_t id,
		const struct octo_flow_key *k, uint32_t *out)
{
	const uint8_t *kb = (const uint8_t *)k;
	uint32_t i, n = l->key_len / sizeof(uint32_t), w;

	out[0] = id;
	for (i = 0; i < l->nb_words; i++) {
		memcpy(&w, kb + l->word[i] * sizeof(uint32_t), sizeof(w));
		out[1 + i] = w & l->mask[i];
	}
	for (i = 1 + l->nb_words; i < n; i++)
		out[i] = 0;
}

/**
 * Write the pattern of @p m in the dump form, e.g.
 * "eth/ipv4(dst=10.0.0.1/255.255.255.255)/udp(src=0x0003/0x000f)/meta(7/0xffffffff)"
 * (ipv4 also with frag=<field>/<mask> and fragment=0|1, later_fragment=0|1;
 * L4 layers: tcp, udp, sctp with src, dst (and tcp flags); icmp with type,
 * code, ident, seq; icmp6 with type, code).
 * Layers in stack order, then meta; a layer shows only its masked fields,
 * as name=value/mask (MACs as aa:bb:..., IPv4 dotted, IPv6 per inet_ntop,
 * integers as 0x-prefixed hex of their width, in CPU order); "any" when the
 * match is empty.
 *
 * @return the length snprintf would write (may exceed @p size).
 */
int octo_match_format(const struct octo_match *m, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* OCTO_CLASSIFIER_H */
