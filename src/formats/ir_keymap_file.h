/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_keymap_file.h - loading keymap files: ir-keytable's rc_keymaps TOML
 * and LIRC's lircd.conf, told apart by their content.
 */
#ifndef IRJACK_IR_KEYMAP_FILE_H
#define IRJACK_IR_KEYMAP_FILE_H

#include "ir_keymap.h"
#include "ir_parse_error.h"

struct ir_keymap_error {
	char file[256];
	struct ir_parse_error parse; /* line (0: not tied to a line) and message */
};

/*
 * Loads an rc_keymaps TOML file, a lircd.conf file (told apart by content),
 * or every *.toml, *.conf and *.lircd.conf file of a directory (sorted by
 * name) into `km`.  Returns 0, or a negative errno: -ENOENT/-EACCES/... for
 * a file that cannot be read, -EINVAL for a malformed one, with `err`
 * naming the file (`err->file`, a copy) and line.  On error the keymap
 * keeps what earlier calls loaded and nothing of the failed file.
 */
int ir_keymap_load(struct ir_keymap *km, const char *path, struct ir_keymap_error *err);

#endif
