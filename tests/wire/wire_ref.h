/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef WIRE_REF_H
#define WIRE_REF_H

/*
 * Reference code for the wire tests, written independently of lib/wire:
 * checksums summed byte pair by byte pair in network order (not DPDK's
 * memory-order sums), and a frame builder that fills its checksums with
 * them. If lib/wire and this file agree, both follow RFC 1071.
 */

#include <stdint.h>
#include <string.h>

#define REF_ETHERTYPE_IPV4 0x0800
#define REF_ETHERTYPE_IPV6 0x86dd
#define REF_ETHERTYPE_ARP 0x0806
#define REF_ETHERTYPE_VLAN 0x8100
#define REF_ETHERTYPE_QINQ 0x88a8

static inline uint16_t
ref_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline void
ref_put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* Add the big-endian 16-bit words of p[0..n) to acc (odd tail padded). */
static inline uint64_t
ref_sum(const uint8_t *p, size_t n, uint64_t acc)
{
	size_t i;

	for (i = 0; i + 1 < n; i += 2)
		acc += (uint64_t)p[i] << 8 | p[i + 1];
	if (n & 1)
		acc += (uint64_t)p[n - 1] << 8;
	return acc;
}

static inline uint16_t
ref_fold(uint64_t acc)
{
	while (acc >> 16)
		acc = (acc & 0xffff) + (acc >> 16);
	return (uint16_t)acc;
}

/* Pseudo header + L4 bytes; the L4 checksum field is summed as it is. */
static inline uint64_t
ref_l4_sum(const uint8_t *l3, int ipv6, uint8_t proto, const uint8_t *l4,
		uint32_t l4_len)
{
	uint64_t acc;

	if (ipv6)
		acc = ref_sum(l3 + 8, 32, 0);
	else
		acc = ref_sum(l3 + 12, 8, 0);
	acc += proto;
	acc += l4_len;		/* IPv6's 32-bit length: high word is 0 here */
	return ref_sum(l4, l4_len, acc);
}

/* Offset of the L4 checksum field in its header. */
static inline uint32_t
ref_cksum_off(uint8_t proto)
{
	return proto == 6 ? 16 : 6;
}

/* A frame to build. */
struct ref_spec {
	int tags;		/* VLAN tags: 0, 1 (0x8100) or 2 (0x88a8 + 0x8100) */
	int ipv6;
	int ip_opt_words;	/* IPv4 options, 4 bytes each */
	int hbh;		/* IPv6: a hop-by-hop header of hbh * 8 bytes */
	int frag;		/* a non-first fragment */
	uint8_t proto;		/* 6 TCP, 17 UDP, 1 ICMP, 58 ICMPv6 */
	uint32_t payload;	/* bytes after the L4 header */
	uint8_t fill;		/* payload bytes are fill + i * 7 */
};

/* Where ref_build() put things. */
struct ref_layout {
	uint32_t len, l3, l4, l4_len;
};

/* Build a frame with valid checksums; returns its length. */
static inline uint32_t
ref_build(uint8_t *buf, const struct ref_spec *s, struct ref_layout *lo)
{
	uint32_t off = 12, l3_len, l4_hdr, i;
	uint8_t *ip, *l4;

	memset(buf, 0, 14);
	memcpy(buf, "\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01", 12);
	if (s->tags == 2) {
		ref_put16(buf + off, REF_ETHERTYPE_QINQ);
		ref_put16(buf + off + 2, 100);
		off += 4;
	}
	if (s->tags >= 1) {
		ref_put16(buf + off, REF_ETHERTYPE_VLAN);
		ref_put16(buf + off + 2, 200);
		off += 4;
	}
	ref_put16(buf + off, s->ipv6 ? REF_ETHERTYPE_IPV6 : REF_ETHERTYPE_IPV4);
	off += 2;
	lo->l3 = off;
	ip = buf + off;
	l4_hdr = s->proto == 6 ? 20 : 8;
	if (s->ipv6) {
		l3_len = 40 + 8 * s->hbh + (s->frag ? 8 : 0);
		memset(ip, 0, l3_len);
		ip[0] = 0x60;
		ref_put16(ip + 4, (uint16_t)(l3_len - 40 + l4_hdr + s->payload));
		ip[7] = 64;
		for (i = 0; i < 16; i++) {
			ip[8 + i] = (uint8_t)(0x20 + i);
			ip[24 + i] = (uint8_t)(0x40 + i);
		}
		{
			uint8_t *nh = ip + 6, *ext = ip + 40;

			if (s->hbh) {
				*nh = 0;
				nh = ext;
				ext[1] = (uint8_t)(s->hbh - 1);	/* PadN fills it */
				ext[2] = 1;
				ext[3] = (uint8_t)(8 * s->hbh - 4);
				ext += 8 * s->hbh;
			}
			if (s->frag) {
				*nh = 44;
				nh = ext;
				ref_put16(ext + 2, 185 << 3);	/* offset 1480 */
				ext += 8;
			}
			*nh = s->proto;
		}
	} else {
		l3_len = 20 + 4 * s->ip_opt_words;
		memset(ip, 0, l3_len);
		ip[0] = (uint8_t)(0x40 | l3_len / 4);
		ref_put16(ip + 2, (uint16_t)(l3_len + l4_hdr + s->payload));
		ref_put16(ip + 6, s->frag ? 185 : 0x4000);
		ip[8] = 64;
		ip[9] = s->proto;
		memcpy(ip + 12, "\x0a\x01\x02\x03\xc6\x12\x00\x01", 8);
		for (i = 20; i < l3_len; i++)
			ip[i] = 1;	/* NOP options */
		ref_put16(ip + 10, (uint16_t)~ref_fold(ref_sum(ip, l3_len, 0)));
	}
	lo->l4 = lo->l3 + l3_len;
	lo->l4_len = l4_hdr + s->payload;
	l4 = buf + lo->l4;
	memset(l4, 0, l4_hdr);
	ref_put16(l4, 40000);
	ref_put16(l4 + 2, 5001);
	if (s->proto == 17)
		ref_put16(l4 + 4, (uint16_t)lo->l4_len);
	if (s->proto == 6)
		l4[12] = 0x50;
	for (i = 0; i < s->payload; i++)
		l4[l4_hdr + i] = (uint8_t)(s->fill + i * 7);
	if ((s->proto == 6 || s->proto == 17) && !s->frag) {
		uint16_t ck = (uint16_t)~ref_fold(ref_l4_sum(ip, s->ipv6, s->proto, l4,
					lo->l4_len));

		if (ck == 0 && s->proto == 17)
			ck = 0xffff;
		ref_put16(l4 + ref_cksum_off(s->proto), ck);
	}
	lo->len = lo->l4 + lo->l4_len;
	return lo->len;
}

#endif /* WIRE_REF_H */
