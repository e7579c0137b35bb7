/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ir_demod_line.c - the full path: the wide band's edges, the line's
 * timers, and the sequence detector's decisions put on the line (see
 * ir_demod_state.h). */
#include "ir_demod_line.h"

#include "ir_demod_band.h"
#include "ir_demod_decay.h"
#include "ir_demod_edges.h"
#include "ir_demod_idle.h"
#include "ir_demod_weak.h"
#include "ir_carrier.h"
#include "ir_seqdet.h"

#include <math.h>

static void confirm_edge(struct ir_demod *d)
{
	int dir = d->cand_dir;
	double t_edge = d->cand_t;

	if (d->start_open) {
		/* a first edge after long enough a wait starts a pulse */
		if (d->state == LINE_SPACE && t_edge - d->last_edge_us >= START_PROOF_US)
			demod_start_release(d, false);
		else
			d->start_edges++;
	}

	if (d->held) {
		double height = fabs(d->y_prev - d->cand_ref);

		/* an edge far bigger than the first pulse's, or one that takes
		 * the line further in the pulse's direction */
		if (height > RETRACT_RATIO * d->step || (d->state == LINE_PULSE && dir == d->pol))
			demod_retract_held(d);
		else if (d->state == LINE_SPACE)
			demod_release_held(d); /* the second pulse starts: the first was real */
	} else if (d->start_open && d->have_edge &&
		   fabs(d->y_prev - d->cand_ref) > RETRACT_RATIO * d->step) {
		demod_start_retract(d);
	}
	if (t_edge < d->last_edge_us)
		t_edge = d->last_edge_us;
	if (d->state == LINE_SPACE && (d->idle || d->pol == 0) &&
	    d->cfg.polarity == IR_POLARITY_AUTO)
		d->pol = dir;
	/* The edge callback may set a new deadline: clear the old one first. */
	d->deadline_us = 0;
	if (d->carrier && d->state == LINE_PULSE)
		ir_carrier_burst_end(d->carrier, d->step);
	if (d->state == LINE_SPACE && d->idle && !d->step_known) {
		d->held = true;
		d->held_ended = false;
		d->held_from_us = d->last_edge_us;
		d->held_from_rounded = d->last_edge_rounded;
		d->held_timed_out = d->timed_out;
		d->held_have_edge = d->have_edge;
		d->held_thr = d->cand_cross;
		d->held_band_us = d->cand_band_us;
		d->held_delay_us = d->cand_delay_us;
		d->held_pulse_us = t_edge;
		demod_mark_edge(d, t_edge);
	} else if (d->held) {
		d->held_ended = true;
		d->held_end_us = t_edge;
		demod_mark_edge(d, t_edge);
	} else {
		demod_close_own(d, t_edge);
	}
	d->state = d->state == LINE_PULSE ? LINE_SPACE : LINE_PULSE;
	d->idle = false;
	d->timed_out = false;
	d->cand = false;
	/* Follow the new level quickly until it settles; cand_ref keeps the old
	 * level, to measure the step against.  The first edge's height stands
	 * for the step until a settled one is measured, so that the converter's
	 * ringing after it is not taken for the next edge. */
	d->level = d->y_prev;
	d->edge_dir = dir;
	if (d->step == 0)
		d->step = fabs(d->level - d->cand_ref);
	d->slope = 0;
	demod_fold_decay(d);
	d->settle_until = d->n + d->settle_n;
	/* the level this edge left had settled (see settled()) */
	d->ref_settled = d->n - d->state_start_n >= d->settle_n;
	d->state_start_n = d->n;
}

