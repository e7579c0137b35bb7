/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_source_file.c - a recording as a source: audio (anything libsndfile
 * reads) through the receiver, or a timing file (mode2, ir-ctl, binary,
 * IRMP) straight into the decoders.  Delivered at once, or paced to real
 * time so a daemon and its clients see what a live receiver would give.
 */
#include "ir_source.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "ir_audio_file.h"
#include "ir_timing_io.h"
#include "ir_time.h"

#define BLOCK_FRAMES 4096
#define PACE_TICK_NS 5000000L /* 5 ms: well under any key-up timeout */

struct file_source {
	struct ir_source_sink *sink;
	char path[256];
	bool paced;
	int fd;                      /* eventfd (at once) or timerfd (paced) */
	uint64_t start_ns;
	/* audio */
	struct ir_audio_file *audio;
	struct ir_audio_info info;
	float *buf;
	uint64_t delivered;          /* frames, or µs of timings */
	/* timings */
	struct ir_edge_buf edges;
	size_t next_edge;
	uint32_t space_told_us;      /* of the space now due: told to the decoders */
};

static void file_close(void *impl)
{
	struct file_source *fs = impl;

	if (!fs)
		return;
	if (fs->audio)
		ir_audio_file_close(fs->audio);
	free(fs->buf);
	ir_edge_buf_free(&fs->edges);
	if (fs->fd >= 0)
		close(fs->fd);
	free(fs);
}

static int arm_fd(struct file_source *fs, uint32_t delay_ms)
{
	if (fs->paced) {
		struct itimerspec its = {
			.it_interval = { 0, PACE_TICK_NS },
			.it_value = { 0, PACE_TICK_NS },
		};

		fs->fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
		if (fs->fd < 0)
			return -errno;
		if (timerfd_settime(fs->fd, 0, &its, NULL) < 0)
			return -errno;
	} else {
		/* Never drained: always readable until the source is freed. */
		fs->fd = eventfd(1, EFD_NONBLOCK | EFD_CLOEXEC);
		if (fs->fd < 0)
			return -errno;
	}
	fs->start_ns = ir_monotonic_ns() + (fs->paced ? (uint64_t)delay_ms * 1000000u : 0);
	return 0;
}

static int file_open(const char *device, const struct ir_source_options *opt,
		     struct ir_source_sink *sink, void **impl, char *err, size_t err_size)
{
	struct file_source *fs;
	struct ir_parse_error perr = { 0 };
	char msg[160] = "";
	int ret;

