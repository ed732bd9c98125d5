/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * net_octopus devargs parser without EAL (cmocka): what each accepted form
 * sets, and that every malformed or inconsistent form is refused. The EAL
 * test (test_octopus_eal devargs) checks that refusals leave nothing behind.
 */

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <rte_log.h>

#include "octopus_internal.h"

/* the driver registers it; here logs go to the default type */
int octopus_logtype;

static void
test_defaults(void **state)
{
	struct octopus_args a;

	(void)state;
	assert_int_equal(octopus_args_parse(&a, "member=net_null0"), 0);
	assert_int_equal(a.nb_names, 1);
	assert_string_equal(a.names[0], "net_null0");
	assert_int_equal(a.socket_of[0], -1);
	assert_false(a.has_mac);
	assert_false(a.rx_pool_app);
	assert_false(a.force_domain);
	assert_int_equal(a.reta_size, OCTOPUS_RETA_DEFAULT);
	assert_int_equal(a.field, OCTO_STEER_FIELD_L4_SRC);
	assert_int_equal(a.catchall_queue, 0);
	assert_string_equal(a.nic, "");
}

static void
test_all_keys(void **state)
{
	struct octopus_args a;
	const struct rte_ether_addr mac = {{ 0x02, 0, 0, 0, 0, 0x2a }};

	(void)state;
	assert_int_equal(octopus_args_parse(&a,
		"member=0000:81:00.0,member=0000:c1:00.0,socket_of=0000:c1:00.0:1,"
		"socket_of=0000:81:00.0:0,mac=02:00:00:00:00:2a,rx_pool=app,force=1,"
		"reta_size=128,spread=ip_dst,catchall=3"), 0);
	assert_int_equal(a.nb_names, 2);
	assert_string_equal(a.names[0], "0000:81:00.0");
	assert_string_equal(a.names[1], "0000:c1:00.0");
	/* the node follows the LAST colon: PCI addresses contain colons */
	assert_int_equal(a.socket_of[0], 0);
	assert_int_equal(a.socket_of[1], 1);
	assert_true(a.has_mac);
	assert_memory_equal(&a.mac, &mac, sizeof(mac));
	assert_true(a.rx_pool_app);
	assert_true(a.force_domain);
	assert_int_equal(a.reta_size, 128);
	assert_int_equal(a.field, OCTO_STEER_FIELD_IP_DST);
	assert_int_equal(a.catchall_queue, 3);
}

static void
test_nic(void **state)
{
	struct octopus_args a;

	(void)state;
	assert_int_equal(octopus_args_parse(&a,
		"nic=net_octonic0_pf0,socket_of=net_octonic0_pf1:1"), 0);
	assert_string_equal(a.nic, "net_octonic0_pf0");
	/* socket_of kept by name for when nic= is expanded */
	assert_int_equal(a.nb_names, 1);
	assert_string_equal(a.names[0], "net_octonic0_pf1");
	assert_int_equal(a.socket_of[0], 1);
}

static void
test_spread_names(void **state)
{
	static const struct { const char *v; enum octo_steer_field f; } t[] = {
		{ "l4_src", OCTO_STEER_FIELD_L4_SRC }, { "l4_dst", OCTO_STEER_FIELD_L4_DST },
		{ "ip_src", OCTO_STEER_FIELD_IP_SRC }, { "ip_dst", OCTO_STEER_FIELD_IP_DST },
	};
	struct octopus_args a;
	char s[64];
	unsigned int i;

	(void)state;
	for (i = 0; i < RTE_DIM(t); i++) {
		snprintf(s, sizeof(s), "member=x,spread=%s", t[i].v);
		assert_int_equal(octopus_args_parse(&a, s), 0);
		assert_int_equal(a.field, t[i].f);
	}
}

