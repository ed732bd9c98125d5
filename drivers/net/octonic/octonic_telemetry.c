/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Telemetry (usertools/dpdk-telemetry.py): /octonic/list, /octonic/info,<port>
 * and /octonic/latency,<port>, whose fields octonic.rst describes ("Emulation
 * cost and the NUDMA model", "Locality", "Secondary processes").
 * /octonic/latency takes no lock, so that a sampler does not wait behind the
 * pollers as with /octonic/info (the engine's lock, for the sink).
 */

#include <stdio.h>
#include <stdlib.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_telemetry.h>

#include "octo_wire.h"
#include "octonic_internal.h"
#include "rte_pmd_octonic.h"

static int
tel_list(const char *cmd, const char *params, struct rte_tel_data *d)
{
	uint16_t pid;

	/* every PF, owned ones too (a virtual port's members): their owner
	 * is in /octonic/info
	 */
	rte_tel_data_start_array(d, RTE_TEL_INT_VAL);
	for (pid = rte_eth_find_next(0); pid < RTE_MAX_ETHPORTS;
	     pid = rte_eth_find_next(pid + 1))
		if (octonic_is_octonic(&rte_eth_devices[pid]))
			rte_tel_data_add_array_int(d, pid);
	return 0;
}

/* What the queue's poller spent emulating the NIC, and its NUDMA stall
 * (struct octonic_poll_cnt), since the last stats reset.
 */
static void
add_cycles(struct rte_tel_data *c, uint16_t port, uint16_t q, int tx)
{
	struct octonic_qcnt qc;

	if (!octonic_qcnt(rte_eth_devices[port].data, q, tx, &qc))
		return;
	rte_tel_data_add_dict_uint(c, "emulation_cycles",
		qc.poll.emu_cycles);
	rte_tel_data_add_dict_uint(c, "nudma_stall_cycles",
		qc.poll.nudma_cycles);
}

static void
add_queue(struct rte_tel_data *d, uint16_t port, uint16_t q, int tx)
{
	struct rte_pmd_octonic_locality loc;
	struct rte_tel_data *c;
	char name[32];

	if (rte_pmd_octonic_locality_get(port, q, tx, &loc) != 0)
		return;
	c = rte_tel_data_alloc();
	if (c == NULL)
		return;
	rte_tel_data_start_dict(c);
	rte_tel_data_add_dict_uint(c, "remote_dma_packets", loc.remote_dma_pkts);
	rte_tel_data_add_dict_uint(c, "remote_dma_bytes", loc.remote_dma_bytes);
	rte_tel_data_add_dict_uint(c, "polls", loc.polls);
	rte_tel_data_add_dict_uint(c, "remote_polls", loc.remote_polls);
	add_cycles(c, port, q, tx);
	snprintf(name, sizeof(name), "%s_q%u", tx ? "tx" : "rx", q);
	rte_tel_data_add_dict_container(d, name, c, 0);
}

static int
tel_info(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct rte_pmd_octonic_sink_stats ss;
	struct rte_pmd_octonic_datapath dp;
	struct rte_pmd_octonic_pf_info pi;
	struct rte_eth_dev_owner owner;
	struct octonic_pf *pf;
	uint64_t gen;
	char *end;
	unsigned long port;
	uint16_t q;

	if (params == NULL || *params == '\0')
		return -EINVAL;
	port = strtoul(params, &end, 10);
	if (*end != '\0' || port >= RTE_MAX_ETHPORTS ||
			rte_pmd_octonic_pf_info(port, &pi) != 0)
		return -EINVAL;
	pf = rte_eth_devices[port].data->dev_private;
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "nic", pf->nic->name);
	rte_tel_data_add_dict_string(d, "device", pf->dev_name);
	rte_tel_data_add_dict_int(d, "pf", pi.pf);
	rte_tel_data_add_dict_int(d, "nb_pfs", pi.nb_pfs);
	rte_tel_data_add_dict_int(d, "socket", pi.socket_id);
	if (rte_pmd_octonic_datapath_get(port, &dp) == 0) {
		rte_tel_data_add_dict_string(d, "topology",
			dp.topology == RTE_PMD_OCTONIC_TOPOLOGY_MPESW ? "mpesw" :
			dp.topology == RTE_PMD_OCTONIC_TOPOLOGY_SEPARATE ?
			"separate" : "octonic");
		rte_tel_data_add_dict_int(d, "pci_socket", dp.pci_socket_id);
		rte_tel_data_add_dict_int(d, "rx_step", dp.rx_step);
		rte_tel_data_add_dict_string(d, "rx_ring",
			dp.rx_ring_mlx5 ? "mlx5" : "plain");
		rte_tel_data_add_dict_int(d, "tx_comp_every", dp.tx_comp_every);
		rte_tel_data_add_dict_int(d, "tx_cleanup", dp.tx_cleanup);
	}
	/* what a remote DMA costs: the lines flushed (and with what), or
	 * the busy-wait
	 */
	rte_tel_data_add_dict_string(d, "nudma_dma",
		pf->nic->args.nudma_dma == OCTONIC_NUDMA_DMA_WAIT ? "wait" :
		octonic_flush_insn_name(pf->nic));
	rte_tel_data_add_dict_int(d, "plugged", pf->plugged);
	rte_tel_data_add_dict_int(d, "started", pf->started);
	if (rte_eth_dev_owner_get(port, &owner) == 0)
		rte_tel_data_add_dict_string(d, "owner",
			owner.id != RTE_ETH_DEV_NO_OWNER ? owner.name : "");
	rte_tel_data_add_dict_uint(d, "tsc_hz", rte_get_tsc_hz());
	if (rte_pmd_octonic_gen_count(port, &gen) == 0) {
		rte_tel_data_add_dict_uint(d, "generated", gen);
		rte_tel_data_add_dict_uint(d, "gen_overflow",
			rte_atomic_load_explicit(&pf->nic->gen_overflow,
				rte_memory_order_relaxed));
	}
	if (rte_pmd_octonic_sink_stats_get(port, &ss) == 0) {
		rte_tel_data_add_dict_uint(d, "sink_packets", ss.pkts);
		rte_tel_data_add_dict_uint(d, "sink_out_of_order", ss.out_of_order);
		rte_tel_data_add_dict_uint(d, "sink_lost", ss.lost);
		rte_tel_data_add_dict_uint(d, "latency_p50_ns",
			octonic_latency_ns(pf->nic, 0.50));
		rte_tel_data_add_dict_uint(d, "latency_p99_ns",
			octonic_latency_ns(pf->nic, 0.99));
	}
	for (q = 0; q < rte_eth_devices[port].data->nb_rx_queues; q++)
		add_queue(d, port, q, 0);
	for (q = 0; q < rte_eth_devices[port].data->nb_tx_queues; q++)
		add_queue(d, port, q, 1);
	return 0;
}

/* Buckets in a /octonic/latency reply: its three arrays stay well inside
 * the reply size telemetry allows (16 KB).
 */
#define TEL_LAT_MAX 256

struct tel_lat {
	uint64_t low[TEL_LAT_MAX];
	uint64_t high[TEL_LAT_MAX];
	uint64_t count[TEL_LAT_MAX];
};

static struct rte_tel_data *
u64_array(const uint64_t *v, unsigned int n)
{
	struct rte_tel_data *a = rte_tel_data_alloc();
	unsigned int i;

	if (a == NULL)
		return NULL;
	rte_tel_data_start_array(a, RTE_TEL_UINT_VAL);
	for (i = 0; i < n; i++)
		rte_tel_data_add_array_uint(a, v[i]);
	return a;
}

static int
tel_latency(const char *cmd, const char *params, struct rte_tel_data *d)
{
	static const char *const key[] = { "bucket_low_cycles",
		"bucket_high_cycles", "bucket_count" };
	struct rte_pmd_octonic_pf_info pi;
	struct octonic_nic *nic;
	struct rte_tel_data *a;
	struct tel_lat *h;
	uint64_t samples, stale, tsc, *arr[3];
	unsigned int n, i;
	unsigned long port;
	char *end;

	RTE_SET_USED(cmd);
	if (params == NULL || *params == '\0')
		return -EINVAL;
	port = strtoul(params, &end, 10);
	if (*end != '\0' || port >= RTE_MAX_ETHPORTS ||
			rte_pmd_octonic_pf_info(port, &pi) != 0)
		return -EINVAL;
	nic = ((struct octonic_pf *)rte_eth_devices[port].data->dev_private)->nic;
	/* the histogram is in the primary's heap (octonic_latency_ns) */
	if (rte_eal_process_type() != RTE_PROC_PRIMARY || nic->lat == NULL)
		return -ENOTSUP;
	h = malloc(sizeof(*h));
	if (h == NULL)
		return -ENOMEM;
	tsc = rte_get_tsc_cycles();
	n = octo_latency_nonempty(nic->lat, h->low, h->high, h->count, TEL_LAT_MAX);
	octo_latency_counts(nic->lat, &samples, &stale);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_uint(d, "tsc", tsc);
	rte_tel_data_add_dict_uint(d, "tsc_hz", rte_get_tsc_hz());
	rte_tel_data_add_dict_uint(d, "samples", samples);
	rte_tel_data_add_dict_uint(d, "stale", stale);
	/* relaxed reads, no lock: a benchmark waits on these for the end of
	 * a gen_limit= run without stalling the pollers
	 */
	rte_tel_data_add_dict_uint(d, "generated",
		rte_atomic_load_explicit(&nic->gen_count, rte_memory_order_relaxed));
	rte_tel_data_add_dict_uint(d, "gen_overflow",
		rte_atomic_load_explicit(&nic->gen_overflow, rte_memory_order_relaxed));
	arr[0] = h->low;
	arr[1] = h->high;
	arr[2] = h->count;
	for (i = 0; i < RTE_DIM(key); i++) {
		a = u64_array(arr[i], n);
		if (a != NULL)
			rte_tel_data_add_dict_container(d, key[i], a, 0);
	}
	free(h);
	return 0;
}

RTE_INIT(octonic_telemetry_init)
{
	rte_telemetry_register_cmd("/octonic/list", tel_list,
		"Port ids of net_octonic PFs. No parameters");
	rte_telemetry_register_cmd("/octonic/info", tel_info,
		"A net_octonic PF: NIC, index, socket, locality per queue. Parameters: int port_id");
	rte_telemetry_register_cmd("/octonic/latency", tel_latency,
		"Generator-to-sink latency histogram of a net_octonic PF's NIC. Parameters: int port_id");
}
