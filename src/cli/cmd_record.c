/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_record.c - `irjack record`: the edges the demodulator finds, written
 * as timings (what LIRC's mode2 would have shown), with the carrier; or,
 * from a live source, its audio as a WAV file to share a problem.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "ir_audio_file.h"
#include "ir_receiver.h"
#include "ir_source.h"
#include "ir_timing_io.h"

static void record_usage(FILE *out)
{
	fprintf(out,
		"Usage: irjack record [OPTIONS] INPUT -o OUTPUT\n"
		"       irjack record --device SPEC [OPTIONS] -o OUTPUT\n"
		"\n"
		"Demodulate recorded audio (WAV, FLAC, ... as 'irjack decode' reads it) and\n"
		"write the IR timings found, as LIRC's mode2 would have shown them: one\n"
		"'pulse N' / 'space N' line per edge, 'timeout N' after each burst of\n"
		"activity.  With several channels and --channel auto, the channel on which\n"
		"the most frames decode is written.\n"
		"\n"
		"With --device, record from a live source instead (see 'irjack listen\n"
		"--help' for the specs: alsa:hw:1,0, a bare ALSA PCM name, lirc:/dev/lirc0,\n"
		"file:x.wav).  An OUTPUT ending in .wav or .flac gets the audio as captured\n"
		"(16-bit when the card gave S16_LE, else float), to share a problem; any\n"
		"other OUTPUT gets the timings, as above (for audio, of the channel with the\n"
		"most edges).  Recording stops at --duration or on Ctrl-C.\n"
		"\n"
		"Options:\n"
		"  -o, --output FILE      where to write ('-' = standard output); the format\n"
		"                         follows --format\n"
		"  -f, --format FMT       mode2 (default), compact ('+N -N' per frame),\n"
		"                         binary (LIRC_MODE2 words)\n"
		"  -c, --channel CH       left, right, a number from 1, or auto (default)\n"
		"      --polarity POL     auto (default), high, low\n"
		"      --timeout MS       darkness that ends a burst (default 125)\n"
		"  -d, --device SPEC      record from this live source\n"
		"  -b, --backend NAME     alsa (default) or portaudio, for a bare PCM name\n"
		"  -r, --rate HZ          live audio: the rate to ask for (default 48000)\n"
		"      --sample-format F  live ALSA audio: S16_LE, S24_LE, S24_3LE, S32_LE or\n"
		"                         FLOAT_LE (default: the best the card offers)\n"
		"      --period-us N      live audio: capture period (default 4000)\n"
		"  -t, --duration SEC     live: stop after SEC seconds of audio\n"
		"  -h, --help             show this help\n"
		"\n"
		"Examples:\n"
		"  irjack record capture.wav -o capture.mode2\n"
		"  irjack record --device hw:1,0 --duration 10 -o problem.wav\n");
}

static void ignore_frame(void *userdata, const struct ir_frame *frame)
{
	(void)userdata;
	(void)frame;
}

/* ---- from a live source ---- */

struct live_record {
	struct ir_audio_writer *writer; /* audio output, or NULL */
	struct ir_edge_buf edges[IR_RECEIVER_MAX_CHANNELS];
	int failed;                     /* -EIO / -ENOMEM */
};

static void live_samples(void *userdata, const float *interleaved, size_t frames)
{
	struct live_record *rec = userdata;

	if (rec->writer && !rec->failed && ir_audio_writer_write(rec->writer, interleaved, frames) < 0)
		rec->failed = -EIO;
}

static void live_edge(void *userdata, unsigned channel, const struct ir_edge *edge)
{
	struct live_record *rec = userdata;

	if (channel < IR_RECEIVER_MAX_CHANNELS && ir_edge_buf_push(&rec->edges[channel], *edge) < 0)
		rec->failed = -ENOMEM;
}

static void live_event(void *userdata, enum ir_source_event event, const char *message)
{
	(void)userdata;
	if (event != IR_SOURCE_END)
		cli_error("%s", message);
}

static bool wants_audio(const char *path)
{
	size_t len = strlen(path);

	return (len > 4 && strcasecmp(path + len - 4, ".wav") == 0) ||
	       (len > 5 && strcasecmp(path + len - 5, ".flac") == 0);
}

static int write_timings(const char *output, const char *format, const struct ir_edge_buf *edges)
{
	FILE *out = strcmp(output, "-") == 0 ? stdout : fopen(output, "wb");
	int ret;

	if (!out) {
		cli_error("%s: %s", output, strerror(errno));
		return -1;
	}
	if (strcmp(format, "compact") == 0)
		ret = ir_timing_write_compact(out, edges->edges, edges->len);
	else if (strcmp(format, "binary") == 0)
		ret = ir_timing_write_binary(out, edges->edges, edges->len);
	else
		ret = ir_timing_write_mode2(out, edges->edges, edges->len);
	if ((out == stdout ? fflush(out) : fclose(out)) != 0 || ret < 0) {
		cli_error("%s: write error", output);
		return -1;
	}
	return 0;
}

static int record_live(const char *spec, struct ir_source_options *sopt, double duration_s,
		       const char *output, const char *format)
{
	struct live_record rec = { 0 };
	struct ir_source_callbacks cb = { ignore_frame, live_edge, live_event, live_samples, &rec };
	struct ir_source_stats st;
	struct ir_source *src;
	char err[256];
	int status = EXIT_USAGE, ret;
	unsigned best = 0;

	if (wants_audio(output))
		cb.edge = NULL;
	cli_source_duration(sopt, duration_s);
	if (ir_source_open(spec, sopt, &cb, &src, err, sizeof(err)) < 0) {
		cli_error("%s", err);
		return EXIT_USAGE;
	}
	ir_source_stats(src, &st);
	if (wants_audio(output)) {
		if (!st.rate) {
			cli_error("%s gives timings, not audio: record to a .mode2 file", spec);
			goto out;
		}
		ret = ir_audio_writer_open(output, st.rate, st.channels,
					   strcmp(st.format, "S16_LE") == 0 ? IR_AUDIO_PCM_16 : IR_AUDIO_FLOAT,
					   &rec.writer);
		if (ret < 0) {
			cli_error("%s: %s", output, strerror(-ret));
			goto out;
		}
	}
	if (cli_run_source(src, duration_s) < 0)
		goto out;
	if (rec.failed) {
		cli_error("%s: %s", output, strerror(-rec.failed));
		goto out;
	}
	if (rec.writer) {
		ret = ir_audio_writer_close(rec.writer);
		rec.writer = NULL;
		if (ret < 0) {
			cli_error("%s: write error", output);
			goto out;
		}
		status = 0;
		goto out;
	}
	if (sopt->channel >= 0 && st.rate)
		best = (unsigned)sopt->channel;
	else
		for (unsigned c = 1; c < IR_RECEIVER_MAX_CHANNELS; c++)
			if (rec.edges[c].len > rec.edges[best].len)
				best = c;
	if (write_timings(output, format, &rec.edges[best]) == 0)
		status = 0;
out:
	if (rec.writer)
		ir_audio_writer_close(rec.writer);
	for (unsigned c = 0; c < IR_RECEIVER_MAX_CHANNELS; c++)
		ir_edge_buf_free(&rec.edges[c]);
	ir_source_free(src);
	return status;
}

struct record_args {
	const char *output, *format;
	struct ir_source_options sopt;
	struct cli_live_args live;
	struct ir_receiver_config cfg;
};

/* One option of record's own: 0, or -1 for a bad value (reported). */
static int record_option(int opt, const char *arg, struct record_args *a)
{
	unsigned long long v;

	switch (opt) {
	case 'o':
		a->output = arg;
		return 0;
	case 'f':
		if (strcmp(arg, "mode2") && strcmp(arg, "compact") && strcmp(arg, "binary")) {
			cli_error("unknown format '%s' (mode2, compact, binary)", arg);
			return -1;
		}
		a->format = arg;
		return 0;
	case 'c':
		return cli_parse_channel(arg, &a->cfg.channel);
	case 'P':
		return cli_parse_polarity(arg, &a->cfg.polarity);
	case 'T':
		if (cli_parse_uint(arg, "--timeout", 10, 10000, &v) < 0)
			return -1;
		a->cfg.timeout_us = (uint32_t)v * 1000;
		return 0;
	}
	record_usage(stderr);
	return -1;
}

/* Parses the options; returns 0, 1 after --help, or -1 (reported). */
static int parse_record_args(int argc, char **argv, struct record_args *a)
{
	static const struct option options[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'f' },
		{ "channel", required_argument, NULL, 'c' },
		{ "polarity", required_argument, NULL, 'P' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "device", required_argument, NULL, 'd' },
		{ "backend", required_argument, NULL, 'b' },
		{ "rate", required_argument, NULL, 'r' },
		{ "sample-format", required_argument, NULL, 'F' },
		{ "period-us", required_argument, NULL, 'U' },
		{ "duration", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "o:f:c:d:b:r:t:h", options, NULL)) != -1) {
		int taken = cli_live_option(opt, optarg, &a->live);

		if (taken < 0)
			return -1;
		if (taken)
			continue;
		if (opt == 'h') {
			record_usage(stdout);
			return 1;
		}
		if (record_option(opt, optarg, a) < 0)
			return -1;
	}
	return 0;
}

