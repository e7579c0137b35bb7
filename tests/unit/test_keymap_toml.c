/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rc_keymaps TOML: every file ir-keytable installs loads with the bindings
 * it says; malformed input is refused with its line; remotes described by
 * timings (pulse_distance, pulse_length, manchester, raw) encode and decode
 * back to their keys through the generic family.
 */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <linux/input-event-codes.h>

#include "ir_family.h"
#include "ir_keymap.h"
#include "ir_keymap_file.h"
#include "ir_keymap_loaders.h"
#include "ir_keymap_toml.h"
#include "ir_util.h"
#include "test_util.h"

#define RC_KEYMAPS "/lib/udev/rc_keymaps"

static bool have_rc_keymaps(void)
{
	DIR *d = opendir(RC_KEYMAPS);

	if (!d)
		return false;
	closedir(d);
	return true;
}

static struct ir_keymap *parse(const char *text, int want, unsigned want_line)
{
	struct ir_keymap *km;
	struct ir_parse_error err = { 0 };
	int ret;

	assert_int_equal(ir_keymap_new(&km), 0);
	ret = ir_keymap_parse_toml(km, text, strlen(text), &err);
	if (ret != want || (want && err.line != want_line))
		fail_msg("parse gave %d at line %u (%s), expected %d at line %u:\n%s", ret, err.line,
			 err.message, want, want_line, text);
	if (want)
		assert_true(err.message[0] != '\0');
	return km;
}

static bool lookup(const struct ir_keymap *km, enum ir_protocol p, uint16_t id, uint64_t sc,
		   struct ir_key_binding *b)
{
	struct ir_frame f = { .protocol = p, .scancode = sc, .decoder_id = id };

	return ir_keymap_lookup(km, &f, b);
}

/* Every protocol `irjack protocols` lists is nameable in a keymap, by its
 * own name and by the protocol/variant a keymap irjack writes gives it,
 * and a frame of it with the bound scancode finds the key. */
static void test_every_irjack_protocol_is_nameable(void **state)
{
	(void)state;
	for (size_t i = 0; i < ir_protocol_count(); i++) {
		const struct ir_protocol_info *info = ir_protocol_at(i);
		const struct ir_family *family = ir_protocol_family(info->id);
		bool generic = family && family->parametric && info->id != IR_PROTO_LIRC;
		uint64_t sc = generic ? 0 : 0x5a5a5a5a5a5aull & info->scancode_mask;
		const char *written, *variant;

		ir_keymap_toml_protocol_name(info->id, &written, &variant);
		assert_non_null(written);
		for (int form = 0; form < 2; form++) {
			char text[512];
			struct ir_keymap *km;
			struct ir_key_binding b;

			if (info->id == IR_PROTO_RAW)
				snprintf(text, sizeof(text),
					 "[[protocols]]\nprotocol = \"%s\"\n[[protocols.raw]]\n"
					 "keycode = \"KEY_OK\"\nraw = \"+500 -500 +500\"\n",
					 form ? written : info->name);
			else
				snprintf(text, sizeof(text),
					 "[[protocols]]\nprotocol = \"%s\"\n%s%s%s"
					 "[protocols.scancodes]\n0x%llx = \"KEY_OK\"\n",
					 form ? written : info->name, form && variant ? "variant = \"" : "",
					 form && variant ? variant : "", form && variant ? "\"\n" : "",
					 (unsigned long long)sc);
			km = parse(text, 0, 0);
			if (info->id != IR_PROTO_LIRC) {
				if (!lookup(km, info->id, generic ? 1 : 0, sc, &b))
					fail_msg("%s: a frame of it finds no key in\n%s", info->name, text);
				assert_string_equal(b.key, "KEY_OK");
			}
			ir_keymap_free(km);
		}
	}
}

/* (a) every installed rc_keymaps file loads, one at a time and as a
 * directory, with the bindings its lines say */
