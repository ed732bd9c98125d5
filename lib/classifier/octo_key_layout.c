/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/* Compact hash keys for tuple-space tables (see struct octo_key_layout).
 * Why compact: at 100k rules a table outgrows the caches and the TLB, and
 * the bytes each lookup touches decide its cost.
 */

#include <string.h>

#include <rte_common.h>

#include "octo_classifier.h"

void
octo_key_layout_init(struct octo_key_layout *l, const struct octo_flow_key *mask)
{
	/* Key lengths whose key + 8-byte value divides a cache line or is a
	 * whole number of them.
	 */
	static const uint8_t lens[] = { 8, 24, 56, OCTO_KEY_LEN_MAX };
	const uint8_t *mb = (const uint8_t *)mask;
	uint32_t i, need;

	RTE_BUILD_BUG_ON(sizeof(uint32_t) * (1 + OCTO_KEY_WORDS) > OCTO_KEY_LEN_MAX);
	memset(l, 0, sizeof(*l));
	for (i = 0; i < OCTO_KEY_WORDS; i++) {
		uint32_t w;

		memcpy(&w, mb + i * sizeof(w), sizeof(w));
		if (w == 0)
			continue;
		l->word[l->nb_words] = (uint8_t)i;
		l->mask[l->nb_words] = w;
		l->nb_words++;
	}
	need = sizeof(uint32_t) * (1 + l->nb_words);
	for (i = 0; lens[i] < need; i++)
		;
	l->key_len = lens[i];
}
