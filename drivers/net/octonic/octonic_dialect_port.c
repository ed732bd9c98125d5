/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * What the mlx5 dialects do to a port's start and stop: a stop flushes
 * the rules made on the port, and under hardware steering the transfer
 * proxy (PF0) starts first and stops last (octonic.rst "Dialects", rows F7
 * and F8, with the mlx5 functions and log lines each follows).  generic
 * keeps its rules, in any order.
 */

#include <errno.h>

#include <rte_errno.h>

#include "octonic_internal.h"

static int
mlx5(const struct octonic_nic *nic)
{
	return nic->args.dialect != OCTONIC_DIALECT_GENERIC;
}

static int
hws(const struct octonic_nic *nic)
{
	return nic->args.dialect == OCTONIC_DIALECT_MLX5_HWS;
}

static const char *
dialect_name(const struct octonic_nic *nic)
{
	return hws(nic) ? "mlx5-hws" : "mlx5-sws";
}

uint64_t
octonic_dialect_dev_capa(const struct octonic_nic *nic)
{
	/* The model has no shared object (indirect action) to lose: the
	 * flag is true of it, as mlx5 states it.
	 */
	return mlx5(nic) ? RTE_ETH_DEV_CAPA_FLOW_SHARED_OBJECT_KEEP :
		RTE_ETH_DEV_CAPA_FLOW_RULE_KEEP;
}

int
octonic_dialect_create_check(const struct rte_eth_dev *dev,
		struct rte_flow_error *error)
{
	const struct octonic_nic *nic = octonic_pf_of(dev)->nic;

	if (!mlx5(nic) || dev->data->dev_started)
		return 0;
	return rte_flow_error_set(error, ENODEV, RTE_FLOW_ERROR_TYPE_UNSPECIFIED,
		NULL, hws(nic) ?
		"mlx5-hws: port not started (rules are made on a started port: "
		"a stop flushes them)" :
		"mlx5-sws: port not started (rules are made on a started port: "
		"a stop flushes them)");
}

int
octonic_dialect_start_check(const struct octonic_pf *pf)
{
	const struct octonic_nic *nic = pf->nic;
	const struct octonic_pf *proxy;
	const char *d = dialect_name(nic);

	if (!hws(nic) || pf->sw_pf == 0)
		return 0;
	proxy = nic->pf[pf->dom->first_pf];
	if (proxy == NULL) {
		/* PF0's port closed: no transfer proxy */
		return OCTONIC_ERR(-ENODEV, "%s: Starting representor port %u is not allowed. Transfer proxy port is not available.",
			d, pf->port_id);
	}
	if (!octonic_eswitch_flow_ctx(pf->dom->sw, 0)) {
		OCTONIC_LOG(DEBUG, "%s: Starting representor port %u is allowed, but default traffic flows will not be created. Transfer proxy port must be configured for HWS and started.",
			d, pf->port_id);
		return 0;
	}
	if (!proxy->dev->data->dev_started)
		return OCTONIC_ERR(-EAGAIN, "%s: Failed to start port %u: transfer proxy (port %u) must be started",
			d, pf->port_id, proxy->port_id);
	/* 22.11, with representor matching (its default): the port needs a
	 * flow engine of its own (25.11 makes it at the start)
	 */
	if (nic->args.mlx5_dpdk < OCTONIC_MLX5_DPDK_25_11 &&
			!octonic_eswitch_flow_ctx(pf->dom->sw, pf->sw_pf))
		return OCTONIC_ERR(-EINVAL, "%s: Failed to start port %u: with representor matching enabled, port must be configured for HWS",
			d, pf->port_id);
	return 0;
}

void
octonic_dialect_started(const struct octonic_pf *pf)
{
	if (hws(pf->nic))
		octonic_eswitch_port_started(pf->dom->sw, pf->sw_pf);
}

int
octonic_dialect_stop_check(const struct octonic_pf *pf)
{
	const struct octonic_nic *nic = pf->nic;
	uint16_t i;

	if (!hws(nic) || pf->sw_pf != 0 || !octonic_eswitch_flow_ctx(pf->dom->sw, 0))
		return 0;
	for (i = 0; i < nic->nb_pfs; i++)
		if (nic->pf[i] != NULL && nic->pf[i] != pf && nic->pf[i]->dom == pf->dom &&
		    nic->pf[i]->dev->data->dev_started)
			return OCTONIC_ERR(-EBUSY, "%s: Failed to stop port %u: attached representor ports must be stopped before stopping transfer proxy port",
				dialect_name(nic), pf->port_id);
	return 0;
}

void
octonic_dialect_stopped(const struct octonic_pf *pf)
{
	if (mlx5(pf->nic))
		octonic_eswitch_port_stopped(pf->dom->sw, pf->sw_pf);
}
