/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * The port's rte_flow ops: the ops tables (the synchronous rules are
 * octopus_flow.c's, templates and tables octopus_flow_tmpl.c's, the flow
 * queues' operations octopus_flow_queue.c's), and the ops of the template
 * API's state as a whole: info_get, configure, and its end at close or
 * when the proxy goes.
 *
 * Configure makes every member's flow queues (the proxy first) with the
 * application's flow queues plus one: like mlx5, which adds a queue of its
 * own at index nb_queue (mlx5_flow_hw.c, nb_q_updated = nb_queue + 1), the
 * port accepts operations on flow queue nb_queue, and applications written
 * for mlx5 use it (DPDK's flow_filtering example configures one queue and
 * inserts on queue 1).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_malloc.h>
#include <ethdev_driver.h>

#include "octopus_internal.h"
#include "octopus_flow.h"
#include "octopus_flow_tmpl_priv.h"

static void fp_ops_install(struct rte_eth_dev *dev);

/* ---- info and configure ------------------------------------------------ */

static int
tmpl_info_get(struct rte_eth_dev *dev, struct rte_flow_port_info *port_info,
		struct rte_flow_queue_info *queue_info, struct rte_flow_error *error)
{
	struct octopus_priv *p = octo_priv(dev);
	struct rte_flow_port_info pi;
	struct rte_flow_queue_info qi;
	struct octopus_member *m;
	uint16_t proxy, i;
	int ret;

	ret = octopus_flow_proxy_get(p, &proxy, error);
	if (ret != 0)
		return ret;
	ret = rte_flow_info_get(proxy, port_info, queue_info, error);
	if (ret != 0)
		return octopus_flow_member_error(error, ret, proxy);
	/* flow queues are made on every member alike: the least of them */
	OCTO_FOREACH_MEMBER_STATE(p, i, m, OCTO_MEMBER_OWNED) {
		if (m->port_id == proxy)
			continue;
		memset(&pi, 0, sizeof(pi));
		memset(&qi, 0, sizeof(qi));
		if (rte_flow_info_get(m->port_id, &pi, &qi, NULL) != 0)
			continue;
		port_info->max_nb_queues = RTE_MIN(port_info->max_nb_queues, pi.max_nb_queues);
		queue_info->max_size = RTE_MIN(queue_info->max_size, qi.max_size);
	}
	/* the extra queue at nb_queue (see top) is one of them */
	if (port_info->max_nb_queues > 0)
		port_info->max_nb_queues--;
	return 0;
}

static void
tmpl_state_free(struct octopus_tmpl *t)
{
	uint16_t i;

	if (t == NULL)
		return;
	if (t->q != NULL)
		for (i = 0; i < t->nb_hwq; i++) {
			rte_free(t->q[i].ops);
			rte_free(t->q[i].free);
			rte_free(t->q[i].stash);
		}
	rte_free(t->q);
	rte_free(t->qsize);
	rte_free(t);
}

static struct octopus_tmpl *
tmpl_state_alloc(uint16_t nb_queue, const struct rte_flow_queue_attr *queue_attr[])
{
	struct octopus_tmpl *t;
	uint16_t i;
	uint32_t k;

	t = rte_zmalloc("octopus_tmpl", sizeof(*t), 0);
	if (t == NULL)
		return NULL;
	TAILQ_INIT(&t->patterns);
	TAILQ_INIT(&t->actions);
	TAILQ_INIT(&t->tables);
	t->nb_queue = nb_queue;
	t->nb_hwq = nb_queue + 1;
	t->qsize = rte_calloc("octopus_tmpl_qsize", nb_queue, sizeof(*t->qsize), 0);
	t->q = rte_calloc("octopus_tmpl_queues", t->nb_hwq, sizeof(*t->q), RTE_CACHE_LINE_SIZE);
	if (t->q == NULL || t->qsize == NULL)
		goto fail;
	for (i = 0; i < t->nb_hwq; i++) {
		struct octopus_tmpl_queue *q = &t->q[i];

		q->id = i;
		/* the extra queue is the size of queue 0 */
		q->size = queue_attr[i < nb_queue ? i : 0]->size;
		if (i < nb_queue)
			t->qsize[i] = q->size;
		q->ops = rte_calloc("octopus_tmpl_ops", q->size, sizeof(*q->ops), 0);
		q->free = rte_calloc("octopus_tmpl_free", q->size, sizeof(*q->free), 0);
		q->stash = rte_calloc("octopus_tmpl_stash", q->size, sizeof(*q->stash), 0);
		if (q->ops == NULL || q->free == NULL || q->stash == NULL)
			goto fail;
		for (k = 0; k < q->size; k++)
			q->free[k] = q->size - 1 - k;
		q->nb_free = q->size;
	}
	return t;
fail:
	tmpl_state_free(t);
	return NULL;
}

