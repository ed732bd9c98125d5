/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * rte_pmd_octonic.h: what a real NIC would not offer (fault injection,
 * generator and sink, locality and rule counters).  Control path: these
 * may take the engine lock and wait for a running engine pass.
 */

#include <errno.h>
#include <netinet/in.h>
#include <stdbool.h>

#include <eal_export.h>
#include <rte_ethdev.h>

#include "octo_wire.h"
#include "octonic_internal.h"
#include "rte_pmd_octonic.h"

static struct octonic_pf *
pf_get(uint16_t port_id)
{
	struct rte_eth_dev *dev;

	if (!rte_eth_dev_is_valid_port(port_id))
		return NULL;
	dev = &rte_eth_devices[port_id];
	if (!octonic_is_octonic(dev))
		return NULL;
	return dev->data->dev_private;
}

/*
 * The checks a call makes first, in the order the API documents them:
 * an octonic PF (-ENODEV), a valid argument (-EINVAL), and for @p gen
 * a NIC with a generator (-ENOTSUP).
 */
static int
pf_check(uint16_t port_id, bool arg_ok, bool gen, struct octonic_pf **pf)
{
	*pf = pf_get(port_id);
	if (*pf == NULL)
		return -ENODEV;
	if (!arg_ok)
		return -EINVAL;
	return gen && (*pf)->nic->gen == NULL ? -ENOTSUP : 0;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_pmd_octonic_pf_info, 0.1)
int
rte_pmd_octonic_pf_info(uint16_t port_id, struct rte_pmd_octonic_pf_info *info)
{
	struct octonic_pf *pf;
	struct octonic_nic *nic;
	uint16_t i;
	int ret = pf_check(port_id, info != NULL, false, &pf);

	if (ret != 0)
		return ret;
	nic = pf->nic;
	memset(info, 0, sizeof(*info));
	info->pf = pf->idx;
	info->nb_pfs = nic->nb_pfs;
	info->socket_id = pf->socket;
	for (i = 0; i < nic->nb_pfs && i < RTE_DIM(info->pf_port); i++)
		info->pf_port[i] = nic->pf[i] != NULL ?
			nic->pf[i]->port_id : RTE_MAX_ETHPORTS;
	return 0;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_pmd_octonic_locality_get, 0.1)
int
rte_pmd_octonic_locality_get(uint16_t port_id, uint16_t queue_id, int tx,
		struct rte_pmd_octonic_locality *loc)
{
	struct octonic_pf *pf;
	struct octonic_qcnt c;
	int ret = pf_check(port_id, loc != NULL, false, &pf);

	if (ret != 0)
		return ret;
	if (!octonic_qcnt(pf->dev->data, queue_id, tx, &c))
		return -EINVAL;
	/* since the queue's last stats reset */
	loc->remote_dma_pkts = c.eng.remote_dma_pkts;
	loc->remote_dma_bytes = c.eng.remote_dma_bytes;
	loc->remote_polls = c.poll.remote_polls;
	loc->polls = c.poll.polls;
	return 0;
}

static void
link_changed(struct octonic_pf *pf)
{
	struct rte_eth_dev *dev = pf->dev;
	struct rte_eth_link link;

	rte_eth_linkstatus_get(dev, &link);
	link.link_status = pf->started && octonic_pf_up(pf) ?
		RTE_ETH_LINK_UP : RTE_ETH_LINK_DOWN;
	if (rte_eth_linkstatus_set(dev, &link) != 0)
		return;		/* unchanged */
	if (dev->data->dev_conf.intr_conf.lsc)
		rte_eth_dev_callback_process(dev, RTE_ETH_EVENT_INTR_LSC, NULL);
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_pmd_octonic_unplug, 0.1)
int
rte_pmd_octonic_unplug(uint16_t port_id)
{
	struct octonic_pf *pf = pf_get(port_id);

	if (pf == NULL)
		return -ENODEV;
	if (!pf->plugged)
		return -EALREADY;
	/* the engine checks plugged per packet; take its lock so that no
	 * packet is DMA-written into this PF after we return
	 */
	rte_spinlock_lock(&pf->nic->engine_lock);
	pf->plugged = 0;
	rte_spinlock_unlock(&pf->nic->engine_lock);
	link_changed(pf);
	OCTONIC_LOG(NOTICE, "%s: unplugged", pf->dev->data->name);
	rte_eth_dev_callback_process(pf->dev, RTE_ETH_EVENT_INTR_RMV, NULL);
	return 0;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_pmd_octonic_plug, 0.1)
