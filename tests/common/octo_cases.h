/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTO_CASES_H
#define OCTO_CASES_H

/*
 * The cases of an EAL test binary: main() sets up EAL and the application's
 * pool, then runs the one its first argument names (one binary, one test
 * per case in meson, each its own EAL).
 */

#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_mempool.h>

struct octo_case {
	const char *name;
	void (*run)(struct rte_mempool *mp);
};

/*
 * Run the case of @p cases named @p which. -1, with the usage line naming
 * them all on stderr, when none is.
 */
static inline int
octo_case_run(const struct octo_case *cases, unsigned int n, const char *which,
		const char *prog, struct rte_mempool *mp)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (strcmp(which, cases[i].name) == 0) {
			cases[i].run(mp);
			return 0;
		}
	fprintf(stderr, "usage: %s ", prog);
	for (i = 0; i < n; i++)
		fprintf(stderr, "%s%s", i ? "|" : "", cases[i].name);
	fputc('\n', stderr);
	return -1;
}

#endif /* OCTO_CASES_H */
