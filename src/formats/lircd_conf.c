/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lircd_conf.c - LIRC's lircd.conf: `begin remote` ... `end remote` blocks,
 * each with its parameters, flags, and `begin codes` or `begin raw_codes`
 * buttons.  Each remote becomes one keymap remote, one "lirc" decoder
 * (src/protocols/lirc.c) holding its parameters, and one key per button.
 *
 * Codes are lircd's full code, as its socket reports it:
 *   pre_data << (bits + post_data_bits) | data << post_data_bits | post_data
 * For raw_codes remotes the code is the button's place in the file counted
 * from 1, as lircd numbers them.
 *
 * Tolerance, as lircd: keywords and flags we do not know are ignored (lircd
 * logs them and goes on; new LIRC versions add some), and so is text outside
 * a remote; but a malformed number, a missing `end`, a file without a remote
 * or a line over 4096 bytes is -EINVAL with the line.
 *
 * A button line with several codes (a sequence) keeps the first, and yields
 * it to a one-code button with that code: lircd names a sequence only once
 * all its codes came, and names the one-code button on the first.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ir_family.h"
#include "ir_keymap_loaders.h"
#include "lirc_remote.h"

#define LIRCD_LINE_MAX 4096
#define LIRCD_BUTTONS_MAX 100000
/* Durations of one raw code: below the decoder's frame buffer (1024). */
#define LIRCD_RAW_MAX 1000
#define LIRCD_BITS_MAX 64

enum section { OUTSIDE, REMOTE, CODES, RAW_CODES };

struct button {
	char *name;
	uint64_t code;
	bool sequence; /* a line of several codes: the first is kept */
};

struct parser {
	struct ir_keymap *km;
	struct ir_parse_error *err;
	unsigned line;
	enum section section;
	char name[256];
	struct lirc_remote *r;
	struct button *buttons;
	size_t button_count, button_cap;
	unsigned toggle_bit; /* 1-based from the MSB of the full code, 0 = none */
	size_t total_buttons;
	const struct ir_lircd_include *inc; /* NULL: include refused */
	unsigned includes;
};

__attribute__((format(printf, 2, 3)))
static void set_error(struct parser *p, const char *fmt, ...)
{
	va_list ap;

	if (p->err) {
		p->err->line = p->line;
		va_start(ap, fmt);
		vsnprintf(p->err->message, sizeof(p->err->message), fmt, ap);
		va_end(ap);
	}
}

/* Records the error and is -EINVAL.  A macro, not a function returning
 * -EINVAL: gcc does not inline a variadic function, so it could not see
 * that a failed parse_u64() is negative and warned (-O2, gcc 12) that
 * parse_u32()'s number may be used uninitialized. */
#define fail(p, ...) (set_error((p), __VA_ARGS__), -EINVAL)

static int parse_u64(struct parser *p, const char *s, uint64_t *out)
{
	char *end;

	if (!s)
		return fail(p, "missing number");
	if (!isdigit((unsigned char)s[0]))
		return fail(p, "malformed number '%.40s'", s);
	errno = 0;
	*out = strtoull(s, &end, 0);
	if (errno || *end)
		return fail(p, "malformed number '%.40s'", s);
	return 0;
}

static int parse_u32(struct parser *p, const char *s, uint32_t *out)
{
	uint64_t v;
	int ret = parse_u64(p, s, &v);

	if (ret < 0)
		return ret;
	if (v > IR_DURATION_MAX)
		return fail(p, "number out of range '%.40s'", s);
	*out = (uint32_t)v;
	return 0;
}

static void free_buttons(struct parser *p)
{
	for (size_t i = 0; i < p->button_count; i++)
		free(p->buttons[i].name);
	p->button_count = 0;
}

