/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "ir_time.h"

#include <time.h>

uint64_t ir_monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
