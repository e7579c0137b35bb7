/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rc5.c - Philips RC-5, its 20-bit RC-5X variant and the 15-bit StreamZap
 * variant: Manchester (bi-phase), a 1 is space then pulse, 889 µs per
 * half-bit, 36 kHz, sent MSB first, repeated every 114 ms while held.
 *
 *   rc5     14 bits: S1=1, S2 (= NOT command bit 6), toggle, 5 system, 6 command
 *   rc5x_20 20 bits: S1, S2, toggle, 5 system, a 4-unit space, 6 command, 6 extra
 *   rc5_sz  15 bits: S1, bit 13 of the scancode, toggle, 12 scancode bits
 *   s100    15 bits: S1, S2 = 1, toggle, 5 address, 7 command (IRMP's S100)
 *
 * Scancodes: rc5 system<<8 | command7; rc5x_20 system<<16 | command7<<8 |
 * extra; rc5_sz the 14 received bits without the toggle; s100 IRMP's
 * address << 16 | command.
 *
 * S100 is StreamZap's light read IRMP's way: every s100 frame is an rc5_sz
 * one (rc_core_view gives that reading).  It ranks above rc5_sz where both
 * are enabled, and is left out of the default set so that rc-core's users
 * keep the kernel's name; a keymap naming s100 asks for it.
 */
#include "ir_family.h"

#define RC5_UNIT 889          /* 888.9 µs: 32 cycles of 36 kHz */
#define RC5_MARGIN (RC5_UNIT / 2)
#define RC5X_SPACE (4 * RC5_UNIT)
#define RC5_NBITS 14
#define RC5_SZ_NBITS 15
#define RC5X_NBITS 20
#define RC5X_CHECK_NBITS 8
#define S100_S2 (1u << 13)    /* S100's second start bit, always 1 */
/* The longest space inside a frame past bit 8 is 2 half-bits (1778 + margin
 * = 2222 from a pulse's end).  After the last bit's final half, 2 more units
 * of darkness end the frame. */
#define RC5_END_SPACE (2 * RC5_UNIT)
#define RC5_TRAILER_SPACE (6 * RC5_UNIT) /* rc-core's minimum gap */
/* RC-5 has no header: any 1-unit pulse could start a frame, and the bits of
 * other protocols (NEC's 563/1688) fit its tolerances.  A frame only starts
 * after more darkness than any protocol's header space (NEC and Sanyo: 4.5
 * ms); real RC-5 frames are 89 ms apart. */
#define RC5_IDLE_SPACE (8 * RC5_UNIT)

enum rc5_state {
	STATE_INACTIVE,
	STATE_BIT_START,
	STATE_BIT_END,
	STATE_CHECK_RC5X,
};

struct rc5_dec {
	enum rc5_state state;
	unsigned count;
	uint32_t bits;
	bool is_rc5x;
	uint64_t start_us;
};

static void rc5_reset(void *state)
{
	struct rc5_dec *d = state;

	d->state = STATE_INACTIVE;
}

/* The bits so far form a whole frame of an enabled variant. */
static bool rc5_complete(const struct rc5_dec *d, const struct ir_decode_ctx *ctx)
{
	if (d->is_rc5x)
		return d->count == RC5X_NBITS && ir_decode_enabled(ctx, IR_PROTO_RC5X_20);
	if (d->count == RC5_NBITS)
		return ir_decode_enabled(ctx, IR_PROTO_RC5);
	if (d->count == RC5_SZ_NBITS)
		return ir_decode_enabled(ctx, IR_PROTO_RC5_SZ) ||
		       (ir_decode_enabled(ctx, IR_PROTO_S100) && (d->bits & S100_S2));
	return false;
}

/* ...and no variant could make it longer.  A 14-bit frame may be the start
 * of a 15-bit StreamZap one (enabled or not: its frames must not pass for
 * RC-5), so RC-5 waits for the silence; so does StreamZap, because RC-5's
 * half-unit margin reads the first 15 "bits" of other protocols' longer
 * trains (rccar's 2000 µs header and 600/450/900 µs bits) and a frame is
 * only certain when its length is.  RC-5X ends at its last pulse (its
 * 4-unit space at bit 8 already sets it apart). */
static bool rc5_final(const struct rc5_dec *d, const struct ir_decode_ctx *ctx)
{
	return rc5_complete(d, ctx) && d->is_rc5x;
}

static void rc5_finish(struct rc5_dec *d, struct ir_decode_ctx *ctx)
{
	uint32_t b = d->bits, command, system, toggle;

	if (d->is_rc5x) {
		command = (b >> 6) & 0x3f;
		system = (b >> 12) & 0x1f;
		toggle = (b >> 17) & 1;
		if (!(b & (1u << 18)))
			command += 0x40;
		ir_decode_emit(ctx, IR_PROTO_RC5X_20, system << 16 | command << 8 | (b & 0x3f),
			       toggle, d->start_us);
	} else if (d->count == RC5_NBITS) {
		command = b & 0x3f;
		system = (b >> 6) & 0x1f;
		toggle = (b >> 11) & 1;
		if (!(b & (1u << 12)))
			command += 0x40;
		ir_decode_emit(ctx, IR_PROTO_RC5, system << 8 | command, toggle, d->start_us);
	} else {
		toggle = (b >> 12) & 1;
		/* both readings; the core reports s100's where it is enabled */
		ir_decode_emit(ctx, IR_PROTO_RC5_SZ, b & 0x2fff, toggle, d->start_us);
		if (b & S100_S2)
			ir_decode_emit(ctx, IR_PROTO_S100, (b >> 7 & 0x1f) << 16 | (b & 0x7f), toggle,
				       d->start_us);
	}
	d->state = STATE_INACTIVE;
}

/* Why the (rest of the) edge broke the frame (irjack decode -v). */
static void rc5_why(const struct rc5_dec *d, struct ir_decode_ctx *ctx, bool pulse, uint32_t dur)
{
	const char *what = pulse ? "pulse" : "space";
	unsigned progress = 2 * d->count;

	if (!ir_decode_wants_why(ctx) || (d->state == STATE_INACTIVE && !pulse))
		return;
	if (d->state == STATE_INACTIVE)
		ir_decode_why(ctx, 0, "rc5: pulse %u us after %u us of darkness: no start bit (>= %u dark)",
			      dur, ir_decode_space_before(ctx), RC5_IDLE_SPACE);
	else if (d->count >= RC5X_NBITS)
		ir_decode_why(ctx, progress, "rc5: more than %u bits", RC5X_NBITS);
	else if (!pulse && dur >= RC5_END_SPACE)
		ir_decode_why(ctx, progress, "rc5: %u bits then silence: no RC-5 length (14, 15 StreamZap, 20 RC-5X)",
			      d->count);
	else
		ir_decode_why(ctx, progress, "rc5: bit %u: %s %u us is not a half-bit (%u-%u) or two",
			      d->count, what, dur, RC5_UNIT - RC5_MARGIN, RC5_UNIT + RC5_MARGIN);
}

static void rc5_decode(void *state, struct ir_decode_ctx *ctx, const struct ir_edge *e)
{
	struct rc5_dec *d = state;
	struct ir_edge ev = *e;
	bool pulse = ev.kind == IR_PULSE;
	if (!ir_geq_margin(ev.duration, RC5_UNIT, RC5_MARGIN))
		goto fail;
again:
	if (!ir_geq_margin(ev.duration, RC5_UNIT, RC5_MARGIN))
		return; /* this edge is used up; the rest was jitter */

	switch (d->state) {
	case STATE_INACTIVE:
		if (!pulse || ir_decode_space_before(ctx) < RC5_IDLE_SPACE)
			break;
		/* S1 is a 1: its first half is indistinguishable from the gap. */
		d->start_us = ir_decode_now(ctx);
		d->count = 1;
		d->bits = 0;
		d->is_rc5x = false;
		d->state = STATE_BIT_START;
		ir_edge_consume(&ev, RC5_UNIT);
		goto again;

	case STATE_BIT_START:
		if (!pulse && rc5_complete(d, ctx) && ev.duration >= RC5_END_SPACE) {
			rc5_finish(d, ctx);
			return;
		}
		if (!ir_eq_margin(ev.duration, RC5_UNIT, RC5_MARGIN) || d->count >= RC5X_NBITS)
			break;
		d->bits <<= 1;
		if (!pulse)
			d->bits |= 1;
		d->count++;
		d->state = STATE_BIT_END;
		/* A final 0 is certain once its pulse half is over. */
		if (pulse && rc5_final(d, ctx))
			rc5_finish(d, ctx);
		return;

	case STATE_BIT_END:
		d->state = d->count == RC5X_CHECK_NBITS ? STATE_CHECK_RC5X : STATE_BIT_START;
		ir_edge_consume(&ev, RC5_UNIT);
		/* A final 1 is certain when its pulse half ends the edge. */
		if (pulse && !ir_geq_margin(ev.duration, RC5_UNIT, RC5_MARGIN) && rc5_final(d, ctx)) {
			rc5_finish(d, ctx);
			return;
		}
		goto again;

	case STATE_CHECK_RC5X:
		d->is_rc5x = !pulse && ir_geq_margin(ev.duration, RC5X_SPACE, RC5_MARGIN);
		if (d->is_rc5x)
			ir_edge_consume(&ev, RC5X_SPACE);
		d->state = STATE_BIT_START;
		goto again;
	}
fail:
	rc5_why(d, ctx, pulse, ev.duration);
	d->state = STATE_INACTIVE;
}

static uint32_t rc5_space_deadline(const void *state, const struct ir_decode_ctx *ctx)
{
	const struct rc5_dec *d = state;

	if (!rc5_complete(d, ctx))
		return 0;
	if (d->state == STATE_BIT_START)
		return RC5_END_SPACE;
	if (d->state == STATE_BIT_END)
		return RC5_UNIT + RC5_END_SPACE;
	return 0;
}

static int rc5_encode(enum ir_protocol p, uint64_t scancode, unsigned toggle,
		      struct ir_edge_buf *out)
{
	uint32_t system, command, data;
	int ret;

	switch (p) {
	case IR_PROTO_RC5:
		system = (scancode >> 8) & 0x1f;
		command = scancode & 0x7f;
		data = 1u << 13 | (command & 0x40 ? 0 : 1u << 12) | toggle << 11 | system << 6 |
		       (command & 0x3f);
		return ir_gen_manchester(out, RC5_UNIT, false, RC5_NBITS, data);
	case IR_PROTO_RC5X_20:
		system = (scancode >> 16) & 0x1f;
		command = (scancode >> 8) & 0x7f;
		data = 1u << 7 | (command & 0x40 ? 0 : 1u << 6) | toggle << 5 | system;
		ret = ir_gen_manchester(out, RC5_UNIT, false, RC5X_CHECK_NBITS, data);
		if (ret == 0)
			ret = ir_edge_buf_space(out, RC5X_SPACE);
		if (ret == 0)
			ret = ir_gen_manchester(out, RC5_UNIT, false, RC5X_NBITS - RC5X_CHECK_NBITS,
						(command & 0x3f) << 6 | (scancode & 0x3f));
		return ret;
	case IR_PROTO_RC5_SZ:
		data = 1u << 14 | (uint32_t)(scancode & 0x2000) | toggle << 12 |
		       (uint32_t)(scancode & 0xfff);
		return ir_gen_manchester(out, RC5_UNIT, false, RC5_SZ_NBITS, data);
	case IR_PROTO_S100:
		data = 1u << 14 | S100_S2 | toggle << 12 | (uint32_t)((scancode >> 16) & 0x1f) << 7 |
		       (uint32_t)(scancode & 0x7f);
		return ir_gen_manchester(out, RC5_UNIT, false, RC5_SZ_NBITS, data);
	default:
		return -EINVAL;
	}
}

#define RC5_INFO_X(ID, NAME, MASK, PRIORITY, NOT_DEFAULT, SUMMARY)                        \
	{                                                                                  \
		.id = ID, .name = NAME, .family = "rc5", .scancode_mask = MASK,            \
		.carrier_hz = 36000, .duty_cycle = 25, .unit_us = RC5_UNIT,                \
		.margin_us = RC5_MARGIN, .repeat_period_ms = 114,                          \
		.frame_period_us = 113778, .min_trailing_space_us = RC5_TRAILER_SPACE,     \
		.has_toggle = true, .has_encoder = true, .not_default = NOT_DEFAULT,       \
		.priority = PRIORITY, .summary = SUMMARY,                                  \
	}
#define RC5_INFO(ID, NAME, MASK, SUMMARY) RC5_INFO_X(ID, NAME, MASK, 0, false, SUMMARY)

static const struct ir_protocol_info rc5_infos[] = {
	RC5_INFO(IR_PROTO_RC5, "rc5", 0x1f7f, "Philips RC-5, 5-bit system, 7-bit command"),
	RC5_INFO(IR_PROTO_RC5X_20, "rc5x_20", 0x1f7f3f, "RC-5X, 20 bits with 6 extra bits"),
	RC5_INFO(IR_PROTO_RC5_SZ, "rc5_sz", 0x2fff, "StreamZap RC-5, 15 bits"),
	RC5_INFO_X(IR_PROTO_S100, "s100", 0x1f007f, 1, true,
		   "S100, RC-5 with 7-bit command (rc5_sz's light, IRMP's reading)"),
};

/* s100 is rc5_sz with S2 = 1: address bits 11-7, command bits 6-0. */
static bool rc5_rc_core_view(enum ir_protocol p, uint64_t scancode, enum ir_protocol *rc_proto,
			     uint64_t *rc_scancode)
{
	if (p != IR_PROTO_S100)
		return false;
	*rc_proto = IR_PROTO_RC5_SZ;
	*rc_scancode = S100_S2 | ((scancode >> 16) & 0x1f) << 7 | (scancode & 0x7f);
	return true;
}

const struct ir_family ir_family_rc5 = {
	.name = "rc5",
	.protocols = rc5_infos,
	.protocol_count = sizeof(rc5_infos) / sizeof(rc5_infos[0]),
	.state_size = sizeof(struct rc5_dec),
	.reset = rc5_reset,
	.decode = rc5_decode,
	.space_deadline = rc5_space_deadline,
	.encode = rc5_encode,
	.rc_core_view = rc5_rc_core_view,
};
