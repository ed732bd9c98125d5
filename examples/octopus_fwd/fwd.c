/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * The forwarding loop: each lcore polls its own queue on every enabled port,
 * routes each IPv4 packet by LPM, decrements its TTL, rewrites the Ethernet
 * addresses for the output port and buffers it for that port's Tx queue of
 * the same number.  No lock, no allocation, no syscall per burst: queues are
 * the lcore's alone, counters are plain (single writer).
 */

#include <time.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_lpm.h>
#include <rte_mbuf.h>

#include "octopus_fwd.h"

/* Route one packet; returns the output port or -1 once counted as dropped. */
static inline int
ofwd_route_one(struct ofwd_lcore *lc, struct ofwd_queue_stats *st, struct rte_mbuf *m)
{
	struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	struct rte_ipv4_hdr *ip;
	uint32_t next_hop, sum;

	if (eth->ether_type != rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4) ||
			rte_pktmbuf_data_len(m) < sizeof(*eth) + sizeof(*ip) ||
			(m->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK) ==
			RTE_MBUF_F_RX_IP_CKSUM_BAD) {
		st->bad++;
		return -1;
	}
	ip = (struct rte_ipv4_hdr *)(eth + 1);
	if (ip->time_to_live <= 1) {
		st->ttl++;
		return -1;
	}
	if (rte_lpm_lookup(lc->lpm, rte_be_to_cpu_32(ip->dst_addr), &next_hop) != 0 ||
			next_hop >= OFWD_MAX_PORTS || lc->txb[next_hop] == NULL) {
		st->no_route++;
		return -1;
	}
	/*
	 * TTL is the high byte of its 16-bit header word: one less is 0x0100
	 * less in the sum, i.e. 0x0100 more in the checksum (RFC 1141).
	 */
	ip->time_to_live--;
	sum = rte_be_to_cpu_16(ip->hdr_checksum) + 0x0100;
	ip->hdr_checksum = rte_cpu_to_be_16((uint16_t)(sum + (sum >> 16)));
	eth->src_addr = ofwd_conf.src_mac[next_hop];
	eth->dst_addr = ofwd_conf.dst_mac[next_hop];
	return (int)next_hop;
}

static uint64_t
thread_cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int
ofwd_lcore_main(void *arg)
{
	struct ofwd_lcore *lc = arg;
	struct rte_mbuf *pkts[OFWD_BURST];
	uint64_t tsc0 = rte_rdtsc(), cpu0 = thread_cpu_ns();
	uint16_t i, n, p;
	int out;

	while (!rte_atomic_load_explicit(&ofwd_quit, rte_memory_order_relaxed)) {
		for (p = 0; p < ofwd_conf.nb_ports; p++) {
			uint16_t port = ofwd_conf.ports[p];
			struct ofwd_queue_stats *st = &lc->st[port];

			n = rte_eth_rx_burst(port, lc->queue, pkts, OFWD_BURST);
			st->rx += n;
			for (i = 0; i < n; i++) {
				out = ofwd_route_one(lc, st, pkts[i]);
				if (out < 0) {
					rte_pktmbuf_free(pkts[i]);
					continue;
				}
				lc->st[out].tx += rte_eth_tx_buffer((uint16_t)out, lc->queue,
						lc->txb[out], pkts[i]);
			}
		}
		/* Send what the round buffered: latency stays one round. */
		for (p = 0; p < ofwd_conf.nb_ports; p++) {
			uint16_t port = ofwd_conf.ports[p];

			lc->st[port].tx += rte_eth_tx_buffer_flush(port, lc->queue,
					lc->txb[port]);
		}
	}
	lc->loop_cycles = rte_rdtsc() - tsc0;
	lc->cpu_ns = thread_cpu_ns() - cpu0;
	return 0;
}
