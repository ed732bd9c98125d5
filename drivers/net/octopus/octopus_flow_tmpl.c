/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * rte_flow's template and asynchronous API on the virtual port, and the
 * port's flow ops table (the synchronous ops are octopus_flow.c's).
 *
 * Everything the application makes is made once more on the members'
 * transfer proxy, where its synchronous rules go too:
 *  - configure: every member (the proxy first) with the application's flow
 *    queues plus one: like mlx5, which adds a queue of its own at index
 *    nb_queue (mlx5_flow_hw.c, nb_q_updated = nb_queue + 1), the port
 *    accepts operations on flow queue nb_queue, and applications written
 *    for mlx5 use it (DPDK's flow_filtering example configures one queue and
 *    inserts on queue 1);
 *  - a pattern template: the same items as a transfer template (a rule's
 *    pattern array then goes to the proxy unchanged), behind an item that
 *    names the wire where the NIC needs it (hw_items);
 *  - an actions template: QUEUE(q) becomes a write of META := q (SET_META,
 *    or MODIFY_FIELD where the e-switch refuses SET_META) + JUMP(home
 *    group), as a synchronous rule's does, so the rule follows queue q's
 *    home rule when q moves; JUMP(g) becomes JUMP(base + g); COUNT, MARK,
 *    FLAG, DROP stay. A value the template fixes (masked) is translated
 *    here, once; one it leaves to each rule, per rule (struct tmpl_act);
 *  - a table: a transfer table in the application group's transfer group,
 *    at the application priority's level;
 *  - a rule: one rule of the proxy's table, on the same flow queue, whose
 *    completion carries the port's operation record as user_data: pull
 *    maps it back to the application's user_data, one completion per
 *    application operation, and undoes a failed create.
 *
 * Flow queue q (application or proxy) belongs to the lcore that uses it:
 * its operation records, actions scratch and completions taken early are
 * struct octopus_tmpl_queue's, used without locks; rule records come from
 * an array per table, with free ones kept per flow queue
 * (octopus_flow_tmpl_recs.h).
 *
 * Order: a group-0 QUEUE rule changes where its traffic goes, as a
 * synchronous one does; where that moves traffic between polled queues
 * (octopus_flow_gates()), the operation is gated like a synchronous rule:
 * the gates are prepared, the proxy's operation pushed and waited for
 * (its completion kept for pull), then the gates finish. Other operations
 * are not waited for.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdalign.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_pause.h>
#include <ethdev_driver.h>

#include "octopus_internal.h"
#include "octopus_flow.h"
#include "octopus_flow_tmpl.h"
#include "octopus_flow_tmpl_recs.h"
#include "octopus_gate.h"

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

static int
tmpl_error(struct rte_flow_error *error, int code, const char *what)
{
	return octopus_flow_error(error, code, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
		"%s", what);
}

/* The template state in service: configured, its proxy there. */
static struct octopus_tmpl *
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

static void
flow_lock(struct rte_eth_dev *dev)
{
	pthread_mutex_lock(&dev->data->flow_ops_mutex);
}

static void
flow_unlock(struct rte_eth_dev *dev)
{
	pthread_mutex_unlock(&dev->data->flow_ops_mutex);
}

/* ---- info and configure ------------------------------------------------ */

static int
tmpl_info_get(struct rte_eth_dev *dev, struct rte_flow_port_info *port_info,
		struct rte_flow_queue_info *queue_info, struct rte_flow_error *error)
{
	struct octopus_priv *p = octo_priv(dev);
	struct rte_flow_port_info pi;
	struct rte_flow_queue_info qi;
	struct octopus_member *m;
	uint16_t proxy, i;
	int ret;

	ret = octopus_flow_proxy_get(p, &proxy, error);
	if (ret != 0)
		return ret;
	ret = rte_flow_info_get(proxy, port_info, queue_info, error);
	if (ret != 0)
		return octopus_flow_member_error(error, ret, proxy);
	/* flow queues are made on every member alike: the least of them */
	OCTO_FOREACH_MEMBER_STATE(p, i, m, OCTO_MEMBER_OWNED) {
		if (m->port_id == proxy)
			continue;
		memset(&pi, 0, sizeof(pi));
		memset(&qi, 0, sizeof(qi));
		if (rte_flow_info_get(m->port_id, &pi, &qi, NULL) != 0)
			continue;
		port_info->max_nb_queues = RTE_MIN(port_info->max_nb_queues, pi.max_nb_queues);
		queue_info->max_size = RTE_MIN(queue_info->max_size, qi.max_size);
	}
	/* the extra queue at nb_queue (see top) is one of them */
	if (port_info->max_nb_queues > 0)
		port_info->max_nb_queues--;
	return 0;
}

static void
tmpl_state_free(struct octopus_tmpl *t)
{
	uint16_t i;

	if (t == NULL)
		return;
	if (t->q != NULL)
		for (i = 0; i < t->nb_hwq; i++) {
			rte_free(t->q[i].ops);
			rte_free(t->q[i].free);
			rte_free(t->q[i].stash);
		}
	rte_free(t->q);
	rte_free(t->qsize);
	rte_free(t);
}

static struct octopus_tmpl *
tmpl_state_alloc(uint16_t nb_queue, const struct rte_flow_queue_attr *queue_attr[])
{
	struct octopus_tmpl *t;
	uint16_t i;
	uint32_t k;

	t = rte_zmalloc("octopus_tmpl", sizeof(*t), 0);
	if (t == NULL)
		return NULL;
	TAILQ_INIT(&t->patterns);
	TAILQ_INIT(&t->actions);
	TAILQ_INIT(&t->tables);
	t->nb_queue = nb_queue;
	t->nb_hwq = nb_queue + 1;
	t->qsize = rte_calloc("octopus_tmpl_qsize", nb_queue, sizeof(*t->qsize), 0);
	t->q = rte_calloc("octopus_tmpl_queues", t->nb_hwq, sizeof(*t->q), RTE_CACHE_LINE_SIZE);
	if (t->q == NULL || t->qsize == NULL)
		goto fail;
	for (i = 0; i < t->nb_hwq; i++) {
		struct octopus_tmpl_queue *q = &t->q[i];

		q->id = i;
		/* the extra queue is the size of queue 0 */
		q->size = queue_attr[i < nb_queue ? i : 0]->size;
		if (i < nb_queue)
			t->qsize[i] = q->size;
		q->ops = rte_calloc("octopus_tmpl_ops", q->size, sizeof(*q->ops), 0);
		q->free = rte_calloc("octopus_tmpl_free", q->size, sizeof(*q->free), 0);
		q->stash = rte_calloc("octopus_tmpl_stash", q->size, sizeof(*q->stash), 0);
		if (q->ops == NULL || q->free == NULL || q->stash == NULL)
			goto fail;
		for (k = 0; k < q->size; k++)
			q->free[k] = q->size - 1 - k;
		q->nb_free = q->size;
	}
	return t;
fail:
	tmpl_state_free(t);
	return NULL;
}

/* Whether a second configure asks for what the first one made. */
static bool
same_config(const struct octopus_tmpl *t, const struct rte_flow_port_attr *port_attr,
		uint16_t nb_queue, const struct rte_flow_queue_attr *queue_attr[])
{
	uint16_t i;

	if (nb_queue != t->nb_queue ||
	    memcmp(port_attr, &t->port_attr, sizeof(*port_attr)) != 0)
		return false;
	for (i = 0; i < nb_queue; i++)
		if (queue_attr[i]->size != t->qsize[i])
			return false;
	return true;
}

static void fp_ops_install(struct rte_eth_dev *dev);

static int
tmpl_configure(struct rte_eth_dev *dev, const struct rte_flow_port_attr *port_attr,
		uint16_t nb_queue, const struct rte_flow_queue_attr *queue_attr[],
		struct rte_flow_error *error)
{
	struct octopus_priv *p = octo_priv(dev);
	const struct rte_flow_queue_attr **hw_attr = NULL;
	struct octopus_flow_shape sh;
	struct octopus_member *m;
	struct octopus_tmpl *t;
	uint16_t proxy, i;
	int ret;

	if (p->started)
		return tmpl_error(error, EBUSY,
			"rte_flow_configure: stop the port first (its members' flow queues are made while they are stopped)");
	if (nb_queue == 0 || queue_attr == NULL)
		return tmpl_error(error, EINVAL, "rte_flow_configure: at least one flow queue");
	for (i = 0; i < nb_queue; i++)
		if (queue_attr[i] == NULL || queue_attr[i]->size == 0)
			return tmpl_error(error, EINVAL,
				"rte_flow_configure: a flow queue of size 0");
	flow_lock(dev);
	if (p->tmpl != NULL && !p->tmpl->proxy_gone) {
		/* mlx5 takes a second configure only when it changes nothing */
		ret = same_config(p->tmpl, port_attr, nb_queue, queue_attr) ? 0 :
			tmpl_error(error, EBUSY,
				"rte_flow_configure: the flow queues are configured already, with other settings (as mlx5, a port is configured once)");
		goto out;
	}
	ret = octopus_flow_proxy_get(p, &proxy, error);
	if (ret == 0 && octopus_flows_get(p) == NULL)
		ret = tmpl_error(error, ENOMEM, "no memory");
	if (ret == 0)
		ret = octopus_flow_shape_get(p, proxy, false, &sh, error);
	if (ret != 0)
		goto out;
	hw_attr = calloc((size_t)nb_queue + 1, sizeof(*hw_attr));
	t = tmpl_state_alloc(nb_queue, queue_attr);
	if (hw_attr == NULL || t == NULL) {
		tmpl_state_free(t);
		ret = tmpl_error(error, ENOMEM, "no memory for the flow queues");
		goto out;
	}
	for (i = 0; i < nb_queue; i++)
		hw_attr[i] = queue_attr[i];
	hw_attr[nb_queue] = queue_attr[0];
	/* the proxy first: it takes the rules */
	ret = rte_flow_configure(proxy, port_attr, nb_queue + 1, hw_attr, error);
	if (ret == 0)
		ret = octo_dpdk_flow_fp_resolve(proxy, &t->fp, error);
	if (ret != 0) {
		ret = octopus_flow_member_error(error, ret, proxy);
		tmpl_state_free(t);
		goto out;
	}
	OCTO_FOREACH_MEMBER_STATE(p, i, m, OCTO_MEMBER_CONFIGURED) {
		if (m->port_id == proxy)
			continue;
		ret = rte_flow_configure(m->port_id, port_attr, nb_queue + 1, hw_attr, error);
		if (ret != 0) {
			/* no API unconfigures the ones done: they stay configured */
			ret = octopus_flow_member_error(error, ret, m->port_id);
			tmpl_state_free(t);
			goto out;
		}
	}
	t->proxy = proxy;
	t->shape = sh;
	t->port_attr = *port_attr;
	/* configured stopped: rules wait in copies until start (Restart) */
	t->park = !octopus_members_keep_rules(p);
	tmpl_state_free(p->tmpl);	/* one whose proxy was released */
	p->tmpl = t;
	fp_ops_install(dev);
out:
	free(hw_attr);
	flow_unlock(dev);
	return ret;
}

