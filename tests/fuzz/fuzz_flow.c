/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Fuzz target: rte_flow rules on a net_octopus port over the two PFs of a
 * net_octonic NIC (the translation into e-switch rules).  EAL starts once,
 * in LLVMFuzzerInitialize; each input is decoded into up to RULES_MAX
 * bounded rule descriptions (attributes, pattern items with spec, mask and
 * last, actions with their configurations), each validated and created,
 * the port restarted if the input says so (the rules are replayed), their
 * COUNT actions queried, then the created ones destroyed in an order the
 * input picks, or flushed.
 *
 * Beyond what ASan and UBSan catch, a finding is:
 * - a refusal (validate, create, query) without an error message;
 * - a restart, a destroy of a created rule, or a flush, that fails;
 * - e-switch rules left behind once every rule of the input is destroyed.
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_flow.h>
#include <rte_mbuf.h>

#include "rte_pmd_octonic.h"

#include "../common/octo_eal_cleanup.h"
#include "../common/octo_port.h"

#define NB_Q 4
#define RULES_MAX 4
#define ITEMS_MAX 8
#define ACTIONS_MAX 6
#define RSS_QUEUES_MAX 8
#define RSS_KEY_MAX 64

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint16_t port, nic_port;

/* The input, consumed from the front; reads past the end give zeros. */
struct input {
	const uint8_t *p;
	size_t left;
};

static void
take(struct input *in, void *dst, size_t n)
{
	size_t k = n < in->left ? n : in->left;

	memcpy(dst, in->p, k);
	memset((uint8_t *)dst + k, 0, n - k);
	in->p += k;
	in->left -= k;
}

static uint8_t
take8(struct input *in)
{
	uint8_t v;

	take(in, &v, 1);
	return v;
}

/* Items whose spec holds no pointer, with their spec size. */
static const struct {
	enum rte_flow_item_type type;
	size_t size;
} item_kinds[] = {
	{ RTE_FLOW_ITEM_TYPE_ETH, sizeof(struct rte_flow_item_eth) },
	{ RTE_FLOW_ITEM_TYPE_VLAN, sizeof(struct rte_flow_item_vlan) },
	{ RTE_FLOW_ITEM_TYPE_IPV4, sizeof(struct rte_flow_item_ipv4) },
	{ RTE_FLOW_ITEM_TYPE_IPV6, sizeof(struct rte_flow_item_ipv6) },
	{ RTE_FLOW_ITEM_TYPE_UDP, sizeof(struct rte_flow_item_udp) },
	{ RTE_FLOW_ITEM_TYPE_TCP, sizeof(struct rte_flow_item_tcp) },
	{ RTE_FLOW_ITEM_TYPE_VOID, 0 },
	{ RTE_FLOW_ITEM_TYPE_META, sizeof(struct rte_flow_item_meta) },
	{ RTE_FLOW_ITEM_TYPE_MARK, sizeof(struct rte_flow_item_mark) },
	{ RTE_FLOW_ITEM_TYPE_ICMP, sizeof(struct rte_flow_item_icmp) },
	{ RTE_FLOW_ITEM_TYPE_SCTP, sizeof(struct rte_flow_item_sctp) },
	{ RTE_FLOW_ITEM_TYPE_VXLAN, sizeof(struct rte_flow_item_vxlan) },
	{ RTE_FLOW_ITEM_TYPE_PORT_ID, sizeof(struct rte_flow_item_port_id) },
	{ RTE_FLOW_ITEM_TYPE_ANY, sizeof(struct rte_flow_item_any) },
	{ RTE_FLOW_ITEM_TYPE_END, 0 },
};

/* Largest item spec above (rte_flow_item_ipv6). */
#define ITEM_SPEC_MAX 64

