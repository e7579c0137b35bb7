/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_frame.h - a decoded frame: what a protocol family reports and the
 * decoder, the keymap and every output pass on.
 */
#ifndef IRJACK_IR_FRAME_H
#define IRJACK_IR_FRAME_H

#include <stdint.h>

#include "ir_protocol.h"

/* Flag values are LIRC_SCANCODE_FLAG_TOGGLE / _REPEAT. */
#define IR_FRAME_TOGGLE 0x1u /* the frame's toggle bit was set */
#define IR_FRAME_REPEAT 0x2u /* a repeat code (e.g. NEC's) standing for the previous frame */

struct ir_frame {
	enum ir_protocol protocol;
	uint32_t flags;      /* IR_FRAME_* */
	uint64_t scancode;   /* rc-core layout */
	uint64_t start_us;   /* start of the frame's first pulse, in source time */
	uint64_t end_us;     /* end of the frame's last pulse, in source time */
	uint16_t decoder_id; /* 0: a built-in protocol; else the keymap decoder that read
			      * it (see ir_keymap.h) */
};

/* Called for every decoded frame.  `frame` is valid only during the call. */
typedef void (*ir_frame_fn)(void *userdata, const struct ir_frame *frame);

#endif
