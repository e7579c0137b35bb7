/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rcmm.c - Philips RC-MM, 12, 24 or 32 bits, 36 kHz: pulse-position coding
 * of 2-bit symbols, MSB first.
 *
 *   header: 417 pulse, 278 space
 *   symbol: 167 pulse, then a space of 278 / 444 / 611 / 778 for 00 / 01 / 10 / 11
 *   end:    167 pulse
 *
 * Nothing in the frame gives its length: a 12- or 24-bit frame ends where
 * the space after a pulse is too long for a symbol; a 32-bit frame ends at
 * the pulse after its 16th symbol.
 *
 * Scancodes are the bits as received (rc-core's layout).  rcmm32 carries a
 * toggle in bit 15, removed from the scancode, unless bits 0x000c0000 are
 * both set (rc-core's "mode" bits, which then leave bit 15 as data).
 *
 * Real remotes do not keep these widths: the corpus remote (a Fujitsu
 * Siemens Activy, 20 kHz samples) sends a ~500 µs header pulse and bit
 * pulses of 150-300 µs with spaces shorter by as much.  rc-core checks
 * pulse and space apart against 167 ± 83 and 278-778 ± 83, which none of
 * the corpus's 96 frames passes.  The time from one pulse's start to the
 * next (the period:
 * 444 / 611 / 778 / 944 µs for the four symbols) is what the remote keeps,
 * whatever the receiver does to the pulse width, so symbols are read by
 * period here, with loose bounds on the pulses themselves.
 */
#include "ir_family.h"

#define RCMM_UNIT 167              /* 166.7 µs: 6 cycles of 36 kHz */
#define RCMM_HEADER_PULSE 417      /* 2.5 units */
#define RCMM_HEADER_SPACE 278      /* 1.67 units */
#define RCMM_BIT_PULSE RCMM_UNIT
#define RCMM_SPACE_00 278          /* 1.67 units; each symbol value adds a unit */
#define RCMM_HEADER_PERIOD (RCMM_HEADER_PULSE + RCMM_HEADER_SPACE) /* 695 */
#define RCMM_SYMBOL_PERIOD_00 (RCMM_BIT_PULSE + RCMM_SPACE_00)     /* 445 */
#define RCMM_SYMBOL_PERIOD_11 (RCMM_SYMBOL_PERIOD_00 + 3 * RCMM_UNIT) /* 946 */
/* Symbol periods are a unit apart: each is read to within half a unit. */
#define RCMM_PERIOD_MARGIN (RCMM_UNIT / 2)
/* Pulses: no shorter than rc-core allows (header 417 - 167, bits
 * 167 - 83), but up to 250 µs longer.  RC-MM's 6-cycle bursts are below
 * what demodulating receivers are built for, and they stretch them: the
 * corpus remote's bit pulses read 150-300 µs, its header 450-550.
 * Frames whose pulses are all stretched by up to 150 µs (±50), sampled
 * at 20 kHz, still all decode. */
#define RCMM_HEADER_PULSE_MARGIN RCMM_UNIT
#define RCMM_BIT_PULSE_MARGIN (RCMM_UNIT / 2)
#define RCMM_STRETCH_MARGIN (3 * RCMM_UNIT / 2)
/* A receiver stretches the bursts of one frame alike, so a bit pulse stays
 * well short of the header pulse (250 µs nominal, 150-250 in the corpus):
 * at least half a unit short.  Frames of 416 µs slots (iMON), whose
 * pulses are all alike, fail here. */
#define RCMM_HEADER_BIT_GAP (RCMM_UNIT / 2)
/* The end of a 12- or 24-bit frame: a period (last pulse plus the space
 * after it) of 1112 µs or more.  The longest symbol period, 946, is read
 * up to 946 + 83 = 1029, so 1112 (one more margin on top) never takes a
 * symbol read within tolerance for the end; a period between the two
 * fails the frame.  After a nominal 167 µs pulse the frame is certain
 * 945 µs into the silence (rc-core's own minimum timeout is 944), after a
 * stretched 250 µs one 862 µs in: far sooner than any receiver timeout. */
#define RCMM_END_PERIOD (RCMM_SYMBOL_PERIOD_11 + 2 * RCMM_PERIOD_MARGIN)
/* Philips asks for at least 1 ms of silence before a message; a receiver
 * that stretches the last pulse (the corpus remote's bit pulses read up
 * to 130 µs long) eats into it.  A header is only taken after 850 µs of darkness:
 * longer than any space inside an MCE keyboard frame (333 µs Manchester,
 * 666 at most), whose 333 µs pulses and 666/999 µs periods otherwise pass
 * for RC-MM headers and symbols mid-frame. */
#define RCMM_IDLE_SPACE 850
/* rc-core's minimum timeout for RC-MM: the longest symbol space plus a unit. */
#define RCMM_TRAILER_SPACE 944
/* Philips' recommended repetition time: 1000 cycles of 36 kHz. */
#define RCMM_FRAME_PERIOD 27778

enum rcmm_state {
	STATE_INACTIVE,
	STATE_HEADER_SPACE,
	STATE_BIT_PULSE,
	STATE_BIT_SPACE,
};

/* The states' names, for `irjack decode -v` (ir_decode_why_state()). */
static const char *const rcmm_states[] = {
	"idle", "header space", "bit pulse", "bit space",
};

struct rcmm_dec {
	enum rcmm_state state;
	unsigned count;       /* bits received */
	uint32_t bits;        /* MSB first as received */
	uint32_t pulse;       /* the pulse that opened the current period */
	uint32_t header;      /* the header pulse */
	bool idle;            /* the line was dark for RCMM_IDLE_SPACE before this edge */
	bool timed_out;       /* the last edge was a timeout, or spaces after one */
	uint64_t start_us;
};

static void rcmm_reset(void *state)
{
	struct rcmm_dec *d = state;

	d->state = STATE_INACTIVE;
	d->idle = true;
	d->timed_out = true;
}

static bool rcmm_header_pulse(uint32_t d)
{
	return ir_geq_margin(d, RCMM_HEADER_PULSE, RCMM_HEADER_PULSE_MARGIN) &&
	       ir_leq_margin(d, RCMM_HEADER_PULSE, RCMM_STRETCH_MARGIN);
}

static bool rcmm_bit_pulse(const struct rcmm_dec *d, uint32_t us)
{
	return ir_geq_margin(us, RCMM_BIT_PULSE, RCMM_BIT_PULSE_MARGIN) &&
	       ir_leq_margin(us, RCMM_BIT_PULSE, RCMM_STRETCH_MARGIN) &&
	       ir_leq_margin(us, d->header - RCMM_HEADER_BIT_GAP, 0);
}

/* The period that space `e` closes: from the start of the pulse before it
 * to its end. */
static uint32_t rcmm_period(const struct rcmm_dec *d, const struct ir_edge *e)
{
	uint64_t period = (uint64_t)d->pulse + e->duration;

	return period > UINT32_MAX ? UINT32_MAX : (uint32_t)period;
}

/* The symbol (0-3) a pulse-to-pulse period stands for, or -1. */
static int rcmm_symbol(uint32_t period)
{
	for (uint32_t v = 0; v < 4; v++)
		if (ir_eq_margin(period, RCMM_SYMBOL_PERIOD_00 + v * RCMM_UNIT, RCMM_PERIOD_MARGIN))
			return (int)v;
	return -1;
}

/* A frame of this many bits may end here. */
static bool rcmm_may_end(unsigned count)
{
	return count == 12 || count == 24;
}

/* rcmm32's toggle: bit 15, unless both "mode" bits 0x000c0000 are set. */
static bool rcmm32_has_toggle(uint32_t bits)
{
	return (bits & 0x000c0000) != 0x000c0000;
}

/* rc-core's scancode layout for `count` received bits. */
static void rcmm_scancode(uint32_t bits, unsigned count, enum ir_protocol *proto,
			  uint64_t *scancode, unsigned *toggle)
{
	*toggle = 0;
	*scancode = bits;
	if (count == 12) {
		*proto = IR_PROTO_RCMM12;
	} else if (count == 24) {
		*proto = IR_PROTO_RCMM24;
	} else {
		*proto = IR_PROTO_RCMM32;
		if (rcmm32_has_toggle(bits)) {
			*toggle = (bits >> 15) & 1;
			*scancode = bits & ~UINT32_C(0x8000);
		}
	}
}

static void rcmm_finish(struct rcmm_dec *d, struct ir_decode_ctx *ctx)
{
	enum ir_protocol proto;
	uint64_t scancode;
	unsigned toggle;

	rcmm_scancode(d->bits, d->count, &proto, &scancode, &toggle);
	if (!ir_decode_enabled(ctx, proto))
		ir_decode_why(ctx, 2 + d->count, "rcmm: a %u-bit frame, of a protocol not enabled",
			      d->count);
	ir_decode_emit(ctx, proto, scancode, toggle, d->start_us);
	d->state = STATE_INACTIVE;
}

static void rcmm_decode(void *state, struct ir_decode_ctx *ctx, const struct ir_edge *e)
{
	struct rcmm_dec *d = state;
	bool pulse = e->kind == IR_PULSE;
	uint32_t period = rcmm_period(d, e);
	bool was_idle = d->idle;
	int symbol;

	/* (a space after a timeout is more of the same darkness: the
	 * receiver reports the gap as a timeout and then what is left of it,
	 * which may be short; a header 157 µs after a timeout was refused as
	 * not idle: 1-2 frames in 100 at 20/30 dB, bench_audio limit) */
	d->timed_out = !pulse && (e->kind == IR_TIMEOUT || d->timed_out);
	d->idle = !pulse && (e->kind == IR_TIMEOUT || e->duration >= RCMM_IDLE_SPACE || d->timed_out);
	switch (d->state) {
	case STATE_INACTIVE:
		if (!pulse || !was_idle || !rcmm_header_pulse(e->duration))
			break;
		d->start_us = ir_decode_now(ctx);
		d->pulse = e->duration;
		d->header = e->duration;
		d->count = 0;
		d->bits = 0;
		d->state = STATE_HEADER_SPACE;
		return;

	case STATE_HEADER_SPACE:
		if (pulse || !ir_eq_margin(period, RCMM_HEADER_PERIOD, RCMM_PERIOD_MARGIN))
			break;
		d->state = STATE_BIT_PULSE;
		return;

	case STATE_BIT_PULSE:
		if (!pulse || !rcmm_bit_pulse(d, e->duration))
			break;
		if (d->count == 32) {
			rcmm_finish(d, ctx);
			return;
		}
		d->pulse = e->duration;
		d->state = STATE_BIT_SPACE;
		return;

	case STATE_BIT_SPACE:
		if (pulse)
			break;
		if (rcmm_may_end(d->count) &&
		    (e->kind == IR_TIMEOUT || period >= RCMM_END_PERIOD)) {
			rcmm_finish(d, ctx);
			/* The silence that ended the frame may be all the core
			 * shows us of the gap (space deadline). */
			d->idle = true;
			return;
		}
		symbol = rcmm_symbol(period);
		if (symbol < 0)
			break;
		d->bits = d->bits << 2 | (uint32_t)symbol;
		d->count += 2;
		d->state = STATE_BIT_PULSE;
		return;
	}
	ir_decode_why_state(ctx, "rcmm", rcmm_states, d->state,
			    d->count, e->kind == IR_PULSE, e->duration);
	d->state = STATE_INACTIVE;
}

static uint32_t rcmm_space_deadline(const void *state, const struct ir_decode_ctx *ctx)
{
	const struct rcmm_dec *d = state;

	(void)ctx;
	if (d->state != STATE_BIT_SPACE || !rcmm_may_end(d->count))
		return 0;
	/* The pulse is at most 417 µs here, so this is at least 695. */
	return RCMM_END_PERIOD - d->pulse;
}

static int rcmm_encode(enum ir_protocol p, uint64_t scancode, unsigned toggle,
		       struct ir_edge_buf *out)
{
	uint32_t bits = (uint32_t)scancode;
	unsigned nbits;
	int ret = 0;

	switch (p) {
	case IR_PROTO_RCMM12:
		nbits = 12;
		break;
	case IR_PROTO_RCMM24:
		nbits = 24;
		break;
	case IR_PROTO_RCMM32:
		nbits = 32;
		/* Bit 15 is the toggle wherever it is one (see rcmm32_has_toggle). */
		if (rcmm32_has_toggle(bits))
			bits = (bits & ~UINT32_C(0x8000)) | (uint32_t)(toggle & 1) << 15;
		break;
	default:
		return -EINVAL;
	}
	ret |= ir_edge_buf_pulse(out, RCMM_HEADER_PULSE);
	ret |= ir_edge_buf_space(out, RCMM_HEADER_SPACE);
	for (unsigned i = nbits; i > 0; i -= 2) {
		ret |= ir_edge_buf_pulse(out, RCMM_BIT_PULSE);
		ret |= ir_edge_buf_space(out, RCMM_SPACE_00 + ((bits >> (i - 2)) & 3) * RCMM_UNIT);
	}
	ret |= ir_edge_buf_pulse(out, RCMM_BIT_PULSE);
	return ret ? -ENOMEM : 0;
}

/* margin_us: symbols are read by period, the sum of a pulse and a space,
 * each of which may be off by half the period margin.  Duty cycle: Philips
 * recommends 1/4 (or 1/3). */
#define RCMM_INFO(ID, NAME, MASK, TOGGLE, SUMMARY)                                         \
	{                                                                                  \
		.id = ID, .name = NAME, .family = "rcmm", .scancode_mask = MASK,           \
		.carrier_hz = 36000, .duty_cycle = 25, .unit_us = RCMM_UNIT,               \
		.margin_us = RCMM_PERIOD_MARGIN / 2, .repeat_period_ms = 114,              \
		.frame_period_us = RCMM_FRAME_PERIOD,                                      \
		.min_trailing_space_us = RCMM_TRAILER_SPACE, .has_toggle = TOGGLE,         \
		.has_encoder = true, .summary = SUMMARY,                                   \
	}

static const struct ir_protocol_info rcmm_infos[] = {
	RCMM_INFO(IR_PROTO_RCMM12, "rcmm12", 0xfff, false, "Philips RC-MM, 12 bits"),
	RCMM_INFO(IR_PROTO_RCMM24, "rcmm24", 0xffffff, false, "Philips RC-MM, 24 bits"),
	RCMM_INFO(IR_PROTO_RCMM32, "rcmm32", 0xffffffff, true,
		  "Philips RC-MM, 32 bits, toggle in bit 15"),
};

const struct ir_family ir_family_rcmm = {
	.name = "rcmm",
	.protocols = rcmm_infos,
	.protocol_count = sizeof(rcmm_infos) / sizeof(rcmm_infos[0]),
	.state_size = sizeof(struct rcmm_dec),
	.reset = rcmm_reset,
	.decode = rcmm_decode,
	.space_deadline = rcmm_space_deadline,
	.encode = rcmm_encode,
};
