/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * EAL tests of net_octopus over net_null / net_ring members (no e-switch,
 * so the port runs without steering). One binary, one case per run:
 *   test_octopus_eal devargs   refusals leave no port, memory or owner behind
 *   test_octopus_eal lockstep  control ops reach every member; a member's
 *                              refusal rolls the others back
 *   test_octopus_eal datapath  bursts go through the home member, mbuf->port,
 *                              stats/xstats/locality counters, stop/start
 *   test_octopus_eal telemetry /octopus/list and /octopus/info over the socket,
 *                              member state before and after a member's loss
 */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <rte_bus_vdev.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_memzone.h>

#include "rte_pmd_octopus.h"

#include "../common/octo_cases.h"
#include "../common/octo_check.h"
#include "../common/octo_port.h"
#include "../common/octo_state.h"
#include "../common/octo_test_eal.h"

/* ---- log capture: what the driver said about a refusal ---- */

static char logbuf[1 << 16];
static FILE *logf_;

static void
log_reset(void)
{
	fflush(logf_);
	rewind(logf_);
	memset(logbuf, 0, sizeof(logbuf));
}

static bool
log_has(const char *s)
{
	fflush(logf_);
	return strstr(logbuf, s) != NULL;
}

/* ---- what a refused probe must not leave behind ---- */

struct footprint {
	uint16_t ports;
	size_t alloc_count;
	size_t alloc_bytes;
	unsigned int memzones;
};

static void
count_mz(const struct rte_memzone *mz, void *arg)
{
	RTE_SET_USED(mz);
	(*(unsigned int *)arg)++;
}

static void
footprint(struct footprint *f)
{
	struct rte_malloc_socket_stats st;

	memset(f, 0, sizeof(*f));
	f->ports = rte_eth_dev_count_total();
	rte_malloc_get_socket_stats(0, &st);
	f->alloc_count = st.alloc_count;
	f->alloc_bytes = st.heap_allocsz_bytes;
	rte_memzone_walk(count_mz, &f->memzones);
}

static uint64_t
owner_of(const char *name)
{
	struct rte_eth_dev_owner o = { .id = 0 };

	rte_eth_dev_owner_get(port_of(name), &o);
	return o.id;
}

static void
refused(const char *args, const char *why)
{
	struct footprint before, after;
	uint64_t o0 = owner_of("net_null0"), o1 = owner_of("net_null1");
	int ret;

	log_reset();
	footprint(&before);
	ret = rte_vdev_init("net_octopus9", args);
	footprint(&after);
	CHECK(ret < 0, "\"%s\" accepted", args);
	CHECK(log_has(why), "\"%s\": log lacks \"%s\": %s", args, why, logbuf);
	CHECK(after.ports == before.ports, "\"%s\": %u ports, was %u", args,
		after.ports, before.ports);
	CHECK(after.alloc_count == before.alloc_count &&
		after.alloc_bytes == before.alloc_bytes,
		"\"%s\": rte_malloc %zu/%zu bytes, was %zu/%zu", args,
		after.alloc_count, after.alloc_bytes, before.alloc_count,
		before.alloc_bytes);
	CHECK(after.memzones == before.memzones, "\"%s\": memzones leaked", args);
	CHECK(owner_of("net_null0") == o0 && owner_of("net_null1") == o1,
		"\"%s\": a member's owner changed", args);
	if (ret == 0)
		rte_vdev_uninit("net_octopus9");
}

