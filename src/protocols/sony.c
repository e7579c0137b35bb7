/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sony.c - Sony SIRC in its 12-, 15- and 20-bit forms: pulse-length, sent
 * LSB first, 40 kHz, repeated whole every 45 ms while a key is held.
 *
 *   frame: 2400 pulse, 600 space, n × (600|1200 pulse, 600 space)
 *   sony12: 7 command bits, 5 device bits
 *   sony15: 7 command bits, 8 device bits
 *   sony20: 7 command bits, 5 device bits, 8 extended bits
 *
 * Nothing inside a frame says how many bits it has: only the silence after
 * the last pulse does.
 *
 * Scancodes follow rc-core: device<<16 | extended<<8 | command.
 */
#include "ir_family.h"

#define SONY_UNIT 600                   /* 24 cycles of 40 kHz */
#define SONY_HEADER_PULSE (4 * SONY_UNIT)
#define SONY_HEADER_SPACE SONY_UNIT
#define SONY_BIT_0_PULSE SONY_UNIT
#define SONY_BIT_1_PULSE (2 * SONY_UNIT)
#define SONY_BIT_SPACE SONY_UNIT
#define SONY_TRAILER_SPACE (10 * SONY_UNIT) /* rc-core's minimum gap */
#define SONY_FRAME_PERIOD 45000         /* start to start; 44.8-45.4 ms in IRMP's recordings */
#define SONY12_NBITS 12
#define SONY15_NBITS 15
#define SONY20_NBITS 20
#define SONY_HEADER_MARGIN (SONY_UNIT / 2)
/* Receivers lengthen pulses: IRMP's RM-S-310 capture has 2700 µs headers
 * (quantised to 100 µs; rendered through a sound card a few µs more), at
 * the very end of rc-core's ±300.  A header may be up to 500 µs long; the
 * 600 µs header space still keeps RC-6's 2664 + 888 µs leader out. */
#define SONY_HEADER_LONG_MARGIN 500
/*
 * Tighter than rc-core's unit/2 (300): RC-6's leader (2664 + 888) fits
 * Sony's header, and its 444/888/1332 µs half-bit runs fit 600 ± 300 and
 * 1200 ± 300, so rc-core reads RC-6 frames of 12, 15 or 20 pulses as Sony.
 * With ±250 the 888 µs runs fit neither bit (850 < 888 < 950), and every
 * RC-6 frame has several of them.  Real receivers stay inside: IRMP's
 * recordings lengthen pulses by up to 200 µs and shorten spaces to 400.
 */
#define SONY_MARGIN 250
/*
 * Receivers shorten spaces rather than lengthen them: a space may be 250
 * µs short but only 200 long.  This is the tightest tolerance here, the one
 * the protocol info declares.  It also keeps the round-trip test's jitter
 * (200 - 5 % of a unit = 170) from taking a header below 2230 µs, into
 * RC-5's reach (S1 and a merged half-bit: up to 889 + 889 + 444 = 2222).
 */
#define SONY_SPACE_LONG_MARGIN 200
/* The longest space inside a frame is 600 + 200 = 800 µs: after 12, 15 or
 * 20 bits, 2 units of darkness end the frame (rc-core waits 6 ms). */
#define SONY_END_SPACE (2 * SONY_UNIT)
/*
 * The kernel as a floor: rc-core takes every bit duration within unit/2
 * (300).  A frame with a duration between our tight window and rc-core's
 * is "loose": it is read as rc-core reads it, and like rc-core it is
 * certain only after rc-core's trailer (a bit space then 10 units less the
 * margin: 6300 µs of darkness), with no space of 900 µs or more inside.
 *
 * The pair sony/rc6: RC-6's leader (2664 pulse, 888 space) fits rc-core's
 * Sony header and its 444/888/1332 runs fit Sony's bits, so rc-core reads
 * RC-6 frames of 12, 15 or 20 pulses without a 900 µs space as Sony.  Here
 * a loose frame whose header leans to RC-6's (pulse >= 2550, space >= 700:
 * real Sony remotes lengthen the pulse but shorten the space) is left to
 * RC-6 while any RC-6 protocol is decoded.
 */
