/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rc6a.c - RC-6 mode 6A frames as IRMP reads them, beyond rc-core's
 * rc6_6a_20/24/32 and rc6_mce: Manchester, a 1 is pulse then space, 444 µs
 * per half-bit, 36 kHz, MSB first (timings as in rc6.c).
 *
 *   header  2664 pulse, 888 space, start bit 1, mode bits 110
 *   trailer bit 0, with 888 µs halves
 *   body    rc6a:   32 bits: 1, a 15-bit customer code, toggle, 15 bits
 *           rc6a28: 28 bits (Sky Q remotes)
 *
 * Only the silence after the last bit tells a body's length.
 *
 * rc6a is what rc-core reads as rc6_6a_32 when the body's top bit is set
 * and the customer is not an MCE one (those are rc6_mce, as in IRMP):
 * IRMP's reading, with bit 15 as the toggle.  Its priority puts it before
 * rc6_6a_32 for the same frame, and its rc-core view is that rc6_6a_32
 * scancode with bit 15 clear, so rc-core keymaps written for toggling
 * remotes apply.  It is left out of the default set: remotes whose bit 15
 * is data, not a toggle, keep rc-core's lossless reading unless a user
 * asks for IRMP's.  Scancode: customer << 16 | command (IRMP's address <<
 * 16 | command).
 *
 * rc6a28 is not an rc-core protocol.  Its scancode is the 28-bit body as
 * sent, as rc-core's rc6_6a_* scancodes are: IRMP reads it through its
 * 32-bit field positions (a 15-bit address, one bit dropped as a toggle,
 * 12 command bits), which loses a bit nothing says is a toggle.
 *
 * IRMP's RC6A20 is rc-core's rc6_6a_20, whose scancode (the body as sent)
 * already says all; it is not repeated here.
 */
#include "ir_family.h"

#define RC6A_UNIT 444                   /* 444.4 µs: 16 cycles of 36 kHz */
#define RC6A_MARGIN (RC6A_UNIT / 2)
#define RC6A_PREFIX_PULSE (6 * RC6A_UNIT)
#define RC6A_PREFIX_SPACE (2 * RC6A_UNIT)
/* The first burst's AGC settling, as rc6.c allows. */
#define RC6A_PREFIX_MARGIN RC6A_UNIT
#define RC6A_TRAILER_HALF (2 * RC6A_UNIT)
#define RC6A_HEADER_NBITS 4             /* start bit and 3 mode bits */
#define RC6A_HEADER 0xe                 /* start bit 1, mode 6 */
#define RC6A28_NBITS 28
#define RC6A_NBITS 32
#define RC6A_LONG_CUSTOMER 0x80000000u  /* body bit 31: a 15-bit customer code follows */
#define RC6A_TOGGLE 0x8000u
#define RC6A_MCE_CUSTOMER 0x000f        /* Microsoft */
#define RC6A_ZOTAC_CUSTOMER 0x0034
#define RC6A_KATHREIN_CUSTOMER 0x0046
/* As rc6.c: the end of a body is two units of darkness at a bit boundary
 * (a frame must end on the same edge as rc6_6a_32's reading of it, for
 * the priority between the two to apply). */
#define RC6A_END_SPACE (2 * RC6A_UNIT)
#define RC6A_TRAILER_SPACE (6 * RC6A_UNIT)
#define RC6A_FRAME_PERIOD 106667        /* as rc6.c */

enum rc6a_state {
	STATE_INACTIVE,
	STATE_PREFIX_SPACE,
	STATE_HEADER_BIT_START,
	STATE_HEADER_BIT_END,
	STATE_TRAILER_START,
	STATE_TRAILER_END,
	STATE_BODY_BIT_START,
	STATE_BODY_BIT_END,
};

/* The states' names, for `irjack decode -v` (ir_decode_why_state()). */
static const char *const rc6a_states[] = {
	"idle", "prefix space", "header bit start", "header bit end", "trailer start", "trailer end", "body bit start", "body bit end",
};

struct rc6a_dec {
	enum rc6a_state state;
	unsigned count;
	uint32_t header;      /* start and mode bits */
	uint32_t body;
	uint64_t start_us;
};

static void rc6a_reset(void *state)
{
	struct rc6a_dec *d = state;

	d->state = STATE_INACTIVE;
}

static bool rc6a_is_mce_customer(uint32_t customer)
{
	return customer == RC6A_MCE_CUSTOMER || customer == RC6A_ZOTAC_CUSTOMER ||
	       customer == RC6A_KATHREIN_CUSTOMER;
}

/* The body so far is a whole frame of an enabled protocol: the silence
 * after it would complete it. */
