/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * The flow gate: a rule change that moves traffic from Rx queue a to Rx
 * queue b must not let b deliver the moved flows' new packets before a has
 * delivered their older ones. The control side is here; the poller's side
 * is in octopus_rxtx.c (rx_slow).
 *
 * The gate lives in the queues' route words (octopus_internal.h), as flags
 * any migration phase can carry; writers use fetch-or/and, so phases and
 * flags never overwrite each other (every phase write is a CAS that keeps
 * them):
 *  - F_DRAIN_REQ on a gate's source queue: set by the gate (RELEASE) after
 *    bumping drain_req. The poller clears it (ACQ_REL) BEFORE reading
 *    drain_req (ACQUIRE) and starting its burst; if that burst comes back
 *    short (STEADY), it stores drain_ack = the value read (RELEASE):
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
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/membarrier.h>

#include <rte_cycles.h>
#include <rte_pause.h>

#include "octopus_internal.h"
#include "octopus_poller_watch.h"

/*
 * A full barrier on every CPU that runs a thread of this process, so that
 * a burst's entry store (burst_seq odd, octopus_rxtx.c, a plain store) is
 * seen by the caller whenever that burst may have read what the caller
 * changed before (a member's entry, a route): the pollers pay no fence.
 * Where the kernel has no membarrier, a fence here and a pause long enough
 * for any store to leave a CPU's store buffer. The failover's quiesce
 * (octopus_failover.c) and gates_settle() wait on it.
 */
void
octopus_pollers_barrier(void)
{
	static int registered;
	const struct timespec pause = { .tv_sec = 0, .tv_nsec = 1000000 };

	rte_atomic_thread_fence(rte_memory_order_seq_cst);
#ifdef __NR_membarrier
	if (registered == 0)
		registered = syscall(__NR_membarrier,
			MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0) == 0 ? 1 : -1;
	if (registered > 0 &&
	    syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0) == 0)
		return;
#endif
	nanosleep(&pause, NULL);
}

/* Packets @p q has delivered (its poller's counters). */
static uint64_t
delivered(struct octopus_queue *q)
{
	return rte_atomic_load_explicit(&q->cnt.pkts_local, rte_memory_order_relaxed) +
		rte_atomic_load_explicit(&q->cnt.pkts_remote, rte_memory_order_relaxed);
}

/* /proc/self/task/<tid>/<file> into @p buf (a string); false if unread. */
static bool
task_file(int tid, const char *file, char *buf, size_t size)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/%s", tid, file);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	return true;
}

/*
 * CPU time thread @p tid of this process has run so far (ns; the first
 * field of its schedstat), 0 when unknown; @p state: its state letter (R
 * running or waiting for a CPU, S sleeping, D blocked...), '?' unknown.
 * A slow path only: six system calls.
 */
static uint64_t
thread_sample(int tid, char *state)
{
	char buf[256], *st;
	uint64_t run;

	*state = '?';
	if (tid <= 0 || !task_file(tid, "schedstat", buf, sizeof(buf)))
		return 0;
	run = strtoull(buf, NULL, 10);
	if (!task_file(tid, "stat", buf, sizeof(buf)))
		return 0;
	/* "pid (comm) S ...": the state follows the last ')' */
	st = strrchr(buf, ')');
	if (st != NULL && st[1] == ' ')
		*state = st[2];
	return run;
}

/* The same, @p runnable: whether it is running or waiting for a CPU now. */
static uint64_t
thread_run_ns(int tid, bool *runnable)
{
	char state;
	uint64_t run = thread_sample(tid, &state);

	*runnable = run != 0 && state == 'R';
	return run;
}

/* A monotonic clock in ns, the poller watch's (a slow path only). */
static uint64_t
mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec;
}

/* A look at Rx queue @p q and its poller (octopus_poller_watch.h). */
static void
poller_obs(const struct octopus_queue *q, struct octopus_poller_obs *o)
{
	o->tid = q == NULL ? 0 : rte_atomic_load_explicit(&q->poller_tid,
		rte_memory_order_relaxed);
	o->polls = q == NULL ? 0 : octopus_queue_polls(q);
	o->run_ns = thread_run_ns(o->tid, &o->runnable);
	o->now_ns = mono_ns();
}

