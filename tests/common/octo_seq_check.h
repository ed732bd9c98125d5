/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTO_SEQ_CHECK_H
#define OCTO_SEQ_CHECK_H

/*
 * Per-flow order of the generator's frames (lib/wire) as a receiver sees
 * them: each frame's sequence number must be above every one seen before
 * in its flow. The arrays are per flow and touched only by the lcore that
 * receives the flow's queue.
 */

#include <rte_byteorder.h>
#include <rte_mbuf.h>

#include "octo_wire.h"

struct octo_seq_check {
	uint32_t max_flows;	/* size of next_seq and flow_pkts */
	uint32_t payload_off;	/* where the payload starts in a frame */
	uint64_t *next_seq;	/* per flow: the highest seen + 1 */
	uint64_t *flow_pkts;	/* per flow: frames in order */
	uint64_t *reordered;	/* frames below the highest seen, not its repeat */
	uint64_t *duplicated;	/* the highest seen again */
	uint64_t *foreign;	/* not a generator frame, or a flow beyond max_flows */
};

static inline void
octo_seq_check(const struct octo_seq_check *c, struct rte_mbuf *m)
{
	const struct octo_wire_payload *pl;
	uint32_t flow;
	uint64_t seq;

	if (rte_pktmbuf_data_len(m) < c->payload_off + sizeof(*pl)) {
		(*c->foreign)++;
		return;
	}
	pl = rte_pktmbuf_mtod_offset(m, const struct octo_wire_payload *, c->payload_off);
	flow = rte_be_to_cpu_32(pl->flow_id);
	seq = rte_be_to_cpu_64(pl->seq);
	if (rte_be_to_cpu_32(pl->magic) != OCTO_WIRE_MAGIC || flow >= c->max_flows) {
		(*c->foreign)++;
		return;
	}
	if (c->flow_pkts[flow] != 0 && seq < c->next_seq[flow]) {
		/* not above the highest seen: repeated, or late */
		if (seq + 1 == c->next_seq[flow])
			(*c->duplicated)++;
		else
			(*c->reordered)++;
		return;
	}
	c->next_seq[flow] = seq + 1;
	c->flow_pkts[flow]++;
}

#endif /* OCTO_SEQ_CHECK_H */
