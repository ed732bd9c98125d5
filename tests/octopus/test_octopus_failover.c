/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * The application's rte_flow rule through a member's loss and return:
 * net_octopus over N net_octonic PFs on N (emulated) sockets (N =
 * $OCTO_PFS, 2 by default; octo_pfs.h), wire=gen with 1024
 * sequence-numbered flows, max(4, N) virtual queues, queue q on socket
 * q mod N; lcores 1..N+1, lcore k on socket k mod N (at 2 PFs: 1, 3 on
 * socket 1 and 2 on socket 0), forward, each checking per-flow order (the
 * NIC's sink checks it on the wire). Before the loss the test creates a
 * 5-tuple rule (source address and port of one flow) -> QUEUE q. A lost
 * member's queues are expected on the serving member nearest to its
 * socket by the SLIT: its stand-in (the other PF at 2 PFs, which the cases
 * below name). Run under tools/octopus-numa-emu --nodes N.
 *
 *   test_octopus_failover flow    PF1 (PF3 beyond 2 PFs) unplugged, q homed
 *       on it: the flow keeps reaching q (through PF0, PF1 beyond) during
 *       the outage and after the PF is plugged back (through it again),
 *       never another queue.
 *   test_octopus_failover proxy   PF0, the e-switch's transfer proxy,
 *       unplugged, q homed on PF0: the queues homed on PF0 are served by
 *       PF1, the flow keeps reaching q; plugged back, they go home.
 *   test_octopus_failover proxy_released   PF0 unplugged, then its port
 *       closed: the steering and the application's rules went with it; the
 *       port forwards on PF1, refuses new rules, says why (proxy_releases),
 *       and restarts without steering (net_octonic has no transfer proxy
 *       without PF0's port), or, under mlx5-hws, its restart fails with the
 *       NIC's -ENODEV (F8) while the NIC counts what it cannot deliver;
 *       then the NIC probed again: the port starts with steering.
 *   test_octopus_failover reset   PF1 asks for a reset
 *       (rte_pmd_octonic_reset_raise): out of service, the application hears
 *       RTE_ETH_EVENT_INTR_RESET on the virtual port, the flow keeps
 *       reaching q through PF0; PF1 stays out until the application
 *       resets and reconfigures the port, then serves q again with the
 *       rule in place.
 *   test_octopus_failover fatal   a device-fatal error of the NIC
 *       (rte_pmd_octonic_device_fatal) takes every member at once: under
 *       mlx5-hws (OCTONIC_DIALECT) the uplinks of mlx5's multiport e-switch
 *       (topology=mpesw, no steering, rules refused), else every PF of the
 *       octoNIC (the rule to q=1 in place); RSS over the 4 queues, LSC
 *       interrupts on. The port's link goes down with one LSC event, every
 *       member out of service, nothing delivered while the NIC counts
 *       what the wire brings (imissed), Rx and Tx bursts return 0 on every
 *       queue, stats and xstats answer, a rule is refused with a message
 *       or taken as the transfer proxy answers; no crash. Every PF plugged
 *       back: link up with a second LSC event, every member back, every
 *       queue delivers again, the rule's flow reaches q=1 through PF1
 *       again and the steering holds as many rules as before.
 *   test_octopus_failover fatal_reprobe   the same error, then the NIC's
 *       device removed while the pollers poll (every member released:
 *       nothing delivered, stats answer) and probed again with the same
 *       devargs, as an application does on its ports' RMV; the port,
 *       stopped, configured as before and started, takes the new ports as
 *       its members: every queue delivers, the rule's flow at q=1 through
 *       PF1, the steering re-made; the counts of the removed NIC kept.
 *   test_octopus_failover stalled   PF1 unplugged while queue 1's poller
 *       sleeps 1 s inside PF1's Rx burst (rte_pmd_octonic_rx_stall): the
 *       loss returns only after that burst ended, then PF1 comes back.
 * Every case: nothing reordered or duplicated at Rx or on the wire, and
 * received + NIC drops + what sat in the lost PF's rings = generated.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_dev.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_flow.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#include <octopus_dpdk_compat.h>

#include "octo_wire.h"
#include "rte_pmd_octonic.h"
#include "rte_pmd_octopus.h"

#include "../common/octo_check.h"
#include "../common/octo_cases.h"
#include "../common/octo_eal.h"
#include "../common/octo_dialect.h"
#include "../common/octo_flow_rule.h"
#include "../common/octo_migration.h"
#include "../common/octo_pfs.h"
#include "../common/octo_port.h"
#include "../common/octo_state.h"
#include "../common/octo_seq_check.h"
#include "../common/octo_test_eal.h"

/* queues: 4, or one per socket at more PFs; queue q on socket q mod the PFs */
#define MAX_Q OCTO_PFS_MAX
#define MAX_FLOWS 1024
#define WATCHED 5		/* the flow the rule sends to its queue */
#define LIMIT_MS 5000		/* liveness bound for a loaded 2-CPU host */
#define MIN_PKTS 50		/* of the rule's flow per phase (~250 ms of it) */

static unsigned int nb_pf;	/* OCTO_PFS: PF k on socket k */
static uint16_t nb_q, nb_desc;
static uint16_t port, pf[OCTO_PFS_MAX];
/* beyond 2 PFs: queue q's Rx pool, on its home socket (rx_pool=app) */
static struct rte_mempool *socket_pool[OCTO_PFS_MAX];
static uint16_t nic_pf;		/* a PF port of the NIC still open: its generator's */
static volatile int stop;
static uint64_t received;
static uint64_t watched_on[MAX_Q];	/* packets of the watched flow per queue */
static rte_be32_t watched_src;
static rte_be16_t watched_sport;
static int watched_known;
static unsigned int reset_events;	/* INTR_RESET on the virtual port */
static int lsc;			/* the port asks for LSC interrupts, and RSS */
static unsigned int lsc_events;	/* INTR_LSC on the virtual port ... */
static int lsc_status = -1;	/* ... and the link it reported at the last */
static uint64_t tx_unsent;	/* freed by the pollers: the port's link down */
static bool mpesw;		/* members: the uplinks of topology=mpesw */
static char nic_args[256];	/* the NIC's --vdev, to probe it again */
/* generated by, and out of order at the sink of, a NIC since removed */
static uint64_t gen_gone, sink_gone_ooo, sink_gone_dup;
/* the NIC's own drops of frames no port could take (to a PF whose port is
 * closed, the wire full): those of a NIC since removed, and check_accounting's
 * base
 */
static uint64_t wire_gone, wire_base;

/* per flow, touched only by the poller of the flow's queue */
OCTO_SEQ_CHECK_DEFINE(seq, MAX_FLOWS);

/*
 * Lcore polling queue q: one of its home socket's (q mod N). Lcores 1..N+1
 * are on socket k mod N: socket 0 has lcore N, socket 1 lcores 1 (queue 1)
 * and N+1 (its other queues), socket s > 1 lcore s.
 */
static unsigned int
poller_of(uint16_t q)
{
	unsigned int s = q % nb_pf;

	if (s == 0)
		return nb_pf;
	if (s == 1)
		return q == 1 ? 1 : nb_pf + 1;
	return s;
}

static void
note(uint16_t q, struct rte_mbuf *m)
{
	const struct rte_ipv4_hdr *ip;
	const struct rte_udp_hdr *udp;
	const struct octo_wire_payload *pl;

	if (rte_pktmbuf_data_len(m) < OCTO_SEQ_UDP4_PAYLOAD_OFF + sizeof(*pl))
		return;
	pl = rte_pktmbuf_mtod_offset(m, const struct octo_wire_payload *,
		OCTO_SEQ_UDP4_PAYLOAD_OFF);
	if (rte_be_to_cpu_32(pl->magic) != OCTO_WIRE_MAGIC ||
	    rte_be_to_cpu_32(pl->flow_id) != WATCHED)
		return;
	rte_atomic_fetch_add_explicit(&watched_on[q], 1, rte_memory_order_relaxed);
	if (rte_atomic_load_explicit(&watched_known, rte_memory_order_acquire))
		return;
	ip = rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *,
		sizeof(struct rte_ether_hdr));
	udp = rte_pktmbuf_mtod_offset(m, const struct rte_udp_hdr *,
		sizeof(struct rte_ether_hdr) + sizeof(*ip));
	watched_src = ip->src_addr;
	watched_sport = udp->src_port;
	rte_atomic_store_explicit(&watched_known, 1, rte_memory_order_release);
}

/*
 * Send what is left of @p pkts from *@p k. When the port took none and its
 * link is down (no member serves it), the rest is freed and counted in
 * tx_unsent, as an application drops what a dead port will not take.
 */
static void
tx_some(uint16_t q, struct rte_mbuf **pkts, uint16_t n, uint16_t *k)
{
	struct rte_eth_link l;
	uint16_t sent = rte_eth_tx_burst(port, q, pkts + *k, n - *k);

	*k += sent;
	if (sent > 0 || *k == n)
		return;
	memset(&l, 0, sizeof(l));
	if (rte_eth_link_get_nowait(port, &l) != 0 || l.link_status == RTE_ETH_LINK_UP)
		return;
	rte_pktmbuf_free_bulk(pkts + *k, n - *k);
	rte_atomic_fetch_add_explicit(&tx_unsent, n - *k, rte_memory_order_relaxed);
	*k = n;
}

static int
worker(void *arg)
{
	unsigned int me = rte_lcore_id();
	struct rte_mbuf *pkts[32];
	uint16_t q, n, k;

	RTE_SET_USED(arg);
	while (!stop)
		for (q = 0; q < nb_q; q++) {
			if (poller_of(q) != me)
				continue;
			n = rte_eth_rx_burst(port, q, pkts, RTE_DIM(pkts));
			for (k = 0; k < n; k++) {
				octo_seq_check(&seq, pkts[k]);
				note(q, pkts[k]);
			}
			for (k = 0; k < n; )
				tx_some(q, pkts, n, &k);
			if (n == 0) {	/* lets a Tx migration finish */
				rte_eth_tx_burst(port, q, pkts, 0);
				/* beyond 2 PFs, N+1 pollers share 2 CPUs */
				if (nb_pf > 2)
					rte_delay_us_sleep(50);
			}
			rte_atomic_fetch_add_explicit(&received, n, rte_memory_order_relaxed);
		}
	return 0;
}

static bool
start_port(struct rte_mempool *mp)
{
	struct octo_port_conf c = {
		.nb_rxq = nb_q, .nb_txq = nb_q, .nb_desc = nb_desc,
		.socket = OCTO_SOCKET_SPREAD, .pool = mp, .lsc = lsc,
		.rss_hf = lsc ? RTE_ETH_RSS_IP | RTE_ETH_RSS_UDP : 0,
	};
	uint16_t q;
	int ret;

	for (q = 0; q < nb_q && socket_pool[0] != NULL; q++)
		c.rx_pool[q] = socket_pool[q % nb_pf];
	ret = octo_port_start(port, &c);

	CHECK(ret == 0, "configure, set up and start the port: %d", ret);
	return ret == 0;
}

static void
forward(void)
{
	stop = 0;
	CHECK(rte_pmd_octonic_gen_enable(nic_pf, 1) == 0, "generator on");
	rte_eal_mp_remote_launch(worker, NULL, SKIP_MAIN);
}

/* Pause the generator, poll until nothing more arrives, stop the pollers. */
static void
drain(void)
{
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz() / 1000 * LIMIT_MS;
	uint64_t last, now, late = 0;
	struct rte_mbuf *pkts[32];
	uint16_t q, n, k;

	CHECK(rte_pmd_octonic_gen_enable(nic_pf, 0) == 0, "generator off");
	do {
		last = rte_atomic_load_explicit(&received, rte_memory_order_relaxed);
		rte_delay_ms(100);
		now = rte_atomic_load_explicit(&received, rte_memory_order_relaxed);
	} while (now != last && rte_get_timer_cycles() < end);
	CHECK(now == last, "packets still arriving %d ms after the generator's pause", LIMIT_MS);
	stop = 1;
	rte_eal_mp_wait_lcore();
	/* a poller descheduled for 100 ms (a loaded host) left frames in its
	 * queues: read them here, counted and checked, not forwarded
	 */
	for (q = 0; q < nb_q; q++)
		while ((n = rte_eth_rx_burst(port, q, pkts, RTE_DIM(pkts))) > 0) {
			for (k = 0; k < n; k++) {
				octo_seq_check(&seq, pkts[k]);
				note(q, pkts[k]);
			}
			rte_pktmbuf_free_bulk(pkts, n);
			rte_atomic_fetch_add_explicit(&received, n, rte_memory_order_relaxed);
			late += n;
		}
	if (late > 0)
		printf("drain: %" PRIu64 " packet(s) left in the queues, read after the pollers\n",
			late);
}

/*
 * Wait until Rx queue @p q is steady on @p sock and, from then on, the
 * watched flow reached it again and it delivered through member @p via.
 * @return ms taken, -1 after LIMIT_MS.
 */
static double
wait_served(uint16_t q, int sock, int via)
{
	uint64_t t0 = rte_get_timer_cycles();
	uint64_t end = t0 + rte_get_timer_hz() / 1000 * LIMIT_MS;
	struct rte_pmd_octopus_migration r;
	uint64_t w = 0, d = 0;
	bool homed = false;

	do {
		if (!homed) {
			rte_pmd_octopus_migration_get(port, q, 0, &r);
			homed = r.phase == RTE_PMD_OCTOPUS_MIG_STEADY && r.home_socket == sock;
			w = rte_atomic_load_explicit(&watched_on[q], rte_memory_order_relaxed);
			d = octo_delivered_via(port, q, via);
		} else if (rte_atomic_load_explicit(&watched_on[q], rte_memory_order_relaxed) > w &&
			   octo_delivered_via(port, q, via) > d) {
			return (double)(rte_get_timer_cycles() - t0) * 1000 / rte_get_timer_hz();
		}
		rte_delay_us_sleep(100);
	} while (rte_get_timer_cycles() < end);
	return -1;
}

/* Wait (LIMIT_MS at most) until @p v reaches @p want. */
static bool
wait_for(const uint64_t *v, uint64_t want)
{
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz() / 1000 * LIMIT_MS;

	while (rte_atomic_load_explicit(v, rte_memory_order_relaxed) < want) {
		if (rte_get_timer_cycles() > end)
			return false;
		rte_delay_us_sleep(100);
	}
	return true;
}

/* Packets Rx queue @p q delivered through the members other than @p via. */
static uint64_t
delivered_not_via(uint16_t q, int via)
{
	uint64_t t = 0;
	unsigned int m;

	for (m = 0; m < nb_pf; m++)
		t += (int)m == via ? 0 : octo_delivered_via(port, q, (int)m);
	return t;
}

/*
 * The rule's flow keeps reaching queue @p q (MIN_PKTS more of it within
 * LIMIT_MS), which delivers through member @p via and nothing through the
 * others.
 */
static void
keeps_flowing(const char *when, uint16_t q, int via)
{
	uint64_t w = rte_atomic_load_explicit(&watched_on[q], rte_memory_order_relaxed);
	uint64_t d = octo_delivered_via(port, q, via), other = delivered_not_via(q, via);

	CHECK(wait_for(&watched_on[q], w + MIN_PKTS),
		"%s: the rule's flow reached queue %u %" PRIu64 " time(s) in %d ms, not %d",
		when, q, rte_atomic_load_explicit(&watched_on[q], rte_memory_order_relaxed) - w, LIMIT_MS,
		MIN_PKTS);
	CHECK(octo_delivered_via(port, q, via) > d, "%s: queue %u delivered nothing through PF%d",
		when, q, via);
	CHECK(delivered_not_via(q, via) == other, "%s: queue %u delivered %" PRIu64
		" packet(s) through PFs other than PF%d", when, q,
		delivered_not_via(q, via) - other, via);
}

/* The rule: the watched flow's source address and port -> QUEUE @p q. */
static bool
watched_rule(uint16_t q)
{
	struct rte_flow_error err;
	struct rte_flow *f = octo_flow_to_queue(port, watched_src, watched_sport, q, &err);

	CHECK(f != NULL, "rule -> queue %u: %s", q, err.message ? err.message : "?");
	return f != NULL;
}

/*
 * Start forwarding, learn the watched flow, send it to queue @p q by rule
 * and wait until it arrives there (the gate holds it until its old queue
 * drained: from then on it must reach no other queue).
 * @return false (failed) or true, with the watched flow's packets on
 * queues other than @p q so far in @p elsewhere.
 */
static bool
rule_in_place(struct rte_mempool *mp, uint16_t q, uint64_t *elsewhere)
{
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz() / 1000 * LIMIT_MS;

	if (!start_port(mp))
		return false;
	forward();
	while (!rte_atomic_load_explicit(&watched_known, rte_memory_order_acquire) &&
	       rte_get_timer_cycles() < end)
		rte_delay_us_sleep(100);
	CHECK(watched_known, "flow %d not received within %d ms", WATCHED, LIMIT_MS);
	if (!watched_known || !watched_rule(q))
		return false;
	CHECK(wait_for(&watched_on[q],
			rte_atomic_load_explicit(&watched_on[q], rte_memory_order_relaxed) + 1),
		"the rule's flow did not reach queue %u within %d ms", q, LIMIT_MS);
	*elsewhere = octo_sum(watched_on, nb_q) -
		rte_atomic_load_explicit(&watched_on[q], rte_memory_order_relaxed);
	return true;
}

/* The flow reached no queue but @p q since @p elsewhere was counted. */
static void
check_only_on(uint16_t q, uint64_t elsewhere)
{
	uint64_t now = octo_sum(watched_on, nb_q) -
		rte_atomic_load_explicit(&watched_on[q], rte_memory_order_relaxed);

	CHECK(now == elsewhere, "the rule's flow reached other queues than %u: %" PRIu64
		" packet(s)", q, now - elsewhere);
	CHECK(watched_on[q] > 0, "the rule's flow never reached queue %u", q);
}

/* The NIC's drops of frames no port could take (wire_gone included). */
static uint64_t
nic_wire_drops(void)
{
	uint64_t v = octo_xstat(nic_pf, "wire_drop_packets");

	return (v == UINT64_MAX ? 0 : v) + wire_gone;
}

/*
 * The counts check_accounting() starts from, read now: generated into
 * *@p gen, received, the port's imissed, ring losses; wire_base set.
 */
static void
accounting_base(uint64_t *gen, uint64_t *rx, uint64_t *missed, uint64_t *outage)
{
	struct rte_eth_stats st;

	*gen = 0;
	rte_pmd_octonic_gen_count(nic_pf, gen);
	*rx = received;
	memset(&st, 0, sizeof(st));
	rte_eth_stats_get(port, &st);
	*missed = st.imissed;
	*outage = octo_xstat(port, "outage_lost_packets");
	wire_base = nic_wire_drops();
}

/*
 * Order and accounting since @p gen0 generated, @p rx0 received (the pollers
 * stopped, the generator paused), wire_base the NIC's own drops: nothing
 * reordered or duplicated at Rx or on the wire; received + the ports' drops
 * + ring losses + the NIC's drops = generated.
 */
static void
check_accounting(const char *what, uint64_t gen0, uint64_t rx0, uint64_t missed0,
		uint64_t outage0)
{
	struct rte_pmd_octonic_sink_stats sink;
	struct rte_eth_stats st;
	uint64_t gen = 0, rx, missed, outage, wire;

	rte_pmd_octonic_gen_count(nic_pf, &gen);
	wire = nic_wire_drops() - wire_base;
	memset(&st, 0, sizeof(st));
	rte_eth_stats_get(port, &st);
	gen += gen_gone - gen0;
	rx = received - rx0;
	missed = st.imissed - missed0;
	outage = octo_xstat(port, "outage_lost_packets") - outage0;
	memset(&sink, 0, sizeof(sink));
	CHECK(rte_pmd_octonic_sink_stats_get(nic_pf, &sink) == 0, "sink");
	sink.out_of_order += sink_gone_ooo;
	sink.duplicates += sink_gone_dup;
	printf("%s: %" PRIu64 " generated, %" PRIu64 " received, %" PRIu64 " NIC drops, %"
		PRIu64 " lost in the rings, %" PRIu64 " no port could take (rx_nombuf %" PRIu64
		"); Rx %" PRIu64 " reordered %" PRIu64 " dup; sink %" PRIu64 " out of order %"
		PRIu64 " dup; the rule's flow on queues %" PRIu64 " %" PRIu64 " %" PRIu64 " %"
		PRIu64 "\n", what, gen, rx, missed, outage, wire, st.rx_nombuf, seq.reordered,
		seq.duplicated, sink.out_of_order, sink.duplicates, watched_on[0], watched_on[1],
		watched_on[2], watched_on[3]);
	CHECK(seq.reordered == 0 && seq.duplicated == 0, "Rx: %" PRIu64 " reordered, %"
		PRIu64 " duplicated", seq.reordered, seq.duplicated);
	CHECK(sink.out_of_order == 0 && sink.duplicates == 0,
		"sink: %" PRIu64 " out of order, %" PRIu64 " dup", sink.out_of_order,
		sink.duplicates);
	CHECK(outage <= nb_q * nb_desc, "%" PRIu64 " lost in the rings: more than they hold",
		outage);
	CHECK(rx + missed + outage + wire == gen, "received %" PRIu64 " + NIC drops %" PRIu64
		" + ring losses %" PRIu64 " + no port's %" PRIu64 " != generated %" PRIu64, rx,
		missed, outage, wire, gen);
}

/*
 * The member that serves member @p lost's queues while it is out: the
 * nearest to its socket by the SLIT of those still serving (the other one
 * at 2 PFs).
 */
static int
stand_in(int lost)
{
	int serving[OCTO_PFS_MAX];
	unsigned int m;
	int near;

	for (m = 0; m < nb_pf; m++)
		serving[m] = (int)m != lost;
	near = octo_pfs_nearest(nb_pf, (unsigned int)lost, serving);
	CHECK(near >= 0, "no SLIT in sysfs");
	return near >= 0 ? near : 1 - lost;
}

/*
 * Member @p lost unplugged under load with the rule to queue @p q (homed on
 * it) in place, then plugged back.
 */
static void
unplug_and_back(struct rte_mempool *mp, int lost, uint16_t q)
{
	int other = stand_in(lost);
	char in_service[32];
	uint64_t elsewhere;
	double t_out, t_back;

	if (!rule_in_place(mp, q, &elsewhere)) {
		drain();
		return;
	}
	CHECK(rte_pmd_octonic_unplug(pf[lost]) == 0, "unplug PF%d", lost);
	t_out = wait_served(q, other, other);
	CHECK(t_out >= 0, "queue %u: the rule's flow not served by PF%d within %d ms",
		q, other, LIMIT_MS);
	snprintf(in_service, sizeof(in_service), "member%d_in_service", lost);
	CHECK(octo_xstat(port, in_service) == 0, "PF%d still in service", lost);
	keeps_flowing("outage", q, other);
	CHECK(rte_pmd_octonic_plug(pf[lost]) == 0, "plug PF%d", lost);
	t_back = wait_served(q, lost, lost);
	CHECK(t_back >= 0, "queue %u not back on PF%d within %d ms", q, lost, LIMIT_MS);
	keeps_flowing("back", q, lost);
	CHECK(octo_xstat(port, "member_returns") == 1, "member_returns %" PRIu64,
		octo_xstat(port, "member_returns"));
	printf("PF%d out: queue %u served by PF%d %.1f ms after, back %.1f ms after the plug\n",
		lost, q, other, t_out, t_back);
	drain();
	check_only_on(q, elsewhere);
	check_accounting(lost ? "flow" : "proxy", 0, 0, 0, 0);
	octo_port_stop_close(port);
}

/*
 * The application's rule across PF1's unplug and return; beyond 2 PFs
 * PF3's, to queue 3, whose stand-in by the SLIT is PF2 (not PF0, not the
 * next PF).
 */
static void
test_flow(struct rte_mempool *mp)
{
	int lost = nb_pf > 2 ? 3 : 1;

	unplug_and_back(mp, lost, (uint16_t)lost);
}

/*
 * PF0, the transfer proxy, unplugged: on net_octonic the e-switch outlives
 * the proxy's removal, so the rules still change through it: its queues
 * move to PF1 and the rule follows.
 */
static void
test_proxy(struct rte_mempool *mp)
{
	uint16_t proxy = RTE_MAX_ETHPORTS;

	CHECK(rte_flow_pick_transfer_proxy(pf[1], &proxy, NULL) == 0 && proxy == pf[0],
		"PF0 (port %u) is not the transfer proxy (%u)", pf[0], proxy);
	unplug_and_back(mp, 0, 0);
}

/* What a rule must get: refused, or either way (with a message if refused). */
enum rule_want { RULE_REFUSED, RULE_ANSWERED };

/*
 * A rule to queue 0 for every frame, destroyed at once if taken: refused
 * with the proxy released and under mpesw (no steering); with every
 * member out, the port answers as its transfer proxy does (net_octonic's
 * e-switch outlives its ports and takes it).
 */
static void
any_rule(const char *when, enum rule_want want)
{
	const struct rte_flow_item items[] = OCTO_ITEMS_ETH;
	struct rte_flow_error err;
	struct rte_flow *f;

	f = octo_items_to_queue(port, items, 0, &err);
	printf("%s: a rule %s%s\n", when, f != NULL ? "taken" : "refused: ",
		f != NULL ? "" : err.message != NULL ? err.message : "(no message)");
	CHECK(f == NULL || want == RULE_ANSWERED, "%s: a rule taken", when);
	CHECK(f != NULL || err.message != NULL, "%s: a rule refused with no message", when);
	if (f != NULL)
		CHECK(rte_flow_destroy(port, f, &err) == 0, "%s: destroy the rule", when);
}

/* A rule to queue 0 for every frame, validated on the port: 0 or an errno. */
static int
catchall_validate(void)
{
	struct rte_flow_attr attr = { .ingress = 1 };
	struct rte_flow_item items[] = OCTO_ITEMS_ETH;
	struct rte_flow_action_queue qa = { .index = 0 };
	struct rte_flow_action actions[] = OCTO_ACTIONS_QUEUE(&qa);
	struct rte_flow_error err;

	return rte_flow_validate(port, &attr, items, actions, &err);
}

static uint64_t delivered(uint16_t q);
static uint64_t members_xstat(const char *what);
static int nic_ports(void);

/* Whether the NIC's ports keep their rules across a stop (generic; mlx5 not, F7). */
static bool
nic_keeps_rules(uint16_t pf_port)
{
	struct rte_eth_dev_info info;

	return rte_eth_dev_info_get(pf_port, &info) == 0 &&
		(info.dev_capa & RTE_ETH_DEV_CAPA_FLOW_RULE_KEEP) != 0;
}

/*
 * PF0 back: the NIC's device (its PF1 too) removed and probed again, as an
 * application brings back a port it closed; the port, stopped, configured
 * as before and started, takes the new ports: steering again, every queue
 * delivers, the accounting exact from the removal on.
 */
static void
proxy_back(struct rte_mempool *mp)
{
	uint64_t gen = 0, base[MAX_Q], rx0, missed0, outage0, end;
	struct rte_pmd_octonic_sink_stats sink;
	struct rte_eth_dev_info info;
	uint16_t q;

	REQUIRE(rte_eth_dev_info_get(nic_pf, &info) == 0, "the NIC's device");
	CHECK(rte_pmd_octonic_gen_enable(nic_pf, 0) == 0, "generator off");
	rte_pmd_octonic_gen_count(nic_pf, &gen);
	memset(&sink, 0, sizeof(sink));
	rte_pmd_octonic_sink_stats_get(nic_pf, &sink);
	gen_gone += gen;
	wire_gone = nic_wire_drops();
	sink_gone_ooo += sink.out_of_order;
	sink_gone_dup += sink.duplicates;
	CHECK(rte_dev_remove(info.device) == 0, "remove the NIC");
	CHECK(rte_dev_probe(nic_args) == 0, "probe the NIC again: %s", nic_args);
	REQUIRE(nic_ports() == 0, "the NIC's ports after the probe");
	nic_pf = pf[0];
	rte_pmd_octonic_gen_enable(nic_pf, 0);
	/* the new NIC's generator starts its flows' sequences anew */
	octo_seq_reset(&seq);
	for (q = 0; q < nb_q; q++)
		base[q] = delivered(q);
	accounting_base(&gen, &rx0, &missed0, &outage0);
	printf("PF0 back: %" PRIu64 " generated before the start\n", gen);
	if (!start_port(mp))
		return;
	CHECK(octo_xstat(port, "steering_rules") > 0, "PF0 back: no steering rule");
	forward();
	end = rte_get_timer_cycles() + rte_get_timer_hz() / 1000 * LIMIT_MS;
	for (q = 0; q < nb_q; q++) {
		while (delivered(q) <= base[q] && rte_get_timer_cycles() < end)
			rte_delay_us_sleep(100);
		CHECK(delivered(q) > base[q], "PF0 back: queue %u delivers nothing", q);
	}
	CHECK(members_xstat("in_service") == nb_pf, "PF0 back: %" PRIu64 " member(s) in service",
		members_xstat("in_service"));
	/* rules taken again (validated: a rule made and destroyed now would
	 * move every flow twice under load, which is not this test's)
	 */
	CHECK(catchall_validate() == 0, "PF0 back: a rule refused");
	drain();
	check_accounting("PF0 back", gen_gone + gen, rx0, missed0, outage0);
	octo_port_stop_close(port);
}

/*
 * PF0, the transfer proxy, unplugged, then its port released (stopped and
 * closed): the rules went with it. The port forwards on through PF1,
 * without steering, and says why (xstat proxy_releases, telemetry); the
 * application's rules are refused. A NIC that keeps its rules across a stop
 * (generic) still delivers by them to PF1: every queue delivers, and a
 * restart on PF1 alone starts and forwards, in order. One that does not
 * (mlx5, F7) lost them at the proxy's stop: nothing reaches PF1, what the
 * wire brings is the NIC's drop (to a closed port), and the NIC refuses to
 * start PF1 without its proxy (F8): the port's start fails with -ENODEV,
 * the reason logged, counted in start_refusals. Under mlx5 from 25.11 the
 * proxy does not even stop while PF1 runs (EBUSY, F8): the application
 * stops the port first, then releases PF0. Either way the port starts
 * again once PF0 is back (proxy_back). Every phase: an exact balance.
 */
static void
test_proxy_released(struct rte_mempool *mp)
{
	uint64_t elsewhere, gen0 = 0, rx0, base[MAX_Q], end, out0, wire0;
	int other = stand_in(0), ret;
	bool keeps = nic_keeps_rules(pf[other]), running = true;
	struct rte_eth_stats st;
	uint16_t q;

	if (!rule_in_place(mp, 0, &elsewhere)) {
		drain();
		return;
	}
	CHECK(rte_pmd_octonic_unplug(pf[0]) == 0, "unplug PF0");
	CHECK(wait_served(0, other, other) >= 0, "queue 0 not served by PF%d within %d ms",
		other, LIMIT_MS);
	ret = rte_eth_dev_stop(pf[0]);
	if (ret == -EBUSY) {
		/* F8: the proxy stops after the e-switch's other ports */
		CHECK(!keeps, "PF0's stop refused (EBUSY) by a NIC that keeps its rules");
		printf("proxy released: PF0's stop refused while PF1 runs (EBUSY): the port stops first\n");
		drain();
		check_accounting("proxy unplugged", 0, 0, 0, 0);
		CHECK(rte_eth_dev_stop(port) == 0, "stop");
		running = false;
		ret = rte_eth_dev_stop(pf[0]);
	}
	CHECK(ret == 0, "stop PF0: %d", ret);
	CHECK(rte_eth_dev_close(pf[0]) == 0, "close PF0");
	nic_pf = pf[other];
	CHECK(octo_xstat(port, "proxy_releases") == 1, "%" PRIu64 " proxy releases counted",
		octo_xstat(port, "proxy_releases"));
	CHECK(octo_xstat(port, "steering_rules") == 0,
		"%" PRIu64 " steering rules after the proxy's release",
		octo_xstat(port, "steering_rules"));
	if (running) {
		CHECK(octo_xstat(port, "member1_in_service") == 1, "PF1 out of service");
		for (q = 0; q < nb_q; q++)
			base[q] = delivered_not_via(q, 0);
		wire0 = nic_wire_drops();
		end = rte_get_timer_cycles() + rte_get_timer_hz() / 1000 * LIMIT_MS;
		if (keeps) {
			/* the rules went from the port, not from the NIC: they
			 * still deliver, each queue polls every serving member
			 */
			for (q = 0; q < nb_q; q++)
				while (delivered_not_via(q, 0) <= base[q] &&
				       rte_get_timer_cycles() < end)
					rte_delay_us_sleep(100);
			for (q = 0; q < nb_q; q++)
				CHECK(delivered_not_via(q, 0) > base[q],
					"proxy released: queue %u delivers nothing", q);
		} else {
			/* no rule left: the wire's frames go by the NIC's
			 * default, to PF0's closed port (its drop)
			 */
			while (nic_wire_drops() < wire0 + 1000 && rte_get_timer_cycles() < end)
				rte_delay_us_sleep(100);
			CHECK(nic_wire_drops() >= wire0 + 1000,
				"proxy released: the NIC dropped %" PRIu64 " frame(s) in %d ms",
				nic_wire_drops() - wire0, LIMIT_MS);
		}
		any_rule("proxy released", RULE_REFUSED);
		drain();
		check_accounting("proxy released", 0, 0, 0, 0);
		CHECK(rte_eth_dev_stop(port) == 0, "stop");
	}

	ret = rte_eth_dev_start(port);
	if (!keeps) {
		/* the NIC refuses PF1 without its proxy: so does the port */
		CHECK(ret == -ENODEV, "restart without the transfer proxy: %d, not -ENODEV", ret);
		CHECK(octo_xstat(port, "start_refusals") >= 1, "the refused start not counted");
		if (ret == 0)
			CHECK(rte_eth_dev_stop(port) == 0, "stop");
		proxy_back(mp);
		return;
	}
	/* no transfer proxy now (net_octonic's is PF0's port): the restart
	 * runs without steering
	 */
	CHECK(ret == 0, "restart on PF1 alone: %d", ret);
	CHECK(rte_eth_stats_reset(port) == 0, "stats reset");
	rte_pmd_octonic_gen_count(nic_pf, &gen0);
	rx0 = received;
	memset(&st, 0, sizeof(st));
	rte_eth_stats_get(port, &st);
	out0 = octo_xstat(port, "outage_lost_packets");
	wire_base = nic_wire_drops();
	forward();
	CHECK(wait_for(&received, rx0 + 1000), "nothing forwarded after the restart");
	CHECK(octo_xstat(port, "steering_rules") == 0, "%" PRIu64 " steering rules without a proxy",
		octo_xstat(port, "steering_rules"));
	drain();
	check_accounting("proxy released, restarted", gen0, rx0, st.imissed, out0);
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	proxy_back(mp);
}

static int
on_reset(uint16_t port_id, enum rte_eth_event_type type, void *arg, void *ret)
{
	RTE_SET_USED(arg);
	RTE_SET_USED(ret);
	if (port_id == port && type == RTE_ETH_EVENT_INTR_RESET)
		rte_atomic_fetch_add_explicit(&reset_events, 1, rte_memory_order_relaxed);
	return 0;
}

/*
 * PF1 asks for a reset under load: out of service, the rule's traffic
 * through PF0; it stays out (its link does not bring it back) until the
 * application resets the port, which resets PF1, and sets it up again.
 */
static void
test_reset(struct rte_mempool *mp)
{
	uint64_t elsewhere, gen0 = 0, rx0, missed0, outage0;
	int other = stand_in(1);
	double t_out, t_back;

	REQUIRE(rte_eth_dev_callback_register(port, RTE_ETH_EVENT_INTR_RESET, on_reset,
		NULL) == 0, "callback");
	if (!rule_in_place(mp, 1, &elsewhere)) {
		drain();
		return;
	}
	CHECK(rte_pmd_octonic_reset_raise(pf[1]) == 0, "reset request on PF1");
	CHECK(rte_pmd_octonic_reset_raise(pf[1]) == -EALREADY, "second reset request");
	t_out = wait_served(1, other, other);
	CHECK(t_out >= 0, "queue 1: the rule's flow not served by PF%d within %d ms", other,
		LIMIT_MS);
	CHECK(octo_xstat(port, "member1_in_service") == 0, "PF1 still in service");
	CHECK(rte_atomic_load_explicit(&reset_events, rte_memory_order_relaxed) == 1,
		"%u INTR_RESET event(s) on the port", reset_events);
	/* PF1's link does not come back by itself, nor does the member */
	keeps_flowing("outage", 1, other);
	CHECK(octo_xstat(port, "member1_in_service") == 0, "PF1 served again without a reset");
	drain();
	check_only_on(1, elsewhere);
	check_accounting("reset, outage", 0, 0, 0, 0);

	/* the application's reset, as for any PMD's INTR_RESET */
	REQUIRE(rte_eth_dev_reset(port) == 0, "port reset");
	if (!start_port(mp))
		return;
	CHECK(rte_eth_stats_reset(port) == 0, "stats reset");
	accounting_base(&gen0, &rx0, &missed0, &outage0);
	forward();
	t_back = wait_served(1, 1, 1);
	CHECK(t_back >= 0, "after the reset, queue 1 not served by PF1 within %d ms", LIMIT_MS);
	keeps_flowing("after the reset", 1, 1);
	CHECK(octo_xstat(port, "member1_in_service") == 1 && octo_xstat(port, "member_returns") == 1,
		"after the reset: in service %" PRIu64 ", returns %" PRIu64,
		octo_xstat(port, "member1_in_service"), octo_xstat(port, "member_returns"));
	printf("reset: queue 1 served by PF%d %.1f ms after the request, by PF1 %.1f ms after the restart\n",
		other, t_out, t_back);
	drain();
	check_only_on(1, elsewhere);
	check_accounting("reset, after", gen0, rx0, missed0, outage0);
	octo_port_stop_close(port);
}

/* The port ids of the NIC's PFs (or uplinks) into pf[]. 0, or -ENODEV. */
static int
nic_ports(void)
{
	char name[RTE_ETH_NAME_MAX_LEN];
	unsigned int i;

	if (!mpesw)
		return octo_pfs_ports(pf, nb_pf);
	for (i = 0; i < nb_pf; i++) {
		snprintf(name, sizeof(name), "net_octonic0_p%u", i);
		pf[i] = port_of(name);
		if (pf[i] >= RTE_MAX_ETHPORTS)
			return -ENODEV;
	}
	return 0;
}

static int
on_lsc(uint16_t port_id, enum rte_eth_event_type type, void *arg, void *ret)
{
	struct rte_eth_link l;

	RTE_SET_USED(arg);
	RTE_SET_USED(ret);
	if (port_id != port || type != RTE_ETH_EVENT_INTR_LSC)
		return 0;
	memset(&l, 0, sizeof(l));
	lsc_status = rte_eth_link_get_nowait(port, &l) == 0 ? l.link_status : -1;
	rte_atomic_fetch_add_explicit(&lsc_events, 1, rte_memory_order_relaxed);
	return 0;
}

/* Wait (LIMIT_MS at most) until the port's link is @p status. */
static bool
wait_link(int status)
{
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz() / 1000 * LIMIT_MS;
	struct rte_eth_link l;

	do {
		memset(&l, 0, sizeof(l));
		if (rte_eth_link_get_nowait(port, &l) == 0 && l.link_status == status)
			return true;
		rte_delay_us_sleep(1000);
	} while (rte_get_timer_cycles() < end);
	return false;
}

/* Packets Rx queue @p q delivered, through any member. */
static uint64_t
delivered(uint16_t q)
{
	return delivered_not_via(q, -1);
}

/* The member xstat "member<m>_<what>", summed over the members. */
static uint64_t
members_xstat(const char *what)
{
	char name[64];
	uint64_t t = 0;
	unsigned int m;

	for (m = 0; m < nb_pf; m++) {
		snprintf(name, sizeof(name), "member%u_%s", m, what);
		t += octo_xstat(port, name);
	}
	return t;
}

/*
 * With every member out of service and the pollers stopped: the port's
 * bursts return 0 on every queue, and its statistics answer.
 */
static void
dead_port_calls(struct rte_mempool *mp)
{
	struct rte_eth_stats st;
	struct rte_mbuf *pkts[32];
	uint16_t q, n, sent;

	stop = 1;
	rte_eal_mp_wait_lcore();
	for (q = 0; q < nb_q; q++) {
		n = rte_eth_rx_burst(port, q, pkts, RTE_DIM(pkts));
		CHECK(n == 0, "every member out: Rx queue %u returned %u", q, n);
		rte_pktmbuf_free_bulk(pkts, n);
		pkts[0] = rte_pktmbuf_alloc(mp);
		REQUIRE(pkts[0] != NULL, "mbuf");
		rte_pktmbuf_append(pkts[0], 64);
		sent = rte_eth_tx_burst(port, q, pkts, 1);
		CHECK(sent == 0, "every member out: Tx queue %u took %u", q, sent);
		if (sent == 0)
			rte_pktmbuf_free(pkts[0]);
	}
	memset(&st, 0, sizeof(st));
	CHECK(rte_eth_stats_get(port, &st) == 0, "stats of a port with no member");
	CHECK(octo_xstat(port, "member_losses") != UINT64_MAX, "xstats of a port with no member");
	stop = 0;
	rte_eal_mp_remote_launch(worker, NULL, SKIP_MAIN);
}

/* Wait until every queue is polled by its worker again (not the main lcore). */
static bool
workers_polling(void)
{
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz() / 1000 * LIMIT_MS;
	struct rte_pmd_octopus_queue_info qi;
	uint16_t q, ok;

	do {
		for (q = 0, ok = 0; q < nb_q; q++)
			ok += rte_pmd_octopus_queue_info_get(port, q, 0, &qi) == 0 &&
				qi.poller_lcore == (int)poller_of(q);
		if (ok == nb_q)
			return true;
		rte_delay_us_sleep(1000);
	} while (rte_get_timer_cycles() < end);
	return false;
}

/*
 * Forwarding under load, then a device-fatal error: every member out at
 * once (see the header). @return false if the port did not start.
 */
static bool
fatal_error(struct rte_mempool *mp, uint64_t *elsewhere, uint64_t *rules0)
{
	uint64_t rx, missed, end;
	struct rte_eth_stats st;
	uint16_t q;

	lsc = 1;
	if (rte_eth_dev_callback_register(port, RTE_ETH_EVENT_INTR_LSC, on_lsc, NULL) != 0) {
		CHECK(false, "LSC callback");
		return false;
	}
	if (mpesw) {
		if (!start_port(mp))
			return false;
		forward();
		any_rule("mpesw", RULE_REFUSED);
	} else if (!rule_in_place(mp, 1, elsewhere)) {
		drain();
		return false;
	}
	CHECK(wait_for(&received, received + 2000), "nothing forwarded before the error");
	end = rte_get_timer_cycles() + rte_get_timer_hz() / 1000 * LIMIT_MS;
	for (q = 0; q < nb_q; q++) {
		while (delivered(q) == 0 && rte_get_timer_cycles() < end)
			rte_delay_us_sleep(100);
		CHECK(delivered(q) > 0, "before the error: queue %u delivers nothing", q);
	}
	CHECK(wait_link(RTE_ETH_LINK_UP), "link not up before the error");
	*rules0 = octo_xstat(port, "steering_rules");
	CHECK(mpesw ? *rules0 == 0 : *rules0 > 0, "%" PRIu64 " steering rules", *rules0);

	/* the error: every member goes at once */
	CHECK(rte_pmd_octonic_device_fatal(pf[0]) == 0, "device-fatal error");
	CHECK(rte_pmd_octonic_device_fatal(pf[nb_pf - 1]) == -EALREADY,
		"a second device-fatal error of a dead device");
	CHECK(wait_link(RTE_ETH_LINK_DOWN), "link still up %d ms after every member left",
		LIMIT_MS);
	CHECK(lsc_events == 1 && lsc_status == RTE_ETH_LINK_DOWN,
		"every member out: %u LSC event(s), the last with link %d", lsc_events,
		lsc_status);
	CHECK(octo_xstat(port, "member_losses") == nb_pf && members_xstat("in_service") == 0,
		"every member out: %" PRIu64 " losses, %" PRIu64 " in service",
		octo_xstat(port, "member_losses"), members_xstat("in_service"));
	/* nothing delivered from here, while the wire brings more */
	end = rte_get_timer_cycles() + rte_get_timer_hz() / 1000 * LIMIT_MS;
	do {
		rx = received;
		rte_delay_ms(50);
	} while (received != rx && rte_get_timer_cycles() < end);
	memset(&st, 0, sizeof(st));
	rte_eth_stats_get(port, &st);
	missed = st.imissed;
	/* the model's wire moves when a PF is polled, and no burst of the
	 * port polls one now: a burst of nothing on PF0 moves it, as frames
	 * keep coming to a dead NIC
	 */
	end = rte_get_timer_cycles() + rte_get_timer_hz() / 1000 * 300;
	while (rte_get_timer_cycles() < end) {
		rte_eth_tx_burst(pf[0], 0, NULL, 0);
		rte_delay_us_sleep(500);
	}
	rte_eth_stats_get(port, &st);
	CHECK(received == rx, "every member out: %" PRIu64 " packet(s) delivered",
		received - rx);
	CHECK(st.imissed > missed, "every member out: the NIC counted no drop");
	printf("every member out: %" PRIu64 " NIC drops in 300 ms\n", st.imissed - missed);
	dead_port_calls(mp);
	CHECK(workers_polling(), "the workers do not poll again");
	any_rule("every member out", mpesw ? RULE_REFUSED : RULE_ANSWERED);
	return true;
}

/*
 * The members back (plugged, or probed again and the port restarted from
 * @p base, what each queue had delivered then): link up after @p lsc_want
 * LSC events in all (2: the second said up), every queue delivers, the rule's flow at its queue
 * through PF1 with @p rules0 steering rules; then the accounting.
 */
static void
fatal_back(const char *what, const uint64_t *base, unsigned int lsc_want,
		uint64_t elsewhere, uint64_t rules0)
{
	uint64_t end;
	double t_back = 0;
	uint16_t q;

	CHECK(wait_link(RTE_ETH_LINK_UP), "%s: link not up within %d ms", what, LIMIT_MS);
	CHECK(lsc_events == lsc_want && (lsc_want == 1 || lsc_status == RTE_ETH_LINK_UP),
		"%s: %u LSC event(s), the last with link %d", what, lsc_events, lsc_status);
	CHECK(members_xstat("in_service") == nb_pf, "%s: %" PRIu64 " member(s) in service",
		what, members_xstat("in_service"));
	end = rte_get_timer_cycles() + rte_get_timer_hz() / 1000 * LIMIT_MS;
	for (q = 0; q < nb_q; q++) {
		while (delivered(q) <= base[q] && rte_get_timer_cycles() < end)
			rte_delay_us_sleep(100);
		CHECK(delivered(q) > base[q], "%s: queue %u delivers nothing", what, q);
	}
	if (!mpesw) {
		t_back = wait_served(1, 1, 1);
		CHECK(t_back >= 0, "%s: queue 1 not back on PF1 within %d ms", what, LIMIT_MS);
		keeps_flowing(what, 1, 1);
		CHECK(octo_xstat(port, "steering_rules") == rules0,
			"%s: %" PRIu64 " steering rules, %"
			PRIu64 " before", what, octo_xstat(port, "steering_rules"), rules0);
	} else {
		any_rule(what, RULE_REFUSED);
	}
	drain();
	printf("%s (%s): %" PRIu64 " Tx packet(s) freed unsent; back in %.1f ms\n", what,
		mpesw ? "mpesw" : "octonic", tx_unsent, t_back);
	if (!mpesw)
		check_only_on(1, elsewhere);
	check_accounting(what, 0, 0, 0, 0);
	octo_port_stop_close(port);
}

/* Every member lost at once, then every PF plugged back (see the header). */
static void
test_fatal(struct rte_mempool *mp)
{
	uint64_t elsewhere = 0, base[MAX_Q], rules0 = 0;
	unsigned int m;
	uint16_t q;

	if (!fatal_error(mp, &elsewhere, &rules0))
		return;
	for (q = 0; q < nb_q; q++)
		base[q] = delivered(q);
	for (m = 0; m < nb_pf; m++)
		CHECK(rte_pmd_octonic_plug(pf[m]) == 0, "plug PF%u", m);
	CHECK(octo_xstat(port, "member_returns") == nb_pf, "members back: %" PRIu64 " returns",
		octo_xstat(port, "member_returns"));
	fatal_back("members back", base, 2, elsewhere, rules0);
}

/*
 * Every member lost at once, then the NIC's device removed while the
 * pollers poll (as an application does on the members' RMV), probed
 * again, and the port restarted (see the header).
 */
static void
test_fatal_reprobe(struct rte_mempool *mp)
{
	uint64_t elsewhere = 0, base[MAX_Q], rules0 = 0, rx, gen = 0;
	struct rte_pmd_octonic_sink_stats sink;
	struct rte_eth_dev_info info;
	struct rte_eth_stats st;
	uint16_t q;

	if (!fatal_error(mp, &elsewhere, &rules0))
		return;
	REQUIRE(rte_eth_dev_info_get(pf[0], &info) == 0, "PF0's device");
	CHECK(rte_pmd_octonic_gen_enable(nic_pf, 0) == 0, "generator off");
	rte_pmd_octonic_gen_count(nic_pf, &gen);
	memset(&sink, 0, sizeof(sink));
	rte_pmd_octonic_sink_stats_get(nic_pf, &sink);
	gen_gone = gen;
	wire_gone = nic_wire_drops();
	sink_gone_ooo = sink.out_of_order;
	sink_gone_dup = sink.duplicates;
	rx = received;
	CHECK(rte_dev_remove(info.device) == 0, "remove the NIC");
	rte_delay_ms(100);
	memset(&st, 0, sizeof(st));
	CHECK(rte_eth_stats_get(port, &st) == 0, "stats with every member released");
	CHECK(received == rx, "members released: %" PRIu64 " packet(s) delivered",
		received - rx);
	CHECK(members_xstat("in_service") == 0, "members released: %" PRIu64 " in service",
		members_xstat("in_service"));
	CHECK(wait_link(RTE_ETH_LINK_DOWN), "members released: link up");
	CHECK(rte_dev_probe(nic_args) == 0, "probe the NIC again: %s", nic_args);
	REQUIRE(nic_ports() == 0, "the NIC's ports after the probe");
	nic_pf = pf[0];
	rte_pmd_octonic_gen_enable(nic_pf, 0);

	/* the port's own restart takes the members again; the new NIC's
	 * generator starts its flows' sequences anew
	 */
	stop = 1;
	rte_eal_mp_wait_lcore();
	CHECK(seq.reordered == 0 && seq.duplicated == 0, "before the probe: Rx: %" PRIu64
		" reordered, %" PRIu64 " duplicated", seq.reordered, seq.duplicated);
	octo_seq_reset(&seq);
	for (q = 0; q < nb_q; q++)
		base[q] = delivered(q);
	CHECK(rte_eth_dev_stop(port) == 0, "stop with every member released");
	if (!start_port(mp))
		return;
	forward();
	CHECK(octo_xstat(port, "member_returns") == nb_pf, "probed again: %" PRIu64 " returns",
		octo_xstat(port, "member_returns"));
	/* a start raises no LSC event: the application reads the link */
	fatal_back("probed again", base, 1, elsewhere, rules0);
}

/*
 * PF1 unplugged while its queue's poller sleeps inside PF1's Rx burst (the
 * NIC model's stall: a poller preempted there for 1 s, longer than any
 * guess of idleness): the loss returns only once that burst has ended, as
 * the member's PMD may free the queue under it from then on. Then PF1
 * comes back and the balance holds.
 */
static void
test_stalled(struct rte_mempool *mp)
{
	uint64_t hz = rte_get_timer_hz(), t0, t1, end;
	int st = RTE_PMD_OCTONIC_STALL_NONE;

	if (!start_port(mp))
		return;
	forward();
	end = rte_get_timer_cycles() + hz / 1000 * LIMIT_MS;
	while (rte_atomic_load_explicit(&received, rte_memory_order_relaxed) < 1000 &&
	       rte_get_timer_cycles() < end)
		rte_delay_us_sleep(1000);
	CHECK(rte_pmd_octonic_rx_stall(pf[1], 1000 * 1000) == 0, "PF1's Rx stall");
	/* a liveness bound: a poller may spend seconds retrying a full Tx
	 * queue (the strict model completes Tx every 32) on a loaded host
	 */
	end = rte_get_timer_cycles() + hz / 1000 * 4 * LIMIT_MS;
	while (rte_get_timer_cycles() < end &&
	       (st = rte_pmd_octonic_rx_stall_state(pf[1])) != RTE_PMD_OCTONIC_STALL_INSIDE)
		rte_delay_us_sleep(100);
	CHECK(st == RTE_PMD_OCTONIC_STALL_INSIDE, "no Rx burst of PF1 stalled within %d ms (%d)",
		4 * LIMIT_MS, st);
	t0 = rte_get_timer_cycles();
	CHECK(rte_pmd_octonic_unplug(pf[1]) == 0, "unplug PF1");
	t1 = rte_get_timer_cycles();
	st = rte_pmd_octonic_rx_stall_state(pf[1]);
	CHECK(st == RTE_PMD_OCTONIC_STALL_DONE,
		"the loss of PF1 returned after %.1f ms while a burst was still inside PF1's code (%d)",
		(double)(t1 - t0) * 1000 / hz, st);
	CHECK(octo_xstat(port, "member1_in_service") == 0, "PF1 still in service");
	if (st == RTE_PMD_OCTONIC_STALL_DONE)
		printf("PF1 out while a burst slept inside it: the loss returned after %.1f ms, once the burst ended\n",
			(double)(t1 - t0) * 1000 / hz);
	CHECK(rte_pmd_octonic_plug(pf[1]) == 0, "plug PF1");
	drain();
	check_accounting("stalled", 0, 0, 0, 0);
	octo_port_stop_close(port);
}

static const struct octo_case cases[] = {
	{ "flow", test_flow }, { "proxy", test_proxy }, { "reset", test_reset },
	{ "proxy_released", test_proxy_released }, { "fatal", test_fatal },
	{ "fatal_reprobe", test_fatal_reprobe }, { "stalled", test_stalled },
};

/* The members of @p e as the uplinks of topology=mpesw, uplink k on socket k. */
static int
octo_mpesw_members(struct octo_pfs_eal *e, unsigned int n)
{
	size_t at = 0;
	unsigned int i;
	int w;

	for (i = 0; i < n; i++) {
		w = snprintf(e->members + at, sizeof(e->members) - at,
			"%smember=net_octonic0_p%u,socket_of=net_octonic0_p%u:%u",
			i ? "," : "", i, i, i);
		if (w < 0 || (size_t)w >= sizeof(e->members) - at)
			return -ENOSPC;
		at += (size_t)w;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct octo_pfs_main m;
	bool fatal;

	/* main lcore, and lcores 1..N+1 on socket k mod N (poller_of) */
	if (octo_pfs_main_begin(&m, argc, argv, 2, "octopus-failover", &nb_pf, &nb_q) != 0)
		return 2;
	nb_desc = nb_pf == 2 ? 4096 : 1024;
	/* the device-fatal error under mlx5-hws: of mlx5's multiport
	 * e-switch, whose uplinks name no PF and report the owner's node
	 * (socket_of= says each one's)
	 */
	fatal = strncmp(m.which, "fatal", 5) == 0;
	mpesw = fatal &&
		strstr(octo_dialect_suffix(), "dialect=mlx5-hws") != NULL;
	snprintf(nic_args, sizeof(nic_args), "net_octonic0,%s,wire=gen,flows=1024,gen_rate=200000%s",
		m.e.nic, mpesw ? ",topology=mpesw" : "");
	octo_eal_vdev(&m.a, "%s", nic_args);
	if (mpesw && octo_mpesw_members(&m.e, nb_pf) != 0)
		return 2;
	/* beyond 2 PFs, rx_pool=app with a pool per socket: the port's own
	 * pools (rx_pool=local) would mirror the application's on each of the
	 * N members' sockets, N times the memory of the shared hugepages,
	 * while a queue's pool on its home socket keeps its DMA local there
	 */
	octo_eal_vdev(&m.a, "net_octopus0,%s,migration=manual%s", m.e.members,
		nb_pf > 2 ? ",rx_pool=app" : "");
	if (octo_eal_start(&m.a, nb_pf + 2) < 0 || !octo_pfs_sockets_ok(nb_pf) ||
	    octo_pfs_socket_pools(socket_pool, nb_pf, nb_q, nb_desc) != 0)
		return 2;
	port = port_of("net_octopus0");
	if (nic_ports() != 0)
		return 2;
	nic_pf = pf[0];
	m.mp = nb_pf > 2 ? socket_pool[0] : octo_app_pool("app", 16384, 0);
	if (m.mp == NULL || port >= RTE_MAX_ETHPORTS)
		return 2;
	rte_pmd_octonic_gen_enable(nic_pf, 0);
	return octo_case_main(cases, RTE_DIM(cases), m.which, argv[0], m.mp);
}
