/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/* Software offloads: packet types, Rx checksum verdicts, Tx checksums on mbuf chains. */

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <cmocka.h>

#include <rte_mbuf.h>
#include <rte_mbuf_ptype.h>

#include "octo_wire.h"
#include "wire_ref.h"

#define IP_MASK RTE_MBUF_F_RX_IP_CKSUM_MASK
#define L4_MASK RTE_MBUF_F_RX_L4_CKSUM_MASK

static uint32_t
build(uint8_t *buf, int ipv6, uint8_t proto, struct ref_layout *lo)
{
	struct ref_spec s = { .ipv6 = ipv6, .proto = proto, .payload = 101, .fill = 3 };

	return ref_build(buf, &s, lo);
}

static void
check_verdict(const uint8_t *f, uint32_t len, uint64_t ip, uint64_t l4)
{
	uint64_t ol = octo_offload_rx_cksum(f, len);

	assert_int_equal(ol & IP_MASK, ip);
	assert_int_equal(ol & L4_MASK, l4);
	assert_int_equal(ol & ~(IP_MASK | L4_MASK), 0);
}

static void
test_rx_good_and_bad(void **state)
{
	static const uint8_t protos[] = { 6, 17 };
	uint8_t f[256];
	struct ref_layout lo;
	unsigned int v6, p;

	(void)state;
	for (v6 = 0; v6 < 2; v6++)
		for (p = 0; p < 2; p++) {
			uint64_t ip_good = v6 ? RTE_MBUF_F_RX_IP_CKSUM_NONE :
				RTE_MBUF_F_RX_IP_CKSUM_GOOD;
			uint32_t len = build(f, v6, protos[p], &lo);

			check_verdict(f, len, ip_good, RTE_MBUF_F_RX_L4_CKSUM_GOOD);
			/* a payload byte */
			f[len - 5] ^= 0x10;
			check_verdict(f, len, ip_good, RTE_MBUF_F_RX_L4_CKSUM_BAD);
			f[len - 5] ^= 0x10;
			/* an L4 header byte (destination port) */
			f[lo.l4 + 3] ^= 0x01;
			check_verdict(f, len, ip_good, RTE_MBUF_F_RX_L4_CKSUM_BAD);
			f[lo.l4 + 3] ^= 0x01;
			/* a source address byte: in the pseudo header */
			f[lo.l3 + (v6 ? 20 : 13)] ^= 0x80;
			check_verdict(f, len, v6 ? ip_good : RTE_MBUF_F_RX_IP_CKSUM_BAD,
					RTE_MBUF_F_RX_L4_CKSUM_BAD);
			f[lo.l3 + (v6 ? 20 : 13)] ^= 0x80;
			/* the L4 checksum itself */
			f[lo.l4 + ref_cksum_off(protos[p]) + 1] ^= 0x04;
			check_verdict(f, len, ip_good, RTE_MBUF_F_RX_L4_CKSUM_BAD);
			f[lo.l4 + ref_cksum_off(protos[p]) + 1] ^= 0x04;
			if (!v6) {
				/* TTL: covered by the IP checksum only */
				f[lo.l3 + 8]--;
				check_verdict(f, len, RTE_MBUF_F_RX_IP_CKSUM_BAD,
						RTE_MBUF_F_RX_L4_CKSUM_GOOD);
				f[lo.l3 + 8]++;
			}
			/* trailing Ethernet padding is not part of the segment */
			memset(f + len, 0xee, 8);
			check_verdict(f, len + 8, ip_good, RTE_MBUF_F_RX_L4_CKSUM_GOOD);
			/* cut short of what the IP header declares */
			check_verdict(f, len - 1, ip_good, RTE_MBUF_F_RX_L4_CKSUM_BAD);
		}
}

static void
test_rx_udp_zero_cksum(void **state)
{
	uint8_t f[256];
	struct ref_layout lo;
	uint32_t len;

	(void)state;
	len = build(f, 0, 17, &lo);
	ref_put16(f + lo.l4 + 6, 0);
	check_verdict(f, len, RTE_MBUF_F_RX_IP_CKSUM_GOOD, RTE_MBUF_F_RX_L4_CKSUM_GOOD);
	len = build(f, 1, 17, &lo);
	ref_put16(f + lo.l4 + 6, 0);
	check_verdict(f, len, RTE_MBUF_F_RX_IP_CKSUM_NONE, RTE_MBUF_F_RX_L4_CKSUM_BAD);
}

