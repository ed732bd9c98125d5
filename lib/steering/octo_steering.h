/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTO_STEERING_H
#define OCTO_STEERING_H

/**
 * @file
 * The steering planner: which rte_flow rules make each virtual queue's
 * traffic arrive at its home member (PF), as plain data, and which rules a
 * change (a queue's new home, a bucket's new queue) adds and removes.
 * No EAL, no rte_flow structures: octopus_steer.c turns these rules into
 * rte_flow calls, and unit tests check them directly.
 *
 * The model (lower priority value wins, as in rte_flow):
 *
 *  - transfer group 0 (conf class_group), classification: "traffic of bucket b" ->
 *    SET_META(q) + JUMP(home group), with q = reta[b]; a catch-all for
 *    everything no bucket matches (ARP, non-IP, ...) at the lowest priority;
 *  - transfer home group: META == q -> REPRESENTED_PORT(home member of q),
 *    one rule per queue, matching META's queue half only;
 *  - every member's ingress, group 0: META == q -> QUEUE(q), one rule per
 *    queue, identical on all members and never changed.
 *
 * Moving queue q to another member replaces only q's home rule, however
 * many buckets (or, later, application flows) select q: O(1) rule updates.
 *
 * Default spreading, unlike Toeplitz RSS: a bucket is the low log2(reta_size)
 * bits of one header field, taken as they are (no hash).  Which queue a flow
 * reaches is therefore predictable from its header alone, a bucket is a
 * rule the NIC matches exactly, and reta_update rewrites that one bucket's
 * rules.  The price is that spreading is only as even as the low bits of the
 * field are (ephemeral source ports are; hand-picked ones may not be), and
 * that only one field is used rather than a hash of the whole tuple.
 *
 * As with Toeplitz RSS over L4 ports, IP fragments without an L4 header
 * are spread by the address rule of their bucket, so a flow's non-first
 * fragments may reach another queue than its first one.
 *
 * Buckets per field:
 *  - L4_SRC/L4_DST: per bucket one rule for each of IPv4/TCP, IPv4/UDP,
 *    IPv6/TCP, IPv6/UDP over the L4 port, plus one for each of IPv4 and
 *    IPv6 over the low bits of the IP address of the same direction
 *    (source for L4_SRC, destination for L4_DST) for other IP traffic
 *    (6 rules per bucket);
 *  - IP_SRC/IP_DST: per bucket one rule for each of IPv4 and IPv6 over the
 *    low 32 bits of the address (2 rules per bucket).
 *
 * Make-before-break: every rule has two priority levels ("slots") and a
 * replacement is always "add the new rule at the other level, then remove
 * the old one", so some rule always matches.  When the new rule sits at the
 * winning (numerically lower) level, the traffic switches at the add;
 * otherwise it switches at the removal (equal or lower levels never win
 * over a rule installed earlier).  octo_steer_change.switch_op says which,
 * so a caller that must drain the old path (queue migration) knows when the
 * old path stopped receiving.  Initial rules use the losing level, so the
 * first change of any rule switches at the add.
 *
 * The application's rules sit on top, without changing this layout: an app
 * rule is a classification rule in transfer group 0 at priority
 * OCTO_STEER_PRIO_APP(app priority, level), above every default bucket, or
 * in an app group below the home group; QUEUE(q) becomes SET_META(q) +
 * JUMP(home group), so the app rule follows q's home rule like the buckets
 * do and a migration still replaces only that one home rule.  Replacing an
 * app rule uses the same two-level add-then-remove order.
 */

#include <stdint.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Header bits that choose a bucket (same values as enum octopus_spread_field). */
enum octo_steer_field {
	OCTO_STEER_FIELD_L4_SRC = 0,	/**< TCP/UDP source port */
	OCTO_STEER_FIELD_L4_DST,	/**< TCP/UDP destination port */
	OCTO_STEER_FIELD_IP_SRC,	/**< IP source address, low 32 bits */
	OCTO_STEER_FIELD_IP_DST,	/**< IP destination address, low 32 bits */
	OCTO_STEER_FIELD_NONE,		/**< no field match (catch-all, META rules) */
	OCTO_STEER_FIELD_MAX = OCTO_STEER_FIELD_NONE,
};

/** Where a rule lives. */
enum octo_steer_domain {
	OCTO_STEER_DOM_TRANSFER = 0,	/**< e-switch, through the transfer proxy */
	OCTO_STEER_DOM_INGRESS,		/**< a member's own ingress */
};

/** What a rule is for (and which actions it has). */
enum octo_steer_kind {
	OCTO_STEER_KIND_BUCKET = 0,	/**< classification: SET_META(q) + JUMP(H) */
	OCTO_STEER_KIND_CATCHALL,	/**< classification of what no bucket takes */
	OCTO_STEER_KIND_HOME,		/**< META == q -> REPRESENTED_PORT(member) */
	OCTO_STEER_KIND_QUEUE,		/**< member ingress: META == q -> QUEUE(q) */
};

