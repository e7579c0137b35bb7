/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "ir_lirc_dev.h"

#include <errno.h>
#include <string.h>

#include <linux/lirc.h>

int ir_lirc_mode2_to_edge(uint32_t word, struct ir_edge *out)
{
	uint32_t value = word & LIRC_VALUE_MASK;

	memset(out, 0, sizeof(*out));
	out->duration = value;
	switch (word & LIRC_MODE2_MASK) {
	case LIRC_MODE2_PULSE:
		out->kind = IR_PULSE;
		return value ? 0 : -EINVAL;
	case LIRC_MODE2_SPACE:
		out->kind = IR_SPACE;
		return value ? 0 : -EINVAL;
	case LIRC_MODE2_TIMEOUT:
		out->kind = IR_TIMEOUT;
		return 0;
	case LIRC_MODE2_FREQUENCY:
		out->kind = IR_CARRIER;
		return 0;
	case LIRC_MODE2_OVERFLOW:
		/* the value (0xFFFFFF) carries no time */
		out->kind = IR_OVERFLOW;
		out->duration = 0;
		return 0;
	default:
		return -EINVAL;
	}
}

int ir_lirc_edge_to_mode2(const struct ir_edge *e, uint32_t *word)
{
	if (e->kind == IR_OVERFLOW) {
		*word = LIRC_MODE2_OVERFLOW | LIRC_VALUE_MASK;
		return 0;
	}
	if (e->duration > LIRC_VALUE_MASK)
		return -ERANGE;
	switch (e->kind) {
	case IR_PULSE: *word = LIRC_MODE2_PULSE | e->duration; return 0;
	case IR_SPACE: *word = LIRC_MODE2_SPACE | e->duration; return 0;
	case IR_TIMEOUT: *word = LIRC_MODE2_TIMEOUT | e->duration; return 0;
	case IR_CARRIER: *word = LIRC_MODE2_FREQUENCY | e->duration; return 0;
	default: return -EINVAL;
	}
}

int ir_lirc_scancode_to_frame(const void *lirc_scancode, struct ir_frame *out)
{
	struct lirc_scancode sc;

	/* copy: the caller's read buffer need not be aligned */
	memcpy(&sc, lirc_scancode, sizeof(sc));
	if (sc.rc_proto > IR_PROTO_XBOX_DVD)
		return -EPROTONOSUPPORT;
	memset(out, 0, sizeof(*out));
	out->protocol = (enum ir_protocol)sc.rc_proto;
	out->scancode = sc.scancode;
	if (sc.flags & LIRC_SCANCODE_FLAG_TOGGLE)
		out->flags |= IR_FRAME_TOGGLE;
	if (sc.flags & LIRC_SCANCODE_FLAG_REPEAT)
		out->flags |= IR_FRAME_REPEAT;
	out->start_us = sc.timestamp / 1000;
	out->end_us = out->start_us;
	return 0;
}
