/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Queue migration: control side (requests, control thread, failover sweep).
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
 *    same burst after h's last packets. Tx: it sends nothing more through
 *    h, and through t once h reports every descriptor completed
 *    (tx_done_cleanup, then tx_descriptor_status) or the Tx settle bound
 *    has passed since its first burst in DRAINING (octopus_rxtx.c,
 *    tx_draining: a burst with packets waits that long at most, once per
 *    move). It writes the counters
 *    (octopus_migrate_done) and then CASes to STEADY with RELEASE; the next
 *    request's CAS reads STEADY (ACQUIRE) and so the next counter writer
 *    is ordered after this one.
 * In STEADY with no flag the datapath does one ACQUIRE load of the route per
 * burst (a plain load on x86/arm64 ldar) and nothing else. The flags, which
 * any phase can carry, belong to the flow gate (octopus_gate.c).
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <semaphore.h>

#include <rte_cycles.h>
#include <rte_lcore.h>

#include "octopus_internal.h"

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
	const struct octopus_queue *q = octopus_queue_get(p, qid, tx);

	if (q == NULL)
		return -EINVAL;
	if (!p->mig.running)
		return -EIO;
	if (target < 0)
		return -EINVAL;
	/* pinned by rte_eth_dev_map_aggr_tx_affinity: only failover moves it */
	if (q->tx_affinity != 0)
		return -EPERM;
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
	cur = rte_atomic_load_explicit(&q->route, rte_memory_order_acquire);
	do {
		if (OCTO_ROUTE_PHASE(cur) != OCTO_ROUTE_STEADY)
			return -EBUSY;
		if (OCTO_ROUTE_HOME(cur) == (unsigned int)target)
			return -EALREADY;
		want = (cur & OCTO_ROUTE_FLAGS) |
			OCTO_ROUTE(OCTO_ROUTE_HOME(cur), target, OCTO_ROUTE_REQUESTED);
	} while (!rte_atomic_compare_exchange_strong_explicit(&q->route, &cur, want,
		rte_memory_order_acq_rel, rte_memory_order_acquire));
	/* only the CAS winner gets here: single writer until the control
	 * thread takes the pending bit (RELEASE below, ACQUIRE there)
	 */
	q->mig.req_tsc = rte_get_tsc_cycles();
	q->mig.automatic = automatic;
	rte_atomic_fetch_or_explicit(&p->mig.pending[tx ? 1 : 0], UINT64_C(1) << qid,
		rte_memory_order_release);
	octopus_migrate_wake(p);
	return 0;
}

/* Latency histogram bucket of @p us microseconds. */
static unsigned int
hist_bucket(uint64_t us)
{
	unsigned int b = rte_fls_u64(us);

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
	rte_atomic_store_explicit(&m->last_ns, ns, rte_memory_order_relaxed);
	if (ns > m->max_ns)
		rte_atomic_store_explicit(&m->max_ns, ns, rte_memory_order_relaxed);
	rte_atomic_store_explicit(&m->hist[hist_bucket(ns / 1000)],
		m->hist[hist_bucket(ns / 1000)] + 1, rte_memory_order_relaxed);
	rte_atomic_store_explicit(&m->migrations, m->migrations + 1, rte_memory_order_relaxed);
}

/* CAS a REQUESTED route to @p next, keeping the flags. */
static void
route_from_requested(struct octopus_queue *q, uint32_t next)
{
	uint32_t cur = rte_atomic_load_explicit(&q->route, rte_memory_order_acquire);

	while (!rte_atomic_compare_exchange_strong_explicit(&q->route, &cur,
			(cur & OCTO_ROUTE_FLAGS) | next,
			rte_memory_order_release, rte_memory_order_acquire))
		;
}

/* The control thread's part of one request (step 2 of the state machine). */
static void
migrate_one(struct octopus_priv *p, struct octopus_queue *q)
{
	uint32_t r = rte_atomic_load_explicit(&q->route, rte_memory_order_acquire);
	unsigned int home = OCTO_ROUTE_HOME(r), target = OCTO_ROUTE_OTHER(r);
	int ret;

	if (OCTO_ROUTE_PHASE(r) != OCTO_ROUTE_REQUESTED)
		return;
	if (!octopus_member_serving(p, target)) {
		/* the target left service since the request: stay, unless
		 * the home left too (then the failover sweep moves it)
		 */
		route_from_requested(q, OCTO_ROUTE(home, home, OCTO_ROUTE_STEADY));
		rte_atomic_store_explicit(&p->mig.failover, 1, rte_memory_order_release);
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
		/* RETA updates change the same plan; not the flow ops mutex:
		 * a gated rule change holds it while it waits for this switch
		 * (its source REQUESTED, octopus_gate_prepare)
		 */
		pthread_mutex_lock(&p->mig.steer_lock);
		ret = p->steer != NULL ?
			octopus_steer_set_home(p->steer, q->qid, target) : -ENODEV;
		pthread_mutex_unlock(&p->mig.steer_lock);
		if (ret < 0) {
			OCTO_LOG(ERR, "port %u: Rx queue %u: moving the home rule to member %u failed: %s",
				p->port_id, q->qid, target, rte_strerror(-ret));
			q->mig.failures++;
			route_from_requested(q, OCTO_ROUTE(home, home, OCTO_ROUTE_STEADY));
			return;
		}
	}
	/* before the RELEASE: the poller's counters come after it */
	rte_atomic_store_explicit(&q->mig.last_switch_ns, (rte_get_tsc_cycles() - q->mig.req_tsc) *
		1000000000ull / rte_get_tsc_hz(), rte_memory_order_relaxed);
	route_from_requested(q, OCTO_ROUTE(target, home, OCTO_ROUTE_DRAINING));
}