static int add_button(struct parser *p, const char *name, uint64_t code)
{
	if (++p->total_buttons > LIRCD_BUTTONS_MAX)
		return fail(p, "more than %d buttons", LIRCD_BUTTONS_MAX);
	if (p->button_count == p->button_cap) {
		size_t cap = p->button_cap ? p->button_cap * 2 : 64;
		struct button *b = realloc(p->buttons, cap * sizeof(*b));

		if (!b)
			return -ENOMEM;
		p->buttons = b;
		p->button_cap = cap;
	}
	p->buttons[p->button_count].name = strdup(name);
	if (!p->buttons[p->button_count].name)
		return -ENOMEM;
	p->buttons[p->button_count].sequence = false;
	p->buttons[p->button_count++].code = code;
	return 0;
}

static int flags_of(const char *s, unsigned *out)
{
	static const struct {
		const char *name;
		unsigned flag;
	} names[] = {
		{ "RAW_CODES", LIRC_F_RAW_CODES }, { "RC5", LIRC_F_RC5 },
		{ "SHIFT_ENC", LIRC_F_RC5 },       { "RC6", LIRC_F_RC6 },
		{ "RCMM", LIRC_F_RCMM },           { "SPACE_ENC", LIRC_F_SPACE_ENC },
		{ "SPACE_FIRST", LIRC_F_SPACE_FIRST }, { "GOLDSTAR", LIRC_F_GOLDSTAR },
		{ "GRUNDIG", LIRC_F_GRUNDIG },     { "BO", LIRC_F_BO },
		{ "SERIAL", LIRC_F_SERIAL },       { "XMP", LIRC_F_XMP },
		{ "REVERSE", LIRC_F_REVERSE },     { "NO_HEAD_REP", LIRC_F_NO_HEAD_REP },
		{ "NO_FOOT_REP", LIRC_F_NO_FOOT_REP }, { "CONST_LENGTH", LIRC_F_CONST_LENGTH },
		{ "REPEAT_HEADER", LIRC_F_REPEAT_HEADER },
	};
	char buf[LIRCD_LINE_MAX];
	char *save = NULL;

	snprintf(buf, sizeof(buf), "%s", s);
	for (char *t = strtok_r(buf, "|", &save); t; t = strtok_r(NULL, "|", &save)) {
		/* unknown flags (lircd's own additions) are tolerated */
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (strcasecmp(t, names[i].name) == 0)
				*out |= names[i].flag;
	}
	return 0;
}

/* A parameter line inside `begin remote`. */
/* How a remote's numeric parameter is kept (offsets into struct lirc_remote). */
enum param_kind {
	PARAM_PAIR,    /* two u32 numbers: a pulse and a space */
	PARAM_U32,     /* one u32 */
	PARAM_U64,     /* one u64 */
	PARAM_UINT,    /* an unsigned up to `max` (an error beyond), cut to `clamp` */
	PARAM_IGNORED, /* a number the decoder does not use (yet): still checked */
};

struct remote_param {
	const char *name;
	enum param_kind kind;
	size_t at, at2; /* PARAM_PAIR: pulse at, space at2 */
	uint64_t max, clamp; /* PARAM_UINT; clamp 0: none */
};