	if (!device[0]) {
		snprintf(err, err_size, "file: a path is required (file:PATH)");
		return -EINVAL;
	}
	fs = calloc(1, sizeof(*fs));
	if (!fs) {
		snprintf(err, err_size, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	fs->fd = -1;
	fs->sink = sink;
	fs->paced = opt->paced;
	snprintf(fs->path, sizeof(fs->path), "%s", device);
	/* a broken WAV is named as one, not as a binary timing file */
	if (ir_audio_file_probe(device) || ir_audio_file_has_magic(device)) {
		ret = ir_audio_file_open(device, &fs->audio, msg, sizeof(msg));
		if (ret < 0) {
			snprintf(err, err_size, "%s: %s%s", device,
				 ret == -EMEDIUMTYPE ? "a broken audio file: " : "", msg);
			goto fail;
		}
		ir_audio_file_info(fs->audio, &fs->info);
		fs->buf = malloc(BLOCK_FRAMES * sizeof(float) * fs->info.channels);
		if (!fs->buf) {
			ret = -ENOMEM;
			snprintf(err, err_size, "%s", strerror(ENOMEM));
			goto fail;
		}
		ir_source_sink_audio_format(sink, fs->info.sample_rate, fs->info.channels);
	} else {
		ret = ir_timing_read_file(device, IR_FORMAT_AUTO, NULL, &fs->edges, NULL, &perr);
		if (ret < 0) {
			if (ret == -EINVAL)
				snprintf(err, err_size, "%s:%u: %s", device, perr.line, perr.message);
			else
				snprintf(err, err_size, "%s: %s", device, strerror(-ret));
			goto fail;
		}
	}
	ret = arm_fd(fs, opt->start_delay_ms);
	if (ret < 0) {
		snprintf(err, err_size, "%s", strerror(-ret));
		goto fail;
	}
	*impl = fs;
	return 0;
fail:
	file_close(fs);
	return ret;
}

static int file_fd(void *impl)
{
	return ((struct file_source *)impl)->fd;
}

static int dispatch_audio(struct file_source *fs, uint64_t due_frames)
{
	while (fs->delivered < due_frames) {
		uint64_t want = due_frames - fs->delivered;
		long got = ir_audio_file_read(fs->audio, fs->buf,
					      want < BLOCK_FRAMES ? (size_t)want : BLOCK_FRAMES);

		if (got < 0)
			return -EIO;
		if (got == 0)
			return -ENODATA;
		ir_source_sink_samples(fs->sink, fs->buf, (size_t)got);
		fs->delivered += (uint64_t)got;
		if (!fs->paced)
			return 0; /* one block per dispatch: the caller's loop stays responsive */
	}
	return 0;
}

/*
 * A space is handed over only once all of it has been played, but the
 * decoders may be sure of a frame long before (NEC after 2250 us of the
 * ~96 ms after a repeat).  Tell them when the silence reaches their
 * deadline, as a live receiver's idle timer does, so a paced replay
 * reports frames as early as the line would.  The value told is the
 * deadline itself, in the file's time, not the wall clock's: what is
 * decoded never depends on how late this dispatch ran.
 */
static void tell_space_elapsed(struct file_source *fs, const struct ir_edge *space,
			       uint64_t due_us)
{
	for (;;) {
		uint32_t deadline = ir_source_sink_space_deadline(fs->sink);

		if (!deadline || deadline <= fs->space_told_us || deadline >= space->duration ||
		    fs->delivered + deadline > due_us)
			return;
		ir_source_sink_space_elapsed(fs->sink, deadline);
		fs->space_told_us = deadline; /* another family may wait longer */
	}
}

static int dispatch_timings(struct file_source *fs, uint64_t due_us)
{
	size_t first = fs->next_edge;
	const struct ir_edge *pending = NULL;

	while (fs->next_edge < fs->edges.len) {
		const struct ir_edge *e = &fs->edges.edges[fs->next_edge];

		if (fs->paced && ir_edge_is_timing(e) && fs->delivered + e->duration > due_us) {
			pending = e;
			break;
		}
		if (ir_edge_is_timing(e))
			fs->delivered += e->duration;
		fs->next_edge++;
		fs->space_told_us = 0;
		if (!fs->paced && fs->next_edge - first >= 1024)
			break;
	}
	if (fs->next_edge > first)
		ir_source_sink_edges(fs->sink, &fs->edges.edges[first], fs->next_edge - first);
	/* after a pulse only: the deadline counts from the last pulse's end */
	if (pending && pending->kind == IR_SPACE && fs->next_edge > 0 &&
	    fs->edges.edges[fs->next_edge - 1].kind == IR_PULSE)
		tell_space_elapsed(fs, pending, due_us);
	return fs->next_edge < fs->edges.len ? 0 : -ENODATA;
}

static int file_dispatch(void *impl)
{
	struct file_source *fs = impl;
	uint64_t now = ir_monotonic_ns(), elapsed_ns = now > fs->start_ns ? now - fs->start_ns : 0;
	uint64_t ticks;

	if (fs->paced && read(fs->fd, &ticks, sizeof(ticks)) < 0 && errno != EAGAIN)
		return -errno;
	if (now < fs->start_ns)
		return 0;
	if (fs->audio) {
		uint64_t due = fs->paced ? elapsed_ns / 1000u * fs->info.sample_rate / 1000000u
					 : UINT64_MAX;

		return dispatch_audio(fs, due);
	}
	return dispatch_timings(fs, fs->paced ? elapsed_ns / 1000u : UINT64_MAX);
}

static void file_stats(void *impl, struct ir_source_stats *st)
{
	struct file_source *fs = impl;

	snprintf(st->device, sizeof(st->device), "%.*s", (int)sizeof(st->device) - 1, fs->path);
	if (fs->audio) {
		snprintf(st->format, sizeof(st->format), "%s", fs->info.subtype_name);
		st->rate = fs->info.sample_rate;
		st->channels = fs->info.channels;
		st->period_frames = BLOCK_FRAMES;
	} else {
		snprintf(st->format, sizeof(st->format), "timings");
	}
	st->connected = true;
}

static const struct ir_source_backend ir_source_backend_file = {
	.name = "file",
	.kind = IR_SOURCE_KIND_FILE,
	.summary = "a recording (WAV/FLAC/... or mode2/ir-ctl/binary timings) replayed as a source",
	.open = file_open,
	.fd = file_fd,
	.dispatch = file_dispatch,
	.stats = file_stats,
	.close = file_close,
	.list = NULL,
};

IR_SOURCE_BACKEND_REGISTER(ir_source_backend_file)
