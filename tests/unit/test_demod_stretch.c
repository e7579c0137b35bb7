/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Strong frames (6 and 10 dB, README SNR) from a receiver module that
 * lengthens every mark by 200 µs and shortens the space after it by as
 * much, as real modules do (issue #18).  These frames are the line's (the
 * wide band's edges), not the sequence detector's, and main lost them:
 *
 *  - on a DC-coupled line at 6 dB the narrow band's decay measure took the
 *    last block of nearly every 762 µs mark, which the next edge's
 *    approach had already moved, for a droop of τ 1.4-3 ms; the level
 *    tracker's prediction, pulled to the baseline as the edge came, hid
 *    the 362 µs space after it or made it late (NEC: 27 spaces lost and
 *    74 marks past the decoder's tolerance in 30 frames);
 *  - the marks were told stretched: RC-6's 444 µs units keep 22 µs of the
 *    decoder's tolerance (±half a unit, the kernel's), less than the
 *    timing noise at 10 dB.
 *
 * The line now measures a narrow band's block only once the state has
 * outlasted it by the edge's approach (DECAY_EDGE_BANDS), and tells back
 * the receiver's stretch, measured on earlier activities (half the
 * difference of the shortest mark and space, STRETCH_MIN_RUNS).  At 6 dB
 * (the 100 µs band) a young state's candidate is judged against the droop
 * its distance to the baseline allows (demod_cand_young), not the step's.  Truth is
 * the channel model's (audio_harness): a frame counts when the receiver
 * decodes the very scancode sent, at its time.  The pass marks lie between
 * what these trials give at main and with the change (figures below).
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

#define FRAMES 40
#define RATE 48000
#define STRETCH_US 200.0

/* One cell: % of frames decoded, as bench_audio limit --stretch 200 runs
 * them (receiver module, hum 2 %, random polarity). */
static double stretched_cell(const char *name, double tau_ms, double snr_db, uint64_t seed)
{
	enum ir_protocol protocol;
	struct audio_result r;
	double p;

	assert_int_equal(ir_protocol_from_name(name, &protocol), 0);
	assert_int_equal(audio_trial_limit_point(protocol, RATE, tau_ms, snr_db, STRETCH_US, FRAMES, seed, &r), 0);
	assert_true(r.sent > 0);
	p = 100.0 * r.matched / r.sent;
	printf("  %s %u Hz tau %g ms %g dB, %g us stretch: %.1f %% (%u false)\n", name, RATE, tau_ms,
	       snr_db, STRETCH_US, p, r.false_frames);
	assert_int_equal(r.false_frames, 0);
	return p;
}

/* NEC on a DC line at 6 dB: main df5d780 0.0 %, with the change 92.5 %
 * (in the bench, 100 frames: 4 / 1 % at 44.1 / 48 kHz, the decay's lag
 * alone 87 / 89 %, with the stretch told back 92 / 95 %). */
static void test_nec_6_db_dc(void **state)
{
	(void)state;
	assert_true(stretched_cell("nec", 0, 6, 1801) >= 60);
}

/* RC-6 mode 0 at 10 dB, DC and 5 ms: main 50.0 / 47.5 %, with the change
 * 100 / 97.5 % (the stretch told back; the decay's lag alone leaves it
 * where main is). */
static void test_rc6_10_db(void **state)
{
	(void)state;
	double dc = stretched_cell("rc6_0", 0, 10, 1802);
	double tau5 = stretched_cell("rc6_0", 5, 10, 1803);

	assert_true(dc >= 80);
	assert_true(tau5 >= 80);
}

/* RC-6 mode 0 at 6 dB, DC and 5 ms, on the 100 µs band, where the 244 µs
 * spaces reach 70 % of the step and the falls out of them were taken for
 * droop (see demod_cand_young): main 2b74333 17.5 / 12.5 %, with the
 * droop bounded by the distance to the baseline 95.0 / 92.5 %. */
static void test_rc6_6_db(void **state)
{
	(void)state;
	double dc = stretched_cell("rc6_0", 0, 6, 1804);
	double tau5 = stretched_cell("rc6_0", 5, 6, 1805);

	assert_true(dc >= 60);
	assert_true(tau5 >= 60);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nec_6_db_dc),
		cmocka_unit_test(test_rc6_10_db),
		cmocka_unit_test(test_rc6_6_db),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
