/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ir_demod_weak.c - the weak-signal trigger, a weak frame's first pulse,
 * and its hand-over to the sequence detector (see ir_demod_state.h). */
#include "ir_demod_weak.h"

#include "ir_demod_band.h"
#include "ir_demod_edges.h"
#include "ir_demod_idle.h"
#include "ir_seqdet.h"
#include "ir_seqdet_tau.h"

#include <math.h>

/* The height (on the raw input) from which a step is the wide band's. */
double demod_weak_strong(const struct ir_demod *d)
{
	return WEAK_MAX_STEP * sqrt(d->raw_noise2 * d->fast_gain);
}

/* True where a frame that starts now is the sequence detector's unless it
 * is strong (WEAK_MAX_STEP): the line idle and dark, nothing held, the
 * detector on, and no carrier path (at 66 kHz
 * and up a bare photodiode's envelope is the wide band's: the rule lost
 * its frames at 192 kHz). */
bool demod_weak_owns_start(const struct ir_demod *d)
{
	return d->seqdet && !d->carrier && d->idle && !d->held && d->state == LINE_SPACE &&
	       isfinite(d->weak_thr) && !demod_weak_start_held(d);
}

/* Time (µs) where `prev` (sample n - 2) to `cur` (sample n - 1) crossed 0. */
static double weak_cross_time(const struct ir_demod *d, double prev, double cur)
{
	double frac = cur != prev ? -prev / (cur - prev) : 1;

	frac = frac < 0 ? 0 : frac > 1 ? 1 : frac;
	return ((double)d->n - 2 + frac) * d->us_per_sample;
}

/* Out of idle, the weak band departed by its trigger while the wide band saw
 * nothing: a weak pulse may have started.  Its first WEAK_ACQUIRE_US are
 * measured before anything is told. */
static void weak_start(struct ir_demod *d, double dev, double dev_prev, bool droop)
{
	int dir = dev > 0 ? 1 : -1;
	double thr = droop ? d->droop_thr : d->weak_thr;

	if (d->cfg.polarity != IR_POLARITY_AUTO && dir != d->cfg.polarity)
		return; /* the line can only go darker: noise */
	d->weak = true;
	d->weak_droop = droop;
	d->weak_acq = true;
	d->weak_acq_sum = 0;
	d->weak_acq_n = 0;
	d->weak_b = d->level;
	d->weak_dir = dir;
	/* the trigger's crossing time, in weak_cross_t until the step is known */
	d->weak_cross_t = weak_cross_time(d, dir * dev_prev - thr, dir * dev - thr);
	ir_seqdet_arm(d->seqdet, d->n); /* seqdet hook */
}

void demod_weak_stop(struct ir_demod *d)
{
	bool seq = d->weak_seq;

	if (seq) {
		/* seqdet hook: its baseline, not the band's noisy sample, is
		 * the idle level (that started false weak frames at once) */
		ir_seqdet_stop(d->seqdet);
		d->weak_seq = false;
		d->weak_b = ir_seqdet_baseline(d->seqdet);
	}
	d->weak = false;
	d->weak_acq = false;
	d->level = seq ? d->weak_b : d->use_slow ? d->s2 : d->f2;
	d->recent = d->level;
	d->slope = 0;
	d->baseline = d->weak_b;
}

/* The weak band's start was noise: back to the idle path (most of a
 * receiver's life; see demod_idle_enter) when the wide band is idle too. */
static void weak_reject(struct ir_demod *d)
{
	demod_weak_stop(d);
	if (!d->idle && d->state == LINE_SPACE && d->seqdet && d->have_edge) {
		/* a start between two frames: wait for the next one */
		d->weak_wait = true;
		d->level = d->weak_b;
		return;
	}
	if (d->idle && !d->held && !d->cand && d->state == LINE_SPACE && !d->use_slow &&
	    d->n >= d->settle_until && d->noise_count >= d->warmup_n)
		demod_idle_enter(d);
}

/* A step the wide band can see after all (it lost the race by chance): the
 * path above takes it, as the candidate edge it would have found, from the
 * level before it and at the time the weak band places it. */
static void weak_hand_over(struct ir_demod *d, double a)
{
	double t0 = d->weak_cross_t -
		    demod_band_rise(d->weak_thr / a < 0.99 ? d->weak_thr / a : 0.99) * d->weak_band_us;

	d->weak = false;
	d->level = d->weak_b;
	d->recent = d->weak_b;
	d->slope = 0;
	d->cand = true;
	d->cand_dir = (int)d->weak_dir;
	d->cand_confirm_n = d->confirm_n;
	d->cand_ref = d->weak_b;
	d->cand_thr = demod_threshold(d);
	d->cand_quiet = 0;
	d->cand_fast = d->cand_thr;
	d->cand_cross = d->cand_thr;
	d->cand_band_us = d->use_slow ? d->slow_us : BAND_FAST_US;
	d->cand_delay_us = 0;
	d->cand_t = t0 > d->last_edge_us ? t0 : d->last_edge_us;
}

