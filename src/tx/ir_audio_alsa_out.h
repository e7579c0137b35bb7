/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_audio_alsa_out.h - playback sink on alsa-lib for transmitting: plays
 * interleaved stereo float frames on any PCM name ("default", "hw:1",
 * "irsink:OUT=/abs/file.raw"), with blocking writes of one period at a time.
 *
 * Format: FLOAT_LE if the PCM takes it, else S16_LE (converted here, with
 * clipping); always 2 channels; the rate must be accepted exactly (a send at
 * a resampled rate would move the carrier).  Underruns (-EPIPE) and
 * suspends (-ESTRPIPE) are recovered with snd_pcm_recover() and counted.
 */
#ifndef IRJACK_IR_AUDIO_ALSA_OUT_H
#define IRJACK_IR_AUDIO_ALSA_OUT_H

#include <stddef.h>

struct ir_alsa_out;

/* Opens `pcm_name` for playback at `rate` Hz, 2 channels.  Returns 0 and
 * *out (free with ir_alsa_out_free()), or a negative errno from alsa-lib
 * (-ENOENT: no such PCM; -EINVAL: rate or channels not accepted exactly). */
int ir_alsa_out_new(const char *pcm_name, unsigned rate, struct ir_alsa_out **out);

/* Writes `frames` interleaved stereo frames (blocking).  Returns 0 or a
 * negative errno when recovery failed. */
int ir_alsa_out_write(struct ir_alsa_out *o, const float *stereo, size_t frames);

/* Blocks until everything written has been played (snd_pcm_drain), so the
 * caller's send ends when the light does.  Returns 0 or a negative errno. */
int ir_alsa_out_drain(struct ir_alsa_out *o);

/* The period the PCM granted, in frames: the granularity of a send's end
 * (drain returns within about one period of the last sample's playing). */
size_t ir_alsa_out_period(const struct ir_alsa_out *o);

/* "FLOAT_LE" or "S16_LE": the sample format the PCM took (static string). */
const char *ir_alsa_out_format(const struct ir_alsa_out *o);

/* Underruns recovered so far. */
unsigned ir_alsa_out_xruns(const struct ir_alsa_out *o);

/* Closes the PCM (without draining). NULL is allowed. */
void ir_alsa_out_free(struct ir_alsa_out *o);

#endif
