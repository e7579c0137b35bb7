/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ir_tx_model.c - LED current from headphone voltage (see ir_tx_model.h). */
#include "ir_tx_model.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

void ir_tx_model_config_default(struct ir_tx_model_config *cfg)
{
	cfg->volts_full_scale = 2.0;
	cfg->resistor_ohm = 68;
	cfg->is_amp = 1e-15;
	cfg->n_vt = 1.55 * 0.02585;
	cfg->anti_parallel = 1;
}

/* Current through resistor + diode for a forward voltage v >= 0. */
static double diode_current(const struct ir_tx_model_config *c, double v)
{
	/* Solve f(Vd) = Is(exp(Vd/nVt)-1) - (v - Vd)/R = 0, f increasing. */
	double lo = 0, hi = v;

	if (v <= 0)
		return 0;
	/* Bisection: monotonic and robust against exp() overflow; 50 steps
	 * bring the bracket below 1e-15 V. */
	for (int i = 0; i < 50; i++) {
		double mid = 0.5 * (lo + hi);
		double f = c->is_amp * expm1(mid / c->n_vt) - (v - mid) / c->resistor_ohm;

		if (f > 0)
			hi = mid;
		else
			lo = mid;
	}
	return (v - 0.5 * (lo + hi)) / c->resistor_ohm;
}

void ir_tx_model_light(const struct ir_tx_model_config *cfg, const float *stereo, size_t frames,
		       float *light)
{
	for (size_t i = 0; i < frames; i++) {
		double v;

		if (cfg->anti_parallel)
			v = ((double)stereo[2 * i] - stereo[2 * i + 1]) * cfg->volts_full_scale;
		else
			v = (double)stereo[2 * i] * cfg->volts_full_scale;
		double cur = diode_current(cfg, v);

		if (cfg->anti_parallel)
			cur += diode_current(cfg, -v);
		light[i] = (float)cur;
	}
}

unsigned ir_tx_model_oversample(unsigned sample_rate)
{
	return sample_rate ? (384000 + sample_rate - 1) / sample_rate : 1;
}

/* Taps of the interpolator on each side, in input samples.  With 24 the
 * Blackman window's transition band (~5.5/48 of the rate) let the image of
 * a 36 kHz tone at 96 kHz (60 kHz) through and the light's peaks beat at
 * 24 kHz (measured); 64 narrows it to ~0.04 x rate around Nyquist. */
#define TX_HALF_TAPS 64

int ir_tx_model_render(const struct ir_tx_model_config *cfg, const float *stereo, size_t frames,
		       unsigned oversample, float **light, size_t *light_frames)
{
	size_t n = frames * oversample;
	float *up, *out;
	size_t taps = 2 * TX_HALF_TAPS * oversample + 1;
	double *h;

	*light = NULL;
	*light_frames = 0;
	if (oversample == 0 || oversample > 64)
		return -EINVAL;
	up = malloc((n ? n : 1) * 2 * sizeof(float));
	out = malloc((n ? n : 1) * sizeof(float));
	h = malloc(taps * sizeof(double));
	if (!up || !out || !h) {
		free(up);
		free(out);
		free(h);
		return -ENOMEM;
	}
	/* h[k] is the band-limited impulse at an offset of (k - centre) /
	 * oversample input samples; each output sums the input samples within
	 * the window, spaced one input sample apart, so DC gain is ~1. */
	for (size_t k = 0; k < taps; k++) {
		double x = ((double)k - (double)(taps - 1) / 2) / oversample;
		double fc = 1.0; /* cut-off at the input's Nyquist: an ideal DAC */
		double sinc = x == 0 ? fc : sin(M_PI * fc * x) / (M_PI * x);
		double w = 0.42 - 0.5 * cos(2 * M_PI * k / (taps - 1)) +
			   0.08 * cos(4 * M_PI * k / (taps - 1));

		h[k] = sinc * w;
	}
	for (size_t j = 0; j < n; j++) {
		/* Input samples i with |j - i*os| <= half-width. */
		long jc = (long)j;
		long half = (long)(TX_HALF_TAPS * oversample);
		long i0 = (jc - half + (long)oversample - 1) / (long)oversample;
		double l = 0, r = 0;

		if (jc - half < 0)
			i0 = 0;
		for (long i = i0; i < (long)frames && i * (long)oversample <= jc + half; i++) {
			double c = h[i * (long)oversample - jc + half];

			l += c * stereo[2 * i];
			r += c * stereo[2 * i + 1];
		}
		up[2 * j] = (float)l;
		up[2 * j + 1] = (float)r;
	}
	ir_tx_model_light(cfg, up, n, out);
	free(up);
	free(h);
	*light = out;
	*light_frames = n;
	return 0;
}
