/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Weak signals (dsp/ir_demod_weak.c, WEAK_BAND_US): at README SNR 0 dB (step =
 * 2σ of the per-sample noise) no threshold on the wide band sees a step
 * reliably, so before the weak detector a 44.1/48 kHz recording decoded few
 * frames (bench_audio limit, mean of 4 protocols × 3 couplings: 2 % and
 * 5 %).  The weak detector integrates over a unit and decides against the
 * middle of the learnt levels.  The bar here is set under what it measures
 * and over what the wide band alone gets, so that it fails if the weak path
 * stops starting frames (these trials: 58 % at 48 kHz and 36.5 % at
 * 44.1 kHz with it, 44.5 % and 25.5 % before it); the figures themselves
 * are the bench's.  And it must not invent frames: white noise at the level
 * of a weak signal's noise gives none.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "audio_harness.h"
#include "ir_protocol.h"
#include "ir_decoder.h"
#include "ir_receiver.h"

/* One trial of `frames` random frames, receiver module, random polarity by
 * seed, hum 2 % as in bench_audio limit; returns the success in percent. */
static double weak_trial(const char *name, unsigned rate, double tau_ms, double snr,
			 unsigned frames, uint64_t seed, unsigned *false_frames)
{
	struct audio_result r;

	assert_int_equal(audio_trial_module(name, rate, tau_ms, snr, frames, seed, 0, 0, &r), 0);
	assert_true(r.sent > 0);
	*false_frames += r.false_frames;
	return 100.0 * r.matched / r.sent;
}

static void test_weak_frames_decode_at_0_db(void **state)
{
	unsigned false_frames = 0;
	double rc5_48 = 0, rc5_44 = 0;

	(void)state;
	/* one trial's success varies widely (a step learnt wrong costs a run of
	 * frames): five trials per rate, either polarity */
	for (uint64_t seed = 12; seed < 17; seed++) {
		rc5_48 += weak_trial("rc5", 48000, 5, 0, 40, seed, &false_frames) / 5;
		rc5_44 += weak_trial("rc5", 44100, 5, 0, 40, seed, &false_frames) / 5;
	}
	/* (RC-5 has no check bits: at 0 dB a frame with a wrong bit is told
	 * as another code, by any detector; not asserted here) */
	printf("0 dB, tau 5 ms: rc5 48 kHz %.1f %%, 44.1 kHz %.1f %%, wrong codes %u\n", rc5_48,
	       rc5_44, false_frames);
	assert_true(rc5_48 >= 52);
	assert_true(rc5_44 >= 32);
}

/* At 6 dB the wide band sees most steps and the weak band the rest: every
 * frame of a held key comes through, either polarity. */
static void test_weak_or_wide_at_6_db(void **state)
{
	unsigned false_frames = 0;

	(void)state;
	for (uint64_t seed = 20; seed < 22; seed++) {
		double nec = weak_trial("nec", 48000, 5, 6, 30, seed, &false_frames);
		double rc6 = weak_trial("rc6_0", 44100, 1, 6, 30, seed, &false_frames);

		printf("6 dB: nec 48 kHz tau 5 ms %.1f %%, rc6_0 44.1 kHz tau 1 ms %.1f %%\n", nec, rc6);
		assert_true(nec >= 95);
		assert_true(rc6 >= 90);
	}
	assert_int_equal(false_frames, 0);
}

/* Who starts a 0 dB frame at 48 kHz: the wide band decides such frames
 * badly.  It used to take every step measured over 4 σ of its fast band
 * (2.2 σ of the input, a 0 dB step being 2 σ: half of them), and to win
 * the race out of idle; and the weak trigger was turned off now and then
 * by its white-noise gate, whose estimate scatters at 0 dB.  Of the frames
 * lost, NEC DC 9 of 10 and JVC DC 18 of 23 were the wide band's starts.
 * Now a step under 6 σ of the fast band is the detector's, out of idle
 * too, and the gate is at 0.4.  These trials: NEC 54.4 -> 84.4 %, JVC
 * 60.0 -> 83.3 %; the bars sit between (the figures are the bench's). */
