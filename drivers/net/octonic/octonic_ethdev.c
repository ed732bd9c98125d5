/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * net_octonic's control path: the vdev driver that turns one
 * "--vdev net_octonicN,pfs=K,..." into K ethdev ports, one per PF, and the
 * eth_dev_ops of a PF.
 *
 * Naming and devices follow topology= (octonic.rst "Topologies"): under
 * octonic and mpesw every PF shares the vdev as its rte_device, so that
 * RTE_ETH_FOREACH_DEV_OF() lists a NIC's PFs and removing the vdev closes
 * them all; under separate each PF but PF 0 is a vdev of its own, which
 * the first probe creates (octonic_probe), and the NIC (wire, engine) goes
 * with its last PF.
 */

#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_ethdev.h>
#include <rte_kvargs.h>
#include <rte_malloc.h>
#include <rte_string_fns.h>

#include <bus_vdev_driver.h>
#include <ethdev_driver.h>

#include "octonic_internal.h"

static RTE_ATOMIC(uint32_t) nic_seq;

/* ---- queues ---- */

static void
txq_free(struct octonic_txq *txq)
{
	if (txq == NULL)
		return;
	octonic_ring_flush(txq->ring);
	rte_ring_free(txq->ring);
	octonic_txd_free(txq->desc);
	octonic_txorder_free(txq);
	rte_free(txq);
}

/* What a queue holds is dropped, as a NIC reset would. */
static void
rxq_flush(struct octonic_rxq *rxq)
{
	struct octonic_rx_ref r[OCTONIC_BURST];
	unsigned int n;

	if (rxq == NULL)
		return;
	if (rxq->ring != NULL)
		while ((n = rte_ring_dequeue_burst_elem(rxq->ring, r,
				sizeof(r[0]), RTE_DIM(r), NULL)) > 0)
			octonic_rx_refs_free(r, n);
	if (rxq->desc != NULL)
		octonic_rxd_stop(rxq->desc);
}

static void
rxq_free(struct octonic_rxq *rxq)
{
	if (rxq == NULL)
		return;
	rxq_flush(rxq);
	rte_ring_free(rxq->ring);
	rte_free(rxq->desc);
	rte_free(rxq);
}

static void
txq_flush(struct octonic_txq *txq)
{
	if (txq == NULL)
		return;
	octonic_ring_flush(txq->ring);
	if (txq->desc != NULL)
		octonic_txd_stop(txq->desc);
	octonic_txorder_reset(txq);
}

/*
 * rx_ring=mlx5: descriptors (segments) a packet takes, as mlx5 counts
 * them: 1, or with scatter the buffers a largest frame spans, rounded up
 * to a power of 2 (mlx5_rxq.c, mlx5_rxq_new).
 */
static uint16_t
rx_sges(const struct rte_eth_dev *dev, struct rte_mempool *mp)
{
	uint32_t room = rte_pktmbuf_data_room_size(mp), max_len;

	if ((dev->data->dev_conf.rxmode.offloads & RTE_ETH_RX_OFFLOAD_SCATTER) == 0 ||
			room <= RTE_PKTMBUF_HEADROOM)
		return 1;
	room -= RTE_PKTMBUF_HEADROOM;
	max_len = dev->data->mtu + RTE_ETHER_HDR_LEN + RTE_ETHER_CRC_LEN;
	return rte_align32pow2((max_len + room - 1) / room);
}

static void
octonic_rx_queue_release(struct rte_eth_dev *dev, uint16_t qid)
{
	struct octonic_pf *pf = octonic_pf_of(dev);

	/* the engine may be writing into this queue on another lcore */
	rte_spinlock_lock(&pf->nic->engine_lock);
	rxq_free(dev->data->rx_queues[qid]);
	dev->data->rx_queues[qid] = NULL;
	rte_spinlock_unlock(&pf->nic->engine_lock);
}

static void
octonic_tx_queue_release(struct rte_eth_dev *dev, uint16_t qid)
{
	struct octonic_pf *pf = octonic_pf_of(dev);

	rte_spinlock_lock(&pf->nic->engine_lock);
	txq_free(dev->data->tx_queues[qid]);
	dev->data->tx_queues[qid] = NULL;
	rte_spinlock_unlock(&pf->nic->engine_lock);
}

/*
 * A queue's ring when it is an rte_ring: NIC memory, on the PF's socket
 * whatever socket the application asks for; NULL, logged, without memory.
 * Tx rings hold mbufs, Rx rings completions (struct octonic_rx_ref).
 */
static struct rte_ring *
queue_ring(struct rte_eth_dev *dev, bool tx, uint16_t qid, uint16_t nb_desc)
{
	struct octonic_pf *pf = octonic_pf_of(dev);
	char name[RTE_RING_NAMESIZE];
	struct rte_ring *r;

	snprintf(name, sizeof(name), "oc%c_%u_%u", tx ? 't' : 'r',
		dev->data->port_id, qid);
	r = rte_ring_create_elem(name, tx ? sizeof(void *) :
			sizeof(struct octonic_rx_ref), nb_desc, pf->socket,
			RING_F_SP_ENQ | RING_F_SC_DEQ | RING_F_EXACT_SZ);
	if (r == NULL)
		OCTONIC_LOG(ERR, "%s: %s ring %u: %s", dev->data->name,
			tx ? "Tx" : "Rx", qid, rte_strerror(rte_errno));
	return r;
}

static int
octonic_rx_queue_setup(struct rte_eth_dev *dev, uint16_t qid, uint16_t nb_desc,
		unsigned int socket_id, const struct rte_eth_rxconf *conf,
		struct rte_mempool *mp)
{
	struct octonic_pf *pf = octonic_pf_of(dev);
	struct octonic_rxq *rxq;

