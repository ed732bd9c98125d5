/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * net_octopus ethdev glue: probe/remove, configure, start/stop/close/reset
 * and the ops table. Settings in lockstep with rollback are in
 * octopus_lockstep.c, queues in octopus_queues.c, link in octopus_events.c,
 * RETA in octopus_reta.c.
 */

#include <errno.h>
#include <string.h>

#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <bus_vdev_driver.h>
#include <ethdev_vdev.h>

#include "octopus_internal.h"
#include "octopus_flow.h"

RTE_LOG_REGISTER_DEFAULT(octopus_logtype, NOTICE);

/* ---- configure ---------------------------------------------------------- */

/*
 * Resolve the members that exist now (octopus_members_init) and listen to
 * the events of those it took: the port unregisters them at close.
 */
static int
members_attach(struct rte_eth_dev *dev, bool at_probe)
{
	struct octopus_priv *p = octo_priv(dev);
	bool owned[OCTOPUS_MAX_MEMBERS] = { false };
	struct octopus_member *m;
	uint16_t i;
	int ret;

	OCTO_FOREACH_MEMBER(p, i, m)
		owned[i] = m->state >= OCTO_MEMBER_OWNED;
	ret = octopus_members_init(p, at_probe);
	if (ret < 0)
		return ret;
	OCTO_FOREACH_MEMBER_STATE(p, i, m, OCTO_MEMBER_OWNED)
		if (!owned[i])
			octopus_events_listen(dev, m, true);
	return 0;
}

/*
 * members_attach, and a released member taken back stays out of service
 * (released) until the port's configure has configured it: a start
 * without one would otherwise serve it with no queues.
 */
static int
members_reattach(struct rte_eth_dev *dev)
{
	struct octopus_priv *p = octo_priv(dev);
	bool released[OCTOPUS_MAX_MEMBERS] = { false };
	struct octopus_member *m;
	uint16_t i;
	int ret;

	OCTO_FOREACH_MEMBER(p, i, m)
		released[i] = m->state < OCTO_MEMBER_OWNED && m->loss == OCTO_LOSS_RELEASED;
	ret = members_attach(dev, false);
	if (ret < 0)
		return ret;
	OCTO_FOREACH_MEMBER_STATE(p, i, m, OCTO_MEMBER_OWNED)
		if (released[i]) {
			rte_atomic_store_explicit(&m->loss, OCTO_LOSS_RELEASED,
				rte_memory_order_release);
			OCTO_LOG(NOTICE, "port %u: member %s probed again: it serves from the port's next configure",
				p->port_id, m->name);
		}
	return 0;
}

/*
 * Members not found by now (all devices are probed once the application
 * asks) are an error naming them: the capabilities are the members'. A
 * stopped port takes back the released members probed again: the
 * application configures it for them, and ethdev checks that
 * configuration against these capabilities before the port's configure
 * could take them (with every member released, there are none).
 */
