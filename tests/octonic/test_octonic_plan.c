/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Template rules made through the templates' plans (octonic.rst "Template
 * API") are the rules rte_flow_create makes of the same pattern and
 * actions, field by field:
 *   test_octonic_plan -m 256 --no-pci -l 0 --file-prefix X -- generic|mlx5_hws
 * On the e-switch itself (no ports): for each template shape, whether it
 * is planned as expected, then per rule the async create and
 * octonic_eswitch_flow_create side by side: the same match (key and
 * mask, byte for byte), decision fields and e-switch table, or the same
 * refusal (message and type), the refusal's cause one of the caller's.
 * And a template table's rule room is not taken by synchronous rules.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ethdev.h>
#include <rte_flow.h>

#include "../common/octo_cases.h"
#include "../common/octo_eal.h"
#include "octonic_esw_template.h"

#define NB_RXQ_PLAN 4
#define GROUP 1

static struct octonic_eswitch *sw;
static const struct rte_flow_op_attr now = { .postpone = 0 };
/* the rules' attributes: ingress, or transfer (shape_transfer_port) */
static struct rte_flow_attr rattr = { .ingress = 1, .group = GROUP };

static int
rules_same(const struct rte_flow *a, const struct rte_flow *b)
{
	if (memcmp(&a->match, &b->match, sizeof(a->match)) != 0 ||
			a->domain != b->domain || a->group != b->group ||
			a->prio != b->prio || a->fate != b->fate ||
			a->fate_arg != b->fate_arg || a->jump_group != b->jump_group ||
			a->meta_data != b->meta_data || a->meta_mask != b->meta_mask ||
			a->mark != b->mark || a->has_set_meta != b->has_set_meta ||
			a->has_mark != b->has_mark || a->has_flag != b->has_flag ||
			a->has_count != b->has_count || a->port_id != b->port_id ||
			a->table != b->table || (a->rss == NULL) != (b->rss == NULL))
		return 0;
	return a->rss == NULL || (a->rss->types == b->rss->types &&
		a->rss->nb_queues == b->rss->nb_queues &&
		memcmp(a->rss->queues, b->rss->queues,
			a->rss->nb_queues * sizeof(a->rss->queues[0])) == 0 &&
		memcmp(a->rss->key, b->rss->key, sizeof(a->rss->key)) == 0);
}

static void
complete(void)
{
	struct rte_flow_op_result res[4];
	struct rte_flow_error err;

	CHECK(octonic_eswitch_push(sw, 0, 0, &err) == 0 &&
		octonic_eswitch_pull(sw, 0, 0, res, RTE_DIM(res), &err) == 1 &&
		res[0].status == RTE_FLOW_OP_SUCCESS, "one operation completed");
}

/* Rule @p what of table @p t (its pattern @p items, actions @p acts, as
 * rte_flow_create takes them) made both ways. */
