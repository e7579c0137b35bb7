/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_rc_maps.h - ir-keytable's /etc/rc_maps.cfg: which keymap file goes
 * with which receiver, by the kernel driver's name and the kernel keymap
 * ("table") it starts with, both from the rc device's uevent.
 *
 * The file: one entry a line, "DRIVER TABLE FILE" separated by blanks; '#'
 * starts a comment line.  DRIVER and TABLE match case-insensitively, or
 * anything when "*" (the whole field: "*" is not a glob inside a name).
 * As ir-keytable -a since v4l-utils 1.16, EVERY matching entry is loaded,
 * in file order (before, only the first).  FILE is absolute, or "./..."
 * (ir-keytable: from its working directory; here: from the folder of
 * rc_maps.cfg, as a daemon has no useful one), or a name looked up in
 * /etc/rc_keymaps first, then /lib/udev/rc_keymaps.
 */
#ifndef IRJACK_IR_RC_MAPS_H
#define IRJACK_IR_RC_MAPS_H

#include <stdbool.h>
#include <stddef.h>

#include "ir_parse_error.h"

struct ir_rc_map_entry {
	char driver[64];
	char table[64];
	char file[256];
	unsigned line;
};

struct ir_rc_maps {
	char path[256];                 /* the file read (for relative names) */
	struct ir_rc_map_entry *entries; /* owned; freed by ir_rc_maps_free() */
	size_t count;
};

/*
 * Parses rc_maps.cfg text (`path` is kept for error messages and relative
 * names).  Returns 0, -EINVAL with `err` (line and message) for a line
 * without its three fields or with a field too long, -ENOMEM.
 */
int ir_rc_maps_parse(struct ir_rc_maps *m, const char *path, const char *text,
		     struct ir_parse_error *err);

/* Reads and parses `path`.  As ir_rc_maps_parse(), and -errno when the file
 * cannot be read (err->message says why). */
int ir_rc_maps_load(struct ir_rc_maps *m, const char *path, struct ir_parse_error *err);

void ir_rc_maps_free(struct ir_rc_maps *m);

/* Whether entry `e` is for a receiver with `driver` and `table` (either
 * may be "" when the device does not say: then only "*" matches). */
bool ir_rc_maps_match(const struct ir_rc_map_entry *e, const char *driver, const char *table);

/*
 * The keymap file of entry `e`, resolved as ir-keytable does (see the top;
 * `dirs` is the list of folders for bare names, NULL for /etc/rc_keymaps
 * then /lib/udev/rc_keymaps).  Returns 0 with `out` filled, -ENOENT when
 * no folder has it (`out` holds the last candidate), -ENAMETOOLONG.
 */
int ir_rc_maps_resolve(const struct ir_rc_maps *m, const struct ir_rc_map_entry *e,
		       const char *const *dirs, char *out, size_t size);

/* Whether `text` reads like an rc_maps.cfg rather than a keymap (its first
 * entry line has three fields, the last naming a .toml file), so that a
 * keymap loader pointed at one can say what it is. */
bool ir_rc_maps_looks_like(const char *text);

#endif
