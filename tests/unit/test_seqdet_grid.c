/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The sequence detector's unit grids (dsp/ir_seqdet_grid.h): the leader
 * picks the protocol's grid (timings from the protocols' specifications:
 * RC-6 unit 444.4 µs, leader 6 + 2 units; RC-5 889 µs; NEC 9000/4500 on
 * 562.5 µs; JVC 8440/4220 on 527 µs; Sony 2400/600 on 600 µs), the
 * edges of a window are retimed onto it where the samples do not say
 * otherwise, and a path off every grid is left alone; a receiver's
 * stretch (pulses longer, spaces shorter by as much) is fitted and told
 * back.  Then rc6_0 and nec at 0 dB through the whole receiver, where
 * edges off by 150-260 µs (a Manchester half-bit for RC-6) lost frames
 * before the grid, and at 2 dB with 200 µs of stretch.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "audio_harness.h"
#include "ir_seqdet_grid.h"

#define US (1e6 / 48000)

static void test_leaders_pick_their_grids(void **state)
{
	(void)state;
	assert_true(fabs(ir_grid_unit(ir_grid_pick(2666, 889)) - 444.4) < 1);
	assert_true(fabs(ir_grid_unit(ir_grid_pick(889, 889)) - 888.9) < 1);
	assert_true(fabs(ir_grid_unit(ir_grid_pick(1778, 889)) - 888.9) < 1);
	assert_true(fabs(ir_grid_unit(ir_grid_pick(9000, 4500)) - 562.5) < 1);
	assert_true(fabs(ir_grid_unit(ir_grid_pick(8440, 4220)) - 527) < 1);
	assert_true(fabs(ir_grid_unit(ir_grid_pick(2400, 600)) - 600) < 1);
	/* a 0 dB RC-6 leader told 190 µs short (traced) */
	assert_true(fabs(ir_grid_unit(ir_grid_pick(2475, 917)) - 444.4) < 1);
	/* an RC-6 leader from a receiver that stretches pulses 200 µs, told
	 * 100 µs longer still (0.67 units off on main's stretch-free
	 * grid: no grid), and NEC's; the stretch each shows */
	assert_true(fabs(ir_grid_unit(ir_grid_pick(2966, 589)) - 444.4) < 1);
	assert_true(fabs(ir_grid_leader_stretch(ir_grid_pick(2866, 689), 2866, 689) - 200) < 1);
	assert_true(fabs(ir_grid_leader_stretch(ir_grid_pick(9200, 4300), 9200, 4300) - 200) < 1);
	assert_true(fabs(ir_grid_leader_stretch(ir_grid_pick(9000, 4500), 9000, 4500)) < 1);
	/* Kaseikyo's 3456/1728 and RC-MM's 417/278: no grid here */
	assert_int_equal(ir_grid_pick(3456, 1728), -1);
	assert_int_equal(ir_grid_pick(417, 278), -1);
}

/* A window of RC-6 edges after a space-starting anchor at sample 0: runs
 * of 1, 1, 2, 1 units, edge 1 traced `off_us` late; each sample an edge
 * moves from where it was traced costs `per_sample` nats. */
static void rc6_window(struct ir_grid *g, double off_us, double per_sample)
{
	static const double units[] = { 1, 2, 4, 5 };

	memset(g, 0, sizeof(*g));
	g->us = US;
	g->W = 14;
	g->n = 4;
	g->anchor = 0;
	g->anchor_lit = false;
	for (unsigned k = 0; k < g->n; k++) {
		g->at[k] = round(units[k] * 444.4 / US) + (k == 1 ? round(off_us / US) : 0);
		for (int c = 0; c <= 2 * g->W; c++)
			g->gain[k][c] = -per_sample * fabs((double)(c - g->W));
	}
}

/* A frame's longest space (ir_seqdet.c's gap after it, GRID_GAP_NATS):
 * NEC's leader space 4.5 ms, JVC's 4.2 ms, RC-6's 3 units, RC-5's 2,
 * Sony's one. */
