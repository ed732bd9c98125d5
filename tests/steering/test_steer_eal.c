/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * EAL tests of octopus_steer.c on real ports.
 *
 *   test_steer_eal null     net_null members: install refuses with -ENOTSUP
 *                           and a reason, and leaves nothing behind.
 *   test_steer_eal octonic  net_octonic members (N PFs, max(4, N) queues,
 *                           queue q homed on PF q mod N; N = $OCTO_PFS, 2
 *                           by default, the pfs= of the NICs): the NIC's
 *                           rule tables hold exactly the planned rules;
 *                           set_home replaces one rule, set_bucket one
 *                           bucket's; catchall= names ARP's queue; generated traffic
 *                           (IPv4/IPv6, UDP/TCP) of every bucket reaches the
 *                           home PF's queue, also with spread=ip_src; crafted
 *                           frames follow spread=l4_dst; ARP reaches the
 *                           catch-all, GRE its address bucket; members of two
 *                           NICs are refused; a refusal part-way leaves no
 *                           rule; remove leaves no rule.  Prints the latency
 *                           of a home move and the time to install 512
 *                           buckets.
 *
 * The octonic public API is looked up in the plugin EAL loaded (-d), so the
 * test does not link a second copy of the driver.
 */

#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_tcp.h>
#include <rte_udp.h>

#include <octopus_dpdk_compat.h>
#include <rte_pmd_octonic.h>

#include "octo_steering.h"
#include "octopus_steer.h"

#include "../common/octo_cases.h"
#include "../common/octo_check.h"
#include "../common/octo_pfs.h"
#include "../common/octo_port.h"
#include "../common/octo_steer_conf.h"
#include "../common/octo_test_eal.h"

/* queues: 4, or one per member beyond; queue q homed on member q mod N */
#define MAX_Q OCTO_PFS_MAX
#define RETA 16

static unsigned int nb_pf;	/* OCTO_PFS: members of the octonic cases */
static uint16_t nb_q = 4;

/* ---------------------------------------------------------------- null */

static void
run_null(struct rte_mempool *unused __rte_unused)
{
	uint16_t ports[2], homes[MAX_Q], reta[RETA];
	struct octopus_steer_conf c;
	struct octopus_steer *s = (struct octopus_steer *)(uintptr_t)1;
	char why[256] = "";
	uint16_t p, n = 0;
	int ret;

	RTE_ETH_FOREACH_DEV(p)
		if (n < 2)
			ports[n++] = p;
	REQUIRE(n == 2, "expected 2 net_null ports, got %u", n);
	octo_homes_spread(homes, nb_q, 2);
	octo_reta_spread(reta, RETA, nb_q);
	octo_steer_conf_fill(&c, ports, 2, nb_q, homes, reta, RETA, OCTO_STEER_FIELD_L4_SRC);

	ret = octopus_steer_install(&s, &c, why, sizeof(why));
	CHECK(ret == -ENOTSUP, "install on net_null: %d (%s)", ret, why);
	CHECK(s == NULL, "a steering state was left");
	/* the reason names the port and what it refused */
	CHECK(strstr(why, "transfer") != NULL, "reason: \"%s\"", why);
	printf("net_null refusal: %s\n", why);
	CHECK(octopus_steer_rule_count(NULL) == 0, "count of nothing");

	/* bad configurations are refused before any port is touched */
	c.reta_size = 12;
	ret = octopus_steer_install(&s, &c, why, sizeof(why));
	CHECK(ret == -EINVAL && s == NULL, "reta 12: %d", ret);
	CHECK(strstr(why, "power of 2") != NULL, "reason: \"%s\"", why);
	c.reta_size = RETA;
	c.member_port[1] = RTE_MAX_ETHPORTS - 1;
	ret = octopus_steer_install(&s, &c, why, sizeof(why));
	CHECK(ret == -EINVAL && s == NULL, "bad port: %d", ret);
	CHECK(octopus_steer_set_home(NULL, 0, 0) == -EINVAL, "set_home(NULL)");
	octopus_steer_remove(NULL);
}

/* ------------------------------------------------------------- octonic */

typedef int (*dump_fn)(uint16_t, FILE *);
typedef int (*fstats_fn)(uint16_t, struct rte_pmd_octonic_flow_stats *);
typedef int (*gen_set_fn)(uint16_t, const struct rte_pmd_octonic_gen_conf *);
typedef int (*gen_get_fn)(uint16_t, struct rte_pmd_octonic_gen_conf *);
typedef int (*gen_en_fn)(uint16_t, int);

static struct {
	dump_fn dump;
	fstats_fn fstats;
	gen_set_fn gen_set;
	gen_get_fn gen_get;
	gen_en_fn gen_enable;
} nic;

