/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Application rte_flow rule -> planner input (octo_steer_app_rule), with
 * every refusal named in rte_flow_error; and planner entry -> the member
 * rule (transfer, on the proxy): the application's pattern, narrowed to the
 * entry's spreading bucket when it has one, with the entry's actions.
 */

#include <errno.h>
#include <string.h>

#include <rte_common.h>
#include <rte_debug.h>
#include <rte_errno.h>
#include <rte_hash_crc.h>

#include "octopus_internal.h"
#include "octopus_flow.h"

/* Longest application pattern, END excluded. */
#define FLOW_MAX_ITEMS 32

size_t
octopus_flow_item_size(enum rte_flow_item_type t)
{
	switch (t) {
	case RTE_FLOW_ITEM_TYPE_ETH: return sizeof(struct rte_flow_item_eth);
	case RTE_FLOW_ITEM_TYPE_VLAN: return sizeof(struct rte_flow_item_vlan);
	case RTE_FLOW_ITEM_TYPE_IPV4: return sizeof(struct rte_flow_item_ipv4);
	case RTE_FLOW_ITEM_TYPE_IPV6: return sizeof(struct rte_flow_item_ipv6);
	case RTE_FLOW_ITEM_TYPE_TCP: return sizeof(struct rte_flow_item_tcp);
	case RTE_FLOW_ITEM_TYPE_UDP: return sizeof(struct rte_flow_item_udp);
	case RTE_FLOW_ITEM_TYPE_SCTP: return sizeof(struct rte_flow_item_sctp);
	case RTE_FLOW_ITEM_TYPE_ICMP: return sizeof(struct rte_flow_item_icmp);
	case RTE_FLOW_ITEM_TYPE_ICMP6: return sizeof(struct rte_flow_item_icmp6);
	default: return 0;
	}
}

static int
parse_attr(const struct rte_flow_attr *attr, struct octo_steer_app_rule *r,
		struct rte_flow_error *error)
{
	if (attr == NULL)
		return octopus_flow_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ATTR, NULL,
			"attributes missing");
	if (attr->egress)
		return octopus_flow_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR_EGRESS,
			attr, "egress rules are not supported on net_octopus (ingress only)");
	if (attr->transfer)
		return octopus_flow_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR_TRANSFER,
			attr, "transfer rules are not supported: the members' e-switch carries the port's steering (use ingress)");
	if (!attr->ingress)
		return octopus_flow_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ATTR_INGRESS,
			attr, "ingress must be set");
	if (attr->group >= OCTO_STEER_HOME_GROUP)
		return octopus_flow_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR_GROUP,
			attr, "group %u: net_octopus offers groups 0..%u (the others carry its steering)",
			attr->group, OCTO_STEER_HOME_GROUP - 1);
	if (attr->priority >= OCTO_STEER_APP_MAX_PRIO)
		return octopus_flow_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR_PRIORITY,
			attr, "priority %u: net_octopus offers priorities 0..%u",
			attr->priority, OCTO_STEER_APP_MAX_PRIO - 1);
	r->group = attr->group;
	r->priority = attr->priority;
	return 0;
}

static int
parse_pattern(const struct rte_flow_item pattern[], struct octo_steer_app_rule *r,
		struct rte_flow_error *error)
{
	const struct rte_flow_item *it;
	unsigned int n = 0;

	if (pattern == NULL)
		return octopus_flow_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ITEM_NUM, NULL,
			"pattern missing");
	for (it = pattern; it->type != RTE_FLOW_ITEM_TYPE_END; it++) {
		if (++n > FLOW_MAX_ITEMS)
			return octopus_flow_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM, it,
				"pattern longer than %u items", FLOW_MAX_ITEMS);
		if (it->type == RTE_FLOW_ITEM_TYPE_VOID)
			continue;
		if (octopus_flow_item_size(it->type) == 0)
			return octopus_flow_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM, it,
				"item type %d not supported on net_octopus (eth, vlan, ipv4, ipv6, tcp, udp, sctp, icmp, icmp6)",
				(int)it->type);
		if (it->spec == NULL && (it->last != NULL || it->mask != NULL))
			return octopus_flow_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ITEM, it,
				"item type %d: mask or last without spec", (int)it->type);
		/* the first L3 and L4 items say the rule's protocols */
		if (r->l3 == OCTO_STEER_L3_ANY)
			r->l3 = it->type == RTE_FLOW_ITEM_TYPE_IPV4 ? OCTO_STEER_L3_IPV4 :
				it->type == RTE_FLOW_ITEM_TYPE_IPV6 ? OCTO_STEER_L3_IPV6 :
				OCTO_STEER_L3_ANY;
		if (r->l4 == OCTO_STEER_L4_ANY)
			r->l4 = it->type == RTE_FLOW_ITEM_TYPE_TCP ? OCTO_STEER_L4_TCP :
				it->type == RTE_FLOW_ITEM_TYPE_UDP ? OCTO_STEER_L4_UDP :
				OCTO_STEER_L4_ANY;
	}
	return 0;
}

