/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Statistics. Basic stats are the members' summed: virtual queue q is
 * hardware queue q on every member, so summing per-queue counters over
 * members gives q's. Extended stats add each member's totals and the
 * locality counters the datapath keeps per virtual queue.
 */

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "octopus_internal.h"

static void
totals_add(struct octopus_totals *t, const struct octopus_totals *mt)
{
	uint16_t q;

	t->st.ipackets += mt->st.ipackets;
	t->st.opackets += mt->st.opackets;
	t->st.ibytes += mt->st.ibytes;
	t->st.obytes += mt->st.obytes;
	t->st.imissed += mt->st.imissed;
	t->st.ierrors += mt->st.ierrors;
	t->st.oerrors += mt->st.oerrors;
	t->st.rx_nombuf += mt->st.rx_nombuf;
	for (q = 0; q < RTE_ETHDEV_QUEUE_STAT_CNTRS; q++) {
		t->qs.q_ipackets[q] += mt->qs.q_ipackets[q];
		t->qs.q_opackets[q] += mt->qs.q_opackets[q];
		t->qs.q_ibytes[q] += mt->qs.q_ibytes[q];
		t->qs.q_obytes[q] += mt->qs.q_obytes[q];
		t->qs.q_errors[q] += mt->qs.q_errors[q];
	}
}

/* The per-queue counters of ethdev's xstats, in struct eth_queue_stats. */
static const struct {
	const char *dir, *what;
	size_t off;
} queue_xstat_forms[] = {
	{ "rx_q", "_packets", offsetof(struct eth_queue_stats, q_ipackets) },
	{ "rx_q", "_bytes", offsetof(struct eth_queue_stats, q_ibytes) },
	{ "rx_q", "_errors", offsetof(struct eth_queue_stats, q_errors) },
	{ "tx_q", "_packets", offsetof(struct eth_queue_stats, q_opackets) },
	{ "tx_q", "_bytes", offsetof(struct eth_queue_stats, q_obytes) },
};

#define QUEUE_XSTATS_MAX (RTE_DIM(queue_xstat_forms) * RTE_ETHDEV_QUEUE_STAT_CNTRS)

/*
 * Which per-queue counter an xstat name stands for ("rx_q<N>_packets"
 * ...): its index (form * RTE_ETHDEV_QUEUE_STAT_CNTRS + N), -1 for none.
 */
static int
queue_xstat_index(const char *name)
{
	unsigned long q;
	unsigned int i;
	char *end;

	if (strncmp(name, "rx_q", 4) != 0 && strncmp(name, "tx_q", 4) != 0)
		return -1;
	if (name[4] < '0' || name[4] > '9')
		return -1;
	q = strtoul(name + 4, &end, 10);
	if (q >= RTE_ETHDEV_QUEUE_STAT_CNTRS)
		return -1;
	for (i = 0; i < RTE_DIM(queue_xstat_forms); i++)
		if (strncmp(name, queue_xstat_forms[i].dir, 4) == 0 &&
		    strcmp(end, queue_xstat_forms[i].what) == 0)
			return i * RTE_ETHDEV_QUEUE_STAT_CNTRS + q;
	return -1;
}

static uint64_t *
queue_counter(struct eth_queue_stats *qs, int idx)
{
	unsigned int form = idx / RTE_ETHDEV_QUEUE_STAT_CNTRS;

	return (uint64_t *)((char *)qs + queue_xstat_forms[form].off) +
		idx % RTE_ETHDEV_QUEUE_STAT_CNTRS;
}

/*
 * Port @p port's totals and per-queue counters. The latter are the xstats
 * ethdev builds from the PMD's per-queue counters (the PMD sets
 * RTE_ETH_DEV_AUTOFILL_QUEUE_XSTATS; without it they stay 0): since 25.11
 * rte_eth_stats_get has no per-queue counters, and they mean the same on
 * every release. Ethdev lists them before the PMD's own xstats (which may
 * reuse a name: the first is ethdev's), and reads them by id from the
 * PMD's stats_get alone: a member's port being released has no other
 * counters left to read.
 */
