/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * What the application prints when it stops: its own per-queue counters,
 * and, for a net_octopus port, where each virtual queue lives and how much
 * of its traffic went through the PF on the polling lcore's socket.  One
 * "key=value" line per item so that scripts can read it.
 */

#include <stdio.h>

#include <rte_pmd_octopus.h>

#include "octopus_fwd.h"

void
ofwd_report_queues(const struct ofwd_lcore *lc, unsigned int nb_lc)
{
	unsigned int i;
	uint16_t p;

	for (i = 0; i < nb_lc; i++) {
		for (p = 0; p < ofwd_conf.nb_ports; p++) {
			uint16_t port = ofwd_conf.ports[p];
			const struct ofwd_queue_stats *st = &lc[i].st[port];

			printf("queue port=%u queue=%u lcore=%u socket=%d rx=%" PRIu64
				" tx=%" PRIu64 " no_route=%" PRIu64 " ttl=%" PRIu64
				" bad=%" PRIu64 " tx_drop=%" PRIu64 "\n",
				port, lc[i].queue, lc[i].lcore_id, lc[i].socket,
				st->rx, st->tx, st->no_route, st->ttl, st->bad,
				st->tx_drop);
		}
	}
}

void
ofwd_report_members(uint16_t port)
{
	struct rte_pmd_octopus_member m[RTE_PMD_OCTOPUS_MAX_MEMBERS];
	int i, n;

	n = rte_pmd_octopus_members_get(port, m, RTE_DIM(m));
	if (n < 0)
		return;
	printf("port %u: net_octopus over %d members:", port, n);
	for (i = 0; i < RTE_MIN(n, (int)RTE_DIM(m)); i++)
		printf(" port %u (socket %d)", m[i].port_id, m[i].socket);
	printf("\n");
}

void
ofwd_report_locality(uint16_t port, uint16_t nb_queues)
{
	struct rte_pmd_octopus_queue_info qi;
	struct rte_pmd_octopus_locality loc;
	uint16_t q;
	int tx;

	if (rte_pmd_octopus_is_octopus(port) != 1)
		return;
	for (q = 0; q < nb_queues; q++) {
		for (tx = 0; tx <= 1; tx++) {
			if (rte_pmd_octopus_queue_info_get(port, q, tx, &qi) != 0 ||
					rte_pmd_octopus_locality_get(port, q, tx, &loc) != 0)
				continue;
			printf("locality port=%u queue=%u dir=%s home_socket=%d"
				" poller_lcore=%d poller_socket=%d steered=%u"
				" local=%" PRIu64 " remote=%" PRIu64 " polls=%" PRIu64
				" foreign_polls=%" PRIu64 "\n",
				port, q, tx ? "tx" : "rx",
				qi.has_home ? qi.home_socket : -1,
				qi.poller_lcore, qi.poller_socket, qi.steered,
				loc.local_pkts, loc.remote_pkts, loc.polls,
				loc.foreign_polls);
		}
	}
}
