/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mce_kbd.c - MCIR-2, the protocol of the Microsoft Remote Keyboard for
 * Windows Media Center and its pointing stick: Manchester, a 1 is pulse
 * then space, 333 µs per half-bit, 36 kHz, sent MSB first.
 *
 *   frame: 2664 pulse, 5 header bits, body
 *   header 0x04: keyboard, 32 body bits
 *   header 0x01: mouse, 29 body bits
 *
 * Scancodes follow rc-core: mce_kbd the low 24 body bits (second key <<16 |
 * first key <<8 | modifier mask), mce_mouse the low 21 (y<<14 | x<<7, 7-bit
 * two's complement each, | right button 0x40 | left button 0x20).  The body
 * bits above those are not part of the scancode; the encoder sends them as
 * 0, as rc-core's does.
 */
#include "ir_family.h"

#define MCIR2_UNIT 333                   /* 333.3 µs: 12 cycles of 36 kHz */
#define MCIR2_MARGIN (MCIR2_UNIT / 2)
#define MCIR2_PREFIX_PULSE (8 * MCIR2_UNIT)
/* A receiver's AGC needs a few carrier cycles to settle on the first pulse,
 * so it comes out short or long; rc-core allows a whole unit there. */
#define MCIR2_PREFIX_MARGIN MCIR2_UNIT
#define MCIR2_HEADER_NBITS 5
#define MCIR2_KEYBOARD_HEADER 0x04
#define MCIR2_MOUSE_HEADER 0x01
#define MCIR2_KEYBOARD_NBITS 32
#define MCIR2_MOUSE_NBITS 29
#define MCIR2_KEYBOARD_MASK 0xffffffu
#define MCIR2_MOUSE_MASK 0x1fffffu
/* rc-core's encoder ends a frame with 10 units of darkness. */
#define MCIR2_TRAILER_SPACE (10 * MCIR2_UNIT)
/* rc-core's minimum gap, 3.5 units (1165): past the longest dark run
 * inside a frame (2 units) with margin. */
#define MCIR2_MIN_GAP (3 * MCIR2_UNIT + MCIR2_UNIT / 2)

/* The leader: the prefix pulse and 5 header bits (rc6_leader.c); no
 * prefix space: the first header bit's dark half follows the pulse. */
static const struct ir_rc6_leader_params mce_kbd_leader = {
	.unit = MCIR2_UNIT, .margin = MCIR2_MARGIN,
	.prefix_pulse = MCIR2_PREFIX_PULSE, .prefix_margin = MCIR2_PREFIX_MARGIN,
	.prefix_space = 0, .nbits = MCIR2_HEADER_NBITS,
};

enum mce_kbd_state {
	STATE_INACTIVE, /* in the leader (idle, or part of the way) */
	STATE_BODY = IR_RC6_LEADER_STATES, /* bit start, or (body.mid) end: the next name */
};

/* The states' names, for `irjack decode -v` (ir_decode_why_state()). */
static const char *const mce_kbd_states[] = {
	"idle", "prefix space", "header bit start", "header bit end", "body bit start",
	"body bit end",
};

struct mce_kbd_dec {
	enum mce_kbd_state state;
	struct ir_rc6_leader leader;
	unsigned header;
	unsigned wanted_bits;
	struct ir_manchester body;
	uint64_t start_us;
};

static void mce_kbd_reset(void *state)
{
	struct mce_kbd_dec *d = state;

	d->state = STATE_INACTIVE;
	d->leader.state = 0;
}

/* The body length the header announces, or 0 for neither keyboard nor
 * mouse.  The header's first bit always reads 0 here (the prefix pulse is
 * taken whole, so a space follows it); rc-core ignores that bit too. */
static unsigned mce_kbd_body_bits(unsigned header)
{
	switch (header) {
	case MCIR2_KEYBOARD_HEADER:
		return MCIR2_KEYBOARD_NBITS;
	case MCIR2_MOUSE_HEADER:
		return MCIR2_MOUSE_NBITS;
	default:
		return 0;
	}
}

/* rc-core's protocol and scancode for a whole body. */
static void mce_kbd_scancode(const struct mce_kbd_dec *d, enum ir_protocol *proto,
			     uint64_t *scancode)
{
	if (d->wanted_bits == MCIR2_KEYBOARD_NBITS) {
		*proto = IR_PROTO_MCIR2_KBD;
		*scancode = d->body.bits & MCIR2_KEYBOARD_MASK;
	} else {
		*proto = IR_PROTO_MCIR2_MSE;
		*scancode = d->body.bits & MCIR2_MOUSE_MASK;
	}
}

static void mce_kbd_finish(struct mce_kbd_dec *d, struct ir_decode_ctx *ctx)
{
	enum ir_protocol proto;
	uint64_t scancode;

	mce_kbd_scancode(d, &proto, &scancode);
	ir_decode_emit(ctx, proto, scancode, 0, d->start_us);
	d->state = STATE_INACTIVE;
}

static void mce_kbd_decode(void *state, struct ir_decode_ctx *ctx, const struct ir_edge *e)
{
	struct mce_kbd_dec *d = state;
	struct ir_edge ev = *e;
	enum ir_rc6_leader_step step;

	if (!ir_geq_margin(ev.duration, MCIR2_UNIT, MCIR2_MARGIN))
		goto fail;
again:
	if (!ir_geq_margin(ev.duration, MCIR2_UNIT, MCIR2_MARGIN))
		return; /* this edge is used up; the rest was jitter */

	switch (d->state) {
	case STATE_INACTIVE:
		step = ir_rc6_leader_feed(&d->leader, &mce_kbd_leader, ctx, &ev);
		if (step == IR_RC6_LEADER_FAIL)
			break;
		if (step == IR_RC6_LEADER_MORE)
			return;
		d->start_us = d->leader.start_us;
		d->header = d->leader.header;
		d->wanted_bits = mce_kbd_body_bits(d->header);
		if (!d->wanted_bits)
			break;
		d->body = (struct ir_manchester){ 0 };
		d->state = STATE_BODY;
		goto again;

	case STATE_BODY:
		switch (ir_manchester_feed(&d->body, MCIR2_UNIT, MCIR2_MARGIN, d->wanted_bits,
					   d->wanted_bits, &ev)) {
		case IR_MANCHESTER_FAIL:
			goto fail;
		case IR_MANCHESTER_DONE:
			mce_kbd_finish(d, ctx);
			return;
		case IR_MANCHESTER_AGAIN:
			goto again;
		case IR_MANCHESTER_NEXT:
			return;
		}
	}
fail:
	if (d->state == STATE_INACTIVE) /* the leader's state names come first */
		ir_decode_why_state(ctx, "mce_kbd", mce_kbd_states, d->leader.state,
				    d->leader.count, e->kind == IR_PULSE, ev.duration);
	else
		ir_decode_why_state(ctx, "mce_kbd", mce_kbd_states,
				    d->state + (d->state == STATE_BODY && d->body.mid), d->body.count,
				    e->kind == IR_PULSE, ev.duration);
	d->state = STATE_INACTIVE;
	d->leader.state = 0;
}

static int mce_kbd_encode(enum ir_protocol p, uint64_t scancode, unsigned toggle,
			  struct ir_edge_buf *out)
{
	unsigned header, nbits;
	int ret;

	(void)toggle;
	switch (p) {
	case IR_PROTO_MCIR2_KBD:
		header = MCIR2_KEYBOARD_HEADER;
		nbits = MCIR2_KEYBOARD_NBITS;
		break;
	case IR_PROTO_MCIR2_MSE:
		header = MCIR2_MOUSE_HEADER;
		nbits = MCIR2_MOUSE_NBITS;
		break;
	default:
		return -EINVAL;
	}
	if (ir_edge_buf_pulse(out, MCIR2_PREFIX_PULSE))
		return -ENOMEM;
	ret = ir_gen_manchester(out, MCIR2_UNIT, true, MCIR2_HEADER_NBITS + nbits,
				(uint64_t)header << nbits | scancode);
	if (ret == 0)
		ret = ir_edge_buf_space(out, MCIR2_TRAILER_SPACE);
	return ret;
}

/* rc-core's repeat period is 100 ms; the keyboard's own resend rate is not
 * on record, so repeats follow each other after the encoder's trailer, as
 * rc-core's encoder sends them. */
#define MCIR2_INFO(ID, NAME, MASK, SUMMARY)                                                \
	{                                                                                  \
		.id = ID, .name = NAME, .family = "mce_kbd", .scancode_mask = MASK,        \
		.carrier_hz = 36000, .duty_cycle = 0, .unit_us = MCIR2_UNIT,               \
		.margin_us = MCIR2_MARGIN, .repeat_period_ms = 100, .frame_period_us = 0,  \
		.min_trailing_space_us = MCIR2_MIN_GAP, .has_toggle = false,               \
		.has_encoder = true, .summary = SUMMARY,                                   \
	}

static const struct ir_protocol_info mce_kbd_infos[] = {
	MCIR2_INFO(IR_PROTO_MCIR2_KBD, "mce_kbd", MCIR2_KEYBOARD_MASK,
		   "Microsoft MCE keyboard (MCIR-2), two keys and modifiers"),
	MCIR2_INFO(IR_PROTO_MCIR2_MSE, "mce_mouse", MCIR2_MOUSE_MASK,
		   "Microsoft MCE keyboard's mouse (MCIR-2), motion and buttons"),
};

const struct ir_family ir_family_mce_kbd = {
	.name = "mce_kbd",
	.protocols = mce_kbd_infos,
	.protocol_count = sizeof(mce_kbd_infos) / sizeof(mce_kbd_infos[0]),
	.state_size = sizeof(struct mce_kbd_dec),
	.reset = mce_kbd_reset,
	.decode = mce_kbd_decode,
	.encode = mce_kbd_encode,
};
