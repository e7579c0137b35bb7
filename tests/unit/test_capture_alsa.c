/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_capture_alsa.c - the ALSA source through real alsa-lib, without a
 * sound card: alsa-lib's file plugin (tests/data/alsa-file-pcm.conf) plays
 * the raw samples of a real recording into the capture path.  The frames
 * and edges must equal those of the same recording decoded as a file, for
 * any period size and sample format; a consumer that never dispatches must
 * make the capture thread drop and count, not block.
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "ir_audio_file.h"
#include "ir_receiver.h"
#include "ir_source.h"

#define WAV "/samples/nec-mic-jack-44k.wav"

struct capture {
	struct ir_frame frames[64];
	size_t n_frames;
	struct ir_edge_buf edges;
	unsigned xruns;
	bool ended;
};

static void keep_frame(void *userdata, const struct ir_frame *frame)
{
	struct capture *c = userdata;

	assert_true(c->n_frames < sizeof(c->frames) / sizeof(c->frames[0]));
	c->frames[c->n_frames++] = *frame;
}

static void keep_edge(void *userdata, unsigned channel, const struct ir_edge *edge)
{
	struct capture *c = userdata;

	assert_int_equal(channel, 0);
	assert_int_equal(ir_edge_buf_push(&c->edges, *edge), 0);
}

static void keep_event(void *userdata, enum ir_source_event event, const char *message)
{
	struct capture *c = userdata;

	(void)message;
	if (event == IR_SOURCE_XRUN)
		c->xruns++;
	if (event == IR_SOURCE_END)
		c->ended = true;
}

/* The recording as float (mono 16-bit) and as the raw S16_LE file the
 * file plugin reads. */
struct recording {
	char wav[512];
	char raw[64];
	unsigned rate;
	size_t frames;
};

static struct recording rec;

static int setup_recording(void **state)
{
	struct ir_audio_file *f;
	struct ir_audio_info info;
	char err[256];
	float buf[4096];
	long got;
	FILE *out;
	int fd;

	(void)state;
	snprintf(rec.wav, sizeof(rec.wav), "%s%s", IRJACK_SOURCE_DIR, WAV);
	assert_int_equal(ir_audio_file_open(rec.wav, &f, err, sizeof(err)), 0);
	ir_audio_file_info(f, &info);
	assert_int_equal(info.channels, 1);
	rec.rate = info.sample_rate;
	snprintf(rec.raw, sizeof(rec.raw), "/tmp/test_capture_alsa.XXXXXX");
	fd = mkstemp(rec.raw);
	assert_true(fd >= 0);
	out = fdopen(fd, "wb");
	assert_non_null(out);
	/* 16-bit samples read as float are v / 32768: back to v exactly. */
	while ((got = ir_audio_file_read(f, buf, 4096)) > 0) {
		for (long i = 0; i < got; i++) {
			long v = lrintf(buf[i] * 32768.0f);
			int16_t s = (int16_t)(v > 32767 ? 32767 : v < -32768 ? -32768 : v);

			assert_int_equal(fwrite(&s, 2, 1, out), 1);
		}
		rec.frames += (size_t)got;
	}
	assert_int_equal(fclose(out), 0);
	ir_audio_file_close(f);
	return 0;
}

static int teardown_recording(void **state)
{
	(void)state;
	unlink(rec.raw);
	return 0;
}

/* Runs a source to its end, polling its fd as a program would. */
static void run_source(struct ir_source *src)
{
	char err[256];
	int ret;

	for (int spins = 0; spins < 100000; spins++) {
		struct pollfd p = { .fd = ir_source_fd(src), .events = POLLIN };

		assert_true(p.fd >= 0);
		assert_true(poll(&p, 1, 2000) > 0); /* never silent for 2 s */
		ret = ir_source_dispatch(src, err, sizeof(err));
		if (ret == -ENODATA)
			return;
		assert_int_equal(ret, 0);
	}
	fail_msg("the source never ended");
}

static void decode_as_file(struct capture *ref)
{
	struct ir_source_callbacks cb = { keep_frame, keep_edge, keep_event, NULL, ref };
	struct ir_source *src;
	char spec[600], err[256];

	snprintf(spec, sizeof(spec), "file:%s", rec.wav);
	assert_int_equal(ir_source_open(spec, NULL, &cb, &src, err, sizeof(err)), 0);
	run_source(src);
	ir_source_free(src);
	assert_true(ref->n_frames >= 3);
	assert_true(ref->edges.len >= 60);
}

