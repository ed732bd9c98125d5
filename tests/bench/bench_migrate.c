/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Queue migration latency under load, request to steady, with the phases
 * of each move. Not a test: a measurement (bench_migrate.sh runs it with
 * one busy poller per CPU and oversubscribed).
 *
 *   bench_migrate [EAL args] -- [MOVES [RATE [check]]]
 *
 * net_octopus over the two PFs of a net_octonic NIC (wire=gen, sockets 0
 * and 1; run under octopus-numa-emu --nodes 2). Every worker lcore is a
 * forwarding lcore: worker i polls virtual queue i, checks the per-flow
 * order of what it receives and sends it back through Tx queue i (the NIC's
 * sink checks the order on the wire). The main lcore asks for MOVES
 * (default 1000) moves, one at a time, each queue in turn to the other
 * socket, 0.1-1 ms apart (at random), and sleeps while a move runs (not
 * to take the control thread's CPU); the port's control thread runs on
 * the main lcore's CPU (EAL puts control threads there when the lcores
 * take every CPU). With 1 and with 100000 generator flows at RATE packets/s
 * (default 200000) it prints per move:
 *  - latency: request to steady (the Rx queue's last_latency_ns);
 *  - switch: request to the home rule replaced (last_switch_ns), made of
 *    the control thread's wake-up, the rule work, and the NIC model's
 *    acknowledgement: its grace periods (the wait for the engine to leave
 *    the read section it was in, e-switch stats delta over the move);
 *  - drain: switch to steady (the poller empties the old member);
 *  - how long the queue's poller and the control thread waited for a CPU
 *    while runnable during the move, and the control thread's CPU time
 *    (/proc/self/task/TID/schedstat);
 * p50/p99/max of each, where the slowest 1% of moves spent their time, and
 * loss (per-flow sequence gaps at Rx, beside the NIC's counted drops),
 * reorders and duplicates at Rx and at the sink. With "check" it exits 1
 * when a move did not complete or a frame was reordered, duplicated or
 * lost beyond the NIC's counted drops (the test octopus_migrate_moves_*);
 * no latency is judged (this host's other jobs decide the tail).
 */

#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_random.h>

#include <octopus_dpdk_compat.h>

#include "octo_wire.h"
#include "rte_pmd_octonic.h"
#include "rte_pmd_octopus.h"

#include "../common/octo_migration.h"
#include "../common/octo_port.h"
#include "../common/octo_sched.h"
#include "../common/octo_seq_check.h"
#include "../common/octo_eal.h"
#include "../common/octo_test_eal.h"

#define MAX_Q 4
#define NB_DESC 4096
#define MAX_FLOWS 100000

static uint16_t port, pf0;
static uint16_t nb_q;
static int poller_tid[MAX_Q];	/* thread id of queue q's poller */
static int control_tid = -1;	/* the port's control thread */
static volatile int stop;
static uint64_t received;

/* per flow, touched only by the poller of the flow's queue */
OCTO_SEQ_CHECK_DEFINE(seq, MAX_FLOWS);

/* Worker i (in lcore order) forwards queue i: run to completion. */
static int
poller(void *arg)
{
	uint16_t q = (uint16_t)(uintptr_t)arg;

	rte_atomic_store_explicit(&poller_tid[q], rte_sys_gettid(), rte_memory_order_release);
	while (!stop)
		rte_atomic_fetch_add_explicit(&received, octo_seq_forward(&seq, port, q),
			rte_memory_order_relaxed);
	return 0;
}

static void
pollers_start(void)
{
	unsigned int lc;
	uint16_t q = 0;

	stop = 0;
	RTE_LCORE_FOREACH_WORKER(lc)
		rte_eal_remote_launch(poller, (void *)(uintptr_t)q++, lc);
}

static void
pollers_stop(void)
{
	stop = 1;
	rte_eal_mp_wait_lcore();
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Percentile @p pc of @p v[0..n) (sorted in place). */
static double
pct_us(uint64_t *v, unsigned int n, unsigned int pc)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	if (n == 0)
		return 0;
	return v[pc >= 100 ? n - 1 : (uint64_t)n * pc / 100] / 1e3;
}

/* The machine's load: the figures depend on it (a shared host). */
static void
print_loadavg(void)
{
	char line[128] = "";
	FILE *f = fopen("/proc/loadavg", "r");

	if (f != NULL && fgets(line, sizeof(line), f) != NULL)
		printf("load average: %s", line);
	if (f != NULL)
		fclose(f);
}

/* 0 if @p ok, else 1 and says what failed. */
static unsigned int
check(bool ok, const char *what)
{
	if (!ok)
		printf("check FAILED: %s\n", what);
	return ok ? 0 : 1;
}

struct move_phases {
	uint64_t *lat, *sw, *grace, *drain, *other;
	uint64_t *poller_wait;	/* the queue's poller runnable, not running */
	uint64_t *ctl_run;	/* the control thread on a CPU */
	uint64_t *ctl_wait;	/* the control thread runnable, not running */
};

static uint64_t *
zalloc_u64(unsigned int n)
{
	uint64_t *v = calloc(n ? n : 1, sizeof(uint64_t));

	if (v == NULL)
		rte_exit(EXIT_FAILURE, "out of memory\n");
	return v;
}

/*
 * @p nb moves under @p flows flows at @p rate pps, printed.
 * @return the number of correctness failures found (timed-out or refused
 *   moves, reordered, duplicated or foreign frames, losses the NIC did
 *   not count, frames unaccounted for), each printed.
 */
static unsigned int
run(uint32_t flows, unsigned int nb, uint64_t rate)
{
	struct rte_pmd_octonic_sink_stats sink;
	struct rte_pmd_octonic_flow_stats fs0, fs1, fsa, fsb;
	struct rte_pmd_octopus_migration r, t;
	struct rte_pmd_octonic_gen_conf gc;
	struct rte_eth_stats st0, st1;
	struct move_phases ph;
	uint64_t gen = 0, lost, last, end, t0;
	uint64_t tail_grace = 0, tail_drain = 0, tail_other = 0, tail_pw = 0, tail_cw = 0;
	uint64_t thr;
	struct octo_sched_times pa, pb, ca, cb;
	unsigned int i, k = 0, timeouts = 0, refused = 0, ntail = 0;
	uint16_t q;
	int sock, ret;

	ph.lat = zalloc_u64(nb);
	ph.sw = zalloc_u64(nb);
	ph.grace = zalloc_u64(nb);
	ph.drain = zalloc_u64(nb);
	ph.other = zalloc_u64(nb);
	ph.poller_wait = zalloc_u64(nb);
	ph.ctl_run = zalloc_u64(nb);
	ph.ctl_wait = zalloc_u64(nb);

	/* a fresh generator: flows restart their sequences, so does the check */
	rte_pmd_octonic_gen_get(pf0, &gc);
	gc.nb_flows = flows;
	gc.rate_pps = rate;
	if (rte_pmd_octonic_gen_set(pf0, &gc) != 0)
		rte_exit(EXIT_FAILURE, "gen_set\n");
	octo_seq_reset(&seq);
	received = 0;
	rte_eth_stats_get(port, &st0);
	rte_pmd_octonic_flow_stats_get(pf0, &fs0);
	pollers_start();
	rte_pmd_octonic_gen_enable(pf0, 1);
	rte_delay_ms(50);
	t0 = rte_get_timer_cycles();
	for (i = 0; i < nb; i++) {
		q = i % nb_q;
		rte_pmd_octopus_migration_get(port, q, 0, &r);
		rte_pmd_octopus_migration_get(port, q, 1, &t);
		sock = 1 - r.home_socket;
		/* a random gap: moves at any point of the pollers' loop */
		rte_delay_us_sleep(100 + rte_rand() % 900);
		pa = octo_sched_of(poller_tid[q]);
		ca = octo_sched_of(control_tid);
		rte_pmd_octonic_flow_stats_get(pf0, &fsa);
		ret = rte_pmd_octopus_queue_migrate(port, q, sock);
		if (ret != 0) {
			refused++;
			continue;
		}
		/* sleep, not spin: this CPU is the control thread's */
		end = rte_get_timer_cycles() + 10 * rte_get_timer_hz();
		while (!octo_mig_settled(port, q, sock, r.migrations, t.migrations) &&
				rte_get_timer_cycles() < end)
			rte_delay_us_sleep(10);
		if (!octo_mig_settled(port, q, sock, r.migrations, t.migrations)) {
			timeouts++;
			break;
		}
		rte_pmd_octonic_flow_stats_get(pf0, &fsb);
		pb = octo_sched_of(poller_tid[q]);
		cb = octo_sched_of(control_tid);
		rte_pmd_octopus_migration_get(port, q, 0, &r);
		ph.poller_wait[k] = pb.wait_ns - pa.wait_ns;
		ph.ctl_run[k] = cb.run_ns - ca.run_ns;
		ph.ctl_wait[k] = cb.wait_ns - ca.wait_ns;
		ph.lat[k] = r.last_latency_ns;
		ph.sw[k] = r.last_switch_ns;
		ph.grace[k] = fsb.grace_wait_ns - fsa.grace_wait_ns;
		ph.drain[k] = r.last_latency_ns - RTE_MIN(r.last_switch_ns, r.last_latency_ns);
		ph.other[k] = r.last_switch_ns - RTE_MIN(ph.grace[k], r.last_switch_ns);
		k++;
	}
	t0 = rte_get_timer_cycles() - t0;
	/* every generated frame in a ring (or counted), then every ring empty */
	rte_pmd_octonic_gen_enable(pf0, 0);
	do {
		last = rte_atomic_load_explicit(&received, rte_memory_order_relaxed);
		rte_delay_ms(50);
	} while (rte_atomic_load_explicit(&received, rte_memory_order_relaxed) != last);
	pollers_stop();
	rte_pmd_octonic_flow_stats_get(pf0, &fs1);
	rte_pmd_octonic_gen_count(pf0, &gen);
	rte_eth_stats_get(port, &st1);
	rte_pmd_octonic_sink_stats_get(pf0, &sink);
	lost = octo_seq_lost(&seq, flows);

	/* where the slowest 1% went (before the arrays are sorted) */
	{
		uint64_t *tmp = malloc(sizeof(uint64_t) * (k ? k : 1));

		memcpy(tmp, ph.lat, sizeof(uint64_t) * k);
		qsort(tmp, k, sizeof(*tmp), cmp_u64);
		thr = k ? tmp[(uint64_t)k * 99 / 100] : 0;
		free(tmp);
	}
	for (i = 0; i < k; i++)
		if (ph.lat[i] >= thr) {
			ntail++;
			tail_pw += ph.poller_wait[i];
			tail_cw += ph.ctl_wait[i];
			tail_grace += ph.grace[i];
			tail_drain += ph.drain[i];
			tail_other += ph.other[i];
		}

	print_loadavg();
	printf("-- %u flow(s), %" PRIu64 " pps, %u moves in %.2f s (%u refused, %u timed out)\n",
		flows, rate, k, (double)t0 / rte_get_timer_hz(), refused, timeouts);
	printf("latency (request to steady): p50 %.1f us, p99 %.1f us, max %.1f us\n",
		pct_us(ph.lat, k, 50), pct_us(ph.lat, k, 99), pct_us(ph.lat, k, 100));
	printf("  switch (request to rule replaced): p50 %.1f us, p99 %.1f us, max %.1f us\n",
		pct_us(ph.sw, k, 50), pct_us(ph.sw, k, 99), pct_us(ph.sw, k, 100));
	printf("    of which NIC grace periods: p50 %.1f us, p99 %.1f us, max %.1f us"
		" (%" PRIu64 " waits, %" PRIu64 " slept)\n",
		pct_us(ph.grace, k, 50), pct_us(ph.grace, k, 99), pct_us(ph.grace, k, 100),
		fs1.grace_periods - fs0.grace_periods, fs1.grace_sleeps - fs0.grace_sleeps);
	printf("    of which wake-up and rule work: p50 %.1f us, p99 %.1f us, max %.1f us\n",
		pct_us(ph.other, k, 50), pct_us(ph.other, k, 99), pct_us(ph.other, k, 100));
	printf("  drain (switch to steady): p50 %.1f us, p99 %.1f us, max %.1f us\n",
		pct_us(ph.drain, k, 50), pct_us(ph.drain, k, 99), pct_us(ph.drain, k, 100));
	printf("  poller waiting for a CPU during the move (schedstat): p50 %.1f us,"
		" p99 %.1f us, max %.1f us\n", pct_us(ph.poller_wait, k, 50),
		pct_us(ph.poller_wait, k, 99), pct_us(ph.poller_wait, k, 100));
	printf("  control thread waiting for a CPU during the move: p50 %.1f us, p99 %.1f us,"
		" max %.1f us\n", pct_us(ph.ctl_wait, k, 50), pct_us(ph.ctl_wait, k, 99),
		pct_us(ph.ctl_wait, k, 100));
	printf("  control thread on a CPU during the move: p50 %.1f us, p99 %.1f us,"
		" max %.1f us\n", pct_us(ph.ctl_run, k, 50), pct_us(ph.ctl_run, k, 99),
		pct_us(ph.ctl_run, k, 100));
	if (ntail > 0)
		printf("  slowest 1%% (%u moves >= %.1f us), mean: grace %.1f us, wake-up and"
			" rule work %.1f us, drain %.1f us; waiting for a CPU meanwhile:"
			" poller %.1f us, control thread %.1f us\n", ntail, thr / 1e3,
			tail_grace / 1e3 / ntail, tail_other / 1e3 / ntail,
			tail_drain / 1e3 / ntail, tail_pw / 1e3 / ntail, tail_cw / 1e3 / ntail);
	printf("traffic: %" PRIu64 " generated, %" PRIu64 " received, %" PRIu64
		" NIC drops; Rx: %" PRIu64 " lost (sequence gaps), %" PRIu64 " reordered, %"
		PRIu64 " duplicated, %" PRIu64 " foreign; sink: %" PRIu64 " out of order, %"
		PRIu64 " duplicated, %" PRIu64 " lost\n", gen, received,
		st1.imissed - st0.imissed, lost, seq.reordered, seq.duplicated, seq.foreign,
		sink.out_of_order, sink.duplicates, sink.lost);
	free(ph.lat);
	free(ph.sw);
	free(ph.grace);
	free(ph.drain);
	free(ph.other);
	free(ph.poller_wait);
	free(ph.ctl_run);
	free(ph.ctl_wait);
	return check(refused + timeouts == 0, "moves refused or not steady within 10 s") +
		check(seq.reordered + seq.duplicated + seq.foreign == 0, "Rx: reordered, duplicated or foreign") +
		check(sink.out_of_order + sink.duplicates + sink.foreign == 0,
			"sink: out of order, duplicated or foreign") +
		check(lost <= st1.imissed - st0.imissed && sink.lost <= st1.imissed - st0.imissed,
			"frames lost beyond the NIC's counted drops") +
		check(received + (st1.imissed - st0.imissed) == gen,
			"received + NIC drops != generated");
}

/* CPUs the port's control thread may run on (its name starts "dpdk-omig"). */
static void
print_control_cpus(void)
{
	char path[300], line[256], comm[64] = "";
	struct dirent *e;
	DIR *d = opendir("/proc/self/task");
	FILE *f;

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
		f = fopen(path, "r");
		if (f == NULL)
			continue;
		if (fgets(comm, sizeof(comm), f) == NULL)
			comm[0] = '\0';
		fclose(f);
		if (strncmp(comm, "dpdk-omig", 9) != 0)
			continue;
		control_tid = atoi(e->d_name);
		snprintf(path, sizeof(path), "/proc/self/task/%s/status", e->d_name);
		f = fopen(path, "r");
		while (f != NULL && fgets(line, sizeof(line), f) != NULL)
			if (strncmp(line, "Cpus_allowed_list:", 18) == 0)
				printf("control thread %.*s: CPUs %s", (int)strcspn(comm, "\n"),
					comm, line + 19);
		if (f != NULL)
			fclose(f);
	}
	closedir(d);
}

int
main(int argc, char **argv)
{
	char **eal = argv;
	int nb = argc, i;
	unsigned int moves, lc, failed;
	bool checked;
	uint64_t rate;
	struct rte_eth_conf conf;
	struct rte_mempool *mp;
	uint16_t q;

	printf("command:");
	for (i = 0; i < argc; i++)
		printf(" %s", argv[i]);
	printf("\n");
	if (octo_eal_init_args(&nb, &eal, 512) < 0)
		return 2;
	moves = nb > 1 ? (unsigned int)atoi(eal[1]) : 1000;
	rate = nb > 2 ? strtoull(eal[2], NULL, 0) : 200000;
	checked = nb > 3 && strcmp(eal[3], "check") == 0;
	nb_q = (uint16_t)rte_lcore_count() - 1;
	if (rte_socket_count() < 2 || nb_q < 1 || nb_q > MAX_Q) {
		fprintf(stderr, "needs 2 sockets (octopus-numa-emu) and 1..%d worker lcores\n",
			MAX_Q);
		return 2;
	}
	if (rte_vdev_init("net_octonic0", "pfs=2,numa=0:1,wire=gen,flows=1024") != 0 ||
	    rte_vdev_init("net_octopus0", "member=net_octonic0_pf0,member=net_octonic0_pf1,"
		"migration=manual") != 0) {
		fprintf(stderr, "cannot create the ports\n");
		return 2;
	}
	pf0 = port_of("net_octonic0_pf0");
	port = port_of("net_octopus0");
	rte_pmd_octonic_gen_enable(pf0, 0);
	mp = octo_app_pool("bench", 16384, 0);
	if (mp == NULL || port >= RTE_MAX_ETHPORTS)
		return 2;
	memset(&conf, 0, sizeof(conf));
	if (rte_eth_dev_configure(port, nb_q, nb_q, &conf) != 0)
		return 2;
	/* each queue starts at home on its poller's socket */
	q = 0;
	RTE_LCORE_FOREACH_WORKER(lc) {
		int s = (int)rte_lcore_to_socket_id(lc);

		if (rte_eth_rx_queue_setup(port, q, NB_DESC, s, NULL, mp) != 0 ||
		    rte_eth_tx_queue_setup(port, q, NB_DESC, s, NULL) != 0)
			return 2;
		printf("queue %u: poller lcore %u (CPU %d, socket %d)\n", q, lc,
			rte_lcore_to_cpu_id((int)lc), s);
		q++;
	}
	if (rte_eth_dev_start(port) != 0)
		return 2;
	printf("main lcore %u (CPU %d); ", rte_get_main_lcore(),
		rte_lcore_to_cpu_id((int)rte_get_main_lcore()));
	print_control_cpus();
	failed = run(1, moves, rate);
	failed += run(MAX_FLOWS, moves, rate);
	rte_eth_dev_stop(port);
	rte_eth_dev_close(port);
	octo_test_eal_cleanup();
	if (checked)
		printf("check: %s (%u failure(s))\n", failed ? "FAILED" : "ok", failed);
	return checked && failed ? 1 : 0;
}
