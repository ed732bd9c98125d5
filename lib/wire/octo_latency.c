/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Wire-to-wire latency of generated frames.  The generator's k-th frame
 * (flows round-robin from 0: flow k mod F, sequence k div F) is stamped
 * with the time of its burst in slot k mod W; the sink finds the stamp
 * again from the flow and sequence it reads, and counts the difference in
 * a log-linear histogram (16 steps per power of 2, so quantiles are within
 * 1/16).  A frame held longer than W frames later finds its slot reused
 * and is not counted (counted as "stale").
 */

#include <assert.h>
#include <errno.h>
#include <stdlib.h>

#include <rte_bitops.h>
#include <rte_common.h>
#include <octopus_dpdk_compat.h>

#include "octo_wire.h"

#define LAT_SUB_BITS 4
#define LAT_SUB (1u << LAT_SUB_BITS)
#define LAT_BUCKETS OCTO_LATENCY_BUCKETS
static_assert(LAT_BUCKETS == 64 * LAT_SUB, "one bucket row per bit of a 64-bit value");

struct lat_slot {
	uint64_t index;
	uint64_t t;
};

struct octo_latency {
	uint32_t nb_flows;
	uint64_t mask;			/* W - 1 */
	uint64_t samples, stale;	/* one writer, relaxed */
	uint64_t hist[LAT_BUCKETS];
	struct lat_slot slot[];
};

struct octo_latency *
octo_latency_create(uint32_t nb_flows, unsigned int window_log2)
{
	struct octo_latency *l;
	uint64_t w = UINT64_C(1) << window_log2, i;

	if (nb_flows == 0 || window_log2 == 0 || window_log2 > 24) {
		errno = EINVAL;
		return NULL;
	}
	l = calloc(1, sizeof(*l) + w * sizeof(l->slot[0]));
	if (l == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	l->nb_flows = nb_flows;
	l->mask = w - 1;
	for (i = 0; i < w; i++)
		l->slot[i].index = UINT64_MAX;
	return l;
}

void
octo_latency_free(struct octo_latency *l)
{
	free(l);
}

void
octo_latency_stamp(struct octo_latency *l, uint64_t first, uint16_t n,
		uint64_t t)
{
	uint16_t i;

	for (i = 0; i < n; i++) {
		struct lat_slot *s = &l->slot[(first + i) & l->mask];

		s->index = first + i;
		s->t = t;
	}
}

static inline unsigned int
bucket_of(uint64_t v)
{
	unsigned int msb;

	if (v < LAT_SUB)
		return (unsigned int)v;
	msb = rte_fls_u64(v) - 1;
	return (msb - LAT_SUB_BITS + 1) * LAT_SUB +
		(unsigned int)((v >> (msb - LAT_SUB_BITS)) & (LAT_SUB - 1));
}

/* Smallest value of bucket @p b. */
static inline uint64_t
bucket_low(unsigned int b)
{
	unsigned int e = b / LAT_SUB;

	if (e == 0)
		return b;
	return (uint64_t)(LAT_SUB + b % LAT_SUB) << (e - 1);
}

static inline void
add(uint64_t *c, uint64_t n)
{
	rte_atomic_store_explicit(c, *c + n, rte_memory_order_relaxed);
}

void
octo_latency_record(struct octo_latency *l, uint32_t flow, uint64_t seq,
		uint64_t now)
{
	uint64_t k = seq * l->nb_flows + flow;
	const struct lat_slot *s = &l->slot[k & l->mask];

	if (s->index != k || now < s->t) {
		add(&l->stale, 1);
		return;
	}
	add(&l->hist[bucket_of(now - s->t)], 1);
	add(&l->samples, 1);
}

int
octo_latency_quantile(const struct octo_latency *l, double q, uint64_t *v)
{
	uint64_t n = 0, want, c[LAT_BUCKETS], acc = 0;
	unsigned int b;

	for (b = 0; b < LAT_BUCKETS; b++) {
		c[b] = rte_atomic_load_explicit(&l->hist[b], rte_memory_order_relaxed);
		n += c[b];
	}
	if (n == 0 || q < 0 || q > 1)
		return -1;
	want = (uint64_t)(q * (double)n);
	if (want >= n)
		want = n - 1;
	for (b = 0; b < LAT_BUCKETS; b++) {
		acc += c[b];
		if (acc > want)
			break;
	}
	/* the middle of the bucket */
	*v = bucket_low(b) + (bucket_low(b + 1) - bucket_low(b)) / 2;
	return 0;
}

void
octo_latency_counts(const struct octo_latency *l, uint64_t *samples,
		uint64_t *stale)
{
	*samples = rte_atomic_load_explicit(&l->samples, rte_memory_order_relaxed);
	*stale = rte_atomic_load_explicit(&l->stale, rte_memory_order_relaxed);
}

void
octo_latency_hist(const struct octo_latency *l, uint64_t counts[OCTO_LATENCY_BUCKETS])
{
	unsigned int b;

	for (b = 0; b < LAT_BUCKETS; b++)
		counts[b] = rte_atomic_load_explicit(&l->hist[b], rte_memory_order_relaxed);
}

unsigned int
octo_latency_nonempty(const struct octo_latency *l, uint64_t *low,
		uint64_t *high, uint64_t *count, unsigned int max)
{
	uint64_t c[LAT_BUCKETS];
	unsigned int b, k = 0, group = 1, n = 0, in_group = 0;

	if (max == 0)
		return 0;
	octo_latency_hist(l, c);
	for (b = 0; b < LAT_BUCKETS; b++)
		k += c[b] != 0;
	while ((k + group - 1) / group > max)
		group *= 2;
	for (b = 0; b < LAT_BUCKETS; b++) {
		if (c[b] == 0)
			continue;
		if (in_group == 0) {
			low[n] = octo_latency_bucket_low(b);
			count[n++] = 0;
		}
		count[n - 1] += c[b];
		high[n - 1] = octo_latency_bucket_low(b + 1);
		in_group = (in_group + 1) % group;
	}
	return n;
}

uint64_t
octo_latency_bucket_low(unsigned int b)
{
	/* a 64-bit value's top bit is bit 63: the buckets from here on stay
	 * empty, and their bounds (2^64 and up) do not fit: saturate
	 */
	if (b >= (64 - LAT_SUB_BITS + 1) * LAT_SUB)
		return UINT64_MAX;
	return bucket_low(b);
}