/* Before the stream's first edge, a weak pulse being measured stood over
 * the hand-over level (see demod_weak_acq_below_wide): it is the wide band's,
 * met as the edge it would have found, from the level before it
 * (weak_hand_over), when it stands over the wide band's threshold.
 * (Stopped there, the wide band met it from a level inside its rise: a
 * 6 dB sanyo or NEC leader was then taken as an edge the other way, the
 * frame lost and the wrong polarity kept for the next one.) */
void demod_weak_acq_cut(struct ir_demod *d)
{
	double a = d->weak_acq_sum / d->weak_acq_n;

	d->weak_acq = false;
	if (a >= demod_threshold(d))
		weak_hand_over(d, a);
	else
		demod_weak_stop(d);
}

/* Where a weak pulse measured at `a` (the mean of its acquisition) began,
 * under the coupling rate k per sample: the weak band crossed its trigger
 * demod_band_rise(thr / A) band time constants after the pulse began, A
 * being the pulse's height where the band crossed (thr / A at most
 * WEAK_RISE_MAX).
 * The acquisition comes after the crossing and the coupling has drooped
 * it: A is its mean brought back from the acquisition's middle to the
 * crossing.  (Taken at the drooped mean, thr / a came to 1 and over
 * wherever the trigger stood near the step, at 16 kHz (2.4 σ of the
 * input) under a 1 ms coupling, and the rise read 6.6 band time
 * constants: t0 fell about 0.5 ms early, and the step the sequence
 * detector brought back to it 1.5-2 times too high: rc6_0 16 kHz 6 dB
 * τ 1 ms, 28 of 38 lost frames.)  Returns µs. */
static double weak_t0(const struct ir_demod *d, double a, double k)
{
	double gap_n = ((double)d->n - 0.5 * d->weak_acq_n) - d->weak_cross_t / d->us_per_sample;
	double a_cross = gap_n > 0 ? a * exp(k * gap_n) : a, f = d->weak_thr / a_cross;

	if (f > WEAK_RISE_MAX)
		f = WEAK_RISE_MAX;
	return d->weak_cross_t - demod_band_rise(f) * d->weak_band_us;
}

/* RC-MM, and the drooped-step band's starts (which cross their trigger
 * late: see DROOP_BAND_US): where the first pulse most likely began (µs),
 * from the samples before the trigger (the ring, `back_us` of them), as the change
 * point from the idle level to the lit level `a`.  Placed from the weak
 * band's rise to its trigger instead, it came out 50-170 µs early at
 * 0-4 dB under a 1 ms coupling (the drooped level made the rise look
 * long), which put the header's period (pulse + space) out of RC-MM's
 * ±83 µs: rcmm32 4 dB τ 1 ms 62/66 % -> 89/91 % at 44.1/48 kHz. */
static double weak_lookback_t0(const struct ir_demod *d, double a, double back_us)
{
	uint64_t end = d->n - d->weak_acq_n;
	unsigned back = (unsigned)ceil(back_us / d->us_per_sample);

	/* (no further back than the ring still holds, the acquisition's
	 * samples being its newest: 1000 µs at 16 kHz) */
	if (back + d->weak_acq_n > d->lb.mask)
		back = d->weak_acq_n < d->lb.mask ? (unsigned)(d->lb.mask - d->weak_acq_n) : 0;
	uint64_t m = ir_lookback_rise(&d->lb, end, back, d->weak_b, (int)d->weak_dir, a);

	return ((double)m - 0.5) * d->us_per_sample;
}

/* A first pulse that fell inside its acquisition (RC-MM's 417 µs header:
 * the trigger fires 80-340 µs into it at 0 dB) is placed by a fit of the
 * pulse as the coupling left it (ir_lookback_pulse_fit: its rise, its
 * droop, its fall and the undershoot after it, under each of the
 * sequence detector's τ, ir_seqdet_tau_us), wherever the fall explains
 * the samples better than a pulse still lit by PULSE_FALL_NATS.  Placed from the weak band's rise
 * (weak_t0) with the acquisition's mean, dark samples and all, for a
 * step, or by ir_lookback_rise's constant level, such starts came out
 * 100-230 µs early under a 1 ms coupling: the header's period off
 * RC-MM's grid (rcmm32 0 dB τ 1 ms 44.1 kHz, 20 of 57 lost frames; the
 * fit's rises within 40 µs on all but 2 of them).  `limit --protocols
 * rcmm32 --rates 44100,48000 --snr 0,2`: 0 dB τ 1 ms 43/67 -> 52/68 %,
 * 5 ms 68/71 -> 77/81, DC 71/73 -> 80/81; 2 dB τ 1 ms 93/89 -> 97/96.
 * The six other protocols' cells at 0-2 dB none down (one up).  The
 * threshold, on one 0 dB τ 1 ms cell each at 44.1/48 kHz: 4 nats 48/68,
 * 2 nats 52/71, 0 nats 54/71 but rc6_0's 1 ms cells 1-2 frames down (a
 * leader's droop taken for a fall).  From WEAK_TRIGGER_FAST_RATE only
 * (RC-MM's own rates; 16 kHz starts as they were). */
