/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * grundig.c - Grundig, Nokia and IR60 (Siemens SDA2008): one machine, the
 * frames differ only in length.  Manchester, a 1 is pulse then space, 528
 * µs per half-bit, sent LSB first, each frame after a pre-bit.
 *
 *   pre-bit  528 pulse, 2639 space
 *   grundig  10 bits: start bit (1), 9 command bits
 *   nokia    17 bits: start bit (1), 8 command bits, 8 address bits
 *   ir60      7 command bits (the first may be 0)
 *
 * A key press is an info frame, ~20 ms of silence, then the data frame;
 * Nokia adds the info frame again as a stop frame.  The info frames are
 * Grundig's command 0x1ff, Nokia's command 0xfe with address 0xff and
 * IR60's start instruction 0x7d.  They are not reported, except that the
 * frame right after an info frame is the data frame whatever it holds (so
 * every command can be sent).
 *
 * Nothing in a frame says how long it is: a Grundig frame is the start of a
 * Nokia one, an IR60 frame the start of both.  Only the silence after the
 * 7th or 10th bit ends a frame; the 17th bit always does.
 *
 * Scancodes are IRMP's address << 16 | command: grundig the 9-bit command,
 * nokia address << 16 | command, ir60 the 7-bit command.
 */
#include "ir_family.h"

#define GRUNDIG_UNIT 528                /* 528 µs half-bit */
#define GRUNDIG_MARGIN (GRUNDIG_UNIT / 2)
#define GRUNDIG_PRE_PULSE GRUNDIG_UNIT
#define GRUNDIG_PRE_SPACE 2639
/* An IR60 frame whose first bit is 0 starts with that bit's dark half,
 * which runs on from the pre-bit's space. */
#define GRUNDIG_PRE_SPACE_0 (GRUNDIG_PRE_SPACE + GRUNDIG_UNIT)
#define IR60_NBITS 7
#define GRUNDIG_NBITS 10
#define NOKIA_NBITS 17
#define GRUNDIG_INFO_COMMAND 0x1ffu     /* all ten bits 1 */
#define NOKIA_INFO_ADDRESS 0xffu
#define NOKIA_INFO_COMMAND 0xfeu
#define IR60_INFO_COMMAND 0x7du
/* Info frame to data frame, and Nokia's data frame to stop frame: 20 ms
 * of silence (IRMP's recordings: 20.0-20.9 ms), 22.2 ms for IR60. */
#define GRUNDIG_INFO_GAP 20000
#define IR60_INFO_GAP 22200
/* The frame after an info frame is its data frame if it starts within
 * this much silence. */
#define GRUNDIG_INFO_GAP_MAX 30000
/* Held keys resend every 117.76 ms, start to start. */
#define GRUNDIG_FRAME_PERIOD 117760
/* After Nokia's stop frame the line must stay dark longer than
 * GRUNDIG_INFO_GAP_MAX, or the next press's info frame would pass for a
 * data frame. */
#define GRUNDIG_TRAILER_SPACE 40000
/* Inside a frame the line is dark at a bit boundary for at most one
 * half-bit (a 0's first half, 528 + margin = 792): two half-bits of
 * darkness there end the frame.  After a final 1's pulse that is its dark
 * half and then these two. */
#define GRUNDIG_END_SPACE (2 * GRUNDIG_UNIT)
/* The pre-bit is a header, but a short one: frames are at least 20 ms
 * apart, so ask for a few ms of darkness before it. */
#define GRUNDIG_IDLE_SPACE 5000

enum grundig_state {
	STATE_INACTIVE,
	STATE_PRE_SPACE,
	STATE_BIT_START,
	STATE_BIT_END,
};

/* The states' names, for `irjack decode -v` (ir_decode_why_state()). */
static const char *const grundig_states[] = {
	"idle", "pre space", "bit start", "bit end",
};

struct grundig_dec {
	enum grundig_state state;
	unsigned count;
	uint32_t bits;        /* LSB first as received */
	bool after_info;      /* this frame follows an info frame closely */
	bool info_pending;    /* the last frame was an info frame */
	uint64_t start_us;
};

static void grundig_reset(void *state)
{
	struct grundig_dec *d = state;

	d->state = STATE_INACTIVE;
	d->info_pending = false;
}

/* The protocol a frame of `count` bits would be, if an enabled one; a
 * first bit of 0 fits IR60 only. */
static bool grundig_complete(const struct grundig_dec *d, const struct ir_decode_ctx *ctx,
			     enum ir_protocol *proto)
{
	switch (d->count) {
	case IR60_NBITS:
		*proto = IR_PROTO_IR60;
		break;
	case GRUNDIG_NBITS:
		*proto = IR_PROTO_GRUNDIG;
		break;
	case NOKIA_NBITS:
		*proto = IR_PROTO_NOKIA;
		break;
	default:
		return false;
	}
	if (*proto != IR_PROTO_IR60 && !(d->bits & 1))
		return false;
	return ir_decode_enabled(ctx, *proto);
}

