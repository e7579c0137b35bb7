/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_plot_read.c - a recording read for `irjack plot` (ir_plot.h): edges
 * and frames per channel, and the waveform's minimum and maximum per pixel
 * column.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ir_audio_file.h"
#include "ir_plot.h"
#include "ir_receiver.h"
#include "ir_timing_io.h"

#define MAX_FRAMES 4096
#define READ_FRAMES 4096

struct ir_plot_capture {
	struct ir_edge_buf edges[IR_RECEIVER_MAX_CHANNELS];
	struct ir_frame frames[IR_RECEIVER_MAX_CHANNELS][MAX_FRAMES];
	size_t nframes[IR_RECEIVER_MAX_CHANNELS];
	unsigned channel; /* set by the receiver's edge callback below */
	bool oom;
	float *wmin, *wmax; /* width columns per channel */
};

static void keep_edge(void *userdata, unsigned channel, const struct ir_edge *edge)
{
	struct ir_plot_capture *run = userdata;

	run->channel = channel;
	if (ir_edge_buf_push(&run->edges[channel], *edge) < 0)
		run->oom = true;
}

static void keep_frame(void *userdata, const struct ir_frame *frame)
{
	struct ir_plot_capture *run = userdata;
	unsigned c = run->channel;

	if (run->nframes[c] < MAX_FRAMES)
		run->frames[c][run->nframes[c]++] = *frame;
}

/* The waveform's extremes per pixel column, for the samples in the window. */
static void reduce(struct ir_plot_capture *run, const float *buf, long got, uint64_t *pos,
		   const struct ir_audio_info *info, const struct ir_plot *p)
{
	for (long i = 0; i < got; i++, (*pos)++) {
		uint64_t t = *pos * 1000000 / info->sample_rate;

		if (t < p->from_us || t >= p->to_us)
			continue;
		unsigned x = (unsigned)((t - p->from_us) * p->width / (p->to_us - p->from_us));

		for (unsigned c = 0; c < info->channels; c++) {
			float s = buf[(size_t)i * info->channels + c];
			size_t k = (size_t)c * p->width + x;

			run->wmin[k] = fminf(run->wmin[k], s);
			run->wmax[k] = fmaxf(run->wmax[k], s);
		}
	}
}

/* Demodulates and reduces the audio; the window must be set in *p. */
static int read_audio(const char *path, struct ir_audio_file *af, const struct ir_audio_info *info,
		      struct ir_plot_capture *run, const struct ir_plot *p, char *err,
		      size_t err_size)
{
	struct ir_receiver_config cfg = {
		.sample_rate = info->sample_rate,
		.channels = info->channels,
		.channel = info->channels == 1 ? 0 : IR_RECEIVER_CHANNEL_AUTO,
	};
	struct ir_receiver *rx = NULL;
	float *buf = malloc(READ_FRAMES * sizeof(float) * info->channels);
	uint64_t pos = 0;
	long got = 0;

	if (!buf)
		return -ENOMEM;
	if (ir_receiver_new(&cfg, keep_frame, run, &rx) < 0) {
		free(buf);
		snprintf(err, err_size, "%s: cannot demodulate audio at %u Hz", path, info->sample_rate);
		return -EINVAL;
	}
	ir_receiver_set_edge_fn(rx, keep_edge, run);
	while ((got = ir_audio_file_read(af, buf, READ_FRAMES)) > 0) {
		reduce(run, buf, got, &pos, info, p);
		ir_receiver_process(rx, buf, (size_t)got);
	}
	ir_receiver_flush(rx);
	ir_receiver_free(rx);
	free(buf);
	if (got < 0 || run->oom) {
		snprintf(err, err_size, "%s: %s", path, run->oom ? "out of memory" : "read error");
		return run->oom ? -ENOMEM : -EIO;
	}
	return 0;
}

/* The channel with the most frames (then edges); its empty columns flat. */
static unsigned best_channel(struct ir_plot_capture *run, unsigned channels, unsigned width)
{
	unsigned best = 0;

	for (unsigned c = 1; c < channels; c++)
		if (run->nframes[c] > run->nframes[best] ||
		    (run->nframes[c] == run->nframes[best] && run->edges[c].len > run->edges[best].len))
			best = c;
	for (unsigned x = 0; x < width; x++) {
		size_t k = (size_t)best * width + x;

		if (run->wmin[k] > run->wmax[k])
			run->wmin[k] = run->wmax[k] = 0;
	}
	return best;
}