/*
 * The watch of a gate whose source nobody had polled when it closed (a rule
 * made before the application began to poll): its clocks start at the first
 * look of the destination's poller (the application polls by then), not at
 * the close, nor at a control thread's look (gate_deferred).
 */
#define GATE_NO_POLLER_YET	(-1)

/*
 * Look again at queue @p q's poller, which @p w watches: 0 once the queue
 * is no longer polled, else the TSC cycles before which a new look cannot
 * give up on it (a millisecond at least: a look is six system calls).
 */
static uint64_t
poller_look(const struct octopus_queue *q, struct octopus_poller_watch *w)
{
	static const struct octopus_poller_limits limits = {
		.cpu_ns = (uint64_t)OCTO_GATE_TIMEOUT_MS * 1000000,
		.still_ns = (uint64_t)OCTO_GATE_STILL_MS * 1000000,
		.stuck_ns = (uint64_t)OCTO_GATE_STUCK_MS * 1000000,
	};
	struct octopus_poller_obs o;
	uint64_t ns;

	poller_obs(q, &o);
	ns = octopus_poller_watch_look(w, &o, &limits);
	if (ns == 0)
		return 0;
	return RTE_MAX(ns / 1000, UINT64_C(1000)) * (rte_get_tsc_hz() / 1000000);
}

/*
 * The wait @p what gave up on queue @p q, its poller as @p w saw it last:
 * say why, at NOTICE (rare: a gate that gives up lets the moved flows' new
 * packets out first, and an order failure is read from it). The poller
 * now, its state (R runnable, S sleeping, D blocked...), the CPU time it
 * ran and how long it was still since the queue's last burst seen, the CPU
 * time it ran since it was first watched, and the queue's route (phase,
 * flags: a source gated itself, or migrating).
 */
static void
poller_gone_log(const char *what, const struct octopus_queue *q,
		const struct octopus_poller_watch *w)
{
	int tid = rte_atomic_load_explicit(&q->poller_tid, rte_memory_order_relaxed);
	uint64_t now = mono_ns();
	char state;

	thread_sample(tid, &state);
	OCTO_LOG(NOTICE, "%s: rxq %u given up on: poller tid %d (watched %d) state %c, "
		"ran %" PRIu64 " us and still %" PRIu64 " ms since its burst %" PRIu64 ", "
		"ran %" PRIu64 " us since watched; route %08x",
		what, q->qid, tid, w->tid, state, octopus_poller_watch_ran(w) / 1000,
		now > w->live_ns ? (now - w->live_ns) / 1000000 : 0, w->polls,
		w->run_from != 0 && w->run >= w->run_from ? (w->run - w->run_from) / 1000 : 0,
		rte_atomic_load_explicit(&q->route, rte_memory_order_relaxed));
}

/*
 * Gate @p f of @p dst is past its deadline at @p now: whether to wait
 * longer. Its source waits for the migration thread to switch its
 * requested move (it acks once that is done), or it is still polled
 * (octopus_poller_watch.h): its bursts go on, or its poller, whichever
 * thread polls it now, is descheduled, busy elsewhere or blocked for a
 * while, and comes back to drain; giving its gate up would let the moved
 * flows' new packets out first. A source no longer polled times its gates
 * out: no burst of it for OCTO_GATE_STILL_MS, while its poller ran
 * OCTO_GATE_TIMEOUT_MS of CPU time elsewhere or was still; so does one
 * polled that does not drain in OCTO_GATE_STUCK_MS of its poller's CPU
 * time (a backstop). A source nobody had polled when the gate closed is
 * waited for until the destination's poller (@p poller: the caller) has
 * looked, and from that look as any other.
 * The verdict is kept as a later deadline (gate_defer): the earliest time
 * a new look can give up.
 *
 * The watch is the gate lock's (gate_close() starts it): a caller without
 * it (@p locked) that cannot take it at once waits, and looks again at its
 * next call. @p gone gets the watch as last seen, for the log.
 */
