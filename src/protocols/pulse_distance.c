/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pulse_distance.c - the protocols that differ only in numbers: a header,
 * a fixed number of bits each coded as a (pulse, space) pair, an optional
 * stop pulse.  One table row per protocol, one state machine for all of
 * them, one encoder that mirrors it.
 *
 *   frame: header pulse, header space, N × (pulse0|1, space0|1), [stop pulse]
 *
 * Pulse-distance rows have one bit pulse and two spaces (nikon, vincent,
 * gree...); pulse-width rows two pulses (roomba); melinera both.  Without
 * a stop pulse the last bit's space is the gap, so its pulse alone must
 * tell it (pulse-width rows only).
 *
 * Timings are IRMP's (irmpprotocols.h, irmp.c and irsnd.c, read for the
 * numbers).  Scancode: IRMP's address << 16 | command, each field read
 * from the bits as received in the protocol's bit order (first bit most
 * significant when msb_first), unless a row has its own layout (lgair's
 * checksum, mitsu_heavy's fixed preamble, acp24's scattered bits).
 *
 * A frame is certain at its last pulse when its length is fixed and no
 * other protocol's frame starts the same way; rows whose header is another
 * protocol's (lgair: NEC's; melinera: inside NEC's margins) wait for
 * `end_space` of silence after it, so a longer NEC frame never passes for
 * them.
 *
 * Margins: each row's `margin` keeps its two bit codes apart (less than
 * half their difference) and its header's `header_margin` is about 15 %.
 */
#include "ir_family.h"

struct pd_proto {
	enum ir_protocol id;
	uint32_t header_pulse, header_space, header_margin;
	uint32_t bit_pulse[2], bit_space[2], margin; /* [0] codes a 0, [1] a 1 */
	uint32_t stop_pulse;                         /* 0: none */
	unsigned nbits;
	bool msb_first;
	unsigned addr_off, addr_len, cmd_off, cmd_len;
	uint32_t end_space; /* silence after the last pulse that ends a frame; 0: none needed */
	uint32_t gap;       /* after the frame, before the next */
	/* Optional own layout: bits as received <-> scancode.  read() returns
	 * false for a frame that fails the protocol's check. */
	bool (*read)(const uint64_t bits[2], uint64_t *scancode);
	void (*write)(uint64_t bits[2], uint64_t scancode);
};

/* ---- bits as received: bit i is the i-th bit of the frame ---- */

static unsigned pd_bit(const uint64_t bits[2], unsigned i)
{
	return (unsigned)(bits[i / 64] >> (i % 64)) & 1;
}

static void pd_set_bit(uint64_t bits[2], unsigned i, unsigned v)
{
	if (v)
		bits[i / 64] |= UINT64_C(1) << (i % 64);
	else
		bits[i / 64] &= ~(UINT64_C(1) << (i % 64));
}

/* `len` bits from bit `off`, the first received most significant when
 * msb_first, least significant otherwise. */
static uint64_t pd_get(const uint64_t bits[2], unsigned off, unsigned len, bool msb_first)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < len; i++) {
		unsigned b = pd_bit(bits, off + i);

		if (msb_first)
			v = v << 1 | b;
		else
			v |= (uint64_t)b << i;
	}
	return v;
}

/* The inverse of pd_get(). */
static void pd_put(uint64_t bits[2], unsigned off, unsigned len, bool msb_first, uint64_t v)
{
	for (unsigned i = 0; i < len; i++)
		pd_set_bit(bits, off + i,
			   (unsigned)(msb_first ? v >> (len - 1 - i) : v >> i) & 1);
}

/* ---- layouts of their own ---- */

/* LG air conditioners (IRMP's lgair): NEC timing, 28 bits MSB first:
 * 8 address, 16 command, 4 checksum = the sum of the command's nibbles
 * (as IRSND computes it). */
static unsigned lgair_checksum(uint64_t command)
{
	return (unsigned)((command >> 12) + (command >> 8) + (command >> 4) + command) & 0xf;
}

static bool lgair_read(const uint64_t bits[2], uint64_t *scancode)
{
	uint64_t address = pd_get(bits, 0, 8, true), command = pd_get(bits, 8, 16, true);

	if (pd_get(bits, 24, 4, true) != lgair_checksum(command))
		return false;
	*scancode = address << 16 | command;
	return true;
}

static void lgair_write(uint64_t bits[2], uint64_t scancode)
{
	pd_put(bits, 0, 8, true, scancode >> 16);
	pd_put(bits, 8, 16, true, scancode & 0xffff);
	pd_put(bits, 24, 4, true, lgair_checksum(scancode & 0xffff));
}

