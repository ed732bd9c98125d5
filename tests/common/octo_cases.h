/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTO_CASES_H
#define OCTO_CASES_H

/*
 * The cases of an EAL test binary: main() sets up EAL and the application's
 * pool (octo_eal.h), then runs the one its first argument names (one
 * binary, one test per case in meson, each its own EAL), or each of those
 * it names.
 */

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_mempool.h>

#include "octo_check.h"
#include "octo_eal.h"
#include "octo_test_eal.h"

struct octo_case {
	const char *name;
	void (*run)(struct rte_mempool *mp);
	bool ends_eal;	/**< the case ends EAL itself (it checks what that logs) */
};

/*
 * EAL for a binary run as "<prog> <EAL args> -- <case>" on two sockets:
 * the case's name ("" when none is given), or NULL with the reason on
 * stdout.
 */
static inline const char *
octo_case_eal_init_2s(int argc, char **argv, unsigned int default_mb)
{
	int ret = octo_test_eal_init(&argc, &argv, default_mb);

	if (ret < 0 || rte_socket_count() < 2) {
		printf("EAL init failed, or fewer than 2 sockets (run under octopus-numa-emu --nodes 2)\n");
		return NULL;
	}
	return argc - ret > 1 ? argv[ret + 1] : "";
}

static inline void
octo_case_usage(const struct octo_case *cases, unsigned int n, const char *prog)
{
	unsigned int i;

	fprintf(stderr, "usage: %s ", prog);
	for (i = 0; i < n; i++)
		fprintf(stderr, "%s%s", i ? "|" : "", cases[i].name);
	fputc('\n', stderr);
}

static inline int
octo_case_find(const struct octo_case *cases, unsigned int n, const char *name)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (strcmp(name, cases[i].name) == 0)
			return (int)i;
	return -1;
}

/*
 * Run the case of @p cases named @p which: its index, or -1, with the usage
 * line naming them all on stderr, when none is.
 */
static inline int
octo_case_run(const struct octo_case *cases, unsigned int n, const char *which,
		const char *prog, struct rte_mempool *mp)
{
	int i = octo_case_find(cases, n, which);

	if (i < 0)
		octo_case_usage(cases, n, prog);
	else
		cases[i].run(mp);
	return i;
}

/*
 * Run, in the order given, each case named in @p names (@p nb_names of
 * them; "all" names every case), in one EAL. 0, or -1 with the usage line
 * and nothing run when a name is none of theirs or none is given.
 */
static inline int
octo_cases_run(const struct octo_case *cases, unsigned int n, char *const *names,
		int nb_names, const char *prog, struct rte_mempool *mp)
{
	unsigned int i;
	int a;

	for (a = 0; a < nb_names; a++)
		if (strcmp(names[a], "all") != 0 && octo_case_find(cases, n, names[a]) < 0)
			break;
	if (nb_names == 0 || a < nb_names) {
		octo_case_usage(cases, n, prog);
		return -1;
	}
	for (a = 0; a < nb_names; a++)
		for (i = 0; i < n; i++)
			if (strcmp(names[a], "all") == 0 || strcmp(names[a], cases[i].name) == 0) {
				printf("== %s\n", cases[i].name);
				cases[i].run(mp);
			}
	return 0;
}

/*
 * The end of main(): run the case named @p which, say how it went and end
 * EAL. The binary's exit status: 0 when every CHECK held, 1 when one
 * failed, 2 when no case has that name.
 */
static inline int
octo_case_main(const struct octo_case *cases, unsigned int n, const char *which,
		const char *prog, struct rte_mempool *mp)
{
	int i = octo_case_run(cases, n, which, prog, mp);

	if (i < 0)
		return 2;
	if (!cases[i].ends_eal)
		octo_test_eal_cleanup();
	return octo_check_verdict(which);
}

/*
 * main() of a binary run as "<prog> <EAL args> -- <case>" on two sockets:
 * EAL (octo_case_eal_init_2s()), the pool @p setup makes for the cases
 * (NULL: it could not, said why; exit status 1), then octo_case_main().
 */
static inline int
octo_case_main_2s(int argc, char **argv, unsigned int default_mb,
		const struct octo_case *cases, unsigned int n, struct rte_mempool *(*setup)(void))
{
	const char *which = octo_case_eal_init_2s(argc, argv, default_mb);
	struct rte_mempool *mp;

	if (which == NULL)
		return 1;
	mp = setup();
	if (mp == NULL)
		return 1;
	return octo_case_main(cases, n, which, argv[0], mp);
}

/*
 * main() of a binary run as "<prog> <EAL args> -- <case>...", its cases
 * needing no pool: EAL (octo_eal_init_args()), the cases named run in one
 * EAL (octo_cases_run()), EAL ended. The exit status: 0 when every CHECK
 * held, 1 when one failed, EAL did not start or a name is none of theirs.
 */
static inline int
octo_cases_main(int argc, char **argv, unsigned int default_mb,
		const struct octo_case *cases, unsigned int n)
{
	if (octo_eal_init_args(&argc, &argv, default_mb) < 0)
		return 1;
	if (octo_cases_run(cases, n, argv + 1, argc - 1, argv[0], NULL) < 0)
		return 1;
	rte_eal_cleanup();
	return octo_check_verdict(argv[0]);
}

#endif /* OCTO_CASES_H */
