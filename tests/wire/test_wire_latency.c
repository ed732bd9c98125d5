/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Latency histogram: a copy of it counts every recorded latency once, in
 * the bucket whose bounds hold it, and two copies give by difference what
 * was recorded in between (what the demo's time series read through
 * telemetry).
 */

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "octo_wire.h"

#define NB_FLOWS 4

static const uint64_t values[] = { 0, 1, 15, 16, 17, 100, 1000, 1023, 1024,
	123456, 7777777, UINT64_C(1) << 40, (UINT64_C(1) << 62) + 12345 };

/* Stamp frame k at time 0 and record it at time @p v. */
static void
record(struct octo_latency *l, uint64_t k, uint64_t v)
{
	octo_latency_stamp(l, k, 1, 0);
	octo_latency_record(l, (uint32_t)(k % NB_FLOWS), k / NB_FLOWS, v);
}

static unsigned int
bucket_holding(uint64_t v)
{
	unsigned int b;

	for (b = 0; b < OCTO_LATENCY_BUCKETS; b++)
		if (v >= octo_latency_bucket_low(b) &&
				v < octo_latency_bucket_low(b + 1))
			return b;
	return OCTO_LATENCY_BUCKETS;
}

static void
test_buckets(void **state)
{
	static uint64_t before[OCTO_LATENCY_BUCKETS], after[OCTO_LATENCY_BUCKETS];
	struct octo_latency *l = octo_latency_create(NB_FLOWS, 8);
	uint64_t total = 0, samples, stale;
	unsigned int i, b;

	(void)state;
	assert_non_null(l);
	/* bounds grow strictly, 16 steps per power of 2 past the first 16 */
	for (b = 0; b + 1 < OCTO_LATENCY_BUCKETS; b++)
		if (octo_latency_bucket_low(b + 1) != UINT64_MAX)
			assert_true(octo_latency_bucket_low(b) < octo_latency_bucket_low(b + 1));
	assert_int_equal(octo_latency_bucket_low(16), 16);
	assert_int_equal(octo_latency_bucket_low(32), 32);
	assert_int_equal(octo_latency_bucket_low(33), 34);

	record(l, 0, 5);
	octo_latency_hist(l, before);
	for (i = 0; i < RTE_DIM(values); i++)
		record(l, i + 1, values[i]);
	octo_latency_hist(l, after);
	for (i = 0; i < RTE_DIM(values); i++) {
		b = bucket_holding(values[i]);
		assert_true(b < OCTO_LATENCY_BUCKETS);
		assert_true(after[b] > before[b]);
	}
	for (b = 0; b < OCTO_LATENCY_BUCKETS; b++) {
		assert_true(after[b] >= before[b]);
		total += after[b] - before[b];
	}
	assert_int_equal(total, RTE_DIM(values));
	octo_latency_counts(l, &samples, &stale);
	assert_int_equal(samples, RTE_DIM(values) + 1);
	assert_int_equal(stale, 0);
	octo_latency_free(l);
}

/* The quantile is the middle of the bucket the histogram copy gives. */
static void
test_quantile_matches_hist(void **state)
{
	static uint64_t h[OCTO_LATENCY_BUCKETS];
	struct octo_latency *l = octo_latency_create(NB_FLOWS, 12);
	uint64_t k, v, n = 0, acc = 0;
	unsigned int b;

	(void)state;
	assert_non_null(l);
	for (k = 0; k < 1000; k++)
		record(l, k, 1000 + 37 * k);
	assert_int_equal(octo_latency_quantile(l, 0.99, &v), 0);
	octo_latency_hist(l, h);
	for (b = 0; b < OCTO_LATENCY_BUCKETS; b++)
		n += h[b];
	assert_int_equal(n, 1000);
	for (b = 0; b < OCTO_LATENCY_BUCKETS; b++) {
		acc += h[b];
		if (acc > 990)
			break;
	}
	assert_int_equal(v, octo_latency_bucket_low(b) +
		(octo_latency_bucket_low(b + 1) - octo_latency_bucket_low(b)) / 2);
	octo_latency_free(l);
}

/* Non-empty buckets: exact when they fit, merged runs when they do not,
 * every latency counted once in an entry that holds it. */
static void
test_nonempty(void **state)
{
	enum { MAX = 32 };
	uint64_t low[OCTO_LATENCY_BUCKETS], high[OCTO_LATENCY_BUCKETS];
	uint64_t count[OCTO_LATENCY_BUCKETS], k, v, total;
	struct octo_latency *l = octo_latency_create(NB_FLOWS, 12);
	unsigned int n, i, distinct = 0, prev = OCTO_LATENCY_BUCKETS;

	(void)state;
	assert_non_null(l);
	assert_int_equal(octo_latency_nonempty(l, low, high, count, MAX), 0);
	/* 1000 latencies from 2^10 to about 2^30: more buckets than MAX */
	for (k = 0; k < 1000; k++) {
		v = 1024 + k * k * 1047;
		record(l, k, v);
		if (bucket_holding(v) != prev)
			distinct++;
		prev = bucket_holding(v);
	}
	n = octo_latency_nonempty(l, low, high, count, OCTO_LATENCY_BUCKETS);
	assert_int_equal(n, distinct);
	for (i = 0; i < n; i++) {
		assert_int_equal(high[i], octo_latency_bucket_low(bucket_holding(low[i]) + 1));
		assert_true(count[i] > 0);
	}
	n = octo_latency_nonempty(l, low, high, count, MAX);
	assert_true(n <= MAX && n >= MAX / 2);
	total = 0;
	for (i = 0; i < n; i++) {
		assert_true(low[i] < high[i]);
		if (i > 0)
			assert_true(high[i - 1] <= low[i]);
		total += count[i];
	}
	assert_int_equal(total, 1000);
	for (k = 0; k < 1000; k++) {
		v = 1024 + k * k * 1047;
		for (i = 0; i < n; i++)
			if (v >= low[i] && v < high[i])
				break;
		assert_true(i < n);
	}
	octo_latency_free(l);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buckets),
		cmocka_unit_test(test_quantile_matches_hist),
		cmocka_unit_test(test_nonempty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
