/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_capture_portaudio.c - the `portaudio:` source through real PortAudio
 * and real alsa-lib, without a sound card: tests/data/alsa-portaudio.conf
 * defines `irpa`, alsa-lib's file PCM reading the raw file named by
 * $IRJACK_TEST_PCM_IN: the samples of an S16 mono 48 kHz recording
 * (tests/data/NAME-48k.wav, resampled from samples/ with sox) as floats (the
 * config says why not S16 behind `plug`).  What comes out must be what
 * `irjack decode` finds in the same samples: the same frames at the same
 * times, the same edges.
 *
 * The file PCM has no clock (the whole file arrives in a few ms) and repeats
 * stale samples past the end, so every capture is bounded by max_frames =
 * the file's length; without a clock the callback outruns any consumer,
 * so the ring holds the whole file unless a test wants it to overflow.
 */
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stdbool.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <sndfile.h>

#include "ir_receiver.h"
#include "ir_source.h"

#define MAX_FRAMES 64
#define MAX_EDGES 8192

struct capture {
	struct ir_frame frames[MAX_FRAMES];
	size_t n_frames;
	struct ir_edge edges[MAX_EDGES];
	size_t n_edges;
	unsigned xruns;
	char last_xrun[160];
};

static void on_frame(void *userdata, const struct ir_frame *frame)
{
	struct capture *c = userdata;

	if (c->n_frames < MAX_FRAMES)
		c->frames[c->n_frames++] = *frame;
}

static void on_edge(void *userdata, unsigned channel, const struct ir_edge *edge)
{
	struct capture *c = userdata;

	if (channel == 0 && c->n_edges < MAX_EDGES)
		c->edges[c->n_edges++] = *edge;
}

static void on_event(void *userdata, enum ir_source_event event, const char *message)
{
	struct capture *c = userdata;

	if (event == IR_SOURCE_XRUN) {
		c->xruns++;
		snprintf(c->last_xrun, sizeof(c->last_xrun), "%s", message);
	}
}

static char raw_path[] = "/tmp/irjack-pa-XXXXXX";
/* What `irjack decode` runs (all would add imon, fan, rc6a: overlapping). */
static struct ir_protocol_set protocols;

/* Writes the WAV's samples into the raw file the PCM reads, as the floats
 * libsndfile gives the file decoder (so the same samples, bit for bit),
 * each repeated on `channels` channels; returns the frame count. */
static uint64_t make_raw(const char *wav, unsigned channels)
{
	SF_INFO info = { 0 };
	SNDFILE *in = sf_open(wav, SFM_READ, &info);
	float buf[4096];
	sf_count_t got;
	uint64_t total = 0;
	FILE *out;

	assert_non_null(in);
	assert_int_equal(info.channels, 1);
	assert_int_equal(info.samplerate, 48000);
	assert_int_equal(info.format & SF_FORMAT_SUBMASK, SF_FORMAT_PCM_16);
	out = fopen(raw_path, "wb");
	assert_non_null(out);
	while ((got = sf_readf_float(in, buf, 4096)) > 0) {
		for (sf_count_t i = 0; i < got; i++)
			for (unsigned c = 0; c < channels; c++)
				assert_int_equal(fwrite(&buf[i], sizeof(float), 1, out), 1);
		total += (uint64_t)got;
	}
	fclose(out);
	sf_close(in);
	return total;
}

static void wav_path(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/tests/data/%s", IRJACK_SOURCE_DIR, name);
}

/* Captures `spec` until the source ends; returns the final stats. */
static void run_source(const char *spec, struct ir_source_options *opt, struct capture *c,
		       struct ir_source_stats *st)
{
	struct ir_source_callbacks cb = {
		.frame = on_frame, .edge = on_edge, .event = on_event, .userdata = c,
	};
	struct ir_source *src = NULL;
	char err[256];
	time_t deadline = time(NULL) + 20;
	int ret;

