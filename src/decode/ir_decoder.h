/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_decoder.h - every protocol decoder, run in parallel on one source's
 * edges.
 *
 * One struct ir_decoder belongs to one source (a sound card input, a USB
 * receiver, a file): timings from two receivers never meet in one state
 * machine.  Feed it edges in order; each decoded frame is handed to the
 * callback given at creation, synchronously, from inside the feed call.
 *
 * Frames are reported as soon as their last bit is certain.  For protocols
 * whose end can only be told from the silence that follows (variable-length
 * families, or a frame that is a prefix of a longer enabled protocol), a
 * source that knows how long the current space has lasted so far can ask
 * ir_decoder_space_deadline() when that silence becomes decisive and call
 * ir_decoder_space_elapsed() once it has, instead of waiting for the space
 * to end.
 */
#ifndef IRJACK_IR_DECODER_H
#define IRJACK_IR_DECODER_H

#include <stddef.h>
#include <stdint.h>

#include "ir_edge.h"
#include "ir_frame.h"
#include "ir_protocol.h"

struct ir_decoder;

/*
 * Creates a decoder running the protocols in `enabled` (NULL: all of them).
 * Source time starts at 0.  Returns 0 and sets *out, -EINVAL if `fn` is
 * NULL, or -ENOMEM.  The caller owns the decoder: ir_decoder_free().
 */
int ir_decoder_new(const struct ir_protocol_set *enabled, ir_frame_fn fn, void *userdata,
		   struct ir_decoder **out);
void ir_decoder_free(struct ir_decoder *dec);

/*
 * Adds an instance of a parametric family (see ir_family.h; internal to
 * libirjack, used by ir_keymap_attach()) reading with `params` (not
 * copied: they must outlive the decoder); its frames carry `decoder_id`
 * (non-zero) and are reported whatever the enabled set.  Returns 0,
 * -EINVAL (not parametric, id 0) or -ENOMEM.
 */
struct ir_family;
int ir_decoder_add_custom(struct ir_decoder *dec, const struct ir_family *family,
			  const void *params, uint16_t decoder_id);

/* Forgets every partial frame and the last frame (for repeat codes).
 * Source time keeps running. */
void ir_decoder_reset(struct ir_decoder *dec);

/*
 * Feeds one edge.  Pulses and spaces advance source time by their duration;
 * IR_TIMEOUT advances it too, finishes every frame that the silence
 * completes and resets the decoders; IR_OVERFLOW resets them; IR_CARRIER is
 * remembered as the source's carrier (until the next report) and decides
 * between readings that differ only by carrier (pioneer at 40 kHz, nec).  Returns 0, or -EINVAL for an edge of unknown kind.
 */
int ir_decoder_feed(struct ir_decoder *dec, const struct ir_edge *edge);
int ir_decoder_feed_many(struct ir_decoder *dec, const struct ir_edge *edges, size_t n);

/*
 * End of input: completes what a long silence would complete (as a timeout
 * would) and resets, without advancing source time.
 */
void ir_decoder_flush(struct ir_decoder *dec);

/*
 * Given that the last edge fed was a pulse and the line has been dark since,
 * returns the length of silence (µs, counted from the end of that pulse) at
 * which some decoder could report a frame, or 0 if none is waiting on the
 * silence.  Recompute after every feed or elapsed call.
 */
uint32_t ir_decoder_space_deadline(const struct ir_decoder *dec);

/*
 * Tells the decoders that the space after the last pulse has lasted
 * `elapsed_us` so far and is still going on.  Decoders whose deadline is
 * reached finish now; the space edge that eventually ends the silence is then
 * fed as usual (they will not see it twice).
 */
void ir_decoder_space_elapsed(struct ir_decoder *dec, uint32_t elapsed_us);

/*
 * The protocols a loaded keymap names (copied; NULL clears): where only the
 * carrier tells two readings of a frame apart and the source reports none,
 * a named one is reported (a keymap of pioneer keys gets pioneer frames
 * from a receiver that measures no carrier); otherwise rc-core's.
 */
void ir_decoder_set_preferred(struct ir_decoder *dec, const struct ir_protocol_set *set);

/* One family's reason for not taking a train (see ir_decoder_set_why()). */
struct ir_decode_reason {
	const char *family; /* the family's name */
	const char *text;   /* "nec: header space 4150 us outside 3937-5067" */
	unsigned progress;  /* edges its best attempt accepted */
};

/*
 * Called for a train of edges (from the first pulse to a timeout, a flush
 * or a space of at least IR_DECODER_TRAIN_GAP_US) in which no frame was
 * reported, with each family's reason for dropping it, the furthest first.
 * `reasons` are valid only during the call.
 */
typedef void (*ir_why_fn)(void *userdata, uint64_t start_us, uint64_t end_us, size_t edges,
			  const struct ir_decode_reason *reasons, size_t count);
#define IR_DECODER_TRAIN_GAP_US 100000u

/* Asks the families for their reasons (`irjack decode -v`, irjackd at log
 * level debug): `fn` NULL turns them off (the default, which costs
 * nothing). */
void ir_decoder_set_why(struct ir_decoder *dec, ir_why_fn fn, void *userdata);

/* Source time (µs) at the end of the edges fed so far. */
uint64_t ir_decoder_time_us(const struct ir_decoder *dec);

/*
 * How long after a frame a repeat code (NEC's, Sanyo's) still refers to it:
 * rc-core keeps a key down for the protocol's repeat period plus this
 * timeout (default 125000 µs, the kernel's IR_DEFAULT_TIMEOUT).
 */
void ir_decoder_set_keyup_timeout(struct ir_decoder *dec, uint32_t us);

#endif