static int
load_octonic_api(void)
{
	const char *path = getenv("OCTONIC_PLUGIN");
	void *h;

	if (path == NULL) {
		fprintf(stderr, "OCTONIC_PLUGIN not set\n");
		return -1;
	}
	h = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
	if (h == NULL) {
		fprintf(stderr, "plugin %s not loaded: %s\n", path, dlerror());
		return -1;
	}
	nic.dump = (dump_fn)(uintptr_t)dlsym(h, "rte_pmd_octonic_flow_dump");
	nic.fstats = (fstats_fn)(uintptr_t)dlsym(h, "rte_pmd_octonic_flow_stats_get");
	nic.gen_set = (gen_set_fn)(uintptr_t)dlsym(h, "rte_pmd_octonic_gen_set");
	nic.gen_get = (gen_get_fn)(uintptr_t)dlsym(h, "rte_pmd_octonic_gen_get");
	nic.gen_enable = (gen_en_fn)(uintptr_t)dlsym(h, "rte_pmd_octonic_gen_enable");
	if (nic.dump == NULL || nic.fstats == NULL || nic.gen_set == NULL ||
			nic.gen_get == NULL || nic.gen_enable == NULL) {
		fprintf(stderr, "octonic API missing in %s\n", path);
		return -1;
	}
	return 0;
}

/* The ports of the NIC whose vdev name starts with @p prefix. */
static unsigned int
nic_ports(const char *prefix, uint16_t *ports, unsigned int max)
{
	unsigned int n = 0;
	uint16_t p;

	RTE_ETH_FOREACH_DEV(p) {
		char name[RTE_ETH_NAME_MAX_LEN];

		if (rte_eth_dev_get_name_by_port(p, name) != 0)
			continue;
		if (strncmp(name, prefix, strlen(prefix)) == 0 && n < max)
			ports[n++] = p;
	}
	return n;
}

static int
start_port(uint16_t port, struct rte_mempool *mp)
{
	struct octo_port_conf c = {
		.nb_rxq = nb_q, .nb_txq = nb_q, .nb_desc = 256,
		.socket = OCTO_SOCKET_OF_PORT, .pool = mp,
	};

	return octo_port_start(port, &c);
}

/* The NIC's dump as lines. */
struct lines {
	unsigned int n;
	char *l[4096];
};

static void
lines_free(struct lines *ls)
{
	unsigned int i;

	for (i = 0; i < ls->n; i++)
		free(ls->l[i]);
	ls->n = 0;
}

static void
dump_lines(uint16_t port, struct lines *ls)
{
	char *buf = NULL, *save = NULL, *tok;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ls->n = 0;
	if (f == NULL)
		return;
	CHECK(nic.dump(port, f) == 0, "flow dump");
	fclose(f);
	for (tok = strtok_r(buf, "\n", &save); tok != NULL;
			tok = strtok_r(NULL, "\n", &save))
		if (ls->n < RTE_DIM(ls->l) && tok[0] != '\0' && tok[0] != '#')
			ls->l[ls->n++] = strdup(tok);
	free(buf);
}

/* How many dump lines contain every one of the NULL-terminated strings. */
static unsigned int
count_lines(const struct lines *ls, ...)
{
	unsigned int i, n = 0;

	for (i = 0; i < ls->n; i++) {
		va_list ap;
		const char *want;
		int all = 1;

		va_start(ap, ls);
		while ((want = va_arg(ap, const char *)) != NULL)
			if (strstr(ls->l[i], want) == NULL)
				all = 0;
		va_end(ap);
		n += all;
	}
	return n;
}

/*
 * Check the NIC's rule tables against the model: per queue one home rule
 * to its home PF's port, per member and queue one ingress rule, per bucket
 * and protocol one classification rule setting the RETA's queue, one
 * catch-all.
 */
