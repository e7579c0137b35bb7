/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rc_keymaps TOML: every keymap Debian's ir-keytable ships loads, buttons
 * are found by the frames that name them, and malformed files are refused
 * with the line at fault.
 */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include <linux/input-event-codes.h>

#include "ir_keymap.h"
#include "ir_keymap_loaders.h"

#define RC_KEYMAPS "/lib/udev/rc_keymaps"

static void test_debian_keymaps_load(void **state)
{
	DIR *dir = opendir(RC_KEYMAPS);
	struct dirent *ent;
	unsigned files = 0;
	size_t keys = 0;

	(void)state;
	if (!dir) {
		/* ir-keytable is in the suite's packages: its absence is a failure */
		fail_msg("%s missing: install ir-keytable", RC_KEYMAPS);
	}
	while ((ent = readdir(dir)) != NULL) {
		char path[512];
		struct ir_keymap *km;
		struct ir_keymap_error err = { 0 };
		size_t n = strlen(ent->d_name);

		if (n < 6 || strcmp(ent->d_name + n - 5, ".toml"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", RC_KEYMAPS, ent->d_name);
		assert_int_equal(ir_keymap_new(&km), 0);
		if (ir_keymap_load(km, path, &err) != 0)
			fail_msg("%s:%u: %s", err.file, err.parse.line, err.parse.message);
		assert_true(ir_keymap_remote_count(km) >= 1);
		keys += ir_keymap_key_count(km);
		files++;
		ir_keymap_free(km);
	}
	closedir(dir);
	printf("rc_keymaps: %u files, %zu bindings loaded\n", files, keys);
	assert_true(files >= 140);
	assert_true(keys >= 5000);
}

static void test_bindings_found_by_frames(void **state)
{
	struct ir_keymap *km;
	struct ir_keymap_error err;
	struct ir_key_binding b;
	struct ir_frame f = { .protocol = IR_PROTO_NECX, .scancode = 0x866b12 };

	(void)state;
	assert_int_equal(ir_keymap_new(&km), 0);
	/* the whole folder at once, as `--keymap /lib/udev/rc_keymaps` */
	assert_int_equal(ir_keymap_load(km, RC_KEYMAPS, &err), 0);
	/* hauppauge.toml: rc5 0x1e3d = KEY_POWER2 (a Hauppauge remote's power) */
	f = (struct ir_frame){ .protocol = IR_PROTO_RC5, .scancode = 0x1e3d };
	assert_true(ir_keymap_lookup(km, &f, &b));
	assert_int_equal(b.keycode, KEY_POWER2);
	ir_keymap_free(km);

	/* a keymap without variant binds every variant; "unknown" any protocol */
	assert_int_equal(ir_keymap_new(&km), 0);
	const char *text = "[[protocols]]\nname = 'tv'\nprotocol = 'nec'\n"
			   "[protocols.scancodes]\n0x866b12 = 'KEY_OK' # extended\n"
			   "\"0x04fb\" = \"KEY_POWER\"\n"
			   "[[protocols]]\nname = \"old\"\nprotocol = \"unknown\"\n"
			   "[protocols.scancodes]\n0x1e01 = \"KEY_1\"\n";
	assert_int_equal(ir_keymap_parse_toml(km, text, strlen(text), NULL), 0);
	f = (struct ir_frame){ .protocol = IR_PROTO_NECX, .scancode = 0x866b12 };
	assert_true(ir_keymap_lookup(km, &f, &b));
	assert_string_equal(b.key, "KEY_OK");
	assert_string_equal(b.remote, "tv");
	f = (struct ir_frame){ .protocol = IR_PROTO_NEC, .scancode = 0x04fb };
	assert_true(ir_keymap_lookup(km, &f, &b));
	assert_int_equal(b.keycode, KEY_POWER);
	f = (struct ir_frame){ .protocol = IR_PROTO_RC5, .scancode = 0x1e01 };
	assert_true(ir_keymap_lookup(km, &f, &b));
	assert_string_equal(b.remote, "old");
	ir_keymap_free(km);
}

static void expect_error(const char *text, unsigned line, const char *words)
{
	struct ir_keymap *km;
	struct ir_parse_error err = { 0 };

	assert_int_equal(ir_keymap_new(&km), 0);
	assert_int_equal(ir_keymap_parse_toml(km, text, strlen(text), &err), -EINVAL);
	if (err.line != line || !strstr(err.message, words))
		fail_msg("'%s': got line %u '%s', want line %u '%s'", text, err.line, err.message,
			 line, words);
	ir_keymap_free(km);
}

static void test_malformed(void **state)
{
	static const char head[] = "[[protocols]]\nname = 'x'\nprotocol = 'nec'\n[protocols.scancodes]\n";
	char text[512];

	(void)state;
	snprintf(text, sizeof(text), "%s0x10 = KEY_A\n", head);
	expect_error(text, 5, "in quotes");
	snprintf(text, sizeof(text), "%s0x10 'KEY_A'\n", head);
	expect_error(text, 5, "expected '='");
	snprintf(text, sizeof(text), "%s0xZZ = 'KEY_A'\n", head);
	expect_error(text, 5, "not a valid");
	snprintf(text, sizeof(text), "%s0x10 = 'KEY_A\n", head);
	expect_error(text, 5, "unterminated");
	snprintf(text, sizeof(text), "%s0x10 = 'KEY_A' x\n", head);
	expect_error(text, 5, "after the value");
	expect_error("[[protocols]]\nname = 'x'\n[protocols.scancodes]\n0x1 = 'KEY_A'\n", 3,
		     "no 'protocol'");
	expect_error("[[protocols]]\nprotocol = 'nec'\nvariant = 'nec99'\n[protocols.scancodes]\n", 4,
		     "unknown variant");
	expect_error("[[protocols]]\nprotocol = 'nec'\n[protocols.keys]\n", 3, "unknown table");
	expect_error("name = 'x'\n", 1, "outside");
	expect_error("[protocols.scancodes]\n", 1, "outside");
	expect_error("[[protocols]]\nprotocol = 'pulse_distance'\nbits = 'many'\n", 3, "number");
	expect_error("# nothing\n", 1, "no [[protocols]]");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_debian_keymaps_load),
		cmocka_unit_test(test_bindings_found_by_frames),
		cmocka_unit_test(test_malformed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
