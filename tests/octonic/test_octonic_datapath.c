/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * net_octonic's datapath realism (octonic.rst "Datapath"), through ethdev: Rx
 * bursts in steps, short with completions pending at the ring end and when
 * the pool runs dry, the NIC writing only into posted buffers,
 * rx_queue_count as mlx5 counts, Tx completions every N descriptors and no
 * tx_done_cleanup; and that none of it loses or reorders a frame.
 *   octopus-numa-emu --nodes 2 -- test_octonic_datapath -m 512 --no-pci \
 *     --lcores '0@0,1@1' --file-prefix X -- <case>
 * Every count below follows from mlx5's rules (octonic_desc.c): the
 * generator stops at a limit, and the engine only runs inside bursts, so
 * each scenario is deterministic.
 */

#include <stdio.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include <rte_pmd_octonic.h>
#include "../common/octo_cases.h"
#include "../common/octo_check.h"
#include "../common/octo_port.h"
#include "../common/octo_state.h"

#define BURST 64

static struct rte_mempool *pool;

static uint16_t
pf_port(const char *nic, unsigned int pf)
{
	char name[RTE_ETH_NAME_MAX_LEN];

	snprintf(name, sizeof(name), "%s_pf%u", nic, pf);
	return port_of(name);
}

/* One PF, one queue each way of @p nb_desc descriptors from @p mp. */
static int
start1(uint16_t port, uint16_t nb_desc, struct rte_mempool *mp,
		uint64_t rx_offloads)
{
	struct octo_port_conf c = {
		.nb_desc = nb_desc, .pool = mp, .socket = OCTO_SOCKET_OF_PORT,
		.rx_offloads = rx_offloads,
	};

	return octo_port_start(port, &c);
}

/* A burst of 0 frames: the engine runs, nothing is taken. */
static void
pump(uint16_t port)
{
	struct rte_mbuf *none[1];

	rte_eth_rx_burst(port, 0, none, 0);
}

/* Engine runs once the NIC has read every post (tx_read_ns: mlx5-hws's
 * 2 us, far below this wait). */
static void
pump_read(uint16_t port)
{
	rte_delay_us_block(100);
	pump(port);
}

static int
count(uint16_t port)
{
	return rte_eth_rx_queue_count(port, 0);
}

/* Run the engine until the generator made @p gen frames (its limit). */
static void
generate(uint16_t port, uint64_t gen)
{
	uint64_t end = rte_get_tsc_cycles() + rte_get_tsc_hz(), g = 0;

	while (g < gen && rte_get_tsc_cycles() < end) {
		pump(port);
		rte_pmd_octonic_gen_count(port, &g);
	}
	pump(port);	/* the last frames made are delivered in the same run */
}

/* Let the generator make @p n more frames (it restarts its flows). */
static void
gen_more(uint16_t port, uint64_t n)
{
	CHECK(octo_gen_limit(port, n) == 0, "gen_set");
	generate(port, n);
}

/*
 * PF 0 of NIC @p nic probed with @p args, started with one queue each way
 * of @p nb_desc descriptors from @p mp, @p gen frames generated (its
 * limit); RTE_MAX_ETHPORTS, the failure CHECKed, if it could not be.
 */
static uint16_t
pf0_up(const char *nic, const char *args, uint16_t nb_desc, struct rte_mempool *mp,
		uint64_t gen)
{
	uint16_t port;

	REQUIRE_OR(RTE_MAX_ETHPORTS, rte_vdev_init(nic, args) == 0, "probe %s", args);
	port = pf_port(nic, 0);
	REQUIRE_OR(RTE_MAX_ETHPORTS, start1(port, nb_desc, mp, 0) == 0, "start");
	generate(port, gen);
	return port;
}

/* The end of pf0_up(): the port stopped, the NIC removed. */
static void
pf0_down(const char *nic, uint16_t port)
{
	rte_eth_dev_stop(port);
	rte_vdev_uninit(nic);
}

static uint16_t
rx(uint16_t port, struct rte_mbuf **held, uint16_t n)
{
	return rte_eth_rx_burst(port, 0, held, n);
}

static void
drop(struct rte_mbuf **m, uint16_t n)
{
	rte_pktmbuf_free_bulk(m, n);
}

