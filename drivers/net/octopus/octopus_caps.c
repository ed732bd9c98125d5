/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/* What the virtual port can do: what every member can do. */

#include <string.h>

#include "octopus_internal.h"

static void
desc_lim_meet(struct rte_eth_desc_lim *to, const struct rte_eth_desc_lim *from)
{
	to->nb_max = RTE_MIN(to->nb_max, from->nb_max);
	to->nb_min = RTE_MAX(to->nb_min, from->nb_min);
	to->nb_align = RTE_MAX(to->nb_align, from->nb_align);
	if (from->nb_seg_max != 0)
		to->nb_seg_max = to->nb_seg_max == 0 ? from->nb_seg_max :
			RTE_MIN(to->nb_seg_max, from->nb_seg_max);
	if (from->nb_mtu_seg_max != 0)
		to->nb_mtu_seg_max = to->nb_mtu_seg_max == 0 ? from->nb_mtu_seg_max :
			RTE_MIN(to->nb_mtu_seg_max, from->nb_mtu_seg_max);
}

/*
 * Capabilities of the virtual port: the intersection over its members, so
 * that any setting the app makes is valid on every member (a queue may
 * later move to any of them).
 *  - counts and sizes (queues, descriptors max, MAC addresses, Rx packet
 *    length, MTU max): minimum over members; lower bounds (descriptors
 *    min and alignment, MTU min, Rx buffer min): maximum;
 *  - offload, RSS type, speed and device capability bit sets: AND;
 *  - queues are also capped at OCTOPUS_MAX_QUEUES;
 *  - RETA: the port's own (the default-spreading buckets of the steering,
 *    size from reta_size=), not a member's; no hash key (buckets are
 *    masked header bits, not Toeplitz);
 *  - runtime queue setup is not offered: every virtual queue needs its
 *    hardware queue on every member before start;
 *  - FLOW_RULE_KEEP, whatever the members say: the port keeps rules.
 * Before the members are resolved, it reports what the port itself allows.
 */
int
octopus_caps_get(struct octopus_priv *p, struct rte_eth_dev_info *info)
{
	struct rte_eth_dev_info mi;
	struct octopus_member *m;
	bool first = true;
	uint16_t i;
	int ret;

	info->max_rx_queues = OCTOPUS_MAX_QUEUES;
	info->max_tx_queues = OCTOPUS_MAX_QUEUES;
	info->max_mac_addrs = RTE_ETH_NUM_RECEIVE_MAC_ADDR;
	info->max_rx_pktlen = UINT32_MAX;
	info->min_rx_bufsize = 0;
	info->max_mtu = UINT16_MAX;
	info->min_mtu = 0;
	info->reta_size = p->args.reta_size;
	info->hash_key_size = 0;
	info->rx_desc_lim.nb_max = UINT16_MAX;
	info->tx_desc_lim.nb_max = UINT16_MAX;
	info->rx_desc_lim.nb_align = 1;
	info->tx_desc_lim.nb_align = 1;
	info->dev_capa &= ~(RTE_ETH_DEV_CAPA_RUNTIME_RX_QUEUE_SETUP |
		RTE_ETH_DEV_CAPA_RUNTIME_TX_QUEUE_SETUP);
	/* the port keeps the application's rules (deep copies), made again
	 * on members that do not keep them across their stop, and takes rules
	 * while stopped: every feature it takes is kept
	 */
	info->dev_capa |= RTE_ETH_DEV_CAPA_FLOW_RULE_KEEP;

	OCTO_FOREACH_MEMBER_STATE(p, i, m, OCTO_MEMBER_OWNED) {
		ret = rte_eth_dev_info_get(m->port_id, &mi);
		if (ret < 0)
			return ret;
		if (first) {
			info->rx_offload_capa = mi.rx_offload_capa;
			info->tx_offload_capa = mi.tx_offload_capa;
			info->rx_queue_offload_capa = mi.rx_queue_offload_capa;
			info->tx_queue_offload_capa = mi.tx_queue_offload_capa;
			info->flow_type_rss_offloads = mi.flow_type_rss_offloads;
			info->speed_capa = mi.speed_capa;
			info->default_rxconf = mi.default_rxconf;
			info->default_txconf = mi.default_txconf;
			info->default_rxportconf = mi.default_rxportconf;
			info->default_txportconf = mi.default_txportconf;
			first = false;
		} else {
			info->rx_offload_capa &= mi.rx_offload_capa;
			info->tx_offload_capa &= mi.tx_offload_capa;
			info->rx_queue_offload_capa &= mi.rx_queue_offload_capa;
			info->tx_queue_offload_capa &= mi.tx_queue_offload_capa;
			info->flow_type_rss_offloads &= mi.flow_type_rss_offloads;
			info->speed_capa &= mi.speed_capa;
		}
		info->max_rx_queues = RTE_MIN(info->max_rx_queues, mi.max_rx_queues);
		info->max_tx_queues = RTE_MIN(info->max_tx_queues, mi.max_tx_queues);
		info->max_mac_addrs = RTE_MIN(info->max_mac_addrs, mi.max_mac_addrs);
		info->max_rx_pktlen = RTE_MIN(info->max_rx_pktlen, mi.max_rx_pktlen);
		info->min_rx_bufsize = RTE_MAX(info->min_rx_bufsize, mi.min_rx_bufsize);
		info->max_mtu = RTE_MIN(info->max_mtu, mi.max_mtu);
		info->min_mtu = RTE_MAX(info->min_mtu, mi.min_mtu);
		desc_lim_meet(&info->rx_desc_lim, &mi.rx_desc_lim);
		desc_lim_meet(&info->tx_desc_lim, &mi.tx_desc_lim);
	}
	if (first) {
		/* no member yet: small, safe defaults */
		info->max_rx_pktlen = RTE_ETHER_MAX_LEN;
		info->max_mtu = RTE_ETHER_MTU;
		info->min_mtu = RTE_ETHER_MIN_MTU;
	}
	if (info->max_mac_addrs == 0)
		info->max_mac_addrs = 1;
	return 0;
}

/*
 * Packet types the virtual port reports in mbufs: those every member
 * reports (a queue's packets may come from any member). The list keeps
 * its RTE_PTYPE_UNKNOWN end for the DPDK releases that look for it.
 */
const uint32_t *
octopus_ptypes_get(struct rte_eth_dev *dev, size_t *count)
{
	struct octopus_priv *p = octo_priv(dev);
	uint32_t mine[OCTOPUS_MAX_PTYPES], theirs[OCTOPUS_MAX_PTYPES];
	struct octopus_member *m;
	int n = -1, k, i, j, out;
	uint16_t mi;

	OCTO_FOREACH_MEMBER_STATE(p, mi, m, OCTO_MEMBER_OWNED) {
		k = rte_eth_dev_get_supported_ptypes(m->port_id, RTE_PTYPE_ALL_MASK,
			theirs, RTE_DIM(theirs));
		if (k < 0)
			k = 0;
		k = RTE_MIN(k, (int)RTE_DIM(theirs));
		if (n < 0) {
			memcpy(mine, theirs, k * sizeof(theirs[0]));
			n = k;
			continue;
		}
		for (i = 0, out = 0; i < n; i++)
			for (j = 0; j < k; j++)
				if (mine[i] == theirs[j]) {
					mine[out++] = mine[i];
					break;
				}
		n = out;
	}
	*count = 0;
	if (n <= 0)
		return NULL;
	memcpy(p->ptypes, mine, n * sizeof(mine[0]));
	p->ptypes[n] = RTE_PTYPE_UNKNOWN;
	*count = n;
	return p->ptypes;
}