/** L3 protocol a pattern requires (the pattern's IP item). */
#define OCTO_STEER_L3_ANY 0
#define OCTO_STEER_L3_IPV4 4
#define OCTO_STEER_L3_IPV6 6
/** L4 protocol a pattern requires (IPPROTO_* numbers; 0: no L4 item). */
#define OCTO_STEER_L4_ANY 0
#define OCTO_STEER_L4_TCP 6
#define OCTO_STEER_L4_UDP 17

/** Limits. */
#define OCTO_STEER_MAX_MEMBERS 8
#define OCTO_STEER_MAX_QUEUES 1024
#define OCTO_STEER_MAX_RETA 4096
/** Most rules per bucket (L4 fields: 4 L4 + 2 IP-other). */
#define OCTO_STEER_RULES_PER_BUCKET 6

/**
 * Transfer group 0 priorities (lower wins).  0..OCTO_STEER_PRIO_BUCKET_L4-1
 * are left to the application's rules, above every default.
 * Each class has two levels (base, base + 1) for make-before-break.
 */
#define OCTO_STEER_PRIO_APP_LEVELS 16	/**< app priorities 0..15, 2 levels each */
#define OCTO_STEER_PRIO_BUCKET_L4 (2 * OCTO_STEER_PRIO_APP_LEVELS)
#define OCTO_STEER_PRIO_BUCKET_IP (OCTO_STEER_PRIO_BUCKET_L4 + 2)
#define OCTO_STEER_PRIO_CATCHALL (OCTO_STEER_PRIO_BUCKET_IP + 2)
/**
 * Transfer group 0 priority of an application rule of priority @p p
 * (0..OCTO_STEER_PRIO_APP_LEVELS-1) at make-before-break level @p l (0, 1):
 * every application rule wins over the default buckets.
 */
#define OCTO_STEER_PRIO_APP(p, l) (2u * (p) + (l))
/** Home group and member ingress rules: levels 0 and 1. */
#define OCTO_STEER_PRIO_HOME 0
#define OCTO_STEER_PRIO_QUEUE 0
/**
 * META carries the queue in its low half.  Its high half is 0 in the
 * steering's own writes; an application rule whose MARK or FLAG goes to
 * the members' ingress stage writes its tag there (octo_steer_app.h).  The
 * home rules match the queue half only, the member queue rules all of META.
 */
#define OCTO_STEER_META_QUEUE_MASK 0xffffu
#define OCTO_STEER_META_TAG_SHIFT 16
/** Tags 1 .. OCTO_STEER_MARK_TAGS - 1 (0: no tag). */
#define OCTO_STEER_MARK_TAGS 0x10000u
/**
 * Default transfer group of the home rules.  It is above every group an
 * application rule may use (1..OCTO_STEER_HOME_GROUP-1, the application's
 * groups), because a JUMP must go to a higher group: an app
 * rule in any of those groups can still end in SET_META(q) + JUMP(home).
 */
#define OCTO_STEER_HOME_GROUP 64

/** What the planner needs (indices only; no port ids). */
struct octo_steer_plan_conf {
	uint16_t nb_members;		/**< 1..OCTO_STEER_MAX_MEMBERS */
	uint16_t nb_queues;		/**< 1..OCTO_STEER_MAX_QUEUES */
	const uint16_t *home;		/**< [nb_queues] home member of each queue */
	uint16_t reta_size;		/**< buckets: power of 2, 1..OCTO_STEER_MAX_RETA */
	const uint16_t *reta;		/**< [reta_size] bucket -> queue */
	enum octo_steer_field field;	/**< field of the buckets */
	uint16_t catchall_queue;	/**< queue of unmatched traffic */
	/**
	 * Transfer group of the classification rules: 0, the root table, or
	 * a non-zero one for a NIC that refuses them in the root table (the
	 * caller then jumps from group 0 to it)
	 */
	uint32_t class_group;
	uint32_t home_group;		/**< 0: OCTO_STEER_HOME_GROUP + class_group */
};

