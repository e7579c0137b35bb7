/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_source_portaudio.c - a sound card input through PortAudio, for systems
 * where users prefer it to ALSA (or have no ALSA: PortAudio also speaks
 * JACK and OSS).
 *
 * PortAudio runs its own audio thread and calls us there with each buffer.
 * That callback only copies into the SPSC ring (ir_ring.h), counts what did
 * not fit, and wakes the consumer through an eventfd; it never blocks, never
 * allocates and never calls the user.  dispatch() drains the ring into the
 * sink, so demodulation and decoding run on the user's thread, the same
 * code (and so the same edges) as the ALSA and file sources.
 *
 * Lost audio (PortAudio's paInputOverflow, or the ring full because the
 * consumer was late) is remembered as a gap at its position in the stream;
 * dispatch() delivers the frames before it, then reports IR_SOURCE_XRUN,
 * which resets the decoders: a frame cannot be finished across lost time.
 */
#include "ir_source.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <pa_linux_alsa.h>
#include <portaudio.h>
#include <sched.h>

#include "ir_ring.h"

#define DEFAULT_RATE 48000
#define DEFAULT_PERIOD_US 4000  /* a 562 µs NEC unit is 27 samples; 4 ms keeps latency low */
#define DEFAULT_PERIODS 4
#define DEFAULT_RING_MS 500
#define DRAIN_FRAMES 1024       /* frames per copy out of the ring */
#define NO_GAP UINT64_MAX

struct pa_source {
	struct ir_source_sink *sink;
	PaStream *stream;
	struct ir_ring *ring;
	int efd;
	char device[128];
	unsigned rate, channels, period_frames;
	uint64_t max_frames;         /* 0: unlimited */
	float *buf;                  /* DRAIN_FRAMES × channels */

	/* Written by the audio thread, read by the consumer. */
	atomic_uint_least64_t captured;   /* frames written into the ring */
	atomic_uint_least64_t dropped;    /* frames that did not fit */
	atomic_uint_least64_t overflows;  /* paInputOverflow reports */
	atomic_uint_least64_t gap_at;     /* `captured` where audio was lost, or NO_GAP */
	atomic_bool complete;             /* the callback saw max_frames and stopped */
	atomic_bool finished;             /* the stream stopped (complete, or an error) */
	atomic_bool realtime;             /* the callback thread runs SCHED_FIFO/RR */
	atomic_bool seen_thread;

	/* Consumer only. */
	uint64_t delivered;
	uint64_t reported_dropped, reported_overflows;
	bool started;
};

/* PortAudio has one global state: the first user initialises it, the last
 * terminates it, whatever mix of sources and device listings is open. */
static pthread_mutex_t pa_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned pa_users;

static int pa_acquire(char *err, size_t err_size)
{
	PaError e = paNoError;

	pthread_mutex_lock(&pa_lock);
	if (pa_users == 0)
		e = Pa_Initialize();
	if (e == paNoError)
		pa_users++;
	pthread_mutex_unlock(&pa_lock);
	if (e != paNoError) {
		snprintf(err, err_size, "portaudio: cannot initialise: %s", Pa_GetErrorText(e));
		return -EIO;
	}
	return 0;
}

static void pa_release(void)
{
	pthread_mutex_lock(&pa_lock);
	if (pa_users > 0 && --pa_users == 0)
		Pa_Terminate();
	pthread_mutex_unlock(&pa_lock);
}

static void wake(struct pa_source *ps)
{
	uint64_t one = 1;

	/* Non-blocking eventfd: cannot block; a failed wake-up (counter at
	 * its maximum) still leaves the fd readable. */
	if (write(ps->efd, &one, sizeof(one)) < 0) {
		/* nothing to do: the consumer is already awake */
	}
}

static void mark_gap(struct pa_source *ps, uint64_t at)
{
	uint_least64_t none = NO_GAP;

	/* A gap still unreported absorbs this one: one report per burst. */
	atomic_compare_exchange_strong(&ps->gap_at, &none, at);
}

