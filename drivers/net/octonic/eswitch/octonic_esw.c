/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/* E-switch lifetime, PF bookkeeping, and what spans the rules of
 * rte_flow_create and those of template tables: a flush, a port's stop.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>

#include "octonic_esw_internal.h"

static RTE_ATOMIC(uint32_t) sw_next_id;

struct octonic_eswitch *
octonic_eswitch_create(const char *name, uint16_t nb_pfs, int socket)
{
	struct octonic_eswitch *sw;
	size_t qsz;
	uint16_t i;

	if (nb_pfs == 0 || nb_pfs > SW_MAX_PFS) {
		rte_errno = EINVAL;
		return NULL;
	}
	sw = rte_zmalloc_socket("octonic_eswitch", sizeof(*sw), RTE_CACHE_LINE_SIZE,
		socket);
	if (sw == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	qsz = rte_rcu_qsbr_get_memsize(RTE_MAX_LCORE);
	sw->qsbr = rte_zmalloc_socket("octonic_eswitch_qsbr", qsz,
		RTE_CACHE_LINE_SIZE, socket);
	if (sw->qsbr == NULL || rte_rcu_qsbr_init(sw->qsbr, RTE_MAX_LCORE) != 0)
		goto fail;
	sw->nb_pfs = nb_pfs;
	sw->socket = socket;
	sw->id = rte_atomic_fetch_add_explicit(&sw_next_id, 1, rte_memory_order_relaxed);
	snprintf(sw->name, sizeof(sw->name), "%s", name != NULL ? name : "octonic");
	pthread_mutex_init(&sw->lock, NULL);
	TAILQ_INIT(&sw->rules);
	TAILQ_INIT(&sw->flushed);
	sw->gen = 1;
	sw->mlx5_dpdk = OCTO_DPDK_MLX5_MODEL;
	for (i = 0; i < nb_pfs; i++) {
		sw->pf[i].rss = rte_zmalloc_socket("octonic_pf_rss",
			sizeof(*sw->pf[i].rss), 0, socket);
		if (sw->pf[i].rss == NULL)
			goto fail;
		octonic_esw_rss_default_key(sw->pf[i].rss->key);
	}
	return sw;
fail:
	for (i = 0; i < nb_pfs; i++)
		rte_free(sw->pf[i].rss);
	rte_free(sw->qsbr);
	rte_free(sw);
	rte_errno = ENOMEM;
	return NULL;
}

void
octonic_eswitch_free(struct octonic_eswitch *sw)
{
	uint16_t i;

	if (sw == NULL)
		return;
	pthread_mutex_lock(&sw->lock);
	for (i = 0; i < sw->nb_pfs; i++)
		octonic_esw_fport_free(sw, i);
	octonic_esw_rules_free_all(sw);
	pthread_mutex_unlock(&sw->lock);
	for (i = 0; i < sw->nb_pfs; i++)
		rte_free(sw->pf[i].rss);
	pthread_mutex_destroy(&sw->lock);
	rte_free(sw->qsbr);
	rte_free(sw);
}

void
octonic_eswitch_set_pf_port(struct octonic_eswitch *sw, uint16_t pf,
		uint16_t port_id)
{
	if (sw == NULL || pf >= sw->nb_pfs)
		return;
	pthread_mutex_lock(&sw->lock);
	sw->pf[pf].port_id = port_id;
	sw->pf[pf].port_set = 1;
	pthread_mutex_unlock(&sw->lock);
}

void
octonic_eswitch_forget_pf_port(struct octonic_eswitch *sw, uint16_t pf)
{
	if (sw == NULL || pf >= sw->nb_pfs)
		return;
	pthread_mutex_lock(&sw->lock);
	/* Its template rules, tables, templates and flow queues go with it. */
	octonic_esw_fport_free(sw, pf);
	sw->pf[pf].port_set = 0;
	sw->flow_ctx[pf] = 0;
	pthread_mutex_unlock(&sw->lock);
}

int
octonic_eswitch_transfer_proxy(const struct octonic_eswitch *sw,
		uint16_t *port_id)
{
	if (sw == NULL || port_id == NULL || !sw->pf[0].port_set)
		return -ENODEV;
	*port_id = sw->pf[0].port_id;
	return 0;
}

int
octonic_eswitch_flow_flush(struct octonic_eswitch *sw, uint16_t pf,
		struct rte_flow_error *error)
{
	int ret;

	if (sw == NULL)
		return -ENODEV;
	if (pf >= sw->nb_pfs)
		return octonic_esw_no_pf(error, pf);
	pthread_mutex_lock(&sw->lock);
	/* mlx5's hardware steering flushes the template rules of the
	 * port's tables too (mlx5_flow_list_flush: flow_hw_q_flow_flush,
	 * after pulling every queue's completions for itself)
	 */
	if (sw->dialect == OCTONIC_DIALECT_MLX5_HWS)
		octonic_esw_fport_flush_rules(sw, pf);
	ret = octonic_esw_rules_flush_domain(sw, 1 + pf, 0);
	if (ret >= 0 && pf == 0)
		ret = octonic_esw_rules_flush_domain(sw, SW_DOM_TRANSFER, 0);
	pthread_mutex_unlock(&sw->lock);
	if (ret < 0)
		return octonic_esw_error(error, -ret, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"out of memory");
	return 0;
}

void
octonic_eswitch_port_stopped(struct octonic_eswitch *sw, uint16_t pf)
{
	int n, nt = 0;

	if (sw == NULL || pf >= sw->nb_pfs)
		return;
	pthread_mutex_lock(&sw->lock);
	octonic_esw_fport_flush_rules(sw, pf);
	n = octonic_esw_rules_flush_domain(sw, 1 + pf, 1);
	if (pf == 0)
		nt = octonic_esw_rules_flush_domain(sw, SW_DOM_TRANSFER, 1);
	pthread_mutex_unlock(&sw->lock);
	if (n < 0 || nt < 0)
		SW_LOG(ERR, "%s: PF %u: out of memory flushing its rules at stop: some stay",
			sw->name, pf);
	else
		SW_LOG(INFO, "%s: PF %u: %d flows flushed before stopping",
			sw->name, pf, n + nt);
}

void
octonic_eswitch_stats_get(const struct octonic_eswitch *sw,
		struct octonic_eswitch_stats *st)
{
	struct octonic_eswitch *w = (struct octonic_eswitch *)(uintptr_t)sw;

	memset(st, 0, sizeof(*st));
	if (sw == NULL)
		return;
	pthread_mutex_lock(&w->lock);
	*st = sw->stats;
	pthread_mutex_unlock(&w->lock);
}
