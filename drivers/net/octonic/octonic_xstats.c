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

/* @p now less its snapshot @p base, counter by counter */
static void
poll_since(struct octonic_poll_cnt *d, const struct octonic_poll_cnt *now,
		const struct octonic_poll_cnt *base)
{
	d->pkts = G(now->pkts) - base->pkts;
	d->bytes = G(now->bytes) - base->bytes;
	d->polls = G(now->polls) - base->polls;
	d->remote_polls = G(now->remote_polls) - base->remote_polls;
	d->emu_cycles = G(now->emu_cycles) - base->emu_cycles;
	d->nudma_cycles = G(now->nudma_cycles) - base->nudma_cycles;
	d->nombuf = G(now->nombuf) - base->nombuf;
}

static void
eng_since(struct octonic_engine_cnt *d, const struct octonic_engine_cnt *now,
		const struct octonic_engine_cnt *base)
{
	d->dma_pkts = G(now->dma_pkts) - base->dma_pkts;
	d->dma_bytes = G(now->dma_bytes) - base->dma_bytes;
	d->remote_dma_pkts = G(now->remote_dma_pkts) - base->remote_dma_pkts;
	d->remote_dma_bytes = G(now->remote_dma_bytes) - base->remote_dma_bytes;
	d->missed = G(now->missed) - base->missed;
	d->nombuf = G(now->nombuf) - base->nombuf;
	d->errors = G(now->errors) - base->errors;
	d->flush_lines = G(now->flush_lines) - base->flush_lines;
}

bool
octonic_qcnt(const struct rte_eth_dev_data *data, uint16_t qid, bool tx,
		struct octonic_qcnt *c)
{
	const struct octonic_txq *t = tx && qid < data->nb_tx_queues ?
		data->tx_queues[qid] : NULL;
	const struct octonic_rxq *r = !tx && qid < data->nb_rx_queues ?
		data->rx_queues[qid] : NULL;

	if (t != NULL) {
		poll_since(&c->poll, &t->poll, &t->poll_base);
		eng_since(&c->eng, &t->eng, &t->eng_base);
	} else if (r != NULL) {
		poll_since(&c->poll, &r->poll, &r->poll_base);
		eng_since(&c->eng, &r->eng, &r->eng_base);
	}
	return t != NULL || r != NULL;
}

int
octonic_stats_get(struct rte_eth_dev *dev, struct rte_eth_stats *st,
		struct eth_queue_stats *qs)
{
	struct octonic_pf *pf = octonic_pf_of(dev);
	struct octonic_qcnt c;
	uint16_t q;

	for (q = 0; q < dev->data->nb_rx_queues; q++) {
		if (!octonic_qcnt(dev->data, q, false, &c))
			continue;
		st->ipackets += c.poll.pkts;
		st->ibytes += c.poll.bytes;
		st->imissed += c.eng.missed;
		st->ierrors += c.eng.errors;
		st->rx_nombuf += c.eng.nombuf + c.poll.nombuf;
		if (qs != NULL && q < RTE_ETHDEV_QUEUE_STAT_CNTRS) {
			qs->q_ipackets[q] = c.poll.pkts;
			qs->q_ibytes[q] = c.poll.bytes;
			qs->q_errors[q] = c.eng.errors + c.eng.missed;
		}
	}
	/* packets steered to this PF that found no queue to take them */
	st->imissed += G(pf->drop_down) - pf->drop_down_base +
		G(pf->drop_noqueue) - pf->drop_noqueue_base;
	for (q = 0; q < dev->data->nb_tx_queues; q++) {
		if (!octonic_qcnt(dev->data, q, true, &c))
			continue;
		st->opackets += c.poll.pkts;
		st->obytes += c.poll.bytes;
		st->oerrors += c.eng.errors;
		if (qs != NULL && q < RTE_ETHDEV_QUEUE_STAT_CNTRS) {
			qs->q_opackets[q] = c.poll.pkts;
			qs->q_obytes[q] = c.poll.bytes;
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

/* A queue's xstats, in rxq_names' or txq_names' order: 0 when it is not set up */
static unsigned int
queue_xstats(const struct rte_eth_dev_data *data, uint16_t q, bool tx,
		uint64_t v[RXQ_XSTATS])
{
	struct octonic_qcnt c;
	unsigned int i = 0;

	memset(v, 0, sizeof(v[0]) * RXQ_XSTATS);
	if (!octonic_qcnt(data, q, tx, &c))
		return tx ? TXQ_XSTATS : RXQ_XSTATS;
	v[i++] = c.eng.dma_pkts;
	v[i++] = c.eng.dma_bytes;
	v[i++] = c.eng.remote_dma_pkts;
	v[i++] = c.eng.remote_dma_bytes;
	v[i++] = c.poll.polls;
	v[i++] = c.poll.remote_polls;
	if (!tx) {
		v[i++] = c.eng.missed;
		v[i++] = c.eng.nombuf + c.poll.nombuf;
	}
	v[i++] = c.eng.errors;
	v[i++] = c.poll.emu_cycles;
	v[i++] = c.poll.nudma_cycles;
	if (!tx)
		v[i++] = c.eng.flush_lines;
	return i;
}

int
octonic_xstats_get(struct rte_eth_dev *dev, struct rte_eth_xstat *xs,
		unsigned int size)
{
	struct octonic_pf *pf = octonic_pf_of(dev);
	unsigned int n = xstats_count(dev), k = 0, i, nb;
	uint64_t v[RXQ_XSTATS];
	uint16_t q;
	int tx;

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
	/* Rx queues, then Tx queues */
	for (tx = 0; tx <= 1; tx++)
		for (q = 0; q < (tx ? dev->data->nb_tx_queues : dev->data->nb_rx_queues); q++) {
			nb = queue_xstats(dev->data, q, tx, v);
			for (i = 0; i < nb; i++, k++) {
				xs[k].id = k;
				xs[k].value = v[i];
			}
		}
	return n;
}
