/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * biphase.c - the Manchester (bi-phase) protocols that differ only in
 * numbers: an optional header, fixed prefix bits, a fixed number of data
 * bits.  One table row per protocol, one state machine for all of them,
 * one encoder that mirrors it.  A 1 is a pulse half then a space half (all
 * of IRMP's "first pulse is 1" protocols); a row may give pulse and
 * space halves different lengths and margins (IRMP's A1 TV Box: 250 and
 * 150 µs).
 *
 *   frame: [header pulse, header space], prefix bits, data bits, MSB first
 *
 * The decoder turns each edge into one or two half-bits of its level and
 * checks that every bit's halves differ.  A header space may carry the
 * first bit's space half (rcii's prefix 0: 2048 + 512 µs).  Without a
 * header a frame starts with a pulse after IDLE_SPACE of darkness.  The
 * length is fixed, so a frame is certain at its last pulse (a final 1's
 * space half is the gap), unless its row names an `end_space`: rcii's
 * header is Grundig's and Nokia's pre-bit, so it waits for the silence
 * that ends its 11 bits before a longer Nokia frame could pass for it.
 *
 * Timings are IRMP's (irmpprotocols.h, irsnd.c, read for the numbers).
 * Scancode: IRMP's address << 16 | command, fields of the data bits (after
 * the prefix), first received most significant.
 */
#include "ir_family.h"

/* Darkness before a headerless frame: longer than other protocols' header
 * spaces (NEC: 4.5 ms), as for ruwido. */
#define IDLE_SPACE 6000

struct bp_proto {
	enum ir_protocol id;
	uint32_t header_pulse, header_space, header_margin; /* 0: no header */
	uint32_t pulse_half, space_half, margin, space_margin; /* margin: on pulses */
	uint32_t prefix;
	unsigned prefix_len, nbits; /* bits: prefix, then nbits of data */
	unsigned addr_off, addr_len, cmd_off, cmd_len;
	uint32_t end_space; /* silence after the last pulse that ends a frame; 0: none needed */
	uint32_t gap;
	/* Optional own layout: data bits <-> scancode; read() returns false
	 * for a frame that fails the protocol's check. */
	bool (*read)(uint64_t data, uint64_t *scancode);
	uint64_t (*write)(uint64_t scancode);
};

static uint64_t bp_field(uint64_t data, unsigned nbits, unsigned off, unsigned len)
{
	return (data >> (nbits - off - len)) & ((UINT64_C(1) << len) - 1);
}

/* ORTEK (Hama keyboards): 18 bits, 6 address + 2 frame type (IRMP's
 * 8-bit address), 6 command, parity, an unknown bit, then always 1, 0.
 * The fixed pair is checked; irjack sends the parity as the count of 1s
 * in the first 14 bits, mod 2, and the unknown bit as 0. */
#define ORTEK_NBITS 18

static bool ortek_read(uint64_t data, uint64_t *scancode)
{
	if ((data & 3) != 2)
		return false;
	*scancode = bp_field(data, ORTEK_NBITS, 0, 8) << 16 | bp_field(data, ORTEK_NBITS, 8, 6);
	return true;
}

static uint64_t ortek_write(uint64_t scancode)
{
	uint64_t first14 = ((scancode >> 16) & 0xff) << 6 | (scancode & 0x3f);
	unsigned parity = (unsigned)__builtin_popcountll(first14) & 1;

	return first14 << 4 | (uint64_t)parity << 3 | 2;
}

/* Row by row, the same protocols as bp_infos below. */
static const struct bp_proto bp_protos[] = {
	/* ORTEK: 2000/1000 header, 500 µs halves, 18 bits (layout above) */
	{ IR_PROTO_ORTEK, 2000, 1000, 300, 500, 500, 200, 200, 0, 0, ORTEK_NBITS,
	  0, 8, 8, 6, 0, 45000, ortek_read, ortek_write },
	/* RC II (FM8): 512 pulse, 2560 space, 512 µs halves; the 2560 µs
	 * space ends with the space half of a 0 prefix bit, whose pulse half
	 * runs into the first data bit's (IRMP's 1024 µs second start pulse);
	 * 10 data bits, all command.  IRMP repeats frames 117.76 ms apart;
	 * irjack sends 60 ms, inside the 100 ms that `irjack learn` takes
	 * for the end of a press. */
	{ IR_PROTO_RCII, 512, 2048, 300, 512, 512, 200, 200, 0, 1, 10,
	  0, 0, 0, 10, 3 * 512, 60000, NULL, NULL },
	/* Merlin (Pollin 620 185): no header; 210 µs halves; start bits 1 0,
	 * then 9 address and 16 command bits (IRMP's 27-bit frame; IRMP also
	 * takes shorter and longer Merlin commands, 8 bits at a time, which
	 * this row does not) */
	{ IR_PROTO_MERLIN, 0, 0, 0, 210, 210, 100, 100, 2, 2, 25,
	  0, 9, 9, 16, 0, 50000, NULL, NULL },
	/* A1 TV Box: no header; a 250 µs pulse half, a 150 µs space half;
	 * start bits 1 0, then 8 address and 8 command bits (IRMP reads the
	 * 300/340 µs its two start bits make as a pseudo header; irsnd sends
	 * 10AAAAAAAACCCCCCCC).  Margins: a pulse is 250 or 500 µs, a space
	 * 150 or 300, so a space margin under 75 µs keeps them apart (its
	 * info row gives that 70 µs, the tighter of the two). */
	{ IR_PROTO_A1TVBOX, 0, 0, 0, 250, 150, 100, 70, 2, 2, 16,
	  0, 8, 8, 8, 0, 50000, NULL, NULL },
};

