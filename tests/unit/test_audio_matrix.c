/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The audio path over the matrix of what reaches a microphone input:
 * protocols × sample rates × both polarities × AC coupling × clipping, at
 * 20 dB SNR (receiver-module front end).  Each protocol must decode at
 * least 99 % of its frames, with no false frame, in every cell the sample
 * rate can resolve.  The limits (measured, and documented in the README):
 *
 *  - the shortest pulse must span 4 sample periods: Sharp's 320 µs pulses
 *    need 16 kHz, RC-MM's 167 µs pulses 44.1 kHz;
 *  - the AC coupling's time constant must span 16 sample periods: 0.5 ms
 *    needs 32 kHz, 2 ms is enough at 8 kHz.
 *
 * And the project's bar for noisy audio: at 12 dB SNR (where LIRC's audio
 * driver decodes nothing), at 44.1 and 48 kHz, AC-coupled, either
 * polarity, each protocol decodes at least 99 % of its frames.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include <cmocka.h>

#include "audio_harness.h"

#define FRAMES_PER_CELL 10

static const unsigned rates[] = { 8000, 16000, 44100, 48000, 96000, 192000 };
static const double taus_ms[] = { 0.5, 2, 20, 0 };

static bool cell_supported(const struct ir_protocol_info *info, unsigned shortest_pulse_us,
			   unsigned rate, double tau_ms)
{
	double sample_us = 1e6 / rate;

	(void)info;
	if (shortest_pulse_us < 4 * sample_us)
		return false;
	if (tau_ms > 0 && tau_ms * 1000 < 16 * sample_us)
		return false;
	return true;
}

static unsigned shortest_pulse_us(enum ir_protocol p)
{
	struct ir_edge_buf b = { 0 };
	unsigned shortest = UINT32_MAX;
	uint64_t sc = p == IR_PROTO_RC6_MCE ? 0x800f0000 : 0;

	/* all-ones and all-zeros scancodes between them show every pulse */
	ir_encode(p, sc, NULL, &b);
	ir_encode(p, ir_protocol_get(p)->scancode_mask & (p == IR_PROTO_RC6_MCE ? 0x800f7fff : ~0ull),
		  NULL, &b);
	for (size_t i = 0; i < b.len; i++)
		if (b.edges[i].kind == IR_PULSE && b.edges[i].duration < shortest)
			shortest = b.edges[i].duration;
	ir_edge_buf_free(&b);
	return shortest;
}

static void run_protocol(void **state)
{
	const char *name = *state;
	enum ir_protocol p;
	unsigned sent = 0, matched = 0, false_frames = 0, seed = 1;
	unsigned shortest;

	assert_int_equal(ir_protocol_from_name(name, &p), 0);
	shortest = shortest_pulse_us(p);
	printf("%-8s", name);
	for (size_t r = 0; r < sizeof(rates) / sizeof(rates[0]); r++) {
		unsigned cell_sent = 0, cell_ok = 0, cells = 0;

		for (size_t t = 0; t < sizeof(taus_ms) / sizeof(taus_ms[0]); t++) {
			if (!cell_supported(ir_protocol_get(p), shortest, rates[r], taus_ms[t]))
				continue;
			for (int invert = 0; invert < 2; invert++) {
				for (int clip = 0; clip < 2; clip++) {
					struct audio_trial trial = {
						.protocol = p,
						.frames = FRAMES_PER_CELL,
						.gap_min_ms = 130,
						.gap_max_ms = 200,
						.seed = seed++,
					};
					struct audio_result res;

					ir_channel_config_default(&trial.channel);
					trial.channel.sample_rate = rates[r];
					trial.channel.ac_tau_ms = taus_ms[t];
					trial.channel.snr_db = 20;
					trial.channel.invert = invert;
					trial.channel.clip_drive = clip ? 3 : 0;
					trial.channel.seed = trial.seed * 7919;
					assert_int_equal(audio_trial_run(&trial, &res), 0);
					cell_sent += res.sent;
					cell_ok += res.matched;
					false_frames += res.false_frames;
					cells++;
				}
			}
		}
		if (cells)
			printf("  %6u Hz %5.1f%%", rates[r], 100.0 * cell_ok / cell_sent);
		else
			printf("  %6u Hz    -  ", rates[r]);
		sent += cell_sent;
		matched += cell_ok;
	}
	printf("  all %5.1f%% (%u/%u), false %u\n", 100.0 * matched / sent, matched, sent,
	       false_frames);
	assert_true(sent > 0);
	assert_true(100 * matched >= 99 * sent);
	assert_int_equal(false_frames, 0);
}

static void run_protocol_12db(void **state)
{
	const char *name = *state;
	static const unsigned rates_12db[] = { 44100, 48000 };
	unsigned sent = 0, matched = 0, false_frames = 0, seed = 101;
	enum ir_protocol p;

	assert_int_equal(ir_protocol_from_name(name, &p), 0);
	for (size_t r = 0; r < 2; r++) {
		for (int invert = 0; invert < 2; invert++) {
			struct audio_trial trial = {
				.protocol = p,
				.frames = 60,
				.seed = seed++,
			};
			struct audio_result res;

			ir_channel_config_default(&trial.channel);
			trial.channel.sample_rate = rates_12db[r];
			trial.channel.ac_tau_ms = 5;
			trial.channel.snr_db = 12;
			trial.channel.invert = invert;
			trial.channel.seed = trial.seed * 7919;
			assert_int_equal(audio_trial_run(&trial, &res), 0);
			sent += res.sent;
			matched += res.matched;
			false_frames += res.false_frames;
		}
	}
	printf("%-8s 12 dB SNR: %5.1f%% (%u/%u), false %u\n", name, 100.0 * matched / sent,
	       matched, sent, false_frames);
	assert_true(100 * matched >= 99 * sent);
	assert_int_equal(false_frames, 0);
}

int main(void)
{
	static const char *const protocols[] = { "nec",   "rc5",   "rc6_mce", "sony12",
						 "jvc",   "sanyo", "sharp",   "rcmm32" };
	struct CMUnitTest tests[16];

	for (size_t i = 0; i < 8; i++) {
		tests[i] = (struct CMUnitTest){ .name = protocols[i],
						.test_func = run_protocol,
						.initial_state = (void *)protocols[i] };
		tests[8 + i] = (struct CMUnitTest){ .name = protocols[i],
						    .test_func = run_protocol_12db,
						    .initial_state = (void *)protocols[i] };
	}
	return _cmocka_run_group_tests("audio_matrix", tests, 16, NULL, NULL);
}
