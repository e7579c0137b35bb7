/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_fastlog.h - ln(x) for a finite x > 0 (normal, not subnormal), within
 * one unit in the last place of libm's log(), and the same as libm's in
 * 99.8 % of arguments (test_fastlog: 10^6 arguments from 1e-300 to 1e300,
 * close either side of 1, and at the table's interval edges).  Inline, with no division and no
 * call: the demodulator's wide band takes the AC coupling's decay rate as
 * a logarithm every block (~3 samples at 48 kHz) and the next sample's
 * prediction waits for it; the call to libm (which spills every live
 * register) was 15 % of the frames path's time.
 *
 * x = 2^e z, z in [0.707, 1.414) split into IR_FASTLOG_N intervals; with c
 * near 1/z (26 significant bits, so that the high half of z times c is
 * exact) and l = -ln c from the table, ln x = e ln 2 + l + ln(1 + r),
 * r = z c - 1, |r| < 2^-7; ln(1 + r) to r^8 (the next term is under
 * 2^-56 r).  The two intervals either side of 1 have c = 1 (no
 * cancellation between l and ln(1 + r) just under and over 1).
 *
 * The table lives in the caller's memory (struct ir_fastlog, filled once
 * by ir_fastlog_init()); nothing allocates.
 */
#ifndef IRJACK_IR_FASTLOG_H
#define IRJACK_IR_FASTLOG_H

#include <stdint.h>
#include <string.h>

#define IR_FASTLOG_BITS 7
#define IR_FASTLOG_N (1u << IR_FASTLOG_BITS)
/* 0.70703125: √½ rounded down to IR_FASTLOG_BITS bits */
#define IR_FASTLOG_OFF UINT64_C(0x3fe6a00000000000)

struct ir_fastlog {
	double c[IR_FASTLOG_N]; /* near 1/z over each interval */
	double l[IR_FASTLOG_N]; /* -ln c */
};

/* Fills the table. */
void ir_fastlog_init(struct ir_fastlog *t);

static inline double ir_fastlog_from_bits(uint64_t u)
{
	double x;

	memcpy(&x, &u, sizeof(x));
	return x;
}

/* ln(x), x finite, normal and > 0 (else undefined), with t's table. */
static inline double ir_fastlog(const struct ir_fastlog *t, double x)
{
	static const double ln2_hi = 6.93147180369123816490e-01; /* 0x3fe62e42fee00000 */
	static const double ln2_lo = 1.90821492927058770002e-10;
	uint64_t u, v, zu;
	int64_t e;
	unsigned i;
	double z, zh, c, r, r2, r4, p;

	memcpy(&u, &x, sizeof(u));
	v = u - IR_FASTLOG_OFF;
	e = (int64_t)v >> 52;
	i = (unsigned)(v >> (52 - IR_FASTLOG_BITS)) & (IR_FASTLOG_N - 1);
	zu = u - ((uint64_t)e << 52);
	z = ir_fastlog_from_bits(zu);
	zh = ir_fastlog_from_bits(zu & ~((UINT64_C(1) << 26) - 1));
	c = t->c[i];
	r = (zh * c - 1) + (z - zh) * c;
	r2 = r * r;
	r4 = r2 * r2;
	/* ln(1 + r) = r + r² p(r), terms paired (Estrin) for a short chain */
	p = (-0.5 + r * (1.0 / 3)) + r2 * (-0.25 + r * 0.2) +
	    r4 * ((-1.0 / 6 + r * (1.0 / 7)) - r2 * 0.125);
	return ((double)e * ln2_hi + t->l[i]) + (r + (r2 * p + (double)e * ln2_lo));
}

#endif
