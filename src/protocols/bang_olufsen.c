/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bang_olufsen.c - Bang & Olufsen (Beo4 and older): short pulses on a
 * 455 kHz carrier, the spaces on a grid of 3125 µs, MSB first.
 *
 *   four start bits: 200 pulse and 3125, 3125, 15625, 3125 space
 *   16 data bits:    200 pulse and 3125 (a 0 after a 1), 9375 (a 1 after
 *                    a 0) or 6250 space (the same as the bit before; the
 *                    bit before the first is taken as 0)
 *   trailer:         200 pulse, 12500 space, 200 stop pulse
 *
 * The frame is certain at its stop pulse.
 *
 * 455 kHz is far above what a 36-40 kHz receiver module passes: this
 * decoder reads the timings a B&O receiver (e.g. a TSOP7000) outputs.  The
 * encoder produces exact timings with carrier_hz 455000 in the info; a
 * transmitter that cannot make that carrier (a sound card, which stops at
 * half its sample rate) cannot send these frames, and should say so rather
 * than send them on a carrier B&O equipment ignores.
 *
 * Scancodes are IRMP's address << 16 | command: the 16 data bits.
 */
#include "ir_family.h"

#define BO_SLOT 3125
#define BO_PULSE 200
#define BO_START_SPACE BO_SLOT
#define BO_START_3_SPACE (5 * BO_SLOT)
#define BO_0_SPACE BO_SLOT              /* a change to 0 */
#define BO_SAME_SPACE (2 * BO_SLOT)     /* the bit before again */
#define BO_1_SPACE (3 * BO_SLOT)        /* a change to 1 */
#define BO_TRAILER_SPACE (4 * BO_SLOT)
#define BO_NBITS 16
#define BO_START_BITS 4
/* A 200 µs burst is stretched by receivers and the space after it
 * shortened by as much: a bit is read from pulse plus space, ±700 µs on a
 * 3125 µs grid.  The pulse itself must be a short one. */
#define BO_PULSE_MARGIN 150
#define BO_PERIOD_MARGIN 700
#define BO_REPEAT_SPACE 45000           /* IRMP's pause between repeated frames */

enum bo_state {
	STATE_INACTIVE,
	STATE_START_SPACE,
	STATE_START_PULSE,
	STATE_BIT_SPACE,
	STATE_BIT_PULSE,
	STATE_TRAILER_SPACE,
	STATE_STOP_PULSE,
};

/* The states' names, for `irjack decode -v` (ir_decode_why_state()). */
static const char *const bo_states[] = {
	"idle", "start space", "start pulse", "bit space", "bit pulse", "trailer space", "stop pulse",
};

struct bo_dec {
	enum bo_state state;
	unsigned count;       /* start bits, then data bits */
	uint32_t bits;        /* MSB first as received */
	uint32_t pulse_len;   /* the pulse before the space being decoded */
	uint64_t start_us;
};

static void bo_reset(void *state)
{
	struct bo_dec *d = state;

	d->state = STATE_INACTIVE;
}

static bool bo_is_pulse(const struct ir_edge *e)
{
	return e->kind == IR_PULSE && ir_eq_margin(e->duration, BO_PULSE, BO_PULSE_MARGIN);
}

/* The space completes a bit of pulse plus `space`. */
static bool bo_period_is(const struct bo_dec *d, const struct ir_edge *e, uint32_t space)
{
	return e->kind == IR_SPACE &&
	       ir_eq_margin(d->pulse_len + e->duration, BO_PULSE + space, BO_PERIOD_MARGIN);
}

