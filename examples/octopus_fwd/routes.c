/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/* Routes: "A.B.C.D/LEN=PORT" strings and the per-socket LPM tables. */

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_lpm.h>

#include "octopus_fwd.h"

int
ofwd_route_parse(const char *arg, struct ofwd_route *r)
{
	char buf[64];
	char *slash, *eq, *end;
	struct in_addr a;
	unsigned long depth, port;

	if (strlen(arg) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, arg);
	slash = strchr(buf, '/');
	eq = strchr(buf, '=');
	if (slash == NULL || eq == NULL || eq < slash)
		return -EINVAL;
	*slash = '\0';
	*eq = '\0';
	if (inet_pton(AF_INET, buf, &a) != 1)
		return -EINVAL;
	errno = 0;
	depth = strtoul(slash + 1, &end, 10);
	if (errno != 0 || *end != '\0' || end == slash + 1 || depth < 1 || depth > 32)
		return -EINVAL;
	port = strtoul(eq + 1, &end, 10);
	if (errno != 0 || *end != '\0' || end == eq + 1 || port >= RTE_MAX_ETHPORTS)
		return -EINVAL;
	r->ip = rte_be_to_cpu_32(a.s_addr);
	r->depth = (uint8_t)depth;
	r->port = (uint16_t)port;
	return 0;
}

/*
 * One table per socket with forwarding lcores, made on that socket, so a
 * lookup never reads the other socket's memory (the point of the port's
 * per-socket queues would be lost on the table otherwise).
 */
struct rte_lpm *
ofwd_lpm_build(int socket)
{
	struct rte_lpm_config cfg = {
		.max_rules = OFWD_MAX_ROUTES,
		.number_tbl8s = 256,
	};
	char name[RTE_LPM_NAMESIZE];
	struct rte_lpm *lpm;
	unsigned int i;

	snprintf(name, sizeof(name), "ofwd_lpm_s%d", socket);
	lpm = rte_lpm_create(name, socket, &cfg);
	if (lpm == NULL)
		return NULL;
	for (i = 0; i < ofwd_conf.nb_routes; i++) {
		const struct ofwd_route *r = &ofwd_conf.routes[i];

		if (rte_lpm_add(lpm, r->ip, r->depth, r->port) < 0) {
			rte_lpm_free(lpm);
			return NULL;
		}
	}
	return lpm;
}