#ifndef PULSE_FALL_NATS
#define PULSE_FALL_NATS 2.0
#endif
#ifndef PULSE_FIT_MIN_RATE
#define PULSE_FIT_MIN_RATE WEAK_TRIGGER_FAST_RATE
#endif
/* Below this rate a weak start's first pulse (not the drooped-step band's,
 * not RC-MM's short one) is placed by weak_lit_t0.  At 16 kHz the weak band
 * is 2.8 samples, and placed from its rise to the trigger with the
 * acquisition's mean brought back by one coupling rate (weak_t0), a leader
 * under a 1 ms coupling started 100 µs early (median of the matched frames,
 * JVC 16 kHz 6 dB τ 1 ms, 300 frames) and up to 280: 11 of the 14 JVC
 * frames lost there had a leader 263-298 µs long or its space as far off,
 * over JVC's half-unit tolerance (262 µs).  Fitted as a drooping pulse:
 * `limit --rates 16000 --snr 6 --frames 300` (six protocols) 99.3 -> 99.5 %
 * (JVC τ 1 ms 95.3 -> 98.0); `--snr 4,6` 4 dB 93.8 -> 94.6 (JVC/Sony 12
 * τ 1 ms 84/85 -> 90/90), 6 dB 99.1 -> 99.0 (single frames); 0/2 dB
 * 28.7/69.4 -> 28.3/69.8; RC-MM's 16 kHz cells 20-74 -> 27-85 %, 22.05 kHz
 * 59-96 -> 77-99 (the six others' means the same).  From 32 kHz the
 * droop-aware rise for every start lost NEC, RC-6 and Sanyo frames at
 * 44.1/48 kHz (stop 41, the RC-MM fit's trials): left as it was there. */
#ifndef WEAK_LIT_FIT_MAX_RATE
#define WEAK_LIT_FIT_MAX_RATE WEAK_TRIGGER_FAST_RATE
#endif

/* The first pulse fitted as the coupling left it (ir_lookback_pulse_fit,
 * under each of the sequence detector's τ): its rise sought `back_us`
 * before the acquisition, its fall inside it. */
static void weak_fit_pulse(const struct ir_demod *d, double back_us, struct ir_lookback_pulse *p)
{
	uint64_t end = d->n - d->weak_acq_n;
	unsigned back = (unsigned)ceil(back_us / d->us_per_sample);
	double w[IR_SEQDET_N_TAU];

	if (back + d->weak_acq_n > d->lb.mask)
		back = d->weak_acq_n < d->lb.mask ? (unsigned)(d->lb.mask - d->weak_acq_n) : 0;
	for (unsigned h = 0; h < IR_SEQDET_N_TAU; h++)
		w[h] = ir_seqdet_tau_decay(h, d->us_per_sample);
	ir_lookback_pulse_fit(&d->lb, end, back, d->n, d->weak_b, (int)d->weak_dir, w, IR_SEQDET_N_TAU, p);
}

/* True, with the rise's time *t0 (µs), where the first pulse fell inside
 * the acquisition (see PULSE_FALL_NATS); its rise sought `back_us` before
 * the acquisition. */
static bool weak_pulse_fell(const struct ir_demod *d, double back_us, double *t0)
{
	struct ir_lookback_pulse p;

	if (d->cfg.sample_rate < PULSE_FIT_MIN_RATE)
		return false;
	weak_fit_pulse(d, back_us, &p);
	*t0 = ((double)p.rise - 0.5) * d->us_per_sample;
	return p.gain - p.gain_lit >= PULSE_FALL_NATS * 2 * d->raw_noise2;
}

/* Below WEAK_TRIGGER_FAST_RATE, where the first pulse began (µs): the rise
 * of the pulse still lit through the acquisition that fits its samples best
 * as the coupling drooped it (under each τ of the sequence detector), not
 * the weak band's rise to its trigger (weak_t0, which takes the step as
 * flat: see WEAK_LIT_FIT_MAX_RATE).  weak_t0 where nothing fits. */
static double weak_lit_t0(const struct ir_demod *d, double a, double k)
{
	struct ir_lookback_pulse p;

	weak_fit_pulse(d, LOOKBACK_BACK_US, &p);
	return p.gain_lit > 0 ? ((double)p.rise_lit - 0.5) * d->us_per_sample : weak_t0(d, a, k);
}

/* True where the fast rules apply (see WEAK_TRIGGER_FAST: their rates,
 * after the stream's first edge). */