static int
octopus_dev_infos_get(struct rte_eth_dev *dev, struct rte_eth_dev_info *info)
{
	struct octopus_priv *p = octo_priv(dev);
	int ret;

	if (rte_eal_process_type() == RTE_PROC_PRIMARY && (octopus_members_missing(p) ||
	    (!dev->data->dev_started && octopus_members_reprobed(p)))) {
		ret = members_reattach(dev);
		if (ret < 0)
			return ret;
		if (!p->args.has_mac && p->members[0].state >= OCTO_MEMBER_OWNED)
			rte_eth_macaddr_get(p->members[0].port_id, &dev->data->mac_addrs[0]);
	}
	return octopus_caps_get(p, info);
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
	bool macs_first, mac_given = false;
	uint16_t nb_rxq = dev->data->nb_rx_queues;
	uint16_t nb_txq = dev->data->nb_tx_queues;
	struct octopus_member *m;
	uint16_t i;
	int ret;

	/* checked before any member is touched: a refusal leaves them as they were */
	if (p->args.catchall_queue >= nb_rxq && nb_rxq > 0)
		return OCTO_ERR(-EINVAL, "port %u: catchall=%u but only %u Rx queues",
			p->port_id, p->args.catchall_queue, nb_rxq);
	ret = members_attach(dev, false);
	if (ret < 0)
		return ret;
	/* The hash key is the member's own (the port's spreading is the
	 * steering's buckets).
	 */
	conf.rx_adv_conf.rss_conf.rss_key = NULL;
	conf.rx_adv_conf.rss_conf.rss_key_len = 0;
	/* interrupts: the ones failover needs, set per member below */
	memset(&conf.intr_conf, 0, sizeof(conf.intr_conf));
	/* separate switch domains: the port's MAC on the first only */
	macs_first = octopus_macs_first_only(p);
	/* What each member had, to put it back if a later member refuses. */
	OCTO_FOREACH_MEMBER_STATE(p, i, m, OCTO_MEMBER_CONFIGURED) {
		struct rte_eth_dev_data *md = rte_eth_devices[m->port_id].data;

		old_conf[i] = md->dev_conf;
		old_nb[i][0] = md->nb_rx_queues;
		old_nb[i][1] = md->nb_tx_queues;
	}
	OCTO_FOREACH_MEMBER_STATE(p, i, m, OCTO_MEMBER_OWNED) {
		/* A member's link and removal events drive failover
		 * (octopus_events.c) whatever the application asked for.
		 */
		conf.intr_conf.lsc = octopus_member_has_lsc(m->port_id);
		conf.intr_conf.rmv = (rte_eth_devices[m->port_id].data->dev_flags &
			RTE_ETH_DEV_INTR_RMV) != 0;
		ret = rte_eth_dev_configure(m->port_id, nb_rxq, nb_txq, &conf);
		if (ret < 0) {
			OCTO_LOG(ERR, "port %u: member %s refused configure (%u rxq, %u txq): %s",
				p->port_id, m->name, nb_rxq, nb_txq, rte_strerror(-ret));
			configure_undo(p, i, old_conf, old_nb);
			return ret;
		}
		m->state = OCTO_MEMBER_CONFIGURED;
		if (m->loss == OCTO_LOSS_RELEASED) {
			/* taken back after its release (members_reattach) */
			rte_atomic_store_explicit(&m->loss, OCTO_LOSS_NONE,
				rte_memory_order_release);
			p->member_returns++;
		}
		if (p->args.has_mac && (!macs_first || !mac_given)) {
			mac_given = true;
			ret = rte_eth_dev_default_mac_addr_set(m->port_id, &p->args.mac);
			if (ret < 0 && ret != -ENOTSUP)
				OCTO_LOG(WARNING, "port %u: member %s keeps its MAC (%d)",
					p->port_id, m->name, ret);
		}
	}
	for (i = 0; i < p->args.reta_size; i++)
		p->reta[i] = nb_rxq ? i % nb_rxq : 0;
	octopus_reta_changed(p);
	return 0;
}

/* ---- start / stop ------------------------------------------------------- */

/*
 * Stop the started members, the transfer proxy last (an e-switch may keep
 * its proxy running while its other ports do: mlx5 answers EBUSY). A
 * member whose stop fails stays started, and so does the proxy then: the
 * error is the caller's, and stopping the port again retries them.
 * @return 0, or the first member's error (logged).
 */
