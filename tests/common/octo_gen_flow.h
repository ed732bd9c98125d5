/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTO_GEN_FLOW_H
#define OCTO_GEN_FLOW_H

/*
 * The flow id net_octonic's generator (wire=gen, lib/wire) writes in the
 * payload of its IPv4/UDP frames after a magic word, and the frame's source
 * address and port (what a rule for that flow matches).
 */

#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_udp.h>

#define OCTO_GEN_MAGIC 0x4f43544fu	/* lib/wire's payload magic */

/* Flow id of @p m (below @p nb_flows), -1 for any other frame. */
static inline int
octo_gen_flow_of(const struct rte_mbuf *m, uint32_t nb_flows, rte_be32_t *src,
		rte_be16_t *sport)
{
	const struct rte_ether_hdr *eh = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);
	const struct rte_ipv4_hdr *ip;
	const struct rte_udp_hdr *udp;
	const uint8_t *pl;
	uint32_t magic, id;
	size_t off;

	if (eh->ether_type != rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4))
		return -1;
	ip = (const struct rte_ipv4_hdr *)(eh + 1);
	if (ip->next_proto_id != IPPROTO_UDP)
		return -1;
	off = sizeof(*eh) + rte_ipv4_hdr_len(ip);
	if (off + sizeof(*udp) + 8 > m->data_len)
		return -1;
	udp = rte_pktmbuf_mtod_offset(m, const struct rte_udp_hdr *, off);
	pl = (const uint8_t *)(udp + 1);
	memcpy(&magic, pl, 4);
	memcpy(&id, pl + 4, 4);
	if (rte_be_to_cpu_32(magic) != OCTO_GEN_MAGIC)
		return -1;
	id = rte_be_to_cpu_32(id);
	if (id >= nb_flows)
		return -1;
	*src = ip->src_addr;
	*sport = udp->src_port;
	return (int)id;
}

#endif /* OCTO_GEN_FLOW_H */
