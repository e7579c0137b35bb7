/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_synth.h - IR carrier synthesis for transmitting through a sound card's
 * headphone output, from pulse/space timings (struct ir_edge).
 *
 * Output is always interleaved stereo float (L, R) in [-1, 1].  Modes:
 *
 *   IR_SYNTH_HALF_CARRIER_STEREO  LIRC's audio transmitter wiring: two IR
 *       LEDs anti-parallel between the Left and Right tips.  L plays a sine
 *       at carrier/2, R its inverse; each LED conducts on one half-wave, so
 *       light pulses come at the full carrier (19 kHz sine -> 38 kHz light),
 *       which fits a 44.1/48 kHz card.  Default below 96 kHz.
 *   IR_SYNTH_FULL_CARRIER  one LED (L to ground; R carries the same signal),
 *       the carrier itself as a pulse train of the given duty cycle,
 *       band-limited to its harmonics below 0.45 x rate (at 96 kHz and a
 *       38 kHz carrier that is the fundamental only: the duty then acts
 *       through where the LED's threshold cuts the wave).  Needs a rate of
 *       at least 2.2x the carrier (96/192 kHz cards).
 *   IR_SYNTH_SUBHARMONIC  a sine at carrier/k (k odd, default 3): the LED's
 *       exponential law makes the k-th harmonic at the carrier.  Much
 *       weaker than the other modes; for carriers above what the rate
 *       allows.
 *
 * Timing: the edge boundaries are placed at round(t * rate / 1e6) where t
 * is the cumulative time in µs from the start of the frame, computed in
 * integers, so no error accumulates: every boundary is within half a sample
 * of its exact time however long the frame.  The carrier phase starts at
 * the first sample of each burst and is computed from the sample index in
 * the burst (not accumulated), so it is continuous within a burst.
 *
 * Streaming: ir_synth_generate() fills blocks of any size; the output does
 * not depend on the block size.  No allocation after ir_synth_new().
 */
#ifndef IRJACK_IR_SYNTH_H
#define IRJACK_IR_SYNTH_H

#include <stddef.h>
#include <stdint.h>

#include "ir_edge.h"

enum ir_synth_mode {
	IR_SYNTH_AUTO = 0,             /* half-carrier-stereo below 96 kHz, else full-carrier */
	IR_SYNTH_HALF_CARRIER_STEREO,
	IR_SYNTH_FULL_CARRIER,
	IR_SYNTH_SUBHARMONIC,
};

struct ir_synth_config {
	unsigned sample_rate;    /* Hz, 8000..768000 */
	enum ir_synth_mode mode;
	double carrier_hz;       /* light carrier, e.g. the protocol's carrier_hz */
	unsigned duty_pct;       /* full-carrier square duty, 1..99; 0 = 33 */
	unsigned subharmonic;    /* odd divisor for IR_SYNTH_SUBHARMONIC; 0 = 3 */
	float amplitude;         /* peak, 0..1 */
	double ramp_us;          /* raised-cosine rise/fall of each burst; 0 = hard edges */
	uint32_t lead_us;        /* silence before the first edge */
	uint32_t trail_us;       /* silence after the last edge */
};

struct ir_synth;

/* Defaults: 48 kHz, auto mode, 38 kHz, 33 %, amplitude 0.8, no ramp, no
 * lead or trail. */
void ir_synth_config_default(struct ir_synth_config *cfg);

/* The mode `cfg` resolves to (IR_SYNTH_AUTO resolved by rate). */
enum ir_synth_mode ir_synth_resolve_mode(const struct ir_synth_config *cfg);

/* Parses "half-carrier-stereo", "full-carrier", "subharmonic", "auto".
 * Returns 0 or -EINVAL. */
int ir_synth_mode_from_name(const char *name, enum ir_synth_mode *out);
const char *ir_synth_mode_name(enum ir_synth_mode mode);

/*
 * Creates a synthesizer for the pulses and spaces of `edges` (a leading
 * space adds to the lead; other kinds are ignored).  The edges are copied.
 * Returns 0 and *out (free with ir_synth_free()); -EINVAL for a bad
 * configuration, or a carrier the mode cannot produce at this rate (the
 * light carrier must stay below 0.45 x rate in full-carrier mode, the
 * synthesized tone below 0.45 x rate in the others); -ENOMEM.
 */
int ir_synth_new(const struct ir_synth_config *cfg, const struct ir_edge *edges, size_t n,
		 struct ir_synth **out);
void ir_synth_free(struct ir_synth *s);

/* Total length of the output in frames (lead + edges + trail). */
uint64_t ir_synth_total_frames(const struct ir_synth *s);

/* Writes up to `max_frames` stereo frames (2 floats each) into `out`;
 * returns the number written, 0 once everything has been generated. */
size_t ir_synth_generate(struct ir_synth *s, float *out, size_t max_frames);

/* Starts again from the first frame. */
void ir_synth_rewind(struct ir_synth *s);

#endif
