/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * net_octonic's dialects (devargs dialect=, xmeta=) on real ports:
 *   test_octonic_dialect -m 512 --no-pci --file-prefix X -- <case>
 * with <case> generic, mlx5_sws or mlx5_hws: for each dialect every
 * refusal the guide's (octonic.rst) "Dialects" table lists, by rte_flow_validate and by
 * rte_flow_create (the same errno and message; under mlx5-hws validate
 * looks at the pattern only, so an action's refusal comes from create
 * alone), and the rule shape the dialect accepts for "wire -> PF1 ->
 * queue 3 with a MARK", passing traffic.  generic checks the model's own
 * vocabulary is as before.  <dialect>_restart: what a port's stop and
 * start do to the rules (mlx5 flushes them, and under mlx5-hws orders the
 * transfer proxy's start and stop); mlx5_hws_tx: what a PF sends meets the
 * transfer rules under mlx5-hws.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_flow.h>
#include <rte_mbuf.h>

#include <rte_pmd_octonic.h>
#include "../classifier/eswitch_test_util.h"
#include "../common/octo_cases.h"
#include "../common/octo_check.h"
#include "../common/octo_port.h"
#include "../common/octo_state.h"
#include "../common/octo_test_eal.h"
#include "octonic_nic.h"

#define BURST 32
#define ESW_MANAGER 0xffff

static void
nic_close(struct nic *n)
{
	struct rte_flow_error err;

	rte_flow_flush(n->port[1], &err);
	rte_flow_flush(n->port[0], &err);
	/* the transfer proxy last: mlx5-hws refuses it first */
	rte_eth_dev_stop(n->port[1]);
	rte_eth_dev_stop(n->port[0]);
	CHECK(rte_vdev_uninit(n->name) == 0, "uninit %s", n->name);
}

/* ---- rule shapes ---- */

/* One rule: what each case below fills in. */
struct shape {
	int on_pf1;			/* create on PF1 instead of PF0 */
	struct rte_flow_attr attr;
	struct rte_flow_item items[5];
	struct rte_flow_action actions[5];
	/* storage the items and actions point to */
	struct rte_flow_item_meta meta_spec, meta_mask;
	struct rte_flow_action_set_meta set_meta;
	struct rte_flow_action_modify_field modify;
	struct rte_flow_action_ethdev port;
	struct rte_flow_action_port_id port_id;
	struct rte_flow_action_jump jump;
	struct rte_flow_action_mark mark;
	struct rte_flow_action_queue queue;
	struct rte_flow_action_rss rss;
	uint16_t rss_queues[2];
	struct rte_flow_item_ethdev from;	/* a REPRESENTED_PORT item's */
};

enum match { M_UDP, M_META };
enum act {
	A_END, A_SET_META, A_MODIFY_META, A_MARK, A_FLAG, A_QUEUE, A_RSS,
	A_TO_PF1, A_TO_MANAGER, A_TO_PORT0_REPRESENTOR, A_JUMP, A_COUNT,
	A_PORT_ID_PF1,
};

/*
 * A rule in the transfer domain (@p transfer) or PF's ingress, group
 * @p group, matching eth/ipv4/udp or META == 7, doing @p acts (A_END
 * terminated).  META writes and MARK use 7 and 0x55; JUMP goes to group
 * @p group + 1.
 */
static void
shape(struct shape *s, int transfer, uint32_t group, enum match m,
		const enum act *acts, const struct nic *n)
{
	unsigned int na = 0;
	uint32_t seven = 7;

	memset(s, 0, sizeof(*s));
	s->attr.transfer = transfer;
	s->attr.ingress = !transfer;
	s->attr.group = group;
	if (m == M_META) {
		s->meta_spec.data = 7;
		s->meta_mask.data = UINT32_MAX;
		s->items[0].type = RTE_FLOW_ITEM_TYPE_META;
		s->items[0].spec = &s->meta_spec;
		s->items[0].mask = &s->meta_mask;
		s->items[1].type = RTE_FLOW_ITEM_TYPE_END;
	} else {
		s->items[0].type = RTE_FLOW_ITEM_TYPE_ETH;
		s->items[1].type = RTE_FLOW_ITEM_TYPE_IPV4;
		s->items[2].type = RTE_FLOW_ITEM_TYPE_UDP;
		s->items[3].type = RTE_FLOW_ITEM_TYPE_END;
	}
	s->set_meta.data = 7;
	s->set_meta.mask = UINT32_MAX;
	s->modify.operation = RTE_FLOW_MODIFY_SET;
	s->modify.dst.field = RTE_FLOW_FIELD_META;
	s->modify.src.field = RTE_FLOW_FIELD_VALUE;
	memcpy(s->modify.src.value, &seven, sizeof(seven));
	s->modify.width = 32;
	s->mark.id = 0x55;
	s->queue.index = 3;
	s->rss_queues[0] = 1;
	s->rss_queues[1] = 2;
	s->rss.queue = s->rss_queues;
	s->rss.queue_num = 2;
	s->jump.group = group + 1;
	for (; acts[na] != A_END; na++) {
		struct rte_flow_action *a = &s->actions[na];

		switch (acts[na]) {
		case A_SET_META:
			a->type = RTE_FLOW_ACTION_TYPE_SET_META;
			a->conf = &s->set_meta;
			break;
		case A_MODIFY_META:
			a->type = RTE_FLOW_ACTION_TYPE_MODIFY_FIELD;
			a->conf = &s->modify;
			break;
		case A_MARK:
			a->type = RTE_FLOW_ACTION_TYPE_MARK;
			a->conf = &s->mark;
			break;
		case A_FLAG:
			a->type = RTE_FLOW_ACTION_TYPE_FLAG;
			break;
		case A_QUEUE:
			a->type = RTE_FLOW_ACTION_TYPE_QUEUE;
			a->conf = &s->queue;
			break;
		case A_RSS:
			a->type = RTE_FLOW_ACTION_TYPE_RSS;
			a->conf = &s->rss;
			break;
		case A_TO_PF1:
			s->port.port_id = n->port[1];
			a->type = RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT;
			a->conf = &s->port;
			break;
		case A_TO_MANAGER:
			s->port.port_id = ESW_MANAGER;
			a->type = RTE_FLOW_ACTION_TYPE_PORT_REPRESENTOR;
			a->conf = &s->port;
			break;
		case A_TO_PORT0_REPRESENTOR:
			s->port.port_id = n->port[0];
			a->type = RTE_FLOW_ACTION_TYPE_PORT_REPRESENTOR;
			a->conf = &s->port;
			break;
		case A_JUMP:
			a->type = RTE_FLOW_ACTION_TYPE_JUMP;
			a->conf = &s->jump;
			break;
		case A_COUNT:
			a->type = RTE_FLOW_ACTION_TYPE_COUNT;
			break;
		case A_PORT_ID_PF1:
			s->port_id.id = n->port[1];
			a->type = RTE_FLOW_ACTION_TYPE_PORT_ID;
			a->conf = &s->port_id;
			break;
		default:
			break;
		}
	}
	s->actions[na].type = RTE_FLOW_ACTION_TYPE_END;
}

static uint16_t
shape_port(const struct shape *s, const struct nic *n)
{
	return n->port[s->on_pf1 ? 1 : 0];
}

/*
 * The rule must be refused by create with errno @p eno and a message
 * containing @p msg, leaving no rule behind; validate says the same
 * (errno and message), or, with @p create_only, yes (mlx5-hws: validate
 * checks the pattern only, F1).
 */
static void
refused_by(const char *what, const struct shape *s, const struct nic *n,
		int eno, const char *msg, int create_only)
{
	struct rte_flow_error ve, ce;
	char vmsg[200];
	struct rte_flow *f;
	int ret;

	memset(&ve, 0, sizeof(ve));
	memset(&ce, 0, sizeof(ce));
	ret = rte_flow_validate(shape_port(s, n), &s->attr, s->items, s->actions,
		&ve);
	/* the model keeps one message buffer per thread: copy it */
	snprintf(vmsg, sizeof(vmsg), "%s", ve.message != NULL ? ve.message : "");
	CHECK(ret == (create_only ? 0 : -eno), "%s: validate returned %d (%s)",
		what, ret, vmsg);
	CHECK(create_only || strstr(vmsg, msg) != NULL,
		"%s: validate says '%s', not '%s'", what, vmsg, msg);
	f = rte_flow_create(shape_port(s, n), &s->attr, s->items, s->actions, &ce);
	CHECK(f == NULL, "%s: created", what);
	CHECK(rte_errno == eno, "%s: create errno %d, not %d", what, rte_errno,
		eno);
	CHECK(ce.message != NULL && strstr(ce.message, msg) != NULL &&
		(create_only || strcmp(ce.message, vmsg) == 0),
		"%s: create says '%s', validate '%s'", what,
		ce.message != NULL ? ce.message : "", vmsg);
	if (f != NULL)
		rte_flow_destroy(shape_port(s, n), f, &ce);
}

static void
expect_refused(const char *what, const struct shape *s, const struct nic *n,
		int eno, const char *msg)
{
	refused_by(what, s, n, eno, msg, 0);
}

static void
expect_create_refused(const char *what, const struct shape *s,
		const struct nic *n, int eno, const char *msg)
{
	refused_by(what, s, n, eno, msg, 1);
}

/*
 * A rule (shape()'s arguments, made on PF1 if @p on_pf1) and its refusal:
 * by validate and create alike, or by create alone (@p create_only: an
 * action under mlx5-hws, whose validate looks at the pattern only).
 */
struct refusal {
	const char *what;
	int transfer;
	uint32_t group;
	enum match m;
	enum act acts[4];
	int on_pf1;
	int eno;
	const char *msg;
	int create_only;
};

static void
expect_refusals(const struct nic *n, const struct refusal *r, unsigned int nb)
{
	struct shape s;
	unsigned int i;

	for (i = 0; i < nb; i++) {
		shape(&s, r[i].transfer, r[i].group, r[i].m, r[i].acts, n);
		s.on_pf1 = r[i].on_pf1;
		refused_by(r[i].what, &s, n, r[i].eno, r[i].msg,
			r[i].create_only);
	}
}

/* validate says yes, then create makes it. */
static struct rte_flow *
expect_accepted(const char *what, const struct shape *s, const struct nic *n)
{
	struct rte_flow_error err;
	struct rte_flow *f;
	int ret;

	memset(&err, 0, sizeof(err));
	ret = rte_flow_validate(shape_port(s, n), &s->attr, s->items, s->actions,
		&err);
	CHECK(ret == 0, "%s: validate refused: %s", what,
		err.message != NULL ? err.message : "?");
	f = rte_flow_create(shape_port(s, n), &s->attr, s->items, s->actions, &err);
	CHECK(f != NULL, "%s: create refused: %s", what,
		err.message != NULL ? err.message : "?");
	return f;
}

/* ---- traffic ---- */

/*
 * Poll both PFs until @p want frames arrived or nothing came for 200 ms;
 * count those on PF1's queue 3 that carry MARK 0x55 (@p good) and the
 * others (@p bad).  Missed frames (a loaded machine) are added from the
 * queue's xstat.
 */
static void
poll_marked(const struct nic *n, uint64_t want, uint64_t *good, uint64_t *bad)
{
	struct rte_mbuf *pkts[BURST];
	uint64_t hz = rte_get_tsc_hz(), last = rte_get_tsc_cycles();
	uint64_t total = 0, id, missed = 0;
	unsigned int p, i;
	uint16_t q, nb;

	*good = *bad = 0;
	while (total < want && rte_get_tsc_cycles() - last < hz / 5) {
		for (p = 0; p < 2; p++)
			for (q = 0; q < NB_RXQ; q++) {
				nb = rte_eth_rx_burst(n->port[p], q, pkts, BURST);
				if (nb > 0)
					last = rte_get_tsc_cycles();
				total += nb;
				for (i = 0; i < nb; i++) {
					if (p == 1 && q == 3 &&
							(pkts[i]->ol_flags &
							RTE_MBUF_F_RX_FDIR_ID) != 0 &&
							pkts[i]->hash.fdir.hi == 0x55)
						(*good)++;
					else
						(*bad)++;
					rte_pktmbuf_free(pkts[i]);
				}
			}
	}
	if (rte_eth_xstats_get_id_by_name(n->port[1], "rx_q3_missed_packets",
			&id) == 0)
		rte_eth_xstats_get_by_id(n->port[1], &id, &missed, 1);
	*good += missed;
}

/*
 * Install @p rules (the dialect's shape for "wire -> PF1 queue 3 with
 * MARK 0x55"), then check every generated frame ends there, marked.
 */
static void
expect_traffic(const char *what, struct shape *rules, unsigned int nb_rules,
		const struct nic *n, uint64_t nb_frames)
{
	uint64_t good, bad;
	unsigned int i;

	/* no frame before the rules: pause, drop what came, then generate
	 * exactly nb_frames */
	CHECK(rte_pmd_octonic_gen_enable(n->port[0], 0) == 0, "gen pause");
	poll_marked(n, UINT64_MAX, &good, &bad);
	for (i = 0; i < nb_rules; i++)
		if (expect_accepted(what, &rules[i], n) == NULL)
			return;
	REQUIRE(octo_gen_limit(n->port[0], nb_frames) == 0 &&
		rte_pmd_octonic_gen_enable(n->port[0], 1) == 0, "gen get, set and start");
	poll_marked(n, nb_frames, &good, &bad);
	CHECK(good == nb_frames && bad == 0,
		"%s: %" PRIu64 " of %" PRIu64 " frames on PF1 q3 with the mark, %" PRIu64 " elsewhere",
		what, good, nb_frames, bad);
}

#define ACTS(...) ((const enum act[]){ __VA_ARGS__, A_END })
#define NIC_ARGS "pfs=2,flows=16,gen_rate=200000,"
#define FRAMES 1000

/* ---- per dialect ---- */

/*
 * Refusals common to both mlx5 dialects, @p d its name as in messages:
 * transfer rules off the proxy (an attribute: validate says so under
 * either), QUEUE/RSS in transfer (actions: create only under mlx5-hws).
 */
static void
mlx5_common_refusals(const struct nic *n, const char *d)
{
	int hws = strcmp(d, "mlx5-hws") == 0;
	struct shape s;
	char msg[128];

	shape(&s, 1, 1, M_UDP, ACTS(A_TO_PF1), n);
	s.on_pf1 = 1;
	snprintf(msg, sizeof(msg),
		"%s: transfer rules only through the transfer proxy (e-switch manager) port %u",
		d, n->port[0]);
	expect_refused("transfer off the proxy", &s, n, EINVAL, msg);
	shape(&s, 1, 1, M_UDP, ACTS(A_QUEUE), n);
	snprintf(msg, sizeof(msg), "%s: QUEUE is not a transfer action (ingress only)", d);
	(hws ? expect_create_refused : expect_refused)("transfer QUEUE", &s, n,
		ENOTSUP, msg);
	shape(&s, 1, 1, M_UDP, ACTS(A_RSS), n);
	snprintf(msg, sizeof(msg), "%s: RSS is not a transfer action (ingress only)", d);
	(hws ? expect_create_refused : expect_refused)("transfer RSS", &s, n,
		ENOTSUP, msg);
	/* ingress QUEUE and RSS stay fine: validate only */
	shape(&s, 0, 0, M_UDP, ACTS(A_QUEUE), n);
	s.on_pf1 = 1;
	CHECK(rte_flow_validate(n->port[1], &s.attr, s.items, s.actions, NULL) == 0,
		"ingress QUEUE refused");
	shape(&s, 0, 0, M_UDP, ACTS(A_RSS), n);
	CHECK(rte_flow_validate(n->port[0], &s.attr, s.items, s.actions, NULL) == 0,
		"ingress RSS refused");
}

static void
test_generic(struct rte_mempool *unused __rte_unused)
{
	struct shape s, rules[2];
	struct nic n;

	/* dialect=generic is the default: both NICs must behave the same */
	REQUIRE(nic_open(&n, "net_octonic70", NIC_ARGS "gen_limit=1") == 0, "probe");
	shape(&s, 1, 0, M_UDP, ACTS(A_MARK, A_SET_META, A_TO_PF1), &n);
	s.on_pf1 = 1;
	expect_refused("transfer off the proxy", &s, &n, EINVAL,
		"transfer rules must be created on the transfer proxy port");
	shape(&s, 1, 0, M_UDP, ACTS(A_QUEUE), &n);
	expect_refused("transfer QUEUE", &s, &n, ENOTSUP,
		"not supported in the transfer domain");
	/* not in the model's generic vocabulary, as before the dialects */
	shape(&s, 1, 1, M_UDP, ACTS(A_MODIFY_META, A_TO_PF1), &n);
	expect_refused("MODIFY_FIELD", &s, &n, ENOTSUP,
		"not supported in the transfer domain");
	shape(&s, 1, 1, M_UDP, ACTS(A_TO_MANAGER), &n);
	expect_refused("PORT_REPRESENTOR", &s, &n, ENOTSUP,
		"not supported in the transfer domain");
	/* what the mlx5 dialects refuse, generic takes */
	shape(&s, 1, 0, M_META, ACTS(A_MARK, A_FLAG, A_SET_META, A_TO_PF1), &n);
	rte_flow_destroy(n.port[0], expect_accepted("META, MARK, FLAG, SET_META in transfer group 0", &s, &n), NULL);
	nic_close(&n);

	REQUIRE(nic_open(&n, "net_octonic71", NIC_ARGS "dialect=generic,gen_limit=1") == 0,
		"probe");
	/* the model's usual shape: SET_META and MARK in transfer group 0 */
	shape(&rules[0], 1, 0, M_UDP, ACTS(A_SET_META, A_MARK, A_TO_PF1), &n);
	shape(&rules[1], 0, 0, M_META, ACTS(A_QUEUE), &n);
	rules[1].on_pf1 = 1;
	expect_traffic("generic", rules, 2, &n, FRAMES);
	nic_close(&n);
}

/* mlx5-sws, xmeta=0: validate says what create says */
static const struct refusal sws_xmeta0[] = {
	{ "META in transfer, xmeta=0", 1, 1, M_META, { A_TO_PF1 }, 0, ENOTSUP,
		"mlx5-sws: META match in transfer rules needs extended metadata (xmeta=1..3", 0 },
	{ "META in ingress, xmeta=0", 0, 0, M_META, { A_QUEUE }, 0, ENOTSUP,
		"mlx5-sws: META match in ingress rules needs extended metadata", 0 },
	{ "SET_META in transfer, xmeta=0", 1, 1, M_UDP, { A_SET_META, A_TO_PF1 }, 0,
		ENOTSUP, "mlx5-sws: SET_META in transfer rules needs extended metadata", 0 },
	{ "MODIFY_FIELD META in transfer, xmeta=0", 1, 1, M_UDP,
		{ A_MODIFY_META, A_TO_PF1 }, 0, ENOTSUP,
		"mlx5-sws: META in transfer rules needs extended metadata", 0 },
	{ "MARK in transfer, xmeta=0", 1, 1, M_UDP, { A_MARK, A_TO_PF1 }, 0, ENOTSUP,
		"mlx5-sws: MARK in transfer rules needs extended metadata", 0 },
	{ "FLAG in transfer, xmeta=0", 1, 1, M_UDP, { A_FLAG, A_TO_PF1 }, 0, ENOTSUP,
		"mlx5-sws: FLAG in transfer rules needs extended metadata", 0 },
	{ "PORT_REPRESENTOR", 1, 1, M_UDP, { A_TO_MANAGER }, 0, ENOTSUP,
		"mlx5-sws: PORT_REPRESENTOR is not supported: use REPRESENTED_PORT", 0 },
};

static void
test_mlx5_sws(struct rte_mempool *unused __rte_unused)
{
	struct shape s, rules[3];
	struct nic n;

	/* xmeta=0 (legacy, mlx5's default): no metadata across domains */
	REQUIRE(nic_open(&n, "net_octonic72", NIC_ARGS "dialect=mlx5-sws,gen_limit=1") == 0,
		"probe");
	mlx5_common_refusals(&n, "mlx5-sws");
	expect_refusals(&n, sws_xmeta0, RTE_DIM(sws_xmeta0));
	nic_close(&n);

	/* xmeta=1: META and MARK cross the domains; not at the root */
	REQUIRE(nic_open(&n, "net_octonic73", NIC_ARGS "dialect=mlx5-sws,xmeta=1,gen_limit=1") == 0,
		"probe");
	shape(&s, 1, 0, M_META, ACTS(A_TO_PF1), &n);
	expect_refused("META in transfer group 0", &s, &n, ENOTSUP,
		"mlx5-sws: META match in transfer group 0 (the root table)");
	shape(&s, 1, 0, M_UDP, ACTS(A_MODIFY_META, A_TO_PF1), &n);
	expect_refused("MODIFY_FIELD in group 0", &s, &n, ENOTSUP,
		"mlx5-sws: MODIFY_FIELD is not supported in group 0 (the root table)");
	/* group 0 jumps; group 1 writes META (SET_META) and MARK, to PF1;
	 * PF1's ingress picks the queue by META */
	shape(&rules[0], 1, 0, M_UDP, ACTS(A_JUMP), &n);
	shape(&rules[1], 1, 1, M_UDP, ACTS(A_SET_META, A_MARK, A_TO_PF1), &n);
	shape(&rules[2], 0, 0, M_META, ACTS(A_QUEUE), &n);
	rules[2].on_pf1 = 1;
	expect_traffic("mlx5-sws xmeta=1", rules, 3, &n, FRAMES);
	/* MODIFY_FIELD and FLAG are accepted there too */
	shape(&s, 1, 1, M_UDP, ACTS(A_MODIFY_META, A_FLAG, A_COUNT, A_TO_PF1), &n);
	rte_flow_destroy(n.port[0], expect_accepted("MODIFY_FIELD, FLAG in group 1", &s, &n), NULL);
	nic_close(&n);
}

/*
 * mlx5-hws, mlx5_dpdk=22.11, xmeta=0: actions are refused by create
 * alone, validate saying yes (F1); SET_META with mlx5's words (F2:
 * "invalid flow action", mlx5_flow_hw_action_flags_get); no fate at all:
 * validate still says yes.  The pattern is validated: META in ingress
 * needs xmeta=4.
 */
static const struct refusal hws_2211[] = {
	{ "SET_META", 1, 1, M_UDP, { A_SET_META, A_TO_PF1 }, 0, EINVAL,
		"mlx5-hws: invalid flow action: SET_META has no hardware-steering implementation", 1 },
	{ "MARK in transfer", 1, 1, M_UDP, { A_MARK, A_TO_PF1 }, 0, ENOTSUP,
		"mlx5-hws: MARK is not a transfer action (ingress only)", 1 },
	{ "FLAG in transfer", 1, 1, M_UDP, { A_FLAG, A_TO_PF1 }, 0, ENOTSUP,
		"mlx5-hws: FLAG is not a transfer action (ingress only)", 1 },
	{ "PORT_REPRESENTOR to a port", 1, 1, M_UDP, { A_TO_PORT0_REPRESENTOR }, 0,
		ENOTSUP,
		"mlx5-hws: PORT_REPRESENTOR only to the e-switch manager (port_id 0xffff)", 1 },
	{ "no fate", 1, 1, M_UDP, { A_COUNT }, 0, EINVAL,
		"transfer rules need one of jump, represented_port, drop", 1 },
	{ "META in ingress, xmeta=0", 0, 0, M_META, { A_QUEUE }, 1, ENOTSUP,
		"mlx5-hws: META match in ingress rules needs xmeta=4", 0 },
	{ "transfer group UINT32_MAX", 1, UINT32_MAX, M_UDP, { A_TO_PF1 }, 0, EINVAL,
		"mlx5-hws: group index not supported", 0 },
};

/* Transfer MARK and FLAG, refused by create for @p why. */
#define MARK_FLAG_REFUSED(why) \
	{ "MARK: " why, 1, 1, M_UDP, { A_MARK, A_TO_PF1 }, 0, ENOTSUP, \
		"mlx5-hws: MARK " why, 1 }, \
	{ "FLAG: " why, 1, 1, M_UDP, { A_FLAG, A_TO_PF1 }, 0, ENOTSUP, \
		"mlx5-hws: FLAG " why, 1 }

/* mlx5-hws, mlx5_dpdk=25.11: transfer MARK/FLAG need the NIC's
 * capability, PORT_ID is refused */
static const struct refusal hws_2511[] = {
	MARK_FLAG_REFUSED("in transfer rules needs the NIC's fdb_rx_set_flow_tag_stc capability (fdb_mark=1)"),
	{ "PORT_ID, 25.11", 1, 1, M_UDP, { A_PORT_ID_PF1 }, 0, ENOTSUP,
		"mlx5-hws: PORT_ID is not supported: use REPRESENTED_PORT", 1 },
};

/* ... with the capability (fdb_mark=1): only in specialised tables */
static const struct refusal hws_2511_mark[] = {
	MARK_FLAG_REFUSED("in transfer rules only in template tables specialised for the wire's frames"),
};

static void
test_mlx5_hws(struct rte_mempool *unused __rte_unused)
{
	struct shape s, rules[2];
	struct nic n;

	/* xmeta=0 (mlx5's default), DPDK 22.11's mlx5 whatever DPDK this
	 * runs on (the transfer MARK/FLAG refusals below are 22.11's) */
	REQUIRE(nic_open(&n, "net_octonic74",
		NIC_ARGS "dialect=mlx5-hws,mlx5_dpdk=22.11,gen_limit=1") == 0, "probe");
	mlx5_common_refusals(&n, "mlx5-hws");
	expect_refusals(&n, hws_2211, RTE_DIM(hws_2211));
	shape(&s, 1, 1, M_UDP, ACTS(A_COUNT), &n);
	s.actions[0].type = RTE_FLOW_ACTION_TYPE_OF_POP_VLAN;
	expect_create_refused("OF_POP_VLAN", &s, &n, ENOTSUP, "not supported");
	/* META match in transfer, in group 0, is fine with any xmeta */
	shape(&s, 1, 0, M_META, ACTS(A_TO_PF1), &n);
	rte_flow_destroy(n.port[0], expect_accepted("META in transfer group 0", &s, &n), NULL);
	nic_close(&n);

	/* xmeta=4: META goes from the e-switch to the PF's ingress */
	REQUIRE(nic_open(&n, "net_octonic75", NIC_ARGS "dialect=mlx5-hws,xmeta=4,gen_limit=1") == 0,
		"probe");
	shape(&rules[0], 1, 0, M_UDP, ACTS(A_MODIFY_META, A_TO_PF1), &n);
	shape(&rules[1], 0, 0, M_META, ACTS(A_MARK, A_QUEUE), &n);
	rules[1].on_pf1 = 1;
	expect_traffic("mlx5-hws xmeta=4", rules, 2, &n, FRAMES);
	/* PORT_REPRESENTOR to the e-switch manager (PF0) is taken */
	shape(&s, 1, 0, M_UDP, ACTS(A_TO_MANAGER), &n);
	rte_flow_destroy(n.port[0], expect_accepted("PORT_REPRESENTOR 0xffff", &s, &n), NULL);
	nic_close(&n);

	/* DPDK 25.11's mlx5: transfer MARK/FLAG need the NIC's capability,
	 * PORT_ID is refused */
	REQUIRE(nic_open(&n, "net_octonic76",
		NIC_ARGS "dialect=mlx5-hws,mlx5_dpdk=25.11,gen_limit=1") == 0, "probe");
	mlx5_common_refusals(&n, "mlx5-hws");
	expect_refusals(&n, hws_2511, RTE_DIM(hws_2511));
	nic_close(&n);

	/* 25.11 with the capability: transfer MARK only in template tables
	 * specialised for the wire's frames (F5), never in rte_flow_create's
	 * rules (eswitch_mlx5_wire_mark shows it carried to the PF) */
	REQUIRE(nic_open(&n, "net_octonic77",
		NIC_ARGS "dialect=mlx5-hws,mlx5_dpdk=25.11,fdb_mark=1,gen_limit=1") == 0,
		"probe");
	expect_refusals(&n, hws_2511_mark, RTE_DIM(hws_2511_mark));
	nic_close(&n);
}

/* ---- a port's stop and start (F7, F8) ---- */

static uint64_t
dev_capa(uint16_t port)
{
	struct rte_eth_dev_info info;

	if (rte_eth_dev_info_get(port, &info) != 0)
		return 0;
	return info.dev_capa;
}

/* Transfer and PF1 ingress rules made on the NIC, per its e-switch. */
static void
rule_counts(const struct nic *n, uint32_t *transfer, uint32_t *ingress1)
{
	struct rte_pmd_octonic_flow_stats st;

	memset(&st, 0, sizeof(st));
	CHECK(rte_pmd_octonic_flow_stats_get(n->port[1], &st) == 0, "flow stats");
	*transfer = st.transfer_rules;
	*ingress1 = st.ingress_rules;
}

/* One flow queue of 64 on @p port, stopped (mlx5-hws: its flow engine). */
static int
flow_engine(uint16_t port)
{
	const struct rte_flow_port_attr pa = { 0 };
	const struct rte_flow_queue_attr qa = { .size = 64 };
	const struct rte_flow_queue_attr *qas[] = { &qa };
	struct rte_flow_error err;

	return rte_flow_configure(port, &pa, 1, qas, &err);
}

/*
 * The shape "wire -> PF1 -> queue 3, marked" in @p rules (@p hws: with
 * META written by MODIFY_FIELD, else by SET_META; xmeta must carry it).
 */
static void
steer_rules(struct shape rules[2], const struct nic *n, int hws)
{
	shape(&rules[0], 1, 0, M_UDP, hws ? ACTS(A_MODIFY_META, A_TO_PF1) :
		ACTS(A_SET_META, A_TO_PF1), n);
	shape(&rules[1], 0, 0, M_META, ACTS(A_MARK, A_QUEUE), n);
	rules[1].on_pf1 = 1;
}

/* Generate @p nb more frames and count where they land. */
static void
regenerate(const struct nic *n, uint64_t nb, uint64_t *good, uint64_t *bad)
{

	*good = *bad = 0;
	REQUIRE(octo_gen_limit(n->port[0], nb) == 0 &&
		rte_pmd_octonic_gen_enable(n->port[0], 1) == 0, "gen get, set and start");
	poll_marked(n, nb, good, bad);
}

static struct rte_flow *
create(const struct shape *s, const struct nic *n)
{
	struct rte_flow_error err;

	return rte_flow_create(shape_port(s, n), &s->attr, s->items, s->actions,
		&err);
}

/*
 * mlx5-hws, mlx5_dpdk=@p release: dev_capa; the order of starts and
 * stops once the proxy has a flow engine (22.11: rte_flow_configure,
 * which each PF then needs; 25.11: the first start); each stop flushing
 * the rules made on its port (PF1: its ingress rules, PF0: the transfer
 * rules), creates refused while stopped, flushed handles destroyed.
 */
static void
hws_restart(const char *name, const char *release)
{
	int r2211 = strcmp(release, "22.11") == 0;
	struct shape rules[2];
	struct rte_flow *f[2];
	struct rte_flow_error err;
	uint32_t nt, ni;
	char args[160];
	uint64_t good, bad;
	struct nic n;

	snprintf(args, sizeof(args), NIC_ARGS "dialect=mlx5-hws,xmeta=4,mlx5_dpdk=%s,gen_limit=1",
		release);
	REQUIRE(nic_open(&n, name, args) == 0, "probe");
	CHECK((dev_capa(n.port[0]) & RTE_ETH_DEV_CAPA_FLOW_SHARED_OBJECT_KEEP) != 0 &&
		(dev_capa(n.port[0]) & RTE_ETH_DEV_CAPA_FLOW_RULE_KEEP) == 0,
		"%s: dev_capa %#" PRIx64, release, dev_capa(n.port[0]));
	if (r2211) {
		/* no flow engine on the proxy yet: any order */
		CHECK(rte_eth_dev_stop(n.port[0]) == 0, "22.11: PF0 stop before PF1");
		CHECK(rte_eth_dev_stop(n.port[1]) == 0, "PF1 stop");
		CHECK(flow_engine(n.port[0]) == 0, "PF0 configure");
		CHECK(rte_eth_dev_start(n.port[1]) == -EAGAIN,
			"22.11: PF1 started before the configured proxy");
		CHECK(rte_eth_dev_start(n.port[0]) == 0, "PF0 start");
		CHECK(rte_eth_dev_start(n.port[1]) == -EINVAL,
			"22.11: PF1 started without its own flow engine");
		CHECK(flow_engine(n.port[1]) == 0, "PF1 configure");
		CHECK(rte_eth_dev_start(n.port[1]) == 0, "PF1 start");
	}
	steer_rules(rules, &n, 1);
	expect_traffic("before any stop", rules, 2, &n, FRAMES);
	/* the rules expect_traffic made, found again */
	rule_counts(&n, &nt, &ni);
	CHECK(nt == 1 && ni == 1, "rules before: %u transfer, %u PF1 ingress", nt, ni);

	/* the proxy stops last (EBUSY, still started, rules kept) */
	CHECK(rte_eth_dev_stop(n.port[0]) == -EBUSY, "PF0 stopped before PF1");
	/* still started: a stop is refused again, not "already stopped" */
	CHECK(rte_eth_dev_stop(n.port[0]) == -EBUSY, "PF0 not started");
	rule_counts(&n, &nt, &ni);
	CHECK(nt == 1 && ni == 1, "after a refused stop: %u, %u", nt, ni);
	/* PF1 stops: its ingress rule goes, the transfer rule (PF0's) stays */
	CHECK(rte_eth_dev_stop(n.port[1]) == 0, "PF1 stop");
	rule_counts(&n, &nt, &ni);
	CHECK(nt == 1 && ni == 0, "PF1 stopped: %u transfer, %u PF1 ingress", nt, ni);
	f[1] = create(&rules[1], &n);
	CHECK(f[1] == NULL && rte_errno == ENODEV, "rule made on stopped PF1");
	CHECK(rte_eth_dev_start(n.port[1]) == 0, "PF1 start, PF0 started");
	CHECK(rte_eth_dev_stop(n.port[1]) == 0 && rte_eth_dev_stop(n.port[0]) == 0,
		"stop PF1 then PF0");
	rule_counts(&n, &nt, &ni);
	CHECK(nt == 0 && ni == 0, "both stopped: %u, %u", nt, ni);
	f[0] = rte_flow_create(n.port[0], &rules[0].attr, rules[0].items,
		rules[0].actions, &err);
	CHECK(f[0] == NULL && rte_errno == ENODEV && err.message != NULL &&
		strstr(err.message, "mlx5-hws: port not started") != NULL,
		"create on stopped PF0: %s", err.message ? err.message : "made");
	/* a representor before the proxy: EAGAIN */
	CHECK(rte_eth_dev_start(n.port[1]) == -EAGAIN, "PF1 started before PF0");
	CHECK(rte_eth_dev_start(n.port[0]) == 0 && rte_eth_dev_start(n.port[1]) == 0,
		"start PF0 then PF1");
	/* nothing steers now: every frame unmarked, on PF0 (RSS) */
	regenerate(&n, 200, &good, &bad);
	CHECK(good == 0 && bad > 0, "after the restart: %" PRIu64 " steered, %" PRIu64 " not",
		good, bad);
	nic_close(&n);
}

/* The handles a stop flushed: destroyed with 0 (mlx5's answer), once. */
static void
hws_stale_handles(void)
{
	struct shape rules[2];
	struct rte_flow *f[2];
	struct rte_flow_error err;
	struct nic n;

	REQUIRE(nic_open(&n, "net_octonic79", NIC_ARGS "dialect=mlx5-hws,xmeta=4,gen_limit=1") == 0,
		"probe");
	steer_rules(rules, &n, 1);
	f[0] = create(&rules[0], &n);
	f[1] = create(&rules[1], &n);
	REQUIRE(f[0] != NULL && f[1] != NULL, "rules");
	CHECK(rte_eth_dev_stop(n.port[1]) == 0 && rte_eth_dev_stop(n.port[0]) == 0 &&
		rte_eth_dev_start(n.port[0]) == 0 && rte_eth_dev_start(n.port[1]) == 0,
		"restart");
	CHECK(rte_flow_destroy(n.port[1], f[1], &err) == 0, "flushed PF1 rule's handle");
	CHECK(rte_flow_destroy(n.port[0], f[0], &err) == 0, "flushed transfer rule's handle");
	nic_close(&n);
}

static void
test_mlx5_hws_restart(struct rte_mempool *unused __rte_unused)
{
	hws_restart("net_octonic78", "22.11");
	hws_restart("net_octonic80", "25.11");
	hws_stale_handles();
}

/* mlx5-sws flushes too, in any order of the PFs; generic keeps its rules. */
static void
plain_restart(const char *name, const char *args, int flushed)
{
	struct shape rules[2];
	uint32_t nt, ni;
	uint64_t good, bad;
	struct nic n;

	REQUIRE(nic_open(&n, name, args) == 0, "probe");
	CHECK((dev_capa(n.port[0]) & RTE_ETH_DEV_CAPA_FLOW_RULE_KEEP) == (flushed ? 0 :
		RTE_ETH_DEV_CAPA_FLOW_RULE_KEEP), "%s: dev_capa %#" PRIx64, args,
		dev_capa(n.port[0]));
	steer_rules(rules, &n, 0);
	expect_traffic(args, rules, 2, &n, FRAMES);
	CHECK(rte_eth_dev_stop(n.port[0]) == 0 && rte_eth_dev_stop(n.port[1]) == 0,
		"%s: stop PF0 then PF1", args);
	rule_counts(&n, &nt, &ni);
	CHECK(flushed ? nt == 0 && ni == 0 : nt == 1 && ni == 1,
		"%s: after the stops: %u transfer, %u PF1 ingress", args, nt, ni);
	CHECK((create(&rules[0], &n) == NULL) == flushed, "%s: create on a stopped port",
		args);
	CHECK(rte_eth_dev_start(n.port[1]) == 0 && rte_eth_dev_start(n.port[0]) == 0,
		"%s: start PF1 then PF0", args);
	regenerate(&n, 200, &good, &bad);
	CHECK(flushed ? good == 0 && bad > 0 : good == 200 && bad == 0, "%s: after the restart: %" PRIu64
		" steered, %" PRIu64 " not", args, good, bad);
	nic_close(&n);
}

static void
test_mlx5_sws_restart(struct rte_mempool *unused __rte_unused)
{
	plain_restart("net_octonic81", NIC_ARGS "dialect=mlx5-sws,xmeta=1,gen_limit=1", 1);
}

static void
test_generic_restart(struct rte_mempool *unused __rte_unused)
{
	plain_restart("net_octonic82", NIC_ARGS "gen_limit=1", 0);
}

/* ---- what a PF sends (F9) ---- */

#define TX_FRAMES 64

/*
 * "eth/ipv4/udp -> PF1" in transfer group 0, (@p from_wire) for frames
 * from the wire only (a REPRESENTED_PORT item naming PF0's port, the
 * uplink's representor); PF1's ingress: queue 3 with the MARK.
 */
static void
to_pf1_shapes(struct shape rules[2], const struct nic *n, int from_wire)
{
	struct shape *t = &rules[0];

	shape(t, 1, 0, M_UDP, ACTS(A_TO_PF1), n);
	if (from_wire) {
		memmove(&t->items[1], &t->items[0], 3 * sizeof(t->items[0]));
		memset(&t->items[0], 0, sizeof(t->items[0]));
		t->from.port_id = n->port[0];
		t->items[0].type = RTE_FLOW_ITEM_TYPE_REPRESENTED_PORT;
		t->items[0].spec = &t->from;
	}
	shape(&rules[1], 0, 0, M_UDP, ACTS(A_MARK, A_QUEUE), n);
	rules[1].on_pf1 = 1;
}

/* @p nb IPv4/UDP frames sent by PF0's Tx queue 0. */
static void
pf0_send(const struct nic *n, unsigned int nb)
{
	struct rte_mbuf *m[TX_FRAMES];
	unsigned int i, sent = 0;
	uint64_t until = rte_get_tsc_cycles() + rte_get_tsc_hz();

	for (i = 0; i < nb; i++) {
		m[i] = mk_udp4(pool, 0x0a000001, 0x0a000002 + i, 1000, 2000);
		REQUIRE(m[i] != NULL, "mbuf");
	}
	while (sent < nb && rte_get_tsc_cycles() < until)
		sent += rte_eth_tx_burst(n->port[0], 0, m + sent, nb - sent);
	CHECK(sent == nb, "PF0 sent %u of %u", sent, nb);
	for (i = sent; i < nb; i++)
		rte_pktmbuf_free(m[i]);
}

static uint64_t
sink_pkts(const struct nic *n)
{
	struct rte_pmd_octonic_sink_stats st;

	memset(&st, 0, sizeof(st));
	CHECK(rte_pmd_octonic_sink_stats_get(n->port[0], &st) == 0, "sink stats");
	return st.pkts;
}

/*
 * Under mlx5-hws a transfer rule without a REPRESENTED_PORT item takes
 * what PF0 transmits as well (hairpinned to PF1 here, nothing reaches the
 * wire); with the item naming PF0's port, the wire (the uplink's
 * representor), PF0's frames go out and the wire's frames are steered.
 * mlx5-sws's rules match the wire's frames only (mlx5 adds the port they
 * are made on, PF0: the uplink): PF0's frames go out.
 */
static void
tx_case(const char *name, const char *dialect, int from_wire_item,
		int hairpinned)
{
	struct shape rules[2];
	struct rte_flow *f[2];
	struct rte_flow_error err;
	uint64_t good, bad, sink0;
	char args[160];
	struct nic n;
	unsigned int i;

	snprintf(args, sizeof(args), NIC_ARGS "dialect=%s,xmeta=%s,gen_limit=1",
		dialect, strcmp(dialect, "mlx5-hws") == 0 ? "4" : "1");
	REQUIRE(nic_open(&n, name, args) == 0, "probe");
	CHECK(rte_pmd_octonic_gen_enable(n.port[0], 0) == 0, "gen pause");
	poll_marked(&n, UINT64_MAX, &good, &bad);
	to_pf1_shapes(rules, &n, from_wire_item);
	for (i = 0; i < 2; i++) {
		f[i] = rte_flow_create(shape_port(&rules[i], &n), &rules[i].attr,
			rules[i].items, rules[i].actions, &err);
		REQUIRE(f[i] != NULL, "%s rule %u: %s", args, i,
			err.message != NULL ? err.message : "");
	}
	sink0 = sink_pkts(&n);
	pf0_send(&n, TX_FRAMES);
	poll_marked(&n, hairpinned ? TX_FRAMES : UINT64_MAX, &good, &bad);
	CHECK(good == (hairpinned ? TX_FRAMES : 0) && bad == 0,
		"%s: PF0's frames on PF1 q3: %" PRIu64 " (%" PRIu64 " elsewhere)",
		args, good, bad);
	CHECK(sink_pkts(&n) - sink0 == (hairpinned ? 0 : TX_FRAMES),
		"%s: %" PRIu64 " of PF0's frames on the wire", args,
		sink_pkts(&n) - sink0);
	nic_close(&n);
}

static void
test_mlx5_hws_tx(struct rte_mempool *unused __rte_unused)
{
	struct shape rules[2];
	struct nic n;

	tx_case("net_octonic83", "mlx5-hws", 0, 1);
	tx_case("net_octonic84", "mlx5-hws", 1, 0);
	tx_case("net_octonic85", "mlx5-sws", 0, 0);
	/* the rule with the wire's port still steers the wire's frames */
	REQUIRE(nic_open(&n, "net_octonic86", NIC_ARGS "dialect=mlx5-hws,gen_limit=1") == 0,
		"probe");
	to_pf1_shapes(rules, &n, 1);
	expect_traffic("mlx5-hws, from the wire's port", rules, 2, &n, FRAMES);
	nic_close(&n);
}

static const struct octo_case tests[] = {
	{ "generic", test_generic },
	{ "mlx5_sws", test_mlx5_sws },
	{ "mlx5_hws", test_mlx5_hws },
	{ "generic_restart", test_generic_restart },
	{ "mlx5_sws_restart", test_mlx5_sws_restart },
	{ "mlx5_hws_restart", test_mlx5_hws_restart },
	{ "mlx5_hws_tx", test_mlx5_hws_tx },
};

NIC_TEST_MAIN(tests)
