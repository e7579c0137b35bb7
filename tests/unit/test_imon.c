/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_imon.c - iMON key packets (built from the documented layouts) to
 * scancodes, and the shipped imon_pad keymap naming them.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "ir_decoder.h"
#include "ir_imon.h"
#include "ir_keymap.h"
#include "ir_keymap_file.h"

static struct ir_imon_key parse(struct ir_imon_parser *p, const uint8_t *pkt, size_t len)
{
	struct ir_imon_key k;

	assert_int_equal(ir_imon_parse(p, pkt, len, &k), 0);
	return k;
}

static void imon_pad_key_press_and_release(void **state)
{
	(void)state;
	struct ir_imon_parser p;
	/* REWIND on a newer receiver: 8 bytes, code in the first four */
	const uint8_t press[] = { 0x2a, 0x81, 0x95, 0xb7, 0x00, 0x00, 0x00, 0x00 };
	const uint8_t release[] = { 0x2a, 0x81, 0xd5, 0xb7, 0x00, 0x00, 0x00, 0x00 };
	struct ir_imon_key k;

	ir_imon_parser_init(&p, 0x0038, IR_PROTO_IMON);
	k = parse(&p, press, sizeof(press));
	assert_int_equal(k.kind, IR_IMON_PRESS);
	assert_int_equal(k.protocol, IR_PROTO_IMON);
	assert_int_equal(k.scancode, 0x2a8195b7);
	k = parse(&p, release, sizeof(release));
	assert_int_equal(k.kind, IR_IMON_RELEASE);
	assert_int_equal(k.scancode, 0x2a8195b7);
}

static void keyboard_codes_release_on_zero_key(void **state)
{
	(void)state;
	struct ir_imon_parser p;
	const uint8_t one[] = { 0x02, 0x00, 0x00, 0x1e };
	const uint8_t up[] = { 0x02, 0x00, 0x00, 0x00 };
	const uint8_t left_menu[] = { 0x02, 0x80, 0x00, 0x00 };
	struct ir_imon_key k;

	ir_imon_parser_init(&p, 0x0045, IR_PROTO_IMON);
	k = parse(&p, up, sizeof(up));
	assert_int_equal(k.kind, IR_IMON_NONE); /* nothing was down */
	k = parse(&p, one, sizeof(one));
	assert_int_equal(k.kind, IR_IMON_PRESS);
	assert_int_equal(k.scancode, 0x0200001e);
	k = parse(&p, up, sizeof(up));
	assert_int_equal(k.kind, IR_IMON_RELEASE);
	assert_int_equal(k.scancode, 0x0200001e);
	k = parse(&p, left_menu, sizeof(left_menu));
	assert_int_equal(k.kind, IR_IMON_PRESS);
	assert_int_equal(k.scancode, 0x02800000);
}

static void pad_moves_become_arrows(void **state)
{
	(void)state;
	struct ir_imon_parser p;
	static const struct { int8_t x, y; uint32_t code; } moves[] = {
		{ 0, -9, 0x01008000 }, { 2, 12, 0x01007f00 },
		{ -7, 3, 0x01000080 }, { 14, -13, 0x0100007f },
	};

	ir_imon_parser_init(&p, 0x0036, IR_PROTO_IMON);
	for (size_t i = 0; i < sizeof(moves) / sizeof(moves[0]); i++) {
		uint8_t pkt[5] = { 0x01, 0x00, (uint8_t)moves[i].x, (uint8_t)moves[i].y, 0x00 };
		struct ir_imon_key k = parse(&p, pkt, sizeof(pkt));

		assert_int_equal(k.kind, IR_IMON_PRESS);
		assert_int_equal(k.scancode, moves[i].code);
	}
	/* a pad button (left) keeps its own code; a still pad reports nothing */
	const uint8_t button[] = { 0x01, 0x01, 0x00, 0x00, 0x00 };
	const uint8_t still[] = { 0x01, 0x00, 0x00, 0x00, 0x00 };
	assert_int_equal(parse(&p, button, 5).scancode, 0x01010000);
	assert_int_equal(parse(&p, still, 5).kind, IR_IMON_NONE);
}