static bool
gate_deferred(struct octopus_priv *p, struct octopus_queue *dst, unsigned int f,
		uint64_t now, bool locked, bool poller, struct octopus_poller_watch *gone)
{
	struct octopus_queue *src = p->rxq[f];
	uint64_t until = rte_atomic_load_explicit(&dst->mig.gate_defer[f],
		rte_memory_order_relaxed);
	uint64_t left;

	if (now <= until)
		return true;
	/* a migration asked for and not switched yet: the source acks once
	 * the migration thread has switched it (it takes no lock a rule
	 * change holds while it waits for this gate: steer_lock)
	 */
	if (src != NULL && p->mig.running &&
	    OCTO_ROUTE_PHASE(rte_atomic_load_explicit(&src->route, rte_memory_order_acquire)) ==
			OCTO_ROUTE_REQUESTED)
		return true;
	/* a hint outside the lock: only the destination's poller starts the
	 * clocks of a source nobody had polled (its look sees another tid)
	 */
	if (!poller && rte_atomic_load_explicit(&dst->mig.gate_watch[f].tid,
			rte_memory_order_relaxed) == GATE_NO_POLLER_YET)
		return true;
	if (!locked && !rte_spinlock_trylock(&p->mig.gate_lock))
		return true;
	left = poller_look(src, &dst->mig.gate_watch[f]);
	if (left != 0)
		rte_atomic_store_explicit(&dst->mig.gate_defer[f], now + left,
			rte_memory_order_relaxed);
	else
		*gone = dst->mig.gate_watch[f];
	if (!locked)
		rte_spinlock_unlock(&p->mig.gate_lock);
	return left != 0;
}

/*
 * Not F_GATED: the poller clears that flag for a moment in every check.
 * The poller calls it with @p expire, the control path without (a gate
 * past its deadline is open for it: its poller may not be there to notice)
 * except where it sets a new limit over the gate (gate_limit_begin, with
 * the gate lock: @p locked).
 */
static bool
gate_holds_at(struct octopus_priv *p, struct octopus_queue *dst, bool expire, bool locked)
{
	uint64_t mask = rte_atomic_load_explicit(&dst->mig.gate_mask, rte_memory_order_acquire);
	uint64_t now = 0, need, deadline;
	struct octopus_poller_watch gone;
	char what[48];
	bool holds = false;
	unsigned int f;

	while (mask != 0) {
		f = rte_ctz64(mask);
		mask &= mask - 1;
		need = rte_atomic_load_explicit(&dst->mig.gate_need[f], rte_memory_order_acquire);
		if (need == 0 || p->rxq[f] == NULL ||
		    rte_atomic_load_explicit(&p->rxq[f]->mig.drain_ack,
			rte_memory_order_acquire) >= need)
			continue;
		if (now == 0)
			now = rte_get_tsc_cycles();
		deadline = rte_atomic_load_explicit(&dst->mig.gate_deadline[f],
			rte_memory_order_relaxed);
		if (now > deadline &&
		    !gate_deferred(p, dst, f, now, locked, expire && !locked, &gone)) {
			if (!expire)
				continue;
			/* nobody drained the source: open, counted; a CAS, so
			 * that a gate renewed meanwhile is not opened with it
			 */
			if (rte_atomic_compare_exchange_strong_explicit(&dst->mig.gate_need[f],
					&need, 0, rte_memory_order_relaxed,
					rte_memory_order_relaxed)) {
				rte_atomic_fetch_add_explicit(&dst->mig.gate_timeouts, 1,
					rte_memory_order_relaxed);
				snprintf(what, sizeof(what), "gate timeout of rxq %u", dst->qid);
				poller_gone_log(what, p->rxq[f], &gone);
				continue;
			}
		}
		holds = true;
	}
	return holds;
}

bool
octopus_gate_holds(struct octopus_priv *p, struct octopus_queue *dst, bool expire)
{
	return gate_holds_at(p, dst, expire, false);
}

