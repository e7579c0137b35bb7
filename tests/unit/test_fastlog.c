/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_fastlog() (dsp/ir_fastlog.h), the demodulator's inline logarithm,
 * against libm's log(): within one unit in the last place of it over the
 * whole range of normal doubles, close either side of 1 (where a decay
 * ratio sits: a slow coupling's ratio of two block means is just under 1)
 * and at the table's interval edges.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>
#include <math.h>

#include "ir_fastlog.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint64_t rng_next(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* A double uniform in [0, 1). */
static double rng_unit(void)
{
	return (double)(rng_next() >> 11) * 0x1p-53;
}

/* How many units in the last place of libm's log(x) ir_fastlog() is off. */
static double ulps_off(const struct ir_fastlog *t, double x)
{
	double want = log(x), got = ir_fastlog(t, x);
	double ulp = nextafter(fabs(want), INFINITY) - fabs(want);

	if (want == 0)
		return got == 0 ? 0 : INFINITY;
	return fabs(got - want) / ulp;
}

static void test_whole_range(void **state)
{
	struct ir_fastlog t;
	unsigned same = 0, n = 1000000;
	double worst = 0;

	(void)state;
	ir_fastlog_init(&t);
	for (unsigned i = 0; i < n; i++) {
		/* log-uniform over 1e-300 .. 1e300 */
		double x = exp((rng_unit() * 600 - 300) * 2.302585092994045684);
		double off = ulps_off(&t, x);

		if (off > worst)
			worst = off;
		same += off == 0;
	}
	printf("whole range: worst %.2f ulp, %.1f %% identical to libm\n", worst, 100.0 * same / n);
	assert_true(worst <= 1.0);
	/* most results are libm's own (a tighter bound than the 1 ulp) */
	assert_true(same >= n * 8 / 10);
}

static void test_near_one(void **state)
{
	struct ir_fastlog t;
	double worst = 0;

	(void)state;
	ir_fastlog_init(&t);
	/* the first 10^5 doubles either side of 1, then [0.9, 1.1) densely */
	for (int k = 1; k <= 100000; k++) {
		double below = 1 - k * 0x1p-53, above = 1 + k * 0x1p-52;

		worst = fmax(worst, fmax(ulps_off(&t, below), ulps_off(&t, above)));
	}
	for (unsigned i = 0; i < 200000; i++)
		worst = fmax(worst, ulps_off(&t, 0.9 + 0.2 * rng_unit()));
	printf("near 1: worst %.2f ulp\n", worst);
	assert_true(worst <= 1.0);
	assert_true(ir_fastlog(&t, 1.0) == 0.0);
}

static void test_interval_edges(void **state)
{
	struct ir_fastlog t;
	double worst = 0;

	(void)state;
	ir_fastlog_init(&t);
	/* each table interval's first double and the one before it, at
	 * several binary exponents (where the index and exponent change) */
	for (int e = -1000; e <= 1000; e += 37) {
		for (unsigned i = 0; i <= IR_FASTLOG_N; i++) {
			uint64_t bits = IR_FASTLOG_OFF + (uint64_t)i * (UINT64_C(1) << (52 - IR_FASTLOG_BITS));
			double z = ir_fastlog_from_bits(bits), x = ldexp(z, e);

			worst = fmax(worst, fmax(ulps_off(&t, x), ulps_off(&t, nextafter(x, 0))));
		}
		worst = fmax(worst, ulps_off(&t, ldexp(1.0, e)));
	}
	printf("interval edges: worst %.2f ulp\n", worst);
	assert_true(worst <= 1.0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whole_range),
		cmocka_unit_test(test_near_one),
		cmocka_unit_test(test_interval_edges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
