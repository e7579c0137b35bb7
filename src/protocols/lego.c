/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lego.c - LEGO Power Functions: pulse-distance, 16 bits MSB first
 * (three data nibbles and a check nibble), 38 kHz.
 *
 *   frame: 158 pulse, 1026 space, 16 × (158 pulse, 263|553 space), 158 pulse
 *          (6, 39, 10 and 21 cycles of 38 kHz)
 *   check: the last nibble is 0xF ^ the three data nibbles
 *
 * Scancode: the 12 data bits (IRMP's command; its address is 0).  IRMP reads
 * the toggle, escape and channel bits of the first nibble as data too, and
 * so does this family: a LEGO receiver acts on every message.
 *
 * Six-cycle bursts are short for a demodulating receiver, which lengthens
 * them and shortens the spaces after them: every duration is read to
 * within LEGO_MARGIN, which keeps the two bit spaces apart (263 + 140 <
 * 553 - 140).  The frame is certain at its 18th pulse: the check nibble
 * must hold.
 */
#include "ir_family.h"

#define LEGO_UNIT 158                    /* 6 cycles of 38 kHz */
#define LEGO_START_PULSE LEGO_UNIT
#define LEGO_START_SPACE 1026            /* 39 cycles */
#define LEGO_BIT_PULSE LEGO_UNIT
#define LEGO_BIT_0_SPACE 263             /* 10 cycles */
#define LEGO_BIT_1_SPACE 553             /* 21 cycles */
#define LEGO_STOP_PULSE LEGO_UNIT
#define LEGO_GAP 40000                   /* IRMP: the next frame after 40 ms */
#define LEGO_NBITS 16
#define LEGO_MARGIN 140

enum lego_state {
	STATE_INACTIVE,
	STATE_START_SPACE,
	STATE_BIT_PULSE,
	STATE_BIT_SPACE,
	STATE_STOP_PULSE,
};

struct lego_dec {
	enum lego_state state;
	unsigned count;
	uint32_t bits; /* MSB first: the first bit ends up highest */
	uint64_t start_us;
};

static void lego_reset(void *state)
{
	struct lego_dec *d = state;

	d->state = STATE_INACTIVE;
}

/* The check nibble of 12 data bits. */
static uint32_t lego_check(uint32_t data)
{
	return 0xf ^ (data >> 8) ^ ((data >> 4) & 0xf) ^ (data & 0xf);
}

static void lego_decode(void *state, struct ir_decode_ctx *ctx, const struct ir_edge *e)
{
	struct lego_dec *d = state;
	bool pulse = e->kind == IR_PULSE;
	/* A timeout is the line gone idle: as long a space as there can be. */
	uint32_t dur = e->kind == IR_TIMEOUT ? UINT32_MAX : e->duration;

	switch (d->state) {
	case STATE_INACTIVE:
		if (!pulse || !ir_eq_margin(dur, LEGO_START_PULSE, LEGO_MARGIN))
			break;
		d->start_us = ir_decode_now(ctx);
		d->count = 0;
		d->bits = 0;
		d->state = STATE_START_SPACE;
		return;

	case STATE_START_SPACE:
		if (pulse || !ir_eq_margin(dur, LEGO_START_SPACE, LEGO_MARGIN))
			break;
		d->state = STATE_BIT_PULSE;
		return;

	case STATE_BIT_PULSE:
		if (!pulse || !ir_eq_margin(dur, LEGO_BIT_PULSE, LEGO_MARGIN))
			break;
		d->state = STATE_BIT_SPACE;
		return;

	case STATE_BIT_SPACE:
		if (pulse)
			break;
		if (ir_eq_margin(dur, LEGO_BIT_1_SPACE, LEGO_MARGIN))
			d->bits = d->bits << 1 | 1;
		else if (ir_eq_margin(dur, LEGO_BIT_0_SPACE, LEGO_MARGIN))
			d->bits <<= 1;
		else
			break;
		d->count++;
		d->state = d->count == LEGO_NBITS ? STATE_STOP_PULSE : STATE_BIT_PULSE;
		return;

	case STATE_STOP_PULSE:
		if (!pulse || !ir_eq_margin(dur, LEGO_STOP_PULSE, LEGO_MARGIN) ||
		    lego_check(d->bits >> 4) != (d->bits & 0xf))
			break;
		ir_decode_emit(ctx, IR_PROTO_LEGO, d->bits >> 4, 0, d->start_us);
		d->state = STATE_INACTIVE;
		return;
	}
	d->state = STATE_INACTIVE;
}

static int lego_encode(enum ir_protocol p, uint64_t scancode, unsigned toggle,
		       struct ir_edge_buf *out)
{
	static const struct ir_pd_timings t = {
		.header_pulse = LEGO_START_PULSE,
		.header_space = LEGO_START_SPACE,
		.bit_pulse = LEGO_BIT_PULSE,
		.bit_0_space = LEGO_BIT_0_SPACE,
		.bit_1_space = LEGO_BIT_1_SPACE,
		.trailer_pulse = LEGO_STOP_PULSE,
		.msb_first = true,
	};
	uint32_t data = scancode & 0xfff;

	(void)toggle;
	if (p != IR_PROTO_LEGO)
		return -EINVAL;
	return ir_gen_pulse_distance(out, &t, LEGO_NBITS, data << 4 | lego_check(data));
}

static const struct ir_protocol_info lego_infos[] = {
	{
		.id = IR_PROTO_LEGO, .name = "lego", .family = "lego", .scancode_mask = 0xfff,
		.carrier_hz = 38000, .duty_cycle = 33, .unit_us = LEGO_UNIT,
		.margin_us = LEGO_MARGIN, .repeat_period_ms = 125, .frame_period_us = 0,
		.min_trailing_space_us = LEGO_GAP, .has_toggle = false, .has_encoder = true,
		.summary = "LEGO Power Functions, 12 data bits and a check nibble",
	},
};

const struct ir_family ir_family_lego = {
	.name = "lego",
	.protocols = lego_infos,
	.protocol_count = sizeof(lego_infos) / sizeof(lego_infos[0]),
	.state_size = sizeof(struct lego_dec),
	.reset = lego_reset,
	.decode = lego_decode,
	.encode = lego_encode,
};