static void test_longest_spaces(void **state)
{
	(void)state;
	assert_true(fabs(ir_grid_longest_space(ir_grid_pick(9000, 4500)) - 4500) < 1);
	assert_true(fabs(ir_grid_longest_space(ir_grid_pick(8440, 4220)) - 4216) < 1);
	assert_true(fabs(ir_grid_longest_space(ir_grid_pick(2666, 889)) - 1333.2) < 1);
	assert_true(fabs(ir_grid_longest_space(ir_grid_pick(889, 889)) - 1777.8) < 1);
	assert_true(fabs(ir_grid_longest_space(ir_grid_pick(2400, 600)) - 600) < 1);
}

static void test_an_edge_off_the_grid_is_retimed(void **state)
{
	struct ir_grid g;
	double out[IR_GRID_EDGES_MAX], st;

	(void)state;
	rc6_window(&g, 200, 0.2);
	assert_true(ir_grid_retime(&g, ir_grid_pick(2666, 889), 0, out, &st));
	/* back within RC-6's ±20 % of its 2 units (889 µs) */
	assert_true(fabs(out[1] * US - 888.9) <= 0.2 * 444.4);
	assert_true(fabs(out[0] - g.at[0]) <= 1);
	assert_true(fabs(out[2] - g.at[2]) <= 1);
}

static void test_clear_samples_overrule_the_grid(void **state)
{
	struct ir_grid g;
	double out[IR_GRID_EDGES_MAX], st;

	(void)state;
	/* the 6 samples back onto the grid at 2 nats each outweigh two runs
	 * off it */
	rc6_window(&g, 200, 2.0);
	ir_grid_retime(&g, ir_grid_pick(2666, 889), 0, out, &st);
	assert_true(fabs(out[1] - g.at[1]) <= 1);
}

/* A window of runs of `run_us` each (space, pulse, ...), each edge free
 * to move 2 samples (a run 83 µs), at 0.2 nats a sample. */
static void even_window(struct ir_grid *g, double run_us)
{
	rc6_window(g, 0, 0.2);
	g->W = 2;
	for (unsigned k = 0; k < g->n; k++) {
		g->at[k] = round((k + 1) * run_us / US);
		for (int c = 0; c <= 2 * g->W; c++)
			g->gain[k][c] = -0.2 * fabs((double)(c - g->W));
	}
}

static void test_a_path_off_every_grid_is_left_alone(void **state)
{
	struct ir_grid g;
	double out[IR_GRID_EDGES_MAX], st;

	(void)state;
	/* runs of 0.6 RC-6 units (267 µs), each edge free to move a sample:
	 * every pulse shorter than RC-6's however a receiver stretched it
	 * (a +0.4 unit stretch puts the spaces on the grid, not the pulses) */
	for (int lit = 0; lit < 2; lit++) {
		even_window(&g, 0.6 * 444.4);
		g.W = 1;
		g.n = 5;
		g.anchor_lit = lit;
		for (unsigned k = 0; k < g.n; k++) {
			g.at[k] = round((k + 1) * 0.6 * 444.4 / US);
			for (int c = 0; c <= 2 * g.W; c++)
				g.gain[k][c] = -0.2 * fabs((double)(c - g.W));
		}
		assert_false(ir_grid_retime(&g, ir_grid_pick(2666, 889), 0, out, &st));
		assert_true(st == 0);
		for (unsigned k = 0; k < g.n; k++)
			assert_true(out[k] == g.at[k]);
	}
}

/* Runs of 650 µs (1.46 RC-6 units; on main's grid, off it and left
 * alone): RC-6's 1-unit pulses and 2-unit spaces from a receiver that
 * lengthens pulses by ~206 µs.  On the grid under that stretch, and the
 * stretch measured within RC-6's ±0.2 units (89 µs). */
static void test_a_stretched_path_fits_its_grid(void **state)
{
	struct ir_grid g;
	double out[IR_GRID_EDGES_MAX], st;

	(void)state;
	even_window(&g, 650);
	assert_true(ir_grid_retime(&g, ir_grid_pick(2666 + 206, 889 - 206), 0, out, &st));
	printf("650 us runs: stretch %.0f us\n", st);
	assert_true(fabs(st - 206) < 0.2 * 444.4);
}

/* rc6_0 and nec at 0 dB, 44.1 and 48 kHz, τ 5 ms and DC, through the
 * whole receiver: the matched frames of each protocol, and the false. */
