/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTOPUS_FLOW_TMPL_PRIV_H
#define OCTOPUS_FLOW_TMPL_PRIV_H

/*
 * The template side of the port's rte_flow, shared by its files
 * (octopus_flow_ops.c, octopus_flow_tmpl.c, octopus_flow_tmpl_restart.c,
 * octopus_flow_queue.c, octopus_flow_tmpl_recs.c: the README's file table
 * says each one's job): the records of templates, tables, rules and flow
 * queues, and what the files call of each other.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/queue.h>

#include <rte_common.h>
#include <rte_flow.h>
#include <rte_flow_driver.h>
#include <rte_spinlock.h>
#include <ethdev_driver.h>

#include "octopus_internal.h"
#include "octopus_flow.h"

/*
 * A template table's rule records: one array of fixed-size records, and
 * their free indexes, a few per flow queue and the rest shared (the
 * indexed pool of a table, as mlx5's hardware steering has one).
 *
 * Why not a mempool: a mempool object carries its header, so each record
 * would take a cache line of its own, and after a few rounds of inserts
 * and deletes its free objects come back in no useful order: a rule's
 * destroy, which begins by reading its record, would begin with a cache
 * miss. Here records are adjacent, two to a line at 32
 * bytes, and a flow queue takes them in index order from a fresh table
 * and in reverse order of their return after, which the CPU's prefetcher
 * follows when rules come and go in runs.
 *
 * A flow queue's cache is used by the lcore that owns the flow queue only
 * (rte_flow's contract for flow queues), without a lock; the shared stack
 * is under a spinlock, taken once per OCTOPUS_TMPL_RECS_BATCH records.
 */

/** Free indexes a flow queue keeps at most. */
#define OCTOPUS_TMPL_RECS_CACHE	64
/** Indexes moved between a flow queue's cache and the shared stack at once. */
#define OCTOPUS_TMPL_RECS_BATCH	32

struct __rte_cache_aligned octopus_tmpl_recs_cache {
	uint32_t n;
	uint32_t idx[OCTOPUS_TMPL_RECS_CACHE];
};

struct octopus_tmpl_recs {
	char *base;		/* [n] records, 1 << @p shift bytes apart */
	/*
	 * a record's size rounded up to a power of 2:
	 * put finds an index without a division
	 */
	uint32_t shift;
	uint32_t n;		/* the capacity asked for plus every cache's fill */
	rte_spinlock_t lock;	/* the shared stack */
	uint32_t nb_free;
	uint32_t *free;		/* [n]: the shared free indexes, a stack */
	uint16_t nb_cache;
	struct octopus_tmpl_recs_cache *cache;	/* [nb_cache]: per flow queue */
};

/*
 * Records for @p capacity rules of @p size bytes each (zeroed; each takes
 * the next power of 2, 32 for the port's), taken and
 * given back on flow queues 0 .. @p nb_cache - 1, on NUMA @p socket.
 * Room is kept so that @p capacity records can be in use whatever the
 * caches hold. @return 0, -ENOMEM.
 */
int octopus_tmpl_recs_init(struct octopus_tmpl_recs *p, uint32_t capacity, size_t size,
		uint16_t nb_cache, int socket);

/* Frees what init took; @p p may be zeroed, or released already. */
void octopus_tmpl_recs_fini(struct octopus_tmpl_recs *p);

/* Records given out and not back. Exact when no flow queue is in use. */
uint32_t octopus_tmpl_recs_in_use(const struct octopus_tmpl_recs *p);

/* Slow halves of get and put: the shared stack. */
void octopus_tmpl_recs_refill(struct octopus_tmpl_recs *p, struct octopus_tmpl_recs_cache *c);
void octopus_tmpl_recs_flush(struct octopus_tmpl_recs *p, struct octopus_tmpl_recs_cache *c);