static void test_weak_owns_0_db_starts(void **state)
{
	unsigned false_frames = 0;
	double nec = 0, jvc = 0;

	(void)state;
	for (uint64_t seed = 30; seed < 33; seed++) {
		nec += weak_trial("nec", 48000, 0, 0, 30, seed, &false_frames) / 3;
		jvc += weak_trial("jvc", 48000, 0, 0, 30, seed, &false_frames) / 3;
	}
	printf("0 dB, DC, 48 kHz: nec %.1f %%, jvc %.1f %%, wrong codes %u\n", nec, jvc, false_frames);
	assert_true(nec >= 72);
	assert_true(jvc >= 72);
}

/* 16 kHz, 6 dB (step 4 σ of the input; 62.5 µs samples, the fast band
 * nearly the input itself): the rules for who starts a weak frame were
 * those of 32 kHz and up only in part.  The fast band's 4 σ hand-over
 * (3.7 σ of the input) gave half the steps to the wide band, which decides
 * them badly; and the white-noise gate at 0.5 turned the weak trigger off
 * at random (its two noise estimates scatter more at 16 kHz: fewer samples
 * in NOISE_US), after which the wide band took every frame of the stream.
 * Now the hand-over and the race rule are in σ of the fast band at every
 * rate, and the gate follows the estimates' scatter (weak_white_for).
 * NEC, RC-6 and JVC, τ 5 ms and DC, 3 seeds × 30 frames: 53.1 % and a
 * false frame before, 89.8 % and none now; the bar sits between. */
static void test_16_khz_6_db(void **state)
{
	static const char *const names[] = { "nec", "rc6_0", "jvc" };
	static const double taus[] = { 5, 0 };
	unsigned false_frames = 0;
	double sum = 0;

	(void)state;
	for (size_t i = 0; i < 3; i++)
		for (size_t k = 0; k < 2; k++)
			for (uint64_t seed = 40; seed < 43; seed++) {
				double p = weak_trial(names[i], 16000, taus[k], 6, 30, seed, &false_frames);

				printf("16 kHz 6 dB %s tau %g ms seed %u: %.1f %%\n", names[i], taus[k],
				       (unsigned)seed, p);
				sum += p / 18;
			}
	printf("16 kHz 6 dB mean %.1f %%, false frames %u\n", sum, false_frames);
	assert_true(sum >= 80);
	assert_int_equal(false_frames, 0);
}

/* NEC, RC-6, Sony 12 and JVC at 16 kHz under a 1 ms coupling, `snr_db`,
 * seeds seed0..seed0+2, 30 frames each: the mean % of frames; the false
 * frames added to *false_frames. */
static double mean_16_khz_1_ms(double snr_db, uint64_t seed0, unsigned *false_frames)
{
	static const char *const names[] = { "nec", "rc6_0", "sony12", "jvc" };
	double sum = 0;

	for (size_t i = 0; i < 4; i++)
		for (uint64_t seed = seed0; seed < seed0 + 3; seed++) {
			double p = weak_trial(names[i], 16000, 1, snr_db, 30, seed, false_frames);

			printf("16 kHz %g dB %s tau 1 ms seed %u: %.1f %%\n", snr_db, names[i], (unsigned)seed, p);
			sum += p / 12;
		}
	printf("16 kHz %g dB tau 1 ms mean %.1f %%, false frames %u\n", snr_db, sum, *false_frames);
	return sum;
}

