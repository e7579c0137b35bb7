/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_keymap.c - `irjack keymap check|show`: what irjack understands of
 * rc_keymaps TOML files and lircd.conf remotes.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "ir_keymap.h"

static void keymap_usage(FILE *out)
{
	fprintf(out,
		"Usage: irjack keymap check FILE|DIR...\n"
		"       irjack keymap show FILE|DIR...\n"
		"\n"
		"Keymaps name the buttons of remotes.  irjack reads ir-keytable's\n"
		"rc_keymaps TOML files unchanged (/lib/udev/rc_keymaps/*.toml: a\n"
		"[[protocols]] table per remote, [protocols.scancodes] mapping scancodes\n"
		"to Linux key names, and the timing parameters of the pulse_distance,\n"
		"pulse_length, manchester and raw protocols) and LIRC's lircd.conf\n"
		"remotes (any number of 'begin remote' blocks, codes or raw_codes).  The\n"
		"kind of each file is told from its content; a folder means every\n"
		"*.toml and *.conf file in it.\n"
		"\n"
		"  check   load each file and report its remotes and buttons, or the first\n"
		"          error with its file and line\n"
		"  show    print every button as irjack understood it: remote, protocol,\n"
		"          scancode (LIRC code for lircd.conf remotes) and key name, with\n"
		"          the Linux key code (or '-' for names that are not Linux keys)\n"
		"\n"
		"Options:\n"
		"  -h, --help   show this help\n"
		"\n"
		"Exit status: 0 if every file loaded, 2 otherwise.\n"
		"\n"
		"Example:\n"
		"  irjack keymap check /lib/udev/rc_keymaps\n"
		"  irjack keymap show /lib/udev/rc_keymaps/hauppauge.toml\n");
}

static int check(int argc, char **argv)
{
	int failed = 0;

	for (int i = 0; i < argc; i++) {
		struct ir_keymap *km = NULL;

		if (cli_load_keymap(argv[i], &km) < 0) {
			failed = 1;
		} else {
			size_t remotes = ir_keymap_remote_count(km), keys = ir_keymap_key_count(km);

			printf("%s: %zu remote%s, %zu button%s\n", argv[i], remotes,
			       remotes == 1 ? "" : "s", keys, keys == 1 ? "" : "s");
		}
		ir_keymap_free(km);
	}
	return failed ? EXIT_USAGE : 0;
}

static int show(int argc, char **argv)
{
	struct ir_keymap *km = NULL;
	int ret = 0;

	for (int i = 0; i < argc && ret == 0; i++)
		if (cli_load_keymap(argv[i], &km) < 0)
			ret = EXIT_USAGE;
	if (ret == 0) {
		unsigned last_remote = (unsigned)-1;

		for (size_t i = 0; i < ir_keymap_key_count(km); i++) {
			const struct ir_keymap_key *k = ir_keymap_key_at(km, i);
			const struct ir_protocol_info *info = ir_protocol_get(k->protocol);
			char code[16];

			if (k->remote != last_remote) {
				printf("remote %s\n", ir_keymap_remote_name(km, k->remote));
				last_remote = k->remote;
			}
			if (k->keycode >= 0)
				snprintf(code, sizeof(code), "%d", k->keycode);
			else
				snprintf(code, sizeof(code), "-");
			printf("  %-12s 0x%-10" PRIx64 " %-24s %s\n",
			       k->protocol == IR_KEYMAP_ANY_PROTOCOL ? "any"
			       : info				       ? info->name
								       : "?",
			       k->scancode, k->key, code);
		}
	}
	ir_keymap_free(km);
	return ret;
}

int cmd_keymap(int argc, char **argv)
{
	if (argc < 2 || cli_wants_help(argc, argv)) {
		keymap_usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : 0;
	}
	if (argc < 3) {
		cli_error("keymap %s: no file given", argv[1]);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "check") == 0)
		return check(argc - 2, argv + 2);
	if (strcmp(argv[1], "show") == 0)
		return show(argc - 2, argv + 2);
	cli_error("keymap: unknown subcommand '%s' (check, show)", argv[1]);
	return EXIT_USAGE;
}
