/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The decoder core: early reports, silence deadlines, timeouts, overflow,
 * repeat codes, per-source state, protocol sets and names.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "ir_decoder.h"
#include "ir_protocol.h"
#include "test_util.h"

static struct frame_log log_;

static struct ir_decoder *new_decoder(const struct ir_protocol_set *enabled)
{
	struct ir_decoder *dec = NULL;

	memset(&log_, 0, sizeof(log_));
	assert_int_equal(ir_decoder_new(enabled, frame_log_add, &log_, &dec), 0);
	return dec;
}

/* The frame of (p, sc) without its trailing gap: it ends with a pulse. */
static void encode_frame_only(enum ir_protocol p, uint64_t sc, struct ir_edge_buf *b)
{
	assert_int_equal(ir_encode(p, sc, NULL, b), 0);
	assert_int_equal(b->edges[b->len - 1].kind, IR_SPACE);
	b->len--;
}

/* A NEC frame is certain only once the silence after its last pulse is
 * longer than any bit space (1970 µs): more bits would make it another
 * protocol's frame, or none (issue #19: never cut a frame short). */
static void test_nec_reported_when_silence_ends_it(void **state)
{
	struct ir_decoder *dec = new_decoder(NULL);
	struct ir_edge_buf b = { 0 };
	uint32_t deadline;

	(void)state;
	encode_frame_only(IR_PROTO_NEC, 0x04fb, &b);
	ir_decoder_feed_many(dec, b.edges, b.len);
	assert_int_equal(log_.count, 0); /* no silence fed yet */
	deadline = ir_decoder_space_deadline(dec);
	assert_true(deadline > 1970 && deadline < 5349);
	ir_decoder_space_elapsed(dec, deadline);
	assert_int_equal(log_.count, 1);
	assert_int_equal(log_.frames[0].protocol, IR_PROTO_NEC);
	assert_int_equal(log_.frames[0].scancode, 0x04fb);
	assert_int_equal(log_.frames[0].start_us, 0);
	assert_int_equal(log_.frames[0].end_us, ir_edge_buf_duration(&b));
	assert_int_equal(ir_decoder_time_us(dec), ir_edge_buf_duration(&b));
	ir_decoder_free(dec);
	ir_edge_buf_free(&b);
}

/* A NEC frame whose first 26 bits look like Sanyo's address and its
 * complement could go on for 10 more bits: only silence settles it. */
static void test_deadline_settles_an_ambiguous_frame(void **state)
{
	struct ir_decoder *dec = new_decoder(NULL);
	struct ir_edge_buf b = { 0 };
	/* bytes as sent 0x00 0xe0 0xff 0x03: bits 0..12 are 0, bits 13..25 all 1 */
	uint64_t sc = 0xe00003ffu;
	uint32_t deadline;

	(void)state;
	encode_frame_only(IR_PROTO_NEC32, sc, &b);
	ir_decoder_feed_many(dec, b.edges, b.len);
	assert_int_equal(log_.count, 0);
	deadline = ir_decoder_space_deadline(dec);
	assert_true(deadline > 1969 && deadline < 5000);
	ir_decoder_space_elapsed(dec, deadline - 1);
	assert_int_equal(log_.count, 0);
	ir_decoder_space_elapsed(dec, deadline);
	assert_int_equal(log_.count, 1);
	assert_int_equal(log_.frames[0].protocol, IR_PROTO_NEC32);
	assert_int_equal(log_.frames[0].scancode, sc);
	/* the frame ends at its last pulse, not when the silence settled it */
	assert_int_equal(log_.frames[0].end_us, ir_edge_buf_duration(&b));
	/* nobody waits any more; the real space does not report it again */
	assert_int_equal(ir_decoder_space_deadline(dec), 0);
	ir_decoder_feed(dec, &(struct ir_edge){ .duration = 40000, .kind = IR_SPACE });
	ir_decoder_flush(dec);
	assert_int_equal(log_.count, 1);
	ir_decoder_free(dec);
	ir_edge_buf_free(&b);
}

