/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTONIC_ESW_INTERNAL_H
#define OCTONIC_ESW_INTERNAL_H

/*
 * Inside the e-switch.  Shared by eswitch/octonic_esw*.c only.
 *
 * Layers, top first (eswitch/meson.build lists the files so; a file calls
 * only files below it, the octonic_eswitch_layers test fails on a call
 * back up or a global without the octonic_esw prefix): esw (lifetime,
 * flush, a port's stop), template, queue, slot, rules, actions, dialect,
 * classify, cache, rss, dump, rcu (readers, grace periods), log.
 *
 * Lookup structure (tuple-space search): one rte_hash per distinct match
 * mask ("table"), shared by all domains and groups; its key is the compact
 * key (struct octo_key_layout) of the masked flow key under the id of the
 * (domain, group, table), its value an immutable bucket: the rules with
 * exactly that match, sorted by (priority, creation order).  A published
 * "view" lists, for every (domain, group), the tables to probe.  Cost per
 * packet and stage: one masked hash lookup per distinct mask of the group,
 * independent of the number of rules.
 *
 * Consistency: each rule carries the generations [born, dead) in which it
 * exists; the control path bumps sw->gen once per change, after the change
 * is fully in place (create) or before it is taken out (destroy).  A
 * classify call reads sw->gen once and ignores rules outside it, so every
 * packet sees exactly the rule set of one generation.  Memory unlinked by
 * the control path (buckets, views, tables, rules) is freed only after a
 * grace period: rte_rcu_qsbr for lcores, two epoch counters for threads
 * without an lcore id.
 */

#include <assert.h>
#include <pthread.h>
#include <stdalign.h>
#include <stdint.h>
#include <sys/queue.h>

#include <rte_flow.h>
#include <rte_hash.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_rcu_qsbr.h>
#include <octopus_dpdk_compat.h>

#include "octo_classifier.h"
#include "octonic_eswitch.h"

extern int octonic_esw_logtype;
#define RTE_LOGTYPE_NET_OCTONIC_FLOW octonic_esw_logtype
#define SW_LOG(level, ...) \
	RTE_LOG_LINE(level, NET_OCTONIC_FLOW, "octonic_flow: " __VA_ARGS__)

#define SW_MAX_PFS 8
/** Domain 0 is the transfer domain, 1 + pf the ingress of PF pf. */
#define SW_DOM_TRANSFER 0
#define SW_NB_DOMAINS (1 + SW_MAX_PFS)
#define SW_GEN_INF UINT64_MAX
/** Tables start with this many entries and grow x4 at half load. */
#define SW_TABLE_MIN 1024
#define SW_RULE_MAGIC 0x6f63666cu
/* A handle whose rule a port's stop flushed (in sw->flushed). */
#define SW_RULE_FLUSHED 0x6f636664u
/** JUMPs followed per domain: groups strictly increase on JUMP, so this
 * only caps long chains.
 */
#define SW_MAX_STAGES 16

enum sw_fate {
	SW_FATE_NONE = 0,
	SW_FATE_DROP,
	SW_FATE_JUMP,
	SW_FATE_PORT,	/* transfer: to a PF */
	SW_FATE_QUEUE,	/* ingress */
	SW_FATE_RSS,	/* ingress */
};

/** RSS configuration of an RSS action or of a PF's default. */
struct sw_rss_action {
	uint64_t types;		/* RTE_ETH_RSS_* */
	/* rte_softrss() reads the key as 32-bit words */
	alignas(sizeof(uint32_t)) uint8_t key[OCTONIC_RSS_KEY_LEN];
	uint8_t custom_key;	/* 1: key given in the action (for the dump) */
	uint16_t nb_queues;
	uint16_t queues[];
};

/** sw_hot::flags: what a rule does besides its fate. */
#define SW_HOT_SET_META 0x01
#define SW_HOT_MARK 0x02
#define SW_HOT_FLAG 0x04
#define SW_HOT_COUNT 0x08
/** Highest rule priority (a hot record keeps it in 16 bits). */
#define SW_MAX_PRIO UINT16_MAX

