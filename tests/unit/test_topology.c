/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Topology discovery: a sysfs tree written here describes a machine, the
 * reader must report exactly it; and on the live system (emulated or real)
 * the sysfs reader and libnuma must agree, since EAL reads the former and
 * the tools the latter.
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "octo_topology.h"

static char root[256];

static void
mkfile(const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void
mkdirs(const char *rel)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/%s'", root, rel);
	assert_int_equal(system(cmd), 0);
}

static int
setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "%s/octo-topo-XXXXXX",
		getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (mkdtemp(root) == NULL)
		return -1;
	/* two nodes, CPUs 0,2,4 on node 0 and 1,3 on node 1, listed out of order */
	mkdirs("devices/system/node/node0/cpu4");
	mkdirs("devices/system/node/node0/cpu0");
	mkdirs("devices/system/node/node0/cpu2");
	mkdirs("devices/system/node/node1/cpu3");
	mkdirs("devices/system/node/node1/cpu1");
	mkfile("devices/system/node/node0/cpulist", "0,2,4\n");
	mkfile("devices/system/node/node0/distance", "10 21\n");
	mkfile("devices/system/node/node1/distance", "21 10\n");
	mkdirs("devices/system/node/power");
	mkdirs("bus/pci/devices/0000:81:00.0");
	mkfile("bus/pci/devices/0000:81:00.0/numa_node", "1\n");
	mkdirs("bus/pci/devices/0000:02:00.0");
	mkfile("bus/pci/devices/0000:02:00.0/numa_node", "-1\n");
	return 0;
}

static int
teardown(void **state)
{
	char cmd[600];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

static void
test_reads_fake_tree(void **state)
{
	struct octo_topology t;

	(void)state;
	assert_int_equal(octo_topology_read(&t, root), 0);
	assert_int_equal(t.nb_nodes, 2);
	assert_int_equal(t.nodes[0].id, 0);
	assert_int_equal(t.nodes[0].nb_cpus, 3);
	assert_int_equal(t.nodes[0].cpus[0], 0);
	assert_int_equal(t.nodes[0].cpus[1], 2);
	assert_int_equal(t.nodes[0].cpus[2], 4);
	assert_int_equal(t.nodes[1].nb_cpus, 2);
	assert_int_equal(t.nodes[1].cpus[0], 1);
	assert_int_equal(t.nodes[0].distance[1], 21);
	assert_int_equal(t.nodes[1].distance[1], 10);
	assert_int_equal(octo_topology_cpu_node(&t, 3), 1);
	assert_int_equal(octo_topology_cpu_node(&t, 4), 0);
	assert_int_equal(octo_topology_cpu_node(&t, 7), -1);
}

static void
test_pci_node(void **state)
{
	(void)state;
	assert_int_equal(octo_topology_pci_node(root, "0000:81:00.0"), 1);
	assert_int_equal(octo_topology_pci_node(root, "0000:02:00.0"), -1);
	assert_true(octo_topology_pci_node(root, "0000:99:00.0") < 0);
}

static void
test_missing_tree(void **state)
{
	struct octo_topology t;
	char none[300];

	(void)state;
	snprintf(none, sizeof(none), "%s/nothing-here", root);
	assert_true(octo_topology_read(&t, none) < 0);
}

/* EAL's view (sysfs entries) and libnuma's must agree on this machine. */
static void
test_live_agrees_with_libnuma(void **state)
{
	struct octo_topology a, b;
	uint16_t i, j;
	const char *want = getenv("OCTO_TOPO_EXPECT_NODES");

	(void)state;
	assert_int_equal(octo_topology_read(&a, NULL), 0);
	assert_int_equal(octo_topology_read_libnuma(&b), 0);
	if (want != NULL)
		assert_int_equal(a.nb_nodes, atoi(want));
	assert_int_equal(a.nb_nodes, b.nb_nodes);
	for (i = 0; i < a.nb_nodes; i++) {
		assert_int_equal(a.nodes[i].id, b.nodes[i].id);
		assert_int_equal(a.nodes[i].nb_cpus, b.nodes[i].nb_cpus);
		for (j = 0; j < a.nodes[i].nb_cpus; j++)
			assert_int_equal(a.nodes[i].cpus[j], b.nodes[i].cpus[j]);
		for (j = 0; j < a.nb_nodes; j++)
			assert_int_equal(a.nodes[i].distance[j], b.nodes[i].distance[j]);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reads_fake_tree),
		cmocka_unit_test(test_pci_node),
		cmocka_unit_test(test_missing_tree),
		cmocka_unit_test(test_live_agrees_with_libnuma),
	};

	return cmocka_run_group_tests_name("topology", tests, setup, teardown);
}