/* ---- templates --------------------------------------------------------- */

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
static const struct rte_flow_item *
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

static struct rte_flow_pattern_template *
tmpl_pattern_create(struct rte_eth_dev *dev, const struct rte_flow_pattern_template_attr *attr,
		const struct rte_flow_item pattern[], struct rte_flow_error *error)
{
	struct rte_flow_pattern_template_attr hw_attr;
	struct octopus_tmpl_pattern *pt = NULL;
	const struct rte_flow_item *it;
	struct tmpl_hw_items hw;
	struct octopus_tmpl *t;

	if (attr == NULL || pattern == NULL) {
		tmpl_error(error, EINVAL, "pattern template: attributes or pattern missing");
		return NULL;
	}
	if (attr->egress || attr->transfer || !attr->ingress) {
		octopus_flow_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR, attr,
			"pattern template: ingress only on net_octopus (the members' e-switch carries its steering)");
		return NULL;
	}
	for (it = pattern; it->type != RTE_FLOW_ITEM_TYPE_END; it++) {
		if (it - pattern >= TMPL_MAX_ITEMS) {
			octopus_flow_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM, it,
				"pattern template: longer than %u items", TMPL_MAX_ITEMS);
			return NULL;
		}
		if (it->type != RTE_FLOW_ITEM_TYPE_VOID && octopus_flow_item_size(it->type) == 0) {
			octopus_flow_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM, it,
				"pattern template: item type %d not supported on net_octopus (eth, vlan, ipv4, ipv6, tcp, udp, sctp, icmp, icmp6)",
				(int)it->type);
			return NULL;
		}
	}
	flow_lock(dev);
	t = tmpl_of(dev, error);
	if (t == NULL)
		goto out;
	pt = rte_zmalloc("octopus_tmpl_pattern", sizeof(*pt), 0);
	if (pt == NULL) {
		tmpl_error(error, ENOMEM, "no memory");
		goto out;
	}
	/* a rule gives the specs only: they count under the template's masks */
	octopus_flow_bucket_prog_make(octo_priv(dev)->args.field, octo_priv(dev)->args.reta_size,
		pattern, &pt->bucket);
	for (it = pattern; it->type != RTE_FLOW_ITEM_TYPE_END; it++) {
		size_t sz = octopus_flow_item_size(it->type);

		pt->type[pt->nb_items] = it->type;
		if (sz != 0) {
			pt->spec_item[pt->nb_spec] = pt->nb_items;
			pt->spec_size[pt->nb_spec] = (uint8_t)sz;
			pt->spec_off[pt->nb_spec++] = pt->copy_size;
			pt->copy_size += (uint16_t)RTE_ALIGN(sz, sizeof(uint64_t));
		}
		pt->nb_items++;
	}
	hw_attr = *attr;
	hw_attr.ingress = 0;
	hw_attr.transfer = 1;
	pt->hw = rte_flow_pattern_template_create(t->proxy, &hw_attr,
		hw_items(t, pattern, pt->nb_items, &hw), error);
	if (pt->hw == NULL) {
		octopus_flow_member_error(error, rte_errno > 0 ? -rte_errno : -EIO, t->proxy);
		rte_free(pt);
		pt = NULL;
		goto out;
	}
	TAILQ_INSERT_TAIL(&t->patterns, pt, next);
out:
	flow_unlock(dev);
	return (struct rte_flow_pattern_template *)pt;
}

/* The proxy's actions for the application's QUEUE(@p q): META := q + JUMP(home). */
static void
queue_actions(const struct octopus_tmpl *t, enum octopus_steer_meta_write how, uint16_t q,
		struct rte_flow_action *a, struct rte_flow_action_set_meta *set,
		struct rte_flow_action_modify_field *mod, struct rte_flow_action_jump *home)
{
	octopus_steer_meta_action(how, q, &a[0], set, mod);
	home->group = OCTO_STEER_HOME_GROUP + t->shape.base;
	a[1].type = RTE_FLOW_ACTION_TYPE_JUMP;
	a[1].conf = home;
}

/*
 * The proxy's mask of a META write: the whole value fixed (@p masked) or
 * left to each rule. SET_META: all its bits in the mask, or no conf.
 * MODIFY_FIELD: every field of the write fixed by the template, the
 * destination's level and offset and the width in full (mlx5 takes no
 * other mask: mlx5_flow_hw.c, flow_hw_validate_action_modify_field, facts
 * F6), and the immediate value's mask all ones or all zeros (mlx5 reads a
 * zero mask as "the value is each rule's").
 */
static void
meta_mask(enum octopus_steer_meta_write how, bool masked, struct rte_flow_action *a,
		struct rte_flow_action_set_meta *set, struct rte_flow_action_modify_field *mod)
{
	octopus_steer_meta_action(how, UINT32_MAX, a, set, mod);
	if (how == OCTOPUS_STEER_META_MODIFY) {
		/* 8 bits wide in 25.11, 32 in 22.11 */
		memset(&mod->dst.level, 0xff, sizeof(mod->dst.level));
		mod->dst.offset = UINT32_MAX;
		mod->width = UINT32_MAX;
		memset(mod->src.value, masked ? 0xff : 0, sizeof(mod->src.value));
		return;
	}
	if (!masked)
		a->conf = NULL;
}

/*
 * Whether an actions template's mask fixes a QUEUE's or JUMP's value for
 * every rule: as mlx5's hardware steering reads masks (mlx5_flow_hw.c,
 * flow_hw_actions_translate), only a non-zero index or group does, so
 * testpmd's "mask queue / end" (a zeroed conf) leaves each rule its own.
 */
static bool
tmpl_action_masked(const struct rte_flow_action *mk)
{
	if (mk->conf == NULL)
		return false;
	switch (mk->type) {
	case RTE_FLOW_ACTION_TYPE_QUEUE:
		return ((const struct rte_flow_action_queue *)mk->conf)->index != 0;
	case RTE_FLOW_ACTION_TYPE_JUMP:
		return ((const struct rte_flow_action_jump *)mk->conf)->group != 0;
	default:
		return true;
	}
}

/* Bytes of a rule's conf of an action that goes to the proxy as given. */
static size_t
action_conf_size(enum rte_flow_action_type t)
{
	switch (t) {
	case RTE_FLOW_ACTION_TYPE_MARK:
		return sizeof(struct rte_flow_action_mark);
	case RTE_FLOW_ACTION_TYPE_COUNT:
		return sizeof(struct rte_flow_action_count);
	default:
		return 0;	/* none (DROP, FLAG, VOID), or the port's (QUEUE, JUMP) */
	}
}

/*
 * Numbers of the actions templates of every port, never one twice: a
 * flow queue's actions laid out for one (actions_lay_out) are never taken
 * for those of another, even one at the same address.
 */
static RTE_ATOMIC(uint32_t) actions_ids;

static struct rte_flow_actions_template *
tmpl_actions_create(struct rte_eth_dev *dev, const struct rte_flow_actions_template_attr *attr,
		const struct rte_flow_action actions[], const struct rte_flow_action masks[],
		struct rte_flow_error *error)
{
	uint16_t nb_rxq = dev->data->nb_rx_queues;
	struct rte_flow_action hw[TMPL_MAX_ACTIONS + 1], hw_mask[TMPL_MAX_ACTIONS + 1];
	struct rte_flow_action_set_meta set, set_m;
	struct rte_flow_action_modify_field mod, mod_m;
	struct rte_flow_action_jump home, home_m, jump, jump_m;
	struct rte_flow_actions_template_attr hw_attr;
	struct octopus_tmpl_actions *at = NULL, a;
	enum octopus_steer_meta_write how;
	struct octopus_tmpl *t;
	unsigned int i, n;
	int fates, ret;

	if (attr == NULL || actions == NULL || masks == NULL) {
		tmpl_error(error, EINVAL, "actions template: attributes, actions or masks missing");
		return NULL;
	}
	if (attr->egress || attr->transfer || !attr->ingress) {
		octopus_flow_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR, attr,
			"actions template: ingress only on net_octopus (the members' e-switch carries its steering)");
		return NULL;
	}
	flow_lock(dev);
	t = tmpl_of(dev, error);
	if (t == NULL)
		goto out;
	how = t->shape.meta_how;