static void ffdc_pad_bits_are_reversed(void **state)
{
	(void)state;
	struct ir_imon_parser p;
	/* x: all four bits (0x78 -> 15) with the sign bit (byte 0 bit 1) is
	 * -1 in 4-bit two's complement; y: bit 3 alone is 8, positive: y wins
	 * -> down */
	const uint8_t down[] = { 0x42, 0x78, 0x08, 0xb7, 0, 0, 0x24, 0xb7 };
	/* x magnitude 12 (bits 3 and 4 -> 8 + 4), positive; y 0 -> right */
	const uint8_t right[] = { 0x40, 0x18, 0x00, 0xb7, 0, 0, 0x24, 0xb7 };
	/* idle chatter */
	const uint8_t idle[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x24, 0xff };

	ir_imon_parser_init(&p, IMON_PRODUCT_FFDC, IR_PROTO_IMON);
	assert_int_equal(parse(&p, down, 8).scancode, 0x01007f00);
	assert_int_equal(parse(&p, right, 8).scancode, 0x0100007f);
	assert_int_equal(parse(&p, idle, 8).kind, IR_IMON_NONE);
}

static void mce_mode_gives_rc6_mce_layout(void **state)
{
	(void)state;
	struct ir_imon_parser p;
	/* KEY_VOLUMEUP (0x10) on firmware that sets 0x7000, toggle on then off */
	const uint8_t a[] = { 0x80, 0x0f, 0xf4, 0x10, 0, 0, 0, 0 };
	const uint8_t b[] = { 0x80, 0x0f, 0x74, 0x10, 0, 0, 0, 0 };
	const uint8_t c[] = { 0x80, 0x0f, 0x04, 0x10, 0, 0, 0, 0 };
	struct ir_imon_key k;

	ir_imon_parser_init(&p, 0x0045, IR_PROTO_RC6_MCE);
	k = parse(&p, a, 8);
	assert_int_equal(k.protocol, IR_PROTO_RC6_MCE);
	assert_int_equal(k.scancode, 0x800f0410);
	assert_true(k.toggle);
	k = parse(&p, b, 8);
	assert_int_equal(k.scancode, 0x800f0410);
	assert_false(k.toggle);
	assert_int_equal(parse(&p, c, 8).scancode, 0x800f0410);
}

static void panel_and_junk_and_bad_lengths(void **state)
{
	(void)state;
	struct ir_imon_parser p;
	const uint8_t knob_up[] = { 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0xff, 0xee };
	const uint8_t assoc[] = { 0x00, 0x07, 0xff, 0xff, 0xff, 0xff, 0x4e, 0xdf };
	struct ir_imon_key k;
	uint8_t out[8];

	ir_imon_parser_init(&p, 0x0038, IR_PROTO_IMON);
	k = parse(&p, knob_up, 8);
	assert_int_equal(k.kind, IR_IMON_PANEL);
	assert_int_equal(k.scancode, 0x000100000000ffeeull);
	assert_int_equal(parse(&p, assoc, 8).kind, IR_IMON_NONE);
	assert_int_equal(ir_imon_parse(&p, knob_up, 7, &k), -EINVAL);
	assert_int_equal(ir_imon_parse(&p, knob_up, 0, &k), -EINVAL);

	assert_int_equal(ir_imon_protocol_packet(IR_PROTO_RC6_MCE, out), 0);
	assert_int_equal(out[0], 0x01);
	assert_int_equal(out[7], 0x86);
	assert_int_equal(ir_imon_protocol_packet(IR_PROTO_NEC, out), -EINVAL);
	assert_true(ir_imon_device_known(0x15c2, 0xffdc));
	assert_true(ir_imon_device_known(0x15c2, 0x0041));
	assert_false(ir_imon_device_known(0x15c2, 0x0047));
}

