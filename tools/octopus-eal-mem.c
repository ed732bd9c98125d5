/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * octopus-eal-mem [MB]: the EAL option that selects the memory of a run
 * asking for MB megabytes (default 512), for scripts:
 *   testpmd $(octopus-eal-mem 512) -m 512 ...
 * prints --huge-unlink (hugepages) or --no-huge on stdout, and on stderr
 * which memory and why (tools/octopus_eal_mem.h has the rule).
 */

#include <stdio.h>
#include <stdlib.h>

#include "octopus_eal_mem.h"

int
main(int argc, char **argv)
{
	struct octo_eal_mem m;
	unsigned int mb = argc > 1 ? (unsigned int)atoi(argv[1]) : 512;

	if (argc > 2 || mb == 0) {
		fprintf(stderr, "usage: %s [MB]\n", argv[0]);
		return 2;
	}
	octo_eal_mem_decide(mb, &m);
	fprintf(stderr, "memory: %s, -m %u (%s)\n",
		m.huge ? "hugepages" : "4K pages (--no-huge)", mb, m.why);
	printf("%s\n", m.opt);
	return 0;
}
