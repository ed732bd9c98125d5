/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Queue migration: control side (requests, control thread, flow gates).
 * The datapath side is in octopus_rxtx.c.
 *
 * State machine of one virtual queue, all of it in the queue's route word
 * (home | old << 8 | phase << 16 | flags << 24, see octopus_internal.h):
 *
 *   STEADY(h, h) --request--> REQUESTED(h, t) --control--> DRAINING(t, h)
 *        ^                         |                            |
 *        |<------ control ---------+  (t == h, rule refused,    |
 *        |        (no steering: Rx switches at once)            |
 *        +<------------------ datapath: old drained ------------+
 *
 * 1. STEADY -> REQUESTED(h, t): the requester (the queue's own poller on a
 *    foreign poll when migration=auto, or the API on any thread) CASes the
 *    route from STEADY; t, the target member, rides in the old-member field,
 *    so two racing requesters cannot mix their targets: one CAS wins. The
 *    winner then writes req_tsc/automatic and sets the queue's bit in
 *    mig.pending with RELEASE; the control thread takes the bits with an
 *    ACQUIRE exchange, so it sees req_tsc. The datapath keeps serving from
 *    h while REQUESTED.
 * 2. REQUESTED -> DRAINING(t, h): the control thread (only writer of this
 *    transition) first replaces q's home rule (octopus_steer_set_home:
 *    when it returns, the NIC holds no packet classified by the old rule
 *    still in flight, so everything for q from now on lands in t), then
 *    CASes the route with RELEASE. The poller's ACQUIRE load of the route
 *    sees DRAINING; there is no data to hand over but the word itself.
 *    Without steering (Rx) there is nothing to drain: the control thread
 *    goes to STEADY(t, t) directly (only the polling order changes).
 * 3. DRAINING(t, h) -> STEADY(t, t): the poller, only writer of this
 *    transition. Rx: it reads only h until a burst of h returns fewer than
 *    asked (h's hardware queue was empty after the switch: every packet
 *    that went there before the switch has been delivered), then t, in the
 *    same burst after h's last packets. Tx: it keeps sending through h until
 *    h reports every descriptor completed (tx_done_cleanup, then
 *    tx_descriptor_status), then sends through t. It writes the counters
 *    (octopus_migrate_done) and then CASes to STEADY with RELEASE; the next
 *    request's CAS reads STEADY (ACQUIRE) and so the next counter writer
 *    is ordered after this one.
 * In STEADY with no flag the datapath does one ACQUIRE load of the route per
 * burst (a plain load on x86/arm64 ldar) and nothing else.
 *
 * Flags, which any phase can carry; writers use fetch-or/and, so phases
 * and flags never overwrite each other (every phase write is a CAS that
 * keeps the flags):
 *  - F_DRAIN_REQ on a gate's source queue: set by the gate (RELEASE) after
 *    bumping drain_req. The poller clears it (ACQ_REL) BEFORE reading
 *    drain_req (ACQUIRE) and starting its burst; if that burst comes back
 *    short (not DRAINING), it stores drain_ack = the value read (RELEASE):
 *    at once when the burst returned nothing and its lcore's Tx queue has
 *    completed, else (ack_next) at a later poll once that holds, the flag
 *    set again to bring that poll here; a burst that is not short sets the
 *    flag again. A source that never runs empty is served by position
 *    instead: at the first poll that sees a request the poller notes what
 *    its hardware queues hold (drain_pos), and once it has delivered that
 *    much it acks as a short burst would. A gate that bumps drain_req after
 *    the poller's clear sets the flag after it too, so it is never lost.
 *  - F_GATED on a gate's destination queue: set by the gate (RELEASE) after
 *    storing gate_deadline, gate_need (RELEASE) and the source bit in
 *    gate_mask. The poller clears it (ACQ_REL), then reads the mask and, per
 *    source, gate_need (ACQUIRE, so the matching deadline is seen) and the
 *    source's drain_ack (ACQUIRE); while one gate is not satisfied or timed
 *    out it sets the flag again and delivers nothing. A gate added during
 *    that check sets the flag after the poller cleared it: seen next burst.
 *    While gated the queue may still deliver what its hardware queues held
 *    when the first open gate closed it (gate_limit, a position in its
 *    delivered count: those packets are older than any moved flow's), and
 *    once there it acks the drain requests made to it before (gate_covers):
 *    two queues gated on each other (a flow moved a -> b -> a) so both
 *    progress instead of waiting for the timeout. limit/covers are a pair
 *    under a seqlock (gate_seq); a reader that sees it odd or changing
 *    delivers nothing that burst. A prepared gate keeps it odd until the
 *    destination's bursts settled, so that the limit is exact (see
 *    gate_limit_begin()).
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <semaphore.h>