again:
	n = 0;
	fates = 0;
	memset(&a, 0, sizeof(a));
	memset(hw, 0, sizeof(hw));
	memset(hw_mask, 0, sizeof(hw_mask));
	a.meta_how = how;
	a.meta_pos = -1;
	a.jump_pos = -1;
	a.app_fate = -1;
	for (i = 0; actions[i].type != RTE_FLOW_ACTION_TYPE_END; i++) {
		const struct rte_flow_action *ac = &actions[i], *mk = &masks[i];
		bool masked = tmpl_action_masked(mk);

		/* the proxy's actions: at most two for one of the application's */
		if (i + 1 >= TMPL_MAX_ACTIONS || n + 2 >= TMPL_MAX_ACTIONS) {
			octopus_flow_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, ac,
				"actions template: more than %u actions", TMPL_MAX_ACTIONS - 2);
			goto out;
		}
		if (mk->type != ac->type) {
			octopus_flow_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION, mk,
				"actions template: mask %u is of another type than its action", i);
			goto out;
		}
		switch (ac->type) {
		case RTE_FLOW_ACTION_TYPE_QUEUE:
			if (fates++ != 0)
				break;
			if (masked && (ac->conf == NULL ||
			    ((const struct rte_flow_action_queue *)ac->conf)->index >= nb_rxq)) {
				octopus_flow_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF, ac,
					"actions template: queue index %u: the port has %u Rx queues",
					ac->conf == NULL ? UINT16_MAX :
					((const struct rte_flow_action_queue *)ac->conf)->index, nb_rxq);
				goto out;
			}
			a.fate = TMPL_FATE_QUEUE;
			a.app_fate = (int8_t)i;
			a.masked = masked;
			a.value = masked ? ((const struct rte_flow_action_queue *)ac->conf)->index : 0;
			queue_actions(t, how, (uint16_t)a.value, &hw[n], &set, &mod, &home);
			meta_mask(how, masked, &hw_mask[n], &set_m, &mod_m);
			home_m.group = UINT32_MAX;
			hw_mask[n + 1].type = RTE_FLOW_ACTION_TYPE_JUMP;
			hw_mask[n + 1].conf = &home_m;
			a.meta_pos = (int8_t)n;
			a.act[n].type = hw[n].type;
			a.act[n++].from = -1;
			a.act[n].type = RTE_FLOW_ACTION_TYPE_JUMP;
			a.act[n++].from = -1;
			continue;
		case RTE_FLOW_ACTION_TYPE_JUMP:
			if (fates++ != 0)
				break;
			if (masked && (ac->conf == NULL ||
			    ((const struct rte_flow_action_jump *)ac->conf)->group == 0 ||
			    ((const struct rte_flow_action_jump *)ac->conf)->group >=
					OCTO_STEER_HOME_GROUP)) {
				octopus_flow_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF, ac,
					"actions template: jump: groups 1..%u", OCTO_STEER_HOME_GROUP - 1);
				goto out;
			}
			a.fate = TMPL_FATE_JUMP;
			a.app_fate = (int8_t)i;
			a.masked = masked;
			a.value = masked ? ((const struct rte_flow_action_jump *)ac->conf)->group : 0;
			jump.group = t->shape.base + a.value;
			jump_m.group = UINT32_MAX;
			hw[n].type = RTE_FLOW_ACTION_TYPE_JUMP;
			hw[n].conf = &jump;
			hw_mask[n].type = RTE_FLOW_ACTION_TYPE_JUMP;
			hw_mask[n].conf = masked ? &jump_m : NULL;
			a.jump_pos = (int8_t)n;
			a.act[n].type = RTE_FLOW_ACTION_TYPE_JUMP;
			a.act[n++].from = -1;
			continue;
		case RTE_FLOW_ACTION_TYPE_DROP:
			if (fates++ != 0)
				break;
			a.fate = TMPL_FATE_DROP;
			break;
		case RTE_FLOW_ACTION_TYPE_MARK:
		case RTE_FLOW_ACTION_TYPE_FLAG:
			if (t->shape.mark_ingress) {
				octopus_flow_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, ac,
					"actions template: the members' e-switch refuses MARK and FLAG in transfer rules, and net_octopus's ingress MARK/FLAG rules exist for synchronous rules only (use rte_flow_create)");
				goto out;
			}
			break;
		case RTE_FLOW_ACTION_TYPE_COUNT:
		case RTE_FLOW_ACTION_TYPE_VOID:
			break;
		default:
			octopus_flow_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, ac,
				"actions template: action type %d not supported on net_octopus (queue, drop, jump, mark, flag, count, void; rss is a synchronous rule's only: it becomes several e-switch rules)",
				(int)ac->type);
			goto out;
		}
		if (fates > 1) {
			octopus_flow_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION, ac,
				"actions template: only one of queue, drop, jump per rule");
			goto out;
		}
		hw[n] = *ac;
		hw_mask[n] = *mk;
		a.act[n].type = ac->type;
		a.act[n++].from = (int8_t)i;
	}
	if (fates > 1 || fates == 0) {
		octopus_flow_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_NUM, actions,
			fates ? "actions template: only one of queue, drop, jump per rule" :
			"actions template: a rule needs one of queue, drop, jump");
		goto out;
	}
	hw[n].type = RTE_FLOW_ACTION_TYPE_END;
	hw_mask[n].type = RTE_FLOW_ACTION_TYPE_END;
	a.act[n].type = RTE_FLOW_ACTION_TYPE_END;
	a.act[n].from = -1;
	a.nb = (uint8_t)(n + 1);
	a.nb_app = (uint8_t)(i + 1);
	for (i = 0; i < n; i++)
		if (a.act[i].from >= 0)
			a.from_pos[a.nb_from++] = (uint8_t)i;
	for (i = 0; i + 1 < a.nb_app; i++) {
		size_t sz = action_conf_size(actions[i].type);

		a.app_type[i] = actions[i].type;
		if (sz != 0) {
			a.conf_act[a.nb_conf] = (uint8_t)i;
			a.conf_size[a.nb_conf] = (uint8_t)sz;
			a.conf_off[a.nb_conf++] = a.copy_size;
			a.copy_size += (uint16_t)RTE_ALIGN(sz, sizeof(uint64_t));
		}
	}
	at = rte_zmalloc("octopus_tmpl_actions", sizeof(*at), 0);
	if (at == NULL) {
		tmpl_error(error, ENOMEM, "no memory");
		goto out;
	}
	*at = a;
	hw_attr = *attr;
	hw_attr.ingress = 0;
	hw_attr.transfer = 1;
	at->hw = rte_flow_actions_template_create(t->proxy, &hw_attr, hw, hw_mask, error);
	ret = at->hw != NULL ? 0 : rte_errno > 0 ? -rte_errno : -EIO;
	if (ret != 0 && a.meta_pos >= 0 && how == OCTOPUS_STEER_META_SET &&
	    (ret == -ENOTSUP || ret == -EINVAL || ret == -ENOSYS)) {
		/* the proxy takes no SET_META here (mlx5's hardware steering
		 * has none, facts F2): MODIFY_FIELD, for the next templates too
		 */
		OCTO_LOG(INFO, "port %u: the members' e-switch refused SET_META in an actions template (%s): META is written with MODIFY_FIELD",
			octo_priv(dev)->port_id, error != NULL && error->message != NULL ?
			error->message : rte_strerror(-ret));
		rte_free(at);
		at = NULL;
		how = OCTOPUS_STEER_META_MODIFY;
		t->shape.meta_how = how;
		goto again;
	}
	if (ret != 0) {
		octopus_flow_member_error(error, ret, t->proxy);
		rte_free(at);
		at = NULL;
		goto out;
	}
	at->id = rte_atomic_fetch_add_explicit(&actions_ids, 1, rte_memory_order_relaxed) + 1;
	TAILQ_INSERT_TAIL(&t->actions, at, next);
out:
	flow_unlock(dev);
	return (struct rte_flow_actions_template *)at;
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

static int
copies_alloc(const struct octopus_priv *p, struct octopus_tmpl_table *tb)
{
	unsigned int i;

	if (octopus_members_keep_rules(p))
		return 0;
	for (i = 0; i < tb->nb_pt; i++)
		tb->pt_room = RTE_MAX(tb->pt_room, tb->pt[i]->copy_size);
	for (i = 0; i < tb->nb_at; i++)
		tb->at_room = RTE_MAX(tb->at_room, tb->at[i]->copy_size);
	tb->copy_size = RTE_ALIGN(sizeof(struct tmpl_copy_hdr) + tb->pt_room +
		2u * tb->at_room, sizeof(uint64_t));
	tb->copies = rte_zmalloc_socket("octopus_tmpl_copies",
		(size_t)tb->recs.n * tb->copy_size, RTE_CACHE_LINE_SIZE, SOCKET_ID_ANY);
	return tb->copies != NULL ? 0 : -ENOMEM;
}

static inline uint8_t *
copy_of(const struct octopus_tmpl_table *tb, const struct octopus_tmpl_rule *r)
{
	size_t idx = (size_t)(((const char *)r - tb->recs.base) >> tb->recs.shift);

	return tb->copies + idx * tb->copy_size;
}

/*
 * @p n bytes (a spec or a conf: 4 to 44, a multiple of 4) to a rule's copy:
 * the sizes the port's items and actions have, each a copy of known size
 * the compiler makes a few moves of (a call of memcpy costs more than the
 * copy, once per item of every rule).
 */
