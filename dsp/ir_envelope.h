/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_envelope.h - a carrier-energy front-end for a bare photodiode sampled
 * at a rate that holds its carrier (>= 66 kHz: 30-56 kHz carriers below
 * Nyquist).
 *
 * A photodiode's light is a pulse train at the carrier (duty D, peak A)
 * during bursts.  Its mean, A·D, is all a low-pass (the demodulator's band
 * filters) keeps: at D = 1/3 that is 0.111 A² of the 0.263 A² per sample
 * that the mean and the fundamental together carry below 48 kHz, 3.7 dB
 * thrown away.  This front-end adds the fundamental back: each of a small
 * bank of quadrature mixers (30-56 kHz, the common carriers) takes the
 * input to baseband and low-passes it to about one protocol unit's width;
 * its magnitude M is a receiver-like envelope of the carrier (once a
 * mixer is in use, M is its I/Q projected onto the carrier's phase, which
 * a slow average of that I/Q knows within a burst: a coherent detector,
 * see ENV_COHERENT_US in ir_envelope.c).  The sample
 * the demodulator sees is then
 *
 *     x' + s · W · (M - mean M)
 *
 * where x' is the input delayed by the magnitude's half-rise (84 µs: both
 * halves of an edge at the same time; edges come out that much later)
 * and W (ENV_WEIGHT, 2.2) near the weight that maximal-ratio combining
 * gives the fundamental beside the mean (2 sin(πD) / (πD) = 1.65 at
 * D = 1/3; more for a magnitude, see ir_envelope.c) and s the light's sign
 * on the input (a photodiode may be wired either way); the input's part
 * above the mixers' band is scaled so the output's noise stays white.
 *
 * A receiver module's line carries no carrier, so nothing is added until a
 * carrier is seen: every few samples the correlation of each mixer's M with
 * the low-passed input is updated (over ~100 ms, and over one frame's
 * 25 ms for the first lock, which the idle time between presses would
 * otherwise dilute); when one mixer's correlation magnitude passes
 * ENV_RHO_ON (the frame's: ENV_RHO_FRAME_ON) the input is taken as a
 * photodiode's, that mixer and the correlation's sign are used (until a
 * reset, or until another mixer correlates clearly better).  Before that
 * the output is the input, bit for bit: receiver modules are untouched.
 *
 * Memory is allocated at creation; processing never allocates.
 */
#ifndef IRJACK_IR_ENVELOPE_H
#define IRJACK_IR_ENVELOPE_H

#include <stdbool.h>
#include <stddef.h>

struct ir_envelope;

/* Creates a front-end for `sample_rate` Hz.  Returns 0 and sets *out,
 * -EINVAL below 66 kHz (no carrier below Nyquist) or above 1 MHz, or
 * -ENOMEM.  The caller owns *out and frees it with ir_envelope_free(). */
int ir_envelope_new(unsigned sample_rate, struct ir_envelope **out);
void ir_envelope_free(struct ir_envelope *e);

/* Takes one input sample; returns the sample to demodulate (the input
 * itself until a carrier has been found; from then on the input 84 µs
 * late plus the envelope, see above). */
float ir_envelope_sample(struct ir_envelope *e, float x);

/* ir_envelope_sample() over n samples `stride` apart (0 = 1) into out[0..n)
 * (caller's memory; in and out may not overlap unless stride is 1 and they
 * are the same). */
void ir_envelope_process(struct ir_envelope *e, const float *in, size_t n, size_t stride,
			 float *out);

/* Whether a carrier has been found (the output differs from the input),
 * and at which mixer's frequency (Hz; may be NULL). */
bool ir_envelope_active(const struct ir_envelope *e, double *hz);

/* Forgets the carrier and the statistics (a new stream). */
void ir_envelope_reset(struct ir_envelope *e);

#endif
