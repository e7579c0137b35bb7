/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "ir_channel_sim.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The analog side runs at least this fast: 20 samples per 38 kHz period, so
 * a photodiode's carrier and a receiver's edges exist before band-limiting. */
#define ANALOG_RATE_MIN 768000.0
/* The anti-alias filter spans this many output samples on each side. */
#define AA_HALF_SPAN 8
/* Converters put their passband edge near 0.45 × the sample rate. */
#define AA_CUTOFF 0.45

void ir_channel_config_default(struct ir_channel_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->sample_rate = 48000;
	cfg->frontend = IR_FRONTEND_TSOP;
	cfg->amplitude = 0.5;
	cfg->snr_db = 1000;
	cfg->carrier_hz = 38000;
	cfg->duty_cycle = 33;
	cfg->lead_ms = 20;
	cfg->tail_ms = 150;
}

struct burst {
	double start_us, end_us;
};

struct sim_rng {
	uint64_t s;
	bool have_spare;
	double spare;
};

static uint64_t rng_u64(struct sim_rng *r)
{
	/* splitmix64: every seed, including 0, gives a good sequence */
	uint64_t z = (r->s += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static double rng_uniform(struct sim_rng *r)
{
	return ((double)(rng_u64(r) >> 11) + 0.5) / 9007199254740992.0;
}

static double rng_gauss(struct sim_rng *r)
{
	double u, v;

	if (r->have_spare) {
		r->have_spare = false;
		return r->spare;
	}
	u = rng_uniform(r);
	v = rng_uniform(r);
	r->spare = sqrt(-2.0 * log(u)) * sin(2.0 * M_PI * v);
	r->have_spare = true;
	return sqrt(-2.0 * log(u)) * cos(2.0 * M_PI * v);
}

/* Burst intervals in µs from the edges, with jitter and receiver stretch. */
static int collect_bursts(const struct ir_channel_config *cfg, const struct ir_edge *edges,
			  size_t n, struct sim_rng *rng, struct burst **out, size_t *count,
			  double *end_us)
{
	struct burst *b = calloc(n ? n : 1, sizeof(*b));
	double t = cfg->lead_ms * 1000.0;
	size_t k = 0;

	if (!b)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		double d;

		if (edges[i].kind != IR_PULSE && edges[i].kind != IR_SPACE &&
		    edges[i].kind != IR_TIMEOUT)
			continue;
		d = edges[i].duration;
		if (cfg->jitter_us > 0)
			d += (2.0 * rng_uniform(rng) - 1.0) * cfg->jitter_us;
		if (d < 1)
			d = 1;
		if (edges[i].kind == IR_PULSE) {
			if (k && b[k - 1].end_us >= t) {
				b[k - 1].end_us = t + d + cfg->stretch_us;
			} else {
				b[k].start_us = t;
				b[k].end_us = t + d + cfg->stretch_us;
				k++;
			}
		}
		t += d;
	}
	*out = b;
	*count = k;
	*end_us = (k && b[k - 1].end_us > t ? b[k - 1].end_us : t) + cfg->tail_ms * 1000.0;
	return 0;
}

/* How much of [a, b) (µs) a carrier that starts at t0 with period p and
 * on-time `on` per period covers. */
static double carrier_overlap(double a, double b, double t0, double p, double on)
{
	double fa, fb;
	double ca = (a - t0) / p, cb = (b - t0) / p;

	fa = floor(ca) * on + fmin((ca - floor(ca)) * p, on);
	fb = floor(cb) * on + fmin((cb - floor(cb)) * p, on);
	return fb - fa;
}

/* Light (0..1) averaged over [a, b) µs. */
static double light_in(const struct ir_channel_config *cfg, const struct burst *bursts,
		       size_t count, size_t *cursor, double a, double b)
{
	double covered = 0;

	while (*cursor < count && bursts[*cursor].end_us <= a)
		(*cursor)++;
	for (size_t i = *cursor; i < count && bursts[i].start_us < b; i++) {
		double lo = fmax(a, bursts[i].start_us), hi = fmin(b, bursts[i].end_us);

		if (hi <= lo)
			continue;
		if (cfg->frontend == IR_FRONTEND_PHOTODIODE) {
			double p = 1e6 / cfg->carrier_hz;

			covered += carrier_overlap(lo, hi, bursts[i].start_us, p,
						   p * cfg->duty_cycle / 100.0);
		} else {
			covered += hi - lo;
		}
	}
	return covered / (b - a);
}

int ir_channel_render(const struct ir_channel_config *cfg, const struct ir_edge *edges, size_t n,
		      float **samples, size_t *frames)
{
	struct sim_rng rng = { .s = cfg->seed };
	struct burst *bursts = NULL;
	size_t burst_count, out_count, cursor = 0;
	double end_us;
	unsigned os;
	double analog_rate, hp_a = 0, hp_y = 0, hp_x_prev = 0, sigma, drive;
	size_t taps, half;
	double *fir = NULL, *hist = NULL;
	float *out = NULL;
	int ret;

	if (cfg->sample_rate < 1000 || cfg->sample_rate > 1000000 || cfg->amplitude <= 0 ||
	    (cfg->frontend == IR_FRONTEND_PHOTODIODE &&
	     (cfg->carrier_hz == 0 || cfg->duty_cycle == 0 || cfg->duty_cycle > 100)))
		return -EINVAL;
	ret = collect_bursts(cfg, edges, n, &rng, &bursts, &burst_count, &end_us);
	if (ret < 0)
		return ret;

	os = (unsigned)ceil(ANALOG_RATE_MIN / cfg->sample_rate);
	analog_rate = (double)cfg->sample_rate * os;
	half = cfg->no_aa_filter ? 0 : (size_t)AA_HALF_SPAN * os;
	taps = 2 * half + 1;
	out_count = (size_t)ceil(end_us * 1e-6 * cfg->sample_rate);
	fir = calloc(taps, sizeof(*fir));
	hist = calloc(taps, sizeof(*hist));
	out = malloc((out_count ? out_count : 1) * sizeof(*out));
	if (!fir || !hist || !out) {
		ret = -ENOMEM;
		goto done;
	}

	/* Blackman-windowed sinc, unity gain at DC. */
	if (half) {
		double fc = AA_CUTOFF / os, sum = 0;

		for (size_t j = 0; j < taps; j++) {
			double x = (double)j - (double)half;
			double sinc = x == 0 ? 2 * fc : sin(2 * M_PI * fc * x) / (M_PI * x);
			double w = 0.42 - 0.5 * cos(2 * M_PI * j / (taps - 1)) +
				   0.08 * cos(4 * M_PI * j / (taps - 1));

			fir[j] = sinc * w;
			sum += fir[j];
		}
		for (size_t j = 0; j < taps; j++)
			fir[j] /= sum;
	} else {
		fir[0] = 1;
	}
	if (cfg->ac_tau_ms > 0)
		hp_a = exp(-1.0 / (cfg->ac_tau_ms * 1e-3 * analog_rate));

	drive = cfg->clip_drive > 1 ? cfg->clip_drive : 1;
	sigma = cfg->snr_db >= 200 ? 0 : cfg->amplitude * drive / (2 * pow(10, cfg->snr_db / 20));

	/* The analog sample i covers [i, i+1) / analog_rate; output sample k
	 * is the filter centred on analog sample k·os.  Analog samples are
	 * produced `half` ahead into a circular history. */
	size_t next_analog = 0;
	double us_per_analog = 1e6 / analog_rate;

	for (size_t k = 0; k < out_count; k++) {
		size_t need = k * os + half; /* last analog index this output uses */

		while (next_analog <= need) {
			double a = (double)next_analog * us_per_analog;
			double light = light_in(cfg, bursts, burst_count, &cursor, a, a + us_per_analog);
			double x;

			if (cfg->frontend == IR_FRONTEND_TSOP)
				x = cfg->amplitude * (0.5 - light); /* dark = high */
			else
				x = cfg->amplitude * light;
			if (cfg->invert)
				x = -x;
			if (cfg->ac_tau_ms > 0) {
				if (next_analog == 0)
					hp_x_prev = x; /* steady state: idle sits at 0 */
				hp_y = hp_a * (hp_y + x - hp_x_prev);
				hp_x_prev = x;
				x = hp_y;
			}
			hist[next_analog % taps] = x;
			next_analog++;
		}
		double acc = 0;

		for (size_t j = 0; j < taps; j++) {
			/* analog index k·os - half + j; before 0 the line was idle */
			long idx = (long)(k * os) - (long)half + (long)j;

			acc += fir[j] * (idx < 0 ? hist[0] : hist[(size_t)idx % taps]);
		}
		double t = (double)k / cfg->sample_rate;
		double v = acc;

		if (cfg->hum_hz > 0)
			v += cfg->hum_level * cfg->amplitude *
			     (sin(2 * M_PI * cfg->hum_hz * t) + sin(6 * M_PI * cfg->hum_hz * t) / 3);
		v *= drive;
		if (sigma > 0)
			v += sigma * rng_gauss(&rng);
		v += cfg->dc_offset;
		if (drive > 1)
			v = v > 1 ? 1 : v < -1 ? -1 : v;
		out[k] = (float)v;
	}
	*samples = out;
	*frames = out_count;
	out = NULL;
	ret = 0;
done:
	free(out);
	free(fir);
	free(hist);
	free(bursts);
	return ret;
}
