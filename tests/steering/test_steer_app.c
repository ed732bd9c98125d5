/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Unit tests of the application-rule planner (no EAL): what each
 * application rule becomes, that RSS expansions cover every header value
 * exactly once with the promised spread, and that refusals name the cause.
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

#include "octo_steer_app.h"

static const struct octo_steer_app_conf port4 = {
	.nb_queues = 4,
	.reta_size = 64,
	.field = OCTO_STEER_FIELD_L4_SRC,
	.home_group = 0,
};

static struct octo_steer_app_rule
queue_rule(uint16_t q)
{
	struct octo_steer_app_rule r;

	memset(&r, 0, sizeof(r));
	r.fate = OCTO_STEER_APP_QUEUE;
	r.queue = q;
	r.l3 = OCTO_STEER_L3_IPV4;
	r.l4 = OCTO_STEER_L4_UDP;
	r.level = 1;
	return r;
}

/* @p r with the action MARK @p id. */
static void
mark(struct octo_steer_app_rule *r, uint32_t id)
{
	r->has_mark = 1;
	r->mark = id;
}

/* The plan of @p r on @p c, which must be one entry (free() it). */
static struct octo_steer_app_entry *
plan_one(const struct octo_steer_app_conf *c, const struct octo_steer_app_rule *r)
{
	struct octo_steer_app_entry *e;
	uint32_t n;

	assert_int_equal(octo_steer_app_plan(c, r, &e, &n, NULL, 0), 0);
	assert_int_equal(n, 1);
	return e;
}

static void
test_queue(void **state)
{
	struct octo_steer_app_rule r = queue_rule(2);
	struct octo_steer_app_entry *e;
	uint32_t n;

	(void)state;
	r.priority = 3;
	mark(&r, 0xbeef);
	r.has_count = 1;
	e = plan_one(&port4, &r);
	assert_int_equal(e[0].group, 0);
	assert_int_equal(e[0].priority, OCTO_STEER_PRIO_APP(3, 1));
	/* above every default classification rule */
	assert_true(e[0].priority < OCTO_STEER_PRIO_BUCKET_L4);
	assert_true(e[0].has_meta && e[0].set_meta == 2);
	assert_true(e[0].has_jump && e[0].jump_group == OCTO_STEER_HOME_GROUP);
	assert_false(e[0].drop);
	assert_int_equal(e[0].field, OCTO_STEER_FIELD_NONE);
	assert_true(e[0].has_mark && e[0].mark == 0xbeef && e[0].has_count);
	assert_int_equal(e[0].queue, 2);
	free(e);

	/* the other level, and an explicit home group */
	{
		struct octo_steer_app_conf c = port4;

		c.home_group = 40;
		r.level = 0;
		assert_int_equal(octo_steer_app_plan(&c, &r, &e, &n, NULL, 0), 0);
		assert_int_equal(e[0].priority, OCTO_STEER_PRIO_APP(3, 0));
		assert_int_equal(e[0].jump_group, 40);
		free(e);
	}
}

/* Which entry an L4 source port value hits (-1: none, -2: more than one). */
static int
hit(const struct octo_steer_app_entry *e, uint32_t n, uint32_t v)
{
	int found = -1;
	uint32_t i;

	for (i = 0; i < n; i++) {
		if (e[i].field != OCTO_STEER_FIELD_NONE &&
				(v & e[i].mask) != (e[i].value & e[i].mask))
			continue;
		if (found >= 0)
			return -2;
		found = (int)i;
	}
	return found;
}

