/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sharp.c - Sharp (and Denon, its sibling): pulse-distance without a
 * header, 15 bits LSB first (5 address, 8 command, expansion, check), 38
 * kHz, then the same address with every other bit inverted: the echo.
 *
 *   half:  15 × (320 pulse, 680|1680 space), 320 pulse
 *   frame: half, ~40 ms space, echo half
 *
 * Sharp's first half has expansion 1 and check 0, Denon's 0 and 0.  The
 * frame is certain at the echo's last pulse.
 *
 * Scancodes follow rc-core: address<<8 | command.
 */
#include "ir_family.h"

#define SHARP_UNIT 40                   /* rc-core's time base */
#define SHARP_BIT_PULSE (8 * SHARP_UNIT)
#define SHARP_BIT_0_PERIOD (25 * SHARP_UNIT) /* pulse and space: a 680 µs space */
#define SHARP_BIT_1_PERIOD (50 * SHARP_UNIT) /* a 1680 µs space */
#define SHARP_BIT_0_SPACE (SHARP_BIT_0_PERIOD - SHARP_BIT_PULSE)
#define SHARP_BIT_1_SPACE (SHARP_BIT_1_PERIOD - SHARP_BIT_PULSE)
#define SHARP_ECHO_SPACE (1000 * SHARP_UNIT) /* 40 ms, as rc-core sends it */
#define SHARP_ADDRESS_BITS 5
#define SHARP_COMMAND_BITS 8
#define SHARP_NBITS 15
/* Expansion and check bits of a first half: Sharp 1,0, Denon 0,0. */
#define SHARP_EXPANSION_BIT (1u << 13)
#define SHARP_CHECK_BIT (1u << 14)
/* The echo inverts the command, expansion and check bits. */
#define SHARP_ECHO_INVERTS 0x7fe0u
#define SHARP_PULSE_MARGIN (SHARP_BIT_PULSE / 2)
/* rc-core's: a bit is read from pulse plus space (robust to receivers that
 * lengthen pulses); the windows overlap in 1360..1640, which reads as 1. */
#define SHARP_PERIOD_MARGIN (2 * SHARP_BIT_PULSE)
/*
 * The space before the echo: 20..60 ms.  rc-core accepts 30..50 ms and
 * misses real remotes.  IRMP's recordings (Sharp and Denon) have 41.7-48.1
 * ms, because those remotes start a half every ~65-67 ms whatever its
 * length: a half of 15-30 ms leaves 35-52 ms, past rc-core's 50.  Remotes
 * are also reported with gaps just under 30 ms.  Widening is safe: the echo
 * must repeat the address and invert the other ten bits, and a first
 * half's expansion/check bits (10 or 00) never match an echo's (01 or 11).
 */
/*
 * A first half whose echo never comes is reported only if it is
 * unambiguous: preceded by darkness, and every bit period within 250 µs of
 * 1000 or 2000 (rc-core's ±640 period tolerance, fine with the echo's
 * check, lets RC-MM's 445-946 µs symbols pass for zeros).
 */
#define SHARP_LONE_GAP_BEFORE 10000
#define SHARP_LONE_MARGIN 250
#define SHARP_ECHO_GAP_MIN 20000
#define SHARP_ECHO_GAP_MAX 60000
#define SHARP_ECHO_GAP ((SHARP_ECHO_GAP_MIN + SHARP_ECHO_GAP_MAX) / 2)
#define SHARP_ECHO_MARGIN ((SHARP_ECHO_GAP_MAX - SHARP_ECHO_GAP_MIN) / 2)

enum sharp_state {
	STATE_INACTIVE,
	STATE_BIT_SPACE,
	STATE_BIT_PULSE,
	STATE_TRAILER_PULSE,
	STATE_ECHO_SPACE,
	STATE_ECHO_PULSE, /* the echo's first pulse */
};

/* The states' names, for `irjack decode -v` (ir_decode_why_state()). */
static const char *const sharp_states[] = {
	"idle", "bit space", "bit pulse", "trailer pulse", "echo space", "echo pulse",
};

