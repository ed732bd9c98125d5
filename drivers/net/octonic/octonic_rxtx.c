/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Datapath of a PF: the application side of the descriptor rings.  A burst
 * accounts the poll (and whether it came from another socket, paying the
 * NUDMA poll cost if configured), gives the NIC engine a chance to run,
 * makes the Rx DMA of the completions it takes or the Tx DMA of what it
 * posts (the NIC's work for this queue, done on its poller:
 * octonic_engine.c says why), and moves mbufs between the application and
 * the ring.  No locks, no syscalls.
 *
 * The first three steps are the model's, not what a driver of real
 * hardware does: their TSC time, less the NUDMA stall charged in them, is
 * counted as emulation (two TSC reads per step); moving mbufs to and from
 * the ring stands for reading and writing descriptors and is not.  The
 * misses a remote DMA leaves (nudma_dma=flush) fall on the application's
 * reads of the frames, not counted here: a host pays them.
 *
 * What a burst returns follows the datapath devargs (octonic.rst "Datapath"):
 * rx_step rounds the request down, the rx_burst_max fault caps what comes
 * back, and
 * rx_ring=mlx5 / tx_comp_every > 1 keep the rings as mlx5's driver does
 * (octonic_desc.c).  One function per direction, the choice made per
 * queue inside it.
 */

#include <rte_cycles.h>
#include <rte_ethdev.h>

#include "octonic_internal.h"
#include "rte_pmd_octonic.h"

/* @p t0: the burst's TSC as its NIC side starts */
static inline void
model_burst(struct octonic_pf *pf, struct octonic_poll_cnt *c, uint64_t t0)
{
	struct octonic_nic *nic = pf->nic;
	uint64_t t, stall = 0;

	RELAXED_ADD(&c->polls, 1);
	if (octonic_thread_socket() != pf->socket) {
		RELAXED_ADD(&c->remote_polls, 1);
		if (nic->nudma_poll_cycles != 0)
			stall = octonic_nudma_wait(nic->nudma_poll_cycles);
	}
	octonic_engine_run_poll(nic);
	t = rte_rdtsc() - t0;
	RELAXED_ADD(&c->nudma_cycles, stall);
	RELAXED_ADD(&c->emu_cycles, t > stall ? t - stall : 0);
}

/* The time of a burst's DMA since @p t0, its nudma_dma=wait stall apart. */
static inline void
dma_account(struct octonic_poll_cnt *c, uint64_t t0, uint64_t stall)
{
	uint64_t t = rte_rdtsc() - t0;

	RELAXED_ADD(&c->nudma_cycles, stall);
	RELAXED_ADD(&c->emu_cycles, t > stall ? t - stall : 0);
}

/*
 * rx_ring=plain: take up to @p n completions and make their DMA into
 * fresh mbufs of the queue's pool, in order, into @p pkts; returns how
 * many.  A dry pool drops the completions it has no mbuf for (rx_nombuf),
 * as a NIC with no buffer drops the frame.
 */
static uint16_t
rx_plain(struct octonic_rxq *rxq, struct rte_mbuf **pkts, uint16_t n)
{
	struct octonic_rx_ref r[OCTONIC_BURST];
	struct rte_mbuf *m[OCTONIC_BURST];
	uint64_t t0 = 0, bytes = 0;
	uint16_t tn = 0, c, got, j;

	while (tn < n) {
		c = rte_ring_sc_dequeue_burst_elem(rxq->ring, r, sizeof(r[0]),
			RTE_MIN(n - tn, OCTONIC_BURST), NULL);
		if (c == 0)
			break;
		if (t0 == 0)
			t0 = rte_rdtsc();
		if (rte_pktmbuf_alloc_bulk(rxq->mp, m, c) == 0) {
			got = c;
		} else {
			/* fewer left than the burst needs: take what there is */
			for (got = 0; got < c; got++) {
				m[got] = rte_pktmbuf_alloc(rxq->mp);
				if (m[got] == NULL)
					break;
			}
			RELAXED_ADD(&rxq->eng.nombuf, c - got);
		}
		for (j = 0; j < got; j++) {
			if (octonic_rx_dma(rxq, m[j], &r[j]) != 0) {
				rte_pktmbuf_free(m[j]);	/* counted */
				continue;
			}
			bytes += m[j]->pkt_len;
			pkts[tn++] = m[j];
		}
		octonic_rx_refs_free(r, c);
		if (c < OCTONIC_BURST)
			break;
	}
	if (t0 != 0)
		dma_account(&rxq->poll, t0, tn > 0 ?
			octonic_rx_dma_done(rxq, tn, bytes) : 0);
	return tn;
}

/* rte_pmd_octonic_rx_stall: this burst takes the stall, if still asked. */
static __rte_noinline void
rx_stall(struct octonic_pf *pf)
{
	uint32_t us = rte_atomic_exchange_explicit(&pf->rx_stall_us, 0,
		rte_memory_order_acquire);

	if (us == 0)
		return;		/* another queue's burst took it */
	rte_atomic_store_explicit(&pf->rx_stall_state, RTE_PMD_OCTONIC_STALL_INSIDE,
		rte_memory_order_release);
	rte_delay_us_sleep(us);
	rte_atomic_store_explicit(&pf->rx_stall_state, RTE_PMD_OCTONIC_STALL_DONE,
		rte_memory_order_release);
}

