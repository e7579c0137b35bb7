/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The LIRC character device's logic (out_lircdev.h) as a reader sees it:
 * ioctl answers, mode2 words, scancode records, read sizes and queues, in
 * the kernel's numbers (<linux/lirc.h>; the hex literals below are the
 * ABI's own values, worked out by hand from its _IOR/_IOW encoding and
 * word layout).  The CUSE transport is tested in the VM
 * (tests/vm/guest-lircdev.sh) with ir-ctl.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <linux/input-event-codes.h>
#include <linux/lirc.h>

#include "out_lircdev.h"

static unsigned wakes;
static struct ir_lircdev_reader *woken;

static void on_readable(void *userdata, struct ir_lircdev_reader *r)
{
	(void)userdata;
	wakes++;
	woken = r;
}

static struct ir_lircdev *dev_new(uint32_t timeout_us, uint32_t resolution_us)
{
	struct ir_lircdev_config cfg = { .timeout_us = timeout_us, .resolution_us = resolution_us,
					 .readable = on_readable };
	struct ir_lircdev *dev;

	wakes = 0;
	woken = NULL;
	assert_int_equal(ir_lircdev_new(&cfg, &dev), 0);
	return dev;
}

static struct ir_lircdev_reader *reader(struct ir_lircdev *dev)
{
	struct ir_lircdev_reader *r;

	assert_int_equal(ir_lircdev_open(dev, NULL, &r), 0);
	return r;
}

static void feed(struct ir_lircdev *dev, enum ir_edge_kind kind, uint32_t duration)
{
	struct ir_edge e = { .duration = duration, .kind = (uint8_t)kind };

	ir_lircdev_edge(dev, &e);
}

/* Reads every queued word into w (at most max); returns how many. */
static size_t words(struct ir_lircdev_reader *r, uint32_t *w, size_t max)
{
	ssize_t n = ir_lircdev_read(r, w, max * 4);

	if (n == -EAGAIN)
		return 0;
	assert_true(n > 0);
	return (size_t)n / 4;
}

static void test_abi_numbers(void **state)
{
	(void)state;
	/* _IOR('i', 0x00, __u32): read 2 << 30 | size 4 << 16 | 'i' << 8 */
	assert_int_equal(LIRC_GET_FEATURES, 0x80046900);
	assert_int_equal(LIRC_SET_REC_MODE, 0x40046912);
	assert_int_equal(LIRC_GET_REC_TIMEOUT, 0x80046924);
	assert_int_equal(sizeof(struct lirc_scancode), 24);
	assert_int_equal(LIRC_PULSE(9000), 0x01002328);
}

static void test_features_and_modes(void **state)
{
	struct ir_lircdev *dev = dev_new(125000, 0);
	struct ir_lircdev_reader *r = reader(dev);
	uint32_t v = 0;

	(void)state;
	assert_int_equal(ir_lircdev_ioctl(r, LIRC_GET_FEATURES, &v), 0);
	assert_int_equal(v, 0x00040000); /* LIRC_CAN_REC_MODE2 = MODE2 (4) << 16, nothing else */
	assert_int_equal(ir_lircdev_ioctl(r, LIRC_GET_REC_MODE, &v), 0);
	assert_int_equal(v, 0x4); /* LIRC_MODE_MODE2, lirc_dev's default */
	v = 0x8;                 /* LIRC_MODE_SCANCODE */
	assert_int_equal(ir_lircdev_ioctl(r, LIRC_SET_REC_MODE, &v), 0);
	assert_int_equal(ir_lircdev_ioctl(r, LIRC_GET_REC_MODE, &v), 0);
	assert_int_equal(v, 0x8);
	v = 0x2; /* LIRC_MODE_PULSE: a send mode */
	assert_int_equal(ir_lircdev_ioctl(r, LIRC_SET_REC_MODE, &v), -EINVAL);
	assert_int_equal(ir_lircdev_ioctl(r, LIRC_GET_REC_MODE, &v), 0);
	assert_int_equal(v, 0x8);
	/* a resolution is offered only when known */
	assert_int_equal(ir_lircdev_ioctl(r, LIRC_GET_REC_RESOLUTION, &v), -ENOTTY);
	ir_lircdev_free(dev);

	dev = dev_new(125000, 21);
	r = reader(dev);
	assert_int_equal(ir_lircdev_ioctl(r, LIRC_GET_FEATURES, &v), 0);
	assert_int_equal(v, 0x20040000);
	assert_int_equal(ir_lircdev_ioctl(r, LIRC_GET_REC_RESOLUTION, &v), 0);
	assert_int_equal(v, 21);
	ir_lircdev_free(dev);
}