struct sharp_dec {
	enum sharp_state state;
	unsigned count;       /* bits of the current half */
	bool in_echo;
	uint32_t bits;        /* the current half, LSB first as received */
	uint32_t first;       /* the first half, once complete */
	uint32_t pulse_len;   /* the pulse before the space being decoded */
	uint64_t start_us;    /* of the current half */
	uint64_t frame_start_us;
	bool clean;           /* the current half could stand alone (see SHARP_LONE_*) */
	bool first_clean;
};

static void sharp_reset(void *state)
{
	struct sharp_dec *d = state;

	d->state = STATE_INACTIVE;
}

/* A first half: expansion and check bits 1,0 (Sharp) or 0,0 (Denon). */
static bool sharp_is_first_half(uint32_t bits)
{
	return !(bits & SHARP_CHECK_BIT);
}

/* rc-core's scancode from the first half as received. */
static uint64_t sharp_scancode(uint32_t bits)
{
	return (uint64_t)(bits & 0x1f) << 8 | ((bits >> SHARP_ADDRESS_BITS) & 0xff);
}

/* Starts a half on its first pulse. */
static void sharp_start_half(struct sharp_dec *d, const struct ir_decode_ctx *ctx, uint32_t pulse)
{
	d->start_us = ir_decode_now(ctx);
	d->count = 0;
	d->bits = 0;
	d->pulse_len = pulse;
	d->clean = ir_decode_space_before(ctx) >= SHARP_LONE_GAP_BEFORE;
	d->state = STATE_BIT_SPACE;
}

/* The first half is complete: wait for its echo. */
static void sharp_await_echo(struct sharp_dec *d)
{
	d->first = d->bits;
	d->first_clean = d->clean;
	d->frame_start_us = d->start_us;
	d->in_echo = true;
	d->state = STATE_ECHO_SPACE;
}

static void sharp_decode(void *state, struct ir_decode_ctx *ctx, const struct ir_edge *e)
{
	struct sharp_dec *d = state;
	bool pulse = e->kind == IR_PULSE;
	uint32_t dur = e->duration;
	uint32_t period;

	switch (d->state) {
	case STATE_INACTIVE:
		if (!pulse || !ir_eq_margin(dur, SHARP_BIT_PULSE, SHARP_PULSE_MARGIN))
			break;
		d->in_echo = false;
		sharp_start_half(d, ctx, dur);
		return;

	case STATE_BIT_SPACE:
		if (pulse)
			break;
		period = dur > UINT32_MAX - d->pulse_len ? UINT32_MAX : d->pulse_len + dur;
		if (ir_eq_margin(period, SHARP_BIT_1_PERIOD, SHARP_PERIOD_MARGIN)) {
			d->bits |= UINT32_C(1) << d->count;
			if (!ir_eq_margin(period, SHARP_BIT_1_PERIOD, SHARP_LONE_MARGIN))
				d->clean = false;
		} else if (ir_eq_margin(period, SHARP_BIT_0_PERIOD, SHARP_PERIOD_MARGIN)) {
			if (!ir_eq_margin(period, SHARP_BIT_0_PERIOD, SHARP_LONE_MARGIN))
				d->clean = false;
		} else {
			break;
		}
		d->count++;
		d->state = d->count == SHARP_NBITS ? STATE_TRAILER_PULSE : STATE_BIT_PULSE;
		return;

	case STATE_BIT_PULSE:
		if (!pulse || !ir_eq_margin(dur, SHARP_BIT_PULSE, SHARP_PULSE_MARGIN))
			break;
		d->pulse_len = dur;
		d->state = STATE_BIT_SPACE;
		return;

	case STATE_TRAILER_PULSE:
		if (!pulse || !ir_eq_margin(dur, SHARP_BIT_PULSE, SHARP_PULSE_MARGIN))
			break;
		if (d->in_echo && (d->first ^ d->bits) == SHARP_ECHO_INVERTS) {
			ir_decode_emit(ctx, IR_PROTO_SHARP, sharp_scancode(d->first), 0,
				       d->frame_start_us);
			d->state = STATE_INACTIVE;
			return;
		}
		/* Not the echo of the half before it, but maybe a first half
		 * itself (that one's echo was lost). */
		if (!sharp_is_first_half(d->bits))
			break;
		sharp_await_echo(d);
		return;

	case STATE_ECHO_SPACE:
		if (pulse)
			break;
		if (dur > SHARP_ECHO_GAP_MAX) {
			/* No echo came: some captures (IRMP's sharp-denon.txt)
			 * and remotes only carry the first half. */
			if (d->first_clean)
				ir_decode_emit(ctx, IR_PROTO_SHARP, sharp_scancode(d->first), 0,
					       d->frame_start_us);
			break;
		}
		if (!ir_eq_margin(dur, SHARP_ECHO_GAP, SHARP_ECHO_MARGIN))
			break;
		d->state = STATE_ECHO_PULSE;
		return;

	case STATE_ECHO_PULSE:
		if (!pulse || !ir_eq_margin(dur, SHARP_BIT_PULSE, SHARP_PULSE_MARGIN))
			break;
		sharp_start_half(d, ctx, dur);
		return;
	}
	ir_decode_why_state(ctx, "sharp", sharp_states, d->state, d->count, e->kind == IR_PULSE, dur);
	d->state = STATE_INACTIVE;
}