/** One planned rule. */
struct octo_steer_rule {
	enum octo_steer_kind kind;
	enum octo_steer_domain domain;
	uint16_t member;	/**< INGRESS: the member it is created on */
	uint32_t group;
	uint32_t priority;
	/* pattern: ETH [/ IPV4|IPV6 [/ TCP|UDP]] with one masked field, or META */
	uint8_t l3;		/**< OCTO_STEER_L3_* */
	uint8_t l4;		/**< OCTO_STEER_L4_* */
	enum octo_steer_field field;	/**< matched field, NONE for none */
	uint32_t value;		/**< field value (host order), under mask */
	uint32_t mask;		/**< field mask (host order) */
	uint8_t match_meta;	/**< pattern is META == meta_match alone */
	uint32_t meta_match;
	uint32_t meta_mask;	/**< bits of META matched */
	/* actions */
	uint32_t set_meta;	/**< BUCKET/CATCHALL: SET_META(set_meta) */
	uint32_t jump_group;	/**< BUCKET/CATCHALL: JUMP(jump_group) */
	uint16_t to_member;	/**< HOME: REPRESENTED_PORT(member index) */
	uint16_t queue;		/**< QUEUE: QUEUE(queue); others: the target queue */
	uint16_t bucket;	/**< BUCKET: its bucket */
};

/** Rule operation of a change. */
enum octo_steer_op_type {
	OCTO_STEER_OP_ADD = 0,	/**< create @c rule and keep it in @c slot */
	OCTO_STEER_OP_DEL,	/**< remove the rule now held in @c slot */
};

struct octo_steer_op {
	enum octo_steer_op_type type;
	uint32_t slot;			/**< rule slot (octo_steer_plan_rule index) */
	struct octo_steer_rule rule;	/**< ADD: the new rule; DEL: the old */
};

/** The rule operations of one change, in the order to apply them. */
struct octo_steer_change {
	uint32_t nb_ops;
	/**
	 * After op[switch_op] succeeded, all traffic concerned uses the new
	 * rules (see make-before-break above).  Meaningless when nb_ops == 0.
	 */
	uint32_t switch_op;
	struct octo_steer_op ops[2 * OCTO_STEER_RULES_PER_BUCKET];
};

struct octo_steer_plan;

/**
 * Plan the rules for @p conf.
 *
 * @param[out] plan  the plan (malloc'ed), NULL on error
 * @param why, why_len  on error, what was wrong with @p conf
 * @return 0, -EINVAL (bad conf, reason in @p why), -ENOMEM
 */
int octo_steer_plan_create(struct octo_steer_plan **plan,
		const struct octo_steer_plan_conf *conf, char *why, size_t why_len);

void octo_steer_plan_free(struct octo_steer_plan *plan);

/** Number of rule slots; each slot holds one rule. */
uint32_t octo_steer_plan_nb_rules(const struct octo_steer_plan *plan);

/**
 * Rule in slot @p slot, NULL when out of range.  Slots are ordered in the
 * order to install: member ingress rules, then home rules, then buckets,
 * then the catch-all (downstream first, so traffic is steered only into a
 * path that exists); remove in reverse.
 */
const struct octo_steer_rule *octo_steer_plan_rule(const struct octo_steer_plan *plan,
		uint32_t slot);

/** Slot of queue @p q's home rule, UINT32_MAX for a bad queue. */
uint32_t octo_steer_plan_home_slot(const struct octo_steer_plan *plan, uint16_t q);

/** Current home member of queue @p q, queue of bucket @p b (UINT16_MAX if bad). */
uint16_t octo_steer_plan_home(const struct octo_steer_plan *plan, uint16_t q);
uint16_t octo_steer_plan_bucket_queue(const struct octo_steer_plan *plan, uint16_t b);

/**
 * The change that makes @p member queue @p q's home: one ADD of the new home
 * rule then one DEL of the old; no op when @p member is already the home.
 * The plan is unchanged until octo_steer_plan_commit().
 *
 * @return 0, -EINVAL (bad queue or member)
 */
int octo_steer_plan_set_home(const struct octo_steer_plan *plan, uint16_t q,
		uint16_t member, struct octo_steer_change *chg);

/**
 * The change that sends bucket @p b to queue @p q: an ADD for each of the
 * bucket's rules, then a DEL of each old one; no op when unchanged.
 *
 * @return 0, -EINVAL (bad bucket or queue)
 */
int octo_steer_plan_set_bucket(const struct octo_steer_plan *plan, uint16_t b,
		uint16_t q, struct octo_steer_change *chg);

/** The change that sends unmatched traffic to queue @p q. */
int octo_steer_plan_set_catchall(const struct octo_steer_plan *plan, uint16_t q,
		struct octo_steer_change *chg);

/**
 * Record that @p chg was applied: its ADD rules now hold their slots.
 * Call it only after every op of @p chg succeeded.
 */
void octo_steer_plan_commit(struct octo_steer_plan *plan,
		const struct octo_steer_change *chg);

/** Rules per bucket for @p field (0 for a bad field). */
unsigned int octo_steer_rules_per_bucket(enum octo_steer_field field);

/** Short name of a field ("l4_src", ...), NULL if unknown. */
const char *octo_steer_field_name(enum octo_steer_field field);

/** Field from its name, or -1. */
int octo_steer_field_parse(const char *name);

#ifdef __cplusplus
}
#endif

#endif /* OCTO_STEERING_H */
