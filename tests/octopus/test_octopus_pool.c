/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * rx_pool=local hands the application mbufs it cannot tell from those of
 * its own pool. The app pool is made as OVS makes its pools: a pktmbuf
 * pool whose objects the app initialises itself after rte_pktmbuf_init
 * (here: constants, a pointer to the pool, a pointer to the mbuf itself and
 * one into its buffer, in the mbuf private area; a dynamic field), with a
 * private size, data room, mempool ops, mempool flags and pool private area
 * of its own. net_octopus over net_octonic PFs on 2 emulated sockets, Rx
 * queue q set up for socket q and polled by lcore q (on socket q). Run under
 * tools/octopus-numa-emu.
 *
 *   test_octopus_pool mirror   every received mbuf carries what the app's
 *       obj_init wrote, its self-references point at itself, its pool has the
 *       app pool's sizes, flags, ops and private area and lives on the socket
 *       of the queue's member; the NIC model counts no remote DMA. Then the
 *       queues are set up again with a second app pool (another data room,
 *       as after an MTU change): the same holds for it, and the local pools
 *       that mirrored the first one are freed.
 *   test_octopus_pool extbuf   a pool whose buffers are outside its objects
 *       (pinned external buffers) is refused with rx_pool=local.
 *   test_octopus_pool sizes    the local pools follow the queues in use: 16
 *       queues then 2 leaves two pools sized for 2 and DPDK's heap smaller
 *       by (nearly) the difference; 64 queues of 1024 descriptors, whose
 *       two pools the 512 MB do not hold (one does), fail the first queue
 *       setup and leave no pool and the heap as it was before it.
 *   test_octopus_pool mtu      with 2 kB mbufs and no scatter, an MTU whose
 *       frames exceed them is refused while started, and a queue setup with
 *       such mbufs under such an MTU; generated frames at the limit all
 *       arrive whole; with RTE_ETH_RX_OFFLOAD_SCATTER a larger MTU is
 *       taken and its frames arrive chained.
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>

#include <octopus_dpdk_compat.h>

#include "rte_pmd_octonic.h"

#include "../common/octo_cases.h"
#include "../common/octo_eal.h"
#include "../common/octo_check.h"
#include "../common/octo_dialect.h"
#include "../common/octo_port.h"
#include "../common/octo_state.h"
#include "../common/octo_test_eal.h"

#define NB_Q 2
#define NB_DESC 512
#define WANT 2000		/* packets per queue before the test stops */
#define DATA_ROOM (RTE_PKTMBUF_HEADROOM + 1664)
#define DATA_ROOM2 (RTE_PKTMBUF_HEADROOM + 3072)
#define APP_MAGIC UINT64_C(0x6f63746f70757321)
#define APP_POOL_SIG "app-pool-signature"

/* What the app keeps in every mbuf's private area (as OVS its dp_packet). */
struct app_priv {
	uint64_t magic;
	const struct rte_mempool *made_by;	/* per-pool constant, outside the object */
	struct rte_mbuf *self;			/* the mbuf itself */
	const char *payload;			/* into the mbuf's own buffer */
	uint32_t tag;
	uint8_t pattern[20];
	uint64_t spare[4];			/* rte_pktmbuf_init leaves 0 */
};

/* The app pool's private area: pktmbuf's, then the app's own. */
struct app_pool_priv {
	struct rte_pktmbuf_pool_private pkt;
	char sig[32];
};

static int dyn_off = -1;
static uint16_t port;
static volatile int stop;
static uint64_t checked[NB_Q];
static const struct rte_mempool *seen_pool[NB_Q];

static struct app_priv *
priv_of(struct rte_mbuf *m)
{
	return rte_mbuf_to_priv(m);
}

/* The app's own object init, after pktmbuf's. */
static void
app_obj_init(struct rte_mempool *mp, void *arg, void *obj, unsigned int i)
{
	struct rte_mbuf *m = obj;
	struct app_priv *a;
	unsigned int k;

	rte_pktmbuf_init(mp, arg, obj, i);
	a = priv_of(m);
	a->magic = APP_MAGIC;
	a->made_by = mp;
	a->self = m;
	a->payload = (const char *)m->buf_addr + 16;
	a->tag = 0xfeedc0de;
	for (k = 0; k < sizeof(a->pattern); k++)
		a->pattern[k] = (uint8_t)(k * 7 + 3);
	*RTE_MBUF_DYNFIELD(m, dyn_off, uint64_t *) = UINT64_C(0x0123456789abcdef);
}

