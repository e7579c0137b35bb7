/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rca.c - RCA (Thomson, TCL and other North American TVs): pulse-distance,
 * 24 bits MSB first: 4 address, 8 command, then both complemented; 56 kHz.
 *
 *   frame: 4000 pulse, 4000 space, 24 × (500 pulse, 1000|2000 space), 500 pulse
 *   repeat: the whole frame, 8 ms of silence apart (every 64.5 ms: with its
 *           complements every frame has twelve 1s and is 56.5 ms long)
 *
 * Figures as sbprojects.net gives them, and as the corpus's TCL remote (a
 * sound-card capture) measures: 3982-3999 / 4017, 500-516 pulses, spaces
 * 983-998 and 1980-1997, 8.4 ms between frames.  DecodeIR's IRP has 460
 * and 58 kHz, inside the same tolerance.
 *
 * Scancode: address << 16 | command (IRMP's convention; IRMP has no RCA).
 * The frame is certain at its last pulse: the complements must hold.
 */
#include "ir_family.h"

#define RCA_UNIT 500
#define RCA_HEADER_PULSE (8 * RCA_UNIT)
#define RCA_HEADER_SPACE (8 * RCA_UNIT)
#define RCA_BIT_PULSE RCA_UNIT
#define RCA_BIT_0_SPACE (2 * RCA_UNIT)
#define RCA_BIT_1_SPACE (4 * RCA_UNIT)
#define RCA_TRAILER_PULSE RCA_UNIT
#define RCA_GAP (16 * RCA_UNIT)          /* silence between repeated frames */
#define RCA_ADDRESS_BITS 4
#define RCA_COMMAND_BITS 8
#define RCA_NBITS (2 * (RCA_ADDRESS_BITS + RCA_COMMAND_BITS))
#define RCA_MARGIN (RCA_UNIT / 2)
/* The header is the easiest part to lengthen (receiver AGC settling). */
#define RCA_HEADER_MARGIN RCA_UNIT

enum rca_state {
	STATE_INACTIVE,
	STATE_HEADER_SPACE,
	STATE_BIT_PULSE,
	STATE_BIT_SPACE,
	STATE_TRAILER_PULSE,
};

struct rca_dec {
	enum rca_state state;
	unsigned count;
	uint32_t bits; /* MSB first: the first bit ends up highest */
	uint64_t start_us;
};

static void rca_reset(void *state)
{
	struct rca_dec *d = state;

	d->state = STATE_INACTIVE;
}

static void rca_finish(struct rca_dec *d, struct ir_decode_ctx *ctx)
{
	uint32_t address = d->bits >> 20, command = (d->bits >> 12) & 0xff;
	uint32_t not_address = (d->bits >> 8) & 0xf, not_command = d->bits & 0xff;

	if ((address ^ not_address) != 0xf || (command ^ not_command) != 0xff)
		return;
	ir_decode_emit(ctx, IR_PROTO_RCA, (uint64_t)address << 16 | command, 0, d->start_us);
}

static void rca_decode(void *state, struct ir_decode_ctx *ctx, const struct ir_edge *e)
{
	struct rca_dec *d = state;
	bool pulse = e->kind == IR_PULSE;
	/* A timeout is the line gone idle: as long a space as there can be. */
	uint32_t dur = e->kind == IR_TIMEOUT ? UINT32_MAX : e->duration;

	switch (d->state) {
	case STATE_INACTIVE:
		if (!pulse || !ir_eq_margin(dur, RCA_HEADER_PULSE, RCA_HEADER_MARGIN))
			break;
		d->start_us = ir_decode_now(ctx);
		d->count = 0;
		d->bits = 0;
		d->state = STATE_HEADER_SPACE;
		return;

	case STATE_HEADER_SPACE:
		if (pulse || !ir_eq_margin(dur, RCA_HEADER_SPACE, RCA_HEADER_MARGIN))
			break;
		d->state = STATE_BIT_PULSE;
		return;

	case STATE_BIT_PULSE:
		if (!pulse || !ir_eq_margin(dur, RCA_BIT_PULSE, RCA_MARGIN))
			break;
		d->state = STATE_BIT_SPACE;
		return;

	case STATE_BIT_SPACE:
		if (pulse)
			break;
		if (ir_eq_margin(dur, RCA_BIT_1_SPACE, RCA_MARGIN))
			d->bits = d->bits << 1 | 1;
		else if (ir_eq_margin(dur, RCA_BIT_0_SPACE, RCA_MARGIN))
			d->bits <<= 1;
		else
			break;
		d->count++;
		d->state = d->count == RCA_NBITS ? STATE_TRAILER_PULSE : STATE_BIT_PULSE;
		return;

	case STATE_TRAILER_PULSE:
		if (!pulse || !ir_eq_margin(dur, RCA_TRAILER_PULSE, RCA_MARGIN))
			break;
		rca_finish(d, ctx);
		d->state = STATE_INACTIVE;
		return;
	}
	d->state = STATE_INACTIVE;
}

static int rca_encode(enum ir_protocol p, uint64_t scancode, unsigned toggle,
		      struct ir_edge_buf *out)
{
	static const struct ir_pd_timings t = {
		.header_pulse = RCA_HEADER_PULSE,
		.header_space = RCA_HEADER_SPACE,
		.bit_pulse = RCA_BIT_PULSE,
		.bit_0_space = RCA_BIT_0_SPACE,
		.bit_1_space = RCA_BIT_1_SPACE,
		.trailer_pulse = RCA_TRAILER_PULSE,
		.msb_first = true,
	};
	uint64_t address = (scancode >> 16) & 0xf, command = scancode & 0xff;

	(void)toggle;
	if (p != IR_PROTO_RCA)
		return -EINVAL;
	return ir_gen_pulse_distance(out, &t, RCA_NBITS,
				     address << 20 | command << 12 | (~address & 0xf) << 8 |
					     (~command & 0xff));
}

static const struct ir_protocol_info rca_infos[] = {
	{
		.id = IR_PROTO_RCA, .name = "rca", .family = "rca", .scancode_mask = 0xf00ff,
		.carrier_hz = 56000, .duty_cycle = 33, .unit_us = RCA_UNIT,
		.margin_us = RCA_MARGIN, .repeat_period_ms = 125, .frame_period_us = 0,
		.min_trailing_space_us = RCA_GAP, .has_toggle = false, .has_encoder = true,
		.summary = "RCA, 4-bit address and 8-bit command with complements, 56 kHz",
	},
};

const struct ir_family ir_family_rca = {
	.name = "rca",
	.protocols = rca_infos,
	.protocol_count = sizeof(rca_infos) / sizeof(rca_infos[0]),
	.state_size = sizeof(struct rca_dec),
	.reset = rca_reset,
	.decode = rca_decode,
	.encode = rca_encode,
};
