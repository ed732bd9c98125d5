/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTOPUS_GATE_H
#define OCTOPUS_GATE_H

/*
 * The flow gate, internal to net_octopus: order across a rule change that
 * moves traffic between Rx queues (octopus_flow.c, octopus_reta.c). The
 * protocol is written down in octopus_gate.c.
 */

#include <stdbool.h>
#include <stdint.h>

#include "octopus_internal.h"

/**
 * The gates of one rule change: Rx queue d of @p dsts (bit d) is gated on
 * every queue of src[d] (bit q: queue q). src[d] is read only for the d of
 * dsts: a rule change fills in the few it moves traffic to, not all 64.
 * A change has one source queue or one destination queue: a queue is then
 * never both (a rule over several queues changes one queue at a time).
 */
struct octopus_gate_set {
	uint64_t dsts;
	uint64_t src[OCTO_MIG_MAX_QUEUES];
};

/**
 * Before the rule change: close every destination of @p s to what it
 * receives until octopus_gate_finish(), so that it delivers no packet of
 * the moved traffic arriving between the change and the finish ahead of
 * older packets still in a source. Pairs with a queue that is not set up
 * or has no home yet, and all of them while the port is stopped, are
 * dropped from @p s: nothing polls them.
 */
void octopus_gate_prepare(struct octopus_priv *p, struct octopus_gate_set *s);

/**
 * After the rule change: gate every pair of @p s (octopus_gate_pair) when
 * @p changed, else open what octopus_gate_prepare() closed (not counted).
 */
void octopus_gate_finish(struct octopus_priv *p, const struct octopus_gate_set *s,
		bool changed);

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
 * A gate whose source is no longer polled opens anyway (counted in
 * gate_timeouts): no burst of it for OCTO_GATE_STILL_MS, while its poller
 * ran OCTO_GATE_TIMEOUT_MS of CPU time elsewhere or neither ran nor was
 * runnable; so does one polled that does not drain in OCTO_GATE_STUCK_MS
 * of its poller's CPU time. A source still polled is waited for, however slowly
 * (its poller descheduled on a loaded host, blocked for a while, or another
 * thread now: octopus_poller_watch.h). Lock-free for the datapath; callers
 * on control threads are serialised by a spinlock, which a poller past
 * its gate's deadline only tries.
 *
 * @return 0; -EINVAL when a queue is not set up or q_from == q_to.
 */
int octopus_gate_pair(struct octopus_priv *p, uint16_t q_from, uint16_t q_to);

/**
 * Whether a gate on Rx queue @p dst still holds: its source has not acked
 * the drain it waits for, and is still polled or its deadline has not
 * passed (octopus_gate_pair). With @p expire
 * (the queue's poller only) a gate past its deadline is opened for good,
 * counted in gate_timeouts; without, it is only taken as open.
 */
bool octopus_gate_holds(struct octopus_priv *p, struct octopus_queue *dst,
		bool expire);

/**
 * Member @p m left service and no burst reads it any more: what its
 * hardware queues still held of a gated destination's limit will never be
 * delivered (it is lost with the member), so take it out of the limit.
 * Else the destination would deliver as many of the moved flows' new
 * packets, from another member, before the gate opens.
 */
void octopus_gate_member_lost(struct octopus_priv *p, uint16_t m);

#endif /* OCTOPUS_GATE_H */
