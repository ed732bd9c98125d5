/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/* The public API of rte_pmd_octopus.h: read-only views of a port. */

#include <errno.h>
#include <string.h>

#include "rte_pmd_octopus.h"
#include "octopus_internal.h"

static_assert(RTE_PMD_OCTOPUS_MAX_MEMBERS == OCTOPUS_MAX_MEMBERS,
	"public member count differs from the driver's");

static struct octopus_priv *
priv_of(uint16_t port_id)
{
	if (!octopus_is_octopus(port_id))
		return NULL;
	return rte_eth_devices[port_id].data->dev_private;
}

int
rte_pmd_octopus_is_octopus(uint16_t port_id)
{
	return octopus_is_octopus(port_id) ? 1 : 0;
}

int
rte_pmd_octopus_members_get(uint16_t port_id, struct rte_pmd_octopus_member *members,
		uint16_t size)
{
	struct octopus_priv *p = priv_of(port_id);
	struct octopus_member *m;
	uint16_t i, n = 0;

	if (p == NULL)
		return -ENODEV;
	OCTO_FOREACH_MEMBER_STATE(p, i, m, OCTO_MEMBER_OWNED) {
		if (members != NULL && n < size) {
			members[n].port_id = m->port_id;
			members[n].socket = m->socket;
		}
		n++;
	}
	return n;
}

static struct octopus_queue *
queue_of(struct octopus_priv *p, uint16_t port_id, uint16_t queue_id, int tx)
{
	const struct rte_eth_dev_data *d = rte_eth_devices[port_id].data;

	if (queue_id >= OCTOPUS_MAX_QUEUES ||
			queue_id >= (tx ? d->nb_tx_queues : d->nb_rx_queues))
		return NULL;
	return tx ? p->txq[queue_id] : p->rxq[queue_id];
}

int
rte_pmd_octopus_queue_info_get(uint16_t port_id, uint16_t queue_id, int tx,
		struct rte_pmd_octopus_queue_info *info)
{
	struct octopus_priv *p = priv_of(port_id);
	struct octopus_queue *q;
	unsigned int home;

	if (p == NULL)
		return -ENODEV;
	q = queue_of(p, port_id, queue_id, tx);
	if (q == NULL || info == NULL)
		return -EINVAL;
	memset(info, 0, sizeof(*info));
	home = OCTO_ROUTE_HOME(__atomic_load_n(&q->route, __ATOMIC_RELAXED));
	info->has_home = home != OCTOPUS_NO_HOME;
	if (home >= p->nb_members)
		home = 0;
	info->home_member = home;
	info->home_port = p->members[home].port_id;
	info->home_socket = p->members[home].socket;
	info->poller_lcore = __atomic_load_n(&q->poller_lcore, __ATOMIC_ACQUIRE);
	info->poller_socket = info->poller_lcore >= 0 ? q->poller_socket : -1;
	info->steered = q->steered;
	return 0;
}

int
rte_pmd_octopus_locality_get(uint16_t port_id, uint16_t queue_id, int tx,
		struct rte_pmd_octopus_locality *loc)
{
	struct octopus_priv *p = priv_of(port_id);
	struct octopus_queue *q;
	uint16_t i;

	if (p == NULL)
		return -ENODEV;
	q = queue_of(p, port_id, queue_id, tx);
	if (q == NULL || loc == NULL)
		return -EINVAL;
	memset(loc, 0, sizeof(*loc));
	loc->local_pkts = q->cnt.pkts_local;
	loc->remote_pkts = q->cnt.pkts_remote;
	loc->polls = q->cnt.polls;
	loc->foreign_polls = q->cnt.foreign_polls;
	for (i = 0; i < OCTOPUS_MAX_MEMBERS; i++)
		loc->member_pkts[i] = q->cnt.member_pkts[i];
	return 0;
}
