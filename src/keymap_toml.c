/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Placeholder until the parser lands. */
#include "ir_keymap_loaders.h"

#include <errno.h>
#include <stdio.h>

int ir_keymap_parse_toml(struct ir_keymap *km, const char *text, size_t len, struct ir_parse_error *err)
{
	(void)km;
	(void)text;
	(void)len;
	if (err) {
		err->line = 0;
		snprintf(err->message, sizeof(err->message), "not supported yet");
	}
	return -ENOTSUP;
}
