/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTOPUS_FLOW_H
#define OCTOPUS_FLOW_H

/*
 * The application's rte_flow rules on the virtual port (flow ops).
 *
 * An application rule (ingress) becomes one or more transfer-domain
 * classification rules on the members' e-switch, created through the
 * members' transfer proxy above the default buckets of the steering
 * (lib/steering/octo_steer_app.h says what each action becomes).  Every
 * rule is kept as a deep copy (rte_flow_conv) so that it can be installed
 * again from the copy: octopus_flows_replay() after the e-switch lost its
 * rules (a member came back, a restart that removed them). This header
 * declares octopus_flow.c's functions; each file below has its own, and
 * the records they share are octopus_flow_types.h's.
 *
 *   octopus_flow.c        ops: validate, create, destroy, flush, query,
 *                         isolate; the rule list; replay; the records'
 *                         memory (slab)
 *   octopus_flow_build.c  application rule -> planner input, and a
 *                         planner entry -> the member rte_flow rule
 *   octopus_flow_mark.c   the shapes the e-switch takes (asked), and MARK
 *                         and FLAG in the members' ingress where the
 *                         e-switch refuses them in transfer rules
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_flow.h>

#include "octopus_flow_types.h"

struct octopus_priv;
struct rte_eth_dev;

/* The synchronous flow ops (octopus_flow.c), in octopus_flow_ops.c's ops table. */
int octopus_flow_validate(struct rte_eth_dev *dev, const struct rte_flow_attr *attr,
		const struct rte_flow_item pattern[], const struct rte_flow_action actions[],
		struct rte_flow_error *error);
struct rte_flow *octopus_flow_create(struct rte_eth_dev *dev, const struct rte_flow_attr *attr,
		const struct rte_flow_item pattern[], const struct rte_flow_action actions[],
		struct rte_flow_error *error);
int octopus_flow_destroy(struct rte_eth_dev *dev, struct rte_flow *handle,
		struct rte_flow_error *error);
int octopus_flow_flush(struct rte_eth_dev *dev, struct rte_flow_error *error);
int octopus_flow_query(struct rte_eth_dev *dev, struct rte_flow *handle,
		const struct rte_flow_action *action, void *data, struct rte_flow_error *error);
int octopus_flow_isolate(struct rte_eth_dev *dev, int set, struct rte_flow_error *error);

/* Whether @p handle may be a synchronous rule's (octopus_flow.c). */
bool octopus_flow_handle_is_sync(const struct octopus_priv *p, const struct rte_flow *handle);

/* The port's rule state, allocated at first use; NULL: no memory. */
struct octopus_flows *octopus_flows_get(struct octopus_priv *p);
/*
 * The port the application's rules are made on: the members' common
 * transfer proxy. -errno with @p error set when there is none.
 */
int octopus_flow_proxy_get(struct octopus_priv *p, uint16_t *proxy,
		struct rte_flow_error *error);
/* @p error from a member (port @p proxy) said again as the port's. */
int octopus_flow_member_error(struct rte_flow_error *error, int ret, uint16_t proxy);
/*
 * Count (@p n = 1) or uncount (-1) a rule hitting default bucket @p bucket
 * (-1: several) that delivers to queues @p qs (bit q), for the gates of
 * later rule changes.
 */
void octopus_flow_reach_count(struct octopus_priv *p, int bucket, uint64_t qs, int n);
struct octopus_gate_set;
/*
 * The gates of creating (@p create) or destroying a rule hitting bucket
 * @p bucket that delivers to queues @p qs, the rule itself not counted.
 */
void octopus_flow_gates(struct octopus_priv *p, int bucket, uint64_t qs, bool create,
		struct octopus_gate_set *s);

/*
 * Whether application rules wait in the port's copies, off the members:
 * the port is stopped and a member keeps no rules across its stop (no
 * FLOW_RULE_KEEP). They are made on the members at start.
 */
bool octopus_flows_parked(const struct octopus_priv *p);
/*
 * Take every application rule off the members, keeping it (and what it
 * counted): before members that keep no rules stop.
 */
void octopus_flows_park(struct octopus_priv *p);
/* Install every kept rule that is not installed (start, member back). */
int octopus_flows_replay(struct octopus_priv *p);
/*
 * Port @p port, a transfer proxy, was released, and the member rules made
 * through it with its e-switch: drop their handles, never to be passed to
 * that port id again (another device may get it); the rules stay, for a
 * replay.
 */
void octopus_flows_forget_hw(struct octopus_priv *p, uint16_t port);

/* Remove every rule from the members and forget it (close). */
void octopus_flows_free(struct octopus_priv *p);

/*
 * Ask it at start (the steering installed): an application's validate
 * then finds the answer and creates no probe rule.
 */
void octopus_flows_shape_probe(struct octopus_priv *p, uint16_t proxy);

#endif /* OCTOPUS_FLOW_H */
