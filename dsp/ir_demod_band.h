/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ir_demod_band.h - the band filter the line is decided on (ir_demod_band.c). */
#ifndef IRJACK_IR_DEMOD_BAND_H
#define IRJACK_IR_DEMOD_BAND_H

#include "ir_demod_state.h"

/* What follows from the band in use: its delay, the tracker's and the
 * settling's times. */
void demod_set_settle(struct ir_demod *d);
/* Once a step is known: the widest band on which it stands out. */
void demod_choose_band(struct ir_demod *d);
/* Decides on band 0 (the wide one), 1 (BAND_MID_US) or 2 (BAND_SLOW_US). */
void demod_set_band(struct ir_demod *d, int band);
/* How many time constants the band filter (two equal one-pole sections)
 * takes to reach `fraction` of a step. */
double demod_band_rise(double fraction);

#endif
