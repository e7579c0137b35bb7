/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * keymap_toml.c - ir-keytable's rc_keymaps TOML files.
 *
 * No C TOML library is packaged in Debian, so this is a small strict parser
 * of what rc_keymaps use: comments, the [[protocols]] array of tables with
 * its [protocols.scancodes] table, bare or quoted keys, integer keys (the
 * scancodes, decimal or 0x hex), and string ('...' or "...") or integer
 * values.  Anything else is an error naming its line.
 *
 * Protocol names are ir-keytable's, with its `variant`: nec (nec, necx,
 * nec32), rc5 / rc-5 (rc5, rc5x_20, rc5_sz), rc-5-sz, rc6 (rc6_0,
 * rc6_6a_20/24/32, rc6_mce), sony (sony12/15/20), jvc, sanyo, sharp, xmp,
 * rcmm (rcmm12/24/32), imon, mce_kbd, samsung36 (irjack's samsung).  A
 * family named without a variant binds its buttons under every variant
 * (rc-core looks keys up by scancode alone).  Keymaps whose protocol is
 * "unknown", "other" or one irjack does not have (cec, xbox_dvd, imon_rsc)
 * bind under IR_KEYMAP_ANY_PROTOCOL.  The timing-described protocols
 * (pulse_distance, pulse_length, manchester, raw) load, with their
 * parameters checked for being numbers, but have no decoder yet: their
 * buttons are bound to a protocol no frame carries (TODO: generic decoders).
 * Key names that are not Linux key names load with keycode -1, as
 * ir-keytable only warns about them.
 */
#include "ir_keymap_loaders.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOML_LINE_MAX 4096
#define TOML_KEYS_MAX 100000
#define TOML_STRING_MAX 256

enum table {
	TABLE_NONE,
	TABLE_PROTOCOL,
	TABLE_SCANCODES,
	TABLE_RAW,
};

struct protocol_entry {
	bool open;
	unsigned line;
	char name[TOML_STRING_MAX];
	char protocol[TOML_STRING_MAX];
	char variant[TOML_STRING_MAX];
	bool have_protocol;
	bool remote_added;
	unsigned remote;
	enum ir_protocol bind[8];
	unsigned bind_count;
};

struct toml {
	struct ir_keymap *km;
	struct ir_parse_error *err;
	unsigned line;
	enum table table;
	struct protocol_entry entry;
	unsigned keys;
};

static int fail(struct toml *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct toml *t, const char *fmt, ...)
{
	va_list ap;

	if (t->err) {
		t->err->line = t->line;
		va_start(ap, fmt);
		vsnprintf(t->err->message, sizeof(t->err->message), fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static const char *skip_blank(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* After a value: blanks, then a comment or the end. */
static int expect_end(struct toml *t, const char *p)
{
	p = skip_blank(p);
	if (*p && *p != '#')
		return fail(t, "unexpected '%c' after the value", *p);
	return 0;
}

/* A string value into out; *pp advances past it. */
static int parse_string(struct toml *t, const char **pp, char *out, size_t size)
{
	const char *p = *pp;
	char quote = *p++;
	size_t n = 0;

	while (*p && *p != quote) {
		char c = *p++;

		if (quote == '"' && c == '\\') {
			switch (*p++) {
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			case '"': c = '"'; break;
			case '\\': c = '\\'; break;
			default:
				return fail(t, "unsupported escape in a string");
			}
		} else if ((unsigned char)c < 0x20) {
			return fail(t, "control character in a string");
		}
		if (n + 1 >= size)
			return fail(t, "string longer than %zu characters", size - 1);
		out[n++] = c;
	}
	if (*p != quote)
		return fail(t, "unterminated string");
	out[n] = '\0';
	*pp = p + 1;
	return 0;
}

/* An integer (decimal, 0x hex, 0o octal, 0b binary; '_' separators). */
static int parse_integer(struct toml *t, const char **pp, uint64_t *out)
{
	const char *p = *pp;
	char digits[80];
	size_t n = 0;
	int base = 10;
	char *end;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		base = 16;
	else if (p[0] == '0' && p[1] == 'o')
		base = 8;
	else if (p[0] == '0' && p[1] == 'b')
		base = 2;
	if (base != 10)
		p += 2;
	while (isalnum((unsigned char)*p) || *p == '_') {
		if (*p != '_') {
			if (n + 1 >= sizeof(digits))
				return fail(t, "number too long");
			digits[n++] = *p;
		}
		p++;
	}
	digits[n] = '\0';
	if (!n)
		return fail(t, "expected a number");
	errno = 0;
	*out = strtoull(digits, &end, base);
	if (*end || errno)
		return fail(t, "'%s' is not a valid %s number", digits,
			    base == 16 ? "hexadecimal" : base == 8 ? "octal" : base == 2 ? "binary" : "decimal");
	*pp = p;
	return 0;
}

static void bind_list(struct protocol_entry *e, const enum ir_protocol *list, unsigned n)
{
	for (unsigned i = 0; i < n && e->bind_count < 8; i++)
		e->bind[e->bind_count++] = list[i];
}

/* Which irjack protocols an entry's buttons are bound under. */
static int resolve_protocol(struct toml *t, struct protocol_entry *e)
{
	static const struct {
		const char *name;
		enum ir_protocol list[5];
		unsigned count;
	} families[] = {
		{ "nec", { IR_PROTO_NEC, IR_PROTO_NECX, IR_PROTO_NEC32 }, 3 },
		{ "rc5", { IR_PROTO_RC5, IR_PROTO_RC5X_20, IR_PROTO_RC5_SZ }, 3 },
		{ "rc-5", { IR_PROTO_RC5, IR_PROTO_RC5X_20, IR_PROTO_RC5_SZ }, 3 },
		{ "rc-5-sz", { IR_PROTO_RC5_SZ }, 1 },
		{ "rc6", { IR_PROTO_RC6_0, IR_PROTO_RC6_6A_20, IR_PROTO_RC6_6A_24, IR_PROTO_RC6_6A_32,
			   IR_PROTO_RC6_MCE }, 5 },
		{ "sony", { IR_PROTO_SONY12, IR_PROTO_SONY15, IR_PROTO_SONY20 }, 3 },
		{ "rcmm", { IR_PROTO_RCMM12, IR_PROTO_RCMM24, IR_PROTO_RCMM32 }, 3 },
		{ "mce_kbd", { IR_PROTO_MCIR2_KBD, IR_PROTO_MCIR2_MSE }, 2 },
		{ "samsung36", { IR_PROTO_SAMSUNG }, 1 },
		{ "pulse_distance", { IR_PROTO_PULSE_DISTANCE }, 1 },
		{ "pulse_length", { IR_PROTO_PULSE_LENGTH }, 1 },
		{ "manchester", { IR_PROTO_MANCHESTER }, 1 },
		{ "raw", { IR_PROTO_RAW }, 1 },
	};
	enum ir_protocol p;

	if (!e->have_protocol)
		return fail(t, "[[protocols]] entry from line %u has no 'protocol'", e->line);
	if (e->variant[0]) {
		if (ir_protocol_from_name(e->variant, &p) < 0)
			return fail(t, "unknown variant '%s' of protocol '%s'", e->variant, e->protocol);
		bind_list(e, &p, 1);
		return 0;
	}
	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++) {
		if (!strcmp(e->protocol, families[i].name)) {
			bind_list(e, families[i].list, families[i].count);
			return 0;
		}
	}
	if (ir_protocol_from_name(e->protocol, &p) == 0 && p < 32) {
		bind_list(e, &p, 1);
		return 0;
	}
	p = IR_KEYMAP_ANY_PROTOCOL;
	bind_list(e, &p, 1);
	return 0;
}

static int ensure_remote(struct toml *t)
{
	struct protocol_entry *e = &t->entry;
	int ret;

	if (e->remote_added)
		return 0;
	ret = resolve_protocol(t, e);
	if (ret < 0)
		return ret;
	ret = ir_keymap_add_remote(t->km, e->name[0] ? e->name : e->protocol, &e->remote);
	if (ret < 0)
		return ret;
	e->remote_added = true;
	return 0;
}

/* End of a [[protocols]] entry: an entry without scancodes is still a
 * remote (ir-keytable loads protocol-only keymaps). */
static int close_entry(struct toml *t)
{
	int ret = 0;

	if (t->entry.open)
		ret = ensure_remote(t);
	memset(&t->entry, 0, sizeof(t->entry));
	return ret;
}

static int header(struct toml *t, const char *p)
{
	bool array = p[1] == '[';
	const char *name = skip_blank(p + (array ? 2 : 1));
	const char *end = strchr(name, ']');
	char table[64];
	size_t n;
	int ret;

	if (!end || (array && end[1] != ']'))
		return fail(t, "unterminated table header");
	n = (size_t)(end - name);
	while (n && (name[n - 1] == ' ' || name[n - 1] == '\t'))
		n--;
	if (n >= sizeof(table))
		return fail(t, "table name too long");
	memcpy(table, name, n);
	table[n] = '\0';
	ret = expect_end(t, end + (array ? 2 : 1));
	if (ret < 0)
		return ret;
	if (array && !strcmp(table, "protocols")) {
		ret = close_entry(t);
		if (ret < 0)
			return ret;
		t->entry.open = true;
		t->entry.line = t->line;
		t->table = TABLE_PROTOCOL;
		return 0;
	}
	if (!t->entry.open)
		return fail(t, "[%s] outside a [[protocols]] entry", table);
	if (!array && !strcmp(table, "protocols.scancodes")) {
		t->table = TABLE_SCANCODES;
		return ensure_remote(t);
	}
	if (array && !strcmp(table, "protocols.raw")) {
		t->table = TABLE_RAW;
		return ensure_remote(t);
	}
	return fail(t, "unknown table [%s%s%s] (rc_keymaps use [[protocols]], "
		    "[protocols.scancodes] and [[protocols.raw]])",
		    array ? "[" : "", table, array ? "]" : "");
}

static int protocol_key(struct toml *t, const char *key, const char *p)
{
	struct protocol_entry *e = &t->entry;
	char *dst = NULL;
	uint64_t v;

	if (!strcmp(key, "name"))
		dst = e->name;
	else if (!strcmp(key, "protocol"))
		dst = e->protocol;
	else if (!strcmp(key, "variant"))
		dst = e->variant;
	if (dst) {
		int ret;

		if (e->remote_added)
			return fail(t, "'%s' after the scancodes", key);
		if (*p != '"' && *p != '\'')
			return fail(t, "'%s' must be a string", key);
		ret = parse_string(t, &p, dst, TOML_STRING_MAX);
		if (ret == 0 && dst == e->protocol)
			e->have_protocol = true;
		return ret < 0 ? ret : expect_end(t, p);
	}
	/* the timing parameters of the BPF protocols: numbers */
	if (*p == '"' || *p == '\'')
		return fail(t, "parameter '%s' must be a number", key);
	if (parse_integer(t, &p, &v) < 0)
		return -EINVAL;
	return expect_end(t, p);
}

static int scancode_key(struct toml *t, const char *p)
{
	char key[TOML_STRING_MAX];
	uint64_t scancode;
	int ret;

	if (*p == '"' || *p == '\'') {
		/* a quoted scancode: "0x1e01" = ... */
		char quoted[TOML_STRING_MAX];
		const char *q = quoted;

		ret = parse_string(t, &p, quoted, sizeof(quoted));
		if (ret < 0)
			return ret;
		if (parse_integer(t, &q, &scancode) < 0 || *q)
			return fail(t, "scancode '%s' is not a number", quoted);
	} else if (parse_integer(t, &p, &scancode) < 0) {
		return -EINVAL;
	}
	p = skip_blank(p);
	if (*p++ != '=')
		return fail(t, "expected '=' after the scancode");
	p = skip_blank(p);
	if (*p != '"' && *p != '\'')
		return fail(t, "expected a key name in quotes");
	ret = parse_string(t, &p, key, sizeof(key));
	if (ret < 0)
		return ret;
	ret = expect_end(t, p);
	if (ret < 0)
		return ret;
	if (!key[0])
		return fail(t, "empty key name");
	if (++t->keys > TOML_KEYS_MAX)
		return fail(t, "more than %d keys", TOML_KEYS_MAX);
	for (unsigned i = 0; i < t->entry.bind_count; i++) {
		ret = ir_keymap_add_key(t->km, t->entry.remote, t->entry.bind[i], 0, scancode, key);
		if (ret < 0)
			return ret == -ENOMEM ? ret : fail(t, "cannot bind '%s'", key);
	}
	return 0;
}

static int line(struct toml *t, const char *p)
{
	char key[64];
	size_t n = 0;

	p = skip_blank(p);
	if (!*p || *p == '#')
		return 0;
	if (*p == '[')
		return header(t, p);
	if (t->table == TABLE_SCANCODES)
		return scancode_key(t, p);
	if (t->table == TABLE_NONE)
		return fail(t, "key outside a [[protocols]] entry");
	while (isalnum((unsigned char)*p) || *p == '_' || *p == '-') {
		if (n + 1 >= sizeof(key))
			return fail(t, "key too long");
		key[n++] = *p++;
	}
	key[n] = '\0';
	if (!n)
		return fail(t, "expected a key");
	p = skip_blank(p);
	if (*p++ != '=')
		return fail(t, "expected '=' after '%s'", key);
	p = skip_blank(p);
	if (t->table == TABLE_RAW) {
		/* keycode = "KEY_X", raw = "+9000 -4500 ...": checked, not
		 * decoded yet (see the top) */
		char value[TOML_LINE_MAX];

		if (*p != '"' && *p != '\'')
			return fail(t, "'%s' must be a string", key);
		if (parse_string(t, &p, value, sizeof(value)) < 0)
			return -EINVAL;
		return expect_end(t, p);
	}
	return protocol_key(t, key, p);
}

int ir_keymap_parse_toml(struct ir_keymap *km, const char *text, size_t len,
			 struct ir_parse_error *err)
{
	struct toml t = { .km = km, .err = err };
	const char *p = text, *end = text + len;
	char buf[TOML_LINE_MAX + 1];

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		int ret;

		t.line++;
		if (n > TOML_LINE_MAX)
			return fail(&t, "line longer than %d bytes", TOML_LINE_MAX);
		memcpy(buf, p, n);
		if (n && buf[n - 1] == '\r')
			n--;
		buf[n] = '\0';
		if (memchr(buf, '\0', n))
			return fail(&t, "NUL byte in the file");
		ret = line(&t, buf);
		if (ret < 0)
			return ret;
		p = nl ? nl + 1 : end;
	}
	if (!t.entry.open && ir_keymap_remote_count(km) == 0)
		return fail(&t, "no [[protocols]] entry");
	return close_entry(&t);
}
