/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Devargs of net_octonic.  Pure: no EAL, no logging (the caller logs the
 * message written into err), so tests/octonic/test_devargs.c can run it.
 */

#include <ctype.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_kvargs.h>
#include <octopus_dpdk_compat.h>

#include "octo_wire.h"
#include "octonic_devargs.h"

/* Highest NUMA node a numa= entry may name (EAL checks the real count). */
#define OCTONIC_MAX_NODE 7

void
octonic_devargs_default(struct octonic_devargs *da)
{
	memset(da, 0, sizeof(*da));
	da->nb_pfs = 2;
	da->mac = OCTONIC_MAC_SHARED;
	da->wire = OCTONIC_WIRE_GEN;
	da->flows = 64;
	da->pkt_len = 64;
	da->l4_proto = IPPROTO_UDP;
	da->mlx5_dpdk = OCTO_DPDK_MLX5_MODEL;
	da->topology = OCTONIC_TOPO_OCTONIC;
	da->rx_step = 1;
	da->rx_ring = OCTONIC_RX_RING_PLAIN;
	da->tx_comp_every = 1;
	da->tx_cleanup = 1;
	da->nudma_dma = OCTONIC_NUDMA_DMA_FLUSH;
}

static int
fail(char *err, size_t err_len, const char *fmt, ...)
{
	va_list ap;
	char *c;

	if (err != NULL && err_len > 0) {
		va_start(ap, fmt);
		vsnprintf(err, err_len, fmt, ap);
		va_end(ap);
		/* the message quotes the input: a newline or other control
		 * character in a key or value must not break it (or a log
		 * line) in two
		 */
		for (c = err; *c != '\0'; c++)
			if (iscntrl((unsigned char)*c))
				*c = '?';
	}
	return -EINVAL;
}

