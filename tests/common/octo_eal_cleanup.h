/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTO_EAL_CLEANUP_H
#define OCTO_EAL_CLEANUP_H

/*
 * rte_eal_cleanup() for tests whose --file-prefix is unique per run.  EAL
 * leaves its runtime directory behind (<run dir>/dpdk/<prefix>: config and
 * fbarray files, about 6 MB with --no-huge); with a prefix per run, every
 * run would leave one more.  The directory holds only EAL's own files.
 */

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>

/* EAL's runtime directory of this run, once EAL is up. */
static char octo_test_rundir[PATH_MAX];

/* Remove the runtime directory (EAL's own files only). */
static inline void
octo_test_rundir_remove(void)
{
	char path[PATH_MAX + 256];
	struct dirent *e;
	DIR *d;

	if (octo_test_rundir[0] == '\0')
		return;
	d = opendir(octo_test_rundir);
	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", octo_test_rundir, e->d_name);
		unlink(path);
	}
	closedir(d);
	rmdir(octo_test_rundir);
}

/*
 * After rte_eal_init(): the runtime directory goes when the process exits,
 * however main() ends (not on a crash: the next run's prefix differs).
 */
static inline void
octo_test_rundir_at_exit(void)
{
	snprintf(octo_test_rundir, sizeof(octo_test_rundir), "%s", rte_eal_get_runtime_dir());
	atexit(octo_test_rundir_remove);
}

static inline void
octo_test_eal_cleanup(void)
{
	snprintf(octo_test_rundir, sizeof(octo_test_rundir), "%s", rte_eal_get_runtime_dir());
	rte_eal_cleanup();
	octo_test_rundir_remove();
}

#endif /* OCTO_EAL_CLEANUP_H */