/* A record for flow queue @p fq, NULL when none is left. */
static inline void *
octopus_tmpl_recs_get(struct octopus_tmpl_recs *p, uint16_t fq)
{
	struct octopus_tmpl_recs_cache *c = &p->cache[fq];

	if (unlikely(c->n == 0)) {
		octopus_tmpl_recs_refill(p, c);
		if (c->n == 0)
			return NULL;
	}
	return p->base + ((size_t)c->idx[--c->n] << p->shift);
}

/* @p rec back, on flow queue @p fq (any: the one that saw it go). */
static inline void
octopus_tmpl_recs_put(struct octopus_tmpl_recs *p, uint16_t fq, void *rec)
{
	struct octopus_tmpl_recs_cache *c = &p->cache[fq];

	if (unlikely(c->n == OCTOPUS_TMPL_RECS_CACHE))
		octopus_tmpl_recs_flush(p, c);
	c->idx[c->n++] = (uint32_t)(((char *)rec - p->base) >> p->shift);
}

/* Most actions in an application actions template, END included. */
#define TMPL_MAX_ACTIONS	16
/* Most pattern or actions templates in one table. */
#define TMPL_MAX_PER_TABLE	32
/* How long a gated operation waits for the proxy's completion. */
#define TMPL_WAIT_MS		1000

enum tmpl_fate {
	TMPL_FATE_QUEUE,
	TMPL_FATE_DROP,
	TMPL_FATE_JUMP,
};

/* Most items in a pattern template, END excluded (as the synchronous rules). */
#define TMPL_MAX_ITEMS		32

struct octopus_tmpl_pattern {
	struct rte_flow_pattern_template *hw;
	TAILQ_ENTRY(octopus_tmpl_pattern) next;
	/* the default bucket of a rule's traffic from its specs: the
	 * template's masks decide the rest, once
	 */
	struct octopus_flow_bucket_prog bucket;
	/* what a rule's copy keeps (see Restart): the item types, and the
	 * specs of the items that take one, packed at spec_off
	 */
	uint8_t nb_items;			/* END excluded */
	uint8_t nb_spec;
	uint16_t copy_size;
	enum rte_flow_item_type type[TMPL_MAX_ITEMS];
	uint8_t spec_item[TMPL_MAX_ITEMS];
	uint8_t spec_size[TMPL_MAX_ITEMS];
	uint16_t spec_off[TMPL_MAX_ITEMS];
};

/* Proxy action k of a rule: its type, and where its conf comes from. */
struct tmpl_act {
	enum rte_flow_action_type type;
	int8_t from;		/* the application's action of that index; -1: the port's */
};

struct octopus_tmpl_actions {
	struct rte_flow_actions_template *hw;
	TAILQ_ENTRY(octopus_tmpl_actions) next;
	uint32_t id;		/* its number (actions_ids), from 1 */
	uint8_t nb;		/* proxy actions, END included */
	uint8_t nb_app;		/* application actions, END included */
	struct tmpl_act act[TMPL_MAX_ACTIONS + 1];
	/* the proxy actions whose conf is a rule's (act[k].from >= 0): k */
	uint8_t nb_from;
	uint8_t from_pos[TMPL_MAX_ACTIONS];
	enum tmpl_fate fate;
	int8_t app_fate;	/* index of the application's QUEUE or JUMP */
	uint8_t masked;		/* its value is the template's */
	uint32_t value;		/* masked: the queue, or the application group */
	int8_t meta_pos;	/* proxy action writing META (QUEUE), -1 none */
	int8_t jump_pos;	/* proxy JUMP, -1 none */
	/* how its META write is made: the proxy's answer to this template */
	enum octopus_steer_meta_write meta_how;
	/* what a rule's copy keeps (see Restart): the application's action
	 * types, and the confs a rule gives (MARK, COUNT), packed at conf_off
	 */
	uint8_t nb_conf;
	uint16_t copy_size;
	enum rte_flow_action_type app_type[TMPL_MAX_ACTIONS];
	uint8_t conf_act[TMPL_MAX_ACTIONS];
	uint8_t conf_size[TMPL_MAX_ACTIONS];
	uint16_t conf_off[TMPL_MAX_ACTIONS];
};

