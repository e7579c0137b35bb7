/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ir_demod_band.c - the band filter the line is decided on (see
 * ir_demod_state.h). */
#include "ir_demod_band.h"

#include <math.h>

void demod_set_settle(struct ir_demod *d)
{
	double band = d->use_slow ? d->slow_us : BAND_FAST_US;

	/* Two one-pole sections reach STEP_FRACTION of a step after about
	 * 1.4 time constants (1 - e^-1.4 (1 + 1.4) = 0.41). */
	d->band_delay_us = 1.4 * band;
	d->recent_g = demod_alpha_for(RECENT_BANDS * band > 2 * d->us_per_sample ? RECENT_BANDS * band
									   : 2 * d->us_per_sample,
				d->us_per_sample);
	{
		/* A critically damped fading-memory filter, several times slower
		 * than the band's rise (or it follows an edge before the edge
		 * crosses the threshold), and never faster than 6 samples (or at
		 * low rates it follows the converter's ringing). */
		double track_us = TRACK_US + TRACK_BANDS * band;
		double theta;

		if (track_us < 6 * d->us_per_sample)
			track_us = 6 * d->us_per_sample;
		theta = exp(-d->us_per_sample / track_us);
		d->track_a = 1 - theta * theta;
		d->track_b = (1 - theta) * (1 - theta);
		/* Idle, the level only follows hum and drift, slowly enough
		 * (2 ms) that the few samples of an edge's rise under the
		 * threshold cannot drag it along. */
		d->idle_a = (float)demod_alpha_for(IDLE_TRACK_US > track_us ? IDLE_TRACK_US : track_us,
					     d->us_per_sample);
	}
	{
		/* see DECAY_EDGE_BANDS (ir_demod_new() may not have set
		 * d->block_n yet) */
		double lag = ceil(DECAY_EDGE_BANDS * band /
				  (demod_decay_block_n(d->us_per_sample) * d->us_per_sample));

		d->decay_lag = lag < 1 ? 1 : lag > DECAY_LAG_MAX ? DECAY_LAG_MAX : (unsigned)lag;
	}
	d->slow_edge_n = (unsigned)ceil(band / d->us_per_sample);
	d->settle_n = (unsigned)ceil((SETTLE_US + SETTLE_BANDS * band) / d->us_per_sample);
	if (d->settle_n < 3)
		d->settle_n = 3;
}

/* While idle: detect on the wide band if edges will stand out there,
 * otherwise on the narrow one.  Switching restarts the level tracker on the
 * new band's signal. */

void demod_choose_band(struct ir_demod *d)
{
	double limit;
	int band;

	/* Until a step has been measured the wide band is used: its noise
	 * threshold still shows a step 7 times its σ, i.e. down to about 6 dB
	 * SNR at 48 kHz, and a narrower band would blur a first edge into
	 * the droop of a strongly AC-coupled input. */
	if (!d->step_known)
		return;
	limit = BAND_SNR_MIN * BAND_SNR_MIN * d->raw_noise2;
	if (d->step * d->step >= limit * d->fast_gain)
		band = 0;
	else if (d->step * d->step >= BAND_MID_SNR_MIN * BAND_MID_SNR_MIN * d->raw_noise2 * d->mid_gain)
		band = 1;
	else
		band = 2;
	demod_set_band(d, band);
}

/* 0: the wide band, 1: BAND_MID_US, 2: BAND_SLOW_US. */
void demod_set_band(struct ir_demod *d, int band)
{
	bool slow = band > 0;
	float y;

	if (slow == d->use_slow && (!slow || d->slow_g == (band == 1 ? d->mid_g : d->low_g)))
		return;
	if (slow != d->use_slow) {
		/* Block means are too noisy there for the wide band's
		 * per-state rate (and a rate measured on the wide band at this
		 * noise level would be mostly noise): the narrow bands learn
		 * it afresh, weighing each state by its precision (see
		 * narrow_decay()); and back on the wide band its own
		 * estimate starts afresh too. */
		d->decay = d->decay_now = 0;
		d->decay_var = d->decay_var_max;
		d->decay_valid = d->narrow_valid = false;
	}
	d->use_slow = slow;
	d->lag_len = 0; /* (blocks of the other band) */
	if (slow) {
		d->slow_g = band == 1 ? d->mid_g : d->low_g;
		d->slow_gain = band == 1 ? d->mid_gain : d->low_gain;
		d->slow_us = band == 1 ? BAND_MID_US : BAND_SLOW_US;
		d->s1 = d->s2 = d->f2; /* the narrow band starts from the wide one */
	}
	demod_set_settle(d);
	y = slow ? d->s2 : d->f2;
	d->level = y;
	d->recent = y;
	d->slope = 0;
	d->noise2 = d->raw_noise2 * (slow ? d->slow_gain : d->fast_gain);
	d->noise_sd = sqrt(d->noise2);
	d->y_prev = y;
}

/* How many time constants the band filter (two equal one-pole sections)
 * takes to reach `fraction` of a step: 1 - e^-u (1 + u) = fraction. */
double demod_band_rise(double fraction)
{
	double lo = 0, hi = 20;

	for (int i = 0; i < 40; i++) {
		double u = 0.5 * (lo + hi);

		if (1 - exp(-u) * (1 + u) < fraction)
			lo = u;
		else
			hi = u;
	}
	return 0.5 * (lo + hi);
}
