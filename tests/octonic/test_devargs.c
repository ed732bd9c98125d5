/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/* net_octonic devargs parsing, without EAL: every good form gives the
 * values it names, every bad one is refused with a message naming it. */

#include <errno.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "octo_wire.h"
#include "octonic_devargs.h"

static void
test_defaults(void **state)
{
	struct octonic_devargs da;
	char err[128];

	assert_int_equal(octonic_devargs_parse(NULL, &da, err, sizeof(err)), 0);
	assert_int_equal(da.nb_pfs, 2);
	assert_int_equal(da.wire, OCTONIC_WIRE_GEN);
	assert_int_equal(da.mac, OCTONIC_MAC_SHARED);
	assert_int_equal(da.numa_given, 0);
	assert_int_equal(da.l4_proto, IPPROTO_UDP);
	assert_int_equal(da.pkt_len, 64);
	assert_int_equal(da.nudma_dma_ns, 0);
	assert_int_equal(da.nudma_dma, OCTONIC_NUDMA_DMA_FLUSH);
	/* generic dialect; xmeta 0 as mlx5's dv_xmeta_en defaults to legacy */
	assert_int_equal(da.dialect, OCTONIC_DIALECT_GENERIC);
	assert_int_equal(da.xmeta, 0);
	/* the lenient datapath and today's topology */
	assert_int_equal(da.topology, OCTONIC_TOPO_OCTONIC);
	assert_int_equal(da.rx_step, 1);
	assert_int_equal(da.rx_ring, OCTONIC_RX_RING_PLAIN);
	assert_int_equal(da.tx_comp_every, 1);
	assert_int_equal(da.tx_cleanup, 1);
	assert_int_equal(da.tx_read_ns, 0);
	assert_int_equal(octonic_devargs_parse("", &da, err, sizeof(err)), 0);
	assert_int_equal(da.nb_pfs, 2);
}

/* Datapath realism: mlx5-hws turns it on with mlx5's values, the other
 * dialects leave it off, and every dialect takes each key explicitly. */
static void
test_datapath(void **state)
{
	struct octonic_devargs da;
	char err[128];

	assert_int_equal(octonic_devargs_parse("dialect=mlx5-hws", &da, err,
		sizeof(err)), 0);
	assert_int_equal(da.rx_step, 4);
	assert_int_equal(da.rx_ring, OCTONIC_RX_RING_MLX5);
	assert_int_equal(da.tx_comp_every, 32);
	assert_int_equal(da.tx_cleanup, 0);
	assert_int_equal(da.tx_read_ns, 2000);
	assert_int_equal(octonic_devargs_parse("dialect=mlx5-hws,tx_read_ns=0", &da, err,
		sizeof(err)), 0);
	assert_int_equal(da.tx_read_ns, 0);
	assert_int_equal(octonic_devargs_parse("tx_read_ns=100000000", &da, err,
		sizeof(err)), 0);
	assert_int_equal(da.tx_read_ns, 100000000);
	assert_int_not_equal(octonic_devargs_parse("tx_read_ns=100000001", &da, err,
		sizeof(err)), 0);
	assert_int_equal(octonic_devargs_parse("dialect=mlx5-sws", &da, err,
		sizeof(err)), 0);
	assert_int_equal(da.tx_read_ns, 0);
	assert_int_equal(da.rx_step, 1);
	assert_int_equal(da.rx_ring, OCTONIC_RX_RING_PLAIN);
	assert_int_equal(da.tx_comp_every, 1);
	assert_int_equal(da.tx_cleanup, 1);
	/* on in the generic dialect, each on its own */
	assert_int_equal(octonic_devargs_parse(
		"rx_step=8,rx_ring=mlx5,tx_comp_every=16,tx_cleanup=0", &da,
		err, sizeof(err)), 0);
	assert_int_equal(da.rx_step, 8);
	assert_int_equal(da.rx_ring, OCTONIC_RX_RING_MLX5);
	assert_int_equal(da.tx_comp_every, 16);
	assert_int_equal(da.tx_cleanup, 0);
	assert_int_equal(octonic_devargs_parse("rx_step=4", &da, err,
		sizeof(err)), 0);
	assert_int_equal(da.rx_step, 4);
	assert_int_equal(da.rx_ring, OCTONIC_RX_RING_PLAIN);
	assert_int_equal(da.tx_comp_every, 1);
	/* off under mlx5-hws, whatever the order of the keys */
	assert_int_equal(octonic_devargs_parse(
		"rx_step=1,rx_ring=plain,dialect=mlx5-hws,tx_comp_every=1,tx_cleanup=1",
		&da, err, sizeof(err)), 0);
	assert_int_equal(da.rx_step, 1);
	assert_int_equal(da.rx_ring, OCTONIC_RX_RING_PLAIN);
	assert_int_equal(da.tx_comp_every, 1);
	assert_int_equal(da.tx_cleanup, 1);
	/* one of them off, the others mlx5's */
	assert_int_equal(octonic_devargs_parse("dialect=mlx5-hws,tx_cleanup=1",
		&da, err, sizeof(err)), 0);
	assert_int_equal(da.tx_cleanup, 1);
	assert_int_equal(da.tx_comp_every, 32);
	assert_int_equal(da.rx_step, 4);
	/* bounds are inclusive */
	assert_int_equal(octonic_devargs_parse("rx_step=64,tx_comp_every=1024",
		&da, err, sizeof(err)), 0);
	assert_int_equal(da.rx_step, 64);
	assert_int_equal(da.tx_comp_every, 1024);
}

