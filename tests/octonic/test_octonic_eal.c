/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * net_octonic on real ports (EAL), meant to run on 2 emulated sockets:
 *   octopus-numa-emu --nodes 2 -- test_octonic_eal --no-huge -m 512 \
 *     --no-pci --lcores '0@0,1@1,2@0,3@1' --file-prefix X -- <test>
 * Each <test> creates its own NIC(s) with rte_vdev_init, checks behaviour
 * through ethdev, rte_flow and rte_pmd_octonic.h, and removes them.
 */

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_flow.h>
#include <rte_ip.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_udp.h>

#include <rte_pmd_octonic.h>
#include "../common/octo_cases.h"
#include "../common/octo_check.h"
#include "../classifier/eswitch_test_util.h"
#include "../common/octo_port.h"
#include "../common/octo_state.h"
#include "../common/octo_eal.h"
#include "../common/octo_flow_rule.h"
#include "../common/octo_test_eal.h"

#define MAXQ 8
#define BURST 32

static struct rte_mempool *pool[2];	/* on socket 0 and socket 1 */

/* ---- helpers ---- */

static int
pf_port(const char *nic, unsigned int pf, uint16_t *port)
{
	char name[RTE_ETH_NAME_MAX_LEN];

	snprintf(name, sizeof(name), "%s_pf%u", nic, pf);
	return rte_eth_dev_get_port_by_name(name, port);
}

/*
 * @p o with this file's defaults: the queues on the PF's socket, 1024
 * descriptors, RSS over IP, UDP and TCP with more than one Rx queue, Rx
 * from pool[socket of the PF] where o->rx_pool names none.
 */
static int
port_start(uint16_t port, const struct octo_port_conf *o)
{
	struct octo_port_conf c = *o;

	c.socket = OCTO_SOCKET_OF_PORT;
	c.nb_desc = 1024;
	if (c.nb_rxq > 1)
		c.rss_hf = RTE_ETH_RSS_IP | RTE_ETH_RSS_UDP | RTE_ETH_RSS_TCP;
	c.pool = pool[rte_eth_dev_socket_id(port) & 1];
	return octo_port_start(port, &c);
}

typedef void (*pkt_check_t)(uint16_t port, uint16_t q, struct rte_mbuf *m,
		void *arg);

/* One burst from every queue of @p ports; counts per port and queue. */
static uint64_t
poll_once(const uint16_t *ports, unsigned int nb_ports, uint16_t nb_rxq,
		uint64_t cnt[][MAXQ], pkt_check_t check, void *arg)
{
	struct rte_mbuf *pkts[BURST];
	uint64_t total = 0;
	unsigned int p, i;
	uint16_t q, n;

	for (p = 0; p < nb_ports; p++)
		for (q = 0; q < nb_rxq; q++) {
			n = rte_eth_rx_burst(ports[p], q, pkts, BURST);
			total += n;
			if (cnt != NULL)
				cnt[p][q] += n;
			for (i = 0; i < n; i++) {
				if (check != NULL)
					check(ports[p], q, pkts[i], arg);
				rte_pktmbuf_free(pkts[i]);
			}
		}
	return total;
}

/*
 * Poll every queue of @p ports until @p want packets arrived in total, or
 * until nothing arrived for 200 ms.  Counts per port and queue.
 */
static uint64_t
poll_until(const uint16_t *ports, unsigned int nb_ports, uint16_t nb_rxq,
		uint64_t want, uint64_t cnt[][MAXQ], pkt_check_t check, void *arg)
{
	uint64_t total = 0, hz = rte_get_tsc_hz();
	uint64_t last = rte_get_tsc_cycles();
	uint64_t n;

	while (total < want && rte_get_tsc_cycles() - last < hz / 5) {
		n = poll_once(ports, nb_ports, nb_rxq, cnt, check, arg);
		if (n > 0) {
			last = rte_get_tsc_cycles();
			total += n;
		}
	}
	return total;
}

static uint64_t
xstat(uint16_t port, const char *name)
{
	uint64_t id, v = UINT64_MAX;

	if (rte_eth_xstats_get_id_by_name(port, name, &id) != 0)
		return UINT64_MAX;
	if (rte_eth_xstats_get_by_id(port, &id, &v, 1) != 1)
		return UINT64_MAX;
	return v;
}

static void
nic_remove(const char *name)
{
	CHECK(rte_vdev_uninit(name) == 0, "uninit %s", name);
}

static struct rte_flow *
transfer_to_pf(uint16_t proxy, uint16_t pf_port, uint32_t meta, int set_meta,
		int any_l4)
{
	struct rte_flow_attr attr = { .transfer = 1 };
	struct rte_flow_item pattern[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4 },
		{ .type = any_l4 ? RTE_FLOW_ITEM_TYPE_END : RTE_FLOW_ITEM_TYPE_UDP },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_action_set_meta sm = { .data = meta, .mask = UINT32_MAX };
	struct rte_flow_action_ethdev rp = { .port_id = pf_port };
	struct rte_flow_action actions[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_SET_META, .conf = &sm },
		{ .type = RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT, .conf = &rp },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_error err;
	struct rte_flow *f;

	f = rte_flow_create(proxy, &attr, pattern,
		set_meta ? actions : actions + 1, &err);
	if (f == NULL)
		printf("transfer rule refused: %s\n",
			err.message ? err.message : "?");
	return f;
}

/* ingress rule on @p port: [META=meta] or eth/ipv4/udp -> [MARK] QUEUE q */
static struct rte_flow *
ingress_to_queue(uint16_t port, uint32_t prio, int match_meta, uint32_t meta,
		int mark, uint32_t mark_id, uint16_t q)
{
	struct rte_flow_attr attr = { .ingress = 1, .priority = prio };
	struct rte_flow_item_meta m = { .data = meta };
	struct rte_flow_item_meta mm = { .data = UINT32_MAX };
	struct rte_flow_item p_udp[] = OCTO_ITEMS_UDP;
	struct rte_flow_item p_meta[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_META, .spec = &m, .mask = &mm },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_action_mark mk = { .id = mark_id };
	struct rte_flow_action_queue qu = { .index = q };
	struct rte_flow_action actions[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_MARK, .conf = &mk },
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &qu },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_error err;
	struct rte_flow *f;

	f = rte_flow_create(port, &attr, match_meta ? p_meta : p_udp,
		mark ? actions : actions + 1, &err);
	if (f == NULL)
		printf("ingress rule refused: %s\n", err.message ? err.message : "?");
	return f;
}

static uint64_t
generated(uint16_t port)
{
	uint64_t g = 0;

	rte_pmd_octonic_gen_count(port, &g);
	return g;
}

/* ---- tests ---- */

/* K ports, named per PF, each on its NUMA node, one switch domain. */
static void
test_ports(struct rte_mempool *unused __rte_unused)
{
	struct rte_eth_dev_info i0, i1;
	struct rte_ether_addr m0, m1;
	struct rte_pmd_octonic_pf_info pi;
	uint16_t p0, p1, p2;
	uint16_t before = rte_eth_dev_count_avail();

	/* the PMD logs under its own logtype */
	{
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		rte_log_dump(f);
		fclose(f);
		CHECK(buf != NULL && strstr(buf, ": pmd.net.octonic, level") != NULL,
			"logtype pmd.net.octonic not registered");
		free(buf);
	}
	REQUIRE(rte_vdev_init("net_octonic10", "pfs=2") == 0, "probe");
	CHECK(rte_eth_dev_count_avail() == before + 2, "2 ports");
	REQUIRE(pf_port("net_octonic10", 0, &p0) == 0, "pf0 name");
	REQUIRE(pf_port("net_octonic10", 1, &p1) == 0, "pf1 name");
	CHECK(pf_port("net_octonic10", 2, &p2) != 0, "no pf2");
	CHECK(rte_eth_dev_socket_id(p0) == 0, "pf0 on node 0");
	CHECK(rte_eth_dev_socket_id(p1) == 1, "pf1 on node 1 (got %d)",
		rte_eth_dev_socket_id(p1));
	CHECK(rte_eth_dev_info_get(p0, &i0) == 0, "info of p0");
	CHECK(rte_eth_dev_info_get(p1, &i1) == 0, "info of p1");
	CHECK(i0.switch_info.domain_id == i1.switch_info.domain_id, "domain");
	CHECK(i0.switch_info.domain_id != RTE_ETH_DEV_SWITCH_DOMAIN_ID_INVALID,
		"domain allocated");
	CHECK(i0.switch_info.port_id == 0 && i1.switch_info.port_id == 1,
		"switch port ids %u %u", i0.switch_info.port_id,
		i1.switch_info.port_id);
	CHECK(i0.max_rx_queues == 64 && i0.max_tx_queues == 64, "64 queues");
	CHECK((i0.rx_offload_capa & RTE_ETH_RX_OFFLOAD_CHECKSUM) ==
		RTE_ETH_RX_OFFLOAD_CHECKSUM, "rx cksum advertised");
	CHECK(i0.reta_size == 128 && i0.hash_key_size == 40, "rss sizes");
	m0 = octo_mac(p0);
	m1 = octo_mac(p1);
	CHECK(rte_is_same_ether_addr(&m0, &m1), "mac=shared: one MAC");
	CHECK(rte_pmd_octonic_pf_info(p1, &pi) == 0 && pi.pf == 1 &&
		pi.nb_pfs == 2 && pi.pf_port[0] == p0 && pi.socket_id == 1,
		"pf_info");
	/* more queues than the model has are refused */
	{
		struct rte_eth_conf c;

		memset(&c, 0, sizeof(c));
		CHECK(rte_eth_dev_configure(p0, 65, 1, &c) != 0, "65 rxq refused");
	}
	nic_remove("net_octonic10");
	CHECK(rte_eth_dev_count_avail() == before, "ports gone");

	REQUIRE(rte_vdev_init("net_octonic11", "pfs=2,mac=per-pf,numa=1:0") == 0,
		"probe per-pf");
	REQUIRE(pf_port("net_octonic11", 0, &p0) == 0 &&
		pf_port("net_octonic11", 1, &p1) == 0, "names");
	m0 = octo_mac(p0);
	m1 = octo_mac(p1);
	CHECK(!rte_is_same_ether_addr(&m0, &m1), "mac=per-pf: two MACs");
	CHECK(rte_eth_dev_socket_id(p0) == 1 && rte_eth_dev_socket_id(p1) == 0,
		"numa=1:0");
	nic_remove("net_octonic11");
	CHECK(rte_eth_dev_count_avail() == before, "ports gone");
}

static void
heap_stats(size_t *bytes, unsigned int *count)
{
	struct rte_malloc_socket_stats st;
	unsigned int s;

	*bytes = 0;
	*count = 0;
	for (s = 0; s < rte_socket_count(); s++) {
		if (rte_malloc_get_socket_stats(rte_socket_id_by_idx(s), &st) != 0)
			continue;
		*bytes += st.heap_allocsz_bytes;
		*count += st.alloc_count;
	}
}

