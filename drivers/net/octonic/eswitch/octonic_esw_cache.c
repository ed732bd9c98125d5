/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * The e-switch's flow cache: verdicts by parsed flow key, two ways per set.
 * The tuple-space lookup probes one hash table per distinct mask and stage
 * (net_octopus's steering: up to 7 per packet); a hit here costs one CRC
 * of the 72-byte key and one comparison.  An entry holds for the rule
 * generation and the configuration epoch it was decided in; a change of
 * either makes every entry stale at once, without touching them.
 */

#include <string.h>

#include <rte_hash_crc.h>
#include <rte_malloc.h>

#include "octonic_esw_internal.h"

#define SW_CACHE_SETS 2048	/* power of 2; two ways each */
#define SW_CACHE_STALE UINT64_MAX	/* no generation is this */

struct __rte_cache_aligned sw_cache_entry {
	struct octo_flow_key key;
	uint64_t gen;
	uint32_t cfg;
	uint32_t hash;
	struct octonic_verdict v;
};

struct octonic_eswitch_cache {
	struct sw_cache_entry e[SW_CACHE_SETS][2];
};

struct octonic_eswitch_cache *
octonic_eswitch_cache_create(int socket)
{
	struct octonic_eswitch_cache *c;
	unsigned int s;

	c = rte_zmalloc_socket("octonic_flow_cache", sizeof(*c),
		RTE_CACHE_LINE_SIZE, socket);
	if (c == NULL)
		return NULL;
	for (s = 0; s < SW_CACHE_SETS; s++) {
		c->e[s][0].gen = SW_CACHE_STALE;
		c->e[s][1].gen = SW_CACHE_STALE;
	}
	return c;
}

void
octonic_eswitch_cache_free(struct octonic_eswitch_cache *c)
{
	rte_free(c);
}

uint32_t
octonic_esw_cache_hash(const struct octo_flow_key *k)
{
	RTE_BUILD_BUG_ON(sizeof(*k) % 8 != 0);
	return rte_hash_crc(k, sizeof(*k), 0);
}

static inline int
key_eq(const struct octo_flow_key *a, const struct octo_flow_key *b)
{
	const uint64_t *x = (const uint64_t *)a, *y = (const uint64_t *)b;
	uint64_t d = 0;
	unsigned int i;

	for (i = 0; i < sizeof(*a) / 8; i++)
		d |= x[i] ^ y[i];
	return d == 0;
}

static inline int
entry_holds(const struct sw_cache_entry *e, const struct octo_flow_key *k,
		uint32_t hash, uint64_t gen, uint32_t cfg)
{
	return e->gen == gen && e->cfg == cfg && e->hash == hash &&
		key_eq(&e->key, k);
}

int
octonic_esw_cache_get(const struct octonic_eswitch_cache *c, const struct octo_flow_key *k,
		uint32_t hash, uint64_t gen, uint32_t cfg, struct octonic_verdict *v)
{
	const struct sw_cache_entry *set = c->e[hash & (SW_CACHE_SETS - 1)];
	unsigned int w;

	for (w = 0; w < 2; w++)
		if (entry_holds(&set[w], k, hash, gen, cfg)) {
			*v = set[w].v;
			return 1;
		}
	return 0;
}

void
octonic_esw_cache_put(struct octonic_eswitch_cache *c, const struct octo_flow_key *k,
		uint32_t hash, uint64_t gen, uint32_t cfg,
		const struct octonic_verdict *v)
{
	struct sw_cache_entry *set = c->e[hash & (SW_CACHE_SETS - 1)], *e;

	/* a stale way first; else the older way goes (way 1 is older) */
	if (set[0].gen != gen || set[0].cfg != cfg) {
		e = &set[0];
	} else if (set[1].gen != gen || set[1].cfg != cfg) {
		e = &set[1];
	} else {
		set[1] = set[0];
		e = &set[0];
	}
	e->key = *k;
	e->gen = gen;
	e->cfg = cfg;
	e->hash = hash;
	e->v = *v;
}
