/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_learn.c - duration clustering for learning unknown remotes.
 */
#include "ir_learn.h"

#include <errno.h>
#include <stdlib.h>

size_t ir_learn_split(const struct ir_edge *edges, size_t n, uint32_t gap_us,
		      struct ir_learn_press *out, size_t max)
{
	size_t count = 0, start = 0;
	int in = 0;

	for (size_t i = 0; i <= n; i++) {
		/* No remote sends a 20 ms pulse: it is light or a glitch, and
		 * it separates presses rather than joining them. */
		int glitch = i < n && edges[i].kind == IR_PULSE && edges[i].duration > 20000;
		int brk = i == n || glitch || (edges[i].kind != IR_PULSE &&
				     (edges[i].kind == IR_TIMEOUT || edges[i].kind == IR_OVERFLOW ||
				      (edges[i].kind == IR_SPACE && edges[i].duration >= gap_us)));

		if (i < n && edges[i].kind == IR_PULSE && !glitch && !in) {
			in = 1;
			start = i;
		} else if (brk && in) {
			if (count < max)
				out[count] = (struct ir_learn_press){ start, i - start };
			count++;
			in = 0;
		}
	}
	return count;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Splits sorted values at the biggest ratio jump: the two classes of a
 * binary code differ by ≥ 1.5x, jitter within a class is much less. */
static int two_clusters(uint32_t *v, size_t n, uint32_t *lo, uint32_t *hi)
{
	size_t cut = 0;
	double best = 1.0;
	uint64_t s0 = 0, s1 = 0;

	qsort(v, n, sizeof(*v), cmp_u32);
	for (size_t i = 1; i < n; i++) {
		double r = (double)v[i] / (v[i - 1] ? v[i - 1] : 1);

		if (r > best) {
			best = r;
			cut = i;
		}
	}
	if (best < 1.5) { /* one class only: all bits equal */
		for (size_t i = 0; i < n; i++)
			s0 += v[i];
		*lo = *hi = (uint32_t)(s0 / n);
		return 1;
	}
	for (size_t i = 0; i < n; i++)
		if (i < cut)
			s0 += v[i];
		else
			s1 += v[i];
	*lo = (uint32_t)(s0 / cut);
	*hi = (uint32_t)(s1 / (n - cut));
	return 2;
}

int ir_learn_pulse_distance(const struct ir_edge *const *caps, const size_t *lens,
			    size_t ncap, struct ir_learn_pd *out)
{
	size_t total = 0, np = 0, ns = 0;
	uint64_t hp = 0, hs = 0, tp = 0;
	unsigned bits = 0;
	uint32_t *pulses, *spaces, plo, phi, slo, shi;
	int ret = -EINVAL;

	for (size_t c = 0; c < ncap; c++)
		total += lens[c];
	if (!ncap || total == 0)
		return -EINVAL;
	pulses = malloc(total * sizeof(*pulses));
	spaces = malloc(total * sizeof(*spaces));
	if (!pulses || !spaces) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t c = 0; c < ncap; c++) {
		const struct ir_edge *e = caps[c];
		size_t n = lens[c];

		/* header pulse, header space, N × (pulse space), trailer pulse */
		if (n < 5 || e[0].kind != IR_PULSE || e[1].kind != IR_SPACE || (n - 3) % 2)
			goto out;
		if (c == 0)
			bits = (unsigned)(n - 3) / 2;
		else if (bits != (n - 3) / 2)
			goto out; /* presses disagree on length */
		hp += e[0].duration;
		hs += e[1].duration;
		tp += e[n - 1].duration;
		for (size_t i = 2; i + 1 < n; i += 2) {
			pulses[np++] = e[i].duration;
			spaces[ns++] = e[i + 1].duration;
		}
	}
	if (bits < 4 || bits > IR_LEARN_MAX_BITS)
		goto out;
	if (two_clusters(pulses, np, &plo, &phi) != 1)
		goto out; /* pulse widths vary: not pulse-distance */
	two_clusters(spaces, ns, &slo, &shi);
	if (slo == shi)
		shi = slo * 3; /* all presses sent all-zero/one bits: guess 1:3 */
	*out = (struct ir_learn_pd){
		.header_pulse = (uint32_t)(hp / ncap),
		.header_space = (uint32_t)(hs / ncap),
		.bit_pulse = plo,
		.bit_0_space = slo,
		.bit_1_space = shi,
		.trailer_pulse = (uint32_t)(tp / ncap),
		.bits = bits,
		.margin = plo / 2 < 300 ? plo / 2 : 300,
	};
	ret = 0;
out:
	free(pulses);
	free(spaces);
	return ret;
}

static int near(uint32_t got, uint32_t want, uint32_t margin)
{
	return got + margin >= want && got <= want + margin;
}

int ir_learn_pd_decode(const struct ir_learn_pd *pd, const struct ir_edge *e, size_t n,
		       uint8_t *bits, size_t max)
{
	uint32_t m = pd->margin ? pd->margin : 200;
	/* Header timings get a proportional margin: they are long and the
	 * demodulator's pulse-stretch is a fixed error on them. */
	uint32_t hm = pd->header_pulse / 4 > m ? pd->header_pulse / 4 : m;
	uint32_t mid = (pd->bit_0_space + pd->bit_1_space) / 2;
	size_t k = 0;

	if (n < 3 || e[0].kind != IR_PULSE || !near(e[0].duration, pd->header_pulse, hm) ||
	    e[1].kind != IR_SPACE ||
	    !near(e[1].duration, pd->header_space, pd->header_space / 4 > m ? pd->header_space / 4 : m))
		return -EINVAL;
	for (size_t i = 2; i + 1 < n && k < pd->bits; i += 2) {
		if (e[i].kind != IR_PULSE || !near(e[i].duration, pd->bit_pulse, m) ||
		    e[i + 1].kind != IR_SPACE)
			return -EINVAL;
		if (e[i + 1].duration > pd->bit_1_space + (pd->bit_1_space - mid) + m)
			return -EINVAL;
		if (k >= max)
			return -EINVAL;
		bits[k++] = e[i + 1].duration > mid;
	}
	return k == pd->bits ? (int)k : -EINVAL;
}