/* The new level has settled: learn the step, and predict the droop. */
static void settled(struct ir_demod *d)
{
	double measured = fabs(d->level - d->cand_ref);
	bool first = d->step_known == 0;

	if (d->held && first && measured > d->held_thr) {
		/* The provisional edge crossed a noise threshold, lower on the
		 * step than the band delay assumes: now that the step is known,
		 * its time is corrected, before it is reported. */
		double t = d->held_pulse_us + d->held_delay_us -
			   demod_band_rise(d->held_thr / measured) * d->held_band_us;

		if (t > d->held_from_us && !d->held_ended) {
			d->held_pulse_us = t;
			demod_mark_edge(d, t);
		}
	}

	/* A state shorter than the band's settling (RC-MM's 167 µs pulses on
	 * the 40 µs band) never reached its level: an edge out of it is
	 * short of the step, and a step learnt from those shrinks until
	 * demod_choose_band() picks a band that blurs such pulses away. */
	if (!d->step_known || d->ref_settled)
		d->step = d->step_known ? d->step + 0.25 * (measured - d->step) : measured;
	d->step_known = true;
	d->slope = 0;
	/* The first edge was found on the band the noise floor alone allowed;
	 * now that the step is known the wide band may do (a level, not an
	 * edge, is under way: switching is safe). */
	if (first)
		demod_choose_band(d);
}

/* See RISE_BLOCK_US: one more settled residual of activity; true when a
 * block of them shows that the noise floor rose. */
static inline bool noise_rose(struct ir_demod *d, double r)
{
	double mean, dev;
	bool near;

	if (d->raw_noise2 >= SILENT_NOISE_SD * SILENT_NOISE_SD)
		return false;
	/* Seeded once per activity, then followed.  Seeded again at every
	 * block, the mean took the block's first residual, and when that was
	 * the approach of an edge (3/4 of the threshold) the flat residuals
	 * of the state after it counted as near for a whole detrend time: A1
	 * TV Box's 150 µs spaces at 96 kHz made that half of a block, and a
	 * noise-free frame was taken back as noise after its 5th edge. */
	if (!d->rise_seeded) {
		d->rise_mean = r;
		d->rise_seeded = true;
	}
	d->rise_mean += d->rise_mean_g * (r - d->rise_mean);
	dev = r - d->rise_mean;
	d->rise_r2 += dev * dev;
	if (fabs(dev) > 0.5 * demod_threshold(d))
		d->rise_near++;
	if (++d->rise_n < d->rise_block_n)
		return false;
	mean = d->rise_r2 / d->rise_n;
	near = 2 * d->rise_near > d->rise_n;
	d->rise_n = 0;
	d->rise_near = 0;
	d->rise_r2 = 0;
	return near && mean > NOISE_RISE * NOISE_RISE * d->noise2;
}

/* The activity since idle was the noise rising: the line is dark, nothing
 * learnt from it holds, and the noise floor is measured again. */
static void relearn_noise(struct ir_demod *d)
{
	if (d->held) {
		demod_retract_held(d);
	} else {
		if (d->state == LINE_PULSE) {
			if (d->carrier)
				ir_carrier_burst_discard(d->carrier);
			demod_close_state(d, (double)d->n * d->us_per_sample);
			d->state = LINE_SPACE;
		}
		demod_forget_line(d);
	}
	d->noise_count = 0;
	d->rise_seeded = false;
	d->rise_n = 0;
	d->rise_near = 0;
	d->rise_r2 = 0;
}

/* Per sample, after the edges: demod_line_timers_at() at this sample.
 * Every timer there fires on dark_us reaching one of START_PROOF_US
 * (stream start held), the space deadline, the timeout or MAX_PULSE_US:
 * before the nearest, nothing can (one compare per sample instead of the
 * whole check, the same dark_us). */
static inline void line_timers(struct ir_demod *d)
{
	double now_us = (double)d->n * d->us_per_sample;
	double dark_us = now_us - d->last_edge_us;

	if (dark_us < d->timers_from_us && (!d->start_open || dark_us < START_PROOF_US) &&
	    (!d->deadline_us || dark_us < d->deadline_us))
		return;
	demod_line_timers_at(d, now_us);
}

