/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/* The public API of rte_pmd_octopus.h: views of a port, and its queue
 * migration (requests go to octopus_migrate.c).
 */

#include <errno.h>
#include <string.h>

#include <eal_export.h>
#include <rte_lcore.h>

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

/* A queue view's checks: an octopus port (-ENODEV), a queue set up, a view (-EINVAL) */
static int
queue_view(uint16_t port_id, uint16_t queue_id, int tx, const void *view,
		struct octopus_priv **p, struct octopus_queue **q)
{
	*p = priv_of(port_id);
	if (*p == NULL)
		return -ENODEV;
	*q = octopus_queue_get(*p, queue_id, tx);
	return *q == NULL || view == NULL ? -EINVAL : 0;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_pmd_octopus_is_octopus, 0.1)
int
rte_pmd_octopus_is_octopus(uint16_t port_id)
{
	return octopus_is_octopus(port_id) ? 1 : 0;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_pmd_octopus_members_get, 0.1)
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

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_pmd_octopus_queue_info_get, 0.1)
int
rte_pmd_octopus_queue_info_get(uint16_t port_id, uint16_t queue_id, int tx,
		struct rte_pmd_octopus_queue_info *info)
{
	struct octopus_priv *p;
	struct octopus_queue *q;
	unsigned int home;
	int ret = queue_view(port_id, queue_id, tx, info, &p, &q);

	if (ret != 0)
		return ret;
	memset(info, 0, sizeof(*info));
	home = OCTO_ROUTE_HOME(rte_atomic_load_explicit(&q->route, rte_memory_order_relaxed));
	info->has_home = home != OCTOPUS_NO_HOME;
	if (home >= p->nb_members)
		home = 0;
	info->home_member = home;
	info->home_port = p->members[home].port_id;
	info->home_socket = p->members[home].socket;
	info->poller_lcore = rte_atomic_load_explicit(&q->poller_lcore, rte_memory_order_acquire);
	info->poller_socket = info->poller_lcore >= 0 ? q->poller_socket : -1;
	info->steered = q->steered;
	return 0;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_pmd_octopus_locality_get, 0.1)
int
rte_pmd_octopus_locality_get(uint16_t port_id, uint16_t queue_id, int tx,
		struct rte_pmd_octopus_locality *loc)
{
	struct octopus_priv *p;
	struct octopus_queue *q;
	uint16_t i;
	int ret = queue_view(port_id, queue_id, tx, loc, &p, &q);

	if (ret != 0)
		return ret;
	memset(loc, 0, sizeof(*loc));
	loc->local_pkts = q->cnt.pkts_local;
	loc->remote_pkts = q->cnt.pkts_remote;
	loc->polls = octopus_queue_polls(q);
	loc->foreign_polls = q->cnt.foreign_polls;
	for (i = 0; i < OCTOPUS_MAX_MEMBERS; i++)
		loc->member_pkts[i] = q->cnt.member_pkts[i];
	return 0;
}

/* ---- migration ---------------------------------------------------------- */

static_assert(RTE_PMD_OCTOPUS_MIG_HIST == OCTO_MIG_HIST,
	"public histogram size differs from the driver's");
static_assert((int)RTE_PMD_OCTOPUS_MIG_DRAINING == (int)OCTO_ROUTE_DRAINING,
	"public phases differ from the route's");

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_pmd_octopus_queue_migrate, 0.1)
int
rte_pmd_octopus_queue_migrate(uint16_t port_id, uint16_t queue_id, int socket)
{
	struct octopus_priv *p = priv_of(port_id);
	int rx, tx;

	if (p == NULL)
		return -ENODEV;
	rx = octopus_migrate_request(p, queue_id, 0, socket, false);
	tx = octopus_migrate_request(p, queue_id, 1, socket, false);
	/* a queue set up in one direction only is fine */
	if (rx == -EINVAL && queue_id < OCTOPUS_MAX_QUEUES && p->rxq[queue_id] == NULL)
		rx = tx;
	if (tx == -EINVAL && queue_id < OCTOPUS_MAX_QUEUES && p->txq[queue_id] == NULL)
		tx = rx;
	/* a Tx queue pinned to a member stays: the Rx side moves alone */
	if (tx == -EPERM)
		tx = rx;
	if (rx == 0 || tx == 0)
		return 0;
	return rx;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_pmd_octopus_queue_migrate_lcore, 0.1)
