/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nec.c - NEC, NEC-X (extended address) and NEC-32: pulse-distance, 32 bits
 * LSB first (address, ~address, command, ~command), 38 kHz; and the
 * protocols that use NEC's bits with another header, length or vendor
 * code, which one state machine reads alongside.
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
 *
 * Beyond rc-core, named and laid out as IRMP has them (scancode = IRMP's
 * address << 16 | command):
 *
 *   apple      9000 header, 32 bits B0 B1 B2 B3 with vendor bytes B0 = 0xEE,
 *              B1 = 0x87: B3 (the remote's pairing ID) << 16 | B2 (command)
 *   onkyo      9000 header, 32 bits whose command bytes are not
 *              complementary (IRMP's reading of rc-core's nec32):
 *              (B0 | B1 << 8) << 16 | (B2 | B3 << 8), the very number nec32 has
 *   samsung32  4500 header, 32 bits: the same layout as onkyo
 *   samsung48  4500 header, 48 bits B0..B5, B3 = ~B2, B5 = ~B4 (Samsung air
 *              conditioners): (B0 | B1 << 8) << 16 | (B2 | B4 << 8)
 *   nec42      9000 header, 42 bits: 13 address, 13 ~address, 8 command,
 *              8 ~command (rc-core's sanyo, IRMP's layout): A << 16 | C
 *   nec16      9000 header, 8 address bits, a 563 pulse and 4500 space
 *              (sync), 8 command bits, 563 pulse: A << 16 | C
 *   pioneer    NEC's frame at 40 kHz (unit 564), device D 0xA0-0xAF, resent
 *              whole: D << 16 | F; reported only where the carrier (or a
 *              keymap) says so, see nec_is_pioneer()
 *
 * A frame is certain only once the silence after its last pulse shows no
 * more bits follow (NEC_DECIDE_SPACE): a 9 ms frame of 33 to 41 bits is no
 * frame at all, not a NEC frame with something after it.
 *
 * Which reading is reported (the rule IrpTransmogrifier calls prefer-over):
 * each frame is emitted in its rc-core reading (priority 0) and, where a
 * protocol beyond rc-core knows more about it, in that one too with a
 * higher priority; the core reports only the higher one of two readings
 * of the same light, and drops those of disabled protocols.  A reading
 * that only renames rc-core's (onkyo for nec32, nec42 for sanyo: the same
 * bits, nothing learnt) is emitted only while the rc-core protocol is
 * disabled, so rc-core's names stay the default.  apple (vendor and pairing
 * ID known), samsung32 (the header marks Samsung's variant) and pioneer (the
 * carrier does) win over nec32/necx/nec; samsung48 and nec16 have no
 * rc-core reading.  The
 * family's rc_core_view maps apple, onkyo, samsung32 and nec42 back to
 * rc-core's nec/necx/nec32/sanyo scancode, so rc-core keymaps keep matching.
 */
#include "ir_family.h"

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
#define NEC_FRAME_PERIOD 108000     /* start to start of frames and repeats */
#define NEC_NBITS 32
#define NEC42_NBITS 42
#define SAMSUNG48_NBITS 48
#define NEC_MAX_NBITS SAMSUNG48_NBITS
#define NEC16_NBITS 16
#define NEC16_SYNC_BIT 8            /* the sync comes after this many bits */
#define NEC16_SYNC_SPACE 4500       /* as long as the header space */
#define APPLE_VENDOR 0x87ee         /* B0 | B1 << 8 */
#define PIONEER_CARRIER 40000
#define PIONEER_UNIT 564            /* 22.5 cycles of 40 kHz */
#define PIONEER_DEVICE_FIRST 0xa0
#define PIONEER_DEVICE_LAST 0xaf

/*
 * The decoder's windows contain the kernel's (ir-nec-decoder.c, unit 563:
 * every duration ±unit/2, the header space ±unit, the 9 ms leader bounded
 * from below by 16 - 2 units; its comparisons are strict, ours inclusive):
 *   leader     >= 7875 (9000 - 2 × 562.5; the kernel's 9008 - 1126 is
 *              bounded above too, but receivers' AGC stretches the leader
 *              and nothing else starts with a longer pulse and 4.5 ms)
 *   4.5 ms     4223..4785     header space 3937..5067 (real Pioneer
 *              remotes send 4.15 ms, NEC16 ones 4.0 ms)
 *   bits       282..844, 1407..1970      repeat space 1971..2533
 */
