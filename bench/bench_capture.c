/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench_capture - the ALSA source's cost and latency through real alsa-lib
 * (the file plugin of tests/data/alsa-file-pcm.conf, so no sound card):
 * a real recording, repeated to SECONDS of audio, captured by the capture
 * thread, handed through the ring and decoded.  Printed, not asserted.
 *
 *   CPU       process CPU time (capture thread + consumer: conversion, ring,
 *             demodulation, decoding) per second of audio, and the same
 *             audio decoded as a file source, so the difference is what
 *             capture adds.  The file plugin has no clock, so this is CPU
 *             per audio second, not wall time.
 *   latency   for each frame: audio after its last edge that had to be
 *             delivered before it was reported (the decoder's need plus the
 *             period's granularity), and the wall time from the start of
 *             processing that block to the frame callback.  On a real card
 *             the line appears about period + that audio + that wall time
 *             after the light stops.
 *
 * Usage: bench_capture [SECONDS] [PERIOD_US]   (defaults: 60, 4000)
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "ir_audio_file.h"
#include "ir_source.h"

#define WAV "/samples/nec-mic-jack-44k.wav"

struct probe {
	unsigned rate;
	uint64_t block_end;      /* frames delivered once the current block is in */
	uint64_t block_start_ns; /* when the current block reached the decoders */
	size_t frames;
	double audio_ms[4096], wall_us[4096];
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static double cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

static void on_samples(void *userdata, const float *interleaved, size_t frames)
{
	struct probe *p = userdata;

	(void)interleaved;
	p->block_end += frames;
	p->block_start_ns = now_ns();
}

static void on_frame(void *userdata, const struct ir_frame *frame)
{
	struct probe *p = userdata;

	if (p->frames < sizeof(p->audio_ms) / sizeof(p->audio_ms[0])) {
		p->audio_ms[p->frames] = (double)p->block_end * 1000.0 / p->rate - frame->end_us / 1000.0;
		p->wall_us[p->frames] = (double)(now_ns() - p->block_start_ns) / 1000.0;
	}
	p->frames++;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void print_spread(const char *what, double *v, size_t n, const char *unit)
{
	if (!n)
		return;
	qsort(v, n, sizeof(*v), cmp_double);
	printf("  %-34s median %8.2f %s, 95%% %8.2f %s, max %8.2f %s\n", what, v[n / 2], unit,
	       v[n * 95 / 100], unit, v[n - 1], unit);
}

/* Runs `spec` to its end; returns CPU seconds used. */
static double run(const char *spec, const struct ir_source_options *opt, struct probe *p,
		  struct ir_source_stats *st)
{
	struct ir_source_callbacks cb = { on_frame, NULL, NULL, on_samples, p };
	struct ir_source *src;
	char err[256];
	double cpu0 = cpu_s();
	int ret;

	if (ir_source_open(spec, opt, &cb, &src, err, sizeof(err)) < 0) {
		fprintf(stderr, "bench_capture: %s\n", err);
		exit(1);
	}
	do {
		struct pollfd pfd = { .fd = ir_source_fd(src), .events = POLLIN };

		poll(&pfd, 1, 1000);
		ret = ir_source_dispatch(src, err, sizeof(err));
	} while (ret == 0);
	if (ret != -ENODATA) {
		fprintf(stderr, "bench_capture: %s\n", err);
		exit(1);
	}
	ir_source_stats(src, st);
	ir_source_free(src);
	return cpu_s() - cpu0;
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 60;
	unsigned period_us = argc > 2 ? (unsigned)atoi(argv[2]) : 4000;
	char wav[600], raw[] = "/tmp/bench_capture.XXXXXX", conf[700], spec[700];
	struct ir_audio_file *f;
	struct ir_audio_info info;
	struct ir_source_options opt;
	struct ir_source_stats st;
	static struct probe p;
	float *pcm;
	int16_t *s16;
	long n;
	size_t total;
	FILE *out;
	double cpu_alsa, cpu_file;

	snprintf(conf, sizeof(conf), "/usr/share/alsa/alsa.conf:%s/tests/data/alsa-file-pcm.conf",
		 IRJACK_SOURCE_DIR);
	setenv("ALSA_CONFIG_PATH", conf, 1);
	snprintf(wav, sizeof(wav), "%s%s", IRJACK_SOURCE_DIR, WAV);
	if (ir_audio_file_open(wav, &f, spec, sizeof(spec)) < 0) {
		fprintf(stderr, "bench_capture: %s: %s\n", wav, spec);
		return 1;
	}
	ir_audio_file_info(f, &info);
	pcm = malloc(info.frames * sizeof(float));
	n = ir_audio_file_read(f, pcm, info.frames);
	ir_audio_file_close(f);
	total = (size_t)(seconds * info.sample_rate);
	s16 = malloc(total * sizeof(int16_t));
	if (n <= 0 || !s16 || info.channels != 1)
		return 1;
	for (size_t i = 0; i < total; i++)
		s16[i] = (int16_t)(pcm[i % (size_t)n] * 32767.0f);
	out = fdopen(mkstemp(raw), "wb");
	if (!out || fwrite(s16, sizeof(int16_t), total, out) != total || fclose(out) != 0)
		return 1;

	ir_source_options_init(&opt);
	opt.rate = info.sample_rate;
	opt.period_us = period_us;
	opt.sample_format = "S16_LE";
	opt.max_frames = total;
	opt.ring_ms = (size_t)(seconds * 1000) + 1000; /* no clock: all of it arrives at once */
	p.rate = info.sample_rate;
	snprintf(spec, sizeof(spec), "alsa:irfile:IN=%s", raw);
	cpu_alsa = run(spec, &opt, &p, &st);
	printf("bench_capture: %.0f s of %s (%u Hz, mono S16_LE) through alsa-lib's file plugin\n",
	       seconds, &WAV[1], info.sample_rate);
	printf("  period %u frames (%.2f ms), %zu frames decoded, %llu dropped, %llu xruns\n",
	       st.period_frames, st.period_frames * 1000.0 / st.rate, p.frames,
	       (unsigned long long)st.dropped, (unsigned long long)st.xruns);
	printf("  CPU, ALSA source (capture + DSP + decode): %7.3f ms per s of audio = %.3f %% of a core\n",
	       cpu_alsa * 1000 / seconds, cpu_alsa * 100 / seconds);
	size_t frames = p.frames < 4096 ? p.frames : 4096;
	print_spread("audio after the frame's end", p.audio_ms, frames, "ms");
	print_spread("block start to frame callback", p.wall_us, frames, "us");

	/* The same samples as a file source: the decoding alone. */
	snprintf(spec, sizeof(spec), "%s.wav", raw);
	{
		struct ir_audio_writer *w;

		if (ir_audio_writer_open(spec, info.sample_rate, 1, IR_AUDIO_PCM_16, &w) < 0)
			return 1;
		for (size_t i = 0; i < total; i++)
			pcm[i % (size_t)n] = (float)s16[i] / 32768.0f;
		for (size_t done = 0; done < total; done += (size_t)n)
			ir_audio_writer_write(w, pcm, total - done < (size_t)n ? total - done : (size_t)n);
		ir_audio_writer_close(w);
	}
	memset(&p, 0, sizeof(p));
	p.rate = info.sample_rate;
	cpu_file = run(spec, NULL, &p, &st);
	printf("  CPU, file source (DSP + decode only):      %7.3f ms per s of audio; capture adds %.3f ms\n",
	       cpu_file * 1000 / seconds, (cpu_alsa - cpu_file) * 1000 / seconds);
	unlink(spec);
	unlink(raw);
	free(pcm);
	free(s16);
	return 0;
}