#define BP_INFO(ID, NAME, MASK, CARRIER, UNIT, MARGIN, NOT_DEFAULT, SUMMARY)             \
	{                                                                                  \
		.id = ID, .name = NAME, .family = "bp_table", .scancode_mask = MASK,       \
		.carrier_hz = CARRIER, .duty_cycle = 33, .unit_us = UNIT,                  \
		.margin_us = MARGIN, .repeat_period_ms = 125,                              \
		.min_trailing_space_us = 10000, .has_encoder = true,                       \
		.not_default = NOT_DEFAULT, .summary = SUMMARY,                            \
	}

/* Carriers: IRMP's tables give none for these; 38 kHz, its default. */
static const struct ir_protocol_info bp_infos[] = {
	/* rc-core's RC-5 margin reads some ORTEK frames as rc5/rc5_sz; those
	 * wait for the silence after them, ORTEK is certain at its last
	 * pulse, so ORTEK's reading is the one reported where both are on */
	BP_INFO(IR_PROTO_ORTEK, "ortek", 0xff003f, 38000, 500, 200, false,
		"ORTEK/Hama keyboard, 8-bit address, 6-bit command, Manchester"),
	BP_INFO(IR_PROTO_RCII, "rcii", 0x3ff, 38000, 512, 200, false,
		"RC II (FM8), 10-bit command, Manchester"),
	BP_INFO(IR_PROTO_MERLIN, "merlin", 0x1ffffff, 38000, 210, 100, false,
		"Merlin (Pollin), 9-bit address, 16-bit command, Manchester"),
	BP_INFO(IR_PROTO_A1TVBOX, "a1tvbox", 0xff00ff, 38000, 250, 70, false,
		"A1 TV Box, 8-bit address << 16 | 8-bit command, Manchester (250/150 us halves)"),
};

#define BP_COUNT (sizeof(bp_protos) / sizeof(bp_protos[0]))
_Static_assert(sizeof(bp_infos) / sizeof(bp_infos[0]) == BP_COUNT, "one info per row");

enum bp_state {
	STATE_INACTIVE,
	STATE_HEADER_SPACE,
	STATE_HALVES,
	STATE_TRAILER, /* all bits in, waiting for end_space of silence */
};

struct bp_one {
	enum bp_state state;
	unsigned halves;   /* half-bits received */
	bool first_pulse;  /* the level of the current bit's first half */
	uint64_t bits;     /* prefix and data, MSB first as received */
	uint64_t start_us;
};

struct bp_dec {
	struct bp_one one[BP_COUNT];
};

static void bp_reset(void *state)
{
	struct bp_dec *d = state;

	for (size_t i = 0; i < BP_COUNT; i++)
		d->one[i].state = STATE_INACTIVE;
}

static unsigned bp_total(const struct bp_proto *p)
{
	return p->prefix_len + p->nbits;
}

static void bp_emit(const struct bp_proto *p, struct bp_one *o, struct ir_decode_ctx *ctx)
{
	uint64_t data = o->bits & ((UINT64_C(1) << p->nbits) - 1), scancode;

	o->state = STATE_INACTIVE;
	if (o->bits >> p->nbits != p->prefix)
		return;
	if (p->read) {
		if (!p->read(data, &scancode))
			return;
	} else {
		scancode = (p->addr_len ? bp_field(data, p->nbits, p->addr_off, p->addr_len) << 16
					: 0) |
			   bp_field(data, p->nbits, p->cmd_off, p->cmd_len);
	}
	ir_decode_emit(ctx, p->id, scancode, 0, o->start_us);
}

