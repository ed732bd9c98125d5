/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * The flow gate's verdict on a source queue's poller (cmocka, no EAL:
 * octopus_poller_watch.c alone), for each state a poller can be in when
 * its gate's deadline passes: a gate must wait for a poller that is
 * descheduled, sleeps between bursts, is blocked for a while or moved to
 * another thread, and give up only on a queue no longer polled, within
 * its limits. A simulated clock: each case says, every few milliseconds,
 * what the poller did since the last look (CPU time run, bursts of the
 * queue made, runnable or not now) and when the watch gave up.
 */

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdint.h>

#include <cmocka.h>

#define DIM(a) (sizeof(a) / sizeof((a)[0]))

#include "octopus_poller_watch.h"

#define MS		UINT64_C(1000000)
#define CPU_NS		(50 * MS)	/* the gate's: OCTO_GATE_TIMEOUT_MS */
#define STILL_NS	(1000 * MS)	/* OCTO_GATE_STILL_MS */
#define STUCK_NS	(200 * MS)	/* OCTO_GATE_STUCK_MS */
#define NEVER		UINT64_MAX

static const struct octopus_poller_limits limits = {
	.cpu_ns = CPU_NS, .still_ns = STILL_NS, .stuck_ns = STUCK_NS,
};

struct sim {
	struct octopus_poller_watch w;
	struct octopus_poller_obs o;
	uint64_t t0;
};

/* A queue polled by thread @p tid (0: none yet; with no CPU time known). */
static void
sim_start(struct sim *s, int tid)
{
	s->o.tid = tid;
	s->o.polls = 1000;
	s->o.run_ns = tid > 0 ? 7 * 1000 * MS : 0;
	s->o.runnable = tid > 0;
	s->o.now_ns = 1000000 * MS;
	s->t0 = s->o.now_ns;
	octopus_poller_watch_start(&s->w, &s->o);
}

/*
 * For @p ms, looked at every @p every ms: the poller runs @p cpu_pm per
 * mille of the time (its CPU time known unless @p cpu_unknown), makes
 * @p bursts bursts of the queue between two looks, and is @p runnable at
 * each look. The time since sim_start() at which the watch gave up, NEVER
 * if it did not.
 */
static uint64_t
sim_run(struct sim *s, uint64_t ms, uint64_t every, unsigned int cpu_pm,
		unsigned int bursts, bool runnable)
{
	uint64_t end = s->o.now_ns + ms * MS;

	while (s->o.now_ns < end) {
		s->o.now_ns += every * MS;
		if (s->o.run_ns != 0)
			s->o.run_ns += every * MS * cpu_pm / 1000;
		s->o.polls += bursts;
		s->o.runnable = runnable && s->o.run_ns != 0;
		if (octopus_poller_watch_look(&s->w, &s->o, &limits) == 0)
			return s->o.now_ns - s->t0;
	}
	return NEVER;
}

/*
 * One phase of a case: for @p ms, looked at every @p every ms, the poller
 * runs @p cpu_pm per mille of the time, makes @p bursts bursts of the
 * queue between two looks and is @p runnable at each look; another thread
 * from its start when @p tid is not 0. The watch gives up @p at ms into it
 * (within @p every), or NEVER.
 */
struct phase {
	uint64_t ms, every;
	unsigned int cpu_pm, bursts;
	bool runnable;
	int tid;
	uint64_t at;
};

struct watch_case {
	const char *what;
	int tid;		/* the poller at the start, 0: none */
	bool cpu_unknown;	/* its CPU time cannot be read */
	struct phase ph[4];	/* until one of 0 ms */
};

