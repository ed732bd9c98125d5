/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * The order in which the NIC reads what the PFs' Tx rings were given.
 *
 * Every post (one Tx burst) is logged with the time the NIC reads it: its
 * doorbell plus a draw in [0, tx_read_ns], never before an earlier post of
 * the same ring.  A run of the engine takes posts from all rings in the
 * order of those times, and only those read by the time it started; why,
 * and what order that gives the wire, is in octonic.rst "Datapath" (D5).
 *
 * The log has a slot per descriptor: every post not fully taken holds at
 * least one descriptor, so it never overflows.  One writer (the ring's
 * sender) and one reader (the engine, under its lock).  Beside it, by
 * frame, the wire frames the sender's Tx DMA made (octonic_tx_dma): the
 * engine reads a frame's before it frees the ring slot, which is what
 * lets the sender post into it again.
 */

#include <rte_malloc.h>

#include "octonic_internal.h"

int
octonic_txorder_setup(struct octonic_txq *txq, uint32_t size, int socket)
{
	size = rte_align32pow2(size);
	txq->log = rte_zmalloc_socket("octonic_txlog", sizeof(txq->log[0]) * size,
		RTE_CACHE_LINE_SIZE, socket);
	if (txq->log == NULL)
		return -ENOMEM;
	txq->frames = rte_zmalloc_socket("octonic_txframes",
		sizeof(txq->frames[0]) * size, RTE_CACHE_LINE_SIZE, socket);
	if (txq->frames == NULL) {
		rte_free(txq->log);
		txq->log = NULL;
		return -ENOMEM;
	}
	txq->log_mask = size - 1;
	/* a seed per ring: their draws differ */
	txq->rnd = 0x9e3779b9u ^ ((uint32_t)txq->pf->idx << 16) ^ txq->qid;
	if (txq->rnd == 0)
		txq->rnd = 1;
	octonic_txorder_reset(txq);
	return 0;
}

/* The frames the NIC has not taken go with what the ring held. */
static void
frames_drop(struct octonic_txq *txq)
{
	struct rte_mbuf *w;
	uint32_t i;

	if (txq->frames == NULL)
		return;
	for (i = txq->taken; i != txq->posted; i++) {
		w = txq->frames[i & txq->log_mask];
		if (w != OCTONIC_TX_UNREAD)
			rte_pktmbuf_free(w);
	}
}

void
octonic_txorder_free(struct octonic_txq *txq)
{
	frames_drop(txq);
	rte_free(txq->frames);
	txq->frames = NULL;
	rte_free(txq->log);
	txq->log = NULL;
}

/* The ring was emptied (stop): nothing posted, nothing to read. */
void
octonic_txorder_reset(struct octonic_txq *txq)
{
	frames_drop(txq);
	rte_atomic_store_explicit(&txq->log_pi, 0, rte_memory_order_relaxed);
	txq->posted = 0;
	txq->last_read = 0;
	txq->log_ci = 0;
	txq->taken = 0;
}

/*
 * The ring whose next post the NIC read first, among those read by
 * @p now (NULL: none); @p until: up to when its posts may be taken before
 * another ring's (the next ring's read time, at most @p now); @p rings:
 * how many rings have a post read by then.
 */
struct octonic_txq *
octonic_txorder_first(struct octonic_nic *nic, uint64_t now, uint64_t *until,
		unsigned int *rings)
{
	uint64_t best = UINT64_MAX, next = UINT64_MAX, t;
	struct octonic_txq *first = NULL, *txq;
	struct rte_eth_dev_data *data;
	uint16_t p, q;

	*rings = 0;
	for (p = 0; p < nic->nb_pfs; p++) {
		if (nic->pf[p] == NULL)
			continue;
		data = nic->pf[p]->dev->data;
		for (q = 0; q < data->nb_tx_queues; q++) {
			txq = data->tx_queues[q];
			if (txq == NULL || txq->log_ci ==
					rte_atomic_load_explicit(&txq->log_pi,
						rte_memory_order_acquire))
				continue;
			t = txq->log[txq->log_ci & txq->log_mask].read;
			if (t > now)
				continue;
			(*rings)++;
			if (t < best) {
				next = best;
				best = t;
				first = txq;
			} else if (t < next) {
				next = t;
			}
		}
	}
	*until = RTE_MIN(next, now);
	return first;
}

/* Frames of @p txq's posts read by @p until, at most @p max (>= 1 post). */
uint32_t
octonic_txorder_count(const struct octonic_txq *txq, uint64_t until, uint32_t max)
{
	uint32_t pi = rte_atomic_load_explicit(&txq->log_pi, rte_memory_order_acquire);
	uint32_t ci = txq->log_ci, end = txq->taken;
	const struct octonic_txpost *e;

	for (; ci != pi; ci++) {
		e = &txq->log[ci & txq->log_mask];
		if (ci != txq->log_ci && e->read > until)
			break;
		end = e->end;
		if (end - txq->taken >= max)
			return max;
	}
	return end - txq->taken;
}

/* The NIC took @p n more frames of @p txq, in posting order. */
void
octonic_txorder_taken(struct octonic_txq *txq, uint32_t n)
{
	txq->taken += n;
	while (txq->log_ci != rte_atomic_load_explicit(&txq->log_pi,
			rte_memory_order_relaxed) &&
	       (int32_t)(txq->log[txq->log_ci & txq->log_mask].end - txq->taken) <= 0)
		txq->log_ci++;
}
