/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTO_SEQ_CHECK_H
#define OCTO_SEQ_CHECK_H

/*
 * Per-flow order of the generator's frames (lib/wire) as a receiver sees
 * them: each frame's sequence number must be above every one seen before
 * in its flow. The arrays are per flow and touched only by the lcore that
 * receives the flow's queue; the counts are shared by every receiver.
 */

#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_udp.h>

#include "octo_wire.h"

struct octo_seq_check {
	uint32_t max_flows;	/* size of next_seq and flow_pkts */
	uint32_t payload_off;	/* where the payload starts in a frame */
	uint64_t *next_seq;	/* per flow: the highest seen + 1 */
	uint64_t *flow_pkts;	/* per flow: frames in order */
	uint64_t reordered;	/* frames below the highest seen, not its repeat */
	uint64_t duplicated;	/* the highest seen again */
	uint64_t foreign;	/* not a generator frame, or a flow beyond max_flows */
};

/* Where the payload of a generated UDP/IPv4 frame starts (no IP options). */
#define OCTO_SEQ_UDP4_PAYLOAD_OFF \
	(sizeof(struct rte_ether_hdr) + sizeof(struct rte_ipv4_hdr) + sizeof(struct rte_udp_hdr))

/* A static check @p name of generated UDP/IPv4 frames over @p flows flows. */
#define OCTO_SEQ_CHECK_DEFINE(name, flows) \
	static uint64_t name ## _next_seq[flows]; \
	static uint64_t name ## _flow_pkts[flows]; \
	static struct octo_seq_check name = { \
		.max_flows = (flows), .payload_off = OCTO_SEQ_UDP4_PAYLOAD_OFF, \
		.next_seq = name ## _next_seq, .flow_pkts = name ## _flow_pkts, \
	}

static inline void
octo_seq_check(struct octo_seq_check *c, struct rte_mbuf *m)
{
	const struct octo_wire_payload *pl;
	uint32_t flow;
	uint64_t seq;

	if (rte_pktmbuf_data_len(m) < c->payload_off + sizeof(*pl)) {
		c->foreign++;
		return;
	}
	pl = rte_pktmbuf_mtod_offset(m, const struct octo_wire_payload *, c->payload_off);
	flow = rte_be_to_cpu_32(pl->flow_id);
	seq = rte_be_to_cpu_64(pl->seq);
	if (rte_be_to_cpu_32(pl->magic) != OCTO_WIRE_MAGIC || flow >= c->max_flows) {
		c->foreign++;
		return;
	}
	if (c->flow_pkts[flow] != 0 && seq < c->next_seq[flow]) {
		/* not above the highest seen: repeated, or late */
		if (seq + 1 == c->next_seq[flow])
			c->duplicated++;
		else
			c->reordered++;
		return;
	}
	c->next_seq[flow] = seq + 1;
	c->flow_pkts[flow]++;
}

static inline void
octo_seq_check_bulk(struct octo_seq_check *c, struct rte_mbuf **pkts, uint16_t n)
{
	uint16_t i;

	for (i = 0; i < n; i++)
		octo_seq_check(c, pkts[i]);
}

/* Forget every flow and count (a fresh generator restarts its sequences). */
static inline void
octo_seq_reset(struct octo_seq_check *c)
{
	memset(c->next_seq, 0, c->max_flows * sizeof(*c->next_seq));
	memset(c->flow_pkts, 0, c->max_flows * sizeof(*c->flow_pkts));
	c->reordered = c->duplicated = c->foreign = 0;
}

/* Frames missing in the first @p nb_flows flows: below each one's highest. */
static inline uint64_t
octo_seq_lost(const struct octo_seq_check *c, uint32_t nb_flows)
{
	uint64_t lost = 0;
	uint32_t f;

	for (f = 0; f < RTE_MIN(nb_flows, c->max_flows); f++)
		lost += c->next_seq[f] - c->flow_pkts[f];
	return lost;
}

/*
 * One burst of a forwarding loop on queue @p q of @p port: receive, check
 * the order of each frame, send them all back through Tx queue @p q. An
 * empty burst still calls Tx: that lets a Tx migration of the queue finish.
 * @return how many were forwarded.
 */
static inline uint16_t
octo_seq_forward(struct octo_seq_check *c, uint16_t port, uint16_t q)
{
	struct rte_mbuf *pkts[32];
	uint16_t n, k;

	n = rte_eth_rx_burst(port, q, pkts, RTE_DIM(pkts));
	octo_seq_check_bulk(c, pkts, n);
	for (k = 0; k < n; )
		k += rte_eth_tx_burst(port, q, pkts + k, n - k);
	if (n == 0)
		rte_eth_tx_burst(port, q, pkts, 0);
	return n;
}

#endif /* OCTO_SEQ_CHECK_H */
