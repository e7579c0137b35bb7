/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_seqdet_trellis.h - one block through one of the sequence detector's
 * run-length trellises (private to dsp/ir_seqdet*.c; the trellis and the
 * detector are in ir_seqdet_state.h).  Neither function allocates: they
 * write the trellis they are given, and read the detector.
 */
#ifndef IRJACK_IR_SEQDET_TRELLIS_H
#define IRJACK_IR_SEQDET_TRELLIS_H

#include "ir_seqdet_state.h"

/* Trellis t set to the coupling rate w (per sample): its per-sample
 * weights w^(i+1) over a block and their sums. */
void seqdet_trellis_set_w(const struct ir_seqdet *sd, struct trellis *t, double w);

/* Block j (since the frame's block 0) through trellis t: s1 = Σ u_i
 * w^(i+1) over the block's restored samples u; the survivors' choices go
 * into t->bits[j % RING]. */
void seqdet_trellis_block(const struct ir_seqdet *sd, struct trellis *t, double s1, uint64_t j);

#endif