	/* The descriptor ring is NIC memory: on the PF's socket whatever the
	 * application asks; socket_id only matters for its mempool.
	 */
	rxq = rte_zmalloc_socket("octonic_rxq", sizeof(*rxq), RTE_CACHE_LINE_SIZE,
			pf->socket);
	if (rxq == NULL)
		return -ENOMEM;
	if (pf->nic->args.rx_ring == OCTONIC_RX_RING_MLX5) {
		/* mlx5 rounds the ring up to a power of 2 */
		rxq->desc = octonic_rxd_create(nb_desc, rx_sges(dev, mp),
			pf->socket);
		if (rxq->desc == NULL) {
			rte_free(rxq);
			return OCTONIC_ERR(-ENOMEM, "%s: Rx ring %u: no memory",
				dev->data->name, qid);
		}
		nb_desc = rxq->desc->nb_desc;
	} else {
		rxq->ring = queue_ring(dev, false, qid, nb_desc);
		if (rxq->ring == NULL) {
			rte_free(rxq);
			return -ENOMEM;
		}
	}
	rxq->step = pf->nic->args.rx_step;
	rxq->mp = mp;
	rxq->room = rte_pktmbuf_data_room_size(mp) > RTE_PKTMBUF_HEADROOM ?
		rte_pktmbuf_data_room_size(mp) - RTE_PKTMBUF_HEADROOM : 0;
	rxq->pf = pf;
	rxq->qid = qid;
	rxq->nb_desc = nb_desc;
	rxq->deferred = conf != NULL && conf->rx_deferred_start;
	/* a pool made for SOCKET_ID_ANY has no home: not counted as remote */
	rxq->remote_pool = mp->socket_id >= 0 && mp->socket_id != pf->socket;
	rte_spinlock_lock(&pf->nic->engine_lock);
	dev->data->rx_queues[qid] = rxq;
	rte_spinlock_unlock(&pf->nic->engine_lock);
	return 0;
}

static int
octonic_tx_queue_setup(struct rte_eth_dev *dev, uint16_t qid, uint16_t nb_desc,
		unsigned int socket_id, const struct rte_eth_txconf *conf)
{
	struct octonic_pf *pf = octonic_pf_of(dev);
	struct octonic_txq *txq;

	txq = rte_zmalloc_socket("octonic_txq", sizeof(*txq), RTE_CACHE_LINE_SIZE,
			pf->socket);
	if (txq == NULL)
		return -ENOMEM;
	if (pf->nic->args.tx_comp_every > 1) {
		/* mlx5 rounds the ring up to a power of 2 */
		txq->desc = octonic_txd_create(nb_desc,
			pf->nic->args.tx_comp_every, pf->socket);
		if (txq->desc == NULL) {
			rte_free(txq);
			return OCTONIC_ERR(-ENOMEM, "%s: Tx ring %u: no memory",
				dev->data->name, qid);
		}
		nb_desc = txq->desc->size;
	} else {
		txq->ring = queue_ring(dev, true, qid, nb_desc);
		if (txq->ring == NULL) {
			rte_free(txq);
			return -ENOMEM;
		}
	}
	txq->pf = pf;
	txq->qid = qid;
	txq->nb_desc = nb_desc;
	txq->deferred = conf != NULL && conf->tx_deferred_start;
	if (octonic_txorder_setup(txq, nb_desc, pf->socket) != 0) {
		txq_free(txq);
		return OCTONIC_ERR(-ENOMEM, "%s: Tx ring %u: no memory", dev->data->name, qid);
	}
	rte_spinlock_lock(&pf->nic->engine_lock);
	dev->data->tx_queues[qid] = txq;
	rte_spinlock_unlock(&pf->nic->engine_lock);
	return 0;
}

/*
 * rx_ring=mlx5: the queue's buffers, all of them, as mlx5 allocates them
 * when a queue starts; a pool too small for them fails the start.  Under
 * the engine's lock.
 */
static int
rxq_post(struct rte_eth_dev *dev, struct octonic_rxq *rxq)
{
	if (rxq->desc == NULL || octonic_rxd_start(rxq) == 0)
		return 0;
	return OCTONIC_ERR(-ENOMEM, "%s: Rx queue %u: pool %s cannot fill its %u buffers (rx_ring=mlx5 posts them all at start, as mlx5 does)",
		dev->data->name, rxq->qid, rxq->mp->name, rxq->desc->size);
}

static int
octonic_rx_queue_start(struct rte_eth_dev *dev, uint16_t qid)
{
	struct octonic_pf *pf = octonic_pf_of(dev);
	int ret;

	rte_spinlock_lock(&pf->nic->engine_lock);
	ret = rxq_post(dev, dev->data->rx_queues[qid]);
	if (ret == 0)
		dev->data->rx_queue_state[qid] = RTE_ETH_QUEUE_STATE_STARTED;
	rte_spinlock_unlock(&pf->nic->engine_lock);
	return ret;
}

static int
octonic_rx_queue_stop(struct rte_eth_dev *dev, uint16_t qid)
{
	struct octonic_pf *pf = octonic_pf_of(dev);
	struct octonic_rxq *rxq = dev->data->rx_queues[qid];

	/* mlx5 stops a queue only under its scalar burst: its vector burst
	 * (the steps of 4) keeps indices that a restart would break
	 */
	if (rxq != NULL && rxq->desc != NULL && rxq->step > 1 &&
	    !rxq->desc->scalar)
		return OCTONIC_ERR(-EINVAL, "%s: Rx queue %u: stop refused under rx_step=%u (mlx5 stops a queue only under its scalar burst, rx_step=1)",
			dev->data->name, qid, rxq->step);
	rte_spinlock_lock(&pf->nic->engine_lock);
	dev->data->rx_queue_state[qid] = RTE_ETH_QUEUE_STATE_STOPPED;
	/* mlx5 frees a stopped queue's buffers */
	if (rxq != NULL && rxq->desc != NULL)
		octonic_rxd_stop(rxq->desc);
	rte_spinlock_unlock(&pf->nic->engine_lock);
	return 0;
}

static int
octonic_tx_queue_start(struct rte_eth_dev *dev, uint16_t qid)
{
	dev->data->tx_queue_state[qid] = RTE_ETH_QUEUE_STATE_STARTED;
	return 0;
}

static int
octonic_tx_queue_stop(struct rte_eth_dev *dev, uint16_t qid)
{
	dev->data->tx_queue_state[qid] = RTE_ETH_QUEUE_STATE_STOPPED;
	return 0;
}

/* ---- device ---- */

