/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * rte_flow's pattern and actions templates and template tables on the
 * virtual port: each one is made once more on the members' transfer proxy
 * (octopus_flow_tmpl_priv.h names the files of the template side):
 *  - a pattern template: the same items as a transfer template (a rule's
 *    pattern array then goes to the proxy unchanged), behind an item that
 *    names the wire where the NIC needs it (hw_items);
 *  - an actions template: QUEUE(q) becomes a write of META := q (SET_META,
 *    or MODIFY_FIELD where the e-switch refuses SET_META) + JUMP(home
 *    group), as a synchronous rule's does, so the rule follows queue q's
 *    home rule when q moves; JUMP(g) becomes JUMP(base + g); COUNT, MARK,
 *    FLAG, DROP stay. A value the template fixes (masked) is translated
 *    here, once; one it leaves to each rule, per rule (struct tmpl_act,
 *    octopus_flow_queue.c);
 *  - a table: a transfer table in the application group's transfer group,
 *    at the application priority's level, with its rule records
 *    (octopus_flow_tmpl_recs.c) and, where the members keep no rules across
 *    their stop, the rules' copies (Restart).
 */

#include <errno.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>
#include <ethdev_driver.h>

#include "octopus_internal.h"
#include "octopus_flow.h"
#include "octopus_flow_tmpl_priv.h"

/* ---- templates --------------------------------------------------------- */

struct rte_flow_pattern_template *
octopus_tmpl_pattern_create(struct rte_eth_dev *dev,
		const struct rte_flow_pattern_template_attr *attr,
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

/* An actions template in the making: the port's record, and the proxy's
 * actions and masks with the confs they point to.
 */
struct tmpl_actions_build {
	const struct octopus_tmpl *t;
	uint16_t nb_rxq;
	unsigned int n;		/* proxy actions so far */
	int fates;
	struct octopus_tmpl_actions a;
	struct rte_flow_action hw[TMPL_MAX_ACTIONS + 1], hw_mask[TMPL_MAX_ACTIONS + 1];
	struct rte_flow_action_set_meta set, set_m;
	struct rte_flow_action_modify_field mod, mod_m;
	struct rte_flow_action_jump home, home_m, jump, jump_m;
};

/* The application's QUEUE, action @p i: META := q + JUMP(home). */
static int
actions_queue(struct tmpl_actions_build *b, unsigned int i, const struct rte_flow_action *ac,
		bool masked, struct rte_flow_error *error)
{
	enum octopus_steer_meta_write how = b->a.meta_how;
	unsigned int n = b->n;

	if (masked && (ac->conf == NULL ||
	    ((const struct rte_flow_action_queue *)ac->conf)->index >= b->nb_rxq))
		return octopus_flow_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF, ac,
			"actions template: queue index %u: the port has %u Rx queues",
			ac->conf == NULL ? UINT16_MAX :
			((const struct rte_flow_action_queue *)ac->conf)->index, b->nb_rxq);
	b->a.fate = TMPL_FATE_QUEUE;
	b->a.app_fate = (int8_t)i;
	b->a.masked = masked;
	b->a.value = masked ? ((const struct rte_flow_action_queue *)ac->conf)->index : 0;
	queue_actions(b->t, how, (uint16_t)b->a.value, &b->hw[n], &b->set, &b->mod, &b->home);
	meta_mask(how, masked, &b->hw_mask[n], &b->set_m, &b->mod_m);
	b->home_m.group = UINT32_MAX;
	b->hw_mask[n + 1].type = RTE_FLOW_ACTION_TYPE_JUMP;
	b->hw_mask[n + 1].conf = &b->home_m;
	b->a.meta_pos = (int8_t)n;
	b->a.act[n].type = b->hw[n].type;
	b->a.act[n++].from = -1;
	b->a.act[n].type = RTE_FLOW_ACTION_TYPE_JUMP;
	b->a.act[n++].from = -1;
	b->n = n;
	return 0;
}

/* The application's JUMP, action @p i: JUMP(base + group). */
static int
actions_jump(struct tmpl_actions_build *b, unsigned int i, const struct rte_flow_action *ac,
		bool masked, struct rte_flow_error *error)
{
	unsigned int n = b->n;

	if (masked && (ac->conf == NULL ||
	    ((const struct rte_flow_action_jump *)ac->conf)->group == 0 ||
	    ((const struct rte_flow_action_jump *)ac->conf)->group >=
			OCTO_STEER_HOME_GROUP))
		return octopus_flow_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF, ac,
			"actions template: jump: groups 1..%u", OCTO_STEER_HOME_GROUP - 1);
	b->a.fate = TMPL_FATE_JUMP;
	b->a.app_fate = (int8_t)i;
	b->a.masked = masked;
	b->a.value = masked ? ((const struct rte_flow_action_jump *)ac->conf)->group : 0;
	b->jump.group = b->t->shape.base + b->a.value;
	b->jump_m.group = UINT32_MAX;
	b->hw[n].type = RTE_FLOW_ACTION_TYPE_JUMP;
	b->hw[n].conf = &b->jump;
	b->hw_mask[n].type = RTE_FLOW_ACTION_TYPE_JUMP;
	b->hw_mask[n].conf = masked ? &b->jump_m : NULL;
	b->a.jump_pos = (int8_t)n;
	b->a.act[n].type = RTE_FLOW_ACTION_TYPE_JUMP;
	b->a.act[n++].from = -1;
	b->n = n;
	return 0;
}

