/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Steering: turns the planner's rules (lib/steering) into rte_flow rules on
 * the members: transfer rules through the transfer proxy, ingress rules on
 * each member.  Keeps one rte_flow handle per planned rule slot.
 *
 * Callers serialize every call on one steering state (control path only);
 * nothing here runs on the datapath.
 */

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_ethdev.h>
#include <rte_flow.h>
#include <rte_log.h>
#include <rte_malloc.h>
#include <octopus_dpdk_compat.h>

#include "octo_steering.h"
#include "octopus_steer.h"

RTE_LOG_REGISTER_SUFFIX(octopus_steer_logtype, steer, NOTICE);
/* RTE_LOG_LINE starts a line with the type's name: "octopus_steer: " */
#define RTE_LOGTYPE_octopus_steer octopus_steer_logtype
#define STEER_LOG(level, ...) RTE_LOG_LINE(level, octopus_steer, __VA_ARGS__)

/* The planner keeps a rule slot for every member the driver may have. */
static_assert(OCTOPUS_STEER_MAX_MEMBERS <= OCTO_STEER_MAX_MEMBERS,
	"planner holds fewer members than the driver");

struct octopus_steer {
	uint16_t nb_members;
	uint16_t member_port[OCTOPUS_STEER_MAX_MEMBERS];
	uint16_t proxy;			/* transfer proxy port */
	enum octopus_steer_meta_write meta_how;	/* found by the probe */
	bool wire_item;			/* octopus_steer_wire_item_probe() */
	uint32_t base;			/* transfer group of the classification */
	struct rte_flow *root;		/* base != 0: group 0 ETH -> JUMP(base) */
	struct octo_steer_plan *plan;
	uint32_t nb_slots;
	struct rte_flow **flows;	/* [nb_slots]: handle of each slot's rule */
};

/*
 * The handle of a rule that belongs on an absent member's port: nothing to
 * create or destroy, but the slot is taken, as the plan expects.
 */
static char absent_rule;
#define ABSENT_FLOW ((struct rte_flow *)&absent_rule)

/* The port rule @p r lives on. */
static uint16_t
rule_port(const struct octopus_steer *s, const struct octo_steer_rule *r)
{
	return r->domain == OCTO_STEER_DOM_TRANSFER ? s->proxy :
		s->member_port[r->member];
}

/* Everything one rte_flow rule needs, on the stack of its creator. */
struct flow_desc {
	struct rte_flow_attr attr;
	struct rte_flow_item items[5];
	struct rte_flow_action actions[3];
	struct rte_flow_item_ethdev wire;
	struct rte_flow_item_meta meta_spec, meta_mask;
	struct rte_flow_item_ipv4 ip4_spec, ip4_mask;
	struct rte_flow_item_ipv6 ip6_spec, ip6_mask;
	struct rte_flow_item_tcp tcp_spec, tcp_mask;
	struct rte_flow_item_udp udp_spec, udp_mask;
	struct rte_flow_action_set_meta set_meta;
	struct rte_flow_action_modify_field modify;
	struct rte_flow_action_jump jump;
	struct rte_flow_action_ethdev represented;
	struct rte_flow_action_queue queue;
	uint16_t port;			/* where to create it */
};

static const char *
kind_name(enum octo_steer_kind k)
{
	switch (k) {
	case OCTO_STEER_KIND_BUCKET: return "bucket";
	case OCTO_STEER_KIND_CATCHALL: return "catch-all";
	case OCTO_STEER_KIND_HOME: return "home";
	case OCTO_STEER_KIND_QUEUE: return "member queue";
	}
	return "?";
}

/* What the NIC must do for a rule of this kind, for "why" messages. */
static const char *
kind_feature(const struct octopus_steer *s, enum octo_steer_kind k)
{
	int mod = s->meta_how == OCTOPUS_STEER_META_MODIFY;

	switch (k) {
	case OCTO_STEER_KIND_BUCKET:
		return mod ? "transfer rule ETH/IP/L4 masked match -> MODIFY_FIELD(META) + JUMP" :
			"transfer rule ETH/IP/L4 masked match -> SET_META + JUMP";
	case OCTO_STEER_KIND_CATCHALL:
		return mod ? "transfer rule ETH (any) -> MODIFY_FIELD(META) + JUMP" :
			"transfer rule ETH (any) -> SET_META + JUMP";
	case OCTO_STEER_KIND_HOME:
		return "transfer rule in a non-zero group, META match -> REPRESENTED_PORT";
	case OCTO_STEER_KIND_QUEUE:
		return "ingress rule META match -> QUEUE "
			"(META set by the e-switch, carried to the PF's ingress)";
	}
	return "?";
}