static __rte_always_inline void
copy_bytes(void *dst, const void *src, size_t n)
{
	switch (n) {
	case 4: memcpy(dst, src, 4); break;
	case 8: memcpy(dst, src, 8); break;
	case 12: memcpy(dst, src, 12); break;
	case 20: memcpy(dst, src, 20); break;
	case 44: memcpy(dst, src, 44); break;
	default: memcpy(dst, src, n); break;
	}
}

/* Keep, in slot @p slot of @p c, the confs rule actions @p actions give @p at. */
static inline void
copy_actions(const struct octopus_tmpl_table *tb, uint8_t *c, unsigned int slot,
		const struct octopus_tmpl_actions *at, const struct rte_flow_action actions[],
		uint32_t value)
{
	struct tmpl_copy_hdr *h = (struct tmpl_copy_hdr *)c;
	uint8_t *a = c + sizeof(*h) + tb->pt_room + slot * tb->at_room;
	uint32_t confs = 0;
	unsigned int k;

	for (k = 0; k < at->nb_conf; k++) {
		const void *conf = actions[at->conf_act[k]].conf;

		if (conf != NULL) {
			copy_bytes(a + at->conf_off[k], conf, at->conf_size[k]);
			confs |= UINT32_C(1) << k;
		}
	}
	h->act[slot].confs = confs;
	h->act[slot].value = value;
}

/* Keep rule @p r's pattern specs and actions' confs (made with value @p value). */
static inline void
copy_rule(const struct octopus_tmpl_table *tb, const struct octopus_tmpl_rule *r,
		const struct rte_flow_item pattern[], const struct rte_flow_action actions[],
		uint32_t value)
{
	const struct octopus_tmpl_pattern *pt = tb->pt[r->pt];
	uint8_t *c = copy_of(tb, r);
	struct tmpl_copy_hdr *h = (struct tmpl_copy_hdr *)c;
	uint32_t specs = 0;
	unsigned int k;

	for (k = 0; k < pt->nb_spec; k++) {
		const void *spec = pattern[pt->spec_item[k]].spec;

		if (spec != NULL) {
			copy_bytes(c + sizeof(*h) + pt->spec_off[k], spec, pt->spec_size[k]);
			specs |= UINT32_C(1) << k;
		}
	}
	h->specs = specs;
	h->slot = 0;
	copy_actions(tb, c, 0, tb->at[r->at], actions, value);
}

/* A rule's pattern and application actions again, from its copy. */
struct tmpl_rule_again {
	struct rte_flow_item items[TMPL_MAX_ITEMS + 1];
	struct rte_flow_action actions[TMPL_MAX_ACTIONS + 1];
	struct rte_flow_action_queue queue;
	struct rte_flow_action_jump jump;
};

static void
rule_from_copy(const struct octopus_tmpl_table *tb, const struct octopus_tmpl_rule *r,
		struct tmpl_rule_again *g)
{
	const struct octopus_tmpl_pattern *pt = tb->pt[r->pt];
	const struct octopus_tmpl_actions *at = tb->at[r->at];
	uint8_t *c = copy_of(tb, r);
	const struct tmpl_copy_hdr *h = (const struct tmpl_copy_hdr *)c;
	const uint8_t *a = c + sizeof(*h) + tb->pt_room + h->slot * tb->at_room;
	unsigned int k;

	memset(g, 0, sizeof(*g));
	for (k = 0; k < pt->nb_items; k++)
		g->items[k].type = pt->type[k];
	g->items[pt->nb_items].type = RTE_FLOW_ITEM_TYPE_END;
	for (k = 0; k < pt->nb_spec; k++)
		if (h->specs & (UINT32_C(1) << k))
			g->items[pt->spec_item[k]].spec = c + sizeof(*h) + pt->spec_off[k];
	for (k = 0; k + 1 < at->nb_app; k++)
		g->actions[k].type = at->app_type[k];
	g->actions[at->nb_app - 1].type = RTE_FLOW_ACTION_TYPE_END;
	for (k = 0; k < at->nb_conf; k++)
		if (h->act[h->slot].confs & (UINT32_C(1) << k))
			g->actions[at->conf_act[k]].conf = a + at->conf_off[k];
	if (at->fate == TMPL_FATE_QUEUE) {
		g->queue.index = (uint16_t)h->act[h->slot].value;
		g->actions[at->app_fate].conf = &g->queue;
	} else if (at->fate == TMPL_FATE_JUMP) {
		g->jump.group = h->act[h->slot].value;
		g->actions[at->app_fate].conf = &g->jump;
	}
}

/* ---- tables ------------------------------------------------------------ */

static struct rte_flow_template_table *
tmpl_table_create(struct rte_eth_dev *dev, const struct rte_flow_template_table_attr *attr,
		struct rte_flow_pattern_template *pts[], uint8_t nb_pt,
		struct rte_flow_actions_template *ats[], uint8_t nb_at,
		struct rte_flow_error *error)
{
	struct rte_flow_pattern_template *hw_pt[TMPL_MAX_PER_TABLE];
	struct rte_flow_actions_template *hw_at[TMPL_MAX_PER_TABLE];
	struct rte_flow_template_table_attr hw_attr;
	struct octopus_tmpl_table *tb = NULL;
	struct octopus_tmpl *t;
	unsigned int i;

	if (attr == NULL || pts == NULL || ats == NULL || nb_pt == 0 || nb_at == 0) {
		tmpl_error(error, EINVAL, "table: attributes or templates missing");
		return NULL;
	}
	if (nb_pt > TMPL_MAX_PER_TABLE || nb_at > TMPL_MAX_PER_TABLE) {
		tmpl_error(error, ENOTSUP, "table: more than 32 pattern or actions templates");
		return NULL;
	}
	if (attr->flow_attr.egress || attr->flow_attr.transfer || !attr->flow_attr.ingress) {
		octopus_flow_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR, attr,
			"table: ingress only on net_octopus (the members' e-switch carries its steering)");
		return NULL;
	}
	if (attr->flow_attr.group >= OCTO_STEER_HOME_GROUP) {
		octopus_flow_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR_GROUP, attr,
			"table: group %u: net_octopus offers groups 0..%u (the others carry its steering)",
			attr->flow_attr.group, OCTO_STEER_HOME_GROUP - 1);
		return NULL;
	}
	if (attr->flow_attr.priority >= OCTO_STEER_APP_MAX_PRIO) {
		octopus_flow_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR_PRIORITY, attr,
			"table: priority %u: net_octopus offers priorities 0..%u",
			attr->flow_attr.priority, OCTO_STEER_APP_MAX_PRIO - 1);
		return NULL;
	}
	if (attr->nb_flows == 0) {
		tmpl_error(error, EINVAL, "table: nb_flows 0");
		return NULL;
	}
	flow_lock(dev);
	t = tmpl_of(dev, error);
	if (t == NULL)
		goto out;
	for (i = 0; i < nb_pt; i++) {
		if (pts[i] == NULL) {
			tmpl_error(error, EINVAL, "table: a pattern template is NULL");
			goto out;
		}
		hw_pt[i] = ((struct octopus_tmpl_pattern *)pts[i])->hw;
	}
	for (i = 0; i < nb_at; i++) {
		const struct octopus_tmpl_actions *at = (const void *)ats[i];

		if (at == NULL) {
			tmpl_error(error, EINVAL, "table: an actions template is NULL");
			goto out;
		}
		if (at->fate == TMPL_FATE_JUMP && at->masked &&
		    at->value <= attr->flow_attr.group) {
			octopus_flow_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION, at,
				"table: actions template %u jumps to group %u, not after the table's group %u",
				i, at->value, attr->flow_attr.group);
			goto out;
		}
		hw_at[i] = at->hw;
	}
	tb = rte_zmalloc("octopus_tmpl_table", sizeof(*tb), 0);
	if (tb == NULL) {
		tmpl_error(error, ENOMEM, "no memory");
		goto out;
	}
	tb->group = attr->flow_attr.group;
	tb->nb_pt = nb_pt;
	tb->nb_at = nb_at;
	for (i = 0; i < nb_pt; i++)
		tb->pt[i] = (struct octopus_tmpl_pattern *)pts[i];
	for (i = 0; i < nb_at; i++)
		tb->at[i] = (struct octopus_tmpl_actions *)ats[i];
	if (octopus_tmpl_recs_init(&tb->recs, attr->nb_flows, sizeof(struct octopus_tmpl_rule),
			t->nb_hwq, SOCKET_ID_ANY) != 0 ||
	    copies_alloc(octo_priv(dev), tb) != 0) {
		tmpl_error(error, ENOMEM, "table: no memory for its rule records");
		octopus_tmpl_recs_fini(&tb->recs);
		rte_free(tb);
		tb = NULL;
		goto out;
	}
	hw_attr = *attr;
	hw_attr.flow_attr.group = t->shape.base + attr->flow_attr.group;
	hw_attr.flow_attr.priority = OCTO_STEER_PRIO_APP(attr->flow_attr.priority, 1);
	hw_attr.flow_attr.ingress = 0;
	hw_attr.flow_attr.transfer = 1;
	tb->hw = rte_flow_template_table_create(t->proxy, &hw_attr, hw_pt, nb_pt,
		hw_at, nb_at, error);
	if (tb->hw == NULL) {
		octopus_flow_member_error(error, rte_errno > 0 ? -rte_errno : -EIO, t->proxy);
		octopus_tmpl_recs_fini(&tb->recs);
		rte_free(tb->copies);
		rte_free(tb);
		tb = NULL;
		goto out;
	}
	TAILQ_INSERT_TAIL(&t->tables, tb, next);
out:
	flow_unlock(dev);
	return (struct rte_flow_template_table *)tb;
}

enum tmpl_kind {
	TMPL_PATTERN,
	TMPL_ACTIONS,
	TMPL_TABLE,
};