/* 16 kHz under a 1 ms coupling (issue #18): a 62.5 µs sample made the
 * weak band (100 µs) average almost nothing, its trigger stood near a
 * drooped 6 dB step, the start it found was placed 0.5 ms early with a
 * step too high, and a 9 ms leader had drooped away before the sequence
 * detector's 6 ms start window ended, the start taken back.  The band is
 * now 2.8 sample periods at least, the rise to the trigger capped, and
 * the window 10 ms below 33 kHz.  NEC, RC-6, Sony 12 and JVC, 6 dB,
 * τ 1 ms, 3 seeds × 30 frames: 50.6 % and 4 false frames before, 84.4 %
 * and none after.  Then the fast rules from WEAK_LOW_FAST_RATE (see
 * test_16_khz_4_db_1_ms_coupling): 84.2 % before, 95.6 % now; the bar
 * sits between. */
static void test_16_khz_1_ms_coupling(void **state)
{
	unsigned false_frames = 0;

	(void)state;
	assert_true(mean_16_khz_1_ms(6, 50, &false_frames) >= 90);
	assert_int_equal(false_frames, 0);
}

/* 16 kHz, 4 dB under a 1 ms coupling (issue #18): the trigger there was
 * 6 σ of the weak band (1.8 σ of the input), above a 4 dB step (3.2 σ)
 * drooped for the band's rise, and the sequence detector chose its τ at
 * 10 ms.  The fast rules of 32 kHz and up (WEAK_TRIGGER_FAST) now apply
 * from WEAK_LOW_FAST_RATE: a 5 σ trigger after the stream's first edge
 * and a 3 σ refusal (the 10 ms choice kept).  NEC, RC-6, Sony 12 and JVC, 4 dB,
 * τ 1 ms, 3 seeds × 30 frames: 36.9 % before, 61.9 % now; the bar
 * sits between.  Three frames of JVC's seed 62 came out as other codes
 * before (Vincent, iMON, Sony 12: other protocols' decoders accepting a
 * frame decided wrong), two now: at most the three of before.  Then
 * 62.5 % (a9c442b, the grids' stretch) -> 63.9 % with the drooped-step
 * band (DROOP_BAND_US); the bar sits between.  (65.8 % with the
 * acquisition held to a 1 ms droop at 16 kHz too, WEAK_MIN_STEP_TAU_US,
 * which gave a false frame an hour on bench false's music.)  65.6 % ->
 * 73.3 % with the unit grid's edge cost (GRID_UNIT_FULL_SAMPLES), the
 * same three frames as other codes.  The other codes are a share of
 * the frames told, not a count: Sony 12 has no check bits and other
 * protocols' decoders accept a frame decided wrong, so more frames told
 * at 4 dB bring some more of them.  Three of 239 told when the bar was
 * set (1.3 %); main eecf364 86.1 % and two of 312 (0.6 %), the same with
 * the runaway stop at 16 kHz (RUNAWAY_PULSE_US), 86.4 % and one with the
 * costs on the fit's noise (NOISE_FIT_SAMPLES): at most 1 % of them. */
static void test_16_khz_4_db_1_ms_coupling(void **state)
{
	unsigned false_frames = 0;
	double mean = mean_16_khz_1_ms(4, 60, &false_frames);
	double told = mean * 360 / 100 + false_frames;

	(void)state;
	assert_true(mean >= 63);
	assert_true(false_frames <= 0.01 * told);
}

/* 16 kHz, 2 dB (issue #18): a unit pulse there is 7-10 samples (RC-6's
 * 444 µs to Sony's 600), ~22-32 nats of evidence, and the sequence
 * detector's two edges of EDGE_NATS each decided one of NEC's 34 pulses
 * dark about one time in 300 (a frame in ten); on the frame's grid its
 * edges now cost in proportion to the unit's samples under 16 a unit,
 * and a rise in the gap after the frame START_NATS (ir_seqdet.c,
 * GRID_UNIT_FULL_SAMPLES, GRID_GAP_NATS).  NEC, RC-6, Sony 12, JVC and
 * Sanyo under a 5 ms coupling and DC, bench_audio limit's channel at
 * `snr_db`, `seed`, 30 frames each: the mean % of frames; the frames
 * decoded as other codes added to *false_frames. */
