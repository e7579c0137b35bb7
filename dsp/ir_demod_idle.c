/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ir_demod_idle.c - the idle path (see ir_demod_state.h). */
#include "ir_demod_idle.h"

#include <math.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/*
 * The line has been dark past the timeout: most of a receiver's life.  Only
 * the band filter and a one-pole level track run per sample; noise floor,
 * baseline and peak are updated every IDLE_HOUSEKEEPING samples.  The first
 * sample that departs from the level by the threshold leaves this path and
 * is processed in full.
 */

/* The stream's start is the wide band's (see demod_weak_set_noise). */
bool demod_weak_start_held(const struct ir_demod *d)
{
	return d->start_open &&
	       (d->start_len > 0 || (double)d->n * d->us_per_sample < START_PROOF_US);
}

/* The weak band's σ, and the idle triggers that follow from it and from
 * the drooped-step band's (see DROOP_BAND_US). */
static inline void weak_set_noise(struct ir_demod *d, double noise2)
{
	/* (the stream's first frame keeps WEAK_TRIGGER: see WEAK_TRIGGER_FAST) */
	double thr = (d->have_edge ? d->weak_trigger : WEAK_TRIGGER) * sqrt(noise2) + THRESHOLD_FLOOR;

	/* a step learnt earlier sets a floor (ripple, droop residue and
	 * ringing stay under it; see WEAK_STEP_FRACTION) */
	if (thr < WEAK_STEP_FRACTION * d->step)
		thr = WEAK_STEP_FRACTION * d->step;
	d->weak_noise2 = noise2;
	/* Off (a threshold no float can reach) on (near-)digital silence: a
	 * weak signal needs a noise floor to be weak against, and the noise's
	 * own arrival after silence is the wide band's to handle (see
	 * NOISE_RISE).  Nor where the band's noise is far below what the
	 * input's sample-to-sample noise puts in it: no noise at all, the
	 * differences reading a clean signal's own slopes, where what the
	 * weak band would see are a strong signal's ripples and droop.  Nor
	 * while the stream's first edges are held (START_PROOF_US): an
	 * AC-coupled recording's start droops, and the first frame's cold
	 * start is the wide band's. */
	d->weak_thr = d->weak_on && !demod_weak_start_held(d) && d->raw_noise2 >= SILENT_NOISE_SD * SILENT_NOISE_SD &&
				      noise2 >= d->weak_white * d->raw_noise2 * d->weak_gain
			      ? (float)thr
			      : INFINITY;
	/* the same band from the slow baseline (see WEAK_BASE_TRIGGER; its
	 * floor set where the idle path begins) */
	{
		float bthr = (float)WEAK_BASE_TRIGGER * d->weak_thr;

		d->weak_base_thr = bthr > d->weak_base_floor ? bthr : d->weak_base_floor;
	}
	/* the drooped-step band (see DROOP_BAND_US): with the fast rules, or
	 * before the stream's first edge from the baseline either way (see
	 * DROOP_FIRST_TRIGGER, DROOP_FIRST_ARM_US) */
	d->droop_thr = INFINITY;
	if ((d->have_edge || (d->droop_first && d->n >= d->droop_first_n)) && d->droop_on &&
	    isfinite(d->weak_thr)) {
		double dthr = (d->have_edge ? DROOP_TRIGGER : DROOP_FIRST_TRIGGER) * sqrt(d->droop_noise2) +
			      THRESHOLD_FLOOR;

		d->droop_thr = (float)(dthr > DROOP_STEP_FRACTION * d->step ? dthr : DROOP_STEP_FRACTION * d->step);
	}
}

void demod_weak_set_noise(struct ir_demod *d, double noise2)
{
	weak_set_noise(d, noise2);
}

/* Every IDLE_NOISE_EVERY samples: one sample of the noise floor and of the
 * input's own noise (half its squared first difference), each limited to
 * 4 σ so one click cannot inflate them. */
