/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTO_STEER_CONF_H
#define OCTO_STEER_CONF_H

/*
 * The steering configurations the tests give the planner
 * (octo_steer_plan_conf) and the port's steering (octopus_steer_conf):
 * homes, a RETA and the rest, all zero but what is named.
 */

#include <stdint.h>

#include "octo_steering.h"

/* the port's (drivers/net/octopus/octopus_steer.h) */
struct octopus_steer_conf;

/* queue q's home: member q mod @p members, for @p nb_q queues */
void octo_homes_spread(uint16_t *homes, uint16_t nb_q, unsigned int members);

/* bucket i to queue i mod @p nb_q, for @p n buckets */
void octo_reta_spread(uint16_t *reta, unsigned int n, uint16_t nb_q);

/* The planner's configuration: catchall queue 0, class and home groups 0. */
void octo_steer_plan_conf_fill(struct octo_steer_plan_conf *c, uint16_t nb_members,
		uint16_t nb_q, const uint16_t *homes, const uint16_t *reta,
		uint16_t reta_size, enum octo_steer_field field);

/* The port's: the same, over member ports @p ports (@p nb_members of them). */
void octo_steer_conf_fill(struct octopus_steer_conf *c, const uint16_t *ports,
		uint16_t nb_members, uint16_t nb_q, const uint16_t *homes,
		const uint16_t *reta, uint16_t reta_size, enum octo_steer_field field);

#endif /* OCTO_STEER_CONF_H */
