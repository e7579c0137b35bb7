/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Weak frames under a 1 ms AC coupling (issue #18): at README SNR 0 dB
 * (step = 2σ of the per-sample noise) a 1 ms coupling droops a step to
 * ~60 % of itself by the time the weak band has risen, and a 9 ms leader
 * to the dark level long before it ends.  Traced at 48 kHz, a third to a
 * half of these frames never started (the 6 σ trigger), a fifth of the
 * starts were refused (the acquisition's mean under 4 σ), and the
 * sequence detector took back most long-leader starts at 6 ms, before
 * the leader's end had told its τ hypotheses apart.  Truth is the channel
 * model's: each frame counts when the receiver decodes the very scancode
 * sent, at its time (audio_harness).  The pass marks (MARK_*) lie between
 * what these trials give before the fix and after it; the bench's figures
 * (`bench_audio limit`) are in notes/tau1.md.
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

/* Pass marks (mean %): these trials gave 19.0 / 18.3 / 79.0 before the
 * first fix (f5d0497) and 57.0 / 51.0 / 94.7 with it; 62.0 / 58.3 / 95.7
 * at dbf5fed, 69.3 / 65.0 / 98.0 with the detector's longer choice for
 * weak starts (WEAK_COMMIT_FAST_US), 70.3 / 67.7 / 98.3 with the weak
 * band's noise averaged longer after the stream's first edge
 * (WEAK_NOISE_US); 71.0 / 64.7 / 98.7 at a924a75, 75.7 / 77.7 / 98.7
 * with the trigger at 4.5 σ after the stream's first edge
 * (WEAK_TRIGGER_FAST); 77.7 / 78.7 / 98.7 at 12d89fb, 80.0 / 83.7 / 98.7
 * with the acquisition's refusal held to a 1 ms coupling's droop
 * (WEAK_MIN_STEP_TAU_US); 80.3 / 84.7 / 98.7 at df5d780 (Debug), 85.0 /
 * 86.7 / 98.7 with no start at a missed pulse's fall (WEAK_FALL_DISP). */
#define MARK_0_48 79.0
#define MARK_0_44 81.0
#define MARK_2_48 97.0

/* The six protocols with a unit the weak path serves (RC-MM is its own). */
static const char *const names[] = { "nec", "rc5", "rc6_0", "sony12", "jvc", "sanyo" };
#define N_NAMES (sizeof(names) / sizeof(names[0]))

/* Mean success (%) over the six protocols at τ 1 ms, `frames` each. */
static double tau1_mean(unsigned rate, double snr, unsigned frames, uint64_t seed)
{
	double sum = 0;

	for (size_t i = 0; i < N_NAMES; i++) {
		struct audio_result r;
		double p;

		assert_int_equal(audio_trial_module(names[i], rate, 1, snr, frames, seed + i, 0, 0, &r), 0);
		assert_true(r.sent > 0);
		p = 100.0 * r.matched / r.sent;
		printf("  %s %u Hz tau 1 ms %.0f dB: %.0f %%\n", names[i], rate, snr, p);
		sum += p;
	}
	return sum / N_NAMES;
}

static void test_tau_1_ms_at_0_db(void **state)
{
	double m48, m44;

	(void)state;
	m48 = tau1_mean(48000, 0, 50, 70);
	m44 = tau1_mean(44100, 0, 50, 80);
	printf("0 dB tau 1 ms, mean of 6 protocols: 48 kHz %.1f %%, 44.1 kHz %.1f %%\n", m48, m44);
	assert_true(m48 >= MARK_0_48);
	assert_true(m44 >= MARK_0_44);
}

static void test_tau_1_ms_at_2_db(void **state)
{
	double m48;

	(void)state;
	m48 = tau1_mean(48000, 2, 50, 90);
	printf("2 dB tau 1 ms, mean of 6 protocols: 48 kHz %.1f %%\n", m48);
	assert_true(m48 >= MARK_2_48);
}

/* The sequence detector's neighbouring τ hypotheses (NEIGHBOUR_SWITCH_NATS
 * and NEIGHBOUR_FIT_NOISE in dsp/ir_seqdet.c) on the leader protocols,
 * whose τ the first 11 ms tell least well (0.7, 1 and 1.4 ms alike over a
 * drooping leader): 44.1 kHz τ 1 ms 0 dB and 16 kHz τ 5 ms 2 dB.  These
 * trials gave 75.8 / 37.5 % at main df5d780 (the kept hypothesis alone)
 * and 79.2 / 56.7 % with the neighbours (within the noise's fit). */
#define MARK_NEIGHBOUR_44 77.5
#define MARK_NEIGHBOUR_16 47.0

static const char *const leader_names[] = { "nec", "jvc", "sanyo" };

static double leader_mean(unsigned rate, double tau_ms, double snr, unsigned frames, uint64_t seed)
{
	double sum = 0;

	for (size_t i = 0; i < 3; i++) {
		struct audio_result r;
		double p;

		assert_int_equal(audio_trial_module(leader_names[i], rate, tau_ms, snr, frames, seed + i, 0, 0, &r),
				 0);
		assert_true(r.sent > 0);
		p = 100.0 * r.matched / r.sent;
		printf("  %s %u Hz tau %.0f ms %.0f dB: %.0f %%\n", leader_names[i], rate, tau_ms, snr, p);
		sum += p;
	}
	return sum / 3;
}

static void test_tau_neighbours_keep_leader_frames(void **state)
{
	double m44, m16;

	(void)state;
	m44 = leader_mean(44100, 1, 0, 40, 110);
	m16 = leader_mean(16000, 5, 2, 40, 120);
	printf("mean of nec, jvc, sanyo: 44.1 kHz tau 1 ms 0 dB %.1f %%, 16 kHz tau 5 ms 2 dB %.1f %%\n", m44,
	       m16);
	assert_true(m44 >= MARK_NEIGHBOUR_44);
	assert_true(m16 >= MARK_NEIGHBOUR_16);
}

/*
 * A leader's fall under a 1 ms coupling undershoots as far as its rise
 * went up, and looks like a rise of the other polarity: where the trigger
 * missed the rise (the idle level's tracker, lifted by the lit leader,
 * made the fall stand further off than the rise), or the acquisition
 * refused it, the weak start came at the fall, in the wrong polarity, and
 * between frames the trigger then kept that polarity: the next 1-4 frames
 * were lost as well (traced at 44.1 kHz: 14 of rc6_0's 27 lost frames,
 * 6 of sony12's 11).  WEAK_FALL_DISP / WEAK_FALL_PAIR_US: such a trigger
 * is not taken.  These trials: 79.4 % at main (df5d780), 83.3 % with it
 * (mark 81.5).  (Over 9 such sets of seeds, 400..1200, it gained 0.6 to
 * 3.9 points, 2.0 on average, and lost none: this set gains the most.)
 */
#define MARK_FALL 81.5

static void test_no_start_at_a_leaders_fall(void **state)
{
	static const char *const fall[] = { "rc6_0", "sony12", "sanyo" };
	double sum = 0;

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		struct audio_result r;
		double p;

		assert_int_equal(audio_trial_module(fall[i], 44100, 1, 0, 60, 400 + i, 0, 0, &r), 0);
		p = 100.0 * r.matched / r.sent;
		printf("  %s 44.1 kHz tau 1 ms 0 dB: %.0f %% (%u false)\n", fall[i], p, r.false_frames);
		sum += p;
	}
	printf("leader's fall: mean %.1f %%\n", sum / 3);
	assert_true(sum / 3 >= MARK_FALL);
}

/*
 * A leader's rise under a 1 ms coupling: the idle path's level tracker
 * (IDLE_TRACK_US, 2 ms) follows the lit, drooping pulse from its first
 * sample, about A / 2 ms, while the weak band needs 0.2-0.3 ms to rise:
 * by the band's peak (~0.74 A) the level had come 0.1-0.15 A after it,
 * and a rise that stood over the trigger from the dark level stayed under
 * it from the tracker (traced at main 2b74333, rc6_0 44.1 kHz 0 dB: 7 of
 * 22 lost frames, the band reaching 0.85-0.96 of the trigger from the
 * level and 1.14-1.30 from the slow baseline).  WEAK_BASE_TRIGGER: the
 * weak band also triggers, in the line's polarity, from the slow baseline.
 * These trials (rc5, sony12, rc6_0 at 44.1 kHz -2 dB; rc5, sony12 at
 * 16 kHz 4 dB; τ 1 ms, 40 frames each): 38.3 / 82.5 % at main 2b74333,
 * 50.0 / 87.5 % with it (Debug).
 */
#define MARK_RISE_44 44.0
#define MARK_RISE_16 85.0

static double rise_mean(const char *const *protocols, size_t n, unsigned rate, double snr, uint64_t seed)
{
	double sum = 0;

	for (size_t i = 0; i < n; i++) {
		struct audio_result r;
		double p;

		assert_int_equal(audio_trial_module(protocols[i], rate, 1, snr, 40, seed + i, 0, 0, &r), 0);
		assert_true(r.sent > 0);
		p = 100.0 * r.matched / r.sent;
		printf("  %s %u Hz tau 1 ms %.0f dB: %.0f %% (%u false)\n", protocols[i], rate, snr, p, r.false_frames);
		sum += p;
	}
	return sum / (double)n;
}

static void test_leader_rise_from_the_baseline(void **state)
{
	static const char *const rise44[] = { "rc5", "sony12", "rc6_0" };
	static const char *const rise16[] = { "rc5", "sony12" };
	double m44, m16;

	(void)state;
	m44 = rise_mean(rise44, 3, 44100, -2, 500);
	m16 = rise_mean(rise16, 2, 16000, 4, 510);
	printf("leader's rise: 44.1 kHz -2 dB mean %.1f %%, 16 kHz 4 dB mean %.1f %%\n", m44, m16);
	assert_true(m44 >= MARK_RISE_44);
	assert_true(m16 >= MARK_RISE_16);
}

/*
 * Unit pulses on a known grid: after a right start, at 0 dB under a 1 ms
 * coupling, a 444 µs unit pulse is ~32 ± 8 nats and its two edges cost
 * 2 × EDGE_NATS: a pulse or a space of one unit was decided away in
 * ~1.5 % of them (traced at main eecf364, nec/rc6_0/sony12/sanyo at
 * 44.1/48 kHz: 42 of the 56 frames lost after a right start).  On the
 * frame's grid an edge costs what it tells of where the edges fall
 * (GRID_RUN_UNITS in dsp/ir_seqdet.c).  These trials (rc6_0, sanyo, nec,
 * 44.1 and 48 kHz, 0 dB, τ 1 ms, 50 frames each): 86.0 % at main eecf364,
 * 91.3 % with it (Debug), one false frame (nec 44.1 kHz) in both.  With
 * the run-length prior on the grid (GRID_RUN_PRIOR) 93.3 % and two: the
 * second, as the first (Vincent at 4.37 s), a NEC frame started late,
 * 4.4 ms into its 9 ms leader under the 1 ms coupling (lost at main
 * too), whose bits are now told right and which Samsung32's decoder
 * (a 4.5 ms leader) takes.  Other codes in bench_audio limit --rates
 * 44100,48000 --snr -2,0,2: 53 at main c4c0e43, 38 with the prior.
 */
#define MARK_GRID 88.5
#define MARK_GRID_FALSE 2u

static void test_unit_pulses_on_the_grid(void **state)
{
	static const char *const grid[] = { "rc6_0", "sanyo", "nec" };
	static const unsigned rates[] = { 44100, 48000 };
	unsigned false_frames = 0;
	double sum = 0;

	(void)state;
	for (size_t k = 0; k < 2; k++)
		for (size_t i = 0; i < 3; i++) {
			struct audio_result r;
			double p;

			assert_int_equal(audio_trial_module(grid[i], rates[k], 1, 0, 50, 600 + 10 * k + i, 0, 0, &r),
					 0);
			assert_true(r.sent > 0);
			p = 100.0 * r.matched / r.sent;
			printf("  %s %u Hz tau 1 ms 0 dB: %.0f %% (%u false)\n", grid[i], rates[k], p,
			       r.false_frames);
			sum += p;
			false_frames += r.false_frames;
		}
	printf("unit pulses on the grid: mean %.1f %%, %u false\n", sum / 6, false_frames);
	assert_true(sum / 6 >= MARK_GRID);
	assert_true(false_frames <= MARK_GRID_FALSE);
}

/*
 * 16 kHz under a 1 ms coupling (issue #18): the 2.8-sample weak band
 * peaks at 5-6 σ of its noise on a 2 dB leader, the 5 σ trigger crosses
 * 0.35-0.9 ms into it, and the acquisition's 400 µs mean, drooped to a
 * half or less, was refused under WEAK_MIN_STEP_FAST σ (traced: 54 of the
 * 397 frames lost in 600 at 2 dB).  WEAK_DROOP_Z: refused only where the
 * samples from the rise on stand under 3.5 σ as a drooping pulse; and a
 * start taken back no longer sets the line's polarity (weak_take_back).
 * Six protocols, bench_audio limit's channel, τ 1 ms, 2 dB, seed 90, 40
 * frames each: the mean % of frames, and the frames decoded as other
 * codes: 36.7 % and 2 at main eecf364, 40.4 % and 2 with both (Release;
 * Debug the same).  The marks lie between; other codes no more than
 * before.
 */
#define MARK_DROOP_16 38.5
#define MARK_DROOP_FALSE 2

/* The mean % of frames over `protocols` × `snr` at 16 kHz, τ 1 ms
 * (bench_audio limit's channel, `frames` each from `seed`); the frames
 * decoded as other codes are added to *false_frames. */
static double mean_16_khz_tau_1_ms(const enum ir_protocol *protocols, size_t n_protocols, const double *snr,
				   size_t n_snr, unsigned frames, uint64_t seed, unsigned *false_frames)
{
	double sum = 0;

	for (size_t i = 0; i < n_protocols; i++)
		for (size_t j = 0; j < n_snr; j++) {
			struct audio_result r;
			double p;

			assert_int_equal(audio_trial_limit_point(protocols[i], 16000, 1, snr[j], 0, frames, seed, &r),
					 0);
			assert_true(r.sent > 0);
			*false_frames += r.false_frames;
			p = 100.0 * r.matched / r.sent;
			printf("  16 kHz %.0f dB tau 1 ms protocol %d: %.1f %% (%u false)\n", snr[j], (int)protocols[i],
			       p, r.false_frames);
			sum += p;
		}
	printf("16 kHz tau 1 ms: mean %.1f %%, false frames %u\n", sum / (double)(n_protocols * n_snr),
	       *false_frames);
	return sum / (double)(n_protocols * n_snr);
}

/* The mean % of frames over `protocols` at `rate`, τ 1 ms and `snr_db`,
 * `frames` each, protocol i on seed first_seed + i; adds the frames
 * decoded as other codes to *false_frames. */
static double mean_seed_per_protocol(const enum ir_protocol *protocols, size_t n_protocols, unsigned rate,
				     double snr_db, unsigned frames, uint64_t first_seed, unsigned *false_frames)
{
	double sum = 0;

	for (size_t i = 0; i < n_protocols; i++) {
		struct audio_result r;
		double p;

		assert_int_equal(audio_trial_limit_point(protocols[i], rate, 1, snr_db, 0, frames, first_seed + i, &r),
				 0);
		assert_true(r.sent > 0);
		p = 100.0 * r.matched / r.sent;
		printf("  protocol %d %u Hz tau 1 ms %.0f dB: %.1f %% (%u false)\n", (int)protocols[i], rate, snr_db, p,
		       r.false_frames);
		sum += p;
		*false_frames += r.false_frames;
	}
	return sum / (double)n_protocols;
}

static double mean_16_khz_drooped_rise(uint64_t seed, unsigned *false_frames)
{
	static const enum ir_protocol protocols[] = { IR_PROTO_NEC, IR_PROTO_RC5, IR_PROTO_RC6_0,
						      IR_PROTO_SONY12, IR_PROTO_JVC, IR_PROTO_SANYO };
	static const double snr[] = { 2 };

	return mean_16_khz_tau_1_ms(protocols, 6, snr, 1, 40, seed, false_frames);
}

static void test_16_khz_drooped_rise_is_taken(void **state)
{
	unsigned false_frames = 0;

	(void)state;
	assert_true(mean_16_khz_drooped_rise(90, &false_frames) >= MARK_DROOP_16);
	assert_true(false_frames <= MARK_DROOP_FALSE);
}

/*
 * 16 kHz under a 1 ms coupling (issue #18): where the line's polarity is
 * known, the drooped-step band is tested from the slow baseline in it, not
 * from the 2 ms idle level either way (DROOP_FROM_BASE): a 2 dB leader's
 * rise that the weak band's 5 σ trigger missed (start16's trace: 113 of 371
 * frames lost at 2 dB never triggered) now starts the frame.  The same
 * trials as above with seed 93: the mean % of frames and the frames
 * decoded as other codes, 43.3 % and 0 without it (DROOP_FROM_BASE 0, =
 * main 55e6e65), 47.5 % and 3 with it (Release), 45.8 % and 2 with the
 * lit rise's fit below as well, 49.2 % and 2 with GRID_REPLAY too (the
 * merge; Debug and Release alike), 51.2 % and 1 at stop 43's merge (one
 * weak statistic, the taught step, the leader's space prior).  The
 * mean's mark lies between; the other codes' is this seed's (over the
 * whole `limit --rates 16000 --snr 2,4,6` grid, IRJACK_TRIAL_DEBUG's wrong
 * codes 52 -> 55).
 */
#define MARK_DROOP_BASE_16 45.5
#define MARK_DROOP_BASE_FALSE 3

static void test_16_khz_drooped_leader_from_the_baseline(void **state)
{
	unsigned false_frames = 0;

	(void)state;
	assert_true(mean_16_khz_drooped_rise(93, &false_frames) >= MARK_DROOP_BASE_16);
	assert_true(false_frames <= MARK_DROOP_BASE_FALSE);
}

/*
 * 16 kHz under a 1 ms coupling (issue #18): a weak start's first pulse is
 * placed by the drooping pulse that fits the ring and the acquisition
 * (weak_lit_t0), not by the 2.8-sample weak band's rise to its trigger,
 * which put JVC's 8.4 ms leader 230-280 µs early in the frames it lost
 * (over JVC's half-unit tolerance).  JVC and Sony 12 at 4 and 6 dB, τ 1 ms,
 * bench limit's channel, seed 93, 50 frames each: the mean % of frames,
 * and the frames decoded as other codes: 85.5 % and 1 at main 55e6e65
 * (JVC 4/6 dB 76/98, Sony 12 76/92), 90.5 % and 0 with the fit (82/98,
 * 84/98; Release); 92.0 % and 0 on the merge with GRID_REPLAY (Debug and
 * Release alike), 94.0 % and 0 at stop 43's merge.  The marks lie between; other codes no more than before.
 */
#define MARK_LIT_16 88.0
#define MARK_LIT_16_FALSE 1

static double mean_16_khz_lit_rise(unsigned *false_frames)
{
	static const enum ir_protocol protocols[] = { IR_PROTO_JVC, IR_PROTO_SONY12 };
	static const double snr[] = { 4, 6 };

	return mean_16_khz_tau_1_ms(protocols, 2, snr, 2, 50, 93, false_frames);
}

static void test_16_khz_leader_rise_fits_the_droop(void **state)
{
	unsigned false_frames = 0;

	(void)state;
	assert_true(mean_16_khz_lit_rise(&false_frames) >= MARK_LIT_16);
	assert_true(false_frames <= MARK_LIT_16_FALSE);
}

/*
 * A frame's first 7-11 ms, decided before its grid was known (GRID_REPLAY
 * in dsp/ir_seqdet.c): at the commit, where the kept path's leader and
 * the rise after it pick a grid (RC-6's, Sony's), the blocks since the
 * start are decided again on the grid's edge cost; once the grid is
 * fixed, the undecided blocks are.  At 16 kHz the grid's edges cost
 * EDGE_NATS × its unit's samples / 16 (RC-6 1.8 nats, Sony 2.4) against
 * 4 before.  RC-6 and Sony 12 at 16 kHz 2 dB τ 1 ms, bench_audio limit's
 * channel, 60 frames each (seeds 700, 701): the mean % of frames and the
 * frames decoded as other codes: 32.5 % and 1 with GRID_REPLAY 0 (main's
 * decisions, Debug), 40.0 % and 2 with it (rc6_0 21.7 -> 30.0, sony12
 * 43.3 -> 50.0; the second other code a Sony frame); merged with the
 * drooped leader's trigger from the baseline and the lit rise's fit,
 * 38.3 % and 2 (Debug and Release alike).  The marks lie between; other
 * codes at most the branch's.  With the sequence detector's frames
 * teaching the line its step and one weak statistic on both paths
 * (WEAK_TEACHES_STEP_MAX_RATE, weak_ref_input) 49.2 % and 4 (rc6_0 36.7,
 * sony12 61.7 %, its 4 other codes three Sony codes with bit errors and
 * an RC-5 one: Sony 12 has no check, and more frames came out); over the
 * whole `limit --rates 16000 --snr 0,2,4,6` grid IRJACK_TRIAL_DEBUG's
 * wrong codes 53 -> 51 (sony12 5 -> 2), so the other codes' mark is this
 * seed's.  At stop 43's merge (with the leader's space prior) 52.5 % and 4.
 * At stop 46's merge (a pulse-distance grid's smaller off-grid mass at
 * 16 kHz, the 400 µs drooped-step band, the first-edge rule below
 * 32 kHz) 77.5 % and 5, the fifth a Sony code with bits wrong; over the
 * grid `limit --rates 16000 --snr 0,2,4,6` (six protocols × τ)
 * IRJACK_TRIAL_DEBUG's wrong codes 9 -> 12 (sony12 4 -> 4, rc5_sz 1 -> 3,
 * telefunken 0 -> 1) for 5890 -> 6025 frames decoded as sent.
 */
#define MARK_REPLAY 37.0
#define MARK_REPLAY_FALSE 5u

static void test_first_blocks_decided_on_the_grid(void **state)
{
	static const enum ir_protocol protocols[] = { IR_PROTO_RC6_0, IR_PROTO_SONY12 };
	unsigned false_frames = 0;
	double mean;

	(void)state;
	mean = mean_seed_per_protocol(protocols, 2, 16000, 2, 60, 700, &false_frames);
	printf("first blocks on the grid: mean %.1f %%, %u false\n", mean, false_frames);
	assert_true(mean >= MARK_REPLAY);
	assert_true(false_frames <= MARK_REPLAY_FALSE);
}

/*
 * A unit pulse missed on a known grid merges three runs into one that
 * no grid length has (traced at main c4c0e43, 44.1/48 kHz 0 dB τ 1 ms:
 * of 31 frames lost after a right start, 16 a unit pulse or space
 * missed): on the frame's grid an edge costs the hazard of the run it
 * ends, and a run that goes on past the grid's lengths pays for it
 * (GRID_RUN_PRIOR in dsp/ir_seqdet.c).  RC-6, NEC and Sony 12 at
 * 44.1 kHz −2 dB τ 1 ms, bench_audio limit's channel, 40 frames each
 * (seeds 720-722): the mean % of frames and the frames decoded as other
 * codes: 35.0 % and 0 with GRID_RUN_PRIOR 0 (main's decisions, Debug;
 * rc6_0 32.5, nec 22.5, sony12 50.0), 47.5 % and 0 with it (57.5, 20.0,
 * 65.0).  The mark lies between; other codes at most one.
 */
#define MARK_RUN_PRIOR 41.0
#define MARK_RUN_PRIOR_FALSE 1u

static void test_runs_priced_on_the_grid(void **state)
{
	static const enum ir_protocol protocols[] = { IR_PROTO_RC6_0, IR_PROTO_NEC, IR_PROTO_SONY12 };
	unsigned false_frames = 0;
	double mean;

	(void)state;
	mean = mean_seed_per_protocol(protocols, 3, 44100, -2, 40, 720, &false_frames);
	printf("runs priced on the grid: mean %.1f %%, %u false\n", mean, false_frames);
	assert_true(mean >= MARK_RUN_PRIOR);
	assert_true(false_frames <= MARK_RUN_PRIOR_FALSE);
}

/*
 * Where in the frame a run ends (GRID_RUN_TRAILER in dsp/ir_seqdet.c:
 * RC-6's 3-unit runs only at its trailer bit) and, before any grid is
 * fixed, how long a leader's space lasts (LEAD_SPACE_NATS, now at
 * 44.1/48 kHz too): traced at 44.1/48 kHz −2 dB τ 1 ms, of rc6_0's 55
 * frames lost after a right start, 21 at the leader (11 the start bit's
 * unit pulse missed) and 9 a unit run missed into a 3-unit one away from
 * the trailer.  RC-6 at 44.1 kHz −2 dB τ 1 ms, bench_audio limit's
 * channel, 40 frames on each of seeds 760-762: the mean % of frames and
 * the frames decoded as other codes: 40.83 % and 0 without either
 * (GRID_RUN_TRAILER 0 and LEAD_PRIOR_MAX_RATE 32000, = main 3be758a's
 * decisions; 27.5/45.0/50.0), 50.83 % and 0 with both (37.5/52.5/62.5).
 * (Seeds 740-742 39.17 -> 42.50, 750-752 51.67 -> 55.00: no seed down.)
 * The mark lies between; other codes at most one.
 */
#define MARK_FRAME_POSITION 45.5
#define MARK_FRAME_POSITION_FALSE 1u

static void test_rc6_runs_where_the_frame_has_them(void **state)
{
	static const enum ir_protocol protocols[] = { IR_PROTO_RC6_0, IR_PROTO_RC6_0, IR_PROTO_RC6_0 };
	unsigned false_frames = 0;
	double mean;

	(void)state;
	mean = mean_seed_per_protocol(protocols, 3, 44100, -2, 40, 760, &false_frames);
	printf("rc6 runs where the frame has them: mean %.2f %%, %u false\n", mean, false_frames);
	assert_true(mean >= MARK_FRAME_POSITION);
	assert_true(false_frames <= MARK_FRAME_POSITION_FALSE);
}

/*
 * A leader's space known from the protocol tables (LEAD_SPACE_NATS in
 * dsp/ir_seqdet.c): at 16 kHz under a 1 ms coupling the bit pulse after
 * the leader's space (NEC's 563 µs: 9 samples) was missed and the space
 * told as long as the next pulse; a space after a first pulse of a
 * leader's length that runs past the longest such leader's space now
 * pays LEAD_SPACE_NATS.  NEC, RC-6, Sony 12 and JVC at 16 kHz 2 dB τ 1 ms,
 * bench_audio limit's channel, 50 frames each, seeds 801 and 802: the
 * mean % of frames and the frames decoded as other codes: 39.75 % and 2
 * without it (LEAD_SPACE_NATS 0, = main c4c0e43's decisions; seed 801
 * 34.5 %, 802 45.0), 42.00 % and 2 with it (37.0, 47.0; Release).  The
 * mean's mark lies between.  With the detector's frames teaching the
 * line its step (WEAK_TEACHES_STEP_MAX_RATE) and the grid's run prior
 * merged: 41.75 % and 4 other codes on these two seeds, while over
 * bench_audio limit --rates 16000 --snr 0,2,4,6 the frames decoded as
 * other codes (IRJACK_TRIAL_DEBUG) fell 53 -> 50: the other-code mark
 * is these seeds', not a rise.
 */
#define MARK_LEAD_SPACE 40.9
#define MARK_LEAD_SPACE_FALSE 4u

static void test_16_khz_leader_space_from_the_tables(void **state)
{
	static const enum ir_protocol protocols[] = { IR_PROTO_NEC, IR_PROTO_RC6_0, IR_PROTO_SONY12,
						      IR_PROTO_JVC };
	static const double snr[] = { 2 };
	unsigned false_frames = 0;
	double mean = 0;

	(void)state;
	for (uint64_t seed = 801; seed <= 802; seed++)
		mean += mean_16_khz_tau_1_ms(protocols, 4, snr, 1, 50, seed, &false_frames) / 2;
	printf("leader space from the tables: mean %.2f %%, %u false\n", mean, false_frames);
	assert_true(mean >= MARK_LEAD_SPACE);
	assert_true(false_frames <= MARK_LEAD_SPACE_FALSE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tau_1_ms_at_0_db),
		cmocka_unit_test(test_tau_1_ms_at_2_db),
		cmocka_unit_test(test_tau_neighbours_keep_leader_frames),
		cmocka_unit_test(test_no_start_at_a_leaders_fall),
		cmocka_unit_test(test_leader_rise_from_the_baseline),
		cmocka_unit_test(test_unit_pulses_on_the_grid),
		cmocka_unit_test(test_16_khz_drooped_rise_is_taken),
		cmocka_unit_test(test_16_khz_drooped_leader_from_the_baseline),
		cmocka_unit_test(test_16_khz_leader_rise_fits_the_droop),
		cmocka_unit_test(test_first_blocks_decided_on_the_grid),
		cmocka_unit_test(test_runs_priced_on_the_grid),
		cmocka_unit_test(test_rc6_runs_where_the_frame_has_them),
		cmocka_unit_test(test_16_khz_leader_space_from_the_tables),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
