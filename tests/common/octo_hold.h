/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTO_HOLD_H
#define OCTO_HOLD_H

/*
 * Queues that move between pollers under the test's control: owner[q] is
 * the lcore that polls queue q, holder[q] is 1 while an lcore is inside a
 * burst of q, so that the test can wait for a queue's last burst from its
 * old lcore.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_cycles.h>
#include <rte_lcore.h>

#include <octopus_dpdk_compat.h>

/*
 * Hold queue @p q for lcore @p me when it is the queue's owner and no one
 * holds it; whether it does (release it with octo_hold_release()). The
 * owner is looked at again once held: an lcore descheduled between its
 * look and the hold would otherwise poll once from its old socket long
 * after a move, a remote poll the tests would blame on the port.
 */
static inline bool
octo_hold(int *owner, int *holder, uint16_t q, int me)
{
	int zero = 0;

	if (rte_atomic_load_explicit(&owner[q], rte_memory_order_acquire) != me ||
	    !rte_atomic_compare_exchange_strong_explicit(&holder[q], &zero, 1,
			rte_memory_order_acquire, rte_memory_order_relaxed))
		return false;
	if (rte_atomic_load_explicit(&owner[q], rte_memory_order_acquire) == me)
		return true;
	rte_atomic_store_explicit(&holder[q], 0, rte_memory_order_release);
	return false;
}

/* The end of a burst of queue @p q held by octo_hold(). */
static inline void
octo_hold_release(int *holder, uint16_t q)
{
	rte_atomic_store_explicit(&holder[q], 0, rte_memory_order_release);
}

/*
 * The poller of an lcore: until *@p stop, each queue of the @p nb_q it
 * holds polled once a round by @p poll (which returns the packets it
 * took); after a round with none, a 50 us sleep when @p idle_sleep (more
 * pollers than CPUs).
 */
static inline void
octo_hold_poll(int *owner, int *holder, uint16_t nb_q, volatile int *stop,
		uint64_t (*poll)(uint16_t q), bool idle_sleep)
{
	int me = (int)rte_lcore_id();
	uint64_t got;
	uint16_t q;

	while (!*stop) {
		got = 0;
		for (q = 0; q < nb_q; q++) {
			if (!octo_hold(owner, holder, q, me))
				continue;
			got += poll(q);
			octo_hold_release(holder, q);
		}
		if (got == 0 && idle_sleep)
			rte_delay_us_sleep(50);
	}
}

#endif /* OCTO_HOLD_H */