static void
both_ways(struct rte_flow_template_table *t, const char *what,
		const struct rte_flow_item items[], uint32_t nb_items,
		const struct rte_flow_action acts[], uint32_t nb_acts)
{
	struct rte_flow_error e1 = { 0 }, e2 = { 0 };
	struct rte_flow *tr, *sr;
	char m1[256], f1[512], f2[512];
	uintptr_t c;

	tr = octonic_eswitch_async_create(sw, 0, 0, &now, t, items, 0, acts, 0,
		NULL, &e1);
	snprintf(m1, sizeof(m1), "%s", e1.message != NULL ? e1.message : "");
	c = (uintptr_t)e1.cause;
	if (tr == NULL)
		CHECK(c == 0 || c == (uintptr_t)t ||
			(c >= (uintptr_t)items && c < (uintptr_t)(items + nb_items)) ||
			(c >= (uintptr_t)acts && c < (uintptr_t)(acts + nb_acts)),
			"%s: the refusal's cause is not the caller's", what);
	sr = octonic_eswitch_flow_create(sw, 0, &rattr, items, acts, &e2);
	CHECK((tr == NULL) == (sr == NULL), "%s: template rule %s (%s), rte_flow_create's %s (%s)",
		what, tr != NULL ? "made" : "refused", m1,
		sr != NULL ? "made" : "refused", e2.message ? e2.message : "");
	if (tr == NULL && sr == NULL)
		CHECK(e1.type == e2.type && e2.message != NULL &&
			strcmp(m1, e2.message) == 0,
			"%s: refusals differ: %d '%s' and %d '%s'", what, e1.type,
			m1, e2.type, e2.message ? e2.message : "");
	if (tr != NULL)
		complete();
	if (tr != NULL && sr != NULL) {
		octo_match_format(&tr->match, f1, sizeof(f1));
		octo_match_format(&sr->match, f2, sizeof(f2));
		CHECK(rules_same(tr, sr), "%s: the template rule (%s, fate %u/%u, table %u) is not rte_flow_create's (%s, fate %u/%u, table %u)",
			what, f1, tr->fate, tr->fate_arg, tr->table, f2, sr->fate,
			sr->fate_arg, sr->table);
	}
	if (sr != NULL)
		CHECK(octonic_eswitch_flow_destroy(sw, 0, sr, &e2) == 0,
			"%s: destroy", what);
	if (tr != NULL) {
		CHECK(octonic_eswitch_async_destroy(sw, 0, 0, &now, tr, NULL,
			&e1) == 0, "%s: async destroy", what);
		complete();
	}
}

/* A table of one pattern and one actions template; whether each has the
 * plan @p pplan, @p aplan. */
static struct rte_flow_template_table *
table_of(const char *what, const struct rte_flow_item pattern[],
		const struct rte_flow_action acts[],
		const struct rte_flow_action masks[], int pplan, int aplan,
		struct rte_flow_pattern_template **pt,
		struct rte_flow_actions_template **at)
{
	const struct rte_flow_pattern_template_attr pa = {
		.ingress = rattr.ingress, .transfer = rattr.transfer,
	};
	const struct rte_flow_actions_template_attr aa = {
		.ingress = rattr.ingress, .transfer = rattr.transfer,
	};
	const struct rte_flow_template_table_attr ta = {
		.flow_attr = rattr, .nb_flows = 16,
	};
	struct rte_flow_template_table *t;
	struct rte_flow_error err = { 0 };

	*pt = octonic_eswitch_pattern_template_create(sw, 0, &pa, pattern, &err);
	*at = octonic_eswitch_actions_template_create(sw, 0, &aa, acts, masks,
		&err);
	if (*pt == NULL || *at == NULL) {
		CHECK(0, "%s: templates: %s", what, err.message ? err.message : "");
		return NULL;
	}
	t = octonic_eswitch_template_table_create(sw, 0, &ta, pt, 1, at, 1, &err);
	if (t == NULL) {
		CHECK(0, "%s: table: %s", what, err.message ? err.message : "");
		return NULL;
	}
	CHECK((*pt)->plan.ok == pplan && t->aplan[0].ok == aplan,
		"%s: pattern plan %u (want %d), actions plan %u (want %d)", what,
		(*pt)->plan.ok, pplan, t->aplan[0].ok, aplan);
	CHECK(!pplan || t->sw_table[0] >= 0, "%s: no e-switch table", what);
	return t;
}

static void
table_done(struct rte_flow_template_table *t,
		struct rte_flow_pattern_template *pt,
		struct rte_flow_actions_template *at)
{
	struct rte_flow_error err;

	CHECK(octonic_eswitch_template_table_destroy(sw, 0, t, &err) == 0 &&
		octonic_eswitch_pattern_template_destroy(sw, 0, pt, &err) == 0 &&
		octonic_eswitch_actions_template_destroy(sw, 0, at, &err) == 0,
		"table and templates destroyed");
}

/* eth (MACs, type, has_vlan: a bit that moves) / ipv4 (partial masks) /
 * tcp (ports, flags) -> MARK (fixed), COUNT, QUEUE (each rule's) */
