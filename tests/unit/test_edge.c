/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The edge buffer: merging, limits, durations. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "ir_edge.h"

static void test_push_merges_same_kind(void **state)
{
	struct ir_edge_buf b = { 0 };

	(void)state;
	assert_int_equal(ir_edge_buf_pulse(&b, 100), 0);
	assert_int_equal(ir_edge_buf_pulse(&b, 50), 0);
	assert_int_equal(ir_edge_buf_space(&b, 10), 0);
	assert_int_equal(ir_edge_buf_space(&b, 0), 0);
	assert_int_equal(ir_edge_buf_pulse(&b, 0), 0);
	assert_int_equal(b.len, 2);
	assert_int_equal(b.edges[0].kind, IR_PULSE);
	assert_int_equal(b.edges[0].duration, 150);
	assert_int_equal(b.edges[1].kind, IR_SPACE);
	assert_int_equal(b.edges[1].duration, 10);
	assert_int_equal(ir_edge_buf_duration(&b), 160);
	ir_edge_buf_free(&b);
	assert_null(b.edges);
}

static void test_push_keeps_markers_apart(void **state)
{
	struct ir_edge_buf b = { 0 };

	(void)state;
	ir_edge_buf_push(&b, (struct ir_edge){ .duration = 38000, .kind = IR_CARRIER });
	ir_edge_buf_push(&b, (struct ir_edge){ .duration = 38000, .kind = IR_CARRIER });
	ir_edge_buf_push(&b, (struct ir_edge){ .duration = 100000, .kind = IR_TIMEOUT });
	ir_edge_buf_push(&b, (struct ir_edge){ .duration = 100000, .kind = IR_TIMEOUT });
	assert_int_equal(b.len, 4);
	/* carriers take no time, timeouts do */
	assert_int_equal(ir_edge_buf_duration(&b), 200000);
	ir_edge_buf_free(&b);
}

static void test_merge_overflow_is_an_error(void **state)
{
	struct ir_edge_buf b = { 0 };

	(void)state;
	assert_int_equal(ir_edge_buf_space(&b, IR_DURATION_MAX), 0);
	assert_int_equal(ir_edge_buf_space(&b, 1), -ERANGE);
	assert_int_equal(b.edges[0].duration, IR_DURATION_MAX);
	ir_edge_buf_free(&b);
}

static void test_grows_past_initial_capacity(void **state)
{
	struct ir_edge_buf b = { 0 };

	(void)state;
	for (unsigned i = 0; i < 10000; i++)
		assert_int_equal(ir_edge_buf_push(&b, i & 1 ? ir_space(i + 1) : ir_pulse(i + 1)), 0);
	assert_int_equal(b.len, 10000);
	assert_int_equal(b.edges[9999].duration, 10000);
	ir_edge_buf_clear(&b);
	assert_int_equal(b.len, 0);
	ir_edge_buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_push_merges_same_kind),
		cmocka_unit_test(test_push_keeps_markers_apart),
		cmocka_unit_test(test_merge_overflow_is_an_error),
		cmocka_unit_test(test_grows_past_initial_capacity),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