/* ---- control thread --------------------------------------------------- */

void
octopus_migrate_wake(struct octopus_priv *p)
{
	sem_post(&p->mig.wake);
}

/*
 * Failover's part in this thread (step 4 in octopus_failover.c): move
 * queues off members out of service, and the ones it moved back once their
 * member serves again.
 * @return true when a queue was busy migrating: sweep again later.
 */
static bool
failover_sweep(struct octopus_priv *p)
{
	struct octopus_queue *q;
	unsigned int t, i, home, back;
	bool again = false;
	uint32_t r;
	int to;

	for (t = 0; t < 2; t++)
		for (i = 0; i < OCTOPUS_MAX_QUEUES; i++) {
			q = t ? p->txq[i] : p->rxq[i];
			if (q == NULL)
				continue;
			r = rte_atomic_load_explicit(&q->route, rte_memory_order_acquire);
			home = OCTO_ROUTE_HOME(r);
			if (home == OCTOPUS_NO_HOME)
				continue;
			if (!octopus_member_serving(p, home)) {
				to = octopus_member_nearest(p, q->poller_socket >= 0 ?
					q->poller_socket : p->members[home].socket);
				if (to < 0)
					continue;	/* nothing serves: wait */
				if (octopus_migrate_request_member(p, i, t, to, false) != 0) {
					again = true;
					continue;
				}
				if (q->mig.displaced_from == 0)
					q->mig.displaced_from = home + 1;
				continue;
			}
			if (q->mig.displaced_from == 0)
				continue;
			back = q->mig.displaced_from - 1;
			if (back == home) {
				q->mig.displaced_from = 0;
				continue;
			}
			if (!octopus_member_serving(p, back))
				continue;
			if (q->poller_socket >= 0 && q->tx_affinity == 0 &&
			    q->poller_socket == p->members[home].socket &&
			    q->poller_socket != p->members[back].socket) {
				/* its poller moved meanwhile: it is home */
				q->mig.displaced_from = 0;
				continue;
			}
			if (octopus_migrate_request_member(p, i, t, back, false) == 0)
				q->mig.displaced_from = 0;
			else
				again = true;
		}
	return again;
}

/*
 * The control thread sleeps until woken (no timer while nothing is asked:
 * it costs the pollers' CPUs nothing in a steady run), and takes the
 * pending requests and failover sweeps.
 */
static uint32_t
migrate_thread(void *arg)
{
	struct octopus_priv *p = arg;
	const struct timespec retry = { .tv_sec = 0, .tv_nsec = 50000 };
	uint64_t bits;
	unsigned int t, i;
	bool worked, again;

	while (!rte_atomic_load_explicit(&p->mig.stop, rte_memory_order_acquire)) {
		worked = false;
		again = rte_atomic_exchange_explicit(&p->mig.failover, 0,
			rte_memory_order_acquire) &&
			failover_sweep(p);
		for (t = 0; t < 2; t++) {
			bits = rte_atomic_exchange_explicit(&p->mig.pending[t], 0,
				rte_memory_order_acquire);
			while (bits != 0) {
				i = rte_ctz64(bits);
				bits &= bits - 1;
				if (octopus_queue_get(p, i, t) != NULL)
					migrate_one(p, octopus_queue_get(p, i, t));
				worked = true;
			}
		}
		if (again) {
			/* a queue was busy moving: sweep again shortly */
			rte_atomic_store_explicit(&p->mig.failover, 1, rte_memory_order_relaxed);
			nanosleep(&retry, NULL);
		} else if (!worked) {
			while (sem_wait(&p->mig.wake) != 0 && errno == EINTR)
				;
		}
	}
	return 0;
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
	q->mig.tx_drain_tsc = 0;
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
	/* "dpdk-omig-<port>": the prefix comes with an internal thread */
	snprintf(name, sizeof(name), "omig-%u", p->port_id);
	ret = rte_thread_create_internal_control(&p->mig.thread, name, migrate_thread, p);
	if (ret != 0)
		return OCTO_ERR(-ret, "port %u: cannot start the migration thread (%d)",
			p->port_id, ret);
	/* requests are refused until here: the thread takes them */
	rte_atomic_store_explicit(&p->mig.running, true, rte_memory_order_release);
	return 0;
}

void
octopus_migrate_stop(struct octopus_priv *p)
{
	if (!p->mig.running)
		return;
	rte_atomic_store_explicit(&p->mig.running, false, rte_memory_order_release);
	rte_atomic_store_explicit(&p->mig.stop, 1, rte_memory_order_release);
	octopus_migrate_wake(p);
	rte_thread_join(p->mig.thread, NULL);
	sem_destroy(&p->mig.wake);
}