static int
set_fate(struct octo_steer_app_rule *r, int *has_fate, enum octo_steer_app_fate f,
		const struct rte_flow_action *a, struct rte_flow_error *error)
{
	if (*has_fate)
		return octopus_flow_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION, a,
			"only one of queue, rss, drop, jump per rule");
	*has_fate = 1;
	r->fate = f;
	return 0;
}

/* An RSS action: its queues, the rule's fate. */
static int
parse_rss(uint16_t nb_rxq, const struct rte_flow_action *a, struct octopus_flow_parsed *out,
		int *has_fate, struct rte_flow_error *error)
{
	const struct rte_flow_action_rss *c = a->conf;
	struct octo_steer_app_rule *r = &out->app;
	uint32_t i;
	int ret;

	if (c == NULL)
		return octopus_flow_error(error, EINVAL,
			RTE_FLOW_ERROR_TYPE_ACTION_CONF, a, "rss: configuration missing");
	if (c->level > 1)
		return octopus_flow_error(error, ENOTSUP,
			RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
			"rss: level %u: only the outermost headers spread", c->level);
	if (c->queue_num == 0 || c->queue == NULL ||
			c->queue_num > OCTO_STEER_APP_MAX_RSS)
		return octopus_flow_error(error, EINVAL,
			RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
			"rss: %u queues, need 1..%u", c->queue_num,
			OCTO_STEER_APP_MAX_RSS);
	for (i = 0; i < c->queue_num; i++) {
		if (c->queue[i] >= nb_rxq)
			return octopus_flow_error(error, EINVAL,
				RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
				"rss: queue %u: the port has %u Rx queues",
				c->queue[i], nb_rxq);
		out->rss_queues[i] = c->queue[i];
	}
	ret = set_fate(r, has_fate, OCTO_STEER_APP_RSS, a, error);
	r->rss_queues = out->rss_queues;
	r->rss_num = c->queue_num;
	return ret;
}

static int
parse_actions(uint16_t nb_rxq, const struct rte_flow_action actions[],
		struct octopus_flow_parsed *out, struct rte_flow_error *error)
{
	struct octo_steer_app_rule *r = &out->app;
	const struct rte_flow_action *a;
	int has_fate = 0, ret;