/* Refused devargs: a message naming them, no port and no memory left. */
static void
test_bad_devargs(struct rte_mempool *unused __rte_unused)
{
	static const char *const bad[][2] = {
		{ "pfs=9", "pfs" }, { "pfs=0", "pfs" }, { "numa=0:7", "numa" },
		{ "pfs=2,numa=0", "numa" }, { "mac=none", "mac" },
		{ "proto=igmp", "proto" }, { "pkt_len=20", "pkt_len" },
		{ "rate=5", "rate" }, { "wire=", "wire" },
		{ "nudma_dma_ns=x", "nudma_dma_ns" },
		{ "rx_step=0", "rx_step" }, { "tx_comp_every=2000", "tx_comp_every" },
		{ "topology=mpesw", "topology=mpesw" },
		{ "topology=separate,mac=shared", "mac=per-pf" },
	};
	uint16_t before;
	size_t b0, b1;
	unsigned int c0, c1, i;
	char *buf = NULL;
	size_t len = 0;
	FILE *log, *old = rte_log_get_stream();

	/* first probe allocates ethdev's shared data once: not a leak */
	REQUIRE(rte_vdev_init("net_octonic20", "pfs=2") == 0, "good probe");
	nic_remove("net_octonic20");
	before = rte_eth_dev_count_avail();
	heap_stats(&b0, &c0);
	for (i = 0; i < RTE_DIM(bad); i++) {
		log = open_memstream(&buf, &len);
		rte_openlog_stream(log);
		CHECK(rte_vdev_init("net_octonic21", bad[i][0]) != 0,
			"'%s' accepted", bad[i][0]);
		fflush(log);
		CHECK(buf != NULL && strstr(buf, bad[i][1]) != NULL &&
			strstr(buf, "net_octonic21") != NULL,
			"'%s': no message naming '%s' (got '%s')", bad[i][0],
			bad[i][1], buf != NULL ? buf : "");
		rte_openlog_stream(old);
		fclose(log);
		free(buf);
		buf = NULL;
		CHECK(rte_eth_dev_count_avail() == before, "'%s' left a port",
			bad[i][0]);
		heap_stats(&b1, &c1);
		CHECK(b1 == b0 && c1 == c0, "'%s' left memory: %zu bytes %u allocs",
			bad[i][0], b1 - b0, c1 - c0);
	}
	/* a separate NIC whose third device cannot be made (the name is
	 * taken; the second is removed again) leaves nothing either */
	REQUIRE(rte_vdev_init("net_octonic23_pf2", "pfs=1") == 0, "squatter");
	before = rte_eth_dev_count_avail();
	heap_stats(&b0, &c0);
	CHECK(rte_vdev_init("net_octonic23", "topology=separate,pfs=3") != 0,
		"separate NIC made without its PF2 device");
	CHECK(rte_eth_dev_count_avail() == before, "a failed separate NIC left a port");
	heap_stats(&b1, &c1);
	CHECK(b1 == b0 && c1 == c0, "a failed separate NIC left %zu bytes, %u allocs",
		b1 - b0, c1 - c0);
	nic_remove("net_octonic23_pf2");
	before = rte_eth_dev_count_avail();
	heap_stats(&b0, &c0);
	/* and a good NIC that is created, used and removed leaves nothing */
	REQUIRE(rte_vdev_init("net_octonic22", "pfs=3,wire=loop") == 0, "probe");
	{
		struct octo_port_conf o = { .nb_rxq = 2, .nb_txq = 2 };
		uint16_t p;

		REQUIRE(pf_port("net_octonic22", 1, &p) == 0, "pf1");
		CHECK(port_start(p, &o) == 0, "start");
	}
	nic_remove("net_octonic22");
	/* a separate one too, its devices removed one by one */
	REQUIRE(rte_vdev_init("net_octonic24", "topology=separate,pfs=2,wire=loop") == 0,
		"probe separate");
	{
		struct octo_port_conf o = { .nb_rxq = 1, .nb_txq = 1 };
		uint16_t p;

		REQUIRE(pf_port("net_octonic24", 1, &p) == 0, "pf1");
		CHECK(port_start(p, &o) == 0, "start");
	}
	nic_remove("net_octonic24");
	nic_remove("net_octonic24_pf1");
	heap_stats(&b1, &c1);
	CHECK(b1 == b0 && c1 == c0, "a removed NIC left %zu bytes, %u allocs",
		b1 - b0, c1 - c0);
	CHECK(rte_eth_dev_count_avail() == before, "ports left");
}

struct dst_check {
	struct rte_ether_addr mac;
	uint64_t bad;
};

static void
check_dst(uint16_t port, uint16_t q, struct rte_mbuf *m, void *arg)
{
	struct dst_check *dc = arg;
	const struct rte_ether_hdr *eh =
		rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);

	if (!rte_is_same_ether_addr(&eh->dst_addr, &dc->mac))
		dc->bad++;
}

/* Transfer rule -> PF1, ingress QUEUE rule on PF1 -> queue 2. */
static void
test_steer(struct rte_mempool *unused __rte_unused)
{
	const uint64_t N = 3000;
	struct octo_port_conf o = { .nb_rxq = 4, .nb_txq = 1 };
	uint64_t cnt[2][MAXQ] = { { 0 } };
	struct rte_eth_stats st;
	struct dst_check dst = { .bad = 0 };
	uint16_t ports[2];
	uint64_t missed;
	unsigned int p, q;

	REQUIRE(rte_vdev_init("net_octonic30", "pfs=2,flows=64,gen_limit=3000,gen_rate=500000") == 0,
		"probe");
	REQUIRE(pf_port("net_octonic30", 0, &ports[0]) == 0 &&
		pf_port("net_octonic30", 1, &ports[1]) == 0, "ports");
	REQUIRE(port_start(ports[0], &o) == 0 && port_start(ports[1], &o) == 0,
		"start");
	rte_eth_macaddr_get(ports[0], &dst.mac);
	REQUIRE(transfer_to_pf(ports[0], ports[1], 0, 0, 0) != NULL, "transfer");
	REQUIRE(ingress_to_queue(ports[1], 0, 0, 0, 0, 0, 2) != NULL, "ingress");
	poll_until(ports, 2, 4, N, cnt, check_dst, &dst);
	CHECK(dst.bad == 0, "%" PRIu64 " frames not addressed to the NIC",
		dst.bad);
	/* a loaded machine may pause this lcore long enough for queue 2's
	 * ring to overflow: those are counted on queue 2 as missed */
	missed = xstat(ports[1], "rx_q2_missed_packets");
	CHECK(cnt[1][2] + missed == N && cnt[1][2] > N / 2,
		"PF1 q2: %" PRIu64 " received + %" PRIu64 " missed", cnt[1][2],
		missed);
	for (p = 0; p < 2; p++)
		for (q = 0; q < 4; q++)
			if (p != 1 || q != 2)
				CHECK(cnt[p][q] == 0, "pf%u q%u got %" PRIu64, p, q,
					cnt[p][q]);
	CHECK(generated(ports[0]) == N, "generated %" PRIu64, generated(ports[0]));
	rte_eth_stats_get(ports[1], &st);
	CHECK(st.ipackets == cnt[1][2] &&
		xstat(ports[1], "rx_q2_packets") == cnt[1][2] &&
		st.imissed == missed, "stats: %" PRIu64 " %" PRIu64, st.ipackets,
		st.imissed);
	rte_eth_stats_get(ports[0], &st);
	CHECK(st.ipackets == 0 && st.imissed == 0, "PF0 saw traffic");
	rte_eth_dev_stop(ports[0]);
	rte_eth_dev_stop(ports[1]);
	nic_remove("net_octonic30");
}

static void
check_meta(uint16_t port, uint16_t q, struct rte_mbuf *m, void *arg)
{
	uint64_t *bad = arg;

	/* META is e-switch state: the application must not see it */
	if (rte_flow_dynf_metadata_avail() &&
			(m->ol_flags & RTE_MBUF_DYNFLAG_RX_METADATA) != 0)
		(*bad)++;
}

/* SET_META in transfer, matched by PF1's ingress META rule. */
static void
test_meta(struct rte_mempool *unused __rte_unused)
{
	const uint64_t N = 2000;
	struct octo_port_conf o = { .nb_rxq = 4, .nb_txq = 1 };
	uint64_t cnt[2][MAXQ] = { { 0 } }, bad = 0;
	uint16_t ports[2];
	unsigned int q;

	REQUIRE(rte_vdev_init("net_octonic31", "pfs=2,flows=32,gen_limit=2000,gen_rate=500000") == 0,
		"probe");
	REQUIRE(pf_port("net_octonic31", 0, &ports[0]) == 0 &&
		pf_port("net_octonic31", 1, &ports[1]) == 0, "ports");
	REQUIRE(port_start(ports[0], &o) == 0 && port_start(ports[1], &o) == 0,
		"start");
	REQUIRE(transfer_to_pf(ports[0], ports[1], 7, 1, 0) != NULL, "transfer");
	/* META 7 -> queue 3 wins; the fallback (prio 1) would take queue 1 */
	REQUIRE(ingress_to_queue(ports[1], 0, 1, 7, 0, 0, 3) != NULL, "meta rule");
	REQUIRE(ingress_to_queue(ports[1], 1, 0, 0, 0, 0, 1) != NULL, "fallback");
	REQUIRE(ingress_to_queue(ports[1], 0, 1, 8, 0, 0, 2) != NULL, "meta 8");
	poll_until(ports, 2, 4, N, cnt, check_meta, &bad);
	CHECK(cnt[1][3] + xstat(ports[1], "rx_q3_missed_packets") == N &&
		cnt[1][3] > N / 2, "q3 got %" PRIu64, cnt[1][3]);
	for (q = 0; q < 3; q++)
		CHECK(cnt[1][q] == 0 && cnt[0][q] == 0,
			"q%u got %" PRIu64 "/%" PRIu64, q, cnt[0][q], cnt[1][q]);
	CHECK(bad == 0, "metadata leaked to the app");
	rte_eth_dev_stop(ports[0]);
	rte_eth_dev_stop(ports[1]);
	nic_remove("net_octonic31");
}

struct reta_check {
	uint16_t reta[128];
	uint64_t bad, nohash;
};

static void
check_reta(uint16_t port, uint16_t q, struct rte_mbuf *m, void *arg)
{
	struct reta_check *rc = arg;

	if ((m->ol_flags & RTE_MBUF_F_RX_RSS_HASH) == 0) {
		rc->nohash++;
		return;
	}
	if (rc->reta[m->hash.rss % 128] != q)
		rc->bad++;
}

/* RSS spreads flows over the queues the RETA names, and only those. */
static void
test_rss(struct rte_mempool *unused __rte_unused)
{
	const uint64_t N = 4096;
	struct octo_port_conf o = { .nb_rxq = 4, .nb_txq = 1 };
	struct rte_eth_rss_reta_entry64 reta[2];
	struct reta_check rc = { .bad = 0 };
	uint64_t cnt[1][MAXQ] = { { 0 } };
	uint16_t port;
	unsigned int i;

	REQUIRE(rte_vdev_init("net_octonic32", "pfs=1,flows=256,gen_limit=4096,gen_rate=500000") == 0,
		"probe");
	REQUIRE(pf_port("net_octonic32", 0, &port) == 0, "port");
	REQUIRE(port_start(port, &o) == 0, "start");
	memset(reta, 0, sizeof(reta));
	for (i = 0; i < 128; i++) {
		reta[i / 64].mask |= 1ull << (i % 64);
		reta[i / 64].reta[i % 64] = rc.reta[i] = (i % 2) ? 3 : 1;
	}
	REQUIRE(rte_eth_dev_rss_reta_update(port, reta, 128) == 0, "reta_update");
	memset(reta, 0, sizeof(reta));
	reta[0].mask = reta[1].mask = UINT64_MAX;
	CHECK(rte_eth_dev_rss_reta_query(port, reta, 128) == 0 &&
		reta[0].reta[5] == 3 && reta[1].reta[2] == 1, "reta_query");
	{
		struct rte_eth_stats st;

		poll_until(&port, 1, 4, N, cnt, check_reta, &rc);
		rte_eth_stats_get(port, &st);
		CHECK(st.ipackets + st.imissed == N && st.ipackets > N / 2,
			"%" PRIu64 " received + %" PRIu64 " missed", st.ipackets,
			st.imissed);
	}
	CHECK(cnt[0][0] == 0 && cnt[0][2] == 0, "queues 0/2 not in RETA got %"
		PRIu64 "/%" PRIu64, cnt[0][0], cnt[0][2]);
	CHECK(cnt[0][1] > N / 8 && cnt[0][3] > N / 8, "spread %" PRIu64 "/%" PRIu64,
		cnt[0][1], cnt[0][3]);
	CHECK(rc.bad == 0 && rc.nohash == 0, "hash->queue mismatch %" PRIu64
		", no hash %" PRIu64, rc.bad, rc.nohash);
	rte_eth_dev_stop(port);
	nic_remove("net_octonic32");
}

/* ---- rules changed under traffic ---- */

struct poller {
	uint16_t port;
	volatile int stop;
	uint64_t got, bad_queue, bad_mark;
};

static int
poller_main(void *arg)
{
	struct poller *pl = arg;
	struct rte_mbuf *pkts[BURST];
	uint16_t q, n, i;

	while (!pl->stop) {
		for (q = 0; q < 4; q++) {
			n = rte_eth_rx_burst(pl->port, q, pkts, BURST);
			for (i = 0; i < n; i++) {
				struct rte_mbuf *m = pkts[i];

				if (q != 1)
					pl->bad_queue++;
				if ((m->ol_flags & RTE_MBUF_F_RX_FDIR_ID) == 0 ||
						(m->hash.fdir.hi != 1 &&
						 m->hash.fdir.hi != 2))
					pl->bad_mark++;
				rte_pktmbuf_free(m);
			}
			pl->got += n;
		}
	}
	return 0;
}

