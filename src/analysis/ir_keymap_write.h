/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_keymap_write.h - write learned remotes as ir-keytable rc_keymaps TOML.
 */
#ifndef IRJACK_IR_KEYMAP_WRITE_H
#define IRJACK_IR_KEYMAP_WRITE_H

#include <stdint.h>
#include <stdio.h>

#include "ir_edge.h"
#include "ir_learn.h"

struct ir_keymap_write_key {
	const char *keycode;   /* "KEY_A"; borrowed */
	uint64_t scancode;     /* pulse_distance keys */
	const struct ir_edge *raw; /* raw keys: one press, borrowed */
	size_t raw_len;
};

/* Writes one `[[protocols]]` table named `name` with protocol
 * "pulse_distance" and `pd`'s parameters (reverse = 0: first bit sent is
 * the scancode's MSB) and a `[protocols.scancodes]` table.  Returns 0 or
 * -EIO. */
int ir_keymap_write_pulse_distance(FILE *f, const char *name, const struct ir_learn_pd *pd,
				   const struct ir_keymap_write_key *keys, size_t n);

/* As above for protocol "manchester": header_pulse/header_space (when
 * present), zero_pulse/zero_space/one_pulse/one_space = the unit, bits. */
int ir_keymap_write_manchester(FILE *f, const char *name, const struct ir_learn_manchester *m,
			       const struct ir_keymap_write_key *keys, size_t n);

/* Writes one `[[protocols]]` table with protocol "raw" and a
 * `[[protocols.raw]]` entry per key ("+pulse -space ..." strings, as
 * ir-keytable's raw keymaps have them).  Returns 0 or -EIO. */
int ir_keymap_write_raw(FILE *f, const char *name, const struct ir_keymap_write_key *keys,
			size_t n);

#endif
