/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Rules with the SCTP, ICMP and ICMP6 items on net_octopus over net_octonic
 * PFs on 2 (emulated) sockets, end to end: the NIC's generator sends one
 * protocol at a time (16 flows, SCTP over IPv4 and IPv6, ICMP echo
 * requests, ICMPv6 echo requests), the port is isolated, and a rule per
 * case sends what it matches to queue 3 (a second rule that matches
 * nothing, to queue 2).  Every frame that arrives must be one the rule
 * matches, on its queue, and all of them must arrive: masks on the source
 * port or echo identifier's low bit select exactly half the flows (the
 * generator's flows take consecutive ports), type/code the whole set.
 * Run under tools/octopus-numa-emu.
 *
 *   test_octopus_flow_l4 items
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_flow.h>
#include <rte_icmp.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_sctp.h>
#include <octopus_dpdk_compat.h>

#include "rte_pmd_octonic.h"

#include "../common/octo_cases.h"
#include "../common/octo_eal.h"
#include "../common/octo_check.h"
#include "../common/octo_dialect.h"
#include "../common/octo_flow_rule.h"
#include "../common/octo_port.h"
#include "../common/octo_state.h"
#include "../common/octo_test_eal.h"

#define NB_Q 4
#define NB_FLOWS 16
#define PER_FLOW 8
#define RULE_Q 3
#define NONE_Q 2
#define MAGIC 0x4f43544fu		/* lib/wire's payload magic */

static uint16_t port, nic_port;

/* What one arriving frame carries. */
struct seen {
	int flow;		/* generator flow id, -1: not generated */
	uint8_t proto;
	uint16_t sport;		/* SCTP source port, or echo identifier */
	uint8_t type, code;	/* ICMP */
};

static void
parse(const struct rte_mbuf *m, struct seen *s)
{
	const uint8_t *f = rte_pktmbuf_mtod(m, const uint8_t *);
	uint32_t len = rte_pktmbuf_data_len(m), l4, pay, magic, id;
	uint16_t type = rte_be_to_cpu_16(*(const rte_be16_t *)(f + 12));

	memset(s, 0, sizeof(*s));
	s->flow = -1;
	if (type == RTE_ETHER_TYPE_IPV4 && len >= 14 + 20) {
		s->proto = f[14 + 9];
		l4 = 14 + (f[14] & 0xf) * 4u;
	} else if (type == RTE_ETHER_TYPE_IPV6 && len >= 14 + 40) {
		s->proto = f[14 + 6];
		l4 = 14 + 40;
	} else {
		return;
	}
	if (s->proto == IPPROTO_SCTP) {
		s->sport = (uint16_t)(f[l4] << 8 | f[l4 + 1]);
		pay = l4 + sizeof(struct rte_sctp_hdr);
	} else if (s->proto == IPPROTO_ICMP || s->proto == IPPROTO_ICMPV6) {
		s->type = f[l4];
		s->code = f[l4 + 1];
		s->sport = (uint16_t)(f[l4 + 4] << 8 | f[l4 + 5]);
		pay = l4 + sizeof(struct rte_icmp_hdr);
	} else {
		return;
	}
	if (pay + 8 > len)
		return;
	memcpy(&magic, f + pay, 4);
	memcpy(&id, f + pay + 4, 4);
	if (rte_be_to_cpu_32(magic) == MAGIC && rte_be_to_cpu_32(id) < NB_FLOWS)
		s->flow = (int)rte_be_to_cpu_32(id);
}

/* One case: the generator's protocol, a rule, and what it must take. */
struct l4_case {
	const char *name;
	uint8_t ipv6, proto;
	struct rte_flow_item items[4];		/* filled per case */
	struct rte_flow_item miss[4];		/* a rule matching none */
	int half;		/* the rule takes flows with sport & 1 == half-1, 0: all */
};

