/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The keymap container: bindings looked up by (protocol, decoder id,
 * scancode), rc-core's reading and any-protocol fallbacks, replacement,
 * Linux key codes through libevdev, encoding of built-in protocols, and
 * decoders that remotes bring along running in a decoder.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include <cmocka.h>

#include <linux/input-event-codes.h>

#include "ir_family.h"
#include "ir_keymap.h"
#include "ir_keymap_file.h"
#include "test_util.h"

static struct ir_frame frame(enum ir_protocol p, uint64_t scancode, uint16_t decoder_id)
{
	return (struct ir_frame){ .protocol = p, .scancode = scancode, .decoder_id = decoder_id };
}

static void test_lookup_and_replace(void **state)
{
	struct ir_keymap *km;
	struct ir_key_binding b;
	unsigned tv, vcr;
	struct ir_frame f;

	(void)state;
	assert_int_equal(ir_keymap_new(&km), 0);
	assert_int_equal(ir_keymap_add_remote(km, "tv", &tv), 0);
	assert_int_equal(ir_keymap_add_remote(km, "vcr", &vcr), 0);
	assert_int_equal(ir_keymap_add_key(km, tv, IR_PROTO_NEC, 0, 0x04fb, "KEY_POWER"), 0);
	assert_int_equal(ir_keymap_add_key(km, vcr, IR_PROTO_RC5, 0, 0x04fb, "KEY_PLAY"), 0);
	/* thousands of keys: the hash grows */
	for (unsigned i = 0; i < 5000; i++)
		assert_int_equal(ir_keymap_add_key(km, vcr, IR_PROTO_NECX, 0, 0x100000 + i, "KEY_A"), 0);
	assert_int_equal(ir_keymap_add_key(km, tv, IR_PROTO_NEC, 0, 0x0400, "lirc-style name"), 0);

	f = frame(IR_PROTO_NEC, 0x04fb, 0);
	assert_true(ir_keymap_lookup(km, &f, &b));
	assert_string_equal(b.key, "KEY_POWER");
	assert_string_equal(b.remote, "tv");
	assert_int_equal(b.keycode, KEY_POWER);
	/* same scancode, other protocol: the other remote's button */
	f = frame(IR_PROTO_RC5, 0x04fb, 0);
	assert_true(ir_keymap_lookup(km, &f, &b));
	assert_string_equal(b.key, "KEY_PLAY");
	f = frame(IR_PROTO_SONY12, 0x04fb, 0);
	assert_false(ir_keymap_lookup(km, &f, &b));
	f = frame(IR_PROTO_NECX, 0x100000 + 4999, 0);
	assert_true(ir_keymap_lookup(km, &f, &b));
	assert_int_equal(b.keycode, KEY_A);
	/* a name that is no Linux key is kept, with keycode -1 */
	f = frame(IR_PROTO_NEC, 0x0400, 0);
	assert_true(ir_keymap_lookup(km, &f, &b));
	assert_string_equal(b.key, "lirc-style name");
	assert_int_equal(b.keycode, -1);
	/* a later binding replaces an earlier one, as in ir-keytable */
	assert_int_equal(ir_keymap_add_key(km, tv, IR_PROTO_NEC, 0, 0x04fb, "KEY_SLEEP"), 0);
	f = frame(IR_PROTO_NEC, 0x04fb, 0);
	assert_true(ir_keymap_lookup(km, &f, &b));
	assert_string_equal(b.key, "KEY_SLEEP");
	/* bad arguments */
	assert_int_equal(ir_keymap_add_key(km, 7, IR_PROTO_NEC, 0, 1, "KEY_A"), -EINVAL);
	assert_int_equal(ir_keymap_add_key(km, tv, IR_PROTO_NEC, 0, 1, ""), -EINVAL);
	assert_int_equal(ir_keymap_add_key(km, tv, IR_PROTO_NEC, 3, 1, "KEY_A"), -EINVAL);
	assert_int_equal(ir_keymap_remote_count(km), 2);
	assert_int_equal(ir_keymap_key_count(km), 5004);
	ir_keymap_free(km);
}

static void test_rc_core_reading_and_any_protocol(void **state)
{
	struct ir_keymap *km;
	struct ir_key_binding b;
	struct ir_protocol_set set;
	enum ir_protocol rp;
	uint64_t rs;
	unsigned r;
	struct ir_frame f = frame(IR_PROTO_APPLE, 0x870005, 0);

	(void)state;
	assert_int_equal(ir_keymap_new(&km), 0);
	assert_int_equal(ir_keymap_add_remote(km, "apple", &r), 0);
	/* an rc_keymaps file names rc-core's reading of an Apple frame */
	assert_true(ir_protocol_rc_core_view(f.protocol, f.scancode, &rp, &rs));
	assert_int_equal(ir_keymap_add_key(km, r, rp, 0, rs, "KEY_MENU"), 0);
	assert_true(ir_keymap_lookup(km, &f, &b));
	assert_string_equal(b.key, "KEY_MENU");
	/* "unknown" protocol keymaps match any built-in protocol's scancode */
	assert_int_equal(ir_keymap_add_key(km, r, IR_KEYMAP_ANY_PROTOCOL, 0, 0x1e01, "KEY_OK"), 0);
	f = frame(IR_PROTO_RC5, 0x1e01, 0);
	assert_true(ir_keymap_lookup(km, &f, &b));
	assert_string_equal(b.key, "KEY_OK");
	/* ...but not frames of a remote's own decoder */
	f = frame(IR_PROTO_RC5, 0x1e01, 1);
	assert_false(ir_keymap_lookup(km, &f, &b));
	ir_keymap_protocols(km, &set);
	assert_true(ir_protocol_set_has(&set, rp));
	assert_false(ir_protocol_set_has(&set, IR_KEYMAP_ANY_PROTOCOL));
	ir_keymap_free(km);
}

