/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTO_EAL_H
#define OCTO_EAL_H

/*
 * The EAL command line of a test program, built up instead of written out
 * in each main(): the program, its memory, --no-pci, its lcores, a file
 * prefix of its own and its vdevs; then EAL started on two sockets and
 * the application's pool made.
 */

#include <stdarg.h>

#include <rte_common.h>
#include <rte_mempool.h>

#define OCTO_EAL_MAX_ARGS 32

struct octo_eal {
	char *argv[OCTO_EAL_MAX_ARGS + 1];
	int argc;
	unsigned int mb;	/* -m */
	int err;		/* an argument did not fit: octo_eal_start() fails */
	size_t used;
	char buf[4096];		/* the arguments' text */
};

/*
 * Begin @p a: "@p prog -m @p mb --no-pci --lcores @p lcores --file-prefix
 * <@p prefix_fmt ...>" (the prefix is made unique per process when EAL
 * starts: octo_eal_args()).
 */
void octo_eal_begin(struct octo_eal *a, const char *prog, unsigned int mb,
		const char *lcores, const char *prefix_fmt, ...)
	__rte_format_printf(5, 6);

/* Append "--vdev <@p fmt ...>". */
void octo_eal_vdev(struct octo_eal *a, const char *fmt, ...)
	__rte_format_printf(2, 3);

/* Append one argument as it is. */
void octo_eal_arg(struct octo_eal *a, const char *arg);

/*
 * Start EAL on @p a for a test that needs two sockets and @p nb_lcores
 * lcores. 0, or -1 with the reason on stderr.
 */
int octo_eal_start(struct octo_eal *a, unsigned int nb_lcores);

/*
 * EAL from the program's own command line (octo_test_eal_init): on
 * success *@p argc and *@p argv are moved past what EAL took, so that
 * (*@p argv)[1] is the program's first argument. 0, or -1 with
 * "EAL init failed" on stderr.
 */
int octo_eal_init_args(int *argc, char ***argv, unsigned int default_mb);

/* A pool of @p n mbufs of the default size, a cache of 256, on @p socket. */
struct rte_mempool *octo_app_pool(const char *name, unsigned int n, int socket);

#endif /* OCTO_EAL_H */