static bool weak_fast(const struct ir_demod *d)
{
	return d->weak_fast_rates && d->have_edge;
}

/* Where the trigger is WEAK_TRIGGER_FAST, a measured step over the
 * hand-over level (demod_weak_strong) but under the wide band's threshold
 * is the sequence detector's: the wide band cannot see it, and rejected
 * the line was left lit and the frame lost.  The earlier trigger wins the
 * race for such steps, which the wide band used to win (44.1 kHz 2 dB JVC
 * DC: 100 -> 83 % with the earlier trigger alone, 99 % with this rule;
 * traced: most lost frames were rejected here). */
static bool weak_unseen(const struct ir_demod *d, double a)
{
	return weak_fast(d) && a < demod_threshold(d);
}

/* How long the sequence detector's τ hypotheses run side by side before
 * it keeps one (µs; 0: its own window), for a start of step `a` over a
 * weak band of noise `sd`: WEAK_COMMIT_FAST_US where the trigger is fast
 * and the step is under WEAK_COMMIT_FAST_SIGMA σ (see there), from
 * WEAK_TRIGGER_FAST_RATE up only: below it the detector's own window is
 * already 10 ms (ir_seqdet.c's COMMIT_LOW_US), and 11 ms there changed
 * 16 kHz's figures by 0.2 point at most while deciding one more 6 dB
 * τ 1 ms NEC frame as Vincent (test_16_khz_1_ms_coupling). */
static double weak_commit_us(const struct ir_demod *d, double a, double sd)
{
	return weak_fast(d) && d->cfg.sample_rate >= WEAK_TRIGGER_FAST_RATE && a < WEAK_COMMIT_FAST_SIGMA * sd
		       ? WEAK_COMMIT_FAST_US
		       : 0;
}

/* The matched statistic of the acquisition's pulse drooping under the
 * fastest coupling, in σ of the input (see WEAK_DROOP_Z); `a` is its mean. */
static double weak_droop_z(const struct ir_demod *d, double a)
{
	uint64_t end = d->n;
	uint64_t m0 = ir_lookback_rise(&d->lb, end, (unsigned)d->lb.mask, d->weak_b, (int)d->weak_dir,
				       a > 0 ? a : 1e-6);
	double droop = exp(-d->us_per_sample / WEAK_MIN_STEP_TAU_US);
	double s = 0, w2 = 0, w = 1, sig = sqrt(d->raw_noise2);

	for (uint64_t m = m0; m < end; m++) {
		s += d->weak_dir * ((double)d->lb.x[m & d->lb.mask] - d->weak_b) * w;
		w2 += w * w;
		w *= droop;
	}
	return w2 > 0 && sig > 0 ? s / (sig * sqrt(w2)) : 0;
}

/* True where the acquisition's pulse is not one: noise, or a wander.  `a` is
 * its mean, `a_fast` brought back (see WEAK_MIN_STEP_TAU_US), `a_short` RC-MM's
 * short first pulse's level (0: none), `sd` the weak band's σ.  (WEAK_DROOP_Z
 * only in the line's polarity, or where it is not known.) */
static bool weak_refused(const struct ir_demod *d, double a, double a_fast, double a_short, double sd)
{
	if (!weak_fast(d))
		return a < WEAK_MIN_STEP * sd;
	if (d->cfg.sample_rate < WEAK_TRIGGER_FAST_RATE && a_short <= 0 && d->pol != -(int)d->weak_dir)
		return weak_droop_z(d, a) < WEAK_DROOP_Z;
	return a_fast < WEAK_MIN_STEP_FAST * sd;
}

