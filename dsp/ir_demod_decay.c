/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ir_demod_decay.c - the AC coupling's decay rate, measured per state (see
 * ir_demod_state.h). */
#include "ir_demod_decay.h"

#include "ir_fastlog.h"

#include <math.h>

/* The rate the level tracker's prediction uses: the estimate less one
 * standard deviation (a droop predicted that is not there is an edge; one
 * that is there and not predicted, the tracker follows), within [0, max]. */
static inline double decay_use(double k, double var, double max)
{
	k -= sqrt(var);
	return k < 0 ? 0 : k < max ? k : max;
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

/* On the narrow bands: one more block mean of the state; the one
 * DECAY_EDGE_BANDS band time constants older, now known to be clear of
 * the next edge's approach, is measured.  (Out of line: inlined, its
 * registers cost demod_decay_block's every call on the wide band too,
 * 337.6 -> 342.5 instructions a frames sample.) */
__attribute__((noinline)) static void narrow_block(struct ir_demod *d, double mean)
{
	unsigned lag = d->decay_lag;
	uint64_t center = d->n - d->block_n / 2;

	if (d->lag_len == lag) {
		double old = d->lag_mean[0];
		uint64_t old_center = d->lag_center[0];

		for (unsigned i = 1; i < lag; i++) {
			d->lag_mean[i - 1] = d->lag_mean[i];
			d->lag_center[i - 1] = d->lag_center[i];
		}
		d->lag_len--;
		if (old_center >= d->block1_center + DECAY_MIN_BLOCKS * d->block_n)
			narrow_decay(d, old, old / d->block1,
				     (double)(old_center - d->block1_center));
	}
	d->lag_mean[d->lag_len] = mean;
	d->lag_center[d->lag_len] = center;
	d->lag_len++;
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
	if (d->use_slow) {
		narrow_block(d, sum / d->block_n);
		return;
	}
	if (d->n - d->block_n / 2 < d->block1_center + DECAY_MIN_BLOCKS * d->block_n)
		return;
	gap = (double)(d->n - d->block_n / 2 - d->block1_center);
	/* The ratio of the block means as that of their sums, and over the
	 * gap as times its reciprocal: the same to a unit in the last place,
	 * and no division waits for the signal (the next sample's prediction
	 * waits for k: two divisions and a call to libm's log() there were
	 * a fifth of the frames path's time). */
	ratio = sum * d->block1_inv;
	/* Past a twentieth the decay is lost in the noise and the next edge. */
	if (ratio < 0.05)
		ratio = 0.05;
	k = ratio >= 1 ? 0 : -ir_fastlog(&d->dlog, ratio) * (1 / gap);
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
	d->lag_len = 0;
	d->block_sum = 0;
	d->block_count = 0;
}
