/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RC-MM through the whole receiver at README SNR 6 dB (step = 4σ of the
 * per-sample noise), 48 kHz, AC coupling τ 5 ms: its 167 µs pulses are
 * more than the wide band can hold at this SNR, and its 417 µs header ends
 * inside the weak path's 400 µs acquisition, so before the sequence
 * detector learnt RC-MM (dsp/ir_seqdet.c: the acquisition replayed,
 * ir_seqdet_short_first, edges placed to the sample) bench_audio limit
 * decoded 1 % of rcmm32 frames there.  Frames are random codes from the
 * encoders through ir_channel_sim (noise, hum 2 %, either polarity); one
 * counts when the receiver reports its protocol, code and time (the
 * harness's truth).  The bars sit under what these trials measured (in
 * the comments) and far over what the receiver got before (0-4 %).
 * rcmm32 at 2 and 4 dB, and the lookback ring that places its start
 * (dsp/ir_lookback.h), have tests of their own below.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "audio_harness.h"
#include "ir_lookback.h"
#include "ir_decoder.h"
#include "ir_edge.h"
#include "ir_protocol.h"
#include "ir_seqdet_rcmm.h"

/* Percent of `frames` random frames of `name` decoded; false frames are
 * added to *false_frames. */
static double rcmm_trial(const char *name, unsigned rate, double tau_ms, double snr,
			 unsigned frames, uint64_t seed, unsigned *false_frames)
{
	struct audio_result r;

	assert_int_equal(audio_trial_module(name, rate, tau_ms, snr, frames, seed, 0, 0, &r), 0);
	assert_true(r.sent > 0);
	*false_frames += r.false_frames;
	return 100.0 * r.matched / r.sent;
}

/* rcmm32 at 0 dB under a 1 ms coupling, 40 frames at 44.1 and 48 kHz
 * for each of three seeds from first_seed: the mean % of frames (the
 * wrong codes are added to *false_frames). */
static double rcmm32_0_db_1_ms_mean(uint64_t first_seed, unsigned *false_frames)
{
	static const unsigned rates[] = { 44100, 48000 };
	double mean = 0;

	for (size_t r = 0; r < sizeof(rates) / sizeof(rates[0]); r++)
		for (uint64_t seed = first_seed; seed < first_seed + 3; seed++) {
			double v = rcmm_trial("rcmm32", rates[r], 1, 0, 40, seed, false_frames);

			printf("0 dB, %g kHz, tau 1 ms, seed %llu: rcmm32 %.1f %% of frames\n",
			       rates[r] / 1000.0, (unsigned long long)seed, v);
			mean += v / 6;
		}
	printf("mean %.1f %%, false frames %u\n", mean, *false_frames);
	return mean;
}

static void test_rcmm_decodes_at_6_db(void **state)
{
	static const char *const names[] = { "rcmm12", "rcmm24", "rcmm32" };
	unsigned false_frames = 0, trials = 0;

	(void)state;
	for (size_t p = 0; p < sizeof(names) / sizeof(names[0]); p++) {
		double mean = 0;
		unsigned good = 0;

		for (uint64_t seed = 30; seed < 34; seed++) {
			double v = rcmm_trial(names[p], 48000, 5, 6, 40, seed, &false_frames);

			printf("6 dB, 48 kHz, tau 5 ms, seed %llu: %s %.1f %% of frames\n",
			       (unsigned long long)seed, names[p], v);
			mean += v / 4;
			good += v >= 85;
			trials++;
		}
		/* Measured: rcmm12 97.5/97.5/25/90, rcmm24 87.5/85/27.5/95,
		 * rcmm32 97.5/97.5/50/97.5 (0 % each before).  Seed 32's
		 * stream is lost to the start, not to the detector: the wide
		 * band's cold start takes its first frame, settles on a
		 * narrow band, and the weak trigger is never armed again:
		 * most of its frames never reach the detector. */
		assert_true(good >= 3);
		assert_true(mean >= 70);
	}
	/* (a stream's first frame is the wide band's cold start, which may
	 * make an iMON frame of an RC-MM header: at most that one per
	 * stream) */
	assert_true(false_frames <= trials);
}

