/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Scale at 8 PFs: the steering planner and the NIC model's e-switch with 8
 * members, 64 queues per port and many application rules.
 *
 *   bench_scale8 EAL... -- RULES
 *
 * Run under tools/octopus-numa-emu --nodes 8.
 *  1. The planner alone (lib/steering): every queue of 64 moved to each of
 *     the 7 other members: time per planned move, and its rule operations
 *     (must be one ADD and one DEL: one home rule replaced).
 *  2. net_octopus over the 8 PFs of one net_octonic NIC (PF k on socket k),
 *     64 queues (queue q set up on socket q mod 8): RULES application rules
 *     (5-tuple -> QUEUE, spread over the 64 queues) created through the
 *     port: time and memory per rule (DPDK heap and libc heap, before and
 *     after); then every queue moved to each of the 7 other sockets in turn
 *     (rte_pmd_octopus_queue_migrate): time per move (request to steady)
 *     and the NIC's rule creates and destroys per move, which must be one
 *     each whatever RULES is; then the rules flushed (time).
 * A move that costs more than one rule change, a rule refused or a move not
 * completing fails (exit 1); no time is judged.
 */

#include <inttypes.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_flow.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "octo_steering.h"
#include "rte_pmd_octonic.h"
#include "rte_pmd_octopus.h"

#include "../common/octo_check.h"
#include "../common/octo_dialect.h"
#include "../common/octo_flow_rule.h"
#include "../common/octo_port.h"
#include "../common/octo_state.h"
#include "../common/octo_steer_conf.h"
#include "../common/octo_test_eal.h"

#define NB_PF 8
#define NB_Q 64
#define RETA 512
#define NB_DESC 256
#define MOVE_LIMIT_MS 10000

static uint16_t port, pf0;

static double
ns_since(uint64_t t0)
{
	return (double)(rte_get_timer_cycles() - t0) * 1e9 / rte_get_timer_hz();
}

/* Bytes allocated: every socket's DPDK heap, and libc's heap. */
static void
mem_used(uint64_t *dpdk, uint64_t *libc)
{
	struct rte_malloc_socket_stats s;
	struct mallinfo2 mi = mallinfo2();
	unsigned int i;

	*dpdk = 0;
	for (i = 0; i < rte_socket_count(); i++)
		if (rte_malloc_get_socket_stats(rte_socket_id_by_idx(i), &s) == 0)
			*dpdk += s.heap_allocsz_bytes;
	*libc = mi.uordblks + mi.hblkhd;
}

/* The planner alone: 64 queues x 7 other members, one home rule each. */
static void
planner(void)
{
	uint16_t home[NB_Q], reta[RETA], q, m;
	struct octo_steer_plan_conf conf;
	struct octo_steer_change chg;
	struct octo_steer_plan *plan;
	unsigned int moves = 0, bad = 0;
	char why[128];
	uint64_t t0;
	double ns;

	octo_homes_spread(home, NB_Q, NB_PF);
	octo_reta_spread(reta, RETA, NB_Q);
	octo_steer_plan_conf_fill(&conf, NB_PF, NB_Q, home, reta, RETA, OCTO_STEER_FIELD_L4_SRC);
	t0 = rte_get_timer_cycles();
	if (octo_steer_plan_create(&plan, &conf, why, sizeof(why)) != 0) {
		CHECK(0, "plan: %s", why);
		return;
	}
	printf("planner: %u members, %u queues, RETA %u: %u rules planned in %.1f us\n",
		NB_PF, NB_Q, RETA, octo_steer_plan_nb_rules(plan), ns_since(t0) / 1000);
	t0 = rte_get_timer_cycles();
	for (q = 0; q < NB_Q; q++)
		for (m = 1; m < NB_PF; m++) {
			if (octo_steer_plan_set_home(plan, q, (uint16_t)((q + m) % NB_PF), &chg) != 0 ||
			    chg.nb_ops != 2 || chg.ops[0].type != OCTO_STEER_OP_ADD ||
			    chg.ops[1].type != OCTO_STEER_OP_DEL)
				bad++;
			else
				octo_steer_plan_commit(plan, &chg);
			moves++;
		}
	ns = ns_since(t0);
	printf("planner: %u moves (each queue to each other member) in %.1f us, %.0f ns per move; %u not one ADD + one DEL\n",
		moves, ns / 1000, ns / moves, bad);
	CHECK(bad == 0, "%u planned moves were not one home rule replaced", bad);
	octo_steer_plan_free(plan);
}

static struct rte_pmd_octonic_flow_stats
fstats(void)
{
	struct rte_pmd_octonic_flow_stats s;

	memset(&s, 0, sizeof(s));
	rte_pmd_octonic_flow_stats_get(pf0, &s);
	return s;
}

