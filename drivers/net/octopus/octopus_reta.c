/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/* RETA of the virtual port: the steering's default-spreading buckets. */

#include <errno.h>
#include <string.h>

#include <pthread.h>

#include "octopus_internal.h"

/*
 * The RETA is the steering's default spreading: bucket b (masked bits of
 * the field chosen by spread=) goes to queue reta[b]. Changing an entry
 * rewrites that bucket's classification rule; on failure the entries
 * already changed by this call are put back.
 */
int
octopus_reta_update(struct rte_eth_dev *dev, struct rte_eth_rss_reta_entry64 *conf,
		uint16_t size)
{
	struct octopus_priv *p = octo_priv(dev);
	pthread_mutex_t *mx = &dev->data->flow_ops_mutex;
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
	/* the migration control thread and the app's flow ops change the same
	 * rule set under this mutex (see octopus_migrate.c)
	 */
	pthread_mutex_lock(mx);
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
				pthread_mutex_unlock(mx);
				return ret;
			}
		}
		p->reta[b] = conf[idx].reta[shift];
	}
	pthread_mutex_unlock(mx);
	return 0;
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
