/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_generic.h - the parameters of the "generic" parametric family: remotes
 * that rc_keymaps describe by timings instead of a protocol name
 * (ir-keytable's BPF protocols pulse_distance, pulse_length, manchester and
 * raw).  Internal to libirjack.
 *
 * A keymap owns one struct ir_generic_params per such remote (allocated with
 * ir_generic_params_new(), released with ir_generic_params_free()); the
 * decoder instance the keymap attaches reads it and never writes it.
 *
 * Scancodes: pulse_distance/pulse_length/manchester frames carry their
 * `bits` data bits, first received bit most significant unless `reverse`
 * (then least significant); manchester drops its toggle bit from the
 * scancode and reports it as the toggle.  A raw remote's keys are numbered
 * 0, 1, ... in file order and that number is the scancode.
 */
#ifndef IRJACK_IR_GENERIC_H
#define IRJACK_IR_GENERIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir_edge.h"
#include "ir_protocol.h"

/* Bounds on what a keymap may ask for: a frame of at most 64 data bits (the
 * scancode) and raw keys of at most 2048 durations.  Air conditioners send
 * their whole state in one frame of 100-440 bits: 2 x 440 + 3 = 883
 * durations for the longest pulse-distance one, some send it twice in a
 * press; 2048 covers both with room.  A decoder instance keeps the last
 * 2048 durations it saw (24 KiB), a key 8 KiB. */
#define IR_GENERIC_MAX_BITS 64
#define IR_GENERIC_MAX_RAW_EDGES 2048

struct ir_generic_raw_key {
	uint32_t *durations; /* alternating pulse, space, ... starting with a pulse */
	size_t count;        /* odd: ends with a pulse */
};

struct ir_generic_params {
	enum ir_protocol kind; /* IR_PROTO_PULSE_DISTANCE ... IR_PROTO_RAW */
	uint32_t margin;
	uint32_t header_pulse, header_space; /* 0: none */
	bool header_optional;
	/* pulse_distance */
	uint32_t bit_pulse, bit_0_space, bit_1_space;
	/* pulse_length */
	uint32_t bit_space, bit_0_pulse, bit_1_pulse;
	/* both */
	uint32_t trailer_pulse, trailer_space; /* 0: none */
	/* manchester: a 0 is zero_pulse then zero_space, a 1 one_space then
	 * one_pulse (RC-5's convention) */
	uint32_t zero_pulse, zero_space, one_pulse, one_space;
	unsigned toggle_bit; /* bit index from the LSB; >= bits: none */
	unsigned bits;
	bool reverse;
	/* raw */
	struct ir_generic_raw_key *raw;
	size_t raw_count;
	size_t raw_cap;
};

/* A params struct with ir-keytable's BPF defaults for `kind` (one of the
 * four generic protocols), or NULL (no memory / bad kind).  Caller owns it. */
struct ir_generic_params *ir_generic_params_new(enum ir_protocol kind);
/* Frees `p` and its raw keys (void * for ir_keymap_add_decoder()). */
void ir_generic_params_free(void *p);

/*
 * Sets parameter `name` (an rc_keymaps TOML key) to `value`.  Returns 0,
 * -ENOENT for a name this kind does not have, -ERANGE for a value out of
 * range (durations up to 1 s, bits 1..64).
 */
int ir_generic_params_set(struct ir_generic_params *p, const char *name, int64_t value);

/* Checks the parameters are complete and consistent (e.g. a bit needs a
 * non-zero pulse).  Returns 0 or -EINVAL with a reason in *why. */
int ir_generic_params_check(const struct ir_generic_params *p, const char **why);

/*
 * Adds a raw key parsed from ir-keytable's "+pulse -space +pulse ..." text
 * (signs optional, they must alternate starting with a pulse; a trailing
 * space is dropped).  Its scancode (index) goes to *scancode.  Returns 0,
 * -EINVAL (with *why), -E2BIG (too many edges), -ENOMEM.
 */
int ir_generic_params_add_raw(struct ir_generic_params *p, const char *text,
			      uint64_t *scancode, const char **why);

#endif