/* One half-bit of level `pulse`.  False: the halves of a bit are equal. */
static bool bp_half(struct bp_one *o, bool pulse)
{
	if (o->halves % 2 == 0) {
		o->first_pulse = pulse;
	} else {
		if (o->first_pulse == pulse)
			return false;
		o->bits = o->bits << 1 | o->first_pulse;
	}
	o->halves++;
	return true;
}

/* An edge inside the bits: one or two halves of its level; the frame is
 * done when all halves are in, or all but a final 1's space half. */
static bool bp_edge(const struct bp_proto *p, struct bp_one *o, struct ir_decode_ctx *ctx,
		    bool pulse, uint32_t dur)
{
	uint32_t half = pulse ? p->pulse_half : p->space_half;
	uint32_t margin = pulse ? p->margin : p->space_margin;
	unsigned want = 2 * bp_total(p), n;

	if (!pulse && o->halves + 1 == want && ir_geq_margin(dur, half, margin))
		return bp_half(o, false); /* the final space half, with the gap */
	if (ir_eq_margin(dur, half, margin))
		n = 1;
	else if (ir_eq_margin(dur, 2 * half, margin))
		n = 2;
	else
		return false;
	if (o->halves + n > want)
		return false;
	for (unsigned i = 0; i < n; i++)
		if (!bp_half(o, pulse))
			return false;
	if (o->halves == want || (pulse && o->halves + 1 == want && o->first_pulse)) {
		if (o->halves + 1 == want)
			bp_half(o, false);
		if (p->end_space)
			o->state = STATE_TRAILER;
		else
			bp_emit(p, o, ctx);
	}
	return true;
}

static bool bp_start(const struct bp_proto *p, struct bp_one *o, struct ir_decode_ctx *ctx,
		     uint32_t dur)
{
	o->start_us = ir_decode_now(ctx);
	o->halves = 0;
	o->bits = 0;
	if (p->header_pulse) {
		if (!ir_eq_margin(dur, p->header_pulse, p->header_margin))
			return false;
		o->state = STATE_HEADER_SPACE;
		return true;
	}
	if (ir_decode_space_before(ctx) < IDLE_SPACE)
		return false;
	o->state = STATE_HALVES;
	if (bp_edge(p, o, ctx, true, dur))
		return true;
	o->state = STATE_INACTIVE;
	return false;
}

/* Why the edge (pulse?, dur) broke row p's frame in o's state
 * (`irjack decode -v`). */
static void bp_why(const struct bp_proto *p, const struct bp_one *o, struct ir_decode_ctx *ctx,
		   bool pulse, uint32_t dur)
{
	const char *name = bp_infos[p - bp_protos].name, *what = pulse ? "pulse" : "space";
	uint32_t half = pulse ? p->pulse_half : p->space_half;
	uint32_t m = pulse ? p->margin : p->space_margin;
	/* edges accepted, at least: an edge holds one or two halves */
	unsigned progress = (p->header_pulse ? 2 : 0) + (o->halves + 1) / 2;

	if (o->state == STATE_INACTIVE && pulse && p->header_pulse)
		ir_decode_why(ctx, 0, "%s: header pulse %u us outside %u-%u", name, dur,
			      p->header_pulse - (p->header_margin < p->header_pulse ? p->header_margin : 0),
			      p->header_pulse + p->header_margin);
	else if (o->state == STATE_INACTIVE)
		return;
	else if (!pulse && dur == IR_DURATION_MAX)
		ir_decode_why(ctx, progress, "%s: silence after %u of %u half-bits", name,
			      o->halves, 2 * bp_total(p));
	else if (o->state == STATE_HEADER_SPACE)
		ir_decode_why(ctx, progress, "%s: header %s %u us: not %u (+-%u)", name, what, dur,
			      p->header_space, p->header_margin);
	else if (o->state == STATE_TRAILER)
		ir_decode_why(ctx, progress,
			      "%s: all bits, then a pulse after %u us: not the silence (>= %u) that ends a frame",
			      name, dur, p->end_space);
	else
		ir_decode_why(ctx, progress,
			      "%s: half-bit %u: %s %u us does not fit (one half %u, two %u, +-%u)",
			      name, o->halves, what, dur, half, 2 * half, m);
}