static void
run_case(const struct l4_case *c)
{
	static const struct rte_flow_attr attr = { .ingress = 1 };
	struct rte_flow_action_queue q = { .index = RULE_Q }, qn = { .index = NONE_Q };
	struct rte_flow_action act[] = OCTO_ACTIONS_QUEUE(&q);
	struct rte_flow_action act_none[] = OCTO_ACTIONS_QUEUE(&qn);
	struct rte_pmd_octonic_gen_conf gc;
	uint32_t per_flow[NB_FLOWS] = { 0 }, elsewhere = 0, wrong = 0, got = 0;
	uint64_t want, deadline, quiet;
	struct rte_flow_error err;
	struct rte_flow *f, *fn;
	struct rte_mbuf *pkts[32];
	unsigned int i;
	uint16_t qi, n;

	memset(&err, 0, sizeof(err));
	f = rte_flow_create(port, &attr, c->items, act, &err);
	if (c->proto == IPPROTO_SCTP && strstr(octo_dialect_suffix(), "mlx5-hws") != NULL) {
		/* mlx5's HW steering has no SCTP item: refused, saying so */
		CHECK(f == NULL && err.message != NULL && strstr(err.message, "SCTP") != NULL,
			"%s: not refused as mlx5-hws refuses it (%s)", c->name,
			err.message != NULL ? err.message : "no message");
		printf("%s: refused as mlx5-hws refuses it: %s\n", c->name, err.message);
		return;
	}
	CHECK(f != NULL, "%s: create: %s", c->name, err.message ? err.message : "?");
	fn = rte_flow_create(port, &attr, c->miss, act_none, &err);
	CHECK(fn != NULL, "%s: create (miss): %s", c->name,
		err.message ? err.message : "?");
	if (f == NULL || fn == NULL)
		return;
	CHECK(rte_pmd_octonic_gen_get(nic_port, &gc) == 0, "gen_get");
	gc.nb_flows = NB_FLOWS;
	gc.ipv6 = c->ipv6;
	gc.l4_proto = c->proto;
	gc.pkt_len = 128;
	gc.limit = NB_FLOWS * PER_FLOW;
	CHECK(rte_pmd_octonic_gen_set(nic_port, &gc) == 0, "%s: gen_set", c->name);
	want = (uint64_t)(c->half ? NB_FLOWS / 2 : NB_FLOWS) * PER_FLOW;
	rte_pmd_octonic_gen_enable(nic_port, 1);
	deadline = rte_get_timer_cycles() + 10 * rte_get_timer_hz();
	quiet = rte_get_timer_cycles();
	/* until all arrived and 50 ms more passed quietly (a wrong extra
	 * shows too), or 10 s */
	while (rte_get_timer_cycles() < deadline &&
			(got < want || rte_get_timer_cycles() - quiet < rte_get_timer_hz() / 20)) {
		for (qi = 0; qi < NB_Q; qi++) {
			n = rte_eth_rx_burst(port, qi, pkts, RTE_DIM(pkts));
			for (i = 0; i < n; i++) {
				struct seen s;

				parse(pkts[i], &s);
				rte_pktmbuf_free(pkts[i]);
				quiet = rte_get_timer_cycles();
				if (qi != RULE_Q || s.flow < 0) {
					elsewhere++;
					continue;
				}
				if (c->half && (s.sport & 1) != c->half - 1)
					wrong++;
				per_flow[s.flow]++;
				got++;
			}
		}
	}
	rte_pmd_octonic_gen_enable(nic_port, 0);
	printf("%s: %u frames at queue %u (want %" PRIu64 "), %u elsewhere\n",
		c->name, got, RULE_Q, want, elsewhere);
	CHECK(got == want && elsewhere == 0 && wrong == 0,
		"%s: %u of %" PRIu64 " at queue %u, %u not matching the rule, %u elsewhere",
		c->name, got, want, RULE_Q, wrong, elsewhere);
	for (i = 0; i < NB_FLOWS; i++)
		CHECK(per_flow[i] == 0 || per_flow[i] == PER_FLOW,
			"%s: flow %u: %u of %u", c->name, i, per_flow[i], PER_FLOW);
	CHECK(rte_flow_destroy(port, f, &err) == 0, "%s: destroy", c->name);
	CHECK(rte_flow_destroy(port, fn, &err) == 0, "%s: destroy (miss)", c->name);
}