int
rte_pmd_octopus_queue_migrate_lcore(uint16_t port_id, uint16_t queue_id,
		unsigned int lcore_id)
{
	if (lcore_id >= RTE_MAX_LCORE || !rte_lcore_is_enabled(lcore_id))
		return -EINVAL;
	return rte_pmd_octopus_queue_migrate(port_id, queue_id,
		(int)rte_lcore_to_socket_id(lcore_id));
}

/* the migration's counters: each exact, not a snapshot of them all */
#define LOAD(field) rte_atomic_load_explicit(&(field), rte_memory_order_relaxed)

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_pmd_octopus_migration_get, 0.1)
int
rte_pmd_octopus_migration_get(uint16_t port_id, uint16_t queue_id, int tx,
		struct rte_pmd_octopus_migration *st)
{
	struct octopus_priv *p = priv_of(port_id);
	struct octopus_queue *q;
	struct octopus_qmig *m;
	uint32_t r;
	unsigned int i, home;

	if (p == NULL)
		return -ENODEV;
	if (st == NULL || queue_id >= OCTOPUS_MAX_QUEUES)
		return -EINVAL;
	q = tx ? p->txq[queue_id] : p->rxq[queue_id];
	if (q == NULL)
		return -EINVAL;
	m = &q->mig;
	memset(st, 0, sizeof(*st));
	r = rte_atomic_load_explicit(&q->route, rte_memory_order_acquire);
	home = OCTO_ROUTE_HOME(r);
	st->phase = (enum rte_pmd_octopus_mig_phase)OCTO_ROUTE_PHASE(r);
	st->home_member = home;
	st->home_socket = home < p->nb_members ? p->members[home].socket : -1;
	st->old_member = st->phase == RTE_PMD_OCTOPUS_MIG_DRAINING ? OCTO_ROUTE_OTHER(r) : home;
	st->migrations = LOAD(m->migrations);
	st->failures = LOAD(m->failures);
	st->last_latency_ns = LOAD(m->last_ns);
	st->max_latency_ns = LOAD(m->max_ns);
	st->last_switch_ns = LOAD(m->last_switch_ns);
	st->drained_pkts = LOAD(m->drained_pkts);
	st->gates = LOAD(m->gates);
	st->gated_bursts = LOAD(m->gated_bursts);
	st->gate_timeouts = LOAD(m->gate_timeouts) + LOAD(m->gate_settle_timeouts);
	st->tx_settle_bound_acks = LOAD(m->tx_settle_bound_acks);
	st->tx_settle_bound_moves = LOAD(m->tx_settle_bound_moves);
	for (i = 0; i < OCTO_MIG_HIST; i++)
		st->latency_hist[i] = LOAD(m->hist[i]);
	return 0;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_pmd_octopus_migration_auto_set, 0.1)
int
rte_pmd_octopus_migration_auto_set(uint16_t port_id, int on)
{
	struct octopus_priv *p = priv_of(port_id);

	if (p == NULL)
		return -ENODEV;
	/* read by pollers on their foreign-poll path */
	rte_atomic_store_explicit(&p->mig.auto_mode, on != 0, rte_memory_order_relaxed);
	return 0;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_pmd_octopus_migration_auto_get, 0.1)
int
rte_pmd_octopus_migration_auto_get(uint16_t port_id)
{
	struct octopus_priv *p = priv_of(port_id);

	if (p == NULL)
		return -ENODEV;
	return rte_atomic_load_explicit(&p->mig.auto_mode, rte_memory_order_relaxed) ? 1 : 0;
}
