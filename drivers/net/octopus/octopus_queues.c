/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/* Virtual queues: setup and release, backed by queue q on every member. */

#include <errno.h>

#include <rte_lcore.h>
#include <rte_malloc.h>

#include "octopus_internal.h"

/* The queue lives on its home's socket: its poller reads it every burst. */
static struct octopus_queue *
queue_alloc(struct rte_eth_dev *dev, uint16_t qid, unsigned int socket, bool tx)
{
	struct octopus_priv *p = octo_priv(dev);
	struct octopus_queue *q;
	int home = octopus_member_by_socket(p, (int)socket);
	int alloc_socket = home >= 0 ? (int)socket : p->members[0].socket;

	q = rte_zmalloc_socket("octopus_queue", sizeof(*q), RTE_CACHE_LINE_SIZE,
		octopus_alloc_socket(alloc_socket));
	if (q == NULL)
		return NULL;
	q->priv = p;
	q->vport = dev->data->port_id;
	q->qid = qid;
	q->is_tx = tx;
	q->nb_members = p->nb_members;
	q->poller_lcore = -1;
	q->poller_socket = -1;
	q->poller_key = -1;
	q->fast_route = OCTO_ROUTE_NONE;
	q->setup_socket = (int)socket;
	q->route = home >= 0 ? OCTO_ROUTE(home, home, OCTO_ROUTE_STEADY) :
		OCTO_ROUTE(OCTOPUS_NO_HOME, OCTOPUS_NO_HOME, OCTO_ROUTE_STEADY);
	return q;
}

/*
 * Every virtual queue q gets hardware queue q on EVERY member, on that
 * member's socket, so that moving q's home never needs a member stopped.
 */
int
octopus_rx_queue_setup(struct rte_eth_dev *dev, uint16_t qid, uint16_t nb_desc,
		unsigned int socket, const struct rte_eth_rxconf *conf,
		struct rte_mempool *mp)
{
	struct octopus_priv *p = octo_priv(dev);
	struct octopus_member *m;
	struct rte_mempool *pool;
	struct octopus_queue *q;
	uint32_t nb_mbufs;
	uint16_t i, nb_pools;
	int ret;

	if (octopus_mtu_fits(dev, dev->data->mtu, mp) != 0)
		return -EINVAL;
	q = queue_alloc(dev, qid, socket, false);
	if (q == NULL)
		return -ENOMEM;
	/* Local pool per socket: all Rx queues' rings on that member, twice
	 * (mbufs held by the app), plus the per-lcore caches.
	 */
	nb_mbufs = (uint32_t)dev->data->nb_rx_queues * 2 * RTE_MAX(nb_desc, 512) +
		rte_lcore_count() * RTE_MEMPOOL_CACHE_MAX_SIZE * 3 / 2;
	/* Every member's pool before any member queue: a pool that cannot be
	 * made fails the setup with no member queue changed, and the pools
	 * made for it are freed (nobody holds their mbufs yet).
	 */
	nb_pools = p->nb_pools;
	OCTO_FOREACH_MEMBER_STATE(p, i, m, OCTO_MEMBER_CONFIGURED) {
		q->mp[i] = p->args.rx_pool_app ? mp :
			octopus_pool_get(p, m->socket, mp, nb_mbufs);
		if (q->mp[i] == NULL) {
			octopus_pools_free_from(p, nb_pools);
			rte_free(q);
			return -ENOMEM;
		}
	}
	OCTO_FOREACH_MEMBER_STATE(p, i, m, OCTO_MEMBER_CONFIGURED) {
		pool = q->mp[i];
		ret = rte_eth_rx_queue_setup(m->port_id, qid, nb_desc, m->socket,
			conf, pool);
		if (ret < 0) {
			OCTO_LOG(ERR, "port %u: member %s refused Rx queue %u (%u desc): %s",
				p->port_id, m->name, qid, nb_desc, rte_strerror(-ret));
			rte_free(q);
			return ret;
		}
	}
	q->nb_desc = nb_desc;
	if (conf != NULL)
		q->rxconf = *conf;
	p->rxq[qid] = q;
	dev->data->rx_queues[qid] = q;
	if (!p->args.rx_pool_app)
		octopus_pools_sweep(p);
	return 0;
}

