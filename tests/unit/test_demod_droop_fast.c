/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A leader under a 1 ms AC coupling at 44.1/48 kHz (issue #18): the
 * 100 µs weak band, less its 2 ms idle level, peaks at 0.59 of a step
 * that droops as it rises (noise-free NEC, 44.1 kHz), 1.1 times its
 * 4.5 σ trigger at README SNR −2 dB: traced on main 3be758a (`limit
 * --rates 44100,48000 --taus 1 --snr -2,0 --protocols
 * nec,rc6_0,sony12,sanyo`), 191 of 333 lost frames never started, and 133
 * of them on the idle path the trigger never fired on the leader's rise
 * (its statistic peaked at a median 0.87 of the trigger).  The drooped-step
 * band (DROOP_BAND_US, a matched filter's length for a 1 ms droop) now
 * runs at these rates too (DROOP_MAX_RATE), its noise measured in the
 * dark as below 32 kHz.  NEC, Sanyo and Sony 12 at 44.1 kHz −2 dB τ 1 ms,
 * bench_audio limit's channel, 40 frames each, seeds 440-442 and
 * 450-452: the mean % of frames and the frames decoded as other codes,
 * 55.4 % and 1 on main 3be758a (seeds 440: 50.8, 450: 60.0; Release),
 * 60.4 % and 0 with the band (54.2, 66.7; with its noise from the weak
 * band's instead, 61.7 and 0); seeds 460-462, not in the test, 40.0 / 2
 * -> 44.2 / 2 (the weak band's).  The mark lies between; other codes no
 * more than main's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "audio_harness.h"
#include "ir_protocol.h"

#define MARK_DROOP_FAST 58.5
#define MARK_DROOP_FAST_FALSE 1u

static void test_44_khz_drooped_leader_starts(void **state)
{
	static const enum ir_protocol protocols[] = { IR_PROTO_NEC, IR_PROTO_SANYO, IR_PROTO_SONY12 };
	unsigned false_frames = 0;
	double sum = 0, mean;

	(void)state;
	for (uint64_t first = 440; first <= 450; first += 10)
		for (size_t i = 0; i < 3; i++) {
			struct audio_result r;

			assert_int_equal(audio_trial_limit_point(protocols[i], 44100, 1, -2, 0, 40, first + i, &r), 0);
			assert_true(r.sent > 0);
			printf("  protocol %d seed %u 44.1 kHz tau 1 ms -2 dB: %.1f %% (%u false)\n", (int)protocols[i],
			       (unsigned)(first + i), 100.0 * r.matched / r.sent, r.false_frames);
			sum += 100.0 * r.matched / r.sent;
			false_frames += r.false_frames;
		}
	mean = sum / 6;
	printf("drooped leaders at 44.1 kHz: mean %.1f %%, %u false\n", mean, false_frames);
	assert_true(mean >= MARK_DROOP_FAST);
	assert_true(false_frames <= MARK_DROOP_FAST_FALSE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_44_khz_drooped_leader_starts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
