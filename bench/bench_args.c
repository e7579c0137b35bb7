/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench_args.c - see bench_args.h.
 */
#include "bench_args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t bench_parse_numbers(const char *list, double *v, size_t max)
{
	char buf[512], *save = NULL, *end;
	size_t n = 0;

	snprintf(buf, sizeof(buf), "%s", list);
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n == max)
			return 0;
		v[n] = strtod(tok, &end);
		if (*end != '\0')
			return 0;
		n++;
	}
	return n;
}