static int
configure(uint16_t port, uint16_t nb_q, struct rte_mempool *mp, int socket)
{
	struct rte_eth_conf conf;
	uint16_t q;
	int ret;

	memset(&conf, 0, sizeof(conf));
	ret = rte_eth_dev_configure(port, nb_q, nb_q, &conf);
	if (ret < 0)
		return ret;
	for (q = 0; q < nb_q; q++) {
		ret = rte_eth_rx_queue_setup(port, q, 256, socket, NULL, mp);
		if (ret < 0)
			return ret;
		ret = rte_eth_tx_queue_setup(port, q, 256, socket, NULL);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static void
test_devargs(struct rte_mempool *mp)
{
	struct footprint before, after;
	struct rte_eth_dev_owner other;
	uint16_t port;

	refused("", "no member");
	refused("member=", "empty or too long");
	refused("member=net_null0,member=net_null0", "member given twice");
	refused("member=net_null0,member=net_null1", "both on socket 0");
	refused("member=net_null0,bogus=1", "unknown key");
	refused("member=net_null0,socket_of=net_null9:1", "net_null9 is not a member");
	refused("member=net_null0,socket_of=net_null0:x", "expected an integer");
	refused("member=net_null0,socket_of=net_null0", "expected <member>:<node>");
	refused("member=net_null0,mac=zz:00", "not a unicast MAC");
	refused("member=net_null0,mac=01:00:00:00:00:01", "not a unicast MAC");
	refused("member=net_null0,rx_pool=foo", "expected local or app");
	refused("member=net_null0,reta_size=3", "power of 2");
	refused("member=net_null0,spread=toeplitz", "expected l4_src");
	refused("member=net_null0,nic=net_null1", "exclusive");
	refused("nic=net_null0", "no switch domain");
	refused("member=net_null0,force=2", "expected an integer");
	refused("member=net_null0,member=net_null1,socket_of=net_null1:9", "no NUMA node 9");
	refused("member=net_null0,migration=sometimes", "expected auto or manual");
	/* no test-only key is a devarg a user can set */
	refused("member=net_null0,drain=0", "unknown key");
	{
		/* more pairs than kvargs holds; a value longer than any name */
		char many[64 + 33 * 8], *w = many;
		char longv[2100];
		unsigned int k;

		w += sprintf(w, "member=net_null0");
		for (k = 0; k < 32; k++)
			w += sprintf(w, ",force=0");
		refused(many, "at most 32");
		snprintf(longv, sizeof(longv), "member=net_null0,member=%02000d", 7);
		refused(longv, "too long device name");
	}

	/* owned by someone else */
	memset(&other, 0, sizeof(other));
	CHECK(rte_eth_dev_owner_new(&other.id) == 0, "owner_new");
	snprintf(other.name, sizeof(other.name), "someone");
	CHECK(rte_eth_dev_owner_set(port_of("net_null1"), &other) == 0, "owner_set");
	log_reset();
	footprint(&before);
	CHECK(rte_vdev_init("net_octopus9",
		"member=net_null0,member=net_null1,socket_of=net_null1:1") < 0,
		"owned member accepted");
	CHECK(log_has("already owned by \"someone\""), "log: %s", logbuf);
	footprint(&after);
	CHECK(after.ports == before.ports && after.alloc_count == before.alloc_count,
		"owned-member refusal left something");
	CHECK(owner_of("net_null0") == 0, "net_null0 stayed owned");
	rte_eth_dev_owner_unset(port_of("net_null1"), other.id);

	/* unknown member: may appear later, refused at configure */
	footprint(&before);
	CHECK(rte_vdev_init("net_octopus9", "member=net_nope0") == 0,
		"deferred member refused at probe");
	port = port_of("net_octopus9");
	CHECK(port < RTE_MAX_ETHPORTS && rte_pmd_octopus_is_octopus(port) == 1,
		"no octopus port");
	log_reset();
	CHECK(configure(port, 1, mp, 0) < 0, "configure with an unknown member");
	CHECK(log_has("member net_nope0: no such ethdev"), "log: %s", logbuf);
	CHECK(rte_vdev_uninit("net_octopus9") == 0, "uninit");
	footprint(&after);
	CHECK(after.ports == before.ports && after.alloc_count == before.alloc_count &&
		after.alloc_bytes == before.alloc_bytes,
		"after uninit: %u ports (was %u), %zu allocs (was %zu)", after.ports,
		before.ports, after.alloc_count, before.alloc_count);

	/* members attached after the port: resolved (and owned) when first
	 * needed (configure here); members listed after the port on EAL's
	 * command line are probed by it (testpmd_vdev_order.sh)
	 */
	CHECK(rte_vdev_init("net_octopus9",
		"member=net_null8,member=net_null9,socket_of=net_null9:1") == 0,
		"probe before members");
	CHECK(rte_vdev_init("net_null8", NULL) == 0 && rte_vdev_init("net_null9", NULL) == 0,
		"late members");
	port = port_of("net_octopus9");
	CHECK(owner_of("net_null8") == 0, "owned before configure");
	CHECK(configure(port, 1, mp, 0) == 0, "configure with late members");
	CHECK(owner_of("net_null8") != 0 && owner_of("net_null9") != 0,
		"late members not owned");
	CHECK(rte_pmd_octopus_members_get(port, NULL, 0) == 2, "late members missing");
	CHECK(rte_eth_dev_start(port) == 0, "start with late members");
	CHECK(rte_vdev_uninit("net_octopus9") == 0, "uninit");
	CHECK(port_of("net_null8") == RTE_MAX_ETHPORTS, "configured members not closed");

	/* an octopus port is not a member */
	CHECK(rte_vdev_init("net_octopus8",
		"member=net_null0,member=net_null1,socket_of=net_null1:1") == 0, "good probe");
	CHECK(owner_of("net_null0") != 0 && owner_of("net_null1") != 0,
		"members not owned");
	CHECK(rte_eth_dev_count_avail() == rte_eth_dev_count_total() - 2,
		"owned members still visible to the app: %u of %u",
		rte_eth_dev_count_avail(), rte_eth_dev_count_total());
	refused("member=net_octopus8", "is an octopus port");
	/* members of a live port cannot be taken twice */
	log_reset();
	CHECK(rte_vdev_init("net_octopus9", "member=net_null0") < 0, "member shared");
	CHECK(log_has("already owned by \"net_octopus"), "log: %s", logbuf);
	CHECK(rte_vdev_uninit("net_octopus8") == 0, "uninit good port");
	/* never configured: the members are handed back untouched */
	CHECK(port_of("net_null0") < RTE_MAX_ETHPORTS && owner_of("net_null0") == 0 &&
		owner_of("net_null1") == 0, "members not handed back");
}

static void
test_lockstep(struct rte_mempool *mp)
{
	struct rte_ether_addr mac = {{ 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 }}, got;
	struct rte_ether_addr mac_before;
	uint16_t a, b, c, n0, n1, r0, mtu;

	CHECK(rte_vdev_init("net_octopus0",
		"member=net_null0,member=net_null1,socket_of=net_null1:1") == 0, "probe a");
	/* member order matters: the refusing member comes second */
	CHECK(rte_vdev_init("net_octopus1",
		"member=net_ring0,member=net_null2,socket_of=net_null2:1") == 0, "probe b");
	CHECK(rte_vdev_init("net_octopus2",
		"member=net_null3,member=net_ring1,socket_of=net_null3:1") == 0, "probe c");
	a = port_of("net_octopus0");
	b = port_of("net_octopus1");
	c = port_of("net_octopus2");
	n0 = port_of("net_null0");
	n1 = port_of("net_null1");
	r0 = port_of("net_ring0");
	/* capabilities: the intersection of the members' */
	{
		struct rte_eth_dev_info vi, ri, ni;

		CHECK(rte_eth_dev_info_get(b, &vi) == 0, "info of b");
		CHECK(rte_eth_dev_info_get(r0, &ri) == 0, "info of r0");
		CHECK(rte_eth_dev_info_get(port_of("net_null2"), &ni) == 0, "info of net_null2");
		CHECK(vi.max_rx_queues == RTE_MIN(ri.max_rx_queues, ni.max_rx_queues) &&
			vi.max_tx_queues == RTE_MIN(ri.max_tx_queues, ni.max_tx_queues),
			"queues %u/%u vs ring %u null %u", vi.max_rx_queues,
			vi.max_tx_queues, ri.max_rx_queues, ni.max_rx_queues);
		CHECK(vi.rx_offload_capa == (ri.rx_offload_capa & ni.rx_offload_capa) &&
			vi.tx_offload_capa == (ri.tx_offload_capa & ni.tx_offload_capa) &&
			vi.flow_type_rss_offloads ==
			(ri.flow_type_rss_offloads & ni.flow_type_rss_offloads),
			"offloads not intersected");
		CHECK(vi.max_mac_addrs == RTE_MIN(ri.max_mac_addrs, ni.max_mac_addrs) &&
			vi.max_rx_pktlen == RTE_MIN(ri.max_rx_pktlen, ni.max_rx_pktlen) &&
			vi.max_mtu == RTE_MIN(ri.max_mtu, ni.max_mtu) &&
			vi.min_mtu == RTE_MAX(ri.min_mtu, ni.min_mtu),
			"sizes: mac %u (%u,%u) pktlen %u (%u,%u) mtu %u (%u,%u) min %u (%u,%u)",
			vi.max_mac_addrs, ri.max_mac_addrs, ni.max_mac_addrs,
			vi.max_rx_pktlen, ri.max_rx_pktlen, ni.max_rx_pktlen,
			vi.max_mtu, ri.max_mtu, ni.max_mtu, vi.min_mtu, ri.min_mtu, ni.min_mtu);
		CHECK(vi.reta_size == 64 && vi.hash_key_size == 0, "reta %u key %u",
			vi.reta_size, vi.hash_key_size);
		CHECK(rte_eth_dev_info_get(a, &vi) == 0, "info of a");
		CHECK(vi.max_rx_queues == RTE_MIN(ni.max_rx_queues, 64), "port a queues %u",
			vi.max_rx_queues);
	}
	CHECK(configure(a, 2, mp, 0) == 0, "configure a");
	CHECK(configure(b, 1, mp, 0) == 0, "configure b");
	CHECK(configure(c, 1, mp, 0) == 0, "configure c");

	/* changes reach every member */
	CHECK(rte_eth_dev_set_mtu(a, 9000) == 0, "MTU on a");
	CHECK(rte_eth_dev_get_mtu(n0, &mtu) == 0 && mtu == 9000, "null0 MTU %u", mtu);
	CHECK(rte_eth_dev_get_mtu(n1, &mtu) == 0 && mtu == 9000, "null1 MTU %u", mtu);
	CHECK(rte_eth_dev_default_mac_addr_set(a, &mac) == 0, "MAC on a");
	rte_eth_macaddr_get(n0, &got);
	CHECK(rte_is_same_ether_addr(&got, &mac), "null0 MAC not set");
	rte_eth_macaddr_get(n1, &got);
	CHECK(rte_is_same_ether_addr(&got, &mac), "null1 MAC not set");

	/* b = ring0 + null2: promiscuous disable is done on ring0, refused
	 * by null2 (no such op): ring0 must be promiscuous again.
	 */
	CHECK(rte_eth_promiscuous_get(r0) == 1, "ring0 starts promiscuous");
	CHECK(rte_eth_promiscuous_enable(b) == 0, "promisc enable");
	log_reset();
	CHECK(rte_eth_promiscuous_disable(b) < 0, "promisc disable accepted");
	CHECK(rte_eth_promiscuous_get(r0) == 1, "ring0 left non-promiscuous");
	CHECK(log_has("undoing it on 1 member"), "log: %s", logbuf);
	CHECK(rte_eth_promiscuous_get(b) != 0, "port b changed its flag");
	CHECK(rte_eth_allmulticast_enable(b) == 0, "allmulti enable");
	CHECK(rte_eth_allmulticast_get(r0) == 1, "ring0 not allmulti");
	CHECK(rte_eth_allmulticast_disable(b) < 0, "allmulti disable accepted");
	CHECK(rte_eth_allmulticast_get(r0) == 1, "ring0 allmulti not rolled back");

	/* c = null3 + ring1: MTU and MAC are done on null3, refused by ring1 */
	CHECK(rte_eth_dev_get_mtu(port_of("net_null3"), &mtu) == 0 && mtu == 1500,
		"null3 MTU %u", mtu);
	CHECK(rte_eth_dev_set_mtu(c, 2000) < 0, "MTU accepted");
	CHECK(rte_eth_dev_get_mtu(port_of("net_null3"), &mtu) == 0 && mtu == 1500,
		"null3 MTU left at %u", mtu);
	CHECK(rte_eth_dev_get_mtu(c, &mtu) == 0 && mtu == 1500, "port c MTU %u", mtu);
	rte_eth_macaddr_get(port_of("net_null3"), &mac_before);
	CHECK(rte_eth_dev_default_mac_addr_set(c, &mac) < 0, "MAC accepted");
	rte_eth_macaddr_get(port_of("net_null3"), &got);
	CHECK(rte_is_same_ether_addr(&got, &mac_before), "null3 MAC not rolled back");

	rte_vdev_uninit("net_octopus0");
	rte_vdev_uninit("net_octopus1");
	rte_vdev_uninit("net_octopus2");
}

static uint64_t
xstat(uint16_t port, const char *name)
{
	uint64_t id, v = UINT64_MAX;

	if (rte_eth_xstats_get_id_by_name(port, name, &id) == 0)
		rte_eth_xstats_get_by_id(port, &id, &v, 1);
	return v;
}

static void
test_datapath(struct rte_mempool *mp)
{
	struct rte_pmd_octopus_member mb[RTE_PMD_OCTOPUS_MAX_MEMBERS];
	struct rte_pmd_octopus_queue_info qi;
	struct rte_pmd_octopus_locality loc;
	struct rte_mbuf *pkts[32];
	struct rte_eth_stats st;
	struct rte_eth_link link;
	uint16_t port, n, i, k, bad;
	uint64_t rx = 0, tx = 0;
	int ret;

	/* manual: this test counts the polls of a queue from the socket that
	 * is not its home, which auto migration would end
	 */
	CHECK(rte_vdev_init("net_octopus0",
		"member=net_null0,member=net_null1,socket_of=net_null1:1,"
		"migration=manual") == 0, "probe");
	port = port_of("net_octopus0");
	CHECK(rte_pmd_octopus_members_get(port, mb, RTE_DIM(mb)) == 2, "2 members");
	CHECK(mb[0].port_id == port_of("net_null0") && mb[0].socket == 0 &&
		mb[1].port_id == port_of("net_null1") && mb[1].socket == 1,
		"members %u@%d %u@%d", mb[0].port_id, mb[0].socket, mb[1].port_id,
		mb[1].socket);
	/* queue 0 asks for socket 1 (member 1), queue 1 names no member's
	 * socket: bound by its first poller (this lcore, socket 0)
	 */
	{
		struct rte_eth_conf conf;

		memset(&conf, 0, sizeof(conf));
		CHECK(rte_eth_dev_configure(port, 2, 2, &conf) == 0, "configure");
		CHECK(rte_eth_rx_queue_setup(port, 0, 256, 1, NULL, mp) == 0, "rxq0");
		CHECK(rte_eth_tx_queue_setup(port, 0, 256, 1, NULL) == 0, "txq0");
		CHECK(rte_eth_rx_queue_setup(port, 1, 256, SOCKET_ID_ANY, NULL, mp) == 0,
			"rxq1");
		CHECK(rte_eth_tx_queue_setup(port, 1, 256, SOCKET_ID_ANY, NULL) == 0,
			"txq1");
	}
	CHECK(rte_eth_dev_start(port) == 0, "start");
	CHECK(rte_pmd_octopus_queue_info_get(port, 1, 0, &qi) == 0 && !qi.has_home,
		"rxq1 has a home before any poll");
	n = rte_eth_rx_burst(port, 1, pkts, 32);
	CHECK(n == 32, "rxq1 burst %u", n);
	CHECK(rte_eth_tx_burst(port, 1, pkts, n) == n, "txq1 burst");
	CHECK(rte_pmd_octopus_queue_info_get(port, 1, 0, &qi) == 0 && qi.has_home &&
		qi.home_member == 0, "rxq1 not bound to the poller's socket");
	CHECK(rte_pmd_octopus_locality_get(port, 1, 1, &loc) == 0 &&
		loc.local_pkts == 32 && loc.remote_pkts == 0 && loc.foreign_polls == 0,
		"txq1 locality local %" PRIu64 " remote %" PRIu64, loc.local_pkts,
		loc.remote_pkts);
	rte_eth_stats_reset(port);
	rte_eth_xstats_reset(port);
	CHECK(rte_eth_link_get_nowait(port, &link) == 0, "link of port");
	CHECK(link.link_status == RTE_ETH_LINK_UP, "link down");
	CHECK(rte_pmd_octopus_queue_info_get(port, 0, 0, &qi) == 0 && qi.has_home &&
		qi.home_member == 1 && qi.home_socket == 1 && !qi.steered,
		"rxq0 home %u socket %d steered %u", qi.home_member, qi.home_socket,
		qi.steered);
	CHECK(qi.poller_lcore == -1, "poller before any poll");
	{
		struct rte_eth_rxq_info ri;

		memset(&ri, 0, sizeof(ri));
		CHECK(rte_eth_rx_queue_info_get(port, 0, &ri) == 0 && ri.nb_desc == 256 &&
			ri.mp != NULL && ri.mp != mp, "rxq info: %u desc, pool %s",
			ri.nb_desc, ri.mp ? ri.mp->name : "none");
	}
	for (i = 0; i < 10; i++) {
		n = rte_eth_rx_burst(port, 0, pkts, 32);
		rx += n;
		for (k = 0, bad = 0; k < n; k++)
			bad += pkts[k]->port != port;
		CHECK(bad == 0, "%u mbufs with port != %u", bad, port);
		/* rx_pool=local: the port's pool for the member's socket (the
		 * EAL of this test knows one node, so "any" stands for 1)
		 */
		CHECK(n == 0 || (pkts[0]->pool != mp &&
			(pkts[0]->pool->socket_id == 1 ||
			 pkts[0]->pool->socket_id == SOCKET_ID_ANY)),
			"Rx mbuf from pool %s socket %d", pkts[0]->pool->name,
			pkts[0]->pool->socket_id);
		tx += rte_eth_tx_burst(port, 0, pkts, n);
	}
	CHECK(rx == 320 && tx == 320, "rx %" PRIu64 " tx %" PRIu64, rx, tx);
	CHECK(rte_pmd_octopus_queue_info_get(port, 0, 0, &qi) == 0 &&
		qi.poller_lcore == (int)rte_lcore_id() && qi.poller_socket == 0,
		"poller %d socket %d", qi.poller_lcore, qi.poller_socket);
	CHECK(rte_pmd_octopus_locality_get(port, 0, 0, &loc) == 0, "locality");
	/* this lcore is on socket 0, the home on socket 1: every packet remote */
	CHECK(loc.remote_pkts == 320 && loc.local_pkts == 0 && loc.polls == 10 &&
		loc.foreign_polls == 10 && loc.member_pkts[1] == 320 &&
		loc.member_pkts[0] == 0,
		"rx locality local %" PRIu64 " remote %" PRIu64 " polls %" PRIu64
		" foreign %" PRIu64, loc.local_pkts, loc.remote_pkts, loc.polls,
		loc.foreign_polls);
	CHECK(xstat(port, "rx_q0_remote_packets") == 320 &&
		xstat(port, "rx_q0_foreign_polls") == 10 &&
		xstat(port, "rx_q0_member1_packets") == 320 &&
		xstat(port, "tx_q0_remote_packets") == 320,
		"xstats disagree with the API");
	CHECK(rte_eth_stats_get(port, &st) == 0 && st.ipackets == 320 &&
		st.opackets == 320 && xstat(port, "rx_q0_packets") == 320,
		"stats ipackets %" PRIu64 " opackets %" PRIu64, st.ipackets, st.opackets);
	CHECK(xstat(port, "member1_rx_packets") == 320 &&
		xstat(port, "member0_rx_packets") == 0, "member xstats");
	rte_eth_xstats_reset(port);
	CHECK(xstat(port, "rx_q0_remote_packets") == 0, "xstats reset");

	/* stop/start cycles keep the port usable */
	for (i = 0; i < 100; i++) {
		ret = rte_eth_dev_stop(port);
		CHECK(ret == 0, "stop %u: %d", i, ret);
		ret = rte_eth_dev_start(port);
		CHECK(ret == 0, "start %u: %d", i, ret);
		if (ret < 0)
			break;
	}
	n = rte_eth_rx_burst(port, 0, pkts, 32);
	CHECK(n == 32, "rx after restarts %u", n);
	rte_pktmbuf_free_bulk(pkts, n);
	CHECK(rte_eth_dev_stop(port) == 0, "stop");

	/* reconfigure with fewer queues: the extra virtual queues go away,
	 * the members follow, the port works again
	 */
	CHECK(configure(port, 1, mp, 0) == 0, "reconfigure");
	CHECK(rte_eth_dev_start(port) == 0, "start after reconfigure");
	CHECK(rte_pmd_octopus_queue_info_get(port, 1, 0, &qi) == -EINVAL,
		"queue 1 still there");
	CHECK(rte_pmd_octopus_queue_info_get(port, 0, 0, &qi) == 0 && qi.home_member == 0,
		"queue 0 home %u after setup on socket 0", qi.home_member);
	{
		struct rte_eth_dev_info di;

		CHECK(rte_eth_dev_info_get(port_of("net_null1"), &di) == 0, "info of net_null1");
		CHECK(di.nb_rx_queues == 1, "member has %u Rx queues", di.nb_rx_queues);
	}
	n = rte_eth_rx_burst(port, 0, pkts, 32);
	CHECK(n == 32 && rte_eth_tx_burst(port, 0, pkts, n) == n, "burst after reconfigure");
	CHECK(rte_eth_xstats_get_names(port, NULL, 0) > 0 &&
		xstat(port, "rx_q1_polls") == UINT64_MAX, "xstats of a removed queue");
	octo_port_stop_close(port);
	CHECK(!rte_eth_dev_is_valid_port(port), "port still there");
	CHECK(port_of("net_null0") == RTE_MAX_ETHPORTS, "members outlived the port");

	/* no steering: when the home member has nothing, the others are
	 * polled in the same burst, so no packet is stranded there
	 */
	CHECK(rte_vdev_init("net_null6", "no-rx=1") == 0, "null6");
	CHECK(rte_vdev_init("net_octopus1",
		"member=net_null6,member=net_null3,socket_of=net_null3:1") == 0, "probe");
	port = port_of("net_octopus1");
	CHECK(configure(port, 1, mp, 0) == 0, "configure");
	CHECK(rte_eth_dev_start(port) == 0, "start");
	n = rte_eth_rx_burst(port, 0, pkts, 32);
	CHECK(n == 32, "fallback burst %u", n);
	for (k = 0, bad = 0; k < n; k++)
		bad += pkts[k]->port != port;
	CHECK(bad == 0, "%u fallback mbufs with port != %u", bad, port);
	rte_pktmbuf_free_bulk(pkts, n);
	CHECK(rte_pmd_octopus_locality_get(port, 0, 0, &loc) == 0 &&
		loc.member_pkts[0] == 0 && loc.member_pkts[1] == 32 &&
		loc.remote_pkts == 32 && loc.polls == 1 && loc.foreign_polls == 0,
		"fallback: member0 %" PRIu64 " member1 %" PRIu64 " remote %" PRIu64
		" polls %" PRIu64, loc.member_pkts[0], loc.member_pkts[1],
		loc.remote_pkts, loc.polls);
	CHECK(rte_vdev_uninit("net_octopus1") == 0, "uninit");
}

/* Ask the telemetry socket of this process, as dpdk-telemetry.py does. */
static int
telemetry(const char *cmd, char *reply, size_t len)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int fd, n;

	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s/dpdk_telemetry.v2",
		rte_eal_get_runtime_dir());
	fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) < 0 ||
			read(fd, reply, len - 1) <= 0 ||	/* greeting */
			write(fd, cmd, strlen(cmd)) < 0 ||
			(n = read(fd, reply, len - 1)) <= 0) {
		close(fd);
		return -1;
	}
	reply[n] = '\0';
	close(fd);
	return 0;
}

