/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Devargs of net_octopus: parsed and checked for form here, before any
 * port exists, so that a malformed argument never leaves a port behind.
 * Whether the named members exist and fit together is checked when they
 * are resolved (octopus_members.c).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_kvargs.h>
#include <rte_pci.h>

#include "octopus_internal.h"

static const char *const valid_keys[] = {
	ARG_MEMBER, ARG_NIC, ARG_SOCKET_OF, ARG_MAC, ARG_RX_POOL, ARG_FORCE,
	ARG_RETA, ARG_SPREAD, ARG_CATCHALL, ARG_MIGRATION, ARG_MIGRATE_AFTER,
	NULL,
};

static int
parse_uint(const char *key, const char *v, unsigned long max, unsigned long *out)
{
	char *end;

	errno = 0;
	if (v == NULL || *v == '\0' || *v == '-')
		goto bad;
	*out = strtoul(v, &end, 0);
	if (errno != 0 || *end != '\0' || *out > max)
		goto bad;
	return 0;
bad:
	return OCTO_ERR(-EINVAL, "%s=%s: expected an integer 0..%" PRIu64, key, v ? v : "",
		(uint64_t)max);
}

static int
member_cb(const char *key, const char *v, void *opaque)
{
	struct octopus_args *a = opaque;
	uint16_t i;

	if (v == NULL || *v == '\0' || strlen(v) >= RTE_ETH_NAME_MAX_LEN)
		return OCTO_ERR(-EINVAL, "%s=%s: empty or too long device name", key, v ? v : "");
	for (i = 0; i < a->nb_names; i++)
		if (strcmp(a->names[i], v) == 0)
			return OCTO_ERR(-EINVAL, "%s=%s: member given twice", key, v);
	if (a->nb_names >= OCTOPUS_MAX_MEMBERS)
		return OCTO_ERR(-E2BIG, "%s=%s: more than %u members", key, v, OCTOPUS_MAX_MEMBERS);
	strlcpy(a->names[a->nb_names++], v, RTE_ETH_NAME_MAX_LEN);
	return 0;
}

/* socket_of is applied after every member= is known (kvargs keeps order
 * per key, not across keys), so collect the raw pairs first.
 */
struct socket_of_list {
	uint16_t n;
	char name[OCTOPUS_MAX_MEMBERS][RTE_ETH_NAME_MAX_LEN];
	int node[OCTOPUS_MAX_MEMBERS];
};

static int
socket_of_cb(const char *key, const char *v, void *opaque)
{
	struct socket_of_list *l = opaque;
	const char *colon = v ? strrchr(v, ':') : NULL;
	unsigned long node;
	size_t len;

	if (colon == NULL || colon == v)
		return OCTO_ERR(-EINVAL, "%s=%s: expected <member>:<node>", key, v ? v : "");
	if (parse_uint(key, colon + 1, OCTOPUS_MAX_SOCKETS - 1, &node) < 0)
		return OCTO_ERR(-EINVAL, "%s=%s: bad node after the last ':'", key, v);
	len = colon - v;
	if (len >= RTE_ETH_NAME_MAX_LEN || l->n >= OCTOPUS_MAX_MEMBERS)
		return OCTO_ERR(-EINVAL, "%s=%s: name too long or too many", key, v);
	memcpy(l->name[l->n], v, len);
	l->name[l->n][len] = '\0';
	l->node[l->n++] = (int)node;
	return 0;
}

static int
nic_cb(const char *key, const char *v, void *opaque)
{
	struct octopus_args *a = opaque;

	if (v == NULL || *v == '\0' || strlen(v) >= RTE_ETH_NAME_MAX_LEN)
		return OCTO_ERR(-EINVAL, "%s=%s: empty or too long device name", key, v ? v : "");
	strlcpy(a->nic, v, sizeof(a->nic));
	return 0;
}

static int
mac_cb(const char *key, const char *v, void *opaque)
{
	struct octopus_args *a = opaque;

	if (v == NULL || rte_ether_unformat_addr(v, &a->mac) < 0 ||
			!rte_is_valid_assigned_ether_addr(&a->mac)) {
		return OCTO_ERR(-EINVAL, "%s=%s: not a unicast MAC address", key, v ? v : "");
	}
	a->has_mac = true;
	return 0;
}

