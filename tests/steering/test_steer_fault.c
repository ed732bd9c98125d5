/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * octopus_steer.c against two fake ethdev ports whose rte_flow ops fail on
 * demand: a refused create or destroy in the middle of a change must leave
 * exactly the rules that were there before; a probe that refuses one
 * feature must be reported with that feature's name; SET_META refused,
 * META is written with MODIFY_FIELD, also where validate takes SET_META and
 * only a create refuses it (mlx5's hardware steering validates patterns
 * only); META writes refused in transfer group 0 (the root table), the
 * classification goes to group 1 behind a jump. Every rule a probe creates
 * matches no frame and is destroyed at once.
 *
 * The fake ports are allocated directly with rte_eth_dev_allocate() and
 * have only flow ops: the steering code never configures a port.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_flow.h>
#include <rte_flow_driver.h>
#include <ethdev_driver.h>
#include <octopus_dpdk_compat.h>

#include "octopus_steer.h"

#include "../common/octo_check.h"
#include "../common/octo_steer_conf.h"
#include "../common/octo_test_eal.h"

#define NB_Q 4
#define RETA 16
#define MAX_LIVE 1024

/* ---- the fake NIC ---- */

struct rte_flow {
	char desc[96];		/* port, attributes and fate: what the rule is */
};

static struct {
	struct rte_flow *live[MAX_LIVE];
	unsigned int nb_live;
	long create_fail_in;	/* fail the create after this many, -1: never */
	long destroy_fail_in;
	int refuse_set_meta;	/* validate refuses SET_META */
	int refuse_modify;	/* validate refuses MODIFY_FIELD */
	int refuse_root_meta;	/* validate refuses META writes in transfer group 0 */
	int refuse_ingress_meta;	/* validate refuses META in ingress */
	int create_refuses_set_meta;	/* validate takes SET_META, create refuses it */
	unsigned int probes;		/* probe rules created (they match no frame) */
	uint16_t proxy;
} fake;

/* Whether a rule's pattern is a probe's: no frame matches it
 * (octopus_steer_probe: ETH to an all-zero MAC of ether type 0, or META all
 * ones), so a probe's create is not a rule of the steering's.
 */
static int
is_probe(const struct rte_flow_item items[])
{
	const struct rte_flow_item_eth *e = items[0].spec;
	const struct rte_flow_item_meta *m = items[0].spec;
	static const struct rte_ether_addr zero;

	if (items[1].type != RTE_FLOW_ITEM_TYPE_END || items[0].spec == NULL)
		return 0;
	if (items[0].type == RTE_FLOW_ITEM_TYPE_META)
		return m->data == UINT32_MAX;
	return items[0].type == RTE_FLOW_ITEM_TYPE_ETH && e->hdr.ether_type == 0 &&
		rte_is_same_ether_addr(&e->hdr.dst_addr, &zero);
}

static void
describe(struct rte_eth_dev *dev, const struct rte_flow_attr *attr,
		const struct rte_flow_item items[], const struct rte_flow_action actions[],
		char *buf, size_t len)
{
	const struct rte_flow_action *a;
	int n;

	n = snprintf(buf, len, "port=%u %s g=%u p=%u items=", dev->data->port_id,
		attr->transfer ? "transfer" : "ingress", attr->group, attr->priority);
	for (; items->type != RTE_FLOW_ITEM_TYPE_END; items++) {
		/* the field values matter: bucket rules differ by them */
		const void *spec = items->spec;
		uint32_t h = 0;

		if (items->type == RTE_FLOW_ITEM_TYPE_META && spec != NULL)
			h = ((const struct rte_flow_item_meta *)spec)->data;
		else if (items->type == RTE_FLOW_ITEM_TYPE_UDP && spec != NULL)
			h = ((const struct rte_flow_item_udp *)spec)->hdr.src_port;
		else if (items->type == RTE_FLOW_ITEM_TYPE_TCP && spec != NULL)
			h = ((const struct rte_flow_item_tcp *)spec)->hdr.src_port;
		else if (items->type == RTE_FLOW_ITEM_TYPE_IPV4 && spec != NULL)
			h = ((const struct rte_flow_item_ipv4 *)spec)->hdr.src_addr;
		else if (items->type == RTE_FLOW_ITEM_TYPE_IPV6 && spec != NULL)
			h = OCTO_IPV6_BYTES(((const struct rte_flow_item_ipv6 *)spec)->hdr.src_addr)[15];
		n += snprintf(buf + n, len - n, "%d:%x,", items->type, h);
	}
	for (a = actions; a->type != RTE_FLOW_ACTION_TYPE_END; a++) {
		uint32_t v = 0;

		if (a->type == RTE_FLOW_ACTION_TYPE_SET_META)
			v = ((const struct rte_flow_action_set_meta *)a->conf)->data;
		else if (a->type == RTE_FLOW_ACTION_TYPE_QUEUE)
			v = ((const struct rte_flow_action_queue *)a->conf)->index;
		else if (a->type == RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT)
			v = ((const struct rte_flow_action_ethdev *)a->conf)->port_id;
		n += snprintf(buf + n, len - n, " a%d:%u", a->type, v);
	}
}