uint16_t
octonic_rx_burst(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct octonic_rxq *rxq = q;
	uint64_t bytes = 0, t0;
	unsigned int nb, i;

	uint16_t max = rte_atomic_load_explicit(&rxq->pf->rx_burst_max,
		rte_memory_order_relaxed);

	model_burst(rxq->pf, &rxq->poll, rte_rdtsc());
	if (unlikely(rte_atomic_load_explicit(&rxq->pf->rx_stall_us,
			rte_memory_order_relaxed) != 0))
		rx_stall(rxq->pf);
	if (max == 0)
		max = n;
	if (rxq->desc != NULL) {
		/* the DMA of what the NIC completed, if anything */
		if (rte_atomic_load_explicit(&rxq->desc->hw_pi,
				rte_memory_order_relaxed) != rxq->desc->dma_pi) {
			t0 = rte_rdtsc();
			dma_account(&rxq->poll, t0,
				octonic_rxd_dma(rxq, RTE_MIN(n, max)));
		}
		nb = octonic_rxd_burst(rxq, pkts, n, max);
	} else {
		n -= n % rxq->step;
		nb = rx_plain(rxq, pkts, RTE_MIN(n, max));
	}
	for (i = 0; i < nb; i++)
		bytes += pkts[i]->pkt_len;
	RELAXED_ADD(&rxq->poll.pkts, nb);
	RELAXED_ADD(&rxq->poll.bytes, bytes);
	return nb;
}

uint16_t
octonic_tx_burst(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct octonic_txq *txq = q;
	uint64_t bytes = 0, t0, stall;
	unsigned int nb, i, room;

	/* the DMA of what the ring has room for, before the doorbell */
	if (txq->desc != NULL) {
		octonic_txd_complete(txq->desc, 0);
		room = txq->desc->size - octonic_txd_used(txq->desc);
	} else {
		room = rte_ring_free_count(txq->ring);
	}
	n = RTE_MIN((unsigned int)n, room);
	if (n > 0) {
		t0 = rte_rdtsc();
		n = octonic_tx_dma(txq, pkts, n, &stall);
		dma_account(&txq->poll, t0, stall);
	}
	/* the sender alone fills the ring: all n fit */
	if (txq->desc != NULL)
		nb = octonic_txd_burst(txq->desc, pkts, n);
	else
		nb = rte_ring_sp_enqueue_burst(txq->ring, (void **)pkts, n,
			NULL);
	for (i = 0; i < nb; i++)
		bytes += pkts[i]->pkt_len;
	RELAXED_ADD(&txq->poll.pkts, nb);
	RELAXED_ADD(&txq->poll.bytes, bytes);
	/* the doorbell: the NIC reads the post from its time on */
	t0 = rte_rdtsc();
	if (nb > 0)
		octonic_txorder_post(txq, nb, t0);
	model_burst(txq->pf, &txq->poll, t0);
	return nb;
}

/*
 * Descriptors holding a frame not handed to the application yet: one per
 * frame in the plain ring; rx_ring=mlx5 counts as mlx5 does, completions
 * times the descriptors (segments) a packet takes.
 */
int
octonic_rx_queue_count(void *q)
{
	struct octonic_rxq *rxq = q;

	if (rte_atomic_load_explicit(&rxq->pf->rx_count_zero,
			rte_memory_order_relaxed))
		return 0;	/* the fault asked for */
	if (rxq->desc != NULL)
		return octonic_rxd_count(rxq->desc);
	return (int)rte_ring_count(rxq->ring);
}

int
octonic_rx_descriptor_status(void *q, uint16_t offset)
{
	struct octonic_rxq *rxq = q;

	if (offset >= rxq->nb_desc)
		return -EINVAL;
	if (offset < (unsigned int)octonic_rx_queue_count(q))
		return RTE_ETH_RX_DESC_DONE;
	return RTE_ETH_RX_DESC_AVAIL;
}

/*
 * In use: not freed yet.  With completions on request (tx_comp_every)
 * the ones the NIC completed are taken first, as mlx5's status does.
 */
int
octonic_tx_descriptor_status(void *q, uint16_t offset)
{
	struct octonic_txq *txq = q;
	uint32_t used;

	if (offset >= txq->nb_desc)
		return -EINVAL;
	if (txq->desc != NULL) {
		octonic_txd_complete(txq->desc, 0);
		used = octonic_txd_used(txq->desc);
	} else {
		used = rte_ring_count(txq->ring);
	}
	if (offset < used)
		return RTE_ETH_TX_DESC_FULL;
	return RTE_ETH_TX_DESC_DONE;
}

/*
 * tx_cleanup=0: none, as mlx5 has none (ethdev's answer to a driver
 * without it).  With completions on request: free what the NIC completed.
 * Otherwise completed mbufs are freed as soon as the engine sends them, so
 * cleanup means letting the engine drain this queue: returns how many
 * left it.
 */
int
octonic_tx_done_cleanup(void *q, uint32_t free_cnt)
{
	struct octonic_txq *txq = q;
	unsigned int before, after;

	if (!txq->pf->nic->args.tx_cleanup)
		return -ENOTSUP;
	if (txq->desc != NULL)
		return (int)octonic_txd_complete(txq->desc, free_cnt);
	before = rte_ring_count(txq->ring);
	octonic_engine_run(txq->pf->nic);
	after = rte_ring_count(txq->ring);
	before = before > after ? before - after : 0;
	if (free_cnt != 0 && before > free_cnt)
		before = free_cnt;
	return before;
}
