/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Datapath of the virtual port. Installed at probe and never swapped (the
 * ethdev layer copies the burst functions into rte_eth_fp_ops at start);
 * which member a burst uses is data, read from the queue's route word.
 *
 * Steady state per burst (the fast path): one acquire load of the route
 * compared with the route the queue's poller last found steady
 * (fast_route), one compare of the caller's (lcore, socket) key, one
 * member burst through the member's own function and queue pointers
 * resolved at start (no ethdev port lookups), and plain counter updates:
 * the queue has one poller (its burst count twice, at entry and end: see
 * burst_enter). Everything else (a new poller, a poll from another socket,
 * migration phases, gates, a member reading in steps) fails that compare
 * and takes the full path (rx_full, tx_full), which decides again whether
 * the next burst may take the fast one.
 * No locks, atomics, allocation or syscalls.
 */

#include <sched.h>
#include <string.h>

#include <numa.h>

#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_pause.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>

#include "octopus_internal.h"

/* The caller's lcore id; a non-EAL thread has none: RTE_MAX_LCORE. */
static __rte_always_inline int
caller_lcore(void)
{
	unsigned int lcore = rte_lcore_id();

	return lcore == LCORE_ID_ANY ? RTE_MAX_LCORE : (int)lcore;
}

/*
 * What a burst needs of its calling thread, in one thread-local object: in
 * a plugin every thread-local access is a call (__tls_get_addr), so a burst
 * takes its address once. (Not initial-exec: the plugin's thread-local
 * data does not fit the static TLS room glibc keeps for dlopen.)
 */
struct octo_thread {
	int socket;		/* as last looked up (-2: not yet) */
	uint32_t socket_ttl;	/* full bursts left before it is looked up again */
	int32_t poller;		/* POLLER_KEY(lcore, socket): as queues record it */
};
static __thread struct octo_thread thread_ctx = { .socket = -2, .poller = -1 };

/* Look the caller's socket up again after this many of its full bursts,
 * or of a queue's fast ones.
 */
#define SOCKET_LOOKUP_BURSTS 1024

/*
 * rte_socket_id() is a call into EAL, a large share of what the wrapper
 * would cost a burst, Rx and Tx: the answer is kept per thread and asked
 * again every SOCKET_LOOKUP_BURSTS bursts (caller_socket, full_socket), so
 * that a thread EAL re-pins to another socket (rte_thread_set_affinity)
 * is seen as polling from there soon after.
 * rte_socket_id() is SOCKET_ID_ANY for a non-EAL thread (not registered,
 * or with a cpuset spanning sockets): then where the thread runs.
 */
static __rte_noinline int
thread_socket_lookup(struct octo_thread *t)
{
	int s = (int)rte_socket_id();
	int cpu;

	if (s == SOCKET_ID_ANY) {
		cpu = sched_getcpu();
		s = cpu >= 0 && numa_available() >= 0 ? numa_node_of_cpu(cpu) : -1;
	}
	t->socket = s;
	t->socket_ttl = SOCKET_LOOKUP_BURSTS;
	t->poller = POLLER_KEY(caller_lcore(), s);
	return s;
}

/*
 * The caller's socket in a full burst, looked up again every
 * SOCKET_LOOKUP_BURSTS of them (and when a queue's fast bursts ran out:
 * full_socket). A changed socket changes the caller's poller key, which
 * the full burst notes (note_poller).
 */
static __rte_always_inline int
caller_socket(struct octo_thread *t)
{
	if (unlikely(t->socket_ttl == 0 || --t->socket_ttl == 0))
		return thread_socket_lookup(t);
	return t->socket;
}

/*
 * A queue whose setup named no socket with a member gets its home from its
 * first poller. Without steering the home only decides which member is
 * polled first / sent through, so the datapath may pick it itself; a CAS
 * keeps the phase and flags a requester or a gate may have set meanwhile.
 */
static __rte_noinline unsigned int
bind_home(struct octopus_queue *q, int sock)
{
	int near = octopus_member_nearest(q->priv, sock);
	unsigned int home = near >= 0 ? (unsigned int)near : 0;
	uint32_t cur = rte_atomic_load_explicit(&q->route, rte_memory_order_acquire);

	do {
		if (OCTO_ROUTE_HOME(cur) != OCTOPUS_NO_HOME)
			return OCTO_ROUTE_HOME(cur);
	} while (!rte_atomic_compare_exchange_strong_explicit(&q->route, &cur,
			(cur & 0xffff0000u) | OCTO_ROUTE(home, home, 0),
			rte_memory_order_release, rte_memory_order_acquire));
	return home;
}


/*
 * The queue's poller changed (or it is the first): record the current one.
 * Called only when a plain compare saw a difference, so a queue keeps one
 * poller's stores out of its steady state. poller_lcore never returns to
 * -1: whoever waits for the first poll still sees it.
 */
static __rte_noinline void
note_poller(struct octopus_queue *q, int32_t key, int sock)
{
	q->poller_key = key;
	if (!q->is_tx)
		rte_atomic_fetch_or_explicit(&q->priv->rxq_polled,
			UINT64_C(1) << (q->qid % OCTOPUS_MAX_QUEUES), rte_memory_order_relaxed);
	rte_atomic_store_explicit(&q->poller_socket, sock, rte_memory_order_relaxed);
	rte_atomic_store_explicit(&q->poller_tid, rte_gettid(), rte_memory_order_relaxed);
	rte_atomic_store_explicit(&q->poller_lcore, caller_lcore(), rte_memory_order_release);
}

/*
 * The route (one ACQUIRE load: pairs with the control thread's RELEASE
 * CAS, see octopus_migrate.c) and its home.
 */
