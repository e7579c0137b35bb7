/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kaseikyo.c - the Kaseikyo family (Japan's AEHA format: Panasonic, Denon,
 * JVC, Mitsubishi, Sharp ...): pulse-distance, 48 bits LSB first in six
 * bytes B0..B5, 37 kHz; and Panasonic's 56-bit projector frames, whose
 * timing is close enough to share the state machine.
 *
 *   frame:  3456 pulse, 1728 space, 48 × (432 pulse, 432|1296 space), 432 pulse
 *           (unit 432 µs = 16 cycles of 37 kHz: 8, 4, 1, 1|3 units)
 *   repeat: the whole frame, ~75 ms of silence apart
 *
 * B0 B1 are the vendor (OEM) code, LSB first: vendor = B0 | B1 << 8.  What
 * follows depends on the vendor; each flavour is its own protocol:
 *
 *   kaseikyo      any vendor, IRMP's reading (IRMP 5): B2's low nibble is
 *                 the XOR of the vendor's four nibbles, B5 = B2 ^ B3 ^ B4;
 *                 genre1 = B2 >> 4, genre2 = B3 & 0xf, command = the 12
 *                 bits B3 >> 4 | B4 << 4.  Scancode: IRMP's address (the
 *                 vendor) << 16 | its command (genre1 << 12 | command), and
 *                 genre2, which IRMP leaves in its flags, in bits 32-35: a
 *                 frame has 36 bits of data, 4 more than IRMP's scancode.
 *   denon_k       vendor 0x3254, the same bytes and checks, read as
 *                 Denon's D (genre1), S (genre2), F (command):
 *                 D << 16 | S << 12 | F
 *   jvc_k         vendor 0x0103 (JVC-48): B2 = D, B3 = S, B4 = F,
 *                 B5 = D ^ S ^ F, no vendor nibble: D << 16 | S << 8 | F
 *   mitsubishi_k  vendor 0xCB23: a nibble 6 (the vendor's XOR), D, S, F
 *                 (8 bits each, LSB first across the bytes) and a nibble
 *                 T = 15 - (the four nibbles of S and F), mod 16:
 *                 D << 16 | S << 8 | F
 *   panasonic     IRMP 48, Panasonic projectors: 3600 pulse, 1600 space,
 *                 56 × (565 pulse, 316|1140 space), 565 pulse, 38 kHz;
 *                 B0 B1 B2 = 0x02 0x20 0x80, address B3 | B4 << 8,
 *                 command B5 | B6 << 8: address << 16 | command
 *
 * A vendor flavour is the same light as kaseikyo's reading of it where
 * kaseikyo's checks pass: it has the higher priority, so the core reports
 * the flavour (and kaseikyo where the flavour is disabled).
 *
 * A frame is only certain once the silence after its last pulse is longer
 * than any bit space, KASEIKYO_DECIDE_SPACE (1728 µs): air conditioners
 * send far longer frames in the same format (AEHA: Hitachi's 264 bits,
 * Panasonic's, Daikin's ...), whose first 48 bits can pass the checks (the
 * corpus's Hitachi capture does, with its bytes and their complements), and
 * Panasonic's TVs send 48-bit frames that start 0x02 0x20 0x80 like the
 * projectors' 56.
 */
#include "ir_family.h"

#define KASEIKYO_UNIT 432              /* 16 cycles of 37 kHz */
#define KASEIKYO_HEADER_PULSE (8 * KASEIKYO_UNIT)
#define KASEIKYO_HEADER_SPACE (4 * KASEIKYO_UNIT)
#define KASEIKYO_BIT_PULSE KASEIKYO_UNIT
#define KASEIKYO_BIT_0_SPACE KASEIKYO_UNIT
#define KASEIKYO_BIT_1_SPACE (3 * KASEIKYO_UNIT)
#define KASEIKYO_TRAILER_PULSE KASEIKYO_UNIT
#define KASEIKYO_GAP (173 * KASEIKYO_UNIT) /* 74.7 ms of silence between frames */
#define KASEIKYO_NBITS 48
/* Panasonic's projectors (IRMP's figures) */
#define PANASONIC_HEADER_PULSE 3600
#define PANASONIC_HEADER_SPACE 1600
#define PANASONIC_BIT_PULSE 565
#define PANASONIC_BIT_0_SPACE 316
#define PANASONIC_BIT_1_SPACE 1140
#define PANASONIC_TRAILER_PULSE PANASONIC_BIT_PULSE
#define PANASONIC_GAP 40000            /* IRMP: the next frame after 40 ms */
#define PANASONIC_NBITS 56
#define PANASONIC_PREFIX 0x802002u     /* B0 B1 B2 = 0x02 0x20 0x80 */
#define PANASONIC_PREFIX_BITS 24

#define KASEIKYO_MARGIN (KASEIKYO_UNIT / 2)
/* The header pulse takes Panasonic's 3600 and receivers' lengthening. */
#define KASEIKYO_HEADER_MARGIN KASEIKYO_UNIT
/* Longer than any bit space either timing reads (1296 + 216 = 1512). */
#define KASEIKYO_DECIDE_SPACE (4 * KASEIKYO_UNIT)

#define VENDOR_DENON 0x3254
#define VENDOR_JVC 0x0103
#define VENDOR_MITSUBISHI 0xcb23
#define MITSUBISHI_K_NIBBLE 6          /* 3 ^ 2 ^ 0xb ^ 0xc: the vendor's XOR */

enum kaseikyo_state {
	STATE_INACTIVE,
	STATE_HEADER_SPACE,
	STATE_BIT_PULSE,
	STATE_BIT_SPACE,
	STATE_TRAILER_PULSE,
	STATE_END_SPACE, /* after the last pulse: silence, or more bits */
};

/* The states' names, for `irjack decode -v` (ir_decode_why_state()). */
static const char *const kaseikyo_states[] = {
	"idle", "header space", "bit pulse", "bit space", "trailer pulse", "end space",
};

struct kaseikyo_dec {
	enum kaseikyo_state state;
	unsigned count;
	uint64_t bits; /* LSB first as received */
	uint64_t start_us;
};

static void kaseikyo_reset(void *state)
{
	struct kaseikyo_dec *d = state;

	d->state = STATE_INACTIVE;
}

static unsigned byte_at(uint64_t bits, unsigned i)
{
	return (unsigned)(bits >> (8 * i)) & 0xff;
}

/* The XOR of a 16-bit vendor code's four nibbles. */
static unsigned vendor_nibble(unsigned vendor)
{
	return (vendor ^ vendor >> 4 ^ vendor >> 8 ^ vendor >> 12) & 0xf;
}

/* Mitsubishi-K's check nibble over S and F. */
static unsigned mitsubishi_k_check(unsigned s, unsigned f)
{
	return (15u - ((s & 0xf) + (s >> 4) + (f & 0xf) + (f >> 4))) & 0xf;
}

/* Reports every reading of 48 bits whose checks pass. */
static void kaseikyo_finish(struct kaseikyo_dec *d, struct ir_decode_ctx *ctx)
{
	unsigned b2 = byte_at(d->bits, 2), b3 = byte_at(d->bits, 3);
	unsigned b4 = byte_at(d->bits, 4), b5 = byte_at(d->bits, 5);
	unsigned vendor = (unsigned)d->bits & 0xffff;
	bool xor_ok = (b2 ^ b3 ^ b4) == b5;

	if (xor_ok && (b2 & 0xf) == vendor_nibble(vendor)) {
		uint64_t genre1 = b2 >> 4, genre2 = b3 & 0xf, command = b3 >> 4 | b4 << 4;

		ir_decode_emit(ctx, IR_PROTO_KASEIKYO,
			       genre2 << 32 | (uint64_t)vendor << 16 | genre1 << 12 | command, 0,
			       d->start_us);
		if (vendor == VENDOR_DENON)
			ir_decode_emit(ctx, IR_PROTO_DENON_K, genre1 << 16 | genre2 << 12 | command,
				       0, d->start_us);
	}
	if (xor_ok && vendor == VENDOR_JVC)
		ir_decode_emit(ctx, IR_PROTO_JVC_K, (uint64_t)b2 << 16 | b3 << 8 | b4, 0, d->start_us);
	if (vendor == VENDOR_MITSUBISHI && (b2 & 0xf) == MITSUBISHI_K_NIBBLE) {
		unsigned dev = (b2 >> 4 | b3 << 4) & 0xff, sub = (b3 >> 4 | b4 << 4) & 0xff;
		unsigned fn = (b4 >> 4 | b5 << 4) & 0xff;

		if (b5 >> 4 == mitsubishi_k_check(sub, fn))
			ir_decode_emit(ctx, IR_PROTO_MITSUBISHI_K,
				       (uint64_t)dev << 16 | sub << 8 | fn, 0, d->start_us);
	}
}

static void panasonic_finish(struct kaseikyo_dec *d, struct ir_decode_ctx *ctx)
{
	uint64_t address = (d->bits >> 24) & 0xffff, command = (d->bits >> 40) & 0xffff;

	ir_decode_emit(ctx, IR_PROTO_PANASONIC, address << 16 | command, 0, d->start_us);
}

static bool kaseikyo_may_be_panasonic(const struct kaseikyo_dec *d)
{
	return (d->bits & ((UINT64_C(1) << PANASONIC_PREFIX_BITS) - 1)) == PANASONIC_PREFIX;
}

/* A bit's space, Kaseikyo's or Panasonic's: 1 or 0 into the bits, false if
 * it is neither. */
static bool kaseikyo_store_bit(struct kaseikyo_dec *d, uint32_t dur)
{
	if (ir_eq_margin(dur, KASEIKYO_BIT_1_SPACE, KASEIKYO_MARGIN) ||
	    ir_eq_margin(dur, PANASONIC_BIT_1_SPACE, KASEIKYO_MARGIN))
		d->bits |= UINT64_C(1) << d->count;
	else if (!ir_eq_margin(dur, KASEIKYO_BIT_0_SPACE, KASEIKYO_MARGIN) &&
		 !ir_eq_margin(dur, PANASONIC_BIT_0_SPACE, KASEIKYO_MARGIN))
		return false;
	d->count++;
	return true;
}

static bool kaseikyo_bit_pulse(uint32_t dur)
{
	return ir_eq_margin(dur, KASEIKYO_BIT_PULSE, KASEIKYO_MARGIN) ||
	       ir_eq_margin(dur, PANASONIC_BIT_PULSE, KASEIKYO_MARGIN);
}

static void kaseikyo_decode(void *state, struct ir_decode_ctx *ctx, const struct ir_edge *e)
{
	struct kaseikyo_dec *d = state;
	bool pulse = e->kind == IR_PULSE;
	uint32_t dur = e->duration;

	switch (d->state) {
	case STATE_INACTIVE:
		if (!pulse || (!ir_eq_margin(dur, KASEIKYO_HEADER_PULSE, KASEIKYO_HEADER_MARGIN) &&
			       !ir_eq_margin(dur, PANASONIC_HEADER_PULSE, KASEIKYO_HEADER_MARGIN)))
			break;
		d->start_us = ir_decode_now(ctx);
		d->count = 0;
		d->bits = 0;
		d->state = STATE_HEADER_SPACE;
		return;

	case STATE_HEADER_SPACE:
		if (pulse || (!ir_eq_margin(dur, KASEIKYO_HEADER_SPACE, KASEIKYO_MARGIN) &&
			      !ir_eq_margin(dur, PANASONIC_HEADER_SPACE, KASEIKYO_MARGIN)))
			break;
		d->state = STATE_BIT_PULSE;
		return;

	case STATE_BIT_PULSE:
		if (!pulse || !kaseikyo_bit_pulse(dur))
			break;
		d->state = STATE_BIT_SPACE;
		return;

	case STATE_BIT_SPACE:
		if (pulse || !kaseikyo_store_bit(d, dur))
			break;
		d->state = d->count == KASEIKYO_NBITS || d->count == PANASONIC_NBITS
				   ? STATE_TRAILER_PULSE
				   : STATE_BIT_PULSE;
		return;

	case STATE_TRAILER_PULSE:
		if (!pulse || !kaseikyo_bit_pulse(dur))
			break;
		d->state = STATE_END_SPACE;
		return;

	case STATE_END_SPACE:
		if (pulse)
			break;
		if (dur >= KASEIKYO_DECIDE_SPACE) {
			if (d->count == PANASONIC_NBITS)
				panasonic_finish(d, ctx);
			else
				kaseikyo_finish(d, ctx);
			d->state = STATE_INACTIVE;
			return;
		}
		/* Panasonic's 56 bits: that pulse was the 49th bit's.  Any
		 * other longer frame is not this family's. */
		if (d->count != KASEIKYO_NBITS || !kaseikyo_may_be_panasonic(d) ||
		    !kaseikyo_store_bit(d, dur))
			break;
		d->state = STATE_BIT_PULSE;
		return;
	}
	ir_decode_why_state(ctx, "kaseikyo", kaseikyo_states, d->state,
			    d->count, e->kind == IR_PULSE, dur);
	d->state = STATE_INACTIVE;
}

static uint32_t kaseikyo_space_deadline(const void *state, const struct ir_decode_ctx *ctx)
{
	const struct kaseikyo_dec *d = state;

	(void)ctx;
	return d->state == STATE_END_SPACE ? KASEIKYO_DECIDE_SPACE : 0;
}

static const struct ir_pd_timings kaseikyo_timings = {
	.header_pulse = KASEIKYO_HEADER_PULSE,
	.header_space = KASEIKYO_HEADER_SPACE,
	.bit_pulse = KASEIKYO_BIT_PULSE,
	.bit_0_space = KASEIKYO_BIT_0_SPACE,
	.bit_1_space = KASEIKYO_BIT_1_SPACE,
	.trailer_pulse = KASEIKYO_TRAILER_PULSE,
	.msb_first = false,
};

static const struct ir_pd_timings panasonic_timings = {
	.header_pulse = PANASONIC_HEADER_PULSE,
	.header_space = PANASONIC_HEADER_SPACE,
	.bit_pulse = PANASONIC_BIT_PULSE,
	.bit_0_space = PANASONIC_BIT_0_SPACE,
	.bit_1_space = PANASONIC_BIT_1_SPACE,
	.trailer_pulse = PANASONIC_TRAILER_PULSE,
	.msb_first = false,
};

/* The 48 bits of a frame from its vendor and the three bytes after it; the
 * XOR check byte completes it. */
static uint64_t kaseikyo_bits_xor(unsigned vendor, unsigned b2, unsigned b3, unsigned b4)
{
	return vendor | (uint64_t)b2 << 16 | (uint64_t)b3 << 24 | (uint64_t)b4 << 32 |
	       (uint64_t)(b2 ^ b3 ^ b4) << 40;
}

/* kaseikyo's bytes from vendor, genre1, genre2 and the 12-bit command. */
static uint64_t kaseikyo_bits(unsigned vendor, unsigned genre1, unsigned genre2, unsigned command)
{
	return kaseikyo_bits_xor(vendor, vendor_nibble(vendor) | genre1 << 4,
				 genre2 | (command & 0xf) << 4, command >> 4);
}

static int kaseikyo_encode(enum ir_protocol p, uint64_t scancode, unsigned toggle,
			   struct ir_edge_buf *out)
{
	unsigned dev = (scancode >> 16) & 0xff, sub = (scancode >> 8) & 0xff, fn = scancode & 0xff;
	uint64_t bits;

	(void)toggle;
	switch (p) {
	case IR_PROTO_KASEIKYO:
		bits = kaseikyo_bits((scancode >> 16) & 0xffff, (scancode >> 12) & 0xf,
				     (scancode >> 32) & 0xf, scancode & 0xfff);
		break;
	case IR_PROTO_DENON_K:
		bits = kaseikyo_bits(VENDOR_DENON, (scancode >> 16) & 0xf, (scancode >> 12) & 0xf,
				     scancode & 0xfff);
		break;
	case IR_PROTO_JVC_K:
		bits = kaseikyo_bits_xor(VENDOR_JVC, dev, sub, fn);
		break;
	case IR_PROTO_MITSUBISHI_K:
		bits = VENDOR_MITSUBISHI | (uint64_t)MITSUBISHI_K_NIBBLE << 16 | (uint64_t)dev << 20 |
		       (uint64_t)sub << 28 | (uint64_t)fn << 36 |
		       (uint64_t)mitsubishi_k_check(sub, fn) << 44;
		break;
	case IR_PROTO_PANASONIC:
		return ir_gen_pulse_distance(out, &panasonic_timings, PANASONIC_NBITS,
					     PANASONIC_PREFIX | (scancode & 0xffffffff) >> 16 << 24 |
						     (scancode & 0xffff) << 40);
	default:
		return -EINVAL;
	}
	return ir_gen_pulse_distance(out, &kaseikyo_timings, KASEIKYO_NBITS, bits);
}

#define KASEIKYO_INFO(ID, NAME, MASK, PRIORITY, SUMMARY)                                   \
	{                                                                                  \
		.id = ID, .name = NAME, .family = "kaseikyo", .scancode_mask = MASK,       \
		.carrier_hz = 37000, .duty_cycle = 33, .unit_us = KASEIKYO_UNIT,           \
		.margin_us = KASEIKYO_MARGIN, .repeat_period_ms = 125,                     \
		.frame_period_us = 0, .min_trailing_space_us = KASEIKYO_GAP,               \
		.has_toggle = false, .has_encoder = true, .priority = PRIORITY,            \
		.summary = SUMMARY,                                                        \
	}

static const struct ir_protocol_info kaseikyo_infos[] = {
	KASEIKYO_INFO(IR_PROTO_KASEIKYO, "kaseikyo", UINT64_C(0xfffffffff), 0,
		      "Kaseikyo (Panasonic and others): vendor, genres, 12-bit command"),
	KASEIKYO_INFO(IR_PROTO_DENON_K, "denon_k", 0xfffff, 1,
		      "Denon-K: Kaseikyo with vendor 0x3254, 4-bit D and S, 12-bit F"),
	KASEIKYO_INFO(IR_PROTO_JVC_K, "jvc_k", 0xffffff, 1,
		      "JVC-48: Kaseikyo with vendor 0x0103, 8-bit D, S and F"),
	KASEIKYO_INFO(IR_PROTO_MITSUBISHI_K, "mitsubishi_k", 0xffffff, 1,
		      "Mitsubishi-K: Kaseikyo with vendor 0xCB23, 8-bit D, S and F"),
	{
		.id = IR_PROTO_PANASONIC, .name = "panasonic", .family = "kaseikyo",
		.scancode_mask = 0xffffffff, .carrier_hz = 38000, .duty_cycle = 33,
		.unit_us = PANASONIC_BIT_PULSE, .margin_us = KASEIKYO_MARGIN,
		.repeat_period_ms = 125, .frame_period_us = 0,
		.min_trailing_space_us = PANASONIC_GAP, .has_toggle = false, .has_encoder = true,
		.summary = "Panasonic projectors: 56 bits, 16-bit address and command",
	},
};

const struct ir_family ir_family_kaseikyo = {
	.name = "kaseikyo",
	.protocols = kaseikyo_infos,
	.protocol_count = sizeof(kaseikyo_infos) / sizeof(kaseikyo_infos[0]),
	.state_size = sizeof(struct kaseikyo_dec),
	.reset = kaseikyo_reset,
	.decode = kaseikyo_decode,
	.space_deadline = kaseikyo_space_deadline,
	.encode = kaseikyo_encode,
};