static void
test_items(struct rte_mempool *mp)
{
	/* SCTP: even source ports (mask on the low bit) */
	static const struct rte_flow_item_sctp sctp_even = { .hdr.src_port = RTE_BE16(0) };
	static const struct rte_flow_item_sctp sctp_m = { .hdr.src_port = RTE_BE16(1) };
	static const struct rte_flow_item_sctp sctp_none = { .hdr.dst_port = RTE_BE16(1) };
	static const struct rte_flow_item_sctp sctp_none_m = { .hdr.dst_port = RTE_BE16(0xffff) };
	/* ICMP echo requests with an odd identifier; type and code masked */
	static const struct rte_flow_item_icmp icmp_odd = { .hdr = {
		.icmp_type = RTE_ICMP_TYPE_ECHO_REQUEST, .icmp_ident = RTE_BE16(1) } };
	static const struct rte_flow_item_icmp icmp_m = { .hdr = {
		.icmp_type = 0xff, .icmp_code = 0xff, .icmp_ident = RTE_BE16(1) } };
	static const struct rte_flow_item_icmp icmp_reply = { .hdr = {
		.icmp_type = RTE_ICMP_TYPE_ECHO_REPLY } };
	/* ICMPv6 echo requests, default mask (type and code) */
	static const struct rte_flow_item_icmp6 icmp6_req = { .type = RTE_ICMP6_ECHO_REQUEST };
	static const struct rte_flow_item_icmp6 icmp6_code1 = {
		.type = RTE_ICMP6_ECHO_REQUEST, .code = 1 };
	const struct l4_case cases[] = {
		{ "sctp4", 0, IPPROTO_SCTP, {
			{ .type = RTE_FLOW_ITEM_TYPE_ETH },
			{ .type = RTE_FLOW_ITEM_TYPE_IPV4 },
			{ .type = RTE_FLOW_ITEM_TYPE_SCTP, .spec = &sctp_even, .mask = &sctp_m },
			{ .type = RTE_FLOW_ITEM_TYPE_END } }, {
			{ .type = RTE_FLOW_ITEM_TYPE_SCTP, .spec = &sctp_none,
				.mask = &sctp_none_m },
			{ .type = RTE_FLOW_ITEM_TYPE_END } }, 1 },
		{ "sctp6", 1, IPPROTO_SCTP, {
			{ .type = RTE_FLOW_ITEM_TYPE_IPV6 },
			{ .type = RTE_FLOW_ITEM_TYPE_SCTP, .spec = &sctp_even, .mask = &sctp_m },
			{ .type = RTE_FLOW_ITEM_TYPE_END } }, {
			{ .type = RTE_FLOW_ITEM_TYPE_IPV4 },
			{ .type = RTE_FLOW_ITEM_TYPE_SCTP },
			{ .type = RTE_FLOW_ITEM_TYPE_END } }, 1 },
		{ "icmp", 0, IPPROTO_ICMP, {
			{ .type = RTE_FLOW_ITEM_TYPE_ETH },
			{ .type = RTE_FLOW_ITEM_TYPE_IPV4 },
			{ .type = RTE_FLOW_ITEM_TYPE_ICMP, .spec = &icmp_odd, .mask = &icmp_m },
			{ .type = RTE_FLOW_ITEM_TYPE_END } }, {
			{ .type = RTE_FLOW_ITEM_TYPE_IPV4 },
			{ .type = RTE_FLOW_ITEM_TYPE_ICMP, .spec = &icmp_reply },
			{ .type = RTE_FLOW_ITEM_TYPE_END } }, 2 },
		{ "icmp6", 1, IPPROTO_ICMPV6, {
			{ .type = RTE_FLOW_ITEM_TYPE_ETH },
			{ .type = RTE_FLOW_ITEM_TYPE_IPV6 },
			{ .type = RTE_FLOW_ITEM_TYPE_ICMP6, .spec = &icmp6_req },
			{ .type = RTE_FLOW_ITEM_TYPE_END } }, {
			{ .type = RTE_FLOW_ITEM_TYPE_IPV6 },
			{ .type = RTE_FLOW_ITEM_TYPE_ICMP6, .spec = &icmp6_code1 },
			{ .type = RTE_FLOW_ITEM_TYPE_END } }, 0 },
	};
	struct octo_port_conf pc = { .nb_rxq = NB_Q, .nb_txq = NB_Q, .nb_desc = 1024,
		.pool = mp };
	struct rte_flow_error err;
	unsigned int i;

	memset(&err, 0, sizeof(err));
	REQUIRE(octo_port_start(port, &pc) == 0, "configure, set up and start the port");
	/* only what a rule takes arrives */
	CHECK(rte_flow_isolate(port, 1, &err) == 0, "isolate: %s",
		err.message ? err.message : "?");
	for (i = 0; i < RTE_DIM(cases); i++)
		run_case(&cases[i]);
	octo_port_stop_close(port);
}

static const struct octo_case cases[] = {
	{ "items", test_items },
};

int
main(int argc, char **argv)
{
	struct rte_mempool *mp;
	struct octo_eal a;
	const char *which;

	which = octo_eal_begin_2pf(&a, argc, argv, "0@0,1@1", "octopus-flow-l4", "",
		",flows=16%s", octo_dialect_suffix());
	if (octo_eal_start(&a, 2) < 0)
		return 2;
	mp = octo_app_pool("app", 8192, 0);
	if (mp == NULL)
		return 2;
	port = port_of("net_octopus0");
	nic_port = octo_gen_pf("net_octonic0_pf0");
	return octo_case_main(cases, RTE_DIM(cases), which, argv[0], mp);
}