/* The shipped keymap names what the parser reports. */
static void imon_pad_keymap_names_parsed_keys(void **state)
{
	(void)state;
	struct ir_keymap *km = NULL;
	struct ir_keymap_error err = { 0 };
	struct ir_imon_parser p;
	struct ir_key_binding bind;
	static const struct { uint8_t pkt[5]; size_t len; const char *key; } cases[] = {
		{ { 0x28, 0xa3, 0x95, 0xb7 }, 4, "KEY_VOLUMEUP" },
		{ { 0x01, 0x00, 0x00, 0xf3, 0x00 }, 5, "KEY_UP" },
		{ { 0x02, 0x00, 0x00, 0x27 }, 4, "KEY_NUMERIC_0" },
		{ { 0x68, 0x83, 0x01, 0xb7 }, 4, "BTN_LEFT" },
	};

	assert_int_equal(ir_keymap_new(&km), 0);
	assert_int_equal(ir_keymap_load(km, IRJACK_SOURCE_DIR "/config/keymaps/imon_pad.toml", &err), 0);
	assert_int_equal(ir_keymap_key_count(km), 90);
	ir_imon_parser_init(&p, 0x0038, IR_PROTO_IMON);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ir_imon_key k = parse(&p, cases[i].pkt, cases[i].len);
		struct ir_frame f = { .protocol = k.protocol, .scancode = k.scancode };

		assert_int_equal(k.kind, IR_IMON_PRESS);
		assert_true(ir_keymap_lookup(km, &f, &bind));
		assert_string_equal(bind.key, cases[i].key);
		assert_true(bind.keycode > 0);
	}
	ir_keymap_free(km);
}

/* ---- raw-sampling receivers (04e8:ff30) ---- */

/* What the station would send for `edges`: 250 µs samples (0 = light), 40
 * per packet, packets numbered 1..10, idle line (1s) before and after.
 * Returns the packet count. */
static size_t sample_packets(const struct ir_edge *edges, size_t n, unsigned lead_samples,
			     uint8_t pkts[][8], size_t max_pkts)
{
	static uint8_t bits[4000];
	size_t count = 0, total;
	double t = 0;

	memset(bits, 1, sizeof(bits));
	for (size_t i = 0; i < n; i++) {
		size_t from = lead_samples + (size_t)(t / IMON_RAW_SAMPLE_US + 0.5);
		size_t to;

		t += edges[i].duration;
		to = lead_samples + (size_t)(t / IMON_RAW_SAMPLE_US + 0.5);
		for (size_t s = from; s < to && s < sizeof(bits); s++)
			bits[s] = edges[i].kind == IR_PULSE ? 0 : 1;
	}
	total = lead_samples + (size_t)(t / IMON_RAW_SAMPLE_US) + 40;
	memset(pkts, 0, max_pkts * 8);
	for (size_t p = 0; p * 40 < total && p < max_pkts; p++) {
		for (unsigned b = 0; b < 40; b++)
			if (bits[p * 40 + b])
				pkts[p][b / 8] |= (uint8_t)(0x80u >> (b % 8));
		pkts[p][7] = (uint8_t)(p % 10 + 1);
		count = p + 1;
	}
	/* the burst ends with packet 10 */
	while (count % 10) {
		memset(pkts[count], 0xff, 5);
		pkts[count][7] = (uint8_t)(count % 10 + 1);
		count++;
	}
	return count;
}

struct raw_result {
	struct ir_frame frames[8];
	size_t count;
};

static void keep_frame(void *userdata, const struct ir_frame *f)
{
	struct raw_result *r = userdata;

	if (r->count < 8)
		r->frames[r->count++] = *f;
}

