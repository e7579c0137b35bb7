/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ir_demod.c - the demodulator's API, the stream's warm-up and the loops
 * that hand samples to the idle or the full path (see ir_demod_state.h). */
#include "ir_demod_band.h"

#include "ir_demod_decay.h"
#include "ir_demod_edges.h"
#include "ir_demod_idle.h"
#include "ir_demod_line.h"
#include "ir_demod_weak.h"
#include "ir_carrier.h"
#include "ir_envelope.h"
#include "ir_seqdet.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Variance gain of two cascaded one-pole sections y += g (x - y) for white
 * noise: the sum of the squared impulse response g² (n + 1) aⁿ, a = 1 - g. */
static double band_noise_gain(double g)
{
	double a2 = (1 - g) * (1 - g);

	return g * g * g * g * (1 + a2) / ((1 - a2) * (1 - a2) * (1 - a2));
}

/* The weak trigger's white-noise gate (see WEAK_WHITE) for idle-path noise
 * estimates that move by `a` per update: an exponential average of about
 * (2 - a) / a independent samples, the log of a ratio of two of them
 * scattering as the inverse square root of that. */
static double weak_white_for(double a)
{
	double n = (2 - a) / a;

	return n >= WEAK_WHITE_N ? WEAK_WHITE : pow(WEAK_WHITE, sqrt(WEAK_WHITE_N / n));
}

/* The noise floors' averaging rate per sample (see NOISE_US).  The idle
 * path measures them on one sample in IDLE_NOISE_EVERY, so NOISE_US holds
 * fewer independent samples the lower the rate: 47 at 48 kHz, 42 at
 * 44.1 kHz, but 15 at 16 kHz, where the weak band's σ scattered by a
 * third about its value (its trigger and the acquisition's floor with
 * it) and the white-noise gate turned the trigger off at random.  Below
 * NOISE_MIN_N the averaging is made as long as holds that many (22 ms at
 * 16 kHz), up to NOISE_MAX_US; from 44.1 kHz up it is NOISE_US.  (16 kHz
 * 2/4/6 dB 28.9/67.3/93.1 -> 31.1/69.7/94.1 %.  Uncapped, 43 ms at 8 kHz
 * lost one of test_irmp_audio's frames, Matsushita at 25 dB τ 1 ms: not
 * traced.) */
static double noise_alpha_for(double us_per_sample)
{
	double alpha = demod_alpha_for(NOISE_US, us_per_sample);
	double a = alpha * IDLE_NOISE_EVERY, a_min = 2.0 / (NOISE_MIN_N + 1);
	double a_max = demod_alpha_for(NOISE_MAX_US, us_per_sample);

	if ((2 - a) / a >= NOISE_MIN_N)
		return alpha;
	return a_min / IDLE_NOISE_EVERY > a_max ? a_min / IDLE_NOISE_EVERY : a_max;
}

/* The weak band's time constant (see WEAK_BAND_MIN_SAMPLES). */
static double weak_band_for(double us_per_sample)
{
	double min_us = WEAK_BAND_MIN_SAMPLES * us_per_sample;

	return min_us > WEAK_BAND_US ? min_us : WEAK_BAND_US;
}

/* The weak trigger's σ after the stream's first edge at `rate` (Hz), and
 * whether the fast rules (WEAK_TRIGGER_FAST) apply there: from
 * WEAK_TRIGGER_FAST_RATE, and from WEAK_LOW_FAST_RATE with their own σ
 * (WEAK_TRIGGER_LOW). */
static double weak_trigger_for(unsigned rate, bool *fast)
{
	*fast = rate >= WEAK_LOW_FAST_RATE;
	if (rate >= WEAK_TRIGGER_FAST_RATE)
		return WEAK_TRIGGER_FAST;
	return *fast ? WEAK_TRIGGER_LOW : WEAK_TRIGGER;
}

/* What follows from the sample rate: the filters' gains and the lengths
 * that the constants above give in samples. */
