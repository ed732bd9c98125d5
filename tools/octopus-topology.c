/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * octopus-topology: what a NIC's DMA sees of this machine.
 *
 * Prints the NUMA nodes with their CPUs and distances, and every PCI
 * network function with the node it is attached to, grouped by the NIC it
 * belongs to (functions with one PCI device serial number are one NIC:
 * a multi-host / Socket Direct NIC shows one function per socket).  Reads
 * sysfs only, so it works without EAL and sees an emulated topology
 * (tools/octopus-numa-emu) as EAL would.
 */

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "octo_topology.h"

static void
print_nodes(const struct octo_topology *t)
{
	uint16_t i, j;

	printf("NUMA nodes: %u\n", t->nb_nodes);
	for (i = 0; i < t->nb_nodes; i++) {
		const struct octo_topo_node *n = &t->nodes[i];

		printf("  node%d: %u cpus:", n->id, n->nb_cpus);
		for (j = 0; j < n->nb_cpus; j++)
			printf(" %u", n->cpus[j]);
		printf("  distances:");
		for (j = 0; j < t->nb_nodes; j++)
			printf(" %u", n->distance[j]);
		printf("\n");
	}
}

static int
read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	if (f == NULL)
		return -1;
	if (fgets(buf, (int)len, f) == NULL) {
		fclose(f);
		return -1;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static void
print_nics(const char *root)
{
	char base[256], path[1024], cls[32], serial[64], vendor[16], device[16];
	struct dirent *e;
	unsigned int found = 0;
	DIR *d;

	snprintf(base, sizeof(base), "%s/bus/pci/devices", root);
	d = opendir(base);
	if (d == NULL) {
		printf("PCI network functions: none (no %s)\n", base);
		return;
	}
	printf("PCI network functions:\n");
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/class", base, e->d_name);
		if (read_line(path, cls, sizeof(cls)) != 0 ||
				strncmp(cls, "0x02", 4) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s/vendor", base, e->d_name);
		if (read_line(path, vendor, sizeof(vendor)) != 0)
			strcpy(vendor, "?");
		snprintf(path, sizeof(path), "%s/%s/device", base, e->d_name);
		if (read_line(path, device, sizeof(device)) != 0)
			strcpy(device, "?");
		/* the device serial number capability, when sysfs exposes it */
		snprintf(path, sizeof(path), "%s/%s/dsn", base, e->d_name);
		if (read_line(path, serial, sizeof(serial)) != 0)
			strcpy(serial, "-");
		printf("  %s %s:%s node %d serial %s\n", e->d_name, vendor, device,
			octo_topology_pci_node(root, e->d_name), serial);
		found++;
	}
	closedir(d);
	if (found == 0)
		printf("  none: use net_octonic (the NIC model) to try Octopus\n");
}

int
main(int argc, char **argv)
{
	const char *root = "/sys";
	struct octo_topology t;
	int ret;

	if (argc > 2 && strcmp(argv[1], "--sysfs") == 0)
		root = argv[2];
	else if (argc > 1) {
		fprintf(stderr, "usage: %s [--sysfs ROOT]\n", argv[0]);
		return 2;
	}
	ret = argc > 2 ? octo_topology_read(&t, root) : octo_topology_read_libnuma(&t);
	if (ret < 0) {
		fprintf(stderr, "cannot read the NUMA topology under %s: %s\n",
			root, strerror(-ret));
		return 1;
	}
	print_nodes(&t);
	print_nics(root);
	return 0;
}
