/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rc6_leader.c - the leader RC-6 (rc6.c, with IRMP's rc6a reading) and
 * MCIR-2 (mce_kbd.c) share: a long prefix pulse, RC-6's prefix space, and
 * the start and mode bits, Manchester (a 1 is pulse then space) at one
 * unit per half; and the Manchester body after it.  One copy of each
 * machine, the numbers from each family.
 */
#include "ir_family.h"

#include "ir_decode_ctx.h"

enum {
	LEADER_IDLE,
	LEADER_PREFIX_SPACE,
	LEADER_BIT_START,
	LEADER_BIT_END,
};
_Static_assert(LEADER_BIT_END + 1 == IR_RC6_LEADER_STATES, "the leader's state count");

enum ir_rc6_leader_step ir_rc6_leader_feed(struct ir_rc6_leader *l,
					   const struct ir_rc6_leader_params *p,
					   const struct ir_decode_ctx *ctx, struct ir_edge *ev)
{
	bool pulse = ev->kind == IR_PULSE;

	for (;;) {
		switch (l->state) {
		case LEADER_IDLE:
			if (!pulse || !ir_eq_margin(ev->duration, p->prefix_pulse, p->prefix_margin))
				return IR_RC6_LEADER_FAIL;
			l->start_us = ir_decode_now(ctx);
			l->count = 0;
			l->header = 0;
			l->state = p->prefix_space ? LEADER_PREFIX_SPACE : LEADER_BIT_START;
			return IR_RC6_LEADER_MORE;
		case LEADER_PREFIX_SPACE:
			if (pulse || !ir_eq_margin(ev->duration, p->prefix_space, p->margin))
				return IR_RC6_LEADER_FAIL;
			l->state = LEADER_BIT_START;
			return IR_RC6_LEADER_MORE;
		case LEADER_BIT_START:
			/* a half on its own: the edge is exactly one unit */
			if (!ir_eq_margin(ev->duration, p->unit, p->margin))
				return IR_RC6_LEADER_FAIL;
			l->header = l->header << 1 | pulse;
			l->count++;
			l->state = LEADER_BIT_END;
			return IR_RC6_LEADER_MORE;
		default: /* LEADER_BIT_END: the half may run into the next bit */
			ir_edge_consume(ev, p->unit);
			if (l->count == p->nbits) {
				l->state = LEADER_IDLE;
				return IR_RC6_LEADER_DONE;
			}
			l->state = LEADER_BIT_START;
			if (!ir_geq_margin(ev->duration, p->unit, p->margin))
				return IR_RC6_LEADER_MORE; /* this edge is used up */
			break;
		}
	}
}

enum ir_manchester_step ir_manchester_feed(struct ir_manchester *m, uint32_t unit,
					   uint32_t margin, unsigned max_bits, unsigned final_bits,
					   struct ir_edge *ev)
{
	bool pulse = ev->kind == IR_PULSE;

	if (!m->mid) {
		/* a bit's first half on its own: exactly one unit */
		if (!ir_eq_margin(ev->duration, unit, margin) || m->count >= max_bits)
			return IR_MANCHESTER_FAIL;
		m->bits = m->bits << 1 | pulse;
		m->count++;
		m->mid = true;
		return pulse && m->count == final_bits ? IR_MANCHESTER_DONE : IR_MANCHESTER_NEXT;
	}
	/* the second half may run into the next bit */
	m->mid = false;
	ir_edge_consume(ev, unit);
	if (pulse && !ir_geq_margin(ev->duration, unit, margin) && m->count == final_bits)
		return IR_MANCHESTER_DONE;
	return IR_MANCHESTER_AGAIN;
}
