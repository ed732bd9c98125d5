/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Fuzz target: net_octonic's devargs parser (octonic_devargs_parse, no
 * EAL).  The input is the devargs string.  Beyond what ASan and UBSan
 * catch, a refusal must come with its one-line message (the API's word).
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "octonic_devargs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct octonic_devargs da;
	char err[256];
	char *s;

	s = malloc(size + 1);
	if (s == NULL)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	err[0] = '\0';
	if (octonic_devargs_parse(s, &da, err, sizeof(err)) != 0) {
		if (err[0] == '\0' || strchr(err, '\n') != NULL)
			abort();
	}
	free(s);
	return 0;
}
