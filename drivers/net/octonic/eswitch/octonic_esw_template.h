/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTONIC_ESW_TEMPLATE_H
#define OCTONIC_ESW_TEMPLATE_H

/*
 * rte_flow's template and asynchronous API on the e-switch (octonic.rst
 * "Template API").  Shared by octonic_esw_template.c (info, configure,
 * templates, tables), octonic_esw_queue.c (flow queues, async operations,
 * push, pull) and octonic_flow.c (the ethdev glue).
 *
 * A template rule is an e-switch rule like any other (struct rte_flow in
 * the same tuple-space tables, under the same generation/RCU protocol):
 * what differs is that attr and dialect are checked once per table, the
 * rule's memory is a slot of its table, and the grace period a new rule
 * owes its readers is paid once per push or pull for every operation of
 * the queue, not once per rule.
 *
 * Locking: templates, tables and configure run under sw->lock.  A flow
 * queue belongs to whichever thread uses it (the API's contract: one
 * thread per queue at a time), its ring is touched without a lock; the
 * e-switch's tables are changed under sw->lock, taken once per operation
 * that reaches them and once per push/pull that completes operations.
 */

#include <stdint.h>
#include <string.h>
#include <sys/queue.h>

#include <rte_flow.h>
#include <rte_spinlock.h>

#include "octonic_esw_internal.h"

#define SW_PT_MAGIC 0x6f637074u
#define SW_AT_MAGIC 0x6f636174u
#define SW_TBL_MAGIC 0x6f637462u

/** Limits info_get states (per PF). */
#define SW_TMPL_MAX_QUEUES 64
#define SW_TMPL_MAX_QUEUE_SIZE 65536
/** Templates per table (mlx5's limit is 32 of each, MLX5_HW_TBL_MAX_ITEM_TEMPLATE). */
#define SW_TMPL_MAX_PER_TABLE 32
/** Items or actions per template. */
#define SW_TMPL_MAX_ITEMS 16
#define SW_TMPL_MAX_ACTIONS 16
/** Rule slots a table allocates at a time. */
#define SW_TBL_CHUNK 4096

/** Where a template rule's slot is. */
enum sw_tstate {
	SW_TS_FREE = 0,		/* in the table's free stack */
	SW_TS_MADE,		/* handed out: parsed, not (yet) in the tables */
	SW_TS_IN,		/* in the e-switch's tables */
	SW_TS_DYING,		/* destroy enqueued */
};

/** Spec bytes a pattern plan probes per item (the largest item the
 * classifier parses, IPv6, has 44).
 */
#define SW_PPLAN_SPEC_MAX 64
/** Spec bits a plan moves one by one (ETH has_vlan, IPv6 traffic class). */
#define SW_PPLAN_MAX_BITS 32

/** Spec bytes that land in the flow key as they are (bits in place). */
struct sw_pcopy {
	uint8_t item;		/* pattern index */
	uint8_t src;		/* offset in the item's spec */
	uint8_t dst;		/* offset in struct octo_flow_key */
	uint8_t len;		/* 1 to 8 */
};

/** A spec bit that lands elsewhere in the key. */
struct sw_pbit {
	uint8_t item, src, sbit;	/* spec byte and bit */
	uint8_t dst, dbit;		/* key byte and bit */
};

/**
 * What octo_match_from_pattern makes of a pattern template's rules,
 * worked out once (octonic_esw_template.c, pplan_build): the match is
 * the template's mask and, in the key, the constant bits (layers) plus
 * the rule's spec bits the mask keeps, each at a place found by parsing
 * the template with that one bit set.  ok 0: the template's rules are
 * parsed (what the parser does is not that, e.g. eth has_vlan masked
 * before a vlan item, refused when a rule says has_vlan=0).
 */
