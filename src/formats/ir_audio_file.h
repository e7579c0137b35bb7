/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_audio_file.h - audio files as sources and sinks, through libsndfile:
 * WAV, FLAC, AIFF, raw... anything libsndfile reads, delivered as float
 * frames in [-1, 1] whatever the file's sample format.
 */
#ifndef IRJACK_IR_AUDIO_FILE_H
#define IRJACK_IR_AUDIO_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ir_audio_file;

struct ir_audio_info {
	unsigned sample_rate;
	unsigned channels;
	uint64_t frames;          /* length in frames (0 if unknown) */
	const char *format_name;  /* e.g. "WAV (Microsoft)", owned by libsndfile */
	const char *subtype_name; /* e.g. "Signed 16 bit PCM" */
};

/*
 * Opens `path` for reading ("-" is not accepted: libsndfile needs to seek).
 * Returns 0 and sets *out, -ENOENT/-EACCES/... when the file cannot be
 * opened, or -EMEDIUMTYPE when it is not audio libsndfile knows; `error`
 * (if not NULL, `error_size` bytes) then receives libsndfile's message.
 */
int ir_audio_file_open(const char *path, struct ir_audio_file **out, char *error,
		       size_t error_size);

/* True if `path` is audio libsndfile can read (used to tell WAV input from
 * timing files). */
int ir_audio_file_probe(const char *path);

/* True if `path` begins as an audio container does ("RIFF", "fLaC",
 * "OggS"...): one that libsndfile then refuses is a broken audio file, not
 * a timing file. */
bool ir_audio_file_has_magic(const char *path);

void ir_audio_file_info(const struct ir_audio_file *f, struct ir_audio_info *info);

/*
 * Reads up to `frames` interleaved frames (frames × channels floats) into
 * `buf`.  Returns the number of frames read (0 at the end) or -EIO.
 */
long ir_audio_file_read(struct ir_audio_file *f, float *buf, size_t frames);

void ir_audio_file_close(struct ir_audio_file *f);

/* ---- writing ---- */

struct ir_audio_writer;

enum ir_audio_sample_format {
	IR_AUDIO_PCM_16 = 0, /* default */
	IR_AUDIO_PCM_24,
	IR_AUDIO_PCM_32,
	IR_AUDIO_FLOAT,
	IR_AUDIO_PCM_U8,
};

/*
 * Creates `path` as a WAV file (or FLAC when the name ends in .flac) with
 * the given rate, channel count and sample format.  Returns 0 or a negative
 * errno (-EINVAL for a combination libsndfile refuses).
 */
int ir_audio_writer_open(const char *path, unsigned sample_rate, unsigned channels,
			 enum ir_audio_sample_format format, struct ir_audio_writer **out);

/* Writes `frames` interleaved float frames (clipped to [-1, 1] by the
 * integer formats).  Returns 0 or -EIO. */
int ir_audio_writer_write(struct ir_audio_writer *w, const float *buf, size_t frames);

/* Flushes and closes; returns 0 or -EIO.  Frees `w` in any case. */
int ir_audio_writer_close(struct ir_audio_writer *w);

#endif