/* Application action @p i (mask @p mk) to the proxy's. */
static int
actions_one(struct tmpl_actions_build *b, unsigned int i, const struct rte_flow_action *ac,
		const struct rte_flow_action *mk, struct rte_flow_error *error)
{
	bool masked = tmpl_action_masked(mk);

	/* the proxy's actions: at most two for one of the application's */
	if (i + 1 >= TMPL_MAX_ACTIONS || b->n + 2 >= TMPL_MAX_ACTIONS)
		return octopus_flow_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, ac,
			"actions template: more than %u actions", TMPL_MAX_ACTIONS - 2);
	if (mk->type != ac->type)
		return octopus_flow_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION, mk,
			"actions template: mask %u is of another type than its action", i);
	switch (ac->type) {
	case RTE_FLOW_ACTION_TYPE_QUEUE:
		if (b->fates++ != 0)
			break;
		return actions_queue(b, i, ac, masked, error);
	case RTE_FLOW_ACTION_TYPE_JUMP:
		if (b->fates++ != 0)
			break;
		return actions_jump(b, i, ac, masked, error);
	case RTE_FLOW_ACTION_TYPE_DROP:
		if (b->fates++ != 0)
			break;
		b->a.fate = TMPL_FATE_DROP;
		break;
	case RTE_FLOW_ACTION_TYPE_MARK:
	case RTE_FLOW_ACTION_TYPE_FLAG:
		if (b->t->shape.mark_ingress)
			return octopus_flow_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, ac,
				"actions template: the members' e-switch refuses MARK and FLAG in transfer rules, and net_octopus's ingress MARK/FLAG rules exist for synchronous rules only (use rte_flow_create)");
		break;
	case RTE_FLOW_ACTION_TYPE_COUNT:
	case RTE_FLOW_ACTION_TYPE_VOID:
		break;
	default:
		return octopus_flow_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, ac,
			"actions template: action type %d not supported on net_octopus (queue, drop, jump, mark, flag, count, void; rss is a synchronous rule's only: it becomes several e-switch rules)",
			(int)ac->type);
	}
	if (b->fates > 1)
		return octopus_flow_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION, ac,
			"actions template: only one of queue, drop, jump per rule");
	b->hw[b->n] = *ac;
	b->hw_mask[b->n] = *mk;
	b->a.act[b->n].type = ac->type;
	b->a.act[b->n++].from = (int8_t)i;
	return 0;
}

/* Where a rule's confs go: in the proxy's actions, and in its copy (Restart). */
static void
actions_rule_layout(struct octopus_tmpl_actions *a, const struct rte_flow_action actions[])
{
	unsigned int i;

	for (i = 0; i + 1 < a->nb; i++)
		if (a->act[i].from >= 0)
			a->from_pos[a->nb_from++] = (uint8_t)i;
	for (i = 0; i + 1 < a->nb_app; i++) {
		size_t sz = action_conf_size(actions[i].type);

		a->app_type[i] = actions[i].type;
		if (sz != 0) {
			a->conf_act[a->nb_conf] = (uint8_t)i;
			a->conf_size[a->nb_conf] = (uint8_t)sz;
			a->conf_off[a->nb_conf++] = a->copy_size;
			a->copy_size += (uint16_t)RTE_ALIGN(sz, sizeof(uint64_t));
		}
	}
}

/* The application's actions and masks to the proxy's, META written the way @p how says. */
static int
actions_translate(struct tmpl_actions_build *b, enum octopus_steer_meta_write how,
		const struct rte_flow_action actions[], const struct rte_flow_action masks[],
		struct rte_flow_error *error)
{
	unsigned int i;
	int ret;

	b->n = 0;
	b->fates = 0;
	memset(&b->a, 0, sizeof(b->a));
	memset(b->hw, 0, sizeof(b->hw));
	memset(b->hw_mask, 0, sizeof(b->hw_mask));
	b->a.meta_how = how;
	b->a.meta_pos = -1;
	b->a.jump_pos = -1;
	b->a.app_fate = -1;
	for (i = 0; actions[i].type != RTE_FLOW_ACTION_TYPE_END; i++) {
		ret = actions_one(b, i, &actions[i], &masks[i], error);
		if (ret != 0)
			return ret;
	}
	if (b->fates > 1 || b->fates == 0)
		return octopus_flow_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_NUM, actions,
			b->fates ? "actions template: only one of queue, drop, jump per rule" :
			"actions template: a rule needs one of queue, drop, jump");
	b->hw[b->n].type = RTE_FLOW_ACTION_TYPE_END;
	b->hw_mask[b->n].type = RTE_FLOW_ACTION_TYPE_END;
	b->a.act[b->n].type = RTE_FLOW_ACTION_TYPE_END;
	b->a.act[b->n].from = -1;
	b->a.nb = (uint8_t)(b->n + 1);
	b->a.nb_app = (uint8_t)(i + 1);
	actions_rule_layout(&b->a, actions);
	return 0;
}