struct sw_pplan {
	uint8_t ok;
	uint8_t nb_copies, nb_bits;
	/* 1 + the index of a REPRESENTED_PORT item (mlx5-hws transfer), 0:
	 * none; the plan covers the other items, the port is looked up per
	 * rule (octonic_esw_port_item_src)
	 */
	uint8_t port_item;
	/* items whose spec the rule must give: without it the parse makes
	 * another match (another table), so such a rule is parsed
	 */
	uint32_t spec_needed;
	/* the key with every spec zero, and the bits the copies carry, as
	 * words
	 */
	uint64_t kbase[sizeof(struct octo_flow_key) / sizeof(uint64_t)];
	uint64_t keep[sizeof(struct octo_flow_key) / sizeof(uint64_t)];
	struct octo_flow_key mask;
	struct sw_pcopy copy[sizeof(struct octo_flow_key)];
	struct sw_pbit bit[SW_PPLAN_MAX_BITS];
};

/* A table specialised for the wire's frames sees no other (as mlx5's
 * FDB Rx tables): its rules' match says so.
 */
static inline void
sw_wire_orig_apply(struct octo_match *m)
{
	sw_src_set(&m->key, SW_SRC_WIRE);
	m->mask.layers |= OCTO_L_IN_PORT;
}

/* The match of a rule of the template with @p items (types checked),
 * through plan @p p; -1 when the rule lacks a spec the plan reads.
 */
static inline int
sw_pplan_apply(const struct sw_pplan *p, const struct rte_flow_item items[],
		struct octo_match *m)
{
	uint8_t *kb = (uint8_t *)&m->key;
	uint32_t need = p->spec_needed, i;

	for (; need != 0; need &= need - 1)
		if (items[rte_ctz32(need)].spec == NULL)
			return -1;
	/* whole bytes into the key, then what the mask does not keep out */
	for (i = 0; i < p->nb_copies; i++) {
		const struct sw_pcopy *c = &p->copy[i];
		const uint8_t *s = (const uint8_t *)items[c->item].spec + c->src;
		uint64_t v8;
		uint32_t v4;
		uint16_t v2;

		switch (c->len) {
		case 8:
			memcpy(&v8, s, sizeof(v8));
			memcpy(kb + c->dst, &v8, sizeof(v8));
			break;
		case 4:
			memcpy(&v4, s, sizeof(v4));
			memcpy(kb + c->dst, &v4, sizeof(v4));
			break;
		case 2:
			memcpy(&v2, s, sizeof(v2));
			memcpy(kb + c->dst, &v2, sizeof(v2));
			break;
		default:
			memcpy(kb + c->dst, s, c->len);
			break;
		}
	}
	/* by words through memcpy: the key is 4-byte aligned in a rule
	 * (struct octo_match), and read field by field elsewhere
	 */
	for (i = 0; i < RTE_DIM(p->keep); i++) {
		uint64_t w;

		memcpy(&w, kb + i * sizeof(w), sizeof(w));
		w = (w & p->keep[i]) | p->kbase[i];
		memcpy(kb + i * sizeof(w), &w, sizeof(w));
	}
	for (i = 0; i < p->nb_bits; i++) {
		const struct sw_pbit *b = &p->bit[i];
		const uint8_t *s = items[b->item].spec;

		kb[b->dst] |= ((s[b->src] >> b->sbit) & 1) << b->dbit;
	}
	m->mask = p->mask;
	return 0;
}

struct rte_flow_pattern_template {
	uint32_t magic;
	uint16_t pf;
	uint8_t ingress, egress, transfer, relaxed;
	uint32_t refcnt;		/* tables using it */
	uint32_t nb_items;		/* without END */
	struct rte_flow_item *items;	/* deep copy (rte_flow_conv) */
	struct sw_pplan plan;
	TAILQ_ENTRY(rte_flow_pattern_template) next;
};

