/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTO_SCHED_H
#define OCTO_SCHED_H

/* What the scheduler says of a thread of this process (Linux /proc). */

#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Of /proc/self/task/TID/schedstat: ns on a CPU, ns waiting for one while
 * runnable, and the times it was put on a CPU (its wake-ups, for a thread
 * that sleeps between them).
 */
struct octo_sched_times {
	uint64_t run_ns, wait_ns, slices;
};

/* Zeros if @p tid is not a thread of this process. */
static inline struct octo_sched_times
octo_sched_of(int tid)
{
	struct octo_sched_times t = { 0, 0, 0 };
	char path[64];
	FILE *f;

	if (tid <= 0)
		return t;
	snprintf(path, sizeof(path), "/proc/self/task/%d/schedstat", tid);
	f = fopen(path, "r");
	if (f == NULL)
		return t;
	if (fscanf(f, "%" SCNu64 " %" SCNu64 " %" SCNu64, &t.run_ns, &t.wait_ns,
			&t.slices) != 3)
		t.run_ns = t.wait_ns = t.slices = 0;
	fclose(f);
	return t;
}

/* The id of this process's first thread whose name starts with @p prefix, -1 if none. */
static inline int
octo_thread_named(const char *prefix)
{
	char path[300], comm[64];
	struct dirent *e;
	DIR *d = opendir("/proc/self/task");
	int tid = -1;
	FILE *f;

	if (d == NULL)
		return -1;
	while (tid < 0 && (e = readdir(d)) != NULL) {
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
		f = fopen(path, "r");
		if (f == NULL)
			continue;
		if (fgets(comm, sizeof(comm), f) != NULL &&
				strncmp(comm, prefix, strlen(prefix)) == 0)
			tid = atoi(e->d_name);
		fclose(f);
	}
	closedir(d);
	return tid;
}

#endif /* OCTO_SCHED_H */
