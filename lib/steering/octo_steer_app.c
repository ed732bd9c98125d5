/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "octo_steer_app.h"

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

static uint32_t
pow2_ceil(uint32_t n)
{
	uint32_t p = 1;

	while (p < n && p < (1u << 31))
		p <<= 1;
	return p;
}

uint32_t
octo_steer_app_rss_buckets(uint32_t n, uint16_t reta_size)
{
	uint32_t p;

	if (n == 0)
		return 0;
	p = pow2_ceil(n);
	if (p == n)
		return n;	/* exact: one bucket per queue */
	return p > reta_size ? p : reta_size;
}

enum octo_steer_field
octo_steer_app_rss_field(enum octo_steer_field spread, uint8_t l3, uint8_t l4)
{
	int dst = spread == OCTO_STEER_FIELD_L4_DST || spread == OCTO_STEER_FIELD_IP_DST;

	if (l3 != OCTO_STEER_L3_IPV4 && l3 != OCTO_STEER_L3_IPV6)
		return OCTO_STEER_FIELD_NONE;
	if (l4 == OCTO_STEER_L4_TCP || l4 == OCTO_STEER_L4_UDP)
		return dst ? OCTO_STEER_FIELD_L4_DST : OCTO_STEER_FIELD_L4_SRC;
	return dst ? OCTO_STEER_FIELD_IP_DST : OCTO_STEER_FIELD_IP_SRC;
}

static int
check(const struct octo_steer_app_conf *c, const struct octo_steer_app_rule *r,
		uint32_t home_group, char *why, size_t why_len)
{
	uint32_t i;

	if (c->nb_queues == 0 || c->nb_queues > OCTO_STEER_MAX_QUEUES) {
		say(why, why_len, "the port has %u Rx queues", c->nb_queues);
		return -EINVAL;
	}
	if (r->group >= home_group) {
		say(why, why_len, "group %u: groups %u and above belong to the port's steering (use 0..%u)",
			r->group, home_group, home_group - 1);
		return -ENOTSUP;
	}
	if (r->priority >= OCTO_STEER_APP_MAX_PRIO) {
		say(why, why_len, "priority %u: the port offers priorities 0..%u",
			r->priority, OCTO_STEER_APP_MAX_PRIO - 1);
		return -ENOTSUP;
	}
	if (r->level > 1) {
		say(why, why_len, "level %u", r->level);
		return -EINVAL;
	}
	if (c->mark_ingress && (r->has_mark || r->has_flag)) {
		if (r->fate == OCTO_STEER_APP_JUMP) {
			say(why, why_len, "%s on a jump rule: the members' e-switch refuses it in transfer rules, and the port moves it to the PFs' ingress for queue and rss rules only",
				r->has_mark ? "mark" : "flag");
			return -ENOTSUP;
		}
		/* a uint16_t: below OCTO_STEER_MARK_TAGS by its type */
		if (r->fate != OCTO_STEER_APP_DROP && r->mark_tag == 0) {
			say(why, why_len, "mark tag %u, need 1..%u", r->mark_tag,
				OCTO_STEER_MARK_TAGS - 1);
			return -EINVAL;
		}
	}
	switch (r->fate) {
	case OCTO_STEER_APP_QUEUE:
		if (r->queue >= c->nb_queues) {
			say(why, why_len, "queue index %u: the port has %u Rx queues",
				r->queue, c->nb_queues);
			return -EINVAL;
		}
		return 0;
	case OCTO_STEER_APP_RSS:
		if (r->rss_num == 0 || r->rss_queues == NULL) {
			say(why, why_len, "rss: no queues");
			return -EINVAL;
		}
		if (r->rss_num > OCTO_STEER_APP_MAX_RSS) {
			say(why, why_len, "rss: %u queues, at most %u", r->rss_num,
				OCTO_STEER_APP_MAX_RSS);
			return -EINVAL;
		}
		for (i = 0; i < r->rss_num; i++) {
			if (r->rss_queues[i] >= c->nb_queues) {
				say(why, why_len, "rss: queue %u: the port has %u Rx queues",
					r->rss_queues[i], c->nb_queues);
				return -EINVAL;
			}
		}
		if (octo_steer_app_rss_field(c->field, r->l3, r->l4) ==
				OCTO_STEER_FIELD_NONE) {
			say(why, why_len, "rss: the pattern must name IPv4 or IPv6: the port spreads by IP or L4 header bits");
			return -ENOTSUP;
		}
		if ((c->reta_size & (c->reta_size - 1)) != 0 || c->reta_size == 0) {
			say(why, why_len, "RETA size %u", c->reta_size);
			return -EINVAL;
		}
		return 0;
	case OCTO_STEER_APP_DROP:
		return 0;
	case OCTO_STEER_APP_JUMP:
		if (r->jump_group <= r->group || r->jump_group >= home_group) {
			say(why, why_len, "jump to group %u: must be above the rule's group %u and below %u (the steering's groups)",
				r->jump_group, r->group, home_group);
			return -EINVAL;
		}
		return 0;
	}
	say(why, why_len, "unknown fate %d", (int)r->fate);
	return -EINVAL;
}

