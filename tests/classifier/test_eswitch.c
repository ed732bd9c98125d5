/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/* EAL tests of the e-switch through its API (no ports needed): rule chains
 * across the transfer and ingress domains, META, priorities and groups,
 * RSS, DROP/COUNT, refusals that leave nothing, flush, isolate, the dump,
 * concurrent rule changes under classification, a rule change waiting for
 * a reader off its CPU, and memory balance.
 *
 * Usage: test_eswitch <EAL args> -- [test name]   (no name: all tests)
 */

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_thash.h>
#include <octopus_dpdk_compat.h>

#include "octonic_eswitch.h"
#include "octonic_esw_internal.h"
#include "octonic_esw_template.h"
#include "eswitch_test_util.h"
#include "../common/octo_check.h"
#include "../common/octo_eal.h"
#include "../common/octo_flow_rule.h"
#include "../common/octo_test_eal.h"


#define PORT0 10	/* ethdev port ids given to the PFs */
#define PORT1 11
#define NBQ 8

static struct rte_mempool *mp;

static const uint8_t default_key[40] = {
	0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2,
	0x41, 0x67, 0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0,
	0xd0, 0xca, 0x2b, 0xcb, 0xae, 0x7b, 0x30, 0xb4,
	0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30, 0xf2, 0x0c,
	0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
};

static struct octonic_eswitch *
new_sw(void)
{
	struct octonic_eswitch *sw = octonic_eswitch_create("t", 2, 0);

	if (sw == NULL)
		return NULL;
	octonic_eswitch_set_pf_port(sw, 0, PORT0);
	octonic_eswitch_set_pf_port(sw, 1, PORT1);
	if (octonic_eswitch_pf_configure(sw, 0, NBQ, RTE_ETH_RSS_IP |
			RTE_ETH_RSS_UDP, NULL, 0) != 0 ||
			octonic_eswitch_pf_configure(sw, 1, NBQ, RTE_ETH_RSS_IP |
			RTE_ETH_RSS_UDP, NULL, 0) != 0) {
		printf("  pf_configure failed\n");
		octonic_eswitch_free(sw);
		return NULL;
	}
	return sw;
}

/* Classify one packet (inside a read section, as the engine does). */
static struct octonic_verdict
run1(struct octonic_eswitch *sw, struct rte_mbuf *m)
{
	struct octonic_verdict v;

	octonic_eswitch_reader_enter(sw);
	octonic_eswitch_classify(sw, &m, 1, &v);
	octonic_eswitch_reader_leave(sw);
	return v;
}

static struct octonic_verdict
run_udp(struct octonic_eswitch *sw, uint32_t src, uint32_t dst, uint16_t sp,
		uint16_t dp)
{
	struct rte_mbuf *m = mk_udp4(mp, src, dst, sp, dp);
	struct octonic_verdict v = run1(sw, m);

	rte_pktmbuf_free(m);
	return v;
}

/* Toeplitz as the test computes it, independently of the e-switch. */
static uint32_t
ref_hash4(uint32_t src, uint32_t dst, uint16_t sp, uint16_t dp, const uint8_t *key,
		int l4)
{
	union rte_thash_tuple t;

	memset(&t, 0, sizeof(t));
	t.v4.src_addr = src;
	t.v4.dst_addr = dst;
	t.v4.sport = sp;
	t.v4.dport = dp;
	return rte_softrss((uint32_t *)&t, l4 ? RTE_THASH_V4_L4_LEN :
		RTE_THASH_V4_L3_LEN, key);
}

/* ---- pattern/action helpers ---- */

static struct rte_flow_item_udp udp_dst_spec, udp_dst_mask;
static struct rte_flow_item pat_udp_dst[] = {
	{ .type = RTE_FLOW_ITEM_TYPE_ETH },
	{ .type = RTE_FLOW_ITEM_TYPE_IPV4 },
	{ .type = RTE_FLOW_ITEM_TYPE_UDP, .spec = &udp_dst_spec, .mask = &udp_dst_mask },
	{ .type = RTE_FLOW_ITEM_TYPE_END },
};

static const struct rte_flow_item *
udp_dst(uint16_t port)
{
	udp_dst_spec.hdr.dst_port = rte_cpu_to_be_16(port);
	udp_dst_mask.hdr.dst_port = RTE_BE16(0xffff);
	return pat_udp_dst;
}

static const struct rte_flow_item pat_any[] = {
	{ .type = RTE_FLOW_ITEM_TYPE_END },
};

static const struct rte_flow_attr A_TRANSFER = { .transfer = 1 };
static const struct rte_flow_attr A_INGRESS = { .ingress = 1 };

static struct rte_flow *
mk(struct octonic_eswitch *sw, uint16_t pf, const struct rte_flow_attr *attr,
		const struct rte_flow_item *pat, const struct rte_flow_action *act)
{
	struct rte_flow_error err;
	struct rte_flow *f;

	memset(&err, 0, sizeof(err));
	f = octonic_eswitch_flow_create(sw, pf, attr, pat, act, &err);
	if (f == NULL)
		printf("  create refused: %s\n", err.message ? err.message : "?");
	return f;
}

/* ---- tests ---- */

static int
t_transfer_ingress_chain(void)
{
	struct octonic_eswitch *sw = new_sw();
	struct rte_flow_action_ethdev to1 = { .port_id = PORT1 };
	struct rte_flow_action_queue q5 = { .index = 5 };
	struct rte_flow_action a_t[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_FLAG },
		{ .type = RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT, .conf = &to1 },
		{ .type = RTE_FLOW_ACTION_TYPE_END } };
	struct rte_flow_action a_i[] = OCTO_ACTIONS_QUEUE(&q5);
	struct octonic_verdict v;
	uint16_t proxy;

	REQUIRE_OR(-1, sw != NULL);
	REQUIRE_OR(-1, octonic_eswitch_transfer_proxy(sw, &proxy) == 0 && proxy == PORT0);
	REQUIRE_OR(-1, mk(sw, 0, &A_TRANSFER, udp_dst(53), a_t) != NULL);
	REQUIRE_OR(-1, mk(sw, 1, &A_INGRESS, udp_dst(53), a_i) != NULL);
	v = run_udp(sw, 0x0a000001, 0x0a000002, 1000, 53);
	REQUIRE_OR(-1, !v.drop && v.pf == 1 && v.queue == 5 && !v.has_rss);
	REQUIRE_OR(-1, v.has_flag && !v.has_mark);	/* FLAG set in the transfer domain */
	/* Not matching the transfer rule: PF0, whose RSS picks the queue. */
	v = run_udp(sw, 0x0a000001, 0x0a000002, 1000, 54);
	REQUIRE_OR(-1, !v.drop && v.pf == 0 && v.has_rss && !v.has_flag);
	REQUIRE_OR(-1, v.rss_hash == ref_hash4(0x0a000001, 0x0a000002, 1000, 54,
		default_key, 1));
	REQUIRE_OR(-1, v.queue == (v.rss_hash % OCTONIC_RETA_SIZE) % NBQ);
	octonic_eswitch_free(sw);
	return 0;
}

static int
t_meta_drives_ingress(void)
{
	struct octonic_eswitch *sw = new_sw();
	struct rte_flow_action_set_meta sm = { .data = 7, .mask = 0xffffffff };
	struct rte_flow_action_jump j1 = { .group = 1 };
	struct rte_flow_action_ethdev to1 = { .port_id = PORT1 };
	struct rte_flow_action_queue q7 = { .index = 7 };
	struct rte_flow_item_meta meta = { .data = 7 };
	struct rte_flow_item pat_meta[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_META, .spec = &meta },
		{ .type = RTE_FLOW_ITEM_TYPE_END } };
	struct rte_flow_action a_g0[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_SET_META, .conf = &sm },
		{ .type = RTE_FLOW_ACTION_TYPE_JUMP, .conf = &j1 },
		{ .type = RTE_FLOW_ACTION_TYPE_END } };
	struct rte_flow_action a_g1[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT, .conf = &to1 },
		{ .type = RTE_FLOW_ACTION_TYPE_END } };
	struct rte_flow_action a_i[] = OCTO_ACTIONS_QUEUE(&q7);
	struct rte_flow_attr g1 = { .transfer = 1, .group = 1 };
	struct octonic_verdict v;

	REQUIRE_OR(-1, sw != NULL);
	REQUIRE_OR(-1, mk(sw, 0, &A_TRANSFER, udp_dst(53), a_g0) != NULL);
	REQUIRE_OR(-1, mk(sw, 0, &g1, pat_any, a_g1) != NULL);
	REQUIRE_OR(-1, mk(sw, 1, &A_INGRESS, pat_meta, a_i) != NULL);
	v = run_udp(sw, 1, 2, 3, 53);
	REQUIRE_OR(-1, v.pf == 1 && v.queue == 7 && v.has_meta && v.meta == 7 && !v.drop);
	/* Without the metadata the ingress rule does not match: RSS. */
	meta.data = 8;
	REQUIRE_OR(-1, mk(sw, 0, &A_INGRESS, pat_meta, a_i) != NULL);
	v = run_udp(sw, 1, 2, 3, 54);	/* no SET_META: meta 0 */
	REQUIRE_OR(-1, v.pf == 0 && !v.has_meta && v.has_rss);
	octonic_eswitch_free(sw);
	return 0;
}

static int
t_group_miss_falls_back(void)
{
	struct octonic_eswitch *sw = new_sw();
	struct rte_flow_action_set_meta sm = { .data = 5, .mask = 0xff };
	struct rte_flow_action_mark mk9 = { .id = 9 };
	struct rte_flow_action_jump j3 = { .group = 3 };
	struct rte_flow_action_ethdev to1 = { .port_id = PORT1 };
	struct rte_flow_action a_g0[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_SET_META, .conf = &sm },
		{ .type = RTE_FLOW_ACTION_TYPE_MARK, .conf = &mk9 },
		{ .type = RTE_FLOW_ACTION_TYPE_JUMP, .conf = &j3 },
		{ .type = RTE_FLOW_ACTION_TYPE_END } };
	struct rte_flow_action a_g3[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT, .conf = &to1 },
		{ .type = RTE_FLOW_ACTION_TYPE_END } };
	struct rte_flow_attr g3 = { .transfer = 1, .group = 3 };
	struct octonic_verdict v;

	REQUIRE_OR(-1, sw != NULL);
	REQUIRE_OR(-1, mk(sw, 0, &A_TRANSFER, pat_any, a_g0) != NULL);
	REQUIRE_OR(-1, mk(sw, 0, &g3, udp_dst(80), a_g3) != NULL);
	v = run_udp(sw, 1, 2, 3, 80);
	REQUIRE_OR(-1, v.pf == 1 && v.meta == 5 && v.has_mark && v.mark == 9);
	/* Miss in group 3: the transfer default (PF0), earlier actions kept. */
	v = run_udp(sw, 1, 2, 3, 81);
	REQUIRE_OR(-1, v.pf == 0 && v.meta == 5 && v.has_mark && v.mark == 9 && !v.drop);
	octonic_eswitch_free(sw);
	return 0;
}

static int
t_priorities(void)
{
	struct octonic_eswitch *sw = new_sw();
	struct rte_flow_action_queue q1 = { .index = 1 }, q2 = { .index = 2 },
		q3 = { .index = 3 };
	struct rte_flow_action a1[] = OCTO_ACTIONS_QUEUE(&q1);
	struct rte_flow_action a2[] = OCTO_ACTIONS_QUEUE(&q2);
	struct rte_flow_action a3[] = OCTO_ACTIONS_QUEUE(&q3);
	struct rte_flow_attr p5 = { .ingress = 1, .priority = 5 };
	struct rte_flow_attr p2 = { .ingress = 1, .priority = 2 };
	struct rte_flow_attr pmax = { .ingress = 1, .priority = 65535 };
	struct rte_flow *f1, *f2, *f3;
	struct rte_flow_error err;
	struct octonic_verdict v;

	REQUIRE_OR(-1, sw != NULL);
	/* Different masks (tables): the lower priority value wins. */
	f1 = mk(sw, 0, &p5, udp_dst(53), a1);
	f2 = mk(sw, 0, &p2, pat_any, a2);
	REQUIRE_OR(-1, f1 != NULL && f2 != NULL);
	REQUIRE_OR(-1, run_udp(sw, 1, 2, 3, 53).queue == 2);
	/* Same priority and same match as f2: the earlier (f2) wins. */
	f3 = mk(sw, 0, &p2, pat_any, a3);
	REQUIRE_OR(-1, f3 != NULL);
	REQUIRE_OR(-1, run_udp(sw, 1, 2, 3, 53).queue == 2);
	REQUIRE_OR(-1, octonic_eswitch_flow_destroy(sw, 0, f2, &err) == 0);
	REQUIRE_OR(-1, run_udp(sw, 1, 2, 3, 53).queue == 3);
	REQUIRE_OR(-1, octonic_eswitch_flow_destroy(sw, 0, f3, &err) == 0);
	v = run_udp(sw, 1, 2, 3, 53);
	REQUIRE_OR(-1, v.queue == 1 && !v.has_rss);
	/* Same priority, different tables: the earlier wins too. */
	f2 = mk(sw, 0, &p5, pat_any, a2);
	REQUIRE_OR(-1, f2 != NULL);
	REQUIRE_OR(-1, run_udp(sw, 1, 2, 3, 53).queue == 1);
	/* Destroying twice / on the wrong PF is refused. */
	REQUIRE_OR(-1, octonic_eswitch_flow_destroy(sw, 1, f1, &err) == -EINVAL);
	REQUIRE_OR(-1, octonic_eswitch_flow_destroy(sw, 0, f1, &err) == 0);
	REQUIRE_OR(-1, run_udp(sw, 1, 2, 3, 53).queue == 2);
	/* The mirror case: now the older rule is in the other table. */
	REQUIRE_OR(-1, mk(sw, 0, &p5, udp_dst(53), a3) != NULL);
	REQUIRE_OR(-1, run_udp(sw, 1, 2, 3, 53).queue == 2);
	/* The highest priority value is accepted, and loses to the others. */
	REQUIRE_OR(-1, mk(sw, 0, &pmax, udp_dst(53), a1) != NULL);
	REQUIRE_OR(-1, run_udp(sw, 1, 2, 3, 53).queue == 2);
	octonic_eswitch_free(sw);
	return 0;
}

