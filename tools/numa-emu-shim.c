/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Memory policies on emulated NUMA nodes (preloaded by tools/octopus-numa-emu).
 *
 * The emulation shows a process more nodes than the kernel has, so a policy
 * naming an emulated node (EAL's numa_set_preferred(1) before it faults a
 * hugepage in for socket 1) fails with EINVAL, and the node the kernel
 * reports for a page is a real one, never the emulated node EAL asked for.
 * Each emulated node is backed by a real node (OCTOPUS_NUMA_EMU_BACKING, the
 * real node of emulated node 0, 1, ...): this library interposes libnuma's
 * system call wrappers, hands the kernel the backing nodes, and answers with
 * the emulated ones:
 *  - set_mempolicy() and mbind() take emulated node masks;
 *  - get_mempolicy() returns the thread's policy as it was set (emulated
 *    nodes), the emulated nodes in MPOL_F_MEMS_ALLOWED, and, for the node of
 *    a page (MPOL_F_NODE | MPOL_F_ADDR), the emulated node the thread's
 *    policy asks for when the page lies on that node's backing node.  That
 *    last answer is what makes EAL accept a page it just faulted in for an
 *    emulated socket; a thread with no such policy gets the emulated node
 *    recorded for that page by the process that faulted it in
 *    (numa-emu-pages.c: a secondary process), else the real node.
 * move_pages() and /proc/self/numa_maps still speak real nodes (so EAL's
 * --legacy-mem, which sorts pages by numa_maps, is not emulated).
 * Without OCTOPUS_NUMA_EMU_BACKING every call goes to the kernel unchanged.
 */

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <numaif.h>

#include "numa-emu-pages.h"

#define EMU_MAX_NODES 64
#define MASK_BITS 1024
#define WORD_BITS (sizeof(unsigned long) * CHAR_BIT)
#define MASK_WORDS (MASK_BITS / WORD_BITS)

/* backing[i]: real node of emulated node i; nb_emu == 0: not emulating */
static int backing[EMU_MAX_NODES];
static unsigned int nb_emu;

/* The calling thread's policy as set, when it named emulated nodes. */
static __thread int set_valid;
static __thread int set_mode;
static __thread unsigned long set_mask[MASK_WORDS];
/* The calling thread's policy names nodes that are their own backing. */
static __thread int set_plain;

__attribute__((constructor)) static void
emu_init(void)
{
	const char *s = getenv("OCTOPUS_NUMA_EMU_BACKING");
	char *end;
	long v;

	while (s != NULL && *s != '\0' && nb_emu < EMU_MAX_NODES) {
		errno = 0;
		v = strtol(s, &end, 10);
		if (end == s || errno != 0 || v < 0 || v >= MASK_BITS ||
				(*end != ',' && *end != '\0')) {
			nb_emu = 0;	/* malformed: leave everything to the kernel */
			return;
		}
		backing[nb_emu++] = (int)v;
		s = *end == ',' ? end + 1 : end;
	}
}

static int
bit_get(const unsigned long *m, unsigned int bit)
{
	return (m[bit / WORD_BITS] >> (bit % WORD_BITS)) & 1;
}

static void
bit_set(unsigned long *m, unsigned int bit)
{
	m[bit / WORD_BITS] |= 1UL << (bit % WORD_BITS);
}

/* Number of node bits the kernel reads from a mask given with @p maxnode. */
static unsigned int
mask_bits(unsigned long maxnode)
{
	if (maxnode <= 1)
		return 0;
	return maxnode - 1 < MASK_BITS ? (unsigned int)(maxnode - 1) : MASK_BITS;
}

/*
 * The real mask for an emulated one.  Bits beyond the emulated nodes stay
 * as they are (the kernel then judges them).
 * @return 1 when the mask names an emulated node without a real one of the
 * same number on its own backing, i.e. when the kernel needs a translation.
 */
static int
to_real(const unsigned long *emu, unsigned long maxnode, unsigned long *real)
{
	unsigned int n, bits = mask_bits(maxnode);
	int changed = 0;

	memset(real, 0, MASK_WORDS * sizeof(*real));
	for (n = 0; n < bits; n++) {
		if (!bit_get(emu, n))
			continue;
		if (n < nb_emu) {
			bit_set(real, (unsigned int)backing[n]);
			changed |= backing[n] != (int)n;
		} else {
			bit_set(real, n);
		}
	}
	return changed;
}