/* The full path's steps, one call each per sample, are inlined into its
 * run loop whatever gcc's size limits say: past them it kept a step or
 * the whole sample out of line (~15 instructions a frame sample, 5 %). */
#define DEMOD_STEP static inline __attribute__((always_inline))

/* What one full-path sample's steps share. */
struct full_sample {
	float x, ax, x_before, y_before, w_before;
	double y;    /* the band in use */
	double pred; /* the level tracker's prediction for it */
	double r;    /* y - pred */
	double fast; /* y's move over the last few band rise times */
};

/* The sample through the band filters (the wide or narrow one, and the
 * weak band), and the report's peak and clipping. */
DEMOD_STEP void filter_sample(struct ir_demod *d, struct full_sample *s)
{
	float x = s->x;

	s->ax = fabsf(x);
	if (s->ax > d->peak)
		d->peak = s->ax;
	if (s->ax >= 0.999f)
		d->clipped_samples++;
	if (d->n == 0) {
		/* The stream starts idle at whatever level it has. */
		d->f1 = d->f2 = d->s1 = d->s2 = d->x_prev = d->y_prev = x;
		d->w1 = d->w2 = x;
		d->d1 = d->d2 = x;
		d->recent = x;
		d->level = d->baseline = x;
	}

	d->f1 += d->fast_g * (x - d->f1);
	d->f2 += d->fast_g * (d->f1 - d->f2);
	if (d->use_slow) {
		d->s1 += d->slow_g * (d->f2 - d->s1);
		d->s2 += d->slow_g * (d->s1 - d->s2);
		s->y = d->s2;
	} else {
		s->y = d->f2;
	}
	s->x_before = d->x_prev;
	d->x_prev = x;
	s->y_before = d->y_prev;
	d->y_prev = (float)s->y;
	d->n++;
	s->w_before = d->w2;
	d->w1 += d->weak_g * (x - d->w1);
	d->w2 += d->weak_g * (d->w1 - d->w2);
	d->d1 += d->droop_g * (x - d->d1);
	d->d2 += d->droop_g * (d->d1 - d->d2);
}

/* The pending candidate began before its state's level had settled and
 * been followed for RECENT_BANDS band time constants: its speed is
 * measured against a memory still on its way from the edge before (a
 * 167 µs RC-MM pulse on the 40 µs band never settles: its end read "too
 * slow", was followed as droop, and the line stayed lit for MAX_PULSE_US,
 * 2 of 5 rcmm32 frames lost at 96 kHz 6 dB), and the coupling cannot
 * have moved the level that far so soon: a coupling of τ ≥
 * YOUNG_TAU_MIN_US droops a fraction 1 - e^(-age/τ) of the step since the
 * state began, and the candidate moved further.  (Young alone, 6 dB τ 1 ms
 * frames at 44.1/48 kHz lost up to 6 points to pulses' droop taken for
 * edges: traced, those had moved 0.53 of the step 520-730 µs into the
 * state; the RC-MM ends 0.56-0.60 in 220-250 µs.)
 * The droop decays towards the baseline (the idle level), never past it:
 * it moves the level by at most that fraction of the reference's distance
 * to the baseline in the candidate's direction (none where the candidate
 * moves away from it), give or take 3 σ of the band (half the threshold,
 * the glitch rule's own margin), where that is less than the step's.  A
 * receiver's 200 µs stretch leaves RC-6 244 µs spaces, which the 100 µs
 * band (6 dB at 44.1/48 kHz) shows at 70 % of the step: the fall out of
 * one had moved 0.55 of the step when judged, under the step's bound
 * (0.58), read too slow against `recent`, was followed as droop, and the
 * line stayed dark for ms (`limit --stretch 200` 6 dB rc6_0 τ DC
 * 44.1/48 kHz 22/17 -> 94/96 %, τ 5 ms 35/24 -> 96/95; NEC, JVC, Sanyo
 * τ 5 ms 84-94 -> 99-100).  Not while the stream's first edges are held:
 * the baseline is then the stream's first level, which may be lit. */