static int
fake_validate(struct rte_eth_dev *dev, const struct rte_flow_attr *attr,
		const struct rte_flow_item items[], const struct rte_flow_action actions[],
		struct rte_flow_error *err)
{
	const struct rte_flow_item *it;
	const struct rte_flow_action *a;

	if (attr->transfer && dev->data->port_id != fake.proxy)
		return rte_flow_error_set(err, EINVAL, RTE_FLOW_ERROR_TYPE_ATTR_TRANSFER,
			NULL, "transfer rules on the proxy only");
	for (a = actions; a->type != RTE_FLOW_ACTION_TYPE_END; a++)
		if (fake.refuse_set_meta && a->type == RTE_FLOW_ACTION_TYPE_SET_META)
			return rte_flow_error_set(err, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION,
				a, "fake: no set_meta");
		else if (fake.refuse_modify && a->type == RTE_FLOW_ACTION_TYPE_MODIFY_FIELD)
			return rte_flow_error_set(err, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION,
				a, "fake: no modify_field");
		else if (fake.refuse_root_meta && attr->transfer && attr->group == 0 &&
				(a->type == RTE_FLOW_ACTION_TYPE_MODIFY_FIELD ||
				 a->type == RTE_FLOW_ACTION_TYPE_SET_META))
			return rte_flow_error_set(err, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION,
				a, "fake: no META write in the root table");
	for (it = items; it->type != RTE_FLOW_ITEM_TYPE_END; it++)
		if (fake.refuse_ingress_meta && attr->ingress &&
				it->type == RTE_FLOW_ITEM_TYPE_META)
			return rte_flow_error_set(err, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM,
				it, "fake: no meta match in ingress");
	return 0;
}

static struct rte_flow *
fake_create(struct rte_eth_dev *dev, const struct rte_flow_attr *attr,
		const struct rte_flow_item items[], const struct rte_flow_action actions[],
		struct rte_flow_error *err)
{
	const struct rte_flow_action *a;
	struct rte_flow *f;

	if (fake_validate(dev, attr, items, actions, err) != 0)
		return NULL;
	for (a = actions; a->type != RTE_FLOW_ACTION_TYPE_END; a++)
		if (fake.create_refuses_set_meta && a->type == RTE_FLOW_ACTION_TYPE_SET_META) {
			rte_flow_error_set(err, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION, a,
				"fake: SET_META validated, not implemented");
			return NULL;
		}
	if (is_probe(items)) {
		fake.probes++;
	} else if (fake.create_fail_in == 0) {
		fake.create_fail_in = -1;
		rte_flow_error_set(err, ENOSPC, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"fake: injected create failure");
		return NULL;
	}
	else if (fake.create_fail_in > 0)
		fake.create_fail_in--;
	if (fake.nb_live == MAX_LIVE) {
		rte_flow_error_set(err, ENOSPC, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			"fake: table full");
		return NULL;
	}
	f = calloc(1, sizeof(*f));
	if (f == NULL)
		return NULL;
	describe(dev, attr, items, actions, f->desc, sizeof(f->desc));
	fake.live[fake.nb_live++] = f;
	return f;
}

static int
fake_destroy(struct rte_eth_dev *dev, struct rte_flow *f, struct rte_flow_error *err)
{
	unsigned int i;

	RTE_SET_USED(dev);
	if (fake.destroy_fail_in == 0) {
		fake.destroy_fail_in = -1;
		return rte_flow_error_set(err, EBUSY, RTE_FLOW_ERROR_TYPE_HANDLE, f,
			"fake: injected destroy failure");
	}
	if (fake.destroy_fail_in > 0)
		fake.destroy_fail_in--;
	for (i = 0; i < fake.nb_live; i++) {
		if (fake.live[i] == f) {
			fake.live[i] = fake.live[--fake.nb_live];
			free(f);
			return 0;
		}
	}
	return rte_flow_error_set(err, ENOENT, RTE_FLOW_ERROR_TYPE_HANDLE, f,
		"fake: unknown rule");
}

