/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nubert.c - Nubert (subwoofers), the "Speaker" loudspeaker protocol and
 * Fan (ventilators): every bit is a long pulse and a short space (1) or a
 * short pulse and a long space (0), MSB first, after a header.
 *
 *   nubert:  header 1340 pulse, 340 space; 10 bits: 1340/340 (1), 500/1300
 *            (0); a 500 µs stop pulse; 36 kHz
 *   speaker: header 440 pulse, 1250 space; 10 bits: 1250/440 (1), 440/1250
 *            (0); a 440 µs stop pulse; 38 kHz
 *   fan:     header 1280 pulse, 380 space; 11 bits: 1280/380 (1), 380/1280
 *            (0); no stop pulse; 36 kHz
 *
 * Nubert and Speaker remotes send every frame twice, ~35 ms apart; both
 * are reported (as Sony's triple frames are).  Each frame is certain at its
 * stop pulse, a Fan frame once its 11th pulse is over (its length is the
 * last bit).
 *
 * A Fan frame whose last bit is 0 is a Nubert frame: same header, and the
 * 11th pulse, short, is Nubert's stop pulse (IRMP refuses to build both).
 * Such frames are reported as Nubert when Nubert is enabled; Fan is left
 * out of the default set.
 *
 * Scancodes are IRMP's address << 16 | command: the 10-bit (fan: 11-bit)
 * command.
 */
#include "ir_family.h"

#define NUBERT_HEADER_PULSE 1340
#define NUBERT_HEADER_SPACE 340
#define NUBERT_1_PULSE 1340
#define NUBERT_1_SPACE 340
#define NUBERT_0_PULSE 500
#define NUBERT_0_SPACE 1300
#define SPEAKER_HEADER_PULSE 440
#define SPEAKER_HEADER_SPACE 1250
#define SPEAKER_1_PULSE 1250
#define SPEAKER_1_SPACE 440
#define SPEAKER_0_PULSE 440
#define SPEAKER_0_SPACE 1250
#define FAN_HEADER_PULSE 1280
#define FAN_HEADER_SPACE 380
#define FAN_1_PULSE 1280
#define FAN_1_SPACE 380
#define FAN_0_PULSE 380
#define FAN_0_SPACE 1280
#define NUBERT_NBITS 10
#define FAN_NBITS 11
/*
 * Durations are read as short or long, with ±200 around the three
 * protocols' values: short pulses 180..700, long pulses 1050..1540, short
 * spaces 140..640, long spaces 1050..1500.  Long spaces stop short of
 * Sharp's 1 bits (1680 µs, at least 1522 with its ±158 jitter), which
 * would otherwise read as a run of 0s.  IRMP's Nubert recording fits: 400-600
 * and 1300-1500 µs pulses, 200-400 and 1100-1300 µs spaces.
 */
#define NUBERT_MARGIN 200
#define SHORT_PULSE_MIN 380             /* fan */
#define SHORT_PULSE_MAX 500             /* nubert */
#define LONG_PULSE_MIN 1250             /* speaker */
#define LONG_PULSE_MAX 1340             /* nubert */
#define SHORT_SPACE_MIN 340             /* nubert */
#define SHORT_SPACE_MAX 440             /* speaker */
#define LONG_SPACE_MIN 1250             /* speaker */
#define LONG_SPACE_MAX 1300             /* nubert */
/* Frames are at least 6.6 ms apart (Fan's repeat gap); the header may only
 * start after more darkness than any header space of other protocols up to
 * NEC's 4.5 ms, since Speaker's header looks like a 0 bit. */
#define NUBERT_IDLE_SPACE 5000
#define NUBERT_REPEAT_SPACE 35000       /* Nubert's and Speaker's second frame */
#define FAN_REPEAT_SPACE 6600

enum nubert_state {
	STATE_INACTIVE,
	STATE_HEADER_SPACE,
	STATE_BIT_PULSE,
	STATE_BIT_SPACE,
};

/* The states' names, for `irjack decode -v` (ir_decode_why_state()). */
static const char *const nubert_states[] = {
	"idle", "header space", "bit pulse", "bit space",
};

struct nubert_dec {
	enum nubert_state state;
	bool speaker;         /* a short header: Speaker, else Nubert or Fan */
	unsigned count;
	uint32_t bits;        /* MSB first as received */
	bool long_pulse;      /* the pulse before the space being decoded */
	uint64_t start_us;
};

static void nubert_reset(void *state)
{
	struct nubert_dec *d = state;

	d->state = STATE_INACTIVE;
}

static bool in_range(uint32_t d, uint32_t min, uint32_t max)
{
	return ir_geq_margin(d, min, NUBERT_MARGIN) && ir_leq_margin(d, max, NUBERT_MARGIN);
}

static bool is_short_pulse(uint32_t d)
{
	return in_range(d, SHORT_PULSE_MIN, SHORT_PULSE_MAX);
}

static bool is_long_pulse(uint32_t d)
{
	return in_range(d, LONG_PULSE_MIN, LONG_PULSE_MAX);
}

/* A space that completes a bit begun by a long (or short) pulse. */
static bool is_matching_space(uint32_t d, bool long_pulse)
{
	return long_pulse ? in_range(d, SHORT_SPACE_MIN, SHORT_SPACE_MAX)
			  : in_range(d, LONG_SPACE_MIN, LONG_SPACE_MAX);
}

/* The pulse after 10 bits of a long-header frame: Nubert's stop pulse
 * or Fan's 11th bit. */
static void nubert_finish(struct nubert_dec *d, struct ir_decode_ctx *ctx, bool long_pulse)
{
	if (!long_pulse && ir_decode_enabled(ctx, IR_PROTO_NUBERT))
		ir_decode_emit(ctx, IR_PROTO_NUBERT, d->bits, 0, d->start_us);
	else
		ir_decode_emit(ctx, IR_PROTO_FAN, d->bits << 1 | long_pulse, 0, d->start_us);
}

static void nubert_decode(void *state, struct ir_decode_ctx *ctx, const struct ir_edge *e)
{
	struct nubert_dec *d = state;
	bool pulse = e->kind == IR_PULSE;
	bool long_pulse;

	switch (d->state) {
	case STATE_INACTIVE:
		if (!pulse || ir_decode_space_before(ctx) < NUBERT_IDLE_SPACE)
			break;
		if (is_long_pulse(e->duration))
			d->speaker = false;
		else if (is_short_pulse(e->duration))
			d->speaker = true;
		else
			break;
		d->start_us = ir_decode_now(ctx);
		d->count = 0;
		d->bits = 0;
		d->state = STATE_HEADER_SPACE;
		return;

	case STATE_HEADER_SPACE:
		if (e->kind != IR_SPACE || !is_matching_space(e->duration, !d->speaker))
			break;
		d->state = STATE_BIT_PULSE;
		return;

	case STATE_BIT_PULSE:
		if (!pulse)
			break;
		if (is_long_pulse(e->duration))
			long_pulse = true;
		else if (is_short_pulse(e->duration))
			long_pulse = false;
		else
			break;
		if (d->count < NUBERT_NBITS) {
			d->long_pulse = long_pulse;
			d->state = STATE_BIT_SPACE;
			return;
		}
		if (!d->speaker)
			nubert_finish(d, ctx, long_pulse);
		else if (!long_pulse)
			ir_decode_emit(ctx, IR_PROTO_SPEAKER, d->bits, 0, d->start_us);
		d->state = STATE_INACTIVE;
		return;

	case STATE_BIT_SPACE:
		if (e->kind != IR_SPACE || !is_matching_space(e->duration, d->long_pulse))
			break;
		d->bits = d->bits << 1 | d->long_pulse;
		d->count++;
		d->state = STATE_BIT_PULSE;
		return;
	}
	ir_decode_why_state(ctx, "nubert", nubert_states, d->state,
			    d->count, e->kind == IR_PULSE, e->duration);
	d->state = STATE_INACTIVE;
}

struct nubert_timings {
	uint32_t header_pulse, header_space;
	uint32_t pulse_1, space_1, pulse_0, space_0;
	uint32_t stop_pulse; /* 0 = none */
};

static const struct nubert_timings nubert_t = {
	NUBERT_HEADER_PULSE, NUBERT_HEADER_SPACE, NUBERT_1_PULSE, NUBERT_1_SPACE,
	NUBERT_0_PULSE,      NUBERT_0_SPACE,      NUBERT_0_PULSE,
};
static const struct nubert_timings speaker_t = {
	SPEAKER_HEADER_PULSE, SPEAKER_HEADER_SPACE, SPEAKER_1_PULSE, SPEAKER_1_SPACE,
	SPEAKER_0_PULSE,      SPEAKER_0_SPACE,      SPEAKER_0_PULSE,
};
static const struct nubert_timings fan_t = {
	FAN_HEADER_PULSE, FAN_HEADER_SPACE, FAN_1_PULSE, FAN_1_SPACE,
	FAN_0_PULSE,      FAN_0_SPACE,      0,
};

static int nubert_encode(enum ir_protocol p, uint64_t scancode, unsigned toggle,
			 struct ir_edge_buf *out)
{
	const struct nubert_timings *t;
	unsigned nbits = NUBERT_NBITS;
	int ret = 0;

	(void)toggle;
	switch (p) {
	case IR_PROTO_NUBERT:
		t = &nubert_t;
		break;
	case IR_PROTO_SPEAKER:
		t = &speaker_t;
		break;
	case IR_PROTO_FAN:
		t = &fan_t;
		nbits = FAN_NBITS;
		break;
	default:
		return -EINVAL;
	}
	ret |= ir_edge_buf_pulse(out, t->header_pulse);
	ret |= ir_edge_buf_space(out, t->header_space);
	for (unsigned i = 0; i < nbits; i++) {
		bool bit = (scancode >> (nbits - 1 - i)) & 1;

		ret |= ir_edge_buf_pulse(out, bit ? t->pulse_1 : t->pulse_0);
		ret |= ir_edge_buf_space(out, bit ? t->space_1 : t->space_0);
	}
	if (t->stop_pulse)
		ret |= ir_edge_buf_pulse(out, t->stop_pulse);
	return ret ? -ENOMEM : 0;
}

#define NUBERT_INFO(ID, NAME, MASK, CARRIER, UNIT, GAP, NOT_DEFAULT, SUMMARY)              \
	{                                                                                  \
		.id = ID, .name = NAME, .family = "nubert", .scancode_mask = MASK,         \
		.carrier_hz = CARRIER, .duty_cycle = 33, .unit_us = UNIT,                  \
		.margin_us = NUBERT_MARGIN, .repeat_period_ms = 125, .frame_period_us = 0, \
		.min_trailing_space_us = GAP, .has_toggle = false, .has_encoder = true,    \
		.not_default = NOT_DEFAULT, .summary = SUMMARY,                            \
	}

static const struct ir_protocol_info nubert_infos[] = {
	NUBERT_INFO(IR_PROTO_NUBERT, "nubert", 0x3ff, 36000, NUBERT_HEADER_SPACE,
		    NUBERT_REPEAT_SPACE, false, "Nubert subwoofers, 10-bit command"),
	NUBERT_INFO(IR_PROTO_SPEAKER, "speaker", 0x3ff, 38000, SPEAKER_1_SPACE,
		    NUBERT_REPEAT_SPACE, false, "Speaker, a loudspeaker protocol like Nubert's, 10-bit command"),
	/* Off by default: its frames ending in 0 are Nubert's. */
	NUBERT_INFO(IR_PROTO_FAN, "fan", 0x7ff, 36000, FAN_1_SPACE, FAN_REPEAT_SPACE, true,
		    "Fan (ventilators), 11-bit command, Nubert timing without a stop pulse"),
};

const struct ir_family ir_family_nubert = {
	.name = "nubert",
	.protocols = nubert_infos,
	.protocol_count = sizeof(nubert_infos) / sizeof(nubert_infos[0]),
	.state_size = sizeof(struct nubert_dec),
	.reset = nubert_reset,
	.decode = nubert_decode,
	.encode = nubert_encode,
};