struct rte_flow_actions_template {
	uint32_t magic;
	uint16_t pf;
	uint8_t ingress, egress, transfer;
	uint32_t refcnt;
	uint32_t nb_actions;		/* without END */
	struct rte_flow_action *actions;	/* deep copies */
	struct rte_flow_action *masks;
	/* action i's conf is the template's for every rule (1) or each
	 * rule's own (0): what the mask fixes, as mlx5 reads it
	 */
	uint8_t fixed[SW_TMPL_MAX_ACTIONS];
	TAILQ_ENTRY(rte_flow_actions_template) next;
};

struct rte_flow_template_table {
	uint32_t magic;
	uint16_t pf;
	struct rte_flow_attr attr;	/* every rule's (group, prio, domain) */
	uint32_t nb_flows;		/* rule capacity */
	uint8_t nb_pt, nb_at;
	/* specialised for the wire's frames (transfer): its rules match
	 * nothing a PF sends (sw_wire_orig_apply)
	 */
	uint8_t wire_orig;
	struct rte_flow_pattern_template *pt[SW_TMPL_MAX_PER_TABLE];
	struct rte_flow_actions_template *at[SW_TMPL_MAX_PER_TABLE];
	/* the e-switch table (mask) of each pattern template's rules, room
	 * for nb_flows keys reserved in it
	 */
	struct octo_flow_key mask[SW_TMPL_MAX_PER_TABLE];
	uint8_t nb_reserved;
	/* each actions template's rules in this table (attr), parsed once */
	struct sw_aplan aplan[SW_TMPL_MAX_PER_TABLE];
	/* the e-switch table of each pattern template's planned rules (its
	 * index in sw->tables, stable while reserved), -1: found per rule
	 */
	int32_t sw_table[SW_TMPL_MAX_PER_TABLE];
	/* Rule slots: any queue's thread takes and gives them back. */
	rte_spinlock_t slot_lock;
	uint32_t nb_used;		/* slots handed out: rules of the table */
	struct rte_flow **free;		/* stack of free slots (nb_flows) */
	uint32_t nb_free;
	void **chunks;			/* rte_malloc'd SW_TBL_CHUNK slots each */
	uint32_t nb_chunks;
	TAILQ_ENTRY(rte_flow_template_table) next;
};

enum sw_op_type {
	SW_OP_CREATE,
	SW_OP_DESTROY,
	SW_OP_UPDATE,
};

/** One operation on a flow queue. */
struct sw_op {
	struct rte_flow *flow;		/* the handle */
	struct rte_flow *old;		/* UPDATE: what the new rule replaces */
	void *user_data;
	uint8_t type;			/* enum sw_op_type */
	uint8_t failed;			/* completes with RTE_FLOW_OP_ERROR */
};

/*
 * A flow queue: a ring of size operations, from the oldest:
 * [0, n_ready) completed (pull returns them), [n_ready, n_done) done in
 * the tables but owing the grace period (and, for destroys, the unlink),
 * [n_done, n) enqueued with postpone, waiting for push.  Enqueue refuses
 * when n reaches size: queued and uncollected operations both hold room,
 * as on mlx5 where a job returns to the queue only at pull.
 */
struct __rte_cache_aligned sw_fq {
	uint32_t size;
	uint32_t head;
	uint32_t n, n_ready, n_done;
	struct sw_op *ops;
	struct rte_flow **dead;		/* room for a drain's destroyed rules */
};

/** A PF's template API state (rte_flow_configure and what follows). */
struct sw_fport {
	uint16_t pf;
	uint32_t nb_queue;		/* the application's */
	uint32_t nb_q;			/* mlx5-hws: nb_queue + its control queue */
	struct rte_flow_port_attr attr;
	struct sw_fq *q;
	TAILQ_HEAD(, rte_flow_pattern_template) pts;
	TAILQ_HEAD(, rte_flow_actions_template) ats;
	TAILQ_HEAD(, rte_flow_template_table) tables;
};

