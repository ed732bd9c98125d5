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
 * rule is kept as a deep copy (octopus_flow_copy) so that it can be installed
 * again from the copy: octopus_flows_replay() after the e-switch lost its
 * rules (a member came back, a restart that removed them). This header
 * declares the functions of octopus_flow.c, octopus_flow_build.c and
 * octopus_flow_mark.c (the README's file table says each one's job), a
 * section each; the records they share are octopus_flow_types.h's.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_flow.h>

#include "octo_steer_app.h"
#include "octopus_steer.h"
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
 * transfer proxy. -errno with @p error set when there is none (ENOTSUP for
 * members without an e-switch, as the steering is: its reason is kept in
 * steer_why).
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

/*
 * octopus_flow_build.c: an application rule to the planner's input, a
 * planner entry to the member rule, and what a pattern says of the
 * default bucket its traffic hits.
 */

/* An application rule for the planner; -errno with @p error set when the port refuses it. */
int octopus_flow_parse(const struct octopus_priv *p, const struct rte_flow_attr *attr,
		const struct rte_flow_item pattern[], const struct rte_flow_action actions[],
		struct octopus_flow_parsed *out, struct rte_flow_error *error);
/*
 * Create (validate_only == 0) or validate the member rule of planner entry
 * @p e for an application rule of pattern @p pattern on port @p proxy,
 * writing META the way @p how says (the proxy's answer).
 * @return 0 and *flow set (create), 1 when the entry cannot match anything
 * the pattern matches (skipped, nothing created), or -errno with @p error set.
 */
int octopus_flow_hw_make(uint16_t proxy, enum octopus_steer_meta_write how, bool wire,
		const struct rte_flow_item pattern[],
		const struct octo_steer_app_entry *e,
		int validate_only, struct rte_flow **flow, struct rte_flow_error *error);

/* Spec/mask size of the items the port takes, 0 for the others (VOID too). */
size_t octopus_flow_item_size(enum rte_flow_item_type t);
/*
 * The default bucket a pattern's traffic falls into when no application
 * rule takes it: known when the pattern fixes the bucket bits of the
 * spreading field (e.g. a pinned 5-tuple).  -1 when it does not.
 */
int octopus_flow_bucket_of(enum octo_steer_field spread, uint16_t reta_size,
		const struct rte_flow_item pattern[]);
/*
 * The default bucket of the rules of one pattern template: its item types
 * and masks decide all but the spec bytes of the spreading field, which
 * octopus_flow_bucket_run() reads from a rule's pattern. The same as
 * octopus_flow_bucket_of() on the rule's specs under the template's masks
 * (an item the template leaves unmasked: no spec): where the masks cover
 * the bucket bits, those bits of the field are the bucket, the masks take
 * none of them away.
 */
struct octopus_flow_bucket_prog {
	int16_t item;		/* the item holding the field, -1: every rule -1 */
	uint8_t off;		/* the field's place in that item's spec */
	uint8_t width;		/* its bytes (big endian): 2 or 4 */
	uint32_t need;		/* the bucket bits: reta_size - 1 */
};

/* The program of a template of items @p tmpl (types and masks). */
void octopus_flow_bucket_prog_make(enum octo_steer_field spread, uint16_t reta_size,
		const struct rte_flow_item tmpl[], struct octopus_flow_bucket_prog *bp);

/* Default bucket of a rule of pattern @p pattern (specs) under @p bp; -1: several. */
static inline int
octopus_flow_bucket_run(const struct octopus_flow_bucket_prog *bp,
		const struct rte_flow_item pattern[])
{
	const uint8_t *spec;
	uint32_t v32;
	uint16_t v16;

	if (bp->item < 0)
		return -1;
	spec = pattern[bp->item].spec;
	if (spec == NULL)
		return -1;
	if (bp->width == 2) {
		memcpy(&v16, spec + bp->off, sizeof(v16));
		return (int)(rte_be_to_cpu_16(v16) & bp->need);
	}
	memcpy(&v32, spec + bp->off, sizeof(v32));
	return (int)(rte_be_to_cpu_32(v32) & bp->need);
}

/* Hash of attr and pattern (same rule matching the same traffic). */
uint32_t octopus_flow_key(const struct rte_flow_attr *attr,
		const struct rte_flow_item pattern[]);

/*
 * The deep copy of a rule octopus_flow_parse() took: its size, then the
 * copy into @p dst of that size (attr, pattern and actions, each pointer
 * into @p dst, as rte_flow_conv's RTE_FLOW_CONV_OP_RULE lays it out).
 */
size_t octopus_flow_copy_size(const struct rte_flow_item pattern[],
		const struct rte_flow_action actions[]);
void octopus_flow_copy(struct rte_flow_conv_rule *dst, size_t size,
		const struct rte_flow_attr *attr, const struct rte_flow_item pattern[],
		const struct rte_flow_action actions[]);

/*
 * octopus_flow_mark.c: the shapes the members' e-switch takes, and MARK
 * and FLAG in the members' ingress where the e-switch refuses them in
 * transfer rules.
 */

/*
 * What the e-switch behind @p proxy takes, asked by
 * creating probe rules (octopus_steer_probe) where @p may_create and the
 * members take rules now, and kept; otherwise by validate alone, not kept.
 */
int octopus_flow_shape_get(struct octopus_priv *p, uint16_t proxy, bool may_create,
		struct octopus_flow_shape *sh, struct rte_flow_error *error);
/* Give @p f a tag when its MARK/FLAG goes to the ingress stage (@p sh). */
int octopus_flow_mark_tag(struct octopus_priv *p, struct octopus_flow *f,
		const struct octopus_flow_shape *sh, struct rte_flow_error *error);
/* Create @p f's ingress MARK/FLAG rules for its entries @p e (none without a tag). */
int octopus_flow_mark_install(struct octopus_priv *p, struct octopus_flow *f,
		const struct octo_steer_app_entry *e, uint32_t nb, struct rte_flow_error *error);
/* Validate the ingress MARK/FLAG rules rule @p a (with a tag) would have. */
int octopus_flow_mark_validate(struct octopus_priv *p, const struct octo_steer_app_rule *a,
		const struct octo_steer_app_entry *e, uint32_t nb, struct rte_flow_error *error);
/* Remove @p f's ingress MARK/FLAG rules and free its tag. */
void octopus_flow_mark_remove(struct octopus_priv *p, struct octopus_flow *f);
/* Create those of @p f missing on a member (one that came back). */
int octopus_flow_mark_fill(struct octopus_priv *p, struct octopus_flow *f,
		struct rte_flow_error *error);
/* Port @p port was released: @p f's rules on it went with it. */
void octopus_flow_mark_forget(struct octopus_priv *p, struct octopus_flow *f, uint16_t port);
/* Free the tag map (close). */
void octopus_flow_mark_release(struct octopus_flows *fl);

#endif /* OCTOPUS_FLOW_H */