static void
rss_spread(uint16_t nq, uint16_t reta, uint32_t want_entries)
{
	struct octo_steer_app_conf c = port4;
	struct octo_steer_app_rule r = queue_rule(0);
	uint16_t queues[8] = { 3, 1, 2, 0, 3, 1, 2, 0 };
	uint32_t per_q[4] = { 0 }, n, v, lo = UINT32_MAX, hi = 0, i;
	uint32_t weight[4] = { 0 };
	struct octo_steer_app_entry *e;

	c.reta_size = reta;
	r.fate = OCTO_STEER_APP_RSS;
	r.rss_queues = queues;
	r.rss_num = nq;
	r.has_count = 1;
	assert_int_equal(octo_steer_app_plan(&c, &r, &e, &n, NULL, 0), 0);
	assert_int_equal(n, want_entries);
	assert_int_equal(octo_steer_app_rss_buckets(nq, reta), want_entries);
	for (i = 0; i < n; i++) {
		/* one queue: the pattern alone, nothing to narrow */
		assert_int_equal(e[i].field, n > 1 ? OCTO_STEER_FIELD_L4_SRC :
			OCTO_STEER_FIELD_NONE);
		assert_true(e[i].has_meta && e[i].has_jump && e[i].has_count);
		assert_int_equal(e[i].set_meta, e[i].queue);
	}
	/* every source port hits exactly one entry; its queue is in the set */
	for (v = 0; v < 65536; v++) {
		int k = hit(e, n, v);

		assert_true(k >= 0);
		assert_int_equal(e[k].queue, queues[v % n % nq]);
		per_q[e[k].queue]++;
	}
	/* each set member's share: buckets / n within one bucket */
	for (i = 0; i < nq; i++)
		weight[queues[i]]++;
	for (i = 0; i < 4; i++) {
		if (weight[i] == 0) {
			assert_int_equal(per_q[i], 0);
			continue;
		}
		lo = per_q[i] / weight[i] < lo ? per_q[i] / weight[i] : lo;
		hi = per_q[i] / weight[i] > hi ? per_q[i] / weight[i] : hi;
	}
	assert_true(hi - lo <= 65536 / n);
	free(e);
}

static void
test_rss(void **state)
{
	(void)state;
	rss_spread(4, 64, 4);	/* power of two: exact, one entry per queue */
	rss_spread(2, 64, 2);
	rss_spread(3, 64, 64);	/* not: spread over the port's buckets */
	rss_spread(3, 2, 4);	/* tiny RETA: next power of two >= n */
	rss_spread(1, 64, 1);
}

/* A plan that fits the caller's buffer lands there, zeroed first; one
 * that does not is allocated, the buffer untouched.
 */
static void
test_plan_in(void **state)
{
	struct octo_steer_app_rule r = queue_rule(1);
	struct octo_steer_app_entry buf[2], *e;
	uint16_t queues[2] = { 0, 3 };
	uint32_t n;

	(void)state;
	memset(buf, 0xa5, sizeof(buf));
	assert_int_equal(octo_steer_app_plan_in(&port4, &r, buf, 2, &e, &n, NULL, 0), 0);
	assert_ptr_equal(e, buf);
	assert_int_equal(n, 1);
	assert_true(e[0].has_meta && e[0].set_meta == 1 && e[0].queue == 1);
	assert_false(e[0].drop || e[0].has_mark || e[0].has_count);
	/* RSS over 2 queues: 2 entries fit; a cap of 1 allocates */
	r.fate = OCTO_STEER_APP_RSS;
	r.rss_queues = queues;
	r.rss_num = 2;
	assert_int_equal(octo_steer_app_plan_in(&port4, &r, buf, 2, &e, &n, NULL, 0), 0);
	assert_ptr_equal(e, buf);
	assert_int_equal(n, 2);
	memset(buf, 0xa5, sizeof(buf));
	assert_int_equal(octo_steer_app_plan_in(&port4, &r, buf, 1, &e, &n, NULL, 0), 0);
	assert_ptr_not_equal(e, buf);
	assert_int_equal(n, 2);
	assert_true(e[0].queue == 0 && e[1].queue == 3);
	assert_int_equal(buf[0].queue, 0xa5a5);
	free(e);
}

static void
test_rss_field(void **state)
{
	struct octo_steer_app_rule r = queue_rule(0);
	struct octo_steer_app_conf c = port4;
	uint16_t queues[2] = { 0, 1 };
	struct octo_steer_app_entry *e;
	char why[128] = "";
	uint32_t n;

	(void)state;
	r.fate = OCTO_STEER_APP_RSS;
	r.rss_queues = queues;
	r.rss_num = 2;
	r.l4 = OCTO_STEER_L4_ANY;	/* eth / ipv4: the address */
	assert_int_equal(octo_steer_app_plan(&c, &r, &e, &n, NULL, 0), 0);
	assert_int_equal(e[0].field, OCTO_STEER_FIELD_IP_SRC);
	free(e);
	c.field = OCTO_STEER_FIELD_L4_DST;	/* same direction as the port */
	r.l4 = OCTO_STEER_L4_TCP;
	assert_int_equal(octo_steer_app_plan(&c, &r, &e, &n, NULL, 0), 0);
	assert_int_equal(e[1].field, OCTO_STEER_FIELD_L4_DST);
	assert_int_equal(e[1].value, 1);
	assert_int_equal(e[1].mask, 1);
	free(e);
	c.field = OCTO_STEER_FIELD_IP_DST;
	r.l3 = OCTO_STEER_L3_IPV6;
	r.l4 = OCTO_STEER_L4_ANY;
	assert_int_equal(octo_steer_app_plan(&c, &r, &e, &n, NULL, 0), 0);
	assert_int_equal(e[0].field, OCTO_STEER_FIELD_IP_DST);
	free(e);
	/* no IP item: nothing to spread by */
	r.l3 = OCTO_STEER_L3_ANY;
	assert_int_equal(octo_steer_app_plan(&c, &r, &e, &n, why, sizeof(why)),
		-ENOTSUP);
	assert_null(e);
	assert_non_null(strstr(why, "IPv4 or IPv6"));
}