/* Destroy a template or table of the port (@p kind) on the proxy, then here. */
static int
tmpl_destroy(struct rte_eth_dev *dev, enum tmpl_kind kind, void *rec,
		struct rte_flow_error *error)
{
	struct octopus_tmpl_pattern *pt = rec;
	struct octopus_tmpl_actions *at = rec;
	struct octopus_tmpl_table *tb = rec;
	struct octopus_tmpl *t;
	int ret;

	flow_lock(dev);
	t = tmpl_of(dev, error);
	if (t == NULL) {
		ret = -rte_errno;
		goto out;
	}
	if (rec == NULL) {
		ret = tmpl_error(error, EINVAL, "no template or table");
		goto out;
	}
	if (kind == TMPL_TABLE && octopus_tmpl_recs_in_use(&tb->recs) != 0) {
		ret = octopus_flow_error(error, EBUSY, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, tb,
			"table: %u rules still in it", octopus_tmpl_recs_in_use(&tb->recs));
		goto out;
	}
	ret = kind == TMPL_PATTERN ? rte_flow_pattern_template_destroy(t->proxy, pt->hw, error) :
		kind == TMPL_ACTIONS ? rte_flow_actions_template_destroy(t->proxy, at->hw, error) :
		rte_flow_template_table_destroy(t->proxy, tb->hw, error);
	if (ret != 0) {
		ret = octopus_flow_member_error(error, ret, t->proxy);
		goto out;
	}
	if (kind == TMPL_PATTERN) {
		TAILQ_REMOVE(&t->patterns, pt, next);
	} else if (kind == TMPL_ACTIONS) {
		TAILQ_REMOVE(&t->actions, at, next);
	} else {
		TAILQ_REMOVE(&t->tables, tb, next);
		octopus_tmpl_recs_fini(&tb->recs);
		rte_free(tb->copies);
	}
	rte_free(rec);
out:
	flow_unlock(dev);
	return ret;
}

static int
tmpl_pattern_destroy(struct rte_eth_dev *dev, struct rte_flow_pattern_template *handle,
		struct rte_flow_error *error)
{
	return tmpl_destroy(dev, TMPL_PATTERN, handle, error);
}

static int
tmpl_actions_destroy(struct rte_eth_dev *dev, struct rte_flow_actions_template *handle,
		struct rte_flow_error *error)
{
	return tmpl_destroy(dev, TMPL_ACTIONS, handle, error);
}

static int
tmpl_table_destroy(struct rte_eth_dev *dev, struct rte_flow_template_table *handle,
		struct rte_flow_error *error)
{
	return tmpl_destroy(dev, TMPL_TABLE, handle, error);
}

/* ---- the flow queues ---------------------------------------------------- */

/* The flow queue @p queue_id of the port, NULL (error set) when there is none. */
static inline struct octopus_tmpl_queue *
queue_of(struct rte_eth_dev *dev, uint32_t queue_id, struct octopus_tmpl **tp,
		struct rte_flow_error *error)
{
	struct octopus_tmpl *t = octo_priv(dev)->tmpl;

	if (unlikely(t == NULL || t->proxy_gone)) {
		tmpl_of(dev, error);
		return NULL;
	}
	if (unlikely(queue_id >= t->nb_hwq)) {
		octopus_flow_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"flow queue %u: the port has %u (and %u, as mlx5)", queue_id,
			t->nb_queue, t->nb_queue);
		return NULL;
	}
	*tp = t;
	return &t->q[queue_id];
}

static inline struct tmpl_op *
op_get(struct octopus_tmpl_queue *q, uint32_t queue_id, struct rte_flow_error *error)
{
	struct tmpl_op *op;

	if (unlikely(q->nb_free == 0)) {
		octopus_flow_error(error, EBUSY, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"flow queue %u full (%u operations not pulled)", queue_id, q->size);
		return NULL;
	}
	op = &q->ops[q->free[--q->nb_free]];
	op->done = 0;
	return op;
}

static inline void
op_put(struct octopus_tmpl_queue *q, struct tmpl_op *op)
{
	q->free[q->nb_free++] = (uint32_t)(op - q->ops);
}

/*
 * Lay out @p q's proxy actions for rules of actions template @p at: the
 * types, and the confs that are the port's (META write, jumps); a rule
 * then writes its own confs and values (actions_of). The value written
 * here is none of a rule's: actions_of writes it before every use.
 */
static void
actions_lay_out(const struct octopus_tmpl *t, struct octopus_tmpl_queue *q,
		const struct octopus_tmpl_actions *at)
{
	unsigned int k;

	for (k = 0; k < at->nb; k++) {
		q->acts[k].type = at->act[k].type;
		q->acts[k].conf = NULL;
	}
	if (at->fate == TMPL_FATE_QUEUE) {
		octopus_steer_meta_action(at->meta_how, 0, &q->acts[at->meta_pos],
			&q->meta, &q->mod);
		q->home.group = OCTO_STEER_HOME_GROUP + t->shape.base;
		q->acts[at->meta_pos + 1].conf = &q->home;
	} else if (at->fate == TMPL_FATE_JUMP) {
		q->acts[at->jump_pos].conf = &q->jump;
	}
	q->built = at->id;
}

/*
 * The proxy's actions of a rule made with actions template @p at from the
 * application's @p actions, in @p q's scratch: the template's, with the
 * values it leaves to each rule translated. *@p qs: the queue it delivers
 * to (bit), 0 for none; *@p value: the QUEUE index or JUMP group. NULL
 * (error set) for a bad value.
 */
static inline const struct rte_flow_action *
actions_of(const struct octopus_tmpl *t, struct octopus_tmpl_queue *q,
		const struct octopus_tmpl_actions *at, const struct rte_flow_action actions[],
		uint16_t nb_rxq, uint64_t *qs, uint32_t *value, struct rte_flow_error *error)
{
	uint32_t v = at->value;
	unsigned int k;

	if (unlikely(q->built != at->id))
		actions_lay_out(t, q, at);
	for (k = 0; k < at->nb_from; k++)
		q->acts[at->from_pos[k]].conf = actions[at->act[at->from_pos[k]].from].conf;
	*qs = 0;
	if (at->fate == TMPL_FATE_QUEUE) {
		if (!at->masked) {
			const struct rte_flow_action_queue *c = actions[at->app_fate].conf;

			if (unlikely(c == NULL || c->index >= nb_rxq)) {
				octopus_flow_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF,
					&actions[at->app_fate],
					"queue index %u: the port has %u Rx queues",
					c == NULL ? UINT16_MAX : c->index, nb_rxq);
				return NULL;
			}
			v = c->index;
		}
		octopus_steer_meta_value(at->meta_how, v, &q->meta, &q->mod);
		*qs = UINT64_C(1) << (v % OCTOPUS_MAX_QUEUES);
	} else if (at->fate == TMPL_FATE_JUMP) {
		if (!at->masked) {
			const struct rte_flow_action_jump *c = actions[at->app_fate].conf;

			if (unlikely(c == NULL || c->group == 0 || c->group >= OCTO_STEER_HOME_GROUP)) {
				octopus_flow_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF,
					&actions[at->app_fate], "jump: groups 1..%u",
					OCTO_STEER_HOME_GROUP - 1);
				return NULL;
			}
			v = c->group;
		}
		q->jump.group = t->shape.base + v;
	}
	*value = v;
	return q->acts;
}

/* A translated completion for the application; the operation is over. */
static __rte_always_inline void
op_complete(struct octopus_priv *p, struct octopus_tmpl_queue *q,
		struct rte_flow_op_result *res)
{
	struct tmpl_op *op = res->user_data;
	struct octopus_tmpl_rule *r = op->rule;
	bool ok = res->status == RTE_FLOW_OP_SUCCESS;

	switch (op->kind) {
	case TMPL_OP_CREATE:
		if (!ok && !r->live) {
			/* a destroy of it is in flight (reach uncounted then):
			 * its completion frees the record
			 */
			r->failed = 1;
		} else if (!ok) {
			/* nothing else was made of it: the record goes */
			if (r->qs != 0)
				octopus_flow_reach_count(p, r->bucket, r->qs, -1);
			r->live = 0;
			octopus_tmpl_recs_put(&r->tbl->recs, q->id, r);
		}
		break;
	case TMPL_OP_DESTROY:
		if (ok || r->failed) {
			octopus_tmpl_recs_put(&r->tbl->recs, q->id, r);
		} else {
			/* still there: counted again */
			r->live = 1;
			if (r->qs != 0)
				octopus_flow_reach_count(p, r->bucket, r->qs, 1);
		}
		break;
	case TMPL_OP_UPDATE:
		/* counted both ways while in flight: the loser goes */
		if (ok) {
			if (r->qs != 0)
				octopus_flow_reach_count(p, r->bucket, r->qs, -1);
			r->qs = op->qs;
			r->at = op->at;
			if (r->tbl->copies != NULL)
				((struct tmpl_copy_hdr *)copy_of(r->tbl, r))->slot = op->slot;
		} else if (op->qs != 0) {
			octopus_flow_reach_count(p, r->bucket, op->qs, -1);
		}
		break;
	}
	res->user_data = op->user_data;
	op_put(q, op);
}

/*
 * Operation @p op done without the proxy (a rule kept in its copy only):
 * its completion, a success, waits for the application's pull.
 */
static void
complete_now(struct octopus_priv *p, struct octopus_tmpl_queue *q, struct tmpl_op *op)
{
	struct rte_flow_op_result res = { .status = RTE_FLOW_OP_SUCCESS, .user_data = op };

	op_complete(p, q, &res);
	q->stash[(q->stash_head + q->stash_n++) % q->size] = res;
}

/*
 * A rule made while the port is stopped and its members take no rules
 * (Restart): kept in its copy (made already), made on the proxy at start.
 */