static void test_every_rc_keymap_loads(void **state)
{
	struct dirent **names;
	struct ir_keymap *km, *all;
	struct ir_keymap_error err;
	struct ir_key_binding b;
	size_t files = 0, keys = 0;
	int n;

	(void)state;
	if (!have_rc_keymaps())
		skip();
	n = scandir(RC_KEYMAPS, &names, NULL, alphasort);
	assert_true(n > 0);
	for (int i = 0; i < n; i++) {
		char path[512];
		size_t len = strlen(names[i]->d_name);

		if (len > 5 && !strcmp(names[i]->d_name + len - 5, ".toml")) {
			snprintf(path, sizeof(path), "%s/%s", RC_KEYMAPS, names[i]->d_name);
			assert_int_equal(ir_keymap_new(&km), 0);
			memset(&err, 0, sizeof(err));
			if (ir_keymap_load(km, path, &err))
				fail_msg("%s:%u: %s", err.file, err.parse.line, err.parse.message);
			assert_true(ir_keymap_remote_count(km) >= 1);
			files++;
			keys += ir_keymap_key_count(km);
			ir_keymap_free(km);
		}
		free(names[i]);
	}
	free(names);
	printf("rc_keymaps: %zu files, %zu bindings\n", files, keys);
	assert_true(files >= 140);
	assert_true(keys >= 5000);

	/* (d) the directory at once: the same bindings */
	assert_int_equal(ir_keymap_new(&all), 0);
	memset(&err, 0, sizeof(err));
	assert_int_equal(ir_keymap_load(all, RC_KEYMAPS, &err), 0);
	assert_int_equal(ir_keymap_key_count(all), keys);

	/* spot checks against the files' text */
	/* hauppauge.toml: rc5, 0x1e3d = KEY_POWER2 (bound for rc5 and rc5x_20) */
	assert_true(lookup(all, IR_PROTO_RC5, 0, 0x1e3d, &b));
	assert_string_equal(b.key, "KEY_POWER2");
	assert_true(lookup(all, IR_PROTO_RC5X_20, 0, 0x1e3d, &b));
	/* rc6_mce.toml: variant rc6_mce, 0x800f040c = KEY_SLEEP */
	assert_true(lookup(all, IR_PROTO_RC6_MCE, 0, 0x800f040c, &b));
	assert_string_equal(b.key, "KEY_SLEEP");
	assert_int_equal(b.keycode, KEY_SLEEP);
	assert_false(lookup(all, IR_PROTO_RC6_0, 0, 0x800f040c, &b));
	/* samsung_ak59_00125a.toml's second remote: samsung36 */
	assert_true(lookup(all, IR_PROTO_SAMSUNG, 0, 0x400e00ff, &b));
	assert_string_equal(b.key, "KEY_POWER");
	ir_keymap_free(all);
}

static void test_bindings_by_protocol_and_variant(void **state)
{
	struct ir_keymap *km;
	struct ir_key_binding b;

	(void)state;
	km = parse("# a comment\n"
		   "[[protocols]]\n"
		   "name = \"tv\"  # trailing comment\n"
		   "protocol = 'nec'\n"
		   "variant = \"necx\"\n"
		   "[protocols.scancodes]\n"
		   "0x04fb08 = \"KEY_POWER\"\n"
		   "'0x10' = 'KEY_\\MUTE'\n" /* literal: no escapes */
		   "\"17\" = \"KEY_\\u0041\"\n"
		   "[[protocols]]\n"
		   "protocol = \"sony\"\n"
		   "[protocols.scancodes]\n"
		   "0x10015 = \"KEY_NOT_IN_LINUX\"\n"
		   "[[protocols]]\n"
		   "protocol = \"unknown\"\n"
		   "[protocols.scancodes]\n"
		   "0x1e01 = \"KEY_OK\"\n"
		   "[[protocols]]\n"
		   "protocol = \"cec\"\n"
		   "[protocols.scancodes]\n"
		   "0x4401 = \"KEY_UP\"\n",
		   0, 0);
	assert_int_equal(ir_keymap_remote_count(km), 4);
	assert_string_equal(ir_keymap_remote_name(km, 0), "tv");
	assert_string_equal(ir_keymap_remote_name(km, 1), "sony"); /* no name: the protocol */
	assert_true(lookup(km, IR_PROTO_NECX, 0, 0x04fb08, &b));
	assert_int_equal(b.keycode, KEY_POWER);
	assert_false(lookup(km, IR_PROTO_NEC, 0, 0x04fb08, &b)); /* variant: necx only */
	assert_true(lookup(km, IR_PROTO_NECX, 0, 0x10, &b));
	assert_string_equal(b.key, "KEY_\\MUTE");
	assert_true(lookup(km, IR_PROTO_NECX, 0, 17, &b));
	assert_string_equal(b.key, "KEY_A");
	assert_int_equal(b.keycode, KEY_A);
	/* no variant: every protocol of the family; unknown names keep keycode -1 */
	assert_true(lookup(km, IR_PROTO_SONY12, 0, 0x10015, &b));
	assert_true(lookup(km, IR_PROTO_SONY20, 0, 0x10015, &b));
	assert_string_equal(b.key, "KEY_NOT_IN_LINUX");
	assert_int_equal(b.keycode, -1);
	/* unknown and undecodable protocols: by scancode alone */
	assert_true(lookup(km, IR_PROTO_RC5, 0, 0x1e01, &b));
	assert_string_equal(b.key, "KEY_OK");
	assert_true(lookup(km, IR_PROTO_NEC, 0, 0x4401, &b));
	assert_string_equal(b.key, "KEY_UP");
	/* 3 + 3 + 1 + 1 bindings */
	assert_int_equal(ir_keymap_key_count(km), 8);
	ir_keymap_free(km);
}

