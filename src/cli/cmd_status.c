/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_status.c - `irjack status`: what a running irjackd reports about
 * its sources and outputs, asked over its lircd-compatible socket with
 * irjackd's own STATUS command (lircd would answer it with an error).
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "ir_time.h"

#define DEFAULT_SOCKET "/run/irjack/lircd"
/* A reply bigger than this is not irjackd's (64 KiB is its per-client cap). */
#define REPLY_MAX (64 * 1024)

static void status_usage(FILE *out)
{
	fprintf(out,
		"Usage: irjack status [-s SOCKET] [--timeout SECONDS]\n"
		"\n"
		"Ask a running irjackd for its figures, over the lircd-compatible socket\n"
		"its [output lircd] section opens: for each source its backend and device,\n"
		"state (running, gone, ended, failed), sample format and rate, frames\n"
		"decoded, xruns, audio dropped, reopens, peak level and SNR (audio), and\n"
		"the last frame with its age; then the outputs (lircd clients, uinput\n"
		"device, JSON file, MQTT counters).\n"
		"\n"
		"Options:\n"
		"  -s, --socket PATH    irjackd's socket (default " DEFAULT_SOCKET ")\n"
		"  -t, --timeout S      how long to wait for the answer (default 2)\n"
		"  -h, --help           show this help\n"
		"\n"
		"Exit status: 0 the figures were printed; 1 irjackd answered with an error\n"
		"(an lircd, not irjackd, is listening there); 2 bad arguments, or no\n"
		"answer (not running, no permission, timeout).\n");
}

/* Prints the DATA lines of a complete reply; returns the exit status. */
static int print_reply(char *reply)
{
	char *save = NULL, *line;
	unsigned long count = 0;
	bool success = false;

	/* BEGIN, STATUS, SUCCESS|ERROR, [DATA, n, n lines], END */
	strtok_r(reply, "\n", &save);
	strtok_r(NULL, "\n", &save);
	line = strtok_r(NULL, "\n", &save);
	success = line && !strcmp(line, "SUCCESS");
	line = strtok_r(NULL, "\n", &save);
	if (line && !strcmp(line, "DATA")) {
		line = strtok_r(NULL, "\n", &save);
		count = line ? strtoul(line, NULL, 10) : 0;
		for (unsigned long i = 0; i < count && (line = strtok_r(NULL, "\n", &save)); i++) {
			if (success)
				printf("%s\n", line);
			else
				cli_error("irjackd: %s", line);
		}
	}
	if (!success) {
		if (!count)
			cli_error("the STATUS command was refused (an lircd, not irjackd?)");
		return EXIT_NOTHING;
	}
	return 0;
}

int cmd_status(int argc, char **argv)
{
	static const struct option options[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *path = DEFAULT_SOCKET;
	double timeout_s = 2.0;
	char *buf, *end;
	long at;
	int opt, fd, ret;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "s:t:h", options, NULL)) != -1) {
		switch (opt) {
		case 's':
			path = optarg;
			break;
		case 't':
			timeout_s = strtod(optarg, &end);
			if (end == optarg || *end || timeout_s <= 0 || timeout_s > 3600) {
				cli_error("--timeout: expected seconds, 0 < S <= 3600, got '%s'", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'h':
			status_usage(stdout);
			return 0;
		default:
			status_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		cli_error("status: unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	fd = cli_socket_connect(path);
	if (fd < 0)
		return EXIT_USAGE;
	if (write(fd, "STATUS\n", 7) != 7) {
		cli_error("%s: cannot send: %s", path, strerror(errno));
		close(fd);
		return EXIT_USAGE;
	}
	buf = malloc(REPLY_MAX + 1);
	if (!buf) {
		close(fd);
		cli_error("out of memory");
		return EXIT_USAGE;
	}
	at = cli_read_reply(fd, "STATUS", buf, REPLY_MAX + 1, (long long)ir_monotonic_ms() + (long long)(timeout_s * 1000));
	ret = at < 0 ? EXIT_USAGE : print_reply(buf + at);
	free(buf);
	close(fd);
	return ret;
}