static void test_encode_builtin(void **state)
{
	struct ir_keymap *km;
	struct ir_edge_buf a = { 0 }, b = { 0 };
	struct ir_encode_opts opts = { .repeats = 2 };
	unsigned r;

	(void)state;
	assert_int_equal(ir_keymap_new(&km), 0);
	assert_int_equal(ir_keymap_add_remote(km, "TV", &r), 0);
	assert_int_equal(ir_keymap_add_key(km, r, IR_PROTO_NEC, 0, 0x04fb, "KEY_POWER"), 0);
	/* remote and key names are matched without case, as lircd does */
	assert_int_equal(ir_keymap_encode(km, "tv", "key_power", 2, &a), 0);
	assert_int_equal(ir_encode(IR_PROTO_NEC, 0x04fb, &opts, &b), 0);
	assert_int_equal(a.len, b.len);
	assert_memory_equal(a.edges, b.edges, a.len * sizeof(*a.edges));
	assert_int_equal(ir_keymap_encode(km, "tv", "KEY_MUTE", 0, &a), -ENOENT);
	assert_int_equal(ir_keymap_encode(km, "radio", "KEY_POWER", 0, &a), -ENOENT);
	ir_edge_buf_free(&a);
	ir_edge_buf_free(&b);
	ir_keymap_free(km);
}

/* A parametric family for the test: a pulse of the parameter's length is a
 * frame whose scancode is that length. */
struct pulse_params {
	uint32_t pulse_us;
};

static void pulse_reset(void *state)
{
	(void)state;
}

static void pulse_decode(void *state, struct ir_decode_ctx *ctx, const struct ir_edge *e)
{
	const struct pulse_params *p = ir_decode_params(ctx);

	(void)state;
	if (e->kind == IR_PULSE && ir_eq_margin(e->duration, p->pulse_us, 50))
		ir_decode_emit(ctx, IR_PROTO_RAW, p->pulse_us, 0, ir_decode_now(ctx));
}

static const struct ir_family pulse_family = {
	.name = "test-pulse",
	.state_size = 1,
	.reset = pulse_reset,
	.decode = pulse_decode,
	.parametric = true,
};

static struct pulse_params params_a = { 1000 }, params_b = { 3000 };

static void test_remote_decoders_run(void **state)
{
	struct ir_keymap *km;
	struct ir_decoder *dec;
	struct frame_log *log = calloc(1, sizeof(*log));
	struct ir_key_binding b;
	uint16_t id_a, id_b;
	unsigned ra, rb;
	const struct ir_edge edges[] = { ir_pulse(3010), ir_space(5000), ir_pulse(990),
					 ir_space(5000), ir_pulse(2000), ir_space(5000) };

	(void)state;
	assert_non_null(log);
	assert_int_equal(ir_keymap_new(&km), 0);
	assert_int_equal(ir_keymap_add_remote(km, "a", &ra), 0);
	assert_int_equal(ir_keymap_add_remote(km, "b", &rb), 0);
	/* only parametric families take parameters */
	assert_int_equal(ir_keymap_add_decoder(km, ra, ir_families[0], &params_a, NULL, &id_a),
			 -EINVAL);
	assert_int_equal(ir_keymap_add_decoder(km, ra, &pulse_family, &params_a, NULL, &id_a), 0);
	assert_int_equal(ir_keymap_add_decoder(km, rb, &pulse_family, &params_b, NULL, &id_b), 0);
	assert_int_not_equal(id_a, id_b);
	assert_int_equal(ir_keymap_add_key(km, ra, IR_PROTO_RAW, id_a, 1000, "KEY_1"), 0);
	assert_int_equal(ir_keymap_add_key(km, rb, IR_PROTO_RAW, id_b, 3000, "KEY_3"), 0);

	/* with no protocol enabled, only the remotes' own decoders report */
	struct ir_protocol_set none;

	ir_protocol_set_clear(&none);
	assert_int_equal(ir_decoder_new(&none, frame_log_add, log, &dec), 0);
	assert_int_equal(ir_keymap_attach(km, dec), 0);
	ir_decoder_feed_many(dec, edges, sizeof(edges) / sizeof(edges[0]));
	ir_decoder_flush(dec);
	ir_decoder_free(dec);
	assert_int_equal(log->count, 2);
	assert_int_equal(log->frames[0].decoder_id, id_b);
	assert_true(ir_keymap_lookup(km, &log->frames[0], &b));
	assert_string_equal(b.key, "KEY_3");
	assert_string_equal(b.remote, "b");
	assert_int_equal(log->frames[1].decoder_id, id_a);
	assert_true(ir_keymap_lookup(km, &log->frames[1], &b));
	assert_string_equal(b.key, "KEY_1");
	ir_keymap_free(km);
	free(log);
}

