/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * net_octonic's topologies (octonic.rst "Topologies"): mlx5's multiport e-switch
 * (topology=mpesw: one device, <name>_p<i> ports, the owner's NUMA node
 * and DMA, REPRESENTED_PORT to an uplink out by the wire, a fatal event
 * removing every port) and separate devices (topology=separate: a device
 * and a switch domain per PF, frames by MAC).
 *   octopus-numa-emu --nodes 2 -- test_octonic_topology -m 512 --no-pci \
 *     --lcores '0@0,1@1' --file-prefix X -- <case>
 */

#include <stdio.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_flow.h>
#include <rte_mbuf.h>

#include <rte_pmd_octonic.h>
#include "../common/octo_cases.h"
#include "../common/octo_check.h"
#include "../common/octo_port.h"
#include "../common/octo_state.h"

#define BURST 32
/* the devargs mpesw needs */
#define MPESW "topology=mpesw,dialect=mlx5-hws,xmeta=4"

static struct rte_mempool *pool[2];	/* on socket 0 and socket 1 */

/* Configure @p port (@p rmv: removal interrupts), one queue each way
 * with Rx buffers from @p rx_mp, and start it. */
static int
start(uint16_t port, struct rte_mempool *rx_mp, int rmv)
{
	struct rte_eth_conf conf;
	int ret;

	memset(&conf, 0, sizeof(conf));
	conf.intr_conf.rmv = rmv;
	ret = rte_eth_dev_configure(port, 1, 1, &conf);
	if (ret == 0)
		ret = rte_eth_rx_queue_setup(port, 0, 256,
			rte_eth_dev_socket_id(port), NULL, rx_mp);
	if (ret == 0)
		ret = rte_eth_tx_queue_setup(port, 0, 256,
			rte_eth_dev_socket_id(port), NULL);
	return ret != 0 ? ret : rte_eth_dev_start(port);
}

static const char *
dev_name(uint16_t port)
{
	struct rte_eth_dev_info info;

	if (rte_eth_dev_info_get(port, &info) != 0 || info.device == NULL)
		return "";
	return rte_dev_name(info.device);
}

static uint16_t
domain(uint16_t port)
{
	struct rte_eth_dev_info info;

	if (rte_eth_dev_info_get(port, &info) != 0)
		return RTE_ETH_DEV_SWITCH_DOMAIN_ID_INVALID;
	return info.switch_info.domain_id;
}

/* A 64-byte frame to @p dst from @p mp. */
static struct rte_mbuf *
frame_to(struct rte_mempool *mp, const struct rte_ether_addr *dst)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(mp);
	struct rte_ether_hdr *eh;

	if (m == NULL)
		return NULL;
	eh = (struct rte_ether_hdr *)rte_pktmbuf_append(m, 64);
	memset(eh, 0x33, 64);
	eh->dst_addr = *dst;
	eh->src_addr.addr_bytes[0] = 0x02;
	eh->ether_type = rte_cpu_to_be_16(0x88b5);	/* local experimental */
	return m;
}

/* Send one frame to @p dst from @p port (from @p mp). */
static int
send_to(uint16_t port, struct rte_mempool *mp, const struct rte_ether_addr *dst)
{
	struct rte_mbuf *m = frame_to(mp, dst);

	if (m == NULL)
		return -1;
	if (rte_eth_tx_burst(port, 0, &m, 1) != 1) {
		rte_pktmbuf_free(m);
		return -1;
	}
	return 0;
}

/* Frames @p port receives in 100 ms of polling. */
static unsigned int
received(uint16_t port)
{
	uint64_t end = rte_get_tsc_cycles() + rte_get_tsc_hz() / 10;
	struct rte_mbuf *m[BURST];
	unsigned int got = 0;
	uint16_t n;

	while (rte_get_tsc_cycles() < end) {
		n = rte_eth_rx_burst(port, 0, m, BURST);
		rte_pktmbuf_free_bulk(m, n);
		got += n;
	}
	return got;
}

