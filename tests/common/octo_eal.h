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

#include "octo_pfs.h"

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

/*
 * Begin @p a for the case argv[1] ("" when none is given) of a test of
 * net_octopus0 over the two PFs of net_octonic0 (numa=0:1, wire=gen):
 * "-m 512" on @p lcores, the prefix "<@p name>-<case>", the NIC's devargs
 * ending in what @p nic_fmt makes, the port's in @p port_args ("": none).
 * The case.
 */
const char *octo_eal_begin_2pf(struct octo_eal *a, int argc, char **argv, const char *lcores,
		const char *name, const char *port_args, const char *nic_fmt, ...)
	__rte_format_printf(7, 8);

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

/*
 * What main() sets up for the cases of a test over the N PFs of
 * net_octonic0 (octo_pfs.h) run as "<prog> <case>".
 */
struct octo_pfs_main {
	const char *which;	/* the case: argv[1], "" when none is given */
	struct octo_pfs_eal e;	/* lcores, the NIC's devargs, the members at N */
	struct octo_eal a;	/* the EAL command line, begun on e's lcores */
	struct rte_mempool *mp;	/* the application's pool, the cases' */
};

/*
 * Begin @p m from the command line and $OCTO_PFS: N into *@p nb_pf, a
 * queue per PF, 4 at least, into *@p nb_q; N + @p extra lcores, *@p nb_q
 * at least (lcore k on socket k mod N); the EAL command line "-m 512" on
 * them with the prefix "<@p name>-<case>-<N>". 0, or -1 (OCTO_PFS bad,
 * the lcores too many).
 */
int octo_pfs_main_begin(struct octo_pfs_main *m, int argc, char **argv, unsigned int extra,
		const char *name, unsigned int *nb_pf, uint16_t *nb_q);

/*
 * Beyond 2 PFs, a pool "app<s>" on each socket s < @p nb_pf into
 * @p pool, for the queues homed there: a ring of @p nb_desc on every member
 * for each of them (a NIC that fills its rings at start, mlx5, takes them
 * all), their Tx rings and the lcores' caches. At 2 PFs none is made
 * (@p pool left as it is). 0, or -1 with the reason on stderr.
 */
int octo_pfs_socket_pools(struct rte_mempool *pool[], unsigned int nb_pf, unsigned int nb_q,
		unsigned int nb_desc);

#endif /* OCTO_EAL_H */