static bool rc6a_complete(const struct rc6a_dec *d, const struct ir_decode_ctx *ctx,
			  enum ir_protocol *proto)
{
	if (d->count == RC6A28_NBITS) {
		*proto = IR_PROTO_RC6A28;
	} else if (d->count == RC6A_NBITS && (d->body & RC6A_LONG_CUSTOMER) &&
		   !rc6a_is_mce_customer((d->body >> 16) & 0x7fff)) {
		*proto = IR_PROTO_RC6A;
	} else {
		return false;
	}
	return ir_decode_enabled(ctx, *proto);
}

static void rc6a_finish(struct rc6a_dec *d, struct ir_decode_ctx *ctx)
{
	enum ir_protocol proto;

	d->state = STATE_INACTIVE;
	if (!rc6a_complete(d, ctx, &proto))
		return;
	if (proto == IR_PROTO_RC6A28)
		ir_decode_emit(ctx, proto, d->body, 0, d->start_us);
	else
		ir_decode_emit(ctx, proto, d->body & ~(RC6A_LONG_CUSTOMER | RC6A_TOGGLE),
			       !!(d->body & RC6A_TOGGLE), d->start_us);
}

static void rc6a_decode(void *state, struct ir_decode_ctx *ctx, const struct ir_edge *e)
{
	struct rc6a_dec *d = state;
	struct ir_edge ev = *e;
	bool pulse = ev.kind == IR_PULSE;
	enum ir_protocol proto;

	if (!ir_geq_margin(ev.duration, RC6A_UNIT, RC6A_MARGIN))
		goto fail;
again:
	if (!ir_geq_margin(ev.duration, RC6A_UNIT, RC6A_MARGIN))
		return; /* this edge is used up; the rest was jitter */

	switch (d->state) {
	case STATE_INACTIVE:
		if (!pulse || !ir_eq_margin(ev.duration, RC6A_PREFIX_PULSE, RC6A_PREFIX_MARGIN))
			break;
		d->start_us = ir_decode_now(ctx);
		d->state = STATE_PREFIX_SPACE;
		return;

	case STATE_PREFIX_SPACE:
		if (pulse || !ir_eq_margin(ev.duration, RC6A_PREFIX_SPACE, RC6A_MARGIN))
			break;
		d->count = 0;
		d->header = 0;
		d->state = STATE_HEADER_BIT_START;
		return;

	case STATE_HEADER_BIT_START:
		if (!ir_eq_margin(ev.duration, RC6A_UNIT, RC6A_MARGIN))
			break;
		d->header = d->header << 1 | pulse;
		d->count++;
		d->state = STATE_HEADER_BIT_END;
		return;

	case STATE_HEADER_BIT_END:
		d->state = d->count == RC6A_HEADER_NBITS ? STATE_TRAILER_START : STATE_HEADER_BIT_START;
		ir_edge_consume(&ev, RC6A_UNIT);
		goto again;

	case STATE_TRAILER_START:
		/* A 0: dark first. */
		if (pulse || !ir_eq_margin(ev.duration, RC6A_TRAILER_HALF, RC6A_MARGIN) ||
		    d->header != RC6A_HEADER)
			break;
		d->state = STATE_TRAILER_END;
		return;

	case STATE_TRAILER_END:
		if (!ir_geq_margin(ev.duration, RC6A_TRAILER_HALF, RC6A_MARGIN))
			break;
		d->count = 0;
		d->body = 0;
		d->state = STATE_BODY_BIT_START;
		ir_edge_consume(&ev, RC6A_TRAILER_HALF);
		goto again;

	case STATE_BODY_BIT_START:
		if (!pulse && ev.duration >= RC6A_END_SPACE && rc6a_complete(d, ctx, &proto)) {
			rc6a_finish(d, ctx);
			return;
		}
		if (!ir_eq_margin(ev.duration, RC6A_UNIT, RC6A_MARGIN) || d->count >= RC6A_NBITS)
			break;
		d->body = d->body << 1 | pulse;
		d->count++;
		d->state = STATE_BODY_BIT_END;
		return;

	case STATE_BODY_BIT_END:
		d->state = STATE_BODY_BIT_START;
		ir_edge_consume(&ev, RC6A_UNIT);
		goto again;
	}
fail:
	ir_decode_why_state(ctx, "rc6a", rc6a_states, d->state,
			    d->count, e->kind == IR_PULSE, ev.duration);
	d->state = STATE_INACTIVE;
}