/* One template rule. */
struct octopus_tmpl_rule {
	struct rte_flow *hw;	/* NULL while live: kept in its copy only (Restart) */
	struct octopus_tmpl_table *tbl;
	uint64_t qs;		/* queue it delivers to in group 0 (bit q), 0: none */
	int32_t bucket;		/* default bucket its pattern hits, -1: several */
	uint8_t pt, at;		/* its templates' indexes in the table */
	uint8_t live;		/* 1 from its create's enqueue until its destroy's */
	uint8_t failed;		/* its create failed while its destroy was in flight */
};

struct octopus_tmpl_table {
	struct rte_flow_template_table *hw;
	TAILQ_ENTRY(octopus_tmpl_table) next;
	uint32_t group;		/* application group */
	uint8_t nb_pt, nb_at;
	struct octopus_tmpl_pattern *pt[TMPL_MAX_PER_TABLE];
	struct octopus_tmpl_actions *at[TMPL_MAX_PER_TABLE];
	struct octopus_tmpl_recs recs;	/* rule records */
	/* each record's copy of its rule, copy_size apart (members that
	 * keep no rules across their stop); NULL: none kept (see Restart)
	 */
	uint8_t *copies;
	uint32_t copy_size;
	uint16_t pt_room, at_room;	/* the most any of its templates keeps */
};

enum tmpl_op_kind {
	TMPL_OP_CREATE,
	TMPL_OP_DESTROY,
	TMPL_OP_UPDATE,
};

/* An application operation in flight: the proxy's user_data. */
struct tmpl_op {
	void *user_data;
	struct octopus_tmpl_rule *rule;
	uint64_t qs;		/* UPDATE: the queues it delivers to after */
	uint8_t at;		/* UPDATE: its actions template after */
	uint8_t slot;		/* UPDATE: the copy's actions slot it wrote */
	uint8_t kind;
	uint8_t done;		/* completed, in the stash (a gated operation's wait) */
};

/* One flow queue: the lcore that uses it is its only user. */
struct __rte_cache_aligned octopus_tmpl_queue {
	uint16_t id;			/* its index */
	uint32_t size;
	struct tmpl_op *ops;		/* [size] */
	uint32_t *free;			/* [size]: free op indexes, a stack */
	uint32_t nb_free;
	/* completions the port took from the proxy before the application
	 * pulled them (a gated operation's wait), translated; a ring
	 */
	struct rte_flow_op_result *stash;	/* [size] */
	uint32_t stash_head, stash_n;
	/* a rule's proxy actions: laid out for actions template @p built,
	 * then only what each rule gives is written
	 */
	uint32_t built;			/* its id, 0: none yet */
	struct rte_flow_action acts[TMPL_MAX_ACTIONS + 1];
	struct rte_flow_action_set_meta meta;
	struct rte_flow_action_modify_field mod;
	struct rte_flow_action_jump home;	/* QUEUE's jump to the home group */
	struct rte_flow_action_jump jump;	/* JUMP's */
};

TAILQ_HEAD(tmpl_pattern_list, octopus_tmpl_pattern);
TAILQ_HEAD(tmpl_actions_list, octopus_tmpl_actions);
TAILQ_HEAD(tmpl_table_list, octopus_tmpl_table);

struct octopus_tmpl {
	uint16_t proxy;
	/* the proxy's asynchronous ops, called without ethdev's dispatch */
	struct octo_dpdk_flow_fp fp;
	uint8_t proxy_gone;	/* released: nothing of this is on the e-switch */
	uint16_t nb_queue;	/* the application's */
	uint16_t nb_hwq;	/* with the extra one (see top) */
	struct rte_flow_port_attr port_attr;	/* as configured, for a second configure */
	/* rules are kept in copies only, not made on the proxy: the port is
	 * stopped and its members keep no rules across their stop (Restart)
	 */
	uint8_t park;
	uint32_t *qsize;	/* [nb_queue]: sizes as configured */
	struct octopus_flow_shape shape;
	struct tmpl_pattern_list patterns;
	struct tmpl_actions_list actions;
	struct tmpl_table_list tables;
	struct octopus_tmpl_queue *q;	/* [nb_hwq] */
};

