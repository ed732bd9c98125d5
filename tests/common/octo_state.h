/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTO_STATE_H
#define OCTO_STATE_H

/*
 * What the EAL tests read of the ports' state, each read CHECKed
 * (octo_check.h): the NIC model's rule counts, a queue's migration state,
 * per-queue counters summed; and the end of a port.
 */

#include <stdint.h>

#include <rte_pmd_octonic.h>
#include <rte_pmd_octopus.h>

/* The rule counts of the NIC model's PF @p port (zero if unread). */
struct rte_pmd_octonic_flow_stats octo_fstats(uint16_t port);

/* The migration state of Rx (@p tx 0) or Tx queue @p q of @p port. */
struct rte_pmd_octopus_migration octo_migration(uint16_t port, int tx, uint16_t q);

/*
 * The port of the NIC model's PF @p name with its generator off: the
 * tests start it themselves, not at port start. RTE_MAX_ETHPORTS if there
 * is no such port.
 */
uint16_t octo_gen_pf(const char *name);

/* Set the NIC model's generator on PF @p port to stop after @p n packets. 0, or its error. */
int octo_gen_limit(uint16_t port, uint64_t n);

/* The sum of @p n counters that pollers add to (relaxed loads). */
uint64_t octo_sum(const uint64_t *v, unsigned int n);

/* Stop and close @p port. */
void octo_port_stop_close(uint16_t port);

#endif /* OCTO_STATE_H */
