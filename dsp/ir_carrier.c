/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "ir_carrier.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <fftw3.h>

/* IR carriers in use: 30 to 56 kHz; the search band is a little wider. */
#define CARRIER_MIN_HZ 20000.0
#define CARRIER_MAX_HZ 60000.0
/* The slowest carrier must fit under the Nyquist frequency with room for
 * the converter's filter: 2.2 × 30 kHz. */
#define RATE_MIN 66000u
/* Analysis length: 4096 points is 21 ms at 192 kHz, longer than NEC's 9 ms
 * leader; shorter bursts are zero-padded. */
#define FFT_SIZE 4096
/* A burst shorter than this many carrier periods says little. */
#define MIN_PERIODS 12
/* The peak must stand this far above the mean power of the band (13 dB;
 * the largest of ~1000 bins of noise alone is ~7 times their mean). */
#define PEAK_OVER_MEAN 20.0
/* Bursts analysed per key press: enough to average, few enough that a
 * 192 kHz receiver does not spend its time in FFTs. */
#define MAX_BURSTS 8
/* ...and its amplitude a fifth of the burst's step at least: a rectangular
 * light pulse train of duty D has a fundamental of (2/π) sin(πD) times its
 * height, against D for the envelope (1.7 times it at 33 %). */
#define MIN_AMPLITUDE_OF_STEP 0.2
/* Converters pass up to 0.45 of their rate; stay clear of the edge. */
#define DUTY_MAX_FRACTION 0.42

struct ir_carrier {
	unsigned rate;
	float *in;
	fftwf_complex *out;
	fftwf_plan plan;
	float *power;
	size_t len;          /* samples of the burst in progress */
	unsigned bursts;     /* analysed since the last reset */
	double weight;       /* Σ burst lengths with a carrier */
	double hz_sum, duty_sum, duty_weight;
};

int ir_carrier_new(unsigned sample_rate, struct ir_carrier **out)
{
	struct ir_carrier *c;

	if (sample_rate < RATE_MIN)
		return -EINVAL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->rate = sample_rate;
	c->in = fftwf_alloc_real(FFT_SIZE);
	c->out = fftwf_alloc_complex(FFT_SIZE / 2 + 1);
	c->power = calloc(FFT_SIZE / 2 + 1, sizeof(*c->power));
	if (!c->in || !c->out || !c->power) {
		ir_carrier_free(c);
		return -ENOMEM;
	}
	/* FFTW_ESTIMATE: no timing runs at start-up, the same plan every time. */
	c->plan = fftwf_plan_dft_r2c_1d(FFT_SIZE, c->in, c->out, FFTW_ESTIMATE);
	if (!c->plan) {
		ir_carrier_free(c);
		return -ENOMEM;
	}
	*out = c;
	return 0;
}

void ir_carrier_free(struct ir_carrier *c)
{
	if (!c)
		return;
	if (c->plan)
		fftwf_destroy_plan(c->plan);
	fftwf_free(c->in);
	fftwf_free(c->out);
	free(c->power);
	free(c);
}

void ir_carrier_burst_samples(struct ir_carrier *c, const float *samples, size_t n,
			      size_t stride)
{
	if (c->bursts >= MAX_BURSTS)
		return;
	for (size_t i = 0; i < n && c->len < FFT_SIZE; i++)
		c->in[c->len++] = samples[i * stride];
}

void ir_carrier_burst_discard(struct ir_carrier *c)
{
	c->len = 0;
}

/* The burst's samples, mean removed and Hann-windowed, through the FFT
 * (c->out); the rest of the transform's input is zero. */
static void burst_spectrum(struct ir_carrier *c, size_t n)
{
	double mean = 0;

	for (size_t i = 0; i < n; i++)
		mean += c->in[i];
	mean /= (double)n;
	for (size_t i = 0; i < FFT_SIZE; i++) {
		if (i < n) {
			double w = 0.5 - 0.5 * cos(2 * M_PI * (double)i / (double)(n - 1));

			c->in[i] = (float)((c->in[i] - mean) * w);
		} else {
			c->in[i] = 0;
		}
	}
	fftwf_execute(c->plan);
}

