/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ir_demod_line.h - the full path (ir_demod_line.c). */
#ifndef IRJACK_IR_DEMOD_LINE_H
#define IRJACK_IR_DEMOD_LINE_H

#include "ir_demod_state.h"

#include <stdbool.h>
#include <stddef.h>

/* One sample on the full path. */
void demod_sample_full(struct ir_demod *d, float x);
/* The full path over up to n samples `stride` apart: the first, then
 * those before the line goes onto the idle path; returns how many it
 * took.  `raw`,
 * where not NULL, holds the input the samples were made of (envelope
 * hook: the carrier is measured on it), raw_stride apart. */
size_t demod_full_run(struct ir_demod *d, const float *samples, size_t n, size_t stride,
		      const float *raw, size_t raw_stride);
/* The sequence detector's callbacks (ir_seqdet.h; userdata: the
 * demodulator): a decided edge at t_us, everything decided up to t_us. */
void demod_seq_edge(void *userdata, double t_us, bool lit);
void demod_seq_horizon(void *userdata, double t_us);
/* The deadlines and timeouts that the time since the last edge triggers
 * (a space's deadline, the timeout, the stream's start proof, a pulse too
 * long to be one), at time now_us. */
void demod_line_timers_at(struct ir_demod *d, double now_us);

#endif
