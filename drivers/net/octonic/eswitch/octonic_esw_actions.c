/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/* Attributes and actions -> a rule's decision fields.  Everything is
 * checked before anything is allocated in the tables, so a refusal leaves
 * no trace.  Called with the e-switch lock held.
 */

#include <errno.h>
#include <string.h>

#include <rte_malloc.h>

#include "octonic_esw_internal.h"

static int
set_fate(struct rte_flow *r, enum sw_fate f, const struct rte_flow_action *a,
		struct rte_flow_error *error)
{
	if (r->fate != SW_FATE_NONE)
		return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION, a,
			"only one fate action allowed (action %d)", a->type);
	r->fate = f;
	return 0;
}

static int
parse_rss(struct octonic_eswitch *sw, uint16_t pf,
		const struct rte_flow_action *a, struct rte_flow *r,
		struct rte_flow_error *error)
{
	const struct rte_flow_action_rss *c = a->conf;
	const struct sw_pf_rss *prss = sw->pf[pf].rss;
	struct sw_rss_action *ra;
	uint32_t i;

	if (c == NULL)
		return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
			"rss: configuration missing");
	if (c->func != RTE_ETH_HASH_FUNCTION_DEFAULT &&
			c->func != RTE_ETH_HASH_FUNCTION_TOEPLITZ) {
		return octonic_esw_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
			"rss: only the Toeplitz hash function is supported");
	}
	if (c->level > 1)
		return octonic_esw_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
			"rss: only the outermost level is supported");
	if ((c->types & ~OCTONIC_RSS_OFFLOAD_ALL) != 0)
		return octonic_esw_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
			"rss: unsupported hash types 0x%" PRIx64,
			c->types & ~OCTONIC_RSS_OFFLOAD_ALL);
	if (c->key_len != 0 && (c->key_len != OCTONIC_RSS_KEY_LEN || c->key == NULL))
		return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
			"rss: key length must be 0 or %d", OCTONIC_RSS_KEY_LEN);
	if (c->queue_num == 0 || c->queue == NULL)
		return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
			"rss: no queues");
	for (i = 0; i < c->queue_num; i++) {
		if (c->queue[i] >= prss->nb_rxq)
			return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
				"rss: queue %u >= the PF's %u Rx queues",
				c->queue[i], prss->nb_rxq);
	}
	ra = rte_zmalloc_socket("octonic_rss_action",
		sizeof(*ra) + c->queue_num * sizeof(ra->queues[0]), 0, sw->socket);
	if (ra == NULL)
		return octonic_esw_error(error, ENOMEM, RTE_FLOW_ERROR_TYPE_ACTION, a, "rss: no memory");
	/* types 0: the PF's hash types, as for the default RSS. */
	ra->types = c->types != 0 ? c->types : prss->hf;
	if (c->key_len != 0) {
		memcpy(ra->key, c->key, OCTONIC_RSS_KEY_LEN);
		ra->custom_key = 1;
	} else {
		memcpy(ra->key, prss->key, OCTONIC_RSS_KEY_LEN);
	}
	ra->nb_queues = (uint16_t)c->queue_num;
	for (i = 0; i < c->queue_num; i++)
		ra->queues[i] = c->queue[i];
	r->rss = ra;
	return 0;
}

int
octonic_esw_pf_of_port(const struct octonic_eswitch *sw, uint16_t port_id)
{
	uint16_t i;

	for (i = 0; i < sw->nb_pfs; i++)
		if (sw->pf[i].port_set && sw->pf[i].port_id == port_id)
			return i;
	return -1;
}

/*
 * MODIFY_FIELD, the way mlx5's hardware steering writes META: SET of META
 * bits [offset, offset + width) from an immediate value.  The immediate is
 * laid out as rte_flow_item_meta's data (a host-order uint32_t) and its bit
 * offset is the destination's (rte_flow.h, struct
 * rte_flow_action_modify_data).  Folded into the rule's META write, so it
 * acts as SET_META with the matching mask would.
 */
static int
parse_modify_meta(const struct rte_flow_action *a, struct rte_flow *r,
		struct rte_flow_error *error)
{
	const struct rte_flow_action_modify_field *m = a->conf;
	uint32_t v, mask;

