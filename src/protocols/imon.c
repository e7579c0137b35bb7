/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * imon.c - the iMON PAD remote (SoundGraph), raw as rc-core decodes it:
 * 38 kHz, a grid of 416 µs slots, each slot light or dark.
 *
 *   one light slot (the header), then for bits 30..0 two slots:
 *   a check slot, then the data slot (dark = 1, light = 0)
 *
 * A check slot is always dark, except for the bits in IMON_CHECK_BITS,
 * whose check slot is light exactly when this bit and the one sent before
 * it (bit + 1; bit 31 counts as 0) are both 0.  The scancode is the 31
 * bits (mask 0x7fffffff).  Held keys repeat the frame after ~12 ms.
 *
 * A frame whose last bits are 1 ends in dark slots that run into the gap
 * after it: it is certain only once the silence covers them (the family's
 * space deadline); one whose last bit is 0 is certain at its last pulse.
 *
 * The pad's stick sends motion frames.  As in rc-core, the pad's keyboard
 * key (IMON_STICK_TOGGLE) switches the stick to arrow keys: motion frames
 * are then reported as the scancode of the arrow the stick leans to most.
 * In mouse mode they are reported as received (rc-core also turns them
 * into pointer motion, which is not a scancode's business).
 */
#include <stdlib.h>

#include "ir_family.h"

#define IMON_UNIT 416          /* 415.66 µs: ~16 cycles of 38 kHz */
#define IMON_MARGIN (IMON_UNIT / 2)
/* The header slot must read at least 3/4 of a slot (receivers lengthen
 * bursts rather than shorten them).  This keeps XMP's 210 µs pulses (half
 * a slot, which rc-core's ±208 takes for a slot) from ever starting a
 * frame; later slots keep rc-core's tolerance. */
#define IMON_HEADER_MARGIN (IMON_UNIT / 4)
#define IMON_TOP_BIT 30        /* bits 30..0 */
#define IMON_CHECK_BITS 0x437f7e00u /* bits 30, 25, 24, 22-16, 14-9 */
/* The header is a single slot, so a frame may only start after darkness
 * (as rc-core only starts again after >10 ms of it once a frame failed):
 * longer than the header spaces of the other protocols (NEC: 4.5 ms),
 * shorter than the ~12 ms gap between repeated frames. */
#define IMON_IDLE_SPACE 10000
/* Stick motion frames: (bits & mask) == match.  Bits 19-22 and 11-14
 * hold the x and y magnitude, bits 25 and 24 their sign. */
#define IMON_MOTION_MASK 0xfc0000ffu
#define IMON_MOTION_MATCH 0x680000b7u
#define IMON_X_NEGATIVE 0x02000000u
#define IMON_Y_NEGATIVE 0x01000000u
/* The keyboard/mouse key, and the arrow keys' scancodes (rc-imon-pad). */
#define IMON_STICK_TOGGLE 0x299115b7u
#define IMON_KEY_UP 0x2aa515b7u
#define IMON_KEY_DOWN 0x289515b7u
#define IMON_KEY_LEFT 0x29a515b7u
#define IMON_KEY_RIGHT 0x2ba515b7u
/* rc-core's minimum timeout: 60 slots. */
#define IMON_TRAILER_SPACE (60 * IMON_UNIT)

enum imon_state {
	STATE_INACTIVE,
	STATE_CHECK_SLOT,
	STATE_DATA_SLOT,
};

/* The states' names, for `irjack decode -v` (ir_decode_why_state()). */
static const char *const imon_states[] = {
	"idle", "check slot", "data slot",
};

struct imon_dec {
	enum imon_state state;
	unsigned bit;         /* the bit whose slots come next */
	uint32_t bits;        /* MSB first as received, 1 = dark */
	bool check_light;     /* the check slot of `bit` was light */
	bool idle;            /* the line was dark for IMON_IDLE_SPACE before this edge */
	bool stick_keys;      /* the stick sends arrow keys (kept across resets) */
	uint64_t start_us;
};

static void imon_reset(void *state)
{
	struct imon_dec *d = state;

	d->state = STATE_INACTIVE;
	d->idle = true;
}

static bool imon_has_check(unsigned bit)
{
	return (IMON_CHECK_BITS >> bit) & 1;
}

/* One stick axis from its byte of a motion frame: a 4-bit magnitude whose
 * bits 3, 4, 5, 6 weigh 8, 4, 2, 1, negative when `negative`. */
static int imon_stick_axis(uint32_t byte, bool negative)
{
	int v = (int)((byte & 0x08) | (byte & 0x10) >> 2 | (byte & 0x20) >> 4 | (byte & 0x40) >> 6);

	return negative ? v - 16 : v;
}

/* rc-core's scancode for the 31 bits received, with the stick mode. */
static uint32_t imon_scancode(struct imon_dec *d, uint32_t bits)
{
	int x, y;

	if (bits == IMON_STICK_TOGGLE)
		d->stick_keys = !d->stick_keys;
	if (!d->stick_keys || (bits & IMON_MOTION_MASK) != IMON_MOTION_MATCH)
		return bits;
	x = imon_stick_axis((bits >> 16) & 0xff, bits & IMON_X_NEGATIVE);
	y = imon_stick_axis((bits >> 8) & 0xff, bits & IMON_Y_NEGATIVE);
	if (x == 0 || y == 0)
		return bits;
	if (abs(y) > abs(x))
		return y > 0 ? IMON_KEY_DOWN : IMON_KEY_UP;
	return x > 0 ? IMON_KEY_RIGHT : IMON_KEY_LEFT;
}

/* Slots still to come in the current state. */
static unsigned imon_slots_left(const struct imon_dec *d)
{
	if (d->state == STATE_CHECK_SLOT)
		return 2 * d->bit + 2;
	if (d->state == STATE_DATA_SLOT)
		return 2 * d->bit + 1;
	return 0;
}

static void imon_decode(void *state, struct ir_decode_ctx *ctx, const struct ir_edge *e)
{
	struct imon_dec *d = state;
	struct ir_edge ev = *e;
	bool pulse = ev.kind == IR_PULSE;
	bool was_idle = d->idle;

	d->idle = !pulse && ev.duration >= IMON_IDLE_SPACE;
	if (!ir_geq_margin(ev.duration, IMON_UNIT,
			   d->state == STATE_INACTIVE ? IMON_HEADER_MARGIN : IMON_MARGIN))
		goto fail;
again:
	if (!ir_geq_margin(ev.duration, IMON_UNIT, IMON_MARGIN))
		return; /* this edge is used up; the rest was jitter */
	ir_edge_consume(&ev, IMON_UNIT);

	switch (d->state) {
	case STATE_INACTIVE:
		if (!pulse || !was_idle)
			break;
		d->start_us = ir_decode_now(ctx);
		d->bit = IMON_TOP_BIT;
		d->bits = 0;
		d->state = STATE_CHECK_SLOT;
		goto again;

	case STATE_CHECK_SLOT:
		if (pulse && !imon_has_check(d->bit))
			break;
		d->check_light = pulse;
		d->state = STATE_DATA_SLOT;
		goto again;

	case STATE_DATA_SLOT:
		d->bits = d->bits << 1 | (pulse ? 0 : 1);
		if (imon_has_check(d->bit) && d->check_light != ((d->bits & 3) == 0))
			break;
		if (d->bit > 0) {
			d->bit--;
			d->state = STATE_CHECK_SLOT;
			goto again;
		}
		/* The last slot: a light one must end with this edge. */
		if (pulse && ir_geq_margin(ev.duration, IMON_UNIT, IMON_MARGIN))
			break;
		ir_decode_emit(ctx, IR_PROTO_IMON, imon_scancode(d, d->bits), 0, d->start_us);
		d->state = STATE_INACTIVE;
		/* Ended in the dark: what follows is the gap before the next
		 * frame, which the core may not show us (space deadline). */
		if (!pulse)
			d->idle = true;
		return;
	}
fail:
	ir_decode_why_state(ctx, "imon", imon_states, d->state,
			    IMON_TOP_BIT - d->bit, e->kind == IR_PULSE, ev.duration);
	d->state = STATE_INACTIVE;
}

static uint32_t imon_space_deadline(const void *state, const struct ir_decode_ctx *ctx)
{
	const struct imon_dec *d = state;

	(void)ctx;
	/* All the slots left dark is a valid ending (every bit 1, every check
	 * slot dark), certain once the silence has covered them. */
	return imon_slots_left(d) * IMON_UNIT;
}

static int imon_encode(enum ir_protocol p, uint64_t scancode, unsigned toggle,
		       struct ir_edge_buf *out)
{
	uint32_t bits = (uint32_t)scancode;
	int ret = 0;

	(void)toggle;
	if (p != IR_PROTO_IMON)
		return -EINVAL;
	ret |= ir_edge_buf_pulse(out, IMON_UNIT);
	for (int bit = IMON_TOP_BIT; bit >= 0; bit--) {
		bool zero = !((bits >> bit) & 1);
		bool prev_zero = bit == IMON_TOP_BIT || !((bits >> (bit + 1)) & 1);
		bool check_light = imon_has_check((unsigned)bit) && zero && prev_zero;

		ret |= check_light ? ir_edge_buf_pulse(out, IMON_UNIT)
				   : ir_edge_buf_space(out, IMON_UNIT);
		ret |= zero ? ir_edge_buf_pulse(out, IMON_UNIT) : ir_edge_buf_space(out, IMON_UNIT);
	}
	return ret ? -ENOMEM : 0;
}

static const struct ir_protocol_info imon_infos[] = {
	{
		.id = IR_PROTO_IMON, .name = "imon", .family = "imon", .scancode_mask = 0x7fffffff,
		.carrier_hz = 38000, .duty_cycle = 0, .unit_us = IMON_UNIT,
		.margin_us = IMON_HEADER_MARGIN, .repeat_period_ms = 114, .frame_period_us = 0,
		.min_trailing_space_us = IMON_TRAILER_SPACE, .has_toggle = false,
		.has_encoder = true, .not_default = true,
		.summary = "iMON PAD, 31 bits with check slots",
	},
};

const struct ir_family ir_family_imon = {
	.name = "imon",
	.protocols = imon_infos,
	.protocol_count = sizeof(imon_infos) / sizeof(imon_infos[0]),
	.state_size = sizeof(struct imon_dec),
	.reset = imon_reset,
	.decode = imon_decode,
	.space_deadline = imon_space_deadline,
	.encode = imon_encode,
};
