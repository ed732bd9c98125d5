/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * DPDK's aggregated-port API (ethdev, 23.03): an application written for a
 * port that aggregates several (mlx5 reports a bonded multi-PF NIC so) asks
 * how many there are and may send a Tx queue through one of them.  Here the
 * aggregated ports are the members, in devargs order: affinity n is member
 * n - 1, 0 is none.
 *
 * A pinned Tx queue is homed on its member from the next start, whatever
 * lcore sends through it, and stays there: migration=auto does not move it
 * (its bursts from another socket still count as foreign polls) and
 * neither does rte_pmd_octopus_queue_migrate() (which moves the queue's Rx
 * side alone).  Only a failover takes it off its member, while that member
 * is out of service, and brings it back.  Affinity 0 gives the queue back
 * to the port: homed as its setup placed it, moved by migration=auto.
 * ethdev calls the mapping with the port configured and stopped, after the
 * Tx queue's setup; a new setup of the queue forgets it (as mlx5 does).
 */

#include <errno.h>

#include "octopus_internal.h"

int
octopus_count_aggr_ports(struct rte_eth_dev *dev)
{
	return octo_priv(dev)->nb_members;
}

int
octopus_map_aggr_tx_affinity(struct rte_eth_dev *dev, uint16_t qid, uint8_t affinity)
{
	struct octopus_priv *p = octo_priv(dev);
	struct octopus_queue *q = octopus_queue_get(p, qid, 1);
	int home;

	if (q == NULL) {
		OCTO_LOG(ERR, "port %u: Tx queue %u is not set up: no affinity to map",
			p->port_id, qid);
		return -EINVAL;
	}
	if (affinity > p->nb_members) {
		OCTO_LOG(ERR, "port %u: Tx queue %u: affinity %u, the port aggregates %u members",
			p->port_id, qid, affinity, p->nb_members);
		return -EINVAL;
	}
	if (affinity != 0 && p->members[affinity - 1].state < OCTO_MEMBER_CONFIGURED) {
		OCTO_LOG(ERR, "port %u: Tx queue %u: affinity %u names member %s, which has no queues (not found at configure)",
			p->port_id, qid, affinity, p->members[affinity - 1].name);
		return -ENODEV;
	}
	q->tx_affinity = affinity;
	q->mig.displaced_from = 0;
	home = affinity != 0 ? affinity - 1 : octopus_member_by_socket(p, q->setup_socket);
	q->route = home >= 0 ? OCTO_ROUTE(home, home, OCTO_ROUTE_STEADY) :
		OCTO_ROUTE(OCTOPUS_NO_HOME, OCTOPUS_NO_HOME, OCTO_ROUTE_STEADY);
	if (affinity != 0)
		OCTO_LOG(INFO, "port %u: Tx queue %u pinned to member %u (%s)",
			p->port_id, qid, affinity - 1, p->members[affinity - 1].name);
	else
		OCTO_LOG(INFO, "port %u: Tx queue %u: no affinity, it follows its poller",
			p->port_id, qid);
	return 0;
}
