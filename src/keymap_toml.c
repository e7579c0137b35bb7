/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * keymap_toml.c - ir-keytable's rc_keymaps TOML, the strict subset those
 * files use: comments, [[protocols]], [protocols.scancodes],
 * [[protocols.raw]], bare or quoted keys, decimal/0x integers, true/false,
 * basic and literal strings.  Anything else is -EINVAL with its line.
 *
 * Protocol binding:
 *  - a family name with a variant binds under that variant's protocol;
 *  - a family name alone ("nec", "rc5", "rc6", "sony", "rcmm") binds under
 *    every protocol of the family, since rc-core looks keys up by scancode;
 *  - "unknown", "other", and names irjack has no decoder for (cec,
 *    xbox_dvd, imon_rsc, and for now the BPF protocols pulse_distance,
 *    pulse_length, manchester, samsung36) bind under
 *    IR_KEYMAP_ANY_PROTOCOL, so the file still loads.
 *  - [[protocols.raw]] entries are checked but not bound: irjack has no raw
 *    matcher yet.
 * Unknown KEY_ names load (keycode -1), as ir-keytable only warns.
 */
#include "ir_keymap_loaders.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOML_LINE_MAX 4096
#define TOML_KEYS_MAX 100000
#define TOML_STR_MAX 256

enum section { SEC_NONE, SEC_PROTOCOL, SEC_SCANCODES, SEC_RAW };

struct entry {
	bool open;
	bool bound; /* remote created */
	char name[TOML_STR_MAX];
	char protocol[TOML_STR_MAX];
	char variant[TOML_STR_MAX];
	unsigned remote;
	enum ir_protocol protos[8];
	size_t nprotos;
};

struct parser {
	struct ir_keymap *km;
	struct ir_parse_error *err;
	unsigned line;
	enum section sec;
	struct entry e;
	size_t keys;
};

