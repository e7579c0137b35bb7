/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_lircd_conf.c - the lircd.conf parser and the "lirc" family: every
 * remote of Debian's lirc-compat-remotes parses, every button encodes and
 * decodes back to itself, and malformed files fail on the right line.
 * (The cross-check against LIRC's own irsimsend/irsimreceive is
 * test_lircd_irsim.py.)
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ir_keymap.h"
#include "ir_keymap_file.h"
#include "ir_keymap_loaders.h"
#include "test_util.h"

/* Where lirc-compat-remotes installs its lircd.conf files. */
#define COMPAT_DIR "/usr/share/lirc/remotes"

static struct ir_keymap *parse(const char *text, int *ret, struct ir_parse_error *err)
{
	struct ir_keymap *km;

	assert_int_equal(ir_keymap_new(&km), 0);
	*ret = ir_keymap_parse_lircd(km, text, strlen(text), err);
	return km;
}

static const char nec_conf[] = "# a NEC remote\n"
			       "begin remote\n"
			       "  name  tv\n"
			       "  bits           16\n"
			       "  flags SPACE_ENC|CONST_LENGTH\n"
			       "  eps            30\n"
			       "  aeps          100\n"
			       "  header       9000  4500\n"
			       "  one           560  1690\n"
			       "  zero          560   560\n"
			       "  ptrail        560\n"
			       "  repeat       9000  2250\n"
			       "  pre_data_bits   16\n"
			       "  pre_data       0x20DF\n"
			       "  gap          108000\n"
			       "  some_future_keyword 7\n"
			       "  begin codes\n"
			       "    KEY_POWER   0x10EF\n"
			       "    my-button   0x40BF  # comment\n"
			       "  end codes\n"
			       "end remote\n";

static void nec_remote_codes_are_lircds_full_code(void **state)
{
	struct ir_parse_error err;
	int ret;
	struct ir_keymap *km = parse(nec_conf, &ret, &err);

	(void)state;
	assert_int_equal(ret, 0);
	assert_int_equal(ir_keymap_remote_count(km), 1);
	assert_string_equal(ir_keymap_remote_name(km, 0), "tv");
	assert_int_equal(ir_keymap_key_count(km), 2);
	assert_int_equal(ir_keymap_key_at(km, 0)->scancode, 0x20DF10EF);
	assert_int_equal(ir_keymap_key_at(km, 0)->protocol, IR_PROTO_LIRC);
	assert_int_equal(ir_keymap_key_at(km, 0)->decoder_id, 1);
	assert_true(ir_keymap_key_at(km, 0)->keycode > 0);
	assert_string_equal(ir_keymap_key_at(km, 1)->key, "my-button");
	assert_int_equal(ir_keymap_key_at(km, 1)->keycode, -1);
	ir_keymap_free(km);
}

/* Encodes the first binding of `key` in `remote` with `repeats`, decodes
 * it with all the keymap's decoders, and returns how many frames the
 * button's own decoder (or an earlier remote's, which lircd names such a
 * frame for) reported with the button's code (repeats included);
 * *frames gets every frame reported (other remotes of a file may read the
 * same light), SIZE_MAX when the button has no timings. */
static size_t roundtrip(const struct ir_keymap *km, const char *remote, const char *key,
			unsigned repeats, size_t *frames)
{
	struct ir_edge_buf buf = { 0 };
	struct ir_decoder *dec;
	struct frame_log *log = calloc(1, sizeof(*log));
	const struct ir_keymap_key *want = NULL;
	size_t good = 0;

	assert_non_null(log);
	for (size_t i = 0; i < ir_keymap_key_count(km) && !want; i++) {
		const struct ir_keymap_key *k = ir_keymap_key_at(km, i);

		if (strcasecmp(ir_keymap_remote_name(km, k->remote), remote) == 0 &&
		    strcasecmp(k->key, key) == 0)
			want = k;
	}
	assert_non_null(want);
	if (ir_keymap_encode(km, remote, key, repeats, &buf) < 0) {
		free(log);
		ir_edge_buf_free(&buf);
		*frames = SIZE_MAX;
		return 0;
	}
	assert_int_equal(ir_decoder_new(NULL, frame_log_add, log, &dec), 0);
	assert_int_equal(ir_keymap_attach(km, dec), 0);
	/* a frame follows silence, as from any receiver */
	ir_decoder_feed(dec, &(struct ir_edge){ .kind = IR_SPACE, .duration = 200000 });
	ir_decoder_feed_many(dec, buf.edges, buf.len);
	ir_decoder_flush(dec);
	for (size_t i = 0; i < log->count; i++)
		if (log->frames[i].protocol == IR_PROTO_LIRC &&
		    ((log->frames[i].decoder_id == want->decoder_id &&
		      log->frames[i].scancode == want->scancode) ||
		     /* an earlier remote of the file reads the same light:
		      * lircd names it for that one (first remote wins) */
		     (log->frames[i].decoder_id && log->frames[i].decoder_id < want->decoder_id)))
			good++;
	*frames = log->count;
	ir_decoder_free(dec);
	ir_edge_buf_free(&buf);
	free(log);
	return good;
}

