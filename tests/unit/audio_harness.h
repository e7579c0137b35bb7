/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audio_harness.h - end-to-end trials through the audio path, shared by the
 * tests and the benchmarks: random frames of a protocol → encoder → channel
 * model (ir_channel_sim) → receiver (demodulator + decoders) → frames
 * matched against what was sent.
 */
#ifndef IRJACK_TEST_AUDIO_HARNESS_H
#define IRJACK_TEST_AUDIO_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir_channel_sim.h"
#include "ir_demod.h"
#include "ir_protocol.h"

struct audio_trial {
	enum ir_protocol protocol;
	unsigned frames;              /* key presses to send */
	unsigned repeats;             /* repeats per press (held key) */
	struct ir_channel_config channel;
	double gap_min_ms, gap_max_ms; /* silence between presses; default 60..300 */
	size_t block;                  /* samples per ir_receiver_process() call; 0 = 1024 */
	enum ir_polarity polarity;     /* what the receiver is told; default auto */
	uint64_t seed;
	bool genie;                    /* also run the genie-aided detector (see below) */
};

struct audio_result {
	unsigned sent;        /* frames sent (presses × (1 + repeats)) */
	unsigned matched;     /* decoded with the right protocol, scancode and time */
	unsigned false_frames;/* decoded frames that match nothing sent */
	size_t samples;       /* audio length */
	double max_latency_us;/* worst (report time - frame end), audio time */
	/* With trial.genie: frames a genie-aided detector gets right on the
	 * same samples.  It is told where each of the protocol's units
	 * (the shortest pulse or space of the frame; longer ones are whole
	 * multiples of it, rounded) starts and ends, sees the signal with the
	 * AC coupling undone (the coupling-free rendering of the same light)
	 * plus the very noise and hum the receiver got, and decides each unit
	 * dark or lit by the sign of its mean against the mid level (a bare
	 * photodiode: by correlating the unit with the difference between
	 * its clean waveform and the flipped one, lit with the carrier or
	 * dark: the matched filter, every joule of the carrier counted, its
	 * phase known).  A frame
	 * counts when every unit of it is right: a bound no detector that must
	 * find the timing itself can beat by more than what the protocol's
	 * own structure adds. */
	unsigned genie_matched;
};

/* Runs one trial.  Returns 0, or a negative errno if the trial cannot be
 * set up. */
int audio_trial_run(const struct audio_trial *trial, struct audio_result *result);

/* One trial of `frames` random frames of the protocol named `protocol`
 * through a receiver module as the demodulator's tests run it: hum 2 % at
 * 50 Hz, polarity inverted for odd seeds, the channel's noise seeded from
 * `seed`; gaps as struct audio_trial's (0: the default).  Returns 0, or a
 * negative errno (-EINVAL for an unknown protocol). */
int audio_trial_module(const char *protocol, unsigned rate, double tau_ms, double snr_db,
		       unsigned frames, uint64_t seed, double gap_min_ms, double gap_max_ms,
		       struct audio_result *result);

/* One point as bench_audio limit runs it (bench/bench_limit.c,
 * limit_point): `frames` frames of `protocol` through a receiver module,
 * hum 2 % at 50 Hz, polarity inverted where bit 3 of `seed` is set, the
 * channel seeded with `seed` itself, every mark lengthened by `stretch_us`
 * (0: none).  Returns 0, or a negative errno. */
int audio_trial_limit_point(enum ir_protocol protocol, unsigned rate, double tau_ms, double snr_db,
			    double stretch_us, unsigned frames, uint64_t seed,
			    struct audio_result *result);

/* Renders `edges` with `channel` and decodes them with the protocols in
 * `protocols` (NULL: all); frames go to `fn`. */
struct ir_frame;
int audio_decode_edges(const struct ir_channel_config *channel, const struct ir_edge *edges,
		       size_t n, size_t block, enum ir_polarity polarity,
		       const struct ir_protocol_set *protocols,
		       void (*fn)(void *userdata, const struct ir_frame *frame), void *userdata);

/* A frame a cut recording must give: the protocol and scancode its clean
 * timings decode to (audio_reference_frame), and whether it came out. */
struct audio_wanted {
	enum ir_protocol protocol;
	uint64_t scancode;
	bool have, hit;
};

/*
 * The frames of the cold-start checks (test_demod_cold_start, bench_audio
 * coldstart), and deepest_us: how far into the first pulse a cut may go.
 * Sony's 2400 us header is only 178 us above RC-5's reach (a first pulse
 * of S1's second half and a merged half-bit, 1778 + 444 = 2222 us at
 * rc-core's margins, which the kernel accepts too); a cut at tau 5 ms
 * ends the demodulated header up to ~150 us early (the coupling's droop
 * over the pulse, before any level is learnt), so a cut past 30 us may
 * leave light that RC-5 reads first.  The others keep 100 us.
 */
struct audio_cut_frame {
	const char *name;
	uint64_t scancode;
	double deepest_us;
};
#define AUDIO_CUT_FRAMES 6
extern const struct audio_cut_frame audio_cut_frames[AUDIO_CUT_FRAMES];

/* Encodes audio_cut_frames[i] into `b` (zeroed by the caller, freed with
 * ir_edge_buf_free()) and keeps the frame its clean timings decode to in
 * `w` (audio_reference_frame).  Returns 0, or -1. */
struct ir_edge_buf;
int audio_cut_frame_edges(size_t i, struct ir_edge_buf *b, struct audio_wanted *w);

/* Decodes the clean timings `b` with protocol `p` alone enabled and keeps
 * the first frame in `w`.  Returns 0, or -1 when nothing decodes. */
int audio_reference_frame(enum ir_protocol p, const struct ir_edge *edges, size_t n,
			  struct audio_wanted *w);

/* Feeds samples [from, n) at `rate` to a new receiver in blocks of
 * `block` (every protocol enabled; `edge_fn`, if not NULL, sees every
 * edge); returns whether the wanted frame came out (also in w->hit). */
bool audio_decodes_from(const float *s, size_t n, size_t from, unsigned rate, size_t block,
			struct audio_wanted *w,
			void (*edge_fn)(void *userdata, unsigned channel, const struct ir_edge *edge));

#endif