	if (actions == NULL)
		return octopus_flow_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_NUM, NULL,
			"actions missing");
	for (a = actions; a->type != RTE_FLOW_ACTION_TYPE_END; a++) {
		ret = 0;
		switch (a->type) {
		case RTE_FLOW_ACTION_TYPE_VOID:
			break;
		case RTE_FLOW_ACTION_TYPE_QUEUE: {
			const struct rte_flow_action_queue *q = a->conf;

			if (q == NULL)
				return octopus_flow_error(error, EINVAL,
					RTE_FLOW_ERROR_TYPE_ACTION_CONF, a, "queue: configuration missing");
			if (q->index >= nb_rxq)
				return octopus_flow_error(error, EINVAL,
					RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
					"queue index %u: the port has %u Rx queues",
					q->index, nb_rxq);
			ret = set_fate(r, &has_fate, OCTO_STEER_APP_QUEUE, a, error);
			r->queue = q->index;
			break;
		}
		case RTE_FLOW_ACTION_TYPE_RSS:
			ret = parse_rss(nb_rxq, a, out, &has_fate, error);
			break;
		case RTE_FLOW_ACTION_TYPE_DROP:
			ret = set_fate(r, &has_fate, OCTO_STEER_APP_DROP, a, error);
			break;
		case RTE_FLOW_ACTION_TYPE_JUMP: {
			const struct rte_flow_action_jump *j = a->conf;

			if (j == NULL)
				return octopus_flow_error(error, EINVAL,
					RTE_FLOW_ERROR_TYPE_ACTION_CONF, a, "jump: configuration missing");
			ret = set_fate(r, &has_fate, OCTO_STEER_APP_JUMP, a, error);
			r->jump_group = j->group;
			break;
		}
		case RTE_FLOW_ACTION_TYPE_MARK: {
			const struct rte_flow_action_mark *m = a->conf;

			if (m == NULL)
				return octopus_flow_error(error, EINVAL,
					RTE_FLOW_ERROR_TYPE_ACTION_CONF, a, "mark: configuration missing");
			if (r->has_mark || r->has_flag)
				return octopus_flow_error(error, EINVAL,
					RTE_FLOW_ERROR_TYPE_ACTION, a,
					"one mark or flag per rule (a packet carries one mark)");
			r->has_mark = 1;
			r->mark = m->id;
			break;
		}
		case RTE_FLOW_ACTION_TYPE_COUNT:
			if (r->has_count)
				return octopus_flow_error(error, EINVAL,
					RTE_FLOW_ERROR_TYPE_ACTION, a, "count given twice in one rule");
			r->has_count = 1;
			break;
		case RTE_FLOW_ACTION_TYPE_FLAG:
			if (r->has_mark || r->has_flag)
				return octopus_flow_error(error, EINVAL,
					RTE_FLOW_ERROR_TYPE_ACTION, a,
					"one mark or flag per rule (a packet carries one mark)");
			r->has_flag = 1;
			break;
		default:
			return octopus_flow_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, a,
				"action type %d not supported on net_octopus (queue, rss, drop, jump, mark, flag, count, void)",
				(int)a->type);
		}
		if (ret != 0)
			return ret;
	}
	if (!has_fate)
		return octopus_flow_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_NUM, actions,
			"a rule needs one of queue, rss, drop, jump");
	return 0;
}

int
octopus_flow_parse(const struct octopus_priv *p, const struct rte_flow_attr *attr,
		const struct rte_flow_item pattern[], const struct rte_flow_action actions[],
		struct octopus_flow_parsed *out, struct rte_flow_error *error)
{
	uint16_t nb_rxq = rte_eth_devices[p->port_id].data->nb_rx_queues;
	int ret;

	memset(&out->app, 0, sizeof(out->app));
	ret = parse_attr(attr, &out->app, error);
	if (ret == 0)
		ret = parse_pattern(pattern, &out->app, error);
	if (ret == 0 && nb_rxq == 0)
		ret = octopus_flow_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"the port has no Rx queues (configure it first)");
	if (ret == 0)
		ret = parse_actions(nb_rxq, actions, out, error);
	return ret;
}

uint32_t
octopus_flow_key(const struct rte_flow_attr *attr, const struct rte_flow_item pattern[])
{
	const struct rte_flow_item *it;
	uint32_t h, w[3];

	w[0] = attr->group;
	w[1] = attr->priority;
	w[2] = attr->ingress;
	h = rte_hash_crc(w, sizeof(w), 0);
	for (it = pattern; it->type != RTE_FLOW_ITEM_TYPE_END; it++) {
		size_t sz = octopus_flow_item_size(it->type), k;
		const uint8_t *spec = it->spec, *mask = it->mask;

		if (it->type == RTE_FLOW_ITEM_TYPE_VOID)
			continue;
		h = rte_hash_crc_4byte((uint32_t)it->type, h);
		if (spec == NULL)
			continue;
		/* the bits that match: spec under its mask (all when none),
		 * eight bytes at a time, then four, then one (fixed-size
		 * loads: a memcpy of a variable length is a call)
		 */
		for (k = 0; k + sizeof(uint64_t) <= sz; k += sizeof(uint64_t)) {
			uint64_t s, m = UINT64_MAX;

			memcpy(&s, spec + k, sizeof(s));
			if (mask != NULL)
				memcpy(&m, mask + k, sizeof(m));
			h = rte_hash_crc_8byte(s & m, h);
		}
		if (k + sizeof(uint32_t) <= sz) {
			uint32_t s, m = UINT32_MAX;

			memcpy(&s, spec + k, sizeof(s));
			if (mask != NULL)
				memcpy(&m, mask + k, sizeof(m));
			h = rte_hash_crc_4byte(s & m, h);
			k += sizeof(uint32_t);
		}
		for (; k < sz; k++)
			h = rte_hash_crc_1byte(spec[k] & (mask != NULL ? mask[k] : 0xff), h);
	}
	return h;
}


