/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * The shapes the members' e-switch takes for the application's rules, by
 * asking its transfer proxy (octopus_steer_probe), and the application's
 * MARK and FLAG where the e-switch refuses them in transfer rules (mlx5
 * hardware steering up to DPDK 24.11): they go to the members' ingress
 * stage instead.
 *
 * There, a QUEUE or RSS rule gets a tag of its own (1..65535); its
 * transfer rules write tag:q into META (tag in the high half, queue q in
 * the low one, lib/steering octo_steer_app.h), the steering's home rule of
 * q matches the low half only, and every member's ingress gets, for each
 * queue q of the rule, "META == tag:q -> MARK/FLAG + QUEUE(q)" beside the
 * steering's "META == q -> QUEUE(q)".  Moving q still replaces one home
 * rule; the rule's traffic gets its mark on whichever member receives it.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <ethdev_driver.h>

#include "octopus_internal.h"
#include "octopus_flow.h"

/* Ingress MARK/FLAG rules of one application rule. */
struct octopus_flow_mark {
	uint16_t nb_q;				/* queues the rule delivers to */
	uint16_t nb_members;
	/* port of each member's rules, OCTOPUS_STEER_PORT_ABSENT: none */
	uint16_t port[OCTOPUS_MAX_MEMBERS];
	uint16_t *q;				/* [nb_q] */
	struct rte_flow **h;			/* [nb_members][nb_q] */
};

/* Probe "ETH -> @p extra + META := 0 + JUMP(home)" in the classification's group. */
static int
probe_transfer(uint16_t proxy, const struct octopus_flow_shape *sh,
		const struct rte_flow_action *extra, bool by_create, struct rte_flow_error *err)
{
	struct rte_flow_attr attr = { .group = sh->base, .transfer = 1 };
	struct rte_flow_item items[2] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_action_jump jump = { .group = OCTO_STEER_HOME_GROUP + sh->base };
	struct rte_flow_action actions[4];
	struct rte_flow_action_modify_field mod;
	struct rte_flow_action_set_meta set;

	memset(actions, 0, sizeof(actions));
	actions[0] = *extra;
	octopus_steer_meta_action(sh->meta_how, 0, &actions[1], &set, &mod);
	actions[2].type = RTE_FLOW_ACTION_TYPE_JUMP;
	actions[2].conf = &jump;
	actions[3].type = RTE_FLOW_ACTION_TYPE_END;
	return octopus_steer_probe(proxy, &attr, items, actions, by_create, err);
}

/*
 * Whether member port @p proxy runs: during the port's start, once the
 * members run and before the port says it is started, the rules made
 * again (replay) are made on the members, so a create answers then.
 */
static bool
proxy_started(const struct octopus_priv *p, uint16_t proxy)
{
	const struct octopus_member *m;
	uint16_t i;

	OCTO_FOREACH_MEMBER_STATE(p, i, m, OCTO_MEMBER_STARTED)
		if (m->port_id == proxy)
			return true;
	return false;
}

int
octopus_flow_shape_get(struct octopus_priv *p, uint16_t proxy, bool may_create,
		struct octopus_flow_shape *sh, struct rte_flow_error *error)
{
	struct octopus_flows *fl = p->flows;
	struct rte_flow_action_mark mark = { .id = 0 };
	struct rte_flow_action a_mark = { .type = RTE_FLOW_ACTION_TYPE_MARK, .conf = &mark };
	struct rte_flow_action a_flag = { .type = RTE_FLOW_ACTION_TYPE_FLAG };
	struct rte_flow_error err;
	/* a create tells what a validate may not (facts F1): where the
	 * members take no rules now, or the caller makes none (an
	 * application's validate), validate's answer is used, not kept
	 */
	bool by_create = may_create && (p->started || proxy_started(p, proxy) ||
		octopus_members_keep_rules(p));
	char why[320];
	int ret;