/* octonic_esw_template.c */
int octonic_eswitch_flow_info_get(struct octonic_eswitch *sw, uint16_t pf,
		struct rte_flow_port_info *port_info,
		struct rte_flow_queue_info *queue_info, struct rte_flow_error *error);
/* @p started: the port is started (refused). */
int octonic_eswitch_flow_configure(struct octonic_eswitch *sw, uint16_t pf,
		int started, const struct rte_flow_port_attr *port_attr,
		uint16_t nb_queue, const struct rte_flow_queue_attr *queue_attr[],
		struct rte_flow_error *error);
struct rte_flow_pattern_template *
octonic_eswitch_pattern_template_create(struct octonic_eswitch *sw, uint16_t pf,
		const struct rte_flow_pattern_template_attr *attr,
		const struct rte_flow_item pattern[], struct rte_flow_error *error);
int octonic_eswitch_pattern_template_destroy(struct octonic_eswitch *sw,
		uint16_t pf, struct rte_flow_pattern_template *pt,
		struct rte_flow_error *error);
struct rte_flow_actions_template *
octonic_eswitch_actions_template_create(struct octonic_eswitch *sw, uint16_t pf,
		const struct rte_flow_actions_template_attr *attr,
		const struct rte_flow_action actions[],
		const struct rte_flow_action masks[], struct rte_flow_error *error);
int octonic_eswitch_actions_template_destroy(struct octonic_eswitch *sw,
		uint16_t pf, struct rte_flow_actions_template *at,
		struct rte_flow_error *error);
struct rte_flow_template_table *
octonic_eswitch_template_table_create(struct octonic_eswitch *sw, uint16_t pf,
		const struct rte_flow_template_table_attr *attr,
		struct rte_flow_pattern_template *pts[], uint8_t nb_pt,
		struct rte_flow_actions_template *ats[], uint8_t nb_at,
		struct rte_flow_error *error);
int octonic_eswitch_template_table_destroy(struct octonic_eswitch *sw,
		uint16_t pf, struct rte_flow_template_table *t,
		struct rte_flow_error *error);
/* A rule slot of @p t (NULL: the table holds nb_flows rules), and back. */
struct rte_flow *octonic_esw_tbl_slot_get(struct octonic_eswitch *sw,
		struct rte_flow_template_table *t);
void octonic_esw_tbl_slot_put(struct rte_flow_template_table *t, struct rte_flow *r);

/* octonic_esw_queue.c */
struct rte_flow *octonic_eswitch_async_create(struct octonic_eswitch *sw,
		uint16_t pf, uint32_t queue, const struct rte_flow_op_attr *op_attr,
		struct rte_flow_template_table *t, const struct rte_flow_item items[],
		uint8_t pt_idx, const struct rte_flow_action actions[], uint8_t at_idx,
		void *user_data, struct rte_flow_error *error);
int octonic_eswitch_async_destroy(struct octonic_eswitch *sw, uint16_t pf,
		uint32_t queue, const struct rte_flow_op_attr *op_attr,
		struct rte_flow *flow, void *user_data, struct rte_flow_error *error);
int octonic_eswitch_async_actions_update(struct octonic_eswitch *sw,
		uint16_t pf, uint32_t queue, const struct rte_flow_op_attr *op_attr,
		struct rte_flow *flow, const struct rte_flow_action actions[],
		uint8_t at_idx, void *user_data, struct rte_flow_error *error);
int octonic_eswitch_push(struct octonic_eswitch *sw, uint16_t pf,
		uint32_t queue, struct rte_flow_error *error);
int octonic_eswitch_pull(struct octonic_eswitch *sw, uint16_t pf,
		uint32_t queue, struct rte_flow_op_result res[], uint16_t n_res,
		struct rte_flow_error *error);
/* Complete every operation of @p fp's queues (configure, close). */
void octonic_esw_fport_drain_all(struct octonic_eswitch *sw, struct sw_fport *fp);

#endif /* OCTONIC_ESW_TEMPLATE_H */
