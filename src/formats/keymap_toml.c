/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * keymap_toml.c - ir-keytable's rc_keymaps TOML files.
 *
 * A strict parser for the subset those files use, not a TOML library:
 *
 *   # comment
 *   [[protocols]]                 one remote
 *   name = "..."                  (optional: the protocol name otherwise)
 *   protocol = "nec"              rc-core family, BPF protocol, unknown/other, or
 *                                 irjack's own name ("nubert": ir_keymap_toml.h)
 *   variant = "necx"              (optional) one protocol of the family
 *   header_pulse = 9000           integer parameters of BPF protocols
 *   [protocols.scancodes]
 *   0x04fb = "KEY_POWER"          integer key (hex or decimal) = key name
 *   [[protocols.raw]]             raw protocol only: one per key
 *   keycode = "KEY_POWER"
 *   raw = "+9000 -4500 +560"
 *
 * Values are basic ("...", with \" \\ \b \t \n \f \r \uXXXX \UXXXXXXXX
 * escapes) or literal ('...') strings, integers (decimal or 0x hex, `_`
 * between digits) and true/false for 0/1 parameters.  Anything else
 * (arrays, inline tables, dotted keys, multi-line strings, other tables,
 * duplicate keys) is -EINVAL with its line: a keymap that half loads is
 * worse than one that says what is wrong.
 *
 * Key names that are not Linux input names still load (keycode -1, as
 * ir_keymap_add_key() does for every loader): rc_keymaps may name keys a
 * newer kernel has, and the lircd socket reports the name anyway.
 */
#include "ir_keymap_loaders.h"
#include "ir_keymap_toml.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir_family.h"
#include "ir_generic.h"
#include "ir_util.h"

/* Bounds on input from outside: the largest rc_keymaps file has ~300 keys
 * and its longest line ~90 bytes; a raw key of IR_GENERIC_MAX_RAW_EDGES
 * (2048) durations of up to 7 digits with sign and blank is 18,432 bytes
 * plus `raw = ""`: lines up to 20,480 bytes. */
#define TOML_MAX_LINE 20480
#define TOML_MAX_KEYS 100000
#define TOML_MAX_STRING 1024

enum section {
	SECTION_NONE,      /* before the first [[protocols]] */
	SECTION_PROTOCOL,  /* the [[protocols]] table's own keys */
	SECTION_SCANCODES, /* [protocols.scancodes] */
	SECTION_RAW,       /* one [[protocols.raw]] entry */
};

/* The keys a [[protocols]] table has seen, to refuse duplicates. */
#define SEEN_MAX 32

struct toml_parser {
	struct ir_keymap *km;
	struct ir_parse_error *err;
	unsigned line;
	enum section section;
	size_t keys;
	/* the current [[protocols]] table */
	char name[TOML_MAX_STRING];
	char protocol[TOML_MAX_STRING];
	char variant[TOML_MAX_STRING];
	bool has_name, has_protocol, has_variant;
	char seen[SEEN_MAX][64];
	size_t seen_count;
	struct ir_generic_params *params; /* a BPF protocol's, until handed over */
	/* ...and after: ir_keymap_add_decoder() keeps the pointer; raw keys
	 * are added to it while loading, before anything reads it */
	struct ir_generic_params *last_params;
	bool bound;         /* remote (and decoder) created */
	unsigned remote;
	uint16_t decoder_id;
	enum ir_protocol protos[8];
	size_t proto_count;
	bool had_scancodes, had_raw;
	/* the current [[protocols.raw]] entry */
	char raw_keycode[TOML_MAX_STRING];
	char *raw_text;
	bool has_raw_keycode;
	unsigned raw_line;
};

static int fail(struct toml_parser *t, const char *fmt, ...)
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

/* ---- protocol names ---- */

struct proto_family {
	const char *name;
	enum ir_protocol protos[6];
	size_t count;
};

/* rc-core's protocol families as rc_keymaps name them (ir-keytable accepts
 * both "rc5" and "rc-5" spellings; the first of a family's spellings is
 * the one written, as Debian's rc_keymaps spell it); a key of a family
 * without a variant binds under each of its protocols, as rc-core looks
 * keys up by scancode alone. */
