/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_seqdet_rcmm.h - the sequence detector's RC-MM rises timed on RC-MM's
 * symbol grid (private to dsp/ir_seqdet.c).
 *
 * A symbol's period (one pulse's start to the next's) is 444, 611, 778
 * or 944 µs, whatever a receiver does to the pulses' widths
 * (src/protocols/rcmm.c reads symbols by period, ±83 µs).  The trellis's
 * blocks (~55 µs, a third of a 167 µs bit pulse) cannot hold that grid:
 * a period's two edges are each a block off, and the windows of ±83 µs
 * plus a block either way overlap.  The rises the trellis traced are
 * timed together on the grid (a Viterbi over the rises, each to the
 * sample), and a gap no symbol has (a bit pulse missed: the two spaces
 * around it decided as one) is mended with a bit pulse where the samples
 * say it best is.
 *
 * The caller (ir_seqdet.c) hands in the window's samples restored to the
 * traced path's levels (dark 0, lit `a`), so that everything here is a
 * pure function of what it is given: no allocation, no state, no call
 * back into the detector.
 */
#ifndef IRJACK_IR_SEQDET_RCMM_H
#define IRJACK_IR_SEQDET_RCMM_H

/* Rises planned at once: a window of the detector's lag and emit period
 * (5 ms) holds at most 14 (361 µs apart). */
#define IR_RCMM_PLAN_MAX 32

/* The traced rises of a window and the samples they are scored on. */
struct ir_rcmm {
	double us;          /* µs per sample */
	double a;           /* the step (lit level) */
	double noise2;      /* the noise's variance σ² */
	/* the restored samples: x[i] is stream sample s0 + i, i < n_x */
	double s0;
	unsigned n_x;
	const double *x;
	double from;        /* the first sample not yet told */
	double prev_rise;   /* first lit sample of the last rise told (-1: none) */
	double fall0;       /* the last fall before rise[0] (or the last edge told) */
	unsigned n;         /* rises */
	double rise[IR_RCMM_PLAN_MAX]; /* first lit samples, as traced */
	double fall[IR_RCMM_PLAN_MAX]; /* first dark sample after each (-1: none in the window) */
};

/* What ir_rcmm_plan decides: each rise's sample, and the bit pulse that
 * mends the first gap no symbol has (its first lit and first dark
 * sample; ins_rise -1: none). */
struct ir_rcmm_plan {
	double at[IR_RCMM_PLAN_MAX];
	double ins_rise, ins_fall;
};

/* Times w's rises together on RC-MM's grid and plans the bit pulse that
 * mends the first gap off it, into *out. */
void ir_rcmm_plan(const struct ir_rcmm *w, struct ir_rcmm_plan *out);

#endif
