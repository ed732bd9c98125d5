/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Basic and extended statistics of a PF.  Every counter has one writer
 * (the poller or the engine), so reset cannot zero it without racing:
 * reset snapshots the current values into *_base and readers subtract.
 */

#include <stdio.h>
#include <string.h>

#include <rte_ethdev.h>

#include "octonic_internal.h"

#define G(f) RELAXED_GET(&(f))

static uint64_t
rxq_missed(const struct octonic_rxq *q)
{
	return G(q->eng.missed) - q->eng_base.missed;
}

int
octonic_stats_get(struct rte_eth_dev *dev, struct rte_eth_stats *st,
		struct eth_queue_stats *qs)
{
	struct octonic_pf *pf = octonic_pf_of(dev);
	uint16_t q;

	for (q = 0; q < dev->data->nb_rx_queues; q++) {
		const struct octonic_rxq *rxq = dev->data->rx_queues[q];
		uint64_t p, b, e;

		if (rxq == NULL)
			continue;
		p = G(rxq->poll.pkts) - rxq->poll_base.pkts;
		b = G(rxq->poll.bytes) - rxq->poll_base.bytes;
		e = G(rxq->eng.errors) - rxq->eng_base.errors;
		st->ipackets += p;
		st->ibytes += b;
		st->imissed += rxq_missed(rxq);
		st->ierrors += e;
		st->rx_nombuf += G(rxq->eng.nombuf) - rxq->eng_base.nombuf +
			G(rxq->poll.nombuf) - rxq->poll_base.nombuf;
		if (qs != NULL && q < RTE_ETHDEV_QUEUE_STAT_CNTRS) {
			qs->q_ipackets[q] = p;
			qs->q_ibytes[q] = b;
			qs->q_errors[q] = e + rxq_missed(rxq);
		}
	}
	/* packets steered to this PF that found no queue to take them */
	st->imissed += G(pf->drop_down) - pf->drop_down_base +
		G(pf->drop_noqueue) - pf->drop_noqueue_base;
	for (q = 0; q < dev->data->nb_tx_queues; q++) {
		const struct octonic_txq *txq = dev->data->tx_queues[q];
		uint64_t p, b;

		if (txq == NULL)
			continue;
		p = G(txq->poll.pkts) - txq->poll_base.pkts;
		b = G(txq->poll.bytes) - txq->poll_base.bytes;
		st->opackets += p;
		st->obytes += b;
		st->oerrors += G(txq->eng.errors) - txq->eng_base.errors;
		if (qs != NULL && q < RTE_ETHDEV_QUEUE_STAT_CNTRS) {
			qs->q_opackets[q] = p;
			qs->q_obytes[q] = b;
		}
	}
	st->oerrors += G(pf->tx_drop_down) - pf->tx_drop_down_base;
	return 0;
}

int
octonic_stats_reset(struct rte_eth_dev *dev)
{
	struct octonic_pf *pf = octonic_pf_of(dev);
	uint16_t q;

	for (q = 0; q < dev->data->nb_rx_queues; q++) {
		struct octonic_rxq *rxq = dev->data->rx_queues[q];

		if (rxq == NULL)
			continue;
		rxq->poll_base = rxq->poll;
		rxq->eng_base = rxq->eng;
	}
	for (q = 0; q < dev->data->nb_tx_queues; q++) {
		struct octonic_txq *txq = dev->data->tx_queues[q];

		if (txq == NULL)
			continue;
		txq->poll_base = txq->poll;
		txq->eng_base = txq->eng;
	}
	pf->drop_flow_base = G(pf->drop_flow);
	pf->drop_down_base = G(pf->drop_down);
	pf->drop_noqueue_base = G(pf->drop_noqueue);
	pf->tx_drop_down_base = G(pf->tx_drop_down);
	pf->uplink_out_base = G(pf->uplink_out);
	return 0;
}

/* ---- xstats: PF counters, then per Rx queue, then per Tx queue ---- */

#define PF_XSTATS 10
static const char *const pf_names[PF_XSTATS] = {
	"rx_flow_drop_packets",		/* DROP action in the e-switch */
	"rx_port_down_drop_packets",	/* arrived while unplugged or stopped */
	"rx_no_queue_drop_packets",	/* steered to a queue not set up/started */
	"tx_port_down_drop_packets",	/* transmitted, then unplugged */
	/* topology=mpesw: wire frames a transfer rule's REPRESENTED_PORT
	 * sent out of this PF's uplink
	 */
	"uplink_out_packets",
	"wire_drop_packets",		/* the wire could not take them (NIC-wide) */
	/* topology=separate, NIC-wide: unicast frames for no PF's MAC */
	"wire_mac_drop_packets",
	/* wire=gen, NIC-wide: generation to sink, since the generator was
	 * (re)configured; 0 before any frame came back
	 */
	"wire_latency_p50_ns",
	"wire_latency_p99_ns",
	/* wire=gen with gen_rate=, NIC-wide: frames the rate offered while
	 * no engine pass came for longer than the generator's credit lasts,
	 * never generated (a NIC's Rx buffer overflow)
	 */
	"wire_gen_overflow_packets",
};

/* emulation_cycles: TSC cycles the queue's poller spent emulating the
 * hardware; nudma_stall_cycles: the NUDMA stall charged to it (see
 * struct octonic_poll_cnt); nudma_flushed_lines: cache lines its remote
 * DMA wrote and nudma_dma=flush evicted
 */
#define RXQ_XSTATS 12
static const char *const rxq_names[RXQ_XSTATS] = {
	"dma_packets", "dma_bytes", "remote_dma_packets", "remote_dma_bytes",
	"polls", "remote_polls", "missed_packets", "nombuf", "errors",
	"emulation_cycles", "nudma_stall_cycles", "nudma_flushed_lines",
};

