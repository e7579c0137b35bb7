/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Timing formats: mode2 / ir-ctl text, LIRC binary, lircd raw codes, IRMP. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "ir_timing_io.h"

static int parse(const char *text, enum ir_timing_format fmt, struct ir_edge_buf *out,
		 struct ir_parse_error *err)
{
	return ir_timing_parse(text, strlen(text), fmt, NULL, out, err);
}

static void assert_edge(const struct ir_edge_buf *b, size_t i, enum ir_edge_kind kind,
			uint32_t duration)
{
	assert_true(i < b->len);
	assert_int_equal(b->edges[i].kind, kind);
	assert_int_equal(b->edges[i].duration, duration);
}

static void test_mode2_keywords(void **state)
{
	struct ir_edge_buf b = { 0 };
	struct ir_parse_error err;

	(void)state;
	assert_int_equal(parse("# a capture\ncarrier 38000\npulse 9000\nspace 4500\r\n"
			       "pulse 560 // trailer\nspace 100\nspace 200\ntimeout 125000\n",
			       IR_FORMAT_AUTO, &b, &err),
			 0);
	assert_int_equal(b.len, 6);
	assert_edge(&b, 0, IR_CARRIER, 38000);
	assert_edge(&b, 1, IR_PULSE, 9000);
	assert_edge(&b, 2, IR_SPACE, 4500);
	assert_edge(&b, 3, IR_PULSE, 560);
	/* adjacent spaces merge, as ir-ctl merges them */
	assert_edge(&b, 4, IR_SPACE, 300);
	assert_edge(&b, 5, IR_TIMEOUT, 125000);
	ir_edge_buf_free(&b);
	assert_int_equal(parse("pulse 10\ntimeout 125000\n", IR_FORMAT_MODE2, &b, &err), 0);
	assert_edge(&b, 1, IR_TIMEOUT, 125000);
	ir_edge_buf_free(&b);
}

static void test_compact_form(void **state)
{
	struct ir_edge_buf b = { 0 };
	struct ir_parse_error err;

	(void)state;
	assert_int_equal(parse("+889 -889 +1778\n-889 889 889\n", IR_FORMAT_AUTO, &b, &err), 0);
	assert_int_equal(b.len, 6);
	assert_edge(&b, 0, IR_PULSE, 889);
	assert_edge(&b, 2, IR_PULSE, 1778);
	assert_edge(&b, 3, IR_SPACE, 889);
	/* bare numbers alternate from the last kind */
	assert_edge(&b, 4, IR_PULSE, 889);
	assert_edge(&b, 5, IR_SPACE, 889);
	ir_edge_buf_free(&b);
}

static void test_scancode_lines_encode(void **state)
{
	struct ir_edge_buf b = { 0 };
	struct ir_parse_error err;

	(void)state;
	assert_int_equal(parse("scancode rc5:0x1e01\n", IR_FORMAT_MODE2, &b, &err), 0);
	/* ir-ctl's man page: rc5 0x1e01 starts +889 -889 +1778 -1778 */
	assert_edge(&b, 0, IR_PULSE, 889);
	assert_edge(&b, 1, IR_SPACE, 889);
	assert_edge(&b, 2, IR_PULSE, 1778);
	assert_edge(&b, 3, IR_SPACE, 1778);
	ir_edge_buf_free(&b);
	assert_int_equal(parse("scancode foo:1\n", IR_FORMAT_MODE2, &b, &err), -EINVAL);
	assert_non_null(strstr(err.message, "unknown protocol"));
	assert_int_equal(parse("scancode rc5:0x10000\n", IR_FORMAT_MODE2, &b, &err), -EINVAL);
	assert_non_null(strstr(err.message, "not valid"));
}

struct bad_case {
	const char *text;
	unsigned line;
	const char *message_part;
};

static void test_mode2_errors_name_the_line(void **state)
{
	static const struct bad_case cases[] = {
		{ "pulse 100\nspace -5\n", 2, "expected a duration" },
		{ "pulse 100\npulse 99999999999\n", 2, "absurd" },
		{ "pulse 100\npulse 16777216\n", 2, "absurd" },
		{ "pulse 0\n", 1, "0 µs" },
		{ "pulse\n", 1, "needs a value" },
		{ "pulse 10 20\n", 1, "junk" },
		{ "\n\nwibble 10\n", 3, "unknown keyword" },
		{ "+100 -2x0\n", 1, "not a whole number" },
		{ "pulse 12.5\n", 1, "not a whole number" },
		{ "+100 -\n", 1, "expected a duration" },
		{ "space 16777215\nspace 1\n", 2, "exceeds" },
	};
	struct ir_edge_buf b = { 0 };
	struct ir_parse_error err;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(parse(cases[i].text, IR_FORMAT_MODE2, &b, &err), -EINVAL);
		assert_int_equal(err.line, cases[i].line);
		if (!strstr(err.message, cases[i].message_part)) {
			fprintf(stderr, "case %zu: '%s'\n", i, err.message);
			fail();
		}
		/* nothing is appended on error */
		assert_int_equal(b.len, 0);
	}
	ir_edge_buf_free(&b);
}

