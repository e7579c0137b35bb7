/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * metz.c - Metz (TVs; IRMP 55, DecodeIR's Metz19): pulse-distance, 19 bits
 * MSB first, 38 kHz: toggle, 3-bit address and its complement, 6-bit
 * command and its complement.
 *
 *   frame: 870 pulse, 2300 space, 19 × (435 pulse, 960|1680 space), 435 pulse
 *   repeat: the whole frame, every 125 ms; the toggle flips per key press
 *
 * Figures as IRMP has them (DecodeIR: 106 µs units, 848/2332, 424,
 * 954/1696).  Scancode: address << 16 | command, IRMP's layout; the toggle
 * is reported as the frame's toggle.  The frame is certain at its last
 * pulse: both complements must hold.
 */
#include "ir_family.h"

#define METZ_UNIT 435
#define METZ_HEADER_PULSE 870            /* 2 units */
#define METZ_HEADER_SPACE 2300
#define METZ_BIT_PULSE METZ_UNIT
#define METZ_BIT_0_SPACE 960
#define METZ_BIT_1_SPACE 1680
#define METZ_TRAILER_PULSE METZ_UNIT
#define METZ_FRAME_PERIOD 125000
#define METZ_TRAILER_SPACE 20000         /* far longer than any space in a frame */
#define METZ_ADDRESS_BITS 3
#define METZ_COMMAND_BITS 6
#define METZ_NBITS (1 + 2 * METZ_ADDRESS_BITS + 2 * METZ_COMMAND_BITS)
#define METZ_MARGIN (METZ_UNIT / 2)

enum metz_state {
	STATE_INACTIVE,
	STATE_HEADER_SPACE,
	STATE_BIT_PULSE,
	STATE_BIT_SPACE,
	STATE_TRAILER_PULSE,
};

struct metz_dec {
	enum metz_state state;
	unsigned count;
	uint32_t bits; /* MSB first: the toggle ends up highest */
	uint64_t start_us;
};

static void metz_reset(void *state)
{
	struct metz_dec *d = state;

	d->state = STATE_INACTIVE;
}

static void metz_finish(struct metz_dec *d, struct ir_decode_ctx *ctx)
{
	uint32_t toggle = d->bits >> 18;
	uint32_t address = (d->bits >> 15) & 0x7, not_address = (d->bits >> 12) & 0x7;
	uint32_t command = (d->bits >> 6) & 0x3f, not_command = d->bits & 0x3f;

	if ((address ^ not_address) != 0x7 || (command ^ not_command) != 0x3f)
		return;
	ir_decode_emit(ctx, IR_PROTO_METZ, (uint64_t)address << 16 | command, toggle, d->start_us);
}

static void metz_decode(void *state, struct ir_decode_ctx *ctx, const struct ir_edge *e)
{
	struct metz_dec *d = state;
	bool pulse = e->kind == IR_PULSE;
	/* A timeout is the line gone idle: as long a space as there can be. */
	uint32_t dur = e->kind == IR_TIMEOUT ? UINT32_MAX : e->duration;

	switch (d->state) {
	case STATE_INACTIVE:
		if (!pulse || !ir_eq_margin(dur, METZ_HEADER_PULSE, METZ_MARGIN))
			break;
		d->start_us = ir_decode_now(ctx);
		d->count = 0;
		d->bits = 0;
		d->state = STATE_HEADER_SPACE;
		return;

	case STATE_HEADER_SPACE:
		if (pulse || !ir_eq_margin(dur, METZ_HEADER_SPACE, METZ_MARGIN))
			break;
		d->state = STATE_BIT_PULSE;
		return;

	case STATE_BIT_PULSE:
		if (!pulse || !ir_eq_margin(dur, METZ_BIT_PULSE, METZ_MARGIN))
			break;
		d->state = STATE_BIT_SPACE;
		return;

	case STATE_BIT_SPACE:
		if (pulse)
			break;
		if (ir_eq_margin(dur, METZ_BIT_1_SPACE, METZ_MARGIN))
			d->bits = d->bits << 1 | 1;
		else if (ir_eq_margin(dur, METZ_BIT_0_SPACE, METZ_MARGIN))
			d->bits <<= 1;
		else
			break;
		d->count++;
		d->state = d->count == METZ_NBITS ? STATE_TRAILER_PULSE : STATE_BIT_PULSE;
		return;

	case STATE_TRAILER_PULSE:
		if (!pulse || !ir_eq_margin(dur, METZ_TRAILER_PULSE, METZ_MARGIN))
			break;
		metz_finish(d, ctx);
		d->state = STATE_INACTIVE;
		return;
	}
	d->state = STATE_INACTIVE;
}

static int metz_encode(enum ir_protocol p, uint64_t scancode, unsigned toggle,
		       struct ir_edge_buf *out)
{
	static const struct ir_pd_timings t = {
		.header_pulse = METZ_HEADER_PULSE,
		.header_space = METZ_HEADER_SPACE,
		.bit_pulse = METZ_BIT_PULSE,
		.bit_0_space = METZ_BIT_0_SPACE,
		.bit_1_space = METZ_BIT_1_SPACE,
		.trailer_pulse = METZ_TRAILER_PULSE,
		.msb_first = true,
	};
	uint64_t address = (scancode >> 16) & 0x7, command = scancode & 0x3f;

	if (p != IR_PROTO_METZ)
		return -EINVAL;
	return ir_gen_pulse_distance(out, &t, METZ_NBITS,
				     (uint64_t)(toggle & 1) << 18 | address << 15 |
					     (~address & 0x7) << 12 | command << 6 |
					     (~command & 0x3f));
}

static const struct ir_protocol_info metz_infos[] = {
	{
		.id = IR_PROTO_METZ, .name = "metz", .family = "metz", .scancode_mask = 0x7003f,
		.carrier_hz = 38000, .duty_cycle = 33, .unit_us = METZ_UNIT,
		.margin_us = METZ_MARGIN, .repeat_period_ms = 125,
		.frame_period_us = METZ_FRAME_PERIOD, .min_trailing_space_us = METZ_TRAILER_SPACE,
		.has_toggle = true, .has_encoder = true,
		.summary = "Metz, 3-bit address and 6-bit command with complements, toggle",
	},
};

const struct ir_family ir_family_metz = {
	.name = "metz",
	.protocols = metz_infos,
	.protocol_count = sizeof(metz_infos) / sizeof(metz_infos[0]),
	.state_size = sizeof(struct metz_dec),
	.reset = metz_reset,
	.decode = metz_decode,
	.encode = metz_encode,
};