static int
port_totals_get(uint16_t port, struct octopus_totals *t)
{
	uint64_t ids[QUEUE_XSTATS_MAX], values[QUEUE_XSTATS_MAX];
	struct rte_eth_xstat_name *names;
	int idx[QUEUE_XSTATS_MAX];
	uint8_t seen[QUEUE_XSTATS_MAX];
	int n, i, k = 0, x, ret;

	memset(t, 0, sizeof(*t));
	ret = rte_eth_stats_get(port, &t->st);
	if (ret != 0)
		return ret;
	n = rte_eth_xstats_get_names(port, NULL, 0);
	if (n <= 0)
		return 0;
	names = calloc(n, sizeof(*names));
	if (names == NULL)
		return -ENOMEM;
	memset(seen, 0, sizeof(seen));
	n = RTE_MIN(n, rte_eth_xstats_get_names(port, names, n));
	for (i = 0; i < n && k < (int)QUEUE_XSTATS_MAX; i++) {
		x = queue_xstat_index(names[i].name);
		if (x < 0 || seen[x])
			continue;
		seen[x] = 1;
		idx[k] = x;
		ids[k++] = i;
	}
	free(names);
	if (k > 0 && rte_eth_xstats_get_by_id(port, ids, values, k) == k)
		for (i = 0; i < k; i++)
			*queue_counter(&t->qs, idx[i]) = values[i];
	return 0;
}

int
octopus_stats_get(struct rte_eth_dev *dev, struct rte_eth_stats *st,
		struct eth_queue_stats *qs)
{
	struct octopus_priv *p = octo_priv(dev);
	struct octopus_totals t, mt;
	struct octopus_member *m;
	uint16_t i;

	/* on what ethdev put there (rx_nombuf): released members' counts,
	 * so that totals never go back, then the members'
	 */
	memset(&t, 0, sizeof(t));
	t.st = *st;
	if (qs != NULL)
		t.qs = *qs;
	totals_add(&t, &p->gone_stats);
	OCTO_FOREACH_MEMBER_STATE(p, i, m, OCTO_MEMBER_OWNED) {
		if (port_totals_get(m->port_id, &mt) == 0)
			totals_add(&t, &mt);
	}
	*st = t.st;
	if (qs != NULL)
		*qs = t.qs;
	return 0;
}

/* What member @p m has counted until now, while its port can still say. */
void
octopus_stats_snapshot(struct octopus_priv *p, uint16_t m)
{
	struct octopus_member *mb = &p->members[m];

	if (mb->state < OCTO_MEMBER_OWNED ||
	    port_totals_get(mb->port_id, &mb->last_stats) != 0)
		memset(&mb->last_stats, 0, sizeof(mb->last_stats));
}

/*
 * Member @p m's port is being released: keep its totals, the larger of
 * now and the snapshot taken when it left service (a PMD may have cleared
 * its counters when it closed).
 */