int
octopus_tx_queue_setup(struct rte_eth_dev *dev, uint16_t qid, uint16_t nb_desc,
		unsigned int socket, const struct rte_eth_txconf *conf)
{
	struct octopus_priv *p = octo_priv(dev);
	struct octopus_member *m;
	struct octopus_queue *q;
	uint16_t i;
	int ret;

	q = queue_alloc(dev, qid, socket, true);
	if (q == NULL)
		return -ENOMEM;
	OCTO_FOREACH_MEMBER_STATE(p, i, m, OCTO_MEMBER_CONFIGURED) {
		ret = rte_eth_tx_queue_setup(m->port_id, qid, nb_desc, m->socket, conf);
		if (ret < 0) {
			OCTO_LOG(ERR, "port %u: member %s refused Tx queue %u (%u desc): %s",
				p->port_id, m->name, qid, nb_desc, rte_strerror(-ret));
			rte_free(q);
			return ret;
		}
	}
	q->nb_desc = nb_desc;
	if (conf != NULL)
		q->txconf = *conf;
	p->txq[qid] = q;
	dev->data->tx_queues[qid] = q;
	return 0;
}

void
octopus_rx_queue_release(struct rte_eth_dev *dev, uint16_t qid)
{
	struct octopus_priv *p = octo_priv(dev);

	octopus_rx_stash_flush(dev->data->rx_queues[qid]);
	rte_free(dev->data->rx_queues[qid]);
	dev->data->rx_queues[qid] = NULL;
	if (qid < OCTOPUS_MAX_QUEUES)
		p->rxq[qid] = NULL;
}

void
octopus_tx_queue_release(struct rte_eth_dev *dev, uint16_t qid)
{
	struct octopus_priv *p = octo_priv(dev);

	rte_free(dev->data->tx_queues[qid]);
	dev->data->tx_queues[qid] = NULL;
	if (qid < OCTOPUS_MAX_QUEUES)
		p->txq[qid] = NULL;
}

static unsigned int
home_of(struct octopus_priv *p, const struct octopus_queue *q)
{
	unsigned int home = OCTO_ROUTE_HOME(rte_atomic_load_explicit(&q->route,
		rte_memory_order_relaxed));

	return home < p->nb_members ? home : 0;
}

/* What the queue was set up with; the pool is the home member's. */
void
octopus_rxq_info_get(struct rte_eth_dev *dev, uint16_t qid,
		struct rte_eth_rxq_info *qinfo)
{
	struct octopus_priv *p = octo_priv(dev);
	struct octopus_queue *q = qid < OCTOPUS_MAX_QUEUES ? p->rxq[qid] : NULL;

	if (q == NULL)
		return;
	qinfo->mp = q->mp[home_of(p, q)];
	qinfo->conf = q->rxconf;
	qinfo->nb_desc = q->nb_desc;
	qinfo->scattered_rx = dev->data->scattered_rx;
}

void
octopus_txq_info_get(struct rte_eth_dev *dev, uint16_t qid,
		struct rte_eth_txq_info *qinfo)
{
	struct octopus_priv *p = octo_priv(dev);
	struct octopus_queue *q = qid < OCTOPUS_MAX_QUEUES ? p->txq[qid] : NULL;

	if (q == NULL)
		return;
	qinfo->conf = q->txconf;
	qinfo->nb_desc = q->nb_desc;
}

/*
 * DPDK's aggregated-port API (ethdev, 23.03): the aggregated ports are the
 * members, in devargs order: affinity n is member n - 1, 0 is none. What a
 * pinned Tx queue does is octopus.rst's (Aggregated ports).
 */

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

	if (q == NULL)
		return OCTO_ERR(-EINVAL, "port %u: Tx queue %u is not set up: no affinity to map",
			p->port_id, qid);
	if (affinity > p->nb_members)
		return OCTO_ERR(-EINVAL, "port %u: Tx queue %u: affinity %u, the port aggregates %u members",
			p->port_id, qid, affinity, p->nb_members);
	if (affinity != 0 && p->members[affinity - 1].state < OCTO_MEMBER_CONFIGURED)
		return OCTO_ERR(-ENODEV, "port %u: Tx queue %u: affinity %u names member %s, which has no queues (not found at configure)",
			p->port_id, qid, affinity, p->members[affinity - 1].name);
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
