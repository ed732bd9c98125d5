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
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
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

/* What each forwarding loop cost: wall TSC cycles and the CPU time it had. */
void
ofwd_report_lcores(const struct ofwd_lcore *lc, unsigned int nb_lc)
{
	unsigned int i;

	for (i = 0; i < nb_lc; i++)
		printf("lcore lcore=%u socket=%d loop_cycles=%" PRIu64
			" cpu_ns=%" PRIu64 " tsc_hz=%" PRIu64 "\n",
			lc[i].lcore_id, lc[i].socket, lc[i].loop_cycles,
			lc[i].cpu_ns, rte_get_tsc_hz());
}

/* Whether @p name contains one of the comma-separated texts of @p match. */
static int
name_matches(const char *name, const char *match)
{
	const char *p = match, *end;
	char part[RTE_ETH_XSTATS_NAME_SIZE];
	size_t len;

	for (;;) {
		end = strchr(p, ',');
		len = end != NULL ? (size_t)(end - p) : strlen(p);
		if (len > 0 && len < sizeof(part)) {
			memcpy(part, p, len);
			part[len] = '\0';
			if (strstr(name, part) != NULL)
				return 1;
		}
		if (end == NULL)
			return 0;
		p = end + 1;
	}
}

/* The xstats of every port, owned ones too, whose names contain one of the
 * comma-separated texts of @p match.
 */
void
ofwd_report_xstats(const char *match)
{
	struct rte_eth_xstat_name *names;
	struct rte_eth_xstat *xs;
	uint16_t port;
	int n, i;

	for (port = rte_eth_find_next(0); port < RTE_MAX_ETHPORTS;
	     port = rte_eth_find_next(port + 1)) {
		n = rte_eth_xstats_get_names(port, NULL, 0);
		if (n <= 0)
			continue;
		names = calloc(n, sizeof(*names));
		xs = calloc(n, sizeof(*xs));
		if (names != NULL && xs != NULL &&
				rte_eth_xstats_get_names(port, names, n) == n &&
				rte_eth_xstats_get(port, xs, n) == n)
			for (i = 0; i < n; i++)
				if (name_matches(names[xs[i].id].name, match))
					printf("xstat port=%u name=%s value=%" PRIu64
						"\n", port, names[xs[i].id].name,
						xs[i].value);
		free(names);
		free(xs);
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
