/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_decode.c - `irjack decode FILE...`: every frame in recorded timings.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "ir_audio_file.h"
#include "ir_decoder.h"
#include "ir_keymap.h"
#include "ir_receiver.h"
#include "ir_timing_io.h"

static void decode_usage(FILE *out)
{
	fprintf(out,
		"Usage: irjack decode [OPTIONS] FILE...\n"
		"\n"
		"Decode the IR frames in recorded audio or timings and print one line per\n"
		"frame: time of the frame's first pulse (seconds from the start of the\n"
		"file), protocol and scancode (rc-core's name and layout; IRMP's name and\n"
		"address << 16 | command for protocols rc-core lacks), and the flags\n"
		"'toggle' (the frame's toggle bit is set) and 'repeat' (a repeat code\n"
		"standing for the previous frame, e.g. NEC's).  FILE '-' reads timings from\n"
		"standard input.\n"
		"\n"
		"Audio (WAV, FLAC, AIFF... anything libsndfile reads; any rate from 8 to\n"
		"192 kHz, any sample format) goes through the same demodulator as a live\n"
		"sound card: a receiver module or a bare photodiode on the microphone input,\n"
		"either polarity, AC-coupled, noisy.\n"
		"\n"
		"Timing formats (detected, or forced with --format):\n"
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
		"  -p, --protocols LIST   decode these protocols or families, comma\n"
		"                         separated (e.g. 'nec,rc6', 'default,imon', 'all');\n"
		"                         default: all but imon, fan and rc6a, whose\n"
		"                         timings overlap others' (see 'irjack protocols')\n"
		"  -c, --channel CH       audio channel: left, right, a number from 1, or\n"
		"                         auto (default: every channel, frames reported once)\n"
		"      --polarity POL     auto (default), high (light raises the signal),\n"
		"                         low (light lowers it, as a receiver module does)\n"
		"      --timeout MS       darkness that ends a frame (default 125)\n"
		"  -k, --keymap FILE|DIR  name the buttons: an rc_keymaps TOML file (as\n"
		"                         ir-keytable reads), a lircd.conf, or a folder\n"
		"                         of them; repeatable.  The protocols they name\n"
		"                         are decoded too, and their remotes' own\n"
		"                         decoders (lircd.conf, pulse_distance...) run\n"
		"  -j, --json             print one JSON object per line: time, end (s),\n"
		"                         protocol, scancode (integer), toggle, repeat\n"
		"                         (booleans), and source (the file) when several\n"
		"                         files are given\n"
		"  -v, --verbose          for each train of pulses no protocol took, print\n"
		"                         (on standard error) why each candidate family\n"
		"                         dropped it, e.g. 'nec: header space 4150 us\n"
		"                         outside 3937-5067', the furthest first\n"
		"  -h, --help             show this help\n"
		"\n"
		"Exit status: 0 if at least one frame was decoded, 1 if none, 2 on error.\n"
		"\n"
		"Example:\n"
		"  irjack decode samples/nec-remote-irmp.mode2\n"
		"  irjack decode --channel left capture.wav\n"
		"  ir-ctl -r -1 | irjack decode -\n");
}

struct decode_run {
	struct cli_frame_printer print;
	int channel;
	enum ir_polarity polarity;
	uint32_t timeout_us;
	struct ir_keymap *keymap; /* NULL without --keymap */
	bool verbose;             /* -v: why no protocol took a train */
};

/*
 * -v: a train no protocol took, and each family's reason, the furthest
 * first, on standard error (as the kernel's decoders log at debug level).
 * Families that got past a header are shown; if none did, every family
 * says what header it wanted.
 */