/* The 15 bits of one half, in the order they are sent. */
static uint64_t sharp_raw(uint64_t scancode, bool echo)
{
	uint64_t address = (scancode >> 8) & 0x1f;
	uint64_t command = scancode & 0xff;
	uint64_t raw = address | command << SHARP_ADDRESS_BITS | SHARP_EXPANSION_BIT;

	return echo ? raw ^ SHARP_ECHO_INVERTS : raw;
}

static int sharp_encode(enum ir_protocol p, uint64_t scancode, unsigned toggle,
			struct ir_edge_buf *out)
{
	/* rc-core's encoder sends the bit periods as spaces (1320/2320 µs
	 * bits); this sends the protocol's 1000/2000, which rc-core's
	 * decoder accepts as well. */
	struct ir_pd_timings t = {
		.bit_pulse = SHARP_BIT_PULSE,
		.bit_0_space = SHARP_BIT_0_SPACE,
		.bit_1_space = SHARP_BIT_1_SPACE,
		.trailer_pulse = SHARP_BIT_PULSE,
		.trailer_space = SHARP_ECHO_SPACE,
		.msb_first = false,
	};
	int ret;

	(void)toggle;
	if (p != IR_PROTO_SHARP)
		return -EINVAL;
	ret = ir_gen_pulse_distance(out, &t, SHARP_NBITS, sharp_raw(scancode, false));
	if (ret < 0)
		return ret;
	t.trailer_space = 0;
	return ir_gen_pulse_distance(out, &t, SHARP_NBITS, sharp_raw(scancode, true));
}

static const struct ir_protocol_info sharp_infos[] = {
	{
		.id = IR_PROTO_SHARP, .name = "sharp", .family = "sharp",
		.scancode_mask = 0x1fff, .carrier_hz = 38000, .duty_cycle = 33,
		.unit_us = SHARP_UNIT, .margin_us = SHARP_PULSE_MARGIN,
		.repeat_period_ms = 125, .frame_period_us = 0,
		/* rc-core's is its longest echo gap (50 ms): a receiver
		 * timeout shorter than the gap would cut the frame in two. */
		.min_trailing_space_us = SHARP_ECHO_GAP_MAX, .has_toggle = false,
		.has_encoder = true,
		.summary = "Sharp/Denon, 5-bit address, 8-bit command, inverted echo",
	},
};

static uint32_t sharp_space_deadline(const void *state, const struct ir_decode_ctx *ctx)
{
	const struct sharp_dec *d = state;

	(void)ctx;
	return d->state == STATE_ECHO_SPACE && d->first_clean ? SHARP_ECHO_GAP_MAX + 1 : 0;
}

const struct ir_family ir_family_sharp = {
	.name = "sharp",
	.protocols = sharp_infos,
	.protocol_count = sizeof(sharp_infos) / sizeof(sharp_infos[0]),
	.state_size = sizeof(struct sharp_dec),
	.reset = sharp_reset,
	.decode = sharp_decode,
	.space_deadline = sharp_space_deadline,
	.encode = sharp_encode,
};
