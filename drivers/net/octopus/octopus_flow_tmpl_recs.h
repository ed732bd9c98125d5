/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTOPUS_FLOW_TMPL_RECS_H
#define OCTOPUS_FLOW_TMPL_RECS_H

/*
 * A template table's rule records: one array of fixed-size records, and
 * their free indexes, a few per flow queue and the rest shared (the
 * indexed pool of a table, as mlx5's hardware steering has one).
 *
 * Why not a mempool: a mempool object carries its header, so each record
 * would take a cache line of its own, and after a few rounds of inserts
 * and deletes its free objects come back in no useful order: a rule's
 * destroy, which begins by reading its record, would begin with a cache
 * miss. Here records are adjacent, two to a line at 32
 * bytes, and a flow queue takes them in index order from a fresh table
 * and in reverse order of their return after, which the CPU's prefetcher
 * follows when rules come and go in runs.
 *
 * A flow queue's cache is used by the lcore that owns the flow queue only
 * (rte_flow's contract for flow queues), without a lock; the shared stack
 * is under a spinlock, taken once per OCTOPUS_TMPL_RECS_BATCH records.
 */

#include <stddef.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_spinlock.h>

/** Free indexes a flow queue keeps at most. */
#define OCTOPUS_TMPL_RECS_CACHE	64
/** Indexes moved between a flow queue's cache and the shared stack at once. */
#define OCTOPUS_TMPL_RECS_BATCH	32

struct __rte_cache_aligned octopus_tmpl_recs_cache {
	uint32_t n;
	uint32_t idx[OCTOPUS_TMPL_RECS_CACHE];
};

struct octopus_tmpl_recs {
	char *base;		/* [n] records, 1 << @p shift bytes apart */
	/*
	 * a record's size rounded up to a power of 2:
	 * put finds an index without a division
	 */
	uint32_t shift;
	uint32_t n;		/* the capacity asked for plus every cache's fill */
	rte_spinlock_t lock;	/* the shared stack */
	uint32_t nb_free;
	uint32_t *free;		/* [n]: the shared free indexes, a stack */
	uint16_t nb_cache;
	struct octopus_tmpl_recs_cache *cache;	/* [nb_cache]: per flow queue */
};

/*
 * Records for @p capacity rules of @p size bytes each (zeroed; each takes
 * the next power of 2, 32 for the port's), taken and
 * given back on flow queues 0 .. @p nb_cache - 1, on NUMA @p socket.
 * Room is kept so that @p capacity records can be in use whatever the
 * caches hold. @return 0, -ENOMEM.
 */
int octopus_tmpl_recs_init(struct octopus_tmpl_recs *p, uint32_t capacity, size_t size,
		uint16_t nb_cache, int socket);

/* Frees what init took; @p p may be zeroed, or released already. */
void octopus_tmpl_recs_fini(struct octopus_tmpl_recs *p);

/* Records given out and not back. Exact when no flow queue is in use. */
uint32_t octopus_tmpl_recs_in_use(const struct octopus_tmpl_recs *p);

/* Slow halves of get and put: the shared stack. */
void octopus_tmpl_recs_refill(struct octopus_tmpl_recs *p, struct octopus_tmpl_recs_cache *c);
void octopus_tmpl_recs_flush(struct octopus_tmpl_recs *p, struct octopus_tmpl_recs_cache *c);

/* A record for flow queue @p fq, NULL when none is left. */
static inline void *
octopus_tmpl_recs_get(struct octopus_tmpl_recs *p, uint16_t fq)
{
	struct octopus_tmpl_recs_cache *c = &p->cache[fq];

	if (unlikely(c->n == 0)) {
		octopus_tmpl_recs_refill(p, c);
		if (c->n == 0)
			return NULL;
	}
	return p->base + ((size_t)c->idx[--c->n] << p->shift);
}

/* @p rec back, on flow queue @p fq (any: the one that saw it go). */
static inline void
octopus_tmpl_recs_put(struct octopus_tmpl_recs *p, uint16_t fq, void *rec)
{
	struct octopus_tmpl_recs_cache *c = &p->cache[fq];

	if (unlikely(c->n == OCTOPUS_TMPL_RECS_CACHE))
		octopus_tmpl_recs_flush(p, c);
	c->idx[c->n++] = (uint32_t)(((char *)rec - p->base) >> p->shift);
}

#endif /* OCTOPUS_FLOW_TMPL_RECS_H */
