/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_rc_maps.c - ir-keytable's rc_maps.cfg: Debian's own file parsed and
 * matched, ir-keytable's rules (every matching entry, "*" only as a whole
 * field, case-insensitive names), file resolution, bad lines, and a keymap
 * loader pointed at rc_maps.cfg saying what it is. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "ir_keymap.h"
#include "ir_keymap_file.h"
#include "ir_rc_maps.h"

#define DEBIAN_RC_MAPS "/etc/rc_maps.cfg"

/* The entries (by line) that match driver/table, in order, as a string. */
static void matches(const struct ir_rc_maps *m, const char *driver, const char *table, char *out,
		    size_t size)
{
	size_t at = 0;

	out[0] = '\0';
	for (size_t i = 0; i < m->count && at < size; i++)
		if (ir_rc_maps_match(&m->entries[i], driver, table))
			at += (size_t)snprintf(out + at, size - at, "%s%s", at ? " " : "",
					       m->entries[i].file);
}

static void debian_rc_maps_gives_the_mce_keymap(void **state)
{
	(void)state;
	struct ir_rc_maps m;
	struct ir_parse_error err;
	char got[256], path[256];

	assert_int_equal(access(DEBIAN_RC_MAPS, R_OK), 0); /* Debian: ir-keytable */
	assert_int_equal(ir_rc_maps_load(&m, DEBIAN_RC_MAPS, &err), 0);
	assert_true(m.count > 100);
	/* any driver with the kernel's rc-rc6-mce table: one entry */
	matches(&m, "mceusb", "rc-rc6-mce", got, sizeof(got));
	assert_string_equal(got, "rc6_mce.toml");
	matches(&m, "ite-cir", "RC-RC6-MCE", got, sizeof(got));
	assert_string_equal(got, "rc6_mce.toml");
	/* rc-loopback's rc-empty has no entry */
	matches(&m, "rc-loopback", "rc-empty", got, sizeof(got));
	assert_string_equal(got, "");
	for (size_t i = 0; i < m.count; i++) {
		if (strcmp(m.entries[i].file, "rc6_mce.toml"))
			continue;
		assert_int_equal(ir_rc_maps_resolve(&m, &m.entries[i], NULL, path, sizeof(path)), 0);
		assert_string_equal(path, "/lib/udev/rc_keymaps/rc6_mce.toml");
	}
	ir_rc_maps_free(&m);
}

static void every_matching_entry_counts_in_file_order(void **state)
{
	(void)state;
	struct ir_rc_maps m;
	struct ir_parse_error err;
	char got[256];
	const char *text = "# driver table file\n"
			   "cx88xx\t*\t\ta.toml\n"
			   "\n"
			   "   # indented comment\n"
			   "*  rc-hauppauge  b.toml\n"
			   "em28xx  *  d.toml\n"
			   "*  rc-*  glob.toml\n"
			   "* * c.toml";

	assert_int_equal(ir_rc_maps_parse(&m, "/etc/x/rc_maps.cfg", text, &err), 0);
	assert_int_equal(m.count, 5);
	assert_int_equal(m.entries[1].line, 5);
	matches(&m, "cx88xx", "rc-hauppauge", got, sizeof(got));
	assert_string_equal(got, "a.toml b.toml c.toml");
	matches(&m, "CX88XX", "rc-other", got, sizeof(got));
	assert_string_equal(got, "a.toml c.toml");
	/* "*" is the whole field, not a glob: rc-* matches only a table named so */
	matches(&m, "x", "rc-foo", got, sizeof(got));
	assert_string_equal(got, "c.toml");
	/* a device that names no driver: only "*" matches that field */
	matches(&m, "", "rc-hauppauge", got, sizeof(got));
	assert_string_equal(got, "b.toml c.toml");
	ir_rc_maps_free(&m);
}