static void
test_rx_not_applicable(void **state)
{
	uint8_t f[256] = { 0 };
	struct ref_spec s = { .proto = 17, .payload = 30, .frag = 1 };
	struct ref_layout lo;
	uint32_t len;

	(void)state;
	ref_put16(f + 12, REF_ETHERTYPE_ARP);
	check_verdict(f, 60, 0, 0);
	check_verdict(f, 10, 0, 0);
	/* a fragment's L4 checksum covers bytes the NIC has not seen */
	len = ref_build(f, &s, &lo);
	check_verdict(f, len, RTE_MBUF_F_RX_IP_CKSUM_GOOD, RTE_MBUF_F_RX_L4_CKSUM_UNKNOWN);
	s.proto = 1;
	s.frag = 0;
	len = ref_build(f, &s, &lo);
	check_verdict(f, len, RTE_MBUF_F_RX_IP_CKSUM_GOOD, RTE_MBUF_F_RX_L4_CKSUM_UNKNOWN);
}

struct ptype_case {
	struct ref_spec spec;
	uint32_t ptype;
};

static void
test_ptypes(void **state)
{
	static const struct ptype_case cases[] = {
		{ { .proto = 17, .payload = 20 },
			RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4 | RTE_PTYPE_L4_UDP },
		{ { .tags = 1, .proto = 17, .payload = 20 },
			RTE_PTYPE_L2_ETHER_VLAN | RTE_PTYPE_L3_IPV4 | RTE_PTYPE_L4_UDP },
		{ { .tags = 2, .proto = 6, .payload = 20 },
			RTE_PTYPE_L2_ETHER_QINQ | RTE_PTYPE_L3_IPV4 | RTE_PTYPE_L4_TCP },
		{ { .ip_opt_words = 3, .proto = 6, .payload = 20 },
			RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4_EXT | RTE_PTYPE_L4_TCP },
		{ { .ip_opt_words = 1, .tags = 1, .proto = 17, .payload = 20 },
			RTE_PTYPE_L2_ETHER_VLAN | RTE_PTYPE_L3_IPV4_EXT | RTE_PTYPE_L4_UDP },
		{ { .ipv6 = 1, .proto = 17, .payload = 20 },
			RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV6 | RTE_PTYPE_L4_UDP },
		{ { .ipv6 = 1, .proto = 6, .payload = 20 },
			RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV6 | RTE_PTYPE_L4_TCP },
		{ { .ipv6 = 1, .hbh = 1, .proto = 6, .payload = 20 },
			RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV6_EXT | RTE_PTYPE_L4_TCP },
		{ { .ipv6 = 1, .hbh = 3, .proto = 17, .payload = 20 },
			RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV6_EXT | RTE_PTYPE_L4_UDP },
		{ { .ipv6 = 1, .tags = 1, .proto = 58, .payload = 20 },
			RTE_PTYPE_L2_ETHER_VLAN | RTE_PTYPE_L3_IPV6 | RTE_PTYPE_L4_ICMP },
		{ { .proto = 1, .payload = 20 },
			RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4 | RTE_PTYPE_L4_ICMP },
		{ { .proto = 47, .payload = 20 },
			RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4 | RTE_PTYPE_L4_NONFRAG },
		{ { .proto = 17, .payload = 20, .frag = 1 },
			RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4 | RTE_PTYPE_L4_FRAG },
		{ { .ipv6 = 1, .proto = 6, .payload = 20, .frag = 1 },
			RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV6_EXT | RTE_PTYPE_L4_FRAG },
	};
	uint8_t f[256];
	struct ref_layout lo;
	unsigned int i;

	(void)state;
	for (i = 0; i < RTE_DIM(cases); i++) {
		uint32_t len = ref_build(f, &cases[i].spec, &lo);

		assert_int_equal(octo_offload_ptype(f, len), cases[i].ptype);
		/* with options/extension headers the checksums still check out */
		if (!cases[i].spec.frag && (cases[i].spec.proto == 6 ||
				cases[i].spec.proto == 17))
			check_verdict(f, len, cases[i].spec.ipv6 ?
				RTE_MBUF_F_RX_IP_CKSUM_NONE : RTE_MBUF_F_RX_IP_CKSUM_GOOD,
				RTE_MBUF_F_RX_L4_CKSUM_GOOD);
	}
	/* ARP, plain and tagged; runts */
	memset(f, 0, 64);
	ref_put16(f + 12, REF_ETHERTYPE_ARP);
	assert_int_equal(octo_offload_ptype(f, 60), RTE_PTYPE_L2_ETHER_ARP);
	ref_put16(f + 12, REF_ETHERTYPE_VLAN);
	ref_put16(f + 16, REF_ETHERTYPE_ARP);
	assert_int_equal(octo_offload_ptype(f, 60), RTE_PTYPE_L2_ETHER_VLAN);
	assert_int_equal(octo_offload_ptype(f, 13), RTE_PTYPE_UNKNOWN);
	/* IPv4 ethertype but the header is cut: L2 only */
	ref_put16(f + 12, REF_ETHERTYPE_IPV4);
	f[14] = 0x45;
	assert_int_equal(octo_offload_ptype(f, 30), RTE_PTYPE_L2_ETHER);
	/* IPv4 ethertype, IPv6 version nibble: not IP */
	f[14] = 0x65;
	assert_int_equal(octo_offload_ptype(f, 60), RTE_PTYPE_L2_ETHER);
}

