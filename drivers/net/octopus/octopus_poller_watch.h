/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTOPUS_POLLER_WATCH_H
#define OCTOPUS_POLLER_WATCH_H

/*
 * Whether an Rx queue is still polled, for the flow gate's waits
 * (octopus_gate.c): a gate waits for its source queue's poller to drain,
 * gates_settle() for a destination's poller to make two more bursts. Both
 * wait for as long as the queue is polled, however slowly, and give up
 * only on a queue the application no longer polls, which may never come
 * back. What tells one from the other on a loaded host:
 *
 *  - the queue's bursts go on: polled (however few, and whatever its
 *    poller does in between);
 *  - its poller changed (another thread polls it now): that thread is
 *    watched from now on, with a clock of its own;
 *  - its poller runs or waits for a CPU (state R), and has run less than
 *    the CPU limit since the queue's last burst: descheduled or busy
 *    elsewhere for a while, it comes back;
 *  - its poller sleeps or is blocked (a page fault, a lock, a pipe) but ran
 *    since the last look, or has been still for less than the still limit:
 *    it comes back too.
 *
 * The queue is given up on when it has not been polled for the still limit
 * at least (a thread that took it over may not have polled it yet, starved
 * on another CPU) and meanwhile its poller ran the CPU limit without
 * polling it (it polls other queues, or spins elsewhere), or for the still
 * limit neither polled it, nor ran, nor was runnable (it sleeps for good,
 * or the queue never had a poller). A descheduled poller is never given up
 * on: it gets no CPU time, so it cannot run the limit.
 * And, a backstop, when the queue is polled but its poller ran the stuck
 * limit since it was first watched without the wait ending: a queue that
 * is polled and still does not drain waits on something that polling does
 * not bring (gates that wait on each other), and only giving up ends it.
 *
 * The decision alone, on what the caller sampled (the poller's thread from
 * the queue, its CPU time and state from /proc, a monotonic clock): no
 * EAL, no system call, unit-tested on its own.
 */

#include <stdbool.h>
#include <stdint.h>

/** One look at a queue and its poller. */
struct octopus_poller_obs {
	int tid;		/**< the thread that polls it (poller_tid), 0: none yet */
	uint64_t polls;		/**< the queue's bursts so far */
	uint64_t run_ns;	/**< that thread's CPU time (ns), 0: unknown */
	bool runnable;		/**< it runs or waits for a CPU (state R) */
	uint64_t now_ns;	/**< when (a monotonic clock, ns) */
};

/** What a wait knows of a queue's poller. */
struct octopus_poller_watch {
	int tid;		/**< the thread watched, 0: none */
	uint64_t polls;		/**< the queue's bursts at the last look */
	uint64_t run_from;	/**< the thread's CPU time when first watched (ns) */
	uint64_t run0;		/**< its CPU time at the queue's last burst seen (ns) */
	uint64_t run;		/**< its CPU time at the last look (ns) */
	uint64_t live_ns;	/**< the last look that found it polling, running or runnable */
	uint64_t polled_ns;	/**< the last look that found the queue polled since */
};

/** The limits of a wait (ns). */
struct octopus_poller_limits {
	uint64_t cpu_ns;	/**< CPU time its poller may run without polling it */
	/** time unpolled at least, and while its poller neither runs nor is runnable */
	uint64_t still_ns;
	uint64_t stuck_ns;	/**< CPU time its poller may run polling it, not drained */
};

/** Start watching the queue of @p o: it is polled as of now. */
void octopus_poller_watch_start(struct octopus_poller_watch *w,
		const struct octopus_poller_obs *o);

/**
 * Look at the queue again (@p o) and update @p w, against limits @p l.
 *
 * @return
 *   0: give up (the queue is no longer polled, or the backstop); else the
 *   time (ns) before which a new look cannot give up (the next look is
 *   worth making then).
 */
uint64_t octopus_poller_watch_look(struct octopus_poller_watch *w,
		const struct octopus_poller_obs *o, const struct octopus_poller_limits *l);

/** CPU time (ns) @p w's poller ran since the queue's last burst seen; 0 unknown. */
uint64_t octopus_poller_watch_ran(const struct octopus_poller_watch *w);

#endif /* OCTOPUS_POLLER_WATCH_H */
