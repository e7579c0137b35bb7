/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Learning a remote (src/analysis/ir_learn_remote.h) from presses made
 * here with irjack's encoders: presses that do not decode, every protocol
 * irjack decodes round-tripped through the file learn writes.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "ir_family.h"
#include "ir_keymap.h"
#include "ir_keymap_file.h"
#include "ir_learn_guide.h"
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

/* A random scancode valid for p (as test_protocol_roundtrip draws them). */
static uint64_t random_scancode(struct test_rng *rng, const struct ir_protocol_info *info)
{
	return valid_scancode(info->id, rng_next(rng) & info->scancode_mask);
}

/* A press of `p` with toggle `toggle`: the frame and one repeat, as a
 * button held briefly sends. */
static void add_toggled_press(struct ir_edge_buf *b, enum ir_protocol p, uint64_t sc,
			      unsigned toggle)
{
	struct ir_encode_opts opts = { .toggle = toggle, .repeats = 1 };

	assert_int_equal(ir_encode(p, sc, &opts, b), 0);
	assert_int_equal(ir_edge_buf_space(b, PRESS_GAP_US), 0);
}

/* The file at `path`, loaded on its own: fresh presses of each key (other
 * toggles) decode to frames it names as that key. */
static void expect_file_names_keys(const char *path, enum ir_protocol p, const uint64_t *codes,
				   const char *const *keys, size_t nkeys)
{
	struct ir_keymap *km = NULL;
	struct ir_keymap_error kerr = { 0 };
	struct ir_protocol_set set, named;

	assert_int_equal(ir_keymap_new(&km), 0);
	if (ir_keymap_load(km, path, &kerr) < 0)
		fail_msg("%s: %s:%u: %s", ir_protocol_get(p)->name, kerr.file, kerr.parse.line,
			 kerr.parse.message);
	ir_protocol_set_default(&set);
	ir_keymap_protocols(km, &named);
	for (unsigned q = 0; q < IR_PROTO_COUNT; q++)
		if (ir_protocol_set_has(&named, (enum ir_protocol)q))
			ir_protocol_set_add(&set, (enum ir_protocol)q);
	for (size_t k = 0; k < nkeys; k++) {
		struct ir_edge_buf b = { 0 };
		struct frame_log *log = calloc(1, sizeof(*log));
		struct ir_decoder *dec = NULL;
		bool found = false;

		assert_non_null(log);
		assert_int_equal(ir_edge_buf_space(&b, PRESS_GAP_US), 0);
		add_toggled_press(&b, p, codes[k], 1);
		assert_int_equal(ir_decoder_new(&set, frame_log_add, log, &dec), 0);
		assert_int_equal(ir_keymap_attach(km, dec), 0);
		ir_decoder_feed_many(dec, b.edges, b.len);
		ir_decoder_flush(dec);
		ir_decoder_free(dec);
		for (size_t f = 0; f < log->count; f++) {
			struct ir_key_binding kb;

			if (ir_keymap_lookup(km, &log->frames[f], &kb)) {
				if (strcmp(kb.key, keys[k]))
					fail_msg("%s: a fresh press of %s reads as %s",
						 ir_protocol_get(p)->name, keys[k], kb.key);
				found = true;
			}
		}
		if (!found)
			fail_msg("%s: a fresh press of %s (0x%llx) is no key of the file",
				 ir_protocol_get(p)->name, keys[k], (unsigned long long)codes[k]);
		ir_edge_buf_free(&b);
		free(log);
	}
	ir_keymap_free(km);
}

/* Every protocol irjack encodes: three keys pressed twice each (toggle
 * flipping between presses) -> learn -> the file it writes -> load ->
 * decode fresh presses -> the same keys. */