static void
test_refused(void **state)
{
	static const char *const bad[] = {
		NULL, "", "member=", "member=a,member=a", "bogus=1", "member=a,bogus=1",
		"member=a,nic=b", "nic=a,nic=b", "member=a,socket_of=b:1",
		"member=a,socket_of=a", "member=a,socket_of=a:", "member=a,socket_of=a:-1",
		"member=a,socket_of=a:x", "member=a,socket_of=a:1,socket_of=a:0",
		"member=a,mac=zz", "member=a,mac=01:00:00:00:00:01",
		"member=a,mac=00:00:00:00:00:00", "member=a,rx_pool=remote",
		"member=a,rx_pool=local,rx_pool=app", "member=a,force=2", "member=a,force=",
		"member=a,reta_size=0", "member=a,reta_size=3", "member=a,reta_size=1024",
		"member=a,spread=toeplitz", "member=a,catchall=64", "member=a,catchall=-1",
		"member=a,member=b,member=c,member=d,member=e,member=f,member=g,member=h,member=i",
	};
	struct octopus_args a;
	unsigned int i;

	(void)state;
	for (i = 0; i < RTE_DIM(bad); i++) {
		if (octopus_args_parse(&a, bad[i]) == 0)
			fail_msg("accepted: \"%s\"", bad[i] ? bad[i] : "(null)");
	}
}

/*
 * Every key but member= and socket_of= given twice, each time with values
 * that are fine alone: refused, and the log names the key (one rule with
 * net_octonic, which refuses any repeated key).
 */
static void
test_repeated_keys(void **state)
{
	static const char *const twice[][3] = {
		{ "nic", "net_octonic0_pf0", "net_octonic0_pf0" },
		{ "mac", "02:00:00:00:00:2a", "02:00:00:00:00:2b" },
		{ "rx_pool", "local", "app" },
		{ "force", "1", "0" },
		{ "reta_size", "64", "128" },
		{ "spread", "l4_src", "ip_dst" },
		{ "catchall", "1", "2" },
		{ "migration", "auto", "manual" },
		{ "migrate_after", "100", "200" },
	};
	FILE *old = rte_log_get_stream();
	struct octopus_args a;
	char args[160], named[40];
	unsigned int i;

	(void)state;
	for (i = 0; i < RTE_DIM(twice); i++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *log = open_memstream(&buf, &len);
		int ret;

		assert_non_null(log);
		snprintf(args, sizeof(args), "%s%s=%s,%s=%s",
			strcmp(twice[i][0], "nic") == 0 ? "" : "member=a,",
			twice[i][0], twice[i][1], twice[i][0], twice[i][2]);
		/* each value alone is accepted */
		snprintf(named, sizeof(named), "%s%s=%s",
			strcmp(twice[i][0], "nic") == 0 ? "" : "member=a,",
			twice[i][0], twice[i][2]);
		assert_int_equal(octopus_args_parse(&a, named), 0);
		rte_openlog_stream(log);
		ret = octopus_args_parse(&a, args);
		fflush(log);
		rte_openlog_stream(old);
		fclose(log);
		snprintf(named, sizeof(named), "%s= given twice", twice[i][0]);
		if (ret == 0 || buf == NULL || strstr(buf, named) == NULL) {
			fail_msg("\"%s\": %d, log '%s'", args, ret, buf ? buf : "");
		}
		free(buf);
	}
	/* the keys that repeat by design, one per member */
	assert_int_equal(octopus_args_parse(&a,
		"member=a,member=b,socket_of=a:0,socket_of=b:1"), 0);
	assert_int_equal(a.nb_names, 2);
}

/* PCI member names, short and with mlx5's uplink suffix, made full. */
static void
test_pci_names(void **state)
{
	char out[RTE_ETH_NAME_MAX_LEN];

	(void)state;
	assert_int_equal(octopus_member_name_full("03:00.0", out, sizeof(out)), 0);
	assert_string_equal(out, "0000:03:00.0");
	assert_int_equal(octopus_member_name_full("03:00.0_p1", out, sizeof(out)), 0);
	assert_string_equal(out, "0000:03:00.0_p1");
	assert_int_equal(octopus_member_name_full("0000:81:00.1_p0", out, sizeof(out)), 0);
	assert_string_equal(out, "0000:81:00.1_p0");
	/* not PCI addresses: ethdev names as given */
	assert_int_equal(octopus_member_name_full("net_octonic0_p1", out, sizeof(out)), -EINVAL);
	assert_int_equal(octopus_member_name_full("03:00.0_pf1", out, sizeof(out)), -EINVAL);
	assert_int_equal(octopus_member_name_full("03:00.0_p", out, sizeof(out)), -EINVAL);
	assert_int_equal(octopus_member_name_full("_p1", out, sizeof(out)), -EINVAL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_all_keys),
		cmocka_unit_test(test_nic),
		cmocka_unit_test(test_spread_names),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_repeated_keys),
		cmocka_unit_test(test_pci_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
