/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "ir_channel_sim.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The anti-alias filter spans this many output samples on each side. */
#define AA_HALF_SPAN 8
/* Converters put their passband edge near 0.45 × the sample rate. */
#define AA_CUTOFF 0.45
/* A codec's decimation filter (cfg->codec_filter): passband to 0.4535 and
 * stopband from 0.5465 × rate, centred on half the rate; a Kaiser window of
 * this half span reaches ≈ 100 dB over that transition. */
#define CODEC_HALF_SPAN 40
#define CODEC_CUTOFF 0.5

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

/* A change of the light at time t (in output samples): +1 on, -1 off. */
struct transition {
	double t;
	double delta;
};

struct transitions {
	struct transition *v;
	size_t len, cap;
};

static int add_transition(struct transitions *tr, double t, double delta)
{
	if (tr->len == tr->cap) {
		size_t cap = tr->cap ? tr->cap * 2 : 1024;
		struct transition *v = realloc(tr->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		tr->v = v;
		tr->cap = cap;
	}
	tr->v[tr->len++] = (struct transition){ t, delta };
	return 0;
}

/* The light as on/off transitions: bursts for a receiver module (its output
 * follows the burst envelope), every carrier pulse for a photodiode. */
static int light_transitions(const struct ir_channel_config *cfg, const struct burst *b,
			     size_t count, struct transitions *tr)
{
	double samples_per_us = cfg->sample_rate / 1e6;
	int ret = 0;

	for (size_t i = 0; i < count && ret == 0; i++) {
		if (cfg->frontend == IR_FRONTEND_TSOP) {
			ret = add_transition(tr, b[i].start_us * samples_per_us, 1);
			if (ret == 0)
				ret = add_transition(tr, b[i].end_us * samples_per_us, -1);
			continue;
		}
		double period = 1e6 / cfg->carrier_hz;
		double on = period * cfg->duty_cycle / 100.0;

		for (double t = b[i].start_us; t < b[i].end_us && ret == 0; t += period) {
			double off = t + on < b[i].end_us ? t + on : b[i].end_us;

			ret = add_transition(tr, t * samples_per_us, 1);
			if (ret == 0)
				ret = add_transition(tr, off * samples_per_us, -1);
		}
	}
	return ret;
}

/* The converter's anti-alias filter as a step response: S(x) for x output
 * samples after a unit step, x in [-half_span, half_span], tabulated
 * STEP_RES points per sample. */
#define STEP_RES 256

struct aa_filter {
	int half_span;
	double cutoff;   /* fraction of the sample rate */
	double *table;   /* 2 * half_span * STEP_RES + 1 points, owned */
};

/* I0, the modified Bessel function of order 0, by its series (converges
 * fast for the Kaiser window's arguments, below 20). */
static double bessel_i0(double x)
{
	double sum = 1, term = 1;

	for (int k = 1; k < 60 && term > 1e-12 * sum; k++) {
		term *= (x / (2 * k)) * (x / (2 * k));
		sum += term;
	}
	return sum;
}

/* Tabulates the step response of f's windowed sinc: the short Blackman one
 * (the default) or, for `codec`, a Kaiser one (β = 10, ≈ 100 dB stopband)
 * with its transition 0.4535..0.5465 × rate, as sigma-delta codecs'
 * decimation filters have it.  Returns 0 or -ENOMEM. */
static int aa_filter_init(struct aa_filter *f, bool codec)
{
	double sum = 0, beta = 10, i0b = bessel_i0(beta);
	int points;

	f->half_span = codec ? CODEC_HALF_SPAN : AA_HALF_SPAN;
	f->cutoff = codec ? CODEC_CUTOFF : AA_CUTOFF;
	points = 2 * f->half_span * STEP_RES + 1;
	f->table = malloc((size_t)points * sizeof(*f->table));
	if (!f->table)
		return -ENOMEM;
	for (int i = 0; i < points; i++) {
		double x = (double)i / STEP_RES - f->half_span, r = x / f->half_span;
		double sinc = x == 0 ? 2 * f->cutoff : sin(2 * M_PI * f->cutoff * x) / (M_PI * x);
		double w = codec ? bessel_i0(beta * sqrt(fmax(0, 1 - r * r))) / i0b
				 : 0.42 + 0.5 * cos(M_PI * r) + 0.08 * cos(2 * M_PI * r);

		sum += sinc * w;
		f->table[i] = sum;
	}
	for (int i = 0; i < points; i++)
		f->table[i] /= sum;
	return 0;
}

static double step_at(const struct aa_filter *f, double x)
{
	double pos = (x + f->half_span) * STEP_RES;
	int i;

	if (pos <= 0)
		return 0;
	if (pos >= 2 * f->half_span * STEP_RES)
		return 1;
	i = (int)pos;
	return f->table[i] + (pos - i) * (f->table[i + 1] - f->table[i]);
}

int ir_channel_render(const struct ir_channel_config *cfg, const struct ir_edge *edges, size_t n,
		      float **samples, size_t *frames)
{
	struct sim_rng rng = { .s = cfg->seed };
	struct burst *bursts = NULL;
	struct transitions tr = { 0 };
	struct aa_filter aa = { 0 };
	size_t burst_count, out_count, first = 0;
	double end_us, before = 0, sigma, drive, hp_a = 0, hp_y = 0, hp_prev = 0;
	float *out = NULL;
	int ret;

	if (cfg->sample_rate < 1000 || cfg->sample_rate > 1000000 || cfg->amplitude <= 0 ||
	    (cfg->frontend == IR_FRONTEND_PHOTODIODE &&
	     (cfg->carrier_hz == 0 || cfg->duty_cycle == 0 || cfg->duty_cycle > 100)))
		return -EINVAL;
	ret = collect_bursts(cfg, edges, n, &rng, &bursts, &burst_count, &end_us);
	if (ret == 0 && end_us > IR_SIGNAL_MAX_US)
		ret = -EFBIG; /* the output is held whole: its size follows end_us */
	if (ret == 0)
		ret = light_transitions(cfg, bursts, burst_count, &tr);
	if (ret < 0)
		goto done;
	out_count = (size_t)ceil(end_us * 1e-6 * cfg->sample_rate);
	out = malloc((out_count ? out_count : 1) * sizeof(*out));
	if (!out || aa_filter_init(&aa, cfg->codec_filter) < 0) {
		ret = -ENOMEM;
		goto done;
	}
	if (cfg->ac_tau_ms > 0)
		hp_a = exp(-1.0 / (cfg->ac_tau_ms * 1e-3 * cfg->sample_rate));
	drive = cfg->clip_drive > 1 ? cfg->clip_drive : 1;
	sigma = cfg->snr_db >= 200 ? 0 : cfg->amplitude * drive / (2 * pow(10, cfg->snr_db / 20));

	for (size_t k = 0; k < out_count; k++) {
		double kk = (double)k, light, x;

		/* Transitions wholly before the filter's span are settled. */
		while (first < tr.len && tr.v[first].t <= kk - aa.half_span)
			before += tr.v[first++].delta;
		light = before;
		for (size_t j = first; j < tr.len && tr.v[j].t < kk + aa.half_span; j++)
			light += tr.v[j].delta * (cfg->no_aa_filter ? (tr.v[j].t <= kk ? 1 : 0)
								    : step_at(&aa, kk - tr.v[j].t));
		if (cfg->frontend == IR_FRONTEND_TSOP)
			x = cfg->amplitude * (0.5 - light); /* dark = high */
		else
			x = cfg->amplitude * light;
		if (cfg->invert)
			x = -x;
		/* The card's coupling capacitor (a one-pole high-pass); before
		 * the first sample the line was idle at this level. */
		if (cfg->ac_tau_ms > 0) {
			if (k == 0)
				hp_prev = x;
			hp_y = hp_a * (hp_y + x - hp_prev);
			hp_prev = x;
			x = hp_y;
		}
		if (cfg->hum_hz > 0) {
			double t = kk / cfg->sample_rate;

			x += cfg->hum_level * cfg->amplitude *
			     (sin(2 * M_PI * cfg->hum_hz * t) + sin(6 * M_PI * cfg->hum_hz * t) / 3);
		}
		x *= drive;
		if (sigma > 0)
			x += sigma * rng_gauss(&rng);
		x += cfg->dc_offset;
		if (drive > 1)
			x = x > 1 ? 1 : x < -1 ? -1 : x;
		out[k] = (float)x;
	}
	*samples = out;
	*frames = out_count;
	out = NULL;
	ret = 0;
done:
	free(out);
	free(aa.table);
	free(tr.v);
	free(bursts);
	return ret;
}