static void test_no_deadline_after_a_space(void **state)
{
	struct ir_decoder *dec = new_decoder(NULL);

	(void)state;
	ir_decoder_feed(dec, &(struct ir_edge){ .duration = 5000, .kind = IR_SPACE });
	assert_int_equal(ir_decoder_space_deadline(dec), 0);
	ir_decoder_space_elapsed(dec, 100000);
	assert_int_equal(log_.count, 0);
	ir_decoder_free(dec);
}

static void test_timeout_finishes_a_frame(void **state)
{
	struct ir_decoder *dec = new_decoder(NULL);
	struct ir_edge_buf b = { 0 };
	uint64_t t;

	(void)state;
	encode_frame_only(IR_PROTO_RC5, 0x1e01, &b);
	ir_decoder_feed_many(dec, b.edges, b.len);
	assert_int_equal(log_.count, 0); /* RC-5 could still be a 15-bit StreamZap frame */
	t = ir_decoder_time_us(dec);
	ir_decoder_feed(dec, &(struct ir_edge){ .duration = 125000, .kind = IR_TIMEOUT });
	assert_int_equal(log_.count, 1);
	assert_int_equal(log_.frames[0].scancode, 0x1e01);
	assert_int_equal(log_.frames[0].end_us, t);
	/* a timeout occupies time */
	assert_int_equal(ir_decoder_time_us(dec), t + 125000);
	ir_decoder_free(dec);
	ir_edge_buf_free(&b);
}

static void test_overflow_discards_a_partial_frame(void **state)
{
	struct ir_decoder *dec = new_decoder(NULL);
	struct ir_edge_buf b = { 0 };
	size_t half;

	(void)state;
	assert_int_equal(ir_encode(IR_PROTO_NEC, 0x1234, NULL, &b), 0);
	half = b.len / 2;
	ir_decoder_feed_many(dec, b.edges, half);
	ir_decoder_feed(dec, &(struct ir_edge){ .kind = IR_OVERFLOW });
	ir_decoder_feed_many(dec, b.edges + half, b.len - half);
	ir_decoder_flush(dec);
	assert_int_equal(log_.count, 0);
	/* and recovers on the next frame */
	ir_decoder_feed_many(dec, b.edges, b.len);
	assert_int_equal(log_.count, 1);
	ir_decoder_free(dec);
	ir_edge_buf_free(&b);
}

static void test_repeat_code_needs_a_recent_frame(void **state)
{
	struct ir_decoder *dec = new_decoder(NULL);
	struct ir_edge_buf frame = { 0 }, held = { 0 };
	struct ir_encode_opts two_repeats = { .repeats = 2 };

	(void)state;
	/* a repeat code with no frame before it stands for nothing */
	assert_int_equal(ir_encode(IR_PROTO_NEC, 0x0102, &two_repeats, &held), 0);
	assert_int_equal(ir_encode(IR_PROTO_NEC, 0x0102, NULL, &frame), 0);
	ir_decoder_feed_many(dec, held.edges + frame.len, held.len - frame.len);
	assert_int_equal(log_.count, 0);

	ir_decoder_feed_many(dec, held.edges, held.len);
	assert_int_equal(log_.count, 3);
	assert_false(log_.frames[0].flags & IR_FRAME_REPEAT);
	assert_true(log_.frames[1].flags & IR_FRAME_REPEAT);
	assert_int_equal(log_.frames[1].scancode, 0x0102);
	assert_int_equal(log_.frames[2].start_us - log_.frames[1].start_us, 108000);

	/* a second of silence: the key is up, a late repeat code is ignored */
	ir_decoder_feed(dec, &(struct ir_edge){ .duration = 1000000, .kind = IR_SPACE });
	ir_decoder_feed_many(dec, held.edges + frame.len, held.len - frame.len);
	assert_int_equal(log_.count, 3);
	ir_decoder_free(dec);
	ir_edge_buf_free(&frame);
	ir_edge_buf_free(&held);
}

/* JVC repeats its frame without the header (rc-core's reading, a row of
 * the pulse-distance engine since #19): a repeat stands for the frame
 * before it only with that frame's bits and after rc-core's 35 units of
 * silence; every frame with a header flips the toggle. */