static void
test_concurrent(struct rte_mempool *unused __rte_unused)
{
	struct octo_port_conf o = { .nb_rxq = 4, .nb_txq = 1 };
	struct rte_flow *t_old, *t_new, *i_old, *i_new;
	struct rte_flow_error err;
	struct poller pl = { .stop = 0 };
	struct rte_eth_stats st0, st1;
	uint16_t ports[2];
	unsigned int lcore, k;

	lcore = rte_get_next_lcore(-1, 1, 0);
	REQUIRE(lcore < RTE_MAX_LCORE, "needs a worker lcore");
	REQUIRE(rte_vdev_init("net_octonic33", "pfs=2,flows=128") == 0, "probe");
	REQUIRE(pf_port("net_octonic33", 0, &ports[0]) == 0 &&
		pf_port("net_octonic33", 1, &ports[1]) == 0, "ports");
	REQUIRE(port_start(ports[0], &o) == 0 && port_start(ports[1], &o) == 0,
		"start");
	t_old = transfer_to_pf(ports[0], ports[1], 0, 0, 0);
	i_old = ingress_to_queue(ports[1], 0, 0, 0, 1, 1, 1);
	REQUIRE(t_old != NULL && i_old != NULL, "rules");
	pl.port = ports[1];
	rte_eal_remote_launch(poller_main, &pl, lcore);
	/* make before break, under traffic: every packet must see either the
	 * old or the new rule set, never none (PF0 / RSS) */
	for (k = 0; k < 300; k++) {
		t_new = transfer_to_pf(ports[0], ports[1], 0, 0, k & 1);
		i_new = ingress_to_queue(ports[1], 0, 0, 0, 1, 1 + (k & 1), 1);
		if (t_new == NULL || i_new == NULL) {
			CHECK(0, "rule create failed at %u", k);
			break;
		}
		CHECK(rte_flow_destroy(ports[0], t_old, &err) == 0, "destroy t");
		CHECK(rte_flow_destroy(ports[1], i_old, &err) == 0, "destroy i");
		t_old = t_new;
		i_old = i_new;
		rte_delay_us_sleep(1000);
	}
	pl.stop = 1;
	rte_eal_wait_lcore(lcore);
	rte_eth_stats_get(ports[0], &st0);
	rte_eth_stats_get(ports[1], &st1);
	printf("concurrent: %" PRIu64 " packets over 300 rule swaps\n", pl.got);
	CHECK(pl.got > 1000, "too little traffic: %" PRIu64, pl.got);
	CHECK(pl.bad_queue == 0 && pl.bad_mark == 0, "misclassified: queue %"
		PRIu64 " mark %" PRIu64, pl.bad_queue, pl.bad_mark);
	/* PF0 is started but never polled: anything steered there would sit
	 * in its rings (or be missed when they fill) */
	CHECK(rte_eth_rx_queue_count(ports[0], 0) == 0 &&
		rte_eth_rx_queue_count(ports[0], 1) == 0 &&
		rte_eth_rx_queue_count(ports[0], 2) == 0 &&
		rte_eth_rx_queue_count(ports[0], 3) == 0 && st0.imissed == 0,
		"packets reached PF0");
	rte_eth_dev_stop(ports[0]);
	rte_eth_dev_stop(ports[1]);
	nic_remove("net_octonic33");
}

/* ---- locality ---- */

struct remote_poll {
	uint16_t port, q;
	unsigned int n;
};

static int
remote_poll_main(void *arg)
{
	struct remote_poll *rp = arg;
	struct rte_mbuf *pkts[BURST];
	unsigned int i;
	uint16_t n, j;

	for (i = 0; i < rp->n; i++) {
		n = rte_eth_rx_burst(rp->port, rp->q, pkts, BURST);
		for (j = 0; j < n; j++)
			rte_pktmbuf_free(pkts[j]);
	}
	return 0;
}

static void *
thread_poll_main(void *arg)
{
	cpu_set_t cs;

	CPU_ZERO(&cs);
	CPU_SET(1, &cs);	/* cpu 1 is on node 1 under the emulation */
	pthread_setaffinity_np(pthread_self(), sizeof(cs), &cs);
	sched_yield();
	remote_poll_main(arg);
	return NULL;
}

/* A UDP frame of @p len bytes, 10.0.0.1 -> 10.0.0.2, to port 9, checksums set. */
static struct rte_mbuf *
udp_frame(struct rte_mempool *mp, uint16_t len, uint16_t sport)
{
	struct rte_mbuf *m = mk_udp4_len(mp, len, 0x0a000001, 0x0a000002, sport, 9);
	struct rte_ipv4_hdr *ip;
	struct rte_udp_hdr *udp;
	uint16_t hdrs = sizeof(struct rte_ether_hdr) + sizeof(*ip);

	if (m == NULL)
		return NULL;
	ip = rte_pktmbuf_mtod_offset(m, struct rte_ipv4_hdr *, sizeof(struct rte_ether_hdr));
	udp = (struct rte_udp_hdr *)(ip + 1);
	udp->dgram_len = rte_cpu_to_be_16(len - hdrs);
	memset(udp + 1, 0xab, len - hdrs - sizeof(*udp));
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	udp->dgram_cksum = rte_ipv4_udptcp_cksum(ip, udp);
	return m;
}

/* Remote-DMA and remote-poll counters count exactly what is remote. */
static void
test_locality(struct rte_mempool *unused __rte_unused)
{
	const uint64_t N = 2048;
	struct octo_port_conf o0 = { .nb_rxq = 2, .nb_txq = 2,
		.rx_pool = { pool[1], pool[0] } };	/* PF0 node 0: q0 remote */
	struct octo_port_conf o1 = { .nb_rxq = 2, .nb_txq = 2,
		.rx_pool = { pool[1], pool[0] } };	/* PF1 node 1: q1 remote */
	struct rte_pmd_octonic_locality l0, l1;
	uint64_t cnt[2][MAXQ] = { { 0 } };
	struct rte_mbuf *tx[16];
	struct remote_poll rp;
	struct rte_flow *t;
	struct rte_flow_error err;
	uint16_t ports[2];
	unsigned int i, lcore;
	pthread_t th;

	REQUIRE(rte_vdev_init("net_octonic34", "pfs=2,flows=64,gen_limit=2048,pkt_len=100,gen_rate=500000") == 0,
		"probe");
	REQUIRE(pf_port("net_octonic34", 0, &ports[0]) == 0 &&
		pf_port("net_octonic34", 1, &ports[1]) == 0, "ports");
	REQUIRE(port_start(ports[0], &o0) == 0 && port_start(ports[1], &o1) == 0,
		"start");
	/* no rule: everything to PF0, RSS over its 2 queues */
	CHECK(poll_until(ports, 1, 2, N, cnt, NULL, NULL) == N, "all");
	CHECK(cnt[0][0] > 0 && cnt[0][1] > 0, "RSS used both queues");
	rte_pmd_octonic_locality_get(ports[0], 0, 0, &l0);
	rte_pmd_octonic_locality_get(ports[0], 1, 0, &l1);
	CHECK(l0.remote_dma_pkts == cnt[0][0], "PF0 q0 remote %" PRIu64 " != %"
		PRIu64, l0.remote_dma_pkts, cnt[0][0]);
	CHECK(l0.remote_dma_bytes == cnt[0][0] * 100, "bytes");
	CHECK(l1.remote_dma_pkts == 0 && l1.remote_dma_bytes == 0,
		"PF0 q1 local but %" PRIu64, l1.remote_dma_pkts);
	CHECK(xstat(ports[0], "rx_q0_remote_dma_packets") == cnt[0][0], "xstat");
	/* main lcore is on socket 0: PF0 polls local, PF1 polls remote */
	CHECK(l0.polls > 0 && l0.remote_polls == 0, "local polls counted remote");

	/* now to PF1: q0's pool is local to it, q1's remote */
	memset(cnt, 0, sizeof(cnt));
	t = transfer_to_pf(ports[0], ports[1], 0, 0, 1);
	REQUIRE(t != NULL, "transfer");
	rte_pmd_octonic_gen_enable(ports[0], 1);
	{
		CHECK(octo_gen_limit(ports[0], N) == 0, "gen_set");
	}
	CHECK(poll_until(&ports[1], 1, 2, N, cnt, NULL, NULL) == N, "all to PF1");
	rte_pmd_octonic_locality_get(ports[1], 0, 0, &l0);
	rte_pmd_octonic_locality_get(ports[1], 1, 0, &l1);
	CHECK(l0.remote_dma_pkts == 0, "PF1 q0 local, %" PRIu64, l0.remote_dma_pkts);
	CHECK(l1.remote_dma_pkts == cnt[0][1] && cnt[0][1] > 0,
		"PF1 q1 remote %" PRIu64 " != %" PRIu64, l1.remote_dma_pkts, cnt[0][1]);
	CHECK(l0.remote_polls == l0.polls && l0.polls > 0,
		"socket-0 lcore polling PF1: %" PRIu64 "/%" PRIu64,
		l0.remote_polls, l0.polls);
	rte_flow_destroy(ports[0], t, &err);

	/* an lcore of socket 1 polling PF0 is remote, exactly per burst */
	lcore = rte_get_next_lcore(-1, 1, 0);
	REQUIRE(lcore < RTE_MAX_LCORE && rte_lcore_to_socket_id(lcore) == 1,
		"worker lcore on socket 1");
	rte_pmd_octonic_locality_get(ports[0], 1, 0, &l0);
	rp.port = ports[0];
	rp.q = 1;
	rp.n = 100;
	rte_eal_remote_launch(remote_poll_main, &rp, lcore);
	rte_eal_wait_lcore(lcore);
	rte_pmd_octonic_locality_get(ports[0], 1, 0, &l1);
	CHECK(l1.polls - l0.polls == 100 && l1.remote_polls - l0.remote_polls == 100,
		"lcore on socket 1: %" PRIu64 " remote of %" PRIu64,
		l1.remote_polls - l0.remote_polls, l1.polls - l0.polls);
	/* and so is a non-EAL thread running on a CPU of node 1 */
	l0 = l1;
	pthread_create(&th, NULL, thread_poll_main, &rp);
	pthread_join(th, NULL);
	rte_pmd_octonic_locality_get(ports[0], 1, 0, &l1);
	CHECK(l1.remote_polls - l0.remote_polls == 100,
		"non-EAL thread on node 1: %" PRIu64 " remote",
		l1.remote_polls - l0.remote_polls);

	/* Tx: mbufs of socket 1 sent by PF0 are remote reads; of socket 0 not */
	for (i = 0; i < 16; i++)
		tx[i] = udp_frame(pool[i < 10 ? 1 : 0], 128, i);
	CHECK(rte_eth_tx_burst(ports[0], 0, tx, 10) == 10, "tx 10");
	CHECK(rte_eth_tx_burst(ports[0], 1, tx + 10, 6) == 6, "tx 6");
	poll_until(ports, 1, 1, 1, NULL, NULL, NULL);	/* engine runs */
	rte_pmd_octonic_locality_get(ports[0], 0, 1, &l0);
	rte_pmd_octonic_locality_get(ports[0], 1, 1, &l1);
	CHECK(l0.remote_dma_pkts == 10 && l0.remote_dma_bytes == 1280,
		"tx remote %" PRIu64, l0.remote_dma_pkts);
	CHECK(l1.remote_dma_pkts == 0, "tx local counted remote");
	{
		struct rte_pmd_octonic_sink_stats ss;

		CHECK(rte_pmd_octonic_sink_stats_get(ports[0], &ss) == 0 &&
			ss.pkts == 16, "sink got %" PRIu64, ss.pkts);
	}
	rte_eth_dev_stop(ports[0]);
	rte_eth_dev_stop(ports[1]);
	nic_remove("net_octonic34");
}

/* ---- checksums and the loop wire ---- */

static struct rte_mbuf *
rx_one(uint16_t port)
{
	struct rte_mbuf *m = NULL;
	uint64_t end = rte_get_tsc_cycles() + rte_get_tsc_hz() / 5;

	while (rte_get_tsc_cycles() < end)
		if (rte_eth_rx_burst(port, 0, &m, 1) == 1)
			return m;
	return NULL;
}

/* Send @p m through the loop wire and return what came back. */
static struct rte_mbuf *
loop_once(uint16_t port, struct rte_mbuf *m)
{
	if (rte_eth_tx_burst(port, 0, &m, 1) != 1) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	return rx_one(port);
}

