/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Dialects: what a real NIC refuses that the model itself would take.
 *
 * The model implements one generic rule vocabulary.  A real NIC accepts
 * less, and an application (net_octopus) must find its rule shapes by
 * asking.  Under an mlx5 dialect this file refuses what DPDK's mlx5 PMD
 * refuses, with the cause in mlx5's terms.  rte_flow_validate and
 * rte_flow_create both go through prepare() in octonic_esw_rules.c; under
 * mlx5-hws validate checks the attributes and the pattern only
 * (octonic_esw_dialect_check_pattern).  Templates and tables are checked
 * here at their creation.  The steering and xmeta each dialect follows,
 * why group 0 is a root table, and each refusal with the DPDK release and
 * source file it comes from are in octonic.rst "Dialects".
 *
 * Checks run before the pattern and actions are parsed, so their message
 * is the one the caller sees; what they let through still meets the
 * model's own checks.
 */

#include <errno.h>

#include <rte_ip.h>

#include "octonic_esw_internal.h"

void
octonic_eswitch_dialect_set(struct octonic_eswitch *sw,
		enum octonic_dialect dialect, uint8_t xmeta)
{
	sw->dialect = dialect;
	sw->xmeta = xmeta;
}

void
octonic_eswitch_mlx5_model_set(struct octonic_eswitch *sw, uint16_t mlx5_dpdk,
		uint8_t fdb_mark)
{
	sw->mlx5_dpdk = mlx5_dpdk;
	sw->fdb_mark = fdb_mark;
}

void
octonic_eswitch_uplinks_set(struct octonic_eswitch *sw, int on)
{
	sw->uplinks = on != 0;
}

const char *
octonic_esw_dialect_name(const struct octonic_eswitch *sw)
{
	switch (sw->dialect) {
	case OCTONIC_DIALECT_MLX5_SWS:
		return "mlx5-sws";
	case OCTONIC_DIALECT_MLX5_HWS:
		return "mlx5-hws";
	default:
		return "generic";
	}
}

#define REFUSE(type, cause, ...) octonic_esw_error(error, ENOTSUP, type, cause, __VA_ARGS__)

int
octonic_esw_dialect_templates(const struct octonic_eswitch *sw, const char *op,
		struct rte_flow_error *error)
{
	/* mlx5's template ops check the steering mode first (mlx5_flow.c,
	 * mlx5_flow_info_get and the rest): software steering has none
	 */
	if (sw->dialect == OCTONIC_DIALECT_MLX5_SWS)
		return REFUSE(RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"%s: %s with incorrect steering mode (the template API needs hardware steering)",
			octonic_esw_dialect_name(sw), op);
	return 0;
}

/*
 * mlx5 has no SCTP item (no case in either validator: the default refuses
 * it), and wants the IP item before ICMP/ICMP6 except under hardware
 * steering from 25.11 (mlx5_flow_validate_item_icmp, _icmp6: "IPv4 is
 * mandatory to filter on ICMP" when !mlx5_hws_active()).  @p l3 is the
 * IP item seen before (RTE_FLOW_ITEM_TYPE_IPV4/IPV6, END: none).
 */
static int
check_l4_item(const struct octonic_eswitch *sw, const struct rte_flow_item *it,
		enum rte_flow_item_type l3, struct rte_flow_error *error)
{
	const char *d = octonic_esw_dialect_name(sw);
	int hws_2511 = sw->dialect == OCTONIC_DIALECT_MLX5_HWS &&
		sw->mlx5_dpdk >= OCTONIC_MLX5_DPDK_25_11;

	switch (it->type) {
	case RTE_FLOW_ITEM_TYPE_SCTP:
		return REFUSE(RTE_FLOW_ERROR_TYPE_ITEM, it,
			"%s: SCTP item not supported", d);
	case RTE_FLOW_ITEM_TYPE_ICMP:
		if (!hws_2511 && l3 != RTE_FLOW_ITEM_TYPE_IPV4)
			return REFUSE(RTE_FLOW_ERROR_TYPE_ITEM, it,
				"%s: IPv4 is mandatory to filter on ICMP", d);
		return 0;
	case RTE_FLOW_ITEM_TYPE_ICMP6:
		if (!hws_2511 && l3 != RTE_FLOW_ITEM_TYPE_IPV6)
			return REFUSE(RTE_FLOW_ERROR_TYPE_ITEM, it,
				"%s: IPv6 is mandatory to filter on ICMP6", d);
		return 0;
	default:
		return 0;
	}
}

/*
 * IPv4 fragment_offset as mlx5 takes it, software and hardware steering
 * alike (25.11: both validate through mlx5_flow_dv_validate_item_ipv4,
 * mlx5_flow_dv.c:3024; 22.11's software steering the same): a zero value
 * under any mask; else the whole MF and offset in the mask, and only the
 * range 1..0x3fff ("a fragment").  22.11's hardware steering takes more
 * without checking (a spec under mask 0x3fff matches "any fragment",
 * whatever its value), which the model does not follow: refused the same.
 */
