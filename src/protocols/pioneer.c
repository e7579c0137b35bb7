/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pioneer.c - Pioneer: NEC's frame at 40 kHz, resent whole (no repeat
 * code) every 108 ms while a key is held.
 *
 *   frame: 9000 pulse, 4500 space, 32 × (563 pulse, 563|1688 space), 563 pulse
 *          bytes D, ~D, F, ~F, LSB first
 *
 * The carrier is all that tells Pioneer from NEC, and a demodulated signal
 * has none; what does is the device code: Pioneer's are 0xA0-0xAF, which no
 * NEC remote uses (DecodeIR's rule).  Frames with such a D (and the
 * complements NEC's "nec" reading needs) are reported as pioneer, with a
 * higher priority than the nec family's reading of the same light; the
 * family's rc_core_view gives that nec reading back (D << 8 | F).
 *
 * Scancode: D << 16 | F, IRMP's address << 16 | command convention (IRMP
 * itself reads Pioneer as NEC).  The encoder takes any D: with one outside
 * 0xA0-0xAF it sends a 40 kHz NEC frame, which decodes as nec.
 *
 * Many Pioneer keys send two different frames: the first once, then the
 * second while the key is held.  The light cannot tell that pair from two
 * key presses 108 ms apart, so each frame is reported on its own, as
 * DecodeIR does; a two-frame key is sent as its two scancodes in turn.
 *
 * A frame is certain at its last pulse unless its first 26 bits look like
 * a 13-bit address and its complement (Sanyo/NEC-42, same timings): then
 * only the silence after it can tell, PIONEER_DECIDE_SPACE.
 */
#include "ir_family.h"

#define PIONEER_UNIT 564               /* 22.5 cycles of 40 kHz; NEC's 562.5 */
#define PIONEER_HEADER_PULSE 9000      /* 16 units */
#define PIONEER_HEADER_SPACE 4500      /* 8 units */
#define PIONEER_BIT_PULSE PIONEER_UNIT
#define PIONEER_BIT_0_SPACE PIONEER_UNIT
#define PIONEER_BIT_1_SPACE 1692       /* 3 units */
#define PIONEER_TRAILER_PULSE PIONEER_UNIT
#define PIONEER_TRAILER_SPACE 5640     /* 10 units, as NEC's minimum gap */
#define PIONEER_FRAME_PERIOD 108000
#define PIONEER_NBITS 32
#define PIONEER_MARGIN (PIONEER_UNIT / 2)
/* As NEC's: the header pulse is the easiest part to lengthen. */
#define PIONEER_HEADER_MARGIN (2 * PIONEER_UNIT)
/* Longer than any bit space (1692 + 282); NEC's, so that the nec family's
 * reading of the same frame settles on the same edge. */
#define PIONEER_DECIDE_SPACE 2250
#define PIONEER_DEVICE_FIRST 0xa0
#define PIONEER_DEVICE_LAST 0xaf

enum pioneer_state {
	STATE_INACTIVE,
	STATE_HEADER_SPACE,
	STATE_BIT_PULSE,
	STATE_BIT_SPACE,
	STATE_TRAILER_PULSE,
	STATE_TRAILER_SPACE,
};

struct pioneer_dec {
	enum pioneer_state state;
	unsigned count;
	uint32_t bits; /* LSB first as received */
	uint64_t start_us;
};

static void pioneer_reset(void *state)
{
	struct pioneer_dec *d = state;

	d->state = STATE_INACTIVE;
}

/* Bits that could be the start of a 42-bit Sanyo/NEC-42 frame. */
static bool pioneer_may_continue(uint32_t bits)
{
	return ((bits & 0x1fff) ^ ((bits >> 13) & 0x1fff)) == 0x1fff;
}

/* D, ~D, F, ~F with D a Pioneer device code. */
static bool pioneer_valid(uint32_t bits)
{
	uint32_t dev = bits & 0xff, not_dev = (bits >> 8) & 0xff;
	uint32_t fn = (bits >> 16) & 0xff, not_fn = bits >> 24;

	return (dev ^ not_dev) == 0xff && (fn ^ not_fn) == 0xff && dev >= PIONEER_DEVICE_FIRST &&
	       dev <= PIONEER_DEVICE_LAST;
}

static void pioneer_finish(struct pioneer_dec *d, struct ir_decode_ctx *ctx)
{
	ir_decode_emit(ctx, IR_PROTO_PIONEER, (uint64_t)(d->bits & 0xff) << 16 | ((d->bits >> 16) & 0xff),
		       0, d->start_us);
}

