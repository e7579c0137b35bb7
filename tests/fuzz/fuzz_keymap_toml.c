/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: ir-keytable's rc_keymaps TOML parser on a fresh keymap.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ir_keymap.h"
#include "ir_keymap_loaders.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ir_keymap *km;
	struct ir_parse_error err;
	/* The parser's contract wants text[len] == '\0'. */
	char *text = malloc(size + 1);

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (ir_keymap_new(&km) == 0) {
		ir_keymap_parse_toml(km, text, size, &err);
		ir_keymap_free(km);
	}
	free(text);
	return 0;
}
