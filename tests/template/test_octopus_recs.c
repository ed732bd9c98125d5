/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Unit test (no EAL) of a template table's rule records
 * (octopus_flow_tmpl_recs.c): DPDK's allocator is replaced by the C heap
 * through the linker's --wrap, so that a failing allocation can be asked
 * for and every byte taken is seen given back.
 *  - a fresh table hands out its records in address order, zeroed;
 *  - the capacity asked for can be in use whatever the other flow queues'
 *    caches hold;
 *  - a record given back on one flow queue is the next that queue takes;
 *  - under seeded random takes and returns across flow queues, no record
 *    is handed out twice and the count in use is exact;
 *  - a record of a size that is no power of 2 takes the next one, and
 *    records do not overlap;
 *  - an allocation that fails leaves nothing taken.
 */

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "octopus_flow_tmpl_priv.h"

#define REC_SIZE	32

/* ---- DPDK's allocator, on the C heap (link_args: --wrap) ---- */

static int allocs_live;		/* allocations not freed */
static int fail_at = -1;	/* the allocation (0, 1, ...) that fails, -1: none */
static int alloc_nb;

void *__wrap_rte_zmalloc_socket(const char *type, size_t size, unsigned int align, int socket);
void *__wrap_rte_malloc_socket(const char *type, size_t size, unsigned int align, int socket);
void __wrap_rte_free(void *ptr);

static void *
heap_alloc(size_t size, unsigned int align, bool zero)
{
	void *p;

	if (alloc_nb++ == fail_at)
		return NULL;
	if (posix_memalign(&p, align < sizeof(void *) ? sizeof(void *) : align, size) != 0)
		return NULL;
	/* not zeroed unless asked: a record must come zeroed from init */
	memset(p, zero ? 0 : 0xa5, size);
	allocs_live++;
	return p;
}

void *
__wrap_rte_zmalloc_socket(const char *type, size_t size, unsigned int align, int socket)
{
	(void)type;
	(void)socket;
	return heap_alloc(size, align, true);
}

void *
__wrap_rte_malloc_socket(const char *type, size_t size, unsigned int align, int socket)
{
	(void)type;
	(void)socket;
	return heap_alloc(size, align, false);
}

void
__wrap_rte_free(void *ptr)
{
	if (ptr == NULL)
		return;
	allocs_live--;
	free(ptr);
}

static void
reset_heap(void)
{
	allocs_live = 0;
	alloc_nb = 0;
	fail_at = -1;
}

static uint32_t
index_of(const struct octopus_tmpl_recs *p, const void *rec)
{
	const char *c = rec;

	size_t stride = (size_t)1 << p->shift;

	assert_true(c >= p->base);
	assert_int_equal((size_t)(c - p->base) % stride, 0);
	assert_true((size_t)(c - p->base) / stride < p->n);
	return (uint32_t)((size_t)(c - p->base) / stride);
}

static void
test_fresh_order(void **state)
{
	struct octopus_tmpl_recs p;
	static const uint8_t zero[REC_SIZE];
	uint32_t i;

	(void)state;
	reset_heap();
	assert_int_equal(octopus_tmpl_recs_init(&p, 1000, REC_SIZE, 3, -1), 0);
	for (i = 0; i < 1000; i++) {
		void *r = octopus_tmpl_recs_get(&p, 1);

		assert_non_null(r);
		assert_int_equal(index_of(&p, r), i);
		assert_memory_equal(r, zero, REC_SIZE);
	}
	assert_int_equal(octopus_tmpl_recs_in_use(&p), 1000);
	octopus_tmpl_recs_fini(&p);
	assert_int_equal(allocs_live, 0);
}

/* Queue 1 and 2 keep full caches; queue 0 still takes the capacity. */
static void
test_capacity_whatever_cached(void **state)
{
	enum { CAP = 500 };
	void *held[2][OCTOPUS_TMPL_RECS_CACHE];
	struct octopus_tmpl_recs p;
	uint32_t i, q, got = 0;

	(void)state;
	reset_heap();
	assert_int_equal(octopus_tmpl_recs_init(&p, CAP, REC_SIZE, 3, -1), 0);
	for (q = 1; q <= 2; q++) {
		for (i = 0; i < OCTOPUS_TMPL_RECS_CACHE; i++)
			assert_non_null(held[q - 1][i] = octopus_tmpl_recs_get(&p, q));
		for (i = 0; i < OCTOPUS_TMPL_RECS_CACHE; i++)
			octopus_tmpl_recs_put(&p, q, held[q - 1][i]);
	}
	assert_int_equal(octopus_tmpl_recs_in_use(&p), 0);
	while (octopus_tmpl_recs_get(&p, 0) != NULL)
		got++;
	assert_true(got >= CAP);
	assert_int_equal(octopus_tmpl_recs_in_use(&p), got);
	octopus_tmpl_recs_fini(&p);
	assert_int_equal(allocs_live, 0);
}

