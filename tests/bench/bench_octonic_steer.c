/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * What net_octonic's e-switch costs per packet to emulate, on 1024 flows of
 * 64 B generated UDP frames, classified 32 at a time as the engine does,
 * through the tables alone (octonic_eswitch_classify) and as the engine
 * classifies (through its flow cache, octonic_eswitch_classify_cached):
 *   base:    no rule, the PF's RSS off (parsing and the empty lookups);
 *   rss:     no rule, RSS over 2 queues: the model's RSS costs rss - base
 *            (its Toeplitz hash, through the tables alone);
 *   octopus: net_octopus over the NIC's two PFs, with the steering rules it
 *            installs: matching them costs octopus - base.
 * Prints TSC cycles per packet (best of a few rounds: noise only slows) and
 * exits 1 when the rules did not decide (no metadata, or not on the port's
 * queues), or when the cache's verdicts differ from the tables'; with
 * "judge", also when the engine's matching of octopus's rules costs more
 * cycles than RSS (a host can slow one side: a benchmark).  In its "ir"
 * mode it classifies each case in a function of its own and prints
 * "ir-op FUNCTION PACKETS" lines for tests/common/callgrind_ops.py, which
 * compares their instructions instead (what a host cannot slow).
 *
 *   bench_octonic_steer [EAL args] -- [rounds [judge]]
 *   bench_octonic_steer [EAL args] -- ir     (2 sockets: numa emulation)
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include <rte_pmd_octopus.h>
#include "octo_wire.h"
#include "octonic_internal.h"
#include "../common/octo_eal.h"
#include "../common/octo_test_eal.h"
#include "../common/octo_port.h"

#define NB_FRAMES 8192
#define BURST 32
#define PASSES 64	/* over all frames, per round */
#define IR_PASSES 4	/* over all frames, per function counted */

static struct rte_mbuf *frames[NB_FRAMES];

static int
make_frames(struct rte_mempool *mp)
{
	struct octo_gen_conf gc = { .nb_flows = 1024, .pkt_len = 64,
		.l4_proto = IPPROTO_UDP, .seed = 1 };
	struct octo_gen *g = octo_gen_create(&gc);
	unsigned int i;
	uint16_t len;

	if (g == NULL || rte_pktmbuf_alloc_bulk(mp, frames, NB_FRAMES) != 0)
		return -1;
	for (i = 0; i < NB_FRAMES; i++) {
		len = octo_gen_next(g, rte_pktmbuf_mtod(frames[i], uint8_t *),
			rte_pktmbuf_tailroom(frames[i]));
		frames[i]->data_len = len;
		frames[i]->pkt_len = len;
	}
	octo_gen_free(g);
	return 0;
}

/* Classify every frame @p passes times, through cache @p c (NULL: the
 * tables alone), 32 at a time as the engine does; verdicts in @p v. */
static void
classify_passes(struct octonic_eswitch *sw, struct octonic_eswitch_cache *c,
		unsigned int passes, struct octonic_verdict *v)
{
	unsigned int p, i;

	for (p = 0; p < passes; p++)
		for (i = 0; i < NB_FRAMES; i += BURST) {
			octonic_eswitch_reader_enter(sw);
			if (c != NULL)
				octonic_eswitch_classify_cached(sw, c,
					frames + i, BURST, v + i);
			else
				octonic_eswitch_classify(sw, frames + i,
					BURST, v + i);
			octonic_eswitch_reader_leave(sw);
		}
}

/* ir mode: one function per case, so that callgrind counts each alone */
#define IR_FN(name) \
static __rte_noinline void \
name(struct octonic_eswitch *sw, struct octonic_eswitch_cache *c, \
		struct octonic_verdict *v) \
{ \
	classify_passes(sw, c, IR_PASSES, v); \
}
IR_FN(ir_base)
IR_FN(ir_rss)
IR_FN(ir_octopus_cached)

/*
 * Best cycles per packet of @p rounds rounds, through cache @p c (NULL: the
 * tables alone); the last verdicts in @p v.  With @p ir set, instead one
 * warm-up pass and @p ir's passes, counted by callgrind; returns 0.
 */
static double
classify_cost(struct octonic_eswitch *sw, struct octonic_eswitch_cache *c,
		unsigned int rounds, struct octonic_verdict *v,
		void (*ir)(struct octonic_eswitch *, struct octonic_eswitch_cache *,
			struct octonic_verdict *), const char *ir_name)
{
	double best = 1e30;
	unsigned int r;
	uint64_t t;

	if (ir != NULL) {
		classify_passes(sw, c, 1, v);	/* the cache warm, as in a round */
		ir(sw, c, v);
		printf("ir-op %s %u\n", ir_name, IR_PASSES * NB_FRAMES);
		return 0;
	}
	for (r = 0; r < rounds; r++) {
		t = rte_rdtsc();
		classify_passes(sw, c, PASSES, v);
		t = rte_rdtsc() - t;
		if ((double)t / (PASSES * NB_FRAMES) < best)
			best = (double)t / (PASSES * NB_FRAMES);
	}
	return best;
}

static int
verdicts_differ(const char *what, const struct octonic_verdict *a,
		const struct octonic_verdict *b)
{
	unsigned int i;

	for (i = 0; i < NB_FRAMES; i++)
		if (memcmp(&a[i], &b[i], sizeof(a[i])) != 0) {
			printf("FAIL: %s: frame %u: the cache says queue %u pf %u,"
				" the tables queue %u pf %u\n", what, i, b[i].queue,
				b[i].pf, a[i].queue, a[i].pf);
			return 1;
		}
	return 0;
}

