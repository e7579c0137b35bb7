/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_tx_model.h - what the IR LEDs emit for a stereo headphone signal.
 *
 * Model: the voltage between the Left and Right tips (v = L - R, in units of
 * full scale times `volts_full_scale`) drives the LEDs through a series
 * resistor.  Each LED is a diode with an exponential law
 *   I = Is (exp(V / (n Vt)) - 1)
 * solved together with the resistor (I R + V = v) by Newton iteration.
 * Two anti-parallel LEDs: one conducts for v > 0, the other for v < 0; the
 * light is the sum of their currents (both face the receiver).  In
 * single-LED modes only v > 0 lights (wire the LED's anode to L).
 *
 * The DAC's reconstruction is modelled first: the samples are interpolated
 * with a windowed-sinc low-pass (an ideal DAC: cut at half the rate, 128
 * taps, Blackman) onto a grid `oversample` times finer.  The LEDs' law is
 * applied there, because the light's carrier (38 kHz from a 19 kHz sine)
 * lies above the card's Nyquist frequency: computed at the card's own rate
 * it would alias (to 6.1 kHz at 44.1 kHz, measured in test_synth).
 *
 * Not modelled: the headphone amplifier's output impedance and clipping.
 */
#ifndef IRJACK_IR_TX_MODEL_H
#define IRJACK_IR_TX_MODEL_H

#include <stddef.h>

struct ir_tx_model_config {
	double volts_full_scale; /* peak headphone voltage at 1.0; default 2.0 V (a headphone amplifier at full scale) */
	double resistor_ohm;     /* default 68 */
	double is_amp;           /* diode saturation current; default 1e-15 A */
	double n_vt;             /* ideality x thermal voltage; default 1.55 x 25.85 mV: with Is, Vf = 1.2 V at 10 mA, a GaAs IR LED */
	int anti_parallel;       /* 1: two LEDs L<->R; 0: one LED on L */
};

void ir_tx_model_config_default(struct ir_tx_model_config *cfg);

/* Oversampling factor that puts the light's grid at >= 384 kHz. */
unsigned ir_tx_model_oversample(unsigned sample_rate);

/*
 * Models the light for `frames` interleaved stereo frames of `stereo` at
 * `sample_rate`: DAC reconstruction onto a grid `oversample` times finer,
 * then the LED law.  *light (allocated, caller frees with free()) holds
 * frames x oversample LED currents in amperes.  Returns 0, -EINVAL
 * (oversample 0 or > 64), or -ENOMEM.
 */
int ir_tx_model_render(const struct ir_tx_model_config *cfg, const float *stereo, size_t frames,
		       unsigned oversample, float **light, size_t *light_frames);

/* Computes the LED current in amperes (proportional to the light) for each
 * of `frames` interleaved stereo frames of `stereo` into `light` (caller's
 * buffer of `frames` floats). */
void ir_tx_model_light(const struct ir_tx_model_config *cfg, const float *stereo, size_t frames,
		       float *light);

#endif
