/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mitsubishi.c - Mitsubishi (TVs and VCRs, the M50560 family): pulse-
 * distance without a header, 16 bits LSB first (8 device, 8 function),
 * 32.6 kHz.
 *
 *   frame:  16 × (300 pulse, 900|2100 space), 300 pulse   (units 1, 3|7)
 *   repeat: the whole frame, 24 ms of silence apart
 *
 * Figures from DecodeIR's IRP, {32.6k,300}<1,-3|1,-7>(D:8,F:8,1,-80)*.
 *
 * With no header, a frame is told from the middle of another by the
 * darkness before its first pulse (MITSUBISHI_GAP_BEFORE: no space inside
 * a frame of any protocol with pulses this short is that long).  It is
 * certain at its 17th pulse.
 *
 * Scancode: device << 16 | function (IRMP's address << 16 | command).
 */
#include "ir_family.h"

#define MITSUBISHI_UNIT 300
#define MITSUBISHI_BIT_PULSE MITSUBISHI_UNIT
#define MITSUBISHI_BIT_0_SPACE (3 * MITSUBISHI_UNIT)
#define MITSUBISHI_BIT_1_SPACE (7 * MITSUBISHI_UNIT)
#define MITSUBISHI_TRAILER_PULSE MITSUBISHI_UNIT
#define MITSUBISHI_GAP (80 * MITSUBISHI_UNIT) /* 24 ms of silence between frames */
#define MITSUBISHI_NBITS 16
#define MITSUBISHI_PULSE_MARGIN (MITSUBISHI_UNIT / 2)
/* The spaces are 4 units apart: a unit either way reads them. */
#define MITSUBISHI_SPACE_MARGIN MITSUBISHI_UNIT
/* Longer than any space inside a frame with pulses this short (Metz's
 * 2300 µs header space, Mitsubishi's own 2100 + 300), shorter than the
 * gap between Mitsubishi's frames. */
#define MITSUBISHI_GAP_BEFORE 10000

enum mitsubishi_state {
	STATE_INACTIVE,
	STATE_BIT_SPACE,
	STATE_BIT_PULSE,
	STATE_TRAILER_PULSE,
};

struct mitsubishi_dec {
	enum mitsubishi_state state;
	unsigned count;
	uint32_t bits; /* LSB first as received */
	uint64_t start_us;
};

static void mitsubishi_reset(void *state)
{
	struct mitsubishi_dec *d = state;

	d->state = STATE_INACTIVE;
}

static void mitsubishi_decode(void *state, struct ir_decode_ctx *ctx, const struct ir_edge *e)
{
	struct mitsubishi_dec *d = state;
	bool pulse = e->kind == IR_PULSE;
	/* A timeout is the line gone idle: as long a space as there can be. */
	uint32_t dur = e->kind == IR_TIMEOUT ? UINT32_MAX : e->duration;

	switch (d->state) {
	case STATE_INACTIVE:
		if (!pulse || !ir_eq_margin(dur, MITSUBISHI_BIT_PULSE, MITSUBISHI_PULSE_MARGIN) ||
		    !ir_geq_margin(ir_decode_space_before(ctx), MITSUBISHI_GAP_BEFORE, 0))
			break;
		d->start_us = ir_decode_now(ctx);
		d->count = 0;
		d->bits = 0;
		d->state = STATE_BIT_SPACE;
		return;

	case STATE_BIT_SPACE:
		if (pulse)
			break;
		if (ir_eq_margin(dur, MITSUBISHI_BIT_1_SPACE, MITSUBISHI_SPACE_MARGIN))
			d->bits |= UINT32_C(1) << d->count;
		else if (!ir_eq_margin(dur, MITSUBISHI_BIT_0_SPACE, MITSUBISHI_SPACE_MARGIN))
			break;
		d->count++;
		d->state = d->count == MITSUBISHI_NBITS ? STATE_TRAILER_PULSE : STATE_BIT_PULSE;
		return;

	case STATE_BIT_PULSE:
		if (!pulse || !ir_eq_margin(dur, MITSUBISHI_BIT_PULSE, MITSUBISHI_PULSE_MARGIN))
			break;
		d->state = STATE_BIT_SPACE;
		return;

	case STATE_TRAILER_PULSE:
		if (!pulse || !ir_eq_margin(dur, MITSUBISHI_TRAILER_PULSE, MITSUBISHI_PULSE_MARGIN))
			break;
		ir_decode_emit(ctx, IR_PROTO_MITSUBISHI,
			       (uint64_t)(d->bits & 0xff) << 16 | (d->bits >> 8), 0, d->start_us);
		d->state = STATE_INACTIVE;
		return;
	}
	d->state = STATE_INACTIVE;
}

static int mitsubishi_encode(enum ir_protocol p, uint64_t scancode, unsigned toggle,
			     struct ir_edge_buf *out)
{
	static const struct ir_pd_timings t = {
		.bit_pulse = MITSUBISHI_BIT_PULSE,
		.bit_0_space = MITSUBISHI_BIT_0_SPACE,
		.bit_1_space = MITSUBISHI_BIT_1_SPACE,
		.trailer_pulse = MITSUBISHI_TRAILER_PULSE,
		.msb_first = false,
	};

	(void)toggle;
	if (p != IR_PROTO_MITSUBISHI)
		return -EINVAL;
	return ir_gen_pulse_distance(out, &t, MITSUBISHI_NBITS,
				     ((scancode >> 16) & 0xff) | (scancode & 0xff) << 8);
}

static const struct ir_protocol_info mitsubishi_infos[] = {
	{
		.id = IR_PROTO_MITSUBISHI, .name = "mitsubishi", .family = "mitsubishi",
		.scancode_mask = 0xff00ff, .carrier_hz = 32600, .duty_cycle = 33,
		.unit_us = MITSUBISHI_UNIT, .margin_us = MITSUBISHI_PULSE_MARGIN,
		.repeat_period_ms = 125, .frame_period_us = 0,
		.min_trailing_space_us = MITSUBISHI_GAP, .has_toggle = false,
		.has_encoder = true,
		.summary = "Mitsubishi, 8-bit device and function, no header, 32.6 kHz",
	},
};

const struct ir_family ir_family_mitsubishi = {
	.name = "mitsubishi",
	.protocols = mitsubishi_infos,
	.protocol_count = sizeof(mitsubishi_infos) / sizeof(mitsubishi_infos[0]),
	.state_size = sizeof(struct mitsubishi_dec),
	.reset = mitsubishi_reset,
	.decode = mitsubishi_decode,
	.encode = mitsubishi_encode,
};