static int
members_stop(struct octopus_priv *p)
{
	uint16_t order[OCTOPUS_MAX_MEMBERS];
	unsigned int n = octopus_members_order(p, order), k;
	const char *failed = NULL;
	struct octopus_member *m;
	int ret, first = 0;

	for (k = n; k-- > 0; ) {
		m = &p->members[order[k]];
		if (m->state < OCTO_MEMBER_STARTED)
			continue;
		if (k == 0 && failed != NULL && n > 1 &&
		    order[0] == octopus_member_proxy(p)) {
			OCTO_LOG(ERR, "port %u: member %s, the transfer proxy, left started: member %s did not stop",
				p->port_id, m->name, failed);
			break;
		}
		ret = rte_eth_dev_stop(m->port_id);
		if (ret < 0) {
			OCTO_LOG(ERR, "port %u: member %s: stop failed: %s; it is still started (stopping the port again retries)",
				p->port_id, m->name, rte_strerror(-ret));
			if (first == 0)
				first = ret;
			failed = m->name;
			continue;
		}
		m->state = OCTO_MEMBER_CONFIGURED;
	}
	return first;
}

/*
 * Why a member found the application's pool short (rx_pool=app): a NIC
 * that fills every Rx queue's ring when it starts (mlx5 does, whatever
 * rx_deferred_start says, and cannot stop a queue under its vector burst)
 * takes a ring per queue on every member from that one pool.
 */
static void
app_pool_short(const struct octopus_priv *p, const struct octopus_member *m)
{
	const struct rte_eth_dev_data *d = rte_eth_devices[p->port_id].data;
	uint16_t nb = RTE_MIN(d->nb_rx_queues, OCTOPUS_MAX_QUEUES), i, j;
	const struct rte_mempool *mp = NULL;
	unsigned int mi = m - p->members;
	uint32_t takes = 0, t;

	/* the first pool that cannot give what the member's queues on it take */
	for (i = 0; i < nb && p->rxq[i] != NULL; i++) {
		mp = p->rxq[i]->mp[mi];
		for (j = 0, t = 0; j < nb && p->rxq[j] != NULL; j++)
			if (p->rxq[j]->mp[mi] == mp)
				t += p->rxq[j]->nb_desc;
		takes = t;
		if (rte_mempool_avail_count(mp) < t)
			break;
	}
	if (mp == NULL)
		return;
	OCTO_LOG(ERR, "port %u: rx_pool=app: pool %s had %u mbufs free (lcore caches included) for member %s, whose Rx queues on it take %u at its start, as on each of the %u members (a NIC that fills its rings at start: mlx5, rx_deferred_start or not): size the pool for them all, or use rx_pool=local",
		p->port_id, mp->name, rte_mempool_avail_count(mp), m->name,
		takes, p->nb_members);
}

/* Start member @p m; @p retry: its second try (see members_start). */
static int
member_start(struct octopus_priv *p, struct octopus_member *m, bool retry)
{
	int ret = rte_eth_dev_start(m->port_id);

	if (ret == 0) {
		m->state = OCTO_MEMBER_STARTED;
		return 0;
	}
	if (ret == -EAGAIN && !retry) {
		OCTO_LOG(INFO, "port %u: member %s: start answered EAGAIN; tried again once the other members run",
			p->port_id, m->name);
		return ret;
	}
	rte_atomic_fetch_add_explicit(&p->start_refusals, 1, rte_memory_order_relaxed);
	if (p->proxy_gone[0] != '\0')
		OCTO_LOG(ERR, "port %u: member %s refused start: %s: its e-switch's transfer proxy, member %s, was released (its NIC starts no other port of that e-switch without it: probe it again, then start the port)",
			p->port_id, m->name, rte_strerror(-ret), p->proxy_gone);
	else
		OCTO_LOG(ERR, "port %u: member %s refused start: %s%s", p->port_id, m->name,
			rte_strerror(-ret), ret == -EAGAIN ?
			" (again after every other member started: its e-switch's transfer "
			"proxy is not one of them, or not started)" :
			"");
	if (ret == -ENOMEM && p->args.rx_pool_app)
		app_pool_short(p, m);
	return ret;
}

/*
 * Start the configured members, the transfer proxy first (an e-switch may
 * refuse its other ports until its proxy runs: mlx5 answers EAGAIN). A
 * member that answers EAGAIN anyway is tried again after all the others.
 * On failure the members started are stopped again.
 */