int
rte_pmd_octonic_plug(uint16_t port_id)
{
	struct octonic_pf *pf = pf_get(port_id);

	if (pf == NULL)
		return -ENODEV;
	if (pf->plugged)
		return -EALREADY;
	rte_spinlock_lock(&pf->nic->engine_lock);
	pf->plugged = 1;
	pf->rmv_notified = 0;
	rte_spinlock_unlock(&pf->nic->engine_lock);
	OCTONIC_LOG(NOTICE, "%s: plugged", pf->dev->data->name);
	link_changed(pf);
	return 0;
}

/*
 * As mlx5_dev_interrupt_device_fatal: every port of the device is gone at
 * once; each whose application asked for removal interrupts
 * (intr_conf.rmv) hears it, once.  Under topology=mpesw or octonic that
 * is every PF of the NIC, under separate the one PF.
 */
RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_pmd_octonic_device_fatal, 0.1)
int
rte_pmd_octonic_device_fatal(uint16_t port_id)
{
	struct octonic_pf *pf = pf_get(port_id), *q;
	const struct rte_device *device;
	struct octonic_nic *nic;
	uint16_t i, hit = 0;

	if (pf == NULL)
		return -ENODEV;
	nic = pf->nic;
	device = pf->dev->device;
	rte_spinlock_lock(&nic->engine_lock);
	for (i = 0; i < nic->nb_pfs; i++) {
		q = nic->pf[i];
		if (q == NULL || q->dev->device != device)
			continue;
		hit += q->plugged;
		q->plugged = 0;
	}
	rte_spinlock_unlock(&nic->engine_lock);
	if (hit == 0)
		return -EALREADY;
	OCTONIC_LOG(NOTICE, "%s: device %s failed: its ports are gone",
		pf->dev->data->name, pf->dev_name);
	for (i = 0; i < nic->nb_pfs; i++) {
		q = nic->pf[i];
		if (q != NULL && q->dev->device == device)
			link_changed(q);
	}
	for (i = 0; i < nic->nb_pfs; i++) {
		q = nic->pf[i];
		if (q == NULL || q->dev->device != device || q->rmv_notified ||
				!q->dev->data->dev_conf.intr_conf.rmv)
			continue;
		q->rmv_notified = 1;
		rte_eth_dev_callback_process(q->dev, RTE_ETH_EVENT_INTR_RMV, NULL);
	}
	return 0;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_pmd_octonic_datapath_get, 0.1)
int
rte_pmd_octonic_datapath_get(uint16_t port_id,
		struct rte_pmd_octonic_datapath *dp)
{
	struct octonic_pf *pf;
	const struct octonic_devargs *da;
	int ret = pf_check(port_id, dp != NULL, false, &pf);

	if (ret != 0)
		return ret;
	da = &pf->nic->args;
	memset(dp, 0, sizeof(*dp));
	dp->topology = da->topology == OCTONIC_TOPO_MPESW ?
		RTE_PMD_OCTONIC_TOPOLOGY_MPESW :
		da->topology == OCTONIC_TOPO_SEPARATE ?
		RTE_PMD_OCTONIC_TOPOLOGY_SEPARATE : RTE_PMD_OCTONIC_TOPOLOGY_OCTONIC;
	dp->rx_step = da->rx_step;
	dp->rx_ring_mlx5 = da->rx_ring == OCTONIC_RX_RING_MLX5;
	dp->tx_comp_every = da->tx_comp_every;
	dp->tx_cleanup = da->tx_cleanup;
	dp->rx_burst_max = rte_atomic_load_explicit(&pf->rx_burst_max,
		rte_memory_order_relaxed);
	dp->pci_socket_id = pf->pci_socket;
	return 0;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_pmd_octonic_reset_raise, 0.1)
int
rte_pmd_octonic_reset_raise(uint16_t port_id)
{
	struct octonic_pf *pf = pf_get(port_id);

	if (pf == NULL)
		return -ENODEV;
	if (pf->reset_pending)
		return -EALREADY;
	/* as for an unplug: no packet is DMA-written into it after this */
	rte_spinlock_lock(&pf->nic->engine_lock);
	pf->reset_pending = 1;
	rte_spinlock_unlock(&pf->nic->engine_lock);
	OCTONIC_LOG(NOTICE, "%s: device needs a reset", pf->dev->data->name);
	/* the reset request first, as a VF's PMD reports its PF's reset:
	 * the users hear why before they see the link go
	 */
	rte_eth_dev_callback_process(pf->dev, RTE_ETH_EVENT_INTR_RESET, NULL);
	link_changed(pf);
	return 0;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_pmd_octonic_rx_burst_max, 0.1)