static void
test_drop_jump(void **state)
{
	struct octo_steer_app_rule r = queue_rule(0);
	struct octo_steer_app_entry *e;
	uint32_t n;

	(void)state;
	r.fate = OCTO_STEER_APP_DROP;
	r.has_count = 1;
	e = plan_one(&port4, &r);
	assert_true(e[0].drop && !e[0].has_meta && !e[0].has_jump && e[0].has_count);
	assert_int_equal(e[0].queue, UINT16_MAX);
	free(e);
	r.fate = OCTO_STEER_APP_JUMP;
	r.group = 2;
	r.jump_group = 5;
	assert_int_equal(octo_steer_app_plan(&port4, &r, &e, &n, NULL, 0), 0);
	assert_true(e[0].has_jump && e[0].jump_group == 5 && e[0].group == 2 &&
		!e[0].has_meta);
	free(e);
}

static void
refused(const struct octo_steer_app_rule *r, int want, const char *text)
{
	struct octo_steer_app_entry *e = (void *)1;
	char why[160] = "";
	uint32_t n = 7;

	assert_int_equal(octo_steer_app_plan(&port4, r, &e, &n, why, sizeof(why)), want);
	assert_null(e);
	assert_int_equal(n, 0);
	if (strstr(why, text) == NULL)
		fail_msg("why \"%s\" lacks \"%s\"", why, text);
}

static void
test_refusals(void **state)
{
	struct octo_steer_app_rule r;
	uint16_t bad[2] = { 1, 9 };

	(void)state;
	r = queue_rule(4);
	refused(&r, -EINVAL, "queue index 4");
	r = queue_rule(0);
	r.group = OCTO_STEER_HOME_GROUP;
	refused(&r, -ENOTSUP, "group 64");
	r = queue_rule(0);
	r.priority = OCTO_STEER_APP_MAX_PRIO;
	refused(&r, -ENOTSUP, "priority 15");
	r = queue_rule(0);
	r.fate = OCTO_STEER_APP_JUMP;
	r.group = 3;
	r.jump_group = 3;
	refused(&r, -EINVAL, "jump to group 3");
	r.jump_group = OCTO_STEER_HOME_GROUP;
	refused(&r, -EINVAL, "jump to group 64");
	r = queue_rule(0);
	r.fate = OCTO_STEER_APP_RSS;
	r.rss_queues = bad;
	r.rss_num = 2;
	refused(&r, -EINVAL, "rss: queue 9");
	r.rss_num = 0;
	refused(&r, -EINVAL, "rss: no queues");
}

/*
 * MARK/FLAG in the ingress stage (conf mark_ingress): entries carry the
 * rule's tag in META's high half and no MARK/FLAG; DROP leaves the mark
 * out; JUMP with a mark is refused; a tag is needed.
 */
