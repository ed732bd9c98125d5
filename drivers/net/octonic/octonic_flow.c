/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/* rte_flow_ops of an octonic PF: resolve the port to (e-switch, PF) and
 * hand over to the e-switch, which does all the work.
 */

#include <errno.h>

#include <rte_errno.h>
#include <ethdev_driver.h>
#include <rte_flow_driver.h>

#include "octonic_esw_template.h"
#include "octonic_internal.h"

static struct octonic_eswitch *
dev_sw(struct rte_eth_dev *dev, uint16_t *pf, struct rte_flow_error *error)
{
	struct octonic_eswitch *sw = octonic_dev_eswitch(dev, pf);

	if (sw == NULL)
		rte_flow_error_set(error, ENODEV, RTE_FLOW_ERROR_TYPE_UNSPECIFIED,
			NULL, "not an octonic PF");
	return sw;
}

/*
 * An op that only resolves the port: flow_<op>(dev, ..., error) hands its
 * arguments but dev over to octonic_eswitch_<esw_op>(sw, pf, ...), and
 * returns @p fail (ENODEV in error) for a port that is not an octonic PF.
 */
#define FLOW_OP(ret_t, op, params, fail, esw_op, ...) \
static ret_t \
flow_##op params \
{ \
	uint16_t pf; \
	struct octonic_eswitch *sw = dev_sw(dev, &pf, error); \
\
	return sw == NULL ? fail : octonic_eswitch_##esw_op(sw, pf, __VA_ARGS__); \
}

FLOW_OP(int, validate,
	(struct rte_eth_dev *dev, const struct rte_flow_attr *attr,
		const struct rte_flow_item pattern[],
		const struct rte_flow_action actions[], struct rte_flow_error *error),
	-ENODEV, flow_validate, attr, pattern, actions, error)

static struct rte_flow *
flow_create(struct rte_eth_dev *dev, const struct rte_flow_attr *attr,
		const struct rte_flow_item pattern[],
		const struct rte_flow_action actions[], struct rte_flow_error *error)
{
	uint16_t pf;
	struct octonic_eswitch *sw = dev_sw(dev, &pf, error);

	if (sw == NULL)
		return NULL;
	if (octonic_dialect_create_check(dev, error) != 0) {
		rte_errno = ENODEV;
		return NULL;
	}
	return octonic_eswitch_flow_create(sw, pf, attr, pattern, actions, error);
}

FLOW_OP(int, destroy,
	(struct rte_eth_dev *dev, struct rte_flow *flow,
		struct rte_flow_error *error),
	-ENODEV, flow_destroy, flow, error)

FLOW_OP(int, flush,
	(struct rte_eth_dev *dev, struct rte_flow_error *error),
	-ENODEV, flow_flush, error)

FLOW_OP(int, query,
	(struct rte_eth_dev *dev, struct rte_flow *flow,
		const struct rte_flow_action *action, void *data,
		struct rte_flow_error *error),
	-ENODEV, flow_query, flow, action, data, error)

FLOW_OP(int, isolate,
	(struct rte_eth_dev *dev, int set, struct rte_flow_error *error),
	-ENODEV, flow_isolate, set, error)

static int
flow_dev_dump(struct rte_eth_dev *dev, struct rte_flow *flow, FILE *file,
		struct rte_flow_error *error)
{
	uint16_t pf;
	struct octonic_eswitch *sw = dev_sw(dev, &pf, error);

	if (sw == NULL)
		return -ENODEV;
	/* The dump is per NIC: every rule, whichever is asked for. */
	RTE_SET_USED(flow);
	return octonic_eswitch_dump(sw, file);
}

/* Transfer rules of every PF go through PF0's port. */
static int
flow_pick_transfer_proxy(struct rte_eth_dev *dev, uint16_t *proxy_port_id,
		struct rte_flow_error *error)
{
	uint16_t pf;
	struct octonic_eswitch *sw = dev_sw(dev, &pf, error);

	if (sw == NULL)
		return -ENODEV;
	if (octonic_eswitch_transfer_proxy(sw, proxy_port_id) != 0)
		return rte_flow_error_set(error, ENODEV,
			RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"PF0's port, the transfer proxy, is not open (not probed yet, or closed)");
	return 0;
}

/* ---- template API (octonic_esw_template.c, octonic_esw_queue.c) ---- */

FLOW_OP(int, info_get,
	(struct rte_eth_dev *dev, struct rte_flow_port_info *port_info,
		struct rte_flow_queue_info *queue_info, struct rte_flow_error *error),
	-ENODEV, flow_info_get, port_info, queue_info, error)

/* The fast path: the PF's e-switch from the port's private data
 * (octonic_dev_eswitch); dev_sw's error is for a port that is no PF.
 */
FLOW_OP(struct rte_flow *, async_create,
	(struct rte_eth_dev *dev, uint32_t queue,
		const struct rte_flow_op_attr *op_attr,
		struct rte_flow_template_table *t, const struct rte_flow_item items[],
		uint8_t pt_idx, const struct rte_flow_action actions[], uint8_t at_idx,
		void *user_data, struct rte_flow_error *error),
	NULL, async_create, queue, op_attr, t, items, pt_idx, actions, at_idx,
	user_data, error)

