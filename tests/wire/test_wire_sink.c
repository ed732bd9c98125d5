/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/* Sink: every counter exact for in-order, reordered, duplicated, lost and foreign traffic. */

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <cmocka.h>

#include "octo_wire.h"
#include "wire_ref.h"

#define NB_FLOWS 4
#define PER_FLOW 10
#define NB_FRAMES (NB_FLOWS * PER_FLOW)
#define FRAME_LEN 96

/* Frame i is flow i % NB_FLOWS, seq i / NB_FLOWS (round robin). */
static uint8_t frames[NB_FRAMES][FRAME_LEN];

static int
setup(void **state)
{
	struct octo_gen_conf c = { .nb_flows = NB_FLOWS, .pkt_len = FRAME_LEN,
		.l4_proto = 6, .seed = 11 };
	struct octo_gen *g = octo_gen_create(&c);
	int i;

	(void)state;
	if (g == NULL)
		return -1;
	for (i = 0; i < NB_FRAMES; i++)
		if (octo_gen_next(g, frames[i], FRAME_LEN) != FRAME_LEN)
			return -1;
	octo_gen_free(g);
	return 0;
}

static int
frame_index(int flow, int seq)
{
	return seq * NB_FLOWS + flow;
}

static void
expect(const struct octo_sink *s, uint64_t pkts, uint64_t in_order, uint64_t ooo,
		uint64_t dup, uint64_t lost, uint64_t foreign)
{
	struct octo_sink_stats st;

	octo_sink_stats(s, &st);
	assert_int_equal(st.pkts, pkts);
	assert_int_equal(st.in_order, in_order);
	assert_int_equal(st.out_of_order, ooo);
	assert_int_equal(st.duplicates, dup);
	assert_int_equal(st.lost, lost);
	assert_int_equal(st.foreign, foreign);
}

static struct octo_sink *
sink(void)
{
	struct octo_sink *s = octo_sink_create(NB_FLOWS);

	assert_non_null(s);
	return s;
}

static void
account(struct octo_sink *s, int i)
{
	octo_sink_account(s, frames[i], FRAME_LEN);
}

static void
test_in_order(void **state)
{
	struct octo_sink *s = sink();
	int i;

	(void)state;
	for (i = 0; i < NB_FRAMES; i++)
		account(s, i);
	expect(s, NB_FRAMES, NB_FRAMES, 0, 0, 0, 0);
	octo_sink_free(s);
}

/* Flows are independent: interleaving whole flows is still in order. */
static void
test_flows_interleaved(void **state)
{
	struct octo_sink *s = sink();
	int f, q;

	(void)state;
	for (f = NB_FLOWS - 1; f >= 0; f--)
		for (q = 0; q < PER_FLOW; q++)
			account(s, frame_index(f, q));
	expect(s, NB_FRAMES, NB_FRAMES, 0, 0, 0, 0);
	octo_sink_free(s);
}

static void
test_swap_two(void **state)
{
	struct octo_sink *s = sink();
	int a = frame_index(1, 3), b = frame_index(1, 4), i;

	(void)state;
	for (i = 0; i < NB_FRAMES; i++) {
		account(s, i == a ? b : i == b ? a : i);
		if (i == a)	/* seq 4 came first: seq 3 is a hole for now */
			expect(s, i + 1, i + 1, 0, 0, 1, 0);
	}
	expect(s, NB_FRAMES, NB_FRAMES - 1, 1, 0, 0, 0);
	octo_sink_free(s);
}

static void
test_duplicate(void **state)
{
	struct octo_sink *s = sink();
	int i;

	(void)state;
	for (i = 0; i < NB_FRAMES; i++) {
		account(s, i);
		if (i == frame_index(2, 5))
			account(s, i);	/* back to back */
	}
	account(s, frame_index(3, 0));	/* much later */
	expect(s, NB_FRAMES + 2, NB_FRAMES, 0, 2, 0, 0);
	octo_sink_free(s);
}

static void
test_lost(void **state)
{
	struct octo_sink *s = sink();
	int i;

	(void)state;
	for (i = 0; i < NB_FRAMES; i++)
		if (i != frame_index(0, 2) && i != frame_index(3, 6) &&
				i != frame_index(3, 7))
			account(s, i);
	expect(s, NB_FRAMES - 3, NB_FRAMES - 3, 0, 0, 3, 0);
	/* a late arrival fills its hole: out of order, no longer lost */
	account(s, frame_index(3, 6));
	expect(s, NB_FRAMES - 2, NB_FRAMES - 3, 1, 0, 2, 0);
	octo_sink_free(s);
}

/* Losses after a flow's last frame are invisible (documented definition). */
static void
test_tail_loss_not_counted(void **state)
{
	struct octo_sink *s = sink();
	int i;

	(void)state;
	for (i = 0; i < NB_FRAMES - NB_FLOWS; i++)
		account(s, i);
	expect(s, NB_FRAMES - NB_FLOWS, NB_FRAMES - NB_FLOWS, 0, 0, 0, 0);
	octo_sink_free(s);
}