static int
t_ingress_jump(void)
{
	struct octonic_eswitch *sw = new_sw();
	struct rte_flow_action_jump j2 = { .group = 2 }, j0 = { .group = 0 };
	struct rte_flow_action_queue q4 = { .index = 4 };
	struct rte_flow_action_mark m3 = { .id = 3 };
	struct rte_flow_action a_j[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_FLAG },
		{ .type = RTE_FLOW_ACTION_TYPE_JUMP, .conf = &j2 },
		{ .type = RTE_FLOW_ACTION_TYPE_END } };
	struct rte_flow_action a_q[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_MARK, .conf = &m3 },
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &q4 },
		{ .type = RTE_FLOW_ACTION_TYPE_END } };
	struct rte_flow_action a_back[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_JUMP, .conf = &j0 },
		{ .type = RTE_FLOW_ACTION_TYPE_END } };
	struct rte_flow_attr g2 = { .ingress = 1, .group = 2 };
	struct octonic_eswitch_stats st0, st1;
	struct rte_flow_error err;
	struct octonic_verdict v;

	REQUIRE_OR(-1, sw != NULL);
	REQUIRE_OR(-1, mk(sw, 0, &A_INGRESS, pat_any, a_j) != NULL);
	REQUIRE_OR(-1, mk(sw, 0, &g2, udp_dst(53), a_q) != NULL);
	v = run_udp(sw, 1, 2, 3, 53);
	REQUIRE_OR(-1, v.queue == 4 && v.has_flag && v.has_mark && v.mark == 3);
	v = run_udp(sw, 1, 2, 3, 99);	/* miss in group 2: RSS, flag kept */
	REQUIRE_OR(-1, v.has_rss && v.has_flag && !v.has_mark);
	/* A JUMP back (or to the same group) would allow loops: refused. */
	octonic_eswitch_stats_get(sw, &st0);
	REQUIRE_OR(-1, octonic_eswitch_flow_create(sw, 0, &g2, pat_any, a_back, &err) == NULL);
	REQUIRE_OR(-1, err.type == RTE_FLOW_ERROR_TYPE_ACTION_CONF);
	REQUIRE_OR(-1, strstr(err.message, "higher") != NULL);
	octonic_eswitch_stats_get(sw, &st1);
	REQUIRE_OR(-1, st1.creates == st0.creates && st1.ingress_rules[0] == 2);
	octonic_eswitch_free(sw);
	return 0;
}

/* 16 JUMPs are followed, a 17th ends the domain with its default. */
static int
t_jump_cap(void)
{
	struct octonic_eswitch *sw = new_sw();
	struct rte_flow_action_jump j;
	struct rte_flow_action_queue q5 = { .index = 5 };
	struct rte_flow_action a_j[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_JUMP, .conf = &j },
		{ .type = RTE_FLOW_ACTION_TYPE_END } };
	struct rte_flow_action a_q[] = OCTO_ACTIONS_QUEUE(&q5);
	struct rte_flow_attr at = { .ingress = 1 };
	struct octonic_verdict v;
	uint32_t g;

	REQUIRE_OR(-1, sw != NULL);
	/* Groups 0..15 jump to the next; group 16 queues, reached by 16 jumps. */
	for (g = 0; g < 16; g++) {
		at.group = g;
		j.group = g + 1;
		REQUIRE_OR(-1, mk(sw, 0, &at, pat_any, a_j) != NULL);
	}
	at.group = 16;
	REQUIRE_OR(-1, mk(sw, 0, &at, udp_dst(53), a_q) != NULL);
	v = run_udp(sw, 1, 2, 3, 53);
	REQUIRE_OR(-1, v.queue == 5 && !v.has_rss);
	/* Group 16 jumps on once more for udp 54, to group 17 (never reached). */
	j.group = 17;
	REQUIRE_OR(-1, mk(sw, 0, &at, udp_dst(54), a_j) != NULL);
	at.group = 17;
	REQUIRE_OR(-1, mk(sw, 0, &at, pat_any, a_q) != NULL);
	v = run_udp(sw, 1, 2, 3, 54);
	REQUIRE_OR(-1, v.has_rss && !v.drop);
	octonic_eswitch_free(sw);
	return 0;
}

static int
t_rss(void)
{
	struct octonic_eswitch *sw = new_sw();
	struct rte_eth_rss_reta_entry64 reta[2];
	uint8_t key2[40];
	struct rte_eth_rss_conf rc = { .rss_key = key2, .rss_key_len = 40,
		.rss_hf = RTE_ETH_RSS_IPV4 };
	uint16_t qs[2] = { 4, 6 };
	struct rte_flow_action_rss ra = { .func = RTE_ETH_HASH_FUNCTION_TOEPLITZ,
		.types = RTE_ETH_RSS_NONFRAG_IPV4_UDP, .key_len = 40, .key = key2,
		.queue_num = 2, .queue = qs };
	struct rte_flow_action a_rss[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_RSS, .conf = &ra },
		{ .type = RTE_FLOW_ACTION_TYPE_END } };
	struct octonic_verdict v;
	uint32_t seen = 0, i, h;

	REQUIRE_OR(-1, sw != NULL);
	for (i = 0; i < 40; i++)
		key2[i] = (uint8_t)(i * 37 + 1);
	/* Default RETA spreads over all 8 queues. */
	for (i = 0; i < 256; i++) {
		v = run_udp(sw, 0x0a000000 + i, 0x0b000001, 1000 + i, 2000);
		h = ref_hash4(0x0a000000 + i, 0x0b000001, 1000 + i, 2000,
			default_key, 1);
		REQUIRE_OR(-1, v.has_rss && v.rss_hash == h);
		REQUIRE_OR(-1, v.queue == (h % 128) % NBQ);
		seen |= 1u << v.queue;
	}
	REQUIRE_OR(-1, seen == 0xff);
	/* IPv6/UDP: the 4-tuple over the 128-bit addresses. */
	for (i = 0; i < 16; i++) {
		struct rte_mbuf *m = mk_udp6(mp, (uint8_t)i, 9, 4000 + i, 53);
		const struct rte_ipv6_hdr *ip6;
		union rte_thash_tuple t;

		REQUIRE_OR(-1, m != NULL);
		ip6 = rte_pktmbuf_mtod_offset(m, const struct rte_ipv6_hdr *,
			sizeof(struct rte_ether_hdr));
		memset(&t, 0, sizeof(t));
		rte_thash_load_v6_addrs(ip6, &t);
		t.v6.sport = 4000 + i;
		t.v6.dport = 53;
		h = rte_softrss((uint32_t *)&t, RTE_THASH_V6_L4_LEN, default_key);
		v = run1(sw, m);
		rte_pktmbuf_free(m);
		REQUIRE_OR(-1, v.has_rss && v.rss_hash == h && v.queue == (h % 128) % NBQ);
	}
	/* RETA all to queue 3. */
	memset(reta, 0, sizeof(reta));
	for (i = 0; i < 128; i++) {
		reta[i / 64].mask |= 1ull << (i % 64);
		reta[i / 64].reta[i % 64] = 3;
	}
	REQUIRE_OR(-1, octonic_eswitch_reta_update(sw, 0, reta, 128) == 0);
	for (i = 0; i < 32; i++)
		REQUIRE_OR(-1, run_udp(sw, 0x0a000000 + i, 2, 5, 6).queue == 3);
	reta[0].reta[0] = NBQ;	/* beyond the Rx queues */
	REQUIRE_OR(-1, octonic_eswitch_reta_update(sw, 0, reta, 128) == -EINVAL);
	memset(reta, 0, sizeof(reta));
	reta[0].mask = 1;
	REQUIRE_OR(-1, octonic_eswitch_reta_query(sw, 0, reta, 128) == 0 &&
		reta[0].reta[0] == 3);
	/* New key and IPv4-only types: 2-tuple hash with that key. */
	REQUIRE_OR(-1, octonic_eswitch_rss_hash_update(sw, 0, &rc) == 0);
	v = run_udp(sw, 0x01020304, 0x05060708, 77, 88);
	REQUIRE_OR(-1, v.has_rss && v.rss_hash == ref_hash4(0x01020304, 0x05060708, 0, 0,
		key2, 0));
	memset(key2, 0, sizeof(key2));
	rc.rss_key = key2;
	REQUIRE_OR(-1, octonic_eswitch_rss_hash_conf_get(sw, 0, &rc) == 0);
	REQUIRE_OR(-1, rc.rss_hf == RTE_ETH_RSS_IPV4 && key2[1] == 38);
	/* RSS action with its own key and queues. */
	REQUIRE_OR(-1, mk(sw, 1, &A_INGRESS, udp_dst(2000), a_rss) != NULL);
	seen = 0;
	/* Everything to PF1, whose ingress has the RSS rule. */
	{
		struct rte_flow_action_ethdev to1 = { .port_id = PORT1 };
		struct rte_flow_action a_t[] = {
			{ .type = RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT, .conf = &to1 },
			{ .type = RTE_FLOW_ACTION_TYPE_END } };

		REQUIRE_OR(-1, mk(sw, 0, &A_TRANSFER, pat_any, a_t) != NULL);
	}
	for (i = 0; i < 64; i++) {
		v = run_udp(sw, 0x0a000000 + i, 0x0b000001, 1000 + i, 2000);
		h = ref_hash4(0x0a000000 + i, 0x0b000001, 1000 + i, 2000, key2, 1);
		REQUIRE_OR(-1, v.pf == 1 && v.has_rss && v.rss_hash == h);
		REQUIRE_OR(-1, v.queue == qs[h % 2]);
		seen |= 1u << v.queue;
	}
	REQUIRE_OR(-1, seen == (1u << 4 | 1u << 6));
	/* Bad RSS actions are refused. */
	ra.func = RTE_ETH_HASH_FUNCTION_SIMPLE_XOR;
	REQUIRE_OR(-1, octonic_eswitch_flow_validate(sw, 1, &A_INGRESS, pat_any, a_rss, NULL)
		== -ENOTSUP);
	ra.func = RTE_ETH_HASH_FUNCTION_DEFAULT;
	qs[1] = NBQ;
	REQUIRE_OR(-1, octonic_eswitch_flow_validate(sw, 1, &A_INGRESS, pat_any, a_rss, NULL)
		== -EINVAL);
	octonic_eswitch_free(sw);
	return 0;
}

/* Classify one IPv6/UDP frame after setting its Ethernet source's last byte. */
static struct octonic_verdict
run_udp6(struct octonic_eswitch *sw, uint8_t src, uint16_t dp, uint8_t eth_src)
{
	struct rte_mbuf *m = mk_udp6(mp, src, 9, 4000, dp);
	struct octonic_verdict v;

	memset(&v, 0, sizeof(v));
	v.drop = 1;
	if (m == NULL)
		return v;
	rte_pktmbuf_mtod(m, struct rte_ether_hdr *)->src_addr.addr_bytes[5] = eth_src;
	v = run1(sw, m);
	rte_pktmbuf_free(m);
	return v;
}

/*
 * Hash keys hold only the flow-key words a mask touches, so masks of
 * different widths give keys of different lengths (8, 24, 56 and 120
 * bytes).  For each width: rules differing only in the first or the last
 * word gathered must each find their own packets, and rules with the same
 * mask and match in two groups of two domains must not find each other's.
 */