int
rte_pmd_octonic_rx_burst_max(uint16_t port_id, uint16_t max)
{
	struct octonic_pf *pf = pf_get(port_id);

	if (pf == NULL)
		return -ENODEV;
	rte_atomic_store_explicit(&pf->rx_burst_max, max,
		rte_memory_order_relaxed);
	return 0;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_pmd_octonic_rx_stall, 0.1)
int
rte_pmd_octonic_rx_stall(uint16_t port_id, uint32_t us)
{
	struct octonic_pf *pf = pf_get(port_id);

	if (pf == NULL)
		return -ENODEV;
	/* the state before the request: the burst that takes it sets INSIDE */
	rte_atomic_store_explicit(&pf->rx_stall_state,
		us != 0 ? RTE_PMD_OCTONIC_STALL_ARMED : RTE_PMD_OCTONIC_STALL_NONE,
		rte_memory_order_relaxed);
	rte_atomic_store_explicit(&pf->rx_stall_us, us, rte_memory_order_release);
	return 0;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_pmd_octonic_rx_stall_state, 0.1)
int
rte_pmd_octonic_rx_stall_state(uint16_t port_id)
{
	struct octonic_pf *pf = pf_get(port_id);

	if (pf == NULL)
		return -ENODEV;
	return rte_atomic_load_explicit(&pf->rx_stall_state, rte_memory_order_acquire);
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_pmd_octonic_rx_count_zero, 0.1)
int
rte_pmd_octonic_rx_count_zero(uint16_t port_id, int on)
{
	struct octonic_pf *pf = pf_get(port_id);

	if (pf == NULL)
		return -ENODEV;
	rte_atomic_store_explicit(&pf->rx_count_zero, on != 0,
		rte_memory_order_relaxed);
	return 0;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_pmd_octonic_sink_stats_get, 0.1)
int
rte_pmd_octonic_sink_stats_get(uint16_t port_id,
		struct rte_pmd_octonic_sink_stats *st)
{
	struct octonic_pf *pf;
	struct octo_sink_stats s;
	int ret = pf_check(port_id, st != NULL, false, &pf);

	if (ret != 0)
		return ret;
	if (pf->nic->sink == NULL)
		return -ENOTSUP;
	rte_spinlock_lock(&pf->nic->engine_lock);
	octo_sink_stats(pf->nic->sink, &s);
	rte_spinlock_unlock(&pf->nic->engine_lock);
	st->pkts = s.pkts;
	st->in_order = s.in_order;
	st->out_of_order = s.out_of_order;
	st->duplicates = s.duplicates;
	st->lost = s.lost;
	st->foreign = s.foreign;
	return 0;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_pmd_octonic_gen_get, 0.1)
int
rte_pmd_octonic_gen_get(uint16_t port_id, struct rte_pmd_octonic_gen_conf *c)
{
	struct octonic_pf *pf;
	struct octonic_nic *nic;
	int ret = pf_check(port_id, c != NULL, true, &pf);

	if (ret != 0)
		return ret;
	nic = pf->nic;
	memset(c, 0, sizeof(*c));
	c->nb_flows = nic->args.flows;
	c->pkt_len = nic->args.pkt_len;
	c->ipv6 = nic->args.ipv6;
	c->l4_proto = nic->args.l4_proto;
	c->rate_pps = nic->gen_rate;
	c->limit = nic->gen_limit;
	return 0;
}

