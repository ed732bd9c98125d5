/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Members' events, and the port's link that aggregates theirs. A member's
 * removal, reset request, release, or link loss while the port runs takes
 * it out of service, its link coming back returns it (octopus_failover.c).
 * The virtual port's link is up while any member's is; the application
 * gets an LSC event on the virtual port when that aggregate changes and it
 * asked for LSC interrupts, and RTE_ETH_EVENT_INTR_RESET on the virtual
 * port when a member asks for a reset (the port's reset resets its
 * members).
 *
 * Handlers run in the thread that raised the event (an interrupt thread,
 * or the one detaching the member: RTE_ETH_EVENT_DESTROY comes before the
 * port's memory is freed). ethdev keeps a released port's callbacks, and
 * its port id may be reused: the member is found by port id AND state.
 */

#include "octopus_internal.h"

static const enum rte_eth_event_type member_events[] = {
	RTE_ETH_EVENT_INTR_LSC,
	RTE_ETH_EVENT_INTR_RMV,
	RTE_ETH_EVENT_INTR_RESET,
	RTE_ETH_EVENT_DESTROY,
};

static int
member_of(const struct octopus_priv *p, uint16_t port)
{
	uint16_t i;

	for (i = 0; i < p->nb_members; i++)
		if (p->members[i].state >= OCTO_MEMBER_OWNED &&
		    p->members[i].port_id == port)
			return i;
	return -1;
}

static void
link_changed(struct octopus_priv *p, uint16_t m)
{
	struct rte_eth_dev *dev = &rte_eth_devices[p->port_id];
	struct rte_eth_link ml;

	if (!p->started || rte_eth_link_get_nowait(p->members[m].port_id, &ml) < 0)
		return;
	if (ml.link_status == RTE_ETH_LINK_DOWN)
		octopus_member_lost(dev, m, OCTO_LOSS_LINK);
	else
		octopus_member_back(dev, m);
}

static int
member_event(uint16_t member_port, enum rte_eth_event_type type, void *arg,
		void *ret_param)
{
	struct rte_eth_dev *dev = arg;
	struct octopus_priv *p;
	struct rte_eth_link before, after;
	bool reset = false;
	int m;

	RTE_SET_USED(ret_param);
	/* the virtual port may be gone itself (its callbacks on a released
	 * member could not be unregistered)
	 */
	if (!octopus_is_octopus(dev - rte_eth_devices))
		return 0;
	p = octo_priv(dev);
	m = member_of(p, member_port);
	if (m < 0)
		return 0;
	rte_eth_linkstatus_get(dev, &before);
	switch (type) {
	case RTE_ETH_EVENT_INTR_LSC:
		link_changed(p, m);
		break;
	case RTE_ETH_EVENT_INTR_RMV:
		octopus_member_lost(dev, m, OCTO_LOSS_REMOVED);
		break;
	case RTE_ETH_EVENT_INTR_RESET:
		reset = p->members[m].loss != OCTO_LOSS_RESET &&
			p->members[m].loss != OCTO_LOSS_RELEASED;
		octopus_member_lost(dev, m, OCTO_LOSS_RESET);
		break;
	case RTE_ETH_EVENT_DESTROY:
		octopus_member_lost(dev, m, OCTO_LOSS_RELEASED);
		break;
	default:
		return 0;
	}
	octopus_link_update(dev, 0);
	rte_eth_linkstatus_get(dev, &after);
	if (before.link_status != after.link_status &&
			dev->data->dev_conf.intr_conf.lsc)
		rte_eth_dev_callback_process(dev, RTE_ETH_EVENT_INTR_LSC, NULL);
	/* only a reset of the port brings the member back: the application
	 * hears it as from any PMD whose device needs one
	 */
	if (reset)
		rte_eth_dev_callback_process(dev, RTE_ETH_EVENT_INTR_RESET, NULL);
	return 0;
}

/* Listen to member @p m (owned now), or stop listening (!@p on). */
void
octopus_events_listen(struct rte_eth_dev *dev, struct octopus_member *m, bool on)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(member_events); i++) {
		if (on)
			rte_eth_dev_callback_register(m->port_id, member_events[i],
				member_event, dev);
		else
			rte_eth_dev_callback_unregister(m->port_id, member_events[i],
				member_event, dev);
	}
}

/* Whether member @p port can report link changes by interrupt. */
bool
octopus_member_has_lsc(uint16_t port)
{
	return (rte_eth_devices[port].data->dev_flags & RTE_ETH_DEV_INTR_LSC) != 0;
}

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
