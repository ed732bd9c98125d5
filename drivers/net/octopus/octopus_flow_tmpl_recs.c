/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/* A template table's rule records (octopus_flow_tmpl_priv.h). */

#include <errno.h>
#include <string.h>

#include <rte_common.h>
#include <rte_malloc.h>

#include "octopus_flow_tmpl_priv.h"

int
octopus_tmpl_recs_init(struct octopus_tmpl_recs *p, uint32_t capacity, size_t size,
		uint16_t nb_cache, int socket)
{
	uint32_t i;

	memset(p, 0, sizeof(*p));
	if (nb_cache == 0 || size == 0 || size > RTE_CACHE_LINE_SIZE)
		return -EINVAL;
	/* a record another flow queue's cache holds is not one this queue
	 * can take: each cache may hold OCTOPUS_TMPL_RECS_CACHE more
	 */
	if ((uint64_t)capacity + (uint64_t)nb_cache * OCTOPUS_TMPL_RECS_CACHE > UINT32_MAX)
		return -ENOMEM;
	p->n = capacity + (uint32_t)nb_cache * OCTOPUS_TMPL_RECS_CACHE;
	/* rte_log2_u32 rounds up: the next power of 2 */
	p->shift = rte_log2_u32((uint32_t)size);
	p->nb_cache = nb_cache;
	rte_spinlock_init(&p->lock);
	p->base = rte_zmalloc_socket("octopus_tmpl_recs", (size_t)p->n << p->shift,
		RTE_CACHE_LINE_SIZE, socket);
	p->free = rte_malloc_socket("octopus_tmpl_recs_free", (size_t)p->n * sizeof(*p->free),
		0, socket);
	p->cache = rte_zmalloc_socket("octopus_tmpl_recs_cache",
		(size_t)nb_cache * sizeof(*p->cache), RTE_CACHE_LINE_SIZE, socket);
	if (p->base == NULL || p->free == NULL || p->cache == NULL) {
		octopus_tmpl_recs_fini(p);
		return -ENOMEM;
	}
	/* the top of the stack is index 0: a fresh table hands out records
	 * in address order
	 */
	for (i = 0; i < p->n; i++)
		p->free[i] = p->n - 1 - i;
	p->nb_free = p->n;
	return 0;
}

void
octopus_tmpl_recs_fini(struct octopus_tmpl_recs *p)
{
	rte_free(p->base);
	rte_free(p->free);
	rte_free(p->cache);
	memset(p, 0, sizeof(*p));
}

uint32_t
octopus_tmpl_recs_in_use(const struct octopus_tmpl_recs *p)
{
	uint32_t free = p->nb_free;
	uint16_t i;

	for (i = 0; i < p->nb_cache; i++)
		free += p->cache[i].n;
	return p->n - free;
}

void
octopus_tmpl_recs_refill(struct octopus_tmpl_recs *p, struct octopus_tmpl_recs_cache *c)
{
	uint32_t nb;

	rte_spinlock_lock(&p->lock);
	nb = RTE_MIN(p->nb_free, (uint32_t)OCTOPUS_TMPL_RECS_BATCH);
	/* the stack's top stays the cache's top: the next taken is the
	 * one the stack would have given
	 */
	p->nb_free -= nb;
	memcpy(&c->idx[c->n], &p->free[p->nb_free], nb * sizeof(c->idx[0]));
	c->n += nb;
	rte_spinlock_unlock(&p->lock);
}

void
octopus_tmpl_recs_flush(struct octopus_tmpl_recs *p, struct octopus_tmpl_recs_cache *c)
{
	/* the oldest go: the newest, last given back, are the likeliest
	 * still in the CPU's cache
	 */
	rte_spinlock_lock(&p->lock);
	memcpy(&p->free[p->nb_free], c->idx, OCTOPUS_TMPL_RECS_BATCH * sizeof(c->idx[0]));
	p->nb_free += OCTOPUS_TMPL_RECS_BATCH;
	rte_spinlock_unlock(&p->lock);
	c->n -= OCTOPUS_TMPL_RECS_BATCH;
	memmove(c->idx, &c->idx[OCTOPUS_TMPL_RECS_BATCH], c->n * sizeof(c->idx[0]));
}
