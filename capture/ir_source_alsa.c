/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_source_alsa.c - a sound card input as a source (alsa-lib).
 *
 * A capture thread owns the PCM: it reads one period at a time, converts
 * it to float and writes it into an SPSC ring (ir_ring.h), then bumps an
 * eventfd.  It never waits for the consumer: when the ring is full the new
 * audio is dropped and counted.  The consumer's dispatch() drains the ring
 * into the sink and reports what the thread saw (overruns, drops, the
 * device vanishing and coming back) as events, in stream order: each event
 * carries the ring position it happened at, and dispatch delivers the audio
 * before that position first.  Nothing is called back from the thread.
 */
#include "ir_source.h"

#include <alsa/asoundlib.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "ir_ring.h"
#include "ir_util.h"

#define DEFAULT_RATE 48000
#define DEFAULT_PERIOD_US 4000   /* ~4 ms: a frame's line appears ≤ a period after its end */
#define DEFAULT_PERIODS 4
#define DEFAULT_RING_MS 500
#define REOPEN_FIRST_MS 100      /* a USB card re-enumerates in ~0.1-1 s */
#define REOPEN_MAX_MS 2000
#define STALL_POLL_MS 1000       /* wake up now and then even if the card is silent */
#define FIFO_PRIORITY 50         /* above ordinary threads, below the kernel's IRQ threads */
#define MAX_CHANNELS 8

/* Sample formats in order of preference: the most precision first. */
static const snd_pcm_format_t preferred_formats[] = {
	SND_PCM_FORMAT_FLOAT_LE, SND_PCM_FORMAT_S32_LE, SND_PCM_FORMAT_S24_LE,
	SND_PCM_FORMAT_S24_3LE, SND_PCM_FORMAT_S16_LE,
};

enum pending_event { EV_XRUN, EV_GONE, EV_BACK, EV_COUNT };

struct alsa_source {
	struct ir_source_sink *sink;
	char device[128];
	/* what was asked for */
	unsigned want_rate, want_period_us, want_periods;
	int want_channel;
	snd_pcm_format_t forced_format; /* SND_PCM_FORMAT_UNKNOWN: choose */
	uint64_t max_frames;
	bool want_realtime;
	/* what the card gave (fixed after open: a reopened card must match) */
	snd_pcm_format_t format;
	unsigned rate, channels;
	snd_pcm_uframes_t period;
	snd_pcm_uframes_t buffer;

	snd_pcm_t *pcm;          /* the thread's once started */
	struct ir_ring *ring;
	int notify_fd;           /* eventfd: readable when dispatch has work */
	int stop_fd;             /* eventfd: close() wakes the thread */
	pthread_t thread;
	bool thread_started;
	void *raw;               /* thread: up to a buffer as the card gives it */
	float *conv;             /* thread: the same as float */
	float *out;              /* dispatch: one period read from the ring */

	/* Written by the thread, read by dispatch/stats. */
	atomic_uint_fast64_t written;   /* frames written into the ring */
	atomic_uint_fast64_t xruns, dropped, reopens;
	atomic_uint_fast64_t event_count[EV_COUNT];
	atomic_uint_fast64_t event_pos[EV_COUNT]; /* `written` when the last one happened */
	atomic_bool connected, realtime, finished;
	atomic_bool stop;
	/* dispatch's own */
	uint64_t read_pos;
	uint64_t reported[EV_COUNT];
	uint64_t reported_dropped;
	bool ended;
};

static void notify(int fd)
{
	uint64_t one = 1;

	/* Only fails when the counter would overflow: it is readable anyway. */
	if (write(fd, &one, sizeof(one)) < 0)
		return;
}

static size_t bytes_per_sample(snd_pcm_format_t f)
{
	return f == SND_PCM_FORMAT_S16_LE ? 2 : f == SND_PCM_FORMAT_S24_3LE ? 3 : 4;
}

