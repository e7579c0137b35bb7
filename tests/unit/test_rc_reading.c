/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rc-core's reading alongside (issue #19): a frame of a protocol that
 * specialises an rc-core one carries rc_protocol and rc_scancode in the
 * JSON lines and the MQTT events, with the numbers rc-core's decoders
 * report for the same light (worked out by hand from the bytes sent, as
 * ir-nec-decoder.c and ir-rc6-decoder.c lay them out); rc-core's own
 * frames and keymap decoders' frames carry none.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "ir_frame_format.h"
#include "out_mqtt.h"

static void json_of(enum ir_protocol p, uint64_t sc, uint16_t decoder_id, char *buf, size_t size)
{
	struct ir_frame f = { .protocol = p, .scancode = sc, .start_us = 1000000,
			      .end_us = 1067500, .decoder_id = decoder_id };

	assert_true(ir_frame_format_json(&f, NULL, buf, size) < (int)size);
}

/* Samsung's TV frame, bytes 07 07 02 FD: IRMP's samsung32 0x0707fd02;
 * rc-core: address bytes not complementary, command bytes are: necx
 * 0x070702. */
static void test_samsung32_reads_as_necx(void **state)
{
	char line[512];

	(void)state;
	json_of(IR_PROTO_SAMSUNG32, 0x0707fd02, 0, line, sizeof(line));
	assert_string_equal(line, "{\"time\":1.000000,\"end\":1.067500,\"protocol\":\"samsung32\","
				  "\"scancode\":117964034,\"scancode_hex\":\"0x0707fd02\",\"toggle\":false,"
				  "\"repeat\":false,\"rc_protocol\":\"necx\",\"rc_scancode\":460546}\n");
}

/* Pioneer device 0xA5 function 0x12 (A5 5A 12 ED): nec 0xa512. */
static void test_pioneer_reads_as_nec(void **state)
{
	char line[512];

	(void)state;
	json_of(IR_PROTO_PIONEER, 0xa50012, 0, line, sizeof(line));
	assert_non_null(strstr(line, "\"protocol\":\"pioneer\",\"scancode\":10813458,"));
	assert_non_null(strstr(line, "\"rc_protocol\":\"nec\",\"rc_scancode\":42258}"));
}

/* Apple pairing ID 0x33, command 0x05 (EE 87 05 33): no byte pair
 * complementary, nec32 B1 B0 B3 B2 = 0x87ee3305. */
static void test_apple_reads_as_nec32(void **state)
{
	char line[512];

	(void)state;
	json_of(IR_PROTO_APPLE, 0x330005, 0, line, sizeof(line));
	assert_non_null(strstr(line, "\"rc_protocol\":\"nec32\",\"rc_scancode\":2280534789}"));
}

/* IRMP's RC6A with Microsoft's customer 0x000f: rc-core reports the
 * 32-bit mode-6A frame with customer 0x800f as rc6_mce, toggle dropped. */
static void test_rc6a_with_mce_customer_reads_as_rc6_mce(void **state)
{
	char line[512];

	(void)state;
	json_of(IR_PROTO_RC6A, 0x000f1234, 0, line, sizeof(line));
	assert_non_null(strstr(line, "\"rc_protocol\":\"rc6_mce\",\"rc_scancode\":2148471348}"));
	json_of(IR_PROTO_RC6A, 0x00211234, 0, line, sizeof(line));
	assert_non_null(strstr(line, "\"rc_protocol\":\"rc6_6a_32\",\"rc_scancode\":2149650996}"));
}

/* rc-core's own protocols, protocols rc-core has no decoder for, and
 * frames a keymap's decoder read carry no rc-core reading. */
static void test_no_reading_where_none_differs(void **state)
{
	char line[512];
	enum ir_protocol p;
	uint64_t sc;

	(void)state;
	json_of(IR_PROTO_NEC, 0x04fb, 0, line, sizeof(line));
	assert_null(strstr(line, "rc_protocol"));
	json_of(IR_PROTO_DENON_K, 0x12345, 0, line, sizeof(line));
	assert_null(strstr(line, "rc_protocol"));
	json_of(IR_PROTO_GICABLE, 0x3005a, 0, line, sizeof(line));
	assert_null(strstr(line, "rc_protocol"));
	json_of(IR_PROTO_SAMSUNG32, 0x0707fd02, 3, line, sizeof(line));
	assert_null(strstr(line, "rc_protocol"));
	assert_false(ir_frame_rc_reading(&(struct ir_frame){ .protocol = IR_PROTO_NECX,
							     .scancode = 0x070702 },
					 &p, &sc));
}

/* The MQTT event carries the same two fields, after the scancode. */
static void test_mqtt_event_carries_rc_reading(void **state)
{
	struct ir_frame f = { .protocol = IR_PROTO_SAMSUNG32, .scancode = 0x0707fd02 };
	struct ir_key_binding key = { .key = "KEY_2", .remote = "tv" };
	struct timespec now = { .tv_sec = 1700000000, .tv_nsec = 250000000 };
	char payload[1024];

	(void)state;
	assert_true(ir_mqtt_event_payload("mic", &f, &key, &now, payload, sizeof(payload)) <
		    (int)sizeof(payload));
	assert_string_equal(payload,
			    "{\"source\":\"mic\",\"protocol\":\"samsung32\",\"scancode\":\"0x0707fd02\","
			    "\"rc_protocol\":\"necx\",\"rc_scancode\":\"0x070702\",\"key\":\"KEY_2\","
			    "\"remote\":\"tv\",\"repeat\":false,\"toggle\":false,"
			    "\"timestamp\":1700000000.250}");
	f.protocol = IR_PROTO_NECX;
	f.scancode = 0x070702;
	ir_mqtt_event_payload("mic", &f, NULL, &now, payload, sizeof(payload));
	assert_null(strstr(payload, "rc_protocol"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_samsung32_reads_as_necx),
		cmocka_unit_test(test_pioneer_reads_as_nec),
		cmocka_unit_test(test_apple_reads_as_nec32),
		cmocka_unit_test(test_rc6a_with_mce_customer_reads_as_rc6_mce),
		cmocka_unit_test(test_no_reading_where_none_differs),
		cmocka_unit_test(test_mqtt_event_carries_rc_reading),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