	if (m == NULL)
		return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
			"modify_field: configuration missing");
	if (m->operation != RTE_FLOW_MODIFY_SET ||
			m->dst.field != RTE_FLOW_FIELD_META ||
			m->src.field != RTE_FLOW_FIELD_VALUE) {
		return octonic_esw_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
			"modify_field: only SET of META from an immediate value is supported");
	}
	if (m->width == 0 || m->dst.level != 0 || m->dst.offset >= 32 ||
			m->width > 32 - m->dst.offset) {
		return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
			"modify_field: META bits [%u, %u + %u) are not within its 32 bits",
			m->dst.offset, m->dst.offset, m->width);
	}
	memcpy(&v, m->src.value, sizeof(v));
	mask = (m->width == 32 ? UINT32_MAX : (UINT32_C(1) << m->width) - 1)
		<< m->dst.offset;
	/* a later write in the same rule wins on the bits it sets */
	r->meta_data = (r->meta_data & ~mask) | (v & mask);
	r->meta_mask |= mask;
	r->has_set_meta = 1;
	return 0;
}

/* The action is not one of the domain's: its parser leaves it to the next */
#define NOT_MINE 1

/* -EINVAL for an action without the configuration it needs */
static int
conf_missing(struct rte_flow_error *error, const struct rte_flow_action *a,
		const char *what)
{
	return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
		"%s: configuration missing", what);
}

/* The actions of both domains */
static int
parse_common(const struct rte_flow_attr *attr, const struct rte_flow_action *a,
		struct rte_flow *r, struct rte_flow_error *error)
{
	switch (a->type) {
	case RTE_FLOW_ACTION_TYPE_VOID:
		return 0;
	case RTE_FLOW_ACTION_TYPE_COUNT:
		r->has_count = 1;
		return 0;
	case RTE_FLOW_ACTION_TYPE_MARK: {
		const struct rte_flow_action_mark *m = a->conf;

		if (m == NULL)
			return conf_missing(error, a, "mark");
		r->has_mark = 1;
		r->mark = m->id;
		return 0;
	}
	case RTE_FLOW_ACTION_TYPE_FLAG:
		r->has_flag = 1;
		return 0;
	case RTE_FLOW_ACTION_TYPE_DROP:
		return set_fate(r, SW_FATE_DROP, a, error);
	case RTE_FLOW_ACTION_TYPE_JUMP: {
		const struct rte_flow_action_jump *j = a->conf;

		if (j == NULL)
			return conf_missing(error, a, "jump");
		/* Groups only go up: JUMP loops cannot be built. */
		if (j->group <= attr->group)
			return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
				"jump: target group %u must be higher than the rule's group %u",
				j->group, attr->group);
		r->jump_group = j->group;
		return set_fate(r, SW_FATE_JUMP, a, error);
	}
	default:
		return NOT_MINE;
	}
}

/* A fate to a port of the e-switch, once the rule has no other fate */
static int
set_port_fate(struct rte_flow *r, uint16_t fate_arg, uint16_t port_id,
		const struct rte_flow_action *a, struct rte_flow_error *error)
{
	int ret = set_fate(r, SW_FATE_PORT, a, error);

	if (ret == 0) {
		r->fate_arg = fate_arg;
		r->port_id = port_id;
	}
	return ret;
}

static int
parse_transfer(struct octonic_eswitch *sw, const struct rte_flow_action *a,
		struct rte_flow *r, struct rte_flow_error *error)
{
	const struct rte_flow_action_ethdev *e = a->conf;
	int p;

	switch (a->type) {
	case RTE_FLOW_ACTION_TYPE_SET_META: {
		const struct rte_flow_action_set_meta *m = a->conf;

		if (m == NULL)
			return conf_missing(error, a, "set_meta");
		r->has_set_meta = 1;
		r->meta_data = m->data & m->mask;
		r->meta_mask = m->mask;
		return 0;
	}
	case RTE_FLOW_ACTION_TYPE_MODIFY_FIELD:
		/* not in the generic vocabulary (kept as it was) */
		if (sw->dialect == OCTONIC_DIALECT_GENERIC)
			return NOT_MINE;
		return parse_modify_meta(a, r, error);
	case RTE_FLOW_ACTION_TYPE_PORT_REPRESENTOR:
		/* mlx5-hws: to the e-switch manager (PF0) only; the
		 * dialect check refused every other case
		 */
		if (sw->dialect != OCTONIC_DIALECT_MLX5_HWS)
			return NOT_MINE;
		if (e == NULL)
			return conf_missing(error, a, "port_representor");
		return set_port_fate(r, 0, sw->pf[0].port_id, a, error);
	case RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT:
		if (e == NULL)
			return conf_missing(error, a, "represented_port");
		p = octonic_esw_pf_of_port(sw, e->port_id);
		if (p < 0)
			return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF,
				a, "represented_port: port %u is not a PF of this NIC",
				e->port_id);
		return set_port_fate(r, (uint16_t)p | (sw->uplinks ? SW_PORT_UPLINK : 0),
			e->port_id, a, error);
	default:
		return NOT_MINE;
	}
}

