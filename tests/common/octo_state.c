/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#include <string.h>

#include <rte_ethdev.h>

#include <octopus_dpdk_compat.h>

#include "octo_check.h"
#include "octo_state.h"

struct rte_pmd_octopus_migration
octo_migration(uint16_t port, int tx, uint16_t q)
{
	struct rte_pmd_octopus_migration st;

	memset(&st, 0, sizeof(st));
	CHECK(rte_pmd_octopus_migration_get(port, q, tx, &st) == 0, "migration_get %s %u",
		tx ? "tx" : "rx", q);
	return st;
}

uint64_t
octo_sum(const uint64_t *v, unsigned int n)
{
	uint64_t t = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		t += rte_atomic_load_explicit(&v[i], rte_memory_order_relaxed);
	return t;
}

void
octo_port_stop_close(uint16_t port)
{
	CHECK(rte_eth_dev_stop(port) == 0, "stop port %u", port);
	CHECK(rte_eth_dev_close(port) == 0, "close port %u", port);
}
