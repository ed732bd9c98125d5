/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * net_octopus ethdev glue: probe/remove and the control path. Every
 * control operation is applied to the members in lockstep: when one
 * member refuses, the members already changed are put back and the
 * member's error is returned, so the members never disagree.
 */

#include <errno.h>
#include <string.h>

#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <bus_vdev_driver.h>
#include <ethdev_vdev.h>

#include "octopus_internal.h"

RTE_LOG_REGISTER(octopus_logtype, pmd.net.octopus, NOTICE);

static const struct eth_dev_ops octopus_ops;

bool
octopus_is_octopus(uint16_t port_id)
{
	return rte_eth_dev_is_valid_port(port_id) &&
		rte_eth_devices[port_id].dev_ops == &octopus_ops;
}

/* ---- lockstep ----------------------------------------------------------- */

typedef int (*member_op_t)(uint16_t port, uintptr_t arg);

/*
 * Apply @p apply(arg) to every owned member in order; when member i fails,
 * run @p undo(undo_arg[j]) on members 0..i-1 and return member i's error.
 */
static int
lockstep(struct octopus_priv *p, const char *what, member_op_t apply,
		uintptr_t arg, member_op_t undo, const uintptr_t *undo_arg)
{
	struct octopus_member *m;
	uint16_t i, j;
	int ret, r;

	OCTO_FOREACH_MEMBER_STATE(p, i, m, OCTO_MEMBER_OWNED) {
		ret = apply(m->port_id, arg);
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

static int
save_flag(struct octopus_priv *p, int (*get)(uint16_t), uintptr_t *saved)
{
	struct octopus_member *m;
	uint16_t i;

	OCTO_FOREACH_MEMBER_STATE(p, i, m, OCTO_MEMBER_OWNED)
		saved[i] = get(m->port_id) == 1;
	return 0;
}

static int
octopus_promisc_set(struct rte_eth_dev *dev, int on)
{
	struct octopus_priv *p = octo_priv(dev);
	uintptr_t saved[OCTOPUS_MAX_MEMBERS] = { 0 };

	save_flag(p, rte_eth_promiscuous_get, saved);
	return lockstep(p, on ? "promiscuous enable" : "promiscuous disable",
		op_promisc, on, op_promisc, saved);
}

static int
octopus_promisc_enable(struct rte_eth_dev *dev)
{
	return octopus_promisc_set(dev, 1);
}

static int
octopus_promisc_disable(struct rte_eth_dev *dev)
{
	return octopus_promisc_set(dev, 0);
}

static int
octopus_allmulti_set(struct rte_eth_dev *dev, int on)
{
	struct octopus_priv *p = octo_priv(dev);
	uintptr_t saved[OCTOPUS_MAX_MEMBERS] = { 0 };

	save_flag(p, rte_eth_allmulticast_get, saved);
	return lockstep(p, on ? "allmulticast enable" : "allmulticast disable",
		op_allmulti, on, op_allmulti, saved);
}

static int
octopus_allmulti_enable(struct rte_eth_dev *dev)
{
	return octopus_allmulti_set(dev, 1);
}

static int
octopus_allmulti_disable(struct rte_eth_dev *dev)
{
	return octopus_allmulti_set(dev, 0);
}

static int
octopus_mtu_set(struct rte_eth_dev *dev, uint16_t mtu)
{
	struct octopus_priv *p = octo_priv(dev);
	uintptr_t saved[OCTOPUS_MAX_MEMBERS] = { 0 };
	struct octopus_member *m;
	uint16_t i, old;

	OCTO_FOREACH_MEMBER_STATE(p, i, m, OCTO_MEMBER_OWNED)
		saved[i] = rte_eth_dev_get_mtu(m->port_id, &old) == 0 ? old : mtu;
	return lockstep(p, "MTU set", op_mtu, mtu, op_mtu, saved);
}

static int
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
	return lockstep(p, "MAC set", op_mac_set, (uintptr_t)addr, op_mac_set, saved);
}

static int
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
	return lockstep(p, "MAC add", op_mac_add, (uintptr_t)addr, op_mac_del, saved);
}

