/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTOPUS_FLOW_TMPL_H
#define OCTOPUS_FLOW_TMPL_H

/*
 * rte_flow's template and asynchronous API on the virtual port, as the
 * rest of the port calls it (its files: octopus_flow_tmpl_priv.h): flow
 * queues, pattern and actions templates, template tables, rules made and
 * destroyed on a flow queue. Every template, table and rule of the
 * application is one on the members' transfer proxy, translated once per
 * template where the template fixes a value and per rule where it does
 * not; application flow queue q is flow queue q of the proxy (and of every
 * member, configured alike).
 */

#include <stdint.h>

struct octopus_priv;
struct rte_eth_dev;
struct rte_flow_ops;

/* The port's template state (priv->tmpl), NULL before rte_flow_configure. */
struct octopus_tmpl;

/*
 * Port @p port, the transfer proxy, was released, and with it every
 * template, table and rule made on it: forget their handles, never to be
 * passed to that port id again; template ops answer ENODEV from then on
 * (octopus_flow_ops.c).
 */
void octopus_tmpl_forget_proxy(struct octopus_priv *p, uint16_t port);

/*
 * Restart, where the members keep no rules across their stop (no
 * FLOW_RULE_KEEP): every template rule taken off the proxy before the
 * members stop (kept in its copy, its handle the application's still),
 * rules made while stopped kept in copies only, and all of them made
 * again at start, before the first burst. Replay: 0, or -EIO when some
 * could not be made (logged; they wait for the next start)
 * (octopus_flow_tmpl_restart.c).
 */
void octopus_tmpl_park(struct octopus_priv *p);
int octopus_tmpl_replay(struct octopus_priv *p);

/*
 * Destroy every rule, table and template on the proxy and free the state
 * (close; octopus_flow_ops.c).
 */
void octopus_tmpl_free(struct octopus_priv *p);

#endif /* OCTOPUS_FLOW_TMPL_H */