/* A recording's demodulated timings. */
static int record_file(const char *input, const struct record_args *a)
{
	struct ir_edge_buf edges = { 0 };
	char error[256];
	int ret = ir_receiver_edges_file(input, &a->cfg, &edges, error, sizeof(error));

	if (ret < 0)
		cli_error("%s: %s", input, error);
	else
		ret = write_timings(a->output, a->format, &edges);
	ir_edge_buf_free(&edges);
	return ret < 0 ? EXIT_USAGE : 0;
}

int cmd_record(int argc, char **argv)
{
	static struct record_args a;
	char spec[512];
	int ret;

	memset(&a, 0, sizeof(a));
	a.format = "mode2";
	a.live.sopt = &a.sopt;
	a.cfg.channel = IR_RECEIVER_CHANNEL_AUTO;
	ir_source_options_init(&a.sopt);
	a.sopt.realtime = true;
	ret = parse_record_args(argc, argv, &a);
	if (ret != 0)
		return ret > 0 ? 0 : EXIT_USAGE;
	if (a.live.device || a.live.backend) {
		if (optind != argc || !a.output) {
			cli_error("record: with --device, only -o OUTPUT (no INPUT)");
			record_usage(stderr);
			return EXIT_USAGE;
		}
		if (cli_source_spec(a.live.device, a.live.backend, spec, sizeof(spec)) < 0)
			return EXIT_USAGE;
		a.sopt.channel = a.cfg.channel;
		a.sopt.polarity = a.cfg.polarity;
		a.sopt.timeout_us = a.cfg.timeout_us;
		return record_live(spec, &a.sopt, a.live.duration_s, a.output, a.format);
	}
	if (optind + 1 != argc || !a.output) {
		cli_error("record: need one INPUT and -o OUTPUT");
		record_usage(stderr);
		return EXIT_USAGE;
	}
	return record_file(argv[optind], &a);
}
