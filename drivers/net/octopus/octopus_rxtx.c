/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Datapath of the virtual port. Installed at probe and never swapped (the
 * ethdev layer copies the burst functions into rte_eth_fp_ops at start);
 * which member a burst uses is data, read from the queue's route word.
 *
 * Steady state per burst: one relaxed load of the route, one TLS read of
 * the caller's socket (rte_socket_id), one member burst through the
 * member's own function and queue pointers resolved at start (no ethdev
 * port lookups), and plain counter updates: the queue has one poller.
 * No locks, atomics, allocation or syscalls.
 */

#include <sched.h>

#include <numa.h>

#include <rte_lcore.h>
#include <rte_mbuf.h>

#include "octopus_internal.h"

/* Socket of a thread EAL knows nothing about; -2: not looked up yet. */
static __thread int thread_socket = -2;

/*
 * rte_socket_id() is SOCKET_ID_ANY for a non-EAL thread (not registered,
 * or with a cpuset spanning sockets): ask where the thread runs, once per
 * thread. A thread is expected to stay on its socket, as lcores do.
 */
static __rte_noinline int
thread_socket_lookup(void)
{
	int cpu = sched_getcpu();
	int node = cpu >= 0 && numa_available() >= 0 ? numa_node_of_cpu(cpu) : -1;

	thread_socket = node;
	return node;
}

/* The caller's socket: one TLS read in the common (EAL lcore) case. */
static __rte_always_inline int
caller_socket(void)
{
	int s = (int)rte_socket_id();

	if (likely(s != SOCKET_ID_ANY))
		return s;
	return thread_socket != -2 ? thread_socket : thread_socket_lookup();
}

/*
 * A queue whose setup named no socket with a member gets its home from its
 * first poller. Without steering the home only decides which member is
 * polled first / sent through, so the datapath may pick it itself; the
 * single poller is the only writer of the route then.
 */
static __rte_noinline unsigned int
bind_home(struct octopus_queue *q, int sock)
{
	unsigned int m, home = 0;

	for (m = 0; m < q->nb_members; m++)
		if (q->hw[m].socket == sock) {
			home = m;
			break;
		}
	__atomic_store_n(&q->route, OCTO_ROUTE(home, home, OCTO_ROUTE_STEADY),
		__ATOMIC_RELAXED);
	return home;
}

static __rte_noinline void
note_first_poller(struct octopus_queue *q, int sock)
{
	unsigned int lcore = rte_lcore_id();

	q->poller_socket = sock;
	/* a non-EAL thread has no lcore id: recorded as RTE_MAX_LCORE */
	__atomic_store_n(&q->poller_lcore,
		lcore == LCORE_ID_ANY ? RTE_MAX_LCORE : (int)lcore, __ATOMIC_RELEASE);
}

static __rte_always_inline unsigned int
queue_home(struct octopus_queue *q, int sock)
{
	unsigned int home = OCTO_ROUTE_HOME(__atomic_load_n(&q->route, __ATOMIC_RELAXED));

	/* bind before publishing the poller (release): whoever sees the
	 * poller also sees the home it chose
	 */
	if (unlikely(home == OCTOPUS_NO_HOME))
		home = bind_home(q, sock);
	if (unlikely(q->poller_lcore < 0))
		note_first_poller(q, sock);
	q->cnt.polls++;
	return home;
}

static __rte_always_inline void
count(struct octopus_queue *q, unsigned int m, int sock, uint16_t nb)
{
	q->cnt.member_pkts[m] += nb;
	if (likely(q->hw[m].socket == sock))
		q->cnt.pkts_local += nb;
	else
		q->cnt.pkts_remote += nb;
}

uint16_t
octopus_rx_burst(void *qp, struct rte_mbuf **pkts, uint16_t n)
{
	struct octopus_queue *q = qp;
	int sock = caller_socket();
	unsigned int home = queue_home(q, sock);
	const uint16_t vport = q->vport;
	unsigned int m;
	uint16_t nb, k, i;

	if (unlikely(q->hw[home].socket != sock))
		q->cnt.foreign_polls++;
	nb = q->hw[home].rx(q->hw[home].queue, pkts, n);
	count(q, home, sock, nb);
	/* Without steering, traffic for q may sit in q's hardware queue on
	 * any member: poll the others after the home so none is stranded.
	 */
	if (!q->steered && nb < n) {
		for (m = 0; m < q->nb_members && nb < n; m++) {
			if (m == home)
				continue;
			k = q->hw[m].rx(q->hw[m].queue, pkts + nb, n - nb);
			count(q, m, sock, k);
			nb += k;
		}
	}
	/* The one per-packet cost of the wrapper: measured at 4.5-7 cycles
	 * per packet over net_null on the test VM, the rest of the burst
	 * being within noise of a direct call (see README.md). Unrolling,
	 * hoisting or fencing did not change it.
	 */
	for (i = 0; i < nb; i++)
		pkts[i]->port = vport;
	return nb;
}

uint16_t
octopus_tx_burst(void *qp, struct rte_mbuf **pkts, uint16_t n)
{
	struct octopus_queue *q = qp;
	int sock = caller_socket();
	unsigned int home = queue_home(q, sock);
	uint16_t nb;

	if (unlikely(q->hw[home].socket != sock))
		q->cnt.foreign_polls++;
	nb = q->hw[home].tx(q->hw[home].queue, pkts, n);
	count(q, home, sock, nb);
	return nb;
}

/*
 * Resolve the member burst functions and queue pointers of @p q. Called
 * at start, after every member is started (a PMD may choose its burst
 * function in dev_start).
 */
void
octopus_queue_bind(struct octopus_queue *q)
{
	struct octopus_priv *p = q->priv;
	struct octopus_member *m;
	struct rte_eth_dev *md;
	uint16_t i;

	OCTO_FOREACH_MEMBER(p, i, m) {
		md = &rte_eth_devices[m->port_id];
		if (q->is_tx) {
			q->hw[i].tx = md->tx_pkt_burst;
			q->hw[i].queue = md->data->tx_queues[q->qid];
		} else {
			q->hw[i].rx = md->rx_pkt_burst;
			q->hw[i].queue = md->data->rx_queues[q->qid];
		}
		q->hw[i].socket = m->socket;
	}
	q->nb_members = p->nb_members;
}