/* Application rule @p i: its own source address and port -> a queue. */
static struct rte_flow *
app_rule(uint32_t i, struct rte_flow_error *err)
{
	return octo_flow_to_queue(port, rte_cpu_to_be_32(0x0a000000u + i / 50000),
		rte_cpu_to_be_16((uint16_t)(i % 50000 + 1)), (uint16_t)(i % NB_Q), err);
}

/* queue q on socket q mod 8 (the 8 emulated ones), its Rx buffers from
 * that socket's pool
 */
static int
start_port(void)
{
	struct octo_port_conf pc = {
		.nb_rxq = NB_Q,
		.nb_txq = NB_Q,
		.nb_desc = NB_DESC,
		.socket = OCTO_SOCKET_SPREAD,
	};
	struct rte_mempool *mp[NB_PF];
	char name[32];
	unsigned int s;
	uint16_t q;

	for (s = 0; s < NB_PF; s++) {
		snprintf(name, sizeof(name), "scale%u", s);
		/* the rings of the queues on this pool, on every member (a
		 * NIC that fills its rings at start, mlx5, takes them all),
		 * and their Tx rings */
		mp[s] = rte_pktmbuf_pool_create(name,
			(NB_PF + 1) * (NB_Q / NB_PF) * NB_DESC + 1024,
			0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, (int)s);
		if (mp[s] == NULL)
			return -rte_errno;
	}
	for (q = 0; q < NB_Q; q++)
		pc.rx_pool[q] = mp[q % NB_PF];
	return octo_port_start(port, &pc);
}

/* Move Rx queue @p q to @p socket; ns from request to steady, -1 if not. */
static double
move(uint16_t q, int socket)
{
	uint64_t t0 = rte_get_timer_cycles();
	uint64_t end = t0 + rte_get_timer_hz() / 1000 * MOVE_LIMIT_MS;
	struct rte_pmd_octopus_migration r;
	int ret = rte_pmd_octopus_queue_migrate(port, q, socket);
	struct rte_mbuf *pkts[32];
	uint16_t n;

	if (ret != 0) {
		CHECK(0, "migrate queue %u to socket %d: %d", q, socket, ret);
		return -1;
	}
	do {
		/* the move drains the old PF through the queue's poller: this
		 * thread polls it (no traffic, so nothing comes)
		 */
		n = rte_eth_rx_burst(port, q, pkts, RTE_DIM(pkts));
		rte_pktmbuf_free_bulk(pkts, n);
		rte_eth_tx_burst(port, q, pkts, 0);
		memset(&r, 0, sizeof(r));
		rte_pmd_octopus_migration_get(port, q, 0, &r);
		if (r.phase == RTE_PMD_OCTOPUS_MIG_STEADY && r.home_socket == socket)
			return ns_since(t0);
	} while (rte_get_timer_cycles() < end);
	CHECK(0, "queue %u not steady on socket %d within %d ms", q, socket, MOVE_LIMIT_MS);
	return -1;
}

