/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Unit test (no EAL) of a template rule's default bucket: the program made
 * once per pattern template (octopus_flow_bucket_prog_make) and run on a
 * rule's specs (octopus_flow_bucket_run) gives what
 * octopus_flow_bucket_of gives on the rule's specs under the template's
 * masks, an item the template leaves unmasked carrying no spec.  Known
 * cases first, then seeded random templates and rules: item lists,
 * masks (none, zero, full, random, the bucket bits only, all but one of
 * them), spreading fields, RETA sizes, specs given or not.
 */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <rte_byteorder.h>

#include "octopus_flow.h"

#define MAX_ITEMS	6
#define ITEM_ROOM	64	/* bytes of a spec or mask buffer (>= any item the port takes) */

/* One template, or one rule of it: items over buffers of their own. */
struct pat {
	struct rte_flow_item items[MAX_ITEMS + 1];
	uint8_t spec[MAX_ITEMS][ITEM_ROOM];
	uint8_t mask[MAX_ITEMS][ITEM_ROOM];
};

static uint64_t seed = 0x9e3779b97f4a7c15ULL;

static uint32_t
rnd(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return (uint32_t)(seed >> 16);
}

/*
 * What the port computed per rule before the program: the rule's specs
 * under the template's masks, through octopus_flow_bucket_of.
 */
static int
bucket_through_masks(enum octo_steer_field spread, uint16_t reta_size,
		const struct rte_flow_item tmpl[], const struct rte_flow_item rule[])
{
	struct rte_flow_item items[MAX_ITEMS + 1];
	unsigned int i;

	for (i = 0; ; i++) {
		items[i].type = tmpl[i].type;
		items[i].mask = octopus_flow_item_size(tmpl[i].type) != 0 ? tmpl[i].mask : NULL;
		items[i].spec = items[i].mask != NULL ? rule[i].spec : NULL;
		items[i].last = NULL;
		if (tmpl[i].type == RTE_FLOW_ITEM_TYPE_END)
			break;
	}
	return octopus_flow_bucket_of(spread, reta_size, items);
}

static int
bucket_by_prog(enum octo_steer_field spread, uint16_t reta_size,
		const struct rte_flow_item tmpl[], const struct rte_flow_item rule[])
{
	struct octopus_flow_bucket_prog bp;

	octopus_flow_bucket_prog_make(spread, reta_size, tmpl, &bp);
	return octopus_flow_bucket_run(&bp, rule);
}

/* The pattern of eth / ipv4 / udp, masks @p ip_m and @p udp_m (NULL: none). */
static void
eth_ipv4_udp(struct rte_flow_item it[4], const struct rte_flow_item_ipv4 *ip_m,
		const struct rte_flow_item_udp *udp_m, const struct rte_flow_item_ipv4 *ip_s,
		const struct rte_flow_item_udp *udp_s)
{
	memset(it, 0, 4 * sizeof(*it));
	it[0].type = RTE_FLOW_ITEM_TYPE_ETH;
	it[1].type = RTE_FLOW_ITEM_TYPE_IPV4;
	it[1].mask = ip_m;
	it[1].spec = ip_s;
	it[2].type = RTE_FLOW_ITEM_TYPE_UDP;
	it[2].mask = udp_m;
	it[2].spec = udp_s;
	it[3].type = RTE_FLOW_ITEM_TYPE_END;
}

static void
test_known(void **state)
{
	struct rte_flow_item_ipv4 ip_m, ip_s;
	struct rte_flow_item_udp udp_m, udp_s;
	struct rte_flow_item tmpl[4], rule[4];

	(void)state;
	memset(&ip_m, 0, sizeof(ip_m));
	memset(&udp_m, 0, sizeof(udp_m));
	memset(&ip_s, 0, sizeof(ip_s));
	memset(&udp_s, 0, sizeof(udp_s));
	ip_m.hdr.src_addr = RTE_BE32(0xffffffff);
	ip_m.hdr.dst_addr = RTE_BE32(0xffffffff);
	udp_m.hdr.src_port = RTE_BE16(0xffff);
	udp_m.hdr.dst_port = RTE_BE16(0xffff);
	ip_s.hdr.src_addr = RTE_BE32(0x0a000001);
	ip_s.hdr.dst_addr = RTE_BE32(0x0a0000fe);
	udp_s.hdr.src_port = RTE_BE16(0x1234);
	udp_s.hdr.dst_port = RTE_BE16(0x4321);
	/* the benchmark's template: the L4 source port's low bits */
	eth_ipv4_udp(tmpl, &ip_m, &udp_m, NULL, NULL);
	eth_ipv4_udp(rule, NULL, NULL, &ip_s, &udp_s);
	assert_int_equal(bucket_by_prog(OCTO_STEER_FIELD_L4_SRC, 64, tmpl, rule), 0x34 & 63);
	assert_int_equal(bucket_by_prog(OCTO_STEER_FIELD_L4_DST, 64, tmpl, rule), 0x21);
	assert_int_equal(bucket_by_prog(OCTO_STEER_FIELD_L4_DST, 512, tmpl, rule), 0x121);
	/* a rule without the UDP spec matches every port: several buckets */
	rule[2].spec = NULL;
	assert_int_equal(bucket_by_prog(OCTO_STEER_FIELD_L4_SRC, 64, tmpl, rule), -1);
	rule[2].spec = &udp_s;
	/* the template leaves UDP unmasked: every rule spans several */
	tmpl[2].mask = NULL;
	assert_int_equal(bucket_by_prog(OCTO_STEER_FIELD_L4_SRC, 64, tmpl, rule), -1);
	/* it masks the port's high bits only: several */
	udp_m.hdr.src_port = RTE_BE16(0xff00);
	tmpl[2].mask = &udp_m;
	assert_int_equal(bucket_by_prog(OCTO_STEER_FIELD_L4_SRC, 64, tmpl, rule), -1);
	/* exactly the bucket bits: the bucket */
	udp_m.hdr.src_port = RTE_BE16(63);
	assert_int_equal(bucket_by_prog(OCTO_STEER_FIELD_L4_SRC, 64, tmpl, rule), 0x34);
	/* without UDP the address carries it: the same direction */
	tmpl[2].type = RTE_FLOW_ITEM_TYPE_END;
	rule[2].type = RTE_FLOW_ITEM_TYPE_END;
	assert_int_equal(bucket_by_prog(OCTO_STEER_FIELD_L4_SRC, 64, tmpl, rule), 1);
	assert_int_equal(bucket_by_prog(OCTO_STEER_FIELD_IP_DST, 64, tmpl, rule), 0x3e);
	/* no IP at all: the catch-all */
	tmpl[1].type = RTE_FLOW_ITEM_TYPE_END;
	rule[1].type = RTE_FLOW_ITEM_TYPE_END;
	assert_int_equal(bucket_by_prog(OCTO_STEER_FIELD_IP_DST, 64, tmpl, rule), -1);
}