static void test_load_errors_name_the_file(void **state)
{
	struct ir_keymap *km;
	struct ir_keymap_error err;

	(void)state;
	assert_int_equal(ir_keymap_new(&km), 0);
	memset(&err, 0, sizeof(err));
	assert_int_equal(ir_keymap_load(km, "/nonexistent/keymap.toml", &err), -ENOENT);
	assert_string_equal(err.file, "/nonexistent/keymap.toml");
	assert_int_equal(ir_keymap_remote_count(km), 0);
	ir_keymap_free(km);
}

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[1400];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static const char *remote_text(const char *name, const char *code)
{
	static char text[512];

	snprintf(text, sizeof(text),
		 "begin remote\n  name %s\n  bits 16\n  flags SPACE_ENC\n  header 9000 4500\n"
		 "  one 560 1690\n  zero 560 560\n  ptrail 560\n  gap 108000\n"
		 "  begin codes\n    KEY_OK %s\n  end codes\nend remote\n",
		 name, code);
	return text;
}

/* Debian's stock /etc/lirc/lircd.conf: comments and one include of a
 * glob relative to its folder; lircd reads the matches in sorted order,
 * skips what does not match (README.conf.d), and a <...> include and a
 * nested include resolve against their own file's folder. */
static void test_lircd_include(void **state)
{
	char dir[] = "/tmp/irjack-include-XXXXXX", path[700], sub[600];
	struct ir_keymap *km;
	struct ir_keymap_error err;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(sub, sizeof(sub), "%s/lircd.conf.d", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	write_file(dir, "lircd.conf", "# stock\n#include \"nothing\"\ninclude \"lircd.conf.d/*.conf\"\n"
				      "include <none-*.conf>\n");
	write_file(sub, "b.conf", remote_text("second", "0x00ff"));
	write_file(sub, "a.conf", "include \"nested/c.lircd\"\n");
	write_file(sub, "README.conf.d", "not a remote\n");
	snprintf(path, sizeof(path), "%.600s/nested", sub);
	assert_int_equal(mkdir(path, 0700), 0);
	write_file(path, "c.lircd", remote_text("first", "0x0a0b"));

	snprintf(path, sizeof(path), "%s/lircd.conf", dir);
	assert_int_equal(ir_keymap_new(&km), 0);
	memset(&err, 0, sizeof(err));
	assert_int_equal(ir_keymap_load(km, path, &err), 0);
	assert_int_equal(ir_keymap_remote_count(km), 2);
	assert_string_equal(ir_keymap_remote_name(km, 0), "first");
	assert_string_equal(ir_keymap_remote_name(km, 1), "second");
	ir_keymap_free(km);

	/* an error in an included file names that file and its line */
	write_file(sub, "b.conf", "begin remote\n  name broken\n  bits x\nend remote\n");
	assert_int_equal(ir_keymap_new(&km), 0);
	memset(&err, 0, sizeof(err));
	assert_int_equal(ir_keymap_load(km, path, &err), -EINVAL);
	snprintf(sub, sizeof(sub), "%s/lircd.conf.d/b.conf", dir);
	assert_string_equal(err.file, sub);
	assert_int_equal(err.parse.line, 3);
	assert_int_equal(ir_keymap_remote_count(km), 0);
	ir_keymap_free(km);

	/* a file including itself stops at lircd's depth, 10 */
	write_file(dir, "lircd.conf", "include \"lircd.conf\"\n");
	assert_int_equal(ir_keymap_new(&km), 0);
	memset(&err, 0, sizeof(err));
	assert_int_equal(ir_keymap_load(km, path, &err), -ELOOP);
	assert_non_null(strstr(err.parse.message, "nested deeper than 10"));
	assert_int_equal(err.parse.line, 1);
	ir_keymap_free(km);

	/* one quoted path, nothing else */
	write_file(dir, "lircd.conf", "\n\ninclude lircd.conf.d/b.conf\n");
	assert_int_equal(ir_keymap_new(&km), 0);
	memset(&err, 0, sizeof(err));
	assert_int_equal(ir_keymap_load(km, path, &err), -EINVAL);
	assert_string_equal(err.file, path);
	assert_int_equal(err.parse.line, 3);
	assert_non_null(strstr(err.parse.message, "include"));
	ir_keymap_free(km);

	snprintf(path, sizeof(path), "rm -r '%s'", dir);
	assert_int_equal(system(path), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lookup_and_replace),
		cmocka_unit_test(test_rc_core_reading_and_any_protocol),
		cmocka_unit_test(test_encode_builtin),
		cmocka_unit_test(test_remote_decoders_run),
		cmocka_unit_test(test_load_errors_name_the_file),
		cmocka_unit_test(test_lircd_include),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