FLOW_OP(int, async_destroy,
	(struct rte_eth_dev *dev, uint32_t queue,
		const struct rte_flow_op_attr *op_attr, struct rte_flow *flow,
		void *user_data, struct rte_flow_error *error),
	-ENODEV, async_destroy, queue, op_attr, flow, user_data, error)

/* 22.11 has no rte_flow_async_actions_update: unused there. */
FLOW_OP(__rte_unused int, async_actions_update,
	(struct rte_eth_dev *dev, uint32_t queue,
		const struct rte_flow_op_attr *op_attr, struct rte_flow *flow,
		const struct rte_flow_action actions[], uint8_t at_idx,
		void *user_data, struct rte_flow_error *error),
	-ENODEV, async_actions_update, queue, op_attr, flow, actions, at_idx,
	user_data, error)

FLOW_OP(int, push,
	(struct rte_eth_dev *dev, uint32_t queue, struct rte_flow_error *error),
	-ENODEV, push, queue, error)

FLOW_OP(int, pull,
	(struct rte_eth_dev *dev, uint32_t queue, struct rte_flow_op_result res[],
		uint16_t n_res, struct rte_flow_error *error),
	-ENODEV, pull, queue, res, n_res, error)

OCTO_DPDK_FLOW_FP_OPS_DEFINE(octonic_flow_fp_ops, flow_async_create,
	flow_async_destroy, flow_async_actions_update, flow_push, flow_pull)

static int
flow_configure(struct rte_eth_dev *dev, const struct rte_flow_port_attr *port_attr,
		uint16_t nb_queue, const struct rte_flow_queue_attr *queue_attr[],
		struct rte_flow_error *error)
{
	uint16_t pf;
	struct octonic_eswitch *sw = dev_sw(dev, &pf, error);
	int ret;

	if (sw == NULL)
		return -ENODEV;
	ret = octonic_eswitch_flow_configure(sw, pf, dev->data->dev_started != 0,
		port_attr, nb_queue, queue_attr, error);
	if (ret == 0)
		OCTO_DPDK_FLOW_FP_OPS_INSTALL(dev, octonic_flow_fp_ops);
	return ret;
}

FLOW_OP(struct rte_flow_pattern_template *, pattern_template_create,
	(struct rte_eth_dev *dev,
		const struct rte_flow_pattern_template_attr *attr,
		const struct rte_flow_item pattern[], struct rte_flow_error *error),
	NULL, pattern_template_create, attr, pattern, error)

FLOW_OP(int, pattern_template_destroy,
	(struct rte_eth_dev *dev,
		struct rte_flow_pattern_template *pt, struct rte_flow_error *error),
	-ENODEV, pattern_template_destroy, pt, error)

FLOW_OP(struct rte_flow_actions_template *, actions_template_create,
	(struct rte_eth_dev *dev,
		const struct rte_flow_actions_template_attr *attr,
		const struct rte_flow_action actions[],
		const struct rte_flow_action masks[], struct rte_flow_error *error),
	NULL, actions_template_create, attr, actions, masks, error)

FLOW_OP(int, actions_template_destroy,
	(struct rte_eth_dev *dev,
		struct rte_flow_actions_template *at, struct rte_flow_error *error),
	-ENODEV, actions_template_destroy, at, error)

FLOW_OP(struct rte_flow_template_table *, template_table_create,
	(struct rte_eth_dev *dev,
		const struct rte_flow_template_table_attr *attr,
		struct rte_flow_pattern_template *pts[], uint8_t nb_pt,
		struct rte_flow_actions_template *ats[], uint8_t nb_at,
		struct rte_flow_error *error),
	NULL, template_table_create, attr, pts, nb_pt, ats, nb_at, error)

FLOW_OP(int, template_table_destroy,
	(struct rte_eth_dev *dev,
		struct rte_flow_template_table *t, struct rte_flow_error *error),
	-ENODEV, template_table_destroy, t, error)

const struct rte_flow_ops octonic_flow_ops = {
	.validate = flow_validate,
	.create = flow_create,
	.destroy = flow_destroy,
	.flush = flow_flush,
	.query = flow_query,
	.isolate = flow_isolate,
	.dev_dump = flow_dev_dump,
	.pick_transfer_proxy = flow_pick_transfer_proxy,
	.info_get = flow_info_get,
	.configure = flow_configure,
	.pattern_template_create = flow_pattern_template_create,
	.pattern_template_destroy = flow_pattern_template_destroy,
	.actions_template_create = flow_actions_template_create,
	.actions_template_destroy = flow_actions_template_destroy,
	.template_table_create = flow_template_table_create,
	.template_table_destroy = flow_template_table_destroy,
	OCTO_DPDK_FLOW_FP_OPS_IN_OPS(flow_async_create, flow_async_destroy,
		flow_async_actions_update, flow_push, flow_pull)
};
