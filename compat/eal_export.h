/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTOPUS_EAL_EXPORT_H
#define OCTOPUS_EAL_EXPORT_H

/*
 * Symbol export markers as DPDK 25.11 writes them beside each exported
 * definition.  They expand to nothing: the build reads them from the
 * sources (buildtools/gen-version-map.py) and makes the linker's version
 * script.  DPDK keeps its own eal_export.h inside its tree, so a driver
 * built out of tree gets the markers from this one.
 */
#ifndef RTE_EXPORT_SYMBOL
#define RTE_EXPORT_SYMBOL(symbol)
#endif
#ifndef RTE_EXPORT_EXPERIMENTAL_SYMBOL
#define RTE_EXPORT_EXPERIMENTAL_SYMBOL(symbol, ver)
#endif
#ifndef RTE_EXPORT_INTERNAL_SYMBOL
#define RTE_EXPORT_INTERNAL_SYMBOL(symbol)
#endif

#endif /* OCTOPUS_EAL_EXPORT_H */
