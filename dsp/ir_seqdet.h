/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_seqdet.h - a sequence detector for weak receiver-module frames.
 *
 * A receiver module's output on a mic input is a two-level signal x in
 * {0, A} (after polarity), seen through a first-order AC coupling (unknown
 * τ, or none) plus white noise.  Near 0 dB SNR no per-sample decision can
 * hold through a whole unit; this detector decides whole runs instead:
 *
 *  - the model: within a run of level s (step T = A·s) the coupling's
 *    low-pass c of the decided levels moves as c ← T + (c - T)·w per
 *    sample (w = e^(-1/(τ·fs)), 1 at DC), and the restored signal
 *    u + c = pol·(y - b) + c equals T plus noise; the squared error of a
 *    block of samples against a hypothesis needs only Σu·w^i per block
 *    (the Σu² term is the same for every hypothesis);
 *  - an explicit-duration Viterbi over blocks of about 55 µs: every run
 *    (pulse or space) lasts at least IR_SEQDET_MIN_RUN_US (states: level ×
 *    blocks into the run, saturating there), so that each decision
 *    integrates at least a unit of RC-6 and longer; per-survivor c;
 *  - τ is not known: one trellis per τ hypothesis runs from the start, and
 *    the one with the smallest cost after COMMIT_US is kept;
 *  - decisions leave with a fixed lag (LAG_US) by tracing back the best
 *    survivor; the step A and baseline b follow the decided blocks, and
 *    τ, A and b are fitted to them by least squares (decision feedback):
 *    once both levels have been decided for a while, the blocks not yet
 *    told are decided again under the fit's A and b (and its τ, where
 *    that fits clearly better than the kept one);
 *  - RC-MM (its family of trellises kept): after the header's fall the
 *    frame is read symbol by symbol (dsp/ir_seqdet_rcmm.h: a Viterbi
 *    over the rises, each a symbol's period of 444/611/778/944 µs after
 *    the one before, scored on the samples), and a symbol it cannot tell
 *    from another fails the frame; before that (and with RCMM_SYMBOLS 0)
 *    the traced rises are timed together on the grid and a gap no symbol
 *    has gets a bit pulse.
 *
 * The caller (ir_demod) finds a frame's first edge, polarity, baseline and
 * step (its weak trigger), hands the samples seen while measuring the step
 * to ir_seqdet_acquire(), starts the detector with ir_seqdet_start() and
 * then feeds every sample to ir_seqdet_push().  Decided edges and the time
 * up to which everything is decided come back through the callbacks,
 * synchronously from ir_seqdet_push().  All memory is allocated in
 * ir_seqdet_new(); nothing after.
 */
#ifndef IRJACK_IR_SEQDET_H
#define IRJACK_IR_SEQDET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ir_seqdet;

/* A decided change of level at `t_us` (µs since the stream's start, the
 * same clock as the caller's sample count): `lit` is the new level. */
typedef void (*ir_seqdet_edge_fn)(void *userdata, double t_us, bool lit);
/* Everything before `t_us` is decided (edges before it have been told). */
typedef void (*ir_seqdet_horizon_fn)(void *userdata, double t_us);

/* What the caller learnt at the frame's start. */
struct ir_seqdet_start {
	uint64_t n;      /* index of the next sample to be pushed */
	double t0_us;    /* where the first pulse started */
	double step;     /* its height A (after polarity), from the caller */
	double baseline; /* the idle level b */
	int pol;         /* +1: light makes the signal go up, -1: down */
	double noise2;   /* variance of the input's white noise per sample */
	/* How long the τ hypotheses run side by side before the best is
	 * kept (µs, up to the detector's longest wait); 0: the detector's
	 * own window (6 ms, 10 ms under 33.3 kHz). */
	double commit_us;
};

/* Returns 0 and sets *out, -EINVAL for a rate outside 4000..1000000, or
 * -ENOMEM.  The callbacks are called from ir_seqdet_push() only. */
int ir_seqdet_new(unsigned sample_rate, ir_seqdet_edge_fn edge_fn,
		  ir_seqdet_horizon_fn horizon_fn, void *userdata, struct ir_seqdet **out);
void ir_seqdet_free(struct ir_seqdet *sd);

/* Forgets the acquisition samples: the caller's trigger fired at sample n. */
void ir_seqdet_arm(struct ir_seqdet *sd, uint64_t n);
/* One raw sample seen while the caller measures the first pulse (kept,
 * up to a limit, to fit the step under each τ hypothesis). */
void ir_seqdet_acquire(struct ir_seqdet *sd, float x);
/* RC-MM: the acquisition's samples (polarity pol, idle level b, white
 * noise of variance noise2) show a first pulse that ended inside them,
 * as RC-MM's 417 µs header does: returns its level (the mean of its lit
 * samples), or 0 when they look lit all through (or say nothing). */
double ir_seqdet_short_first(const struct ir_seqdet *sd, double b, int pol, double noise2);
/* Starts deciding: the line is lit since st->t0_us. */
void ir_seqdet_start(struct ir_seqdet *sd, const struct ir_seqdet_start *st);
/* One raw sample (the caller's sample st->n, then n + 1, ...). */
void ir_seqdet_push(struct ir_seqdet *sd, float x);
/* End of input: decides and tells everything pushed so far. */
void ir_seqdet_finish(struct ir_seqdet *sd);
/* Stops (the caller's line timed out): nothing more is told. */
void ir_seqdet_stop(struct ir_seqdet *sd);
/* True between ir_seqdet_start() and ir_seqdet_stop(). */
bool ir_seqdet_running(const struct ir_seqdet *sd);

/* The step and baseline the detector follows now (for reports). */
double ir_seqdet_step(const struct ir_seqdet *sd);
double ir_seqdet_baseline(const struct ir_seqdet *sd);
/* True where the hypotheses kept are RC-MM's family (its 167 µs units). */
bool ir_seqdet_short_units(const struct ir_seqdet *sd);

#endif
