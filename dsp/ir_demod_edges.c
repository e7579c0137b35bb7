/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ir_demod_edges.c - what the line reports, and what it holds back first
 * (see ir_demod_state.h). */
#include "ir_demod_edges.h"

#include "ir_demod_band.h"
#include "ir_carrier.h"

#include <math.h>

/* The stream's first edges are told as they were held (flip false) or
 * with pulses and spaces swapped (the stream started inside a pulse). */
void demod_start_release(struct ir_demod *d, bool flip)
{
	d->start_open = false;
	for (unsigned i = 0; i < d->start_len; i++) {
		struct ir_edge e = d->start_buf[i];

		if (flip && e.kind == IR_PULSE)
			e.kind = IR_SPACE;
		else if (flip && e.kind == IR_SPACE)
			e.kind = IR_PULSE;
		d->edge_fn(d->userdata, &e);
	}
	d->start_len = 0;
}

void demod_emit(struct ir_demod *d, enum ir_edge_kind kind, uint32_t duration)
{
	struct ir_edge e = { .duration = duration, .kind = (uint8_t)kind };

	if ((kind == IR_PULSE || kind == IR_SPACE) && duration == 0)
		return;
	d->edges++;
	if (d->start_open) {
		if (d->start_len < START_HOLD_MAX) {
			/* merged as they will be told: a flip keeps them apart */
			d->start_buf[d->start_len++] = e;
			return;
		}
		demod_start_release(d, false);
	}
	d->edge_fn(d->userdata, &e);
}

/* The carrier measured over the activity that just ended, if any. */
void demod_emit_carrier(struct ir_demod *d)
{
	double hz, duty;

	if (!d->carrier || !ir_carrier_estimate(d->carrier, &hz, &duty))
		return;
	d->carrier_hz = hz;
	d->carrier_duty = duty;
	ir_carrier_reset(d->carrier);
	d->edges++;
	d->edge_fn(d->userdata, &(struct ir_edge){ .duration = (uint32_t)lround(hz),
						   .kind = IR_CARRIER,
						   .duty_cycle = (uint8_t)lround(duty) });
}

/* Reports the state that ends at time `t_us` (µs since stream start) and
 * moves the last-edge mark there. */
void demod_close_state(struct ir_demod *d, double t_us)
{
	uint64_t rounded = (uint64_t)llround(t_us);
	uint64_t dur = rounded > d->last_edge_rounded ? rounded - d->last_edge_rounded : 0;

	if (d->state == LINE_SPACE && d->timed_out)
		dur = dur > d->cfg.timeout_us ? dur - d->cfg.timeout_us : 0;
	while (dur > 0) {
		uint32_t chunk = dur > IR_DURATION_MAX ? IR_DURATION_MAX : (uint32_t)dur;

		demod_emit(d, d->state == LINE_PULSE ? IR_PULSE : IR_SPACE, chunk);
		dur -= chunk;
	}
	d->last_edge_us = t_us;
	d->last_edge_rounded = rounded;
	d->have_edge = true;
}

static void emit_span(struct ir_demod *d, enum ir_edge_kind kind, uint64_t from, uint64_t to)
{
	uint64_t dur = to > from ? to - from : 0;

	while (dur > 0) {
		uint32_t chunk = dur > IR_DURATION_MAX ? IR_DURATION_MAX : (uint32_t)dur;

		demod_emit(d, kind, chunk);
		dur -= chunk;
	}
}

/* The provisional first pulse is real: reports what was held back. */
void demod_release_held(struct ir_demod *d)
{
	uint64_t from = d->held_from_rounded, pulse = (uint64_t)llround(d->held_pulse_us);

	if (d->held_timed_out)
		from += d->cfg.timeout_us;
	emit_span(d, IR_SPACE, from, pulse);
	if (d->held_ended)
		emit_span(d, IR_PULSE, pulse, (uint64_t)llround(d->held_end_us));
	d->held = false;
	d->have_edge = true;
}

/* Nothing learnt of the line holds: it is idle, its polarity (when
 * automatic) and step unknown, and the band is the wide one (a narrow band
 * is chosen for a step's height, see demod_choose_band). */
