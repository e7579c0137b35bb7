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
 *   rc_protocol, rc_scancode   rc-core's reading of the same light, present
 *             only when it differs from protocol/scancode (samsung32 ->
 *             necx, apple -> nec32, pioneer -> nec, nec42 -> sanyo, rc6a ->
 *             rc6_6a_32 ...; see ir_frame_rc_reading())
 *   key, remote, source   strings, present only when known
 */
#ifndef IRJACK_IR_FRAME_FORMAT_H
#define IRJACK_IR_FRAME_FORMAT_H

#include <stdbool.h>
#include <stddef.h>

#include "ir_decoder.h"

/* What the layers above the decoder know about a frame; any field may be
 * NULL. */
struct ir_frame_labels {
	const char *key;
	const char *remote;
	const char *source;
};

/*
 * rc-core's reading of `frame` (ir_protocol_rc_core_view()), for consumers
 * written against the kernel's names: true, with *proto and *scancode set, when
 * the frame is a built-in protocol's (not a keymap decoder's) and rc-core
 * would report other numbers for the same light; false when rc-core has
 * no reading or it is the frame itself.
 */
bool ir_frame_rc_reading(const struct ir_frame *frame, enum ir_protocol *proto,
			 uint64_t *scancode);

/* Appends `,"rc_protocol":"...","rc_scancode":N` when ir_frame_rc_reading()
 * gives one (nothing otherwise), at buf + *pos as ir_appendf() does; with
 * `hex` the scancode is a string as ir_frame_scancode_hex() writes one
 * (MQTT payloads), else an integer (JSON lines). */
void ir_frame_append_rc_json(const struct ir_frame *frame, bool hex, char *buf, size_t size,
			     size_t *pos);

/* The scancode as IR tools write it: "0x" and as many hex digits as the
 * protocol's widest scancode has (nec: "0x04fb"), into `buf`. */
void ir_frame_scancode_hex(const struct ir_frame *frame, char *buf, size_t size);

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