/* A decimal number in [lo, hi]: digits only, no sign, no trailing junk. */
static int
parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (s == NULL || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

/* "a:b:c": one node per PF, counted into *n. */
static int
parse_numa(const char *s, int16_t *nodes, uint16_t *n)
{
	char buf[64];
	char *tok, *save = NULL;
	uint64_t v;

	if (s == NULL || strlen(s) >= sizeof(buf) || *s == '\0')
		return -1;
	/* strtok_r would accept "0::1" or a trailing ':' silently */
	if (s[0] == ':' || s[strlen(s) - 1] == ':' || strstr(s, "::") != NULL)
		return -1;
	strcpy(buf, s);
	*n = 0;
	for (tok = strtok_r(buf, ":", &save); tok != NULL;
			tok = strtok_r(NULL, ":", &save)) {
		if (*n >= OCTONIC_MAX_PFS ||
				parse_u64(tok, 0, OCTONIC_MAX_NODE, &v) != 0)
			return -1;
		nodes[(*n)++] = (int16_t)v;
	}
	return 0;
}

/* Keys that configure the generator: meaningless unless wire=gen. */
static int
generator_key(const char *key)
{
	static const char *const gen_keys[] = {
		"flows", "pkt_len", "proto", "ipv6", "gen_rate", "gen_limit",
		"gen_pause",
	};
	unsigned int i;

	for (i = 0; i < RTE_DIM(gen_keys); i++)
		if (strcmp(key, gen_keys[i]) == 0)
			return 1;
	return 0;
}

static const char *
proto_name(uint8_t l4_proto)
{
	switch (l4_proto) {
	case IPPROTO_TCP:
		return "TCP";
	case IPPROTO_SCTP:
		return "SCTP";
	case IPPROTO_ICMP:
		return "ICMP";
	case IPPROTO_ICMPV6:
		return "ICMPv6";
	default:
		return "UDP";
	}
}

/* A word a devarg may take, and the value stored for it. */
struct devarg_word {
	const char *name;
	uint64_t value;
};

#define WORDS(...) ((const struct devarg_word[]){ __VA_ARGS__, { NULL, 0 } })

/*
 * A devarg stored in one field of struct octonic_devargs: one of @p words,
 * or without them a number in [min, max]; @p given (when not 0) is the
 * offset of the field's "was present" flag.  A row of size 0 is a key
 * apply() parses itself.  The rows are every key the driver takes.
 */
struct devarg_field {
	const char *key;
	size_t off;
	size_t size;
	size_t given;
	uint64_t min;
	uint64_t max;
	const struct devarg_word *words;
};

#define DA_OFF(f) offsetof(struct octonic_devargs, f)
#define DA_SIZE(f) RTE_SIZEOF_FIELD(struct octonic_devargs, f)

static const struct devarg_field devarg_fields[] = {
	{ "pfs", DA_OFF(nb_pfs), DA_SIZE(nb_pfs), 0, 1, OCTONIC_MAX_PFS, NULL },
	{ .key = "numa" },
	{ .key = "wire" },
	{ "mac", DA_OFF(mac), DA_SIZE(mac), DA_OFF(mac_given), 0, 0,
		WORDS({ "shared", OCTONIC_MAC_SHARED }, { "per-pf", OCTONIC_MAC_PER_PF }) },
	{ "flows", DA_OFF(flows), DA_SIZE(flows), 0, 1, 1u << 24, NULL },
	{ "pkt_len", DA_OFF(pkt_len), DA_SIZE(pkt_len), DA_OFF(pkt_len_given),
		64, OCTONIC_MAX_FRAME, NULL },
	{ "proto", DA_OFF(l4_proto), DA_SIZE(l4_proto), 0, 0, 0,
		WORDS({ "udp", IPPROTO_UDP }, { "tcp", IPPROTO_TCP }, { "sctp", IPPROTO_SCTP },
			{ "icmp", IPPROTO_ICMP }, { "icmp6", IPPROTO_ICMPV6 }) },
	{ "ipv6", DA_OFF(ipv6), DA_SIZE(ipv6), 0, 0, 1, NULL },
	/* 1 Gpps is far beyond what a software NIC model produces */
	{ "gen_rate", DA_OFF(gen_rate), DA_SIZE(gen_rate), 0, 0, 1000000000ull, NULL },
	{ "gen_limit", DA_OFF(gen_limit), DA_SIZE(gen_limit), 0, 0, UINT64_MAX, NULL },
	{ "gen_pause", DA_OFF(gen_pause), DA_SIZE(gen_pause), 0, 0, 0,
		WORDS({ "skip", OCTONIC_GEN_PAUSE_SKIP }, { "owe", OCTONIC_GEN_PAUSE_OWE }) },
	{ "nudma_dma_ns", DA_OFF(nudma_dma_ns), DA_SIZE(nudma_dma_ns), 0, 0, 100000, NULL },
	{ "nudma_dma", DA_OFF(nudma_dma), DA_SIZE(nudma_dma), 0, 0, 0,
		WORDS({ "flush", OCTONIC_NUDMA_DMA_FLUSH }, { "wait", OCTONIC_NUDMA_DMA_WAIT }) },
	{ "nudma_poll_ns", DA_OFF(nudma_poll_ns), DA_SIZE(nudma_poll_ns), 0, 0, 100000, NULL },
	{ "dialect", DA_OFF(dialect), DA_SIZE(dialect), 0, 0, 0,
		WORDS({ "generic", OCTONIC_DIALECT_GENERIC },
			{ "mlx5-sws", OCTONIC_DIALECT_MLX5_SWS },
			{ "mlx5-hws", OCTONIC_DIALECT_MLX5_HWS }) },
	{ "xmeta", DA_OFF(xmeta), DA_SIZE(xmeta), DA_OFF(xmeta_given),
		0, OCTONIC_XMETA_MAX, NULL },
	{ "mlx5_dpdk", DA_OFF(mlx5_dpdk), DA_SIZE(mlx5_dpdk), DA_OFF(mlx5_dpdk_given), 0, 0,
		WORDS({ "22.11", OCTONIC_MLX5_DPDK_22_11 }, { "25.11", OCTONIC_MLX5_DPDK_25_11 }) },
	{ "fdb_mark", DA_OFF(fdb_mark), DA_SIZE(fdb_mark), 0, 0, 1, NULL },
	{ "topology", DA_OFF(topology), DA_SIZE(topology), 0, 0, 0,
		WORDS({ "octonic", OCTONIC_TOPO_OCTONIC }, { "mpesw", OCTONIC_TOPO_MPESW },
			{ "separate", OCTONIC_TOPO_SEPARATE }) },
	{ "rx_step", DA_OFF(rx_step), DA_SIZE(rx_step), 0, 1, OCTONIC_RX_STEP_MAX, NULL },
	{ "rx_ring", DA_OFF(rx_ring), DA_SIZE(rx_ring), 0, 0, 0,
		WORDS({ "plain", OCTONIC_RX_RING_PLAIN }, { "mlx5", OCTONIC_RX_RING_MLX5 }) },
	{ "tx_comp_every", DA_OFF(tx_comp_every), DA_SIZE(tx_comp_every), 0,
		1, OCTONIC_TX_COMP_EVERY_MAX, NULL },
	{ "tx_cleanup", DA_OFF(tx_cleanup), DA_SIZE(tx_cleanup), 0, 0, 1, NULL },
	{ "tx_read_ns", DA_OFF(tx_read_ns), DA_SIZE(tx_read_ns), 0,
		0, OCTONIC_TX_READ_NS_MAX, NULL },
};

/* The row of @p key; NULL for a key the driver does not take. */
static const struct devarg_field *
field_of(const char *key)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(devarg_fields); i++)
		if (strcmp(key, devarg_fields[i].key) == 0)
			return &devarg_fields[i];
	return NULL;
}

