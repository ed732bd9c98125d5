/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/* Which ethdev ports are the model's PFs, for the layers below the ethdev
 * glue (engine, flow ops, API, telemetry): a port is one when its dev_ops
 * are the glue's, which the glue hands down at load. The driver's log
 * type is registered here too, the bottom every file logs through.
 */

#include <stddef.h>

#include <ethdev_driver.h>

#include "octonic_internal.h"

RTE_LOG_REGISTER_DEFAULT(octonic_logtype, NOTICE);

/* The glue's ops in the primary and in a secondary process. */
static const struct eth_dev_ops *port_ops[2];

void
octonic_port_ops_set(const struct eth_dev_ops *primary,
		const struct eth_dev_ops *secondary)
{
	port_ops[0] = primary;
	port_ops[1] = secondary;
}

int
octonic_is_octonic(const struct rte_eth_dev *dev)
{
	return dev != NULL && dev->dev_ops != NULL &&
		(dev->dev_ops == port_ops[0] || dev->dev_ops == port_ops[1]);
}

struct octonic_eswitch *
octonic_dev_eswitch(const struct rte_eth_dev *dev, uint16_t *pf)
{
	const struct octonic_pf *p;

	if (!octonic_is_octonic(dev) || dev->data->dev_private == NULL)
		return NULL;
	p = dev->data->dev_private;
	if (pf != NULL)
		*pf = p->sw_pf;
	return p->dom->sw;
}
