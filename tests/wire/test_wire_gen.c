/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/* Generator: frames parse back, checksums hold, flows and seqs are right. */

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <cmocka.h>

#include <rte_mbuf_ptype.h>

#include "octo_wire.h"
#include "wire_ref.h"

/* What the test knows of a generated frame, read with its own offsets. */
struct parsed {
	uint8_t src[16], dst[16];
	uint16_t sport, dport;
	uint8_t proto;
	uint32_t magic, flow;
	uint64_t seq;
};

static uint64_t
get64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

static uint32_t
get32(const uint8_t *p)
{
	return (uint32_t)ref_get16(p) << 16 | ref_get16(p + 2);
}

/* CRC32c bit by bit (reflected, polynomial 0x82f63b78), as RFC 9260's
 * appendix defines SCTP's checksum, the field counted as zero. */
static uint32_t
ref_crc32c(const uint8_t *p, uint32_t n, uint32_t field)
{
	uint32_t crc = 0xffffffff, i;
	int b;

	for (i = 0; i < n; i++) {
		crc ^= i >= field && i < field + 4 ? 0 : p[i];
		for (b = 0; b < 8; b++)
			crc = crc & 1 ? crc >> 1 ^ 0x82f63b78 : crc >> 1;
	}
	return ~crc;
}

static uint32_t
l4_ptype(uint8_t proto)
{
	switch (proto) {
	case 6:
		return RTE_PTYPE_L4_TCP;
	case 17:
		return RTE_PTYPE_L4_UDP;
	case 132:
		return RTE_PTYPE_L4_SCTP;
	default:
		return RTE_PTYPE_L4_ICMP;
	}
}

/* Check the frame's headers and checksums independently; fill @p out. */
static void
check_frame(const struct octo_gen_conf *c, const uint8_t *f, uint16_t len,
		struct parsed *out)
{
	uint32_t l3 = 14, l4, l4_len, pay, i;

	assert_int_equal(len, c->pkt_len);
	memset(out, 0, sizeof(*out));
	if (c->ipv6) {
		assert_int_equal(ref_get16(f + 12), REF_ETHERTYPE_IPV6);
		assert_int_equal(f[l3] >> 4, 6);
		assert_int_equal(ref_get16(f + l3 + 4), len - 54);
		out->proto = f[l3 + 6];
		memcpy(out->src, f + l3 + 8, 16);
		memcpy(out->dst, f + l3 + 24, 16);
		l4 = l3 + 40;
	} else {
		assert_int_equal(ref_get16(f + 12), REF_ETHERTYPE_IPV4);
		assert_int_equal(f[l3], 0x45);
		assert_int_equal(ref_get16(f + l3 + 2), len - 14);
		/* header checksum verifies */
		assert_int_equal(ref_fold(ref_sum(f + l3, 20, 0)), 0xffff);
		out->proto = f[l3 + 9];
		memcpy(out->src, f + l3 + 12, 4);
		memcpy(out->dst, f + l3 + 16, 4);
		l4 = l3 + 20;
	}
	assert_int_equal(out->proto, c->l4_proto);
	l4_len = len - l4;
	if (c->l4_proto == 17)
		assert_int_equal(ref_get16(f + l4 + 4), l4_len);
	if (c->l4_proto == 132) {
		uint32_t crc = ref_crc32c(f + l4, l4_len, 8);

		/* stored least significant byte first */
		assert_int_equal(f[l4 + 8] | f[l4 + 9] << 8 | f[l4 + 10] << 16 |
			(uint32_t)f[l4 + 11] << 24, crc);
	} else if (c->l4_proto == 1) {
		/* ICMP: no pseudo header */
		assert_int_equal(ref_fold(ref_sum(f + l4, l4_len, 0)), 0xffff);
	} else {
		assert_int_equal(ref_fold(ref_l4_sum(f + l3, c->ipv6, out->proto,
			f + l4, l4_len)), 0xffff);
	}
	/* UDP's 0 would mean "not computed" */
	if (c->l4_proto == 17)
		assert_int_not_equal(ref_get16(f + l4 + 6), 0);
	if (c->l4_proto == 1 || c->l4_proto == 58) {
		/* echo request: identifier per flow, in the source port's range */
		assert_int_equal(f[l4], c->l4_proto == 1 ? 8 : 128);
		assert_int_equal(f[l4 + 1], 0);
		out->sport = ref_get16(f + l4 + 4);
	} else {
		out->sport = ref_get16(f + l4);
		out->dport = ref_get16(f + l4 + 2);
	}
	pay = l4 + (c->l4_proto == 6 ? (f[l4 + 12] >> 4) * 4u :
		c->l4_proto == 132 ? 12u : 8u);
	out->magic = get32(f + pay);
	out->flow = get32(f + pay + 4);
	out->seq = get64(f + pay + 8);
	if (c->l4_proto == 1 || c->l4_proto == 58)
		assert_int_equal(ref_get16(f + l4 + 6), (uint16_t)out->seq);
	assert_int_equal(out->magic, OCTO_WIRE_MAGIC);
	for (i = pay + 16; i < len; i++)
		assert_int_equal(f[i], 0);
	/* and the library's own parser agrees on the type */
	assert_int_equal(octo_offload_ptype(f, len), RTE_PTYPE_L2_ETHER |
		(c->ipv6 ? RTE_PTYPE_L3_IPV6 : RTE_PTYPE_L3_IPV4) |
		l4_ptype(c->l4_proto));
}