/* Store @p v into a field of @p size bytes at @p off (the table's fields). */
static void
field_store(struct octonic_devargs *da, size_t off, size_t size, uint64_t v)
{
	uint8_t *at = (uint8_t *)da + off;
	uint32_t v32 = (uint32_t)v;
	uint16_t v16 = (uint16_t)v;
	uint8_t v8 = (uint8_t)v;

	if (size == sizeof(v))
		memcpy(at, &v, size);
	else if (size == sizeof(v32))
		memcpy(at, &v32, size);
	else if (size == sizeof(v16))
		memcpy(at, &v16, size);
	else
		memcpy(at, &v8, sizeof(v8));
}

/* A devarg of the table: 0, or -1 for a value it does not take. */
static int
apply_field(struct octonic_devargs *da, const struct devarg_field *f, const char *val)
{
	const struct devarg_word *w;
	uint64_t v;

	if (f->words == NULL) {
		if (parse_u64(val, f->min, f->max, &v) != 0)
			return -1;
	} else {
		for (w = f->words; w->name != NULL; w++)
			if (strcmp(val, w->name) == 0)
				break;
		if (w->name == NULL)
			return -1;
		v = w->value;
	}
	field_store(da, f->off, f->size, v);
	if (f->given != 0)
		field_store(da, f->given, 1, 1);
	return 0;
}

static int
apply(struct octonic_devargs *da, const struct devarg_field *f, const char *val,
		uint16_t *nb_numa, char *err, size_t err_len)
{
	int bad = 0;

	if (val == NULL || *val == '\0') {
		bad = 1;
	} else if (f->size != 0) {
		bad = apply_field(da, f, val) != 0;
	} else if (strcmp(f->key, "numa") == 0) {
		bad = parse_numa(val, da->numa, nb_numa) != 0;
		if (!bad)
			da->numa_given = 1;
	} else if (strcmp(val, "gen") == 0) {	/* the other row: wire= */
		da->wire = OCTONIC_WIRE_GEN;
	} else if (strcmp(val, "loop") == 0) {
		da->wire = OCTONIC_WIRE_LOOP;
	} else if (strlen(val) >= sizeof(da->wire_name)) {
		bad = 1;
	} else {
		da->wire = OCTONIC_WIRE_ETHDEV;
		strcpy(da->wire_name, val);
	}
	if (bad)
		return fail(err, err_len, "invalid value '%s' for devarg '%s'",
			val != NULL ? val : "", f->key);
	return 0;
}

