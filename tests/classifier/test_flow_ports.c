/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/* The e-switch through ethdev's rte_flow API on real net_octonic ports:
 * the transfer proxy, domain rules per port, refusals, query, flush,
 * isolate, and the dump/stats of rte_pmd_octonic.h.  Exercises the
 * rte_flow_ops glue (octonic_flow.c) end to end; traffic through the
 * engine is the ethdev tests' business (tests/octonic).
 */

#include <stdio.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_flow.h>

#include <rte_pmd_octonic.h>
#include "../common/octo_check.h"
#include "../common/octo_flow_rule.h"
#include "../common/octo_test_eal.h"


#define NIC "net_octonic_flowt"

static int
configure(uint16_t port, uint16_t nb_rxq)
{
	struct rte_eth_conf conf;

	memset(&conf, 0, sizeof(conf));
	conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
	conf.rx_adv_conf.rss_conf.rss_hf = RTE_ETH_RSS_IP;
	return rte_eth_dev_configure(port, nb_rxq, 1, &conf);
}

static void
run(void)
{
	struct rte_flow_item_udp udp = { .hdr = { .dst_port = RTE_BE16(53) } };
	struct rte_flow_item_udp udpm = { .hdr = { .dst_port = RTE_BE16(0xffff) } };
	struct rte_flow_item pat[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4 },
		{ .type = RTE_FLOW_ITEM_TYPE_UDP, .spec = &udp, .mask = &udpm },
		{ .type = RTE_FLOW_ITEM_TYPE_END } };
	struct rte_flow_action_ethdev to1;
	struct rte_flow_action_queue q3 = { .index = 3 }, q4 = { .index = 4 };
	struct rte_flow_action a_t[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_COUNT },
		{ .type = RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT, .conf = &to1 },
		{ .type = RTE_FLOW_ACTION_TYPE_END } };
	struct rte_flow_action a_q3[] = OCTO_ACTIONS_QUEUE(&q3);
	struct rte_flow_action a_q4[] = OCTO_ACTIONS_QUEUE(&q4);
	struct rte_flow_action q_count = { .type = RTE_FLOW_ACTION_TYPE_COUNT };
	struct rte_flow_attr transfer = { .transfer = 1 };
	struct rte_flow_attr ingress = { .ingress = 1 };
	struct rte_pmd_octonic_flow_stats st;
	struct rte_flow_query_count qc;
	struct rte_flow_error err;
	struct rte_flow *ft, *fi;
	uint16_t p0, p1, proxy;
	char buf[1024], want[512];
	FILE *f;

	REQUIRE(rte_vdev_init(NIC, "pfs=2") == 0);
	REQUIRE(rte_eth_dev_get_port_by_name(NIC "_pf0", &p0) == 0);
	REQUIRE(rte_eth_dev_get_port_by_name(NIC "_pf1", &p1) == 0);
	REQUIRE(configure(p0, 4) == 0 && configure(p1, 4) == 0);
	to1.port_id = p1;

	/* Both PFs name PF0 as the transfer proxy. */
	REQUIRE(rte_flow_pick_transfer_proxy(p1, &proxy, &err) == 0 && proxy == p0);
	REQUIRE(rte_flow_pick_transfer_proxy(p0, &proxy, &err) == 0 && proxy == p0);
	/* A transfer rule on PF1 is refused, naming the proxy. */
	memset(&err, 0, sizeof(err));
	REQUIRE(rte_flow_create(p1, &transfer, pat, a_t, &err) == NULL);
	snprintf(want, sizeof(want), "proxy port %u", p0);
	REQUIRE(err.message != NULL && strstr(err.message, want) != NULL);
	/* Valid rules on their ports; a queue beyond PF1's 4 is refused. */
	ft = rte_flow_create(p0, &transfer, pat, a_t, &err);
	REQUIRE(ft != NULL);
	fi = rte_flow_create(p1, &ingress, pat, a_q3, &err);
	REQUIRE(fi != NULL);
	REQUIRE(rte_flow_validate(p1, &ingress, pat, a_q4, &err) != 0);
	REQUIRE(rte_flow_create(p1, &ingress, pat, a_q4, &err) == NULL);
	REQUIRE(err.type == RTE_FLOW_ERROR_TYPE_ACTION_CONF);
	/* A rule belongs to its port. */
	REQUIRE(rte_flow_destroy(p0, fi, &err) != 0);

	f = fmemopen(buf, sizeof(buf), "w");
	REQUIRE(f != NULL);
	REQUIRE(rte_pmd_octonic_flow_dump(p1, f) == 0);
	fclose(f);
	snprintf(want, sizeof(want),
		"transfer group=0 prio=0 pattern=eth/ipv4/udp(dst=0x0035/0xffff) actions=count,represented_port(%u)\n"
		"ingress pf=1 group=0 prio=0 pattern=eth/ipv4/udp(dst=0x0035/0xffff) actions=queue(3)\n",
		p1);
	if (strcmp(buf, want) != 0)
		printf("got:\n%swant:\n%s", buf, want);
	REQUIRE(strcmp(buf, want) == 0);

	memset(&qc, 0, sizeof(qc));
	REQUIRE(rte_flow_query(p0, ft, &q_count, &qc, &err) == 0);
	REQUIRE(qc.hits_set && qc.hits == 0);
	REQUIRE(rte_pmd_octonic_flow_stats_get(p1, &st) == 0);
	REQUIRE(st.creates == 2 && st.transfer_rules == 1 && st.ingress_rules == 1);

	/* PF1's flush keeps the transfer rule; PF0's (the proxy) takes it. */
	REQUIRE(rte_flow_flush(p1, &err) == 0);
	REQUIRE(rte_pmd_octonic_flow_stats_get(p0, &st) == 0);
	REQUIRE(st.destroys == 1 && st.transfer_rules == 1);
	REQUIRE(rte_flow_flush(p0, &err) == 0);
	REQUIRE(rte_pmd_octonic_flow_stats_get(p0, &st) == 0);
	REQUIRE(st.destroys == 2 && st.transfer_rules == 0);
	REQUIRE(rte_flow_isolate(p1, 1, &err) == 0);
	REQUIRE(rte_flow_isolate(p1, 0, &err) == 0);
	REQUIRE(rte_eth_dev_close(p0) == 0 && rte_eth_dev_close(p1) == 0);
	REQUIRE(rte_vdev_uninit(NIC) == 0);
}

int
main(int argc, char **argv)
{
	if (octo_test_eal_init(&argc, &argv, 512) < 0)
		return 1;
	run();
	rte_eal_cleanup();
	printf("%s\n", octo_failures == 0 ? "ok" : "FAILED");
	return octo_failures != 0;
}