static inline int
tmpl_error(struct rte_flow_error *error, int code, const char *what)
{
	return octopus_flow_error(error, code, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
		"%s", what);
}

/* The template state in service: configured, its proxy there. */
static inline struct octopus_tmpl *
tmpl_of(struct rte_eth_dev *dev, struct rte_flow_error *error)
{
	struct octopus_tmpl *t = octo_priv(dev)->tmpl;

	if (t == NULL) {
		tmpl_error(error, EINVAL, "flow queues not configured (rte_flow_configure)");
		return NULL;
	}
	if (t->proxy_gone) {
		tmpl_error(error, ENODEV,
			"the e-switch's transfer proxy was released, and with it every template, table and template rule: close and probe the port again");
		return NULL;
	}
	return t;
}

static inline void
flow_lock(struct rte_eth_dev *dev)
{
	pthread_mutex_lock(&dev->data->flow_ops_mutex);
}

static inline void
flow_unlock(struct rte_eth_dev *dev)
{
	pthread_mutex_unlock(&dev->data->flow_ops_mutex);
}

/* ---- a rule's items on the proxy --------------------------------------- */

/*
 * The items of a pattern template or rule as the proxy takes them: the
 * application's, behind a REPRESENTED_PORT item naming the wire where the
 * members' e-switch also runs transfer rules on what its ports send
 * (mlx5 with hardware steering, facts F9: octopus_steer_wire_item_probe()).
 * Without it a rule in transfer group 0 would take the members' own Tx
 * back to their Rx queues. In other groups it holds for every frame (they
 * come there from group 0's rules, which name the wire).
 */
struct tmpl_hw_items {
	struct rte_flow_item items[TMPL_MAX_ITEMS + 2];
	struct rte_flow_item_ethdev wire;
};

/* @p pattern's @p n items (END excluded: a rule has its template's) */
static inline const struct rte_flow_item *
hw_items(const struct octopus_tmpl *t, const struct rte_flow_item *pattern, unsigned int n,
		struct tmpl_hw_items *h)
{
	if (!t->shape.wire_item)
		return pattern;
	octopus_steer_wire_item_set(&h->items[0], &h->wire, t->proxy);
	memcpy(&h->items[1], pattern, n * sizeof(*pattern));
	memset(&h->items[n + 1], 0, sizeof(h->items[n + 1]));
	h->items[n + 1].type = RTE_FLOW_ITEM_TYPE_END;
	return h->items;
}

/* ---- rule copies (Restart) --------------------------------------------- */

/*
 * Where the members keep no rules across their stop (no
 * RTE_ETH_DEV_CAPA_FLOW_RULE_KEEP: mlx5, facts F7), the port keeps each
 * template rule's pattern specs and actions' confs, so that it can take
 * the rule off the proxy before the members stop and make it again once
 * they run (octopus_tmpl_park, octopus_tmpl_replay); a rule made while
 * the port is stopped waits in its copy only. A copy is what the rule's
 * templates leave to it, packed, beside its record:
 *   header, the pattern's specs (the table's pt_room), and the actions'
 *   part twice (at_room each: an update writes the slot not in use, which
 *   becomes the rule's when the update completes).
 */
struct tmpl_copy_hdr {
	uint32_t specs;		/* bit k: spec k of the pattern template given */
	uint8_t slot;		/* the actions' part in use */
	uint8_t pad[3];
	struct {
		uint32_t confs;	/* bit k: conf k of the actions template given */
		uint32_t value;	/* the QUEUE index or JUMP group the rule gave */
	} act[2];
};

