/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/* RSS: each PF's default (key, hash types, RETA) used when no ingress rule
 * decides, and the Toeplitz hash shared with RSS actions.  A PF's state is
 * replaced copy-on-write so the classifier reads it without locks.
 */

#include <errno.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_malloc.h>
#include <rte_thash.h>

#include "octonic_esw_internal.h"

/* The Toeplitz key most NICs and DPDK apps default to. */
static const uint8_t sw_default_key[OCTONIC_RSS_KEY_LEN] = {
	0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2,
	0x41, 0x67, 0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0,
	0xd0, 0xca, 0x2b, 0xcb, 0xae, 0x7b, 0x30, 0xb4,
	0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30, 0xf2, 0x0c,
	0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
};

#define SW_RSS_V4_L4 (RTE_ETH_RSS_NONFRAG_IPV4_TCP | RTE_ETH_RSS_NONFRAG_IPV4_UDP)
#define SW_RSS_V4_L3 (RTE_ETH_RSS_IPV4 | RTE_ETH_RSS_FRAG_IPV4 | \
	RTE_ETH_RSS_NONFRAG_IPV4_OTHER)
/* The _EX types (extension headers) count as their plain counterparts:
 * the parser already walks the extension headers.
 */
#define SW_RSS_V6_L3 (RTE_ETH_RSS_IPV6 | RTE_ETH_RSS_FRAG_IPV6 | \
	RTE_ETH_RSS_NONFRAG_IPV6_OTHER | RTE_ETH_RSS_IPV6_EX)
#define SW_RSS_V6_TCP (RTE_ETH_RSS_NONFRAG_IPV6_TCP | RTE_ETH_RSS_IPV6_TCP_EX)
#define SW_RSS_V6_UDP (RTE_ETH_RSS_NONFRAG_IPV6_UDP | RTE_ETH_RSS_IPV6_UDP_EX)

void
octonic_esw_rss_default_key(uint8_t key[OCTONIC_RSS_KEY_LEN])
{
	memcpy(key, sw_default_key, OCTONIC_RSS_KEY_LEN);
}

static void
load_v6(const uint8_t *a, uint32_t *w)
{
	int i;

	for (i = 0; i < 4; i++) {
		uint32_t x;

		memcpy(&x, a + 4 * i, 4);
		w[i] = rte_be_to_cpu_32(x);
	}
}

/* The 4-tuple when the packet's L4 type is in @p types, else the 2-tuple
 * when its L3 type is, else no hash (returns 0).
 */
int
octonic_esw_rss_hash(const struct octo_flow_key *k, uint64_t types, const uint8_t *key,
		uint32_t *hash)
{
	uint32_t t[RTE_THASH_V6_L4_LEN];
	uint32_t n;
	int l4;

	if ((k->layers & OCTO_L_IPV4) != 0) {
		l4 = ((k->layers & OCTO_L_TCP) != 0 &&
				(types & RTE_ETH_RSS_NONFRAG_IPV4_TCP) != 0) ||
			((k->layers & OCTO_L_UDP) != 0 &&
				(types & RTE_ETH_RSS_NONFRAG_IPV4_UDP) != 0);
		if (!l4 && (types & (SW_RSS_V4_L3 | SW_RSS_V4_L4)) == 0)
			return 0;
		memcpy(&t[0], k->ip_src, 4);
		memcpy(&t[1], k->ip_dst, 4);
		t[0] = rte_be_to_cpu_32(t[0]);
		t[1] = rte_be_to_cpu_32(t[1]);
		n = 2;
	} else if ((k->layers & OCTO_L_IPV6) != 0) {
		l4 = ((k->layers & OCTO_L_TCP) != 0 &&
				(types & SW_RSS_V6_TCP) != 0) ||
			((k->layers & OCTO_L_UDP) != 0 &&
				(types & SW_RSS_V6_UDP) != 0);
		if (!l4 && (types & (SW_RSS_V6_L3 | SW_RSS_V6_TCP |
				SW_RSS_V6_UDP)) == 0)
			return 0;
		load_v6(k->ip_src, &t[0]);
		load_v6(k->ip_dst, &t[4]);
		n = 8;
	} else {
		return 0;
	}
	if (l4)
		/* rte_thash tuple layout: sport in the high half-word. */
		t[n++] = (uint32_t)rte_be_to_cpu_16(k->src_port) << 16 |
			rte_be_to_cpu_16(k->dst_port);
	*hash = rte_softrss(t, n, key);
	return 1;
}

/* Publish a new RSS state for PF @p pf; the old one is freed after the
 * grace period.  Called with the lock held.
 */
static void
publish(struct octonic_eswitch *sw, uint16_t pf, struct sw_pf_rss *nrss)
{
	struct sw_pf_rss *old = sw->pf[pf].rss;

	rte_atomic_store_explicit(&sw->pf[pf].rss, nrss, rte_memory_order_release);
	rte_atomic_fetch_add_explicit(&sw->cfg_epoch, 1, rte_memory_order_release);
	octonic_esw_synchronize(sw);
	rte_free(old);
}

static struct sw_pf_rss *
clone_rss(struct octonic_eswitch *sw, uint16_t pf)
{
	struct sw_pf_rss *n = rte_malloc_socket("octonic_pf_rss", sizeof(*n), 0,
		sw->socket);

	if (n != NULL)
		*n = *sw->pf[pf].rss;
	return n;
}