static int
fake_pick_proxy(struct rte_eth_dev *dev, uint16_t *proxy, struct rte_flow_error *err)
{
	RTE_SET_USED(dev);
	RTE_SET_USED(err);
	*proxy = fake.proxy;
	return 0;
}

static struct rte_flow_ops fake_flow_ops = {
	.validate = fake_validate,
	.create = fake_create,
	.destroy = fake_destroy,
	.pick_transfer_proxy = fake_pick_proxy,
};

static int
fake_flow_ops_get(struct rte_eth_dev *dev, const struct rte_flow_ops **ops)
{
	RTE_SET_USED(dev);
	*ops = &fake_flow_ops;
	return 0;
}

static const struct eth_dev_ops fake_dev_ops = {
	.flow_ops_get = fake_flow_ops_get,
};

static int
fake_port(const char *name)
{
	struct rte_eth_dev *dev = rte_eth_dev_allocate(name);

	if (dev == NULL)
		return -1;
	dev->dev_ops = &fake_dev_ops;
	rte_eth_dev_probing_finish(dev);
	return dev->data->port_id;
}

/* ---- snapshots of the live rule set ---- */

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

struct snap {
	unsigned int n;
	char *d[MAX_LIVE];
};

static void
snap_take(struct snap *s)
{
	unsigned int i;

	s->n = fake.nb_live;
	for (i = 0; i < s->n; i++)
		s->d[i] = strdup(fake.live[i]->desc);
	qsort(s->d, s->n, sizeof(s->d[0]), cmp_str);
}

static void
snap_free(struct snap *s)
{
	unsigned int i;

	for (i = 0; i < s->n; i++)
		free(s->d[i]);
	s->n = 0;
}

/* The live rules are exactly those of @p before. */
static int
snap_same(const struct snap *before)
{
	struct snap now;
	unsigned int i;
	int same;

	snap_take(&now);
	same = now.n == before->n;
	for (i = 0; same && i < now.n; i++)
		same = strcmp(now.d[i], before->d[i]) == 0;
	if (!same)
		fprintf(stderr, "  rules: %u before, %u now\n", before->n, now.n);
	snap_free(&now);
	return same;
}

/* ---- tests ---- */

static uint16_t ports[2];
static uint16_t homes[NB_Q] = { 0, 1, 0, 1 };
static uint16_t reta[RETA];

static struct octopus_steer_conf
conf(void)
{
	struct octopus_steer_conf c;

	octo_reta_spread(reta, RETA, NB_Q);
	octo_steer_conf_fill(&c, ports, 2, NB_Q, homes, reta, RETA, OCTO_STEER_FIELD_L4_SRC);
	return c;
}

static void
test_change_rollback(void)
{
	struct octopus_steer_conf c = conf();
	struct octopus_steer *s = NULL;
	struct snap before;
	char why[256] = "";
	uint32_t count;
	int ret;

	ret = octopus_steer_install(&s, &c, why, sizeof(why));
	CHECK(ret == 0 && s != NULL, "install: %d (%s)", ret, why);
	if (s == NULL)
		return;
	count = octopus_steer_rule_count(s);
	CHECK(count == 2 * NB_Q + NB_Q + RETA * 6 + 1, "count %u", count);
	CHECK(fake.nb_live == count, "fake holds %u rules, steering says %u",
		fake.nb_live, count);

	/* set_home: the new home rule is refused */
	snap_take(&before);
	fake.create_fail_in = 0;
	ret = octopus_steer_set_home(s, 0, 1);
	CHECK(ret == -ENOSPC, "set_home with a refused create: %d", ret);
	CHECK(snap_same(&before), "set_home rollback left other rules");
	CHECK(octopus_steer_rule_count(s) == count, "count %u", octopus_steer_rule_count(s));

	/* set_home: the old home rule cannot be removed */
	fake.destroy_fail_in = 0;
	ret = octopus_steer_set_home(s, 0, 1);
	CHECK(ret == -EBUSY, "set_home with a refused destroy: %d", ret);
	CHECK(snap_same(&before), "set_home rollback after destroy failure");
	snap_free(&before);

	/* after the failures the state is consistent: the move works */
	ret = octopus_steer_set_home(s, 0, 1);
	CHECK(ret == 0, "set_home: %d", ret);
	CHECK(fake.nb_live == count, "live %u", fake.nb_live);

	/* set_bucket: the 4th of 6 new rules is refused */
	snap_take(&before);
	fake.create_fail_in = 3;
	ret = octopus_steer_set_bucket(s, 5, 2);
	CHECK(ret == -ENOSPC, "set_bucket with a refused create: %d", ret);
	CHECK(snap_same(&before), "set_bucket rollback (create)");

	/* set_bucket: the 3rd removal of an old rule is refused, after 2 went */
	fake.destroy_fail_in = 2;
	ret = octopus_steer_set_bucket(s, 5, 2);
	CHECK(ret == -EBUSY, "set_bucket with a refused destroy: %d", ret);
	CHECK(snap_same(&before), "set_bucket rollback (destroy)");
	snap_free(&before);
	CHECK(octopus_steer_set_bucket(s, 5, 2) == 0, "set_bucket");
	CHECK(fake.nb_live == count, "live %u", fake.nb_live);

	octopus_steer_remove(s);
	CHECK(fake.nb_live == 0, "%u rules left after remove", fake.nb_live);
}

