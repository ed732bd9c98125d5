/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Telemetry (usertools/dpdk-telemetry.py): /octopus/list,
 * /octopus/info,<port> and /octopus/migration,<port>, which octopus.rst
 * describes (Statistics and telemetry).
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <rte_telemetry.h>

#include "rte_pmd_octopus.h"
#include "octopus_internal.h"
#include "octopus_flow.h"

/* The octopus port a command names, -1 when it names none. */
static int
port_param(const char *params)
{
	unsigned long port;
	char *end;

	if (params == NULL || *params == '\0')
		return -1;
	port = strtoul(params, &end, 10);
	if (*end != '\0' || port >= RTE_MAX_ETHPORTS || !octopus_is_octopus(port))
		return -1;
	return (int)port;
}

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

/*
 * A Tx queue's pinning (rte_eth_dev_map_aggr_tx_affinity): its affinity,
 * 1 + the member it stays on, 0 when it follows its poller.
 */
static void
add_affinity(struct rte_tel_data *c, uint16_t port, uint16_t q)
{
	const struct octopus_priv *p = rte_eth_devices[port].data->dev_private;
	const struct octopus_queue *tq = octopus_queue_get(p, q, 1);

	if (tq != NULL)
		rte_tel_data_add_dict_int(c, "affinity", tq->tx_affinity);
}

/* Queue @p q's dictionary @p c into @p d, as "rxq<q>" or "txq<q>" */
static void
add_queue_dict(struct rte_tel_data *d, struct rte_tel_data *c, uint16_t q, int tx)
{
	char name[16];

	snprintf(name, sizeof(name), "%sq%u", tx ? "tx" : "rx", q);
	rte_tel_data_add_dict_container(d, name, c, 0);
}

typedef void (*add_queue_t)(struct rte_tel_data *d, uint16_t port, uint16_t q, int tx);

/* @p add for each Rx queue of the port, then for each Tx queue */
static void
add_queues(struct rte_tel_data *d, uint16_t port, add_queue_t add)
{
	uint16_t q;

	for (q = 0; q < rte_eth_devices[port].data->nb_rx_queues; q++)
		add(d, port, q, 0);
	for (q = 0; q < rte_eth_devices[port].data->nb_tx_queues; q++)
		add(d, port, q, 1);
}

static void
add_queue(struct rte_tel_data *d, uint16_t port, uint16_t q, int tx)
{
	struct rte_pmd_octopus_queue_info qi;
	struct rte_pmd_octopus_locality loc;
	struct rte_tel_data *c;

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
	rte_tel_data_add_dict_uint(c, "local_packets", loc.local_pkts);
	rte_tel_data_add_dict_uint(c, "remote_packets", loc.remote_pkts);
	rte_tel_data_add_dict_uint(c, "polls", loc.polls);
	rte_tel_data_add_dict_uint(c, "foreign_polls", loc.foreign_polls);
	if (tx)
		add_affinity(c, port, q);
	add_queue_dict(d, c, q, tx);
}