static void
test_topology(void **state)
{
	struct octonic_devargs da;
	char err[128];

	assert_int_equal(octonic_devargs_parse("topology=octonic", &da, err,
		sizeof(err)), 0);
	assert_int_equal(da.topology, OCTONIC_TOPO_OCTONIC);
	assert_int_equal(da.mac, OCTONIC_MAC_SHARED);
	/* mlx5's uplinks have a MAC each, unless told otherwise */
	assert_int_equal(octonic_devargs_parse("topology=mpesw,dialect=mlx5-hws",
		&da, err, sizeof(err)), 0);
	assert_int_equal(da.topology, OCTONIC_TOPO_MPESW);
	assert_int_equal(da.mac, OCTONIC_MAC_PER_PF);
	assert_int_equal(octonic_devargs_parse(
		"mac=shared,topology=mpesw,dialect=mlx5-hws,xmeta=4", &da, err,
		sizeof(err)), 0);
	assert_int_equal(da.mac, OCTONIC_MAC_SHARED);
	/* a multi-host NIC delivers by MAC */
	assert_int_equal(octonic_devargs_parse("topology=separate,pfs=3", &da,
		err, sizeof(err)), 0);
	assert_int_equal(da.topology, OCTONIC_TOPO_SEPARATE);
	assert_int_equal(da.mac, OCTONIC_MAC_PER_PF);
	assert_int_equal(octonic_devargs_parse(
		"topology=separate,mac=per-pf,dialect=mlx5-sws", &da, err,
		sizeof(err)), 0);
	assert_int_equal(da.topology, OCTONIC_TOPO_SEPARATE);
}