static const struct watch_case cases[] = {
	{ "descheduled for a minute on a loaded host (runnable, no CPU)", 101, false, {
		{ 60000, 7, 0, 0, true, 0, NEVER },
		/* given a CPU now and then, it polls the queue */
		{ 60000, 7, 1, 1, true, 0, NEVER } } },
	{ "polled now and then on a fraction of a CPU", 101, false, {
		{ 60000, 40, 2, 1, true, 0, NEVER } } },
	{ "asleep at every look but for its bursts", 101, false, {
		{ 60000, 40, 2, 1, false, 0, NEVER } } },
	/* the CPU limit, and unpolled for the still limit at least */
	{ "running, no burst of the queue", 101, false, {
		{ 10000, 5, 1000, 0, true, 0, 1000 } } },
	{ "on a twentieth of a CPU, no burst: 50 ms of CPU in 1 s", 101, false, {
		{ 10000, 5, 50, 0, true, 0, 1000 } } },
	/* an idle poller's short sleeps: state S at most looks; it runs,
	 * slowly, so it is given up on by its CPU time, not when found asleep
	 */
	{ "sleeping between rounds, no burst of the queue", 101, false, {
		{ 10000, 10, 20, 0, false, 0, 2500 } } },
	{ "blocked for a while (a page fault, a lock, a full pipe)", 101, false, {
		{ 900, 10, 0, 0, false, 0, NEVER },
		{ 1000, 10, 100, 1, true, 0, NEVER } } },
	{ "asleep for good (the application stopped polling)", 101, false, {
		{ 10000, 10, 0, 0, false, 0, 1000 } } },
	/* its clock starts at the move; waited for while it polls the queue
	 * or is descheduled, then its own CPU limit
	 */
	{ "moved to another thread that has run for long", 101, false, {
		{ 30, 10, 1000, 0, true, 0, NEVER },
		{ 10000, 10, 0, 0, true, 202, NEVER },
		{ 200, 10, 500, 3, true, 0, NEVER },
		{ 10000, 10, 1000, 0, true, 0, 1000 } } },
	{ "no poller yet, then one", 0, false, {
		{ 500, 10, 0, 0, false, 0, NEVER },
		{ 10000, 10, 0, 0, true, 303, NEVER } } },
	{ "no poller at all", 0, false, {
		{ 10000, 10, 0, 0, false, 0, 1000 } } },
	{ "another process's poller (CPU time unknown)", 404, true, {
		{ 60000, 10, 0, 1, false, 0, NEVER },
		{ 10000, 10, 0, 0, false, 0, 1000 } } },
	/* gates that wait on each other: the backstop, its clock started
	 * again by another poller
	 */
	{ "polled with a CPU to itself, not drained", 101, false, {
		{ 10000, 5, 1000, 10, true, 0, 200 } } },
	{ "the same, moved to another thread on the way", 101, false, {
		{ 150, 5, 1000, 10, true, 0, NEVER },
		{ 150, 5, 1000, 10, true, 202, NEVER },
		{ 10000, 5, 1000, 10, true, 0, 50 } } },
	/* handed over to a thread that has not polled it yet: the old one
	 * runs elsewhere, the queue is waited for the still limit
	 */
	{ "handed over, the new thread starved on another CPU", 101, false, {
		{ 900, 10, 1000, 0, true, 0, NEVER },
		{ 500, 10, 1000, 0, true, 0, 100 } } },
};

/* Each case, phase by phase. */
static void
test_cases(void **state)
{
	const struct watch_case *c;
	const struct phase *ph;
	struct sim s;
	uint64_t t0, t;
	unsigned int i, k;

	(void)state;
	for (i = 0; i < DIM(cases); i++) {
		c = &cases[i];
		sim_start(&s, c->tid);
		if (c->cpu_unknown) {
			s.o.run_ns = 0;
			octopus_poller_watch_start(&s.w, &s.o);
		}
		for (k = 0; k < DIM(c->ph) && c->ph[k].ms != 0; k++) {
			ph = &c->ph[k];
			if (ph->tid != 0) {
				s.o.tid = ph->tid;
				s.o.run_ns = 90000 * MS;
			}
			t0 = s.o.now_ns - s.t0;
			t = sim_run(&s, ph->ms, ph->every, ph->cpu_pm, ph->bursts, ph->runnable);
			if (t != NEVER)
				t -= t0;
			if (t == NEVER)
				print_message("%s, phase %u: waited %" PRIu64 " ms\n", c->what, k,
					ph->ms);
			else
				print_message("%s, phase %u: gave up %" PRIu64 " ms in\n", c->what,
					k, t / MS);
			if (ph->at == NEVER)
				assert_int_equal(t, NEVER);
			else
				assert_true(t >= ph->at * MS && t <= (ph->at + ph->every) * MS);
			if (t != NEVER)
				break;
		}
	}
}

/*
 * The time a look returns is one before which no look can give up: looking
 * only then (a millisecond at least, as the gate does), a queue no longer
 * polled is given up on as late as when looked at every millisecond, give
 * or take one, in a few looks.
 */
static void
test_next_look(void **state)
{
	struct sim s;
	uint64_t wait = CPU_NS;
	unsigned int looks = 0;

	(void)state;
	sim_start(&s, 101);
	while (wait != 0 && looks < 1000) {
		wait = wait < MS ? MS : wait;
		s.o.now_ns += wait;
		s.o.run_ns += wait / 2;		/* half a CPU, no burst */
		wait = octopus_poller_watch_look(&s.w, &s.o, &limits);
		looks++;
	}
	assert_int_equal(wait, 0);
	assert_true(s.o.now_ns - s.t0 >= STILL_NS && s.o.now_ns - s.t0 <= STILL_NS + MS);
	assert_true(looks < 20);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_next_look),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
