/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ruwido.c - Ruwido (r-step remotes, e.g. T-Home's Mediareceiver) and
 * Siemens (Gigaset): Manchester, a 1 is pulse then space, 275 µs per
 * half-bit, MSB first, 36 kHz, no header.
 *
 *   ruwido:  start bit (1), 9 address bits, 7 command bits, check bit
 *   siemens: start bit (1), 11 address bits, 10 command bits, check bit
 *
 * The check bit is the inverse of the command's last bit.  A Ruwido frame
 * is the start of a Siemens one: only the silence after its 18th bit ends
 * it.  A Siemens frame waits for the silence after its 23rd bit too: the
 * half-bit margin reads the first 23 bits of longer Manchester trains
 * (Merlin's 27 bits of 210 µs halves), and a frame is only certain when
 * its length is.  With no header, a frame may only start after darkness.
 *
 * Scancodes are IRMP's address << 16 | command, without the check bit.
 */
#include "ir_family.h"

#define RUWIDO_UNIT 275                 /* half-bit */
#define RUWIDO_MARGIN (RUWIDO_UNIT / 2)
#define RUWIDO_NBITS 18                 /* with the start bit */
#define SIEMENS_NBITS 23
#define RUWIDO_ADDRESS_BITS 9
#define SIEMENS_ADDRESS_BITS 11
/* Inside a frame the line is dark at a bit boundary for at most one
 * half-bit (a 0's first half, 275 + margin = 412): two half-bits of
 * darkness there end the frame.  After a final 1's pulse that is its dark
 * half and then these two. */
#define RUWIDO_END_SPACE (2 * RUWIDO_UNIT)
/* No header: any 275 µs pulse could start a frame, so one only starts
 * after more darkness than other protocols' header spaces (NEC: 4.5 ms);
 * held keys repeat the frame ~45 ms later. */
#define RUWIDO_IDLE_SPACE 6000
#define RUWIDO_REPEAT_SPACE 45000       /* IRMP's pause between repeated frames */

enum ruwido_state {
	STATE_INACTIVE,
	STATE_BIT_START,
	STATE_BIT_END,
};

/* The states' names, for `irjack decode -v` (ir_decode_why_state()). */
static const char *const ruwido_states[] = {
	"idle", "bit start", "bit end",
};

struct ruwido_dec {
	enum ruwido_state state;
	unsigned count;
	uint32_t bits;        /* MSB first as received */
	uint64_t start_us;
};

static void ruwido_reset(void *state)
{
	struct ruwido_dec *d = state;

	d->state = STATE_INACTIVE;
}

/* The bits so far form a frame of an enabled protocol with a valid check
 * bit. */
static bool ruwido_complete(const struct ruwido_dec *d, const struct ir_decode_ctx *ctx,
			    enum ir_protocol *proto)
{
	if (d->count == RUWIDO_NBITS)
		*proto = IR_PROTO_RUWIDO;
	else if (d->count == SIEMENS_NBITS)
		*proto = IR_PROTO_SIEMENS;
	else
		return false;
	return ((d->bits ^ d->bits >> 1) & 1) && ir_decode_enabled(ctx, *proto);
}

static void ruwido_finish(struct ruwido_dec *d, struct ir_decode_ctx *ctx)
{
	enum ir_protocol proto;
	unsigned abits;
	uint32_t body;

	d->state = STATE_INACTIVE;
	if (!ruwido_complete(d, ctx, &proto)) {
		ir_decode_why(ctx, 1 + 2 * d->count,
			      "ruwido: %u bits then silence: not Ruwido (18) or Siemens (23) with a right check bit, or not enabled",
			      d->count);
		return;
	}
	abits = proto == IR_PROTO_RUWIDO ? RUWIDO_ADDRESS_BITS : SIEMENS_ADDRESS_BITS;
	body = d->bits >> 1; /* without the check bit */
	body &= (UINT32_C(1) << (d->count - 2)) - 1; /* and the start bit */
	ir_decode_emit(ctx, proto,
		       (uint64_t)(body >> (d->count - 2 - abits)) << 16 |
			       (body & ((UINT32_C(1) << (d->count - 2 - abits)) - 1)),
		       0, d->start_us);
}

static void ruwido_decode(void *state, struct ir_decode_ctx *ctx, const struct ir_edge *e)
{
	struct ruwido_dec *d = state;
	struct ir_edge ev = *e;
	bool pulse = ev.kind == IR_PULSE;

	if (!ir_geq_margin(ev.duration, RUWIDO_UNIT, RUWIDO_MARGIN))
		goto fail;
again:
	if (!ir_geq_margin(ev.duration, RUWIDO_UNIT, RUWIDO_MARGIN))
		return; /* this edge is used up; the rest was jitter */

	switch (d->state) {
	case STATE_INACTIVE:
		/* The start bit's pulse half. */
		if (!pulse || !ir_eq_margin(ev.duration, RUWIDO_UNIT, RUWIDO_MARGIN) ||
		    ir_decode_space_before(ctx) < RUWIDO_IDLE_SPACE)
			break;
		d->start_us = ir_decode_now(ctx);
		d->count = 1;
		d->bits = 1;
		d->state = STATE_BIT_END;
		return;

	case STATE_BIT_START:
		if (!pulse && ev.duration >= RUWIDO_END_SPACE) {
			ruwido_finish(d, ctx);
			return;
		}
		if (!ir_eq_margin(ev.duration, RUWIDO_UNIT, RUWIDO_MARGIN) || d->count >= SIEMENS_NBITS)
			break;
		d->bits = d->bits << 1 | pulse;
		d->count++;
		d->state = STATE_BIT_END;
		return;

	case STATE_BIT_END:
		d->state = STATE_BIT_START;
		ir_edge_consume(&ev, RUWIDO_UNIT);
		goto again;
	}
fail:
	ir_decode_why_state(ctx, "ruwido", ruwido_states, d->state,
			    d->count, e->kind == IR_PULSE, ev.duration);
	d->state = STATE_INACTIVE;
}

static uint32_t ruwido_space_deadline(const void *state, const struct ir_decode_ctx *ctx)
{
	const struct ruwido_dec *d = state;
	enum ir_protocol proto;

	if (!ruwido_complete(d, ctx, &proto))
		return 0;
	if (d->state == STATE_BIT_START)
		return RUWIDO_END_SPACE;
	/* After a final 1's pulse: its dark half, then the end. */
	if (d->state == STATE_BIT_END && (d->bits & 1))
		return RUWIDO_UNIT + RUWIDO_END_SPACE;
	return 0;
}

static int ruwido_encode(enum ir_protocol p, uint64_t scancode, unsigned toggle,
			 struct ir_edge_buf *out)
{
	uint32_t address = (scancode >> 16) & 0x7ff;
	uint32_t command = scancode & 0x3ff;
	uint32_t check = ~command & 1;

	(void)toggle;
	switch (p) {
	case IR_PROTO_RUWIDO:
		return ir_gen_manchester(out, RUWIDO_UNIT, true, RUWIDO_NBITS,
					 1u << 17 | (address & 0x1ff) << 8 | (command & 0x7f) << 1 | check);
	case IR_PROTO_SIEMENS:
		return ir_gen_manchester(out, RUWIDO_UNIT, true, SIEMENS_NBITS,
					 1u << 22 | address << 11 | command << 1 | check);
	default:
		return -EINVAL;
	}
}

#define RUWIDO_INFO(ID, NAME, MASK, SUMMARY)                                               \
	{                                                                                  \
		.id = ID, .name = NAME, .family = "ruwido", .scancode_mask = MASK,         \
		.carrier_hz = 36000, .duty_cycle = 33, .unit_us = RUWIDO_UNIT,             \
		.margin_us = RUWIDO_MARGIN, .repeat_period_ms = 125, .frame_period_us = 0, \
		.min_trailing_space_us = RUWIDO_REPEAT_SPACE, .has_toggle = false,         \
		.has_encoder = true, .summary = SUMMARY,                                   \
	}

static const struct ir_protocol_info ruwido_infos[] = {
	RUWIDO_INFO(IR_PROTO_RUWIDO, "ruwido", 0x1ff007f,
		    "Ruwido r-step, 9-bit address, 7-bit command, Manchester"),
	RUWIDO_INFO(IR_PROTO_SIEMENS, "siemens", 0x7ff03ff,
		    "Siemens Gigaset, 11-bit address, 10-bit command, Ruwido timing"),
};

const struct ir_family ir_family_ruwido = {
	.name = "ruwido",
	.protocols = ruwido_infos,
	.protocol_count = sizeof(ruwido_infos) / sizeof(ruwido_infos[0]),
	.state_size = sizeof(struct ruwido_dec),
	.reset = ruwido_reset,
	.decode = ruwido_decode,
	.space_deadline = ruwido_space_deadline,
	.encode = ruwido_encode,
};