static void
check_tables(uint16_t proxy, const uint16_t *ports, const uint16_t *homes,
		const uint16_t *reta, uint16_t catchall)
{
	struct rte_pmd_octonic_flow_stats st;
	struct lines ls;
	char a[64], b[64], c2[64], c3[64], home_group[32], jump[32];
	unsigned int q, m, bk, total;

	snprintf(home_group, sizeof(home_group), "group=%u ", OCTO_STEER_HOME_GROUP);
	snprintf(jump, sizeof(jump), "jump(%u)", OCTO_STEER_HOME_GROUP);

	memset(&st, 0, sizeof(st));
	CHECK(nic.fstats(proxy, &st) == 0, "flow stats");
	CHECK(st.transfer_rules == nb_q + RETA * 6u + 1, "transfer rules %u",
		st.transfer_rules);
	for (m = 0; m < nb_pf; m++) {
		CHECK(nic.fstats(ports[m], &st) == 0, "flow stats");
		CHECK(st.ingress_rules == nb_q, "PF%u ingress rules %u", m,
			st.ingress_rules);
	}
	dump_lines(proxy, &ls);
	total = nb_q + RETA * 6 + 1 + nb_pf * nb_q;
	CHECK(ls.n == total, "dump has %u lines, want %u", ls.n, total);
	for (q = 0; q < nb_q; q++) {
		/* home: the home group, META's queue half q -> represented_port(home port) */
		snprintf(a, sizeof(a), "meta(%u/0x%08x)", q, OCTO_STEER_META_QUEUE_MASK);
		snprintf(b, sizeof(b), "represented_port(%u)", ports[homes[q]]);
		CHECK(count_lines(&ls, "transfer", home_group, a, b, NULL) == 1,
			"home rule of queue %u to port %u", q, ports[homes[q]]);
		CHECK(count_lines(&ls, "transfer", a, "represented_port", NULL) == 1,
			"queue %u has one home rule", q);
		/* member queue rules: all of META */
		snprintf(a, sizeof(a), "meta(%u/0xffffffff)", q);
		for (m = 0; m < nb_pf; m++) {
			snprintf(b, sizeof(b), "pf=%u ", m);
			snprintf(c2, sizeof(c2), "queue(%u)", q);
			CHECK(count_lines(&ls, "ingress", b, a, c2, NULL) == 1,
				"ingress rule of queue %u on PF%u", q, m);
		}
	}
	for (bk = 0; bk < RETA; bk++) {
		static const char *const l4[] = { "ipv4/tcp(src=", "ipv4/udp(src=",
			"ipv6/tcp(src=", "ipv6/udp(src=" };
		unsigned int k;

		snprintf(b, sizeof(b), "set_meta(%u/0xffffffff),%s", reta[bk], jump);
		snprintf(a, sizeof(a), "=0x%04x/0x%04x)", bk, RETA - 1);
		for (k = 0; k < 4; k++)
			CHECK(count_lines(&ls, "transfer", "group=0", l4[k], a, b, NULL) == 1,
				"bucket %u rule %s%s", bk, l4[k], a);
		/* other IP by the low address bits */
		snprintf(a, sizeof(a), "ipv4(src=0.0.0.%u/0.0.0.%u)", bk, RETA - 1);
		CHECK(count_lines(&ls, "transfer", "group=0", a, b, NULL) == 1,
			"bucket %u rule %s", bk, a);
		/* inet_ntop writes ::5, and :: for zero */
		if (bk == 0)
			snprintf(a, sizeof(a), "ipv6(src=::/::%x)", RETA - 1);
		else
			snprintf(a, sizeof(a), "ipv6(src=::%x/::%x)", bk, RETA - 1);
		CHECK(count_lines(&ls, "transfer", "group=0", a, b, NULL) == 1,
			"bucket %u rule %s", bk, a);
	}
	snprintf(b, sizeof(b), "prio=%u ", OCTO_STEER_PRIO_CATCHALL);
	snprintf(c3, sizeof(c3), "prio=%u ", OCTO_STEER_PRIO_CATCHALL + 1);
	snprintf(c2, sizeof(c2), "set_meta(%u/0xffffffff),%s", catchall, jump);
	CHECK(count_lines(&ls, "transfer", b, c2, NULL) +
		count_lines(&ls, "transfer", c3, c2, NULL) == 1,
		"catch-all to queue %u", catchall);
	if (octo_failures != 0)
		for (q = 0; q < ls.n; q++)
			fprintf(stderr, "  %s\n", ls.l[q]);
	lines_free(&ls);
}

/* ---- traffic ---- */

/* the spreading field of the rules installed by install() */
static enum octo_steer_field cur_field = OCTO_STEER_FIELD_L4_SRC;

/* poll_and_check() target meaning "until the queues stay empty" */
#define DRAIN UINT64_MAX

struct rx_count {
	uint64_t total;
	uint64_t wrong;		/* on another (member, queue) than expected */
	uint64_t ok;
	uint32_t buckets;	/* bit b: a packet of bucket b arrived right */
};

/* Where a received packet should be: bucket of its L4 source port (IP
 * source address for other IP), queue reta[bucket] on its home member.
 */
static int
expected_queue(const struct rte_mbuf *m, const uint16_t *reta, int *bucket)
{
	const struct rte_ether_hdr *eh = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);
	uint16_t et = rte_be_to_cpu_16(eh->ether_type);
	const uint8_t *l3 = (const uint8_t *)(eh + 1);
	int dst = cur_field == OCTO_STEER_FIELD_L4_DST || cur_field == OCTO_STEER_FIELD_IP_DST;
	int by_port = cur_field == OCTO_STEER_FIELD_L4_SRC || cur_field == OCTO_STEER_FIELD_L4_DST;
	uint32_t low;
	uint8_t proto;
	const uint8_t *l4;

	if (et == RTE_ETHER_TYPE_IPV4) {
		const struct rte_ipv4_hdr *ip = (const struct rte_ipv4_hdr *)l3;

		proto = ip->next_proto_id;
		low = rte_be_to_cpu_32(dst ? ip->dst_addr : ip->src_addr);
		l4 = l3 + rte_ipv4_hdr_len(ip);
	} else if (et == RTE_ETHER_TYPE_IPV6) {
		const struct rte_ipv6_hdr *ip = (const struct rte_ipv6_hdr *)l3;
		uint32_t w;

		proto = ip->proto;
		memcpy(&w, dst ? &OCTO_IPV6_BYTES(ip->dst_addr)[12] :
			&OCTO_IPV6_BYTES(ip->src_addr)[12], 4);
		low = rte_be_to_cpu_32(w);
		l4 = l3 + sizeof(*ip);
	} else {
		*bucket = -1;
		return -1;	/* catch-all */
	}
	if (by_port && (proto == IPPROTO_TCP || proto == IPPROTO_UDP)) {
		uint16_t port;

		/* source then destination port, in TCP and UDP alike */
		memcpy(&port, l4 + (dst ? 2 : 0), 2);
		low = rte_be_to_cpu_16(port);
	}
	*bucket = (int)(low & (RETA - 1));
	return reta[*bucket];
}

/*
 * Poll every queue of both members until @p want packets arrived or 3 s
 * passed; count packets not where the model puts them.  Bucket coverage is
 * recorded in @p seen_bucket_mask when non-NULL.
 */