void
octopus_steer_meta_action(enum octopus_steer_meta_write how, uint32_t v,
		struct rte_flow_action *a, struct rte_flow_action_set_meta *set,
		struct rte_flow_action_modify_field *mod)
{
	if (how == OCTOPUS_STEER_META_SET) {
		set->mask = UINT32_MAX;
		a->type = RTE_FLOW_ACTION_TYPE_SET_META;
		a->conf = set;
	} else {
		memset(mod, 0, sizeof(*mod));
		mod->operation = RTE_FLOW_MODIFY_SET;
		mod->dst.field = RTE_FLOW_FIELD_META;
		mod->src.field = RTE_FLOW_FIELD_VALUE;
		mod->width = 32;
		a->type = RTE_FLOW_ACTION_TYPE_MODIFY_FIELD;
		a->conf = mod;
	}
	octopus_steer_meta_value(how, v, set, mod);
}

int
octopus_steer_field_place(enum octo_steer_field f, enum rte_flow_item_type t, size_t *off,
		size_t *width)
{
	int dst = f == OCTO_STEER_FIELD_L4_DST || f == OCTO_STEER_FIELD_IP_DST;
	int l4 = f == OCTO_STEER_FIELD_L4_SRC || f == OCTO_STEER_FIELD_L4_DST;

	if (l4 && t == RTE_FLOW_ITEM_TYPE_UDP) {
		*off = dst ? offsetof(struct rte_flow_item_udp, hdr.dst_port) :
			offsetof(struct rte_flow_item_udp, hdr.src_port);
		*width = 2;
		return 0;
	}
	if (l4 && t == RTE_FLOW_ITEM_TYPE_TCP) {
		*off = dst ? offsetof(struct rte_flow_item_tcp, hdr.dst_port) :
			offsetof(struct rte_flow_item_tcp, hdr.src_port);
		*width = 2;
		return 0;
	}
	if (!l4 && t == RTE_FLOW_ITEM_TYPE_IPV4) {
		*off = dst ? offsetof(struct rte_flow_item_ipv4, hdr.dst_addr) :
			offsetof(struct rte_flow_item_ipv4, hdr.src_addr);
		*width = 4;
		return 0;
	}
	if (!l4 && t == RTE_FLOW_ITEM_TYPE_IPV6) {
		/* the low 32 bits: the address's last four bytes */
		*off = (dst ? offsetof(struct rte_flow_item_ipv6, hdr.dst_addr) :
			offsetof(struct rte_flow_item_ipv6, hdr.src_addr)) + 12;
		*width = 4;
		return 0;
	}
	return -1;
}

/*
 * Item @p it of type @p t matches rule @p r's bucket: its spreading field's
 * masked bits equal the bucket's value (spec and mask in @p d's buffers
 * for that type). Items that do not carry the field match anything.
 */
static void
set_field(struct rte_flow_item *it, enum rte_flow_item_type t, void *spec, void *mask,
		const struct octo_steer_rule *r)
{
	size_t off, width, k;
	unsigned int sh;

	it->type = t;
	if (octopus_steer_field_place(r->field, t, &off, &width) != 0)
		return;
	for (k = 0; k < width; k++) {
		sh = 8 * (unsigned int)(width - 1 - k);
		((uint8_t *)spec)[off + k] = (uint8_t)((r->value & r->mask) >> sh);
		((uint8_t *)mask)[off + k] = (uint8_t)(r->mask >> sh);
	}
	it->spec = spec;
	it->mask = mask;
}

/* Fill @p d with the rte_flow form of planned rule @p r. */
static void
build_flow(const struct octopus_steer *s, const struct octo_steer_rule *r,
		struct flow_desc *d)
{
	unsigned int ni = 0, na = 0;

