/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_decode.c - `irjack decode FILE...`: every frame in recorded timings.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ir_decoder.h"
#include "ir_frame_format.h"
#include "ir_timing_io.h"

static void decode_usage(FILE *out)
{
	fprintf(out,
		"Usage: irjack decode [OPTIONS] FILE...\n"
		"\n"
		"Decode the IR frames in recorded timings and print one line per frame:\n"
		"time of the frame's first pulse (seconds from the start of the file),\n"
		"protocol (rc-core name), scancode (rc-core layout), and the flags 'toggle'\n"
		"(the frame's toggle bit is set) and 'repeat' (a repeat code standing for\n"
		"the previous frame, e.g. NEC's).  FILE '-' reads standard input.\n"
		"\n"
		"Input formats (detected, or forced with --format):\n"
		"  mode2   LIRC mode2 / ir-ctl text: 'pulse 560', 'space 1690', 'timeout N',\n"
		"          'carrier 38000', or the compact '+560 -1690' form\n"
		"  binary  the kernel's LIRC_MODE2 stream as read from /dev/lircN\n"
		"  lircd   raw codes from a lircd.conf (numbers, 'name KEY' lines)\n"
		"  irmp    IRMP IR-Data captures (one character per sample; rate from the\n"
		"          file name, e.g. '-15kHz', or --rate)\n"
		"\n"
		"Options:\n"
		"  -f, --format FMT       auto (default), mode2, binary, lircd, irmp\n"
		"  -r, --rate HZ          sample rate of an irmp capture (default 10000)\n"
		"  -p, --protocols LIST   decode only these protocols or families, comma\n"
		"                         separated (e.g. 'nec,rc6'); default all\n"
		"  -j, --json             print one JSON object per line: time, end (s),\n"
		"                         protocol, scancode (integer), toggle, repeat\n"
		"                         (booleans), and source (the file) when several\n"
		"                         files are given\n"
		"  -h, --help             show this help\n"
		"\n"
		"Exit status: 0 if at least one frame was decoded, 1 if none, 2 on error.\n"
		"\n"
		"Example:\n"
		"  irjack decode samples/nec-tv-remote.mode2\n"
		"  ir-ctl -r -1 | irjack decode -\n");
}

struct decode_run {
	bool json;
	const char *source;
	unsigned long frames;
};

static void print_frame(void *userdata, const struct ir_frame *frame)
{
	struct decode_run *run = userdata;
	struct ir_frame_labels labels = { .source = run->source };
	char line[512];

	if (run->json)
		ir_frame_format_json(frame, &labels, line, sizeof(line));
	else
		ir_frame_format_text(frame, &labels, line, sizeof(line));
	fputs(line, stdout);
	run->frames++;
}

static int decode_one(const char *path, enum ir_timing_format fmt,
		      const struct ir_timing_parse_opts *opts, const struct ir_protocol_set *enabled,
		      struct decode_run *run)
{
	struct ir_edge_buf edges = { 0 };
	struct ir_parse_error perr;
	struct ir_decoder *dec;
	int ret;

	ret = ir_timing_read_file(path, fmt, opts, &edges, NULL, &perr);
	if (ret == -EINVAL) {
		if (perr.line)
			cli_error("%s:%u: %s", path, perr.line, perr.message);
		else
			cli_error("%s: %s", path, perr.message);
		ir_edge_buf_free(&edges);
		return -1;
	}
	if (ret < 0) {
		cli_error("%s: %s", path,
			  ret == -EFBIG ? "file too large for a timing file" : strerror(-ret));
		ir_edge_buf_free(&edges);
		return -1;
	}
	ret = ir_decoder_new(enabled, print_frame, run, &dec);
	if (ret < 0) {
		cli_error("%s", strerror(-ret));
		ir_edge_buf_free(&edges);
		return -1;
	}
	ir_decoder_feed_many(dec, edges.edges, edges.len);
	ir_decoder_flush(dec);
	ir_decoder_free(dec);
	ir_edge_buf_free(&edges);
	fflush(stdout);
	return 0;
}

int cmd_decode(int argc, char **argv)
{
	static const struct option options[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "rate", required_argument, NULL, 'r' },
		{ "protocols", required_argument, NULL, 'p' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	enum ir_timing_format fmt = IR_FORMAT_AUTO;
	struct ir_timing_parse_opts opts = { 0 };
	struct ir_protocol_set enabled;
	struct decode_run run = { 0 };
	unsigned long long v;
	int opt, failed = 0;

	ir_protocol_set_all(&enabled);
	optind = 1;
	while ((opt = getopt_long(argc, argv, "f:r:p:jh", options, NULL)) != -1) {
		switch (opt) {
		case 'f':
			if (ir_timing_format_from_name(optarg, &fmt) < 0) {
				cli_error("unknown format '%s' (auto, mode2, binary, lircd, irmp)", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'r':
			if (cli_parse_uint(optarg, "--rate", 1000, 10000000, &v) < 0)
				return EXIT_USAGE;
			opts.irmp_sample_rate = (unsigned)v;
			break;
		case 'p': {
			char bad[64];

			if (ir_protocol_set_parse(optarg, &enabled, bad, sizeof(bad)) < 0) {
				cli_error("unknown protocol '%s' (see 'irjack protocols')", bad);
				return EXIT_USAGE;
			}
			break;
		}
		case 'j':
			run.json = true;
			break;
		case 'h':
			decode_usage(stdout);
			return 0;
		default:
			decode_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		cli_error("decode: no input file (use '-' for standard input)");
		decode_usage(stderr);
		return EXIT_USAGE;
	}
	for (int i = optind; i < argc; i++) {
		run.source = argc - optind > 1 ? argv[i] : NULL;
		if (decode_one(argv[i], fmt, &opts, &enabled, &run) < 0)
			failed = 1;
	}
	if (failed)
		return EXIT_USAGE;
	return run.frames ? 0 : EXIT_NOTHING;
}