/* One device for every uplink, <name>_p<i>, the owner's NUMA node. */
static void
test_mpesw_ports(struct rte_mempool *unused __rte_unused)
{
	struct rte_pmd_octonic_datapath dp0, dp1;
	struct rte_ether_addr m0, m1;
	uint16_t p0, p1, before = rte_eth_dev_count_avail();

	REQUIRE(rte_vdev_init("net_octonic80", MPESW ",pfs=2,numa=1:0") == 0,
		"probe");
	p0 = port_of("net_octonic80_p0");
	p1 = port_of("net_octonic80_p1");
	REQUIRE(p0 < RTE_MAX_ETHPORTS && p1 < RTE_MAX_ETHPORTS, "named _p0, _p1");
	CHECK(port_of("net_octonic80_pf0") == RTE_MAX_ETHPORTS, "no _pf0");
	CHECK(strcmp(dev_name(p0), "net_octonic80") == 0 &&
		strcmp(dev_name(p1), "net_octonic80") == 0,
		"one device: '%s' '%s'", dev_name(p0), dev_name(p1));
	CHECK(rte_eth_dev_socket_id(p0) == 1 && rte_eth_dev_socket_id(p1) == 1,
		"both on the owner's node 1: %d %d", rte_eth_dev_socket_id(p0),
		rte_eth_dev_socket_id(p1));
	CHECK(rte_pmd_octonic_datapath_get(p1, &dp1) == 0 &&
		rte_pmd_octonic_datapath_get(p0, &dp0) == 0 &&
		dp1.topology == RTE_PMD_OCTONIC_TOPOLOGY_MPESW &&
		dp0.pci_socket_id == 1 && dp1.pci_socket_id == 0,
		"p1's own function on node 0: %d", dp1.pci_socket_id);
	CHECK(domain(p0) == domain(p1) &&
		domain(p0) != RTE_ETH_DEV_SWITCH_DOMAIN_ID_INVALID, "one domain");
	m0 = octo_mac(p0);
	m1 = octo_mac(p1);
	CHECK(!rte_is_same_ether_addr(&m0, &m1), "a MAC per uplink");
	CHECK(rte_vdev_uninit("net_octonic80") == 0 &&
		rte_eth_dev_count_avail() == before, "removed with its ports");
	/* one uplink: no suffix, as mlx5 */
	REQUIRE(rte_vdev_init("net_octonic81", MPESW ",pfs=1") == 0, "probe 1");
	CHECK(port_of("net_octonic81") < RTE_MAX_ETHPORTS, "named net_octonic81");
	rte_vdev_uninit("net_octonic81");
}

static struct rte_flow *transfer_rule(uint16_t proxy,
		enum rte_flow_action_type type, uint16_t port);

/*
 * Locality under mpesw: the queues of p1 (its own function on node 1)
 * DMA through the owner's (node 0): memory on node 1 is remote for it,
 * on node 0 local, and a node-0 lcore polls it locally.  Under octonic
 * the same PF on node 1 sees it the other way round.
 */