#define SONY_KERNEL_MARGIN (SONY_UNIT / 2)
#define SONY_KERNEL_END_SPACE (SONY_BIT_SPACE + 10 * SONY_UNIT - SONY_KERNEL_MARGIN)
#define SONY_RC6_LEADER_PULSE 2550
#define SONY_RC6_LEADER_SPACE 700

enum sony_state {
	STATE_INACTIVE,
	STATE_HEADER_SPACE,
	STATE_BIT_PULSE,
	STATE_BIT_SPACE,
};

struct sony_dec {
	enum sony_state state;
	unsigned count;
	uint32_t bits; /* LSB first as received */
	bool loose;    /* a duration only rc-core's margin admits */
	bool rc6_like; /* the header leans to RC-6's leader */
	uint64_t start_us;
};

static void sony_reset(void *state)
{
	struct sony_dec *d = state;

	d->state = STATE_INACTIVE;
}

/* Is `dur` within `ref` ± SONY_MARGIN (or the tighter `long_margin`
 * above), or only within rc-core's ± 300 (then the frame is loose)? */
static bool sony_fits(struct sony_dec *d, uint32_t dur, uint32_t ref, uint32_t long_margin)
{
	if (ir_geq_margin(dur, ref, SONY_MARGIN) && ir_leq_margin(dur, ref, long_margin))
		return true;
	if (!ir_eq_margin(dur, ref, SONY_KERNEL_MARGIN))
		return false;
	d->loose = true;
	return true;
}

/* A space inside the frame (the header's or a bit's). */
static bool sony_is_space(struct sony_dec *d, uint32_t dur)
{
	return sony_fits(d, dur, SONY_BIT_SPACE, SONY_SPACE_LONG_MARGIN);
}

/* The darkness that ends a frame of the current length. */
static uint32_t sony_end_space(const struct sony_dec *d)
{
	return d->loose ? SONY_KERNEL_END_SPACE : SONY_END_SPACE;
}

static bool sony_valid_length(unsigned count)
{
	return count == SONY12_NBITS || count == SONY15_NBITS || count == SONY20_NBITS;
}

/* rc-core's scancode layout from `count` bits as received. */
static void sony_scancode(uint32_t bits, unsigned count, enum ir_protocol *proto,
			  uint64_t *scancode)
{
	uint32_t command = bits & 0x7f;

	if (count == SONY12_NBITS) {
		*proto = IR_PROTO_SONY12;
		*scancode = (uint64_t)((bits >> 7) & 0x1f) << 16 | command;
	} else if (count == SONY15_NBITS) {
		*proto = IR_PROTO_SONY15;
		*scancode = (uint64_t)((bits >> 7) & 0xff) << 16 | command;
	} else {
		*proto = IR_PROTO_SONY20;
		*scancode = (uint64_t)((bits >> 7) & 0x1f) << 16 |
			    (uint64_t)((bits >> 12) & 0xff) << 8 | command;
	}
}

static bool sony_rc6_decoded(const struct ir_decode_ctx *ctx)
{
	static const enum ir_protocol rc6[] = { IR_PROTO_RC6_0, IR_PROTO_RC6_6A_20,
						IR_PROTO_RC6_6A_24, IR_PROTO_RC6_6A_32,
						IR_PROTO_RC6_MCE, IR_PROTO_RC6A, IR_PROTO_RC6A28 };

	for (size_t i = 0; i < sizeof(rc6) / sizeof(rc6[0]); i++)
		if (ir_decode_enabled(ctx, rc6[i]))
			return true;
	return false;
}

