/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTO_MIGRATION_H
#define OCTO_MIGRATION_H

/* What the migration tests and benchmarks ask of a queue move. */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "rte_pmd_octopus.h"

/*
 * Whether both directions of queue @p q of octopus port @p port are steady
 * on socket @p sock, each with more moves done than @p rx_before and
 * @p tx_before.
 */
static inline bool
octo_mig_settled(uint16_t port, uint16_t q, int sock, uint64_t rx_before,
		uint64_t tx_before)
{
	struct rte_pmd_octopus_migration r, t;

	rte_pmd_octopus_migration_get(port, q, 0, &r);
	rte_pmd_octopus_migration_get(port, q, 1, &t);
	return r.phase == RTE_PMD_OCTOPUS_MIG_STEADY && r.home_socket == sock &&
		t.phase == RTE_PMD_OCTOPUS_MIG_STEADY && t.home_socket == sock &&
		r.migrations > rx_before && t.migrations > tx_before;
}

/* Packets Rx queue @p q of octopus port @p port delivered through member @p m. */
static inline uint64_t
octo_delivered_via(uint16_t port, uint16_t q, unsigned int m)
{
	struct rte_pmd_octopus_locality l;

	memset(&l, 0, sizeof(l));
	rte_pmd_octopus_locality_get(port, q, 0, &l);
	return l.member_pkts[m];
}

#endif /* OCTO_MIGRATION_H */