static double mean_16_khz_units(double snr_db, uint64_t seed, unsigned *false_frames)
{
	static const enum ir_protocol protocols[] = { IR_PROTO_NEC, IR_PROTO_RC6_0, IR_PROTO_SONY12,
						      IR_PROTO_JVC, IR_PROTO_SANYO };
	static const double taus_ms[] = { 5, 0 };
	double sum = 0;
	unsigned n = 0;

	for (size_t i = 0; i < sizeof(protocols) / sizeof(protocols[0]); i++)
		for (size_t k = 0; k < 2; k++) {
			struct audio_result r;
			double p;

			assert_int_equal(audio_trial_limit_point(protocols[i], 16000, taus_ms[k], snr_db, 0, 30, seed, &r),
					 0);
			assert_true(r.sent > 0);
			*false_frames += r.false_frames;
			p = 100.0 * r.matched / r.sent;
			printf("16 kHz %g dB protocol %d tau %g ms: %.1f %%\n", snr_db, (int)protocols[i], taus_ms[k], p);
			sum += p;
			n++;
		}
	printf("16 kHz %g dB tau 5 ms/DC mean %.1f %%, false frames %u\n", snr_db, sum / n, *false_frames);
	return sum / n;
}

/* See mean_16_khz_units (2 dB, seed 70): 53.7 % before, 67.7 % now; the bar sits
 * between.  Two frames came out as other codes before (a Sony 12 and an
 * NEC32 frame: decided wrong, other decoders took them), two now (Sony
 * 12, RC-5): at most the two of before.  Then (main eecf364) 73.7 %
 * and one other code; 78.3 % and one with the runaway stop at 16 kHz
 * too (dsp/ir_seqdet.c, RUNAWAY_PULSE_US: a run that tells a frame's
 * second leader-length pulse has lost the line and stops, at every
 * rate now): the bar sits between. */
static void test_16_khz_2_db_unit_pulses(void **state)
{
	unsigned false_frames = 0;

	(void)state;
	assert_true(mean_16_khz_units(2, 70, &false_frames) >= 76);
	assert_true(false_frames <= 2);
}

/* 16 kHz, 0 dB: the sequence detector's costs follow the noise its
 * decision feedback's fit leaves (dsp/ir_seqdet.c, NOISE_FIT_SAMPLES)
 * instead of the idle estimate the start brought, which scatters there
 * by -30..+35 %.  See mean_16_khz_units (0 dB, seed 71): 28.3 % and
 * five other codes before (the runaway stop at 16 kHz already in),
 * 30.0 % and three now: the bar sits between, and at most the five of
 * before. */
static void test_16_khz_0_db_noise_fit(void **state)
{
	unsigned false_frames = 0;

	(void)state;
	assert_true(mean_16_khz_units(0, 71, &false_frames) >= 29.2);
	assert_true(false_frames <= 5);
}

static unsigned noise_frames;

static void count_frame(void *userdata, const struct ir_frame *f)
{
	(void)userdata;
	(void)f;
	noise_frames++;
}

/* White noise alone, at 0.25 full scale (a 0 dB signal's noise when its
 * step is 0.5), 60 s at 48 kHz: the weak band starts on it now and then,
 * finds no step, and nothing is decoded. */
static void test_weak_noise_gives_no_frame(void **state)
{
	struct ir_receiver_config cfg = { .sample_rate = 48000, .channels = 1 };
	struct ir_receiver *rx;
	static float block[4800];
	uint64_t s = 99;

	(void)state;
	noise_frames = 0;
	assert_int_equal(ir_receiver_new(&cfg, count_frame, NULL, &rx), 0);
	for (unsigned b = 0; b < 600; b++) {
		for (size_t i = 0; i < sizeof(block) / sizeof(block[0]); i += 2) {
			/* Box-Muller on a 64-bit LCG */
			double u1, u2, r;

			s = s * 6364136223846793005ull + 1442695040888963407ull;
			u1 = ((s >> 11) + 1.0) / 9007199254740994.0;
			s = s * 6364136223846793005ull + 1442695040888963407ull;
			u2 = (s >> 11) / 9007199254740992.0;
			r = 0.25 * sqrt(-2 * log(u1));
			block[i] = (float)(r * cos(2 * 3.14159265358979 * u2));
			block[i + 1] = (float)(r * sin(2 * 3.14159265358979 * u2));
		}
		ir_receiver_process(rx, block, sizeof(block) / sizeof(block[0]));
	}
	ir_receiver_flush(rx);
	ir_receiver_free(rx);
	assert_int_equal(noise_frames, 0);
}

