/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef RTE_PMD_OCTOPUS_H
#define RTE_PMD_OCTOPUS_H

/**
 * @file
 * net_octopus: one DPDK port over the per-socket PFs of a NIC.
 *
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 */

#include <stdint.h>

#include <rte_compat.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif /* RTE_PMD_OCTOPUS_H */
