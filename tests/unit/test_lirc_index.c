/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_lirc_index.c - the lircd.conf remote index (src/protocols/lirc_index.c):
 * a frame of a 100,000-button remote is matched against the one template
 * it can be, never against every button's (issue 24: 30-55 ms of CPU per
 * frame), and the index finds exactly the codes whose frames are within
 * LIRC's tolerance, so decoding names the same buttons with and without it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ir_decoder.h"
#include "ir_family.h"
#include "lirc_remote.h"
#include "test_util.h"

/* A NEC-like SPACE_ENC remote, as irrecord writes them, of `n` codes. */
static struct lirc_remote *space_enc_remote(size_t n, uint64_t (*code_of)(size_t i))
{
	struct lirc_remote *r = calloc(1, sizeof(*r));

	assert_non_null(r);
	r->flags = LIRC_F_SPACE_ENC | LIRC_F_CONST_LENGTH;
	r->bits = 32;
	r->phead = 9000, r->shead = 4500;
	r->pone = 560, r->sone = 1690, r->pzero = 560, r->szero = 560, r->ptrail = 560;
	r->prepeat = 9000, r->srepeat = 2250, r->gap = 108000;
	r->eps = LIRC_DEFAULT_EPS, r->aeps = LIRC_DEFAULT_AEPS;
	r->codes = calloc(n, sizeof(*r->codes));
	assert_non_null(r->codes);
	for (size_t i = 0; i < n; i++)
		r->codes[i] = code_of(i);
	r->code_count = r->code_cap = n;
	assert_int_equal(lirc_remote_prepare(r), 0);
	return r;
}

static uint64_t spread_code(size_t i)
{
	/* an odd multiplier is a bijection of 32-bit values: no duplicates */
	return (uint32_t)(i * 2654435761u) ^ 0x10EF0000u;
}

/* The collected edges of code `c`'s frame (pulse first, no trailing space). */
static size_t collected(const struct lirc_remote *r, uint64_t c, uint32_t *edges, size_t max)
{
	struct ir_edge_buf t = { 0 };
	size_t first, end, n = 0;

	assert_int_equal(lirc_remote_frame(r, c, 0, &t), 0);
	first = t.len && t.edges[0].kind == IR_SPACE ? 1 : 0;
	end = t.len && t.edges[t.len - 1].kind == IR_SPACE ? t.len - 1 : t.len;
	for (size_t i = first; i < end && n < max; i++)
		edges[n++] = t.edges[i].duration;
	ir_edge_buf_free(&t);
	return n;
}

struct seen {
	uint64_t codes[64];
	size_t count;
};

static void note(void *arg, uint64_t code)
{
	struct seen *s = arg;

	if (s->count < 64)
		s->codes[s->count] = code;
	s->count++;
}

static void big_remote_frame_tries_one_template(void **state)
{
	struct lirc_remote *r = space_enc_remote(100000, spread_code);
	uint32_t edges[LIRC_FRAME_EDGES_MAX];

	(void)state;
	for (size_t i = 0; i < 100000; i += 9973) {
		struct seen s = { 0 };
		size_t n = collected(r, r->codes[i], edges, LIRC_FRAME_EDGES_MAX);

		/* a real receiver's error: every pulse 80 µs long, spaces short */
		for (size_t j = 0; j < n; j++)
			edges[j] = j % 2 ? edges[j] - 60 : edges[j] + 80;
		assert_int_equal(lirc_index_candidates(r, edges, n, note, &s), 1);
		assert_int_equal(s.count, 1);
		assert_true(s.codes[0] == r->codes[i]);
		assert_int_equal(lirc_index_first(r, r->codes[i]), i);
	}
	lirc_remote_free(r);
}

static uint64_t small_code(size_t i)
{
	return i % 7 * 0x01010101u; /* duplicates: the first of each names it */
}

static void first_button_of_a_code_is_the_first_in_file_order(void **state)
{
	struct lirc_remote *r = space_enc_remote(40, small_code);

	(void)state;
	for (size_t i = 0; i < 7; i++)
		assert_int_equal(lirc_index_first(r, small_code(i)), i);
	assert_true(lirc_index_first(r, 0x12345678u) == SIZE_MAX);
	lirc_remote_free(r);
}

/* Brute force: is every collected edge within tolerance of c's frame? */
static bool within(const struct lirc_remote *r, uint64_t c, const uint32_t *got, size_t n)
{
	uint32_t want[LIRC_FRAME_EDGES_MAX];
	struct ir_edge_buf t = { 0 };
	size_t m;

	if (lirc_remote_frame(r, c, 0, &t) < 0)
		return false;
	ir_edge_buf_free(&t);
	m = collected(r, c, want, LIRC_FRAME_EDGES_MAX);
	if (m != n)
		return false;
	for (size_t j = 0; j < n; j++)
		if (!ir_eq_margin(got[j], want[j], lirc_tolerance(r, want[j])))
			return false;
	return true;
}

/* An RC5-style biphase remote (SHIFT_ENC: one "half" runs merge, so a
 * collected edge is one or two half bits) with a toggle bit, and an RC6
 * one with a double-length bit: shapes are ambiguous within eps. */
static struct lirc_remote *biphase_remote(unsigned flags, size_t n, struct test_rng *rng)
{
	struct lirc_remote *r = calloc(1, sizeof(*r));

