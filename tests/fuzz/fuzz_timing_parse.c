/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: the timing-file readers (mode2 / ir-ctl text, LIRC
 * binary mode2, lircd.conf raw codes, IRMP captures), format chosen by the
 * first byte, and every protocol decoder on what they produce.
 */
#include <stddef.h>
#include <stdint.h>

#include "ir_decoder.h"
#include "ir_timing_io.h"

static void ignore_frame(void *userdata, const struct ir_frame *frame)
{
	(void)userdata;
	(void)frame;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum ir_timing_format formats[] = { IR_FORMAT_AUTO, IR_FORMAT_MODE2,
							 IR_FORMAT_BINARY, IR_FORMAT_LIRCD,
							 IR_FORMAT_IRMP };
	struct ir_timing_parse_opts opts = { .irmp_sample_rate = 10000 };
	struct ir_edge_buf edges = { 0 };
	struct ir_parse_error err;
	struct ir_decoder *dec;

	if (size < 1)
		return 0;
	if (ir_timing_parse(data + 1, size - 1, formats[data[0] % 5], &opts, &edges, &err) == 0 &&
	    ir_decoder_new(NULL, ignore_frame, NULL, &dec) == 0) {
		ir_decoder_feed_many(dec, edges.edges, edges.len);
		ir_decoder_flush(dec);
		ir_decoder_free(dec);
	}
	ir_edge_buf_free(&edges);
	return 0;
}
