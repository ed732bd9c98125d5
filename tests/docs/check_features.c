/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * The drivers' feature tables (doc/guides/nics/features/<driver>.ini) held
 * against what the ports answer, both ways: a "Y" the port does not back
 * fails, and so does a feature the port has that its table leaves out.
 *
 *   check_features [EAL args] -- <octopus.ini> <octonic.ini> [print]
 *
 * net_octonic is asked on a NIC of each dialect (the flow vocabulary is
 * their union: every rule form the code takes under one of them); the
 * features on the default (generic) NIC. net_octopus is asked over a
 * generic net_octonic of two PFs on two sockets, as a user meets it: its
 * offloads are its members' (their intersection). "print" writes the
 * tables the ports answer instead of checking (for writing the .ini).
 *
 * How each feature is asked follows DPDK's doc/guides/nics/features.rst:
 * an eth_dev_ops entry, a capability bit, or the API call answering (not
 * -ENOTSUP) on a started port. A flow item or action is taken when a rule
 * with it is created (validate on net_octopus, whose validate creates the
 * member rules' checks without rules) under some attribute and some
 * neighbouring items or fate. A few features no call shows (link speed
 * setting, queue state events, secondary processes) are read from the
 * driver's sources; the platforms from the build.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_flow.h>
#include <rte_mbuf.h>
#include <rte_version.h>
#include <ethdev_driver.h>

#include "../common/octo_check.h"
#include "../common/octo_port.h"
#include "../common/octo_test_eal.h"

#define MAX_KEYS 256
#define KEY_LEN 64

enum section { SEC_FEATURES, SEC_ITEMS, SEC_ACTIONS, SEC_COUNT };

static const char *const section_name[SEC_COUNT] = {
	"Features", "rte_flow items", "rte_flow actions",
};

/* A set of feature names, per section. */
struct table {
	unsigned int n[SEC_COUNT];
	char key[SEC_COUNT][MAX_KEYS][KEY_LEN];
};

static void
table_add(struct table *t, enum section s, const char *k)
{
	unsigned int i;

	for (i = 0; i < t->n[s]; i++)
		if (strcmp(t->key[s][i], k) == 0)
			return;
	if (t->n[s] < MAX_KEYS)
		snprintf(t->key[s][t->n[s]++], KEY_LEN, "%s", k);
}

static bool
table_has(const struct table *t, enum section s, const char *k)
{
	unsigned int i;

	for (i = 0; i < t->n[s]; i++)
		if (strcmp(t->key[s][i], k) == 0)
			return true;
	return false;
}

static char *
trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

/* The "Key = Y" lines of an .ini in DPDK's features format. */
static int
ini_read(const char *path, struct table *t)
{
	char line[256], *l, *eq;
	int s = -1, i;
	FILE *f = fopen(path, "r");

	REQUIRE_OR(-1, f != NULL, "%s: %s", path, strerror(errno));
	memset(t, 0, sizeof(*t));
	while (fgets(line, sizeof(line), f) != NULL) {
		l = trim(line);
		if (*l == '\0' || *l == ';')
			continue;
		if (*l == '[') {
			s = -1;
			for (i = 0; i < SEC_COUNT; i++)
				if (strncmp(l + 1, section_name[i], strlen(section_name[i])) == 0 &&
				    l[1 + strlen(section_name[i])] == ']')
					s = i;
			CHECK(s >= 0, "%s: unknown section %s", path, l);
			continue;
		}
		eq = strchr(l, '=');
		if (s < 0 || eq == NULL) {
			CHECK(s >= 0 && eq != NULL, "%s: line outside a section or without '=': %s",
				path, l);
			continue;
		}
		*eq = '\0';
		if (strcmp(trim(eq + 1), "Y") != 0) {
			CHECK(strcmp(trim(eq + 1), "Y") == 0,
				"%s: '%s' is not Y (list only what the driver does)", path, trim(l));
			continue;
		}
		table_add(t, s, trim(l));
	}
	fclose(f);
	return 0;
}

/* ---- what a port answers ---------------------------------------------- */

/* What one port is asked with. */
struct subject {
	const char *driver;		/* "octopus", "octonic": its sources */
	uint16_t port;			/* features asked here */
	uint16_t flow_ports[4];		/* flow forms asked on each */
	uint16_t peer[4];		/* another port of that NIC (fates) */
	unsigned int nb_flow_ports;
	bool transfer;			/* try transfer rules too */
	bool create;			/* create+destroy (else validate) */
};

static const char *src_root;

/* Whether any .c file of the driver holds @p needle. */
static bool
source_has(const char *driver, const char *needle)
{
	char dir[512], path[1024], *buf;
	struct dirent *e;
	bool found = false;
	DIR *d;
	FILE *f;
	long n;

	snprintf(dir, sizeof(dir), "%s/drivers/net/%s", src_root, driver);
	d = opendir(dir);
	REQUIRE_OR(false, d != NULL, "%s: %s", dir, strerror(errno));
	while (!found && (e = readdir(d)) != NULL) {
		n = strlen(e->d_name);
		if (n < 3 || strcmp(e->d_name + n - 2, ".c") != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		f = fopen(path, "r");
		if (f == NULL)
			continue;
		fseek(f, 0, SEEK_END);
		n = ftell(f);
		rewind(f);
		buf = calloc(1, n + 1);
		if (buf != NULL && fread(buf, 1, n, f) == (size_t)n)
			found = strstr(buf, needle) != NULL;
		free(buf);
		fclose(f);
	}
	closedir(d);
	return found;
}

static bool
doc_exists(const char *driver)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/doc/guides/nics/%s.rst", src_root, driver);
	return access(path, R_OK) == 0;
}

/* One rule tried: created (and destroyed at once) or validated. */
static bool
rule_taken(const struct subject *s, uint16_t port, const struct rte_flow_attr *attr,
		const struct rte_flow_item *pattern, const struct rte_flow_action *actions)
{
	struct rte_flow_error err;
	struct rte_flow *f;

	if (!s->create)
		return rte_flow_validate(port, attr, pattern, actions, &err) == 0;
	f = rte_flow_create(port, attr, pattern, actions, &err);
	if (f == NULL)
		return false;
	CHECK(rte_flow_destroy(port, f, &err) == 0, "port %u: a rule made cannot be destroyed: %s",
		port, err.message ? err.message : "(no message)");
	return true;
}

/* Configurations of the actions and items a probe uses. */
static uint16_t rss_queues[2] = { 0, 1 };
static struct rte_flow_action_queue queue_conf = { .index = 0 };
static struct rte_flow_action_mark mark_conf = { .id = 1 };
static struct rte_flow_action_set_meta meta_conf = { .data = 1, .mask = UINT32_MAX };
static struct rte_flow_item_meta meta_spec = { .data = 1 };
static struct rte_flow_item_meta meta_mask = { .data = UINT32_MAX };
static struct rte_flow_item_tag tag_spec = { .data = 1 };
static struct rte_flow_item_mark mark_spec = { .id = 1 };
static struct rte_flow_action_count count_conf;
static struct rte_flow_action_rss rss_conf;
static struct rte_flow_action_jump jump_conf;
static struct rte_flow_action_ethdev ethdev_conf;
static struct rte_flow_action_port_id port_id_conf;
/* mlx5's form: to the e-switch manager */
static struct rte_flow_action_ethdev manager_conf = { .port_id = UINT16_MAX };
static struct rte_flow_item_ethdev ethdev_spec;
static struct rte_flow_item_ethdev ethdev_mask = { .port_id = UINT16_MAX };
static struct rte_flow_action_modify_field modify_conf;

static void
confs_for(uint16_t port, uint16_t peer, const struct rte_flow_attr *attr, int rss_level)
{
	memset(&rss_conf, 0, sizeof(rss_conf));
	rss_conf.types = RTE_ETH_RSS_IP;
	rss_conf.queue_num = 2;
	rss_conf.queue = rss_queues;
	rss_conf.level = rss_level;
	jump_conf.group = attr->group + 1;
	ethdev_conf.port_id = peer;
	port_id_conf.id = peer;
	ethdev_spec.port_id = port;
	memset(&modify_conf, 0, sizeof(modify_conf));
	modify_conf.operation = RTE_FLOW_MODIFY_SET;
	modify_conf.dst.field = RTE_FLOW_FIELD_META;
	modify_conf.src.field = RTE_FLOW_FIELD_VALUE;
	modify_conf.src.value[0] = 1;
	modify_conf.width = 32;
}

static const void *
action_conf(enum rte_flow_action_type t)
{
	switch (t) {
	case RTE_FLOW_ACTION_TYPE_QUEUE: return &queue_conf;
	case RTE_FLOW_ACTION_TYPE_RSS: return &rss_conf;
	case RTE_FLOW_ACTION_TYPE_MARK: return &mark_conf;
	case RTE_FLOW_ACTION_TYPE_JUMP: return &jump_conf;
	case RTE_FLOW_ACTION_TYPE_COUNT: return &count_conf;
	case RTE_FLOW_ACTION_TYPE_SET_META: return &meta_conf;
	case RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT: return &ethdev_conf;
	case RTE_FLOW_ACTION_TYPE_PORT_REPRESENTOR: return &manager_conf;
	case RTE_FLOW_ACTION_TYPE_PORT_ID: return &port_id_conf;
	case RTE_FLOW_ACTION_TYPE_MODIFY_FIELD: return &modify_conf;
	default: return NULL;
	}
}

static void
item_spec(struct rte_flow_item *it, enum rte_flow_item_type t)
{
	it->type = t;
	it->spec = NULL;
	it->mask = NULL;
	it->last = NULL;
	switch (t) {
	case RTE_FLOW_ITEM_TYPE_META:
		it->spec = &meta_spec;
		it->mask = &meta_mask;
		break;
	case RTE_FLOW_ITEM_TYPE_TAG:
		it->spec = &tag_spec;
		break;
	case RTE_FLOW_ITEM_TYPE_MARK:
		it->spec = &mark_spec;
		break;
	case RTE_FLOW_ITEM_TYPE_REPRESENTED_PORT:
	case RTE_FLOW_ITEM_TYPE_PORT_REPRESENTOR:
		it->spec = &ethdev_spec;
		it->mask = &ethdev_mask;
		break;
	default:
		break;
	}
}

/* The items put before the one asked: it may need its outer headers. */
static const enum rte_flow_item_type prefixes[][3] = {
	{ RTE_FLOW_ITEM_TYPE_END },
	{ RTE_FLOW_ITEM_TYPE_ETH, RTE_FLOW_ITEM_TYPE_END },
	{ RTE_FLOW_ITEM_TYPE_ETH, RTE_FLOW_ITEM_TYPE_IPV4, RTE_FLOW_ITEM_TYPE_END },
	{ RTE_FLOW_ITEM_TYPE_ETH, RTE_FLOW_ITEM_TYPE_IPV6, RTE_FLOW_ITEM_TYPE_END },
};

/* The attributes a rule is tried with. */
static void
attrs_of(const struct subject *s, struct rte_flow_attr *a, unsigned int *n)
{
	unsigned int i = 0, g;

	for (g = 0; g < 2; g++) {
		memset(&a[i], 0, sizeof(a[i]));
		a[i].group = g;
		a[i++].ingress = 1;
		if (s->transfer) {
			memset(&a[i], 0, sizeof(a[i]));
			a[i].group = g;
			a[i++].transfer = 1;
		}
	}
	*n = i;
}

/* The fates a non-fate action is tried beside (END: alone). */
static const enum rte_flow_action_type fates[] = {
	RTE_FLOW_ACTION_TYPE_END, RTE_FLOW_ACTION_TYPE_QUEUE,
	RTE_FLOW_ACTION_TYPE_JUMP, RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT,
	RTE_FLOW_ACTION_TYPE_DROP,
};

static bool
item_taken(const struct subject *s, enum rte_flow_item_type t)
{
	struct rte_flow_action acts[2] = {
		{ .type = RTE_FLOW_ACTION_TYPE_DROP },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_item pat[5];
	struct rte_flow_attr attr[4];
	unsigned int na, a, p, i, k, f;

	attrs_of(s, attr, &na);
	for (k = 0; k < s->nb_flow_ports; k++)
		for (a = 0; a < na; a++)
			for (p = 0; p < RTE_DIM(prefixes); p++)
				for (f = 0; f < 2; f++) {
					/* DROP, or the fate that domain has */
					acts[0].type = f == 0 ? RTE_FLOW_ACTION_TYPE_DROP :
						attr[a].transfer ?
						RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT :
						RTE_FLOW_ACTION_TYPE_QUEUE;
					confs_for(s->flow_ports[k], s->peer[k], &attr[a], 0);
					acts[0].conf = action_conf(acts[0].type);
					for (i = 0; prefixes[p][i] != RTE_FLOW_ITEM_TYPE_END; i++)
						item_spec(&pat[i], prefixes[p][i]);
					item_spec(&pat[i++], t);
					pat[i].type = RTE_FLOW_ITEM_TYPE_END;
					if (rule_taken(s, s->flow_ports[k], &attr[a], pat, acts))
						return true;
				}
	return false;
}

static bool
action_taken(const struct subject *s, enum rte_flow_action_type t, int rss_level)
{
	struct rte_flow_action acts[3];
	struct rte_flow_item pat[5];
	struct rte_flow_attr attr[4];
	unsigned int na, a, p, k, f;

	attrs_of(s, attr, &na);
	for (k = 0; k < s->nb_flow_ports; k++)
		for (a = 0; a < na; a++)
			for (p = 0; p < 2; p++)
				for (f = 0; f < RTE_DIM(fates); f++) {
					confs_for(s->flow_ports[k], s->peer[k], &attr[a], rss_level);
					/* eth, or eth / ipv4 / udp (RSS spreads on IP) */
					item_spec(&pat[0], RTE_FLOW_ITEM_TYPE_ETH);
					item_spec(&pat[1], p == 0 ? RTE_FLOW_ITEM_TYPE_END :
						RTE_FLOW_ITEM_TYPE_IPV4);
					item_spec(&pat[2], RTE_FLOW_ITEM_TYPE_UDP);
					pat[3].type = RTE_FLOW_ITEM_TYPE_END;
					acts[0].type = t;
					acts[0].conf = action_conf(t);
					acts[1].type = fates[f];
					acts[1].conf = action_conf(fates[f]);
					acts[2].type = RTE_FLOW_ACTION_TYPE_END;
					if (fates[f] == t)
						continue;
					if (rule_taken(s, s->flow_ports[k], &attr[a], pat, acts))
						return true;
				}
	return false;
}

static void
lower(char *s)
{
	for (; *s != '\0'; s++)
		if (*s >= 'A' && *s <= 'Z')
			*s += 'a' - 'A';
}

/* The name of item or action type @p ty, lower case as the tables have it
 * (the pointer form: ethdev's table has holes, NULL names). */
static bool
type_name(bool action, int ty, char *name)
{
	const char *p = NULL;

	if (rte_flow_conv(action ? RTE_FLOW_CONV_OP_ACTION_NAME_PTR :
			RTE_FLOW_CONV_OP_ITEM_NAME_PTR, &p, sizeof(p),
			(void *)(uintptr_t)ty, NULL) <= 0 || p == NULL)
		return false;
	snprintf(name, KEY_LEN, "%s", p);
	lower(name);
	return true;
}

/* Every item and action type this DPDK names, tried on the subject. */
static void
flows_answered(const struct subject *s, struct table *t)
{
	char name[KEY_LEN];
	int ty;

	for (ty = 0; ty < 256; ty++) {
		if (!type_name(false, ty, name))
			continue;
		if (strcmp(name, "void") == 0 || strcmp(name, "end") == 0)
			continue;
		if (item_taken(s, ty))
			table_add(t, SEC_ITEMS, name);
	}
	for (ty = 0; ty < 256; ty++) {
		if (!type_name(true, ty, name))
			continue;
		if (strcmp(name, "void") == 0 || strcmp(name, "end") == 0)
			continue;
		if (action_taken(s, ty, 0))
			table_add(t, SEC_ACTIONS, name);
	}
}

/* A call answered: anything but "not supported". */
#define ANSWERS(call) ((call) != -ENOTSUP)

static void
features_answered(const struct subject *s, struct table *t)
{
	const struct rte_eth_dev *dev = &rte_eth_devices[s->port];
	const struct eth_dev_ops *o = dev->dev_ops;
	uint32_t flags = dev->data->dev_flags;
	struct rte_ether_addr mac = { { 0x02, 0, 0, 0, 0x5e, 0x01 } };
	struct rte_eth_dev_info di;
	struct rte_eth_link link;
	struct rte_eth_stats st;
	uint64_t rx, tx;
	uint16_t mtu;

	REQUIRE(rte_eth_dev_info_get(s->port, &di) == 0, "port %u: no dev_info", s->port);
	rx = di.rx_offload_capa | di.rx_queue_offload_capa;
	tx = di.tx_offload_capa | di.tx_queue_offload_capa;
#define F(name, cond) do { if (cond) table_add(t, SEC_FEATURES, name); } while (0)
	F("Speed capabilities", di.speed_capa != 0);
	F("Link speed configuration", source_has(s->driver, "link_speeds"));
	F("Link status", rte_eth_link_get_nowait(s->port, &link) == 0);
	F("Link status event", flags & RTE_ETH_DEV_INTR_LSC);
	F("Removal event", flags & RTE_ETH_DEV_INTR_RMV);
	F("Queue status event", source_has(s->driver, "RTE_ETH_EVENT_QUEUE_STATE"));
	F("Rx interrupt", o->rx_queue_intr_enable != NULL);
	F("Lock-free Tx queue", tx & RTE_ETH_TX_OFFLOAD_MT_LOCKFREE);
	F("Fast mbuf free", tx & RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE);
	F("Free Tx mbuf on demand", ANSWERS(rte_eth_tx_done_cleanup(s->port, 0, 0)));
	F("Queue start/stop", rte_eth_dev_rx_queue_stop(s->port, 1) == 0 &&
		rte_eth_dev_rx_queue_start(s->port, 1) == 0 &&
		rte_eth_dev_tx_queue_stop(s->port, 1) == 0 &&
		rte_eth_dev_tx_queue_start(s->port, 1) == 0);
	F("Runtime Rx queue setup", di.dev_capa & RTE_ETH_DEV_CAPA_RUNTIME_RX_QUEUE_SETUP);
	F("Runtime Tx queue setup", di.dev_capa & RTE_ETH_DEV_CAPA_RUNTIME_TX_QUEUE_SETUP);
	F("Shared Rx queue", di.dev_capa & RTE_ETH_DEV_CAPA_RXQ_SHARE);
	F("Burst mode info", o->rx_burst_mode_get != NULL || o->tx_burst_mode_get != NULL);
	F("Power mgmt address monitor", o->get_monitor_addr != NULL);
	F("MTU update", rte_eth_dev_get_mtu(s->port, &mtu) == 0 &&
		ANSWERS(rte_eth_dev_set_mtu(s->port, mtu)));
	F("Buffer split on Rx", rx & RTE_ETH_RX_OFFLOAD_BUFFER_SPLIT);
	F("Scattered Rx", rx & RTE_ETH_RX_OFFLOAD_SCATTER);
	F("LRO", rx & RTE_ETH_RX_OFFLOAD_TCP_LRO);
	F("TSO", tx & (RTE_ETH_TX_OFFLOAD_TCP_TSO | RTE_ETH_TX_OFFLOAD_UDP_TSO));
	F("Promiscuous mode", rte_eth_promiscuous_enable(s->port) == 0 &&
		rte_eth_promiscuous_disable(s->port) == 0);
	F("Allmulticast mode", rte_eth_allmulticast_enable(s->port) == 0 &&
		rte_eth_allmulticast_disable(s->port) == 0);
	F("Unicast MAC filter", rte_eth_dev_mac_addr_add(s->port, &mac, 0) == 0 &&
		rte_eth_dev_mac_addr_remove(s->port, &mac) == 0 && o->mac_addr_set != NULL);
	F("Multicast MAC filter", o->set_mc_addr_list != NULL);
	F("RSS hash", di.flow_type_rss_offloads != 0 && o->rss_hash_conf_get != NULL);
	F("RSS key update", di.hash_key_size != 0 && o->rss_hash_update != NULL);
	F("RSS reta update", di.reta_size != 0 && o->reta_update != NULL &&
		o->reta_query != NULL);
	F("Inner RSS", action_taken(s, RTE_FLOW_ACTION_TYPE_RSS, 2));
	F("VMDq", di.max_vmdq_pools != 0);
	F("SR-IOV", di.max_vfs != 0);
	F("DCB", o->get_dcb_info != NULL);
	/* ethdev takes it only with the VLAN_FILTER offload: the entry */
	F("VLAN filter", o->vlan_filter_set != NULL);
	F("Flow control", o->flow_ctrl_get != NULL || o->flow_ctrl_set != NULL);
	F("Rate limitation", o->set_queue_rate_limit != NULL);
	F("Congestion management", o->cman_info_get != NULL);
	F("Traffic manager", o->tm_ops_get != NULL);
	F("Inline crypto", (rx & RTE_ETH_RX_OFFLOAD_SECURITY) || (tx & RTE_ETH_TX_OFFLOAD_SECURITY));
	F("Inline protocol", (rx & RTE_ETH_RX_OFFLOAD_SECURITY) || (tx & RTE_ETH_TX_OFFLOAD_SECURITY));
	F("CRC offload", rx & RTE_ETH_RX_OFFLOAD_KEEP_CRC);
	F("VLAN offload", (rx & (RTE_ETH_RX_OFFLOAD_VLAN_STRIP | RTE_ETH_RX_OFFLOAD_VLAN_EXTEND)) ||
		(tx & RTE_ETH_TX_OFFLOAD_VLAN_INSERT) || o->vlan_offload_set != NULL);
	F("QinQ offload", (rx & RTE_ETH_RX_OFFLOAD_QINQ_STRIP) ||
		(tx & RTE_ETH_TX_OFFLOAD_QINQ_INSERT));
	F("FEC", o->fec_get_capability != NULL);
	F("IP reassembly", o->ip_reassembly_capability_get != NULL);
	F("L3 checksum offload", (rx & RTE_ETH_RX_OFFLOAD_IPV4_CKSUM) ||
		(tx & RTE_ETH_TX_OFFLOAD_IPV4_CKSUM));
	F("L4 checksum offload", (rx & (RTE_ETH_RX_OFFLOAD_UDP_CKSUM | RTE_ETH_RX_OFFLOAD_TCP_CKSUM |
		RTE_ETH_RX_OFFLOAD_SCTP_CKSUM)) || (tx & (RTE_ETH_TX_OFFLOAD_UDP_CKSUM |
		RTE_ETH_TX_OFFLOAD_TCP_CKSUM | RTE_ETH_TX_OFFLOAD_SCTP_CKSUM)));
	F("Timestamp offload", rx & RTE_ETH_RX_OFFLOAD_TIMESTAMP);
	F("MACsec offload", (rx & RTE_ETH_RX_OFFLOAD_MACSEC_STRIP) ||
		(tx & RTE_ETH_TX_OFFLOAD_MACSEC_INSERT));
	F("Inner L3 checksum", (rx & RTE_ETH_RX_OFFLOAD_OUTER_IPV4_CKSUM) ||
		(tx & RTE_ETH_TX_OFFLOAD_OUTER_IPV4_CKSUM));
	F("Inner L4 checksum", (rx & RTE_ETH_RX_OFFLOAD_OUTER_UDP_CKSUM) ||
		(tx & RTE_ETH_TX_OFFLOAD_OUTER_UDP_CKSUM));
	F("Packet type parsing", rte_eth_dev_get_supported_ptypes(s->port, RTE_PTYPE_ALL_MASK,
		NULL, 0) > 0);
	F("Timesync", o->timesync_enable != NULL);
	F("Rx descriptor status", ANSWERS(rte_eth_rx_descriptor_status(s->port, 0, 0)));
	F("Tx descriptor status", ANSWERS(rte_eth_tx_descriptor_status(s->port, 0, 0)));
#if RTE_VERSION >= RTE_VERSION_NUM(24, 3, 0, 0)
	F("Tx queue count", ANSWERS(rte_eth_tx_queue_count(s->port, 0)));
#endif
	F("Basic stats", rte_eth_stats_get(s->port, &st) == 0 && o->stats_reset != NULL);
	F("Extended stats", o->xstats_get != NULL && o->xstats_get_names != NULL);
	F("Stats per queue", (flags & RTE_ETH_DEV_AUTOFILL_QUEUE_XSTATS) ||
		o->queue_stats_mapping_set != NULL);
	F("FW version", o->fw_version_get != NULL);
	F("EEPROM dump", o->get_eeprom_length != NULL);
	F("Module EEPROM dump", o->get_module_info != NULL);
	F("Registers dump", o->get_reg != NULL);
	F("LED", o->dev_led_on != NULL);
	F("Multiprocess aware", source_has(s->driver, "rte_eth_dev_attach_secondary"));
#ifdef RTE_EXEC_ENV_LINUX
	F("Linux", true);
#endif
#ifdef RTE_ARCH_X86_64
	F("x86-64", true);
#endif
	F("Usage doc", doc_exists(s->driver));
#undef F
}

/* ---- the check --------------------------------------------------------- */

static void
compare(const char *path, const struct table *claimed, const struct table *seen)
{
	unsigned int s, i;

	for (s = 0; s < SEC_COUNT; s++) {
		for (i = 0; i < claimed->n[s]; i++)
			CHECK(table_has(seen, s, claimed->key[s][i]),
				"%s [%s] %s = Y: the port does not do it", path, section_name[s],
				claimed->key[s][i]);
		for (i = 0; i < seen->n[s]; i++)
			CHECK(table_has(claimed, s, seen->key[s][i]),
				"%s [%s] %s: the port does it, the table leaves it out", path,
				section_name[s], seen->key[s][i]);
	}
}

static void
print_table(const char *driver, const struct table *t)
{
	unsigned int s, i;

	printf(";\n; %s\n;\n", driver);
	for (s = 0; s < SEC_COUNT; s++) {
		printf("[%s]\n", section_name[s]);
		for (i = 0; i < t->n[s]; i++)
			printf("%-20s = Y\n", t->key[s][i]);
		printf("\n");
	}
}

/* The NICs asked: the one under net_octopus, one per dialect. */
static const char *const nics[][2] = {
	{ "net_octonic0", "pfs=2,numa=0:1,wire=loop" },
	{ "net_octonic1", "pfs=2,numa=0:1,wire=loop" },
	{ "net_octonic2", "pfs=2,numa=0:1,wire=loop,dialect=mlx5-sws,xmeta=1" },
	{ "net_octonic3", "pfs=2,numa=0:1,wire=loop,dialect=mlx5-hws,xmeta=4,mlx5_dpdk=25.11,fdb_mark=1" },
};

static int
start_port(uint16_t port, struct rte_mempool *mp)
{
	struct octo_port_conf c = {
		.nb_rxq = 2, .nb_txq = 2, .nb_desc = 256, .pool = mp,
		.rss_hf = RTE_ETH_RSS_IP,
	};
	int ret = octo_port_start(port, &c);

	CHECK(ret == 0, "port %u: start: %s", port, strerror(-ret));
	return ret;
}

int
main(int argc, char **argv)
{
	struct subject octopus = { .driver = "octopus", .create = false };
	struct subject octonic = { .driver = "octonic", .create = true, .transfer = true };
	struct table claimed, seen_octopus, seen_octonic;
	struct rte_mempool *mp;
	char name[64];
	unsigned int i;
	bool print;
	uint16_t pf0, pf1, port;
	int dd, nb_eal;
	char **eal;

	for (dd = 1; dd < argc && strcmp(argv[dd], "--") != 0; dd++)
		;
	if (argc - dd < 3) {
		fprintf(stderr, "usage: check_features [EAL] -- <octopus.ini> <octonic.ini> [print]\n");
		return 2;
	}
	nb_eal = dd;
	eal = argv;
	if (octo_test_eal_init(&nb_eal, &eal, 1536) < 0) {
		fprintf(stderr, "FAIL EAL init\n");
		return 1;
	}
	argc -= dd;
	argv += dd;
	print = argc > 3 && strcmp(argv[3], "print") == 0;
	/* the drivers' sources and the guides (tests/meson.build sets it) */
	src_root = getenv("OCTOPUS_SRC");
	if (src_root == NULL) {
		fprintf(stderr, "FAIL OCTOPUS_SRC (the source tree) is not set\n");
		return 2;
	}
	mp = rte_pktmbuf_pool_create("features", 4096, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
		SOCKET_ID_ANY);
	if (mp == NULL) {
		fprintf(stderr, "FAIL no mbuf pool\n");
		return 1;
	}
	for (i = 0; i < RTE_DIM(nics); i++)
		if (rte_vdev_init(nics[i][0], nics[i][1]) != 0) {
			fprintf(stderr, "FAIL %s,%s: not probed\n", nics[i][0], nics[i][1]);
			return 1;
		}
	if (rte_vdev_init("net_octopus0", "member=net_octonic0_pf0,member=net_octonic0_pf1") != 0) {
		fprintf(stderr, "FAIL net_octopus0: not probed\n");
		return 1;
	}
	/* each NIC's proxy (PF0) first: mlx5-hws takes no port started before it */
	for (i = 1; i < RTE_DIM(nics); i++) {
		snprintf(name, sizeof(name), "%s_pf0", nics[i][0]);
		pf0 = port_of(name);
		snprintf(name, sizeof(name), "%s_pf1", nics[i][0]);
		pf1 = port_of(name);
		if (start_port(pf0, mp) != 0 || start_port(pf1, mp) != 0)
			return 1;
		octonic.flow_ports[octonic.nb_flow_ports] = pf0;
		octonic.peer[octonic.nb_flow_ports++] = pf1;
	}
	octonic.port = octonic.flow_ports[0];	/* the generic NIC's */
	port = port_of("net_octopus0");
	if (start_port(port, mp) != 0)
		return 1;
	octopus.port = port;
	octopus.flow_ports[0] = port;
	octopus.peer[0] = port;
	octopus.nb_flow_ports = 1;

	memset(&seen_octopus, 0, sizeof(seen_octopus));
	memset(&seen_octonic, 0, sizeof(seen_octonic));
	features_answered(&octopus, &seen_octopus);
	flows_answered(&octopus, &seen_octopus);
	features_answered(&octonic, &seen_octonic);
	flows_answered(&octonic, &seen_octonic);

	if (print) {
		print_table("octopus", &seen_octopus);
		print_table("octonic", &seen_octonic);
	} else {
		/* an .ini that cannot be read fails in ini_read() */
		if (ini_read(argv[1], &claimed) == 0)
			compare(argv[1], &claimed, &seen_octopus);
		if (ini_read(argv[2], &claimed) == 0)
			compare(argv[2], &claimed, &seen_octonic);
	}
	rte_vdev_uninit("net_octopus0");
	for (i = 0; i < RTE_DIM(nics); i++)
		rte_vdev_uninit(nics[i][0]);
	rte_mempool_free(mp);
	rte_eal_cleanup();
	if (octo_failures == 0 && !print)
		printf("OK: the .ini files say what the ports do\n");
	return octo_failures == 0 ? 0 : 1;
}
