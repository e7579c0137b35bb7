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
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "ir_mceusb.h"
#include "ir_mceusb_devices.h"
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
	/* version, wake version (4 bytes that look like data headers), TX
	 * mask, illegal command, TX carrier 38 kHz (ps 1, div 66 -> 2.5 MHz /
	 * 66 = 37878 Hz), timeout 0x07D0 units = 100 ms, then data whose
	 * samples look like command lead bytes (0x9F = pulse 31 units), and
	 * a carrier count of 0 (long-range receiver: no measurement) */
	const uint8_t s[] = { 0xFF, 0x22, 0x05, 0xFF, 0x18, 0x84, 0x9F, 0x81, 0x83,
			      0x9F, 0x08, 0x03, 0x9F, 0xFE,
			      0x9F, 0x06, 0x01, 66, 0x9F, 0x0C, 0x07, 0xD0,
			      0x82, 0x9F, 0x20, 0x9F, 0x15, 0x00, 0x00, 0x80 };

	assert_int_equal(ir_mceusb_rx_new(&rx), 0);
	assert_int_equal(ir_mceusb_rx_feed(rx, s, sizeof(s), &b), 0);
	assert_int_equal(ir_mceusb_rx_timeout_us(rx), 100000);
	assert_int_equal(ir_mceusb_rx_tx_carrier_hz(rx), 37878);
	assert_int_equal(b.len, 2);
	assert_int_equal(b.edges[0].kind, IR_PULSE);
	assert_int_equal(b.edges[0].duration, 31 * 50);
	assert_int_equal(b.edges[1].kind, IR_TIMEOUT);
	assert_int_equal(b.edges[1].duration, 32 * 50);
	ir_edge_buf_free(&b);
	ir_mceusb_rx_free(rx);
}