static void
poll_and_check(const uint16_t *ports, const uint16_t *homes, const uint16_t *reta,
		uint16_t catchall, uint64_t want, struct rx_count *rc,
		uint64_t *queues_seen)
{
	uint64_t deadline = rte_get_timer_cycles() + 3 * rte_get_timer_hz();
	struct rte_mbuf *pkts[32];

	unsigned int idle = 0;

	memset(rc, 0, sizeof(*rc));
	while (rc->total < want && rte_get_timer_cycles() < deadline) {
		uint64_t before = rc->total;
		unsigned int m, q, i, n;

		/* draining (want unbounded): done after 100 empty rounds */
		if (want == DRAIN && idle >= 100)
			break;

		for (m = 0; m < nb_pf; m++)
			for (q = 0; q < nb_q; q++) {
				n = rte_eth_rx_burst(ports[m], q, pkts, RTE_DIM(pkts));
				for (i = 0; i < n; i++) {
					int bk;
					int eq = expected_queue(pkts[i], reta, &bk);

					if (eq < 0)
						eq = catchall;
					if ((unsigned int)eq == q && homes[eq] == m) {
						rc->ok++;
						if (bk >= 0)
							rc->buckets |= 1u << bk;
						if (queues_seen != NULL)
							*queues_seen |= UINT64_C(1) << (m * nb_q + q);
					} else {
						rc->wrong++;
					}
					rc->total++;
					rte_pktmbuf_free(pkts[i]);
				}
			}
		idle = rc->total == before ? idle + 1 : 0;
	}
}

/* Push @p n frames of a fixed content into the wire=loop NIC through
 * PF @p port's Tx queue 0: they come back through the e-switch.
 */
static uint16_t
send_frames(uint16_t port, struct rte_mempool *mp, const uint8_t *frame,
		uint16_t len, unsigned int n)
{
	struct rte_mbuf *m[32];
	unsigned int i, sent = 0;

	while (sent < n) {
		unsigned int b = RTE_MIN(n - sent, RTE_DIM(m));

		if (rte_pktmbuf_alloc_bulk(mp, m, b) != 0)
			break;
		for (i = 0; i < b; i++)
			memcpy(rte_pktmbuf_append(m[i], len), frame, len);
		i = rte_eth_tx_burst(port, 0, m, b);
		sent += i;
		if (i < b) {
			rte_pktmbuf_free_bulk(&m[i], b - i);
			break;
		}
	}
	return (uint16_t)sent;
}

static struct octopus_steer *
install(const uint16_t *ports, const uint16_t *homes, const uint16_t *reta,
		uint16_t catchall)
{
	struct octopus_steer_conf c;
	struct octopus_steer *s = NULL;
	char why[256] = "";
	int ret;

	octo_steer_conf_fill(&c, ports, (uint16_t)nb_pf, nb_q, homes, reta, RETA, cur_field);
	c.catchall_queue = catchall;
	ret = octopus_steer_install(&s, &c, why, sizeof(why));
	CHECK(ret == 0 && s != NULL, "install on octonic: %d (%s)", ret, why);
	return s;
}

static void
check_gen_traffic(const uint16_t *ports, const uint16_t *homes,
		const uint16_t *reta, uint16_t catchall)
{
	static const struct { uint8_t v6, proto; } kinds[] = {
		{ 0, IPPROTO_UDP }, { 0, IPPROTO_TCP }, { 1, IPPROTO_UDP }, { 1, IPPROTO_TCP },
	};
	struct rte_pmd_octonic_gen_conf g;
	struct rx_count rc;
	unsigned int k;
	int ret;

	for (k = 0; k < RTE_DIM(kinds); k++) {
		uint64_t seen = 0, want_seen = 0;
		uint32_t q;

		CHECK(nic.gen_enable(ports[0], 0) == 0, "gen pause");
		/* drain what the previous kind left */
		poll_and_check(ports, homes, reta, catchall, DRAIN, &rc, NULL);
		CHECK(nic.gen_get(ports[0], &g) == 0, "gen get");
		g.nb_flows = 256;
		g.ipv6 = kinds[k].v6;
		g.l4_proto = kinds[k].proto;
		g.rate_pps = 0;
		g.limit = 0;
		/* room for IPv6 + TCP headers and the generator's payload */
		g.pkt_len = 128;
		ret = nic.gen_set(ports[0], &g);
		CHECK(ret == 0, "gen set: %d", ret);
		CHECK(nic.gen_enable(ports[0], 1) == 0, "gen resume");
		poll_and_check(ports, homes, reta, catchall, 4096, &rc, &seen);
		CHECK(rc.total >= 4096, "kind %u: only %" PRIu64 " packets", k, rc.total);
		CHECK(rc.wrong == 0, "kind %u: %" PRIu64 " of %" PRIu64 " packets on the wrong queue",
			k, rc.wrong, rc.total);
		/* every queue that owns a bucket got traffic, at its home */
		for (q = 0; q < RETA; q++)
			want_seen |= UINT64_C(1) << (homes[reta[q]] * nb_q + reta[q]);
		CHECK((seen & want_seen) == want_seen, "kind %u: queues seen 0x%" PRIx64
			", want 0x%" PRIx64,
			k, seen, want_seen);
		CHECK(rc.buckets == (1u << RETA) - 1, "kind %u: buckets reached 0x%x", k,
			rc.buckets);
		printf("gen v6=%u proto=%u: %" PRIu64 " packets, %" PRIu64 " at the home PF's queue\n",
			kinds[k].v6, kinds[k].proto, rc.total, rc.ok);
	}
	CHECK(nic.gen_enable(ports[0], 0) == 0, "gen pause");
	poll_and_check(ports, homes, reta, catchall, DRAIN, &rc, NULL);
}