static void
locality(const char *nic, const char *args, int mpesw)
{
	char name[RTE_ETH_NAME_MAX_LEN];
	struct rte_pmd_octonic_locality rx, tx;
	struct rte_ether_addr m1;
	uint16_t p0, p1;
	unsigned int i, got;

	REQUIRE(rte_vdev_init(nic, args) == 0, "probe %s", args);
	snprintf(name, sizeof(name), mpesw ? "%s_p0" : "%s_pf0", nic);
	p0 = port_of(name);
	snprintf(name, sizeof(name), mpesw ? "%s_p1" : "%s_pf1", nic);
	p1 = port_of(name);
	REQUIRE(p0 < RTE_MAX_ETHPORTS && p1 < RTE_MAX_ETHPORTS, "ports");
	CHECK(rte_eth_dev_socket_id(p1) == (mpesw ? 0 : 1), "%s: p1 on node %d",
		args, rte_eth_dev_socket_id(p1));
	/* p1's Rx buffers on node 1 */
	REQUIRE(start(p0, pool[0], 0) == 0 && start(p1, pool[1], 0) == 0, "start");
	m1 = octo_mac(p1);
	/* under mpesw p1's MAC brings a frame in by its uplink; octonic
	 * steers by rules only */
	if (!mpesw)
		CHECK(transfer_rule(p0, RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT,
			p1) != NULL, "rule to p1");
	/* 16 frames to p1's MAC, sent by p0 from node 0 */
	for (i = 0; i < 16; i++)
		CHECK(send_to(p0, pool[0], &m1) == 0, "tx");
	got = received(p1);
	CHECK(got == 16, "%s: p1 received %u of 16", args, got);
	/* p1 sends 10 from node 1 and 6 from node 0 */
	for (i = 0; i < 16; i++)
		CHECK(send_to(p1, pool[i < 10], &m1) == 0, "tx");
	got = received(p1);
	CHECK(got == 16, "%s: the loop brought back %u of 16", args, got);
	CHECK(rte_pmd_octonic_locality_get(p1, 0, 0, &rx) == 0 &&
		rte_pmd_octonic_locality_get(p1, 0, 1, &tx) == 0, "locality");
	if (mpesw) {
		CHECK(rx.remote_dma_pkts == 32, "%s: Rx into node 1 is remote for the owner: %"
			PRIu64, args, rx.remote_dma_pkts);
		CHECK(tx.remote_dma_pkts == 10, "%s: Tx from node 1 remote: %" PRIu64,
			args, tx.remote_dma_pkts);
		CHECK(rx.remote_polls == 0 && rx.polls > 0,
			"%s: a node-0 lcore polls the owner's queues locally", args);
	} else {
		CHECK(rx.remote_dma_pkts == 0, "%s: Rx into node 1 local: %" PRIu64,
			args, rx.remote_dma_pkts);
		CHECK(tx.remote_dma_pkts == 6, "%s: Tx from node 0 remote: %" PRIu64,
			args, tx.remote_dma_pkts);
		CHECK(rx.remote_polls == rx.polls && rx.polls > 0,
			"%s: a node-0 lcore polls p1 remotely", args);
	}
	rte_eth_dev_stop(p0);
	rte_eth_dev_stop(p1);
	rte_vdev_uninit(nic);
}

static void
test_mpesw_locality(struct rte_mempool *unused __rte_unused)
{
	locality("net_octonic82", MPESW ",pfs=2,numa=0:1,wire=loop", 1);
	locality("net_octonic83",
		"dialect=mlx5-hws,xmeta=4,mac=per-pf,pfs=2,numa=0:1,wire=loop", 0);
}