static void
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

static int
octopus_vlan_filter(struct rte_eth_dev *dev, uint16_t vlan, int on)
{
	struct octopus_priv *p = octo_priv(dev);
	uintptr_t saved[OCTOPUS_MAX_MEMBERS];
	uint16_t i;

	for (i = 0; i < OCTOPUS_MAX_MEMBERS; i++)
		saved[i] = vlan | ((uintptr_t)!on << 16);
	return lockstep(p, "VLAN filter", op_vlan, vlan | ((uintptr_t)!!on << 16),
		op_vlan, saved);
}

/* ---- link --------------------------------------------------------------- */

/* The members share one wire: the port is up while any member is up (its
 * queues can still be served) and runs at the fastest member's speed.
 */
int
octopus_link_update(struct rte_eth_dev *dev, int wait)
{
	struct octopus_priv *p = octo_priv(dev);
	struct rte_eth_link link = { 0 }, ml;
	struct octopus_member *m;
	uint16_t i;

	link.link_duplex = RTE_ETH_LINK_FULL_DUPLEX;
	link.link_speed = RTE_ETH_SPEED_NUM_NONE;
	OCTO_FOREACH_MEMBER_STATE(p, i, m, OCTO_MEMBER_STARTED) {
		if ((wait ? rte_eth_link_get(m->port_id, &ml) :
				rte_eth_link_get_nowait(m->port_id, &ml)) < 0)
			continue;
		if (ml.link_status != RTE_ETH_LINK_UP)
			continue;
		link.link_status = RTE_ETH_LINK_UP;
		link.link_autoneg = ml.link_autoneg;
		if (ml.link_speed != RTE_ETH_SPEED_NUM_UNKNOWN &&
				ml.link_speed > link.link_speed)
			link.link_speed = ml.link_speed;
	}
	return rte_eth_linkstatus_set(dev, &link);
}

/* ---- configure / queues ------------------------------------------------- */

static int
octopus_dev_infos_get(struct rte_eth_dev *dev, struct rte_eth_dev_info *info)
{
	return octopus_caps_get(octo_priv(dev), info);
}

/*
 * Put members 0..upto-1 back as they were before this configure: the ones
 * configured before get their old configuration again (their queues must
 * be set up again, as after any configure); the ones that were not are
 * treated as unconfigured.
 */
static void
configure_undo(struct octopus_priv *p, uint16_t upto,
		const struct rte_eth_conf *old_conf, uint16_t (*old_nb)[2])
{
	struct octopus_member *m;
	uint16_t j;
	int ret;

	for (j = 0; j < upto; j++) {
		m = &p->members[j];
		if (m->state < OCTO_MEMBER_OWNED)
			continue;
		if (old_nb[j][0] == 0 && old_nb[j][1] == 0) {
			m->state = OCTO_MEMBER_OWNED;
			continue;
		}
		ret = rte_eth_dev_configure(m->port_id, old_nb[j][0], old_nb[j][1],
			&old_conf[j]);
		if (ret < 0)
			OCTO_LOG(ERR, "port %u: member %s: restoring its configuration failed (%d)",
				p->port_id, m->name, ret);
	}
}

