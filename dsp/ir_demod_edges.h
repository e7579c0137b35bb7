/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ir_demod_edges.h - what the line reports (ir_demod_edges.c). */
#ifndef IRJACK_IR_DEMOD_EDGES_H
#define IRJACK_IR_DEMOD_EDGES_H

#include "ir_demod_state.h"

#include <stdbool.h>
#include <stdint.h>

/* The stream's first edges are told as they were held (flip false) or
 * with pulses and spaces swapped (the stream started inside a pulse). */
void demod_start_release(struct ir_demod *d, bool flip);
/* Tells one edge (or holds it while the stream's start is held). */
void demod_emit(struct ir_demod *d, enum ir_edge_kind kind, uint32_t duration);
/* The carrier measured over the activity that just ended, if any. */
void demod_emit_carrier(struct ir_demod *d);
/* Reports the state that ends at time t_us (µs since stream start) and
 * moves the last-edge mark there. */
void demod_close_state(struct ir_demod *d, double t_us);
/* The provisional first pulse is real: reports what was held back. */
void demod_release_held(struct ir_demod *d);
/* Nothing learnt of the line holds: idle, polarity (when automatic) and
 * step unknown, the wide band. */
void demod_forget_line(struct ir_demod *d);
/* The provisional first pulse was a disturbance: dark since the held
 * mark, and idle with nothing learnt from it. */
void demod_retract_held(struct ir_demod *d);
/* Moves the last-edge mark to t_edge without reporting the state it ends. */
void demod_mark_edge(struct ir_demod *d, double t_edge);
/* The stream's held first edges were the noise's: dropped, and the edge
 * under way is the first out of idle. */
void demod_start_retract(struct ir_demod *d);
/* See START_PROOF_US: the "pulse" under way is darkness, so the stream
 * started lit. */
void demod_start_flip(struct ir_demod *d);

/* The receiver's stretch (see STRETCH_MIN_RUNS): a run the line measured,
 * the end of an activity, and the line's own state closed at t_us with
 * the stretch told back. */
void demod_stretch_run(struct ir_demod *d, bool mark, double dur_us);
void demod_stretch_fold(struct ir_demod *d);
void demod_close_own(struct ir_demod *d, double t_us);

#endif
