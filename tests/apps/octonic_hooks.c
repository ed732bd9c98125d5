/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * A test's hands on the NIC model inside an application it must not modify
 * (OVS): preloaded (LD_PRELOAD), this library adds telemetry commands that
 * call net_octonic's API,
 *   /octotest/unplug,<port>     rte_pmd_octonic_unplug: {"ret"}
 *   /octotest/plug,<port>       rte_pmd_octonic_plug: {"ret"}
 *   /octotest/gen,<port>,<0|1>  rte_pmd_octonic_gen_enable: pause or
 *                               resume the NIC's generator: {"ret"}
 *   /octotest/rules,<port>      rte_pmd_octonic_flow_stats_get: {"ret",
 *                               "creates", "destroys", "transfer_rules",
 *                               "ingress_rules"}
 *   /octotest/dump,<port>       rte_pmd_octonic_flow_dump into the file
 *                               $OCTOTEST_DUMP (replaced): {"ret"}
 * The NIC model is a plugin the application loaded with -d from
 * $OCTONIC_PLUGIN: its functions are looked up in that loaded library (no
 * second copy) when a command comes.  -ENOENT: the plugin is not loaded.
 */

#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <rte_common.h>
#include <rte_telemetry.h>
#include <octopus_dpdk_compat.h>

#include "rte_pmd_octonic.h"

/* The loaded plugin's @p fn, NULL when it is not there. */
static void *
plugin_fn(const char *fn)
{
	const char *path = getenv("OCTONIC_PLUGIN");
	void *lib = path != NULL ? dlopen(path, RTLD_NOW | RTLD_NOLOAD) : NULL;
	void *f;

	if (lib == NULL)
		return NULL;
	f = dlsym(lib, fn);
	dlclose(lib);	/* the application's own reference keeps it loaded */
	return f;
}

/* "<port>[,<n>]": the port, and n when @p n is given (it must be there). */
static int
parse(const char *params, uint16_t *port, long *n)
{
	unsigned long p;
	char *end;

	if (params == NULL || *params == '\0')
		return -EINVAL;
	p = strtoul(params, &end, 10);
	if (p > UINT16_MAX || (n == NULL && *end != '\0') ||
			(n != NULL && *end != ','))
		return -EINVAL;
	*port = (uint16_t)p;
	if (n != NULL) {
		*n = strtol(end + 1, &end, 10);
		if (*end != '\0')
			return -EINVAL;
	}
	return 0;
}

static void
answer(struct rte_tel_data *d, uint16_t port, int ret)
{
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_int(d, "port", port);
	rte_tel_data_add_dict_int(d, "ret", ret);
}

typedef int (*port_fn)(uint16_t port_id);

static int
call_port(const char *name, const char *params, struct rte_tel_data *d)
{
	port_fn f = (port_fn)(uintptr_t)plugin_fn(name);
	uint16_t port;

	if (parse(params, &port, NULL) != 0)
		return -EINVAL;
	answer(d, port, f != NULL ? f(port) : -ENOENT);
	return 0;
}

static int
tel_unplug(const char *cmd, const char *params, struct rte_tel_data *d)
{
	RTE_SET_USED(cmd);
	return call_port("rte_pmd_octonic_unplug", params, d);
}

static int
tel_plug(const char *cmd, const char *params, struct rte_tel_data *d)
{
	RTE_SET_USED(cmd);
	return call_port("rte_pmd_octonic_plug", params, d);
}

static int
tel_gen(const char *cmd, const char *params, struct rte_tel_data *d)
{
	int (*f)(uint16_t, int) = (int (*)(uint16_t, int))(uintptr_t)
		plugin_fn("rte_pmd_octonic_gen_enable");
	uint16_t port;
	long on;

	RTE_SET_USED(cmd);
	if (parse(params, &port, &on) != 0)
		return -EINVAL;
	answer(d, port, f != NULL ? f(port, on != 0) : -ENOENT);
	return 0;
}

static int
tel_rules(const char *cmd, const char *params, struct rte_tel_data *d)
{
	int (*f)(uint16_t, struct rte_pmd_octonic_flow_stats *) =
		(int (*)(uint16_t, struct rte_pmd_octonic_flow_stats *))(uintptr_t)
		plugin_fn("rte_pmd_octonic_flow_stats_get");
	struct rte_pmd_octonic_flow_stats st = { 0 };
	uint16_t port;
	int ret;

	RTE_SET_USED(cmd);
	if (parse(params, &port, NULL) != 0)
		return -EINVAL;
	ret = f != NULL ? f(port, &st) : -ENOENT;
	answer(d, port, ret);
	rte_tel_data_add_dict_uint(d, "creates", st.creates);
	rte_tel_data_add_dict_uint(d, "destroys", st.destroys);
	rte_tel_data_add_dict_uint(d, "transfer_rules", st.transfer_rules);
	rte_tel_data_add_dict_uint(d, "ingress_rules", st.ingress_rules);
	return 0;
}

static int
tel_dump(const char *cmd, const char *params, struct rte_tel_data *d)
{
	int (*f)(uint16_t, FILE *) = (int (*)(uint16_t, FILE *))(uintptr_t)
		plugin_fn("rte_pmd_octonic_flow_dump");
	const char *path = getenv("OCTOTEST_DUMP");
	uint16_t port;
	FILE *out;
	int ret;

	RTE_SET_USED(cmd);
	if (parse(params, &port, NULL) != 0)
		return -EINVAL;
	out = path != NULL ? fopen(path, "w") : NULL;
	if (out == NULL)
		ret = -errno;
	else if (f == NULL)
		ret = -ENOENT;
	else
		ret = f(port, out);
	if (out != NULL && fclose(out) != 0 && ret == 0)
		ret = -EIO;
	answer(d, port, ret);
	return 0;
}

RTE_INIT(octonic_hooks_init)
{
	rte_telemetry_register_cmd("/octotest/unplug", tel_unplug,
		"Unplug a net_octonic PF (test hook). Parameters: int port_id");
	rte_telemetry_register_cmd("/octotest/plug", tel_plug,
		"Plug a net_octonic PF back (test hook). Parameters: int port_id");
	rte_telemetry_register_cmd("/octotest/gen", tel_gen,
		"Pause (0) or resume (1) a net_octonic NIC's generator (test hook). Parameters: int port_id, int on");
	rte_telemetry_register_cmd("/octotest/rules", tel_rules,
		"Rule counters of a net_octonic e-switch (test hook). Parameters: int port_id");
	rte_telemetry_register_cmd("/octotest/dump", tel_dump,
		"Write a net_octonic e-switch's rules to $OCTOTEST_DUMP (test hook). Parameters: int port_id");
}
