/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/* The data path: wire packets -> verdicts.  Lock-free and allocation-free:
 * one generation and one view are read per call, and packets are resolved
 * a stage at a time, all packets at the same (domain, group) together so
 * that each mask table is probed with one bulk lookup (which prefetches,
 * hiding the cache misses of large tables).
 */

#include <string.h>

#include <rte_hash.h>
#include <rte_mbuf.h>
#include <rte_prefetch.h>

#include "octonic_esw_internal.h"

/* Packets resolved together (rte_hash bulk lookups take at most 64). */
#define SW_CHUNK 64
/* Bytes of headers parsed: Ethernet + 2 tags + IPv6 + extensions + TCP. */
#define SW_HDR_BYTES 192

struct sw_pkt {
	struct octo_flow_key key;
	uint32_t group;
	uint16_t dom;
	uint8_t stages;
	uint8_t active;
	uint8_t nocache;	/* a rule on its path counts: decide every time */
	uint8_t from_pf;	/* a PF sent it: a transfer miss goes to the wire */
	uint16_t arrival;	/* PF whose uplink it came in by (sw->uplinks) */
	uint32_t len;
};

static const struct sw_gview *
find_group(const struct sw_view *view, uint16_t dom, uint32_t group)
{
	const struct sw_gview *g;
	uint32_t lo = 0, hi;

	if (view == NULL)
		return NULL;
	g = view->groups[dom];
	hi = view->nb_groups[dom];
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (g[mid].group == group)
			return &g[mid];
		if (g[mid].group < group)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Best rule of generation @p gen for packets @p idx at (dom, group). */
static void
resolve(const struct sw_view *view, uint64_t gen, struct sw_pkt *st,
		const uint16_t *idx, uint32_t cnt, uint16_t dom, uint32_t group,
		struct sw_hot **best)
{
	const struct sw_gview *gv = find_group(view, dom, group);
	uint32_t hk[SW_CHUNK * OCTO_KEY_LEN_MAX / sizeof(uint32_t)];
	const void *kp[SW_CHUNK];
	void *data[SW_CHUNK];
	uint32_t p, i;

	for (i = 0; i < cnt; i++)
		best[i] = NULL;
	if (gv == NULL)
		return;
	for (p = 0; p < gv->nb_probes; p++) {
		const struct sw_probe *pr = &gv->probes[p];
		uint32_t stride = pr->layout.key_len / sizeof(uint32_t);
		uint64_t hits = 0;

		/* Keys packed back to back: fewer lines to hash and compare. */
		for (i = 0; i < cnt; i++) {
			octo_key_build(&pr->layout, pr->id, &st[idx[i]].key,
				&hk[i * stride]);
			kp[i] = &hk[i * stride];
		}
		if (rte_hash_lookup_bulk_data(pr->h, kp, cnt, &hits, data) <= 0)
			continue;
		/* Touch every hit's rule before walking them: the loads overlap
		 * instead of stalling one after the other.
		 */
		for (i = 0; i < cnt; i++)
			if ((hits >> i & 1) != 0)
				rte_prefetch0(sw_entry_rule(data[i]));
		for (i = 0; i < cnt; i++) {
			struct sw_hot *const *rs;
			struct sw_hot *one;
			uint32_t j, nr;

			if ((hits >> i & 1) == 0)
				continue;
			if (sw_entry_is_one(data[i])) {
				one = sw_entry_rule(data[i]);
				rs = &one;
				nr = 1;
			} else {
				const struct sw_bucket *b = data[i];

				rs = b->r;
				nr = b->n;
			}
			for (j = 0; j < nr; j++) {
				struct sw_hot *r = rs[j];

				if (r->born > gen || rte_atomic_load_explicit(&r->dead,
						rte_memory_order_relaxed) <= gen)
					continue;
				/* Equal priorities in two tables: the rule
				 * first in order wins, the older or, under
				 * mlx5-hws, the newer (a rare tie, so its
				 * order is read from the rule itself).
				 */
				if (best[i] == NULL || r->prio < best[i]->prio ||
						(r->prio == best[i]->prio &&
						 r->cold->order < best[i]->cold->order))
					best[i] = r;
				break;	/* sorted: the first visible is the best */
			}
		}
	}
}

/* No ingress rule decided: the PF's RSS, or drop when isolated. */
static void
pf_default(struct octonic_eswitch *sw, struct sw_pkt *s, struct octonic_verdict *v)
{
	const struct sw_pf *pf = &sw->pf[v->pf];
	const struct sw_pf_rss *rss;
	uint32_t h;

	if (rte_atomic_load_explicit(&pf->isolated, rte_memory_order_acquire)) {
		v->drop = 1;
		return;
	}
	rss = rte_atomic_load_explicit(&pf->rss, rte_memory_order_acquire);
	if (rss->nb_rxq != 0 && rss->hf != 0 &&
			octonic_esw_rss_hash(&s->key, rss->hf, rss->key, &h)) {
		v->has_rss = 1;
		v->rss_hash = h;
		v->queue = rss->reta[h % OCTONIC_RETA_SIZE];
	}
}

static void
apply(struct octonic_eswitch *sw, struct sw_hot *r, struct sw_pkt *s,
		struct octonic_verdict *v)
{
	uint32_t h;

	if (r == NULL) {
		if (s->dom == SW_DOM_TRANSFER && s->from_pf) {
			/* Transfer miss of what a PF sent: out on the wire
			 * (mlx5's SQ miss rules send it to its port)
			 */
			v->to_wire = 1;
			s->active = 0;
		} else if (s->dom == SW_DOM_TRANSFER) {
			/* Transfer miss: the wire's default PF (where the
			 * PFs are uplinks: the one it arrived by).
			 */
			v->pf = s->arrival;
			s->dom = 1;
			s->group = 0;
			s->stages = 0;
		} else {
			pf_default(sw, s, v);
			s->active = 0;
		}
		return;
	}
	if ((r->flags & SW_HOT_COUNT) != 0) {
		s->nocache = 1;
		rte_atomic_fetch_add_explicit(&r->cold->hits, 1, rte_memory_order_relaxed);
		rte_atomic_fetch_add_explicit(&r->cold->bytes, s->len, rte_memory_order_relaxed);
	}
	if ((r->flags & SW_HOT_SET_META) != 0) {
		const struct rte_flow *c = r->cold;

		s->key.meta = (s->key.meta & ~c->meta_mask) | c->meta_data;
		v->meta = s->key.meta;
		v->has_meta = 1;
	}
	if ((r->flags & SW_HOT_MARK) != 0) {
		v->has_mark = 1;
		v->mark = r->cold->mark;
	}
	if ((r->flags & SW_HOT_FLAG) != 0)
		v->has_flag = 1;
	switch (r->fate) {
	case SW_FATE_DROP:
		v->drop = 1;
		s->active = 0;
		break;
	case SW_FATE_JUMP:
		s->group = r->arg;
		if (++s->stages > SW_MAX_STAGES)
			apply(sw, NULL, s, v);	/* too deep: domain default */
		break;
	case SW_FATE_PORT:
		if ((r->arg & SW_PORT_UPLINK) != 0) {
			/* out of the NIC: no ingress domain */
			v->pf = (uint16_t)(r->arg & ~SW_PORT_UPLINK);
			v->to_uplink = 1;
			s->active = 0;
			break;
		}
		v->pf = (uint16_t)r->arg;
		s->dom = 1 + r->arg;
		s->group = 0;
		s->stages = 0;
		break;
	case SW_FATE_QUEUE:
		v->queue = (uint16_t)r->arg;
		s->active = 0;
		break;
	case SW_FATE_RSS: {
		const struct sw_rss_action *ra = r->cold->rss;

		if (octonic_esw_rss_hash(&s->key, ra->types, ra->key, &h)) {
			v->has_rss = 1;
			v->rss_hash = h;
			v->queue = ra->queues[h % ra->nb_queues];
		} else {
			v->queue = ra->queues[0];
		}
		s->active = 0;
		break;
	}
	default:
		s->active = 0;
		break;
	}
}

/* @p src: where it entered the e-switch (SW_SRC_*) */
static void
parse_one(const struct octonic_eswitch *sw, const struct rte_mbuf *m,
		struct sw_pkt *s, uint16_t src)
{
	uint8_t buf[SW_HDR_BYTES];
	uint32_t len = RTE_MIN(rte_pktmbuf_pkt_len(m), (uint32_t)SW_HDR_BYTES);
	const uint8_t *p = rte_pktmbuf_read(m, 0, len, buf);

	octo_flow_key_parse(p, p != NULL ? len : 0, 0, &s->key);
	sw_src_set(&s->key, src);
	s->from_pf = src != SW_SRC_WIRE;
	s->group = 0;
	s->dom = SW_DOM_TRANSFER;
	s->stages = 0;
	s->active = 1;
	s->nocache = 0;
	/* the engine tells the uplink in the frame's port field */
	s->arrival = sw->uplinks && m->port < sw->nb_pfs ? m->port : 0;
	s->len = rte_pktmbuf_pkt_len(m);
}

/* Verdicts of n parsed packets (their keys take the metadata set). */
static void
decide(struct octonic_eswitch *sw, const struct sw_view *view, uint64_t gen,
		struct sw_pkt *st, uint16_t n, struct octonic_verdict *v)
{
	struct sw_hot *best[SW_CHUNK];
	uint16_t idx[SW_CHUNK];
	uint16_t i, first = 0;

	memset(v, 0, sizeof(*v) * n);
	for (;;) {
		uint16_t dom;
		uint32_t group, cnt = 0;

		while (first < n && !st[first].active)
			first++;
		if (first == n)
			break;
		dom = st[first].dom;
		group = st[first].group;
		for (i = first; i < n; i++)
			if (st[i].active && st[i].dom == dom && st[i].group == group)
				idx[cnt++] = i;
		resolve(view, gen, st, idx, cnt, dom, group, best);
		for (i = 0; i < cnt; i++)
			apply(sw, best[i], &st[idx[i]], &v[idx[i]]);
	}
}

static void
classify_chunk(struct octonic_eswitch *sw, const struct sw_view *view,
		uint64_t gen, uint16_t src, struct rte_mbuf **pkts, uint16_t n,
		struct octonic_verdict *v)
{
	struct sw_pkt st[SW_CHUNK];
	uint16_t i;

	for (i = 0; i < n; i++)
		parse_one(sw, pkts[i], &st[i], src);
	decide(sw, view, gen, st, n, v);
}

/*
 * As classify_chunk, but a flow whose verdict @p c holds for this
 * generation and configuration is not looked up again: only the others
 * go through the tables, and their verdicts are remembered.
 */
static void
classify_chunk_cached(struct octonic_eswitch *sw, struct octonic_eswitch_cache *c,
		const struct sw_view *view, uint64_t gen, uint32_t cfg,
		struct rte_mbuf **pkts, uint16_t n, struct octonic_verdict *v)
{
	struct sw_pkt st[SW_CHUNK], ms[SW_CHUNK];
	struct octonic_verdict mv[SW_CHUNK];
	uint32_t hash[SW_CHUNK];
	uint16_t miss[SW_CHUNK];
	uint16_t i, nm = 0;

	for (i = 0; i < n; i++) {
		parse_one(sw, pkts[i], &st[i], SW_SRC_WIRE);
		hash[i] = octonic_esw_cache_hash(&st[i].key);
		if (octonic_esw_cache_get(c, &st[i].key, hash[i], gen, cfg, &v[i]))
			continue;
		ms[nm] = st[i];
		miss[nm++] = i;
	}
	if (nm == 0)
		return;
	decide(sw, view, gen, ms, nm, mv);
	for (i = 0; i < nm; i++) {
		v[miss[i]] = mv[i];
		if (!ms[i].nocache)
			octonic_esw_cache_put(c, &st[miss[i]].key, hash[miss[i]], gen, cfg,
				&mv[i]);
	}
}

void
octonic_eswitch_classify(struct octonic_eswitch *sw, struct rte_mbuf **pkts,
		uint16_t n, struct octonic_verdict *v)
{
	/* Generation first, then the view: a view at least as new as the
	 * generation is guaranteed (both are published release, view first).
	 */
	uint64_t gen = rte_atomic_load_explicit(&sw->gen, rte_memory_order_acquire);
	const struct sw_view *view = rte_atomic_load_explicit(&sw->view, rte_memory_order_acquire);
	uint16_t i;

	for (i = 0; i < n; i += SW_CHUNK)
		classify_chunk(sw, view, gen, SW_SRC_WIRE, pkts + i,
			RTE_MIN(n - i, SW_CHUNK), v + i);
}

void
octonic_eswitch_classify_tx(struct octonic_eswitch *sw, uint16_t pf,
		struct rte_mbuf **pkts, uint16_t n, struct octonic_verdict *v)
{
	uint64_t gen = rte_atomic_load_explicit(&sw->gen, rte_memory_order_acquire);
	const struct sw_view *view = rte_atomic_load_explicit(&sw->view, rte_memory_order_acquire);
	uint16_t i;

	for (i = 0; i < n; i += SW_CHUNK)
		classify_chunk(sw, view, gen, SW_SRC_PF(pf), pkts + i,
			RTE_MIN(n - i, SW_CHUNK), v + i);
}

void
octonic_eswitch_classify_cached(struct octonic_eswitch *sw,
		struct octonic_eswitch_cache *c, struct rte_mbuf **pkts,
		uint16_t n, struct octonic_verdict *v)
{
	/* the configuration epoch before the RSS states it covers, as the
	 * generation before the view
	 */
	uint64_t gen = rte_atomic_load_explicit(&sw->gen, rte_memory_order_acquire);
	uint32_t cfg = rte_atomic_load_explicit(&sw->cfg_epoch, rte_memory_order_acquire);
	const struct sw_view *view = rte_atomic_load_explicit(&sw->view, rte_memory_order_acquire);
	uint16_t i;

	for (i = 0; i < n; i += SW_CHUNK)
		classify_chunk_cached(sw, c, view, gen, cfg, pkts + i,
			RTE_MIN(n - i, SW_CHUNK), v + i);
}