#define OFF(F) offsetof(struct lirc_remote, F)
static const struct remote_param remote_params[] = {
	{ "header", PARAM_PAIR, OFF(phead), OFF(shead), 0, 0 },
	{ "one", PARAM_PAIR, OFF(pone), OFF(sone), 0, 0 },
	{ "zero", PARAM_PAIR, OFF(pzero), OFF(szero), 0, 0 },
	{ "foot", PARAM_PAIR, OFF(pfoot), OFF(sfoot), 0, 0 },
	{ "repeat", PARAM_PAIR, OFF(prepeat), OFF(srepeat), 0, 0 },
	{ "pre", PARAM_PAIR, OFF(pre_p), OFF(pre_s), 0, 0 },
	{ "post", PARAM_PAIR, OFF(post_p), OFF(post_s), 0, 0 },
	{ "two", PARAM_PAIR, OFF(ptwo), OFF(stwo), 0, 0 },
	{ "three", PARAM_PAIR, OFF(pthree), OFF(sthree), 0, 0 },
	{ "plead", PARAM_U32, OFF(plead), 0, 0, 0 },
	{ "ptrail", PARAM_U32, OFF(ptrail), 0, 0, 0 },
	{ "repeat_gap", PARAM_U32, OFF(repeat_gap), 0, 0, 0 },
	{ "frequency", PARAM_U32, OFF(frequency), 0, 0, 0 },
	{ "pre_data", PARAM_U64, OFF(pre_data), 0, 0, 0 },
	{ "post_data", PARAM_U64, OFF(post_data), 0, 0, 0 },
	{ "toggle_bit_mask", PARAM_U64, OFF(toggle_bit_mask), 0, 0, 0 },
	{ "rc6_mask", PARAM_U64, OFF(rc6_mask), 0, 0, 0 },
	{ "toggle_mask", PARAM_U64, OFF(toggle_mask), 0, 0, 0 },
	{ "bits", PARAM_UINT, OFF(bits), 0, LIRCD_BITS_MAX, 0 },
	{ "pre_data_bits", PARAM_UINT, OFF(pre_data_bits), 0, LIRCD_BITS_MAX, 0 },
	{ "post_data_bits", PARAM_UINT, OFF(post_data_bits), 0, LIRCD_BITS_MAX, 0 },
	{ "eps", PARAM_UINT, OFF(eps), 0, 100000, 0 },
	{ "aeps", PARAM_UINT, OFF(aeps), 0, 100000, 0 },
	/* lircd sends at most this many repeats however many a file asks */
	{ "min_repeat", PARAM_UINT, OFF(min_repeat), 0, 100000, 100 },
	{ "duty_cycle", PARAM_UINT, OFF(duty_cycle), 0, 100000, 0 },
	{ "baud", PARAM_UINT, OFF(baud), 0, 1000000, 0 },
	{ "suppress_repeat", PARAM_IGNORED, 0, 0, 0, 0 },
	{ "min_code_repeat", PARAM_IGNORED, 0, 0, 0, 0 },
	{ "manual_sort", PARAM_IGNORED, 0, 0, 0, 0 },
	{ "ignore_mask", PARAM_IGNORED, 0, 0, 0, 0 },
	{ "repeat_mask", PARAM_IGNORED, 0, 0, 0, 0 },
};
#undef OFF

/* Stores one table parameter's value(s) into the remote. */
static int table_param(struct parser *p, const struct remote_param *t, const char *v1, const char *v2)
{
	char *base = (char *)p->r;
	uint64_t v;
	int ret;

	switch (t->kind) {
	case PARAM_PAIR:
		if ((ret = parse_u32(p, v1, (uint32_t *)(base + t->at))) < 0)
			return ret;
		return parse_u32(p, v2, (uint32_t *)(base + t->at2));
	case PARAM_U32:
		return parse_u32(p, v1, (uint32_t *)(base + t->at));
	case PARAM_U64:
		return parse_u64(p, v1, (uint64_t *)(base + t->at));
	case PARAM_UINT:
		if ((ret = parse_u64(p, v1, &v)) < 0)
			return ret;
		if (v > t->max)
			return fail(p, "%s %llu: more than %llu", t->name, (unsigned long long)v,
				    (unsigned long long)t->max);
		*(unsigned *)(base + t->at) = (unsigned)(t->clamp && v > t->clamp ? t->clamp : v);
		return 0;
	case PARAM_IGNORED:
		return parse_u64(p, v1, &v);
	}
	return 0;
}

/* serial_mode 8N1: data bits 5..9, parity N/E/O, stop bits 1, 1.5, 2 */
static int serial_mode(struct parser *p, const char *v1)
{
	struct lirc_remote *r = p->r;

	if (!v1 || v1[0] < '5' || v1[0] > '9' || !strchr("NnEeOo", v1[1] ? v1[1] : 'x'))
		return fail(p, "serial_mode '%.20s': not like 8N1", v1 ? v1 : "");
	r->bits_in_byte = (unsigned)(v1[0] - '0');
	r->parity = (v1[1] == 'N' || v1[1] == 'n')   ? LIRC_PARITY_NONE
		    : (v1[1] == 'E' || v1[1] == 'e') ? LIRC_PARITY_EVEN
						     : LIRC_PARITY_ODD;
	if (strcmp(v1 + 2, "1.5") == 0)
		r->stop_halves = 3;
	else if (strcmp(v1 + 2, "1") == 0 || strcmp(v1 + 2, "2") == 0)
		r->stop_halves = (unsigned)(v1[2] - '0') * 2;
	else
		return fail(p, "serial_mode '%.20s': stop bits not 1, 1.5 or 2", v1);
	return 0;
}