/* rcmm32 below 6 dB, 48 kHz: under a 1 ms coupling at 4 dB the header's
 * start was placed 50-170 µs early from the weak band's rise (its period
 * out of RC-MM's ±83 µs), and at 2 dB one 167 µs bit pulse in ~50 fell
 * under its edges' cost, the two spaces around it decided as one (the
 * lookback ring's change point and the RC-MM family's cost for runs RC-MM
 * never has; dsp/ir_lookback.h, dsp/ir_seqdet.c). */
static void test_rcmm32_decodes_at_2_and_4_db(void **state)
{
	static const struct {
		double tau_ms, snr;
	} cells[] = { { 1, 4 }, { 5, 2 } };
	unsigned false_frames = 0;
	double mean[2] = { 0, 0 };

	(void)state;
	for (size_t c = 0; c < sizeof(cells) / sizeof(cells[0]); c++) {
		for (uint64_t seed = 40; seed < 44; seed++) {
			double v = rcmm_trial("rcmm32", 48000, cells[c].tau_ms, cells[c].snr, 40, seed,
					      &false_frames);

			printf("%g dB, 48 kHz, tau %g ms, seed %llu: rcmm32 %.1f %% of frames\n",
			       cells[c].snr, cells[c].tau_ms, (unsigned long long)seed, v);
			mean[c] += v / 4;
		}
		printf("mean %.1f %%\n", mean[c]);
	}
	printf("false frames %u\n", false_frames);
	/* Measured with RC-MM's symbol detector (ir_rcmm_symbols,
	 * dsp/ir_seqdet_rcmm.c): 4 dB 97.5 × 4 (mean 97.5), 2 dB 90.0,
	 * 4 false frames; before it (the rises timed
	 * on the grid, gaps mended) 4 dB 95/95/97.5/97.5 (96.2), 2 dB
	 * 85/82.5/87.5/65 (80.0), 4 false frames; before the grid 92.5 and
	 * 70.6, 8 false frames; before RC-MM's edge cost and bit-pulse limit
	 * 4 dB 86.9 and 2 dB 57.5 (and before the lookback start and the
	 * long-run costs 66.2 and 36.2). */
	assert_true(mean[0] >= 94);
	assert_true(mean[1] >= 86);
	assert_true(false_frames <= 20);
}

/* rcmm32 at `rate`, `snr_db`, DC and τ 5 ms, seeds seed0..seed0+3, 40
 * frames each: the mean % of frames; the worst trial's in *worst, the
 * false frames added to *false_frames. */
static double rcmm32_dc_and_5_ms(unsigned rate, double snr_db, uint64_t seed0, unsigned *false_frames,
				 double *worst)
{
	static const double taus[] = { 0, 5 };
	double mean = 0;

	*worst = 100;
	for (size_t k = 0; k < sizeof(taus) / sizeof(taus[0]); k++)
		for (uint64_t seed = seed0; seed < seed0 + 4; seed++) {
			double v = rcmm_trial("rcmm32", rate, taus[k], snr_db, 40, seed, false_frames);

			printf("%g dB, %g kHz, tau %g ms, seed %llu: rcmm32 %.1f %% of frames\n", snr_db,
			       rate / 1000.0, taus[k], (unsigned long long)seed, v);
			mean += v / 8;
			*worst = v < *worst ? v : *worst;
		}
	printf("mean %.1f %%, worst %.1f %%, false frames %u\n", mean, *worst, *false_frames);
	return mean;
}

/* rcmm32 at 96 kHz, 6 dB: the wide band takes it there (on the 40 µs
 * band), and a 167 µs bit pulse never settles on it: the end of one read
 * as too slow for an edge, was followed as the coupling's droop, and the
 * line stayed lit for MAX_PULSE_US (60 ms), the frame lost (see
 * demod_cand_young in dsp/ir_demod_line.c). */
static void test_rcmm32_at_96_khz_6_db(void **state)
{
	unsigned false_frames = 0;
	double worst, mean;

	(void)state;
	mean = rcmm32_dc_and_5_ms(96000, 6, 50, &false_frames, &worst);
	/* Measured: 100 % in all 8 trials; before, 95/97.5/97.5/95 (DC) and
	 * 100/97.5/97.5/92.5 (τ 5 ms): mean 96.6, worst 92.5. */
	assert_true(mean >= 99);
	assert_true(worst >= 97.5);
	assert_true(false_frames <= 2);
}

