/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Why no protocol took a train (issue #19, `irjack decode -v`): with
 * reasons asked for, a train that decodes to nothing is reported once,
 * with each family's reason, the furthest attempt first, in the kernel's
 * debug-line style; a train that decodes is not reported.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "ir_decoder.h"
#include "ir_protocol.h"
#include "test_util.h"

struct why_log {
	unsigned trains;
	size_t edges;
	char text[4096];
	unsigned first_progress;
};

static void log_why(void *userdata, uint64_t start_us, uint64_t end_us, size_t edges,
		    const struct ir_decode_reason *reasons, size_t count)
{
	struct why_log *w = userdata;
	size_t len = strlen(w->text);

	(void)start_us;
	(void)end_us;
	w->trains++;
	w->edges = edges;
	w->first_progress = count ? reasons[0].progress : 0;
	for (size_t i = 0; i < count; i++) {
		if (i > 0)
			assert_true(reasons[i].progress <= reasons[i - 1].progress);
		len += (size_t)snprintf(w->text + len, sizeof(w->text) - len, "%s\n", reasons[i].text);
		if (len >= sizeof(w->text))
			len = sizeof(w->text) - 1;
	}
}

static void noop_frame(void *userdata, const struct ir_frame *f)
{
	(*(unsigned *)userdata)++;
	(void)f;
}

/* (p, sc) as irjack's encoder writes it, with edge `i` set to `d`. */
static unsigned decode_one(struct why_log *w, enum ir_protocol p, uint64_t sc, size_t i,
			   uint32_t d, bool extra_bit)
{
	struct ir_edge_buf b = { 0 };
	struct ir_decoder *dec;
	unsigned frames = 0;

	assert_int_equal(ir_encode(p, sc, NULL, &b), 0);
	if (i < b.len)
		b.edges[i].duration = d;
	if (extra_bit) { /* a 33rd bit before the trailing gap */
		uint32_t gap = b.edges[b.len - 1].duration;

		b.edges[b.len - 1].duration = 563;
		assert_int_equal(ir_edge_buf_pulse(&b, 563), 0);
		assert_int_equal(ir_edge_buf_space(&b, gap), 0);
	}
	memset(w, 0, sizeof(*w));
	assert_int_equal(ir_decoder_new(NULL, noop_frame, &frames, &dec), 0);
	ir_decoder_set_why(dec, log_why, w);
	ir_decoder_feed_many(dec, b.edges, b.len);
	ir_decoder_flush(dec);
	ir_decoder_free(dec);
	ir_edge_buf_free(&b);
	return frames;
}

static unsigned decode_nec(struct why_log *w, size_t i, uint32_t d, bool extra_bit)
{
	return decode_one(w, IR_PROTO_NEC, 0x0408, i, d, extra_bit);
}

/* Sony 12 with bit 1's pulse (edge 4) at 2000 µs: neither bit. */
static void test_sony_bit_pulse(void **state)
{
	static const char want[] = "sony: bit 1: pulse 2000 us: not a 0 (300-900) nor a 1 (900-1500)\n";
	struct why_log w;

	(void)state;
	assert_int_equal(decode_one(&w, IR_PROTO_SONY12, 0x10012, 4, 2000, false), 0);
	assert_int_equal(w.trains, 1);
	/* the furthest attempt, first */
	assert_true(strncmp(w.text, want, strlen(want)) == 0);
}

/* RC-5 with a 300 µs pulse (edge 2): shorter than any half-bit. */
static void test_rc5_short_pulse(void **state)
{
	struct why_log w;

	(void)state;
	assert_int_equal(decode_one(&w, IR_PROTO_RC5, 0x0512, 2, 300, false), 0);
	assert_int_equal(w.trains, 1);
	assert_true(strncmp(w.text, "rc5: bit ", 9) == 0);
	assert_non_null(strstr(w.text, ": pulse 300 us is not a half-bit (445-1333) or two\n"));
}

/* G.I. Cable with a wrong check nibble (bit 12, edge 26, 0 -> 1): the
 * irp_table row says so. */
static void test_gicable_checksum(void **state)
{
	struct why_log w;

	(void)state;
	assert_int_equal(decode_one(&w, IR_PROTO_GICABLE, 0x3005a, 27, 4410, false), 0);
	assert_int_equal(w.trains, 1);
	assert_non_null(strstr(w.text, "gi_cable: 16 symbols 0x"));
	assert_non_null(strstr(w.text, ": check bits wrong"));
}

static void test_header_space_outside_the_window(void **state)
{
	struct why_log w;

	(void)state;
	assert_int_equal(decode_nec(&w, 1, 3800, false), 0);
	assert_int_equal(w.trains, 1);
	assert_int_equal(w.edges, 68); /* header, 32 bits, trailer pulse, gap */
	assert_non_null(strstr(w.text, "nec: header space 3800 us outside 3937-5067"));
}

static void test_bit_space_outside_the_windows(void **state)
{
	struct why_log w;

	(void)state;
	/* edge 5 is bit 1's space */
	assert_int_equal(decode_nec(&w, 5, 1200, false), 0);
	assert_int_equal(w.trains, 1);
	assert_non_null(strstr(w.text, "nec: bit 1: space 1200 us: not a 0 (282-844), a 1 (1408-1970)"));
	/* the furthest attempt comes first: NEC got past its header and a bit */
	assert_true(strncmp(w.text, "nec: ", 5) == 0);
	assert_true(w.first_progress >= 4);
}

static void test_too_many_bits(void **state)
{
	struct why_log w;

	(void)state;
	assert_int_equal(decode_nec(&w, 99, 0, true), 0);
	assert_int_equal(w.trains, 1);
	assert_non_null(strstr(w.text, "nec: 33 bits then silence: no NEC length"));
}

static void test_decoded_train_has_no_reasons(void **state)
{
	struct why_log w;

	(void)state;
	assert_int_equal(decode_nec(&w, 99, 0, false), 1);
	assert_int_equal(w.trains, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header_space_outside_the_window),
		cmocka_unit_test(test_bit_space_outside_the_windows),
		cmocka_unit_test(test_too_many_bits),
		cmocka_unit_test(test_decoded_train_has_no_reasons),
		cmocka_unit_test(test_sony_bit_pulse),
		cmocka_unit_test(test_gicable_checksum),
		cmocka_unit_test(test_rc5_short_pulse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