static int
t_key_layouts(void)
{
	static const uint8_t v6_src[16] = { 0x20, 0x01, 0x0d, 0xb8 };
	static const uint8_t v6_dst[16] = { 0xfe, 0x80 };
	struct octonic_eswitch *sw = new_sw();
	struct rte_flow_item_eth eth = { 0 }, ethm = { 0 };
	struct rte_flow_item_ipv6 ip = { 0 }, ipm = { 0 };
	struct rte_flow_item_udp udp = { 0 }, udpm = { 0 };
	struct rte_flow_item pat[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH, .spec = &eth, .mask = &ethm },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV6, .spec = &ip, .mask = &ipm },
		{ .type = RTE_FLOW_ITEM_TYPE_UDP, .spec = &udp, .mask = &udpm },
		{ .type = RTE_FLOW_ITEM_TYPE_END } };
	struct rte_flow_action_queue q = { 0 };
	struct rte_flow_action a_q[] = OCTO_ACTIONS_QUEUE(&q);
	struct rte_flow_action_jump j2 = { .group = 2 };
	struct rte_flow_action a_j2[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_JUMP, .conf = &j2 },
		{ .type = RTE_FLOW_ACTION_TYPE_END } };
	struct rte_flow_attr g2 = { .ingress = 1, .group = 2 };
	struct rte_flow_attr lo = { .ingress = 1, .priority = 1 };
	struct rte_flow_action_ethdev to1 = { .port_id = PORT1 };
	struct rte_flow_action a_t[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT, .conf = &to1 },
		{ .type = RTE_FLOW_ACTION_TYPE_END } };
	struct octonic_verdict v;

	REQUIRE_OR(-1, sw != NULL);
	/* 56 bytes: IPv6 5-tuple (id + 11 words).  Queue 1 for dport 53,
	 * queue 2 for dport 54 (last word), queue 3 for source ::2 (first
	 * address word differs only in its last byte). */
	memcpy(OCTO_IPV6_BYTES(ip.hdr.src_addr), v6_src, 16);
	memcpy(OCTO_IPV6_BYTES(ip.hdr.dst_addr), v6_dst, 16);
	OCTO_IPV6_BYTES(ip.hdr.src_addr)[15] = 1;
	OCTO_IPV6_BYTES(ip.hdr.dst_addr)[15] = 9;
	memset(OCTO_IPV6_BYTES(ipm.hdr.src_addr), 0xff, 16);
	memset(OCTO_IPV6_BYTES(ipm.hdr.dst_addr), 0xff, 16);
	udp.hdr.src_port = RTE_BE16(4000);
	udp.hdr.dst_port = RTE_BE16(53);
	udpm.hdr.src_port = RTE_BE16(0xffff);
	udpm.hdr.dst_port = RTE_BE16(0xffff);
	q.index = 1;
	REQUIRE_OR(-1, mk(sw, 0, &lo, pat, a_q) != NULL);
	udp.hdr.dst_port = RTE_BE16(54);
	q.index = 2;
	REQUIRE_OR(-1, mk(sw, 0, &lo, pat, a_q) != NULL);
	udp.hdr.dst_port = RTE_BE16(53);
	OCTO_IPV6_BYTES(ip.hdr.src_addr)[15] = 2;
	q.index = 3;
	REQUIRE_OR(-1, mk(sw, 0, &lo, pat, a_q) != NULL);
	v = run_udp6(sw, 1, 53, 0);
	REQUIRE_OR(-1, v.pf == 0 && v.queue == 1 && !v.has_rss);
	v = run_udp6(sw, 1, 54, 0);
	REQUIRE_OR(-1, v.queue == 2 && !v.has_rss);
	v = run_udp6(sw, 2, 53, 0);
	REQUIRE_OR(-1, v.queue == 3 && !v.has_rss);
	v = run_udp6(sw, 2, 54, 0);	/* no rule: RSS */
	REQUIRE_OR(-1, v.has_rss);
	/* 120 bytes: the same plus both MAC addresses (id + 14 words), at a
	 * better priority: queue 4 for Ethernet source ...:00, 5 for ...:01. */
	memset(ethm.hdr.dst_addr.addr_bytes, 0xff, RTE_ETHER_ADDR_LEN);
	memset(ethm.hdr.src_addr.addr_bytes, 0xff, RTE_ETHER_ADDR_LEN);
	OCTO_IPV6_BYTES(ip.hdr.src_addr)[15] = 1;
	q.index = 4;
	REQUIRE_OR(-1, mk(sw, 0, &A_INGRESS, pat, a_q) != NULL);
	eth.hdr.src_addr.addr_bytes[5] = 1;
	q.index = 5;
	REQUIRE_OR(-1, mk(sw, 0, &A_INGRESS, pat, a_q) != NULL);
	v = run_udp6(sw, 1, 53, 0);
	REQUIRE_OR(-1, v.queue == 4);
	v = run_udp6(sw, 1, 53, 1);
	REQUIRE_OR(-1, v.queue == 5);
	v = run_udp6(sw, 1, 53, 2);	/* only the 5-tuple rule matches */
	REQUIRE_OR(-1, v.queue == 1);
	/* 8 bytes (no word: match all) and 24 (udp dst): the same match in
	 * ingress group 2 of PF0 and of PF1, and in the transfer domain,
	 * each with its own fate.  PF0's rule comes first: were the keys
	 * alike, it would win the tie in PF1's group 2. */
	q.index = 7;
	REQUIRE_OR(-1, mk(sw, 0, &g2, udp_dst(7), a_q) != NULL);
	REQUIRE_OR(-1, mk(sw, 0, &A_TRANSFER, udp_dst(7), a_t) != NULL);
	REQUIRE_OR(-1, mk(sw, 1, &A_INGRESS, pat_any, a_j2) != NULL);
	q.index = 6;
	REQUIRE_OR(-1, mk(sw, 1, &g2, udp_dst(7), a_q) != NULL);
	v = run_udp(sw, 1, 2, 3, 7);	/* transfer -> PF1 -> group 2 */
	REQUIRE_OR(-1, v.pf == 1 && v.queue == 6 && !v.has_rss);
	v = run_udp(sw, 1, 2, 3, 8);	/* PF0 group 0: no rule, RSS */
	REQUIRE_OR(-1, v.pf == 0 && v.has_rss);
	octonic_eswitch_free(sw);
	return 0;
}

static int
t_drop_count(void)
{
	struct octonic_eswitch *sw = new_sw();
	struct rte_flow_action a_drop[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_COUNT },
		{ .type = RTE_FLOW_ACTION_TYPE_DROP },
		{ .type = RTE_FLOW_ACTION_TYPE_END } };
	struct rte_flow_action q_count = { .type = RTE_FLOW_ACTION_TYPE_COUNT };
	struct rte_flow_query_count qc;
	struct rte_flow_error err;
	struct rte_flow *f;
	struct octonic_verdict v;
	int i;

	REQUIRE_OR(-1, sw != NULL);
	f = mk(sw, 0, &A_TRANSFER, udp_dst(666), a_drop);
	REQUIRE_OR(-1, f != NULL);
	for (i = 0; i < 3; i++) {
		v = run_udp(sw, 1, 2, 3, 666);
		REQUIRE_OR(-1, v.drop);
	}
	v = run_udp(sw, 1, 2, 3, 667);
	REQUIRE_OR(-1, !v.drop);
	memset(&qc, 0, sizeof(qc));
	REQUIRE_OR(-1, octonic_eswitch_flow_query(sw, 0, f, &q_count, &qc, &err) == 0);
	REQUIRE_OR(-1, qc.hits_set && qc.bytes_set && qc.hits == 3 && qc.bytes == 3 * 64);
	qc.reset = 1;
	REQUIRE_OR(-1, octonic_eswitch_flow_query(sw, 0, f, &q_count, &qc, &err) == 0);
	REQUIRE_OR(-1, qc.hits == 3);
	run_udp(sw, 1, 2, 3, 666);
	memset(&qc, 0, sizeof(qc));
	REQUIRE_OR(-1, octonic_eswitch_flow_query(sw, 0, f, &q_count, &qc, &err) == 0);
	REQUIRE_OR(-1, qc.hits == 1 && qc.bytes == 64);
	/* Ingress DROP. */
	REQUIRE_OR(-1, mk(sw, 0, &A_INGRESS, udp_dst(667), a_drop) != NULL);
	v = run_udp(sw, 1, 2, 3, 667);
	REQUIRE_OR(-1, v.drop && v.pf == 0);
	octonic_eswitch_free(sw);
	return 0;
}

static int
t_refusals_leave_nothing(void)
{
	struct octonic_eswitch *sw = new_sw();
	struct rte_flow_action_queue q1 = { .index = 1 }, qbad = { .index = NBQ };
	struct rte_flow_action_ethdev tobad = { .port_id = 99 };
	struct rte_flow_action_set_meta sm = { .data = 1, .mask = 1 };
	struct rte_flow_item_udp udp = { 0 };
	struct rte_flow_item pat_vx[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_VXLAN },
		{ .type = RTE_FLOW_ITEM_TYPE_END } };
	struct rte_flow_item pat_last[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_UDP, .spec = &udp, .last = &udp },
		{ .type = RTE_FLOW_ITEM_TYPE_END } };
	struct rte_flow_action a_q[] = OCTO_ACTIONS_QUEUE(&q1);
	struct rte_flow_action a_qbad[] = OCTO_ACTIONS_QUEUE(&qbad);
	struct rte_flow_action a_twofates[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_COUNT },
		{ .type = RTE_FLOW_ACTION_TYPE_RSS, .conf = NULL },
		{ .type = RTE_FLOW_ACTION_TYPE_END } };
	struct rte_flow_action a_qq[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &q1 },
		{ .type = RTE_FLOW_ACTION_TYPE_DROP },
		{ .type = RTE_FLOW_ACTION_TYPE_END } };
	struct rte_flow_action a_nofate[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_COUNT },
		{ .type = RTE_FLOW_ACTION_TYPE_END } };
	struct rte_flow_action a_portbad[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT, .conf = &tobad },
		{ .type = RTE_FLOW_ACTION_TYPE_END } };
	struct rte_flow_action a_setmeta_ingress[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_SET_META, .conf = &sm },
		{ .type = RTE_FLOW_ACTION_TYPE_DROP },
		{ .type = RTE_FLOW_ACTION_TYPE_END } };
	struct rte_flow_action a_queue_transfer[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &q1 },
		{ .type = RTE_FLOW_ACTION_TYPE_DROP },
		{ .type = RTE_FLOW_ACTION_TYPE_END } };
	struct rte_flow_attr egress = { .egress = 1 };
	struct rte_flow_attr both = { .ingress = 1, .transfer = 1 };
	struct rte_flow_attr prio_high = { .ingress = 1, .priority = 65536 };
	struct {
		uint16_t pf;
		const struct rte_flow_attr *attr;
		const struct rte_flow_item *pat;
		const struct rte_flow_action *act;
		enum rte_flow_error_type type;
		const char *needle;
	} cases[] = {
		{ 0, &egress, pat_any, a_q, RTE_FLOW_ERROR_TYPE_ATTR_EGRESS, "egress" },
		{ 0, &both, pat_any, a_q, RTE_FLOW_ERROR_TYPE_ATTR, "exactly one" },
		{ 0, &prio_high, pat_any, a_q, RTE_FLOW_ERROR_TYPE_ATTR_PRIORITY,
			"highest supported, 65535" },
		{ 1, &A_TRANSFER, pat_any, a_queue_transfer + 1,
			RTE_FLOW_ERROR_TYPE_ATTR_TRANSFER, "proxy port 10" },
		{ 0, &A_INGRESS, pat_vx, a_q, RTE_FLOW_ERROR_TYPE_ITEM, "item 1" },
		{ 0, &A_INGRESS, pat_last, a_q, RTE_FLOW_ERROR_TYPE_ITEM, "last" },
		{ 0, &A_INGRESS, pat_any, a_qbad, RTE_FLOW_ERROR_TYPE_ACTION_CONF,
			"Rx queues" },
		{ 0, &A_INGRESS, pat_any, a_twofates, RTE_FLOW_ERROR_TYPE_ACTION_CONF,
			"rss" },
		{ 0, &A_INGRESS, pat_any, a_qq, RTE_FLOW_ERROR_TYPE_ACTION,
			"one fate" },
		{ 0, &A_INGRESS, pat_any, a_nofate, RTE_FLOW_ERROR_TYPE_ACTION_NUM,
			"need one of" },
		{ 0, &A_TRANSFER, pat_any, a_portbad, RTE_FLOW_ERROR_TYPE_ACTION_CONF,
			"not a PF" },
		{ 0, &A_INGRESS, pat_any, a_setmeta_ingress, RTE_FLOW_ERROR_TYPE_ACTION,
			"ingress domain" },
		{ 0, &A_TRANSFER, pat_any, a_queue_transfer, RTE_FLOW_ERROR_TYPE_ACTION,
			"transfer domain" },
	};
	struct octonic_eswitch_stats st0, st1;
	struct rte_malloc_socket_stats ms0, ms1;
	char buf[256];
	FILE *f;
	size_t i;

	REQUIRE_OR(-1, sw != NULL);
	/* One valid rule, so "nothing left" is checked against a non-empty set. */
	REQUIRE_OR(-1, mk(sw, 0, &A_INGRESS, udp_dst(1), a_q) != NULL);
	octonic_eswitch_stats_get(sw, &st0);
	rte_malloc_get_socket_stats(0, &ms0);
	for (i = 0; i < RTE_DIM(cases); i++) {
		struct rte_flow_error err;

		memset(&err, 0, sizeof(err));
		if (octonic_eswitch_flow_create(sw, cases[i].pf, cases[i].attr,
				cases[i].pat, cases[i].act, &err) != NULL) {
			printf("  case %zu accepted\n", i);
			REQUIRE_OR(-1, 0);
		}
		if (err.type != cases[i].type || err.message == NULL ||
				strstr(err.message, cases[i].needle) == NULL) {
			printf("  case %zu: type %d message '%s'\n", i, err.type,
				err.message ? err.message : "(null)");
			REQUIRE_OR(-1, 0);
		}
		REQUIRE_OR(-1, octonic_eswitch_flow_validate(sw, cases[i].pf, cases[i].attr,
			cases[i].pat, cases[i].act, &err) < 0);
	}
	octonic_eswitch_stats_get(sw, &st1);
	rte_malloc_get_socket_stats(0, &ms1);
	REQUIRE_OR(-1, st1.creates == st0.creates && st1.destroys == st0.destroys);
	REQUIRE_OR(-1, st1.validate_fail == st0.validate_fail + 2 * RTE_DIM(cases));
	REQUIRE_OR(-1, st1.transfer_rules == 0 && st1.ingress_rules[0] == 1 &&
		st1.masks == st0.masks);
	REQUIRE_OR(-1, ms1.heap_allocsz_bytes == ms0.heap_allocsz_bytes);
	f = fmemopen(buf, sizeof(buf), "w");
	REQUIRE_OR(-1, f != NULL);
	octonic_eswitch_dump(sw, f);
	fclose(f);
	REQUIRE_OR(-1, strchr(buf, '\n') == strrchr(buf, '\n'));	/* one line */
	octonic_eswitch_free(sw);
	return 0;
}