static void bp_decode_one(const struct bp_proto *p, struct bp_one *o, struct ir_decode_ctx *ctx,
			  bool pulse, uint32_t dur)
{
	switch (o->state) {
	case STATE_INACTIVE:
		if (pulse && bp_start(p, o, ctx, dur))
			return;
		break;
	case STATE_HEADER_SPACE:
		if (pulse)
			break;
		o->state = STATE_HALVES;
		if (ir_eq_margin(dur, p->header_space, p->header_margin))
			return;
		/* the first bit's space half, run into the header space */
		if (ir_eq_margin(dur, p->header_space + p->space_half, p->header_margin) &&
		    bp_half(o, false))
			return;
		break;
	case STATE_HALVES:
		if (bp_edge(p, o, ctx, pulse, dur))
			return;
		break;
	case STATE_TRAILER:
		if (pulse || !ir_geq_margin(dur, p->end_space, p->margin))
			break;
		bp_emit(p, o, ctx);
		return;
	}
	if (ir_decode_wants_why(ctx))
		bp_why(p, o, ctx, pulse, dur);
	o->state = STATE_INACTIVE;
	/* the pulse that broke a frame may start the next one */
	if (pulse && p->header_pulse)
		bp_start(p, o, ctx, dur);
}

static void bp_decode(void *state, struct ir_decode_ctx *ctx, const struct ir_edge *e)
{
	struct bp_dec *d = state;
	bool pulse = e->kind == IR_PULSE;
	uint32_t dur = e->duration;
	const struct ir_protocol_set *enabled = ir_decode_enabled_set(ctx);
	bool why = ir_decode_wants_why(ctx);

	for (size_t i = 0; i < BP_COUNT; i++) {
		if (!ir_protocol_set_has(enabled, bp_protos[i].id))
			continue;
		/* an idle row takes no space: unless its reason is asked
		 * for, only pulses and the rows in a frame are worth the call */
		if (!pulse && !why && d->one[i].state == STATE_INACTIVE)
			continue;
		if (why) /* the row only names whose reason it is */
			ir_decode_set_row(ctx, (unsigned)i);
		bp_decode_one(&bp_protos[i], &d->one[i], ctx, pulse, dur);
	}
}

/* The most silence any row waiting in STATE_TRAILER needs: handed that
 * much early, every waiting row is satisfied at once. */
static uint32_t bp_space_deadline(const void *state, const struct ir_decode_ctx *ctx)
{
	const struct bp_dec *d = state;
	uint32_t most = 0;

	for (size_t i = 0; i < BP_COUNT; i++)
		if (d->one[i].state == STATE_TRAILER && ir_decode_enabled(ctx, bp_protos[i].id) &&
		    bp_protos[i].end_space > most)
			most = bp_protos[i].end_space;
	return most;
}

static int bp_gen(const struct bp_proto *p, uint64_t bits, struct ir_edge_buf *out)
{
	unsigned total = bp_total(p);
	int ret = 0;

	if (p->header_pulse) {
		ret |= ir_edge_buf_pulse(out, p->header_pulse);
		ret |= ir_edge_buf_space(out, p->header_space);
	}
	for (unsigned i = 0; i < total; i++) {
		if ((bits >> (total - 1 - i)) & 1) {
			ret |= ir_edge_buf_pulse(out, p->pulse_half);
			ret |= ir_edge_buf_space(out, p->space_half);
		} else {
			ret |= ir_edge_buf_space(out, p->space_half);
			ret |= ir_edge_buf_pulse(out, p->pulse_half);
		}
	}
	ret |= ir_edge_buf_space(out, p->gap);
	return ret ? -ENOMEM : 0;
}

static int bp_encode(enum ir_protocol id, uint64_t scancode, unsigned toggle,
		     struct ir_edge_buf *out)
{
	(void)toggle;
	for (size_t i = 0; i < BP_COUNT; i++) {
		const struct bp_proto *p = &bp_protos[i];
		uint64_t data;

		if (p->id != id)
			continue;
		if (p->write) {
			data = p->write(scancode);
		} else {
			data = (scancode & ((UINT64_C(1) << p->cmd_len) - 1))
			       << (p->nbits - p->cmd_off - p->cmd_len);
			if (p->addr_len)
				data |= ((scancode >> 16) & ((UINT64_C(1) << p->addr_len) - 1))
					<< (p->nbits - p->addr_off - p->addr_len);
		}
		return bp_gen(p, (uint64_t)p->prefix << p->nbits | data, out);
	}
	return -EINVAL;
}

const struct ir_family ir_family_biphase_table = {
	.name = "bp_table",
	.protocols = bp_infos,
	.protocol_count = BP_COUNT,
	.state_size = sizeof(struct bp_dec),
	.reset = bp_reset,
	.decode = bp_decode,
	.space_deadline = bp_space_deadline,
	.encode = bp_encode,
};