static int
check_ipv4_frag(const struct octonic_eswitch *sw, const struct rte_flow_item *it,
		struct rte_flow_error *error)
{
	const uint16_t full = RTE_IPV4_HDR_MF_FLAG | RTE_IPV4_HDR_OFFSET_MASK;
	const struct rte_flow_item_ipv4 *s = it->spec, *l = it->last, *k = it->mask;
	const char *d = octonic_esw_dialect_name(sw);
	uint16_t m, v, last;

	if (s == NULL || k == NULL)
		return 0;
	m = rte_be_to_cpu_16(k->hdr.fragment_offset);
	v = rte_be_to_cpu_16(s->hdr.fragment_offset) & m;
	if (v == 0)
		return 0;
	if ((m & full) != full)
		return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ITEM_MASK, it,
			"%s: must use full mask for fragment_offset", d);
	if (v == RTE_IPV4_HDR_MF_FLAG)
		return REFUSE(RTE_FLOW_ERROR_TYPE_ITEM, it,
			"%s: match on first fragment not supported", d);
	if (l == NULL)
		return REFUSE(RTE_FLOW_ERROR_TYPE_ITEM, it,
			"%s: fragment_offset: specified value not supported", d);
	last = rte_be_to_cpu_16(l->hdr.fragment_offset) & m;
	if (v == RTE_IPV4_HDR_MF_FLAG + 1 && last == full)
		return REFUSE(RTE_FLOW_ERROR_TYPE_ITEM_LAST, l,
			"%s: match on following fragments not supported", d);
	if (v == 1 && last == RTE_IPV4_HDR_OFFSET_MASK)
		return REFUSE(RTE_FLOW_ERROR_TYPE_ITEM_LAST, l,
			"%s: match on last fragment not supported", d);
	if (v != 1 || last != full)
		return REFUSE(RTE_FLOW_ERROR_TYPE_ITEM_LAST, l,
			"%s: fragment_offset: specified range not supported", d);
	return 0;
}

static int
check_item(const struct octonic_eswitch *sw, const struct rte_flow_attr *attr,
		const struct rte_flow_item *it, enum rte_flow_item_type l3,
		struct rte_flow_error *error)
{
	const char *d = octonic_esw_dialect_name(sw);
	int sws = sw->dialect == OCTONIC_DIALECT_MLX5_SWS;

	if (it->type == RTE_FLOW_ITEM_TYPE_IPV4)
		return check_ipv4_frag(sw, it, error);
	if (it->type != RTE_FLOW_ITEM_TYPE_META)
		return check_l4_item(sw, it, l3, error);
	if (sws && sw->xmeta == 0)
		return REFUSE(RTE_FLOW_ERROR_TYPE_ITEM, it,
			"%s: META match in %s rules needs extended metadata (xmeta=1..3; xmeta=0 is legacy)",
			d, attr->transfer ? "transfer" : "ingress");
	if (sws && attr->transfer && attr->group == 0)
		return REFUSE(RTE_FLOW_ERROR_TYPE_ITEM, it,
			"%s: META match in transfer group 0 (the root table): use a non-zero group",
			d);
	if (!sws && attr->ingress && sw->xmeta != 4)
		return REFUSE(RTE_FLOW_ERROR_TYPE_ITEM, it,
			"%s: META match in ingress rules needs xmeta=4 (META copied from the e-switch to the PF)",
			d);
	return 0;
}

/* MARK or FLAG @p a in a transfer rule */
static int
check_transfer_tag(const struct octonic_eswitch *sw,
		const struct rte_flow_action *a, unsigned int where,
		struct rte_flow_error *error)
{
	const char *d = octonic_esw_dialect_name(sw);
	const char *name = a->type == RTE_FLOW_ACTION_TYPE_MARK ? "MARK" : "FLAG";
	int sws = sw->dialect == OCTONIC_DIALECT_MLX5_SWS;
	int hws_2511 = !sws && sw->mlx5_dpdk >= OCTONIC_MLX5_DPDK_25_11;

