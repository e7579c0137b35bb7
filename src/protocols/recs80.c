/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * recs80.c - Philips RECS-80 and its extended form (Philips, Thomson,
 * Nordmende, Telefunken, Saba, Technisat, Mivar): pulse-distance with very
 * short pulses, MSB first, 38 kHz, then a stop pulse.
 *
 *   bit:       158 pulse, 4902 (0) or 7432 (1) space
 *   recs80:    start bit (158 pulse, 7432 space), toggle, 3 address bits,
 *              6 command bits, stop pulse
 *   recs80ext: start bit (158 pulse, 3637 space), a second start bit (1),
 *              toggle, 4 address bits, 6 command bits, stop pulse
 *
 * The start bit's space tells the two apart; the frame is certain at its
 * stop pulse.  Held keys resend it after ~45 ms of silence.
 *
 * Scancodes are IRMP's address << 16 | command; the toggle is the frame's.
 */
#include "ir_family.h"

#define RECS80_UNIT 158                 /* 6 cycles of 38 kHz */
#define RECS80_BIT_PULSE RECS80_UNIT
#define RECS80_BIT_0_SPACE 4902
#define RECS80_BIT_1_SPACE 7432
#define RECS80_START_SPACE RECS80_BIT_1_SPACE
#define RECS80EXT_START_SPACE 3637
#define RECS80_BIT_0_PERIOD (RECS80_BIT_PULSE + RECS80_BIT_0_SPACE)
#define RECS80_BIT_1_PERIOD (RECS80_BIT_PULSE + RECS80_BIT_1_SPACE)
#define RECS80EXT_START_PERIOD (RECS80_BIT_PULSE + RECS80EXT_START_SPACE)
#define RECS80_NBITS 10                 /* toggle, 3 address, 6 command */
#define RECS80EXT_NBITS 12              /* 1, toggle, 4 address, 6 command */
/* A 158 µs burst is 6 carrier cycles: receivers stretch it (IRMP's and the
 * Mivar recordings: 159-267 µs) and shorten the space after it by as much,
 * so bits are read from pulse plus space (the audio path adds ~20 µs more
 * at worst).  The periods (3795, 5060, 7590)
 * are 1265 µs or more apart: ±600 leaves them apart still.  The pulse must
 * be a short one. */
#define RECS80_PULSE_MARGIN 200
#define RECS80_PERIOD_MARGIN 600
/* Darkness before a frame: more than the longest space inside one. */
#define RECS80_IDLE_SPACE 10000
#define RECS80_REPEAT_SPACE 45000       /* IRMP's pause between repeated frames */

enum recs80_state {
	STATE_INACTIVE,
	STATE_START_SPACE,
	STATE_BIT_PULSE,
	STATE_BIT_SPACE,
};

/* The states' names, for `irjack decode -v` (ir_decode_why_state()). */
static const char *const recs80_states[] = {
	"idle", "start space", "bit pulse", "bit space",
};

struct recs80_dec {
	enum recs80_state state;
	bool ext;
	unsigned count;
	uint32_t bits;        /* MSB first as received */
	uint32_t pulse_len;   /* the pulse before the space being decoded */
	uint64_t start_us;
};

static void recs80_reset(void *state)
{
	struct recs80_dec *d = state;

	d->state = STATE_INACTIVE;
}

static bool recs80_is_pulse(const struct ir_edge *e)
{
	return e->kind == IR_PULSE && ir_eq_margin(e->duration, RECS80_BIT_PULSE, RECS80_PULSE_MARGIN);
}

static void recs80_finish(struct recs80_dec *d, struct ir_decode_ctx *ctx)
{
	uint32_t b = d->bits, command = b & 0x3f;

	if (d->ext)
		ir_decode_emit(ctx, IR_PROTO_RECS80EXT, (uint64_t)((b >> 6) & 0xf) << 16 | command,
			       (b >> 10) & 1, d->start_us);
	else
		ir_decode_emit(ctx, IR_PROTO_RECS80, (uint64_t)((b >> 6) & 0x7) << 16 | command,
			       (b >> 9) & 1, d->start_us);
}