static struct rte_flow *
transfer_rule(uint16_t proxy, enum rte_flow_action_type type, uint16_t port)
{
	struct rte_flow_attr attr = { .transfer = 1 };
	struct rte_flow_item pattern[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_action_ethdev e = { .port_id = port };
	struct rte_flow_action actions[] = {
		{ .type = type, .conf = &e },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_error err;
	struct rte_flow *f;

	memset(&err, 0, sizeof(err));
	f = rte_flow_create(proxy, &attr, pattern, actions, &err);
	if (f == NULL)
		printf("transfer rule refused: %s\n", err.message ? err.message : "?");
	return f;
}

/* Poll p0 and p1 until the generator made @p n frames; counts each. */
static void
poll_gen(uint16_t p0, uint16_t p1, uint64_t n, unsigned int *got0,
		unsigned int *got1)
{
	uint64_t end = rte_get_tsc_cycles() + 2 * rte_get_tsc_hz(), g = 0;

	*got0 = *got1 = 0;
	while (g < n && rte_get_tsc_cycles() < end) {
		*got0 += received(p0);
		*got1 += received(p1);
		rte_pmd_octonic_gen_count(p0, &g);
	}
	*got0 += received(p0);
	*got1 += received(p1);
}

/*
 * REPRESENTED_PORT to an uplink sends out of its physical port: the
 * frames reach the wire (the sink), not p1's queues; PORT_REPRESENTOR to
 * the e-switch manager (0xffff) delivers to the owner's port.
 */
static void
test_mpesw_uplink(struct rte_mempool *unused __rte_unused)
{
	const uint64_t N = 64;
	struct rte_pmd_octonic_sink_stats ss;
	struct rte_flow_error err;
	struct rte_flow *f;
	unsigned int got0, got1;
	uint16_t p0, p1;

	REQUIRE(rte_vdev_init("net_octonic84", MPESW ",pfs=2,flows=16,gen_limit=64") == 0,
		"probe");
	p0 = port_of("net_octonic84_p0");
	p1 = port_of("net_octonic84_p1");
	REQUIRE(start(p0, pool[0], 0) == 0 && start(p1, pool[0], 0) == 0, "start");
	f = transfer_rule(p0, RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT, p1);
	REQUIRE(f != NULL, "REPRESENTED_PORT to p1");
	poll_gen(p0, p1, N, &got0, &got1);
	CHECK(got0 == 0 && got1 == 0, "no port received: %u %u", got0, got1);
	CHECK(rte_pmd_octonic_sink_stats_get(p0, &ss) == 0 && ss.pkts == N &&
		ss.in_order == N, "out by the wire: the sink got %" PRIu64, ss.pkts);
	CHECK(octo_xstat(p1, "uplink_out_packets") == N, "counted on p1's uplink: %"
		PRIu64, octo_xstat(p1, "uplink_out_packets"));
	CHECK(rte_flow_destroy(p0, f, &err) == 0, "destroy");
	/* PORT_REPRESENTOR: only to the e-switch manager */
	CHECK(transfer_rule(p0, RTE_FLOW_ACTION_TYPE_PORT_REPRESENTOR, p1) == NULL,
		"PORT_REPRESENTOR to p1 refused");
	f = transfer_rule(p0, RTE_FLOW_ACTION_TYPE_PORT_REPRESENTOR, UINT16_MAX);
	REQUIRE(f != NULL, "PORT_REPRESENTOR 0xffff");
	CHECK(octo_gen_limit(p0, N) == 0, "gen_set");
	poll_gen(p0, p1, N, &got0, &got1);
	CHECK(got0 == N && got1 == 0, "to the manager, p0: %u %u", got0, got1);
	rte_eth_dev_stop(p0);
	rte_eth_dev_stop(p1);
	rte_vdev_uninit("net_octonic84");
}

static int rmv[3];

static int
rmv_cb(uint16_t port, enum rte_eth_event_type type, void *arg, void *ret)
{
	rmv[(uintptr_t)arg]++;
	return 0;
}

/*
 * A device-fatal event removes every port of the device at once: under
 * mpesw (and octonic) every PF; each that asked for removal interrupts
 * hears it, once.
 */
static void
fatal(const char *nic, const char *args, const char *fmt)
{
	char name[RTE_ETH_NAME_MAX_LEN];
	struct rte_eth_link link;
	uint16_t p[3];
	uintptr_t i;

	REQUIRE(rte_vdev_init(nic, args) == 0, "probe %s", args);
	memset(rmv, 0, sizeof(rmv));
	for (i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), fmt, nic, (unsigned int)i);
		p[i] = port_of(name);
		REQUIRE(p[i] < RTE_MAX_ETHPORTS, "port %s", name);
		rte_eth_dev_callback_register(p[i], RTE_ETH_EVENT_INTR_RMV,
			rmv_cb, (void *)i);
		/* the third does not ask for removal interrupts */
		REQUIRE(start(p[i], pool[0], i < 2) == 0, "start");
	}
	CHECK(rte_pmd_octonic_device_fatal(p[1]) == 0, "fatal");
	CHECK(rmv[0] == 1 && rmv[1] == 1 && rmv[2] == 0,
		"%s: RMV on every port asking for it: %d %d %d", args, rmv[0],
		rmv[1], rmv[2]);
	for (i = 0; i < 3; i++)
		CHECK(rte_eth_link_get_nowait(p[i], &link) == 0 &&
			link.link_status == RTE_ETH_LINK_DOWN, "%s: port %u down",
			args, (unsigned int)i);
	CHECK(rte_pmd_octonic_device_fatal(p[0]) == -EALREADY, "once");
	CHECK(rmv[0] == 1, "notified once");
	for (i = 0; i < 3; i++) {
		rte_eth_dev_callback_unregister(p[i], RTE_ETH_EVENT_INTR_RMV,
			rmv_cb, (void *)i);
		rte_eth_dev_stop(p[i]);
	}
	rte_vdev_uninit(nic);
}