static void
check_loop_traffic(const uint16_t *ports, struct rte_mempool *mp,
		const uint16_t *homes, const uint16_t *reta, uint16_t catchall)
{
	uint8_t arp[64], ipx[64];
	struct rte_ether_hdr *eh;
	struct rte_ipv4_hdr *ip;
	struct rx_count rc;
	uint64_t seen = 0;
	uint16_t sent;

	/* ARP: no bucket matches, the catch-all takes it */
	memset(arp, 0, sizeof(arp));
	eh = (struct rte_ether_hdr *)arp;
	memset(&eh->dst_addr, 0xff, sizeof(eh->dst_addr));
	eh->src_addr.addr_bytes[5] = 1;
	eh->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_ARP);
	sent = send_frames(ports[1], mp, arp, sizeof(arp), 64);
	CHECK(sent == 64, "sent %u ARP", sent);
	poll_and_check(ports, homes, reta, catchall, sent, &rc, &seen);
	CHECK(rc.total == sent && rc.wrong == 0,
		"ARP: %" PRIu64 " received, %" PRIu64 " not on catch-all queue %u at PF%u",
		rc.total, rc.wrong, catchall, homes[catchall]);
	CHECK(seen == UINT64_C(1) << (homes[catchall] * nb_q + catchall), "ARP queues 0x%"
		PRIx64, seen);

	/* an IPv4 protocol without ports (GRE): the address bucket */
	memset(ipx, 0, sizeof(ipx));
	eh = (struct rte_ether_hdr *)ipx;
	eh->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	ip = (struct rte_ipv4_hdr *)(eh + 1);
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->total_length = rte_cpu_to_be_16(sizeof(ipx) - sizeof(*eh));
	ip->time_to_live = 64;
	ip->next_proto_id = 47;
	ip->src_addr = rte_cpu_to_be_32(0x0a000000 | 13);
	ip->dst_addr = rte_cpu_to_be_32(0x0a000001);
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	sent = send_frames(ports[0], mp, ipx, sizeof(ipx), 32);
	seen = 0;
	poll_and_check(ports, homes, reta, catchall, sent, &rc, &seen);
	CHECK(rc.total == sent && rc.wrong == 0 && sent > 0,
		"GRE: %" PRIu64 " of %u received, %" PRIu64 " wrong", rc.total, sent, rc.wrong);
	CHECK(seen == UINT64_C(1) << (homes[reta[13]] * nb_q + reta[13]), "GRE queues 0x%"
		PRIx64, seen);
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Move queue 0 back and forth: each move must cost one create and one
 * destroy however often it is done; print the latency of a move.
 */
static void
measure_set_home(struct octopus_steer *s, uint16_t proxy, uint16_t *homes)
{
	enum { MOVES = 400 };
	static uint64_t ns[MOVES];
	struct rte_pmd_octonic_flow_stats before, after;
	uint64_t hz = rte_get_timer_hz();
	unsigned int i;

	CHECK(nic.fstats(proxy, &before) == 0, "stats");
	for (i = 0; i < MOVES; i++) {
		/* each other member in turn (the other one at 2 PFs) */
		uint16_t to = (uint16_t)octo_pfs_other(homes[0], i, nb_pf);
		uint64_t t0 = rte_get_timer_cycles();
		int ret = octopus_steer_set_home(s, 0, to);

		ns[i] = (rte_get_timer_cycles() - t0) * 1000000000ull / hz;
		CHECK(ret == 0, "move %u: %d", i, ret);
		homes[0] = to;
	}
	CHECK(nic.fstats(proxy, &after) == 0, "stats");
	CHECK(after.creates - before.creates == MOVES &&
		after.destroys - before.destroys == MOVES,
		"%u moves: %" PRIu64 " creates, %" PRIu64 " destroys", MOVES,
		after.creates - before.creates, after.destroys - before.destroys);
	CHECK(after.transfer_rules == before.transfer_rules, "transfer rules %u -> %u",
		before.transfer_rules, after.transfer_rules);
	qsort(ns, MOVES, sizeof(ns[0]), cmp_u64);
	printf("set_home on net_octonic (%u transfer rules): p50 %.1f us, p99 %.1f us, max %.1f us over %u moves\n",
		after.transfer_rules, ns[MOVES / 2] / 1e3, ns[MOVES * 99 / 100] / 1e3,
		ns[MOVES - 1] / 1e3, MOVES);
}

