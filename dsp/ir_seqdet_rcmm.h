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
 * plus a block either way overlap.  Two ways to hold it:
 *  - ir_rcmm_plan: the rises the trellis traced are timed together on
 *    the grid (a Viterbi over the rises, each to the sample), and a gap
 *    no symbol has (a bit pulse missed: the two spaces around it decided
 *    as one) is mended with a bit pulse where the samples say it best is;
 *  - ir_rcmm_symbols: the trellis's rises are not used at all; the frame
 *    after its header is read symbol by symbol from the samples, every
 *    rise a symbol's period after the one before, so that a missed pulse
 *    is only a weak one at its place (what ir_seqdet.c uses after the
 *    header's fall).
 *
 * The caller (ir_seqdet.c) hands in the window's samples restored to the
 * traced path's levels (dark 0, lit `a`), so that everything here is a
 * pure function of what it is given: no allocation, no state, no call
 * back into the detector.
 */
#ifndef IRJACK_IR_SEQDET_RCMM_H
#define IRJACK_IR_SEQDET_RCMM_H

#include <stdint.h>

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

/* The symbol detector's scratch, caller-owned: room for n_x entries each
 * (cum: n_x + 1). */
struct ir_rcmm_scratch {
	double *cum;
	double *v, *b;
	int32_t *back;
	uint8_t *count;
};

/* RC-MM's frame after its first bit pulse, symbol by symbol: the rises
 * after w->prev_rise (told, the frame's `told`-th rise, the header's
 * counted) and after sample w->fall0 (the last edge told), each a symbol
 * period (444/611/778/944 µs, within the remote's clock tolerance) after
 * the one before, scored by the samples' fit to a 167 µs bit pulse
 * against darkness; the frame ends after the rise that completes a 12,
 * 24 or 32-bit frame (its stop pulse), or costs more where it does not.
 * A bit pulse the samples barely show is simply a weak pulse at its
 * place on the grid, never a gap.  Writes the rises, in order, to
 * rise[] (room for IR_RCMM_PLAN_MAX), and to margin[] how much better
 * (nats) the path is than the best that puts that rise elsewhere (0
 * where the space before it does not look dark: no receiver module's),
 * and returns how many. */
unsigned ir_rcmm_symbols(const struct ir_rcmm *w, unsigned told, const struct ir_rcmm_scratch *sc,
			 double *rise, double *margin);

/* The width of the bit pulse ir_rcmm_symbols scores and tells, in
 * samples of `us` µs. */
unsigned ir_rcmm_bit_samples(double us);

#endif