static int
octonic_dev_configure(struct rte_eth_dev *dev)
{
	struct octonic_pf *pf = octonic_pf_of(dev);
	struct rte_eth_conf *conf = &dev->data->dev_conf;
	const struct rte_eth_rss_conf *rss = &conf->rx_adv_conf.rss_conf;
	uint64_t rss_hf = 0;
	int ret;

	dev->data->scattered_rx =
		(conf->rxmode.offloads & RTE_ETH_RX_OFFLOAD_SCATTER) != 0;
	if (conf->rxmode.mq_mode & RTE_ETH_MQ_RX_RSS_FLAG) {
		rss_hf = rss->rss_hf;
		conf->rxmode.offloads |= RTE_ETH_RX_OFFLOAD_RSS_HASH;
	}
	if (rss->rss_key != NULL && rss->rss_key_len != OCTONIC_RSS_KEY_LEN)
		return OCTONIC_ERR(-EINVAL, "%s: RSS key must be %u bytes, not %u",
			dev->data->name, OCTONIC_RSS_KEY_LEN, rss->rss_key_len);
	ret = octonic_eswitch_pf_configure(pf->dom->sw, pf->sw_pf,
			dev->data->nb_rx_queues, rss_hf, rss->rss_key,
			rss->rss_key_len);
	if (ret != 0)
		OCTONIC_LOG(ERR, "%s: e-switch refused the configuration: %d",
			dev->data->name, ret);
	return ret;
}

static int
octonic_link_update(struct rte_eth_dev *dev, int wait_to_complete)
{
	struct octonic_pf *pf = octonic_pf_of(dev);
	struct rte_eth_link link = {
		.link_speed = RTE_ETH_SPEED_NUM_100G,
		.link_duplex = RTE_ETH_LINK_FULL_DUPLEX,
		.link_autoneg = RTE_ETH_LINK_FIXED,
		.link_status = pf->started && octonic_pf_up(pf) ?
			RTE_ETH_LINK_UP : RTE_ETH_LINK_DOWN,
	};

	return rte_eth_linkstatus_set(dev, &link);
}

static int
octonic_dev_start(struct rte_eth_dev *dev)
{
	struct octonic_pf *pf = octonic_pf_of(dev);
	uint16_t q;
	int ret;

	ret = octonic_dialect_start_check(pf);
	if (ret != 0)
		return ret;
	ret = octonic_engine_wire_start(pf->nic);
	if (ret != 0)
		return ret;
	rte_spinlock_lock(&pf->nic->engine_lock);
	for (q = 0; q < dev->data->nb_rx_queues; q++) {
		struct octonic_rxq *rxq = dev->data->rx_queues[q];

		/* rx_ring=mlx5 ignores rx_deferred_start: mlx5 starts and
		 * fills every queue it has at dev_start
		 */
		if (rxq == NULL || (rxq->deferred && rxq->desc == NULL))
			continue;
		ret = rxq_post(dev, rxq);
		if (ret != 0) {
			while (q-- > 0)
				rxq_flush(dev->data->rx_queues[q]);
			rte_spinlock_unlock(&pf->nic->engine_lock);
			return ret;
		}
		dev->data->rx_queue_state[q] = RTE_ETH_QUEUE_STATE_STARTED;
	}
	for (q = 0; q < dev->data->nb_tx_queues; q++) {
		struct octonic_txq *txq = dev->data->tx_queues[q];

		if (txq != NULL && !txq->deferred)
			dev->data->tx_queue_state[q] = RTE_ETH_QUEUE_STATE_STARTED;
	}
	pf->started = 1;
	rte_spinlock_unlock(&pf->nic->engine_lock);
	octonic_dialect_started(pf);
	octonic_link_update(dev, 0);
	return 0;
}

static int
octonic_dev_stop(struct rte_eth_dev *dev)
{
	struct octonic_pf *pf = octonic_pf_of(dev);
	uint16_t q;
	int ret;

	ret = octonic_dialect_stop_check(pf);
	if (ret != 0)
		return ret;
	rte_spinlock_lock(&pf->nic->engine_lock);
	pf->started = 0;
	/* what the queues still hold is dropped, as a NIC reset would */
	for (q = 0; q < dev->data->nb_rx_queues; q++) {
		rxq_flush(dev->data->rx_queues[q]);
		dev->data->rx_queue_state[q] = RTE_ETH_QUEUE_STATE_STOPPED;
	}
	for (q = 0; q < dev->data->nb_tx_queues; q++) {
		txq_flush(dev->data->tx_queues[q]);
		dev->data->tx_queue_state[q] = RTE_ETH_QUEUE_STATE_STOPPED;
	}
	rte_spinlock_unlock(&pf->nic->engine_lock);
	octonic_dialect_stopped(pf);
	octonic_link_update(dev, 0);
	return 0;
}

static void
nic_free(struct octonic_nic *nic)
{
	struct octonic_domain *d;
	uint16_t i;

	octonic_engine_teardown(nic);
	for (i = 0; i < RTE_DIM(nic->dom); i++) {
		d = &nic->dom[i];
		octonic_eswitch_free(d->sw);
		octonic_eswitch_cache_free(d->cache);
		if (d->domain_allocated)
			rte_eth_switch_domain_free(d->domain_id);
	}
	rte_free(nic);
}

static void
release_queues(struct rte_eth_dev *dev)
{
	uint16_t q;

	for (q = 0; q < dev->data->nb_rx_queues; q++)
		octonic_rx_queue_release(dev, q);
	for (q = 0; q < dev->data->nb_tx_queues; q++)
		octonic_tx_queue_release(dev, q);
}

static int
octonic_dev_close(struct rte_eth_dev *dev)
{
	struct octonic_pf *pf = octonic_pf_of(dev);
	struct octonic_nic *nic = pf->nic;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return 0;
	release_queues(dev);
	rte_spinlock_lock(&nic->engine_lock);
	nic->pf[pf->idx] = NULL;
	rte_spinlock_unlock(&nic->engine_lock);
	/* PF0's port was the transfer proxy: with it closed the NIC has none
	 * (as a NIC whose e-switch manager is gone), rather than a port id
	 * that may name another device
	 */
	octonic_eswitch_forget_pf_port(pf->dom->sw, pf->sw_pf);
	/* the e-switch goes with the last PF */
	if (--nic->nb_open == 0)
		nic_free(nic);
	return 0;
}

