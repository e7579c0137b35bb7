/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_mceusb_rx.c - libFuzzer target for the MCE USB RX parser.  The first
 * byte picks the transfer size, so packets split across transfers are
 * exercised; the invariant checked is that every timing edge has a
 * non-zero duration within IR_DURATION_MAX.
 */
#include <stdint.h>
#include <stdlib.h>

#include "ir_mceusb.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ir_mceusb_rx *rx = NULL;
	struct ir_edge_buf out = { 0 };
	size_t chunk;

	if (size < 1 || ir_mceusb_rx_new(&rx) < 0)
		return 0;
	chunk = (size_t)data[0] % 64 + 1;
	data++;
	size--;
	for (size_t i = 0; i < size; i += chunk) {
		size_t n = size - i < chunk ? size - i : chunk;

		if (ir_mceusb_rx_feed(rx, data + i, n, &out) < 0)
			break;
	}
	for (size_t i = 0; i < out.len; i++) {
		const struct ir_edge *e = &out.edges[i];

		if (ir_edge_is_timing(e) && (e->duration == 0 || e->duration > IR_DURATION_MAX))
			abort();
	}
	ir_edge_buf_free(&out);
	ir_mceusb_rx_free(rx);
	return 0;
}
