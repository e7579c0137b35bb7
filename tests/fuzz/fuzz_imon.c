/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_imon.c - libFuzzer target for the iMON key packet parser.  The first
 * byte picks the product (0xffdc or a newer one), the protocol and the
 * packet length; the rest is cut into packets of that length.  Checked:
 * only 4-, 5- and 8-byte packets are accepted, and every report is
 * well-formed (IMON scancodes fit in 32 bits, MCE ones in rc-core's
 * RC6_MCE layout, releases name a key).
 */
#include <stdint.h>
#include <stdlib.h>

#include "ir_imon.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t lengths[] = { 4, 5, 8, 3 };
	struct ir_imon_parser p;
	size_t len;

	if (size < 1)
		return 0;
	ir_imon_parser_init(&p, (data[0] & 1) ? IMON_PRODUCT_FFDC : 0x0038,
			    (data[0] & 2) ? IR_PROTO_RC6_MCE : IR_PROTO_IMON);
	len = lengths[(data[0] >> 2) & 3];
	data++;
	size--;
	for (size_t i = 0; i + len <= size; i += len) {
		struct ir_imon_key k;
		int r = ir_imon_parse(&p, data + i, len, &k);

		if ((r < 0) != (len == 3))
			abort();
		if (r < 0)
			continue;
		switch (k.kind) {
		case IR_IMON_PRESS:
		case IR_IMON_RELEASE:
			if (k.scancode == 0 || k.scancode > 0xffffffffu)
				abort();
			if (k.protocol == IR_PROTO_RC6_MCE && (k.scancode & 0xf000u))
				abort();
			break;
		case IR_IMON_PANEL:
		case IR_IMON_NONE:
			break;
		default:
			abort();
		}
	}
	return 0;
}