static void raw_samples_decode_as_the_remote_sent(void **state)
{
	static const struct {
		enum ir_protocol protocol;
		uint64_t scancode;
	} cases[] = {
		{ IR_PROTO_NEC, 0x04fb },
		{ IR_PROTO_RC5, 0x1e0c },
		{ IR_PROTO_SONY12, 0x10015 },
		{ IR_PROTO_RC6_0, 0x0c },
	};
	static uint8_t pkts[40][8];

	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct ir_edge_buf edges = { 0 };
		struct ir_imon_raw raw;
		struct raw_result res = { 0 };
		struct ir_decoder *dec;
		size_t npk, timeouts = 0;

		assert_int_equal(ir_encode(cases[c].protocol, cases[c].scancode, NULL, &edges), 0);
		/* 13 idle samples first: the frame starts mid-packet */
		npk = sample_packets(edges.edges, edges.len, 13, pkts, 40);
		assert_true(npk >= 10);
		assert_int_equal(ir_decoder_new(NULL, keep_frame, &res, &dec), 0);
		ir_imon_raw_init(&raw);
		for (size_t p = 0; p < npk; p++) {
			struct ir_edge out[IMON_RAW_MAX_EDGES];
			int n = ir_imon_raw_feed(&raw, pkts[p], 8, out);

			assert_true(n >= 0 && n <= IMON_RAW_MAX_EDGES);
			for (int i = 0; i < n; i++) {
				/* every run is whole samples, and a frame starts with a pulse */
				assert_int_equal(out[i].duration % IMON_RAW_SAMPLE_US, 0);
				timeouts += out[i].kind == IR_TIMEOUT;
			}
			ir_decoder_feed_many(dec, out, (size_t)n);
		}
		ir_decoder_flush(dec);
		ir_decoder_free(dec);
		assert_int_equal(timeouts, 1);
		assert_true(res.count >= 1);
		assert_int_equal(res.frames[0].protocol, cases[c].protocol);
		assert_int_equal(res.frames[0].scancode, cases[c].scancode);
		ir_edge_buf_free(&edges);
	}
}

static void raw_runs_join_across_packets_and_junk_is_refused(void **state)
{
	/* 30 idle samples, then 20 of light across the packet boundary */
	uint8_t a[8] = { 0xff, 0xff, 0xff, 0xfc, 0x00, 0, 0, 1 };
	uint8_t b[8] = { 0x00, 0x3f, 0xff, 0xff, 0xff, 0, 0, 2 };
	uint8_t none[8] = { 0, 0, 0, 0, 0, 0, 0, 0xff };
	uint8_t end[8] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0, 10 };
	struct ir_edge out[IMON_RAW_MAX_EDGES];
	struct ir_imon_raw raw;

	(void)state;
	ir_imon_raw_init(&raw);
	assert_int_equal(ir_imon_raw_feed(&raw, a, 8, out), 0);
	assert_int_equal(ir_imon_raw_feed(&raw, none, 8, out), 0);
	assert_int_equal(ir_imon_raw_feed(&raw, b, 8, out), 1);
	assert_int_equal(out[0].kind, IR_PULSE);
	assert_int_equal(out[0].duration, (10 + 10) * IMON_RAW_SAMPLE_US);
	assert_int_equal(ir_imon_raw_feed(&raw, end, 8, out), 1);
	assert_int_equal(out[0].kind, IR_TIMEOUT);
	assert_int_equal(out[0].duration, (30 + 40) * IMON_RAW_SAMPLE_US);
	assert_int_equal(ir_imon_raw_feed(&raw, a, 7, out), -EINVAL);
	assert_int_equal(ir_imon_raw_feed(&raw, a, 9, out), -EINVAL);
	/* the worst packet: 40 alternating samples, then the burst's end */
	{
		uint8_t alt[8] = { 0x55, 0x55, 0x55, 0x55, 0x55, 0, 0, 10 };

		ir_imon_raw_init(&raw);
		assert_true(ir_imon_raw_feed(&raw, alt, 8, out) <= IMON_RAW_MAX_EDGES);
	}
	assert_true(ir_imon_raw_device_known(0x04e8, 0xff30));
	assert_false(ir_imon_raw_device_known(0x15c2, 0xffdc));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(imon_pad_key_press_and_release),
		cmocka_unit_test(keyboard_codes_release_on_zero_key),
		cmocka_unit_test(pad_moves_become_arrows),
		cmocka_unit_test(ffdc_pad_bits_are_reversed),
		cmocka_unit_test(mce_mode_gives_rc6_mce_layout),
		cmocka_unit_test(panel_and_junk_and_bad_lengths),
		cmocka_unit_test(imon_pad_keymap_names_parsed_keys),
		cmocka_unit_test(raw_samples_decode_as_the_remote_sent),
		cmocka_unit_test(raw_runs_join_across_packets_and_junk_is_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