static void to_float(snd_pcm_format_t f, const void *raw, float *dst, size_t n)
{
	const unsigned char *b = raw;

	switch (f) {
	case SND_PCM_FORMAT_FLOAT_LE:
		memcpy(dst, raw, n * sizeof(float));
		break;
	case SND_PCM_FORMAT_S32_LE:
		for (size_t i = 0; i < n; i++)
			dst[i] = (float)((const int32_t *)raw)[i] * (1.0f / 2147483648.0f);
		break;
	case SND_PCM_FORMAT_S24_LE: /* 24 bits in the low bytes of 32 */
		for (size_t i = 0; i < n; i++) {
			int32_t v = (int32_t)((uint32_t)((const int32_t *)raw)[i] << 8) >> 8;

			dst[i] = (float)v * (1.0f / 8388608.0f);
		}
		break;
	case SND_PCM_FORMAT_S24_3LE:
		for (size_t i = 0; i < n; i++) {
			uint32_t u = (uint32_t)b[3 * i] << 8 | (uint32_t)b[3 * i + 1] << 16 |
				     (uint32_t)b[3 * i + 2] << 24;

			dst[i] = (float)((int32_t)u >> 8) * (1.0f / 8388608.0f);
		}
		break;
	default: /* S16_LE */
		for (size_t i = 0; i < n; i++)
			dst[i] = (float)((const int16_t *)raw)[i] * (1.0f / 32768.0f);
		break;
	}
}

/*
 * Opens the PCM and negotiates the hardware parameters.  With `fixed`
 * (a reopen), format, rate and channels must come out as before, because
 * the ring and the decoders were made for them.
 */
/* What open_pcm() settles on, and the step that failed. */
struct pcm_setup {
	snd_pcm_format_t format;
	unsigned rate, channels;
	snd_pcm_uframes_t period, buffer;
	const char *step;
};

/* The forced format, the one of before (a reopen), or the best native. */
static int pick_format(const struct alsa_source *as, bool fixed, snd_pcm_t *pcm,
		       snd_pcm_hw_params_t *hw, struct pcm_setup *ps)
{
	ps->format = fixed ? as->format : as->forced_format;
	if (ps->format == SND_PCM_FORMAT_UNKNOWN) {
		for (size_t i = 0; i < ARRAY_SIZE(preferred_formats); i++) {
			if (snd_pcm_hw_params_test_format(pcm, hw, preferred_formats[i]) == 0) {
				ps->format = preferred_formats[i];
				break;
			}
		}
		if (ps->format == SND_PCM_FORMAT_UNKNOWN) {
			ps->step = "none of FLOAT_LE, S32_LE, S24_LE, S24_3LE, S16_LE";
			return -EINVAL;
		}
	}
	ps->step = "sample format";
	return snd_pcm_hw_params_set_format(pcm, hw, ps->format);
}

/* The fewest channels the card has, but enough for the one asked for:
 * a plug device then gives mono, a stereo-only card gives both. */
static unsigned pick_channels(const struct alsa_source *as, bool fixed, snd_pcm_hw_params_t *hw)
{
	unsigned channels;

	if (fixed)
		return as->channels;
	snd_pcm_hw_params_get_channels_min(hw, &channels);
	if (as->want_channel >= 0 && channels < (unsigned)as->want_channel + 1)
		channels = (unsigned)as->want_channel + 1;
	return channels > MAX_CHANNELS ? MAX_CHANNELS : channels;
}

