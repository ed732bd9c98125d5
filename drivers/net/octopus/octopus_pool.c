/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * rx_pool=local: per socket, an mbuf pool that mirrors the app's pool
 * (data room, private size) and lives on that socket, so a member's Rx DMA
 * always writes socket-local memory, whichever socket the queue's poller
 * is on and wherever the queue moves later.
 */

#include <stdio.h>

#include <rte_lcore.h>
#include <rte_mbuf.h>

#include "octopus_internal.h"

/*
 * The socket to allocate on for memory meant to live on @p socket: itself
 * when EAL knows it, else any (a device that reports a node EAL has no
 * lcore on). Also tells whether EAL knows a node (socket_of= checks).
 */
int
octopus_alloc_socket(int socket)
{
	unsigned int i;

	for (i = 0; i < rte_socket_count(); i++)
		if (rte_socket_id_by_idx(i) == socket)
			return socket;
	return SOCKET_ID_ANY;
}

/*
 * Pool for Rx on @p socket mirroring @p app_mp, holding at least
 * @p nb_mbufs. Reuses a pool made earlier when it fits.
 * @return the pool, or NULL (rte_errno set).
 */
struct rte_mempool *
octopus_pool_get(struct octopus_priv *p, int socket, struct rte_mempool *app_mp,
		uint32_t nb_mbufs)
{
	uint16_t data_room = rte_pktmbuf_data_room_size(app_mp);
	uint16_t priv_size = rte_pktmbuf_priv_size(app_mp);
	char name[RTE_MEMPOOL_NAMESIZE];
	struct rte_mempool *mp;
	uint16_t i;

	for (i = 0; i < p->nb_pools; i++) {
		mp = p->pools[i].mp;
		if (p->pools[i].socket == socket &&
				rte_pktmbuf_data_room_size(mp) == data_room &&
				rte_pktmbuf_priv_size(mp) == priv_size &&
				mp->size >= nb_mbufs)
			return mp;
	}
	if (p->nb_pools >= RTE_DIM(p->pools)) {
		rte_errno = ENOSPC;
		return NULL;
	}
	snprintf(name, sizeof(name), "octo%u_s%d_%u", p->port_id, socket, p->nb_pools);
	mp = rte_pktmbuf_pool_create(name, nb_mbufs,
		RTE_MIN((uint32_t)RTE_MEMPOOL_CACHE_MAX_SIZE, nb_mbufs / 8),
		priv_size, data_room, octopus_alloc_socket(socket));
	if (mp == NULL) {
		OCTO_LOG(ERR, "port %u: cannot create Rx pool %s (%u mbufs) on socket %d: %s",
			p->port_id, name, nb_mbufs, socket, rte_strerror(rte_errno));
		return NULL;
	}
	OCTO_LOG(INFO, "port %u: Rx pool %s: %u mbufs of %u bytes on socket %d",
		p->port_id, name, nb_mbufs, data_room, socket);
	p->pools[p->nb_pools].mp = mp;
	p->pools[p->nb_pools].socket = socket;
	p->nb_pools++;
	return mp;
}

/* Free every local pool; the members' queues must be released before. */
void
octopus_pools_free(struct octopus_priv *p)
{
	uint16_t i;

	for (i = 0; i < p->nb_pools; i++)
		rte_mempool_free(p->pools[i].mp);
	p->nb_pools = 0;
}
