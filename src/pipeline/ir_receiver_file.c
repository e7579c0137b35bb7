/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_receiver_file.c - a recording through the receiver, as a sound card's
 * samples would go (shared by `irjack decode` and irjackd's file sources).
 */
#include "ir_receiver.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir_audio_file.h"

#define BLOCK_FRAMES 4096

/* What one run over a file collects. */
struct file_run {
	ir_frame_fn frame_fn;
	void *userdata;
	struct ir_edge_buf *edges; /* IR_RECEIVER_MAX_CHANNELS, or NULL */
	bool oom;
};

static void run_frame(void *userdata, const struct ir_frame *frame)
{
	struct file_run *run = userdata;

	if (run->frame_fn)
		run->frame_fn(run->userdata, frame);
}

static void run_edge(void *userdata, unsigned channel, const struct ir_edge *edge)
{
	struct file_run *run = userdata;

	if (ir_edge_buf_push(&run->edges[channel], *edge) < 0)
		run->oom = true;
}

/* Opens the file and a receiver for it (rate and channels from the file). */
static int open_run(const char *path, const struct ir_receiver_config *cfg, struct file_run *run,
		    struct ir_audio_file **f, struct ir_receiver **rx, unsigned *channels,
		    char *error, size_t error_size)
{
	struct ir_receiver_config rcfg = *cfg;
	struct ir_audio_info info;
	int ret = ir_audio_file_open(path, f, error, error_size);

	if (ret < 0)
		return ret;
	ir_audio_file_info(*f, &info);
	ret = -EINVAL;
	if (info.channels > IR_RECEIVER_MAX_CHANNELS)
		snprintf(error, error_size, "%u channels; at most %d are supported", info.channels,
			 IR_RECEIVER_MAX_CHANNELS);
	else if (cfg->channel >= 0 && (unsigned)cfg->channel >= info.channels)
		snprintf(error, error_size, "has %u channel%s, no channel %d", info.channels,
			 info.channels == 1 ? "" : "s", cfg->channel + 1);
	else
		ret = 0;
	if (ret == 0) {
		rcfg.sample_rate = info.sample_rate;
		rcfg.channels = info.channels;
		if (info.channels == 1)
			rcfg.channel = 0;
		ret = ir_receiver_new(&rcfg, run_frame, run, rx);
		if (ret < 0)
			snprintf(error, error_size, "cannot decode audio at %u Hz: %s", info.sample_rate,
				 strerror(-ret));
	}
	if (ret < 0) {
		ir_audio_file_close(*f);
		return ret;
	}
	if (run->edges)
		ir_receiver_set_edge_fn(*rx, run_edge, run);
	*channels = info.channels;
	return 0;
}

/* Feeds the whole file; returns 0 or a negative errno (error filled). */
static int feed_file(struct ir_audio_file *f, struct ir_receiver *rx, unsigned channels,
		     const struct file_run *run, char *error, size_t error_size)
{
	float *buf = malloc(BLOCK_FRAMES * sizeof(float) * channels);
	long got;

	if (!buf) {
		snprintf(error, error_size, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	while ((got = ir_audio_file_read(f, buf, BLOCK_FRAMES)) > 0)
		ir_receiver_process(rx, buf, (size_t)got);
	ir_receiver_flush(rx);
	free(buf);
	if (got < 0 || run->oom) {
		snprintf(error, error_size, "%s", run->oom ? "out of memory" : "read error");
		return run->oom ? -ENOMEM : -EIO;
	}
	return 0;
}

int ir_receiver_run_file(const char *path, const struct ir_receiver_config *cfg,
			 ir_frame_fn frame_fn, void *userdata, char *error, size_t error_size)
{
	struct file_run run = { .frame_fn = frame_fn, .userdata = userdata };
	struct ir_audio_file *f;
	struct ir_receiver *rx;
	unsigned channels;
	int ret = open_run(path, cfg, &run, &f, &rx, &channels, error, error_size);

	if (ret < 0)
		return ret;
	ret = feed_file(f, rx, channels, &run, error, error_size);
	ir_receiver_free(rx);
	ir_audio_file_close(f);
	return ret;
}

/* The channel asked for, else the one with the most frames, then edges. */
static unsigned busiest_channel(const struct ir_receiver *rx, const struct ir_edge_buf *edges,
				unsigned channels, int asked)
{
	unsigned best = 0;

	if (asked >= 0)
		return channels == 1 ? 0 : (unsigned)asked;
	for (unsigned c = 1; c < channels; c++) {
		uint64_t fc = ir_receiver_channel_frames(rx, c), fb = ir_receiver_channel_frames(rx, best);

		if (fc > fb || (fc == fb && edges[c].len > edges[best].len))
			best = c;
	}
	return best;
}

int ir_receiver_edges_file(const char *path, const struct ir_receiver_config *cfg,
			   struct ir_edge_buf *out, char *error, size_t error_size)
{
	struct ir_edge_buf edges[IR_RECEIVER_MAX_CHANNELS] = { { 0 } };
	struct file_run run = { .edges = edges };
	struct ir_audio_file *f;
	struct ir_receiver *rx;
	unsigned channels, best;
	int ret = open_run(path, cfg, &run, &f, &rx, &channels, error, error_size);

	if (ret < 0)
		return ret;
	ret = feed_file(f, rx, channels, &run, error, error_size);
	if (ret == 0) {
		best = busiest_channel(rx, edges, channels, cfg->channel);
		*out = edges[best];
		edges[best] = (struct ir_edge_buf){ 0 };
	}
	for (unsigned c = 0; c < IR_RECEIVER_MAX_CHANNELS; c++)
		ir_edge_buf_free(&edges[c]);
	ir_receiver_free(rx);
	ir_audio_file_close(f);
	return ret;
}