/* Rate, period and buffer; a reopen must get what it had. */
static int set_timing(const struct alsa_source *as, bool fixed, snd_pcm_t *pcm,
		      snd_pcm_hw_params_t *hw, struct pcm_setup *ps)
{
	unsigned period_us = as->want_period_us, periods = as->want_periods;
	int ret;

	ps->rate = fixed ? as->rate : as->want_rate;
	ps->step = "sample rate";
	if ((ret = snd_pcm_hw_params_set_rate_resample(pcm, hw, 0)) < 0 && ret != -ENOSYS)
		return ret;
	if ((ret = snd_pcm_hw_params_set_rate_near(pcm, hw, &ps->rate, NULL)) < 0)
		return ret;
	if (fixed && ps->rate != as->rate)
		return -EINVAL;
	ps->step = "period";
	if ((ret = snd_pcm_hw_params_set_period_time_near(pcm, hw, &period_us, NULL)) < 0)
		return ret;
	ps->step = "periods";
	if ((ret = snd_pcm_hw_params_set_periods_near(pcm, hw, &periods, NULL)) < 0)
		return ret;
	ps->step = "hardware parameters";
	if ((ret = snd_pcm_hw_params(pcm, hw)) < 0)
		return ret;
	snd_pcm_hw_params_get_period_size(hw, &ps->period, NULL);
	snd_pcm_hw_params_get_buffer_size(hw, &ps->buffer);
	if (fixed && (ps->period > as->period || ps->buffer > as->buffer)) {
		ps->step = "a larger period than before";
		return -EINVAL;
	}
	return 0;
}

static int set_hw_params(const struct alsa_source *as, bool fixed, snd_pcm_t *pcm,
			 struct pcm_setup *ps)
{
	snd_pcm_hw_params_t *hw;
	int ret;

	snd_pcm_hw_params_alloca(&hw);
	ps->step = "no configuration";
	if ((ret = snd_pcm_hw_params_any(pcm, hw)) < 0)
		return ret;
	ps->step = "interleaved access";
	if ((ret = snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED)) < 0)
		return ret;
	if ((ret = pick_format(as, fixed, pcm, hw, ps)) < 0)
		return ret;
	ps->channels = pick_channels(as, fixed, hw);
	ps->step = "channel count";
	if ((ret = snd_pcm_hw_params_set_channels(pcm, hw, ps->channels)) < 0)
		return ret;
	return set_timing(as, fixed, pcm, hw, ps);
}

/* Wakes up once a whole period is there; started now, so the thread's
 * first avail is what the card has. */
static int set_sw_and_start(snd_pcm_t *pcm, struct pcm_setup *ps)
{
	snd_pcm_sw_params_t *sw;
	int ret;

	snd_pcm_sw_params_alloca(&sw);
	ps->step = "software parameters";
	if ((ret = snd_pcm_sw_params_current(pcm, sw)) < 0 ||
	    (ret = snd_pcm_sw_params_set_avail_min(pcm, sw, ps->period)) < 0 ||
	    (ret = snd_pcm_sw_params(pcm, sw)) < 0)
		return ret;
	ps->step = "start";
	return snd_pcm_start(pcm);
}

static int open_pcm(struct alsa_source *as, bool fixed, snd_pcm_t **out, char *err, size_t err_size)
{
	struct pcm_setup ps = { 0 };
	snd_pcm_t *pcm;
	int ret = snd_pcm_open(&pcm, as->device, SND_PCM_STREAM_CAPTURE, SND_PCM_NONBLOCK);

	if (ret < 0) {
		snprintf(err, err_size, "%s: %s", as->device, snd_strerror(ret));
		return ret;
	}
	if ((ret = set_hw_params(as, fixed, pcm, &ps)) < 0 ||
	    (ret = set_sw_and_start(pcm, &ps)) < 0) {
		snprintf(err, err_size, "%s: %s: %s", as->device, ps.step, snd_strerror(ret));
		snd_pcm_close(pcm);
		return ret;
	}
	if (!fixed) {
		as->format = ps.format;
		as->rate = ps.rate;
		as->channels = ps.channels;
		as->period = ps.period;
		as->buffer = ps.buffer;
	}
	*out = pcm;
	return 0;
}

