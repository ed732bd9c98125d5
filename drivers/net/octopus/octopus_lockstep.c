/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Settings applied to every member in lockstep: promiscuous, all-multicast,
 * MTU, MAC addresses, VLAN filter. When a member refuses, the members
 * already changed are put back and the member's error is returned, so the
 * members never disagree.
 */

#include <errno.h>

#include <rte_mbuf.h>

#include "octopus_internal.h"

typedef int (*member_op_t)(uint16_t port, uintptr_t arg);

bool
octopus_macs_first_only(const struct octopus_priv *p)
{
	const struct octopus_member *m;
	struct rte_eth_dev_info info;
	uint16_t i, domain = RTE_ETH_DEV_SWITCH_DOMAIN_ID_INVALID;
	bool first = true;

	OCTO_FOREACH_MEMBER_STATE(p, i, m, OCTO_MEMBER_OWNED) {
		if (rte_eth_dev_info_get(m->port_id, &info) != 0)
			continue;
		if (first)
			domain = info.switch_info.domain_id;
		else if (info.switch_info.domain_id != domain)
			return true;
		first = false;
	}
	return false;
}

/*
 * Apply @p apply(arg) to every owned member in order (@p first_only: the
 * first one only); when member i fails, run @p undo(undo_arg[j]) on
 * members 0..i-1 and return member i's error.
 */
static int
lockstep_some(struct octopus_priv *p, const char *what, member_op_t apply,
		uintptr_t arg, member_op_t undo, const uintptr_t *undo_arg, bool first_only)
{
	struct octopus_member *m;
	uint16_t i, j;
	int ret, r;

	OCTO_FOREACH_MEMBER_STATE(p, i, m, OCTO_MEMBER_OWNED) {
		ret = apply(m->port_id, arg);
		if (ret == 0 && first_only)
			return 0;
		if (ret == 0)
			continue;
		/* Refused by the first member: nothing changed, a plain
		 * unsupported feature is not worth an error line.
		 */
		if (i == 0 && ret == -ENOTSUP)
			OCTO_LOG(INFO, "port %u: %s not supported by member %s",
				p->port_id, what, m->name);
		else
			OCTO_LOG(ERR, "port %u: %s refused by member %s (%s); undoing it on %u member(s)",
				p->port_id, what, m->name, rte_strerror(-ret), i);
		for (j = 0; j < i && undo != NULL; j++) {
			if (p->members[j].state < OCTO_MEMBER_OWNED)
				continue;
			r = undo(p->members[j].port_id, undo_arg[j]);
			if (r != 0)
				OCTO_LOG(ERR, "port %u: undoing %s on %s failed (%d)",
					p->port_id, what, p->members[j].name, r);
		}
		return ret;
	}
	return 0;
}

static int
op_promisc(uint16_t port, uintptr_t on)
{
	return on ? rte_eth_promiscuous_enable(port) : rte_eth_promiscuous_disable(port);
}

static int
op_allmulti(uint16_t port, uintptr_t on)
{
	return on ? rte_eth_allmulticast_enable(port) : rte_eth_allmulticast_disable(port);
}

static int
op_mtu(uint16_t port, uintptr_t mtu)
{
	return rte_eth_dev_set_mtu(port, (uint16_t)mtu);
}

static int
op_mac_set(uint16_t port, uintptr_t addr)
{
	return rte_eth_dev_default_mac_addr_set(port, (struct rte_ether_addr *)addr);
}

static int
op_mac_add(uint16_t port, uintptr_t addr)
{
	return rte_eth_dev_mac_addr_add(port, (struct rte_ether_addr *)addr, 0);
}

static int
op_mac_del(uint16_t port, uintptr_t addr)
{
	return rte_eth_dev_mac_addr_remove(port, (struct rte_ether_addr *)addr);
}

static int
op_vlan(uint16_t port, uintptr_t arg)
{
	return rte_eth_dev_vlan_filter(port, (uint16_t)(arg & 0xffff), (int)(arg >> 16));
}

/* A receive mode every member takes in lockstep, undone to each one's own */
struct mode_flag {
	const char *name[2];		/* [on]: the op's name in the logs */
	int (*get)(uint16_t port);
	member_op_t set;
};

static const struct mode_flag promisc = {
	{ "promiscuous disable", "promiscuous enable" },
	rte_eth_promiscuous_get, op_promisc
};

static const struct mode_flag allmulti = {
	{ "allmulticast disable", "allmulticast enable" },
	rte_eth_allmulticast_get, op_allmulti
};

static int
mode_flag_set(struct rte_eth_dev *dev, const struct mode_flag *f, int on)
{
	struct octopus_priv *p = octo_priv(dev);
	uintptr_t saved[OCTOPUS_MAX_MEMBERS] = { 0 };
	struct octopus_member *m;
	uint16_t i;

	OCTO_FOREACH_MEMBER_STATE(p, i, m, OCTO_MEMBER_OWNED)
		saved[i] = f->get(m->port_id) == 1;
	return lockstep_some(p, f->name[on != 0], f->set, on, f->set, saved, false);
}

