/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The channel model's codec filter (ir_channel_config.codec_filter) and the
 * photodiode genie the bench compares the demodulator with:
 *  - a 38 kHz photodiode carrier sampled at 48 kHz through a codec's
 *    decimation filter leaves the pulse train's mean (duty × peak) and
 *    nothing of the carrier above -80 dB (codec datasheets' stopband);
 *  - at 96 kHz the carrier's fundamental, (2A/π)·sin(πD) for a rectangular
 *    train of duty D, passes whole (the short default filter takes 1.7 dB
 *    off it) and its second harmonic is gone;
 *  - the genie finds every frame well above the noise and none far below.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>

#include <cmocka.h>

#include "audio_harness.h"
#include "ir_channel_sim.h"

#define BURST_US 20000

/* A DC-coupled, noiseless photodiode rendering of one 20 ms burst. */
static float *render_burst(unsigned rate, bool codec, size_t *n)
{
	struct ir_channel_config cfg;
	struct ir_edge burst = { .kind = IR_PULSE, .duration = BURST_US };
	float *s = NULL;

	ir_channel_config_default(&cfg);
	cfg.sample_rate = rate;
	cfg.frontend = IR_FRONTEND_PHOTODIODE;
	cfg.carrier_hz = 38000;
	cfg.duty_cycle = 33;
	cfg.amplitude = 0.5;
	cfg.codec_filter = codec;
	assert_int_equal(ir_channel_render(&cfg, &burst, 1, &s, n), 0);
	return s;
}

/* Amplitude of the component at `hz` over samples [from, from + len). */
static double tone(const float *s, size_t from, size_t len, unsigned rate, double hz)
{
	double re = 0, im = 0;

	for (size_t k = 0; k < len; k++) {
		double ph = 2 * M_PI * hz * (double)k / rate;

		re += s[from + k] * cos(ph);
		im += s[from + k] * sin(ph);
	}
	return 2 * sqrt(re * re + im * im) / (double)len;
}

static void test_codec_filter_leaves_the_mean_at_48k(void **state)
{
	size_t n, from = 20 * 48 + 96, len = 480; /* 10 ms inside the burst */
	float *s = render_burst(48000, true, &n);
	double mean = 0, ripple = 0, fundamental = 2 * 0.5 / M_PI * sin(M_PI * 0.33);

	(void)state;
	for (size_t k = from; k < from + len; k++)
		mean += s[k];
	mean /= (double)len;
	for (size_t k = from; k < from + len; k++)
		ripple = fmax(ripple, fabs(s[k] - mean));
	assert_true(fabs(mean - 0.33 * 0.5) < 0.002);
	assert_true(ripple < fundamental * 1e-4);
	free(s);
}

static void test_codec_filter_passes_the_carrier_at_96k(void **state)
{
	size_t n, from = 20 * 96 + 192, len = 960; /* 380 cycles of 38 kHz */
	float *s = render_burst(96000, true, &n);
	double fundamental = 2 * 0.5 / M_PI * sin(M_PI * 0.33);

	(void)state;
	assert_true(fabs(tone(s, from, len, 96000, 38000) / fundamental - 1) < 0.01);
	/* the second harmonic, 76 kHz, would alias to 20 kHz */
	assert_true(tone(s, from, len, 96000, 20000) < fundamental * 1e-4);
	free(s);
	/* the short filter is not a codec's: its soft passband edge takes
	 * more than 1 dB off a carrier at 0.4 × the rate */
	s = render_burst(96000, false, &n);
	assert_true(tone(s, from, len, 96000, 38000) / fundamental < 0.89);
	free(s);
}

static void genie_at(enum ir_frontend fe, unsigned rate, double snr, struct audio_result *r)
{
	struct audio_trial t = { .protocol = IR_PROTO_NEC, .frames = 10, .seed = 7, .genie = true };

	ir_channel_config_default(&t.channel);
	t.channel.frontend = fe;
	t.channel.codec_filter = true;
	t.channel.sample_rate = rate;
	t.channel.ac_tau_ms = 5;
	t.channel.snr_db = snr;
	t.channel.seed = 7;
	assert_int_equal(audio_trial_run(&t, r), 0);
	assert_int_equal(r->sent, 10);
}

static void test_genie_sees_what_the_noise_allows(void **state)
{
	static const enum ir_frontend fe[] = { IR_FRONTEND_TSOP, IR_FRONTEND_PHOTODIODE };
	struct audio_result r;

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		genie_at(fe[i], 96000, 20, &r);
		assert_int_equal(r.genie_matched, 10);
		genie_at(fe[i], 96000, -25, &r);
		assert_int_equal(r.genie_matched, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_codec_filter_leaves_the_mean_at_48k),
		cmocka_unit_test(test_codec_filter_passes_the_carrier_at_96k),
		cmocka_unit_test(test_genie_sees_what_the_noise_allows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
