/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "ir_timing_io.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ir_protocol.h"
#include "ir_util.h"

#define LIRC_MODE2_SPACE 0x00000000u
#define LIRC_MODE2_PULSE 0x01000000u
#define LIRC_MODE2_FREQUENCY 0x02000000u
#define LIRC_MODE2_TIMEOUT 0x03000000u
#define LIRC_MODE2_OVERFLOW 0x04000000u
#define LIRC_VALUE_MASK 0x00FFFFFFu
#define LIRC_MODE2_MASK 0xFF000000u

/* lircd's default gap between raw signals when the remote names none. */
#define LIRCD_DEFAULT_GAP_US 100000u
/* IRMP's IR-Data: a newline stands for about a second of silence. */
#define IRMP_LINE_GAP_US 1000000u
#define IRMP_DEFAULT_RATE 10000u

static const char *const format_names[] = {
	[IR_FORMAT_AUTO] = "auto",   [IR_FORMAT_MODE2] = "mode2", [IR_FORMAT_BINARY] = "binary",
	[IR_FORMAT_LIRCD] = "lircd", [IR_FORMAT_IRMP] = "irmp",
};

const char *ir_timing_format_name(enum ir_timing_format fmt)
{
	if ((unsigned)fmt < ARRAY_SIZE(format_names))
		return format_names[fmt];
	return "unknown";
}

int ir_timing_format_from_name(const char *name, enum ir_timing_format *out)
{
	for (unsigned i = 0; i < ARRAY_SIZE(format_names); i++) {
		if (strcasecmp(name, format_names[i]) == 0) {
			*out = (enum ir_timing_format)i;
			return 0;
		}
	}
	if (strcasecmp(name, "ir-ctl") == 0 || strcasecmp(name, "text") == 0) {
		*out = IR_FORMAT_MODE2;
		return 0;
	}
	return -ENOENT;
}