/* Up to @p n frames received from @p port and freed: how many came. */
static uint16_t
take(uint16_t port, uint16_t n)
{
	struct rte_mbuf *m[BURST];
	uint16_t got = rx(port, m, RTE_MIN(n, (uint16_t)BURST));

	drop(m, got);
	return got;
}

static uint64_t
imissed(uint16_t port)
{
	struct rte_eth_stats st;

	rte_eth_stats_get(port, &st);
	return st.imissed;
}

/* A request below the step returns nothing while frames wait; a larger
 * one is rounded down to the step; a partial last group comes back. */
static void
steps(const char *nic, const char *args)
{
	uint16_t port = pf0_up(nic, args, 512, pool, 10), n;

	if (port == RTE_MAX_ETHPORTS)
		return;
	CHECK(count(port) == 10, "%s: 10 waiting, count %d", args, count(port));
	for (n = 1; n <= 3; n++)
		CHECK(take(port, n) == 0, "%s: a request of %u took frames", args, n);
	CHECK(count(port) == 10, "%s: short bursts are not an empty ring: %d",
		args, count(port));
	n = take(port, 6);
	CHECK(n == 4, "%s: a request of 6 took %u, not 4", args, n);
	n = take(port, 32);
	CHECK(n == 6, "%s: the 6 left, took %u", args, n);
	CHECK(count(port) == 0 && take(port, 32) == 0, "%s: empty", args);
	pf0_down(nic, port);
}

static void
test_rx_step(struct rte_mempool *unused __rte_unused)
{
	struct rte_pmd_octonic_datapath dp;
	uint16_t port;

	/* in any dialect, on either ring */
	steps("net_octonic60", "pfs=1,rx_step=4,gen_limit=10");
	steps("net_octonic61", "pfs=1,rx_step=4,rx_ring=mlx5,gen_limit=10");
	/* mlx5-hws: on by default */
	steps("net_octonic62", "pfs=1,dialect=mlx5-hws,gen_limit=10");
	/* and off when asked */
	REQUIRE(rte_vdev_init("net_octonic63",
		"pfs=1,dialect=mlx5-hws,rx_step=1,rx_ring=plain,gen_limit=10") == 0,
		"probe");
	port = pf_port("net_octonic63", 0);
	CHECK(rte_pmd_octonic_datapath_get(port, &dp) == 0 && dp.rx_step == 1 &&
		!dp.rx_ring_mlx5 && dp.tx_comp_every == 32 && !dp.tx_cleanup,
		"datapath of the explicit mlx5-hws");
	REQUIRE(start1(port, 512, pool, 0) == 0, "start");
	generate(port, 10);
	CHECK(take(port, 1) == 1, "rx_step=1: a request of 1 takes one");
	pf0_down("net_octonic63", port);
}

/* The rx_burst_max fault caps what a burst returns, after the step: a
 * request below the step still returns nothing, one above it at most the
 * cap, on either ring. */
static void
cap(const char *nic, const char *args)
{
	uint16_t port = pf0_up(nic, args, 512, pool, 10), n;

	if (port == RTE_MAX_ETHPORTS)
		return;
	CHECK(rte_pmd_octonic_rx_burst_max(port, 1) == 0, "burst max");
	CHECK(take(port, 3) == 0, "%s: below the step", args);
	n = take(port, 8);
	CHECK(n == 1 && count(port) == 9, "%s: capped at 1: %u, %d left", args,
		n, count(port));
	CHECK(rte_pmd_octonic_rx_burst_max(port, 0) == 0, "no cap");
	n = take(port, 32);
	CHECK(n == 9, "%s: the rest: %u", args, n);
	pf0_down(nic, port);
}

static void
test_rx_cap(struct rte_mempool *unused __rte_unused)
{
	cap("net_octonic72", "pfs=1,rx_step=4,gen_limit=10");
	cap("net_octonic73", "pfs=1,dialect=mlx5-hws,gen_limit=10");
}

/*
 * mlx5's ring of 64: passes of at most 64, the step applied again past the
 * wrap point.  Positions: 32 then 30 taken (a partial group), so 2 slots
 * are left before the end; 8 frames then come back as 2 + 4.
 */
