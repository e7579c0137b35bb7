/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_frame_format.h - how decoded frames are printed, the same way by every
 * program (decode, listen, the daemon's JSON output).
 *
 * Text:  "   1.234567  nec        0x00ff07  toggle repeat  KEY_X (remote) [source]"
 * JSON:  one object per line, keys in this order (a stable interface):
 *   time      seconds from the start of the input to the frame's first pulse
 *   end       seconds to the end of its last pulse
 *   protocol  rc-core name ("nec", "rc6_mce", ...)
 *   scancode  integer, rc-core layout
 *   toggle    boolean
 *   repeat    boolean (a repeat code standing for the previous frame)
 *   key, remote, source   strings, present only when known
 */
#ifndef IRJACK_IR_FRAME_FORMAT_H
#define IRJACK_IR_FRAME_FORMAT_H

#include <stddef.h>

#include "ir_decoder.h"

/* What the layers above the decoder know about a frame; any field may be
 * NULL. */
struct ir_frame_labels {
	const char *key;
	const char *remote;
	const char *source;
};

/* Write the text or JSON line (with a trailing newline) into buf.  Return
 * the length snprintf would have produced (so >= size means truncated). */
int ir_frame_format_text(const struct ir_frame *frame, const struct ir_frame_labels *labels,
			 char *buf, size_t size);
int ir_frame_format_json(const struct ir_frame *frame, const struct ir_frame_labels *labels,
			 char *buf, size_t size);

/* Appends `s` as a JSON string literal (quotes included) to buf at *pos,
 * never writing past size; *pos advances by the full length.  Control
 * characters, quotes and backslashes are escaped; invalid UTF-8 bytes are
 * replaced by U+FFFD. */
void ir_json_append_string(char *buf, size_t size, size_t *pos, const char *s);

/* snprintf at buf + *pos that never writes past size; *pos advances by the
 * full length, so *pos >= size afterwards means the text was cut. */
void ir_appendf(char *buf, size_t size, size_t *pos, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