/* The first pulse's samples are in: its step, and where it started. */
static void weak_acquired(struct ir_demod *d)
{
	double k = d->decay > d->weak_k_min ? d->decay : demod_alpha_for(WEAK_TAU_START_US, d->us_per_sample);
	double a = d->weak_acq_sum / d->weak_acq_n, t0, t_fell, mid_n, a_fast, sd = sqrt(d->weak_noise2);
	/* RC-MM: a first pulse that ended inside the acquisition is the
	 * sequence detector's however strong (the wide band cannot hold
	 * RC-MM's 167 µs pulses at 6 dB), and its level is that of its lit
	 * samples (the dark ones after it placed t0 too early) */
	double a_short = ir_seqdet_short_first(d->seqdet, d->weak_b, d->weak_dir, d->raw_noise2);

	d->weak_acq = false;
	if (a_short > 0)
		a = a_short;
	t0 = (a_short > 0 || !d->weak_droop) && weak_pulse_fell(d, LOOKBACK_BACK_US, &t_fell) ? t_fell
	     : a_short > 0 ? weak_lookback_t0(d, a, LOOKBACK_BACK_US)
	     : d->weak_droop ? weak_lookback_t0(d, a, DROOP_BACK_US)
	     : d->cfg.sample_rate < WEAK_LIT_FIT_MAX_RATE ? weak_lit_t0(d, a, k)
			     : weak_t0(d, a, k);
	/* the coupling drooped the measured samples: about their middle */
	mid_n = ((double)d->n - 0.5 * d->weak_acq_n) - t0 / d->us_per_sample;
	/* (held to it as a 1 ms coupling would have left it, from 32 kHz: see
	 * WEAK_MIN_STEP_TAU_US) */
	a_fast = mid_n > 0 && d->cfg.sample_rate >= WEAK_TRIGGER_FAST_RATE
			 ? a * exp(demod_alpha_for(WEAK_MIN_STEP_TAU_US, d->us_per_sample) * mid_n)
			 : a;
	if (weak_refused(d, a, a_fast, a_short, sd)) {
		/* (a pulse's fall may follow: see WEAK_FALL_PAIR_US) */
		d->weak_refused_dir = (int)d->weak_dir;
		d->weak_refused_n = d->n;
		d->weak_refused_base = d->weak_from_base;
		weak_reject(d); /* noise, or a wander: nothing was told */
		return;
	}
	if (a >= demod_weak_strong(d) && a_short <= 0 && !weak_unseen(d, a)) {
		/* as the wide band would have taken it, or left it */
		if (a >= demod_threshold(d))
			weak_hand_over(d, a);
		else
			weak_reject(d);
		return;
	}
	a = mid_n > 0 ? a * exp(k * mid_n) : a;
	if (t0 < d->last_edge_us)
		t0 = d->last_edge_us;
	d->weak_pol_before = d->pol;
	d->weak_t0_us = t0;
	if (d->cfg.polarity == IR_POLARITY_AUTO)
		d->pol = (int)d->weak_dir;
	d->deadline_us = 0;
	demod_close_state(d, t0);
	d->state = LINE_PULSE;
	d->idle = false;
	d->timed_out = false;
	/* seqdet hook: the sequence detector decides from here on */
	ir_seqdet_start(d->seqdet, &(struct ir_seqdet_start){ .n = d->n, .t0_us = t0,
							     .step = a, .baseline = d->weak_b,
							     .pol = d->pol,
							     .noise2 = d->raw_noise2,
							     .commit_us = weak_commit_us(d, a, sd) });
	d->weak_seq = true;
	d->weak_seq_n = d->n;
}

/* The sequence detector stopped: where nothing after the start was told
 * (the start taken back at its commit, not proven against darkness), the
 * start taught nothing either, and below WEAK_TRIGGER_FAST_RATE the line
 * keeps the polarity it had.  (Kept as the start set it, a noise start
 * against the frames' polarity, taken back, left the line waiting for
 * frames in the wrong one: the next leader's rise was not taken, its fall
 * was, in that polarity, and so on for every frame after it: 16 kHz JVC
 * DC 4 dB 97 -> 82 % with WEAK_DROOP_Z alone, which passes more such
 * starts.  From 32 kHz weak_missed_fall keeps such falls off.) */
static void weak_take_back(struct ir_demod *d)
{
	if (d->last_edge_us <= d->weak_t0_us && d->cfg.sample_rate < WEAK_TRIGGER_FAST_RATE &&
	    d->cfg.polarity == IR_POLARITY_AUTO)
		d->pol = d->weak_pol_before;
	weak_reject(d);
	d->weak_quiet_n = 0; /* taken back: see WEAK_REARM_US */
}

/* The sequence detector decided WEAK_GIVE_BACK_US of darkness: the frame
 * is over, the line waits (see WEAK_GIVE_BACK_US).  Below
 * WEAK_TEACHES_STEP_MAX_RATE the line learns the frame's step from it, as
 * from the wide band's own frames (the same 1/4 blend as its confirmed
 * edges, ir_demod_line.c); not from RC-MM's family, whose 167 µs pulses
 * the detector's step reads through 2-3 samples (taught so, rcmm32
 * 16 kHz 6 dB τ 5 ms/DC 74/70 -> 63/65 %: sixdb's trial). */
static void weak_give_back(struct ir_demod *d)
{
	double a = ir_seqdet_step(d->seqdet);

	if (d->cfg.sample_rate < WEAK_TEACHES_STEP_MAX_RATE && a > 0 && !ir_seqdet_short_units(d->seqdet)) {
		d->step = d->step_known ? d->step + 0.25 * (a - d->step) : a;
		d->step_known = true;
		demod_choose_band(d);
	}
	ir_seqdet_stop(d->seqdet);
	d->weak_seq = false;
	d->weak = false;
	d->weak_b = ir_seqdet_baseline(d->seqdet);
	d->level = d->weak_b;
	d->weak_wait = true;
}