static __rte_always_inline unsigned int
queue_home(struct octopus_queue *q, const struct octo_thread *t, int sock, uint32_t *route)
{
	uint32_t r = rte_atomic_load_explicit(&q->route, rte_memory_order_acquire);
	unsigned int home = OCTO_ROUTE_HOME(r);

	/* bind before publishing the poller (release): whoever sees the
	 * poller also sees the home it chose
	 */
	if (unlikely(home == OCTOPUS_NO_HOME)) {
		home = bind_home(q, sock);
		r = rte_atomic_load_explicit(&q->route, rte_memory_order_acquire);
	}
	/* one compare: the caller's (lcore, socket) as one word */
	if (unlikely(q->poller_key != t->poller))
		note_poller(q, t->poller, sock);
	*route = r;
	return home;
}

/*
 * Entry of a burst: burst_seq odd, before any load of the route or of
 * q->hw (the compiler keeps the order; the CPU's store-load order is the
 * control thread's to force, with membarrier: octopus_failover.c). Whoever
 * swapped a member's burst function then knows which queues may still run
 * the old one: those whose count is odd. The queue's poller is its only
 * writer: a plain increment (one instruction on x86; the control thread's
 * atomic loads see the old or the new word).
 */
static __rte_always_inline void
burst_enter(struct octopus_queue *q)
{
	q->cnt.burst_seq++;
	rte_compiler_barrier();
}

/*
 * End of a burst: counted (even again), and out of the member's code: the
 * release fence orders every load of q->hw in the burst, and the member's
 * use of its queue, before the store (on x86 only the compiler's order).
 */
static __rte_always_inline void
burst_done(struct octopus_queue *q)
{
	rte_atomic_thread_fence(rte_memory_order_release);
	q->cnt.burst_seq++;
}

/*
 * A burst from a socket other than the home's: counted, and with
 * migration=auto the queue asks to move there (a CAS and a fetch-or, once:
 * the request leaves STEADY, so later foreign bursts skip it).
 */