	if (fl->shape_known && fl->shape_proxy == proxy) {
		*sh = fl->shape;
		return 0;
	}
	memset(sh, 0, sizeof(*sh));
	if (p->steer != NULL && octopus_steer_proxy(p->steer) == proxy) {
		sh->meta_how = octopus_steer_meta_how(p->steer);
		sh->base = octopus_steer_class_group(p->steer);
		sh->wire_item = octopus_steer_wire_item(p->steer);
	} else {
		sh->wire_item = octopus_steer_wire_item_probe(proxy);
		ret = octopus_steer_class_probe(proxy, by_create, &sh->meta_how, &sh->base, why,
			sizeof(why));
		if (ret != 0)
			return octopus_flow_error(error, -ret, RTE_FLOW_ERROR_TYPE_UNSPECIFIED,
				NULL, "members' e-switch: %s", why);
	}
	ret = probe_transfer(proxy, sh, &a_mark, by_create, &err);
	if (ret == 0)
		ret = probe_transfer(proxy, sh, &a_flag, by_create, &err);
	if (ret != 0 && !octopus_steer_unsupported(ret))
		return octopus_flow_error(error, -ret, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"members' e-switch (port %u): probing a transfer MARK failed: %s",
			proxy, err.message != NULL ? err.message : rte_strerror(-ret));
	sh->mark_ingress = ret != 0;
	fl->shape = *sh;
	fl->shape_proxy = proxy;
	fl->shape_known = by_create;
	return 0;
}

/* ---- tags ----------------------------------------------------------------- */

#define TAG_WORDS (OCTO_STEER_MARK_TAGS / 64)

static int
tag_get(struct octopus_flows *fl, uint16_t *tag)
{
	uint32_t i, t;

	if (fl->tag_used == NULL) {
		fl->tag_used = calloc(TAG_WORDS, sizeof(*fl->tag_used));
		if (fl->tag_used == NULL)
			return -ENOMEM;
		fl->tag_used[0] = 1;	/* tag 0: no tag */
	}
	for (i = 0; i < OCTO_STEER_MARK_TAGS; i++) {
		t = (fl->tag_next + i) % OCTO_STEER_MARK_TAGS;
		if ((fl->tag_used[t / 64] & (UINT64_C(1) << (t % 64))) == 0) {
			fl->tag_used[t / 64] |= UINT64_C(1) << (t % 64);
			fl->tag_next = t + 1;
			*tag = (uint16_t)t;
			return 0;
		}
	}
	return -ENOSPC;
}

static void
tag_put(struct octopus_flows *fl, uint16_t tag)
{
	if (fl->tag_used != NULL && tag != 0)
		fl->tag_used[tag / 64] &= ~(UINT64_C(1) << (tag % 64));
}

int
octopus_flow_mark_tag(struct octopus_priv *p, struct octopus_flow *f,
		const struct octopus_flow_shape *sh, struct rte_flow_error *error)
{
	const struct octo_steer_app_rule *a = &f->app;

	if (!sh->mark_ingress || !(a->has_mark || a->has_flag) || f->app.mark_tag != 0 ||
			(a->fate != OCTO_STEER_APP_QUEUE && a->fate != OCTO_STEER_APP_RSS))
		return 0;
	if (tag_get(p->flows, &f->app.mark_tag) != 0)
		return octopus_flow_error(error, ENOSPC, RTE_FLOW_ERROR_TYPE_ACTION, NULL,
			"%u rules with MARK or FLAG already: the members' e-switch takes them only in the PFs' ingress, at most that many",
			OCTO_STEER_MARK_TAGS - 1);
	return 0;
}

/* ---- ingress rules -------------------------------------------------------- */

