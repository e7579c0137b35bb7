/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_plot.c - `irjack plot`: an SVG of a capture, to see what the
 * demodulator and decoders made of it.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ir_audio_file.h"
#include "ir_decoder.h"
#include "ir_plot.h"
#include "ir_receiver.h"
#include "ir_timing_io.h"

#define MAX_FRAMES 4096

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

struct plot_run {
	struct ir_edge_buf edges[IR_RECEIVER_MAX_CHANNELS];
	struct ir_frame frames[IR_RECEIVER_MAX_CHANNELS][MAX_FRAMES];
	size_t nframes[IR_RECEIVER_MAX_CHANNELS];
	unsigned channel; /* set by the receiver's frame callback below */
	int oom;
};

static void keep_edge(void *userdata, unsigned channel, const struct ir_edge *edge)
{
	struct plot_run *run = userdata;

	run->channel = channel;
	if (ir_edge_buf_push(&run->edges[channel], *edge) < 0)
		run->oom = 1;
}

static void keep_frame(void *userdata, const struct ir_frame *frame)
{
	struct plot_run *run = userdata;
	unsigned c = run->channel;

	if (run->nframes[c] < MAX_FRAMES)
		run->frames[c][run->nframes[c]++] = *frame;
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

int cmd_plot(int argc, char **argv)
{
	static const struct option options[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "from", required_argument, NULL, 'F' },
		{ "to", required_argument, NULL, 'T' },
		{ "width", required_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *output = NULL, *input;
	double from = 0, to = -1;
	unsigned long long v;
	unsigned width = 1600, best = 0;
	struct plot_run *run = NULL;
	float *wmin = NULL, *wmax = NULL, *buf = NULL;
	struct ir_audio_file *af = NULL;
	struct ir_receiver *rx = NULL;
	char error[256];
	int opt, status = EXIT_USAGE;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "o:w:h", options, NULL)) != -1) {
		switch (opt) {
		case 'o':
			output = optarg;
			break;
		case 'F':
			if (parse_seconds(optarg, "--from", &from) < 0)
				return EXIT_USAGE;
			break;
		case 'T':
			if (parse_seconds(optarg, "--to", &to) < 0)
				return EXIT_USAGE;
			break;
		case 'w':
			if (cli_parse_uint(optarg, "--width", 100, 20000, &v) < 0)
				return EXIT_USAGE;
			width = (unsigned)v;
			break;
		case 'h':
			plot_usage(stdout);
			return 0;
		default:
			plot_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind + 1 != argc || !output) {
		cli_error("plot: need one INPUT and -o OUTPUT");
		plot_usage(stderr);
		return EXIT_USAGE;
	}
	if (to >= 0 && to <= from) {
		cli_error("plot: --to must be after --from");
		return EXIT_USAGE;
	}
	input = argv[optind];
	run = calloc(1, sizeof(*run));
	if (!run)
		goto out;

	uint64_t from_us = (uint64_t)(from * 1e6), to_us = 0;

	if (ir_audio_file_open(input, &af, error, sizeof(error)) == 0) {
		struct ir_audio_info info;
		struct ir_receiver_config cfg = { .channel = IR_RECEIVER_CHANNEL_AUTO };
		uint64_t pos = 0;
		long got;

		ir_audio_file_info(af, &info);
		if (info.channels > IR_RECEIVER_MAX_CHANNELS || !info.frames) {
			cli_error("%s: unsupported audio (%u channels)", input, info.channels);
			goto out;
		}
		to_us = to >= 0 ? (uint64_t)(to * 1e6)
				: info.frames * 1000000 / info.sample_rate;
		if (to_us <= from_us) {
			cli_error("%s: --from is past the end", input);
			goto out;
		}
		cfg.sample_rate = info.sample_rate;
		cfg.channels = info.channels;
		if (info.channels == 1)
			cfg.channel = 0;
		buf = malloc(4096 * sizeof(float) * info.channels);
		wmin = malloc(sizeof(float) * width * info.channels);
		wmax = malloc(sizeof(float) * width * info.channels);
		if (!buf || !wmin || !wmax)
			goto out;
		for (size_t i = 0; i < (size_t)width * info.channels; i++) {
			wmin[i] = 1;
			wmax[i] = -1;
		}
		if (ir_receiver_new(&cfg, keep_frame, run, &rx) < 0) {
			cli_error("%s: cannot demodulate audio at %u Hz", input, info.sample_rate);
			goto out;
		}
		ir_receiver_set_edge_fn(rx, keep_edge, run);
		while ((got = ir_audio_file_read(af, buf, 4096)) > 0) {
			for (long i = 0; i < got; i++, pos++) {
				uint64_t t = pos * 1000000 / info.sample_rate;

				if (t < from_us || t >= to_us)
					continue;
				unsigned x = (unsigned)((t - from_us) * width / (to_us - from_us));

				for (unsigned c = 0; c < info.channels; c++) {
					float s = buf[(size_t)i * info.channels + c];
					size_t k = (size_t)c * width + x;

					wmin[k] = fminf(wmin[k], s);
					wmax[k] = fmaxf(wmax[k], s);
				}
			}
			ir_receiver_process(rx, buf, (size_t)got);
		}
		ir_receiver_flush(rx);
		if (got < 0 || run->oom) {
			cli_error("%s: %s", input, run->oom ? "out of memory" : "read error");
			goto out;
		}
		for (unsigned c = 1; c < info.channels; c++)
			if (run->nframes[c] > run->nframes[best] ||
			    (run->nframes[c] == run->nframes[best] &&
			     run->edges[c].len > run->edges[best].len))
				best = c;
		for (unsigned x = 0; x < width; x++) { /* empty columns: none drawn */
			size_t k = (size_t)best * width + x;

			if (wmin[k] > wmax[k])
				wmin[k] = wmax[k] = 0;
		}
	} else {
		struct ir_parse_error perr = { 0 };
		struct ir_protocol_set set;
		struct ir_decoder *dec = NULL;
		int ret = ir_timing_read_file(input, IR_FORMAT_AUTO, NULL, &run->edges[0], NULL,
					      &perr);

		if (ret < 0) {
			cli_error("%s: not audio (%s) nor timings (%s)", input, error,
				  strerror(-ret));
			goto out;
		}
		ir_protocol_set_default(&set);
		if (ir_decoder_new(&set, keep_frame, run, &dec) < 0)
			goto out;
		ir_decoder_feed_many(dec, run->edges[0].edges, run->edges[0].len);
		ir_decoder_flush(dec);
		ir_decoder_free(dec);
		to_us = to >= 0 ? (uint64_t)(to * 1e6) : ir_edge_buf_duration(&run->edges[0]);
		if (to_us <= from_us) {
			cli_error("%s: --from is past the end", input);
			goto out;
		}
	}

	FILE *out = strcmp(output, "-") == 0 ? stdout : fopen(output, "w");

	if (!out) {
		cli_error("%s: %s", output, strerror(errno));
		goto out;
	}
	struct ir_plot p = {
		.from_us = from_us,
		.to_us = to_us,
		.width = width,
		.wave_min = wmin ? wmin + (size_t)best * width : NULL,
		.wave_max = wmax ? wmax + (size_t)best * width : NULL,
		.edges = run->edges[best].edges,
		.nedges = run->edges[best].len,
		.frames = run->frames[best],
		.nframes = run->nframes[best],
		.title = input,
	};
	int ret = ir_plot_svg(out, &p);

	if (out != stdout && fclose(out) != 0)
		ret = -EIO;
	if (ret < 0) {
		cli_error("%s: write error", output);
		goto out;
	}
	status = 0;
out:
	if (rx)
		ir_receiver_free(rx);
	if (af)
		ir_audio_file_close(af);
	if (run)
		for (unsigned c = 0; c < IR_RECEIVER_MAX_CHANNELS; c++)
			ir_edge_buf_free(&run->edges[c]);
	free(run);
	free(buf);
	free(wmin);
	free(wmax);
	return status;
}