static inline uint8_t *
copy_of(const struct octopus_tmpl_table *tb, const struct octopus_tmpl_rule *r)
{
	size_t idx = (size_t)(((const char *)r - tb->recs.base) >> tb->recs.shift);

	return tb->copies + idx * tb->copy_size;
}

/* ---- what the files call of each other ---------------------------------- */

/* octopus_flow_tmpl.c: templates and tables, in the ops table */
struct rte_flow_pattern_template *octopus_tmpl_pattern_create(struct rte_eth_dev *dev,
		const struct rte_flow_pattern_template_attr *attr,
		const struct rte_flow_item pattern[], struct rte_flow_error *error);
int octopus_tmpl_pattern_destroy(struct rte_eth_dev *dev,
		struct rte_flow_pattern_template *handle, struct rte_flow_error *error);
struct rte_flow_actions_template *octopus_tmpl_actions_create(struct rte_eth_dev *dev,
		const struct rte_flow_actions_template_attr *attr,
		const struct rte_flow_action actions[], const struct rte_flow_action masks[],
		struct rte_flow_error *error);
int octopus_tmpl_actions_destroy(struct rte_eth_dev *dev,
		struct rte_flow_actions_template *handle, struct rte_flow_error *error);
struct rte_flow_template_table *octopus_tmpl_table_create(struct rte_eth_dev *dev,
		const struct rte_flow_template_table_attr *attr,
		struct rte_flow_pattern_template *pts[], uint8_t nb_pt,
		struct rte_flow_actions_template *ats[], uint8_t nb_at,
		struct rte_flow_error *error);
int octopus_tmpl_table_destroy(struct rte_eth_dev *dev,
		struct rte_flow_template_table *handle, struct rte_flow_error *error);

/* octopus_flow_queue.c: the flow queues' operations, in the ops tables */
struct rte_flow *octopus_tmpl_async_create(struct rte_eth_dev *dev, uint32_t queue_id,
		const struct rte_flow_op_attr *op_attr, struct rte_flow_template_table *table,
		const struct rte_flow_item pattern[], uint8_t pt_index,
		const struct rte_flow_action actions[], uint8_t at_index,
		void *user_data, struct rte_flow_error *error);
int octopus_tmpl_async_destroy(struct rte_eth_dev *dev, uint32_t queue_id,
		const struct rte_flow_op_attr *op_attr, struct rte_flow *flow,
		void *user_data, struct rte_flow_error *error);
#if OCTO_DPDK_HAS_FLOW_ACTIONS_UPDATE
int octopus_tmpl_async_update(struct rte_eth_dev *dev, uint32_t queue_id,
		const struct rte_flow_op_attr *op_attr, struct rte_flow *flow,
		const struct rte_flow_action actions[], uint8_t at_index,
		void *user_data, struct rte_flow_error *error);
#else
/* OCTO_DPDK_FLOW_FP_OPS_IN_OPS names it; this DPDK has no actions update */
#define octopus_tmpl_async_update NULL
#endif
int octopus_tmpl_push(struct rte_eth_dev *dev, uint32_t queue_id,
		struct rte_flow_error *error);
int octopus_tmpl_pull(struct rte_eth_dev *dev, uint32_t queue_id,
		struct rte_flow_op_result res[], uint16_t n_res, struct rte_flow_error *error);
/*
 * For the port's own operations (Restart): the proxy's actions of a rule
 * of actions template @p at (actions_of), and a completion of the
 * application's translated and kept for its pull. Out of line: the
 * application's operations keep their inlined steps.
 */
const struct rte_flow_action *octopus_tmpl_rule_actions(const struct octopus_tmpl *t,
		struct octopus_tmpl_queue *q, const struct octopus_tmpl_actions *at,
		const struct rte_flow_action actions[], uint16_t nb_rxq, uint64_t *qs,
		uint32_t *value, struct rte_flow_error *error);
void octopus_tmpl_op_stash(struct octopus_priv *p, struct octopus_tmpl_queue *q,
		struct rte_flow_op_result *res);

#endif /* OCTOPUS_FLOW_TMPL_PRIV_H */
