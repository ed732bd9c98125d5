/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTO_STEER_APP_H
#define OCTO_STEER_APP_H

/**
 * @file
 * Planning the application's rte_flow rules of the virtual port: which
 * transfer-domain classification rules stand for one application rule, as
 * plain data (no EAL, no rte_flow structures).  net_octopus's flow ops
 * (octopus_flow*.c) parse the application's rule into struct
 * octo_steer_app_rule, ask for the entries here, and create one e-switch
 * rule per entry: the application's pattern, narrowed by the entry's
 * field match when it has one, with the entry's actions.
 *
 * Translation (see octo_steering.h for the steering model):
 *  - QUEUE(q)       -> SET_META(q) + JUMP(home group): the rule follows q's
 *                      home rule, so moving q replaces one home rule however
 *                      many application rules select q;
 *  - RSS(queues[n]) -> one rule per spreading bucket b of the rule's own
 *                      bucket space, narrowed to "field low bits == b",
 *                      -> SET_META(queues[b % n]) + JUMP(home group).  When n
 *                      is a power of two (up to OCTO_STEER_MAX_RETA) the
 *                      space has n buckets and the expansion is exact (one
 *                      rule per queue); otherwise it has
 *                      max(reta_size, next power of two >= n) buckets and
 *                      every queue gets floor or ceil(buckets / n) of them.
 *                      The field is that of the port's spreading direction
 *                      (source or destination): the L4 port when the pattern
 *                      names TCP or UDP, else the low 32 bits of the IP
 *                      address; a pattern without an IP item is refused.
 *                      Hash types, key and function are not used (the
 *                      spreading uses header bits, like the default buckets).
 *  - DROP           -> DROP; JUMP(g) -> JUMP(g) for an application group g;
 *  - MARK, COUNT    -> kept on every entry (the e-switch carries a transfer
 *                      MARK to the mbuf; counts are summed over entries);
 *                      where the e-switch refuses MARK/FLAG in transfer
 *                      rules (conf mark_ingress), a QUEUE or RSS rule's
 *                      entries carry its tag instead, in META's high half
 *                      (OCTO_STEER_META_TAG_SHIFT), and the caller adds
 *                      "META == tag:q -> MARK/FLAG + QUEUE(q)" to each
 *                      member's ingress for each queue q of the entries; a
 *                      DROP rule's mark is moot and left out; a JUMP rule
 *                      with MARK/FLAG is refused (the jump's target decides
 *                      the queue, and one META cannot carry both);
 *  - anything else is refused by the caller before this planner runs.
 *
 * Groups and priorities (lower priority wins):
 *  - application group 0 is transfer group 0: priority p becomes
 *    OCTO_STEER_PRIO_APP(p, level), above every default bucket; p must be
 *    below OCTO_STEER_APP_MAX_PRIO (the last application priority pair is
 *    the isolate rule's);
 *  - application groups 1 .. home_group - 1 are the transfer groups of the
 *    same number (plus conf group_base, where classification is not in the
 *    root table), with the same priority mapping; they are reached only by
 *    an application JUMP (and a packet that misses there ends in the
 *    e-switch's default, as a group miss does on hardware);
 *  - the home group and above belong to the steering: refused.
 *  - level (0 or 1) is the make-before-break level: a rule replacing
 *    another of the same pattern takes the other level.
 */

#include <stddef.h>
#include <stdint.h>

#include "octo_steering.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Application priorities 0 .. OCTO_STEER_APP_MAX_PRIO - 1 are accepted. */
#define OCTO_STEER_APP_MAX_PRIO (OCTO_STEER_PRIO_APP_LEVELS - 1)
/** Transfer group 0 priority of the isolate rule (ETH -> DROP): loses to
 *  every application rule, wins over every default bucket.
 */
#define OCTO_STEER_PRIO_ISOLATE OCTO_STEER_PRIO_APP(OCTO_STEER_APP_MAX_PRIO, 0)
/** Most RSS queues in one application rule. */
#define OCTO_STEER_APP_MAX_RSS OCTO_STEER_MAX_QUEUES

/** Fate of an application rule. */
enum octo_steer_app_fate {
	OCTO_STEER_APP_QUEUE = 0,
	OCTO_STEER_APP_RSS,
	OCTO_STEER_APP_DROP,
	OCTO_STEER_APP_JUMP,
};

