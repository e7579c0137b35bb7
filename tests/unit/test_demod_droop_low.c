/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The drooped-step band's long sections below 32 kHz (issue #18;
 * DROOP_BAND_LOW_US, DROOP_HUM_ON, DROOP_LOW_MAX_SNR_DB in
 * dsp/ir_demod_state.h).  A leader drooping under a 1 ms coupling is
 * matched better by two 400 µs sections than by two of 200 µs (2.37 against
 * 2.19 × step/σ at 16 kHz): with them more τ 1 ms leaders start at 0-2 dB.
 *
 * First test: six protocols at 16 kHz, τ 1 ms, README SNR 0 and 2 dB,
 * bench_audio limit's channel (audio_trial_limit_point), seed 1600,
 * 100 frames a point: frames decoded as sent and frames decoded as other
 * codes.  Main 881064d: see MARK_DROOP_LOW_PCT's note.  (At 20 frames a
 * point, seeds 1600-1601, main 27.5 % / 3 and the branch 25.8 % / 2:
 * the streams' first frames, before a step is learnt, weigh more there;
 * not the bench's 100-frame streams.)
 *
 * Second test: strong 50 Hz hum (bench_audio false's "noise and strong
 * 50 Hz hum": white noise at 0.01, hum at 0.3 with its third harmonic)
 * after one weak 9 ms pulse, 16 kHz, 30 s: the long sections without the
 * hum rule kept starting weak frames on the hum (edges every few hum
 * cycles, the full path never left: `bench_audio false --rate 16000
 * --seconds 240` hum rows 1.6 -> 17.9 s of CPU); edges reported are the
 * proxy.  See MARK_HUM_EDGES's note.
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
#include "ir_receiver.h"

/* Main 881064d: 33.42 % (401 of 1200) and 9 other codes; with the long
 * sections 37.00 % (444) and 8 (Debug and Release alike; all six
 * protocols at DROOP_HUM_ON 1e30, DROOP_LOW_MAX_SNR_DB 100: 37.17 %, 8).
 * The mark lies between; other codes no more than main's. */
#define MARK_DROOP_LOW_PCT 35.0
#define MARK_DROOP_LOW_FALSE 9u

static void test_16_khz_tau_1_ms_leaders_start(void **state)
{
	static const enum ir_protocol protocols[] = { IR_PROTO_NEC, IR_PROTO_RC5, IR_PROTO_RC6_0,
						      IR_PROTO_SONY12, IR_PROTO_JVC, IR_PROTO_SANYO };
	static const double snrs[] = { 0, 2 };
	unsigned sent = 0, matched = 0, false_frames = 0;

	(void)state;
	for (size_t k = 0; k < 2; k++)
		for (size_t i = 0; i < 6; i++) {
			struct audio_result r;

			assert_int_equal(audio_trial_limit_point(protocols[i], 16000, 1, snrs[k], 0, 100, 1600, &r), 0);
			assert_true(r.sent > 0);
			printf("  16 kHz tau 1 ms %.0f dB protocol %d: %u of %u (%u false)\n", snrs[k], (int)protocols[i],
			       r.matched, r.sent, r.false_frames);
			sent += r.sent;
			matched += r.matched;
			false_frames += r.false_frames;
		}
	printf("16 kHz tau 1 ms 0/2 dB: %.2f %% of %u frames, %u false\n", 100.0 * matched / sent, sent,
	       false_frames);
	assert_true(100.0 * matched / sent >= MARK_DROOP_LOW_PCT);
	assert_true(false_frames <= MARK_DROOP_LOW_FALSE);
}

static unsigned hum_frames;

static void count_frame(void *userdata, const struct ir_frame *f)
{
	(void)userdata;
	(void)f;
	hum_frames++;
}

/* bench_audio false's generator: white noise at `level`, hum at `hum`
 * (50 Hz and a third of its third harmonic), and from sample `at` for
 * `len` samples a step of `step` added. */
static void feed_hum(struct ir_receiver *rx, unsigned rate, size_t n, uint64_t *s, uint64_t *t, double level,
		     double hum, uint64_t at, uint64_t len, double step)
{
	float buf[1024];

	for (size_t done = 0; done < n;) {
		size_t k = n - done < 1024 ? n - done : 1024;

		for (size_t i = 0; i < k; i++, (*t)++) {
			double u, v, tt = (double)*t / rate, x;

			*s = *s * 6364136223846793005ull + 1442695040888963407ull;
			u = ((double)(*s >> 11) + 0.5) / 9007199254740992.0;
			*s = *s * 6364136223846793005ull + 1442695040888963407ull;
			v = ((double)(*s >> 11) + 0.5) / 9007199254740992.0;
			x = level * sqrt(-2 * log(u)) * cos(2 * M_PI * v);
			x += hum * (sin(2 * M_PI * 50 * tt) + sin(6 * M_PI * 50 * tt) / 3);
			if (*t >= at && *t < at + len)
				x += step;
			buf[i] = (float)x;
		}
		ir_receiver_process(rx, buf, k);
		done += k;
	}
}

/* Main 881064d: 920 edges, no frame (the hum's own, from the wide band
 * and the weak one); the long sections without the hum rule
 * (DROOP_HUM_ON 1e30, DROOP_LOW_MAX_SNR_DB 100) 1515 edges and a frame;
 * with it 922 and none.  The mark lies between. */
#define MARK_HUM_EDGES 1200u

static void test_16_khz_hum_does_not_keep_the_band_starting(void **state)
{
	const unsigned rate = 16000;
	struct ir_receiver_config cfg = { .sample_rate = rate, .channels = 1 };
	struct ir_receiver *rx;
	struct ir_signal_report rep;
	uint64_t s = 3, t = 0;
	/* the pulse: twice the rms before it (noise 0.01, hum 0.3 and 0.1) */
	double step = 2 * sqrt(0.01 * 0.01 + 0.3 * 0.3 / 2 + 0.1 * 0.1 / 2);

	(void)state;
	hum_frames = 0;
	assert_int_equal(ir_receiver_new(&cfg, count_frame, NULL, &rx), 0);
	feed_hum(rx, rate, (size_t)rate * 30, &s, &t, 0.01, 0.3, rate / 5, rate * 9 / 1000, step);
	assert_int_equal(ir_receiver_report(rx, 0, &rep), 0);
	ir_receiver_flush(rx);
	ir_receiver_free(rx);
	printf("16 kHz strong hum after one pulse, 30 s: %llu edges, %u frames\n", (unsigned long long)rep.edges,
	       hum_frames);
	assert_true(rep.edges <= MARK_HUM_EDGES);
	assert_int_equal(hum_frames, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_16_khz_tau_1_ms_leaders_start),
		cmocka_unit_test(test_16_khz_hum_does_not_keep_the_band_starting),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