static const struct proto_family families[] = {
	{ "nec", { IR_PROTO_NEC, IR_PROTO_NECX, IR_PROTO_NEC32 }, 3 },
	{ "rc5", { IR_PROTO_RC5, IR_PROTO_RC5X_20 }, 2 },
	{ "rc-5", { IR_PROTO_RC5, IR_PROTO_RC5X_20 }, 2 },
	{ "rc-5-sz", { IR_PROTO_RC5_SZ }, 1 },
	{ "rc5_sz", { IR_PROTO_RC5_SZ }, 1 },
	{ "rc6", { IR_PROTO_RC6_0, IR_PROTO_RC6_6A_20, IR_PROTO_RC6_6A_24, IR_PROTO_RC6_6A_32,
		   IR_PROTO_RC6_MCE }, 5 },
	{ "rc-6", { IR_PROTO_RC6_0, IR_PROTO_RC6_6A_20, IR_PROTO_RC6_6A_24, IR_PROTO_RC6_6A_32,
		    IR_PROTO_RC6_MCE }, 5 },
	{ "sony", { IR_PROTO_SONY12, IR_PROTO_SONY15, IR_PROTO_SONY20 }, 3 },
	{ "jvc", { IR_PROTO_JVC }, 1 },
	{ "sanyo", { IR_PROTO_SANYO }, 1 },
	{ "sharp", { IR_PROTO_SHARP }, 1 },
	{ "xmp", { IR_PROTO_XMP }, 1 },
	{ "rc-mm", { IR_PROTO_RCMM12, IR_PROTO_RCMM24, IR_PROTO_RCMM32 }, 3 },
	{ "rcmm", { IR_PROTO_RCMM12, IR_PROTO_RCMM24, IR_PROTO_RCMM32 }, 3 },
	{ "imon", { IR_PROTO_IMON }, 1 },
	{ "mce_kbd", { IR_PROTO_MCIR2_KBD, IR_PROTO_MCIR2_MSE }, 2 },
	{ "mce-kbd", { IR_PROTO_MCIR2_KBD, IR_PROTO_MCIR2_MSE }, 2 },
	/* rc-core's samsung36 is irjack's samsung (36 bits, same layout) */
	{ "samsung36", { IR_PROTO_SAMSUNG }, 1 },
	{ "cec", { IR_PROTO_CEC }, 1 },
	{ "xbox_dvd", { IR_PROTO_XBOX_DVD }, 1 },
	{ "xbox-dvd", { IR_PROTO_XBOX_DVD }, 1 },
};

/* Names rc_keymaps use for keymaps irjack has no decoder of its own for:
 * bound by scancode alone. */
static const char *const any_protocol_names[] = {
	"unknown", "other", "imon_rsc", "imon-rsc", "tt1500", "rc-mm",
};

static const struct {
	const char *name;
	enum ir_protocol kind;
} bpf_protocols[] = {
	{ "pulse_distance", IR_PROTO_PULSE_DISTANCE },
	{ "pulse_length", IR_PROTO_PULSE_LENGTH },
	{ "manchester", IR_PROTO_MANCHESTER },
	{ "raw", IR_PROTO_RAW },
};

static enum ir_protocol bpf_kind(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(bpf_protocols); i++)
		if (!strcmp(name, bpf_protocols[i].name))
			return bpf_protocols[i].kind;
	return IR_PROTO_UNKNOWN;
}

static const struct proto_family *find_family(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(families); i++)
		if (!strcmp(name, families[i].name))
			return &families[i];
	return NULL;
}

void ir_keymap_toml_protocol_name(enum ir_protocol p, const char **protocol,
				  const char **variant)
{
	const struct ir_protocol_info *info = ir_protocol_get(p);

	*protocol = info ? info->name : NULL;
	*variant = NULL;
	for (size_t i = 0; info && i < ARRAY_SIZE(families); i++)
		for (size_t j = 0; j < families[i].count; j++)
			if (families[i].protos[j] == p) {
				*protocol = families[i].name;
				*variant = families[i].count > 1 ? info->name : NULL;
				return;
			}
}