static int
members_start(struct octopus_priv *p)
{
	uint16_t order[OCTOPUS_MAX_MEMBERS], later[OCTOPUS_MAX_MEMBERS];
	unsigned int n = octopus_members_order(p, order), nb_later = 0, k;
	struct octopus_member *m;
	int ret;

	/* the proxy now: a member probed again (or taken back) may be it */
	p->proxy_member = octopus_member_proxy(p);
	if (p->proxy_member >= 0)
		p->proxy_gone[0] = '\0';
	for (k = 0; k < n; k++) {
		m = &p->members[order[k]];
		if (m->state != OCTO_MEMBER_CONFIGURED)
			continue;
		ret = member_start(p, m, false);
		if (ret == -EAGAIN)
			later[nb_later++] = order[k];
		else if (ret < 0)
			goto fail;
	}
	for (k = 0; k < nb_later; k++) {
		ret = member_start(p, &p->members[later[k]], true);
		if (ret < 0)
			goto fail;
	}
	return 0;
fail:
	members_stop(p);
	return ret;
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

	if (home != OCTOPUS_NO_HOME && octopus_member_serving(p, home))
		return home;
	/* none yet, or one out of service: the serving member nearest to
	 * where it is polled (or was set up)
	 */
	m = octopus_member_nearest(p, q->poller_socket >= 0 ? q->poller_socket :
		q->setup_socket);
	if (home != OCTOPUS_NO_HOME && m >= 0 && q->mig.displaced_from == 0)
		q->mig.displaced_from = home + 1;
	return m >= 0 ? (unsigned int)m : 0;
}

/*
 * A member out of service for its link (or unplugged) whose link came back
 * while the port was stopped serves again (its event came while stopped).
 */
static void
members_recheck(struct octopus_priv *p)
{
	struct octopus_member *m;
	struct rte_eth_link ml;
	uint16_t i;

	OCTO_FOREACH_MEMBER_STATE(p, i, m, OCTO_MEMBER_STARTED) {
		if ((m->loss == OCTO_LOSS_LINK || m->loss == OCTO_LOSS_REMOVED) &&
		    rte_eth_link_get_nowait(m->port_id, &ml) == 0 &&
		    ml.link_status == RTE_ETH_LINK_UP) {
			rte_atomic_store_explicit(&m->loss, OCTO_LOSS_NONE,
				rte_memory_order_release);
			p->member_returns++;
		}
	}
}

/*
 * The steering was refused by members that share one e-switch (a common
 * transfer proxy): a feature of that e-switch is missing, as opposed to
 * members without one, which run unsteered.
 */
static bool
eswitch_lacks(const struct octopus_priv *p, const struct octopus_steer_conf *conf)
{
	uint16_t proxy;
	char why[8];

	return p->nb_members > 1 &&
		octopus_steer_common_proxy(conf->member_port, conf->nb_members, &proxy, why,
			sizeof(why)) == 0;
}

/*
 * Why members that are ports of one device get no steering: the steering's
 * last step, REPRESENTED_PORT to the queue's PF, does not reach that PF's
 * Rx queues there (mlx5's multiport e-switch sends it out of the uplink's
 * physical port, facts T2), and no PF of them is nearer a socket anyway.
 */