static void test_timeout_and_send_ioctls(void **state)
{
	struct ir_lircdev *dev = dev_new(125000, 0);
	struct ir_lircdev_reader *r = reader(dev);
	uint32_t v = 0;

	(void)state;
	assert_int_equal(ir_lircdev_ioctl(r, LIRC_GET_REC_TIMEOUT, &v), 0);
	assert_int_equal(v, 125000);
	v = 50000;
	assert_int_equal(ir_lircdev_ioctl(r, LIRC_SET_REC_TIMEOUT, &v), -ENOTTY);
	assert_int_equal(ir_lircdev_ioctl(r, LIRC_GET_MIN_TIMEOUT, &v), -ENOTTY);
	assert_int_equal(ir_lircdev_ioctl(r, LIRC_GET_MAX_TIMEOUT, &v), -ENOTTY);
	v = 1;
	assert_int_equal(ir_lircdev_ioctl(r, LIRC_SET_REC_TIMEOUT_REPORTS, &v), 0);
	/* receive only: every send ioctl is unknown, as on lirc_dev without tx_ir */
	assert_int_equal(ir_lircdev_ioctl(r, LIRC_GET_SEND_MODE, &v), -ENOTTY);
	assert_int_equal(ir_lircdev_ioctl(r, LIRC_SET_SEND_MODE, &v), -ENOTTY);
	assert_int_equal(ir_lircdev_ioctl(r, LIRC_SET_SEND_CARRIER, &v), -ENOTTY);
	assert_int_equal(ir_lircdev_ioctl(r, LIRC_SET_TRANSMITTER_MASK, &v), -ENOTTY);
	assert_int_equal(ir_lircdev_ioctl(r, LIRC_SET_MEASURE_CARRIER_MODE, &v), -ENOTTY);
	assert_int_equal(ir_lircdev_ioctl(r, LIRC_SET_WIDEBAND_RECEIVER, &v), -ENOTTY);
	assert_int_equal(ir_lircdev_ioctl(r, 0x80046977, &v), -ENOTTY); /* unknown */
	ir_lircdev_free(dev);

	dev = dev_new(0, 0); /* a source whose timeout is not known */
	r = reader(dev);
	assert_int_equal(ir_lircdev_ioctl(r, LIRC_GET_REC_TIMEOUT, &v), -ENOTTY);
	ir_lircdev_free(dev);
}

static void test_mode2_words_with_timeout_and_gap(void **state)
{
	struct ir_lircdev *dev = dev_new(125000, 0);
	struct ir_lircdev_reader *r = reader(dev);
	uint32_t w[16];

	(void)state;
	feed(dev, IR_PULSE, 9000);
	feed(dev, IR_SPACE, 4500);
	feed(dev, IR_PULSE, 560);
	feed(dev, IR_CARRIER, 38000); /* no carrier reports */
	feed(dev, IR_TIMEOUT, 125000);
	feed(dev, IR_SPACE, 10000);  /* the idle time after the timeout, */
	feed(dev, IR_SPACE, 20000);  /* in two parts: one gap space */
	feed(dev, IR_PULSE, 9000);
	feed(dev, IR_OVERFLOW, 0);
	assert_int_equal(words(r, w, 16), 7);
	assert_int_equal(w[0], 0x01002328); /* pulse 9000 */
	assert_int_equal(w[1], 0x00001194); /* space 4500 */
	assert_int_equal(w[2], 0x01000230); /* pulse 560 */
	assert_int_equal(w[3], 0x0301e848); /* timeout 125000 */
	assert_int_equal(w[4], 0x00007530); /* space 30000 */
	assert_int_equal(w[5], 0x01002328); /* pulse 9000 */
	assert_int_equal(w[6], 0x04ffffff); /* overflow */
	/* a timeout with no idle time reported: no gap space */
	feed(dev, IR_TIMEOUT, 125000);
	feed(dev, IR_PULSE, 600);
	assert_int_equal(words(r, w, 16), 2);
	assert_int_equal(w[0], 0x0301e848);
	assert_int_equal(w[1], 0x01000258);
	/* a gap longer than 24 bits is capped, not wrapped */
	feed(dev, IR_TIMEOUT, 125000);
	feed(dev, IR_SPACE, 0xffffff);
	feed(dev, IR_SPACE, 0x10);
	feed(dev, IR_PULSE, 600);
	assert_int_equal(words(r, w, 16), 3);
	assert_int_equal(w[1], 0x00ffffff);
	ir_lircdev_free(dev);
}