/* (b) malformed snippets: -EINVAL at the right line */
static void test_malformed_is_refused_with_line(void **state)
{
	static const struct {
		const char *text;
		unsigned line;
	} bad[] = {
		{ "0x10 = \"KEY_A\"\n", 1 },
		{ "[[protocols]]\nprotocol = \"nec\"\n[protocols.scancodes]\n0x10 = KEY_A\n", 4 },
		{ "[[protocols]]\nprotocol = \"nec\"\n[protocols.scancodes]\n0x1g = \"KEY_A\"\n", 4 },
		{ "[[protocols]]\nprotocol = \"nec\"\n[protocols.scancodes]\n0x10 = \"KEY_A\n", 4 },
		{ "[[protocols]]\nprotocol = \"nec\"\n[protocols.scancodes]\n0x10 = \"KEY_A\" x\n", 4 },
		{ "[[protocols]]\nprotocol = \"nec\"\n[protocols.scancodes]\n0x10 = \"\\q\"\n", 4 },
		{ "[[protocols]]\nprotocol = \"nec\"\n[protocols.scancodes]\n0x10 = \"\"\n", 4 },
		{ "[[protocols]]\nprotocol = \"nec\"\n[protocols.scancodes]\n"
		  "0x1ffffffffffffffff = \"KEY_A\"\n", 4 },
		{ "[[protocols]]\nprotocol = \"frobnicate\"\n[protocols.scancodes]\n", 3 },
		{ "[[protocols]]\nprotocol = \"nec\"\nvariant = \"rc5\"\n[protocols.scancodes]\n", 4 },
		{ "[[protocols]]\nname = \"a\"\nname = \"b\"\n", 3 },
		{ "[[protocols]]\nprotocol = \"nec\"\nbits = 32\n", 3 },
		{ "[[protocols]]\nprotocol = \"pulse_distance\"\nbits = 99\n", 3 },
		{ "[[protocols]]\nprotocol = \"pulse_distance\"\nfoo = 1\n", 3 },
		{ "[[protocols]]\nprotocol = \"pulse_distance\"\nbits = [1]\n", 3 },
		{ "[[protocols]]\nprotocol = \"pulse_distance\"\nbit_1_space = 400\n"
		  "[protocols.scancodes]\n", 4 },
		{ "[[protocols]]\nname = \"\"\"x\"\"\"\n", 2 },
		{ "[[protocols]]\nprotocol.x = \"nec\"\n", 2 },
		{ "[[protocols]]\nprotocol = \"nec\"\n[other]\n", 3 },
		{ "[[protocols]]\n[protocols.scancodes]\n", 2 },
		{ "# nothing\n", 1 },
		{ "[[protocols]]\nprotocol = \"raw\"\n[[protocols.raw]]\nkeycode = \"KEY_A\"\n"
		  "raw = \"+100 +200\"\n", 3 },
		{ "[[protocols]]\nprotocol = \"nec\"\n[[protocols.raw]]\n", 3 },
		{ "[[protocols]]\nprotocol = \"raw\"\n", 2 },
		{ "[[protocols]]\nprotocol 'nec'\n", 2 },
		{ "[[protocols]]\nprotocol = 'nec\n", 2 },
		{ "[[protocols]]\nprotocol = 'nec'\n[protocols.scancodes]\nfoo = 'KEY_A'\n", 4 },
		{ "[[protocols]]\nprotocol = 'nec'\n\n[protocols.weird]\n", 4 },
		{ "[[protocols]]\nprotocol = 'nec' junk\n", 2 },
		{ "[[protocols]]\nbits = 0xfffffffffffffffff\n", 2 },
		{ "[[protocols]]\nname = 'x'\n[protocols.scancodes]\n", 3 },
		{ "[protocols.scancodes]\n", 1 },
		{ "[[protocols]]\nprotocol = 'nec'\n[protocols.scancodes]\n0x1 = 'A'\n"
		  "[protocols.scancodes]\n", 5 },
		{ "[[protocols]]\nprotocol = 'nec'\nvariant = 'necx'\nvariant = 'nec'\n", 4 },
		{ "[[protocols]]\nprotocol = 'unknown'\nvariant = 'nec'\n[protocols.scancodes]\n", 4 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ir_keymap_free(parse(bad[i].text, -EINVAL, bad[i].line));
}

static void test_bounds(void **state)
{
	struct ir_keymap *km;
	struct ir_parse_error err = { 0 };
	size_t cap = 100001 * 24 + 200, len;
	char *text = malloc(cap);

	(void)state;
	assert_non_null(text);
	/* a line over 20480 bytes */
	len = (size_t)sprintf(text, "[[protocols]]\nname = \"");
	memset(text + len, 'a', 21000);
	len += 21000;
	len += (size_t)sprintf(text + len, "\"\n");
	assert_int_equal(ir_keymap_new(&km), 0);
	assert_int_equal(ir_keymap_parse_toml(km, text, len, &err), -EINVAL);
	assert_int_equal(err.line, 2);
	ir_keymap_free(km);
	/* a NUL byte inside */
	assert_int_equal(ir_keymap_new(&km), 0);
	assert_int_equal(ir_keymap_parse_toml(km, "[[protocols]]\n\0x", 16, &err), -EINVAL);
	assert_int_equal(err.line, 2);
	ir_keymap_free(km);
	/* 100000 keys load, one more does not */
	len = (size_t)sprintf(text, "[[protocols]]\nprotocol = \"jvc\"\n[protocols.scancodes]\n");
	for (unsigned i = 0; i <= 100000; i++)
		len += (size_t)sprintf(text + len, "%u = \"KEY_A\"\n", i);
	assert_int_equal(ir_keymap_new(&km), 0);
	assert_int_equal(ir_keymap_parse_toml(km, text, len, &err), -EINVAL);
	assert_int_equal(err.line, 3 + 100001);
	ir_keymap_free(km);
	free(text);
}

/* (c) every key of a remote: encode, decode with the keymap's decoders,
 * look the frame up; returns the number of keys checked */
static size_t roundtrip_remote(const struct ir_keymap *km, unsigned remote)
{
	struct ir_protocol_set set;
	size_t checked = 0;

	ir_keymap_protocols(km, &set);
	for (size_t i = 0; i < ir_keymap_key_count(km); i++) {
		const struct ir_keymap_key *k = ir_keymap_key_at(km, i);
		struct frame_log *log = calloc(1, sizeof(*log));
		struct ir_edge_buf buf = { 0 };
		struct ir_decoder *dec;
		bool found = false;

		assert_non_null(log);
		if (k->remote != remote)
			goto next;
		assert_int_equal(ir_keymap_encode(km, ir_keymap_remote_name(km, remote), k->key, 0,
						  &buf), 0);
		assert_int_equal(ir_decoder_new(&set, frame_log_add, log, &dec), 0);
		assert_int_equal(ir_keymap_attach(km, dec), 0);
		ir_decoder_feed_many(dec, buf.edges, buf.len);
		ir_decoder_flush(dec);
		ir_decoder_free(dec);
		for (size_t f = 0; f < log->count; f++) {
			struct ir_key_binding b;

			if (ir_keymap_lookup(km, &log->frames[f], &b) && b.remote_index == remote &&
			    !strcmp(b.key, k->key))
				found = true;
		}
		if (!found)
			fail_msg("%s %s (0x%llx): %zu frames, none is the key",
				 ir_keymap_remote_name(km, remote), k->key,
				 (unsigned long long)k->scancode, log->count);
		checked++;
next:
		ir_edge_buf_free(&buf);
		free(log);
	}
	return checked;
}

static void test_pulse_distance_files_roundtrip(void **state)
{
	static const struct {
		const char *file;
		size_t keys; /* of the first remote, counted in the file */
	} files[] = { { "dish_network.toml", 49 }, { "samsung_ak59_00125a.toml", 7 } };

	(void)state;
	if (!have_rc_keymaps())
		skip();
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct ir_keymap *km;
		struct ir_keymap_error err = { 0 };
		char path[256];
		size_t checked = 0;

		snprintf(path, sizeof(path), "%s/%s", RC_KEYMAPS, files[i].file);
		assert_int_equal(ir_keymap_new(&km), 0);
		assert_int_equal(ir_keymap_load(km, path, &err), 0);
		/* the first remote is the pulse_distance one; the Samsung
		 * file's second remote (samsung36) is checked by lookup in
		 * test_every_rc_keymap_loads: rc-core's samsung36 scancode
		 * layout is ir-keytable's BPF one, not verified here against
		 * irjack's samsung encoder */
		checked = roundtrip_remote(km, 0);
		printf("%s: %zu keys encoded and decoded back\n", files[i].file, checked);
		assert_int_equal(checked, files[i].keys);
		ir_keymap_free(km);
	}
}

static void test_synthetic_generic_roundtrip(void **state)
{
	static const char *const texts[] = {
		"[[protocols]]\nname = \"pl\"\nprotocol = \"pulse_length\"\n"
		"header_pulse = 2400\nheader_space = 600\nbit_space = 600\n"
		"bit_0_pulse = 600\nbit_1_pulse = 1200\nbits = 12\nmargin = 150\n"
		"[protocols.scancodes]\n0x095 = \"KEY_POWER\"\n0xfff = \"KEY_MUTE\"\n"
		"0x000 = \"KEY_A\"\n0x801 = \"KEY_B\"\n",
		/* RC-5-like: no header, so the first bit is a 1 */
		"[[protocols]]\nname = \"m\"\nprotocol = \"manchester\"\nbits = 14\n"
		"toggle_bit = 11\n[protocols.scancodes]\n0x300c = \"KEY_POWER\"\n"
		"0x37ff = \"KEY_MUTE\"\n0x2000 = \"KEY_A\"\n0x2555 = \"KEY_B\"\n",
		"[[protocols]]\nname = \"mh\"\nprotocol = \"manchester\"\nheader_pulse = 2666\n"
		"header_space = 889\nzero_pulse = 444\nzero_space = 444\none_pulse = 444\n"
		"one_space = 444\nmargin = 150\nbits = 20\nreverse = true\n"
		"[protocols.scancodes]\n0x0 = \"KEY_A\"\n0xfffff = \"KEY_B\"\n0x12345 = \"KEY_C\"\n",
		"[[protocols]]\nname = \"r\"\nprotocol = \"raw\"\n"
		"[[protocols.raw]]\nkeycode = \"KEY_POWER\"\nraw = \"+3000 -1000 +500 -500 +500\"\n"
		"[[protocols.raw]]\nkeycode = 'KEY_MUTE'\nraw = \"3000 1000 500 1500 500 -20000\"\n",
		"[[protocols]]\nname = \"pd\"\nprotocol = \"pulse_distance\"\nreverse = 1\nbits = 40\n"
		"header_pulse = 0\nheader_space = 0\ntrailer_pulse = 625\n"
		"[protocols.scancodes]\n0x8000000001 = \"KEY_A\"\n0x5a5a5a5a5a = \"KEY_B\"\n",
	};
	static const size_t want[] = { 4, 4, 3, 2, 2 };

	(void)state;
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		struct ir_keymap *km = parse(texts[i], 0, 0);

		assert_int_equal(roundtrip_remote(km, 0), want[i]);
		ir_keymap_free(km);
	}
}

