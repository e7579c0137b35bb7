/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * samsung.c - Samsung's 36-bit format (IRMP 3 "SAMSUNG", DecodeIR's
 * Samsung36; DVD and Blu-ray players): NEC-like bits after a 4.5 ms
 * header, with a sync after the 16-bit address; 38 kHz.
 *
 *   frame: 4500 pulse, 4500 space,
 *          16 × (560 pulse, 560|1680 space)             address, LSB first
 *          560 pulse, 4500 space                        sync
 *          20 × (560 pulse, 560|1680 space)             4-bit ID, command,
 *          560 pulse                                    ~command, LSB first
 *   repeat: the whole frame, every 108 ms
 *
 * IRMP waits 4500 µs at the sync (its samples: 4050-4950), DecodeIR's IRP
 * 9 units (5040); both are taken, 4500 is sent.
 *
 * Scancode: address << 16 | ID << 8 | command, IRMP's address << 16 |
 * command (IRMP puts the ID above the command's 8 bits).  The frame is
 * certain at its last pulse: its command complement must hold.
 *
 * The nec family reads the same header and 16 bits, then fails at the sync;
 * this family fails at a 4.5 ms-header NEC frame's 17th bit.
 */
#include "ir_family.h"

#define SAMSUNG_UNIT 560
#define SAMSUNG_HEADER_PULSE 4500        /* 8 units */
#define SAMSUNG_HEADER_SPACE 4500
#define SAMSUNG_BIT_PULSE SAMSUNG_UNIT
#define SAMSUNG_BIT_0_SPACE SAMSUNG_UNIT
#define SAMSUNG_BIT_1_SPACE (3 * SAMSUNG_UNIT)
#define SAMSUNG_SYNC_SPACE 4500          /* IRMP's */
#define SAMSUNG36_SYNC_SPACE (9 * SAMSUNG_UNIT) /* DecodeIR's: 5040 */
#define SAMSUNG_TRAILER_PULSE SAMSUNG_UNIT
#define SAMSUNG_TRAILER_SPACE (10 * SAMSUNG_UNIT)
#define SAMSUNG_FRAME_PERIOD 108000
#define SAMSUNG_ADDRESS_BITS 16
#define SAMSUNG_NBITS 36                 /* 16 address, 4 ID, 8 command, 8 ~command */
#define SAMSUNG_MARGIN (SAMSUNG_UNIT / 2)
/* The header pulse is the easiest part to lengthen (receiver AGC settling). */
#define SAMSUNG_HEADER_MARGIN SAMSUNG_UNIT

enum samsung_state {
	STATE_INACTIVE,
	STATE_HEADER_SPACE,
	STATE_BIT_PULSE,
	STATE_BIT_SPACE,
	STATE_TRAILER_PULSE,
};

struct samsung_dec {
	enum samsung_state state;
	unsigned count;
	bool synced;   /* the sync after the address was seen */
	uint64_t bits; /* LSB first as received, without the sync */
	uint64_t start_us;
};

static void samsung_reset(void *state)
{
	struct samsung_dec *d = state;

	d->state = STATE_INACTIVE;
}

static void samsung_finish(struct samsung_dec *d, struct ir_decode_ctx *ctx)
{
	uint64_t address = d->bits & 0xffff, id = (d->bits >> 16) & 0xf;
	uint64_t command = (d->bits >> 20) & 0xff, not_command = (d->bits >> 28) & 0xff;

	if ((command ^ not_command) != 0xff)
		return;
	ir_decode_emit(ctx, IR_PROTO_SAMSUNG, address << 16 | id << 8 | command, 0, d->start_us);
}

static void samsung_decode(void *state, struct ir_decode_ctx *ctx, const struct ir_edge *e)
{
	struct samsung_dec *d = state;
	bool pulse = e->kind == IR_PULSE;
	uint32_t dur = e->duration;

	switch (d->state) {
	case STATE_INACTIVE:
		if (!pulse || !ir_eq_margin(dur, SAMSUNG_HEADER_PULSE, SAMSUNG_HEADER_MARGIN))
			break;
		d->start_us = ir_decode_now(ctx);
		d->count = 0;
		d->bits = 0;
		d->synced = false;
		d->state = STATE_HEADER_SPACE;
		return;

	case STATE_HEADER_SPACE:
		if (pulse || !ir_eq_margin(dur, SAMSUNG_HEADER_SPACE, SAMSUNG_MARGIN))
			break;
		d->state = STATE_BIT_PULSE;
		return;

	case STATE_BIT_PULSE:
		if (!pulse || !ir_eq_margin(dur, SAMSUNG_BIT_PULSE, SAMSUNG_MARGIN))
			break;
		d->state = STATE_BIT_SPACE;
		return;

	case STATE_BIT_SPACE:
		if (pulse)
			break;
		if (d->count == SAMSUNG_ADDRESS_BITS && !d->synced) {
			if (!ir_eq_margin(dur, SAMSUNG_SYNC_SPACE, SAMSUNG_MARGIN) &&
			    !ir_eq_margin(dur, SAMSUNG36_SYNC_SPACE, SAMSUNG_MARGIN))
				break;
			d->synced = true;
			d->state = STATE_BIT_PULSE;
			return;
		}
		if (ir_eq_margin(dur, SAMSUNG_BIT_1_SPACE, SAMSUNG_MARGIN))
			d->bits |= UINT64_C(1) << d->count;
		else if (!ir_eq_margin(dur, SAMSUNG_BIT_0_SPACE, SAMSUNG_MARGIN))
			break;
		d->count++;
		d->state = d->count == SAMSUNG_NBITS ? STATE_TRAILER_PULSE : STATE_BIT_PULSE;
		return;

	case STATE_TRAILER_PULSE:
		if (!pulse || !ir_eq_margin(dur, SAMSUNG_TRAILER_PULSE, SAMSUNG_MARGIN))
			break;
		samsung_finish(d, ctx);
		d->state = STATE_INACTIVE;
		return;
	}
	d->state = STATE_INACTIVE;
}

static int samsung_encode(enum ir_protocol p, uint64_t scancode, unsigned toggle,
			  struct ir_edge_buf *out)
{
	struct ir_pd_timings t = {
		.header_pulse = SAMSUNG_HEADER_PULSE,
		.header_space = SAMSUNG_HEADER_SPACE,
		.bit_pulse = SAMSUNG_BIT_PULSE,
		.bit_0_space = SAMSUNG_BIT_0_SPACE,
		.bit_1_space = SAMSUNG_BIT_1_SPACE,
		.trailer_pulse = SAMSUNG_BIT_PULSE, /* the sync */
		.trailer_space = SAMSUNG_SYNC_SPACE,
		.msb_first = false,
	};
	uint64_t id = (scancode >> 8) & 0xf, command = scancode & 0xff;
	int ret;

	(void)toggle;
	if (p != IR_PROTO_SAMSUNG)
		return -EINVAL;
	ret = ir_gen_pulse_distance(out, &t, SAMSUNG_ADDRESS_BITS, (scancode >> 16) & 0xffff);
	if (ret < 0)
		return ret;
	t.header_pulse = 0;
	t.header_space = 0;
	t.trailer_pulse = SAMSUNG_TRAILER_PULSE;
	t.trailer_space = SAMSUNG_TRAILER_SPACE;
	return ir_gen_pulse_distance(out, &t, SAMSUNG_NBITS - SAMSUNG_ADDRESS_BITS,
				     id | command << 4 | (~command & 0xff) << 12);
}

static const struct ir_protocol_info samsung_infos[] = {
	{
		.id = IR_PROTO_SAMSUNG, .name = "samsung", .family = "samsung",
		.scancode_mask = 0xffff0fff, .carrier_hz = 38000, .duty_cycle = 33,
		.unit_us = SAMSUNG_UNIT, .margin_us = SAMSUNG_MARGIN, .repeat_period_ms = 125,
		.frame_period_us = SAMSUNG_FRAME_PERIOD,
		.min_trailing_space_us = SAMSUNG_TRAILER_SPACE, .has_toggle = false,
		.has_encoder = true,
		.summary = "Samsung 36-bit: 16-bit address, sync, 4-bit ID, 8-bit command",
	},
};

const struct ir_family ir_family_samsung = {
	.name = "samsung",
	.protocols = samsung_infos,
	.protocol_count = sizeof(samsung_infos) / sizeof(samsung_infos[0]),
	.state_size = sizeof(struct samsung_dec),
	.reset = samsung_reset,
	.decode = samsung_decode,
	.encode = samsung_encode,
};