/*
 * The rule's deep copy, for the items and actions octopus_flow_parse()
 * takes: items of fixed sizes, and actions whose configuration is flat but
 * for RSS's key and queues. rte_flow_conv, general over every type ethdev
 * knows, took 650 instructions of a 5.7k create; this, about 400 for
 * flow-perf's rule (a pass to size the copy, one to make it).
 */
#define COPY_ALIGN(n)	RTE_ALIGN_CEIL((size_t)(n), sizeof(double))

static size_t
action_conf_size(const struct rte_flow_action *a)
{
	const struct rte_flow_action_rss *rss = a->conf;

	if (a->conf == NULL)
		return 0;
	switch (a->type) {
	case RTE_FLOW_ACTION_TYPE_QUEUE: return sizeof(struct rte_flow_action_queue);
	case RTE_FLOW_ACTION_TYPE_JUMP: return sizeof(struct rte_flow_action_jump);
	case RTE_FLOW_ACTION_TYPE_MARK: return sizeof(struct rte_flow_action_mark);
	case RTE_FLOW_ACTION_TYPE_COUNT: return sizeof(struct rte_flow_action_count);
	case RTE_FLOW_ACTION_TYPE_RSS:
		return COPY_ALIGN(sizeof(*rss)) +
			(rss->key != NULL ? COPY_ALIGN(rss->key_len) : 0) +
			(rss->queue != NULL ?
				COPY_ALIGN((size_t)rss->queue_num * sizeof(uint16_t)) : 0);
	default:
		return 0;	/* drop, flag, void: nothing to keep */
	}
}

size_t
octopus_flow_copy_size(const struct rte_flow_item pattern[],
		const struct rte_flow_action actions[])
{
	size_t size = sizeof(struct rte_flow_conv_rule) +
		COPY_ALIGN(sizeof(struct rte_flow_attr));
	const struct rte_flow_action *a;
	const struct rte_flow_item *it;

	for (it = pattern; ; it++) {
		size_t sz = COPY_ALIGN(octopus_flow_item_size(it->type));

		size += sizeof(*it) + (it->spec != NULL ? sz : 0) +
			(it->last != NULL ? sz : 0) + (it->mask != NULL ? sz : 0);
		if (it->type == RTE_FLOW_ITEM_TYPE_END)
			break;
	}
	for (a = actions; ; a++) {
		size += sizeof(*a) + COPY_ALIGN(action_conf_size(a));
		if (a->type == RTE_FLOW_ACTION_TYPE_END)
			break;
	}
	return size;
}

/* @p n bytes of @p src at *@p data, which moves past them; NULL for none. */
static __rte_always_inline void *
copy_out(uint8_t **data, const void *src, size_t n)
{
	void *d = *data;

	if (src == NULL || n == 0)
		return NULL;
	octopus_flow_copy_bytes(d, src, n);
	*data += COPY_ALIGN(n);
	return d;
}

static const void *
copy_conf(uint8_t **data, const struct rte_flow_action *a)
{
	struct rte_flow_action_rss *rss;

	if (a->type != RTE_FLOW_ACTION_TYPE_RSS)
		return copy_out(data, a->conf, action_conf_size(a));
	rss = copy_out(data, a->conf, sizeof(*rss));
	if (rss == NULL)
		return NULL;
	rss->key = copy_out(data, rss->key, rss->key_len);
	rss->queue = copy_out(data, rss->queue, (size_t)rss->queue_num * sizeof(uint16_t));
	return rss;
}