	if (sws && sw->xmeta == 0)
		return REFUSE(RTE_FLOW_ERROR_TYPE_ACTION, a,
			"%s: %s in transfer rules needs extended metadata (xmeta=1..3; xmeta=0 is legacy)",
			d, name);
	if (hws_2511 && !sw->fdb_mark)
		return REFUSE(RTE_FLOW_ERROR_TYPE_ACTION, a,
			"%s: %s in transfer rules needs the NIC's fdb_rx_set_flow_tag_stc capability (fdb_mark=1)",
			d, name);
	/* mlx5.rst: only on template tables specialised for the wire's
	 * frames (a unified FDB has the tag in its Rx part alone,
	 * hws/mlx5dr_action.c, mlx5dr_action_create_tag)
	 */
	if (hws_2511 && !(where & SW_CHK_WIRE_ORIG))
		return REFUSE(RTE_FLOW_ERROR_TYPE_ACTION, a,
			"%s: %s in transfer rules only in template tables specialised for the wire's frames (RTE_FLOW_TABLE_SPECIALIZE_TRANSFER_WIRE_ORIG)",
			d, name);
	if (!sws && !hws_2511)
		return REFUSE(RTE_FLOW_ERROR_TYPE_ACTION, a,
			"%s: %s is not a transfer action (ingress only)", d, name);
	return 0;
}

static int
check_action(const struct octonic_eswitch *sw, const struct rte_flow_attr *attr,
		const struct rte_flow_action *a, unsigned int where,
		struct rte_flow_error *error)
{
	const struct rte_flow_action_ethdev *e;
	const char *d = octonic_esw_dialect_name(sw);
	int sws = sw->dialect == OCTONIC_DIALECT_MLX5_SWS;
	int hws_2511 = !sws && sw->mlx5_dpdk >= OCTONIC_MLX5_DPDK_25_11;
	const char *name;

	switch (a->type) {
	case RTE_FLOW_ACTION_TYPE_QUEUE:
	case RTE_FLOW_ACTION_TYPE_RSS:
		name = a->type == RTE_FLOW_ACTION_TYPE_QUEUE ? "QUEUE" : "RSS";
		if (attr->transfer)
			return REFUSE(RTE_FLOW_ERROR_TYPE_ACTION, a,
				"%s: %s is not a transfer action (ingress only): send to the PF with REPRESENTED_PORT",
				d, name);
		return 0;
	case RTE_FLOW_ACTION_TYPE_MARK:
	case RTE_FLOW_ACTION_TYPE_FLAG:
		return attr->transfer ? check_transfer_tag(sw, a, where, error) : 0;
	case RTE_FLOW_ACTION_TYPE_JUMP:
		/* the target is translated as the rule's group (F3) */
		if (!sws && attr->transfer && a->conf != NULL &&
				((const struct rte_flow_action_jump *)a->conf)->group ==
				UINT32_MAX) {
			return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
				"%s: group index not supported (transfer group %u is hardware group %u + 1)",
				d, UINT32_MAX, UINT32_MAX);
		}
		return 0;
	case RTE_FLOW_ACTION_TYPE_PORT_ID:
		if (hws_2511)
			return REFUSE(RTE_FLOW_ERROR_TYPE_ACTION, a,
				"%s: PORT_ID is not supported: use REPRESENTED_PORT",
				d);
		return 0;
	case RTE_FLOW_ACTION_TYPE_SET_META:
		/* rte_flow_create's first step under hardware steering,
		 * mlx5_flow_hw_action_flags_get, knows no SET_META: EINVAL
		 * "invalid flow action" (mlx5 25.11 then carries on without
		 * it, what the rule does is not determined: refused here)
		 */
		if (!sws)
			return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION, a,
				"%s: invalid flow action: SET_META has no hardware-steering implementation, write META with MODIFY_FIELD",
				d);
		if (attr->transfer && sw->xmeta == 0)
			return REFUSE(RTE_FLOW_ERROR_TYPE_ACTION, a,
				"%s: SET_META in transfer rules needs extended metadata (xmeta=1..3; xmeta=0 is legacy)",
				d);
		return 0;
	case RTE_FLOW_ACTION_TYPE_MODIFY_FIELD:
		if (sws && attr->group == 0)
			return REFUSE(RTE_FLOW_ERROR_TYPE_ACTION, a,
				"%s: MODIFY_FIELD is not supported in group 0 (the root table): use a non-zero group",
				d);
		if (sws && attr->transfer && sw->xmeta == 0)
			return REFUSE(RTE_FLOW_ERROR_TYPE_ACTION, a,
				"%s: META in transfer rules needs extended metadata (xmeta=1..3; xmeta=0 is legacy)",
				d);
		return 0;
	case RTE_FLOW_ACTION_TYPE_PORT_REPRESENTOR:
		if (!attr->transfer)
			return 0;
		if (sws)
			return REFUSE(RTE_FLOW_ERROR_TYPE_ACTION, a,
				"%s: PORT_REPRESENTOR is not supported: use REPRESENTED_PORT",
				d);
		e = a->conf;
		if (e != NULL && e->port_id != SW_ESW_MANAGER_PORT)
			return REFUSE(RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
				"%s: PORT_REPRESENTOR only to the e-switch manager (port_id 0xffff), not port %u",
				d, e->port_id);
		return 0;
	default:
		return 0;
	}
}