static inline void idle_noise(struct ir_demod *d, float x, float x_before, float r)
{
	double r2 = (double)r * r, lim2 = d->idle_lim2;
	double dx = (double)x - x_before, dx2 = 0.5 * dx * dx, rlim2 = d->idle_rlim2;
	double a = d->alpha_noise * IDLE_NOISE_EVERY;

	d->noise2 += a * ((r2 < lim2 ? r2 : lim2) - d->noise2);
	d->raw_noise2 += a * ((dx2 < rlim2 ? dx2 : rlim2) - d->raw_noise2);
	{
		double dw = (double)d->w2 - d->idle_level, dw2 = dw * dw;
		double wlim2 = 16 * d->weak_noise2 + THRESHOLD_FLOOR * THRESHOLD_FLOOR;


		d->weak_noise2 += demod_weak_noise_gain(d) * ((dw2 < wlim2 ? dw2 : wlim2) - d->weak_noise2);
		if (d->droop_gather) {
			/* (the idle level, or the baseline before the stream's
			 * first edge: see DROOP_FIRST_MIN_RATE) */
			float dd = d->d2 - *d->droop_ref;

			d->droop_acc += dd * dd;
			d->droop_acc_n++;
		}
	}
}

/* Every IDLE_HOUSEKEEPING samples: baseline, peak, and the thresholds that
 * follow from the noise floor. */
static void idle_housekeeping(struct ir_demod *d, float x)
{
	float ax = fabsf(x);

	if (ax > d->peak)
		d->peak = ax;
	d->noise_sd = sqrt(d->noise2);
	d->baseline += d->alpha_baseline * IDLE_HOUSEKEEPING * (d->idle_level - d->baseline);
	d->droop_base = (float)d->baseline;
	d->idle_thr = (float)demod_threshold(d);
	if (d->droop_gather) {
		demod_droop_noise(d, 16);
		demod_droop_hum(d, d->idle_level);
	} else if (d->droop_on) /* (from the baseline before the first edge: see DROOP_FIRST_TRIGGER) */
		demod_droop_noise_sparse(d, 16, *d->droop_ref);
	weak_set_noise(d, d->weak_noise2); /* (inline: the idle path's cost) */
	d->idle_lim2 = 16 * d->noise2 + THRESHOLD_FLOOR * THRESHOLD_FLOOR;
	d->idle_rlim2 = 16 * d->raw_noise2 + THRESHOLD_FLOOR * THRESHOLD_FLOOR;
}

/* The weak band's departure `dev` from the baseline, in the line's
 * polarity `dir` (±1; the trigger is off where it is not known). */
static inline float idle_from_base(float dev, float dir)
{
	return dev * dir;
}

/* The drooped-step band's departure: from the baseline in the polarity
 * `dir` where it is tested so (see DROOP_FROM_BASE), from it either way
 * where `dir` is DROOP_BASE_EITHER (see DROOP_FIRST_TRIGGER), else from
 * the level either way. */
static inline float idle_droop_dev(float d2, float level, float base, float dir)
{
	return dir == 0 ? fabsf(d2 - level) : dir == DROOP_BASE_EITHER ? fabsf(d2 - base) : (d2 - base) * dir;
}

/* The drooped-step band's trigger as the idle path tests it: from the
 * baseline DROOP_BASE_TRIGGER times its own (see DROOP_FROM_BASE). */
static inline float idle_droop_thr(const struct ir_demod *d)
{
	return d->droop_base_dir != 0 ? DROOP_BASE_TRIGGER * d->droop_thr : d->droop_thr;
}

void demod_idle_enter(struct ir_demod *d)
{
	d->idle_fast = true;
	d->idle_level = (float)d->level;
	/* (the polarity and the step change on the full path only) the
	 * trigger from the baseline in the line's polarity once it is known,
	 * and no nearer than the full path takes it (STEP_FRACTION of the
	 * step: a departure it does not take would leave the idle path for
	 * nothing) */
	d->weak_base_dir = (float)d->pol;
	d->weak_base_floor = d->pol != 0 ? (float)(STEP_FRACTION * d->step) : INFINITY;
	d->droop_base_dir = demod_droop_base_dir(d);
	d->droop_ref = demod_droop_noise_from_base(d) ? &d->droop_base : &d->idle_level;
	idle_housekeeping(d, 0);
}

void demod_idle_leave(struct ir_demod *d)
{
	d->idle_fast = false;
	d->strong_n = 0; /* its history stopped on the idle path */
	d->level = d->idle_level;
	d->recent = d->idle_level;
	d->slope = 0;
}