static void test_jvc_header_less_repeats(void **state)
{
	struct ir_protocol_set only_jvc;
	struct ir_encode_opts one_repeat = { .repeats = 1 };
	struct ir_edge_buf held = { 0 }, other = { 0 }, frame = { 0 };
	struct ir_edge_buf mixed = { 0 };
	struct ir_decoder *dec;

	(void)state;
	ir_protocol_set_clear(&only_jvc);
	ir_protocol_set_add(&only_jvc, IR_PROTO_JVC);
	dec = new_decoder(&only_jvc);
	assert_int_equal(ir_encode(IR_PROTO_JVC, 0x1234, &one_repeat, &held), 0);
	assert_int_equal(ir_encode(IR_PROTO_JVC, 0x5678, &one_repeat, &other), 0);
	assert_int_equal(ir_encode(IR_PROTO_JVC, 0x1234, NULL, &frame), 0);

	/* a held key: the frame (toggle flipped on), then its repeat */
	ir_decoder_feed_many(dec, held.edges, held.len);
	ir_decoder_flush(dec);
	assert_int_equal(log_.count, 2);
	assert_int_equal(log_.frames[0].scancode, 0x1234);
	assert_true(log_.frames[0].flags & IR_FRAME_TOGGLE);
	assert_false(log_.frames[0].flags & IR_FRAME_REPEAT);
	assert_true(log_.frames[1].flags & IR_FRAME_REPEAT);
	assert_int_equal(log_.frames[1].scancode, 0x1234);

	/* the next press: the toggle flips back */
	ir_decoder_feed_many(dec, frame.edges, frame.len);
	ir_decoder_flush(dec);
	assert_int_equal(log_.count, 3);
	assert_false(log_.frames[2].flags & (IR_FRAME_TOGGLE | IR_FRAME_REPEAT));

	/* 0x1234's frame, then 0x5678's repeat: not this frame's bits */
	assert_int_equal(ir_edge_buf_append(&mixed, frame.edges, frame.len), 0);
	assert_int_equal(ir_edge_buf_append(&mixed, other.edges + frame.len, other.len - frame.len), 0);
	ir_decoder_feed_many(dec, mixed.edges, mixed.len);
	ir_decoder_flush(dec);
	assert_int_equal(log_.count, 4);
	assert_int_equal(log_.frames[3].scancode, 0x1234);

	/* the repeat 10 ms after the frame: too soon for one */
	mixed.len = 0;
	assert_int_equal(ir_edge_buf_append(&mixed, held.edges, held.len), 0);
	mixed.edges[frame.len - 1].duration = 10000;
	ir_decoder_feed_many(dec, mixed.edges, mixed.len);
	ir_decoder_flush(dec);
	assert_int_equal(log_.count, 5);
	assert_false(log_.frames[4].flags & IR_FRAME_REPEAT);
	ir_decoder_free(dec);
	ir_edge_buf_free(&held);
	ir_edge_buf_free(&other);
	ir_edge_buf_free(&frame);
	ir_edge_buf_free(&mixed);
}

/* A protocol without a repeat code of its own sends its whole frame again,
 * toggle and all, even when its family has repeat codes for others (the
 * pulse-distance engine: JVC's). */
static void test_whole_frame_repeats_keep_the_toggle(void **state)
{
	struct ir_encode_opts held = { .toggle = 1, .repeats = 2 };
	struct ir_edge_buf b = { 0 };
	struct ir_decoder *dec = new_decoder(NULL);

	(void)state;
	assert_int_equal(ir_encode(IR_PROTO_RECS80, 0x5001f, &held, &b), 0);
	ir_decoder_feed_many(dec, b.edges, b.len);
	ir_decoder_flush(dec);
	assert_int_equal(log_.count, 3);
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(log_.frames[i].protocol, IR_PROTO_RECS80);
		assert_int_equal(log_.frames[i].scancode, 0x5001f);
		assert_true(log_.frames[i].flags & IR_FRAME_TOGGLE);
	}
	ir_decoder_free(dec);
	ir_edge_buf_free(&b);
}