static void
shape_eth_ipv4_tcp(void)
{
	static const struct rte_flow_item_eth em = {
		.hdr.dst_addr.addr_bytes = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
		.hdr.src_addr.addr_bytes = { 0xff, 0xff, 0xff },
		.hdr.ether_type = RTE_BE16(0xffff), .has_vlan = 1,
	};
	static const struct rte_flow_item_ipv4 im = {
		.hdr.src_addr = RTE_BE32(0xffffff00), .hdr.dst_addr = RTE_BE32(0xffffffff),
		.hdr.next_proto_id = 0xff, .hdr.type_of_service = 0xfc,
		.hdr.time_to_live = 0x0f,
	};
	static const struct rte_flow_item_tcp tm = {
		.hdr.src_port = RTE_BE16(0xff00), .hdr.dst_port = RTE_BE16(0xffff),
		.hdr.tcp_flags = 0x3f,
	};
	static const struct rte_flow_action_mark mark = { .id = 7 };
	static const struct rte_flow_action_queue any = { .index = 0 };
	struct rte_flow_item_eth es = { .hdr.ether_type = RTE_BE16(0x0800) };
	struct rte_flow_item_ipv4 is = {
		.hdr.src_addr = RTE_BE32(0x0a0102ff), .hdr.dst_addr = RTE_BE32(0xc0a80001),
		.hdr.next_proto_id = 6, .hdr.type_of_service = 0xff,
		.hdr.time_to_live = 0xff, .hdr.total_length = RTE_BE16(99),
	};
	struct rte_flow_item_tcp ts = {
		.hdr.src_port = RTE_BE16(0x1234), .hdr.dst_port = RTE_BE16(80),
		.hdr.tcp_flags = 0xff, .hdr.sent_seq = RTE_BE32(5),
	};
	struct rte_flow_action_queue q = { .index = 3 };
	struct rte_flow_item items[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH, .spec = &es, .mask = &em },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4, .spec = &is, .mask = &im },
		{ .type = RTE_FLOW_ITEM_TYPE_TCP, .spec = &ts, .mask = &tm },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	const struct rte_flow_item pattern[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH, .mask = &em },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4, .mask = &im },
		{ .type = RTE_FLOW_ITEM_TYPE_TCP, .mask = &tm },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_action acts[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_MARK, .conf = &mark },
		{ .type = RTE_FLOW_ACTION_TYPE_COUNT },
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &q },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	const struct rte_flow_action masks[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_MARK, .conf = &mark },
		{ .type = RTE_FLOW_ACTION_TYPE_COUNT },
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &any },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_pattern_template *pt;
	struct rte_flow_actions_template *at;
	struct rte_flow_template_table *t;
	uint32_t i;

	t = table_of("eth/ipv4/tcp", pattern, acts, masks, 1, 1, &pt, &at);
	if (t == NULL)
		return;
	both_ways(t, "eth/ipv4/tcp", items, RTE_DIM(items), acts, RTE_DIM(acts));
	es.has_vlan = 1;
	memset(es.hdr.dst_addr.addr_bytes, 0xa5, RTE_ETHER_ADDR_LEN);
	memset(es.hdr.src_addr.addr_bytes, 0x5a, RTE_ETHER_ADDR_LEN);
	both_ways(t, "eth(has_vlan=1)/ipv4/tcp", items, RTE_DIM(items), acts,
		RTE_DIM(acts));
	/* every spec byte set, then each alone */
	memset(&es, 0xff, sizeof(es));
	memset(&is, 0xff, sizeof(is));
	memset(&ts, 0xff, sizeof(ts));
	both_ways(t, "eth/ipv4/tcp all ones", items, RTE_DIM(items), acts,
		RTE_DIM(acts));
	for (i = 0; i < sizeof(is); i++) {
		memset(&is, 0, sizeof(is));
		((uint8_t *)&is)[i] = (uint8_t)(0x81 + i);
		both_ways(t, "ipv4 one spec byte", items, RTE_DIM(items), acts,
			RTE_DIM(acts));
	}
	q.index = NB_RXQ_PLAN;
	both_ways(t, "queue out of range", items, RTE_DIM(items), acts,
		RTE_DIM(acts));
	q.index = 1;
	acts[2].conf = NULL;
	both_ways(t, "queue without conf", items, RTE_DIM(items), acts,
		RTE_DIM(acts));
	acts[2].conf = &q;
	/* a masked item without spec: another match, parsed */
	items[2].spec = NULL;
	both_ways(t, "tcp without spec", items, RTE_DIM(items), acts,
		RTE_DIM(acts));
	table_done(t, pt, at);
}