static void set_rates(struct ir_demod *d)
{
	d->fast_g = (float)demod_alpha_for(BAND_FAST_US, d->us_per_sample);
	d->mid_g = (float)demod_alpha_for(BAND_MID_US, d->us_per_sample);
	d->low_g = (float)demod_alpha_for(BAND_SLOW_US, d->us_per_sample);
	d->slow_g = d->low_g;
	d->slow_us = BAND_SLOW_US;
	d->fast_gain = band_noise_gain(d->fast_g);
	d->mid_gain = band_noise_gain(d->mid_g);
	d->low_gain = band_noise_gain(d->low_g);
	d->slow_gain = d->low_gain;
	d->warmup_n = (unsigned)ceil(WARMUP_US / d->us_per_sample);
	if (d->warmup_n < 16)
		d->warmup_n = 16;
	d->alpha_noise = noise_alpha_for(d->us_per_sample);
	d->alpha_weak_noise = fmin(d->alpha_noise, demod_alpha_for(WEAK_NOISE_US, d->us_per_sample));
	d->weak_noise_fast_k = (unsigned)ceil(WEAK_NOISE_US / (d->us_per_sample * IDLE_NOISE_EVERY));
	d->alpha_baseline = demod_alpha_for(BASELINE_US, d->us_per_sample);
	/* At least two samples: converters' anti-alias filters ring at close
	 * to half the sample rate, alternating sign from one sample to the next. */
	d->confirm_n = (unsigned)ceil(CONFIRM_US / d->us_per_sample);
	if (d->confirm_n < 2)
		d->confirm_n = 2;
	d->confirm_idle_n = (unsigned)ceil(CONFIRM_IDLE_US / d->us_per_sample);
	if (d->confirm_idle_n < d->confirm_n)
		d->confirm_idle_n = d->confirm_n;
	/* The converter's filter rings for several samples at any rate. */
	demod_set_settle(d);
	d->quiet_n = (unsigned)ceil(QUIET_US / d->us_per_sample);
	d->rise_block_n = (unsigned)ceil(RISE_BLOCK_US / d->us_per_sample);
	if (d->rise_block_n < RISE_BLOCK_MIN_SAMPLES)
		d->rise_block_n = RISE_BLOCK_MIN_SAMPLES;
	d->rise_mean_g = demod_alpha_for(RISE_DETREND_US, d->us_per_sample);
	d->decay_max = demod_alpha_for(DECAY_TAU_MIN_US, d->us_per_sample);
	d->decay_var = d->decay_var_max = d->decay_max * d->decay_max;
	d->decay_gap_max = DECAY_GAP_MAX_US / d->us_per_sample;
	d->block_n = demod_decay_block_n(d->us_per_sample);
	/* (below WEAK_MIN_RATE a unit is too few samples even for the
	 * sequence detector's one-sample blocks: the trigger stays off) */
	d->weak_on = d->cfg.sample_rate >= WEAK_MIN_RATE;
	d->weak_band_us = weak_band_for(d->us_per_sample);
	d->weak_g = (float)demod_alpha_for(d->weak_band_us, d->us_per_sample);
	d->weak_trigger = weak_trigger_for(d->cfg.sample_rate, &d->weak_fast_rates);
	d->weak_gain = band_noise_gain(d->weak_g);
	d->droop_g = (float)demod_alpha_for(DROOP_BAND_US, d->us_per_sample);
	d->droop_gain = band_noise_gain(d->droop_g);
	d->droop_g_alt = (float)demod_alpha_for(DROOP_BAND_LOW_US, d->us_per_sample);
	d->droop_gain_alt = band_noise_gain(d->droop_g_alt);
	d->droop_low = false;
	d->droop_thr = INFINITY;
	d->weak_base_thr = INFINITY;
	d->weak_base_floor = INFINITY;
	d->droop_on = d->weak_fast_rates && d->cfg.sample_rate < DROOP_MAX_RATE;
	d->droop_gather = d->droop_on && d->cfg.sample_rate < DROOP_NOISE_SPARSE_RATE;
	d->droop_first = DROOP_FIRST && d->droop_on && d->cfg.sample_rate >= DROOP_FIRST_MIN_RATE;
	d->droop_low_ok = d->droop_on && d->cfg.sample_rate < WEAK_TRIGGER_FAST_RATE;
	d->droop_hum_g = demod_alpha_for(WEAK_NOISE_US, d->us_per_sample) * IDLE_HOUSEKEEPING * DROOP_HUM_EVERY;
	demod_droop_sections(d, d->droop_low_ok); /* (no hum measured yet) */
	d->droop_ref = &d->idle_level; /* (demod_idle_enter decides it) */
	d->droop_first_n = (uint64_t)ceil(DROOP_FIRST_ARM_US / d->us_per_sample);
	d->weak_white = weak_white_for(demod_alpha_for(NOISE_US, d->us_per_sample) * IDLE_NOISE_EVERY);
	d->weak_acq_len = (unsigned)ceil(WEAK_ACQUIRE_US / d->us_per_sample);
	d->weak_wait_g = demod_alpha_for(IDLE_TRACK_US, d->us_per_sample);
	d->weak_rearm_n = d->weak_quiet_n = (unsigned)ceil(WEAK_REARM_US / d->us_per_sample);
	d->strong_d = (unsigned)ceil(STRONG_LOOK_US / d->us_per_sample);
	d->strong_d = d->strong_d < 2 ? 2 : d->strong_d > STRONG_HIST_MAX ? STRONG_HIST_MAX : d->strong_d;
	d->weak_k_min = demod_alpha_for(WEAK_TAU_MAX_US, d->us_per_sample);
}

