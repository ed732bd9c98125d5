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
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>

static inline void
octo_test_eal_cleanup(void)
{
	char dir[PATH_MAX], path[PATH_MAX + 256];
	struct dirent *e;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s", rte_eal_get_runtime_dir());
	rte_eal_cleanup();
	d = opendir(dir);
	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	closedir(d);
	rmdir(dir);
}

#endif /* OCTO_EAL_CLEANUP_H */
