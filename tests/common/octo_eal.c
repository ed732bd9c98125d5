/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#include <stdio.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#include "octo_eal.h"
#include "octo_test_eal.h"

/* Append a printf-formatted argument; a full buffer or argv sets err. */
static void
eal_vadd(struct octo_eal *a, const char *fmt, va_list ap)
{
	size_t room = sizeof(a->buf) - a->used;
	int n;

	if (a->err != 0 || a->argc >= OCTO_EAL_MAX_ARGS) {
		a->err = 1;
		return;
	}
	n = vsnprintf(a->buf + a->used, room, fmt, ap);
	if (n < 0 || (size_t)n >= room) {
		a->err = 1;
		return;
	}
	a->argv[a->argc++] = a->buf + a->used;
	a->argv[a->argc] = NULL;
	a->used += (size_t)n + 1;
}

static void
eal_add(struct octo_eal *a, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	eal_vadd(a, fmt, ap);
	va_end(ap);
}

void
octo_eal_arg(struct octo_eal *a, const char *arg)
{
	eal_add(a, "%s", arg);
}

void
octo_eal_begin(struct octo_eal *a, const char *prog, unsigned int mb,
		const char *lcores, const char *prefix_fmt, ...)
{
	va_list ap;

	a->argc = 0;
	a->err = 0;
	a->used = 0;
	a->mb = mb;
	eal_add(a, "%s", prog);
	eal_add(a, "-m");
	eal_add(a, "%u", mb);
	eal_add(a, "--no-pci");
	eal_add(a, "--lcores");
	eal_add(a, "%s", lcores);
	eal_add(a, "--file-prefix");
	va_start(ap, prefix_fmt);
	eal_vadd(a, prefix_fmt, ap);
	va_end(ap);
}

void
octo_eal_vdev(struct octo_eal *a, const char *fmt, ...)
{
	va_list ap;

	eal_add(a, "--vdev");
	va_start(ap, fmt);
	eal_vadd(a, fmt, ap);
	va_end(ap);
}

const char *
octo_eal_begin_2pf(struct octo_eal *a, int argc, char **argv, const char *lcores,
		const char *name, const char *port_args, const char *nic_fmt, ...)
{
	const char *which = argc > 1 ? argv[1] : "";
	char nic[256];
	va_list ap;
	int n;

	octo_eal_begin(a, argv[0], 512, lcores, "%s-%s", name, which);
	va_start(ap, nic_fmt);
	n = vsnprintf(nic, sizeof(nic), nic_fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(nic))
		a->err = 1;
	octo_eal_vdev(a, "net_octonic0,pfs=2,numa=0:1,wire=gen%s", nic);
	octo_eal_vdev(a, "net_octopus0,member=net_octonic0_pf0,member=net_octonic0_pf1%s",
		port_args);
	return which;
}

int
octo_eal_start(struct octo_eal *a, unsigned int nb_lcores)
{
	char **argv = a->argv;
	int argc = a->argc;

	if (a->err != 0) {
		fprintf(stderr, "EAL arguments: more than fit\n");
		return -1;
	}
	if (octo_test_eal_init(&argc, &argv, a->mb) < 0) {
		fprintf(stderr, "EAL init failed\n");
		return -1;
	}
	if (rte_socket_count() < 2 || rte_lcore_count() < nb_lcores) {
		fprintf(stderr, "needs 2 sockets and %u lcores (run under octopus-numa-emu)\n",
			nb_lcores);
		return -1;
	}
	return 0;
}

int
octo_eal_init_args(int *argc, char ***argv, unsigned int default_mb)
{
	int ret = octo_test_eal_init(argc, argv, default_mb);

	if (ret < 0) {
		fprintf(stderr, "EAL init failed\n");
		return -1;
	}
	*argc -= ret;
	*argv += ret;
	return 0;
}

struct rte_mempool *
octo_app_pool(const char *name, unsigned int n, int socket)
{
	return rte_pktmbuf_pool_create(name, n, 256, 0, RTE_MBUF_DEFAULT_BUF_SIZE, socket);
}

int
octo_pfs_main_begin(struct octo_pfs_main *m, int argc, char **argv, unsigned int extra,
		const char *name, unsigned int *nb_pf, uint16_t *nb_q)
{
	unsigned int n = octo_pfs();

	m->which = argc > 1 ? argv[1] : "";
	m->mp = NULL;
	if (n == 0)
		return -1;
	*nb_pf = n;
	*nb_q = (uint16_t)RTE_MAX(4u, n);
	if (octo_pfs_eal_make(&m->e, n, RTE_MAX((unsigned int)*nb_q, n + extra)) != 0)
		return -1;
	octo_eal_begin(&m->a, argv[0], 512, m->e.lcores, "%s-%s-%u", name, m->which, n);
	return 0;
}

int
octo_pfs_socket_pools(struct rte_mempool *pool[], unsigned int nb_pf, unsigned int nb_q,
		unsigned int nb_desc)
{
	unsigned int s, homed = (nb_q + nb_pf - 1) / nb_pf;
	char name[RTE_MEMPOOL_NAMESIZE];

	for (s = 0; s < nb_pf && nb_pf > 2; s++) {
		snprintf(name, sizeof(name), "app%u", s);
		pool[s] = octo_app_pool(name, (nb_pf + 1) * nb_desc * homed + 4096, (int)s);
		if (pool[s] == NULL) {
			fprintf(stderr, "pool on socket %u: %s\n", s, rte_strerror(rte_errno));
			return -1;
		}
	}
	return 0;
}