/* eth / vlan / ipv6 (traffic class: bits that move) / udp -> FLAG,
 * JUMP (each rule's) */
static void
shape_vlan_ipv6_udp(void)
{
	static const struct rte_flow_item_vlan vm = {
		.hdr.vlan_tci = RTE_BE16(0x0fff), .hdr.eth_proto = RTE_BE16(0xffff),
	};
	struct rte_flow_item_ipv6 im = {
		.hdr.vtc_flow = RTE_BE32(0x0ff00000), .hdr.proto = 0xff,
		.hdr.hop_limits = 0xff,
	};
	static const struct rte_flow_item_udp um = {
		.hdr.dst_port = RTE_BE16(0xffff),
	};
	static const struct rte_flow_action_jump any = { .group = 0 };
	struct rte_flow_item_vlan vs = { .hdr.vlan_tci = RTE_BE16(0xf123) };
	struct rte_flow_item_ipv6 is = {
		.hdr.vtc_flow = RTE_BE32(0x6ab12345), .hdr.proto = 17,
		.hdr.hop_limits = 9,
	};
	struct rte_flow_item_udp us = { .hdr.dst_port = RTE_BE16(4789) };
	struct rte_flow_action_jump j = { .group = GROUP + 2 };
	struct rte_flow_item items[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_VLAN, .spec = &vs, .mask = &vm },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV6, .spec = &is, .mask = &im },
		{ .type = RTE_FLOW_ITEM_TYPE_UDP, .spec = &us, .mask = &um },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	const struct rte_flow_item pattern[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_VLAN, .mask = &vm },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV6, .mask = &im },
		{ .type = RTE_FLOW_ITEM_TYPE_UDP, .mask = &um },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_action acts[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_FLAG },
		{ .type = RTE_FLOW_ACTION_TYPE_JUMP, .conf = &j },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	const struct rte_flow_action masks[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_FLAG },
		{ .type = RTE_FLOW_ACTION_TYPE_JUMP, .conf = &any },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_pattern_template *pt;
	struct rte_flow_actions_template *at;
	struct rte_flow_template_table *t;
	uint32_t i;

	/* src whole, dst /64 (the address types differ across releases) */
	memset(&im.hdr.src_addr, 0xff, 16);
	memset(&im.hdr.dst_addr, 0xff, 8);
	t = table_of("eth/vlan/ipv6/udp", pattern, acts, masks, 1, 1, &pt, &at);
	if (t == NULL)
		return;
	for (i = 0; i < 16; i++) {
		((uint8_t *)&is.hdr.src_addr)[i] = (uint8_t)(0x20 + i);
		((uint8_t *)&is.hdr.dst_addr)[15 - i] = (uint8_t)(0xf0 ^ i);
	}
	both_ways(t, "eth/vlan/ipv6/udp", items, RTE_DIM(items), acts,
		RTE_DIM(acts));
	for (i = 0; i < 8; i++) {
		is.hdr.vtc_flow = rte_cpu_to_be_32(UINT32_C(1) << (20 + i));
		both_ways(t, "ipv6 one traffic class bit", items, RTE_DIM(items),
			acts, RTE_DIM(acts));
	}
	j.group = GROUP;
	both_ways(t, "jump to its own group", items, RTE_DIM(items), acts,
		RTE_DIM(acts));
	table_done(t, pt, at);
}