static void rx_measures_carrier_from_cycle_count(void **state)
{
	(void)state;
	struct ir_mceusb_rx *rx = NULL;
	struct ir_edge_buf b = { 0 };
	/* two pulses of 12 units (600 µs each, 1.2 ms of light) at 38 kHz
	 * are 45.6 cycles; the device counts 44 and misses one per pulse */
	const uint8_t s[] = { 0x84, 0x80 | 12, 20, 0x80 | 12, 40,
			      0x9F, 0x15, 0x00, 44, 0x80 };

	assert_int_equal(ir_mceusb_rx_new(&rx), 0);
	ir_mceusb_rx_set_undercount(rx, true);
	for (size_t i = 0; i < sizeof(s); i++)
		assert_int_equal(ir_mceusb_rx_feed(rx, s + i, 1, &b), 0);
	assert_int_equal(b.len, 5);
	assert_int_equal(b.edges[3].kind, IR_CARRIER);
	assert_int_equal(b.edges[3].duration, 20000 * 46 / 24);
	assert_int_equal(b.edges[4].kind, IR_TIMEOUT);
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

static void device_table_quirks(void **state)
{
	(void)state;
	const struct ir_mceusb_device *ehome = ir_mceusb_device_find(0x0471, 0x0815);
	const struct ir_mceusb_device *hp = ir_mceusb_device_find(0x0471, 0x060c);
	const struct ir_mceusb_device *gen1 = ir_mceusb_device_find(0x045e, 0x006d);
	const struct ir_mceusb_device *gen3 = ir_mceusb_device_find(0x1784, 0x0011);
	const struct ir_mceusb_device *rx_only = ir_mceusb_device_find(0x0609, 0x0353);
	const struct ir_mceusb_device *realtek = ir_mceusb_device_find(0x0bda, 0x0161);

	assert_non_null(ehome);
	assert_non_null(hp);
	assert_non_null(gen1);
	assert_non_null(gen3);
	assert_non_null(rx_only);
	assert_non_null(realtek);
	assert_null(ir_mceusb_device_find(0x0471, 0x0816));
	assert_true(ir_mceusb_device_count() > 60);
	for (size_t i = 0; i < ir_mceusb_device_count(); i++)
		assert_ptr_equal(ir_mceusb_device_find(ir_mceusb_device_at(i)->vendor,
						       ir_mceusb_device_at(i)->product),
				 ir_mceusb_device_at(i));
	assert_true(gen1->quirks & MCE_QUIRK_GEN1);
	assert_true(gen3->quirks & MCE_QUIRK_GEN3);
	assert_true(gen3->quirks & MCE_QUIRK_BROKEN_TIMEOUT);
	assert_true(rx_only->quirks & MCE_QUIRK_NO_TX);
	assert_int_equal(realtek->interface, 2);

	/* inverted boards: emitter 1 -> 0x04, emitter 2 -> 0x02, both -> 0x06 */
	assert_int_equal(ir_mceusb_tx_mask(ehome, 1), 0x04);
	assert_int_equal(ir_mceusb_tx_mask(ehome, 2), 0x02);
	assert_int_equal(ir_mceusb_tx_mask(ehome, 3), 0x06);
	assert_int_equal(ir_mceusb_tx_mask(ehome, 0), 0x06);
	assert_int_equal(ir_mceusb_tx_mask(hp, 1), 0x01);
	assert_int_equal(ir_mceusb_tx_mask(hp, 0), 0x03);
}

static void init_commands_per_generation(void **state)
{
	(void)state;
	uint8_t out[64];
	const uint8_t gen2[] = { 0x00, 0xFF, 0xAA, 0xFF, 0x18, 0x9F, 0x05, 0xFF, 0x22,
				 0x9F, 0x16, 0x9F, 0x13, 0x9F, 0x0C, 0x07, 0xD0,
				 0x9F, 0x0D, 0x9F, 0x15 };
	const uint8_t gen3_rx_only_default_timeout[] = { 0xFF, 0x22, 0x9F, 0x16, 0x9F, 0x0D,
							 0x9F, 0x15 };
	const uint8_t gen1[] = { 0x00, 0xFF, 0xAA, 0xFF, 0x22, 0x9F, 0x16, 0x9F, 0x13,
				 0x9F, 0x0D, 0x9F, 0x15 };
	struct ir_mceusb_device g3 = *ir_mceusb_device_find(0x1784, 0x0008);
	long n;

	n = ir_mceusb_init_commands(ir_mceusb_device_find(0x0471, 0x0815), 100000, out, sizeof(out));
	assert_int_equal(n, sizeof(gen2));
	assert_memory_equal(out, gen2, sizeof(gen2));
	g3.quirks |= MCE_QUIRK_NO_TX | MCE_QUIRK_BROKEN_TIMEOUT;
	n = ir_mceusb_init_commands(&g3, 100000, out, sizeof(out));
	assert_int_equal(n, sizeof(gen3_rx_only_default_timeout));
	assert_memory_equal(out, gen3_rx_only_default_timeout, sizeof(gen3_rx_only_default_timeout));
	n = ir_mceusb_init_commands(ir_mceusb_device_find(0x045e, 0x006d), 0, out, sizeof(out));
	assert_int_equal(n, sizeof(gen1));
	assert_memory_equal(out, gen1, sizeof(gen1));
	assert_int_equal(ir_mceusb_init_commands(ir_mceusb_device_find(0x0471, 0x0815), 0, out, 5),
			 -ENOSPC);

	/* the parser reads the answers without taking them for samples */
	struct ir_mceusb_rx *rx = NULL;
	struct ir_edge_buf b = { 0 };
	const uint8_t answers[] = { 0xFF, 0x22, 0x02, 0x9F, 0x16, 0x02, 0x02, 0x9F, 0x08, 0x06,
				    0x9F, 0x0C, 0x07, 0xD0, 0x9F, 0x14, 0x01,
				    0xFF, 0x11, 0x00, 0x81, 0x82, 0x83, 0x84 };
	assert_int_equal(ir_mceusb_rx_new(&rx), 0);
	assert_int_equal(ir_mceusb_rx_feed(rx, answers, sizeof(answers), &b), 0);
	assert_int_equal(b.len, 0);
	assert_int_equal(ir_mceusb_rx_timeout_us(rx), 100000);
	ir_mceusb_rx_free(rx);
}

static void tx_split_keeps_packets_whole(void **state)
{
	(void)state;
	static uint8_t stream[4096];
	struct ir_edge e[200];
	size_t ends[32];

	for (int i = 0; i < 200; i++)
		e[i] = (i & 1) ? ir_space(600) : ir_pulse(600);
	long n = ir_mceusb_tx_build(e, 200, 0x06, stream, sizeof(stream));
	/* 200 samples: 6 full packets of 31 bytes, one of 1 + 20, the trailer */
	assert_int_equal(n, 3 + 6 * 31 + 21 + 1);
	long w = ir_mceusb_tx_split(stream, (size_t)n, MCE_TX_WRITE_MAX, ends, 32);
	/* mask alone; 4 packets (124 bytes); 2 packets + the last + trailer (84) */
	assert_int_equal(w, 3);
	assert_int_equal(ends[0], 3);
	assert_int_equal(ends[1], 3 + 124);
	assert_int_equal(ends[2], (size_t)n);
	for (long i = 1, start = 3; i < w; start = (long)ends[i++]) {
		assert_true(ends[i] - (size_t)start <= MCE_TX_WRITE_MAX);
		assert_int_equal(stream[start] & 0xE0, 0x80); /* each write opens on a header */
	}
	assert_int_equal(ir_mceusb_tx_split(stream, (size_t)n, MCE_TX_WRITE_MAX, ends, 2), -ENOSPC);
	assert_int_equal(ir_mceusb_tx_split(stream + 1, (size_t)n - 1, MCE_TX_WRITE_MAX, ends, 32),
			 -EINVAL);
	stream[3] = 0x9F; /* a command where a data header belongs */
	assert_int_equal(ir_mceusb_tx_split(stream, (size_t)n, MCE_TX_WRITE_MAX, ends, 32), -EINVAL);
}

static void init_commands_split_into_commands(void **state)
{
	(void)state;
	uint8_t out[64];
	long n = ir_mceusb_init_commands(ir_mceusb_device_find(0x0471, 0x0815), 20000, out,
					 sizeof(out));
	size_t pos = 0, count = 0;

	assert_true(n > 0);
	while (pos < (size_t)n) {
		size_t len = ir_mceusb_command_len(out + pos, (size_t)n - pos);

		assert_true(len >= 2 && len <= 4);
		pos += len;
		count++;
	}
	assert_int_equal(pos, (size_t)n);
	assert_int_equal(count, 9); /* resume, wake, 9F05, version, ports, mask, set+get timeout, sensor */
	assert_int_equal(ir_mceusb_command_len((const uint8_t *)"\x9F\x0C\x01", 3), 0);
	assert_int_equal(ir_mceusb_command_len((const uint8_t *)"\x42\x00", 2), 0);
}

/* Every device of the table is reachable without root through the shipped
 * udev rules. */
static void udev_rules_cover_the_table(void **state)
{
	(void)state;
	static char rules[65536];
	FILE *f = fopen(IRJACK_SOURCE_DIR "/config/60-irjack.rules", "r");

	assert_non_null(f);
	size_t n = fread(rules, 1, sizeof(rules) - 1, f);
	fclose(f);
	rules[n] = '\0';
	for (size_t i = 0; i < ir_mceusb_device_count(); i++) {
		const struct ir_mceusb_device *d = ir_mceusb_device_at(i);
		char want[96];

		snprintf(want, sizeof(want), "ATTRS{idVendor}==\"%04x\", ATTRS{idProduct}==\"%04x\"",
			 d->vendor, d->product);
		assert_non_null(strstr(rules, want));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rx_merges_runs_and_ends_on_timeout),
		cmocka_unit_test(rx_skips_status_and_reports_carrier_and_timeout),
		cmocka_unit_test(rx_measures_carrier_from_cycle_count),
		cmocka_unit_test(tx_splits_long_durations_and_packets),
		cmocka_unit_test(carrier_cmd_matches_documented_values),
		cmocka_unit_test(tx_roundtrip_decodes_to_same_scancode),
		cmocka_unit_test(device_table_quirks),
		cmocka_unit_test(init_commands_per_generation),
		cmocka_unit_test(tx_split_keeps_packets_whole),
		cmocka_unit_test(init_commands_split_into_commands),
		cmocka_unit_test(udev_rules_cover_the_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