/*
 * Where @p dst may deliver up to while gated: its delivered count plus what
 * its hardware queues hold now, and the drain requests made to it before
 * (gate_covers), written under the seqlock gate_seq. With a gate already
 * closed on it the earlier, lower limit stays.
 *
 * The sum must not be short: once the queue has delivered up to the limit
 * it acks gate_covers, as if it had delivered everything it held. A burst
 * running meanwhile would make it short: its packets have left the ring
 * but are not in the delivered count yet, so they would be taken as
 * delivered and could come out after the moved flows' newer packets on
 * another queue. So a prepared gate takes its limit in two steps:
 * gate_limit_begin() leaves the seqlock odd (a gated burst then delivers
 * nothing and reads no ring), and gate_limit_end() reads the position once
 * gates_settle() has seen the bursts that did not see the gate end. A gate
 * closed without being prepared (octopus_gate_pair() alone) reads it at
 * once.
 */
static bool
gate_limit_begin(struct octopus_priv *p, struct octopus_queue *dst)
{
	/*
	 * A gate that gave up on its source (gate_deferred) and that its
	 * poller has not seen yet is opened and counted here: the new limit
	 * goes past the old one, so the old gate's order is given up now, and
	 * a gate closed anew on the same source would otherwise replace it
	 * uncounted (a reorder with no gate timeout).
	 */
	if (gate_holds_at(p, dst, true, true))
		return false;
	rte_atomic_store_explicit(&dst->mig.gate_seq, dst->mig.gate_seq + 1,
		rte_memory_order_relaxed);
	rte_atomic_thread_fence(rte_memory_order_release);
	return true;
}

/*
 * Whether @p dst's bursts read member @p m's hardware queue (route @p r):
 * one out of service is a stub, and a steered queue reads only its home
 * and, while it migrates, the other member of its route (REQUESTED may
 * become DRAINING before the gate opens). What the others hold is never
 * delivered through @p dst (a lost member's rings are flushed when it
 * returns): counted in the limit, it would let the destination deliver as
 * many of the moved flows' new packets while the gate holds.
 */
static bool
gate_reads(const struct octopus_queue *dst, uint32_t r, uint16_t m)
{
	if (m >= dst->nb_members ||
	    rte_atomic_load_explicit(&dst->hw[m].rx, rte_memory_order_acquire) ==
			octopus_burst_none)
		return false;
	return !dst->steered || m == OCTO_ROUTE_HOME(r) ||
		(OCTO_ROUTE_PHASE(r) != OCTO_ROUTE_STEADY && m == OCTO_ROUTE_OTHER(r));
}

static void
gate_limit_end(struct octopus_priv *p, struct octopus_queue *dst)
{
	uint64_t covers = rte_atomic_load_explicit(&dst->mig.drain_req, rte_memory_order_acquire);
	uint32_t r = rte_atomic_load_explicit(&dst->route, rte_memory_order_acquire);
	uint64_t limit = delivered(dst);
	uint16_t m;
	int c;

	for (m = 0; m < p->nb_members; m++) {
		dst->mig.gate_pos[m] = 0;
		/* a member lost or closed has no queues to count (25.11's
		 * rte_eth_rx_queue_count does not check for a closed port)
		 */
		if (p->members[m].state < OCTO_MEMBER_STARTED || !gate_reads(dst, r, m))
			continue;
		c = rte_eth_rx_queue_count(p->members[m].port_id, dst->qid);
		if (c > 0) {
			limit += (uint64_t)c;
			dst->mig.gate_pos[m] = rte_atomic_load_explicit(&dst->cnt.member_pkts[m],
				rte_memory_order_relaxed) + (uint64_t)c;
		}
	}
	rte_atomic_store_explicit(&dst->mig.gate_limit, limit, rte_memory_order_relaxed);
	rte_atomic_store_explicit(&dst->mig.gate_covers, covers, rte_memory_order_relaxed);
	rte_atomic_store_explicit(&dst->mig.gate_seq, dst->mig.gate_seq + 1,
		rte_memory_order_release);
}

