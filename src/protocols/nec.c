/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nec.c - NEC, NEC-X (extended address) and NEC-32: pulse-distance, 32 bits
 * LSB first (address, ~address, command, ~command), 38 kHz.
 *
 *   frame:  9000 pulse, 4500 space, 32 × (563 pulse, 563|1688 space), 563 pulse
 *   repeat: 9000 pulse, 2250 space, 563 pulse          (every 108 ms while held)
 *
 * Some remotes (Samsung and others) use a 4500 µs header pulse; rc-core
 * decodes those here too, with their own repeat: header, one bit, silence.
 *
 * Scancodes follow rc-core: command bytes not complementary → nec32
 * (~A<<24 | A<<16 | ~C<<8 | C, bytes as sent: B1 B0 B3 B2); else address
 * bytes not complementary → necx (A<<16 | ~A<<8 | C); else nec (A<<8 | C).
 */
#include "../ir_family.h"

#define NEC_UNIT 563               /* 562.5 µs: 21 cycles of 38 kHz */
#define NEC_HEADER_PULSE 9000      /* 16 units */
#define NEC_SHORT_HEADER_PULSE 4500 /* 8 units: Samsung-style */
#define NEC_HEADER_SPACE 4500
#define NEC_REPEAT_SPACE 2250
#define NEC_BIT_PULSE NEC_UNIT
#define NEC_BIT_0_SPACE NEC_UNIT
#define NEC_BIT_1_SPACE 1688        /* 3 units */
#define NEC_TRAILER_PULSE NEC_UNIT
#define NEC_TRAILER_SPACE 5625      /* 10 units; real gaps are far longer */
#define NEC_NBITS 32
#define NEC_MARGIN (NEC_UNIT / 2)
/* The header pulse is the easiest part to lengthen (receiver AGC settling). */
#define NEC_HEADER_MARGIN (2 * NEC_UNIT)

/* The silence that proves a frame has no more bits: longer than any bit
 * space (1688 + margin = 1969). */
#define NEC_DECIDE_SPACE 2250
/* Samsung-style repeat: after one bit, a trailer-length space. */
#define NEC_SHORT_REPEAT_SPACE (NEC_TRAILER_SPACE - NEC_MARGIN)

enum nec_state {
	STATE_INACTIVE,
	STATE_HEADER_SPACE,
	STATE_BIT_PULSE,
	STATE_BIT_SPACE,
	STATE_TRAILER_PULSE,
	STATE_TRAILER_SPACE,
};

struct nec_dec {
	enum nec_state state;
	unsigned count;
	uint32_t bits;         /* LSB first as received */
	bool short_header;     /* 4500 µs header pulse */
	bool is_repeat;        /* 9000/2250 repeat code in progress */
	bool short_repeat_ok;  /* last frame had a short header: its repeat may follow */
	uint64_t start_us;
};

static const struct ir_protocol_set nec_protocols = {
	.bits = { (UINT64_C(1) << IR_PROTO_NEC) | (UINT64_C(1) << IR_PROTO_NECX) |
		  (UINT64_C(1) << IR_PROTO_NEC32) },
};

static void nec_reset(void *state)
{
	struct nec_dec *d = state;

	d->state = STATE_INACTIVE;
}

/* rc-core's scancode layout from the 32 bits as received. */
static void nec_scancode(uint32_t bits, enum ir_protocol *proto, uint64_t *scancode)
{
	uint8_t b0 = bits & 0xff, b1 = (bits >> 8) & 0xff;
	uint8_t b2 = (bits >> 16) & 0xff, b3 = (bits >> 24) & 0xff;

	if ((b2 ^ b3) != 0xff) {
		*proto = IR_PROTO_NEC32;
		*scancode = (uint64_t)b1 << 24 | (uint64_t)b0 << 16 | (uint64_t)b3 << 8 | b2;
	} else if ((b0 ^ b1) != 0xff) {
		*proto = IR_PROTO_NECX;
		*scancode = (uint64_t)b0 << 16 | (uint64_t)b1 << 8 | b2;
	} else {
		*proto = IR_PROTO_NEC;
		*scancode = (uint64_t)b0 << 8 | b2;
	}
}