/* The signal the weak trigger's idle level follows on the full path
 * (demod_weak_idle_sample): below WEAK_TRIGGER_FAST_RATE the wide band,
 * as the idle path's level does (demod_idle_step), so that the weak band's
 * departure is one statistic whatever path the line's state puts it on,
 * and the σ measured on either is its σ.  Against its own 2 ms average
 * the weak band departs by another statistic: on white noise at 16 kHz
 * its variance is 0.82 of the band's noise gain, against 0.59 from the
 * wide band's average (which holds the newest samples, those the weak band
 * weighs most; simulated, 4e6 samples; in the stream, 6 dB: 0.84 against
 * 0.57), and with a trigger of the same σ the full path's stood 1.18
 * times higher on the signal: it missed the τ 1 ms leaders the idle path
 * took once a frame taught the line its step (see
 * WEAK_TEACHES_STEP_MAX_RATE).  From 32 kHz the same holds (0.90 against
 * 0.75 at 48 kHz) but is not measured there: left as it was. */
static inline float weak_ref_input(const struct ir_demod *d)
{
	return d->cfg.sample_rate < WEAK_TRIGGER_FAST_RATE ? d->f2 : d->w2;
}

/* Between the frames of a sequence-detected run, until the timeout: only
 * the weak trigger (in the frames' polarity) and the line's timers. */
static void weak_wait_sample(struct ir_demod *d, float w_before, bool *timers)
{
	double dev = d->w2 - d->weak_b, ddev = d->d2 - d->weak_b;
	bool armed = d->weak_quiet_n >= d->weak_rearm_n;
	bool droop = fabs(dev) < d->weak_thr && fabs(ddev) >= d->droop_thr;

	if (!armed)
		d->weak_quiet_n = fabs(dev) < d->weak_thr ? d->weak_quiet_n + 1 : 0;
	if (droop)
		dev = ddev;
	if (armed && (droop || fabs(dev) >= d->weak_thr) && (d->pol == 0 || dev * d->pol > 0)) {
		d->weak_wait = false;
		d->level = d->weak_b;
		d->weak_from_base = false;
		weak_start(d, dev, droop ? dev : w_before - d->weak_b, droop);
		d->weak_wait = !d->weak; /* (a direction the line cannot take) */
		return;
	}
	d->weak_b += d->weak_wait_g * dev;
	d->level = d->weak_b;
	*timers = true;
}

/* See STRONG_LOOK_US: true when the weak band moved like a strong frame's
 * edge since `old` (demod_strong_push()'s; `full`: it holds one). */
static bool strong_edge(const struct ir_demod *d, bool full, float old)
{
	double dev, a;

	/* Only the weak detector's run or wait can be ended: the step and the
	 * move are worked out only then (every frame sample paid for them). */
	if (!full || (!d->weak_seq && !d->weak_wait))
		return false;
	dev = (double)d->w2 - old;
	a = d->seqdet ? ir_seqdet_step(d->seqdet) : 0;
	return fabs(dev) >= STRONG_RATIO * a &&
	       dev * dev >= STRONG_NOISE * STRONG_NOISE * 2 * d->weak_noise2;
}

/* See STRONG_LOOK_US: the weak detector's run or wait ends, and the wide
 * band meets the edge as a stream's first, from the level `ref`. */
static void strong_preempts_weak(struct ir_demod *d, float ref)
{
	double now_us = (double)d->n * d->us_per_sample;

	if (d->weak_seq)
		ir_seqdet_stop(d->seqdet);
	d->weak_seq = false;
	d->weak = false;
	d->weak_acq = false;
	d->weak_wait = false;
	d->weak_b = ref;
	d->deadline_us = 0;
	if (d->state == LINE_PULSE) {
		/* dark from where the move began: the edge starts a pulse of
		 * its own, not the continuation of the detector's */
		double from_us = now_us - d->strong_d * d->us_per_sample;

		demod_close_state(d, from_us > d->last_edge_us ? from_us : d->last_edge_us);
		d->state = LINE_SPACE;
	}
	demod_forget_line(d);
	d->cand = false;
	d->level = d->recent = d->baseline = ref;
	d->slope = 0;
}

/* Whether the drooped-step band is tested from the baseline in the line's
 * polarity (see DROOP_FROM_BASE), as the idle path does. */
static bool droop_from_base(const struct ir_demod *d)
{
	return demod_droop_base_dir(d) != 0;
}

/* The line is idle on the full path: where a narrow band was chosen for
 * the last frame's step, the idle path never runs again, and with it went
 * the only measurement of the weak band's noise and the only update of its
 * trigger (demod_weak_set_noise).  The trigger then kept whatever it held for the
 * rest of the stream: INFINITY from the stream's start (rcmm32 6 dB, 44.1
 * and 48 kHz: 100 and 99 frames of 100 lost), or a value measured over a
 * lit leader, above the step (sanyo 6 dB 44.1 kHz τ 5 ms: 4 %).  Here the
 * weak band's idle level follows the line as the idle path's does (at
 * IDLE_TRACK_US), its noise is measured against it as idle_noise does,
 * and the trigger follows that noise, once the level has followed the
 * dark line for QUIET_US. */
