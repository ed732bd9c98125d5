/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTOPUS_FLOW_BUILD_H
#define OCTOPUS_FLOW_BUILD_H

/*
 * octopus_flow_build.c: an application rule to the planner's input, a
 * planner entry to the member rule, and what a pattern says of the
 * default bucket its traffic hits.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_flow.h>

#include "octo_steer_app.h"
#include "octopus_steer.h"
#include "octopus_flow_types.h"

struct octopus_priv;

/* An application rule for the planner; -errno with @p error set when the port refuses it. */
int octopus_flow_parse(const struct octopus_priv *p, const struct rte_flow_attr *attr,
		const struct rte_flow_item pattern[], const struct rte_flow_action actions[],
		struct octopus_flow_parsed *out, struct rte_flow_error *error);
/*
 * Create (validate_only == 0) or validate the member rule of planner entry
 * @p e for an application rule of pattern @p pattern on port @p proxy,
 * writing META the way @p how says (the proxy's answer).
 * @return 0 and *flow set (create), 1 when the entry cannot match anything
 * the pattern matches (skipped, nothing created), or -errno with @p error set.
 */
int octopus_flow_hw_make(uint16_t proxy, enum octopus_steer_meta_write how, bool wire,
		const struct rte_flow_item pattern[],
		const struct octo_steer_app_entry *e,
		int validate_only, struct rte_flow **flow, struct rte_flow_error *error);

/* Spec/mask size of the items the port takes, 0 for the others (VOID too). */
size_t octopus_flow_item_size(enum rte_flow_item_type t);
/* Default bucket of a pattern's traffic, -1 when it spans several. */
int octopus_flow_bucket_of(enum octo_steer_field spread, uint16_t reta_size,
		const struct rte_flow_item pattern[]);
/*
 * The default bucket of the rules of one pattern template: its item types
 * and masks decide all but the spec bytes of the spreading field, which
 * octopus_flow_bucket_run() reads from a rule's pattern. The same as
 * octopus_flow_bucket_of() on the rule's specs under the template's masks
 * (an item the template leaves unmasked: no spec): where the masks cover
 * the bucket bits, those bits of the field are the bucket, the masks take
 * none of them away.
 */
struct octopus_flow_bucket_prog {
	int16_t item;		/* the item holding the field, -1: every rule -1 */
	uint8_t off;		/* the field's place in that item's spec */
	uint8_t width;		/* its bytes (big endian): 2 or 4 */
	uint32_t need;		/* the bucket bits: reta_size - 1 */
};

/* The program of a template of items @p tmpl (types and masks). */
void octopus_flow_bucket_prog_make(enum octo_steer_field spread, uint16_t reta_size,
		const struct rte_flow_item tmpl[], struct octopus_flow_bucket_prog *bp);

/* Default bucket of a rule of pattern @p pattern (specs) under @p bp; -1: several. */
static inline int
octopus_flow_bucket_run(const struct octopus_flow_bucket_prog *bp,
		const struct rte_flow_item pattern[])
{
	const uint8_t *spec;
	uint32_t v32;
	uint16_t v16;

	if (bp->item < 0)
		return -1;
	spec = pattern[bp->item].spec;
	if (spec == NULL)
		return -1;
	if (bp->width == 2) {
		memcpy(&v16, spec + bp->off, sizeof(v16));
		return (int)(rte_be_to_cpu_16(v16) & bp->need);
	}
	memcpy(&v32, spec + bp->off, sizeof(v32));
	return (int)(rte_be_to_cpu_32(v32) & bp->need);
}

/* Hash of attr and pattern (same rule matching the same traffic). */
uint32_t octopus_flow_key(const struct rte_flow_attr *attr,
		const struct rte_flow_item pattern[]);

#endif /* OCTOPUS_FLOW_BUILD_H */