/*
 * What mlx5_dpdk= and fdb_mark= change under mlx5-hws, and what
 * rte_flow_validate says of it there: nothing, it looks at the pattern
 * only (F1); the create refuses.  Transfer MARK needs the capability and
 * a template table specialised for the wire's frames (F5): a rule of
 * rte_flow_create is refused even with fdb_mark=1.
 */
static int
t_mlx5_release(void)
{
	struct rte_flow_action_mark mark = { .id = 0x55 };
	struct rte_flow_action_ethdev to_pf1 = { .port_id = PORT1 };
	struct rte_flow_action_port_id pid = { .id = PORT1 };
	const struct rte_flow_action a_mark[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_MARK, .conf = &mark },
		{ .type = RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT, .conf = &to_pf1 },
		{ .type = RTE_FLOW_ACTION_TYPE_END } };
	const struct rte_flow_action a_port_id[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_PORT_ID, .conf = &pid },
		{ .type = RTE_FLOW_ACTION_TYPE_END } };
	const struct {
		uint16_t release;
		uint8_t fdb_mark;
		const struct rte_flow_action *act;
		const char *needle;
	} cases[] = {
		{ OCTONIC_MLX5_DPDK_22_11, 0, a_mark,
			"mlx5-hws: MARK is not a transfer action" },
		{ OCTONIC_MLX5_DPDK_25_11, 0, a_mark,
			"mlx5-hws: MARK in transfer rules needs the NIC's fdb_rx_set_flow_tag_stc" },
		{ OCTONIC_MLX5_DPDK_25_11, 1, a_mark,
			"mlx5-hws: MARK in transfer rules only in template tables specialised for the wire's frames" },
		{ OCTONIC_MLX5_DPDK_25_11, 1, a_port_id,
			"mlx5-hws: PORT_ID is not supported: use REPRESENTED_PORT" },
		{ OCTONIC_MLX5_DPDK_22_11, 0, a_port_id,
			"not supported in the transfer domain" },
	};
	size_t i;

	for (i = 0; i < RTE_DIM(cases); i++) {
		struct octonic_eswitch *sw = new_sw();
		struct rte_flow_error err;
		struct rte_flow *f;
		int valid;

		REQUIRE_OR(-1, sw != NULL);
		octonic_eswitch_dialect_set(sw, OCTONIC_DIALECT_MLX5_HWS, 4);
		octonic_eswitch_mlx5_model_set(sw, cases[i].release, cases[i].fdb_mark);
		memset(&err, 0, sizeof(err));
		valid = octonic_eswitch_flow_validate(sw, 0, &A_TRANSFER, pat_any,
			cases[i].act, &err);
		f = octonic_eswitch_flow_create(sw, 0, &A_TRANSFER, pat_any,
			cases[i].act, &err);
		octonic_eswitch_free(sw);
		if (valid != 0 || f != NULL || err.message == NULL ||
				strstr(err.message, cases[i].needle) == NULL) {
			printf("  case %zu: validate %d, created %d, message '%s'\n", i, valid,
				f != NULL, err.message != NULL ? err.message : "(null)");
			REQUIRE_OR(-1, 0);
		}
	}
	return 0;
}

#if OCTO_DPDK_HAS_TABLE_SPECIALIZE
/* A transfer template table of 4 rules on PF0, matching anything, whose
 * rules MARK 0x55 and go to PF1; @p specialize its hints. */
static struct rte_flow_template_table *
mark_table(struct octonic_eswitch *sw, uint32_t specialize,
		struct rte_flow_error *err)
{
	static const struct rte_flow_action_mark mark = { .id = 0x55 };
	static const struct rte_flow_action_ethdev to_pf1 = { .port_id = PORT1 };
	const struct rte_flow_pattern_template_attr pa = { .transfer = 1 };
	const struct rte_flow_actions_template_attr aa = { .transfer = 1 };
	const struct rte_flow_action acts[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_MARK, .conf = &mark },
		{ .type = RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT, .conf = &to_pf1 },
		{ .type = RTE_FLOW_ACTION_TYPE_END } };
	const struct rte_flow_template_table_attr ta = {
		.flow_attr = { .transfer = 1 }, .nb_flows = 4,
		.specialize = specialize,
	};
	struct rte_flow_pattern_template *pt;
	struct rte_flow_actions_template *at;

	pt = octonic_eswitch_pattern_template_create(sw, 0, &pa, pat_any, err);
	at = octonic_eswitch_actions_template_create(sw, 0, &aa, acts, acts, err);
	if (pt == NULL || at == NULL)
		return NULL;
	return octonic_eswitch_template_table_create(sw, 0, &ta, &pt, 1, &at, 1,
		err);
}

/* Transfer MARK from 25.11 with fdb_mark=1: in a table specialised for
 * the wire's frames, whose rules see no frame a PF sends (F5, F9). */
static int
t_mlx5_wire_mark(void)
{
	const struct rte_flow_queue_attr qa = { .size = 8 };
	const struct rte_flow_queue_attr *qas[] = { &qa };
	const struct rte_flow_port_attr port_attr = { 0 };
	const struct rte_flow_op_attr now = { .postpone = 0 };
	struct octonic_eswitch *sw = new_sw();
	struct rte_flow_template_table *t;
	struct rte_flow_op_result res;
	struct rte_flow_error err;
	struct octonic_verdict v;
	struct rte_mbuf *m;
	struct rte_flow *f;

	REQUIRE_OR(-1, sw != NULL);
	octonic_eswitch_dialect_set(sw, OCTONIC_DIALECT_MLX5_HWS, 4);
	octonic_eswitch_mlx5_model_set(sw, OCTONIC_MLX5_DPDK_25_11, 1);
	REQUIRE_OR(-1, octonic_eswitch_flow_configure(sw, 0, 0, &port_attr, 1, qas,
		&err) == 0);
	memset(&err, 0, sizeof(err));
	REQUIRE_OR(-1, mark_table(sw, 0, &err) == NULL && err.message != NULL &&
		strstr(err.message, "only in template tables specialised for the wire's frames") != NULL);
	t = mark_table(sw, RTE_FLOW_TABLE_SPECIALIZE_TRANSFER_WIRE_ORIG, &err);
	REQUIRE_OR(-1, t != NULL);
	f = octonic_eswitch_async_create(sw, 0, 0, &now, t, pat_any, 0,
		(const struct rte_flow_action[]){
			{ .type = RTE_FLOW_ACTION_TYPE_MARK },
			{ .type = RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT },
			{ .type = RTE_FLOW_ACTION_TYPE_END } }, 0, NULL, &err);
	REQUIRE_OR(-1, f != NULL && octonic_eswitch_pull(sw, 0, 0, &res, 1, &err) == 1 &&
		res.status == RTE_FLOW_OP_SUCCESS);
	v = run_udp(sw, 1, 2, 3, 4);
	REQUIRE_OR(-1, v.pf == 1 && v.has_mark && v.mark == 0x55);
	/* what PF0 sends does not meet the table: out on the wire */
	m = mk_udp4(mp, 1, 2, 3, 4);
	REQUIRE_OR(-1, m != NULL);
	octonic_eswitch_reader_enter(sw);
	octonic_eswitch_classify_tx(sw, 0, &m, 1, &v);
	octonic_eswitch_reader_leave(sw);
	rte_pktmbuf_free(m);
	REQUIRE_OR(-1, v.to_wire && !v.has_mark);
	octonic_eswitch_free(sw);
	return 0;
}
#endif

/* Classify one IPv4/UDP frame PF @p pf sent (mlx5-hws's Tx path). */
static struct octonic_verdict
run_tx_udp(struct octonic_eswitch *sw, uint16_t pf, uint16_t dp)
{
	struct rte_mbuf *m = mk_udp4(mp, 1, 2, 3, dp);
	struct octonic_verdict v;

	memset(&v, 0, sizeof(v));
	if (m == NULL)
		return v;
	octonic_eswitch_reader_enter(sw);
	octonic_eswitch_classify_tx(sw, pf, &m, 1, &v);
	octonic_eswitch_reader_leave(sw);
	rte_pktmbuf_free(m);
	return v;
}

/*
 * F9: under mlx5-hws a transfer rule without a REPRESENTED_PORT item
 * matches what every port sends as well as the wire's frames; one with
 * the item matches its port's only: PF0's port is the wire (the uplink's
 * representor), 0xffff PF0's own Tx (the e-switch manager), PF1's port
 * PF1's Tx.  A PF's frame no rule takes goes to the wire.
 */
static int
t_tx_from_pf(void)
{
	struct rte_flow_action_ethdev to_pf1 = { .port_id = PORT1 };
	const struct rte_flow_action a_pf1[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT, .conf = &to_pf1 },
		{ .type = RTE_FLOW_ACTION_TYPE_END } };
	struct rte_flow_item_ethdev from = { 0 };
	struct rte_flow_item pat_from[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_REPRESENTED_PORT, .spec = &from },
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4 },
		{ .type = RTE_FLOW_ITEM_TYPE_UDP, .spec = &udp_dst_spec,
			.mask = &udp_dst_mask },
		{ .type = RTE_FLOW_ITEM_TYPE_END } };
	/* item's port, then whether the wire, PF0's Tx, PF1's Tx match */
	const struct {
		uint16_t port;
		int wire, tx0, tx1;
	} cases[] = {
		{ PORT0, 1, 0, 0 },
		{ 0xffff, 0, 1, 0 },
		{ PORT1, 0, 0, 1 },
	};
	struct octonic_eswitch *sw;
	struct rte_flow_error err;
	struct octonic_verdict v;
	char *buf = NULL;
	size_t len = 0, i;
	FILE *mf;

	/* no item: every source */
	sw = new_sw();
	REQUIRE_OR(-1, sw != NULL);
	octonic_eswitch_dialect_set(sw, OCTONIC_DIALECT_MLX5_HWS, 4);
	REQUIRE_OR(-1, mk(sw, 0, &A_TRANSFER, udp_dst(53), a_pf1) != NULL);
	v = run_udp(sw, 1, 2, 3, 53);
	REQUIRE_OR(-1, v.pf == 1 && !v.to_wire);
	v = run_tx_udp(sw, 0, 53);
	REQUIRE_OR(-1, !v.to_wire && v.pf == 1 && v.has_rss);
	v = run_tx_udp(sw, 1, 53);
	REQUIRE_OR(-1, !v.to_wire && v.pf == 1);
	v = run_tx_udp(sw, 0, 54);	/* no rule: the wire */
	REQUIRE_OR(-1, v.to_wire && !v.drop);
	octonic_eswitch_free(sw);

	for (i = 0; i < RTE_DIM(cases); i++) {
		sw = new_sw();
		REQUIRE_OR(-1, sw != NULL);
		octonic_eswitch_dialect_set(sw, OCTONIC_DIALECT_MLX5_HWS, 4);
		from.port_id = cases[i].port;
		udp_dst(53);
		REQUIRE_OR(-1, octonic_eswitch_flow_validate(sw, 0, &A_TRANSFER, pat_from,
			a_pf1, &err) == 0);
		REQUIRE_OR(-1, mk(sw, 0, &A_TRANSFER, pat_from, a_pf1) != NULL);
		v = run_udp(sw, 1, 2, 3, 53);
		REQUIRE_OR(-1, (v.pf == 1) == cases[i].wire);
		v = run_tx_udp(sw, 0, 53);
		REQUIRE_OR(-1, v.to_wire == !cases[i].tx0 && (v.pf == 1) == cases[i].tx0);
		v = run_tx_udp(sw, 1, 53);
		REQUIRE_OR(-1, v.to_wire == !cases[i].tx1 && (v.pf == 1) == cases[i].tx1);
		mf = open_memstream(&buf, &len);
		REQUIRE_OR(-1, mf != NULL);
		REQUIRE_OR(-1, octonic_eswitch_dump(sw, mf) == 0);
		fclose(mf);
		printf("  %s", buf);
		REQUIRE_OR(-1, strstr(buf, cases[i].port == PORT0 ? "represented_port(10)/eth" :
			cases[i].port == PORT1 ? "represented_port(11)/eth" :
			"represented_port(65535)/eth") != NULL);
		free(buf);
		buf = NULL;
		octonic_eswitch_free(sw);
	}

	/* a port of no PF: refused, by validate too (a pattern's) */
	sw = new_sw();
	REQUIRE_OR(-1, sw != NULL);
	octonic_eswitch_dialect_set(sw, OCTONIC_DIALECT_MLX5_HWS, 4);
	from.port_id = 99;
	memset(&err, 0, sizeof(err));
	REQUIRE_OR(-1, octonic_eswitch_flow_validate(sw, 0, &A_TRANSFER, pat_from, a_pf1,
		&err) == -EINVAL && strstr(err.message, "port 99 is not a port") != NULL);
	octonic_eswitch_free(sw);
	/* generic and mlx5-sws have no such item */
	for (i = 0; i < 2; i++) {
		sw = new_sw();
		REQUIRE_OR(-1, sw != NULL);
		if (i == 1)
			octonic_eswitch_dialect_set(sw, OCTONIC_DIALECT_MLX5_SWS, 1);
		from.port_id = PORT0;
		REQUIRE_OR(-1, octonic_eswitch_flow_validate(sw, 0, &A_TRANSFER, pat_from,
			a_pf1, &err) == -ENOTSUP);
		octonic_eswitch_free(sw);
	}
	return 0;
}

