/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_reopen.c - the one "device went away: try again" loop the lirc,
 * devinput and USB sources share (src/pipeline/ir_reopen.h): its schedule
 * on a clock the test moves, and its timerfd on the real one.
 */
#include <errno.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "ir_reopen.h"
#include "ir_time.h"

struct device {
	unsigned tries;
	uint64_t tried_at[16];
	unsigned back_after; /* the try that succeeds (1-based; 0 = never) */
	const uint64_t *clock;
};

static int try_open(void *ctx)
{
	struct device *d = ctx;

	if (d->tries < 16)
		d->tried_at[d->tries] = *d->clock;
	d->tries++;
	return d->back_after && d->tries >= d->back_after ? 0 : -ENOENT;
}

/* Runs the loop every ms from `from` to `to`, as a backend woken often. */
static unsigned run(struct ir_reopen *r, struct device *d, uint64_t *now, uint64_t to)
{
	unsigned back = 0;

	for (; *now <= to; (*now)++)
		back += (unsigned)ir_reopen_attempt(r, *now, false, try_open, d);
	return back;
}

/* lirc and devinput: 100 ms, doubling up to 2 s. */
static void waits_double_up_to_the_most(void **state)
{
	static const uint64_t want[] = { 1100, 1300, 1700, 2500, 4100, 6100, 8100 };
	uint64_t now = 1000;
	struct device d = { .clock = &now };
	struct ir_reopen r;

	(void)state;
	ir_reopen_init(&r, 100, 2000);
	ir_reopen_gone(&r, now);
	assert_true(ir_reopen_waiting(&r));
	assert_int_equal(run(&r, &d, &now, 8100), 0);
	assert_int_equal(d.tries, 7);
	for (unsigned i = 0; i < 7; i++)
		assert_int_equal(d.tried_at[i], want[i]);
	assert_true(ir_reopen_waiting(&r));
}

/* USB: a fixed interval (first == most). */
static void a_fixed_interval_stays_fixed(void **state)
{
	uint64_t now = 0;
	struct device d = { .clock = &now };
	struct ir_reopen r;

	(void)state;
	ir_reopen_init(&r, 500, 500);
	ir_reopen_gone(&r, now);
	run(&r, &d, &now, 2000);
	assert_int_equal(d.tries, 4);
	assert_int_equal(d.tried_at[0], 500);
	assert_int_equal(d.tried_at[3], 2000);
}

static void success_stops_the_loop_and_a_new_loss_starts_over(void **state)
{
	uint64_t now = 0;
	struct device d = { .clock = &now, .back_after = 3 };
	struct ir_reopen r;

	(void)state;
	ir_reopen_init(&r, 100, 2000);
	ir_reopen_gone(&r, now);
	assert_int_equal(run(&r, &d, &now, 5000), 1);
	assert_int_equal(d.tries, 3);
	assert_int_equal(d.tried_at[2], 700); /* 100, +200, +400 */
	assert_false(ir_reopen_waiting(&r));
	/* gone again: the first wait is 100 ms again, not 800 */
	d.tries = 0;
	d.back_after = 1;
	ir_reopen_gone(&r, now);
	assert_int_equal(run(&r, &d, &now, now + 100), 1);
	assert_int_equal(d.tries, 1);
}

static void nothing_is_tried_while_the_device_is_there(void **state)
{
	uint64_t now = 0;
	struct device d = { .clock = &now };
	struct ir_reopen r;

	(void)state;
	ir_reopen_init(&r, 100, 2000);
	assert_int_equal(run(&r, &d, &now, 3000), 0);
	assert_int_equal(ir_reopen_attempt(&r, now, true, try_open, &d), 0);
	assert_int_equal(d.tries, 0);
}

/* Hotplug said it is back: tried at once, whatever the schedule. */
static void hotplug_tries_at_once(void **state)
{
	uint64_t now = 0;
	struct device d = { .clock = &now, .back_after = 1 };
	struct ir_reopen r;

	(void)state;
	ir_reopen_init(&r, 5000, 5000);
	ir_reopen_gone(&r, now);
	now = 10;
	assert_int_equal(ir_reopen_attempt(&r, now, false, try_open, &d), 0);
	assert_int_equal(d.tries, 0);
	assert_int_equal(ir_reopen_attempt(&r, now, true, try_open, &d), 1);
	assert_int_equal(d.tries, 1);
}

/* The timer a polled backend waits on is readable when, and only when, an
 * attempt is due, and a wake-up from it finds the attempt due. */
static void the_timer_wakes_the_poller_when_due(void **state)
{
	uint64_t now;
	struct device d = { .clock = &now };
	struct ir_reopen r;
	struct pollfd p = { .events = POLLIN };
	uint64_t start;

	(void)state;
	ir_reopen_init(&r, 30, 60);
	p.fd = ir_reopen_timer_new(&r);
	assert_true(p.fd >= 0);
	assert_int_equal(poll(&p, 1, 50), 0); /* not gone: silent */
	start = ir_monotonic_ms();
	ir_reopen_gone(&r, start);
	assert_int_equal(poll(&p, 1, 1000), 1);
	now = ir_monotonic_ms();
	assert_true(now - start >= 30);
	assert_true(now - start < 500);
	assert_int_equal(ir_reopen_attempt(&r, now, false, try_open, &d), 0);
	assert_int_equal(d.tries, 1);
	/* drained and re-armed 60 ms on: not readable at once */
	assert_int_equal(poll(&p, 1, 0), 0);
	assert_int_equal(poll(&p, 1, 1000), 1);
	assert_true(ir_monotonic_ms() - now >= 60);
	ir_reopen_free(&r);
	assert_int_equal(r.timer_fd, -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(waits_double_up_to_the_most),
		cmocka_unit_test(a_fixed_interval_stays_fixed),
		cmocka_unit_test(success_stops_the_loop_and_a_new_loss_starts_over),
		cmocka_unit_test(nothing_is_tried_while_the_device_is_there),
		cmocka_unit_test(hotplug_tries_at_once),
		cmocka_unit_test(the_timer_wakes_the_poller_when_due),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