/* `n` samples of white noise of σ `sd` into `rx`, 4800 at a time, from
 * the generator state `s` (Box-Muller on a 64-bit LCG). */
static void feed_noise(struct ir_receiver *rx, double sd, size_t n, uint64_t *s, float lit)
{
	static float block[4800];

	while (n > 0) {
		size_t m = n < 4800 ? n : 4800;

		for (size_t i = 0; i < m; i++) {
			double u1, u2;

			*s = *s * 6364136223846793005ull + 1442695040888963407ull;
			u1 = ((*s >> 11) + 1.0) / 9007199254740994.0;
			*s = *s * 6364136223846793005ull + 1442695040888963407ull;
			u2 = (*s >> 11) / 9007199254740992.0;
			block[i] = lit + (float)(sd * sqrt(-2 * log(u1)) * cos(2 * 3.14159265358979 * u2));
		}
		ir_receiver_process(rx, block, m);
		n -= m;
	}
}

/* The same noise after the stream's first edge (a lone 9 ms pulse of
 * 0.5, 6 dB over it): from there the weak trigger is WEAK_TRIGGER_FAST σ,
 * not the 6 σ a stream without edges keeps (bench false's inputs never
 * have one, and the test above never starts), and it fires on the noise
 * (at 4.5 σ: 35 starts in these 2 minutes); each start must be refused or
 * taken back.  60 s at 44.1 and at 48 kHz.  (A trigger at 3.5 σ made a
 * frame at 44.1 kHz, at 3 σ two at 48 kHz.  With a pulse of 1.0 the
 * floor a learnt step sets, WEAK_STEP_FRACTION, kept the trigger over
 * the noise: no start at all.) */
static void test_weak_noise_after_an_edge_gives_no_frame(void **state)
{
	static const unsigned rates[] = { 44100, 48000 };

	(void)state;
	for (size_t k = 0; k < 2; k++) {
		struct ir_receiver_config cfg = { .sample_rate = rates[k], .channels = 1 };
		struct ir_receiver *rx;
		uint64_t s = 7 + k;

		noise_frames = 0;
		assert_int_equal(ir_receiver_new(&cfg, count_frame, NULL, &rx), 0);
		feed_noise(rx, 0.25, rates[k] / 5, &s, 0);
		feed_noise(rx, 0.25, rates[k] * 9 / 1000, &s, 0.5f);
		feed_noise(rx, 0.25, (size_t)rates[k] * 60, &s, 0);
		ir_receiver_flush(rx);
		ir_receiver_free(rx);
		printf("white noise after one edge, %u Hz, 60 s: %u frames\n", rates[k], noise_frames);
		assert_int_equal(noise_frames, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_weak_frames_decode_at_0_db),
		cmocka_unit_test(test_weak_or_wide_at_6_db),
		cmocka_unit_test(test_weak_owns_0_db_starts),
		cmocka_unit_test(test_16_khz_6_db),
		cmocka_unit_test(test_16_khz_1_ms_coupling),
		cmocka_unit_test(test_16_khz_4_db_1_ms_coupling),
		cmocka_unit_test(test_16_khz_2_db_unit_pulses),
		cmocka_unit_test(test_16_khz_0_db_noise_fit),
		cmocka_unit_test(test_weak_noise_gives_no_frame),
		cmocka_unit_test(test_weak_noise_after_an_edge_gives_no_frame),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