/* An mbuf chain over heap buffers, as a PMD's Tx path would see it. */
struct chain {
	struct rte_mbuf m[3];
	uint8_t *buf[3];
};

#define HEADROOM 64

static void
chain_make(struct chain *c, const uint8_t *frame, uint32_t len, const uint32_t cut[2])
{
	uint32_t start[3] = { 0, cut[0], cut[1] }, end[3] = { cut[0], cut[1], len };
	int i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < 3; i++) {
		c->buf[i] = malloc(HEADROOM + end[i] - start[i]);
		assert_non_null(c->buf[i]);
		memcpy(c->buf[i] + HEADROOM, frame + start[i], end[i] - start[i]);
		c->m[i].buf_addr = c->buf[i];
		c->m[i].buf_len = (uint16_t)(HEADROOM + end[i] - start[i]);
		c->m[i].data_off = HEADROOM;
		c->m[i].data_len = (uint16_t)(end[i] - start[i]);
		c->m[i].next = i < 2 ? &c->m[i + 1] : NULL;
	}
	c->m[0].nb_segs = 3;
	c->m[0].pkt_len = len;
}

static void
chain_flatten(const struct chain *c, uint8_t *out)
{
	const struct rte_mbuf *m;

	for (m = &c->m[0]; m != NULL; m = m->next) {
		memcpy(out, rte_pktmbuf_mtod(m, const uint8_t *), m->data_len);
		out += m->data_len;
	}
}

static void
chain_free(struct chain *c)
{
	int i;

	for (i = 0; i < 3; i++)
		free(c->buf[i]);
}

static void
test_tx_cksum_3_segments(void **state)
{
	static const uint8_t protos[] = { 6, 17 };
	/* odd and even cuts: one's-complement sums must survive both */
	static const uint32_t cuts[][2] = { { 7, 100 }, { 8, 101 }, { 1, 2 }, { 33, 34 } };
	uint8_t flat[600], out[600];
	unsigned int v6, p, k;

	(void)state;
	for (v6 = 0; v6 < 2; v6++)
		for (p = 0; p < 2; p++)
			for (k = 0; k < RTE_DIM(cuts); k++) {
				struct ref_spec s = { .ipv6 = v6, .proto = protos[p],
					.payload = 333 + k, .fill = (uint8_t)(k * 31),
					.ip_opt_words = k == 3 ? 2 : 0 };
				struct ref_layout lo;
				uint32_t len = ref_build(flat, &s, &lo);
				uint32_t hdrs = lo.l4 + (protos[p] == 6 ? 20 : 8);
				uint32_t cut[2] = { hdrs + cuts[k][0], hdrs + cuts[k][1] };
				uint32_t ck_off = lo.l4 + ref_cksum_off(protos[p]);
				struct chain c;

				/* garbage where the checksums go */
				chain_make(&c, flat, len, cut);
				ref_put16(c.buf[0] + HEADROOM + ck_off, 0xbeef);
				if (!v6)
					ref_put16(c.buf[0] + HEADROOM + lo.l3 + 10, 0x1234);
				c.m[0].l2_len = lo.l3;
				c.m[0].l3_len = lo.l4 - lo.l3;
				c.m[0].ol_flags = (v6 ? RTE_MBUF_F_TX_IPV6 :
					RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM) |
					(protos[p] == 6 ? RTE_MBUF_F_TX_TCP_CKSUM :
					 RTE_MBUF_F_TX_UDP_CKSUM);
				assert_int_equal(octo_offload_tx(&c.m[0]), 0);
				chain_flatten(&c, out);
				/* the same bytes as the reference built on the flat copy */
				assert_memory_equal(out, flat, len);
				check_verdict(out, len, v6 ? RTE_MBUF_F_RX_IP_CKSUM_NONE :
					RTE_MBUF_F_RX_IP_CKSUM_GOOD, RTE_MBUF_F_RX_L4_CKSUM_GOOD);
				chain_free(&c);
			}
}