static const enum rte_flow_action_type action_kinds[] = {
	RTE_FLOW_ACTION_TYPE_QUEUE,
	RTE_FLOW_ACTION_TYPE_RSS,
	RTE_FLOW_ACTION_TYPE_MARK,
	RTE_FLOW_ACTION_TYPE_FLAG,
	RTE_FLOW_ACTION_TYPE_COUNT,
	RTE_FLOW_ACTION_TYPE_DROP,
	RTE_FLOW_ACTION_TYPE_JUMP,
	RTE_FLOW_ACTION_TYPE_VOID,
	RTE_FLOW_ACTION_TYPE_PASSTHRU,
	RTE_FLOW_ACTION_TYPE_PORT_ID,
	RTE_FLOW_ACTION_TYPE_SET_META,
	RTE_FLOW_ACTION_TYPE_END,
};

/* One decoded rule and the storage its pointers point into. */
struct rule {
	struct rte_flow_attr attr;
	struct rte_flow_item items[ITEMS_MAX + 1];
	uint8_t spec[ITEMS_MAX][3][ITEM_SPEC_MAX];	/* spec, mask, last */
	struct rte_flow_action actions[ACTIONS_MAX + 1];
	union {
		struct rte_flow_action_queue queue;
		struct rte_flow_action_mark mark;
		struct rte_flow_action_count count;
		struct rte_flow_action_jump jump;
		struct rte_flow_action_port_id port_id;
		struct rte_flow_action_set_meta meta;
		struct rte_flow_action_rss rss;
	} conf[ACTIONS_MAX];
	uint16_t rss_queues[ACTIONS_MAX][RSS_QUEUES_MAX];
	uint8_t rss_key[ACTIONS_MAX][RSS_KEY_MAX];
};

/* Small values mostly (what a driver checks the bounds of), any value sometimes. */
static uint32_t
take_small(struct input *in)
{
	uint8_t b = take8(in);
	uint32_t v;

	if (b < 0xf0)
		return b & 0x0f;
	take(in, &v, sizeof(v));
	return v;
}

static void
decode_attr(struct input *in, struct rte_flow_attr *a)
{
	uint8_t dir = take8(in);

	memset(a, 0, sizeof(*a));
	a->ingress = dir & 1;
	a->egress = (dir >> 1) & 1;
	a->transfer = (dir >> 2) & 1;
	a->group = take_small(in);
	a->priority = take_small(in);
}

static void
decode_items(struct input *in, struct rule *r)
{
	uint8_t n = take8(in) % (ITEMS_MAX + 1);
	uint8_t i, k;

	for (i = 0; i < n; i++) {
		uint8_t kind = take8(in);
		uint8_t which = take8(in);	/* bit k: spec, mask, last given */
		size_t sz = item_kinds[kind % RTE_DIM(item_kinds)].size;
		const void **ptr[3] = { &r->items[i].spec, &r->items[i].mask,
			&r->items[i].last };

		r->items[i].type = item_kinds[kind % RTE_DIM(item_kinds)].type;
		for (k = 0; k < 3; k++) {
			*ptr[k] = NULL;
			if (sz == 0 || (which & (1u << k)) == 0)
				continue;
			take(in, r->spec[i][k], sz);
			*ptr[k] = r->spec[i][k];
		}
	}
	r->items[n].type = RTE_FLOW_ITEM_TYPE_END;
}

static void
decode_rss(struct input *in, struct rule *r, uint8_t i)
{
	struct rte_flow_action_rss *rss = &r->conf[i].rss;
	uint8_t b = take8(in);

	memset(rss, 0, sizeof(*rss));
	rss->func = (enum rte_eth_hash_function)(b & 3);
	rss->level = (b >> 2) & 3;
	take(in, &rss->types, sizeof(rss->types));
	rss->key_len = take8(in) % (RSS_KEY_MAX + 1);
	if (rss->key_len > 0) {
		take(in, r->rss_key[i], rss->key_len);
		rss->key = r->rss_key[i];
	}
	rss->queue_num = take8(in) % (RSS_QUEUES_MAX + 1);
	for (b = 0; b < rss->queue_num; b++)
		r->rss_queues[i][b] = (uint16_t)take_small(in);
	rss->queue = rss->queue_num > 0 ? r->rss_queues[i] : NULL;
}