	memset(d, 0, sizeof(*d));
	d->attr.group = r->group;
	d->attr.priority = r->priority;
	if (r->domain == OCTO_STEER_DOM_TRANSFER) {
		d->attr.transfer = 1;
		d->port = s->proxy;
		if (r->group == 0 && s->wire_item)
			octopus_steer_wire_item_set(&d->items[ni++], &d->wire, s->proxy);
	} else {
		d->attr.ingress = 1;
		d->port = s->member_port[r->member];
	}

	if (r->match_meta) {
		d->meta_spec.data = r->meta_match;
		d->meta_mask.data = r->meta_mask;
		d->items[ni].type = RTE_FLOW_ITEM_TYPE_META;
		d->items[ni].spec = &d->meta_spec;
		d->items[ni].mask = &d->meta_mask;
		ni++;
	} else {
		/* ETH without spec: any Ethernet frame */
		d->items[ni++].type = RTE_FLOW_ITEM_TYPE_ETH;
		if (r->l3 == OCTO_STEER_L3_IPV4)
			set_field(&d->items[ni++], RTE_FLOW_ITEM_TYPE_IPV4, &d->ip4_spec,
				&d->ip4_mask, r);
		else if (r->l3 == OCTO_STEER_L3_IPV6)
			set_field(&d->items[ni++], RTE_FLOW_ITEM_TYPE_IPV6, &d->ip6_spec,
				&d->ip6_mask, r);
		if (r->l4 == OCTO_STEER_L4_TCP)
			set_field(&d->items[ni++], RTE_FLOW_ITEM_TYPE_TCP, &d->tcp_spec,
				&d->tcp_mask, r);
		else if (r->l4 == OCTO_STEER_L4_UDP)
			set_field(&d->items[ni++], RTE_FLOW_ITEM_TYPE_UDP, &d->udp_spec,
				&d->udp_mask, r);
	}
	d->items[ni].type = RTE_FLOW_ITEM_TYPE_END;

	switch (r->kind) {
	case OCTO_STEER_KIND_BUCKET:
	case OCTO_STEER_KIND_CATCHALL:
		octopus_steer_meta_action(s->meta_how, r->set_meta, &d->actions[na++],
			&d->set_meta, &d->modify);
		d->jump.group = r->jump_group;
		d->actions[na].type = RTE_FLOW_ACTION_TYPE_JUMP;
		d->actions[na++].conf = &d->jump;
		break;
	case OCTO_STEER_KIND_HOME:
		d->represented.port_id = s->member_port[r->to_member];
		d->actions[na].type = RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT;
		d->actions[na++].conf = &d->represented;
		break;
	case OCTO_STEER_KIND_QUEUE:
		d->queue.index = r->queue;
		d->actions[na].type = RTE_FLOW_ACTION_TYPE_QUEUE;
		d->actions[na++].conf = &d->queue;
		break;
	}
	d->actions[na].type = RTE_FLOW_ACTION_TYPE_END;
}

static const char *
err_msg(const struct rte_flow_error *err, int ret)
{
	if (err->message != NULL)
		return err->message;
	return rte_strerror(ret < 0 ? -ret : ret);
}

static struct rte_flow *
create_rule(const struct octopus_steer *s, const struct octo_steer_rule *r,
		int *ret_out)
{
	struct rte_flow_error err = { 0 };
	struct flow_desc d;
	struct rte_flow *f;

	if (rule_port(s, r) == OCTOPUS_STEER_PORT_ABSENT)
		return ABSENT_FLOW;
	build_flow(s, r, &d);
	f = rte_flow_create(d.port, &d.attr, d.items, d.actions, &err);
	if (f == NULL) {
		int ret = rte_errno > 0 ? -rte_errno : -EIO;

		STEER_LOG(ERR, "port %u: %s rule (group %u prio %u, queue %u) refused: %s",
			d.port, kind_name(r->kind), r->group, r->priority, r->queue,
			err_msg(&err, ret));
		*ret_out = ret;
	}
	return f;
}

static int
destroy_rule(const struct octopus_steer *s, const struct octo_steer_rule *r,
		struct rte_flow *f)
{
	struct rte_flow_error err = { 0 };
	uint16_t port = rule_port(s, r);
	int ret;

	if (f == ABSENT_FLOW || port == OCTOPUS_STEER_PORT_ABSENT)
		return 0;
	ret = rte_flow_destroy(port, f, &err);
	if (ret != 0)
		STEER_LOG(ERR, "port %u: removing %s rule (queue %u) failed: %s",
			port, kind_name(r->kind), r->queue, err_msg(&err, ret));
	return ret;
}