/* Why the edge in `d->state` broke the frame (irjack decode -v). */
static void sony_why(const struct sony_dec *d, struct ir_decode_ctx *ctx, bool pulse,
		     uint32_t dur)
{
	unsigned progress = 2 + 2 * d->count;

	if (!ir_decode_wants_why(ctx) || (d->state == STATE_INACTIVE && !pulse))
		return;
	switch (d->state) {
	case STATE_INACTIVE:
		ir_decode_why(ctx, 0, "sony: header pulse %u us outside %u-%u", dur,
			      SONY_HEADER_PULSE - SONY_HEADER_MARGIN,
			      SONY_HEADER_PULSE + SONY_HEADER_LONG_MARGIN);
		return;
	case STATE_HEADER_SPACE:
		ir_decode_why(ctx, 1, "sony: header space %u us outside %u-%u", dur,
			      SONY_BIT_SPACE - SONY_KERNEL_MARGIN, SONY_BIT_SPACE + SONY_KERNEL_MARGIN);
		return;
	case STATE_BIT_PULSE:
		ir_decode_why(ctx, progress, "sony: bit %u: %s %u us: not a 0 (%u-%u) nor a 1 (%u-%u)",
			      d->count, pulse ? "pulse" : "space", dur,
			      SONY_BIT_0_PULSE - SONY_KERNEL_MARGIN, SONY_BIT_0_PULSE + SONY_KERNEL_MARGIN,
			      SONY_BIT_1_PULSE - SONY_KERNEL_MARGIN, SONY_BIT_1_PULSE + SONY_KERNEL_MARGIN);
		return;
	case STATE_BIT_SPACE:
		if (dur >= sony_end_space(d))
			ir_decode_why(ctx, progress, "sony: %u bits then silence: no Sony length (12, 15, 20)",
				      d->count);
		else
			ir_decode_why(ctx, progress + 1, "sony: bit %u: space %u us outside %u-%u",
				      d->count, dur, SONY_BIT_SPACE - SONY_KERNEL_MARGIN,
				      SONY_BIT_SPACE + SONY_KERNEL_MARGIN);
		return;
	}
}

static void sony_decode(void *state, struct ir_decode_ctx *ctx, const struct ir_edge *e)
{
	struct sony_dec *d = state;
	bool pulse = e->kind == IR_PULSE;
	uint32_t dur = e->duration;
	enum ir_protocol proto;
	uint64_t scancode;

	switch (d->state) {
	case STATE_INACTIVE:
		if (!pulse || !ir_geq_margin(dur, SONY_HEADER_PULSE, SONY_HEADER_MARGIN) ||
		    !ir_leq_margin(dur, SONY_HEADER_PULSE, SONY_HEADER_LONG_MARGIN))
			break;
		d->start_us = ir_decode_now(ctx);
		d->count = 0;
		d->bits = 0;
		d->loose = false;
		d->rc6_like = dur >= SONY_RC6_LEADER_PULSE;
		d->state = STATE_HEADER_SPACE;
		return;

	case STATE_HEADER_SPACE:
		if (pulse || !sony_is_space(d, dur))
			break;
		d->rc6_like = d->rc6_like && dur >= SONY_RC6_LEADER_SPACE;
		d->state = STATE_BIT_PULSE;
		return;

	case STATE_BIT_PULSE:
		if (!pulse)
			break;
		if (dur > (SONY_BIT_0_PULSE + SONY_BIT_1_PULSE) / 2) {
			if (!sony_fits(d, dur, SONY_BIT_1_PULSE, SONY_MARGIN))
				break;
			d->bits |= UINT32_C(1) << d->count;
		} else if (!sony_fits(d, dur, SONY_BIT_0_PULSE, SONY_MARGIN)) {
			break;
		}
		d->count++;
		d->state = STATE_BIT_SPACE;
		return;

	case STATE_BIT_SPACE:
		if (pulse)
			break;
		if (sony_valid_length(d->count) && dur >= sony_end_space(d)) {
			/* Frames of a disabled length are dropped by the core. */
			sony_scancode(d->bits, d->count, &proto, &scancode);
			if (!(d->loose && d->rc6_like && sony_rc6_decoded(ctx)))
				ir_decode_emit(ctx, proto, scancode, 0, d->start_us);
			d->state = STATE_INACTIVE;
			return;
		}
		if (d->count == SONY20_NBITS || !sony_is_space(d, dur))
			break;
		d->state = STATE_BIT_PULSE;
		return;
	}
	sony_why(d, ctx, pulse, dur);
	d->state = STATE_INACTIVE;
}