static void
run_conf(const struct octo_gen_conf *c, uint32_t rounds)
{
	struct octo_gen *g = octo_gen_create(c);
	uint8_t buf[2048];
	struct parsed p;
	uint64_t i;

	assert_non_null(g);
	/* dirty buffer: the generator must write every byte it returns */
	memset(buf, 0xa5, sizeof(buf));
	for (i = 0; i < (uint64_t)rounds * c->nb_flows; i++) {
		uint16_t len = octo_gen_next(g, buf, sizeof(buf));

		check_frame(c, buf, len, &p);
		assert_int_equal(p.flow, i % c->nb_flows);	/* round robin */
		assert_int_equal(p.seq, i / c->nb_flows);	/* per-flow seq */
		memset(buf, (int)i, len);
	}
	assert_int_equal(octo_gen_count(g), (uint64_t)rounds * c->nb_flows);
	octo_gen_free(g);
}

static void
test_frames_all_kinds(void **state)
{
	static const uint16_t lens[] = { 64, 90, 128, 1514 };
	struct octo_gen_conf c = { .nb_flows = 5, .seed = 7 };
	unsigned int v6, tcp, l;

	(void)state;
	for (v6 = 0; v6 < 2; v6++)
		for (tcp = 0; tcp < 2; tcp++)
			for (l = 0; l < RTE_DIM(lens); l++) {
				c.ipv6 = (uint8_t)v6;
				c.l4_proto = tcp ? 6 : 17;
				c.pkt_len = lens[l];
				if (lens[l] < 14 + (v6 ? 40 : 20) + (tcp ? 20 : 8) + 16)
					continue;
				run_conf(&c, 20);
				c.seed++;
			}
}

/*
 * 70000 frames of one flow of @p c over IPv4 (@p l4_v4, frames of
 * @p len_v4), then over IPv6 (@p l4_v6, @p len_v6): sequence numbers
 * past 16 bits.
 */
static void
long_runs(struct octo_gen_conf *c, uint8_t l4_v4, uint16_t len_v4, uint8_t l4_v6,
		uint16_t len_v6)
{
	c->nb_flows = 1;
	c->ipv6 = 0;
	c->l4_proto = l4_v4;
	c->pkt_len = len_v4;
	run_conf(c, 70000);
	c->ipv6 = 1;
	c->l4_proto = l4_v6;
	c->pkt_len = len_v6;
	run_conf(c, 70000);
}

/* Sequence numbers past 16 and 32 bits keep the incremental sums right. */
static void
test_long_run_checksums(void **state)
{
	struct octo_gen_conf c = { .seed = 3 };

	(void)state;
	long_runs(&c, 17, 64, 6, 100);
}

/* SCTP over both IPs, ICMP over IPv4, ICMPv6 over IPv6; the ICMP sequence
 * numbers wrap past 16 bits with the checksum still right. */
