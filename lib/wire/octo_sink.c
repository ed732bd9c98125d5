/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Sink: checks the per-flow order of generated frames. One writer (the NIC
 * engine) updates plain per-flow state and counters; stats readers run on
 * other threads, so each counter is stored and loaded as a relaxed atomic.
 * With one writer, load + store is enough (no locked read-modify-write), and
 * on x86 both are plain moves.
 *
 * Per flow: "next" = highest seq seen + 1 (0: nothing seen) and a bitmap of
 * the OCTO_SINK_WINDOW seqs below next (bit d set: seq next - 1 - d seen).
 * "lost" is not counted per frame: the sink keeps the sum over flows of next
 * (expected) and of the distinct seqs seen; their difference at read time is
 * the number of holes, which a late arrival fills.
 */

#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_icmp.h>
#include <rte_sctp.h>
#include <rte_tcp.h>
#include <rte_udp.h>
#include <octopus_dpdk_compat.h>

#include "octo_wire.h"
#include "octo_wire_parse.h"

_Static_assert(OCTO_SINK_WINDOW == 64, "the window is one uint64_t");

struct sink_flow {
	uint64_t next;
	uint64_t window;
};

struct octo_sink {
	uint32_t nb_flows;
	/* counters: written by the one writer, read by anyone (relaxed) */
	uint64_t pkts, in_order, out_of_order, duplicates, foreign;
	uint64_t expected, distinct;
	struct sink_flow flows[];
};

static inline void
ctr_add(uint64_t *c, uint64_t n)
{
	rte_atomic_store_explicit(c, *c + n, rte_memory_order_relaxed);
}

static inline uint64_t
ctr_get(const uint64_t *c)
{
	return rte_atomic_load_explicit(c, rte_memory_order_relaxed);
}

struct octo_sink *
octo_sink_create(uint32_t nb_flows)
{
	struct octo_sink *s;

	if (nb_flows == 0 || nb_flows > OCTO_WIRE_MAX_FLOWS) {
		errno = EINVAL;
		return NULL;
	}
	s = calloc(1, sizeof(*s) + (size_t)nb_flows * sizeof(s->flows[0]));
	if (s == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	s->nb_flows = nb_flows;
	return s;
}

void
octo_sink_free(struct octo_sink *s)
{
	free(s);
}

void
octo_sink_reset(struct octo_sink *s)
{
	uint32_t n = s->nb_flows;

	memset(s, 0, sizeof(*s) + (size_t)n * sizeof(s->flows[0]));
	s->nb_flows = n;
}

/* The payload of one of our frames, or NULL. */
static const struct octo_wire_payload *
find_payload(const uint8_t *frame, uint32_t len)
{
	struct octo_wire_hdrs h;
	uint32_t off;

	octo_wire_parse(frame, len, &h);
	if (h.ip_version == 0 || h.frag)
		return NULL;
	off = (uint32_t)h.l2_len + h.l3_len;
	if (h.l4_proto == IPPROTO_UDP) {
		off += sizeof(struct rte_udp_hdr);
	} else if (h.l4_proto == IPPROTO_SCTP) {
		off += sizeof(struct rte_sctp_hdr);
	} else if ((h.l4_proto == IPPROTO_ICMP && h.ip_version == 4) ||
			(h.l4_proto == IPPROTO_ICMPV6 && h.ip_version == 6)) {
		off += sizeof(struct rte_icmp_hdr);
	} else if (h.l4_proto == IPPROTO_TCP) {
		if (len < off + sizeof(struct rte_tcp_hdr))
			return NULL;
		off += (frame[off + offsetof(struct rte_tcp_hdr, data_off)] >> 4) * 4u;
	} else {
		return NULL;
	}
	if (len < off + sizeof(struct octo_wire_payload))
		return NULL;
	return (const struct octo_wire_payload *)(frame + off);
}

void
octo_sink_account(struct octo_sink *s, const uint8_t *frame, uint32_t len)
{
	uint32_t flow;
	uint64_t seq;

	octo_sink_account_id(s, frame, len, &flow, &seq);
}

int
octo_sink_account_id(struct octo_sink *s, const uint8_t *frame, uint32_t len,
		uint32_t *flow_out, uint64_t *seq_out)
{
	const struct octo_wire_payload *pl = find_payload(frame, len);
	struct sink_flow *f;
	uint64_t seq, d, bit;
	uint32_t flow;

	ctr_add(&s->pkts, 1);
	if (pl == NULL || pl->magic != RTE_BE32(OCTO_WIRE_MAGIC)) {
		ctr_add(&s->foreign, 1);
		return 0;
	}
	flow = rte_be_to_cpu_32(pl->flow_id);
	if (flow >= s->nb_flows) {
		ctr_add(&s->foreign, 1);
		return 0;
	}
	f = &s->flows[flow];
	seq = rte_be_to_cpu_64(pl->seq);
	*flow_out = flow;
	*seq_out = seq;
	if (seq >= f->next) {
		/* newest of its flow; seqs skipped over are holes for now */
		d = seq - f->next + 1;
		f->window = d >= OCTO_SINK_WINDOW ? 1 : (f->window << d) | 1;
		f->next = seq + 1;
		ctr_add(&s->expected, d);
		ctr_add(&s->distinct, 1);
		ctr_add(&s->in_order, 1);
		return 1;
	}
	d = f->next - 1 - seq;
	if (d < OCTO_SINK_WINDOW) {
		bit = UINT64_C(1) << d;
		if (f->window & bit) {
			ctr_add(&s->duplicates, 1);
			return 1;
		}
		f->window |= bit;
	}
	/* Older than the window: assumed new (fills a hole), see the header. */
	ctr_add(&s->out_of_order, 1);
	ctr_add(&s->distinct, 1);
	return 1;
}

void
octo_sink_stats(const struct octo_sink *s, struct octo_sink_stats *st)
{
	/*
	 * Relaxed loads give no order across counters, and a repeat older than
	 * the window counts as distinct: clamp instead of wrapping.
	 */
	uint64_t distinct = ctr_get(&s->distinct);
	uint64_t expected = ctr_get(&s->expected);

	st->pkts = ctr_get(&s->pkts);
	st->in_order = ctr_get(&s->in_order);
	st->out_of_order = ctr_get(&s->out_of_order);
	st->duplicates = ctr_get(&s->duplicates);
	st->foreign = ctr_get(&s->foreign);
	st->lost = expected > distinct ? expected - distinct : 0;
}