static struct rte_mempool *
app_pool_create(const char *name, uint16_t data_room)
{
	static const struct rte_mbuf_dynfield dyn = {
		.name = "test_octopus_pool_dyn",
		.size = sizeof(uint64_t),
		.align = __alignof__(uint64_t),
	};
	struct rte_pktmbuf_pool_private pkt = {
		.mbuf_data_room_size = data_room,
		.mbuf_priv_size = sizeof(struct app_priv),
	};
	struct app_pool_priv *pp;
	struct rte_mempool *mp;

	dyn_off = rte_mbuf_dynfield_register(&dyn);
	CHECK(dyn_off >= 0, "dynfield");
	/* not what rte_pktmbuf_pool_create would pick: ops and flags */
	mp = rte_mempool_create_empty(name, 8192,
		sizeof(struct rte_mbuf) + sizeof(struct app_priv) + data_room, 128,
		sizeof(struct app_pool_priv), 0, RTE_MEMPOOL_F_NO_SPREAD);
	if (mp == NULL)
		return NULL;
	CHECK(rte_mempool_set_ops_byname(mp, "ring_mp_sc", NULL) == 0, "app pool ops");
	rte_pktmbuf_pool_init(mp, &pkt);
	pp = rte_mempool_get_priv(mp);
	snprintf(pp->sig, sizeof(pp->sig), "%s", APP_POOL_SIG);
	if (rte_mempool_populate_default(mp) < 0)
		return NULL;
	rte_mempool_obj_iter(mp, app_obj_init, NULL);
	return mp;
}

/* The app's own view of an mbuf of its pool (as rte_pktmbuf_alloc gives it). */
static void
check_mbuf(struct rte_mempool *app, const struct rte_mbuf *ref, struct rte_mbuf *m,
		uint16_t q)
{
	struct app_priv *a = priv_of(m), *r = priv_of((struct rte_mbuf *)(uintptr_t)ref);
	uintptr_t base = (uintptr_t)m;

	CHECK(a->magic == APP_MAGIC && a->tag == r->tag &&
		memcmp(a->pattern, r->pattern, sizeof(a->pattern)) == 0 &&
		memcmp(a->spare, r->spare, sizeof(a->spare)) == 0,
		"q%u: private area constants: magic %" PRIx64 " tag %x", q, a->magic, a->tag);
	CHECK(a->made_by == app, "q%u: pool pointer %p, app pool %p", q,
		(const void *)a->made_by, (void *)app);
	CHECK(a->self == m, "q%u: self %p, mbuf %p", q, (void *)a->self, (void *)m);
	CHECK(a->payload == (const char *)m->buf_addr + 16, "q%u: payload %p, buf %p",
		q, (const void *)a->payload, m->buf_addr);
	CHECK(*RTE_MBUF_DYNFIELD(m, dyn_off, uint64_t *) ==
		*RTE_MBUF_DYNFIELD(ref, dyn_off, uint64_t *), "q%u: dynfield", q);
	CHECK(m->priv_size == ref->priv_size && m->buf_len == ref->buf_len &&
		(uintptr_t)m->buf_addr - base == (uintptr_t)ref->buf_addr - (uintptr_t)ref,
		"q%u: priv_size %u buf_len %u buf offset %zu, app: %u %u %zu", q,
		m->priv_size, m->buf_len, (size_t)((uintptr_t)m->buf_addr - base),
		ref->priv_size, ref->buf_len, (size_t)((uintptr_t)ref->buf_addr - (uintptr_t)ref));
	CHECK(rte_mbuf_iova_get(m) == rte_mempool_virt2iova(m) +
		((uintptr_t)m->buf_addr - base), "q%u: buf_iova", q);
	CHECK(m->data_off == ref->data_off, "q%u: headroom %u, app %u", q,
		m->data_off, ref->data_off);
	CHECK(m->refcnt == 1 && m->nb_segs == 1 && m->next == NULL, "q%u: segs", q);
}

