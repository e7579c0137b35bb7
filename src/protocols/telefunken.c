/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * telefunken.c - Telefunken (IRMP 34, e.g. the 1560 TV remotes): pulse-
 * distance, a start bit and 15 bits MSB first, 38 kHz.
 *
 *   frame: 600 pulse, 1500 space (start), 15 × (600 pulse, 600|1500 space),
 *          600 pulse
 *
 * Figures as IRMP has them.  Scancode: the 15 bits (IRMP's command; its
 * address is 0).  The frame is certain at its 17th pulse.
 *
 * The start bit is a 1 bit, so a Telefunken frame is, to within JVC's
 * tolerance, a header-less JVC repeat whose first bit is 1: 17 pulses of
 * ~550 µs with 550|1650 spaces.  JVC sends those 12-29 ms after the frame
 * before (IRMP's JVC recordings: 19-26 ms); a Telefunken frame is taken
 * only after TELEFUNKEN_GAP_BEFORE of darkness, which is longer, and is
 * sent that far apart.  IRMP guesses 22 ms between a Telefunken remote's
 * repeated frames; if a remote keeps to that, only the first frame of a
 * held key decodes.
 */
#include "ir_family.h"

#define TELEFUNKEN_UNIT 600
#define TELEFUNKEN_START_PULSE TELEFUNKEN_UNIT
#define TELEFUNKEN_START_SPACE 1500
#define TELEFUNKEN_BIT_PULSE TELEFUNKEN_UNIT
#define TELEFUNKEN_BIT_0_SPACE TELEFUNKEN_UNIT
#define TELEFUNKEN_BIT_1_SPACE 1500
#define TELEFUNKEN_STOP_PULSE TELEFUNKEN_UNIT
#define TELEFUNKEN_NBITS 15
#define TELEFUNKEN_MARGIN (TELEFUNKEN_UNIT / 2)
/* Longer than the space before a JVC repeat (29 ms at most). */
#define TELEFUNKEN_GAP_BEFORE 32000
#define TELEFUNKEN_GAP 40000             /* sent between frames */

enum telefunken_state {
	STATE_INACTIVE,
	STATE_START_SPACE,
	STATE_BIT_PULSE,
	STATE_BIT_SPACE,
	STATE_STOP_PULSE,
};

struct telefunken_dec {
	enum telefunken_state state;
	unsigned count;
	uint32_t bits; /* MSB first: the first bit ends up highest */
	uint64_t start_us;
};

static void telefunken_reset(void *state)
{
	struct telefunken_dec *d = state;

	d->state = STATE_INACTIVE;
}

static void telefunken_decode(void *state, struct ir_decode_ctx *ctx, const struct ir_edge *e)
{
	struct telefunken_dec *d = state;
	bool pulse = e->kind == IR_PULSE;
	/* A timeout is the line gone idle: as long a space as there can be. */
	uint32_t dur = e->kind == IR_TIMEOUT ? UINT32_MAX : e->duration;

	switch (d->state) {
	case STATE_INACTIVE:
		if (!pulse || !ir_eq_margin(dur, TELEFUNKEN_START_PULSE, TELEFUNKEN_MARGIN) ||
		    !ir_geq_margin(ir_decode_space_before(ctx), TELEFUNKEN_GAP_BEFORE, 0))
			break;
		d->start_us = ir_decode_now(ctx);
		d->count = 0;
		d->bits = 0;
		d->state = STATE_START_SPACE;
		return;

	case STATE_START_SPACE:
		if (pulse || !ir_eq_margin(dur, TELEFUNKEN_START_SPACE, TELEFUNKEN_MARGIN))
			break;
		d->state = STATE_BIT_PULSE;
		return;

	case STATE_BIT_PULSE:
		if (!pulse || !ir_eq_margin(dur, TELEFUNKEN_BIT_PULSE, TELEFUNKEN_MARGIN))
			break;
		d->state = STATE_BIT_SPACE;
		return;

	case STATE_BIT_SPACE:
		if (pulse)
			break;
		if (ir_eq_margin(dur, TELEFUNKEN_BIT_1_SPACE, TELEFUNKEN_MARGIN))
			d->bits = d->bits << 1 | 1;
		else if (ir_eq_margin(dur, TELEFUNKEN_BIT_0_SPACE, TELEFUNKEN_MARGIN))
			d->bits <<= 1;
		else
			break;
		d->count++;
		d->state = d->count == TELEFUNKEN_NBITS ? STATE_STOP_PULSE : STATE_BIT_PULSE;
		return;

	case STATE_STOP_PULSE:
		if (!pulse || !ir_eq_margin(dur, TELEFUNKEN_STOP_PULSE, TELEFUNKEN_MARGIN))
			break;
		ir_decode_emit(ctx, IR_PROTO_TELEFUNKEN, d->bits, 0, d->start_us);
		d->state = STATE_INACTIVE;
		return;
	}
	d->state = STATE_INACTIVE;
}

static int telefunken_encode(enum ir_protocol p, uint64_t scancode, unsigned toggle,
			     struct ir_edge_buf *out)
{
	static const struct ir_pd_timings t = {
		.header_pulse = TELEFUNKEN_START_PULSE,
		.header_space = TELEFUNKEN_START_SPACE,
		.bit_pulse = TELEFUNKEN_BIT_PULSE,
		.bit_0_space = TELEFUNKEN_BIT_0_SPACE,
		.bit_1_space = TELEFUNKEN_BIT_1_SPACE,
		.trailer_pulse = TELEFUNKEN_STOP_PULSE,
		.msb_first = true,
	};

	(void)toggle;
	if (p != IR_PROTO_TELEFUNKEN)
		return -EINVAL;
	return ir_gen_pulse_distance(out, &t, TELEFUNKEN_NBITS, scancode & 0x7fff);
}

static const struct ir_protocol_info telefunken_infos[] = {
	{
		.id = IR_PROTO_TELEFUNKEN, .name = "telefunken", .family = "telefunken",
		.scancode_mask = 0x7fff, .carrier_hz = 38000, .duty_cycle = 33,
		.unit_us = TELEFUNKEN_UNIT, .margin_us = TELEFUNKEN_MARGIN,
		.repeat_period_ms = 125, .frame_period_us = 0,
		.min_trailing_space_us = TELEFUNKEN_GAP, .has_toggle = false,
		.has_encoder = true,
		.summary = "Telefunken, a start bit and a 15-bit command",
	},
};

const struct ir_family ir_family_telefunken = {
	.name = "telefunken",
	.protocols = telefunken_infos,
	.protocol_count = sizeof(telefunken_infos) / sizeof(telefunken_infos[0]),
	.state_size = sizeof(struct telefunken_dec),
	.reset = telefunken_reset,
	.decode = telefunken_decode,
	.encode = telefunken_encode,
};
