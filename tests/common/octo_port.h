/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTO_PORT_H
#define OCTO_PORT_H

#include <rte_ethdev.h>

/* The port id of ethdev @p name; RTE_MAX_ETHPORTS when there is none. */
static inline uint16_t
port_of(const char *name)
{
	uint16_t p = RTE_MAX_ETHPORTS;

	rte_eth_dev_get_port_by_name(name, &p);
	return p;
}

/* Extended statistic @p name of @p port; UINT64_MAX when it has none. */
static inline uint64_t
octo_xstat(uint16_t port, const char *name)
{
	uint64_t id, v = UINT64_MAX;

	if (rte_eth_xstats_get_id_by_name(port, name, &id) != 0 ||
	    rte_eth_xstats_get_by_id(port, &id, &v, 1) != 1)
		return UINT64_MAX;
	return v;
}

#endif /* OCTO_PORT_H */