static void
check_pool(struct rte_mempool *app, const struct rte_mempool *mp, uint16_t q)
{
	const struct app_pool_priv *a = rte_mempool_get_priv(app);
	const struct app_pool_priv *l = rte_mempool_get_priv((struct rte_mempool *)(uintptr_t)mp);

	CHECK(mp != app, "q%u: received into the app pool itself", q);
	/* queue q's member is on socket q */
	CHECK(mp->socket_id == (int)q, "q%u: pool on socket %d", q, mp->socket_id);
	CHECK(mp->elt_size == app->elt_size && mp->private_data_size == app->private_data_size &&
		(mp->flags & RTE_MEMPOOL_VALID_USER_FLAGS) ==
		(app->flags & RTE_MEMPOOL_VALID_USER_FLAGS),
		"q%u: elt %u priv %u flags %x, app %u %u %x", q, mp->elt_size,
		mp->private_data_size, mp->flags, app->elt_size, app->private_data_size,
		app->flags);
	CHECK(strcmp(rte_mempool_get_ops(mp->ops_index)->name,
		rte_mempool_get_ops(app->ops_index)->name) == 0, "q%u: ops %s, app %s", q,
		rte_mempool_get_ops(mp->ops_index)->name,
		rte_mempool_get_ops(app->ops_index)->name);
	CHECK(memcmp(l, a, sizeof(*a)) == 0, "q%u: pool private area differs", q);
}

/* lcore q polls queue q until both have seen WANT packets. */
static int
poll_queue(void *arg)
{
	struct rte_mempool *app = arg;
	uint16_t q = (uint16_t)rte_lcore_id();
	uint64_t deadline = rte_get_timer_cycles() + 20 * rte_get_timer_hz();
	struct rte_mbuf *pkts[32], *ref;
	uint16_t n, i;

	if (q >= NB_Q)
		return 0;
	/* what the app's own pool hands out, for comparison */
	ref = rte_pktmbuf_alloc(app);
	CHECK(ref != NULL, "app mbuf");
	if (ref == NULL)
		return 0;
	while (!stop) {
		n = rte_eth_rx_burst(port, q, pkts, RTE_DIM(pkts));
		for (i = 0; i < n; i++) {
			if (checked[q] == 0) {
				seen_pool[q] = pkts[i]->pool;
				check_pool(app, pkts[i]->pool, q);
			}
			CHECK(pkts[i]->pool == seen_pool[q], "q%u: mbufs of two pools", q);
			check_mbuf(app, ref, pkts[i], q);
			checked[q]++;
		}
		rte_pktmbuf_free_bulk(pkts, n);
		if (octo_failures > 20 || rte_get_timer_cycles() > deadline ||
		    (rte_atomic_load_explicit(&checked[0], rte_memory_order_relaxed) >= WANT &&
		     rte_atomic_load_explicit(&checked[1], rte_memory_order_relaxed) >= WANT))
			stop = 1;
	}
	rte_pktmbuf_free(ref);
	return 0;
}

/* Queues set up with @p app, traffic on both, every mbuf checked. */
static void
run_with(struct rte_mempool *app)
{
	uint16_t pf[2] = { port_of("net_octonic0_pf0"), port_of("net_octonic0_pf1") };
	struct rte_pmd_octonic_locality nl;
	uint16_t q, m;

	stop = 0;
	memset(checked, 0, sizeof(checked));
	for (q = 0; q < NB_Q; q++) {
		CHECK(rte_eth_rx_queue_setup(port, q, NB_DESC, q, NULL, app) == 0, "rxq %u", q);
		CHECK(rte_eth_tx_queue_setup(port, q, NB_DESC, q, NULL) == 0, "txq %u", q);
	}
	CHECK(rte_eth_dev_start(port) == 0, "start");
	CHECK(rte_pmd_octonic_gen_enable(pf[0], 1) == 0, "generator on");
	rte_eal_remote_launch(poll_queue, app, 1);
	poll_queue(app);
	rte_eal_mp_wait_lcore();
	rte_pmd_octonic_gen_enable(pf[0], 0);
	printf("%s: checked %" PRIu64 " and %" PRIu64 " mbufs\n", app->name, checked[0],
		checked[1]);
	for (q = 0; q < NB_Q; q++) {
		CHECK(checked[q] >= WANT, "queue %u: %" PRIu64 " packets", q, checked[q]);
		for (m = 0; m < 2; m++) {
			memset(&nl, 0, sizeof(nl));
			CHECK(rte_pmd_octonic_locality_get(pf[m], q, 0, &nl) == 0 &&
				nl.remote_dma_pkts == 0, "pf%u rxq %u: %" PRIu64 " remote DMA",
				m, q, nl.remote_dma_pkts);
		}
	}
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
}

