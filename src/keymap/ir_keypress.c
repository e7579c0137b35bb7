/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_keypress.c - press, repeat and release of keys from decoded frames.
 */
#include "ir_keypress.h"

#include <errno.h>
#include <stdlib.h>

struct ir_keypress {
	const struct ir_keymap *keymap;
	ir_key_event_fn fn;
	void *userdata;
	uint32_t timeout_us;
	bool down;
	struct ir_key_event held; /* the key that is down */
	uint64_t keyup_us;
	uint64_t now_us;
};

int ir_keypress_new(const struct ir_keymap *keymap, ir_key_event_fn fn, void *userdata,
		    struct ir_keypress **out)
{
	struct ir_keypress *kp;

	if (!fn || !out)
		return -EINVAL;
	kp = calloc(1, sizeof(*kp));
	if (!kp)
		return -ENOMEM;
	kp->keymap = keymap;
	kp->fn = fn;
	kp->userdata = userdata;
	kp->timeout_us = IR_KEYPRESS_DEFAULT_TIMEOUT_US;
	*out = kp;
	return 0;
}

void ir_keypress_free(struct ir_keypress *kp)
{
	free(kp);
}

void ir_keypress_set_keyup_timeout(struct ir_keypress *kp, uint32_t us)
{
	kp->timeout_us = us;
}

static void key_up(struct ir_keypress *kp, uint64_t at_us)
{
	struct ir_key_event ev = kp->held;

	kp->down = false;
	ev.type = IR_KEY_UP;
	ev.time_us = at_us;
	kp->fn(kp->userdata, &ev);
}

void ir_keypress_release(struct ir_keypress *kp, uint64_t now_us)
{
	if (kp->down)
		key_up(kp, now_us > kp->now_us ? now_us : kp->now_us);
}

void ir_keypress_advance(struct ir_keypress *kp, uint64_t now_us)
{
	if (now_us > kp->now_us)
		kp->now_us = now_us;
	if (kp->down && kp->now_us >= kp->keyup_us)
		key_up(kp, kp->keyup_us);
}

uint64_t ir_keypress_keyup_due(const struct ir_keypress *kp)
{
	return kp->down ? kp->keyup_us : 0;
}

static bool same_button(const struct ir_key_event *held, const struct ir_frame *f)
{
	return held->protocol == f->protocol && held->decoder_id == f->decoder_id &&
	       held->scancode == f->scancode && held->toggle == !!(f->flags & IR_FRAME_TOGGLE);
}

void ir_keypress_frame(struct ir_keypress *kp, const struct ir_frame *f)
{
	const struct ir_protocol_info *info = ir_protocol_get(f->protocol);
	uint64_t at = f->end_us > kp->now_us ? f->end_us : kp->now_us;
	struct ir_key_binding b;

	/* a key whose time ran out before this frame goes up first */
	ir_keypress_advance(kp, at);
	kp->now_us = at;
	if (kp->down && (same_button(&kp->held, f) || (f->flags & IR_FRAME_REPEAT))) {
		/* A repeat code stands for the held key whatever its own
		 * toggle (NEC repeats carry the last frame's flags). */
		kp->held.repeat++;
		kp->held.type = IR_KEY_REPEAT;
		kp->held.time_us = at;
	} else {
		if (kp->down)
			key_up(kp, at);
		/* (a repeat code whose press was never seen — it went up, or
		 * listening started mid-press — is a press of its own) */
		kp->held = (struct ir_key_event){
			.type = IR_KEY_DOWN,
			.keycode = -1,
			.protocol = f->protocol,
			.scancode = f->scancode,
			.decoder_id = f->decoder_id,
			.toggle = !!(f->flags & IR_FRAME_TOGGLE),
			.time_us = at,
		};
		if (kp->keymap && ir_keymap_lookup(kp->keymap, f, &b)) {
			kp->held.remote = b.remote;
			kp->held.key = b.key;
			kp->held.keycode = b.keycode;
		}
		kp->down = true;
	}
	kp->keyup_us = at + (uint64_t)(info ? info->repeat_period_ms : 0) * 1000 + kp->timeout_us;
	kp->fn(kp->userdata, &kp->held);
}
