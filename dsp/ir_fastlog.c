/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ir_fastlog.c - the table of ir_fastlog() (see ir_fastlog.h). */
#include "ir_fastlog.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

void ir_fastlog_init(struct ir_fastlog *t)
{
	uint64_t width = UINT64_C(1) << (52 - IR_FASTLOG_BITS);

	for (unsigned i = 0; i < IR_FASTLOG_N; i++) {
		double z0 = ir_fastlog_from_bits(IR_FASTLOG_OFF + i * width);
		double z1 = ir_fastlog_from_bits(IR_FASTLOG_OFF + (i + 1) * width);
		double c = z0 <= 1 && 1 <= z1 ? 1 : 2 / (z0 + z1);
		uint64_t u;

		/* 26 significant bits: the high half of z times c is exact */
		memcpy(&u, &c, sizeof(u));
		c = ir_fastlog_from_bits(u & ~((UINT64_C(1) << 27) - 1));
		t->c[i] = c;
		t->l[i] = -log(c);
	}
}