static void
test_mirror(struct rte_mempool *unused __rte_unused)
{
	char first[NB_Q][RTE_MEMPOOL_NAMESIZE];
	struct rte_mempool *app, *app2;
	struct rte_eth_conf conf;
	uint16_t q;

	app = app_pool_create("app", DATA_ROOM);
	app2 = app_pool_create("app2", DATA_ROOM2);
	CHECK(app != NULL && app2 != NULL, "app pools");
	if (app == NULL || app2 == NULL)
		return;
	memset(&conf, 0, sizeof(conf));
	CHECK(rte_eth_dev_configure(port, NB_Q, NB_Q, &conf) == 0, "configure");
	run_with(app);
	for (q = 0; q < NB_Q; q++)
		snprintf(first[q], sizeof(first[q]), "%s",
			seen_pool[q] != NULL ? seen_pool[q]->name : "");
	run_with(app2);
	for (q = 0; q < NB_Q; q++)
		CHECK(first[q][0] != '\0' && rte_mempool_lookup(first[q]) == NULL,
			"local pool \"%s\" of the first app pool still there", first[q]);
	CHECK(rte_eth_dev_close(port) == 0, "close");
}

static void
extbuf_free(void *addr, void *opaque)
{
	RTE_SET_USED(addr);
	RTE_SET_USED(opaque);
}

static void
test_extbuf(struct rte_mempool *unused __rte_unused)
{
	struct rte_pktmbuf_extmem ext = { .elt_size = 2048, .buf_len = 2048 * 4096 };
	struct rte_eth_conf conf;
	struct rte_mempool *mp;
	int ret;

	RTE_SET_USED(extbuf_free);
	ext.buf_ptr = rte_malloc("ext", ext.buf_len, 4096);
	CHECK(ext.buf_ptr != NULL, "external memory");
	if (ext.buf_ptr == NULL)
		return;
	ext.buf_iova = rte_malloc_virt2iova(ext.buf_ptr);
	mp = rte_pktmbuf_pool_create_extbuf("ext", 4096, 0, 0, 2048, 0, &ext, 1);
	CHECK(mp != NULL, "extbuf pool");
	if (mp == NULL)
		return;
	memset(&conf, 0, sizeof(conf));
	CHECK(rte_eth_dev_configure(port, 1, 1, &conf) == 0, "configure");
	ret = rte_eth_rx_queue_setup(port, 0, NB_DESC, 0, NULL, mp);
	CHECK(ret < 0, "pinned external buffers accepted (%d)", ret);
	CHECK(rte_eth_dev_close(port) == 0, "close");
	rte_mempool_free(mp);
	rte_free(ext.buf_ptr);
}

/* Bytes DPDK's heaps have allocated, all sockets. */
static size_t
heap_used(void)
{
	struct rte_malloc_socket_stats st;
	unsigned int i;
	size_t n = 0;

	for (i = 0; i < rte_socket_count(); i++)
		if (rte_malloc_get_socket_stats(rte_socket_id_by_idx(i), &st) == 0)
			n += st.heap_allocsz_bytes;
	return n;
}

struct local_pools {
	char prefix[16];
	unsigned int count;
	uint32_t max_size;	/* mbufs of the largest */
};

static void
count_local(struct rte_mempool *mp, void *arg)
{
	struct local_pools *lp = arg;

	if (strncmp(mp->name, lp->prefix, strlen(lp->prefix)) != 0)
		return;
	lp->count++;
	lp->max_size = RTE_MAX(lp->max_size, mp->size);
}

/* The port's local pools (named octo<port>_s<socket>_<n>). */
static struct local_pools
local_pools(void)
{
	struct local_pools lp = { .count = 0 };

	snprintf(lp.prefix, sizeof(lp.prefix), "octo%u_s", port);
	rte_mempool_walk(count_local, &lp);
	return lp;
}

