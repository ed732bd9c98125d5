/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Asynchronous rule insertion and deletion (rte_flow's template API)
 * through the virtual port next to a bare PF of the same NIC model, and the
 * virtual port's synchronous rate, interleaved in one process as
 * tests/bench/bench_flow_insert.c does: chunks of rules that alternate
 * between the sides meet the same load of a shared host.
 *
 *   bench_flow_async [EAL args] -- [RULES [CHUNKS]] [check ATTEMPTS | only SIDE | ir]
 *
 * Two NICs: net_octonic0 (2 PFs, numa 0:1) under net_octopus0, and
 * net_octonic1 whose PF0 is the bare port. Each port gets rte_flow_configure
 * (one flow queue of QSIZE), one ingress pattern template "eth / ipv4 src
 * dst / udp src dst" (5-tuple style, fully masked but the protocol), one
 * actions template "QUEUE" whose index each rule gives, and one template
 * table of RULES rules (default 100000) in group 0. Three sides:
 *   bare PF async   rte_flow_async_create/_destroy on the bare PF's table,
 *   octopus async   the same on the virtual port's table,
 *   octopus sync    rte_flow_create/_destroy of rules of the same shape on
 *                   the virtual port (group 0, other addresses, UDP's
 *                   destination port left out of the mask),
 * each making RULES rules then destroying them, in CHUNKS chunks (default
 * 20), the side that goes first rotating. Asynchronous operations go in
 * bursts of BURST (postpone set) with one rte_flow_push per burst; the
 * queue is pulled whenever the operations in flight would not leave room
 * for another burst, and drained at the end of each chunk, whose time
 * includes every completion. Each completion must succeed and carry its
 * operation's user_data.
 * Printed per side and operation: K rules/s (all chunks' rules over their
 * time) and the best chunk in TSC cycles per rule; then the ratios
 * octopus async / bare PF async and octopus async / octopus sync, as
 * ratios of the rates, medians of the per-chunk ratios and ratios of the
 * best chunks; and the command that reproduces the run.
 * check ATTEMPTS [PF_RATIO SYNC_RATIO]: the goals (or the
 * ratios given) on the ratios of the best chunks:
 * octopus async >= GOAL_PF x bare PF async, insertion and deletion, and
 * octopus async insertion >= GOAL_SYNC x octopus sync insertion (3x the
 * port's synchronous deletion would ask the port to delete faster
 * than the bare PF's own asynchronous deletion: 1450 vs 640 cycles). The
 * best chunks, not the rates or the median
 * chunk: on a shared 2-CPU host most chunks of a few ms are preempted at
 * least once (per-chunk ratios spread from 0.02 to 5 at load 8), and a
 * side's fastest chunk is what its rules cost when nothing else took the
 * CPU. Up to ATTEMPTS measurements (rules made and destroyed again),
 * passing at the first that meets every goal (noise only ever slows a side
 * down: bench_eswitch's rule); exit 1 if none does.
 * only pf|async|sync: that side alone (no ratios), for a profiler
 * (perf record -e cpu-clock, valgrind --tool=callgrind): where a rule's
 * cycles go.
 * ir: each side makes its RULES rules, then destroys them, each side and
 * operation in a function of its own (ir_pf_async_create, ...), printed
 * as "ir-op FUNCTION RULES" for tests/common/callgrind_ops.py: under
 * valgrind --tool=callgrind, instructions per rule, which no load of the
 * host changes (the test template_flow_async_ir bounds their ratios).
 * Each side's rules are alone in their e-switch table (the model has one
 * per mask): a side sharing the port's table would make it hold twice the
 * bare PF's keys, and the ratios would compare table sizes, not drivers.
 * BENCH_CHUNKS set in the environment: each chunk's cycles per rule, per
 * side, on stderr.
 * Both NICs take OCTONIC_DIALECT's devargs (tests/common/octo_dialect.h),
 * e.g. "dialect=mlx5-hws,xmeta=4", which meson gives the test and the
 * benchmark. Run under octopus-numa-emu --nodes 2 (the PFs are on two
 * sockets).
 */

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_flow.h>
#include <rte_mbuf.h>

#include "../common/octo_dialect.h"
#include "../common/octo_eal.h"
#include "../common/octo_flow_rule.h"
#include "../common/octo_test_eal.h"
#include "../common/octo_port.h"

#include "bench_chunks.h"

#define NB_QUEUES 2	/* rule i sends to queue i % NB_QUEUES */
#define BURST 32	/* operations per rte_flow_push */
#define QSIZE 1024	/* the flow queue's size */
#define FQ 0		/* the flow queue used */
#define GOAL_PF 0.8	/* octopus async / bare PF async */
#define GOAL_SYNC 3.0	/* octopus async / octopus sync */
/* sync rules' addresses: apart from the async rules' (none match both) */
#define SYNC_KEY 0x40000000u

enum { PF_ASYNC, OCT_ASYNC, OCT_SYNC, NB_SIDES };
enum { OP_CREATE, OP_DESTROY, NB_OPS };

static const char *const side_name[NB_SIDES] = {
	"bare PF async", "octopus async", "octopus sync",
};
static const char *const op_name[NB_OPS] = { "insert", "delete" };

struct side {
	uint16_t port;
	struct rte_flow_template_table *table;
	struct rte_flow **rules;
};

static struct side sides[NB_SIDES];
static int only = -1;	/* the side run alone, -1: all */
static const char *const side_arg[NB_SIDES] = { "pf", "async", "sync" };
static char command[1024];

/* The rule of key @p key: its pattern and action (storage in @p r). */
struct rule_buf {
	struct rte_flow_item_ipv4 ip;
	struct rte_flow_item_udp udp;
	struct rte_flow_action_queue queue;
	struct rte_flow_item pattern[4];
	struct rte_flow_action actions[2];
};

static const struct rte_flow_item_ipv4 ip_mask = {
	.hdr = { .src_addr = RTE_BE32(0xffffffff), .dst_addr = RTE_BE32(0xffffffff) },
};
static const struct rte_flow_item_udp udp_mask = {
	.hdr = { .src_port = RTE_BE16(0xffff), .dst_port = RTE_BE16(0xffff) },
};

/* The synchronous side's: without UDP's destination port, so that its
 * rules have an e-switch table of their own (one per mask, as mlx5's
 * matchers) and each side's table holds that side's rules only. */
static const struct rte_flow_item_udp udp_mask_sync = {
	.hdr = { .src_port = RTE_BE16(0xffff) },
};

static void
rule_init(struct rule_buf *r)
{
	memset(r, 0, sizeof(*r));
	r->pattern[0].type = RTE_FLOW_ITEM_TYPE_ETH;
	r->pattern[1] = (struct rte_flow_item){ .type = RTE_FLOW_ITEM_TYPE_IPV4,
		.spec = &r->ip, .mask = &ip_mask };
	r->pattern[2] = (struct rte_flow_item){ .type = RTE_FLOW_ITEM_TYPE_UDP,
		.spec = &r->udp, .mask = &udp_mask };
	r->pattern[3].type = RTE_FLOW_ITEM_TYPE_END;
	r->actions[0] = (struct rte_flow_action){ .type = RTE_FLOW_ACTION_TYPE_QUEUE,
		.conf = &r->queue };
	r->actions[1].type = RTE_FLOW_ACTION_TYPE_END;
	r->ip.hdr.dst_addr = RTE_BE32(0xc6120001);	/* 198.18.0.1 */
	r->udp.hdr.dst_port = RTE_BE16(4789);
}

static inline void
rule_set(struct rule_buf *r, uint32_t key)
{
	r->ip.hdr.src_addr = rte_cpu_to_be_32(key);
	r->udp.hdr.src_port = rte_cpu_to_be_16((uint16_t)(0xc000 | (key & 0x3fff)));
	r->queue.index = (uint16_t)(key % NB_QUEUES);
}

/* The template API on @p side's port: configure (stopped), templates, a
 * table of @p n rules. */
static int
templates_make(struct side *s, uint32_t n)
{
	const struct rte_flow_queue_attr qattr = { .size = QSIZE };
	const struct rte_flow_queue_attr *qattrs[] = { &qattr };
	const struct rte_flow_port_attr pattr = { .nb_counters = 0 };
	const struct rte_flow_pattern_template_attr ptattr = { .ingress = 1 };
	const struct rte_flow_actions_template_attr atattr = { .ingress = 1 };
	struct rte_flow_template_table_attr tattr = {
		.flow_attr = { .group = 0, .ingress = 1 }, .nb_flows = n,
	};
	const struct rte_flow_item pt_items[] = OCTO_ITEMS_UDP_MASK(&ip_mask, &udp_mask);
	/* the queue index unmasked: each rule gives its own */
	const struct rte_flow_action at_actions[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &(struct rte_flow_action_queue){ 0 } },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	const struct rte_flow_action at_masks[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &(struct rte_flow_action_queue){ 0 } },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_pattern_template *pt;
	struct rte_flow_actions_template *at;
	struct rte_flow_error err = { 0 };
	const char *what;

	what = "stop";
	if (rte_eth_dev_stop(s->port) != 0)
		goto fail;
	what = "rte_flow_configure";
	if (rte_flow_configure(s->port, &pattr, 1, qattrs, &err) != 0)
		goto fail;
	what = "start";
	if (rte_eth_dev_start(s->port) != 0)
		goto fail;
	what = "pattern template";
	pt = rte_flow_pattern_template_create(s->port, &ptattr, pt_items, &err);
	if (pt == NULL)
		goto fail;
	what = "actions template";
	at = rte_flow_actions_template_create(s->port, &atattr, at_actions, at_masks, &err);
	if (at == NULL)
		goto fail;
	what = "template table";
	s->table = rte_flow_template_table_create(s->port, &tattr, &pt, 1, &at, 1, &err);
	if (s->table == NULL)
		goto fail;
	return 0;
fail:
	fprintf(stderr, "port %u: %s failed: %s (rte_errno %d)\n", s->port, what,
		err.message != NULL ? err.message : "(no message)", rte_errno);
	return -1;
}

/*
 * Completions of the flow queue, at least @p min of them (spinning);
 * checks each: success, user_data in [@p lo, @p hi) (key + 1), adds them
 * to *@p sum. @return how many, -1 on a failed or foreign completion.
 */
static int
pull_some(uint16_t port, uint32_t min, uint64_t lo, uint64_t hi, uint64_t *sum)
{
	struct rte_flow_op_result res[BURST * 2];
	struct rte_flow_error err;
	uint32_t got = 0;
	int n, i;
	uint64_t spins = 0;

	do {
		n = rte_flow_pull(port, FQ, res, RTE_DIM(res), &err);
		if (n < 0) {
			fprintf(stderr, "port %u: rte_flow_pull: %s\n", port,
				err.message != NULL ? err.message : "(no message)");
			return -1;
		}
		for (i = 0; i < n; i++) {
			uint64_t u = (uint64_t)(uintptr_t)res[i].user_data;

			if (res[i].status != RTE_FLOW_OP_SUCCESS || u < lo || u >= hi) {
				fprintf(stderr, "port %u: completion %s, user_data %" PRIu64
					" (in flight: %" PRIu64 "..%" PRIu64 ")\n", port,
					res[i].status == RTE_FLOW_OP_SUCCESS ? "ok" : "FAILED",
					u, lo, hi - 1);
				return -1;
			}
			*sum += u;
		}
		got += (uint32_t)n;
		/* a completion that never comes: give up after ~10 s */
		if (n == 0 && ++spins > 100000000ull) {
			fprintf(stderr, "port %u: %u completion(s) missing\n", port, min - got);
			return -1;
		}
	} while (got < min);
	return (int)got;
}

/*
 * Rules [from, to) made (OP_CREATE) or destroyed on @p s through the flow
 * queue, BURST per push. @return how many completed successfully.
 */
static uint32_t
async_range(struct side *s, int op, uint32_t from, uint32_t to)
{
	const struct rte_flow_op_attr postpone = { .postpone = 1 };
	struct rte_flow_error err;
	struct rule_buf r;
	uint64_t sum = 0, want = 0;
	uint32_t i, j, end, inflight = 0, done = 0;
	int n;

	rule_init(&r);
	for (i = from; i < to; i = end) {
		end = RTE_MIN(to, i + BURST);
		if (inflight + BURST > QSIZE) {
			n = pull_some(s->port, inflight + BURST - QSIZE, from + 1, to + 1, &sum);
			if (n < 0)
				return done;
			inflight -= (uint32_t)n;
			done += (uint32_t)n;
		}
		for (j = i; j < end; j++) {
			void *ud = (void *)(uintptr_t)(j + 1);

			if (op == OP_CREATE) {
				rule_set(&r, j);
				s->rules[j] = rte_flow_async_create(s->port, FQ, &postpone,
					s->table, r.pattern, 0, r.actions, 0, ud, &err);
				if (s->rules[j] == NULL)
					break;
			} else if (rte_flow_async_destroy(s->port, FQ, &postpone,
					s->rules[j], ud, &err) != 0) {
				break;
			} else {
				s->rules[j] = NULL;
			}
			want += j + 1;
			inflight++;
		}
		if (j < end) {
			fprintf(stderr, "%s: %s of rule %u refused: %s (rte_errno %d)\n",
				side_name[s - sides], op_name[op], j,
				err.message != NULL ? err.message : "(no message)", rte_errno);
			to = j;
			end = j;
		}
		if (rte_flow_push(s->port, FQ, &err) != 0) {
			fprintf(stderr, "%s: rte_flow_push: %s\n", side_name[s - sides],
				err.message != NULL ? err.message : "(no message)");
			return done;
		}
	}
	if (inflight > 0) {
		n = pull_some(s->port, inflight, from + 1, to + 1, &sum);
		if (n < 0)
			return done;
		done += (uint32_t)n;
	}
	if (sum != want) {
		fprintf(stderr, "%s: completions' user_data do not match the operations\n",
			side_name[s - sides]);
		return 0;
	}
	return done;
}

static uint32_t
sync_range(struct side *s, int op, uint32_t from, uint32_t to)
{
	const struct rte_flow_attr attr = { .ingress = 1 };
	struct rte_flow_error err;
	struct rule_buf r;
	uint32_t i, done = 0;

	rule_init(&r);
	r.pattern[2].mask = &udp_mask_sync;
	for (i = from; i < to; i++) {
		if (op == OP_CREATE) {
			rule_set(&r, i | SYNC_KEY);
			s->rules[i] = rte_flow_create(s->port, &attr, r.pattern, r.actions, &err);
			if (s->rules[i] == NULL) {
				fprintf(stderr, "%s: rule %u: %s\n", side_name[s - sides], i,
					err.message != NULL ? err.message : "(no message)");
				break;
			}
		} else {
			if (s->rules[i] == NULL || rte_flow_destroy(s->port, s->rules[i], &err) != 0)
				continue;
			s->rules[i] = NULL;
		}
		done++;
	}
	return done;
}

static uint32_t
side_range(int side, int op, uint32_t from, uint32_t to)
{
	if (side == OCT_SYNC)
		return sync_range(&sides[side], op, from, to);
	return async_range(&sides[side], op, from, to);
}

/* One function per side and operation, so that callgrind counts each. */
#define IR_FN(name, side, op) \
	static __rte_noinline uint32_t name(uint32_t n) { return side_range(side, op, 0, n); }
IR_FN(ir_pf_async_create, PF_ASYNC, OP_CREATE)
IR_FN(ir_octopus_async_create, OCT_ASYNC, OP_CREATE)
IR_FN(ir_octopus_sync_create, OCT_SYNC, OP_CREATE)
IR_FN(ir_pf_async_destroy, PF_ASYNC, OP_DESTROY)
IR_FN(ir_octopus_async_destroy, OCT_ASYNC, OP_DESTROY)
IR_FN(ir_octopus_sync_destroy, OCT_SYNC, OP_DESTROY)
#undef IR_FN

/* The ir mode: each side's rules made, then destroyed, once. */
static int
ir_run(uint32_t n)
{
	static uint32_t (*const fn[NB_OPS][NB_SIDES])(uint32_t) = {
		{ ir_pf_async_create, ir_octopus_async_create, ir_octopus_sync_create },
		{ ir_pf_async_destroy, ir_octopus_async_destroy, ir_octopus_sync_destroy },
	};
	static const char *const fn_name[NB_OPS][NB_SIDES] = {
		{ "ir_pf_async_create", "ir_octopus_async_create", "ir_octopus_sync_create" },
		{ "ir_pf_async_destroy", "ir_octopus_async_destroy", "ir_octopus_sync_destroy" },
	};
	uint32_t done[NB_OPS][NB_SIDES];
	int op, s, ret = 0;

	for (op = 0; op < NB_OPS; op++)
		for (s = 0; s < NB_SIDES; s++)
			done[op][s] = fn[op][s](n);
	for (op = 0; op < NB_OPS; op++)
		for (s = 0; s < NB_SIDES; s++) {
			printf("ir-op %s %u\n", fn_name[op][s], done[op][s]);
			if (done[op][s] != n)
				ret = 1;
		}
	return ret;
}

/* The ratios of side @p a to side @p b: rates, median of chunks, best chunks. */
struct ratio {
	double rates, median, lo, hi, best;
};

/*
 * @p rounds chunks of @p n / rounds rules per side by @p op, the first side
 * rotating; prints the rates and ratios, fills @p vs_pf and @p vs_sync.
 * @return 0 if every rule was made (or destroyed).
 */
static int
interleaved(int op, uint32_t n, uint32_t rounds, struct ratio *vs_pf, struct ratio *vs_sync)
{
	double *chunk[2], rate[NB_SIDES], best[NB_SIDES] = { 0 };
	double hz = (double)rte_get_tsc_hz();
	uint64_t cycles[NB_SIDES] = { 0 }, c[NB_SIDES], t0;
	uint32_t r, from, to, done[NB_SIDES] = { 0 };
	bool chunks_dump = getenv("BENCH_CHUNKS") != NULL;
	int k, s, ret = 0;

	chunk[0] = calloc(rounds, sizeof(double));
	chunk[1] = calloc(rounds, sizeof(double));
	if (chunk[0] == NULL || chunk[1] == NULL) {
		free(chunk[0]);
		free(chunk[1]);
		return -1;
	}
	for (r = 0; r < rounds; r++) {
		bench_chunk(n, rounds, r, &from, &to);
		for (k = 0; k < NB_SIDES; k++) {
			s = bench_chunk_side(r, k, NB_SIDES);
			c[s] = 0;
			if (only >= 0 && s != only)
				continue;
			t0 = rte_rdtsc();
			done[s] += side_range(s, op, from, to);
			c[s] = rte_rdtsc() - t0;
			cycles[s] += c[s];
		}
		if (chunks_dump)
			fprintf(stderr, "%s chunk %u (%s first): cycles/rule pf %.0f, async %.0f, sync %.0f\n",
				op_name[op], r, side_arg[r % NB_SIDES],
				(double)c[PF_ASYNC] / (to - from), (double)c[OCT_ASYNC] / (to - from),
				(double)c[OCT_SYNC] / (to - from));
		chunk[0][r] = (double)c[PF_ASYNC] / (double)c[OCT_ASYNC];
		chunk[1][r] = (double)c[OCT_SYNC] / (double)c[OCT_ASYNC];
		for (s = 0; s < NB_SIDES; s++)
			if (c[s] != 0 && (best[s] == 0 || (double)c[s] / (to - from) < best[s]))
				best[s] = (double)c[s] / (to - from);
	}
	for (s = 0; s < NB_SIDES; s++) {
		if (only >= 0 && s != only)
			continue;
		rate[s] = (double)done[s] / ((double)cycles[s] / hz) / 1000.0;
		printf("%s %-14s %8u rules %9.1f K rules/s, best chunk %6.0f cycles/rule\n",
			op_name[op], side_name[s], done[s], rate[s], best[s]);
		if (done[s] != n)
			ret = -1;
	}
	if (only >= 0)
		goto out;
	qsort(chunk[0], rounds, sizeof(double), bench_cmp_double);
	qsort(chunk[1], rounds, sizeof(double), bench_cmp_double);
	*vs_pf = (struct ratio){ rate[OCT_ASYNC] / rate[PF_ASYNC], chunk[0][rounds / 2],
		chunk[0][0], chunk[0][rounds - 1], best[PF_ASYNC] / best[OCT_ASYNC] };
	*vs_sync = (struct ratio){ rate[OCT_ASYNC] / rate[OCT_SYNC], chunk[1][rounds / 2],
		chunk[1][0], chunk[1][rounds - 1], best[OCT_SYNC] / best[OCT_ASYNC] };
	printf("%s octopus async / bare PF async: %.2f (rates), %.2f (median of %u chunks, %.2f .. %.2f), %.2f (best chunks)\n",
		op_name[op], vs_pf->rates, vs_pf->median, rounds, vs_pf->lo, vs_pf->hi,
		vs_pf->best);
	printf("%s octopus async / octopus sync:  %.2f (rates), %.2f (median of %u chunks, %.2f .. %.2f), %.2f (best chunks)\n",
		op_name[op], vs_sync->rates, vs_sync->median, rounds, vs_sync->lo, vs_sync->hi,
		vs_sync->best);
out:
	free(chunk[0]);
	free(chunk[1]);
	return ret;
}

/* The command line that reproduces this run (what EAL and we were given). */
static void
command_save(int argc, char **argv)
{
	size_t len = 0;
	int i;
	const char *d = getenv("OCTONIC_DIALECT");

	if (d != NULL && d[0] != '\0')
		len += (size_t)snprintf(command, sizeof(command), "OCTONIC_DIALECT=%s ", d);
	len += (size_t)snprintf(command + len, sizeof(command) - len,
		"tools/octopus-numa-emu --nodes 2 -- <build>/tests/bench/bench_flow_async");
	for (i = 1; i < argc && len < sizeof(command); i++)
		len += (size_t)snprintf(command + len, sizeof(command) - len, " %s", argv[i]);
}

int
main(int argc, char **argv)
{
	char **eal = argv;
	int nb = argc, ret, s, a, attempts = 0, met = 0;
	bool ir = false;
	double goal_pf = GOAL_PF, goal_sync = GOAL_SYNC;
	uint32_t n = 100000, rounds = 20;
	struct ratio pf[NB_OPS], vs_sync[NB_OPS];
	char nic[160];
	struct rte_mempool *mp;
	struct octo_port_conf pconf = {
		.nb_rxq = NB_QUEUES, .nb_txq = NB_QUEUES, .nb_desc = 256,
	};

	command_save(argc, argv);
	if (octo_eal_init_args(&nb, &eal, 3072) < 0)
		return 2;
	if (nb > 1 && isdigit((unsigned char)eal[1][0])) {
		n = (uint32_t)strtoul(eal[1], NULL, 0);
		eal++;
		nb--;
		if (nb > 1 && isdigit((unsigned char)eal[1][0])) {
			rounds = (uint32_t)strtoul(eal[1], NULL, 0);
			eal++;
			nb--;
		}
	}
	if (nb > 2 && strcmp(eal[1], "check") == 0) {
		attempts = atoi(eal[2]);
		nb -= 2;
		if (nb > 2) {
			goal_pf = strtod(eal[3], NULL);
			goal_sync = strtod(eal[4], NULL);
			nb -= 2;
		}
	} else if (nb == 2 && strcmp(eal[1], "ir") == 0) {
		ir = true;
		nb--;
	} else if (nb > 2 && strcmp(eal[1], "only") == 0) {
		for (s = 0; s < NB_SIDES; s++)
			if (strcmp(eal[2], side_arg[s]) == 0)
				only = s;
		nb -= only >= 0 ? 2 : 0;
	}
	if (n == 0 || rounds == 0 || rounds > n || nb > 1 || attempts < 0) {
		fprintf(stderr, "usage: bench_flow_async [EAL] -- [RULES [CHUNKS]] [check ATTEMPTS [PF_RATIO SYNC_RATIO] | only pf|async|sync | ir]\n");
		return 2;
	}
	/* both NICs in the dialect of the run (OCTONIC_DIALECT) */
	snprintf(nic, sizeof(nic), "pfs=2,numa=0:1%s", octo_dialect_suffix());
	if (rte_vdev_init("net_octonic0", nic) != 0 ||
	    rte_vdev_init("net_octopus0",
		"member=net_octonic0_pf0,member=net_octonic0_pf1") != 0 ||
	    rte_vdev_init("net_octonic1", nic) != 0 ||
	    rte_eth_dev_get_port_by_name("net_octonic1_pf0", &sides[PF_ASYNC].port) != 0 ||
	    rte_eth_dev_get_port_by_name("net_octopus0", &sides[OCT_ASYNC].port) != 0) {
		fprintf(stderr, "cannot create the ports\n");
		return 2;
	}
	sides[OCT_SYNC].port = sides[OCT_ASYNC].port;
	mp = octo_app_pool("bench", 4096, 0);
	if (mp == NULL) {
		fprintf(stderr, "no mbuf pool: %s\n", rte_strerror(rte_errno));
		return 2;
	}
	for (s = 0; s < NB_SIDES; s++) {
		sides[s].rules = calloc(n, sizeof(*sides[s].rules));
		if (sides[s].rules == NULL) {
			fprintf(stderr, "no memory for %u rule handles\n", n);
			return 2;
		}
	}
	pconf.pool = mp;
	if (octo_port_start(sides[PF_ASYNC].port, &pconf) != 0 ||
	    octo_port_start(sides[OCT_ASYNC].port, &pconf) != 0 ||
	    templates_make(&sides[PF_ASYNC], n) != 0 || templates_make(&sides[OCT_ASYNC], n) != 0) {
		fprintf(stderr, "cannot set the ports up for the template API\n");
		return 2;
	}
	printf("%u rules per side in %u chunks, bursts of %d with a push each, flow queue of %d, sides rotating (TSC %.0f MHz, NICs %s)\n",
		n, rounds, BURST, QSIZE, (double)rte_get_tsc_hz() / 1e6, nic);
	ret = 0;
	if (ir)
		ret = ir_run(n);
	for (a = 0; !ir && a < (attempts > 0 ? attempts : 1); a++) {
		if (attempts > 0)
			printf("attempt %d of %d\n", a + 1, attempts);
		if (interleaved(OP_CREATE, n, rounds, &pf[OP_CREATE], &vs_sync[OP_CREATE]) != 0 ||
		    interleaved(OP_DESTROY, n, rounds, &pf[OP_DESTROY], &vs_sync[OP_DESTROY]) != 0) {
			printf("FAILED: not every rule was made and destroyed\n");
			ret = 1;
			break;
		}
		if (attempts == 0)
			break;
		met = pf[OP_CREATE].best >= goal_pf && pf[OP_DESTROY].best >= goal_pf &&
			vs_sync[OP_CREATE].best >= goal_sync;
		if (met)
			break;
	}
	if (ret == 0 && attempts > 0) {
		if (met) {
			printf("ok: octopus async >= %.1fx bare PF async, insertion >= %.1fx octopus sync (best chunks, attempt %d)\n",
				goal_pf, goal_sync, a + 1);
		} else {
			printf("FAILED: in none of %d attempts octopus async >= %.1fx bare PF async, insertion >= %.1fx octopus sync (best chunks; last: insert %.2f / %.2f, delete %.2f)\n",
				attempts, goal_pf, goal_sync, pf[OP_CREATE].best,
				vs_sync[OP_CREATE].best, pf[OP_DESTROY].best);
			ret = 1;
		}
	}
	printf("reproduce: %s\n", command);
	fflush(stdout);
	for (s = 0; s < OCT_SYNC; s++) {
		rte_eth_dev_stop(sides[s].port);
		rte_eth_dev_close(sides[s].port);
	}
	for (s = 0; s < NB_SIDES; s++)
		free(sides[s].rules);
	octo_test_eal_cleanup();
	return ret;
}
