/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir-keytable's rc_keymaps TOML: every file Debian ships loads, bindings
 * match the file text, malformed input is -EINVAL with its line, and a
 * directory loads end to end.
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

#include "ir_keymap.h"
#include "ir_keymap_loaders.h"

#define RC_KEYMAPS "/lib/udev/rc_keymaps"

static int parse(const char *text, struct ir_keymap **km, struct ir_parse_error *err)
{
	assert_int_equal(ir_keymap_new(km), 0);
	return ir_keymap_parse_toml(*km, text, strlen(text), err);
}

static bool lookup(const struct ir_keymap *km, enum ir_protocol p, uint64_t sc,
		   struct ir_key_binding *b)
{
	struct ir_frame f = { .protocol = p, .scancode = sc };

	return ir_keymap_lookup(km, &f, b);
}

static void test_nec_family_binds_every_variant(void **state)
{
	struct ir_keymap *km;
	struct ir_parse_error err;
	struct ir_key_binding b;
	(void)state;

	assert_int_equal(parse("# remote\n[[protocols]]\nname = 'tv'\nprotocol = \"nec\"\n"
			       "[protocols.scancodes]\n0x0408 = \"KEY_POWER\"\n"
			       "0x040a = 'KEY_NOT_A_LINUX_NAME' # still loads\n",
			       &km, &err), 0);
	assert_int_equal(ir_keymap_remote_count(km), 1);
	assert_string_equal(ir_keymap_remote_name(km, 0), "tv");
	for (enum ir_protocol p = IR_PROTO_NEC; p <= IR_PROTO_NEC32; p++) {
		assert_true(lookup(km, p, 0x0408, &b));
		assert_string_equal(b.key, "KEY_POWER");
		assert_int_equal(b.keycode, KEY_POWER);
	}
	assert_true(lookup(km, IR_PROTO_NECX, 0x040a, &b));
	assert_int_equal(b.keycode, -1);
	assert_false(lookup(km, IR_PROTO_RC5, 0x0408, &b));
	ir_keymap_free(km);
}

static void test_variant_binds_one_protocol(void **state)
{
	struct ir_keymap *km;
	struct ir_parse_error err;
	struct ir_key_binding b;
	(void)state;

	assert_int_equal(parse("[[protocols]]\nprotocol = 'rc6'\nvariant = 'rc6_mce'\n"
			       "[protocols.scancodes]\n0x800f040c = 'KEY_POWER'\n",
			       &km, &err), 0);
	assert_string_equal(ir_keymap_remote_name(km, 0), "rc6");
	assert_true(lookup(km, IR_PROTO_RC6_MCE, 0x800f040c, &b));
	assert_false(lookup(km, IR_PROTO_RC6_6A_32, 0x800f040c, &b));
	ir_keymap_free(km);
}

static void test_unknown_protocol_binds_any(void **state)
{
	struct ir_keymap *km;
	struct ir_parse_error err;
	struct ir_key_binding b;
	(void)state;

	assert_int_equal(parse("[[protocols]]\nname = \"a\\tb\"\nprotocol = 'unknown'\n"
			       "[protocols.scancodes]\n17 = 'KEY_1'\n", &km, &err), 0);
	assert_string_equal(ir_keymap_remote_name(km, 0), "a\tb");
	assert_true(lookup(km, IR_PROTO_RC5, 17, &b));
	assert_true(lookup(km, IR_PROTO_SONY12, 17, &b));
	assert_int_equal(b.keycode, KEY_1);
	ir_keymap_free(km);
}

