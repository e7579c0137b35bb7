/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The high-SNR plateaus (issue #18): at README SNR 10 dB, where the
 * genie-aided bound decodes every frame, RC-MM's 167 µs pulses were lost at
 * 44.1/48 kHz (bench_audio limit: 7-30 % at every coupling) and at 6 dB at
 * 96 kHz (3-7 %).  Cause: a state shorter than the band's settling never
 * reaches its level, the steps learnt from edges out of such states came
 * out short, and at the timeout choose_band() took them for a weak signal
 * and picked the 100 µs band, which halves a 167 µs pulse (and the
 * steps learnt there shrank further).  Now only edges out of settled
 * states teach the step, and the slow band is left for steps the mid band
 * cannot hold at all.  The bars are set far above the old figures and
 * under the new ones (these trials: 100 % each); the figures are the
 * bench's.  Frames are separated by more than the 125 ms timeout, as in
 * the bench, so that the band is chosen again before most of them.
 *
 * Under a 1 ms AC coupling the NEC family's 9 ms leader decays away whole
 * (and the 4.5 ms space after it recovers as fast): at 6 dB at 44.1/48 kHz
 * nec, jvc and sanyo decoded 77-87 % (16 kHz, 10 dB: 63-67 %), the leader
 * cut short or a pulse found in its space, because on the narrow bands
 * (which those SNRs take) the coupling's rate was not measured at all and
 * the level tracker lagged the droop.  The rate is now measured there too,
 * each state's estimate weighed by its precision against what earlier
 * states taught (a DC-coupled line's noisy stretches must not make it
 * droop).  These trials (mean of the three): 91 % / 82 % now, 77 % / 73 %
 * before.
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

/* One trial of `frames` random frames, receiver module, hum 2 % as in
 * bench_audio limit; returns the success in percent. */
static double plateau_trial(const char *name, unsigned rate, double tau_ms, double snr,
			    unsigned frames, uint64_t seed, unsigned *false_frames)
{
	struct audio_result r;

	assert_int_equal(audio_trial_module(name, rate, tau_ms, snr, frames, seed, 130, 300, &r), 0);
	assert_true(r.sent > 0);
	*false_frames += r.false_frames;
	return 100.0 * r.matched / r.sent;
}

static void test_rcmm_at_10_db(void **state)
{
	static const unsigned rates[] = { 44100, 48000 };
	static const double taus[] = { 1, 5, 0 };
	unsigned false_frames = 0;

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		for (size_t k = 0; k < 3; k++) {
			double p = plateau_trial("rcmm32", rates[i], taus[k], 10, 20,
						 40 + 3 * i + k, &false_frames);

			printf("rcmm32 %u Hz tau %g ms 10 dB: %.0f %%\n", rates[i], taus[k], p);
			assert_true(p >= 85);
		}
	}
	assert_int_equal(false_frames, 0);
}

static void test_rcmm_at_6_db_96k(void **state)
{
	unsigned false_frames = 0;

	(void)state;
	for (uint64_t seed = 50; seed < 52; seed++) {
		double p = plateau_trial("rcmm32", 96000, 5, 6, 20, seed, &false_frames);

		printf("rcmm32 96000 Hz tau 5 ms 6 dB: %.0f %%\n", p);
		assert_true(p >= 75);
	}
	assert_int_equal(false_frames, 0);
}

/* The mean success of nec, jvc and sanyo over `rates` at τ 1 ms. */
static double family_at_1ms(const unsigned *rates, size_t n_rates, double snr, uint64_t seed)
{
	static const char *const names[] = { "nec", "jvc", "sanyo" };
	unsigned false_frames = 0;
	double sum = 0;

	for (size_t i = 0; i < n_rates; i++) {
		for (size_t k = 0; k < 3; k++) {
			double p = plateau_trial(names[k], rates[i], 1, snr, 20, seed + 3 * i + k,
						 &false_frames);

			printf("%s %u Hz tau 1 ms %g dB: %.0f %%\n", names[k], rates[i], snr, p);
			sum += p;
		}
	}
	assert_int_equal(false_frames, 0);
	return sum / (3.0 * (double)n_rates);
}

static void test_leader_under_1ms_coupling(void **state)
{
	static const unsigned audio[] = { 44100, 48000 };
	static const unsigned low[] = { 16000 };
	double a, b;

	(void)state;
	a = family_at_1ms(audio, 2, 6, 60);
	b = family_at_1ms(low, 1, 10, 70);
	printf("mean: %.1f %% (44.1/48 kHz, 6 dB), %.1f %% (16 kHz, 10 dB)\n", a, b);
	assert_true(a >= 86);
	assert_true(b >= 78);
}

/*
 * A sequence-detected frame that started on a wrong baseline (a trigger
 * early in a recording, τ 1 ms) went on deciding noise and never let the
 * line go dark: every later frame of the recording was lost (these three
 * recordings: 0 % each with the detector, 80-90 % without it).  A run
 * of the detector is now bounded (WEAK_SEQ_MAX_US) and acquired anew.
 */
static void test_seqdet_run_is_bounded(void **state)
{
	static const uint64_t seeds[] = { 65, 71, 78 };
	unsigned false_frames = 0;

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		double p = plateau_trial("sanyo", 48000, 1, 6, 20, seeds[i], &false_frames);

		printf("sanyo 48000 Hz tau 1 ms 6 dB seed %u: %.0f %%\n", (unsigned)seeds[i], p);
		assert_true(p >= 50);
	}
	assert_int_equal(false_frames, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rcmm_at_10_db),
		cmocka_unit_test(test_rcmm_at_6_db_96k),
		cmocka_unit_test(test_leader_under_1ms_coupling),
		cmocka_unit_test(test_seqdet_run_is_bounded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