static void
test_rx_ring_end(struct rte_mempool *unused __rte_unused)
{
	struct rte_eth_rxq_info qi;
	uint16_t port, n;

	REQUIRE(rte_vdev_init("net_octonic64",
		"pfs=1,rx_step=4,rx_ring=mlx5,gen_limit=62") == 0, "probe");
	port = pf_port("net_octonic64", 0);
	/* 60 descriptors asked: mlx5 rounds up to 64 */
	REQUIRE(start1(port, 60, pool, 0) == 0, "start");
	CHECK(rte_eth_rx_queue_info_get(port, 0, &qi) == 0 && qi.nb_desc == 64,
		"ring of %u", qi.nb_desc);
	generate(port, 62);
	CHECK(count(port) == 62, "62 waiting: %d", count(port));
	n = take(port, 32);
	CHECK(n == 32, "first 32: %u", n);
	n = take(port, 32);
	CHECK(n == 30, "the 30 left: %u", n);
	gen_more(port, 8);
	CHECK(count(port) == 8, "8 waiting: %d", count(port));
	n = take(port, 8);
	CHECK(n == 6, "across the ring end a request of 8 takes 2 + 4, took %u", n);
	CHECK(count(port) == 2, "2 left pending: %d", count(port));
	CHECK(rte_eth_rx_descriptor_status(port, 0, 1) == RTE_ETH_RX_DESC_DONE &&
		rte_eth_rx_descriptor_status(port, 0, 2) == RTE_ETH_RX_DESC_AVAIL &&
		rte_eth_rx_descriptor_status(port, 0, 64) == -EINVAL,
		"descriptor status agrees with the count");
	n = take(port, 8);
	CHECK(n == 2, "then the 2: %u", n);
	CHECK(imissed(port) == 0, "nothing dropped: %" PRIu64, imissed(port));
	pf0_down("net_octonic64", port);
}

/*
 * The NIC writes only into buffers the driver posted: all 64 at start,
 * again once 16 (ring / 4) are free, 4 kept back (mlx5's replenish).
 */
static void
test_rx_posted(struct rte_mempool *unused __rte_unused)
{
	uint16_t port, n;

	port = pf0_up("net_octonic65", "pfs=1,rx_step=4,rx_ring=mlx5,gen_limit=70", 64, pool, 70);
	if (port == RTE_MAX_ETHPORTS)
		return;
	CHECK(count(port) == 64 && imissed(port) == 6,
		"64 buffers: %d written, %" PRIu64 " out of buffer", count(port),
		imissed(port));
	/* 8 taken: below the threshold nothing is posted again */
	n = take(port, 8);
	CHECK(n == 8, "took %u", n);
	gen_more(port, 10);
	CHECK(count(port) == 56 && imissed(port) == 16,
		"no buffer posted yet: %d waiting, %" PRIu64 " dropped",
		count(port), imissed(port));
	n = take(port, 16);
	CHECK(n == 16, "took %u", n);
	/* 24 free now: the next burst posts 20 of them first */
	n = take(port, 4);
	CHECK(n == 4, "took %u", n);
	gen_more(port, 24);
	CHECK(count(port) == 36 + 20 && imissed(port) == 16 + 4,
		"20 posted again: %d waiting, %" PRIu64 " dropped", count(port),
		imissed(port));
	pf0_down("net_octonic65", port);
}

/*
 * A dry pool: the driver cannot post again (rx_nombuf), the NIC fills the
 * few buffers still posted, and a burst returns nothing while they wait,
 * until the pool has buffers again.
 */
