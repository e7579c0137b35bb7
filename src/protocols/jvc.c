/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jvc.c - JVC: pulse-distance, 16 bits (8 address, 8 command, each LSB
 * first), 38 kHz.
 *
 *   frame:  8400 pulse, 4200 space, 16 × (525 pulse, 525|1575 space), 525 pulse
 *   repeat: the same without the header, while the key is held, ~46 ms
 *           start to start
 *
 * As in rc-core, a header-less repeat stands for the frame before it: it is
 * reported as a repeat (IR_FRAME_REPEAT) when its bits are that frame's, and
 * dropped otherwise.  rc-core also flips a toggle on every frame with a
 * header, so that two presses of one key are two presses even when they
 * follow each other within the key-up time; so does this decoder.
 *
 * Scancodes follow rc-core: address<<8 | command.
 */
#include "ir_family.h"

#define JVC_UNIT 525                     /* 20 cycles of 38 kHz */
#define JVC_HEADER_PULSE (16 * JVC_UNIT)
#define JVC_HEADER_SPACE (8 * JVC_UNIT)
#define JVC_BIT_PULSE JVC_UNIT
#define JVC_BIT_0_SPACE JVC_UNIT
#define JVC_BIT_1_SPACE (3 * JVC_UNIT)
#define JVC_TRAILER_PULSE JVC_UNIT
/* rc-core's silence before a header-less repeat (and its minimum gap);
 * IRMP's recordings have 19.3-25.9 ms. */
#define JVC_REPEAT_SPACE (35 * JVC_UNIT)
/* Start to start of repeats in IRMP's recordings: 45.6-46.8 ms. */
#define JVC_FRAME_PERIOD 46000
#define JVC_NBITS 16
#define JVC_MARGIN (JVC_UNIT / 2)
/*
 * A frame is only certain once the space after its trailer pulse is longer
 * than any bit space (1575 + 262 = 1837 µs): NEC headers are measured as
 * short as 8600/4400 (IRMP's nec-repetition.txt), inside JVC's 8400/4200
 * tolerance, and the 17th pulse of such a NEC frame passes for JVC's
 * trailer.  rc-core waits for the whole 18 ms repeat space.
 */
#define JVC_END_SPACE (4 * JVC_UNIT)

enum jvc_state {
	STATE_INACTIVE,
	STATE_HEADER_SPACE,
	STATE_BIT_PULSE,
	STATE_BIT_SPACE,
	STATE_TRAILER_PULSE,
	STATE_TRAILER_SPACE,
	STATE_REPEAT_PULSE, /* a header-less repeat's first pulse, or a new header */
};

/* The states' names, for `irjack decode -v` (ir_decode_why_state()). */
static const char *const jvc_states[] = {
	"idle", "header space", "bit pulse", "bit space", "trailer pulse", "trailer space", "repeat pulse",
};

struct jvc_dec {
	enum jvc_state state;
	unsigned count;
	uint32_t bits;       /* LSB first as received */
	uint32_t frame_bits; /* of the last frame with a header: its repeats match */
	bool is_repeat;
	bool toggle;         /* flips with every frame that has a header */
	uint64_t start_us;
	uint64_t trailer_end_us;
};

static const struct ir_protocol_set jvc_protocols = {
	.bits = { UINT64_C(1) << IR_PROTO_JVC },
};

static void jvc_reset(void *state)
{
	struct jvc_dec *d = state;

	d->state = STATE_INACTIVE;
}

/* rc-core's scancode layout from the 16 bits as received. */
static uint64_t jvc_scancode(uint32_t bits)
{
	return (uint64_t)(bits & 0xff) << 8 | ((bits >> 8) & 0xff);
}

/* Starts a frame (is_repeat false: on its header pulse) or a header-less
 * repeat (on its first bit pulse). */
static void jvc_start(struct jvc_dec *d, const struct ir_decode_ctx *ctx, bool is_repeat)
{
	d->start_us = ir_decode_now(ctx);
	d->count = 0;
	d->bits = 0;
	d->is_repeat = is_repeat;
	d->state = is_repeat ? STATE_BIT_SPACE : STATE_HEADER_SPACE;
}