static int
octopus_configure(struct rte_eth_dev *dev)
{
	struct octopus_priv *p = octo_priv(dev);
	struct rte_eth_conf old_conf[OCTOPUS_MAX_MEMBERS];
	uint16_t old_nb[OCTOPUS_MAX_MEMBERS][2] = { { 0 } };
	struct rte_eth_conf conf = dev->data->dev_conf;
	uint16_t nb_rxq = dev->data->nb_rx_queues;
	uint16_t nb_txq = dev->data->nb_tx_queues;
	struct octopus_member *m;
	uint16_t i;
	int ret;

	ret = octopus_members_init(p, false);
	if (ret < 0)
		return ret;
	/* Interrupts of members are not forwarded; the hash key is the
	 * member's own (the port's spreading is the steering's buckets).
	 */
	memset(&conf.intr_conf, 0, sizeof(conf.intr_conf));
	/* LSC of the virtual port comes from the members' LSC events */
	conf.rx_adv_conf.rss_conf.rss_key = NULL;
	conf.rx_adv_conf.rss_conf.rss_key_len = 0;
	/* What each member had, to put it back if a later member refuses. */
	OCTO_FOREACH_MEMBER_STATE(p, i, m, OCTO_MEMBER_CONFIGURED) {
		struct rte_eth_dev_data *md = rte_eth_devices[m->port_id].data;

		old_conf[i] = md->dev_conf;
		old_nb[i][0] = md->nb_rx_queues;
		old_nb[i][1] = md->nb_tx_queues;
	}
	OCTO_FOREACH_MEMBER_STATE(p, i, m, OCTO_MEMBER_OWNED) {
		conf.intr_conf.lsc = dev->data->dev_conf.intr_conf.lsc &&
			octopus_member_has_lsc(m->port_id);
		ret = rte_eth_dev_configure(m->port_id, nb_rxq, nb_txq, &conf);
		if (ret < 0) {
			OCTO_LOG(ERR, "port %u: member %s refused configure (%u rxq, %u txq): %s",
				p->port_id, m->name, nb_rxq, nb_txq, rte_strerror(-ret));
			configure_undo(p, i, old_conf, old_nb);
			return ret;
		}
		m->state = OCTO_MEMBER_CONFIGURED;
		if (p->args.has_mac) {
			ret = rte_eth_dev_default_mac_addr_set(m->port_id, &p->args.mac);
			if (ret < 0 && ret != -ENOTSUP)
				OCTO_LOG(WARNING, "port %u: member %s keeps its MAC (%d)",
					p->port_id, m->name, ret);
		}
	}
	for (i = 0; i < p->args.reta_size; i++)
		p->reta[i] = nb_rxq ? i % nb_rxq : 0;
	if (p->args.catchall_queue >= nb_rxq && nb_rxq > 0) {
		OCTO_LOG(ERR, "port %u: catchall=%u but only %u Rx queues",
			p->port_id, p->args.catchall_queue, nb_rxq);
		return -EINVAL;
	}
	return 0;
}

static struct octopus_queue *
queue_alloc(struct rte_eth_dev *dev, uint16_t qid, unsigned int socket, bool tx)
{
	struct octopus_priv *p = octo_priv(dev);
	struct octopus_queue *q;
	int home = octopus_member_by_socket(p, (int)socket);
	int alloc_socket = home >= 0 ? (int)socket : p->members[0].socket;

	q = rte_zmalloc_socket("octopus_queue", sizeof(*q), RTE_CACHE_LINE_SIZE,
		octopus_alloc_socket(alloc_socket));
	if (q == NULL)
		return NULL;
	q->priv = p;
	q->vport = dev->data->port_id;
	q->qid = qid;
	q->is_tx = tx;
	q->nb_members = p->nb_members;
	q->poller_lcore = -1;
	q->poller_socket = -1;
	q->setup_socket = (int)socket;
	q->home_fixed = home >= 0;
	q->route = home >= 0 ? OCTO_ROUTE(home, home, OCTO_ROUTE_STEADY) :
		OCTO_ROUTE(OCTOPUS_NO_HOME, OCTOPUS_NO_HOME, OCTO_ROUTE_STEADY);
	return q;
}

/*
 * Every virtual queue q gets hardware queue q on EVERY member, on that
 * member's socket, so that moving q's home never needs a member stopped.
 */
static int
octopus_rx_queue_setup(struct rte_eth_dev *dev, uint16_t qid, uint16_t nb_desc,
		unsigned int socket, const struct rte_eth_rxconf *conf,
		struct rte_mempool *mp)
{
	struct octopus_priv *p = octo_priv(dev);
	struct octopus_member *m;
	struct rte_mempool *pool;
	struct octopus_queue *q;
	uint32_t nb_mbufs;
	uint16_t i;
	int ret;