int
octonic_esw_dialect_check_pattern(const struct octonic_eswitch *sw,
		const struct rte_flow_attr *attr, const struct rte_flow_item pattern[],
		struct rte_flow_error *error)
{
	enum rte_flow_item_type l3 = RTE_FLOW_ITEM_TYPE_END;
	const struct rte_flow_item *it;
	int ret;

	if (sw->dialect == OCTONIC_DIALECT_GENERIC)
		return 0;
	for (it = pattern; it != NULL && it->type != RTE_FLOW_ITEM_TYPE_END; it++) {
		ret = check_item(sw, attr, it, l3, error);
		if (ret != 0)
			return ret;
		if (it->type == RTE_FLOW_ITEM_TYPE_IPV4 ||
				it->type == RTE_FLOW_ITEM_TYPE_IPV6)
			l3 = it->type;
	}
	return 0;
}

int
octonic_esw_dialect_check_actions(const struct octonic_eswitch *sw,
		const struct rte_flow_attr *attr,
		const struct rte_flow_action actions[], unsigned int where,
		struct rte_flow_error *error)
{
	const struct rte_flow_action *a;
	int ret;

	if (sw->dialect == OCTONIC_DIALECT_GENERIC)
		return 0;
	for (a = actions; a != NULL && a->type != RTE_FLOW_ACTION_TYPE_END; a++) {
		ret = check_action(sw, attr, a, where, error);
		if (ret != 0)
			return ret;
	}
	return 0;
}

int
octonic_esw_dialect_check(const struct octonic_eswitch *sw,
		const struct rte_flow_attr *attr, const struct rte_flow_item pattern[],
		const struct rte_flow_action actions[], unsigned int where,
		struct rte_flow_error *error)
{
	int ret = octonic_esw_dialect_check_pattern(sw, attr, pattern, error);

	return ret != 0 ? ret :
		octonic_esw_dialect_check_actions(sw, attr, actions, where, error);
}

/*
 * MODIFY_FIELD in an actions template under mlx5-hws: its mask must name
 * the same operation and fields, and fix the destination's level and
 * offset and the width (mlx5_flow_hw.c,
 * flow_hw_validate_action_modify_field; DPDK 22.11 reads a NULL mask
 * without checking it, refused here as 25.11 does).  What the value mask
 * leaves open each rule gives (octonic_esw_template.c, action_fixed).
 */
static int
check_modify_mask(const struct octonic_eswitch *sw,
		const struct rte_flow_action *a, const struct rte_flow_action *m,
		struct rte_flow_error *error)
{
	const struct rte_flow_action_modify_field *ac = a->conf, *mc = m->conf;
	/* 22.11's level is 32 bits wide, 25.11's 8 */
	const uint32_t full_level = (typeof(mc->dst.level))UINT32_MAX;
	const char *d = octonic_esw_dialect_name(sw);
	const char *why = NULL;

	if (ac == NULL)
		return 0;	/* the parse refuses it */
	if (mc == NULL)
		why = "modify_field mask conf is missing";
	else if (ac->operation != mc->operation)
		why = "modify_field operation mask and template are not equal";
	else if (ac->dst.field != mc->dst.field)
		why = "destination field mask and template are not equal";
	else if (mc->dst.level != full_level)
		why = "destination encapsulation level must be fully masked";
	else if (mc->dst.offset != UINT32_MAX)
		why = "destination offset level must be fully masked";
	else if (ac->src.field != mc->src.field)
		why = "destination field mask and template are not equal";
	else if (mc->width != UINT32_MAX)
		why = "modify_field width field must be fully masked";
	if (why == NULL)
		return 0;
	return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION, a, "%s: %s", d, why);
}

int
octonic_esw_dialect_check_actions_template(const struct octonic_eswitch *sw,
		const struct rte_flow_action actions[],
		const struct rte_flow_action masks[], struct rte_flow_error *error)
{
	const char *d = octonic_esw_dialect_name(sw);
	uint32_t i;
	int ret;

	if (sw->dialect != OCTONIC_DIALECT_MLX5_HWS)
		return 0;
	for (i = 0; actions[i].type != RTE_FLOW_ACTION_TYPE_END; i++) {
		switch (actions[i].type) {
		case RTE_FLOW_ACTION_TYPE_SET_META:
			/* mlx5_flow_hw.c, mlx5_flow_hw_actions_validate */
			return octonic_esw_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION,
				&actions[i],
				"%s: action not supported in template API: SET_META (write META with MODIFY_FIELD)",
				d);
		case RTE_FLOW_ACTION_TYPE_MODIFY_FIELD:
			ret = check_modify_mask(sw, &actions[i], &masks[i], error);
			if (ret != 0)
				return ret;
			break;
		default:
			break;
		}
	}
	return 0;
}