/* Mitsubishi Heavy air conditioners: 88 bits MSB first, a fixed 40-bit
 * preamble (IRSND's 4A 75 C3 64 9B), then the 16 bits IRMP reads as the
 * address and the 16 it reads as the command.  The last 16 bits carry no
 * more than IRMP reports; irjack sends them as 0. */
#define MITSU_HEAVY_PREAMBLE UINT64_C(0x4A75C3649B)

static bool mitsu_heavy_read(const uint64_t bits[2], uint64_t *scancode)
{
	if (pd_get(bits, 0, 40, true) != MITSU_HEAVY_PREAMBLE)
		return false;
	*scancode = pd_get(bits, 40, 16, true) << 16 | pd_get(bits, 56, 16, true);
	return true;
}

static void mitsu_heavy_write(uint64_t bits[2], uint64_t scancode)
{
	pd_put(bits, 0, 40, true, MITSU_HEAVY_PREAMBLE);
	pd_put(bits, 40, 16, true, scancode >> 16);
	pd_put(bits, 56, 16, true, scancode & 0xffff);
}

/* Stiebel Eltron ACP24: 70 bits, of which IRMP reports 16 as its command
 * (no address): command bit 15-i is frame bit acp24_map[i].  The other
 * bits are sent as 0. */
static const uint8_t acp24_map[16] = { 0,  24, 2,  3,  22, 4,  5,  6,
				       23, 20, 26, 44, 66, 67, 68, 69 };

static bool acp24_read(const uint64_t bits[2], uint64_t *scancode)
{
	uint64_t command = 0;

	for (unsigned i = 0; i < 16; i++)
		command = command << 1 | pd_bit(bits, acp24_map[i]);
	*scancode = command;
	return true;
}

static void acp24_write(uint64_t bits[2], uint64_t scancode)
{
	for (unsigned i = 0; i < 16; i++)
		pd_set_bit(bits, acp24_map[i], (unsigned)(scancode >> (15 - i)) & 1);
}