static inline bool demod_cand_young(const struct ir_demod *d, double y)
{
	double band_us = d->use_slow ? d->slow_us : BAND_FAST_US;
	double young_n = d->settle_n + RECENT_BANDS * band_us / d->us_per_sample;
	double age_us = (double)(d->n - d->state_start_n) * d->us_per_sample;
	double f = 1 - exp(-age_us / YOUNG_TAU_MIN_US);
	double droop = d->step * f;
	double toward = (d->baseline - d->cand_ref) * d->cand_dir;
	double room = (toward > 0 ? toward : 0) * f + 0.5 * d->cand_thr;

	if (!d->start_open && room < droop)
		droop = room;
	return d->have_edge && (double)(d->n - d->cand_quiet - d->state_start_n) < young_n &&
	       (y - d->cand_ref) * d->cand_dir > droop;
}

/* A candidate edge is pending: this sample confirms it, drops it (a
 * glitch) or follows it as the coupling's droop. */
DEMOD_STEP void candidate_sample(struct ir_demod *d, const struct full_sample *s)
{
	double speed = s->fast * d->cand_dir;

	if (speed > d->cand_fast)
		d->cand_fast = speed;
	/* A candidate edge must keep its distance from the old level. */
	if ((s->y - d->cand_ref) * d->cand_dir < d->cand_thr * 0.5) {
		d->cand = false; /* a glitch */
	} else if (++d->cand_quiet >= d->cand_confirm_n) {
		if (d->cand_fast >= FAST_FRACTION * d->cand_thr) {
			confirm_edge(d);
		} else if (d->cand_quiet >= d->cand_confirm_n + d->slow_edge_n) {
			/* Too slow for an edge: the AC coupling's droop
			 * outran the tracker.  Follow it.  Not where the
			 * state is too young to have drooped (see
			 * demod_cand_young). */
			if (demod_cand_young(d, s->y)) {
				confirm_edge(d);
				return;
			}
			d->cand = false;
			d->level = s->y;
		}
		/* else: on a narrow band an edge may cross the threshold
		 * before it has moved fast enough; it gets a little longer to
		 * show its speed (a droop does not gain any). */
	}
}

/* A new candidate edge in direction dir (0: either, out of idle) over the
 * threshold thr (retracting: one that takes a provisional first pulse
 * back). */
DEMOD_STEP void start_candidate(struct ir_demod *d, const struct full_sample *s, int dir,
				   bool retracting, double thr)
{
	d->cand = true;
	d->cand_dir = dir ? dir : (s->r > 0 ? 1 : -1);
	/* Out of idle either direction may start a pulse, and a converter's
	 * pre-ringing before a clipped edge swings both ways: the first edge
	 * must hold longer. */
	d->cand_confirm_n = dir && !retracting ? d->confirm_n : d->confirm_idle_n;
	d->cand_ref = s->pred;
	d->cand_thr = thr;
	d->cand_quiet = 0;
	d->cand_fast = s->fast * d->cand_dir;
	/* The edge is where the signal crossed the threshold, between this
	 * sample and the one before; the same fraction of the step for both
	 * directions, so durations are unbiased.  The band filter's delay to
	 * that point is taken off to give the light's own time. */
	double cross = retracting && RETRACT_RATIO * d->step > thr ? RETRACT_RATIO * d->step : thr;
	double level = s->pred + d->cand_dir * cross;
	double prev = s->y_before;
	double frac = s->y != prev ? (level - prev) / (s->y - prev) : 1;

	d->cand_cross = cross;
	d->cand_band_us = d->use_slow ? d->slow_us : BAND_FAST_US;
	d->cand_delay_us = d->band_delay_us;
	if (frac < 0)
		frac = 0;
	else if (frac > 1)
		frac = 1;
	d->cand_t = ((double)(d->n - 2) + frac) * d->us_per_sample - d->band_delay_us;
	if (d->cand_confirm_n <= 1)
		confirm_edge(d);
}