/*
 * Numbers of the actions templates of every port, never one twice: a
 * flow queue's actions laid out for one (actions_lay_out) are never taken
 * for those of another, even one at the same address.
 */
static RTE_ATOMIC(uint32_t) actions_ids;

struct rte_flow_actions_template *
octopus_tmpl_actions_create(struct rte_eth_dev *dev,
		const struct rte_flow_actions_template_attr *attr,
		const struct rte_flow_action actions[], const struct rte_flow_action masks[],
		struct rte_flow_error *error)
{
	struct rte_flow_actions_template_attr hw_attr;
	struct octopus_tmpl_actions *at = NULL;
	enum octopus_steer_meta_write how;
	struct tmpl_actions_build b;
	struct octopus_tmpl *t;
	int ret;

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
	b.t = t;
	b.nb_rxq = dev->data->nb_rx_queues;
	how = t->shape.meta_how;
again:
	if (actions_translate(&b, how, actions, masks, error) != 0)
		goto out;
	at = rte_zmalloc("octopus_tmpl_actions", sizeof(*at), 0);
	if (at == NULL) {
		tmpl_error(error, ENOMEM, "no memory");
		goto out;
	}
	*at = b.a;
	hw_attr = *attr;
	hw_attr.ingress = 0;
	hw_attr.transfer = 1;
	at->hw = rte_flow_actions_template_create(t->proxy, &hw_attr, b.hw, b.hw_mask, error);
	ret = at->hw != NULL ? 0 : rte_errno > 0 ? -rte_errno : -EIO;
	if (ret != 0 && b.a.meta_pos >= 0 && how == OCTOPUS_STEER_META_SET &&
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

/* ---- tables ------------------------------------------------------------ */

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

/* The table's attributes as the port takes them; -errno with @p error set. */
static int
table_attr_check(const struct rte_flow_template_table_attr *attr,
		struct rte_flow_pattern_template *pts[], uint8_t nb_pt,
		struct rte_flow_actions_template *ats[], uint8_t nb_at,
		struct rte_flow_error *error)
{
	if (attr == NULL || pts == NULL || ats == NULL || nb_pt == 0 || nb_at == 0)
		return tmpl_error(error, EINVAL, "table: attributes or templates missing");
	if (nb_pt > TMPL_MAX_PER_TABLE || nb_at > TMPL_MAX_PER_TABLE)
		return tmpl_error(error, ENOTSUP, "table: more than 32 pattern or actions templates");
	if (attr->flow_attr.egress || attr->flow_attr.transfer || !attr->flow_attr.ingress)
		return octopus_flow_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR, attr,
			"table: ingress only on net_octopus (the members' e-switch carries its steering)");
	if (attr->flow_attr.group >= OCTO_STEER_HOME_GROUP)
		return octopus_flow_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR_GROUP, attr,
			"table: group %u: net_octopus offers groups 0..%u (the others carry its steering)",
			attr->flow_attr.group, OCTO_STEER_HOME_GROUP - 1);
	if (attr->flow_attr.priority >= OCTO_STEER_APP_MAX_PRIO)
		return octopus_flow_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR_PRIORITY, attr,
			"table: priority %u: net_octopus offers priorities 0..%u",
			attr->flow_attr.priority, OCTO_STEER_APP_MAX_PRIO - 1);
	if (attr->nb_flows == 0)
		return tmpl_error(error, EINVAL, "table: nb_flows 0");
	return 0;
}

struct rte_flow_template_table *
octopus_tmpl_table_create(struct rte_eth_dev *dev, const struct rte_flow_template_table_attr *attr,
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

	if (table_attr_check(attr, pts, nb_pt, ats, nb_at, error) != 0)
		return NULL;
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

int
octopus_tmpl_pattern_destroy(struct rte_eth_dev *dev, struct rte_flow_pattern_template *handle,
		struct rte_flow_error *error)
{
	return tmpl_destroy(dev, TMPL_PATTERN, handle, error);
}

int
octopus_tmpl_actions_destroy(struct rte_eth_dev *dev, struct rte_flow_actions_template *handle,
		struct rte_flow_error *error)
{
	return tmpl_destroy(dev, TMPL_ACTIONS, handle, error);
}

int
octopus_tmpl_table_destroy(struct rte_eth_dev *dev, struct rte_flow_template_table *handle,
		struct rte_flow_error *error)
{
	return tmpl_destroy(dev, TMPL_TABLE, handle, error);
}
