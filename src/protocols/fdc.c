/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fdc.c - the FDC infrared keyboard (IRMP 18): pulse-distance, 40 bits LSB
 * first, 38 kHz.
 *
 *   frame: 2085 pulse, 966 space, 40 × (300 pulse, 220|715 space), 300 pulse
 *   bits:  0-7 address, 8-19 zero, 20-23 a release/flag nibble R,
 *          24-31 key code C, 32-39 ~C
 *   repeat: the whole frame, 60 ms of silence apart
 *
 * Figures and layout as IRMP reads the keyboard: its address is bits 0-13,
 * its command bits 20-31 (R in the low nibble, C above it); IRSND sends 0
 * in bits 8-23 and ~C after C.  Scancode: IRMP's address << 16 | command =
 * A << 16 | C << 4 | R.  Without a capture of the keyboard to say more,
 * frames are taken only as IRSND builds them: bits 8-19 zero and ~C right;
 * the frame is certain at its last pulse.
 */
#include "ir_family.h"

#define FDC_UNIT 300
#define FDC_HEADER_PULSE 2085
#define FDC_HEADER_SPACE 966
#define FDC_BIT_PULSE FDC_UNIT
#define FDC_BIT_0_SPACE 220
#define FDC_BIT_1_SPACE 715
#define FDC_TRAILER_PULSE FDC_UNIT
#define FDC_GAP 60000                    /* IRMP: the next frame after 60 ms */
#define FDC_NBITS 40
#define FDC_ZERO_BITS UINT64_C(0x00000fff00) /* bits 8-19 */
#define FDC_MARGIN (FDC_UNIT / 2)
/* The header is the easiest part to lengthen (receiver AGC settling). */
#define FDC_HEADER_MARGIN FDC_UNIT

enum fdc_state {
	STATE_INACTIVE,
	STATE_HEADER_SPACE,
	STATE_BIT_PULSE,
	STATE_BIT_SPACE,
	STATE_TRAILER_PULSE,
};

struct fdc_dec {
	enum fdc_state state;
	unsigned count;
	uint64_t bits; /* LSB first as received */
	uint64_t start_us;
};

static void fdc_reset(void *state)
{
	struct fdc_dec *d = state;

	d->state = STATE_INACTIVE;
}

static void fdc_finish(struct fdc_dec *d, struct ir_decode_ctx *ctx)
{
	uint64_t address = d->bits & 0xff, flags = (d->bits >> 20) & 0xf;
	uint64_t key = (d->bits >> 24) & 0xff, not_key = (d->bits >> 32) & 0xff;

	if ((d->bits & FDC_ZERO_BITS) || (key ^ not_key) != 0xff)
		return;
	ir_decode_emit(ctx, IR_PROTO_FDC, address << 16 | key << 4 | flags, 0, d->start_us);
}

static void fdc_decode(void *state, struct ir_decode_ctx *ctx, const struct ir_edge *e)
{
	struct fdc_dec *d = state;
	bool pulse = e->kind == IR_PULSE;
	/* A timeout is the line gone idle: as long a space as there can be. */
	uint32_t dur = e->kind == IR_TIMEOUT ? UINT32_MAX : e->duration;

	switch (d->state) {
	case STATE_INACTIVE:
		if (!pulse || !ir_eq_margin(dur, FDC_HEADER_PULSE, FDC_HEADER_MARGIN))
			break;
		d->start_us = ir_decode_now(ctx);
		d->count = 0;
		d->bits = 0;
		d->state = STATE_HEADER_SPACE;
		return;

	case STATE_HEADER_SPACE:
		if (pulse || !ir_eq_margin(dur, FDC_HEADER_SPACE, FDC_MARGIN))
			break;
		d->state = STATE_BIT_PULSE;
		return;

	case STATE_BIT_PULSE:
		if (!pulse || !ir_eq_margin(dur, FDC_BIT_PULSE, FDC_MARGIN))
			break;
		d->state = STATE_BIT_SPACE;
		return;

	case STATE_BIT_SPACE:
		if (pulse)
			break;
		if (ir_eq_margin(dur, FDC_BIT_1_SPACE, FDC_MARGIN))
			d->bits |= UINT64_C(1) << d->count;
		else if (!ir_eq_margin(dur, FDC_BIT_0_SPACE, FDC_MARGIN))
			break;
		d->count++;
		d->state = d->count == FDC_NBITS ? STATE_TRAILER_PULSE : STATE_BIT_PULSE;
		return;

	case STATE_TRAILER_PULSE:
		if (!pulse || !ir_eq_margin(dur, FDC_TRAILER_PULSE, FDC_MARGIN))
			break;
		fdc_finish(d, ctx);
		d->state = STATE_INACTIVE;
		return;
	}
	d->state = STATE_INACTIVE;
}

static int fdc_encode(enum ir_protocol p, uint64_t scancode, unsigned toggle,
		      struct ir_edge_buf *out)
{
	static const struct ir_pd_timings t = {
		.header_pulse = FDC_HEADER_PULSE,
		.header_space = FDC_HEADER_SPACE,
		.bit_pulse = FDC_BIT_PULSE,
		.bit_0_space = FDC_BIT_0_SPACE,
		.bit_1_space = FDC_BIT_1_SPACE,
		.trailer_pulse = FDC_TRAILER_PULSE,
		.msb_first = false,
	};
	uint64_t address = (scancode >> 16) & 0xff, flags = scancode & 0xf;
	uint64_t key = (scancode >> 4) & 0xff;

	(void)toggle;
	if (p != IR_PROTO_FDC)
		return -EINVAL;
	return ir_gen_pulse_distance(out, &t, FDC_NBITS,
				     address | flags << 20 | key << 24 | (~key & 0xff) << 32);
}

static const struct ir_protocol_info fdc_infos[] = {
	{
		.id = IR_PROTO_FDC, .name = "fdc", .family = "fdc", .scancode_mask = 0xff0fff,
		.carrier_hz = 38000, .duty_cycle = 33, .unit_us = FDC_UNIT,
		.margin_us = FDC_MARGIN, .repeat_period_ms = 125, .frame_period_us = 0,
		.min_trailing_space_us = FDC_GAP, .has_toggle = false, .has_encoder = true,
		.summary = "FDC keyboard: 8-bit address, 8-bit key code and a flag nibble",
	},
};

const struct ir_family ir_family_fdc = {
	.name = "fdc",
	.protocols = fdc_infos,
	.protocol_count = sizeof(fdc_infos) / sizeof(fdc_infos[0]),
	.state_size = sizeof(struct fdc_dec),
	.reset = fdc_reset,
	.decode = fdc_decode,
	.encode = fdc_encode,
};
