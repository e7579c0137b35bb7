/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_keymap_write.c - rc_keymaps TOML writer.
 */
#include "ir_keymap_write.h"

#include <errno.h>
#include <inttypes.h>

int ir_keymap_write_pulse_distance(FILE *f, const char *name, const struct ir_learn_pd *pd,
				   const struct ir_keymap_write_key *keys, size_t n)
{
	fprintf(f,
		"[[protocols]]\n"
		"name = \"%s\"\n"
		"protocol = \"pulse_distance\"\n"
		"header_pulse = %" PRIu32 "\n"
		"header_space = %" PRIu32 "\n"
		"bit_pulse = %" PRIu32 "\n"
		"bit_0_space = %" PRIu32 "\n"
		"bit_1_space = %" PRIu32 "\n"
		"trailer_pulse = %" PRIu32 "\n"
		"bits = %u\n"
		"reverse = 0\n"
		"margin = %u\n"
		"[protocols.scancodes]\n",
		name, pd->header_pulse, pd->header_space, pd->bit_pulse, pd->bit_0_space,
		pd->bit_1_space, pd->trailer_pulse, pd->bits, pd->margin);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "0x%" PRIx64 " = \"%s\"\n", keys[i].scancode, keys[i].keycode);
	return ferror(f) ? -EIO : 0;
}

int ir_keymap_write_raw(FILE *f, const char *name, const struct ir_keymap_write_key *keys,
			size_t n)
{
	fprintf(f, "[[protocols]]\nname = \"%s\"\nprotocol = \"raw\"\n", name);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "[[protocols.raw]]\nkeycode = \"%s\"\nraw = \"", keys[i].keycode);
		for (size_t j = 0; j < keys[i].raw_len; j++) {
			const struct ir_edge *e = &keys[i].raw[j];

			if (e->kind != IR_PULSE && e->kind != IR_SPACE)
				continue;
			fprintf(f, "%s%c%" PRIu32, j ? " " : "", e->kind == IR_PULSE ? '+' : '-',
				e->duration);
		}
		fprintf(f, "\"\n");
	}
	return ferror(f) ? -EIO : 0;
}

int ir_keymap_write_manchester(FILE *f, const char *name, const struct ir_learn_manchester *m,
			       const struct ir_keymap_write_key *keys, size_t n)
{
	fprintf(f, "[[protocols]]\nname = \"%s\"\nprotocol = \"manchester\"\n", name);
	if (m->header_pulse)
		fprintf(f, "header_pulse = %" PRIu32 "\nheader_space = %" PRIu32 "\n",
			m->header_pulse, m->header_space);
	fprintf(f,
		"zero_pulse = %" PRIu32 "\nzero_space = %" PRIu32 "\n"
		"one_pulse = %" PRIu32 "\none_space = %" PRIu32 "\nbits = %u\n"
		"[protocols.scancodes]\n",
		m->unit, m->unit, m->unit, m->unit, m->bits);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "0x%" PRIx64 " = \"%s\"\n", keys[i].scancode, keys[i].keycode);
	return ferror(f) ? -EIO : 0;
}
