/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irjackd_keymaps.c - the keymaps a configuration names, loaded into one
 * keymap, every error logged with its file and line.
 */
#include "irjackd.h"

#include <string.h>
#include <syslog.h>

#include "ir_keymap_file.h"

int irjackd_load_keymaps(const struct irjackd_config *cfg, struct ir_keymap **out)
{
	struct ir_keymap *km;
	int ret = ir_keymap_new(&km);

	if (ret < 0)
		return ret;
	for (unsigned i = 0; i < cfg->keymap_count; i++) {
		struct ir_keymap_error err = { 0 };

		ret = ir_keymap_load(km, cfg->keymaps[i], &err);
		if (ret < 0) {
			if (err.parse.line)
				irjackd_log(LOG_ERR, "%s:%u: %s", err.file, err.parse.line,
					    err.parse.message);
			else
				irjackd_log(LOG_ERR, "%s: %s", err.file[0] ? err.file : cfg->keymaps[i],
					    err.parse.message[0] ? err.parse.message : strerror(-ret));
			ir_keymap_free(km);
			return ret;
		}
	}
	*out = km;
	return 0;
}
