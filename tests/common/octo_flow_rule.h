/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTO_FLOW_RULE_H
#define OCTO_FLOW_RULE_H

/*
 * The tests' patterns and actions, and their rule for one generated flow
 * (octo_gen_flow.h gives its words).
 */

#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_flow.h>

/*
 * The tests' commonest lists, as initializers: a pattern of every frame,
 * one of UDP over IPv4 (no spec), and the one fate QUEUE with conf @p qa.
 */
#define OCTO_ITEMS_ETH { \
	{ .type = RTE_FLOW_ITEM_TYPE_ETH }, \
	{ .type = RTE_FLOW_ITEM_TYPE_END }, \
}
#define OCTO_ITEMS_UDP { \
	{ .type = RTE_FLOW_ITEM_TYPE_ETH }, \
	{ .type = RTE_FLOW_ITEM_TYPE_IPV4 }, \
	{ .type = RTE_FLOW_ITEM_TYPE_UDP }, \
	{ .type = RTE_FLOW_ITEM_TYPE_END }, \
}
#define OCTO_ACTIONS_QUEUE(qa) { \
	{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = (qa) }, \
	{ .type = RTE_FLOW_ACTION_TYPE_END }, \
}

/*
 * UDP over IPv4 matched by the specs @p ip and @p udp under the masks
 * @p ipm and @p udpm; a pattern template's, masks only: OCTO_ITEMS_UDP_MASK.
 */
#define OCTO_ITEMS_UDP_MATCH(ip, ipm, udp, udpm) { \
	{ .type = RTE_FLOW_ITEM_TYPE_ETH }, \
	{ .type = RTE_FLOW_ITEM_TYPE_IPV4, .spec = (ip), .mask = (ipm) }, \
	{ .type = RTE_FLOW_ITEM_TYPE_UDP, .spec = (udp), .mask = (udpm) }, \
	{ .type = RTE_FLOW_ITEM_TYPE_END }, \
}
#define OCTO_ITEMS_UDP_MASK(ipm, udpm) OCTO_ITEMS_UDP_MATCH(NULL, ipm, NULL, udpm)

/* A pattern OCTO_ITEMS_UDP_MATCH with its specs and masks, for a rule kept past its making. */
struct octo_udp_match {
	struct rte_flow_item_ipv4 ip, ip_mask;
	struct rte_flow_item_udp udp, udp_mask;
	struct rte_flow_item items[4];
};

/* @p m with nothing matched yet: specs and masks zero, the items pointing at them. */
static inline void
octo_udp_match_init(struct octo_udp_match *m)
{
	const struct rte_flow_item items[] =
		OCTO_ITEMS_UDP_MATCH(&m->ip, &m->ip_mask, &m->udp, &m->udp_mask);

	RTE_BUILD_BUG_ON(sizeof(items) != sizeof(m->items));
	memset(m, 0, sizeof(*m));
	memcpy(m->items, items, sizeof(items));
}

/* An ingress rule on @p port: @p items -> QUEUE @p queue; NULL and @p err set if refused. */
static inline struct rte_flow *
octo_items_to_queue(uint16_t port, const struct rte_flow_item items[], uint16_t queue,
		struct rte_flow_error *err)
{
	struct rte_flow_attr attr = { .ingress = 1 };
	struct rte_flow_action_queue qa = { .index = queue };
	struct rte_flow_action actions[] = OCTO_ACTIONS_QUEUE(&qa);

	memset(err, 0, sizeof(*err));
	return rte_flow_create(port, &attr, items, actions, err);
}

/*
 * An ingress rule on @p port: IPv4 source @p src and UDP source port
 * @p sport (one generated flow) -> QUEUE @p queue. NULL and @p err set
 * if refused.
 */
static inline struct rte_flow *
octo_flow_to_queue(uint16_t port, rte_be32_t src, rte_be16_t sport, uint16_t queue,
		struct rte_flow_error *err)
{
	struct rte_flow_item_ipv4 ip = { .hdr.src_addr = src };
	struct rte_flow_item_ipv4 ip_mask = { .hdr.src_addr = RTE_BE32(0xffffffff) };
	struct rte_flow_item_udp udp = { .hdr.src_port = sport };
	struct rte_flow_item_udp udp_mask = { .hdr.src_port = RTE_BE16(0xffff) };
	struct rte_flow_item items[] = OCTO_ITEMS_UDP_MATCH(&ip, &ip_mask, &udp, &udp_mask);

	return octo_items_to_queue(port, items, queue, err);
}

#endif /* OCTO_FLOW_RULE_H */