/* Create (@p flow non-NULL) or validate "META == @p meta -> MARK/FLAG + QUEUE(@p q)". */
static int
mark_rule(uint16_t port, const struct octo_steer_app_rule *a, uint32_t meta, uint16_t q,
		struct rte_flow **flow, struct rte_flow_error *error)
{
	struct rte_flow_attr attr = { .ingress = 1 };
	struct rte_flow_item_meta spec = { .data = meta }, mask = { .data = UINT32_MAX };
	struct rte_flow_item items[2] = {
		{ .type = RTE_FLOW_ITEM_TYPE_META, .spec = &spec, .mask = &mask },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_action_mark mark = { .id = a->mark };
	struct rte_flow_action_queue queue = { .index = q };
	struct rte_flow_action actions[3] = {
		{ .type = a->has_mark ? RTE_FLOW_ACTION_TYPE_MARK : RTE_FLOW_ACTION_TYPE_FLAG,
		  .conf = a->has_mark ? &mark : NULL },
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &queue },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	int ret;

	if (flow == NULL) {
		ret = rte_flow_validate(port, &attr, items, actions, error);
		return ret == -ENOSYS ? -ENOTSUP : ret;
	}
	*flow = rte_flow_create(port, &attr, items, actions, error);
	if (*flow == NULL)
		return rte_errno > 0 ? -rte_errno : -EIO;
	return 0;
}

/* A member's ingress error, with where it came from. */
static int
ingress_error(struct rte_flow_error *error, int ret, uint16_t port)
{
	char copy[320];

	snprintf(copy, sizeof(copy), "%s", error != NULL && error->message != NULL ?
		error->message : rte_strerror(-ret));
	return octopus_flow_error(error, ret == -ENOSYS ? ENOTSUP : -ret,
		error != NULL ? error->type : RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
		"the members' e-switch refuses MARK/FLAG in transfer rules, and member port %u refused it in its ingress: %s",
		port, copy);
}

/* Distinct queues of entries @p e[0..nb-1] into @p q; their number. */
static uint16_t
entry_queues(const struct octo_steer_app_entry *e, uint32_t nb, uint16_t *q)
{
	uint64_t seen[OCTO_STEER_MAX_QUEUES / 64] = { 0 };
	uint16_t n = 0;
	uint32_t i;

	for (i = 0; i < nb; i++) {
		uint16_t x = e[i].queue;

		if (!e[i].has_meta || x >= OCTO_STEER_MAX_QUEUES ||
				(seen[x / 64] & (UINT64_C(1) << (x % 64))) != 0)
			continue;
		seen[x / 64] |= UINT64_C(1) << (x % 64);
		q[n++] = x;
	}
	return n;
}

static uint32_t
tag_meta(const struct octopus_flow *f, uint16_t q)
{
	return (uint32_t)f->app.mark_tag << OCTO_STEER_META_TAG_SHIFT | q;
}

/* Create member @p m's rules of @p f where missing. */
static int
member_fill(struct octopus_priv *p, struct octopus_flow *f, uint16_t m,
		struct rte_flow_error *error)
{
	struct octopus_flow_mark *k = f->mark;
	uint16_t port = p->members[m].port_id, i;
	struct rte_flow **h = &k->h[(size_t)m * k->nb_q];
	int ret;

