/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Member names: the full ethdev name of a PCI port given by a short form,
 * beside the names as given (member=, nic=). Its own file, below the
 * members' lookup and outside EAL, so that the devargs' unit test checks
 * it.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_pci.h>

#include "octopus_internal.h"

/*
 * The full ethdev name of a PCI port named in its short form, "BB:DD.F"
 * for "DDDD:BB:DD.F", keeping a port suffix "_pN" (mlx5 names the uplinks
 * of a multiport e-switch "<pci>_p0", "<pci>_p1", facts T4).
 * @return 0 with @p out set, -EINVAL when @p name is no PCI address.
 */
int
octopus_member_name_full(const char *name, char *out, size_t len)
{
	char pci[RTE_ETH_NAME_MAX_LEN];
	const char *suffix = strrchr(name, '_');
	struct rte_pci_addr addr;
	size_t n;

	/* "_p" and digits, or no suffix */
	if (suffix != NULL && (suffix[1] != 'p' || suffix[2] == '\0' ||
			strspn(suffix + 2, "0123456789") != strlen(suffix + 2)))
		suffix = NULL;
	n = suffix != NULL ? (size_t)(suffix - name) : strlen(name);
	if (n == 0 || n >= sizeof(pci))
		return -EINVAL;
	memcpy(pci, name, n);
	pci[n] = '\0';
	if (rte_pci_addr_parse(pci, &addr) != 0)
		return -EINVAL;
	rte_pci_device_name(&addr, pci, sizeof(pci));
	if ((size_t)snprintf(out, len, "%s%s", pci, suffix != NULL ? suffix : "") >= len)
		return -EINVAL;
	return 0;
}
