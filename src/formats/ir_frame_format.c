/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "ir_frame_format.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ir_protocol.h"

void ir_appendf(char *buf, size_t size, size_t *pos, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(*pos < size ? buf + *pos : NULL, *pos < size ? size - *pos : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		*pos += (size_t)n;
}

static void append_char(char *buf, size_t size, size_t *pos, char ch)
{
	if (*pos + 1 < size) {
		buf[*pos] = ch;
		buf[*pos + 1] = '\0';
	}
	(*pos)++;
}

/* Length of the valid UTF-8 sequence at s, or 0 if it is not one. */
static size_t utf8_sequence_length(const unsigned char *s)
{
	size_t n;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0) {
		n = 2;
		cp = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		n = 3;
		cp = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

void ir_json_append_string(char *buf, size_t size, size_t *pos, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	append_char(buf, size, pos, '"');
	while (*p) {
		size_t n = utf8_sequence_length(p);

		if (*p == '"' || *p == '\\') {
			append_char(buf, size, pos, '\\');
			append_char(buf, size, pos, (char)*p);
			p++;
		} else if (*p < 0x20) {
			ir_appendf(buf, size, pos, "\\u%04x", *p);
			p++;
		} else if (n == 0) {
			ir_appendf(buf, size, pos, "\\ufffd");
			p++;
		} else {
			for (size_t i = 0; i < n; i++)
				append_char(buf, size, pos, (char)p[i]);
			p += n;
		}
	}
	append_char(buf, size, pos, '"');
}

/* Hex digits needed for the protocol's widest scancode. */
static int scancode_digits(enum ir_protocol p)
{
	const struct ir_protocol_info *info = ir_protocol_get(p);
	uint64_t mask = info ? info->scancode_mask : UINT64_MAX;
	int digits = 1;

	while (digits < 16 && (mask >> (4 * digits)))
		digits++;
	return digits;
}

void ir_frame_scancode_hex(const struct ir_frame *frame, char *buf, size_t size)
{
	snprintf(buf, size, "0x%0*" PRIx64, scancode_digits(frame->protocol), frame->scancode);
}

static const char *protocol_name(enum ir_protocol p)
{
	const struct ir_protocol_info *info = ir_protocol_get(p);

	return info ? info->name : "unknown";
}

int ir_frame_format_text(const struct ir_frame *frame, const struct ir_frame_labels *labels,
			 char *buf, size_t size)
{
	size_t pos = 0;

	if (size)
		buf[0] = '\0';
	ir_appendf(buf, size, &pos, "%12.6f  %-10s 0x%0*" PRIx64, (double)frame->start_us / 1e6,
	       protocol_name(frame->protocol), scancode_digits(frame->protocol), frame->scancode);
	if (frame->flags & IR_FRAME_TOGGLE)
		ir_appendf(buf, size, &pos, " toggle");
	if (frame->flags & IR_FRAME_REPEAT)
		ir_appendf(buf, size, &pos, " repeat");
	if (labels && labels->key)
		ir_appendf(buf, size, &pos, "  %s", labels->key);
	if (labels && labels->remote)
		ir_appendf(buf, size, &pos, " (%s)", labels->remote);
	if (labels && labels->source)
		ir_appendf(buf, size, &pos, " [%s]", labels->source);
	ir_appendf(buf, size, &pos, "\n");
	return (int)pos;
}

bool ir_frame_rc_reading(const struct ir_frame *frame, enum ir_protocol *proto,
			 uint64_t *scancode)
{
	if (frame->decoder_id ||
	    !ir_protocol_rc_core_view(frame->protocol, frame->scancode, proto, scancode))
		return false;
	return *proto != frame->protocol || *scancode != frame->scancode;
}

void ir_frame_append_rc_json(const struct ir_frame *frame, bool hex, char *buf, size_t size,
			     size_t *pos)
{
	enum ir_protocol rp;
	uint64_t rs;

	if (!ir_frame_rc_reading(frame, &rp, &rs))
		return;
	ir_appendf(buf, size, pos, ",\"rc_protocol\":");
	ir_json_append_string(buf, size, pos, protocol_name(rp));
	if (hex)
		ir_appendf(buf, size, pos, ",\"rc_scancode\":\"0x%0*" PRIx64 "\"", scancode_digits(rp),
			   rs);
	else
		ir_appendf(buf, size, pos, ",\"rc_scancode\":%" PRIu64, rs);
}

int ir_frame_format_json(const struct ir_frame *frame, const struct ir_frame_labels *labels,
			 char *buf, size_t size)
{
	size_t pos = 0;
	char hex[24];

	if (size)
		buf[0] = '\0';
	ir_appendf(buf, size, &pos, "{\"time\":%.6f,\"end\":%.6f,\"protocol\":",
	       (double)frame->start_us / 1e6, (double)frame->end_us / 1e6);
	ir_json_append_string(buf, size, &pos, protocol_name(frame->protocol));
	ir_frame_scancode_hex(frame, hex, sizeof(hex));
	/* the integer stays (a stable interface); the hex string beside it is
	 * what every IR tool prints */
	ir_appendf(buf, size, &pos,
		   ",\"scancode\":%" PRIu64 ",\"scancode_hex\":\"%s\",\"toggle\":%s,\"repeat\":%s",
		   frame->scancode, hex, frame->flags & IR_FRAME_TOGGLE ? "true" : "false",
		   frame->flags & IR_FRAME_REPEAT ? "true" : "false");
	ir_frame_append_rc_json(frame, false, buf, size, &pos);
	if (labels && labels->key) {
		ir_appendf(buf, size, &pos, ",\"key\":");
		ir_json_append_string(buf, size, &pos, labels->key);
	}
	if (labels && labels->remote) {
		ir_appendf(buf, size, &pos, ",\"remote\":");
		ir_json_append_string(buf, size, &pos, labels->remote);
	}
	if (labels && labels->source) {
		ir_appendf(buf, size, &pos, ",\"source\":");
		ir_json_append_string(buf, size, &pos, labels->source);
	}
	ir_appendf(buf, size, &pos, "}\n");
	return (int)pos;
}