void
octopus_flow_copy(struct rte_flow_conv_rule *dst, size_t size,
		const struct rte_flow_attr *attr, const struct rte_flow_item pattern[],
		const struct rte_flow_action actions[])
{
	struct rte_flow_attr *dattr = (struct rte_flow_attr *)(dst + 1);
	const struct rte_flow_action *a;
	const struct rte_flow_item *it;
	struct rte_flow_action *da;
	struct rte_flow_item *di;
	size_t nb_items = 1, nb_actions = 1;
	uint8_t *data;

	for (it = pattern; it->type != RTE_FLOW_ITEM_TYPE_END; it++)
		nb_items++;
	for (a = actions; a->type != RTE_FLOW_ACTION_TYPE_END; a++)
		nb_actions++;
	*dattr = *attr;
	di = (struct rte_flow_item *)((uint8_t *)dattr + COPY_ALIGN(sizeof(*attr)));
	da = (struct rte_flow_action *)(di + nb_items);
	data = (uint8_t *)(da + nb_actions);
	dst->attr_ro = dattr;
	dst->pattern_ro = di;
	dst->actions_ro = da;
	for (it = pattern; ; it++, di++) {
		size_t sz = octopus_flow_item_size(it->type);

		di->type = it->type;
		di->spec = copy_out(&data, it->spec, sz);
		di->last = copy_out(&data, it->last, sz);
		di->mask = copy_out(&data, it->mask, sz);
		if (it->type == RTE_FLOW_ITEM_TYPE_END)
			break;
	}
	for (a = actions; ; a++, da++) {
		da->type = a->type;
		da->conf = copy_conf(&data, a);
		if (a->type == RTE_FLOW_ACTION_TYPE_END)
			break;
	}
	RTE_VERIFY(data <= (uint8_t *)dst + size);
}

static const void *
default_mask(enum rte_flow_item_type t)
{
	switch (t) {
	case RTE_FLOW_ITEM_TYPE_UDP: return &rte_flow_item_udp_mask;
	case RTE_FLOW_ITEM_TYPE_TCP: return &rte_flow_item_tcp_mask;
	case RTE_FLOW_ITEM_TYPE_IPV4: return &rte_flow_item_ipv4_mask;
	case RTE_FLOW_ITEM_TYPE_IPV6: return &rte_flow_item_ipv6_mask;
	default: return NULL;
	}
}

union item_buf {
	struct rte_flow_item_ipv4 v4;
	struct rte_flow_item_ipv6 v6;
	struct rte_flow_item_tcp tcp;
	struct rte_flow_item_udp udp;
};

/*
 * Whether the item's last makes a range of the @p width bytes at @p off:
 * rte_flow reads a last that is 0 or the spec (under the mask) as none.
 */
static bool
field_ranged(const struct rte_flow_item *it, size_t off, size_t width)
{
	const uint8_t *s = it->spec, *l = it->last, *m;
	bool zero = true, same = true;
	size_t k;

	if (l == NULL)
		return false;
	m = it->mask != NULL ? it->mask : default_mask(it->type);
	for (k = off; k < off + width; k++) {
		zero &= (l[k] & m[k]) == 0;
		same &= (l[k] & m[k]) == (s[k] & m[k]);
	}
	return !zero && !same;
}

/*
 * Narrow the pattern's item carrying entry @p e's field to the entry's
 * bucket: mask |= bucket mask, spec's bucket bits = the bucket's value.
 * A range elsewhere in the item (IPv4 fragment_offset: OVS asks for "not
 * the first fragment" so) stays; the field's bytes of its last are zeroed,
 * so that the narrowed field makes no range.
 * @return 0, 1 when the application's own match on those bits excludes
 * the bucket (no packet could match: skip the entry), -errno.
 */
static int
narrow(struct rte_flow_item *items, unsigned int n, const struct octo_steer_app_entry *e,
		union item_buf *spec, union item_buf *mask, union item_buf *last,
		struct rte_flow_error *error)
{
	size_t off = 0, width = 0, k;
	unsigned int i;