/* What a flow queue gave back is what it takes next, last first. */
static void
test_given_back_taken_next(void **state)
{
	struct octopus_tmpl_recs p;
	void *r[3];
	uint32_t i;

	(void)state;
	reset_heap();
	assert_int_equal(octopus_tmpl_recs_init(&p, 100, REC_SIZE, 2, -1), 0);
	for (i = 0; i < 3; i++)
		r[i] = octopus_tmpl_recs_get(&p, 0);
	/* given back on another flow queue (its destroy's) */
	for (i = 0; i < 3; i++)
		octopus_tmpl_recs_put(&p, 1, r[i]);
	for (i = 0; i < 3; i++)
		assert_ptr_equal(octopus_tmpl_recs_get(&p, 1), r[2 - i]);
	assert_int_equal(octopus_tmpl_recs_in_use(&p), 3);
	octopus_tmpl_recs_fini(&p);
}

static uint64_t seed = 0x2545f4914f6cdd1dULL;

static uint32_t
rnd(uint32_t n)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return (uint32_t)(seed % n);
}

/* Random takes and returns over 4 flow queues, across them. */
static void
test_random(void **state)
{
	enum { CAP = 3000, NQ = 4, STEPS = 200000 };
	struct octopus_tmpl_recs p;
	uint8_t *given;
	void **out;
	uint32_t nb_out = 0, step, full = 0, refused = 0;

	(void)state;
	reset_heap();
	assert_int_equal(octopus_tmpl_recs_init(&p, CAP, REC_SIZE, NQ, -1), 0);
	given = calloc(p.n, 1);
	out = calloc(p.n, sizeof(*out));
	assert_non_null(given);
	assert_non_null(out);
	for (step = 0; step < STEPS; step++) {
		/* takes win a little until full, then returns do */
		bool take = nb_out == 0 || rnd(100) < (full != 0 ? 40u : 55u);
		uint16_t q = (uint16_t)rnd(NQ);

		if (take) {
			void *r = octopus_tmpl_recs_get(&p, q);
			uint32_t i;

			if (r == NULL) {
				/* only once the capacity is in use */
				assert_true(nb_out >= CAP);
				full++;
				refused++;
				continue;
			}
			i = index_of(&p, r);
			assert_int_equal(given[i], 0);
			given[i] = 1;
			out[nb_out++] = r;
		} else {
			uint32_t k = rnd(nb_out);
			void *r = out[k];

			out[k] = out[--nb_out];
			given[index_of(&p, r)] = 0;
			octopus_tmpl_recs_put(&p, q, r);
			if (nb_out < CAP / 2)
				full = 0;
		}
		assert_int_equal(octopus_tmpl_recs_in_use(&p), nb_out);
	}
	/* the walk reached the capacity, more than once */
	assert_true(refused > 1);
	free(given);
	free(out);
	octopus_tmpl_recs_fini(&p);
	assert_int_equal(allocs_live, 0);
}

/* 24-byte records: 32 apart, each its own, given back to its index. */
static void
test_odd_size(void **state)
{
	enum { N = 200 };
	struct octopus_tmpl_recs p;
	uint8_t *r[N];
	uint32_t i;

	(void)state;
	reset_heap();
	assert_int_equal(octopus_tmpl_recs_init(&p, N, 24, 1, -1), 0);
	assert_int_equal(1u << p.shift, 32);
	for (i = 0; i < N; i++) {
		r[i] = octopus_tmpl_recs_get(&p, 0);
		assert_non_null(r[i]);
		assert_int_equal(index_of(&p, r[i]), i);
		memset(r[i], (int)(i & 0xff), 24);
	}
	for (i = 0; i < N; i++)
		assert_int_equal(r[i][23], i & 0xff);
	octopus_tmpl_recs_put(&p, 0, r[7]);
	assert_ptr_equal(octopus_tmpl_recs_get(&p, 0), r[7]);
	octopus_tmpl_recs_fini(&p);
	assert_int_equal(octopus_tmpl_recs_init(&p, N, 65, 1, -1), -EINVAL);
	assert_int_equal(allocs_live, 0);
}

/* Each of init's allocations failing: -ENOMEM, nothing kept. */
static void
test_alloc_failure(void **state)
{
	struct octopus_tmpl_recs p;
	int k;

	(void)state;
	for (k = 0; k < 3; k++) {
		reset_heap();
		fail_at = k;
		assert_int_equal(octopus_tmpl_recs_init(&p, 100, REC_SIZE, 2, -1), -ENOMEM);
		assert_int_equal(allocs_live, 0);
		assert_null(p.base);
		octopus_tmpl_recs_fini(&p);	/* harmless after a failure */
	}
	reset_heap();
	assert_int_equal(octopus_tmpl_recs_init(&p, 100, REC_SIZE, 0, -1), -EINVAL);
	assert_int_equal(allocs_live, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fresh_order),
		cmocka_unit_test(test_capacity_whatever_cached),
		cmocka_unit_test(test_given_back_taken_next),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_odd_size),
		cmocka_unit_test(test_alloc_failure),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
