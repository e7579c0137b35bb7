/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "ir_ring.h"

static void test_basic(void **state)
{
	(void)state;
	struct ir_ring *r = NULL;
	assert_int_equal(ir_ring_new(0, 1, &r), -EINVAL);
	assert_int_equal(ir_ring_new(5, 2, &r), 0);
	assert_int_equal(ir_ring_capacity(r), 8);
	float in[20], out[20];
	for (int i = 0; i < 20; i++)
		in[i] = (float)i;
	/* 10 frames offered, 8 fit: the rest is the caller's to drop. */
	assert_int_equal(ir_ring_write(r, in, 10), 8);
	assert_int_equal(ir_ring_fill(r), 8);
	assert_int_equal(ir_ring_read(r, out, 3), 3);
	assert_true(out[0] == 0.0f && out[5] == 5.0f);
	/* Wrap: 3 free slots, write 3 frames starting at value 100. */
	float w[6] = {100, 101, 102, 103, 104, 105};
	assert_int_equal(ir_ring_write(r, w, 4), 3);
	assert_int_equal(ir_ring_read(r, out, 10), 8);
	assert_true(out[0] == 6.0f && out[9] == 15.0f);
	assert_true(out[10] == 100.0f && out[15] == 105.0f);
	assert_int_equal(ir_ring_read(r, out, 1), 0);
	ir_ring_free(r);
}

/* IRJACK_RING_STRESS_FRAMES overrides it (valgrind runs the test at
 * about a fiftieth of native speed). */
static uint32_t stress_frames = 2000000u;
#define STRESS_FRAMES stress_frames

static void *producer(void *arg)
{
	struct ir_ring *r = arg;
	uint32_t next = 0;
	float blk[37 * 2];
	while (next < STRESS_FRAMES) {
		size_t n = 0;
		for (; n < 37 && next + n < STRESS_FRAMES; n++) {
			blk[2 * n] = (float)(next + n);
			blk[2 * n + 1] = -(float)(next + n);
		}
		size_t done = 0;
		while (done < n)
			done += ir_ring_write(r, blk + 2 * done, n - done);
		next += (uint32_t)n;
	}
	return NULL;
}

/* Two threads, odd block sizes on both sides so wraps land everywhere:
 * every frame arrives once, in order, intact (float is exact to 2^24). */
static void test_stress(void **state)
{
	(void)state;
	struct ir_ring *r = NULL;
	assert_int_equal(ir_ring_new(64, 2, &r), 0);
	pthread_t th;
	assert_int_equal(pthread_create(&th, NULL, producer, r), 0);
	uint32_t expect = 0, bad = 0;
	float blk[23 * 2];
	while (expect < STRESS_FRAMES) {
		size_t n = ir_ring_read(r, blk, 23);
		for (size_t i = 0; i < n; i++, expect++)
			if (blk[2 * i] != (float)expect || blk[2 * i + 1] != -(float)expect)
				bad++;
	}
	pthread_join(th, NULL);
	assert_int_equal(bad, 0);
	assert_int_equal(ir_ring_fill(r), 0);
	ir_ring_free(r);
}

int main(void)
{
	const char *frames = getenv("IRJACK_RING_STRESS_FRAMES");

	if (frames && strtoul(frames, NULL, 10) > 0)
		stress_frames = (uint32_t)strtoul(frames, NULL, 10);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_basic),
		cmocka_unit_test(test_stress),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
