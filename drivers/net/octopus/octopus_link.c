/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/* Link of the virtual port: the aggregate of its members' links. */

#include "octopus_internal.h"

/* The members share one wire: the port is up while any member is up (its
 * queues can still be served) and runs at the fastest member's speed.
 */
int
octopus_link_update(struct rte_eth_dev *dev, int wait)
{
	struct octopus_priv *p = octo_priv(dev);
	struct rte_eth_link link = { 0 }, ml;
	struct octopus_member *m;
	uint16_t i;

	link.link_duplex = RTE_ETH_LINK_FULL_DUPLEX;
	link.link_speed = RTE_ETH_SPEED_NUM_NONE;
	OCTO_FOREACH_MEMBER_STATE(p, i, m, OCTO_MEMBER_STARTED) {
		if ((wait ? rte_eth_link_get(m->port_id, &ml) :
				rte_eth_link_get_nowait(m->port_id, &ml)) < 0)
			continue;
		if (ml.link_status != RTE_ETH_LINK_UP)
			continue;
		link.link_status = RTE_ETH_LINK_UP;
		link.link_autoneg = ml.link_autoneg;
		if (ml.link_speed != RTE_ETH_SPEED_NUM_UNKNOWN &&
				ml.link_speed > link.link_speed)
			link.link_speed = ml.link_speed;
	}
	return rte_eth_linkstatus_set(dev, &link);
}

static int
octopus_set_link(struct rte_eth_dev *dev, int up)
{
	struct octopus_priv *p = octo_priv(dev);
	struct octopus_member *m;
	uint16_t i;
	int ret = 0, r;

	/* Best effort on every member: no rollback, a link that failed to
	 * change is reported by the aggregate link status.
	 */
	OCTO_FOREACH_MEMBER_STATE(p, i, m, OCTO_MEMBER_STARTED) {
		r = up ? rte_eth_dev_set_link_up(m->port_id) :
			rte_eth_dev_set_link_down(m->port_id);
		if (r < 0 && ret == 0)
			ret = r;
	}
	octopus_link_update(dev, 0);
	return ret;
}

int
octopus_set_link_up(struct rte_eth_dev *dev)
{
	return octopus_set_link(dev, 1);
}

int
octopus_set_link_down(struct rte_eth_dev *dev)
{
	return octopus_set_link(dev, 0);
}