/* rcmm32 at 0 dB, 48 kHz (a 167 µs bit pulse is 8 samples at 2 σ): the
 * sequence detector's blocks (62.5 µs here) put each rise a block either
 * way, and the periods told were off their symbol's by 39 µs rms, many
 * by more than the decoder's ±83 µs; timed together on RC-MM's grid, a
 * gap mended with a bit pulse, a missed pulse between two 00 symbols
 * still read as a 11 and a pulse the blocks lost still lost the frame.
 * After the header the frame is now read symbol by symbol (a Viterbi over
 * the rises, each a symbol's period after the one before, scored on the
 * samples: ir_rcmm_symbols in dsp/ir_seqdet_rcmm.c), and a symbol it
 * cannot tell from another fails the frame rather than give a wrong
 * code. */
static void test_rcmm32_on_its_grid_at_0_db(void **state)
{
	unsigned false_frames = 0;
	double worst, mean;

	(void)state;
	mean = rcmm32_dc_and_5_ms(48000, 0, 60, &false_frames, &worst);
	/* Measured: mean 62.2 % (worst trial 50), 9 false frames (wrong
	 * codes) of 320; with the grid's retiming
	 * alone (before) DC 40/42.5/42.5/45, τ 5 ms 32.5/37.5/27.5/20 (mean
	 * 35.9), 21 wrong codes (a count whose Poisson scatter is ±4.5 at
	 * 20); before the grid 20.9 % and 30. */
	assert_true(mean >= 50);
	assert_true(false_frames <= 16);
}

/* rcmm32 at 0 dB under a 1 ms coupling, 44.1 and 48 kHz: the weak
 * trigger fires 200-340 µs into the 417 µs header, and the header's
 * undershoot after its fall hid it from ir_seqdet_short_first: frames
 * with no start at all, or a start 120-200 µs early on a step a quarter
 * to half the true one, out of the decoder's ±83 µs header period
 * (dsp/ir_seqdet.c: SHORT_FIRST_LIT_PART, SHORT_FIRST_UNDERSHOOT). */
static void test_rcmm32_0_db_1_ms_coupling(void **state)
{
	unsigned false_frames = 0;
	double mean;

	(void)state;
	mean = rcmm32_0_db_1_ms_mean(70, &false_frames);
	/* Measured: 37.5/42.5/50 % (44.1 kHz), 50/62.5/45 (48 kHz), mean
	 * 47.9, 5 false frames (wrong codes) of 240; before (main df5d780)
	 * 25/35/35 and 42.5/42.5/35, mean 35.8, 9 false frames. */
	assert_true(mean >= 42);
	assert_true(false_frames <= 12);
}

/* rcmm32 at 0 dB under a 1 ms coupling, 48 kHz, 16 trials: frames whose
 * header the trigger missed start mid-frame, and the general family's
 * path may then lose the line and tell ~9.5 ms pulses for 100-450 ms,
 * deaf to the frames in them (21 such runs in these trials); a run that
 * tells a frame's second pulse of 7 ms or more now stops
 * (dsp/ir_seqdet.c: RUNAWAY_PULSE_US). */
static void test_rcmm32_runaway_runs_stop(void **state)
{
	unsigned false_frames = 0;
	double mean = 0;

	(void)state;
	for (uint64_t seed = 70; seed < 86; seed++)
		mean += rcmm_trial("rcmm32", 48000, 1, 0, 40, seed, &false_frames) / 16;
	printf("0 dB, 48 kHz, tau 1 ms, seeds 70-85: rcmm32 %.1f %% of frames, false frames %u\n",
	       mean, false_frames);
	/* Measured (Debug): 55.8 %, 32 false frames (wrong codes) of 640;
	 * without the stop (main 2b74333) 54.5 %, 34: 357 frames against
	 * 349, the bar between.  (The other trials of this file: 2 dB
	 * 90.0 -> 92.5 %, on the grid 70.3 -> 70.6, 0 dB τ 1 ms
	 * 49.6 -> 50.0.)  With the weak trigger from the baseline as well
	 * (stop 40's merge) 59.2 %, 39: more frames told, wrong codes in
	 * the same share of them (RC-MM has no check bits: at 0 dB a frame
	 * told is wrong 8-10 % of the time; main 8.9 %, now 9.3 %). */
	double told = mean * 640 / 100 + false_frames;

	assert_true(mean >= 55.2);
	assert_true(false_frames <= 0.10 * told);
}