	assert_non_null(r);
	r->flags = flags;
	r->bits = 13;
	r->pone = r->sone = r->pzero = r->szero = 889;
	if (flags & LIRC_F_RC6) {
		r->bits = 21;
		r->phead = 2666, r->shead = 889;
		r->pone = r->sone = r->pzero = r->szero = 444;
		r->rc6_mask = 0x10000;
		r->toggle_bit_mask = 0x10000;
	} else {
		r->plead = 889;
		r->toggle_bit_mask = 0x800;
	}
	r->gap = 90000;
	r->eps = 45, r->aeps = 200; /* wide: neighbouring runs overlap */
	r->codes = calloc(n, sizeof(*r->codes));
	assert_non_null(r->codes);
	for (size_t i = 0; i < n; i++)
		r->codes[i] = rng_next(rng) & ((1u << r->bits) - 1) & ~r->toggle_bit_mask;
	r->code_count = r->code_cap = n;
	assert_int_equal(lirc_remote_prepare(r), 0);
	return r;
}

static void check_against_brute_force(struct lirc_remote *r, struct test_rng *rng,
				      unsigned *indexed)
{
	uint32_t edges[LIRC_FRAME_EDGES_MAX];

	for (unsigned k = 0; k < 300; k++) {
		uint64_t c = r->codes[rng_next(rng) % r->code_count] ^
			     (rng_next(rng) % 2 ? r->toggle_bit_mask : 0);
		size_t n = collected(r, c, edges, LIRC_FRAME_EDGES_MAX);
		struct seen s = { 0 };
		int got;

		for (size_t j = 0; j < n; j++)
			edges[j] = (uint32_t)((int64_t)edges[j] +
					      rng_symmetric(rng, edges[j] * 45 / 100 + 150));
		got = lirc_index_candidates(r, edges, n, note, &s);
		if (got < 0)
			continue; /* too many shapes: the decoder tries every code */
		(*indexed)++;
		assert_int_equal(got, s.count);
		assert_true(s.count <= 64);
		for (size_t i = 0; i < r->code_count; i++)
			for (unsigned v = 0; v < 2; v++) {
				uint64_t cv = r->codes[i] ^ (v ? r->toggle_bit_mask : 0);
				bool listed = false;

				for (size_t q = 0; q < s.count && q < 64; q++)
					listed |= s.codes[q] == cv;
				assert_int_equal(listed, within(r, cv, edges, n));
			}
	}
}

static void index_finds_exactly_the_codes_within_tolerance(void **state)
{
	struct test_rng rng = { 0x5eed1234abcdu };
	unsigned indexed = 0;

	(void)state;
	for (unsigned round = 0; round < 4; round++) {
		struct lirc_remote *r =
			biphase_remote(round % 2 ? LIRC_F_RC6 : LIRC_F_RC5, 40, &rng);

		check_against_brute_force(r, &rng, &indexed);
		lirc_remote_free(r);
	}
	/* most frames are answered by the index, not by trying every code */
	assert_true(indexed > 4 * 300 / 2);
}

/* Decodes `edges` with the remote's decoder; the reported codes go to
 * `out`.  Returns how many. */
static size_t decode_with(const struct lirc_remote *r, const struct ir_edge *edges, size_t n,
			  uint64_t *out, size_t max)
{
	struct frame_log *log = calloc(1, sizeof(*log));
	struct ir_protocol_set none;
	struct ir_decoder *dec;
	size_t count;

	assert_non_null(log);
	ir_protocol_set_clear(&none);
	assert_int_equal(ir_decoder_new(&none, frame_log_add, log, &dec), 0);
	assert_int_equal(ir_decoder_add_custom(dec, &ir_family_lirc, r, 1), 0);
	ir_decoder_feed_many(dec, edges, n);
	ir_decoder_flush(dec);
	ir_decoder_free(dec);
	count = log->count < max ? log->count : max;
	for (size_t i = 0; i < count; i++)
		out[i] = log->frames[i].scancode ^ ((uint64_t)log->frames[i].flags << 48);
	free(log);
	return count;
}

static void decoder_names_the_same_buttons_without_the_index(void **state)
{
	struct test_rng rng = { 0xfeedbeef1234u };

	(void)state;
	for (unsigned round = 0; round < 4; round++) {
		struct lirc_remote *r =
			biphase_remote(round % 2 ? LIRC_F_RC6 : LIRC_F_RC5, 60, &rng);
		struct ir_edge_buf in = { 0 };
		static uint64_t with[2048], without[2048];
		size_t a, b;
		struct lirc_index *ix;

		for (unsigned k = 0; k < 200; k++) {
			size_t start = in.len;
			uint64_t c = r->codes[rng_next(&rng) % r->code_count];

			assert_int_equal(lirc_remote_frame(r, c, 0, &in), 0);
			for (size_t j = start; j < in.len; j++)
				in.edges[j].duration = (uint32_t)((int64_t)in.edges[j].duration +
					rng_symmetric(&rng, in.edges[j].duration * 40 / 100));
			assert_int_equal(ir_edge_buf_space(&in, 100000), 0);
		}
		a = decode_with(r, in.edges, in.len, with, 2048);
		ix = r->index;
		r->index = NULL; /* every template, as before the index */
		b = decode_with(r, in.edges, in.len, without, 2048);
		r->index = ix;
		assert_true(a > 50);
		assert_int_equal(a, b);
		assert_memory_equal(with, without, a * sizeof(*with));
		ir_edge_buf_free(&in);
		lirc_remote_free(r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(big_remote_frame_tries_one_template),
		cmocka_unit_test(first_button_of_a_code_is_the_first_in_file_order),
		cmocka_unit_test(index_finds_exactly_the_codes_within_tolerance),
		cmocka_unit_test(decoder_names_the_same_buttons_without_the_index),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
