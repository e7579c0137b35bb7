/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_time.h - the one clock every part of irjack schedules by:
 * CLOCK_MONOTONIC (never steps with the wall clock), in ns, µs or ms.
 */
#ifndef IRJACK_IR_TIME_H
#define IRJACK_IR_TIME_H

#include <stdint.h>

/* CLOCK_MONOTONIC now, in nanoseconds. */
uint64_t ir_monotonic_ns(void);

static inline uint64_t ir_monotonic_us(void)
{
	return ir_monotonic_ns() / 1000u;
}

static inline uint64_t ir_monotonic_ms(void)
{
	return ir_monotonic_ns() / 1000000u;
}

#endif
