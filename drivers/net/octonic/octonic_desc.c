/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Descriptor rings kept the way DPDK's mlx5 driver keeps them, for the
 * datapath realism devargs (octonic.rst "Datapath"): the application side of
 * them, what the driver does in its bursts.  The NIC side (completing
 * frames in posted slots, reading Tx descriptors) is in octonic_engine.c;
 * the DMA of a completed frame into its slot's buffer is made here, by
 * the queue's poller, before its burst hands the slot out.
 *
 * What the rings do, and which of mlx5's functions each rule follows (the
 * passes of the vector Rx, the scalar Rx under scatter, a Tx completion
 * asked every tx_comp_every descriptors), is in octonic.rst "Datapath
 * realism: what mlx5 does".
 */

#include <string.h>

#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "octonic_internal.h"

/* mlx5_defs.h: MLX5_VPMD_RX_MAX_BURST, MLX5_VPMD_DESCS_PER_LOOP and
 * MLX5_VPMD_RXQ_RPLNSH_THRESH(n) = min(64, n / 4)
 */
#define RXD_PASS_MAX 64u
#define RXD_KEPT_BACK 4u

#define LOAD(p, mo) rte_atomic_load_explicit((p), rte_memory_order_ ## mo)
#define STORE(p, v, mo) rte_atomic_store_explicit((p), (v), rte_memory_order_ ## mo)

/* ---- Rx ---- */

struct octonic_rxd *
octonic_rxd_create(uint16_t nb_desc, uint16_t sges, int socket)
{
	uint32_t n = rte_align32pow2(nb_desc), size = n / sges;
	struct octonic_rxd *d;

	if (size == 0)
		return NULL;
	/* the slots' buffers, then the NIC's completions for them (pend) */
	d = rte_zmalloc_socket("octonic_rxd",
		sizeof(*d) + (sizeof(d->elts[0]) + sizeof(d->pend[0])) * size,
		RTE_CACHE_LINE_SIZE, socket);
	if (d == NULL)
		return NULL;
	d->pend = (struct octonic_rx_ref *)&d->elts[size];
	d->size = size;
	d->mask = size - 1;
	d->nb_desc = n;
	d->sges = sges;
	d->scalar = sges > 1;
	d->repl_thresh = RTE_MIN(RXD_PASS_MAX, n / 4);
	return d;
}

int
octonic_rxd_start(struct octonic_rxq *rxq)
{
	struct octonic_rxd *d = rxq->desc;

	octonic_rxd_stop(d);
	if (rte_pktmbuf_alloc_bulk(rxq->mp, d->elts, d->size) != 0)
		return -ENOMEM;
	STORE(&d->rq_ci, d->size, release);
	return 0;
}

void
octonic_rxd_stop(struct octonic_rxd *d)
{
	uint32_t i, pi = LOAD(&d->rq_pi, relaxed), ci = LOAD(&d->rq_ci, relaxed);
	uint32_t hw = LOAD(&d->hw_pi, relaxed);

	for (i = pi; i != ci; i++) {
		rte_pktmbuf_free(d->elts[i & d->mask]);
		d->elts[i & d->mask] = NULL;
	}
	/* completions the poller did not DMA-write yet */
	for (i = d->dma_pi; i != hw; i++)
		rte_pktmbuf_free(d->pend[i & d->mask].frame);
	d->dma_pi = 0;
	STORE(&d->rq_pi, 0, relaxed);
	STORE(&d->rq_ci, 0, relaxed);
	STORE(&d->hw_pi, 0, relaxed);
}

/* Post buffers into the free slots, as mlx5_rx_replenish_bulk_mbuf. */
static void
rxd_replenish(struct octonic_rxq *rxq, struct octonic_rxd *d)
{
	uint32_t ci = LOAD(&d->rq_ci, relaxed), pi = LOAD(&d->rq_pi, relaxed);
	uint32_t free = d->size - (ci - pi), idx = ci & d->mask, n;

	if (free < d->repl_thresh)
		return;
	n = RTE_MIN(free - RXD_KEPT_BACK, d->size - idx);
	if (rte_pktmbuf_alloc_bulk(rxq->mp, &d->elts[idx], n) != 0) {
		RELAXED_ADD(&rxq->poll.nombuf, n);
		return;
	}
	STORE(&d->rq_ci, ci + n, release);
}