/**
 * What the classifier reads of every rule it finds: 32 bytes, two per cache
 * line.  Hot records are carved from large chunks (struct
 * octonic_eswitch::hot_chunks) so that 100k rules span 3 MB of contiguous
 * memory instead of 100k scattered pages: at that size TLB and cache misses
 * dominate a lookup, and the footprint of these records shows directly in the
 * rate (tests/bench/bench_eswitch compares 100k rules with 10: the smaller the
 * record, the closer the two).  A rule whose fate is QUEUE, PORT, JUMP or DROP
 * is decided from this record alone; the rest (SET_META and MARK values,
 * counters, RSS, and the creation order that breaks ties between tables) is
 * read from the rule itself. Immutable once published, except dead.
 */
struct __rte_aligned(32) sw_hot {
	uint64_t born;		/* first generation that sees the rule */
	RTE_ATOMIC(uint64_t) dead;	/* first generation that does not */
	struct rte_flow *cold;	/* the rule */
	uint32_t arg;		/* PF (PORT), queue (QUEUE), group (JUMP) */
	uint16_t prio;
	uint8_t fate;		/* enum sw_fate */
	uint8_t flags;		/* SW_HOT_* */
};

/** Hot records per chunk (128 KB). */
#define SW_HOT_CHUNK 4096

/** A rule as the control path knows it (the rte_flow handle). */
struct rte_flow {
	struct sw_hot *hot;	/* what every lookup reads */
	/* COUNT, updated atomically by readers. */
	RTE_ATOMIC(uint64_t) hits;
	RTE_ATOMIC(uint64_t) bytes;
	struct sw_rss_action *rss;
	/* Decision fields, immutable once inserted: the hot record has a
	 * copy of those every lookup needs, readers read the others here.
	 */
	uint64_t seq;
	/* Order among rules of equal priority, lower first: seq, or its
	 * reverse where the newest wins (sw_rule_order)
	 */
	uint64_t order;
	uint32_t prio;
	uint32_t jump_group;
	uint32_t meta_data, meta_mask;
	uint32_t mark;
	uint16_t fate_arg;
	uint8_t fate;
	uint8_t has_set_meta;
	uint8_t has_mark;
	uint8_t has_flag;
	uint8_t has_count;
	/* Control-path only. */
	uint32_t magic;
	const struct octonic_eswitch *sw;
	uint16_t domain;
	uint16_t port_id;	/* REPRESENTED_PORT's port, for the dump */
	uint32_t group;
	uint32_t table;		/* index in sw->tables */
	/*
	 * table set before the insert: that of the
	 * match's mask, reserved (template rules)
	 */
	uint8_t table_known;
	/* unlinked, the handle stays (flushed at a port's stop: sw->flushed) */
	uint8_t keep_handle;
	uint32_t dgt_id;	/* first word of its hash key */
	struct octo_match match;
	TAILQ_ENTRY(rte_flow) next;
	/* Rules of template tables (octonic_esw_template.h); NULL, 0 for
	 * rules of rte_flow_create.
	 */
	struct rte_flow_template_table *ttable;	/* whose slot this is */
	/*
	 * the handle's rule in the tables: itself,
	 * or what an actions update put there
	 */
	struct rte_flow *live;
	uint8_t tstate;		/* enum sw_tstate */
};
TAILQ_HEAD(sw_rule_list, rte_flow);

/** Actions a plan holds at most (SW_TMPL_MAX_ACTIONS of a template). */
#define SW_APLAN_MAX 16

/**
 * An actions template's rules in a table, parsed once (octonic_esw_aplan_build):
 * the decision fields of the actions every rule has alike, and the
 * actions each rule's parse still reads (its own conf, or the PF's state).
 * ok 0: the template's rules are parsed whole (octonic_esw_actions_parse).
 */
struct sw_aplan {
	uint8_t ok;
	uint8_t nb_open;
	uint8_t has_base;		/* base sets a field */
	uint8_t open[SW_APLAN_MAX];	/* indexes of the actions parsed per rule */
	struct rte_flow base;		/* the others' decision fields */
};

