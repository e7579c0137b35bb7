/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * xmp.c - XMP (Motorola/UEI cable and satellite boxes), 38 kHz: 16 nibbles
 * in two halves, each nibble one 210 µs pulse and a space of 760 + n·136 µs.
 *
 *   half 1: S.hi  C1  S.lo  0xf  OEM.hi OEM.lo D.hi D.lo   210 pulse, 13.8 ms space
 *   half 2: S.hi  C2  T     S.lo F.3    F.2    F.1  F.0    210 pulse, 80.4 ms space
 *
 * D is the device (address), S the sub-device, OEM normally 0x44, F the
 * 16-bit command (OBC1 = F >> 8, OBC2 = F & 0xff).  The checksum nibbles
 * C1 and C2 make the nibbles of each half add up to 0 mod 16.  T is 0 in
 * the first frame of a key press and 8 in the frames repeated while it is
 * held (some remotes send one more with T = 9 on release).
 *
 * Scancodes follow rc-core: D<<24 | S<<16 | F.  A frame with T = 0 is a
 * key press; any other T repeats the last key, as rc-core's rc_repeat()
 * does.  rc-core has no XMP encoder; this one sends OEM 0x44.
 */
#include "ir_family.h"

#define XMP_UNIT 136          /* one nibble step: ~5 cycles of 38 kHz */
#define XMP_MARGIN (XMP_UNIT / 2)
#define XMP_PULSE 210         /* before every nibble, and after the last of a half */
#define XMP_NIBBLE_SPACE 760  /* the space of nibble 0; nibble n adds n units */
/* XMP's 8-cycle bursts are shorter than demodulating receivers are built
 * for, and many stretch them, shortening the space after by as much.
 * Pulses up to two units longer than rc-core's tolerance are taken, and
 * each nibble is read twice: from its space, as rc-core does, and from its
 * period (pulse plus space), which stretching leaves alone.  The frame is
 * whichever reading passes the checks, the space one first. */
#define XMP_STRETCH_MARGIN (XMP_MARGIN + 2 * XMP_UNIT)
#define XMP_NIBBLES 16
#define XMP_HALF_NIBBLES 8
#define XMP_HALF_SPACE 13800  /* after the first half's closing pulse */
#define XMP_LEADOUT_SPACE 80400 /* after the second half, before the next frame */
/* rc-core's trailer (and minimum timeout), 20 ms: it takes any space from
 * 13.8 ms up to that, each less 760 µs, for the gap between the halves. */
#define XMP_TRAILER_SPACE 20000
#define XMP_HALF_SPACE_MARGIN XMP_NIBBLE_SPACE
#define XMP_OEM 0x44
/* Nibble 3 is always 0xf; rc-core calibrates its nibble width on it, so a
 * frame with any other value there does not decode. */
#define XMP_FIXED_NIBBLE 0xf
#define XMP_TOGGLE_REPEAT 8   /* T of the frames sent while a key is held */

enum xmp_state {
	STATE_INACTIVE,
	STATE_NIBBLE_SPACE,
	STATE_NIBBLE_PULSE,
	STATE_HALF_SPACE,
	STATE_SECOND_HALF_PULSE,
};

/* The states' names, for `irjack decode -v` (ir_decode_why_state()). */
static const char *const xmp_states[] = {
	"idle", "nibble space", "nibble pulse", "half space", "second half pulse",
};

struct xmp_dec {
	enum xmp_state state;
	unsigned count;                /* nibbles received */
	uint32_t pulse;                /* the pulse before the coming space */
	int8_t by_space[XMP_NIBBLES];  /* nibbles read from the spaces, -1 = none */
	int8_t by_period[XMP_NIBBLES]; /* ... from the periods */
	uint64_t start_us;
};

static const struct ir_protocol_set xmp_protocols = {
	.bits = { UINT64_C(1) << IR_PROTO_XMP },
};

static void xmp_reset(void *state)
{
	struct xmp_dec *d = state;

	d->state = STATE_INACTIVE;
}

static bool xmp_pulse(uint32_t us)
{
	return ir_geq_margin(us, XMP_PULSE, XMP_MARGIN) &&
	       ir_leq_margin(us, XMP_PULSE, XMP_STRETCH_MARGIN);
}

