/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_source_silence.c - a live timing source's idle time as silence (see
 * ir_source_silence.h).
 */
#include "ir_source_silence.h"

#include <errno.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "ir_time.h"

/*
 * Added to every deadline.  The clock here is when an edge reached us, not
 * when it happened on the line: a receiver hands a pulse over when it
 * ends, but the space after it only when that ends, and a USB receiver
 * packs samples into packets (one per 1 ms interrupt interval at full
 * speed, a packet sometimes waiting for the next).  A NEC bit's longest
 * space (1687 us) is only 563 us short of the 2250 us deadline, so a space
 * handed over a little later than its pulse must not read as the frame's
 * end.  3 ms covers two intervals and the kernel thread's wake-up; a frame
 * decided by silence comes that much later, nothing else does.
 */
#define SILENCE_SLACK_US 3000u

void ir_silence_init_unused(struct ir_silence *s)
{
	s->timer_fd = -1;
	s->poll_fd = -1;
	s->pulse_ns = 0;
	s->due_ns = 0;
}

int ir_silence_start(struct ir_silence *s, int backend_fd)
{
	int ret;

	ir_silence_init_unused(s);
	s->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	s->poll_fd = epoll_create1(EPOLL_CLOEXEC);
	if (s->timer_fd < 0 || s->poll_fd < 0)
		goto fail;
	if (epoll_ctl(s->poll_fd, EPOLL_CTL_ADD, backend_fd,
		      &(struct epoll_event){ .events = EPOLLIN, .data.fd = backend_fd }) < 0 ||
	    epoll_ctl(s->poll_fd, EPOLL_CTL_ADD, s->timer_fd,
		      &(struct epoll_event){ .events = EPOLLIN, .data.fd = s->timer_fd }) < 0)
		goto fail;
	return 0;
fail:
	ret = -errno;
	ir_silence_free(s);
	return ret;
}

void ir_silence_free(struct ir_silence *s)
{
	if (s->timer_fd >= 0)
		close(s->timer_fd);
	if (s->poll_fd >= 0)
		close(s->poll_fd);
	ir_silence_init_unused(s);
}

static void set_timer(struct ir_silence *s, uint64_t due_ns)
{
	struct itimerspec its = {
		.it_value = { .tv_sec = (time_t)(due_ns / 1000000000u),
			      .tv_nsec = (long)(due_ns % 1000000000u) },
	};

	s->due_ns = due_ns;
	/* due_ns 0 disarms; an absolute time already past fires at once */
	timerfd_settime(s->timer_fd, due_ns ? TFD_TIMER_ABSTIME : 0, &its, NULL);
}

void ir_silence_cancel(struct ir_silence *s)
{
	if (ir_silence_active(s) && s->due_ns)
		set_timer(s, 0);
}

/* Arms at the decoder's deadline counted from the last pulse, or cancels
 * when no family waits on the silence. */
static void arm(struct ir_silence *s, const struct ir_decoder *dec)
{
	uint32_t deadline_us = ir_decoder_space_deadline(dec);

	if (!deadline_us) {
		ir_silence_cancel(s);
		return;
	}
	set_timer(s, s->pulse_ns + ((uint64_t)deadline_us + SILENCE_SLACK_US) * 1000u);
}

void ir_silence_after_edges(struct ir_silence *s, const struct ir_decoder *dec,
			    const struct ir_edge *edges, size_t n)
{
	bool timing = false;

	if (!ir_silence_active(s))
		return;
	for (size_t i = 0; i < n; i++)
		timing |= ir_edge_is_timing(&edges[i]) != 0;
	if (!timing)
		return;
	/* the batch was read just now: its last pulse ended no later */
	s->pulse_ns = ir_monotonic_ns();
	arm(s, dec);
}

void ir_silence_dispatch(struct ir_silence *s, struct ir_decoder *dec)
{
	uint64_t expirations, now, elapsed_us;

	if (!ir_silence_active(s))
		return;
	if (read(s->timer_fd, &expirations, sizeof(expirations)) < 0 && errno != EAGAIN)
		return;
	now = ir_monotonic_ns();
	if (!s->due_ns || now < s->due_ns || !dec)
		return;
	s->due_ns = 0;
	elapsed_us = (now - s->pulse_ns) / 1000u;
	ir_decoder_space_elapsed(dec, elapsed_us > UINT32_MAX ? UINT32_MAX : (uint32_t)elapsed_us);
	/* another family may wait longer still */
	arm(s, dec);
}