static void
decode_actions(struct input *in, struct rule *r)
{
	uint8_t n = take8(in) % (ACTIONS_MAX + 1);
	uint8_t i;

	for (i = 0; i < n; i++) {
		enum rte_flow_action_type t = action_kinds[take8(in) % RTE_DIM(action_kinds)];
		void *c = &r->conf[i];

		r->actions[i].type = t;
		r->actions[i].conf = NULL;
		memset(c, 0, sizeof(r->conf[i]));
		switch (t) {
		case RTE_FLOW_ACTION_TYPE_QUEUE:
			r->conf[i].queue.index = (uint16_t)take_small(in);
			break;
		case RTE_FLOW_ACTION_TYPE_RSS:
			decode_rss(in, r, i);
			break;
		case RTE_FLOW_ACTION_TYPE_MARK:
			r->conf[i].mark.id = take_small(in);
			break;
		case RTE_FLOW_ACTION_TYPE_COUNT:
			r->conf[i].count.id = take_small(in);
			if ((take8(in) & 1) == 0)
				c = NULL;
			break;
		case RTE_FLOW_ACTION_TYPE_JUMP:
			r->conf[i].jump.group = take_small(in);
			break;
		case RTE_FLOW_ACTION_TYPE_PORT_ID:
			r->conf[i].port_id.original = take8(in) & 1;
			r->conf[i].port_id.id = take_small(in);
			break;
		case RTE_FLOW_ACTION_TYPE_SET_META:
			take(in, &r->conf[i].meta, sizeof(r->conf[i].meta));
			break;
		default:
			c = NULL;
			break;
		}
		r->actions[i].conf = c;
	}
	r->actions[n].type = RTE_FLOW_ACTION_TYPE_END;
}

static void
check_refusal(const char *what, const struct rte_flow_error *err)
{
	if (err->message == NULL || err->message[0] == '\0') {
		fprintf(stderr, "fuzz_flow: %s refused (type %d) without a message\n",
			what, (int)err->type);
		abort();
	}
}

/* Query every COUNT action of a created rule: a refusal must say why. */
static void
query_counts(struct rte_flow *flow, const struct rule *r)
{
	const struct rte_flow_action *a;
	struct rte_flow_query_count qc;
	struct rte_flow_error err;

	for (a = r->actions; a->type != RTE_FLOW_ACTION_TYPE_END; a++) {
		if (a->type != RTE_FLOW_ACTION_TYPE_COUNT)
			continue;
		memset(&qc, 0, sizeof(qc));
		memset(&err, 0, sizeof(err));
		if (rte_flow_query(port, flow, a, &qc, &err) != 0)
			check_refusal("query", &err);
	}
}

