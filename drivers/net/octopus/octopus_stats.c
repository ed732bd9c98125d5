/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Statistics. Basic stats are the members' summed: virtual queue q is
 * hardware queue q on every member, so summing per-queue counters over
 * members gives q's. Extended stats add each member's totals and the
 * locality counters the datapath keeps per virtual queue.
 */

#include <stdio.h>
#include <string.h>

#include "octopus_internal.h"

int
octopus_stats_get(struct rte_eth_dev *dev, struct rte_eth_stats *st)
{
	struct octopus_priv *p = octo_priv(dev);
	struct octopus_member *m;
	struct rte_eth_stats ms;
	uint16_t i, q;

	OCTO_FOREACH_MEMBER_STATE(p, i, m, OCTO_MEMBER_OWNED) {
		if (rte_eth_stats_get(m->port_id, &ms) < 0)
			continue;
		st->ipackets += ms.ipackets;
		st->opackets += ms.opackets;
		st->ibytes += ms.ibytes;
		st->obytes += ms.obytes;
		st->imissed += ms.imissed;
		st->ierrors += ms.ierrors;
		st->oerrors += ms.oerrors;
		st->rx_nombuf += ms.rx_nombuf;
		for (q = 0; q < RTE_ETHDEV_QUEUE_STAT_CNTRS; q++) {
			st->q_ipackets[q] += ms.q_ipackets[q];
			st->q_opackets[q] += ms.q_opackets[q];
			st->q_ibytes[q] += ms.q_ibytes[q];
			st->q_obytes[q] += ms.q_obytes[q];
			st->q_errors[q] += ms.q_errors[q];
		}
	}
	return 0;
}

static void
queue_counters_reset(struct octopus_priv *p)
{
	uint16_t q;

	for (q = 0; q < OCTOPUS_MAX_QUEUES; q++) {
		if (p->rxq[q] != NULL)
			memset(&p->rxq[q]->cnt, 0, sizeof(p->rxq[q]->cnt));
		if (p->txq[q] != NULL)
			memset(&p->txq[q]->cnt, 0, sizeof(p->txq[q]->cnt));
	}
}

int
octopus_stats_reset(struct rte_eth_dev *dev)
{
	struct octopus_priv *p = octo_priv(dev);
	struct octopus_member *m;
	uint16_t i;

	OCTO_FOREACH_MEMBER_STATE(p, i, m, OCTO_MEMBER_OWNED)
		rte_eth_stats_reset(m->port_id);
	return 0;
}

/* Per member: its basic totals. */
static const char *const member_names[] = {
	"rx_packets", "tx_packets", "rx_bytes", "tx_bytes", "rx_missed",
	"rx_errors", "tx_errors",
};
#define NB_MEMBER_XSTATS RTE_DIM(member_names)

/* Per virtual queue, Rx then Tx: where its packets went through. */
static const char *const queue_names[] = {
	"local_packets",	/* through the member on the poller's socket */
	"remote_packets",	/* through a member on another socket */
	"polls",		/* bursts */
	"foreign_polls",	/* bursts from an lcore not on the home's socket */
	/* migration (octopus_migrate.c) */
	"migrations",		/* moves completed, request to steady */
	"migration_last_ns",	/* latency of the last move */
	"migration_max_ns",	/* latency of the longest move */
	"migration_drained_packets", /* Rx: read from the old member after the switch */
	"gate_timeouts",	/* flow gates given up on after 50 ms: order not kept */
};
#define NB_QUEUE_XSTATS RTE_DIM(queue_names)

static unsigned int
xstats_count(struct rte_eth_dev *dev)
{
	struct octopus_priv *p = octo_priv(dev);

	return p->nb_members * NB_MEMBER_XSTATS +
		(dev->data->nb_rx_queues + dev->data->nb_tx_queues) *
		(NB_QUEUE_XSTATS + p->nb_members) + 1;
}