static void
test_good(void **state)
{
	struct octonic_devargs da;
	char err[128];

	assert_int_equal(octonic_devargs_parse(
		"pfs=4,numa=0:1:1:0,mac=per-pf,wire=gen,flows=1000,pkt_len=1500,"
		"proto=tcp,ipv6=1,gen_rate=1000000,gen_limit=12345,gen_pause=owe,"
		"nudma_dma_ns=107,nudma_poll_ns=50", &da, err, sizeof(err)), 0);
	assert_int_equal(da.nb_pfs, 4);
	assert_int_equal(da.numa_given, 1);
	assert_int_equal(da.numa[0], 0);
	assert_int_equal(da.numa[1], 1);
	assert_int_equal(da.numa[2], 1);
	assert_int_equal(da.numa[3], 0);
	assert_int_equal(da.mac, OCTONIC_MAC_PER_PF);
	assert_int_equal(da.wire, OCTONIC_WIRE_GEN);
	assert_int_equal(da.flows, 1000);
	assert_int_equal(da.pkt_len, 1500);
	assert_int_equal(da.l4_proto, IPPROTO_TCP);
	assert_int_equal(da.ipv6, 1);
	assert_int_equal(da.gen_rate, 1000000);
	assert_int_equal(da.gen_limit, 12345);
	assert_int_equal(da.gen_pause, OCTONIC_GEN_PAUSE_OWE);
	assert_int_equal(da.nudma_dma_ns, 107);
	assert_int_equal(da.nudma_poll_ns, 50);
	/* nudma_dma_ns= alone asks for the busy-wait */
	assert_int_equal(da.nudma_dma, OCTONIC_NUDMA_DMA_WAIT);
	assert_int_equal(octonic_devargs_parse("nudma_dma=wait", &da, err,
		sizeof(err)), 0);
	assert_int_equal(da.nudma_dma, OCTONIC_NUDMA_DMA_WAIT);
	assert_int_equal(da.nudma_dma_ns, 0);
	assert_int_equal(octonic_devargs_parse("nudma_dma=flush,nudma_poll_ns=107",
		&da, err, sizeof(err)), 0);
	assert_int_equal(da.nudma_dma, OCTONIC_NUDMA_DMA_FLUSH);

	/* the generator's other protocols, shortest frames by default */
	assert_int_equal(octonic_devargs_parse("proto=sctp,ipv6=1", &da, err,
		sizeof(err)), 0);
	assert_int_equal(da.l4_proto, IPPROTO_SCTP);
	assert_int_equal(da.pkt_len, 82);
	assert_int_equal(octonic_devargs_parse("proto=icmp", &da, err,
		sizeof(err)), 0);
	assert_int_equal(da.l4_proto, IPPROTO_ICMP);
	assert_int_equal(octonic_devargs_parse("proto=icmp6,ipv6=1", &da, err,
		sizeof(err)), 0);
	assert_int_equal(da.l4_proto, IPPROTO_ICMPV6);
	assert_int_equal(da.pkt_len, 78);
	/* the top of gen_rate's range */
	assert_int_equal(octonic_devargs_parse("gen_rate=1000000000", &da, err,
		sizeof(err)), 0);
	assert_int_equal(da.gen_rate, 1000000000);
	assert_int_equal(octonic_devargs_parse("wire=loop,pfs=3", &da, err,
		sizeof(err)), 0);
	assert_int_equal(da.wire, OCTONIC_WIRE_LOOP);
	assert_int_equal(da.gen_pause, OCTONIC_GEN_PAUSE_SKIP);

	assert_int_equal(octonic_devargs_parse("wire=net_ring0,pfs=1,numa=1",
		&da, err, sizeof(err)), 0);
	assert_int_equal(da.wire, OCTONIC_WIRE_ETHDEV);
	assert_string_equal(da.wire_name, "net_ring0");
	assert_int_equal(da.nb_pfs, 1);
	assert_int_equal(da.numa[0], 1);

	/* without pkt_len= the frame is the shortest the generator can make
	 * for the chosen IP version and L4 protocol
	 */
	assert_int_equal(octonic_devargs_parse("ipv6=1,proto=tcp", &da, err,
		sizeof(err)), 0);
	assert_int_equal(da.pkt_len, octo_gen_min_len(1, IPPROTO_TCP));
	assert_true(da.pkt_len > 64);
	assert_int_equal(octonic_devargs_parse("ipv6=1", &da, err, sizeof(err)), 0);
	assert_int_equal(da.pkt_len, octo_gen_min_len(1, IPPROTO_UDP));

	/* bounds are inclusive */
	assert_int_equal(octonic_devargs_parse("pfs=8,pkt_len=9618,wire=gen,mac=shared",
		&da, err, sizeof(err)), 0);
	assert_int_equal(da.nb_pfs, 8);
	assert_int_equal(da.pkt_len, 9618);
	assert_int_equal(da.wire, OCTONIC_WIRE_GEN);
	assert_int_equal(da.mac, OCTONIC_MAC_SHARED);
	/* numa after pfs or before: order does not matter */
	assert_int_equal(octonic_devargs_parse("numa=1:0:1,pfs=3",
		&da, err, sizeof(err)), 0);
	assert_int_equal(da.numa[2], 1);

	/* dialects, and xmeta in mlx5's dv_xmeta_en terms */
	assert_int_equal(octonic_devargs_parse("dialect=generic", &da, err,
		sizeof(err)), 0);
	assert_int_equal(da.dialect, OCTONIC_DIALECT_GENERIC);
	assert_int_equal(octonic_devargs_parse("dialect=mlx5-sws", &da, err,
		sizeof(err)), 0);
	assert_int_equal(da.dialect, OCTONIC_DIALECT_MLX5_SWS);
	assert_int_equal(da.xmeta, 0);
	assert_int_equal(octonic_devargs_parse("dialect=mlx5-sws,xmeta=3", &da,
		err, sizeof(err)), 0);
	assert_int_equal(da.xmeta, 3);
	assert_int_equal(octonic_devargs_parse("xmeta=4,dialect=mlx5-hws", &da,
		err, sizeof(err)), 0);
	assert_int_equal(da.dialect, OCTONIC_DIALECT_MLX5_HWS);
	assert_int_equal(da.xmeta, 4);
	assert_int_equal(octonic_devargs_parse("dialect=mlx5-hws,xmeta=0", &da,
		err, sizeof(err)), 0);
	assert_int_equal(da.xmeta, 0);
}