bool demod_idle_step(struct ir_demod *d, float x)
{
	float f1 = d->f1 + d->fast_g * (x - d->f1);
	float f2 = d->f2 + d->fast_g * (f1 - d->f2);
	float w1 = d->w1 + d->weak_g * (x - d->w1);
	float w2 = d->w2 + d->weak_g * (w1 - d->w2);
	float d1 = d->d1 + d->droop_g * (x - d->d1);
	float d2 = d->d2 + d->droop_g * (d1 - d->d2);
	float r = f2 - d->idle_level;

	if (fabsf(r) >= d->idle_thr || fabsf(w2 - d->idle_level) >= d->weak_thr ||
	    idle_droop_dev(d2, d->idle_level, (float)d->baseline, d->droop_base_dir) >= idle_droop_thr(d) ||
	    idle_from_base(w2 - (float)d->baseline, d->weak_base_dir) >= d->weak_base_thr)
		return false;
	d->f1 = f1;
	d->f2 = f2;
	d->w1 = w1;
	d->w2 = w2;
	d->d1 = d1;
	d->d2 = d2;
	d->y_prev = f2;
	d->idle_level += d->idle_a * r;
	ir_lookback_put(&d->lb, d->n, x);
	if ((++d->n % IDLE_NOISE_EVERY) == 0)
		idle_noise(d, x, d->x_prev, r);
	if (d->n % IDLE_HOUSEKEEPING == 0)
		idle_housekeeping(d, x);
	d->x_prev = x;
	return true;
}

/* The idle path's state over one stretch, in locals (see demod_idle_run), and
 * the gains and thresholds that stay constant over it. */
struct idle_regs {
	float f1, f2, w1, w2, d1, d2, level, r;
	float g, wg, dg, a, thr, wthr, dthr;
	float base, bthr, bdir; /* the baseline, and the weak band's trigger from it */
	float ddir;             /* the drooped-step band's polarity from it (see DROOP_FROM_BASE) */
};

/* After a whole stretch: its noise sample, and every IDLE_HOUSEKEEPING
 * samples the housekeeping, as demod_idle_run does them (x: the stretch's last
 * sample, x_before the one before it; r its r). */
static inline void idle_stretch_done(struct ir_demod *d, float w2, float d2, float level, float x,
				     float x_before, float r)
{
	d->n += IDLE_NOISE_EVERY;
	d->w2 = w2;
	d->d2 = d2;
	d->idle_level = level;
	idle_noise(d, x, x_before, r);
	if (d->n % IDLE_HOUSEKEEPING == 0)
		idle_housekeeping(d, x);
}

#ifdef __SSE2__
/*
 * Up to `count` whole stretches of IDLE_NOISE_EVERY samples from `p` (the
 * first at a noise sample's boundary), each with its noise sample and
 * housekeeping (idle_stretch_done); stops before a stretch in which a
 * sample departs.  Returns the stretches done; `s` is the state after
 * them, exactly what the scalar steps (demod_idle_run's loop) would have left,
 * bit for bit.  A stretch in which a sample departs is left to the
 * scalar steps, to find which (a frame's start: rare).  Not inlined: in
 * a small function the vectors stay in registers.
 *
 * The bands side by side in SIMD lanes: [fast, weak, drooped-step, weak
 * again] (the last lane's departure is not tested).  Why it is exact: every lane
 * does the scalar code's own float operations (x + g * (y - x), level +
 * a * r), each rounded to float; a + b and a * b are exact either way
 * round.  Only the departure test is gathered: the largest |r|,
 * |w2 - level| and |d2 - level| of the stretch, against thresholds
 * constant over it.  Why
 * this layout: the steps are chains of dependent operations (each
 * section's new value needs its last), so the time per sample is a
 * chain's latency, three operations; the first sections [f1, w1], the
 * second [f2, w2] and the level (in every lane) are three vectors whose
 * chains hold no shuffle.  (One vector [f2, w2, f1, w1] run as a pipeline
 * took two instructions a sample less, but the shuffle in its chain made
 * it a seventh slower than the scalar steps in wall time.)
 */
