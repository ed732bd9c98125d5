/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/* The rule dump: one stable line per rule (format in octonic_eswitch.h),
 * which tests of every layer assert on.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "octonic_esw_internal.h"

static int
rule_cmp(const void *a, const void *b)
{
	const struct rte_flow *x = *(const struct rte_flow * const *)a;
	const struct rte_flow *y = *(const struct rte_flow * const *)b;

	if (x->domain != y->domain)
		return x->domain < y->domain ? -1 : 1;
	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	if (x->prio != y->prio)
		return x->prio < y->prio ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void
print_actions(const struct rte_flow *r, FILE *f)
{
	const char *sep = "";
	uint16_t i;

	if (r->has_set_meta) {
		fprintf(f, "%sset_meta(%u/0x%08x)", sep, r->meta_data, r->meta_mask);
		sep = ",";
	}
	if (r->has_mark) {
		fprintf(f, "%smark(%u)", sep, r->mark);
		sep = ",";
	}
	if (r->has_flag) {
		fprintf(f, "%sflag", sep);
		sep = ",";
	}
	if (r->has_count) {
		fprintf(f, "%scount", sep);
		sep = ",";
	}
	switch (r->fate) {
	case SW_FATE_DROP:
		fprintf(f, "%sdrop", sep);
		break;
	case SW_FATE_JUMP:
		fprintf(f, "%sjump(%u)", sep, r->jump_group);
		break;
	case SW_FATE_PORT:
		fprintf(f, "%srepresented_port(%u)", sep, r->port_id);
		break;
	case SW_FATE_QUEUE:
		fprintf(f, "%squeue(%u)", sep, r->fate_arg);
		break;
	case SW_FATE_RSS:
		fprintf(f, "%srss(queues=", sep);
		for (i = 0; i < r->rss->nb_queues; i++)
			fprintf(f, "%s%u", i != 0 ? ":" : "", r->rss->queues[i]);
		fprintf(f, ",types=0x%" PRIx64 "%s)", r->rss->types,
			r->rss->custom_key ? ",key=custom" : "");
		break;
	default:
		break;
	}
}

int
octonic_eswitch_dump(const struct octonic_eswitch *csw, FILE *f)
{
	struct octonic_eswitch *sw = (struct octonic_eswitch *)(uintptr_t)csw;
	struct rte_flow **rs, *r;
	char pat[512];
	uint32_t n = 0, i;

	if (sw == NULL || f == NULL)
		return -EINVAL;
	pthread_mutex_lock(&sw->lock);
	TAILQ_FOREACH(r, &sw->rules, next)
		n++;
	rs = malloc((n != 0 ? n : 1) * sizeof(*rs));
	if (rs == NULL) {
		pthread_mutex_unlock(&sw->lock);
		return -ENOMEM;
	}
	n = 0;
	TAILQ_FOREACH(r, &sw->rules, next)
		rs[n++] = r;
	qsort(rs, n, sizeof(*rs), rule_cmp);
	for (i = 0; i < n; i++) {
		r = rs[i];
		if (r->domain == SW_DOM_TRANSFER)
			fprintf(f, "transfer");
		else
			fprintf(f, "ingress pf=%u", r->domain - 1);
		octo_match_format(&r->match, pat, sizeof(pat));
		fprintf(f, " group=%u prio=%u pattern=", r->group, r->prio);
		/* a REPRESENTED_PORT item (mlx5-hws), as the port it named */
		if ((r->match.mask.layers & OCTO_L_IN_PORT) != 0) {
			uint16_t src = sw_src_of(&r->match.key);

			fprintf(f, "represented_port(%u)/", src == SW_SRC_WIRE ?
				sw->pf[0].port_id : src == SW_SRC_PF(0) ?
				SW_ESW_MANAGER_PORT : sw->pf[src - SW_SRC_PF(0)].port_id);
		}
		fprintf(f, "%s actions=", pat);
		print_actions(r, f);
		fputc('\n', f);
	}
	pthread_mutex_unlock(&sw->lock);
	free(rs);
	return 0;
}
