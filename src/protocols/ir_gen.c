/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_gen.c - the encoder helpers every family shares (declared in
 * ir_family.h): pulse-distance, pulse-length and Manchester bit trains.
 * Kept apart from the family table (ir_protocol.c) so that the families,
 * which call these, and the table, which names the families, do not call
 * each other.
 */
#include <errno.h>
#include <stdbool.h>

#include "ir_family.h"

int ir_gen_pulse_distance(struct ir_edge_buf *out, const struct ir_pd_timings *t,
			  unsigned nbits, uint64_t data)
{
	int ret = 0;

	if (t->header_pulse)
		ret |= ir_edge_buf_pulse(out, t->header_pulse);
	if (t->header_space)
		ret |= ir_edge_buf_space(out, t->header_space);
	for (unsigned i = 0; i < nbits; i++) {
		unsigned bit = t->msb_first ? (unsigned)(data >> (nbits - 1 - i)) & 1
					    : (unsigned)(data >> i) & 1;

		ret |= ir_edge_buf_pulse(out, t->bit_pulse);
		ret |= ir_edge_buf_space(out, bit ? t->bit_1_space : t->bit_0_space);
	}
	if (t->trailer_pulse)
		ret |= ir_edge_buf_pulse(out, t->trailer_pulse);
	if (t->trailer_space)
		ret |= ir_edge_buf_space(out, t->trailer_space);
	return ret ? -ENOMEM : 0;
}

int ir_gen_pulse_length(struct ir_edge_buf *out, const struct ir_pl_timings *t,
			unsigned nbits, uint64_t data)
{
	int ret = 0;

	if (t->header_pulse)
		ret |= ir_edge_buf_pulse(out, t->header_pulse);
	if (t->header_space)
		ret |= ir_edge_buf_space(out, t->header_space);
	for (unsigned i = 0; i < nbits; i++) {
		unsigned bit = t->msb_first ? (unsigned)(data >> (nbits - 1 - i)) & 1
					    : (unsigned)(data >> i) & 1;
		bool last = i + 1 == nbits;

		ret |= ir_edge_buf_pulse(out, bit ? t->bit_1_pulse : t->bit_0_pulse);
		ret |= ir_edge_buf_space(out, last && t->trailer_space ? t->trailer_space
								 : t->bit_space);
	}
	return ret ? -ENOMEM : 0;
}

int ir_gen_manchester(struct ir_edge_buf *out, uint32_t half_us, bool one_is_pulse_first,
		      unsigned nbits, uint64_t data)
{
	int ret = 0;

	for (unsigned i = 0; i < nbits; i++) {
		bool bit = (data >> (nbits - 1 - i)) & 1;
		bool pulse_first = bit == one_is_pulse_first;

		if (pulse_first) {
			ret |= ir_edge_buf_pulse(out, half_us);
			ret |= ir_edge_buf_space(out, half_us);
		} else {
			ret |= ir_edge_buf_space(out, half_us);
			ret |= ir_edge_buf_pulse(out, half_us);
		}
	}
	return ret ? -ENOMEM : 0;
}
