/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * netbox.c - Netbox keyboards (IRMP's netbox): bit-serial, like a UART on
 * light.  A 2400 µs start pulse and an 800 µs space, then 16 slots of
 * 800 µs each, light for a 1 and dark for a 0, LSB first; no stop bit.
 *
 *   frame: 2400 pulse, 800 space, 16 × 800 µs slots, then the gap
 *
 * Runs of equal bits merge into one edge, so each edge stands for a whole
 * number of slots (the header space takes the first bit's dark slots too,
 * and the gap the last zeros).  The frame is certain when the 16th slot
 * is in: at the end of a pulse that fills it, or once the dark after the
 * last pulse is longer than the slots left (space_deadline).
 *
 * Timings from IRMP's irmpprotocols.h (read for the numbers).  Scancode:
 * IRMP's address (3 bits) << 16 | command (13 bits).
 */
#include "ir_family.h"

#define NETBOX_HEADER_PULSE 2400
#define NETBOX_HEADER_SPACE 800
#define NETBOX_SLOT 800
#define NETBOX_NBITS 16
#define NETBOX_ADDRESS_BITS 3
/* Less than Sony's 600 µs units are from the 800 µs slot (200), so
 * Sony's bits never fit a slot; wide for a receiver's stretch. */
#define NETBOX_MARGIN 150
/* Narrower than RC-5's double pulse (1778) and Nikon's 2200 µs header
 * pulse can reach */
#define NETBOX_HEADER_MARGIN 180
#define NETBOX_GAP 35000 /* IRMP: repeat after 35 ms */

enum netbox_state {
	STATE_INACTIVE,
	STATE_HEADER_SPACE,
	STATE_SLOTS,
};

/* The states' names, for `irjack decode -v` (ir_decode_why_state()). */
static const char *const netbox_states[] = {
	"idle", "header space", "slots",
};

struct netbox_dec {
	enum netbox_state state;
	unsigned count; /* slots received */
	uint32_t bits;  /* bit i = slot i */
	uint64_t start_us;
};

static void netbox_reset(void *state)
{
	struct netbox_dec *d = state;

	d->state = STATE_INACTIVE;
}

static void netbox_emit(struct netbox_dec *d, struct ir_decode_ctx *ctx)
{
	d->state = STATE_INACTIVE;
	ir_decode_emit(ctx, IR_PROTO_NETBOX,
		       (uint64_t)(d->bits & 0x7) << 16 | (d->bits >> NETBOX_ADDRESS_BITS), 0,
		       d->start_us);
}

/* `dur` of light (1s) or dark (0s): a whole number of slots, all of them
 * inside the frame, except that a space after a 1 may run on into the gap
 * once it has covered the slots left.  (The header space may not: a
 * header and silence would be any long pulse, a Nikon or RC-5 one, read
 * as an all-zero frame; that frame is not decoded.) */
static bool netbox_slots(struct netbox_dec *d, struct ir_decode_ctx *ctx, bool pulse,
			 uint32_t dur, bool may_end)
{
	unsigned left = NETBOX_NBITS - d->count;
	uint32_t n = (dur + NETBOX_SLOT / 2) / NETBOX_SLOT;

	if (!pulse && may_end && ir_geq_margin(dur, left * NETBOX_SLOT, NETBOX_MARGIN)) {
		netbox_emit(d, ctx); /* the rest are zeros */
		return true;
	}
	if (n == 0 || n >= left + pulse || !ir_eq_margin(dur, n * NETBOX_SLOT, NETBOX_MARGIN))
		return false;
	if (pulse)
		d->bits |= ((UINT32_C(1) << n) - 1) << d->count;
	d->count += n;
	if (d->count == NETBOX_NBITS)
		netbox_emit(d, ctx);
	return true;
}

static bool netbox_header(struct netbox_dec *d, const struct ir_decode_ctx *ctx, uint32_t dur)
{
	if (!ir_eq_margin(dur, NETBOX_HEADER_PULSE, NETBOX_HEADER_MARGIN))
		return false;
	d->start_us = ir_decode_now(ctx);
	d->count = 0;
	d->bits = 0;
	d->state = STATE_HEADER_SPACE;
	return true;
}

static void netbox_decode(void *state, struct ir_decode_ctx *ctx, const struct ir_edge *e)
{
	struct netbox_dec *d = state;
	bool pulse = e->kind == IR_PULSE;
	uint32_t dur = e->duration;

	switch (d->state) {
	case STATE_INACTIVE:
		if (pulse && netbox_header(d, ctx, dur))
			return;
		break;
	case STATE_HEADER_SPACE:
		/* the header's 800 µs, then the first bits' dark slots */
		if (pulse || !ir_geq_margin(dur, NETBOX_HEADER_SPACE, NETBOX_MARGIN))
			break;
		d->state = STATE_SLOTS;
		if (ir_eq_margin(dur, NETBOX_HEADER_SPACE, NETBOX_MARGIN) ||
		    netbox_slots(d, ctx, false, dur - NETBOX_HEADER_SPACE, false))
			return;
		break;
	case STATE_SLOTS:
		if (netbox_slots(d, ctx, pulse, dur, true))
			return;
		break;
	}
	ir_decode_why_state(ctx, "netbox", netbox_states, d->state,
			    d->count, e->kind == IR_PULSE, dur);
	d->state = STATE_INACTIVE;
	if (pulse)
		netbox_header(d, ctx, dur);
}

/* After a pulse inside the frame: the dark that would fill the slots left. */
static uint32_t netbox_space_deadline(const void *state, const struct ir_decode_ctx *ctx)
{
	const struct netbox_dec *d = state;

	if (d->state != STATE_SLOTS || !ir_decode_enabled(ctx, IR_PROTO_NETBOX))
		return 0;
	return (NETBOX_NBITS - d->count) * NETBOX_SLOT + NETBOX_MARGIN;
}

static int netbox_encode(enum ir_protocol p, uint64_t scancode, unsigned toggle,
			 struct ir_edge_buf *out)
{
	uint32_t bits = (uint32_t)(scancode >> 16 & 0x7) |
			(uint32_t)(scancode & 0x1fff) << NETBOX_ADDRESS_BITS;
	int ret;

	(void)toggle;
	if (p != IR_PROTO_NETBOX)
		return -EINVAL;
	ret = ir_edge_buf_pulse(out, NETBOX_HEADER_PULSE);
	ret |= ir_edge_buf_space(out, NETBOX_HEADER_SPACE);
	for (unsigned i = 0; i < NETBOX_NBITS; i++)
		ret |= (bits >> i & 1) ? ir_edge_buf_pulse(out, NETBOX_SLOT)
				       : ir_edge_buf_space(out, NETBOX_SLOT);
	ret |= ir_edge_buf_space(out, NETBOX_GAP);
	return ret ? -ENOMEM : 0;
}

static const struct ir_protocol_info netbox_infos[] = {
	{
		.id = IR_PROTO_NETBOX, .name = "netbox", .family = "netbox",
		.scancode_mask = 0x71fff, /* 0 (a bare header) is not decodable */ .carrier_hz = 38000, .duty_cycle = 33,
		.unit_us = NETBOX_SLOT, .margin_us = NETBOX_MARGIN, .repeat_period_ms = 125,
		.min_trailing_space_us = 10000, .has_encoder = true,
		/* a Roomba frame at its margins fits the start bit and slots */
		.not_default = true,
		.summary = "Netbox keyboard, bit-serial 800 µs slots: 3-bit address, 13-bit command",
	},
};

const struct ir_family ir_family_netbox = {
	.name = "netbox",
	.protocols = netbox_infos,
	.protocol_count = 1,
	.state_size = sizeof(struct netbox_dec),
	.reset = netbox_reset,
	.decode = netbox_decode,
	.space_deadline = netbox_space_deadline,
	.encode = netbox_encode,
};