/* A 32-bit frame is only certain once the silence after it shows that no
 * more bits follow, when it could be the start of a longer frame with the
 * same timings: Sanyo and NEC-42 send 13 address bits then their complement
 * after NEC's 9 ms header; Samsung's 48-bit frames start like the 4.5 ms
 * header variant.  Such frames must not pass for NEC even when those
 * protocols are not being decoded. */
static bool nec_may_continue(const struct nec_dec *d)
{
	uint32_t a = d->bits & 0x1fff, not_a = (d->bits >> 13) & 0x1fff;

	return d->short_header || (a ^ not_a) == 0x1fff;
}

static void nec_finish(struct nec_dec *d, struct ir_decode_ctx *ctx)
{
	enum ir_protocol proto;
	uint64_t scancode;

	nec_scancode(d->bits, &proto, &scancode);
	d->short_repeat_ok = d->short_header;
	ir_decode_emit(ctx, proto, scancode, 0, d->start_us);
	d->state = STATE_INACTIVE;
}

static void nec_decode(void *state, struct ir_decode_ctx *ctx, const struct ir_edge *e)
{
	struct nec_dec *d = state;
	bool pulse = e->kind == IR_PULSE;

	switch (d->state) {
	case STATE_INACTIVE:
		if (!pulse)
			break;
		if (ir_eq_margin(e->duration, NEC_HEADER_PULSE, NEC_HEADER_MARGIN)) {
			d->short_header = false;
			d->short_repeat_ok = false;
		} else if (ir_eq_margin(e->duration, NEC_SHORT_HEADER_PULSE, NEC_MARGIN)) {
			d->short_header = true;
		} else {
			break;
		}
		d->start_us = ir_decode_now(ctx);
		d->count = 0;
		d->bits = 0;
		d->is_repeat = false;
		d->state = STATE_HEADER_SPACE;
		return;

	case STATE_HEADER_SPACE:
		if (pulse)
			break;
		if (ir_eq_margin(e->duration, NEC_HEADER_SPACE, NEC_MARGIN)) {
			d->state = STATE_BIT_PULSE;
			return;
		}
		if (!d->short_header && ir_eq_margin(e->duration, NEC_REPEAT_SPACE, NEC_MARGIN)) {
			d->is_repeat = true;
			d->state = STATE_TRAILER_PULSE;
			return;
		}
		break;

	case STATE_BIT_PULSE:
		if (!pulse || !ir_eq_margin(e->duration, NEC_BIT_PULSE, NEC_MARGIN))
			break;
		d->state = STATE_BIT_SPACE;
		return;

	case STATE_BIT_SPACE:
		if (pulse)
			break;
		if (d->count == 0 && d->short_header && d->short_repeat_ok &&
		    e->duration >= NEC_SHORT_REPEAT_SPACE) {
			ir_decode_emit_repeat(ctx, &nec_protocols, d->start_us);
			d->state = STATE_INACTIVE;
			return;
		}
		if (ir_eq_margin(e->duration, NEC_BIT_1_SPACE, NEC_MARGIN))
			d->bits |= UINT32_C(1) << d->count;
		else if (!ir_eq_margin(e->duration, NEC_BIT_0_SPACE, NEC_MARGIN))
			break;
		d->count++;
		d->state = d->count == NEC_NBITS ? STATE_TRAILER_PULSE : STATE_BIT_PULSE;
		return;

	case STATE_TRAILER_PULSE:
		if (!pulse || !ir_eq_margin(e->duration, NEC_TRAILER_PULSE, NEC_MARGIN))
			break;
		if (d->is_repeat) {
			ir_decode_emit_repeat(ctx, &nec_protocols, d->start_us);
			d->state = STATE_INACTIVE;
			return;
		}
		if (nec_may_continue(d)) {
			d->state = STATE_TRAILER_SPACE;
			return;
		}
		nec_finish(d, ctx);
		return;

	case STATE_TRAILER_SPACE:
		if (pulse || e->duration < NEC_DECIDE_SPACE)
			break;
		nec_finish(d, ctx);
		return;
	}
	d->state = STATE_INACTIVE;
}