static void test_malformed_gives_line(void **state)
{
	static const struct {
		const char *text;
		unsigned line;
	} cases[] = {
		{ "[[protocols]]\nprotocol 'nec'\n", 2 },
		{ "[[protocols]]\nprotocol = 'nec\n", 2 },
		{ "[[protocols]]\nprotocol = 'nec'\n[protocols.scancodes]\n0x1 = KEY_A\n", 4 },
		{ "[[protocols]]\nprotocol = 'nec'\n[protocols.scancodes]\nfoo = 'KEY_A'\n", 4 },
		{ "[[protocols]]\nprotocol = 'nec'\n\n[protocols.weird]\n", 4 },
		{ "name = 'x'\n", 1 },
		{ "[[protocols]]\nprotocol = 'nec' junk\n", 2 },
		{ "[[protocols]]\nprotocol = \"a\\q\"\n", 2 },
		{ "[[protocols]]\nbits = 0xfffffffffffffffff\n", 2 },
		{ "[[protocols]]\nname = 'x'\n[protocols.scancodes]\n", 3 },
		{ "[protocols.scancodes]\n", 1 },
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ir_keymap *km;
		struct ir_parse_error err;

		assert_int_equal(parse(cases[i].text, &km, &err), -EINVAL);
		printf("case %zu: %s\n", i, err.message);
		assert_int_equal(err.line, cases[i].line);
		assert_non_null(strstr(err.message, "line "));
		ir_keymap_free(km);
	}
}

static void test_long_line_rejected(void **state)
{
	size_t n = 5000;
	char *text = malloc(n + 32);
	struct ir_keymap *km;
	struct ir_parse_error err;
	(void)state;

	assert_non_null(text);
	strcpy(text, "[[protocols]]\n#");
	memset(text + strlen(text), 'x', n);
	text[15 + n] = '\0';
	assert_int_equal(parse(text, &km, &err), -EINVAL);
	assert_int_equal(err.line, 2);
	ir_keymap_free(km);
	free(text);
}

/* Every keymap Debian's ir-keytable ships must load. */
static void test_all_rc_keymaps_load(void **state)
{
	DIR *d = opendir(RC_KEYMAPS);
	struct dirent *de;
	size_t files = 0, keys = 0;
	(void)state;

	/* Not a skip: run-suite installs ir-keytable, so its absence is a setup error. */
	if (!d)
		fail_msg("%s missing: install Debian's ir-keytable", RC_KEYMAPS);
	while ((de = readdir(d))) {
		char path[512];
		struct ir_keymap *km;
		struct ir_keymap_error err;
		size_t l = strlen(de->d_name);

		if (l < 6 || strcmp(de->d_name + l - 5, ".toml"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", RC_KEYMAPS, de->d_name);
		assert_int_equal(ir_keymap_new(&km), 0);
		if (ir_keymap_load(km, path, &err))
			fail_msg("%s: %s", path, err.parse.message);
		assert_true(ir_keymap_remote_count(km) >= 1);
		keys += ir_keymap_key_count(km);
		files++;
		ir_keymap_free(km);
	}
	closedir(d);
	printf("rc_keymaps: %zu files, %zu bindings\n", files, keys);
	assert_true(files >= 140);
	assert_true(keys >= 5000);
}

/* rc6_mce.toml: 0x800f040c = "KEY_NUMERIC_0" under protocol rc6, variant rc6_mce. */
static void test_real_file_binding(void **state)
{
	struct ir_keymap *km;
	struct ir_keymap_error err;
	struct ir_key_binding b;
	(void)state;

	assert_int_equal(ir_keymap_new(&km), 0);
	assert_int_equal(ir_keymap_load(km, RC_KEYMAPS "/rc6_mce.toml", &err), 0);
	assert_true(lookup(km, IR_PROTO_RC6_MCE, 0x800f0400, &b));
	assert_string_equal(b.key, "KEY_NUMERIC_0");
	ir_keymap_free(km);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nec_family_binds_every_variant),
		cmocka_unit_test(test_variant_binds_one_protocol),
		cmocka_unit_test(test_unknown_protocol_binds_any),
		cmocka_unit_test(test_malformed_gives_line),
		cmocka_unit_test(test_long_line_rejected),
		cmocka_unit_test(test_all_rc_keymaps_load),
		cmocka_unit_test(test_real_file_binding),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