static void test_read_sizes(void **state)
{
	struct ir_lircdev *dev = dev_new(125000, 0);
	struct ir_lircdev_reader *r = reader(dev);
	unsigned char buf[64];
	uint32_t v = 0x8;

	(void)state;
	assert_int_equal(ir_lircdev_read(r, buf, 4), -EAGAIN);
	assert_false(ir_lircdev_readable(r));
	feed(dev, IR_PULSE, 500);
	feed(dev, IR_SPACE, 600);
	feed(dev, IR_PULSE, 700);
	assert_true(ir_lircdev_readable(r));
	assert_int_equal(ir_lircdev_read(r, buf, 3), -EINVAL);
	assert_int_equal(ir_lircdev_read(r, buf, 6), -EINVAL);
	assert_int_equal(ir_lircdev_read(r, buf, 8), 8); /* two of three */
	assert_int_equal(ir_lircdev_read(r, buf, 64), 4);
	assert_int_equal(ir_lircdev_read(r, buf, 64), -EAGAIN);
	/* scancode mode reads whole struct lirc_scancode records */
	assert_int_equal(ir_lircdev_ioctl(r, LIRC_SET_REC_MODE, &v), 0);
	assert_int_equal(ir_lircdev_read(r, buf, 4), -EINVAL);
	assert_int_equal(ir_lircdev_read(r, buf, 23), -EINVAL);
	assert_int_equal(ir_lircdev_read(r, buf, 48), -EAGAIN);
	ir_lircdev_free(dev);
}

static void test_scancode_records(void **state)
{
	struct ir_lircdev *dev = dev_new(125000, 0);
	struct ir_lircdev_reader *r = reader(dev);
	struct ir_frame nec = { .protocol = IR_PROTO_NEC, .scancode = 0x0408 };
	struct ir_frame rep = { .protocol = IR_PROTO_NEC, .scancode = 0x0408,
				.flags = IR_FRAME_REPEAT };
	struct ir_frame rc5 = { .protocol = IR_PROTO_RC5, .scancode = 0x1e01,
				.flags = IR_FRAME_TOGGLE };
	struct ir_frame custom = { .protocol = IR_PROTO_NEC, .scancode = 1, .decoder_id = 1 };
	struct ir_frame grundig = { .protocol = IR_PROTO_GRUNDIG, .scancode = 0x12 };
	struct ir_frame apple = { .protocol = IR_PROTO_APPLE, .scancode = 0x87ee0102 };
	unsigned char buf[24 * 8];
	struct lirc_scancode sc[8];
	uint32_t v = 0x8;
	ssize_t n;

	(void)state;
	assert_int_equal(ir_lircdev_ioctl(r, LIRC_SET_REC_MODE, &v), 0);
	ir_lircdev_frame(dev, &nec, KEY_B, 123456789);
	ir_lircdev_frame(dev, &rep, KEY_B, 223456789);
	ir_lircdev_frame(dev, &rc5, -1, 3);
	ir_lircdev_frame(dev, &custom, KEY_A, 4); /* a keymap's own decoder: no rc-core number */
	ir_lircdev_frame(dev, &grundig, 0, 5);   /* not an rc-core protocol */
	ir_lircdev_frame(dev, &apple, 0, 6);     /* rc-core reads it as nec32 */
	n = ir_lircdev_read(r, buf, sizeof(buf));
	assert_int_equal(n, 4 * 24);
	/* the layout: u64 timestamp, u16 flags, u16 rc_proto, u32 keycode, u64 scancode */
	assert_int_equal(buf[0], 0x15); /* 123456789 = 0x075bcd15, little endian */
	assert_int_equal(buf[3], 0x07);
	assert_int_equal(buf[10], 9);   /* RC_PROTO_NEC */
	assert_int_equal(buf[12], 48);  /* KEY_B */
	assert_int_equal(buf[16], 0x08);
	assert_int_equal(buf[17], 0x04);
	memcpy(sc, buf, (size_t)n);
	assert_int_equal(sc[0].flags, 0);
	assert_int_equal(sc[0].scancode, 0x0408);
	assert_int_equal(sc[1].flags, 2); /* LIRC_SCANCODE_FLAG_REPEAT */
	assert_int_equal(sc[1].timestamp, 223456789);
	assert_int_equal(sc[2].rc_proto, 2); /* RC_PROTO_RC5 */
	assert_int_equal(sc[2].flags, 1);    /* LIRC_SCANCODE_FLAG_TOGGLE */
	assert_int_equal(sc[2].keycode, 0);  /* no Linux key: KEY_RESERVED */
	assert_int_equal(sc[2].scancode, 0x1e01);
	assert_int_equal(sc[3].rc_proto, 11); /* RC_PROTO_NEC32 */
	assert_int_equal(sc[3].timestamp, 6);
	ir_lircdev_free(dev);
}