static void test_every_protocol_round_trips_through_the_file(void **state)
{
	static const char *const keys[] = { "KEY_POWER", "KEY_VOLUMEUP", "KEY_VOLUMEDOWN" };
	char path[] = "/tmp/irjack-test-learn-XXXXXX";
	int fd = mkstemp(path);
	struct test_rng rng = { 0x5eed };
	size_t protocols = 0;
	(void)state;

	assert_true(fd >= 0);
	close(fd);
	for (size_t i = 0; i < ir_protocol_count(); i++) {
		const struct ir_protocol_info *info = ir_protocol_at(i);
		const struct ir_family *family = ir_protocol_family(info->id);
		struct ir_learn_input *in;
		struct ir_learn_result *res;
		/* a press ends at 100 ms of darkness, or later where the
		 * protocol's own frames are further apart (Blaupunkt's held
		 * key: 120.8 ms between frames) */
		uint32_t gap = info->min_trailing_space_us >= 100000
				       ? info->min_trailing_space_us + 50000
				       : 100000;
		struct ir_learn_options opt = {
			.gap_us = gap, .keys = keys, .key_count = 3, .per_key = 2,
		};
		struct ir_learn_check check;
		uint64_t codes[3];
		char err[512] = "";
		int ret;

		/* the generic family's protocols are made of a keymap's
		 * parameters (test_learn.sh learns made-up ones); lirc's of
		 * a lircd.conf remote */
		if (!info->has_encoder || (family && family->parametric))
			continue;
		in = input_new();
		res = calloc(1, sizeof(*res));
		assert_non_null(res);
		for (size_t k = 0; k < 3; k++) {
			do
				codes[k] = random_scancode(&rng, info);
			while ((k > 0 && codes[k] == codes[0]) || (k > 1 && codes[k] == codes[1]));
			for (unsigned j = 0; j < 2; j++)
				add_toggled_press(&in->edges, info->id, codes[k], j);
		}
		assert_int_equal(ir_learn_input_decode(in), 0);
		ret = ir_learn_remote(in, &opt, res, err, sizeof(err));
		if (ret < 0)
			fail_msg("%s: learn: %s", info->name, err);
		ret = ir_learn_save(in, res, "test", path, &check, err, sizeof(err));
		if (ret < 0)
			fail_msg("%s: learned as %s, not saved: %s (codes 0x%llx 0x%llx 0x%llx)",
				 info->name, ir_learn_method_name(res), err,
				 (unsigned long long)codes[0], (unsigned long long)codes[1],
				 (unsigned long long)codes[2]);
		if (check.presses_ok != 6)
			fail_msg("%s: learned as %s, the file names %zu/6 presses (%s)", info->name,
				 ir_learn_method_name(res), check.presses_ok, check.warning);
		expect_file_names_keys(path, info->id, codes, keys, 3);
		printf("%-13s learned as %s\n", info->name, ir_learn_method_name(res));
		protocols++;
		ir_learn_result_free(res);
		free(res);
		input_free(in);
	}
	unlink(path);
	assert_true(protocols >= 55);
}

/* Two keys pressed with one code: the file would name KEY_A's presses
 * KEY_B (a later binding of a code replaces the earlier, as in
 * ir-keytable), so nothing is written and the reason names the press. */
static void test_a_file_that_misnames_presses_is_not_written(void **state)
{
	static const char *const keys[] = { "KEY_A", "KEY_B" };
	struct ir_learn_input *in = input_new();
	struct ir_learn_result *res = calloc(1, sizeof(*res));
	struct ir_learn_options opt = { .gap_us = 100000, .keys = keys, .key_count = 2, .per_key = 2 };
	struct ir_learn_check check;
	char dir[] = "/tmp/irjack-test-learn-XXXXXX", path[64], err[512] = "";
	(void)state;

	assert_non_null(res);
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/remote.toml", dir);
	for (int i = 0; i < 4; i++)
		add_press(&in->edges, IR_PROTO_NEC, 0x0408);
	assert_int_equal(ir_learn_input_decode(in), 0);
	assert_int_equal(ir_learn_remote(in, &opt, res, err, sizeof(err)), 0);
	assert_int_equal(ir_learn_save(in, res, "r", path, &check, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "press 1 (KEY_A) reads as KEY_B"));
	assert_int_equal(access(path, F_OK), -1); /* nor a temporary left */
	assert_int_equal(rmdir(dir), 0);
	ir_learn_result_free(res);
	free(res);
	input_free(in);
}

/* Feeds every edge of `b` to the guide; returns the last step a press
 * made (IR_LEARN_STEP_NONE if none), *heard from it. */
