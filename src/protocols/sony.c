/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sony.c - placeholder until the family is written. */
#include "../ir_family.h"

static void stub_reset(void *state)
{
	(void)state;
}

static void stub_decode(void *state, struct ir_decode_ctx *ctx, const struct ir_edge *e)
{
	(void)state;
	(void)ctx;
	(void)e;
}

const struct ir_family ir_family_sony = {
	.name = "sony",
	.protocols = NULL,
	.protocol_count = 0,
	.state_size = 1,
	.reset = stub_reset,
	.decode = stub_decode,
};