/* A configuration the generator can make frames of */
static bool
gen_conf_ok(const struct rte_pmd_octonic_gen_conf *c)
{
	return c != NULL && c->nb_flows != 0 && c->pkt_len <= OCTONIC_MAX_FRAME &&
		c->ipv6 <= 1 && octo_gen_min_len(c->ipv6, c->l4_proto) != 0 &&
		c->pkt_len >= octo_gen_min_len(c->ipv6, c->l4_proto);
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_pmd_octonic_gen_set, 0.1)
int
rte_pmd_octonic_gen_set(uint16_t port_id, const struct rte_pmd_octonic_gen_conf *c)
{
	struct octonic_pf *pf;
	struct octo_gen_conf gc;
	struct octo_gen *g;
	struct octo_sink *s;
	struct octo_latency *lat;
	struct octonic_nic *nic;
	int ret = pf_check(port_id, gen_conf_ok(c), true, &pf);

	if (ret != 0)
		return ret;
	nic = pf->nic;
	memset(&gc, 0, sizeof(gc));
	gc.nb_flows = c->nb_flows;
	gc.pkt_len = c->pkt_len;
	gc.ipv6 = c->ipv6;
	gc.l4_proto = c->l4_proto;
	gc.seed = 1;
	g = octo_gen_create(&gc);
	s = octo_sink_create(c->nb_flows);
	lat = octo_latency_create(c->nb_flows, OCTONIC_LAT_WINDOW_LOG2);
	if (g == NULL || s == NULL || lat == NULL) {
		octo_gen_free(g);
		octo_sink_free(s);
		octo_latency_free(lat);
		return -ENOMEM;
	}
	octonic_engine_gen_addr(nic, g);
	/* new flows restart their sequences: the sink starts afresh too */
	rte_spinlock_lock(&nic->engine_lock);
	octo_gen_free(nic->gen);
	octo_sink_free(nic->sink);
	octo_latency_free(nic->lat);
	nic->gen = g;
	nic->sink = s;
	nic->lat = lat;
	nic->args.flows = c->nb_flows;
	nic->args.pkt_len = c->pkt_len;
	nic->args.ipv6 = c->ipv6;
	nic->args.l4_proto = c->l4_proto;
	nic->gen_rate = c->rate_pps;
	nic->gen_limit = c->limit;
	nic->gen_count = 0;
	nic->gen_credit = 0;
	nic->gen_last_tsc = 0;
	rte_atomic_store_explicit(&nic->gen_overflow, 0, rte_memory_order_relaxed);
	rte_spinlock_unlock(&nic->engine_lock);
	return 0;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_pmd_octonic_gen_enable, 0.1)
int
rte_pmd_octonic_gen_enable(uint16_t port_id, int on)
{
	struct octonic_pf *pf;
	int ret = pf_check(port_id, true, true, &pf);

	if (ret != 0)
		return ret;
	/* under the engine's lock: a pass that read gen_on before the pause
	 * has delivered its frames (or counted them missed) by the time the
	 * pause returns, so the generated count is final from then on
	 */
	rte_spinlock_lock(&pf->nic->engine_lock);
	pf->nic->gen_on = on != 0;
	/* a paced schedule restarts at the resume: the pause is not an
	 * overflow
	 */
	pf->nic->gen_credit = 0;
	pf->nic->gen_last_tsc = 0;
	rte_spinlock_unlock(&pf->nic->engine_lock);
	return 0;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_pmd_octonic_gen_count, 0.1)
int
rte_pmd_octonic_gen_count(uint16_t port_id, uint64_t *generated)
{
	struct octonic_pf *pf;
	int ret = pf_check(port_id, generated != NULL, true, &pf);

	if (ret != 0)
		return ret;
	*generated = RELAXED_GET(&pf->nic->gen_count);
	return 0;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_pmd_octonic_flow_stats_get, 0.1)
int
rte_pmd_octonic_flow_stats_get(uint16_t port_id,
		struct rte_pmd_octonic_flow_stats *st)
{
	struct octonic_pf *pf;
	struct octonic_eswitch_stats s;
	int ret = pf_check(port_id, st != NULL, false, &pf);

	if (ret != 0)
		return ret;
	octonic_eswitch_stats_get(pf->dom->sw, &s);
	st->creates = s.creates;
	st->destroys = s.destroys;
	st->transfer_rules = s.transfer_rules;
	st->ingress_rules = pf->sw_pf < RTE_DIM(s.ingress_rules) ?
		s.ingress_rules[pf->sw_pf] : 0;
	st->grace_periods = s.grace_periods;
	st->grace_wait_ns = s.grace_wait_ns;
	st->grace_wait_max_ns = s.grace_wait_max_ns;
	st->grace_sleeps = s.grace_sleeps;
	return 0;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_pmd_octonic_flow_room_set, 0.1)
int
rte_pmd_octonic_flow_room_set(uint16_t port_id, uint32_t rules)
{
	struct octonic_pf *pf = pf_get(port_id);

	if (pf == NULL)
		return -ENODEV;
	octonic_eswitch_room_set(pf->dom->sw, rules);
	return 0;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_pmd_octonic_flow_dump, 0.1)
int
rte_pmd_octonic_flow_dump(uint16_t port_id, FILE *f)
{
	struct octonic_pf *pf;
	int ret = pf_check(port_id, f != NULL, false, &pf);

	if (ret != 0)
		return ret;
	return octonic_eswitch_dump(pf->dom->sw, f);
}
