/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_display.c - `irjack display`: text, icons or the clock on an iMON
 * receiver's front-panel VFD or LCD, sent straight over USB (when no
 * irjackd holds the receiver; irjackd takes the same request on its
 * socket as DISPLAY, see `irjackd --help`).
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "ir_imon_panel.h"
#include "ir_time.h"
#include "out_lcddev.h"

#define SOCKET_TIMEOUT_MS 5000 /* an LCD's first screen takes ~0.2 s; slow VMs more */

static void display_usage(FILE *out)
{
	fprintf(out,
		"Usage: irjack display [-d usb:imon[:BUS:ADDR]] [OPTIONS] TEXT [LINE2]\n"
		"       irjack display [-d ...] --clock | --off\n"
		"       irjack display [-d ...] [-t KIND] --lcddev NAME\n"
		"\n"
		"Put two lines of text on the front-panel display of an iMON receiver\n"
		"(VFD: 16x2 characters; LCD: 16x2 in a 5x7 font, and icons), or start the\n"
		"display's own clock.  Lines are cut to 16 characters; a '|' or newline in\n"
		"TEXT also starts line 2; characters outside ASCII show as '?'.\n"
		"The packets are those of the kernel's imon driver (VFD: 5 text packets\n"
		"and a closing one; LCD: a start-up sequence, 28 bitmap packets, icons).\n"
		"\n"
		"Options:\n"
		"  -d, --device DEV     usb:imon (first found) or usb:imon:BUS:ADDR\n"
		"  -t, --type KIND      auto (from the USB id: 0038/0039/0045 LCD, else VFD),\n"
		"                       vfd or lcd\n"
		"  -i, --icons LIST     LCD icons, comma-separated: none, all, or of these:\n");
	cli_print_wrapped(out, ir_imon_icon_names(), 0, 23, 79);
	fprintf(out,
		"                       alone, without TEXT, they change the icons only\n"
		"      --clock          set the display's clock to now and show it\n"
		"      --off            LCD: backlight off; VFD: blank\n"
		"      --detach-kernel  take the receiver from the kernel's imon driver\n"
		"  -s, --socket PATH    ask a running irjackd instead (its lircd socket, e.g.\n"
		"                       /run/irjack/lircd): it shows the screen on the iMON\n"
		"                       receiver it reads (DISPLAY command)\n"
		"      --lcddev NAME    serve /dev/NAME (e.g. lcd0) as lirc_imon did, until\n"
		"                       Ctrl-C: each write is shown (VFD: 1..32 bytes, the\n"
		"                       screen; LCD: one 8-byte packet), for lcdproc's imon\n"
		"                       and imonlcd drivers (CUSE: libfuse3, the cuse module;\n"
		"                       irjackd's [output lcddev] does it for its source)\n"
		"  -h, --help           show this help\n"
		"\n"
		"Exit status: 0 shown (--lcddev: served until stopped); 2 bad arguments,\n"
		"no receiver or display, or a USB error (irjackd holding the receiver:\n"
		"use --socket); 1 irjackd refused.\n");
}

/* Fills `s` from the arguments left after the options. */
static int screen_from_args(int argc, char **argv, struct ir_imon_screen *s)
{
	char text[2 * 256 + 2];

	if (argc > 2) {
		cli_error("display: at most two lines (TEXT LINE2), got %d arguments", argc);
		return -1;
	}
	if (argc == 0)
		return 0;
	if (argc == 2)
		snprintf(text, sizeof(text), "%.256s|%.256s", argv[0], argv[1]);
	else
		snprintf(text, sizeof(text), "%.256s", argv[0]);
	ir_imon_screen_set_text(s, text);
	return 0;
}

/* The DISPLAY line for irjackd (see ir_imon_screen_parse()). */
static void request_line(const struct ir_imon_screen *s, const char *icons, char *line,
			 size_t size)
{
	int n = snprintf(line, size, "DISPLAY");

	if (s->kind == IR_IMON_SCREEN_CLOCK || s->kind == IR_IMON_SCREEN_OFF) {
		snprintf(line + n, size - (size_t)n, " %s",
			 s->kind == IR_IMON_SCREEN_CLOCK ? "CLOCK" : "OFF");
		return;
	}
	if (icons)
		n += snprintf(line + n, size - (size_t)n, " ICONS %s", icons);
	if (s->text_set)
		snprintf(line + n, size - (size_t)n, " TEXT %s|%s", s->line[0], s->line[1]);
}