/* The nibble a duration stands for, with `zero` that of nibble 0, or -1. */
static int8_t xmp_nibble(uint64_t d, uint32_t zero)
{
	uint32_t n;

	if (d > UINT32_MAX || !ir_geq_margin((uint32_t)d, zero, XMP_MARGIN))
		return -1;
	n = d > zero ? (uint32_t)(d - zero + XMP_MARGIN) / XMP_UNIT : 0;
	if (n > 0xf || !ir_eq_margin((uint32_t)d, zero + n * XMP_UNIT, XMP_MARGIN))
		return -1;
	return (int8_t)n;
}

static unsigned xmp_nibble_sum(const int8_t *n)
{
	unsigned sum = 0;

	for (unsigned i = 0; i < XMP_HALF_NIBBLES; i++)
		sum += (unsigned)n[i];
	return sum & 0xf;
}

/* rc-core's scancode from the 16 nibbles; false if the frame is invalid. */
static bool xmp_scancode(const int8_t *n, uint64_t *scancode, unsigned *toggle)
{
	uint32_t v[XMP_NIBBLES];

	for (unsigned i = 0; i < XMP_NIBBLES; i++) {
		if (n[i] < 0)
			return false;
		v[i] = (uint32_t)n[i];
	}
	if (xmp_nibble_sum(n) != 0 || xmp_nibble_sum(n + XMP_HALF_NIBBLES) != 0)
		return false;
	/* The sub-device is sent in both halves. */
	if (v[3] != XMP_FIXED_NIBBLE || v[0] != v[8] || v[2] != v[11])
		return false;
	*scancode = (uint64_t)(v[6] << 4 | v[7]) << 24 | (v[0] << 4 | v[2]) << 16 |
		    v[12] << 12 | v[13] << 8 | v[14] << 4 | v[15];
	*toggle = v[10];
	return true;
}

static void xmp_finish(struct xmp_dec *d, struct ir_decode_ctx *ctx)
{
	uint64_t scancode;
	unsigned toggle;

	d->state = STATE_INACTIVE;
	if (!xmp_scancode(d->by_space, &scancode, &toggle) &&
	    !xmp_scancode(d->by_period, &scancode, &toggle))
		return;
	if (toggle == 0)
		ir_decode_emit(ctx, IR_PROTO_XMP, scancode, 0, d->start_us);
	else
		ir_decode_emit_repeat(ctx, &xmp_protocols, d->start_us);
}

static void xmp_decode(void *state, struct ir_decode_ctx *ctx, const struct ir_edge *e)
{
	struct xmp_dec *d = state;
	bool pulse = e->kind == IR_PULSE;

	switch (d->state) {
	case STATE_INACTIVE:
		if (!pulse || !xmp_pulse(e->duration))
			break;
		d->start_us = ir_decode_now(ctx);
		d->pulse = e->duration;
		d->count = 0;
		d->state = STATE_NIBBLE_SPACE;
		return;

	case STATE_NIBBLE_SPACE:
		if (pulse)
			break;
		d->by_space[d->count] = xmp_nibble(e->duration, XMP_NIBBLE_SPACE);
		d->by_period[d->count] = xmp_nibble((uint64_t)d->pulse + e->duration,
						    XMP_PULSE + XMP_NIBBLE_SPACE);
		if (d->by_space[d->count] < 0 && d->by_period[d->count] < 0)
			break;
		d->count++;
		d->state = STATE_NIBBLE_PULSE;
		return;

	case STATE_NIBBLE_PULSE:
		if (!pulse || !xmp_pulse(e->duration))
			break;
		d->pulse = e->duration;
		if (d->count == XMP_NIBBLES) {
			/* The second half's closing pulse: the frame is whole. */
			xmp_finish(d, ctx);
			return;
		}
		d->state = d->count == XMP_HALF_NIBBLES ? STATE_HALF_SPACE : STATE_NIBBLE_SPACE;
		return;

	case STATE_HALF_SPACE:
		if (pulse || !ir_geq_margin(e->duration, XMP_HALF_SPACE, XMP_HALF_SPACE_MARGIN) ||
		    ir_geq_margin(e->duration, XMP_TRAILER_SPACE, XMP_HALF_SPACE_MARGIN))
			break;
		d->state = STATE_SECOND_HALF_PULSE;
		return;

	case STATE_SECOND_HALF_PULSE:
		if (!pulse || !xmp_pulse(e->duration))
			break;
		d->pulse = e->duration;
		d->state = STATE_NIBBLE_SPACE;
		return;
	}
	ir_decode_why_state(ctx, "xmp", xmp_states, d->state,
			    d->count, e->kind == IR_PULSE, e->duration);
	d->state = STATE_INACTIVE;
}