/** Value: the rules with one exact (domain, group, masked key). */
struct sw_bucket {
	uint32_t n;
	struct sw_hot *r[];	/* sorted by (prio, seq) */
};

/*
 * A hash value ("entry") is either one rule's hot record, tagged with
 * bit 0 (records are 32-byte aligned), or a bucket of two or more.  The
 * common case, one rule per exact match, then costs readers no extra
 * dependent load.
 */
static inline void *
sw_entry_one(struct sw_hot *r)
{
	return (void *)((uintptr_t)r | 1);
}

static inline int
sw_entry_is_one(const void *e)
{
	return ((uintptr_t)e & 1) != 0;
}

static inline struct sw_hot *
sw_entry_rule(const void *e)
{
	return (struct sw_hot *)((uintptr_t)e & ~(uintptr_t)1);
}

/** Control-side record of one distinct mask. */
struct sw_table {
	struct octo_flow_key mask;
	struct octo_key_layout layout;
	struct rte_hash *h;	/* NULL: slot unused */
	uint32_t capacity;
	uint32_t nb_keys;
	uint32_t reserved;	/* keys template tables hold room for */
	uint32_t tmpl_rules;	/* template rules in it (using that room) */
};

/** Control-side count of the rules of one (domain, group, table). */
struct sw_dgt {
	uint16_t domain;
	uint32_t group;
	uint32_t table;
	uint32_t nb_rules;
	uint32_t id;		/* first word of its hash keys; never reused */
};

/** What a reader probes for one (domain, group). */
struct sw_probe {
	struct rte_hash *h;
	uint32_t id;		/* of the (domain, group, table) */
	struct octo_key_layout layout;
};

struct sw_gview {
	uint32_t group;
	uint32_t nb_probes;
	struct sw_probe *probes;
};

/** Published lookup plan; immutable, replaced as a whole. */
struct sw_view {
	uint32_t nb_groups[SW_NB_DOMAINS];
	struct sw_gview *groups[SW_NB_DOMAINS];	/* sorted by group */
};

/** A PF's default RSS state; immutable, replaced as a whole. */
struct sw_pf_rss {
	uint64_t hf;
	uint16_t nb_rxq;
	/* rte_softrss() reads the key as 32-bit words */
	alignas(sizeof(uint32_t)) uint8_t key[OCTONIC_RSS_KEY_LEN];
	uint16_t reta[OCTONIC_RETA_SIZE];
};

struct sw_pf {
	uint16_t port_id;
	uint8_t port_set;
	RTE_ATOMIC(uint8_t) isolated;	/* read by the classifier */
	RTE_ATOMIC(struct sw_pf_rss *) rss;	/* RCU-published */
};