	for (i = 0; i < n; i++)
		if (octopus_steer_field_place(e->field, items[i].type, &off, &width) == 0)
			break;
	if (i == n)
		return octopus_flow_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ITEM, NULL,
			"rss: no item carries the spreading field %s",
			octo_steer_field_name(e->field));
	if (field_ranged(&items[i], off, width))
		return octopus_flow_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM_LAST,
			&items[i], "rss: a range (last) on the field the spreading narrows (%s) is not supported",
			octo_steer_field_name(e->field));
	if (items[i].last != NULL) {
		memcpy(last, items[i].last, octopus_flow_item_size(items[i].type));
		memset((uint8_t *)last + off, 0, width);
		items[i].last = last;
	}
	memset(spec, 0, sizeof(*spec));
	memset(mask, 0, sizeof(*mask));
	if (items[i].spec != NULL) {
		memcpy(spec, items[i].spec, octopus_flow_item_size(items[i].type));
		memcpy(mask, items[i].mask != NULL ? items[i].mask :
			default_mask(items[i].type), octopus_flow_item_size(items[i].type));
	}
	for (k = 0; k < width; k++) {
		uint8_t *s = (uint8_t *)spec + off + k, *m = (uint8_t *)mask + off + k;
		unsigned int sh = 8 * (unsigned int)(width - 1 - k);
		uint8_t bm = (uint8_t)(e->mask >> sh), bv = (uint8_t)(e->value >> sh) & bm;
		uint8_t am = *m, as = *s & am;

		if ((as ^ bv) & am & bm)
			return 1;
		*m = am | bm;
		*s = as | bv;
	}
	items[i].spec = spec;
	items[i].mask = mask;
	return 0;
}

int
octopus_flow_hw_make(uint16_t proxy, enum octopus_steer_meta_write how, bool wire,
		const struct rte_flow_item pattern[], const struct octo_steer_app_entry *e,
		int validate_only, struct rte_flow **flow, struct rte_flow_error *error)
{
	struct rte_flow_item items[FLOW_MAX_ITEMS + 2];
	struct rte_flow_item_ethdev wire_spec;
	struct rte_flow_action actions[6];
	struct rte_flow_action_set_meta meta;
	struct rte_flow_action_modify_field modify;
	struct rte_flow_action_jump jump;
	struct rte_flow_action_mark mark;
	struct rte_flow_action_count count;
	struct rte_flow_attr attr;
	union item_buf spec, mask, last;
	unsigned int n = 0, na = 0;
	int ret;

	for (; pattern[n].type != RTE_FLOW_ITEM_TYPE_END; n++) {
		if (n >= FLOW_MAX_ITEMS)
			return octopus_flow_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM,
				&pattern[n], "pattern longer than %u items", FLOW_MAX_ITEMS);
		items[n] = pattern[n];
	}
	items[n].type = RTE_FLOW_ITEM_TYPE_END;
	items[n].spec = NULL;
	items[n].last = NULL;
	items[n].mask = NULL;
	if (e->field != OCTO_STEER_FIELD_NONE) {
		ret = narrow(items, n, e, &spec, &mask, &last, error);
		if (ret != 0)
			return ret < 0 ? ret : 1;
	}

	memset(&attr, 0, sizeof(attr));
	attr.group = e->group;
	attr.priority = e->priority;
	attr.transfer = 1;
	if (wire && attr.group == 0) {
		/* the wire's frames only, not what the members send (F9) */
		memmove(&items[1], &items[0], (n + 1) * sizeof(items[0]));
		octopus_steer_wire_item_set(&items[0], &wire_spec, proxy);
	}
	memset(actions, 0, sizeof(actions));
	if (e->has_count) {
		memset(&count, 0, sizeof(count));
		actions[na].type = RTE_FLOW_ACTION_TYPE_COUNT;
		actions[na++].conf = &count;
	}
	if (e->has_mark) {
		mark.id = e->mark;
		actions[na].type = RTE_FLOW_ACTION_TYPE_MARK;
		actions[na++].conf = &mark;
	}
	if (e->has_flag)
		actions[na++].type = RTE_FLOW_ACTION_TYPE_FLAG;
	if (e->has_meta)
		octopus_steer_meta_action(how, e->set_meta, &actions[na++], &meta, &modify);
	if (e->drop) {
		actions[na++].type = RTE_FLOW_ACTION_TYPE_DROP;
	} else if (e->has_jump) {
		jump.group = e->jump_group;
		actions[na].type = RTE_FLOW_ACTION_TYPE_JUMP;
		actions[na++].conf = &jump;
	}
	actions[na].type = RTE_FLOW_ACTION_TYPE_END;

	if (validate_only) {
		ret = rte_flow_validate(proxy, &attr, items, actions, error);
		return ret == -ENOSYS ? -ENOTSUP : ret;
	}
	*flow = rte_flow_create(proxy, &attr, items, actions, error);
	if (*flow == NULL)
		return rte_errno > 0 ? -rte_errno : -EIO;
	return 0;
}

