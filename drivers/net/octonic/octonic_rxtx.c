/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Datapath of a PF: the application side of the descriptor rings.  A burst
 * accounts the poll (and whether it came from another socket, paying the
 * NUDMA poll cost if configured), gives the NIC engine a chance to run, and
 * moves mbufs between the application and the ring.  No locks, no
 * allocation, no syscalls.
 *
 * The first two steps are the model's, not what a driver of real hardware
 * does: their TSC time, less the NUDMA stall charged in them, is counted
 * as emulation (two TSC reads per burst); moving mbufs to and from the
 * ring stands for reading and writing descriptors and is not.
 */

#include <rte_cycles.h>
#include <rte_ethdev.h>

#include "octonic_internal.h"

static inline void
model_burst(struct octonic_pf *pf, struct octonic_poll_cnt *c)
{
	struct octonic_nic *nic = pf->nic;
	uint64_t t0 = rte_rdtsc(), t, stall = 0;

	RELAXED_ADD(&c->polls, 1);
	if (octonic_thread_socket() != pf->socket) {
		RELAXED_ADD(&c->remote_polls, 1);
		if (nic->nudma_poll_cycles != 0)
			stall = octonic_nudma_wait(nic->nudma_poll_cycles);
	}
	stall += octonic_engine_run_poll(nic);
	t = rte_rdtsc() - t0;
	RELAXED_ADD(&c->nudma_cycles, stall);
	RELAXED_ADD(&c->emu_cycles, t > stall ? t - stall : 0);
}

uint16_t
octonic_rx_burst(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct octonic_rxq *rxq = q;
	uint64_t bytes = 0;
	unsigned int nb, i;

	model_burst(rxq->pf, &rxq->poll);
	if (unlikely(rxq->pf->rx_burst_max != 0 && n > rxq->pf->rx_burst_max))
		n = rxq->pf->rx_burst_max;
	nb = rte_ring_sc_dequeue_burst(rxq->ring, (void **)pkts, n, NULL);
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
	uint64_t bytes = 0;
	unsigned int nb, i;

	nb = rte_ring_sp_enqueue_burst(txq->ring, (void **)pkts, n, NULL);
	for (i = 0; i < nb; i++)
		bytes += pkts[i]->pkt_len;
	RELAXED_ADD(&txq->poll.pkts, nb);
	RELAXED_ADD(&txq->poll.bytes, bytes);
	model_burst(txq->pf, &txq->poll);
	return nb;
}

int
octonic_rx_queue_count(void *q)
{
	struct octonic_rxq *rxq = q;

	return (int)rte_ring_count(rxq->ring);
}

int
octonic_rx_descriptor_status(void *q, uint16_t offset)
{
	struct octonic_rxq *rxq = q;

	if (offset >= rxq->nb_desc)
		return -EINVAL;
	if (offset < rte_ring_count(rxq->ring))
		return RTE_ETH_RX_DESC_DONE;
	return RTE_ETH_RX_DESC_AVAIL;
}

int
octonic_tx_descriptor_status(void *q, uint16_t offset)
{
	struct octonic_txq *txq = q;

	if (offset >= txq->nb_desc)
		return -EINVAL;
	if (offset < rte_ring_count(txq->ring))
		return RTE_ETH_TX_DESC_FULL;
	return RTE_ETH_TX_DESC_DONE;
}

/*
 * Completed mbufs are freed as soon as the engine sends them, so cleanup
 * means letting the engine drain this queue: returns how many left it.
 */
int
octonic_tx_done_cleanup(void *q, uint32_t free_cnt)
{
	struct octonic_txq *txq = q;
	unsigned int before = rte_ring_count(txq->ring), after;

	octonic_engine_run(txq->pf->nic);
	after = rte_ring_count(txq->ring);
	before = before > after ? before - after : 0;
	if (free_cnt != 0 && before > free_cnt)
		before = free_cnt;
	return before;
}