	if (p->members[m].state < OCTO_MEMBER_OWNED)
		return 0;
	if (k->port[m] != port) {
		/* another port now: the old one's rules went with it */
		memset(h, 0, k->nb_q * sizeof(*h));
		k->port[m] = port;
	}
	for (i = 0; i < k->nb_q; i++) {
		if (h[i] != NULL)
			continue;
		ret = mark_rule(port, &f->app, tag_meta(f, k->q[i]), k->q[i], &h[i], error);
		if (ret != 0)
			return ingress_error(error, ret, port);
	}
	return 0;
}

int
octopus_flow_mark_install(struct octopus_priv *p, struct octopus_flow *f,
		const struct octo_steer_app_entry *e, uint32_t nb, struct rte_flow_error *error)
{
	uint16_t q[OCTO_STEER_MAX_QUEUES], n, m;
	struct octopus_flow_mark *k;
	int ret;

	if (f->app.mark_tag == 0)
		return 0;
	n = entry_queues(e, nb, q);
	k = calloc(1, sizeof(*k) + n * sizeof(*k->q) +
		(size_t)p->nb_members * n * sizeof(*k->h));
	if (k == NULL)
		return octopus_flow_error(error, ENOMEM, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"no memory for the rule's ingress MARK/FLAG rules");
	k->nb_q = n;
	k->nb_members = p->nb_members;
	k->h = (struct rte_flow **)(k + 1);
	k->q = (uint16_t *)(k->h + (size_t)p->nb_members * n);
	memcpy(k->q, q, n * sizeof(*q));
	for (m = 0; m < k->nb_members; m++)
		k->port[m] = OCTOPUS_STEER_PORT_ABSENT;
	f->mark = k;
	for (m = 0; m < k->nb_members; m++) {
		ret = member_fill(p, f, m, error);
		if (ret != 0) {
			octopus_flow_mark_remove(p, f);
			return ret;
		}
	}
	return 0;
}

int
octopus_flow_mark_validate(struct octopus_priv *p, const struct octo_steer_app_rule *a,
		const struct octo_steer_app_entry *e, uint32_t nb, struct rte_flow_error *error)
{
	uint16_t q[OCTO_STEER_MAX_QUEUES], m;
	int ret;

	/* one queue speaks for all: the rules differ in META and queue only */
	if (a->mark_tag == 0 || entry_queues(e, nb, q) == 0)
		return 0;
	for (m = 0; m < p->nb_members; m++) {
		if (p->members[m].state < OCTO_MEMBER_OWNED)
			continue;
		ret = mark_rule(p->members[m].port_id, a,
			(uint32_t)a->mark_tag << OCTO_STEER_META_TAG_SHIFT | q[0], q[0], NULL,
			error);
		if (ret != 0)
			return ingress_error(error, ret, p->members[m].port_id);
	}
	return 0;
}

void
octopus_flow_mark_remove(struct octopus_priv *p, struct octopus_flow *f)
{
	struct octopus_flow_mark *k = f->mark;
	uint16_t m, i;

	if (k != NULL) {
		for (m = 0; m < k->nb_members; m++) {
			if (k->port[m] == OCTOPUS_STEER_PORT_ABSENT)
				continue;
			for (i = 0; i < k->nb_q; i++) {
				struct rte_flow *h = k->h[(size_t)m * k->nb_q + i];

				if (h != NULL && rte_flow_destroy(k->port[m], h, NULL) != 0)
					OCTO_LOG(ERR, "flow: removing an ingress MARK/FLAG rule on port %u failed",
						k->port[m]);
			}
		}
		free(k);
		f->mark = NULL;
	}
	tag_put(p->flows, f->app.mark_tag);
	f->app.mark_tag = 0;
}

int
octopus_flow_mark_fill(struct octopus_priv *p, struct octopus_flow *f,
		struct rte_flow_error *error)
{
	uint16_t m;
	int ret;

	if (f->mark == NULL)
		return 0;
	for (m = 0; m < f->mark->nb_members; m++) {
		ret = member_fill(p, f, m, error);
		if (ret != 0)
			return ret;
	}
	return 0;
}

void
octopus_flow_mark_forget(struct octopus_priv *p, struct octopus_flow *f, uint16_t port)
{
	struct octopus_flow_mark *k = f->mark;
	uint16_t m;

	RTE_SET_USED(p);
	if (k == NULL)
		return;
	for (m = 0; m < k->nb_members; m++)
		if (k->port[m] == port)
			k->port[m] = OCTOPUS_STEER_PORT_ABSENT;
}

void
octopus_flow_mark_release(struct octopus_flows *fl)
{
	free(fl->tag_used);
	fl->tag_used = NULL;
}