static void recs80_decode(void *state, struct ir_decode_ctx *ctx, const struct ir_edge *e)
{
	struct recs80_dec *d = state;
	uint32_t period;

	switch (d->state) {
	case STATE_INACTIVE:
		if (!recs80_is_pulse(e) || ir_decode_space_before(ctx) < RECS80_IDLE_SPACE)
			break;
		d->start_us = ir_decode_now(ctx);
		d->count = 0;
		d->bits = 0;
		d->pulse_len = e->duration;
		d->state = STATE_START_SPACE;
		return;

	case STATE_START_SPACE:
		if (e->kind != IR_SPACE)
			break;
		period = d->pulse_len + e->duration;
		if (ir_eq_margin(period, RECS80_BIT_1_PERIOD, RECS80_PERIOD_MARGIN))
			d->ext = false;
		else if (ir_eq_margin(period, RECS80EXT_START_PERIOD, RECS80_PERIOD_MARGIN))
			d->ext = true;
		else
			break;
		d->state = STATE_BIT_PULSE;
		return;

	case STATE_BIT_PULSE:
		if (!recs80_is_pulse(e))
			break;
		if (d->count == (d->ext ? RECS80EXT_NBITS : RECS80_NBITS)) {
			/* The stop pulse. */
			recs80_finish(d, ctx);
			d->state = STATE_INACTIVE;
			return;
		}
		d->pulse_len = e->duration;
		d->state = STATE_BIT_SPACE;
		return;

	case STATE_BIT_SPACE:
		if (e->kind != IR_SPACE)
			break;
		period = d->pulse_len + e->duration;
		if (ir_eq_margin(period, RECS80_BIT_1_PERIOD, RECS80_PERIOD_MARGIN))
			d->bits = d->bits << 1 | 1;
		else if (ir_eq_margin(period, RECS80_BIT_0_PERIOD, RECS80_PERIOD_MARGIN))
			d->bits <<= 1;
		else
			break;
		d->count++;
		d->state = STATE_BIT_PULSE;
		return;
	}
	ir_decode_why_state(ctx, "recs80", recs80_states, d->state,
			    d->count, e->kind == IR_PULSE, e->duration);
	d->state = STATE_INACTIVE;
}

static int recs80_encode(enum ir_protocol p, uint64_t scancode, unsigned toggle,
			 struct ir_edge_buf *out)
{
	struct ir_pd_timings t = {
		.header_pulse = RECS80_BIT_PULSE,
		.header_space = RECS80_START_SPACE,
		.bit_pulse = RECS80_BIT_PULSE,
		.bit_0_space = RECS80_BIT_0_SPACE,
		.bit_1_space = RECS80_BIT_1_SPACE,
		.trailer_pulse = RECS80_BIT_PULSE,
		.msb_first = true,
	};
	uint32_t address = (scancode >> 16) & 0xf;
	uint32_t command = scancode & 0x3f;

	toggle &= 1;
	switch (p) {
	case IR_PROTO_RECS80:
		return ir_gen_pulse_distance(out, &t, RECS80_NBITS,
					     toggle << 9 | (address & 0x7) << 6 | command);
	case IR_PROTO_RECS80EXT:
		t.header_space = RECS80EXT_START_SPACE;
		return ir_gen_pulse_distance(out, &t, RECS80EXT_NBITS,
					     1u << 11 | toggle << 10 | address << 6 | command);
	default:
		return -EINVAL;
	}
}

#define RECS80_INFO(ID, NAME, MASK, SUMMARY)                                               \
	{                                                                                  \
		.id = ID, .name = NAME, .family = "recs80", .scancode_mask = MASK,         \
		.carrier_hz = 38000, .duty_cycle = 33, .unit_us = RECS80_UNIT,             \
		.margin_us = RECS80_PULSE_MARGIN, .repeat_period_ms = 125,                 \
		.frame_period_us = 0, .min_trailing_space_us = RECS80_REPEAT_SPACE,        \
		.has_toggle = true, .has_encoder = true, .summary = SUMMARY,               \
	}

static const struct ir_protocol_info recs80_infos[] = {
	RECS80_INFO(IR_PROTO_RECS80, "recs80", 0x7003f,
		    "Philips RECS-80, 3-bit address, 6-bit command, toggle"),
	RECS80_INFO(IR_PROTO_RECS80EXT, "recs80ext", 0xf003f,
		    "RECS-80 extended, 4-bit address, 6-bit command, toggle"),
};

const struct ir_family ir_family_recs80 = {
	.name = "recs80",
	.protocols = recs80_infos,
	.protocol_count = sizeof(recs80_infos) / sizeof(recs80_infos[0]),
	.state_size = sizeof(struct recs80_dec),
	.reset = recs80_reset,
	.decode = recs80_decode,
	.encode = recs80_encode,
};