static struct rte_pmd_octonic_flow_stats
rule_counts(void)
{
	struct rte_pmd_octonic_flow_stats fs;

	memset(&fs, 0, sizeof(fs));
	if (rte_pmd_octonic_flow_stats_get(nic_port, &fs) != 0)
		abort();
	return fs;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct rule rules[RULES_MAX];
	struct rte_flow *flows[RULES_MAX];
	const struct rule *flow_rule[RULES_MAX];
	struct rte_pmd_octonic_flow_stats before, after;
	struct input in = { data, size };
	struct rte_flow_error err;
	uint8_t nb_rules, nb_flows = 0, i, order;

	before = rule_counts();
	nb_rules = 1 + take8(&in) % RULES_MAX;
	for (i = 0; i < nb_rules; i++) {
		struct rule *r = &rules[i];
		int rc;

		memset(r, 0, sizeof(*r));
		decode_attr(&in, &r->attr);
		decode_items(&in, r);
		decode_actions(&in, r);
		memset(&err, 0, sizeof(err));
		rc = rte_flow_validate(port, &r->attr, r->items, r->actions, &err);
		if (rc != 0)
			check_refusal("validate", &err);
		memset(&err, 0, sizeof(err));
		flows[nb_flows] = rte_flow_create(port, &r->attr, r->items, r->actions, &err);
		if (flows[nb_flows] == NULL)
			check_refusal("create", &err);
		else
			flow_rule[nb_flows++] = r;
	}
	order = take8(&in);
	/* a restart takes the rules out of the members and puts them back */
	if (nb_flows > 0 && (order & 0x40) != 0) {
		if (rte_eth_dev_stop(port) != 0 || rte_eth_dev_start(port) != 0) {
			fprintf(stderr, "fuzz_flow: restart with %u rules failed\n", nb_flows);
			abort();
		}
	}
	for (i = 0; i < nb_flows; i++)
		query_counts(flows[i], flow_rule[i]);
	/* destroy in an order the input picks (a rotation of creation
	 * order), or flush */
	if (nb_flows > 0 && (order & 0x80) != 0) {
		memset(&err, 0, sizeof(err));
		if (rte_flow_flush(port, &err) != 0) {
			fprintf(stderr, "fuzz_flow: flush failed: %s\n",
				err.message != NULL ? err.message : "(no message)");
			abort();
		}
	} else if (nb_flows > 0) {
		uint8_t first = order % nb_flows;

		for (i = 0; i < nb_flows; i++) {
			struct rte_flow *f = flows[(first + i) % nb_flows];

			memset(&err, 0, sizeof(err));
			if (rte_flow_destroy(port, f, &err) != 0) {
				fprintf(stderr, "fuzz_flow: destroy failed: %s\n",
					err.message != NULL ? err.message : "(no message)");
				abort();
			}
		}
	}
	after = rule_counts();
	if (after.ingress_rules != before.ingress_rules ||
			after.transfer_rules != before.transfer_rules) {
		fprintf(stderr, "fuzz_flow: e-switch rules left behind: ingress %u -> %u, "
			"transfer %u -> %u\n", before.ingress_rules, after.ingress_rules,
			before.transfer_rules, after.transfer_rules);
		abort();
	}
	return 0;
}

/* At exit (the end of a replay or of a timed run): free what the port and
 * EAL hold, so that LeakSanitizer's report is about the inputs' rules. */
static void
cleanup(void)
{
	uint16_t p;

	rte_eth_dev_stop(port);
	rte_eth_dev_close(port);
	RTE_ETH_FOREACH_DEV(p)
		rte_eth_dev_close(p);
	octo_test_eal_cleanup();
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static char prefix[64];
	char *eal[] = {
		(*argv)[0], "--no-huge", "-m", "256", "--no-pci", "-l", "0",
		"--file-prefix", prefix, "--no-shconf",
		"--vdev", "net_octonic0,pfs=2,numa=0:1,wire=loop",
		"--vdev", "net_octopus0,member=net_octonic0_pf0,member=net_octonic0_pf1",
	};
	struct octo_port_conf c = {
		.nb_rxq = NB_Q, .nb_txq = NB_Q, .nb_desc = 256,
		.rss_hf = RTE_ETH_RSS_IP | RTE_ETH_RSS_UDP,
	};
	struct rte_mempool *mp;
	int ret;

	RTE_SET_USED(argc);
	snprintf(prefix, sizeof(prefix), "octopus-fuzz-flow-%d", (int)getpid());
	if (rte_eal_init(RTE_DIM(eal), eal) < 0) {
		fprintf(stderr, "fuzz_flow: EAL init failed\n");
		exit(1);
	}
	mp = rte_pktmbuf_pool_create("fuzz", 4096, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	port = port_of("net_octopus0");
	nic_port = port_of("net_octonic0_pf0");
	if (port >= RTE_MAX_ETHPORTS || nic_port >= RTE_MAX_ETHPORTS) {
		fprintf(stderr, "fuzz_flow: no net_octopus0 or net_octonic0_pf0\n");
		exit(1);
	}
	c.pool = mp;
	ret = mp != NULL ? octo_port_start(port, &c) : -ENOMEM;
	if (ret != 0) {
		fprintf(stderr, "fuzz_flow: port bring-up failed: %d\n", ret);
		exit(1);
	}
	atexit(cleanup);
	return 0;
}