static int remote_param(struct parser *p, char *key, char *v1, char *v2)
{
	uint64_t v;
	int ret;

	for (size_t i = 0; i < sizeof(remote_params) / sizeof(remote_params[0]); i++)
		if (strcasecmp(key, remote_params[i].name) == 0)
			return table_param(p, &remote_params[i], v1, v2);
	if (strcasecmp(key, "name") == 0) {
		if (!v1)
			return fail(p, "remote without a name");
		snprintf(p->name, sizeof(p->name), "%s", v1);
		return 0;
	}
	if (strcasecmp(key, "flags") == 0)
		return v1 ? flags_of(v1, &p->r->flags) : fail(p, "flags without a value");
	if (strcasecmp(key, "gap") == 0) {
		if ((ret = parse_u32(p, v1, &p->r->gap)) < 0)
			return ret;
		return v2 ? parse_u32(p, v2, &p->r->gap2) : 0;
	}
	/* repeat_bit is toggle_bit's name in old lircd.conf files */
	if (strcasecmp(key, "toggle_bit") == 0 || strcasecmp(key, "repeat_bit") == 0) {
		if ((ret = parse_u64(p, v1, &v)) < 0)
			return ret;
		p->toggle_bit = v > 128 ? 0 : (unsigned)v;
		return 0;
	}
	if (strcasecmp(key, "serial_mode") == 0)
		return serial_mode(p, v1);
	/* driver and keywords of newer lircd versions */
	return 0;
}

/* A code line: NAME CODE [CODE...].  The button keeps its data bits; the
 * full code is made at `end remote`, when every parameter is known. */
static int code_line(struct parser *p, char *name, char *v1, const char *v2)
{
	uint64_t data;
	int ret;

	if (!v1)
		return fail(p, "button '%.40s' without a code", name);
	if ((ret = parse_u64(p, v1, &data)) < 0)
		return ret;
	if ((ret = add_button(p, name, data)) < 0)
		return ret;
	p->buttons[p->button_count - 1].sequence = v2 != NULL;
	return 0;
}

/* Whether button `i` is a code sequence whose first code a later
 * one-code button also has: lircd names that code for the one-code button
 * (a sequence is named only once all its codes came). */
static bool sequence_yields(const struct parser *p, size_t i)
{
	if (!p->buttons[i].sequence)
		return false;
	for (size_t j = i + 1; j < p->button_count; j++)
		if (!p->buttons[j].sequence && p->buttons[j].code == p->buttons[i].code)
			return true;
	return false;
}

/*
 * lircd's full code of a button: pre_data, data, post_data, each cut to its
 * bit count.  REVERSE remotes send each part LSB first: lircd turns each
 * part round when it loads the file (so the frame is sent MSB first) and
 * turns the whole code round when it reports it; the decoder keeps the
 * loaded form (lirc_remote.h) and the keymap the reported one.
 */
static uint64_t loaded_code(const struct lirc_remote *r, uint64_t data)
{
	uint64_t pre = lirc_low_bits(r->pre_data, r->pre_data_bits);
	uint64_t post = lirc_low_bits(r->post_data, r->post_data_bits);
	uint64_t code;

	data = lirc_low_bits(data, r->bits);
	if (r->flags & LIRC_F_REVERSE) {
		pre = ir_bitrev(pre, r->pre_data_bits);
		data = ir_bitrev(data, r->bits);
		post = ir_bitrev(post, r->post_data_bits);
	}
	code = lirc_shift_left(pre, r->bits + r->post_data_bits);
	code |= lirc_shift_left(data, r->post_data_bits);
	return code | post;
}