static const enum rte_flow_item_type kinds[] = {
	RTE_FLOW_ITEM_TYPE_ETH, RTE_FLOW_ITEM_TYPE_VLAN, RTE_FLOW_ITEM_TYPE_IPV4,
	RTE_FLOW_ITEM_TYPE_IPV6, RTE_FLOW_ITEM_TYPE_TCP, RTE_FLOW_ITEM_TYPE_UDP,
	RTE_FLOW_ITEM_TYPE_SCTP, RTE_FLOW_ITEM_TYPE_ICMP, RTE_FLOW_ITEM_TYPE_VOID,
};

/* A mask over @p size bytes: none, zeros, ones, random, or the bucket bits of every port/address. */
static void
random_mask(uint8_t *m, size_t size, uint16_t reta_size, const void **out)
{
	uint32_t how = rnd() % 7, need = (uint32_t)reta_size - 1;
	size_t k;

	*out = m;
	switch (how) {
	case 0:
		*out = NULL;
		return;
	case 1:
		memset(m, 0, size);
		return;
	case 2:
		memset(m, 0xff, size);
		return;
	case 3:
		for (k = 0; k < size; k++)
			m[k] = (uint8_t)rnd();
		return;
	default:
		/* the bucket bits (or all but one) at the end of every 16/32-bit word */
		memset(m, 0, size);
		for (k = 0; k + 4 <= size; k += 2) {
			uint32_t v = need;

			if (how == 5 && need != 0)
				v &= ~(UINT32_C(1) << (rnd() % 16));
			if (how == 6)
				v |= rnd();
			m[k] |= (uint8_t)(v >> 8);
			m[k + 1] |= (uint8_t)v;
		}
		return;
	}
}

static void
test_random(void **state)
{
	static const uint16_t retas[] = { 64, 128, 512, 1, 2, 4096, 0 };
	static struct pat tmpl, rule;
	unsigned int t, r, i, n, outcomes[3] = { 0, 0, 0 };

	(void)state;
	for (t = 0; t < 20000; t++) {
		enum octo_steer_field spread = (enum octo_steer_field)(rnd() % OCTO_STEER_FIELD_MAX);
		uint16_t reta = retas[rnd() % RTE_DIM(retas)];

		memset(&tmpl, 0, sizeof(tmpl));
		n = 1 + rnd() % MAX_ITEMS;
		for (i = 0; i < n; i++) {
			size_t size;

			tmpl.items[i].type = kinds[rnd() % RTE_DIM(kinds)];
			size = octopus_flow_item_size(tmpl.items[i].type);
			assert_true(size <= ITEM_ROOM);
			if (size != 0)
				random_mask(tmpl.mask[i], size, reta, &tmpl.items[i].mask);
			/* a template's spec says nothing of a rule's bucket */
			if (rnd() % 4 == 0)
				tmpl.items[i].spec = tmpl.spec[i];
		}
		tmpl.items[n].type = RTE_FLOW_ITEM_TYPE_END;
		for (r = 0; r < 16; r++) {
			int want, got;

			memset(&rule, 0, sizeof(rule));
			for (i = 0; i <= n; i++) {
				size_t k;

				rule.items[i].type = tmpl.items[i].type;
				if (i == n || rnd() % 8 == 0)
					continue;	/* no spec: any header */
				for (k = 0; k < ITEM_ROOM; k++)
					rule.spec[i][k] = (uint8_t)rnd();
				rule.items[i].spec = rule.spec[i];
				/* a rule's own mask is not the template's: ignored */
				if (rnd() % 4 == 0)
					rule.items[i].mask = rule.spec[i];
			}
			want = bucket_through_masks(spread, reta, tmpl.items, rule.items);
			got = bucket_by_prog(spread, reta, tmpl.items, rule.items);
			if (want != got)
				fail_msg("template %u rule %u (spread %d, reta %u): %d through the masks, %d by the program",
					t, r, (int)spread, reta, want, got);
			outcomes[want < 0 ? 0 : want == 0 ? 1 : 2]++;
		}
	}
	/* the draw reaches every kind of answer, not only -1 */
	printf("outcomes: %u several, %u bucket 0, %u other buckets\n",
		outcomes[0], outcomes[1], outcomes[2]);
	assert_true(outcomes[0] > 1000);
	assert_true(outcomes[1] > 100);
	assert_true(outcomes[2] > 1000);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known),
		cmocka_unit_test(test_random),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