static void
gate_limit_set(struct octopus_priv *p, struct octopus_queue *dst)
{
	if (gate_limit_begin(p, dst))
		gate_limit_end(p, dst);
}

/*
 * Close @p dst to traffic moved from @p q_from until @p need is acked; the
 * source and its poller as @p o saw them are watched from now on.
 */
static void
gate_close(struct octopus_queue *dst, uint16_t q_from, uint64_t need,
		const struct octopus_poller_obs *o)
{
	/* a prepared gate waits for its rule change, however long that takes */
	uint64_t deadline = need == UINT64_MAX ? UINT64_MAX : rte_get_tsc_cycles() +
		rte_get_tsc_hz() / 1000 * OCTO_GATE_TIMEOUT_MS;

	octopus_poller_watch_start(&dst->mig.gate_watch[q_from], o);
	if (need != UINT64_MAX && o->tid == 0)
		dst->mig.gate_watch[q_from].tid = GATE_NO_POLLER_YET;
	rte_atomic_store_explicit(&dst->mig.gate_defer[q_from], 0, rte_memory_order_relaxed);
	rte_atomic_store_explicit(&dst->mig.gate_deadline[q_from], deadline,
		rte_memory_order_relaxed);
	rte_atomic_store_explicit(&dst->mig.gate_need[q_from], need, rte_memory_order_release);
	rte_atomic_fetch_or_explicit(&dst->mig.gate_mask, UINT64_C(1) << q_from,
		rte_memory_order_release);
	rte_atomic_fetch_or_explicit(&dst->route, OCTO_ROUTE_F_GATED, rte_memory_order_release);
}

/*
 * Before the rule change: close @p q_to to what it receives until
 * octopus_gate_pair() or pair_cancel() (not OCTO_GATE_TIMEOUT_MS: a
 * prepared gate waits for its rule change, however long that takes).
 */
static void
pair_prepare(struct octopus_priv *p, uint16_t q_from, uint16_t q_to)
{
	struct octopus_queue *dst = octopus_queue_get(p, q_to, 0);
	const struct octopus_poller_obs none = { 0 };

	if (dst == NULL || octopus_queue_get(p, q_from, 0) == NULL || q_from == q_to)
		return;
	rte_spinlock_lock(&p->mig.gate_lock);
	/* no ack reaches UINT64_MAX: closed until octopus_gate_pair() or
	 * pair_cancel(); the limit is read by octopus_gate_prepare() once the
	 * queue's bursts settled
	 */
	gate_limit_begin(p, dst);
	gate_close(dst, q_from, UINT64_MAX, &none);
	rte_spinlock_unlock(&p->mig.gate_lock);
}

int
octopus_gate_pair(struct octopus_priv *p, uint16_t q_from, uint16_t q_to)
{
	struct octopus_queue *src = octopus_queue_get(p, q_from, 0);
	struct octopus_queue *dst = octopus_queue_get(p, q_to, 0);
	struct octopus_poller_obs o;
	uint64_t need;

	if (src == NULL || dst == NULL || q_from == q_to)
		return -EINVAL;
	/* where the source and its poller stand now (outside the lock: a
	 * read of the kernel's), for its deadline (gate_deferred)
	 */
	poller_obs(src, &o);
	rte_spinlock_lock(&p->mig.gate_lock);
	/* destination first: it must hold from now on */
	need = src->mig.drain_req + 1;
	gate_limit_set(p, dst);	/* kept if prepared: the gate is open then */
	gate_close(dst, q_from, need, &o);
	/* then ask the source for a drain observed after this point; RELEASE:
	 * a poller that reads it then loads a route at least as new as the
	 * one the rule change saw (rx_slow)
	 */
	rte_atomic_store_explicit(&src->mig.drain_req, need, rte_memory_order_release);
	rte_atomic_fetch_or_explicit(&src->route, OCTO_ROUTE_F_DRAIN_REQ, rte_memory_order_release);
	dst->mig.gates++;
	rte_spinlock_unlock(&p->mig.gate_lock);
	return 0;
}