/* Raw keys of 1, 256 and 2048 durations (whole-state air-conditioner
 * frames) load, encode and decode back to their key, each beside the
 * others; 2049 durations are refused with the line. */
static void test_raw_bounds(void **state)
{
	static const size_t counts[] = { 1, 256, 2047 };
	size_t cap = 3 * (2049 * 8 + 64) + 256, len;
	char *text = malloc(cap);
	struct ir_keymap *km;
	struct test_rng rng = { 0x1234 };

	(void)state;
	assert_non_null(text);
	len = (size_t)sprintf(text, "[[protocols]]\nname = \"ac\"\nprotocol = \"raw\"\n");
	for (size_t k = 0; k < ARRAY_SIZE(counts); k++) {
		len += (size_t)sprintf(text + len, "[[protocols.raw]]\nkeycode = \"KEY_%c\"\nraw = \"",
				       (int)('A' + k));
		/* a header, then pulse-distance bits of random values; a
		 * trailing space brings 2047 to 2048 durations in the text.
		 * The 1-duration key is a pulse no other key has (a key that
		 * is the tail of another's timings would name its frames). */
		for (size_t i = 0; i < counts[k]; i++) {
			unsigned d = counts[k] == 1 ? 9000
				     : i < 2 ? (i ? 1700 : 3400)
				     : i % 2 ? (rng_next(&rng) & 1 ? 1290 : 430) : 430;

			len += (size_t)sprintf(text + len, "%s%c%u", i ? " " : "", i % 2 ? '-' : '+', d);
		}
		len += (size_t)sprintf(text + len, "%s\"\n", counts[k] == 2047 ? " -20000" : "");
	}
	km = parse(text, 0, 0);
	assert_int_equal(roundtrip_remote(km, 0), 3);
	ir_keymap_free(km);
	/* one more duration: refused, on the entry's line */
	len = (size_t)sprintf(text, "[[protocols]]\nprotocol = \"raw\"\n[[protocols.raw]]\n"
			      "keycode = \"KEY_A\"\nraw = \"");
	for (size_t i = 0; i < 2049; i++)
		len += (size_t)sprintf(text + len, "%s%c500", i ? " " : "", i % 2 ? '-' : '+');
	sprintf(text + len, "\"\n");
	ir_keymap_free(parse(text, -EINVAL, 3));
	free(text);
}