/* Sanyo's held key sends the header and one pulse; NEC's repeat code
 * stands for a Sanyo frame too (rc-core's NEC decoder repeats whatever
 * key was down).  Both are Sanyo repeats only after a Sanyo frame. */
static void test_sanyo_repeat_codes(void **state)
{
	static const struct ir_edge nec_repeat[] = {
		{ .duration = 9000, .kind = IR_PULSE }, { .duration = 2250, .kind = IR_SPACE },
		{ .duration = 563, .kind = IR_PULSE },	{ .duration = 96000, .kind = IR_SPACE },
	};
	struct ir_protocol_set only_sanyo;
	struct ir_encode_opts one_repeat = { .repeats = 1 };
	struct ir_edge_buf held = { 0 }, frame = { 0 };
	struct ir_decoder *dec;

	(void)state;
	ir_protocol_set_clear(&only_sanyo);
	ir_protocol_set_add(&only_sanyo, IR_PROTO_SANYO);
	dec = new_decoder(&only_sanyo);
	assert_int_equal(ir_encode(IR_PROTO_SANYO, 0x1234, &one_repeat, &held), 0);
	assert_int_equal(ir_encode(IR_PROTO_SANYO, 0x1234, NULL, &frame), 0);

	/* the repeat alone stands for nothing */
	ir_decoder_feed_many(dec, held.edges + frame.len, held.len - frame.len);
	ir_decoder_feed_many(dec, nec_repeat, 4);
	ir_decoder_flush(dec);
	assert_int_equal(log_.count, 0);

	/* the frame, its own repeat, then NEC's repeat code */
	ir_decoder_feed_many(dec, held.edges, held.len);
	ir_decoder_feed_many(dec, nec_repeat, 4);
	ir_decoder_flush(dec);
	assert_int_equal(log_.count, 3);
	assert_int_equal(log_.frames[0].scancode, 0x1234);
	assert_false(log_.frames[0].flags & IR_FRAME_REPEAT);
	for (size_t i = 1; i < 3; i++) {
		assert_true(log_.frames[i].flags & IR_FRAME_REPEAT);
		assert_int_equal(log_.frames[i].protocol, IR_PROTO_SANYO);
		assert_int_equal(log_.frames[i].scancode, 0x1234);
	}
	ir_decoder_free(dec);
	ir_edge_buf_free(&held);
	ir_edge_buf_free(&frame);
}

/* Feeds `b` as a live source does: before each space that lasts long
 * enough, the silence the decoder asks for (ir_decoder_space_elapsed()). */
static void feed_live(struct ir_decoder *dec, const struct ir_edge_buf *b)
{
	for (size_t i = 0; i < b->len; i++) {
		uint32_t deadline = ir_decoder_space_deadline(dec);

		if (b->edges[i].kind == IR_SPACE && deadline && b->edges[i].duration >= deadline)
			ir_decoder_space_elapsed(dec, deadline);
		ir_decoder_feed(dec, &b->edges[i]);
	}
	ir_decoder_flush(dec);
}

/* Silence handed over early changes when frames are reported, never which:
 * one table row waiting for silence (JVC's stop pulse) must not cut the
 * space another row is reading short (Nikon's 27 ms header space, begun
 * by that same pulse: IRMP's JVC capture as audio lost every repeat to
 * it when JVC became a row of the pulse-distance engine). */
