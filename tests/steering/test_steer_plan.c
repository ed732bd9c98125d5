/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Unit tests of the steering planner (no EAL).  Besides checking the rule
 * set field by field, the tests run packets through a small model of an
 * rte_flow e-switch (lower priority wins, equal priority: earlier rule
 * wins, group 0 then the jump target, then the member's ingress) over the
 * planned rules, so a rule that is present but wrong is caught too.
 */

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "octo_steering.h"

#include "../common/octo_steer_conf.h"

/* ---- a tiny e-switch model over planned rules ---- */

#define MAX_INSTALLED 40000

struct installed {
	uint32_t slot;
	struct octo_steer_rule rule;
};

struct nic {
	uint32_t n;
	struct installed r[MAX_INSTALLED];
};

/* A packet as the e-switch sees it. */
struct pkt {
	uint8_t l3;	/* 0 (non-IP), 4, 6 */
	uint8_t l4;	/* 0, 6, 17, or another IP protocol */
	uint16_t sport, dport;
	uint32_t ip_src_low, ip_dst_low;
};

/* Where a packet ends: member and queue; member -1 when nothing matched. */
struct dest {
	int member;
	int queue;
};

static struct nic *
nic_new(void)
{
	struct nic *n = calloc(1, sizeof(*n));

	assert_non_null(n);
	return n;
}

static void
nic_add(struct nic *n, uint32_t slot, const struct octo_steer_rule *r)
{
	assert_true(n->n < MAX_INSTALLED);
	n->r[n->n].slot = slot;
	n->r[n->n].rule = *r;
	n->n++;
}

/* Remove the earliest installed rule of @p slot equal to @p r. */
static void
nic_del(struct nic *n, uint32_t slot, const struct octo_steer_rule *r)
{
	uint32_t i;

	for (i = 0; i < n->n; i++) {
		if (n->r[i].slot == slot &&
				memcmp(&n->r[i].rule, r, sizeof(*r)) == 0) {
			memmove(&n->r[i], &n->r[i + 1], (n->n - i - 1) * sizeof(n->r[0]));
			n->n--;
			return;
		}
	}
	fail_msg("deleting a rule that is not installed (slot %u)", slot);
}

static void
nic_install_plan(struct nic *n, const struct octo_steer_plan *p)
{
	uint32_t i;

	n->n = 0;
	for (i = 0; i < octo_steer_plan_nb_rules(p); i++)
		nic_add(n, i, octo_steer_plan_rule(p, i));
}

static int
field_matches(const struct octo_steer_rule *r, const struct pkt *k)
{
	uint32_t v;

	if (r->l3 != OCTO_STEER_L3_ANY && r->l3 != k->l3)
		return 0;
	if (r->l4 != OCTO_STEER_L4_ANY && r->l4 != k->l4)
		return 0;
	switch (r->field) {
	case OCTO_STEER_FIELD_NONE:
		return 1;
	case OCTO_STEER_FIELD_L4_SRC:
		v = k->sport;
		break;
	case OCTO_STEER_FIELD_L4_DST:
		v = k->dport;
		break;
	case OCTO_STEER_FIELD_IP_SRC:
		v = k->ip_src_low;
		break;
	case OCTO_STEER_FIELD_IP_DST:
		v = k->ip_dst_low;
		break;
	default:
		return 0;
	}
	/* an L4 field needs an L4 header the rule names, an IP field an IP one */
	if ((r->field == OCTO_STEER_FIELD_L4_SRC || r->field == OCTO_STEER_FIELD_L4_DST) &&
			r->l4 == OCTO_STEER_L4_ANY)
		return 0;
	if (r->l3 == OCTO_STEER_L3_ANY)
		return 0;
	return (v & r->mask) == (r->value & r->mask);
}

static const struct octo_steer_rule *
lookup(const struct nic *n, enum octo_steer_domain dom, uint16_t member,
		uint32_t group, const struct pkt *k, int has_meta, uint32_t meta)
{
	const struct octo_steer_rule *best = NULL;
	uint32_t i;

	for (i = 0; i < n->n; i++) {
		const struct octo_steer_rule *r = &n->r[i].rule;

		if (r->domain != dom || r->group != group)
			continue;
		if (dom == OCTO_STEER_DOM_INGRESS && r->member != member)
			continue;
		if (r->match_meta) {
			if (!has_meta || r->meta_match != meta)
				continue;
		} else if (!field_matches(r, k)) {
			continue;
		}
		/* strictly lower wins: an equal one installed later loses */
		if (best == NULL || r->priority < best->priority)
			best = r;
	}
	return best;
}

static struct dest
classify(const struct nic *n, const struct pkt *k)
{
	struct dest d = { -1, -1 };
	const struct octo_steer_rule *c, *h, *q;

	c = lookup(n, OCTO_STEER_DOM_TRANSFER, 0, 0, k, 0, 0);
	if (c == NULL)
		return d;
	assert_true(c->kind == OCTO_STEER_KIND_BUCKET ||
		c->kind == OCTO_STEER_KIND_CATCHALL);
	h = lookup(n, OCTO_STEER_DOM_TRANSFER, 0, c->jump_group, k, 1, c->set_meta);
	if (h == NULL)
		return d;
	assert_int_equal(h->kind, OCTO_STEER_KIND_HOME);
	q = lookup(n, OCTO_STEER_DOM_INGRESS, h->to_member, 0, k, 1, c->set_meta);
	if (q == NULL)
		return d;
	d.member = h->to_member;
	d.queue = q->queue;
	return d;
}

/* ---- fixtures ---- */

#define NB_MEMBERS 2
#define NB_QUEUES 4
#define RETA 16

static enum octo_steer_field cur_field;

static uint32_t
ip_bucket(uint32_t b)
{
	return (b * 5 + 3) % RETA;
}

static uint16_t homes[NB_QUEUES] = { 0, 1, 0, 1 };
static uint16_t reta[RETA];

static struct octo_steer_plan_conf
base_conf(enum octo_steer_field field)
{
	struct octo_steer_plan_conf c;
	unsigned int i;

	for (i = 0; i < RETA; i++)
		reta[i] = (uint16_t)((i * 3 + 1) % NB_QUEUES);
	cur_field = field;
	octo_steer_plan_conf_fill(&c, NB_MEMBERS, NB_QUEUES, homes, reta, RETA, field);
	c.catchall_queue = 2;
	return c;
}

static struct octo_steer_plan *
make_plan(const struct octo_steer_plan_conf *c)
{
	struct octo_steer_plan *p = NULL;
	char why[128] = "";
	int ret = octo_steer_plan_create(&p, c, why, sizeof(why));

	if (ret != 0)
		fail_msg("plan refused: %s", why);
	assert_non_null(p);
	return p;
}

/* Packets: one of each protocol per bucket value, plus ARP. */
static struct pkt
pkt_of(uint8_t l3, uint8_t l4, uint32_t bucket_bits, uint32_t noise)
{
	struct pkt k;

	/* the field under test carries the bucket in its low bits; high bits
	 * and the other fields carry noise that must not matter
	 */
	k.l3 = l3;
	k.l4 = l4;
	k.sport = (uint16_t)((noise << 4) | bucket_bits);
	k.dport = (uint16_t)((noise * 7 << 4) | bucket_bits);
	/* the addresses put the packet in another bucket than its ports, so
	 * a TCP/UDP packet classified by its address would be caught
	 */
	k.ip_src_low = (noise << 8) | ip_bucket(bucket_bits);
	k.ip_dst_low = (noise << 12) | ip_bucket(bucket_bits);
	return k;
}

/* The bucket a packet built by pkt_of(l4, b) belongs to under cur_field. */
static unsigned int
expected_bucket(uint8_t l4, unsigned int b)
{
	int l4_field = cur_field == OCTO_STEER_FIELD_L4_SRC ||
		cur_field == OCTO_STEER_FIELD_L4_DST;

	if (l4_field && (l4 == 6 || l4 == 17))
		return b;
	return ip_bucket(b);
}

static const uint8_t l3s[] = { 4, 6 };
static const uint8_t l4s[] = { 6, 17, 47 /* GRE: other IP */ };

/* Every IP packet of bucket b reaches (home[reta[b]], reta[b]); non-IP
 * reaches the catch-all queue at its home.
 */
static void
check_delivery(const struct nic *n, const uint16_t *home, const uint16_t *rt,
		uint16_t catchall)
{
	unsigned int b, i, j, noise;
	struct pkt arp = { 0 };
	struct dest d;

	for (b = 0; b < RETA; b++)
		for (i = 0; i < sizeof(l3s); i++)
			for (j = 0; j < sizeof(l4s); j++)
				for (noise = 0; noise < 3; noise++) {
					struct pkt k = pkt_of(l3s[i], l4s[j], b, noise);

					unsigned int eb = expected_bucket(l4s[j], b);

					d = classify(n, &k);
					assert_int_equal(d.queue, rt[eb]);
					assert_int_equal(d.member, home[rt[eb]]);
				}
	d = classify(n, &arp);
	assert_int_equal(d.queue, catchall);
	assert_int_equal(d.member, home[catchall]);
}

/* ---- tests ---- */

static void
test_rule_set_l4(void **state)
{
	struct octo_steer_plan_conf c = base_conf(OCTO_STEER_FIELD_L4_SRC);
	struct octo_steer_plan *p = make_plan(&c);
	unsigned int seen_queue[NB_MEMBERS][NB_QUEUES] = { { 0 } };
	unsigned int seen_home[NB_QUEUES] = { 0 };
	unsigned int seen_bucket[RETA][6] = { { 0 } };
	unsigned int catchall = 0, i;
	uint32_t max_bucket_prio = 0, catchall_prio = 0;
	struct nic *n = nic_new();

	(void)state;
	/* 2x4 ingress + 4 home + 16 buckets x 6 protocols + 1 catch-all */
	assert_int_equal(octo_steer_plan_nb_rules(p),
		NB_MEMBERS * NB_QUEUES + NB_QUEUES + RETA * 6 + 1);
	assert_null(octo_steer_plan_rule(p, octo_steer_plan_nb_rules(p)));

	for (i = 0; i < octo_steer_plan_nb_rules(p); i++) {
		const struct octo_steer_rule *r = octo_steer_plan_rule(p, i);
		int proto;

		switch (r->kind) {
		case OCTO_STEER_KIND_QUEUE:
			assert_int_equal(r->domain, OCTO_STEER_DOM_INGRESS);
			assert_int_equal(r->group, 0);
			assert_true(r->match_meta);
			assert_int_equal(r->meta_match, r->queue);
			assert_true(r->member < NB_MEMBERS && r->queue < NB_QUEUES);
			seen_queue[r->member][r->queue]++;
			break;
		case OCTO_STEER_KIND_HOME:
			assert_int_equal(r->domain, OCTO_STEER_DOM_TRANSFER);
			assert_int_equal(r->group, OCTO_STEER_HOME_GROUP);
			assert_true(r->match_meta);
			assert_true(r->meta_match < NB_QUEUES);
			assert_int_equal(r->to_member, homes[r->meta_match]);
			assert_int_equal(octo_steer_plan_home_slot(p, r->meta_match), i);
			seen_home[r->meta_match]++;
			break;
		case OCTO_STEER_KIND_BUCKET:
			assert_int_equal(r->domain, OCTO_STEER_DOM_TRANSFER);
			assert_int_equal(r->group, 0);
			assert_false(r->match_meta);
			assert_int_equal(r->mask, RETA - 1);
			assert_int_equal(r->value, r->bucket);
			assert_int_equal(r->set_meta, reta[r->bucket]);
			assert_int_equal(r->jump_group, OCTO_STEER_HOME_GROUP);
			if (r->l4 == OCTO_STEER_L4_ANY) {
				assert_int_equal(r->field, OCTO_STEER_FIELD_IP_SRC);
				assert_true(r->priority >= OCTO_STEER_PRIO_BUCKET_IP);
				proto = 4 + (r->l3 == 6);
			} else {
				assert_int_equal(r->field, OCTO_STEER_FIELD_L4_SRC);
				assert_true(r->priority < OCTO_STEER_PRIO_BUCKET_IP);
				proto = (r->l3 == 6) * 2 + (r->l4 == 17);
			}
			/* above every application priority level */
			assert_true(r->priority >= OCTO_STEER_PRIO_BUCKET_L4);
			seen_bucket[r->bucket][proto]++;
			if (r->priority > max_bucket_prio)
				max_bucket_prio = r->priority;
			break;
		case OCTO_STEER_KIND_CATCHALL:
			assert_int_equal(r->domain, OCTO_STEER_DOM_TRANSFER);
			assert_int_equal(r->group, 0);
			assert_int_equal(r->field, OCTO_STEER_FIELD_NONE);
			assert_int_equal(r->l3, OCTO_STEER_L3_ANY);
			assert_int_equal(r->set_meta, 2);
			catchall_prio = r->priority;
			catchall++;
			break;
		default:
			fail_msg("unknown kind %d", r->kind);
		}
	}
	for (i = 0; i < NB_MEMBERS * NB_QUEUES; i++)
		assert_int_equal(seen_queue[i / NB_QUEUES][i % NB_QUEUES], 1);
	for (i = 0; i < NB_QUEUES; i++)
		assert_int_equal(seen_home[i], 1);
	for (i = 0; i < RETA * 6; i++)
		assert_int_equal(seen_bucket[i / 6][i % 6], 1);
	assert_int_equal(catchall, 1);
	assert_true(catchall_prio > max_bucket_prio);

	nic_install_plan(n, p);
	check_delivery(n, homes, reta, 2);
	free(n);
	octo_steer_plan_free(p);
}

static void
test_rule_set_ip(void **state)
{
	struct octo_steer_plan_conf c = base_conf(OCTO_STEER_FIELD_IP_DST);
	struct octo_steer_plan *p = make_plan(&c);
	struct nic *n = nic_new();
	unsigned int i, buckets = 0;

	(void)state;
	assert_int_equal(octo_steer_plan_nb_rules(p),
		NB_MEMBERS * NB_QUEUES + NB_QUEUES + RETA * 2 + 1);
	for (i = 0; i < octo_steer_plan_nb_rules(p); i++) {
		const struct octo_steer_rule *r = octo_steer_plan_rule(p, i);

		if (r->kind != OCTO_STEER_KIND_BUCKET)
			continue;
		buckets++;
		assert_int_equal(r->field, OCTO_STEER_FIELD_IP_DST);
		assert_int_equal(r->l4, OCTO_STEER_L4_ANY);
	}
	assert_int_equal(buckets, RETA * 2);
	nic_install_plan(n, p);
	check_delivery(n, homes, reta, 2);
	free(n);
	octo_steer_plan_free(p);
}

/* Apply @p chg to the model one op at a time; after each op every packet
 * must still reach the old or the new destination, and from switch_op on,
 * the new one.
 */
static void
apply_checked(struct nic *n, const struct octo_steer_change *chg,
		const uint16_t *old_home, const uint16_t *old_reta,
		const uint16_t *new_home, const uint16_t *new_reta, uint16_t catchall)
{
	uint32_t i;

	for (i = 0; i < chg->nb_ops; i++) {
		const struct octo_steer_op *op = &chg->ops[i];
		unsigned int b, j, l;

		if (op->type == OCTO_STEER_OP_ADD)
			nic_add(n, op->slot, &op->rule);
		else
			nic_del(n, op->slot, &op->rule);
		if (i >= chg->switch_op) {
			check_delivery(n, new_home, new_reta, catchall);
			continue;
		}
		for (b = 0; b < RETA; b++)
			for (j = 0; j < sizeof(l3s); j++)
				for (l = 0; l < sizeof(l4s); l++) {
					struct pkt k = pkt_of(l3s[j], l4s[l], b, 1);
					struct dest d = classify(n, &k);
					unsigned int eb = expected_bucket(l4s[l], b);
					int old_ok = d.queue == old_reta[eb] &&
						d.member == old_home[old_reta[eb]];
					int new_ok = d.queue == new_reta[eb] &&
						d.member == new_home[new_reta[eb]];

					assert_true(old_ok || new_ok);
				}
	}
}

static void
test_set_home_one_rule(void **state)
{
	struct octo_steer_plan_conf c = base_conf(OCTO_STEER_FIELD_L4_SRC);
	uint16_t many[RETA], h2[NB_QUEUES];
	struct octo_steer_rule *snap;
	struct octo_steer_change chg;
	struct octo_steer_plan *p;
	struct octo_steer_rule before;
	struct nic *n = nic_new();
	unsigned int i, round, qi;
	uint16_t qs[2];

	(void)state;
	/* queue 0 carries 15 buckets, queue 1 one bucket */
	for (i = 0; i < RETA; i++) {
		many[i] = i == 5 ? 1 : 0;
	}
	c.reta = many;
	c.catchall_queue = 0;
	p = make_plan(&c);
	snap = calloc(octo_steer_plan_nb_rules(p), sizeof(*snap));
	assert_non_null(snap);
	for (i = 0; i < octo_steer_plan_nb_rules(p); i++)
		snap[i] = *octo_steer_plan_rule(p, i);
	nic_install_plan(n, p);
	memcpy(h2, homes, sizeof(h2));
	qs[0] = 0;
	qs[1] = 1;
	for (round = 0; round < 4; round++) {
		for (qi = 0; qi < 2; qi++) {
			uint16_t q = qs[qi];
			uint16_t to = (uint16_t)(1 - h2[q]);
			uint16_t newh[NB_QUEUES];
			uint32_t slot = octo_steer_plan_home_slot(p, q);

			before = *octo_steer_plan_rule(p, slot);
			assert_int_equal(octo_steer_plan_set_home(p, q, to, &chg), 0);
			/* the same two ops whatever the number of buckets on q */
			assert_int_equal(chg.nb_ops, 2);
			assert_int_equal(chg.ops[0].type, OCTO_STEER_OP_ADD);
			assert_int_equal(chg.ops[1].type, OCTO_STEER_OP_DEL);
			assert_int_equal(chg.ops[0].slot, slot);
			assert_int_equal(chg.ops[1].slot, slot);
			assert_int_equal(chg.ops[0].rule.kind, OCTO_STEER_KIND_HOME);
			assert_int_equal(chg.ops[0].rule.to_member, to);
			assert_int_equal(chg.ops[0].rule.meta_match, q);
			assert_memory_equal(&chg.ops[1].rule, &before, sizeof(before));
			/* levels alternate; the new rule wins at its add when it
			 * takes the lower value, else the switch is the removal
			 */
			assert_int_not_equal(chg.ops[0].rule.priority, before.priority);
			assert_int_equal(chg.switch_op,
				chg.ops[0].rule.priority < before.priority ? 0 : 1);
			/* the plan does not change before commit */
			assert_int_equal(octo_steer_plan_home(p, q), h2[q]);
			memcpy(newh, h2, sizeof(newh));
			newh[q] = to;
			apply_checked(n, &chg, h2, many, newh, many, 0);
			octo_steer_plan_commit(p, &chg);
			assert_int_equal(octo_steer_plan_home(p, q), to);
			h2[q] = to;
			/* exactly one slot differs from before */
			for (i = 0; i < octo_steer_plan_nb_rules(p); i++) {
				int same = memcmp(octo_steer_plan_rule(p, i), &snap[i],
					sizeof(snap[i])) == 0;

				assert_int_equal(same, i != slot);
				snap[i] = *octo_steer_plan_rule(p, i);
			}
		}
	}
	/* the first move of each queue switched at the add (initial level) */
	assert_int_equal(octo_steer_plan_set_home(p, 2, 1, &chg), 0);
	assert_int_equal(chg.switch_op, 0);
	/* no-op move */
	assert_int_equal(octo_steer_plan_set_home(p, 2, homes[2], &chg), 0);
	assert_int_equal(chg.nb_ops, 0);
	free(snap);
	free(n);
	octo_steer_plan_free(p);
}

static void
test_set_bucket_only_its_rules(void **state)
{
	struct octo_steer_plan_conf c = base_conf(OCTO_STEER_FIELD_L4_SRC);
	struct octo_steer_plan *p = make_plan(&c);
	struct octo_steer_plan *ref = make_plan(&c);
	struct octo_steer_change chg;
	uint16_t newreta[RETA];
	struct nic *n = nic_new();
	unsigned int i, b = 7;
	uint16_t q = (uint16_t)((reta[b] + 1) % NB_QUEUES);

	(void)state;
	nic_install_plan(n, p);
	assert_int_equal(octo_steer_plan_set_bucket(p, b, q, &chg), 0);
	assert_int_equal(chg.nb_ops, 12);
	for (i = 0; i < chg.nb_ops; i++) {
		assert_int_equal(chg.ops[i].type,
			i < 6 ? OCTO_STEER_OP_ADD : OCTO_STEER_OP_DEL);
		assert_int_equal(chg.ops[i].rule.kind, OCTO_STEER_KIND_BUCKET);
		assert_int_equal(chg.ops[i].rule.bucket, b);
		assert_int_equal(chg.ops[i].rule.set_meta,
			i < 6 ? q : reta[b]);
		/* removal i + 6 takes away what add i replaces */
		if (i < 6)
			assert_int_equal(chg.ops[i].slot, chg.ops[i + 6].slot);
	}
	assert_int_equal(chg.switch_op, 5);
	memcpy(newreta, reta, sizeof(newreta));
	newreta[b] = q;
	apply_checked(n, &chg, homes, reta, homes, newreta, 2);
	octo_steer_plan_commit(p, &chg);
	assert_int_equal(octo_steer_plan_bucket_queue(p, b), q);
	/* every slot outside the bucket's is unchanged */
	for (i = 0; i < octo_steer_plan_nb_rules(p); i++) {
		const struct octo_steer_rule *r = octo_steer_plan_rule(p, i);
		const struct octo_steer_rule *o = octo_steer_plan_rule(ref, i);

		if (r->kind == OCTO_STEER_KIND_BUCKET && r->bucket == b) {
			assert_int_equal(r->set_meta, q);
			continue;
		}
		assert_memory_equal(r, o, sizeof(*r));
	}
	/* back again: the second change switches at the removals */
	assert_int_equal(octo_steer_plan_set_bucket(p, b, reta[b], &chg), 0);
	assert_int_equal(chg.switch_op, 11);
	apply_checked(n, &chg, homes, newreta, homes, reta, 2);
	octo_steer_plan_commit(p, &chg);
	/* unchanged bucket: no op */
	assert_int_equal(octo_steer_plan_set_bucket(p, b, reta[b], &chg), 0);
	assert_int_equal(chg.nb_ops, 0);

	/* catch-all moves alone */
	assert_int_equal(octo_steer_plan_set_catchall(p, 3, &chg), 0);
	assert_int_equal(chg.nb_ops, 2);
	assert_int_equal(chg.ops[0].rule.kind, OCTO_STEER_KIND_CATCHALL);
	assert_int_equal(chg.ops[0].rule.set_meta, 3);
	apply_checked(n, &chg, homes, reta, homes, reta, 3);
	free(n);
	octo_steer_plan_free(ref);
	octo_steer_plan_free(p);
}

static void
expect_refused(const struct octo_steer_plan_conf *c, const char *what)
{
	struct octo_steer_plan *p = (struct octo_steer_plan *)(uintptr_t)1;
	char why[128] = "";

	assert_int_equal(octo_steer_plan_create(&p, c, why, sizeof(why)), -EINVAL);
	assert_null(p);
	if (strstr(why, what) == NULL)
		fail_msg("reason \"%s\" does not mention \"%s\"", why, what);
}

static void
test_bad_input(void **state)
{
	struct octo_steer_plan_conf c;
	struct octo_steer_change chg;
	struct octo_steer_plan *p;
	uint16_t bad_home[NB_QUEUES] = { 0, 2, 0, 1 };
	uint16_t bad_reta[RETA] = { 0 };

	(void)state;
	assert_int_equal(octo_steer_plan_create(&p, NULL, NULL, 0), -EINVAL);
	c = base_conf(OCTO_STEER_FIELD_L4_SRC);
	c.nb_members = 0;
	expect_refused(&c, "members");
	c = base_conf(OCTO_STEER_FIELD_L4_SRC);
	c.nb_members = OCTO_STEER_MAX_MEMBERS + 1;
	expect_refused(&c, "members");
	c = base_conf(OCTO_STEER_FIELD_L4_SRC);
	c.nb_queues = 0;
	expect_refused(&c, "queues");
	c = base_conf(OCTO_STEER_FIELD_L4_SRC);
	c.reta_size = 12;
	expect_refused(&c, "power of 2");
	c = base_conf(OCTO_STEER_FIELD_L4_SRC);
	c.reta_size = 0;
	expect_refused(&c, "power of 2");
	c = base_conf(OCTO_STEER_FIELD_L4_SRC);
	c.home = bad_home;
	expect_refused(&c, "queue 1: home member 2");
	c = base_conf(OCTO_STEER_FIELD_L4_SRC);
	bad_reta[9] = NB_QUEUES;
	c.reta = bad_reta;
	expect_refused(&c, "RETA entry 9");
	c = base_conf(OCTO_STEER_FIELD_L4_SRC);
	c.reta = NULL;
	expect_refused(&c, "RETA");
	c = base_conf(OCTO_STEER_FIELD_L4_SRC);
	c.catchall_queue = NB_QUEUES;
	expect_refused(&c, "catch-all");
	c = base_conf((enum octo_steer_field)9);
	expect_refused(&c, "field");

	c = base_conf(OCTO_STEER_FIELD_L4_SRC);
	p = make_plan(&c);
	assert_int_equal(octo_steer_plan_set_home(p, NB_QUEUES, 0, &chg), -EINVAL);
	assert_int_equal(octo_steer_plan_set_home(p, 0, NB_MEMBERS, &chg), -EINVAL);
	assert_int_equal(octo_steer_plan_set_bucket(p, RETA, 0, &chg), -EINVAL);
	assert_int_equal(octo_steer_plan_set_bucket(p, 0, NB_QUEUES, &chg), -EINVAL);
	assert_int_equal(octo_steer_plan_set_catchall(p, NB_QUEUES, &chg), -EINVAL);
	assert_int_equal(octo_steer_plan_home_slot(p, NB_QUEUES), UINT32_MAX);
	assert_int_equal(octo_steer_plan_home(p, NB_QUEUES), UINT16_MAX);
	assert_int_equal(octo_steer_plan_bucket_queue(p, RETA), UINT16_MAX);
	octo_steer_plan_free(p);
}

/*
 * Classification in a non-zero group (a NIC refusing it in the root
 * table): buckets, catch-all and their changes there, home rules in the
 * home group above it; META masks: the home rules the queue half, the
 * member queue rules all of it.
 */
static void
test_class_group(void **state)
{
	struct octo_steer_plan_conf c = base_conf(OCTO_STEER_FIELD_L4_SRC);
	struct octo_steer_change chg;
	struct octo_steer_plan *p;
	const struct octo_steer_rule *r;
	uint32_t i;

	(void)state;
	c.class_group = 1;
	p = make_plan(&c);
	for (i = 0; i < octo_steer_plan_nb_rules(p); i++) {
		r = octo_steer_plan_rule(p, i);
		switch (r->kind) {
		case OCTO_STEER_KIND_BUCKET:
		case OCTO_STEER_KIND_CATCHALL:
			assert_int_equal(r->group, 1);
			assert_int_equal(r->jump_group, OCTO_STEER_HOME_GROUP + 1);
			break;
		case OCTO_STEER_KIND_HOME:
			assert_int_equal(r->group, OCTO_STEER_HOME_GROUP + 1);
			assert_int_equal(r->meta_mask, OCTO_STEER_META_QUEUE_MASK);
			break;
		case OCTO_STEER_KIND_QUEUE:
			assert_int_equal(r->group, 0);
			assert_int_equal(r->meta_mask, UINT32_MAX);
			break;
		}
	}
	assert_int_equal(octo_steer_plan_set_bucket(p, 0, 3, &chg), 0);
	assert_int_equal(chg.ops[0].rule.group, 1);
	assert_int_equal(octo_steer_plan_set_catchall(p, 3, &chg), 0);
	assert_int_equal(chg.ops[0].rule.group, 1);
	assert_int_equal(octo_steer_plan_set_home(p, 0, homes[0] ^ 1, &chg), 0);
	assert_int_equal(chg.ops[0].rule.group, OCTO_STEER_HOME_GROUP + 1);
	octo_steer_plan_free(p);
	/* not below the home group: refused */
	c.class_group = 5;
	c.home_group = 5;
	expect_refused(&c, "home group");
}

static void
test_field_names(void **state)
{
	int f;

	(void)state;
	for (f = 0; f < OCTO_STEER_FIELD_MAX; f++)
		assert_int_equal(octo_steer_field_parse(octo_steer_field_name(f)), f);
	assert_int_equal(octo_steer_field_parse("toeplitz"), -1);
	assert_null(octo_steer_field_name(OCTO_STEER_FIELD_NONE));
	assert_int_equal(octo_steer_rules_per_bucket(OCTO_STEER_FIELD_L4_DST), 6);
	assert_int_equal(octo_steer_rules_per_bucket(OCTO_STEER_FIELD_IP_SRC), 2);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rule_set_l4),
		cmocka_unit_test(test_rule_set_ip),
		cmocka_unit_test(test_set_home_one_rule),
		cmocka_unit_test(test_set_bucket_only_its_rules),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_field_names),
		cmocka_unit_test(test_class_group),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
