/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Software versions of the offloads a NIC reports or performs: packet type
 * and Rx checksum verdicts on contiguous frames, Tx checksum insertion on
 * mbuf chains. The mbuf is only read and written through its fields
 * (no mempool, no refcount), so tests can build chains by hand.
 */

#include <errno.h>
#include <netinet/in.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_tcp.h>
#include <rte_udp.h>

#include "octo_wire.h"
#include "octo_wire_parse.h"

/* Tx requests the model cannot honour in software (yet). */
#define TX_REFUSED (RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_TX_UDP_SEG | \
		RTE_MBUF_F_TX_TUNNEL_MASK | RTE_MBUF_F_TX_OUTER_IP_CKSUM | \
		RTE_MBUF_F_TX_OUTER_UDP_CKSUM | RTE_MBUF_F_TX_OUTER_IPV4 | \
		RTE_MBUF_F_TX_OUTER_IPV6 | RTE_MBUF_F_TX_SEC_OFFLOAD | \
		RTE_MBUF_F_TX_MACSEC)

/*
 * Raw sum of @p len bytes from @p off across the chain. Not DPDK 22.11's
 * rte_raw_cksum_mbuf(): it truncates a segment's unfolded sum to 16 bits
 * before byte-swapping it when the segment starts at an odd offset, losing
 * the carries (wrong checksums for odd-length segments).
 */
static int
chain_sum(const struct rte_mbuf *m, uint32_t off, uint32_t len, uint32_t *out)
{
	uint32_t sum = 0, done = 0, n, part;

	for (; m != NULL && off >= m->data_len; m = m->next)
		off -= m->data_len;
	for (; m != NULL && done < len; m = m->next, off = 0) {
		n = RTE_MIN(len - done, (uint32_t)m->data_len - off);
		part = octo_wire_fold(octo_wire_raw_sum(rte_pktmbuf_mtod_offset(m,
				const uint8_t *, off), n, 0));
		/* a part starting at an odd byte has its bytes in swapped lanes */
		if (done & 1)
			part = rte_bswap16((uint16_t)part);
		sum += part;
		done += n;
	}
	if (done != len)
		return -1;
	*out = sum;
	return 0;
}

uint32_t
octo_offload_ptype(const uint8_t *frame, uint32_t len)
{
	struct octo_wire_hdrs h;

	octo_wire_parse(frame, len, &h);
	return h.ptype;
}

static uint64_t
l4_verdict(const uint8_t *frame, const struct octo_wire_hdrs *h)
{
	const uint8_t *l3 = frame + h->l2_len;
	const uint8_t *l4 = l3 + h->l3_len;
	uint32_t sum;

	if (h->frag || (h->l4_proto != IPPROTO_UDP && h->l4_proto != IPPROTO_TCP))
		return RTE_MBUF_F_RX_L4_CKSUM_UNKNOWN;
	/* a segment cut short or shorter than its header cannot be right */
	if (!h->l4_fits || h->l4_len < (h->l4_proto == IPPROTO_UDP ?
			sizeof(struct rte_udp_hdr) : sizeof(struct rte_tcp_hdr)))
		return RTE_MBUF_F_RX_L4_CKSUM_BAD;
	if (h->l4_proto == IPPROTO_UDP &&
			((const struct rte_udp_hdr *)l4)->dgram_cksum == 0)
		/* IPv4 may omit the UDP checksum; IPv6 may not (RFC 8200) */
		return h->ip_version == 4 ? RTE_MBUF_F_RX_L4_CKSUM_GOOD :
			RTE_MBUF_F_RX_L4_CKSUM_BAD;
	sum = octo_wire_pseudo_sum(l3, h->ip_version, h->l4_proto, h->l4_len);
	sum = octo_wire_raw_sum(l4, h->l4_len, sum);
	return octo_wire_fold(sum) == 0xffff ? RTE_MBUF_F_RX_L4_CKSUM_GOOD :
		RTE_MBUF_F_RX_L4_CKSUM_BAD;
}

uint64_t
octo_offload_rx_cksum(const uint8_t *frame, uint32_t len)
{
	struct octo_wire_hdrs h;
	uint64_t ol;

	octo_wire_parse(frame, len, &h);
	if (h.ip_version == 0)
		return RTE_MBUF_F_RX_IP_CKSUM_UNKNOWN | RTE_MBUF_F_RX_L4_CKSUM_UNKNOWN;
	if (h.ip_version == 6)
		ol = RTE_MBUF_F_RX_IP_CKSUM_NONE;	/* IPv6 has no header checksum */
	else if (rte_raw_cksum(frame + h.l2_len, h.l3_len) == 0xffff)
		ol = RTE_MBUF_F_RX_IP_CKSUM_GOOD;
	else
		ol = RTE_MBUF_F_RX_IP_CKSUM_BAD;
	return ol | l4_verdict(frame, &h);
}