static int
port_up(uint16_t port, uint16_t nb_q, uint64_t rss_hf, struct rte_mempool *mp)
{
	struct octo_port_conf c = {
		.nb_rxq = nb_q, .nb_txq = nb_q, .socket = SOCKET_ID_ANY,
		.rss_hf = rss_hf, .pool = mp,
	};

	return octo_port_start(port, &c);
}

int
main(int argc, char **argv)
{
	static struct octonic_verdict v[NB_FRAMES], vc[NB_FRAMES];
	struct octonic_eswitch_cache *cache;
	const uint64_t hf = RTE_ETH_RSS_IP | RTE_ETH_RSS_UDP | RTE_ETH_RSS_TCP;
	struct rte_pmd_octopus_queue_info qi;
	struct octonic_eswitch *sw;
	struct rte_mempool *mp;
	double base, rss, octo, base_c, rss_c, octo_c;
	unsigned int rounds = 5, i, meta = 0, q_ok = 0;
	uint16_t pf0, octopus;
	int fail = 0, judge = 0, ir = 0;

	if (octo_eal_init_args(&argc, &argv, 512) < 0)
		return 1;
	if (argc > 1 && strcmp(argv[1], "ir") == 0)
		ir = 1;
	else if (argc > 1)
		rounds = atoi(argv[1]);
	if (argc > 2 && strcmp(argv[2], "judge") == 0)
		judge = 1;
	mp = octo_app_pool("steer_bench", NB_FRAMES + 4095, 0);
	if (mp == NULL || make_frames(mp) != 0 ||
			rte_vdev_init("net_octonic0", "pfs=2,numa=0:1,gen_limit=1") != 0 ||
			rte_eth_dev_get_port_by_name("net_octonic0_pf0", &pf0) != 0) {
		printf("setup failed\n");
		return 1;
	}
	sw = ((struct octonic_pf *)rte_eth_devices[pf0].data->dev_private)->dom->sw;
	cache = octonic_eswitch_cache_create(0);
	if (cache == NULL)
		return 1;

	if (port_up(pf0, 1, 0, mp) != 0)
		return 1;
	base = classify_cost(sw, NULL, rounds, v, ir ? ir_base : NULL,
		"ir_base");
	base_c = classify_cost(sw, cache, ir ? 1 : rounds, vc, NULL, NULL);
	rte_eth_dev_stop(pf0);
	if (port_up(pf0, 2, hf, mp) != 0)
		return 1;
	rss = classify_cost(sw, NULL, rounds, v, ir ? ir_rss : NULL, "ir_rss");
	rss_c = classify_cost(sw, cache, ir ? 1 : rounds, vc, NULL, NULL);
	fail |= verdicts_differ("RSS", v, vc);
	for (i = 0; i < NB_FRAMES; i++)
		if (!v[i].has_rss)
			break;
	if (i < NB_FRAMES) {
		printf("FAIL: RSS did not hash frame %u\n", i);
		fail = 1;
	}
	rte_eth_dev_stop(pf0);

	if (rte_vdev_init("net_octopus0",
			"member=net_octonic0_pf0,member=net_octonic0_pf1") != 0 ||
			rte_eth_dev_get_port_by_name("net_octopus0", &octopus) != 0 ||
			port_up(octopus, 2, hf, mp) != 0) {
		printf("net_octopus setup failed\n");
		return 1;
	}
	if (rte_pmd_octopus_queue_info_get(octopus, 0, 0, &qi) != 0 ||
			!qi.steered) {
		printf("FAIL: net_octopus did not install its steering\n");
		fail = 1;
	}
	octo = classify_cost(sw, NULL, ir ? 1 : rounds, v, NULL, NULL);
	octo_c = classify_cost(sw, cache, rounds, vc,
		ir ? ir_octopus_cached : NULL, "ir_octopus_cached");
	fail |= verdicts_differ("octopus", v, vc);
	for (i = 0; i < NB_FRAMES; i++) {
		meta += v[i].has_meta;
		q_ok += !v[i].drop && v[i].queue < 2;
	}
	if (meta != NB_FRAMES || q_ok != NB_FRAMES) {
		printf("FAIL: octopus's rules decided %u of %u frames (%u on its"
			" queues)\n", meta, NB_FRAMES, q_ok);
		fail = 1;
	}
	if (ir)
		goto out;
	printf("e-switch emulation, TSC cycles per packet (best of %u rounds of"
		" %u packets, 1024 flows):\n", rounds, PASSES * NB_FRAMES);
	printf("                              tables alone   engine (flow cache)\n");
	printf("  parsing, no rule, no RSS:   %6.1f         %6.1f\n", base, base_c);
	printf("  RSS (no rule):              %6.1f         %6.1f\n", rss, rss_c);
	printf("  net_octopus's rules:        %6.1f         %6.1f\n", octo, octo_c);
	printf("RSS costs %.1f; matching octopus's rules costs %.1f through the"
		" tables, %.1f as the engine does it\n", rss - base, octo - base,
		octo_c - base);
	if (octo_c - base > rss - base) {
		printf("%s: the engine's matching of octopus's rules costs more"
			" cycles than RSS\n", judge ? "FAIL" : "note");
		fail |= judge;
	}
out:
	rte_eth_dev_stop(octopus);
	rte_eth_dev_close(octopus);
	rte_vdev_uninit("net_octopus0");
	rte_vdev_uninit("net_octonic0");
	rte_pktmbuf_free_bulk(frames, NB_FRAMES);
	octonic_eswitch_cache_free(cache);
	rte_mempool_free(mp);
	rte_eal_cleanup();
	return fail;
}