static int on_audio(const void *input, void *output, unsigned long frames,
		    const PaStreamCallbackTimeInfo *time, PaStreamCallbackFlags flags, void *userdata)
{
	struct pa_source *ps = userdata;
	uint64_t captured = atomic_load_explicit(&ps->captured, memory_order_relaxed);
	uint64_t dropped = atomic_load_explicit(&ps->dropped, memory_order_relaxed);
	size_t want = frames, wrote;
	bool last = false;

	(void)output;
	(void)time;
	if (!atomic_load_explicit(&ps->seen_thread, memory_order_relaxed)) {
		int policy = sched_getscheduler(0);

		atomic_store(&ps->realtime, policy == SCHED_FIFO || policy == SCHED_RR);
		atomic_store(&ps->seen_thread, true);
	}
	if (flags & paInputOverflow) {
		atomic_fetch_add(&ps->overflows, 1);
		mark_gap(ps, captured);
	}
	if (ps->max_frames) {
		uint64_t left = ps->max_frames - captured - dropped;

		if (want >= left) {
			want = (size_t)left;
			last = true;
		}
	}
	wrote = input ? ir_ring_write(ps->ring, input, want) : 0;
	if (wrote < want) {
		mark_gap(ps, captured + wrote);
		atomic_store(&ps->dropped, dropped + (want - wrote));
	}
	atomic_store(&ps->captured, captured + wrote);
	if (last)
		atomic_store(&ps->complete, true);
	wake(ps);
	return last ? paComplete : paContinue;
}

static void on_finished(void *userdata)
{
	struct pa_source *ps = userdata;

	atomic_store(&ps->finished, true);
	wake(ps);
}

static void pa_close(void *impl)
{
	struct pa_source *ps = impl;

	if (!ps)
		return;
	if (ps->stream) {
		/* Abort, not stop: a stalled device must not hang the close. */
		if (ps->started)
			Pa_AbortStream(ps->stream);
		Pa_CloseStream(ps->stream);
		pa_release();
	}
	ir_ring_free(ps->ring);
	free(ps->buf);
	if (ps->efd >= 0)
		close(ps->efd);
	free(ps);
}