/*
 * The datapath keys not given take the dialect's values: mlx5-hws is a
 * ConnectX under DPDK's mlx5 (steps of 4, its descriptor ring, a Tx
 * completion every 32 descriptors, no tx_done_cleanup, Tx posts read
 * within microseconds of their doorbell); the others keep
 * the lenient datapath.
 */
static void
datapath_defaults(struct octonic_devargs *da, const struct rte_kvargs *kv)
{
	int hws = da->dialect == OCTONIC_DIALECT_MLX5_HWS;

	if (!hws)
		return;
	if (rte_kvargs_count(kv, "rx_step") == 0)
		da->rx_step = OCTONIC_MLX5_RX_STEP;
	if (rte_kvargs_count(kv, "rx_ring") == 0)
		da->rx_ring = OCTONIC_RX_RING_MLX5;
	if (rte_kvargs_count(kv, "tx_comp_every") == 0)
		da->tx_comp_every = OCTONIC_MLX5_TX_COMP_EVERY;
	if (rte_kvargs_count(kv, "tx_cleanup") == 0)
		da->tx_cleanup = 0;
	if (rte_kvargs_count(kv, "tx_read_ns") == 0)
		da->tx_read_ns = OCTONIC_MLX5_TX_READ_NS;
}

/* What topology= asks of the other keys; 0 or a refusal. */
static int
topology_check(struct octonic_devargs *da, char *err, size_t err_len)
{
	switch (da->topology) {
	case OCTONIC_TOPO_MPESW:
		/* mlx5.rst: the multiport e-switch runs with hardware
		 * steering only; its uplinks have a MAC each
		 */
		if (da->dialect != OCTONIC_DIALECT_MLX5_HWS)
			return fail(err, err_len,
				"devarg 'topology=mpesw' needs dialect=mlx5-hws (mlx5's multiport e-switch runs with hardware steering only)");
		if (!da->mac_given)
			da->mac = OCTONIC_MAC_PER_PF;
		return 0;
	case OCTONIC_TOPO_SEPARATE:
		/* a multi-host NIC delivers by MAC: one per PF */
		if (da->mac_given && da->mac != OCTONIC_MAC_PER_PF)
			return fail(err, err_len,
				"devarg 'topology=separate' needs mac=per-pf (frames go to the PF whose MAC they carry)");
		da->mac = OCTONIC_MAC_PER_PF;
		return 0;
	default:
		return 0;
	}
}

/* The keys that only a dialect of mlx5 takes, against the dialect given. */
static int
dialect_keys_check(const struct octonic_devargs *da, char *err, size_t err_len)
{
	/* xmeta= is mlx5's dv_xmeta_en: meaningless to the generic dialect,
	 * and mode 4 exists only with hardware steering (mlx5.rst, 22.11).
	 */
	if (da->xmeta_given &&
			da->dialect == OCTONIC_DIALECT_GENERIC)
		return fail(err, err_len,
			"devarg 'xmeta' needs dialect=mlx5-sws or dialect=mlx5-hws");
	if (da->xmeta == 4 &&
			da->dialect == OCTONIC_DIALECT_MLX5_SWS)
		return fail(err, err_len,
			"devarg 'xmeta=4' is a hardware-steering mode: it needs dialect=mlx5-hws");
	if (da->mlx5_dpdk_given &&
			da->dialect == OCTONIC_DIALECT_GENERIC)
		return fail(err, err_len,
			"devarg 'mlx5_dpdk' needs dialect=mlx5-sws or dialect=mlx5-hws");
	/* the capability matters to hardware steering from 25.03 on only */
	if (da->fdb_mark &&
			(da->dialect != OCTONIC_DIALECT_MLX5_HWS ||
			da->mlx5_dpdk < OCTONIC_MLX5_DPDK_25_11))
		return fail(err, err_len,
			"devarg 'fdb_mark' needs dialect=mlx5-hws and mlx5_dpdk=25.11");
	return 0;
}

