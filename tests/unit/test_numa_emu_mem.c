/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Hugepage memory on emulated NUMA nodes (tools/octopus-numa-emu and its
 * policy shim, tools/numa-emu-shim.c):
 *   octopus-numa-emu --nodes 2 -- test_numa_emu_mem -m 256 --lcores 0@0,1@1
 * On each emulated socket, memory made for it (memzone, rte_malloc, ring,
 * mempool) must exist and say that socket everywhere EAL records it: the
 * object's own socket_id and the memseg list of its memory.  Also the shim
 * itself: a policy naming node 1 is accepted and read back as set.
 * Skipped (77) where EAL has no hugepages: with --no-huge every socket's
 * memory is the one socket-0 list by design.
 */

#include <numaif.h>
#include <stdio.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_memory.h>
#include <rte_memzone.h>
#include <rte_ring.h>

#include "../common/octo_check.h"
#include "../common/octo_test_eal.h"

/* Socket of the memseg list holding @p addr, -1 if none. */
static int
seg_socket(const void *addr)
{
	struct rte_memseg_list *msl = rte_mem_virt2memseg_list(addr);

	return msl == NULL ? -1 : msl->socket_id;
}

/* The shim: a policy on emulated node 1 goes through and reads back. */
static void
test_policy(void)
{
	unsigned long mask = 1UL << 1, got = 0;
	int mode = -1;

	CHECK(set_mempolicy(MPOL_PREFERRED, &mask, sizeof(mask) * 8 + 1) == 0,
		"set_mempolicy(PREFERRED, node 1) refused");
	CHECK(get_mempolicy(&mode, &got, sizeof(got) * 8 + 1, NULL, 0) == 0 &&
		mode == MPOL_PREFERRED && got == mask,
		"policy read back: mode %d mask %#lx", mode, got);
	CHECK(set_mempolicy(MPOL_DEFAULT, NULL, 0) == 0, "reset the policy");
}

static void
test_socket(int s)
{
	struct rte_malloc_socket_stats st;
	const struct rte_memzone *mz;
	struct rte_mempool *mp;
	struct rte_mbuf *m;
	struct rte_ring *r;
	char name[32];
	void *p;

	CHECK(rte_malloc_get_socket_stats(s, &st) == 0 && st.heap_totalsz_bytes > 0,
		"socket %d: no heap (%zu bytes)", s, (size_t)st.heap_totalsz_bytes);

	snprintf(name, sizeof(name), "mz%d", s);
	mz = rte_memzone_reserve(name, 4 << 20, s, 0);
	CHECK(mz != NULL, "socket %d: memzone: %s", s, rte_strerror(rte_errno));
	if (mz != NULL) {
		CHECK(mz->socket_id == s && seg_socket(mz->addr) == s,
			"socket %d: memzone on socket %d, memseg list %d", s,
			mz->socket_id, seg_socket(mz->addr));
		rte_memzone_free(mz);
	}

	p = rte_malloc_socket(NULL, 1 << 20, 0, s);
	CHECK(p != NULL, "socket %d: rte_malloc_socket", s);
	if (p != NULL) {
		CHECK(seg_socket(p) == s && rte_malloc_virt2iova(p) != RTE_BAD_IOVA,
			"socket %d: malloc in memseg list %d", s, seg_socket(p));
		rte_free(p);
	}

	snprintf(name, sizeof(name), "ring%d", s);
	r = rte_ring_create(name, 1024, s, 0);
	CHECK(r != NULL && seg_socket(r) == s, "socket %d: ring %p in memseg list %d",
		s, (void *)r, r != NULL ? seg_socket(r) : -1);
	rte_ring_free(r);

	snprintf(name, sizeof(name), "pool%d", s);
	mp = rte_pktmbuf_pool_create(name, 8191, 256, 0, RTE_MBUF_DEFAULT_BUF_SIZE, s);
	CHECK(mp != NULL, "socket %d: mbuf pool: %s", s, rte_strerror(rte_errno));
	if (mp == NULL)
		return;
	m = rte_pktmbuf_alloc(mp);
	CHECK(mp->socket_id == s && m != NULL && seg_socket(m) == s &&
		seg_socket(rte_pktmbuf_mtod(m, void *)) == s,
		"socket %d: pool on socket %d, mbuf in memseg list %d", s, mp->socket_id,
		m != NULL ? seg_socket(m) : -1);
	rte_pktmbuf_free(m);
	rte_mempool_free(mp);
}

int
main(int argc, char **argv)
{
	int s;

	if (octo_test_eal_init(&argc, &argv, 256) < 0) {
		fprintf(stderr, "EAL init failed\n");
		return 1;
	}
	if (!rte_eal_has_hugepages()) {
		printf("SKIP: EAL runs without hugepages\n");
		rte_eal_cleanup();
		return 77;
	}
	if (rte_socket_count() < 2) {
		fprintf(stderr, "needs 2 sockets (run under octopus-numa-emu --nodes 2)\n");
		return 1;
	}
	test_policy();
	for (s = 0; s < 2; s++)
		test_socket(s);
	rte_eal_cleanup();
	printf("%s (%d failure(s))\n", octo_failures ? "FAILED" : "ok", octo_failures);
	return octo_failures ? 1 : 0;
}
