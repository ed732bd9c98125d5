/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTO_TOPOLOGY_H
#define OCTO_TOPOLOGY_H

/**
 * @file
 * Machine topology as the NIC's DMA sees it: NUMA nodes, their CPUs, their
 * distances, and the node a PCI device hangs off.  Read from sysfs (with
 * libnuma for what it answers), without EAL, so that tools and unit tests
 * can use it and an emulated topology (tools/octopus-numa-emu) looks real.
 */

#include <stdint.h>

#define OCTO_TOPO_MAX_NODES 8
#define OCTO_TOPO_MAX_CPUS 1024

/** One NUMA node. */
struct octo_topo_node {
	int id;				/**< node number */
	uint16_t nb_cpus;		/**< CPUs on it */
	uint16_t cpus[OCTO_TOPO_MAX_CPUS]; /**< their numbers, ascending */
	uint8_t distance[OCTO_TOPO_MAX_NODES]; /**< SLIT row, 0 if unknown */
};

/** The whole machine. */
struct octo_topology {
	uint16_t nb_nodes;
	struct octo_topo_node nodes[OCTO_TOPO_MAX_NODES];
};

/**
 * Read the topology under @p sysfs_root: the node directories and their
 * cpuM entries, as EAL reads them (it tests nodeN/cpuM for existence).
 * A root other than "/sys" lets tests describe any machine.
 *
 * @return 0, or a negative errno when no node directory can be read.
 */
int octo_topology_read(struct octo_topology *t, const char *sysfs_root);

/**
 * Read the running system's topology through libnuma (nodes, their CPU
 * masks, distances).  Agrees with octo_topology_read(t, "/sys") on a sane
 * system, emulated or real; tools use it.
 *
 * @return 0, or -ENOSYS when libnuma reports NUMA unavailable.
 */
int octo_topology_read_libnuma(struct octo_topology *t);

/** Node of @p cpu, or -1 when no node lists it. */
int octo_topology_cpu_node(const struct octo_topology *t, unsigned int cpu);

/**
 * Node of the PCI device @p bdf ("0000:81:00.0") from its numa_node
 * attribute under @p sysfs_root.
 *
 * @return the node, -1 when the device reports none, -ENOENT when absent.
 */
int octo_topology_pci_node(const char *sysfs_root, const char *bdf);

#endif /* OCTO_TOPOLOGY_H */
