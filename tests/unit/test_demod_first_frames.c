/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A stream's first frames (issue #18): before its first edge the line's
 * polarity is unknown and the weak band's trigger is WEAK_TRIGGER (6 σ,
 * the false-frame guard of edgeless input), and a leader drooping under
 * a 1 ms coupling at README SNR 0 dB peaks under it: main 0d6ed55 lost
 * NEC's and Sony 12's first six frames of a stream at 44.1 kHz (start44),
 * what a user who replays a short recording meets every time.  The
 * drooped-step band, tested from the slow baseline either way against
 * its own noise measured so (DROOP_FIRST_TRIGGER), starts them.  Twelve
 * streams of six frames (NEC, Sony 12, RC-6 mode 0), bench_audio limit's
 * channel, 44.1 kHz 0 dB τ 1 ms, seeds 500-532: the mean % of frames and
 * the frames decoded as other codes, 68.1 % and 0 on main 0d6ed55, 88.9 %
 * and 0 with the rule (Release); seeds 600-632, not in the test, 65.3 ->
 * 75.0.  The mark lies between.
 *
 * At 16 kHz (test_short_streams_first_frames_16_khz) the rule ran only
 * from 32 kHz on main 881064d (DROOP_FIRST_MIN_RATE: there the band's
 * noise is gathered every IDLE_NOISE_EVERY samples, and the choice of its
 * reference per gathered sample cost the idle path 0.9 instructions a
 * sample); the idle path now decides it once, where it begins
 * (droop_ref), and the rule is armed 20 ms into the stream
 * (DROOP_FIRST_ARM_US: the hum's wander in its σ).  Twenty-four streams of six frames (six protocols), 16 kHz
 * 2 dB τ 1 ms, seeds 500-535: 36.8 % and 0 other codes on main, 56.9 % and
 * 0 with the rule (Release and Debug alike); seeds 600-635, not in the
 * test, 31.9 -> 52.1.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "audio_harness.h"
#include "ir_protocol.h"

#define FIRST_FRAMES 6u
#define FIRST_SEED 500u
#define MARK_FIRST_FRAMES 78.0
#define MARK_FIRST_FRAMES_FALSE 1u
#define MARK_FIRST_FRAMES_16 46.0
#define MARK_FIRST_FRAMES_16_FALSE 1u

/* The mean % of frames decoded over streams of FIRST_FRAMES frames, seeds
 * FIRST_SEED + 10 k + i for protocol i (k = 0..3), bench_audio limit's
 * channel at `rate`, τ `tau_ms`, `snr_db`; the frames decoded as other
 * codes in `false_frames`. */
static double first_frames_mean(const enum ir_protocol *protocols, size_t n_protocols, unsigned rate,
				double tau_ms, double snr_db, unsigned *false_frames)
{
	unsigned n = 0;
	double sum = 0;

	*false_frames = 0;
	for (uint64_t first = FIRST_SEED; first <= FIRST_SEED + 30; first += 10)
		for (size_t i = 0; i < n_protocols; i++) {
			struct audio_result r;

			assert_int_equal(audio_trial_limit_point(protocols[i], rate, tau_ms, snr_db, 0, FIRST_FRAMES,
								 first + i, &r),
					 0);
			assert_true(r.sent > 0);
			printf("  protocol %d seed %u %u Hz tau %.0f ms %.0f dB, %u frames: %.1f %% (%u false)\n",
			       (int)protocols[i], (unsigned)(first + i), rate, tau_ms, snr_db, FIRST_FRAMES,
			       100.0 * r.matched / r.sent, r.false_frames);
			sum += 100.0 * r.matched / r.sent;
			*false_frames += r.false_frames;
			n++;
		}
	return sum / n;
}

static void test_short_streams_first_frames(void **state)
{
	static const enum ir_protocol protocols[] = { IR_PROTO_NEC, IR_PROTO_SONY12, IR_PROTO_RC6_0 };
	unsigned false_frames;
	double mean;

	(void)state;
	mean = first_frames_mean(protocols, sizeof(protocols) / sizeof(protocols[0]), 44100, 1, 0, &false_frames);
	printf("a stream's first frames at 44.1 kHz: mean %.1f %%, %u false\n", mean, false_frames);
	assert_true(mean >= MARK_FIRST_FRAMES);
	assert_true(false_frames <= MARK_FIRST_FRAMES_FALSE);
}

static void test_short_streams_first_frames_16_khz(void **state)
{
	/* (the 44.1 kHz test's three, then the other three of bench_audio limit's six) */
	static const enum ir_protocol protocols[] = { IR_PROTO_NEC, IR_PROTO_SONY12, IR_PROTO_RC6_0,
						      IR_PROTO_RC5, IR_PROTO_JVC, IR_PROTO_SANYO };
	unsigned false_frames;
	double mean;

	(void)state;
	mean = first_frames_mean(protocols, sizeof(protocols) / sizeof(protocols[0]), 16000, 1, 2, &false_frames);
	printf("a stream's first frames at 16 kHz: mean %.1f %%, %u false\n", mean, false_frames);
	assert_true(mean >= MARK_FIRST_FRAMES_16);
	assert_true(false_frames <= MARK_FIRST_FRAMES_16_FALSE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_short_streams_first_frames),
		cmocka_unit_test(test_short_streams_first_frames_16_khz),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