int ir_demod_new(const struct ir_demod_config *cfg, ir_demod_edge_fn edge_fn,
		 ir_demod_space_fn space_fn, void *userdata, struct ir_demod **out)
{
	struct ir_demod *d;

	if (!cfg || !edge_fn || cfg->sample_rate < 4000 || cfg->sample_rate > 1000000 ||
	    (cfg->polarity != IR_POLARITY_AUTO && cfg->polarity != IR_POLARITY_PULSE_HIGH &&
	     cfg->polarity != IR_POLARITY_PULSE_LOW))
		return -EINVAL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->cfg = *cfg;
	if (!d->cfg.timeout_us)
		d->cfg.timeout_us = DEFAULT_TIMEOUT_US;
	d->timers_from_us = d->cfg.timeout_us < MAX_PULSE_US ? d->cfg.timeout_us : MAX_PULSE_US;
	ir_fastlog_init(&d->dlog);
	d->edge_fn = edge_fn;
	d->space_fn = space_fn;
	d->userdata = userdata;
	d->us_per_sample = 1e6 / cfg->sample_rate;
	set_rates(d);
	d->pol = cfg->polarity;
	d->idle = true;
	d->priming = true;
	d->start_open = cfg->polarity == IR_POLARITY_AUTO;
	d->prime = calloc(2 * (size_t)d->warmup_n, sizeof(float));
	if (!d->prime) {
		free(d);
		return -ENOMEM;
	}
	d->prime_scratch = d->prime + d->warmup_n;
	if (cfg->sample_rate >= 66000) {
		int ret = ir_carrier_new(cfg->sample_rate, &d->carrier);

		if (ret < 0) {
			free(d->prime);
			free(d);
			return ret;
		}
	}
	if (cfg->sample_rate >= 66000) { /* envelope hook */
		int ret = ir_envelope_new(cfg->sample_rate, &d->envelope);

		if (ret < 0) {
			ir_demod_free(d);
			return ret;
		}
	}
	if (d->weak_on) {
		int ret = ir_seqdet_new(cfg->sample_rate, demod_seq_edge, demod_seq_horizon, d, &d->seqdet);

		if (ret < 0) {
			ir_demod_free(d);
			return ret;
		}
	}
	if (ir_lookback_init(&d->lb, LOOKBACK_US, d->us_per_sample) < 0) {
		ir_demod_free(d);
		return -ENOMEM;
	}
	*out = d;
	return 0;
}

void ir_demod_free(struct ir_demod *d)
{
	if (!d)
		return;
	ir_carrier_free(d->carrier);
	ir_seqdet_free(d->seqdet);
	ir_envelope_free(d->envelope);
	ir_lookback_free(&d->lb);
	free(d->prime);
	free(d);
}

void ir_demod_set_space_deadline(struct ir_demod *d, uint32_t us)
{
	d->deadline_us = us;
}

static int cmp_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;

	return (x > y) - (x < y);
}

