/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_mceusb.c - the MCE USB codec against packet streams built from the
 * documented format, and TX -> RX -> decoder round trips.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "ir_mceusb.h"
#include "test_util.h"

static void parse(const uint8_t *bytes, size_t len, size_t chunk, struct ir_edge_buf *out)
{
	struct ir_mceusb_rx *rx = NULL;

	assert_int_equal(ir_mceusb_rx_new(&rx), 0);
	for (size_t i = 0; i < len; i += chunk) {
		size_t n = len - i < chunk ? len - i : chunk;
		assert_int_equal(ir_mceusb_rx_feed(rx, bytes + i, n, out), 0);
	}
	ir_mceusb_rx_free(rx);
}

static void rx_merges_runs_and_ends_on_timeout(void **state)
{
	(void)state;
	/* pulse 9000 = 127+53 units in two samples, space 4500 = 90 units,
	 * pulse 550 (11 units), then a long space and the end-of-burst packet */
	const uint8_t s[] = { 0x84, 0xFF, 0x80 | 53, 90, 0x80 | 11,
			      0x82, 0x7F, 0x7F, 0x80 };
	for (size_t chunk = 1; chunk <= sizeof(s); chunk++) {
		struct ir_edge_buf b = { 0 };

		parse(s, sizeof(s), chunk, &b);
		assert_int_equal(b.len, 4);
		assert_int_equal(b.edges[0].kind, IR_PULSE);
		assert_int_equal(b.edges[0].duration, 9000);
		assert_int_equal(b.edges[1].kind, IR_SPACE);
		assert_int_equal(b.edges[1].duration, 4500);
		assert_int_equal(b.edges[2].kind, IR_PULSE);
		assert_int_equal(b.edges[2].duration, 550);
		assert_int_equal(b.edges[3].kind, IR_TIMEOUT);
		assert_int_equal(b.edges[3].duration, 254 * 50);
		ir_edge_buf_free(&b);
	}
}

static void rx_skips_status_and_reports_carrier_and_timeout(void **state)
{
	(void)state;
	struct ir_mceusb_rx *rx = NULL;
	struct ir_edge_buf b = { 0 };
	/* version, TX mask, illegal command, carrier 38 kHz (ps 1, div 66 ->
	 * 2.5 MHz / 66 = 37878 Hz), timeout 0x07D0 units = 100 ms, then data
	 * whose samples look like command lead bytes (0x9F = pulse 31 units) */
	const uint8_t s[] = { 0xFF, 0x22, 0x05, 0x9F, 0x08, 0x03, 0x9F, 0xFE,
			      0x9F, 0x06, 0x01, 66, 0x9F, 0x0C, 0x07, 0xD0,
			      0x82, 0x9F, 0x20, 0x80 };

	assert_int_equal(ir_mceusb_rx_new(&rx), 0);
	assert_int_equal(ir_mceusb_rx_feed(rx, s, sizeof(s), &b), 0);
	assert_int_equal(ir_mceusb_rx_timeout_us(rx), 100000);
	assert_int_equal(b.len, 3);
	assert_int_equal(b.edges[0].kind, IR_CARRIER);
	assert_int_equal(b.edges[0].duration, 37878);
	assert_int_equal(b.edges[1].kind, IR_PULSE);
	assert_int_equal(b.edges[1].duration, 31 * 50);
	assert_int_equal(b.edges[2].kind, IR_TIMEOUT);
	assert_int_equal(b.edges[2].duration, 32 * 50);
	ir_edge_buf_free(&b);
	ir_mceusb_rx_free(rx);
}

