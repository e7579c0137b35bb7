/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "ir_rc_maps.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* Debian's file is 5 KiB; a bound keeps a wrong path (a log, a device)
 * from being read whole. */
#define RC_MAPS_MAX_BYTES (1024 * 1024)

static const char *const default_dirs[] = { "/etc/rc_keymaps", "/lib/udev/rc_keymaps", NULL };

/* Copies the next blank-separated field of *p into out; false when none. */
static bool next_field(const char **p, char *out, size_t size, bool *too_long)
{
	const char *s = *p + strspn(*p, " \t\r");
	size_t len = strcspn(s, " \t\r\n");

	*p = s + len;
	if (!len)
		return false;
	if (len >= size) {
		*too_long = true;
		return false;
	}
	memcpy(out, s, len);
	out[len] = '\0';
	return true;
}

static int add_line(struct ir_rc_maps *m, const char *s, unsigned line, size_t *cap,
		    struct ir_parse_error *err)
{
	struct ir_rc_map_entry e = { .line = line };
	bool too_long = false;
	const char *p = s;

	if (!next_field(&p, e.driver, sizeof(e.driver), &too_long) ||
	    !next_field(&p, e.table, sizeof(e.table), &too_long) ||
	    !next_field(&p, e.file, sizeof(e.file), &too_long)) {
		err->line = line;
		snprintf(err->message, sizeof(err->message), "%s",
			 too_long ? "a field is too long"
				  : "expected three fields: driver, table and keymap file");
		return -EINVAL;
	}
	if (m->count == *cap) {
		size_t ncap = *cap ? *cap * 2 : 64;
		struct ir_rc_map_entry *n = realloc(m->entries, ncap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		m->entries = n;
		*cap = ncap;
	}
	m->entries[m->count++] = e;
	return 0;
}

int ir_rc_maps_parse(struct ir_rc_maps *m, const char *path, const char *text,
		     struct ir_parse_error *err)
{
	size_t cap = 0;
	unsigned line = 0;

	memset(m, 0, sizeof(*m));
	memset(err, 0, sizeof(*err));
	snprintf(m->path, sizeof(m->path), "%s", path);
	for (const char *s = text; *s;) {
		const char *end = strchr(s, '\n');
		const char *first = s + strspn(s, " \t\r");
		int ret = 0;

		line++;
		if (*first && *first != '\n' && *first != '#')
			ret = add_line(m, s, line, &cap, err);
		if (ret < 0) {
			ir_rc_maps_free(m);
			return ret;
		}
		if (!end)
			break;
		s = end + 1;
	}
	return 0;
}

int ir_rc_maps_load(struct ir_rc_maps *m, const char *path, struct ir_parse_error *err)
{
	FILE *f = fopen(path, "re");
	char *text;
	size_t len;
	int ret;

	memset(m, 0, sizeof(*m));
	memset(err, 0, sizeof(*err));
	if (!f) {
		ret = -errno;
		snprintf(err->message, sizeof(err->message), "%s", strerror(errno));
		return ret;
	}
	text = malloc(RC_MAPS_MAX_BYTES + 1);
	if (!text) {
		fclose(f);
		return -ENOMEM;
	}
	len = fread(text, 1, RC_MAPS_MAX_BYTES + 1, f);
	fclose(f);
	if (len > RC_MAPS_MAX_BYTES) {
		free(text);
		snprintf(err->message, sizeof(err->message), "larger than %d bytes: not an rc_maps.cfg",
			 RC_MAPS_MAX_BYTES);
		return -EFBIG;
	}
	text[len] = '\0';
	if (strlen(text) != len) {
		free(text);
		snprintf(err->message, sizeof(err->message), "binary data: not an rc_maps.cfg");
		return -EINVAL;
	}
	ret = ir_rc_maps_parse(m, path, text, err);
	free(text);
	return ret;
}

void ir_rc_maps_free(struct ir_rc_maps *m)
{
	free(m->entries);
	m->entries = NULL;
	m->count = 0;
}

/* ir-keytable's rule: equal ignoring case, or the field is "*" */
static bool field_match(const char *field, const char *value)
{
	return !strcmp(field, "*") || (value[0] && !strcasecmp(field, value));
}

bool ir_rc_maps_match(const struct ir_rc_map_entry *e, const char *driver, const char *table)
{
	return field_match(e->driver, driver ? driver : "") &&
	       field_match(e->table, table ? table : "");
}

int ir_rc_maps_resolve(const struct ir_rc_maps *m, const struct ir_rc_map_entry *e,
		       const char *const *dirs, char *out, size_t size)
{
	int n;

	if (e->file[0] == '/') {
		n = snprintf(out, size, "%s", e->file);
		return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
	}
	if (e->file[0] == '.' && strchr(e->file, '/')) {
		const char *slash = strrchr(m->path, '/');

		n = slash ? snprintf(out, size, "%.*s/%s", (int)(slash - m->path), m->path, e->file)
			  : snprintf(out, size, "%s", e->file);
		return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
	}
	for (const char *const *d = dirs ? dirs : default_dirs; *d; d++) {
		n = snprintf(out, size, "%s/%s", *d, e->file);
		if (n < 0 || (size_t)n >= size)
			return -ENAMETOOLONG;
		if (access(out, R_OK) == 0)
			return 0;
	}
	return -ENOENT;
}

bool ir_rc_maps_looks_like(const char *text)
{
	for (const char *s = text; *s;) {
		const char *first = s + strspn(s, " \t\r"), *end = strchr(s, '\n');

		if (*first && *first != '\n' && *first != '#') {
			struct ir_rc_map_entry e;
			bool too_long = false;
			const char *p = first;
			size_t n;

			if (!next_field(&p, e.driver, sizeof(e.driver), &too_long) ||
			    !next_field(&p, e.table, sizeof(e.table), &too_long) ||
			    !next_field(&p, e.file, sizeof(e.file), &too_long))
				return false;
			n = strlen(e.file);
			return n > 5 && !strcmp(e.file + n - 5, ".toml");
		}
		if (!end)
			break;
		s = end + 1;
	}
	return false;
}