static void
test_telemetry(struct rte_mempool *mp)
{
	struct rte_mbuf *pkts[32];
	char reply[16384], cmd[64], want[128];
	uint16_t port, n;

	/* manual: the reply below shows a queue polled from its home's
	 * other socket, which auto migration would move
	 */
	CHECK(rte_vdev_init("net_octopus0",
		"member=net_null0,member=net_null1,socket_of=net_null1:1,"
		"migration=manual") == 0, "probe");
	port = port_of("net_octopus0");
	CHECK(configure(port, 2, mp, 1) == 0, "configure");
	CHECK(rte_eth_dev_start(port) == 0, "start");
	n = rte_eth_rx_burst(port, 1, pkts, 32);
	rte_pktmbuf_free_bulk(pkts, n);

	CHECK(telemetry("/octopus/list", reply, sizeof(reply)) == 0, "no telemetry");
	snprintf(want, sizeof(want), "{\"/octopus/list\":[%u]}", port);
	CHECK(strcmp(reply, want) == 0, "list: %s", reply);

	snprintf(cmd, sizeof(cmd), "/octopus/info,%u", port);
	CHECK(telemetry(cmd, reply, sizeof(reply)) == 0, "no telemetry");
	CHECK(strstr(reply, "\"name\":\"net_octopus0\"") != NULL, "name: %s", reply);
	snprintf(want, sizeof(want), "\"1\":\"net_null1@port%u@socket1\"",
		port_of("net_null1"));
	CHECK(strstr(reply, want) != NULL, "member 1: %s", reply);
	CHECK(strstr(reply, "\"steering\":\"none: poll all members\"") != NULL,
		"steering: %s", reply);
	/* rx queue 1: home on socket 1 (setup), polled once from lcore 0 */
	CHECK(strstr(reply, "\"rxq1\":{\"home_member\":1,\"home_port\":1,"
		"\"home_socket\":1,\"poller_lcore\":0,\"poller_socket\":0,"
		"\"steered\":0,\"local_packets\":0,\"remote_packets\":32,"
		"\"polls\":1,\"foreign_polls\":1}") != NULL, "rxq1: %s", reply);
	CHECK(strstr(reply, "\"rxq0\":{\"home_member\":1") != NULL &&
		strstr(reply, "\"txq1\"") != NULL, "queues: %s", reply);
	CHECK(strstr(reply, "\"member_state\":{\"0\":\"serving\",\"1\":\"serving\"},"
		"\"member_losses\":0,\"member_returns\":0") != NULL, "member state: %s", reply);
	CHECK(telemetry("/octopus/info,0", reply, sizeof(reply)) == 0 &&
		strstr(reply, "null") != NULL, "info on a non-octopus port: %s", reply);
	/* a member released under the started port: telemetry says so */
	CHECK(rte_vdev_uninit("net_null1") == 0, "detach net_null1");
	CHECK(telemetry(cmd, reply, sizeof(reply)) == 0, "no telemetry after the loss");
	CHECK(strstr(reply, "\"member_state\":{\"0\":\"serving\",\"1\":\"released\"},"
		"\"member_losses\":1,") != NULL, "member state after the loss: %s", reply);
	rte_vdev_uninit("net_octopus0");
}