static __attribute__((noinline)) size_t idle_stretches(struct ir_demod *d, const float *p,
						       ptrdiff_t stride, size_t count,
						       struct idle_regs *s)
{
	/* (the drooped-step band's lane from the baseline where DROOP_FROM_BASE
	 * holds: that lane's level does not move, and its test takes the
	 * absolute value, as the fourth lane's) */
	const __m128 gv = _mm_setr_ps(s->g, s->wg, s->dg, s->wg),
		     av = _mm_setr_ps(s->a, s->a, s->ddir != 0 ? 0 : s->a, 0);
	const __m128 absmask = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff));
	__m128 b1 = _mm_setr_ps(s->f1, s->w1, s->d1, s->w1), b2 = _mm_setr_ps(s->f2, s->w2, s->d2, s->w2);
	__m128 lv = _mm_setr_ps(s->level, s->level, s->ddir != 0 ? s->base : s->level, s->base);
	__m128 tv = _mm_setr_ps(s->thr, s->wthr, s->dthr, s->bthr);
	size_t k;

	for (k = 0; k < count; k++, p += IDLE_NOISE_EVERY * stride) {
		__m128 n1 = b1, n2 = b2, nl = lv, m = _mm_setzero_ps(), rv = m, dv;

#define IDLE_SIMD_STEP(x)                                                                        \
	do {                                                                                      \
		n1 = _mm_add_ps(_mm_mul_ps(_mm_sub_ps((x), n1), gv), n1);                         \
		n2 = _mm_add_ps(_mm_mul_ps(_mm_sub_ps(n1, n2), gv), n2);                          \
		dv = _mm_sub_ps(n2, nl); /* [r, w2 - level, ...] */                               \
		/* the level's update: r = f2 - level, dv's first lane, in every lane */        \
		rv = _mm_castsi128_ps(_mm_shuffle_epi32(_mm_castps_si128(dv), 0));                \
		nl = _mm_add_ps(_mm_mul_ps(rv, av), nl);                                          \
		m = _mm_max_ps(m, _mm_and_ps(dv, absmask));                                       \
	} while (0)
#define IDLE_LANE(v, k) _mm_castsi128_ps(_mm_shuffle_epi32(_mm_castps_si128(v), (k) * 0x55))
		if (stride == 1) { /* mono: four samples a load */
#pragma GCC unroll 4
			for (int i = 0; i < IDLE_NOISE_EVERY; i += 4) {
				__m128 x4 = _mm_loadu_ps(p + i);

				IDLE_SIMD_STEP(IDLE_LANE(x4, 0));
				IDLE_SIMD_STEP(IDLE_LANE(x4, 1));
				IDLE_SIMD_STEP(IDLE_LANE(x4, 2));
				IDLE_SIMD_STEP(IDLE_LANE(x4, 3));
			}
		} else {
#pragma GCC unroll 16
			for (int i = 0; i < IDLE_NOISE_EVERY; i++)
				IDLE_SIMD_STEP(_mm_set1_ps(p[i * stride]));
		}
#undef IDLE_LANE
#undef IDLE_SIMD_STEP
		/* A NaN is no departure for the scalar steps, but maxps would
		 * forget the largest before it: a NaN (or an infinity, which
		 * makes one) stays in the filters to the last sample, where
		 * maxps(m, |dv|) takes its second operand, the NaN, and such a
		 * stretch (m not under the threshold) is left to the scalar
		 * steps. */
		if (_mm_movemask_ps(_mm_cmpnlt_ps(m, tv)))
			break;
		b1 = n1;
		b2 = n2;
		lv = nl;
		idle_stretch_done(d, _mm_cvtss_f32(_mm_shuffle_ps(b2, b2, _MM_SHUFFLE(1, 1, 1, 1))),
				  _mm_cvtss_f32(_mm_shuffle_ps(b2, b2, _MM_SHUFFLE(2, 2, 2, 2))),
				  _mm_cvtss_f32(lv), p[(IDLE_NOISE_EVERY - 1) * stride],
				  p[(IDLE_NOISE_EVERY - 2) * stride], _mm_cvtss_f32(rv));
		if (d->n % IDLE_HOUSEKEEPING == 0) {
			s->thr = d->idle_thr;
			s->wthr = d->weak_thr;
			s->dthr = idle_droop_thr(d);
			tv = _mm_setr_ps(s->thr, s->wthr, s->dthr, d->weak_base_thr);
			/* [level, level, level, baseline], or [level, level,
			 * baseline, baseline] (see DROOP_FROM_BASE) */
			lv = _mm_shuffle_ps(lv, _mm_set_ss((float)d->baseline), _MM_SHUFFLE(0, 0, 0, 0));
			if (s->ddir == 0)
				lv = _mm_shuffle_ps(lv, lv, _MM_SHUFFLE(2, 0, 0, 0));
		}
	}
	/* (the baseline's lane as the housekeeping left it) */
	s->base = (float)d->baseline;
	s->bthr = d->weak_base_thr;
	s->bdir = d->weak_base_dir;
	s->f1 = _mm_cvtss_f32(b1);
	s->w1 = _mm_cvtss_f32(_mm_shuffle_ps(b1, b1, _MM_SHUFFLE(1, 1, 1, 1)));
	s->f2 = _mm_cvtss_f32(b2);
	s->w2 = _mm_cvtss_f32(_mm_shuffle_ps(b2, b2, _MM_SHUFFLE(1, 1, 1, 1)));
	s->d1 = _mm_cvtss_f32(_mm_shuffle_ps(b1, b1, _MM_SHUFFLE(2, 2, 2, 2)));
	s->d2 = _mm_cvtss_f32(_mm_shuffle_ps(b2, b2, _MM_SHUFFLE(2, 2, 2, 2)));
	s->level = _mm_cvtss_f32(lv);
	return k;
}
#else
/* One whole stretch of the scalar steps, unrolled (the loop's own
 * bookkeeping was a fifth of the work): where no sample departs, `s` is
 * the state after it and returns true; else false, `s` untouched. */
