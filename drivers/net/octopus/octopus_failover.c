/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Member failover: when and with what effect a member leaves service and
 * comes back is octopus.rst's (Member failover); here, how.
 *
 * Out of service, in this order:
 *  1. the member's loss is recorded: homes, auto-migration targets and
 *     queue setups no longer choose it (octopus_member_nearest,
 *     octopus_member_by_socket);
 *  2. every virtual queue's entry for it is pointed at a stub burst
 *     function that returns 0 (octopus_queue_member_bind);
 *  3. the caller waits until every burst that was running at step 2 has
 *     ended (quiesce): each queue's burst_seq is odd inside a burst (a
 *     plain store at its entry; the control side forces the store-load
 *     order with membarrier) and moves, stored with RELEASE, after the
 *     burst's last use of the member. Queues between bursts, polled or
 *     not, are not waited for; one still inside after OCTO_QUIESCE_MS is
 *     logged as an error. When the event handler returns, and the
 *     member's PMD frees its queues, no burst of the virtual port runs
 *     the member's code or touches its queues. (rte_rcu_qsbr would need
 *     the application's lcores registered, and an lcore that stops
 *     polling without going offline would hold a grace period forever;
 *     the count per queue needs nothing from the application.)
 *  4. the migration thread moves the queues homed on it to a serving
 *     member (failover_sweep in octopus_migrate.c: the usual migration,
 *     whose drain of the old member reads the stub and so ends at once).
 *     What sat in the member's Rx rings is lost, counted in
 *     outage_lost_pkts.
 * Back in service (its link up again while started): its Rx rings are
 * emptied first (those packets are older than what the other members
 * delivered meanwhile: counted as lost, never delivered out of order),
 * its entries point at its burst functions again, and the queues the
 * failover moved away go back with the usual drain.
 */

#include <errno.h>
#include <inttypes.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#include "octopus_internal.h"
#include "octopus_flow.h"

/* How long a loss waits for a burst that runs the member's code to end:
 * past it the member's PMD may free what that burst uses (logged as an
 * error). A poller preempted inside a burst comes back in milliseconds
 * even on a loaded host.
 */
#define OCTO_QUIESCE_MS	5000

const char *
octopus_loss_name(enum octopus_member_loss why)
{
	switch (why) {
	case OCTO_LOSS_NONE: return "serving";
	case OCTO_LOSS_LINK: return "link down";
	case OCTO_LOSS_REMOVED: return "removed";
	case OCTO_LOSS_RESET: return "needs reset";
	case OCTO_LOSS_RELEASED: return "released";
	}
	return "?";
}

static struct octopus_queue *
queue_at(struct octopus_priv *p, int tx, uint16_t qid)
{
	return tx ? p->txq[qid] : p->rxq[qid];
}

/*
 * Step 3 of the header comment: wait until no burst that may have read an
 * old entry runs. Those are the bursts inside when the entries changed
 * (burst_seq odd then); a queue between bursts, polled or not, is not
 * waited for. Returns -ETIMEDOUT (logged) when one is still inside after
 * OCTO_QUIESCE_MS.
 */
static int
quiesce(struct octopus_priv *p, const char *member)
{
	uint64_t seen[2][OCTOPUS_MAX_QUEUES];
	bool wait[2][OCTOPUS_MAX_QUEUES];
	const struct timespec nap = { .tv_sec = 0, .tv_nsec = 20000 };
	uint64_t start = rte_get_tsc_cycles(), now;
	uint64_t deadline = start + rte_get_tsc_hz() / 1000 * OCTO_QUIESCE_MS;
	struct octopus_queue *q;
	unsigned int t, i, left;
	int ret = 0;

	/* the stores of the stubs before the loads of the counts */
	octopus_pollers_barrier();
	for (t = 0; t < 2; t++)
		for (i = 0; i < OCTOPUS_MAX_QUEUES; i++) {
			q = queue_at(p, t, i);
			seen[t][i] = q == NULL ? 0 :
				rte_atomic_load_explicit(&q->cnt.burst_seq,
					rte_memory_order_acquire);
			wait[t][i] = (seen[t][i] & 1) != 0;
		}
	for (;;) {
		left = 0;
		for (t = 0; t < 2; t++)
			for (i = 0; i < OCTOPUS_MAX_QUEUES; i++) {
				if (!wait[t][i])
					continue;
				q = queue_at(p, t, i);
				if (q == NULL || rte_atomic_load_explicit(&q->cnt.burst_seq,
						rte_memory_order_acquire) != seen[t][i])
					wait[t][i] = false;
				else
					left++;
			}
		if (left == 0)
			break;
		now = rte_get_tsc_cycles();
		if (now > deadline) {
			ret = -ETIMEDOUT;
			break;
		}
		/* sleep, not spin: this thread may share a CPU with a poller */
		nanosleep(&nap, NULL);
	}
	now = rte_get_tsc_cycles();
	for (t = 0; t < 2; t++)
		for (i = 0; i < OCTOPUS_MAX_QUEUES; i++)
			if (wait[t][i])
				OCTO_LOG(ERR, "port %u: %s queue %u still inside a burst of lcore %d after %d ms while member %s left service: its PMD may free what that burst uses",
					p->port_id, t ? "Tx" : "Rx", i,
					rte_atomic_load_explicit(&queue_at(p, t, i)->poller_lcore,
						rte_memory_order_relaxed),
					OCTO_QUIESCE_MS, member);
	OCTO_LOG(DEBUG, "port %u: member %s out: bursts inside ended after %" PRIu64 " us",
		p->port_id, member, (now - start) * 1000000 / rte_get_tsc_hz());
	return ret;
}

