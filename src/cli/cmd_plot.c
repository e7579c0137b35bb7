/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_plot.c - `irjack plot`: an SVG of a capture, to see what the
 * demodulator and decoders made of it.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ir_plot.h"

static void plot_usage(FILE *out)
{
	fprintf(out,
		"Usage: irjack plot [OPTIONS] INPUT -o OUTPUT.svg\n"
		"\n"
		"Draws an IR capture as SVG: for audio the waveform (minimum and maximum\n"
		"of each pixel column, so long files stay small), then the pulses the\n"
		"demodulator found as red bars (pulse and space durations in µs written\n"
		"where they fit), the decoded frames as green boxes labelled\n"
		"PROTOCOL:SCANCODE (and 'repeat', 'toggle'), and a time axis in ms.\n"
		"INPUT is audio (WAV, FLAC, ...) or timings (mode2, ir-ctl, ...).\n"
		"\n"
		"Options:\n"
		"  -o, --output FILE  the SVG to write (\"-\": stdout)\n"
		"      --from S       start of the window in seconds (default 0)\n"
		"      --to S         end of the window in seconds (default: the end)\n"
		"  -w, --width PX     picture width (default 1600; 100..20000)\n"
		"  -h, --help         show this help\n"
		"\n"
		"Exit status: 0 on success, 2 on a usage or input error.\n");
}

static int parse_seconds(const char *arg, const char *what, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(arg, &end);
	if (errno || end == arg || *end || !(*out >= 0) || *out > 1e6) {
		cli_error("%s: bad number of seconds '%s'", what, arg);
		return -1;
	}
	return 0;
}

struct plot_args {
	const char *input, *output;
	double from, to; /* seconds; to < 0: the end */
	unsigned width;
};

/* Parses the options; returns 0, 1 after --help, or -1 (reported). */
static int parse_plot_args(int argc, char **argv, struct plot_args *a)
{
	static const struct option options[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "from", required_argument, NULL, 'F' },
		{ "to", required_argument, NULL, 'T' },
		{ "width", required_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long long v;
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "o:w:h", options, NULL)) != -1) {
		switch (opt) {
		case 'o':
			a->output = optarg;
			break;
		case 'F':
			if (parse_seconds(optarg, "--from", &a->from) < 0)
				return -1;
			break;
		case 'T':
			if (parse_seconds(optarg, "--to", &a->to) < 0)
				return -1;
			break;
		case 'w':
			if (cli_parse_uint(optarg, "--width", 100, 20000, &v) < 0)
				return -1;
			a->width = (unsigned)v;
			break;
		case 'h':
			plot_usage(stdout);
			return 1;
		default:
			plot_usage(stderr);
			return -1;
		}
	}
	if (optind + 1 != argc || !a->output) {
		cli_error("plot: need one INPUT and -o OUTPUT");
		plot_usage(stderr);
		return -1;
	}
	if (a->to >= 0 && a->to <= a->from) {
		cli_error("plot: --to must be after --from");
		return -1;
	}
	a->input = argv[optind];
	return 0;
}

int cmd_plot(int argc, char **argv)
{
	struct plot_args a = { .to = -1, .width = 1600 };
	struct ir_plot_capture *capture = NULL;
	struct ir_plot p;
	char err[512];
	FILE *out;
	int ret = parse_plot_args(argc, argv, &a);

	if (ret != 0)
		return ret > 0 ? 0 : EXIT_USAGE;
	ret = ir_plot_read(a.input, (uint64_t)(a.from * 1e6), a.to >= 0 ? (uint64_t)(a.to * 1e6) : 0,
			   a.width, &capture, &p, err, sizeof(err));
	if (ret < 0) {
		cli_error("%s", err);
		return EXIT_USAGE;
	}
	out = strcmp(a.output, "-") == 0 ? stdout : fopen(a.output, "w");
	if (!out) {
		cli_error("%s: %s", a.output, strerror(errno));
		ir_plot_capture_free(capture);
		return EXIT_USAGE;
	}
	ret = ir_plot_svg(out, &p);
	if (out != stdout && fclose(out) != 0)
		ret = -EIO;
	ir_plot_capture_free(capture);
	if (ret < 0) {
		cli_error("%s: write error", a.output);
		return EXIT_USAGE;
	}
	return 0;
}
