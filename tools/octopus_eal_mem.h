/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTOPUS_EAL_MEM_H
#define OCTOPUS_EAL_MEM_H

/**
 * @file
 * Which memory EAL gets in the project's tests, benchmarks and demo: the one
 * place that decides between hugepages and --no-huge.  The C tests call it
 * through octo_eal_args(), the scripts through the octopus-eal-mem tool.
 *
 * Hugepages are used when a hugetlbfs of the default hugepage size is
 * mounted and /proc/meminfo counts enough free pages for the run (its -m),
 * else --no-huge.  OCTOPUS_HUGEPAGES=0 in the environment forces --no-huge,
 * OCTOPUS_HUGEPAGES=1 forces hugepages.
 */

#include <stddef.h>

/** The decision for one run. */
struct octo_eal_mem {
	int huge;		/**< 1: hugepages, 0: --no-huge */
	const char *opt;	/**< the EAL option that selects it */
	char why[1280];		/**< what it was based on, for the run's log */
};

/**
 * Decide the memory of a run that asks EAL for @p mb megabytes (-m).
 * @return 0 (the decision is in @p m).
 */
int octo_eal_mem_decide(unsigned int mb, struct octo_eal_mem *m);

/**
 * EAL arguments for a test: @p argv (up to its "--", if any) with
 *  - the memory decided for its -m (default @p default_mb): --no-huge, or
 *    hugepages with --huge-unlink (no hugepage file outlives the run), unless
 *    argv says --no-huge or --huge-unlink itself;
 *  - its --file-prefix made unique to this process ("<prefix>-<pid>"; without
 *    one, "<program>-<pid>"), so that runs never share EAL's runtime
 *    directory (remove it at the end: tests/common/octo_eal_cleanup.h).
 * Prints the memory used on stderr ("memory: ...").
 * @return the new argc; *@p out is allocated for the life of the process.
 */
int octo_eal_args(int argc, char **argv, unsigned int default_mb, char ***out);

/** The argument array octo_eal_args() made last (kept reachable). */
extern char **octo_eal_args_made;
/** The file prefix it made last (kept reachable). */
extern char *octo_eal_prefix_made;

#endif /* OCTOPUS_EAL_MEM_H */
