/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sanyo.c - Sanyo (LC7461; also Aiwa, Chinon): NEC's header and bit
 * timings with 42 bits, LSB first: 13 address, 13 ~address, 8 command,
 * 8 ~command.  38 kHz, one frame every 108 ms.
 *
 *   frame:  9000 pulse, 4500 space, 42 × (563 pulse, 563|1688 space), 563 pulse
 *   repeat: 9000 pulse, 4500 space, 563 pulse, silence (while held)
 *
 * NEC's 9000/2250/563 repeat code is taken as a Sanyo repeat too: rc-core's
 * NEC decoder repeats whatever key was down last, Sanyo's included.
 *
 * Scancodes follow rc-core: address<<8 | command.  As in rc-core only the
 * command is checked against its complement.
 */
#include "ir_family.h"

#define SANYO_UNIT 563                /* 562.5 µs: 21 cycles of 38 kHz */
#define SANYO_HEADER_PULSE 9000       /* 16 units */
#define SANYO_HEADER_SPACE 4500       /* 8 units */
#define SANYO_NEC_REPEAT_SPACE 2250   /* 4 units: NEC's repeat code */
#define SANYO_BIT_PULSE SANYO_UNIT
#define SANYO_BIT_0_SPACE SANYO_UNIT
#define SANYO_BIT_1_SPACE 1688        /* 3 units */
#define SANYO_TRAILER_PULSE SANYO_UNIT
#define SANYO_TRAILER_SPACE 5625      /* 10 units: rc-core's minimum gap */
#define SANYO_FRAME_PERIOD 108000     /* LC7461: frames and repeats start 108 ms apart */
#define SANYO_ADDRESS_BITS 13
#define SANYO_COMMAND_BITS 8
#define SANYO_NBITS (2 * SANYO_ADDRESS_BITS + 2 * SANYO_COMMAND_BITS)
#define SANYO_MARGIN (SANYO_UNIT / 2)
/* Wider than rc-core's unit/2, as for NEC (same header, same receivers):
 * the header pulse is the easiest part to lengthen (receiver AGC settling). */
#define SANYO_HEADER_MARGIN (2 * SANYO_UNIT)
/*
 * A frame, or a repeat code's single pulse, is certain once the space after
 * its last pulse is longer than any bit space (1688 + 281 = 1969 µs): NEC
 * timings carry longer frames too (48-bit NEC variants).  rc-core waits
 * 10 units after a frame and 150 (84 ms) after a repeat code.
 */
#define SANYO_END_SPACE (4 * SANYO_UNIT)

enum sanyo_state {
	STATE_INACTIVE,
	STATE_HEADER_SPACE,
	STATE_BIT_PULSE,
	STATE_BIT_SPACE,
	STATE_TRAILER_PULSE,
	STATE_TRAILER_SPACE,
	STATE_REPEAT_PULSE, /* the pulse of NEC's repeat code */
};

/* The states' names, for `irjack decode -v` (ir_decode_why_state()). */
static const char *const sanyo_states[] = {
	"idle", "header space", "bit pulse", "bit space", "trailer pulse", "trailer space", "repeat pulse",
};

struct sanyo_dec {
	enum sanyo_state state;
	unsigned count;
	uint64_t bits; /* LSB first as received */
	uint64_t start_us;
};

static const struct ir_protocol_set sanyo_protocols = {
	.bits = { UINT64_C(1) << IR_PROTO_SANYO },
};

static void sanyo_reset(void *state)
{
	struct sanyo_dec *d = state;

	d->state = STATE_INACTIVE;
}

/* rc-core's scancode from the 42 bits as received; false if the command
 * and its complement disagree. */
static bool sanyo_scancode(uint64_t bits, uint64_t *scancode)
{
	uint32_t address = bits & 0x1fff;
	uint32_t command = (bits >> (2 * SANYO_ADDRESS_BITS)) & 0xff;
	uint32_t not_command = (bits >> (2 * SANYO_ADDRESS_BITS + SANYO_COMMAND_BITS)) & 0xff;

	if ((command ^ not_command) != 0xff)
		return false;
	*scancode = (uint64_t)address << 8 | command;
	return true;
}