static void test_overlong_line_is_an_error(void **state)
{
	size_t n = 10000;
	char *text = malloc(n + 1);
	struct ir_edge_buf b = { 0 };
	struct ir_parse_error err;

	(void)state;
	memset(text, '1', n);
	text[0] = '+';
	text[n] = '\0';
	assert_int_equal(parse(text, IR_FORMAT_MODE2, &b, &err), -EINVAL);
	assert_non_null(strstr(err.message, "longer than"));
	free(text);
}

static void test_binary_stream(void **state)
{
	const uint32_t words[] = {
		0x02000000u | 36000, 0x01000000u | 889, 0x00000000u | 889, 0x03000000u | 125000,
		0x04ffffffu,
	};
	struct ir_edge_buf b = { 0 };
	struct ir_parse_error err;

	(void)state;
	assert_int_equal(ir_timing_detect(words, sizeof(words)), IR_FORMAT_BINARY);
	assert_int_equal(ir_timing_parse(words, sizeof(words), IR_FORMAT_AUTO, NULL, &b, &err), 0);
	assert_int_equal(b.len, 5);
	assert_edge(&b, 0, IR_CARRIER, 36000);
	assert_edge(&b, 1, IR_PULSE, 889);
	assert_edge(&b, 2, IR_SPACE, 889);
	assert_edge(&b, 3, IR_TIMEOUT, 125000);
	assert_int_equal(b.edges[4].kind, IR_OVERFLOW);
	ir_edge_buf_free(&b);

	/* truncated: names the word */
	assert_int_equal(ir_timing_parse(words, sizeof(words) - 2, IR_FORMAT_BINARY, NULL, &b, &err),
			 -EINVAL);
	assert_int_equal(err.line, 5);
	assert_non_null(strstr(err.message, "truncated"));
	/* unknown type byte */
	const uint32_t bad[] = { 0x01000000u | 10, 0x07000000u | 10 };

	assert_int_equal(ir_timing_parse(bad, sizeof(bad), IR_FORMAT_BINARY, NULL, &b, &err), -EINVAL);
	assert_int_equal(err.line, 2);
	const uint32_t zero_pulse[] = { 0x01000000u };

	assert_int_equal(ir_timing_parse(zero_pulse, 4, IR_FORMAT_BINARY, NULL, &b, &err), -EINVAL);
	/* a failed parse leaves the buffer's contents as they were, but it may
	 * have grown: the caller still frees it */
	ir_edge_buf_free(&b);
}

static void test_lircd_raw_codes(void **state)
{
	const char *conf = "begin remote\n"
			   "  name  tv\n"
			   "  flags RAW_CODES\n"
			   "  frequency 38000\n"
			   "  gap 50000\n"
			   "  begin raw_codes\n"
			   "    name KEY_POWER\n"
			   "      9000 4500 560\n"
			   "    name KEY_MUTE\n"
			   "      100 200\n"
			   "      300\n"
			   "  end raw_codes\n"
			   "end remote\n";
	struct ir_edge_buf b = { 0 };
	struct ir_parse_error err;

	(void)state;
	assert_int_equal(ir_timing_detect(conf, strlen(conf)), IR_FORMAT_LIRCD);
	assert_int_equal(parse(conf, IR_FORMAT_AUTO, &b, &err), 0);
	/* carrier, the first signal, the remote's gap, the second, the gap */
	assert_int_equal(b.len, 9);
	assert_edge(&b, 0, IR_CARRIER, 38000);
	assert_edge(&b, 1, IR_PULSE, 9000);
	assert_edge(&b, 3, IR_PULSE, 560);
	assert_edge(&b, 4, IR_SPACE, 50000);
	assert_edge(&b, 5, IR_PULSE, 100);
	assert_edge(&b, 6, IR_SPACE, 200);
	assert_edge(&b, 7, IR_PULSE, 300);
	assert_edge(&b, 8, IR_SPACE, 50000);
	ir_edge_buf_free(&b);
	/* plain numbers with name lines, no lircd.conf around them */
	assert_int_equal(parse("name A\n1 2 3\nname B\n4 5 6\n", IR_FORMAT_LIRCD, &b, &err), 0);
	/* 1 2 3, the default 100 ms gap, 4 5 6, and a final gap */
	assert_int_equal(b.len, 8);
	assert_edge(&b, 3, IR_SPACE, 100000);
	assert_edge(&b, 7, IR_SPACE, 100000);
	ir_edge_buf_free(&b);
	assert_int_equal(parse("begin raw_codes\nname A\n1 x 3\nend raw_codes\n", IR_FORMAT_LIRCD, &b,
			       &err),
			 -EINVAL);
	assert_int_equal(err.line, 3);
	assert_int_equal(b.len, 0);
	ir_edge_buf_free(&b);
}