static int start_remote(struct parser *p)
{
	p->r = calloc(1, sizeof(*p->r));
	if (!p->r)
		return -ENOMEM;
	p->r->eps = LIRC_DEFAULT_EPS;
	p->r->aeps = LIRC_DEFAULT_AEPS;
	p->name[0] = '\0';
	p->toggle_bit = 0;
	p->section = REMOTE;
	return 0;
}

static int end_remote(struct parser *p)
{
	struct lirc_remote *r = p->r;
	unsigned all = r->pre_data_bits + r->bits + r->post_data_bits;
	unsigned index;
	uint16_t id;
	int ret;

	if (!p->name[0])
		return fail(p, "remote without a name");
	if (all > LIRCD_BITS_MAX)
		return fail(p, "remote '%s' has %u bits, more than 64", p->name, all);
	/* lircd: an RC6 remote without rc6_mask doubles the bit its old-style
	 * toggle_bit names (not toggle_bit_mask: files with that give
	 * rc6_mask themselves) */
	if ((r->flags & LIRC_F_RC6) && !r->rc6_mask && p->toggle_bit && p->toggle_bit <= all)
		r->rc6_mask = UINT64_C(1) << (all - p->toggle_bit);
	if (p->toggle_bit && p->toggle_bit <= all && !r->toggle_bit_mask)
		r->toggle_bit_mask = UINT64_C(1) << (all - p->toggle_bit);
	if (!(r->flags & LIRC_F_RAW_CODES) && r->raw_count)
		r->flags |= LIRC_F_RAW_CODES;
	for (size_t i = 0; i < p->button_count && !(r->flags & LIRC_F_RAW_CODES); i++) {
		p->buttons[i].code = loaded_code(r, p->buttons[i].code);
		if (r->code_count == r->code_cap) {
			size_t cap = r->code_cap ? r->code_cap * 2 : 64;
			uint64_t *c = realloc(r->codes, cap * sizeof(*c));

			if (!c)
				return -ENOMEM;
			r->codes = c;
			r->code_cap = cap;
		}
		r->codes[r->code_count++] = p->buttons[i].code;
		p->buttons[i].code = lirc_remote_reported_code(r, p->buttons[i].code);
	}
	if ((ret = lirc_remote_prepare(r)) < 0)
		return ret; /* p->r is freed by the caller */
	if ((ret = ir_keymap_add_remote(p->km, p->name, &index)) < 0)
		return ret;
	p->r = NULL; /* the keymap owns it from here, even on failure */
	if ((ret = ir_keymap_add_decoder(p->km, index, &ir_family_lirc, r, lirc_remote_free,
					 &id)) < 0)
		return ret;
	/* file order, but a sequence after the one-code button it yields to
	 * (the first binding of a code is the one lookups answer with) */
	for (unsigned pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < p->button_count; i++)
			if (sequence_yields(p, i) == (pass == 1) &&
			    (ret = ir_keymap_add_key_keep_first(p->km, index, IR_PROTO_LIRC, id,
								p->buttons[i].code,
								p->buttons[i].name)) < 0)
				return ret;
	free_buttons(p);
	p->section = OUTSIDE;
	return 0;
}

static int raw_value(struct parser *p, const char *tok)
{
	struct lirc_raw_code *c;
	uint32_t v = 0;
	int ret;

	if (!p->r->raw_count)
		return fail(p, "raw timings before a 'name' line");
	c = &p->r->raw[p->r->raw_count - 1];
	if ((ret = parse_u32(p, tok, &v)) < 0)
		return ret;
	if (c->count >= LIRCD_RAW_MAX)
		return fail(p, "raw code longer than %d durations", LIRCD_RAW_MAX);
	if (!c->durations) {
		c->durations = malloc(LIRCD_RAW_MAX * sizeof(*c->durations));
		if (!c->durations)
			return -ENOMEM;
	}
	c->durations[c->count++] = v ? v : 1;
	return 0;
}