static void
test_cksum_loop(struct rte_mempool *unused __rte_unused)
{
	struct octo_port_conf o = { .nb_rxq = 1, .nb_txq = 1,
		.rx_offloads = RTE_ETH_RX_OFFLOAD_CHECKSUM,
		.tx_offloads = RTE_ETH_TX_OFFLOAD_IPV4_CKSUM |
			RTE_ETH_TX_OFFLOAD_UDP_CKSUM | RTE_ETH_TX_OFFLOAD_MULTI_SEGS };
	struct rte_ipv4_hdr *ip;
	struct rte_udp_hdr *udp;
	struct rte_mbuf *m, *r, *seg;
	uint8_t ref[300];
	uint16_t port;
	uint64_t f;

	REQUIRE(rte_vdev_init("net_octonic35", "pfs=1,wire=loop") == 0, "probe");
	REQUIRE(pf_port("net_octonic35", 0, &port) == 0, "port");
	REQUIRE(port_start(port, &o) == 0, "start");

	/* good checksums, round trip byte for byte */
	m = udp_frame(pool[0], 300, 1);
	memcpy(ref, rte_pktmbuf_mtod(m, void *), 300);
	r = loop_once(port, m);
	REQUIRE(r != NULL, "loop lost the frame");
	CHECK(r->pkt_len == 300 && memcmp(rte_pktmbuf_mtod(r, void *), ref, 300) == 0,
		"loop changed the frame");
	f = r->ol_flags;
	CHECK((f & RTE_MBUF_F_RX_IP_CKSUM_MASK) == RTE_MBUF_F_RX_IP_CKSUM_GOOD &&
		(f & RTE_MBUF_F_RX_L4_CKSUM_MASK) == RTE_MBUF_F_RX_L4_CKSUM_GOOD,
		"good frame flags 0x%" PRIx64, f);
	CHECK(r->packet_type == (RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4 |
		RTE_PTYPE_L4_UDP), "ptype 0x%x", r->packet_type);
	CHECK(r->port == port, "mbuf port");
	rte_pktmbuf_free(r);

	/* bad IP checksum */
	m = udp_frame(pool[0], 100, 2);
	ip = rte_pktmbuf_mtod_offset(m, struct rte_ipv4_hdr *,
		sizeof(struct rte_ether_hdr));
	ip->hdr_checksum ^= 0x1111;
	r = loop_once(port, m);
	REQUIRE(r != NULL, "lost");
	CHECK((r->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK) == RTE_MBUF_F_RX_IP_CKSUM_BAD,
		"bad IP cksum flags 0x%" PRIx64, r->ol_flags);
	rte_pktmbuf_free(r);

	/* bad UDP checksum */
	m = udp_frame(pool[0], 100, 3);
	udp = rte_pktmbuf_mtod_offset(m, struct rte_udp_hdr *,
		sizeof(struct rte_ether_hdr) + sizeof(struct rte_ipv4_hdr));
	udp->dgram_cksum ^= 0x0101;
	r = loop_once(port, m);
	REQUIRE(r != NULL, "lost");
	CHECK((r->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK) == RTE_MBUF_F_RX_IP_CKSUM_GOOD &&
		(r->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK) == RTE_MBUF_F_RX_L4_CKSUM_BAD,
		"bad UDP cksum flags 0x%" PRIx64, r->ol_flags);
	rte_pktmbuf_free(r);

	/* Tx checksum offload, on a 2-segment mbuf */
	m = udp_frame(pool[0], 200, 4);
	memcpy(ref, rte_pktmbuf_mtod(m, void *), 200);
	ip = rte_pktmbuf_mtod_offset(m, struct rte_ipv4_hdr *,
		sizeof(struct rte_ether_hdr));
	udp = (struct rte_udp_hdr *)(ip + 1);
	ip->hdr_checksum = 0;
	udp->dgram_cksum = 0;
	seg = rte_pktmbuf_alloc(pool[0]);
	REQUIRE(seg != NULL, "alloc");
	memcpy(rte_pktmbuf_append(seg, 77), rte_pktmbuf_mtod_offset(m, void *, 123), 77);
	rte_pktmbuf_trim(m, 77);
	REQUIRE(rte_pktmbuf_chain(m, seg) == 0, "chain");
	m->l2_len = sizeof(struct rte_ether_hdr);
	m->l3_len = sizeof(struct rte_ipv4_hdr);
	m->ol_flags |= RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM |
		RTE_MBUF_F_TX_UDP_CKSUM;
	r = loop_once(port, m);
	REQUIRE(r != NULL, "lost");
	CHECK(r->nb_segs == 1 && r->pkt_len == 200 &&
		memcmp(rte_pktmbuf_mtod(r, void *), ref, 200) == 0,
		"Tx checksums differ from the reference");
	CHECK((r->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK) == RTE_MBUF_F_RX_IP_CKSUM_GOOD &&
		(r->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK) == RTE_MBUF_F_RX_L4_CKSUM_GOOD,
		"Tx offload flags 0x%" PRIx64, r->ol_flags);
	rte_pktmbuf_free(r);

	/* without the Rx checksum offload, no verdict is claimed */
	rte_eth_dev_stop(port);
	o.rx_offloads = 0;
	REQUIRE(port_start(port, &o) == 0, "restart");
	r = loop_once(port, udp_frame(pool[0], 100, 5));
	REQUIRE(r != NULL, "lost");
	CHECK((r->ol_flags & (RTE_MBUF_F_RX_IP_CKSUM_MASK |
		RTE_MBUF_F_RX_L4_CKSUM_MASK)) == 0, "flags without offload");
	rte_pktmbuf_free(r);
	rte_eth_dev_stop(port);
	nic_remove("net_octonic35");
}

/* ---- unplug, stopped queues, mbuf exhaustion ---- */

static int rmv_events, lsc_events;

static int
event_cb(uint16_t port, enum rte_eth_event_type type, void *arg, void *ret)
{
	if (type == RTE_ETH_EVENT_INTR_RMV)
		rmv_events++;
	else if (type == RTE_ETH_EVENT_INTR_LSC)
		lsc_events++;
	return 0;
}

static void
test_unplug(struct rte_mempool *unused __rte_unused)
{
	const uint64_t N = 1000;
	struct octo_port_conf o = { .nb_rxq = 2, .nb_txq = 1, .lsc = 1 };
	struct rte_eth_link link;
	struct rte_eth_stats st;
	uint64_t cnt[2][MAXQ] = { { 0 } };
	uint64_t deadline, received = 0;
	uint16_t ports[2];

	REQUIRE(rte_vdev_init("net_octonic36", "pfs=2,gen_limit=1000") == 0,
		"probe");
	REQUIRE(pf_port("net_octonic36", 0, &ports[0]) == 0 &&
		pf_port("net_octonic36", 1, &ports[1]) == 0, "ports");
	rte_eth_dev_callback_register(ports[1], RTE_ETH_EVENT_INTR_RMV, event_cb, NULL);
	rte_eth_dev_callback_register(ports[1], RTE_ETH_EVENT_INTR_LSC, event_cb, NULL);
	REQUIRE(port_start(ports[0], &o) == 0 && port_start(ports[1], &o) == 0,
		"start");
	CHECK(rte_eth_link_get_nowait(ports[1], &link) == 0, "link of ports[1]");
	CHECK(link.link_status == RTE_ETH_LINK_UP, "link up when started");
	REQUIRE(transfer_to_pf(ports[0], ports[1], 0, 0, 1) != NULL, "transfer");
	CHECK(rte_pmd_octonic_unplug(ports[1]) == 0, "unplug");
	CHECK(rmv_events == 1, "RMV events %d", rmv_events);
	CHECK(lsc_events == 1, "LSC events %d", lsc_events);
	CHECK(rte_eth_link_get_nowait(ports[1], &link) == 0, "link of ports[1]");
	CHECK(link.link_status == RTE_ETH_LINK_DOWN, "link down when unplugged");
	CHECK(rte_pmd_octonic_unplug(ports[1]) == -EALREADY, "twice");
	/* traffic steered to the unplugged PF is counted, never hangs: poll
	 * until the N generated frames are all counted missed (or 10 s); a
	 * quiet time would end too early where nothing is ever received and
	 * the generator is slow (a sanitizer build) */
	deadline = rte_get_tsc_cycles() + 10 * rte_get_tsc_hz();
	do {
		received += poll_once(ports, 2, 2, cnt, NULL, NULL);
		rte_eth_stats_get(ports[1], &st);
	} while ((generated(ports[0]) < N || st.imissed < N) &&
		rte_get_tsc_cycles() < deadline);
	CHECK(received == 0, "received %" PRIu64, received);
	CHECK(generated(ports[0]) == N && st.imissed == N,
		"imissed %" PRIu64 " of %" PRIu64, st.imissed, generated(ports[0]));
	CHECK(xstat(ports[1], "rx_port_down_drop_packets") == N, "xstat");
	CHECK(rte_pmd_octonic_plug(ports[1]) == 0, "plug");
	CHECK(rte_eth_link_get_nowait(ports[1], &link) == 0, "link of ports[1]");
	CHECK(link.link_status == RTE_ETH_LINK_UP, "link up again");
	CHECK(lsc_events == 2, "LSC on plug");
	rte_eth_dev_stop(ports[0]);
	rte_eth_dev_stop(ports[1]);
	CHECK(rte_eth_link_get_nowait(ports[1], &link) == 0, "link of ports[1]");
	CHECK(link.link_status == RTE_ETH_LINK_DOWN, "link down when stopped");
	nic_remove("net_octonic36");
}

static void
test_queue_not_started(struct rte_mempool *unused __rte_unused)
{
	const uint64_t N = 500;
	struct octo_port_conf o = { .nb_rxq = 2, .nb_txq = 1, .deferred_rxq = { 0, 1 } };
	uint64_t cnt[1][MAXQ] = { { 0 } };
	struct rte_eth_stats st;
	uint16_t port;

	REQUIRE(rte_vdev_init("net_octonic37", "pfs=1,gen_limit=500") == 0, "probe");
	REQUIRE(pf_port("net_octonic37", 0, &port) == 0, "port");
	REQUIRE(port_start(port, &o) == 0, "start");
	/* everything to queue 1, which is set up but not started */
	REQUIRE(ingress_to_queue(port, 0, 0, 0, 0, 0, 1) != NULL, "rule");
	poll_until(&port, 1, 1, N, cnt, NULL, NULL);
	rte_eth_stats_get(port, &st);
	CHECK(st.imissed == N && cnt[0][0] == 0, "imissed %" PRIu64, st.imissed);
	CHECK(xstat(port, "rx_no_queue_drop_packets") == N, "xstat");
	/* once started, it receives */
	rte_pmd_octonic_gen_enable(port, 1);
	{
		octo_gen_limit(port, N);
	}
	REQUIRE(rte_eth_dev_rx_queue_start(port, 1) == 0, "queue start");
	CHECK(poll_until(&port, 1, 2, N, cnt, NULL, NULL) == N, "received once started");
	rte_eth_dev_stop(port);
	nic_remove("net_octonic37");
}

