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
 *
 * PortAudio has no hot-plug: a card that vanishes (USB unplugged, driver
 * unbound) either ends the stream or just stops calling back, and keeps
 * the card open, which holds up the kernel's removal of it.  A supervisor
 * thread watches for either, closes the stream (letting the card go),
 * reports IR_SOURCE_GONE, and reopens the same device with back-off
 * (re-reading PortAudio's device list when no other user holds PortAudio),
 * then reports IR_SOURCE_BACK, as the ALSA source does.
 */
#include "ir_source.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <stdio.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <portaudio.h>
#include <sched.h>

#include "ir_ring.h"
#include "ir_time.h"

#define DEFAULT_RATE 48000
#define DEFAULT_PERIOD_US 4000  /* a 562 µs NEC unit is 27 samples; 4 ms keeps latency low */
#define DEFAULT_PERIODS 4
#define DEFAULT_RING_MS 500
#define PA_FIFO_PRIORITY 50     /* as the ALSA source: above ordinary threads, below IRQ threads */
#define DRAIN_FRAMES 1024       /* frames per copy out of the ring */
#define NO_GAP UINT64_MAX
/* The supervisor looks every WATCH_MS; no callback for STALL_MS (and many
 * periods) is a device gone.  Reopening backs off from REOPEN_FIRST_MS to
 * REOPEN_MAX_MS, as the ALSA source. */
#define WATCH_MS 100
#define STALL_MS 1000
#define STALL_PERIODS 8
#define REOPEN_FIRST_MS 100
#define REOPEN_MAX_MS 2000

struct pa_source {
	struct ir_source_sink *sink;
	PaStream *stream;            /* NULL while the device is gone (under `lock`) */
	struct ir_ring *ring;
	int efd;
	char device[128];
	char spec[128];              /* as asked: found again on reopen */
	bool realtime_wanted;
	unsigned rate, channels, period_frames, periods;
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
	atomic_uint_least64_t callbacks;  /* progress, for the supervisor */

	/* The supervisor's (gone and back); counted, reported by dispatch. */
	pthread_t supervisor;
	bool have_supervisor;
	pthread_mutex_t lock;             /* stream, stop */
	pthread_cond_t cond;
	bool stop;
	atomic_uint_least64_t gone, back, reopens;
	atomic_uint_least64_t gone_at, back_at; /* `captured` at the latest gone, back */
	atomic_bool connected;

	/* Consumer only. */
	uint64_t delivered;
	uint64_t reported_dropped, reported_overflows;
	uint64_t reported_gone, reported_back;
	bool started;
};

/* PortAudio has one global state: the first user initialises it, the last
 * terminates it, whatever mix of sources and device listings is open. */
static pthread_mutex_t pa_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned pa_users;
static bool pa_ready;   /* Pa_Initialize() succeeded and is not yet undone */

static int pa_acquire(char *err, size_t err_size)
{
	PaError e = paNoError;

	pthread_mutex_lock(&pa_lock);
	if (!pa_ready) {
		e = Pa_Initialize();
		pa_ready = e == paNoError;
	}
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
	if (pa_users > 0 && --pa_users == 0 && pa_ready) {
		Pa_Terminate();
		pa_ready = false;
	}
	pthread_mutex_unlock(&pa_lock);
}

/* PortAudio lists devices once, at Pa_Initialize(): a card that came back
 * is only seen after starting it again, which is done only when the
 * caller (one user, with no stream open) is PortAudio's only user.
 * PortAudio's calls are not thread-safe: every one made once sources
 * exist (a supervisor may reopen while another source opens) is made
 * under pa_lock, as here. */
static int pa_reread_devices_locked(void)
{
	if (pa_users == 1) {
		if (pa_ready)
			Pa_Terminate();
		pa_ready = Pa_Initialize() == paNoError;
	}
	return pa_ready ? 0 : -EIO;
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
	atomic_fetch_add_explicit(&ps->callbacks, 1, memory_order_relaxed);
	if (!atomic_load_explicit(&ps->seen_thread, memory_order_relaxed)) {
		int policy;

		/* Raised here, by the thread itself, not by PortAudio's ALSA
		 * host (PaAlsa_EnableRealtimeScheduling): its BoostPriority
		 * reads errno after pthread_setschedparam, which returns its
		 * error instead, so a refusal became "Internal PortAudio
		 * error" at random (4 of 18 test runs on a loaded host). */
		if (ps->realtime_wanted)
			pthread_setschedparam(pthread_self(), SCHED_FIFO,
					      &(struct sched_param){ .sched_priority = PA_FIFO_PRIORITY });
		policy = sched_getscheduler(0);

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

/* Closes the stream, if any (the card is let go).  Under pa_lock, and
 * ps->lock or as the only thread left. */
static void stream_close(struct pa_source *ps)
{
	if (!ps->stream)
		return;
	/* Abort, not stop: a stalled device must not hang the close. */
	if (ps->started)
		Pa_AbortStream(ps->stream);
	Pa_CloseStream(ps->stream);
	ps->stream = NULL;
	ps->started = false;
}

static void pa_close(void *impl)
{
	struct pa_source *ps = impl;

	if (!ps)
		return;
	if (ps->have_supervisor) {
		pthread_mutex_lock(&ps->lock);
		ps->stop = true;
		pthread_cond_signal(&ps->cond);
		pthread_mutex_unlock(&ps->lock);
		pthread_join(ps->supervisor, NULL);
	}
	pthread_mutex_lock(&pa_lock);
	stream_close(ps);
	pthread_mutex_unlock(&pa_lock);
	pa_release();
	pthread_cond_destroy(&ps->cond);
	pthread_mutex_destroy(&ps->lock);
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

/*
 * Opens ps->spec's stream (not started: stream_start).  The `first` time
 * it settles the channels (`channel`: the one asked for, or -1) and takes
 * the rate granted; a reopen must get the same rate and channels, since
 * the ring and the demodulator were made for them.  Returns 0 or a
 * negative errno, with `err` filled.
 */
static int stream_open(struct pa_source *ps, bool first, int channel, char *err, size_t err_size)
{
	const PaDeviceInfo *info;
	const PaStreamInfo *sinfo;
	PaStreamParameters in = { 0 };
	PaDeviceIndex dev;
	unsigned channels;
	PaError e;

	dev = find_device(ps->spec, err, err_size);
	if (dev == paNoDevice)
		return -ENOENT;
	info = Pa_GetDeviceInfo(dev);
	if (!info || info->maxInputChannels <= 0) {
		snprintf(err, err_size, "portaudio:%s: '%s' has no input channels", ps->spec,
			 info ? info->name : "?");
		return -ENOENT;
	}
	/* A receiver may be wired to either side of a stereo mic input: take
	 * both in auto mode, or up to the one asked for. */
	if (!first)
		channels = ps->channels;
	else if (channel >= 0)
		channels = (unsigned)channel + 1;
	else
		channels = info->maxInputChannels >= 2 ? 2 : 1;
	if (channels > (unsigned)info->maxInputChannels) {
		if (first)
			snprintf(err, err_size, "portaudio:%s: channel %d asked for, the device has %d",
				 ps->spec, channel + 1, info->maxInputChannels);
		else
			snprintf(err, err_size, "portaudio:%s: reopened with %d channel(s), not %u",
				 ps->spec, info->maxInputChannels, channels);
		return -EINVAL;
	}
	in.device = dev;
	in.channelCount = (int)channels;
	in.sampleFormat = paFloat32;
	in.suggestedLatency = (double)ps->period_frames * ps->periods / ps->rate;
	e = Pa_OpenStream(&ps->stream, &in, NULL, ps->rate, ps->period_frames, paNoFlag,
			  on_audio, ps);
	if (e != paNoError) {
		ps->stream = NULL;
		snprintf(err, err_size, "portaudio:%s: cannot capture %u channel(s) of float at %u Hz: %s",
			 ps->spec, channels, ps->rate, Pa_GetErrorText(e));
		return e == paInvalidSampleRate || e == paInvalidChannelCount ? -EINVAL
		       : e == paDeviceUnavailable ? -EBUSY : -EIO;
	}
	sinfo = Pa_GetStreamInfo(ps->stream);
	if (sinfo && sinfo->sampleRate > 0) {
		unsigned granted = (unsigned)(sinfo->sampleRate + 0.5);

		if (!first && granted != ps->rate) {
			snprintf(err, err_size, "portaudio:%s: reopened at %u Hz, not %u", ps->spec,
				 granted, ps->rate);
			stream_close(ps);
			return -EINVAL;
		}
		if (first)
			ps->rate = granted;
	}
	/* Settled by the first open; a reopen (on the supervisor's thread,
	 * while dispatch and stats read them) leaves them alone. */
	if (first) {
		ps->channels = channels;
		snprintf(ps->device, sizeof(ps->device), "%.*s", (int)sizeof(ps->device) - 1,
			 info->name);
	}
	Pa_SetStreamFinishedCallback(ps->stream, on_finished);
	return 0;
}

static int stream_start(struct pa_source *ps, char *err, size_t err_size)
{
	PaError e;

	atomic_store(&ps->finished, false);
	e = Pa_StartStream(ps->stream);
	if (e != paNoError) {
		snprintf(err, err_size, "portaudio:%s: cannot start: %s", ps->spec, Pa_GetErrorText(e));
		stream_close(ps);
		return -EIO;
	}
	ps->started = true;
	atomic_store(&ps->connected, true);
	return 0;
}

/* The device stopped (the stream ended by itself, or no callback for too
 * long): let it go and say so.  Under ps->lock. */
static void device_gone(struct pa_source *ps)
{
	pthread_mutex_lock(&pa_lock);
	stream_close(ps);
	pthread_mutex_unlock(&pa_lock);
	atomic_store(&ps->gone_at, atomic_load(&ps->captured));
	atomic_store(&ps->connected, false);
	atomic_fetch_add_explicit(&ps->gone, 1, memory_order_release);
	wake(ps);
}

static void *supervise(void *arg)
{
	struct pa_source *ps = arg;
	uint64_t now = ir_monotonic_ms(), last_tick = now, last_progress = now, retry_at = 0;
	uint64_t last_callbacks = atomic_load(&ps->callbacks);
	unsigned backoff = REOPEN_FIRST_MS;
	uint64_t stall_ms = (uint64_t)ps->period_frames * STALL_PERIODS * 1000u / ps->rate;

	if (stall_ms < STALL_MS)
		stall_ms = STALL_MS;
	pthread_mutex_lock(&ps->lock);
	while (!ps->stop) {
		struct timespec until;
		uint64_t callbacks;

		clock_gettime(CLOCK_MONOTONIC, &until);
		until.tv_nsec += WATCH_MS * 1000000L;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&ps->cond, &ps->lock, &until);
		if (ps->stop)
			break;
		now = ir_monotonic_ms();
		/* Woken late (the process was stopped, the machine busy):
		 * silence since the last look proves nothing. */
		if (now - last_tick > 3 * WATCH_MS)
			last_progress = now;
		last_tick = now;
		if (!ps->stream) {
			char err[256];
			bool back;

			if (now < retry_at)
				continue;
			/* the new stream's first frame is where BACK goes */
			atomic_store(&ps->back_at, atomic_load(&ps->captured));
			pthread_mutex_lock(&pa_lock);
			back = pa_reread_devices_locked() == 0 &&
			       stream_open(ps, false, -1, err, sizeof(err)) == 0 &&
			       stream_start(ps, err, sizeof(err)) == 0;
			pthread_mutex_unlock(&pa_lock);
			if (back) {
				atomic_fetch_add(&ps->reopens, 1);
				atomic_fetch_add_explicit(&ps->back, 1, memory_order_release);
				wake(ps);
				backoff = REOPEN_FIRST_MS;
				last_callbacks = atomic_load(&ps->callbacks);
				last_progress = now;
			} else {
				retry_at = now + backoff;
				backoff = backoff * 2 > REOPEN_MAX_MS ? REOPEN_MAX_MS : backoff * 2;
			}
			continue;
		}
		if (atomic_load(&ps->complete))
			continue; /* max_frames reached: the stream ended as asked */
		callbacks = atomic_load(&ps->callbacks);
		if (callbacks != last_callbacks) {
			last_callbacks = callbacks;
			last_progress = now;
		}
		if (atomic_load(&ps->finished) || now - last_progress > stall_ms) {
			device_gone(ps);
			retry_at = now + REOPEN_FIRST_MS;
			backoff = REOPEN_FIRST_MS * 2;
		}
	}
	pthread_mutex_unlock(&ps->lock);
	return NULL;
}

/* The source's state before PortAudio is touched; NULL: no memory. */
static struct pa_source *pa_state_new(const char *device, const struct ir_source_options *opt,
				      struct ir_source_sink *sink)
{
	struct pa_source *ps = calloc(1, sizeof(*ps));
	pthread_condattr_t attr;
	unsigned period_us;

	if (!ps)
		return NULL;
	ps->efd = -1;
	ps->sink = sink;
	ps->max_frames = opt->max_frames;
	ps->realtime_wanted = opt->realtime;
	snprintf(ps->spec, sizeof(ps->spec), "%.*s", (int)sizeof(ps->spec) - 1, device);
	atomic_init(&ps->gap_at, NO_GAP);
	pthread_mutex_init(&ps->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&ps->cond, &attr);
	pthread_condattr_destroy(&attr);
	ps->rate = opt->rate ? opt->rate : DEFAULT_RATE;
	period_us = opt->period_us ? opt->period_us : DEFAULT_PERIOD_US;
	ps->periods = opt->periods ? opt->periods : DEFAULT_PERIODS;
	ps->period_frames = (unsigned)((uint64_t)ps->rate * period_us / 1000000u);
	if (ps->period_frames == 0)
		ps->period_frames = 1;
	return ps;
}

/* The ring for what was granted and the drain buffer, before the callback
 * can run. */
static int alloc_ring(struct pa_source *ps, const struct ir_source_options *opt, char *err,
		      size_t err_size)
{
	size_t ring_frames = (opt->ring_ms ? opt->ring_ms : DEFAULT_RING_MS) * (size_t)ps->rate / 1000;
	int ret;

	if (ring_frames < 2u * ps->period_frames)
		ring_frames = 2u * ps->period_frames;
	ret = ir_ring_new(ring_frames, ps->channels, &ps->ring);
	if (ret == 0) {
		ps->buf = malloc(DRAIN_FRAMES * sizeof(float) * ps->channels);
		if (!ps->buf)
			ret = -ENOMEM;
	}
	if (ret < 0)
		snprintf(err, err_size, "portaudio: %s", strerror(-ret));
	return ret;
}

static int pa_open(const char *device, const struct ir_source_options *opt,
		   struct ir_source_sink *sink, void **impl, char *err, size_t err_size)
{
	struct pa_source *ps = pa_state_new(device, opt, sink);
	int ret;

	if (!ps) {
		snprintf(err, err_size, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	ret = pa_acquire(err, err_size);
	if (ret < 0) {
		pthread_cond_destroy(&ps->cond);
		pthread_mutex_destroy(&ps->lock);
		free(ps);
		return ret;
	}
	/* The eventfd first: the callback may run as soon as the stream starts. */
	ps->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (ps->efd < 0) {
		ret = -errno;
		snprintf(err, err_size, "portaudio: %s", strerror(-ret));
		goto fail;
	}
	pthread_mutex_lock(&pa_lock);
	ret = stream_open(ps, true, opt->channel, err, err_size);
	pthread_mutex_unlock(&pa_lock);
	if (ret < 0 || (ret = alloc_ring(ps, opt, err, err_size)) < 0)
		goto fail;
	ir_source_sink_audio_format(sink, ps->rate, ps->channels);
	pthread_mutex_lock(&pa_lock);
	ret = stream_start(ps, err, err_size);
	pthread_mutex_unlock(&pa_lock);
	if (ret < 0)
		goto fail;
	ret = pthread_create(&ps->supervisor, NULL, supervise, ps);
	if (ret != 0) {
		snprintf(err, err_size, "portaudio: cannot start the supervisor: %s", strerror(ret));
		ret = -ret;
		goto fail;
	}
	ps->have_supervisor = true;
	*impl = ps;
	return 0;
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

/* Reports the earliest unreported event at `delivered` (gone before back
 * at the same place); false if none is due there. */
static bool report_event_due(struct pa_source *ps)
{
	uint64_t gone = atomic_load_explicit(&ps->gone, memory_order_acquire);
	uint64_t back = atomic_load_explicit(&ps->back, memory_order_acquire);
	char msg[200];

	if (gone != ps->reported_gone && atomic_load(&ps->gone_at) <= ps->delivered) {
		ps->reported_gone = gone;
		snprintf(msg, sizeof(msg), "%.128s: the device is gone; trying to reopen it",
			 ps->device);
		ir_source_sink_event(ps->sink, IR_SOURCE_GONE, msg);
		return true;
	}
	if (gone == ps->reported_gone && back != ps->reported_back &&
	    atomic_load(&ps->back_at) <= ps->delivered) {
		ps->reported_back = back;
		snprintf(msg, sizeof(msg), "%.128s: the device is back", ps->device);
		ir_source_sink_event(ps->sink, IR_SOURCE_BACK, msg);
		return true;
	}
	if (atomic_load(&ps->gap_at) <= ps->delivered) {
		report_gap(ps);
		return true;
	}
	return false;
}

/* Where the next unreported event is (NO_GAP: none). */
static uint64_t next_event_at(struct pa_source *ps)
{
	uint64_t at = atomic_load(&ps->gap_at);

	if (atomic_load_explicit(&ps->gone, memory_order_acquire) != ps->reported_gone &&
	    atomic_load(&ps->gone_at) < at)
		at = atomic_load(&ps->gone_at);
	if (atomic_load_explicit(&ps->back, memory_order_acquire) != ps->reported_back &&
	    atomic_load(&ps->back_at) < at)
		at = atomic_load(&ps->back_at);
	return at;
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
	for (;;) {
		uint64_t mark, until, want;
		size_t got;

		while (report_event_due(ps))
			;
		if (ps->delivered >= target)
			break;
		mark = next_event_at(ps);
		until = mark < target ? mark : target;
		want = until - ps->delivered;
		got = ir_ring_read(ps->ring, ps->buf, want < DRAIN_FRAMES ? (size_t)want : DRAIN_FRAMES);
		if (got == 0)
			break;
		ir_source_sink_samples(ps->sink, ps->buf, got);
		ps->delivered += got;
	}
	if (ps->max_frames && atomic_load(&ps->complete) &&
	    ps->delivered == atomic_load(&ps->captured))
		return -ENODATA;
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
	st->connected = atomic_load(&ps->connected);
	st->reopens = atomic_load(&ps->reopens);
	st->realtime = atomic_load(&ps->realtime);
}

static int pa_list(FILE *out, bool capture, bool playback)
{
	char err[160];
	int n, listed = 0;

	if (pa_acquire(err, sizeof(err)) < 0)
		return -EIO;
	pthread_mutex_lock(&pa_lock);
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
	pthread_mutex_unlock(&pa_lock);
	pa_release();
	return n < 0 ? -EIO : listed;
}

static const struct ir_source_backend ir_source_backend_portaudio = {
	.name = "portaudio",
	.kind = IR_SOURCE_KIND_AUDIO,
	.summary = "a sound card input through PortAudio (ALSA, JACK or OSS underneath)",
	.open = pa_open,
	.fd = pa_fd,
	.dispatch = pa_dispatch,
	.stats = pa_stats,
	.close = pa_close,
	.list = pa_list,
};

IR_SOURCE_BACKEND_REGISTER(ir_source_backend_portaudio)
