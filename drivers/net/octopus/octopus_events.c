/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Members' events: a member's link change or removal changes the virtual
 * port's aggregate link (up while any member is up); the application gets
 * an LSC event on the virtual port when that aggregate changes and it
 * asked for LSC interrupts.
 */

#include "octopus_internal.h"

static int
member_event(uint16_t member_port, enum rte_eth_event_type type, void *arg,
		void *ret_param)
{
	struct rte_eth_dev *dev = arg;
	struct octopus_priv *p = octo_priv(dev);
	struct rte_eth_link before, after;

	RTE_SET_USED(ret_param);
	if (type == RTE_ETH_EVENT_INTR_RMV)
		OCTO_LOG(WARNING, "port %u: member port %u removed; its queues' traffic is lost until it returns",
			p->port_id, member_port);
	rte_eth_linkstatus_get(dev, &before);
	octopus_link_update(dev, 0);
	rte_eth_linkstatus_get(dev, &after);
	if (before.link_status != after.link_status &&
			dev->data->dev_conf.intr_conf.lsc)
		rte_eth_dev_callback_process(dev, RTE_ETH_EVENT_INTR_LSC, NULL);
	return 0;
}

/* Listen to member @p m (owned now). */
void
octopus_events_register(struct rte_eth_dev *dev, struct octopus_member *m)
{
	rte_eth_dev_callback_register(m->port_id, RTE_ETH_EVENT_INTR_LSC,
		member_event, dev);
	rte_eth_dev_callback_register(m->port_id, RTE_ETH_EVENT_INTR_RMV,
		member_event, dev);
}

void
octopus_events_unregister(struct rte_eth_dev *dev, struct octopus_member *m)
{
	rte_eth_dev_callback_unregister(m->port_id, RTE_ETH_EVENT_INTR_LSC,
		member_event, dev);
	rte_eth_dev_callback_unregister(m->port_id, RTE_ETH_EVENT_INTR_RMV,
		member_event, dev);
}

/* Whether member @p port can report link changes by interrupt. */
bool
octopus_member_has_lsc(uint16_t port)
{
	return (rte_eth_devices[port].data->dev_flags & RTE_ETH_DEV_INTR_LSC) != 0;
}
