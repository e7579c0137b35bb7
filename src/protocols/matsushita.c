/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * matsushita.c - Matsushita (Panasonic's older format) and Technics:
 * pulse-distance, LSB first, 36 kHz, then a stop pulse.
 *
 *   header:     3488 pulse, 3488 space
 *   bit:        872 pulse, 872 (0) or 2616 (1) space
 *   matsushita: 12 command bits, 12 address bits, stop pulse
 *   technics:   11 command bits, the same 11 bits inverted, stop pulse
 *
 * A Matsushita frame is certain at its stop pulse.  A Technics frame's
 * stop pulse looks like the 23rd bit's pulse of a Matsushita frame: only
 * the silence after it tells.
 *
 * Scancodes are IRMP's address << 16 | command: matsushita address << 16 |
 * command (12 bits each), technics the 11-bit command.
 */
#include "ir_family.h"

#define MATSUSHITA_UNIT 872
#define MATSUSHITA_HEADER_PULSE (4 * MATSUSHITA_UNIT)
#define MATSUSHITA_HEADER_SPACE (4 * MATSUSHITA_UNIT)
#define MATSUSHITA_BIT_PULSE MATSUSHITA_UNIT
#define MATSUSHITA_BIT_0_SPACE MATSUSHITA_UNIT
#define MATSUSHITA_BIT_1_SPACE (3 * MATSUSHITA_UNIT)
#define MATSUSHITA_BIT_0_PERIOD (MATSUSHITA_BIT_PULSE + MATSUSHITA_BIT_0_SPACE)
#define MATSUSHITA_BIT_1_PERIOD (MATSUSHITA_BIT_PULSE + MATSUSHITA_BIT_1_SPACE)
#define MATSUSHITA_NBITS 24
#define TECHNICS_NBITS 22
#define TECHNICS_COMMAND_BITS 11
/* Receivers lengthen pulses and shorten spaces by about as much, so a bit
 * is read from pulse plus space (1744 or 3488, ±400); the header and the
 * pulses have room for a receiver's AGC on the first burst. */
#define MATSUSHITA_PERIOD_MARGIN 400
#define MATSUSHITA_PULSE_MARGIN 350
#define MATSUSHITA_HEADER_MARGIN 700
/* What the info declares: each edge of a bit may be off by half the
 * period tolerance when both err the same way. */
#define MATSUSHITA_MARGIN (MATSUSHITA_PERIOD_MARGIN / 2)
/* Inside a frame pulse and space add up to at most a 1's period, 3888 µs:
 * after the 23rd pulse, more darkness than that leaves ends a Technics
 * frame (2667-3367 µs, depending on the pulse). */
#define MATSUSHITA_PERIOD_MAX (MATSUSHITA_BIT_1_PERIOD + MATSUSHITA_PERIOD_MARGIN)
#define MATSUSHITA_REPEAT_SPACE 40000   /* IRMP's pause between repeated frames */

enum matsushita_state {
	STATE_INACTIVE,
	STATE_HEADER_SPACE,
	STATE_BIT_PULSE,
	STATE_BIT_SPACE,
};

/* The states' names, for `irjack decode -v` (ir_decode_why_state()). */
static const char *const matsushita_states[] = {
	"idle", "header space", "bit pulse", "bit space",
};

struct matsushita_dec {
	enum matsushita_state state;
	unsigned count;
	uint32_t bits;        /* LSB first as received */
	uint32_t pulse_len;   /* the pulse before the space being decoded */
	uint64_t start_us;
};

static void matsushita_reset(void *state)
{
	struct matsushita_dec *d = state;

	d->state = STATE_INACTIVE;
}

/* 22 bits whose last 11 invert the first 11, Technics enabled: the
 * silence after the next pulse would complete a Technics frame. */
static bool technics_complete(const struct matsushita_dec *d, const struct ir_decode_ctx *ctx)
{
	uint32_t command = d->bits & 0x7ff;

	return d->count == TECHNICS_NBITS && d->bits >> TECHNICS_COMMAND_BITS == (~command & 0x7ff) &&
	       ir_decode_enabled(ctx, IR_PROTO_TECHNICS);
}

static uint32_t technics_end_space(const struct matsushita_dec *d)
{
	return MATSUSHITA_PERIOD_MAX + 1 - d->pulse_len;
}

static void matsushita_decode(void *state, struct ir_decode_ctx *ctx, const struct ir_edge *e)
{
	struct matsushita_dec *d = state;
	bool pulse = e->kind == IR_PULSE;
	uint32_t dur = e->duration;
	uint32_t period;

	switch (d->state) {
	case STATE_INACTIVE:
		if (!pulse || !ir_eq_margin(dur, MATSUSHITA_HEADER_PULSE, MATSUSHITA_HEADER_MARGIN))
			break;
		d->start_us = ir_decode_now(ctx);
		d->count = 0;
		d->bits = 0;
		d->state = STATE_HEADER_SPACE;
		return;

	case STATE_HEADER_SPACE:
		if (pulse || !ir_eq_margin(dur, MATSUSHITA_HEADER_SPACE, MATSUSHITA_HEADER_MARGIN))
			break;
		d->state = STATE_BIT_PULSE;
		return;

	case STATE_BIT_PULSE:
		if (!pulse || !ir_eq_margin(dur, MATSUSHITA_BIT_PULSE, MATSUSHITA_PULSE_MARGIN))
			break;
		if (d->count == MATSUSHITA_NBITS) {
			/* The stop pulse. */
			ir_decode_emit(ctx, IR_PROTO_MATSUSHITA,
				       (uint64_t)(d->bits >> 12) << 16 | (d->bits & 0xfff), 0,
				       d->start_us);
			d->state = STATE_INACTIVE;
			return;
		}
		d->pulse_len = dur;
		d->state = STATE_BIT_SPACE;
		return;

	case STATE_BIT_SPACE:
		if (pulse)
			break;
		if (dur >= technics_end_space(d) && technics_complete(d, ctx)) {
			ir_decode_emit(ctx, IR_PROTO_TECHNICS, d->bits & 0x7ff, 0, d->start_us);
			d->state = STATE_INACTIVE;
			return;
		}
		period = dur > UINT32_MAX - d->pulse_len ? UINT32_MAX : d->pulse_len + dur;
		if (ir_eq_margin(period, MATSUSHITA_BIT_1_PERIOD, MATSUSHITA_PERIOD_MARGIN))
			d->bits |= UINT32_C(1) << d->count;
		else if (!ir_eq_margin(period, MATSUSHITA_BIT_0_PERIOD, MATSUSHITA_PERIOD_MARGIN))
			break;
		d->count++;
		d->state = STATE_BIT_PULSE;
		return;
	}
	ir_decode_why_state(ctx, "matsushita", matsushita_states, d->state,
			    d->count, e->kind == IR_PULSE, dur);
	d->state = STATE_INACTIVE;
}

static uint32_t matsushita_space_deadline(const void *state, const struct ir_decode_ctx *ctx)
{
	const struct matsushita_dec *d = state;

	return d->state == STATE_BIT_SPACE && technics_complete(d, ctx) ? technics_end_space(d) : 0;
}

static int matsushita_encode(enum ir_protocol p, uint64_t scancode, unsigned toggle,
			     struct ir_edge_buf *out)
{
	static const struct ir_pd_timings t = {
		.header_pulse = MATSUSHITA_HEADER_PULSE,
		.header_space = MATSUSHITA_HEADER_SPACE,
		.bit_pulse = MATSUSHITA_BIT_PULSE,
		.bit_0_space = MATSUSHITA_BIT_0_SPACE,
		.bit_1_space = MATSUSHITA_BIT_1_SPACE,
		.trailer_pulse = MATSUSHITA_BIT_PULSE,
		.msb_first = false,
	};
	uint32_t command;

	(void)toggle;
	switch (p) {
	case IR_PROTO_MATSUSHITA:
		return ir_gen_pulse_distance(out, &t, MATSUSHITA_NBITS,
					     (scancode >> 16 & 0xfff) << 12 | (scancode & 0xfff));
	case IR_PROTO_TECHNICS:
		command = scancode & 0x7ff;
		return ir_gen_pulse_distance(out, &t, TECHNICS_NBITS,
					     (~command & 0x7ff) << TECHNICS_COMMAND_BITS | command);
	default:
		return -EINVAL;
	}
}

#define MATSUSHITA_INFO(ID, NAME, MASK, SUMMARY)                                           \
	{                                                                                  \
		.id = ID, .name = NAME, .family = "matsushita", .scancode_mask = MASK,     \
		.carrier_hz = 36000, .duty_cycle = 33, .unit_us = MATSUSHITA_UNIT,         \
		.margin_us = MATSUSHITA_MARGIN, .repeat_period_ms = 125,                   \
		.frame_period_us = 0, .min_trailing_space_us = MATSUSHITA_REPEAT_SPACE,    \
		.has_toggle = false, .has_encoder = true, .summary = SUMMARY,              \
	}

static const struct ir_protocol_info matsushita_infos[] = {
	MATSUSHITA_INFO(IR_PROTO_MATSUSHITA, "matsushita", 0xfff0fff,
			"Matsushita, 12-bit address and command"),
	MATSUSHITA_INFO(IR_PROTO_TECHNICS, "technics", 0x7ff,
			"Technics, 11-bit command sent with its inverse, Matsushita timing"),
};

const struct ir_family ir_family_matsushita = {
	.name = "matsushita",
	.protocols = matsushita_infos,
	.protocol_count = sizeof(matsushita_infos) / sizeof(matsushita_infos[0]),
	.state_size = sizeof(struct matsushita_dec),
	.reset = matsushita_reset,
	.decode = matsushita_decode,
	.space_deadline = matsushita_space_deadline,
	.encode = matsushita_encode,
};