static int
parse_ingress(struct octonic_eswitch *sw, uint16_t pf,
		const struct rte_flow_action *a, struct rte_flow *r,
		struct rte_flow_error *error)
{
	const struct rte_flow_action_queue *q = a->conf;
	int ret;

	switch (a->type) {
	case RTE_FLOW_ACTION_TYPE_QUEUE:
		if (q == NULL)
			return conf_missing(error, a, "queue");
		if (q->index >= sw->pf[pf].rss->nb_rxq)
			return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF,
				a, "queue: index %u >= the PF's %u Rx queues",
				q->index, sw->pf[pf].rss->nb_rxq);
		ret = set_fate(r, SW_FATE_QUEUE, a, error);
		if (ret == 0)
			r->fate_arg = q->index;
		return ret;
	case RTE_FLOW_ACTION_TYPE_RSS:
		ret = set_fate(r, SW_FATE_RSS, a, error);
		if (ret == 0)
			ret = parse_rss(sw, pf, a, r, error);
		return ret;
	default:
		return NOT_MINE;
	}
}

static int
parse_one(struct octonic_eswitch *sw, uint16_t pf, int transfer,
		const struct rte_flow_attr *attr, const struct rte_flow_action *a,
		struct rte_flow *r, struct rte_flow_error *error)
{
	int ret = parse_common(attr, a, r, error);

	if (ret == NOT_MINE)
		ret = transfer ? parse_transfer(sw, a, r, error) :
			parse_ingress(sw, pf, a, r, error);
	if (ret != NOT_MINE)
		return ret;
	return octonic_esw_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, a,
		"action type %d not supported in the %s domain", a->type,
		transfer ? "transfer" : "ingress");
}

int
octonic_esw_actions_parse(struct octonic_eswitch *sw, uint16_t pf,
		const struct rte_flow_attr *attr, const struct rte_flow_action actions[],
		struct rte_flow *r, struct rte_flow_error *error)
{
	const struct rte_flow_action *a;
	int ret;

	if (actions == NULL)
		return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_NUM, NULL,
			"actions missing");
	for (a = actions; a->type != RTE_FLOW_ACTION_TYPE_END; a++) {
		ret = parse_one(sw, pf, attr->transfer, attr, a, r, error);
		if (ret != 0)
			goto fail;
	}
	if (r->fate == SW_FATE_NONE) {
		ret = octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_NUM, actions,
			attr->transfer ?
			"transfer rules need one of jump, represented_port, drop" :
			"ingress rules need one of queue, rss, drop, jump");
		goto fail;
	}
	return 0;
fail:
	rte_free(r->rss);
	r->rss = NULL;
	return ret;
}

/* ---- plans: an actions template's rules parsed once ---- */

/* Whether action @p a gives every rule the same decision fields whatever
 * the rule passes and whenever it comes: no conf, or a conf the template
 * fixes that only attr and the dialect judge.  QUEUE, RSS and the port
 * actions read the PF's state (Rx queues, RSS key, ports), which may
 * change between the table's creation and a rule's.
 */
static int
action_static(const struct rte_flow_action *a, uint8_t fixed)
{
	switch (a->type) {
	case RTE_FLOW_ACTION_TYPE_VOID:
	case RTE_FLOW_ACTION_TYPE_COUNT:
	case RTE_FLOW_ACTION_TYPE_FLAG:
	case RTE_FLOW_ACTION_TYPE_DROP:
		return 1;
	case RTE_FLOW_ACTION_TYPE_MARK:
	case RTE_FLOW_ACTION_TYPE_JUMP:
	case RTE_FLOW_ACTION_TYPE_SET_META:
	case RTE_FLOW_ACTION_TYPE_MODIFY_FIELD:
		return fixed;
	default:
		return 0;
	}
}

