/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench_args.h - what the grid benchmarks (limit, photodiode, coldstart)
 * share in reading their options.
 */
#ifndef IRJACK_BENCH_ARGS_H
#define IRJACK_BENCH_ARGS_H

#include <stddef.h>

/* Parses "a,b,c" (numbers) into v[0..max); returns the count, or 0 on a
 * bad list or one of more than `max` numbers. */
size_t bench_parse_numbers(const char *list, double *v, size_t max);

#endif