static void
one_function_why(const struct octopus_priv *p, char *why, size_t len)
{
	const struct rte_device *d = NULL;
	const struct octopus_member *m;
	int socket = -1;
	uint16_t i;

	OCTO_FOREACH_MEMBER_STATE(p, i, m, OCTO_MEMBER_OWNED)
		if (d == NULL) {
			d = rte_eth_devices[m->port_id].device;
			socket = m->socket;
		}
	snprintf(why, len,
		"the members are ports of one device (%s), on socket %d: every queue's DMA goes through its one function, and a REPRESENTED_PORT to one of them leaves by its physical port instead of reaching its Rx queues (mlx5's multiport e-switch): refused for steering",
		d != NULL ? rte_dev_name(d) : "?", socket);
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
		conf.member_port[i] = p->members[i].state >= OCTO_MEMBER_OWNED ?
			p->members[i].port_id : OCTOPUS_STEER_PORT_ABSENT;
	conf.nb_queues = nb_rxq;
	for (i = 0; i < nb_rxq; i++)
		home[i] = (uint16_t)initial_home(p, p->rxq[i]);
	conf.home = home;
	conf.reta_size = p->args.reta_size;
	conf.reta = p->reta;
	conf.field = p->args.field;
	conf.catchall_queue = p->args.catchall_queue;
	p->steer_why[0] = '\0';
	if (p->one_function) {
		/* nothing it can deliver: not even tried */
		one_function_why(p, p->steer_why, sizeof(p->steer_why));
		ret = -ENOTSUP;
	} else {
		ret = octopus_steer_install(&p->steer, &conf, p->steer_why,
			sizeof(p->steer_why));
	}
	if (ret == -ENOTSUP && !p->one_function && eswitch_lacks(p, &conf)) {
		/* one e-switch that cannot steer is a NIC this port cannot use:
		 * polling every member instead would hide it
		 */
		OCTO_LOG(ERR, "port %u: the members share one e-switch, but it cannot carry the steering: %s",
			p->port_id, p->steer_why);
		p->steer = NULL;
		return ret;
	}
	if (ret == -ENOTSUP) {
		p->steer = NULL;
		if (!p->steer_refused_logged)
			OCTO_LOG(NOTICE, "port %u: no e-switch steering (%s): %s",
				p->port_id, p->steer_why[0] ? p->steer_why : "not supported",
				octopus_locality_says(p));
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
		rte_atomic_store_explicit(&q->route,
			OCTO_ROUTE(home[i], home[i], OCTO_ROUTE_STEADY),
			rte_memory_order_relaxed);
		q->steered = 1;
	}
	return 0;
}

/*
 * Before members that keep no rules across their stop are stopped (ethdev's
 * guide: their user removes the rules first; mlx5 flushes them): the
 * application's rules come off them, kept by the port for its next start.
 */
static void
rules_park(struct octopus_priv *p)
{
	if (octopus_members_keep_rules(p))
		return;
	octopus_tmpl_park(p);
	octopus_flows_park(p);
}

