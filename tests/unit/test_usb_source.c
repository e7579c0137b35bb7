/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_usb_source.c - the USB source's parts that need no device: the
 * event queue between its threads (under a real producer thread), spec
 * errors, and a clean "not found" where no receiver is plugged in.  The
 * device itself is exercised in the VM (tests/vm/guest-usb.sh).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ir_source.h"
#include "ir_usb_queue.h"

/* IRJACK_USB_QUEUE_STRESS_ITEMS overrides it (valgrind runs fewer). */
#define ITEMS_DEFAULT 200000u
static uint32_t items = ITEMS_DEFAULT;

struct producer {
	struct ir_usb_queue *q;
	unsigned refused;
};

static void *produce(void *arg)
{
	struct producer *p = arg;

	for (uint32_t i = 1; i <= items;) {
		struct ir_usb_item it = { .kind = IR_USB_ITEM_EDGE, .edge = ir_pulse(i) };

		if (ir_usb_queue_push(p->q, &it)) {
			i++;
		} else {
			p->refused++;
			sched_yield(); /* one core (or valgrind's one at a time) */
		}
	}
	struct ir_usb_item gone = { .kind = IR_USB_ITEM_GONE };
	while (!ir_usb_queue_push(p->q, &gone))
		sched_yield();
	return NULL;
}

static void queue_delivers_in_order_across_threads(void **state)
{
	(void)state;
	struct ir_usb_queue q;
	struct producer p = { .q = &q };
	const char *env = getenv("IRJACK_USB_QUEUE_STRESS_ITEMS");

	if (env && atoi(env) > 0)
		items = (uint32_t)atoi(env);
	pthread_t t;
	uint32_t expect = 1;
	struct ir_usb_item it;

	assert_int_equal(ir_usb_queue_init(&q, 64), 0);
	assert_int_equal(pthread_create(&t, NULL, produce, &p), 0);
	for (;;) {
		if (!ir_usb_queue_pop(&q, &it)) {
			sched_yield();
			continue;
		}
		if (it.kind == IR_USB_ITEM_GONE)
			break;
		assert_int_equal(it.kind, IR_USB_ITEM_EDGE);
		assert_int_equal(it.edge.duration, expect);
		expect++;
	}
	pthread_join(t, NULL);
	assert_int_equal(expect, items + 1);
	assert_false(ir_usb_queue_pop(&q, &it));
	ir_usb_queue_free(&q);
}

static void queue_keeps_room_for_state_changes(void **state)
{
	(void)state;
	struct ir_usb_queue q;
	struct ir_usb_item edge = { .kind = IR_USB_ITEM_EDGE, .edge = ir_space(100) };
	struct ir_usb_item back = { .kind = IR_USB_ITEM_BACK };
	unsigned data = 0, control = 0;

	assert_int_equal(ir_usb_queue_init(&q, 10), 0); /* rounded up to 16 */
	while (ir_usb_queue_push(&q, &edge))
		data++;
	while (ir_usb_queue_push(&q, &back))
		control++;
	assert_int_equal(data, 16 - IR_USB_QUEUE_RESERVE);
	assert_int_equal(control, IR_USB_QUEUE_RESERVE);
	ir_usb_queue_free(&q);
}

static void on_frame(void *userdata, const struct ir_frame *frame)
{
	(void)userdata;
	(void)frame;
}

static void open_reports_bad_specs_and_absent_devices(void **state)
{
	(void)state;
	struct ir_source_callbacks cb = { .frame = on_frame };
	struct ir_source *src = NULL;
	char err[256];

	assert_non_null(ir_source_backend_find("usb"));
	assert_int_equal(ir_source_open("usb:mceusb:1", NULL, &cb, &src, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "usb:mceusb"));
	assert_int_equal(ir_source_open("usb:serial", NULL, &cb, &src, err, sizeof(err)), -EINVAL);
	/* bus 255 never exists */
	assert_int_equal(ir_source_open("usb:mceusb:255:1", NULL, &cb, &src, err, sizeof(err)),
			 -ENOENT);
	assert_non_null(strstr(err, "no MCE USB transceiver found"));
	assert_int_equal(ir_source_open("usb:imon:255:1", NULL, &cb, &src, err, sizeof(err)),
			 -ENOENT);
	assert_non_null(strstr(err, "iMON"));
	assert_null(src);
	assert_true(ir_source_backend_find("usb")->list(stdout, true, false) >= 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(queue_delivers_in_order_across_threads),
		cmocka_unit_test(queue_keeps_room_for_state_changes),
		cmocka_unit_test(open_reports_bad_specs_and_absent_devices),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
