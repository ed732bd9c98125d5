/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTOPUS_FLOW_SLAB_H
#define OCTOPUS_FLOW_SLAB_H

/*
 * Memory for the port's rule records (a record and its rule copy, a few
 * hundred bytes each), carved from chunks of DPDK's heap.
 *
 * Why not malloc: the C heap grows by 4K pages that fault in at first
 * touch, one fault every few records, a cost a rule insertion would pay on
 * top of its own work. DPDK's heap is on hugepages that EAL faulted in at
 * start, as the NIC model's own rules are. Why not rte_malloc per record:
 * its heap walk and lock cost more than the record's copy.
 *
 * Sizes are rounded up to classes of 64 bytes, each with a free list, so
 * that a freed record's memory serves the next record of its class; a
 * record larger than the largest class comes from malloc. The chunks go
 * back to DPDK's heap when no record is in use (the last rule destroyed,
 * flush; one chunk stays until close). Not thread-safe: ethdev serialises
 * the flow ops.
 */

#include <stddef.h>
#include <stdint.h>

#define OCTOPUS_FLOW_SLAB_CLASS		64	/* bytes */
#define OCTOPUS_FLOW_SLAB_CLASSES	32	/* up to 2 KB */

/* The head of a chunk (from rte_malloc); records follow, cache-line aligned. */
struct octopus_flow_slab_chunk {
	struct octopus_flow_slab_chunk *next;
};

struct octopus_flow_slab {
	struct octopus_flow_slab_chunk *chunks;	/* every chunk, linked */
	void *free[OCTOPUS_FLOW_SLAB_CLASSES + 1];	/* per class, linked */
	char *bump[OCTOPUS_FLOW_SLAB_CLASSES + 1];	/* unused part of a chunk */
	char *end[OCTOPUS_FLOW_SLAB_CLASSES + 1];
	uint64_t in_use;			/* records given out, not put */
};

/*
 * At least @p size bytes, aligned to 8, in *@p obj; *@p cls is what
 * octopus_flow_slab_put() needs back (0: from malloc).
 * @return 0, -ENOMEM.
 */
int octopus_flow_slab_get(struct octopus_flow_slab *s, size_t size, void **obj,
		uint8_t *cls);

/* Give @p obj (of class @p cls) back. */
void octopus_flow_slab_put(struct octopus_flow_slab *s, void *obj, uint8_t cls);

/* Give every chunk back to DPDK's heap; no record may be in use. */
void octopus_flow_slab_release(struct octopus_flow_slab *s);

#endif /* OCTOPUS_FLOW_SLAB_H */