static void print_why(void *userdata, uint64_t start_us, uint64_t end_us, size_t edges,
		      const struct ir_decode_reason *reasons, size_t count)
{
	const struct decode_run *run = userdata;
	bool any_progress = count && reasons[0].progress > 0;

	fprintf(stderr, "%s%s%.6f-%.6f s: %zu edges, no protocol took them\n",
		run->print.source ? run->print.source : "", run->print.source ? ": " : "",
		(double)start_us / 1e6, (double)end_us / 1e6, edges);
	for (size_t i = 0; i < count; i++)
		if (!any_progress || reasons[i].progress > 0)
			fprintf(stderr, "  %s\n", reasons[i].text);
}

/* Audio: the receiver pipeline. */
static int decode_audio(const char *path, const char *name, const struct ir_protocol_set *enabled,
			struct decode_run *run)
{
	struct ir_receiver_config cfg = {
		.channel = run->channel,
		.polarity = run->polarity,
		.timeout_us = run->timeout_us,
		.protocols = enabled,
		.keymap = run->keymap,
		.why = run->verbose ? print_why : NULL,
		.why_userdata = run,
	};
	char error[256];
	int ret = ir_receiver_run_file(path, &cfg, cli_print_frame, &run->print, error, sizeof(error));

	fflush(stdout);
	if (ret < 0) {
		cli_error("%s: %s", name, error);
		return -1;
	}
	return 0;
}

/* `path` is what to read, `name` what to call it. */
static int decode_path(const char *path, const char *name, enum ir_timing_format fmt,
		      const struct ir_timing_parse_opts *opts, const struct ir_protocol_set *enabled,
		      struct decode_run *run)
{
	struct ir_edge_buf edges = { 0 };
	struct ir_parse_error perr;
	struct ir_decoder *dec;
	int ret;

	if (fmt == IR_FORMAT_AUTO && strcmp(path, "-") != 0 && ir_audio_file_probe(path))
		return decode_audio(path, name, enabled, run);
	if (fmt == IR_FORMAT_AUTO && strcmp(path, "-") != 0 && ir_audio_file_has_magic(path)) {
		struct ir_audio_file *f;
		char why[256];

		/* a broken WAV's header is not a binary timing file's first word */
		if (ir_audio_file_open(path, &f, why, sizeof(why)) == 0) {
			ir_audio_file_close(f);
			snprintf(why, sizeof(why), "unreadable");
		}
		cli_error("%s: a broken audio file: %s", name, why);
		return -1;
	}
	ret = ir_timing_read_file(path, fmt, opts, &edges, NULL, &perr);
	if (ret == -EINVAL) {
		if (perr.line)
			cli_error("%s:%u: %s", name, perr.line, perr.message);
		else
			cli_error("%s: %s", name, perr.message);
		ir_edge_buf_free(&edges);
		return -1;
	}
	if (ret < 0) {
		cli_error("%s: %s", name,
			  ret == -EFBIG ? "file too large for a timing file" : strerror(-ret));
		ir_edge_buf_free(&edges);
		return -1;
	}
	ret = ir_decoder_new(enabled, cli_print_frame, &run->print, &dec);
	if (ret == 0 && run->keymap && (ret = ir_keymap_attach(run->keymap, dec)) < 0)
		ir_decoder_free(dec);
	if (ret < 0) {
		cli_error("%s", strerror(-ret));
		ir_edge_buf_free(&edges);
		return -1;
	}
	if (run->verbose)
		ir_decoder_set_why(dec, print_why, run);
	ir_decoder_feed_many(dec, edges.edges, edges.len);
	ir_decoder_flush(dec);
	ir_decoder_free(dec);
	ir_edge_buf_free(&edges);
	fflush(stdout);
	return 0;
}

/* A FIFO or pipe is read once (cli_input_once): the format probe and the
 * decode then read the copy. */
static int decode_one(const char *path, enum ir_timing_format fmt,
		      const struct ir_timing_parse_opts *opts, const struct ir_protocol_set *enabled,
		      struct decode_run *run)
{
	char use[PATH_MAX];
	int fd, ret = cli_input_once(path, &fd, use, sizeof(use));

