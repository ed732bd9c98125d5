/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTO_DIALECT_H
#define OCTO_DIALECT_H

/*
 * The NIC model's dialect of a test run.  tests/octopus/meson.build and
 * tests/steering/meson.build run the steering, flow, migration and RETA
 * tests once per dialect, and every test that makes a net_octonic once
 * more under the strict model (octonic_strict, tests/meson.build), with
 * OCTONIC_DIALECT set to net_octonic devargs ("dialect=mlx5-hws,xmeta=4");
 * a test adds them to every net_octonic it makes (octo_pfs_nic_args() does
 * for the NIC it describes; test.sh's octo_dialect for the scripts).
 * Unset or empty: the model's own vocabulary (generic).
 */

#include <stdio.h>
#include <stdlib.h>

/* ",<devargs>" to append to a net_octonic's devargs, "" for generic. */
static inline const char *
octo_dialect_suffix(void)
{
	static char buf[128];
	const char *d = getenv("OCTONIC_DIALECT");

	if (d == NULL || d[0] == '\0')
		return "";
	snprintf(buf, sizeof(buf), ",%s", d);
	return buf;
}

#endif /* OCTO_DIALECT_H */
