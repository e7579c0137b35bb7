/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Frames that start right at 16 kHz 0 dB and were lost in the sequence
 * detector (issue #18, dsp/ir_seqdet.c): GRID_RUN_OFF_MASS_SHORT.  On a
 * pulse-distance grid whose unit has fewer than GRID_UNIT_FULL_SAMPLES, a
 * run off the grid (NEC's 5- and 7-unit spaces, 3-unit pulses: a unit
 * pulse or space missed) cost about what the legal runs it merged did;
 * now ~3 nats more.  Its gain is ~1.5 points a cell: 2400 frames to hold
 * a mark apart.
 *
 * bench_audio limit's channel (audio_trial_limit_point), 16 kHz 0 dB:
 * frames decoded as sent, and frames decoded as other codes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "audio_harness.h"
#include "ir_protocol.h"

/* `n` protocols at 16 kHz 0 dB under each of `n_tau` couplings, `frames`
 * a point on seeds seed0..seed1: the frames sent, decoded as sent, and
 * decoded as other codes, summed (each point printed). */
static void points_16_khz(const enum ir_protocol *protocols, size_t n, const double *taus_ms, size_t n_tau,
			  unsigned frames, unsigned seed0, unsigned seed1, unsigned *sent, unsigned *matched,
			  unsigned *false_frames)
{
	*sent = *matched = *false_frames = 0;
	for (unsigned seed = seed0; seed <= seed1; seed++)
		for (size_t t = 0; t < n_tau; t++)
			for (size_t i = 0; i < n; i++) {
				struct audio_result r;

				assert_int_equal(audio_trial_limit_point(protocols[i], 16000, taus_ms[t], 0, 0, frames,
									 seed, &r),
						 0);
				assert_true(r.sent > 0);
				printf("  seed %u tau %.0f ms protocol %d: %u of %u (%u false)\n", seed, taus_ms[t],
				       (int)protocols[i], r.matched, r.sent, r.false_frames);
				*sent += r.sent;
				*matched += r.matched;
				*false_frames += r.false_frames;
			}
}

/* NEC, JVC, Sanyo and Sony 12 under a 5 ms coupling and DC, seed 174,
 * 300 frames a point (2400 frames), frames decoded as sent / as other
 * codes: main 881064d 1489 / 17, the branch 1530 / 16, all 8 points up
 * (Release; the same in Debug).  The mark lies between; other codes (Sony
 * 12's most, with bits wrong: main has them too) no more than the
 * branch's. */
#define MARK_OFF_GRID_16_0DB 1510u
#define MARK_OFF_GRID_16_0DB_FALSE 16u

static void test_16_khz_0_db_runs_off_the_grid(void **state)
{
	static const enum ir_protocol protocols[] = { IR_PROTO_NEC, IR_PROTO_JVC, IR_PROTO_SANYO, IR_PROTO_SONY12 };
	static const double taus_ms[] = { 5, 0 };
	unsigned sent, matched, false_frames;

	(void)state;
	points_16_khz(protocols, 4, taus_ms, 2, 300, 174, 174, &sent, &matched, &false_frames);
	printf("16 kHz 0 dB off-grid runs: %u of %u frames, %u false\n", matched, sent, false_frames);
	assert_true(matched >= MARK_OFF_GRID_16_0DB);
	assert_true(false_frames <= MARK_OFF_GRID_16_0DB_FALSE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_16_khz_0_db_runs_off_the_grid),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
