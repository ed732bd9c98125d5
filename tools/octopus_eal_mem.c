/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "octopus_eal_mem.h"

/* "<key> <number> [kB]" from /proc/meminfo; -1 when absent. */
static long long
meminfo(const char *key)
{
	char line[256];
	size_t n = strlen(key);
	long long v = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, key, n) == 0 && line[n] == ':') {
			v = atoll(line + n + 1);
			break;
		}
	fclose(f);
	return v;
}

/* "2M", "1G", "2048k" in kB; 0 when it does not parse. */
static long long
size_kb(const char *s)
{
	char *end;
	long long v = strtoll(s, &end, 10);

	switch (*end) {
	case 'k': case 'K': return v;
	case 'm': case 'M': return v << 10;
	case 'g': case 'G': return v << 20;
	default: return v >> 10;
	}
}

/*
 * A hugetlbfs mount for pages of @p page_kb: its mount point in @p dir.
 * A mount without pagesize= has the default size.
 */
static int
hugetlbfs_mounted(long long page_kb, char *dir, size_t len)
{
	char dev[256], mnt[1024], type[64], opts[1024];
	const char *ps;
	int found = 0;
	FILE *f = fopen("/proc/mounts", "r");

	if (f == NULL)
		return 0;
	while (!found && fscanf(f, "%255s %1023s %63s %1023s %*d %*d", dev, mnt, type, opts) == 4) {
		if (strcmp(type, "hugetlbfs") != 0)
			continue;
		ps = strstr(opts, "pagesize=");
		if (ps == NULL || size_kb(ps + strlen("pagesize=")) == page_kb) {
			snprintf(dir, len, "%s", mnt);
			found = 1;
		}
	}
	fclose(f);
	return found;
}

int
octo_eal_mem_decide(unsigned int mb, struct octo_eal_mem *m)
{
	const char *force = getenv("OCTOPUS_HUGEPAGES");
	long long page_kb = meminfo("Hugepagesize");
	long long free_pages = meminfo("HugePages_Free");
	char dir[1024];

	m->huge = 0;
	if (force != NULL && strcmp(force, "0") == 0) {
		snprintf(m->why, sizeof(m->why), "OCTOPUS_HUGEPAGES=0");
	} else if (force != NULL && strcmp(force, "1") == 0) {
		m->huge = 1;
		snprintf(m->why, sizeof(m->why), "OCTOPUS_HUGEPAGES=1, %lld free", free_pages);
	} else if (page_kb <= 0 || free_pages <= 0) {
		snprintf(m->why, sizeof(m->why), "no free hugepages (/proc/meminfo)");
	} else if (!hugetlbfs_mounted(page_kb, dir, sizeof(dir))) {
		snprintf(m->why, sizeof(m->why), "no hugetlbfs mounted for %lld kB pages",
			page_kb);
	} else if (free_pages * page_kb < (long long)mb << 10) {
		snprintf(m->why, sizeof(m->why),
			"%lld free %lld kB hugepages, fewer than -m %u needs", free_pages,
			page_kb, mb);
	} else {
		m->huge = 1;
		snprintf(m->why, sizeof(m->why), "%lld kB pages on %s, %lld free", page_kb,
			dir, free_pages);
	}
	m->opt = m->huge ? "--huge-unlink" : "--no-huge";
	return 0;
}

/* The last argument array made: EAL may keep pointers into it for the
 * process's life, so it stays reachable (and LeakSanitizer says so). Not
 * static: a compiler drops stores to a static nothing reads.
 */
char **octo_eal_args_made;
/* EAL overwrites an entry of the array it parses: the prefix made too */
char *octo_eal_prefix_made;

int
octo_eal_args(int argc, char **argv, unsigned int default_mb, char ***out)
{
	struct octo_eal_mem m;
	const char *base = strrchr(argv[0], '/');
	unsigned int mb = default_mb;
	int i, n = 0, eal_end = argc, has_prefix = 0, no_huge = 0, huge_given = 0;
	char **a = calloc((size_t)argc + 4, sizeof(*a));
	char *prefix;

	if (a == NULL)
		return -1;
	base = base != NULL ? base + 1 : argv[0];
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			eal_end = i;
			break;
		}
		if (strcmp(argv[i], "-m") == 0 && i + 1 < argc)
			mb = (unsigned int)atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--no-huge") == 0)
			no_huge = 1;
		else if (strcmp(argv[i], "--huge-unlink") == 0)
			huge_given = 1;	/* EAL 25.11 refuses it twice */
	}
	a[n++] = argv[0];
	if (no_huge) {
		fprintf(stderr, "memory: 4K pages (--no-huge given)\n");
	} else if (huge_given) {
		fprintf(stderr, "memory: hugepages, -m %u (--huge-unlink given)\n", mb);
	} else {
		octo_eal_mem_decide(mb, &m);
		a[n++] = (char *)(uintptr_t)m.opt;
		fprintf(stderr, "memory: %s, -m %u (%s)\n", m.huge ? "hugepages" : "4K pages (--no-huge)",
			mb, m.why);
	}
	for (i = 1; i < argc; i++) {
		if (i < eal_end && strcmp(argv[i], "--file-prefix") == 0 && i + 1 < argc) {
			if (asprintf(&prefix, "%s-%d", argv[i + 1], (int)getpid()) < 0)
				return -1;
			a[n++] = argv[i++];
			a[n++] = octo_eal_prefix_made = prefix;
			has_prefix = 1;
			continue;
		}
		if (i == eal_end && !has_prefix) {
			if (asprintf(&prefix, "%s-%d", base, (int)getpid()) < 0)
				return -1;
			a[n++] = "--file-prefix";
			a[n++] = octo_eal_prefix_made = prefix;
			has_prefix = 1;
		}
		a[n++] = argv[i];
	}
	if (!has_prefix) {
		if (asprintf(&prefix, "%s-%d", base, (int)getpid()) < 0)
			return -1;
		a[n++] = "--file-prefix";
		a[n++] = octo_eal_prefix_made = prefix;
	}
	octo_eal_args_made = a;
	*out = a;
	return n;
}