static void nec_remote_roundtrips_with_repeat_codes(void **state)
{
	struct ir_parse_error err;
	int ret;
	struct ir_keymap *km = parse(nec_conf, &ret, &err);
	struct ir_edge_buf buf = { 0 };
	size_t frames;

	(void)state;
	assert_int_equal(ret, 0);
	assert_int_equal(roundtrip(km, "tv", "KEY_POWER", 2, &frames), 3);
	assert_int_equal(roundtrip(km, "TV", "my-button", 0, &frames), 1);
	/* header 9000/4500, 32 bits, ptrail; then the repeat 9000/2250/560 */
	assert_int_equal(ir_keymap_encode(km, "tv", "KEY_POWER", 1, &buf), 0);
	assert_int_equal(buf.edges[0].duration, 9000);
	assert_int_equal(buf.edges[1].duration, 4500);
	assert_int_equal(buf.edges[2 + 64].duration, 560);
	/* CONST_LENGTH: frame plus gap is 108 ms */
	uint64_t first = 0;
	for (size_t i = 0; i < 2 + 64 + 2; i++)
		first += buf.edges[i].duration;
	assert_int_equal(first, 108000);
	assert_int_equal(buf.edges[2 + 64 + 2].duration, 9000);
	assert_int_equal(buf.edges[2 + 64 + 3].duration, 2250);
	ir_edge_buf_free(&buf);
	ir_keymap_free(km);
}

static const char rc5_raw_conf[] = "begin remote\n"
				   "  name  rc5\n"
				   "  bits 13\n"
				   "  flags RC5|CONST_LENGTH\n"
				   "  one 889 889\n"
				   "  zero 889 889\n"
				   "  plead 889\n"
				   "  pre_data_bits 8\n"
				   "  pre_data 0x00\n"
				   "  toggle_bit_mask 0x800\n"
				   "  gap 113792\n"
				   "  begin codes\n"
				   "    KEY_1 0x1001\n"
				   "    KEY_2 0x1002\n"
				   "  end codes\n"
				   "end remote\n"
				   "begin remote\n"
				   "  name learned\n"
				   "  flags RAW_CODES\n"
				   "  eps 30\n  aeps 100\n  gap 40000\n"
				   "  begin raw_codes\n"
				   "    name KEY_A\n"
				   "      900 450 450 900 450\n"
				   "      450 900\n"
				   "    name KEY_B\n"
				   "      900 450 900 900 450\n"
				   "  end raw_codes\n"
				   "end remote\n";

static void rc5_and_raw_remotes_roundtrip(void **state)
{
	struct ir_parse_error err;
	int ret;
	struct ir_keymap *km = parse(rc5_raw_conf, &ret, &err);
	size_t frames;

	(void)state;
	assert_int_equal(ret, 0);
	assert_int_equal(ir_keymap_remote_count(km), 2);
	assert_int_equal(ir_keymap_key_count(km), 4);
	/* raw codes: the button's place counted from 1, as irsimreceive
	 * reports them (tests/data/lircd-classes/raw-first-match) */
	assert_int_equal(ir_keymap_key_at(km, 2)->scancode, 1);
	assert_int_equal(ir_keymap_key_at(km, 3)->scancode, 2);
	assert_int_equal(roundtrip(km, "rc5", "KEY_2", 1, &frames), 2);
	assert_int_equal(roundtrip(km, "learned", "KEY_A", 0, &frames), 1);
	assert_int_equal(roundtrip(km, "learned", "KEY_B", 2, &frames), 3);
	ir_keymap_free(km);
}

struct bad_case {
	const char *text;
	unsigned line;
	const char *says; /* a part of the message, or NULL */
};

