/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTO_TEST_EAL_H
#define OCTO_TEST_EAL_H

/*
 * rte_eal_init() for tests: on hugepages or --no-huge as the project decides
 * (tools/octopus_eal_mem.h), with a file prefix of this process's own, whose
 * runtime directory is removed at exit.
 */

#include <rte_eal.h>

#include "octopus_eal_mem.h"
#include "octo_eal_cleanup.h"

/*
 * rte_eal_init() on *@p argc / *@p argv with the memory options and prefix
 * added (octo_eal_args(), @p default_mb without -m); on success *@p argc and
 * *@p argv are the arguments EAL was given (so "argv += ret" skips them).
 * @return what rte_eal_init() returned.
 */
static inline int
octo_test_eal_init(int *argc, char ***argv, unsigned int default_mb)
{
	char **eal;
	int n, ret;

	n = octo_eal_args(*argc, *argv, default_mb, &eal);
	if (n < 0)
		return -1;
	ret = rte_eal_init(n, eal);
	/* EAL makes its runtime directory early: gone even if init failed */
	octo_test_rundir_at_exit();
	if (ret < 0)
		return ret;
	*argc = n;
	*argv = eal;
	return ret;
}

#endif /* OCTO_TEST_EAL_H */