/* meta / void (masked) / eth / ipv4 / icmp -> DROP (no conf at all) */
static void
shape_meta_icmp(void)
{
	static const struct rte_flow_item_meta mm = { .data = 0x00ffff0f };
	static const struct rte_flow_item_eth zero_eth;
	static const struct rte_flow_item_icmp cm = {
		.hdr.icmp_type = 0xff, .hdr.icmp_code = 0xf0,
		.hdr.icmp_ident = RTE_BE16(0xffff), .hdr.icmp_seq_nb = RTE_BE16(0x00ff),
	};
	struct rte_flow_item_meta ms = { .data = 0x12345678 };
	struct rte_flow_item_icmp cs = {
		.hdr.icmp_type = 8, .hdr.icmp_code = 0xff,
		.hdr.icmp_ident = RTE_BE16(0x4242), .hdr.icmp_seq_nb = RTE_BE16(0x0102),
		.hdr.icmp_cksum = RTE_BE16(0xffff),
	};
	const struct rte_flow_item items[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_META, .spec = &ms, .mask = &mm },
		{ .type = RTE_FLOW_ITEM_TYPE_VOID, .spec = &ms, .mask = &mm },
		{ .type = RTE_FLOW_ITEM_TYPE_ETH, .mask = &zero_eth },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4 },
		{ .type = RTE_FLOW_ITEM_TYPE_ICMP, .spec = &cs, .mask = &cm },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	const struct rte_flow_item pattern[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_META, .mask = &mm },
		{ .type = RTE_FLOW_ITEM_TYPE_VOID, .mask = &mm },
		{ .type = RTE_FLOW_ITEM_TYPE_ETH, .mask = &zero_eth },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4 },
		{ .type = RTE_FLOW_ITEM_TYPE_ICMP, .mask = &cm },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	const struct rte_flow_action acts[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_DROP },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_pattern_template *pt;
	struct rte_flow_actions_template *at;
	struct rte_flow_template_table *t;

	t = table_of("meta/void/eth/ipv4/icmp", pattern, acts, acts, 1, 1, &pt, &at);
	if (t == NULL)
		return;
	both_ways(t, "meta/void/eth/ipv4/icmp", items, RTE_DIM(items), acts,
		RTE_DIM(acts));
	table_done(t, pt, at);
}

/* eth has_vlan masked before a vlan item: a rule saying has_vlan=0 is
 * refused (the parser's rule, not a plan's); RSS (fixed) and MARK (each
 * rule's) */
static void
shape_irregular(void)
{
	static const struct rte_flow_item_eth em = { .has_vlan = 1 };
	static const struct rte_flow_item_vlan vm = { .hdr.vlan_tci = RTE_BE16(0x0fff) };
	static const uint16_t queues[] = { 0, 2 };
	static const struct rte_flow_action_rss rss = {
		.types = RTE_ETH_RSS_IP, .queue_num = 2, .queue = queues,
	};
	static const struct rte_flow_action_mark any = { .id = 0 };
	struct rte_flow_item_eth es = { .has_vlan = 1 };
	struct rte_flow_item_vlan vs = { .hdr.vlan_tci = RTE_BE16(5) };
	struct rte_flow_action_mark mark = { .id = 99 };
	const struct rte_flow_item items[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH, .spec = &es, .mask = &em },
		{ .type = RTE_FLOW_ITEM_TYPE_VLAN, .spec = &vs, .mask = &vm },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	const struct rte_flow_item pattern[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH, .mask = &em },
		{ .type = RTE_FLOW_ITEM_TYPE_VLAN, .mask = &vm },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	const struct rte_flow_action acts[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_RSS, .conf = &rss },
		{ .type = RTE_FLOW_ACTION_TYPE_MARK, .conf = &mark },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	const struct rte_flow_action masks[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_RSS, .conf = &rss },
		{ .type = RTE_FLOW_ACTION_TYPE_MARK, .conf = &any },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_pattern_template *pt;
	struct rte_flow_actions_template *at;
	struct rte_flow_template_table *t;

	t = table_of("eth(has_vlan)/vlan", pattern, acts, masks, 0, 1, &pt, &at);
	if (t == NULL)
		return;
	both_ways(t, "eth(has_vlan=1)/vlan", items, RTE_DIM(items), acts,
		RTE_DIM(acts));
	es.has_vlan = 0;
	both_ways(t, "eth(has_vlan=0)/vlan", items, RTE_DIM(items), acts,
		RTE_DIM(acts));
	table_done(t, pt, at);
}

