/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_reopen.c - the reopen schedule of a device that went away (see
 * ir_reopen.h).
 */
#include "ir_reopen.h"

#include <errno.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

void ir_reopen_init(struct ir_reopen *r, unsigned first_ms, unsigned max_ms)
{
	r->first_ms = first_ms;
	r->max_ms = max_ms < first_ms ? first_ms : max_ms;
	r->delay_ms = first_ms;
	r->due_ms = 0;
	r->waiting = false;
	r->timer_fd = -1;
}

int ir_reopen_timer_new(struct ir_reopen *r)
{
	if (r->timer_fd < 0)
		r->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	return r->timer_fd < 0 ? -errno : r->timer_fd;
}

void ir_reopen_free(struct ir_reopen *r)
{
	if (r->timer_fd >= 0)
		close(r->timer_fd);
	r->timer_fd = -1;
}

/* The timer fires at due_ms itself (an absolute time on the same clock),
 * so a wake-up from it always finds the attempt due. */
static void schedule(struct ir_reopen *r, uint64_t now_ms)
{
	r->due_ms = now_ms + r->delay_ms;
	if (r->timer_fd >= 0) {
		struct itimerspec its = {
			.it_value = { .tv_sec = (time_t)(r->due_ms / 1000u),
				      .tv_nsec = (long)(r->due_ms % 1000u) * 1000000L },
		};

		timerfd_settime(r->timer_fd, TFD_TIMER_ABSTIME, &its, NULL);
	}
}

void ir_reopen_gone(struct ir_reopen *r, uint64_t now_ms)
{
	r->waiting = true;
	r->delay_ms = r->first_ms;
	schedule(r, now_ms);
}

int ir_reopen_attempt(struct ir_reopen *r, uint64_t now_ms, bool now_anyway,
		      int (*try_open)(void *ctx), void *ctx)
{
	uint64_t expirations;

	if (r->timer_fd >= 0 && read(r->timer_fd, &expirations, sizeof(expirations)) < 0 &&
	    errno != EAGAIN)
		return 0;
	if (!r->waiting || (!now_anyway && now_ms < r->due_ms))
		return 0;
	if (try_open(ctx) < 0) {
		r->delay_ms = r->delay_ms * 2 > r->max_ms ? r->max_ms : r->delay_ms * 2;
		schedule(r, now_ms);
		return 0;
	}
	r->waiting = false;
	return 1;
}