static uint32_t sony_space_deadline(const void *state, const struct ir_decode_ctx *ctx)
{
	const struct sony_dec *d = state;

	(void)ctx;
	if (d->state == STATE_BIT_SPACE && sony_valid_length(d->count))
		return sony_end_space(d);
	return 0;
}

static int sony_encode(enum ir_protocol p, uint64_t scancode, unsigned toggle,
		       struct ir_edge_buf *out)
{
	static const struct ir_pl_timings t = {
		.header_pulse = SONY_HEADER_PULSE,
		.header_space = SONY_HEADER_SPACE,
		.bit_0_pulse = SONY_BIT_0_PULSE,
		.bit_1_pulse = SONY_BIT_1_PULSE,
		.bit_space = SONY_BIT_SPACE,
		.trailer_space = SONY_TRAILER_SPACE,
		.msb_first = false,
	};
	uint32_t command = scancode & 0x7f;
	uint32_t device = (scancode >> 16) & 0xff;
	uint32_t extended = (scancode >> 8) & 0xff;

	(void)toggle;
	switch (p) {
	case IR_PROTO_SONY12:
		return ir_gen_pulse_length(out, &t, SONY12_NBITS, command | (device & 0x1f) << 7);
	case IR_PROTO_SONY15:
		return ir_gen_pulse_length(out, &t, SONY15_NBITS, command | device << 7);
	case IR_PROTO_SONY20:
		return ir_gen_pulse_length(out, &t, SONY20_NBITS,
					   command | (device & 0x1f) << 7 | extended << 12);
	default:
		return -EINVAL;
	}
}

#define SONY_INFO(ID, NAME, MASK, SUMMARY)                                                 \
	{                                                                                  \
		.id = ID, .name = NAME, .family = "sony", .scancode_mask = MASK,           \
		.carrier_hz = 40000, .duty_cycle = 33, .unit_us = SONY_UNIT,               \
		.margin_us = SONY_SPACE_LONG_MARGIN, .repeat_period_ms = 100,              \
		.frame_period_us = SONY_FRAME_PERIOD,                                      \
		.min_trailing_space_us = SONY_TRAILER_SPACE, .has_toggle = false,          \
		.has_encoder = true, .summary = SUMMARY,                                   \
	}

static const struct ir_protocol_info sony_infos[] = {
	SONY_INFO(IR_PROTO_SONY12, "sony12", 0x1f007f,
		  "Sony SIRC 12-bit, 5-bit device, 7-bit command"),
	SONY_INFO(IR_PROTO_SONY15, "sony15", 0xff007f,
		  "Sony SIRC 15-bit, 8-bit device, 7-bit command"),
	SONY_INFO(IR_PROTO_SONY20, "sony20", 0x1fff7f,
		  "Sony SIRC 20-bit, 5-bit device, 8-bit extended, 7-bit command"),
};

const struct ir_family ir_family_sony = {
	.name = "sony",
	.protocols = sony_infos,
	.protocol_count = sizeof(sony_infos) / sizeof(sony_infos[0]),
	.state_size = sizeof(struct sony_dec),
	.reset = sony_reset,
	.decode = sony_decode,
	.space_deadline = sony_space_deadline,
	.encode = sony_encode,
};