/* Row by row, the same protocols as pd_infos below. */
static const struct pd_proto pd_protos[] = {
	/* Nikon cameras (ML-L3): 2200 pulse, 27.1 ms space, 2 bits */
	{ IR_PROTO_NIKON, 2200, 27100, 2700, { 500, 500 }, { 1500, 3500 }, 400, 500, 2, true,
	  0, 0, 0, 2, 0, 60000, NULL, NULL },
	/* Pentax cameras: 13 ms / 3 ms header, 1000 pulse, 1000 = 0, 3000 = 1 */
	{ IR_PROTO_PENTAX, 13000, 3000, 1500, { 1000, 1000 }, { 1000, 3000 }, 500, 1000, 6, true,
	  0, 0, 0, 6, 0, 60000, NULL, NULL },
	/* Vincent amplifiers: 2500/4600 header, 550 pulse, 550 = 0, 1540 = 1 */
	{ IR_PROTO_VINCENT, 2500, 4600, 500, { 550, 550 }, { 550, 1540 }, 275, 550, 32, true,
	  0, 16, 16, 16, 0, 40000, NULL, NULL },
	/* Samsung AH air conditioners: 2500/1900 header, 450 pulse, 450 = 0,
	 * 1100 = 1; 48 bits LSB first, IRMP reads bits 0-15 and 32-47 */
	{ IR_PROTO_SAMSUNGAH, 2500, 1900, 400, { 450, 450 }, { 450, 1100 }, 225, 450, 48, false,
	  0, 16, 32, 16, 0, 40000, NULL, NULL },
	/* RC cars: 2000/2000 header, 600 pulse, 900 = 0, 450 = 1, 13 bits LSB
	 * first, all command */
	{ IR_PROTO_RCCAR, 2000, 2000, 300, { 600, 600 }, { 900, 450 }, 200, 600, 13, false,
	  0, 0, 0, 13, 0, 40000, NULL, NULL },
	/* LG air conditioners: NEC's 9000/4500 header and 560/560/1690 bits,
	 * 28 bits.  NEC's header: wait for the silence after bit 28's stop
	 * pulse (a NEC frame has a bit there, its space at most 1690 µs). */
	{ IR_PROTO_LGAIR, 9000, 4500, 700, { 560, 560 }, { 560, 1690 }, 400, 560, 28, true,
	  0, 0, 0, 0, 4000, 40000, lgair_read, lgair_write },
	/* Melinera (Lidl lights): 8800/4100 header; a 0 is 440 pulse + 590
	 * space, a 1 970 + 1140; 8 bits MSB first.  NEC frames fit the header
	 * and the 0 bits: wait for more silence after the stop pulse than
	 * NEC16's 4.5 ms sync space. */
	{ IR_PROTO_MELINERA, 8800, 4100, 700, { 440, 970 }, { 590, 1140 }, 250, 440, 8, true,
	  0, 0, 0, 8, 6000, 40000, NULL, NULL },
	/* Gree air conditioners: 12/6 ms header, 900 pulse, 2100 = 0, 700 = 1,
	 * 32 bits LSB first: 16 address, 16 command (IRMP reads only these).
	 * rc-core bounds NEC's leader from below only: the header space
	 * (±800, above the kernel's 5067 µs NEC limit) keeps NEC frames out. */
	{ IR_PROTO_GREE, 12000, 6000, 800, { 900, 900 }, { 2100, 700 }, 500, 900, 32, false,
	  0, 16, 16, 16, 0, 40000, NULL, NULL },
	/* IRMP16, IRMP's own data protocol: 842/1052 header, 421 pulse,
	 * 421 = 0, 842 = 1, 16 bits LSB first.  The header margin stays
	 * under 200: Samsung AH's 450 µs pulses at their margin (+200) must
	 * not pass for its 842 µs header pulse. */
	{ IR_PROTO_IRMP16, 842, 1052, 150, { 421, 421 }, { 421, 842 }, 160, 421, 16, false,
	  0, 0, 0, 16, 0, 40000, NULL, NULL },
	/* iRobot Roomba: 2790/930 header; a 0 is 930 pulse + 2790 space, a 1
	 * 2790 + 930; 7 bits MSB first, no stop pulse */
	{ IR_PROTO_ROOMBA, 2790, 930, 600, { 930, 2790 }, { 2790, 930 }, 600, 0, 7, true,
	  0, 0, 0, 7, 0, 18000, NULL, NULL },
	/* Mitsubishi Heavy air conditioners: 3200/1560 header, 400 pulse,
	 * 430 = 0, 1200 = 1, 88 bits MSB first (layout above) */
	{ IR_PROTO_MITSU_HEAVY, 3200, 1560, 240, { 400, 400 }, { 430, 1200 }, 200, 400, 88, true,
	  0, 0, 0, 0, 0, 40000, mitsu_heavy_read, mitsu_heavy_write },
	/* Stiebel Eltron ACP24: 390/950 header, 390 pulse, 950 = 0, 1300 = 1,
	 * 70 bits (layout above) */
	{ IR_PROTO_ACP24, 390, 950, 150, { 390, 390 }, { 950, 1300 }, 150, 390, 70, true,
	  0, 0, 0, 0, 0, 22000, acp24_read, acp24_write },
	/* Kathrein: 210/6218 header, 210 pulse, 1400 = 0, 3000 = 1, 13 bits
	 * MSB first: IRMP reads 4 address bits from bit 1, 7 command bits
	 * from bit 5.  Its ±600 µs windows hold Dish Network's 406/6090
	 * header and 1624/2842 spaces, whose frames have 16 bits: wait for
	 * more silence than a bit space (3600) after the stop pulse, or a Dish
	 * frame's first 13 bits pass for Kathrein (never cut a frame short). */
	{ IR_PROTO_KATHREIN, 210, 6218, 600, { 210, 210 }, { 1400, 3000 }, 600, 210, 13, true,
	  1, 4, 5, 7, 4000, 35000, NULL, NULL },
};

#define PD_INFO_X(ID, NAME, MASK, CARRIER, UNIT, MARGIN, NOT_DEFAULT, SUMMARY)          \
	{                                                                                  \
		.id = ID, .name = NAME, .family = "pd_table",                              \
		.scancode_mask = MASK, .carrier_hz = CARRIER, .duty_cycle = 33,            \
		.unit_us = UNIT, .margin_us = MARGIN, .repeat_period_ms = 125,             \
		.min_trailing_space_us = 10000, .has_encoder = true,                       \
		.not_default = NOT_DEFAULT, .summary = SUMMARY,                            \
	}
#define PD_INFO(ID, NAME, MASK, CARRIER, UNIT, MARGIN, SUMMARY)                          \
	PD_INFO_X(ID, NAME, MASK, CARRIER, UNIT, MARGIN, false, SUMMARY)
/* Left out of the default set: another protocol, at its own margins,
 * reads some of these frames too (see
 * exclusive_pairs in tests/unit/test_protocol_roundtrip.c). */
#define PD_INFO_ND(ID, NAME, MASK, CARRIER, UNIT, MARGIN, SUMMARY)                       \
	PD_INFO_X(ID, NAME, MASK, CARRIER, UNIT, MARGIN, true, SUMMARY)

