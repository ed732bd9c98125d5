/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <numa.h>

#include "octo_topology.h"

/* Node and CPU lists come from directory entries ("nodeN", "cpuM") rather
 * than from the cpulist files: that is what EAL reads too (it tests
 * node<N>/cpu<M> for existence), so both agree on any topology, real or
 * emulated.
 */

static int
cmp_u16(const void *a, const void *b)
{
	return (int)*(const uint16_t *)a - (int)*(const uint16_t *)b;
}

static int
cmp_node(const void *a, const void *b)
{
	return ((const struct octo_topo_node *)a)->id -
		((const struct octo_topo_node *)b)->id;
}

static void
read_distance(struct octo_topo_node *n, const char *dir)
{
	char path[1024];
	FILE *f;
	unsigned int d;
	int i = 0;

	snprintf(path, sizeof(path), "%s/distance", dir);
	f = fopen(path, "r");
	if (f == NULL)
		return;
	while (i < OCTO_TOPO_MAX_NODES && fscanf(f, "%u", &d) == 1)
		n->distance[i++] = d > 255 ? 255 : (uint8_t)d;
	fclose(f);
}

static int
read_node(struct octo_topo_node *n, const char *dir)
{
	struct dirent *e;
	DIR *d;
	char *end;
	unsigned long cpu;

	d = opendir(dir);
	if (d == NULL)
		return -errno;
	n->nb_cpus = 0;
	while ((e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, "cpu", 3) != 0)
			continue;
		cpu = strtoul(e->d_name + 3, &end, 10);
		if (end == e->d_name + 3 || *end != '\0')
			continue; /* cpulist, cpumap */
		if (cpu >= OCTO_TOPO_MAX_CPUS || n->nb_cpus >= OCTO_TOPO_MAX_CPUS)
			continue;
		n->cpus[n->nb_cpus++] = (uint16_t)cpu;
	}
	closedir(d);
	qsort(n->cpus, n->nb_cpus, sizeof(n->cpus[0]), cmp_u16);
	read_distance(n, dir);
	return 0;
}

int
octo_topology_read(struct octo_topology *t, const char *sysfs_root)
{
	char base[256], dir[512];
	struct dirent *e;
	DIR *d;
	char *end;
	unsigned long id;
	int ret;

	if (sysfs_root == NULL)
		sysfs_root = "/sys";
	memset(t, 0, sizeof(*t));
	snprintf(base, sizeof(base), "%s/devices/system/node", sysfs_root);
	d = opendir(base);
	if (d == NULL)
		return -errno;
	while ((e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, "node", 4) != 0)
			continue;
		id = strtoul(e->d_name + 4, &end, 10);
		if (end == e->d_name + 4 || *end != '\0')
			continue;
		if (t->nb_nodes >= OCTO_TOPO_MAX_NODES)
			break;
		snprintf(dir, sizeof(dir), "%s/%s", base, e->d_name);
		t->nodes[t->nb_nodes].id = (int)id;
		ret = read_node(&t->nodes[t->nb_nodes], dir);
		if (ret == 0)
			t->nb_nodes++;
	}
	closedir(d);
	if (t->nb_nodes == 0)
		return -ENOENT;
	qsort(t->nodes, t->nb_nodes, sizeof(t->nodes[0]), cmp_node);
	return 0;
}

int
octo_topology_cpu_node(const struct octo_topology *t, unsigned int cpu)
{
	uint16_t i, j;

	for (i = 0; i < t->nb_nodes; i++)
		for (j = 0; j < t->nodes[i].nb_cpus; j++)
			if (t->nodes[i].cpus[j] == cpu)
				return t->nodes[i].id;
	return -1;
}

int
octo_topology_pci_node(const char *sysfs_root, const char *bdf)
{
	char path[512];
	FILE *f;
	int node;

	if (sysfs_root == NULL)
		sysfs_root = "/sys";
	snprintf(path, sizeof(path), "%s/bus/pci/devices/%s/numa_node", sysfs_root, bdf);
	f = fopen(path, "r");
	if (f == NULL)
		return -ENOENT;
	if (fscanf(f, "%d", &node) != 1)
		node = -1;
	fclose(f);
	return node < 0 ? -1 : node;
}

int
octo_topology_read_libnuma(struct octo_topology *t)
{
	struct bitmask *cpus;
	int node, max_node, cpu, ncpus, other;

	memset(t, 0, sizeof(*t));
	if (numa_available() < 0)
		return -ENOSYS;
	max_node = numa_max_node();
	ncpus = numa_num_possible_cpus();
	cpus = numa_allocate_cpumask();
	if (cpus == NULL)
		return -ENOMEM;
	for (node = 0; node <= max_node && t->nb_nodes < OCTO_TOPO_MAX_NODES; node++) {
		struct octo_topo_node *n = &t->nodes[t->nb_nodes];

		if (!numa_bitmask_isbitset(numa_nodes_ptr, node))
			continue;
		numa_bitmask_clearall(cpus);
		if (numa_node_to_cpus(node, cpus) < 0)
			continue;
		n->id = node;
		for (cpu = 0; cpu < ncpus && cpu < OCTO_TOPO_MAX_CPUS; cpu++)
			if (numa_bitmask_isbitset(cpus, cpu))
				n->cpus[n->nb_cpus++] = (uint16_t)cpu;
		for (other = 0; other <= max_node && other < OCTO_TOPO_MAX_NODES; other++)
			n->distance[other] = (uint8_t)numa_distance(node, other);
		t->nb_nodes++;
	}
	numa_free_cpumask(cpus);
	return t->nb_nodes > 0 ? 0 : -ENOENT;
}