/* The bin of the strongest peak in the carrier band, standing out of the
 * band's mean, inside its edges, and as large as a carrier under a burst
 * of `step` would be; 0 when there is none.  Fills c->power over the band. */
static size_t carrier_peak(struct ir_carrier *c, size_t n, double step)
{
	size_t lo = (size_t)ceil(CARRIER_MIN_HZ * FFT_SIZE / c->rate);
	size_t hi = (size_t)floor(fmin(CARRIER_MAX_HZ, 0.45 * c->rate) * FFT_SIZE / c->rate);
	size_t peak = lo, count = 0;
	double band_mean = 0, peak_power = 0;

	if (lo < 1 || hi <= lo + 2 || hi >= FFT_SIZE / 2)
		return 0;
	for (size_t k = lo; k <= hi; k++) {
		c->power[k] = c->out[k][0] * c->out[k][0] + c->out[k][1] * c->out[k][1];
		band_mean += c->power[k];
		count++;
		if (c->power[k] > c->power[peak])
			peak = k;
	}
	band_mean /= (double)count;
	if (c->power[peak] < PEAK_OVER_MEAN * band_mean || peak == lo || peak == hi)
		return 0;
	/* Amplitude of the peak (the Hann window's gain is n/2): a real
	 * carrier's fundamental is as large as the burst's envelope; what is
	 * left of one the converter filtered out (an alias) is not. */
	for (size_t k = peak - 1; k <= peak + 1; k++)
		peak_power += c->power[k];
	if (2 * sqrt(peak_power) / (0.5 * (double)n) < MIN_AMPLITUDE_OF_STEP * step)
		return 0;
	return peak;
}

/* Duty cycle from the harmonics of a rectangular pulse train: the k-th has
 * amplitude ∝ sin(π k D) / k, so a2 / a1 = cos(π D).  Only where the
 * second harmonic is still under the converter's filter. */
static void add_duty(struct ir_carrier *c, size_t n, size_t peak, double delta, double hz)
{
	size_t k2 = (size_t)lround(2 * ((double)peak + delta));
	double p2 = 0, ratio;

	if (2 * hz >= DUTY_MAX_FRACTION * c->rate || k2 + 1 >= FFT_SIZE / 2)
		return;
	for (size_t k = k2 - 1; k <= k2 + 1; k++) {
		double pk = c->out[k][0] * c->out[k][0] + c->out[k][1] * c->out[k][1];

		if (pk > p2)
			p2 = pk;
	}
	ratio = sqrt(p2 / c->power[peak]);
	if (ratio > 1)
		ratio = 1;
	c->duty_sum += 100.0 * acos(ratio) / M_PI * (double)n;
	c->duty_weight += (double)n;
}

void ir_carrier_burst_end(struct ir_carrier *c, double step)
{
	size_t n = c->len, peak;
	double hz, a, b, g, delta;

	c->len = 0;
	if (c->bursts >= MAX_BURSTS || n < 8 ||
	    n * CARRIER_MAX_HZ < (double)MIN_PERIODS * c->rate)
		return;
	c->bursts++;
	burst_spectrum(c, n);
	peak = carrier_peak(c, n, step);
	if (!peak)
		return;
	/* Parabola through the log powers around the peak. */
	a = log(c->power[peak - 1] + 1e-30);
	b = log(c->power[peak] + 1e-30);
	g = log(c->power[peak + 1] + 1e-30);
	delta = a - 2 * b + g != 0 ? 0.5 * (a - g) / (a - 2 * b + g) : 0;
	hz = ((double)peak + delta) * c->rate / FFT_SIZE;
	c->hz_sum += hz * (double)n;
	c->weight += (double)n;
	add_duty(c, n, peak, delta, hz);
}

int ir_carrier_estimate(const struct ir_carrier *c, double *hz, double *duty_percent)
{
	if (c->weight <= 0)
		return 0;
	*hz = c->hz_sum / c->weight;
	*duty_percent = c->duty_weight > 0 ? c->duty_sum / c->duty_weight : 0;
	return 1;
}

void ir_carrier_reset(struct ir_carrier *c)
{
	c->bursts = 0;
	c->weight = 0;
	c->hz_sum = 0;
	c->duty_sum = 0;
	c->duty_weight = 0;
	c->len = 0;
}