/* rcmm32 at 0 dB under a 1 ms coupling, 44.1 and 48 kHz, seeds of their
 * own: starts where the trigger fired 80-130 µs into the header and its
 * fall came in the acquisition's last samples were placed 100-230 µs
 * early (the weak band's rise with the acquisition's mean, dark samples
 * and all, for the step), off the decoder's ±83 µs header period: 20 of
 * 57 lost frames in bench_audio limit's cell at 44.1 kHz.  They are now
 * placed by a fit of the drooped header and its fall
 * (dsp/ir_demod_weak.c: PULSE_FALL_NATS). */
static void test_rcmm32_header_fall_places_the_start(void **state)
{
	unsigned false_frames = 0;
	double mean;

	(void)state;
	mean = rcmm32_0_db_1_ms_mean(90, &false_frames);
	/* Measured (Debug): 67.5/52.5/70 % (44.1 kHz), 70/65/52.5 (48 kHz),
	 * mean 62.9, 3 false frames (wrong codes) of 240; before (main
	 * eecf364) 57.5/47.5/60 and 70/57.5/50, mean 57.1, 11 false frames.
	 * (The other trials of this file, main -> now: 0 dB τ 1 ms seeds
	 * 70-72 53.8 -> 62.5 %, 8 -> 5 false; seeds 70-85 59.2 -> 68.6 %,
	 * 39 -> 8; on the grid at 0 dB 70.0 -> 79.7 %, 12 -> 4; 2 dB
	 * 94.4 -> 95.6 %.) */
	assert_true(mean >= 60);
	assert_true(false_frames <= 8);
}

/* A uniform in (0, 1) and a unit normal from a 64-bit LCG. */
static double unit_uniform(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return ((double)(*s >> 11) + 0.5) / 9007199254740992.0;
}