static void
test_frames_sctp_icmp(void **state)
{
	static const uint16_t lens[] = { 82, 128, 1514 };
	static const uint8_t kinds[][2] = { { 0, 132 }, { 1, 132 }, { 0, 1 }, { 1, 58 } };
	struct octo_gen_conf c = { .nb_flows = 5, .seed = 9 };
	unsigned int k, l;

	(void)state;
	for (k = 0; k < RTE_DIM(kinds); k++)
		for (l = 0; l < RTE_DIM(lens); l++) {
			c.ipv6 = kinds[k][0];
			c.l4_proto = kinds[k][1];
			c.pkt_len = lens[l];
			run_conf(&c, 20);
			c.seed++;
		}
	long_runs(&c, 1, 64, 58, 99);
}

static int
cmp_tuple(const void *a, const void *b)
{
	return memcmp(a, b, 37);
}

static void
check_distinct(const struct octo_gen_conf *c)
{
	struct octo_gen *g = octo_gen_create(c);
	uint8_t buf[256], (*tuples)[37];
	unsigned int sport_low[64] = { 0 }, src_low[64] = { 0 };
	struct parsed p;
	uint32_t i;

	assert_non_null(g);
	tuples = calloc(c->nb_flows, sizeof(*tuples));
	assert_non_null(tuples);
	for (i = 0; i < c->nb_flows; i++) {
		check_frame(c, buf, octo_gen_next(g, buf, sizeof(buf)), &p);
		memcpy(tuples[i], p.src, 16);
		memcpy(tuples[i] + 16, p.dst, 16);
		ref_put16(tuples[i] + 32, p.sport);
		ref_put16(tuples[i] + 34, p.dport);
		tuples[i][36] = p.proto;
		sport_low[p.sport % 64]++;
		src_low[(c->ipv6 ? p.src[15] : p.src[3]) % 64]++;
	}
	qsort(tuples, c->nb_flows, sizeof(*tuples), cmp_tuple);
	for (i = 1; i < c->nb_flows; i++)
		assert_int_not_equal(memcmp(tuples[i - 1], tuples[i], 37), 0);
	/* the virtual port spreads by the low bits: all of them must occur */
	if (c->nb_flows >= 64)
		for (i = 0; i < 64; i++) {
			assert_int_not_equal(sport_low[i], 0);
			assert_int_not_equal(src_low[i], 0);
		}
	free(tuples);
	octo_gen_free(g);
}

static void
test_distinct_tuples_low_bits(void **state)
{
	struct octo_gen_conf c = { .nb_flows = 64, .pkt_len = 128, .l4_proto = 17 };
	uint32_t seed;

	(void)state;
	for (seed = 0; seed < 20; seed++) {
		c.seed = seed * 0x9e3779b9u;
		c.ipv6 = seed & 1;
		c.l4_proto = seed & 2 ? 6 : 17;
		c.nb_flows = 64 + seed * 37;
		check_distinct(&c);
	}
	/* more flows than source ports: addresses keep the tuples apart */
	c.nb_flows = 40000;
	c.ipv6 = 0;
	check_distinct(&c);
	c.ipv6 = 1;
	check_distinct(&c);
}

static void
test_seed_changes_tuples(void **state)
{
	struct octo_gen_conf c = { .nb_flows = 1, .pkt_len = 64, .l4_proto = 17 };
	struct octo_gen *a, *b;
	uint8_t fa[64], fb[64];

	(void)state;
	a = octo_gen_create(&c);
	c.seed = 1;
	b = octo_gen_create(&c);
	assert_non_null(a);
	assert_non_null(b);
	octo_gen_next(a, fa, sizeof(fa));
	octo_gen_next(b, fb, sizeof(fb));
	/* IP and ports (bytes 26..37) differ */
	assert_int_not_equal(memcmp(fa + 26, fb + 26, 12), 0);
	octo_gen_free(a);
	octo_gen_free(b);
}