	q = queue_alloc(dev, qid, socket, false);
	if (q == NULL)
		return -ENOMEM;
	/* Local pool per socket: all Rx queues' rings on that member, twice
	 * (mbufs held by the app), plus the per-lcore caches.
	 */
	nb_mbufs = (uint32_t)dev->data->nb_rx_queues * 2 * RTE_MAX(nb_desc, 512) +
		rte_lcore_count() * RTE_MEMPOOL_CACHE_MAX_SIZE * 3 / 2;
	OCTO_FOREACH_MEMBER_STATE(p, i, m, OCTO_MEMBER_CONFIGURED) {
		pool = p->args.rx_pool_app ? mp :
			octopus_pool_get(p, m->socket, mp, nb_mbufs);
		if (pool == NULL) {
			rte_free(q);
			return -ENOMEM;
		}
		ret = rte_eth_rx_queue_setup(m->port_id, qid, nb_desc, m->socket,
			conf, pool);
		if (ret < 0) {
			OCTO_LOG(ERR, "port %u: member %s refused Rx queue %u (%u desc): %s",
				p->port_id, m->name, qid, nb_desc, rte_strerror(-ret));
			rte_free(q);
			return ret;
		}
	}
	p->rxq[qid] = q;
	dev->data->rx_queues[qid] = q;
	return 0;
}

static int
octopus_tx_queue_setup(struct rte_eth_dev *dev, uint16_t qid, uint16_t nb_desc,
		unsigned int socket, const struct rte_eth_txconf *conf)
{
	struct octopus_priv *p = octo_priv(dev);
	struct octopus_member *m;
	struct octopus_queue *q;
	uint16_t i;
	int ret;

	q = queue_alloc(dev, qid, socket, true);
	if (q == NULL)
		return -ENOMEM;
	OCTO_FOREACH_MEMBER_STATE(p, i, m, OCTO_MEMBER_CONFIGURED) {
		ret = rte_eth_tx_queue_setup(m->port_id, qid, nb_desc, m->socket, conf);
		if (ret < 0) {
			OCTO_LOG(ERR, "port %u: member %s refused Tx queue %u (%u desc): %s",
				p->port_id, m->name, qid, nb_desc, rte_strerror(-ret));
			rte_free(q);
			return ret;
		}
	}
	p->txq[qid] = q;
	dev->data->tx_queues[qid] = q;
	return 0;
}

static void
octopus_rx_queue_release(struct rte_eth_dev *dev, uint16_t qid)
{
	struct octopus_priv *p = octo_priv(dev);

	rte_free(dev->data->rx_queues[qid]);
	dev->data->rx_queues[qid] = NULL;
	if (qid < OCTOPUS_MAX_QUEUES)
		p->rxq[qid] = NULL;
}

static void
octopus_tx_queue_release(struct rte_eth_dev *dev, uint16_t qid)
{
	struct octopus_priv *p = octo_priv(dev);

	rte_free(dev->data->tx_queues[qid]);
	dev->data->tx_queues[qid] = NULL;
	if (qid < OCTOPUS_MAX_QUEUES)
		p->txq[qid] = NULL;
}

/* ---- start / stop ------------------------------------------------------- */

static void
members_stop(struct octopus_priv *p)
{
	struct octopus_member *m;
	uint16_t i;
	int ret;

	OCTO_FOREACH_MEMBER_STATE(p, i, m, OCTO_MEMBER_STARTED) {
		ret = rte_eth_dev_stop(m->port_id);
		if (ret < 0)
			OCTO_LOG(ERR, "port %u: member %s: stop failed (%d)",
				p->port_id, m->name, ret);
		m->state = OCTO_MEMBER_CONFIGURED;
	}
}

/*
 * A queue without a home from its setup: the socket of its poller in an
 * earlier run when known, else the first member (the datapath binds it to
 * its first poller when there is no steering to update).
 */