/*
 * F10: two rules of one priority that both match a frame: the older one
 * wins, except under mlx5-hws outside the root table (NIC Rx group 0):
 * there the newer one does, transfer group 0 included (F3).  In one hash
 * table (the same match) and across two (two masks).
 */
static int
t_newest_wins(void)
{
	struct rte_flow_action_ethdev to_pf1 = { .port_id = PORT1 };
	struct rte_flow_action_queue q1 = { .index = 1 }, q2 = { .index = 2 };
	const struct rte_flow_action a_pf1[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT, .conf = &to_pf1 },
		{ .type = RTE_FLOW_ACTION_TYPE_END } };
	const struct rte_flow_action a_drop[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_DROP },
		{ .type = RTE_FLOW_ACTION_TYPE_END } };
	const struct rte_flow_action a_q1[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &q1 },
		{ .type = RTE_FLOW_ACTION_TYPE_END } };
	const struct rte_flow_action a_q2[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &q2 },
		{ .type = RTE_FLOW_ACTION_TYPE_END } };
	const struct rte_flow_attr t0 = { .transfer = 1, .group = 0, .priority = 1 };
	const struct rte_flow_attr t1 = { .transfer = 1, .group = 1, .priority = 1 };
	const struct rte_flow_attr i0 = { .ingress = 1, .group = 0, .priority = 1 };
	const struct rte_flow_attr i1 = { .ingress = 1, .group = 1, .priority = 1 };
	struct rte_flow_action_jump j1 = { .group = 1 };
	const struct rte_flow_action a_j1[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_JUMP, .conf = &j1 },
		{ .type = RTE_FLOW_ACTION_TYPE_END } };
	const struct rte_flow_attr i0_jump = { .ingress = 1, .priority = 0 };
	static const enum octonic_dialect dialects[] = { OCTONIC_DIALECT_GENERIC,
		OCTONIC_DIALECT_MLX5_SWS, OCTONIC_DIALECT_MLX5_HWS };
	struct rte_flow_error err;
	struct octonic_verdict v;
	struct rte_flow *newer;
	size_t d;
	int shared, hws;

	for (d = 0; d < RTE_DIM(dialects); d++)
		for (shared = 0; shared < 2; shared++) {
			struct octonic_eswitch *sw = new_sw();
			/* the newer rule's match: the older's, or a wider one */
			const struct rte_flow_item *p2 = shared ? NULL : pat_any;

			REQUIRE_OR(-1, sw != NULL);
			hws = dialects[d] == OCTONIC_DIALECT_MLX5_HWS;
			if (dialects[d] != OCTONIC_DIALECT_GENERIC)
				octonic_eswitch_dialect_set(sw, dialects[d], 4 * hws + !hws);
			/* transfer group 0: older to PF1, newer DROP */
			REQUIRE_OR(-1, mk(sw, 0, &t0, udp_dst(53), a_pf1) != NULL);
			newer = mk(sw, 0, &t0, p2 != NULL ? p2 : udp_dst(53), a_drop);
			REQUIRE_OR(-1, newer != NULL);
			v = run_udp(sw, 1, 2, 3, 53);
			REQUIRE_OR(-1, hws ? v.drop : (!v.drop && v.pf == 1));
			/* gone: the other one takes the frames */
			REQUIRE_OR(-1, octonic_eswitch_flow_destroy(sw, 0, newer, &err) == 0);
			v = run_udp(sw, 1, 2, 3, 53);
			REQUIRE_OR(-1, !v.drop && v.pf == 1);
			/* transfer group 1, reached from PF1's frames? no: a
			 * second chain in group 1 for frames to port 54 */
			REQUIRE_OR(-1, mk(sw, 0, &t0, udp_dst(54), a_j1) != NULL);
			REQUIRE_OR(-1, mk(sw, 0, &t1, udp_dst(54), a_pf1) != NULL);
			REQUIRE_OR(-1,
				mk(sw, 0, &t1, p2 != NULL ? p2 : udp_dst(54), a_drop) != NULL);
			v = run_udp(sw, 1, 2, 3, 54);
			REQUIRE_OR(-1, hws ? v.drop : (!v.drop && v.pf == 1));
			/* ingress group 0 (the root table): the older everywhere */
			REQUIRE_OR(-1, mk(sw, 0, &i0, udp_dst(55), a_q1) != NULL);
			REQUIRE_OR(-1, mk(sw, 0, &i0, p2 != NULL ? p2 : udp_dst(55), a_q2) != NULL);
			v = run_udp(sw, 1, 2, 3, 55);
			REQUIRE_OR(-1, v.pf == 0 && v.queue == 1);
			/* ingress group 1: the newer under mlx5-hws */
			REQUIRE_OR(-1, mk(sw, 0, &i0_jump, udp_dst(56), a_j1) != NULL);
			REQUIRE_OR(-1, mk(sw, 0, &i1, udp_dst(56), a_q1) != NULL);
			REQUIRE_OR(-1, mk(sw, 0, &i1, p2 != NULL ? p2 : udp_dst(56), a_q2) != NULL);
			v = run_udp(sw, 1, 2, 3, 56);
			REQUIRE_OR(-1, v.pf == 0 && v.queue == (hws ? 2 : 1));
			octonic_eswitch_free(sw);
		}
	return 0;
}

/*
 * F6: an actions template's MODIFY_FIELD under mlx5-hws needs a mask of
 * the same operation and fields, fixing the destination's level and
 * offset and the width (mlx5's messages); a value mask of zero leaves
 * each rule its own value.  generic has no MODIFY_FIELD.
 */
static int
t_modify_field_masks(void)
{
	struct rte_flow_action_modify_field mf = {
		.operation = RTE_FLOW_MODIFY_SET,
		.dst = { .field = RTE_FLOW_FIELD_META },
		.src = { .field = RTE_FLOW_FIELD_VALUE },
		.width = 32,
	};
	struct rte_flow_action_modify_field mm, rule_mf = mf;
	struct rte_flow_action_ethdev to_pf1 = { .port_id = PORT1 };
	struct rte_flow_action acts[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_MODIFY_FIELD, .conf = &mf },
		{ .type = RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT, .conf = &to_pf1 },
		{ .type = RTE_FLOW_ACTION_TYPE_END } };
	struct rte_flow_action masks[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_MODIFY_FIELD, .conf = &mm },
		{ .type = RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT, .conf = &to_pf1 },
		{ .type = RTE_FLOW_ACTION_TYPE_END } };
	struct rte_flow_action rule_acts[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_MODIFY_FIELD, .conf = &rule_mf },
		{ .type = RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT },
		{ .type = RTE_FLOW_ACTION_TYPE_END } };
	const struct rte_flow_queue_attr qa = { .size = 8 };
	const struct rte_flow_queue_attr *qas[] = { &qa };
	const struct rte_flow_port_attr port_attr = { 0 };
	const struct rte_flow_op_attr now = { .postpone = 0 };
	const struct rte_flow_pattern_template_attr pa = { .transfer = 1 };
	const struct rte_flow_actions_template_attr aa = { .transfer = 1 };
	const struct rte_flow_template_table_attr ta = {
		.flow_attr = { .transfer = 1, .group = 1 }, .nb_flows = 4 };
	const struct rte_flow_attr g0 = { .transfer = 1 };
	struct rte_flow_action_jump j1 = { .group = 1 };
	const struct rte_flow_action a_j1[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_JUMP, .conf = &j1 },
		{ .type = RTE_FLOW_ACTION_TYPE_END } };
	/* what each broken mask lacks, and mlx5's words for it */
	static const char *const why[] = {
		"modify_field mask conf is missing",
		"modify_field operation mask and template are not equal",
		"destination field mask and template are not equal",
		"destination encapsulation level must be fully masked",
		"destination offset level must be fully masked",
		"modify_field width field must be fully masked",
	};
	struct rte_flow_pattern_template *pt;
	struct rte_flow_actions_template *at;
	struct rte_flow_template_table *t;
	struct rte_flow_op_result res;
	struct rte_flow_error err;
	struct octonic_eswitch *sw;
	struct octonic_verdict v;
	uint32_t val, i;

	sw = new_sw();
	REQUIRE_OR(-1, sw != NULL);
	octonic_eswitch_dialect_set(sw, OCTONIC_DIALECT_MLX5_HWS, 4);
	REQUIRE_OR(-1, octonic_eswitch_flow_configure(sw, 0, 0, &port_attr, 1, qas,
		&err) == 0);
	for (i = 0; i < RTE_DIM(why); i++) {
		memset(&mm, 0, sizeof(mm));
		mm.operation = RTE_FLOW_MODIFY_SET;
		mm.dst.field = RTE_FLOW_FIELD_META;
		mm.dst.level = (__typeof__(mm.dst.level))~0u;
		mm.dst.offset = UINT32_MAX;
		mm.src.field = RTE_FLOW_FIELD_VALUE;
		mm.width = UINT32_MAX;
		masks[0].conf = i == 0 ? NULL : &mm;
		if (i == 1)
			mm.operation = RTE_FLOW_MODIFY_ADD;
		if (i == 2)
			mm.dst.field = RTE_FLOW_FIELD_TAG;
		if (i == 3)
			mm.dst.level = 0;
		if (i == 4)
			mm.dst.offset = 0;
		if (i == 5)
			mm.width = 32;
		memset(&err, 0, sizeof(err));
		at = octonic_eswitch_actions_template_create(sw, 0, &aa, acts, masks,
			&err);
		if (at != NULL || err.message == NULL || strstr(err.message, why[i]) == NULL) {
			printf("  mask %u: %s\n", i, err.message != NULL ? err.message :
				"accepted");
			REQUIRE_OR(-1, 0);
		}
	}
	/* full, the value open: each rule writes its own */
	masks[0].conf = &mm;
	mm.width = UINT32_MAX;
	pt = octonic_eswitch_pattern_template_create(sw, 0, &pa, udp_dst(0), &err);
	at = octonic_eswitch_actions_template_create(sw, 0, &aa, acts, masks, &err);
	REQUIRE_OR(-1, pt != NULL && at != NULL);
	t = octonic_eswitch_template_table_create(sw, 0, &ta, &pt, 1, &at, 1, &err);
	REQUIRE_OR(-1, t != NULL);
	REQUIRE_OR(-1, mk(sw, 0, &g0, pat_any, a_j1) != NULL);
	for (i = 0; i < 2; i++) {
		val = 5 + i;
		memcpy(rule_mf.src.value, &val, sizeof(val));
		REQUIRE_OR(-1, octonic_eswitch_async_create(sw, 0, 0, &now, t,
			udp_dst(60 + i), 0, rule_acts, 0, NULL, &err) != NULL);
		REQUIRE_OR(-1, octonic_eswitch_pull(sw, 0, 0, &res, 1, &err) == 1 &&
			res.status == RTE_FLOW_OP_SUCCESS);
	}
	for (i = 0; i < 2; i++) {
		v = run_udp(sw, 1, 2, 3, 60 + i);
		REQUIRE_OR(-1, v.pf == 1 && v.has_meta && v.meta == 5 + i);
	}
	octonic_eswitch_free(sw);

	/* generic: no MODIFY_FIELD at all, whatever the mask: its rules are
	 * refused */
	sw = new_sw();
	REQUIRE_OR(-1, sw != NULL);
	REQUIRE_OR(-1, octonic_eswitch_flow_configure(sw, 0, 0, &port_attr, 1, qas,
		&err) == 0);
	masks[0].conf = NULL;
	at = octonic_eswitch_actions_template_create(sw, 0, &aa, acts, masks, &err);
	pt = octonic_eswitch_pattern_template_create(sw, 0, &pa, udp_dst(0), &err);
	REQUIRE_OR(-1, at != NULL && pt != NULL);
	t = octonic_eswitch_template_table_create(sw, 0, &ta, &pt, 1, &at, 1, &err);
	REQUIRE_OR(-1, t != NULL);
	memset(&err, 0, sizeof(err));
	REQUIRE_OR(-1, octonic_eswitch_async_create(sw, 0, 0, &now, t, udp_dst(60), 0,
		rule_acts, 0, NULL, &err) == NULL && err.message != NULL &&
		strstr(err.message, "not supported in the transfer domain") != NULL);
	octonic_eswitch_free(sw);
	return 0;
}