static void capture_through_alsa(const char *pcm, const char *format, unsigned period_frames,
				 const struct capture *ref)
{
	struct capture got = { 0 };
	struct ir_source_callbacks cb = { keep_frame, keep_edge, keep_event, NULL, &got };
	struct ir_source_options opt;
	struct ir_source_stats st;
	struct ir_source *src;
	char spec[600], err[256];
	int ret;

	ir_source_options_init(&opt);
	opt.rate = rec.rate;
	opt.period_us = (unsigned)((uint64_t)period_frames * 1000000u / rec.rate);
	opt.sample_format = format;
	opt.max_frames = rec.frames;
	/* The file plugin has no clock: the whole file arrives at once, so the
	 * ring must hold all of it or the thread drops (tested below). */
	opt.ring_ms = rec.frames * 1000 / rec.rate + 1000;
	snprintf(spec, sizeof(spec), "alsa:%s:IN=%s%s", pcm, rec.raw,
		 strcmp(pcm, "irplug") == 0 ? (rec.rate == 44100 ? ",RATE=44100" : "") : "");
	ret = ir_source_open(spec, &opt, &cb, &src, err, sizeof(err));
	if (ret < 0)
		fail_msg("%s: %s", spec, err);
	ir_source_stats(src, &st);
	assert_string_equal(st.backend, "alsa");
	assert_int_equal(st.rate, rec.rate);
	assert_int_equal(st.channels, 1);
	if (format)
		assert_string_equal(st.format, format);
	run_source(src);
	ir_source_stats(src, &st);
	printf("%-6s %-8s period %4u frames (asked %4u): %zu frames, %zu edges, %llu samples, "
	       "%llu dropped, %llu xruns\n",
	       pcm, st.format, st.period_frames, period_frames, got.n_frames, got.edges.len,
	       (unsigned long long)st.samples, (unsigned long long)st.dropped,
	       (unsigned long long)st.xruns);
	/* The period is what the card gives near the request: within 2x. */
	assert_true(st.period_frames * 2 >= period_frames && st.period_frames <= period_frames * 2);
	assert_int_equal(st.samples, rec.frames);
	assert_int_equal(st.dropped, 0);
	assert_int_equal(got.xruns, 0);
	assert_true(got.ended);
	ir_source_free(src);

	assert_int_equal(got.n_frames, ref->n_frames);
	for (size_t i = 0; i < ref->n_frames; i++) {
		assert_int_equal(got.frames[i].protocol, ref->frames[i].protocol);
		assert_int_equal(got.frames[i].scancode, ref->frames[i].scancode);
		assert_int_equal(got.frames[i].flags, ref->frames[i].flags);
		assert_int_equal(got.frames[i].start_us, ref->frames[i].start_us);
		assert_int_equal(got.frames[i].end_us, ref->frames[i].end_us);
	}
	assert_int_equal(got.edges.len, ref->edges.len);
	for (size_t i = 0; i < ref->edges.len; i++) {
		assert_int_equal(got.edges.edges[i].kind, ref->edges.edges[i].kind);
		assert_int_equal(got.edges.edges[i].duration, ref->edges.edges[i].duration);
	}
	ir_edge_buf_free(&got.edges);
}

static void count_frame(void *userdata, const struct ir_frame *frame)
{
	(void)frame;
	(*(size_t *)userdata)++;
}

static void test_file_source_matches_receiver_run_file(void **state)
{
	struct capture ref = { 0 };
	struct ir_receiver_config cfg = { .channel = IR_RECEIVER_CHANNEL_AUTO };
	size_t n = 0;
	char err[256];

	(void)state;
	decode_as_file(&ref);
	assert_int_equal(ir_receiver_run_file(rec.wav, &cfg, count_frame, &n, err, sizeof(err)), 0);
	assert_int_equal(n, ref.n_frames);
	ir_edge_buf_free(&ref.edges);
}

static void test_s16_direct_equals_file_decode_at_every_period(void **state)
{
	static const unsigned periods[] = { 64, 256, 1024, 4096 };
	struct capture ref = { 0 };

	(void)state;
	decode_as_file(&ref);
	for (size_t i = 0; i < sizeof(periods) / sizeof(periods[0]); i++)
		capture_through_alsa("irfile", "S16_LE", periods[i], &ref);
	ir_edge_buf_free(&ref.edges);
}

