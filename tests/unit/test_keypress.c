/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Key presses from frames with rc-core's timing: down on a frame, repeats
 * while frames or repeat codes keep coming, up after the repeat period +
 * key-up timeout; a toggle change is a new press.  Fed the frames the real
 * decoder reports for encoded key presses.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include <linux/input-event-codes.h>

#include "ir_keypress.h"
#include "test_util.h"

struct event_log {
	struct ir_key_event ev[64];
	unsigned n;
};

static void log_event(void *userdata, const struct ir_key_event *e)
{
	struct event_log *l = userdata;

	if (l->n < 64)
		l->ev[l->n++] = *e;
}

static struct ir_keymap *keymap(void)
{
	struct ir_keymap *km;
	unsigned r;

	assert_int_equal(ir_keymap_new(&km), 0);
	assert_int_equal(ir_keymap_add_remote(km, "tv", &r), 0);
	assert_int_equal(ir_keymap_add_key(km, r, IR_PROTO_NEC, 0, 0x04fb, "KEY_POWER"), 0);
	assert_int_equal(ir_keymap_add_key(km, r, IR_PROTO_RC5, 0, 0x1e01, "KEY_1"), 0);
	return km;
}

/* Decodes encoded key presses (protocol, scancode, repeats, toggle) placed
 * at the given start times, returning the frames. */
static void frames_for(struct frame_log *log, enum ir_protocol p, uint64_t sc, unsigned repeats,
		       unsigned toggle)
{
	struct ir_edge_buf e = { 0 };
	struct ir_encode_opts o = { .repeats = repeats, .toggle = toggle };

	assert_int_equal(ir_encode(p, sc, &o, &e), 0);
	decode_edges(NULL, e.edges, e.len, log);
	ir_edge_buf_free(&e);
}

static void test_nec_held_key(void **state)
{
	static struct frame_log frames;
	struct event_log ev = { 0 };
	struct ir_keymap *km = keymap();
	struct ir_keypress *kp;
	const struct ir_protocol_info *nec = ir_protocol_get(IR_PROTO_NEC);

	(void)state;
	frames_for(&frames, IR_PROTO_NEC, 0x04fb, 3, 0);
	assert_int_equal(frames.count, 4); /* the frame and three repeat codes */
	assert_int_equal(ir_keypress_new(km, log_event, &ev, &kp), 0);
	for (size_t i = 0; i < frames.count; i++)
		ir_keypress_frame(kp, &frames.frames[i]);
	assert_int_equal(ev.n, 4);
	assert_int_equal(ev.ev[0].type, IR_KEY_DOWN);
	assert_string_equal(ev.ev[0].key, "KEY_POWER");
	assert_string_equal(ev.ev[0].remote, "tv");
	assert_int_equal(ev.ev[0].keycode, KEY_POWER);
	for (unsigned i = 1; i < 4; i++) {
		assert_int_equal(ev.ev[i].type, IR_KEY_REPEAT);
		assert_int_equal(ev.ev[i].repeat, i);
	}
	/* up exactly at the last frame's end + repeat period + 125 ms */
	uint64_t due = frames.frames[3].end_us + nec->repeat_period_ms * 1000ull + 125000;

	assert_true(ir_keypress_keyup_due(kp) == due);
	ir_keypress_advance(kp, due - 1);
	assert_int_equal(ev.n, 4);
	ir_keypress_advance(kp, due + 50000);
	assert_int_equal(ev.n, 5);
	assert_int_equal(ev.ev[4].type, IR_KEY_UP);
	assert_true(ev.ev[4].time_us == due);
	assert_int_equal(ir_keypress_keyup_due(kp), 0);
	ir_keypress_free(kp);
	ir_keymap_free(km);
}

static void test_rc5_toggle_is_a_new_press(void **state)
{
	struct event_log ev = { 0 };
	struct ir_keymap *km = keymap();
	struct ir_keypress *kp;
	struct ir_frame f = { .protocol = IR_PROTO_RC5, .scancode = 0x1e01, .end_us = 25000 };

	(void)state;
	assert_int_equal(ir_keypress_new(km, log_event, &ev, &kp), 0);
	ir_keypress_set_keyup_timeout(kp, 50000);
	ir_keypress_frame(kp, &f);           /* down */
	f.end_us += 114000;
	ir_keypress_frame(kp, &f);           /* same toggle: repeat */
	f.end_us += 114000;
	f.flags = IR_FRAME_TOGGLE;
	ir_keypress_frame(kp, &f);           /* toggled: up, then down */
	f.end_us += 400000;
	ir_keypress_frame(kp, &f);           /* after the key-up time: up, down */
	assert_int_equal(ev.n, 6);
	assert_int_equal(ev.ev[0].type, IR_KEY_DOWN);
	assert_int_equal(ev.ev[1].type, IR_KEY_REPEAT);
	assert_int_equal(ev.ev[2].type, IR_KEY_UP);
	assert_true(ev.ev[2].time_us == 25000 + 228000);
	assert_int_equal(ev.ev[3].type, IR_KEY_DOWN);
	assert_true(ev.ev[3].toggle);
	/* the toggled press went up at its own key-up time, before the frame */
	assert_int_equal(ev.ev[4].type, IR_KEY_UP);
	assert_true(ev.ev[4].time_us == 25000 + 228000 + 114000 + 50000);
	assert_int_equal(ev.ev[5].type, IR_KEY_DOWN);
	assert_int_equal(ev.ev[5].repeat, 0);
	ir_keypress_release(kp, f.end_us + 1);
	assert_int_equal(ev.n, 7);
	assert_int_equal(ev.ev[6].type, IR_KEY_UP);
	ir_keypress_free(kp);
	ir_keymap_free(km);
}

static void test_other_button_and_unnamed_frames(void **state)
{
	struct event_log ev = { 0 };
	struct ir_keymap *km = keymap();
	struct ir_keypress *kp;
	struct ir_frame a = { .protocol = IR_PROTO_NEC, .scancode = 0x04fb, .end_us = 70000 };
	struct ir_frame b = { .protocol = IR_PROTO_NEC, .scancode = 0x0408, .end_us = 180000 };

	(void)state;
	assert_int_equal(ir_keypress_new(km, log_event, &ev, &kp), 0);
	ir_keypress_frame(kp, &a);
	ir_keypress_frame(kp, &b);
	assert_int_equal(ev.n, 3);
	assert_int_equal(ev.ev[1].type, IR_KEY_UP);
	assert_string_equal(ev.ev[1].key, "KEY_POWER");
	assert_int_equal(ev.ev[2].type, IR_KEY_DOWN);
	assert_null(ev.ev[2].key); /* no binding: still a press, for MSC_SCAN */
	assert_int_equal(ev.ev[2].keycode, -1);
	assert_true(ev.ev[2].scancode == 0x0408);
	ir_keypress_free(kp);
	ir_keymap_free(km);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nec_held_key),
		cmocka_unit_test(test_rc5_toggle_is_a_new_press),
		cmocka_unit_test(test_other_button_and_unnamed_frames),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