static inline bool idle_stretch(const float *p, ptrdiff_t stride, struct idle_regs *s)
{
	float f1 = s->f1, f2 = s->f2, w1 = s->w1, w2 = s->w2, d1 = s->d1, d2 = s->d2;
	float level = s->level, r = 0;

#pragma GCC unroll 16
	for (int k = 0; k < IDLE_NOISE_EVERY; k++) {
		float xk = p[k * stride];
		float n1 = f1 + s->g * (xk - f1);
		float n2 = f2 + s->g * (n1 - f2);
		float m1 = w1 + s->wg * (xk - w1);
		float m2 = w2 + s->wg * (m1 - w2);
		float e1 = d1 + s->dg * (xk - d1);
		float e2 = d2 + s->dg * (e1 - d2);

		r = n2 - level;
		if (fabsf(r) >= s->thr || fabsf(m2 - level) >= s->wthr ||
		    idle_droop_dev(e2, level, s->base, s->ddir) >= s->dthr ||
		    idle_from_base(m2 - s->base, s->bdir) >= s->bthr)
			return false;
		f1 = n1;
		f2 = n2;
		w1 = m1;
		w2 = m2;
		d1 = e1;
		d2 = e2;
		level += s->a * r;
	}
	s->f1 = f1;
	s->f2 = f2;
	s->w1 = w1;
	s->w2 = w2;
	s->d1 = d1;
	s->d2 = d2;
	s->level = level;
	s->r = r;
	return true;
}

/* idle_stretches() without SIMD: the same contract, stretch by stretch. */
static size_t idle_stretches(struct ir_demod *d, const float *p, ptrdiff_t stride, size_t count,
			     struct idle_regs *s)
{
	size_t k;

	for (k = 0; k < count; k++, p += IDLE_NOISE_EVERY * stride) {
		if (!idle_stretch(p, stride, s))
			break;
		idle_stretch_done(d, s->w2, s->d2, s->level, p[(IDLE_NOISE_EVERY - 1) * stride],
				  p[(IDLE_NOISE_EVERY - 2) * stride], s->r);
		if (d->n % IDLE_HOUSEKEEPING == 0) {
			s->thr = d->idle_thr;
			s->wthr = d->weak_thr;
			s->dthr = idle_droop_thr(d);
			s->base = (float)d->baseline;
			s->bthr = d->weak_base_thr;
			s->bdir = d->weak_base_dir;
		}
	}
	return k;
}
#endif