static void
test_mark_ingress(void **state)
{
	struct octo_steer_app_conf c = port4;
	struct octo_steer_app_rule r = queue_rule(2);
	uint16_t queues[2] = { 1, 3 };
	struct octo_steer_app_entry *e;
	uint32_t n, i;

	(void)state;
	c.mark_ingress = 1;
	mark(&r, 0xbeef);
	r.mark_tag = 7;
	e = plan_one(&c, &r);
	assert_true(e[0].has_meta);
	assert_int_equal(e[0].set_meta, 7u << OCTO_STEER_META_TAG_SHIFT | 2);
	assert_int_equal(e[0].set_meta & OCTO_STEER_META_QUEUE_MASK, 2);
	assert_false(e[0].has_mark || e[0].has_flag);
	assert_int_equal(e[0].queue, 2);
	free(e);

	/* without a mark, no tag: META is the queue alone */
	r.has_mark = 0;
	assert_int_equal(octo_steer_app_plan(&c, &r, &e, &n, NULL, 0), 0);
	assert_int_equal(e[0].set_meta, 2);
	free(e);

	/* RSS with FLAG: every entry tagged, its own queue in the low half */
	r.has_flag = 1;
	r.fate = OCTO_STEER_APP_RSS;
	r.rss_queues = queues;
	r.rss_num = 2;
	assert_int_equal(octo_steer_app_plan(&c, &r, &e, &n, NULL, 0), 0);
	assert_int_equal(n, 2);
	for (i = 0; i < n; i++) {
		assert_int_equal(e[i].set_meta >> OCTO_STEER_META_TAG_SHIFT, 7);
		assert_int_equal(e[i].set_meta & OCTO_STEER_META_QUEUE_MASK, e[i].queue);
		assert_false(e[i].has_flag);
	}
	free(e);

	/* DROP: the mark is moot */
	r.fate = OCTO_STEER_APP_DROP;
	r.mark_tag = 0;
	assert_int_equal(octo_steer_app_plan(&c, &r, &e, &n, NULL, 0), 0);
	assert_true(e[0].drop && !e[0].has_mark && !e[0].has_flag && !e[0].has_meta);
	free(e);

	/* JUMP with a mark: refused, naming the limit */
	{
		char why[256] = "";

		r.fate = OCTO_STEER_APP_JUMP;
		r.jump_group = 3;
		assert_int_equal(octo_steer_app_plan(&c, &r, &e, &n, why, sizeof(why)), -ENOTSUP);
		assert_non_null(strstr(why, "jump"));
		/* a QUEUE rule without a tag */
		r.fate = OCTO_STEER_APP_QUEUE;
		assert_int_equal(octo_steer_app_plan(&c, &r, &e, &n, why, sizeof(why)), -EINVAL);
		assert_non_null(strstr(why, "tag"));
	}
}

/* Application group g in transfer group group_base + g (classification
 * behind a root jump); the application's groups stay 0..63.
 */
static void
test_group_base(void **state)
{
	struct octo_steer_app_conf c = port4;
	struct octo_steer_app_rule r = queue_rule(1);
	struct octo_steer_app_entry *e;
	uint32_t n;

	(void)state;
	c.group_base = 1;
	assert_int_equal(octo_steer_app_plan(&c, &r, &e, &n, NULL, 0), 0);
	assert_int_equal(e[0].group, 1);
	assert_int_equal(e[0].jump_group, OCTO_STEER_HOME_GROUP + 1);
	free(e);
	r.fate = OCTO_STEER_APP_JUMP;
	r.jump_group = 3;
	assert_int_equal(octo_steer_app_plan(&c, &r, &e, &n, NULL, 0), 0);
	assert_int_equal(e[0].group, 1);
	assert_int_equal(e[0].jump_group, 4);
	free(e);
	r.fate = OCTO_STEER_APP_DROP;
	r.group = OCTO_STEER_HOME_GROUP - 1;
	assert_int_equal(octo_steer_app_plan(&c, &r, &e, &n, NULL, 0), 0);
	assert_int_equal(e[0].group, OCTO_STEER_HOME_GROUP);
	free(e);
	r.group = OCTO_STEER_HOME_GROUP;
	assert_int_equal(octo_steer_app_plan(&c, &r, &e, &n, NULL, 0), -ENOTSUP);
}

static void
test_isolate_priority(void **state)
{
	(void)state;
	/* every app rule wins over the isolate rule, which wins over buckets */
	assert_true(OCTO_STEER_PRIO_APP(OCTO_STEER_APP_MAX_PRIO - 1, 1) <
		OCTO_STEER_PRIO_ISOLATE);
	assert_true(OCTO_STEER_PRIO_ISOLATE < OCTO_STEER_PRIO_BUCKET_L4);
	assert_true(OCTO_STEER_PRIO_ISOLATE < OCTO_STEER_PRIO_BUCKET_IP);
	assert_true(OCTO_STEER_PRIO_ISOLATE < OCTO_STEER_PRIO_CATCHALL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_queue),
		cmocka_unit_test(test_rss),
		cmocka_unit_test(test_plan_in),
		cmocka_unit_test(test_rss_field),
		cmocka_unit_test(test_drop_jump),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_isolate_priority),
		cmocka_unit_test(test_mark_ingress),
		cmocka_unit_test(test_group_base),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
