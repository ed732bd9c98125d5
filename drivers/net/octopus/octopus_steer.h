/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTOPUS_STEER_H
#define OCTOPUS_STEER_H

/**
 * @file
 * Steering: the rte_flow rules that make each virtual queue's traffic
 * arrive at the member (PF) that is its home.  The contract between the
 * ethdev glue (octopus_ethdev.c and friends) and the steering code
 * (octopus_steer.c, with the pure planner in lib/steering).
 *
 * The model, programmed through the members' transfer proxy:
 *  1. transfer group 0, classification: match -> META := q + JUMP(home group)
 *     (SET_META, or MODIFY_FIELD where the e-switch refuses SET_META; group 1
 *     behind a group 0 ETH -> JUMP(1) where group 0 refuses both);
 *     default spreading buckets (one per RETA entry) and a lowest-priority
 *     catch-all for non-IP traffic;
 *  2. transfer home group: META == q -> REPRESENTED_PORT(home member of q);
 *  3. every member's ingress: META == q -> QUEUE(q), identical everywhere.
 * Moving queue q to another member replaces exactly q's home rule.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <string.h>

#include <rte_config.h>
#include <rte_flow.h>

#include "octo_steering.h"

#define OCTOPUS_STEER_MAX_MEMBERS 8

/** What the steering needs to know about the port. */
struct octopus_steer_conf {
	uint16_t nb_members;
	/** ethdev port ids; OCTOPUS_STEER_PORT_ABSENT: a member whose port
	 * is gone (no rule is placed on it, no queue may be homed on it)
	 */
	uint16_t member_port[OCTOPUS_STEER_MAX_MEMBERS];
	uint16_t nb_queues;		/**< virtual Rx queues */
	const uint16_t *home;		/**< [nb_queues]: home member index of q */
	uint16_t reta_size;		/**< buckets (power of 2) */
	const uint16_t *reta;		/**< [reta_size]: bucket -> virtual queue */
	enum octo_steer_field field;	/**< header field for buckets (spread=) */
	uint16_t catchall_queue;	/**< queue for traffic no bucket matches */
};

struct octopus_steer;

/**
 * How the e-switch takes a write of META in a transfer rule, found by
 * asking (rte_flow_validate on the transfer proxy), never by vendor.
 */
enum octopus_steer_meta_write {
	OCTOPUS_STEER_META_SET = 0,	/**< SET_META */
	OCTOPUS_STEER_META_MODIFY,	/**< MODIFY_FIELD: SET of META from an immediate value */
};

/** The action writing META := @p v the way @p how says, its conf in @p set or @p mod. */
void octopus_steer_meta_action(enum octopus_steer_meta_write how, uint32_t v,
		struct rte_flow_action *a, struct rte_flow_action_set_meta *set,
		struct rte_flow_action_modify_field *mod);

/**
 * Whether @p ret, a PMD's refusal, means "this NIC cannot", as opposed to a
 * passing failure.  EINVAL counts: PMDs commonly answer an item or action
 * they do not know with EINVAL rather than ENOTSUP.
 */
static inline bool
octopus_steer_unsupported(int ret)
{
	return ret == -ENOTSUP || ret == -ENOSYS || ret == -EINVAL;
}

/**
 * Set the value @p v of a META write octopus_steer_meta_action() made
 * with @p how, @p set and @p mod, the rest of it unchanged (a template
 * rule's per-rule part).
 */
static inline void
octopus_steer_meta_value(enum octopus_steer_meta_write how, uint32_t v,
		struct rte_flow_action_set_meta *set, struct rte_flow_action_modify_field *mod)
{
	if (how == OCTOPUS_STEER_META_SET)
		set->data = v;
	else	/* the immediate as META's own item data: a host-order uint32_t */
		memcpy(mod->src.value, &v, sizeof(v));
}

/**
 * Whether @p port takes rule (@p attr, @p items, @p actions): validated,
 * then, where validate takes it and @p by_create (or where the PMD has no
 * validate), created and destroyed at once, with a pattern of the same
 * first item that no frame matches. A PMD's validate may not look at the
 * actions (mlx5's hardware steering checks patterns only, facts F1): only
 * a create tells. @p by_create only where the port may take rules now
 * (started, or keeping rules while stopped: FLOW_RULE_KEEP).
 * @return 0, or the refusal's negative errno with @p err set.
 */
int octopus_steer_probe(uint16_t port, const struct rte_flow_attr *attr,
		const struct rte_flow_item items[], const struct rte_flow_action actions[],
		bool by_create, struct rte_flow_error *err);

/**
 * Ask transfer proxy @p proxy where and how it takes the classification:
 * "ETH -> META := 0 + JUMP(home group)" (octopus_steer_probe, creating it
 * with @p by_create) with SET_META, then, refused, with MODIFY_FIELD, in
 * transfer group 0 (the root table); both refused there, in group 1 with
 * "group 0: ETH -> JUMP(1)" before it.
 * @return 0 with *@p how and *@p group (0 or 1; the home group is
 *         OCTO_STEER_HOME_GROUP + *@p group); -ENOTSUP when all are refused
 *         (@p why has the root table's causes); other negative errno.
 */
