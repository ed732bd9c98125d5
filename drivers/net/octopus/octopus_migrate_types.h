/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTOPUS_MIGRATE_TYPES_H
#define OCTOPUS_MIGRATE_TYPES_H

/*
 * Migration state embedded in the queue and port structures
 * (octopus_internal.h includes this); the state machine and the
 * memory-ordering argument are in octopus_migrate.c.
 */

#include <stdbool.h>
#include <stdint.h>

#include <pthread.h>
#include <semaphore.h>

#include <rte_spinlock.h>

/* Route word flag bits (bits 24..31), next to home/old/phase. */
#define OCTO_ROUTE_F_DRAIN_REQ	(1u << 24) /* a gate waits for this queue to drain */
#define OCTO_ROUTE_F_GATED	(1u << 25) /* this queue delivers nothing: gated */
#define OCTO_ROUTE_FLAGS	(0xffu << 24)
/* Anything but "steady, no flag" takes the datapath's slow path. */
#define OCTO_ROUTE_SLOW(r)	((r) >> 16)

/* Latency histogram: bucket 0 < 1 us, bucket k in [2^(k-1), 2^k) us, the
 * last one everything longer.
 */
#define OCTO_MIG_HIST		20

/* Automatic migration: the default of migrate_after= (ms a new poller must
 * poll a queue alone), and the fewest bursts it must have made
 * (octopus_rxtx.c, foreign_poll).
 */
#define OCTO_MIG_AFTER_MS	200
#define OCTO_MIG_MIN_POLLS	32

/* How long a gate waits for a source queue nobody polls. */
#define OCTO_GATE_TIMEOUT_MS	50

#define OCTO_MIG_MAX_QUEUES	64

/* Per virtual queue. */
struct octopus_qmig {
	/* automatic migration's candidate poller: the poller only */
	int cand_lcore;
	int cand_socket;
	uint64_t cand_start;		/* tsc of its first burst in the streak */
	uint64_t cand_polls;		/* bursts in the streak */
	uint64_t cand_next_poll;	/* polls count its next burst must see */
	/* request: written by the requester before its REQUESTED CAS (release) */
	int want_socket;
	uint8_t automatic;		/* 1: the datapath asked, 0: the API */
	uint64_t req_tsc;
	/* written by the poller while draining, read by the control thread */
	uint64_t drained_pkts;
	/* gate, source side: control bumps drain_req, the poller acks */
	uint64_t drain_req;
	uint64_t drain_ack;
	/* poller only: drain_ack to publish at its next poll, once the packets
	 * of the short burst that drained it are out of the application's loop
	 */
	uint64_t ack_next;
	/* Tx: the sending thread (its lcore_txq in octopus_rxtx.c), written
	 * when it changes
	 */
	void *tx_owner;
	/* gate, destination side: control writes, the poller reads */
	uint64_t gate_mask;			/* sources with a gate */
	uint64_t gate_need[OCTO_MIG_MAX_QUEUES];	/* drain_ack needed */
	uint64_t gate_deadline[OCTO_MIG_MAX_QUEUES];	/* tsc */
	/* what the queue may still deliver while gated: packets that were in
	 * its hardware queues at the first open gate (older than any moved
	 * flow's), as a position in its delivered count; and the drain
	 * requests made to it before that (acked once it is reached).
	 * Seqlock: gate_seq odd while the control path writes.
	 */
	uint32_t gate_seq;
	uint64_t gate_limit;
	uint64_t gate_covers;
	uint64_t gated_bursts;		/* poller only */
	uint64_t gate_timeouts;		/* poller only */
	uint64_t gate_settle_timeouts;	/* control only: see gates_settle() */
	uint64_t gates;			/* control only */
	/* failover: 1 + the member a sweep moved the queue off (0: none);
	 * migration thread only
	 */
	uint8_t displaced_from;
	/* completion: written by whoever moves the route back to STEADY
	 * (the poller after a drain, the control thread otherwise); the
	 * next request is ordered after it by the STEADY acquire
	 */
	uint64_t migrations;
	uint64_t failures;
	uint64_t last_ns;
	uint64_t last_switch_ns;	/* request to the rule switched (control) */
	uint64_t max_ns;
	uint64_t hist[OCTO_MIG_HIST];
};

/* Per port. */
struct octopus_mig {
	bool auto_mode;			/* migration=auto (the default) */
	uint64_t after_tsc;		/* migrate_after=, in tsc cycles */
	/* the negative control of test_octopus_migrate (nodrain) sets it in
	 * the port's state: Rx reads the new member first and reorders; no
	 * devarg or API reaches it
	 */
	bool no_drain;
	bool running;			/* control thread started */
	uint8_t stop;			/* asks the thread to end (atomic) */
	pthread_t thread;
	uint64_t pending[2];		/* [rx, tx]: bit q = q REQUESTED */
	uint8_t failover;		/* a member left or returned: sweep (atomic) */
	sem_t wake;			/* posted for the control thread */
	rte_spinlock_t gate_lock;	/* gate writers (control paths) */
};

#endif /* OCTOPUS_MIGRATE_TYPES_H */