/* The variance of Gaussian noise whose differences v[0..n) are: their
 * median absolute value is 0.6745 σ of a difference, and a difference of
 * two independent samples has twice the variance of one. */
static double noise2_from_diffs(float *v, unsigned n)
{
	double sd;

	if (n == 0)
		return 0;
	for (unsigned i = 0; i < n; i++)
		v[i] = fabsf(v[i]);
	qsort(v, n, sizeof(*v), cmp_float);
	sd = (n & 1 ? v[n / 2] : 0.5 * ((double)v[n / 2 - 1] + v[n / 2])) / 0.6745;
	return 0.5 * sd * sd;
}

/*
 * Whether the warm-up's samples drift: the change across them on the
 * least-squares line through them stands out of the noise by
 * PRIME_DRIFT_SIGMAS of its own standard error, and is itself over
 * PRIME_DRIFT_STEP σ of the input.  A recording cut inside a pulse starts
 * on the AC coupling's droop, which the idle path's slow level follows
 * only with a lag that grows until it reads as an edge (rc6_0 at 30 dB,
 * tau 5 ms, cut 30 us into the leader: an edge 260 us early, a leader too
 * short for RC-6); the full path's tracker follows the slope.  A smaller
 * drift is a weak signal's, better left to the idle path and its weak
 * trigger (`bench_audio coldstart`, 6 dB: 62.3 -> 58.7 % of the cuts at
 * 48 kHz without the second condition).
 */
static bool prime_drifts(const struct ir_demod *d)
{
	unsigned n = d->prime_len;
	double mean_i = 0.5 * (n - 1), sxy = 0, sxx = 0, mean_x = 0, change, sd_change;

	if (n < 8)
		return false;
	for (unsigned i = 0; i < n; i++)
		mean_x += d->prime[i];
	mean_x /= n;
	for (unsigned i = 0; i < n; i++) {
		sxy += (i - mean_i) * (d->prime[i] - mean_x);
		sxx += (i - mean_i) * (i - mean_i);
	}
	change = sxy / sxx * n;
	sd_change = sqrt(d->raw_noise2 / sxx) * n;
	return fabs(change) > PRIME_DRIFT_SIGMAS * sd_change &&
	       fabs(change) > PRIME_DRIFT_STEP * sqrt(d->raw_noise2);
}

/* The warm-up's samples are in: measures the noise floor on them (see
 * PRIME_LAG_BANDS), then processes them as if it had been known all along. */
static void prime_finish(struct ir_demod *d)
{
	unsigned n = d->prime_len, lag = (unsigned)ceil(PRIME_LAG_BANDS * BAND_FAST_US /
							d->us_per_sample);
	float f1 = d->prime[0], f2 = d->prime[0], start;
	double band2;
	unsigned k;

	for (unsigned i = 1; i < n; i++)
		d->prime_scratch[i - 1] = d->prime[i] - d->prime[i - 1];
	d->raw_noise2 = noise2_from_diffs(d->prime_scratch, n - 1);
	/* the band's output, then its differences `lag` apart */
	for (unsigned i = 0; i < n; i++) {
		f1 += d->fast_g * (d->prime[i] - f1);
		f2 += d->fast_g * (f1 - f2);
		d->prime_scratch[i] = f2;
	}
	if (lag >= n / 2)
		lag = n / 2;
	for (unsigned i = 0; i + lag < n; i++)
		d->prime_scratch[i] = d->prime_scratch[i + lag] - d->prime_scratch[i];
	band2 = noise2_from_diffs(d->prime_scratch, n - lag);
	d->noise2 = d->raw_noise2 * d->fast_gain;
	if (band2 > d->noise2)
		d->noise2 = band2;
	d->noise_sd = sqrt(d->noise2);
	d->droop_noise2 = d->noise2 * d->droop_gain / d->fast_gain;
	demod_weak_set_noise(d, d->noise2 * d->weak_gain / d->fast_gain);
	d->weak_noise_k = 0;
	d->noise_count = d->warmup_n;
	d->priming = false;
	/* The line starts at the median of its first PRIME_START_US, not at
	 * its first sample: a recording's first samples often hold a click. */
	k = (unsigned)ceil(PRIME_START_US / d->us_per_sample);
	k = k < 3 ? 3 : k > n ? n : k;
	memcpy(d->prime_scratch, d->prime, k * sizeof(float));
	qsort(d->prime_scratch, k, sizeof(float), cmp_float);
	start = d->prime_scratch[k / 2];
	for (unsigned i = 0; i < n; i++) {
		demod_sample_full(d, d->prime[i]);
		if (i == 0) {
			d->f1 = d->f2 = d->s1 = d->s2 = d->y_prev = start;
			d->w1 = d->w2 = start;
			d->level = d->baseline = d->recent = start;
		}
	}
	if (d->idle && !d->held && !d->cand && d->state == LINE_SPACE && !d->use_slow &&
	    d->n >= d->settle_until && !prime_drifts(d))
		demod_idle_enter(d);
}

