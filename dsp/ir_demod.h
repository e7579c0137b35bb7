/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_demod.h - audio samples to IR edges.
 *
 * What arrives at a microphone input from an IR receiver is a two-level
 * signal (receiver module) or a carrier burst train (bare photodiode), in
 * either polarity, AC-coupled so that long pulses droop or even cross zero,
 * band-limited, noisy, with hum, DC offset and clipping.  The demodulator
 * finds the edges of that signal, not its levels:
 *
 *  - at rates that hold a photodiode's carrier (>= 66 kHz), once one is
 *    seen the carrier's own energy is added to the light's mean before
 *    anything else (ir_envelope.h); a receiver module's samples pass
 *    untouched;
 *  - a band-limiting filter removes a photodiode's carrier and noise above
 *    what IR timings need (its width follows the measured noise floor);
 *  - the level of the current state is tracked with a model of the AC
 *    coupling's droop (decay towards the idle baseline at a learned rate);
 *  - an edge is a departure from that track, in the only direction the next
 *    edge can go, larger than both a multiple of the noise floor and a
 *    fraction of the step height seen on earlier edges (hysteresis), that
 *    persists (glitch rejection);
 *  - its time is where the signal crossed halfway between the old and the
 *    new level, interpolated between samples;
 *  - polarity: the first edge after idle starts a pulse (a receiver idles in
 *    its dark state, and AC coupling brings any input back to its idle
 *    baseline), unless the configuration fixes it;
 *  - a stream's start: its first 1.5 ms are held while the noise floor is
 *    measured on them with medians (an edge among them cannot move it), then
 *    processed, so a first pulse that starts at once is kept; edges that
 *    start within 12 ms of the stream's start are held until a state lasts
 *    12 ms (longer than any protocol's pulse: darkness), and told with
 *    pulses and spaces swapped if that state was a "pulse" (the recording
 *    began inside a pulse); an edge four times theirs drops them as noise;
 *  - after `timeout_us` of darkness an IR_TIMEOUT edge lets decoders finish,
 *    preceded by an IR_CARRIER edge when the rate (≥ 66 kHz) showed a
 *    carrier in the bursts (see ir_carrier.h).
 *
 * Processing is per sample with all state in the struct: any block size
 * gives the same edges.  No allocation or locking after ir_demod_new().
 */
#ifndef IRJACK_IR_DEMOD_H
#define IRJACK_IR_DEMOD_H

#include <stddef.h>
#include <stdint.h>

#include "ir_edge.h"

struct ir_demod;

enum ir_polarity {
	IR_POLARITY_AUTO = 0,
	IR_POLARITY_PULSE_HIGH = 1, /* light makes the signal go up */
	IR_POLARITY_PULSE_LOW = -1, /* light makes it go down (TSOP, active low) */
};

struct ir_demod_config {
	unsigned sample_rate;      /* 4000 .. 1000000 */
	enum ir_polarity polarity; /* default auto */
	uint32_t timeout_us;       /* darkness before IR_TIMEOUT; 0 = 125000 */
};

/* Called for every edge, synchronously from ir_demod_process(). */
typedef void (*ir_demod_edge_fn)(void *userdata, const struct ir_edge *edge);
/* Called when the space after the last pulse reaches the deadline set with
 * ir_demod_set_space_deadline(): `elapsed_us` of darkness so far. */
typedef void (*ir_demod_space_fn)(void *userdata, uint32_t elapsed_us);

/* Returns 0 and sets *out, -EINVAL for a bad configuration, or -ENOMEM. */
int ir_demod_new(const struct ir_demod_config *cfg, ir_demod_edge_fn edge_fn,
		 ir_demod_space_fn space_fn, void *userdata, struct ir_demod **out);
void ir_demod_free(struct ir_demod *d);

/*
 * Processes `frames` samples taken from `samples` every `stride` floats
 * (stride = channel count to read one channel of interleaved audio).
 */
void ir_demod_process(struct ir_demod *d, const float *samples, size_t frames, size_t stride);

/*
 * Processes interleaved audio of `channels` channels, one demodulator per
 * channel (NULL entries are skipped), sample by sample across channels, so
 * that the callbacks of all channels come in time order whatever the block
 * size.
 */
void ir_demod_process_interleaved(struct ir_demod *const *demods, unsigned channels,
				  const float *samples, size_t frames);

/*
 * Asks for a ir_demod_space_fn call once the current space (which must
 * follow a pulse) has lasted `us`; 0 cancels.  Call it from the edge
 * callback, after feeding the decoder, with ir_decoder_space_deadline().
 */
void ir_demod_set_space_deadline(struct ir_demod *d, uint32_t us);

/* End of input: reports the edge in progress and a timeout. */
void ir_demod_flush(struct ir_demod *d);

/* Forgets the signal's state (after an audio dropout): the next edge is
 * read as the first after idle.  Reports IR_OVERFLOW to the edge callback. */
void ir_demod_reset(struct ir_demod *d);

/* What the demodulator has learned about the signal, for monitoring. */
struct ir_signal_report {
	double step;        /* height of the last edges, full scale = 1 */
	double noise;       /* noise floor (standard deviation) in the detection band */
	double snr_db;      /* 20·log10(step / (2·noise)); 0 when unknown */
	double peak;        /* largest |sample| since the last report */
	double clipped;     /* fraction of samples at full scale since the last report */
	enum ir_polarity polarity; /* learned (or configured) polarity; AUTO = not yet */
	double band_us;     /* current time constant of the band-limiting filter */
	double carrier_hz;  /* last measured carrier (0: none, or rate below 66 kHz) */
	double duty_cycle;  /* its duty cycle in percent (0: unknown) */
	uint64_t edges;     /* edges reported so far */
	uint64_t samples;   /* samples processed so far */
};

/* Fills `r`; peak and clipped restart from this call. */
void ir_demod_report(struct ir_demod *d, struct ir_signal_report *r);

#endif