/* META of an entry delivering to @p q: the queue, and the rule's tag when
 * its MARK/FLAG goes to the ingress stage.
 */
static uint32_t
entry_meta(const struct octo_steer_app_conf *c, const struct octo_steer_app_rule *r, uint16_t q)
{
	if (c->mark_ingress && (r->has_mark || r->has_flag))
		return (uint32_t)r->mark_tag << OCTO_STEER_META_TAG_SHIFT | q;
	return q;
}

static void
entry_common(struct octo_steer_app_entry *e, const struct octo_steer_app_conf *c,
		const struct octo_steer_app_rule *r)
{
	memset(e, 0, sizeof(*e));
	e->group = c->group_base + r->group;
	e->priority = OCTO_STEER_PRIO_APP(r->priority, r->level);
	e->field = OCTO_STEER_FIELD_NONE;
	e->has_mark = r->has_mark && !c->mark_ingress;
	e->mark = r->mark;
	e->has_flag = r->has_flag && !c->mark_ingress;
	e->has_count = r->has_count;
	e->queue = UINT16_MAX;
}

int
octo_steer_app_plan(const struct octo_steer_app_conf *conf,
		const struct octo_steer_app_rule *rule,
		struct octo_steer_app_entry **entries, uint32_t *nb,
		char *why, size_t why_len)
{
	return octo_steer_app_plan_in(conf, rule, NULL, 0, entries, nb, why, why_len);
}

int
octo_steer_app_plan_in(const struct octo_steer_app_conf *conf,
		const struct octo_steer_app_rule *rule,
		struct octo_steer_app_entry *buf, uint32_t cap,
		struct octo_steer_app_entry **entries, uint32_t *nb,
		char *why, size_t why_len)
{
	struct octo_steer_app_entry *e;
	uint32_t home_group, n, b;
	int ret;

	if (entries == NULL || nb == NULL)
		return -EINVAL;
	*entries = NULL;
	*nb = 0;
	if (conf == NULL || rule == NULL) {
		say(why, why_len, "no %s", conf == NULL ? "configuration" : "rule");
		return -EINVAL;
	}
	home_group = conf->home_group != 0 ? conf->home_group :
		OCTO_STEER_HOME_GROUP + conf->group_base;
	if (conf->group_base >= home_group) {
		say(why, why_len, "group base %u not below the home group %u", conf->group_base,
			home_group);
		return -EINVAL;
	}
	/* the application's groups: below the home group, in its numbers */
	ret = check(conf, rule, home_group - conf->group_base, why, why_len);
	if (ret != 0)
		return ret;
	n = rule->fate == OCTO_STEER_APP_RSS ?
		octo_steer_app_rss_buckets(rule->rss_num, conf->reta_size) : 1;
	if (n <= cap) {
		e = buf;
		memset(e, 0, sizeof(*e) * n);
	} else {
		e = calloc(n, sizeof(*e));
		if (e == NULL) {
			say(why, why_len, "no memory for %u entries", n);
			return -ENOMEM;
		}
	}
	for (b = 0; b < n; b++)
		entry_common(&e[b], conf, rule);
	switch (rule->fate) {
	case OCTO_STEER_APP_QUEUE:
		e[0].has_meta = 1;
		e[0].set_meta = entry_meta(conf, rule, rule->queue);
		e[0].has_jump = 1;
		e[0].jump_group = home_group;
		e[0].queue = rule->queue;
		break;
	case OCTO_STEER_APP_RSS: {
		enum octo_steer_field f = octo_steer_app_rss_field(conf->field,
			rule->l3, rule->l4);

		for (b = 0; b < n; b++) {
			uint16_t q = (uint16_t)octo_steer_app_entry_queue(rule, b);

			/* n == 1: one queue, no narrowing needed */
			if (n > 1) {
				e[b].field = f;
				e[b].mask = n - 1;
				e[b].value = b;
			}
			e[b].has_meta = 1;
			e[b].set_meta = entry_meta(conf, rule, q);
			e[b].has_jump = 1;
			e[b].jump_group = home_group;
			e[b].queue = q;
		}
		break;
	}
	case OCTO_STEER_APP_DROP:
		e[0].drop = 1;
		break;
	case OCTO_STEER_APP_JUMP:
		e[0].has_jump = 1;
		e[0].jump_group = conf->group_base + rule->jump_group;
		break;
	}
	*entries = e;
	*nb = n;
	return 0;
}

int
octo_steer_app_entry_queue(const struct octo_steer_app_rule *rule, uint32_t i)
{
	switch (rule->fate) {
	case OCTO_STEER_APP_QUEUE:
		return rule->queue;
	case OCTO_STEER_APP_RSS:
		return rule->rss_num != 0 ? rule->rss_queues[i % rule->rss_num] : -1;
	default:
		return -1;
	}
}