/* A choice of two words: @p no (false) or @p yes (true) */
static int
parse_choice(const char *key, const char *v, const char *no, const char *yes,
		bool *out)
{
	if (v == NULL || (strcmp(v, no) != 0 && strcmp(v, yes) != 0))
		return OCTO_ERR(-EINVAL, "%s=%s: expected %s or %s", key, v ? v : "", no, yes);
	*out = strcmp(v, yes) == 0;
	return 0;
}

static int
rx_pool_cb(const char *key, const char *v, void *opaque)
{
	return parse_choice(key, v, "local", "app",
		&((struct octopus_args *)opaque)->rx_pool_app);
}

static int
force_cb(const char *key, const char *v, void *opaque)
{
	struct octopus_args *a = opaque;
	unsigned long x;

	if (parse_uint(key, v, 1, &x) < 0)
		return -EINVAL;
	a->force_domain = x != 0;
	return 0;
}

static int
reta_cb(const char *key, const char *v, void *opaque)
{
	struct octopus_args *a = opaque;
	unsigned long x;

	if (parse_uint(key, v, OCTOPUS_RETA_MAX, &x) < 0)
		return -EINVAL;
	if (x == 0 || !rte_is_power_of_2(x))
		return OCTO_ERR(-EINVAL, "%s=%s: must be a power of 2 in 1..%u", key, v,
			OCTOPUS_RETA_MAX);
	a->reta_size = (uint16_t)x;
	return 0;
}

static int
spread_cb(const char *key, const char *v, void *opaque)
{
	struct octopus_args *a = opaque;
	int f = octo_steer_field_parse(v);

	if (f >= 0) {
		a->field = (enum octo_steer_field)f;
		return 0;
	}
	return OCTO_ERR(-EINVAL, "%s=%s: expected l4_src, l4_dst, ip_src or ip_dst", key,
		v ? v : "");
}

static int
catchall_cb(const char *key, const char *v, void *opaque)
{
	struct octopus_args *a = opaque;
	unsigned long x;

	if (parse_uint(key, v, OCTOPUS_MAX_QUEUES - 1, &x) < 0)
		return -EINVAL;
	a->catchall_queue = (uint16_t)x;
	return 0;
}

static int
migration_cb(const char *key, const char *v, void *opaque)
{
	return parse_choice(key, v, "auto", "manual",
		&((struct octopus_args *)opaque)->migration_manual);
}

static int
migrate_after_cb(const char *key, const char *v, void *opaque)
{
	struct octopus_args *a = opaque;
	unsigned long x;

	if (parse_uint(key, v, 60000, &x) < 0)
		return -EINVAL;
	a->migrate_after_ms = (uint32_t)x;
	return 0;
}

/* Pairs in @p params, as rte_kvargs counts them (commas outside []). */
static unsigned int
count_pairs(const char *params)
{
	unsigned int n = 1, depth = 0;
	const char *c;

	for (c = params; *c != '\0'; c++) {
		if (*c == '[')
			depth++;
		else if (*c == ']' && depth > 0)
			depth--;
		else if (*c == ',' && depth == 0)
			n++;
	}
	return n;
}

/* Each key's callback, member= first: the others are read against the
 * members.
 */
static int
keys_process(struct rte_kvargs *kv, struct octopus_args *a,
		struct socket_of_list *sol)
{
	const struct {
		const char *key;
		arg_handler_t cb;
		void *opaque;
	} handlers[] = {
		{ ARG_MEMBER, member_cb, a },
		{ ARG_NIC, nic_cb, a },
		{ ARG_SOCKET_OF, socket_of_cb, sol },
		{ ARG_MAC, mac_cb, a },
		{ ARG_RX_POOL, rx_pool_cb, a },
		{ ARG_FORCE, force_cb, a },
		{ ARG_RETA, reta_cb, a },
		{ ARG_SPREAD, spread_cb, a },
		{ ARG_CATCHALL, catchall_cb, a },
		{ ARG_MIGRATION, migration_cb, a },
		{ ARG_MIGRATE_AFTER, migrate_after_cb, a },
	};
	unsigned int i;
	int ret;

