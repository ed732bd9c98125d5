/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "octo_steering.h"

struct octo_steer_plan {
	uint16_t nb_members;
	uint16_t nb_queues;
	uint16_t reta_size;
	enum octo_steer_field field;
	uint32_t class_group;
	uint32_t home_group;
	unsigned int rpb;	/* rules per bucket */
	/* slot layout: [queue rules][home rules][bucket rules][catch-all] */
	uint32_t slot_home;
	uint32_t slot_bucket;
	uint32_t slot_catchall;
	uint32_t nb_rules;
	struct octo_steer_rule *rules;
};

/* The protocol layers of a bucket's rules, per spreading field. */
struct bucket_proto {
	uint8_t l3;
	uint8_t l4;
	uint8_t ip_field;	/* match the IP field instead of the L4 one */
};

static const struct bucket_proto l4_protos[OCTO_STEER_RULES_PER_BUCKET] = {
	{ OCTO_STEER_L3_IPV4, OCTO_STEER_L4_TCP, 0 },
	{ OCTO_STEER_L3_IPV4, OCTO_STEER_L4_UDP, 0 },
	{ OCTO_STEER_L3_IPV6, OCTO_STEER_L4_TCP, 0 },
	{ OCTO_STEER_L3_IPV6, OCTO_STEER_L4_UDP, 0 },
	{ OCTO_STEER_L3_IPV4, OCTO_STEER_L4_ANY, 1 },
	{ OCTO_STEER_L3_IPV6, OCTO_STEER_L4_ANY, 1 },
};

static const struct bucket_proto ip_protos[2] = {
	{ OCTO_STEER_L3_IPV4, OCTO_STEER_L4_ANY, 1 },
	{ OCTO_STEER_L3_IPV6, OCTO_STEER_L4_ANY, 1 },
};

static const char *const field_names[OCTO_STEER_FIELD_MAX] = {
	[OCTO_STEER_FIELD_L4_SRC] = "l4_src",
	[OCTO_STEER_FIELD_L4_DST] = "l4_dst",
	[OCTO_STEER_FIELD_IP_SRC] = "ip_src",
	[OCTO_STEER_FIELD_IP_DST] = "ip_dst",
};

const char *
octo_steer_field_name(enum octo_steer_field field)
{
	if ((unsigned int)field >= OCTO_STEER_FIELD_MAX)
		return NULL;
	return field_names[field];
}

int
octo_steer_field_parse(const char *name)
{
	int i;

	if (name == NULL)
		return -1;
	for (i = 0; i < OCTO_STEER_FIELD_MAX; i++)
		if (strcmp(name, field_names[i]) == 0)
			return i;
	return -1;
}

unsigned int
octo_steer_rules_per_bucket(enum octo_steer_field field)
{
	switch (field) {
	case OCTO_STEER_FIELD_L4_SRC:
	case OCTO_STEER_FIELD_L4_DST:
		return OCTO_STEER_RULES_PER_BUCKET;
	case OCTO_STEER_FIELD_IP_SRC:
	case OCTO_STEER_FIELD_IP_DST:
		return 2;
	default:
		return 0;
	}
}

static const struct bucket_proto *
field_protos(enum octo_steer_field field)
{
	if (field == OCTO_STEER_FIELD_L4_SRC || field == OCTO_STEER_FIELD_L4_DST)
		return l4_protos;
	return ip_protos;
}

/* Other IP traffic under an L4 field is spread by the IP address of the
 * same direction, so one field choice means one direction throughout.
 */
static enum octo_steer_field
ip_field_of(enum octo_steer_field field)
{
	if (field == OCTO_STEER_FIELD_L4_DST || field == OCTO_STEER_FIELD_IP_DST)
		return OCTO_STEER_FIELD_IP_DST;
	return OCTO_STEER_FIELD_IP_SRC;
}