int octopus_steer_class_probe(uint16_t proxy, bool by_create,
		enum octopus_steer_meta_write *how, uint32_t *group, char *why, size_t why_len);

/** The META write installed steering @p s uses. */
/*
 * Whether transfer rules through @p proxy take a REPRESENTED_PORT item
 * naming @p proxy itself, that is the wire's frames only.  Where the
 * e-switch's transfer rules also see what its ports transmit (mlx5 with
 * hardware steering, facts F9), every rule that takes the wire's traffic
 * in transfer group 0 says so, or the members' own Tx would be steered
 * back into their Rx queues; where the item is refused, the transfer rules
 * see the wire's frames alone.
 */
bool octopus_steer_wire_item_probe(uint16_t proxy);
/* Item @p it: REPRESENTED_PORT of @p proxy, its spec in @p spec. */
void octopus_steer_wire_item_set(struct rte_flow_item *it, struct rte_flow_item_ethdev *spec,
		uint16_t proxy);
/* What octopus_steer_wire_item_probe() said at install. */
bool octopus_steer_wire_item(const struct octopus_steer *s);
enum octopus_steer_meta_write octopus_steer_meta_how(const struct octopus_steer *s);

/**
 * The transfer group of @p s's classification: 0, or, where the root table
 * refuses it, 1, with a group 0 rule ETH -> JUMP(1) installed last and
 * removed first.
 */
uint32_t octopus_steer_class_group(const struct octopus_steer *s);

/** A member without a port (released): see octopus_steer_conf. */
#define OCTOPUS_STEER_PORT_ABSENT RTE_MAX_ETHPORTS

/**
 * Install the rules for the current homes and RETA.
 *
 * The classification goes in transfer group 0, or in group 1 behind a
 * root jump where group 0 refuses it (octopus_steer_class_probe()).
 *
 * @param[out] s      the steering state, NULL when steering is not possible
 * Rule shapes are chosen by asking the NIC (validate, then create and
 * destroy: octopus_steer_probe): META is written with SET_META, or with
 * MODIFY_FIELD where the e-switch refuses SET_META.
 *
 * @param why         on -ENOTSUP: which rte_flow feature a member refused,
 *                    in the NIC's words, after the capability it stands for
 * @return 0; -ENOTSUP when the members' e-switch cannot do this model (the
 *         caller tells "no common e-switch" from "an e-switch lacking a
 *         feature" with octopus_steer_common_proxy()); other negative errno
 *         on failure, with nothing left installed.
 */
int octopus_steer_install(struct octopus_steer **s,
		const struct octopus_steer_conf *conf, char *why, size_t why_len);

/** Point queue @p q at member @p member: replaces only q's home rule. */
int octopus_steer_set_home(struct octopus_steer *s, uint16_t q, uint16_t member);

/** Point RETA bucket @p bucket at queue @p q: replaces one classification rule set. */
int octopus_steer_set_bucket(struct octopus_steer *s, uint16_t bucket, uint16_t q);


/**
 * Member @p member's port is gone, and with it the rules placed on it.
 * @return true when it was the transfer proxy: every rule is gone then,
 *         and the caller drops the state with octopus_steer_abandon().
 */
bool octopus_steer_member_gone(struct octopus_steer *s, uint16_t member);

/** Free @p s without touching any rule (their e-switch is gone). */
void octopus_steer_abandon(struct octopus_steer *s);

/** Remove every rule installed; frees @p s. */
void octopus_steer_remove(struct octopus_steer *s);

/**
 * Where spreading field @p f sits in an item of type @p t: @p width bytes
 * at @p off of its spec/mask, network order (an IPv6 address: its last
 * four bytes). -1 when items of that type do not carry it. The steering's
 * bucket rules and the application rules narrowed to a bucket both place
 * the field with it.
 */
int octopus_steer_field_place(enum octo_steer_field f, enum rte_flow_item_type t, size_t *off,
		size_t *width);
/**
 * The common transfer proxy of member ports @p ports[0..n-1] (entries
 * OCTOPUS_STEER_PORT_ABSENT skipped), the port the e-switch's transfer
 * rules go through: the steering's and the application rules' one lookup.
 * @return 0; -ENOTSUP (@p why says which member) when one has none or
 * they differ (not ports of one e-switch); -EINVAL when none is present.
 */
int octopus_steer_common_proxy(const uint16_t *ports, unsigned int n, uint16_t *proxy,
		char *why, size_t why_len);

/** The members' common transfer proxy, found when @p s was installed. */
uint16_t octopus_steer_proxy(const struct octopus_steer *s);

/** Rules installed now (for telemetry and tests). */
uint32_t octopus_steer_rule_count(const struct octopus_steer *s);

#endif /* OCTOPUS_STEER_H */
