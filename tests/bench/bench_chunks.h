/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef BENCH_CHUNKS_H
#define BENCH_CHUNKS_H

/*
 * What the benchmarks that compare sides in one process share: @p n
 * operations cut into chunks, each side measured on every chunk with the
 * side that goes first rotating (a side is not always the one that meets
 * a cold cache or the host's load first), and the medians of the chunks.
 */

#include <stdint.h>

/* The operations [*@p from, *@p to) of chunk @p r of @p rounds over @p n. */
static inline void
bench_chunk(uint32_t n, uint32_t rounds, uint32_t r, uint32_t *from, uint32_t *to)
{
	*from = (uint32_t)((uint64_t)n * r / rounds);
	*to = (uint32_t)((uint64_t)n * (r + 1) / rounds);
}

/* The side measured @p k th (from 0) in chunk @p r of @p nb_sides sides. */
static inline int
bench_chunk_side(uint32_t r, int k, int nb_sides)
{
	return (int)((r + (uint32_t)k) % (uint32_t)nb_sides);
}

/* qsort()'s order of doubles, the least first. */
static inline int
bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

#endif /* BENCH_CHUNKS_H */