void demod_weak_idle_sample(struct ir_demod *d)
{
	double dw = (double)d->w2 - d->weak_idle, dw2 = dw * dw;
	double wlim2 = 9 * d->weak_noise2 + THRESHOLD_FLOOR * THRESHOLD_FLOOR;
	double dref = demod_droop_noise_ref(d, d->weak_idle);
	double dd = (double)d->d2 - dref, dd2 = dd * dd;
	double dlim2 = 9 * d->droop_noise2 + THRESHOLD_FLOOR * THRESHOLD_FLOOR;

	/* (a level is followed over consecutive idle samples of this path
	 * only: anything between, the idle path included, starts it anew) */
	if (d->weak_idle_at + 1 != d->n)
		d->weak_idle_n = 0;
	d->weak_idle_at = d->n;
	if (d->weak_idle_n++ == 0) {
		d->weak_idle = weak_ref_input(d);
		return;
	}
	d->weak_idle += d->weak_wait_g * (weak_ref_input(d) - d->weak_idle);
	if (d->weak_idle_n < d->quiet_n)
		return;
	if (d->n % IDLE_NOISE_EVERY == 0 && dw2 < wlim2) {
		d->weak_noise2 += demod_weak_noise_gain(d) * (dw2 - d->weak_noise2);
		if (d->droop_gather && dd2 < dlim2) {
			d->droop_acc += (float)dd2;
			d->droop_acc_n++;
		}
	}
	if (d->n % IDLE_HOUSEKEEPING == 0) {
		if (d->droop_gather) {
			demod_droop_noise(d, 9);
			demod_droop_hum(d, d->weak_idle);
		} else if (d->droop_on && dd2 < dlim2)
			demod_droop_noise_sparse(d, 9, dref);
		demod_weak_set_noise(d, d->weak_noise2);
	}
}

/* True where a trigger out of idle in direction `dir`, from the level
 * `ref`, on a band whose trigger is `thr`, is the fall of a pulse in the
 * line's polarity whose rise it missed or the acquisition refused (see
 * WEAK_FALL_DISP); it then holds that direction off for a while. */
static bool weak_missed_fall(struct ir_demod *d, int dir, double ref, double thr)
{
	double since_us;
	bool refused;

	if (d->weak_fall_dir != 0) {
		since_us = (double)(d->n - d->weak_fall_n) * d->us_per_sample;
		if (since_us >= WEAK_FALL_HOLD_US || d->weak_fall_dir * ((double)d->w2 - d->baseline) < thr)
			d->weak_fall_dir = 0; /* the undershoot is over */
		else if (dir == d->weak_fall_dir)
			return true;
	}
	if (d->cfg.polarity != IR_POLARITY_AUTO || d->pol != -dir)
		return false;
	since_us = (double)(d->n - d->weak_refused_n) * d->us_per_sample;
	refused = d->weak_refused_dir == -dir && since_us < WEAK_FALL_PAIR_US;
	/* (below WEAK_TRIGGER_FAST_RATE only after a refused start from the
	 * baseline: see WEAK_BASE_TRIGGER) */
	if (d->cfg.sample_rate < WEAK_TRIGGER_FAST_RATE && !(refused && d->weak_refused_base))
		return false;
	if (!refused && dir * (ref - d->baseline) >= -WEAK_FALL_DISP * thr)
		return false;
	d->weak_fall_dir = dir;
	d->weak_fall_n = d->n;
	return true;
}

/* True where the weak band stands its trigger from the slow baseline
 * (WEAK_BASE_TRIGGER) in the line's polarity, as the idle path tests it,
 * and STEP_FRACTION of a step learnt earlier; never where the polarity is
 * not known. */
static bool weak_from_base(const struct ir_demod *d)
{
	float dev = (d->w2 - (float)d->baseline) * (float)d->pol;

	return d->pol != 0 && dev >= (float)WEAK_BASE_TRIGGER * d->weak_thr && dev >= STEP_FRACTION * d->step;
}

/* ...and whether it departs so, by its trigger and DROOP_STEP_FRACTION of
 * a step learnt earlier. */
static bool droop_base_departs(const struct ir_demod *d)
{
	float dir = demod_droop_base_dir(d);
	float dev = dir == DROOP_BASE_EITHER ? fabsf(d->d2 - (float)d->baseline) : (d->d2 - (float)d->baseline) * dir;

	return dev >= DROOP_BASE_TRIGGER * d->droop_thr && dev >= DROOP_STEP_FRACTION * d->step;
}

