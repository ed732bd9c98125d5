/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/* A template table's rule slots: allocated a chunk at a time as rules
 * need them, taken by a queue's create and given back when its rule
 * leaves the tables.  The stack has a lock of its own: the queues'
 * threads take and return slots without the e-switch's lock.
 */

#include <stdlib.h>
#include <string.h>

#include <rte_malloc.h>
#include <rte_spinlock.h>

#include "octonic_esw_template.h"

struct rte_flow *
octonic_esw_tbl_slot_get(struct octonic_eswitch *sw, struct rte_flow_template_table *t)
{
	struct rte_flow *r = NULL;

	rte_spinlock_lock(&t->slot_lock);
	if (t->nb_used >= t->nb_flows)
		goto out;
	if (t->nb_free == 0) {
		struct rte_flow *chunk;
		void **nc;
		uint32_t i, left = t->nb_flows - t->nb_chunks * SW_TBL_CHUNK;
		uint32_t nb = RTE_MIN(left, (uint32_t)SW_TBL_CHUNK);

		nc = realloc(t->chunks, (t->nb_chunks + 1) * sizeof(*nc));
		if (nc == NULL)
			goto out;
		t->chunks = nc;
		chunk = rte_zmalloc_socket("octonic_tbl_rules", nb * sizeof(*chunk),
			RTE_CACHE_LINE_SIZE, sw->socket);
		if (chunk == NULL)
			goto out;
		t->chunks[t->nb_chunks++] = chunk;
		for (i = 0; i < nb; i++)
			t->free[t->nb_free++] = &chunk[nb - 1 - i];
	}
	r = t->free[--t->nb_free];
	t->nb_used++;
out:
	rte_spinlock_unlock(&t->slot_lock);
	return r;
}

void
octonic_esw_tbl_slot_put(struct rte_flow_template_table *t, struct rte_flow *r)
{
	struct rte_flow_template_table *owner = r->ttable;

	memset(r, 0, sizeof(*r));
	r->ttable = owner;
	rte_spinlock_lock(&t->slot_lock);
	t->free[t->nb_free++] = r;
	t->nb_used--;
	rte_spinlock_unlock(&t->slot_lock);
}