static void grid_trials(const char *name, unsigned *sent, unsigned *matched, unsigned *false_frames)
{
	static const unsigned rates[] = { 44100, 48000 };
	static const double taus[] = { 0, 5 };

	*sent = *matched = 0;
	for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); i++)
		for (size_t k = 0; k < sizeof(taus) / sizeof(taus[0]); k++)
			for (uint64_t seed = 70; seed < 74; seed++) {
				struct audio_result r;

				assert_int_equal(audio_trial_module(name, rates[i], taus[k], 0, 50, seed, 0, 0, &r),
						 0);
				printf("0 dB, %u Hz, tau %g ms, seed %llu: %s %u of %u\n", rates[i], taus[k],
				       (unsigned long long)seed, name, r.matched, r.sent);
				*sent += r.sent;
				*matched += r.matched;
				*false_frames += r.false_frames;
			}
	printf("%s %u of %u\n", name, *matched, *sent);
}

static void test_rc6_and_nec_at_0_db_on_their_grids(void **state)
{
	unsigned sent[2], matched[2], false_frames = 0;

	(void)state;
	grid_trials("rc6_0", &sent[0], &matched[0], &false_frames);
	grid_trials("nec", &sent[1], &matched[1], &false_frames);
	printf("false frames %u\n", false_frames);
	/* Measured: rc6_0 760, nec 789 of 800 (1549), no false frame; at
	 * main (9cef359, before the grid) 753 and 785 (1538), 1 false. */
	assert_int_equal(sent[0], 800);
	assert_int_equal(sent[1], 800);
	assert_true(matched[0] + matched[1] >= 1545);
	assert_true(false_frames <= 2);
}

/* rc6_0 and nec at 2 dB, 48 kHz, τ 5 ms and DC, from a receiver that
 * lengthens every pulse by 200 µs (RC-6's 1-unit spaces: 244 µs): the
 * matched frames of both, and the false. */
static void stretched_trials(unsigned *sent, unsigned *matched, unsigned *false_frames)
{
	static const char *const names[] = { "rc6_0", "nec" };
	static const double taus[] = { 0, 5 };

	*sent = *matched = *false_frames = 0;
	for (size_t p = 0; p < 2; p++)
		for (size_t k = 0; k < 2; k++)
			for (uint64_t seed = 80; seed < 81; seed++) {
				struct audio_trial t = { .frames = 50, .seed = seed };
				struct audio_result r;

				assert_int_equal(ir_protocol_from_name(names[p], &t.protocol), 0);
				ir_channel_config_default(&t.channel);
				t.channel.sample_rate = 48000;
				t.channel.ac_tau_ms = taus[k];
				t.channel.snr_db = 2;
				t.channel.hum_hz = 50;
				t.channel.hum_level = 0.02;
				t.channel.invert = seed & 1;
				t.channel.seed = seed * 7919;
				t.channel.stretch_us = 200;
				assert_int_equal(audio_trial_run(&t, &r), 0);
				printf("2 dB, stretch 200 us, tau %g ms, seed %llu: %s %u of %u\n", taus[k],
				       (unsigned long long)seed, names[p], r.matched, r.sent);
				*sent += r.sent;
				*matched += r.matched;
				*false_frames += r.false_frames;
			}
}

static void test_stretched_rc6_and_nec_at_2_db(void **state)
{
	unsigned sent, matched, false_frames;

	(void)state;
	stretched_trials(&sent, &matched, &false_frames);
	printf("stretched: %u of %u, false frames %u\n", matched, sent, false_frames);
	/* Measured: 185 of 200, no false frame; at main (12d89fb, grids
	 * that fit unstretched runs only, marks told as stretched) 102 of
	 * 200 (rc6_0 27 of 100), 4 false. */
	assert_int_equal(sent, 200);
	assert_true(matched >= 170);
	assert_true(false_frames <= 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_leaders_pick_their_grids),
		cmocka_unit_test(test_longest_spaces),
		cmocka_unit_test(test_an_edge_off_the_grid_is_retimed),
		cmocka_unit_test(test_clear_samples_overrule_the_grid),
		cmocka_unit_test(test_a_path_off_every_grid_is_left_alone),
		cmocka_unit_test(test_a_stretched_path_fits_its_grid),
		cmocka_unit_test(test_rc6_and_nec_at_0_db_on_their_grids),
		cmocka_unit_test(test_stretched_rc6_and_nec_at_2_db),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