/* Actions no plan takes: two fates, MODIFY_FIELD (fixed) in an ingress
 * rule (every rule refused either way) */
static void
shape_actions(void)
{
	static const struct rte_flow_item_udp um = { .hdr.src_port = RTE_BE16(0xffff) };
	static const struct rte_flow_action_queue q = { .index = 1 };
	static const struct rte_flow_action_modify_field mf = {
		.operation = RTE_FLOW_MODIFY_SET,
		.dst = { .field = RTE_FLOW_FIELD_META, .offset = 4 },
		.src = { .field = RTE_FLOW_FIELD_VALUE, .value = { 0xab, 0xcd } },
		.width = 12,
	};
	struct rte_flow_item_udp us = { .hdr.src_port = RTE_BE16(53) };
	const struct rte_flow_item items[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4 },
		{ .type = RTE_FLOW_ITEM_TYPE_UDP, .spec = &us, .mask = &um },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	const struct rte_flow_item pattern[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4 },
		{ .type = RTE_FLOW_ITEM_TYPE_UDP, .mask = &um },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	const struct rte_flow_action two_fates[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &q },
		{ .type = RTE_FLOW_ACTION_TYPE_DROP },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	const struct rte_flow_action modify[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_MODIFY_FIELD, .conf = &mf },
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &q },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	/* mlx5-hws takes only full masks of the destination and width */
	struct rte_flow_action_modify_field mf_mask = mf;
	const struct rte_flow_action modify_mask[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_MODIFY_FIELD, .conf = &mf_mask },
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &q },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_pattern_template *pt;
	struct rte_flow_actions_template *at;
	struct rte_flow_template_table *t;

	t = table_of("two fates", pattern, two_fates, two_fates, 1, 0, &pt, &at);
	if (t != NULL) {
		both_ways(t, "two fates", items, RTE_DIM(items), two_fates,
			RTE_DIM(two_fates));
		table_done(t, pt, at);
	}
	mf_mask.dst.level = (__typeof__(mf_mask.dst.level))~0u;
	mf_mask.dst.offset = UINT32_MAX;
	mf_mask.width = UINT32_MAX;
	t = table_of("modify_field", pattern, modify, modify_mask, 1, 0, &pt, &at);
	if (t != NULL) {
		both_ways(t, "modify_field", items, RTE_DIM(items), modify,
			RTE_DIM(modify));
		table_done(t, pt, at);
	}
}

/*
 * mlx5-hws transfer rules that say where their frames come from (a
 * REPRESENTED_PORT item, first or between others, as net_octopus names
 * the wire): planned when the item's mask is whole, each rule's port
 * looked up (the wire, a PF's Tx, the e-switch manager's, no such port).
 */
