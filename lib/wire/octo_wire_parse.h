/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTO_WIRE_PARSE_H
#define OCTO_WIRE_PARSE_H

/**
 * @file
 * Internal to lib/wire: one header walk shared by the packet-type report,
 * the Rx checksum check and the sink, so they agree on where things are.
 */

#include <stdint.h>

/** Where the headers of a contiguous frame are. */
struct octo_wire_hdrs {
	uint32_t ptype;		/**< RTE_PTYPE_* found */
	uint16_t l2_len;	/**< Ethernet header and VLAN tags */
	uint16_t l3_len;	/**< IP header with options/extension headers */
	uint32_t l4_len;	/**< L4 length the IP header declares */
	uint8_t ip_version;	/**< 4, 6, or 0 when the frame has no IP header */
	uint8_t l4_proto;	/**< IPPROTO_* of the L4 header */
	uint8_t frag;		/**< a fragment: the L4 header may be elsewhere */
	uint8_t l4_fits;	/**< l4_len is consistent and within the frame */
};

/** Walk the Ethernet, VLAN and IP headers of @p frame; fills @p h. */
void octo_wire_parse(const uint8_t *frame, uint32_t len, struct octo_wire_hdrs *h);

/**
 * Unfolded one's-complement sum of the TCP/UDP pseudo header of the IP
 * header at @p l3 (IPv4 or IPv6 per @p ip_version) for @p l4_len bytes.
 */
uint32_t octo_wire_pseudo_sum(const void *l3, uint8_t ip_version, uint8_t proto,
		uint32_t l4_len);

/**
 * One's-complement sum of @p len bytes in memory order (as
 * __rte_raw_cksum(), which goes 16 bits at a time: this goes 32), added to
 * @p sum, folded to 16 bits.
 */
uint32_t octo_wire_raw_sum(const void *buf, uint32_t len, uint32_t sum);

/** Fold an unfolded one's-complement sum to 16 bits. */
static inline uint16_t
octo_wire_fold(uint32_t sum)
{
	sum = (sum >> 16) + (sum & 0xffff);
	sum = (sum >> 16) + (sum & 0xffff);
	return (uint16_t)sum;
}

#endif /* OCTO_WIRE_PARSE_H */