/* Every payload length mod 8 and every segment parity, both directions. */
static void
test_tx_rx_all_lengths(void **state)
{
	uint8_t flat[300], out[300];
	uint32_t payload, c0, v6;

	(void)state;
	for (v6 = 0; v6 < 2; v6++)
		for (payload = 0; payload < 40; payload++)
			for (c0 = 1; c0 < 10; c0++) {
				struct ref_spec s = { .ipv6 = v6, .proto = 17,
					.payload = payload, .fill = (uint8_t)(0xf0 + c0) };
				struct ref_layout lo;
				uint32_t len = ref_build(flat, &s, &lo);
				uint32_t cut[2] = { lo.l4 + 8, lo.l4 + 8 + c0 };
				struct chain c;

				if (cut[1] > len)
					cut[1] = len;
				check_verdict(flat, len, v6 ? RTE_MBUF_F_RX_IP_CKSUM_NONE :
					RTE_MBUF_F_RX_IP_CKSUM_GOOD, RTE_MBUF_F_RX_L4_CKSUM_GOOD);
				chain_make(&c, flat, len, cut);
				ref_put16(c.buf[0] + HEADROOM + lo.l4 + 6, 0);
				c.m[0].l2_len = lo.l3;
				c.m[0].l3_len = lo.l4 - lo.l3;
				c.m[0].ol_flags = (v6 ? RTE_MBUF_F_TX_IPV6 : RTE_MBUF_F_TX_IPV4) |
					RTE_MBUF_F_TX_UDP_CKSUM;
				assert_int_equal(octo_offload_tx(&c.m[0]), 0);
				chain_flatten(&c, out);
				assert_memory_equal(out, flat, len);
				chain_free(&c);
			}
}

/* IP checksum alone leaves the L4 checksum as it was, and vice versa. */
static void
test_tx_partial_requests(void **state)
{
	uint8_t flat[300], out[300];
	struct ref_layout lo;
	uint32_t len = build(flat, 0, 17, &lo);
	uint32_t cut[2] = { 60, 61 };
	struct chain c;

	(void)state;
	chain_make(&c, flat, len, cut);
	ref_put16(c.buf[0] + HEADROOM + lo.l3 + 10, 0x1234);
	ref_put16(c.buf[0] + HEADROOM + lo.l4 + 6, 0x5678);
	c.m[0].l2_len = lo.l3;
	c.m[0].l3_len = 20;
	c.m[0].ol_flags = RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM;
	assert_int_equal(octo_offload_tx(&c.m[0]), 0);
	chain_flatten(&c, out);
	assert_memory_equal(out + lo.l3 + 10, flat + lo.l3 + 10, 2);
	assert_int_equal(ref_get16(out + lo.l4 + 6), 0x5678);

	ref_put16(c.buf[0] + HEADROOM + lo.l3 + 10, 0x1234);
	c.m[0].ol_flags = RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_UDP_CKSUM;
	assert_int_equal(octo_offload_tx(&c.m[0]), 0);
	chain_flatten(&c, out);
	assert_int_equal(ref_get16(out + lo.l3 + 10), 0x1234);
	assert_memory_equal(out + lo.l4 + 6, flat + lo.l4 + 6, 2);

	/* nothing asked: nothing touched */
	ref_put16(c.buf[0] + HEADROOM + lo.l4 + 6, 0x5678);
	c.m[0].ol_flags = 0;
	assert_int_equal(octo_offload_tx(&c.m[0]), 0);
	chain_flatten(&c, out);
	assert_int_equal(ref_get16(out + lo.l4 + 6), 0x5678);
	chain_free(&c);
}