/* The thread: an event at the current ring position. */
static void post_event(struct alsa_source *as, enum pending_event ev)
{
	atomic_store(&as->event_pos[ev], atomic_load(&as->written));
	atomic_fetch_add_explicit(&as->event_count[ev], 1, memory_order_release);
	notify(as->notify_fd);
}

/* Sleeps up to `ms` unless close() asks the thread to stop. */
static void wait_or_stop(struct alsa_source *as, int ms, struct pollfd *extra, int n_extra)
{
	struct pollfd fds[8];
	int n = 0;

	fds[n++] = (struct pollfd){ .fd = as->stop_fd, .events = POLLIN };
	for (int i = 0; i < n_extra && n < 8; i++)
		fds[n++] = extra[i];
	if (poll(fds, (nfds_t)n, ms) < 0 && errno != EINTR)
		return;
	if (fds[0].revents & POLLIN)
		atomic_store(&as->stop, true);
	for (int i = 1; i < n; i++)
		extra[i - 1].revents = fds[i].revents;
}

static void lose_device(struct alsa_source *as)
{
	snd_pcm_close(as->pcm);
	as->pcm = NULL;
	atomic_store(&as->connected, false);
	post_event(as, EV_GONE);
}

static void reopen_device(struct alsa_source *as, int *backoff_ms)
{
	char err[192];

	wait_or_stop(as, *backoff_ms, NULL, 0);
	if (atomic_load(&as->stop))
		return;
	if (open_pcm(as, true, &as->pcm, err, sizeof(err)) < 0) {
		as->pcm = NULL;
		*backoff_ms = *backoff_ms * 2 > REOPEN_MAX_MS ? REOPEN_MAX_MS : *backoff_ms * 2;
		return;
	}
	*backoff_ms = REOPEN_FIRST_MS;
	atomic_fetch_add(&as->reopens, 1);
	atomic_store(&as->connected, true);
	post_event(as, EV_BACK);
}

/* Waits until the PCM has a period (or the thread must stop). */
static void wait_for_audio(struct alsa_source *as)
{
	struct pollfd fds[7];
	int n = snd_pcm_poll_descriptors(as->pcm, fds, 7);
	unsigned short revents;

	if (n <= 0) {
		wait_or_stop(as, 1, NULL, 0);
		return;
	}
	wait_or_stop(as, STALL_POLL_MS, fds, n);
	snd_pcm_poll_descriptors_revents(as->pcm, fds, (unsigned)n, &revents);
}

static void store_period(struct alsa_source *as, size_t frames, bool *dropping)
{
	size_t fitted;

	to_float(as->format, as->raw, as->conv, frames * as->channels);
	fitted = ir_ring_write(as->ring, as->conv, frames);
	atomic_fetch_add_explicit(&as->written, fitted, memory_order_release);
	if (fitted < frames) {
		atomic_fetch_add(&as->dropped, frames - fitted);
		/* One event per episode of a full ring, not one per period. */
		if (!*dropping)
			post_event(as, EV_XRUN);
		*dropping = true;
	} else {
		*dropping = false;
	}
	notify(as->notify_fd);
}