/* Point every virtual queue's entry for member @p m at what it is now. */
static void
rebind_member(struct octopus_priv *p, uint16_t m)
{
	struct octopus_queue *q;
	unsigned int t, i;

	for (t = 0; t < 2; t++)
		for (i = 0; i < OCTOPUS_MAX_QUEUES; i++) {
			q = queue_at(p, t, i);
			if (q != NULL && m < q->nb_members)
				octopus_queue_member_bind(q, m);
		}
}

/* Packets waiting in member @p m's Rx rings (0 where it cannot say). */
static uint64_t
rx_held(struct octopus_priv *p, uint16_t m)
{
	const struct octopus_member *mb = &p->members[m];
	uint16_t qid, nb = rte_eth_devices[p->port_id].data->nb_rx_queues;
	uint64_t n = 0;
	int c;

	if (mb->state < OCTO_MEMBER_STARTED)
		return 0;
	for (qid = 0; qid < nb; qid++) {
		c = rte_eth_rx_queue_count(mb->port_id, qid);
		if (c > 0)
			n += (uint64_t)c;
	}
	return n;
}

/* Empty member @p m's Rx rings (nobody polls them: it is out of service). */
static uint64_t
rx_flush(struct octopus_priv *p, uint16_t m)
{
	const struct octopus_member *mb = &p->members[m];
	uint16_t qid, nb = rte_eth_devices[p->port_id].data->nb_rx_queues, k;
	struct rte_mbuf *pkts[32];
	uint64_t n = 0;

	for (qid = 0; qid < nb; qid++)
		while ((k = rte_eth_rx_burst(mb->port_id, qid, pkts, RTE_DIM(pkts))) > 0) {
			rte_pktmbuf_free_bulk(pkts, k);
			n += k;
		}
	return n;
}

/* Wake the migration thread for a sweep (no-op while stopped: start
 * homes every queue on a serving member).
 */
static void
sweep_request(struct octopus_priv *p)
{
	rte_atomic_store_explicit(&p->mig.failover, 1, rte_memory_order_release);
	octopus_migrate_wake(p);
}

/*
 * The steering rules of a released member went with its port; when it was
 * the transfer proxy, all of them did (the application's too), and the port
 * carries on without e-switch steering (every Rx queue polls every serving
 * member). A start installs the steering again if the members then have a
 * transfer proxy (on net_octonic and mlx5 only PF0's port is one).
 */
static void
steer_forget(struct octopus_priv *p, uint16_t m)
{
	pthread_mutex_t *mx = &rte_eth_devices[p->port_id].data->flow_ops_mutex;
	uint16_t i;

	/* the flow ops change rules under it, the migration thread and RETA
	 * updates the steering under steer_lock too
	 */
	pthread_mutex_lock(mx);
	pthread_mutex_lock(&p->mig.steer_lock);
	if (p->steer != NULL && octopus_steer_member_gone(p->steer, m)) {
		octopus_steer_abandon(p->steer);
		p->steer = NULL;
		for (i = 0; i < OCTOPUS_MAX_QUEUES; i++)
			if (p->rxq[i] != NULL)
				p->rxq[i]->steered = 0;
		OCTO_LOG(WARNING, "port %u: member %s was the e-switch's transfer proxy: no steering, and no rte_flow rules, until the port starts with a transfer proxy again",
			p->port_id, p->members[m].name);
	}
	pthread_mutex_unlock(&p->mig.steer_lock);
	/* the application's rules live on the proxy, started or not */
	octopus_flows_forget_hw(p, p->members[m].port_id);
	octopus_tmpl_forget_proxy(p, p->members[m].port_id);
	pthread_mutex_unlock(mx);
}