int
octo_offload_tx(struct rte_mbuf *m)
{
	uint64_t ol = m->ol_flags;
	uint64_t l4_req = ol & RTE_MBUF_F_TX_L4_MASK;
	int ip_req = (ol & RTE_MBUF_F_TX_IP_CKSUM) != 0;
	int is_v4 = (ol & RTE_MBUF_F_TX_IPV4) != 0;
	int is_v6 = (ol & RTE_MBUF_F_TX_IPV6) != 0;
	uint32_t l2 = m->l2_len, l3 = m->l3_len, l4_len, l4_hdr;
	uint8_t proto, want, *ip, *ck_field;
	uint16_t ck;
	uint32_t sum, raw;

	if ((ol & TX_REFUSED) != 0 || l4_req == RTE_MBUF_F_TX_SCTP_CKSUM)
		return -EINVAL;
	if (!ip_req && l4_req == RTE_MBUF_F_TX_L4_NO_CKSUM)
		return 0;
	/* as rte_eth_tx_prepare() wants: say which IP; IP checksum is IPv4's */
	if (is_v4 == is_v6 || (ip_req && !is_v4))
		return -EINVAL;
	want = l4_req == RTE_MBUF_F_TX_TCP_CKSUM ? IPPROTO_TCP :
		l4_req == RTE_MBUF_F_TX_UDP_CKSUM ? IPPROTO_UDP : 0;
	l4_hdr = want == IPPROTO_TCP ? sizeof(struct rte_tcp_hdr) :
		want == IPPROTO_UDP ? sizeof(struct rte_udp_hdr) : 0;
	/* the headers (with the L4 checksum field) must be in the first segment */
	if (m->data_len < l2 + l3 + l4_hdr)
		return -EINVAL;
	ip = rte_pktmbuf_mtod_offset(m, uint8_t *, l2);

	/* Check everything before writing anything: a refusal leaves m as is. */
	if (is_v4) {
		struct rte_ipv4_hdr *h4 = (struct rte_ipv4_hdr *)ip;

		if (l3 < sizeof(*h4) || (h4->version_ihl >> 4) != 4 ||
				rte_ipv4_hdr_len(h4) != l3 ||
				rte_be_to_cpu_16(h4->total_length) < l3)
			return -EINVAL;
		l4_len = rte_be_to_cpu_16(h4->total_length) - l3;
		proto = h4->next_proto_id;
	} else {
		struct rte_ipv6_hdr *h6 = (struct rte_ipv6_hdr *)ip;

		if (l3 < sizeof(*h6) || (rte_be_to_cpu_32(h6->vtc_flow) >> 28) != 6 ||
				rte_be_to_cpu_16(h6->payload_len) + sizeof(*h6) < l3)
			return -EINVAL;
		l4_len = rte_be_to_cpu_16(h6->payload_len) + sizeof(*h6) - l3;
		/* behind extension headers, the app's l3_len vouches for the L4 */
		proto = l3 == sizeof(*h6) ? h6->proto : want;
	}
	if (want != 0 && (proto != want || l4_len < l4_hdr ||
			l2 + l3 + l4_len > m->pkt_len))
		return -EINVAL;

	if (want != 0) {
		uint16_t old;

		ck_field = ip + l3 + (want == IPPROTO_UDP ?
			offsetof(struct rte_udp_hdr, dgram_cksum) :
			offsetof(struct rte_tcp_hdr, cksum));
		/* fails only on a chain holding less than its pkt_len */
		if (chain_sum(m, l2 + l3, l4_len, &raw) != 0)
			return -EINVAL;
		/*
		 * Whatever the app left in the checksum field (zero, or the
		 * pseudo-header sum rte_eth_tx_prepare() puts there) is replaced,
		 * as hardware does: adding its complement takes it out of the sum.
		 */
		memcpy(&old, ck_field, sizeof(old));
		sum = octo_wire_pseudo_sum(ip, is_v4 ? 4 : 6, want, l4_len) + raw +
			(uint16_t)~old;
		ck = (uint16_t)~octo_wire_fold(sum);
		/* UDP's 0 means "no checksum": a computed 0 is sent as 0xffff */
		if (ck == 0 && want == IPPROTO_UDP)
			ck = 0xffff;
		memcpy(ck_field, &ck, sizeof(ck));
	}
	if (ip_req) {
		struct rte_ipv4_hdr *h4 = (struct rte_ipv4_hdr *)ip;

		h4->hdr_checksum = 0;
		h4->hdr_checksum = rte_ipv4_cksum(h4);
	}
	return 0;
}
