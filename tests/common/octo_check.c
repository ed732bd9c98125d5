/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#include "octo_check.h"

int octo_failures;

int
octo_check_verdict(const char *what)
{
	fprintf(stderr, "%s: %s (%d failure(s))\n", what, octo_failures ? "FAILED" : "ok",
		octo_failures);
	return octo_failures ? 1 : 0;
}