/*
 * F7 at the e-switch: a PF's stop under an mlx5 dialect flushes the rules
 * made on it, rte_flow_create's and its template tables', PF0's every
 * transfer rule; the other PFs' rules stay.  A flushed rule's handle is
 * still destroyed (0, as mlx5 answers) and not freed twice; a template
 * rule's handle is refused by the asynchronous destroy; the table stays.
 * Under mlx5-hws rte_flow_flush takes template rules too; mlx5-sws has no
 * template API (its configure is refused) and no template rule.  Memory
 * goes back to the heap with handles never destroyed.
 */
static int
t_port_stop_flush(void)
{
	struct rte_flow_action_ethdev to_pf1 = { .port_id = PORT1 };
	struct rte_flow_action_queue q1 = { .index = 1 };
	const struct rte_flow_action a_pf1[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT, .conf = &to_pf1 },
		{ .type = RTE_FLOW_ACTION_TYPE_END } };
	const struct rte_flow_action a_q1[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &q1 },
		{ .type = RTE_FLOW_ACTION_TYPE_END } };
	const struct rte_flow_queue_attr qa = { .size = 8 };
	const struct rte_flow_queue_attr *qas[] = { &qa };
	const struct rte_flow_port_attr port_attr = { 0 };
	const struct rte_flow_op_attr now = { .postpone = 0 };
	const struct rte_flow_pattern_template_attr pa = { .ingress = 1 };
	const struct rte_flow_actions_template_attr aa = { .ingress = 1 };
	const struct rte_flow_template_table_attr ta = {
		.flow_attr = { .ingress = 1 }, .nb_flows = 4 };
	struct rte_malloc_socket_stats ms0, ms1;
	struct rte_flow_pattern_template *pt;
	struct rte_flow_actions_template *at;
	struct rte_flow_template_table *t = NULL;
	struct rte_flow *tr, *in0, *in1, *tmpl = NULL, *stale;
	struct rte_flow_op_result res;
	struct octonic_eswitch_stats st;
	struct rte_flow_error err;
	struct octonic_eswitch *sw;
	int round;

	rte_malloc_get_socket_stats(0, &ms0);
	for (round = 0; round < 2; round++) {
		sw = new_sw();
		REQUIRE_OR(-1, sw != NULL);
		octonic_eswitch_dialect_set(sw, round == 0 ?
			OCTONIC_DIALECT_MLX5_HWS : OCTONIC_DIALECT_MLX5_SWS,
			round == 0 ? 4 : 1);
		if (round == 1) {
			REQUIRE_OR(-1, octonic_eswitch_flow_configure(sw, 0, 0, &port_attr, 1,
				qas, &err) == -ENOTSUP && err.message != NULL &&
				strstr(err.message, "incorrect steering mode") != NULL);
			REQUIRE_OR(-1, octonic_eswitch_pattern_template_create(sw, 0, &pa,
				udp_dst(57), &err) == NULL && err.message != NULL &&
				strstr(err.message, "incorrect steering mode") != NULL);
		}
		tr = mk(sw, 0, &A_TRANSFER, udp_dst(53), a_pf1);
		in0 = mk(sw, 0, &A_INGRESS, udp_dst(54), a_q1);
		in1 = mk(sw, 1, &A_INGRESS, udp_dst(53), a_q1);
		REQUIRE_OR(-1, tr != NULL && in0 != NULL && in1 != NULL);
		if (round == 0) {
			REQUIRE_OR(-1, octonic_eswitch_flow_configure(sw, 0, 0, &port_attr,
				1, qas, &err) == 0);
			pt = octonic_eswitch_pattern_template_create(sw, 0, &pa,
				udp_dst(57), &err);
			at = octonic_eswitch_actions_template_create(sw, 0, &aa, a_q1,
				a_q1, &err);
			REQUIRE_OR(-1, pt != NULL && at != NULL);
			t = octonic_eswitch_template_table_create(sw, 0, &ta, &pt, 1,
				&at, 1, &err);
			REQUIRE_OR(-1, t != NULL);
			tmpl = octonic_eswitch_async_create(sw, 0, 0, &now, t,
				udp_dst(57), 0, a_q1, 0, NULL, &err);
			REQUIRE_OR(-1, tmpl != NULL &&
				octonic_eswitch_pull(sw, 0, 0, &res, 1, &err) == 1);
		}
		/* PF1 stops: its ingress rule goes, the transfer rule stays */
		octonic_eswitch_port_stopped(sw, 1);
		{
			struct octonic_verdict v = run_udp(sw, 1, 2, 3, 53);

			REQUIRE_OR(-1, v.pf == 1 && v.has_rss);	/* PF1's RSS now */
			v = run_udp(sw, 1, 2, 3, 57);
			REQUIRE_OR(-1, round == 1 ||
				(v.pf == 0 && v.queue == 1 && !v.has_rss));
		}
		octonic_eswitch_stats_get(sw, &st);
		/* PF0's ingress: in0, and the template rule under mlx5-hws */
		REQUIRE_OR(-1, st.transfer_rules == 1 &&
			st.ingress_rules[0] == (round == 0 ? 2u : 1u) &&
			st.ingress_rules[1] == 0);
		REQUIRE_OR(-1, octonic_eswitch_flow_destroy(sw, 1, in1, &err) == 0);
		/* PF0 stops: everything made through it goes */
		octonic_eswitch_port_stopped(sw, 0);
		octonic_eswitch_stats_get(sw, &st);
		REQUIRE_OR(-1, st.transfer_rules == 0 && st.ingress_rules[0] == 0);
		{
			struct octonic_verdict v = run_udp(sw, 1, 2, 3, 57);

			REQUIRE_OR(-1, v.pf == 0 && v.has_rss);
		}
		REQUIRE_OR(-1, octonic_eswitch_flow_destroy(sw, 0, tr, &err) == 0);
		if (round == 0) {
			REQUIRE_OR(-1, octonic_eswitch_async_destroy(sw, 0, 0, &now, tmpl,
				NULL, &err) == -EINVAL);
			/* the table is empty, and takes rules again */
			stale = octonic_eswitch_async_create(sw, 0, 0, &now, t,
				udp_dst(57), 0, a_q1, 0, NULL, &err);
			REQUIRE_OR(-1, stale != NULL &&
				octonic_eswitch_pull(sw, 0, 0, &res, 1, &err) == 1);
			/* mlx5-hws's rte_flow_flush takes template rules */
			REQUIRE_OR(-1, octonic_eswitch_flow_flush(sw, 0, &err) == 0);
			REQUIRE_OR(-1, octonic_eswitch_template_table_destroy(sw, 0, t,
				&err) == 0);
		}
		/* in0's handle never destroyed: freed with the e-switch */
		octonic_eswitch_free(sw);
	}
	rte_malloc_get_socket_stats(0, &ms1);
	REQUIRE_OR(-1, ms1.heap_allocsz_bytes == ms0.heap_allocsz_bytes);
	return 0;
}

static int
t_isolate_flush_stats(void)
{
	struct octonic_eswitch *sw = new_sw();
	struct rte_flow_action_queue q2 = { .index = 2 };
	struct rte_flow_action a_q[] = OCTO_ACTIONS_QUEUE(&q2);
	struct rte_flow_action a_drop[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_DROP },
		{ .type = RTE_FLOW_ACTION_TYPE_END } };
	struct octonic_eswitch_stats st;
	struct rte_flow_error err;
	struct octonic_verdict v;

	REQUIRE_OR(-1, sw != NULL);
	REQUIRE_OR(-1, mk(sw, 0, &A_INGRESS, udp_dst(53), a_q) != NULL);
	REQUIRE_OR(-1, octonic_eswitch_flow_isolate(sw, 0, 1, &err) == 0);
	v = run_udp(sw, 1, 2, 3, 53);
	REQUIRE_OR(-1, !v.drop && v.queue == 2);
	v = run_udp(sw, 1, 2, 3, 54);
	REQUIRE_OR(-1, v.drop);
	REQUIRE_OR(-1, octonic_eswitch_flow_isolate(sw, 0, 0, &err) == 0);
	REQUIRE_OR(-1, !run_udp(sw, 1, 2, 3, 54).drop);
	REQUIRE_OR(-1, mk(sw, 0, &A_TRANSFER, udp_dst(99), a_drop) != NULL);
	REQUIRE_OR(-1, mk(sw, 1, &A_INGRESS, udp_dst(53), a_q) != NULL);
	REQUIRE_OR(-1, mk(sw, 1, &A_INGRESS, udp_dst(54), a_q) != NULL);
	octonic_eswitch_stats_get(sw, &st);
	REQUIRE_OR(-1, st.creates == 4 && st.transfer_rules == 1 &&
		st.ingress_rules[0] == 1 && st.ingress_rules[1] == 2);
	REQUIRE_OR(-1, st.masks == 1);	/* all four match on udp dst: one table */
	/* PF1's flush leaves PF0's ingress and the transfer rules. */
	REQUIRE_OR(-1, octonic_eswitch_flow_flush(sw, 1, &err) == 0);
	octonic_eswitch_stats_get(sw, &st);
	REQUIRE_OR(-1, st.destroys == 2 && st.transfer_rules == 1 &&
		st.ingress_rules[0] == 1 && st.ingress_rules[1] == 0);
	REQUIRE_OR(-1, run_udp(sw, 1, 2, 3, 99).drop);
	/* The proxy's flush takes the transfer rules too. */
	REQUIRE_OR(-1, octonic_eswitch_flow_flush(sw, 0, &err) == 0);
	octonic_eswitch_stats_get(sw, &st);
	REQUIRE_OR(-1, st.destroys == 4 && st.transfer_rules == 0 &&
		st.ingress_rules[0] == 0 && st.masks == 0);
	v = run_udp(sw, 1, 2, 3, 99);
	REQUIRE_OR(-1, !v.drop && v.pf == 0 && v.has_rss);
	octonic_eswitch_free(sw);
	return 0;
}

static int
t_dump(void)
{
	struct octonic_eswitch *sw = new_sw();
	struct rte_flow_action_set_meta sm = { .data = 7, .mask = 0xffffffff };
	struct rte_flow_action_jump j1 = { .group = 1 };
	struct rte_flow_action_queue q7 = { .index = 7 };
	struct rte_flow_action_ethdev to1 = { .port_id = PORT1 };
	struct rte_flow_action_mark mk5 = { .id = 5 };
	struct rte_flow_item_meta meta = { .data = 7 };
	struct rte_flow_item_udp udp = { .hdr = { .src_port = RTE_BE16(3) } };
	struct rte_flow_item_udp udpm = { .hdr = { .src_port = RTE_BE16(0xf) } };
	struct rte_flow_item pat1[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4 },
		{ .type = RTE_FLOW_ITEM_TYPE_UDP, .spec = &udp, .mask = &udpm },
		{ .type = RTE_FLOW_ITEM_TYPE_END } };
	struct rte_flow_item pat_meta[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_META, .spec = &meta },
		{ .type = RTE_FLOW_ITEM_TYPE_END } };
	struct rte_flow_action a1[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_JUMP, .conf = &j1 },
		{ .type = RTE_FLOW_ACTION_TYPE_SET_META, .conf = &sm },
		{ .type = RTE_FLOW_ACTION_TYPE_END } };
	struct rte_flow_action a2[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_COUNT },
		{ .type = RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT, .conf = &to1 },
		{ .type = RTE_FLOW_ACTION_TYPE_MARK, .conf = &mk5 },
		{ .type = RTE_FLOW_ACTION_TYPE_END } };
	struct rte_flow_action a3[] = OCTO_ACTIONS_QUEUE(&q7);
	struct rte_flow_attr t3 = { .transfer = 1, .priority = 3 };
	struct rte_flow_attr t1 = { .transfer = 1, .group = 1 };
	const char *expect =
		"transfer group=0 prio=3 pattern=eth/ipv4/udp(src=0x0003/0x000f) actions=set_meta(7/0xffffffff),jump(1)\n"
		"transfer group=1 prio=0 pattern=any actions=mark(5),count,represented_port(11)\n"
		"ingress pf=1 group=0 prio=0 pattern=meta(7/0xffffffff) actions=queue(7)\n";
	char buf[1024];
	FILE *f;

	REQUIRE_OR(-1, sw != NULL);
	/* Created out of order: the dump sorts. */
	REQUIRE_OR(-1, mk(sw, 1, &A_INGRESS, pat_meta, a3) != NULL);
	REQUIRE_OR(-1, mk(sw, 0, &t1, pat_any, a2) != NULL);
	REQUIRE_OR(-1, mk(sw, 0, &t3, pat1, a1) != NULL);
	memset(buf, 0, sizeof(buf));
	f = fmemopen(buf, sizeof(buf), "w");
	REQUIRE_OR(-1, f != NULL);
	REQUIRE_OR(-1, octonic_eswitch_dump(sw, f) == 0);
	fclose(f);
	if (strcmp(buf, expect) != 0)
		printf("  got:\n%s  expected:\n%s", buf, expect);
	REQUIRE_OR(-1, strcmp(buf, expect) == 0);
	octonic_eswitch_free(sw);
	return 0;
}

/* ---- concurrency ---- */

#define CC_PKTS 64
#define CC_STATES 4

struct cc_ctx {
	struct octonic_eswitch *sw;
	struct rte_mbuf *pkts[CC_PKTS];
	struct octonic_verdict allowed[CC_STATES][CC_PKTS];
	volatile int stop;
	uint64_t rounds;
	uint64_t bad;
	uint32_t seen;		/* bit s: some packet saw exactly state s's verdict */
};