static void test_early_silence_changes_no_frame(void **state)
{
	static const struct {
		enum ir_protocol p;
		uint64_t scancode;
	} held[] = {
		{ IR_PROTO_JVC, 0x0321 },	 { IR_PROTO_SANYO, 0x1234 }, { IR_PROTO_TECHNICS, 0x5a5 },
		{ IR_PROTO_LGAIR, 0x12345 }, { IR_PROTO_NEC, 0x04fb },	 { IR_PROTO_KASEIKYO, 0x20020b01 },
	};
	struct ir_encode_opts two_repeats = { .repeats = 2 };
	static struct frame_log plain;

	(void)state;
	for (size_t k = 0; k < sizeof(held) / sizeof(held[0]); k++) {
		struct ir_edge_buf b = { 0 };
		struct ir_decoder *dec = new_decoder(NULL);

		assert_int_equal(ir_encode(held[k].p, held[k].scancode, &two_repeats, &b), 0);
		/* a JVC stop pulse and 25 ms later the repeat: Nikon's header */
		if (held[k].p == IR_PROTO_JVC)
			for (size_t i = 0; i < b.len; i++)
				if (b.edges[i].kind == IR_SPACE && b.edges[i].duration > 15000)
					b.edges[i].duration = 25000;
		decode_edges(NULL, b.edges, b.len, &plain);
		feed_live(dec, &b);
		assert_true(plain.count >= 3);
		assert_int_equal(log_.count, plain.count);
		for (size_t i = 0; i < plain.count; i++) {
			assert_int_equal(log_.frames[i].protocol, plain.frames[i].protocol);
			assert_int_equal(log_.frames[i].scancode, plain.frames[i].scancode);
			assert_int_equal(log_.frames[i].flags, plain.frames[i].flags);
		}
		ir_decoder_free(dec);
		ir_edge_buf_free(&b);
	}
}

static void test_disabled_protocols_stay_silent(void **state)
{
	struct ir_protocol_set only_rc5;
	struct ir_decoder *dec;
	struct ir_edge_buf b = { 0 };

	(void)state;
	ir_protocol_set_clear(&only_rc5);
	ir_protocol_set_add(&only_rc5, IR_PROTO_RC5);
	dec = new_decoder(&only_rc5);
	assert_int_equal(ir_encode(IR_PROTO_NEC, 0x1234, NULL, &b), 0);
	assert_int_equal(ir_encode(IR_PROTO_RC5, 0x0101, NULL, &b), 0);
	ir_decoder_feed_many(dec, b.edges, b.len);
	ir_decoder_flush(dec);
	assert_int_equal(log_.count, 1);
	assert_int_equal(log_.frames[0].protocol, IR_PROTO_RC5);
	ir_decoder_free(dec);
	ir_edge_buf_free(&b);
}

/* Two sources interleaved edge by edge: each decoder sees only its own. */
static struct frame_log log_b;

static void test_state_is_per_source(void **state)
{
	struct ir_decoder *a = new_decoder(NULL), *bdec = NULL;
	struct ir_edge_buf ea = { 0 }, eb = { 0 };

	(void)state;
	memset(&log_b, 0, sizeof(log_b));
	assert_int_equal(ir_decoder_new(NULL, frame_log_add, &log_b, &bdec), 0);
	assert_int_equal(ir_encode(IR_PROTO_NEC, 0x00aa, NULL, &ea), 0);
	assert_int_equal(ir_encode(IR_PROTO_RC5, 0x0a0b, NULL, &eb), 0);
	for (size_t i = 0; i < ea.len || i < eb.len; i++) {
		if (i < ea.len)
			ir_decoder_feed(a, &ea.edges[i]);
		if (i < eb.len)
			ir_decoder_feed(bdec, &eb.edges[i]);
	}
	ir_decoder_flush(a);
	ir_decoder_flush(bdec);
	assert_int_equal(log_.count, 1);
	assert_int_equal(log_.frames[0].scancode, 0x00aa);
	assert_int_equal(log_b.count, 1);
	assert_int_equal(log_b.frames[0].scancode, 0x0a0b);
	ir_decoder_free(a);
	ir_decoder_free(bdec);
	ir_edge_buf_free(&ea);
	ir_edge_buf_free(&eb);
}

static void test_bad_arguments(void **state)
{
	struct ir_decoder *dec = NULL;
	struct ir_edge_buf b = { 0 };

	(void)state;
	assert_int_equal(ir_decoder_new(NULL, NULL, NULL, &dec), -EINVAL);
	dec = new_decoder(NULL);
	assert_int_equal(ir_decoder_feed(dec, &(struct ir_edge){ .duration = 1, .kind = 99 }), -EINVAL);
	ir_decoder_free(dec);
	ir_decoder_free(NULL);
	/* scancodes outside the mask, unknown protocols */
	assert_int_equal(ir_encode(IR_PROTO_NEC, 0x10000, NULL, &b), -EINVAL);
	assert_int_equal(ir_encode(IR_PROTO_UNKNOWN, 1, NULL, &b), -EINVAL);
	assert_int_equal(b.len, 0);
	/* a buffer that ends in a pulse cannot take a frame */
	ir_edge_buf_pulse(&b, 100);
	assert_int_equal(ir_encode(IR_PROTO_NEC, 0x1, NULL, &b), -EINVAL);
	assert_int_equal(b.len, 1);
	ir_edge_buf_free(&b);
}