#define NEC_MARGIN 281
#define NEC_LEADER_MIN 7875
#define NEC_HEADER_SPACE_MIN 3937
#define NEC_HEADER_SPACE_MAX 5067
#define NEC_K_BIT_1_SPACE 1689      /* the kernel's 3 × 563 */
#define NEC_K_REPEAT_SPACE 2252     /* the kernel's 4 × 563 */

/* The silence that proves a frame has no more bits: longer than any bit
 * space (1970).  rc-core waits for 5349 (10 units less the margin); a
 * frame is certain sooner, and a gap between the two is not rejected. */
#define NEC_DECIDE_SPACE 2250
/* Samsung-style repeat (rc-core's NECX_REPEAT_BITS): after the 4.5 ms
 * header one bit and a trailer pulse, then a trailer-length space (10
 * units less the margin, as the kernel). */
#define NEC_SHORT_REPEAT_SPACE (10 * 563 - NEC_MARGIN)

enum nec_state {
	STATE_INACTIVE,
	STATE_HEADER_SPACE,
	STATE_BIT_PULSE,      /* a bit's pulse or the trailer: the space after tells */
	STATE_BIT_SPACE,      /* a bit's space, or the silence that ends the frame */
	STATE_REPEAT_TRAILER, /* the 9000/2250 repeat code's pulse */
};

/* The last frame, for repeats made of a header and one pulse or bit. */
enum nec_last {
	LAST_NONE,
	LAST_SHORT32, /* 4500-header 32 bits: rc-core's Samsung repeat may follow */
	LAST_NEC42,   /* nec42: the LC7461's repeat (9000/4500, one pulse) may follow */
};

struct nec_dec {
	enum nec_state state;
	unsigned count;
	uint64_t bits;         /* LSB first as received */
	bool short_header;     /* 4500 µs header pulse */
	bool nec16;            /* NEC16's sync came after 8 bits */
	enum nec_last last;
	uint64_t start_us;
};

#define PROTO_BIT(p) (UINT64_C(1) << (p))

/* What NEC's 9000/2250 repeat code may repeat. */
static const struct ir_protocol_set nec_ditto_protocols = {
	.bits = { PROTO_BIT(IR_PROTO_NEC) | PROTO_BIT(IR_PROTO_NECX) | PROTO_BIT(IR_PROTO_NEC32) |
		  PROTO_BIT(IR_PROTO_APPLE) | PROTO_BIT(IR_PROTO_ONKYO) |
		  PROTO_BIT(IR_PROTO_NEC16) | PROTO_BIT(IR_PROTO_NEC42) |
		  /* NEC remotes with a Pioneer address send dittos */
		  PROTO_BIT(IR_PROTO_PIONEER) },
};

/* What the 4500/4500 header and one bit (or one pulse) may repeat. */
static const struct ir_protocol_set nec_short_repeat_protocols = {
	.bits = { PROTO_BIT(IR_PROTO_NEC) | PROTO_BIT(IR_PROTO_NECX) | PROTO_BIT(IR_PROTO_NEC32) |
		  PROTO_BIT(IR_PROTO_SAMSUNG32) },
};