long
set_mempolicy(int mode, const unsigned long *nmask, unsigned long maxnode)
{
	unsigned long real[MASK_WORDS];
	long ret;

	if (nb_emu == 0 || nmask == NULL || !to_real(nmask, maxnode, real)) {
		ret = syscall(SYS_set_mempolicy, mode, nmask, maxnode);
		if (ret == 0) {
			set_valid = 0;
			set_plain = nmask != NULL && mode != MPOL_DEFAULT;
		}
		return ret;
	}
	ret = syscall(SYS_set_mempolicy, mode, real, (unsigned long)MASK_BITS + 1);
	if (ret == 0) {
		set_valid = 1;
		set_plain = 0;
		set_mode = mode;
		memset(set_mask, 0, sizeof(set_mask));
		memcpy(set_mask, nmask, (mask_bits(maxnode) + WORD_BITS - 1) / WORD_BITS *
			sizeof(*nmask));
	}
	return ret;
}

long
mbind(void *addr, unsigned long len, int mode, const unsigned long *nmask,
		unsigned long maxnode, unsigned int flags)
{
	unsigned long real[MASK_WORDS];

	if (nb_emu == 0 || nmask == NULL || !to_real(nmask, maxnode, real))
		return syscall(SYS_mbind, addr, len, mode, nmask, maxnode, flags);
	return syscall(SYS_mbind, addr, len, mode, real, (unsigned long)MASK_BITS + 1,
		flags);
}

/* Copy @p src (MASK_BITS bits) into a caller's mask of @p maxnode. */
static int
copy_out(unsigned long *dst, unsigned long maxnode, const unsigned long *src)
{
	unsigned int n, bits = mask_bits(maxnode);

	for (n = bits; n < MASK_BITS; n++)
		if (bit_get(src, n)) {
			errno = EINVAL;	/* as the kernel: the mask is too small */
			return -1;
		}
	memset(dst, 0, (bits + WORD_BITS - 1) / WORD_BITS * sizeof(*dst));
	for (n = 0; n < bits; n++)
		if (bit_get(src, n))
			bit_set(dst, n);
	return 0;
}

long
get_mempolicy(int *mode, unsigned long *nmask, unsigned long maxnode, void *addr,
		unsigned int flags)
{
	unsigned long real[MASK_WORDS], emu[MASK_WORDS];
	unsigned int n;
	int recorded;
	long ret;

	if (nb_emu == 0)
		return syscall(SYS_get_mempolicy, mode, nmask, maxnode, addr, flags);

	if (flags == 0 && set_valid) {
		if (nmask != NULL && copy_out(nmask, maxnode, set_mask) < 0)
			return -1;
		if (mode != NULL)
			*mode = set_mode;
		return 0;
	}

	if (flags == MPOL_F_MEMS_ALLOWED) {
		ret = syscall(SYS_get_mempolicy, mode, real, (unsigned long)MASK_BITS + 1,
			addr, flags);
		if (ret < 0)
			return ret;
		memset(emu, 0, sizeof(emu));
		for (n = 0; n < nb_emu; n++)
			if (bit_get(real, (unsigned int)backing[n]))
				bit_set(emu, n);
		return nmask == NULL ? 0 : copy_out(nmask, maxnode, emu);
	}

	ret = syscall(SYS_get_mempolicy, mode, nmask, maxnode, addr, flags);
	if (ret != 0 || flags != (MPOL_F_NODE | MPOL_F_ADDR) || mode == NULL)
		return ret;
	if (set_valid) {
		for (n = 0; n < nb_emu && n < MASK_BITS; n++)
			if (bit_get(set_mask, n) && backing[n] == *mode) {
				*mode = (int)n;
				emu_page_note(addr, *mode);
				break;
			}
		return ret;
	}
	if (set_plain) {
		/* a node that is its own backing: recorded too, so that an
		 * older record for the same file page does not outlive it
		 */
		emu_page_note(addr, *mode);
		return ret;
	}
	/* no policy (a secondary mapping the primary's page): what the
	 * process that faulted it in was told
	 */
	recorded = emu_page_node(addr);
	if (recorded >= 0 && (unsigned int)recorded < nb_emu &&
			backing[recorded] == *mode)
		*mode = recorded;
	return ret;
}
