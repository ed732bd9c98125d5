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
 * this moment (a burst started after this call found it empty), q_to's
 * datapath delivers nothing but what its own hardware queues held when the
 * gate closed (older than the moved flow's packets; Linux ARFS semantics:
 * no reordering of the moved flow). Having delivered that, q_to counts as
 * drained for gates waiting on it, so gates in both directions (a flow
 * moved a -> b -> a quickly) do not wait on each other. A gate whose source is not polled for OCTO_GATE_TIMEOUT_MS
 * opens anyway (counted in gate_timeouts). Lock-free for the datapath;
 * callers on control threads are serialised by a spinlock.
 *
 * @return 0; -EINVAL when a queue is not set up or q_from == q_to.
 */
int octopus_migrate_gate(struct octopus_priv *p, uint16_t q_from, uint16_t q_to);

/**
 * Optional, before the rule change: close @p q_to to what it receives until
 * the matching octopus_migrate_gate() (or OCTO_GATE_TIMEOUT_MS). Without it
 * @p q_to may deliver packets of the moved flow that arrive between the
 * rule change and the octopus_migrate_gate() call, ahead of older packets
 * still in @p q_from.
 *
 * @return 0; -EINVAL when a queue is not set up or q_from == q_to.
 */
int octopus_migrate_gate_prepare(struct octopus_priv *p, uint16_t q_from,
		uint16_t q_to);

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
 * Initial migration state of a port (probe): migration=, migrate_after=,
 * drain= devargs.
 */
void octopus_migrate_init(struct octopus_mig *m, bool auto_mode, uint32_t after_ms,
		bool no_drain);

/** Record a finished migration of @p q (latency from its request to @p now). */
void octopus_migrate_done(struct octopus_queue *q, uint64_t now);

#endif /* OCTOPUS_MIGRATE_H */