static int fail(struct parser *p, const char *fmt, ...)
{
	if (p->err) {
		va_list ap;
		int n;

		p->err->line = p->line;
		n = snprintf(p->err->message, sizeof(p->err->message), "line %u: ", p->line);
		if (n < 0 || (size_t)n >= sizeof(p->err->message))
			n = 0;
		va_start(ap, fmt);
		vsnprintf(p->err->message + n, sizeof(p->err->message) - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static const char *skip_ws(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* Only whitespace or a comment may follow a value or header. */
static bool at_line_end(const char *s)
{
	s = skip_ws(s);
	return *s == '\0' || *s == '#';
}

enum vtype { V_INT, V_STR, V_BOOL };
struct value {
	enum vtype type;
	uint64_t num;
	char str[TOML_STR_MAX];
};

static int parse_int(struct parser *p, const char **sp, uint64_t *out)
{
	const char *s = *sp;
	uint64_t v = 0;
	unsigned base = 10;
	bool any = false;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	for (;; s++) {
		unsigned d;

		if (*s == '_' && any && isxdigit((unsigned char)s[1]))
			continue; /* TOML allows 1_000 */
		if (*s >= '0' && *s <= '9')
			d = (unsigned)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = (unsigned)(*s - 'a' + 10);
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = (unsigned)(*s - 'A' + 10);
		else
			break;
		if (v > (UINT64_MAX - d) / base)
			return fail(p, "integer out of range");
		v = v * base + d;
		any = true;
	}
	if (!any)
		return fail(p, "expected an integer");
	*sp = s;
	*out = v;
	return 0;
}

static int parse_string(struct parser *p, const char **sp, char *out, size_t cap)
{
	const char *s = *sp;
	char q = *s++;
	size_t n = 0;

	for (;;) {
		char c = *s++;

		if (c == '\0')
			return fail(p, "unterminated string");
		if (c == q)
			break;
		if (q == '"' && c == '\\') {
			switch (*s++) {
			case 'b': c = '\b'; break;
			case 't': c = '\t'; break;
			case 'n': c = '\n'; break;
			case 'f': c = '\f'; break;
			case 'r': c = '\r'; break;
			case '"': c = '"'; break;
			case '\\': c = '\\'; break;
			default: return fail(p, "unsupported escape in string");
			}
		} else if ((unsigned char)c < 0x20 && c != '\t') {
			return fail(p, "control character in string");
		}
		if (n + 1 >= cap)
			return fail(p, "string longer than %zu bytes", cap - 1);
		out[n++] = c;
	}
	out[n] = '\0';
	*sp = s;
	return 0;
}

static int parse_value(struct parser *p, const char **sp, struct value *v)
{
	const char *s = *sp;
	int ret;

	if (*s == '"' || *s == '\'') {
		v->type = V_STR;
		ret = parse_string(p, &s, v->str, sizeof(v->str));
	} else if (!strncmp(s, "true", 4) || !strncmp(s, "false", 5)) {
		v->type = V_BOOL;
		v->num = s[0] == 't';
		s += s[0] == 't' ? 4 : 5;
		ret = 0;
	} else if (isdigit((unsigned char)*s)) {
		v->type = V_INT;
		ret = parse_int(p, &s, &v->num);
	} else {
		return fail(p, "expected a value (integer or string)");
	}
	if (ret)
		return ret;
	if (!at_line_end(s))
		return fail(p, "unexpected text after value");
	*sp = s;
	return 0;
}

static const struct {
	const char *name;
	enum ir_protocol protos[6];
	size_t n;
} families[] = {
	{ "nec", { IR_PROTO_NEC, IR_PROTO_NECX, IR_PROTO_NEC32 }, 3 },
	{ "rc5", { IR_PROTO_RC5, IR_PROTO_RC5X_20 }, 2 },
	{ "rc-5", { IR_PROTO_RC5, IR_PROTO_RC5X_20 }, 2 },
	{ "rc5-sz", { IR_PROTO_RC5_SZ }, 1 },
	{ "rc-5-sz", { IR_PROTO_RC5_SZ }, 1 },
	{ "rc6", { IR_PROTO_RC6_0, IR_PROTO_RC6_6A_20, IR_PROTO_RC6_6A_24,
		   IR_PROTO_RC6_6A_32, IR_PROTO_RC6_MCE }, 5 },
	{ "rc-6", { IR_PROTO_RC6_0, IR_PROTO_RC6_6A_20, IR_PROTO_RC6_6A_24,
		    IR_PROTO_RC6_6A_32, IR_PROTO_RC6_MCE }, 5 },
	{ "sony", { IR_PROTO_SONY12, IR_PROTO_SONY15, IR_PROTO_SONY20 }, 3 },
	{ "rcmm", { IR_PROTO_RCMM12, IR_PROTO_RCMM24, IR_PROTO_RCMM32 }, 3 },
	{ "rc-mm", { IR_PROTO_RCMM12, IR_PROTO_RCMM24, IR_PROTO_RCMM32 }, 3 },
	{ "mce_kbd", { IR_PROTO_MCIR2_KBD, IR_PROTO_MCIR2_MSE }, 2 },
};

/* Chooses the protocols the entry's scancodes bind under (see top). */
static int resolve_protocols(struct parser *p)
{
	struct entry *e = &p->e;
	enum ir_protocol one;

	if (!e->protocol[0])
		return fail(p, "[[protocols]] entry without 'protocol'");
	e->nprotos = 0;
	if (e->variant[0] && ir_protocol_from_name(e->variant, &one) == 0) {
		e->protos[e->nprotos++] = one;
		return 0;
	}
	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++) {
		if (strcmp(families[i].name, e->protocol))
			continue;
		memcpy(e->protos, families[i].protos, families[i].n * sizeof(e->protos[0]));
		e->nprotos = families[i].n;
		return 0;
	}
	if (strcmp(e->protocol, "unknown") && strcmp(e->protocol, "other") &&
	    ir_protocol_from_name(e->protocol, &one) == 0 && one != IR_PROTO_UNKNOWN &&
	    one != IR_PROTO_OTHER && one < IR_PROTO_PULSE_DISTANCE) {
		e->protos[e->nprotos++] = one;
		return 0;
	}
	e->protos[e->nprotos++] = IR_KEYMAP_ANY_PROTOCOL;
	return 0;
}

static int bind_entry(struct parser *p)
{
	int ret;

	if (p->e.bound)
		return 0;
	ret = resolve_protocols(p);
	if (ret)
		return ret;
	ret = ir_keymap_add_remote(p->km, p->e.name[0] ? p->e.name : p->e.protocol,
				   &p->e.remote);
	if (ret)
		return ret == -ENOMEM ? ret : fail(p, "cannot add remote");
	p->e.bound = true;
	return 0;
}

static int header(struct parser *p, const char *s)
{
	int ret;

	if (!strncmp(s, "[[protocols]]", 13) && at_line_end(s + 13)) {
		if (p->e.open && (ret = bind_entry(p)))
			return ret;
		memset(&p->e, 0, sizeof(p->e));
		p->e.open = true;
		p->sec = SEC_PROTOCOL;
		return 0;
	}
	if (!p->e.open)
		return fail(p, "table before the first [[protocols]]");
	if (!strncmp(s, "[protocols.scancodes]", 21) && at_line_end(s + 21)) {
		if (p->sec != SEC_PROTOCOL)
			return fail(p, "[protocols.scancodes] must follow its [[protocols]] keys");
		p->sec = SEC_SCANCODES;
		return bind_entry(p);
	}
	if (!strncmp(s, "[[protocols.raw]]", 17) && at_line_end(s + 17)) {
		p->sec = SEC_RAW;
		return bind_entry(p);
	}
	return fail(p, "unsupported table header");
}

static int assign(struct parser *p, const char *s)
{
	char key[TOML_STR_MAX];
	struct value v;
	uint64_t scancode = 0;
	bool numeric = false;
	size_t n = 0;
	int ret;

	if (*s == '"' || *s == '\'') {
		if ((ret = parse_string(p, &s, key, sizeof(key))))
			return ret;
	} else {
		while (isalnum((unsigned char)s[n]) || s[n] == '_' || s[n] == '-')
			n++;
		if (n == 0)
			return fail(p, "expected a key");
		if (n >= sizeof(key))
			return fail(p, "key too long");
		memcpy(key, s, n);
		key[n] = '\0';
		s += n;
	}
	s = skip_ws(s);
	if (*s != '=')
		return fail(p, "expected '=' after key");
	s = skip_ws(s + 1);
	if ((ret = parse_value(p, &s, &v)))
		return ret;

	if (++p->keys > TOML_KEYS_MAX)
		return fail(p, "more than %d keys", TOML_KEYS_MAX);

	switch (p->sec) {
	case SEC_NONE:
		return fail(p, "key outside [[protocols]]");
	case SEC_PROTOCOL: {
		char *dst = !strcmp(key, "name") ? p->e.name :
			    !strcmp(key, "protocol") ? p->e.protocol :
			    !strcmp(key, "variant") ? p->e.variant : NULL;
		if (dst) {
			if (v.type != V_STR)
				return fail(p, "'%s' must be a string", key);
			if (!v.str[0])
				return fail(p, "'%s' must not be empty", key);
			strcpy(dst, v.str);
			return 0;
		}
		/* Protocol parameters (BPF timings, toggle bits...): integers. */
		if (v.type == V_STR)
			return fail(p, "parameter '%s' must be an integer", key);
		return 0;
	}
	case SEC_SCANCODES: {
		const char *k = key;

		if (v.type != V_STR || !v.str[0])
			return fail(p, "scancode value must be a key name string");
		if (parse_int(p, &k, &scancode) || *k)
			return fail(p, "scancode key '%s' is not an integer", key);
		numeric = true;
		break;
	}
	case SEC_RAW:
		if (!strcmp(key, "keycode") || !strcmp(key, "raw")) {
			if (v.type != V_STR)
				return fail(p, "'%s' must be a string", key);
			return 0;
		}
		return fail(p, "unknown key '%s' in [[protocols.raw]]", key);
	}
	if (!numeric)
		return 0;
	for (size_t i = 0; i < p->e.nprotos; i++) {
		ret = ir_keymap_add_key(p->km, p->e.remote, p->e.protos[i], 0, scancode, v.str);
		if (ret)
			return ret == -ENOMEM ? ret : fail(p, "cannot bind scancode");
	}
	return 0;
}

int ir_keymap_parse_toml(struct ir_keymap *km, const char *text, size_t len,
			 struct ir_parse_error *err)
{
	struct parser p = { .km = km, .err = err, .sec = SEC_NONE };
	size_t pos = 0;
	int ret;

	if (err) {
		err->line = 0;
		err->message[0] = '\0';
	}
	while (pos < len) {
		char buf[TOML_LINE_MAX + 1];
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
		const char *s;

		p.line++;
		if (n > TOML_LINE_MAX)
			return fail(&p, "line longer than %d bytes", TOML_LINE_MAX);
		memcpy(buf, text + pos, n);
		buf[n] = '\0';
		pos += n + 1;
		if (n && buf[n - 1] == '\r')
			buf[--n] = '\0';
		if (memchr(buf, '\0', n))
			return fail(&p, "NUL byte in line");
		s = skip_ws(buf);
		if (*s == '\0' || *s == '#')
			continue;
		ret = *s == '[' ? header(&p, s) : assign(&p, s);
		if (ret)
			return ret;
	}
	if (!p.e.open) {
		p.line = 0;
		return fail(&p, "no [[protocols]] table");
	}
	return bind_entry(&p);
}