/* Whether a second configure asks for what the first one made. */
static bool
same_config(const struct octopus_tmpl *t, const struct rte_flow_port_attr *port_attr,
		uint16_t nb_queue, const struct rte_flow_queue_attr *queue_attr[])
{
	uint16_t i;

	if (nb_queue != t->nb_queue ||
	    memcmp(port_attr, &t->port_attr, sizeof(*port_attr)) != 0)
		return false;
	for (i = 0; i < nb_queue; i++)
		if (queue_attr[i]->size != t->qsize[i])
			return false;
	return true;
}


static int
tmpl_configure(struct rte_eth_dev *dev, const struct rte_flow_port_attr *port_attr,
		uint16_t nb_queue, const struct rte_flow_queue_attr *queue_attr[],
		struct rte_flow_error *error)
{
	struct octopus_priv *p = octo_priv(dev);
	const struct rte_flow_queue_attr **hw_attr = NULL;
	struct octopus_flow_shape sh;
	struct octopus_member *m;
	struct octopus_tmpl *t;
	uint16_t proxy, i;
	int ret;

	if (p->started)
		return tmpl_error(error, EBUSY,
			"rte_flow_configure: stop the port first (its members' flow queues are made while they are stopped)");
	if (nb_queue == 0 || queue_attr == NULL)
		return tmpl_error(error, EINVAL, "rte_flow_configure: at least one flow queue");
	for (i = 0; i < nb_queue; i++)
		if (queue_attr[i] == NULL || queue_attr[i]->size == 0)
			return tmpl_error(error, EINVAL,
				"rte_flow_configure: a flow queue of size 0");
	flow_lock(dev);
	if (p->tmpl != NULL && !p->tmpl->proxy_gone) {
		/* mlx5 takes a second configure only when it changes nothing */
		ret = same_config(p->tmpl, port_attr, nb_queue, queue_attr) ? 0 :
			tmpl_error(error, EBUSY,
				"rte_flow_configure: the flow queues are configured already, with other settings (as mlx5, a port is configured once)");
		goto out;
	}
	ret = octopus_flow_proxy_get(p, &proxy, error);
	if (ret == 0 && octopus_flows_get(p) == NULL)
		ret = tmpl_error(error, ENOMEM, "no memory");
	if (ret == 0)
		ret = octopus_flow_shape_get(p, proxy, false, &sh, error);
	if (ret != 0)
		goto out;
	hw_attr = calloc((size_t)nb_queue + 1, sizeof(*hw_attr));
	t = tmpl_state_alloc(nb_queue, queue_attr);
	if (hw_attr == NULL || t == NULL) {
		tmpl_state_free(t);
		ret = tmpl_error(error, ENOMEM, "no memory for the flow queues");
		goto out;
	}
	for (i = 0; i < nb_queue; i++)
		hw_attr[i] = queue_attr[i];
	hw_attr[nb_queue] = queue_attr[0];
	/* the proxy first: it takes the rules */
	ret = rte_flow_configure(proxy, port_attr, nb_queue + 1, hw_attr, error);
	if (ret == 0)
		ret = octo_dpdk_flow_fp_resolve(proxy, &t->fp, error);
	if (ret != 0) {
		ret = octopus_flow_member_error(error, ret, proxy);
		tmpl_state_free(t);
		goto out;
	}
	OCTO_FOREACH_MEMBER_STATE(p, i, m, OCTO_MEMBER_CONFIGURED) {
		if (m->port_id == proxy)
			continue;
		ret = rte_flow_configure(m->port_id, port_attr, nb_queue + 1, hw_attr, error);
		if (ret != 0) {
			/* no API unconfigures the ones done: they stay configured */
			ret = octopus_flow_member_error(error, ret, m->port_id);
			tmpl_state_free(t);
			goto out;
		}
	}
	t->proxy = proxy;
	t->shape = sh;
	t->port_attr = *port_attr;
	/* configured stopped: rules wait in copies until start (Restart) */
	t->park = !octopus_members_keep_rules(p);
	tmpl_state_free(p->tmpl);	/* one whose proxy was released */
	p->tmpl = t;
	fp_ops_install(dev);
out:
	free(hw_attr);
	flow_unlock(dev);
	return ret;
}