static __rte_noinline struct rte_flow *
create_parked(struct octopus_priv *p, struct octopus_tmpl_queue *q, struct tmpl_op *op,
		struct octopus_tmpl_rule *r, void *user_data, struct rte_flow_error *error)
{
	if (r->tbl->copies == NULL) {
		r->live = 0;
		octopus_tmpl_recs_put(&r->tbl->recs, q->id, r);
		op_put(q, op);
		octopus_flow_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"the port is stopped and its members keep no rules, and this table keeps none: start the port first");
		return NULL;
	}
	r->hw = NULL;
	if (r->qs != 0)
		octopus_flow_reach_count(p, r->bucket, r->qs, 1);
	op->user_data = user_data;
	op->rule = r;
	op->kind = TMPL_OP_CREATE;
	complete_now(p, q, op);
	return (struct rte_flow *)r;
}

/*
 * Pull up to @p n of the proxy's completions of flow queue @p qid into
 * @p res, translated. @return how many, or -errno.
 */
static int
pull_hw(struct octopus_priv *p, struct octopus_tmpl *t, uint32_t qid,
		struct rte_flow_op_result *res, uint16_t n, struct rte_flow_error *error)
{
	struct octopus_tmpl_queue *q = &t->q[qid];
	int got, i;

	got = octo_dpdk_flow_fp_pull(&t->fp, qid, res, n, error);
	if (got < 0)
		return octopus_flow_member_error(error, got, t->proxy);
	for (i = 0; i < got; i++)
		op_complete(p, q, &res[i]);
	return got;
}

/*
 * Push flow queue @p qid and wait for the completion of @p op, keeping
 * every completion taken meanwhile for the application's pull.
 * @return 0 (its status is in the stash), -ETIMEDOUT, -errno.
 */
static int
wait_op(struct octopus_priv *p, struct octopus_tmpl *t, uint32_t qid, struct tmpl_op *op,
		struct rte_flow_error *error)
{
	struct octopus_tmpl_queue *q = &t->q[qid];
	uint64_t deadline = rte_get_timer_cycles() + rte_get_timer_hz() / 1000 * TMPL_WAIT_MS;
	struct rte_flow_op_result res[32];
	int got, i, ret;

	ret = octo_dpdk_flow_fp_push(&t->fp, qid, error);
	if (ret != 0)
		return octopus_flow_member_error(error, ret, t->proxy);
	for (;;) {
		bool found = false;

		/* room: at most q->size operations are in flight */
		got = octo_dpdk_flow_fp_pull(&t->fp, qid, res,
			(uint16_t)RTE_MIN(RTE_DIM(res), q->size - q->stash_n), error);
		if (got < 0)
			return octopus_flow_member_error(error, got, t->proxy);
		for (i = 0; i < got; i++) {
			if (res[i].user_data == op)
				found = true;
			op_complete(p, q, &res[i]);
			q->stash[(q->stash_head + q->stash_n++) % q->size] = res[i];
		}
		if (found)
			return 0;
		if (rte_get_timer_cycles() > deadline)
			break;
		rte_pause();
	}
	return octopus_flow_error(error, ETIMEDOUT, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
		"flow queue %u: the e-switch did not complete a gated operation within %u ms",
		qid, TMPL_WAIT_MS);
}

/* Whether Rx queue @p qid has had a poller. */
static inline bool
queue_polled(const struct octopus_priv *p, uint16_t qid)
{
	const struct octopus_queue *q = octopus_queue_get(p, qid, 0);

	return q != NULL && rte_atomic_load_explicit(&q->poller_lcore,
		rte_memory_order_relaxed) >= 0;
}

/* gates_prepare past its early returns (kept out of the operations' own code) */
static __rte_noinline void
gates_compute(struct octopus_priv *p, const struct octopus_tmpl_rule *r, uint64_t from,
		uint64_t to, struct octopus_gate_set *s)
{
	uint64_t m;

	if (from == 0)
		octopus_flow_gates(p, r->bucket, to, true, s);
	else if (to == 0)
		octopus_flow_gates(p, r->bucket, from, false, s);
	else if (from != to) {
		/* an update: the traffic moves from one queue to the other */
		s->dsts = to;
		s->src[rte_ctz64(to)] = from;
	}
	/* a queue nobody has polled yet delivers nothing before its first
	 * poller comes, so it is not waited for: the price of a gate here is
	 * a wait for the e-switch's completion
	 */
	for (m = s->dsts; m != 0; m &= m - 1)
		if (!queue_polled(p, rte_ctz64(m)))
			s->dsts &= ~(m & -m);
	if (s->dsts != 0) {
		/* one gated change at a time, as the synchronous ones (under
		 * ethdev's flow ops mutex): flow queues run on several lcores
		 */
		pthread_mutex_lock(&rte_eth_devices[p->port_id].data->flow_ops_mutex);
		octopus_gate_prepare(p, s);
	}
}

/*
 * The gates of a change of the rule's traffic (a QUEUE rule of group 0)
 * from queues @p from to queues @p to (bit q; one of them 0 for a create
 * or a destroy), prepared; s->dsts == 0 when nothing needs waiting for.
 */
static __rte_always_inline void
gates_prepare(struct octopus_priv *p, const struct octopus_tmpl_rule *r, uint64_t from,
		uint64_t to, struct octopus_gate_set *s)
{
	s->dsts = 0;
	if (!p->started || !p->mig.running)
		return;
	/* a create gates its own queue only: nothing to count if nobody polls it */
	if (from == 0 && !queue_polled(p, rte_ctz64(to)))
		return;
	/* a destroy's traffic goes to other queues: none was ever polled */
	if (to == 0 && (rte_atomic_load_explicit(&p->rxq_polled,
			rte_memory_order_relaxed) & ~from) == 0)
		return;
	gates_compute(p, r, from, to, s);
}

/* After a gated change (@p changed) or its refusal: the gates finish, the next may run. */
static void
gates_done(struct octopus_priv *p, const struct octopus_gate_set *s, bool changed)
{
	octopus_gate_finish(p, s, changed);
	pthread_mutex_unlock(&rte_eth_devices[p->port_id].data->flow_ops_mutex);
}

/*
 * A gated operation, enqueued: the traffic moves once the e-switch has
 * done it, so push, wait for its completion (kept for pull), then open
 * the gates. A wait that times out is logged: the gates open anyway.
 */
static void
gated_finish(struct octopus_priv *p, struct octopus_tmpl *t, uint32_t queue_id,
		struct tmpl_op *op, const struct octopus_gate_set *gates,
		struct rte_flow_error *error)
{
	int ret = wait_op(p, t, queue_id, op, error);

	gates_done(p, gates, true);
	if (ret != 0)
		OCTO_LOG(ERR, "port %u: %s", p->port_id, error != NULL &&
			error->message != NULL ? error->message : rte_strerror(-ret));
}

static struct rte_flow *
tmpl_async_create(struct rte_eth_dev *dev, uint32_t queue_id,
		const struct rte_flow_op_attr *op_attr, struct rte_flow_template_table *table,
		const struct rte_flow_item pattern[], uint8_t pt_index,
		const struct rte_flow_action actions[], uint8_t at_index,
		void *user_data, struct rte_flow_error *error)
{
	struct octopus_priv *p = octo_priv(dev);
	struct octopus_tmpl_table *tb = (struct octopus_tmpl_table *)table;
	const struct rte_flow_action *hw_actions;
	struct octopus_tmpl_rule *r;
	struct octopus_tmpl_queue *q;
	struct octopus_gate_set gates;
	struct tmpl_hw_items hw;
	struct octopus_tmpl *t;
	struct tmpl_op *op;
	uint32_t value;
	uint64_t qs;
	int ret;

	q = queue_of(dev, queue_id, &t, error);
	if (unlikely(q == NULL))
		return NULL;
	if (unlikely(tb == NULL || pt_index >= tb->nb_pt || at_index >= tb->nb_at)) {
		octopus_flow_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"no such table or template index");
		return NULL;
	}
	hw_actions = actions_of(t, q, tb->at[at_index], actions, dev->data->nb_rx_queues,
		&qs, &value, error);
	if (unlikely(hw_actions == NULL))
		return NULL;
	op = op_get(q, queue_id, error);
	if (unlikely(op == NULL))
		return NULL;
	r = octopus_tmpl_recs_get(&tb->recs, queue_id);
	if (unlikely(r == NULL)) {
		op_put(q, op);
		octopus_flow_error(error, ENOSPC, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, tb,
			"table full");
		return NULL;
	}
	r->tbl = tb;
	r->pt = pt_index;
	r->at = at_index;
	r->live = 1;
	r->failed = 0;
	r->qs = tb->group == 0 ? qs : 0;
	/* where the traffic went before: the rule's bucket, and the rules that
	 * may take it (octopus_flow.c's reach); kept for an update to QUEUE
	 */
	r->bucket = tb->group == 0 ?
		octopus_flow_bucket_run(&tb->pt[pt_index]->bucket, pattern) : -1;
	if (tb->copies != NULL)
		copy_rule(tb, r, pattern, actions, value);
	if (unlikely(t->park))
		return create_parked(p, q, op, r, user_data, error);
	gates.dsts = 0;
	if (r->qs != 0) {
		gates_prepare(p, r, 0, r->qs, &gates);
		octopus_flow_reach_count(p, r->bucket, r->qs, 1);
	}
	op->user_data = user_data;
	op->rule = r;
	op->kind = TMPL_OP_CREATE;
	r->hw = octo_dpdk_flow_fp_create(&t->fp, queue_id, op_attr, tb->hw,
		hw_items(t, pattern, tb->pt[pt_index]->nb_items, &hw), pt_index, hw_actions,
		at_index, op, error);
	if (unlikely(r->hw == NULL)) {
		ret = rte_errno > 0 ? -rte_errno : -EIO;
		if (gates.dsts != 0)
			gates_done(p, &gates, false);
		if (r->qs != 0)
			octopus_flow_reach_count(p, r->bucket, r->qs, -1);
		r->live = 0;
		octopus_tmpl_recs_put(&tb->recs, queue_id, r);
		op_put(q, op);
		octopus_flow_member_error(error, ret, t->proxy);
		return NULL;
	}
	if (gates.dsts != 0)
		gated_finish(p, t, queue_id, op, &gates, error);
	return (struct rte_flow *)r;
}