/* An IPv4 frame of protocol @p proto (TCP/UDP get ports) into @p buf. */
static uint16_t
make_ipv4(uint8_t *buf, uint8_t proto, uint32_t src, uint32_t dst, uint16_t sport,
		uint16_t dport)
{
	struct rte_ether_hdr *eh = (struct rte_ether_hdr *)buf;
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eh + 1);
	uint8_t *l4 = (uint8_t *)(ip + 1);
	const uint16_t len = 96;

	memset(buf, 0, len);
	eh->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->total_length = rte_cpu_to_be_16(len - sizeof(*eh));
	ip->time_to_live = 64;
	ip->next_proto_id = proto;
	ip->src_addr = rte_cpu_to_be_32(src);
	ip->dst_addr = rte_cpu_to_be_32(dst);
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	if (proto == IPPROTO_TCP) {
		struct rte_tcp_hdr *t = (struct rte_tcp_hdr *)l4;

		t->src_port = rte_cpu_to_be_16(sport);
		t->dst_port = rte_cpu_to_be_16(dport);
		t->data_off = 5 << 4;
	} else if (proto == IPPROTO_UDP) {
		struct rte_udp_hdr *u = (struct rte_udp_hdr *)l4;

		u->src_port = rte_cpu_to_be_16(sport);
		u->dst_port = rte_cpu_to_be_16(dport);
		u->dgram_len = rte_cpu_to_be_16(len - sizeof(*eh) - sizeof(*ip));
	}
	return len;
}

/*
 * Destination-field spreading (spread=l4_dst) on the loop NIC: frames of
 * every destination-port bucket (TCP, UDP) and destination-address bucket
 * (GRE), with source fields pointing at other buckets, land by destination.
 */
static void
check_dst_spreading(const uint16_t *ports, struct rte_mempool *mp,
		const uint16_t *homes, const uint16_t *reta)
{
	static const uint8_t protos[] = { IPPROTO_UDP, IPPROTO_TCP, 47 };
	uint64_t seen = 0, want_seen = 0;
	struct rx_count rc;
	uint8_t frame[128];
	unsigned int b, k, sent = 0;

	for (b = 0; b < RETA; b++)
		for (k = 0; k < RTE_DIM(protos); k++) {
			uint16_t len = make_ipv4(frame, protos[k],
				0x0a000000 | ((b + 7) % RETA), 0x0b000000 | (0x100 + b),
				(uint16_t)(0xc000 | ((b + 3) % RETA)), (uint16_t)(0x2000 + b));

			sent += send_frames(ports[b % nb_pf], mp, frame, len, 4);
			want_seen |= UINT64_C(1) << (homes[reta[b]] * nb_q + reta[b]);
		}
	CHECK(sent == RETA * RTE_DIM(protos) * 4, "sent %u", sent);
	poll_and_check(ports, homes, reta, 0, sent, &rc, &seen);
	CHECK(rc.total == sent && rc.wrong == 0,
		"l4_dst: %" PRIu64 " of %u received, %" PRIu64 " on the wrong queue",
		rc.total, sent, rc.wrong);
	CHECK(seen == want_seen, "l4_dst: queues seen 0x%" PRIx64 ", want 0x%" PRIx64, seen,
		want_seen);
	CHECK(rc.buckets == (1u << RETA) - 1, "l4_dst: buckets reached 0x%x", rc.buckets);
}

/* Install and remove the largest RETA the port offers (512 buckets). */
static void
measure_big_install(const uint16_t *ports)
{
	enum { BIG = 512 };
	static uint16_t reta[BIG];
	uint16_t homes[MAX_Q];
	struct rte_pmd_octonic_flow_stats st;
	struct octopus_steer_conf c;
	struct octopus_steer *s = NULL;
	uint64_t hz = rte_get_timer_hz(), t0, t1, t2, t_rm;
	char why[256] = "";
	int ret;

	octo_homes_spread(homes, nb_q, nb_pf);
	octo_reta_spread(reta, BIG, nb_q);
	octo_steer_conf_fill(&c, ports, (uint16_t)nb_pf, nb_q, homes, reta, BIG,
		OCTO_STEER_FIELD_L4_SRC);
	t0 = rte_get_timer_cycles();
	ret = octopus_steer_install(&s, &c, why, sizeof(why));
	t1 = rte_get_timer_cycles();
	CHECK(ret == 0, "install %u buckets: %d (%s)", BIG, ret, why);
	if (ret != 0)
		return;
	CHECK(nic.fstats(ports[0], &st) == 0 && st.transfer_rules == nb_q + BIG * 6u + 1,
		"transfer rules %u", st.transfer_rules);
	/* a home move costs the same with 6x512 bucket rules as with 6x16 */
	measure_set_home(s, ports[0], homes);
	t_rm = rte_get_timer_cycles();
	octopus_steer_remove(s);
	t2 = rte_get_timer_cycles();
	CHECK(nic.fstats(ports[0], &st) == 0 && st.transfer_rules == 0,
		"after remove %u", st.transfer_rules);
	printf("%u buckets: install %u rules in %.2f ms, remove in %.2f ms\n", BIG,
		nb_pf * nb_q + nb_q + BIG * 6 + 1, (t1 - t0) * 1e3 / hz, (t2 - t_rm) * 1e3 / hz);
}

/* Members of two NICs have two transfer proxies: not one e-switch. */
static void
check_two_nics(const uint16_t *gports, const uint16_t *lports)
{
	uint16_t homes[MAX_Q], reta[RETA] = { 0 };
	struct octopus_steer_conf c;
	struct octopus_steer *s = NULL;
	char why[256] = "";
	int ret;

	uint16_t members[2] = { gports[0], lports[1] };

	octo_homes_spread(homes, nb_q, 2);
	octo_steer_conf_fill(&c, members, 2, nb_q, homes, reta, RETA, OCTO_STEER_FIELD_IP_SRC);
	ret = octopus_steer_install(&s, &c, why, sizeof(why));
	CHECK(ret == -ENOTSUP && s == NULL, "members of two NICs: %d", ret);
	CHECK(strstr(why, "different transfer proxies") != NULL, "reason: %s", why);
}