/* One half: 8 nibbles, each a pulse and its space, then the closing pulse
 * and the space after it. */
static int xmp_gen_half(struct ir_edge_buf *out, const int8_t *n, uint32_t closing_space)
{
	int ret = 0;

	for (unsigned i = 0; i < XMP_HALF_NIBBLES; i++) {
		ret |= ir_edge_buf_pulse(out, XMP_PULSE);
		ret |= ir_edge_buf_space(out, XMP_NIBBLE_SPACE + (uint32_t)n[i] * XMP_UNIT);
	}
	ret |= ir_edge_buf_pulse(out, XMP_PULSE);
	ret |= ir_edge_buf_space(out, closing_space);
	return ret ? -ENOMEM : 0;
}

/* The frame of `scancode` with toggle nibble `t`, checksums filled in. */
static int xmp_gen_frame(uint64_t scancode, unsigned t, struct ir_edge_buf *out)
{
	int8_t sub_hi = (scancode >> 20) & 0xf, sub_lo = (scancode >> 16) & 0xf;
	int8_t n[XMP_NIBBLES] = {
		sub_hi, 0, sub_lo, XMP_FIXED_NIBBLE, XMP_OEM >> 4, XMP_OEM & 0xf,
		(scancode >> 28) & 0xf, (scancode >> 24) & 0xf,
		sub_hi, 0, (int8_t)(t & 0xf), sub_lo,
		(scancode >> 12) & 0xf, (scancode >> 8) & 0xf, (scancode >> 4) & 0xf, scancode & 0xf,
	};
	int ret;

	n[1] = (int8_t)((16 - xmp_nibble_sum(n)) & 0xf);
	n[9] = (int8_t)((16 - xmp_nibble_sum(n + XMP_HALF_NIBBLES)) & 0xf);
	ret = xmp_gen_half(out, n, XMP_HALF_SPACE);
	if (ret == 0)
		ret = xmp_gen_half(out, n + XMP_HALF_NIBBLES, XMP_LEADOUT_SPACE);
	return ret;
}

static int xmp_encode(enum ir_protocol p, uint64_t scancode, unsigned toggle,
		      struct ir_edge_buf *out)
{
	(void)toggle; /* XMP's T nibble marks repeats, see xmp_encode_repeat() */
	if (p != IR_PROTO_XMP)
		return -EINVAL;
	return xmp_gen_frame(scancode, 0, out);
}

static int xmp_encode_repeat(enum ir_protocol p, uint64_t scancode, struct ir_edge_buf *out)
{
	if (p != IR_PROTO_XMP)
		return -EINVAL;
	return xmp_gen_frame(scancode, XMP_TOGGLE_REPEAT, out);
}

static const struct ir_protocol_info xmp_infos[] = {
	{
		.id = IR_PROTO_XMP, .name = "xmp", .family = "xmp", .scancode_mask = 0xffffffff,
		.carrier_hz = 38000, .duty_cycle = 0, .unit_us = XMP_UNIT,
		.margin_us = XMP_MARGIN, .repeat_period_ms = 125, .frame_period_us = 0,
		.min_trailing_space_us = XMP_TRAILER_SPACE, .has_toggle = false,
		.has_encoder = true,
		.summary = "XMP, 8-bit device and sub-device, 16-bit command, checksummed nibbles",
	},
};

const struct ir_family ir_family_xmp = {
	.name = "xmp",
	.protocols = xmp_infos,
	.protocol_count = sizeof(xmp_infos) / sizeof(xmp_infos[0]),
	.state_size = sizeof(struct xmp_dec),
	.reset = xmp_reset,
	.decode = xmp_decode,
	.encode = xmp_encode,
	.encode_repeat = xmp_encode_repeat,
};