static int
octonic_dev_reset(struct rte_eth_dev *dev)
{
	struct octonic_pf *pf = octonic_pf_of(dev);

	/* ethdev stopped the port: forget the queues, keep the rules; the
	 * device works again (rte_pmd_octonic_reset_raise)
	 */
	release_queues(dev);
	pf->reset_pending = 0;
	octonic_stats_reset(dev);
	octonic_link_update(dev, 0);
	return 0;
}

static int
octonic_dev_infos_get(struct rte_eth_dev *dev, struct rte_eth_dev_info *info)
{
	struct octonic_pf *pf = octonic_pf_of(dev);
	const uint64_t rx_cksum = RTE_ETH_RX_OFFLOAD_IPV4_CKSUM |
		RTE_ETH_RX_OFFLOAD_UDP_CKSUM | RTE_ETH_RX_OFFLOAD_TCP_CKSUM;
	const uint64_t tx_cksum = RTE_ETH_TX_OFFLOAD_IPV4_CKSUM |
		RTE_ETH_TX_OFFLOAD_UDP_CKSUM | RTE_ETH_TX_OFFLOAD_TCP_CKSUM;

	info->max_rx_queues = OCTONIC_MAX_QUEUES;
	info->max_tx_queues = OCTONIC_MAX_QUEUES;
	info->max_mac_addrs = OCTONIC_MAX_MAC;
	info->min_rx_bufsize = RTE_ETHER_MIN_LEN;
	info->max_rx_pktlen = OCTONIC_MAX_FRAME;
	info->min_mtu = RTE_ETHER_MIN_MTU;
	info->max_mtu = OCTONIC_MAX_MTU;
	info->rx_offload_capa = rx_cksum | RTE_ETH_RX_OFFLOAD_RSS_HASH |
		RTE_ETH_RX_OFFLOAD_SCATTER;
	info->tx_offload_capa = tx_cksum | RTE_ETH_TX_OFFLOAD_MULTI_SEGS;
	info->rx_queue_offload_capa = 0;
	info->tx_queue_offload_capa = 0;
	info->reta_size = OCTONIC_RETA_SIZE;
	info->hash_key_size = OCTONIC_RSS_KEY_LEN;
	info->flow_type_rss_offloads = OCTONIC_RSS_OFFLOAD_ALL;
	info->rx_desc_lim.nb_max = OCTONIC_MAX_DESC;
	info->rx_desc_lim.nb_min = OCTONIC_MIN_DESC;
	info->rx_desc_lim.nb_align = 1;
	info->tx_desc_lim = info->rx_desc_lim;
	info->speed_capa = RTE_ETH_LINK_SPEED_100G;
	info->dev_capa = octonic_dialect_dev_capa(pf->nic) |
		RTE_ETH_DEV_CAPA_RUNTIME_RX_QUEUE_SETUP |
		RTE_ETH_DEV_CAPA_RUNTIME_TX_QUEUE_SETUP;
	info->switch_info.name = pf->dom == &pf->nic->dom[0] ? pf->nic->name :
		pf->dev->data->name;
	info->switch_info.domain_id = pf->dom->domain_id;
	info->switch_info.port_id = pf->sw_pf;
	return 0;
}

static const uint32_t *
octonic_supported_ptypes(struct rte_eth_dev *dev, size_t *n)
{
	/* what lib/wire's octo_offload_ptype() reports */
	static const uint32_t ptypes[] = {
		RTE_PTYPE_L2_ETHER,
		RTE_PTYPE_L2_ETHER_VLAN,
		RTE_PTYPE_L2_ETHER_QINQ,
		RTE_PTYPE_L2_ETHER_ARP,
		RTE_PTYPE_L2_ETHER_LLDP,
		RTE_PTYPE_L2_ETHER_TIMESYNC,
		RTE_PTYPE_L3_IPV4,
		RTE_PTYPE_L3_IPV4_EXT,
		RTE_PTYPE_L3_IPV6,
		RTE_PTYPE_L3_IPV6_EXT,
		RTE_PTYPE_L4_TCP,
		RTE_PTYPE_L4_UDP,
		RTE_PTYPE_L4_SCTP,
		RTE_PTYPE_L4_ICMP,
		RTE_PTYPE_L4_FRAG,
		RTE_PTYPE_L4_NONFRAG,
		RTE_PTYPE_UNKNOWN,	/* the end, for DPDK before 24.03 */
	};

	*n = RTE_DIM(ptypes) - 1;
	return ptypes;
}
OCTO_DPDK_PTYPES_GET_ADAPTER(octonic_supported_ptypes)
OCTO_DPDK_STATS_GET_ADAPTER(octonic_stats_get)
OCTO_DPDK_RX_QUEUE_COUNT_ADAPTER(octonic_rx_queue_count)

static void
octonic_rxq_info_get(struct rte_eth_dev *dev, uint16_t qid,
		struct rte_eth_rxq_info *qinfo)
{
	const struct octonic_rxq *rxq = dev->data->rx_queues[qid];

	qinfo->mp = rxq->mp;
	qinfo->nb_desc = rxq->nb_desc;
	qinfo->scattered_rx = dev->data->scattered_rx;
	qinfo->conf.rx_deferred_start = rxq->deferred;
	qinfo->conf.offloads = dev->data->dev_conf.rxmode.offloads;
}

static void
octonic_txq_info_get(struct rte_eth_dev *dev, uint16_t qid,
		struct rte_eth_txq_info *qinfo)
{
	const struct octonic_txq *txq = dev->data->tx_queues[qid];

	qinfo->nb_desc = txq->nb_desc;
	qinfo->conf.tx_deferred_start = txq->deferred;
	qinfo->conf.offloads = dev->data->dev_conf.txmode.offloads;
}

static int
octonic_promisc(struct rte_eth_dev *dev)
{
	/* the e-switch steers by rules, not by MAC: nothing to filter */
	return 0;
}

/* ethdev keeps the MTU within dev_info's bounds: any it passes fits. */
static int
octonic_mtu_set(struct rte_eth_dev *dev, uint16_t mtu)
{
	return 0;
}