/*
 * A PF's RSS hash functions and key (NULL: kept) changed; with @p nb_rxq
 * not negative, its new queue count, a default key when none is given,
 * the default table. Readers keep the copy they hold: a changed copy is
 * published.
 */
static int
rss_update(struct octonic_eswitch *sw, uint16_t pf, int nb_rxq, uint64_t hf,
		const uint8_t *key, uint8_t key_len)
{
	struct sw_pf_rss *n;
	int i;

	if (sw == NULL || pf >= sw->nb_pfs || (hf & ~OCTONIC_RSS_OFFLOAD_ALL) != 0 ||
			(key != NULL && key_len != OCTONIC_RSS_KEY_LEN))
		return -EINVAL;
	pthread_mutex_lock(&sw->lock);
	n = clone_rss(sw, pf);
	if (n == NULL) {
		pthread_mutex_unlock(&sw->lock);
		return -ENOMEM;
	}
	n->hf = hf;
	if (key != NULL)
		memcpy(n->key, key, OCTONIC_RSS_KEY_LEN);
	if (nb_rxq >= 0) {
		n->nb_rxq = (uint16_t)nb_rxq;
		if (key == NULL)
			octonic_esw_rss_default_key(n->key);
		for (i = 0; i < OCTONIC_RETA_SIZE; i++)
			n->reta[i] = nb_rxq != 0 ? (uint16_t)(i % nb_rxq) : 0;
	}
	publish(sw, pf, n);
	pthread_mutex_unlock(&sw->lock);
	return 0;
}

int
octonic_eswitch_pf_configure(struct octonic_eswitch *sw, uint16_t pf,
		uint16_t nb_rxq, uint64_t rss_hf, const uint8_t *key, uint8_t key_len)
{
	return rss_update(sw, pf, nb_rxq, rss_hf, key, key_len);
}

int
octonic_eswitch_reta_update(struct octonic_eswitch *sw, uint16_t pf,
		struct rte_eth_rss_reta_entry64 *conf, uint16_t size)
{
	struct sw_pf_rss *n;
	int i;

	if (sw == NULL || pf >= sw->nb_pfs || conf == NULL ||
			size != OCTONIC_RETA_SIZE)
		return -EINVAL;
	pthread_mutex_lock(&sw->lock);
	for (i = 0; i < size; i++) {
		const struct rte_eth_rss_reta_entry64 *e = &conf[i / RTE_ETH_RETA_GROUP_SIZE];
		int s = i % RTE_ETH_RETA_GROUP_SIZE;

		if ((e->mask >> s & 1) != 0 && e->reta[s] >= sw->pf[pf].rss->nb_rxq) {
			pthread_mutex_unlock(&sw->lock);
			return -EINVAL;
		}
	}
	n = clone_rss(sw, pf);
	if (n == NULL) {
		pthread_mutex_unlock(&sw->lock);
		return -ENOMEM;
	}
	for (i = 0; i < size; i++) {
		const struct rte_eth_rss_reta_entry64 *e = &conf[i / RTE_ETH_RETA_GROUP_SIZE];
		int s = i % RTE_ETH_RETA_GROUP_SIZE;

		if ((e->mask >> s & 1) != 0)
			n->reta[i] = e->reta[s];
	}
	publish(sw, pf, n);
	pthread_mutex_unlock(&sw->lock);
	return 0;
}

int
octonic_eswitch_reta_query(struct octonic_eswitch *sw, uint16_t pf,
		struct rte_eth_rss_reta_entry64 *conf, uint16_t size)
{
	int i;

	if (sw == NULL || pf >= sw->nb_pfs || conf == NULL ||
			size != OCTONIC_RETA_SIZE)
		return -EINVAL;
	pthread_mutex_lock(&sw->lock);
	for (i = 0; i < size; i++) {
		struct rte_eth_rss_reta_entry64 *e = &conf[i / RTE_ETH_RETA_GROUP_SIZE];
		int s = i % RTE_ETH_RETA_GROUP_SIZE;

		if ((e->mask >> s & 1) != 0)
			e->reta[s] = sw->pf[pf].rss->reta[i];
	}
	pthread_mutex_unlock(&sw->lock);
	return 0;
}

int
octonic_eswitch_rss_hash_update(struct octonic_eswitch *sw, uint16_t pf,
		struct rte_eth_rss_conf *conf)
{
	if (conf == NULL)
		return -EINVAL;
	return rss_update(sw, pf, -1, conf->rss_hf, conf->rss_key, conf->rss_key_len);
}

int
octonic_eswitch_rss_hash_conf_get(struct octonic_eswitch *sw, uint16_t pf,
		struct rte_eth_rss_conf *conf)
{
	if (sw == NULL || pf >= sw->nb_pfs || conf == NULL)
		return -EINVAL;
	pthread_mutex_lock(&sw->lock);
	conf->rss_hf = sw->pf[pf].rss->hf;
	if (conf->rss_key != NULL) {
		if (conf->rss_key_len < OCTONIC_RSS_KEY_LEN) {
			pthread_mutex_unlock(&sw->lock);
			return -EINVAL;
		}
		memcpy(conf->rss_key, sw->pf[pf].rss->key, OCTONIC_RSS_KEY_LEN);
	}
	conf->rss_key_len = OCTONIC_RSS_KEY_LEN;
	pthread_mutex_unlock(&sw->lock);
	return 0;
}