/* Complete, and no longer frame could follow: Nokia's 17 bits. */
static bool grundig_final(const struct grundig_dec *d, const struct ir_decode_ctx *ctx)
{
	enum ir_protocol proto;

	return d->count == NOKIA_NBITS && grundig_complete(d, ctx, &proto);
}

static void grundig_finish(struct grundig_dec *d, struct ir_decode_ctx *ctx)
{
	enum ir_protocol proto;
	uint32_t command, address = 0;
	bool info;

	d->state = STATE_INACTIVE;
	if (!grundig_complete(d, ctx, &proto)) {
		ir_decode_why(ctx, 1 + 2 * d->count,
			      "grundig: %u bits then silence: not IR60 (7), Grundig (10) or Nokia (17) with its start bit, or not enabled",
			      d->count);
		return;
	}
	switch (proto) {
	case IR_PROTO_IR60:
		command = d->bits;
		info = command == IR60_INFO_COMMAND;
		break;
	case IR_PROTO_GRUNDIG:
		command = d->bits >> 1;
		info = command == GRUNDIG_INFO_COMMAND;
		break;
	default:
		command = (d->bits >> 1) & 0xff;
		address = (d->bits >> 9) & 0xff;
		info = command == NOKIA_INFO_COMMAND && address == NOKIA_INFO_ADDRESS;
		break;
	}
	if (info && !d->after_info) {
		ir_decode_why(ctx, 1 + 2 * d->count,
			      "grundig: an info (start) frame, no frame after it in time");
		d->info_pending = true;
		return;
	}
	ir_decode_emit(ctx, proto, (uint64_t)address << 16 | command, 0, d->start_us);
}

static void grundig_decode(void *state, struct ir_decode_ctx *ctx, const struct ir_edge *e)
{
	struct grundig_dec *d = state;
	struct ir_edge ev = *e;
	bool pulse = ev.kind == IR_PULSE;

	if (!ir_geq_margin(ev.duration, GRUNDIG_UNIT, GRUNDIG_MARGIN))
		goto fail;
again:
	if (!ir_geq_margin(ev.duration, GRUNDIG_UNIT, GRUNDIG_MARGIN))
		return; /* this edge is used up; the rest was jitter */

	switch (d->state) {
	case STATE_INACTIVE:
		if (!pulse || !ir_eq_margin(ev.duration, GRUNDIG_PRE_PULSE, GRUNDIG_MARGIN) ||
		    ir_decode_space_before(ctx) < GRUNDIG_IDLE_SPACE)
			break;
		d->after_info = d->info_pending &&
				ir_decode_space_before(ctx) <= GRUNDIG_INFO_GAP_MAX;
		d->info_pending = false;
		d->start_us = ir_decode_now(ctx);
		d->count = 0;
		d->bits = 0;
		d->state = STATE_PRE_SPACE;
		return;

	case STATE_PRE_SPACE:
		if (pulse)
			break;
		if (ir_eq_margin(ev.duration, GRUNDIG_PRE_SPACE, GRUNDIG_MARGIN)) {
			d->state = STATE_BIT_START;
			return;
		}
		if (!ir_eq_margin(ev.duration, GRUNDIG_PRE_SPACE_0, GRUNDIG_MARGIN))
			break;
		/* The first bit is a 0, its dark half already seen. */
		d->count = 1;
		d->state = STATE_BIT_END;
		return;

	case STATE_BIT_START:
		if (!pulse && ev.duration >= GRUNDIG_END_SPACE) {
			grundig_finish(d, ctx);
			return;
		}
		if (!ir_eq_margin(ev.duration, GRUNDIG_UNIT, GRUNDIG_MARGIN) || d->count >= NOKIA_NBITS)
			break;
		if (pulse)
			d->bits |= UINT32_C(1) << d->count;
		d->count++;
		d->state = STATE_BIT_END;
		/* A final 1 is certain once its pulse half is over. */
		if (pulse && grundig_final(d, ctx))
			grundig_finish(d, ctx);
		return;

	case STATE_BIT_END:
		d->state = STATE_BIT_START;
		ir_edge_consume(&ev, GRUNDIG_UNIT);
		/* A final 0 is certain when its pulse half ends the edge. */
		if (pulse && !ir_geq_margin(ev.duration, GRUNDIG_UNIT, GRUNDIG_MARGIN) &&
		    grundig_final(d, ctx)) {
			grundig_finish(d, ctx);
			return;
		}
		goto again;
	}
fail:
	ir_decode_why_state(ctx, "grundig", grundig_states, d->state,
			    d->count, e->kind == IR_PULSE, ev.duration);
	d->state = STATE_INACTIVE;
}