static void
port_scale(uint32_t nb_rules)
{
	struct rte_pmd_octonic_flow_stats f0, f1, fb, fa;
	uint64_t d0, l0, d1, l1, t0, creates = 0, destroys = 0, worst = 0;
	struct rte_flow_error err;
	unsigned int moves = 0, k;
	double ns, ins, total_ns = 0, max_ns = 0;
	uint32_t i, made = 0;
	uint16_t q;
	int to;

	CHECK(start_port() == 0, "configure, set up and start the port");
	if (octo_failures)
		return;
	f0 = fstats();
	mem_used(&d0, &l0);
	t0 = rte_get_timer_cycles();
	for (i = 0; i < nb_rules; i++) {
		memset(&err, 0, sizeof(err));
		if (app_rule(i, &err) == NULL) {
			CHECK(0, "rule %u: %s", i, err.message ? err.message : "?");
			break;
		}
		made++;
	}
	ins = ns_since(t0);
	mem_used(&d1, &l1);
	f1 = fstats();
	printf("port: %u application rules on %u PFs, %u queues in %.2f s: %.0f ns per rule; memory %.0f B per rule (DPDK heap %.0f, libc %.0f); NIC rules %u -> %u\n",
		made, NB_PF, NB_Q, ins / 1e9, ins / (made ? made : 1),
		((double)(d1 - d0) + (double)(l1 - l0)) / (made ? made : 1),
		(double)(d1 - d0) / (made ? made : 1), (double)(l1 - l0) / (made ? made : 1),
		f0.transfer_rules, f1.transfer_rules);
	CHECK(made == nb_rules && f1.transfer_rules == f0.transfer_rules + nb_rules,
		"%u rules made, NIC transfer rules %u -> %u", made, f0.transfer_rules,
		f1.transfer_rules);

	/* every queue to each other socket in turn, ending home */
	mem_used(&d0, &l0);
	for (q = 0; q < NB_Q; q++)
		for (k = 1; k <= NB_PF; k++) {
			to = (int)((q + k) % NB_PF);
			fb = fstats();
			ns = move(q, to);
			fa = fstats();
			if (ns < 0)
				continue;
			moves++;
			total_ns += ns;
			if (ns > max_ns)
				max_ns = ns;
			creates += fa.creates - fb.creates;
			destroys += fa.destroys - fb.destroys;
			if (fa.creates - fb.creates != 1 || fa.destroys - fb.destroys != 1) {
				worst++;
				if (worst <= 5)
					printf("move of queue %u to socket %d: %" PRIu64 " creates, %"
						PRIu64 " destroys\n", q, to, fa.creates - fb.creates,
						fa.destroys - fb.destroys);
			}
		}
	mem_used(&d1, &l1);
	printf("port: %u moves (each queue to each other socket) with %u rules: %.1f us per move (max %.1f), memory %.1f B per move, rule changes %.3f creates + %.3f destroys per move, %" PRIu64 " moves not one create + one destroy\n",
		moves, made, moves ? total_ns / moves / 1000 : 0.0, max_ns / 1000,
		moves ? ((double)d1 - (double)d0 + (double)l1 - (double)l0) / moves : 0.0,
		moves ? (double)creates / moves : 0.0, moves ? (double)destroys / moves : 0.0,
		worst);
	CHECK(moves == NB_Q * NB_PF && worst == 0,
		"%u of %u moves done, %" PRIu64 " not one rule change", moves, NB_Q * NB_PF,
		worst);
	t0 = rte_get_timer_cycles();
	CHECK(rte_flow_flush(port, &err) == 0, "flush");
	printf("port: %u rules flushed in %.2f s\n", made, ns_since(t0) / 1e9);
	CHECK(fstats().transfer_rules == f0.transfer_rules, "after flush %u rules, want %u",
		fstats().transfer_rules, f0.transfer_rules);
	octo_port_stop_close(port);
}

int
main(int argc, char **argv)
{
	char members[512], nic[256];
	char **args, **own_args;
	uint32_t nb_rules;
	int n, len, i;

	/* the caller's EAL options, then the NIC and the port */
	args = calloc((size_t)argc + 8, sizeof(*args));
	if (args == NULL)
		return 2;
	/* EAL init hands back an argument list of its own: this one is freed at exit */
	own_args = args;
	for (n = 0; n < argc && strcmp(argv[n], "--") != 0; n++)
		args[n] = argv[n];
	snprintf(nic, sizeof(nic), "net_octonic0,pfs=8,numa=0:1:2:3:4:5:6:7%s",
		octo_dialect_suffix());
	len = snprintf(members, sizeof(members), "net_octopus0");
	for (i = 0; i < NB_PF; i++)
		len += snprintf(members + len, sizeof(members) - len,
			",member=net_octonic0_pf%d", i);
	snprintf(members + len, sizeof(members) - len, ",migration=manual,rx_pool=app");
	args[n++] = "--vdev";
	args[n++] = nic;
	args[n++] = "--vdev";
	args[n++] = members;
	for (i = 0; i < argc && strcmp(argv[i], "--") != 0; i++)
		;
	if (i + 1 >= argc) {
		fprintf(stderr, "usage: %s EAL... -- RULES\n", argv[0]);
		return 2;
	}
	nb_rules = (uint32_t)strtoul(argv[i + 1], NULL, 0);
	if (octo_test_eal_init(&n, &args, 1024) < 0) {
		fprintf(stderr, "EAL init failed\n");
		return 2;
	}
	if (rte_socket_count() < NB_PF) {
		fprintf(stderr, "EAL sees %u sockets: run under octopus-numa-emu --nodes 8\n",
			rte_socket_count());
		return 2;
	}
	if (rte_eth_dev_get_port_by_name("net_octopus0", &port) != 0 ||
	    rte_eth_dev_get_port_by_name("net_octonic0_pf0", &pf0) != 0)
		return 2;
	printf("command: %s", argv[0]);
	for (n = 1; n < argc; n++)
		printf(" %s", argv[n]);
	printf("\n");
	planner();
	port_scale(nb_rules);
	rte_eal_cleanup();
	free(own_args);
	printf("%s: %u failure(s)\n", octo_failures ? "FAIL" : "done", (unsigned int)octo_failures);
	return octo_failures ? 1 : 0;
}