static const struct ir_protocol_set nec42_protocols = {
	.bits = { PROTO_BIT(IR_PROTO_NEC42) },
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

/* IRMP's address << 16 | command of 32 bits read as two 16-bit words
 * (onkyo, samsung32): numerically rc-core's nec32 layout. */
static uint64_t nec_words_scancode(uint32_t bits)
{
	return (uint64_t)(bits & 0xffff) << 16 | bits >> 16;
}

/* The inverse of nec_words_scancode(). */
static uint32_t nec_words_bits(uint64_t scancode)
{
	return (uint32_t)((scancode >> 16) & 0xffff) | (uint32_t)(scancode & 0xffff) << 16;
}

/*
 * Pioneer sends NEC's frame at 40 kHz with a device code 0xA0-0xAF, which
 * NEC remotes use too; only the carrier tells them apart.  The frame is
 * pioneer when the source reports a carrier nearer 40 kHz than 38 kHz (a
 * mode2 `carrier 38000` means NEC), or, with no carrier known, when a
 * loaded keymap names pioneer; otherwise it is nec, as rc-core reports it.
 */
static bool nec_is_pioneer(uint32_t bits, const struct ir_decode_ctx *ctx)
{
	uint32_t dev = bits & 0xff, carrier = ir_decode_carrier(ctx);

	if (((bits ^ (bits >> 8)) & 0xff) != 0xff || ((bits >> 16 ^ bits >> 24) & 0xff) != 0xff ||
	    dev < PIONEER_DEVICE_FIRST || dev > PIONEER_DEVICE_LAST)
		return false;
	if (carrier)
		return carrier > (38000 + PIONEER_CARRIER) / 2 && carrier < PIONEER_CARRIER + 2000;
	return ir_decode_preferred(ctx, IR_PROTO_PIONEER) ||
	       !ir_decode_enabled(ctx, IR_PROTO_NEC);
}

static void nec_finish32(struct nec_dec *d, struct ir_decode_ctx *ctx)
{
	uint32_t bits = (uint32_t)d->bits;
	enum ir_protocol proto;
	uint64_t scancode;

	nec_scancode(bits, &proto, &scancode);
	ir_decode_emit(ctx, proto, scancode, 0, d->start_us);
	if (d->short_header)
		ir_decode_emit(ctx, IR_PROTO_SAMSUNG32, nec_words_scancode(bits), 0, d->start_us);
	else if ((bits & 0xffff) == APPLE_VENDOR)
		ir_decode_emit(ctx, IR_PROTO_APPLE, (uint64_t)(bits >> 24) << 16 | ((bits >> 16) & 0xff),
			       0, d->start_us);
	else if (nec_is_pioneer(bits, ctx))
		ir_decode_emit(ctx, IR_PROTO_PIONEER, (uint64_t)(bits & 0xff) << 16 | ((bits >> 16) & 0xff),
			       0, d->start_us);
	else if (proto == IR_PROTO_NEC32 && !ir_decode_enabled(ctx, IR_PROTO_NEC32))
		ir_decode_emit(ctx, IR_PROTO_ONKYO, scancode, 0, d->start_us);
	d->last = d->short_header ? LAST_SHORT32 : LAST_NONE;
}

/* 42 bits: 13 address bits, their complement, command and its complement
 * (rc-core's sanyo checks both). */
static void nec_finish42(struct nec_dec *d, struct ir_decode_ctx *ctx)
{
	uint64_t address = d->bits & 0x1fff, not_address = (d->bits >> 13) & 0x1fff;
	uint64_t command = (d->bits >> 26) & 0xff, not_command = (d->bits >> 34) & 0xff;

	d->last = LAST_NONE;
	if ((address ^ not_address) != 0x1fff || (command ^ not_command) != 0xff ||
	    ir_decode_enabled(ctx, IR_PROTO_SANYO))
		return;
	ir_decode_emit(ctx, IR_PROTO_NEC42, address << 16 | command, 0, d->start_us);
	d->last = LAST_NEC42;
}

static void nec_finish48(struct nec_dec *d, struct ir_decode_ctx *ctx)
{
	uint64_t b2 = (d->bits >> 16) & 0xff, b3 = (d->bits >> 24) & 0xff;
	uint64_t b4 = (d->bits >> 32) & 0xff, b5 = (d->bits >> 40) & 0xff;

	d->last = LAST_NONE;
	if ((b2 ^ b3) != 0xff || (b4 ^ b5) != 0xff)
		return;
	ir_decode_emit(ctx, IR_PROTO_SAMSUNG48, (d->bits & 0xffff) << 16 | b4 << 8 | b2, 0,
		       d->start_us);
}

static void nec_finish16(struct nec_dec *d, struct ir_decode_ctx *ctx)
{
	d->last = LAST_NONE;
	ir_decode_emit(ctx, IR_PROTO_NEC16, (d->bits & 0xff) << 16 | ((d->bits >> 8) & 0xff), 0,
		       d->start_us);
}

/* The silence after the last pulse proved the frame complete: report it if
 * its length is one a protocol has.  Any other length is no frame (a NEC
 * frame followed by more bits is not NEC: never cut a frame short). */
static void nec_finish(struct nec_dec *d, struct ir_decode_ctx *ctx)
{
	if (d->nec16) {
		if (d->count == NEC16_NBITS)
			nec_finish16(d, ctx);
	} else if (d->count == NEC_NBITS) {
		nec_finish32(d, ctx);
	} else if (d->count == NEC42_NBITS && !d->short_header) {
		nec_finish42(d, ctx);
	} else if (d->count == SAMSUNG48_NBITS && d->short_header) {
		nec_finish48(d, ctx);
	} else {
		d->last = LAST_NONE;
		ir_decode_why(ctx, 2 + 2 * d->count,
			      "nec: %u bits then silence: no NEC length (32, 42, 16 with a sync; 48 after a 4.5 ms leader)",
			      d->count);
	}
}

/* After a header and `count` bits, a silence this long is a repeat (0: none
 * may follow): the LC7461's header and one pulse (nec42); Samsung's 4.5 ms
 * header and one pulse, or one bit and a pulse as rc-core and IRMP read
 * it. */
static uint32_t nec_repeat_space(const struct nec_dec *d)
{
	if (d->short_header && d->last == LAST_SHORT32 && d->count <= 1)
		return NEC_SHORT_REPEAT_SPACE;
	if (!d->short_header && d->last == LAST_NEC42 && d->count == 0)
		return NEC_DECIDE_SPACE;
	return 0;
}

/* A bit's space: 1 or 0 into the bits, false if it is neither. */
static bool nec_store_bit(struct nec_dec *d, uint32_t dur)
{
	if (d->count >= NEC_MAX_NBITS)
		return false;
	if (ir_eq_margin(dur, NEC_K_BIT_1_SPACE, NEC_MARGIN))
		d->bits |= UINT64_C(1) << d->count;
	else if (!ir_eq_margin(dur, NEC_BIT_0_SPACE, NEC_MARGIN))
		return false;
	d->count++;
	return true;
}

/* A header pulse: 9 ms (bounded from below only) or 4.5 ms. */
static bool nec_header_pulse(struct nec_dec *d, uint32_t dur)
{
	if (dur >= NEC_LEADER_MIN) {
		d->short_header = false;
		if (d->last == LAST_SHORT32)
			d->last = LAST_NONE;
	} else if (ir_eq_margin(dur, NEC_SHORT_HEADER_PULSE, NEC_MARGIN)) {
		d->short_header = true;
		if (d->last == LAST_NEC42)
			d->last = LAST_NONE;
	} else {
		return false;
	}
	return true;
}

/* The space after a pulse that followed `count` bits: a repeat's end, NEC16's
 * sync, the silence that ends the frame, or the next bit. */
static bool nec_bit_space(struct nec_dec *d, struct ir_decode_ctx *ctx, uint32_t dur)
{
	uint32_t repeat_space = nec_repeat_space(d);

	if (repeat_space && dur >= repeat_space) {
		ir_decode_emit_repeat(ctx, d->short_header ? &nec_short_repeat_protocols
							   : &nec42_protocols,
				      d->start_us);
		d->state = STATE_INACTIVE;
		return true;
	}
	if (d->count == NEC16_SYNC_BIT && !d->short_header && !d->nec16 &&
	    ir_eq_margin(dur, NEC16_SYNC_SPACE, NEC_MARGIN)) {
		d->nec16 = true;
		d->state = STATE_BIT_PULSE;
		return true;
	}
	if (d->count > 0 && dur >= NEC_DECIDE_SPACE) {
		if (repeat_space) /* one bit, then neither a bit nor a repeat's gap */
			return false;
		nec_finish(d, ctx);
		d->state = STATE_INACTIVE;
		return true;
	}
	if (!nec_store_bit(d, dur))
		return false;
	d->state = STATE_BIT_PULSE;
	return true;
}

/* Why the edge in `d->state` broke the frame (irjack decode -v). */
static void nec_why(const struct nec_dec *d, struct ir_decode_ctx *ctx, bool pulse, uint32_t dur)
{
	unsigned progress = 2 + 2 * d->count;

	if (!ir_decode_wants_why(ctx) || (d->state == STATE_INACTIVE && !pulse))
		return;
	if (dur == IR_DURATION_MAX) { /* a timeout (the core's idle line) */
		ir_decode_why(ctx, progress, "nec: silence after %u bits", d->count);
		return;
	}
	switch (d->state) {
	case STATE_INACTIVE:
		ir_decode_why(ctx, 0, "nec: leader pulse %u us: not 9000 (>= %u) nor 4500 (%u-%u)", dur,
			      NEC_LEADER_MIN, NEC_SHORT_HEADER_PULSE - NEC_MARGIN,
			      NEC_SHORT_HEADER_PULSE + NEC_MARGIN);
		return;
	case STATE_HEADER_SPACE:
		ir_decode_why(ctx, 1, "nec: header %s %u us outside %u-%u%s", pulse ? "pulse" : "space",
			      dur, NEC_HEADER_SPACE_MIN, NEC_HEADER_SPACE_MAX,
			      d->short_header ? "" : " (repeat 1971-2533)");
		return;
	case STATE_BIT_PULSE:
	case STATE_REPEAT_TRAILER:
		ir_decode_why(ctx, progress, "nec: %s %u: %s %u us outside %u-%u",
			      d->state == STATE_REPEAT_TRAILER ? "repeat trailer" : "bit", d->count,
			      pulse ? "pulse" : "space", dur, NEC_BIT_PULSE - NEC_MARGIN,
			      NEC_BIT_PULSE + NEC_MARGIN);
		return;
	case STATE_BIT_SPACE:
		ir_decode_why(ctx, progress + 1,
			      "nec: bit %u: %s %u us: not a 0 (%u-%u), a 1 (%u-%u) nor the end (>= %u)",
			      d->count, pulse ? "pulse" : "space", dur, NEC_BIT_0_SPACE - NEC_MARGIN,
			      NEC_BIT_0_SPACE + NEC_MARGIN, NEC_K_BIT_1_SPACE - NEC_MARGIN,
			      NEC_K_BIT_1_SPACE + NEC_MARGIN, NEC_DECIDE_SPACE);
		return;
	}
}

static void nec_decode(void *state, struct ir_decode_ctx *ctx, const struct ir_edge *e)
{
	struct nec_dec *d = state;
	bool pulse = e->kind == IR_PULSE;
	uint32_t dur = e->duration;

	switch (d->state) {
	case STATE_INACTIVE:
		if (!pulse || !nec_header_pulse(d, dur))
			break;
		d->start_us = ir_decode_now(ctx);
		d->count = 0;
		d->bits = 0;
		d->nec16 = false;
		d->state = STATE_HEADER_SPACE;
		return;

	case STATE_HEADER_SPACE:
		if (pulse)
			break;
		if (dur >= NEC_HEADER_SPACE_MIN && dur <= NEC_HEADER_SPACE_MAX) {
			d->state = STATE_BIT_PULSE;
			return;
		}
		if (!d->short_header && ir_eq_margin(dur, NEC_K_REPEAT_SPACE, NEC_MARGIN)) {
			d->state = STATE_REPEAT_TRAILER;
			return;
		}
		break;

	case STATE_BIT_PULSE:
		if (!pulse || !ir_eq_margin(dur, NEC_BIT_PULSE, NEC_MARGIN))
			break;
		d->state = STATE_BIT_SPACE;
		return;

	case STATE_BIT_SPACE:
		if (pulse || !nec_bit_space(d, ctx, dur))
			break;
		return;

	case STATE_REPEAT_TRAILER:
		if (!pulse || !ir_eq_margin(dur, NEC_TRAILER_PULSE, NEC_MARGIN))
			break;
		ir_decode_emit_repeat(ctx, &nec_ditto_protocols, d->start_us);
		d->state = STATE_INACTIVE;
		return;
	}
	nec_why(d, ctx, pulse, dur);
	d->state = STATE_INACTIVE;
}

static uint32_t nec_space_deadline(const void *state, const struct ir_decode_ctx *ctx)
{
	const struct nec_dec *d = state;
	uint32_t repeat_space = nec_repeat_space(d);

	(void)ctx;
	if (d->state != STATE_BIT_SPACE)
		return 0;
	if (repeat_space)
		return repeat_space;
	if (d->nec16 ? d->count == NEC16_NBITS
		     : d->count == NEC_NBITS || d->count == (d->short_header ? SAMSUNG48_NBITS
									  : NEC42_NBITS))
		return NEC_DECIDE_SPACE;
	return 0;
}

static const struct ir_pd_timings nec_timings = {
	.header_pulse = NEC_HEADER_PULSE,
	.header_space = NEC_HEADER_SPACE,
	.bit_pulse = NEC_BIT_PULSE,
	.bit_0_space = NEC_BIT_0_SPACE,
	.bit_1_space = NEC_BIT_1_SPACE,
	.trailer_pulse = NEC_TRAILER_PULSE,
	.trailer_space = NEC_TRAILER_SPACE,
	.msb_first = false,
};

/* NEC16: header, 8 bits, sync, 8 bits, trailer. */
static int nec16_encode(uint64_t scancode, struct ir_edge_buf *out)
{
	struct ir_pd_timings t = nec_timings;
	int ret;

	t.trailer_space = NEC16_SYNC_SPACE;
	ret = ir_gen_pulse_distance(out, &t, NEC16_SYNC_BIT, (scancode >> 16) & 0xff);
	if (ret < 0)
		return ret;
	t = nec_timings;
	t.header_pulse = 0;
	t.header_space = 0;
	return ir_gen_pulse_distance(out, &t, NEC16_NBITS - NEC16_SYNC_BIT, scancode & 0xff);
}

/* A byte and its complement, as Samsung's 48-bit frames send them. */
static uint64_t samsung48_word(uint64_t byte)
{
	return byte | (~byte & 0xff) << 8;
}

static int nec_encode(enum ir_protocol p, uint64_t scancode, unsigned toggle,
		      struct ir_edge_buf *out)
{
	struct ir_pd_timings t = nec_timings;
	uint64_t b0, b1, b2, b3, address, command;

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
	case IR_PROTO_APPLE:
		return ir_gen_pulse_distance(out, &t, NEC_NBITS,
					     APPLE_VENDOR | (scancode & 0xff) << 16 |
						     ((scancode >> 16) & 0xff) << 24);
	case IR_PROTO_ONKYO:
		return ir_gen_pulse_distance(out, &t, NEC_NBITS, nec_words_bits(scancode));
	case IR_PROTO_SAMSUNG32:
		t.header_pulse = NEC_SHORT_HEADER_PULSE;
		return ir_gen_pulse_distance(out, &t, NEC_NBITS, nec_words_bits(scancode));
	case IR_PROTO_SAMSUNG48:
		t.header_pulse = NEC_SHORT_HEADER_PULSE;
		address = (scancode >> 16) & 0xffff;
		command = scancode & 0xffff; /* B2 | B4 << 8 */
		return ir_gen_pulse_distance(out, &t, SAMSUNG48_NBITS,
					     address | samsung48_word(command & 0xff) << 16 |
						     samsung48_word(command >> 8) << 32);
	case IR_PROTO_NEC42:
		address = (scancode >> 16) & 0x1fff;
		command = scancode & 0xff;
		return ir_gen_pulse_distance(out, &t, NEC42_NBITS,
					     address | (~address & 0x1fff) << 13 | command << 26 |
						     (~command & 0xff) << 34);
	case IR_PROTO_NEC16:
		return nec16_encode(scancode, out);
	case IR_PROTO_PIONEER:
		/* Pioneer's unit is 22.5 cycles of its 40 kHz carrier */
		t.bit_pulse = t.bit_0_space = t.trailer_pulse = PIONEER_UNIT;
		t.bit_1_space = 3 * PIONEER_UNIT;
		t.trailer_space = 10 * PIONEER_UNIT;
		b0 = (scancode >> 16) & 0xff;
		b1 = ~b0 & 0xff;
		b2 = scancode & 0xff;
		b3 = ~b2 & 0xff;
		return ir_gen_pulse_distance(out, &t, NEC_NBITS, b0 | b1 << 8 | b2 << 16 | b3 << 24);
	default:
		return -EINVAL;
	}
	return ir_gen_pulse_distance(out, &t, NEC_NBITS, b0 | b1 << 8 | b2 << 16 | b3 << 24);
}