static void malformed_files_fail_on_their_line(void **state)
{
	static const struct bad_case cases[] = {
		{ "begin remote\n name x\n bits 1z\nend remote\n", 3, NULL },
		{ "begin remote\n name x\n header 9000\nend remote\n", 3, NULL },
		{ "\n\nKEY_A 0x1\n", 3, NULL },
		{ "begin remote\n name x\n begin codes\n  A 0x1\n", 4, NULL },
		{ "begin remote\n name x\n begin codes\n  A 0xq\n end codes\nend remote\n", 4, NULL },
		{ "begin remote\n name x\n begin codes\n  A\n end codes\nend remote\n", 4, NULL },
		{ "begin remote\n name x\n begin raw_codes\n 100 200\n end raw_codes\nend remote\n", 4, NULL },
		{ "begin remote\n name x\n bits 40\n pre_data_bits 32\n begin codes\n end codes\nend remote\n", 7, NULL },
		{ "begin remote\n begin remote\n", 2, NULL },
		{ "end remote\n", 1, NULL },
		{ "", 0, NULL },
		/* numbers past what lircd takes name the parameter and its limit */
		{ "begin remote\n name x\n bits 65\nend remote\n", 3, "bits 65: more than 64" },
		{ "begin remote\n name x\n pre_data_bits 99\nend remote\n", 3, "pre_data_bits 99: more than 64" },
		{ "begin remote\n name x\n eps 100001\nend remote\n", 3, "eps 100001: more than 100000" },
		{ "begin remote\n name x\n baud 1000001\nend remote\n", 3, "baud 1000001: more than 1000000" },
		{ "begin remote\n name x\n one 560\nend remote\n", 3, "missing number" },
		{ "begin remote\n name x\n frequency 5000000000\nend remote\n", 3, "out of range" },
		{ "begin remote\n name x\n serial_mode 8X1\nend remote\n", 3, "not like 8N1" },
		{ "begin remote\n name x\n serial_mode 8N3\nend remote\n", 3, "stop bits" },
		{ "begin remote\n name x\n manual_sort yes\nend remote\n", 3, "malformed number" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ir_parse_error err = { 0 };
		int ret;
		struct ir_keymap *km = parse(cases[i].text, &ret, &err);

		printf("case %zu: line %u: %s\n", i, err.line, err.message);
		assert_int_equal(ret, -EINVAL);
		assert_int_equal(err.line, cases[i].line);
		assert_true(err.message[0] != '\0');
		if (cases[i].says)
			assert_non_null(strstr(err.message, cases[i].says));
		ir_keymap_free(km);
	}
}

static void overlong_line_is_rejected(void **state)
{
	size_t n = 5000;
	char *text = malloc(n + 32);
	struct ir_parse_error err = { 0 };
	int ret;
	struct ir_keymap *km;

	(void)state;
	assert_non_null(text);
	strcpy(text, "begin remote\n#");
	memset(text + 14, 'x', n);
	strcpy(text + 14 + n, "\nend remote\n");
	km = parse(text, &ret, &err);
	assert_int_equal(ret, -EINVAL);
	assert_int_equal(err.line, 2);
	ir_keymap_free(km);
	free(text);
}

/* lircd.conf files under `dir` (the package puts them in one folder per
 * vendor, named lircd.conf.MODEL), sorted; returns the count. */
static size_t find_confs(const char *dir, char ***out)
{
	char cmd[512];
	char line[1024];
	size_t n = 0, cap = 0;
	char **v = NULL;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "find '%s' -type f -name 'lircd.conf*' | LC_ALL=C sort", dir);
	f = popen(cmd, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (n == cap) {
			cap = cap ? cap * 2 : 256;
			v = realloc(v, cap * sizeof(*v));
			assert_non_null(v);
		}
		v[n++] = strdup(line);
	}
	pclose(f);
	*out = v;
	return n;
}

