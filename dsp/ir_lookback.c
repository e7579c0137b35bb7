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

void ir_lookback_pulse_fit(const struct ir_lookback *lb, uint64_t end, unsigned back, uint64_t stop,
			  double b, int dir, const double *w, unsigned n_w, struct ir_lookback_pulse *out)
{
	uint64_t lo = end > back ? end - back : 0;
	double S[IR_LOOKBACK_PULSE_MAX + 1], P[IR_LOOKBACK_PULSE_MAX + 1], Q[IR_LOOKBACK_PULSE_MAX + 1];

	out->rise = out->fall = out->rise_lit = end;
	out->gain = out->gain_lit = 0;
	if (lo < lb->from)
		lo = lb->from;
	if (stop - lo > lb->mask)
		lo = stop - lb->mask;
	if (stop <= end + 2 || stop - lo > IR_LOOKBACK_PULSE_MAX)
		return;
	for (unsigned h = 0; h < n_w; h++) {
		/* S[i] = Σ_{j ≥ i} u_j·w^(j-i): a pulse that rose at m and
		 * fell at f leaves Σu·g = S[m] - S[f] (g = w^(j-m) lit, the
		 * undershoot w^(j-m) - w^(j-f) after it), and Σg² =
		 * Q[stop-m] - 2·w^(f-m)·Q[stop-f] + Q[stop-f], Q[k] = Σ_{i<k} w^2i */
		S[stop - lo] = 0;
		for (uint64_t j = stop; j-- > lo;)
			S[j - lo] = dir * ((double)lb->x[j & lb->mask] - b) + w[h] * S[j + 1 - lo];
		P[0] = 1;
		Q[0] = 0;
		for (uint64_t k = 1; k <= stop - lo; k++) {
			P[k] = P[k - 1] * w[h];
			Q[k] = Q[k - 1] + P[k - 1] * P[k - 1];
		}
		for (uint64_t m = lo; m <= end; m++) {
			double sm = S[m - lo], qm = Q[stop - m];

			if (sm > 0 && sm * sm / qm > out->gain_lit) {
				out->gain_lit = sm * sm / qm;
				out->rise_lit = m;
			}
			for (uint64_t f = end + 1; f + 2 <= stop; f++) {
				double ug = sm - S[f - lo], qf = Q[stop - f];
				double gg = qm - 2 * P[f - m] * qf + qf;

				if (ug > 0 && gg > 0 && ug * ug > out->gain * gg) {
					out->gain = ug * ug / gg;
					out->rise = m;
					out->fall = f;
				}
			}
		}
	}
}
