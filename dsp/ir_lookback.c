/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "ir_lookback.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

int ir_lookback_init(struct ir_lookback *lb, double us, double us_per_sample)
{
	uint64_t n = 1, want = (uint64_t)ceil(us / us_per_sample);

	while (n < want)
		n <<= 1;
	lb->x = calloc(n, sizeof(*lb->x));
	if (!lb->x)
		return -ENOMEM;
	lb->mask = n - 1;
	lb->from = 0;
	return 0;
}

void ir_lookback_free(struct ir_lookback *lb)
{
	free(lb->x);
	lb->x = NULL;
}

void ir_lookback_fill(struct ir_lookback *lb, uint64_t end, const float *samples, size_t done,
		      size_t stride)
{
	size_t k = done < lb->mask + 1 ? done : (size_t)lb->mask + 1;

	for (size_t i = done - k; i < done; i++)
		lb->x[(end - done + i) & lb->mask] = samples[i * stride];
}

void ir_lookback_forget(struct ir_lookback *lb, uint64_t end)
{
	lb->from = end;
}

uint64_t ir_lookback_rise(const struct ir_lookback *lb, uint64_t end, unsigned back, double b,
			  int dir, double a)
{
	uint64_t lo = end > back ? end - back : 0, best_m = end;
	double s = 0, best = 0;

	if (lo < lb->from)
		lo = lb->from;
	if (end - lo > lb->mask)
		lo = end - lb->mask;
	/* lit from m on: the log-likelihood gain over dark of samples
	 * m..end-1 is Σ (2·u·a - a²) / 2σ² (u the sample after polarity);
	 * the m that maximises the sum, walked back from the trigger */
	for (uint64_t m = end; m-- > lo;) {
		double u = dir * ((double)lb->x[m & lb->mask] - b);

		s += 2 * u * a - a * a;
		if (s > best) {
			best = s;
			best_m = m;
		}
	}
	return best_m;
}