/* Configure @p nb queues each way, set them up, start and stop. */
static int
cycle(uint16_t nb, struct rte_mempool *mp)
{
	struct rte_eth_conf conf;
	uint16_t q;
	int ret;

	memset(&conf, 0, sizeof(conf));
	ret = rte_eth_dev_configure(port, nb, nb, &conf);
	for (q = 0; ret == 0 && q < nb; q++) {
		ret = rte_eth_rx_queue_setup(port, q, NB_DESC, 0, NULL, mp);
		if (ret == 0)
			ret = rte_eth_tx_queue_setup(port, q, NB_DESC, 0, NULL);
	}
	if (ret == 0)
		ret = rte_eth_dev_start(port);
	if (ret == 0)
		ret = rte_eth_dev_stop(port);
	return ret;
}

static void
test_sizes(struct rte_mempool *unused __rte_unused)
{
	struct rte_mempool *mp = octo_app_pool("sizes", 4096, 0);
	struct local_pools lp16, lp2, lp;
	struct rte_eth_conf conf;
	size_t h16, h2, h_conf, h_fail, elt;

	REQUIRE(mp != NULL, "app pool");
	elt = mp->header_size + mp->elt_size + mp->trailer_size;

	/* 64 queues: a pool per member the 512 MB cannot hold */
	memset(&conf, 0, sizeof(conf));
	CHECK(rte_eth_dev_configure(port, 64, 64, &conf) == 0, "configure 64");
	h_conf = heap_used();
	/* 1024 descriptors: one member's pool fits, not both */
	CHECK(rte_eth_rx_queue_setup(port, 0, 2 * NB_DESC, 0, NULL, mp) < 0,
		"64 queues' pools fit: the test needs a smaller -m");
	h_fail = heap_used();
	lp = local_pools();
	printf("64 queues: setup failed, %u pools left, heap %zu -> %zu bytes\n",
		lp.count, h_conf, h_fail);
	CHECK(lp.count == 0 && h_fail == h_conf, "failed setup left %u pools, %zu bytes",
		lp.count, h_fail - h_conf);

	CHECK(cycle(16, mp) == 0, "16 queues");
	lp16 = local_pools();
	h16 = heap_used();
	CHECK(cycle(2, mp) == 0, "2 queues");
	lp2 = local_pools();
	h2 = heap_used();
	printf("16 queues: %u pools of up to %u mbufs, heap %zu MB; 2 queues: %u pools of up to %u mbufs, heap %zu MB\n",
		lp16.count, lp16.max_size, h16 >> 20, lp2.count, lp2.max_size, h2 >> 20);
	CHECK(lp16.count == 2 && lp2.count == 2, "pools: %u, then %u (one per member)",
		lp16.count, lp2.count);
	CHECK(lp2.max_size < lp16.max_size / 2, "2 queues: pools of %u mbufs (16: %u)",
		lp2.max_size, lp16.max_size);
	/* both members' pools gave back (nearly) all they shrank by */
	CHECK(h2 + (size_t)2 * (lp16.max_size - lp2.max_size) * elt * 9 / 10 <= h16,
		"heap %zu -> %zu bytes: not given back", h16, h2);
	CHECK(rte_eth_dev_close(port) == 0, "close");
	rte_mempool_free(mp);
}

/* Generate @p n frames of @p len bytes; 0 when all arrived on queue 0
 * with that length, in @p segs segments. */
static int
receive_frames(uint16_t nic, uint16_t len, uint32_t n, uint16_t segs)
{
	struct rte_pmd_octonic_gen_conf gc;
	uint64_t deadline = rte_get_timer_cycles() + 10 * rte_get_timer_hz();
	uint32_t got = 0, bad = 0;
	struct rte_mbuf *pkts[32];
	uint16_t k, nb;

	if (rte_pmd_octonic_gen_get(nic, &gc) != 0)
		return -1;
	gc.pkt_len = len;
	gc.limit = n;
	if (rte_pmd_octonic_gen_set(nic, &gc) != 0)
		return -1;
	rte_pmd_octonic_gen_enable(nic, 1);
	while (got + bad < n && rte_get_timer_cycles() < deadline) {
		nb = rte_eth_rx_burst(port, 0, pkts, RTE_DIM(pkts));
		for (k = 0; k < nb; k++) {
			if (pkts[k]->pkt_len == len && pkts[k]->nb_segs == segs)
				got++;
			else
				bad++;
			rte_pktmbuf_free(pkts[k]);
		}
	}
	rte_pmd_octonic_gen_enable(nic, 0);
	printf("%u frames of %u bytes in %u segment(s) received, %u otherwise, of %u\n",
		got, len, segs, bad, n);
	return got == n && bad == 0 ? 0 : -1;
}

