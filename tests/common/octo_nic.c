/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/* The NIC model's state as the tests read it (octo_state.h). */

#include <string.h>

#include <rte_ethdev.h>

#include "octo_check.h"
#include "octo_state.h"

struct rte_pmd_octonic_flow_stats
octo_fstats(uint16_t port)
{
	struct rte_pmd_octonic_flow_stats fs;

	memset(&fs, 0, sizeof(fs));
	CHECK(rte_pmd_octonic_flow_stats_get(port, &fs) == 0, "flow stats of port %u", port);
	return fs;
}

int
octo_gen_limit(uint16_t port, uint64_t n)
{
	struct rte_pmd_octonic_gen_conf gc;
	int ret = rte_pmd_octonic_gen_get(port, &gc);

	if (ret != 0)
		return ret;
	gc.limit = n;
	return rte_pmd_octonic_gen_set(port, &gc);
}

uint16_t
octo_gen_pf(const char *name)
{
	uint16_t port = RTE_MAX_ETHPORTS;

	if (rte_eth_dev_get_port_by_name(name, &port) == 0)
		rte_pmd_octonic_gen_enable(port, 0);
	return port;
}
