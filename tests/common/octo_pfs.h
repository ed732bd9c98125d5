/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTO_PFS_H
#define OCTO_PFS_H

/*
 * How many PFs (one per socket) an EAL test runs at: $OCTO_PFS, 2 when
 * unset, set by meson together with octopus-numa-emu --nodes. What follows
 * from the count: the NIC model's devargs (pfs=N, PF k on socket k, and the
 * dialect of the run, OCTONIC_DIALECT: octo_dialect.h), the
 * port's member list, an lcore list with lcore k on emulated CPU k mod N
 * (socket k mod N), a socket other than a given one, and the serving member
 * nearest to a socket by the machine's SLIT (sysfs nodeX/distance, the
 * table the port reads through libnuma).
 */

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_lcore.h>

#include "octo_dialect.h"

#define OCTO_PFS_MAX 8

/* The PF count asked for, 2..OCTO_PFS_MAX; 0 (and why on stderr) if bad. */
static inline unsigned int
octo_pfs(void)
{
	const char *s = getenv("OCTO_PFS");
	char *end = NULL;
	unsigned long n;

	if (s == NULL || *s == '\0')
		return 2;
	n = strtoul(s, &end, 10);
	if (*end != '\0' || n < 2 || n > OCTO_PFS_MAX) {
		fprintf(stderr, "OCTO_PFS=%s: expected 2..%u\n", s, OCTO_PFS_MAX);
		return 0;
	}
	return (unsigned int)n;
}

/* Append printf-style to @p buf (of @p len) at *@p at; false once it is full. */
static inline bool
octo_pfs_cat(char *buf, size_t len, size_t *at, const char *fmt, unsigned int a)
{
	int w;

	if (*at >= len)
		return false;
	w = snprintf(buf + *at, len - *at, fmt, a);
	if (w < 0 || (size_t)w >= len - *at) {
		*at = len;
		return false;
	}
	*at += (size_t)w;
	return true;
}

/*
 * "pfs=N,numa=0:1:..:N-1" and the run's dialect devargs (",dialect=...",
 * none when OCTONIC_DIALECT is unset) into @p buf; 0, or -ENOSPC.
 */
static inline int
octo_pfs_nic_args(char *buf, size_t len, unsigned int n)
{
	size_t at = 0;
	unsigned int i;
	bool ok = octo_pfs_cat(buf, len, &at, "pfs=%u,numa=0", n);

	for (i = 1; i < n; i++)
		ok = ok && octo_pfs_cat(buf, len, &at, ":%u", i);
	if (ok && at + strlen(octo_dialect_suffix()) < len)
		strcat(buf, octo_dialect_suffix());
	else
		ok = false;
	return ok ? 0 : -ENOSPC;
}

/* "member=<nic>_pf0,...,member=<nic>_pf<N-1>" into @p buf; 0, or -ENOSPC. */
static inline int
octo_pfs_members(char *buf, size_t len, const char *nic, unsigned int n)
{
	size_t at = 0;
	unsigned int i;
	bool ok = true;
	int w;

	for (i = 0; i < n && ok; i++) {
		w = snprintf(buf + at, len - at, "%smember=%s_pf%u", i ? "," : "", nic, i);
		ok = w > 0 && (size_t)w < len - at;
		at += ok ? (size_t)w : 0;
	}
	return ok ? 0 : -ENOSPC;
}

/* "0@0,1@1,..,k@(k mod N)" for lcores 0..@p nb - 1; 0, or -ENOSPC. */
static inline int
octo_pfs_lcores(char *buf, size_t len, unsigned int nb, unsigned int n)
{
	size_t at = 0;
	unsigned int k;
	bool ok = octo_pfs_cat(buf, len, &at, "0@0", 0);

	for (k = 1; k < nb; k++)
		ok = ok && octo_pfs_cat(buf, len, &at, ",%u", k) &&
			octo_pfs_cat(buf, len, &at, "@%u", k % n);
	return ok ? 0 : -ENOSPC;
}

/* What EAL takes for a test over the N PFs of the NIC model net_octonic0. */
struct octo_pfs_eal {
	char lcores[64];	/* octo_pfs_lcores() */
	char nic[128];		/* pfs=N,numa=0:1:..:N-1[,<OCTONIC_DIALECT>] */
	char members[320];	/* member=net_octonic0_pf0,...,member=..._pf<N-1> */
};

/* Fill @p e for @p n PFs and @p nb_lcores lcores. 0, or -ENOSPC. */
static inline int
octo_pfs_eal_make(struct octo_pfs_eal *e, unsigned int n, unsigned int nb_lcores)
{
	if (octo_pfs_lcores(e->lcores, sizeof(e->lcores), nb_lcores, n) != 0 ||
	    octo_pfs_nic_args(e->nic, sizeof(e->nic), n) != 0 ||
	    octo_pfs_members(e->members, sizeof(e->members), "net_octonic0", n) != 0)
		return -ENOSPC;
	return 0;
}

/* The port ids of net_octonic0's @p n PFs into @p pf. 0, or -ENODEV. */
static inline int
octo_pfs_ports(uint16_t *pf, unsigned int n)
{
	char name[RTE_ETH_NAME_MAX_LEN];
	unsigned int i;

	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "net_octonic0_pf%u", i);
		if (rte_eth_dev_get_port_by_name(name, &pf[i]) != 0)
			return -ENODEV;
	}
	return 0;
}

/*
 * The socket queue @p q moves to from @p home in round @p round of a test
 * that moves queues back and forth: never @p home, each of the other
 * N - 1 in turn over the rounds (1 - home at 2 PFs).
 */
static inline unsigned int
octo_pfs_other(unsigned int home, unsigned int round, unsigned int n)
{
	return (home + 1 + round % (n - 1)) % n;
}

/* The machine's SLIT for nodes 0..@p n - 1, as sysfs has it. 0 or -errno. */
static inline int
octo_pfs_distances(unsigned int n, unsigned int dist[OCTO_PFS_MAX][OCTO_PFS_MAX])
{
	unsigned int a, b;
	char path[128];
	FILE *f;
	bool ok;

	for (a = 0; a < n; a++) {
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%u/distance", a);
		f = fopen(path, "r");
		if (f == NULL)
			return -errno;
		for (b = 0, ok = true; b < n && ok; b++)
			ok = fscanf(f, "%u", &dist[a][b]) == 1;
		fclose(f);
		if (!ok)
			return -EINVAL;
	}
	return 0;
}

/*
 * The member serving @p socket's queues when its own is out: of those
 * @p serving names, the nearest to @p socket by the SLIT, then the lowest
 * index (what the port picks). -1 if none serves or sysfs has no table.
 */
static inline int
octo_pfs_nearest(unsigned int n, unsigned int socket, const int *serving)
{
	unsigned int dist[OCTO_PFS_MAX][OCTO_PFS_MAX], j;
	int best = -1;

	if (n > OCTO_PFS_MAX || octo_pfs_distances(n, dist) != 0)
		return -1;
	for (j = 0; j < n; j++)
		if (serving[j] && (best < 0 || dist[socket][j] < dist[socket][best]))
			best = (int)j;
	return best;
}

/* Whether EAL sees the @p n sockets (octopus-numa-emu --nodes N); says why not. */
static inline bool
octo_pfs_sockets_ok(unsigned int n)
{
	if (rte_socket_count() >= n)
		return true;
	fprintf(stderr, "OCTO_PFS=%u needs %u sockets, EAL sees %u: run under octopus-numa-emu --nodes %u\n",
		n, n, rte_socket_count(), n);
	return false;
}

#endif /* OCTO_PFS_H */
