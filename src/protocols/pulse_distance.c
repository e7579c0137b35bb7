/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pulse_distance.c - the protocols that differ only in numbers: a header,
 * a fixed number of pulse-distance bits, a stop pulse.  One table row per
 * protocol, one state machine for all of them (the encoder's mirror is
 * ir_gen_pulse_distance()).
 *
 *   frame: header pulse, header space, N × (bit pulse, 0|1 space), stop pulse
 *
 * Timings are IRMP's (irmpprotocols.h, read for the numbers).  The length
 * is fixed, so a frame is certain at its stop pulse.  Scancode: IRMP's
 * address << 16 | command, each field read from the bits as received in
 * the protocol's bit order (first bit most significant when msb_first).
 *
 * Margins: each row's `margin` keeps its two bit spaces apart (less than
 * half their difference) and its header's `header_margin` is about 15 %.
 */
#include "ir_family.h"

struct pd_proto {
	enum ir_protocol id;
	uint32_t header_pulse, header_space, header_margin;
	uint32_t bit_pulse, bit_0_space, bit_1_space, margin;
	unsigned nbits;
	bool msb_first;
	unsigned addr_off, addr_len, cmd_off, cmd_len;
	uint32_t gap; /* after the stop pulse, before the next frame */
};

/* Row by row, the same protocols as pd_infos below. */
static const struct pd_proto pd_protos[] = {
	/* Nikon cameras (ML-L3): 2200 pulse, 27.1 ms space, 2 bits */
	{ IR_PROTO_NIKON, 2200, 27100, 2700, 500, 1500, 3500, 400, 2, true, 0, 0, 0, 2, 60000 },
	/* Pentax cameras: 13 ms / 3 ms header, 1000 pulse, 1000 = 0, 3000 = 1 */
	{ IR_PROTO_PENTAX, 13000, 3000, 1500, 1000, 1000, 3000, 500, 6, true, 0, 0, 0, 6, 60000 },
	/* Vincent amplifiers: 2500/4600 header, 550 pulse, 550 = 0, 1540 = 1 */
	{ IR_PROTO_VINCENT, 2500, 4600, 500, 550, 550, 1540, 275, 32, true, 0, 16, 16, 16, 40000 },
	/* Samsung AH air conditioners: 2500/1900 header, 450 pulse, 450 = 0,
	 * 1100 = 1; 48 bits LSB first, IRMP reads bits 0-15 and 32-47 */
	{ IR_PROTO_SAMSUNGAH, 2500, 1900, 400, 450, 450, 1100, 225, 48, false, 0, 16, 32, 16,
	  40000 },
};

#define PD_INFO(ID, NAME, MASK, UNIT, MARGIN, SUMMARY)                                       \
	{                                                                                  \
		.id = ID, .name = NAME, .family = "pd_table",                  \
		.scancode_mask = MASK, .carrier_hz = 38000, .duty_cycle = 33,              \
		.unit_us = UNIT, .margin_us = MARGIN, .repeat_period_ms = 125,             \
		.min_trailing_space_us = 10000, .has_encoder = true, .summary = SUMMARY,   \
	}

static const struct ir_protocol_info pd_infos[] = {
	PD_INFO(IR_PROTO_NIKON, "nikon", 0x3, 500, 400, "Nikon camera release, 2-bit command"),
	PD_INFO(IR_PROTO_PENTAX, "pentax", 0x3f, 1000, 500, "Pentax camera release, 6-bit command"),
	PD_INFO(IR_PROTO_VINCENT, "vincent", 0xffffffff, 550, 275,
		"Vincent, 16-bit address and command, MSB first"),
	PD_INFO(IR_PROTO_SAMSUNGAH, "samsungah", 0xffffffff, 450, 225,
		"Samsung AH air conditioner, 48 bits: 16-bit address and command read"),
};

#define PD_COUNT (sizeof(pd_protos) / sizeof(pd_protos[0]))
_Static_assert(sizeof(pd_infos) / sizeof(pd_infos[0]) == PD_COUNT, "one info per row");

enum pd_state {
	STATE_INACTIVE,
	STATE_HEADER_SPACE,
	STATE_BIT_PULSE, /* a bit's pulse, or the stop pulse after the last bit */
	STATE_BIT_SPACE,
};

struct pd_one {
	enum pd_state state;
	unsigned count;
	uint64_t bits; /* bit i = the i-th bit received */
	uint64_t start_us;
};

struct pd_dec {
	struct pd_one one[PD_COUNT];
};

static void pd_reset(void *state)
{
	struct pd_dec *d = state;

	for (size_t i = 0; i < PD_COUNT; i++)
		d->one[i].state = STATE_INACTIVE;
}

