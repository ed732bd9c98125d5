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
#include "../common/octo_check.h"
#include "../common/octo_port.h"
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
		if (failures > 20 || rte_get_timer_cycles() > deadline ||
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

static const struct octo_case cases[] = {
	{ "mirror", test_mirror }, { "extbuf", test_extbuf },
};

int
main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "";
	char prefix[64];
	char *eal[] = {
		argv[0], "-m", "512", "--no-pci",
		"--lcores", "0@0,1@1", "--file-prefix", prefix,
		"--vdev", "net_octonic0,pfs=2,numa=0:1,wire=gen,flows=64,gen_rate=100000",
		"--vdev", "net_octopus0,member=net_octonic0_pf0,member=net_octonic0_pf1,migration=manual",
	};
	int nb_eal = RTE_DIM(eal);
	char **eal_argv = eal;

	snprintf(prefix, sizeof(prefix), "octopus-pool-%s", which);
	if (octo_case_eal_init(&nb_eal, &eal_argv, 512, NB_Q) < 0)
		return 2;
	port = port_of("net_octopus0");
	rte_pmd_octonic_gen_enable(port_of("net_octonic0_pf0"), 0);
	/* each case makes the pools it is about */
	return octo_case_main(cases, RTE_DIM(cases), which, argv[0], NULL);
}
