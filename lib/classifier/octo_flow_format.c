/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/* Match -> stable text (the pattern part of the e-switch dump).  The text
 * is derived from the match alone, so two rules that match the same frames
 * print the same way whatever items built them.
 */

#include <arpa/inet.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <rte_byteorder.h>

#include "octo_classifier.h"

/* An snprintf that keeps the running length even past the buffer end. */
struct out {
	char *buf;
	size_t size;
	int len;
};

static void
emit(struct out *o, const char *fmt, ...)
{
	va_list ap;
	size_t room = (size_t)o->len < o->size ? o->size - (size_t)o->len : 0;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(room != 0 ? o->buf + o->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += n;
}

/* Opens "(" before a layer's first field, "," before the next ones. */
static void
field_sep(struct out *o, int *nfields)
{
	emit(o, *nfields == 0 ? "(" : ",");
	(*nfields)++;
}

static void
close_layer(struct out *o, int nfields)
{
	if (nfields != 0)
		emit(o, ")");
}

static void
f_mac(struct out *o, int *nf, const char *name, const uint8_t *v, const uint8_t *m)
{
	static const uint8_t zero[6];

	if (memcmp(m, zero, 6) == 0)
		return;
	field_sep(o, nf);
	emit(o, "%s=%02x:%02x:%02x:%02x:%02x:%02x/%02x:%02x:%02x:%02x:%02x:%02x",
		name, v[0], v[1], v[2], v[3], v[4], v[5],
		m[0], m[1], m[2], m[3], m[4], m[5]);
}

static void
f_be16(struct out *o, int *nf, const char *name, uint16_t v, uint16_t m)
{
	if (m == 0)
		return;
	field_sep(o, nf);
	emit(o, "%s=0x%04x/0x%04x", name, rte_be_to_cpu_16(v), rte_be_to_cpu_16(m));
}

static void
f_u8(struct out *o, int *nf, const char *name, uint8_t v, uint8_t m)
{
	if (m == 0)
		return;
	field_sep(o, nf);
	emit(o, "%s=0x%02x/0x%02x", name, v, m);
}

/* A key bit the match names: "name=1" or "name=0". */
static void
f_flag(struct out *o, int *nf, const char *name, uint16_t v, uint16_t m,
		uint16_t bit)
{
	if ((m & bit) == 0)
		return;
	field_sep(o, nf);
	emit(o, "%s=%d", name, (v & bit) != 0);
}

static void
f_ip(struct out *o, int *nf, const char *name, int v6, const uint8_t *v,
		const uint8_t *m)
{
	static const uint8_t zero[16];
	char a[INET6_ADDRSTRLEN], b[INET6_ADDRSTRLEN];
	int af = v6 ? AF_INET6 : AF_INET;

	if (memcmp(m, zero, v6 ? 16 : 4) == 0)
		return;
	inet_ntop(af, v, a, sizeof(a));
	inet_ntop(af, m, b, sizeof(b));
	field_sep(o, nf);
	emit(o, "%s=%s/%s", name, a, b);
}

static void
layer_sep(struct out *o, int *nlayers)
{
	if ((*nlayers)++ != 0)
		emit(o, "/");
}

int
octo_match_format(const struct octo_match *m, char *buf, size_t size)
{
	const struct octo_flow_key *k = &m->key, *x = &m->mask;
	uint16_t present = x->layers & k->layers;
	struct out o = { .buf = buf, .size = size, .len = 0 };
	int nl = 0, nf;

	if (size != 0)
		buf[0] = '\0';
	if ((present & OCTO_L_ETH) != 0 || (x->layers & OCTO_L_VLAN &
			~k->layers) != 0) {
		layer_sep(&o, &nl);
		emit(&o, "eth");
		nf = 0;
		f_mac(&o, &nf, "dst", k->eth_dst, x->eth_dst);
		f_mac(&o, &nf, "src", k->eth_src, x->eth_src);
		f_be16(&o, &nf, "type", k->eth_type, x->eth_type);
		if ((x->layers & OCTO_L_VLAN & ~k->layers) != 0) {
			field_sep(&o, &nf);
			emit(&o, "has_vlan=0");
		}
		close_layer(&o, nf);
	}
	if ((present & OCTO_L_VLAN) != 0) {
		layer_sep(&o, &nl);
		emit(&o, "vlan");
		nf = 0;
		f_be16(&o, &nf, "tci", k->vlan_tci, x->vlan_tci);
		f_be16(&o, &nf, "inner_type", k->vlan_inner_type,
			x->vlan_inner_type);
		close_layer(&o, nf);
	}
	if ((present & (OCTO_L_IPV4 | OCTO_L_IPV6)) != 0) {
		int v6 = (present & OCTO_L_IPV6) != 0;

		layer_sep(&o, &nl);
		emit(&o, v6 ? "ipv6" : "ipv4");
		nf = 0;
		f_ip(&o, &nf, "src", v6, k->ip_src, x->ip_src);
		f_ip(&o, &nf, "dst", v6, k->ip_dst, x->ip_dst);
		f_u8(&o, &nf, "proto", k->ip_proto, x->ip_proto);
		f_u8(&o, &nf, v6 ? "tc" : "tos", k->ip_tos, x->ip_tos);
		f_u8(&o, &nf, v6 ? "hop" : "ttl", k->ip_ttl, x->ip_ttl);
		f_be16(&o, &nf, "frag", k->ip_frag, x->ip_frag);
		f_flag(&o, &nf, "fragment", k->layers, x->layers, OCTO_L_FRAG);
		f_flag(&o, &nf, "later_fragment", k->layers, x->layers,
			OCTO_L_FRAG_LATER);
		close_layer(&o, nf);
	}
	if ((present & (OCTO_L_TCP | OCTO_L_UDP | OCTO_L_SCTP)) != 0) {
		layer_sep(&o, &nl);
		emit(&o, (present & OCTO_L_TCP) != 0 ? "tcp" :
			(present & OCTO_L_UDP) != 0 ? "udp" : "sctp");
		nf = 0;
		f_be16(&o, &nf, "src", k->src_port, x->src_port);
		f_be16(&o, &nf, "dst", k->dst_port, x->dst_port);
		f_u8(&o, &nf, "flags", k->tcp_flags, x->tcp_flags);
		close_layer(&o, nf);
	}
	if ((present & (OCTO_L_ICMP | OCTO_L_ICMP6)) != 0) {
		layer_sep(&o, &nl);
		emit(&o, (present & OCTO_L_ICMP) != 0 ? "icmp" : "icmp6");
		nf = 0;
		f_u8(&o, &nf, "type", k->icmp_type, x->icmp_type);
		f_u8(&o, &nf, "code", k->icmp_code, x->icmp_code);
		f_be16(&o, &nf, "ident", k->icmp_ident, x->icmp_ident);
		f_be16(&o, &nf, "seq", k->icmp_seq, x->icmp_seq);
		close_layer(&o, nf);
	}
	if (x->meta != 0) {
		layer_sep(&o, &nl);
		emit(&o, "meta(%u/0x%08x)", k->meta, x->meta);
	}
	if (nl == 0)
		emit(&o, "any");
	return o.len;
}