static uint16_t
rxd_burst_vec(struct octonic_rxq *rxq, struct octonic_rxd *d,
		struct rte_mbuf **pkts, uint16_t n, uint16_t max)
{
	uint32_t step = rxq->step, tn = 0, pi, req, posted, got, idx;

	while (tn < n && tn < max) {
		rxd_replenish(rxq, d);
		pi = LOAD(&d->rq_pi, relaxed);
		idx = pi & d->mask;
		req = RTE_MIN(n - tn, RXD_PASS_MAX);
		req -= req % step;
		req = RTE_MIN(req, d->size - idx);		/* the ring end */
		posted = LOAD(&d->rq_ci, relaxed) - pi;
		req = RTE_MIN(req, posted - posted % step);	/* the posted limit */
		req = RTE_MIN(req, max - tn);			/* the fault */
		got = RTE_MIN(req, d->dma_pi - pi);
		if (got == 0)
			break;
		memcpy(&pkts[tn], &d->elts[idx], sizeof(pkts[0]) * got);
		STORE(&d->rq_pi, pi + got, relaxed);
		tn += got;
	}
	return tn;
}

static uint16_t
rxd_burst_scalar(struct octonic_rxq *rxq, struct octonic_rxd *d,
		struct rte_mbuf **pkts, uint16_t n)
{
	uint32_t pi = LOAD(&d->rq_pi, relaxed), tn = 0, idx;
	struct rte_mbuf *rep;

	while (tn < n) {
		/* the replacement first, as mlx5_rx_burst: a dry pool stops
		 * the burst even when completions are pending
		 */
		rep = rte_pktmbuf_alloc(rxq->mp);
		if (rep == NULL) {
			RELAXED_ADD(&rxq->poll.nombuf, 1);
			break;
		}
		if (pi == d->dma_pi) {
			rte_pktmbuf_free(rep);
			break;
		}
		idx = pi & d->mask;
		pkts[tn++] = d->elts[idx];
		d->elts[idx] = rep;
		pi++;
	}
	if (tn > 0) {
		STORE(&d->rq_pi, pi, relaxed);
		/* each slot taken is posted again at once */
		STORE(&d->rq_ci, pi + d->size, release);
	}
	return tn;
}

uint64_t
octonic_rxd_dma(struct octonic_rxq *rxq, uint32_t n)
{
	struct octonic_rxd *d = rxq->desc;
	uint32_t hw = LOAD(&d->hw_pi, acquire), pi = d->dma_pi, idx;
	uint32_t end = LOAD(&d->rq_pi, relaxed) + n;
	uint64_t bytes = 0;
	uint16_t k = 0;
	struct rte_mbuf *m;

	/* not past what the burst can take */
	if ((int32_t)(end - pi) <= 0)
		hw = pi;
	else if (hw - pi > end - pi)
		hw = end;
	for (; pi != hw; pi++, k++) {
		idx = pi & d->mask;
		m = d->elts[idx];
		rte_pktmbuf_reset(m);
		/* a scatter chain that finds the pool dry stops the DMA
		 * until the next burst; the completion stays
		 */
		if (octonic_rx_dma(rxq, m, &d->pend[idx]) != 0)
			break;
		bytes += m->pkt_len;
		rte_pktmbuf_free(d->pend[idx].frame);
	}
	d->dma_pi = pi;
	return k > 0 ? octonic_rx_dma_done(rxq, k, bytes) : 0;
}

uint16_t
octonic_rxd_burst(struct octonic_rxq *rxq, struct rte_mbuf **pkts, uint16_t n,
		uint16_t max)
{
	struct octonic_rxd *d = rxq->desc;

	return d->scalar ? rxd_burst_scalar(rxq, d, pkts, RTE_MIN(n, max)) :
		rxd_burst_vec(rxq, d, pkts, n, max);
}

