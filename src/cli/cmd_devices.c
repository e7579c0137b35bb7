/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_devices.c - `irjack devices`: what each built-in source backend can
 * open, as the specs to give --device.
 */
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "ir_source.h"

static void devices_usage(FILE *out)
{
	const struct ir_source_backend *const *b = ir_source_backends();

	fprintf(out,
		"Usage: irjack devices [OPTIONS]\n"
		"\n"
		"List the devices irjack can capture from (and play to), as the specs\n"
		"'irjack listen --device', 'irjack monitor --device' and irjackd's\n"
		"sources take: one line per device, the spec, a tab, and what it is.\n"
		"Each backend built in gets a header line '# BACKEND: summary'.\n"
		"\n"
		"Backends built in:\n");
	for (; *b; b++)
		cli_print_wrapped(out, (*b)->summary, fprintf(out, "  %-10s", (*b)->name), 13, 79);
	fprintf(out,
		"\n"
		"Options:\n"
		"  -b, --backend NAME  list only this backend's devices (alsa,\n"
		"                      portaudio, ...), or 'all' (default)\n"
		"  -c, --capture       only devices with an input\n"
		"  -p, --playback      only devices with an output (for 'irjack send')\n"
		"                      (default: both)\n"
		"  -v, --verbose       keep the sound libraries' own messages on stderr\n"
		"                      (hidden by default: probing every card makes\n"
		"                      alsa-lib and JACK complain about what is absent)\n"
		"  -h, --help          show this help\n"
		"\n"
		"Exit status: 0 if the listing worked (even when it found nothing), 2 on\n"
		"a usage error or when a backend could not list its devices.\n"
		"\n"
		"Examples:\n"
		"  irjack devices --capture\n"
		"  irjack devices --backend portaudio\n");
}

/* Runs one backend's list(), its libraries' chatter on stderr hidden
 * unless asked for. */
static int list_backend(const struct ir_source_backend *b, bool capture, bool playback,
			bool verbose)
{
	int saved = -1, null_fd, n;

	printf("# %s: %s\n", b->name, b->summary);
	if (!b->list) {
		printf("#   (nothing to list: give %s:PATH)\n", b->name);
		return 0;
	}
	fflush(stdout);
	if (!verbose) {
		fflush(stderr);
		saved = dup(STDERR_FILENO);
		null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (saved >= 0 && null_fd >= 0)
			dup2(null_fd, STDERR_FILENO);
		if (null_fd >= 0)
			close(null_fd);
	}
	n = b->list(stdout, capture, playback);
	fflush(stdout);
	if (saved >= 0) {
		fflush(stderr);
		dup2(saved, STDERR_FILENO);
		close(saved);
	}
	if (n < 0) {
		cli_error("%s: cannot list devices: %s", b->name, strerror(-n));
		return -1;
	}
	if (n == 0)
		printf("#   (no devices found)\n");
	return 0;
}

int cmd_devices(int argc, char **argv)
{
	static const struct option options[] = {
		{ "backend", required_argument, NULL, 'b' },
		{ "capture", no_argument, NULL, 'c' },
		{ "playback", no_argument, NULL, 'p' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const struct ir_source_backend *const *b;
	const char *only = NULL;
	bool capture = false, playback = false, verbose = false;
	int opt, failed = 0;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "b:cpvh", options, NULL)) != -1) {
		switch (opt) {
		case 'b':
			only = strcmp(optarg, "all") == 0 ? NULL : optarg;
			break;
		case 'c':
			capture = true;
			break;
		case 'p':
			playback = true;
			break;
		case 'v':
			verbose = true;
			break;
		case 'h':
			devices_usage(stdout);
			return 0;
		default:
			devices_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		cli_error("devices: unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	if (!capture && !playback)
		capture = playback = true;
	if (only) {
		const struct ir_source_backend *one = ir_source_backend_find(only);

		if (!one) {
			cli_error("unknown or not built-in backend '%s' (see 'irjack devices --help')",
				  only);
			return EXIT_USAGE;
		}
		return list_backend(one, capture, playback, verbose) < 0 ? EXIT_USAGE : 0;
	}
	for (b = ir_source_backends(); *b; b++)
		if (list_backend(*b, capture, playback, verbose) < 0)
			failed = 1;
	return failed ? EXIT_USAGE : 0;
}