static void *capture_thread(void *arg)
{
	struct alsa_source *as = arg;
	uint64_t captured = 0;
	int backoff_ms = REOPEN_FIRST_MS;
	bool dropping = false;

	while (!atomic_load(&as->stop)) {
		snd_pcm_uframes_t want = as->period;
		snd_pcm_sframes_t got, avail;

		if (!as->pcm) {
			reopen_device(as, &backoff_ms);
			continue;
		}
		/* Everything there in one read: after a late wake-up that is
		 * several periods.  (alsa-lib's file plugin behind plug also
		 * consumes its whole buffer from the file per read, so reading
		 * less would lose samples there.) */
		avail = snd_pcm_avail_update(as->pcm);
		if (avail > (snd_pcm_sframes_t)want)
			want = (snd_pcm_uframes_t)avail < as->buffer ? (snd_pcm_uframes_t)avail : as->buffer;
		if (as->max_frames) {
			if (captured >= as->max_frames)
				break;
			if (as->max_frames - captured < want)
				want = (snd_pcm_uframes_t)(as->max_frames - captured);
		}
		got = snd_pcm_readi(as->pcm, as->raw, want);
		if (got == -EAGAIN) {
			wait_for_audio(as);
		} else if (got == -EPIPE || got == -ESTRPIPE || got == -EINTR) {
			if (got != -EINTR) {
				atomic_fetch_add(&as->xruns, 1);
				post_event(as, EV_XRUN);
			}
			/* Started again at once, as at open: the first avail is then real. */
			if (snd_pcm_recover(as->pcm, (int)got, 1) < 0 ||
			    (snd_pcm_state(as->pcm) == SND_PCM_STATE_PREPARED && snd_pcm_start(as->pcm) < 0))
				lose_device(as);
		} else if (got < 0) {
			/* -ENODEV (unplugged), -EBADFD, -EIO: start over. */
			lose_device(as);
		} else if (got > 0) {
			captured += (uint64_t)got;
			store_period(as, (size_t)got, &dropping);
		}
	}
	if (as->max_frames && captured >= as->max_frames) {
		atomic_store(&as->finished, true);
		notify(as->notify_fd);
	}
	return NULL;
}

/* With SCHED_FIFO when asked for and allowed (root, CAP_SYS_NICE or an
 * RLIMIT_RTPRIO), else as an ordinary thread. */
static int start_thread(struct alsa_source *as)
{
	struct sched_param sp = { .sched_priority = FIFO_PRIORITY };
	pthread_attr_t attr;
	int ret;

	if (as->want_realtime && pthread_attr_init(&attr) == 0) {
		ret = pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
		if (ret == 0)
			ret = pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
		if (ret == 0)
			ret = pthread_attr_setschedparam(&attr, &sp);
		if (ret == 0)
			ret = pthread_create(&as->thread, &attr, capture_thread, as);
		pthread_attr_destroy(&attr);
		if (ret == 0) {
			atomic_store(&as->realtime, true);
			return 0;
		}
	}
	return -pthread_create(&as->thread, NULL, capture_thread, as);
}

static void alsa_close(void *impl)
{
	struct alsa_source *as = impl;

	if (!as)
		return;
	if (as->thread_started) {
		atomic_store(&as->stop, true);
		notify(as->stop_fd);
		pthread_join(as->thread, NULL);
	}
	if (as->pcm)
		snd_pcm_close(as->pcm);
	ir_ring_free(as->ring);
	free(as->raw);
	free(as->conv);
	free(as->out);
	if (as->notify_fd >= 0)
		close(as->notify_fd);
	if (as->stop_fd >= 0)
		close(as->stop_fd);
	free(as);
}

static int alsa_open(const char *device, const struct ir_source_options *opt,
		     struct ir_source_sink *sink, void **impl, char *err, size_t err_size)
{
	struct alsa_source *as;
	size_t ring_frames;
	int ret;