struct octonic_eswitch {
	/* Reader-visible, RCU-published. */
	RTE_ATOMIC(uint64_t) gen;
	/* Bumped (release) after a PF's RSS state or isolation changed: with
	 * gen, it tells a remembered verdict (sw_cache_*) still holds.
	 */
	RTE_ATOMIC(uint32_t) cfg_epoch;
	RTE_ATOMIC(struct sw_view *) view;
	struct sw_pf pf[SW_MAX_PFS];
	uint16_t nb_pfs;
	int socket;
	uint32_t id;		/* unique, names the hash tables */
	/* Readers without an lcore id. */
	RTE_ATOMIC(uint32_t) anon_epoch;
	RTE_ATOMIC(uint32_t) anon_cnt[2];
	uint8_t lcore_registered[RTE_MAX_LCORE];
	struct rte_rcu_qsbr *qsbr;
	/* 1 while a writer sleeps until a reader leaves (a futex word: the
	 * reader that sees it clears it and wakes the writer).
	 */
	RTE_ATOMIC(uint32_t) writer_sleeps;
	/* Control path, under lock. */
	pthread_mutex_t lock;
	struct sw_rule_list rules;
	uint64_t next_seq;
	uint32_t table_serial;
	struct sw_table *tables;
	uint32_t nb_tables;	/* slots in tables[] */
	uint32_t table_hint;	/* the table octonic_esw_table_index() found last */
	struct sw_dgt *dgts;
	uint32_t nb_dgts, max_dgts;
	uint32_t dgt_hint;	/* the entry dgt_find() found last */
	uint32_t next_dgt_id;
	void **hot_chunks;	/* rte_malloc'd chunks of SW_HOT_CHUNK records */
	uint32_t nb_hot_chunks;
	struct sw_hot **hot_free;	/* stack of free records (malloc) */
	uint32_t nb_hot_free;
	struct octonic_eswitch_stats stats;
	uint32_t room;		/* rules the tables take (all domains), 0: no limit */
	enum octonic_dialect dialect;	/* set once, before any rule */
	uint8_t xmeta;		/* mlx5's dv_xmeta_en mode, mlx5 dialects */
	uint16_t mlx5_dpdk;	/* OCTONIC_MLX5_DPDK_*: whose mlx5 they follow */
	uint8_t fdb_mark;	/* the NIC can MARK in transfer rules */
	uint8_t uplinks;	/* REPRESENTED_PORT leaves by the PF's wire */
	struct sw_fport *fport[SW_MAX_PFS];	/* template API per PF, NULL: none */
	/* Handles of rules a port's stop flushed (mlx5 dialects): kept until
	 * the application destroys them or the e-switch goes, so that a
	 * destroy of one is answered, never a read of freed memory.
	 */
	struct sw_rule_list flushed;
	/* mlx5-hws: the PF's flow engine exists (mlx5's dr_ctx: made by
	 * rte_flow_configure, and from 25.11 by the port's first start)
	 */
	uint8_t flow_ctx[SW_MAX_PFS];
	char name[32];
};

/* octonic_esw_rcu.c */
void octonic_esw_synchronize(struct octonic_eswitch *sw);
/* octonic_esw_log.c */
/* Log a refusal and fill @p error with it, as rte_flow_error_set: returns -@p code. */
int octonic_esw_error(struct rte_flow_error *error, int code,
		enum rte_flow_error_type type, const void *cause, const char *fmt, ...)
	__rte_format_printf(5, 6);
int octonic_esw_no_pf(struct rte_flow_error *error, uint16_t pf);

/* octonic_esw_rss.c */
void octonic_esw_rss_default_key(uint8_t key[OCTONIC_RSS_KEY_LEN]);
/* @p key: OCTONIC_RSS_KEY_LEN bytes, 4-byte aligned (read as words) */
int octonic_esw_rss_hash(const struct octo_flow_key *k, uint64_t types,
		const uint8_t *key, uint32_t *hash);

/*
 * Where a frame entered the e-switch (octo_flow_key.layers'
 * OCTO_L_IN_PORT bits, sw_src_set): the wire,
 * or PF pf's Tx (under mlx5-hws, whose transfer rules see what every port
 * sends, F9).  A REPRESENTED_PORT item names one: PF0's port the wire
 * (PF0 is the uplink's representor, as mlx5's transfer proxy is), port_id
 * 0xffff PF0's own Tx (the e-switch manager's), another PF's port its Tx.
 */
#define SW_SRC_WIRE 1
#define SW_SRC_PF(pf) (2 + (pf))
static_assert(SW_SRC_PF(SW_MAX_PFS - 1) <= OCTO_L_IN_PORT >> OCTO_L_IN_PORT_SHIFT,
	"every source fits the key's source bits");

/* Key @p k's source set to @p src (0: any). */
static inline void
sw_src_set(struct octo_flow_key *k, uint16_t src)
{
	k->layers = (uint16_t)((k->layers & ~OCTO_L_IN_PORT) |
		(src << OCTO_L_IN_PORT_SHIFT));
}

static inline uint16_t
sw_src_of(const struct octo_flow_key *k)
{
	return (k->layers & OCTO_L_IN_PORT) >> OCTO_L_IN_PORT_SHIFT;
}