static int nec_encode_repeat(enum ir_protocol p, uint64_t scancode, struct ir_edge_buf *out)
{
	int ret = 0;

	switch (p) {
	case IR_PROTO_SAMSUNG32: /* Samsung's TVs and air conditioners resend the frame */
	case IR_PROTO_SAMSUNG48:
	case IR_PROTO_PIONEER: /* so do Pioneer's */
		return nec_encode(p, scancode, 0, out);
	case IR_PROTO_NEC42: /* the LC7461's: header and one pulse, as sanyo sends it */
		ret |= ir_edge_buf_pulse(out, NEC_HEADER_PULSE);
		ret |= ir_edge_buf_space(out, NEC_HEADER_SPACE);
		ret |= ir_edge_buf_pulse(out, NEC_BIT_PULSE);
		return ret ? -ENOMEM : 0;
	default:
		ret |= ir_edge_buf_pulse(out, NEC_HEADER_PULSE);
		ret |= ir_edge_buf_space(out, NEC_REPEAT_SPACE);
		ret |= ir_edge_buf_pulse(out, NEC_TRAILER_PULSE);
		ret |= ir_edge_buf_space(out, NEC_TRAILER_SPACE);
		return ret ? -ENOMEM : 0;
	}
}

/* rc-core's reading of the protocols beyond it (see the top of the file). */
static bool nec_rc_core_view(enum ir_protocol p, uint64_t scancode, enum ir_protocol *rc_proto,
			     uint64_t *rc_scancode)
{
	switch (p) {
	case IR_PROTO_APPLE:
		nec_scancode(APPLE_VENDOR | (uint32_t)(scancode & 0xff) << 16 |
				     (uint32_t)((scancode >> 16) & 0xff) << 24,
			     rc_proto, rc_scancode);
		return true;
	case IR_PROTO_ONKYO:
	case IR_PROTO_SAMSUNG32:
		nec_scancode(nec_words_bits(scancode), rc_proto, rc_scancode);
		return true;
	case IR_PROTO_PIONEER:
		*rc_proto = IR_PROTO_NEC;
		*rc_scancode = ((scancode >> 16) & 0xff) << 8 | (scancode & 0xff);
		return true;
	case IR_PROTO_NEC42:
		*rc_proto = IR_PROTO_SANYO;
		*rc_scancode = ((scancode >> 16) & 0x1fff) << 8 | (scancode & 0xff);
		return true;
	default:
		return false;
	}
}

