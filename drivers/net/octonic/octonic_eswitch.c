/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/* E-switch lifetime, PF bookkeeping, the read-side protocol and the grace
 * period that lets the control path free what readers may still hold.
 */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_pause.h>

#include "octonic_eswitch_priv.h"

RTE_LOG_REGISTER(octonic_flow_logtype, pmd.net.octonic.flow, NOTICE);

static uint32_t sw_next_id;

/* Which anonymous epoch counter this thread incremented (-1: none).  A
 * thread is inside at most one e-switch's read section at a time. */
static __thread int sw_anon_slot = -1;

void
sw_error(struct rte_flow_error *error, int code, enum rte_flow_error_type type,
		const void *cause, const char *fmt, ...)
{
	/* rte_flow_error keeps a pointer to the message: give it storage that
	 * outlives the call, one buffer per thread. */
	static __thread char msg[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	SW_LOG(DEBUG, "refused: %s", msg);
	rte_flow_error_set(error, code, type, cause, msg);
}

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
	sw->id = __atomic_fetch_add(&sw_next_id, 1, __ATOMIC_RELAXED);
	snprintf(sw->name, sizeof(sw->name), "%s", name != NULL ? name : "octonic");
	pthread_mutex_init(&sw->lock, NULL);
	TAILQ_INIT(&sw->rules);
	sw->gen = 1;
	for (i = 0; i < nb_pfs; i++) {
		sw->pf[i].rss = rte_zmalloc_socket("octonic_pf_rss",
			sizeof(*sw->pf[i].rss), 0, socket);
		if (sw->pf[i].rss == NULL)
			goto fail;
		sw_rss_default_key(sw->pf[i].rss->key);
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
	sw_rules_free_all(sw);
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

int
octonic_eswitch_transfer_proxy(const struct octonic_eswitch *sw,
		uint16_t *port_id)
{
	if (sw == NULL || port_id == NULL || !sw->pf[0].port_set)
		return -ENODEV;
	*port_id = sw->pf[0].port_id;
	return 0;
}

void
octonic_eswitch_reader_enter(struct octonic_eswitch *sw)
{
	unsigned int lc = rte_lcore_id();

	if (lc < RTE_MAX_LCORE) {
		if (!sw->lcore_registered[lc]) {
			rte_rcu_qsbr_thread_register(sw->qsbr, lc);
			sw->lcore_registered[lc] = 1;
		}
		rte_rcu_qsbr_thread_online(sw->qsbr, lc);
		return;
	}
	/* No lcore id: count ourselves in the current epoch.  seq_cst so the
	 * increment is ordered before every load of the published state. */
	sw_anon_slot = (int)(__atomic_load_n(&sw->anon_epoch, __ATOMIC_SEQ_CST) & 1);
	__atomic_fetch_add(&sw->anon_cnt[sw_anon_slot], 1, __ATOMIC_SEQ_CST);
}

void
octonic_eswitch_reader_leave(struct octonic_eswitch *sw)
{
	unsigned int lc = rte_lcore_id();

	if (lc < RTE_MAX_LCORE) {
		rte_rcu_qsbr_thread_offline(sw->qsbr, lc);
		return;
	}
	if (sw_anon_slot >= 0) {
		__atomic_fetch_sub(&sw->anon_cnt[sw_anon_slot], 1, __ATOMIC_RELEASE);
		sw_anon_slot = -1;
	}
}

/* Wait until no reader can hold anything unpublished before this call.
 * Lcores: QSBR (offline lcores are not waited for).  Anonymous threads:
 * flip the epoch and drain the old counter, twice, so that a reader that
 * read the epoch just before a flip is drained by the other round. */
void
sw_synchronize(struct octonic_eswitch *sw)
{
	int round;

	rte_rcu_qsbr_synchronize(sw->qsbr, RTE_QSBR_THRID_INVALID);
	for (round = 0; round < 2; round++) {
		uint32_t old = __atomic_fetch_add(&sw->anon_epoch, 1,
			__ATOMIC_SEQ_CST) & 1;

		while (__atomic_load_n(&sw->anon_cnt[old], __ATOMIC_ACQUIRE) != 0)
			rte_pause();
	}
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
