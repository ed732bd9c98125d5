/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Whether the Rx queues can receive a frame of the MTU.  ethdev compares
 * the MTU with the device's limits only, not with the mbufs the queues
 * were given, so a port with 2 kB mbufs and no scatter would take an MTU
 * of 9000 and then drop (or worse, on some NIC, truncate) every large
 * frame.  The port refuses such an MTU at MTU set and a pool too small for
 * the MTU at Rx queue setup, as NIC PMDs do (i40e, ixgbe); with
 * RTE_ETH_RX_OFFLOAD_SCATTER (offered only when every member has it) the
 * members chain mbufs and any MTU up to their limit is received.
 */

#include <errno.h>

#include <rte_mbuf.h>

#include "octopus_internal.h"

/* Bytes a frame adds to the MTU, as ethdev counts it: the members' own
 * difference when they report one, else Ethernet header and CRC.
 */
static uint32_t
frame_overhead(struct octopus_priv *p)
{
	struct rte_eth_dev_info info;

	memset(&info, 0, sizeof(info));
	if (octopus_caps_get(p, &info) == 0 && info.max_mtu != UINT16_MAX &&
			info.max_rx_pktlen > info.max_mtu)
		return info.max_rx_pktlen - info.max_mtu;
	return RTE_ETHER_HDR_LEN + RTE_ETHER_CRC_LEN;
}

static uint32_t
room(const struct rte_mempool *mp)
{
	uint16_t dr = rte_pktmbuf_data_room_size((struct rte_mempool *)(uintptr_t)mp);

	return dr > RTE_PKTMBUF_HEADROOM ? dr - RTE_PKTMBUF_HEADROOM : 0;
}

int
octopus_mtu_fits(struct rte_eth_dev *dev, uint16_t mtu,
		const struct rte_mempool *mp)
{
	struct octopus_priv *p = octo_priv(dev);
	uint32_t frame, smallest = UINT32_MAX;
	uint16_t q, i;

	if ((dev->data->dev_conf.rxmode.offloads & RTE_ETH_RX_OFFLOAD_SCATTER) != 0)
		return 0;
	if (mp != NULL)
		smallest = room(mp);
	for (q = 0; mp == NULL && q < RTE_MIN(dev->data->nb_rx_queues,
			OCTOPUS_MAX_QUEUES); q++)
		for (i = 0; p->rxq[q] != NULL && i < OCTOPUS_MAX_MEMBERS; i++)
			if (p->rxq[q]->mp[i] != NULL)
				smallest = RTE_MIN(smallest, room(p->rxq[q]->mp[i]));
	if (smallest == UINT32_MAX)
		return 0;	/* no Rx queue yet: checked at their setup */
	frame = (uint32_t)mtu + frame_overhead(p);
	if (frame <= smallest)
		return 0;
	OCTO_LOG(ERR, "port %u: MTU %u makes %u-byte frames; the Rx mbufs hold %u bytes and scatter (RTE_ETH_RX_OFFLOAD_SCATTER) is off: MTU %u at most, or larger mbufs, or scatter",
		p->port_id, mtu, frame, smallest,
		smallest > frame_overhead(p) ? smallest - frame_overhead(p) : 0);
	return -EINVAL;
}