static int
same_verdict(const struct octonic_verdict *a, const struct octonic_verdict *b)
{
	return a->pf == b->pf && a->queue == b->queue && a->drop == b->drop &&
		a->has_mark == b->has_mark && a->mark == b->mark &&
		a->has_meta == b->has_meta && a->meta == b->meta &&
		a->has_rss == b->has_rss && a->rss_hash == b->rss_hash;
}

static void
cc_check(struct cc_ctx *c)
{
	struct octonic_verdict v[CC_PKTS];
	int i, s;

	octonic_eswitch_reader_enter(c->sw);
	octonic_eswitch_classify(c->sw, c->pkts, CC_PKTS, v);
	octonic_eswitch_reader_leave(c->sw);
	for (i = 0; i < CC_PKTS; i++) {
		int ok = 0;

		for (s = 0; s < CC_STATES; s++)
			if (same_verdict(&v[i], &c->allowed[s][i])) {
				ok = 1;
				if (i == 0)
					c->seen |= 1u << s;
			}
		if (!ok)
			c->bad++;
	}
	c->rounds++;
}

static int
cc_reader_lcore(void *arg)
{
	struct cc_ctx *c = arg;

	while (!c->stop)
		cc_check(c);
	return 0;
}

static void *
cc_reader_thread(void *arg)
{
	struct cc_ctx *c = arg;

	/* Yield between rounds: the machine may have fewer cores than
	 * busy threads, and a reader preempted inside its section stalls
	 * the writer's grace period. */
	while (!c->stop) {
		cc_check(c);
		sched_yield();
	}
	return NULL;
}

/* The change sequence: state 0 (base) -> +R (1) -> +I1 (2) -> +I2 (3),
 * then flush PF1 (I1, I2 at once: back to 1), destroy R (0). */
struct cc_rules {
	struct rte_flow_action_set_meta sm;
	struct rte_flow_action_mark mark;
	struct rte_flow_action_ethdev to1;
	struct rte_flow_action_queue q1, q2;
	struct rte_flow_item_meta meta;
	struct rte_flow_item pat_meta[2];
	struct rte_flow_action a_r[4], a_i1[2], a_i2[2];
	struct rte_flow_attr prio0, prio1;
};

static void
cc_rules_init(struct cc_rules *r)
{
	memset(r, 0, sizeof(*r));
	r->sm.data = 42;
	r->sm.mask = 0xffffffff;
	r->mark.id = 1234;
	r->to1.port_id = PORT1;
	r->q1.index = 1;
	r->q2.index = 2;
	r->meta.data = 42;
	r->pat_meta[0].type = RTE_FLOW_ITEM_TYPE_META;
	r->pat_meta[0].spec = &r->meta;
	r->pat_meta[1].type = RTE_FLOW_ITEM_TYPE_END;
	r->a_r[0] = (struct rte_flow_action){ RTE_FLOW_ACTION_TYPE_SET_META, &r->sm };
	r->a_r[1] = (struct rte_flow_action){ RTE_FLOW_ACTION_TYPE_MARK, &r->mark };
	r->a_r[2] = (struct rte_flow_action){ RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT,
		&r->to1 };
	r->a_r[3].type = RTE_FLOW_ACTION_TYPE_END;
	r->a_i1[0] = (struct rte_flow_action){ RTE_FLOW_ACTION_TYPE_QUEUE, &r->q1 };
	r->a_i1[1].type = RTE_FLOW_ACTION_TYPE_END;
	r->a_i2[0] = (struct rte_flow_action){ RTE_FLOW_ACTION_TYPE_QUEUE, &r->q2 };
	r->a_i2[1].type = RTE_FLOW_ACTION_TYPE_END;
	r->prio0.ingress = 1;
	r->prio1.ingress = 1;
	r->prio1.priority = 1;
}

static int
t_concurrent(void)
{
	struct cc_ctx *c = calloc(1, sizeof(*c));
	struct cc_rules r;
	struct rte_flow *fr;
	struct rte_flow_error err;
	unsigned int worker = rte_get_next_lcore(-1, 1, 0);
	pthread_t th;
	uint64_t end;
	int i, s, loops = 0;

	REQUIRE_OR(-1, c != NULL);
	c->sw = new_sw();
	REQUIRE_OR(-1, c->sw != NULL);
	cc_rules_init(&r);
	for (i = 0; i < CC_PKTS; i++) {
		c->pkts[i] = mk_udp4(mp, 0x0a000000 + i, 0x0b000000, 100 + i,
			i % 2 == 0 ? 53 : 80);
		REQUIRE_OR(-1, c->pkts[i] != NULL);
	}
	/* R matches udp dst 53 only (half the packets). */
#define CC_APPLY(st) do { \
	octonic_eswitch_reader_enter(c->sw); \
	octonic_eswitch_classify(c->sw, c->pkts, CC_PKTS, c->allowed[st]); \
	octonic_eswitch_reader_leave(c->sw); \
} while (0)
	CC_APPLY(0);
	fr = mk(c->sw, 0, &A_TRANSFER, udp_dst(53), r.a_r);
	REQUIRE_OR(-1, fr != NULL);
	CC_APPLY(1);
	REQUIRE_OR(-1, mk(c->sw, 1, &r.prio0, r.pat_meta, r.a_i1) != NULL);
	CC_APPLY(2);
	REQUIRE_OR(-1, mk(c->sw, 1, &r.prio1, r.pat_meta, r.a_i2) != NULL);
	CC_APPLY(3);
	/* The states differ where the test needs them to. */
	REQUIRE_OR(-1, c->allowed[0][0].pf == 0 && c->allowed[1][0].pf == 1 &&
		c->allowed[2][0].queue == 1 && c->allowed[3][0].queue == 1);
	REQUIRE_OR(-1, c->allowed[1][0].has_rss && !c->allowed[2][0].has_rss);
	REQUIRE_OR(-1, octonic_eswitch_flow_flush(c->sw, 1, &err) == 0);
	REQUIRE_OR(-1, octonic_eswitch_flow_destroy(c->sw, 0, fr, &err) == 0);

	if (worker < RTE_MAX_LCORE)
		REQUIRE_OR(-1, rte_eal_remote_launch(cc_reader_lcore, c, worker) == 0);
	REQUIRE_OR(-1, pthread_create(&th, NULL, cc_reader_thread, c) == 0);
	end = rte_get_timer_cycles() + rte_get_timer_hz() * 2;
	while (rte_get_timer_cycles() < end) {
		fr = mk(c->sw, 0, &A_TRANSFER, udp_dst(53), r.a_r);
		REQUIRE_OR(-1, fr != NULL);
		REQUIRE_OR(-1, mk(c->sw, 1, &r.prio0, r.pat_meta, r.a_i1) != NULL);
		REQUIRE_OR(-1, mk(c->sw, 1, &r.prio1, r.pat_meta, r.a_i2) != NULL);
		usleep(100);
		REQUIRE_OR(-1, octonic_eswitch_flow_flush(c->sw, 1, &err) == 0);
		REQUIRE_OR(-1, octonic_eswitch_flow_destroy(c->sw, 0, fr, &err) == 0);
		loops++;
	}
	c->stop = 1;
	if (worker < RTE_MAX_LCORE)
		rte_eal_wait_lcore(worker);
	pthread_join(th, NULL);
	printf("  %d change loops, %" PRIu64 " classify rounds, %" PRIu64
		" bad verdicts, states seen 0x%x\n", loops, c->rounds, c->bad, c->seen);
	REQUIRE_OR(-1, c->bad == 0);
	REQUIRE_OR(-1, c->rounds > 100);
	/* The readers did run across changes: several states observed. */
	REQUIRE_OR(-1, __builtin_popcount(c->seen) >= 2);
	for (i = 0; i < CC_PKTS; i++)
		rte_pktmbuf_free(c->pkts[i]);
	octonic_eswitch_free(c->sw);
	free(c);
	RTE_SET_USED(s);
	return 0;
}

/* ---- a reader off its CPU inside its section ---- */

#define HELD_MS 50

struct held_reader {
	struct octonic_eswitch *sw;
	int inside;		/* set once in the section */
	uint64_t left_tsc;	/* 0 until just before it leaves */
};

/* Enter, then sleep inside the section: off the CPU there, as an engine
 * lcore descheduled in the middle of a pass is; until the writer sleeps
 * waiting for it (on a loaded host the writer may reach its wait later
 * than HELD_MS after the reader entered), then HELD_MS more. */
static void
held_section(struct held_reader *h)
{
	uint64_t end;

	octonic_eswitch_reader_enter(h->sw);
	rte_atomic_store_explicit(&h->inside, 1, rte_memory_order_release);
	end = rte_get_timer_cycles() + 10 * rte_get_timer_hz();
	while (!rte_atomic_load_explicit(&h->sw->writer_sleeps, rte_memory_order_acquire) &&
			rte_get_timer_cycles() < end)
		rte_delay_us_sleep(1000);
	rte_delay_us_sleep(HELD_MS * 1000);
	rte_atomic_store_explicit(&h->left_tsc, rte_get_timer_cycles(), rte_memory_order_release);
	octonic_eswitch_reader_leave(h->sw);
}

static int
held_lcore(void *arg)
{
	held_section(arg);
	return 0;
}

static void *
held_thread(void *arg)
{
	held_section(arg);
	return NULL;
}

static uint64_t
thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* One rule create while a reader (@p worker, or a thread without an lcore
 * id when RTE_MAX_LCORE) sleeps inside its section. */
static int
held_create(struct octonic_eswitch *sw, unsigned int worker, uint16_t dport)
{
	static const struct rte_flow_action_queue q = { .index = 1 };
	const struct rte_flow_action a[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &q },
		{ .type = RTE_FLOW_ACTION_TYPE_END } };
	struct held_reader h = { .sw = sw, .inside = 0, .left_tsc = 0 };
	struct octonic_eswitch_stats st0, st1;
	uint64_t t1, left, cpu;
	struct rte_flow *f;
	pthread_t th;

	if (worker < RTE_MAX_LCORE)
		REQUIRE_OR(-1, rte_eal_remote_launch(held_lcore, &h, worker) == 0);
	else
		REQUIRE_OR(-1, pthread_create(&th, NULL, held_thread, &h) == 0);
	while (!rte_atomic_load_explicit(&h.inside, rte_memory_order_acquire))
		sched_yield();
	octonic_eswitch_stats_get(sw, &st0);
	cpu = thread_cpu_ns();
	f = mk(sw, 0, &A_INGRESS, udp_dst(dport), a);
	cpu = thread_cpu_ns() - cpu;
	t1 = rte_get_timer_cycles();
	left = rte_atomic_load_explicit(&h.left_tsc, rte_memory_order_acquire);
	if (worker < RTE_MAX_LCORE)
		rte_eal_wait_lcore(worker);
	else
		pthread_join(th, NULL);
	octonic_eswitch_stats_get(sw, &st1);
	printf("  reader %s held %d ms in its section: the create returned %.3f ms"
		" after it left, %.3f ms on a CPU, %" PRIu64 " wait(s) slept\n",
		worker < RTE_MAX_LCORE ? "lcore" : "thread", HELD_MS,
		left != 0 ? (double)(t1 - left) * 1e3 / rte_get_timer_hz() : -1.0,
		cpu / 1e6, st1.grace_sleeps - st0.grace_sleeps);
	REQUIRE_OR(-1, f != NULL);
	/* the acknowledgement: not before the reader left its section */
	REQUIRE_OR(-1, left != 0);
	/* without spinning through the reader's absence (it did: ~HELD_MS) */
	REQUIRE_OR(-1, cpu < 5000000);
	REQUIRE_OR(-1, st1.grace_sleeps > st0.grace_sleeps);
	/* woken by the reader's leave (a bound for a loaded machine); the
	 * caller measures again when it was not, since a runnable thread can
	 * be kept off both CPUs for a second by the rest of the suite */
	if (t1 - left >= rte_get_timer_hz()) {
		printf("  late: %.3f ms after the reader left\n",
			(double)(t1 - left) * 1e3 / rte_get_timer_hz());
		return 1;
	}
	return 0;
}

#define HELD_ATTEMPTS 3

/* held_create() until one is not late, at most HELD_ATTEMPTS times. */
static int
held_create_timed(struct octonic_eswitch *sw, unsigned int worker, uint16_t dport)
{
	int attempt, rc = 1;

	for (attempt = 0; attempt < HELD_ATTEMPTS && rc == 1; attempt++)
		rc = held_create(sw, worker, dport + attempt * 100);
	REQUIRE_OR(-1, rc == 0);
	return 0;
}

/* A rule change waits for a reader inside its section (the guarantee the
 * migration drain relies on) but does not spin while that reader is off
 * its CPU: it sleeps until the reader leaves, lcore or not. */
static int
t_reader_off_cpu(void)
{
	static const struct rte_flow_action_queue q = { .index = 1 };
	const struct rte_flow_action a[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &q },
		{ .type = RTE_FLOW_ACTION_TYPE_END } };
	unsigned int worker = rte_get_next_lcore(-1, 1, 0);
	struct octonic_eswitch *sw = new_sw();

	REQUIRE_OR(-1, sw != NULL);
	/* the mask's table exists before: the creates below add a key */
	REQUIRE_OR(-1, mk(sw, 0, &A_INGRESS, udp_dst(1), a) != NULL);
	if ((worker < RTE_MAX_LCORE && held_create_timed(sw, worker, 2) != 0) ||
	    held_create_timed(sw, RTE_MAX_LCORE, 3) != 0) {
		octonic_eswitch_free(sw);
		return -1;
	}
	octonic_eswitch_free(sw);
	return 0;
}

