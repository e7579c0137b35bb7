/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Transmit requests as they arrive over MQTT: the accepted forms, and a
 * reason for every refusal.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "send_request.h"

static struct irjackd_send_request req;
static char error[256];

static int parse(const char *text)
{
	return irjackd_send_request_parse(text, strlen(text), &req, error, sizeof(error));
}

static void expect_refused(const char *text, const char *words)
{
	int ret = parse(text);

	if (ret != -EINVAL || !strstr(error, words)) {
		fprintf(stderr, "'%s': got %d '%s', want -EINVAL '%s'\n", text, ret, error, words);
		fail();
	}
}

static void test_protocol_scancode_text(void **state)
{
	(void)state;
	assert_int_equal(parse("nec:0x04fb"), 0);
	assert_int_equal(req.kind, IRJACKD_SEND_SCANCODE);
	assert_int_equal(req.protocol, IR_PROTO_NEC);
	assert_int_equal(req.scancode, 0x04fb);
	assert_int_equal(parse("  rc-5:4353\n"), 0); /* ir-keytable's spelling, decimal */
	assert_int_equal(req.protocol, IR_PROTO_RC5);
	assert_int_equal(req.scancode, 4353);
}

static void test_remote_key_text(void **state)
{
	(void)state;
	assert_int_equal(parse("tv KEY_POWER"), 0);
	assert_int_equal(req.kind, IRJACKD_SEND_KEY);
	assert_string_equal(req.remote, "tv");
	assert_string_equal(req.key, "KEY_POWER");
	assert_int_equal(req.repeats, 0);
	assert_int_equal(parse("tv\tKEY_UP 3"), 0);
	assert_int_equal(req.repeats, 3);
}

static void test_json_forms(void **state)
{
	(void)state;
	assert_int_equal(parse("{\"protocol\":\"necx\",\"scancode\":\"0x123456\",\"repeats\":2,"
			       "\"reply\":\"a/b\",\"transmitter\":\"tv\"}"),
			 0);
	assert_int_equal(req.kind, IRJACKD_SEND_SCANCODE);
	assert_int_equal(req.protocol, IR_PROTO_NECX);
	assert_int_equal(req.scancode, 0x123456);
	assert_int_equal(req.repeats, 2);
	assert_string_equal(req.reply, "a/b");
	assert_string_equal(req.transmitter, "tv");
	assert_int_equal(parse(" { \"scancode\" : 1275 , \"protocol\" : \"nec\" } "), 0);
	assert_int_equal(req.scancode, 1275);
	assert_int_equal(parse("{\"remote\":\"t\\u00e9l\\u00e9\",\"key\":\"KEY_\\u0050OWER\"}"), 0);
	assert_int_equal(req.kind, IRJACKD_SEND_KEY);
	assert_string_equal(req.remote, "t\xc3\xa9l\xc3\xa9");
	assert_string_equal(req.key, "KEY_POWER");
	assert_int_equal(parse("{\"raw\":[9000,4500,560]}"), 0);
	assert_int_equal(req.kind, IRJACKD_SEND_RAW);
	assert_int_equal(req.raw_count, 3);
	assert_int_equal(req.raw[0], 9000);
	assert_int_equal(req.raw[2], 560);
}