int
octopus_steer_common_proxy(const uint16_t *ports, unsigned int n, uint16_t *proxy,
		char *why, size_t why_len)
{
	uint16_t px = OCTOPUS_STEER_PORT_ABSENT;
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct rte_flow_error err = { 0 };
		uint16_t mp = RTE_MAX_ETHPORTS;
		int ret;

		if (ports[i] == OCTOPUS_STEER_PORT_ABSENT)
			continue;
		ret = rte_flow_pick_transfer_proxy(ports[i], &mp, &err);
		if (ret != 0) {
			snprintf(why, why_len, "member port %u: no rte_flow transfer proxy (%s)",
				ports[i], err_msg(&err, ret));
			return -ENOTSUP;
		}
		/* a PMD may name a proxy whose port is gone (closed, detached) */
		if (!rte_eth_dev_is_valid_port(mp)) {
			snprintf(why, why_len,
				"member port %u: its transfer proxy, port %u, is not a valid port",
				ports[i], mp);
			return -ENOTSUP;
		}
		if (px == OCTOPUS_STEER_PORT_ABSENT) {
			px = mp;
		} else if (mp != px) {
			snprintf(why, why_len,
				"member port %u and the others have different transfer proxies (%u, %u): not one e-switch",
				ports[i], mp, px);
			return -ENOTSUP;
		}
	}
	if (px == OCTOPUS_STEER_PORT_ABSENT) {
		snprintf(why, why_len, "no member has a port");
		return -EINVAL;
	}
	*proxy = px;
	return 0;
}

/*
 * A pattern of the shape of @p items (ETH first, or META first) that no
 * frame matches: an all-zero destination MAC with ether type 0, or META
 * all ones (neither a queue nor a tagged queue), for rules a probe
 * creates while traffic may flow.
 */
struct never_pattern {
	struct rte_flow_item items[2];
	struct rte_flow_item_eth eth, eth_mask;
	struct rte_flow_item_meta meta, meta_mask;
};

static const struct rte_flow_item *
never_pattern(const struct rte_flow_item *items, struct never_pattern *n)
{
	memset(n, 0, sizeof(*n));
	n->items[1].type = RTE_FLOW_ITEM_TYPE_END;
	if (items[0].type == RTE_FLOW_ITEM_TYPE_META) {
		n->meta.data = UINT32_MAX;
		n->meta_mask.data = UINT32_MAX;
		n->items[0] = (struct rte_flow_item){ .type = RTE_FLOW_ITEM_TYPE_META,
			.spec = &n->meta, .mask = &n->meta_mask };
	} else {
		memset(&n->eth_mask.hdr.dst_addr, 0xff, sizeof(n->eth_mask.hdr.dst_addr));
		n->eth_mask.hdr.ether_type = RTE_BE16(0xffff);
		n->items[0] = (struct rte_flow_item){ .type = RTE_FLOW_ITEM_TYPE_ETH,
			.spec = &n->eth, .mask = &n->eth_mask };
	}
	return n->items;
}

int
octopus_steer_probe(uint16_t port, const struct rte_flow_attr *attr,
		const struct rte_flow_item items[], const struct rte_flow_action actions[],
		bool by_create, struct rte_flow_error *err)
{
	struct never_pattern never;
	struct rte_flow *f;
	int ret;

	memset(err, 0, sizeof(*err));
	ret = rte_flow_validate(port, attr, items, actions, err);
	if (ret == -ENOSYS)
		by_create = true;	/* no validate: creating is the only answer */
	else if (ret != 0 || !by_create)
		return ret;
	memset(err, 0, sizeof(*err));
	f = rte_flow_create(port, attr, never_pattern(items, &never), actions, err);
	if (f == NULL)
		return rte_errno > 0 ? -rte_errno : -EIO;
	ret = rte_flow_destroy(port, f, NULL);
	if (ret != 0)
		STEER_LOG(ERR, "port %u: removing a probe rule failed (%d)", port, ret);
	return 0;
}