static int
octonic_mac_addr_set(struct rte_eth_dev *dev, struct rte_ether_addr *addr)
{
	return rte_is_valid_assigned_ether_addr(addr) ? 0 : -EINVAL;
}

static int
octonic_mac_addr_add(struct rte_eth_dev *dev, struct rte_ether_addr *addr,
		uint32_t index, uint32_t vmdq)
{
	return index < OCTONIC_MAX_MAC ? 0 : -EINVAL;
}

static void
octonic_mac_addr_remove(struct rte_eth_dev *dev, uint32_t index)
{
}

/*
 * An RSS op the PF's e-switch serves: octonic_<op>(dev, ...) hands its
 * arguments but dev over to octonic_eswitch_<op>(sw, pf, ...).
 */
#define RSS_OP(op, params, ...) \
static int \
octonic_##op params \
{ \
	struct octonic_pf *pf = octonic_pf_of(dev); \
\
	return octonic_eswitch_##op(pf->dom->sw, pf->sw_pf, __VA_ARGS__); \
}

RSS_OP(reta_update, (struct rte_eth_dev *dev,
		struct rte_eth_rss_reta_entry64 *conf, uint16_t size), conf, size)
RSS_OP(reta_query, (struct rte_eth_dev *dev,
		struct rte_eth_rss_reta_entry64 *conf, uint16_t size), conf, size)
RSS_OP(rss_hash_update,
	(struct rte_eth_dev *dev, struct rte_eth_rss_conf *conf), conf)
RSS_OP(rss_hash_conf_get,
	(struct rte_eth_dev *dev, struct rte_eth_rss_conf *conf), conf)

static int
octonic_flow_ops_get(struct rte_eth_dev *dev, const struct rte_flow_ops **ops)
{
	*ops = &octonic_flow_ops;
	return 0;
}

const struct eth_dev_ops octonic_ops = {
	.dev_configure = octonic_dev_configure,
	.dev_start = octonic_dev_start,
	.dev_stop = octonic_dev_stop,
	.dev_close = octonic_dev_close,
	.dev_reset = octonic_dev_reset,
	.link_update = octonic_link_update,
	.promiscuous_enable = octonic_promisc,
	.promiscuous_disable = octonic_promisc,
	.allmulticast_enable = octonic_promisc,
	.allmulticast_disable = octonic_promisc,
	.mtu_set = octonic_mtu_set,
	.mac_addr_set = octonic_mac_addr_set,
	.mac_addr_add = octonic_mac_addr_add,
	.mac_addr_remove = octonic_mac_addr_remove,
	.stats_get = OCTO_DPDK_STATS_GET(octonic_stats_get),
	.stats_reset = octonic_stats_reset,
	.xstats_get = octonic_xstats_get,
	.xstats_get_names = octonic_xstats_get_names,
	.xstats_reset = octonic_stats_reset,
	.dev_infos_get = octonic_dev_infos_get,
	.dev_supported_ptypes_get = OCTO_DPDK_PTYPES_GET(octonic_supported_ptypes),
	.rx_queue_setup = octonic_rx_queue_setup,
	.rx_queue_release = octonic_rx_queue_release,
	.tx_queue_setup = octonic_tx_queue_setup,
	.tx_queue_release = octonic_tx_queue_release,
	.rxq_info_get = octonic_rxq_info_get,
	.txq_info_get = octonic_txq_info_get,
	.rx_queue_start = octonic_rx_queue_start,
	.rx_queue_stop = octonic_rx_queue_stop,
	.tx_queue_start = octonic_tx_queue_start,
	.tx_queue_stop = octonic_tx_queue_stop,
	.tx_done_cleanup = octonic_tx_done_cleanup,
	.reta_update = octonic_reta_update,
	.reta_query = octonic_reta_query,
	.rss_hash_update = octonic_rss_hash_update,
	.rss_hash_conf_get = octonic_rss_hash_conf_get,
	.flow_ops_get = octonic_flow_ops_get,
};

/*
 * A secondary process reads what the primary's PFs hold (their private
 * data is in shared memory): information, link, statistics, and resets of
 * the statistics. Everything that drives the NIC model (configure, start,
 * queues, flows, the datapath) is the primary's: not in this table, so
 * ethdev refuses it with -ENOTSUP.
 */
static const struct eth_dev_ops octonic_secondary_ops = {
	.link_update = octonic_link_update,
	.stats_get = OCTO_DPDK_STATS_GET(octonic_stats_get),
	.stats_reset = octonic_stats_reset,
	.xstats_get = octonic_xstats_get,
	.xstats_get_names = octonic_xstats_get_names,
	.xstats_reset = octonic_stats_reset,
	.dev_infos_get = octonic_dev_infos_get,
};

/* The model's bursts run in the primary only. */
static uint16_t
secondary_burst(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	RTE_SET_USED(q);
	RTE_SET_USED(pkts);
	RTE_SET_USED(n);
	return 0;
}

/* The layers below tell the model's ports by these ops. */
RTE_INIT(octonic_port_ops_init)
{
	octonic_port_ops_set(&octonic_ops, &octonic_secondary_ops);
}

/* ---- vdev ---- */

/* A locally administered MAC derived from the NIC's name. */
static void
pf_mac(const struct octonic_nic *nic, uint16_t idx, struct rte_ether_addr *a)
{
	uint32_t h = 5381;
	const char *c;

	for (c = nic->name; *c != '\0'; c++)
		h = h * 33 + (uint8_t)*c;
	a->addr_bytes[0] = 0x02;
	a->addr_bytes[1] = 0x6f;	/* 'o' */
	a->addr_bytes[2] = h >> 16;
	a->addr_bytes[3] = h >> 8;
	a->addr_bytes[4] = h;
	a->addr_bytes[5] = nic->args.mac == OCTONIC_MAC_PER_PF ? idx : 0;
}