static void
test_mpesw_fatal(struct rte_mempool *unused __rte_unused)
{
	fatal("net_octonic85", MPESW ",pfs=3", "%s_p%u");
	fatal("net_octonic86", "pfs=3", "%s_pf%u");
}

/*
 * topology=separate: a device, a switch domain and a transfer proxy per
 * PF; no rule of one steers into another; removing or failing one
 * leaves the other.
 */
static void
test_separate_ports(struct rte_mempool *unused __rte_unused)
{
	struct rte_flow_error err;
	struct rte_eth_link link;
	uint16_t p0, p1, proxy, before = rte_eth_dev_count_avail();

	REQUIRE(rte_vdev_init("net_octonic87", "topology=separate,pfs=2,numa=0:1") == 0,
		"probe");
	p0 = port_of("net_octonic87_pf0");
	p1 = port_of("net_octonic87_pf1");
	REQUIRE(p0 < RTE_MAX_ETHPORTS && p1 < RTE_MAX_ETHPORTS, "ports");
	CHECK(strcmp(dev_name(p0), "net_octonic87") == 0 &&
		strcmp(dev_name(p1), "net_octonic87_pf1") == 0,
		"a device each: '%s' '%s'", dev_name(p0), dev_name(p1));
	CHECK(rte_eth_dev_socket_id(p0) == 0 && rte_eth_dev_socket_id(p1) == 1,
		"own nodes");
	CHECK(domain(p0) != domain(p1) &&
		domain(p1) != RTE_ETH_DEV_SWITCH_DOMAIN_ID_INVALID,
		"a switch domain each: %u %u", domain(p0), domain(p1));
	CHECK(rte_flow_pick_transfer_proxy(p1, &proxy, &err) == 0 && proxy == p1,
		"p1 is its own proxy");
	CHECK(rte_flow_pick_transfer_proxy(p0, &proxy, &err) == 0 && proxy == p0,
		"p0 is its own proxy");
	CHECK(transfer_rule(p0, RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT, p1) == NULL,
		"nothing steers from one domain into another");
	REQUIRE(start(p0, pool[0], 1) == 0 && start(p1, pool[1], 1) == 0, "start");
	memset(rmv, 0, sizeof(rmv));
	rte_eth_dev_callback_register(p0, RTE_ETH_EVENT_INTR_RMV, rmv_cb, (void *)0);
	rte_eth_dev_callback_register(p1, RTE_ETH_EVENT_INTR_RMV, rmv_cb, (void *)1);
	CHECK(rte_pmd_octonic_device_fatal(p1) == 0 && rmv[0] == 0 && rmv[1] == 1,
		"a fatal event of p1's device is p1's: %d %d", rmv[0], rmv[1]);
	CHECK(rte_eth_link_get_nowait(p0, &link) == 0 &&
		link.link_status == RTE_ETH_LINK_UP, "p0 up");
	rte_eth_dev_callback_unregister(p0, RTE_ETH_EVENT_INTR_RMV, rmv_cb, (void *)0);
	rte_eth_dev_callback_unregister(p1, RTE_ETH_EVENT_INTR_RMV, rmv_cb, (void *)1);
	CHECK(rte_vdev_uninit("net_octonic87_pf1") == 0, "remove p1's device");
	CHECK(port_of("net_octonic87_pf1") == RTE_MAX_ETHPORTS &&
		rte_eth_dev_count_avail() == before + 1, "p1 gone, p0 stays");
	CHECK(rte_eth_link_get_nowait(p0, &link) == 0 &&
		link.link_status == RTE_ETH_LINK_UP, "p0 still up");
	rte_eth_dev_stop(p0);
	CHECK(rte_vdev_uninit("net_octonic87") == 0 &&
		rte_eth_dev_count_avail() == before, "all gone");
}