/* Once the noise floor is known: an edge starts a candidate, or out of
 * idle the weak trigger fires.  True when either took the sample. */
DEMOD_STEP bool seek_edge(struct ir_demod *d, const struct full_sample *s)
{
	double thr = demod_threshold(d), r = s->r;
	int dir;

	if (d->idle && d->state == LINE_SPACE && !d->held && d->noise_count >= d->warmup_n)
		demod_weak_idle_sample(d);
	if (d->noise_count < d->warmup_n)
		return false;
	if (d->state == LINE_PULSE)
		dir = -d->pol;
	else
		dir = d->idle || d->pol == 0 ? 0 : d->pol;
	/* While the first pulse is provisional, an edge far bigger than its
	 * own, either way, takes it back (see RETRACT_RATIO). */
	bool retracting = (d->held || d->start_open) && fabs(r) > thr && fabs(r) > RETRACT_RATIO * d->step;

	if (retracting)
		dir = r > 0 ? 1 : -1;
	/* Out of idle a step the weak detector can take is its own (see
	 * demod_weak_owns_start): the wide band only starts strong ones. */
	double thr_idle = dir == 0 && !retracting && demod_weak_owns_start(d)
				  ? fmax(thr, demod_weak_strong(d))
				  : thr;

	if ((dir == 0 && fabs(r) > thr_idle) || (dir != 0 && r * dir > thr)) {
		start_candidate(d, s, dir, retracting, thr);
		return true;
	}
	return d->idle && !d->held && !demod_weak_start_held(d) && d->state == LINE_SPACE &&
	       demod_weak_idle_trigger(d, s->w_before);
}

/* The noise floors (of the band in use and of the input itself), from
 * the warm-up on and then in the dark. */
DEMOD_STEP void measure_noise(struct ir_demod *d, const struct full_sample *s)
{
	double r = s->r;
	/* The input's own noise: half the variance of its first difference
	 * (white noise), to choose the band. */
	double dx = (double)s->x - s->x_before;

	if (d->noise_count < d->warmup_n) {
		d->noise_count++;
		d->noise2 += (r * r - d->noise2) / d->noise_count;
		d->noise_sd = sqrt(d->noise2);
		d->raw_noise2 += (0.5 * dx * dx - d->raw_noise2) / d->noise_count;
		if (d->noise_count == d->warmup_n && d->idle && !d->have_edge && !d->use_slow)
			demod_idle_enter(d);
	} else if (d->state == LINE_SPACE && d->n > d->state_start_n + d->quiet_n) {
		/* The noise floor is measured in the dark, away from edges.
		 * Samples beyond 3 σ are left out, not clipped: a click must not
		 * inflate it, nor an edge that has not yet crossed the threshold
		 * (clipped residuals would raise σ, the threshold with it, and
		 * the edge would never cross).  Gaussian noise loses 0.3 % of
		 * its samples and 1.4 % of its σ to this; a real rise in the
		 * noise is still followed, its inner samples growing the
		 * estimate. */
		double lim = 3 * d->noise_sd + THRESHOLD_FLOOR;
		double rlim = 3 * sqrt(d->raw_noise2) + THRESHOLD_FLOOR;

		if (fabs(r) < lim) {
			d->noise2 += d->alpha_noise * (r * r - d->noise2);
			d->noise_sd = sqrt(d->noise2);
		}
		if (fabs(dx) < 2 * rlim)
			d->raw_noise2 += d->alpha_noise * (0.5 * dx * dx - d->raw_noise2);
		/* (the weak band's noise is the idle path's to measure: against
		 * this path's level, which follows the signal within 150 µs, the
		 * weak band's deviation reads far below its noise, the estimate
		 * fell below WEAK_WHITE of the input's and turned the weak
		 * trigger off for good after a retracted first pulse) */
	}
}

