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

#include "octonic_eswitch.h"

static struct octonic_eswitch *
dev_sw(struct rte_eth_dev *dev, uint16_t *pf, struct rte_flow_error *error)
{
	struct octonic_eswitch *sw = octonic_dev_eswitch(dev, pf);

	if (sw == NULL)
		rte_flow_error_set(error, ENODEV, RTE_FLOW_ERROR_TYPE_UNSPECIFIED,
			NULL, "not an octonic PF");
	return sw;
}

static int
flow_validate(struct rte_eth_dev *dev, const struct rte_flow_attr *attr,
		const struct rte_flow_item pattern[],
		const struct rte_flow_action actions[], struct rte_flow_error *error)
{
	uint16_t pf;
	struct octonic_eswitch *sw = dev_sw(dev, &pf, error);

	if (sw == NULL)
		return -ENODEV;
	return octonic_eswitch_flow_validate(sw, pf, attr, pattern, actions, error);
}

static struct rte_flow *
flow_create(struct rte_eth_dev *dev, const struct rte_flow_attr *attr,
		const struct rte_flow_item pattern[],
		const struct rte_flow_action actions[], struct rte_flow_error *error)
{
	uint16_t pf;
	struct octonic_eswitch *sw = dev_sw(dev, &pf, error);

	if (sw == NULL)
		return NULL;
	return octonic_eswitch_flow_create(sw, pf, attr, pattern, actions, error);
}

static int
flow_destroy(struct rte_eth_dev *dev, struct rte_flow *flow,
		struct rte_flow_error *error)
{
	uint16_t pf;
	struct octonic_eswitch *sw = dev_sw(dev, &pf, error);

	if (sw == NULL)
		return -ENODEV;
	return octonic_eswitch_flow_destroy(sw, pf, flow, error);
}

static int
flow_flush(struct rte_eth_dev *dev, struct rte_flow_error *error)
{
	uint16_t pf;
	struct octonic_eswitch *sw = dev_sw(dev, &pf, error);

	if (sw == NULL)
		return -ENODEV;
	return octonic_eswitch_flow_flush(sw, pf, error);
}

static int
flow_query(struct rte_eth_dev *dev, struct rte_flow *flow,
		const struct rte_flow_action *action, void *data,
		struct rte_flow_error *error)
{
	uint16_t pf;
	struct octonic_eswitch *sw = dev_sw(dev, &pf, error);

	if (sw == NULL)
		return -ENODEV;
	return octonic_eswitch_flow_query(sw, pf, flow, action, data, error);
}

static int
flow_isolate(struct rte_eth_dev *dev, int set, struct rte_flow_error *error)
{
	uint16_t pf;
	struct octonic_eswitch *sw = dev_sw(dev, &pf, error);

	if (sw == NULL)
		return -ENODEV;
	return octonic_eswitch_flow_isolate(sw, pf, set, error);
}

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

const struct rte_flow_ops octonic_flow_ops = {
	.validate = flow_validate,
	.create = flow_create,
	.destroy = flow_destroy,
	.flush = flow_flush,
	.query = flow_query,
	.isolate = flow_isolate,
	.dev_dump = flow_dev_dump,
	.pick_transfer_proxy = flow_pick_transfer_proxy,
};