int
octopus_xstats_get_names(struct rte_eth_dev *dev, struct rte_eth_xstat_name *names,
		unsigned int size)
{
	struct octopus_priv *p = octo_priv(dev);
	unsigned int n = xstats_count(dev), k = 0, i, j, q, t;

	if (names == NULL || size < n)
		return n;
	for (i = 0; i < p->nb_members; i++)
		for (j = 0; j < NB_MEMBER_XSTATS; j++)
			snprintf(names[k++].name, RTE_ETH_XSTATS_NAME_SIZE,
				"member%u_%s", i, member_names[j]);
	for (t = 0; t < 2; t++) {
		uint16_t nb = t ? dev->data->nb_tx_queues : dev->data->nb_rx_queues;
		const char *dir = t ? "tx" : "rx";

		for (q = 0; q < nb; q++) {
			for (j = 0; j < NB_QUEUE_XSTATS; j++)
				snprintf(names[k++].name, RTE_ETH_XSTATS_NAME_SIZE,
					"%s_q%u_%s", dir, q, queue_names[j]);
			for (i = 0; i < p->nb_members; i++)
				snprintf(names[k++].name, RTE_ETH_XSTATS_NAME_SIZE,
					"%s_q%u_member%u_packets", dir, q, i);
		}
	}
	snprintf(names[k++].name, RTE_ETH_XSTATS_NAME_SIZE, "steering_rules");
	return k;
}

int
octopus_xstats_get(struct rte_eth_dev *dev, struct rte_eth_xstat *xs, unsigned int size)
{
	struct octopus_priv *p = octo_priv(dev);
	unsigned int n = xstats_count(dev), k = 0, i, q, t;
	struct rte_eth_stats ms;

	if (xs == NULL || size < n)
		return n;
	for (i = 0; i < p->nb_members; i++) {
		memset(&ms, 0, sizeof(ms));
		if (p->members[i].state >= OCTO_MEMBER_OWNED)
			rte_eth_stats_get(p->members[i].port_id, &ms);
		xs[k++].value = ms.ipackets;
		xs[k++].value = ms.opackets;
		xs[k++].value = ms.ibytes;
		xs[k++].value = ms.obytes;
		xs[k++].value = ms.imissed;
		xs[k++].value = ms.ierrors;
		xs[k++].value = ms.oerrors;
	}
	for (t = 0; t < 2; t++) {
		uint16_t nb = t ? dev->data->nb_tx_queues : dev->data->nb_rx_queues;

		for (q = 0; q < nb; q++) {
			struct octopus_queue *vq = q < OCTOPUS_MAX_QUEUES ?
				(t ? p->txq[q] : p->rxq[q]) : NULL;
			struct octopus_qcounters c;

			memset(&c, 0, sizeof(c));
			if (vq != NULL)
				c = vq->cnt;
			xs[k++].value = c.pkts_local;
			xs[k++].value = c.pkts_remote;
			xs[k++].value = c.polls;
			xs[k++].value = c.foreign_polls;
			xs[k++].value = vq ? __atomic_load_n(&vq->mig.migrations, __ATOMIC_RELAXED) : 0;
			xs[k++].value = vq ? __atomic_load_n(&vq->mig.last_ns, __ATOMIC_RELAXED) : 0;
			xs[k++].value = vq ? __atomic_load_n(&vq->mig.max_ns, __ATOMIC_RELAXED) : 0;
			xs[k++].value = vq ? __atomic_load_n(&vq->mig.drained_pkts, __ATOMIC_RELAXED) : 0;
			xs[k++].value = vq ? __atomic_load_n(&vq->mig.gate_timeouts, __ATOMIC_RELAXED) +
				__atomic_load_n(&vq->mig.gate_settle_timeouts, __ATOMIC_RELAXED) : 0;
			for (i = 0; i < p->nb_members; i++)
				xs[k++].value = c.member_pkts[i];
		}
	}
	xs[k++].value = p->steer != NULL ? octopus_steer_rule_count(p->steer) : 0;
	for (i = 0; i < k; i++)
		xs[i].id = i;
	return k;
}

int
octopus_xstats_reset(struct rte_eth_dev *dev)
{
	struct octopus_priv *p = octo_priv(dev);

	queue_counters_reset(p);
	return octopus_stats_reset(dev);
}