static void
test_rx_nombuf(struct rte_mempool *unused __rte_unused)
{
	struct rte_mempool *mp;
	struct rte_mbuf *held[BURST];
	struct rte_eth_stats st;
	uint16_t port, n;

	/* 64 for the ring at start, 16 more */
	mp = rte_pktmbuf_pool_create("dp_small", 80, 0, 0,
		RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	REQUIRE(mp != NULL, "pool");
	port = pf0_up("net_octonic66", "pfs=1,dialect=mlx5-hws,gen_limit=61", 64, mp, 61);
	if (port == RTE_MAX_ETHPORTS)
		return;
	n = rx(port, held, 64);
	CHECK(n == 61, "took %u of 61", n);
	rte_eth_stats_get(port, &st);
	CHECK(st.rx_nombuf > 0, "posting again found the pool dry");
	/* 3 buffers are still posted: 3 frames are written, 2 dropped */
	gen_more(port, 5);
	CHECK(count(port) == 3 && imissed(port) == 2,
		"%d waiting, %" PRIu64 " out of buffer", count(port), imissed(port));
	CHECK(take(port, 32) == 0, "a burst takes nothing while the pool is dry");
	CHECK(count(port) == 3, "and the 3 still wait: %d", count(port));
	drop(held, 61);
	n = take(port, 32);
	CHECK(n == 3, "the pool refilled: the 3 come, %u", n);
	pf0_down("net_octonic66", port);
	rte_mempool_free(mp);
}

/*
 * rx_ring=mlx5 at start: a pool that cannot fill the ring fails the
 * start, as mlx5's queue start does.
 */
static void
test_rx_start(struct rte_mempool *unused __rte_unused)
{
	struct rte_mempool *mp;
	uint16_t port;

	mp = rte_pktmbuf_pool_create("dp_tiny", 63, 0, 0,
		RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	REQUIRE(mp != NULL, "pool");
	REQUIRE(rte_vdev_init("net_octonic67", "pfs=1,dialect=mlx5-hws") == 0,
		"probe");
	port = pf_port("net_octonic67", 0);
	CHECK(start1(port, 64, mp, 0) == -ENOMEM, "63 buffers for 64 descriptors");
	CHECK(rte_mempool_avail_count(mp) == 63, "the buffers taken went back");
	CHECK(start1(port, 32, mp, 0) == 0, "32 descriptors");
	CHECK(rte_mempool_avail_count(mp) == 31, "32 posted");
	rte_eth_dev_stop(port);
	CHECK(rte_mempool_avail_count(mp) == 63, "stop frees them");
	rte_vdev_uninit("net_octonic67");
	rte_mempool_free(mp);
}

static uint8_t
rxq_state(uint16_t port)
{
	struct rte_eth_rxq_info qi;

	memset(&qi, 0, sizeof(qi));
	if (rte_eth_rx_queue_info_get(port, 0, &qi) != 0)
		return UINT8_MAX;
	return qi.queue_state;
}

/*
 * rx_ring=mlx5 and queue start/stop, as mlx5_rxq.c and mlx5_trigger.c do:
 * rx_deferred_start is taken and ignored (dev_start starts and fills every
 * queue); stop is refused under the vector burst (rx_step=4); under the
 * scalar one (rx_step=1) it frees the ring and drops what was written and
 * not taken; start fills the ring again, and a pool short of a ring
 * fails it with the queue left stopped and nothing taken.
 */
static void
test_rx_queue_ctl(struct rte_mempool *unused __rte_unused)
{
	struct octo_port_conf c = {
		.nb_desc = 64, .socket = OCTO_SOCKET_OF_PORT, .deferred_rxq = { 1 },
	};
	struct rte_mbuf *held[BURST];
	struct rte_mempool *mp;
	uint16_t port, n;

	mp = rte_pktmbuf_pool_create("dp_ctl", 127, 0, 0,
		RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	REQUIRE(mp != NULL, "pool");
	c.pool = mp;
	REQUIRE(rte_vdev_init("net_octonic90", "pfs=1,dialect=mlx5-hws,gen_limit=8") == 0,
		"probe");
	port = pf_port("net_octonic90", 0);
	REQUIRE(octo_port_start(port, &c) == 0, "start");
	CHECK(rxq_state(port) == RTE_ETH_QUEUE_STATE_STARTED,
		"a deferred queue started with the port: state %u", rxq_state(port));
	CHECK(rte_mempool_avail_count(mp) == 127 - 64, "its ring filled: %u free",
		rte_mempool_avail_count(mp));
	CHECK(rte_eth_dev_rx_queue_stop(port, 0) == -EINVAL,
		"stop refused under the vector burst");
	CHECK(rxq_state(port) == RTE_ETH_QUEUE_STATE_STARTED &&
		rte_mempool_avail_count(mp) == 127 - 64, "and the queue kept");
	generate(port, 8);
	n = take(port, 32);
	CHECK(n == 8, "the queue still receives: %u of 8", n);
	pf0_down("net_octonic90", port);

	REQUIRE(rte_vdev_init("net_octonic91",
		"pfs=1,dialect=mlx5-hws,rx_step=1,gen_limit=8") == 0, "probe scalar");
	port = pf_port("net_octonic91", 0);
	REQUIRE(octo_port_start(port, &c) == 0, "start scalar");
	CHECK(rxq_state(port) == RTE_ETH_QUEUE_STATE_STARTED &&
		rte_mempool_avail_count(mp) == 127 - 64,
		"scalar: deferred ignored too, %u free", rte_mempool_avail_count(mp));
	generate(port, 8);
	CHECK(count(port) == 8, "8 written: %d", count(port));
	CHECK(rte_eth_dev_rx_queue_stop(port, 0) == 0, "scalar: stop");
	CHECK(rxq_state(port) == RTE_ETH_QUEUE_STATE_STOPPED &&
		rte_mempool_avail_count(mp) == 127, "the ring freed, the 8 with it: %u free",
		rte_mempool_avail_count(mp));
	/* 64 held: the pool cannot fill the ring again */
	n = (uint16_t)rte_pktmbuf_alloc_bulk(mp, held, 64);
	REQUIRE(n == 0, "hold 64");
	CHECK(rte_eth_dev_rx_queue_start(port, 0) == -ENOMEM, "63 for a ring of 64");
	CHECK(rxq_state(port) == RTE_ETH_QUEUE_STATE_STOPPED &&
		rte_mempool_avail_count(mp) == 63, "left stopped, nothing taken");
	drop(held, 64);
	CHECK(rte_eth_dev_rx_queue_start(port, 0) == 0, "start again");
	CHECK(rxq_state(port) == RTE_ETH_QUEUE_STATE_STARTED &&
		rte_mempool_avail_count(mp) == 127 - 64, "filled again");
	CHECK(take(port, 32) == 0, "what the stop dropped does not come back");
	gen_more(port, 8);
	n = take(port, 32);
	CHECK(n == 8, "receives after the restart: %u of 8", n);
	rte_eth_dev_stop(port);
	CHECK(rte_mempool_avail_count(mp) == 127, "stop frees the ring");
	rte_vdev_uninit("net_octonic91");
	rte_mempool_free(mp);
}

/*
 * Scatter over more than one buffer: mlx5's scalar Rx, no steps, and a
 * queue count of 8 descriptors per packet (9000-byte MTU over 2 KB
 * buffers: 5 segments, rounded up to 8).
 */
static void
test_rx_scatter(struct rte_mempool *unused __rte_unused)
{
	struct rte_mbuf *m[BURST];
	uint16_t port, n;

	REQUIRE(rte_vdev_init("net_octonic68",
		"pfs=1,dialect=mlx5-hws,gen_limit=5,pkt_len=3000") == 0, "probe");
	port = pf_port("net_octonic68", 0);
	{
		struct rte_eth_conf conf;

		memset(&conf, 0, sizeof(conf));
		conf.rxmode.offloads = RTE_ETH_RX_OFFLOAD_SCATTER;
		conf.rxmode.mtu = 9000;
		REQUIRE(rte_eth_dev_configure(port, 1, 1, &conf) == 0, "configure");
		REQUIRE(rte_eth_rx_queue_setup(port, 0, 256, 0, NULL, pool) == 0 &&
			rte_eth_tx_queue_setup(port, 0, 256, 0, NULL) == 0 &&
			rte_eth_dev_start(port) == 0, "start");
	}
	generate(port, 5);
	CHECK(count(port) == 40, "5 packets of 8 descriptors: %d", count(port));
	CHECK(rte_eth_rx_descriptor_status(port, 0, 39) == RTE_ETH_RX_DESC_DONE &&
		rte_eth_rx_descriptor_status(port, 0, 40) == RTE_ETH_RX_DESC_AVAIL,
		"descriptor status");
	n = rx(port, m, 1);
	CHECK(n == 1 && m[0]->pkt_len == 3000 && m[0]->nb_segs == 2,
		"no steps on the scalar path: took %u", n);
	drop(m, n);
	CHECK(count(port) == 32, "4 left: %d", count(port));
	n = take(port, 32);
	CHECK(n == 4, "took %u", n);
	pf0_down("net_octonic68", port);
}

/* One 60-byte frame from pool. */
static struct rte_mbuf *
frame(void)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);

	if (m != NULL)
		memset(rte_pktmbuf_append(m, 60), 0x5a, 60);
	return m;
}

/*
 * Tx: a completion asked every 32 descriptors; until it comes the mbufs
 * stay the driver's (not freed) and their descriptors FULL, though the NIC
 * sent the frames; no tx_done_cleanup.
 */
static void
test_tx_comp(struct rte_mempool *unused __rte_unused)
{
	struct rte_pmd_octonic_sink_stats ss;
	struct rte_eth_txq_info ti;
	struct rte_mbuf *m;
	unsigned int avail, i;
	uint16_t port;

	REQUIRE(rte_vdev_init("net_octonic69", "pfs=1,dialect=mlx5-hws") == 0,
		"probe");
	port = pf_port("net_octonic69", 0);
	rte_pmd_octonic_gen_enable(port, 0);	/* only our frames */
	REQUIRE(start1(port, 100, pool, 0) == 0, "start");
	CHECK(rte_eth_tx_queue_info_get(port, 0, &ti) == 0 && ti.nb_desc == 128,
		"Tx ring of %u", ti.nb_desc);
	CHECK(rte_eth_tx_done_cleanup(port, 0, 0) == -ENOTSUP, "no cleanup");
	avail = rte_mempool_avail_count(pool);
	for (i = 0; i < 31; i++) {
		m = frame();
		REQUIRE(m != NULL && rte_eth_tx_burst(port, 0, &m, 1) == 1, "tx");
	}
	pump_read(port);
	CHECK(rte_pmd_octonic_sink_stats_get(port, &ss) == 0 && ss.pkts == 31,
		"the NIC sent them: %" PRIu64, ss.pkts);
	CHECK(rte_eth_tx_descriptor_status(port, 0, 0) == RTE_ETH_TX_DESC_FULL &&
		rte_eth_tx_descriptor_status(port, 0, 30) == RTE_ETH_TX_DESC_FULL &&
		rte_eth_tx_descriptor_status(port, 0, 31) == RTE_ETH_TX_DESC_DONE,
		"31 in use until a completion");
	CHECK(rte_mempool_avail_count(pool) + 31 == avail,
		"31 mbufs held: %u of %u", rte_mempool_avail_count(pool), avail);
	m = frame();
	REQUIRE(m != NULL && rte_eth_tx_burst(port, 0, &m, 1) == 1, "the 32nd");
	pump_read(port);
	CHECK(rte_eth_tx_descriptor_status(port, 0, 0) == RTE_ETH_TX_DESC_DONE,
		"the 32nd asked for a completion: all done");
	CHECK(rte_mempool_avail_count(pool) == avail, "and freed: %u of %u",
		rte_mempool_avail_count(pool), avail);
	pf0_down("net_octonic69", port);

	/* the same in the generic dialect, every 4, with a cleanup */
	REQUIRE(rte_vdev_init("net_octonic70", "pfs=1,tx_comp_every=4") == 0,
		"probe");
	port = pf_port("net_octonic70", 0);
	rte_pmd_octonic_gen_enable(port, 0);
	REQUIRE(start1(port, 64, pool, 0) == 0, "start");
	avail = rte_mempool_avail_count(pool);
	for (i = 0; i < 6; i++) {
		m = frame();
		REQUIRE(m != NULL && rte_eth_tx_burst(port, 0, &m, 1) == 1, "tx");
	}
	/* the 4th asked for a completion; the 5th burst freed those 4 */
	CHECK(rte_mempool_avail_count(pool) + 2 == avail, "2 held: %u of %u",
		rte_mempool_avail_count(pool), avail);
	CHECK(rte_eth_tx_descriptor_status(port, 0, 1) == RTE_ETH_TX_DESC_FULL &&
		rte_eth_tx_descriptor_status(port, 0, 2) == RTE_ETH_TX_DESC_DONE,
		"2 in use");
	{
		struct rte_mbuf *two[2] = { frame(), frame() };

		REQUIRE(two[0] != NULL && two[1] != NULL &&
			rte_eth_tx_burst(port, 0, two, 2) == 2, "tx 2");
	}
	/* the 8th asked for one: cleanup frees what it covers */
	CHECK(rte_mempool_avail_count(pool) + 4 == avail, "4 held");
	CHECK(rte_eth_tx_done_cleanup(port, 0, 0) == 4, "4 cleaned up");
	CHECK(rte_mempool_avail_count(pool) == avail, "none held");
	m = frame();
	REQUIRE(m != NULL && rte_eth_tx_burst(port, 0, &m, 1) == 1, "tx");
	rte_eth_dev_stop(port);
	CHECK(rte_mempool_avail_count(pool) == avail, "stop frees them");
	rte_vdev_uninit("net_octonic70");
}

/*
 * Nothing lost or reordered by the model: generated flows received with
 * bursts of every size (1-3 return nothing under steps of 4) and sent
 * back reach the sink in order; whatever the NIC dropped is imissed.
 */
static void
test_order(struct rte_mempool *unused __rte_unused)
{
	static const uint16_t sizes[] = { 1, 2, 3, 4, 5, 7, 9, 32, 64, 6 };
	const uint64_t N = 20000;
	struct rte_pmd_octonic_sink_stats ss;
	struct rte_mbuf *m[BURST];
	uint64_t got = 0, g = 0, end = rte_get_tsc_cycles() + 10 * rte_get_tsc_hz();
	uint16_t port, n, sent;
	unsigned int i = 0;

	REQUIRE(rte_vdev_init("net_octonic71",
		"pfs=1,dialect=mlx5-hws,flows=64,gen_limit=20000,gen_rate=500000") == 0,
		"probe");
	port = pf_port("net_octonic71", 0);
	REQUIRE(start1(port, 512, pool, 0) == 0, "start");
	while ((g < N || got + imissed(port) < N) && rte_get_tsc_cycles() < end) {
		n = rx(port, m, sizes[i++ % RTE_DIM(sizes)]);
		got += n;
		sent = rte_eth_tx_burst(port, 0, m, n);
		drop(m + sent, n - sent);
		CHECK(sent == n, "tx refused %u", n - sent);
		rte_pmd_octonic_gen_count(port, &g);
	}
	/* what the last bursts left is read by the NIC in the next runs */
	for (i = 0; i < 8; i++)
		pump_read(port);
	CHECK(rte_pmd_octonic_sink_stats_get(port, &ss) == 0, "sink");
	printf("order: %" PRIu64 " generated, %" PRIu64 " received, %" PRIu64
		" missed; sink %" PRIu64 " in order %" PRIu64 " lost %" PRIu64 "\n",
		g, got, imissed(port), ss.pkts, ss.in_order, ss.lost);
	CHECK(got + imissed(port) == N, "accounted %" PRIu64 " of %" PRIu64,
		got + imissed(port), N);
	CHECK(ss.pkts == got && ss.in_order == got && ss.out_of_order == 0 &&
		ss.duplicates == 0 && ss.foreign == 0,
		"sink: %" PRIu64 " pkts, %" PRIu64 " in order, %" PRIu64 " ooo, %"
		PRIu64 " dup", ss.pkts, ss.in_order, ss.out_of_order, ss.duplicates);
	CHECK(ss.lost <= imissed(port), "lost %" PRIu64 " beyond the %" PRIu64
		" the NIC dropped", ss.lost, imissed(port));
	pf0_down("net_octonic71", port);
}

/*
 * Send @p rounds pairs of posts of one flow's frames, the older half
 * through PF1's Tx ring, the newer through PF0's (the ring the engine
 * looks at first), each post @p gap_us after the one before; @p ooo: the
 * sink's out-of-order count (UINT64_MAX: the run failed).
 */
static void
tx_pairs(const char *nic, const char *args, unsigned int rounds, unsigned int gap_us,
		uint64_t *ooo)
{
	struct rte_pmd_octonic_sink_stats ss;
	struct rte_mbuf *m[BURST];
	uint16_t p0, p1, n = 0, k;
	uint64_t end = rte_get_tsc_cycles() + 5 * rte_get_tsc_hz(), i;

	REQUIRE(rte_vdev_init(nic, args) == 0, "probe %s", args);
	p0 = pf_port(nic, 0);
	p1 = pf_port(nic, 1);
	REQUIRE(start1(p0, 512, pool, 0) == 0 && start1(p1, 512, pool, 0) == 0, "start");
	generate(p0, 32ull * rounds);
	for (i = 0; i < rounds; i++) {
		/* 32 frames in generation order, from whichever PF got them */
		for (n = 0; n < 32 && rte_get_tsc_cycles() < end; ) {
			k = rx(p0, m + n, 32 - n);
			n += k;
			if (k == 0)
				n += rx(p1, m + n, 32 - n);
		}
		REQUIRE(n == 32, "received %u", n);
		REQUIRE(rte_eth_tx_burst(p1, 0, m, 16) == 16, "tx pf1");
		if (gap_us != 0)
			rte_delay_us_block(gap_us);
		REQUIRE(rte_eth_tx_burst(p0, 0, m + 16, 16) == 16, "tx pf0");
		if (gap_us != 0)
			rte_delay_us_block(gap_us);
	}
	/* every post read (tx_read_ns=20 ms at most here): the last ones
	 * reach the sink */
	rte_delay_us_block(25000);
	for (i = 0; i < 8; i++)
		pump(p0);
	REQUIRE(rte_pmd_octonic_sink_stats_get(p0, &ss) == 0, "sink");
	printf("%s, %u pairs %u us apart: sink %" PRIu64 " pkts, %" PRIu64
		" in order, %" PRIu64 " out of order, %" PRIu64 " lost\n", args, rounds,
		gap_us, ss.pkts, ss.in_order, ss.out_of_order, ss.lost);
	CHECK(ss.pkts == 32ull * rounds && ss.duplicates == 0,
		"sink %" PRIu64 " of %u", ss.pkts, 32 * rounds);
	rte_eth_dev_stop(p0);
	rte_eth_dev_stop(p1);
	rte_vdev_uninit(nic);
	*ooo = ss.out_of_order;
}

/*
 * Tx posts leave in posting order across rings once further apart than
 * the NIC's read latency (tx_read_ns; octonic.rst "Datapath", D5), however late
 * the engine runs; closer ones may cross (the negative control: a port
 * that did not wait for its posts to be read could reorder).
 */
static void
test_tx_order(struct rte_mempool *unused __rte_unused)
{
	uint64_t ooo = UINT64_MAX;

	/* read at once (generic's default): in posting order */
	tx_pairs("net_octonic72", "pfs=2,flows=1,gen_limit=384", 12, 0, &ooo);
	CHECK(ooo == 0, "generic: %" PRIu64 " out of order", ooo);
	/* mlx5-hws (2 us): posts 1 ms apart keep their order */
	tx_pairs("net_octonic73", "pfs=2,flows=1,gen_limit=384,dialect=mlx5-hws",
		12, 1000, &ooo);
	CHECK(ooo == 0, "mlx5-hws, 1 ms apart: %" PRIu64 " out of order", ooo);
	/* read within 1 ms: posts 2 ms apart keep theirs ... */
	tx_pairs("net_octonic74", "pfs=2,flows=1,gen_limit=384,tx_read_ns=1000000",
		12, 2000, &ooo);
	CHECK(ooo == 0, "read within 1 ms, 2 ms apart: %" PRIu64 " out of order", ooo);
	/* ... read within 20 ms, posts 100 us apart cross */
	tx_pairs("net_octonic75", "pfs=2,flows=1,gen_limit=384,tx_read_ns=20000000",
		12, 100, &ooo);
	CHECK(ooo > 0 && ooo != UINT64_MAX, "read within 20 ms, 100 us apart: none crossed");
}

static const struct octo_case cases[] = {
	{ "rx_step", test_rx_step },
	{ "rx_cap", test_rx_cap },
	{ "rx_ring_end", test_rx_ring_end },
	{ "rx_posted", test_rx_posted },
	{ "rx_nombuf", test_rx_nombuf },
	{ "rx_start", test_rx_start },
	{ "rx_queue_ctl", test_rx_queue_ctl },
	{ "rx_scatter", test_rx_scatter },
	{ "tx_comp", test_tx_comp },
	{ "order", test_order },
	{ "tx_order", test_tx_order },
};

/* The pool of the cases: no cache, as they count its free mbufs. */
static struct rte_mempool *
setup(void)
{
	pool = rte_pktmbuf_pool_create("dp_pool", 8191, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	if (pool == NULL)
		printf("cannot create the pool\n");
	return pool;
}

int
main(int argc, char **argv)
{
	return octo_case_main_2s(argc, argv, 512, cases, RTE_DIM(cases), setup);
}