static const struct octo_case cases[] = {
	{ "devargs", test_devargs }, { "lockstep", test_lockstep },
	{ "datapath", test_datapath }, { "telemetry", test_telemetry },
};

int
main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "";
	char prefix[64];
	char *eal[] = {
		argv[0], "-m", "256", "--no-pci", "-l", "0",
		"--file-prefix", prefix, "--log-level", "pmd.net.octopus:info",
		"--vdev", "net_null0", "--vdev", "net_null1",
		"--vdev", "net_null2", "--vdev", "net_null3",
		"--vdev", "net_ring0", "--vdev", "net_ring1",
	};
	struct rte_mempool *mp;
	int nb_eal = RTE_DIM(eal);
	char **eal_argv = eal;

	snprintf(prefix, sizeof(prefix), "octopus-eal-%s", which);
	logf_ = fmemopen(logbuf, sizeof(logbuf), "w");
	if (logf_ == NULL || octo_test_eal_init(&nb_eal, &eal_argv, 256) < 0) {
		fprintf(stderr, "EAL init failed\n");
		return 2;
	}
	rte_openlog_stream(logf_);
	mp = rte_pktmbuf_pool_create("app", 4096, 64, 0, RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	if (mp == NULL)
		return 2;
	if (octo_case_run(cases, RTE_DIM(cases), which, argv[0], mp) < 0)
		return 2;
	rte_openlog_stream(stderr);
	fprintf(stderr, "%s: %s (%d failure(s))\n", which, octo_failures ? "FAILED" : "ok",
		octo_failures);
	octo_test_eal_cleanup();
	return octo_failures ? 1 : 0;
}
