/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_imon.c - libFuzzer target for the iMON packet parsers.  First byte
 * bit 4 set: the raw-sample parser (fuzz_raw).  Otherwise the first
 * byte picks the product (0xffdc or a newer one), the protocol and the
 * packet length; the rest is cut into packets of that length.  Checked:
 * only 4-, 5- and 8-byte packets are accepted, and every report is
 * well-formed (IMON scancodes fit in 32 bits, MCE ones in rc-core's
 * RC6_MCE layout, releases name a key).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "ir_imon.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The raw-sampling receivers: 8-byte packets of samples; every edge is
 * whole samples, at most IMON_RAW_MAX_EDGES per packet, and a burst's
 * timing starts with a pulse. */
static void fuzz_raw(const uint8_t *data, size_t size)
{
	struct ir_imon_raw raw;
	bool expect_pulse = true;

	ir_imon_raw_init(&raw);
	for (size_t i = 0; i + 8 <= size; i += 8) {
		struct ir_edge out[IMON_RAW_MAX_EDGES];
		int n = ir_imon_raw_feed(&raw, data + i, 8, out);

		if (n < 0 || n > IMON_RAW_MAX_EDGES)
			abort();
		for (int k = 0; k < n; k++) {
			if (out[k].duration % IMON_RAW_SAMPLE_US ||
			    (expect_pulse && out[k].kind != IR_PULSE))
				abort();
			expect_pulse = out[k].kind == IR_TIMEOUT;
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t lengths[] = { 4, 5, 8, 3 };
	struct ir_imon_parser p;
	size_t len;

	if (size < 1)
		return 0;
	if (data[0] & 0x10) {
		fuzz_raw(data + 1, size - 1);
		return 0;
	}
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