static void bo_decode(void *state, struct ir_decode_ctx *ctx, const struct ir_edge *e)
{
	struct bo_dec *d = state;
	uint32_t last;

	switch (d->state) {
	case STATE_INACTIVE:
		if (!bo_is_pulse(e))
			break;
		d->start_us = ir_decode_now(ctx);
		d->count = 0;
		d->bits = 0;
		d->pulse_len = e->duration;
		d->state = STATE_START_SPACE;
		return;

	case STATE_START_SPACE:
		if (!bo_period_is(d, e, d->count == 2 ? BO_START_3_SPACE : BO_START_SPACE))
			break;
		d->count++;
		d->state = STATE_START_PULSE;
		return;

	case STATE_START_PULSE:
	case STATE_BIT_PULSE:
		if (!bo_is_pulse(e))
			break;
		d->pulse_len = e->duration;
		if (d->state == STATE_START_PULSE && d->count < BO_START_BITS) {
			d->state = STATE_START_SPACE;
			return;
		}
		if (d->state == STATE_START_PULSE)
			d->count = 0;
		d->state = d->count == BO_NBITS ? STATE_TRAILER_SPACE : STATE_BIT_SPACE;
		return;

	case STATE_BIT_SPACE:
		last = d->bits & 1; /* 0 before the first bit */
		if (bo_period_is(d, e, BO_SAME_SPACE))
			d->bits = d->bits << 1 | last;
		else if (!last && bo_period_is(d, e, BO_1_SPACE))
			d->bits = d->bits << 1 | 1;
		else if (last && bo_period_is(d, e, BO_0_SPACE))
			d->bits <<= 1;
		else
			break;
		d->count++;
		d->state = STATE_BIT_PULSE;
		return;

	case STATE_TRAILER_SPACE:
		if (!bo_period_is(d, e, BO_TRAILER_SPACE))
			break;
		d->state = STATE_STOP_PULSE;
		return;

	case STATE_STOP_PULSE:
		if (!bo_is_pulse(e))
			break;
		ir_decode_emit(ctx, IR_PROTO_BANG_OLUFSEN, d->bits, 0, d->start_us);
		d->state = STATE_INACTIVE;
		return;
	}
	ir_decode_why_state(ctx, "bang_olufsen", bo_states, d->state,
			    d->count, e->kind == IR_PULSE, e->duration);
	d->state = STATE_INACTIVE;
}

static int bo_encode(enum ir_protocol p, uint64_t scancode, unsigned toggle,
		     struct ir_edge_buf *out)
{
	static const uint32_t start_spaces[BO_START_BITS] = {
		BO_START_SPACE, BO_START_SPACE, BO_START_3_SPACE, BO_START_SPACE,
	};
	unsigned last = 0;
	int ret = 0;

	(void)toggle;
	if (p != IR_PROTO_BANG_OLUFSEN)
		return -EINVAL;
	for (unsigned i = 0; i < BO_START_BITS; i++) {
		ret |= ir_edge_buf_pulse(out, BO_PULSE);
		ret |= ir_edge_buf_space(out, start_spaces[i]);
	}
	for (unsigned i = 0; i < BO_NBITS; i++) {
		unsigned bit = (scancode >> (BO_NBITS - 1 - i)) & 1;

		ret |= ir_edge_buf_pulse(out, BO_PULSE);
		ret |= ir_edge_buf_space(out, bit == last ? BO_SAME_SPACE : bit ? BO_1_SPACE : BO_0_SPACE);
		last = bit;
	}
	ret |= ir_edge_buf_pulse(out, BO_PULSE);
	ret |= ir_edge_buf_space(out, BO_TRAILER_SPACE);
	ret |= ir_edge_buf_pulse(out, BO_PULSE);
	return ret ? -ENOMEM : 0;
}

static const struct ir_protocol_info bo_infos[] = {
	{
		.id = IR_PROTO_BANG_OLUFSEN, .name = "bang_olufsen", .family = "bang_olufsen",
		.scancode_mask = 0xffff, .carrier_hz = 455000, .duty_cycle = 33,
		.unit_us = BO_PULSE, .margin_us = BO_PULSE_MARGIN, .repeat_period_ms = 125,
		.frame_period_us = 0, .min_trailing_space_us = BO_REPEAT_SPACE,
		.has_toggle = false, .has_encoder = true,
		.summary = "Bang & Olufsen, 16 bits on a 455 kHz carrier",
	},
};

const struct ir_family ir_family_bang_olufsen = {
	.name = "bang_olufsen",
	.protocols = bo_infos,
	.protocol_count = sizeof(bo_infos) / sizeof(bo_infos[0]),
	.state_size = sizeof(struct bo_dec),
	.reset = bo_reset,
	.decode = bo_decode,
	.encode = bo_encode,
};