/* The rule change did not happen: open what pair_prepare() closed. */
static void
pair_cancel(struct octopus_priv *p, uint16_t q_from, uint16_t q_to)
{
	struct octopus_queue *dst = octopus_queue_get(p, q_to, 0);
	uint64_t need = UINT64_MAX;

	if (dst == NULL || q_from >= OCTO_MIG_MAX_QUEUES)
		return;
	/* only a gate still prepared: a real one set meanwhile stays */
	rte_atomic_compare_exchange_strong_explicit(&dst->mig.gate_need[q_from], &need, 0,
		rte_memory_order_release, rte_memory_order_relaxed);
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

	return rxq != NULL && OCTO_ROUTE_HOME(rte_atomic_load_explicit(&rxq->route,
		rte_memory_order_relaxed)) != OCTOPUS_NO_HOME;
}

/* Whether Rx queue @p qid has been polled (it has a poller to wait for). */
static bool
polled(struct octopus_priv *p, uint16_t qid)
{
	struct octopus_queue *q = octopus_queue_get(p, qid, 0);

	return q != NULL && rte_atomic_load_explicit(&q->poller_lcore,
		rte_memory_order_acquire) >= 0;
}

/*
 * After the barrier, @p seq gets each destination's burst_seq: odd, it is
 * inside a burst that may have read its route before the gate closed.
 */
static void
settle_barrier(struct octopus_priv *p, const struct octopus_gate_set *s, uint64_t *seq)
{
	struct octopus_queue *q;
	uint64_t ds;
	uint16_t d;

	octopus_pollers_barrier();
	for (ds = s->dsts; ds != 0; ds &= ds - 1) {
		d = (uint16_t)rte_ctz64(ds);
		q = octopus_queue_get(p, d, 0);
		seq[d] = q == NULL ? 0 : rte_atomic_load_explicit(&q->cnt.burst_seq,
			rte_memory_order_acquire);
	}
}

/*
 * A burst that read its route before the gate closed does not see the
 * gate, and may still be reading its ring when the rule changes (its lcore
 * preempted in between): wait until each prepared destination's poller has
 * started two more bursts (the second read the route after the first one
 * ended). Microseconds for a polled queue. Past 50 us, a barrier on the
 * pollers' CPUs (the failover's, octopus_pollers_barrier) tells which
 * destinations are inside a burst (burst_seq odd): the others are done,
 * their next burst sees the gate (an application that stopped polling, as
 * testpmd's "stop", waits no more than that), and one inside is waited for
 * until that burst ends. One whose burst does not end within
 * OCTO_GATE_TIMEOUT_MS is waited for as long as its poller may come back
 * (as the source of a gate is, gate_deferred), and given up on, counted as
 * a gate timeout, once not. Queues never polled, or polled by the calling
 * thread, are not waited for.
 */