/* Probe one rule (octopus_steer_probe, creating it). 0 when the NIC takes it. */
static int
probe_rule(const struct octopus_steer *s, const struct octo_steer_rule *r,
		char *why, size_t why_len)
{
	struct rte_flow_error err;
	struct flow_desc d;
	int ret;

	build_flow(s, r, &d);
	ret = octopus_steer_probe(d.port, &d.attr, d.items, d.actions, true, &err);
	if (ret != 0)
		snprintf(why, why_len, "port %u refused %s: %s", d.port,
			kind_feature(s, r->kind), err_msg(&err, ret));
	return ret;
}

/*
 * Probe a classification rule: with SET_META, then, refused as
 * unsupported, with MODIFY_FIELD, which then writes every rule's META.
 */
static int
probe_classify(struct octopus_steer *s, const struct octo_steer_rule *r,
		char *why, size_t why_len)
{
	char first[160];
	size_t n;
	int ret;

	ret = probe_rule(s, r, why, why_len);
	if (ret == 0 || !octopus_steer_unsupported(ret) || s->meta_how != OCTOPUS_STEER_META_SET)
		return ret;
	snprintf(first, sizeof(first), "%s", why);
	s->meta_how = OCTOPUS_STEER_META_MODIFY;
	ret = probe_rule(s, r, why, why_len);
	if (ret == 0) {
		why[0] = '\0';
		return 0;
	}
	s->meta_how = OCTOPUS_STEER_META_SET;
	n = strlen(why);
	if (n < why_len)
		snprintf(why + n, why_len - n, "; with SET_META: %s", first);
	return ret;
}

/* One rule of each kind (and an ingress rule on every member) must pass. */
static int
probe(struct octopus_steer *s, char *why, size_t why_len)
{
	uint8_t done_kind[4] = { 0 };
	uint8_t done_member[OCTOPUS_STEER_MAX_MEMBERS] = { 0 };
	uint32_t i;

	for (i = 0; i < s->nb_slots; i++) {
		const struct octo_steer_rule *r = octo_steer_plan_rule(s->plan, i);
		int ret;

		if (rule_port(s, r) == OCTOPUS_STEER_PORT_ABSENT)
			continue;
		if (r->kind == OCTO_STEER_KIND_QUEUE) {
			if (done_member[r->member])
				continue;
			done_member[r->member] = 1;
		} else {
			if (done_kind[r->kind])
				continue;
			done_kind[r->kind] = 1;
		}
		if (r->kind == OCTO_STEER_KIND_BUCKET || r->kind == OCTO_STEER_KIND_CATCHALL)
			ret = probe_classify(s, r, why, why_len);
		else
			ret = probe_rule(s, r, why, why_len);
		if (ret != 0)
			return octopus_steer_unsupported(ret) ? -ENOTSUP : ret;
	}
	return 0;
}

/*
 * The root jump "transfer group 0: ETH -> JUMP(@p group)": probed when
 * @p flow is NULL (by creating it with @p by_create), else created.
 */
static int
root_rule(uint16_t proxy, uint32_t group, bool wire, struct rte_flow **flow,
		bool by_create, struct rte_flow_error *err)
{
	struct rte_flow_attr attr = { .transfer = 1 };
	struct rte_flow_item_ethdev wire_spec;
	struct rte_flow_item items[3] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_action_jump jump = { .group = group };
	struct rte_flow_action actions[2] = {
		{ .type = RTE_FLOW_ACTION_TYPE_JUMP, .conf = &jump },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};

	if (wire) {
		octopus_steer_wire_item_set(&items[0], &wire_spec, proxy);
		items[1].type = RTE_FLOW_ITEM_TYPE_ETH;
	}
	memset(err, 0, sizeof(*err));
	if (flow == NULL)
		return octopus_steer_probe(proxy, &attr, items, actions, by_create, err);
	*flow = rte_flow_create(proxy, &attr, items, actions, err);
	return *flow != NULL ? 0 : rte_errno > 0 ? -rte_errno : -EIO;
}

static void
remove_all(struct octopus_steer *s)
{
	struct rte_flow_error err = { 0 };
	uint32_t i;

	if (s->root != NULL && rte_flow_destroy(s->proxy, s->root, &err) != 0)
		STEER_LOG(ERR, "port %u: removing the root jump failed: %s", s->proxy,
			err_msg(&err, -EIO));
	s->root = NULL;

	/* reverse of the install order: stop steering before the paths go */
	for (i = s->nb_slots; i-- > 0; ) {
		if (s->flows[i] == NULL)
			continue;
		destroy_rule(s, octo_steer_plan_rule(s->plan, i), s->flows[i]);
		s->flows[i] = NULL;
	}
}

