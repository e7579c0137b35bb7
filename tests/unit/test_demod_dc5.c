/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Weak frames at README SNR 0 dB (step = 2σ of the per-sample noise)
 * with no AC coupling or a 5 ms one (issue #18).  The sequence detector
 * chose its τ hypothesis once, on a frame's first 6 ms, out of 54
 * trellises whose steps were fixed on a ±20-25 % grid: at 0 dB a 10 or
 * 30 ms coupling and none differ there by less than the noise, and 41 of
 * 99 rc6_0 frames on a DC line were decided under a wrong τ (all 13
 * frames lost were among them, traced at 48 kHz).  Decision feedback
 * (τ, step and baseline fitted to the decided blocks as the frame goes
 * on) fixes that.  Truth is the channel model's: a frame counts when the
 * receiver decodes the very scancode sent, at its time (audio_harness).
 * The pass mark lies between what these trials give before the fix and
 * after it; the bench's figures (`bench_audio limit`) are in the note.
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

/* Pass mark (mean % of the two rates): these trials give 85.0 at main
 * before the fix (dbf5fed; 84.4 / 85.6 at 48 / 44.1 kHz) and 88.3 with it
 * (89.0 / 87.6). */
#define MARK_0_DB 86.5

struct cell {
	const char *name;
	double tau_ms;
};

/* The cells the fix is for: RC-6 on a DC line, NEC, JVC and Sanyo
 * (long leaders) under a 5 ms coupling. */
static const struct cell cells[] = {
	{ "rc6_0", 0 }, { "nec", 5 }, { "jvc", 5 }, { "sanyo", 5 }, { "rc6_0", 5 },
};
#define N_CELLS (sizeof(cells) / sizeof(cells[0]))

static double cells_mean(unsigned rate, unsigned frames, uint64_t seed)
{
	double sum = 0;

	for (size_t i = 0; i < N_CELLS; i++) {
		struct audio_result r;
		double p;

		assert_int_equal(audio_trial_module(cells[i].name, rate, cells[i].tau_ms, 0, frames, seed + i, 0, 0, &r),
				 0);
		assert_true(r.sent > 0);
		p = 100.0 * r.matched / r.sent;
		printf("  %s %u Hz tau %g ms 0 dB: %.0f %% (%u false)\n", cells[i].name, rate, cells[i].tau_ms, p,
		       r.false_frames);
		sum += p;
	}
	return sum / N_CELLS;
}

static void test_0_db_dc_and_5_ms(void **state)
{
	double m48, m44;

	(void)state;
	m48 = cells_mean(48000, 100, 500);
	m44 = cells_mean(44100, 100, 600);
	printf("0 dB DC/5 ms, mean of %zu cells: 48 kHz %.1f %%, 44.1 kHz %.1f %%\n", N_CELLS, m48, m44);
	assert_true(0.5 * (m48 + m44) >= MARK_0_DB);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_0_db_dc_and_5_ms),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
