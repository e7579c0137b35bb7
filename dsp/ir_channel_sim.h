/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_channel_sim.h - what reaches a sound card's microphone input when an IR
 * receiver is wired to it: a model used by tests, benchmarks and
 * `irjack synth`.  Timings in, float samples out.
 *
 * The light is modelled exactly, as the times it switches on and off (every
 * carrier pulse for a photodiode), and the sound card's anti-alias filter is
 * applied to it in continuous time (each switch contributes the filter's
 * step response), so edges and carrier exist before band-limiting, as in
 * hardware, at no oversampling cost:
 *
 *   TSOP-style receiver module: output high while dark, low during a burst
 *     (active low; `invert` wires it the other way round), its pulses
 *     optionally stretched as real modules do;
 *   bare photodiode: the photocurrent, a unipolar pulse train at the carrier
 *     frequency and duty cycle during bursts (`invert` flips its sign);
 *   → the card's anti-alias filter (linear-phase Blackman-windowed sinc at
 *     0.45 × rate over ±8 samples, which rings on edges like real
 *     converters) and sampling; or, with `codec_filter`, the steep
 *     decimation filter of a sigma-delta codec (what most cards have:
 *     passband to 0.4535 × rate, stopband from 0.5465 × rate, ≈ 100 dB,
 *     a Kaiser-windowed sinc over ±40 samples), which leaves of a 36-40 kHz
 *     carrier sampled at 44.1/48 kHz only its mean (the envelope × duty
 *     cycle) and aliases ≈ 100 dB down.  Applied to the exact light, it is
 *     rendering at an unbounded internal rate, filtering, then decimating
 *   → the card's AC coupling (one-pole high-pass, time constant ac_tau_ms;
 *     linear, so its place before or after the filter makes no difference)
 *   → mains hum (fundamental plus 3rd harmonic), white noise, DC offset,
 *     clipping.
 *
 * SNR is defined on amplitude: a signal whose steps are A peak to peak has
 * SNR = 20·log10(A / (2σ)) against white noise of standard deviation σ in the
 * sampled bandwidth (a ±A/2 square wave has power A²/4).
 */
#ifndef IRJACK_IR_CHANNEL_SIM_H
#define IRJACK_IR_CHANNEL_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir_edge.h"

enum ir_frontend {
	IR_FRONTEND_TSOP = 0,
	IR_FRONTEND_PHOTODIODE,
};

struct ir_channel_config {
	unsigned sample_rate;  /* output rate, 8000 .. 192000 */
	enum ir_frontend frontend;
	double amplitude;      /* step height A (full scale = 1); default 0.5 */
	double ac_tau_ms;      /* AC coupling time constant; 0 = DC coupled */
	double snr_db;         /* noise; >= 200 means none */
	double hum_hz;         /* 0 = none; usually 50 or 60 */
	double hum_level;      /* hum amplitude relative to A */
	double dc_offset;      /* added after sampling, full scale = 1 */
	double clip_drive;     /* > 1: gain before hard clipping at ±1 (0 or 1: no clipping) */
	bool invert;
	bool no_aa_filter;     /* sample without the anti-alias filter (aliases everything) */
	bool codec_filter;     /* a codec's steep decimation filter, not the short one */
	double jitter_us;      /* each duration ± uniform jitter */
	double stretch_us;     /* receiver lengthens every pulse by this (spaces shrink) */
	unsigned carrier_hz;   /* photodiode: default 38000 */
	unsigned duty_cycle;   /* photodiode: percent, default 33 */
	double lead_ms;        /* silence before the first edge; default 20 */
	double tail_ms;        /* silence after the last edge; default 150 */
	uint64_t seed;         /* noise and jitter; the same seed gives the same samples */
};

/* Fills `cfg` with the defaults: 48 kHz, TSOP, A = 0.5, no noise, DC
 * coupled, anti-alias filter on, 38 kHz 33 %, lead 20 ms, tail 150 ms. */
void ir_channel_config_default(struct ir_channel_config *cfg);

/*
 * Renders the pulses and spaces of `edges` (other kinds are ignored; a
 * leading space adds to the lead-in) as mono float samples.  *samples is
 * allocated (caller frees with free()), *frames is its length.  Returns 0,
 * -EINVAL for an unusable configuration, -EFBIG for a signal longer than
 * IR_SIGNAL_MAX_US (lead and tail included), or -ENOMEM.
 */
int ir_channel_render(const struct ir_channel_config *cfg, const struct ir_edge *edges, size_t n,
		      float **samples, size_t *frames);

#endif