static void pioneer_decode(void *state, struct ir_decode_ctx *ctx, const struct ir_edge *e)
{
	struct pioneer_dec *d = state;
	bool pulse = e->kind == IR_PULSE;
	/* A timeout is the line gone idle: as long a space as there can be. */
	uint32_t dur = e->kind == IR_TIMEOUT ? UINT32_MAX : e->duration;

	switch (d->state) {
	case STATE_INACTIVE:
		if (!pulse || !ir_eq_margin(dur, PIONEER_HEADER_PULSE, PIONEER_HEADER_MARGIN))
			break;
		d->start_us = ir_decode_now(ctx);
		d->count = 0;
		d->bits = 0;
		d->state = STATE_HEADER_SPACE;
		return;

	case STATE_HEADER_SPACE:
		if (pulse || !ir_eq_margin(dur, PIONEER_HEADER_SPACE, PIONEER_MARGIN))
			break;
		d->state = STATE_BIT_PULSE;
		return;

	case STATE_BIT_PULSE:
		if (!pulse || !ir_eq_margin(dur, PIONEER_BIT_PULSE, PIONEER_MARGIN))
			break;
		d->state = STATE_BIT_SPACE;
		return;

	case STATE_BIT_SPACE:
		if (pulse)
			break;
		if (ir_eq_margin(dur, PIONEER_BIT_1_SPACE, PIONEER_MARGIN))
			d->bits |= UINT32_C(1) << d->count;
		else if (!ir_eq_margin(dur, PIONEER_BIT_0_SPACE, PIONEER_MARGIN))
			break;
		d->count++;
		d->state = d->count == PIONEER_NBITS ? STATE_TRAILER_PULSE : STATE_BIT_PULSE;
		return;

	case STATE_TRAILER_PULSE:
		if (!pulse || !ir_eq_margin(dur, PIONEER_TRAILER_PULSE, PIONEER_MARGIN) ||
		    !pioneer_valid(d->bits))
			break;
		if (pioneer_may_continue(d->bits)) {
			d->state = STATE_TRAILER_SPACE;
			return;
		}
		pioneer_finish(d, ctx);
		d->state = STATE_INACTIVE;
		return;

	case STATE_TRAILER_SPACE:
		if (pulse || dur < PIONEER_DECIDE_SPACE)
			break;
		pioneer_finish(d, ctx);
		d->state = STATE_INACTIVE;
		return;
	}
	d->state = STATE_INACTIVE;
}

static uint32_t pioneer_space_deadline(const void *state, const struct ir_decode_ctx *ctx)
{
	const struct pioneer_dec *d = state;

	(void)ctx;
	return d->state == STATE_TRAILER_SPACE ? PIONEER_DECIDE_SPACE : 0;
}

static int pioneer_encode(enum ir_protocol p, uint64_t scancode, unsigned toggle,
			  struct ir_edge_buf *out)
{
	static const struct ir_pd_timings t = {
		.header_pulse = PIONEER_HEADER_PULSE,
		.header_space = PIONEER_HEADER_SPACE,
		.bit_pulse = PIONEER_BIT_PULSE,
		.bit_0_space = PIONEER_BIT_0_SPACE,
		.bit_1_space = PIONEER_BIT_1_SPACE,
		.trailer_pulse = PIONEER_TRAILER_PULSE,
		.trailer_space = PIONEER_TRAILER_SPACE,
		.msb_first = false,
	};
	uint64_t dev = (scancode >> 16) & 0xff, fn = scancode & 0xff;

	(void)toggle;
	if (p != IR_PROTO_PIONEER)
		return -EINVAL;
	return ir_gen_pulse_distance(out, &t, PIONEER_NBITS,
				     dev | (~dev & 0xff) << 8 | fn << 16 | (~fn & 0xff) << 24);
}

static bool pioneer_rc_core_view(enum ir_protocol p, uint64_t scancode,
				 enum ir_protocol *rc_proto, uint64_t *rc_scancode)
{
	if (p != IR_PROTO_PIONEER)
		return false;
	*rc_proto = IR_PROTO_NEC;
	*rc_scancode = ((scancode >> 16) & 0xff) << 8 | (scancode & 0xff);
	return true;
}

static const struct ir_protocol_info pioneer_infos[] = {
	{
		.id = IR_PROTO_PIONEER, .name = "pioneer", .family = "pioneer",
		.scancode_mask = 0xff00ff, .carrier_hz = 40000, .duty_cycle = 33,
		.unit_us = PIONEER_UNIT, .margin_us = PIONEER_MARGIN, .repeat_period_ms = 110,
		.frame_period_us = PIONEER_FRAME_PERIOD,
		.min_trailing_space_us = PIONEER_TRAILER_SPACE, .has_toggle = false,
		.has_encoder = true, .priority = 1,
		.summary = "Pioneer: NEC frames at 40 kHz, device 0xA0-0xAF, resent whole",
	},
};

const struct ir_family ir_family_pioneer = {
	.name = "pioneer",
	.protocols = pioneer_infos,
	.protocol_count = sizeof(pioneer_infos) / sizeof(pioneer_infos[0]),
	.state_size = sizeof(struct pioneer_dec),
	.reset = pioneer_reset,
	.decode = pioneer_decode,
	.space_deadline = pioneer_space_deadline,
	.encode = pioneer_encode,
	.rc_core_view = pioneer_rc_core_view,
};