static void every_compat_remote_parses_and_roundtrips(void **state)
{
	char **paths = NULL;
	size_t n = find_confs(COMPAT_DIR, &paths);
	size_t files = 0, remotes = 0, buttons = 0, agree = 0, tried = 0, timingless = 0;

	(void)state;
	/* lirc-compat-remotes is one of the suite's packages: absent is a
	 * failure, not a skip */
	if (n == 0)
		fail_msg("no lircd.conf files under %s (Debian lirc-compat-remotes)", COMPAT_DIR);
	for (size_t i = 0; i < n; i++) {
		const char *path = paths[i];
		struct ir_keymap *km;
		struct ir_keymap_error err = { 0 };

		assert_int_equal(ir_keymap_new(&km), 0);
		if (ir_keymap_load(km, path, &err) < 0) {
			printf("FAILED %s:%u: %s\n", path, err.parse.line, err.parse.message);
			fail();
		}
		files++;
		remotes += ir_keymap_remote_count(km);
		buttons += ir_keymap_key_count(km);
		for (size_t k = 0; k < ir_keymap_key_count(km); k++) {
			const struct ir_keymap_key *key = ir_keymap_key_at(km, k);
			size_t frames;
			size_t got = roundtrip(km, ir_keymap_remote_name(km, key->remote), key->key, 0,
					       &frames);

			if (frames == SIZE_MAX) {
				timingless++;
				continue;
			}
			tried++;
			if (got >= 1)
				agree++;
			else
				printf("no roundtrip: %s %s %s (%zu frames)\n", path,
				       ir_keymap_remote_name(km, key->remote), key->key, frames);
		}
		ir_keymap_free(km);
		free(paths[i]);
	}
	free(paths);
	printf("lirc-compat-remotes: %zu files, %zu remotes, %zu buttons parsed\n", files, remotes,
	       buttons);
	printf("buttons without timings (codes of hardware-decoding drivers: atiusb, imon, "
	       "devinput...), not encodable: %zu\n", timingless);
	printf("buttons that encode and decode back to themselves: %zu / %zu\n", agree, tried);
	/* the package holds 69 lircd.conf files (158 remotes) */
	assert_true(files >= 60);
	/* measured 1729 / 1729: Logitech and PC_MAK ("one 0 833 / zero 833
	 * 0": runs of bits merge) need the closest-button rule */
	assert_int_equal(agree, tried);
}

/* The flags with their own symbols (tests/data/lircd/): each button
 * encodes, decodes back to itself, and three times as a held button;
 * the same files go through lircd's own decoder in test_lircd_irsim. */
static void symbol_flags_roundtrip(void **state)
{
	static const struct {
		const char *file, *remote;
		size_t edges; /* of KEY_1's first frame, gap included */
	} cases[] = {
		/* 16 two-bit symbols, header, ptrail, gap */
		{ "rcmm.lircd.conf", "rcmm", 2 + 32 + 1 + 1 },
		/* 16 nibbles (pre_data and data), pre, ptrail, gap */
		{ "xmp.lircd.conf", "xmp", 32 + 2 + 1 + 1 },
		/* lead, then 0x0E4 = 00 11 10 01 00: 6T, 2T 4T, 3T 3T, 4T 2T, 6T */
		{ "grundig.lircd.conf", "grundig", 1 + 2 * 8 + 1 },
		/* two start periods, header, 16 bits, ptrail, gap */
		{ "bo.lircd.conf", "bo", 2 * 3 + 2 * 16 + 1 + 1 },
		/* 0x4A: start+0 pulse, 1 space, 0 pulse, 1 space, 00 pulse, 1
		 * space, 0 pulse, parity (3 ones: 1) + stop space; 0x37:
		 * start pulse, 111 space, 0 pulse, 11 space, 00 pulse, parity
		 * (5 ones: 1) + stop space merging into the gap */
		{ "serial.lircd.conf", "serial", 7 + 1 + 6 },
		/* header, 12 bits, ptrail, gap */
		{ "goldstar.lircd.conf", "goldstar", 2 + 2 * 12 + 1 + 1 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char path[512];
		struct ir_keymap *km;
		struct ir_keymap_error err = { 0 };
		struct ir_edge_buf buf = { 0 };
		size_t frames;

		snprintf(path, sizeof(path), "%s/tests/data/lircd/%s", IRJACK_SOURCE_DIR,
			 cases[i].file);
		assert_int_equal(ir_keymap_new(&km), 0);
		if (ir_keymap_load(km, path, &err) < 0)
			fail_msg("%s:%u: %s", path, err.parse.line, err.parse.message);
		assert_int_equal(ir_keymap_encode(km, cases[i].remote, "KEY_1", 0, &buf), 0);
		printf("%s: KEY_1 is %zu edges\n", cases[i].remote, buf.len);
		assert_int_equal(buf.len, cases[i].edges);
		ir_edge_buf_free(&buf);
		/* (the built-in rcmm decoder reads RCMM-32's light too) */
		assert_int_equal(roundtrip(km, cases[i].remote, "KEY_1", 0, &frames), 1);
		assert_int_equal(roundtrip(km, cases[i].remote, "KEY_2", 2, &frames), 3);
		ir_keymap_free(km);
	}
}

/* SERIAL's bytes in light, durations checked by hand: 1200 baud (833 us a
 * bit), 8E1, 0x4A first: start and bit 0 (0) a pulse of 2 bits, bit 1 a
 * space, bit 2 a pulse, bit 3 a space, bits 4-5 a pulse of 2, bit 6 a
 * space, bit 7 a pulse, parity 1 and the stop bit a space of 2. */
static void serial_frame_is_an_rs232_byte_train(void **state)
{
	char path[512];
	struct ir_keymap *km;
	struct ir_keymap_error err = { 0 };
	struct ir_edge_buf buf = { 0 };
	static const uint32_t want[] = { 1666, 833, 833, 833, 1666, 833, 833, 1666 };

	(void)state;
	snprintf(path, sizeof(path), "%s/tests/data/lircd/serial.lircd.conf", IRJACK_SOURCE_DIR);
	assert_int_equal(ir_keymap_new(&km), 0);
	assert_int_equal(ir_keymap_load(km, path, &err), 0);
	assert_int_equal(ir_keymap_encode(km, "serial", "KEY_1", 0, &buf), 0);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		assert_int_equal(buf.edges[i].kind, i % 2 ? IR_SPACE : IR_PULSE);
		assert_int_equal(buf.edges[i].duration, want[i]);
	}
	ir_edge_buf_free(&buf);
	ir_keymap_free(km);
}