/* *@p s removed (if installed): no rule of it, probes included, is left. */
static void
remove_all(struct octopus_steer **s, const char *what)
{
	if (*s != NULL)
		octopus_steer_remove(*s);
	*s = NULL;
	CHECK(fake.nb_live == 0, "%s: %u rules left", what, fake.nb_live);
}

/* @p c installed into *@p s (CHECKed, the reason on failure); whether it was. */
static bool
install_ok(struct octopus_steer **s, const struct octopus_steer_conf *c, const char *what)
{
	char why[256] = "";
	int ret = octopus_steer_install(s, c, why, sizeof(why));

	CHECK(ret == 0 && *s != NULL, "%s: %d (%s)", what, ret, why);
	return ret == 0 && *s != NULL;
}

/*
 * The install of @p c refused with @p err, nothing left on the e-switch,
 * its reason naming @p reason (and @p reason2 when not NULL).
 */
static void
install_refused(const struct octopus_steer_conf *c, int err, const char *what,
		const char *reason, const char *reason2)
{
	struct octopus_steer *s = NULL;
	char why[256] = "";
	int ret = octopus_steer_install(&s, c, why, sizeof(why));

	CHECK(ret == err && s == NULL, "%s: %d", what, ret);
	CHECK(fake.nb_live == 0, "%u rules left", fake.nb_live);
	CHECK(strstr(why, reason) != NULL && (reason2 == NULL || strstr(why, reason2) != NULL),
		"reason: %s", why);
	printf("%s: %s\n", what, why);
}

static void
test_install_rollback(void)
{
	struct octopus_steer_conf c = conf();

	fake.create_fail_in = 50;
	install_refused(&c, -ENOSPC, "install with rule 51 refused", "rule 50", NULL);
	fake.create_fail_in = -1;
}

/* Live rules whose description has @p what. */
static unsigned int
live_has(const char *what)
{
	unsigned int i, n = 0;

	for (i = 0; i < fake.nb_live; i++)
		n += strstr(fake.live[i]->desc, what) != NULL;
	return n;
}

/* Live rules with an action of type @p t. */
static unsigned int
live_with(enum rte_flow_action_type t)
{
	char tag[16];
	unsigned int i, n = 0;

	snprintf(tag, sizeof(tag), " a%d:", (int)t);
	for (i = 0; i < fake.nb_live; i++)
		n += strstr(fake.live[i]->desc, tag) != NULL;
	return n;
}