/* The decision field an action writes (fields no two actions of a plan
 * share, so the order they are parsed in does not matter).
 */
enum plan_field {
	PF_OTHER,
	PF_FATE,
	PF_MARK,
	PF_META,
};

static enum plan_field
action_field(enum rte_flow_action_type type)
{
	switch (type) {
	case RTE_FLOW_ACTION_TYPE_DROP:
	case RTE_FLOW_ACTION_TYPE_JUMP:
	case RTE_FLOW_ACTION_TYPE_QUEUE:
	case RTE_FLOW_ACTION_TYPE_RSS:
	case RTE_FLOW_ACTION_TYPE_PORT_REPRESENTOR:
	case RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT:
		return PF_FATE;
	case RTE_FLOW_ACTION_TYPE_MARK:
		return PF_MARK;
	case RTE_FLOW_ACTION_TYPE_SET_META:
	case RTE_FLOW_ACTION_TYPE_MODIFY_FIELD:
		return PF_META;
	default:
		return PF_OTHER;
	}
}

void
octonic_esw_aplan_build(struct octonic_eswitch *sw, uint16_t pf,
		const struct rte_flow_attr *attr, const struct rte_flow_action tmpl[],
		const uint8_t fixed[], uint32_t n, struct sw_aplan *p)
{
	uint32_t i, nb_fate = 0, nb_static[PF_META + 1] = { 0 },
		nb_rule[PF_META + 1] = { 0 };
	enum plan_field f;

	memset(p, 0, sizeof(*p));
	if (n > RTE_DIM(p->open))
		return;
	for (i = 0; i < n; i++) {
		f = action_field(tmpl[i].type);
		nb_fate += f == PF_FATE;
		if (action_static(&tmpl[i], fixed[i])) {
			nb_static[f]++;
			p->has_base = 1;
			/* a refusal here is every rule's: the parse gives it */
			if (parse_one(sw, pf, attr->transfer, attr, &tmpl[i],
					&p->base, NULL) != 0)
				return;
		} else {
			nb_rule[f]++;
			p->open[p->nb_open++] = (uint8_t)i;
		}
	}
	/* One fate: no rule is refused for a second one or for none (a
	 * fate action that sets none refuses the rule itself); a MARK or a
	 * META write in both parts would depend on their order.
	 */
	if (nb_fate != 1 || (nb_static[PF_MARK] != 0 && nb_rule[PF_MARK] != 0) ||
			(nb_static[PF_META] != 0 && nb_rule[PF_META] != 0))
		return;
	p->ok = 1;
}

int
octonic_esw_aplan_apply(struct octonic_eswitch *sw, uint16_t pf,
		const struct rte_flow_attr *attr, const struct sw_aplan *p,
		const struct rte_flow_action tmpl[], const uint8_t fixed[],
		const struct rte_flow_action actions[], struct rte_flow *r,
		struct rte_flow_error *error)
{
	const struct rte_flow *b = &p->base;
	uint32_t k;
	int ret;

	/* the slot is zeroed: a plan without constant actions adds none */
	if (p->has_base) {
		r->jump_group = b->jump_group;
		r->meta_data = b->meta_data;
		r->meta_mask = b->meta_mask;
		r->mark = b->mark;
		r->fate_arg = b->fate_arg;
		r->fate = b->fate;
		r->has_set_meta = b->has_set_meta;
		r->has_mark = b->has_mark;
		r->has_flag = b->has_flag;
		r->has_count = b->has_count;
		r->port_id = b->port_id;
	}
	for (k = 0; k < p->nb_open; k++) {
		uint32_t i = p->open[k];
		/* the error names the rule's action */
		const struct rte_flow_action *a = &actions[i];
		struct rte_flow_action ac;

		if (fixed[i]) {
			ac.type = tmpl[i].type;
			ac.conf = tmpl[i].conf;
			a = &ac;
		}
		ret = parse_one(sw, pf, attr->transfer, attr, a, r, error);
		if (unlikely(ret != 0)) {
			if (error != NULL && error->cause == &ac)
				error->cause = &actions[i];
			rte_free(r->rss);
			r->rss = NULL;
			return ret;
		}
	}
	return 0;
}