void demod_forget_line(struct ir_demod *d)
{
	d->idle = true;
	if (d->cfg.polarity == IR_POLARITY_AUTO)
		d->pol = 0;
	d->step = 0;
	d->step_known = false;
	demod_set_band(d, 0);
}

/* The provisional first pulse was a disturbance: the line has been dark
 * since the held mark, and is idle with nothing learnt from it. */
void demod_retract_held(struct ir_demod *d)
{
	d->held = false;
	d->start_edges = 0;
	d->state = LINE_SPACE;
	d->last_edge_us = d->held_from_us;
	d->last_edge_rounded = d->held_from_rounded;
	d->timed_out = d->held_timed_out;
	d->have_edge = d->held_have_edge;
	if (d->carrier)
		ir_carrier_burst_discard(d->carrier);
	demod_forget_line(d);
}

/* Moves the last-edge mark to t_edge without reporting the state it ends
 * (held back). */
void demod_mark_edge(struct ir_demod *d, double t_edge)
{
	d->last_edge_us = t_edge;
	d->last_edge_rounded = (uint64_t)llround(t_edge);
}

/* While the stream's first edges are held, an edge far bigger than theirs
 * (RETRACT_RATIO, as for the provisional first pulse) shows that they were
 * the noise's: they are dropped, and this edge is the first out of idle. */
void demod_start_retract(struct ir_demod *d)
{
	d->start_len = 0;
	d->start_edges = 0;
	d->state = LINE_SPACE;
	d->timed_out = false;
	d->have_edge = false;
	d->last_edge_us = 0;
	d->last_edge_rounded = 0;
	if (d->carrier)
		ir_carrier_burst_discard(d->carrier);
	demod_forget_line(d);
}

/* See START_PROOF_US: the "pulse" under way is darkness, so the stream
 * started lit. */
void demod_start_flip(struct ir_demod *d)
{
	if (d->held)
		demod_release_held(d);
	if (d->carrier)
		ir_carrier_burst_discard(d->carrier);
	d->state = LINE_SPACE;
	d->pol = -d->pol;
	demod_start_release(d, true);
}

/* A run the line measured itself (not a decision of the sequence
 * detector's, whose grids fit the stretch on their own). */
void demod_stretch_run(struct ir_demod *d, bool mark, double dur_us)
{
	if (dur_us < STRETCH_RUN_MIN_US)
		return;
	if (mark) {
		if (!d->run_np++ || dur_us < d->run_pmin)
			d->run_pmin = dur_us;
	} else if (!d->run_ns++ || dur_us < d->run_smin) {
		d->run_smin = dur_us;
	}
}

/* The activity ended: what it measured, if anything, and the activity
 * before it set the stretch told back from the next activity on (the
 * smaller of the two, see STRETCH_MIN_RUNS). */
void demod_stretch_fold(struct ir_demod *d)
{
	if (d->run_np >= STRETCH_MIN_RUNS && d->run_ns >= STRETCH_MIN_RUNS) {
		double s = 0.5 * (d->run_pmin - d->run_smin);

		if (s <= STRETCH_MAX_US) {
			s = s < STRETCH_MIN_US ? 0 : s;
			d->stretch_us = s < d->stretch_last_us ? s : d->stretch_last_us;
			d->stretch_last_us = s;
		}
	}
	d->run_np = d->run_ns = 0;
}

/* Closes the line's own state at t_us, a mark told back by the stretch
 * (its end earlier, the space after it longer by as much): only the
 * report moves, not the line's own time. */
void demod_close_own(struct ir_demod *d, double t_us)
{
	bool mark = d->state == LINE_PULSE;
	double told = t_us;

	demod_stretch_run(d, mark, t_us - d->last_edge_us);
	if (mark && d->stretch_us > 0) {
		/* (never below half of what was measured: a mark that short
		 * was not stretched by this much) */
		double floor_us = d->last_edge_us + 0.5 * (t_us - d->last_edge_us);

		told = t_us - d->stretch_us > floor_us ? t_us - d->stretch_us : floor_us;
	}
	demod_close_state(d, told);
	d->last_edge_us = t_us;
}
