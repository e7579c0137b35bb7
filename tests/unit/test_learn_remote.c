/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Learning a remote (src/analysis/ir_learn_remote.h) from presses made
 * here with irjack's encoders: presses that do not decode, every protocol
 * irjack decodes round-tripped through the file learn writes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "ir_learn_remote.h"
#include "ir_protocol.h"
#include "ir_util.h"
#include "test_util.h"

/* Silence between presses: more than learn's default 100 ms gap. */
#define PRESS_GAP_US 200000

static void add_press(struct ir_edge_buf *b, enum ir_protocol p, uint64_t scancode)
{
	struct ir_encode_opts opts = { 0 };

	assert_int_equal(ir_encode(p, scancode, &opts, b), 0);
	assert_int_equal(ir_edge_buf_space(b, PRESS_GAP_US), 0);
}

/* Light that no protocol reads: a few odd durations. */
static void add_glitch(struct ir_edge_buf *b)
{
	static const uint32_t t[] = { 3000, 700, 300, 900, 1200, 400, 300 };

	for (size_t i = 0; i < ARRAY_SIZE(t); i++)
		assert_int_equal(i % 2 ? ir_edge_buf_space(b, t[i]) : ir_edge_buf_pulse(b, t[i]), 0);
	assert_int_equal(ir_edge_buf_space(b, PRESS_GAP_US), 0);
}

static struct ir_learn_input *input_new(void)
{
	struct ir_learn_input *in = calloc(1, sizeof(*in));

	assert_non_null(in);
	assert_int_equal(ir_edge_buf_space(&in->edges, PRESS_GAP_US), 0);
	return in;
}

static void input_free(struct ir_learn_input *in)
{
	ir_learn_input_free(in);
	free(in);
}

/* Three keys, three presses each; the first press of KEY_B (and, in a
 * second run, of KEY_A) is a glitch: the key is learned from its other
 * presses, and the glitch is the one press that is not ok. */
static void test_first_press_of_a_key_not_decoded(void **state)
{
	static const char *const keys[] = { "KEY_A", "KEY_B", "KEY_C" };
	static const uint64_t codes[] = { 0x0408, 0x0409, 0x040a };
	(void)state;

	for (size_t bad = 0; bad < 2; bad++) {
		struct ir_learn_input *in = input_new();
		struct ir_learn_result *res = calloc(1, sizeof(*res));
		struct ir_learn_options opt = {
			.gap_us = 100000, .keys = keys, .key_count = 3, .per_key = 3,
		};
		char err[256] = "";

		assert_non_null(res);
		for (size_t k = 0; k < 3; k++)
			for (size_t j = 0; j < 3; j++) {
				if (k == (bad ? 0 : 1) && j == 0)
					add_glitch(&in->edges);
				else
					add_press(&in->edges, IR_PROTO_NEC, codes[k]);
			}
		assert_int_equal(ir_learn_input_decode(in), 0);
		assert_int_equal(ir_learn_remote(in, &opt, res, err, sizeof(err)), 0);
		assert_int_equal(res->method, IR_LEARN_PROTOCOL);
		assert_int_equal(res->protocol, IR_PROTO_NEC);
		assert_int_equal(res->key_count, 3);
		for (size_t k = 0; k < 3; k++)
			assert_int_equal(res->keys[k].scancode, codes[k]);
		assert_int_equal(res->presses, 9);
		assert_int_equal(res->presses_ok, 8);
		ir_learn_result_free(res);
		free(res);
		input_free(in);
	}
}

/* Raw keys: a glitched first press does not become the key's timings. */
static void test_raw_reference_is_the_common_length(void **state)
{
	static const char *const keys[] = { "KEY_A", "KEY_B" };
	struct ir_learn_input *in = input_new();
	struct ir_learn_result *res = calloc(1, sizeof(*res));
	struct ir_learn_options opt = { .gap_us = 100000, .keys = keys, .key_count = 2, .per_key = 3 };
	char err[256] = "";
	(void)state;

	assert_non_null(res);
	/* 112-bit pulse-distance frames: too long for a scancode, kept raw */
	for (size_t k = 0; k < 2; k++)
		for (size_t j = 0; j < 3; j++) {
			if (k == 1 && j == 0) {
				add_glitch(&in->edges);
				continue;
			}
			assert_int_equal(ir_edge_buf_pulse(&in->edges, 3400), 0);
			assert_int_equal(ir_edge_buf_space(&in->edges, 1700), 0);
			for (unsigned b = 0; b < 112; b++) {
				assert_int_equal(ir_edge_buf_pulse(&in->edges, 430), 0);
				assert_int_equal(ir_edge_buf_space(&in->edges,
								   (b * 7 + k) % 3 ? 1290 : 430), 0);
			}
			assert_int_equal(ir_edge_buf_pulse(&in->edges, 430), 0);
			assert_int_equal(ir_edge_buf_space(&in->edges, PRESS_GAP_US), 0);
		}
	assert_int_equal(ir_learn_input_decode(in), 0);
	assert_int_equal(ir_learn_remote(in, &opt, res, err, sizeof(err)), 0);
	assert_int_equal(res->method, IR_LEARN_RAW);
	assert_int_equal(res->keys[0].raw.len, 2 + 2 * 112 + 1);
	assert_int_equal(res->keys[1].raw.len, 2 + 2 * 112 + 1);
	assert_int_equal(res->presses_ok, 5);
	ir_learn_result_free(res);
	free(res);
	input_free(in);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_press_of_a_key_not_decoded),
		cmocka_unit_test(test_raw_reference_is_the_common_length),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