/*
 * Members with 2 Rx queues cannot take QUEUE(2): the probe (queue 0)
 * passes, creation fails part-way, and every rule created is removed.
 */
static void
check_rollback(struct rte_mempool *mp)
{
	struct rte_pmd_octonic_flow_stats before, after, pf1;
	uint16_t ports[2], homes[MAX_Q], reta[RETA];
	struct octopus_steer_conf c;
	struct octopus_steer *s = NULL;
	struct octo_port_conf pc = { .nb_rxq = 2, .nb_txq = 2, .nb_desc = 256, .pool = mp };
	char why[256] = "";
	unsigned int i;
	int ret;

	CHECK(nic_ports("net_octonic2", ports, 2) == 2, "third NIC ports");
	octo_homes_spread(homes, nb_q, 2);
	for (i = 0; i < 2; i++)
		CHECK(octo_port_start(ports[i], &pc) == 0, "configure, set up and start");
	octo_reta_spread(reta, RETA, nb_q);
	octo_steer_conf_fill(&c, ports, 2, nb_q, homes, reta, RETA, OCTO_STEER_FIELD_L4_SRC);
	CHECK(nic.fstats(ports[0], &before) == 0, "stats");
	ret = octopus_steer_install(&s, &c, why, sizeof(why));
	CHECK(ret < 0 && s == NULL, "install with too few member queues: %d", ret);
	printf("refused part-way: %d (%s)\n", ret, why);
	CHECK(nic.fstats(ports[0], &after) == 0, "stats");
	CHECK(nic.fstats(ports[1], &pf1) == 0, "stats");
	CHECK(after.creates > before.creates, "nothing was created before the refusal");
	CHECK(after.creates - before.creates == after.destroys - before.destroys,
		"created %" PRIu64 ", removed %" PRIu64, after.creates - before.creates,
		after.destroys - before.destroys);
	CHECK(after.transfer_rules == 0 && after.ingress_rules == 0 &&
		pf1.ingress_rules == 0, "rules left: %u transfer, %u + %u ingress",
		after.transfer_rules, after.ingress_rules, pf1.ingress_rules);
	for (i = 0; i < 2; i++)
		rte_eth_dev_stop(ports[i]);
}

