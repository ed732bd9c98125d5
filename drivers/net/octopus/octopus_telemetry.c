/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Telemetry (usertools/dpdk-telemetry.py):
 *   /octopus/list           octopus port ids
 *   /octopus/info,<port>    members and their sockets, steering state, and
 *                           per queue: home, poller lcore, locality counters
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <rte_telemetry.h>

#include "rte_pmd_octopus.h"
#include "octopus_internal.h"

static int
tel_list(const char *cmd, const char *params, struct rte_tel_data *d)
{
	uint16_t pid;

	RTE_SET_USED(cmd);
	RTE_SET_USED(params);
	rte_tel_data_start_array(d, RTE_TEL_INT_VAL);
	OCTO_FOREACH_PORT(pid)
		if (octopus_is_octopus(pid))
			rte_tel_data_add_array_int(d, pid);
	return 0;
}

static void
add_queue(struct rte_tel_data *d, uint16_t port, uint16_t q, int tx)
{
	struct rte_pmd_octopus_queue_info qi;
	struct rte_pmd_octopus_locality loc;
	struct rte_tel_data *c;
	char name[32];

	if (rte_pmd_octopus_queue_info_get(port, q, tx, &qi) < 0 ||
			rte_pmd_octopus_locality_get(port, q, tx, &loc) < 0)
		return;
	c = rte_tel_data_alloc();
	if (c == NULL)
		return;
	rte_tel_data_start_dict(c);
	rte_tel_data_add_dict_int(c, "home_member", qi.has_home ? qi.home_member : -1);
	rte_tel_data_add_dict_int(c, "home_port", qi.has_home ? qi.home_port : -1);
	rte_tel_data_add_dict_int(c, "home_socket", qi.has_home ? qi.home_socket : -1);
	rte_tel_data_add_dict_int(c, "poller_lcore", qi.poller_lcore);
	rte_tel_data_add_dict_int(c, "poller_socket", qi.poller_socket);
	rte_tel_data_add_dict_int(c, "steered", qi.steered);
	rte_tel_data_add_dict_u64(c, "local_packets", loc.local_pkts);
	rte_tel_data_add_dict_u64(c, "remote_packets", loc.remote_pkts);
	rte_tel_data_add_dict_u64(c, "polls", loc.polls);
	rte_tel_data_add_dict_u64(c, "foreign_polls", loc.foreign_polls);
	snprintf(name, sizeof(name), "%sq%u", tx ? "tx" : "rx", q);
	rte_tel_data_add_dict_container(d, name, c, 0);
}

static int
tel_info(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct octopus_priv *p;
	struct rte_tel_data *c;
	char name[RTE_ETH_NAME_MAX_LEN], key[16];
	unsigned long port;
	char *end;
	int i;
	uint16_t q;

	RTE_SET_USED(cmd);
	if (params == NULL || *params == '\0')
		return -EINVAL;
	port = strtoul(params, &end, 10);
	if (*end != '\0' || port >= RTE_MAX_ETHPORTS || !octopus_is_octopus(port))
		return -EINVAL;
	p = rte_eth_devices[port].data->dev_private;
	rte_tel_data_start_dict(d);
	rte_eth_dev_get_name_by_port(port, name);
	rte_tel_data_add_dict_string(d, "name", name);
	rte_tel_data_add_dict_int(d, "port_id", port);
	c = rte_tel_data_alloc();
	if (c != NULL) {
		/* member index -> "<ethdev name>@socket<N>" */
		rte_tel_data_start_dict(c);
		for (i = 0; i < p->nb_members; i++) {
			const struct octopus_member *m = &p->members[i];
			char v[RTE_TEL_MAX_STRING_LEN];

			snprintf(key, sizeof(key), "%d", i);
			if (m->state >= OCTO_MEMBER_OWNED)
				snprintf(v, sizeof(v), "%s@port%u@socket%d", m->name,
					m->port_id, m->socket);
			else
				snprintf(v, sizeof(v), "%s@not-found", m->name);
			rte_tel_data_add_dict_string(c, key, v);
		}
		rte_tel_data_add_dict_container(d, "members", c, 0);
	}
	c = rte_tel_data_alloc();
	if (c != NULL) {
		/* member index -> "serving" or why it is out of service */
		rte_tel_data_start_dict(c);
		for (i = 0; i < p->nb_members; i++) {
			snprintf(key, sizeof(key), "%d", i);
			rte_tel_data_add_dict_string(c, key,
				octopus_loss_name(p->members[i].loss));
		}
		rte_tel_data_add_dict_container(d, "member_state", c, 0);
	}
	rte_tel_data_add_dict_u64(d, "member_losses",
		__atomic_load_n(&p->member_losses, __ATOMIC_RELAXED));
	rte_tel_data_add_dict_u64(d, "member_returns",
		__atomic_load_n(&p->member_returns, __ATOMIC_RELAXED));
	rte_tel_data_add_dict_u64(d, "outage_lost_packets",
		__atomic_load_n(&p->outage_lost_pkts, __ATOMIC_RELAXED));
	rte_tel_data_add_dict_string(d, "steering", p->steer != NULL ? "e-switch" :
		(p->started ? "none: poll all members" : "stopped"));
	rte_tel_data_add_dict_u64(d, "steering_rules",
		p->steer != NULL ? octopus_steer_rule_count(p->steer) : 0);
	for (q = 0; q < rte_eth_devices[port].data->nb_rx_queues; q++)
		add_queue(d, port, q, 0);
	for (q = 0; q < rte_eth_devices[port].data->nb_tx_queues; q++)
		add_queue(d, port, q, 1);
	return 0;
}

RTE_INIT(octopus_telemetry_init)
{
	rte_telemetry_register_cmd("/octopus/list", tel_list,
		"Octopus ports. No parameters");
	rte_telemetry_register_cmd("/octopus/info", tel_info,
		"Members, steering and queues of an octopus port. Parameters: int port_id");
}