	ret = ir_source_open(spec, opt, &cb, &src, err, sizeof(err));
	if (ret < 0)
		fail_msg("open %s: %s", spec, err);
	for (;;) {
		struct pollfd p = { .fd = ir_source_fd(src), .events = POLLIN };

		assert_true(p.fd >= 0);
		assert_true(poll(&p, 1, 1000) >= 0);
		ret = ir_source_dispatch(src, err, sizeof(err));
		if (ret == -ENODATA)
			break;
		if (ret < 0)
			fail_msg("dispatch: %s", err);
		if (time(NULL) > deadline)
			fail_msg("the capture did not end (%s)", spec);
	}
	/* Ended for good: once more still says so. */
	assert_int_equal(ir_source_dispatch(src, err, sizeof(err)), -ENODATA);
	ir_source_stats(src, st);
	ir_source_free(src);
}

static void assert_same_frames(const struct capture *a, const struct capture *b)
{
	assert_int_equal(a->n_frames, b->n_frames);
	for (size_t i = 0; i < a->n_frames; i++) {
		assert_int_equal(a->frames[i].protocol, b->frames[i].protocol);
		assert_int_equal(a->frames[i].scancode, b->frames[i].scancode);
		assert_int_equal(a->frames[i].flags, b->frames[i].flags);
		/* No start offset: PortAudio delivers the file's first sample first. */
		assert_int_equal(a->frames[i].start_us, b->frames[i].start_us);
		assert_int_equal(a->frames[i].end_us, b->frames[i].end_us);
	}
}

/* The reference: the file decoder on the WAV, and one receiver fed the
 * whole file in one block (for its edges). */
static void reference(const char *wav, struct capture *ref)
{
	struct ir_receiver_config cfg = { .channel = 0, .protocols = &protocols };
	struct ir_receiver *rx;
	SF_INFO info = { 0 };
	SNDFILE *in;
	float *all;
	char err[160];
	struct capture frames_only = { 0 };

	memset(ref, 0, sizeof(*ref));
	assert_int_equal(ir_receiver_run_file(wav, &cfg, on_frame, &frames_only, err, sizeof(err)), 0);
	in = sf_open(wav, SFM_READ, &info);
	assert_non_null(in);
	all = malloc(sizeof(float) * (size_t)info.frames);
	assert_non_null(all);
	assert_int_equal(sf_readf_float(in, all, info.frames), info.frames);
	sf_close(in);
	cfg.sample_rate = 48000;
	cfg.channels = 1;
	assert_int_equal(ir_receiver_new(&cfg, on_frame, ref, &rx), 0);
	ir_receiver_set_edge_fn(rx, on_edge, ref);
	ir_receiver_process(rx, all, (size_t)info.frames);
	ir_receiver_flush(rx);
	ir_receiver_free(rx);
	free(all);
	/* the two ways of decoding the file agree */
	assert_same_frames(&frames_only, ref);
}

static void same_as_file_decoder(const char *name, size_t expect_frames, unsigned period_us)
{
	static struct capture ref, got;
	struct ir_source_options opt;
	struct ir_source_stats st;
	char wav[512];
	uint64_t n;

	wav_path(wav, sizeof(wav), name);
	n = make_raw(wav, 1);
	reference(wav, &ref);
	assert_int_equal(ref.n_frames, expect_frames);

	memset(&got, 0, sizeof(got));
	ir_source_options_init(&opt);
	opt.protocols = &protocols;
	opt.channel = 0;
	opt.max_frames = n;
	opt.ring_ms = 4000; /* the whole file: no clock, see the top */
	opt.period_us = period_us;
	run_source("portaudio:irpa", &opt, &got, &st);

	assert_string_equal(st.backend, "portaudio");
	assert_string_equal(st.device, "irpa");
	assert_int_equal(st.rate, 48000);
	assert_int_equal(st.channels, 1);
	assert_int_equal(st.samples, n);
	assert_int_equal(st.dropped, 0);
	assert_int_equal(st.xruns, 0);
	assert_int_equal(got.xruns, 0);
	assert_int_equal(st.frames, expect_frames);
	assert_same_frames(&got, &ref);
	assert_int_equal(got.n_edges, ref.n_edges);
	assert_true(ref.n_edges >= 10 * expect_frames);
	for (size_t i = 0; i < ref.n_edges; i++) { /* field by field: the struct has padding */
		assert_int_equal(got.edges[i].kind, ref.edges[i].kind);
		assert_int_equal(got.edges[i].duration, ref.edges[i].duration);
		assert_int_equal(got.edges[i].duty_cycle, ref.edges[i].duty_cycle);
	}
	printf("# %s: %llu samples, %zu frames, %zu edges identical (period %u us)\n", name,
	       (unsigned long long)n, got.n_frames, got.n_edges, period_us);
}

