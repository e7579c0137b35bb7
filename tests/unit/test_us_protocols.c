/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The US protocols of IrpTransmogrifier's catalogue (irp_table.c): one
 * frame of each, its timings written out by hand from the protocol's IRP
 * (not from irjack's encoder), must decode to the scancode worked out by
 * hand from the IRP's fields; and the rules that keep them apart from
 * their look-alikes: G.I. Cable's ditto, DirecTV's repeat header, a longer
 * train is no frame, Blaupunkt only at its carrier (else Grundig), Proton
 * against NEC16.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include <cmocka.h>

#include "ir_decoder.h"
#include "ir_protocol.h"
#include "test_util.h"

static struct frame_log log_;

/* Signed durations (pulse > 0, space < 0) into edges, merging neighbours
 * of one level (bi-phase halves). */
static void build(struct ir_edge_buf *b, const int32_t *d, size_t n)
{
	for (size_t i = 0; i < n; i++)
		assert_int_equal(d[i] > 0 ? ir_edge_buf_pulse(b, (uint32_t)d[i])
					  : ir_edge_buf_space(b, (uint32_t)-d[i]),
				 0);
}

static void decode_all(const struct ir_edge_buf *b)
{
	decode_edges(NULL, b->edges, b->len, &log_);
}

static void expect_frame(size_t i, enum ir_protocol p, uint64_t sc, bool repeat)
{
	assert_true(log_.count > i);
	assert_string_equal(ir_protocol_get(log_.frames[i].protocol)->name,
			    ir_protocol_get(p)->name);
	assert_int_equal(log_.frames[i].scancode, sc);
	assert_int_equal(!!(log_.frames[i].flags & IR_FRAME_REPEAT), repeat);
}

/* DirecTV {38k,600,msb}<1,-1|1,-2|2,-1|2,-2>([10][5],-2,D:4,F:8,C:4,1,-50):
 * D=1, F=0x12: C = 7*0 + 5*1 + 3*0 + 2 = 7; bits 0001 00010010 0111 are
 * the symbols 00 01 00 01 00 10 01 11.  Then the repeat (5 units). */
static void test_directv_frame_and_repeat(void **state)
{
	static const int32_t frame[] = {
		6000, -1200, 600, -600, 600, -1200, 600, -600, 600, -1200, 600, -600,
		1200, -600, 600, -1200, 1200, -1200, 600, -30000,
		3000, -1200, 600, -600, 600, -1200, 600, -600, 600, -1200, 600, -600,
		1200, -600, 600, -1200, 1200, -1200, 600, -30000,
	};
	struct ir_edge_buf b = { 0 };

	(void)state;
	build(&b, frame, sizeof(frame) / sizeof(frame[0]));
	decode_all(&b);
	assert_int_equal(log_.count, 2);
	expect_frame(0, IR_PROTO_DIRECTV, 0x10012, false);
	expect_frame(1, IR_PROTO_DIRECTV, 0x10012, false);
	/* a wrong checksum (last symbol 10 instead of 11) is no frame */
	b.edges[b.len / 2 - 3].duration = 600;
	decode_all(&b);
	assert_int_equal(log_.count, 1);
	ir_edge_buf_free(&b);
}

/* G.I. Cable {38.7k,490}<1,-4.5|1,-9>(18,-9,F:8,D:4,C:4,1,-84,(18,-4.5,1,-178)*):
 * F=0x5a, D=3: C = -(3 + 0xa + 0x5) & 15 = 14.  LSB first: F 0,1,0,1,1,0,1,0;
 * D 1,1,0,0; C 0,1,1,1.  Then two dittos. */
static void test_gicable_frame_and_dittos(void **state)
{
	static const unsigned bits[16] = { 0, 1, 0, 1, 1, 0, 1, 0, 1, 1, 0, 0, 0, 1, 1, 1 };
	struct ir_edge_buf b = { 0 };
	int32_t hdr[] = { 8820, -4410 }, ditto[] = { 8820, -2205, 490, -87220 };

	(void)state;
	build(&b, hdr, 2);
	for (int i = 0; i < 16; i++) {
		int32_t bit[] = { 490, bits[i] ? -4410 : -2205 };

		build(&b, bit, 2);
	}
	int32_t stop[] = { 490, -41160 };

	build(&b, stop, 2);
	build(&b, ditto, 4);
	build(&b, ditto, 4);
	decode_all(&b);
	assert_int_equal(log_.count, 3);
	expect_frame(0, IR_PROTO_GICABLE, 0x3005a, false);
	expect_frame(1, IR_PROTO_GICABLE, 0x3005a, true);
	expect_frame(2, IR_PROTO_GICABLE, 0x3005a, true);
	ir_edge_buf_free(&b);
}

/* Proton {38k,500}<1,-1|1,-3>(16,-8,D:8,1,-8,F:8,1,^63m): D=0x12, F=0x34. */
static void test_proton_frame(void **state)
{
	static const unsigned d[8] = { 0, 1, 0, 0, 1, 0, 0, 0 }, f[8] = { 0, 0, 1, 0, 1, 1, 0, 0 };
	struct ir_edge_buf b = { 0 };
	int32_t hdr[] = { 8000, -4000 }, sync[] = { 500, -4000 }, stop[] = { 500, -30000 };

	(void)state;
	build(&b, hdr, 2);
	for (int i = 0; i < 8; i++) {
		int32_t bit[] = { 500, d[i] ? -1500 : -500 };

		build(&b, bit, 2);
	}
	build(&b, sync, 2);
	for (int i = 0; i < 8; i++) {
		int32_t bit[] = { 500, f[i] ? -1500 : -500 };

		build(&b, bit, 2);
	}
	build(&b, stop, 2);
	decode_all(&b);
	assert_int_equal(log_.count, 1);
	expect_frame(0, IR_PROTO_PROTON, 0x120034, false);

	/* The same frame with NEC16's 9 ms leader and 4.5 ms sync is nec16. */
	b.edges[0].duration = 9000;
	b.edges[1].duration = 4500;
	b.edges[19].duration = 4500;
	decode_all(&b);
	assert_int_equal(log_.count, 1);
	expect_frame(0, IR_PROTO_NEC16, 0x120034, false);
	ir_edge_buf_free(&b);
}

/* Zenith {40k,520,msb}<1,-10|1,-1,1,-8>(S:1,<1:2|2:2>(F:D),-90m): S=1,
 * D=6, F=0b101101: symbols 1, then 10 01 10 10 01 10. */
static void test_zenith_frame(void **state)
{
	static const unsigned sym[13] = { 1, 1, 0, 0, 1, 1, 0, 1, 0, 0, 1, 1, 0 };
	struct ir_edge_buf b = { 0 };

	(void)state;
	for (int i = 0; i < 13; i++) {
		int32_t s0[] = { 520, -5200 }, s1[] = { 520, -520, 520, -4160 };

		if (sym[i])
			build(&b, s1, 4);
		else
			build(&b, s0, 2);
	}
	b.edges[b.len - 1].duration = 90000;
	decode_all(&b);
	assert_int_equal(log_.count, 1);
	expect_frame(0, IR_PROTO_ZENITH, 0x0601002d, false);

	/* An even number of symbols is no Zenith frame: drop the last one. */
	b.len -= 2;
	b.edges[b.len - 1].duration = 90000;
	decode_all(&b);
	assert_int_equal(log_.count, 0);
	ir_edge_buf_free(&b);
}

/* Dish Network {57.6k,406}<1,-7|1,-4>(1,-15,(F:-6,S:5,D:5,1,-15)+): F=0x21
 * sent MSB first 1,0,0,0,0,1; S=5 LSB first 1,0,1,0,0; D=17 1,0,0,0,1.
 * Sent twice: the second frame's header is the first's stop pulse. */
static void test_dish_frames(void **state)
{
	static const unsigned bits[16] = { 1, 0, 0, 0, 0, 1, 1, 0, 1, 0, 0, 1, 0, 0, 0, 1 };
	struct ir_edge_buf b = { 0 };
	int32_t hdr[] = { 406, -6090 };

	(void)state;
	build(&b, hdr, 2);
	for (int rep = 0; rep < 2; rep++) {
		for (int i = 0; i < 16; i++) {
			int32_t bit[] = { 406, bits[i] ? -1624 : -2842 };

			build(&b, bit, 2);
		}
		build(&b, hdr, 2);
	}
	decode_all(&b);
	assert_int_equal(log_.count, 2);
	expect_frame(0, IR_PROTO_DISH_NETWORK, 0x110521, false);
	expect_frame(1, IR_PROTO_DISH_NETWORK, 0x110521, false);
	ir_edge_buf_free(&b);
}

/* Blaupunkt {30.3k,512}<-1,1|1,-1>(1,-5,1023:10,-44,(1,-5,1:1,F:6,D:3,-236)+):
 * the marker, then F=0x15, D=2: bits 1, 1,0,1,0,1,0, 0,1,0.  At 30.3 kHz
 * it is blaupunkt; with no carrier known, Grundig's 9-bit command
 * F | D << 6 = 0x95, as IRMP reads the same light. */
static void build_blaupunkt(struct ir_edge_buf *b, uint32_t carrier)
{
	static const unsigned bits[10] = { 1, 1, 0, 1, 0, 1, 0, 0, 1, 0 };
	int32_t hdr[] = { 512, -2560 }, one[] = { 512, -512 }, zero[] = { -512, 512 };

	if (carrier)
		assert_int_equal(ir_edge_buf_push(b, (struct ir_edge){ .kind = IR_CARRIER,
								       .duration = carrier }),
				 0);
	build(b, hdr, 2);
	for (int i = 0; i < 10; i++)
		build(b, one, 2);
	int32_t gap[] = { -44 * 512 }, end[] = { -236 * 512 };

	build(b, gap, 1);
	build(b, hdr, 2);
	for (int i = 0; i < 10; i++)
		build(b, bits[i] ? one : zero, 2);
	build(b, end, 1);
}

static void test_blaupunkt_by_carrier(void **state)
{
	struct ir_edge_buf b = { 0 };

	(void)state;
	build_blaupunkt(&b, 30300);
	decode_all(&b);
	assert_int_equal(log_.count, 1);
	expect_frame(0, IR_PROTO_BLAUPUNKT, 0x20015, false);

	ir_edge_buf_clear(&b);
	build_blaupunkt(&b, 0);
	decode_all(&b);
	assert_int_equal(log_.count, 1);
	expect_frame(0, IR_PROTO_GRUNDIG, 0x95, false);

	ir_edge_buf_clear(&b);
	build_blaupunkt(&b, 38000);
	decode_all(&b);
	assert_int_equal(log_.count, 1);
	expect_frame(0, IR_PROTO_GRUNDIG, 0x95, false);
	ir_edge_buf_free(&b);
}

/* Never cut a frame short: DirecTV's 16 bits followed by one more symbol
 * are no DirecTV frame. */
static void test_longer_train_is_no_frame(void **state)
{
	static const int32_t frame[] = {
		6000, -1200, 600, -600, 600, -1200, 600, -600, 600, -1200, 600, -600,
		1200, -600, 600, -1200, 1200, -1200, 600, -600, 600, -30000,
	};
	struct ir_edge_buf b = { 0 };

	(void)state;
	build(&b, frame, sizeof(frame) / sizeof(frame[0]));
	decode_all(&b);
	for (size_t i = 0; i < log_.count; i++)
		assert_int_not_equal(log_.frames[i].protocol, IR_PROTO_DIRECTV);
	ir_edge_buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_directv_frame_and_repeat),
		cmocka_unit_test(test_gicable_frame_and_dittos),
		cmocka_unit_test(test_proton_frame),
		cmocka_unit_test(test_zenith_frame),
		cmocka_unit_test(test_dish_frames),
		cmocka_unit_test(test_blaupunkt_by_carrier),
		cmocka_unit_test(test_longer_train_is_no_frame),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