static const struct {
	const char *args;
	const char *named;	/* what the message must mention */
} bad[] = {
	{ "pfs=0", "pfs" },
	{ "pfs=9", "pfs" },
	{ "pfs=two", "pfs" },
	{ "pfs=-1", "pfs" },
	{ "pfs=2x", "pfs" },
	{ "pfs=", "pfs" },
	{ "pfs=2,pfs=3", "pfs" },
	{ "numa=0:1:", "numa" },
	{ "numa=:0", "numa" },
	{ "numa=0::1", "numa" },
	{ "numa=0:x", "numa" },
	{ "numa=9:0", "numa" },
	{ "pfs=3,numa=0:1", "numa" },
	{ "numa=0:1:0:1:0:1:0:1:0", "numa" },
	{ "mac=both", "mac" },
	{ "wire=", "wire" },
	{ "flows=0", "flows" },
	{ "pkt_len=63", "pkt_len" },
	{ "pkt_len=9619", "pkt_len" },
	{ "proto=igmp", "proto" },
	{ "proto=icmp,ipv6=1", "ipv6=0" },
	{ "proto=icmp6", "ipv6=1" },
	{ "proto=udp,proto=tcp", "proto" },
	{ "gen_rate=4294967296", "gen_rate" },
	{ "gen_rate=1000000001", "gen_rate" },
	{ "wire=loop,gen_rate=1000", "gen_rate" },
	{ "flows=8,wire=loop", "flows" },
	{ "wire=net_ring0,proto=tcp", "proto" },
	{ "wire=loop,gen_limit=5,gen_limit=6", "gen_limit" },
	{ "ipv6=2", "ipv6" },
	{ "ipv6=1,pkt_len=64", "pkt_len" },
	{ "proto=tcp,pkt_len=65", "pkt_len" },
	{ "gen_rate=fast", "gen_rate" },
	{ "gen_limit=1e6", "gen_limit" },
	{ "gen_pause=drop", "gen_pause" },
	{ "wire=loop,gen_pause=owe", "gen_pause" },
	{ "nudma_dma_ns=100001", "nudma_dma_ns" },
	{ "nudma_poll_ns=-5", "nudma_poll_ns" },
	{ "nudma_dma=clflush", "nudma_dma" },
	{ "nudma_dma=flush,nudma_dma_ns=107", "nudma_dma_ns" },
	{ "queues=4", "queues" },
	{ "pfs=2,bogus=1", "bogus" },
	{ "dialect=mlx5", "dialect" },
	{ "dialect=", "dialect" },
	{ "dialect=mlx5-hws,xmeta=5", "xmeta" },
	{ "dialect=mlx5-sws,xmeta=-1", "xmeta" },
	{ "xmeta=1", "xmeta" },
	{ "dialect=generic,xmeta=0", "xmeta" },
	{ "dialect=mlx5-sws,xmeta=4", "xmeta=4" },
	{ "rx_step=0", "rx_step" },
	{ "rx_step=65", "rx_step" },
	{ "rx_step=4x", "rx_step" },
	{ "rx_step=4,rx_step=4", "rx_step" },
	{ "rx_ring=", "rx_ring" },
	{ "rx_ring=ring", "rx_ring" },
	{ "rx_ring=MLX5", "rx_ring" },
	{ "tx_comp_every=0", "tx_comp_every" },
	{ "tx_comp_every=1025", "tx_comp_every" },
	{ "tx_comp_every=-32", "tx_comp_every" },
	{ "tx_cleanup=2", "tx_cleanup" },
	{ "tx_cleanup=yes", "tx_cleanup" },
	{ "topology=star", "topology" },
	{ "topology=", "topology" },
	{ "topology=mpesw", "dialect=mlx5-hws" },
	{ "topology=mpesw,dialect=mlx5-sws", "topology=mpesw" },
	{ "topology=separate,mac=shared", "mac=per-pf" },
	{ "mac=shared,topology=separate", "topology=separate" },
	{ "topology=octonic,topology=separate", "topology" },
};

static void
test_bad(void **state)
{
	struct octonic_devargs da;
	char err[128];
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (octonic_devargs_parse(bad[i].args, &da, err, sizeof(err)) !=
				-EINVAL)
			fail_msg("'%s' was accepted", bad[i].args);
		if (strstr(err, bad[i].named) == NULL)
			fail_msg("'%s': message '%s' does not name '%s'",
				bad[i].args, err, bad[i].named);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_datapath),
		cmocka_unit_test(test_topology),
		cmocka_unit_test(test_bad),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