static double unit_normal(uint64_t *s)
{
	double u = unit_uniform(s), v = unit_uniform(s);

	return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

/* ir_lookback: a step from dark (b) to lit (b + dir·a) in white noise at
 * the 2 dB of the test above (a = 2.52 σ), stored through the idle path's
 * fill (in runs that wrap the ring) and the per-sample put, is placed
 * where it is: the change point is the first lit sample. */
static void test_lookback_places_the_step(void **state)
{
	struct ir_lookback lb;
	uint64_t rng = 7;
	unsigned within1 = 0, within3 = 0, trials = 400;
	float run[100];

	(void)state;
	assert_int_equal(ir_lookback_init(&lb, 1000, 1e6 / 48000), 0);
	assert_true(lb.mask + 1 >= 48);
	for (unsigned t = 0; t < trials; t++) {
		int dir = t & 1 ? -1 : 1;
		double b = 0.05 * (double)(t % 7), a = 0.5, sigma = a / 2.52;
		uint64_t base = 1000 + (uint64_t)t * 137, step = base + 104 - t % 20, m;

		/* 100 samples through fill (the idle path), 20 more through
		 * put (the full path); the trigger at base + 120 */
		for (unsigned i = 0; i < 100; i++)
			run[i] = (float)(b + (base + i >= step ? dir * a : 0) + sigma * unit_normal(&rng));
		ir_lookback_fill(&lb, base + 100, run, 100, 1);
		for (uint64_t i = base + 100; i < base + 120; i++)
			ir_lookback_put(&lb, i, (float)(b + dir * a + sigma * unit_normal(&rng)));
		m = ir_lookback_rise(&lb, base + 120, 40, b, dir, a);
		within1 += m + 1 >= step && m <= step + 1;
		within3 += m + 3 >= step && m <= step + 3;
	}
	printf("change point within 1 sample: %u of %u, within 3: %u\n", within1, trials, within3);
	/* Measured 325 and 379 of 400 (a change point at 2.5 σ per sample
	 * is not sharper); returning the trigger, or a start 5 samples early
	 * (the rise's old bias), meets neither bar. */
	assert_true(within1 >= trials * 3 / 4);
	assert_true(within3 >= trials * 9 / 10);
	/* nothing before a reset is searched */
	ir_lookback_forget(&lb, 200000);
	for (uint64_t i = 199990; i < 200010; i++)
		ir_lookback_put(&lb, i, 1.0f);
	assert_int_equal(ir_lookback_rise(&lb, 200010, 40, 0, 1, 1), 200000);
	ir_lookback_free(&lb);
}

/* A pulse of RC-MM's header (417 µs) through a 1 ms coupling at 0 dB
 * (a = 2σ), 44.1 kHz: lit from `rise`, drooping as a·w^(j - rise), then
 * the undershoot a·(w^(j - rise) - w^(j - fall)); `lit_to_stop` keeps it
 * lit past the samples (a long first pulse). */
static void droop_pulse(struct ir_lookback *lb, uint64_t from, uint64_t stop, uint64_t rise,
			uint64_t fall, double w, double b, int dir, double sigma, uint64_t *rng)
{
	for (uint64_t j = from; j < stop; j++) {
		double v = j < rise ? 0 : j < fall ? pow(w, (double)(j - rise))
						   : pow(w, (double)(j - rise)) - pow(w, (double)(j - fall));

		ir_lookback_put(lb, j, (float)(b + dir * (0.5 * v + sigma * unit_normal(rng))));
	}
}

/* ir_lookback_pulse_fit: the weak trigger fires 80-130 µs into the
 * header, and the 400 µs acquisition after it holds the header's fall and
 * 4-6 dark samples.  The fit of the drooped pulse and its fall places the
 * rise where it is; the constant-level change point with the acquisition's
 * mean for a level (what the start had: dsp/ir_demod_weak.c, weak_t0 and
 * ir_lookback_rise) placed it 100-230 µs early, off RC-MM's ±83 µs header
 * period.  A pulse still lit at the end (any other protocol's first
 * pulse) is not taken for one that fell (PULSE_FALL_NATS, 2). */
static void test_pulse_fit_places_the_header(void **state)
{
	const double us = 1e6 / 44100, w = exp(-us / 1000), sigma = 0.25;
	const double taus[] = { 0, 30000, 10000, 5000, 3000, 2000, 1400, 1000, 700 };
	double ws[9];
	struct ir_lookback lb;
	uint64_t rng = 11;
	unsigned trials = 300, near = 0, near_mean = 0, fell = 0, fell_long = 0;

	(void)state;
	for (unsigned h = 0; h < 9; h++)
		ws[h] = taus[h] > 0 ? exp(-us / taus[h]) : 1;
	assert_int_equal(ir_lookback_init(&lb, 1000, us), 0);
	for (unsigned t = 0; t < trials; t++) {
		int dir = t & 1 ? -1 : 1;
		double b = 0.03 * (double)(t % 5), mean = 0;
		uint64_t base = 1000 + (uint64_t)t * 211, rise = base + 30 + t % 3;
		uint64_t fall = rise + 18, end = rise + 4 + t % 3, stop = end + 18;
		struct ir_lookback_pulse p;

		droop_pulse(&lb, base, stop, rise, fall, w, b, dir, sigma, &rng);
		ir_lookback_pulse_fit(&lb, end, 22, stop, b, dir, ws, 9, &p);
		fell += p.gain - p.gain_lit >= 2 * 2 * sigma * sigma;
		near += p.rise + 3 >= rise && p.rise <= rise + 3;
		for (uint64_t j = end; j < stop; j++)
			mean += dir * ((double)lb.x[j & lb.mask] - b) / (double)(stop - end);
		uint64_t m = ir_lookback_rise(&lb, end, 22, b, dir, mean > 0.05 ? mean : 0.05);

		near_mean += m + 3 >= rise && m <= rise + 3;
		/* the same pulse still lit at stop */
		droop_pulse(&lb, base + 100, base + 100 + (stop - base), rise + 100, stop + 200, w, b, dir,
			    sigma, &rng);
		ir_lookback_pulse_fit(&lb, end + 100, 22, stop + 100, b, dir, ws, 9, &p);
		fell_long += p.gain - p.gain_lit >= 2 * 2 * sigma * sigma;
	}
	printf("rise within 3 samples (68 us): fit %u, constant level at the mean %u of %u; fell %u, "
	       "fell while lit %u\n", near, near_mean, trials, fell, fell_long);
	/* Measured: 286 of 300 within 3 samples (the constant level at the
	 * acquisition's mean 246), 289 fell, 15 of the lit ones "fell". */
	assert_true(near >= trials * 9 / 10);
	assert_true(fell >= trials / 2);
	assert_true(fell_long <= trials / 10);
	ir_lookback_free(&lb);
}

struct got_frames {
	unsigned n;
	struct ir_frame last;
};

static void got_frame(void *userdata, const struct ir_frame *f)
{
	struct got_frames *g = userdata;

	g->n++;
	g->last = *f;
}

/* ir_rcmm_symbols on a window of restored samples (step 1, 48 kHz): a
 * header's rise at sample 100, its fall told, then 16 symbols and the
 * stop pulse, each bit pulse 8 samples lit.  The second bit pulse, between
 * two 00 symbols, is half as high: without noise its samples fit a pulse
 * no better than darkness (the trellis decided its two spaces as one,
 * 888 µs, and read them as a 11, 944 µs, within ±83, never mended).  Read
 * symbol by symbol it is a weak pulse at its place: every rise comes
 * back within two samples, without noise and mostly at 0 dB (σ 0.5); on
 * noise alone the detector finds no frame, and a tone whose crests sit on
 * the grid is never a frame it is sure of. */
static void rcmm_symbols_window(double *x, unsigned n_x, double sigma, uint64_t seed, double *truth,
				bool pulses)
{
	static const int symbols[16] = { 0, 0, 0, 1, 2, 3, 3, 2, 1, 0, 2, 0, 1, 3, 0, 0 };
	double us = 1e6 / 48000, t = 100 * us + 694.5;
	uint64_t s = seed;

	for (unsigned i = 0; i < n_x; i++)
		x[i] = sigma > 0 ? sigma * unit_normal(&s) : 0;
	for (unsigned k = 0; k < 17; k++) {
		unsigned r = (unsigned)lround(t / us);

		truth[k] = r;
		for (unsigned i = r; i < r + 8 && pulses; i++)
			x[i] += k == 1 ? 0.5 : 1;
		if (k < 16)
			t += 444.4 + 166.7 * symbols[k];
	}
}

static unsigned rcmm_symbols_read(const double *x, unsigned n_x, double sigma, double *rise, double *margin)
{
	static double cum[1201], v[1201], b[1201];
	static int32_t back[1201];
	static uint8_t count[1201];
	struct ir_rcmm_scratch sc = { .cum = cum, .v = v, .b = b, .back = back, .count = count };
	struct ir_rcmm w = { .us = 1e6 / 48000, .a = 1, .noise2 = sigma > 0 ? sigma * sigma : 0.25,
			     .s0 = 0, .n_x = n_x, .x = x, .from = 0, .prev_rise = 100, .fall0 = 120 };

	return ir_rcmm_symbols(&w, 1, &sc, rise, margin);
}

static void test_rcmm_symbols_find_a_missed_pulse(void **state)
{
	static double x[1200];
	double truth[17], rise[IR_RCMM_PLAN_MAX], margin[IR_RCMM_PLAN_MAX];
	unsigned right = 0, wrong_sure = 0, noise_rises = 0, tone_sure = 0;

	(void)state;
	for (uint64_t seed = 0; seed < 21; seed++) {
		double sigma = seed == 0 ? 0 : 0.5;
		unsigned n, ok = 0, sure = 0;

		rcmm_symbols_window(x, 1200, sigma, seed, truth, true);
		n = rcmm_symbols_read(x, 1200, sigma, rise, margin);
		for (unsigned k = 0; k < n && k < 17; k++) {
			ok += fabs(rise[k] - truth[k]) <= 2;
			sure += margin[k] >= 4;
		}
		printf("seed %llu: %u rises, %u right, %u sure\n", (unsigned long long)seed, n, ok, sure);
		if (seed == 0)
			assert_true(n == 17 && ok == 17 && sure == 17);
		right += n == 17 && ok == 17;
		wrong_sure += (n != 17 || ok < 17) && sure == n;
		rcmm_symbols_window(x, 1200, 0.5, seed + 100, truth, false);
		noise_rises += rcmm_symbols_read(x, 1200, 0.5, rise, margin);
		/* a 2.25 kHz tone (crests 444 µs apart: symbol 00's period)
		 * as high as a step, with the noise */
		for (unsigned i = 0; i < 1200; i++)
			x[i] += cos(6.283185307179586 * 2250 * (i - 133) / 48000.0);
		n = rcmm_symbols_read(x, 1200, 0.5, rise, margin);
		sure = 0;
		for (unsigned k = 0; k < n; k++)
			sure += margin[k] >= 4;
		tone_sure += n > 0 && sure == n;
	}
	printf("0 dB: %u of 21 read right, %u wrong and sure; noise alone: %u rises; a tone read as a "
	       "sure frame %u times\n", right, wrong_sure, noise_rises, tone_sure);
	/* Measured: 15 right (within 2 samples, 42 µs; 2 of them refused
	 * for a margin under 4 nats), 4 refused, 2 wrong and sure (the weak
	 * pulse skipped, its 888 µs read as a 11 with the first rise 2
	 * samples early and a rise added at the end: a period known only to
	 * ±45 µs lets it; see the notes' drift states); no rise on noise;
	 * the tone never a sure frame (its troughs fill the spaces), 3 of
	 * 21 without the spaces' check. */
	assert_true(right >= 13);
	assert_true(wrong_sure <= 3);
	assert_true(noise_rises <= 2);
	assert_int_equal(tone_sure, 0);
}

/* Frames decoded from `lead` (edges before the frame) and an rcmm32 frame
 * of `scancode`, then a timeout. */
static unsigned decode_after(const struct ir_edge *lead, size_t n_lead, uint64_t scancode,
			     struct got_frames *g)
{
	struct ir_edge_buf edges = { 0 };
	struct ir_protocol_set set;
	struct ir_decoder *dec;
	struct ir_encode_opts o = { 0 };

	for (size_t i = 0; i < n_lead; i++)
		assert_int_equal(ir_edge_buf_push(&edges, lead[i]), 0);
	assert_int_equal(ir_encode(IR_PROTO_RCMM32, scancode, &o, &edges), 0);
	assert_int_equal(ir_edge_buf_push(&edges, (struct ir_edge){ .duration = 125000,
								    .kind = IR_TIMEOUT }),
			 0);
	ir_protocol_set_clear(&set);
	ir_protocol_set_add(&set, IR_PROTO_RCMM32);
	memset(g, 0, sizeof(*g));
	assert_int_equal(ir_decoder_new(&set, got_frame, g, &dec), 0);
	assert_int_equal(ir_decoder_feed_many(dec, edges.edges, edges.len), 0);
	ir_decoder_flush(dec);
	ir_decoder_free(dec);
	ir_edge_buf_free(&edges);
	return g->n;
}

/* The receiver reports a gap as a timeout and then what is left of it: a
 * frame that starts 157 µs after the timeout is preceded by darkness all
 * the same.  The decoder refused its header as "not idle" (the misses of
 * 1-2 rcmm32 frames in 100 at 20 and 30 dB, bench_audio limit, all of
 * this kind).  A short space after a pulse still does not make a header
 * (RCMM_IDLE_SPACE: MCE keyboard frames). */
static void test_rcmm_header_right_after_timeout(void **state)
{
	const struct ir_edge after_timeout[] = {
		{ .duration = 10000, .kind = IR_SPACE },
		{ .duration = 125000, .kind = IR_TIMEOUT },
		{ .duration = 157, .kind = IR_SPACE },
	};
	const struct ir_edge after_pulse[] = {
		{ .duration = 10000, .kind = IR_SPACE },
		{ .duration = 125000, .kind = IR_TIMEOUT },
		{ .duration = 3000, .kind = IR_SPACE },
		{ .duration = 333, .kind = IR_PULSE },
		{ .duration = 500, .kind = IR_SPACE },
	};
	struct got_frames g;

	(void)state;
	assert_int_equal(decode_after(after_timeout, 3, 0x12345678, &g), 1);
	assert_int_equal(g.last.protocol, IR_PROTO_RCMM32);
	assert_int_equal(g.last.scancode, 0x12345678 & ~0x8000u);
	assert_int_equal(decode_after(after_pulse, 5, 0x12345678, &g), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rcmm_header_right_after_timeout),
		cmocka_unit_test(test_rcmm_symbols_find_a_missed_pulse),
		cmocka_unit_test(test_rcmm_decodes_at_6_db),
		cmocka_unit_test(test_rcmm32_decodes_at_2_and_4_db),
		cmocka_unit_test(test_lookback_places_the_step),
		cmocka_unit_test(test_pulse_fit_places_the_header),
		cmocka_unit_test(test_rcmm32_at_96_khz_6_db),
		cmocka_unit_test(test_rcmm32_on_its_grid_at_0_db),
		cmocka_unit_test(test_rcmm32_0_db_1_ms_coupling),
		cmocka_unit_test(test_rcmm32_runaway_runs_stop),
		cmocka_unit_test(test_rcmm32_header_fall_places_the_start),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