static void
test_tx_refused(void **state)
{
	uint8_t flat[300], before[300], out[300];
	struct ref_layout lo;
	uint32_t len = build(flat, 0, 6, &lo);
	uint32_t cut[2] = { 80, 90 };
	struct chain c;
	const uint64_t ok = RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM |
		RTE_MBUF_F_TX_TCP_CKSUM;
	const uint64_t bad_flags[] = {
		ok | RTE_MBUF_F_TX_TCP_SEG,
		ok | RTE_MBUF_F_TX_TUNNEL_VXLAN,
		ok | RTE_MBUF_F_TX_OUTER_IP_CKSUM | RTE_MBUF_F_TX_OUTER_IPV4,
		RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_SCTP_CKSUM,
		RTE_MBUF_F_TX_IPV6 | RTE_MBUF_F_TX_IP_CKSUM,	/* IP cksum on IPv6 */
		RTE_MBUF_F_TX_TCP_CKSUM,			/* which IP? */
		RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IPV6 | RTE_MBUF_F_TX_TCP_CKSUM,
		RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_UDP_CKSUM,	/* it is TCP */
		RTE_MBUF_F_TX_IPV6 | RTE_MBUF_F_TX_TCP_CKSUM,	/* it is IPv4 */
	};
	unsigned int i;

	(void)state;
	chain_make(&c, flat, len, cut);
	c.m[0].l2_len = lo.l3;
	c.m[0].l3_len = 20;
	/* a stale IP checksum a refusal must not fix */
	ref_put16(c.buf[0] + HEADROOM + lo.l3 + 10, 0x1234);
	chain_flatten(&c, before);
	for (i = 0; i < RTE_DIM(bad_flags); i++) {
		c.m[0].ol_flags = bad_flags[i];
		assert_int_equal(octo_offload_tx(&c.m[0]), -EINVAL);
	}
	/* lengths that do not match the headers */
	c.m[0].ol_flags = ok;
	c.m[0].l3_len = 24;
	assert_int_equal(octo_offload_tx(&c.m[0]), -EINVAL);
	c.m[0].l3_len = 20;
	c.m[0].l2_len = 12;
	assert_int_equal(octo_offload_tx(&c.m[0]), -EINVAL);
	c.m[0].l2_len = lo.l3;
	/* IP says more bytes than the chain holds */
	c.m[0].pkt_len = len - 1;
	assert_int_equal(octo_offload_tx(&c.m[0]), -EINVAL);
	c.m[0].pkt_len = len;
	chain_flatten(&c, out);
	assert_memory_equal(out, before, len);
	/* and the same mbuf with sane fields goes through */
	assert_int_equal(octo_offload_tx(&c.m[0]), 0);
	chain_flatten(&c, out);
	assert_memory_equal(out, flat, len);
	chain_free(&c);

	/* a consistent chain, but the TCP header straddles two segments */
	cut[0] = lo.l4 + 10;
	cut[1] = lo.l4 + 30;
	chain_make(&c, flat, len, cut);
	c.m[0].l2_len = lo.l3;
	c.m[0].l3_len = 20;
	c.m[0].ol_flags = RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_TCP_CKSUM;
	assert_int_equal(octo_offload_tx(&c.m[0]), -EINVAL);
	/* while IP checksum alone only needs the IP header there */
	c.m[0].ol_flags = RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM;
	assert_int_equal(octo_offload_tx(&c.m[0]), 0);
	chain_free(&c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rx_good_and_bad),
		cmocka_unit_test(test_rx_udp_zero_cksum),
		cmocka_unit_test(test_rx_not_applicable),
		cmocka_unit_test(test_ptypes),
		cmocka_unit_test(test_tx_cksum_3_segments),
		cmocka_unit_test(test_tx_rx_all_lengths),
		cmocka_unit_test(test_tx_partial_requests),
		cmocka_unit_test(test_tx_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