static __rte_noinline void
foreign_poll(struct octopus_queue *q, uint32_t r, int sock)
{
	const struct octopus_mig *pm = &q->priv->mig;
	struct octopus_qmig *m = &q->mig;
	uint64_t now;

	q->cnt.foreign_polls++;
	if (!pm->auto_mode || sock < 0 || OCTO_ROUTE_PHASE(r) != OCTO_ROUTE_STEADY)
		return;
	/*
	 * Follow a poller, not a poll: the queue moves once one lcore of
	 * the other socket has polled it alone (no other burst in between)
	 * for migrate_after ms and OCTO_MIG_MIN_POLLS bursts. A drain or a
	 * cleanup from another lcore, between the poller's bursts, never
	 * qualifies; neither does the poller's own socket-local polling.
	 */
	now = rte_get_tsc_cycles();
	if (m->cand_lcore != q->poller_lcore || m->cand_socket != sock ||
	    m->cand_next_poll != q->cnt.burst_seq) {
		m->cand_lcore = q->poller_lcore;
		m->cand_socket = sock;
		m->cand_start = now;
		m->cand_polls = 0;
	}
	m->cand_polls++;
	/* burst_seq of the next burst, inside it (odd) */
	m->cand_next_poll = q->cnt.burst_seq + 2;
	if (m->cand_polls >= OCTO_MIG_MIN_POLLS && now - m->cand_start >= pm->after_tsc)
		octopus_migrate_request(q->priv, q->qid, q->is_tx, sock, true);
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

/* DRAINING -> STEADY, by the poller (state machine step 3). */
static __rte_noinline void
migration_finish(struct octopus_queue *q)
{
	uint32_t cur = rte_atomic_load_explicit(&q->route, rte_memory_order_acquire);
	uint32_t home;

	/* counters before the RELEASE: the next request is ordered after */
	octopus_migrate_done(q, rte_get_tsc_cycles());
	do {
		home = OCTO_ROUTE_HOME(cur);
	} while (!rte_atomic_compare_exchange_strong_explicit(&q->route, &cur,
			(cur & OCTO_ROUTE_FLAGS) | OCTO_ROUTE(home, home, OCTO_ROUTE_STEADY),
			rte_memory_order_release, rte_memory_order_acquire));
}

/*
 * F_GATED: whether some gate on this queue still holds (the queue then
 * delivers nothing). The protocol is in octopus_gate.c.
 */
static __rte_noinline bool
gate_holds(struct octopus_queue *q)
{
	bool holds;

	rte_atomic_fetch_and_explicit(&q->route, ~OCTO_ROUTE_F_GATED, rte_memory_order_acq_rel);
	holds = octopus_gate_holds(q->priv, q, true);
	if (holds) {
		rte_atomic_fetch_or_explicit(&q->route, OCTO_ROUTE_F_GATED,
			rte_memory_order_release);
		q->mig.gated_bursts++;
	}
	return holds;
}

/*
 * Without steering, traffic for q may sit in q's hardware queue on any
 * member: after the home returned @p nb of @p n, poll the others so none
 * is stranded.
 */
static __rte_always_inline uint16_t
rx_others(struct octopus_queue *q, unsigned int home, int sock,
		struct rte_mbuf **pkts, uint16_t n, uint16_t nb)
{
	unsigned int m;
	uint16_t k;

	if (q->steered)
		return nb;
	for (m = 0; m < q->nb_members && nb < n; m++) {
		if (m == home)
			continue;
		k = q->hw[m].rx(q->hw[m].queue, pkts + nb, n - nb);
		count(q, m, sock, k);
		nb += k;
	}
	return nb;
}

/* The home member, then (without steering) the others. */
static __rte_always_inline uint16_t
rx_members(struct octopus_queue *q, unsigned int home, int sock,
		struct rte_mbuf **pkts, uint16_t n)
{
	uint16_t nb;

	nb = q->hw[home].rx(q->hw[home].queue, pkts, n);
	count(q, home, sock, nb);
	if (nb < n)
		nb = rx_others(q, home, sock, pkts, n, nb);
	return nb;
}

/*
 * Whether member @p m's hardware Rx queue is empty after a burst that
 * returned @p nb packets of those asked for. A short burst alone does not
 * say so: a real PMD returns short bursts with completions pending (mlx5:
 * steps of 4, the ring's end, its replenish limit, an mbuf shortage). Its
 * queue count does (compared with 0: mlx5 counts segments); where there is
 * none, only an empty burst. Slow path only (a call into the member).
 */
static bool
rx_member_empty(const struct octopus_queue *q, unsigned int m, uint16_t nb)
{
	int c;

	/* out of service: no burst reads it, what it held is lost with it */
	if (rte_atomic_load_explicit(&q->hw[m].rx, rte_memory_order_acquire) ==
			octopus_burst_none)
		return true;
	c = rte_eth_rx_queue_count(q->priv->members[m].port_id, q->qid);
	return c < 0 ? nb == 0 : c == 0;
}

/*
 * DRAINING(home = new, old): the rule already points at the new member;
 * deliver what the old member's hardware queue still holds first, and
 * read the new one only once the old one is empty (rx_member_empty).
 */
static __rte_noinline uint16_t
rx_draining(struct octopus_queue *q, uint32_t r, int sock,
		struct rte_mbuf **pkts, uint16_t n)
{
	unsigned int home = OCTO_ROUTE_HOME(r), old = OCTO_ROUTE_OTHER(r);
	uint16_t nb, k;

	nb = q->hw[old].rx(q->hw[old].queue, pkts, n);
	count(q, old, sock, nb);
	q->mig.drained_pkts += nb;
	if (nb == n || !rx_member_empty(q, old, nb))
		return nb;
	migration_finish(q);
	k = q->hw[home].rx(q->hw[home].queue, pkts + nb, n - nb);
	count(q, home, sock, k);
	return nb + k;
}

/*
 * A gated queue's allowance: how many more packets it may deliver (those
 * older than the gate), and the drain requests it may ack once they are
 * out. False when the control path is writing them (deliver nothing).
 */
static __rte_noinline bool
gate_allowance(struct octopus_queue *q, uint64_t *room, uint64_t *covers)
{
	uint32_t s0 = rte_atomic_load_explicit(&q->mig.gate_seq, rte_memory_order_acquire);
	uint64_t limit, done;

	if (s0 & 1)
		return false;
	limit = rte_atomic_load_explicit(&q->mig.gate_limit, rte_memory_order_relaxed);
	*covers = rte_atomic_load_explicit(&q->mig.gate_covers, rte_memory_order_relaxed);
	rte_atomic_thread_fence(rte_memory_order_acquire);
	if (rte_atomic_load_explicit(&q->mig.gate_seq, rte_memory_order_relaxed) != s0)
		return false;
	done = q->cnt.pkts_local + q->cnt.pkts_remote;
	*room = limit > done ? limit - done : 0;
	return true;
}

static bool tx_member_completed(struct octopus_queue *q, unsigned int m);

/* A Tx queue the calling lcore has sent through (NULL: none yet); its
 * address marks the queues it sends through (their mig.tx_owner).
 */
static __thread struct octopus_queue *lcore_txq;

/*
 * Whether every Tx queue of @p p the calling lcore sends through (each
 * queue records its sending thread) reports all it was given completed:
 * the home member, and while it drains, the old one. Every one, not only
 * the last sent through: an lcore forwarding two queues may have sent a
 * drained flow's packets through either. The check cleans the queues up.
 */
static bool
lcore_tx_completed(struct octopus_priv *p)
{
	struct octopus_queue *t;
	uint32_t r;
	uint16_t i;

	for (i = 0; i < rte_eth_devices[p->port_id].data->nb_tx_queues &&
			i < OCTOPUS_MAX_QUEUES; i++) {
		t = p->txq[i];
		if (t == NULL || rte_atomic_load_explicit(&t->mig.tx_owner,
				rte_memory_order_relaxed) != &lcore_txq)
			continue;
		r = rte_atomic_load_explicit(&t->route, rte_memory_order_acquire);
		if (OCTO_ROUTE_HOME(r) < t->nb_members &&
		    !tx_member_completed(t, OCTO_ROUTE_HOME(r)))
			return false;
		if (OCTO_ROUTE_PHASE(r) == OCTO_ROUTE_DRAINING &&
		    !tx_member_completed(t, OCTO_ROUTE_OTHER(r)))
			return false;
	}
	return true;
}

/* OCTO_TX_SETTLE_US in TSC cycles: the one bound both Tx waits use. */
static inline uint64_t
tx_settle_cycles(void)
{
	return rte_get_tsc_hz() / 1000000 * OCTO_TX_SETTLE_US;
}

/*
 * Drain request @p ack of @p rxq is served on the Rx side, and every packet
 * it covers has been handed to this lcore's Tx queues by now (the caller
 * is a later poll than the burst that returned the last of them). Returns
 * the highest request that may be acked now, 0 for none: all of @p ack when
 * every Tx queue of the lcore reports its descriptors done; else the
 * request marked at an earlier call, once OCTO_TX_SETTLE_US has passed
 * since that call (its packets were all posted before it, and a NIC has
 * read them by then: they leave ahead of anything the moved flows' new
 * queue sends; counted), @p ack being marked then in its place. A PMD that
 * asks for completions only now and then (mlx5: every 32 descriptors) may
 * never report a quiet queue done: the bound keeps its gates from timing
 * out, and never waits longer than it.
 */
static uint64_t
tx_settled(struct octopus_queue *rxq, uint64_t ack)
{
	struct octopus_qmig *m = &rxq->mig;
	uint64_t now, done;

	if (lcore_txq == NULL || lcore_tx_completed(rxq->priv)) {
		m->tx_mark_ack = 0;
		return ack;
	}
	now = rte_get_tsc_cycles();
	if (m->tx_mark_ack == 0) {
		m->tx_mark_ack = ack;
		m->tx_mark_tsc = now;
		return 0;
	}
	if (now - m->tx_mark_tsc < tx_settle_cycles())
		return 0;
	done = m->tx_mark_ack;
	rte_atomic_store_explicit(&m->tx_settle_bound_acks, m->tx_settle_bound_acks + 1,
		rte_memory_order_relaxed);
	if (ack > done) {
		m->tx_mark_ack = ack;
		m->tx_mark_tsc = now;
	} else {
		m->tx_mark_ack = 0;
	}
	return done;
}

/*
 * Drain request @p ack is served by a burst returning @p nb packets. It is
 * acked once those packets are on the wire as far as this lcore can tell:
 * at the queue's next poll when @p nb > 0 (a forwarding loop has then passed
 * them to tx_burst; F_DRAIN_REQ brings that poll to rx_slow), and once the
 * lcore's Tx queues have completed them or the Tx settle bound has passed
 * (tx_settled), so that the queue gated on this one cannot send the moved
 * flow's first packets before them.
 */
static inline void
drain_acked(struct octopus_queue *q, uint64_t ack, uint16_t nb)
{
	uint64_t done;

	if (nb == 0) {
		done = tx_settled(q, ack);
		if (done > rte_atomic_load_explicit(&q->mig.drain_ack,
				rte_memory_order_relaxed))
			rte_atomic_store_explicit(&q->mig.drain_ack, done,
				rte_memory_order_release);
		if (done >= ack)
			return;
	}
	if (ack > q->mig.ack_next)
		q->mig.ack_next = ack;
	rte_atomic_fetch_or_explicit(&q->route, OCTO_ROUTE_F_DRAIN_REQ, rte_memory_order_release);
}

/*
 * Where drain request @p ack is served: every packet the hardware queues
 * this queue reads held when the poller first saw the request (the request
 * is made after the rule change: the NIC holds no packet classified by the
 * old rules any more), as a position in each member's delivered count. A
 * short burst serves a request too, but a source that never runs empty
 * (more traffic than its poller takes) would never see one: each gate on
 * it would time out, and order be lost. Members that cannot count their
 * queue leave the request to short bursts (no position).
 */
static __rte_noinline void
drain_pos_take(struct octopus_queue *q, uint32_t r, unsigned int home, uint64_t ack)
{
	const struct octopus_priv *p = q->priv;
	unsigned int m, old = OCTO_ROUTE_PHASE(r) == OCTO_ROUTE_DRAINING ?
		OCTO_ROUTE_OTHER(r) : home;
	int c;

	q->mig.drain_pos_req = 0;
	for (m = 0; m < q->nb_members; m++) {
		q->mig.drain_pos[m] = q->cnt.member_pkts[m];
		/* the queues its bursts read, those in service */
		if ((q->steered && m != home && m != old) ||
		    rte_atomic_load_explicit(&q->hw[m].rx,
			rte_memory_order_acquire) == octopus_burst_none)
			continue;
		c = rte_eth_rx_queue_count(p->members[m].port_id, q->qid);
		if (c < 0)
			return;
		q->mig.drain_pos[m] += (uint64_t)c;
	}
	q->mig.drain_pos_req = ack;
}

/*
 * Whether the position of the request is reached. A member that left
 * service since the position was taken delivers nothing more: what it
 * held is lost with it, not waited for.
 */
static inline bool
drain_pos_reached(const struct octopus_queue *q)
{
	unsigned int m;

	for (m = 0; m < q->nb_members; m++)
		if (q->cnt.member_pkts[m] < q->mig.drain_pos[m] &&
		    rte_atomic_load_explicit(&q->hw[m].rx, rte_memory_order_acquire) !=
				octopus_burst_none)
			return false;
	return true;
}

/*
 * Whether every hardware queue a burst of @p q read (its home, or every
 * member where it is not steered; one out of service counts as empty) is
 * empty after it returned @p nb packets (rx_member_empty).
 */
static bool
rx_polled_empty(const struct octopus_queue *q, unsigned int home, uint16_t nb)
{
	unsigned int m;

	for (m = 0; m < q->nb_members; m++)
		if ((!q->steered || m == home) && !rx_member_empty(q, m, nb))
			return false;
	return true;
}

/*
 * A gated read of its allowance @p room came back empty while the queue
 * holds frames: its member reads in steps (mlx5's vector Rx: 4) and
 * swallowed a request below one. Read a full stash instead, give out the
 * @p room oldest (older than the gate) and hold the rest in held[]: they
 * may be the moved flows' new frames, given out only once the gate opens
 * (rx_held_out). Without this the queue never delivers its last frames
 * older than the gate, never acks the drain requests the gate covers, and
 * a gate waiting on it (a flow moved back) opens on its timeout.
 */
static uint16_t
rx_gated_step(struct octopus_queue *q, uint32_t r, unsigned int home, int sock,
		struct rte_mbuf **pkts, uint16_t room)
{
	uint16_t k, give;

	if (q->held_n != 0 || rx_polled_empty(q, home, 0))
		return 0;
	if (OCTO_ROUTE_PHASE(r) == OCTO_ROUTE_DRAINING && q->steered)
		k = rx_draining(q, r, sock, q->held, OCTO_RX_STASH);
	else
		k = rx_members(q, home, sock, q->held, OCTO_RX_STASH);
	give = RTE_MIN(k, room);
	memcpy(pkts, q->held, give * sizeof(*pkts));
	q->held_head = (uint8_t)give;
	q->held_n = (uint8_t)(k - give);
	/* bursts go through rx_small_read, which gives held[] out */
	if (q->held_n != 0) {
		q->rx_small = 1;
		q->fast_route = OCTO_ROUTE_NONE;
	}
	return give;
}

/* Anything but STEADY without flags: migration phases and gates. */
static __rte_noinline uint16_t
rx_slow(struct octopus_queue *q, uint32_t r, unsigned int home, int sock,
		struct rte_mbuf **pkts, uint16_t n)
{
	uint64_t ack = 0, room = 0, covers = 0;
	bool acking = false, gated = false;
	uint16_t nb, want = n;

	if (r & OCTO_ROUTE_F_DRAIN_REQ) {
		/* clear, THEN read the request: a later request re-sets it */
		rte_atomic_fetch_and_explicit(&q->route, ~OCTO_ROUTE_F_DRAIN_REQ,
			rte_memory_order_acq_rel);
		ack = rte_atomic_load_explicit(&q->mig.drain_req, rte_memory_order_acquire);
		acking = true;
		if (q->mig.ack_next > q->mig.drain_ack)
			drain_acked(q, q->mig.ack_next, 0);
		/* a request made after a migration moved the home rule, read
		 * with the route loaded before it, would be served on the old
		 * home alone while the moved rule's packets wait on the new
		 * one: serve it at the next burst, with the route it loads
		 */
		if (((rte_atomic_load_explicit(&q->route, rte_memory_order_acquire) ^ r) &
				~OCTO_ROUTE_FLAGS) != 0) {
			acking = false;
			rte_atomic_fetch_or_explicit(&q->route, OCTO_ROUTE_F_DRAIN_REQ,
				rte_memory_order_release);
		}
		/* REQUESTED: the home rule may already send to the target,
		 * which this queue reads only once DRAINING (tests/model/README.md)
		 */
		if (acking && ack > q->mig.drain_pos_req && ack > q->mig.drain_ack &&
		    OCTO_ROUTE_PHASE(r) != OCTO_ROUTE_REQUESTED)
			drain_pos_take(q, r, home, ack);
	}
	if ((r & OCTO_ROUTE_F_GATED) && gate_holds(q)) {
		/* only what is older than the gate may go */
		gated = true;
		if (!gate_allowance(q, &room, &covers))
			room = 0, covers = 0;
		want = room < n ? (uint16_t)room : n;
	}
	if (want == 0)
		nb = 0;
	else if (OCTO_ROUTE_PHASE(r) == OCTO_ROUTE_DRAINING && q->steered)
		nb = rx_draining(q, r, sock, pkts, want);
	else
		nb = rx_members(q, home, sock, pkts, want);
	if (gated && nb == 0 && want > 0)
		nb = rx_gated_step(q, r, home, sock, pkts, want);
	if (gated && nb == room && covers > q->mig.drain_ack) {
		/* all it held at the gate is out: so is all it held at
		 * any drain request made before
		 */
		drain_acked(q, covers, nb);
	}
	if (acking) {
		/* short burst: every hardware queue polled was empty after
		 * the request, so what it held then has been delivered. Not
		 * while the queue migrates: DRAINING reads the old member
		 * first, and REQUESTED may already receive on the target
		 */
		if (want > 0 && nb < want && OCTO_ROUTE_PHASE(r) == OCTO_ROUTE_STEADY &&
				rx_polled_empty(q, home, nb)) {
			if (ack > q->mig.drain_ack)
				drain_acked(q, ack, nb);
		} else if (q->held_n == 0 && q->mig.drain_pos_req > q->mig.drain_ack &&
				q->mig.drain_pos_req > q->mig.ack_next && drain_pos_reached(q)) {
			/* what it held at the request is out */
			drain_acked(q, q->mig.drain_pos_req, nb);
		}
		if (rte_atomic_load_explicit(&q->mig.drain_ack, rte_memory_order_relaxed) < ack)
			rte_atomic_fetch_or_explicit(&q->route, OCTO_ROUTE_F_DRAIN_REQ,
				rte_memory_order_release);
	}
	return nb;
}

/* A member's burst: steady, or a migration phase or gate (rx_slow). */
static __rte_always_inline uint16_t
rx_read(struct octopus_queue *q, uint32_t r, unsigned int home, int sock,
		struct rte_mbuf **pkts, uint16_t n)
{
	if (unlikely(OCTO_ROUTE_SLOW(r) != 0))
		return rx_slow(q, r, home, sock, pkts, n);
	return rx_members(q, home, sock, pkts, n);
}

/*
 * A request below OCTO_RX_STASH came back empty: whether the home member
 * swallowed it while its queue holds frames (a PMD reading in steps). Then
 * such requests go through the stash from now on. Asked once in 64 such
 * bursts: an idle queue pays for no call into the member.
 */
static __rte_noinline void
rx_step_probe(struct octopus_queue *q, unsigned int home, uint16_t n)
{
	if (n < OCTO_RX_STASH && ((q->cnt.burst_seq >> 1) & 63) == 0 && home < q->nb_members &&
	    rte_atomic_load_explicit(&q->hw[home].rx, rte_memory_order_acquire) !=
			octopus_burst_none &&
	    rte_eth_rx_queue_count(q->priv->members[home].port_id, q->qid) > 0) {
		q->rx_small = 1;
		q->fast_route = OCTO_ROUTE_NONE;
	}
}

/*
 * The stash: a request below OCTO_RX_STASH on a member that reads in
 * steps is made as one of OCTO_RX_STASH into the stash, and the bursts
 * that follow give its frames out, in order, before anything is read
 * again. The drain and the gate see only the member reads, which all ask
 * for OCTO_RX_STASH: a read that returned frames acks a drain request at
 * the queue's next read (drain_acked), which comes once the stash is
 * empty, so every frame older than the request has reached the
 * application by then; what a gated read takes is older than the gate
 * (its room), so giving it out later keeps the order too.
 */
static __rte_noinline uint16_t
rx_stashed(struct octopus_queue *q, uint32_t r, unsigned int home, int sock,
		struct rte_mbuf **pkts, uint16_t n)
{
	uint16_t k;

	if (q->stash_n == 0) {
		q->stash_head = 0;
		q->stash_n = (uint8_t)rx_read(q, r, home, sock, q->stash, OCTO_RX_STASH);
	}
	k = RTE_MIN(n, (uint16_t)q->stash_n);
	memcpy(pkts, &q->stash[q->stash_head], k * sizeof(*pkts));
	q->stash_head += k;
	q->stash_n -= k;
	return k;
}

/*
 * held[] (rx_gated_step) is older than anything still in the hardware
 * queues and newer than the gate that held it: nothing is read until it
 * is out, and it goes out once no gate holds. Meanwhile a burst serves
 * the queue's drain flags and gates without reading (rx_slow asked for
 * nothing): the drain requests its gate covers are acked from here.
 */
static __rte_noinline uint16_t
rx_held_out(struct octopus_queue *q, uint32_t r, unsigned int home, int sock,
		struct rte_mbuf **pkts, uint16_t n)
{
	uint64_t room = 0, covers;
	uint16_t k;

	if (OCTO_ROUTE_SLOW(r) != 0) {
		rx_slow(q, r, home, sock, pkts, 0);
		/* a gate closed since counts held[] as delivered (its limit
		 * is at or past it): only the one that held it keeps it
		 */
		if ((rte_atomic_load_explicit(&q->route, rte_memory_order_acquire) &
				OCTO_ROUTE_F_GATED) &&
		    (!gate_allowance(q, &room, &covers) ||
		     rte_atomic_load_explicit(&q->mig.gate_limit, rte_memory_order_relaxed) <
				q->cnt.pkts_local + q->cnt.pkts_remote))
			return 0;
	}
	k = RTE_MIN(n, (uint16_t)q->held_n);
	memcpy(pkts, &q->held[q->held_head], k * sizeof(*pkts));
	q->held_head += k;
	q->held_n -= k;
	return k;
}

/* A burst of a queue whose member reads in steps: small requests (and
 * any while the stash holds frames) through the stash.
 */
static __rte_noinline uint16_t
rx_small_read(struct octopus_queue *q, uint32_t r, unsigned int home, int sock,
		struct rte_mbuf **pkts, uint16_t n)
{
	if (q->stash_n == 0 && q->held_n != 0)
		return rx_held_out(q, r, home, sock, pkts, n);
	if (q->stash_n != 0 || n < OCTO_RX_STASH)
		return rx_stashed(q, r, home, sock, pkts, n);
	return rx_read(q, r, home, sock, pkts, n);
}

/*
 * Frees what the stash and held[] hold: the queue is stopped or released.
 * Those frames were counted received when read from their member but no
 * burst gave them out: counted (stop_freed_packets) so that the port's
 * balance still adds up.
 */
void
octopus_rx_stash_flush(struct octopus_queue *q)
{
	uint32_t n;

	if (q == NULL)
		return;
	n = (uint32_t)q->held_n + q->stash_n;
	if (q->held_n != 0)
		rte_pktmbuf_free_bulk(&q->held[q->held_head], q->held_n);
	q->held_n = 0;
	q->held_head = 0;
	if (q->stash_n != 0)
		rte_pktmbuf_free_bulk(&q->stash[q->stash_head], q->stash_n);
	q->stash_n = 0;
	q->stash_head = 0;
	if (n != 0)
		rte_atomic_fetch_add_explicit(&q->priv->stop_freed_pkts, n,
			rte_memory_order_relaxed);
}

/*
 * The calling thread as one word, read without a thread-local access (a
 * call in a plugin): on x86-64 its thread pointer (the TCB's first word
 * points to itself), elsewhere the address of its context. Unique among
 * the threads alive; a thread made later may get an ended one's (seen as
 * the same poller until the queue's next full burst).
 */
static __rte_always_inline const void *
thread_self(void)
{
#ifdef RTE_ARCH_X86_64
	const void *tp;

	__asm__ ("mov %%fs:0, %0" : "=r" (tp));
	return tp;
#else
	return &thread_ctx;
#endif
}

/*
 * Whether the burst that loaded route @p r from @p sock may be followed by
 * fast ones: the queue is steady with no flag, homed on a member of the
 * caller's socket (no foreign poll to count), and reads no stash.
 */
static __rte_always_inline void
fast_decide(struct octopus_queue *q, uint32_t r, int sock)
{
	unsigned int home = OCTO_ROUTE_HOME(r);

	if (OCTO_ROUTE_SLOW(r) == 0 && home < q->nb_members && q->rx_small == 0 &&
	    q->hw[home].socket == sock) {
		q->fast_hw = &q->hw[home];
		q->fast_pkts = &q->cnt.member_pkts[home];
		q->fast_thread = thread_self();
		q->fast_left = SOCKET_LOOKUP_BURSTS;
		q->fast_route = r;
	} else {
		q->fast_route = OCTO_ROUTE_NONE;
	}
}

/*
 * The one per-packet cost of the wrapper: mbuf->port is the virtual
 * port's, eight stores a step.
 */
static __rte_always_inline void
set_port8(struct rte_mbuf **p, uint16_t vport)
{
	p[0]->port = vport;
	p[1]->port = vport;
	p[2]->port = vport;
	p[3]->port = vport;
	p[4]->port = vport;
	p[5]->port = vport;
	p[6]->port = vport;
	p[7]->port = vport;
}

/* The usual burst size (testpmd, l3fwd, OVS): a full one of these takes
 * the fast path's straight code.
 */
#define RX_FULL_BURST 32

static __rte_always_inline void
rx_set_port(struct rte_mbuf **pkts, unsigned int nb, uint16_t vport)
{
	unsigned int i;

	for (i = 0; i + 8 <= nb; i += 8)
		set_port8(pkts + i, vport);
	for (; i < nb; i++)
		pkts[i]->port = vport;
}

/*
 * The caller's socket in a full burst. A queue's fast bursts end every
 * SOCKET_LOOKUP_BURSTS (fast_left): the caller's socket is then looked up
 * again, so that a thread EAL re-pinned to another socket is seen.
 */
static __rte_always_inline int
full_socket(struct octopus_queue *q, struct octo_thread *t)
{
	if (q->fast_left == 0)
		t->socket_ttl = 0;
	return caller_socket(t);
}

/* Any Rx burst but a fast one (octopus_rx_burst), to its end. */
static __rte_noinline uint16_t
rx_full(struct octopus_queue *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct octo_thread *t = &thread_ctx;
	int sock = full_socket(q, t);
	unsigned int home;
	uint32_t r;
	uint16_t nb;

	home = queue_home(q, t, sock, &r);
	if (unlikely(q->hw[home].socket != sock))
		foreign_poll(q, r, sock);
	if (unlikely(q->rx_small != 0)) {
		nb = rx_small_read(q, r, home, sock, pkts, n);
	} else {
		nb = rx_read(q, r, home, sock, pkts, n);
		if (unlikely(nb == 0))
			rx_step_probe(q, home, n);
	}
	fast_decide(q, r, sock);
	rx_set_port(pkts, nb, q->vport);
	burst_done(q);
	return nb;
}

/*
 * The fast path: the route is the one the queue's last full burst found
 * steady (fast_route), the caller the thread that made it (its poller,
 * on the socket it had then), and the queue's count to its next full
 * burst not run out. Anything else takes the full path.
 */
static __rte_always_inline bool
fast_burst(struct octopus_queue *q, uint32_t r)
{
	return likely(r == q->fast_route && q->fast_thread == thread_self() &&
		--q->fast_left != 0);
}

/* The home member's burst of a fast one, counted. */
static __rte_always_inline uint16_t
rx_fast_read(struct octopus_queue *q, struct rte_mbuf **pkts, uint16_t n)
{
	const struct octopus_hwq *hw = q->fast_hw;
	uint16_t nb;

	nb = hw->rx(hw->queue, pkts, n);
	*q->fast_pkts += nb;
	q->cnt.pkts_local += nb;
	return nb;
}

/*
 * The end of a fast Rx burst that is not a full one of RX_FULL_BURST: a
 * short read goes on with the other members (as rx_members), an empty one
 * may be a member reading in steps (rx_step_probe).
 */
static __rte_noinline uint16_t
rx_fast_end(struct octopus_queue *q, struct rte_mbuf **pkts, uint16_t n, uint16_t nb)
{
	/* from fast_hw, the poller's own (the control path may clear
	 * fast_route meanwhile); its socket is the caller's (a fast burst)
	 */
	unsigned int home = (unsigned int)(q->fast_hw - q->hw);

	if (nb < n)
		nb = rx_others(q, home, q->hw[home].socket, pkts, n, nb);
	if (nb == 0)
		rx_step_probe(q, home, n);
	rx_set_port(pkts, nb, q->vport);
	burst_done(q);
	return nb;
}

/* A burst that is not a full one of RX_FULL_BURST on the fast path. */
static __rte_noinline uint16_t
rx_other(struct octopus_queue *q, struct rte_mbuf **pkts, uint16_t n, bool fast)
{
	if (!fast)
		return rx_full(q, pkts, n);
	return rx_fast_end(q, pkts, n, rx_fast_read(q, pkts, n));
}

uint16_t
octopus_rx_burst(void *qp, struct rte_mbuf **pkts, uint16_t n)
{
	struct octopus_queue *q = qp;
	uint16_t nb, vport;
	uint32_t r;
	bool fast;

	burst_enter(q);
	r = rte_atomic_load_explicit(&q->route, rte_memory_order_acquire);
	fast = fast_burst(q, r);
	if (unlikely(!fast || n != RX_FULL_BURST))
		return rx_other(q, pkts, n, fast);
	nb = rx_fast_read(q, pkts, RX_FULL_BURST);
	if (unlikely(nb != RX_FULL_BURST))
		return rx_fast_end(q, pkts, RX_FULL_BURST, nb);
	vport = q->vport;
	set_port8(pkts + 0, vport);
	set_port8(pkts + 8, vport);
	set_port8(pkts + 16, vport);
	set_port8(pkts + 24, vport);
	burst_done(q);
	return RX_FULL_BURST;
}

/*
 * Whether every descriptor put on member @p m's hardware Tx queue has
 * completed: let it clean up, then ask for the descriptor status. Offset 0
 * is the next one to be completed in the NIC model's reading, the last one
 * written (nb_desc - 1) in the drivers'; both must be done. A member that
 * reports neither is taken as completed once cleaned up.
 */
static bool
tx_member_completed(struct octopus_queue *q, unsigned int m)
{
	uint16_t port = q->priv->members[m].port_id;
	int st;

	/* a member out of service completes nothing more: what it held is
	 * lost with it, and it may no longer be a port to ask
	 */
	if (!octopus_member_serving(q->priv, m))
		return true;

	rte_eth_tx_done_cleanup(port, q->qid, 0);
	st = rte_eth_tx_descriptor_status(port, q->qid, 0);
	if (st == RTE_ETH_TX_DESC_FULL)
		return false;
	if (q->nb_desc > 1 &&
	    rte_eth_tx_descriptor_status(port, q->qid, q->nb_desc - 1) == RTE_ETH_TX_DESC_FULL)
		return false;
	return true;
}

/*
 * DRAINING(home = new, old), Tx: nothing is sent through the old member
 * any more, and nothing through the new one before what the old one was
 * given has left ahead of it: once the old member reports every
 * descriptor completed, or once OCTO_TX_SETTLE_US has passed since the
 * queue's first burst in DRAINING (every post to the old member was made
 * before it: a NIC has read them by then; counted). A PMD that asks for
 * completions only now and then (mlx5: every 32 descriptors) may never
 * report done, under load or quiet. A burst with packets waits for either
 * (at most the bound, once per move); an empty one only looks. Returns
 * true once the queue is STEADY on the new member.
 */
static __rte_noinline bool
tx_draining(struct octopus_queue *q, uint32_t r, uint16_t n)
{
	const uint64_t bound = tx_settle_cycles();
	struct octopus_qmig *m = &q->mig;
	unsigned int old = OCTO_ROUTE_OTHER(r);

	if (m->tx_drain_tsc == 0)
		m->tx_drain_tsc = rte_get_tsc_cycles();
	while (!tx_member_completed(q, old)) {
		if (rte_get_tsc_cycles() - m->tx_drain_tsc >= bound) {
			rte_atomic_store_explicit(&m->tx_settle_bound_moves,
				m->tx_settle_bound_moves + 1, rte_memory_order_relaxed);
			break;
		}
		if (n == 0)
			return false;
		rte_pause();
	}
	m->tx_drain_tsc = 0;
	migration_finish(q);
	return true;
}

/*
 * The calling lcore sends through @p q: recorded for the drains its Rx
 * queues ack (tx_settled). Once per poller: its fast bursts need neither
 * store again.
 */
static __rte_always_inline void
tx_sender(struct octopus_queue *q)
{
	lcore_txq = q;
	if (unlikely(q->mig.tx_owner != &lcore_txq))
		rte_atomic_store_explicit(&q->mig.tx_owner, &lcore_txq, rte_memory_order_relaxed);
}

/* Any Tx burst but a fast one (octopus_tx_burst), to its end. */
static __rte_noinline uint16_t
tx_full(struct octopus_queue *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct octo_thread *t = &thread_ctx;
	int sock = full_socket(q, t);
	unsigned int home;
	uint32_t r;
	uint16_t nb;

	home = queue_home(q, t, sock, &r);
	if (unlikely(q->hw[home].socket != sock))
		foreign_poll(q, r, sock);
	if (unlikely(OCTO_ROUTE_PHASE(r) == OCTO_ROUTE_DRAINING) &&
	    !tx_draining(q, r, n)) {
		nb = 0;
		goto out;
	}
	nb = q->hw[home].tx(q->hw[home].queue, pkts, n);
	count(q, home, sock, nb);
out:
	tx_sender(q);
	fast_decide(q, r, sock);
	burst_done(q);
	return nb;
}

uint16_t
octopus_tx_burst(void *qp, struct rte_mbuf **pkts, uint16_t n)
{
	struct octopus_queue *q = qp;
	const struct octopus_hwq *hw;
	uint32_t r;
	uint16_t nb;

	burst_enter(q);
	r = rte_atomic_load_explicit(&q->route, rte_memory_order_acquire);
	if (unlikely(!fast_burst(q, r)))
		return tx_full(q, pkts, n);
	hw = q->fast_hw;
	nb = hw->tx(hw->queue, pkts, n);
	*q->fast_pkts += nb;
	q->cnt.pkts_local += nb;
	burst_done(q);
	return nb;
}

/*
 * Point @p q's entry for member @p m at the member's burst function and
 * queue when it serves and is started, else at the absent stubs. The
 * function pointer is stored atomically: pollers may be running.
 */
void
octopus_queue_member_bind(struct octopus_queue *q, uint16_t m)
{
	struct octopus_member *mb = &q->priv->members[m];
	struct rte_eth_dev *md;

	/* a fast burst counts its packets local without looking */
	if (q->hw[m].socket != mb->socket) {
		q->hw[m].socket = mb->socket;
		q->fast_route = OCTO_ROUTE_NONE;
	}
	if (mb->state < OCTO_MEMBER_STARTED || !octopus_member_serving(q->priv, m)) {
		if (q->is_tx)
			rte_atomic_store_explicit(&q->hw[m].tx, octopus_burst_none,
				rte_memory_order_release);
		else
			rte_atomic_store_explicit(&q->hw[m].rx, octopus_burst_none,
				rte_memory_order_release);
		return;
	}
	md = &rte_eth_devices[mb->port_id];
	if (q->is_tx) {
		q->hw[m].queue = md->data->tx_queues[q->qid];
		rte_atomic_store_explicit(&q->hw[m].tx, md->tx_pkt_burst, rte_memory_order_release);
	} else {
		q->hw[m].queue = md->data->rx_queues[q->qid];
		rte_atomic_store_explicit(&q->hw[m].rx, md->rx_pkt_burst, rte_memory_order_release);
	}
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
	uint16_t i;

	for (i = 0; i < p->nb_members; i++)
		octopus_queue_member_bind(q, i);
	q->nb_members = p->nb_members;
	q->fast_route = OCTO_ROUTE_NONE;
}
