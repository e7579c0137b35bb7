/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ir_demod_decay.h - the AC coupling's decay rate (ir_demod_decay.c). */
#ifndef IRJACK_IR_DEMOD_DECAY_H
#define IRJACK_IR_DEMOD_DECAY_H

#include "ir_demod_state.h"

/* A block of DECAY_BLOCK_US is complete, `sum` its samples' distance from
 * the baseline: the state's decay rate from it (see DECAY_BLOCK_US). */
void demod_decay_block(struct ir_demod *d, double sum);
/* One tracked sample y of the wide or narrow band towards the block. */
static inline void demod_measure_decay(struct ir_demod *d, double y)
{
	double sum;

	d->block_sum += y - d->baseline;
	if (++d->block_count < d->block_n)
		return;
	sum = d->block_sum;
	d->block_sum = 0;
	d->block_count = 0;
	demod_decay_block(d, sum);
}
/* At an edge: a state that measured its own decay teaches the next. */
void demod_fold_decay(struct ir_demod *d);

#endif
