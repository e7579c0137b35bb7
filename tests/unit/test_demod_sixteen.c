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

/* Six protocols at 16 kHz, τ 5 ms and DC, `frames` a point at README SNR
 * `snr_db` on seed `seed`: the frames sent, decoded as sent, and decoded
 * as other codes, summed (each point printed). */
static void six_protocols_16_khz(double snr_db, unsigned frames, unsigned seed, unsigned *sent, unsigned *matched,
				 unsigned *false_frames)
{
	static const enum ir_protocol protocols[] = { IR_PROTO_NEC, IR_PROTO_RC5, IR_PROTO_RC6_0,
						      IR_PROTO_SONY12, IR_PROTO_JVC, IR_PROTO_SANYO };
	static const double taus_ms[] = { 5, 0 };

	*sent = *matched = *false_frames = 0;
	for (size_t t = 0; t < 2; t++)
		for (size_t i = 0; i < 6; i++) {
			struct audio_result r;

			assert_int_equal(audio_trial_limit_point(protocols[i], 16000, taus_ms[t], snr_db, 0, frames,
								 seed, &r),
					 0);
			assert_true(r.sent > 0);
			printf("  16 kHz %.0f dB tau %.0f ms protocol %d: %u of %u (%u false)\n", snr_db, taus_ms[t],
			       (int)protocols[i], r.matched, r.sent, r.false_frames);
			*sent += r.sent;
			*matched += r.matched;
			*false_frames += r.false_frames;
		}
}

static void test_16_khz_6_db_frames_teach_the_step(void **state)
{
	unsigned sent, matched, lost, false_frames;

	(void)state;
	six_protocols_16_khz(6, 50, 160, &sent, &matched, &false_frames);
	lost = sent - matched;
	printf("16 kHz 6 dB: %u frames lost, %u false\n", lost, false_frames);
	assert_true(lost <= MARK_LOST_16_6DB);
	assert_true(false_frames <= MARK_FALSE_16_6DB);
}

/* The run-length prior on the frame's grid at 16 kHz, where every unit
 * has fewer than GRID_UNIT_FULL_SAMPLES (GRID_RUN_PRIOR_SHORT_UNITS in
 * dsp/ir_seqdet.c): six protocols, 16 kHz 0 dB, τ 5 ms and DC, seed 161,
 * 30 frames a point: frames decoded as sent MARK_RUN_PRIOR_16_0DB_PCT
 * and above, other codes no more than MARK_RUN_PRIOR_16_0DB_FALSE.
 * Without it (GRID_RUN_PRIOR_SHORT_UNITS 0, main 3be758a's decisions)
 * 46.7 % / 2 other codes, with it 60.8 % / 4 (Release); the mark lies
 * between.  The other codes are the Sony 12 streams' (5 ms/DC 1/1 ->
 * 1/3: RC-5 0x40 and Sony codes with bits wrong); over bench_audio limit --rates 16000
 * --snr 0,2 (six protocols × τ 1/5 ms/DC, 100 frames) they went 15 -> 8,
 * so the mark is the branch's, not main's. */
#define MARK_RUN_PRIOR_16_0DB_PCT 53.5
#define MARK_RUN_PRIOR_16_0DB_FALSE 4u

static void test_16_khz_0_db_run_prior_on_short_units(void **state)
{
	unsigned sent, matched, false_frames;

	(void)state;
	six_protocols_16_khz(0, 30, 161, &sent, &matched, &false_frames);
	printf("16 kHz 0 dB: %.1f %% of %u frames, %u false\n", 100.0 * matched / sent, sent, false_frames);
	assert_true(100.0 * matched / sent >= MARK_RUN_PRIOR_16_0DB_PCT);
	assert_true(false_frames <= MARK_RUN_PRIOR_16_0DB_FALSE);
}

/* The Manchester bit's phase on the frame's grid (GRID_RUN_PHASE in
 * dsp/ir_seqdet.c, and the retimer's runs in dsp/ir_seqdet_grid.c): a
 * data run of two units goes from a bit's middle to the next one's, never
 * from a bit boundary.  RC-6 at 16 kHz 0 dB, τ 5 ms and DC, seeds
 * 165-170, 40 frames a point: frames decoded as sent
 * MARK_PHASE_16_0DB_PCT and above, other codes no more than
 * MARK_PHASE_16_0DB_FALSE.  Without it (GRID_RUN_PHASE 0: main 0d6ed55's
 * decisions) 46.25 % (222 of 480) / 0 other codes, with it 53.12 % (255) /
 * 0, 11 of 12 points up, one down a frame (Release); the mark lies
 * between. */
#define MARK_PHASE_16_0DB_PCT 49.5
#define MARK_PHASE_16_0DB_FALSE 1u

static void test_16_khz_0_db_manchester_phase(void **state)
{
	static const double taus_ms[] = { 5, 0 };
	unsigned sent = 0, matched = 0, false_frames = 0;

	(void)state;
	for (unsigned seed = 165; seed <= 170; seed++)
		for (size_t t = 0; t < 2; t++) {
			struct audio_result r;

			assert_int_equal(audio_trial_limit_point(IR_PROTO_RC6_0, 16000, taus_ms[t], 0, 0, 40, seed, &r), 0);
			printf("  seed %u tau %.0f ms: %u of %u (%u false)\n", seed, taus_ms[t], r.matched, r.sent,
			       r.false_frames);
			sent += r.sent;
			matched += r.matched;
			false_frames += r.false_frames;
		}
	printf("16 kHz 0 dB Manchester: %.2f %% of %u frames, %u false\n", 100.0 * matched / sent, sent,
	       false_frames);
	assert_true(100.0 * matched / sent >= MARK_PHASE_16_0DB_PCT);
	assert_true(false_frames <= MARK_PHASE_16_0DB_FALSE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_16_khz_6_db_frames_teach_the_step),
		cmocka_unit_test(test_16_khz_0_db_run_prior_on_short_units),
		cmocka_unit_test(test_16_khz_0_db_manchester_phase),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
