/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Telemetry of queue migration:
 *   /octopus/migration,<port>   policy, and per queue: phase, home, counters
 *                               and the latency histogram (log2 us buckets)
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <rte_telemetry.h>

#include "rte_pmd_octopus.h"
#include "octopus_internal.h"

static const char *const phase_name[] = { "steady", "requested", "draining" };

static void
add_queue(struct rte_tel_data *d, uint16_t port, uint16_t q, int tx)
{
	struct rte_pmd_octopus_migration st;
	struct rte_tel_data *c, *h;
	char name[16];
	unsigned int i;

	if (rte_pmd_octopus_migration_get(port, q, tx, &st) != 0)
		return;
	c = rte_tel_data_alloc();
	if (c == NULL)
		return;
	rte_tel_data_start_dict(c);
	rte_tel_data_add_dict_string(c, "phase",
		st.phase < RTE_DIM(phase_name) ? phase_name[st.phase] : "?");
	rte_tel_data_add_dict_int(c, "home_member", st.home_member);
	rte_tel_data_add_dict_int(c, "home_socket", st.home_socket);
	rte_tel_data_add_dict_int(c, "old_member", st.old_member);
	rte_tel_data_add_dict_u64(c, "migrations", st.migrations);
	rte_tel_data_add_dict_u64(c, "failures", st.failures);
	rte_tel_data_add_dict_u64(c, "last_latency_ns", st.last_latency_ns);
	rte_tel_data_add_dict_u64(c, "max_latency_ns", st.max_latency_ns);
	rte_tel_data_add_dict_u64(c, "last_switch_ns", st.last_switch_ns);
	rte_tel_data_add_dict_u64(c, "drained_packets", st.drained_pkts);
	rte_tel_data_add_dict_u64(c, "gates", st.gates);
	rte_tel_data_add_dict_u64(c, "gated_bursts", st.gated_bursts);
	rte_tel_data_add_dict_u64(c, "gate_timeouts", st.gate_timeouts);
	h = rte_tel_data_alloc();
	if (h != NULL) {
		/* entry i: moves that took [2^(i-1), 2^i) us; 0: < 1 us */
		rte_tel_data_start_array(h, RTE_TEL_U64_VAL);
		for (i = 0; i < RTE_PMD_OCTOPUS_MIG_HIST; i++)
			rte_tel_data_add_array_u64(h, st.latency_hist[i]);
		rte_tel_data_add_dict_container(c, "latency_hist_log2_us", h, 0);
	}
	snprintf(name, sizeof(name), "%sq%u", tx ? "tx" : "rx", q);
	rte_tel_data_add_dict_container(d, name, c, 0);
}

static int
tel_migration(const char *cmd, const char *params, struct rte_tel_data *d)
{
	unsigned long port;
	char *end;
	uint16_t q;

	RTE_SET_USED(cmd);
	if (params == NULL || *params == '\0')
		return -EINVAL;
	port = strtoul(params, &end, 10);
	if (*end != '\0' || port >= RTE_MAX_ETHPORTS || !octopus_is_octopus(port))
		return -EINVAL;
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_int(d, "port_id", port);
	rte_tel_data_add_dict_string(d, "policy",
		rte_pmd_octopus_migration_auto_get(port) == 1 ? "auto" : "manual");
	for (q = 0; q < rte_eth_devices[port].data->nb_rx_queues; q++)
		add_queue(d, port, q, 0);
	for (q = 0; q < rte_eth_devices[port].data->nb_tx_queues; q++)
		add_queue(d, port, q, 1);
	return 0;
}

RTE_INIT(octopus_migrate_telemetry_init)
{
	rte_telemetry_register_cmd("/octopus/migration", tel_migration,
		"Queue migration state and counters of an octopus port. Parameters: int port_id");
}