static unsigned int
initial_home(struct octopus_priv *p, struct octopus_queue *q)
{
	unsigned int home = OCTO_ROUTE_HOME(q->route);
	int m;

	if (home != OCTOPUS_NO_HOME)
		return home;
	m = q->poller_socket >= 0 ? octopus_member_by_socket(p, q->poller_socket) : -1;
	return m >= 0 ? (unsigned int)m : 0;
}

static int
steering_start(struct octopus_priv *p, uint16_t nb_rxq)
{
	struct octopus_steer_conf conf;
	uint16_t home[OCTOPUS_MAX_QUEUES];
	struct octopus_queue *q;
	uint16_t i;
	int ret;

	if (nb_rxq == 0)
		return 0;	/* Tx only: nothing to steer */
	memset(&conf, 0, sizeof(conf));
	conf.nb_members = p->nb_members;
	for (i = 0; i < p->nb_members; i++)
		conf.member_port[i] = p->members[i].port_id;
	conf.nb_queues = nb_rxq;
	for (i = 0; i < nb_rxq; i++)
		home[i] = (uint16_t)initial_home(p, p->rxq[i]);
	conf.home = home;
	conf.reta_size = p->args.reta_size;
	conf.reta = p->reta;
	conf.field = p->args.field;
	conf.catchall_queue = p->args.catchall_queue;
	p->steer_why[0] = '\0';
	ret = octopus_steer_install(&p->steer, &conf, p->steer_why,
		sizeof(p->steer_why));
	if (ret == -ENOTSUP) {
		p->steer = NULL;
		if (!p->steer_refused_logged)
			OCTO_LOG(NOTICE, "port %u: no e-switch steering (%s): Rx polls the home member, then the others",
				p->port_id, p->steer_why[0] ? p->steer_why : "not supported");
		p->steer_refused_logged = true;
		return 0;
	}
	if (ret < 0) {
		OCTO_LOG(ERR, "port %u: installing steering rules failed: %s",
			p->port_id, rte_strerror(-ret));
		p->steer = NULL;
		return ret;
	}
	/* Steered: each queue's traffic arrives at its home only. */
	for (i = 0; i < nb_rxq; i++) {
		q = p->rxq[i];
		__atomic_store_n(&q->route, OCTO_ROUTE(home[i], home[i], OCTO_ROUTE_STEADY),
			__ATOMIC_RELAXED);
		q->steered = 1;
	}
	return 0;
}

static int
octopus_start(struct rte_eth_dev *dev)
{
	struct octopus_priv *p = octo_priv(dev);
	uint16_t nb_rxq = dev->data->nb_rx_queues;
	uint16_t nb_txq = dev->data->nb_tx_queues;
	struct octopus_member *m;
	uint16_t i;
	int ret;

	for (i = 0; i < nb_rxq; i++)
		if (p->rxq[i] == NULL) {
			OCTO_LOG(ERR, "port %u: Rx queue %u not set up", p->port_id, i);
			return -EINVAL;
		}
	for (i = 0; i < nb_txq; i++)
		if (p->txq[i] == NULL) {
			OCTO_LOG(ERR, "port %u: Tx queue %u not set up", p->port_id, i);
			return -EINVAL;
		}
	OCTO_FOREACH_MEMBER_STATE(p, i, m, OCTO_MEMBER_CONFIGURED) {
		if (m->state == OCTO_MEMBER_STARTED)
			continue;
		ret = rte_eth_dev_start(m->port_id);
		if (ret < 0) {
			OCTO_LOG(ERR, "port %u: member %s refused start: %s",
				p->port_id, m->name, rte_strerror(-ret));
			members_stop(p);
			return ret;
		}
		m->state = OCTO_MEMBER_STARTED;
	}
	for (i = 0; i < nb_rxq; i++) {
		p->rxq[i]->steered = 0;
		octopus_queue_bind(p->rxq[i]);
	}
	for (i = 0; i < nb_txq; i++)
		octopus_queue_bind(p->txq[i]);
	ret = steering_start(p, nb_rxq);
	if (ret < 0) {
		members_stop(p);
		return ret;
	}
	for (i = 0; i < nb_rxq; i++)
		dev->data->rx_queue_state[i] = RTE_ETH_QUEUE_STATE_STARTED;
	for (i = 0; i < nb_txq; i++)
		dev->data->tx_queue_state[i] = RTE_ETH_QUEUE_STATE_STARTED;
	p->started = true;
	octopus_link_update(dev, 0);
	return 0;
}