static const struct ir_protocol_info pd_infos[] = {
	PD_INFO(IR_PROTO_NIKON, "nikon", 0x3, 38000, 500, 400,
		"Nikon camera release, 2-bit command"),
	PD_INFO(IR_PROTO_PENTAX, "pentax", 0x3f, 38000, 1000, 500,
		"Pentax camera release, 6-bit command"),
	PD_INFO(IR_PROTO_VINCENT, "vincent", 0xffffffff, 38000, 550, 275,
		"Vincent, 16-bit address and command, MSB first"),
	PD_INFO(IR_PROTO_SAMSUNGAH, "samsungah", 0xffffffff, 38000, 450, 225,
		"Samsung AH air conditioner, 48 bits: 16-bit address and command read"),
	PD_INFO(IR_PROTO_RCCAR, "rccar", 0x1fff, 38000, 600, 200,
		"RC car, 13-bit command, LSB first"),
	PD_INFO(IR_PROTO_LGAIR, "lgair", 0xffffff, 38000, 560, 400,
		"LG air conditioner, NEC timing, 28 bits: 8-bit address, 16-bit command, checksum"),
	PD_INFO(IR_PROTO_MELINERA, "melinera", 0xff, 38000, 440, 250,
		"Melinera (Lidl), 8-bit command, pulse and space both code the bit"),
	PD_INFO(IR_PROTO_GREE, "gree", 0xffffffff, 38000, 900, 500,
		"Gree air conditioner, 16-bit address and command, LSB first"),
	PD_INFO(IR_PROTO_IRMP16, "irmp16", 0xffff, 38000, 421, 160,
		"IRMP16 data frames, 16-bit command, LSB first"),
	PD_INFO(IR_PROTO_ROOMBA, "roomba", 0x7f, 38000, 930, 600,
		"iRobot Roomba, 7-bit command, pulse-width"),
	PD_INFO(IR_PROTO_MITSU_HEAVY, "mitsu_heavy", 0xffffffff, 40000, 400, 200,
		"Mitsubishi Heavy air conditioner, 88 bits: 16-bit address and command read"),
	PD_INFO_ND(IR_PROTO_ACP24, "acp24", 0xffff, 38000, 390, 150,
		"Stiebel Eltron ACP24 air conditioner, 70 bits: IRMP's 16-bit command"),
	PD_INFO_ND(IR_PROTO_KATHREIN, "kathrein", 0xf007f, 38000, 210, 150,
		"Kathrein, 4-bit address, 7-bit command, MSB first"),
};

#define PD_COUNT (sizeof(pd_protos) / sizeof(pd_protos[0]))
_Static_assert(sizeof(pd_infos) / sizeof(pd_infos[0]) == PD_COUNT, "one info per row");

enum pd_state {
	STATE_INACTIVE,
	STATE_HEADER_SPACE,
	STATE_BIT_PULSE, /* a bit's pulse, or the stop pulse after the last bit */
	STATE_BIT_SPACE,
	STATE_TRAILER,   /* waiting for end_space of silence */
};

