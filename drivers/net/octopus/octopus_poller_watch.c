/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Whether a queue is still polled: the rules are in octopus_poller_watch.h.
 */

#include "octopus_poller_watch.h"

/* @p w's poller as seen in @p o, from now on. */
static void
watch_from(struct octopus_poller_watch *w, const struct octopus_poller_obs *o)
{
	w->polls = o->polls;
	w->run0 = o->run_ns;
	w->run = o->run_ns;
	w->live_ns = o->now_ns;
	w->polled_ns = o->now_ns;
}

void
octopus_poller_watch_start(struct octopus_poller_watch *w, const struct octopus_poller_obs *o)
{
	w->tid = o->tid;
	w->run_from = o->run_ns;
	watch_from(w, o);
}

uint64_t
octopus_poller_watch_ran(const struct octopus_poller_watch *w)
{
	return w->run0 != 0 && w->run >= w->run0 ? w->run - w->run0 : 0;
}

static uint64_t
left(uint64_t limit, uint64_t used)
{
	return used < limit ? limit - used : 0;
}

uint64_t
octopus_poller_watch_look(struct octopus_poller_watch *w, const struct octopus_poller_obs *o,
		const struct octopus_poller_limits *l)
{
	uint64_t unpolled, cpu, still, stuck, next;
	bool polled = o->polls != w->polls;

	/* another thread polls it now: its clocks start at this look */
	if (o->tid != w->tid) {
		octopus_poller_watch_start(w, o);
		return l->cpu_ns < l->still_ns ? l->cpu_ns : l->still_ns;
	}
	/* polled since the last look: its CPU time without a burst counts
	 * from this one
	 */
	if (polled) {
		watch_from(w, o);
	} else {
		/* it ran since the last look, or may run now: not still */
		if (o->runnable || (o->run_ns != 0 && o->run_ns != w->run))
			w->live_ns = o->now_ns;
		if (o->run_ns != 0)
			w->run = o->run_ns;
	}
	/* a thread whose CPU time was not known yet is timed from now */
	if (w->run0 == 0)
		w->run0 = w->run;
	if (w->run_from == 0)
		w->run_from = w->run;
	/* unpolled for still_ns at least: another thread may have taken the
	 * queue over and not polled it yet, starved on a CPU of its own
	 */
	unpolled = left(l->still_ns, o->now_ns > w->polled_ns ? o->now_ns - w->polled_ns : 0);
	cpu = left(l->cpu_ns, octopus_poller_watch_ran(w));
	still = left(l->still_ns, o->now_ns > w->live_ns ? o->now_ns - w->live_ns : 0);
	stuck = left(l->stuck_ns, w->run_from != 0 && w->run >= w->run_from ?
		w->run - w->run_from : 0);
	/* the backstop is for a queue polled, the other limits for one not */
	if (polled ? stuck == 0 : unpolled == 0 && (cpu == 0 || still == 0))
		return 0;
	/* none can be reached sooner: CPU time runs no faster than the clock
	 * (a backstop run out waits for the queue's next burst: a look then
	 * may come later, it only gives up later)
	 */
	next = cpu < still ? cpu : still;
	next = next > unpolled ? next : unpolled;
	return stuck != 0 && stuck < next ? stuck : next;
}
