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

#endif /* OCTO_PORT_H */
