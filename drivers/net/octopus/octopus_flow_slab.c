/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/* Rule record memory from chunks of DPDK's heap (octopus_flow_slab.h). */

#include <errno.h>
#include <stdlib.h>

#include <rte_common.h>
#include <rte_malloc.h>

#include "octopus_flow_slab.h"

/* 64 KB: at least 32 records of the largest class per chunk. */
#define SLAB_CHUNK_BYTES	(64 * 1024)

#define SLAB_CHUNK_HEAD	RTE_CACHE_LINE_SIZE

static int
chunk_add(struct octopus_flow_slab *s, uint8_t cls)
{
	struct octopus_flow_slab_chunk *c;

	c = rte_malloc("octopus_flow_slab", SLAB_CHUNK_BYTES, RTE_CACHE_LINE_SIZE);
	if (c == NULL)
		return -ENOMEM;
	c->next = s->chunks;
	s->chunks = c;
	s->bump[cls] = (char *)c + SLAB_CHUNK_HEAD;
	s->end[cls] = (char *)c + SLAB_CHUNK_BYTES;
	return 0;
}

int
octopus_flow_slab_get(struct octopus_flow_slab *s, size_t size, void **obj, uint8_t *cls)
{
	size_t stride;
	uint8_t c;

	RTE_BUILD_BUG_ON(SLAB_CHUNK_HEAD + OCTOPUS_FLOW_SLAB_CLASS *
		OCTOPUS_FLOW_SLAB_CLASSES > SLAB_CHUNK_BYTES);
	if (size == 0 || size > OCTOPUS_FLOW_SLAB_CLASS * OCTOPUS_FLOW_SLAB_CLASSES)
		goto heap;
	c = (uint8_t)((size + OCTOPUS_FLOW_SLAB_CLASS - 1) / OCTOPUS_FLOW_SLAB_CLASS);
	stride = (size_t)c * OCTOPUS_FLOW_SLAB_CLASS;
	if (s->free[c] != NULL) {
		*obj = s->free[c];
		s->free[c] = *(void **)*obj;
	} else {
		if ((size_t)(s->end[c] - s->bump[c]) < stride && chunk_add(s, c) != 0)
			goto heap;	/* DPDK's heap is full: the C heap still serves */
		*obj = s->bump[c];
		s->bump[c] += stride;
	}
	*cls = c;
	s->in_use++;
	return 0;
heap:
	*obj = malloc(size);
	if (*obj == NULL)
		return -ENOMEM;
	*cls = 0;
	s->in_use++;
	return 0;
}

void
octopus_flow_slab_put(struct octopus_flow_slab *s, void *obj, uint8_t cls)
{
	if (obj == NULL)
		return;
	if (cls == 0) {
		free(obj);
	} else {
		*(void **)obj = s->free[cls];
		s->free[cls] = obj;
	}
	/* none in use: the chunks go back, but for a last one kept for a
	 * port that creates and destroys one rule at a time
	 */
	if (--s->in_use == 0 && s->chunks != NULL && s->chunks->next != NULL)
		octopus_flow_slab_release(s);
}

void
octopus_flow_slab_release(struct octopus_flow_slab *s)
{
	struct octopus_flow_slab_chunk *c, *next;
	unsigned int i;

	for (c = s->chunks; c != NULL; c = next) {
		next = c->next;
		rte_free(c);
	}
	s->chunks = NULL;
	for (i = 0; i <= OCTOPUS_FLOW_SLAB_CLASSES; i++) {
		s->free[i] = NULL;
		s->bump[i] = NULL;
		s->end[i] = NULL;
	}
}