static void
run_octonic(struct rte_mempool *unused __rte_unused)
{
	uint16_t gports[OCTO_PFS_MAX], lports[OCTO_PFS_MAX], homes[MAX_Q], reta[RETA];
	struct rte_pmd_octonic_flow_stats before, after;
	struct rte_mempool *mp;
	struct octopus_steer *s;
	unsigned int i;

	REQUIRE(load_octonic_api() == 0, "the NIC model's API");
	nb_pf = octo_pfs();
	REQUIRE(nb_pf != 0, "OCTO_PFS");
	nb_q = (uint16_t)RTE_MAX(4u, nb_pf);
	octo_homes_spread(homes, nb_q, nb_pf);
	CHECK(nic_ports("net_octonic0", gports, OCTO_PFS_MAX) == nb_pf, "gen NIC: not %u PFs",
		nb_pf);
	CHECK(nic_ports("net_octonic1", lports, OCTO_PFS_MAX) == nb_pf, "loop NIC: not %u PFs",
		nb_pf);
	if (octo_failures != 0)
		return;
	/* every Rx ring of both NICs full, and the generator's bursts */
	mp = rte_pktmbuf_pool_create("steer_mp", RTE_MAX(8191u, 2 * nb_pf * nb_q * 256 + 4095),
		256, 0, RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	REQUIRE(mp != NULL, "mempool");
	for (i = 0; i < nb_pf; i++) {
		CHECK(start_port(gports[i], mp) == 0, "start gen port %u", gports[i]);
		CHECK(start_port(lports[i], mp) == 0, "start loop port %u", lports[i]);
	}
	if (octo_failures != 0)
		return;
	for (i = 0; i < RETA; i++)
		reta[i] = (uint16_t)((i * 3 + 1) % nb_q);

	/* ---- install: exactly the model's rules ---- */
	CHECK(nic.gen_enable(gports[0], 0) == 0, "gen pause");
	s = install(gports, homes, reta, 2);
	if (s == NULL)
		return;
	CHECK(octopus_steer_rule_count(s) == nb_pf * nb_q + nb_q + RETA * 6 + 1,
		"rule count %u", octopus_steer_rule_count(s));
	check_tables(gports[0], gports, homes, reta, 2);
	check_gen_traffic(gports, homes, reta, 2);

	/* ---- set_home: one rule replaced ---- */
	CHECK(nic.fstats(gports[0], &before) == 0, "stats");
	CHECK(octopus_steer_set_home(s, 1, 0) == 0, "set_home");
	CHECK(nic.fstats(gports[0], &after) == 0, "stats");
	CHECK(after.creates == before.creates + 1 && after.destroys == before.destroys + 1,
		"set_home: creates +%" PRIu64 ", destroys +%" PRIu64,
		after.creates - before.creates, after.destroys - before.destroys);
	homes[1] = 0;
	check_tables(gports[0], gports, homes, reta, 2);
	check_gen_traffic(gports, homes, reta, 2);
	/* and back: the second change of a rule takes the other level */
	CHECK(octopus_steer_set_home(s, 1, 1) == 0, "set_home back");
	homes[1] = 1;
	check_tables(gports[0], gports, homes, reta, 2);

	/* ---- set_bucket: that bucket's 6 rules ---- */
	CHECK(nic.fstats(gports[0], &before) == 0, "stats");
	CHECK(octopus_steer_set_bucket(s, 5, (uint16_t)((reta[5] + 1) % nb_q)) == 0,
		"set_bucket");
	CHECK(nic.fstats(gports[0], &after) == 0, "stats");
	CHECK(after.creates == before.creates + 6 && after.destroys == before.destroys + 6,
		"set_bucket: creates +%" PRIu64 ", destroys +%" PRIu64,
		after.creates - before.creates, after.destroys - before.destroys);
	reta[5] = (uint16_t)((reta[5] + 1) % nb_q);
	check_tables(gports[0], gports, homes, reta, 2);
	check_gen_traffic(gports, homes, reta, 2);
	CHECK(octopus_steer_rule_count(s) == nb_pf * nb_q + nb_q + RETA * 6 + 1,
		"rule count %u", octopus_steer_rule_count(s));

	/* ---- cost of a home move (the migration's rule update) ---- */
	measure_set_home(s, gports[0], homes);

	/* ---- remove: nothing left ---- */
	octopus_steer_remove(s);
	CHECK(nic.fstats(gports[0], &after) == 0, "stats");
	CHECK(after.transfer_rules == 0 && after.ingress_rules == 0,
		"after remove: %u transfer, %u ingress rules", after.transfer_rules,
		after.ingress_rules);
	CHECK(nic.fstats(gports[1], &after) == 0 && after.ingress_rules == 0,
		"PF1 ingress rules after remove: %u", after.ingress_rules);

	/* ---- spread=ip_src: every IP packet by its source address ---- */
	cur_field = OCTO_STEER_FIELD_IP_SRC;
	s = install(gports, homes, reta, 2);
	if (s == NULL)
		return;
	CHECK(octopus_steer_rule_count(s) == nb_pf * nb_q + nb_q + RETA * 2 + 1,
		"ip_src rule count %u", octopus_steer_rule_count(s));
	check_gen_traffic(gports, homes, reta, 2);
	octopus_steer_remove(s);
	cur_field = OCTO_STEER_FIELD_L4_SRC;

	/* ---- non-IP and other IP on the loop NIC ---- */
	for (i = 0; i < RETA; i++)
		reta[i] = (uint16_t)((i * 3 + 1) % nb_q);
	homes[0] = 1;
	homes[1] = 0;
	s = install(lports, homes, reta, 3);
	if (s == NULL)
		return;
	check_loop_traffic(lports, mp, homes, reta, 3);
	CHECK(octopus_steer_set_home(s, 3, 0) == 0, "set_home of the catch-all queue");
	homes[3] = 0;
	check_loop_traffic(lports, mp, homes, reta, 3);
	octopus_steer_remove(s);
	/* another catch-all queue (catchall=) */
	s = install(lports, homes, reta, 1);
	if (s == NULL)
		return;
	check_loop_traffic(lports, mp, homes, reta, 1);
	octopus_steer_remove(s);

	/* ---- spread=l4_dst ---- */
	cur_field = OCTO_STEER_FIELD_L4_DST;
	s = install(lports, homes, reta, 0);
	if (s == NULL)
		return;
	check_dst_spreading(lports, mp, homes, reta);
	octopus_steer_remove(s);
	cur_field = OCTO_STEER_FIELD_L4_SRC;
	CHECK(nic.fstats(lports[0], &after) == 0 && after.transfer_rules == 0,
		"loop NIC after remove: %u transfer rules", after.transfer_rules);

	check_two_nics(gports, lports);
	measure_big_install(gports);

	/* ---- a refusal mid-way leaves nothing behind ---- */
	check_rollback(mp);

	for (i = 0; i < nb_pf; i++) {
		rte_eth_dev_stop(gports[i]);
		rte_eth_dev_stop(lports[i]);
	}
}

/* each mode is the same binary over other vdevs (meson.build) */
static const struct octo_case cases[] = {
	{ "null", run_null }, { "octonic", run_octonic },
};

int
main(int argc, char **argv)
{
	const char *mode;
	int ret;

	ret = octo_test_eal_init(&argc, &argv, 512);
	if (ret < 0) {
		/* the octonic run needs the NIC model's plugin; without one
		 * that loads there is nothing to test against: skip (77)
		 */
		mode = argc > 1 ? argv[argc - 1] : "";
		fprintf(stderr, "EAL init failed\n");
		return strcmp(mode, "octonic") == 0 ? 77 : 1;
	}
	argc -= ret;
	argv += ret;
	mode = argc > 1 ? argv[1] : "null";
	ret = octo_case_run(cases, RTE_DIM(cases), mode, argv[0], NULL);
	rte_eal_cleanup();
	if (ret < 0 || octo_failures != 0) {
		fprintf(stderr, "%s: %d failure(s)\n", mode, octo_failures);
		return 1;
	}
	printf("%s: all checks passed\n", mode);
	return 0;
}