static void
shape_transfer_port(void)
{
	static const struct rte_flow_item_ethdev whole = { .port_id = UINT16_MAX };
	static const struct rte_flow_item_ipv4 im = { .hdr.src_addr = RTE_BE32(0xffffffff) };
	static const struct rte_flow_item_udp um = { .hdr.dst_port = RTE_BE16(0xffff) };
	static const struct rte_flow_action_jump any = { .group = 0 };
	static const uint16_t ports[] = { 100, 101, UINT16_MAX, 55 };
	struct rte_flow_item_ethdev ps;
	struct rte_flow_item_ipv4 is = { .hdr.src_addr = RTE_BE32(0x0a000001) };
	struct rte_flow_item_udp us = { .hdr.dst_port = RTE_BE16(4789) };
	struct rte_flow_action_jump j = { .group = 7 };
	struct rte_flow_item items[5], pattern[5];
	const struct rte_flow_action acts[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_JUMP, .conf = &j },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	const struct rte_flow_action masks[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_JUMP, .conf = &any },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	const struct rte_flow_attr ingress = rattr;
	struct rte_flow_pattern_template *pt;
	struct rte_flow_actions_template *at;
	struct rte_flow_template_table *t;
	uint32_t pi, i, k;
	char what[64];

	rattr = (struct rte_flow_attr){ .transfer = 1, .group = GROUP };
	for (pi = 0; pi < 2; pi++) {
		/* the port item first, then second */
		const struct rte_flow_item_ethdev *pm = &whole;
		uint32_t n = 0;

		for (i = 0; i < 4; i++) {
			if (i == pi) {
				pattern[n] = (struct rte_flow_item){
					.type = RTE_FLOW_ITEM_TYPE_REPRESENTED_PORT, .mask = pm };
				items[n++] = (struct rte_flow_item){
					.type = RTE_FLOW_ITEM_TYPE_REPRESENTED_PORT,
					.spec = &ps, .mask = pm };
				continue;
			}
			k = i - (i > pi);
			pattern[n] = (struct rte_flow_item){ .type = k == 0 ?
				RTE_FLOW_ITEM_TYPE_ETH : k == 1 ? RTE_FLOW_ITEM_TYPE_IPV4 :
				RTE_FLOW_ITEM_TYPE_UDP,
				.mask = k == 1 ? (const void *)&im : k == 2 ? (const void *)&um : NULL };
			items[n] = pattern[n];
			items[n++].spec = k == 1 ? (const void *)&is : k == 2 ? (const void *)&us : NULL;
		}
		pattern[n] = (struct rte_flow_item){ .type = RTE_FLOW_ITEM_TYPE_END };
		items[n] = pattern[n];
		snprintf(what, sizeof(what), "transfer, port item %u", pi);
		t = table_of(what, pattern, acts, masks, 1, 1, &pt, &at);
		if (t == NULL)
			continue;
		for (i = 0; i < RTE_DIM(ports); i++) {
			ps = (struct rte_flow_item_ethdev){ .port_id = ports[i] };
			snprintf(what, sizeof(what), "transfer, port item %u, port %u", pi,
				ports[i]);
			both_ways(t, what, items, n + 1, acts, RTE_DIM(acts));
		}
		items[pi].spec = NULL;
		both_ways(t, "transfer, port item without spec", items, n + 1, acts,
			RTE_DIM(acts));
		table_done(t, pt, at);
	}
	rattr = ingress;
}

/*
 * A template table's rule room is its own: synchronous rules of the same
 * mask, made after it, grow the e-switch table themselves, and the
 * template rules then fill their room without a resize (a resize rehashes
 * every key of the table: mlx5 sizes a template table at creation).
 */