static int
octopus_stop(struct rte_eth_dev *dev)
{
	struct octopus_priv *p = octo_priv(dev);
	uint16_t i;

	if (p->steer != NULL) {
		octopus_steer_remove(p->steer);
		p->steer = NULL;
	}
	members_stop(p);
	for (i = 0; i < dev->data->nb_rx_queues; i++)
		dev->data->rx_queue_state[i] = RTE_ETH_QUEUE_STATE_STOPPED;
	for (i = 0; i < dev->data->nb_tx_queues; i++)
		dev->data->tx_queue_state[i] = RTE_ETH_QUEUE_STATE_STOPPED;
	p->started = false;
	octopus_link_update(dev, 0);
	return 0;
}

static int
octopus_set_link(struct rte_eth_dev *dev, int up)
{
	struct octopus_priv *p = octo_priv(dev);
	struct octopus_member *m;
	uint16_t i;
	int ret = 0, r;

	/* Best effort on every member: no rollback, a link that failed to
	 * change is reported by the aggregate link status.
	 */
	OCTO_FOREACH_MEMBER_STATE(p, i, m, OCTO_MEMBER_STARTED) {
		r = up ? rte_eth_dev_set_link_up(m->port_id) :
			rte_eth_dev_set_link_down(m->port_id);
		if (r < 0 && ret == 0)
			ret = r;
	}
	octopus_link_update(dev, 0);
	return ret;
}

static int
octopus_set_link_up(struct rte_eth_dev *dev)
{
	return octopus_set_link(dev, 1);
}

static int
octopus_set_link_down(struct rte_eth_dev *dev)
{
	return octopus_set_link(dev, 0);
}

/* Members are closed with the port: their queues use the port's Rx pools,
 * which go away now.
 */
static int
octopus_close(struct rte_eth_dev *dev)
{
	struct octopus_priv *p = octo_priv(dev);
	struct octopus_member *m;
	uint16_t i;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return 0;
	if (p->started)
		octopus_stop(dev);
	for (i = 0; i < dev->data->nb_rx_queues; i++)
		octopus_rx_queue_release(dev, i);
	for (i = 0; i < dev->data->nb_tx_queues; i++)
		octopus_tx_queue_release(dev, i);
	OCTO_FOREACH_MEMBER_STATE(p, i, m, OCTO_MEMBER_OWNED) {
		octopus_events_unregister(dev, m);
		rte_eth_dev_owner_unset(m->port_id, p->owner_id);
		if (m->state >= OCTO_MEMBER_CONFIGURED)
			rte_eth_dev_close(m->port_id);
		m->state = OCTO_MEMBER_PARSED;
	}
	octopus_pools_free(p);
	return 0;
}

static int
octopus_reset(struct rte_eth_dev *dev)
{
	struct octopus_priv *p = octo_priv(dev);
	struct octopus_member *m;
	uint16_t i;
	int ret;

	OCTO_FOREACH_MEMBER_STATE(p, i, m, OCTO_MEMBER_CONFIGURED) {
		ret = rte_eth_dev_reset(m->port_id);
		if (ret < 0) {
			OCTO_LOG(ERR, "port %u: member %s: reset failed (%d)",
				p->port_id, m->name, ret);
			return ret;
		}
		m->state = OCTO_MEMBER_OWNED;
	}
	return 0;
}

/* ---- RETA --------------------------------------------------------------- */

/*
 * The RETA is the steering's default spreading: bucket b (masked bits of
 * the field chosen by spread=) goes to queue reta[b]. Changing an entry
 * rewrites that bucket's classification rule; on failure the entries
 * already changed by this call are put back.
 */
