/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTOPUS_MIGRATE_H
#define OCTOPUS_MIGRATE_H

/*
 * Queue migration between members (sockets), internal to net_octopus.
 * The state machine is written down in octopus_migrate.c.
 */

#include <stdbool.h>
#include <stdint.h>

#include "octopus_internal.h"

/**
 * Ask for virtual queue @p qid (Rx if !tx, else Tx) to move to the member on
 * @p socket: STEADY -> REQUESTED, then the control thread does the rest.
 *
 * @return 0 requested; -EALREADY home is on @p socket already; -EBUSY a
 * migration of the queue is in progress; -EINVAL no member on @p socket or
 * queue not set up; -EIO port not started; -EPERM a Tx queue pinned to a
 * member (octopus_queues.c).
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