static void nec_recording_decodes_as_from_the_file(void **state)
{
	(void)state;
	same_as_file_decoder("nec-mic-jack-48k.wav", 6, 0);
}

static void rc5_recording_decodes_as_from_the_file(void **state)
{
	(void)state;
	same_as_file_decoder("rc5-photodiode-48k.wav", 2, 0);
}

static void any_period_gives_the_same_edges(void **state)
{
	(void)state;
	same_as_file_decoder("nec-mic-jack-48k.wav", 6, 1000);
	same_as_file_decoder("nec-mic-jack-48k.wav", 6, 21333);
}

/* Auto channel: `plug` turns the mono file into as many channels as asked;
 * a stereo capture reports each frame once. */
static void stereo_auto_reports_each_frame_once(void **state)
{
	static struct capture ref, got;
	struct ir_source_options opt;
	struct ir_source_stats st;
	char wav[512];
	uint64_t n;

	(void)state;
	wav_path(wav, sizeof(wav), "nec-mic-jack-48k.wav");
	n = make_raw(wav, 2);
	reference(wav, &ref);
	memset(&got, 0, sizeof(got));
	ir_source_options_init(&opt);
	opt.protocols = &protocols;
	opt.max_frames = n;
	opt.ring_ms = 4000;
	run_source("portaudio:irpa", &opt, &got, &st);
	assert_int_equal(st.channels, 2);
	assert_same_frames(&got, &ref);
}

/* Without a clock the callback outruns the consumer: a small ring fills,
 * the rest is dropped, counted, and reported as one xrun per burst. */
static void full_ring_drops_and_reports_xrun(void **state)
{
	static struct capture got;
	struct ir_source_options opt;
	struct ir_source_stats st;
	char wav[512];
	uint64_t n;

	(void)state;
	wav_path(wav, sizeof(wav), "nec-mic-jack-48k.wav");
	n = make_raw(wav, 1);
	memset(&got, 0, sizeof(got));
	ir_source_options_init(&opt);
	opt.protocols = &protocols;
	opt.channel = 0;
	opt.max_frames = n;
	opt.ring_ms = 50;
	run_source("portaudio:irpa", &opt, &got, &st);
	printf("# 50 ms ring: %llu delivered, %llu dropped, %u xrun reports\n",
	       (unsigned long long)st.samples, (unsigned long long)st.dropped, got.xruns);
	assert_true(st.dropped > 0);
	assert_int_equal(st.samples + st.dropped, n);
	assert_true(got.xruns >= 1);
	assert_true(got.xruns <= st.dropped);
	if (!strstr(got.last_xrun, "frames dropped (the consumer was late)"))
		fail_msg("xrun message: %s", got.last_xrun);
}

static void max_frames_ends_the_capture(void **state)
{
	static struct capture got;
	struct ir_source_options opt;
	struct ir_source_stats st;
	char wav[512];

	(void)state;
	wav_path(wav, sizeof(wav), "nec-mic-jack-48k.wav");
	make_raw(wav, 1);
	memset(&got, 0, sizeof(got));
	ir_source_options_init(&opt);
	opt.protocols = &protocols;
	opt.channel = 0;
	opt.max_frames = 24000; /* 0.5 s: the first NEC frame and its repeat */
	opt.ring_ms = 1000;
	run_source("portaudio:irpa", &opt, &got, &st);
	assert_int_equal(st.samples, 24000);
	assert_int_equal(got.n_frames, 2);
	assert_int_equal(got.frames[0].scancode, 0x04fb);
}

/* The list names the config's PCMs; the line number is the device index
 * `portaudio:N` opens. */