void
octopus_stats_keep(struct octopus_priv *p, uint16_t m)
{
	const struct octopus_totals *last = &p->members[m].last_stats;
	struct octopus_totals mt;
	uint16_t q;

	if (port_totals_get(p->members[m].port_id, &mt) != 0)
		memset(&mt, 0, sizeof(mt));
	mt.st.ipackets = RTE_MAX(mt.st.ipackets, last->st.ipackets);
	mt.st.opackets = RTE_MAX(mt.st.opackets, last->st.opackets);
	mt.st.ibytes = RTE_MAX(mt.st.ibytes, last->st.ibytes);
	mt.st.obytes = RTE_MAX(mt.st.obytes, last->st.obytes);
	mt.st.imissed = RTE_MAX(mt.st.imissed, last->st.imissed);
	mt.st.ierrors = RTE_MAX(mt.st.ierrors, last->st.ierrors);
	mt.st.oerrors = RTE_MAX(mt.st.oerrors, last->st.oerrors);
	mt.st.rx_nombuf = RTE_MAX(mt.st.rx_nombuf, last->st.rx_nombuf);
	for (q = 0; q < RTE_ETHDEV_QUEUE_STAT_CNTRS; q++) {
		mt.qs.q_ipackets[q] = RTE_MAX(mt.qs.q_ipackets[q], last->qs.q_ipackets[q]);
		mt.qs.q_opackets[q] = RTE_MAX(mt.qs.q_opackets[q], last->qs.q_opackets[q]);
		mt.qs.q_ibytes[q] = RTE_MAX(mt.qs.q_ibytes[q], last->qs.q_ibytes[q]);
		mt.qs.q_obytes[q] = RTE_MAX(mt.qs.q_obytes[q], last->qs.q_obytes[q]);
		mt.qs.q_errors[q] = RTE_MAX(mt.qs.q_errors[q], last->qs.q_errors[q]);
	}
	totals_add(&p->gone_stats, &mt);
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

/*
 * The extended statistics, each named once next to where its value comes
 * from: per member, per virtual queue (Rx then Tx), per port.
 */

/* Per member: a field of its basic totals, or (off < 0) whether it serves. */
static const struct {
	const char *name;
	int off;
} member_xstats[] = {
	{ "rx_packets", offsetof(struct rte_eth_stats, ipackets) },
	{ "tx_packets", offsetof(struct rte_eth_stats, opackets) },
	{ "rx_bytes", offsetof(struct rte_eth_stats, ibytes) },
	{ "tx_bytes", offsetof(struct rte_eth_stats, obytes) },
	{ "rx_missed", offsetof(struct rte_eth_stats, imissed) },
	{ "rx_errors", offsetof(struct rte_eth_stats, ierrors) },
	{ "tx_errors", offsetof(struct rte_eth_stats, oerrors) },
	{ "in_service", -1 },	/* 1: serving, 0: out of service (failover) */
};

#define LOAD(field) rte_atomic_load_explicit(&(field), rte_memory_order_relaxed)

/* The 64-bit counter at @p off in @p base (a queue, the port) */
static inline uint64_t
load_at(const void *base, size_t off)
{
	return LOAD(*(const uint64_t *)((const char *)base + off));
}

/* Per virtual queue: where its packets went through, and its moves. */
static uint64_t
qx_polls(const struct octopus_queue *q)
{
	return octopus_queue_polls(q);
}
static uint64_t
qx_gate_tmo(const struct octopus_queue *q)
{
	return LOAD(q->mig.gate_timeouts) + LOAD(q->mig.gate_settle_timeouts);
}
static uint64_t
qx_lcore(const struct octopus_queue *q)
{
	return (uint64_t)(int64_t)rte_atomic_load_explicit(&q->poller_lcore,
		rte_memory_order_acquire);
}
static uint64_t
qx_socket(const struct octopus_queue *q)
{
	return (uint64_t)(int64_t)LOAD(q->poller_socket);
}

/* Which queues a per-queue xstat is listed for. */
#define QX_RX	1u
#define QX_TX	2u
#define QX_ALL	(QX_RX | QX_TX)

/* A queue's counter read where it is, without a function of its own */
#define QX_AT(field) offsetof(struct octopus_queue, field)

/*
 * A counter is listed only for the direction it can count in: ethdev's
 * telemetry (/ethdev/xstats) takes at most 256 of a port's xstats, and
 * a port of 8 queues over 8 members is near that already.
 */
static const struct {
	const char *name;
	uint64_t (*get)(const struct octopus_queue *q);	/* NULL: at off */
	size_t off;
	uint64_t none;		/* for a queue not set up */
	unsigned int dirs;	/* QX_RX, QX_TX */
} queue_xstats[] = {
	/* through the member on the poller's socket */
	{ "local_packets", NULL, QX_AT(cnt.pkts_local), 0, QX_ALL },
	/* through a member on another socket */
	{ "remote_packets", NULL, QX_AT(cnt.pkts_remote), 0, QX_ALL },
	{ "polls", qx_polls, 0, 0, QX_ALL },		/* bursts */
	/* bursts from an lcore not on the home's socket */
	{ "foreign_polls", NULL, QX_AT(cnt.foreign_polls), 0, QX_ALL },
	/* migration (octopus_migrate.c) */
	/* moves completed, request to steady */
	{ "migrations", NULL, QX_AT(mig.migrations), 0, QX_ALL },
	/* latency of the last move */
	{ "migration_last_ns", NULL, QX_AT(mig.last_ns), 0, QX_ALL },
	/* latency of the longest move */
	{ "migration_max_ns", NULL, QX_AT(mig.max_ns), 0, QX_ALL },
	/* Rx: read from the old member after the switch */
	{ "migration_drained_packets", NULL, QX_AT(mig.drained_pkts), 0, QX_RX },
	/* flow gates given up on: order not kept */
	{ "gate_timeouts", qx_gate_tmo, 0, 0, QX_ALL },
	/* Rx: drains acked on the Tx settle bound, descriptors not reported done */
	{ "tx_settle_bound_acks", NULL, QX_AT(mig.tx_settle_bound_acks), 0, QX_RX },
	/* Tx: moves ended on the Tx settle bound, old member not reported done */
	{ "tx_settle_bound_moves", NULL, QX_AT(mig.tx_settle_bound_moves), 0, QX_TX },
	/* lcore that polls it now (-1: none yet) */
	{ "poller_lcore", qx_lcore, 0, UINT64_MAX, QX_ALL },
	/* that lcore's socket (likewise) */
	{ "poller_socket", qx_socket, 0, UINT64_MAX, QX_ALL },
};

/* Per port, last. */
static uint64_t
px_rules(const struct octopus_priv *p)
{
	return p->steer != NULL ? octopus_steer_rule_count(p->steer) : 0;
}

#define PX_AT(field) offsetof(struct octopus_priv, field)

static const struct {
	const char *name;
	uint64_t (*get)(const struct octopus_priv *p);	/* NULL: at off */
	size_t off;
} port_xstats[] = {
	/* rules the steering holds on the e-switch */
	{ "steering_rules", px_rules, 0 },
	/* members taken out of service, and back in service */
	{ "member_losses", NULL, PX_AT(member_losses) },
	{ "member_returns", NULL, PX_AT(member_returns) },
	/* in a lost member's Rx rings, never delivered */
	{ "outage_lost_packets", NULL, PX_AT(outage_lost_pkts) },
	/* read, not given out before a stop */
	{ "stop_freed_packets", NULL, PX_AT(stop_freed_pkts) },
	/* the members' transfer proxy released: no rule delivers to a member */
	{ "proxy_releases", NULL, PX_AT(proxy_releases) },
	/* member starts the NIC refused */
	{ "start_refusals", NULL, PX_AT(start_refusals) },
};

/* Per-queue xstat @p j of queue @p q (NULL: not set up) */
static uint64_t
queue_xstat(unsigned int j, const struct octopus_queue *q)
{
	if (q == NULL)
		return queue_xstats[j].none;
	if (queue_xstats[j].get != NULL)
		return queue_xstats[j].get(q);
	return load_at(q, queue_xstats[j].off);
}

/* How many per-queue xstats a queue of direction @p dir lists. */
static unsigned int
queue_xstats_of(unsigned int dir)
{
	unsigned int j, n = 0;

	for (j = 0; j < RTE_DIM(queue_xstats); j++)
		n += (queue_xstats[j].dirs & dir) != 0;
	return n;
}

static unsigned int
xstats_count(struct rte_eth_dev *dev)
{
	struct octopus_priv *p = octo_priv(dev);

	return p->nb_members * RTE_DIM(member_xstats) +
		dev->data->nb_rx_queues * (queue_xstats_of(QX_RX) + p->nb_members) +
		dev->data->nb_tx_queues * (queue_xstats_of(QX_TX) + p->nb_members) +
		RTE_DIM(port_xstats);
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
		for (j = 0; j < RTE_DIM(member_xstats); j++)
			snprintf(names[k++].name, RTE_ETH_XSTATS_NAME_SIZE,
				"member%u_%s", i, member_xstats[j].name);
	for (t = 0; t < 2; t++) {
		uint16_t nb = t ? dev->data->nb_tx_queues : dev->data->nb_rx_queues;
		const char *dir = t ? "tx" : "rx";

		for (q = 0; q < nb; q++) {
			for (j = 0; j < RTE_DIM(queue_xstats); j++)
				if (queue_xstats[j].dirs & (t ? QX_TX : QX_RX))
					snprintf(names[k++].name, RTE_ETH_XSTATS_NAME_SIZE,
						"%s_q%u_%s", dir, q, queue_xstats[j].name);
			for (i = 0; i < p->nb_members; i++)
				snprintf(names[k++].name, RTE_ETH_XSTATS_NAME_SIZE,
					"%s_q%u_member%u_packets", dir, q, i);
		}
	}
	for (j = 0; j < RTE_DIM(port_xstats); j++)
		snprintf(names[k++].name, RTE_ETH_XSTATS_NAME_SIZE, "%s", port_xstats[j].name);
	return k;
}

int
octopus_xstats_get(struct rte_eth_dev *dev, struct rte_eth_xstat *xs, unsigned int size)
{
	struct octopus_priv *p = octo_priv(dev);
	unsigned int n = xstats_count(dev), k = 0, i, j, q, t;
	struct rte_eth_stats ms;

	if (xs == NULL || size < n)
		return n;
	for (i = 0; i < p->nb_members; i++) {
		memset(&ms, 0, sizeof(ms));
		if (p->members[i].state >= OCTO_MEMBER_OWNED)
			rte_eth_stats_get(p->members[i].port_id, &ms);
		for (j = 0; j < RTE_DIM(member_xstats); j++)
			xs[k++].value = member_xstats[j].off < 0 ? octopus_member_serving(p, i) :
				*(const uint64_t *)((const char *)&ms + member_xstats[j].off);
	}
	for (t = 0; t < 2; t++) {
		uint16_t nb = t ? dev->data->nb_tx_queues : dev->data->nb_rx_queues;

		for (q = 0; q < nb; q++) {
			const struct octopus_queue *vq = q < OCTOPUS_MAX_QUEUES ?
				(t ? p->txq[q] : p->rxq[q]) : NULL;

			for (j = 0; j < RTE_DIM(queue_xstats); j++)
				if (queue_xstats[j].dirs & (t ? QX_TX : QX_RX))
					xs[k++].value = queue_xstat(j, vq);
			for (i = 0; i < p->nb_members; i++)
				xs[k++].value = vq != NULL ? vq->cnt.member_pkts[i] : 0;
		}
	}
	for (j = 0; j < RTE_DIM(port_xstats); j++)
		xs[k++].value = port_xstats[j].get != NULL ? port_xstats[j].get(p) :
			load_at(p, port_xstats[j].off);
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