/* No edge: the level tracker follows the sample (the approach of a new
 * level, or droop and hum), and the noise is measured.  False when the
 * noise turned out to have risen (the line was taken back). */
DEMOD_STEP bool follow_level(struct ir_demod *d, const struct full_sample *s)
{
	if (d->n < d->settle_until) {
		/* The new level is still being approached: hold the furthest
		 * point reached, so that the next edge (the other way) shows as
		 * a drop from it however slowly the band filter rises. */
		if ((s->y - d->level) * d->edge_dir > 0)
			d->level = s->y;
		if (d->n + 1 == d->settle_until)
			settled(d);
		return true;
	}
	/* The beginning of an edge must not drag the level along before it
	 * crosses the threshold: residuals count only up to 3 σ or a tenth
	 * of the step (Huber), enough to follow droop and hum. */
	double track_lim = demod_track_limit(d), r = s->r;
	double rc = r > track_lim ? track_lim : r < -track_lim ? -track_lim : r;

	d->level = s->pred + d->track_a * rc;
	if (s->ax >= 0.999f) {
		/* Clipped: the level sits on the rail and shows no droop. */
		d->slope = 0;
	} else {
		d->slope += d->track_b * rc;
		/* (On the narrow bands not while idle: the baseline follows an
		 * idle line, and the ratio then reads its wander, not the
		 * coupling; nor in a provisional first pulse: a recording's
		 * start transient decays as the converter settles, not as the
		 * coupling.) */
		if (!d->use_slow || (!d->idle && !d->held))
			demod_measure_decay(d, s->y);
	}
	measure_noise(d, s);
	if (d->idle)
		d->baseline += d->alpha_baseline * (d->level - d->baseline);
	if (d->idle) {
		d->rise_seeded = false;
	} else if (noise_rose(d, r)) {
		relearn_noise(d);
		return false;
	}
	return true;
}

DEMOD_STEP void sample_full(struct ir_demod *d, float x)
{
	struct full_sample s = { .x = x };

	filter_sample(d, &s);
	switch (demod_weak_step(d, x, s.w_before)) {
	case DEMOD_WEAK_NOT:
		break;
	case DEMOD_WEAK_TIMERS:
		line_timers(d);
		/* (a wait for the next weak frame ends with the line's timeout) */
		if (d->weak_wait && d->idle)
			d->weak_wait = false;
		return;
	case DEMOD_WEAK_TOOK:
		return;
	}
	if (d->carrier && d->state == LINE_PULSE)
		ir_carrier_burst_samples(d->carrier, d->env_raw ? d->env_raw : &x, 1, 1);

	s.pred = d->level + d->slope + (d->baseline - d->level) * d->decay_now;
	s.r = s.y - s.pred;
	/* What the signal did over the last few band rise times: an edge
	 * shows there, a droop or a slow wander does not. */
	s.fast = s.y - d->recent;
	d->recent += d->recent_g * s.fast;
	if (d->cand) {
		candidate_sample(d, &s);
		return;
	}
	if (seek_edge(d, &s) || !follow_level(d, &s))
		return;
	line_timers(d);
}

/* (Not inlined into demod_sample_full: one copy of the full path.) */
__attribute__((noinline)) size_t demod_full_run(struct ir_demod *d, const float *samples, size_t n,
						size_t stride, const float *raw, size_t raw_stride)
{
	size_t i = 0;

	while (i < n) {
		d->env_raw = raw ? raw + i * raw_stride : NULL; /* envelope hook */
		/* every sample of the full path into the ring (the idle path
		 * keeps its own; see ir_lookback.h) */
		ir_lookback_put(&d->lb, d->n, samples[i * stride]);
		sample_full(d, samples[i * stride]);
		d->env_raw = NULL;
		i++;
		if (d->idle_fast)
			break;
	}
	return i;
}