/* The port name of PF @p idx (octonic.rst "Topologies"); -1 when too long. */
static int
pf_port_name(const struct octonic_nic *nic, uint16_t idx, char *buf, size_t len)
{
	int n;

	if (nic->args.topology != OCTONIC_TOPO_MPESW)
		n = snprintf(buf, len, "%s_pf%u", nic->name, idx);
	else if (nic->nb_pfs > 1)	/* mlx5: "_p<n>" with more than one uplink */
		n = snprintf(buf, len, "%s_p%u", nic->name, idx);
	else
		n = snprintf(buf, len, "%s", nic->name);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

static struct rte_eth_dev *
pf_create(struct octonic_nic *nic, uint16_t idx, struct rte_vdev_device *vdev)
{
	char name[RTE_ETH_NAME_MAX_LEN];
	int separate = nic->args.topology == OCTONIC_TOPO_SEPARATE;
	/* under mpesw every port is the owner's: its node, its DMA (T3) */
	int socket = nic->args.topology == OCTONIC_TOPO_MPESW ?
		nic->pci_node[0] : nic->pci_node[idx];
	struct rte_eth_dev *dev;
	struct octonic_pf *pf;

	if (pf_port_name(nic, idx, name, sizeof(name)) != 0) {
		OCTONIC_LOG(ERR, "%s: name too long", nic->name);
		return NULL;
	}
	pf = rte_zmalloc_socket(name, sizeof(*pf), RTE_CACHE_LINE_SIZE, socket);
	if (pf == NULL)
		return NULL;
	dev = rte_eth_dev_allocate(name);
	if (dev == NULL) {
		OCTONIC_LOG(ERR, "%s: cannot allocate port %s", nic->name, name);
		rte_free(pf);
		return NULL;
	}
	/* from here rte_eth_dev_release_port() frees pf and the MACs */
	dev->data->dev_private = pf;
	dev->data->mac_addrs = rte_zmalloc_socket(name,
			sizeof(struct rte_ether_addr) * OCTONIC_MAX_MAC, 0, socket);
	if (dev->data->mac_addrs == NULL) {
		rte_eth_dev_release_port(dev);
		return NULL;
	}
	pf_mac(nic, idx, &dev->data->mac_addrs[0]);
	pf->nic = nic;
	pf->dev = dev;
	pf->idx = idx;
	pf->port_id = dev->data->port_id;
	pf->socket = socket;
	pf->pci_socket = nic->pci_node[idx];
	pf->vdev = vdev;
	strlcpy(pf->dev_name, rte_vdev_device_name(vdev), sizeof(pf->dev_name));
	pf->dom = &nic->dom[separate ? idx : 0];
	pf->sw_pf = separate ? 0 : idx;
	pf->plugged = 1;
	dev->device = &vdev->device;
	dev->data->numa_node = socket;
	dev->data->dev_flags |= RTE_ETH_DEV_AUTOFILL_QUEUE_XSTATS |
		RTE_ETH_DEV_INTR_RMV | RTE_ETH_DEV_INTR_LSC;
	dev->data->dev_link.link_speed = RTE_ETH_SPEED_NUM_100G;
	dev->data->dev_link.link_duplex = RTE_ETH_LINK_FULL_DUPLEX;
	dev->data->dev_link.link_status = RTE_ETH_LINK_DOWN;
	dev->dev_ops = &octonic_ops;
	dev->rx_pkt_burst = octonic_rx_burst;
	dev->tx_pkt_burst = octonic_tx_burst;
	dev->rx_queue_count = OCTO_DPDK_RX_QUEUE_COUNT(octonic_rx_queue_count);
	dev->rx_descriptor_status = octonic_rx_descriptor_status;
	dev->tx_descriptor_status = octonic_tx_descriptor_status;
	nic->pf[idx] = pf;
	octonic_eswitch_set_pf_port(pf->dom->sw, pf->sw_pf, dev->data->port_id);
	return dev;
}

/*
 * Secondary process: the primary's PFs of this device, attached by name (a
 * secondary is not given the primary's devargs): <dev>_pf<i> and
 * <dev>_p<i> from 0 up, and <dev> itself (an mpesw NIC of one PF, or a PF
 * of topology=separate, whose device is named as its port); a port found
 * that belongs to another device (separate) is let go.
 */
static int
octonic_probe_secondary(struct rte_vdev_device *vdev, const char *name)
{
	static const char *const fmt[] = { "%s_pf%u", "%s_p%u" };
	char pf_name[RTE_ETH_NAME_MAX_LEN];
	const struct octonic_pf *pf;
	struct rte_eth_dev *dev;
	uint16_t i, port, found = 0;
	unsigned int f;

	for (f = 0; f <= RTE_DIM(fmt); f++) {
		for (i = 0; i < OCTONIC_MAX_PFS; i++) {
			if (f < RTE_DIM(fmt))
				snprintf(pf_name, sizeof(pf_name), fmt[f], name, i);
			else if (i == 0)
				snprintf(pf_name, sizeof(pf_name), "%s", name);
			else
				break;
			/* attached already, as another device's */
			if (rte_eth_dev_get_port_by_name(pf_name, &port) == 0)
				continue;
			dev = rte_eth_dev_attach_secondary(pf_name);
			if (dev == NULL)
				continue;
			pf = dev->data->dev_private;
			if (pf == NULL || strcmp(pf->dev_name, name) != 0) {
				rte_eth_dev_release_port(dev);
				continue;
			}
			dev->dev_ops = &octonic_secondary_ops;
			dev->device = &vdev->device;
			dev->rx_pkt_burst = secondary_burst;
			dev->tx_pkt_burst = secondary_burst;
			rte_eth_dev_probing_finish(dev);
			found++;
		}
	}
	if (found == 0)
		return OCTONIC_ERR(-ENODEV, "%s: the primary process has no PF of %s to attach",
			name, name);
	OCTONIC_LOG(INFO, "%s: %u PFs attached (secondary: statistics and information only)",
		name, found);
	return 0;
}

/*
 * Devices whose devargs were refused and not probed again yet: net_octopus
 * may probe a NIC ahead of its turn, and the vdev bus then probes the same
 * device again in its turn; the second refusal is the first one repeated.
 * A repeat is recognised once (the same device object, name and devargs)
 * and forgotten, so that a later probe refused again is logged again.
 * Only the probing thread (EAL init or a hotplug) touches it.
 */
#define REFUSED_MAX 8
static struct {
	const struct rte_vdev_device *dev;
	char name[RTE_DEV_NAME_MAX_LEN];
	char *args;
} refused[REFUSED_MAX];

/* Whether this refusal repeats one logged just before; notes it if not. */
static bool
refusal_repeated(const struct rte_vdev_device *dev, const char *name,
		const char *args)
{
	unsigned int i, free_slot = REFUSED_MAX;

	if (args == NULL)
		args = "";
	for (i = 0; i < REFUSED_MAX; i++) {
		if (refused[i].args == NULL) {
			free_slot = RTE_MIN(free_slot, i);
			continue;
		}
		if (refused[i].dev == dev && strcmp(refused[i].name, name) == 0 &&
				strcmp(refused[i].args, args) == 0) {
			free(refused[i].args);
			refused[i].args = NULL;
			return true;
		}
	}
	if (free_slot < REFUSED_MAX) {
		refused[free_slot].args = strdup(args);
		refused[free_slot].dev = dev;
		strlcpy(refused[free_slot].name, name, sizeof(refused[free_slot].name));
	}
	return false;
}

/*
 * topology=separate: the PF whose device the first probe is creating (by
 * rte_vdev_init, which probes it at once, nested in that probe).  Only
 * the probing thread touches it.
 */
static struct {
	char name[RTE_DEV_NAME_MAX_LEN];
	struct octonic_nic *nic;
	uint16_t idx;
} spawning;

/* The probe of a device the first probe of a separate NIC creates. */
static int
octonic_probe_spawned(struct rte_vdev_device *vdev)
{
	struct octonic_nic *nic = spawning.nic;
	struct rte_eth_dev *dev;

	if (rte_vdev_device_args(vdev) != NULL &&
			rte_vdev_device_args(vdev)[0] != '\0')
		return OCTONIC_ERR(-EINVAL, "%s: a PF of %s takes no devargs", spawning.name,
			nic->name);
	dev = pf_create(nic, spawning.idx, vdev);
	if (dev == NULL)
		return -ENOMEM;
	nic->nb_open++;
	rte_eth_dev_probing_finish(dev);
	return 0;
}

/* Switch domain @p d of @p nic: an e-switch over @p nb_pfs PFs. */
static int
domain_create(struct octonic_nic *nic, uint16_t d, uint16_t first_pf,
		uint16_t nb_pfs)
{
	struct octonic_domain *dom = &nic->dom[d];
	const struct octonic_devargs *da = &nic->args;
	char name[RTE_DEV_NAME_MAX_LEN + 16];	/* the e-switch keeps 31 */

	if (rte_eth_switch_domain_alloc(&dom->domain_id) != 0)
		return OCTONIC_ERR(-ENOSPC, "%s: no switch domain left", nic->name);
	dom->domain_allocated = 1;
	dom->first_pf = first_pf;
	if (nic->nb_dom > 1)
		snprintf(name, sizeof(name), "%s_pf%u", nic->name, first_pf);
	else
		snprintf(name, sizeof(name), "%s", nic->name);
	dom->sw = octonic_eswitch_create(name, nb_pfs, nic->socket);
	dom->cache = octonic_eswitch_cache_create(nic->socket);
	if (dom->sw == NULL || dom->cache == NULL)
		return OCTONIC_ERR(-ENOMEM, "%s: cannot create the e-switch", nic->name);
	octonic_eswitch_dialect_set(dom->sw, da->dialect, da->xmeta);
	octonic_eswitch_mlx5_model_set(dom->sw, da->mlx5_dpdk, da->fdb_mark);
	octonic_eswitch_uplinks_set(dom->sw, da->topology == OCTONIC_TOPO_MPESW);
	return 0;
}

/*
 * topology=separate: PFs 1.. as devices of their own, "<name>_pf<i>",
 * probed at once by rte_vdev_init (and skipped by the bus's own probe
 * loop, which finds them probed).  On failure those made are removed.
 */
static int
spawn_pf_devices(struct octonic_nic *nic)
{
	char name[RTE_DEV_NAME_MAX_LEN + 16];
	uint16_t i, j;
	int ret = 0;

	for (i = 1; i < nic->nb_pfs; i++) {
		if ((size_t)snprintf(name, sizeof(name), "%s_pf%u", nic->name, i) >=
				sizeof(spawning.name)) {
			OCTONIC_LOG(ERR, "%s: name too long for its PF devices",
				nic->name);
			ret = -ENAMETOOLONG;
			break;
		}
		strlcpy(spawning.name, name, sizeof(spawning.name));
		spawning.nic = nic;
		spawning.idx = i;
		ret = rte_vdev_init(name, NULL);
		spawning.nic = NULL;
		if (ret != 0) {
			OCTONIC_LOG(ERR, "%s: cannot create device %s for PF %u: %d",
				nic->name, name, i, ret);
			break;
		}
	}
	if (ret == 0)
		return 0;
	/* PFs 1 .. i-1 were made */
	for (j = 1; j < i; j++) {
		snprintf(name, sizeof(name), "%s_pf%u", nic->name, j);
		rte_vdev_uninit(name);
	}
	return ret < 0 ? ret : -ENODEV;
}

static int
octonic_probe(struct rte_vdev_device *vdev)
{
	const char *name = rte_vdev_device_name(vdev);
	struct rte_eth_dev *devs[OCTONIC_MAX_PFS] = { NULL };
	struct octonic_devargs da;
	struct octonic_nic *nic;
	char err[160];
	unsigned int nb_sockets = rte_socket_count();
	uint16_t i, nb_here;
	int node[OCTONIC_MAX_PFS];
	int ret;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return octonic_probe_secondary(vdev, name);
	if (spawning.nic != NULL && strcmp(name, spawning.name) == 0)
		return octonic_probe_spawned(vdev);
	if (octonic_devargs_parse(rte_vdev_device_args(vdev), &da, err,
			sizeof(err)) != 0) {
		if (refusal_repeated(vdev, name, rte_vdev_device_args(vdev)))
			OCTONIC_LOG(DEBUG, "%s: %s (probed again: logged before)",
				name, err);
		else
			OCTONIC_LOG(ERR, "%s: %s", name, err);
		return -EINVAL;
	}
	if (nb_sockets == 0)
		nb_sockets = 1;
	for (i = 0; i < da.nb_pfs; i++) {
		if (!da.numa_given) {
			node[i] = rte_socket_id_by_idx(i % nb_sockets);
			if (node[i] < 0)
				node[i] = 0;
			continue;
		}
		node[i] = da.numa[i];
		if ((unsigned int)node[i] >= nb_sockets)
			return OCTONIC_ERR(-EINVAL, "%s: invalid value for devarg 'numa': node %d does not exist (%u sockets)",
				name, node[i], nb_sockets);
	}
	nic = rte_zmalloc_socket(name, sizeof(*nic), RTE_CACHE_LINE_SIZE, node[0]);
	if (nic == NULL)
		return -ENOMEM;
	strlcpy(nic->name, name, sizeof(nic->name));
	nic->seq = rte_atomic_fetch_add_explicit(&nic_seq, 1, rte_memory_order_relaxed);
	nic->args = da;
	nic->nb_pfs = da.nb_pfs;
	nic->socket = node[0];
	for (i = 0; i < da.nb_pfs; i++)
		nic->pci_node[i] = node[i];
	if (da.topology == OCTONIC_TOPO_SEPARATE) {
		/* one e-switch per PF, nothing steers between them (T7, T8) */
		nic->nb_dom = nic->nb_pfs;
		nb_here = 1;
	} else {
		nic->nb_dom = 1;
		nb_here = nic->nb_pfs;
	}
	for (i = 0; i < nic->nb_dom; i++) {
		ret = domain_create(nic, i, nic->nb_dom > 1 ? i : 0,
			nic->nb_dom > 1 ? 1 : nic->nb_pfs);
		if (ret != 0)
			goto fail;
	}
	ret = octonic_engine_setup(nic);
	if (ret != 0)
		goto fail;
	for (i = 0; i < nb_here; i++) {
		devs[i] = pf_create(nic, i, vdev);
		if (devs[i] == NULL) {
			ret = -ENOMEM;
			goto fail;
		}
	}
	nic->nb_open = nb_here;
	if (nic->gen != NULL)
		octonic_engine_gen_addr(nic, nic->gen);
	ret = nb_here < nic->nb_pfs ? spawn_pf_devices(nic) : 0;
	if (ret != 0) {
		nic->nb_open = 0;
		goto fail;
	}
	for (i = 0; i < nb_here; i++)
		rte_eth_dev_probing_finish(devs[i]);
	OCTONIC_LOG(INFO, "%s: %u PFs (topology %s), ports %u..%u", name,
		nic->nb_pfs, da.topology == OCTONIC_TOPO_MPESW ? "mpesw" :
		da.topology == OCTONIC_TOPO_SEPARATE ? "separate" : "octonic",
		devs[0]->data->port_id, nic->pf[nic->nb_pfs - 1]->port_id);
	return 0;
fail:
	for (i = 0; i < OCTONIC_MAX_PFS; i++)
		if (devs[i] != NULL)
			rte_eth_dev_release_port(devs[i]);
	nic_free(nic);
	return ret;
}

static int
octonic_remove(struct rte_vdev_device *vdev)
{
	uint16_t port;
	int pass, ret = 0;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY) {
		/* the primary's PFs stay; this process lets go of them */
		RTE_ETH_FOREACH_DEV_OF(port, &vdev->device)
			if (octonic_is_octonic(&rte_eth_devices[port]))
				rte_eth_dev_release_port(&rte_eth_devices[port]);
		return 0;
	}
	/* The device leaves, as a hot-unplugged one does: its users hear of
	 * it (RTE_ETH_EVENT_INTR_RMV) while its queues still exist, so that
	 * whoever polls them stops first.
	 */
	RTE_ETH_FOREACH_DEV_OF(port, &vdev->device)
		if (octonic_is_octonic(&rte_eth_devices[port]) &&
		    rte_eth_devices[port].data->dev_started != 0)
			rte_eth_dev_callback_process(&rte_eth_devices[port],
				RTE_ETH_EVENT_INTR_RMV, NULL);
	/* Only started ports (ethdev logs a stop of a stopped one), the
	 * transfer proxy (PF0) last: under mlx5-hws it refuses to stop
	 * before the others.
	 */
	for (pass = 0; pass < 2; pass++)
		RTE_ETH_FOREACH_DEV_OF(port, &vdev->device)
			if (octonic_is_octonic(&rte_eth_devices[port]) &&
			    rte_eth_devices[port].data->dev_started != 0 &&
			    (octonic_pf_of(&rte_eth_devices[port])->idx == 0) == pass)
				rte_eth_dev_stop(port);
	RTE_ETH_FOREACH_DEV_OF(port, &vdev->device) {
		if (!octonic_is_octonic(&rte_eth_devices[port]))
			continue;
		if (rte_eth_dev_close(port) != 0)
			ret = -EIO;
	}
	return ret;
}