static int raw_name(struct parser *p, const char *name)
{
	struct lirc_remote *r = p->r;
	int ret;

	if (r->raw_count == r->raw_cap) {
		size_t cap = r->raw_cap ? r->raw_cap * 2 : 32;
		struct lirc_raw_code *c = realloc(r->raw, cap * sizeof(*c));

		if (!c)
			return -ENOMEM;
		r->raw = c;
		r->raw_cap = cap;
	}
	if ((ret = add_button(p, name, r->raw_count + 1)) < 0)
		return ret;
	r->raw[r->raw_count].durations = NULL;
	r->raw[r->raw_count++].count = 0;
	return 0;
}

/* A raw code ends with a pulse: lircd drops a trailing space. */
static void raw_close(struct parser *p)
{
	if (p->r && p->r->raw_count) {
		struct lirc_raw_code *c = &p->r->raw[p->r->raw_count - 1];

		if (c->count % 2 == 0 && c->count)
			c->count--;
	}
}

/*
 * `include "PATH"` or `include <PATH>`, as lircd reads it (config_file.c):
 * one quoted word (no blanks inside), handed to the caller, which resolves
 * it against the including file's folder and expands its glob.
 */
static int include_line(struct parser *p, char *word, const char *extra)
{
	size_t n = word ? strlen(word) : 0;
	int ret;

	if (n < 3 || extra || !((word[0] == '"' && word[n - 1] == '"') ||
				(word[0] == '<' && word[n - 1] == '>')))
		return fail(p, "include: expected one path in quotes, \"FILE\" or <FILE>");
	if (!p->inc)
		return fail(p, "include: not supported here (no including file to resolve it against)");
	word[n - 1] = '\0';
	p->includes++;
	ret = p->inc->include(p->inc->userdata, word + 1, p->line);
	if (ret < 0 && p->err)
		p->err->line = p->line;
	return ret;
}

/* Splits a line into its first four tokens (what follows a comment's '#'
 * dropped); a raw_codes line of durations is taken in here, whole, and
 * gives no token.  Returns the count of tokens or a negative errno. */
static int split_line(struct parser *p, char *line, char *tok[4])
{
	char *save = NULL;
	int n = 0;
	bool raw_line = false;

	/* lircd: a '#' in column 0 starts a comment line; an indented
	 * "#  0x178E" in a codes section is a button named "#" (Hauppauge and
	 * MCE files have one), and so is "name #" in a raw_codes section;
	 * anything else after '#' a comment */
	bool hash_button = p->section == CODES && line[0] != '#';

	for (char *t = strtok_r(line, " \t\r\v\f", &save); t; t = strtok_r(NULL, " \t\r\v\f", &save)) {
		bool raw_name = n == 1 && p->section == RAW_CODES && strcasecmp(tok[0], "name") == 0;
		bool hash_name = strcmp(t, "#") == 0 && ((n == 0 && hash_button) || raw_name);

		if (t[0] == '#' && !hash_name)
			break;
		/* a line of raw timings: every token is a duration */
		if (n == 0 && p->section == RAW_CODES && isdigit((unsigned char)t[0]))
			raw_line = true;
		if (raw_line) {
			int ret = raw_value(p, t);

			if (ret < 0)
				return ret;
			continue;
		}
		if (n < 4)
			tok[n++] = t;
	}
	return raw_line ? 0 : n;
}

/* "End" and "Begin" are also button names (a keyboard's End key): only
 * these words after them make a section line. */
static bool is_section_line(char *const tok[4])
{
	return (strcasecmp(tok[0], "begin") == 0 || strcasecmp(tok[0], "end") == 0) &&
	       (!tok[1] || strcasecmp(tok[1], "remote") == 0 || strcasecmp(tok[1], "codes") == 0 ||
		strcasecmp(tok[1], "raw_codes") == 0);
}