/* octonic_esw_actions.c */
/* The PF whose port is @p port_id, -1 if none. */
int octonic_esw_pf_of_port(const struct octonic_eswitch *sw, uint16_t port_id);
int octonic_esw_actions_parse(struct octonic_eswitch *sw, uint16_t pf,
		const struct rte_flow_attr *attr, const struct rte_flow_action actions[],
		struct rte_flow *r, struct rte_flow_error *error);

/* Plan the rules of actions template @p tmpl (@p n actions, @p fixed: the
 * template fixes action i's conf) in a table of @p attr.
 */
void octonic_esw_aplan_build(struct octonic_eswitch *sw, uint16_t pf,
		const struct rte_flow_attr *attr, const struct rte_flow_action tmpl[],
		const uint8_t fixed[], uint32_t n, struct sw_aplan *p);
/* What octonic_esw_actions_parse makes of the template's actions with the rule's
 * confs (@p actions) where the template leaves them open, through plan
 * @p p (ok) on a zeroed @p r: the same fields, the same refusals.
 */
int octonic_esw_aplan_apply(struct octonic_eswitch *sw, uint16_t pf,
		const struct rte_flow_attr *attr, const struct sw_aplan *p,
		const struct rte_flow_action tmpl[], const uint8_t fixed[],
		const struct rte_flow_action actions[], struct rte_flow *r,
		struct rte_flow_error *error);

/* octonic_esw_cache.c: verdicts remembered per flow key */
uint32_t octonic_esw_cache_hash(const struct octo_flow_key *k);
int octonic_esw_cache_get(const struct octonic_eswitch_cache *c,
		const struct octo_flow_key *k, uint32_t hash, uint64_t gen,
		uint32_t cfg, struct octonic_verdict *v);
void octonic_esw_cache_put(struct octonic_eswitch_cache *c, const struct octo_flow_key *k,
		uint32_t hash, uint64_t gen, uint32_t cfg,
		const struct octonic_verdict *v);

/* octonic_esw_dialect.c: what a real NIC refuses (octonic.rst "Dialects") */
const char *octonic_esw_dialect_name(const struct octonic_eswitch *sw);
/* 0, or ENOTSUP where the dialect has no template API (mlx5-sws): @p op,
 * the operation refused, names it in the message
 */
int octonic_esw_dialect_templates(const struct octonic_eswitch *sw, const char *op,
		struct rte_flow_error *error);
/* Where actions are checked (@p where of the checks below): 0 a rule of
 * rte_flow_create, or a template table, specialised for frames from the
 * wire or not.
 */
#define SW_CHK_TABLE 0x1
#define SW_CHK_WIRE_ORIG 0x2
int octonic_esw_dialect_check(const struct octonic_eswitch *sw,
		const struct rte_flow_attr *attr, const struct rte_flow_item pattern[],
		const struct rte_flow_action actions[], unsigned int where,
		struct rte_flow_error *error);
/* Its two halves: what the attributes and pattern must be, what the
 * actions must be (under mlx5-hws rte_flow_validate checks the first only).
 */
int octonic_esw_dialect_check_pattern(const struct octonic_eswitch *sw,
		const struct rte_flow_attr *attr, const struct rte_flow_item pattern[],
		struct rte_flow_error *error);
int octonic_esw_dialect_check_actions(const struct octonic_eswitch *sw,
		const struct rte_flow_attr *attr,
		const struct rte_flow_action actions[], unsigned int where,
		struct rte_flow_error *error);
/* What an actions template must be (mlx5-hws: no SET_META, MODIFY_FIELD
 * masks full); @p masks has the actions' types (checked before).
 */
int octonic_esw_dialect_check_actions_template(const struct octonic_eswitch *sw,
		const struct rte_flow_action actions[],
		const struct rte_flow_action masks[], struct rte_flow_error *error);
/** fate_arg of a REPRESENTED_PORT to an uplink (sw->uplinks): the PF
 *  index ORed with this.
 */
#define SW_PORT_UPLINK 0x8000

/** PORT_REPRESENTOR's port_id for the e-switch manager (mlx5-hws). */
#define SW_ESW_MANAGER_PORT UINT16_MAX