	for (i = 0; i < RTE_DIM(handlers); i++) {
		ret = rte_kvargs_process(kv, handlers[i].key, handlers[i].cb,
			handlers[i].opaque);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/*
 * Parse @p params into @p a. Every refusal logs which argument is wrong.
 * @return 0 or a negative errno.
 */
int
octopus_args_parse(struct octopus_args *a, const char *params)
{
	struct socket_of_list sol = { .n = 0 };
	struct rte_kvargs *kv = NULL;
	uint16_t i, j;
	int ret = 0;

	memset(a, 0, sizeof(*a));
	a->reta_size = OCTOPUS_RETA_DEFAULT;
	a->field = OCTO_STEER_FIELD_L4_SRC;
	a->migrate_after_ms = OCTO_MIG_AFTER_MS;
	for (i = 0; i < OCTOPUS_MAX_MEMBERS; i++)
		a->socket_of[i] = -1;
	if (params != NULL && *params != '\0') {
		if (count_pairs(params) > RTE_KVARGS_MAX)
			return OCTO_ERR(-E2BIG, "%u key=value pairs: DPDK's kvargs takes at most %u (%u members at most)",
				count_pairs(params), RTE_KVARGS_MAX, OCTOPUS_MAX_MEMBERS);
		kv = rte_kvargs_parse(params, valid_keys);
		if (kv == NULL)
			return OCTO_ERR(-EINVAL, "cannot parse \"%s\": unknown key or bad syntax"
				" (keys: %s)", params, OCTOPUS_PARAM_STRING);
	}
	if (kv == NULL)
		goto check;
	/* One rule for both drivers (net_octonic too): a key given twice is
	 * refused, not "last wins"; member= and socket_of= repeat by design,
	 * one per member.
	 */
	for (i = 0; valid_keys[i] != NULL; i++) {
		if (strcmp(valid_keys[i], ARG_MEMBER) == 0 ||
				strcmp(valid_keys[i], ARG_SOCKET_OF) == 0 ||
				rte_kvargs_count(kv, valid_keys[i]) <= 1)
			continue;
		ret = OCTO_ERR(-EINVAL, "%s= given twice: only member= and socket_of= (one per member) may repeat",
			valid_keys[i]);
		goto out;
	}
	ret = keys_process(kv, a, &sol);
	if (ret < 0)
		goto out;
check:
	if (a->nb_names == 0 && a->nic[0] == '\0') {
		ret = OCTO_ERR(-EINVAL, "no member: give member=<dev> (one per PF) or nic=<dev>");
		goto out;
	}
	if (a->nb_names > 0 && a->nic[0] != '\0') {
		ret = OCTO_ERR(-EINVAL, "member= and nic= are exclusive");
		goto out;
	}
	/* With nic= the member names are only known at resolution: keep the
	 * socket_of pairs by name there (names[] is filled then).
	 */
	for (j = 0; j < sol.n; j++) {
		if (a->nic[0] != '\0') {
			if (a->nb_names >= OCTOPUS_MAX_MEMBERS)
				break;
			/* stash: resolved against discovered names later */
			strlcpy(a->names[a->nb_names], sol.name[j], RTE_ETH_NAME_MAX_LEN);
			a->socket_of[a->nb_names++] = sol.node[j];
			continue;
		}
		for (i = 0; i < a->nb_names; i++)
			if (strcmp(a->names[i], sol.name[j]) == 0)
				break;
		if (i == a->nb_names) {
			ret = OCTO_ERR(-EINVAL, "socket_of=%s:%d: %s is not a member",
				sol.name[j], sol.node[j], sol.name[j]);
			goto out;
		}
		if (a->socket_of[i] >= 0) {
			ret = OCTO_ERR(-EINVAL, "socket_of given twice for %s", sol.name[j]);
			goto out;
		}
		a->socket_of[i] = sol.node[j];
	}
out:
	rte_kvargs_free(kv);
	return ret < 0 ? ret : 0;
}

/*
 * Member names: the full ethdev name of a PCI port given by a short form,
 * beside the names as given (member=, nic=): here, outside EAL, so that
 * the devargs' unit test checks it.
 */

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