static void
test_mtu(struct rte_mempool *unused __rte_unused)
{
	struct rte_mempool *mp = octo_app_pool("mtu2k", 4096, 0);
	struct rte_mempool *big = rte_pktmbuf_pool_create("mtu4k", 4096, 256, 0,
		RTE_PKTMBUF_HEADROOM + 4096, 0);
	uint16_t nic = port_of("net_octonic0_pf0"), limit, overhead;
	struct rte_eth_dev_info info;
	struct rte_eth_conf conf;

	REQUIRE(mp != NULL && big != NULL, "app pools");
	memset(&conf, 0, sizeof(conf));
	REQUIRE(rte_eth_dev_configure(port, 1, 1, &conf) == 0, "configure");
	REQUIRE(rte_eth_dev_info_get(port, &info) == 0, "info");
	/* ethdev's frame overhead: what the device adds to its MTU */
	overhead = (uint16_t)(info.max_rx_pktlen - info.max_mtu);
	limit = (uint16_t)(rte_pktmbuf_data_room_size(mp) - RTE_PKTMBUF_HEADROOM -
		overhead);
	CHECK(rte_eth_rx_queue_setup(port, 0, NB_DESC, 0, NULL, mp) == 0, "rxq");
	CHECK(rte_eth_tx_queue_setup(port, 0, NB_DESC, 0, NULL) == 0, "txq");
	CHECK(rte_eth_dev_start(port) == 0, "start");
	CHECK(rte_eth_dev_set_mtu(port, limit + 1) < 0, "MTU %u past the mbufs taken",
		limit + 1);
	CHECK(rte_eth_dev_set_mtu(port, limit) == 0, "MTU %u refused", limit);
	/* a frame of the MTU, without its CRC (the model's frames have none) */
	CHECK(receive_frames(nic, limit + RTE_ETHER_HDR_LEN, 512, 1) == 0,
		"frames at MTU %u", limit);
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	/* stopped, the MTU may go first and larger mbufs follow */
	CHECK(rte_eth_dev_set_mtu(port, 4000) == 0, "MTU 4000 while stopped");
	CHECK(rte_eth_rx_queue_setup(port, 0, NB_DESC, 0, NULL, mp) < 0,
		"2 kB mbufs taken under MTU 4000");
	CHECK(rte_eth_rx_queue_setup(port, 0, NB_DESC, 0, NULL, big) == 0,
		"4 kB mbufs refused under MTU 4000");
	CHECK(rte_eth_dev_start(port) == 0, "start");
	CHECK(receive_frames(nic, 4000 + RTE_ETHER_HDR_LEN, 512, 1) == 0,
		"frames at MTU 4000");
	CHECK(rte_eth_dev_stop(port) == 0, "stop");

	/* scatter: any MTU of the members, frames chained */
	if ((info.rx_offload_capa & RTE_ETH_RX_OFFLOAD_SCATTER) != 0) {
		conf.rxmode.offloads = RTE_ETH_RX_OFFLOAD_SCATTER;
		conf.rxmode.mtu = 4000;
		CHECK(rte_eth_dev_configure(port, 1, 1, &conf) == 0, "configure, scatter");
		CHECK(rte_eth_rx_queue_setup(port, 0, NB_DESC, 0, NULL, mp) == 0,
			"2 kB mbufs refused with scatter");
		CHECK(rte_eth_tx_queue_setup(port, 0, NB_DESC, 0, NULL) == 0, "txq");
		CHECK(rte_eth_dev_start(port) == 0, "start");
		CHECK(receive_frames(nic, 4000 + RTE_ETHER_HDR_LEN, 512, 2) == 0,
			"scattered frames at MTU 4000");
		CHECK(rte_eth_dev_stop(port) == 0, "stop");
	}
	CHECK(rte_eth_dev_close(port) == 0, "close");
	rte_mempool_free(mp);
	rte_mempool_free(big);
}