static void
gates_settle(struct octopus_priv *p, const struct octopus_gate_set *s)
{
	struct octopus_poller_watch w[OCTO_MIG_MAX_QUEUES];
	uint64_t polls[OCTO_MIG_MAX_QUEUES], seq[OCTO_MIG_MAX_QUEUES];
	uint64_t start = rte_get_tsc_cycles(), now, left;
	uint64_t spin = start + rte_get_tsc_hz() / 20000;	/* 50 us */
	uint64_t ds, deadline;
	bool barrier = false;
	struct octopus_poller_obs o;
	struct octopus_queue *q;
	uint16_t d;

	for (ds = s->dsts; ds != 0; ds &= ds - 1) {
		d = (uint16_t)rte_ctz64(ds);
		q = octopus_queue_get(p, d, 0);
		if (q == NULL)
			continue;
		poller_obs(q, &o);
		octopus_poller_watch_start(&w[d], &o);
		polls[d] = o.polls;
	}
	deadline = start + rte_get_tsc_hz() / 1000 * OCTO_GATE_TIMEOUT_MS;
	for (ds = s->dsts; ds != 0; ds &= ds - 1) {
		d = (uint16_t)rte_ctz64(ds);
		q = octopus_queue_get(p, d, 0);
		/* polled by this thread (an application that makes rules from
		 * its polling lcore): no burst of it is running, none can start
		 * while we wait
		 */
		if (!polled(p, d) || rte_atomic_load_explicit(&q->poller_tid,
				rte_memory_order_relaxed) == rte_gettid())
			continue;
		while (octopus_queue_polls(q) < polls[d] + 2) {
			now = rte_get_tsc_cycles();
			if (now >= spin && !barrier) {
				settle_barrier(p, s, seq);
				barrier = true;
			}
			/* between bursts at the barrier, or that burst ended */
			if (barrier && ((seq[d] & 1) == 0 ||
					rte_atomic_load_explicit(&q->cnt.burst_seq,
						rte_memory_order_acquire) != seq[d]))
				break;
			if (now > deadline) {
				left = poller_look(q, &w[d]);
				if (left == 0) {
					rte_atomic_store_explicit(&q->mig.gate_settle_timeouts,
						q->mig.gate_settle_timeouts + 1,
						rte_memory_order_relaxed);
					poller_gone_log("gate settle timeout", q, &w[d]);
					break;
				}
				deadline = now + left;
			}
			if (now < spin)
				rte_pause();
			else
				rte_delay_us_sleep(10);
		}
	}
}

/*
 * Whether the poller of destination @p q is away: no burst since @p polls
 * (updated) and its thread neither runs nor waits for a CPU.
 */
static bool
dst_away(const struct octopus_queue *q, uint64_t *polls)
{
	struct octopus_poller_obs o;
	uint64_t now = octopus_queue_polls(q);

	if (now != *polls) {
		*polls = now;
		return false;
	}
	poller_obs(q, &o);
	return !o.runnable;
}

void
octopus_gate_prepare(struct octopus_priv *p, struct octopus_gate_set *s)
{
	uint64_t src, sources = 0, ok = 0, ds, start, deadline, now, seen, polls;
	uint64_t away = rte_get_tsc_hz() / 1000 * OCTO_GATE_AWAY_MS;
	struct octopus_queue *q;
	uint16_t d, f;

	if (!p->started || !p->mig.running)
		s->dsts = 0;
	/* the queues gates can be kept between, each looked at once */
	for (ds = s->dsts; ds != 0; ds &= ds - 1) {
		d = (uint16_t)rte_ctz64(ds);
		sources |= s->src[d] | UINT64_C(1) << d;
	}
	for (src = sources; src != 0; src &= src - 1) {
		f = (uint16_t)rte_ctz64(src);
		if (gate_queue_ok(p, f))
			ok |= UINT64_C(1) << f;
	}
	for (ds = s->dsts; ds != 0; ds &= ds - 1) {
		d = (uint16_t)rte_ctz64(ds);
		s->src[d] &= ok & ~(UINT64_C(1) << d);
		if (!(ok & (UINT64_C(1) << d)) || s->src[d] == 0) {
			s->src[d] = 0;
			s->dsts &= ~(UINT64_C(1) << d);
		}
	}
	if (s->dsts == 0)
		return;
	/*
	 * A destination still closed by an earlier change would keep that
	 * change's limit, and the drain requests made to it since would not be
	 * covered: after moves along a cycle of queues (rotating the RETA
	 * twice) each would wait on the next, and only a timeout would end it.
	 * So wait for it to open first (not for a queue never polled): its
	 * gates do not depend on this change, and a source that waits for the
	 * migration thread is switched by it without the flow ops mutex this
	 * caller holds (steer_lock). Up to OCTO_GATE_STILL_MS: the caller may
	 * be the thread that polls a source, now or once this call returns,
	 * and a poller napping in a loop is neither still nor busy elsewhere
	 * to the watch (gate_deferred) for a long time. Not while the
	 * destination's poller is away (no burst for OCTO_GATE_AWAY_MS and
	 * not runnable: an application that stopped polling, as testpmd's
	 * "stop"), which nothing opens before it is back.
	 */
	start = rte_get_tsc_cycles();
	deadline = start + rte_get_tsc_hz() / 1000 * OCTO_GATE_STILL_MS;
	for (ds = s->dsts; ds != 0; ds &= ds - 1) {
		d = (uint16_t)rte_ctz64(ds);
		q = octopus_queue_get(p, d, 0);
		seen = start;
		polls = q == NULL ? 0 : octopus_queue_polls(q);
		while (polled(p, d)) {
			if (!gate_holds_at(p, q, false, false))
				break;
			now = rte_get_tsc_cycles();
			if (now >= deadline || (now - seen >= away && dst_away(q, &polls))) {
				OCTO_LOG(DEBUG, "port %u: rxq %u still gated after %" PRIu64 " ms%s: its limit stays",
					p->port_id, d, (now - start) / (rte_get_tsc_hz() / 1000),
					now >= deadline ? "" : ", its poller away");
				break;
			}
			if (now - seen >= away)
				seen = now;	/* polled or runnable: looked at again later */
			rte_delay_us_sleep(10);
		}
	}
	for (ds = s->dsts; ds != 0; ds &= ds - 1) {
		d = (uint16_t)rte_ctz64(ds);
		for (src = s->src[d]; src != 0; src &= src - 1)
			pair_prepare(p, (uint16_t)rte_ctz64(src), d);
	}
	gates_settle(p, s);
	/* no burst reads the ring of a prepared destination now: its limit
	 * (left odd by gate_limit_begin) is exact
	 */
	rte_spinlock_lock(&p->mig.gate_lock);
	for (ds = s->dsts; ds != 0; ds &= ds - 1) {
		struct octopus_queue *q = octopus_queue_get(p, (uint16_t)rte_ctz64(ds), 0);

		if (q != NULL && (q->mig.gate_seq & 1) != 0)
			gate_limit_end(p, q);
	}
	rte_spinlock_unlock(&p->mig.gate_lock);
}

