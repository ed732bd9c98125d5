/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/* The read-side protocol (readers with and without an lcore id) and the
 * grace period that lets the control path free what readers may still
 * hold.
 */

#include <limits.h>
#include <stdbool.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>
#include <sys/syscall.h>

#include <rte_cycles.h>
#include <rte_pause.h>

#include "octonic_esw_internal.h"

/* Which anonymous epoch counter this thread incremented (-1: none).  A
 * thread is inside at most one e-switch's read section at a time.
 */
static __thread int sw_anon_slot = -1;

void
octonic_eswitch_reader_enter(struct octonic_eswitch *sw)
{
	unsigned int lc = rte_lcore_id();

	if (lc < RTE_MAX_LCORE) {
		if (!sw->lcore_registered[lc]) {
			rte_rcu_qsbr_thread_register(sw->qsbr, lc);
			sw->lcore_registered[lc] = 1;
		}
		rte_rcu_qsbr_thread_online(sw->qsbr, lc);
		return;
	}
	/* No lcore id: count ourselves in the current epoch.  seq_cst so the
	 * increment is ordered before every load of the published state.
	 */
	sw_anon_slot = (int)(rte_atomic_load_explicit(&sw->anon_epoch,
			rte_memory_order_seq_cst) & 1);
	rte_atomic_fetch_add_explicit(&sw->anon_cnt[sw_anon_slot], 1, rte_memory_order_seq_cst);
}

/* Wake the writer sleeping in sw_wait_step(), if there is one. */
static void
sw_wake_writer(struct octonic_eswitch *sw)
{
	/*
	 * Pairs with the writer's fence between setting writer_sleeps and
	 * looking at the readers: either it sees this reader gone, or this
	 * reader sees it asleep. A fence per section (online has one too),
	 * a system call only when a writer sleeps.
	 */
	rte_atomic_thread_fence(rte_memory_order_seq_cst);
	if (unlikely(rte_atomic_load_explicit(&sw->writer_sleeps,
			rte_memory_order_relaxed) != 0) &&
			rte_atomic_exchange_explicit(&sw->writer_sleeps, 0,
				rte_memory_order_relaxed) != 0)
		/* not FUTEX_PRIVATE: the e-switch is in shared memory, and
		 * another process's lcore may run the engine
		 */
		syscall(SYS_futex, &sw->writer_sleeps, FUTEX_WAKE, INT_MAX, NULL,
			NULL, 0);
}

void
octonic_eswitch_reader_leave(struct octonic_eswitch *sw)
{
	unsigned int lc = rte_lcore_id();

	if (lc < RTE_MAX_LCORE) {
		rte_rcu_qsbr_thread_offline(sw->qsbr, lc);
	} else if (sw_anon_slot >= 0) {
		rte_atomic_fetch_sub_explicit(&sw->anon_cnt[sw_anon_slot], 1,
			rte_memory_order_release);
		sw_anon_slot = -1;
	}
	sw_wake_writer(sw);
}

/*
 * How long a writer spins for the readers before it sleeps until one
 * leaves. A running engine leaves its section within microseconds (one
 * pass of at most OCTONIC_ENGINE_RX_BATCHES bursts); a longer wait means
 * the reader's thread is not running, and spinning on would keep it off
 * the CPU when the writer shares that CPU with it.
 */
#define SW_SPIN_NS 10000
/* Sleeps are cut at this, in case a wake is missed (none should be: see
 * sw_wake_writer()); each cut costs the writer a wake-up.
 */
#define SW_SLEEP_NS 10000000

struct sw_wait_state {
	uint64_t spin_until;
	uint64_t sleeps;
};

/* Whether lcore readers that were inside when @p token was taken left. */
static bool
lcores_done(struct octonic_eswitch *sw, uint64_t token)
{
	return rte_rcu_qsbr_check(sw->qsbr, token, false) == 1;
}

/* Whether anonymous readers of epoch slot @p old left. */
static bool
anon_done(struct octonic_eswitch *sw, uint64_t old)
{
	return rte_atomic_load_explicit(&sw->anon_cnt[old], rte_memory_order_acquire) == 0;
}

/*
 * One step of waiting for readers: spin while within the spin budget,
 * else sleep until a reader leaves its section (sw_wake_writer), or at
 * most SW_SLEEP_NS. Then the caller checks again.
 */
static void
sw_wait_step(struct octonic_eswitch *sw, struct sw_wait_state *w,
		bool (*done)(struct octonic_eswitch *, uint64_t), uint64_t arg)
{
	const struct timespec cap = { .tv_sec = 0, .tv_nsec = SW_SLEEP_NS };

	if (rte_get_tsc_cycles() < w->spin_until) {
		rte_pause();
		return;
	}
	rte_atomic_store_explicit(&sw->writer_sleeps, 1, rte_memory_order_relaxed);
	/* see sw_wake_writer() */
	rte_atomic_thread_fence(rte_memory_order_seq_cst);
	if (!done(sw, arg)) {
		/* returns at once if a reader cleared the word meanwhile */
		syscall(SYS_futex, &sw->writer_sleeps, FUTEX_WAIT, 1, &cap, NULL, 0);
		w->sleeps++;
	}
	rte_atomic_store_explicit(&sw->writer_sleeps, 0, rte_memory_order_relaxed);
}

/*
 * Wait until no reader can hold anything unpublished before this call.
 * Lcores: QSBR (offline lcores are not waited for).  Anonymous threads:
 * flip the epoch and drain the old counter, twice, so that a reader that
 * read the epoch just before a flip is drained by the other round.
 *
 * The wait is for readers inside their section when it began, and it
 * does not hold a CPU while one of them is off its CPU (descheduled in
 * the middle of a pass, for instance by this very thread when both share
 * a CPU): after SW_SPIN_NS it sleeps until the reader leaves. A writer
 * that kept spinning there would hold the CPU its reader needs to leave,
 * so a rule change would wait for the scheduler's time slice.
 * Called with sw->lock held (the statistics are under it).
 */
void
octonic_esw_synchronize(struct octonic_eswitch *sw)
{
	uint64_t start = rte_get_tsc_cycles(), ns, token;
	struct sw_wait_state w = {
		.spin_until = start + rte_get_tsc_hz() / (1000000000 / SW_SPIN_NS),
		.sleeps = 0,
	};
	int round;

	token = rte_rcu_qsbr_start(sw->qsbr);
	while (!lcores_done(sw, token))
		sw_wait_step(sw, &w, lcores_done, token);
	for (round = 0; round < 2; round++) {
		uint32_t old = rte_atomic_fetch_add_explicit(&sw->anon_epoch, 1,
			rte_memory_order_seq_cst) & 1;

		while (!anon_done(sw, old))
			sw_wait_step(sw, &w, anon_done, old);
	}
	ns = (rte_get_tsc_cycles() - start) * 1000000000ull / rte_get_tsc_hz();
	sw->stats.grace_periods++;
	sw->stats.grace_wait_ns += ns;
	if (ns > sw->stats.grace_wait_max_ns)
		sw->stats.grace_wait_max_ns = ns;
	sw->stats.grace_sleeps += w.sleeps != 0;
}