void demod_sample_full(struct ir_demod *d, float x)
{
	demod_full_run(d, &x, 1, 1, NULL, 0);
}

/* Timeouts, space deadlines and overlong pulses, at time now_us. */
void demod_line_timers_at(struct ir_demod *d, double now_us)
{
	double dark_us = now_us - d->last_edge_us;

	if (d->state == LINE_SPACE) {
		if (d->start_open && dark_us >= START_PROOF_US)
			demod_start_release(d, false);
		if (d->deadline_us && d->have_edge && !d->timed_out && dark_us >= d->deadline_us) {
			uint32_t elapsed = (uint32_t)((uint64_t)llround(now_us) - d->last_edge_rounded);

			d->deadline_us = 0;
			if (d->space_fn)
				d->space_fn(d->userdata, elapsed);
		}
		/* (not while a pulse too weak for the wide band is being
		 * measured: before a stream's first edge nothing sets timed_out,
		 * and this stopped every weak frame there; a stronger one is
		 * left to the wide band's cold start, see demod_weak_acq_cut) */
		if (!d->timed_out && !demod_weak_acq_below_wide(d) && dark_us >= d->cfg.timeout_us) {
			d->idle = true;
			d->deadline_us = 0;
			if (d->weak_acq)
				demod_weak_acq_cut(d);
			else if (d->weak)
				demod_weak_stop(d);
			demod_choose_band(d);
			/* (not while the noise floor is being measured: the
			 * idle path does not count the warm-up) */
			if (!d->cand && !d->use_slow && d->n >= d->settle_until &&
			    d->noise_count >= d->warmup_n)
				demod_idle_enter(d);
			if (d->held)
				demod_release_held(d);
			demod_stretch_fold(d);
			if (d->have_edge) {
				d->timed_out = true;
				demod_emit_carrier(d);
				demod_emit(d, IR_TIMEOUT, d->cfg.timeout_us);
			}
		} else if (d->timed_out && d->idle && !d->idle_fast && !d->weak && !d->held && !d->cand &&
			   !d->use_slow && d->n >= d->settle_until && d->noise_count >= d->warmup_n &&
			   dark_us >= d->cfg.timeout_us) {
			/* A retracted first pulse leaves the line idle and timed
			 * out (as it was before it): back to the idle path, whose
			 * level the weak trigger needs (this path's level follows
			 * the signal within 150 µs: no weak frame started here) */
			demod_idle_enter(d);
		}
	} else if (d->start_open && dark_us >= START_PROOF_US && d->start_edges >= START_MIN_EDGES) {
		demod_start_flip(d);
	} else if (dark_us >= MAX_PULSE_US) {
		/* Not a pulse: the line is idle and its polarity unknown again. */
		if (d->held) {
			demod_retract_held(d);
			return;
		}
		demod_close_state(d, now_us);
		d->state = LINE_SPACE;
		d->idle = true;
		if (d->weak)
			demod_weak_stop(d);
		if (d->cfg.polarity == IR_POLARITY_AUTO)
			d->pol = 0;
	}
}

/* seqdet hook: a decided edge (see weak_edge). */
void demod_seq_edge(void *userdata, double t_us, bool lit)
{
	struct ir_demod *d = userdata;

	if ((d->state == LINE_PULSE) == lit)
		return;
	if (t_us < d->last_edge_us)
		t_us = d->last_edge_us;
	d->deadline_us = 0;
	demod_close_state(d, t_us);
	d->state = lit ? LINE_PULSE : LINE_SPACE;
	d->idle = false;
	d->timed_out = false;
	d->state_start_n = (uint64_t)llround(t_us / d->us_per_sample);
}

/* seqdet hook: the line is decided up to t_us. */
void demod_seq_horizon(void *userdata, double t_us)
{
	struct ir_demod *d = userdata;

	d->weak_horizon_us = t_us;
	demod_line_timers_at(d, t_us);
}
