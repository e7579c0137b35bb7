/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_seqdet_fb.h - the sequence detector's decision feedback (private to
 * dsp/ir_seqdet*.c; the detector is in ir_seqdet_state.h): once blocks
 * are decided, the coupling's τ, the step and the baseline are fitted to
 * them (see FB_MEMORY_US in ir_seqdet_fb.c), and the step and baseline
 * track the decided blocks.  None of these allocates: each writes the
 * detector (or the sums) it is given.
 */
#ifndef IRJACK_IR_SEQDET_FB_H
#define IRJACK_IR_SEQDET_FB_H

#include "ir_seqdet_state.h"

/* The decision feedback's and the tracking's constants for a detector
 * at sample_rate, once its block (sd->L, sd->block_us) is set. */
void seqdet_fb_init(struct ir_seqdet *sd, unsigned sample_rate);

/* Decision feedback's sums emptied at a frame's start: the line lit
 * since sample t0n, block 0 starting at sample n. */
void seqdet_fb_start(struct ir_seqdet *sd, uint64_t n, double t0n);

/* The decided block j (level s) into the decision feedback's sums fs
 * (the block's raw samples are read from sd's ring). */
void seqdet_fb_block(const struct ir_seqdet *sd, struct fb_sums *fs, uint64_t j, int s);

/* Trellis t starts again from the last decided block (its level, its
 * run so far, the decided path's low-pass c) and decides the undecided
 * blocks again from their kept samples, at its present edge costs. */
void seqdet_fb_restart(struct ir_seqdet *sd, struct trellis *t, double c);

/* Whether the decided levels in fs, under the kept trellis's τ and at
 * their least-squares step and baseline, leave at most
 * NEIGHBOUR_FIT_NOISE times the noise's variance per sample unexplained
 * (the model holds: not music; see GRID_REPLAY in ir_seqdet.c). */
bool seqdet_fb_fits(const struct ir_seqdet *sd, const struct fb_sums *fs);

/* Once the sums fs hold FB_MIN_US of each level: the fits of every τ
 * hypothesis; the kept trellis may switch τ, takes the fit's step and
 * baseline, and decides again from the last decided block; its τ
 * neighbours may start beside it, and the costs may follow the fit's
 * noise. */
void seqdet_fb_update(struct ir_seqdet *sd, const struct fb_sums *fs);

/* The decided block j (level s) of the kept trellis t: the step or
 * baseline follows it, and the decided path's low-pass goes on. */
void seqdet_track(struct ir_seqdet *sd, struct trellis *t, uint64_t j, int s);

#endif