static void test_float_and_s32_through_plug_equal_file_decode(void **state)
{
	static const unsigned periods[] = { 64, 1024 };
	struct capture ref = { 0 };

	(void)state;
	decode_as_file(&ref);
	for (size_t i = 0; i < sizeof(periods) / sizeof(periods[0]); i++) {
		capture_through_alsa("irplug", "FLOAT_LE", periods[i], &ref);
		capture_through_alsa("irplug", "S32_LE", periods[i], &ref);
	}
	/* Left to choose, plug offers everything: the best is FLOAT. */
	capture_through_alsa("irplug", NULL, 256, &ref);
	ir_edge_buf_free(&ref.edges);
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static void test_full_ring_drops_and_counts_instead_of_blocking(void **state)
{
	struct capture got = { 0 };
	struct ir_source_callbacks cb = { keep_frame, NULL, keep_event, NULL, &got };
	struct ir_source_options opt;
	struct ir_source_stats st;
	struct ir_source *src;
	char spec[600], err[256];
	uint64_t start;

	(void)state;
	ir_source_options_init(&opt);
	opt.rate = rec.rate;
	opt.sample_format = "S16_LE";
	opt.max_frames = rec.frames;
	opt.ring_ms = 100; /* far less than the 1.3 s file */
	snprintf(spec, sizeof(spec), "alsa:irfile:IN=%s", rec.raw);
	assert_int_equal(ir_source_open(spec, &opt, &cb, &src, err, sizeof(err)), 0);
	/* The consumer sleeps: a thread that waited for it would never get
	 * through the file; one that drops gets through in milliseconds. */
	start = now_ms();
	do {
		usleep(2000);
		ir_source_stats(src, &st);
	} while (st.dropped + 4096 * 2 < rec.frames && now_ms() - start < 5000);
	ir_source_stats(src, &st);
	printf("consumer asleep: ring %u frames period, %llu of %zu frames dropped\n",
	       st.period_frames, (unsigned long long)st.dropped, rec.frames);
	assert_true(st.dropped > rec.frames / 2);
	assert_int_equal(st.samples, 0);
	/* Now dispatch: what fitted arrives, the loss is reported once. */
	run_source(src);
	ir_source_stats(src, &st);
	assert_int_equal(got.xruns, 1);
	assert_int_equal(st.samples + st.dropped, rec.frames);
	assert_true(got.ended);
	ir_source_free(src);
}

static void test_unknown_pcm_fails_with_a_message(void **state)
{
	struct capture got = { 0 };
	struct ir_source_callbacks cb = { keep_frame, NULL, NULL, NULL, &got };
	struct ir_source *src = NULL;
	char err[256];

	(void)state;
	assert_true(ir_source_open("alsa:no_such_pcm_here", NULL, &cb, &src, err, sizeof(err)) < 0);
	assert_null(src);
	assert_non_null(strstr(err, "no_such_pcm_here"));
}

static void test_bad_sample_format_is_einval(void **state)
{
	struct capture got = { 0 };
	struct ir_source_callbacks cb = { keep_frame, NULL, NULL, NULL, &got };
	struct ir_source_options opt;
	struct ir_source *src = NULL;
	char spec[600], err[256];

	(void)state;
	ir_source_options_init(&opt);
	opt.sample_format = "MU_LAW";
	snprintf(spec, sizeof(spec), "alsa:irfile:IN=%s", rec.raw);
	assert_int_equal(ir_source_open(spec, &opt, &cb, &src, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "MU_LAW"));
}

static void test_list_names_the_test_pcms(void **state)
{
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);
	const struct ir_source_backend *b = ir_source_backend_find("alsa");
	int n;

	(void)state;
	assert_non_null(b);
	assert_non_null(out);
	n = b->list(out, true, true);
	fclose(out);
	printf("alsa list: %d PCMs\n", n);
	assert_true(n >= 1);
	/* Every line is "alsa:NAME<TAB>description". */
	for (char *line = text; *line;) {
		char *end = strchr(line, '\n');

		assert_non_null(end);
		assert_memory_equal(line, "alsa:", 5);
		assert_non_null(memchr(line, '\t', (size_t)(end - line)));
		line = end + 1;
	}
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file_source_matches_receiver_run_file),
		cmocka_unit_test(test_s16_direct_equals_file_decode_at_every_period),
		cmocka_unit_test(test_float_and_s32_through_plug_equal_file_decode),
		cmocka_unit_test(test_full_ring_drops_and_counts_instead_of_blocking),
		cmocka_unit_test(test_unknown_pcm_fails_with_a_message),
		cmocka_unit_test(test_bad_sample_format_is_einval),
		cmocka_unit_test(test_list_names_the_test_pcms),
	};
	char path[1200];

	/* The test PCMs beside alsa-lib's own configuration. */
	snprintf(path, sizeof(path), "/usr/share/alsa/alsa.conf:%s/tests/data/alsa-file-pcm.conf",
		 IRJACK_SOURCE_DIR);
	setenv("ALSA_CONFIG_PATH", path, 1);
	return cmocka_run_group_tests(tests, setup_recording, teardown_recording);
}
