/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Rule insertion and deletion through the virtual port next to a bare PF of
 * the same NIC model, in one process, interleaved: a run of flow-perf per
 * side meets the host's load of the moment (the bare PF's rate moved 2x
 * between runs on a shared 2-CPU VM), chunks of rules that alternate meet
 * the same load.
 *
 *   bench_flow_insert [EAL args] -- [RULES [ROUNDS]] | ir RULES
 *
 * Two NICs: net_octonic0 (2 PFs, numa 0:1) under net_octopus0, and
 * net_octonic1 whose PF0 is the bare port. Each side gets RULES (default
 * 100000) ingress rules "eth / ipv4 src is i / end, queue index 0", as
 * dpdk-test-flow-perf --ingress --ether --ipv4 --queue makes them, in ROUNDS
 * (default 20) chunks; the side that goes first alternates. Then each
 * destroys its rules in the same chunks. Printed: each side's K rules/s
 * (all its chunks' rules over their time) and its best chunk in TSC cycles
 * per rule (what a rule costs when nothing else takes the CPU), and
 * octopus / PF as the ratio of those rates, as the median of the per-chunk
 * ratios and as the ratio of the best chunks.
 * ir: RULES rules per side, each side in a function of its own
 * (ir_create_pf, ir_create_octopus, ir_destroy_pf, ir_destroy_octopus),
 * each printed as "ir-op FUNCTION RULES" for tests/common/callgrind_ops.py
 * (valgrind --tool=callgrind: instructions per rule = inclusive Ir / RULES).
 * Run under octopus-numa-emu --nodes 2 (the PFs are on two sockets).
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_flow.h>
#include <rte_mbuf.h>

#include "../common/octo_eal.h"
#include "../common/octo_test_eal.h"
#include "../common/octo_port.h"

#include "bench_chunks.h"

#define NB_QUEUES 1	/* flow-perf's RXQ_NUM: every rule takes queue 0 */

enum { PF, OCTOPUS, NB_SIDES };

static const char *const side_name[NB_SIDES] = { "bare PF", "net_octopus" };
static uint16_t side_port[NB_SIDES];
static struct rte_flow **side_rules[NB_SIDES];

/* Rules [from, to) on @p side; returns how many were made. */
static uint32_t
create_range(int side, uint32_t from, uint32_t to)
{
	struct rte_flow_attr attr = { .ingress = 1 };
	struct rte_flow_item_ipv4 spec, mask;
	struct rte_flow_action_queue queue;
	struct rte_flow_item pattern[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4, .spec = &spec, .mask = &mask },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_action actions[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &queue },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_error err;
	uint32_t i, made = 0;

	memset(&spec, 0, sizeof(spec));
	memset(&mask, 0, sizeof(mask));
	mask.hdr.src_addr = RTE_BE32(0xffffffff);
	for (i = from; i < to; i++) {
		spec.hdr.src_addr = rte_cpu_to_be_32(i);
		queue.index = (uint16_t)(i % NB_QUEUES);
		side_rules[side][i] = rte_flow_create(side_port[side], &attr, pattern,
			actions, &err);
		if (side_rules[side][i] == NULL) {
			fprintf(stderr, "%s: rule %u: %s\n", side_name[side], i,
				err.message != NULL ? err.message : "(no message)");
			break;
		}
		made++;
	}
	return made;
}

static uint32_t
destroy_range(int side, uint32_t from, uint32_t to)
{
	struct rte_flow_error err;
	uint32_t i, gone = 0;

	for (i = from; i < to; i++) {
		if (side_rules[side][i] == NULL)
			continue;
		if (rte_flow_destroy(side_port[side], side_rules[side][i], &err) == 0)
			gone++;
		side_rules[side][i] = NULL;
	}
	return gone;
}

/*
 * One function per side and operation, ir_<op>_<side>, so that callgrind
 * attributes each (the names callgrind_ops.py's bounds use).
 */
#define IR_OP(op, side, SIDE) \
static __rte_noinline uint32_t \
ir_ ## op ## _ ## side(uint32_t n) \
{ \
	return op ## _range(SIDE, 0, n); \
}
IR_OP(create, pf, PF)
IR_OP(create, octopus, OCTOPUS)
IR_OP(destroy, pf, PF)
IR_OP(destroy, octopus, OCTOPUS)

static int
port_start(uint16_t port, struct rte_mempool *mp)
{
	struct octo_port_conf c = {
		.nb_rxq = NB_QUEUES, .nb_txq = NB_QUEUES, .nb_desc = 256, .pool = mp,
	};

	return octo_port_start(port, &c);
}

/*
 * @p rounds chunks of @p n / rounds rules per side, by @p op (create or
 * destroy), the first side alternating; prints the rates and the ratios.
 * @return 0 if every rule was made (or destroyed).
 */
static int
interleaved(const char *what, uint32_t (*op)(int, uint32_t, uint32_t), uint32_t n,
		uint32_t rounds)
{
	double *ratio = calloc(rounds, sizeof(*ratio));
	uint64_t cycles[NB_SIDES] = { 0 }, c[NB_SIDES], t0;
	uint32_t r, from, to, done[NB_SIDES] = { 0 };
	double rate[NB_SIDES], best[NB_SIDES] = { 0 }, hz = (double)rte_get_tsc_hz();
	int k, s;

	if (ratio == NULL)
		return -1;
	for (r = 0; r < rounds; r++) {
		bench_chunk(n, rounds, r, &from, &to);
		for (k = 0; k < NB_SIDES; k++) {
			s = bench_chunk_side(r, k, NB_SIDES);
			t0 = rte_rdtsc();
			done[s] += op(s, from, to);
			c[s] = rte_rdtsc() - t0;
			cycles[s] += c[s];
		}
		ratio[r] = (double)c[PF] / (double)c[OCTOPUS];
		for (s = 0; s < NB_SIDES; s++)
			if (best[s] == 0 || (double)c[s] / (to - from) < best[s])
				best[s] = (double)c[s] / (to - from);
	}
	for (s = 0; s < NB_SIDES; s++) {
		rate[s] = (double)done[s] / ((double)cycles[s] / hz) / 1000.0;
		printf("%s %-12s %8u rules %9.1f K rules/s, best chunk %6.0f cycles/rule\n",
			what, side_name[s], done[s], rate[s], best[s]);
	}
	qsort(ratio, rounds, sizeof(*ratio), bench_cmp_double);
	printf("%s octopus / PF: %.2f (rates), %.2f (median of %u chunks, %.2f .. %.2f), %.2f (best chunks)\n",
		what, rate[OCTOPUS] / rate[PF], ratio[rounds / 2], rounds, ratio[0],
		ratio[rounds - 1], best[PF] / best[OCTOPUS]);
	free(ratio);
	return done[PF] == n && done[OCTOPUS] == n ? 0 : -1;
}

int
main(int argc, char **argv)
{
	char **eal = argv;
	int nb = argc, ret, s;
	uint32_t n = 100000, rounds = 20;
	struct rte_mempool *mp;
	bool ir = false;

	if (octo_eal_init_args(&nb, &eal, 3072) < 0)
		return 2;
	if (nb > 1 && strcmp(eal[1], "ir") == 0) {
		ir = true;
		eal++;
		nb--;
	}
	if (nb > 1)
		n = (uint32_t)strtoul(eal[1], NULL, 0);
	if (nb > 2)
		rounds = (uint32_t)strtoul(eal[2], NULL, 0);
	if (n == 0 || rounds == 0 || rounds > n) {
		fprintf(stderr, "usage: bench_flow_insert [EAL] -- [RULES [ROUNDS]] | ir RULES\n");
		return 2;
	}
	if (rte_vdev_init("net_octonic0", "pfs=2,numa=0:1") != 0 ||
	    rte_vdev_init("net_octopus0",
		"member=net_octonic0_pf0,member=net_octonic0_pf1") != 0 ||
	    rte_vdev_init("net_octonic1", "pfs=2,numa=0:1") != 0 ||
	    rte_eth_dev_get_port_by_name("net_octonic1_pf0", &side_port[PF]) != 0 ||
	    rte_eth_dev_get_port_by_name("net_octopus0", &side_port[OCTOPUS]) != 0) {
		fprintf(stderr, "cannot create the ports\n");
		return 2;
	}
	mp = octo_app_pool("bench", 4096, 0);
	if (mp == NULL)
		return 2;
	for (s = 0; s < NB_SIDES; s++) {
		side_rules[s] = calloc(n, sizeof(*side_rules[s]));
		if (side_rules[s] == NULL || port_start(side_port[s], mp) != 0) {
			fprintf(stderr, "%s: cannot start port %u\n", side_name[s],
				side_port[s]);
			return 2;
		}
	}
	ret = 0;
	if (ir) {
		uint32_t made[NB_SIDES], gone[NB_SIDES];

		/* in this order: printf's arguments have none */
		made[PF] = ir_create_pf(n);
		made[OCTOPUS] = ir_create_octopus(n);
		gone[PF] = ir_destroy_pf(n);
		gone[OCTOPUS] = ir_destroy_octopus(n);
		printf("ir-op ir_create_pf %u\nir-op ir_create_octopus %u\n"
			"ir-op ir_destroy_pf %u\nir-op ir_destroy_octopus %u\n",
			made[PF], made[OCTOPUS], gone[PF], gone[OCTOPUS]);
		if (made[PF] != n || made[OCTOPUS] != n || gone[PF] != n || gone[OCTOPUS] != n)
			ret = 1;
	} else {
		printf("%u rules per side in %u chunks, sides alternating (TSC %.0f MHz)\n",
			n, rounds, (double)rte_get_tsc_hz() / 1e6);
		if (interleaved("insert", create_range, n, rounds) != 0 ||
		    interleaved("delete", destroy_range, n, rounds) != 0)
			ret = 1;
	}
	fflush(stdout);
	for (s = 0; s < NB_SIDES; s++) {
		rte_eth_dev_stop(side_port[s]);
		rte_eth_dev_close(side_port[s]);
		free(side_rules[s]);
	}
	octo_test_eal_cleanup();
	return ret;
}