static uint32_t nec_space_deadline(const void *state, const struct ir_decode_ctx *ctx)
{
	const struct nec_dec *d = state;

	(void)ctx;
	if (d->state == STATE_TRAILER_SPACE)
		return NEC_DECIDE_SPACE;
	if (d->state == STATE_BIT_SPACE && d->count == 0 && d->short_header && d->short_repeat_ok)
		return NEC_SHORT_REPEAT_SPACE;
	return 0;
}

static int nec_encode(enum ir_protocol p, uint64_t scancode, unsigned toggle,
		      struct ir_edge_buf *out)
{
	static const struct ir_pd_timings t = {
		.header_pulse = NEC_HEADER_PULSE,
		.header_space = NEC_HEADER_SPACE,
		.bit_pulse = NEC_BIT_PULSE,
		.bit_0_space = NEC_BIT_0_SPACE,
		.bit_1_space = NEC_BIT_1_SPACE,
		.trailer_pulse = NEC_TRAILER_PULSE,
		.trailer_space = NEC_TRAILER_SPACE,
		.msb_first = false,
	};
	uint32_t b0, b1, b2, b3;

	(void)toggle;
	switch (p) {
	case IR_PROTO_NEC:
		b0 = (scancode >> 8) & 0xff;
		b1 = ~b0 & 0xff;
		b2 = scancode & 0xff;
		b3 = ~b2 & 0xff;
		break;
	case IR_PROTO_NECX:
		b0 = (scancode >> 16) & 0xff;
		b1 = (scancode >> 8) & 0xff;
		b2 = scancode & 0xff;
		b3 = ~b2 & 0xff;
		break;
	case IR_PROTO_NEC32:
		b1 = (scancode >> 24) & 0xff;
		b0 = (scancode >> 16) & 0xff;
		b3 = (scancode >> 8) & 0xff;
		b2 = scancode & 0xff;
		break;
	default:
		return -EINVAL;
	}
	return ir_gen_pulse_distance(out, &t, NEC_NBITS, b0 | b1 << 8 | b2 << 16 | (uint64_t)b3 << 24);
}

static int nec_encode_repeat(enum ir_protocol p, uint64_t scancode, struct ir_edge_buf *out)
{
	int ret = 0;

	(void)p;
	(void)scancode;
	ret |= ir_edge_buf_pulse(out, NEC_HEADER_PULSE);
	ret |= ir_edge_buf_space(out, NEC_REPEAT_SPACE);
	ret |= ir_edge_buf_pulse(out, NEC_TRAILER_PULSE);
	ret |= ir_edge_buf_space(out, NEC_TRAILER_SPACE);
	return ret ? -ENOMEM : 0;
}

#define NEC_INFO(ID, NAME, MASK, SUMMARY)                                                  \
	{                                                                                  \
		.id = ID, .name = NAME, .family = "nec", .scancode_mask = MASK,            \
		.carrier_hz = 38000, .duty_cycle = 33, .unit_us = NEC_UNIT,                \
		.margin_us = NEC_MARGIN, .repeat_period_ms = 110,                          \
		.frame_period_us = 108000, .min_trailing_space_us = NEC_TRAILER_SPACE,     \
		.has_toggle = false, .has_encoder = true, .summary = SUMMARY,              \
	}

static const struct ir_protocol_info nec_infos[] = {
	NEC_INFO(IR_PROTO_NEC, "nec", 0xffff, "NEC, 8-bit address and command with complements"),
	NEC_INFO(IR_PROTO_NECX, "necx", 0xffffff, "NEC extended, 16-bit address"),
	NEC_INFO(IR_PROTO_NEC32, "nec32", 0xffffffff, "NEC 32-bit, no complement bytes"),
};

const struct ir_family ir_family_nec = {
	.name = "nec",
	.protocols = nec_infos,
	.protocol_count = sizeof(nec_infos) / sizeof(nec_infos[0]),
	.state_size = sizeof(struct nec_dec),
	.reset = nec_reset,
	.decode = nec_decode,
	.space_deadline = nec_space_deadline,
	.encode = nec_encode,
	.encode_repeat = nec_encode_repeat,
};