/* ---- failover, close ---------------------------------------------------- */

void
octopus_tmpl_forget_proxy(struct octopus_priv *p, uint16_t port)
{
	struct octopus_tmpl *t = p->tmpl;

	if (t == NULL || t->proxy != port || t->proxy_gone)
		return;
	t->proxy_gone = 1;
	OCTO_LOG(WARNING, "port %u: the transfer proxy (port %u) was released: its templates, tables and template rules went with it",
		p->port_id, port);
}

void
octopus_tmpl_free(struct octopus_priv *p)
{
	struct octopus_tmpl *t = p->tmpl;
	struct octopus_tmpl_pattern *pt;
	struct octopus_tmpl_actions *at;
	struct octopus_tmpl_table *tb;

	if (t == NULL)
		return;
	/* the tables' rules go with them: the proxy's table destroy removes
	 * what is left (mlx5 and the model alike), else its close does
	 */
	while ((tb = TAILQ_FIRST(&t->tables)) != NULL) {
		TAILQ_REMOVE(&t->tables, tb, next);
		if (!t->proxy_gone)
			rte_flow_template_table_destroy(t->proxy, tb->hw, NULL);
		octopus_tmpl_recs_fini(&tb->recs);
		rte_free(tb->copies);
		rte_free(tb);
	}
	while ((at = TAILQ_FIRST(&t->actions)) != NULL) {
		TAILQ_REMOVE(&t->actions, at, next);
		if (!t->proxy_gone)
			rte_flow_actions_template_destroy(t->proxy, at->hw, NULL);
		rte_free(at);
	}
	while ((pt = TAILQ_FIRST(&t->patterns)) != NULL) {
		TAILQ_REMOVE(&t->patterns, pt, next);
		if (!t->proxy_gone)
			rte_flow_pattern_template_destroy(t->proxy, pt->hw, NULL);
		rte_free(pt);
	}
	tmpl_state_free(t);
	p->tmpl = NULL;
	OCTO_DPDK_FLOW_FP_OPS_UNINSTALL(&rte_eth_devices[p->port_id]);
}

/* ---- the ops tables ----------------------------------------------------- */

OCTO_DPDK_FLOW_FP_OPS_DEFINE(octopus_flow_fp_ops, octopus_tmpl_async_create,
	octopus_tmpl_async_destroy, octopus_tmpl_async_update, octopus_tmpl_push,
	octopus_tmpl_pull)

/* The fast-path ops where the DPDK has them apart (installed at configure, as mlx5 does). */
static void
fp_ops_install(struct rte_eth_dev *dev)
{
	OCTO_DPDK_FLOW_FP_OPS_INSTALL(dev, octopus_flow_fp_ops);
}

static const struct rte_flow_ops octopus_flow_ops = {
	.validate = octopus_flow_validate,
	.create = octopus_flow_create,
	.destroy = octopus_flow_destroy,
	.flush = octopus_flow_flush,
	.query = octopus_flow_query,
	.isolate = octopus_flow_isolate,
	.info_get = tmpl_info_get,
	.configure = tmpl_configure,
	.pattern_template_create = octopus_tmpl_pattern_create,
	.pattern_template_destroy = octopus_tmpl_pattern_destroy,
	.actions_template_create = octopus_tmpl_actions_create,
	.actions_template_destroy = octopus_tmpl_actions_destroy,
	.template_table_create = octopus_tmpl_table_create,
	.template_table_destroy = octopus_tmpl_table_destroy,
	OCTO_DPDK_FLOW_FP_OPS_IN_OPS(octopus_tmpl_async_create,
		octopus_tmpl_async_destroy, octopus_tmpl_async_update,
		octopus_tmpl_push, octopus_tmpl_pull)
};

/* The copies are freed at close (octopus_close calls octopus_flows_free). */
int
octopus_flow_ops_get(struct rte_eth_dev *dev, const struct rte_flow_ops **ops)
{
	RTE_SET_USED(dev);
	*ops = &octopus_flow_ops;
	return 0;
}
