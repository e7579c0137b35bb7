/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The uinput output on a real kernel: key presses written through
 * libevdev's uinput come back from /dev/input/eventN as rc-core reports
 * them (MSC_SCAN, key down, key up).  Needs a writable /dev/uinput: skipped
 * (77) elsewhere — the VM test (tests/vm/) runs it on a real kernel.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <unistd.h>

#include <cmocka.h>

#include <libevdev/libevdev.h>

#include "out_uinput.h"

static int next_event(struct libevdev *dev, struct input_event *ev)
{
	for (int i = 0; i < 100; i++) {
		int rc = libevdev_next_event(dev, LIBEVDEV_READ_FLAG_NORMAL, ev);

		if (rc == LIBEVDEV_READ_STATUS_SUCCESS)
			return 0;
		if (rc != -EAGAIN)
			return rc;
		struct pollfd p = { .fd = libevdev_get_fd(dev), .events = POLLIN };

		poll(&p, 1, 20);
	}
	return -ETIMEDOUT;
}

static void expect(struct libevdev *dev, unsigned type, unsigned code, int value)
{
	struct input_event ev;

	assert_int_equal(next_event(dev, &ev), 0);
	if (ev.type != type || ev.code != code || ev.value != value) {
		fprintf(stderr, "got %s %s %d, want %s %s %d\n", libevdev_event_type_get_name(ev.type),
			libevdev_event_code_get_name(ev.type, ev.code), ev.value,
			libevdev_event_type_get_name(type), libevdev_event_code_get_name(type, code),
			value);
		fail();
	}
}

static void test_presses_read_back(void **state)
{
	struct ir_keymap *km;
	struct ir_uinput *u;
	struct ir_uinput_config cfg = { .name = "irjack test", .vendor = 0x1209, .product = 0x0001 };
	struct libevdev *dev;
	struct ir_key_event ev = { .type = IR_KEY_DOWN, .key = "KEY_POWER", .keycode = KEY_POWER,
				   .scancode = 0x04fb, .remote = "tv" };
	unsigned r;
	int fd;

	(void)state;
	assert_int_equal(ir_keymap_new(&km), 0);
	assert_int_equal(ir_keymap_add_remote(km, "tv", &r), 0);
	assert_int_equal(ir_keymap_add_key(km, r, IR_PROTO_NEC, 0, 0x04fb, "KEY_POWER"), 0);
	cfg.keymap = km;
	assert_int_equal(ir_uinput_new(&cfg, &u), 0);
	assert_non_null(ir_uinput_devnode(u));
	fd = open(ir_uinput_devnode(u), O_RDONLY | O_NONBLOCK);
	assert_true(fd >= 0);
	assert_int_equal(libevdev_new_from_fd(fd, &dev), 0);
	assert_string_equal(libevdev_get_name(dev), "irjack test");
	assert_true(libevdev_has_event_code(dev, EV_KEY, KEY_POWER));
	assert_false(libevdev_has_event_code(dev, EV_KEY, KEY_MUTE));
	assert_true(libevdev_has_event_code(dev, EV_MSC, MSC_SCAN));

	assert_int_equal(ir_uinput_event(u, &ev), 0);
	ev.type = IR_KEY_REPEAT;
	assert_int_equal(ir_uinput_event(u, &ev), 0);
	ev.type = IR_KEY_UP;
	assert_int_equal(ir_uinput_event(u, &ev), 0);
	expect(dev, EV_MSC, MSC_SCAN, 0x04fb);
	expect(dev, EV_KEY, KEY_POWER, 1);
	expect(dev, EV_SYN, SYN_REPORT, 0);
	expect(dev, EV_MSC, MSC_SCAN, 0x04fb);
	expect(dev, EV_SYN, SYN_REPORT, 0);
	expect(dev, EV_KEY, KEY_POWER, 0);
	expect(dev, EV_SYN, SYN_REPORT, 0);
	libevdev_free(dev);
	close(fd);
	ir_uinput_free(u);
	ir_keymap_free(km);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_presses_read_back),
	};

	if (access("/dev/uinput", W_OK) != 0) {
		printf("SKIP: no writable /dev/uinput here (run in the VM: tests/vm/run)\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