static void test_refusals_say_why(void **state)
{
	char big[IRJACKD_SEND_REQUEST_MAX + 2];

	(void)state;
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_int_equal(parse(big), -EMSGSIZE);
	assert_non_null(strstr(error, "4097 bytes"));

	expect_refused("", "empty");
	expect_refused("   \n", "empty");
	expect_refused("garbage", "expected PROTOCOL:SCANCODE");
	expect_refused("a b c d", "expected PROTOCOL:SCANCODE");
	expect_refused("floppy:0x12", "unknown protocol 'floppy'");
	expect_refused("nec:0x04fb08", "outside nec's mask");
	expect_refused("nec:", "scancode");
	expect_refused("nec:-1", "scancode");
	expect_refused("nec:12abc", "scancode");
	expect_refused("tv KEY_UP 51", "repeats");
	expect_refused("tv KEY_UP -1", "repeats");
	expect_refused("{", "expected a string");
	expect_refused("{}", "empty request");
	expect_refused("{\"protocol\":\"nec\",\"scancode\":", "scancode");
	expect_refused("{\"protocol\":\"nec\"}", "protocol and scancode go together");
	expect_refused("{\"scancode\":1}", "protocol and scancode go together");
	expect_refused("{\"protocol\":\"nec\",\"scancode\":1.5}", "integer");
	expect_refused("{\"protocol\":\"nec\",\"scancode\":99999999999999999999999}", "too large");
	expect_refused("{\"protocol\":\"nec\",\"scancode\":1,\"remote\":\"tv\"}", "exactly one");
	expect_refused("{\"protocol\":\"nec\",\"scancode\":1,\"volume\":11}", "unknown key \"volume\"");
	expect_refused("{\"protocol\":\"nec\",\"scancode\":1} x", "text after");
	expect_refused("{\"protocol\":\"nec\",\"scancode\":1,\"repeats\":51}", "over 50");
	expect_refused("{\"remote\":\"tv\"}", "two names");
	expect_refused("{\"remote\":\"my tv\",\"key\":\"KEY_UP\"}", "two names");
	expect_refused("{\"remote\":\"tv\\u0000\",\"key\":\"KEY_UP\"}", "not allowed");
	expect_refused("{\"remote\":\"tv\\ud800\",\"key\":\"KEY_UP\"}", "not allowed");
	expect_refused("{\"remote\":\"tv\\q\",\"key\":\"KEY_UP\"}", "bad escape");
	expect_refused("{\"raw\":[]}", "no durations");
	expect_refused("{\"raw\":[9000,0]}", "0 µs");
	expect_refused("{\"raw\":[9000,-1]}", "non-negative");
	expect_refused("{\"raw\":[9000,500001]}", "over 500000");
	expect_refused("{\"raw\":[9000,[1]]}", "non-negative");
	expect_refused("{\"raw\":{}}", "array");
	expect_refused("{\"protocol\":{\"a\":1},\"scancode\":1}", "expected a string");
	expect_refused("{\"reply\":\"a/#\",\"remote\":\"tv\",\"key\":\"K\"}", "reply");
}

static void test_raw_bounded(void **state)
{
	char text[IRJACKD_SEND_REQUEST_MAX + 1];
	size_t pos = 0;

	(void)state;
	pos += (size_t)snprintf(text + pos, sizeof(text) - pos, "{\"raw\":[");
	for (int i = 0; i <= IRJACKD_SEND_RAW_MAX; i++)
		pos += (size_t)snprintf(text + pos, sizeof(text) - pos, "%s5", i ? "," : "");
	snprintf(text + pos, sizeof(text) - pos, "]}");
	expect_refused(text, "more than 512");
}

static void test_reply_known_on_error(void **state)
{
	(void)state;
	/* the sender hears about its mistake where it listens */
	expect_refused("{\"reply\":\"me/answers\",\"protocol\":\"floppy\",\"scancode\":1}",
		       "unknown protocol");
	assert_string_equal(req.reply, "me/answers");
}

static void test_payload_not_nul_terminated(void **state)
{
	const char text[] = { 'n', 'e', 'c', ':', '0', 'x', '1', '2', 'Z' };

	(void)state;
	/* only `len` bytes are read: the 'Z' after them is not part of it */
	assert_int_equal(irjackd_send_request_parse(text, 8, &req, error, sizeof(error)), 0);
	assert_int_equal(req.scancode, 0x12);
	assert_int_equal(irjackd_send_request_parse("nec:0x1\0x", 9, &req, error, sizeof(error)),
			 -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_protocol_scancode_text),
		cmocka_unit_test(test_remote_key_text),
		cmocka_unit_test(test_json_forms),
		cmocka_unit_test(test_refusals_say_why),
		cmocka_unit_test(test_raw_bounded),
		cmocka_unit_test(test_reply_known_on_error),
		cmocka_unit_test(test_payload_not_nul_terminated),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