static int
octopus_start(struct rte_eth_dev *dev)
{
	struct octopus_priv *p = octo_priv(dev);
	uint16_t nb_rxq = dev->data->nb_rx_queues;
	uint16_t nb_txq = dev->data->nb_tx_queues;
	uint16_t i;
	int ret;

	for (i = 0; i < nb_rxq; i++)
		if (p->rxq[i] == NULL)
			return OCTO_ERR(-EINVAL, "port %u: Rx queue %u not set up", p->port_id, i);
	for (i = 0; i < nb_txq; i++)
		if (p->txq[i] == NULL)
			return OCTO_ERR(-EINVAL, "port %u: Tx queue %u not set up", p->port_id, i);
	ret = members_start(p);
	if (ret < 0)
		return ret;
	members_recheck(p);
	if (octopus_member_nearest(p, -1) < 0) {
		OCTO_LOG(ERR, "port %u: no member in service", p->port_id);
		members_stop(p);
		return -ENODEV;
	}
	for (i = 0; i < nb_rxq; i++) {
		p->rxq[i]->steered = 0;
		octopus_queue_bind(p->rxq[i]);
	}
	for (i = 0; i < nb_txq; i++) {
		octopus_queue_bind(p->txq[i]);
		/* Tx needs no rule: a home out of service is replaced now */
		if (OCTO_ROUTE_HOME(p->txq[i]->route) != OCTOPUS_NO_HOME) {
			unsigned int h = initial_home(p, p->txq[i]);

			p->txq[i]->route = OCTO_ROUTE(h, h, OCTO_ROUTE_STEADY);
		}
	}
	ret = steering_start(p, nb_rxq);
	if (ret < 0) {
		members_stop(p);
		return ret;
	}
	for (i = 0; i < nb_rxq; i++) {
		struct octopus_queue *q = p->rxq[i];
		unsigned int h = OCTO_ROUTE_HOME(q->route);

		/* unsteered: the home is only polled first */
		if (!q->steered && h != OCTOPUS_NO_HOME && !octopus_member_serving(p, h)) {
			h = initial_home(p, q);
			q->route = OCTO_ROUTE(h, h, OCTO_ROUTE_STEADY);
		}
	}
	/* the app's rules, before the first burst: those the members did not
	 * keep across their stop (taken off at stop, or made while stopped)
	 * and any a member lost meanwhile (logged, not fatal: the others steer)
	 */
	if (p->steer != NULL) {
		octopus_flows_shape_probe(p, octopus_steer_proxy(p->steer));
		octopus_flows_replay(p);
		octopus_tmpl_replay(p);
	}
	ret = octopus_migrate_start(p);
	if (ret < 0) {
		rules_park(p);
		if (p->steer != NULL) {
			octopus_steer_remove(p->steer);
			p->steer = NULL;
		}
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
	int ret;

	/* first: the members' links going down now are no failover */
	p->started = false;
	/* no rule change may run while the rules go */
	octopus_migrate_stop(p);
	rules_park(p);
	if (p->steer != NULL) {
		octopus_steer_remove(p->steer);
		p->steer = NULL;
	}
	ret = members_stop(p);
	for (i = 0; i < dev->data->nb_rx_queues; i++) {
		/* a stopped port holds no frame (nobody polls now) */
		octopus_rx_stash_flush(dev->data->rx_queues[i]);
		dev->data->rx_queue_state[i] = RTE_ETH_QUEUE_STATE_STOPPED;
	}
	for (i = 0; i < dev->data->nb_tx_queues; i++)
		dev->data->tx_queue_state[i] = RTE_ETH_QUEUE_STATE_STOPPED;
	p->started = false;
	octopus_link_update(dev, 0);
	/* ethdev keeps the port started: the application sees the failure
	 * and may stop it again, which retries the members still started
	 */
	return ret;
}

/* Members are closed with the port: their queues use the port's Rx pools,
 * which go away now.
 */
static int
octopus_close(struct rte_eth_dev *dev)
{
	struct octopus_priv *p = octo_priv(dev);
	uint16_t i, order[OCTOPUS_MAX_MEMBERS];
	struct octopus_member *m;
	unsigned int n, k;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return 0;
	if (p->started)
		octopus_stop(dev);
	for (i = 0; i < dev->data->nb_rx_queues; i++)
		octopus_rx_queue_release(dev, i);
	for (i = 0; i < dev->data->nb_tx_queues; i++)
		octopus_tx_queue_release(dev, i);
	/* the app's rules, from the members' e-switch and from memory */
	octopus_tmpl_free(p);
	octopus_flows_free(p);
	/* the transfer proxy last, as at stop */
	n = octopus_members_order(p, order);
	for (k = n; k-- > 0; ) {
		m = &p->members[order[k]];
		if (m->state < OCTO_MEMBER_OWNED)
			continue;
		octopus_events_listen(dev, m, false);
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
		if (ret < 0)
			return OCTO_ERR(ret, "port %u: member %s: reset failed (%d)",
				p->port_id, m->name, ret);
		m->state = OCTO_MEMBER_OWNED;
		/* reset as it asked: it serves again from the next start */
		if (m->loss == OCTO_LOSS_RESET) {
			rte_atomic_store_explicit(&m->loss, OCTO_LOSS_NONE,
				rte_memory_order_release);
			p->member_returns++;
		}
	}
	return 0;
}

OCTO_DPDK_PTYPES_GET_ADAPTER(octopus_ptypes_get)
OCTO_DPDK_STATS_GET_ADAPTER(octopus_stats_get)

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
	.dev_supported_ptypes_get = OCTO_DPDK_PTYPES_GET(octopus_ptypes_get),
	.rx_queue_setup = octopus_rx_queue_setup,
	.tx_queue_setup = octopus_tx_queue_setup,
	.rx_queue_release = octopus_rx_queue_release,
	.tx_queue_release = octopus_tx_queue_release,
	.rxq_info_get = octopus_rxq_info_get,
	.txq_info_get = octopus_txq_info_get,
	.stats_get = OCTO_DPDK_STATS_GET(octopus_stats_get),
	.stats_reset = octopus_stats_reset,
	.xstats_get = octopus_xstats_get,
	.xstats_get_names = octopus_xstats_get_names,
	.xstats_reset = octopus_xstats_reset,
	.reta_update = octopus_reta_update,
	.reta_query = octopus_reta_query,
	.rss_hash_conf_get = octopus_rss_conf_get,
	.flow_ops_get = octopus_flow_ops_get,
	OCTO_DPDK_AGGR_OPS(octopus_count_aggr_ports, octopus_map_aggr_tx_affinity)
};

