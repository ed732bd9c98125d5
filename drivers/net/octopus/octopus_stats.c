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

static void
stats_add(struct rte_eth_stats *st, const struct rte_eth_stats *ms)
{
	uint16_t q;

	st->ipackets += ms->ipackets;
	st->opackets += ms->opackets;
	st->ibytes += ms->ibytes;
	st->obytes += ms->obytes;
	st->imissed += ms->imissed;
	st->ierrors += ms->ierrors;
	st->oerrors += ms->oerrors;
	st->rx_nombuf += ms->rx_nombuf;
	for (q = 0; q < RTE_ETHDEV_QUEUE_STAT_CNTRS; q++) {
		st->q_ipackets[q] += ms->q_ipackets[q];
		st->q_opackets[q] += ms->q_opackets[q];
		st->q_ibytes[q] += ms->q_ibytes[q];
		st->q_obytes[q] += ms->q_obytes[q];
		st->q_errors[q] += ms->q_errors[q];
	}
}

int
octopus_stats_get(struct rte_eth_dev *dev, struct rte_eth_stats *st)
{
	struct octopus_priv *p = octo_priv(dev);
	struct octopus_member *m;
	struct rte_eth_stats ms;
	uint16_t i;

	/* what released members had counted: totals never go back */
	stats_add(st, &p->gone_stats);
	OCTO_FOREACH_MEMBER_STATE(p, i, m, OCTO_MEMBER_OWNED) {
		if (rte_eth_stats_get(m->port_id, &ms) == 0)
			stats_add(st, &ms);
	}
	return 0;
}

/* What member @p m has counted until now, while its port can still say. */
void
octopus_stats_snapshot(struct octopus_priv *p, uint16_t m)
{
	struct octopus_member *mb = &p->members[m];

	if (mb->state < OCTO_MEMBER_OWNED ||
	    rte_eth_stats_get(mb->port_id, &mb->last_stats) != 0)
		memset(&mb->last_stats, 0, sizeof(mb->last_stats));
}

#define KEEP_MAX(a, b) ((a) = RTE_MAX(a, b))

/*
 * Member @p m's port is being released: keep its totals, the larger of
 * now and the snapshot taken when it left service (a PMD may have cleared
 * its counters when it closed).
 */
void
octopus_stats_keep(struct octopus_priv *p, uint16_t m)
{
	struct rte_eth_stats ms, *last = &p->members[m].last_stats;
	uint16_t q;

	memset(&ms, 0, sizeof(ms));
	rte_eth_stats_get(p->members[m].port_id, &ms);
	KEEP_MAX(ms.ipackets, last->ipackets);
	KEEP_MAX(ms.opackets, last->opackets);
	KEEP_MAX(ms.ibytes, last->ibytes);
	KEEP_MAX(ms.obytes, last->obytes);
	KEEP_MAX(ms.imissed, last->imissed);
	KEEP_MAX(ms.ierrors, last->ierrors);
	KEEP_MAX(ms.oerrors, last->oerrors);
	KEEP_MAX(ms.rx_nombuf, last->rx_nombuf);
	for (q = 0; q < RTE_ETHDEV_QUEUE_STAT_CNTRS; q++) {
		KEEP_MAX(ms.q_ipackets[q], last->q_ipackets[q]);
		KEEP_MAX(ms.q_opackets[q], last->q_opackets[q]);
		KEEP_MAX(ms.q_ibytes[q], last->q_ibytes[q]);
		KEEP_MAX(ms.q_obytes[q], last->q_obytes[q]);
		KEEP_MAX(ms.q_errors[q], last->q_errors[q]);
	}
	stats_add(&p->gone_stats, &ms);
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
	memset(&p->gone_stats, 0, sizeof(p->gone_stats));
	return 0;
}

/* Per member: its basic totals. */
static const char *const member_names[] = {
	"rx_packets", "tx_packets", "rx_bytes", "tx_bytes", "rx_missed",
	"rx_errors", "tx_errors",
	"in_service",	/* 1: serving, 0: out of service (failover) */
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
	"poller_lcore",		/* lcore that polls it now (-1 as 2^64-1: none yet) */
	"poller_socket",	/* that lcore's socket (likewise) */
};
#define NB_QUEUE_XSTATS RTE_DIM(queue_names)

/* Per port, last. */
static const char *const port_names[] = {
	"steering_rules",	/* rules the steering holds on the e-switch */
	"member_losses",	/* members taken out of service */
	"member_returns",	/* members back in service */
	"outage_lost_packets",	/* in a lost member's Rx rings, never delivered */
};

static unsigned int
xstats_count(struct rte_eth_dev *dev)
{
	struct octopus_priv *p = octo_priv(dev);

	return p->nb_members * NB_MEMBER_XSTATS +
		(dev->data->nb_rx_queues + dev->data->nb_tx_queues) *
		(NB_QUEUE_XSTATS + p->nb_members) + RTE_DIM(port_names);
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
	for (j = 0; j < RTE_DIM(port_names); j++)
		snprintf(names[k++].name, RTE_ETH_XSTATS_NAME_SIZE, "%s", port_names[j]);
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
		xs[k++].value = octopus_member_serving(p, i);
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
			xs[k++].value = vq ? (uint64_t)(int64_t)__atomic_load_n(&vq->poller_lcore,
				__ATOMIC_ACQUIRE) : UINT64_MAX;
			xs[k++].value = vq ? (uint64_t)(int64_t)__atomic_load_n(&vq->poller_socket,
				__ATOMIC_RELAXED) : UINT64_MAX;
			for (i = 0; i < p->nb_members; i++)
				xs[k++].value = c.member_pkts[i];
		}
	}
	xs[k++].value = p->steer != NULL ? octopus_steer_rule_count(p->steer) : 0;
	xs[k++].value = __atomic_load_n(&p->member_losses, __ATOMIC_RELAXED);
	xs[k++].value = __atomic_load_n(&p->member_returns, __ATOMIC_RELAXED);
	xs[k++].value = __atomic_load_n(&p->outage_lost_pkts, __ATOMIC_RELAXED);
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