static void test_protocol_names_and_sets(void **state)
{
	enum ir_protocol p;
	struct ir_protocol_set s;
	char bad[32];

	(void)state;
	assert_int_equal(ir_protocol_from_name("RC-5", &p), 0);
	assert_int_equal(p, IR_PROTO_RC5);
	assert_int_equal(ir_protocol_from_name("rc5x", &p), 0);
	assert_int_equal(p, IR_PROTO_RC5X_20);
	assert_int_equal(ir_protocol_from_name("NEC32", &p), 0);
	assert_int_equal(p, IR_PROTO_NEC32);
	assert_int_equal(ir_protocol_from_name("bogus", &p), -ENOENT);

	assert_int_equal(ir_protocol_set_parse(" necx , rc5_sz", &s, bad, sizeof(bad)), 0);
	assert_true(ir_protocol_set_has(&s, IR_PROTO_NECX));
	assert_false(ir_protocol_set_has(&s, IR_PROTO_NEC));
	assert_false(ir_protocol_set_has(&s, IR_PROTO_RC5));
	assert_true(ir_protocol_set_has(&s, IR_PROTO_RC5_SZ));
	/* "nec" is the family, as ir-keytable's -p nec enables nec, necx, nec32 */
	assert_int_equal(ir_protocol_set_parse("nec", &s, bad, sizeof(bad)), 0);
	assert_true(ir_protocol_set_has(&s, IR_PROTO_NEC32));
	/* a family name means all its protocols */
	assert_int_equal(ir_protocol_set_parse("rc5", &s, bad, sizeof(bad)), 0);
	assert_true(ir_protocol_set_has(&s, IR_PROTO_RC5X_20));
	assert_true(ir_protocol_set_has(&s, IR_PROTO_RC5_SZ));
	assert_int_equal(ir_protocol_set_parse("all", &s, bad, sizeof(bad)), 0);
	for (size_t i = 0; i < ir_protocol_count(); i++)
		assert_true(ir_protocol_set_has(&s, ir_protocol_at(i)->id));
	assert_int_equal(ir_protocol_set_parse("nec,wibble", &s, bad, sizeof(bad)), -ENOENT);
	assert_string_equal(bad, "wibble");
	/* every implemented protocol is found under its own name */
	for (size_t i = 0; i < ir_protocol_count(); i++) {
		const struct ir_protocol_info *info = ir_protocol_at(i);

		assert_int_equal(ir_protocol_from_name(info->name, &p), 0);
		assert_int_equal(p, info->id);
		assert_ptr_equal(ir_protocol_get(p), info);
		assert_true(info->scancode_mask != 0);
		assert_true(info->margin_us > 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nec_reported_when_silence_ends_it),
		cmocka_unit_test(test_deadline_settles_an_ambiguous_frame),
		cmocka_unit_test(test_no_deadline_after_a_space),
		cmocka_unit_test(test_timeout_finishes_a_frame),
		cmocka_unit_test(test_overflow_discards_a_partial_frame),
		cmocka_unit_test(test_repeat_code_needs_a_recent_frame),
		cmocka_unit_test(test_jvc_header_less_repeats),
		cmocka_unit_test(test_whole_frame_repeats_keep_the_toggle),
		cmocka_unit_test(test_sanyo_repeat_codes),
		cmocka_unit_test(test_early_silence_changes_no_frame),
		cmocka_unit_test(test_disabled_protocols_stay_silent),
		cmocka_unit_test(test_state_is_per_source),
		cmocka_unit_test(test_bad_arguments),
		cmocka_unit_test(test_protocol_names_and_sets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