static int feed_guide(struct ir_learn_guide *g, const struct ir_edge_buf *b,
		      struct ir_learn_heard *heard)
{
	int last = IR_LEARN_STEP_NONE;

	for (size_t i = 0; i < b->len; i++) {
		struct ir_learn_heard h;
		int step = ir_learn_guide_edge(g, &b->edges[i], &h);

		if (step < 0)
			return step;
		if (step != IR_LEARN_STEP_NONE) {
			last = step;
			*heard = h;
		}
	}
	return last;
}

/* irrecord's way: a key is asked for until two presses in a row agree;
 * unknown timings agree by length; a press of light is refused. */
static void test_guide_asks_until_two_presses_agree(void **state)
{
	static const char *const keys[] = { "KEY_A", "KEY_B" };
	struct ir_learn_guide *g = NULL;
	struct ir_learn_heard h;
	struct ir_edge_buf b = { 0 };
	struct ir_learn_input *in = calloc(1, sizeof(*in));
	(void)state;

	assert_non_null(in);
	assert_int_equal(ir_learn_guide_new(keys, 2, 100000, &g), 0);
	assert_string_equal(ir_learn_guide_key(g), "KEY_A");
	add_press(&b, IR_PROTO_NEC, 0x0408);
	assert_int_equal(feed_guide(g, &b, &h), IR_LEARN_STEP_HEARD);
	assert_string_equal(h.what, "nec 0x408");
	b.len = 0;
	add_press(&b, IR_PROTO_NEC, 0x0409);
	assert_int_equal(feed_guide(g, &b, &h), IR_LEARN_STEP_MISMATCH);
	assert_string_equal(h.before, "nec 0x408");
	b.len = 0;
	add_press(&b, IR_PROTO_NEC, 0x0409); /* agrees with the press before */
	assert_int_equal(feed_guide(g, &b, &h), IR_LEARN_STEP_CONFIRMED);
	assert_string_equal(h.key, "KEY_A");
	assert_string_equal(h.next_key, "KEY_B");
	/* KEY_B: light no protocol reads, twice the same length */
	b.len = 0;
	add_glitch(&b);
	assert_int_equal(feed_guide(g, &b, &h), IR_LEARN_STEP_HEARD);
	assert_string_equal(h.what, "unknown timings, 7 durations");
	/* 4097 durations in one press: refused, the key still waits */
	b.len = 0;
	for (int i = 0; i < 2049; i++) {
		assert_int_equal(ir_edge_buf_pulse(&b, 500), 0);
		assert_int_equal(ir_edge_buf_space(&b, 500), 0);
	}
	assert_int_equal(feed_guide(g, &b, &h), -E2BIG);
	/* its last 2 durations and the silence after it are no press */
	b.len = 0;
	assert_int_equal(ir_edge_buf_pulse(&b, 500), 0);
	assert_int_equal(ir_edge_buf_space(&b, 500), 0);
	assert_int_equal(ir_edge_buf_space(&b, PRESS_GAP_US), 0);
	assert_int_equal(feed_guide(g, &b, &h), IR_LEARN_STEP_NONE);
	b.len = 0;
	add_glitch(&b);
	assert_int_equal(feed_guide(g, &b, &h), IR_LEARN_STEP_DONE);
	assert_null(ir_learn_guide_key(g));
	/* the input: KEY_A's two agreeing presses, KEY_B's two */
	assert_int_equal(ir_learn_guide_input(g, in), 0);
	assert_int_equal(in->frame_count, 2);
	assert_int_equal(in->frames[0].scancode, 0x0409);
	assert_int_equal(in->frames[1].scancode, 0x0409);
	ir_edge_buf_free(&b);
	ir_learn_guide_free(g);
	input_free(in);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_press_of_a_key_not_decoded),
		cmocka_unit_test(test_raw_reference_is_the_common_length),
		cmocka_unit_test(test_every_protocol_round_trips_through_the_file),
		cmocka_unit_test(test_a_file_that_misnames_presses_is_not_written),
		cmocka_unit_test(test_guide_asks_until_two_presses_agree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