void
octopus_steer_abandon(struct octopus_steer *s)
{
	if (s == NULL)
		return;
	octo_steer_plan_free(s->plan);
	rte_free(s->flows);
	rte_free(s);
}

/* Create every planned rule, then the root jump; none left on a failure. */
static int
rules_create(struct octopus_steer *s, char *why, size_t why_len)
{
	uint32_t i;
	int ret;

	/* slots are in install order: downstream rules first */
	for (i = 0; i < s->nb_slots; i++) {
		const struct octo_steer_rule *r = octo_steer_plan_rule(s->plan, i);

		s->flows[i] = create_rule(s, r, &ret);
		if (s->flows[i] == NULL) {
			snprintf(why, why_len, "creating %s rule %u of %u failed: %s",
				kind_name(r->kind), i, s->nb_slots, rte_strerror(-ret));
			/* the probe passed, so a refusal here is a limit (table
			 * size, ...) of this NIC: still "cannot steer"
			 */
			if (ret == -ENOSYS)
				ret = -ENOTSUP;
			remove_all(s);
			return ret;
		}
	}
	/* last: traffic enters the classification once it is all there */
	if (s->base != 0) {
		struct rte_flow_error err;

		ret = root_rule(s->proxy, s->base, s->wire_item, &s->root, false, &err);
		if (ret != 0) {
			snprintf(why, why_len, "port %u refused transfer rule group 0 ETH -> JUMP(%u): %s",
				s->proxy, s->base, err_msg(&err, ret));
			if (octopus_steer_unsupported(ret))
				ret = -ENOTSUP;
			remove_all(s);
			return ret;
		}
	}
	return 0;
}

int
octopus_steer_install(struct octopus_steer **sp,
		const struct octopus_steer_conf *conf, char *why, size_t why_len)
{
	struct octo_steer_plan_conf pc;
	struct octopus_steer *s;
	char dummy[8];
	uint32_t i;
	int ret;

	if (why == NULL || why_len == 0) {
		why = dummy;
		why_len = sizeof(dummy);
	}
	why[0] = '\0';
	if (sp == NULL || conf == NULL)
		return -EINVAL;
	*sp = NULL;
	if (conf->nb_members == 0 || conf->nb_members > OCTOPUS_STEER_MAX_MEMBERS) {
		snprintf(why, why_len, "%u members, need 1..%u", conf->nb_members,
			OCTOPUS_STEER_MAX_MEMBERS);
		return -EINVAL;
	}
	for (i = 0; i < conf->nb_members; i++) {
		if (conf->member_port[i] != OCTOPUS_STEER_PORT_ABSENT &&
		    !rte_eth_dev_is_valid_port(conf->member_port[i])) {
			snprintf(why, why_len, "member %u: port %u is not valid", i,
				conf->member_port[i]);
			return -EINVAL;
		}
	}

	s = rte_zmalloc("octopus_steer", sizeof(*s), 0);
	if (s == NULL)
		return -ENOMEM;
	s->nb_members = conf->nb_members;
	s->proxy = OCTOPUS_STEER_PORT_ABSENT;
	memcpy(s->member_port, conf->member_port,
		conf->nb_members * sizeof(conf->member_port[0]));

	memset(&pc, 0, sizeof(pc));
	pc.nb_members = conf->nb_members;
	pc.nb_queues = conf->nb_queues;
	pc.home = conf->home;
	pc.reta_size = conf->reta_size;
	pc.reta = conf->reta;
	pc.field = conf->field;
	pc.catchall_queue = conf->catchall_queue;
	ret = octo_steer_plan_create(&s->plan, &pc, why, why_len);
	if (ret != 0)
		goto fail;
	s->nb_slots = octo_steer_plan_nb_rules(s->plan);
	s->flows = rte_calloc("octopus_steer_flows", s->nb_slots, sizeof(*s->flows), 0);
	if (s->flows == NULL) {
		ret = -ENOMEM;
		goto fail;
	}

	ret = octopus_steer_common_proxy(s->member_port, s->nb_members, &s->proxy, why,
		why_len);
	if (ret != 0)
		goto fail;
	s->wire_item = octopus_steer_wire_item_probe(s->proxy);
	/* classification in a non-zero group where the root table refuses it
	 * (refused everywhere: the probe below says why)
	 */
	if (octopus_steer_class_probe(s->proxy, true, &s->meta_how, &s->base, why,
			why_len) == 0 &&
			s->base != 0) {
		octo_steer_plan_free(s->plan);
		s->plan = NULL;
		pc.class_group = s->base;
		ret = octo_steer_plan_create(&s->plan, &pc, why, why_len);
		if (ret != 0)
			goto fail;
	}
	why[0] = '\0';
	ret = probe(s, why, why_len);
	if (ret != 0)
		goto fail;

	ret = rules_create(s, why, why_len);
	if (ret != 0)
		goto fail;
	STEER_LOG(INFO, "installed %u rules on %u members (proxy port %u, classification in transfer group %u)",
		s->nb_slots + (s->root != NULL), s->nb_members, s->proxy, s->base);
	*sp = s;
	return 0;
fail:
	if (ret == -ENOTSUP)
		STEER_LOG(NOTICE, "no steering: %s", why);
	octopus_steer_abandon(s);
	return ret;
}