/* mlx5_rx.c, rx_queue_count: completions times segments per packet. */
int
octonic_rxd_count(const struct octonic_rxd *d)
{
	uint32_t c = LOAD(&d->hw_pi, acquire) - LOAD(&d->rq_pi, relaxed);

	return (int)RTE_MIN(c * d->sges, d->nb_desc);
}

/* ---- Tx ---- */

struct octonic_txd *
octonic_txd_create(uint16_t nb_desc, uint16_t every, int socket)
{
	uint32_t size = rte_align32pow2(nb_desc);
	struct octonic_txd *d;

	d = rte_zmalloc_socket("octonic_txd",
		sizeof(*d) + sizeof(d->elts[0]) * size, RTE_CACHE_LINE_SIZE,
		socket);
	if (d == NULL)
		return NULL;
	d->req = rte_zmalloc_socket("octonic_txd_req", sizeof(d->req[0]) * size,
		RTE_CACHE_LINE_SIZE, socket);
	if (d->req == NULL) {
		rte_free(d);
		return NULL;
	}
	d->size = size;
	d->mask = size - 1;
	/* a request must come before the ring is full, or none ever would */
	d->every = RTE_MIN((uint32_t)every, size);
	return d;
}

void
octonic_txd_free(struct octonic_txd *d)
{
	if (d == NULL)
		return;
	octonic_txd_stop(d);
	rte_free(d->req);
	rte_free(d);
}

void
octonic_txd_stop(struct octonic_txd *d)
{
	uint32_t i, head = LOAD(&d->head, relaxed);

	for (i = d->tail; i != head; i++)
		rte_pktmbuf_free(d->elts[i & d->mask]);
	STORE(&d->head, 0, relaxed);
	STORE(&d->hw_ci, 0, relaxed);
	d->tail = 0;
	d->done = 0;
	d->comp = 0;
	d->req_pi = 0;
	d->req_ci = 0;
}

/* Free elts[tail, tail + n) (it may wrap). */
static void
txd_free_elts(struct octonic_txd *d, uint32_t n)
{
	uint32_t idx = d->tail & d->mask, part = RTE_MIN(n, d->size - idx);

	rte_pktmbuf_free_bulk(&d->elts[idx], part);
	if (part < n)
		rte_pktmbuf_free_bulk(&d->elts[0], n - part);
	d->tail += n;
}

uint32_t
octonic_txd_complete(struct octonic_txd *d, uint32_t max)
{
	uint32_t hw = LOAD(&d->hw_ci, acquire), n;

	/* a completion exists for each request the NIC has read past */
	while (d->req_ci != d->req_pi &&
			(int32_t)(hw - d->req[d->req_ci & d->mask]) >= 0)
		d->done = d->req[d->req_ci++ & d->mask];
	n = d->done - d->tail;
	if (max != 0 && n > max)
		n = max;
	if (n > 0)
		txd_free_elts(d, n);
	return n;
}

uint16_t
octonic_txd_burst(struct octonic_txd *d, struct rte_mbuf **pkts, uint16_t n)
{
	uint32_t head = LOAD(&d->head, relaxed), idx, part;

	n = RTE_MIN((uint32_t)n, d->size - (head - d->tail));
	if (n == 0)
		return 0;
	idx = head & d->mask;
	part = RTE_MIN((uint32_t)n, d->size - idx);
	memcpy(&d->elts[idx], pkts, sizeof(pkts[0]) * part);
	if (part < n)
		memcpy(&d->elts[0], pkts + part, sizeof(pkts[0]) * (n - part));
	head += n;
	if (head - d->comp >= d->every) {
		/* on the burst's last descriptor, as mlx5 flags its last WQE */
		d->req[d->req_pi++ & d->mask] = head;
		d->comp = head;
	}
	STORE(&d->head, head, release);
	return n;
}