/* Sends the screen to irjackd; returns the exit status. */
static int display_via_socket(const char *path, const struct ir_imon_screen *s, const char *icons)
{
	char line[600], buf[4096];
	long at;
	int fd, ret = EXIT_USAGE;

	request_line(s, icons, line, sizeof(line));
	fd = cli_socket_connect(path);
	if (fd < 0)
		return EXIT_USAGE;
	if (dprintf(fd, "%s\n", line) < 0) {
		cli_error("%s: cannot send: %s", path, strerror(errno));
	} else {
		at = cli_read_reply(fd, line, buf, sizeof(buf),
				    (long long)ir_monotonic_ms() + SOCKET_TIMEOUT_MS);
		if (at >= 0) {
			char *status = buf + at + 6 + strlen(line) + 1;
			char *data = strstr(status, "\nDATA\n1\n");

			if (!strncmp(status, "SUCCESS\n", 8)) {
				ret = 0;
			} else {
				if (data)
					*strchr(data + 8, '\n') = '\0';
				cli_error("irjackd: %s", data ? data + 8 : "DISPLAY refused");
				ret = EXIT_NOTHING;
			}
		}
	}
	close(fd);
	return ret;
}

static volatile sig_atomic_t lcddev_stop;

static void on_stop(int sig)
{
	(void)sig;
	lcddev_stop = 1;
}

/* A write on --lcddev's device: the panel shows it as lirc_imon did. */
static int panel_write(void *userdata, const uint8_t *buf, size_t n)
{
	static bool failing; /* said once per failing spell: lcdproc writes 8 times a second */
	struct ir_imon_panel *panel = userdata;
	char req[8 + 2 * IR_LCDDEV_WRITE_MAX], err[256];
	struct ir_imon_screen s;
	int ret = ir_lcddev_request(buf, n, req, sizeof(req));

	if (ret < 0 || ir_imon_screen_parse(req, &s, err, sizeof(err)) < 0)
		return -EINVAL;
	ret = ir_imon_panel_show(panel, &s, err, sizeof(err));
	if (ret == -EINVAL)
		return ret; /* the writer's size: its own error to see */
	if (ret < 0 && !failing)
		cli_error("display: %s", err);
	failing = ret < 0;
	return ret < 0 ? -ENODEV : 0;
}