/*
 * A protocol by irjack's name (`irjack protocols`, and its aliases): that
 * protocol alone.  A parametric one (lirc: a lircd.conf remote's code)
 * says nothing a scancode binding could use: bound by scancode alone, as
 * "unknown".  Returns 0, or -ENOENT for a name irjack does not know.
 */
static int resolve_irjack_name(struct toml_parser *t)
{
	const struct ir_family *family;
	enum ir_protocol p, v;

	if (ir_protocol_from_name(t->protocol, &p) < 0 || !ir_protocol_get(p))
		return -ENOENT;
	if (t->has_variant && (ir_protocol_from_name(t->variant, &v) < 0 || v != p))
		return fail(t, "variant \"%s\" is not a protocol of \"%s\"", t->variant,
			    t->protocol);
	family = ir_protocol_family(p);
	t->protos[0] = family && !family->parametric ? p : IR_KEYMAP_ANY_PROTOCOL;
	t->proto_count = 1;
	return 0;
}

/* Fills t->protos from protocol and variant. */
static int resolve_protocols(struct toml_parser *t)
{
	const struct proto_family *fam = find_family(t->protocol);
	enum ir_protocol v;
	int ret;

	if (!fam) {
		bool any = false;

		for (size_t i = 0; i < ARRAY_SIZE(any_protocol_names); i++)
			any |= !strcmp(t->protocol, any_protocol_names[i]);
		if (!any) {
			ret = resolve_irjack_name(t);
			return ret == -ENOENT ? fail(t, "unknown protocol \"%s\"", t->protocol) : ret;
		}
		if (t->has_variant)
			return fail(t, "protocol \"%s\" has no variants", t->protocol);
		t->protos[0] = IR_KEYMAP_ANY_PROTOCOL;
		t->proto_count = 1;
		return 0;
	}
	if (t->has_variant) {
		bool ok = false;

		if (ir_protocol_from_name(t->variant, &v) == 0)
			for (size_t i = 0; i < fam->count; i++)
				ok |= fam->protos[i] == v;
		if (!ok)
			return fail(t, "variant \"%s\" is not a protocol of \"%s\"", t->variant,
				    t->protocol);
		t->protos[0] = v;
		t->proto_count = 1;
	} else {
		memcpy(t->protos, fam->protos, fam->count * sizeof(fam->protos[0]));
		t->proto_count = fam->count;
	}
	/* a protocol irjack cannot decode (cec, xbox_dvd) still matches by
	 * scancode, whatever decoder reports it */
	for (size_t i = 0; i < t->proto_count; i++)
		if (!ir_protocol_family(t->protos[i])) {
			t->protos[0] = IR_KEYMAP_ANY_PROTOCOL;
			t->proto_count = 1;
			break;
		}
	return 0;
}

/* Creates the remote (and decoder) of the current [[protocols]] table once
 * its own keys are over. */
static int bind_remote(struct toml_parser *t)
{
	const char *why;
	int ret;

	if (t->bound)
		return 0;
	if (!t->has_protocol)
		return fail(t, "[[protocols]] without a protocol");
	ret = ir_keymap_add_remote(t->km, t->has_name ? t->name : t->protocol, &t->remote);
	if (ret)
		return ret;
	t->bound = true;
	if (!t->params)
		return resolve_protocols(t);
	if (t->params->kind != IR_PROTO_RAW && ir_generic_params_check(t->params, &why))
		return fail(t, "%s: %s", t->protocol, why);
	t->protos[0] = t->params->kind;
	t->proto_count = 1;
	ret = ir_keymap_add_decoder(t->km, t->remote, &ir_family_generic, t->params,
				    ir_generic_params_free, &t->decoder_id);
	if (ret) {
		ir_generic_params_free(t->params);
		t->params = NULL;
		return ret;
	}
	t->last_params = t->params;
	t->params = NULL; /* the keymap's now, but still ours to fill (raw) */
	return 0;
}