static bool is_index(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* "" or "default": the default input; a number: that index; otherwise the
 * device of that exact name, or the only one whose name contains it. */
static PaDeviceIndex find_device(const char *device, char *err, size_t err_size)
{
	PaDeviceIndex n = Pa_GetDeviceCount(), found = paNoDevice;
	unsigned partial = 0;

	if (n < 0) {
		snprintf(err, err_size, "portaudio: %s", Pa_GetErrorText(n));
		return paNoDevice;
	}
	if (!*device || strcmp(device, "default") == 0) {
		/* A device literally named "default" (ALSA's) is the user's default. */
		for (PaDeviceIndex i = 0; i < n; i++) {
			const PaDeviceInfo *d = Pa_GetDeviceInfo(i);

			if (d && strcmp(d->name, "default") == 0 && d->maxInputChannels > 0)
				return i;
		}
		found = Pa_GetDefaultInputDevice();
		if (found == paNoDevice)
			snprintf(err, err_size, "portaudio: no default input device");
		return found;
	}
	if (is_index(device)) {
		long i = strtol(device, NULL, 10);

		if (i >= n) {
			snprintf(err, err_size, "portaudio:%s: no such device (%d devices; see "
				 "'irjack devices --backend portaudio')", device, (int)n);
			return paNoDevice;
		}
		return (PaDeviceIndex)i;
	}
	for (PaDeviceIndex i = 0; i < n; i++) {
		const PaDeviceInfo *d = Pa_GetDeviceInfo(i);

		if (!d || d->maxInputChannels <= 0)
			continue;
		if (strcmp(d->name, device) == 0)
			return i;
		if (strcasestr(d->name, device)) {
			partial++;
			found = i;
		}
	}
	if (partial == 1)
		return found;
	snprintf(err, err_size, "portaudio:%s: %s (see 'irjack devices --backend portaudio')",
		 device, partial ? "several input devices match" : "no such input device");
	return paNoDevice;
}

static int pa_open(const char *device, const struct ir_source_options *opt,
		   struct ir_source_sink *sink, void **impl, char *err, size_t err_size)
{
	struct pa_source *ps;
	const PaDeviceInfo *info;
	const PaStreamInfo *sinfo;
	PaStreamParameters in = { 0 };
	PaDeviceIndex dev;
	unsigned period_us, periods;
	size_t ring_frames;
	PaError e;
	int ret;

	ps = calloc(1, sizeof(*ps));
	if (!ps) {
		snprintf(err, err_size, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	ps->efd = -1;
	ps->sink = sink;
	ps->max_frames = opt->max_frames;
	atomic_init(&ps->gap_at, NO_GAP);
	ret = pa_acquire(err, err_size);
	if (ret < 0) {
		free(ps);
		return ret;
	}
	dev = find_device(device, err, err_size);
	if (dev == paNoDevice) {
		ret = -ENOENT;
		goto fail_released;
	}
	info = Pa_GetDeviceInfo(dev);
	if (!info || info->maxInputChannels <= 0) {
		snprintf(err, err_size, "portaudio:%s: '%s' has no input channels", device,
			 info ? info->name : "?");
		ret = -ENOENT;
		goto fail_released;
	}
	snprintf(ps->device, sizeof(ps->device), "%.*s", (int)sizeof(ps->device) - 1, info->name);

	/* A receiver may be wired to either side of a stereo mic input: take
	 * both in auto mode, or up to the one asked for. */
	if (opt->channel >= 0)
		ps->channels = (unsigned)opt->channel + 1;
	else
		ps->channels = info->maxInputChannels >= 2 ? 2 : 1;
	if (ps->channels > (unsigned)info->maxInputChannels) {
		snprintf(err, err_size, "portaudio:%s: channel %d asked for, the device has %d",
			 device, opt->channel + 1, info->maxInputChannels);
		ret = -EINVAL;
		goto fail_released;
	}
	ps->rate = opt->rate ? opt->rate : DEFAULT_RATE;
	period_us = opt->period_us ? opt->period_us : DEFAULT_PERIOD_US;
	periods = opt->periods ? opt->periods : DEFAULT_PERIODS;
	ps->period_frames = (unsigned)((uint64_t)ps->rate * period_us / 1000000u);
	if (ps->period_frames == 0)
		ps->period_frames = 1;

	in.device = dev;
	in.channelCount = (int)ps->channels;
	in.sampleFormat = paFloat32;
	in.suggestedLatency = (double)period_us * periods / 1e6;
	e = Pa_OpenStream(&ps->stream, &in, NULL, ps->rate, ps->period_frames, paNoFlag,
			  on_audio, ps);
	if (e != paNoError) {
		ps->stream = NULL;
		snprintf(err, err_size, "portaudio:%s: cannot capture %u channel(s) of float at %u Hz: %s",
			 device, ps->channels, ps->rate, Pa_GetErrorText(e));
		ret = e == paInvalidSampleRate || e == paInvalidChannelCount ? -EINVAL
		      : e == paDeviceUnavailable ? -EBUSY : -EIO;
		goto fail_released;
	}
	sinfo = Pa_GetStreamInfo(ps->stream);
	if (sinfo && sinfo->sampleRate > 0)
		ps->rate = (unsigned)(sinfo->sampleRate + 0.5);

	ring_frames = (opt->ring_ms ? opt->ring_ms : DEFAULT_RING_MS) * (size_t)ps->rate / 1000;
	if (ring_frames < 2u * ps->period_frames)
		ring_frames = 2u * ps->period_frames;
	ret = ir_ring_new(ring_frames, ps->channels, &ps->ring);
	if (ret == 0) {
		ps->buf = malloc(DRAIN_FRAMES * sizeof(float) * ps->channels);
		if (!ps->buf)
			ret = -ENOMEM;
	}
	if (ret == 0) {
		ps->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
		if (ps->efd < 0)
			ret = -errno;
	}
	if (ret < 0) {
		snprintf(err, err_size, "portaudio: %s", strerror(-ret));
		goto fail;
	}
	ir_source_sink_audio_format(sink, ps->rate, ps->channels);
	/* PortAudio's ALSA host creates its thread SCHED_FIFO when asked (and
	 * silently normal when refused); other hosts manage their own. */
	if (opt->realtime && Pa_GetHostApiInfo(info->hostApi) &&
	    Pa_GetHostApiInfo(info->hostApi)->type == paALSA)
		PaAlsa_EnableRealtimeScheduling(ps->stream, 1);
	Pa_SetStreamFinishedCallback(ps->stream, on_finished);
	e = Pa_StartStream(ps->stream);
	if (e != paNoError) {
		snprintf(err, err_size, "portaudio:%s: cannot start: %s", device, Pa_GetErrorText(e));
		ret = -EIO;
		goto fail;
	}
	ps->started = true;
	*impl = ps;
	return 0;
fail_released:
	pa_release();
	free(ps);
	return ret;
fail:
	pa_close(ps);
	return ret;
}

static int pa_fd(void *impl)
{
	return ((struct pa_source *)impl)->efd;
}

static void report_gap(struct pa_source *ps)
{
	uint64_t dropped = atomic_load(&ps->dropped);
	uint64_t overflows = atomic_load(&ps->overflows);
	char msg[160];

	if (overflows > ps->reported_overflows && dropped > ps->reported_dropped)
		snprintf(msg, sizeof(msg), "portaudio: input overflow, and %llu frames dropped "
			 "(the consumer was late)",
			 (unsigned long long)(dropped - ps->reported_dropped));
	else if (overflows > ps->reported_overflows)
		snprintf(msg, sizeof(msg), "portaudio: input overflow (audio lost in the driver)");
	else
		snprintf(msg, sizeof(msg), "portaudio: %llu frames dropped (the consumer was late)",
			 (unsigned long long)(dropped - ps->reported_dropped));
	ps->reported_dropped = dropped;
	ps->reported_overflows = overflows;
	/* Cleared before the report, so that a new gap found from here on is
	 * reported again. */
	atomic_store(&ps->gap_at, NO_GAP);
	ir_source_sink_event(ps->sink, IR_SOURCE_XRUN, msg);
}

static int pa_dispatch(void *impl)
{
	struct pa_source *ps = impl;
	uint64_t count;
	/* What the callback wrote before this point is in the ring: take no
	 * more than that, so that a fast producer cannot keep us here. */
	uint64_t target = atomic_load(&ps->captured);

	if (read(ps->efd, &count, sizeof(count)) < 0 && errno != EAGAIN)
		return -errno;
	while (ps->delivered < target) {
		uint64_t gap = atomic_load(&ps->gap_at);
		uint64_t until = gap < target ? gap : target;
		uint64_t want = until - ps->delivered;
		size_t got;

		if (gap <= ps->delivered) {
			report_gap(ps);
			continue;
		}
		got = ir_ring_read(ps->ring, ps->buf, want < DRAIN_FRAMES ? (size_t)want : DRAIN_FRAMES);
		if (got == 0)
			break;
		ir_source_sink_samples(ps->sink, ps->buf, got);
		ps->delivered += got;
	}
	if (atomic_load(&ps->gap_at) <= ps->delivered)
		report_gap(ps);
	if (ps->max_frames && atomic_load(&ps->complete) &&
	    ps->delivered == atomic_load(&ps->captured))
		return -ENODATA;
	if (atomic_load(&ps->finished) && !atomic_load(&ps->complete) &&
	    ps->delivered == atomic_load(&ps->captured))
		return -EIO; /* the stream stopped by itself: the device failed */
	return 0;
}

static void pa_stats(void *impl, struct ir_source_stats *st)
{
	struct pa_source *ps = impl;

	snprintf(st->device, sizeof(st->device), "%s", ps->device);
	snprintf(st->format, sizeof(st->format), "FLOAT");
	st->rate = ps->rate;
	st->channels = ps->channels;
	st->period_frames = ps->period_frames;
	st->xruns = atomic_load(&ps->overflows);
	st->dropped = atomic_load(&ps->dropped);
	st->connected = !atomic_load(&ps->finished);
	st->realtime = atomic_load(&ps->realtime);
}

static int pa_list(FILE *out, bool capture, bool playback)
{
	char err[160];
	int n, listed = 0;

	if (pa_acquire(err, sizeof(err)) < 0)
		return -EIO;
	n = Pa_GetDeviceCount();
	for (int i = 0; i < n; i++) {
		const PaDeviceInfo *d = Pa_GetDeviceInfo(i);
		const PaHostApiInfo *api;

		if (!d)
			continue;
		if (!((capture && d->maxInputChannels > 0) || (playback && d->maxOutputChannels > 0)))
			continue;
		api = Pa_GetHostApiInfo(d->hostApi);
		fprintf(out, "portaudio:%s\t%s, %d in / %d out channels, default %.0f Hz\n", d->name,
			api ? api->name : "?", d->maxInputChannels, d->maxOutputChannels,
			d->defaultSampleRate);
		listed++;
	}
	pa_release();
	return n < 0 ? -EIO : listed;
}

const struct ir_source_backend ir_source_backend_portaudio = {
	.name = "portaudio",
	.summary = "a sound card input through PortAudio (ALSA, JACK or OSS underneath)",
	.open = pa_open,
	.fd = pa_fd,
	.dispatch = pa_dispatch,
	.stats = pa_stats,
	.close = pa_close,
	.list = pa_list,
};
