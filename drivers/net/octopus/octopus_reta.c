/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/* RETA of the virtual port: the steering's default-spreading buckets. */

#include <errno.h>
#include <string.h>

#include <pthread.h>

#include "octopus_internal.h"

/* After p->reta changed: the set of queues it names. */
void
octopus_reta_changed(struct octopus_priv *p)
{
	uint64_t qs = 0;
	uint16_t b;

	for (b = 0; b < p->args.reta_size; b++)
		qs |= UINT64_C(1) << (p->reta[b] % OCTOPUS_MAX_QUEUES);
	p->reta_queues = qs;
}

/* Put back the buckets changed since @p old (a failed update). */
static void
reta_undo(struct octopus_priv *p, const uint16_t *old, uint16_t size)
{
	uint16_t b;

	pthread_mutex_lock(&p->mig.steer_lock);
	for (b = 0; b < size; b++)
		if (p->reta[b] != old[b] && octopus_steer_set_bucket(p->steer, b, old[b]) == 0)
			p->reta[b] = old[b];
	pthread_mutex_unlock(&p->mig.steer_lock);
	octopus_reta_changed(p);
}

/*
 * The RETA is the steering's default spreading: bucket b (masked bits of
 * the field chosen by spread=) goes to queue reta[b]. Changing an entry
 * rewrites that bucket's classification rule; on failure the entries
 * already changed by this call are put back (not gated).
 *
 * The traffic of a bucket that changes queue is gated as a moved flow's:
 * its new queue delivers nothing until the old one has delivered what it
 * held. The update returns once the rules are replaced; the gates open as
 * the old queues are read. The buckets move one new queue at a time, each
 * step with its gates prepared before its rules change: a queue that
 * receives buckets and gives others away (a rotation, a swap) is then never
 * closed before the drain request it must answer is made (see
 * octopus_gate_prepare).
 */
int
octopus_reta_update(struct rte_eth_dev *dev, struct rte_eth_rss_reta_entry64 *conf,
		uint16_t size)
{
	struct octopus_priv *p = octo_priv(dev);
	pthread_mutex_t *mx = &dev->data->flow_ops_mutex;
	uint16_t old[OCTOPUS_RETA_MAX];
	struct octopus_gate_set gates;
	uint16_t b, idx, shift, d, want, nb_rxq = dev->data->nb_rx_queues;
	int ret = 0;

	if (size != p->args.reta_size)
		return -EINVAL;
	for (b = 0; b < size; b++) {
		idx = b / RTE_ETH_RETA_GROUP_SIZE;
		shift = b % RTE_ETH_RETA_GROUP_SIZE;
		if ((conf[idx].mask >> shift) & 1 && conf[idx].reta[shift] >= nb_rxq)
			return -EINVAL;
	}
	/* the migration control thread and the app's flow ops change the same
	 * rule set under this mutex (see octopus_migrate.c)
	 */
	pthread_mutex_lock(mx);
	memcpy(old, p->reta, sizeof(old));
	for (d = 0; d < nb_rxq && ret == 0; d++) {
		gates.dsts = UINT64_C(1) << d;
		gates.src[d] = 0;
		for (b = 0; b < size; b++) {
			idx = b / RTE_ETH_RETA_GROUP_SIZE;
			shift = b % RTE_ETH_RETA_GROUP_SIZE;
			if ((conf[idx].mask >> shift) & 1 && conf[idx].reta[shift] == d &&
			    p->reta[b] != d)
				gates.src[d] |= UINT64_C(1) << p->reta[b];
		}
		if (gates.src[d] == 0)
			continue;
		/* without steering no rule moves traffic: nothing to gate */
		if (p->steer == NULL)
			gates.src[d] = 0;
		octopus_gate_prepare(p, &gates);
		/* the migration thread changes home rules of the same plan */
		pthread_mutex_lock(&p->mig.steer_lock);
		for (b = 0; b < size && ret == 0; b++) {
			idx = b / RTE_ETH_RETA_GROUP_SIZE;
			shift = b % RTE_ETH_RETA_GROUP_SIZE;
			want = conf[idx].reta[shift];
			if (!((conf[idx].mask >> shift) & 1) || want != d || p->reta[b] == d)
				continue;
			if (p->steer != NULL)
				ret = octopus_steer_set_bucket(p->steer, b, d);
			if (ret < 0)
				OCTO_LOG(ERR, "port %u: RETA bucket %u -> queue %u refused (%d)",
					p->port_id, b, d, ret);
			else
				p->reta[b] = d;
		}
		pthread_mutex_unlock(&p->mig.steer_lock);
		octopus_reta_changed(p);
		if (ret < 0 && p->steer != NULL)
			reta_undo(p, old, size);
		/* the moves made are gated, not their undoing */
		octopus_gate_finish(p, &gates, true);
	}
	pthread_mutex_unlock(mx);
	return ret;
}

int
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

int
octopus_rss_conf_get(struct rte_eth_dev *dev, struct rte_eth_rss_conf *rss)
{
	rss->rss_hf = dev->data->dev_conf.rx_adv_conf.rss_conf.rss_hf;
	rss->rss_key_len = 0;
	return 0;
}