/* A field of `len` bits from bit `off` of the bits as received. */
static uint64_t pd_field(const struct pd_proto *p, uint64_t bits, unsigned off, unsigned len)
{
	uint64_t v = (bits >> off) & ((UINT64_C(1) << len) - 1);

	return p->msb_first ? ir_bitrev(v, len) : v;
}

/* The inverse: `v` into bits off..off+len-1 as they are sent. */
static uint64_t pd_unfield(const struct pd_proto *p, uint64_t v, unsigned off, unsigned len)
{
	v &= (UINT64_C(1) << len) - 1;
	return (p->msb_first ? ir_bitrev(v, len) : v) << off;
}

static void pd_emit(const struct pd_proto *p, struct pd_one *o, struct ir_decode_ctx *ctx)
{
	uint64_t a = p->addr_len ? pd_field(p, o->bits, p->addr_off, p->addr_len) : 0;
	uint64_t c = pd_field(p, o->bits, p->cmd_off, p->cmd_len);

	ir_decode_emit(ctx, p->id, a << 16 | c, 0, o->start_us);
}

static bool pd_header_pulse(const struct pd_proto *p, struct pd_one *o,
			    const struct ir_decode_ctx *ctx, uint32_t dur)
{
	if (!ir_eq_margin(dur, p->header_pulse, p->header_margin))
		return false;
	o->start_us = ir_decode_now(ctx);
	o->count = 0;
	o->bits = 0;
	o->state = STATE_HEADER_SPACE;
	return true;
}

static void pd_decode_one(const struct pd_proto *p, struct pd_one *o, struct ir_decode_ctx *ctx,
			  bool pulse, uint32_t dur)
{
	switch (o->state) {
	case STATE_INACTIVE:
		if (pulse && pd_header_pulse(p, o, ctx, dur))
			return;
		break;
	case STATE_HEADER_SPACE:
		if (pulse || !ir_eq_margin(dur, p->header_space, p->header_margin))
			break;
		o->state = STATE_BIT_PULSE;
		return;
	case STATE_BIT_PULSE:
		if (!pulse || !ir_eq_margin(dur, p->bit_pulse, p->margin))
			break;
		if (o->count == p->nbits) {
			pd_emit(p, o, ctx);
			o->state = STATE_INACTIVE;
			return;
		}
		o->state = STATE_BIT_SPACE;
		return;
	case STATE_BIT_SPACE:
		if (pulse)
			break;
		if (ir_eq_margin(dur, p->bit_1_space, p->margin))
			o->bits |= UINT64_C(1) << o->count;
		else if (!ir_eq_margin(dur, p->bit_0_space, p->margin))
			break;
		o->count++;
		o->state = STATE_BIT_PULSE;
		return;
	}
	o->state = STATE_INACTIVE;
	/* the pulse that broke a frame may start the next one */
	if (pulse)
		pd_header_pulse(p, o, ctx, dur);
}

static void pd_decode(void *state, struct ir_decode_ctx *ctx, const struct ir_edge *e)
{
	struct pd_dec *d = state;
	bool pulse = e->kind == IR_PULSE;
	uint32_t dur = e->kind == IR_TIMEOUT ? UINT32_MAX : e->duration;

	for (size_t i = 0; i < PD_COUNT; i++)
		if (ir_decode_enabled(ctx, pd_protos[i].id))
			pd_decode_one(&pd_protos[i], &d->one[i], ctx, pulse, dur);
}

static int pd_encode(enum ir_protocol id, uint64_t scancode, unsigned toggle,
		     struct ir_edge_buf *out)
{
	(void)toggle;
	for (size_t i = 0; i < PD_COUNT; i++) {
		const struct pd_proto *p = &pd_protos[i];
		struct ir_pd_timings t = {
			.header_pulse = p->header_pulse, .header_space = p->header_space,
			.bit_pulse = p->bit_pulse, .bit_0_space = p->bit_0_space,
			.bit_1_space = p->bit_1_space, .trailer_pulse = p->bit_pulse,
			.trailer_space = p->gap, .msb_first = false,
		};
		uint64_t bits;

		if (p->id != id)
			continue;
		bits = pd_unfield(p, scancode & 0xffff, p->cmd_off, p->cmd_len);
		if (p->addr_len)
			bits |= pd_unfield(p, scancode >> 16, p->addr_off, p->addr_len);
		return ir_gen_pulse_distance(out, &t, p->nbits, bits);
	}
	return -EINVAL;
}

const struct ir_family ir_family_pulse_distance_table = {
	.name = "pd_table",
	.protocols = pd_infos,
	.protocol_count = PD_COUNT,
	.state_size = sizeof(struct pd_dec),
	.reset = pd_reset,
	.decode = pd_decode,
	.encode = pd_encode,
};
