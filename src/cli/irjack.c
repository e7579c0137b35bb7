/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irjack.c - the `irjack` command: one program, one subcommand per job.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "ir_util.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "decode", cmd_decode, "decode IR frames in recorded audio or timing files" },
	{ "encode", cmd_encode, "print the timings of PROTOCOL:SCANCODE as mode2 text" },
	{ "listen", cmd_listen, "decode a live source (sound card input...) and print frames" },
	{ "record", cmd_record, "write the IR timings in recorded audio, or record a live source" },
	{ "synth", cmd_synth, "write the audio a receiver on a mic input would record" },
	{ "send", cmd_send, "transmit codes as IR carrier audio (headphone out or WAV)" },
	{ "devices", cmd_devices, "list the sound cards and receivers irjack can open" },
	{ "display", cmd_display, "put text, icons or the clock on an iMON front-panel VFD/LCD" },
	{ "monitor", cmd_monitor, "watch a live input's levels, SNR and frames (wiring, mixer)" },
	{ "status", cmd_status, "ask a running irjackd for its per-source figures" },
	{ "protocols", cmd_protocols, "list the protocols irjack decodes and encodes" },
	{ "learn", cmd_learn, "learn a remote from recorded presses (rc_keymaps TOML)" },
	{ "plot", cmd_plot, "draw audio or timings, edges and decoded frames as SVG" },
	{ "keymap", cmd_keymap, "check or show rc_keymaps TOML files and lircd.conf remotes" },
};

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: irjack COMMAND [OPTIONS] [ARGS]\n"
		"\n"
		"irjack turns infrared remote-control signals into key presses: it reads IR\n"
		"receivers wired to a sound card's microphone input, USB receivers and the\n"
		"kernel's /dev/lircN, decodes every common protocol, and transmits through\n"
		"the headphone output.  Timings use the ecosystem's formats (LIRC mode2,\n"
		"ir-ctl) and protocol names and scancodes follow the kernel's rc-core, so\n"
		"ir-keytable keymaps apply unchanged.\n"
		"\n"
		"Commands:\n");
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(out, "  %-11s %s\n", commands[i].name, commands[i].summary);
	fprintf(out,
		"\n"
		"Run 'irjack COMMAND --help' for a command's options.\n"
		"\n"
		"Options:\n"
		"  -h, --help     show this help\n"
		"  -V, --version  show the version\n"
		"\n"
		"Exit status: 0 on success, 1 when a command found nothing (e.g. no frame\n"
		"decoded), 2 on a usage or input error.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		if (argc > 2) {
			for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
				if (strcmp(argv[2], commands[i].name) == 0) {
					char *help_argv[] = { argv[2], "--help", NULL };

					return commands[i].run(2, help_argv);
				}
			}
		}
		usage(stdout);
		return 0;
	}
	if (strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "--version") == 0) {
		printf("irjack " IRJACK_VERSION "\n");
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].run(argc - 1, argv + 1);
	cli_error("unknown command '%s' (see 'irjack --help')", argv[1]);
	return EXIT_USAGE;
}
