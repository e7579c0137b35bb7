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

	if (!n)
		return 0;
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
	if (!two_clusters(spaces, ns, &slo, &shi))
		goto out;
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

/* Half-bit expansion after the header: each duration is 1 or 2 units of
 * its level; a frame ending in a pulse gets its final space half-bit. */
static int manchester_bits(uint32_t unit, size_t skip, const struct ir_edge *e, size_t n,
			   uint8_t *bits, size_t max)
{
	uint8_t half[2 * IR_LEARN_MAX_BITS + 2] = { 0 };
	size_t nh = 0, k = 0;

	for (size_t i = skip; i < n; i++) {
		uint32_t d = e[i].duration;
		unsigned units = d < unit * 3 / 2 ? 1 : 2;

		if (d < unit / 2 || d > unit * 5 / 2 || nh + units > sizeof(half))
			return -EINVAL;
		for (unsigned u = 0; u < units; u++)
			half[nh++] = e[i].kind == IR_PULSE;
	}
	if (nh % 2)
		half[nh++] = 0;
	/* A frame that starts with a one begins with its space half: the
	 * silence before it is not seen, so add it back. */
	if (half[0] == 1 && (nh < 2 || half[1] == 1)) {
		return -EINVAL;
	}
	for (size_t h = 0; h + 1 < nh; h += 2) {
		if (half[h] == half[h + 1] || k >= max)
			return -EINVAL;
		bits[k++] = half[h] == 0; /* space then pulse: one */
	}
	return (int)k;
}

int ir_learn_manchester(const struct ir_edge *const *caps, const size_t *lens, size_t ncap,
			struct ir_learn_manchester *out)
{
	uint32_t unit = UINT32_MAX;
	uint64_t hp = 0, hs = 0;
	int header = -1, bits = -1;
	uint8_t tmp[IR_LEARN_MAX_BITS];

	if (!ncap)
		return -EINVAL;
	for (size_t c = 0; c < ncap; c++)
		for (size_t i = 2; i < lens[c]; i++)
			if (caps[c][i].duration < unit)
				unit = caps[c][i].duration;
	for (size_t c = 0; c < ncap; c++) {
		const struct ir_edge *e = caps[c];
		int h = lens[c] > 2 && e[0].duration > unit * 5 / 2;

		if (lens[c] < 4 || e[0].kind != IR_PULSE || (header >= 0 && h != header))
			return -EINVAL;
		header = h;
		hp += h ? e[0].duration : 0;
		hs += h ? e[1].duration : 0;
	}
	/* The unit is the mean of the short durations (under 1.5 units, in
	 * exact arithmetic: unit * 3 / 2 is 1 for a unit of 1 µs and left
	 * none to average), not the shortest. */
	uint64_t sum = 0, cnt = 0;

	for (size_t c = 0; c < ncap; c++)
		for (size_t i = header ? 2 : 0; i < lens[c]; i++)
			if (2 * (uint64_t)caps[c][i].duration < 3 * (uint64_t)unit) {
				sum += caps[c][i].duration;
				cnt++;
			}
	if (!cnt)
		return -EINVAL;
	unit = (uint32_t)(sum / cnt);
	if (unit < 2) /* no half of it to tell one unit from two */
		return -EINVAL;
	for (size_t c = 0; c < ncap; c++) {
		/* A leading pulse with no header is the second half of a one. */
		int nb = manchester_bits(unit, header ? 2 : 0, caps[c], lens[c], tmp, sizeof(tmp));

		if (nb < 4 || (bits >= 0 && nb != bits))
			return -EINVAL;
		bits = nb;
	}
	*out = (struct ir_learn_manchester){
		.header_pulse = header ? (uint32_t)(hp / ncap) : 0,
		.header_space = header ? (uint32_t)(hs / ncap) : 0,
		.unit = unit,
		.bits = (unsigned)bits,
	};
	return 0;
}

int ir_learn_manchester_decode(const struct ir_learn_manchester *m, const struct ir_edge *e,
			       size_t n, uint8_t *bits, size_t max)
{
	int nb;

	if (m->header_pulse &&
	    (n < 2 || !near(e[0].duration, m->header_pulse, m->header_pulse / 4) ||
	     !near(e[1].duration, m->header_space, m->header_space / 4)))
		return -EINVAL;
	nb = manchester_bits(m->unit, m->header_pulse ? 2 : 0, e, n, bits, max);
	return nb == (int)m->bits ? nb : -EINVAL;
}
