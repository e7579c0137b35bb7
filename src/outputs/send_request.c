/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * send_request.c - transmit requests: the two text forms and a flat JSON
 * object.  The JSON reader knows just what a request holds (strings,
 * non-negative integers, one array of integers) and refuses the rest, so
 * its bounds are easy to see: at most IRJACKD_SEND_REQUEST_MAX bytes in,
 * fixed-size fields out, no allocation.
 */
#include "send_request.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct reader {
	const char *p, *end;
	char *error;
	size_t error_size;
	bool failed;
};

static int fail(struct reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct reader *r, const char *fmt, ...)
{
	va_list ap;

	if (!r->failed) {
		r->failed = true;
		va_start(ap, fmt);
		vsnprintf(r->error, r->error_size, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static void skip_space(struct reader *r)
{
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
		r->p++;
}

static bool eat(struct reader *r, char c)
{
	skip_space(r);
	if (r->p < r->end && *r->p == c) {
		r->p++;
		return true;
	}
	return false;
}

static void put_utf8(char *out, size_t size, size_t *n, uint32_t cp)
{
	char b[4];
	size_t len;

	if (cp < 0x80) {
		b[0] = (char)cp;
		len = 1;
	} else if (cp < 0x800) {
		b[0] = (char)(0xc0 | (cp >> 6));
		b[1] = (char)(0x80 | (cp & 0x3f));
		len = 2;
	} else {
		b[0] = (char)(0xe0 | (cp >> 12));
		b[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
		len = 3;
	}
	for (size_t i = 0; i < len; i++) {
		if (*n + 1 < size)
			out[*n] = b[i];
		(*n)++;
	}
}

/* A JSON string into out (NUL-terminated); longer than size-1: error. */
static int read_string(struct reader *r, char *out, size_t size, const char *what)
{
	size_t n = 0;

	if (!eat(r, '"'))
		return fail(r, "%s: expected a string", what);
	while (r->p < r->end && *r->p != '"') {
		unsigned char c = (unsigned char)*r->p++;

		if (c < 0x20)
			return fail(r, "%s: control character in a string", what);
		if (c != '\\') {
			if (n + 1 < size)
				out[n] = (char)c;
			n++;
			continue;
		}
		if (r->p == r->end)
			break;
		c = (unsigned char)*r->p++;
		switch (c) {
		case '"': case '\\': case '/':
			break;
		case 'b': c = '\b'; break;
		case 'f': c = '\f'; break;
		case 'n': c = '\n'; break;
		case 'r': c = '\r'; break;
		case 't': c = '\t'; break;
		case 'u': {
			uint32_t cp = 0;

			for (int i = 0; i < 4; i++, r->p++) {
				char h = r->p < r->end ? *r->p : 0;

				cp <<= 4;
				if (h >= '0' && h <= '9')
					cp |= (uint32_t)(h - '0');
				else if (h >= 'a' && h <= 'f')
					cp |= (uint32_t)(h - 'a' + 10);
				else if (h >= 'A' && h <= 'F')
					cp |= (uint32_t)(h - 'A' + 10);
				else
					return fail(r, "%s: bad \\u escape", what);
			}
			/* surrogates (and NUL) have no place in a name or topic */
			if (!cp || (cp >= 0xd800 && cp <= 0xdfff))
				return fail(r, "%s: \\u%04x not allowed", what, cp);
			put_utf8(out, size, &n, cp);
			continue;
		}
		default:
			return fail(r, "%s: bad escape '\\%c'", what, c);
		}
		if (n + 1 < size)
			out[n] = (char)c;
		n++;
	}
	if (!eat(r, '"'))
		return fail(r, "%s: unterminated string", what);
	if (n >= size)
		return fail(r, "%s: longer than %zu bytes", what, size - 1);
	out[n] = '\0';
	return 0;
}

/* A non-negative JSON integer (no sign, fraction or exponent). */
static int read_uint(struct reader *r, uint64_t max, uint64_t *out, const char *what)
{
	uint64_t v = 0;
	const char *start;

	skip_space(r);
	start = r->p;
	while (r->p < r->end && *r->p >= '0' && *r->p <= '9') {
		unsigned d = (unsigned)(*r->p++ - '0');

		if (v > (UINT64_MAX - d) / 10)
			return fail(r, "%s: number too large", what);
		v = v * 10 + d;
	}
	if (r->p == start || (r->p < r->end && (*r->p == '.' || *r->p == 'e' || *r->p == 'E')))
		return fail(r, "%s: expected a non-negative integer", what);
	if (r->p - start > 1 && *start == '0')
		return fail(r, "%s: leading zero in a JSON number", what);
	if (v > max)
		return fail(r, "%s: %llu is over %llu", what, (unsigned long long)v,
			    (unsigned long long)max);
	*out = v;
	return 0;
}

/* "0x04fb" or "1275" as text (from the text form or a JSON string). */
static int parse_scancode_text(struct reader *r, const char *text, uint64_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	if (!*text || *text == '-' || *text == '+' || *text == ' ')
		return fail(r, "scancode '%s': expected hex like 0x04fb or decimal", text);
	v = strtoull(text, &end, 0);
	if (*end || errno)
		return fail(r, "scancode '%s': expected hex like 0x04fb or decimal", text);
	*out = v;
	return 0;
}

static int set_protocol(struct reader *r, struct irjackd_send_request *req, const char *name)
{
	const struct ir_protocol_info *info;

	if (ir_protocol_from_name(name, &req->protocol) < 0)
		return fail(r, "unknown protocol '%s' (see 'irjack protocols')", name);
	info = ir_protocol_get(req->protocol);
	if (!info->has_encoder)
		return fail(r, "protocol %s has no encoder", info->name);
	return 0;
}

static int check_scancode(struct reader *r, const struct irjackd_send_request *req)
{
	const struct ir_protocol_info *info = ir_protocol_get(req->protocol);

	if (req->scancode & ~info->scancode_mask)
		return fail(r, "scancode 0x%llx has bits outside %s's mask 0x%llx",
			    (unsigned long long)req->scancode, info->name,
			    (unsigned long long)info->scancode_mask);
	return 0;
}

static bool is_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if ((unsigned char)*s <= 0x20 || *s == 0x7f)
			return false;
	return true;
}

/* What a JSON request said besides the fields it fills directly. */
struct json_seen {
	char protocol[64];
	bool has_scancode, has_raw;
};

/* "raw": [d, d, ...] */
static int read_raw(struct reader *r, struct irjackd_send_request *req)
{
	uint64_t v;

	if (!eat(r, '['))
		return fail(r, "raw: expected an array of durations in µs");
	if (eat(r, ']'))
		return 0;
	do {
		if (req->raw_count == IRJACKD_SEND_RAW_MAX)
			return fail(r, "raw: more than %d durations", IRJACKD_SEND_RAW_MAX);
		if (read_uint(r, IRJACKD_SEND_RAW_DURATION_MAX, &v, "raw") < 0)
			return -EINVAL;
		if (!v)
			return fail(r, "raw: a duration of 0 µs");
		req->raw[req->raw_count++] = (uint32_t)v;
	} while (eat(r, ','));
	if (!eat(r, ']'))
		return fail(r, "raw: expected ',' or ']'");
	return 0;
}

/* "scancode": 1234 or "0x4d2" */
static int read_scancode(struct reader *r, struct irjackd_send_request *req)
{
	char text[64];

	if (r->p < r->end && *r->p == '"')
		return read_string(r, text, sizeof(text), "scancode") < 0 ||
				       parse_scancode_text(r, text, &req->scancode) < 0
			       ? -EINVAL
			       : 0;
	return read_uint(r, UINT64_MAX, &req->scancode, "scancode");
}

/* The value of member `key`. */
static int read_member(struct reader *r, const char *key, struct irjackd_send_request *req,
		       struct json_seen *seen)
{
	uint64_t v;

	if (!strcmp(key, "protocol"))
		return read_string(r, seen->protocol, sizeof(seen->protocol), key);
	if (!strcmp(key, "scancode")) {
		seen->has_scancode = true;
		return read_scancode(r, req);
	}
	if (!strcmp(key, "remote"))
		return read_string(r, req->remote, sizeof(req->remote), key);
	if (!strcmp(key, "key"))
		return read_string(r, req->key, sizeof(req->key), key);
	if (!strcmp(key, "reply"))
		return read_string(r, req->reply, sizeof(req->reply), key);
	if (!strcmp(key, "transmitter"))
		return read_string(r, req->transmitter, sizeof(req->transmitter), key);
	if (!strcmp(key, "repeats")) {
		if (read_uint(r, IRJACKD_SEND_REPEATS_MAX, &v, key) < 0)
			return -EINVAL;
		req->repeats = (unsigned)v;
		return 0;
	}
	if (!strcmp(key, "raw")) {
		seen->has_raw = true;
		return read_raw(r, req);
	}
	return fail(r, "unknown key \"%s\" (protocol, scancode, remote, key, raw, "
		       "repeats, reply, transmitter)",
		    key);
}

/* Which request the members make, and whether they make one. */
static int json_kind(struct reader *r, struct irjackd_send_request *req,
		     const struct json_seen *seen)
{
	if (req->reply[0] && (!is_name(req->reply) || strpbrk(req->reply, "+#")))
		return fail(r, "reply: not a topic to publish to");
	if (seen->has_raw + (seen->has_scancode || seen->protocol[0]) +
		    (req->remote[0] || req->key[0]) != 1)
		return fail(r, "give exactly one of: protocol and scancode, remote and key, raw");
	if (seen->has_raw) {
		req->kind = IRJACKD_SEND_RAW;
		if (!req->raw_count)
			return fail(r, "raw: no durations");
		return 0;
	}
	if (seen->protocol[0] || seen->has_scancode) {
		req->kind = IRJACKD_SEND_SCANCODE;
		if (!seen->protocol[0] || !seen->has_scancode)
			return fail(r, "protocol and scancode go together");
		if (set_protocol(r, req, seen->protocol) < 0)
			return -EINVAL;
		return check_scancode(r, req);
	}
	req->kind = IRJACKD_SEND_KEY;
	if (!is_name(req->remote) || !is_name(req->key))
		return fail(r, "remote and key: two names without spaces");
	return 0;
}

static int parse_json(struct reader *r, struct irjackd_send_request *req)
{
	struct json_seen seen = { "", false, false };
	char key[32];

	if (!eat(r, '{'))
		return fail(r, "expected a JSON object");
	if (eat(r, '}'))
		return fail(r, "empty request: give protocol and scancode, remote and key, or raw");
	do {
		if (read_string(r, key, sizeof(key), "key") < 0)
			return -EINVAL;
		if (!eat(r, ':'))
			return fail(r, "expected ':' after \"%s\"", key);
		skip_space(r);
		if (read_member(r, key, req, &seen) < 0)
			return -EINVAL;
	} while (eat(r, ','));
	if (!eat(r, '}'))
		return fail(r, "expected ',' or '}'");
	skip_space(r);
	if (r->p != r->end)
		return fail(r, "text after the JSON object");
	return json_kind(r, req, &seen);
}

/* "nec:0x04fb" or "REMOTE KEY [REPEATS]". */
static int parse_text(struct reader *r, struct irjackd_send_request *req)
{
	char text[IRJACKD_SEND_REQUEST_MAX + 1], *words[4], *save = NULL, *colon;
	size_t len = (size_t)(r->end - r->p), count = 0;

	memcpy(text, r->p, len);
	text[len] = '\0';
	if (memchr(text, '\0', len))
		return fail(r, "a NUL byte in the request");
	for (char *w = strtok_r(text, " \t\r\n", &save); w; w = strtok_r(NULL, " \t\r\n", &save)) {
		if (count == 3)
			return fail(r, "expected PROTOCOL:SCANCODE, REMOTE KEY [REPEATS] or JSON");
		words[count++] = w;
	}
	for (size_t i = 0; i < count; i++)
		for (const char *c = words[i]; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				return fail(r, "a control character in the request");
	if (count == 1 && (colon = strchr(words[0], ':')) && colon != words[0]) {
		*colon = '\0';
		req->kind = IRJACKD_SEND_SCANCODE;
		if (strlen(words[0]) >= 64)
			return fail(r, "unknown protocol '%.20s...'", words[0]);
		if (set_protocol(r, req, words[0]) < 0 ||
		    parse_scancode_text(r, colon + 1, &req->scancode) < 0)
			return -EINVAL;
		return check_scancode(r, req);
	}
	if (count == 2 || count == 3) {
		req->kind = IRJACKD_SEND_KEY;
		if (strlen(words[0]) >= sizeof(req->remote) || strlen(words[1]) >= sizeof(req->key))
			return fail(r, "remote or key name too long");
		strcpy(req->remote, words[0]);
		strcpy(req->key, words[1]);
		if (count == 3) {
			char *end;
			unsigned long n;

			errno = 0;
			n = strtoul(words[2], &end, 10);
			if (*end || errno || words[2][0] == '-' || n > IRJACKD_SEND_REPEATS_MAX)
				return fail(r, "repeats '%s': expected 0 to %d", words[2],
					    IRJACKD_SEND_REPEATS_MAX);
			req->repeats = (unsigned)n;
		}
		return 0;
	}
	return fail(r, "expected PROTOCOL:SCANCODE, REMOTE KEY [REPEATS] or JSON");
}

int irjackd_send_request_parse(const char *payload, size_t len, struct irjackd_send_request *req,
			       char *error, size_t error_size)
{
	struct reader r = { .p = payload, .end = payload + len, .error = error,
			    .error_size = error_size };

	memset(req, 0, sizeof(*req));
	if (error_size)
		error[0] = '\0';
	if (len > IRJACKD_SEND_REQUEST_MAX) {
		snprintf(error, error_size, "request of %zu bytes: at most %d", len,
			 IRJACKD_SEND_REQUEST_MAX);
		return -EMSGSIZE;
	}
	skip_space(&r);
	if (r.p == r.end)
		return fail(&r, "empty request");
	if (*r.p == '{')
		return parse_json(&r, req);
	return parse_text(&r, req);
}
