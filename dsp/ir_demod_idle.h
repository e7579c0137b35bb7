/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ir_demod_idle.h - the idle path (ir_demod_idle.c). */
#ifndef IRJACK_IR_DEMOD_IDLE_H
#define IRJACK_IR_DEMOD_IDLE_H

#include "ir_demod_state.h"

#include <stdbool.h>
#include <stddef.h>

/* The line goes onto the idle path (its level from the full path's). */
void demod_idle_enter(struct ir_demod *d);
/* ...and off it, before a sample the full path takes. */
void demod_idle_leave(struct ir_demod *d);
/* One sample of a line on the idle path (d->idle_fast): false (nothing
 * done) when it departs. */
bool demod_idle_step(struct ir_demod *d, float x);
/* The idle path over up to n samples `stride` apart; stops before the
 * first that departs and returns how many it took. */
size_t demod_idle_run(struct ir_demod *d, const float *samples, size_t n, size_t stride);
/* The weak trigger's level from the weak band's noise variance noise2
 * (measured on the idle path, or at the warm-up). */
void demod_weak_set_noise(struct ir_demod *d, double noise2);
/* The stream's first edges are held (START_PROOF_US): its start is the
 * wide band's. */
bool demod_weak_start_held(const struct ir_demod *d);

#endif