static struct ir_generic_params *bound_params(struct toml_parser *t)
{
	return t->last_params;
}

static int add_key(struct toml_parser *t, uint64_t scancode, const char *key)
{
	int ret;

	if (t->keys >= TOML_MAX_KEYS)
		return fail(t, "more than %d keys", TOML_MAX_KEYS);
	t->keys++;
	if (!*key)
		return fail(t, "empty key name");
	for (size_t i = 0; i < t->proto_count; i++) {
		ret = ir_keymap_add_key(t->km, t->remote, t->protos[i], t->decoder_id, scancode, key);
		if (ret == -EINVAL)
			return fail(t, "cannot bind scancode 0x%llx", (unsigned long long)scancode);
		if (ret)
			return ret;
	}
	return 0;
}

static int finish_raw(struct toml_parser *t)
{
	struct ir_generic_params *p = bound_params(t);
	const char *why;
	uint64_t scancode;
	unsigned line = t->line;
	int ret;

	if (t->section != SECTION_RAW)
		return 0;
	t->line = t->raw_line;
	if (!t->has_raw_keycode || !t->raw_text) {
		ret = fail(t, "[[protocols.raw]] needs keycode and raw");
		goto out;
	}
	ret = ir_generic_params_add_raw(p, t->raw_text, &scancode, &why);
	if (ret == -EINVAL || ret == -E2BIG)
		ret = fail(t, "raw: %s", why);
	if (!ret)
		ret = add_key(t, scancode, t->raw_keycode);
out:
	t->line = line;
	free(t->raw_text);
	t->raw_text = NULL;
	t->has_raw_keycode = false;
	return ret;
}

/* Ends the current [[protocols]] table. */
static int finish_protocol(struct toml_parser *t)
{
	const char *why;
	int ret;

	ret = finish_raw(t);
	if (ret)
		return ret;
	if (t->section == SECTION_NONE)
		return 0;
	ret = bind_remote(t);
	if (ret)
		return ret;
	if (t->protos[0] == IR_PROTO_RAW) {
		struct ir_generic_params *p = bound_params(t);

		if (ir_generic_params_check(p, &why))
			return fail(t, "raw: %s", why);
	}
	return 0;
}

/* ---- lexing ---- */