#define TXQ_XSTATS 9
static const char *const txq_names[TXQ_XSTATS] = {
	"dma_packets", "dma_bytes", "remote_dma_packets", "remote_dma_bytes",
	"polls", "remote_polls", "errors",
	"emulation_cycles", "nudma_stall_cycles",
};

static unsigned int
xstats_count(const struct rte_eth_dev *dev)
{
	return PF_XSTATS + RXQ_XSTATS * dev->data->nb_rx_queues +
		TXQ_XSTATS * dev->data->nb_tx_queues;
}

int
octonic_xstats_get_names(struct rte_eth_dev *dev,
		struct rte_eth_xstat_name *names, unsigned int size)
{
	unsigned int n = xstats_count(dev), i, k = 0;
	uint16_t q;

	if (names == NULL || size < n)
		return n;
	for (i = 0; i < PF_XSTATS; i++)
		snprintf(names[k++].name, RTE_ETH_XSTATS_NAME_SIZE, "%s",
			pf_names[i]);
	for (q = 0; q < dev->data->nb_rx_queues; q++)
		for (i = 0; i < RXQ_XSTATS; i++)
			snprintf(names[k++].name, RTE_ETH_XSTATS_NAME_SIZE,
				"rx_q%u_%s", q, rxq_names[i]);
	for (q = 0; q < dev->data->nb_tx_queues; q++)
		for (i = 0; i < TXQ_XSTATS; i++)
			snprintf(names[k++].name, RTE_ETH_XSTATS_NAME_SIZE,
				"tx_q%u_%s", q, txq_names[i]);
	return n;
}

int
octonic_xstats_get(struct rte_eth_dev *dev, struct rte_eth_xstat *xs,
		unsigned int size)
{
	struct octonic_pf *pf = octonic_pf_of(dev);
	unsigned int n = xstats_count(dev), k = 0, i;
	uint64_t v[RXQ_XSTATS];
	uint16_t q;

	if (xs == NULL || size < n)
		return n;
	v[0] = G(pf->drop_flow) - pf->drop_flow_base;
	v[1] = G(pf->drop_down) - pf->drop_down_base;
	v[2] = G(pf->drop_noqueue) - pf->drop_noqueue_base;
	v[3] = G(pf->tx_drop_down) - pf->tx_drop_down_base;
	v[4] = G(pf->uplink_out) - pf->uplink_out_base;
	v[5] = G(pf->nic->wire_drops);
	v[6] = G(pf->nic->mac_drops);
	v[7] = octonic_latency_ns(pf->nic, 0.50);
	v[8] = octonic_latency_ns(pf->nic, 0.99);
	v[9] = G(pf->nic->gen_overflow);
	for (i = 0; i < PF_XSTATS; i++, k++) {
		xs[k].id = k;
		xs[k].value = v[i];
	}
	for (q = 0; q < dev->data->nb_rx_queues; q++) {
		const struct octonic_rxq *r = dev->data->rx_queues[q];

		memset(v, 0, sizeof(v));
		if (r != NULL) {
			v[0] = (G(r->eng.dma_pkts) - r->eng_base.dma_pkts);
			v[1] = (G(r->eng.dma_bytes) - r->eng_base.dma_bytes);
			v[2] = (G(r->eng.remote_dma_pkts) - r->eng_base.remote_dma_pkts);
			v[3] = (G(r->eng.remote_dma_bytes) - r->eng_base.remote_dma_bytes);
			v[4] = (G(r->poll.polls) - r->poll_base.polls);
			v[5] = (G(r->poll.remote_polls) - r->poll_base.remote_polls);
			v[6] = (G(r->eng.missed) - r->eng_base.missed);
			v[7] = (G(r->eng.nombuf) - r->eng_base.nombuf) +
				(G(r->poll.nombuf) - r->poll_base.nombuf);
			v[8] = (G(r->eng.errors) - r->eng_base.errors);
			v[9] = (G(r->poll.emu_cycles) - r->poll_base.emu_cycles);
			v[10] = (G(r->poll.nudma_cycles) - r->poll_base.nudma_cycles);
			v[11] = (G(r->eng.flush_lines) - r->eng_base.flush_lines);
		}
		for (i = 0; i < RXQ_XSTATS; i++, k++) {
			xs[k].id = k;
			xs[k].value = v[i];
		}
	}
	for (q = 0; q < dev->data->nb_tx_queues; q++) {
		const struct octonic_txq *t = dev->data->tx_queues[q];

		memset(v, 0, sizeof(v));
		if (t != NULL) {
			v[0] = (G(t->eng.dma_pkts) - t->eng_base.dma_pkts);
			v[1] = (G(t->eng.dma_bytes) - t->eng_base.dma_bytes);
			v[2] = (G(t->eng.remote_dma_pkts) - t->eng_base.remote_dma_pkts);
			v[3] = (G(t->eng.remote_dma_bytes) - t->eng_base.remote_dma_bytes);
			v[4] = (G(t->poll.polls) - t->poll_base.polls);
			v[5] = (G(t->poll.remote_polls) - t->poll_base.remote_polls);
			v[6] = (G(t->eng.errors) - t->eng_base.errors);
			v[7] = (G(t->poll.emu_cycles) - t->poll_base.emu_cycles);
			v[8] = (G(t->poll.nudma_cycles) - t->poll_base.nudma_cycles);
		}
		for (i = 0; i < TXQ_XSTATS; i++, k++) {
			xs[k].id = k;
			xs[k].value = v[i];
		}
	}
	return n;
}
