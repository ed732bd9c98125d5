/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTOPUS_FLOW_MARK_H
#define OCTOPUS_FLOW_MARK_H

/*
 * octopus_flow_mark.c: the shapes the members' e-switch takes, and MARK
 * and FLAG in the members' ingress where the e-switch refuses them in
 * transfer rules.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_flow.h>

#include "octo_steer_app.h"
#include "octopus_flow_types.h"

struct octopus_priv;

/*
 * What the e-switch behind @p proxy takes, asked by
 * creating probe rules (octopus_steer_probe) where @p may_create and the
 * members take rules now, and kept; otherwise by validate alone, not kept.
 */
int octopus_flow_shape_get(struct octopus_priv *p, uint16_t proxy, bool may_create,
		struct octopus_flow_shape *sh, struct rte_flow_error *error);
/* Give @p f a tag when its MARK/FLAG goes to the ingress stage (@p sh). */
int octopus_flow_mark_tag(struct octopus_priv *p, struct octopus_flow *f,
		const struct octopus_flow_shape *sh, struct rte_flow_error *error);
/* Create @p f's ingress MARK/FLAG rules for its entries @p e (none without a tag). */
int octopus_flow_mark_install(struct octopus_priv *p, struct octopus_flow *f,
		const struct octo_steer_app_entry *e, uint32_t nb, struct rte_flow_error *error);
/* Validate the ingress MARK/FLAG rules rule @p a (with a tag) would have. */
int octopus_flow_mark_validate(struct octopus_priv *p, const struct octo_steer_app_rule *a,
		const struct octo_steer_app_entry *e, uint32_t nb, struct rte_flow_error *error);
/* Remove @p f's ingress MARK/FLAG rules and free its tag. */
void octopus_flow_mark_remove(struct octopus_priv *p, struct octopus_flow *f);
/* Create those of @p f missing on a member (one that came back). */
int octopus_flow_mark_fill(struct octopus_priv *p, struct octopus_flow *f,
		struct rte_flow_error *error);
/* Port @p port was released: @p f's rules on it went with it. */
void octopus_flow_mark_forget(struct octopus_priv *p, struct octopus_flow *f, uint16_t port);
/* Free the tag map (close). */
void octopus_flow_mark_release(struct octopus_flows *fl);

#endif /* OCTOPUS_FLOW_MARK_H */