/* octonic_esw_rules.c */
void octonic_esw_rules_free_all(struct octonic_eswitch *sw);
/* Remove the rules of domain @p dom made by rte_flow_create (or every
 * rule of all domains when dom < 0); with @p keep their handles stay, in
 * sw->flushed.  Rules of template tables stay (octonic_esw_fport_flush_rules
 * takes those).  @return the number of rules removed or -ENOMEM.
 */
int octonic_esw_rules_flush_domain(struct octonic_eswitch *sw, int dom, int keep);
/* The steps of rte_flow_create and _destroy, for template rules; all under
 * sw->lock.
 */
int octonic_esw_check_attr(struct octonic_eswitch *sw, uint16_t pf,
		const struct rte_flow_attr *attr, struct rte_flow_error *error);
/* The rule's place: domain, group and priority (from @p attr). */
static inline void
sw_rule_place(uint16_t pf, const struct rte_flow_attr *attr, struct rte_flow *r)
{
	r->domain = attr->transfer ? SW_DOM_TRANSFER : 1 + pf;
	r->group = attr->group;
	r->prio = attr->priority;
}
/* The source a REPRESENTED_PORT item @p it names, into @p m's key and
 * mask (nothing for an item that names none).
 */
int octonic_esw_port_item_src(const struct octonic_eswitch *sw, const struct rte_flow_item *it,
		struct octo_match *m, struct rte_flow_error *error);
/* @p pattern's match (a REPRESENTED_PORT item under mlx5-hws in transfer
 * rules included: its source bits).
 */
int octonic_esw_pattern_parse(const struct octonic_eswitch *sw,
		const struct rte_flow_attr *attr, const struct rte_flow_item pattern[],
		struct octo_match *m, struct rte_flow_error *error);
/* Match and actions of @p r (no attr or dialect check). */
int octonic_esw_rule_parse(struct octonic_eswitch *sw, uint16_t pf,
		const struct rte_flow_attr *attr, const struct rte_flow_item pattern[],
		const struct rte_flow_action actions[], struct rte_flow *r,
		struct rte_flow_error *error);
/* Put a parsed @p r in the tables: readers see it from the next
 * generation on; the caller owes a grace period (octonic_esw_synchronize) before it
 * reports the rule made (see octonic_eswitch_flow_create).  @p seq: its
 * place among rules of equal priority (that of a rule it replaces), or
 * UINT64_MAX: after every rule so far.
 */
int octonic_esw_rule_add(struct octonic_eswitch *sw, struct rte_flow *r, uint64_t seq,
		struct rte_flow_error *error);
/* Rules stop matching from the next generation on (still in the tables). */
void octonic_esw_rules_kill(struct octonic_eswitch *sw, struct rte_flow **rs, uint32_t n);
/* Room for @p n more keys of @p mask (n < 0: release it), as a NIC
 * sizes a template table's matcher at its creation: template rules then
 * never wait for a table to grow.
 */
int octonic_esw_table_reserve(struct octonic_eswitch *sw, const struct octo_flow_key *mask,
		int64_t n);
/* The index in sw->tables of @p mask's table, -1 if none. */
int octonic_esw_table_index(struct octonic_eswitch *sw, const struct octo_flow_key *mask);
/* Killed rules leave the tables once no reader sees them; on return their
 * memory is no reader's (template slots are the caller's to reuse).
 */
void octonic_esw_rules_unlink(struct octonic_eswitch *sw, struct rte_flow **rs, uint32_t n);
/* octonic_esw_template.c: a PF's template API state goes at its close */
struct sw_fport;
void octonic_esw_fport_free(struct octonic_eswitch *sw, uint16_t pf);
/* Under sw->lock: every rule of the PF's template tables goes (its
 * queues' operations completed first, their results dropped); tables,
 * templates and queues stay.
 */
void octonic_esw_fport_flush_rules(struct octonic_eswitch *sw, uint16_t pf);

#endif /* OCTONIC_ESW_INTERNAL_H */
