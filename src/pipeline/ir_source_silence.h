/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_source_silence.h - a live timing source's idle time, fed to its
 * decoder as silence (internal to the pipeline; used by ir_source.c).
 *
 * A receiver that reports timings (/dev/lircN in mode2, the USB receivers)
 * hands over a pulse when it ends, but the space after the last pulse of a
 * frame only when the next frame starts, or as a timeout word, or never
 * (Linux 6.1's rc-loopback with carrier reports ends with a frequency
 * word).  Families that can only tell a frame's end from the silence after
 * it (the NEC family waits 2250 us, to rule out 33..42-bit frames) would
 * then never report it.  The audio path measures its own darkness (the
 * demodulator's space deadline); this is the same for timing sources, on
 * the monotonic clock: a timerfd armed at the decoder's space deadline,
 * counted from when the last pulse was handed over, cancelled by the next
 * edge.  Files are not timed this way: their replay stays deterministic.
 */
#ifndef IRJACK_IR_SOURCE_SILENCE_H
#define IRJACK_IR_SOURCE_SILENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir_decoder.h"
#include "ir_edge.h"

struct ir_silence {
	int timer_fd;      /* CLOCK_MONOTONIC; armed at the deadline, -1 when unused */
	int poll_fd;       /* epoll of the backend's fd and timer_fd: what the caller polls */
	uint64_t pulse_ns; /* monotonic time the last pulse was handed to the decoder */
	uint64_t due_ns;   /* when the armed deadline falls; 0 = not armed */
};

/* Not in use (both fds -1): ir_silence_free() and the others are no-ops. */
void ir_silence_init_unused(struct ir_silence *s);

/*
 * Starts watching: creates the timer and an epoll set holding `backend_fd`
 * (which must stay the same for the life of the source) and the timer.
 * Returns 0, or a negative errno (the struct is then unused).
 */
int ir_silence_start(struct ir_silence *s, int backend_fd);

/* Closes the fds it created. */
void ir_silence_free(struct ir_silence *s);

/* True when it is in use (its poll_fd is what the caller polls). */
static inline bool ir_silence_active(const struct ir_silence *s)
{
	return s->poll_fd >= 0;
}

/*
 * After `edges` were fed to `dec`: a batch that ends in a pulse (carrier
 * reports after it do not count) arms the timer at the decoder's new
 * deadline, any other timing edge cancels it; a batch with no timing edge
 * leaves it as it is.
 */
void ir_silence_after_edges(struct ir_silence *s, const struct ir_decoder *dec,
			    const struct ir_edge *edges, size_t n);

/* Forgets the wait (the decoder was reset or flushed). */
void ir_silence_cancel(struct ir_silence *s);

/*
 * From the source's dispatch: if the deadline has passed, tells `dec` how
 * long the line has been dark (ir_decoder_space_elapsed()) and arms the
 * timer again for a family that waits longer.  Spurious calls are fine.
 */
void ir_silence_dispatch(struct ir_silence *s, struct ir_decoder *dec);

#endif