/*
 * A secondary process reads the primary's port (its private data is in
 * shared memory): information, link, statistics and their resets, as
 * dpdk-proc-info asks. Everything that changes the port is the primary's:
 * not in this table, so ethdev refuses it with -ENOTSUP. Capture
 * (dpdk-dumpcap, pdump) needs nothing here: the primary copies the packets.
 */
static const struct eth_dev_ops octopus_secondary_ops = {
	.dev_infos_get = octopus_dev_infos_get,
	.link_update = octopus_link_update,
	.stats_get = OCTO_DPDK_STATS_GET(octopus_stats_get),
	.stats_reset = octopus_stats_reset,
	.xstats_get = octopus_xstats_get,
	.xstats_get_names = octopus_xstats_get_names,
	.xstats_reset = octopus_xstats_reset,
};

/* ---- probe / remove ----------------------------------------------------- */

static int
octopus_probe(struct rte_vdev_device *vdev)
{
	const char *name = rte_vdev_device_name(vdev);
	const char *params = rte_vdev_device_args(vdev);
	struct octopus_mig mig;
	struct octopus_args args;
	struct rte_eth_dev *dev;
	struct octopus_priv *p;
	int ret;

	if (rte_eal_process_type() == RTE_PROC_SECONDARY) {
		/* Secondary: same private data (shared memory); can read
		 * stats, xstats and link. Its datapath is not supported.
		 */
		dev = rte_eth_dev_attach_secondary(name);
		if (dev == NULL)
			return OCTO_ERR(-ENODEV, "%s: cannot attach in secondary process", name);
		dev->dev_ops = &octopus_secondary_ops;
		dev->device = &vdev->device;
		/* the queues hold member bursts of the primary's address
		 * space: no datapath on the port in a secondary
		 */
		dev->rx_pkt_burst = octopus_burst_none;
		dev->tx_pkt_burst = octopus_burst_none;
		rte_eth_dev_probing_finish(dev);
		return 0;
	}

	ret = octopus_args_parse(&args, params);
	if (ret < 0)
		return OCTO_ERR(ret, "%s: refused (bad devargs)", name);
	/* auto by default: queues follow their pollers with no app change */
	octopus_migrate_init(&mig, !args.migration_manual, args.migrate_after_ms);
	dev = rte_eth_vdev_allocate(vdev, sizeof(*p));
	if (dev == NULL)
		return -ENOMEM;
	p = dev->data->dev_private;
	p->port_id = dev->data->port_id;
	p->proxy_member = -1;
	p->args = args;
	p->mig = mig;
	/* in place: POSIX leaves a copy of a mutex undefined */
	pthread_mutex_init(&p->mig.steer_lock, NULL);
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
	ret = members_attach(dev, true);
	if (ret == 0 && octopus_members_missing(p)) {
		/* members listed after this port: probe them now */
		octopus_members_probe_later();
		ret = members_attach(dev, true);
	}
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
