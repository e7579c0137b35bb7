/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: LIRC's lircd.conf parser on a fresh keymap, then what
 * a parsed remote drives: the first buttons encoded (the "lirc" family's
 * frame builder for every flag) and fed back through the remote's decoder.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ir_decoder.h"
#include "ir_keymap.h"
#include "ir_keymap_loaders.h"

/* Buttons encoded per input: enough to reach raw, coded and repeat paths
 * without letting one input with thousands of buttons stall the run. */
#define FUZZ_KEYS 4

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void ignore_frame(void *userdata, const struct ir_frame *frame)
{
	(void)userdata;
	(void)frame;
}

static void drive(const struct ir_keymap *km)
{
	struct ir_protocol_set used;
	struct ir_decoder *dec;
	struct ir_edge_buf buf = { 0 };

	/* Only the decoders the file names: every built-in decoder on every
	 * encoded frame is fuzz_timing_parse's job, and cost 2/3 of the time. */
	ir_protocol_set_clear(&used);
	ir_keymap_protocols(km, &used);
	if (ir_decoder_new(&used, ignore_frame, NULL, &dec) < 0)
		return;
	if (ir_keymap_attach(km, dec) == 0) {
		for (size_t i = 0; i < ir_keymap_key_count(km) && i < FUZZ_KEYS; i++) {
			const struct ir_keymap_key *k = ir_keymap_key_at(km, i);

			ir_edge_buf_clear(&buf);
			ir_edge_buf_space(&buf, 200000);
			if (ir_keymap_encode(km, ir_keymap_remote_name(km, k->remote), k->key, 1,
					     &buf) == 0)
				ir_decoder_feed_many(dec, buf.edges, buf.len);
		}
		ir_decoder_flush(dec);
	}
	ir_edge_buf_free(&buf);
	ir_decoder_free(dec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ir_keymap *km;
	struct ir_parse_error err;
	/* The parser's contract wants text[len] == '\0'. */
	char *text = malloc(size + 1);

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (ir_keymap_new(&km) == 0) {
		if (ir_keymap_parse_lircd(km, text, size, &err) == 0)
			drive(km);
		ir_keymap_free(km);
	}
	free(text);
	return 0;
}
