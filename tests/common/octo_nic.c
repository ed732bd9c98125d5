/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/* The NIC model's state as the tests read it (octo_state.h). */

#include <string.h>

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