static int
tel_info(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct octopus_priv *p;
	struct rte_tel_data *c;
	char name[RTE_ETH_NAME_MAX_LEN], key[16];
	int port, i;

	RTE_SET_USED(cmd);
	port = port_param(params);
	if (port < 0)
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
	rte_tel_data_add_dict_uint(d, "member_losses",
		rte_atomic_load_explicit(&p->member_losses, rte_memory_order_relaxed));
	rte_tel_data_add_dict_uint(d, "member_returns",
		rte_atomic_load_explicit(&p->member_returns, rte_memory_order_relaxed));
	rte_tel_data_add_dict_uint(d, "outage_lost_packets",
		rte_atomic_load_explicit(&p->outage_lost_pkts, rte_memory_order_relaxed));
	rte_tel_data_add_dict_string(d, "steering", p->steer != NULL ? "e-switch" :
		p->proxy_gone[0] != '\0' ? "none: the transfer proxy was released" :
		(p->started ? "none: poll all members" : "stopped"));
	/* the released proxy member ("" when none): rules deliver nothing */
	rte_tel_data_add_dict_string(d, "transfer_proxy_released", p->proxy_gone);
	rte_tel_data_add_dict_uint(d, "start_refusals",
		rte_atomic_load_explicit(&p->start_refusals, rte_memory_order_relaxed));
	rte_tel_data_add_dict_string(d, "locality", octopus_locality_name(p));
	rte_tel_data_add_dict_string(d, "locality_detail", octopus_locality_says(p));
	rte_tel_data_add_dict_uint(d, "steering_rules",
		p->steer != NULL ? octopus_steer_rule_count(p->steer) : 0);
	/* the application's synchronous rte_flow rules the port holds */
	rte_tel_data_add_dict_uint(d, "app_rules", p->flows != NULL ?
		rte_atomic_load_explicit(&p->flows->nb, rte_memory_order_relaxed) : 0);
	add_queues(d, port, add_queue);
	return 0;
}

static const char *const phase_name[] = { "steady", "requested", "draining" };

static void
add_migration_queue(struct rte_tel_data *d, uint16_t port, uint16_t q, int tx)
{
	struct rte_pmd_octopus_migration st;
	struct rte_tel_data *c, *h;
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
	rte_tel_data_add_dict_uint(c, "migrations", st.migrations);
	rte_tel_data_add_dict_uint(c, "failures", st.failures);
	rte_tel_data_add_dict_uint(c, "last_latency_ns", st.last_latency_ns);
	rte_tel_data_add_dict_uint(c, "max_latency_ns", st.max_latency_ns);
	rte_tel_data_add_dict_uint(c, "last_switch_ns", st.last_switch_ns);
	rte_tel_data_add_dict_uint(c, "drained_packets", st.drained_pkts);
	rte_tel_data_add_dict_uint(c, "gates", st.gates);
	rte_tel_data_add_dict_uint(c, "gated_bursts", st.gated_bursts);
	rte_tel_data_add_dict_uint(c, "gate_timeouts", st.gate_timeouts);
	rte_tel_data_add_dict_uint(c, "tx_settle_bound_acks", st.tx_settle_bound_acks);
	rte_tel_data_add_dict_uint(c, "tx_settle_bound_moves", st.tx_settle_bound_moves);
	if (tx)
		add_affinity(c, port, q);
	h = rte_tel_data_alloc();
	if (h != NULL) {
		/* entry i: moves that took [2^(i-1), 2^i) us; 0: < 1 us */
		rte_tel_data_start_array(h, RTE_TEL_UINT_VAL);
		for (i = 0; i < RTE_PMD_OCTOPUS_MIG_HIST; i++)
			rte_tel_data_add_array_uint(h, st.latency_hist[i]);
		rte_tel_data_add_dict_container(c, "latency_hist_log2_us", h, 0);
	}
	add_queue_dict(d, c, q, tx);
}

static int
tel_migration(const char *cmd, const char *params, struct rte_tel_data *d)
{
	int port;

	RTE_SET_USED(cmd);
	port = port_param(params);
	if (port < 0)
		return -EINVAL;
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_int(d, "port_id", port);
	rte_tel_data_add_dict_string(d, "policy",
		rte_pmd_octopus_migration_auto_get(port) == 1 ? "auto" : "manual");
	add_queues(d, port, add_migration_queue);
	return 0;
}

RTE_INIT(octopus_telemetry_init)
{
	rte_telemetry_register_cmd("/octopus/list", tel_list,
		"Octopus ports. No parameters");
	rte_telemetry_register_cmd("/octopus/info", tel_info,
		"Members, steering and queues of an octopus port. Parameters: int port_id");
	rte_telemetry_register_cmd("/octopus/migration", tel_migration,
		"Queue migration state and counters of an octopus port. Parameters: int port_id");
}
