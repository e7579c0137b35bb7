/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ir_demod_decay.c - the AC coupling's decay rate, measured per state (see
 * ir_demod_state.h). */
#include "ir_demod_decay.h"

#include <math.h>
#include <string.h>

/* The rate the level tracker's prediction uses: the estimate less one
 * standard deviation (a droop predicted that is not there is an edge; one
 * that is there and not predicted, the tracker follows), within [0, max]. */
static inline double decay_use(double k, double var, double max)
{
	k -= sqrt(var);
	return k < 0 ? 0 : k < max ? k : max;
}

/*
 * ln(x) for a finite x > 0 (normal, not subnormal), within one unit in the
 * last place of libm's log() (the same in ~90 % of arguments; checked over
 * 2e7 of them from 1e-17 to 1e17 and just under 1).  Inline because the
 * wide band's decay rate takes a logarithm every block (~3 samples at
 * 48 kHz) and the next sample's prediction waits for it: the call to libm
 * (which spills every live register) was 15 % of the frames path's time.
 *
 * x = 2^e z, z in [0.707, 1.414) split into DLOG_N intervals; with c near
 * 1/z (26 significant bits, so that the high half of z times c is exact)
 * and l = -ln c from the table, ln x = e ln 2 + l + ln(1 + r),
 * r = z c - 1, |r| < 2^-7; ln(1 + r) to r^8 (the next term is under
 * 2^-56 r).  The two intervals either side of 1 have c = 1 (no
 * cancellation between l and ln(1 + r) just under and over 1).
 */
#define DLOG_OFF UINT64_C(0x3fe6a00000000000) /* 0.70703125: √½ rounded down to 7 bits */

static double dlog_from_bits(uint64_t u)
{
	double x;

	memcpy(&x, &u, sizeof(x));
	return x;
}

void demod_dlog_init(struct ir_demod *d)
{
	uint64_t width = UINT64_C(1) << (52 - DLOG_BITS);

	for (unsigned i = 0; i < DLOG_N; i++) {
		double z0 = dlog_from_bits(DLOG_OFF + i * width);
		double z1 = dlog_from_bits(DLOG_OFF + (i + 1) * width);
		double c = z0 <= 1 && 1 <= z1 ? 1 : 2 / (z0 + z1);
		uint64_t u;

		memcpy(&u, &c, sizeof(u));
		c = dlog_from_bits(u & ~((UINT64_C(1) << 27) - 1));
		d->dlog_c[i] = c;
		d->dlog_l[i] = -log(c);
	}
}

static inline double decay_log(const struct ir_demod *d, double x)
{
	static const double ln2_hi = 6.93147180369123816490e-01; /* 0x3fe62e42fee00000 */
	static const double ln2_lo = 1.90821492927058770002e-10;
	uint64_t u, t, zu;
	int64_t e;
	unsigned i;
	double z, zh, c, r, r2, r4, p;

	memcpy(&u, &x, sizeof(u));
	t = u - DLOG_OFF;
	e = (int64_t)t >> 52;
	i = (unsigned)(t >> (52 - DLOG_BITS)) & (DLOG_N - 1);
	zu = u - ((uint64_t)e << 52);
	z = dlog_from_bits(zu);
	zh = dlog_from_bits(zu & ~((UINT64_C(1) << 26) - 1));
	c = d->dlog_c[i];
	r = (zh * c - 1) + (z - zh) * c;
	r2 = r * r;
	r4 = r2 * r2;
	/* ln(1 + r) = r + r² p(r), terms paired (Estrin) for a short chain */
	p = (-0.5 + r * (1.0 / 3)) + r2 * (-0.25 + r * 0.2) +
	    r4 * ((-1.0 / 6 + r * (1.0 / 7)) - r2 * 0.125);
	return ((double)e * ln2_hi + d->dlog_l[i]) + (r + (r2 * p + (double)e * ln2_lo));
}

/* demod_measure_decay() on the narrow bands (low SNR), where one state's
 * stretch is too noisy to be taken as the rate. */
