/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ir_demod_weak.h - the weak-signal trigger (ir_demod_weak.c). */
#ifndef IRJACK_IR_DEMOD_WEAK_H
#define IRJACK_IR_DEMOD_WEAK_H

#include "ir_demod_state.h"

#include <stdbool.h>

/* See STRONG_LOOK_US: records the weak band's sample in its history;
 * returns true, and in *old its value strong_d samples before, once the
 * history is full. */
static inline bool demod_strong_push(struct ir_demod *d, float *old)
{
	unsigned i = d->strong_i;

	*old = d->strong_hist[i];
	d->strong_hist[i] = d->w2;
	d->strong_i = i + 1 < d->strong_d ? i + 1 : 0;
	if (d->strong_n < d->strong_d) {
		d->strong_n++;
		return false;
	}
	return true;
}
/* What demod_weak_step() did with a full-path sample. */
enum demod_weak_took {
	DEMOD_WEAK_NOT,    /* nothing: the wide band takes the sample */
	DEMOD_WEAK_TOOK,   /* the weak detector took it */
	DEMOD_WEAK_TIMERS, /* ...and the line's timers run after it */
};
/* demod_weak_step() while a weak frame is under way (full, old: from
 * demod_strong_push()). */
enum demod_weak_took demod_weak_own_sample(struct ir_demod *d, float x, float w_before, bool full,
					   float old);
/* The weak detector's part of a full-path sample (x, the weak band before
 * it w_before): its run, its first pulse's measurement, its wait for the
 * next frame take the sample from the wide band. */
static inline enum demod_weak_took demod_weak_step(struct ir_demod *d, float x, float w_before)
{
	float old;
	bool full = demod_strong_push(d, &old);

	if (!d->weak_wait && !d->weak_seq && !d->weak)
		return DEMOD_WEAK_NOT;
	return demod_weak_own_sample(d, x, w_before, full, old);
}
/* Ends the weak frame under way (the line timed out, or a reset). */
void demod_weak_stop(struct ir_demod *d);
/* The line timed out while a weak frame's first pulse was measured: the
 * pulse goes to the sequence detector or, over the wide band's threshold,
 * back to the wide band. */
void demod_weak_acq_cut(struct ir_demod *d);
/* A weak first pulse is being measured and is, so far, under the wide
 * band's own level (the line's timeout waits for it). */
bool demod_weak_acq_below_wide(const struct ir_demod *d);
/* One sample of an idle line on the full path: the weak trigger's idle
 * level and noise follow it. */
void demod_weak_idle_sample(struct ir_demod *d);
/* A step out of idle is the weak detector's to start, unless strong. */
bool demod_weak_owns_start(const struct ir_demod *d);
/* The height (on the raw input) from which a step is the wide band's. */
double demod_weak_strong(const struct ir_demod *d);
/* The weak trigger on the full path, the line idle: true when it fired
 * (a weak frame started). */
bool demod_weak_idle_trigger(struct ir_demod *d, float w_before);

#endif
