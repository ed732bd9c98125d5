/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Fuzz target: net_octopus's devargs parser (octopus_args_parse, no EAL).
 * The input is the devargs string.  Beyond what ASan and UBSan catch, an
 * accepted string must leave the parsed names terminated and in range.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rte_log.h>

#include "octopus_internal.h"

/* the driver registers it; here logs go to the default type */
int octopus_logtype;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every refusal is logged: quiet, the target runs many times faster. */
int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	rte_log_set_global_level(RTE_LOG_CRIT);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct octopus_args a;
	char *s;
	uint16_t i;

	s = malloc(size + 1);
	if (s == NULL)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	memset(&a, 0xa5, sizeof(a));
	if (octopus_args_parse(&a, s) == 0) {
		if (a.nb_names > OCTOPUS_MAX_MEMBERS)
			abort();
		for (i = 0; i < a.nb_names; i++)
			if (memchr(a.names[i], '\0', sizeof(a.names[i])) == NULL)
				abort();
		if (memchr(a.nic, '\0', sizeof(a.nic)) == NULL)
			abort();
	}
	free(s);
	return 0;
}