/* Ends the priming early (end of input, a reset): what was held is
 * processed with the floor measured on it. */
static void prime_end(struct ir_demod *d)
{
	if (!d->priming)
		return;
	if (d->prime_len >= 2)
		prime_finish(d);
	d->priming = false;
}

/* While priming: holds one sample. */
static void prime_push(struct ir_demod *d, float x)
{
	d->prime[d->prime_len++] = x;
	if (d->prime_len == d->warmup_n)
		prime_finish(d);
}

static inline void process_sample(struct ir_demod *d, float x)
{
	if (d->priming) {
		prime_push(d, x);
		return;
	}
	if (d->idle_fast) {
		if (demod_idle_step(d, x))
			return;
		demod_idle_leave(d);
	}
	demod_sample_full(d, x);
}

static void demod_run(struct ir_demod *d, const float *samples, size_t frames, size_t stride,
		      const float *raw, size_t raw_stride);

/* envelope hook: demodulates the n samples of env_buf, which ir_envelope
 * made of `raw`; while it adds the carrier, the report's peak and clipping
 * are the input's (what the card recorded), measured here. */
static void envelope_run(struct ir_demod *d, const float *raw, size_t n, size_t stride)
{
	double peak = d->peak, clipped = d->clipped_samples;

	demod_run(d, d->env_buf, n, 1, raw, stride);
	if (!ir_envelope_active(d->envelope, NULL))
		return;
	d->peak = peak;
	d->clipped_samples = clipped;
	for (size_t i = 0; i < n; i++) {
		float ax = fabsf(raw[i * stride]);

		if (ax > d->peak)
			d->peak = ax;
		if (ax >= 0.999f)
			d->clipped_samples++;
	}
}

void ir_demod_process(struct ir_demod *d, const float *samples, size_t frames, size_t stride)
{
	if (stride == 0)
		stride = 1;
	if (d->envelope) { /* envelope hook: the samples through ir_envelope first */
		for (size_t i = 0; i < frames; i += sizeof(d->env_buf) / sizeof(d->env_buf[0])) {
			size_t n = frames - i;

			if (n > sizeof(d->env_buf) / sizeof(d->env_buf[0]))
				n = sizeof(d->env_buf) / sizeof(d->env_buf[0]);
			ir_envelope_process(d->envelope, samples + i * stride, n, stride, d->env_buf);
			envelope_run(d, samples + i * stride, n, stride);
		}
	} else {
		demod_run(d, samples, frames, stride, NULL, 0);
	}
	d->report_samples += (double)frames;
}

/* ir_demod_process() on the samples the demodulator sees; `raw`, where
 * not NULL, the input they were made of (envelope hook: the carrier is
 * measured on it). */
static void demod_run(struct ir_demod *d, const float *samples, size_t frames, size_t stride,
		      const float *raw, size_t raw_stride)
{
	size_t i = 0;

	while (i < frames) {
		if (d->priming) {
			prime_push(d, samples[i * stride]);
			i++;
			continue;
		}
		if (d->idle_fast) {
			i += demod_idle_run(d, samples + i * stride, frames - i, stride);
			if (i == frames)
				break;
			demod_idle_leave(d);
		}
		i += demod_full_run(d, samples + i * stride, frames - i, stride,
				    raw ? raw + i * raw_stride : NULL, raw_stride);
	}
}

/* Channels whose idle stretches ir_demod_process_interleaved() runs ahead
 * (the others: sample by sample). */
