/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Recordings cut tight: a file that begins a few milliseconds before the
 * first pulse, or inside it, with the AC coupling's baseline wherever the
 * cut left it.  Nothing precedes the first edge to learn the noise floor
 * or the dark level from; the demodulator must decide them from what
 * follows, and the frame must decode.
 *
 * Each protocol's frame is rendered through the channel model (receiver
 * module, both polarities, AC coupling 1 ms, 5 ms and none, 30 dB SNR),
 * then the samples are cut at offsets from 5 ms before the first pulse to
 * 100 µs into it (30 µs for Sony: see audio_cut_frames).  A deeper cut shortens
 * the leader towards the edge of its tolerance (±262 µs for JVC's 8.4 ms)
 * or into another protocol's reach (RC-5's, 178 µs under Sony's), and
 * past it no decoder may accept the frame; 100 µs leaves the demodulator's
 * own timing error room inside the tightest of them.  What the
 * frame is comes from decoding its clean timings, not from the audio path.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "audio_harness.h"
#include "ir_channel_sim.h"

#define LEAD_MS 20.0


static void test_cut_recordings_decode(void **state)
{
	static const double taus[] = { 1, 5, 0 };
	/* ms before the first pulse, then µs into it */
	static const double before_ms[] = { 5, 4, 3, 2, 1.5, 1, 0.75, 0.5, 0.3, 0.1, 0 };
	/* fractions of the protocol's deepest cut (30, 60, 100 us for most) */
	static const double into_frac[] = { 0.3, 0.6, 1.0 };
	unsigned tried = 0, failed = 0;

	(void)state;
	for (size_t p = 0; p < AUDIO_CUT_FRAMES; p++) {
		struct ir_edge_buf b = { 0 };
		struct audio_wanted w;

		assert_int_equal(audio_cut_frame_edges(p, &b, &w), 0);
		for (size_t t = 0; t < 3; t++) {
			for (int inv = 0; inv < 2; inv++) {
				struct ir_channel_config c;
				float *s;
				size_t n;

				assert_int_equal(b.edges[0].kind, IR_PULSE);
				ir_channel_config_default(&c);
				c.ac_tau_ms = taus[t];
				c.snr_db = 30;
				c.invert = inv;
				c.lead_ms = LEAD_MS;
				c.seed = p * 7 + t * 3 + (unsigned)inv + 1;
				assert_int_equal(ir_channel_render(&c, b.edges, b.len, &s, &n), 0);
				for (size_t k = 0; k < sizeof(before_ms) / sizeof(before_ms[0]) + 3; k++) {
					double at_ms = k < sizeof(before_ms) / sizeof(before_ms[0])
							       ? LEAD_MS - before_ms[k]
							       : LEAD_MS + audio_cut_frames[p].deepest_us *
										   into_frac[k - sizeof(before_ms) /
											     sizeof(before_ms[0])] /
										   1000;
					size_t from = (size_t)llround(at_ms * 1e-3 * c.sample_rate);
					size_t block = k % 3 == 0 ? 1 : k % 3 == 1 ? 37 : 4096;

					tried++;
					if (!audio_decodes_from(s, n, from, c.sample_rate, block, &w, NULL)) {
						failed++;
						fprintf(stderr,
							"%s tau %.0f ms %s: cut %.2f ms from the first pulse: not decoded\n",
							audio_cut_frames[p].name, taus[t], inv ? "inverted" : "active low",
							at_ms - LEAD_MS);
					}
				}
				free(s);
			}
		}
		ir_edge_buf_free(&b);
	}
	printf("cut recordings: %u tried, %u not decoded\n", tried, failed);
	assert_int_equal(failed, 0);
}

/*
 * Cut inside the first pulse, with the noise, hum and seeds varied: the
 * line starts on the coupling's droop.  The idle path's level followed it
 * with a lag that grew until it read as an edge, up to 260 us before the
 * pulse's end (rc6_0 and sony12 at tau 5 ms, a few seeds in ten: a leader
 * too short for its protocol).  30 dB, hum at 2 % of the step.
 */
static void test_cut_inside_a_drooping_pulse(void **state)
{
	static const double taus[] = { 5, 1 };
	static const double into_frac[] = { 0, 0.3, 0.6, 1.0 };
	unsigned tried = 0, failed = 0;

	(void)state;
	for (size_t p = 0; p < AUDIO_CUT_FRAMES; p++) {
		struct ir_edge_buf b = { 0 };
		struct audio_wanted w;

		assert_int_equal(audio_cut_frame_edges(p, &b, &w), 0);
		for (size_t t = 0; t < 2; t++) {
			for (unsigned v = 0; v < 20; v++) {
				struct ir_channel_config c;
				float *s;
				size_t n;

				ir_channel_config_default(&c);
				c.ac_tau_ms = taus[t];
				c.snr_db = 30;
				c.hum_hz = 50;
				c.hum_level = 0.02;
				c.invert = v & 1;
				c.lead_ms = LEAD_MS;
				c.seed = 1000003u * (v / 2 + 1) + 7919u * p + 131u * t + (v & 1);
				assert_int_equal(ir_channel_render(&c, b.edges, b.len, &s, &n), 0);
				for (size_t k = 0; k < sizeof(into_frac) / sizeof(into_frac[0]); k++) {
					double deepest = audio_cut_frames[p].deepest_us;
					double at_ms = LEAD_MS + deepest * into_frac[k] / 1000;
					size_t from = (size_t)llround(at_ms * 1e-3 * c.sample_rate);

					tried++;
					if (!audio_decodes_from(s, n, from, c.sample_rate, 4096, &w, NULL)) {
						failed++;
						fprintf(stderr, "%s tau %.0f ms seed %llu: cut %.3f ms into the first pulse: not decoded\n",
							audio_cut_frames[p].name, taus[t], (unsigned long long)c.seed,
							at_ms - LEAD_MS);
					}
				}
				free(s);
			}
		}
		ir_edge_buf_free(&b);
	}
	printf("cut inside a drooping pulse: %u tried, %u not decoded\n", tried, failed);
	assert_int_equal(failed, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cut_recordings_decode),
		cmocka_unit_test(test_cut_inside_a_drooping_pulse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