static int set_error(struct ir_parse_error *err, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int set_error(struct ir_parse_error *err, unsigned line, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		err->line = line;
		va_start(ap, fmt);
		vsnprintf(err->message, sizeof(err->message), fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* ---- a line cursor over a text buffer ---- */

struct text_cursor {
	const char *p, *end;
	unsigned line;
};

/* Copies the next line (without its end-of-line, CR stripped) into `buf`.
 * Returns false at the end of input; a line longer than `size` - 1 is an
 * error reported through *too_long. */
static bool next_line(struct text_cursor *c, char *buf, size_t size, bool *too_long)
{
	const char *start = c->p, *nl;
	size_t len;

	*too_long = false;
	if (c->p >= c->end)
		return false;
	nl = memchr(c->p, '\n', (size_t)(c->end - c->p));
	len = nl ? (size_t)(nl - start) : (size_t)(c->end - start);
	c->p = nl ? nl + 1 : c->end;
	c->line++;
	if (len && start[len - 1] == '\r')
		len--;
	if (len >= size) {
		*too_long = true;
		len = size - 1;
	}
	memcpy(buf, start, len);
	buf[len] = '\0';
	return true;
}

static void strip_comment(char *line)
{
	char *hash = strchr(line, '#');
	char *slashes = strstr(line, "//");

	if (hash)
		*hash = '\0';
	if (slashes)
		*slashes = '\0';
}

/* Parses an unsigned decimal duration into *out (1..IR_DURATION_MAX). */
static int parse_duration(const char *tok, uint32_t *out, unsigned line,
			  struct ir_parse_error *err)
{
	char *end;
	unsigned long long v;

	if (!isdigit((unsigned char)tok[0]))
		return set_error(err, line, "expected a duration in µs, got '%.40s'", tok);
	errno = 0;
	v = strtoull(tok, &end, 10);
	if (*end != '\0')
		return set_error(err, line, "'%.40s' is not a whole number", tok);
	if (errno == ERANGE || v > IR_DURATION_MAX)
		return set_error(err, line, "duration %.40s µs is absurd (limit %u)", tok,
				 IR_DURATION_MAX);
	if (v == 0)
		return set_error(err, line, "a duration of 0 µs is not a timing");
	*out = (uint32_t)v;
	return 0;
}

#define TEXT_LINE_MAX 4096

static int push_or_enomem(struct ir_edge_buf *out, struct ir_edge e, unsigned line,
			  struct ir_parse_error *err)
{
	int ret = ir_edge_buf_push(out, e);

	if (ret == -ERANGE)
		return set_error(err, line, "merged duration exceeds %u µs", IR_DURATION_MAX);
	return ret;
}

/* `scancode proto:code` (ir-ctl's send syntax) */
static int parse_scancode_line(const char *arg, unsigned line, struct ir_edge_buf *out,
			       struct ir_parse_error *err)
{
	char name[64];
	const char *colon = strchr(arg, ':');
	enum ir_protocol proto;
	unsigned long long code;
	char *end;
	int ret;

	if (!colon || (size_t)(colon - arg) >= sizeof(name))
		return set_error(err, line, "expected 'scancode PROTOCOL:CODE'");
	memcpy(name, arg, (size_t)(colon - arg));
	name[colon - arg] = '\0';
	if (ir_protocol_from_name(name, &proto) < 0)
		return set_error(err, line, "unknown protocol '%s'", name);
	errno = 0;
	code = strtoull(colon + 1, &end, 0);
	if (colon[1] == '\0' || *end != '\0' || errno)
		return set_error(err, line, "bad scancode '%.40s'", colon + 1);
	ret = ir_encode(proto, code, NULL, out);
	if (ret == -EINVAL)
		return set_error(err, line, "scancode 0x%llx is not valid for %s", code, name);
	if (ret == -EOPNOTSUPP)
		return set_error(err, line, "protocol %s cannot be encoded", name);
	return ret;
}

static int parse_mode2(const char *data, size_t len, struct ir_edge_buf *out,
		       struct ir_parse_error *err)
{
	struct text_cursor c = { data, data + len, 0 };
	char line[TEXT_LINE_MAX];
	bool too_long;
	int ret = 0;

	while (ret == 0 && next_line(&c, line, sizeof(line), &too_long)) {
		char *save = NULL, *tok;

		if (too_long)
			return set_error(err, c.line, "line longer than %d bytes", TEXT_LINE_MAX - 1);
		strip_comment(line);
		tok = strtok_r(line, " \t", &save);
		if (!tok)
			continue;
		/* mode2's banner lines, kept in pasted captures */
		if (strcmp(tok, "Using") == 0 || strcmp(tok, "Trying") == 0)
			continue;
		if (isalpha((unsigned char)tok[0])) {
			char *arg = strtok_r(NULL, " \t", &save);
			struct ir_edge e = { 0 };
			uint32_t v = 0;

			for (char *q = tok; *q; q++)
				*q = (char)tolower((unsigned char)*q);
			if (strcmp(tok, "overflow") == 0) {
				e.kind = IR_OVERFLOW;
			} else if (!arg) {
				return set_error(err, c.line, "'%.20s' needs a value", tok);
			} else if (strcmp(tok, "scancode") == 0) {
				ret = parse_scancode_line(arg, c.line, out, err);
				if (ret == 0 && strtok_r(NULL, " \t", &save))
					return set_error(err, c.line, "junk after scancode");
				continue;
			} else {
				ret = parse_duration(arg, &v, c.line, err);
				if (ret < 0)
					return ret;
				e.duration = v;
				if (strcmp(tok, "pulse") == 0)
					e.kind = IR_PULSE;
				else if (strcmp(tok, "space") == 0)
					e.kind = IR_SPACE;
				else if (strcmp(tok, "timeout") == 0)
					e.kind = IR_TIMEOUT;
				else if (strcmp(tok, "carrier") == 0)
					e.kind = IR_CARRIER;
				else
					return set_error(err, c.line, "unknown keyword '%.20s'", tok);
			}
			if (strtok_r(NULL, " \t", &save))
				return set_error(err, c.line, "junk after '%s'", tok);
			ret = push_or_enomem(out, e, c.line, err);
			continue;
		}
		/* compact form: +N -N, or bare numbers alternating */
		for (; tok && ret == 0; tok = strtok_r(NULL, " \t,", &save)) {
			uint32_t v = 0;
			enum ir_edge_kind kind;

			if (tok[0] == '+' || tok[0] == '-') {
				kind = tok[0] == '+' ? IR_PULSE : IR_SPACE;
				tok++;
			} else {
				kind = out->len && out->edges[out->len - 1].kind == IR_PULSE ? IR_SPACE
											 : IR_PULSE;
			}
			ret = parse_duration(tok, &v, c.line, err);
			if (ret == 0)
				ret = push_or_enomem(out, (struct ir_edge){ .duration = v, .kind = (uint8_t)kind },
						     c.line, err);
		}
	}
	return ret;
}

static int parse_binary(const unsigned char *data, size_t len, struct ir_edge_buf *out,
			struct ir_parse_error *err)
{
	if (len % 4)
		return set_error(err, (unsigned)(len / 4 + 1),
				 "truncated file: %zu trailing bytes are not a whole 32-bit word",
				 len % 4);
	for (size_t i = 0; i < len / 4; i++) {
		uint32_t w;
		struct ir_edge e = { 0 };
		int ret;

		memcpy(&w, data + 4 * i, 4);
		e.duration = w & LIRC_VALUE_MASK;
		switch (w & LIRC_MODE2_MASK) {
		case LIRC_MODE2_SPACE:
			e.kind = IR_SPACE;
			break;
		case LIRC_MODE2_PULSE:
			e.kind = IR_PULSE;
			break;
		case LIRC_MODE2_FREQUENCY:
			e.kind = IR_CARRIER;
			break;
		case LIRC_MODE2_TIMEOUT:
			e.kind = IR_TIMEOUT;
			break;
		case LIRC_MODE2_OVERFLOW:
			e.kind = IR_OVERFLOW;
			e.duration = 0;
			break;
		default:
			return set_error(err, (unsigned)(i + 1), "word 0x%08x has unknown type 0x%02x",
					 w, w >> 24);
		}
		if (e.duration == 0 && (e.kind == IR_PULSE || e.kind == IR_TIMEOUT))
			return set_error(err, (unsigned)(i + 1), "zero-length %s",
					 ir_edge_kind_name(e.kind));
		ret = push_or_enomem(out, e, (unsigned)(i + 1), err);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static bool keyword_is(const char *tok, const char *kw)
{
	return tok && strcasecmp(tok, kw) == 0;
}

static int parse_lircd(const char *data, size_t len, struct ir_edge_buf *out,
		       struct ir_parse_error *err)
{
	struct text_cursor c = { data, data + len, 0 };
	char line[TEXT_LINE_MAX];
	bool too_long;
	/* A file with `begin raw_codes` only has timings inside such sections. */
	bool whole_conf = memmem(data, len, "raw_codes", 9) != NULL;
	bool in_codes = !whole_conf, expect_pulse = true;
	uint32_t gap = LIRCD_DEFAULT_GAP_US;
	int ret = 0;

	while (ret == 0 && next_line(&c, line, sizeof(line), &too_long)) {
		char *save = NULL, *tok;

		if (too_long)
			return set_error(err, c.line, "line longer than %d bytes", TEXT_LINE_MAX - 1);
		strip_comment(line);
		tok = strtok_r(line, " \t", &save);
		if (!tok)
			continue;
		if (keyword_is(tok, "begin") || keyword_is(tok, "end")) {
			char *what = strtok_r(NULL, " \t", &save);

			if (keyword_is(what, "raw_codes"))
				in_codes = keyword_is(tok, "begin");
			continue;
		}
		if (keyword_is(tok, "gap")) {
			char *arg = strtok_r(NULL, " \t", &save);

			if (!arg || parse_duration(arg, &gap, c.line, err) < 0)
				return set_error(err, c.line, "bad gap value");
			continue;
		}
		if (keyword_is(tok, "frequency") && !in_codes) {
			char *arg = strtok_r(NULL, " \t", &save);
			uint32_t hz;

			if (!arg || parse_duration(arg, &hz, c.line, err) < 0)
				return set_error(err, c.line, "bad frequency value");
			ret = ir_edge_buf_push(out, (struct ir_edge){ .duration = hz, .kind = IR_CARRIER });
			continue;
		}
		if (!in_codes)
			continue; /* other remote parameters: not timings */
		if (keyword_is(tok, "name")) {
			/* A new signal starts after the gap. */
			if (out->len && out->edges[out->len - 1].kind == IR_PULSE)
				ret = ir_edge_buf_space(out, gap);
			expect_pulse = true;
			continue;
		}
		for (; tok && ret == 0; tok = strtok_r(NULL, " \t", &save)) {
			uint32_t v;

			ret = parse_duration(tok, &v, c.line, err);
			if (ret == 0)
				ret = push_or_enomem(out, expect_pulse ? ir_pulse(v) : ir_space(v), c.line,
						     err);
			expect_pulse = !expect_pulse;
		}
	}
	if (ret == 0 && out->len && out->edges[out->len - 1].kind == IR_PULSE)
		ret = ir_edge_buf_space(out, gap);
	return ret;
}

static bool irmp_active(char ch)
{
	return ch == '0' || ch == '_';
}

static bool irmp_sample_char(char ch)
{
	return ch == '0' || ch == '_' || ch == '1' || ch == '-';
}

static int parse_irmp(const char *data, size_t len, unsigned rate, struct ir_edge_buf *out,
		      struct ir_parse_error *err)
{
	struct text_cursor c = { data, data + len, 0 };
	/* IR-Data lines can hold many repeats: tens of thousands of samples. */
	static const size_t line_max = 1u << 20;
	char *line = malloc(line_max);
	bool too_long;
	int ret = 0;

	if (!line)
		return -ENOMEM;
	if (rate == 0)
		rate = IRMP_DEFAULT_RATE;
	while (ret == 0 && next_line(&c, line, line_max, &too_long)) {
		char *hash = strchr(line, '#');
		size_t n;
		uint64_t run = 0;
		bool run_active = false;

		if (too_long) {
			ret = set_error(err, c.line, "line longer than %zu samples", line_max - 1);
			break;
		}
		if (hash)
			*hash = '\0';
		n = strlen(line);
		while (n && isspace((unsigned char)line[n - 1]))
			line[--n] = '\0';
		/* Some IR-Data exports show each line end as a literal "<\n>". */
		if (n >= 4 && strcmp(line + n - 4, "<\\n>") == 0)
			line[n -= 4] = '\0';
		if (n == 0)
			continue;
		for (size_t i = 0; i <= n && ret == 0; i++) {
			bool end = i == n;

			if (!end && !irmp_sample_char(line[i])) {
				ret = set_error(err, c.line, "'%c' at column %zu is not a sample (0/1/_/-)",
						isprint((unsigned char)line[i]) ? line[i] : '?', i + 1);
				break;
			}
			if (!end && run && irmp_active(line[i]) == run_active) {
				run++;
				continue;
			}
			if (run) {
				uint64_t us = (run * 1000000u + rate / 2) / rate;

				if (us > IR_DURATION_MAX)
					us = IR_DURATION_MAX;
				ret = ir_edge_buf_push(out, run_active ? ir_pulse((uint32_t)us)
								       : ir_space((uint32_t)us));
			}
			if (!end) {
				run = 1;
				run_active = irmp_active(line[i]);
			}
		}
		if (ret == 0)
			ret = ir_edge_buf_space(out, IRMP_LINE_GAP_US);
	}
	free(line);
	return ret;
}

enum ir_timing_format ir_timing_detect(const void *data, size_t len)
{
	const char *s = data;
	struct text_cursor c = { s, s + len, 0 };
	char line[256];
	bool too_long;

	if (memchr(data, '\0', len))
		return IR_FORMAT_BINARY;
	if (memmem(data, len, "begin raw_codes", 15) || memmem(data, len, "begin remote", 12))
		return IR_FORMAT_LIRCD;
	while (next_line(&c, line, sizeof(line), &too_long)) {
		char *p = line;
		size_t samples = 0;

		while (isspace((unsigned char)*p))
			p++;
		if (*p == '\0' || *p == '#' || (p[0] == '/' && p[1] == '/'))
			continue;
		while (irmp_sample_char(p[samples]))
			samples++;
		if (samples >= 16 && (p[samples] == '\0' || p[samples] == '#' || p[samples] == '<' ||
				      p[samples] == '\r' || too_long))
			return IR_FORMAT_IRMP;
		/* A few sample characters before a comment (IRMP's nec.txt
		 * starts so): undecided, look further. */
		if (samples > 0 && p[samples] == '#')
			continue;
		if (strncasecmp(p, "name", 4) == 0 && isspace((unsigned char)p[4]))
			return IR_FORMAT_LIRCD;
		return IR_FORMAT_MODE2;
	}
	return IR_FORMAT_MODE2;
}

unsigned ir_timing_irmp_rate_from_name(const char *path)
{
	const char *base = strrchr(path, '/');
	char lower[256];
	size_t i;

	base = base ? base + 1 : path;
	for (i = 0; base[i] && i + 1 < sizeof(lower); i++)
		lower[i] = (char)tolower((unsigned char)base[i]);
	lower[i] = '\0';
	for (const char *p = lower; (p = strstr(p, "khz")) != NULL; p++) {
		const char *d = p;

		while (d > lower && isdigit((unsigned char)d[-1]))
			d--;
		if (d < p) {
			unsigned khz = (unsigned)strtoul(d, NULL, 10);

			if (khz >= 1 && khz <= 1000)
				return khz * 1000;
		}
	}
	return IRMP_DEFAULT_RATE;
}

int ir_timing_parse(const void *data, size_t len, enum ir_timing_format fmt,
		    const struct ir_timing_parse_opts *opts, struct ir_edge_buf *out,
		    struct ir_parse_error *err)
{
	size_t undo = out->len;
	int ret;

	if (err) {
		err->line = 0;
		err->message[0] = '\0';
	}
	if (fmt == IR_FORMAT_AUTO)
		fmt = ir_timing_detect(data, len);
	switch (fmt) {
	case IR_FORMAT_MODE2:
		ret = parse_mode2(data, len, out, err);
		break;
	case IR_FORMAT_BINARY:
		ret = parse_binary(data, len, out, err);
		break;
	case IR_FORMAT_LIRCD:
		ret = parse_lircd(data, len, out, err);
		break;
	case IR_FORMAT_IRMP:
		ret = parse_irmp(data, len, opts ? opts->irmp_sample_rate : 0, out, err);
		break;
	default:
		ret = set_error(err, 0, "unknown format");
		break;
	}
	if (ret == -ENOMEM)
		set_error(err, 0, "out of memory");
	if (ret < 0)
		out->len = undo;
	return ret;
}

int ir_timing_read_file(const char *path, enum ir_timing_format fmt,
			const struct ir_timing_parse_opts *opts, struct ir_edge_buf *out,
			enum ir_timing_format *detected, struct ir_parse_error *err)
{
	bool is_stdin = strcmp(path, "-") == 0;
	FILE *f = is_stdin ? stdin : fopen(path, "rb");
	char *data = NULL;
	size_t len = 0, cap = 0;
	struct ir_timing_parse_opts local = { 0 };
	int ret = 0;

	if (err) {
		err->line = 0;
		err->message[0] = '\0';
	}
	if (!f)
		return -errno;
	/* a regular file's size is known: refuse it before reading (and
	 * holding) 256 MiB of it */
	if (!is_stdin) {
		struct stat st;

		if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) &&
		    st.st_size > (off_t)IR_TIMING_FILE_MAX) {
			fclose(f);
			return -EFBIG;
		}
		/* reading one fails with EISDIR, which stdio reports as EIO */
		if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
			fclose(f);
			return -EISDIR;
		}
	}
	for (;;) {
		if (len == cap) {
			size_t ncap = cap ? cap * 2 : 65536;
			char *n;

			if (cap >= IR_TIMING_FILE_MAX) {
				ret = -EFBIG;
				break;
			}
			n = realloc(data, ncap + 1);
			if (!n) {
				ret = -ENOMEM;
				break;
			}
			data = n;
			cap = ncap;
		}
		size_t got = fread(data + len, 1, cap - len, f);

		len += got;
		if (got == 0) {
			if (ferror(f))
				ret = -EIO;
			break;
		}
	}
	if (len > IR_TIMING_FILE_MAX)
		ret = -EFBIG;
	if (!is_stdin)
		fclose(f);
	if (ret == 0) {
		if (opts)
			local = *opts;
		if (fmt == IR_FORMAT_AUTO)
			fmt = ir_timing_detect(data, len);
		if (fmt == IR_FORMAT_IRMP && local.irmp_sample_rate == 0)
			local.irmp_sample_rate = ir_timing_irmp_rate_from_name(path);
		if (detected)
			*detected = fmt;
		ret = ir_timing_parse(data, len, fmt, &local, out, err);
	}
	free(data);
	return ret;
}

int ir_timing_write_mode2(FILE *f, const struct ir_edge *edges, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct ir_edge *e = &edges[i];

		if (e->kind == IR_OVERFLOW)
			fputs("overflow\n", f);
		else
			fprintf(f, "%s %u\n", ir_edge_kind_name(e->kind), e->duration);
	}
	return ferror(f) ? -EIO : 0;
}

/* Spaces at least this long end a line in the compact form: one frame per
 * line reads naturally. */
#define COMPACT_LINE_BREAK_US 20000u

int ir_timing_write_compact(FILE *f, const struct ir_edge *edges, size_t n)
{
	bool line_open = false;

	for (size_t i = 0; i < n; i++) {
		const struct ir_edge *e = &edges[i];

		switch (e->kind) {
		case IR_PULSE:
		case IR_SPACE:
			fprintf(f, "%s%c%u", line_open ? " " : "", e->kind == IR_PULSE ? '+' : '-',
				e->duration);
			line_open = true;
			if (e->kind == IR_SPACE && e->duration >= COMPACT_LINE_BREAK_US) {
				fputc('\n', f);
				line_open = false;
			}
			break;
		default:
			if (line_open)
				fputc('\n', f);
			line_open = false;
			if (e->kind == IR_OVERFLOW)
				fputs("overflow\n", f);
			else
				fprintf(f, "%s %u\n", ir_edge_kind_name(e->kind), e->duration);
			break;
		}
	}
	if (line_open)
		fputc('\n', f);
	return ferror(f) ? -EIO : 0;
}

int ir_timing_write_binary(FILE *f, const struct ir_edge *edges, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct ir_edge *e = &edges[i];
		uint32_t v = e->duration & LIRC_VALUE_MASK, w;

		switch (e->kind) {
		case IR_PULSE:
			w = LIRC_MODE2_PULSE | v;
			break;
		case IR_SPACE:
			w = LIRC_MODE2_SPACE | v;
			break;
		case IR_CARRIER:
			w = LIRC_MODE2_FREQUENCY | v;
			break;
		case IR_TIMEOUT:
			w = LIRC_MODE2_TIMEOUT | v;
			break;
		default:
			w = LIRC_MODE2_OVERFLOW | LIRC_VALUE_MASK;
			break;
		}
		if (fwrite(&w, 4, 1, f) != 1)
			return -EIO;
	}
	return 0;
}