static void
test_probe_names_feature(void)
{
	struct octopus_steer_conf c = conf();
	struct octopus_steer *s = NULL;

	/* SET_META refused: every classification rule writes META with MODIFY_FIELD */
	fake.refuse_set_meta = 1;
	if (install_ok(&s, &c, "no SET_META")) {
		CHECK(octopus_steer_meta_how(s) == OCTOPUS_STEER_META_MODIFY, "META write %d",
			(int)octopus_steer_meta_how(s));
		CHECK(live_with(RTE_FLOW_ACTION_TYPE_SET_META) == 0 &&
			live_with(RTE_FLOW_ACTION_TYPE_MODIFY_FIELD) == RETA * 6 + 1,
			"%u SET_META, %u MODIFY_FIELD rules, want 0 and %u",
			live_with(RTE_FLOW_ACTION_TYPE_SET_META),
			live_with(RTE_FLOW_ACTION_TYPE_MODIFY_FIELD), RETA * 6 + 1);
		/* a change writes META the same way */
		CHECK(octopus_steer_set_bucket(s, 0, 3) == 0, "set_bucket");
		CHECK(live_with(RTE_FLOW_ACTION_TYPE_SET_META) == 0, "SET_META after a change");
	}
	remove_all(&s, "no SET_META");
	/* validate takes SET_META, a create refuses it: the probe creates, and
	 * META is written with MODIFY_FIELD
	 */
	fake.refuse_set_meta = 0;
	fake.create_refuses_set_meta = 1;
	fake.probes = 0;
	install_ok(&s, &c, "SET_META validated, create refuses it");
	CHECK(fake.probes > 0, "no probe created a rule");
	if (s != NULL) {
		CHECK(octopus_steer_meta_how(s) == OCTOPUS_STEER_META_MODIFY &&
			live_with(RTE_FLOW_ACTION_TYPE_SET_META) == 0 &&
			live_with(RTE_FLOW_ACTION_TYPE_MODIFY_FIELD) == RETA * 6 + 1,
			"SET_META validated only: META write %d, %u SET_META rules",
			(int)octopus_steer_meta_how(s), live_with(RTE_FLOW_ACTION_TYPE_SET_META));
	}
	remove_all(&s, "SET_META validated only");
	fake.create_refuses_set_meta = 0;
	/* META writes refused in the root table: classification in group 1 */
	fake.refuse_set_meta = 0;
	fake.refuse_root_meta = 1;
	if (install_ok(&s, &c, "no META write in group 0")) {
		char jump[32], home[32];

		snprintf(jump, sizeof(jump), " a%d:", (int)RTE_FLOW_ACTION_TYPE_JUMP);
		snprintf(home, sizeof(home), "transfer g=%u ", OCTO_STEER_HOME_GROUP + 1);
		CHECK(octopus_steer_class_group(s) == 1, "classification group %u",
			octopus_steer_class_group(s));
		CHECK(live_has("transfer g=1 ") == RETA * 6 + 1 && live_has(home) == NB_Q,
			"%u rules in transfer group 1, %u in group %u", live_has("transfer g=1 "),
			live_has(home), OCTO_STEER_HOME_GROUP + 1);
		/* group 0 holds the one root jump */
		CHECK(live_has("transfer g=0 ") == 1 && live_with(RTE_FLOW_ACTION_TYPE_JUMP) ==
			RETA * 6 + 2, "%u rules in transfer group 0", live_has("transfer g=0 "));
		CHECK(octopus_steer_rule_count(s) == fake.nb_live, "rule count %u, live %u",
			octopus_steer_rule_count(s), fake.nb_live);
		CHECK(octopus_steer_set_bucket(s, 0, 3) == 0 && octopus_steer_set_home(s, 0, 1) == 0,
			"changes in group 1");
		CHECK(live_has("transfer g=0 ") == 1, "group 0 after changes: %u",
			live_has("transfer g=0 "));
	}
	remove_all(&s, "no META write in group 0");
	fake.refuse_root_meta = 0;
	fake.refuse_set_meta = 1;
	/* and MODIFY_FIELD refused too: both causes named */
	fake.refuse_modify = 1;
	install_refused(&c, -ENOTSUP, "no META write", "fake: no set_meta", "fake: no modify_field");
	fake.refuse_set_meta = 0;
	fake.refuse_modify = 0;

	fake.refuse_ingress_meta = 1;
	install_refused(&c, -ENOTSUP, "no ingress META", "ingress rule META match", NULL);
	fake.refuse_ingress_meta = 0;

	/* no validate op: the probe creates and destroys instead */
	fake_flow_ops.validate = NULL;
	install_ok(&s, &c, "install without validate");
	octopus_steer_remove(s);
	CHECK(fake.nb_live == 0, "%u rules left", fake.nb_live);
	fake_flow_ops.validate = fake_validate;
}

int
main(int argc, char **argv)
{
	int p0, p1;

	if (octo_test_eal_init(&argc, &argv, 512) < 0) {
		fprintf(stderr, "EAL init failed\n");
		return 1;
	}
	fake.create_fail_in = -1;
	fake.destroy_fail_in = -1;
	p0 = fake_port("steerfake0");
	p1 = fake_port("steerfake1");
	if (p0 < 0 || p1 < 0) {
		fprintf(stderr, "cannot allocate fake ports\n");
		return 1;
	}
	ports[0] = (uint16_t)p0;
	ports[1] = (uint16_t)p1;
	fake.proxy = ports[0];

	test_change_rollback();
	test_install_rollback();
	test_probe_names_feature();

	rte_eth_dev_release_port(&rte_eth_devices[p1]);
	rte_eth_dev_release_port(&rte_eth_devices[p0]);
	rte_eal_cleanup();
	if (octo_failures != 0) {
		fprintf(stderr, "%d failure(s)\n", octo_failures);
		return 1;
	}
	printf("fault: all checks passed\n");
	return 0;
}
