/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#include "octopus_steer.h"

#include "octo_steer_conf.h"

void
octo_homes_spread(uint16_t *homes, uint16_t nb_q, unsigned int members)
{
	uint16_t q;

	for (q = 0; q < nb_q; q++)
		homes[q] = (uint16_t)(q % members);
}

void
octo_reta_spread(uint16_t *reta, unsigned int n, uint16_t nb_q)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		reta[i] = (uint16_t)(i % nb_q);
}

void
octo_steer_plan_conf_fill(struct octo_steer_plan_conf *c, uint16_t nb_members,
		uint16_t nb_q, const uint16_t *homes, const uint16_t *reta,
		uint16_t reta_size, enum octo_steer_field field)
{
	*c = (struct octo_steer_plan_conf){
		.nb_members = nb_members, .nb_queues = nb_q, .home = homes,
		.reta_size = reta_size, .reta = reta, .field = field,
	};
}

void
octo_steer_conf_fill(struct octopus_steer_conf *c, const uint16_t *ports,
		uint16_t nb_members, uint16_t nb_q, const uint16_t *homes,
		const uint16_t *reta, uint16_t reta_size, enum octo_steer_field field)
{
	uint16_t i;

	*c = (struct octopus_steer_conf){
		.nb_members = nb_members, .nb_queues = nb_q, .home = homes,
		.reta_size = reta_size, .reta = reta, .field = field,
	};
	for (i = 0; i < nb_members; i++)
		c->member_port[i] = ports[i];
}