static void
test_foreign(void **state)
{
	struct octo_sink *s = octo_sink_create(NB_FLOWS - 1);
	uint8_t f[FRAME_LEN], arp[60] = { 0 };
	struct ref_spec spec = { .proto = 17, .payload = 40 };
	struct ref_layout lo;
	uint32_t len;

	(void)state;
	assert_non_null(s);
	/* flow id beyond this sink's flows */
	account(s, frame_index(NB_FLOWS - 1, 0));
	/* a bad magic */
	memcpy(f, frames[0], FRAME_LEN);
	f[14 + 20 + 20] ^= 1;
	octo_sink_account(s, f, FRAME_LEN);
	/* cut inside the payload */
	octo_sink_account(s, frames[1], 14 + 20 + 20 + 15);
	/* not IP */
	ref_put16(arp + 12, REF_ETHERTYPE_ARP);
	octo_sink_account(s, arp, sizeof(arp));
	/* some other UDP traffic */
	len = ref_build(f, &spec, &lo);
	octo_sink_account(s, f, len);
	/* runt */
	octo_sink_account(s, frames[2], 10);
	/* ours, but as a first fragment (MF): not a whole frame of ours */
	memcpy(f, frames[0], FRAME_LEN);
	f[14 + 6] |= 0x20;
	octo_sink_account(s, f, FRAME_LEN);
	expect(s, 7, 0, 0, 0, 0, 7);
	/* ours still counts */
	account(s, frame_index(0, 0));
	account(s, frame_index(0, 1));
	expect(s, 9, 2, 0, 0, 0, 7);
	octo_sink_free(s);
}

/* Our payload behind a VLAN tag is still ours. */
static void
test_vlan_tagged(void **state)
{
	struct octo_sink *s = sink();
	uint8_t f[FRAME_LEN + 4];

	(void)state;
	memcpy(f, frames[0], 12);
	ref_put16(f + 12, REF_ETHERTYPE_VLAN);
	ref_put16(f + 14, 7);
	memcpy(f + 16, frames[0] + 12, FRAME_LEN - 12);
	octo_sink_account(s, f, sizeof(f));
	expect(s, 1, 1, 0, 0, 0, 0);
	octo_sink_free(s);
}

/*
 * The duplicate window: seqs within OCTO_SINK_WINDOW below the newest are
 * remembered, older ones are taken as new (out of order).
 */
static void
test_window(void **state)
{
	struct octo_gen_conf c = { .nb_flows = 1, .pkt_len = 64, .l4_proto = 17 };
	struct octo_gen *g = octo_gen_create(&c);
	struct octo_sink *s = octo_sink_create(1);
	static uint8_t f[200][64];
	int i;

	(void)state;
	assert_non_null(g);
	assert_non_null(s);
	for (i = 0; i < 200; i++)
		octo_gen_next(g, f[i], 64);
	/* 0 .. 63 with 0 held back, then 0 (63 below the newest: in the window) */
	for (i = 1; i < OCTO_SINK_WINDOW; i++)
		octo_sink_account(s, f[i], 64);
	expect(s, 63, 63, 0, 0, 1, 0);
	octo_sink_account(s, f[0], 64);
	expect(s, 64, 63, 1, 0, 0, 0);
	octo_sink_account(s, f[0], 64);
	expect(s, 65, 63, 1, 1, 0, 0);
	/* jump far ahead: 64 .. 198 are holes */
	octo_sink_account(s, f[199], 64);
	expect(s, 66, 64, 1, 1, 135, 0);
	/* 199 - 63 = 136 is the oldest remembered seq */
	octo_sink_account(s, f[136], 64);
	octo_sink_account(s, f[136], 64);
	expect(s, 68, 64, 2, 2, 134, 0);
	/* 135 is beyond the window: new, even when repeated */
	octo_sink_account(s, f[135], 64);
	octo_sink_account(s, f[135], 64);
	expect(s, 70, 64, 4, 2, 132, 0);
	octo_sink_reset(s);
	expect(s, 0, 0, 0, 0, 0, 0);
	octo_sink_account(s, f[0], 64);
	expect(s, 1, 1, 0, 0, 0, 0);
	octo_sink_free(s);
	octo_gen_free(g);
}

/* SCTP, ICMP and ICMPv6 frames of the generator are the sink's too. */
static void
test_other_protocols(void **state)
{
	static const uint8_t kinds[][2] = { { 0, 132 }, { 1, 132 }, { 0, 1 }, { 1, 58 } };
	uint8_t f[FRAME_LEN];
	unsigned int k, i;

	(void)state;
	for (k = 0; k < RTE_DIM(kinds); k++) {
		struct octo_gen_conf c = { .nb_flows = NB_FLOWS, .pkt_len = FRAME_LEN,
			.ipv6 = kinds[k][0], .l4_proto = kinds[k][1], .seed = k };
		struct octo_gen *g = octo_gen_create(&c);
		struct octo_sink *s = sink();

		assert_non_null(g);
		for (i = 0; i < 3 * NB_FLOWS; i++) {
			assert_int_equal(octo_gen_next(g, f, sizeof(f)), FRAME_LEN);
			octo_sink_account(s, f, FRAME_LEN);
		}
		expect(s, 3 * NB_FLOWS, 3 * NB_FLOWS, 0, 0, 0, 0);
		octo_gen_free(g);
		octo_sink_free(s);
	}
}

static void
test_create_bad(void **state)
{
	(void)state;
	errno = 0;
	assert_null(octo_sink_create(0));
	assert_int_equal(errno, EINVAL);
	assert_null(octo_sink_create(OCTO_WIRE_MAX_FLOWS + 1));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_in_order),
		cmocka_unit_test(test_flows_interleaved),
		cmocka_unit_test(test_swap_two),
		cmocka_unit_test(test_duplicate),
		cmocka_unit_test(test_lost),
		cmocka_unit_test(test_tail_loss_not_counted),
		cmocka_unit_test(test_foreign),
		cmocka_unit_test(test_vlan_tagged),
		cmocka_unit_test(test_other_protocols),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_create_bad),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
