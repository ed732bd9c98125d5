/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef NUMA_EMU_PAGES_H
#define NUMA_EMU_PAGES_H

/* Record that the file page mapped at @p addr is on emulated @p node. */
void emu_page_note(const void *addr, int node);

/* The emulated node recorded for the page at @p addr, or -1. */
int emu_page_node(const void *addr);

#endif /* NUMA_EMU_PAGES_H */
