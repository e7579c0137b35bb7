/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_decode_ctx.c - the side of the decoder that families call
 * (declared in ir_family.h), over the context the decoder hands them.
 */
#include "ir_decode_ctx.h"

#include <stdarg.h>
#include <stdio.h>

#include "ir_family.h"

bool ir_decode_wants_why(const struct ir_decode_ctx *ctx)
{
	return ctx->why != NULL;
}

void ir_decode_why(struct ir_decode_ctx *ctx, unsigned progress, const char *fmt, ...)
{
	char text[160];
	va_list ap;

	if (!ctx->why)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	ctx->why(ctx->owner, ctx->why_slot, ctx->why_row, progress, text);
}

void ir_decode_why_state(struct ir_decode_ctx *ctx, const char *family,
			 const char *const states[], unsigned state, unsigned bits, bool pulse,
			 uint32_t dur)
{
	if (!ctx->why || (state == 0 && !pulse))
		return;
	if (state == 0)
		ir_decode_why(ctx, 0, "%s: a %u us pulse starts no frame", family, dur);
	else if (!pulse && dur == IR_DURATION_MAX)
		ir_decode_why(ctx, 1 + 2 * bits, "%s: %s, after %u bits: silence", family,
			      states[state], bits);
	else
		ir_decode_why(ctx, 1 + 2 * bits,
			      "%s: %s, after %u bits: %s %u us fits nothing there", family,
			      states[state], bits, pulse ? "pulse" : "space", dur);
}

void ir_decode_set_row(struct ir_decode_ctx *ctx, unsigned row)
{
	ctx->why_row = row;
}

bool ir_decode_enabled(const struct ir_decode_ctx *ctx, enum ir_protocol p)
{
	return ir_protocol_set_has(ctx->enabled, p);
}

const struct ir_protocol_set *ir_decode_enabled_set(const struct ir_decode_ctx *ctx)
{
	return ctx->enabled;
}

const void *ir_decode_params(const struct ir_decode_ctx *ctx)
{
	return ctx->params;
}

uint32_t ir_decode_carrier(const struct ir_decode_ctx *ctx)
{
	return ctx->carrier_hz;
}

bool ir_decode_preferred(const struct ir_decode_ctx *ctx, enum ir_protocol p)
{
	return ctx->preferred && ir_protocol_set_has(ctx->preferred, p);
}

bool ir_decode_space_early(const struct ir_decode_ctx *ctx)
{
	return ctx->early_space;
}

uint64_t ir_decode_now(const struct ir_decode_ctx *ctx)
{
	return ctx->now_us;
}

uint32_t ir_decode_space_before(const struct ir_decode_ctx *ctx)
{
	return ctx->space_before_us;
}

void ir_decode_emit(struct ir_decode_ctx *ctx, enum ir_protocol p, uint64_t scancode,
		    unsigned toggle, uint64_t start_us)
{
	struct ir_frame frame = {
		.protocol = p,
		.flags = toggle ? IR_FRAME_TOGGLE : 0,
		.scancode = scancode,
		.start_us = start_us,
		.end_us = ctx->pulse_end_us,
		.decoder_id = ctx->decoder_id,
	};

	if (!frame.decoder_id && !ir_decode_enabled(ctx, p))
		return;
	ctx->frame(ctx->owner, &frame);
}

void ir_decode_emit_repeat(struct ir_decode_ctx *ctx, const struct ir_protocol_set *of,
			   uint64_t start_us)
{
	ctx->repeat(ctx->owner, of, start_us, ctx->pulse_end_us);
}