#define ROOM_RULES 256
static void
room_kept(void)
{
	static const struct rte_flow_item_udp um = { .hdr.src_port = RTE_BE16(0xffff) };
	static const struct rte_flow_action_queue q = { .index = 1 };
	const struct rte_flow_pattern_template_attr pa = { .ingress = 1 };
	const struct rte_flow_actions_template_attr aa = { .ingress = 1 };
	const struct rte_flow_template_table_attr ta = {
		.flow_attr = rattr, .nb_flows = ROOM_RULES,
	};
	struct rte_flow_item_udp us = { 0 };
	const struct rte_flow_item items[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4 },
		{ .type = RTE_FLOW_ITEM_TYPE_UDP, .spec = &us, .mask = &um },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	const struct rte_flow_action acts[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &q },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	static struct rte_flow *sync[ROOM_RULES * 4], *tmpl[ROOM_RULES];
	struct rte_flow_pattern_template *pt;
	struct rte_flow_actions_template *at;
	struct rte_flow_template_table *t;
	struct rte_flow_error err = { 0 };
	uint32_t cap0, cap1, nb_sync, i, made = 0;
	const struct sw_table *st;

	pt = octonic_eswitch_pattern_template_create(sw, 0, &pa, items, &err);
	at = octonic_eswitch_actions_template_create(sw, 0, &aa, acts, acts, &err);
	REQUIRE(pt != NULL && at != NULL, "room: templates: %s",
		err.message ? err.message : "");
	t = octonic_eswitch_template_table_create(sw, 0, &ta, &pt, 1, &at, 1, &err);
	REQUIRE(t != NULL && t->sw_table[0] >= 0, "room: table: %s",
		err.message ? err.message : "");
	st = &sw->tables[t->sw_table[0]];
	cap0 = st->capacity;
	/* as many synchronous rules as fit in the half the table may fill */
	nb_sync = RTE_MIN(cap0 / 2, (uint32_t)RTE_DIM(sync));
	for (i = 0; i < nb_sync; i++) {
		us.hdr.src_port = rte_cpu_to_be_16((uint16_t)(1 + i));
		sync[i] = octonic_eswitch_flow_create(sw, 0, &rattr, items, acts, &err);
		REQUIRE(sync[i] != NULL, "room: sync rule %u: %s", i,
			err.message ? err.message : "");
	}
	cap1 = sw->tables[t->sw_table[0]].capacity;
	for (i = 0; i < ROOM_RULES; i++) {
		us.hdr.src_port = rte_cpu_to_be_16((uint16_t)(40000 + i));
		tmpl[i] = octonic_eswitch_async_create(sw, 0, 0, &now, t, items, 0,
			acts, 0, NULL, &err);
		if (tmpl[i] == NULL)
			break;
		complete();
		made++;
	}
	CHECK(made == ROOM_RULES, "room: %u template rules of %u made", made,
		ROOM_RULES);
	CHECK(cap1 > cap0 && sw->tables[t->sw_table[0]].capacity == cap1,
		"room: e-switch table of %u keys, %u after %u synchronous rules, %u after the table's %u template rules (their room taken by the synchronous ones)",
		cap0, cap1, nb_sync, sw->tables[t->sw_table[0]].capacity, made);
	for (i = 0; i < made; i++) {
		CHECK(octonic_eswitch_async_destroy(sw, 0, 0, &now, tmpl[i], NULL,
			&err) == 0, "room: async destroy");
		complete();
	}
	for (i = 0; i < nb_sync; i++)
		CHECK(octonic_eswitch_flow_destroy(sw, 0, sync[i], &err) == 0,
			"room: destroy");
	table_done(t, pt, at);
}

static void
plan_case(enum octonic_dialect dialect)
{
	const struct rte_flow_port_attr pa = { .nb_counters = 1 };
	const struct rte_flow_queue_attr qa = { .size = 8 };
	const struct rte_flow_queue_attr *qas[] = { &qa };
	struct rte_flow_error err;

	sw = octonic_eswitch_create("plan", 2, 0);
	REQUIRE(sw != NULL, "e-switch");
	octonic_eswitch_dialect_set(sw, dialect, 4);
	octonic_eswitch_set_pf_port(sw, 0, 100);
	octonic_eswitch_set_pf_port(sw, 1, 101);
	REQUIRE(octonic_eswitch_pf_configure(sw, 0, NB_RXQ_PLAN, RTE_ETH_RSS_IP,
		NULL, 0) == 0, "PF0 configure");
	REQUIRE(octonic_eswitch_flow_configure(sw, 0, 0, &pa, 1, qas, &err) == 0,
		"flow configure: %s", err.message ? err.message : "");
	shape_eth_ipv4_tcp();
	shape_vlan_ipv6_udp();
	shape_meta_icmp();
	shape_irregular();
	shape_actions();
	if (dialect == OCTONIC_DIALECT_MLX5_HWS)
		shape_transfer_port();
	room_kept();
	octonic_eswitch_free(sw);
	sw = NULL;
}

static void
test_generic(struct rte_mempool *unused __rte_unused)
{
	plan_case(OCTONIC_DIALECT_GENERIC);
}

static void
test_mlx5_hws(struct rte_mempool *unused __rte_unused)
{
	plan_case(OCTONIC_DIALECT_MLX5_HWS);
}

static const struct octo_case tests[] = {
	{ "generic", test_generic },
	{ "mlx5_hws", test_mlx5_hws },
};

int
main(int argc, char **argv)
{
	return octo_cases_main(argc, argv, 256, tests, RTE_DIM(tests));
}