	if (ret < 0) {
		cli_error("%s: %s", path,
			  ret == -EFBIG ? "more than 256 MiB from a pipe or FIFO" : strerror(-ret));
		return -1;
	}
	ret = decode_path(use, path, fmt, opts, enabled, run);
	if (fd >= 0)
		close(fd);
	return ret;
}

struct decode_args {
	enum ir_timing_format fmt;
	struct ir_timing_parse_opts opts;
	struct ir_protocol_set enabled;
	struct decode_run run;
};

/* One option: 0, or -1 for a bad value (reported). */
static int decode_option(int opt, const char *arg, struct decode_args *a)
{
	unsigned long long v;
	char bad[64];

	switch (opt) {
	case 'f':
		if (ir_timing_format_from_name(arg, &a->fmt) == 0)
			return 0;
		cli_error("unknown format '%s' (auto, mode2, binary, lircd, irmp)", arg);
		return -1;
	case 'r':
		if (cli_parse_uint(arg, "--rate", 1000, 10000000, &v) < 0)
			return -1;
		a->opts.irmp_sample_rate = (unsigned)v;
		return 0;
	case 'p':
		if (ir_protocol_set_parse(arg, &a->enabled, bad, sizeof(bad)) == 0)
			return 0;
		cli_error("unknown protocol '%s' (see 'irjack protocols')", bad);
		return -1;
	case 'j':
		a->run.print.json = true;
		return 0;
	case 'v':
		a->run.verbose = true;
		return 0;
	case 'c':
		return cli_parse_channel(arg, &a->run.channel);
	case 'P':
		return cli_parse_polarity(arg, &a->run.polarity);
	case 'T':
		if (cli_parse_uint(arg, "--timeout", 10, 10000, &v) < 0)
			return -1;
		a->run.timeout_us = (uint32_t)v * 1000;
		return 0;
	case 'k':
		return cli_load_keymap(arg, &a->run.keymap);
	}
	decode_usage(stderr);
	return -1;
}

/* Parses the options; returns 0, 1 after --help, or -1 (reported). */
static int parse_decode_args(int argc, char **argv, struct decode_args *a)
{
	static const struct option options[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "rate", required_argument, NULL, 'r' },
		{ "protocols", required_argument, NULL, 'p' },
		{ "json", no_argument, NULL, 'j' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "channel", required_argument, NULL, 'c' },
		{ "polarity", required_argument, NULL, 'P' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "keymap", required_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "f:r:p:jvc:k:h", options, NULL)) != -1) {
		if (opt == 'h') {
			decode_usage(stdout);
			return 1;
		}
		if (decode_option(opt, optarg, a) < 0)
			return -1;
	}
	if (optind >= argc) {
		cli_error("decode: no input file (use '-' for standard input)");
		decode_usage(stderr);
		return -1;
	}
	return 0;
}

int cmd_decode(int argc, char **argv)
{
	static struct decode_args a;
	int ret, failed = 0;

	memset(&a, 0, sizeof(a));
	a.run.channel = IR_RECEIVER_CHANNEL_AUTO;
	ir_protocol_set_default(&a.enabled);
	ret = parse_decode_args(argc, argv, &a);
	if (ret != 0) {
		ir_keymap_free(a.run.keymap);
		return ret > 0 ? 0 : EXIT_USAGE;
	}
	/* the protocols the keymaps name are decoded too (ir-keytable -a) */
	cli_enable_keymap_protocols(a.run.keymap, &a.enabled);
	a.run.print.keymap = a.run.keymap;
	for (int i = optind; i < argc; i++) {
		a.run.print.source = argc - optind > 1 ? argv[i] : NULL;
		if (decode_one(argv[i], a.fmt, &a.opts, &a.enabled, &a.run) < 0)
			failed = 1;
	}
	ir_keymap_free(a.run.keymap);
	if (failed)
		return EXIT_USAGE;
	return a.run.print.frames ? 0 : EXIT_NOTHING;
}
