/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The 16 kHz weak trigger the same whatever the line's state (issue #18).
 * A 16 kHz stream at 6 dB learnt its step (and with it a narrow band and
 * the full path's weak trigger) only from a frame the wide band took, by
 * chance: one sample of a 4 σ step plus its noise over WEAK_MAX_STEP before
 * the weak band had risen, about one frame a stream, and decided badly.
 * Now the sequence detector's frames teach the step too
 * (WEAK_TEACHES_STEP_MAX_RATE), and the full path's weak trigger tests the
 * idle path's statistic (weak_ref_input), so that the line's state no
 * longer decides how weak a leader it takes.
 * Six protocols, bench_audio limit's channel (audio_trial_limit_point),
 * 16 kHz 6 dB, τ 5 ms and DC, seed 160, 50 frames a point: frames lost
 * (not decoded as the code sent, at its time) and frames decoded as other
 * codes: 8 and 0 at main c4c0e43 (nec, sony12, jvc, sanyo 5 ms and nec,
 * sony12 ×2, sanyo DC one or two each), 0 and 0 with both (Release).  The
 * mark lies between; other codes no more than before.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "audio_harness.h"
#include "ir_protocol.h"

#define MARK_LOST_16_6DB 3u
#define MARK_FALSE_16_6DB 0u

static void test_16_khz_6_db_frames_teach_the_step(void **state)
{
	static const enum ir_protocol protocols[] = { IR_PROTO_NEC, IR_PROTO_RC5, IR_PROTO_RC6_0,
						      IR_PROTO_SONY12, IR_PROTO_JVC, IR_PROTO_SANYO };
	static const double taus_ms[] = { 5, 0 };
	unsigned lost = 0, false_frames = 0;

	(void)state;
	for (size_t t = 0; t < 2; t++)
		for (size_t i = 0; i < 6; i++) {
			struct audio_result r;

			assert_int_equal(audio_trial_limit_point(protocols[i], 16000, taus_ms[t], 6, 0, 50, 160, &r), 0);
			assert_true(r.sent > 0);
			printf("  16 kHz 6 dB tau %.0f ms protocol %d: %u of %u (%u false)\n", taus_ms[t],
			       (int)protocols[i], r.matched, r.sent, r.false_frames);
			lost += r.sent - r.matched;
			false_frames += r.false_frames;
		}
	printf("16 kHz 6 dB: %u frames lost, %u false\n", lost, false_frames);
	assert_true(lost <= MARK_LOST_16_6DB);
	assert_true(false_frames <= MARK_FALSE_16_6DB);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_16_khz_6_db_frames_teach_the_step),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
