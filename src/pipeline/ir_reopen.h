/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_reopen.h - "the device went away: try opening it again every so
 * often", the one loop every source backend with a device that can vanish
 * uses (/dev/lircN, devinput, the USB receivers).
 *
 * A schedule on the monotonic clock in ms: the first attempt `first_ms`
 * after the device went, each failure doubling the wait up to `max_ms`
 * (first == max: a fixed interval).  A backend that is polled through an
 * fd asks for a timerfd (ir_reopen_timer_new()) that is readable when an
 * attempt is due; a backend with its own thread just calls
 * ir_reopen_attempt() whenever it wakes.  Not thread-safe: one thread
 * owns a struct ir_reopen.
 */
#ifndef IRJACK_IR_REOPEN_H
#define IRJACK_IR_REOPEN_H

#include <stdbool.h>
#include <stdint.h>

struct ir_reopen {
	unsigned first_ms, max_ms;
	unsigned delay_ms; /* the wait before the next attempt */
	uint64_t due_ms;   /* monotonic ms of the next attempt */
	bool waiting;      /* the device is gone */
	int timer_fd;      /* -1, or readable while an attempt is due */
};

/* Sets the schedule; not waiting, no timer.  No resources: only a timer
 * made with ir_reopen_timer_new() needs ir_reopen_free(). */
void ir_reopen_init(struct ir_reopen *r, unsigned first_ms, unsigned max_ms);

/* Creates the timerfd (CLOCK_MONOTONIC, non-blocking) for the caller to
 * poll; the struct owns it.  Returns the fd or a negative errno. */
int ir_reopen_timer_new(struct ir_reopen *r);

/* Closes the timer, if any. */
void ir_reopen_free(struct ir_reopen *r);

/* The device went away at `now_ms`: the first attempt is due first_ms
 * later. */
void ir_reopen_gone(struct ir_reopen *r, uint64_t now_ms);

/* True while the device is gone (from ir_reopen_gone() to a successful
 * attempt). */
static inline bool ir_reopen_waiting(const struct ir_reopen *r)
{
	return r->waiting;
}

/*
 * One turn of the loop: if the device is gone and an attempt is due at
 * `now_ms` (or `now_anyway`: hotplug said it is back), calls
 * try_open(ctx) (0 = open again, negative errno = not yet).  Returns 1
 * when the device is open again (the caller reports it), 0 when nothing
 * was due or the attempt failed (the next one is scheduled, the wait
 * doubled up to max_ms).  Drains the timer either way.
 */
int ir_reopen_attempt(struct ir_reopen *r, uint64_t now_ms, bool now_anyway,
		      int (*try_open)(void *ctx), void *ctx);

#endif