#define NEC_INFO(ID, NAME, MASK, PRIORITY, REPEAT_MS, SUMMARY)                             \
	NEC_INFO_AT(ID, NAME, MASK, 38000, NEC_UNIT, PRIORITY, REPEAT_MS, SUMMARY)
#define NEC_INFO_AT(ID, NAME, MASK, CARRIER, UNIT, PRIORITY, REPEAT_MS, SUMMARY)                \
	{                                                                                  \
		.id = ID, .name = NAME, .family = "nec", .scancode_mask = MASK,            \
		.carrier_hz = CARRIER, .duty_cycle = 33, .unit_us = UNIT,                  \
		.margin_us = NEC_MARGIN, .repeat_period_ms = REPEAT_MS,                    \
		.frame_period_us = NEC_FRAME_PERIOD,                                       \
		.min_trailing_space_us = NEC_TRAILER_SPACE, .has_toggle = false,           \
		.has_encoder = true, .priority = PRIORITY, .summary = SUMMARY,             \
	}

static const struct ir_protocol_info nec_infos[] = {
	NEC_INFO(IR_PROTO_NEC, "nec", 0xffff, 0, 110,
		 "NEC, 8-bit address and command with complements"),
	NEC_INFO(IR_PROTO_NECX, "necx", 0xffffff, 0, 110, "NEC extended, 16-bit address"),
	NEC_INFO(IR_PROTO_NEC32, "nec32", 0xffffffff, 0, 110, "NEC 32-bit, no complement bytes"),
	NEC_INFO(IR_PROTO_APPLE, "apple", 0xff00ff, 1, 110,
		 "Apple: NEC with vendor 0x87EE, pairing ID and command"),
	NEC_INFO(IR_PROTO_ONKYO, "onkyo", 0xffffffff, 1, 110,
		 "Onkyo: NEC with a 16-bit command (nec32 read as IRMP does)"),
	NEC_INFO(IR_PROTO_SAMSUNG32, "samsung32", 0xffffffff, 1, 110,
		 "Samsung TV: NEC bits after a 4.5 ms header, 16-bit address and command"),
	NEC_INFO(IR_PROTO_SAMSUNG48, "samsung48", 0xffffffff, 0, 110,
		 "Samsung air conditioner: 48 NEC bits after a 4.5 ms header"),
	/* sanyo's timings: its key-up period */
	NEC_INFO(IR_PROTO_NEC42, "nec42", 0x1fff00ff, 1, 125,
		 "NEC-42: 13-bit address, 8-bit command (sanyo read as IRMP does)"),
	NEC_INFO(IR_PROTO_NEC16, "nec16", 0xff00ff, 0, 110,
		 "NEC-16: 8-bit address, sync, 8-bit command"),
	NEC_INFO_AT(IR_PROTO_PIONEER, "pioneer", 0xff00ff, PIONEER_CARRIER, PIONEER_UNIT, 1, 110,
		    "Pioneer: NEC frames at 40 kHz, device 0xA0-0xAF, resent whole (nec unless the carrier says 40 kHz)"),
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
	.rc_core_view = nec_rc_core_view,
};