/*
 * Apply a planned change: adds, then removals.  On a failure everything
 * done so far is undone (added rules removed, removed rules re-created),
 * so the rules stay those of the committed plan.
 */
static int
apply_change(struct octopus_steer *s, const struct octo_steer_change *chg)
{
	struct rte_flow *fresh[RTE_DIM(chg->ops)];
	struct rte_flow *gone[RTE_DIM(chg->ops)];
	uint32_t i, j;
	int ret = 0;

	memset(fresh, 0, sizeof(fresh));
	memset(gone, 0, sizeof(gone));
	for (i = 0; i < chg->nb_ops; i++) {
		const struct octo_steer_op *op = &chg->ops[i];

		if (op->type == OCTO_STEER_OP_ADD) {
			fresh[i] = create_rule(s, &op->rule, &ret);
			if (fresh[i] == NULL)
				goto undo;
		} else {
			ret = destroy_rule(s, &op->rule, s->flows[op->slot]);
			if (ret != 0)
				goto undo;
			gone[i] = s->flows[op->slot];
			s->flows[op->slot] = NULL;
		}
	}
	for (i = 0; i < chg->nb_ops; i++)
		if (chg->ops[i].type == OCTO_STEER_OP_ADD)
			s->flows[chg->ops[i].slot] = fresh[i];
	octo_steer_plan_commit(s->plan, chg);
	return 0;
undo:
	for (j = i; j-- > 0; ) {
		const struct octo_steer_op *op = &chg->ops[j];
		int r2 = 0;

		if (op->type == OCTO_STEER_OP_DEL && gone[j] != NULL)
			s->flows[op->slot] = create_rule(s, &op->rule, &r2);
	}
	for (j = 0; j < i; j++)
		if (fresh[j] != NULL)
			destroy_rule(s, &chg->ops[j].rule, fresh[j]);
	return ret;
}

int
octopus_steer_set_home(struct octopus_steer *s, uint16_t q, uint16_t member)
{
	struct octo_steer_change chg;
	int ret;

	if (s == NULL)
		return -EINVAL;
	ret = octo_steer_plan_set_home(s->plan, q, member, &chg);
	if (ret != 0)
		return ret;
	return apply_change(s, &chg);
}

int
octopus_steer_set_bucket(struct octopus_steer *s, uint16_t bucket, uint16_t q)
{
	struct octo_steer_change chg;
	int ret;

	if (s == NULL)
		return -EINVAL;
	ret = octo_steer_plan_set_bucket(s->plan, bucket, q, &chg);
	if (ret != 0)
		return ret;
	return apply_change(s, &chg);
}

void
octopus_steer_remove(struct octopus_steer *s)
{
	if (s == NULL)
		return;
	remove_all(s);
	octopus_steer_abandon(s);
}

uint32_t
octopus_steer_rule_count(const struct octopus_steer *s)
{
	uint32_t i, n = 0;

	if (s == NULL)
		return 0;
	for (i = 0; i < s->nb_slots; i++)
		n += s->flows[i] != NULL && s->flows[i] != ABSENT_FLOW;
	return n + (s->root != NULL);
}

uint16_t
octopus_steer_proxy(const struct octopus_steer *s)
{
	return s->proxy;
}