int
octonic_devargs_parse(const char *args, struct octonic_devargs *da,
		char *err, size_t err_len)
{
	const char *gen_key = NULL;	/* first generator key given */
	struct rte_kvargs *kv;
	uint16_t nb_numa = 0, min_len;
	unsigned int i, j;
	int ret = 0;

	octonic_devargs_default(da);
	if (err != NULL && err_len > 0)
		err[0] = '\0';
	if (args == NULL || *args == '\0')
		return 0;
	/* no valid-key list: we want to name an unknown key ourselves */
	kv = rte_kvargs_parse(args, NULL);
	if (kv == NULL)
		return fail(err, err_len, "malformed devargs '%s'", args);
	for (i = 0; i < kv->count && ret == 0; i++) {
		const char *key = kv->pairs[i].key;
		const struct devarg_field *f = field_of(key);

		if (f == NULL) {
			ret = fail(err, err_len, "unknown devarg '%s'", key);
			break;
		}
		for (j = 0; j < i; j++)
			if (strcmp(kv->pairs[j].key, key) == 0)
				break;
		if (j < i) {
			ret = fail(err, err_len, "devarg '%s' given twice", key);
			break;
		}
		ret = apply(da, f, kv->pairs[i].value, &nb_numa, err, err_len);
		if (ret == 0 && gen_key == NULL && generator_key(key))
			gen_key = key;
	}
	if (ret == 0)
		datapath_defaults(da, kv);
	/* nudma_dma_ns= is the busy-wait's length: given alone it asks for
	 * the busy-wait, as it did before the flush existed; with
	 * nudma_dma=flush it would be ignored, so it is refused
	 */
	if (ret == 0 && rte_kvargs_count(kv, "nudma_dma_ns") != 0) {
		if (rte_kvargs_count(kv, "nudma_dma") == 0)
			da->nudma_dma = OCTONIC_NUDMA_DMA_WAIT;
		else if (da->nudma_dma == OCTONIC_NUDMA_DMA_FLUSH)
			ret = fail(err, err_len,
				"devarg 'nudma_dma_ns' is the busy-wait of nudma_dma=wait, not of nudma_dma=flush");
	}
	/* A generator setting under another wire would change nothing: say
	 * so rather than let a gen_rate= look like it paced the traffic.
	 */
	if (ret == 0 && gen_key != NULL && da->wire != OCTONIC_WIRE_GEN)
		ret = fail(err, err_len,
			"devarg '%s' sets the generator, which runs with wire=gen only",
			gen_key);
	rte_kvargs_free(kv);
	if (ret == 0 && da->numa_given && nb_numa != da->nb_pfs)
		ret = fail(err, err_len,
			"devarg 'numa' names %u nodes but pfs=%u", nb_numa,
			da->nb_pfs);
	if (ret == 0)
		ret = dialect_keys_check(da, err, err_len);
	/* The generator's frame carries headers and a sequence payload: an
	 * IPv6 or TCP frame needs more than 64 bytes.  Without pkt_len= take
	 * the shortest that fits; refuse a given one that does not.
	 */
	min_len = octo_gen_min_len(da->ipv6, da->l4_proto);
	if (ret == 0 && min_len == 0)
		ret = fail(err, err_len,
			"devarg 'proto=%s' needs ipv6=%u (ICMP rides IPv4, ICMPv6 IPv6)",
			da->l4_proto == IPPROTO_ICMP ? "icmp" : "icmp6", !da->ipv6);
	else if (ret == 0 && !da->pkt_len_given && da->pkt_len < min_len)
		da->pkt_len = min_len;
	else if (ret == 0 && da->pkt_len < min_len)
		ret = fail(err, err_len,
			"devarg 'pkt_len=%u' is shorter than the %u bytes an %s/%s frame of the generator needs",
			da->pkt_len, min_len, da->ipv6 ? "IPv6" : "IPv4",
			proto_name(da->l4_proto));
	if (ret == 0)
		ret = topology_check(da, err, err_len);
	return ret;
}
