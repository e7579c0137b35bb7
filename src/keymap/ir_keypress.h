/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_keypress.h - frames become key presses, as rc-core makes them.
 *
 * A key goes down on a frame.  It stays down while frames of the same
 * button (same protocol, decoder, scancode and toggle) or repeat codes keep
 * arriving: each one is reported as a repeat and pushes the key-up back to
 * the frame's end + the protocol's repeat period + the key-up timeout
 * (rc-core's rule; the timeout defaults to 125 ms, the kernel's
 * IR_DEFAULT_TIMEOUT).  A different button, or the same one with its
 * toggle bit changed (a new press on RC-5/RC-6), first releases the held
 * key.  Time is the source's (µs): nothing here reads a clock, so the
 * embedder calls ir_keypress_advance() when time passes without frames
 * (ir_keypress_keyup_due() says when that matters).
 *
 * Frames that no keymap binding names go through the same rules with key
 * NULL and keycode -1: rc-core still reports their scancode (MSC_SCAN), and
 * the lircd socket ignores them.
 */
#ifndef IRJACK_IR_KEYPRESS_H
#define IRJACK_IR_KEYPRESS_H

#include <stdint.h>

#include "ir_decoder.h"
#include "ir_keymap.h"

#define IR_KEYPRESS_DEFAULT_TIMEOUT_US 125000u

enum ir_key_event_type {
	IR_KEY_DOWN,
	IR_KEY_REPEAT,
	IR_KEY_UP,
};

/* Where a key event decoded by another daemon came from (a [source]
 * type = lircd): the irjackd instance that decoded it (its id, "" for a
 * plain lircd, which cannot say), its number there, and the daemon this
 * one read it from.  The lircd socket uses it so an event never goes back
 * the way it came (out_lircd.h). */
struct ir_key_origin {
	char id[24];       /* the decoding daemon's instance id; "": unknown */
	uint64_t seq;      /* its number for the event (0: unknown) */
	char via[24];      /* the instance id of the peer it was read from; "": unknown */
};

struct ir_key_event {
	enum ir_key_event_type type;
	const char *remote;  /* NULL when no binding names the frame; owned by the keymap */
	const char *key;     /* likewise */
	int keycode;         /* Linux key code, or -1 */
	enum ir_protocol protocol;
	uint64_t scancode;
	uint16_t decoder_id;
	bool toggle;
	unsigned repeat;     /* 0 for the press, then 1, 2, ... (lircd's repeat count) */
	uint64_t time_us;    /* source time: the frame's end, or when the key went up */
	const struct ir_key_origin *origin; /* NULL: decoded by this daemon */
};

typedef void (*ir_key_event_fn)(void *userdata, const struct ir_key_event *event);

struct ir_keypress;

/* `keymap` may be NULL (every frame unnamed); it must outlive the object.
 * Returns 0 and sets *out, -EINVAL, or -ENOMEM. */
int ir_keypress_new(const struct ir_keymap *keymap, ir_key_event_fn fn, void *userdata,
		    struct ir_keypress **out);
void ir_keypress_free(struct ir_keypress *kp);

void ir_keypress_set_keyup_timeout(struct ir_keypress *kp, uint32_t us);

/* A decoded frame; events are reported from inside the call.  Time must not
 * go backwards (an earlier frame end is taken as the latest time seen). */
void ir_keypress_frame(struct ir_keypress *kp, const struct ir_frame *frame);

/* Source time has reached now_us with no frame: the held key goes up if
 * its key-up time has passed. */
void ir_keypress_advance(struct ir_keypress *kp, uint64_t now_us);

/* The source time at which the held key goes up unless a frame comes, or 0
 * when no key is down. */
uint64_t ir_keypress_keyup_due(const struct ir_keypress *kp);

/* Releases the held key now (the source went away, or shutdown). */
void ir_keypress_release(struct ir_keypress *kp, uint64_t now_us);

#endif
