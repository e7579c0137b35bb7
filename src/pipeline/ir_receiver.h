/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_receiver.h - one audio source from samples to decoded frames: a
 * demodulator and a decoder set per channel, wired so that decoders finish
 * frames as soon as the silence after them is decisive.
 *
 * With several channels in "auto" mode every channel is demodulated and
 * decoded on its own (a receiver may be wired to either side, or to both in
 * opposite polarity); a frame that another channel already reported, within
 * a few milliseconds, is reported once.  Sample-interleaved processing keeps
 * the output the same whatever the block size.
 */
#ifndef IRJACK_IR_RECEIVER_H
#define IRJACK_IR_RECEIVER_H

#include <stdint.h>

#include "ir_decoder.h"
#include "ir_demod.h"

#define IR_RECEIVER_MAX_CHANNELS 8
#define IR_RECEIVER_CHANNEL_AUTO (-1)

struct ir_receiver_config {
	unsigned sample_rate;
	unsigned channels;          /* interleaved channels in the input, 1..8 */
	int channel;                /* 0-based channel to use, or IR_RECEIVER_CHANNEL_AUTO */
	enum ir_polarity polarity;  /* default auto */
	uint32_t timeout_us;        /* 0: the demodulator's default */
	const struct ir_protocol_set *protocols; /* NULL: all */
	/* Optional: the decoders its remotes need (lircd.conf remotes,
	 * rc_keymaps' pulse_distance...) run on every channel too.  Not
	 * copied: it must outlive the receiver. */
	const struct ir_keymap *keymap;
	/* Optional: every channel's decoder reports the trains no protocol
	 * took, with the families' reasons (ir_decoder_set_why()). */
	ir_why_fn why;
	void *why_userdata;
};

/* Optional: every edge of every demodulated channel. */
typedef void (*ir_receiver_edge_fn)(void *userdata, unsigned channel, const struct ir_edge *edge);

struct ir_receiver;
struct ir_keymap;

/* Returns 0 and sets *out, -EINVAL for a bad configuration, or -ENOMEM.
 * `frame_fn` receives each frame once (times in source time). */
int ir_receiver_new(const struct ir_receiver_config *cfg, ir_frame_fn frame_fn, void *userdata,
		    struct ir_receiver **out);
void ir_receiver_free(struct ir_receiver *rx);

void ir_receiver_set_edge_fn(struct ir_receiver *rx, ir_receiver_edge_fn fn, void *userdata);

/* Feeds `frames` interleaved frames. */
void ir_receiver_process(struct ir_receiver *rx, const float *samples, size_t frames);

/* End of input: finishes pending frames. */
void ir_receiver_flush(struct ir_receiver *rx);

/* After lost audio (xrun): resets every channel's state. */
void ir_receiver_reset(struct ir_receiver *rx);

/*
 * Decodes a whole recording (WAV, FLAC... anything libsndfile reads) with a
 * receiver configured as `cfg` says, except that the sample rate and the
 * channel count come from the file (and a mono file uses its only
 * channel); frames go to `frame_fn`, and the receiver is flushed at the
 * end.  Returns 0, or a negative errno with a message (without the path)
 * in `error`.
 */
int ir_receiver_run_file(const char *path, const struct ir_receiver_config *cfg,
			 ir_frame_fn frame_fn, void *userdata, char *error, size_t error_size);

/*
 * The same, keeping the demodulated edges instead of the frames: those of
 * cfg->channel, or (auto) of the channel with the most frames, then the
 * most edges, go to `out` (the caller's; ir_edge_buf_free()).  Returns 0
 * or a negative errno with a message (without the path) in `error`.
 */
int ir_receiver_edges_file(const char *path, const struct ir_receiver_config *cfg,
			   struct ir_edge_buf *out, char *error, size_t error_size);

/* The signal report of channel c (0-based); -EINVAL if it is not decoded. */
int ir_receiver_report(struct ir_receiver *rx, unsigned c, struct ir_signal_report *r);

/* Frames reported by channel c (before merging across channels). */
uint64_t ir_receiver_channel_frames(const struct ir_receiver *rx, unsigned c);

#endif
