/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * thomson.c - Thomson (RCA's European sibling, e.g. the MB100 remote):
 * pulse-distance without a header, 12 bits MSB first, then a stop pulse.
 *
 *   bit:   550 pulse, 2000 (0) or 4500 (1) space
 *   frame: 4 address bits, toggle, 7 command bits, 550 stop pulse
 *
 * The frame is certain at its stop pulse.  Held keys resend it after ~35
 * ms of silence.  With no header, a frame may only start after darkness.
 *
 * Scancodes are IRMP's address << 16 | command; the toggle is the frame's.
 */
#include "ir_family.h"

#define THOMSON_UNIT 550
#define THOMSON_BIT_PULSE THOMSON_UNIT
#define THOMSON_BIT_0_SPACE 2000
#define THOMSON_BIT_1_SPACE 4500
#define THOMSON_BIT_0_PERIOD (THOMSON_BIT_PULSE + THOMSON_BIT_0_SPACE)
#define THOMSON_BIT_1_PERIOD (THOMSON_BIT_PULSE + THOMSON_BIT_1_SPACE)
#define THOMSON_NBITS 12
#define THOMSON_TOGGLE_BIT 7        /* counted from the last bit */
/* Receivers lengthen pulses and shorten spaces by about as much (IRMP's
 * recording: 533-667 µs pulses, 1933-2000 µs spaces), so a bit is read
 * from pulse plus space, as rc-core reads Sharp's.  ±220 keeps Sharp's 1
 * bits (320 + 1680 = 2000, at most 2316 with its ±158 jitter) out of the
 * 0 window (2330..2770), and every Thomson frame has 0 bits.  The pulse
 * itself only has to be a pulse of about the right size. */
#define THOMSON_PERIOD_MARGIN 220
#define THOMSON_PULSE_MARGIN 250
/* What the info declares: each edge of a bit may be off by half the
 * period tolerance when both err the same way. */
#define THOMSON_MARGIN (THOMSON_PERIOD_MARGIN / 2)
/* Darkness before a frame: more than any space inside one (4500) or any
 * other protocol's header space (NEC: 4500); frames of a held key are
 * ~31-35 ms apart. */
#define THOMSON_IDLE_SPACE 10000
#define THOMSON_REPEAT_SPACE 35000  /* IRMP's pause between repeated frames */
/* IRMP's recording measured ~33 kHz on the MB100 (IRSND sends 38 kHz). */
#define THOMSON_CARRIER 33000

enum thomson_state {
	STATE_INACTIVE,
	STATE_BIT_SPACE,
	STATE_BIT_PULSE,
};

/* The states' names, for `irjack decode -v` (ir_decode_why_state()). */
static const char *const thomson_states[] = {
	"idle", "bit space", "bit pulse",
};

struct thomson_dec {
	enum thomson_state state;
	unsigned count;
	uint32_t bits;        /* MSB first as received */
	uint32_t pulse_len;   /* the pulse before the space being decoded */
	uint64_t start_us;
};

static void thomson_reset(void *state)
{
	struct thomson_dec *d = state;

	d->state = STATE_INACTIVE;
}

static bool thomson_is_pulse(const struct ir_edge *e)
{
	return e->kind == IR_PULSE && ir_eq_margin(e->duration, THOMSON_BIT_PULSE, THOMSON_PULSE_MARGIN);
}

static void thomson_decode(void *state, struct ir_decode_ctx *ctx, const struct ir_edge *e)
{
	struct thomson_dec *d = state;
	uint32_t period;
	uint32_t b;

	switch (d->state) {
	case STATE_INACTIVE:
		if (!thomson_is_pulse(e) || ir_decode_space_before(ctx) < THOMSON_IDLE_SPACE)
			break;
		d->start_us = ir_decode_now(ctx);
		d->count = 0;
		d->bits = 0;
		d->pulse_len = e->duration;
		d->state = STATE_BIT_SPACE;
		return;

	case STATE_BIT_SPACE:
		if (e->kind != IR_SPACE)
			break;
		period = d->pulse_len + e->duration;
		if (ir_eq_margin(period, THOMSON_BIT_1_PERIOD, THOMSON_PERIOD_MARGIN))
			d->bits = d->bits << 1 | 1;
		else if (ir_eq_margin(period, THOMSON_BIT_0_PERIOD, THOMSON_PERIOD_MARGIN))
			d->bits <<= 1;
		else
			break;
		d->count++;
		d->state = STATE_BIT_PULSE;
		return;

	case STATE_BIT_PULSE:
		if (!thomson_is_pulse(e))
			break;
		if (d->count < THOMSON_NBITS) {
			d->pulse_len = e->duration;
			d->state = STATE_BIT_SPACE;
			return;
		}
		/* The stop pulse. */
		b = d->bits;
		ir_decode_emit(ctx, IR_PROTO_THOMSON, (uint64_t)(b >> 8) << 16 | (b & 0x7f),
			       (b >> THOMSON_TOGGLE_BIT) & 1, d->start_us);
		d->state = STATE_INACTIVE;
		return;
	}
	ir_decode_why_state(ctx, "thomson", thomson_states, d->state,
			    d->count, e->kind == IR_PULSE, e->duration);
	d->state = STATE_INACTIVE;
}

static int thomson_encode(enum ir_protocol p, uint64_t scancode, unsigned toggle,
			  struct ir_edge_buf *out)
{
	static const struct ir_pd_timings t = {
		.bit_pulse = THOMSON_BIT_PULSE,
		.bit_0_space = THOMSON_BIT_0_SPACE,
		.bit_1_space = THOMSON_BIT_1_SPACE,
		.trailer_pulse = THOMSON_BIT_PULSE,
		.msb_first = true,
	};
	uint32_t address = (scancode >> 16) & 0xf;
	uint32_t command = scancode & 0x7f;

	if (p != IR_PROTO_THOMSON)
		return -EINVAL;
	return ir_gen_pulse_distance(out, &t, THOMSON_NBITS,
				     address << 8 | (toggle & 1) << THOMSON_TOGGLE_BIT | command);
}

static const struct ir_protocol_info thomson_infos[] = {
	{
		.id = IR_PROTO_THOMSON, .name = "thomson", .family = "thomson",
		.scancode_mask = 0xf007f, .carrier_hz = THOMSON_CARRIER, .duty_cycle = 33,
		.unit_us = THOMSON_UNIT, .margin_us = THOMSON_MARGIN,
		.repeat_period_ms = 125, .frame_period_us = 0,
		.min_trailing_space_us = THOMSON_REPEAT_SPACE, .has_toggle = true,
		.has_encoder = true,
		.summary = "Thomson, 4-bit address, 7-bit command, toggle",
	},
};

const struct ir_family ir_family_thomson = {
	.name = "thomson",
	.protocols = thomson_infos,
	.protocol_count = sizeof(thomson_infos) / sizeof(thomson_infos[0]),
	.state_size = sizeof(struct thomson_dec),
	.reset = thomson_reset,
	.decode = thomson_decode,
	.encode = thomson_encode,
};
