/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * The emulated node of a shared page, for every process of the emulation
 * (part of octopus-numa-emu-shim.so).
 *
 * A process that faults a hugepage in under a policy naming an emulated
 * node learns that node from the shim (numa-emu-shim.c).  A DPDK secondary
 * process maps the primary's pages without any policy and checks each one
 * is on the socket of its memseg list: the kernel only knows the backing
 * node.  So the shim writes the emulated node of each file-backed page it
 * answered for into a directory shared by the emulation's processes
 * (OCTOPUS_NUMA_EMU_PAGES, a tmpfs of the emulation's mount namespace),
 * named by the page's file and offset (device, inode, offset: the same in
 * every process mapping it), and reads it back for a page asked about
 * without a policy.  Not on any hot path: once per page mapped.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numa-emu-pages.h"

/* The name of the file page at @p addr in @p key; 0, or -1 if anonymous. */
static int
page_key(const void *addr, char *key, size_t len)
{
	uintptr_t a = (uintptr_t)addr, start, end;
	unsigned long long off, ino;
	unsigned int maj, min;
	char line[512];
	int found = -1;
	FILE *f;

	f = fopen("/proc/self/maps", "re");
	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " %*s %llx %x:%x %llu",
				&start, &end, &off, &maj, &min, &ino) != 6)
			continue;
		if (a < start || a >= end)
			continue;
		if (ino != 0) {
			snprintf(key, len, "%x.%x-%llu-%llx", maj, min, ino,
				off + (unsigned long long)(a - start));
			found = 0;
		}
		break;
	}
	fclose(f);
	return found;
}

static int
page_path(const void *addr, char *path, size_t len)
{
	const char *dir = getenv("OCTOPUS_NUMA_EMU_PAGES");
	char key[128];

	if (dir == NULL || *dir == '\0' || page_key(addr, key, sizeof(key)) < 0)
		return -1;
	snprintf(path, len, "%s/%s", dir, key);
	return 0;
}

void
emu_page_note(const void *addr, int node)
{
	char path[1024];
	FILE *f;

	if (page_path(addr, path, sizeof(path)) < 0)
		return;
	f = fopen(path, "we");
	if (f == NULL)
		return;
	fprintf(f, "%d\n", node);
	fclose(f);
}

int
emu_page_node(const void *addr)
{
	char path[1024];
	int node = -1;
	FILE *f;

	if (page_path(addr, path, sizeof(path)) < 0)
		return -1;
	f = fopen(path, "re");
	if (f == NULL)
		return -1;
	if (fscanf(f, "%d", &node) != 1)
		node = -1;
	fclose(f);
	return node;
}