#define INTERLEAVED_AHEAD 8

void ir_demod_process_interleaved(struct ir_demod *const *demods, unsigned channels,
				  const float *samples, size_t frames)
{
	/* Where a channel is on the idle path, its samples up to its next
	 * departure go through demod_idle_run() at once: the idle path calls no
	 * callback, so the callbacks still come in time order, and each
	 * demodulator's state does not depend on the others'.  (Sample by
	 * sample, each idle sample took the scalar steps and a call.) */
	size_t ahead[INTERLEAVED_AHEAD] = { 0 }; /* the first frame not yet taken */

	for (size_t i = 0; i < frames; i++)
		for (unsigned c = 0; c < channels; c++)
			if (demods[c]) {
				float x = samples[i * channels + c];

				if (c < INTERLEAVED_AHEAD) {
					struct ir_demod *d = demods[c];

					if (ahead[c] > i)
						continue;
					if (d->idle_fast && !d->envelope && !d->priming) {
						ahead[c] = i + demod_idle_run(d, samples + i * channels + c, frames - i,
									channels);
						if (ahead[c] > i)
							continue;
					}
				}

				if (demods[c]->envelope) { /* envelope hook */
					struct ir_demod *d = demods[c];

					d->env_buf[0] = ir_envelope_sample(d->envelope, x);
					envelope_run(d, &x, 1, 1);
				} else {
					process_sample(demods[c], x);
				}
			}
	for (unsigned c = 0; c < channels; c++)
		if (demods[c])
			demods[c]->report_samples += (double)frames;
}

void ir_demod_flush(struct ir_demod *d)
{
	double now_us;

	prime_end(d);
	if (d->weak_seq)
		ir_seqdet_finish(d->seqdet); /* seqdet hook */
	now_us = (double)d->n * d->us_per_sample;

	d->cand = false;
	if (d->carrier && d->state == LINE_PULSE)
		ir_carrier_burst_end(d->carrier, d->step);
	if (d->held)
		demod_release_held(d);
	/* The darkness after a timeout is reported too: the durations add up
	 * to the stream's length. */
	demod_close_state(d, now_us);
	if (d->start_open)
		demod_start_release(d, false);
	demod_emit_carrier(d);
}

void ir_demod_reset(struct ir_demod *d)
{
	double now_us;

	prime_end(d);
	if (d->start_open)
		demod_start_release(d, false);
	now_us = (double)d->n * d->us_per_sample;

	demod_emit(d, IR_OVERFLOW, 0);
	ir_lookback_forget(&d->lb, d->n);
	if (d->idle_fast)
		demod_idle_leave(d);
	if (d->weak)
		demod_weak_stop(d);
	d->weak_wait = false;
	d->cand = false;
	d->held = false;
	d->state = LINE_SPACE;
	d->idle = true;
	d->timed_out = false;
	d->deadline_us = 0;
	if (d->cfg.polarity == IR_POLARITY_AUTO)
		d->pol = 0;
	d->last_edge_us = now_us;
	d->last_edge_rounded = (uint64_t)llround(now_us);
	d->have_edge = false;
	d->level = d->use_slow ? d->s2 : d->f2;
	d->slope = 0;
	d->baseline = d->level;
}

void ir_demod_report(struct ir_demod *d, struct ir_signal_report *r)
{
	double noise = sqrt(d->noise2);

	memset(r, 0, sizeof(*r));
	r->step = d->step;
	r->noise = noise;
	r->snr_db = d->step > 0 && noise > 0 ? 20 * log10(d->step / (2 * noise)) : 0;
	r->peak = d->peak;
	r->clipped = d->report_samples > 0 ? d->clipped_samples / d->report_samples : 0;
	r->polarity = d->pol > 0 ? IR_POLARITY_PULSE_HIGH : d->pol < 0 ? IR_POLARITY_PULSE_LOW
								       : IR_POLARITY_AUTO;
	r->band_us = d->use_slow ? d->slow_us : BAND_FAST_US;
	r->carrier_hz = d->carrier_hz;
	r->duty_cycle = d->carrier_duty;
	r->edges = d->edges;
	r->samples = d->n;
	d->peak = 0;
	d->clipped_samples = 0;
	d->report_samples = 0;
}