static uint32_t rc6a_space_deadline(const void *state, const struct ir_decode_ctx *ctx)
{
	const struct rc6a_dec *d = state;
	enum ir_protocol proto;

	if (!rc6a_complete(d, ctx, &proto))
		return 0;
	if (d->state == STATE_BODY_BIT_START)
		return RC6A_END_SPACE;
	/* After a final 1's pulse: its dark half, then the end. */
	if (d->state == STATE_BODY_BIT_END && (d->body & 1))
		return RC6A_UNIT + RC6A_END_SPACE;
	return 0;
}

static int rc6a_encode(enum ir_protocol p, uint64_t scancode, unsigned toggle,
		       struct ir_edge_buf *out)
{
	uint32_t body;
	unsigned nbits;
	int ret = 0;

	switch (p) {
	case IR_PROTO_RC6A:
		nbits = RC6A_NBITS;
		body = RC6A_LONG_CUSTOMER | (uint32_t)(scancode & 0x7fff7fff) |
		       (toggle ? RC6A_TOGGLE : 0);
		break;
	case IR_PROTO_RC6A28:
		nbits = RC6A28_NBITS;
		body = (uint32_t)(scancode & 0xfffffff);
		break;
	default:
		return -EINVAL;
	}
	ret |= ir_edge_buf_pulse(out, RC6A_PREFIX_PULSE);
	ret |= ir_edge_buf_space(out, RC6A_PREFIX_SPACE);
	if (ret)
		return -ENOMEM;
	ret = ir_gen_manchester(out, RC6A_UNIT, true, RC6A_HEADER_NBITS, RC6A_HEADER);
	if (ret == 0)
		ret = ir_gen_manchester(out, RC6A_TRAILER_HALF, true, 1, 0);
	if (ret == 0)
		ret = ir_gen_manchester(out, RC6A_UNIT, true, nbits, body);
	if (ret == 0)
		ret = ir_edge_buf_space(out, RC6A_TRAILER_SPACE);
	return ret;
}

/* rc6a frames are rc6_6a_32 frames with bit 31 set; bit 15, the toggle,
 * is not in the scancode and reads as 0.  rc-core reports those with an
 * MCE customer code (Microsoft 0x800f, Zotac 0x8034, Kathrein 0x8046 with
 * bit 31) as rc6_mce, whose scancode drops the toggle the same way. */
static bool rc6a_rc_core_view(enum ir_protocol p, uint64_t scancode, enum ir_protocol *rc_proto,
			      uint64_t *rc_scancode)
{
	uint64_t customer = (scancode >> 16) & 0x7fff;

	if (p != IR_PROTO_RC6A)
		return false;
	*rc_proto = customer == 0x000f || customer == 0x0034 || customer == 0x0046
			    ? IR_PROTO_RC6_MCE
			    : IR_PROTO_RC6_6A_32;
	*rc_scancode = RC6A_LONG_CUSTOMER | (scancode & 0x7fff7fff);
	return true;
}

/* Philips specifies a 25-50 % duty cycle. */
#define RC6A_INFO(ID, NAME, MASK, TOGGLE, NOT_DEFAULT, PRIORITY, SUMMARY)                  \
	{                                                                                  \
		.id = ID, .name = NAME, .family = "rc6a", .scancode_mask = MASK,           \
		.carrier_hz = 36000, .duty_cycle = 25, .unit_us = RC6A_UNIT,               \
		.margin_us = RC6A_MARGIN, .repeat_period_ms = 114,                         \
		.frame_period_us = RC6A_FRAME_PERIOD,                                      \
		.min_trailing_space_us = RC6A_TRAILER_SPACE, .has_toggle = TOGGLE,         \
		.has_encoder = true, .not_default = NOT_DEFAULT, .priority = PRIORITY,     \
		.summary = SUMMARY,                                                        \
	}

static const struct ir_protocol_info rc6a_infos[] = {
	RC6A_INFO(IR_PROTO_RC6A, "rc6a", 0x7fff7fff, true, true, 1,
		  "RC-6A 32 bits as IRMP reads them: 15-bit customer, toggle in bit 15"),
	RC6A_INFO(IR_PROTO_RC6A28, "rc6a28", 0xfffffff, false, false, 0,
		  "RC-6 mode 6A, 28 bits (Sky Q)"),
};

const struct ir_family ir_family_rc6a = {
	.name = "rc6a",
	.protocols = rc6a_infos,
	.protocol_count = sizeof(rc6a_infos) / sizeof(rc6a_infos[0]),
	.state_size = sizeof(struct rc6a_dec),
	.reset = rc6a_reset,
	.decode = rc6a_decode,
	.space_deadline = rc6a_space_deadline,
	.encode = rc6a_encode,
	.rc_core_view = rc6a_rc_core_view,
};