static void sanyo_decode(void *state, struct ir_decode_ctx *ctx, const struct ir_edge *e)
{
	struct sanyo_dec *d = state;
	bool pulse = e->kind == IR_PULSE;
	uint32_t dur = e->duration;
	uint64_t scancode;

	switch (d->state) {
	case STATE_INACTIVE:
		if (!pulse || !ir_eq_margin(dur, SANYO_HEADER_PULSE, SANYO_HEADER_MARGIN))
			break;
		d->start_us = ir_decode_now(ctx);
		d->count = 0;
		d->bits = 0;
		d->state = STATE_HEADER_SPACE;
		return;

	case STATE_HEADER_SPACE:
		if (pulse)
			break;
		/* centred on rc-core's 8 × 563, so that its window is inside */
		if (ir_eq_margin(dur, 8 * SANYO_UNIT, SANYO_MARGIN)) {
			d->state = STATE_BIT_PULSE;
			return;
		}
		if (ir_eq_margin(dur, SANYO_NEC_REPEAT_SPACE, SANYO_MARGIN)) {
			d->state = STATE_REPEAT_PULSE;
			return;
		}
		break;

	case STATE_BIT_PULSE:
		if (!pulse || !ir_eq_margin(dur, SANYO_BIT_PULSE, SANYO_MARGIN))
			break;
		d->state = STATE_BIT_SPACE;
		return;

	case STATE_BIT_SPACE:
		if (pulse)
			break;
		if (d->count == 0 && dur >= SANYO_END_SPACE) {
			/* Sanyo's own repeat code: the header and one pulse. */
			ir_decode_emit_repeat(ctx, &sanyo_protocols, d->start_us);
			d->state = STATE_INACTIVE;
			return;
		}
		if (ir_eq_margin(dur, SANYO_BIT_1_SPACE, SANYO_MARGIN))
			d->bits |= UINT64_C(1) << d->count;
		else if (!ir_eq_margin(dur, SANYO_BIT_0_SPACE, SANYO_MARGIN))
			break;
		d->count++;
		d->state = d->count == SANYO_NBITS ? STATE_TRAILER_PULSE : STATE_BIT_PULSE;
		return;

	case STATE_TRAILER_PULSE:
		if (!pulse || !ir_eq_margin(dur, SANYO_TRAILER_PULSE, SANYO_MARGIN))
			break;
		d->state = STATE_TRAILER_SPACE;
		return;

	case STATE_TRAILER_SPACE:
		if (pulse || dur < SANYO_END_SPACE || !sanyo_scancode(d->bits, &scancode))
			break;
		ir_decode_emit(ctx, IR_PROTO_SANYO, scancode, 0, d->start_us);
		d->state = STATE_INACTIVE;
		return;

	case STATE_REPEAT_PULSE:
		if (!pulse || !ir_eq_margin(dur, SANYO_TRAILER_PULSE, SANYO_MARGIN))
			break;
		ir_decode_emit_repeat(ctx, &sanyo_protocols, d->start_us);
		d->state = STATE_INACTIVE;
		return;
	}
	ir_decode_why_state(ctx, "sanyo", sanyo_states, d->state, d->count, e->kind == IR_PULSE, dur);
	d->state = STATE_INACTIVE;
}

static uint32_t sanyo_space_deadline(const void *state, const struct ir_decode_ctx *ctx)
{
	const struct sanyo_dec *d = state;

	(void)ctx;
	if (d->state == STATE_TRAILER_SPACE || (d->state == STATE_BIT_SPACE && d->count == 0))
		return SANYO_END_SPACE;
	return 0;
}

static int sanyo_encode(enum ir_protocol p, uint64_t scancode, unsigned toggle,
			struct ir_edge_buf *out)
{
	static const struct ir_pd_timings t = {
		.header_pulse = SANYO_HEADER_PULSE,
		.header_space = SANYO_HEADER_SPACE,
		.bit_pulse = SANYO_BIT_PULSE,
		.bit_0_space = SANYO_BIT_0_SPACE,
		.bit_1_space = SANYO_BIT_1_SPACE,
		.trailer_pulse = SANYO_TRAILER_PULSE,
		.msb_first = false,
	};
	uint64_t address = (scancode >> 8) & 0x1fff;
	uint64_t command = scancode & 0xff;
	uint64_t raw;

	(void)toggle;
	if (p != IR_PROTO_SANYO)
		return -EINVAL;
	raw = address | (~address & 0x1fff) << SANYO_ADDRESS_BITS |
	      command << (2 * SANYO_ADDRESS_BITS) |
	      (~command & 0xff) << (2 * SANYO_ADDRESS_BITS + SANYO_COMMAND_BITS);
	return ir_gen_pulse_distance(out, &t, SANYO_NBITS, raw);
}

static int sanyo_encode_repeat(enum ir_protocol p, uint64_t scancode, struct ir_edge_buf *out)
{
	int ret = 0;

	(void)scancode;
	if (p != IR_PROTO_SANYO)
		return -EINVAL;
	ret |= ir_edge_buf_pulse(out, SANYO_HEADER_PULSE);
	ret |= ir_edge_buf_space(out, SANYO_HEADER_SPACE);
	ret |= ir_edge_buf_pulse(out, SANYO_BIT_PULSE);
	return ret ? -ENOMEM : 0;
}

static const struct ir_protocol_info sanyo_infos[] = {
	{
		.id = IR_PROTO_SANYO, .name = "sanyo", .family = "sanyo",
		.scancode_mask = 0x1fffff, .carrier_hz = 38000, .duty_cycle = 33,
		.unit_us = SANYO_UNIT, .margin_us = SANYO_MARGIN, .repeat_period_ms = 125,
		.frame_period_us = SANYO_FRAME_PERIOD,
		.min_trailing_space_us = SANYO_TRAILER_SPACE, .has_toggle = false,
		.has_encoder = true,
		.summary = "Sanyo/Aiwa, 13-bit address and 8-bit command with complements",
	},
};

const struct ir_family ir_family_sanyo = {
	.name = "sanyo",
	.protocols = sanyo_infos,
	.protocol_count = sizeof(sanyo_infos) / sizeof(sanyo_infos[0]),
	.state_size = sizeof(struct sanyo_dec),
	.reset = sanyo_reset,
	.decode = sanyo_decode,
	.space_deadline = sanyo_space_deadline,
	.encode = sanyo_encode,
	.encode_repeat = sanyo_encode_repeat,
};