static struct rte_vdev_driver octonic_vdev_drv = {
	.probe = octonic_probe,
	.remove = octonic_remove,
};

RTE_PMD_REGISTER_VDEV(net_octonic, octonic_vdev_drv);
RTE_PMD_REGISTER_PARAM_STRING(net_octonic,
	"pfs=<1-8> "
	"numa=<node>[:<node>...] "
	"mac=shared|per-pf "
	"wire=gen|loop|<ethdev name> "
	"flows=<n> "
	"pkt_len=<64-9618, default: shortest for ipv6/proto> "
	"dialect=generic|mlx5-sws|mlx5-hws "
	"xmeta=<0-4, mlx5 dialects only> "
	"mlx5_dpdk=22.11|25.11 "
	"fdb_mark=0|1 "
	"topology=octonic|mpesw|separate "
	"rx_step=<1-64, mlx5-hws: 4> "
	"rx_ring=plain|mlx5 "
	"tx_comp_every=<1-1024, mlx5-hws: 32> "
	"tx_cleanup=0|1 "
	"tx_read_ns=<0-100000000, mlx5-hws: 2000> "
	"proto=udp|tcp|sctp|icmp|icmp6 "
	"ipv6=0|1 "
	"gen_rate=<pps, 0: as polled> "
	"gen_limit=<packets, 0: none> "
	"gen_pause=skip|owe "
	"nudma_dma=flush|wait "
	"nudma_dma_ns=<ns per remote DMA, suggested 107> "
	"nudma_poll_ns=<ns per remote poll, suggested 107>");