/*
 * Member @p m, the members' transfer proxy, is released: its e-switch has
 * no manager until that port is probed again. Whatever it would deliver
 * through a rule goes by the NIC's default, past every member (counted by
 * the NIC, not here: no member sees those frames), and a NIC may refuse to
 * start its other ports (mlx5: ENODEV, "transfer proxy port is not
 * available"): said once here, again by a start that fails for it.
 */
static void
proxy_released(struct octopus_priv *p, uint16_t m)
{
	snprintf(p->proxy_gone, sizeof(p->proxy_gone), "%s", p->members[m].name);
	p->proxy_member = -1;
	rte_atomic_fetch_add_explicit(&p->proxy_releases, 1, rte_memory_order_relaxed);
	OCTO_LOG(WARNING, "port %u: member %s, the members' transfer proxy, released: its e-switch delivers to no member by rule until it is probed again; Rx only of what the NIC delivers by default, and a NIC that wants its proxy (mlx5) starts no other port without it",
		p->port_id, p->members[m].name);
}

void
octopus_member_lost(struct rte_eth_dev *dev, uint16_t m, enum octopus_member_loss why)
{
	struct octopus_priv *p = octo_priv(dev);
	struct octopus_member *mb = &p->members[m];
	enum octopus_member_loss was = rte_atomic_load_explicit(&mb->loss,
		rte_memory_order_acquire);
	uint64_t held = 0;
	int to;

	if (was == OCTO_LOSS_NONE) {
		rte_atomic_store_explicit(&mb->loss, why, rte_memory_order_release);
		rebind_member(p, m);
		quiesce(p, mb->name);
		octopus_gate_member_lost(p, m);
		/* nobody reads its rings from here: what they hold is lost */
		held = rx_held(p, m);
		mb->held_at_loss = held;
		octopus_stats_snapshot(p, m);
		rte_atomic_fetch_add_explicit(&p->outage_lost_pkts, held, rte_memory_order_relaxed);
		rte_atomic_fetch_add_explicit(&p->member_losses, 1, rte_memory_order_relaxed);
		to = octopus_member_nearest(p, mb->socket);
		OCTO_LOG(WARNING, "port %u: member %s (socket %d) out of service (%s): %" PRIu64 " packet(s) in its Rx rings lost; its queues move to %s",
			p->port_id, mb->name, mb->socket, octopus_loss_name(why), held,
			to >= 0 ? p->members[to].name : "no member (none serves)");
		if (p->started)
			sweep_request(p);
	} else if (why > was) {
		/* the graver reason is the one that says how it comes back: a
		 * member whose link went down, then asked for a reset, waits
		 * for the reset, not for its link
		 */
		rte_atomic_store_explicit(&mb->loss, why, rte_memory_order_release);
	}
	if (why == OCTO_LOSS_RELEASED && mb->state >= OCTO_MEMBER_OWNED) {
		/* its port id may name another device from now on */
		octopus_stats_keep(p, m);
		steer_forget(p, m);
		if (p->proxy_member == (int)m)
			proxy_released(p, m);
		mb->state = OCTO_MEMBER_PARSED;
	}
}

void
octopus_member_back(struct rte_eth_dev *dev, uint16_t m)
{
	struct octopus_priv *p = octo_priv(dev);
	struct octopus_member *mb = &p->members[m];
	enum octopus_member_loss was = rte_atomic_load_explicit(&mb->loss,
		rte_memory_order_acquire);
	uint64_t stale;

	/* a reset member comes back through a reset of the port, a released
	 * one through a new configure
	 */
	if ((was != OCTO_LOSS_LINK && was != OCTO_LOSS_REMOVED) ||
	    mb->state < OCTO_MEMBER_STARTED)
		return;
	/* what it held at the loss was counted lost then; more may have
	 * come in while it was out
	 */
	stale = rx_flush(p, m);
	if (stale > mb->held_at_loss)
		rte_atomic_fetch_add_explicit(&p->outage_lost_pkts, stale - mb->held_at_loss,
			rte_memory_order_relaxed);
	rte_atomic_store_explicit(&mb->loss, OCTO_LOSS_NONE, rte_memory_order_release);
	rebind_member(p, m);
	rte_atomic_fetch_add_explicit(&p->member_returns, 1, rte_memory_order_relaxed);
	OCTO_LOG(NOTICE, "port %u: member %s (socket %d) back in service (%" PRIu64 " stale packet(s) dropped); its queues return",
		p->port_id, mb->name, mb->socket, stale);
	if (p->started)
		sweep_request(p);
}