static void list_names_the_pcms_and_index_opens(void **state)
{
	const struct ir_source_backend *b = ir_source_backend_find("portaudio");
	static struct capture got;
	struct ir_source_options opt;
	struct ir_source_stats st;
	char *text = NULL, *line, *save = NULL, spec[64];
	size_t size = 0;
	FILE *mem;
	int n, index = -1, i = 0;

	(void)state;
	assert_non_null(b);
	assert_non_null(b->list);
	mem = open_memstream(&text, &size);
	assert_non_null(mem);
	n = b->list(mem, true, true);
	fclose(mem);
	assert_true(n >= 2);
	assert_non_null(strstr(text, "portaudio:default\tALSA"));
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save), i++)
		if (strncmp(line, "portaudio:irpa\tALSA, ", 21) == 0)
			index = i;
	free(text);
	assert_true(index >= 0);

	make_raw(IRJACK_SOURCE_DIR "/tests/data/nec-mic-jack-48k.wav", 1);
	memset(&got, 0, sizeof(got));
	ir_source_options_init(&opt);
	opt.protocols = &protocols;
	opt.channel = 0;
	opt.max_frames = 48000;
	opt.ring_ms = 2000;
	snprintf(spec, sizeof(spec), "portaudio:%d", index);
	run_source(spec, &opt, &got, &st);
	assert_string_equal(st.device, "irpa");
	assert_int_equal(got.n_frames, 4);
}

/* Whether this process may use SCHED_FIFO, asked of a child so that the
 * test itself stays as it was. */
static bool fifo_permitted(void)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		struct sched_param sp = { .sched_priority = 1 };

		_exit(sched_setscheduler(0, SCHED_FIFO, &sp) == 0 ? 0 : 1);
	}
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* --realtime: the callback thread runs SCHED_FIFO where permitted, and
 * the stats say which; without it, never. */
static void realtime_thread_when_asked_and_permitted(void **state)
{
	static struct capture got;
	struct ir_source_options opt;
	struct ir_source_stats st;
	bool permitted = fifo_permitted();

	(void)state;
	make_raw(IRJACK_SOURCE_DIR "/tests/data/nec-mic-jack-48k.wav", 1);
	for (int rt = 0; rt <= 1; rt++) {
		memset(&got, 0, sizeof(got));
		ir_source_options_init(&opt);
		opt.protocols = &protocols;
		opt.channel = 0;
		opt.max_frames = 24000;
		opt.ring_ms = 1000;
		opt.realtime = rt;
		run_source("portaudio:irpa", &opt, &got, &st);
		assert_int_equal(st.realtime, rt && permitted);
		assert_int_equal(got.n_frames, 2);
	}
	printf("# SCHED_FIFO %s here\n", permitted ? "permitted" : "refused");
}

static void unknown_device_is_enoent(void **state)
{
	struct ir_source_callbacks cb = { .frame = on_frame };
	struct ir_source *src = NULL;
	char err[256];

	(void)state;
	assert_int_equal(ir_source_open("portaudio:no-such-card", NULL, &cb, &src, err, sizeof(err)),
			 -ENOENT);
	assert_null(src);
	assert_non_null(strstr(err, "no such input device"));
	assert_int_equal(ir_source_open("portaudio:999", NULL, &cb, &src, err, sizeof(err)),
			 -ENOENT);
	assert_non_null(strstr(err, "no such device"));
}

static int setup(void **state)
{
	int fd = mkstemp(raw_path);
	static char conf[1024];

	(void)state;
	if (fd < 0)
		return -1;
	close(fd);
	snprintf(conf, sizeof(conf), "/usr/share/alsa/alsa.conf:%s/tests/data/alsa-portaudio.conf",
		 IRJACK_SOURCE_DIR);
	ir_protocol_set_default(&protocols);
	setenv("ALSA_CONFIG_PATH", conf, 1);
	setenv("IRJACK_TEST_PCM_IN", raw_path, 1);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(raw_path);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nec_recording_decodes_as_from_the_file),
		cmocka_unit_test(rc5_recording_decodes_as_from_the_file),
		cmocka_unit_test(any_period_gives_the_same_edges),
		cmocka_unit_test(stereo_auto_reports_each_frame_once),
		cmocka_unit_test(full_ring_drops_and_reports_xrun),
		cmocka_unit_test(max_frames_ends_the_capture),
		cmocka_unit_test(list_names_the_pcms_and_index_opens),
		cmocka_unit_test(realtime_thread_when_asked_and_permitted),
		cmocka_unit_test(unknown_device_is_enoent),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
