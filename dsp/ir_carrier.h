/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_carrier.h - the carrier frequency and duty cycle of IR bursts, from the
 * samples of a bare photodiode (or any input that carries the carrier) at a
 * sample rate of at least 2.2 times the carrier.
 *
 * Feed the samples of each burst (the demodulator knows where they are);
 * each burst long enough is windowed (Hann), zero-padded and transformed
 * with FFTW; the strongest peak between 20 and 60 kHz (or half the rate) is
 * located to a fraction of a bin by parabolic interpolation of the log
 * spectrum.  A peak must stand 13 dB above the band's mean power and be as
 * large as the envelope, or the burst carries no carrier (a receiver
 * module's envelope, an alias).  Up to 8 bursts per key press are
 * averaged, weighted by their length.  The duty cycle comes from the ratio
 * of the second harmonic to the first (a rectangular pulse train of duty D
 * has a2/a1 = cos(πD)), where the rate passes the second harmonic.
 *
 * Memory is allocated once, at creation; feeding never allocates.
 */
#ifndef IRJACK_IR_CARRIER_H
#define IRJACK_IR_CARRIER_H

#include <stddef.h>

struct ir_carrier;

/* Returns 0 and sets *out, -EINVAL if the rate cannot carry a 30 kHz
 * carrier (below 66 kHz), or -ENOMEM. */
int ir_carrier_new(unsigned sample_rate, struct ir_carrier **out);
void ir_carrier_free(struct ir_carrier *c);

/* Appends samples of the burst in progress (at most the analysis length,
 * about 21 ms, is kept). */
void ir_carrier_burst_samples(struct ir_carrier *c, const float *samples, size_t n,
			      size_t stride);

/* The burst ended: analyse it.  `step` is the envelope's height, as the
 * demodulator measured it: a carrier's fundamental must be comparable. */
void ir_carrier_burst_end(struct ir_carrier *c, double step);

/* The burst in progress was not one (see the demodulator's provisional
 * first pulse): its samples are dropped unanalysed. */
void ir_carrier_burst_discard(struct ir_carrier *c);

/*
 * The estimate over the bursts analysed since the last reset: returns 1 and
 * fills hz and duty_percent (0 when the rate cannot show it), or 0 if no
 * burst showed a carrier.
 */
int ir_carrier_estimate(const struct ir_carrier *c, double *hz, double *duty_percent);

/* Starts a new average (at the end of a key press). */
void ir_carrier_reset(struct ir_carrier *c);

#endif