#include <rte_cycles.h>
#include <rte_lcore.h>
#include <rte_pause.h>

#include "octopus_migrate.h"

void
octopus_migrate_init(struct octopus_mig *m, bool auto_mode, uint32_t after_ms)
{
	memset(m, 0, sizeof(*m));
	m->auto_mode = auto_mode;
	m->after_tsc = rte_get_tsc_hz() / 1000 * after_ms;
	rte_spinlock_init(&m->gate_lock);
}

/* ---- requests --------------------------------------------------------- */

int
octopus_migrate_request(struct octopus_priv *p, uint16_t qid, int tx, int socket,
		bool automatic)
{
	int target = octopus_member_by_socket(p, socket);

	if (octopus_queue_get(p, qid, tx) == NULL)
		return -EINVAL;
	if (!p->mig.running)
		return -EIO;
	if (target < 0)
		return -EINVAL;
	return octopus_migrate_request_member(p, qid, tx, target, automatic);
}

int
octopus_migrate_request_member(struct octopus_priv *p, uint16_t qid, int tx,
		unsigned int target, bool automatic)
{
	struct octopus_queue *q = octopus_queue_get(p, qid, tx);
	uint32_t cur, want;

	if (q == NULL || !octopus_member_serving(p, target))
		return -EINVAL;
	if (!p->mig.running)
		return -EIO;
	cur = __atomic_load_n(&q->route, __ATOMIC_ACQUIRE);
	do {
		if (OCTO_ROUTE_PHASE(cur) != OCTO_ROUTE_STEADY)
			return -EBUSY;
		if (OCTO_ROUTE_HOME(cur) == (unsigned int)target)
			return -EALREADY;
		want = (cur & OCTO_ROUTE_FLAGS) |
			OCTO_ROUTE(OCTO_ROUTE_HOME(cur), target, OCTO_ROUTE_REQUESTED);
	} while (!__atomic_compare_exchange_n(&q->route, &cur, want, false,
			__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
	/* only the CAS winner gets here: single writer until the control
	 * thread takes the pending bit (RELEASE below, ACQUIRE there)
	 */
	q->mig.req_tsc = rte_get_tsc_cycles();
	q->mig.automatic = automatic;
	__atomic_fetch_or(&p->mig.pending[tx ? 1 : 0], UINT64_C(1) << qid,
		__ATOMIC_RELEASE);
	octopus_migrate_wake(p);
	return 0;
}

/* Latency histogram bucket of @p us microseconds. */
static unsigned int
hist_bucket(uint64_t us)
{
	unsigned int b = us == 0 ? 0 : 64 - __builtin_clzll(us);

	return b < OCTO_MIG_HIST ? b : OCTO_MIG_HIST - 1;
}

void
octopus_migrate_done(struct octopus_queue *q, uint64_t now)
{
	struct octopus_qmig *m = &q->mig;
	uint64_t ns = (now - m->req_tsc) * 1000000000ull / rte_get_tsc_hz();

	/* single writer (see the state machine); relaxed stores so that
	 * readers on other threads never see a torn value
	 */
	__atomic_store_n(&m->last_ns, ns, __ATOMIC_RELAXED);
	if (ns > m->max_ns)
		__atomic_store_n(&m->max_ns, ns, __ATOMIC_RELAXED);
	__atomic_store_n(&m->hist[hist_bucket(ns / 1000)],
		m->hist[hist_bucket(ns / 1000)] + 1, __ATOMIC_RELAXED);
	__atomic_store_n(&m->migrations, m->migrations + 1, __ATOMIC_RELAXED);
}

/* CAS a REQUESTED route to @p next, keeping the flags. */
static void
route_from_requested(struct octopus_queue *q, uint32_t next)
{
	uint32_t cur = __atomic_load_n(&q->route, __ATOMIC_ACQUIRE);

	while (!__atomic_compare_exchange_n(&q->route, &cur,
			(cur & OCTO_ROUTE_FLAGS) | next, false,
			__ATOMIC_RELEASE, __ATOMIC_ACQUIRE))
		;
}

/* The control thread's part of one request (step 2 of the state machine). */
static void
migrate_one(struct octopus_priv *p, struct octopus_queue *q)
{
	uint32_t r = __atomic_load_n(&q->route, __ATOMIC_ACQUIRE);
	unsigned int home = OCTO_ROUTE_HOME(r), target = OCTO_ROUTE_OTHER(r);
	int ret;

	if (OCTO_ROUTE_PHASE(r) != OCTO_ROUTE_REQUESTED)
		return;
	if (!octopus_member_serving(p, target)) {
		/* the target left service since the request: stay, unless
		 * the home left too (then the failover sweep moves it)
		 */
		route_from_requested(q, OCTO_ROUTE(home, home, OCTO_ROUTE_STEADY));
		__atomic_store_n(&p->mig.failover, 1, __ATOMIC_RELEASE);
		return;
	}
	if (home == OCTOPUS_NO_HOME || home == target) {
		/* never polled (Tx / no steering): nothing to drain */
		route_from_requested(q, OCTO_ROUTE(target, target, OCTO_ROUTE_STEADY));
		if (home != target)
			octopus_migrate_done(q, rte_get_tsc_cycles());
		return;
	}
	if (!q->is_tx && !q->steered) {
		/* every member is polled anyway: only the order changes */
		octopus_migrate_done(q, rte_get_tsc_cycles());
		route_from_requested(q, OCTO_ROUTE(target, target, OCTO_ROUTE_STEADY));
		return;
	}
	if (!q->is_tx) {
		/* the app's flow ops on the port change the same rule set:
		 * ethdev serialises them with this mutex (the port does not
		 * claim RTE_ETH_DEV_FLOW_OPS_THREAD_SAFE), so take it too
		 */
		pthread_mutex_t *mx = &rte_eth_devices[p->port_id].data->flow_ops_mutex;

		pthread_mutex_lock(mx);
		ret = p->steer != NULL ?
			octopus_steer_set_home(p->steer, q->qid, target) : -ENODEV;
		pthread_mutex_unlock(mx);
		if (ret < 0) {
			OCTO_LOG(ERR, "port %u: Rx queue %u: moving the home rule to member %u failed: %s",
				p->port_id, q->qid, target, rte_strerror(-ret));
			q->mig.failures++;
			route_from_requested(q, OCTO_ROUTE(home, home, OCTO_ROUTE_STEADY));
			return;
		}
	}
	/* before the RELEASE: the poller's counters come after it */
	__atomic_store_n(&q->mig.last_switch_ns, (rte_get_tsc_cycles() - q->mig.req_tsc) *
		1000000000ull / rte_get_tsc_hz(), __ATOMIC_RELAXED);
	route_from_requested(q, OCTO_ROUTE(target, home, OCTO_ROUTE_DRAINING));
}

/* ---- control thread --------------------------------------------------- */

/*
 * Wake the control thread: a request or a sweep is pending. A post the
 * thread is not waiting for is counted and makes its next wait return at
 * once, so none is lost. A system call only when the thread sleeps.
 */
void
octopus_migrate_wake(struct octopus_priv *p)
{
	sem_post(&p->mig.wake);
}

/*
 * The control thread sleeps until woken (no timer while nothing is asked:
 * it costs the pollers' CPUs nothing in a steady run), and takes the
 * pending requests and failover sweeps.
 */
static void *
migrate_thread(void *arg)
{
	struct octopus_priv *p = arg;
	const struct timespec retry = { .tv_sec = 0, .tv_nsec = 50000 };
	uint64_t bits;
	unsigned int t, i;
	bool worked, again;

	while (!__atomic_load_n(&p->mig.stop, __ATOMIC_ACQUIRE)) {
		worked = false;
		again = __atomic_exchange_n(&p->mig.failover, 0, __ATOMIC_ACQUIRE) &&
			octopus_failover_sweep(p);
		for (t = 0; t < 2; t++) {
			bits = __atomic_exchange_n(&p->mig.pending[t], 0, __ATOMIC_ACQUIRE);
			while (bits != 0) {
				i = __builtin_ctzll(bits);
				bits &= bits - 1;
				if (octopus_queue_get(p, i, t) != NULL)
					migrate_one(p, octopus_queue_get(p, i, t));
				worked = true;
			}
		}
		if (again) {
			/* a queue was busy moving: sweep again shortly */
			__atomic_store_n(&p->mig.failover, 1, __ATOMIC_RELAXED);
			nanosleep(&retry, NULL);
		} else if (!worked) {
			while (sem_wait(&p->mig.wake) != 0 && errno == EINTR)
				;
		}
	}
	return NULL;
}

/* STEADY at the current home, no flag, no gate: for (re)start. */
static void
queue_reset(struct octopus_queue *q)
{
	unsigned int home;

	if (q == NULL)
		return;
	home = OCTO_ROUTE_HOME(q->route);
	q->route = OCTO_ROUTE(home, home, OCTO_ROUTE_STEADY);
	q->mig.gate_mask = 0;
	q->mig.gate_limit = 0;
	q->mig.gate_covers = 0;
	q->mig.drain_req = 0;
	q->mig.drain_ack = 0;
	q->mig.ack_next = 0;
	q->mig.drain_pos_req = 0;
}

int
octopus_migrate_start(struct octopus_priv *p)
{
	char name[RTE_MAX_THREAD_NAME_LEN];
	uint16_t i;
	int ret;

	for (i = 0; i < OCTOPUS_MAX_QUEUES; i++) {
		queue_reset(p->rxq[i]);
		queue_reset(p->txq[i]);
	}
	p->mig.pending[0] = 0;
	p->mig.pending[1] = 0;
	p->mig.failover = 0;
	sem_init(&p->mig.wake, 0, 0);
	p->mig.stop = 0;
	snprintf(name, sizeof(name), "octo-mig-%u", p->port_id);
	ret = rte_ctrl_thread_create(&p->mig.thread, name, NULL, migrate_thread, p);
	if (ret != 0) {
		OCTO_LOG(ERR, "port %u: cannot start the migration thread (%d)",
			p->port_id, ret);
		return -ret;
	}
	/* requests are refused until here: the thread takes them */
	__atomic_store_n(&p->mig.running, true, __ATOMIC_RELEASE);
	return 0;
}

void
octopus_migrate_stop(struct octopus_priv *p)
{
	if (!p->mig.running)
		return;
	__atomic_store_n(&p->mig.running, false, __ATOMIC_RELEASE);
	__atomic_store_n(&p->mig.stop, 1, __ATOMIC_RELEASE);
	octopus_migrate_wake(p);
	pthread_join(p->mig.thread, NULL);
	sem_destroy(&p->mig.wake);
}

/* ---- flow gates ------------------------------------------------------- */

/* Packets @p q has delivered (its poller's counters). */
static uint64_t
delivered(struct octopus_queue *q)
{
	return __atomic_load_n(&q->cnt.pkts_local, __ATOMIC_RELAXED) +
		__atomic_load_n(&q->cnt.pkts_remote, __ATOMIC_RELAXED);
}

/*
 * Whether a gate on @p dst has not opened yet (nor timed out: its poller
 * may not be there to notice). Not F_GATED: the poller clears that flag for
 * a moment in every check.
 */
static bool
gate_closed(struct octopus_priv *p, struct octopus_queue *dst)
{
	uint64_t mask = __atomic_load_n(&dst->mig.gate_mask, __ATOMIC_ACQUIRE), need;
	uint64_t now = rte_get_tsc_cycles();
	unsigned int f;

	while (mask != 0) {
		f = __builtin_ctzll(mask);
		mask &= mask - 1;
		need = __atomic_load_n(&dst->mig.gate_need[f], __ATOMIC_ACQUIRE);
		if (need != 0 && p->rxq[f] != NULL &&
		    __atomic_load_n(&p->rxq[f]->mig.drain_ack, __ATOMIC_ACQUIRE) < need &&
		    now <= __atomic_load_n(&dst->mig.gate_deadline[f], __ATOMIC_RELAXED))
			return true;
	}
	return false;
}

/*
 * Where @p dst may deliver up to while gated: its delivered count plus what
 * its hardware queues hold now, and the drain requests made to it before
 * (gate_covers), written under the seqlock gate_seq. With a gate already
 * closed on it the earlier, lower limit stays.
 *
 * The sum must not be short: once the queue has delivered up to the limit
 * it acks gate_covers, as if it had delivered everything it held. A burst
 * running meanwhile breaks that: its packets already left the ring (not in
 * the count) but not yet in the delivered count (added once the burst has
 * them), and the limit then falls short by that burst: 32 old packets were
 * left behind the ack and came out after the moved flows' newer ones on
 * another queue (test_octopus_flow_move order, under CPU load). So a
 * prepared gate takes its limit in two steps: gate_limit_begin() leaves the
 * seqlock odd (a gated burst then delivers nothing and reads no ring), and
 * gate_limit_end() reads the position once gates_settle() has seen the
 * bursts that did not see the gate end. A gate closed only after the
 * change (not prepared) reads it at once, as before.
 */
static bool
gate_limit_begin(struct octopus_priv *p, struct octopus_queue *dst)
{
	if (gate_closed(p, dst))
		return false;
	__atomic_store_n(&dst->mig.gate_seq, dst->mig.gate_seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	return true;
}

static void
gate_limit_end(struct octopus_priv *p, struct octopus_queue *dst)
{
	uint64_t covers = __atomic_load_n(&dst->mig.drain_req, __ATOMIC_ACQUIRE);
	uint64_t limit = delivered(dst);
	uint16_t m;
	int c;

	for (m = 0; m < p->nb_members; m++) {
		c = rte_eth_rx_queue_count(p->members[m].port_id, dst->qid);
		if (c > 0)
			limit += (uint64_t)c;
	}
	__atomic_store_n(&dst->mig.gate_limit, limit, __ATOMIC_RELAXED);
	__atomic_store_n(&dst->mig.gate_covers, covers, __ATOMIC_RELAXED);
	__atomic_store_n(&dst->mig.gate_seq, dst->mig.gate_seq + 1, __ATOMIC_RELEASE);
}

static void
gate_limit_set(struct octopus_priv *p, struct octopus_queue *dst)
{
	if (gate_limit_begin(p, dst))
		gate_limit_end(p, dst);
}

/* Close @p dst to traffic moved from @p q_from until @p need is acked. */
static void
gate_close(struct octopus_queue *dst, uint16_t q_from, uint64_t need)
{
	/* a prepared gate waits for its rule change, however long that takes */
	uint64_t deadline = need == UINT64_MAX ? UINT64_MAX : rte_get_tsc_cycles() +
		rte_get_tsc_hz() / 1000 * OCTO_GATE_TIMEOUT_MS;

	__atomic_store_n(&dst->mig.gate_deadline[q_from], deadline, __ATOMIC_RELAXED);
	__atomic_store_n(&dst->mig.gate_need[q_from], need, __ATOMIC_RELEASE);
	__atomic_fetch_or(&dst->mig.gate_mask, UINT64_C(1) << q_from, __ATOMIC_RELEASE);
	__atomic_fetch_or(&dst->route, OCTO_ROUTE_F_GATED, __ATOMIC_RELEASE);
}

int
octopus_migrate_gate_prepare(struct octopus_priv *p, uint16_t q_from, uint16_t q_to)
{
	struct octopus_queue *src = octopus_queue_get(p, q_from, 0);
	struct octopus_queue *dst = octopus_queue_get(p, q_to, 0);

	if (src == NULL || dst == NULL || q_from == q_to)
		return -EINVAL;
	rte_spinlock_lock(&p->mig.gate_lock);
	/* no ack reaches UINT64_MAX: closed until octopus_migrate_gate() or
	 * octopus_migrate_gate_cancel(); the limit is read by
	 * octopus_migrate_gates_prepare() once the queue's bursts settled
	 */
	gate_limit_begin(p, dst);
	gate_close(dst, q_from, UINT64_MAX);
	rte_spinlock_unlock(&p->mig.gate_lock);
	return 0;
}

int
octopus_migrate_gate(struct octopus_priv *p, uint16_t q_from, uint16_t q_to)
{
	struct octopus_queue *src = octopus_queue_get(p, q_from, 0);
	struct octopus_queue *dst = octopus_queue_get(p, q_to, 0);
	uint64_t need;

	if (src == NULL || dst == NULL || q_from == q_to)
		return -EINVAL;
	rte_spinlock_lock(&p->mig.gate_lock);
	/* destination first: it must hold from now on */
	need = src->mig.drain_req + 1;
	gate_limit_set(p, dst);	/* kept if prepared: the gate is open then */
	gate_close(dst, q_from, need);
	/* then ask the source for a drain observed after this point */
	__atomic_store_n(&src->mig.drain_req, need, __ATOMIC_RELAXED);
	__atomic_fetch_or(&src->route, OCTO_ROUTE_F_DRAIN_REQ, __ATOMIC_RELEASE);
	dst->mig.gates++;
	rte_spinlock_unlock(&p->mig.gate_lock);
	return 0;
}

void
octopus_migrate_gate_cancel(struct octopus_priv *p, uint16_t q_from, uint16_t q_to)
{
	struct octopus_queue *dst = octopus_queue_get(p, q_to, 0);
	uint64_t need = UINT64_MAX;

	if (dst == NULL || q_from >= OCTO_MIG_MAX_QUEUES)
		return;
	/* only a gate still prepared: a real one set meanwhile stays */
	__atomic_compare_exchange_n(&dst->mig.gate_need[q_from], &need, 0, false,
		__ATOMIC_RELEASE, __ATOMIC_RELAXED);
}

/*
 * Whether gates between @p q and other queues can be kept: it is set up
 * and has a home (a queue set up on no member's socket gets one from its
 * first poller).
 */
static bool
gate_queue_ok(struct octopus_priv *p, uint16_t q)
{
	struct octopus_queue *rxq = octopus_queue_get(p, q, 0);

	return rxq != NULL && OCTO_ROUTE_HOME(__atomic_load_n(&rxq->route,
		__ATOMIC_RELAXED)) != OCTOPUS_NO_HOME;
}

/* Whether Rx queue @p qid has been polled (it has a poller to wait for). */
static bool
polled(struct octopus_priv *p, uint16_t qid)
{
	struct octopus_queue *q = octopus_queue_get(p, qid, 0);

	return q != NULL && __atomic_load_n(&q->poller_lcore, __ATOMIC_ACQUIRE) >= 0;
}

/*
 * A burst that read its route before the gate closed does not see the
 * gate, and may still be reading its ring when the rule changes (its lcore
 * preempted in between): wait until each prepared destination's poller has
 * started two more bursts (the second read the route after the first one
 * ended). Microseconds for a polled queue; a queue whose poller does not
 * come back within OCTO_GATE_TIMEOUT_MS is given up on, counted as a gate
 * timeout. Queues never polled are not waited for.
 */
static void
gates_settle(struct octopus_priv *p, const struct octopus_gate_set *s)
{
	uint64_t polls[OCTO_MIG_MAX_QUEUES], start = rte_get_tsc_cycles(), now;
	uint64_t deadline = start + rte_get_tsc_hz() / 1000 * OCTO_GATE_TIMEOUT_MS;
	uint64_t spin = start + rte_get_tsc_hz() / 20000;	/* 50 us */
	uint64_t wait = s->dsts & ~s->late, ds;
	struct octopus_queue *q;
	uint16_t d;

	for (ds = wait; ds != 0; ds &= ds - 1) {
		d = (uint16_t)__builtin_ctzll(ds);
		q = octopus_queue_get(p, d, 0);
		if (q != NULL)
			polls[d] = __atomic_load_n(&q->cnt.polls, __ATOMIC_ACQUIRE);
	}
	for (ds = wait; ds != 0; ds &= ds - 1) {
		d = (uint16_t)__builtin_ctzll(ds);
		q = octopus_queue_get(p, d, 0);
		if (!polled(p, d))
			continue;
		while (__atomic_load_n(&q->cnt.polls, __ATOMIC_ACQUIRE) < polls[d] + 2) {
			now = rte_get_tsc_cycles();
			if (now > deadline) {
				__atomic_store_n(&q->mig.gate_settle_timeouts,
					q->mig.gate_settle_timeouts + 1, __ATOMIC_RELAXED);
				break;
			}
			if (now < spin)
				rte_pause();
			else
				rte_delay_us_sleep(10);
		}
	}
}

void
octopus_migrate_gates_prepare(struct octopus_priv *p, struct octopus_gate_set *s)
{
	uint64_t src, sources = 0, ok = 0, ds, deadline;
	uint16_t d, f;

	s->late = 0;
	if (!p->started || !p->mig.running)
		s->dsts = 0;
	/* the queues gates can be kept between, each looked at once */
	for (ds = s->dsts; ds != 0; ds &= ds - 1) {
		d = (uint16_t)__builtin_ctzll(ds);
		sources |= s->src[d] | UINT64_C(1) << d;
	}
	for (src = sources; src != 0; src &= src - 1) {
		f = (uint16_t)__builtin_ctzll(src);
		if (gate_queue_ok(p, f))
			ok |= UINT64_C(1) << f;
	}
	sources = 0;
	for (ds = s->dsts; ds != 0; ds &= ds - 1) {
		d = (uint16_t)__builtin_ctzll(ds);
		s->src[d] &= ok & ~(UINT64_C(1) << d);
		if (!(ok & (UINT64_C(1) << d)) || s->src[d] == 0) {
			s->src[d] = 0;
			s->dsts &= ~(UINT64_C(1) << d);
		}
		sources |= s->src[d];
	}
	if (s->dsts == 0)
		return;
	/*
	 * A destination still closed by an earlier change would keep that
	 * change's limit, and the drain requests made to it since would not be
	 * covered: after moves along a cycle of queues (rotating the RETA
	 * twice) each would wait on the next until the timeout. So wait for it
	 * to open first (the timeout at most; not for a queue never polled):
	 * its gates do not depend on this change.
	 */
	deadline = rte_get_tsc_cycles() + rte_get_tsc_hz() / 1000 * OCTO_GATE_TIMEOUT_MS;
	for (ds = s->dsts; ds != 0; ds &= ds - 1) {
		d = (uint16_t)__builtin_ctzll(ds);
		while (polled(p, d) && gate_closed(p, octopus_queue_get(p, d, 0)) &&
		       rte_get_tsc_cycles() < deadline)
			rte_delay_us_sleep(10);
	}
	for (ds = s->dsts; ds != 0; ds &= ds - 1) {
		d = (uint16_t)__builtin_ctzll(ds);
		/*
		 * A queue that is a source too is closed after the change, by
		 * octopus_migrate_gate(): closed now, it could not count the
		 * drain request the change makes to it as covered, and two
		 * such queues would wait on each other until the timeout.
		 */
		if (sources & (UINT64_C(1) << d)) {
			s->late |= UINT64_C(1) << d;
			continue;
		}
		for (src = s->src[d]; src != 0; src &= src - 1)
			octopus_migrate_gate_prepare(p, (uint16_t)__builtin_ctzll(src), d);
	}
	gates_settle(p, s);
	/* no burst reads the ring of a prepared destination now: its limit
	 * (left odd by gate_limit_begin) is exact
	 */
	rte_spinlock_lock(&p->mig.gate_lock);
	for (ds = s->dsts & ~s->late; ds != 0; ds &= ds - 1) {
		struct octopus_queue *q = octopus_queue_get(p, (uint16_t)__builtin_ctzll(ds), 0);

		if (q != NULL && (q->mig.gate_seq & 1) != 0)
			gate_limit_end(p, q);
	}
	rte_spinlock_unlock(&p->mig.gate_lock);
}

void
octopus_migrate_gates_finish(struct octopus_priv *p, const struct octopus_gate_set *s,
		bool changed)
{
	uint64_t src, ds;
	uint16_t d, f;

	for (ds = s->dsts; ds != 0; ds &= ds - 1) {
		d = (uint16_t)__builtin_ctzll(ds);
		for (src = s->src[d]; src != 0; src &= src - 1) {
			f = (uint16_t)__builtin_ctzll(src);
			if (changed)
				octopus_migrate_gate(p, f, d);
			else if (!(s->late & (UINT64_C(1) << d)))
				octopus_migrate_gate_cancel(p, f, d);
		}
	}
}
