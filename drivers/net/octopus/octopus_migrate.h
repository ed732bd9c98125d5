/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTOPUS_MIGRATE_H
#define OCTOPUS_MIGRATE_H

/*
 * Queue migration between members (sockets) and the flow gate, internal
 * to net_octopus. The state machine is written down in octopus_migrate.c.
 */

#include <stdbool.h>
#include <stdint.h>

#include "octopus_internal.h"

/**
 * Gate a flow that the control path just moved from Rx queue @p q_from to
 * Rx queue @p q_to (call it right after the rule change returned): until
 * q_from's poller has consumed everything that was in its hardware queue at
 * this moment (a burst started after this call found it empty), come back
 * for its next burst and seen its lcore's Tx queue complete, q_to's
 * datapath delivers nothing but what its own hardware queues held when the
 * gate closed (older than the moved flow's packets). Having delivered that,
 * q_to counts as drained for gates waiting on it, so gates in both
 * directions (a flow moved a -> b -> a quickly) do not wait on each other.
 * A gate whose source is not polled for OCTO_GATE_TIMEOUT_MS opens anyway
 * (counted in gate_timeouts). Lock-free for the datapath; callers on
 * control threads are serialised by a spinlock.
 *
 * @return 0; -EINVAL when a queue is not set up or q_from == q_to.
 */
int octopus_migrate_gate(struct octopus_priv *p, uint16_t q_from, uint16_t q_to);

/**
 * Before the rule change: close @p q_to to what it receives until the
 * matching octopus_migrate_gate() (or octopus_migrate_gate_cancel(), or
 * OCTO_GATE_TIMEOUT_MS). Without it @p q_to may deliver packets of the moved
 * flow that arrive between the rule change and the octopus_migrate_gate()
 * call, ahead of older packets still in @p q_from. For
 * octopus_migrate_gates_prepare() only: @p q_to delivers nothing until that
 * has taken its limit, once @p q_to's bursts settled.
 *
 * @return 0; -EINVAL when a queue is not set up or q_from == q_to.
 */
int octopus_migrate_gate_prepare(struct octopus_priv *p, uint16_t q_from,
		uint16_t q_to);

/**
 * The rule change prepared for did not happen: open what
 * octopus_migrate_gate_prepare(@p q_from, @p q_to) closed (not counted).
 */
void octopus_migrate_gate_cancel(struct octopus_priv *p, uint16_t q_from,
		uint16_t q_to);

/**
 * The gates of one rule change: Rx queue d of @p dsts (bit d) is gated on
 * every queue of src[d] (bit q: queue q). src[d] is read only for the d of
 * dsts: a rule change fills in the few it moves traffic to, not all 64.
 */
struct octopus_gate_set {
	uint64_t dsts;
	uint64_t src[OCTO_MIG_MAX_QUEUES];
	uint64_t late;		/* destinations closed only after the change */
};

/**
 * Prepare the gates of @p s (octopus_migrate_gate_prepare) before the rule
 * change. Pairs with a queue that is not set up or has no home yet, and all
 * of them while the port is stopped, are dropped from @p s: nothing polls
 * them. A destination that is also a source is not prepared (set in
 * s->late): it is closed after the change, so that a packet reaching it
 * between the change and octopus_migrate_gates_finish() can be delivered
 * early; a change that moves traffic along a cycle of queues (RETA updates
 * do) avoids that by moving one destination queue at a time.
 */
void octopus_migrate_gates_prepare(struct octopus_priv *p, struct octopus_gate_set *s);

/**
 * After the rule change: gate every pair of @p s (octopus_migrate_gate)
 * when @p changed, else cancel them.
 */
void octopus_migrate_gates_finish(struct octopus_priv *p,
		const struct octopus_gate_set *s, bool changed);

/**
 * Ask for virtual queue @p qid (Rx if !tx, else Tx) to move to the member on
 * @p socket: STEADY -> REQUESTED, then the control thread does the rest.
 *
 * @return 0 requested; -EALREADY home is on @p socket already; -EBUSY a
 * migration of the queue is in progress; -EINVAL no member on @p socket or
 * queue not set up; -EIO port not started.
 */
int octopus_migrate_request(struct octopus_priv *p, uint16_t qid, int tx,
		int socket, bool automatic);

/**
 * Like octopus_migrate_request(), to member index @p member (which must
 * serve). Used by the failover sweep.
 */
int octopus_migrate_request_member(struct octopus_priv *p, uint16_t qid, int tx,
		unsigned int member, bool automatic);

/** Wake the control thread (a request or a failover sweep is pending). */
void octopus_migrate_wake(struct octopus_priv *p);

/** Reset the queues' migration state and start the control thread (dev_start). */
int octopus_migrate_start(struct octopus_priv *p);

/** Join the control thread (dev_stop); queues are left STEADY. */
void octopus_migrate_stop(struct octopus_priv *p);

/**
 * Initial migration state of a port (probe): migration=, migrate_after=
 * devargs.
 */
void octopus_migrate_init(struct octopus_mig *m, bool auto_mode, uint32_t after_ms);

/** Record a finished migration of @p q (latency from its request to @p now). */
void octopus_migrate_done(struct octopus_queue *q, uint64_t now);

#endif /* OCTOPUS_MIGRATE_H */
