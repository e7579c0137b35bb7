/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_lirc_tx.c - the LIRC transmit planner (edges → the kernel's write()
 * units) and the lirc source's and sink's errors on things that are not
 * LIRC devices.  The real device is exercised in the VM
 * (tests/vm/guest-lirc.sh).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ir_lirc_tx.h"
#include "ir_source.h"

static void nec_frame_becomes_one_odd_write(void **state)
{
	(void)state;
	struct ir_edge_buf b = { 0 };
	uint32_t *v;
	struct ir_lirc_tx_chunk *c;
	uint64_t sum = 0;

	assert_int_equal(ir_encode(IR_PROTO_NEC, 0x04fb, NULL, &b), 0);
	assert_int_equal(ir_lirc_tx_plan(b.edges, b.len, &v, &c), 1);
	/* header pulse + space, 32 bits of pulse + space, trailer pulse */
	assert_int_equal(c[0].first, 0);
	assert_int_equal(c[0].count, 67);
	assert_int_equal(c[0].gap_us, 0);
	assert_in_range(v[0], 8900, 9100);
	assert_in_range(v[66], 500, 620);
	for (size_t i = 0; i < c[0].count; i++)
		sum += v[i];
	assert_true(sum < IR_LIRC_TX_MAX_US);
	free(v);
	free(c);
	ir_edge_buf_free(&b);
}

static void leading_spaces_markers_and_trailing_space_are_dropped(void **state)
{
	(void)state;
	const struct ir_edge e[] = {
		ir_space(1000), { .kind = IR_CARRIER, .duration = 38000 }, ir_pulse(500), ir_pulse(100),
		{ .kind = IR_OVERFLOW }, ir_space(200), { .kind = IR_TIMEOUT, .duration = 300 },
		ir_pulse(400), ir_space(0), ir_space(9000),
	};
	uint32_t *v;
	struct ir_lirc_tx_chunk *c;

	assert_int_equal(ir_lirc_tx_plan(e, sizeof(e) / sizeof(e[0]), &v, &c), 1);
	assert_int_equal(c[0].count, 3);
	assert_int_equal(v[0], 600);
	assert_int_equal(v[1], 500);
	assert_int_equal(v[2], 400);
	free(v);
	free(c);
	assert_int_equal(ir_lirc_tx_plan(e, 2, &v, &c), 0); /* no pulse: nothing to write */
	assert_null(v);
}

static void long_streams_are_cut_at_their_longest_space(void **state)
{
	(void)state;
	struct ir_edge_buf b = { 0 };
	uint32_t *v;
	struct ir_lirc_tx_chunk *c;
	int n;

	/* 12 NEC frames with 40 ms between them: ~1.3 s, over the kernel's
	 * 500 ms per write, so three or more writes, each cut at a gap. */
	for (int i = 0; i < 12; i++) {
		assert_int_equal(ir_encode(IR_PROTO_NEC, 0x0400 + (unsigned)i, NULL, &b), 0);
		assert_int_equal(ir_edge_buf_space(&b, 40000), 0);
	}
	n = ir_lirc_tx_plan(b.edges, b.len, &v, &c);
	assert_true(n >= 3);
	for (int i = 0; i < n; i++) {
		uint64_t sum = 0;

		assert_int_equal(c[i].count % 2, 1);
		assert_true(c[i].count <= IR_LIRC_TX_MAX_VALUES);
		for (size_t k = 0; k < c[i].count; k++)
			sum += v[c[i].first + k];
		assert_true(sum <= IR_LIRC_TX_MAX_US);
		assert_int_equal(c[i].first % 2, 0); /* every write starts on a pulse */
		if (i + 1 < n) {
			/* the cut is a frame gap (≥ the 40 ms between frames), never a bit */
			assert_true(c[i].gap_us >= 40000);
			assert_int_equal(c[i + 1].first, c[i].first + c[i].count + 1);
		} else {
			assert_int_equal(c[i].gap_us, 0);
		}
	}
	free(v);
	free(c);
	ir_edge_buf_free(&b);
}

static void too_many_values_are_cut_too(void **state)
{
	(void)state;
	struct ir_edge_buf b = { 0 };
	uint32_t *v;
	struct ir_lirc_tx_chunk *c;
	int n;

	/* 1500 pulse/space pairs of 50 µs: 150 ms, but 3000 values */
	for (int i = 0; i < 1500; i++) {
		assert_int_equal(ir_edge_buf_pulse(&b, 50), 0);
		assert_int_equal(ir_edge_buf_space(&b, i == 400 ? 80 : 50), 0);
	}
	n = ir_lirc_tx_plan(b.edges, b.len, &v, &c);
	assert_int_equal(n, 4);
	assert_int_equal(c[0].count, 801); /* cut at the one longer space */
	assert_int_equal(c[0].gap_us, 80);
	for (int i = 0; i < n; i++)
		assert_true(c[i].count <= IR_LIRC_TX_MAX_VALUES && c[i].count % 2 == 1);
	/* then as long as the kernel takes; nothing lost: 1500 pulses + 1499 spaces */
	assert_int_equal(c[1].count, IR_LIRC_TX_MAX_VALUES - 1);
	assert_int_equal(c[0].count + c[1].count + c[2].count + c[3].count + 3, 2999);
	free(v);
	free(c);
	ir_edge_buf_free(&b);
}

static void a_pulse_longer_than_a_write_is_refused(void **state)
{
	(void)state;
	const struct ir_edge e[] = { ir_pulse(600000) };
	uint32_t *v;
	struct ir_lirc_tx_chunk *c;

	assert_int_equal(ir_lirc_tx_plan(e, 1, &v, &c), -ERANGE);
}

static void on_frame(void *userdata, const struct ir_frame *frame)
{
	(void)userdata;
	(void)frame;
}

static void non_lirc_devices_are_refused_clearly(void **state)
{
	(void)state;
	struct ir_source_callbacks cb = { .frame = on_frame };
	struct ir_source *src;
	struct ir_lirc_tx *tx;
	char err[256];

	assert_int_equal(ir_source_open("lirc:/dev/null", NULL, &cb, &src, err, sizeof(err)), -ENOTTY);
	assert_non_null(strstr(err, "not a LIRC device"));
	assert_int_equal(ir_source_open("lirc:/nonexistent/lirc9", NULL, &cb, &src, err, sizeof(err)),
			 -ENOENT);
	assert_non_null(strstr(err, "/nonexistent/lirc9"));
	assert_int_equal(ir_source_open("lirc:/dev/null?mode=fast", NULL, &cb, &src, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "mode=fast"));
	assert_int_equal(ir_lirc_tx_open("/dev/null", &tx), -ENOTTY);
	assert_int_equal(ir_lirc_tx_open("/nonexistent/lirc9", &tx), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nec_frame_becomes_one_odd_write),
		cmocka_unit_test(leading_spaces_markers_and_trailing_space_are_dropped),
		cmocka_unit_test(long_streams_are_cut_at_their_longest_space),
		cmocka_unit_test(too_many_values_are_cut_too),
		cmocka_unit_test(a_pulse_longer_than_a_write_is_refused),
		cmocka_unit_test(non_lirc_devices_are_refused_clearly),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