/* A multi-host NIC: a frame goes to the PF whose MAC it carries. */
static void
test_separate_mac(struct rte_mempool *unused __rte_unused)
{
	const struct rte_ether_addr bcast = {
		.addr_bytes = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff } };
	const struct rte_ether_addr nobody = {
		.addr_bytes = { 0x02, 0, 0, 0, 0, 0x99 } };
	struct rte_ether_addr m0, m1;
	uint16_t p0, p1;
	unsigned int i, g0, g1;

	REQUIRE(rte_vdev_init("net_octonic88", "topology=separate,pfs=2,wire=loop") == 0,
		"probe");
	p0 = port_of("net_octonic88_pf0");
	p1 = port_of("net_octonic88_pf1");
	REQUIRE(start(p0, pool[0], 0) == 0 && start(p1, pool[1], 0) == 0, "start");
	m0 = octo_mac(p0);
	m1 = octo_mac(p1);
	for (i = 0; i < 5; i++)
		CHECK(send_to(p0, pool[0], &m1) == 0, "tx");
	g0 = received(p0);
	g1 = received(p1);
	CHECK(g0 == 0 && g1 == 5, "to p1's MAC: %u %u", g0, g1);
	for (i = 0; i < 3; i++)
		CHECK(send_to(p1, pool[1], &m0) == 0, "tx");
	g0 = received(p0);
	g1 = received(p1);
	CHECK(g0 == 3 && g1 == 0, "to p0's MAC: %u %u", g0, g1);
	CHECK(send_to(p0, pool[0], &bcast) == 0, "tx");
	g0 = received(p0);
	g1 = received(p1);
	CHECK(g0 == 1 && g1 == 1, "broadcast to both: %u %u", g0, g1);
	CHECK(send_to(p0, pool[0], &nobody) == 0, "tx");
	g0 = received(p0);
	g1 = received(p1);
	CHECK(g0 == 0 && g1 == 0 && octo_xstat(p0, "wire_mac_drop_packets") == 1,
		"for no PF: dropped, counted");
	rte_eth_dev_stop(p0);
	rte_eth_dev_stop(p1);
	rte_vdev_uninit("net_octonic88_pf1");
	rte_vdev_uninit("net_octonic88");
}

static const struct octo_case cases[] = {
	{ "mpesw_ports", test_mpesw_ports },
	{ "mpesw_locality", test_mpesw_locality },
	{ "mpesw_uplink", test_mpesw_uplink },
	{ "mpesw_fatal", test_mpesw_fatal },
	{ "separate_ports", test_separate_ports },
	{ "separate_mac", test_separate_mac },
};

/* A pool on each socket, no cache; the cases get socket 0's. */
static struct rte_mempool *
setup(void)
{
	pool[0] = rte_pktmbuf_pool_create("topo_s0", 4095, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	pool[1] = rte_pktmbuf_pool_create("topo_s1", 4095, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, 1);
	if (pool[0] == NULL || pool[1] == NULL || pool[1]->socket_id != 1) {
		printf("cannot create the pools\n");
		return NULL;
	}
	return pool[0];
}

int
main(int argc, char **argv)
{
	return octo_case_main_2s(argc, argv, 512, cases, RTE_DIM(cases), setup);
}
