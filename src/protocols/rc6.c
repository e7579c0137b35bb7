/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rc6.c - Philips RC-6 mode 0 and mode 6A (RC-6A, and its Windows Media
 * Center flavour): Manchester, a 1 is pulse then space, 444 µs per half-bit,
 * 36 kHz, sent MSB first, repeated whole (same toggle) while held.
 *
 *   header  2664 pulse, 888 space
 *   start bit (always 1), 3 mode bits (0 or 6)
 *   trailer bit with 888 µs halves: the toggle in mode 0, always 0 in 6A
 *   body    mode 0: 16 bits (address, command)
 *           mode 6A: 20, 24 or 32 bits; only the silence after the last
 *           bit tells which
 *
 * Scancodes follow rc-core: rc6_0 address<<8 | command, rc6_6a_20/24/32 the
 * body as sent.  A 32-bit body whose top 16 bits are an MCE customer code
 * (Microsoft 0x800f, Zotac 0x8034, Kathrein 0x8046) is rc6_mce instead:
 * body bit 15 is its toggle, and is cleared in the scancode.
 *
 * The same machine reads mode 6A as IRMP does (was rc6a.c):
 *   rc6a:   32 bits: 1, a 15-bit customer code, toggle, 15 bits
 *   rc6a28: 28 bits (Sky Q remotes)
 * rc6a is what rc-core reads as rc6_6a_32 when the body's top bit is set
 * and the customer is not an MCE one (those are rc6_mce, as in IRMP):
 * IRMP's reading, with bit 15 as the toggle.  Both readings are reported
 * at the same edge and the priority puts rc6a first; its rc-core view is
 * that rc6_6a_32 scancode with bit 15 clear, so rc-core keymaps written
 * for toggling remotes apply.  It is left out of the default set: remotes
 * whose bit 15 is data, not a toggle, keep rc-core's lossless reading
 * unless a user asks for IRMP's.  Scancode: customer << 16 | command
 * (IRMP's address << 16 | command).  rc6a28 is not an rc-core protocol;
 * its scancode is the 28-bit body as sent, as rc-core's rc6_6a_* are
 * (IRMP reads it through its 32-bit field positions, which loses a bit
 * nothing says is a toggle).  IRMP's RC6A20 is rc-core's rc6_6a_20.
 */
#include "ir_family.h"

#define RC6_UNIT 444                 /* 444.4 µs: 16 cycles of 36 kHz */
#define RC6_MARGIN (RC6_UNIT / 2)
#define RC6_PREFIX_PULSE (6 * RC6_UNIT)
#define RC6_PREFIX_SPACE (2 * RC6_UNIT)
/* A receiver's AGC needs a few carrier cycles to settle on the first pulse,
 * so it comes out short or long; rc-core allows a whole unit there. */
#define RC6_PREFIX_MARGIN RC6_UNIT
#define RC6_TOGGLE_HALF (2 * RC6_UNIT) /* the trailer bit is twice as long */
#define RC6_HEADER_NBITS 4             /* start bit and 3 mode bits */
#define RC6_START_BIT 0x8
#define RC6_MODE_MASK 0x7
#define RC6_0_NBITS 16
#define RC6_6A_20_NBITS 20
#define RC6_6A_24_NBITS 24
#define RC6_6A_32_NBITS 32
#define RC6_MCE_TOGGLE 0x8000u
#define RC6_CUSTOMER_MASK 0xffff0000u
#define RC6_MCE_CUSTOMER 0x800f0000u      /* Microsoft */
#define RC6_ZOTAC_CUSTOMER 0x80340000u
#define RC6_KATHREIN_CUSTOMER 0x80460000u /* Kathrein RCU-676 */
#define RC6A28_NBITS 28
#define RC6A_LONG_CUSTOMER 0x80000000u  /* body bit 31: a 15-bit customer code follows */
#define RC6A_TOGGLE 0x8000u
#define RC6_TRAILER_SPACE (6 * RC6_UNIT)  /* rc-core's minimum gap */
/* Held keys resend the frame every 240 units (106.7 ms): lircd.conf files
 * of MCE and Philips RC-6 remotes measure 105-107 ms (CONST_LENGTH gaps). */
#define RC6_FRAME_PERIOD 106667
/* A mode 6A body ends where no next bit starts.  Inside a frame the line is
 * dark for at most one half-bit past a bit boundary (444 + margin = 666:
 * the first half of a 0), so two units of darkness there (888) end the
 * frame: 888 after a final 0's pulse, 1332 after a final 1's pulse (its own
 * dark half first).  rc-core waits for 6 units (2444 with margin). */
#define RC6_END_SPACE (2 * RC6_UNIT)

enum rc6_mode {
	RC6_MODE_0,
	RC6_MODE_6A,
	RC6_MODE_UNKNOWN,
};

/* The leader: RC-6's prefix, start bit and 3 mode bits (rc6_leader.c). */
static const struct ir_rc6_leader_params rc6_leader = {
	.unit = RC6_UNIT, .margin = RC6_MARGIN,
	.prefix_pulse = RC6_PREFIX_PULSE, .prefix_margin = RC6_PREFIX_MARGIN,
	.prefix_space = RC6_PREFIX_SPACE, .nbits = RC6_HEADER_NBITS,
};

enum rc6_state {
	STATE_INACTIVE, /* in the leader (idle, or part of the way) */
	STATE_TOGGLE_START = IR_RC6_LEADER_STATES,
	STATE_TOGGLE_END,
	STATE_BODY, /* the body's bit start, or (body.mid) end: the next name */
};

/* The states' names, for `irjack decode -v` (ir_decode_why_state()). */
static const char *const rc6_states[] = {
	"idle", "prefix space", "header bit start", "header bit end", "toggle start", "toggle end", "body bit start", "body bit end",
};

struct rc6_dec {
	enum rc6_state state;
	struct ir_rc6_leader leader;
	unsigned header;  /* start bit and mode bits, MSB first */
	bool toggle;      /* the trailer bit */
	/* the body's bits; before it, count is the header's (for reasons) */
	struct ir_manchester body;
	uint64_t start_us;
};

static void rc6_reset(void *state)
{
	struct rc6_dec *d = state;

	d->state = STATE_INACTIVE;
	d->leader.state = 0;
}

static enum rc6_mode rc6_mode(const struct rc6_dec *d)
{
	switch (d->header & RC6_MODE_MASK) {
	case 0:
		return RC6_MODE_0;
	case 6:
		/* rc-core only knows 6A frames with a 0 trailer bit. */
		return d->toggle ? RC6_MODE_UNKNOWN : RC6_MODE_6A;
	default:
		return RC6_MODE_UNKNOWN;
	}
}

static unsigned rc6_max_bits(const struct rc6_dec *d)
{
	return rc6_mode(d) == RC6_MODE_0 ? RC6_0_NBITS : RC6_6A_32_NBITS;
}

static bool rc6_is_mce_customer(uint64_t bits)
{
	switch (bits & RC6_CUSTOMER_MASK) {
	case RC6_MCE_CUSTOMER:
	case RC6_ZOTAC_CUSTOMER:
	case RC6_KATHREIN_CUSTOMER:
		return true;
	default:
		return false;
	}
}

/* The 32 body bits of an MCE frame: the scancode with the toggle in bit 15. */
static uint32_t rc6_mce_body(uint64_t scancode, unsigned toggle)
{
	return ((uint32_t)scancode & ~RC6_MCE_TOGGLE) | (toggle ? RC6_MCE_TOGGLE : 0);
}

/* rc-core's protocol, scancode and toggle for the bits so far, if they form
 * a frame it reports. */
static bool rc6_scancode(const struct rc6_dec *d, enum ir_protocol *proto, uint64_t *scancode,
			 unsigned *toggle)
{
	*scancode = d->body.bits;
	*toggle = 0;
	switch (rc6_mode(d)) {
	case RC6_MODE_0:
		if (d->body.count != RC6_0_NBITS)
			return false;
		*proto = IR_PROTO_RC6_0;
		*toggle = d->toggle;
		return true;
	case RC6_MODE_6A:
		switch (d->body.count) {
		case RC6_6A_20_NBITS:
			*proto = IR_PROTO_RC6_6A_20;
			return true;
		case RC6_6A_24_NBITS:
			*proto = IR_PROTO_RC6_6A_24;
			return true;
		case RC6_6A_32_NBITS:
			*proto = IR_PROTO_RC6_6A_32;
			if (rc6_is_mce_customer(d->body.bits)) {
				*proto = IR_PROTO_RC6_MCE;
				*toggle = !!(d->body.bits & RC6_MCE_TOGGLE);
				*scancode = d->body.bits & ~RC6_MCE_TOGGLE;
			}
			return true;
		default:
			return false;
		}
	default:
		return false;
	}
}

/* The bits so far form a whole 6A frame of an enabled protocol: the
 * silence after them would complete it. */
static bool rc6_6a_complete(const struct rc6_dec *d, const struct ir_decode_ctx *ctx)
{
	enum ir_protocol proto;
	uint64_t scancode;
	unsigned toggle;

	return rc6_mode(d) == RC6_MODE_6A && rc6_scancode(d, &proto, &scancode, &toggle) &&
	       ir_decode_enabled(ctx, proto);
}

/* IRMP's reading of the mode 6A body so far, if it is a whole frame of an
 * enabled protocol (rc6a, rc6a28). */
static bool rc6a_complete(const struct rc6_dec *d, const struct ir_decode_ctx *ctx,
			  enum ir_protocol *proto)
{
	if (rc6_mode(d) != RC6_MODE_6A)
		return false;
	if (d->body.count == RC6A28_NBITS)
		*proto = IR_PROTO_RC6A28;
	else if (d->body.count == RC6_6A_32_NBITS && (d->body.bits & RC6A_LONG_CUSTOMER) &&
		 !rc6_is_mce_customer(d->body.bits))
		*proto = IR_PROTO_RC6A;
	else
		return false;
	return ir_decode_enabled(ctx, *proto);
}

/* Either reading of a mode 6A body is a whole frame: the silence after it
 * completes it. */
static bool rc6_any_complete(const struct rc6_dec *d, const struct ir_decode_ctx *ctx)
{
	enum ir_protocol proto;

	return rc6_6a_complete(d, ctx) || rc6a_complete(d, ctx, &proto);
}

/* Reports the frame in every reading that takes it (rc-core's, IRMP's:
 * the priority picks), and goes idle. */
static void rc6_finish(struct rc6_dec *d, struct ir_decode_ctx *ctx)
{
	enum ir_protocol proto;
	uint64_t scancode;
	unsigned toggle;

	if (rc6_scancode(d, &proto, &scancode, &toggle))
		ir_decode_emit(ctx, proto, scancode, toggle, d->start_us);
	if (rc6a_complete(d, ctx, &proto) && proto == IR_PROTO_RC6A28)
		ir_decode_emit(ctx, proto, d->body.bits, 0, d->start_us);
	else if (rc6a_complete(d, ctx, &proto))
		ir_decode_emit(ctx, proto, d->body.bits & ~(RC6A_LONG_CUSTOMER | RC6A_TOGGLE),
			       !!(d->body.bits & RC6A_TOGGLE), d->start_us);
	d->state = STATE_INACTIVE;
}

static void rc6_decode(void *state, struct ir_decode_ctx *ctx, const struct ir_edge *e)
{
	struct rc6_dec *d = state;
	struct ir_edge ev = *e;
	bool pulse = ev.kind == IR_PULSE;
	enum ir_rc6_leader_step step;

	if (!ir_geq_margin(ev.duration, RC6_UNIT, RC6_MARGIN))
		goto fail;
again:
	if (!ir_geq_margin(ev.duration, RC6_UNIT, RC6_MARGIN))
		return; /* this edge is used up; the rest was jitter */

	switch (d->state) {
	case STATE_INACTIVE:
		step = ir_rc6_leader_feed(&d->leader, &rc6_leader, ctx, &ev);
		if (step == IR_RC6_LEADER_FAIL)
			break;
		if (step == IR_RC6_LEADER_MORE)
			return;
		d->start_us = d->leader.start_us;
		d->header = d->leader.header;
		d->body.count = d->leader.count;
		d->state = STATE_TOGGLE_START;
		goto again;

	case STATE_TOGGLE_START:
		if (!ir_eq_margin(ev.duration, RC6_TOGGLE_HALF, RC6_MARGIN))
			break;
		d->toggle = pulse;
		d->state = STATE_TOGGLE_END;
		return;

	case STATE_TOGGLE_END:
		if (!ir_geq_margin(ev.duration, RC6_TOGGLE_HALF, RC6_MARGIN) ||
		    !(d->header & RC6_START_BIT) || rc6_mode(d) == RC6_MODE_UNKNOWN)
			break;
		d->body = (struct ir_manchester){ 0 };
		d->state = STATE_BODY;
		ir_edge_consume(&ev, RC6_TOGGLE_HALF);
		goto again;

	case STATE_BODY:
		/* mode 6A's length is its silence */
		if (!d->body.mid && !pulse && ev.duration >= RC6_END_SPACE &&
		    rc6_any_complete(d, ctx)) {
			rc6_finish(d, ctx);
			return;
		}
		/* mode 0 always has RC6_0_NBITS: its frame ends with its last bit */
		switch (ir_manchester_feed(&d->body, RC6_UNIT, RC6_MARGIN, rc6_max_bits(d),
					   rc6_mode(d) == RC6_MODE_0 ? RC6_0_NBITS : 0, &ev)) {
		case IR_MANCHESTER_FAIL:
			goto fail;
		case IR_MANCHESTER_DONE:
			rc6_finish(d, ctx);
			return;
		case IR_MANCHESTER_AGAIN:
			goto again;
		case IR_MANCHESTER_NEXT:
			return;
		}
	}
fail:
	if (d->state == STATE_INACTIVE) /* the leader's state names come first */
		ir_decode_why_state(ctx, "rc6", rc6_states, d->leader.state, d->leader.count,
				    e->kind == IR_PULSE, ev.duration);
	else
		ir_decode_why_state(ctx, "rc6", rc6_states,
				    d->state + (d->state == STATE_BODY && d->body.mid),
				    d->body.count, e->kind == IR_PULSE, ev.duration);
	d->state = STATE_INACTIVE;
	d->leader.state = 0;
}

static uint32_t rc6_space_deadline(const void *state, const struct ir_decode_ctx *ctx)
{
	const struct rc6_dec *d = state;

	if (!rc6_any_complete(d, ctx))
		return 0;
	if (d->state == STATE_BODY && !d->body.mid)
		return RC6_END_SPACE;
	/* After a final 1's pulse: its dark half, then the end. */
	if (d->state == STATE_BODY && d->body.mid && (d->body.bits & 1))
		return RC6_UNIT + RC6_END_SPACE;
	return 0;
}

static int rc6_encode(enum ir_protocol p, uint64_t scancode, unsigned toggle,
		      struct ir_edge_buf *out)
{
	unsigned mode = 6, trailer = 0, nbits;
	uint64_t body = scancode;
	int ret = 0;

	switch (p) {
	case IR_PROTO_RC6_0:
		mode = 0;
		trailer = toggle;
		nbits = RC6_0_NBITS;
		break;
	case IR_PROTO_RC6_6A_20:
		nbits = RC6_6A_20_NBITS;
		break;
	case IR_PROTO_RC6_6A_24:
		nbits = RC6_6A_24_NBITS;
		break;
	case IR_PROTO_RC6_6A_32:
		nbits = RC6_6A_32_NBITS;
		/* With an MCE customer code this is an rc6_mce frame to every
		 * receiver, bit 15 being its toggle (rc-core refuses to send
		 * such rc6_6a_32 codes): send it as one. */
		if (rc6_is_mce_customer(scancode))
			body = rc6_mce_body(scancode, toggle);
		break;
	case IR_PROTO_RC6_MCE:
		if (!rc6_is_mce_customer(scancode))
			return -EINVAL;
		nbits = RC6_6A_32_NBITS;
		body = rc6_mce_body(scancode, toggle);
		break;
	case IR_PROTO_RC6A:
		nbits = RC6_6A_32_NBITS;
		body = RC6A_LONG_CUSTOMER | (scancode & 0x7fff7fff) | (toggle ? RC6A_TOGGLE : 0);
		break;
	case IR_PROTO_RC6A28:
		nbits = RC6A28_NBITS;
		body = scancode & 0xfffffff;
		break;
	default:
		return -EINVAL;
	}
	ret |= ir_edge_buf_pulse(out, RC6_PREFIX_PULSE);
	ret |= ir_edge_buf_space(out, RC6_PREFIX_SPACE);
	if (ret)
		return -ENOMEM;
	ret = ir_gen_manchester(out, RC6_UNIT, true, RC6_HEADER_NBITS, RC6_START_BIT | mode);
	if (ret == 0)
		ret = ir_gen_manchester(out, RC6_TOGGLE_HALF, true, 1, trailer);
	if (ret == 0)
		ret = ir_gen_manchester(out, RC6_UNIT, true, nbits, body);
	if (ret == 0)
		ret = ir_edge_buf_space(out, RC6_TRAILER_SPACE);
	return ret;
}

/* Philips specifies a 25-50 % duty cycle. */
#define RC6_INFO(ID, NAME, MASK, TOGGLE, SUMMARY)                                          \
	{                                                                                  \
		.id = ID, .name = NAME, .family = "rc6", .scancode_mask = MASK,            \
		.carrier_hz = 36000, .duty_cycle = 25, .unit_us = RC6_UNIT,                \
		.margin_us = RC6_MARGIN, .repeat_period_ms = 114,                          \
		.frame_period_us = RC6_FRAME_PERIOD,                                       \
		.min_trailing_space_us = RC6_TRAILER_SPACE, .has_toggle = TOGGLE,          \
		.has_encoder = true, .summary = SUMMARY,                                   \
	}

/* rc6a frames are rc6_6a_32 frames with bit 31 set; bit 15, the toggle,
 * is not in the scancode and reads as 0.  rc-core reports those with an
 * MCE customer code (Microsoft 0x800f, Zotac 0x8034, Kathrein 0x8046 with
 * bit 31) as rc6_mce, whose scancode drops the toggle the same way. */
static bool rc6_rc_core_view(enum ir_protocol p, uint64_t scancode, enum ir_protocol *rc_proto,
			     uint64_t *rc_scancode)
{
	uint64_t body = RC6A_LONG_CUSTOMER | (scancode & 0x7fff7fff);

	if (p != IR_PROTO_RC6A)
		return false;
	*rc_proto = rc6_is_mce_customer(body) ? IR_PROTO_RC6_MCE : IR_PROTO_RC6_6A_32;
	*rc_scancode = body;
	return true;
}

/* IRMP's readings: rc6a is left out of the default set (see the top).
 * They keep their family name, so `-p rc6a` still selects both. */
#define RC6A_INFO(ID, NAME, MASK, TOGGLE, NOT_DEFAULT, PRIORITY, SUMMARY)                  \
	{                                                                                  \
		.id = ID, .name = NAME, .family = "rc6a", .scancode_mask = MASK,           \
		.carrier_hz = 36000, .duty_cycle = 25, .unit_us = RC6_UNIT,                \
		.margin_us = RC6_MARGIN, .repeat_period_ms = 114,                          \
		.frame_period_us = RC6_FRAME_PERIOD,                                       \
		.min_trailing_space_us = RC6_TRAILER_SPACE, .has_toggle = TOGGLE,          \
		.has_encoder = true, .not_default = NOT_DEFAULT, .priority = PRIORITY,     \
		.summary = SUMMARY,                                                        \
	}

static const struct ir_protocol_info rc6_infos[] = {
	RC6_INFO(IR_PROTO_RC6_0, "rc6_0", 0xffff, true, "Philips RC-6 mode 0, 8-bit address and command"),
	RC6_INFO(IR_PROTO_RC6_6A_20, "rc6_6a_20", 0xfffff, false, "RC-6 mode 6A, 20 bits"),
	RC6_INFO(IR_PROTO_RC6_6A_24, "rc6_6a_24", 0xffffff, false, "RC-6 mode 6A, 24 bits"),
	RC6_INFO(IR_PROTO_RC6_6A_32, "rc6_6a_32", 0xffffffff, false, "RC-6 mode 6A, 32 bits"),
	RC6_INFO(IR_PROTO_RC6_MCE, "rc6_mce", 0xffff7fff, true,
		 "RC-6A 32 bits with an MCE customer code, toggle in bit 15"),
	RC6A_INFO(IR_PROTO_RC6A, "rc6a", 0x7fff7fff, true, true, 1,
		  "RC-6A 32 bits as IRMP reads them: 15-bit customer, toggle in bit 15"),
	RC6A_INFO(IR_PROTO_RC6A28, "rc6a28", 0xfffffff, false, false, 0,
		  "RC-6 mode 6A, 28 bits (Sky Q)"),
};

const struct ir_family ir_family_rc6 = {
	.name = "rc6",
	.protocols = rc6_infos,
	.protocol_count = sizeof(rc6_infos) / sizeof(rc6_infos[0]),
	.state_size = sizeof(struct rc6_dec),
	.reset = rc6_reset,
	.decode = rc6_decode,
	.space_deadline = rc6_space_deadline,
	.encode = rc6_encode,
	.rc_core_view = rc6_rc_core_view,
};