/* Nothing lost silently: generated = received + missed + nombuf. */
static void
test_nombuf(struct rte_mempool *unused __rte_unused)
{
	struct rte_mempool *tiny;
	struct octo_port_conf o = { .nb_rxq = 1, .nb_txq = 1 };
	struct rte_mbuf *held[512];
	struct rte_eth_stats st;
	uint16_t port, n;
	unsigned int held_n = 0, i;

	tiny = rte_pktmbuf_pool_create("tiny", 255, 0, 0,
		RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	REQUIRE(tiny != NULL, "pool");
	o.rx_pool[0] = tiny;
	REQUIRE(rte_vdev_init("net_octonic38", "pfs=1,gen_limit=2000") == 0, "probe");
	REQUIRE(pf_port("net_octonic38", 0, &port) == 0, "port");
	REQUIRE(port_start(port, &o) == 0, "start");
	/* hold every mbuf received: the pool runs dry */
	for (i = 0; i < 2000 && held_n < RTE_DIM(held) - BURST; i++) {
		n = rte_eth_rx_burst(port, 0, held + held_n, BURST);
		held_n += n;
	}
	rte_eth_stats_get(port, &st);
	CHECK(st.rx_nombuf > 0, "nombuf not counted");
	CHECK(generated(port) == st.ipackets + st.imissed + st.rx_nombuf +
		rte_eth_rx_queue_count(port, 0),
		"generated %" PRIu64 " != %" PRIu64 " + %" PRIu64 " + %" PRIu64,
		generated(port), st.ipackets, st.imissed, st.rx_nombuf);
	CHECK(st.ipackets == held_n, "ipackets");
	for (i = 0; i < held_n; i++)
		rte_pktmbuf_free(held[i]);
	rte_eth_dev_stop(port);
	nic_remove("net_octonic38");
	rte_mempool_free(tiny);
}

/* wire=<ethdev>: a net_ring port (its Tx loops to its Rx) is the cable. */
static void
test_wire_ethdev(struct rte_mempool *unused __rte_unused)
{
	struct octo_port_conf o = { .nb_rxq = 1, .nb_txq = 1 };
	struct rte_mbuf *r;
	uint16_t port;

	if (rte_vdev_init("net_ring_cable", NULL) != 0) {
		printf("SKIP wire_ethdev: net_ring not available\n");
		return;
	}
	REQUIRE(rte_vdev_init("net_octonic39", "pfs=1,wire=net_ring_cable") == 0,
		"probe");
	REQUIRE(pf_port("net_octonic39", 0, &port) == 0, "port");
	REQUIRE(port_start(port, &o) == 0, "start");
	r = loop_once(port, udp_frame(pool[0], 90, 6));
	CHECK(r != NULL && r->pkt_len == 90, "through the cable and back");
	rte_pktmbuf_free(r);
	rte_eth_dev_stop(port);
	nic_remove("net_octonic39");
	rte_vdev_uninit("net_ring_cable");
}


/* Control path: descriptors, stats reset, MTU, MAC, reset, Tx while unplugged. */
static void
test_control(struct rte_mempool *unused __rte_unused)
{
	struct octo_port_conf o = { .nb_rxq = 2, .nb_txq = 2 };
	struct rte_ether_addr mac = { .addr_bytes = { 0x02, 0, 0, 0, 0, 0x42 } };
	struct rte_eth_stats st;
	struct rte_mbuf *tx[8];
	uint16_t ports[2];
	unsigned int i;
	int n;

	REQUIRE(rte_vdev_init("net_octonic40", "pfs=2,gen_limit=100") == 0, "probe");
	REQUIRE(pf_port("net_octonic40", 0, &ports[0]) == 0 &&
		pf_port("net_octonic40", 1, &ports[1]) == 0, "ports");
	REQUIRE(port_start(ports[0], &o) == 0 && port_start(ports[1], &o) == 0,
		"start");
	REQUIRE(transfer_to_pf(ports[0], ports[1], 0, 0, 1) != NULL, "transfer");
	REQUIRE(ingress_to_queue(ports[1], 0, 0, 0, 0, 0, 0) != NULL, "ingress");
	/* rule counters and dump wrap the e-switch's */
	{
		struct rte_pmd_octonic_flow_stats fs;
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		CHECK(rte_pmd_octonic_flow_stats_get(ports[1], &fs) == 0 &&
			fs.creates == 2 && fs.transfer_rules == 1 &&
			fs.ingress_rules == 1, "flow stats %" PRIu64 " %u %u",
			fs.creates, fs.transfer_rules, fs.ingress_rules);
		CHECK(rte_pmd_octonic_flow_stats_get(ports[0], &fs) == 0 &&
			fs.ingress_rules == 0, "PF0 has no ingress rule");
		CHECK(rte_pmd_octonic_flow_dump(ports[0], f) == 0, "dump");
		fclose(f);
		CHECK(buf != NULL && strstr(buf, "transfer") != NULL &&
			strstr(buf, "ingress pf=1") != NULL &&
			strstr(buf, "queue(0)") != NULL, "dump: %s", buf ? buf : "");
		free(buf);
		CHECK(rte_pmd_octonic_flow_dump(RTE_MAX_ETHPORTS - 1, stdout) ==
			-ENODEV, "dump of a non-octonic port");
	}
	/* polling PF0 runs the engine; PF1's queue 0 fills, unpolled */
	poll_until(ports, 1, 1, 1, NULL, NULL, NULL);
	CHECK(rte_eth_rx_queue_count(ports[1], 0) == 100, "rx_queue_count %d",
		rte_eth_rx_queue_count(ports[1], 0));
	CHECK(rte_eth_rx_descriptor_status(ports[1], 0, 99) == RTE_ETH_RX_DESC_DONE,
		"desc 99 done");
	CHECK(rte_eth_rx_descriptor_status(ports[1], 0, 100) == RTE_ETH_RX_DESC_AVAIL,
		"desc 100 avail");
	CHECK(rte_eth_rx_queue_count(ports[1], 1) == 0, "queue 1 empty");
	/* Tx: completed at once by the engine, then nothing is pending */
	for (i = 0; i < 8; i++)
		tx[i] = udp_frame(pool[0], 64, i);
	CHECK(rte_eth_tx_burst(ports[0], 0, tx, 8) == 8, "tx");
	CHECK(rte_eth_tx_descriptor_status(ports[0], 0, 0) == RTE_ETH_TX_DESC_DONE,
		"tx desc done");
	n = rte_eth_tx_done_cleanup(ports[0], 0, 0);
	CHECK(n >= 0, "tx_done_cleanup %d", n);
	rte_eth_stats_get(ports[0], &st);
	CHECK(st.opackets == 8 && st.obytes == 8 * 64, "opackets %" PRIu64,
		st.opackets);
	CHECK(rte_eth_stats_reset(ports[0]) == 0, "reset");
	rte_eth_stats_get(ports[0], &st);
	CHECK(st.opackets == 0 && st.obytes == 0, "after reset %" PRIu64,
		st.opackets);
	/* Tx of an unplugged PF never reaches the wire: counted in oerrors */
	rte_pmd_octonic_unplug(ports[0]);
	for (i = 0; i < 8; i++)
		tx[i] = udp_frame(pool[0], 64, i);
	CHECK(rte_eth_tx_burst(ports[0], 0, tx, 8) == 8, "tx unplugged");
	rte_eth_stats_get(ports[0], &st);
	CHECK(st.oerrors == 8, "oerrors %" PRIu64, st.oerrors);
	rte_pmd_octonic_plug(ports[0]);
	{
		struct rte_pmd_octonic_sink_stats ss;

		rte_pmd_octonic_sink_stats_get(ports[0], &ss);
		CHECK(ss.pkts == 8, "sink got %" PRIu64 ", not 8", ss.pkts);
	}
	/* MTU, MAC, promiscuous */
	CHECK(rte_eth_dev_set_mtu(ports[0], 9000) == 0, "mtu 9000");
	CHECK(rte_eth_dev_set_mtu(ports[0], 9700) != 0, "mtu 9700 refused");
	CHECK(rte_eth_dev_mac_addr_add(ports[0], &mac, 0) == 0, "mac add");
	CHECK(rte_eth_dev_mac_addr_remove(ports[0], &mac) == 0, "mac remove");
	CHECK(rte_eth_dev_default_mac_addr_set(ports[0], &mac) == 0, "mac set");
	CHECK(rte_eth_promiscuous_enable(ports[0]) == 0 &&
		rte_eth_promiscuous_get(ports[0]) == 1, "promisc");
	CHECK(rte_eth_allmulticast_enable(ports[0]) == 0, "allmulti");
	/* xstats: names and values agree in number */
	n = rte_eth_xstats_get_names(ports[1], NULL, 0);
	CHECK(n > 0 && rte_eth_xstats_get(ports[1], NULL, 0) == n, "xstats count");
	/* reset, then the port is usable again */
	CHECK(rte_eth_dev_reset(ports[1]) == 0, "dev reset");
	CHECK(port_start(ports[1], &o) == 0, "restart after reset");
	CHECK(rte_eth_rx_queue_count(ports[1], 0) == 0, "queues fresh");
	rte_eth_dev_stop(ports[0]);
	rte_eth_dev_stop(ports[1]);
	nic_remove("net_octonic40");
}

/*
 * The NUDMA cost model, nudma_dma=wait: a remote poll costs at least
 * nudma_poll_ns, a remote DMA nudma_dma_ns, each paid by the poller of
 * the queue it falls on (not by whichever poller ran the engine); the
 * pollers' counters tell that stall apart from what emulating the NIC
 * cost them.
 */
static void
test_nudma(struct rte_mempool *unused __rte_unused)
{
	/* PF0's queue on a pool of socket 1: the frame's DMA is remote */
	struct octo_port_conf o0 = { .nb_rxq = 1, .nb_txq = 1,
		.rx_pool = { pool[1] } };
	struct octo_port_conf o = { .nb_rxq = 1, .nb_txq = 1 };
	struct rte_mbuf *pkts[BURST];
	uint64_t t0, wall, remote_ns, hz = rte_get_tsc_hz();
	uint64_t stall, emu, poll_c = 50000 * hz / 1000000000ull;
	uint64_t dma_c = 100000 * hz / 1000000000ull;
	uint16_t ports[2], n;
	unsigned int i, got = 0;

	/* 50 us per remote poll: 40 remote polls take at least 2 ms; the
	 * one frame generated costs a 100 us remote DMA */
	REQUIRE(rte_vdev_init("net_octonic41",
		"pfs=2,gen_limit=1,nudma_poll_ns=50000,nudma_dma_ns=100000") == 0,
		"probe");
	REQUIRE(pf_port("net_octonic41", 0, &ports[0]) == 0 &&
		pf_port("net_octonic41", 1, &ports[1]) == 0, "ports");
	REQUIRE(port_start(ports[0], &o0) == 0 && port_start(ports[1], &o) == 0,
		"start");
	t0 = rte_get_tsc_cycles();
	for (i = 0; i < 40; i++)	/* main lcore is on socket 0: remote */
		rte_pktmbuf_free_bulk(pkts, rte_eth_rx_burst(ports[1], 0, pkts, BURST));
	wall = rte_get_tsc_cycles() - t0;
	remote_ns = wall * 1000000000ull / hz;
	CHECK(remote_ns >= 40 * 50000, "40 remote polls took %" PRIu64 " ns",
		remote_ns);
	/* those polls ran the engine, which took the frame for PF0's queue:
	 * the DMA into that queue's (remote) mbufs is not theirs to make,
	 * so their queue holds the polls' stall only, and not as emulation */
	stall = xstat(ports[1], "rx_q0_nudma_stall_cycles");
	emu = xstat(ports[1], "rx_q0_emulation_cycles");
	CHECK(stall >= 40 * poll_c && stall <= wall,
		"stall %" PRIu64 " cycles, expected %" PRIu64 "..%" PRIu64, stall,
		40 * poll_c, wall);
	/* (counted, not timed: a busy-wait preempted on a loaded host lasts
	 * longer than asked, so no upper bound on the stall tells whose
	 * stall it holds) */
	CHECK(rte_eth_rx_queue_count(ports[0], 0) == 1 &&
		xstat(ports[0], "rx_q0_dma_packets") == 0,
		"the frame for PF0 was DMA-written before its poller came");
	/* and apart from it: a poll's emulation is its time less its stall,
	 * so the two add up to no more than the loop's wall time whatever
	 * the host's speed (a bound on emulation itself would be a timing
	 * figure: 40 engine runs took 169 us in a sanitizer build on a
	 * loaded host)
	 */
	CHECK(emu > 0 && stall + emu <= wall, "emulation %" PRIu64
		" + stall %" PRIu64 " cycles over the %" PRIu64 " the polls took",
		emu, stall, wall);
	CHECK(xstat(ports[1], "tx_q0_nudma_stall_cycles") == 0 &&
		xstat(ports[0], "rx_q0_nudma_stall_cycles") == 0,
		"queues not polled were charged");
	/* local polls pay no poll stall: none is counted remote, and 10000
	 * of them take less than the 500 ms that charging each its 50 us
	 * would take by itself (the bound is that stall, not a guess at the
	 * host's speed); the first makes the remote DMA of the frame and
	 * pays its 100 us
	 */
	t0 = rte_get_tsc_cycles();
	for (i = 0; i < 10000; i++) {
		n = rte_eth_rx_burst(ports[0], 0, pkts, BURST);
		got += n;
		rte_pktmbuf_free_bulk(pkts, n);
	}
	wall = rte_get_tsc_cycles() - t0;
	CHECK(got == 1 && xstat(ports[0], "rx_q0_remote_dma_packets") == 1,
		"PF0 got %u frames, %" PRIu64 " remote DMA", got,
		xstat(ports[0], "rx_q0_remote_dma_packets"));
	CHECK(xstat(ports[0], "rx_q0_remote_polls") == 0 &&
		wall < 10000 * poll_c, "local polls are charged: %" PRIu64
		" remote, %" PRIu64 " cycles for 10000", xstat(ports[0],
		"rx_q0_remote_polls"), wall);
	stall = xstat(ports[0], "rx_q0_nudma_stall_cycles");
	CHECK(stall >= dma_c && xstat(ports[0], "rx_q0_emulation_cycles") > 0,
		"local polls: stall %" PRIu64 " (the DMA's %" PRIu64 "), emulation %"
		PRIu64, stall, dma_c, xstat(ports[0], "rx_q0_emulation_cycles"));
	CHECK(xstat(ports[0], "rx_q0_nudma_flushed_lines") == 0,
		"nudma_dma=wait flushed");
	rte_eth_stats_reset(ports[1]);
	CHECK(xstat(ports[1], "rx_q0_nudma_stall_cycles") == 0 &&
		xstat(ports[1], "rx_q0_emulation_cycles") == 0, "reset");
	rte_eth_dev_stop(ports[0]);
	rte_eth_dev_stop(ports[1]);
	nic_remove("net_octonic41");
}

/*
 * The NIC's work for a queue is done for that queue: the bursts of one
 * queue run the engine, which takes the wire's frames for every queue,
 * but write none into the mbufs of another queue; those frames wait,
 * counted in that queue's count, for its own poller, whose burst makes
 * their DMA.  Each queue has a pool of its own (no per-lcore cache, so
 * that what is in use is exact).
 */
static void
test_dma_own_queue(struct rte_mempool *unused __rte_unused)
{
	const uint64_t N = 512;
	struct octo_port_conf o = { .nb_rxq = 2, .nb_txq = 1 };
	struct rte_mempool *qp[2];
	struct rte_mbuf *pkts[BURST];
	uint64_t got[2] = { 0, 0 }, hz = rte_get_tsc_hz(), t0;
	uint16_t port, n;
	int c0;

	qp[0] = rte_pktmbuf_pool_create("own_q0", 2047, 0, 0,
		RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	qp[1] = rte_pktmbuf_pool_create("own_q1", 2047, 0, 0,
		RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	REQUIRE(qp[0] != NULL && qp[1] != NULL, "pools");
	o.rx_pool[0] = qp[0];
	o.rx_pool[1] = qp[1];
	REQUIRE(rte_vdev_init("net_octonic45", "pfs=1,flows=64,gen_limit=512") == 0,
		"probe");
	REQUIRE(pf_port("net_octonic45", 0, &port) == 0, "port");
	REQUIRE(port_start(port, &o) == 0, "start");
	/* queue 1 alone is polled, until every frame was generated */
	t0 = rte_get_tsc_cycles();
	while (rte_get_tsc_cycles() - t0 < 5 * hz &&
			(generated(port) < N || rte_eth_rx_queue_count(port, 1) > 0)) {
		n = rte_eth_rx_burst(port, 1, pkts, BURST);
		got[1] += n;
		rte_pktmbuf_free_bulk(pkts, n);
	}
	c0 = rte_eth_rx_queue_count(port, 0);
	CHECK(got[1] > 0 && c0 > 0 && got[1] + (uint64_t)c0 == N,
		"RSS: queue 1 got %" PRIu64 ", queue 0 holds %d, of %" PRIu64,
		got[1], c0, N);
	CHECK(rte_mempool_in_use_count(qp[0]) == 0 &&
		xstat(port, "rx_q0_dma_packets") == 0,
		"queue 1's poller wrote %u frames into queue 0's mbufs",
		rte_mempool_in_use_count(qp[0]));
	/* queue 0's own bursts make its DMA, every frame it holds */
	while ((n = rte_eth_rx_burst(port, 0, pkts, BURST)) > 0) {
		got[0] += n;
		rte_pktmbuf_free_bulk(pkts, n);
	}
	CHECK(got[0] == (uint64_t)c0 && xstat(port, "rx_q0_dma_packets") == got[0] &&
		xstat(port, "rx_q1_dma_packets") == got[1],
		"queue 0 got %" PRIu64 " of %d, DMA %" PRIu64 " and %" PRIu64,
		got[0], c0, xstat(port, "rx_q0_dma_packets"),
		xstat(port, "rx_q1_dma_packets"));
	rte_eth_dev_stop(port);
	nic_remove("net_octonic45");
	rte_mempool_free(qp[0]);
	rte_mempool_free(qp[1]);
}

/*
 * nudma_dma=flush, the default: a DMA into memory of another socket than
 * the PF's evicts from the caches the frame's lines it wrote, as a write
 * that DDIO does not take into the LLC leaves them (the mbuf's fields are
 * the driver's, not the DMA's: they stay); a local one flushes nothing,
 * and neither busy-waits.
 */
static void
test_nudma_flush(struct rte_mempool *unused __rte_unused)
{
	const uint64_t N = 1024;
	/* PF0 is on socket 0: queue 0's pool is remote, queue 1's local */
	struct octo_port_conf o = { .nb_rxq = 2, .nb_txq = 1,
		.rx_pool = { pool[1], pool[0] } };
	uint64_t cnt[1][MAXQ] = { { 0 } }, remote, lines, lo, hi;
	uint16_t port;

	REQUIRE(rte_vdev_init("net_octonic46",
		"pfs=1,flows=64,gen_limit=1024,pkt_len=200") == 0, "probe");
	REQUIRE(pf_port("net_octonic46", 0, &port) == 0, "port");
	REQUIRE(port_start(port, &o) == 0, "start");
	CHECK(poll_until(&port, 1, 2, N, cnt, NULL, NULL) == N, "all");
	remote = xstat(port, "rx_q0_remote_dma_packets");
	lines = xstat(port, "rx_q0_nudma_flushed_lines");
	/* per frame: the 200 bytes' 4 lines or, unaligned, 5 */
	lo = remote * 4;
	hi = remote * 5;
	CHECK(remote == cnt[0][0] && remote > 0 && lines >= lo && lines <= hi,
		"%" PRIu64 " remote DMA of %" PRIu64 " frames flushed %" PRIu64
		" lines, expected %" PRIu64 "..%" PRIu64, remote, cnt[0][0], lines,
		lo, hi);
	CHECK(cnt[0][1] > 0 && xstat(port, "rx_q1_remote_dma_packets") == 0 &&
		xstat(port, "rx_q1_nudma_flushed_lines") == 0,
		"local DMA flushed %" PRIu64 " lines",
		xstat(port, "rx_q1_nudma_flushed_lines"));
	CHECK(xstat(port, "rx_q0_nudma_stall_cycles") == 0 &&
		xstat(port, "rx_q1_nudma_stall_cycles") == 0, "flush busy-waited");
	rte_eth_stats_reset(port);
	CHECK(xstat(port, "rx_q0_nudma_flushed_lines") == 0, "reset");
	rte_eth_dev_stop(port);
	nic_remove("net_octonic46");
}

/*
 * The Tx DMA is the sender's: a Tx burst reads its frames out of the mbufs
 * before its doorbell and pays there the stall of a remote read
 * (nudma_dma=wait); the engine, run later from another PF's poll, sends
 * what was read then, and charges that poll nothing.  The NIC reads the
 * post milliseconds after its doorbell (a draw within tx_read_ns=20 ms,
 * about 6 ms for this ring's first), so no engine run inside the burst
 * takes it.
 */
static void
test_tx_dma_at_post(struct rte_mempool *unused __rte_unused)
{
	struct octo_port_conf o = { .nb_rxq = 1, .nb_txq = 1 };
	uint64_t hz = rte_get_tsc_hz(), dma_c = 100000 * hz / 1000000000ull, t0;
	struct rte_mbuf *m, *r = NULL;
	uint16_t ports[2];
	uint8_t ref[100];

	REQUIRE(rte_vdev_init("net_octonic47", "pfs=2,wire=loop,nudma_dma=wait,"
		"nudma_dma_ns=100000,tx_read_ns=20000000") == 0, "probe");
	REQUIRE(pf_port("net_octonic47", 0, &ports[0]) == 0 &&
		pf_port("net_octonic47", 1, &ports[1]) == 0, "ports");
	REQUIRE(port_start(ports[0], &o) == 0 && port_start(ports[1], &o) == 0,
		"start");
	/* PF0 is on socket 0, the mbuf on socket 1: a remote read */
	m = udp_frame(pool[1], sizeof(ref), 1);
	REQUIRE(m != NULL, "frame");
	memcpy(ref, rte_pktmbuf_mtod(m, void *), sizeof(ref));
	rte_mbuf_refcnt_update(m, 1);	/* ours after the completion's free */
	REQUIRE(rte_eth_tx_burst(ports[0], 0, &m, 1) == 1, "post");
	CHECK(xstat(ports[0], "tx_q0_remote_dma_packets") == 1 &&
		xstat(ports[0], "tx_q0_nudma_stall_cycles") >= dma_c,
		"the post's burst read %" PRIu64 " frames, stalled %" PRIu64 " cycles",
		xstat(ports[0], "tx_q0_remote_dma_packets"),
		xstat(ports[0], "tx_q0_nudma_stall_cycles"));
	/* a driver leaves a posted mbuf alone; this one shows when it was read */
	memset(rte_pktmbuf_mtod_offset(m, uint8_t *, 60), 0xa5, sizeof(ref) - 60);
	/* PF1's polls run the engine until the frame is back, on either PF */
	t0 = rte_get_tsc_cycles();
	while (rte_get_tsc_cycles() - t0 < 2 * hz &&
			rte_eth_rx_queue_count(ports[0], 0) == 0)
		if (rte_eth_rx_burst(ports[1], 0, &r, 1) == 1)
			break;
	if (r == NULL)
		rte_eth_rx_burst(ports[0], 0, &r, 1);
	CHECK(r != NULL && r->pkt_len == sizeof(ref) &&
		memcmp(rte_pktmbuf_mtod(r, void *), ref, sizeof(ref)) == 0,
		"the wire did not carry what the mbuf held at its post");
	CHECK(xstat(ports[1], "rx_q0_nudma_stall_cycles") == 0,
		"PF1's poll was charged %" PRIu64 " cycles of PF0's Tx DMA",
		xstat(ports[1], "rx_q0_nudma_stall_cycles"));
	rte_pktmbuf_free(r);
	rte_pktmbuf_free(m);
	rte_eth_dev_stop(ports[0]);
	rte_eth_dev_stop(ports[1]);
	nic_remove("net_octonic47");
}

/* Send @p n more frames of the same flows (gen_set restarts the count). */
static void
gen_more(uint16_t port, uint64_t n)
{
	CHECK(octo_gen_limit(port, n) == 0, "gen_set");
	rte_pmd_octonic_gen_enable(port, 1);
}

/*
 * The engine remembers verdicts per flow: the same 64 flows, decided again
 * after each change of the RETA, of the rules and of isolation.
 */
static void
test_flow_cache(struct rte_mempool *unused __rte_unused)
{
	const uint64_t N = 512;
	struct octo_port_conf o = { .nb_rxq = 2, .nb_txq = 1 };
	struct rte_eth_rss_reta_entry64 reta[2];
	uint64_t cnt[1][MAXQ] = { { 0 } };
	struct rte_flow_error err;
	struct rte_flow *f;
	uint16_t port;
	unsigned int i;

	REQUIRE(rte_vdev_init("net_octonic46",
		"pfs=1,flows=64,gen_limit=512,gen_rate=500000") == 0, "probe");
	REQUIRE(pf_port("net_octonic46", 0, &port) == 0, "port");
	REQUIRE(port_start(port, &o) == 0, "start");
	CHECK(poll_until(&port, 1, 2, N, cnt, NULL, NULL) == N, "all");
	CHECK(cnt[0][0] > 0 && cnt[0][1] > 0, "RSS spread 64 flows: %" PRIu64
		"/%" PRIu64, cnt[0][0], cnt[0][1]);
	/* the RETA now sends everything to queue 1 */
	memset(reta, 0, sizeof(reta));
	for (i = 0; i < 128; i++) {
		reta[i / 64].mask |= 1ull << (i % 64);
		reta[i / 64].reta[i % 64] = 1;
	}
	REQUIRE(rte_eth_dev_rss_reta_update(port, reta, 128) == 0, "reta_update");
	memset(cnt, 0, sizeof(cnt));
	gen_more(port, N);
	CHECK(poll_until(&port, 1, 2, N, cnt, NULL, NULL) == N &&
		cnt[0][0] == 0, "after the RETA update: queue 0 got %" PRIu64,
		cnt[0][0]);
	/* a rule sends them to queue 0 */
	f = ingress_to_queue(port, 0, 0, 0, 0, 0, 0);
	REQUIRE(f != NULL, "rule");
	memset(cnt, 0, sizeof(cnt));
	gen_more(port, N);
	CHECK(poll_until(&port, 1, 2, N, cnt, NULL, NULL) == N &&
		cnt[0][1] == 0, "with the rule: queue 1 got %" PRIu64, cnt[0][1]);
	/* without it, RSS again */
	CHECK(rte_flow_destroy(port, f, &err) == 0, "destroy");
	memset(cnt, 0, sizeof(cnt));
	gen_more(port, N);
	CHECK(poll_until(&port, 1, 2, N, cnt, NULL, NULL) == N &&
		cnt[0][0] == 0, "rule gone: queue 0 got %" PRIu64, cnt[0][0]);
	/* isolated, without rules: nothing arrives */
	if (rte_flow_isolate(port, 1, &err) == 0) {
		memset(cnt, 0, sizeof(cnt));
		gen_more(port, N);
		CHECK(poll_until(&port, 1, 2, N, cnt, NULL, NULL) == 0,
			"isolated: %" PRIu64 " received", cnt[0][0] + cnt[0][1]);
		CHECK(xstat(port, "rx_flow_drop_packets") == N, "dropped %" PRIu64,
			xstat(port, "rx_flow_drop_packets"));
	} else {
		CHECK(0, "isolate refused: %s", err.message ? err.message : "?");
	}
	rte_eth_dev_stop(port);
	nic_remove("net_octonic46");
}

/*
 * Latency from the generator to the sink: 64 frames held 2 ms by the
 * application before it sends them back.
 */
static void
test_latency(struct rte_mempool *unused __rte_unused)
{
	struct octo_port_conf o = { .nb_rxq = 1, .nb_txq = 1 };
	struct rte_mbuf *pkts[64];
	uint64_t p50, p99;
	uint16_t port, got = 0;

	REQUIRE(rte_vdev_init("net_octonic45", "pfs=1,flows=8,gen_limit=64") == 0,
		"probe");
	REQUIRE(pf_port("net_octonic45", 0, &port) == 0, "port");
	REQUIRE(port_start(port, &o) == 0, "start");
	CHECK(xstat(port, "wire_latency_p50_ns") == 0, "latency before any frame");
	while (got < 64)
		got += rte_eth_rx_burst(port, 0, pkts + got, 64 - got);
	rte_delay_us_block(2000);
	CHECK(rte_eth_tx_burst(port, 0, pkts, 64) == 64, "tx");
	rte_eth_rx_burst(port, 0, pkts, 1);	/* the engine runs */
	p50 = xstat(port, "wire_latency_p50_ns");
	p99 = xstat(port, "wire_latency_p99_ns");
	/* within the histogram's 1/16; the upper bound only for a sane unit */
	CHECK(p50 >= 2000000 * 15 / 16 && p50 < 1000000000 && p99 >= p50,
		"p50 %" PRIu64 " ns, p99 %" PRIu64 " ns", p50, p99);
	rte_eth_dev_stop(port);
	nic_remove("net_octonic45");
}

/* Telemetry through EAL's socket: /octonic/list and /octonic/info. */
static int
tel_query(int fd, const char *cmd, char *buf, size_t size)
{
	ssize_t n;

	if (write(fd, cmd, strlen(cmd)) < 0)
		return -1;
	n = read(fd, buf, size - 1);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

static void
test_telemetry(struct rte_mempool *unused __rte_unused)
{
	struct octo_port_conf o = { .nb_rxq = 2, .nb_txq = 1,
		.rx_pool = { pool[1], pool[0] } };
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	char buf[16384], cmd[64], want[64];
	uint16_t ports[2];
	int fd;

	REQUIRE(rte_vdev_init("net_octonic42", "pfs=2,gen_limit=300,gen_rate=500000") == 0,
		"probe");
	REQUIRE(pf_port("net_octonic42", 0, &ports[0]) == 0 &&
		pf_port("net_octonic42", 1, &ports[1]) == 0, "ports");
	REQUIRE(port_start(ports[0], &o) == 0, "start");
	poll_until(ports, 1, 2, 300, NULL, NULL, NULL);
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s/dpdk_telemetry.v2",
		rte_eal_get_runtime_dir());
	fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	REQUIRE(fd >= 0, "socket");
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) != 0) {
		printf("SKIP telemetry: no socket at %s\n", sun.sun_path);
		close(fd);
		nic_remove("net_octonic42");
		return;
	}
	REQUIRE(read(fd, buf, sizeof(buf)) > 0, "greeting");
	CHECK(tel_query(fd, "/octonic/list", buf, sizeof(buf)) == 0, "list");
	snprintf(want, sizeof(want), "[%u,%u]", ports[0], ports[1]);
	CHECK(strstr(buf, want) != NULL, "list: %s", buf);
	snprintf(cmd, sizeof(cmd), "/octonic/info,%u", ports[0]);
	CHECK(tel_query(fd, cmd, buf, sizeof(buf)) == 0, "info");
	CHECK(strstr(buf, "\"nic\":\"net_octonic42\"") != NULL &&
		strstr(buf, "\"nb_pfs\":2") != NULL &&
		strstr(buf, "\"generated\":300") != NULL &&
		strstr(buf, "\"rx_q0\":{\"remote_dma_packets\":") != NULL &&
		strstr(buf, "\"rx_q1\":{\"remote_dma_packets\":0,") != NULL &&
		strstr(buf, "\"emulation_cycles\":") != NULL &&
		strstr(buf, "\"nudma_stall_cycles\":0") != NULL &&
		strstr(buf, "\"tsc_hz\":") != NULL,
		"info: %s", buf);
	close(fd);
	rte_eth_dev_stop(ports[0]);
	nic_remove("net_octonic42");
}

/* Generated flows forwarded back reach the sink in order; a held-back
 * packet is seen out of order. */
static void
test_sink_order(struct rte_mempool *unused __rte_unused)
{
	const uint64_t N = 1000;
	struct octo_port_conf o = { .nb_rxq = 1, .nb_txq = 1 };
	struct rte_pmd_octonic_sink_stats ss;
	struct rte_mbuf *pkts[BURST], *held = NULL;
	uint64_t got = 0, end = rte_get_tsc_cycles() + rte_get_tsc_hz();
	uint16_t port, n, sent;

	REQUIRE(rte_vdev_init("net_octonic43",
		"pfs=1,flows=16,gen_limit=1000,gen_rate=200000") == 0, "probe");
	REQUIRE(pf_port("net_octonic43", 0, &port) == 0, "port");
	REQUIRE(port_start(port, &o) == 0, "start");
	while (got < N && rte_get_tsc_cycles() < end) {
		n = rte_eth_rx_burst(port, 0, pkts, BURST);
		if (n == 0)
			continue;
		got += n;
		if (held == NULL && got > N / 2) {
			/* keep one back: it reaches the wire after its successors */
			held = pkts[--n];
		}
		sent = rte_eth_tx_burst(port, 0, pkts, n);
		CHECK(sent == n, "tx refused %u", n - sent);
	}
	CHECK(got == N, "received %" PRIu64, got);
	REQUIRE(held != NULL, "held one");
	CHECK(rte_pmd_octonic_sink_stats_get(port, &ss) == 0, "sink");
	CHECK(ss.pkts == N - 1 && ss.in_order == N - 1 && ss.out_of_order == 0 &&
		ss.duplicates == 0 && ss.foreign == 0 && ss.lost == 1,
		"before: pkts %" PRIu64 " in order %" PRIu64 " ooo %" PRIu64
		" lost %" PRIu64, ss.pkts, ss.in_order, ss.out_of_order, ss.lost);
	CHECK(rte_eth_tx_burst(port, 0, &held, 1) == 1, "tx held");
	rte_eth_rx_burst(port, 0, pkts, BURST);	/* the engine runs */
	CHECK(rte_pmd_octonic_sink_stats_get(port, &ss) == 0 && ss.pkts == N &&
		ss.out_of_order == 1 && ss.lost == 0,
		"after: ooo %" PRIu64 " lost %" PRIu64, ss.out_of_order, ss.lost);
	rte_eth_dev_stop(port);
	nic_remove("net_octonic43");
}

/* Two lcores poll two PFs at once: the engine runs on whichever wins the
 * trylock; a transfer rule on the source address's low bit splits flows. */
struct parity_poller {
	uint16_t port;
	uint32_t want_bit;
	volatile int stop;
	uint64_t got, bad;
};

static void
check_parity(struct parity_poller *pp, struct rte_mbuf *m)
{
	const struct rte_ipv4_hdr *ip = rte_pktmbuf_mtod_offset(m,
		const struct rte_ipv4_hdr *, sizeof(struct rte_ether_hdr));

	if ((rte_be_to_cpu_32(ip->src_addr) & 1) != pp->want_bit)
		pp->bad++;
}

static void
parity_poll_once(struct parity_poller *pp)
{
	struct rte_mbuf *pkts[BURST];
	uint16_t n, i, q;

	for (q = 0; q < 2; q++) {
		n = rte_eth_rx_burst(pp->port, q, pkts, BURST);
		for (i = 0; i < n; i++) {
			check_parity(pp, pkts[i]);
			rte_pktmbuf_free(pkts[i]);
		}
		pp->got += n;
	}
}

static int
parity_main(void *arg)
{
	struct parity_poller *pp = arg;

	while (!pp->stop)
		parity_poll_once(pp);
	return 0;
}

static void
test_two_pollers(struct rte_mempool *unused __rte_unused)
{
	const uint64_t N = 20000;
	struct octo_port_conf o = { .nb_rxq = 2, .nb_txq = 1 };
	struct parity_poller p0 = { .want_bit = 0 }, p1 = { .want_bit = 1 };
	struct rte_flow_attr attr = { .transfer = 1 };
	struct rte_flow_item_ipv4 spec = { .hdr.src_addr = RTE_BE32(1) };
	struct rte_flow_item_ipv4 mask = { .hdr.src_addr = RTE_BE32(1) };
	struct rte_flow_item pattern[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4, .spec = &spec, .mask = &mask },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_action_ethdev rp;
	struct rte_flow_action actions[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT, .conf = &rp },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_error err;
	struct rte_eth_stats s0, s1;
	uint64_t end;
	uint16_t ports[2];
	unsigned int lcore, i;

	lcore = rte_get_next_lcore(-1, 1, 0);
	REQUIRE(lcore < RTE_MAX_LCORE, "needs a worker lcore");
	/* 200 kpps: a PF's two 1024-descriptor rings then hold 20 ms of
	 * its traffic while its poller is off the CPU (a busy host, a
	 * sanitizer build), which at 2 Mpps cost half its packets */
	REQUIRE(rte_vdev_init("net_octonic44",
		"pfs=2,flows=64,gen_limit=20000,gen_rate=200000") == 0, "probe");
	REQUIRE(pf_port("net_octonic44", 0, &ports[0]) == 0 &&
		pf_port("net_octonic44", 1, &ports[1]) == 0, "ports");
	REQUIRE(port_start(ports[0], &o) == 0 && port_start(ports[1], &o) == 0,
		"start");
	rp.port_id = ports[1];
	REQUIRE(rte_flow_create(ports[0], &attr, pattern, actions, &err) != NULL,
		"odd sources to PF1: %s", err.message ? err.message : "?");
	p0.port = ports[0];
	p1.port = ports[1];
	rte_eal_remote_launch(parity_main, &p1, lcore);
	end = rte_get_tsc_cycles() + 3 * rte_get_tsc_hz();
	while (generated(ports[0]) < N && rte_get_tsc_cycles() < end)
		parity_poll_once(&p0);
	/* drain what is still in the rings: until every frame is received
	 * or counted missed, for up to 3 s (a poller off the CPU for a
	 * while only makes this longer)
	 */
	end = rte_get_tsc_cycles() + 3 * rte_get_tsc_hz();
	do {
		for (i = 0; i < 64; i++)
			parity_poll_once(&p0);
		rte_eth_stats_get(ports[0], &s0);
		rte_eth_stats_get(ports[1], &s1);
	} while (p0.got + *(volatile uint64_t *)&p1.got + s0.imissed +
			s1.imissed < N && rte_get_tsc_cycles() < end);
	p1.stop = 1;
	rte_eal_wait_lcore(lcore);
	rte_eth_stats_get(ports[0], &s0);
	rte_eth_stats_get(ports[1], &s1);
	printf("two pollers: PF0 %" PRIu64 " (+%" PRIu64 " missed), PF1 %" PRIu64
		" (+%" PRIu64 " missed)\n", p0.got, s0.imissed, p1.got, s1.imissed);
	CHECK(generated(ports[0]) == N, "generated %" PRIu64, generated(ports[0]));
	CHECK(p0.bad == 0 && p1.bad == 0, "wrong PF: %" PRIu64 " / %" PRIu64,
		p0.bad, p1.bad);
	CHECK(p0.got > N / 4 && p1.got > N / 4, "both PFs served");
	CHECK(p0.got + p1.got + s0.imissed + s1.imissed == N,
		"accounted %" PRIu64 " of %" PRIu64,
		p0.got + p1.got + s0.imissed + s1.imissed, N);
	rte_eth_dev_stop(ports[0]);
	rte_eth_dev_stop(ports[1]);
	nic_remove("net_octonic44");
}

/*
 * The paced generator across a pause of every poller (a host that takes
 * the CPU away): one PF with one Rx queue of @p nb_desc, its frames sent
 * back to the wire's sink.  Polls until a quarter of @p n were forwarded,
 * empties the ring, polls nothing for @p pause_ms, then polls until all
 * @p n were generated and forwarded.
 */
struct gen_pause {
	const char *nic;
	uint64_t rate;			/* gen_rate */
	uint64_t n;			/* gen_limit */
	uint16_t nb_desc;
	unsigned int pause_ms;
	const char *gen_pause;		/* gen_pause= */
	/* results */
	uint64_t due;			/* frames due in the pause, by the TSC */
	uint64_t gen_after;		/* generated after the pause began */
	uint64_t offered_max;		/* most the schedule offered since then */
	uint64_t overflow;		/* wire_gen_overflow_packets since then */
	uint64_t overflow_before;	/* ... before */
	uint64_t overflow_first;	/* ... by the first pass after it */
	uint64_t due_first_max;		/* most due by then since the last pass */
	uint64_t fwd;			/* received and sent back */
	uint64_t p99_ns;		/* wire_latency_p99_ns */
	struct rte_eth_stats st;
	struct rte_pmd_octonic_sink_stats ss;
};

/* One burst received and sent back; returns how many. */
static uint16_t
fwd_once(uint16_t port)
{
	struct rte_mbuf *pkts[2 * BURST];
	uint16_t n, sent;

	/* up to two engine passes' worth: the ring empties as it fills */
	n = rte_eth_rx_burst(port, 0, pkts, RTE_DIM(pkts));
	if (n == 0)
		return 0;
	sent = rte_eth_tx_burst(port, 0, pkts, n);
	CHECK(sent == n, "tx refused %u", n - sent);
	if (sent < n)
		rte_pktmbuf_free_bulk(pkts + sent, n - sent);
	return n;
}

static void
gen_pause_run(struct gen_pause *g)
{
	struct octo_port_conf o = { .nb_rxq = 1, .nb_txq = 1,
		.nb_desc = g->nb_desc, .socket = OCTO_SOCKET_OF_PORT };
	char args[128];
	uint64_t hz = rte_get_tsc_hz(), t0, ta, tb, last, gen_before;
	uint16_t port, n;

	snprintf(args, sizeof(args), "pfs=1,flows=16,gen_limit=%" PRIu64
		",gen_rate=%" PRIu64 ",gen_pause=%s", g->n, g->rate, g->gen_pause);
	REQUIRE(rte_vdev_init(g->nic, args) == 0, "probe");
	REQUIRE(pf_port(g->nic, 0, &port) == 0, "port");
	o.pool = pool[rte_eth_dev_socket_id(port) & 1];
	REQUIRE(octo_port_start(port, &o) == 0, "start");
	last = rte_get_tsc_cycles();
	while (g->fwd < g->n / 4 && rte_get_tsc_cycles() - last < hz)
		g->fwd += fwd_once(port);
	/* a burst that returns nothing found the ring empty after its pass,
	 * which made no frame: none was due
	 */
	do {
		t0 = rte_get_tsc_cycles();
		n = fwd_once(port);
		g->fwd += n;
	} while (n > 0);
	ta = rte_get_tsc_cycles();
	gen_before = generated(port);
	g->overflow_before = xstat(port, "wire_gen_overflow_packets");
	rte_delay_us_sleep(g->pause_ms * 1000);
	tb = rte_get_tsc_cycles();
	g->due = (tb - ta) * g->rate / hz;
	/* the first pass after the pause finds what came due in it */
	g->fwd += fwd_once(port);
	g->due_first_max = (rte_get_tsc_cycles() - t0) * g->rate / hz + 2;
	g->overflow_first = xstat(port, "wire_gen_overflow_packets") -
		g->overflow_before;
	/* until every frame is forwarded, or nothing came for 200 ms */
	last = rte_get_tsc_cycles();
	while ((g->fwd < g->n || generated(port) < g->n) &&
			rte_get_tsc_cycles() - last < hz / 5) {
		n = fwd_once(port);
		if (n > 0)
			last = rte_get_tsc_cycles();
		g->fwd += n;
	}
	/* Rx bursts run the engine, which takes the last Tx posts */
	last = rte_get_tsc_cycles();
	do {
		fwd_once(port);
		CHECK(rte_pmd_octonic_sink_stats_get(port, &g->ss) == 0, "sink");
	} while (g->ss.pkts < g->fwd && rte_get_tsc_cycles() - last < hz / 5);
	g->gen_after = generated(port) - gen_before;
	/* the last pass before the pause found nothing due, after t0: the
	 * schedule offered since then at most what falls due from t0 on
	 */
	g->offered_max = (rte_get_tsc_cycles() - t0) * g->rate / hz + 2;
	g->overflow = xstat(port, "wire_gen_overflow_packets") - g->overflow_before;
	g->p99_ns = xstat(port, "wire_latency_p99_ns");
	rte_eth_stats_get(port, &g->st);
	printf("%s: %u ms pause, %" PRIu64 " frames due in it, %" PRIu64
		" generated, %" PRIu64 " forwarded, sink %" PRIu64 " (lost %"
		PRIu64 "), gen_overflow %" PRIu64 " (+%" PRIu64 " before), imissed %"
		PRIu64 ", p99 %" PRIu64 " ns\n", g->nic, g->pause_ms, g->due,
		generated(port), g->fwd, g->ss.pkts, g->ss.lost, g->overflow,
		g->overflow_before, g->st.imissed, g->p99_ns);
	/* every frame generated reached the sink, in its flow's order */
	CHECK(generated(port) == g->n && g->fwd == g->n, "generated %" PRIu64
		", forwarded %" PRIu64 " of %" PRIu64, generated(port), g->fwd, g->n);
	CHECK(g->ss.pkts == g->n && g->ss.in_order == g->n && g->ss.lost == 0 &&
		g->ss.out_of_order == 0 && g->ss.duplicates == 0,
		"sink: %" PRIu64 " in order of %" PRIu64 ", lost %" PRIu64,
		g->ss.in_order, g->ss.pkts, g->ss.lost);
	CHECK(g->st.rx_nombuf == 0 && g->st.oerrors == 0 && g->st.ierrors == 0,
		"nombuf %" PRIu64 ", oerrors %" PRIu64, g->st.rx_nombuf,
		g->st.oerrors);
	rte_eth_dev_stop(port);
	nic_remove(g->nic);
}

/*
 * More than 256 frames come due while nobody polls, fewer than the ring
 * holds: the generator makes them all up, as a NIC's ring takes them
 * while the host is away, and their latency counts the wait.
 */
static void
test_gen_catchup(struct rte_mempool *unused __rte_unused)
{
	struct gen_pause g = { .nic = "net_octonic48", .rate = 50000,
		.n = 3000, .nb_desc = 4096, .pause_ms = 10, .gen_pause = "owe" };

	gen_pause_run(&g);
	REQUIRE(g.due > 256 && g.due < g.nb_desc,
		"%" PRIu64 " frames due in the pause: not in (256, %u)", g.due,
		g.nb_desc);
	CHECK(g.overflow == 0 && g.overflow_before == 0 && g.st.imissed == 0,
		"gen_overflow %" PRIu64 " + %" PRIu64 ", imissed %" PRIu64,
		g.overflow, g.overflow_before, g.st.imissed);
	/* the last 1 % of the frames due in the pause waited most of it */
	CHECK(g.p99_ns >= g.pause_ms * 1000000ull / 2, "p99 %" PRIu64 " ns",
		g.p99_ns);
}

/*
 * More come due in the pause than the ring holds: the ring's room is
 * made up, the rest counted as the generator's overflow, and nothing
 * else is lost.
 */
static void
test_gen_overflow(struct rte_mempool *unused __rte_unused)
{
	struct gen_pause g = { .nic = "net_octonic49", .rate = 100000,
		.n = 4000, .nb_desc = 1024, .pause_ms = 40, .gen_pause = "owe" };

	gen_pause_run(&g);
	REQUIRE(g.due > g.nb_desc + 256u, "%" PRIu64 " frames due in the pause",
		g.due);
	/* the first pass after the pause owes the ring's room, no less, no
	 * more: the rest came due beyond it
	 */
	CHECK(g.overflow_first + 2 >= g.due - g.nb_desc &&
		g.overflow_first + g.nb_desc <= g.due_first_max,
		"gen_overflow %" PRIu64 " of %" PRIu64 "-%" PRIu64
		" due beyond the ring's %u", g.overflow_first, g.due,
		g.due_first_max, g.nb_desc);
	CHECK(g.gen_after + g.overflow <= g.offered_max,
		"generated %" PRIu64 " + overflow %" PRIu64 " > offered %" PRIu64,
		g.gen_after, g.overflow, g.offered_max);
	CHECK(g.st.imissed == 0, "imissed %" PRIu64, g.st.imissed);
}

/*
 * The default, gen_pause=skip: of what came due in the pause, the first
 * pass owes 256 frames, as a tester paused with the host; the rest is
 * never generated, so a ring with room for all of it misses nothing and
 * the sink sees no gap.
 */
static void
test_gen_skip(struct rte_mempool *unused __rte_unused)
{
	struct gen_pause g = { .nic = "net_octonic50", .rate = 100000,
		.n = 4000, .nb_desc = 4096, .pause_ms = 20, .gen_pause = "skip" };

	gen_pause_run(&g);
	REQUIRE(g.due > 2 * 256, "%" PRIu64 " frames due in the pause", g.due);
	CHECK(g.overflow_first + 256 + 2 >= g.due &&
		g.overflow_first + 256 <= g.due_first_max,
		"gen_overflow %" PRIu64 " of %" PRIu64 "-%" PRIu64 " due, 256 owed",
		g.overflow_first, g.due, g.due_first_max);
	CHECK(g.st.imissed == 0, "imissed %" PRIu64, g.st.imissed);
}

static const struct octo_case tests[] = {
	{ "ports", test_ports },
	{ "bad_devargs", test_bad_devargs },
	{ "steer", test_steer },
	{ "meta", test_meta },
	{ "rss", test_rss },
	{ "concurrent", test_concurrent },
	{ "locality", test_locality },
	{ "cksum_loop", test_cksum_loop },
	{ "unplug", test_unplug },
	{ "queue_not_started", test_queue_not_started },
	{ "nombuf", test_nombuf },
	{ "wire_ethdev", test_wire_ethdev },
	{ "control", test_control },
	{ "nudma", test_nudma },
	{ "dma_own_queue", test_dma_own_queue },
	{ "nudma_flush", test_nudma_flush },
	{ "tx_dma_at_post", test_tx_dma_at_post },
	{ "flow_cache", test_flow_cache },
	{ "latency", test_latency },
	{ "telemetry", test_telemetry },
	{ "sink_order", test_sink_order },
	{ "two_pollers", test_two_pollers },
	{ "gen_catchup", test_gen_catchup },
	{ "gen_skip", test_gen_skip },
	{ "gen_overflow", test_gen_overflow },
};

int
main(int argc, char **argv)
{
	if (octo_eal_init_args(&argc, &argv, 512) < 0)
		return 1;
	if (rte_socket_count() < 2) {
		printf("needs 2 sockets (run under octopus-numa-emu --nodes 2)\n");
		return 1;
	}
	pool[0] = octo_app_pool("pool_s0", 8191, 0);
	pool[1] = octo_app_pool("pool_s1", 8191, 1);
	if (pool[0] == NULL || pool[1] == NULL || pool[1]->socket_id != 1) {
		printf("cannot create the pools\n");
		return 1;
	}
	/* the cases use the pools of both sockets above */
	if (octo_cases_run(tests, RTE_DIM(tests), argv + 1, argc - 1, argv[0], NULL) < 0)
		return 1;
	rte_mempool_free(pool[0]);
	rte_mempool_free(pool[1]);
	rte_eal_cleanup();
	return octo_check_verdict(argv[0]);
}
