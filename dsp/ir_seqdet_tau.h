/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_seqdet_tau.h - the AC coupling's τ hypotheses of the sequence
 * detector (ir_seqdet.h), for it and for a caller that fits the same
 * couplings (the weak start's first-pulse fit, ir_demod_weak.c).  The
 * list is defined in ir_seqdet_trellis.c, constant: nothing to free.
 */
#ifndef IRJACK_IR_SEQDET_TAU_H
#define IRJACK_IR_SEQDET_TAU_H

#include <math.h>

/* The τ hypotheses the detector runs side by side, in µs (0: DC
 * coupled), longest first. */
#define IR_SEQDET_N_TAU 9
extern const double ir_seqdet_tau_us[IR_SEQDET_N_TAU];

/* What hypothesis h's coupling leaves of a level after one sample of
 * us µs: e^(-us/τ) (1 for DC). */
static inline double ir_seqdet_tau_decay(unsigned h, double us)
{
	return ir_seqdet_tau_us[h] > 0 ? exp(-us / ir_seqdet_tau_us[h]) : 1;
}

#endif