static int plot_audio(const char *path, struct ir_audio_file *af, struct ir_plot_capture *run,
		      struct ir_plot *p, uint64_t to_us, char *err, size_t err_size)
{
	struct ir_audio_info info;
	size_t columns;
	unsigned best;
	int ret;

	ir_audio_file_info(af, &info);
	if (info.channels > IR_RECEIVER_MAX_CHANNELS || !info.frames) {
		snprintf(err, err_size, "%s: unsupported audio (%u channels)", path, info.channels);
		return -EINVAL;
	}
	p->to_us = to_us ? to_us : info.frames * 1000000 / info.sample_rate;
	if (p->to_us <= p->from_us) {
		snprintf(err, err_size, "%s: --from is past the end", path);
		return -EINVAL;
	}
	columns = (size_t)p->width * info.channels;
	run->wmin = malloc(sizeof(float) * columns);
	run->wmax = malloc(sizeof(float) * columns);
	if (!run->wmin || !run->wmax)
		return -ENOMEM;
	for (size_t i = 0; i < columns; i++) {
		run->wmin[i] = 1;
		run->wmax[i] = -1;
	}
	ret = read_audio(path, af, &info, run, p, err, err_size);
	if (ret < 0)
		return ret;
	best = best_channel(run, info.channels, p->width);
	p->wave_min = run->wmin + (size_t)best * p->width;
	p->wave_max = run->wmax + (size_t)best * p->width;
	p->edges = run->edges[best].edges;
	p->nedges = run->edges[best].len;
	p->frames = run->frames[best];
	p->nframes = run->nframes[best];
	return 0;
}

static int plot_timings(const char *path, const char *audio_error, struct ir_plot_capture *run,
			struct ir_plot *p, uint64_t to_us, char *err, size_t err_size)
{
	struct ir_parse_error perr = { 0 };
	struct ir_protocol_set set;
	struct ir_decoder *dec = NULL;
	int ret = ir_timing_read_file(path, IR_FORMAT_AUTO, NULL, &run->edges[0], NULL, &perr);

	if (ret < 0) {
		snprintf(err, err_size, "%s: not audio (%s) nor timings (%s)", path, audio_error,
			 strerror(-ret));
		return ret;
	}
	ir_protocol_set_default(&set);
	ret = ir_decoder_new(&set, keep_frame, run, &dec);
	if (ret < 0)
		return ret;
	ir_decoder_feed_many(dec, run->edges[0].edges, run->edges[0].len);
	ir_decoder_flush(dec);
	ir_decoder_free(dec);
	p->to_us = to_us ? to_us : ir_edge_buf_duration(&run->edges[0]);
	if (p->to_us <= p->from_us) {
		snprintf(err, err_size, "%s: --from is past the end", path);
		return -EINVAL;
	}
	p->edges = run->edges[0].edges;
	p->nedges = run->edges[0].len;
	p->frames = run->frames[0];
	p->nframes = run->nframes[0];
	return 0;
}

int ir_plot_read(const char *path, uint64_t from_us, uint64_t to_us, unsigned width,
		 struct ir_plot_capture **out, struct ir_plot *p, char *err, size_t err_size)
{
	struct ir_plot_capture *run = calloc(1, sizeof(*run));
	struct ir_audio_file *af = NULL;
	char audio_error[256];
	int ret;

	*p = (struct ir_plot){ .from_us = from_us, .width = width, .title = path };
	if (!run)
		return -ENOMEM;
	if (ir_audio_file_open(path, &af, audio_error, sizeof(audio_error)) == 0) {
		ret = plot_audio(path, af, run, p, to_us, err, err_size);
		ir_audio_file_close(af);
	} else {
		ret = plot_timings(path, audio_error, run, p, to_us, err, err_size);
	}
	if (ret < 0) {
		if (ret == -ENOMEM)
			snprintf(err, err_size, "%s", strerror(ENOMEM));
		ir_plot_capture_free(run);
		return ret;
	}
	*out = run;
	return 0;
}

void ir_plot_capture_free(struct ir_plot_capture *c)
{
	if (!c)
		return;
	for (unsigned ch = 0; ch < IR_RECEIVER_MAX_CHANNELS; ch++)
		ir_edge_buf_free(&c->edges[ch]);
	free(c->wmin);
	free(c->wmax);
	free(c);
}
