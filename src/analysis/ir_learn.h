/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_learn.h - learn an unknown remote's encoding from captured presses.
 * No I/O.  Infers rc_keymaps' `pulse_distance` parameters (space encodes
 * the bit) by clustering durations; when that fails the caller keeps raw
 * timings.  The learned bit string has no 64-bit limit (air conditioners
 * send 100-300 bits): bits are kept as a byte array, MSB-first as sent.
 */
#ifndef IRJACK_IR_LEARN_H
#define IRJACK_IR_LEARN_H

#include <stddef.h>
#include <stdint.h>

#include "ir_edge.h"

#define IR_LEARN_MAX_BITS 1024

/* rc_keymaps pulse_distance parameters (names as in v4l-utils' BPF
 * decoder).  All durations in µs. */
struct ir_learn_pd {
	uint32_t header_pulse, header_space;
	uint32_t bit_pulse, bit_0_space, bit_1_space;
	uint32_t trailer_pulse;
	unsigned bits;
	unsigned margin;
};

/* One press: edges [start, start+len) of the caller's buffer. */
struct ir_learn_press {
	size_t start, len;
};

/*
 * Splits `edges` into presses at spaces/timeouts ≥ `gap_us`.  Writes at most
 * `max` presses to `out` (pulses only count; leading space skipped).  A
 * pulse over 20 ms is taken for a glitch: it ends a press and is dropped.
 * Returns the number found (may exceed `max`: the caller sees it dropped).
 */
size_t ir_learn_split(const struct ir_edge *edges, size_t n, uint32_t gap_us,
		      struct ir_learn_press *out, size_t max);

/*
 * Infers pulse_distance parameters from `ncap` captures (each an edge
 * array, first frame of each is used).  Returns 0, or -EINVAL when the
 * durations don't cluster into one pulse width and two space widths.
 */
int ir_learn_pulse_distance(const struct ir_edge *const *caps, const size_t *lens,
			    size_t ncap, struct ir_learn_pd *out);

/*
 * Decodes one frame of `edges` with `pd`: writes bits (one per byte, 0/1) to
 * `bits[0..max)`.  Returns the bit count (must equal pd->bits) or -EINVAL.
 * This is the learn command's verification matcher until the generic
 * TOML-driven decoders land.
 */
int ir_learn_pd_decode(const struct ir_learn_pd *pd, const struct ir_edge *edges, size_t n,
		       uint8_t *bits, size_t max);

/* rc_keymaps `manchester` parameters (bi-phase): a one is a space then a
 * pulse of `unit` µs each (RC-5 convention: one_space = one_pulse = unit),
 * a zero the reverse.  header_pulse/space are 0 when the frame has none. */
struct ir_learn_manchester {
	uint32_t header_pulse, header_space;
	uint32_t unit;
	unsigned bits;
};

/*
 * Infers bi-phase parameters: every duration after an optional header is
 * one or two units.  Returns 0 or -EINVAL.
 */
int ir_learn_manchester(const struct ir_edge *const *caps, const size_t *lens, size_t ncap,
			struct ir_learn_manchester *out);

/* Decodes one frame with `m` into bits[0..max) (0/1 per byte); returns the
 * bit count (must equal m->bits) or -EINVAL. */
int ir_learn_manchester_decode(const struct ir_learn_manchester *m, const struct ir_edge *e,
			       size_t n, uint8_t *bits, size_t max);

#endif
