/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_decode_ctx.h - what a family's decode() is handed: the moment, the
 * enabled set, its parameters, and where its frames go.  Internal to
 * libirjack: the decoder (src/decode) fills it, the helpers families call
 * (ir_family.h: ir_decode_emit() ...) read it, so families never call up
 * into the decoder.
 */
#ifndef IRJACK_IR_DECODE_CTX_H
#define IRJACK_IR_DECODE_CTX_H

#include <stdbool.h>
#include <stdint.h>

#include "ir_frame.h"
#include "ir_protocol.h"

struct ir_decode_ctx {
	const struct ir_protocol_set *enabled;
	const void *params;       /* a parametric family's instance; NULL otherwise */
	uint16_t decoder_id;      /* and the id its frames carry; 0 for built-ins */
	uint32_t space_before_us; /* see ir_decode_space_before() */
	uint64_t now_us;          /* start of the edge being decoded */
	uint64_t pulse_end_us;    /* end of the frame if it ends on this edge */
	uint32_t carrier_hz;      /* the source's last carrier report; 0 = unknown */
	/* The space being decoded is the silence so far, handed over before
	 * it ended (ir_decoder_space_elapsed()), not the space edge. */
	bool early_space;
	/* Protocols a loaded keymap names: preferred where only the carrier
	 * would tell two readings apart (see ir_decode_preferred()). */
	const struct ir_protocol_set *preferred;
	/* Where a frame goes (already filtered by the enabled set). */
	void (*frame)(void *owner, const struct ir_frame *frame);
	/* A repeat code that began at start_us and ends at end_us, standing
	 * for the owner's last frame if it was of a protocol in `of`. */
	void (*repeat)(void *owner, const struct ir_protocol_set *of, uint64_t start_us,
		       uint64_t end_us);
	/* Where a family's reason for dropping a frame goes (`irjack decode
	 * -v`); NULL when nobody asked, so families format nothing. */
	void (*why)(void *owner, void *slot, unsigned row, unsigned progress, const char *text);
	void *why_slot;
	/* Which of the family's protocols (index into its protocols[]) the
	 * reasons are about: a table family runs one row per protocol and
	 * keeps a reason per row (ir_decode_set_row()); 0 for the others. */
	unsigned why_row;
	void *owner;
};

#endif