int
octopus_promisc_enable(struct rte_eth_dev *dev)
{
	return mode_flag_set(dev, &promisc, 1);
}

int
octopus_promisc_disable(struct rte_eth_dev *dev)
{
	return mode_flag_set(dev, &promisc, 0);
}

int
octopus_allmulti_enable(struct rte_eth_dev *dev)
{
	return mode_flag_set(dev, &allmulti, 1);
}

int
octopus_allmulti_disable(struct rte_eth_dev *dev)
{
	return mode_flag_set(dev, &allmulti, 0);
}

int
octopus_mtu_set(struct rte_eth_dev *dev, uint16_t mtu)
{
	struct octopus_priv *p = octo_priv(dev);
	uintptr_t saved[OCTOPUS_MAX_MEMBERS] = { 0 };
	struct octopus_member *m;
	uint16_t i, old;

	/* stopped, the queues may be set up again with larger mbufs (OVS
	 * sets the MTU, then the queues): their setup checks then
	 */
	if (dev->data->dev_started && octopus_mtu_fits(dev, mtu, NULL) != 0)
		return -EINVAL;
	OCTO_FOREACH_MEMBER_STATE(p, i, m, OCTO_MEMBER_OWNED)
		saved[i] = rte_eth_dev_get_mtu(m->port_id, &old) == 0 ? old : mtu;
	return lockstep_some(p, "MTU set", op_mtu, mtu, op_mtu, saved, false);
}

int
octopus_mac_set(struct rte_eth_dev *dev, struct rte_ether_addr *addr)
{
	struct octopus_priv *p = octo_priv(dev);
	struct rte_ether_addr old[OCTOPUS_MAX_MEMBERS];
	uintptr_t saved[OCTOPUS_MAX_MEMBERS] = { 0 };
	struct octopus_member *m;
	uint16_t i;

	OCTO_FOREACH_MEMBER_STATE(p, i, m, OCTO_MEMBER_OWNED) {
		rte_eth_macaddr_get(m->port_id, &old[i]);
		saved[i] = (uintptr_t)&old[i];
	}
	return lockstep_some(p, "MAC set", op_mac_set, (uintptr_t)addr, op_mac_set, saved,
		octopus_macs_first_only(p));
}

int
octopus_mac_add(struct rte_eth_dev *dev, struct rte_ether_addr *addr,
		uint32_t index, uint32_t vmdq)
{
	struct octopus_priv *p = octo_priv(dev);
	uintptr_t saved[OCTOPUS_MAX_MEMBERS];
	uint16_t i;

	RTE_SET_USED(index);
	if (vmdq != 0)
		return -ENOTSUP;
	for (i = 0; i < OCTOPUS_MAX_MEMBERS; i++)
		saved[i] = (uintptr_t)addr;
	return lockstep_some(p, "MAC add", op_mac_add, (uintptr_t)addr, op_mac_del, saved,
		octopus_macs_first_only(p) && !rte_is_multicast_ether_addr(addr));
}

void
octopus_mac_remove(struct rte_eth_dev *dev, uint32_t index)
{
	struct octopus_priv *p = octo_priv(dev);
	struct rte_ether_addr *addr = &dev->data->mac_addrs[index];
	struct octopus_member *m;
	uint16_t i;
	int ret;

	OCTO_FOREACH_MEMBER_STATE(p, i, m, OCTO_MEMBER_OWNED) {
		ret = rte_eth_dev_mac_addr_remove(m->port_id, addr);
		if (ret < 0 && ret != -ENOTSUP)
			OCTO_LOG(WARNING, "port %u: MAC remove on %s failed (%d)",
				p->port_id, m->name, ret);
	}
}

int
octopus_vlan_filter(struct rte_eth_dev *dev, uint16_t vlan, int on)
{
	struct octopus_priv *p = octo_priv(dev);
	uintptr_t saved[OCTOPUS_MAX_MEMBERS];
	uint16_t i;

	for (i = 0; i < OCTOPUS_MAX_MEMBERS; i++)
		saved[i] = vlan | ((uintptr_t)!on << 16);
	return lockstep_some(p, "VLAN filter", op_vlan, vlan | ((uintptr_t)!!on << 16),
		op_vlan, saved, false);
}

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
	return OCTO_ERR(-EINVAL, "port %u: MTU %u makes %u-byte frames; the Rx mbufs hold %u bytes and scatter (RTE_ETH_RX_OFFLOAD_SCATTER) is off: MTU %u at most, or larger mbufs, or scatter",
		p->port_id, mtu, frame, smallest,
		smallest > frame_overhead(p) ? smallest - frame_overhead(p) : 0);
}
