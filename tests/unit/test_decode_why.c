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
#include "ir_family.h"
#include "ir_protocol.h"
#include "test_util.h"

struct why_log {
	unsigned trains;
	size_t edges;
	char text[4096];
	unsigned first_progress;
	/* each reason's name (its text up to the first ':') and progress */
	struct {
		char name[32];
		unsigned progress;
	} reason[64];
	size_t reasons;
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
		if (w->reasons < sizeof(w->reason) / sizeof(w->reason[0])) {
			size_t n = strcspn(reasons[i].text, ":");

			snprintf(w->reason[w->reasons].name, sizeof(w->reason[0].name), "%.*s",
				 (int)n, reasons[i].text);
			w->reason[w->reasons++].progress = reasons[i].progress;
		}
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

/* A scancode protocol p's encoder takes (its mask over a few patterns). */
static bool encodable(const struct ir_protocol_info *info, struct ir_edge_buf *b)
{
	static const uint64_t tries[] = { 0x5a5a5a5a5aULL, 0x123456789ULL, 0x1, 0 };

	for (size_t t = 0; t < sizeof(tries) / sizeof(tries[0]); t++) {
		b->len = 0;
		if (ir_encode(info->id, tries[t] & info->scancode_mask, NULL, b) == 0 && b->len > 4)
			return true;
	}
	return false;
}

/* Feeds `n` edges of `b` (and, if `stretch` < n, edge `stretch` made
 * three times as long plus 1 ms) to a decoder that runs protocol p alone;
 * the frames it took. */
static unsigned decode_alone(struct why_log *w, enum ir_protocol p, const struct ir_edge_buf *b,
			     size_t n, size_t stretch)
{
	struct ir_protocol_set only;
	struct ir_decoder *dec;
	unsigned frames = 0;

	ir_protocol_set_clear(&only);
	ir_protocol_set_add(&only, p);
	memset(w, 0, sizeof(*w));
	assert_int_equal(ir_decoder_new(&only, noop_frame, &frames, &dec), 0);
	ir_decoder_set_why(dec, log_why, w);
	for (size_t i = 0; i < n; i++) {
		struct ir_edge e = b->edges[i];

		if (i == stretch)
			e.duration = 3 * e.duration + 1000;
		assert_int_equal(ir_decoder_feed(dec, &e), 0);
	}
	ir_decoder_flush(dec);
	ir_decoder_free(dec);
	return frames;
}

/* Did protocol `info`'s family (or its table row) give a reason that got
 * past the frame's first edge?  A family's reason starts with the name
 * of the family that decodes the protocol, or its display family, or (a
 * table row's) the protocol's name. */
static bool says_why(const struct why_log *w, const struct ir_protocol_info *info)
{
	const struct ir_family *f = ir_protocol_family(info->id);

	for (size_t i = 0; i < w->reasons; i++)
		if ((!strcmp(w->reason[i].name, info->name) ||
		     !strcmp(w->reason[i].name, info->family) ||
		     (f && !strcmp(w->reason[i].name, f->name))) &&
		    w->reason[i].progress > 0)
			return true;
	return false;
}

/* Issue #19, "say why": every protocol that decodes, cut off in the middle
 * of a frame or with its middle edge stretched, gets a reason from its own
 * family (or table row), one that got past the frame's start.  Left out:
 * iMON and Netbox, whose dark slots are data (a frame cut short is a frame
 * ending in 1s or 0s).  A stretched space may leave a whole frame after
 * it (Grundig and IR60 send an info frame first): that train decoded, and
 * a train that decodes is not explained. */
static void test_every_family_says_why(void **state)
{
	struct ir_edge_buf b = { 0 };
	unsigned checked = 0, missing = 0, took_rest = 0;

	(void)state;
	for (size_t i = 0; i < ir_protocol_count(); i++) {
		const struct ir_protocol_info *info = ir_protocol_at(i);
		struct why_log w;
		unsigned frames;
		size_t half;

		if (!info->has_encoder || info->id == IR_PROTO_IMON || info->id == IR_PROTO_NETBOX ||
		    !encodable(info, &b))
			continue;
		half = (b.len / 2) | 1; /* ends on a pulse */
		/* truncated: the first half, then the source's timeout */
		frames = decode_alone(&w, info->id, &b, half, SIZE_MAX);
		if (frames != 0 || w.trains != 1 || !says_why(&w, info)) {
			print_message("%s (family %s) truncated after %zu of %zu edges, %u frames: %s\n",
				      info->name, info->family, half, b.len, frames,
				      w.reasons ? w.text : "no reason\n");
			missing++;
		}
		/* the middle space stretched */
		frames = decode_alone(&w, info->id, &b, b.len, half);
		took_rest += frames != 0;
		if (frames == 0 && (w.trains == 0 || !says_why(&w, info))) {
			print_message("%s (family %s) with edge %zu stretched, %u frames: %s\n",
				      info->name, info->family, half, frames,
				      w.reasons ? w.text : "no reason\n");
			missing++;
		}
		checked++;
	}
	ir_edge_buf_free(&b);
	/* every family with an encoder: today 90-odd protocols */
	assert_true(checked >= 80);
	assert_int_equal(missing, 0);
	assert_true(took_rest <= 3);
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
		cmocka_unit_test(test_every_family_says_why),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
