/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: the lircd socket's command lines (SIMULATE allowed,
 * a small keymap loaded, sends accepted). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "out_lircd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int accept_send(void *userdata, enum ir_lircd_send kind, const char *remote,
		       const char *key, unsigned repeats, char *error, size_t error_size)
{
	(void)userdata;
	(void)kind;
	(void)remote;
	(void)repeats;
	(void)error;
	(void)error_size;
	return strcmp(key, "KEY_MUTE") == 0 ? -2 : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ir_lircd *server;
	static struct ir_keymap *km;
	char line[IR_LIRCD_LINE_MAX + 64], reply[8192];

	if (!server) {
		static char path[64];
		struct ir_lircd_config cfg = { .path = path, .mode = 0600, .allow_simulate = true,
					       .send = accept_send };
		unsigned r;

		snprintf(path, sizeof(path), "/tmp/irjack-fuzz-lircd-%d", (int)getpid());
		if (ir_keymap_new(&km) < 0 || ir_keymap_add_remote(km, "tv", &r) < 0 ||
		    ir_keymap_add_key(km, r, IR_PROTO_NEC, 0, 0x04fb, "KEY_POWER") < 0)
			return 0;
		cfg.keymap = km;
		if (ir_lircd_new(&cfg, &server) < 0)
			return 0;
	}
	if (size >= sizeof(line))
		size = sizeof(line) - 1;
	memcpy(line, data, size);
	line[size] = '\0';
	ir_lircd_command(server, line, reply, sizeof(reply));
	return 0;
}
