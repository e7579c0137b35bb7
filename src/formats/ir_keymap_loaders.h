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

/* LIRC's lircd.conf (src/formats/lircd_conf.c).  An `include` line is
 * refused (there is no file to resolve it against). */
int ir_keymap_parse_lircd(struct ir_keymap *km, const char *text, size_t len,
			  struct ir_parse_error *err);

/* What an `include "PATH"` (or `include <PATH>`) line outside a remote
 * asks for: `path` unquoted, as written; `line` is the include's.  Returns
 * 0, or a negative errno after reporting the error itself (the parser
 * then stops and returns it, err->line set to the include's line). */
struct ir_lircd_include {
	int (*include)(void *userdata, const char *path, unsigned line);
	void *userdata;
};

/* The same, handing include lines to `inc`.  A file whose only content is
 * includes (Debian's stock /etc/lirc/lircd.conf) is valid. */
int ir_keymap_parse_lircd_file(struct ir_keymap *km, const char *text, size_t len,
			       const struct ir_lircd_include *inc, struct ir_parse_error *err);

#endif
