/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lirc_decode_tool.c - a test helper for the cross-check against LIRC's
 * irsimsend/irsimreceive (test_lircd_irsim.py):
 *
 *   lirc_decode_tool decode CONF < mode2     one line per frame, as lircd's
 *                                           socket: CODE REPEAT KEY REMOTE
 *   lirc_decode_tool encode CONF REMOTE KEY...  the buttons' timings as
 *                                           mode2, each after a 1 s space
 *                                           (irsimreceive needs silence
 *                                           first)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir_keymap.h"
#include "ir_keymap_file.h"
#include "ir_timing_io.h"

struct printer {
	const struct ir_keymap *km;
	unsigned repeat;
	uint16_t last_decoder;
	uint64_t last_code;
	/* lircd reports a frame once, for the first remote that reads it:
	 * the frame waits here until one with another start arrives */
	struct ir_frame pending;
	bool have_pending;
};

static void print_pending(struct printer *p)
{
	const struct ir_frame *f = &p->pending;
	struct ir_key_binding b;

	if (!p->have_pending || !ir_keymap_lookup(p->km, f, &b))
		return;
	p->have_pending = false;
	/* lircd counts frames of a held button in its second field */
	if (f->flags & IR_FRAME_REPEAT && f->decoder_id == p->last_decoder &&
	    f->scancode == p->last_code)
		p->repeat++;
	else
		p->repeat = 0;
	p->last_decoder = f->decoder_id;
	p->last_code = f->scancode;
	printf("%016llx %02x %s %s\n", (unsigned long long)f->scancode, p->repeat & 0xff, b.key,
	       b.remote);
}

static void print_frame(void *userdata, const struct ir_frame *f)
{
	struct printer *p = userdata;
	struct ir_key_binding b;

	if (!f->decoder_id || !ir_keymap_lookup(p->km, f, &b))
		return;
	/* the same light read by two remotes of the file: lircd tries its
	 * remotes in order (by bit count, then file order) and stops at the
	 * first; the file order is what this tool can see */
	if (p->have_pending && p->pending.start_us == f->start_us) {
		if (f->decoder_id < p->pending.decoder_id)
			p->pending = *f;
		return;
	}
	print_pending(p);
	p->pending = *f;
	p->have_pending = true;
}

int main(int argc, char **argv)
{
	struct ir_keymap *km;
	struct ir_keymap_error err = { 0 };
	struct ir_edge_buf buf = { 0 };
	int ret;

	if (argc < 3 || ir_keymap_new(&km) < 0)
		return 2;
	if (ir_keymap_load(km, argv[2], &err) < 0) {
		fprintf(stderr, "%s:%u: %s\n", err.file, err.parse.line, err.parse.message);
		return 2;
	}
	if (strcmp(argv[1], "encode") == 0 && argc >= 5) {
		/* each button after 1 s of silence; one that cannot be encoded
		 * is left out and makes the exit status 1 */
		ret = 0;
		for (int i = 4; i < argc; i++) {
			size_t before = buf.len;
			int eret;

			ir_edge_buf_space(&buf, 1000000);
			eret = ir_keymap_encode(km, argv[3], argv[i], 0, &buf);
			if (eret < 0) {
				buf.len = before;
				fprintf(stderr, "%s: %s\n", argv[i], strerror(-eret));
				ret = eret;
			}
		}
		ir_timing_write_mode2(stdout, buf.edges, buf.len);
	} else if (strcmp(argv[1], "decode") == 0) {
		static char text[16 << 20];
		size_t len = fread(text, 1, sizeof(text) - 1, stdin);
		struct ir_parse_error perr = { 0 };
		struct printer p = { .km = km };
		struct ir_decoder *dec = NULL;

		text[len] = '\0';
		ret = ir_timing_parse(text, len, IR_FORMAT_MODE2, NULL, &buf, &perr);
		if (ret == 0)
			ret = ir_decoder_new(NULL, print_frame, &p, &dec);
		if (ret == 0)
			ret = ir_keymap_attach(km, dec);
		if (ret == 0) {
			ir_decoder_feed_many(dec, buf.edges, buf.len);
			ir_decoder_flush(dec);
			print_pending(&p);
		}
		ir_decoder_free(dec);
	} else {
		ret = -1;
	}
	ir_edge_buf_free(&buf);
	ir_keymap_free(km);
	return ret < 0 ? 1 : 0;
}