/*
 * Whether @p flow can be read as a template rule's record: not NULL, not
 * a synchronous rule's handle (testpmd keeps both kinds in one list and
 * sends either to `flow queue destroy`), aligned as a record is.
 */
static inline bool
rule_handle_ok(const struct octopus_priv *p, const struct rte_flow *flow,
		struct rte_flow_error *error)
{
	if (unlikely(octopus_flow_handle_is_sync(p, flow))) {
		octopus_flow_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_HANDLE, flow,
			"a rule made with rte_flow_create: rte_flow_destroy removes it");
		return false;
	}
	if (unlikely(flow == NULL ||
			((uintptr_t)flow & (alignof(struct octopus_tmpl_rule) - 1)) != 0)) {
		octopus_flow_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_HANDLE, flow,
			"not a template rule of this port");
		return false;
	}
	return true;
}

static int
tmpl_async_destroy(struct rte_eth_dev *dev, uint32_t queue_id,
		const struct rte_flow_op_attr *op_attr, struct rte_flow *flow,
		void *user_data, struct rte_flow_error *error)
{
	struct octopus_priv *p = octo_priv(dev);
	struct octopus_tmpl_rule *r = (struct octopus_tmpl_rule *)flow;
	struct octopus_tmpl_queue *q;
	struct octopus_gate_set gates;
	struct octopus_tmpl *t;
	struct tmpl_op *op;
	int ret;

	q = queue_of(dev, queue_id, &t, error);
	if (unlikely(q == NULL))
		return -rte_errno;
	if (unlikely(!rule_handle_ok(p, flow, error)))
		return -rte_errno;
	if (unlikely(!r->live))
		return octopus_flow_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_HANDLE, flow,
			"not a template rule of this port, or destroyed already");
	op = op_get(q, queue_id, error);
	if (unlikely(op == NULL))
		return -rte_errno;
	op->user_data = user_data;
	op->rule = r;
	op->kind = TMPL_OP_DESTROY;
	if (unlikely(r->hw == NULL)) {
		/* kept in its copy only: nothing on the proxy */
		if (r->qs != 0)
			octopus_flow_reach_count(p, r->bucket, r->qs, -1);
		r->live = 0;
		complete_now(p, q, op);
		return 0;
	}
	gates.dsts = 0;
	if (r->qs != 0) {
		octopus_flow_reach_count(p, r->bucket, r->qs, -1);
		gates_prepare(p, r, r->qs, 0, &gates);
	}
	ret = octo_dpdk_flow_fp_destroy(&t->fp, queue_id, op_attr, r->hw, op, error);
	if (unlikely(ret != 0)) {
		if (gates.dsts != 0)
			gates_done(p, &gates, false);
		if (r->qs != 0)
			octopus_flow_reach_count(p, r->bucket, r->qs, 1);
		op_put(q, op);
		return octopus_flow_member_error(error, ret, t->proxy);
	}
	r->live = 0;
	if (gates.dsts != 0)
		gated_finish(p, t, queue_id, op, &gates, error);
	return 0;
}

#if OCTO_DPDK_HAS_FLOW_ACTIONS_UPDATE
static int
tmpl_async_update(struct rte_eth_dev *dev, uint32_t queue_id,
		const struct rte_flow_op_attr *op_attr, struct rte_flow *flow,
		const struct rte_flow_action actions[], uint8_t at_index,
		void *user_data, struct rte_flow_error *error)
{
	struct octopus_priv *p = octo_priv(dev);
	struct octopus_tmpl_rule *r = (struct octopus_tmpl_rule *)flow;
	const struct rte_flow_action *hw_actions;
	struct octopus_tmpl_queue *q;
	struct octopus_gate_set gates;
	struct octopus_tmpl *t;
	struct tmpl_op *op;
	uint32_t value;
	uint64_t qs;
	int ret;

	q = queue_of(dev, queue_id, &t, error);
	if (unlikely(q == NULL))
		return -rte_errno;
	if (unlikely(!rule_handle_ok(p, flow, error)))
		return -rte_errno;
	if (unlikely(!r->live || at_index >= r->tbl->nb_at))
		return octopus_flow_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_HANDLE, flow,
			"not a template rule of this port, or no such actions template");
	hw_actions = actions_of(t, q, r->tbl->at[at_index], actions, dev->data->nb_rx_queues,
		&qs, &value, error);
	if (unlikely(hw_actions == NULL))
		return -rte_errno;
	op = op_get(q, queue_id, error);
	if (unlikely(op == NULL))
		return -rte_errno;
	op->user_data = user_data;
	op->rule = r;
	op->kind = TMPL_OP_UPDATE;
	op->at = at_index;
	op->qs = r->tbl->group == 0 ? qs : 0;
	if (r->tbl->copies != NULL) {
		/* the slot not in use: the rule's once the update completes */
		op->slot = ((struct tmpl_copy_hdr *)copy_of(r->tbl, r))->slot ^ 1;
		copy_actions(r->tbl, copy_of(r->tbl, r), op->slot, r->tbl->at[at_index],
			actions, value);
	}
	if (unlikely(r->hw == NULL)) {
		/* kept in its copy only: the copy is the rule */
		if (op->qs != 0)
			octopus_flow_reach_count(p, r->bucket, op->qs, 1);
		complete_now(p, q, op);
		return 0;
	}
	gates.dsts = 0;
	if (op->qs != 0) {
		gates_prepare(p, r, r->qs, op->qs, &gates);
		octopus_flow_reach_count(p, r->bucket, op->qs, 1);
	}
	ret = octo_dpdk_flow_fp_update(&t->fp, queue_id, op_attr, r->hw, hw_actions,
		at_index, op, error);
	if (unlikely(ret != 0)) {
		if (gates.dsts != 0)
			gates_done(p, &gates, false);
		if (op->qs != 0)
			octopus_flow_reach_count(p, r->bucket, op->qs, -1);
		op_put(q, op);
		return octopus_flow_member_error(error, ret, t->proxy);
	}
	if (gates.dsts != 0)
		gated_finish(p, t, queue_id, op, &gates, error);
	return 0;
}
#else
/* OCTO_DPDK_FLOW_FP_OPS_IN_OPS names it; this DPDK has no actions update */
#define tmpl_async_update NULL
#endif

static int
tmpl_push(struct rte_eth_dev *dev, uint32_t queue_id, struct rte_flow_error *error)
{
	struct octopus_tmpl *t;
	int ret;

	if (unlikely(queue_of(dev, queue_id, &t, error) == NULL))
		return -rte_errno;
	ret = octo_dpdk_flow_fp_push(&t->fp, queue_id, error);
	return unlikely(ret != 0) ? octopus_flow_member_error(error, ret, t->proxy) : 0;
}

static int
tmpl_pull(struct rte_eth_dev *dev, uint32_t queue_id, struct rte_flow_op_result res[],
		uint16_t n_res, struct rte_flow_error *error)
{
	struct octopus_tmpl_queue *q;
	struct octopus_tmpl *t;
	uint16_t n = 0;
	int got;

	q = queue_of(dev, queue_id, &t, error);
	if (unlikely(q == NULL))
		return -rte_errno;
	/* those a gated operation's wait took first, in their order */
	while (q->stash_n != 0 && n < n_res) {
		res[n++] = q->stash[q->stash_head];
		q->stash_head = (q->stash_head + 1) % q->size;
		q->stash_n--;
	}
	if (n == n_res)
		return n;
	got = pull_hw(octo_priv(dev), t, queue_id, res + n, n_res - n, error);
	if (unlikely(got < 0))
		return n != 0 ? n : got;
	return n + got;
}

OCTO_DPDK_FLOW_FP_OPS_DEFINE(octopus_flow_fp_ops, tmpl_async_create, tmpl_async_destroy,
	tmpl_async_update, tmpl_push, tmpl_pull)

/* The fast-path ops where the DPDK has them apart (installed at configure, as mlx5 does). */
static void
fp_ops_install(struct rte_eth_dev *dev)
{
	OCTO_DPDK_FLOW_FP_OPS_INSTALL(dev, octopus_flow_fp_ops);
}

/* ---- restart ------------------------------------------------------------ */

/*
 * The port's own operations on the proxy (octopus_tmpl_park, _replay):
 * their user_data is the rule's record with bit 0 set, never one of the
 * application's operation records (struct tmpl_op, aligned).
 */
#define OWN_OP(r)	((void *)((uintptr_t)(r) | 1))
#define OWN_RULE(u)	((struct octopus_tmpl_rule *)((uintptr_t)(u) & ~(uintptr_t)1))
#define IS_OWN_OP(u)	(((uintptr_t)(u) & 1) != 0)

static inline struct octopus_tmpl_rule *
rule_at(const struct octopus_tmpl_table *tb, uint32_t i)
{
	return (struct octopus_tmpl_rule *)(tb->recs.base + ((size_t)i << tb->recs.shift));
}

