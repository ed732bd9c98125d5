/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * rx_pool=local: per socket, an mbuf pool that mirrors the app's pool and
 * lives on that socket, so a member's Rx DMA always writes socket-local
 * memory. What a local pool copies of the app's, and why a copy of one of
 * its objects, is octopus.rst's (Rx pools).
 */

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_lcore.h>
#include <rte_mbuf.h>

#include "octopus_internal.h"

/* One app object as the app left it, and the bounds of that object. */
struct pool_template {
	uintptr_t lo, hi;	/**< the app element: [mbuf, mbuf + elt_size] */
	size_t len;		/**< mbuf header + mbuf private area */
	uintptr_t words[];	/**< their copy (len: a multiple of RTE_MBUF_PRIV_ALIGN) */
};

/*
 * A copy of a free object of @p app_mp, taken from the pool (so that no
 * mbuf the app holds is read while it writes it) and put back at once.
 * @return the template (free()), or NULL (rte_errno set).
 */
static struct pool_template *
template_take(struct rte_mempool *app_mp)
{
	size_t len = sizeof(struct rte_mbuf) + rte_pktmbuf_priv_size(app_mp);
	struct pool_template *t;
	uintptr_t buf;
	void *obj;

	if (rte_mempool_get(app_mp, &obj) != 0) {
		rte_errno = ENOBUFS;
		return NULL;
	}
	t = malloc(sizeof(*t) + len);
	if (t != NULL) {
		t->lo = (uintptr_t)obj;
		t->hi = (uintptr_t)obj + app_mp->elt_size;
		t->len = len;
		memcpy(t->words, obj, len);
	}
	rte_mempool_put(app_mp, obj);
	if (t == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	/* a data buffer elsewhere (pinned external buffers, an app attaching
	 * its own) cannot be reproduced in memory of another socket
	 */
	/* read as bytes: the copy lacks the mbuf's 64-byte alignment */
	memcpy(&buf, (const uint8_t *)t->words + offsetof(struct rte_mbuf, buf_addr),
		sizeof(buf));
	if (buf < t->lo || buf >= t->hi) {
		free(t);
		rte_errno = ENOTSUP;
		return NULL;
	}
	return t;
}

/* rte_mempool_obj_iter callback: object @p obj of local pool @p mp. */
static void
mirror_obj(struct rte_mempool *mp, void *arg, void *obj, unsigned int idx)
{
	const struct pool_template *t = arg;
	uintptr_t base = (uintptr_t)obj;
	struct rte_mbuf *m = obj;
	uintptr_t *w = obj;
	size_t i;

	RTE_SET_USED(idx);
	memcpy(obj, t->words, t->len);
	/* self-references (buf_addr, an app's pointers into its private
	 * area or buffer) follow the object
	 */
	for (i = 0; i < t->len / sizeof(*w); i++)
		if (w[i] >= t->lo && w[i] <= t->hi)
			w[i] = w[i] - t->lo + base;
	m->pool = mp;
	rte_mbuf_iova_set(m, rte_mempool_virt2iova(m) +
		((uintptr_t)m->buf_addr - base));
	/* what every free mbuf of a pool is */
	m->next = NULL;
	m->nb_segs = 1;
	rte_mbuf_refcnt_set(m, 1);
}

/* Pool @p name of @p n objects on @p socket, mirroring @p app_mp. */
static struct rte_mempool *
mirror_create(const char *name, struct rte_mempool *app_mp, uint32_t n, int socket)
{
	const struct rte_mempool_ops *ops = rte_mempool_get_ops(app_mp->ops_index);
	unsigned int cache = RTE_MIN(app_mp->cache_size, n / 8);
	struct pool_template *t;
	struct rte_mempool *mp;
	int ret;

	t = template_take(app_mp);
	if (t == NULL)
		return NULL;
	mp = rte_mempool_create_empty(name, n, app_mp->elt_size, cache,
		app_mp->private_data_size, socket,
		app_mp->flags & RTE_MEMPOOL_VALID_USER_FLAGS);
	if (mp == NULL)
		goto fail;
	ret = rte_mempool_set_ops_byname(mp, ops->name, app_mp->pool_config);
	if (ret != 0)
		goto fail_errno;
	/* rte_pktmbuf_pool_private and whatever the app keeps after it */
	memcpy(rte_mempool_get_priv(mp), rte_mempool_get_priv(app_mp),
		app_mp->private_data_size);
	ret = rte_mempool_populate_default(mp);
	if (ret < 0)
		goto fail_errno;
	rte_mempool_obj_iter(mp, mirror_obj, t);
	free(t);
	return mp;
fail_errno:
	rte_errno = -ret;
fail:
	ret = rte_errno;
	rte_mempool_free(mp);
	free(t);
	rte_errno = ret;
	return NULL;
}

static unsigned int pool_seq;

/*
 * Pool for Rx on @p socket mirroring @p app_mp, holding at least
 * @p nb_mbufs. Reuses a pool made earlier from the same app pool.
 * @return the pool, or NULL (rte_errno set).
 */
struct rte_mempool *
octopus_pool_get(struct octopus_priv *p, int socket, struct rte_mempool *app_mp,
		uint32_t nb_mbufs)
{
	char name[RTE_MEMPOOL_NAMESIZE];
	struct octopus_pool *op;
	struct rte_mempool *mp;
	uint16_t i;

	for (i = 0; i < p->nb_pools; i++) {
		op = &p->pools[i];
		/* the name too: an app pool freed and made again may get the
		 * same address
		 */
		/* nor more than twice the size: after a reconfigure to fewer
		 * queues a right-sized pool is made, and the sweep frees the
		 * big one once no queue uses it and its mbufs are back
		 */
		if (op->socket == socket && op->app == app_mp &&
				strcmp(op->app_name, app_mp->name) == 0 &&
				op->mp->size >= nb_mbufs &&
				op->mp->size / 2 <= nb_mbufs)
			return op->mp;
	}
	if (p->nb_pools >= RTE_DIM(p->pools)) {
		rte_errno = ENOSPC;
		return NULL;
	}
	/* a process-wide sequence: pools freed by the sweep leave gaps */
	snprintf(name, sizeof(name), "octo%u_s%d_%u", p->port_id, socket,
		rte_atomic_fetch_add_explicit(&pool_seq, 1, rte_memory_order_relaxed));
	mp = mirror_create(name, app_mp, nb_mbufs, octopus_alloc_socket(socket));
	if (mp == NULL) {
		OCTO_LOG(ERR, "port %u: cannot create Rx pool %s (%u mbufs) on socket %d mirroring %s: %s%s",
			p->port_id, name, nb_mbufs, socket, app_mp->name,
			rte_strerror(rte_errno),
			rte_errno == ENOTSUP ?
			" (its mbufs' buffers are outside the pool: use rx_pool=app)" : "");
		return NULL;
	}
	OCTO_LOG(INFO, "port %u: Rx pool %s: %u mbufs of %u bytes on socket %d, mirroring %s (ops %s)",
		p->port_id, name, nb_mbufs, rte_pktmbuf_data_room_size(mp), socket,
		app_mp->name, rte_mempool_get_ops(mp->ops_index)->name);
	op = &p->pools[p->nb_pools++];
	op->mp = mp;
	op->socket = socket;
	op->app = app_mp;
	snprintf(op->app_name, sizeof(op->app_name), "%s", app_mp->name);
	return mp;
}

static bool
pool_in_use(const struct octopus_priv *p, const struct rte_mempool *mp)
{
	uint16_t q, m;

	for (q = 0; q < OCTOPUS_MAX_QUEUES; q++)
		for (m = 0; p->rxq[q] != NULL && m < OCTOPUS_MAX_MEMBERS; m++)
			if (p->rxq[q]->mp[m] == mp)
				return true;
	return false;
}

/*
 * Free the local pools no Rx queue uses any more (the app set its queues
 * up again with another pool, e.g. after an MTU change) once the app has
 * given all their mbufs back. Called after a queue setup, when every
 * member's queue uses the pools recorded in p->rxq.
 */
void
octopus_pools_sweep(struct octopus_priv *p)
{
	uint16_t i = 0;

	while (i < p->nb_pools) {
		if (pool_in_use(p, p->pools[i].mp) || !rte_mempool_full(p->pools[i].mp)) {
			i++;
			continue;
		}
		OCTO_LOG(INFO, "port %u: Rx pool %s unused: freed", p->port_id,
			p->pools[i].mp->name);
		rte_mempool_free(p->pools[i].mp);
		p->pools[i] = p->pools[--p->nb_pools];
	}
}

/* Free the pools made since there were @p nb_pools (none of them used). */
void
octopus_pools_free_from(struct octopus_priv *p, uint16_t nb_pools)
{
	while (p->nb_pools > nb_pools) {
		p->nb_pools--;
		OCTO_LOG(INFO, "port %u: Rx pool %s freed (the queue setup failed)",
			p->port_id, p->pools[p->nb_pools].mp->name);
		rte_mempool_free(p->pools[p->nb_pools].mp);
	}
}

/* Free every local pool; the members' queues must be released before. */
void
octopus_pools_free(struct octopus_priv *p)
{
	uint16_t i;

	for (i = 0; i < p->nb_pools; i++)
		rte_mempool_free(p->pools[i].mp);
	p->nb_pools = 0;
}