static void
test_bad_conf_and_room(void **state)
{
	struct octo_gen_conf c = { .nb_flows = 0, .pkt_len = 64, .l4_proto = 17 };
	struct octo_gen *g;
	uint8_t buf[128];
	struct parsed p;

	(void)state;
	errno = 0;
	assert_null(octo_gen_create(&c));
	assert_int_equal(errno, EINVAL);
	c.nb_flows = OCTO_WIRE_MAX_FLOWS + 1;
	assert_null(octo_gen_create(&c));
	c.nb_flows = 2;
	c.l4_proto = 2;		/* IGMP */
	assert_null(octo_gen_create(&c));
	c.l4_proto = 58;	/* ICMPv6 over IPv4 */
	assert_null(octo_gen_create(&c));
	c.l4_proto = 6;
	c.ipv6 = 1;
	c.pkt_len = 89;		/* 14 + 40 + 20 + 16 = 90 needed */
	assert_null(octo_gen_create(&c));
	c.pkt_len = 90;
	g = octo_gen_create(&c);
	assert_non_null(g);
	/* no room: nothing written, nothing consumed */
	assert_int_equal(octo_gen_next(g, buf, 89), 0);
	assert_int_equal(octo_gen_count(g), 0);
	check_frame(&c, buf, octo_gen_next(g, buf, 90), &p);
	assert_int_equal(p.flow, 0);
	assert_int_equal(p.seq, 0);
	octo_gen_free(g);
}

/* The advertised minimum is exactly what create accepts. */
static void
test_min_len(void **state)
{
	static const uint16_t want[2][2] = { { 64, 70 }, { 78, 90 } };
	struct octo_gen_conf c = { .nb_flows = 1 };
	struct octo_gen *g;
	struct parsed p;
	uint8_t buf[128];
	unsigned int v6, tcp;

	(void)state;
	assert_int_equal(octo_gen_min_len(0, 2), 0);	/* IGMP */
	assert_int_equal(octo_gen_min_len(1, 1), 0);	/* ICMP over IPv6 */
	assert_int_equal(octo_gen_min_len(0, 58), 0);	/* ICMPv6 over IPv4 */
	assert_int_equal(octo_gen_min_len(0, 1), 64);
	assert_int_equal(octo_gen_min_len(1, 58), 78);
	assert_int_equal(octo_gen_min_len(0, 132), 64);
	assert_int_equal(octo_gen_min_len(1, 132), 82);
	for (v6 = 0; v6 < 2; v6++)
		for (tcp = 0; tcp < 2; tcp++) {
			c.ipv6 = (uint8_t)v6;
			c.l4_proto = tcp ? 6 : 17;
			c.pkt_len = octo_gen_min_len(c.ipv6, c.l4_proto);
			assert_int_equal(c.pkt_len, want[v6][tcp]);
			g = octo_gen_create(&c);
			assert_non_null(g);
			check_frame(&c, buf, octo_gen_next(g, buf, sizeof(buf)), &p);
			octo_gen_free(g);
			c.pkt_len--;
			assert_null(octo_gen_create(&c));
		}
}

static void
test_set_eth(void **state)
{
	struct octo_gen_conf c = { .nb_flows = 3, .pkt_len = 70, .l4_proto = 6 };
	struct rte_ether_addr src = { { 0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0xee } };
	struct rte_ether_addr dst = { { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 } };
	struct octo_gen *g = octo_gen_create(&c);
	uint8_t buf[70];
	struct parsed p;

	(void)state;
	assert_non_null(g);
	octo_gen_set_eth(g, &src, &dst);
	check_frame(&c, buf, octo_gen_next(g, buf, sizeof(buf)), &p);
	assert_memory_equal(buf, dst.addr_bytes, 6);
	assert_memory_equal(buf + 6, src.addr_bytes, 6);
	octo_gen_free(g);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_frames_all_kinds),
		cmocka_unit_test(test_long_run_checksums),
		cmocka_unit_test(test_frames_sctp_icmp),
		cmocka_unit_test(test_distinct_tuples_low_bits),
		cmocka_unit_test(test_seed_changes_tuples),
		cmocka_unit_test(test_bad_conf_and_room),
		cmocka_unit_test(test_min_len),
		cmocka_unit_test(test_set_eth),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