static void
say(char *why, size_t why_len, const char *fmt, ...)
{
	va_list ap;

	if (why == NULL || why_len == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(why, why_len, fmt, ap);
	va_end(ap);
}

static int
check_conf(const struct octo_steer_plan_conf *c, char *why, size_t why_len)
{
	unsigned int i;

	if (c == NULL) {
		say(why, why_len, "no configuration");
		return -EINVAL;
	}
	if (c->nb_members == 0 || c->nb_members > OCTO_STEER_MAX_MEMBERS) {
		say(why, why_len, "%u members, need 1..%u", c->nb_members,
			OCTO_STEER_MAX_MEMBERS);
		return -EINVAL;
	}
	if (c->nb_queues == 0 || c->nb_queues > OCTO_STEER_MAX_QUEUES) {
		say(why, why_len, "%u queues, need 1..%u", c->nb_queues,
			OCTO_STEER_MAX_QUEUES);
		return -EINVAL;
	}
	if (c->home == NULL || c->reta == NULL) {
		say(why, why_len, "no %s table", c->home == NULL ? "home" : "RETA");
		return -EINVAL;
	}
	if (c->reta_size == 0 || c->reta_size > OCTO_STEER_MAX_RETA ||
			(c->reta_size & (c->reta_size - 1)) != 0) {
		say(why, why_len, "RETA size %u is not a power of 2 in 1..%u",
			c->reta_size, OCTO_STEER_MAX_RETA);
		return -EINVAL;
	}
	if (octo_steer_rules_per_bucket(c->field) == 0) {
		say(why, why_len, "unknown spreading field %d", (int)c->field);
		return -EINVAL;
	}
	/* OCTO_STEER_MAX_RETA is below 2^16, so the bucket bits always fit in
	 * an L4 port and in the low word of an address.
	 */
	for (i = 0; i < c->nb_queues; i++) {
		if (c->home[i] >= c->nb_members) {
			say(why, why_len, "queue %u: home member %u of %u", i,
				c->home[i], c->nb_members);
			return -EINVAL;
		}
	}
	for (i = 0; i < c->reta_size; i++) {
		if (c->reta[i] >= c->nb_queues) {
			say(why, why_len, "RETA entry %u: queue %u of %u", i,
				c->reta[i], c->nb_queues);
			return -EINVAL;
		}
	}
	if (c->catchall_queue >= c->nb_queues) {
		say(why, why_len, "catch-all queue %u of %u", c->catchall_queue,
			c->nb_queues);
		return -EINVAL;
	}
	return 0;
}

static void
make_queue_rule(struct octo_steer_rule *r, uint16_t member, uint16_t q)
{
	memset(r, 0, sizeof(*r));
	r->kind = OCTO_STEER_KIND_QUEUE;
	r->domain = OCTO_STEER_DOM_INGRESS;
	r->member = member;
	r->group = 0;
	r->priority = OCTO_STEER_PRIO_QUEUE;
	r->field = OCTO_STEER_FIELD_NONE;
	r->match_meta = 1;
	r->meta_match = q;
	r->meta_mask = UINT32_MAX;
	r->queue = q;
}

static void
make_home_rule(struct octo_steer_rule *r, uint32_t group, uint32_t prio,
		uint16_t q, uint16_t member)
{
	memset(r, 0, sizeof(*r));
	r->kind = OCTO_STEER_KIND_HOME;
	r->domain = OCTO_STEER_DOM_TRANSFER;
	r->group = group;
	r->priority = prio;
	r->field = OCTO_STEER_FIELD_NONE;
	r->match_meta = 1;
	r->meta_match = q;
	r->meta_mask = OCTO_STEER_META_QUEUE_MASK;
	r->to_member = member;
	r->queue = q;
}

static void
make_bucket_rule(struct octo_steer_rule *r, const struct octo_steer_plan *p,
		unsigned int proto, uint16_t b, uint16_t q, uint32_t level)
{
	const struct bucket_proto *bp = &field_protos(p->field)[proto];

	memset(r, 0, sizeof(*r));
	r->kind = OCTO_STEER_KIND_BUCKET;
	r->domain = OCTO_STEER_DOM_TRANSFER;
	r->group = p->class_group;
	r->priority = (bp->ip_field ? OCTO_STEER_PRIO_BUCKET_IP :
		OCTO_STEER_PRIO_BUCKET_L4) + level;
	r->l3 = bp->l3;
	r->l4 = bp->l4;
	r->field = bp->ip_field ? ip_field_of(p->field) : p->field;
	r->mask = (uint32_t)p->reta_size - 1;
	r->value = b;
	r->set_meta = q;
	r->jump_group = p->home_group;
	r->queue = q;
	r->bucket = b;
}

static void
make_catchall_rule(struct octo_steer_rule *r, uint32_t class_group, uint32_t home_group,
		uint16_t q, uint32_t level)
{
	memset(r, 0, sizeof(*r));
	r->kind = OCTO_STEER_KIND_CATCHALL;
	r->domain = OCTO_STEER_DOM_TRANSFER;
	r->group = class_group;
	r->priority = OCTO_STEER_PRIO_CATCHALL + level;
	r->field = OCTO_STEER_FIELD_NONE;
	r->set_meta = q;
	r->jump_group = home_group;
	r->queue = q;
}

int
octo_steer_plan_create(struct octo_steer_plan **plan,
		const struct octo_steer_plan_conf *conf, char *why, size_t why_len)
{
	struct octo_steer_plan *p;
	unsigned int i, m, k;
	uint32_t slot;
	int ret;

	if (plan == NULL)
		return -EINVAL;
	*plan = NULL;
	ret = check_conf(conf, why, why_len);
	if (ret != 0)
		return ret;
	p = calloc(1, sizeof(*p));
	if (p == NULL)
		return -ENOMEM;
	p->nb_members = conf->nb_members;
	p->nb_queues = conf->nb_queues;
	p->reta_size = conf->reta_size;
	p->field = conf->field;
	p->class_group = conf->class_group;
	p->home_group = conf->home_group != 0 ? conf->home_group :
		OCTO_STEER_HOME_GROUP + conf->class_group;
	if (p->class_group >= p->home_group) {
		say(why, why_len, "classification group %u not below the home group %u",
			p->class_group, p->home_group);
		free(p);
		return -EINVAL;
	}
	p->rpb = octo_steer_rules_per_bucket(conf->field);
	p->slot_home = (uint32_t)p->nb_members * p->nb_queues;
	p->slot_bucket = p->slot_home + p->nb_queues;
	p->slot_catchall = p->slot_bucket + (uint32_t)p->reta_size * p->rpb;
	p->nb_rules = p->slot_catchall + 1;
	p->rules = calloc(p->nb_rules, sizeof(*p->rules));
	if (p->rules == NULL) {
		free(p);
		return -ENOMEM;
	}

	/* Initial rules take the losing level (1) so that the first change of
	 * each one wins at its add.
	 */
	slot = 0;
	for (m = 0; m < p->nb_members; m++)
		for (i = 0; i < p->nb_queues; i++)
			make_queue_rule(&p->rules[slot++], m, i);
	for (i = 0; i < p->nb_queues; i++)
		make_home_rule(&p->rules[slot++], p->home_group,
			OCTO_STEER_PRIO_HOME + 1, i, conf->home[i]);
	for (i = 0; i < p->reta_size; i++)
		for (k = 0; k < p->rpb; k++)
			make_bucket_rule(&p->rules[slot++], p, k, i, conf->reta[i], 1);
	make_catchall_rule(&p->rules[slot++], p->class_group, p->home_group,
		conf->catchall_queue, 1);
	*plan = p;
	return 0;
}

void
octo_steer_plan_free(struct octo_steer_plan *plan)
{
	if (plan == NULL)
		return;
	free(plan->rules);
	free(plan);
}

uint32_t
octo_steer_plan_nb_rules(const struct octo_steer_plan *plan)
{
	return plan == NULL ? 0 : plan->nb_rules;
}

const struct octo_steer_rule *
octo_steer_plan_rule(const struct octo_steer_plan *plan, uint32_t slot)
{
	if (plan == NULL || slot >= plan->nb_rules)
		return NULL;
	return &plan->rules[slot];
}

uint32_t
octo_steer_plan_home_slot(const struct octo_steer_plan *plan, uint16_t q)
{
	if (plan == NULL || q >= plan->nb_queues)
		return UINT32_MAX;
	return plan->slot_home + q;
}

uint16_t
octo_steer_plan_home(const struct octo_steer_plan *plan, uint16_t q)
{
	if (plan == NULL || q >= plan->nb_queues)
		return UINT16_MAX;
	return plan->rules[plan->slot_home + q].to_member;
}

uint16_t
octo_steer_plan_bucket_queue(const struct octo_steer_plan *plan, uint16_t b)
{
	if (plan == NULL || b >= plan->reta_size)
		return UINT16_MAX;
	return plan->rules[plan->slot_bucket + (uint32_t)b * plan->rpb].queue;
}

/*
 * Replace the rules of slots [first, first + n) with @p fresh: all adds,
 * then all removals.  Each new rule takes the other level of its class;
 * the class bases are even, so the level is the priority's low bit.
 */
static void
replace_rules(const struct octo_steer_plan *p, uint32_t first, unsigned int n,
		struct octo_steer_rule *fresh, struct octo_steer_change *chg)
{
	const struct octo_steer_rule *old = &p->rules[first];
	unsigned int i;
	int wins;

	chg->nb_ops = 2 * n;
	for (i = 0; i < n; i++) {
		fresh[i].priority = old[i].priority ^ 1;
		chg->ops[i].type = OCTO_STEER_OP_ADD;
		chg->ops[i].slot = first + i;
		chg->ops[i].rule = fresh[i];
		chg->ops[n + i].type = OCTO_STEER_OP_DEL;
		chg->ops[n + i].slot = first + i;
		chg->ops[n + i].rule = old[i];
	}
	/* all rules of one change flip together, so rule 0 speaks for all */
	wins = fresh[0].priority < old[0].priority;
	chg->switch_op = wins ? n - 1 : 2 * n - 1;
}

int
octo_steer_plan_set_home(const struct octo_steer_plan *plan, uint16_t q,
		uint16_t member, struct octo_steer_change *chg)
{
	struct octo_steer_rule fresh;
	const struct octo_steer_rule *old;

	if (plan == NULL || chg == NULL || q >= plan->nb_queues ||
			member >= plan->nb_members)
		return -EINVAL;
	memset(chg, 0, sizeof(*chg));
	old = &plan->rules[plan->slot_home + q];
	if (old->to_member == member)
		return 0;
	make_home_rule(&fresh, plan->home_group, old->priority, q, member);
	replace_rules(plan, plan->slot_home + q, 1, &fresh, chg);
	return 0;
}

int
octo_steer_plan_set_bucket(const struct octo_steer_plan *plan, uint16_t b,
		uint16_t q, struct octo_steer_change *chg)
{
	struct octo_steer_rule fresh[OCTO_STEER_RULES_PER_BUCKET];
	uint32_t first;
	unsigned int k;

	if (plan == NULL || chg == NULL || b >= plan->reta_size ||
			q >= plan->nb_queues)
		return -EINVAL;
	memset(chg, 0, sizeof(*chg));
	first = plan->slot_bucket + (uint32_t)b * plan->rpb;
	if (plan->rules[first].queue == q)
		return 0;
	for (k = 0; k < plan->rpb; k++)
		make_bucket_rule(&fresh[k], plan, k, b, q, 0);
	replace_rules(plan, first, plan->rpb, fresh, chg);
	return 0;
}

int
octo_steer_plan_set_catchall(const struct octo_steer_plan *plan, uint16_t q,
		struct octo_steer_change *chg)
{
	struct octo_steer_rule fresh;

	if (plan == NULL || chg == NULL || q >= plan->nb_queues)
		return -EINVAL;
	memset(chg, 0, sizeof(*chg));
	if (plan->rules[plan->slot_catchall].queue == q)
		return 0;
	make_catchall_rule(&fresh, plan->class_group, plan->home_group, q, 0);
	replace_rules(plan, plan->slot_catchall, 1, &fresh, chg);
	return 0;
}

void
octo_steer_plan_commit(struct octo_steer_plan *plan,
		const struct octo_steer_change *chg)
{
	uint32_t i;

	if (plan == NULL || chg == NULL)
		return;
	for (i = 0; i < chg->nb_ops; i++) {
		const struct octo_steer_op *op = &chg->ops[i];

		if (op->type == OCTO_STEER_OP_ADD && op->slot < plan->nb_rules)
			plan->rules[op->slot] = op->rule;
	}
}
