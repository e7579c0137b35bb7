/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_record.c - `irjack record`: the edges the demodulator finds, written
 * as timings (what LIRC's mode2 would have shown), with the carrier.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ir_audio_file.h"
#include "ir_receiver.h"
#include "ir_timing_io.h"

static void record_usage(FILE *out)
{
	fprintf(out,
		"Usage: irjack record [OPTIONS] INPUT -o OUTPUT\n"
		"\n"
		"Demodulate recorded audio (WAV, FLAC, ... as 'irjack decode' reads it) and\n"
		"write the IR timings found, as LIRC's mode2 would have shown them: one\n"
		"'pulse N' / 'space N' line per edge, 'timeout N' after each burst of\n"
		"activity.  With several channels and --channel auto, the channel on which\n"
		"the most frames decode is written.\n"
		"\n"
		"Options:\n"
		"  -o, --output FILE      where to write ('-' = standard output); the format\n"
		"                         follows --format\n"
		"  -f, --format FMT       mode2 (default), compact ('+N -N' per frame),\n"
		"                         binary (LIRC_MODE2 words)\n"
		"  -c, --channel CH       left, right, a number from 1, or auto (default)\n"
		"      --polarity POL     auto (default), high, low\n"
		"      --timeout MS       darkness that ends a burst (default 125)\n"
		"  -h, --help             show this help\n"
		"\n"
		"Example:\n"
		"  irjack record capture.wav -o capture.mode2\n");
}

struct record_run {
	struct ir_edge_buf edges[IR_RECEIVER_MAX_CHANNELS];
	int oom;
};

static void keep_edge(void *userdata, unsigned channel, const struct ir_edge *edge)
{
	struct record_run *run = userdata;

	if (ir_edge_buf_push(&run->edges[channel], *edge) < 0)
		run->oom = 1;
}

static void ignore_frame(void *userdata, const struct ir_frame *frame)
{
	(void)userdata;
	(void)frame;
}

int cmd_record(int argc, char **argv)
{
	static const struct option options[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'f' },
		{ "channel", required_argument, NULL, 'c' },
		{ "polarity", required_argument, NULL, 'P' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *output = NULL, *format = "mode2";
	struct ir_receiver_config cfg = { .channel = IR_RECEIVER_CHANNEL_AUTO };
	struct record_run run = { 0 };
	struct ir_audio_file *f = NULL;
	struct ir_audio_info info;
	struct ir_receiver *rx = NULL;
	unsigned long long v;
	char error[256];
	float *buf = NULL;
	long got;
	int opt, ret, status = EXIT_USAGE;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "o:f:c:h", options, NULL)) != -1) {
		switch (opt) {
		case 'o':
			output = optarg;
			break;
		case 'f':
			if (strcmp(optarg, "mode2") && strcmp(optarg, "compact") &&
			    strcmp(optarg, "binary")) {
				cli_error("unknown format '%s' (mode2, compact, binary)", optarg);
				return EXIT_USAGE;
			}
			format = optarg;
			break;
		case 'c':
			if (cli_parse_channel(optarg, &cfg.channel) < 0)
				return EXIT_USAGE;
			break;
		case 'P':
			if (cli_parse_polarity(optarg, &cfg.polarity) < 0)
				return EXIT_USAGE;
			break;
		case 'T':
			if (cli_parse_uint(optarg, "--timeout", 10, 10000, &v) < 0)
				return EXIT_USAGE;
			cfg.timeout_us = (uint32_t)v * 1000;
			break;
		case 'h':
			record_usage(stdout);
			return 0;
		default:
			record_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind + 1 != argc || !output) {
		cli_error("record: need one INPUT and -o OUTPUT");
		record_usage(stderr);
		return EXIT_USAGE;
	}
	ret = ir_audio_file_open(argv[optind], &f, error, sizeof(error));
	if (ret < 0) {
		cli_error("%s: %s", argv[optind], error);
		return EXIT_USAGE;
	}
	ir_audio_file_info(f, &info);
	if (info.channels > IR_RECEIVER_MAX_CHANNELS ||
	    (cfg.channel >= 0 && (unsigned)cfg.channel >= info.channels)) {
		cli_error("%s: has %u channels", argv[optind], info.channels);
		goto out;
	}
	cfg.sample_rate = info.sample_rate;
	cfg.channels = info.channels;
	if (info.channels == 1)
		cfg.channel = 0;
	ret = ir_receiver_new(&cfg, ignore_frame, NULL, &rx);
	if (ret < 0) {
		cli_error("%s: cannot demodulate audio at %u Hz", argv[optind], info.sample_rate);
		goto out;
	}
	ir_receiver_set_edge_fn(rx, keep_edge, &run);
	buf = malloc(4096 * sizeof(float) * info.channels);
	if (!buf)
		goto out;
	while ((got = ir_audio_file_read(f, buf, 4096)) > 0)
		ir_receiver_process(rx, buf, (size_t)got);
	ir_receiver_flush(rx);
	if (got < 0 || run.oom) {
		cli_error("%s: %s", argv[optind], run.oom ? "out of memory" : "read error");
		goto out;
	}

	/* The channel with the most frames, then the most edges. */
	unsigned best = cfg.channel >= 0 ? (unsigned)cfg.channel : 0;

	if (cfg.channel < 0) {
		for (unsigned c = 1; c < info.channels; c++) {
			uint64_t fc = ir_receiver_channel_frames(rx, c);
			uint64_t fb = ir_receiver_channel_frames(rx, best);

			if (fc > fb || (fc == fb && run.edges[c].len > run.edges[best].len))
				best = c;
		}
	}
	FILE *out = strcmp(output, "-") == 0 ? stdout : fopen(output, "wb");

	if (!out) {
		cli_error("%s: %s", output, strerror(errno));
		goto out;
	}
	if (strcmp(format, "compact") == 0)
		ret = ir_timing_write_compact(out, run.edges[best].edges, run.edges[best].len);
	else if (strcmp(format, "binary") == 0)
		ret = ir_timing_write_binary(out, run.edges[best].edges, run.edges[best].len);
	else
		ret = ir_timing_write_mode2(out, run.edges[best].edges, run.edges[best].len);
	if ((out == stdout ? fflush(out) : fclose(out)) != 0 || ret < 0) {
		cli_error("%s: write error", output);
		goto out;
	}
	status = 0;
out:
	free(buf);
	for (unsigned c = 0; c < IR_RECEIVER_MAX_CHANNELS; c++)
		ir_edge_buf_free(&run.edges[c]);
	ir_receiver_free(rx);
	ir_audio_file_close(f);
	return status;
}