static void jvc_decode(void *state, struct ir_decode_ctx *ctx, const struct ir_edge *e)
{
	struct jvc_dec *d = state;
	bool pulse = e->kind == IR_PULSE;
	uint32_t dur = e->duration;
	uint64_t gap;

	switch (d->state) {
	case STATE_INACTIVE:
		if (!pulse || !ir_eq_margin(dur, JVC_HEADER_PULSE, JVC_MARGIN))
			break;
		jvc_start(d, ctx, false);
		return;

	case STATE_HEADER_SPACE:
		if (pulse || !ir_eq_margin(dur, JVC_HEADER_SPACE, JVC_MARGIN))
			break;
		d->state = STATE_BIT_PULSE;
		return;

	case STATE_BIT_PULSE:
		if (!pulse || !ir_eq_margin(dur, JVC_BIT_PULSE, JVC_MARGIN))
			break;
		d->state = STATE_BIT_SPACE;
		return;

	case STATE_BIT_SPACE:
		if (pulse)
			break;
		if (ir_eq_margin(dur, JVC_BIT_1_SPACE, JVC_MARGIN))
			d->bits |= UINT32_C(1) << d->count;
		else if (!ir_eq_margin(dur, JVC_BIT_0_SPACE, JVC_MARGIN))
			break;
		d->count++;
		d->state = d->count == JVC_NBITS ? STATE_TRAILER_PULSE : STATE_BIT_PULSE;
		return;

	case STATE_TRAILER_PULSE:
		if (!pulse || !ir_eq_margin(dur, JVC_TRAILER_PULSE, JVC_MARGIN))
			break;
		d->state = STATE_TRAILER_SPACE;
		return;

	case STATE_TRAILER_SPACE:
		if (pulse || dur < JVC_END_SPACE)
			break;
		if (d->is_repeat) {
			if (d->bits != d->frame_bits)
				break;
			ir_decode_emit_repeat(ctx, &jvc_protocols, d->start_us);
		} else {
			d->toggle = !d->toggle;
			d->frame_bits = d->bits;
			ir_decode_emit(ctx, IR_PROTO_JVC, jvc_scancode(d->bits), d->toggle,
				       d->start_us);
		}
		/* The core may have handed this space over early: time the
		 * gap to the next pulse from here. */
		d->trailer_end_us = ir_decode_now(ctx);
		d->state = STATE_REPEAT_PULSE;
		return;

	case STATE_REPEAT_PULSE:
		if (!pulse)
			break;
		if (ir_eq_margin(dur, JVC_HEADER_PULSE, JVC_MARGIN)) {
			jvc_start(d, ctx, false);
			return;
		}
		gap = ir_decode_now(ctx) - d->trailer_end_us;
		if (gap > UINT32_MAX)
			gap = UINT32_MAX;
		if (!ir_eq_margin(dur, JVC_BIT_PULSE, JVC_MARGIN) ||
		    !ir_geq_margin((uint32_t)gap, JVC_REPEAT_SPACE, JVC_MARGIN))
			break;
		jvc_start(d, ctx, true);
		return;
	}
	ir_decode_why_state(ctx, "jvc", jvc_states, d->state, d->count, e->kind == IR_PULSE, dur);
	d->state = STATE_INACTIVE;
}

static uint32_t jvc_space_deadline(const void *state, const struct ir_decode_ctx *ctx)
{
	const struct jvc_dec *d = state;

	(void)ctx;
	return d->state == STATE_TRAILER_SPACE ? JVC_END_SPACE : 0;
}

static const struct ir_pd_timings jvc_timings = {
	.header_pulse = JVC_HEADER_PULSE,
	.header_space = JVC_HEADER_SPACE,
	.bit_pulse = JVC_BIT_PULSE,
	.bit_0_space = JVC_BIT_0_SPACE,
	.bit_1_space = JVC_BIT_1_SPACE,
	.trailer_pulse = JVC_TRAILER_PULSE,
	.msb_first = false,
};

/* The 16 bits in the order they are sent, from an rc-core scancode. */
static uint64_t jvc_raw(uint64_t scancode)
{
	return ((scancode >> 8) & 0xff) | (scancode & 0xff) << 8;
}

static int jvc_encode(enum ir_protocol p, uint64_t scancode, unsigned toggle,
		      struct ir_edge_buf *out)
{
	(void)toggle;
	if (p != IR_PROTO_JVC)
		return -EINVAL;
	return ir_gen_pulse_distance(out, &jvc_timings, JVC_NBITS, jvc_raw(scancode));
}

static int jvc_encode_repeat(enum ir_protocol p, uint64_t scancode, struct ir_edge_buf *out)
{
	struct ir_pd_timings t = jvc_timings;

	if (p != IR_PROTO_JVC)
		return -EINVAL;
	t.header_pulse = 0;
	t.header_space = 0;
	return ir_gen_pulse_distance(out, &t, JVC_NBITS, jvc_raw(scancode));
}

static const struct ir_protocol_info jvc_infos[] = {
	{
		.id = IR_PROTO_JVC, .name = "jvc", .family = "jvc", .scancode_mask = 0xffff,
		.carrier_hz = 38000, .duty_cycle = 33, .unit_us = JVC_UNIT,
		.margin_us = JVC_MARGIN, .repeat_period_ms = 125,
		.frame_period_us = JVC_FRAME_PERIOD, .min_trailing_space_us = JVC_REPEAT_SPACE,
		.has_toggle = false, .has_encoder = true,
		.summary = "JVC, 8-bit address and command, header-less repeats",
	},
};

const struct ir_family ir_family_jvc = {
	.name = "jvc",
	.protocols = jvc_infos,
	.protocol_count = sizeof(jvc_infos) / sizeof(jvc_infos[0]),
	.state_size = sizeof(struct jvc_dec),
	.reset = jvc_reset,
	.decode = jvc_decode,
	.space_deadline = jvc_space_deadline,
	.encode = jvc_encode,
	.encode_repeat = jvc_encode_repeat,
};