/* --lcddev: serves /dev/NAME until SIGINT or SIGTERM; the exit status. */
static int serve_lcddev(struct ir_imon_panel *panel, const char *name)
{
	struct sigaction sa = { .sa_handler = on_stop }, old_int, old_term;
	struct ir_lcddev_cuse *c;
	char err[512];
	int ret = ir_lcddev_cuse_new(name, panel_write, panel, &c, err, sizeof(err));

	if (ret < 0) {
		cli_error("--lcddev: %s", err);
		return EXIT_USAGE;
	}
	fprintf(stderr, "irjack: %s shows its writes on the %s; Ctrl-C ends\n",
		ir_lcddev_cuse_path(c), ir_imon_display_name(ir_imon_panel_display(panel)));
	sigaction(SIGINT, &sa, &old_int); /* no SA_RESTART: poll() returns */
	sigaction(SIGTERM, &sa, &old_term);
	while (!lcddev_stop) {
		struct pollfd p = { .fd = ir_lcddev_cuse_fd(c), .events = POLLIN };

		if (poll(&p, 1, 1000) > 0 && ir_lcddev_cuse_process(c) < 0) {
			cli_error("--lcddev: the kernel closed %s", ir_lcddev_cuse_path(c));
			ret = EXIT_USAGE;
			break;
		}
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	ir_lcddev_cuse_free(c);
	return ret;
}

/* What the command line asks for. */
struct display_args {
	struct ir_imon_screen screen;
	enum ir_imon_display type;
	const char *device, *socket_path, *icons, *lcddev;
	bool detach;
};

/* Parses the options into *a.  Returns -1 to go on, else the exit status
 * (0 after --help). */
static int parse_display_options(int argc, char **argv, struct display_args *a)
{
	enum { OPT_CLOCK = 256, OPT_OFF, OPT_DETACH, OPT_LCDDEV };
	static const struct option options[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "type", required_argument, NULL, 't' },
		{ "icons", required_argument, NULL, 'i' },
		{ "clock", no_argument, NULL, OPT_CLOCK },
		{ "off", no_argument, NULL, OPT_OFF },
		{ "detach-kernel", no_argument, NULL, OPT_DETACH },
		{ "socket", required_argument, NULL, 's' },
		{ "lcddev", required_argument, NULL, OPT_LCDDEV },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char err[512];
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "d:t:i:s:h", options, NULL)) != -1) {
		switch (opt) {
		case 'd':
			a->device = optarg;
			break;
		case 't':
			if (ir_imon_display_parse(optarg, &a->type) < 0) {
				cli_error("--type: expected auto, vfd or lcd, got '%s'", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'i':
			if (ir_imon_icons_parse(optarg, &a->screen.icons, err, sizeof(err)) < 0) {
				cli_error("--icons: %s", err);
				return EXIT_USAGE;
			}
			a->screen.icons_set = true;
			a->icons = optarg;
			break;
		case 's':
			a->socket_path = optarg;
			break;
		case OPT_CLOCK:
			a->screen.kind = IR_IMON_SCREEN_CLOCK;
			break;
		case OPT_OFF:
			a->screen.kind = IR_IMON_SCREEN_OFF;
			break;
		case OPT_DETACH:
			a->detach = true;
			break;
		case OPT_LCDDEV:
			a->lcddev = optarg;
			break;
		case 'h':
			display_usage(stdout);
			return 0;
		default:
			display_usage(stderr);
			return EXIT_USAGE;
		}
	}
	return -1;
}

/* Parses the command line into *a: the options, then the screen's text.
 * Returns -1 to go on, else the exit status. */
static int parse_display_args(int argc, char **argv, struct display_args *a)
{
	const struct ir_imon_screen *s = &a->screen;
	int ret = parse_display_options(argc, argv, a);

	if (ret >= 0)
		return ret;
	if (a->lcddev && (optind < argc || s->kind != IR_IMON_SCREEN_TEXT || s->icons_set || a->socket_path)) {
		cli_error("display: --lcddev takes no text, icons, --clock, --off or --socket");
		return EXIT_USAGE;
	}
	if (s->kind != IR_IMON_SCREEN_TEXT && optind < argc) {
		cli_error("display: --clock and --off take no text");
		return EXIT_USAGE;
	}
	if (screen_from_args(argc - optind, argv + optind, &a->screen) < 0)
		return EXIT_USAGE;
	if (s->kind == IR_IMON_SCREEN_TEXT && !s->text_set && !s->icons_set && !a->lcddev) {
		display_usage(stderr);
		return EXIT_USAGE;
	}
	return -1;
}

int cmd_display(int argc, char **argv)
{
	struct display_args a = {
		.screen = { .kind = IR_IMON_SCREEN_TEXT },
		.type = IR_IMON_DISPLAY_NONE,
		.device = "usb:imon",
	};
	struct ir_imon_panel *panel;
	char err[512];
	int ret = parse_display_args(argc, argv, &a);

	if (ret >= 0)
		return ret;
	if (a.socket_path)
		return display_via_socket(a.socket_path, &a.screen, a.icons);
	ret = ir_imon_panel_open(a.device, a.type, a.detach, &panel, err, sizeof(err));
	if (ret < 0) {
		cli_error("%s", err);
		return EXIT_USAGE;
	}
	if (a.lcddev) {
		ret = serve_lcddev(panel, a.lcddev);
		ir_imon_panel_close(panel);
		return ret;
	}
	ret = ir_imon_panel_show(panel, &a.screen, err, sizeof(err));
	if (ret < 0)
		cli_error("%s: %s", a.device, err);
	ir_imon_panel_close(panel);
	return ret < 0 ? EXIT_USAGE : 0;
}