void
octopus_gate_finish(struct octopus_priv *p, const struct octopus_gate_set *s,
		bool changed)
{
	uint64_t src, ds;
	uint16_t d, f;

	for (ds = s->dsts; ds != 0; ds &= ds - 1) {
		d = (uint16_t)rte_ctz64(ds);
		for (src = s->src[d]; src != 0; src &= src - 1) {
			f = (uint16_t)rte_ctz64(src);
			if (changed)
				octopus_gate_pair(p, f, d);
			else
				pair_cancel(p, f, d);
		}
	}
}

void
octopus_gate_member_lost(struct octopus_priv *p, uint16_t m)
{
	struct octopus_queue *q;
	uint64_t at, held, floor;
	uint16_t i;

	rte_spinlock_lock(&p->mig.gate_lock);
	for (i = 0; i < OCTO_MIG_MAX_QUEUES; i++) {
		q = p->rxq[i];
		/* odd: a prepared limit not read yet, it will skip the member */
		if (q == NULL || m >= q->nb_members || (q->mig.gate_seq & 1) != 0)
			continue;
		at = rte_atomic_load_explicit(&q->cnt.member_pkts[m], rte_memory_order_relaxed);
		if (q->mig.gate_pos[m] <= at)
			continue;
		held = q->mig.gate_pos[m] - at;
		q->mig.gate_pos[m] = at;
		floor = delivered(q);
		rte_atomic_store_explicit(&q->mig.gate_seq, q->mig.gate_seq + 1,
			rte_memory_order_relaxed);
		rte_atomic_thread_fence(rte_memory_order_release);
		rte_atomic_store_explicit(&q->mig.gate_limit, q->mig.gate_limit > floor + held ?
			q->mig.gate_limit - held : floor, rte_memory_order_relaxed);
		rte_atomic_store_explicit(&q->mig.gate_seq, q->mig.gate_seq + 1,
			rte_memory_order_release);
	}
	rte_spinlock_unlock(&p->mig.gate_lock);
}