/** The port, as the planner needs it. */
struct octo_steer_app_conf {
	uint16_t nb_queues;		/**< the port's Rx queues */
	uint16_t reta_size;		/**< default buckets (power of 2) */
	enum octo_steer_field field;	/**< the port's spreading field */
	/**
	 * Transfer group of application group 0 (the steering's
	 * class_group): application group g is transfer group group_base + g
	 */
	uint32_t group_base;
	uint32_t home_group;		/**< 0: OCTO_STEER_HOME_GROUP + group_base */
	uint8_t mark_ingress;		/**< MARK/FLAG to the ingress stage (above) */
};

/** An application rule, reduced to what the planner decides on. */
struct octo_steer_app_rule {
	uint32_t group;
	uint32_t priority;
	enum octo_steer_app_fate fate;
	uint16_t queue;			/**< QUEUE */
	const uint16_t *rss_queues;	/**< RSS: [rss_num] */
	uint32_t rss_num;
	uint32_t jump_group;		/**< JUMP */
	uint8_t has_mark;
	uint32_t mark;
	uint8_t has_flag;
	uint8_t has_count;
	uint8_t l3;			/**< OCTO_STEER_L3_* the pattern names */
	uint8_t l4;			/**< OCTO_STEER_L4_* the pattern names */
	uint8_t level;			/**< make-before-break level, 0 or 1 */
	uint16_t mark_tag;		/**< mark_ingress, MARK/FLAG: 1..OCTO_STEER_MARK_TAGS-1 */
};

/** One e-switch rule standing for (part of) an application rule. */
struct octo_steer_app_entry {
	uint32_t group;			/**< transfer group */
	uint32_t priority;		/**< transfer priority */
	enum octo_steer_field field;	/**< extra match, NONE for none */
	uint32_t value;			/**< field value (host order), under mask */
	uint32_t mask;			/**< field mask (host order) */
	uint8_t drop;			/**< DROP */
	uint8_t has_meta;		/**< SET_META(set_meta) */
	uint32_t set_meta;
	uint8_t has_jump;		/**< JUMP(jump_group) */
	uint32_t jump_group;
	uint8_t has_mark;		/**< MARK(mark) */
	uint32_t mark;
	uint8_t has_flag;		/**< FLAG */
	uint8_t has_count;		/**< COUNT */
	uint16_t queue;			/**< target queue, UINT16_MAX for DROP/JUMP */
};

/**
 * Check @p rule against @p conf and plan its entries.
 *
 * @param[out] entries  malloc'ed array (free()), NULL on error
 * @param[out] nb       number of entries (at least 1 on success)
 * @param why, why_len  on error: what is wrong, naming the field
 * @return 0; -EINVAL (bad value: queue, group, jump target), -ENOTSUP
 *         (something the translation cannot express), -ENOMEM
 */
int octo_steer_app_plan(const struct octo_steer_app_conf *conf,
		const struct octo_steer_app_rule *rule,
		struct octo_steer_app_entry **entries, uint32_t *nb,
		char *why, size_t why_len);

/**
 * octo_steer_app_plan(), into @p buf when the plan has at most @p cap
 * entries (then *entries == buf: a QUEUE rule's one entry needs no
 * allocation), else into a malloc'ed array: free(*entries) only when it
 * is not @p buf.
 */
int octo_steer_app_plan_in(const struct octo_steer_app_conf *conf,
		const struct octo_steer_app_rule *rule,
		struct octo_steer_app_entry *buf, uint32_t cap,
		struct octo_steer_app_entry **entries, uint32_t *nb,
		char *why, size_t why_len);

/**
 * Bucket space of an RSS expansion over @p n queues (see above): the
 * number of entries octo_steer_app_plan() makes before dropping entries the
 * pattern cannot match.  0 for n == 0.
 */
uint32_t octo_steer_app_rss_buckets(uint32_t n, uint16_t reta_size);

/**
 * The queue entry @p i of @p rule's plan delivers to: the rule's queue, for
 * RSS the queue of that bucket; -1 for entries that deliver to none (DROP,
 * JUMP).
 */
int octo_steer_app_entry_queue(const struct octo_steer_app_rule *rule, uint32_t i);

/**
 * Field an RSS expansion narrows for a pattern naming @p l3 / @p l4 when
 * the port spreads by @p spread; OCTO_STEER_FIELD_NONE when the pattern has
 * no IP item.
 */
enum octo_steer_field octo_steer_app_rss_field(enum octo_steer_field spread,
		uint8_t l3, uint8_t l4);

#ifdef __cplusplus
}
#endif

#endif /* OCTO_STEER_APP_H */