static void test_readers_queues_and_wakeups(void **state)
{
	struct ir_lircdev *dev = dev_new(125000, 0);
	struct ir_lircdev_reader *a = reader(dev), *b = reader(dev);
	struct ir_frame nec = { .protocol = IR_PROTO_NEC, .scancode = 0x0408 };
	struct ir_lircdev_stats st;
	uint32_t w[600], v = 0x8;

	(void)state;
	assert_int_equal(ir_lircdev_reader_count(dev), 2);
	/* a scancode does not wake a mode2 reader; the first word does, once */
	ir_lircdev_frame(dev, &nec, 0, 1);
	assert_int_equal(wakes, 0);
	feed(dev, IR_PULSE, 500);
	assert_int_equal(wakes, 2);
	feed(dev, IR_SPACE, 500);
	assert_int_equal(wakes, 2);
	/* b reads scancodes now; a has its own mode2 queue */
	assert_int_equal(ir_lircdev_ioctl(b, LIRC_SET_REC_MODE, &v), 0);
	assert_true(ir_lircdev_readable(b));
	assert_int_equal(ir_lircdev_read(b, w, 24), 24);
	assert_int_equal(words(a, w, 600), 2);
	/* a full queue keeps its oldest 512 words and counts the rest */
	for (unsigned i = 0; i < 300; i++) {
		feed(dev, IR_PULSE, 500 + i);
		feed(dev, IR_SPACE, 500);
	}
	assert_int_equal(words(a, w, 600), IR_LIRCDEV_MODE2_QUEUE);
	assert_int_equal(w[0], LIRC_PULSE(500));
	assert_int_equal(w[511], LIRC_SPACE(500)); /* word 511 of 600: pulse 255's space */
	assert_int_equal(w[510], LIRC_PULSE(755));
	ir_lircdev_get_stats(dev, &st);
	/* 88 dropped for a, 88 + 2 (its queue still held 2 words) for b */
	assert_int_equal(st.dropped_words, 88 + 90);
	ir_lircdev_close(a);
	assert_int_equal(ir_lircdev_reader_count(dev), 1);
	ir_lircdev_free(dev); /* frees b */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_abi_numbers),
		cmocka_unit_test(test_features_and_modes),
		cmocka_unit_test(test_timeout_and_send_ioctls),
		cmocka_unit_test(test_mode2_words_with_timeout_and_gap),
		cmocka_unit_test(test_read_sizes),
		cmocka_unit_test(test_scancode_records),
		cmocka_unit_test(test_readers_queues_and_wakeups),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
