/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_keymap_loaders.h - the keymap file parsers ir_keymap_load()
 * (ir_keymap_file.c) dispatches to.  Internal to libirjack.
 *
 * Each parses `len` bytes of `text` (NUL-terminated at text[len]) and adds
 * what it describes to `km` (a fresh keymap: on failure ir_keymap_load()
 * throws it away, so a parser need not undo anything).  Returns 0, or
 * -EINVAL with `err` naming the 1-based line and what is wrong, or -ENOMEM.
 */
#ifndef IRJACK_IR_KEYMAP_LOADERS_H
#define IRJACK_IR_KEYMAP_LOADERS_H

#include <stddef.h>

#include "ir_keymap.h"
#include "ir_parse_error.h"

/* ir-keytable's rc_keymaps TOML (src/formats/keymap_toml.c). */
int ir_keymap_parse_toml(struct ir_keymap *km, const char *text, size_t len,
			 struct ir_parse_error *err);

/* LIRC's lircd.conf (src/formats/lircd_conf.c). */
int ir_keymap_parse_lircd(struct ir_keymap *km, const char *text, size_t len,
			  struct ir_parse_error *err);

#endif