/* Start @p pid with its logs in *@p log (the caller frees it). */
static int
start_logged(uint16_t pid, const struct octo_port_conf *c, char **log)
{
	FILE *old = rte_log_get_stream(), *f;
	size_t len = 0;
	int ret;

	*log = NULL;
	f = open_memstream(log, &len);
	if (f == NULL)
		return -ENOMEM;
	rte_openlog_stream(f);
	ret = octo_port_start(pid, c);
	rte_openlog_stream(old);
	fclose(f);
	return ret;
}

/*
 * rx_pool=app on a NIC that fills its Rx rings at start (rx_ring=mlx5, as
 * mlx5): a pool of one ring per queue fails the start, ENOMEM, with a log
 * line saying what the members take from it, and every mbuf back in the
 * pool; one of a ring per member for each queue starts.
 */
static void
test_app_short(struct rte_mempool *unused __rte_unused)
{
	struct octo_port_conf c = {
		.nb_rxq = NB_Q, .nb_txq = NB_Q, .nb_desc = NB_DESC, .socket = 0,
	};
	const unsigned int one = NB_Q * NB_DESC, all = 2 * NB_Q * NB_DESC;
	struct rte_mempool *small, *big;
	char *log = NULL, want[128];
	uint16_t pid;
	int ret;

	REQUIRE(rte_vdev_init("net_octonic1",
		"pfs=2,numa=0:1,wire=loop,rx_ring=mlx5") == 0, "NIC");
	REQUIRE(rte_vdev_init("net_octopus1",
		"member=net_octonic1_pf0,member=net_octonic1_pf1,rx_pool=app") == 0,
		"port");
	pid = port_of("net_octopus1");
	small = rte_pktmbuf_pool_create("app_one", one + 64, 0, 0,
		RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	big = rte_pktmbuf_pool_create("app_all", all + 64, 0, 0,
		RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	REQUIRE(small != NULL && big != NULL, "pools");
	c.pool = small;
	ret = start_logged(pid, &c, &log);
	CHECK(ret == -ENOMEM, "a ring per queue: start %d, want -ENOMEM", ret);
	snprintf(want, sizeof(want), "take %u at its start, as on each of the 2 members",
		one);
	CHECK(log != NULL && strstr(log, "rx_pool=app: pool app_one") != NULL &&
		strstr(log, want) != NULL && strstr(log, "rx_pool=local") != NULL,
		"no log line saying what the members take (\"%s\"):\n%s", want,
		log != NULL ? log : "");
	free(log);
	CHECK(rte_mempool_avail_count(small) == one + 64,
		"the failed start kept %u mbufs", one + 64 - rte_mempool_avail_count(small));
	c.pool = big;
	ret = start_logged(pid, &c, &log);
	free(log);
	CHECK(ret == 0, "a ring per member for each queue: start %d", ret);
	CHECK(rte_mempool_avail_count(big) == 64, "%u mbufs left, want 64",
		rte_mempool_avail_count(big));
	CHECK(rte_eth_dev_stop(pid) == 0 && rte_eth_dev_close(pid) == 0, "stop, close");
	CHECK(rte_mempool_avail_count(big) == all + 64, "the rings given back");
	rte_vdev_uninit("net_octopus1");
	rte_vdev_uninit("net_octonic1");
	rte_mempool_free(small);
	rte_mempool_free(big);
}

static const struct octo_case cases[] = {
	{ "mirror", test_mirror }, { "extbuf", test_extbuf }, { "sizes", test_sizes },
	{ "mtu", test_mtu }, { "app_short", test_app_short },
};

int
main(int argc, char **argv)
{
	struct octo_eal a;
	const char *which;

	which = octo_eal_begin_2pf(&a, argc, argv, "0@0,1@1", "octopus-pool", ",migration=manual",
		",flows=64,gen_rate=100000%s", octo_dialect_suffix());
	/* sizes: socket 0 holds one 64-queue pool, socket 1 not even that
	 * (hugepages are otherwise taken as needed, past -m) */
	if (strcmp(which, "sizes") == 0)
		octo_eal_arg(&a, "--socket-limit=512,256");
	if (octo_eal_start(&a, NB_Q) < 0)
		return 2;
	port = port_of("net_octopus0");
	octo_gen_pf("net_octonic0_pf0");
	/* each case makes the pools it is about */
	return octo_case_main(cases, RTE_DIM(cases), which, argv[0], NULL);
}