static inline void narrow_decay(struct ir_demod *d, double mean, double ratio, double gap)
{
	double k, var, prec;

	/* Once the signal is a tenth of the first block's, or lost in the
	 * noise, the ratio says little more: the rate measured so far stays. */
	if (ratio < 0.1 || mean * mean < 16 * d->noise2)
		return;
	/* Far from the edge the baseline's own error (hum, a slow wander)
	 * is what the ratio reads, not the coupling. */
	if (gap > d->decay_gap_max)
		return;
	/* The rate and its variance from the two means' noise (a block mean
	 * of the band is taken as noisy as one sample of it: on the narrow
	 * bands the block is shorter than the band's memory), combined with
	 * what earlier states taught by their precisions: on a noisy input
	 * one state's short stretch says little (a DC-coupled line must not
	 * be made to droop by it), a long state under a fast coupling (NEC's
	 * 9 ms leader under 1 ms) says much.  A rise (ratio > 1) counts as a
	 * negative rate, so that noise averages out instead of only ever
	 * adding droop. */
	k = -log(ratio > 0 ? ratio : 1e-9) / gap;
	var = (d->noise2 + THRESHOLD_FLOOR * THRESHOLD_FLOOR) *
	      (1 / (d->block1 * d->block1) + 1 / (mean * mean)) / (gap * gap);
	prec = 1 / d->decay_var + 1 / var;
	/* the state's best stretch (later blocks sink into the noise) */
	if (d->decay_valid && 1 / prec >= d->decay_est_var)
		return;
	d->decay_est = (d->decay / d->decay_var + k / var) / prec;
	d->decay_est_var = 1 / prec;
	d->decay_valid = true;
	d->narrow_valid = true;
	d->decay_now = decay_use(d->decay_est, d->decay_est_var, d->decay_max);
}

/* Stable and unclipped: block means of the signal's distance from the
 * baseline; from the first clear one on, the decay since then. */

void demod_decay_block(struct ir_demod *d, double sum)
{
	double mean, ratio, k, gap;

	if (!d->block1_center) {
		mean = sum / d->block_n;
		/* The first block must stand clear of the noise (4 σ of a mean)
		 * and a quarter step away from the baseline: near it a ratio
		 * of block means says nothing (a DC-coupled space). */
		if (mean * mean * d->block_n < 16 * d->noise2 || fabs(mean) < 0.25 * d->step)
			return;
		d->block1 = mean;
		d->block1_inv = 1 / sum;
		d->block1_center = d->n - d->block_n / 2;
		return;
	}
	if (d->n - d->block_n / 2 < d->block1_center + DECAY_MIN_BLOCKS * d->block_n)
		return;
	gap = (double)(d->n - d->block_n / 2 - d->block1_center);
	if (d->use_slow) {
		mean = sum / d->block_n;
		narrow_decay(d, mean, mean / d->block1, gap);
		return;
	}
	/* The ratio of the block means as that of their sums, and over the
	 * gap as times its reciprocal: the same to a unit in the last place,
	 * and no division waits for the signal (the next sample's prediction
	 * waits for k: two divisions and a call to libm's log() there were
	 * a fifth of the frames path's time). */
	ratio = sum * d->block1_inv;
	/* Past a twentieth the decay is lost in the noise and the next edge. */
	if (ratio < 0.05)
		ratio = 0.05;
	k = ratio >= 1 ? 0 : -decay_log(d, ratio) * (1 / gap);
	d->decay_now = k < d->decay_max ? k : d->decay_max;
	d->decay_valid = true;
}

/* At an edge: a state that measured its own decay teaches the next. */
void demod_fold_decay(struct ir_demod *d)
{
	if (d->use_slow) {
		if (d->narrow_valid) {
			d->decay = d->decay_est;
			d->decay_var = d->decay_est_var;
		}
		/* the coupling may change (another input): old states count less */
		d->decay_var *= DECAY_FORGET;
		if (d->decay_var > d->decay_var_max)
			d->decay_var = d->decay_var_max;
		d->decay_now = decay_use(d->decay, d->decay_var, d->decay_max);
	} else {
		if (d->decay_valid)
			d->decay += DECAY_STATE_WEIGHT * (d->decay_now - d->decay);
		d->decay_now = d->decay;
	}
	d->decay_valid = false;
	d->narrow_valid = false;
	d->block1_center = 0;
	d->block_sum = 0;
	d->block_count = 0;
}
