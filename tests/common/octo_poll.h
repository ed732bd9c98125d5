/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTO_POLL_H
#define OCTO_POLL_H

/*
 * The pollers of an EAL test: lcore q polls queue q of the port until the
 * main lcore (which polls its own queue) ends the run; and a phase of the
 * NIC model's generator whose packets are counted per queue and per flow,
 * for the tests that check where each flow arrives.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_byteorder.h>
#include <rte_mbuf.h>

struct octo_poll {
	uint16_t port;
	uint16_t nb_q;		/* lcores from nb_q on poll nothing */
	/* pollers other than the main lcore sleep 50 us after an empty
	 * burst (more pollers than CPUs)
	 */
	bool idle_sleep;
	/* each burst of queue q (n > 0), on its poller: frees the mbufs */
	void (*burst)(struct octo_poll *p, uint16_t q, struct rte_mbuf **pkts, uint16_t n);
	/* on the main lcore after an empty burst: true ends the run */
	bool (*done)(struct octo_poll *p);
	/* on each poller at the end (may be NULL) */
	void (*end)(struct octo_poll *p, uint16_t q);
	void *arg;
	volatile int stop;
};

/* Poll on every lcore, the main one included, until done() says so. */
void octo_poll_run(struct octo_poll *p);

#define OCTO_PHASE_MAXQ 8
#define OCTO_PHASE_MAXFLOWS 256

/* A generator phase: where the packets of each flow arrived. */
struct octo_phase {
	struct octo_poll poll;	/* port, nb_q, idle_sleep: the test's */
	uint16_t gen_port;	/* a PF of the generating NIC */
	uint32_t nb_flows;	/* the generator's flows= */
	/* per packet of a known flow (f >= 0) or not (-1), may be NULL */
	void (*each)(struct octo_phase *ph, uint16_t q, struct rte_mbuf *m, int f);
	/* per queue, per flow: written by the queue's poller only */
	uint32_t cnt[OCTO_PHASE_MAXQ][OCTO_PHASE_MAXFLOWS];
	/* what the flows look like (learnt from their packets) */
	rte_be32_t flow_src[OCTO_PHASE_MAXFLOWS];
	rte_be16_t flow_sport[OCTO_PHASE_MAXFLOWS];
	uint64_t received;	/* packets of the phase */
	uint64_t expected;	/* packets the phase must deliver */
	uint64_t last_rx_tsc, deadline;
};

/*
 * Set the generator to @p limit packets, run it and count where they
 * arrive; the phase ends once @p expected arrived and 50 ms more passed
 * without a packet (so a wrong extra shows too), or after 20 s. 0, or
 * the generator's error (nothing run).
 */
int octo_phase_run(struct octo_phase *ph, uint32_t limit, uint64_t expected);

/* Packets of flow @p f, every queue's. */
uint32_t octo_phase_flow_total(const struct octo_phase *ph, int f);

/* The queue every packet of flow @p f reached, -1: none or several. */
int octo_phase_flow_queue(const struct octo_phase *ph, int f);

#endif /* OCTO_POLL_H */