static void test_irmp_samples(void **state)
{
	/* 10 kHz: 100 µs per sample; active = 0 or _, idle = 1 or - */
	const char *text = "# comment [ 2 (NEC) 0x1 0x2 ]\n"
			   "1100011100_\r\n"
			   "\n"
			   "--__\n";
	struct ir_timing_parse_opts opts = { .irmp_sample_rate = 10000 };
	struct ir_edge_buf b = { 0 };
	struct ir_parse_error err;

	(void)state;
	assert_int_equal(ir_timing_detect(text, strlen(text)), IR_FORMAT_MODE2); /* too short to tell */
	assert_int_equal(ir_timing_parse(text, strlen(text), IR_FORMAT_IRMP, &opts, &b, &err), 0);
	assert_edge(&b, 0, IR_SPACE, 200);
	assert_edge(&b, 1, IR_PULSE, 300);
	assert_edge(&b, 2, IR_SPACE, 300);
	assert_edge(&b, 3, IR_PULSE, 300);
	/* a line ends with a second of silence: merges with the next line's idle */
	assert_edge(&b, 4, IR_SPACE, 1000000 + 200);
	assert_edge(&b, 5, IR_PULSE, 200);
	assert_edge(&b, 6, IR_SPACE, 1000000);
	ir_edge_buf_free(&b);

	assert_int_equal(ir_timing_parse("0101x\n", 6, IR_FORMAT_IRMP, &opts, &b, &err), -EINVAL);
	assert_int_equal(err.line, 1);
	assert_non_null(strstr(err.message, "column 5"));
	assert_int_equal(b.len, 0);
	ir_edge_buf_free(&b);

	const char *long_line = "00000000000000000000111111111111111111110000";

	assert_int_equal(ir_timing_detect(long_line, strlen(long_line)), IR_FORMAT_IRMP);
	assert_int_equal(ir_timing_irmp_rate_from_name("/x/samsung48-15kHz.txt"), 15000);
	assert_int_equal(ir_timing_irmp_rate_from_name("bose_20khz.txt"), 20000);
	assert_int_equal(ir_timing_irmp_rate_from_name("nec.txt"), 10000);
}

/* Writers produce what the readers read back, edge for edge. */
static void test_writers_round_trip(void **state)
{
	const struct ir_edge edges[] = {
		{ .duration = 38000, .kind = IR_CARRIER }, ir_pulse(9000), ir_space(4500),
		ir_pulse(560), ir_space(30000), ir_pulse(560),
		{ .duration = 125000, .kind = IR_TIMEOUT },
	};
	size_t n = sizeof(edges) / sizeof(edges[0]);
	int (*writers[])(FILE *, const struct ir_edge *, size_t) = {
		ir_timing_write_mode2, ir_timing_write_compact, ir_timing_write_binary,
	};

	(void)state;
	for (size_t w = 0; w < 3; w++) {
		char *data = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&data, &len);
		struct ir_edge_buf b = { 0 };
		struct ir_parse_error err;

		assert_int_equal(writers[w](f, edges, n), 0);
		fclose(f);
		assert_int_equal(ir_timing_parse(data, len, IR_FORMAT_AUTO, NULL, &b, &err), 0);
		assert_int_equal(b.len, n);
		for (size_t i = 0; i < n; i++) {
			assert_int_equal(b.edges[i].kind, edges[i].kind);
			assert_int_equal(b.edges[i].duration, edges[i].duration);
		}
		ir_edge_buf_free(&b);
		free(data);
	}
}

static void test_read_file_reports_errno(void **state)
{
	struct ir_edge_buf b = { 0 };
	struct ir_parse_error err;
	char path[] = "/tmp/irjack-test-XXXXXX";
	int fd = mkstemp(path);
	enum ir_timing_format detected;

	(void)state;
	assert_int_equal(ir_timing_read_file("/nonexistent/x.mode2", IR_FORMAT_AUTO, NULL, &b, NULL,
					     &err),
			 -ENOENT);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "pulse 5\nspace 7\n", 16), 16);
	close(fd);
	assert_int_equal(ir_timing_read_file(path, IR_FORMAT_AUTO, NULL, &b, &detected, &err), 0);
	assert_int_equal(detected, IR_FORMAT_MODE2);
	assert_int_equal(b.len, 2);
	unlink(path);
	ir_edge_buf_free(&b);
}

static void test_format_names(void **state)
{
	enum ir_timing_format f;

	(void)state;
	assert_int_equal(ir_timing_format_from_name("irmp", &f), 0);
	assert_int_equal(f, IR_FORMAT_IRMP);
	assert_int_equal(ir_timing_format_from_name("ir-ctl", &f), 0);
	assert_int_equal(f, IR_FORMAT_MODE2);
	assert_int_equal(ir_timing_format_from_name("wav", &f), -ENOENT);
	assert_string_equal(ir_timing_format_name(IR_FORMAT_BINARY), "binary");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mode2_keywords),
		cmocka_unit_test(test_compact_form),
		cmocka_unit_test(test_scancode_lines_encode),
		cmocka_unit_test(test_mode2_errors_name_the_line),
		cmocka_unit_test(test_overlong_line_is_an_error),
		cmocka_unit_test(test_binary_stream),
		cmocka_unit_test(test_lircd_raw_codes),
		cmocka_unit_test(test_irmp_samples),
		cmocka_unit_test(test_writers_round_trip),
		cmocka_unit_test(test_read_file_reports_errno),
		cmocka_unit_test(test_format_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