static void files_resolve_as_ir_keytable_does(void **state)
{
	(void)state;
	struct ir_rc_maps m;
	struct ir_parse_error err;
	char path[256], dir1[] = "/tmp/rc_maps1.XXXXXX", dir2[] = "/tmp/rc_maps2.XXXXXX";
	const char *dirs[] = { dir1, dir2, NULL };
	FILE *f;

	assert_non_null(mkdtemp(dir1));
	assert_non_null(mkdtemp(dir2));
	snprintf(path, sizeof(path), "%s/both.toml", dir1);
	assert_non_null(f = fopen(path, "w"));
	fclose(f);
	snprintf(path, sizeof(path), "%s/both.toml", dir2);
	assert_non_null(f = fopen(path, "w"));
	fclose(f);
	snprintf(path, sizeof(path), "%s/second.toml", dir2);
	assert_non_null(f = fopen(path, "w"));
	fclose(f);
	assert_int_equal(ir_rc_maps_parse(&m, "/etc/irjack/rc_maps.cfg",
					  "* * /abs/k.toml\n* * ./keycodes/k.toml\n* * both.toml\n"
					  "* * second.toml\n* * none.toml\n",
					  &err),
			 0);
	assert_int_equal(ir_rc_maps_resolve(&m, &m.entries[0], dirs, path, sizeof(path)), 0);
	assert_string_equal(path, "/abs/k.toml");
	/* "./": from rc_maps.cfg's own folder */
	assert_int_equal(ir_rc_maps_resolve(&m, &m.entries[1], dirs, path, sizeof(path)), 0);
	assert_string_equal(path, "/etc/irjack/./keycodes/k.toml");
	/* a bare name: the user folder first, then the system one */
	assert_int_equal(ir_rc_maps_resolve(&m, &m.entries[2], dirs, path, sizeof(path)), 0);
	assert_true(strncmp(path, dir1, strlen(dir1)) == 0);
	assert_int_equal(ir_rc_maps_resolve(&m, &m.entries[3], dirs, path, sizeof(path)), 0);
	assert_true(strncmp(path, dir2, strlen(dir2)) == 0);
	assert_int_equal(ir_rc_maps_resolve(&m, &m.entries[4], dirs, path, sizeof(path)), -ENOENT);
	ir_rc_maps_free(&m);
	snprintf(path, sizeof(path), "rm -rf '%s' '%s'", dir1, dir2);
	assert_int_equal(system(path), 0);
}

static void bad_lines_are_errors_with_their_line(void **state)
{
	(void)state;
	struct ir_rc_maps m;
	struct ir_parse_error err;
	char longname[200];

	assert_int_equal(ir_rc_maps_parse(&m, "x", "* * a.toml\n# c\nmceusb rc-rc6-mce\n", &err),
			 -EINVAL);
	assert_int_equal(err.line, 3);
	assert_non_null(strstr(err.message, "three fields"));
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	char text[300];
	snprintf(text, sizeof(text), "%s * a.toml\n", longname);
	assert_int_equal(ir_rc_maps_parse(&m, "x", text, &err), -EINVAL);
	assert_int_equal(err.line, 1);
	assert_non_null(strstr(err.message, "too long"));
	assert_int_equal(ir_rc_maps_load(&m, "/nonexistent/rc_maps.cfg", &err), -ENOENT);
}

static void a_keymap_loader_names_an_rc_maps_file(void **state)
{
	(void)state;
	struct ir_keymap *km;
	struct ir_keymap_error err;

	assert_true(ir_rc_maps_looks_like("# x\n*\trc-foo\tfoo.toml\n"));
	assert_false(ir_rc_maps_looks_like("[[protocols]]\nname = \"x\"\n"));
	assert_false(ir_rc_maps_looks_like("begin remote\n name x\nend remote\n"));
	assert_int_equal(ir_keymap_new(&km), 0);
	assert_int_equal(ir_keymap_load(km, DEBIAN_RC_MAPS, &err), -EINVAL);
	assert_non_null(strstr(err.parse.message, "rc_maps.cfg"));
	assert_non_null(strstr(err.parse.message, "not a keymap"));
	assert_null(strstr(err.parse.message, "begin remote"));
	ir_keymap_free(km);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(debian_rc_maps_gives_the_mce_keymap),
		cmocka_unit_test(every_matching_entry_counts_in_file_order),
		cmocka_unit_test(files_resolve_as_ir_keytable_does),
		cmocka_unit_test(bad_lines_are_errors_with_their_line),
		cmocka_unit_test(a_keymap_loader_names_an_rc_maps_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