/* "begin X" or "end X": enters or leaves section X where the file may. */
static int section_line(struct parser *p, char *const tok[4])
{
	bool begin = tok[0][0] == 'b' || tok[0][0] == 'B';
	const char *what = tok[1] ? tok[1] : "";

	if (begin && strcasecmp(what, "remote") == 0 && p->section == OUTSIDE)
		return start_remote(p);
	if (!begin && strcasecmp(what, "remote") == 0 && p->section == REMOTE)
		return end_remote(p);
	if (begin && strcasecmp(what, "codes") == 0 && p->section == REMOTE) {
		p->section = CODES;
		return 0;
	}
	if (begin && strcasecmp(what, "raw_codes") == 0 && p->section == REMOTE) {
		p->r->flags |= LIRC_F_RAW_CODES;
		p->section = RAW_CODES;
		return 0;
	}
	if (!begin && strcasecmp(what, "codes") == 0 && p->section == CODES) {
		p->section = REMOTE;
		return 0;
	}
	if (!begin && strcasecmp(what, "raw_codes") == 0 && p->section == RAW_CODES) {
		raw_close(p);
		p->section = REMOTE;
		return 0;
	}
	return fail(p, "unexpected '%s %.40s'", tok[0], what);
}

static int parse_line(struct parser *p, char *line)
{
	char *tok[4] = { 0 };
	int n = split_line(p, line, tok);

	if (n <= 0)
		return n;
	if (is_section_line(tok))
		return section_line(p, tok);
	switch (p->section) {
	case OUTSIDE:
		if (strcasecmp(tok[0], "include") == 0)
			return include_line(p, tok[1], tok[2]);
		/* lircd ignores other text outside a remote (27 files of its
		 * remotes database begin with a truncated comment line) */
		return 0;
	case REMOTE:
		return remote_param(p, tok[0], tok[1], tok[2]);
	case CODES:
		/* "# comment" indented: a comment unless a code follows */
		if (strcmp(tok[0], "#") == 0 && (!tok[1] || !isdigit((unsigned char)tok[1][0])))
			return 0;
		return code_line(p, tok[0], tok[1], tok[2]);
	case RAW_CODES:
		if (strcasecmp(tok[0], "name") == 0) {
			if (!tok[1])
				return fail(p, "'name' without a button name");
			raw_close(p);
			return raw_name(p, tok[1]);
		}
		return fail(p, "'%.40s' in raw_codes: neither 'name' nor a duration", tok[0]);
	}
	return 0;
}

int ir_keymap_parse_lircd(struct ir_keymap *km, const char *text, size_t len,
			  struct ir_parse_error *err)
{
	return ir_keymap_parse_lircd_file(km, text, len, NULL, err);
}

int ir_keymap_parse_lircd_file(struct ir_keymap *km, const char *text, size_t len,
			       const struct ir_lircd_include *inc, struct ir_parse_error *err)
{
	struct parser p = { .km = km, .err = err, .inc = inc };
	char line[LIRCD_LINE_MAX + 1];
	size_t pos = 0;
	int ret = 0;

	if (err) {
		err->line = 0;
		err->message[0] = '\0';
	}
	while (pos < len && ret == 0) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;

		p.line++;
		if (n > LIRCD_LINE_MAX) {
			ret = fail(&p, "line longer than %d bytes", LIRCD_LINE_MAX);
			break;
		}
		memcpy(line, text + pos, n);
		line[n] = '\0';
		if (memchr(line, '\0', n)) {
			ret = fail(&p, "NUL byte in line");
			break;
		}
		pos += n + 1;
		ret = parse_line(&p, line);
	}
	if (ret == 0 && p.section != OUTSIDE)
		ret = fail(&p, "missing 'end %s'", p.section == REMOTE	  ? "remote"
						   : p.section == CODES ? "codes"
									: "raw_codes");
	if (ret == 0 && ir_keymap_remote_count(km) == 0 && !p.includes)
		ret = fail(&p, "no 'begin remote' in the file");
	free_buttons(&p);
	free(p.buttons);
	lirc_remote_free(p.r);
	return ret;
}
