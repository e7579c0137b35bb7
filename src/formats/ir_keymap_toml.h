/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_keymap_toml.h - protocol names in ir-keytable's rc_keymaps TOML files,
 * one table for reading (src/formats/keymap_toml.c) and writing them.
 *
 * A keymap names a protocol by ir-keytable's name where ir-keytable has one
 * ("nec", "rc5", "rc6", "sony", "rc-mm", "samsung36" ...; the kernel's
 * protocol as `variant`, e.g. protocol = "nec", variant = "necx"), so that
 * `ir-keytable -w` reads irjack's files; by irjack's own name (as `irjack
 * protocols` lists it: "nubert", "apple", "kaseikyo" ...) for the rest.
 */
#ifndef IRJACK_IR_KEYMAP_TOML_H
#define IRJACK_IR_KEYMAP_TOML_H

#include "ir_protocol.h"

/*
 * The `protocol` and `variant` (NULL: none) an rc_keymaps file writes for
 * keys of protocol `p`; the loader binds such keys to `p` alone.  Static
 * strings; `protocol` is NULL for a protocol irjack does not implement.
 */
void ir_keymap_toml_protocol_name(enum ir_protocol p, const char **protocol,
				  const char **variant);

#endif