static void test_manchester_toggle_and_unencodable(void **state)
{
	struct ir_keymap *km;
	struct ir_edge_buf buf = { 0 };

	(void)state;
	/* no header: a first bit of 0 cannot be told from the idle line */
	km = parse("[[protocols]]\nname = \"m\"\nprotocol = \"manchester\"\nbits = 14\n"
		   "[protocols.scancodes]\n0x1000 = \"KEY_A\"\n0x40000 = \"KEY_B\"\n", 0, 0);
	assert_int_equal(ir_keymap_encode(km, "m", "KEY_A", 0, &buf), -EINVAL);
	/* wider than bits */
	assert_int_equal(ir_keymap_encode(km, "m", "KEY_B", 0, &buf), -EINVAL);
	ir_edge_buf_free(&buf);
	ir_keymap_free(km);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_rc_keymap_loads),
		cmocka_unit_test(test_bindings_by_protocol_and_variant),
		cmocka_unit_test(test_every_irjack_protocol_is_nameable),
		cmocka_unit_test(test_malformed_is_refused_with_line),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_pulse_distance_files_roundtrip),
		cmocka_unit_test(test_synthetic_generic_roundtrip),
		cmocka_unit_test(test_raw_bounds),
		cmocka_unit_test(test_manchester_toggle_and_unencodable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