/* ---- memory ---- */

static int
t_no_leak(void)
{
	struct rte_malloc_socket_stats ms0, ms1;
	struct octo_udp_match p;
	struct rte_flow_action_queue q = { .index = 1 };
	struct rte_flow_action a[] = OCTO_ACTIONS_QUEUE(&q);
	struct rte_flow_action_rss ra = { .queue_num = 1, .queue = &q.index };
	struct rte_flow_action a_rss[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_COUNT },
		{ .type = RTE_FLOW_ACTION_TYPE_RSS, .conf = &ra },
		{ .type = RTE_FLOW_ACTION_TYPE_END } };
	struct rte_flow *fl[100];
	struct octonic_eswitch *sw;
	struct octonic_eswitch_stats st;
	struct rte_flow_error err;
	uint32_t i;

	rte_malloc_get_socket_stats(0, &ms0);
	sw = new_sw();
	REQUIRE_OR(-1, sw != NULL);
	/* Enough rules to grow the table twice. */
	for (i = 0; i < 5000; i++) {
		mk_5tuple_pat(&p, i, 2, 3, 4);
		REQUIRE_OR(-1, mk(sw, 0, &A_INGRESS, p.items, a) != NULL);
	}
	for (i = 0; i < 100; i++) {
		mk_5tuple_pat(&p, i, 3, 3, 4);
		fl[i] = mk(sw, 1, &A_INGRESS, p.items, a_rss);
		REQUIRE_OR(-1, fl[i] != NULL);
	}
	REQUIRE_OR(-1, run_udp(sw, 4999, 2, 3, 4).queue == 1);
	for (i = 0; i < 100; i++)
		REQUIRE_OR(-1, octonic_eswitch_flow_destroy(sw, 1, fl[i], &err) == 0);
	octonic_eswitch_stats_get(sw, &st);
	REQUIRE_OR(-1, st.ingress_rules[0] == 5000 && st.ingress_rules[1] == 0 &&
		st.masks == 1);
	REQUIRE_OR(-1, octonic_eswitch_flow_flush(sw, 0, &err) == 0);
	REQUIRE_OR(-1, run_udp(sw, 4999, 2, 3, 4).has_rss);
	for (i = 0; i < 10; i++) {	/* rules left at free time go too */
		mk_5tuple_pat(&p, i, 2, 3, 4);
		REQUIRE_OR(-1, mk(sw, 0, &A_INGRESS, p.items, a) != NULL);
	}
	octonic_eswitch_free(sw);
	rte_malloc_get_socket_stats(0, &ms1);
	if (ms1.heap_allocsz_bytes != ms0.heap_allocsz_bytes)
		printf("  heap allocated %zu -> %zu\n", ms0.heap_allocsz_bytes,
			ms1.heap_allocsz_bytes);
	REQUIRE_OR(-1, ms1.heap_allocsz_bytes == ms0.heap_allocsz_bytes);
	return 0;
}

/*
 * SCTP, ICMP and ICMP6 items under each dialect: the model matches all
 * three; mlx5 has no SCTP item, and wants the IP item before ICMP/ICMP6
 * except under hardware steering from 25.11.
 */
static int
t_l4_items_dialects(void)
{
	struct rte_flow_action_ethdev to_pf1 = { .port_id = PORT1 };
	const struct rte_flow_action act[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT, .conf = &to_pf1 },
		{ .type = RTE_FLOW_ACTION_TYPE_END } };
	const struct rte_flow_item p_sctp[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4 },
		{ .type = RTE_FLOW_ITEM_TYPE_SCTP },
		{ .type = RTE_FLOW_ITEM_TYPE_END } };
	const struct rte_flow_item p_ip_icmp[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4 },
		{ .type = RTE_FLOW_ITEM_TYPE_ICMP },
		{ .type = RTE_FLOW_ITEM_TYPE_END } };
	const struct rte_flow_item p_icmp[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_ICMP },
		{ .type = RTE_FLOW_ITEM_TYPE_END } };
	const struct rte_flow_item p_ip_icmp6[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_IPV6 },
		{ .type = RTE_FLOW_ITEM_TYPE_ICMP6 },
		{ .type = RTE_FLOW_ITEM_TYPE_END } };
	const struct rte_flow_item p_icmp6[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ICMP6 },
		{ .type = RTE_FLOW_ITEM_TYPE_END } };
	const struct rte_flow_item *pats[] = {
		p_sctp, p_ip_icmp, p_icmp, p_ip_icmp6, p_icmp6 };
	/* per dialect: NULL accepted, else the refusal's words */
	const struct {
		enum octonic_dialect d;
		uint16_t release;
		const char *needle[5];
	} cases[] = {
		{ OCTONIC_DIALECT_GENERIC, OCTONIC_MLX5_DPDK_25_11,
			{ NULL, NULL, NULL, NULL, NULL } },
		{ OCTONIC_DIALECT_MLX5_SWS, OCTONIC_MLX5_DPDK_25_11,
			{ "mlx5-sws: SCTP item not supported", NULL,
			  "IPv4 is mandatory to filter on ICMP", NULL,
			  "IPv6 is mandatory to filter on ICMP6" } },
		{ OCTONIC_DIALECT_MLX5_HWS, OCTONIC_MLX5_DPDK_22_11,
			{ "mlx5-hws: SCTP item not supported", NULL,
			  "IPv4 is mandatory to filter on ICMP", NULL,
			  "IPv6 is mandatory to filter on ICMP6" } },
		{ OCTONIC_DIALECT_MLX5_HWS, OCTONIC_MLX5_DPDK_25_11,
			{ "mlx5-hws: SCTP item not supported", NULL, NULL, NULL,
			  NULL } },
	};
	size_t i, j;

	for (i = 0; i < RTE_DIM(cases); i++) {
		for (j = 0; j < RTE_DIM(pats); j++) {
			struct octonic_eswitch *sw = new_sw();
			const char *needle = cases[i].needle[j];
			struct rte_flow_error err;
			struct rte_flow *f;
			int valid;

			REQUIRE_OR(-1, sw != NULL);
			octonic_eswitch_dialect_set(sw, cases[i].d,
				cases[i].d == OCTONIC_DIALECT_GENERIC ? 0 : 1);
			octonic_eswitch_mlx5_model_set(sw, cases[i].release, 0);
			memset(&err, 0, sizeof(err));
			valid = octonic_eswitch_flow_validate(sw, 0, &A_TRANSFER,
				pats[j], act, &err);
			f = octonic_eswitch_flow_create(sw, 0, &A_TRANSFER,
				pats[j], act, &err);
			octonic_eswitch_free(sw);
			if (needle == NULL ? (valid != 0 || f == NULL) :
					(valid == 0 || f != NULL || err.message == NULL ||
					strstr(err.message, needle) == NULL)) {
				printf("  case %zu pattern %zu: validate %d, created %d, message '%s'\n",
					i, j, valid, f != NULL,
					err.message != NULL ? err.message : "(null)");
				REQUIRE_OR(-1, 0);
			}
		}
	}
	return 0;
}

/*
 * IPv4 fragment_offset under each dialect: what OVS asks (frag=no, first,
 * later), the range "a fragment", DF alone and one offset value. The model
 * takes them all; mlx5 (mlx5_flow_dv_validate_item_ipv4, software and
 * hardware steering alike) only a zero value, or 1..0x3fff under the full
 * MF and offset mask.
 */
static int
t_ipv4_frag_dialects(void)
{
	static const struct {
		uint16_t spec, mask, last;	/* CPU order; last 0: none */
	} frag[] = {
		{ 0, 0x3fff, 0 },		/* OVS frag=no */
		{ 0x2000, 0x3fff, 0 },		/* OVS frag=first */
		{ 1, 0x1fff, 0x1fff },		/* OVS frag=later */
		{ 1, 0x3fff, 0x3fff },		/* a fragment */
		{ 0x4000, 0x4000, 0 },		/* DF set */
		{ 185, 0x3fff, 0 },		/* one offset, MF clear */
	};
	static const char *const mlx5[RTE_DIM(frag)] = {
		NULL, "match on first fragment not supported",
		"must use full mask for fragment_offset", NULL,
		"must use full mask for fragment_offset", "specified value not supported",
	};
	static const enum octonic_dialect dialects[] = {
		OCTONIC_DIALECT_GENERIC, OCTONIC_DIALECT_MLX5_SWS, OCTONIC_DIALECT_MLX5_HWS,
	};
	struct rte_flow_action_ethdev to_pf1 = { .port_id = PORT1 };
	const struct rte_flow_action act[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT, .conf = &to_pf1 },
		{ .type = RTE_FLOW_ACTION_TYPE_END } };
	struct rte_flow_item_ipv4 ip, ipm, ipl;
	struct rte_flow_item p[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4, .spec = &ip, .mask = &ipm },
		{ .type = RTE_FLOW_ITEM_TYPE_END } };
	size_t i, j;

	for (i = 0; i < RTE_DIM(dialects); i++) {
		for (j = 0; j < RTE_DIM(frag); j++) {
			struct octonic_eswitch *sw = new_sw();
			const char *needle = dialects[i] == OCTONIC_DIALECT_GENERIC ?
				NULL : mlx5[j];
			struct rte_flow_error err;
			struct rte_flow *f;
			int valid;

			REQUIRE_OR(-1, sw != NULL);
			memset(&ip, 0, sizeof(ip));
			memset(&ipm, 0, sizeof(ipm));
			memset(&ipl, 0, sizeof(ipl));
			ip.hdr.fragment_offset = rte_cpu_to_be_16(frag[j].spec);
			ipm.hdr.fragment_offset = rte_cpu_to_be_16(frag[j].mask);
			ipl.hdr.fragment_offset = rte_cpu_to_be_16(frag[j].last);
			p[1].last = frag[j].last != 0 ? &ipl : NULL;
			octonic_eswitch_dialect_set(sw, dialects[i],
				dialects[i] == OCTONIC_DIALECT_GENERIC ? 0 : 1);
			memset(&err, 0, sizeof(err));
			valid = octonic_eswitch_flow_validate(sw, 0, &A_TRANSFER, p, act, &err);
			f = octonic_eswitch_flow_create(sw, 0, &A_TRANSFER, p, act, &err);
			octonic_eswitch_free(sw);
			if (needle == NULL ? (valid != 0 || f == NULL) :
					(valid == 0 || f != NULL || err.message == NULL ||
					strstr(err.message, needle) == NULL)) {
				printf("  dialect %zu fragment_offset case %zu: validate %d, created %d, message '%s'\n",
					i, j, valid, f != NULL,
					err.message != NULL ? err.message : "(null)");
				REQUIRE_OR(-1, 0);
			}
		}
	}
	return 0;
}

static const struct {
	const char *name;
	int (*fn)(void);
} tests[] = {
	{ "transfer_ingress_chain", t_transfer_ingress_chain },
	{ "meta_drives_ingress", t_meta_drives_ingress },
	{ "group_miss_falls_back", t_group_miss_falls_back },
	{ "priorities", t_priorities },
	{ "ingress_jump", t_ingress_jump },
	{ "jump_cap", t_jump_cap },
	{ "rss", t_rss },
	{ "key_layouts", t_key_layouts },
	{ "drop_count", t_drop_count },
	{ "refusals_leave_nothing", t_refusals_leave_nothing },
	{ "isolate_flush_stats", t_isolate_flush_stats },
	{ "dump", t_dump },
	{ "concurrent", t_concurrent },
	{ "reader_off_cpu", t_reader_off_cpu },
	{ "mlx5_release", t_mlx5_release },
#if OCTO_DPDK_HAS_TABLE_SPECIALIZE
	{ "mlx5_wire_mark", t_mlx5_wire_mark },
#endif
	{ "tx_from_pf", t_tx_from_pf },
	{ "newest_wins", t_newest_wins },
	{ "port_stop_flush", t_port_stop_flush },
	{ "modify_field_masks", t_modify_field_masks },
	{ "l4_items_dialects", t_l4_items_dialects },
	{ "ipv4_frag_dialects", t_ipv4_frag_dialects },
	{ "no_leak", t_no_leak },
};

int
main(int argc, char **argv)
{
	const char *only = NULL;
	size_t i;
	int ran = 0;

	/* line by line: a sanitizer that ends the process at exit (a leak)
	 * must not take the test's own output with it
	 */
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (octo_eal_init_args(&argc, &argv, 512) < 0)
		return 1;
	if (argc > 1)
		only = argv[1];
	mp = rte_pktmbuf_pool_create("t_mbufs", 1024, 0, 0,
		RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	if (mp == NULL) {
		printf("no mempool\n");
		return 1;
	}
	for (i = 0; i < RTE_DIM(tests); i++) {
		int before = octo_failures;

		if (only != NULL && strcmp(only, tests[i].name) != 0)
			continue;
		printf("%s\n", tests[i].name);
		tests[i].fn();
		printf("  %s\n", octo_failures == before ? "ok" : "FAILED");
		ran++;
	}
	rte_mempool_free(mp);
	rte_eal_cleanup();
	printf("%d test(s), %d failure(s)\n", ran, octo_failures);
	return octo_failures != 0 || ran == 0;
}
