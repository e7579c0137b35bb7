/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_lirc_dev.c - libFuzzer target for what /dev/lircN hands the lirc
 * source: the first byte picks the mode.  Mode2: the rest is read as
 * 32-bit words, converted to edges (each accepted word must convert back
 * to itself, an overflow to its type) and fed to every decoder.  Scancode:
 * the rest is cut into 24-byte struct lirc_scancode records; each accepted
 * one must give a frame with rc-core's protocol number and the scancode
 * unchanged.  (LIRC binary mode2 files: fuzz_timing_parse.)
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ir_decoder.h"
#include "ir_lirc_dev.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void ignore_frame(void *userdata, const struct ir_frame *frame)
{
	(void)userdata;
	(void)frame;
}

static void fuzz_mode2(const uint8_t *data, size_t size)
{
	struct ir_decoder *dec;

	if (ir_decoder_new(NULL, ignore_frame, NULL, &dec) < 0)
		return;
	for (size_t i = 0; i + 4 <= size; i += 4) {
		struct ir_edge e;
		uint32_t word, back;

		memcpy(&word, data + i, 4);
		if (ir_lirc_mode2_to_edge(word, &e) < 0)
			continue;
		/* an overflow's value carries nothing: only its type comes back */
		if (ir_lirc_edge_to_mode2(&e, &back) < 0 || (back ^ word) >> 24 ||
		    (e.kind != IR_OVERFLOW && back != word))
			abort();
		ir_decoder_feed_many(dec, &e, 1);
	}
	ir_decoder_flush(dec);
	ir_decoder_free(dec);
}

static void fuzz_scancode(const uint8_t *data, size_t size)
{
	for (size_t i = 0; i + 24 <= size; i += 24) {
		struct ir_frame f;
		uint64_t scancode;
		uint16_t rc_proto;

		if (ir_lirc_scancode_to_frame(data + i, &f) < 0)
			continue;
		/* struct lirc_scancode: timestamp, flags, rc_proto, keycode, scancode */
		memcpy(&rc_proto, data + i + 10, 2);
		memcpy(&scancode, data + i + 16, 8);
		if ((unsigned)f.protocol != rc_proto || f.scancode != scancode)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	if (data[0] & 1)
		fuzz_scancode(data + 1, size - 1);
	else
		fuzz_mode2(data + 1, size - 1);
	return 0;
}