/*
 * Push flow queue @p qid of the proxy and pull it until none of the port's
 * own operations (*@p own of them) is in flight, nor, with @p app, any of
 * the application's; the application's completions met on the way wait
 * for its pull. A create of the port's that failed leaves its rule in its
 * copy only. @return how many of the port's failed.
 */
static unsigned int
own_collect(struct octopus_priv *p, struct octopus_tmpl *t, uint32_t qid, uint32_t *own,
		bool app)
{
	struct octopus_tmpl_queue *q = &t->q[qid];
	uint64_t deadline = rte_get_timer_cycles() + rte_get_timer_hz() / 1000 * TMPL_WAIT_MS;
	struct rte_flow_op_result res[32];
	struct rte_flow_error err;
	unsigned int failed = 0;
	int got, i;

	memset(&err, 0, sizeof(err));
	if (octo_dpdk_flow_fp_push(&t->fp, qid, &err) != 0)
		OCTO_LOG(ERR, "port %u: flow queue %u: push: %s", p->port_id, qid,
			err.message != NULL ? err.message : "?");
	while (*own > 0 || (app && q->nb_free < q->size)) {
		got = octo_dpdk_flow_fp_pull(&t->fp, qid, res, RTE_DIM(res), &err);
		if (got < 0) {
			OCTO_LOG(ERR, "port %u: flow queue %u: pull: %s", p->port_id, qid,
				err.message != NULL ? err.message : rte_strerror(-got));
			break;
		}
		for (i = 0; i < got; i++) {
			if (!IS_OWN_OP(res[i].user_data)) {
				op_complete(p, q, &res[i]);
				q->stash[(q->stash_head + q->stash_n++) % q->size] = res[i];
				continue;
			}
			(*own)--;
			if (res[i].status != RTE_FLOW_OP_SUCCESS) {
				OWN_RULE(res[i].user_data)->hw = NULL;
				failed++;
			}
		}
		if (got == 0 && rte_get_timer_cycles() > deadline) {
			OCTO_LOG(ERR, "port %u: flow queue %u: the e-switch did not complete %u operations within %u ms",
				p->port_id, qid, *own + (app ? q->size - q->nb_free : 0),
				TMPL_WAIT_MS);
			failed += *own;
			*own = 0;
			break;
		}
		if (got == 0)
			rte_pause();
	}
	return failed;
}

void
octopus_tmpl_park(struct octopus_priv *p)
{
	struct rte_flow_op_attr later = { .postpone = 1 };
	struct octopus_tmpl *t = p->tmpl;
	struct octopus_tmpl_table *tb;
	struct octopus_tmpl_rule *r;
	struct rte_flow_error err;
	uint32_t i, qid, own = 0, nb = 0;
	unsigned int failed = 0;

	if (t == NULL || t->proxy_gone || t->park)
		return;
	t->park = 1;
	/* what the application has in flight first: its completions kept */
	for (qid = 0; qid < t->nb_hwq; qid++)
		failed += own_collect(p, t, qid, &own, true);
	/* the port's own on the extra queue: nothing of the application's
	 * is in flight on it any more
	 */
	qid = t->nb_queue;
	TAILQ_FOREACH(tb, &t->tables, next) {
		if (tb->copies == NULL) {
			OCTO_LOG(WARNING, "port %u: a template table made while the members kept rules keeps no copies: its rules are left to the members",
				p->port_id);
			continue;
		}
		for (i = 0; i < tb->recs.n; i++) {
			r = rule_at(tb, i);
			if (!r->live || r->hw == NULL)
				continue;
			memset(&err, 0, sizeof(err));
			if (octo_dpdk_flow_fp_destroy(&t->fp, qid, &later, r->hw, OWN_OP(r),
					&err) != 0) {
				OCTO_LOG(ERR, "port %u: taking a template rule off the e-switch failed: %s",
					p->port_id, err.message != NULL ? err.message : "?");
				failed++;
			} else {
				own++;
				nb++;
			}
			r->hw = NULL;
			if (own == t->q[qid].size)
				failed += own_collect(p, t, qid, &own, false);
		}
	}
	failed += own_collect(p, t, qid, &own, false);
	OCTO_LOG(INFO, "port %u: %u template rule(s) taken off the members' e-switch for their stop (they keep none), %u failed",
		p->port_id, nb, failed);
}

int
octopus_tmpl_replay(struct octopus_priv *p)
{
	struct rte_flow_op_attr later = { .postpone = 1 };
	struct octopus_tmpl *t = p->tmpl;
	uint16_t nb_rxq = rte_eth_devices[p->port_id].data->nb_rx_queues;
	const struct rte_flow_action *hw_actions;
	struct octopus_tmpl_table *tb;
	struct tmpl_rule_again g;
	struct tmpl_hw_items hw;
	struct octopus_tmpl_queue *q;
	struct octopus_tmpl_rule *r;
	struct rte_flow_error err;
	uint32_t i, qid, own = 0, nb = 0, value;
	unsigned int failed = 0;
	uint64_t qs;

	if (t == NULL || t->proxy_gone || !t->park)
		return 0;
	qid = t->nb_queue;
	q = &t->q[qid];
	TAILQ_FOREACH(tb, &t->tables, next) {
		if (tb->copies == NULL)
			continue;
		for (i = 0; i < tb->recs.n; i++) {
			r = rule_at(tb, i);
			if (!r->live || r->hw != NULL)
				continue;
			rule_from_copy(tb, r, &g);
			memset(&err, 0, sizeof(err));
			hw_actions = actions_of(t, q, tb->at[r->at], g.actions, nb_rxq, &qs,
				&value, &err);
			if (hw_actions != NULL)
				r->hw = octo_dpdk_flow_fp_create(&t->fp, qid, &later, tb->hw,
					hw_items(t, g.items, tb->pt[r->pt]->nb_items, &hw),
					r->pt, hw_actions, r->at, OWN_OP(r), &err);
			if (r->hw == NULL) {
				OCTO_LOG(ERR, "port %u: making a template rule again failed: %s",
					p->port_id, err.message != NULL ? err.message : "?");
				failed++;
				continue;
			}
			own++;
			nb++;
			if (own == q->nb_free || own == q->size)
				failed += own_collect(p, t, qid, &own, false);
		}
	}
	failed += own_collect(p, t, qid, &own, false);
	t->park = 0;
	OCTO_LOG(INFO, "port %u: %u template rule(s) made again on the members' e-switch, %u failed",
		p->port_id, nb, failed);
	return failed != 0 ? -EIO : 0;
}

/* ---- failover, close ---------------------------------------------------- */

void
octopus_tmpl_forget_proxy(struct octopus_priv *p, uint16_t port)
{
	struct octopus_tmpl *t = p->tmpl;

	if (t == NULL || t->proxy != port || t->proxy_gone)
		return;
	t->proxy_gone = 1;
	OCTO_LOG(WARNING, "port %u: the transfer proxy (port %u) was released: its templates, tables and template rules went with it",
		p->port_id, port);
}

void
octopus_tmpl_free(struct octopus_priv *p)
{
	struct octopus_tmpl *t = p->tmpl;
	struct octopus_tmpl_pattern *pt;
	struct octopus_tmpl_actions *at;
	struct octopus_tmpl_table *tb;

	if (t == NULL)
		return;
	/* the tables' rules go with them: the proxy's table destroy removes
	 * what is left (mlx5 and the model alike), else its close does
	 */
	while ((tb = TAILQ_FIRST(&t->tables)) != NULL) {
		TAILQ_REMOVE(&t->tables, tb, next);
		if (!t->proxy_gone)
			rte_flow_template_table_destroy(t->proxy, tb->hw, NULL);
		octopus_tmpl_recs_fini(&tb->recs);
		rte_free(tb->copies);
		rte_free(tb);
	}
	while ((at = TAILQ_FIRST(&t->actions)) != NULL) {
		TAILQ_REMOVE(&t->actions, at, next);
		if (!t->proxy_gone)
			rte_flow_actions_template_destroy(t->proxy, at->hw, NULL);
		rte_free(at);
	}
	while ((pt = TAILQ_FIRST(&t->patterns)) != NULL) {
		TAILQ_REMOVE(&t->patterns, pt, next);
		if (!t->proxy_gone)
			rte_flow_pattern_template_destroy(t->proxy, pt->hw, NULL);
		rte_free(pt);
	}
	tmpl_state_free(t);
	p->tmpl = NULL;
	OCTO_DPDK_FLOW_FP_OPS_UNINSTALL(&rte_eth_devices[p->port_id]);
}

/* ---- the ops table ------------------------------------------------------ */

static const struct rte_flow_ops octopus_flow_ops = {
	.validate = octopus_flow_validate,
	.create = octopus_flow_create,
	.destroy = octopus_flow_destroy,
	.flush = octopus_flow_flush,
	.query = octopus_flow_query,
	.isolate = octopus_flow_isolate,
	.info_get = tmpl_info_get,
	.configure = tmpl_configure,
	.pattern_template_create = tmpl_pattern_create,
	.pattern_template_destroy = tmpl_pattern_destroy,
	.actions_template_create = tmpl_actions_create,
	.actions_template_destroy = tmpl_actions_destroy,
	.template_table_create = tmpl_table_create,
	.template_table_destroy = tmpl_table_destroy,
	OCTO_DPDK_FLOW_FP_OPS_IN_OPS(tmpl_async_create, tmpl_async_destroy, tmpl_async_update,
		tmpl_push, tmpl_pull)
};

/* The copies are freed at close (octopus_close calls octopus_flows_free). */
int
octopus_flow_ops_get(struct rte_eth_dev *dev, const struct rte_flow_ops **ops)
{
	RTE_SET_USED(dev);
	*ops = &octopus_flow_ops;
	return 0;
}