static uint32_t grundig_space_deadline(const void *state, const struct ir_decode_ctx *ctx)
{
	const struct grundig_dec *d = state;
	enum ir_protocol proto;

	if (!grundig_complete(d, ctx, &proto))
		return 0;
	if (d->state == STATE_BIT_START)
		return GRUNDIG_END_SPACE;
	/* After a final 1's pulse: its dark half, then the end. */
	if (d->state == STATE_BIT_END && (d->bits >> (d->count - 1) & 1))
		return GRUNDIG_UNIT + GRUNDIG_END_SPACE;
	return 0;
}

/* One frame: the pre-bit and `nbits` bits of `data`, LSB first. */
static int grundig_gen_frame(struct ir_edge_buf *out, unsigned nbits, uint32_t data)
{
	int ret = 0;

	ret |= ir_edge_buf_pulse(out, GRUNDIG_PRE_PULSE);
	ret |= ir_edge_buf_space(out, GRUNDIG_PRE_SPACE);
	if (ret)
		return -ENOMEM;
	return ir_gen_manchester(out, GRUNDIG_UNIT, true, nbits, ir_bitrev(data, nbits));
}

/* Info frame, gap, data frame (and for Nokia gap and stop frame). */
static int grundig_encode(enum ir_protocol p, uint64_t scancode, unsigned toggle,
			  struct ir_edge_buf *out)
{
	uint32_t info, data, gap = GRUNDIG_INFO_GAP;
	unsigned nbits;
	int ret;

	(void)toggle;
	switch (p) {
	case IR_PROTO_GRUNDIG:
		nbits = GRUNDIG_NBITS;
		info = GRUNDIG_INFO_COMMAND << 1 | 1;
		data = (uint32_t)(scancode & 0x1ff) << 1 | 1;
		break;
	case IR_PROTO_NOKIA:
		nbits = NOKIA_NBITS;
		info = NOKIA_INFO_ADDRESS << 9 | NOKIA_INFO_COMMAND << 1 | 1;
		data = (uint32_t)((scancode >> 16) & 0xff) << 9 | (uint32_t)(scancode & 0xff) << 1 | 1;
		break;
	case IR_PROTO_IR60:
		nbits = IR60_NBITS;
		gap = IR60_INFO_GAP;
		info = IR60_INFO_COMMAND;
		data = (uint32_t)(scancode & 0x7f);
		break;
	default:
		return -EINVAL;
	}
	ret = grundig_gen_frame(out, nbits, info);
	if (ret == 0)
		ret = ir_edge_buf_space(out, gap);
	if (ret == 0)
		ret = grundig_gen_frame(out, nbits, data);
	if (ret == 0 && p == IR_PROTO_NOKIA) {
		ret = ir_edge_buf_space(out, gap);
		if (ret == 0)
			ret = grundig_gen_frame(out, nbits, info);
	}
	return ret;
}

#define GRUNDIG_INFO(ID, NAME, MASK, CARRIER, SUMMARY)                                     \
	{                                                                                  \
		.id = ID, .name = NAME, .family = "grundig", .scancode_mask = MASK,        \
		.carrier_hz = CARRIER, .duty_cycle = 33, .unit_us = GRUNDIG_UNIT,          \
		.margin_us = GRUNDIG_MARGIN, .repeat_period_ms = 125,                      \
		.frame_period_us = GRUNDIG_FRAME_PERIOD,                                   \
		.min_trailing_space_us = GRUNDIG_TRAILER_SPACE, .has_toggle = false,       \
		.has_encoder = true, .summary = SUMMARY,                                   \
	}

static const struct ir_protocol_info grundig_infos[] = {
	GRUNDIG_INFO(IR_PROTO_GRUNDIG, "grundig", 0x1ff, 38000,
		     "Grundig, 9-bit command, Manchester after a pre-bit"),
	GRUNDIG_INFO(IR_PROTO_NOKIA, "nokia", 0xff00ff, 38000,
		     "Nokia, 8-bit address and command, Grundig timing"),
	/* IRMP sends IR60 at 30 kHz. */
	GRUNDIG_INFO(IR_PROTO_IR60, "ir60", 0x7f, 30000,
		     "IR60 (SDA2008), 7-bit command, Grundig timing"),
};

const struct ir_family ir_family_grundig = {
	.name = "grundig",
	.protocols = grundig_infos,
	.protocol_count = sizeof(grundig_infos) / sizeof(grundig_infos[0]),
	.state_size = sizeof(struct grundig_dec),
	.reset = grundig_reset,
	.decode = grundig_decode,
	.space_deadline = grundig_space_deadline,
	.encode = grundig_encode,
};