static int
octopus_reta_update(struct rte_eth_dev *dev, struct rte_eth_rss_reta_entry64 *conf,
		uint16_t size)
{
	struct octopus_priv *p = octo_priv(dev);
	uint16_t old[OCTOPUS_RETA_MAX];
	uint16_t b, idx, shift, nb_rxq = dev->data->nb_rx_queues;
	int ret;

	if (size != p->args.reta_size)
		return -EINVAL;
	for (b = 0; b < size; b++) {
		idx = b / RTE_ETH_RETA_GROUP_SIZE;
		shift = b % RTE_ETH_RETA_GROUP_SIZE;
		if ((conf[idx].mask >> shift) & 1 && conf[idx].reta[shift] >= nb_rxq)
			return -EINVAL;
	}
	memcpy(old, p->reta, sizeof(old));
	for (b = 0; b < size; b++) {
		idx = b / RTE_ETH_RETA_GROUP_SIZE;
		shift = b % RTE_ETH_RETA_GROUP_SIZE;
		if (!((conf[idx].mask >> shift) & 1) || p->reta[b] == conf[idx].reta[shift])
			continue;
		if (p->steer != NULL) {
			ret = octopus_steer_set_bucket(p->steer, b, conf[idx].reta[shift]);
			if (ret < 0) {
				OCTO_LOG(ERR, "port %u: RETA bucket %u -> queue %u refused (%d)",
					p->port_id, b, conf[idx].reta[shift], ret);
				while (b-- > 0)
					if (p->reta[b] != old[b] &&
					    octopus_steer_set_bucket(p->steer, b, old[b]) == 0)
						p->reta[b] = old[b];
				return ret;
			}
		}
		p->reta[b] = conf[idx].reta[shift];
	}
	return 0;
}

static int
octopus_reta_query(struct rte_eth_dev *dev, struct rte_eth_rss_reta_entry64 *conf,
		uint16_t size)
{
	struct octopus_priv *p = octo_priv(dev);
	uint16_t b, idx, shift;

	if (size != p->args.reta_size)
		return -EINVAL;
	for (b = 0; b < size; b++) {
		idx = b / RTE_ETH_RETA_GROUP_SIZE;
		shift = b % RTE_ETH_RETA_GROUP_SIZE;
		if ((conf[idx].mask >> shift) & 1)
			conf[idx].reta[shift] = p->reta[b];
	}
	return 0;
}

static int
octopus_rss_conf_get(struct rte_eth_dev *dev, struct rte_eth_rss_conf *rss)
{
	rss->rss_hf = dev->data->dev_conf.rx_adv_conf.rss_conf.rss_hf;
	rss->rss_key_len = 0;
	return 0;
}

static const struct eth_dev_ops octopus_ops = {
	.dev_configure = octopus_configure,
	.dev_start = octopus_start,
	.dev_stop = octopus_stop,
	.dev_set_link_up = octopus_set_link_up,
	.dev_set_link_down = octopus_set_link_down,
	.dev_close = octopus_close,
	.dev_reset = octopus_reset,
	.link_update = octopus_link_update,
	.promiscuous_enable = octopus_promisc_enable,
	.promiscuous_disable = octopus_promisc_disable,
	.allmulticast_enable = octopus_allmulti_enable,
	.allmulticast_disable = octopus_allmulti_disable,
	.mtu_set = octopus_mtu_set,
	.mac_addr_set = octopus_mac_set,
	.mac_addr_add = octopus_mac_add,
	.mac_addr_remove = octopus_mac_remove,
	.vlan_filter_set = octopus_vlan_filter,
	.dev_infos_get = octopus_dev_infos_get,
	.rx_queue_setup = octopus_rx_queue_setup,
	.tx_queue_setup = octopus_tx_queue_setup,
	.rx_queue_release = octopus_rx_queue_release,
	.tx_queue_release = octopus_tx_queue_release,
	.stats_get = octopus_stats_get,
	.stats_reset = octopus_stats_reset,
	.xstats_get = octopus_xstats_get,
	.xstats_get_names = octopus_xstats_get_names,
	.xstats_reset = octopus_xstats_reset,
	.reta_update = octopus_reta_update,
	.reta_query = octopus_reta_query,
	.rss_hash_conf_get = octopus_rss_conf_get,
};

