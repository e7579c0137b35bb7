/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench_audio - figures for the audio front end, printed, not asserted:
 *
 *   snr         frame success rate against SNR (0..30 dB; 48 kHz, receiver
 *               module, AC coupling τ = 5 ms) for nec, rc5, rc6_mce, sony12
 *   limit       irjack / genie-aided bound per protocol × AC coupling ×
 *               SNR × sample rate, receiver module (bench_limit.h)
 *   photodiode  the same for a bare photodiode (bench_limit.h)
 *   coldstart   the first frame of recordings cut tight (bench_coldstart.h)
 *   false       false frames per hour on input with no IR: white noise,
 *               noise with hum, clipped noise, music-like sound; an hour
 *               of each unless --seconds N, at 48 kHz unless --rate R
 *   throughput  times real time at 48 and 192 kHz, on silence and on
 *               IR-dense input (one thread's CPU time, this machine)
 *   latency     audio time from a frame's last edge to its report, per
 *               protocol (decoders that report at the last pulse, and those
 *               that must see a little silence first)
 *   silence N   process N seconds of quiet noise (for callgrind: see
 *   dense N     callgrind.sh), or N seconds of back-to-back NEC frames,
 *               at 48 kHz, or at R Hz where a third argument R is given;
 *               a fourth, "photodiode", makes it a bare photodiode's line
 *               (NEC's 38 kHz carrier: at 96/192 kHz the carrier front-end
 *               locks and demodulates from the first frames on)
 *
 * Usage: bench_audio [snr|false|throughput|latency|all] [--frames N] [--seconds N]
 *                    [--rate R]
 *        bench_audio limit|photodiode [options]: see bench_limit.c
 *        bench_audio coldstart [options]: see bench_coldstart.c
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "audio_harness.h"
#include "bench_coldstart.h"
#include "bench_limit.h"
#include "ir_receiver.h"

static unsigned frames_per_point = 200;
/* `false`: seconds of each kind of input; the figure is per hour */
static unsigned false_seconds = 3600;
/* ...and its rate (--rate: 96/192 kHz run the photodiode's carrier
 * front-end, dsp/ir_envelope.h, too) */
static unsigned false_rate = 48000;

/* CPU time of this thread: the build machine is shared, and wall time
 * there measures the other jobs as much as this one. */
static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void bench_snr(void)
{
	static const char *const protocols[] = { "nec", "rc5", "rc6_mce", "sony12" };

	printf("Frame success rate against SNR (48 kHz, receiver module, AC tau 5 ms, %u frames "
	       "per point)\n",
	       frames_per_point);
	printf("  SNR dB");
	for (size_t p = 0; p < 4; p++)
		printf("  %8s", protocols[p]);
	printf("\n");
	for (int snr = 0; snr <= 30; snr += 2) {
		printf("  %6d", snr);
		for (size_t p = 0; p < 4; p++) {
			struct audio_trial t = { .frames = frames_per_point, .seed = (uint64_t)snr * 31 + p };
			struct audio_result r;

			ir_protocol_from_name(protocols[p], &t.protocol);
			ir_channel_config_default(&t.channel);
			t.channel.ac_tau_ms = 5;
			t.channel.snr_db = snr;
			t.channel.seed = t.seed;
			audio_trial_run(&t, &r);
			printf("  %7.1f%%", 100.0 * r.matched / r.sent);
			fflush(stdout);
		}
		printf("\n");
	}
}

static unsigned long false_frames;

/* With IRJACK_TRIAL_DEBUG set, each false frame is printed (its time and
 * code) for tracing. */
static void count_frame(void *userdata, const struct ir_frame *f)
{
	(void)userdata;
	if (getenv("IRJACK_TRIAL_DEBUG"))
		printf("    false frame: protocol %d 0x%llx at %.6f s\n", (int)f->protocol,
		       (unsigned long long)f->scancode, f->start_us / 1e6);
	false_frames++;
}

/* With `after_edge`, the input carries one lone 9 ms pulse 0.2 s in, a
 * step of twice the rms of what came before (README SNR 0 dB against
 * it): a stream that has had an edge runs the weak path's rules for after
 * the first edge (a lower trigger, a longer noise average, the longer τ
 * choice), which a stream of noise alone never reaches.  A stronger
 * pulse would not do: the step it teaches keeps the trigger over the
 * noise (at 4 × the rms no weak start followed on white noise).  Traced
 * at 48 kHz: the pulse registers as an edge on both white noises and on
 * the music (whose clicks are edges from the start anyway); on the hum
 * and the clipped noise it does not, at 2-4 × the rms, and those two
 * runs repeat the first. */
struct edge_once {
	uint64_t at, len;  /* the pulse's first sample, and how many */
	double sum2;       /* the input's energy before it */
};

static float with_edge(struct edge_once *e, uint64_t n, float x)
{
	if (n < e->at)
		e->sum2 += (double)x * x;
	else if (n < e->at + e->len)
		x += (float)(2 * sqrt(e->sum2 / (double)e->at));
	return x;
}

/* Runs `seconds` of generated no-IR audio through a receiver (all
 * protocols), returning false frames per hour; see struct edge_once for
 * `after_edge`. */
static double false_per_hour(const char *what, unsigned seconds, bool after_edge,
			     float (*gen)(uint64_t n, void *state), void *state)
{
	const unsigned rate = false_rate;
	struct ir_receiver_config cfg = { .sample_rate = rate, .channels = 1, .channel = 0 };
	struct edge_once edge = { .at = rate / 5, .len = rate * 9 / 1000 };
	struct ir_protocol_set all;
	struct ir_receiver *rx;
	float buf[4800];
	uint64_t n = 0;

	ir_protocol_set_default(&all);
	cfg.protocols = &all;
	false_frames = 0;
	if (ir_receiver_new(&cfg, count_frame, NULL, &rx) < 0)
		return -1;
	for (unsigned block = 0; block < seconds * 10; block++) {
		for (size_t i = 0; i < 4800; i++, n++)
			buf[i] = after_edge ? with_edge(&edge, n, gen(n, state)) : gen(n, state);
		ir_receiver_process(rx, buf, 4800);
	}
	ir_receiver_flush(rx);
	ir_receiver_free(rx);
	printf("  %-34s %-11s %5u s: %lu false frames = %.1f per hour\n", what,
	       after_edge ? "after edge" : "from start", seconds, false_frames,
	       false_frames * 3600.0 / seconds);
	return false_frames * 3600.0 / seconds;
}

struct gen_state {
	uint64_t s;
	double level, hum;
	double clip;
	int music;
};

static double gauss(struct gen_state *g)
{
	double u, v;

	g->s = g->s * 6364136223846793005ull + 1442695040888963407ull;
	u = ((double)(g->s >> 11) + 0.5) / 9007199254740992.0;
	g->s = g->s * 6364136223846793005ull + 1442695040888963407ull;
	v = ((double)(g->s >> 11) + 0.5) / 9007199254740992.0;
	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

static float gen_noise(uint64_t n, void *state)
{
	struct gen_state *g = state;
	double t = (double)n / false_rate;
	double x = g->level * gauss(g);

	if (g->hum > 0)
		x += g->hum * (sin(2 * M_PI * 50 * t) + sin(6 * M_PI * 50 * t) / 3);
	if (g->music) {
		/* chords changing every 250 ms, notes with plucked envelopes,
		 * a bass line and a percussive click every beat */
		static const double notes[] = { 261.6, 329.6, 392.0, 440.0, 523.3, 587.3, 659.3, 784.0 };
		unsigned beat = (unsigned)(t * 4);
		double in_beat = t * 4 - beat;
		double env = exp(-6 * in_beat);

		for (unsigned k = 0; k < 3; k++)
			x += 0.15 * env * sin(2 * M_PI * notes[(beat * 3 + k * 2) % 8] * t);
		x += 0.2 * sin(2 * M_PI * notes[beat % 8] / 4 * t);
		if (in_beat < 0.002)
			x += 0.5 * gauss(g);
	}
	if (g->clip > 0)
		x = x > g->clip ? g->clip : x < -g->clip ? -g->clip : x;
	return (float)x;
}

/* Each input twice: as a stream's first sound, and after one weak pulse
 * (struct edge_once); with IRJACK_FALSE_ONLY set, only the inputs whose
 * description holds it (e.g. "music"). */
static void bench_false(void)
{
	static const struct {
		const char *what;
		struct gen_state g;
	} inputs[] = {
		{ "white noise, -40 dBFS", { .s = 1, .level = 0.01 } },
		{ "white noise, -20 dBFS", { .s = 2, .level = 0.1 } },
		{ "noise and strong 50 Hz hum", { .s = 3, .level = 0.01, .hum = 0.3 } },
		{ "loud clipped noise", { .s = 4, .level = 0.3, .clip = 0.5 } },
		{ "music-like (chords, bass, clicks)", { .s = 5, .level = 0.003, .music = 1 } },
	};
	const unsigned seconds = false_seconds;
	const char *only = getenv("IRJACK_FALSE_ONLY");

	printf("False frames on input with no IR (%g kHz, every default protocol, %u s of each,\n"
	       "from the stream's start and after one weak 9 ms pulse)\n",
	       false_rate / 1000.0, seconds);
	for (size_t i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++)
		for (int after = 0; after < 2; after++) {
			struct gen_state g = inputs[i].g;

			if (only && !strstr(inputs[i].what, only))
				continue;
			false_per_hour(inputs[i].what, seconds, after, gen_noise, &g);
		}
}

static void process_all(struct ir_receiver *rx, const float *s, size_t n)
{
	for (size_t i = 0; i < n; i += 1024)
		ir_receiver_process(rx, s + i, n - i < 1024 ? n - i : 1024);
}

/* Renders `seconds` of silence (dense = 0) or back-to-back NEC frames. */
static float *render(unsigned rate, int dense, double seconds, bool photodiode, size_t *n)
{
	struct ir_edge_buf b = { 0 };
	struct ir_channel_config c;
	float *s;

	while (dense && ir_edge_buf_duration(&b) < seconds * 1e6)
		ir_encode(IR_PROTO_NEC, (uint64_t)rand() & 0xffff, NULL, &b);
	ir_channel_config_default(&c);
	c.sample_rate = rate;
	if (photodiode)
		c.frontend = IR_FRONTEND_PHOTODIODE;
	c.snr_db = 40;
	c.ac_tau_ms = 5;
	c.lead_ms = 0;
	c.tail_ms = dense ? 0 : seconds * 1000;
	if (ir_channel_render(&c, b.edges, b.len, &s, n) < 0)
		exit(1);
	ir_edge_buf_free(&b);
	return s;
}

static void bench_throughput(void)
{
	static const unsigned rates[] = { 48000, 192000 };

	printf("Throughput, one core (times real time: audio seconds per second of this thread's "
	       "CPU time)\n");
	for (size_t r = 0; r < 2; r++) {
		for (int dense = 0; dense < 2; dense++) {
			size_t n;
			float *s = render(rates[r], dense, 20, false, &n);
			struct ir_receiver_config cfg = { .sample_rate = rates[r], .channels = 1 };
			struct ir_receiver *rx;
			double t0, el;
			int reps = 10;

			ir_receiver_new(&cfg, count_frame, NULL, &rx);
			t0 = now_s();
			for (int k = 0; k < reps; k++)
				process_all(rx, s, n);
			el = now_s() - t0;
			printf("  %6u Hz %-9s %7.0fx real time (%.1f ns per sample)\n", rates[r],
			       dense ? "IR-dense" : "silence", (double)n * reps / rates[r] / el,
			       el * 1e9 / ((double)n * reps));
			ir_receiver_free(rx);
			free(s);
		}
	}
}

static void bench_latency(void)
{
	static const char *const protocols[] = { "nec",    "jvc",    "sharp", "rc6_0",  "rc6_mce",
						 "xmp",    "rcmm32", "sony12", "rc5",    "sanyo",
						 "mce_kbd", "rcmm12" };

	printf("Latency: audio time from a frame's last edge to its report (48 kHz, worst of %u "
	       "frames)\n",
	       frames_per_point / 4);
	for (size_t p = 0; p < sizeof(protocols) / sizeof(protocols[0]); p++) {
		struct audio_trial t = { .frames = frames_per_point / 4, .block = 1, .seed = p };
		struct audio_result r;

		ir_protocol_from_name(protocols[p], &t.protocol);
		ir_channel_config_default(&t.channel);
		t.channel.snr_db = 30;
		t.channel.ac_tau_ms = 5;
		audio_trial_run(&t, &r);
		printf("  %-8s %6.0f us (%.1f samples)  [%u/%u frames]\n", protocols[p],
		       r.max_latency_us, r.max_latency_us * 48000 / 1e6, r.matched, r.sent);
	}
}

/* For callgrind: process N seconds, nothing else worth counting. */
static void run_only(int dense, double seconds, unsigned rate, bool photodiode)
{
	size_t n;
	float *s = render(rate, dense, seconds, photodiode, &n);
	struct ir_receiver_config cfg = { .sample_rate = rate, .channels = 1 };
	struct ir_receiver *rx;

	ir_receiver_new(&cfg, count_frame, NULL, &rx);
	process_all(rx, s, n);
	ir_receiver_free(rx);
	free(s);
	printf("processed %zu samples\n", n);
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "all";

	if (!strcmp(what, "limit") || !strcmp(what, "photodiode"))
		return bench_limit_main(argc, argv, what[0] == 'p');
	if (!strcmp(what, "coldstart"))
		return bench_coldstart_main(argc, argv);
	for (int i = 2; i + 1 < argc; i++)
		if (strcmp(argv[i], "--frames") == 0)
			frames_per_point = (unsigned)atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--seconds") == 0)
			false_seconds = (unsigned)atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--rate") == 0)
			false_rate = (unsigned)atoi(argv[i + 1]);
	if (strcmp(what, "silence") == 0 || strcmp(what, "dense") == 0) {
		run_only(what[0] == 'd', argc > 2 ? atof(argv[2]) : 10,
			 argc > 3 ? (unsigned)atoi(argv[3]) : 48000,
			 argc > 4 && strcmp(argv[4], "photodiode") == 0);
		return 0;
	}
	if (!strcmp(what, "snr") || !strcmp(what, "all"))
		bench_snr();
	if (!strcmp(what, "false") || !strcmp(what, "all"))
		bench_false();
	if (!strcmp(what, "throughput") || !strcmp(what, "all"))
		bench_throughput();
	if (!strcmp(what, "latency") || !strcmp(what, "all"))
		bench_latency();
	return 0;
}