/* The weak trigger on the full path, the line idle: the weak band (or,
 * where it stayed under its trigger, the drooped-step band; from the
 * baseline in the line's polarity where DROOP_FROM_BASE holds) departed
 * by the trigger from its idle level (demod_weak_idle_sample's, once it follows
 * the line; before that the line's level, which follows the signal within
 * TRACK_US and would take in a weak pulse's slow rise).  Starts a weak
 * frame from that level and returns true when it fired. */
bool demod_weak_idle_trigger(struct ir_demod *d, float w_before)
{
	bool followed = d->weak_idle_at == d->n && d->weak_idle_n >= d->quiet_n;
	double ref = followed ? d->weak_idle : d->level, level = d->level;
	bool weak = fabsf(d->w2 - (float)ref) >= d->weak_thr && fabs(d->w2 - ref) >= STEP_FRACTION * d->step;
	bool droop_base = droop_from_base(d);
	bool droop = !weak && !droop_base && fabsf(d->d2 - (float)ref) >= d->droop_thr &&
		     fabs(d->d2 - ref) >= DROOP_STEP_FRACTION * d->step;
	bool from_base = !weak && !droop && weak_from_base(d);

	if (from_base) {
		ref = d->baseline;
		weak = true;
	} else if (!weak && droop_base && droop_base_departs(d)) {
		ref = d->baseline;
		droop = from_base = true;
	}

	if (!weak && !droop)
		return false;
	if (weak_missed_fall(d, (droop ? d->d2 - ref : d->w2 - ref) > 0 ? 1 : -1, ref,
			     droop ? d->droop_thr : d->weak_thr))
		return false; /* the line stays idle */
	d->level = ref;
	d->weak_from_base = from_base;
	if (droop)
		weak_start(d, d->d2 - ref, d->d2 - ref, true);
	else
		weak_start(d, d->w2 - ref, w_before - ref, false);
	if (!d->weak)
		d->level = level;
	return true;
}

/* One sample of a weak frame's first pulse, measured before the sequence
 * detector starts (see WEAK_ACQUIRE_US). */
static void weak_sample(struct ir_demod *d, float x)
{
	ir_seqdet_acquire(d->seqdet, x); /* seqdet hook */
	d->weak_acq_sum += d->weak_dir * ((double)x - d->weak_b);
	if (++d->weak_acq_n >= d->weak_acq_len)
		weak_acquired(d);
}

/* A weak pulse is being measured, and so far it is under WEAK_MAX_STEP σ of
 * the wide band, or has been measured for less than CONFIRM_IDLE_US (the
 * wide band's own proof of a first edge).  Decided on one sample, the
 * noise put a 6 dB step over that level half the time and under it the
 * other half.  With both (demod_weak_acq_cut and this), 6 dB at 44.1/48 kHz
 * lost the first frame of 10 streams of 42, not 12 (6 of them RC-MM's:
 * the wide band makes an iMON frame of its first header), the mean
 * 99.0 -> 99.3 % at 44.1 kHz (`limit --rates 44100,48000`), and
 * test_demod_leading_silence_corpus's known failures went 25 -> 24.
 * (Deciding on the whole acquisition instead lost ledrem-mivar-000's
 * first frame after -80 dBFS noise: a weak start on the transient before
 * it ran the sequence detector into the frame.) */
bool demod_weak_acq_below_wide(const struct ir_demod *d)
{
	return d->weak_acq && (d->weak_acq_n < d->confirm_idle_n || d->weak_acq_sum < d->weak_acq_n * demod_weak_strong(d));
}

enum demod_weak_took demod_weak_own_sample(struct ir_demod *d, float x, float w_before, bool full, float old)
{
	if (strong_edge(d, full, old))
		strong_preempts_weak(d, old);
	if (d->weak_wait) {
		bool timers = false;

		weak_wait_sample(d, w_before, &timers);
		return timers ? DEMOD_WEAK_TIMERS : DEMOD_WEAK_TOOK;
	}
	if (d->weak_seq) {
		/* seqdet hook: the line's timers run at its decision horizon;
		 * a start it took back (noise) returns to the idle path */
		ir_seqdet_push(d->seqdet, x);
		if (d->weak_seq && d->state == LINE_SPACE && d->weak_horizon_us - d->last_edge_us >= WEAK_GIVE_BACK_US) {
			weak_give_back(d);
			return DEMOD_WEAK_TOOK;
		}
		if (d->weak_seq &&
		    (double)(d->n - d->weak_seq_n) * 1e6 >= WEAK_SEQ_MAX_US * d->cfg.sample_rate) {
			weak_reject(d);
			d->weak_b = d->w2; /* not the detector's baseline: it may be what went wrong */
			return DEMOD_WEAK_TOOK;
		}
		if (!ir_seqdet_running(d->seqdet) && d->weak_seq)
			weak_take_back(d);
		return DEMOD_WEAK_TOOK;
	}
	if (d->weak) {
		weak_sample(d, x);
		return DEMOD_WEAK_TIMERS;
	}
	return DEMOD_WEAK_NOT;
}