struct pd_one {
	enum pd_state state;
	unsigned count;
	unsigned candidates; /* bit values the current bit's pulse allows: 1 = 0, 2 = 1 */
	uint64_t bits[2];
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

static bool pd_read(const struct pd_proto *p, const uint64_t bits[2], uint64_t *scancode)
{
	if (p->read)
		return p->read(bits, scancode);
	*scancode = (p->addr_len ? pd_get(bits, p->addr_off, p->addr_len, p->msb_first) << 16 : 0) |
		    pd_get(bits, p->cmd_off, p->cmd_len, p->msb_first);
	return true;
}

static void pd_emit(const struct pd_proto *p, struct pd_one *o, struct ir_decode_ctx *ctx)
{
	uint64_t scancode;

	o->state = STATE_INACTIVE;
	if (pd_read(p, o->bits, &scancode))
		ir_decode_emit(ctx, p->id, scancode, 0, o->start_us);
}

/* The last pulse is in: emit now or wait for the silence that proves it. */
static void pd_frame_done(const struct pd_proto *p, struct pd_one *o, struct ir_decode_ctx *ctx)
{
	if (p->end_space)
		o->state = STATE_TRAILER;
	else
		pd_emit(p, o, ctx);
}

static bool pd_header_pulse(const struct pd_proto *p, struct pd_one *o,
			    const struct ir_decode_ctx *ctx, uint32_t dur)
{
	if (!ir_eq_margin(dur, p->header_pulse, p->header_margin))
		return false;
	o->start_us = ir_decode_now(ctx);
	o->count = 0;
	o->bits[0] = o->bits[1] = 0;
	o->state = STATE_HEADER_SPACE;
	return true;
}

/* A pulse where a bit or the stop pulse is due.  False: not this frame. */
static bool pd_bit_pulse(const struct pd_proto *p, struct pd_one *o, struct ir_decode_ctx *ctx,
			 uint32_t dur)
{
	bool pulse_width = p->bit_pulse[0] != p->bit_pulse[1];

	o->candidates = (unsigned)ir_eq_margin(dur, p->bit_pulse[0], p->margin) |
			(unsigned)ir_eq_margin(dur, p->bit_pulse[1], p->margin) << 1;
	if (o->count == p->nbits) {
		/* the stop pulse: either bit pulse will do where they differ */
		if (!ir_eq_margin(dur, p->stop_pulse, p->margin) && !(pulse_width && o->candidates))
			return false;
		pd_frame_done(p, o, ctx);
		return true;
	}
	if (!o->candidates)
		return false;
	if (!p->stop_pulse && o->count + 1 == p->nbits) {
		/* no stop pulse: the last bit's space is the gap, its pulse tells */
		if (o->candidates == 3)
			return false;
		pd_set_bit(o->bits, o->count++, o->candidates == 2);
		pd_frame_done(p, o, ctx);
		return true;
	}
	o->state = STATE_BIT_SPACE;
	return true;
}

static bool pd_bit_space(const struct pd_proto *p, struct pd_one *o, uint32_t dur)
{
	if ((o->candidates & 2) && ir_eq_margin(dur, p->bit_space[1], p->margin))
		pd_set_bit(o->bits, o->count, 1);
	else if (!(o->candidates & 1) || !ir_eq_margin(dur, p->bit_space[0], p->margin))
		return false;
	o->count++;
	o->state = STATE_BIT_PULSE;
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
		if (pulse && pd_bit_pulse(p, o, ctx, dur))
			return;
		break;
	case STATE_BIT_SPACE:
		if (!pulse && pd_bit_space(p, o, dur))
			return;
		break;
	case STATE_TRAILER:
		if (pulse || !ir_geq_margin(dur, p->end_space, p->margin))
			break;
		pd_emit(p, o, ctx);
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

/* The most silence any row waiting in STATE_TRAILER needs: handed that
 * much early, every waiting row is satisfied at once. */
static uint32_t pd_space_deadline(const void *state, const struct ir_decode_ctx *ctx)
{
	const struct pd_dec *d = state;
	uint32_t most = 0;

	for (size_t i = 0; i < PD_COUNT; i++)
		if (d->one[i].state == STATE_TRAILER && ir_decode_enabled(ctx, pd_protos[i].id) &&
		    pd_protos[i].end_space > most)
			most = pd_protos[i].end_space;
	return most;
}

/* The frame of row p for `bits`, ending with its gap. */
static int pd_gen(const struct pd_proto *p, const uint64_t bits[2], struct ir_edge_buf *out)
{
	int ret = ir_edge_buf_pulse(out, p->header_pulse);

	ret |= ir_edge_buf_space(out, p->header_space);
	for (unsigned i = 0; i < p->nbits; i++) {
		unsigned b = pd_bit(bits, i);
		bool last = i + 1 == p->nbits;

		ret |= ir_edge_buf_pulse(out, p->bit_pulse[b]);
		ret |= ir_edge_buf_space(out, last && !p->stop_pulse ? p->gap : p->bit_space[b]);
	}
	if (p->stop_pulse) {
		ret |= ir_edge_buf_pulse(out, p->stop_pulse);
		ret |= ir_edge_buf_space(out, p->gap);
	}
	return ret ? -ENOMEM : 0;
}

static int pd_encode(enum ir_protocol id, uint64_t scancode, unsigned toggle,
		     struct ir_edge_buf *out)
{
	(void)toggle;
	for (size_t i = 0; i < PD_COUNT; i++) {
		const struct pd_proto *p = &pd_protos[i];
		uint64_t bits[2] = { 0, 0 };

		if (p->id != id)
			continue;
		if (p->write) {
			p->write(bits, scancode);
		} else {
			pd_put(bits, p->cmd_off, p->cmd_len, p->msb_first, scancode & 0xffff);
			if (p->addr_len)
				pd_put(bits, p->addr_off, p->addr_len, p->msb_first, scancode >> 16);
		}
		return pd_gen(p, bits, out);
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
	.space_deadline = pd_space_deadline,
	.encode = pd_encode,
};