/*
 * The item of @p pattern carrying the spreading field of its traffic's
 * default bucket (L4 port for TCP/UDP, else the address, same direction as
 * @p spread), with the field's place in it; NULL for non-IP (the
 * catch-all, not a bucket) or when no item carries it. Item types only.
 */
static __rte_always_inline const struct rte_flow_item *
bucket_holder(enum octo_steer_field spread, const struct rte_flow_item pattern[],
		size_t *off, size_t *width)
{
	const struct rte_flow_item *it, *ip = NULL, *l4 = NULL, *holder;
	enum octo_steer_field f;

	for (it = pattern; it->type != RTE_FLOW_ITEM_TYPE_END; it++) {
		if (ip == NULL && (it->type == RTE_FLOW_ITEM_TYPE_IPV4 ||
				it->type == RTE_FLOW_ITEM_TYPE_IPV6))
			ip = it;
		if (l4 == NULL && (it->type == RTE_FLOW_ITEM_TYPE_TCP ||
				it->type == RTE_FLOW_ITEM_TYPE_UDP))
			l4 = it;
	}
	if (ip == NULL)
		return NULL;
	f = octo_steer_app_rss_field(spread, ip->type == RTE_FLOW_ITEM_TYPE_IPV4 ?
		OCTO_STEER_L3_IPV4 : OCTO_STEER_L3_IPV6, l4 == NULL ? OCTO_STEER_L4_ANY :
		l4->type == RTE_FLOW_ITEM_TYPE_TCP ? OCTO_STEER_L4_TCP : OCTO_STEER_L4_UDP);
	holder = (f == OCTO_STEER_FIELD_L4_SRC || f == OCTO_STEER_FIELD_L4_DST) ? l4 : ip;
	if (holder == NULL || octopus_steer_field_place(f, holder->type, off, width) != 0)
		return NULL;
	return holder;
}

int
octopus_flow_bucket_of(enum octo_steer_field spread, uint16_t reta_size,
		const struct rte_flow_item pattern[])
{
	const struct rte_flow_item *holder;
	const uint8_t *spec, *mask;
	size_t off = 0, width = 0, k;
	uint32_t v = 0, m = 0, need = (uint32_t)reta_size - 1;

	holder = bucket_holder(spread, pattern, &off, &width);
	if (holder == NULL || holder->spec == NULL || holder->last != NULL)
		return -1;
	spec = holder->spec;
	mask = holder->mask != NULL ? holder->mask : default_mask(holder->type);
	for (k = 0; k < width; k++) {
		v = (v << 8) | (spec[off + k] & mask[off + k]);
		m = (m << 8) | mask[off + k];
	}
	if ((m & need) != need)
		return -1;	/* the pattern spans several buckets */
	return (int)(v & need);
}

void
octopus_flow_bucket_prog_make(enum octo_steer_field spread, uint16_t reta_size,
		const struct rte_flow_item tmpl[], struct octopus_flow_bucket_prog *bp)
{
	const struct rte_flow_item *holder;
	const uint8_t *mask;
	size_t off = 0, width = 0, k;
	uint32_t m = 0;

	memset(bp, 0, sizeof(*bp));
	bp->item = -1;
	bp->need = (uint32_t)reta_size - 1;
	holder = bucket_holder(spread, tmpl, &off, &width);
	/* an item the template does not mask matches any header of its type */
	if (holder == NULL || holder->mask == NULL || (width != 2 && width != 4))
		return;
	mask = holder->mask;
	for (k = 0; k < width; k++)
		m = (m << 8) | mask[off + k];
	if ((m & bp->need) != bp->need)
		return;	/* every rule spans several buckets */
	bp->item = (int16_t)(holder - tmpl);
	bp->off = (uint8_t)off;
	bp->width = (uint8_t)width;
}
