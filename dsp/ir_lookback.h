/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_lookback.h - the last few ms of raw input, kept at little cost, so that
 * a start found late (a weak trigger fires 90-180 µs into a pulse at
 * 0-4 dB) can be placed where the samples before it say it began.
 *
 * The ring is indexed by the stream's sample count: sample m sits at
 * m & mask.  The demodulator's per-sample paths store each sample as they
 * take it (ir_lookback_put); its idle path, which reads the caller's buffer
 * in stretches, copies the tail of each run at its end
 * (ir_lookback_fill), so idle samples cost a fraction of a copy each.
 * All memory is allocated in ir_lookback_init() and freed in
 * ir_lookback_free().
 */
#ifndef IRJACK_IR_LOOKBACK_H
#define IRJACK_IR_LOOKBACK_H

#include <stddef.h>
#include <stdint.h>

struct ir_lookback {
	float *x;      /* the ring (mask + 1 samples) */
	uint64_t mask;
	uint64_t from; /* the first sample index the ring may hold (a reset) */
};

/* Allocates a ring of at least `us` µs at `us_per_sample`; 0 or -ENOMEM. */
int ir_lookback_init(struct ir_lookback *lb, double us, double us_per_sample);
void ir_lookback_free(struct ir_lookback *lb);

/* Sample m (the stream's count) is x. */
static inline void ir_lookback_put(struct ir_lookback *lb, uint64_t m, float x)
{
	lb->x[m & lb->mask] = x;
}

/* The `done` samples ending just before sample `end` were samples[0..done)
 * at `stride`: keeps the last of them that fit. */
void ir_lookback_fill(struct ir_lookback *lb, uint64_t end, const float *samples, size_t done,
		      size_t stride);

/* Samples before `end` are gone for good (a reset, a gap in the input). */
void ir_lookback_forget(struct ir_lookback *lb, uint64_t end);

/*
 * Where a level change to "lit" most likely happened among the `back`
 * samples before sample `end` (the trigger's, after which the pulse is known
 * to be lit): the samples are dark (b) before it and lit (b + dir·a) from it
 * on, white noise around both.  Returns the index of the first lit sample
 * (end itself when none before it looks lit); fewer samples are searched
 * when the ring does not hold `back`.
 */
uint64_t ir_lookback_rise(const struct ir_lookback *lb, uint64_t end, unsigned back, double b,
			  int dir, double a);

/* The most samples ir_lookback_pulse_fit() looks at (from the earliest
 * rise it tries to `stop`). */
#define IR_LOOKBACK_PULSE_MAX 256

/* What ir_lookback_pulse_fit() found. */
struct ir_lookback_pulse {
	uint64_t rise, fall; /* the first lit and the first dark sample */
	double gain;         /* the squared error it saves over darkness */
	double gain_lit;     /* the same for the best pulse lit up to `stop` */
	uint64_t rise_lit;   /* ...and that pulse's first lit sample */
};

/*
 * A short pulse through an AC coupling: it rose among the `back` samples
 * before `end` (lit at `end`) and fell before `stop`, leaving two samples
 * or more after its fall.  Under a coupling of rate w per sample the lit
 * samples droop from the step A as A·w^(j - rise) and the ones after the
 * fall undershoot the idle level `b` by A·(1 - w^(fall - rise))·w^(j - fall);
 * the step is fitted (least squares) for each rise, fall and rate among
 * the n_w of w[] (1: no coupling).  `out` gets the best fit (rise = fall =
 * end, gains 0, when the ring or IR_LOOKBACK_PULSE_MAX cannot hold the
 * samples), and gain_lit, the best fit of a pulse still lit at `stop`,
 * to weigh the fall against.
 */
void ir_lookback_pulse_fit(const struct ir_lookback *lb, uint64_t end, unsigned back, uint64_t stop,
			  double b, int dir, const double *w, unsigned n_w, struct ir_lookback_pulse *out);

#endif
