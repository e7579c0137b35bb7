/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bose.c - Bose (Wave systems and others): pulse-distance, 16 bits LSB
 * first, 36 kHz, then a stop pulse.
 *
 *   header: 1060 pulse, 1425 space
 *   bit:    550 pulse, 437 (0) or 1425 (1) space
 *   frame:  8 command bits, the same 8 bits inverted, 550 stop pulse
 *
 * The frame is certain at its stop pulse.
 *
 * Scancodes are IRMP's address << 16 | command: the 8-bit command (Bose
 * frames carry no address).
 */
#include "ir_family.h"

#define BOSE_UNIT 550
#define BOSE_HEADER_PULSE 1060
#define BOSE_HEADER_SPACE 1425
#define BOSE_BIT_PULSE BOSE_UNIT
#define BOSE_BIT_0_SPACE 437
#define BOSE_BIT_1_SPACE 1425
#define BOSE_HEADER_PERIOD (BOSE_HEADER_PULSE + BOSE_HEADER_SPACE)
#define BOSE_BIT_0_PERIOD (BOSE_BIT_PULSE + BOSE_BIT_0_SPACE)
#define BOSE_BIT_1_PERIOD (BOSE_BIT_PULSE + BOSE_BIT_1_SPACE)
#define BOSE_NBITS 16
/* Receivers lengthen pulses and shorten spaces by about as much (IRMP's
 * recording: 533-600 µs pulses, 400-467 µs short spaces), so a bit is read
 * from pulse plus space; the periods (987, 1975, 2485) are ~500 µs or more
 * apart. */
#define BOSE_PERIOD_MARGIN 300
#define BOSE_PULSE_MARGIN 250
/* What the info declares: each edge of a bit may be off by half the
 * period tolerance when both err the same way. */
#define BOSE_MARGIN (BOSE_PERIOD_MARGIN / 2)
#define BOSE_REPEAT_SPACE 40000         /* IRMP's pause between repeated frames */

enum bose_state {
	STATE_INACTIVE,
	STATE_HEADER_SPACE,
	STATE_BIT_PULSE,
	STATE_BIT_SPACE,
};

/* The states' names, for `irjack decode -v` (ir_decode_why_state()). */
static const char *const bose_states[] = {
	"idle", "header space", "bit pulse", "bit space",
};

struct bose_dec {
	enum bose_state state;
	unsigned count;
	uint32_t bits;        /* LSB first as received */
	uint32_t pulse_len;   /* the pulse before the space being decoded */
	uint64_t start_us;
};

static void bose_reset(void *state)
{
	struct bose_dec *d = state;

	d->state = STATE_INACTIVE;
}

static void bose_decode(void *state, struct ir_decode_ctx *ctx, const struct ir_edge *e)
{
	struct bose_dec *d = state;
	bool pulse = e->kind == IR_PULSE;
	uint32_t period;

	switch (d->state) {
	case STATE_INACTIVE:
		if (!pulse || !ir_eq_margin(e->duration, BOSE_HEADER_PULSE, BOSE_PULSE_MARGIN))
			break;
		d->start_us = ir_decode_now(ctx);
		d->count = 0;
		d->bits = 0;
		d->pulse_len = e->duration;
		d->state = STATE_HEADER_SPACE;
		return;

	case STATE_HEADER_SPACE:
		if (e->kind != IR_SPACE ||
		    !ir_eq_margin(d->pulse_len + e->duration, BOSE_HEADER_PERIOD, BOSE_PERIOD_MARGIN))
			break;
		d->state = STATE_BIT_PULSE;
		return;

	case STATE_BIT_PULSE:
		if (!pulse || !ir_eq_margin(e->duration, BOSE_BIT_PULSE, BOSE_PULSE_MARGIN))
			break;
		if (d->count < BOSE_NBITS) {
			d->pulse_len = e->duration;
			d->state = STATE_BIT_SPACE;
			return;
		}
		/* The stop pulse: the second byte must be the first inverted. */
		if (((d->bits ^ d->bits >> 8) & 0xff) == 0xff)
			ir_decode_emit(ctx, IR_PROTO_BOSE, d->bits & 0xff, 0, d->start_us);
		d->state = STATE_INACTIVE;
		return;

	case STATE_BIT_SPACE:
		if (e->kind != IR_SPACE)
			break;
		period = d->pulse_len + e->duration;
		if (ir_eq_margin(period, BOSE_BIT_1_PERIOD, BOSE_PERIOD_MARGIN))
			d->bits |= UINT32_C(1) << d->count;
		else if (!ir_eq_margin(period, BOSE_BIT_0_PERIOD, BOSE_PERIOD_MARGIN))
			break;
		d->count++;
		d->state = STATE_BIT_PULSE;
		return;
	}
	ir_decode_why_state(ctx, "bose", bose_states, d->state,
			    d->count, e->kind == IR_PULSE, e->duration);
	d->state = STATE_INACTIVE;
}

static int bose_encode(enum ir_protocol p, uint64_t scancode, unsigned toggle,
		       struct ir_edge_buf *out)
{
	static const struct ir_pd_timings t = {
		.header_pulse = BOSE_HEADER_PULSE,
		.header_space = BOSE_HEADER_SPACE,
		.bit_pulse = BOSE_BIT_PULSE,
		.bit_0_space = BOSE_BIT_0_SPACE,
		.bit_1_space = BOSE_BIT_1_SPACE,
		.trailer_pulse = BOSE_BIT_PULSE,
		.msb_first = false,
	};
	uint32_t command = scancode & 0xff;

	(void)toggle;
	if (p != IR_PROTO_BOSE)
		return -EINVAL;
	return ir_gen_pulse_distance(out, &t, BOSE_NBITS, (~command & 0xff) << 8 | command);
}

static const struct ir_protocol_info bose_infos[] = {
	{
		.id = IR_PROTO_BOSE, .name = "bose", .family = "bose",
		.scancode_mask = 0xff, .carrier_hz = 36000, .duty_cycle = 33,
		.unit_us = BOSE_UNIT, .margin_us = BOSE_MARGIN,
		.repeat_period_ms = 125, .frame_period_us = 0,
		.min_trailing_space_us = BOSE_REPEAT_SPACE, .has_toggle = false,
		.has_encoder = true,
		.summary = "Bose, 8-bit command sent with its inverse",
	},
};

const struct ir_family ir_family_bose = {
	.name = "bose",
	.protocols = bose_infos,
	.protocol_count = sizeof(bose_infos) / sizeof(bose_infos[0]),
	.state_size = sizeof(struct bose_dec),
	.reset = bose_reset,
	.decode = bose_decode,
	.encode = bose_encode,
};
