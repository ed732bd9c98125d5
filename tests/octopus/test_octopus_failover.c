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
 *       port forwards on PF1, refuses new rules, and restarts without
 *       steering (net_octonic has no transfer proxy without PF0's port).
 *   test_octopus_failover reset   PF1 asks for a reset
 *       (rte_pmd_octonic_reset_raise): out of service, the application hears
 *       RTE_ETH_EVENT_INTR_RESET on the virtual port, the flow keeps
 *       reaching q through PF0; PF1 stays out until the application
 *       resets and reconfigures the port, then serves q again with the
 *       rule in place.
 * Every case: nothing reordered or duplicated at Rx or on the wire, and
 * received + NIC drops + what sat in the lost PF's rings = generated.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
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
#include "../common/octo_flow_rule.h"
#include "../common/octo_migration.h"
#include "../common/octo_pfs.h"
#include "../common/octo_port.h"
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
				k += rte_eth_tx_burst(port, q, pkts + k, n - k);
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

/* The port's xstat @p name (octo_xstat). */
static uint64_t
xstat(const char *name)
{
	return octo_xstat(port, name);
}

/* Packets Rx queue @p q has delivered through member @p m. */
static uint64_t
delivered_via(uint16_t q, int m)
{
	return octo_delivered_via(port, q, m);
}

static uint64_t
watched_total(void)
{
	uint64_t t = 0;
	uint16_t q;

	for (q = 0; q < nb_q; q++)
		t += rte_atomic_load_explicit(&watched_on[q], rte_memory_order_relaxed);
	return t;
}

static bool
start_port(struct rte_mempool *mp)
{
	struct octo_port_conf c = {
		.nb_rxq = nb_q, .nb_txq = nb_q, .nb_desc = nb_desc,
		.socket = OCTO_SOCKET_SPREAD, .pool = mp,
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
	uint64_t last, now;

	CHECK(rte_pmd_octonic_gen_enable(nic_pf, 0) == 0, "generator off");
	do {
		last = rte_atomic_load_explicit(&received, rte_memory_order_relaxed);
		rte_delay_ms(100);
		now = rte_atomic_load_explicit(&received, rte_memory_order_relaxed);
	} while (now != last && rte_get_timer_cycles() < end);
	CHECK(now == last, "packets still arriving %d ms after the generator's pause", LIMIT_MS);
	stop = 1;
	rte_eal_mp_wait_lcore();
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
			d = delivered_via(q, via);
		} else if (rte_atomic_load_explicit(&watched_on[q], rte_memory_order_relaxed) > w &&
			   delivered_via(q, via) > d) {
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
		t += (int)m == via ? 0 : delivered_via(q, (int)m);
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
	uint64_t d = delivered_via(q, via), other = delivered_not_via(q, via);

	CHECK(wait_for(&watched_on[q], w + MIN_PKTS),
		"%s: the rule's flow reached queue %u %" PRIu64 " time(s) in %d ms, not %d",
		when, q, rte_atomic_load_explicit(&watched_on[q], rte_memory_order_relaxed) - w, LIMIT_MS,
		MIN_PKTS);
	CHECK(delivered_via(q, via) > d, "%s: queue %u delivered nothing through PF%d",
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
	*elsewhere = watched_total() -
		rte_atomic_load_explicit(&watched_on[q], rte_memory_order_relaxed);
	return true;
}

/* The flow reached no queue but @p q since @p elsewhere was counted. */
static void
check_only_on(uint16_t q, uint64_t elsewhere)
{
	uint64_t now = watched_total() -
		rte_atomic_load_explicit(&watched_on[q], rte_memory_order_relaxed);

	CHECK(now == elsewhere, "the rule's flow reached other queues than %u: %" PRIu64
		" packet(s)", q, now - elsewhere);
	CHECK(watched_on[q] > 0, "the rule's flow never reached queue %u", q);
}

/*
 * Order and accounting since @p gen0 generated, @p rx0 received (the pollers
 * stopped, the generator paused): nothing reordered or duplicated at Rx or
 * on the wire; received + NIC drops + ring losses = generated.
 */
static void
check_accounting(const char *what, uint64_t gen0, uint64_t rx0, uint64_t missed0,
		uint64_t outage0)
{
	struct rte_pmd_octonic_sink_stats sink;
	struct rte_eth_stats st;
	uint64_t gen = 0, rx, missed, outage;

	rte_pmd_octonic_gen_count(nic_pf, &gen);
	memset(&st, 0, sizeof(st));
	rte_eth_stats_get(port, &st);
	gen -= gen0;
	rx = received - rx0;
	missed = st.imissed - missed0;
	outage = xstat("outage_lost_packets") - outage0;
	memset(&sink, 0, sizeof(sink));
	CHECK(rte_pmd_octonic_sink_stats_get(nic_pf, &sink) == 0, "sink");
	printf("%s: %" PRIu64 " generated, %" PRIu64 " received, %" PRIu64 " NIC drops, %"
		PRIu64 " lost in the rings; Rx %" PRIu64 " reordered %" PRIu64
		" dup; sink %" PRIu64 " out of order %" PRIu64 " dup; the rule's flow on"
		" queues %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", what, gen, rx,
		missed, outage, seq.reordered, seq.duplicated, sink.out_of_order,
		sink.duplicates, watched_on[0], watched_on[1], watched_on[2], watched_on[3]);
	CHECK(seq.reordered == 0 && seq.duplicated == 0, "Rx: %" PRIu64 " reordered, %"
		PRIu64 " duplicated", seq.reordered, seq.duplicated);
	CHECK(sink.out_of_order == 0 && sink.duplicates == 0,
		"sink: %" PRIu64 " out of order, %" PRIu64 " dup", sink.out_of_order,
		sink.duplicates);
	CHECK(outage <= nb_q * nb_desc, "%" PRIu64 " lost in the rings: more than they hold",
		outage);
	CHECK(rx + missed + outage == gen, "received %" PRIu64 " + NIC drops %" PRIu64
		" + ring losses %" PRIu64 " != generated %" PRIu64, rx, missed, outage, gen);
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
	CHECK(xstat(in_service) == 0, "PF%d still in service", lost);
	keeps_flowing("outage", q, other);
	CHECK(rte_pmd_octonic_plug(pf[lost]) == 0, "plug PF%d", lost);
	t_back = wait_served(q, lost, lost);
	CHECK(t_back >= 0, "queue %u not back on PF%d within %d ms", q, lost, LIMIT_MS);
	keeps_flowing("back", q, lost);
	CHECK(xstat("member_returns") == 1, "member_returns %" PRIu64, xstat("member_returns"));
	printf("PF%d out: queue %u served by PF%d %.1f ms after, back %.1f ms after the plug\n",
		lost, q, other, t_out, t_back);
	drain();
	check_only_on(q, elsewhere);
	check_accounting(lost ? "flow" : "proxy", 0, 0, 0, 0);
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	CHECK(rte_eth_dev_close(port) == 0, "close");
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

/*
 * PF0, the transfer proxy, unplugged, then its port released (stopped and
 * closed): the rules went with it. The port forwards on through PF1,
 * without steering; the application's rules are refused; a restart of the
 * port on PF1 alone (no transfer proxy left) starts and forwards, in order.
 */
static void
test_proxy_released(struct rte_mempool *mp)
{
	struct rte_flow_error err;
	struct rte_flow_attr attr = { .ingress = 1 };
	struct rte_flow_item items[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_action_queue qa = { .index = 0 };
	struct rte_flow_action actions[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &qa },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	uint64_t elsewhere, gen0 = 0, rx0, base[MAX_Q], end, out0;
	int other = stand_in(0);
	struct rte_eth_stats st;
	struct rte_flow *f;
	uint16_t q;

	if (!rule_in_place(mp, 0, &elsewhere)) {
		drain();
		return;
	}
	CHECK(rte_pmd_octonic_unplug(pf[0]) == 0, "unplug PF0");
	CHECK(wait_served(0, other, other) >= 0, "queue 0 not served by PF%d within %d ms",
		other, LIMIT_MS);
	CHECK(rte_eth_dev_stop(pf[0]) == 0, "stop PF0");
	CHECK(rte_eth_dev_close(pf[0]) == 0, "close PF0");
	nic_pf = pf[other];
	CHECK(xstat("steering_rules") == 0, "%" PRIu64 " steering rules after the proxy's release",
		xstat("steering_rules"));
	/* without steering each queue polls every serving member: not PF0 */
	for (q = 0; q < nb_q; q++)
		base[q] = delivered_not_via(q, 0);
	end = rte_get_timer_cycles() + rte_get_timer_hz() / 1000 * LIMIT_MS;
	for (q = 0; q < nb_q; q++)
		while (delivered_not_via(q, 0) <= base[q] && rte_get_timer_cycles() < end)
			rte_delay_us_sleep(100);
	for (q = 0; q < nb_q; q++)
		CHECK(delivered_not_via(q, 0) > base[q], "proxy released: queue %u delivers nothing", q);
	memset(&err, 0, sizeof(err));
	f = rte_flow_create(port, &attr, items, actions, &err);
	CHECK(f == NULL, "a rule created with the proxy released");
	printf("proxy released: rule refused: %s\n", err.message ? err.message : "?");
	drain();
	check_accounting("proxy released", 0, 0, 0, 0);

	/* no transfer proxy now (net_octonic's is PF0's port): the restart
	 * runs without steering
	 */
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	CHECK(rte_eth_dev_start(port) == 0, "restart on PF1 alone");
	CHECK(rte_eth_stats_reset(port) == 0, "stats reset");
	rte_pmd_octonic_gen_count(nic_pf, &gen0);
	rx0 = received;
	memset(&st, 0, sizeof(st));
	rte_eth_stats_get(port, &st);
	out0 = xstat("outage_lost_packets");
	forward();
	CHECK(wait_for(&received, rx0 + 1000), "nothing forwarded after the restart");
	CHECK(xstat("steering_rules") == 0, "%" PRIu64 " steering rules without a proxy",
		xstat("steering_rules"));
	drain();
	check_accounting("proxy released, restarted", gen0, rx0, st.imissed, out0);
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	CHECK(rte_eth_dev_close(port) == 0, "close");
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
	struct rte_eth_stats st;
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
	CHECK(xstat("member1_in_service") == 0, "PF1 still in service");
	CHECK(rte_atomic_load_explicit(&reset_events, rte_memory_order_relaxed) == 1,
		"%u INTR_RESET event(s) on the port", reset_events);
	/* PF1's link does not come back by itself, nor does the member */
	keeps_flowing("outage", 1, other);
	CHECK(xstat("member1_in_service") == 0, "PF1 served again without a reset");
	drain();
	check_only_on(1, elsewhere);
	check_accounting("reset, outage", 0, 0, 0, 0);

	/* the application's reset, as for any PMD's INTR_RESET */
	REQUIRE(rte_eth_dev_reset(port) == 0, "port reset");
	if (!start_port(mp))
		return;
	CHECK(rte_eth_stats_reset(port) == 0, "stats reset");
	rte_pmd_octonic_gen_count(nic_pf, &gen0);
	rx0 = received;
	memset(&st, 0, sizeof(st));
	rte_eth_stats_get(port, &st);
	missed0 = st.imissed;
	outage0 = xstat("outage_lost_packets");
	forward();
	t_back = wait_served(1, 1, 1);
	CHECK(t_back >= 0, "after the reset, queue 1 not served by PF1 within %d ms", LIMIT_MS);
	keeps_flowing("after the reset", 1, 1);
	CHECK(xstat("member1_in_service") == 1 && xstat("member_returns") == 1,
		"after the reset: in service %" PRIu64 ", returns %" PRIu64,
		xstat("member1_in_service"), xstat("member_returns"));
	printf("reset: queue 1 served by PF%d %.1f ms after the request, by PF1 %.1f ms after the restart\n",
		other, t_out, t_back);
	drain();
	check_only_on(1, elsewhere);
	check_accounting("reset, after", gen0, rx0, missed0, outage0);
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	CHECK(rte_eth_dev_close(port) == 0, "close");
}

static const struct octo_case cases[] = {
	{ "flow", test_flow }, { "proxy", test_proxy }, { "reset", test_reset },
	{ "proxy_released", test_proxy_released },
};

int
main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "";
	char prefix[64], octo[512], gen[256], name[32];
	struct octo_pfs_eal e;
	char *eal[] = {
		argv[0], "-m", "512", "--no-pci",
		"--lcores", e.lcores, "--file-prefix", prefix,
		"--vdev", gen, "--vdev", octo,
	};
	struct rte_mempool *mp;
	int nb_eal = RTE_DIM(eal);
	char **eal_argv = eal;
	unsigned int i;

	nb_pf = octo_pfs();
	if (nb_pf == 0)
		return 2;
	nb_q = RTE_MAX(4u, nb_pf);
	nb_desc = nb_pf == 2 ? 4096 : 1024;
	/* main lcore, and lcores 1..N+1 on socket k mod N (poller_of) */
	if (octo_pfs_eal_make(&e, nb_pf, nb_pf + 2) != 0)
		return 2;
	snprintf(prefix, sizeof(prefix), "octopus-failover-%s-%u", which, nb_pf);
	snprintf(gen, sizeof(gen), "net_octonic0,%s,wire=gen,flows=1024,gen_rate=200000", e.nic);
	/* beyond 2 PFs, rx_pool=app with a pool per socket: the port's own
	 * pools (rx_pool=local) would mirror the application's on each of the
	 * N members' sockets, N times the memory of the shared hugepages,
	 * while a queue's pool on its home socket keeps its DMA local there
	 */
	snprintf(octo, sizeof(octo), "net_octopus0,%s,migration=manual%s", e.members,
		nb_pf > 2 ? ",rx_pool=app" : "");
	if (octo_case_eal_init(&nb_eal, &eal_argv, 512, nb_pf + 2) < 0 ||
	    !octo_pfs_sockets_ok(nb_pf))
		return 2;
	for (i = 0; i < nb_pf; i++) {
		snprintf(name, sizeof(name), "app%u", i);
		if (nb_pf > 2) {
			socket_pool[i] = rte_pktmbuf_pool_create(name, 4096, 256, 0,
				RTE_MBUF_DEFAULT_BUF_SIZE, (int)i);
			if (socket_pool[i] == NULL) {
				fprintf(stderr, "pool on socket %u: %s\n", i,
					rte_strerror(rte_errno));
				return 2;
			}
		}
	}
	port = port_of("net_octopus0");
	if (octo_pfs_ports(pf, nb_pf) != 0)
		return 2;
	nic_pf = pf[0];
	mp = nb_pf > 2 ? socket_pool[0] :
		rte_pktmbuf_pool_create("app", 16384, 256, 0, RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	if (mp == NULL || port >= RTE_MAX_ETHPORTS)
		return 2;
	rte_pmd_octonic_gen_enable(nic_pf, 0);
	return octo_case_main(cases, RTE_DIM(cases), which, argv[0], mp);
}