/*
 * The idle path over a run of samples, with the state in locals (the
 * compiler cannot keep it in registers through the struct: the samples
 * might alias it).  Stops before the first sample that departs from the
 * level by the threshold; returns how many samples it consumed.
 */
size_t demod_idle_run(struct ir_demod *d, const float *samples, size_t n, size_t stride)
{
	float f1 = d->f1, f2 = d->f2, level = d->idle_level;
	float w1 = d->w1, w2 = d->w2, d1 = d->d1, d2 = d->d2;
	const float g = d->fast_g, wg = d->weak_g, dg = d->droop_g;
	float thr = d->idle_thr, wthr = d->weak_thr, dthr = idle_droop_thr(d);
	float base = (float)d->baseline, bthr = d->weak_base_thr, bdir = d->weak_base_dir;
	const float a = d->idle_a, ddir = d->droop_base_dir;
	const float *p = samples;
	size_t done = 0;
	bool departs = false; /* the stretch at p, as idle_stretches found */

	while (done < n) {
		/* up to the next noise sample, without counting per sample */
		size_t left = IDLE_NOISE_EVERY - (size_t)(d->n % IDLE_NOISE_EVERY);
		size_t run = n - done < left ? n - done : left, i;
		float r = 0;

		i = 0;
		if (run == IDLE_NOISE_EVERY && !departs) {
			struct idle_regs s = { f1, f2, w1, w2, d1, d2, level, 0, g, wg, dg, a, thr, wthr, dthr, base, bthr, bdir, ddir };
			size_t count = (n - done) / IDLE_NOISE_EVERY;
			size_t k = idle_stretches(d, p, (ptrdiff_t)stride, count, &s);

			f1 = s.f1;
			f2 = s.f2;
			w1 = s.w1;
			w2 = s.w2;
			d1 = s.d1;
			d2 = s.d2;
			level = s.level;
			thr = s.thr;
			wthr = s.wthr;
			dthr = s.dthr;
			base = s.base;
			bthr = s.bthr;
			bdir = s.bdir;
			done += k * IDLE_NOISE_EVERY;
			p += (ptrdiff_t)(k * IDLE_NOISE_EVERY) * (ptrdiff_t)stride;
			departs = k < count;
			continue; /* then a short run at the end, or the stretch that departs */
		}
		/* a short run, or a sample departs: one at a time, to find it */
		departs = false;
		for (; i < run; i++, p += stride) {
			float n1 = f1 + g * (*p - f1);
			float n2 = f2 + g * (n1 - f2);
			float m1 = w1 + wg * (*p - w1);
			float m2 = w2 + wg * (m1 - w2);
			float e1 = d1 + dg * (*p - d1);
			float e2 = d2 + dg * (e1 - d2);

			r = n2 - level;
			if (fabsf(r) >= thr || fabsf(m2 - level) >= wthr ||
			    idle_droop_dev(e2, level, base, ddir) >= dthr ||
			    idle_from_base(m2 - base, bdir) >= bthr)
				break;
			f1 = n1;
			f2 = n2;
			w1 = m1;
			w2 = m2;
			d1 = e1;
			d2 = e2;
			level += a * r;
		}
		done += i;
		d->n += i;
		if (i < run)
			break;
		if (i == left) {
			float x = p[-(ptrdiff_t)stride];
			float x_before = done >= 2 ? p[-2 * (ptrdiff_t)stride] : d->x_prev;

			d->w2 = w2;
			d->d2 = d2;
			d->idle_level = level;
			idle_noise(d, x, x_before, r);
			if (d->n % IDLE_HOUSEKEEPING == 0) {
				d->idle_level = level;
				d->w2 = w2;
				idle_housekeeping(d, x);
				thr = d->idle_thr;
				wthr = d->weak_thr;
				dthr = idle_droop_thr(d);
				base = (float)d->baseline;
				bthr = d->weak_base_thr;
				bdir = d->weak_base_dir;
			}
		}
	}
	d->f1 = f1;
	d->f2 = f2;
	d->w1 = w1;
	d->w2 = w2;
	d->d1 = d1;
	d->d2 = d2;
	d->y_prev = f2;
	d->idle_level = level;
	if (done) {
		d->x_prev = samples[(done - 1) * stride];
		ir_lookback_fill(&d->lb, d->n, samples, done, stride);
	}
	return done;
}