static const char *skip_ws(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* After a value: only blanks and a comment may follow. */
static int expect_end(struct toml_parser *t, const char *s)
{
	s = skip_ws(s);
	if (*s && *s != '#')
		return fail(t, "unexpected text after the value: \"%.20s\"", s);
	return 0;
}

static int put_utf8(char *out, size_t *o, size_t cap, unsigned long cp)
{
	unsigned char b[4];
	size_t n;

	if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return -1;
	if (cp < 0x80) {
		b[0] = (unsigned char)cp;
		n = 1;
	} else if (cp < 0x800) {
		b[0] = (unsigned char)(0xc0 | cp >> 6);
		b[1] = (unsigned char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		b[0] = (unsigned char)(0xe0 | cp >> 12);
		b[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
		b[2] = (unsigned char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		b[0] = (unsigned char)(0xf0 | cp >> 18);
		b[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3f));
		b[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
		b[3] = (unsigned char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	if (*o + n >= cap)
		return -2;
	memcpy(out + *o, b, n);
	*o += n;
	return 0;
}

/* Parses a basic or literal string at *ps into out (NUL-terminated). */
static int parse_string(struct toml_parser *t, const char **ps, char *out, size_t cap)
{
	const char *s = *ps;
	char quote = *s++;
	size_t o = 0;

	if (quote != '"' && quote != '\'')
		return fail(t, "expected a string");
	if (s[0] == quote && s[1] == quote)
		return fail(t, "multi-line strings are not supported");
	for (;;) {
		unsigned char c = (unsigned char)*s;

		if (!c)
			return fail(t, "unterminated string");
		if (c == (unsigned char)quote) {
			s++;
			break;
		}
		if (c < 0x20 && c != '\t')
			return fail(t, "control character in a string");
		if (c == 0x7f)
			return fail(t, "control character in a string");
		if (quote == '"' && c == '\\') {
			char e = s[1];
			unsigned long cp = 0;
			int digits = 0;

			s += 2;
			switch (e) {
			case '"': c = '"'; break;
			case '\\': c = '\\'; break;
			case 'b': c = '\b'; break;
			case 't': c = '\t'; break;
			case 'n': c = '\n'; break;
			case 'f': c = '\f'; break;
			case 'r': c = '\r'; break;
			case 'u': digits = 4; break;
			case 'U': digits = 8; break;
			default:
				return fail(t, "invalid escape in a string");
			}
			if (digits) {
				for (int i = 0; i < digits; i++, s++) {
					if (!isxdigit((unsigned char)*s))
						return fail(t, "invalid \\%c escape", e);
					cp = cp * 16 + (unsigned long)(isdigit((unsigned char)*s)
							? *s - '0' : (tolower((unsigned char)*s) - 'a' + 10));
				}
				int r = put_utf8(out, &o, cap, cp);

				if (r == -1)
					return fail(t, "invalid unicode escape");
				if (r)
					return fail(t, "string too long (max %zu bytes)", cap - 1);
				continue;
			}
		} else {
			s++;
		}
		if (o + 1 >= cap)
			return fail(t, "string too long (max %zu bytes)", cap - 1);
		out[o++] = (char)c;
	}
	out[o] = '\0';
	*ps = s;
	return 0;
}

/* An integer: [+-] decimal or 0x hex, `_` only between digits. */
static int parse_int(const char **ps, int64_t *out)
{
	const char *s = *ps;
	bool neg = false, hex = false;
	uint64_t v = 0;
	size_t digits = 0;
	unsigned base = 10;

	if (*s == '+' || *s == '-') {
		neg = *s == '-';
		s++;
	}
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		hex = true;
		base = 16;
		s += 2;
	}
	for (;;) {
		unsigned d;

		if (*s == '_' && digits && isxdigit((unsigned char)s[1]) &&
		    (hex || isdigit((unsigned char)s[1]))) {
			s++;
			continue;
		}
		if (isdigit((unsigned char)*s))
			d = (unsigned)(*s - '0');
		else if (hex && isxdigit((unsigned char)*s))
			d = (unsigned)(tolower((unsigned char)*s) - 'a' + 10);
		else
			break;
		if (v > (UINT64_MAX - d) / base)
			return -ERANGE;
		v = v * base + d;
		digits++;
		s++;
	}
	if (!digits)
		return -EINVAL;
	/* TOML forbids leading zeros in decimals */
	if (!hex && digits > 1 && (*ps)[neg || **ps == '+'] == '0')
		return -EINVAL;
	if (hex && neg)
		return -EINVAL;
	if (!hex && v > (uint64_t)INT64_MAX)
		return -ERANGE;
	*out = hex ? (int64_t)v : (neg ? -(int64_t)v : (int64_t)v);
	*ps = s;
	return 0;
}

/* A bare key: A-Za-z0-9_- */
static size_t bare_key_len(const char *s)
{
	size_t n = 0;

	while (isalnum((unsigned char)s[n]) || s[n] == '_' || s[n] == '-')
		n++;
	return n;
}

/* ---- lines ---- */

static int parse_header(struct toml_parser *t, const char *s)
{
	int ret;

	if (!strncmp(s, "[[protocols]]", 13)) {
		ret = finish_protocol(t);
		if (ret)
			return ret;
		ret = expect_end(t, s + 13);
		if (ret)
			return ret;
		ir_generic_params_free(t->params);
		memset(&t->name, 0, offsetof(struct toml_parser, raw_keycode) -
					    offsetof(struct toml_parser, name));
		t->section = SECTION_PROTOCOL;
		return 0;
	}
	if (!strncmp(s, "[protocols.scancodes]", 21)) {
		if (t->section == SECTION_NONE)
			return fail(t, "[protocols.scancodes] before [[protocols]]");
		if (t->had_scancodes)
			return fail(t, "second [protocols.scancodes] in one [[protocols]]");
		ret = finish_raw(t);
		if (!ret)
			ret = bind_remote(t);
		if (!ret)
			ret = expect_end(t, s + 21);
		if (ret)
			return ret;
		if (t->protos[0] == IR_PROTO_RAW)
			return fail(t, "a raw protocol has [[protocols.raw]] entries, not scancodes");
		t->had_scancodes = true;
		t->section = SECTION_SCANCODES;
		return 0;
	}
	if (!strncmp(s, "[[protocols.raw]]", 17)) {
		if (t->section == SECTION_NONE)
			return fail(t, "[[protocols.raw]] before [[protocols]]");
		ret = finish_raw(t);
		if (!ret)
			ret = bind_remote(t);
		if (!ret)
			ret = expect_end(t, s + 17);
		if (ret)
			return ret;
		if (t->protos[0] != IR_PROTO_RAW)
			return fail(t, "[[protocols.raw]] in a protocol that is not raw");
		t->section = SECTION_RAW;
		t->raw_line = t->line;
		return 0;
	}
	return fail(t, "unsupported table \"%.40s\"", s);
}

static int parse_protocol_key(struct toml_parser *t, const char *key, const char *s)
{
	int64_t v;
	int ret;

	for (size_t i = 0; i < t->seen_count; i++)
		if (!strcmp(t->seen[i], key))
			return fail(t, "duplicate key \"%s\"", key);
	if (t->seen_count == SEEN_MAX)
		return fail(t, "too many keys in [[protocols]]");
	snprintf(t->seen[t->seen_count++], sizeof(t->seen[0]), "%s", key);

	if (!strcmp(key, "name") || !strcmp(key, "protocol") || !strcmp(key, "variant")) {
		char *dst = key[0] == 'n' ? t->name : key[0] == 'p' ? t->protocol : t->variant;

		ret = parse_string(t, &s, dst, TOML_MAX_STRING);
		if (ret)
			return ret;
		if (!*dst)
			return fail(t, "empty %s", key);
		if (key[0] == 'n')
			t->has_name = true;
		else if (key[0] == 'v')
			t->has_variant = true;
		else {
			enum ir_protocol kind = bpf_kind(dst);

			t->has_protocol = true;
			if (kind != IR_PROTO_UNKNOWN) {
				t->params = ir_generic_params_new(kind);
				if (!t->params)
					return -ENOMEM;
			}
		}
		return expect_end(t, s);
	}
	/* an integer parameter of a BPF protocol */
	if (!strncmp(s, "true", 4) && !isalnum((unsigned char)s[4])) {
		v = 1;
		s += 4;
	} else if (!strncmp(s, "false", 5) && !isalnum((unsigned char)s[5])) {
		v = 0;
		s += 5;
	} else {
		ret = parse_int(&s, &v);
		if (ret == -ERANGE)
			return fail(t, "%s: value out of range", key);
		if (ret)
			return fail(t, "%s: expected an integer", key);
	}
	ret = expect_end(t, s);
	if (ret)
		return ret;
	if (!t->has_protocol)
		return fail(t, "%s before protocol", key);
	if (!t->params)
		return fail(t, "protocol \"%s\" takes no parameter \"%s\"", t->protocol, key);
	ret = ir_generic_params_set(t->params, key, v);
	if (ret == -ENOENT)
		return fail(t, "protocol \"%s\" has no parameter \"%s\"", t->protocol, key);
	if (ret)
		return fail(t, "%s: value %lld out of range", key, (long long)v);
	return 0;
}

static int parse_scancode(struct toml_parser *t, const char *s)
{
	char keytext[TOML_MAX_STRING], key[TOML_MAX_STRING];
	const char *k;
	int64_t sc;
	int ret;

	if (*s == '"' || *s == '\'') {
		ret = parse_string(t, &s, keytext, sizeof(keytext));
		if (ret)
			return ret;
	} else {
		size_t n = bare_key_len(s);

		if (!n)
			return fail(t, "expected a scancode");
		memcpy(keytext, s, n);
		keytext[n] = '\0';
		s += n;
	}
	k = keytext;
	ret = parse_int(&k, &sc);
	if (ret || *k)
		return fail(t, "scancode \"%.40s\" is not an integer", keytext);
	if (sc < 0 && keytext[0] == '-')
		return fail(t, "negative scancode");
	s = skip_ws(s);
	if (*s != '=')
		return fail(t, "expected '=' after the scancode");
	s = skip_ws(s + 1);
	ret = parse_string(t, &s, key, sizeof(key));
	if (ret)
		return ret;
	ret = expect_end(t, s);
	if (ret)
		return ret;
	return add_key(t, (uint64_t)sc, key);
}

static int parse_raw_key(struct toml_parser *t, const char *key, const char *s)
{
	char *value;
	int ret;

	if (strcmp(key, "keycode") && strcmp(key, "raw"))
		return fail(t, "[[protocols.raw]] has no key \"%s\"", key);
	if ((key[0] == 'k' && t->has_raw_keycode) || (key[0] == 'r' && t->raw_text))
		return fail(t, "duplicate key \"%s\"", key);
	value = malloc(TOML_MAX_LINE);
	if (!value)
		return -ENOMEM;
	ret = parse_string(t, &s, value, TOML_MAX_LINE);
	if (!ret)
		ret = expect_end(t, s);
	if (!ret && key[0] == 'k') {
		if (strlen(value) >= sizeof(t->raw_keycode)) {
			ret = fail(t, "keycode too long");
		} else {
			strcpy(t->raw_keycode, value);
			t->has_raw_keycode = true;
		}
	} else if (!ret) {
		t->raw_text = value; /* ours now: finish_raw() frees it */
		value = NULL;
	}
	free(value);
	return ret;
}

static int parse_line(struct toml_parser *t, const char *s)
{
	char key[64];
	size_t n;

	s = skip_ws(s);
	if (!*s || *s == '#')
		return 0;
	if (*s == '[')
		return parse_header(t, s);
	switch (t->section) {
	case SECTION_NONE:
		return fail(t, "key outside [[protocols]]");
	case SECTION_SCANCODES:
		return parse_scancode(t, s);
	default:
		break;
	}
	n = bare_key_len(s);
	if (!n)
		return fail(t, "expected a key");
	if (n >= sizeof(key))
		return fail(t, "key too long");
	memcpy(key, s, n);
	key[n] = '\0';
	s = skip_ws(s + n);
	if (*s == '.')
		return fail(t, "dotted keys are not supported");
	if (*s != '=')
		return fail(t, "expected '=' after \"%s\"", key);
	s = skip_ws(s + 1);
	if (!*s || *s == '#')
		return fail(t, "missing value for \"%s\"", key);
	if (t->section == SECTION_RAW)
		return parse_raw_key(t, key, s);
	return parse_protocol_key(t, key, s);
}

int ir_keymap_parse_toml(struct ir_keymap *km, const char *text, size_t len,
			 struct ir_parse_error *err)
{
	struct toml_parser *t = calloc(1, sizeof(*t));
	char *line = malloc(TOML_MAX_LINE + 1);
	size_t pos = 0;
	int ret = 0;

	if (!t || !line) {
		free(t);
		free(line);
		return -ENOMEM;
	}
	t->km = km;
	t->err = err;
	while (pos < len && !ret) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;

		t->line++;
		if (n && text[pos + n - 1] == '\r')
			n--;
		if (n > TOML_MAX_LINE) {
			ret = fail(t, "line longer than %d bytes", TOML_MAX_LINE);
			break;
		}
		memcpy(line, text + pos, n);
		line[n] = '\0';
		if (strlen(line) != n) {
			ret = fail(t, "NUL byte in the file");
			break;
		}
		pos += (nl ? (size_t)(nl - (text + pos)) + 1 : len - pos);
		ret = parse_line(t, line);
	}
	if (!ret) {
		ret = finish_protocol(t);
		if (!ret && t->section == SECTION_NONE)
			ret = fail(t, "no [[protocols]] table");
	}
	ir_generic_params_free(t->params);
	free(t->raw_text);
	free(t);
	free(line);
	return ret;
}