	as = calloc(1, sizeof(*as));
	if (!as) {
		snprintf(err, err_size, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	as->notify_fd = as->stop_fd = -1;
	as->sink = sink;
	snprintf(as->device, sizeof(as->device), "%s", device[0] ? device : "default");
	as->want_rate = opt->rate ? opt->rate : DEFAULT_RATE;
	as->want_period_us = opt->period_us ? opt->period_us : DEFAULT_PERIOD_US;
	as->want_periods = opt->periods ? opt->periods : DEFAULT_PERIODS;
	as->want_channel = opt->channel;
	as->want_realtime = opt->realtime;
	as->max_frames = opt->max_frames;
	as->forced_format = SND_PCM_FORMAT_UNKNOWN;
	if (opt->sample_format) {
		as->forced_format = snd_pcm_format_value(opt->sample_format);
		if (as->forced_format != SND_PCM_FORMAT_FLOAT_LE &&
		    as->forced_format != SND_PCM_FORMAT_S32_LE &&
		    as->forced_format != SND_PCM_FORMAT_S24_LE &&
		    as->forced_format != SND_PCM_FORMAT_S24_3LE &&
		    as->forced_format != SND_PCM_FORMAT_S16_LE) {
			snprintf(err, err_size,
				 "sample format '%s' (expected FLOAT_LE, S32_LE, S24_LE, S24_3LE, S16_LE)",
				 opt->sample_format);
			ret = -EINVAL;
			goto fail;
		}
	}
	ret = open_pcm(as, false, &as->pcm, err, err_size);
	if (ret < 0)
		goto fail;
	ring_frames = (opt->ring_ms ? opt->ring_ms : DEFAULT_RING_MS) * as->rate / 1000;
	if (ring_frames < 2 * as->buffer)
		ring_frames = 2 * as->buffer;
	ret = ir_ring_new(ring_frames, as->channels, &as->ring);
	if (ret < 0) {
		snprintf(err, err_size, "ring of %zu frames: %s", ring_frames, strerror(-ret));
		goto fail;
	}
	as->raw = malloc(as->buffer * as->channels * bytes_per_sample(as->format));
	as->conv = malloc(as->buffer * as->channels * sizeof(float));
	as->out = malloc(as->period * as->channels * sizeof(float));
	as->notify_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	as->stop_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (!as->raw || !as->conv || !as->out || as->notify_fd < 0 || as->stop_fd < 0) {
		ret = as->notify_fd < 0 || as->stop_fd < 0 ? -errno : -ENOMEM;
		snprintf(err, err_size, "%s", strerror(-ret));
		goto fail;
	}
	atomic_store(&as->connected, true);
	ir_source_sink_audio_format(sink, as->rate, as->channels);
	/* The thread takes no signals: they are the program's, for its own
	 * thread (a signalfd, a handler that sets a flag). */
	sigset_t all, old;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = start_thread(as);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret < 0) {
		snprintf(err, err_size, "capture thread: %s", strerror(-ret));
		goto fail;
	}
	as->thread_started = true;
	*impl = as;
	return 0;
fail:
	alsa_close(as);
	return ret;
}

static int alsa_fd(void *impl)
{
	return ((struct alsa_source *)impl)->notify_fd;
}

/* Delivers ring audio up to stream position `until`. */
static void deliver_until(struct alsa_source *as, uint64_t until)
{
	while (as->read_pos < until) {
		uint64_t left = until - as->read_pos;
		size_t got = ir_ring_read(as->ring, as->out, left < as->period ? (size_t)left : as->period);

		if (!got)
			break;
		as->read_pos += got;
		ir_source_sink_samples(as->sink, as->out, got);
	}
}

static void report_events(struct alsa_source *as)
{
	static const enum ir_source_event kinds[EV_COUNT] = {
		[EV_XRUN] = IR_SOURCE_XRUN, [EV_GONE] = IR_SOURCE_GONE, [EV_BACK] = IR_SOURCE_BACK,
	};
	char msg[300];

	for (;;) {
		int next = -1;
		uint64_t next_pos = UINT64_MAX;

		/* The earliest unreported event first (a GONE before its BACK). */
		for (int ev = 0; ev < EV_COUNT; ev++) {
			uint64_t count = atomic_load_explicit(&as->event_count[ev], memory_order_acquire);
			uint64_t pos = atomic_load(&as->event_pos[ev]);

			if (count != as->reported[ev] && pos < next_pos) {
				next = ev;
				next_pos = pos;
			}
		}
		if (next < 0)
			return;
		deliver_until(as, next_pos);
		as->reported[next] = atomic_load(&as->event_count[next]);
		if (next == EV_XRUN) {
			uint64_t dropped = atomic_load(&as->dropped);

			if (dropped != as->reported_dropped)
				snprintf(msg, sizeof(msg), "%.128s: the consumer was late, %llu frames dropped so far",
					 as->device, (unsigned long long)dropped);
			else
				snprintf(msg, sizeof(msg), "%.128s: overrun, %llu so far", as->device,
					 (unsigned long long)atomic_load(&as->xruns));
			as->reported_dropped = dropped;
		} else if (next == EV_GONE) {
			snprintf(msg, sizeof(msg), "%.128s: the device is gone; trying to reopen it", as->device);
		} else {
			snprintf(msg, sizeof(msg), "%.128s: the device is back", as->device);
		}
		ir_source_sink_event(as->sink, kinds[next], msg);
	}
}

static int alsa_dispatch(void *impl)
{
	struct alsa_source *as = impl;
	uint64_t ticks;
	bool finished;

	if (as->ended)
		return -ENODATA;
	/* Clear first: whatever the thread writes after this read re-arms it. */
	if (read(as->notify_fd, &ticks, sizeof(ticks)) < 0 && errno != EAGAIN)
		return -errno;
	finished = atomic_load(&as->finished);
	report_events(as);
	deliver_until(as, atomic_load_explicit(&as->written, memory_order_acquire));
	if (finished && as->read_pos == atomic_load(&as->written)) {
		report_events(as);
		as->ended = true;
		return -ENODATA;
	}
	return 0;
}

static void alsa_stats(void *impl, struct ir_source_stats *st)
{
	struct alsa_source *as = impl;

	snprintf(st->device, sizeof(st->device), "%.*s", (int)sizeof(st->device) - 1, as->device);
	snprintf(st->format, sizeof(st->format), "%s", snd_pcm_format_name(as->format));
	st->rate = as->rate;
	st->channels = as->channels;
	st->period_frames = (unsigned)as->period;
	st->xruns = atomic_load(&as->xruns);
	st->dropped = atomic_load(&as->dropped);
	st->reopens = atomic_load(&as->reopens);
	st->connected = atomic_load(&as->connected);
	st->realtime = atomic_load(&as->realtime);
}

/* One line of a hint's description (they come with embedded newlines). */
static void print_oneline(FILE *out, const char *s)
{
	for (; s && *s; s++)
		fputc(*s == '\n' ? ' ' : *s, out);
}

static int alsa_list(FILE *out, bool capture, bool playback)
{
	void **hints;
	int n = 0, ret = snd_device_name_hint(-1, "pcm", &hints);

	if (ret < 0)
		return ret;
	for (void **h = hints; *h; h++) {
		char *name = snd_device_name_get_hint(*h, "NAME");
		char *desc = snd_device_name_get_hint(*h, "DESC");
		char *ioid = snd_device_name_get_hint(*h, "IOID");
		/* No IOID: the PCM works both ways. */
		bool is_capture = !ioid || strcmp(ioid, "Input") == 0;
		bool is_playback = !ioid || strcmp(ioid, "Output") == 0;

		if (name && ((capture && is_capture) || (playback && is_playback))) {
			fprintf(out, "alsa:%s\t", name);
			print_oneline(out, desc);
			if (capture && playback && ioid)
				fprintf(out, " (%s only)", is_capture ? "capture" : "playback");
			fputc('\n', out);
			n++;
		}
		free(name);
		free(desc);
		free(ioid);
	}
	snd_device_name_free_hint(hints);
	return n;
}

static const struct ir_source_backend ir_source_backend_alsa = {
	.name = "alsa",
	.kind = IR_SOURCE_KIND_AUDIO,
	.summary = "a sound card input through alsa-lib (alsa:hw:1,0, alsa:default, alsa:plughw:...)",
	.open = alsa_open,
	.fd = alsa_fd,
	.dispatch = alsa_dispatch,
	.stats = alsa_stats,
	.close = alsa_close,
	.list = alsa_list,
};

IR_SOURCE_BACKEND_REGISTER(ir_source_backend_alsa)
