/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_pmd_octonic.h>
#include <octopus_dpdk_compat.h>

#include "octo_gen_flow.h"
#include "octo_poll.h"
#include "octo_state.h"

static int
poll_lcore(void *arg)
{
	struct octo_poll *p = arg;
	uint16_t q = (uint16_t)rte_lcore_id();
	bool main_lcore = rte_lcore_id() == rte_get_main_lcore();
	struct rte_mbuf *pkts[32];
	uint16_t n;

	if (q >= p->nb_q)
		return 0;
	while (!p->stop) {
		n = rte_eth_rx_burst(p->port, q, pkts, RTE_DIM(pkts));
		if (n > 0)
			p->burst(p, q, pkts, n);
		else if (main_lcore && p->done(p))
			p->stop = 1;
		else if (!main_lcore && p->idle_sleep)
			rte_delay_us_sleep(50);
	}
	if (p->end != NULL)
		p->end(p, q);
	return 0;
}

void
octo_poll_run(struct octo_poll *p)
{
	p->stop = 0;
	rte_eal_mp_remote_launch(poll_lcore, p, SKIP_MAIN);
	poll_lcore(p);
	p->stop = 1;
	rte_eal_mp_wait_lcore();
}

static void
phase_burst(struct octo_poll *p, uint16_t q, struct rte_mbuf **pkts, uint16_t n)
{
	struct octo_phase *ph = p->arg;
	uint16_t k;

	for (k = 0; k < n; k++) {
		rte_be32_t src;
		rte_be16_t sport;
		int f = octo_gen_flow_of(pkts[k], ph->nb_flows, &src, &sport);

		if (f >= 0) {
			ph->cnt[q][f]++;
			ph->flow_src[f] = src;
			ph->flow_sport[f] = sport;
		}
		if (ph->each != NULL)
			ph->each(ph, q, pkts[k], f);
		rte_pktmbuf_free(pkts[k]);
	}
	rte_atomic_fetch_add_explicit(&ph->received, n, rte_memory_order_relaxed);
	rte_atomic_store_explicit(&ph->last_rx_tsc, rte_get_timer_cycles(),
		rte_memory_order_relaxed);
}

static bool
phase_done(struct octo_poll *p)
{
	struct octo_phase *ph = p->arg;
	uint64_t now = rte_get_timer_cycles();

	return (rte_atomic_load_explicit(&ph->received, rte_memory_order_relaxed) >=
			ph->expected &&
		now - rte_atomic_load_explicit(&ph->last_rx_tsc, rte_memory_order_relaxed) >
			rte_get_timer_hz() / 20) ||
		now > ph->deadline;
}

int
octo_phase_run(struct octo_phase *ph, uint32_t limit, uint64_t expected)
{
	int ret;

	memset(ph->cnt, 0, sizeof(ph->cnt));
	ph->received = 0;
	ret = octo_gen_limit(ph->gen_port, limit);
	if (ret != 0)
		return ret;
	ph->expected = expected;
	ph->last_rx_tsc = rte_get_timer_cycles();
	ph->deadline = ph->last_rx_tsc + 20 * rte_get_timer_hz();
	ph->poll.burst = phase_burst;
	ph->poll.done = phase_done;
	ph->poll.arg = ph;
	rte_pmd_octonic_gen_enable(ph->gen_port, 1);
	octo_poll_run(&ph->poll);
	rte_pmd_octonic_gen_enable(ph->gen_port, 0);
	return 0;
}

uint32_t
octo_phase_flow_total(const struct octo_phase *ph, int f)
{
	uint32_t t = 0;
	uint16_t q;

	for (q = 0; q < ph->poll.nb_q; q++)
		t += ph->cnt[q][f];
	return t;
}

int
octo_phase_flow_queue(const struct octo_phase *ph, int f)
{
	int found = -1;
	uint16_t q;

	for (q = 0; q < ph->poll.nb_q; q++) {
		if (ph->cnt[q][f] == 0)
			continue;
		if (found >= 0)
			return -1;
		found = q;
	}
	return found;
}