/* ---- probe / remove ----------------------------------------------------- */

static int
octopus_probe(struct rte_vdev_device *vdev)
{
	const char *name = rte_vdev_device_name(vdev);
	struct octopus_args args;
	struct rte_eth_dev *dev;
	struct octopus_priv *p;
	int ret;

	if (rte_eal_process_type() == RTE_PROC_SECONDARY) {
		/* Secondary: same private data (shared memory); can read
		 * stats, xstats and link. Its datapath is not supported.
		 */
		dev = rte_eth_dev_attach_secondary(name);
		if (dev == NULL) {
			OCTO_LOG(ERR, "%s: cannot attach in secondary process", name);
			return -ENODEV;
		}
		dev->dev_ops = &octopus_ops;
		dev->device = &vdev->device;
		dev->rx_pkt_burst = octopus_rx_burst;
		dev->tx_pkt_burst = octopus_tx_burst;
		rte_eth_dev_probing_finish(dev);
		return 0;
	}

	ret = octopus_args_parse(&args, rte_vdev_device_args(vdev));
	if (ret < 0) {
		OCTO_LOG(ERR, "%s: refused (bad devargs)", name);
		return ret;
	}
	dev = rte_eth_vdev_allocate(vdev, sizeof(*p));
	if (dev == NULL)
		return -ENOMEM;
	p = dev->data->dev_private;
	p->port_id = dev->data->port_id;
	p->args = args;
	ret = rte_eth_dev_owner_new(&p->owner_id);
	if (ret < 0)
		goto fail;
	dev->data->mac_addrs = rte_zmalloc_socket(name,
		sizeof(struct rte_ether_addr) * RTE_ETH_NUM_RECEIVE_MAC_ADDR, 0,
		dev->device->numa_node);
	if (dev->data->mac_addrs == NULL) {
		ret = -ENOMEM;
		goto fail;
	}
	dev->dev_ops = &octopus_ops;
	ret = octopus_members_init(p, true);
	if (ret < 0) {
		OCTO_LOG(ERR, "%s: refused", name);
		goto fail;
	}
	if (args.has_mac)
		rte_ether_addr_copy(&args.mac, &dev->data->mac_addrs[0]);
	else if (p->nb_members > 0 && p->members[0].state >= OCTO_MEMBER_OWNED)
		rte_eth_macaddr_get(p->members[0].port_id, &dev->data->mac_addrs[0]);
	else
		rte_eth_random_addr(dev->data->mac_addrs[0].addr_bytes);
	dev->data->dev_flags |= RTE_ETH_DEV_AUTOFILL_QUEUE_XSTATS | RTE_ETH_DEV_INTR_LSC;
	dev->rx_pkt_burst = octopus_rx_burst;
	dev->tx_pkt_burst = octopus_tx_burst;
	rte_eth_dev_probing_finish(dev);
	OCTO_LOG(INFO, "%s: port %u with %u member(s)", name, p->port_id, p->nb_members);
	return 0;
fail:
	/* frees dev_private and mac_addrs */
	rte_eth_dev_release_port(dev);
	return ret;
}

static int
octopus_remove(struct rte_vdev_device *vdev)
{
	struct rte_eth_dev *dev = rte_eth_dev_allocated(rte_vdev_device_name(vdev));

	if (dev == NULL)
		return 0; /* closed already */
	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return rte_eth_dev_release_port(dev);
	/* ethdev refuses to close a started port */
	if (dev->data->dev_started)
		rte_eth_dev_stop(dev->data->port_id);
	return rte_eth_dev_close(dev->data->port_id);
}

static struct rte_vdev_driver octopus_vdev_drv = {
	.probe = octopus_probe,
	.remove = octopus_remove,
};

RTE_PMD_REGISTER_VDEV(net_octopus, octopus_vdev_drv);
RTE_PMD_REGISTER_PARAM_STRING(net_octopus, OCTOPUS_PARAM_STRING);