/* A SERIAL remote whose zero (or one) lasts no time: its bits cannot be
 * sent or told apart (lircd's own decoder loops forever on one).  The file
 * loads, its buttons do not encode, and decoding light ends. */
static void serial_zero_length_symbol_is_refused_not_looped(void **state)
{
	static const char conf[] = "begin remote\n name z\n bits 8\n flags SERIAL\n"
				   " baud 1200\n zero 0 833\n one 0 0\n gap 100000\n"
				   " begin codes\n  KEY_1 0x4A\n  KEY_2 0x00\n end codes\nend remote\n";
	static const struct ir_edge light[] = {
		{ .kind = IR_PULSE, .duration = 833 },	{ .kind = IR_SPACE, .duration = 833 },
		{ .kind = IR_PULSE, .duration = 1666 }, { .kind = IR_SPACE, .duration = 100000 },
	};
	struct ir_parse_error perr;
	struct ir_edge_buf buf = { 0 };
	struct frame_log *log = calloc(1, sizeof(*log));
	struct ir_decoder *dec;
	int ret;
	struct ir_keymap *km = parse(conf, &ret, &perr);

	(void)state;
	assert_non_null(log);
	assert_int_equal(ret, 0);
	assert_int_equal(ir_keymap_encode(km, "z", "KEY_1", 0, &buf), -EINVAL);
	assert_int_equal(ir_keymap_encode(km, "z", "KEY_2", 0, &buf), -EINVAL);
	assert_int_equal(ir_decoder_new(NULL, frame_log_add, log, &dec), 0);
	assert_int_equal(ir_keymap_attach(km, dec), 0);
	ir_decoder_feed_many(dec, light, sizeof(light) / sizeof(light[0]));
	ir_decoder_flush(dec);
	for (size_t i = 0; i < log->count; i++)
		assert_int_not_equal(log->frames[i].protocol, IR_PROTO_LIRC);
	ir_decoder_free(dec);
	ir_edge_buf_free(&buf);
	free(log);
	ir_keymap_free(km);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nec_remote_codes_are_lircds_full_code),
		cmocka_unit_test(nec_remote_roundtrips_with_repeat_codes),
		cmocka_unit_test(rc5_and_raw_remotes_roundtrip),
		cmocka_unit_test(malformed_files_fail_on_their_line),
		cmocka_unit_test(overlong_line_is_rejected),
		cmocka_unit_test(every_compat_remote_parses_and_roundtrips),
		cmocka_unit_test(symbol_flags_roundtrip),
		cmocka_unit_test(serial_frame_is_an_rs232_byte_train),
		cmocka_unit_test(serial_zero_length_symbol_is_refused_not_looped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