bool
octopus_steer_member_gone(struct octopus_steer *s, uint16_t member)
{
	const struct octo_steer_rule *r;
	uint32_t i;

	if (s == NULL || member >= s->nb_members)
		return false;
	if (s->member_port[member] == s->proxy)
		return true;
	s->member_port[member] = OCTOPUS_STEER_PORT_ABSENT;
	for (i = 0; i < s->nb_slots; i++) {
		r = octo_steer_plan_rule(s->plan, i);
		if (s->flows[i] != NULL && rule_port(s, r) == OCTOPUS_STEER_PORT_ABSENT)
			s->flows[i] = ABSENT_FLOW;
	}
	return false;
}

void
octopus_steer_wire_item_set(struct rte_flow_item *it, struct rte_flow_item_ethdev *spec,
		uint16_t proxy)
{
	memset(spec, 0, sizeof(*spec));
	spec->port_id = proxy;
	memset(it, 0, sizeof(*it));
	it->type = RTE_FLOW_ITEM_TYPE_REPRESENTED_PORT;
	it->spec = spec;
	it->mask = &rte_flow_item_ethdev_mask;
}

bool
octopus_steer_wire_item_probe(uint16_t proxy)
{
	struct rte_flow_attr attr = { .transfer = 1 };
	struct rte_flow_item_ethdev wire;
	struct rte_flow_item items[3] = {
		[1] = { .type = RTE_FLOW_ITEM_TYPE_ETH },
		[2] = { .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_action actions[2] = {
		{ .type = RTE_FLOW_ACTION_TYPE_DROP },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_error err;
	bool take;

	octopus_steer_wire_item_set(&items[0], &wire, proxy);
	memset(&err, 0, sizeof(err));
	/* a question about the pattern, which validate answers (facts F1) */
	take = rte_flow_validate(proxy, &attr, items, actions, &err) == 0;
	STEER_LOG(DEBUG, "port %u: transfer rules %s a REPRESENTED_PORT item for the wire%s%s",
		proxy, take ? "take" : "refuse", take ? "" : ": ",
		take ? "" : err_msg(&err, -EINVAL));
	return take;
}

bool
octopus_steer_wire_item(const struct octopus_steer *s)
{
	return s->wire_item;
}

enum octopus_steer_meta_write
octopus_steer_meta_how(const struct octopus_steer *s)
{
	return s->meta_how;
}

uint32_t
octopus_steer_class_group(const struct octopus_steer *s)
{
	return s->base;
}

int
octopus_steer_class_probe(uint16_t proxy, bool by_create, enum octopus_steer_meta_write *how,
		uint32_t *group, char *why, size_t why_len)
{
	struct rte_flow_attr attr = { .transfer = 1 };
	struct rte_flow_item items[2] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_action_jump jump;
	struct rte_flow_action actions[3] = {
		[1] = { .type = RTE_FLOW_ACTION_TYPE_JUMP, .conf = &jump },
		[2] = { .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_action_modify_field mod;
	struct rte_flow_action_set_meta set;
	struct rte_flow_error err[2];
	int ret[2], i;
	uint32_t g;

	/* the root table first; a non-zero group only where it refuses both */
	for (g = 0; g < 2; g++) {
		attr.group = g;
		jump.group = OCTO_STEER_HOME_GROUP + g;
		for (i = 0; i < 2; i++) {
			octopus_steer_meta_action((enum octopus_steer_meta_write)i, 0,
				&actions[0], &set, &mod);
			ret[i] = octopus_steer_probe(proxy, &attr, items, actions, by_create,
				&err[i]);
			if (ret[i] == 0 && g != 0)
				ret[i] = root_rule(proxy, g, false, NULL, by_create, &err[i]);
			if (ret[i] == 0) {
				*how = (enum octopus_steer_meta_write)i;
				*group = g;
				return 0;
			}
			if (!octopus_steer_unsupported(ret[i])) {
				snprintf(why, why_len, "port %u: probing a META write failed: %s",
					proxy, err_msg(&err[i], ret[i]));
				return ret[i];
			}
		}
		if (g == 0)
			snprintf(why, why_len,
				"port %u writes no META in transfer group 0: MODIFY_FIELD(META): %s; SET_META: %s",
				proxy, err_msg(&err[1], ret[1]), err_msg(&err[0], ret[0]));
	}
	return -ENOTSUP;
}