static void tx_splits_long_durations_and_packets(void **state)
{
	(void)state;
	uint8_t out[256];
	/* 9000 µs = 180 units = 127 + 53; 31 pulse/space pairs force a second packet */
	struct ir_edge e[] = { ir_pulse(9000), ir_space(4500) };
	long n = ir_mceusb_tx_build(e, 2, 0x01, out, sizeof(out));
	const uint8_t want[] = { 0x9F, 0x08, 0x01, 0x83, 0xFF, 0x80 | 53, 90, 0x80 };

	assert_int_equal(n, sizeof(want));
	assert_memory_equal(out, want, sizeof(want));

	struct ir_edge many[40];
	for (int i = 0; i < 40; i++)
		many[i] = (i & 1) ? ir_space(100) : ir_pulse(100);
	n = ir_mceusb_tx_build(many, 40, 0x02, out, sizeof(out));
	assert_int_equal(n, 3 + 1 + 30 + 1 + 10 + 1);
	assert_int_equal(out[3], 0x9E);
	assert_int_equal(out[34], 0x80 | 10);
	assert_int_equal(out[n - 1], 0x80);
	assert_int_equal(ir_mceusb_tx_build(many, 40, 0x02, out, 20), -ENOSPC);
}

static void carrier_cmd_matches_documented_values(void **state)
{
	(void)state;
	uint8_t c[4];

	assert_int_equal(ir_mceusb_carrier_cmd(0, c), 4);
	assert_int_equal(c[2], 0x01);
	assert_int_equal(c[3], 0x80);
	assert_int_equal(ir_mceusb_carrier_cmd(38000, c), 4);
	assert_int_equal(c[0], 0x9F);
	assert_int_equal(c[1], 0x06);
	uint32_t hz = ir_mceusb_carrier_hz(c[2], c[3]);
	assert_true(hz > 37000 && hz < 39000);
	assert_int_equal(ir_mceusb_carrier_cmd(5, c), -EINVAL);
}

static void tx_roundtrip_decodes_to_same_scancode(void **state)
{
	(void)state;
	static const struct { enum ir_protocol p; uint64_t sc; } cases[] = {
		{ IR_PROTO_NEC, 0x04fb },   { IR_PROTO_RC5, 0x1e01 },
		{ IR_PROTO_SONY12, 0x10015 }, { IR_PROTO_JVC, 0x1234 },
		{ IR_PROTO_RC6_MCE, 0x800f040c },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ir_edge_buf tx = { 0 }, rx = { 0 };
		static uint8_t pkt[8192];
		struct frame_log *log = calloc(1, sizeof(*log));

		assert_non_null(log);
		assert_int_equal(ir_encode(cases[i].p, cases[i].sc, NULL, &tx), 0);
		long n = ir_mceusb_tx_build(tx.edges, tx.len, 1, pkt, sizeof(pkt));
		assert_true(n > 3);
		/* the device echoes data packets; feed them back skipping the mask header */
		parse(pkt + 3, (size_t)n - 3, 7, &rx);
		size_t timing = 0;
		for (size_t k = 0; k < rx.len; k++) {
			if (rx.edges[k].kind == IR_TIMEOUT)
				continue;
			assert_int_equal(rx.edges[k].kind, tx.edges[timing].kind);
			long d = (long)rx.edges[k].duration - (long)tx.edges[timing].duration;
			assert_true(d >= -25 && d <= 25);
			timing++;
		}
		assert_true(timing + 1 >= tx.len);
		decode_edges(NULL, rx.edges, rx.len, log);
		assert_true(log->count >= 1);
		assert_int_equal(log->frames[0].protocol, cases[i].p);
		assert_int_equal(log->frames[0].scancode, cases[i].sc);
		free(log);
		ir_edge_buf_free(&tx);
		ir_edge_buf_free(&rx);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rx_merges_runs_and_ends_on_timeout),
		cmocka_unit_test(rx_skips_status_and_reports_carrier_and_timeout),
		cmocka_unit_test(tx_splits_long_durations_and_packets),
		cmocka_unit_test(carrier_cmd_matches_documented_values),
		cmocka_unit_test(tx_roundtrip_decodes_to_same_scancode),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
