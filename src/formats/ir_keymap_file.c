/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_keymap_file.c - keymap files: read a file (or every keymap file of a
 * folder), tell rc_keymaps TOML from lircd.conf, hand the text to its
 * parser, and merge what it built into the caller's keymap.
 */
#include "ir_keymap_file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ir_keymap_loaders.h"
#include "ir_rc_maps.h"

/* Files larger than this are not keymaps (the largest rc_keymaps file is
 * 8 KiB, lircd.conf files with raw codes reach a few hundred KiB). */
#define KEYMAP_FILE_MAX (4u << 20)

/* A keymap is a regular file: a FIFO would block the open (O_NONBLOCK
 * here) and the read, a device never end.  -ENOTSUP for those. */
static FILE *open_regular(const char *path, int *ret)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	FILE *f;

	if (fd < 0) {
		*ret = -errno;
		return NULL;
	}
	if (fstat(fd, &st) < 0)
		*ret = -errno;
	else if (!S_ISREG(st.st_mode))
		*ret = S_ISDIR(st.st_mode) ? -EISDIR : -ENOTSUP;
	else
		*ret = 0;
	if (*ret < 0) {
		close(fd);
		return NULL;
	}
	f = fdopen(fd, "rb");
	if (!f) {
		*ret = -errno;
		close(fd);
	}
	return f;
}

static int read_whole_file(const char *path, char **text, size_t *len)
{
	char *buf = NULL;
	size_t n = 0, cap = 0;
	int ret = 0;
	FILE *f = open_regular(path, &ret);

	if (!f)
		return ret;
	for (;;) {
		size_t got;

		if (n + 4096 + 1 > cap) {
			char *p;

			cap = cap ? cap * 2 : 16384;
			if (cap > KEYMAP_FILE_MAX + 4096 + 1) {
				ret = -EFBIG;
				break;
			}
			p = realloc(buf, cap);
			if (!p) {
				ret = -ENOMEM;
				break;
			}
			buf = p;
		}
		got = fread(buf + n, 1, 4096, f);
		n += got;
		if (n > KEYMAP_FILE_MAX) {
			ret = -EFBIG;
			break;
		}
		if (got < 4096) {
			if (ferror(f))
				ret = -EIO;
			break;
		}
	}
	fclose(f);
	if (ret < 0) {
		free(buf);
		return ret;
	}
	if (!buf) {
		buf = malloc(1);
		if (!buf)
			return -ENOMEM;
	}
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return 0;
}

/* A TOML keymap has a [[protocols]] table; anything else is taken for a
 * lircd.conf (whose parser then names what is wrong). */
static bool looks_like_toml(const char *text)
{
	return strstr(text, "[[protocols]]") != NULL;
}

static void set_error(struct ir_keymap_error *err, const char *file, unsigned line,
		      const char *message)
{
	if (!err)
		return;
	snprintf(err->file, sizeof(err->file), "%s", file);
	err->parse.line = line;
	snprintf(err->parse.message, sizeof(err->parse.message), "%s", message);
}

/* lircd's bound on nested includes (config_file.c, MAX_INCLUDES), and
 * ours on the files one keymap path may pull in: a file that includes its
 * own folder's glob would otherwise fan out to n^10 reads before the
 * depth bound stops it. */
#define INCLUDE_DEPTH_MAX 10
#define INCLUDE_FILES_MAX 1000

/* One top-level ir_keymap_load(): what the files it reads share. */
struct load {
	struct ir_keymap_error *err;
	unsigned files;
	bool reported; /* err is filled: the callers above keep it */
};

/* One lircd.conf being read: where its includes are resolved. */
struct including {
	struct load *load;
	struct ir_keymap *km;
	const char *path;
	unsigned depth;
};

static int load_file(struct load *ld, struct ir_keymap *km, const char *path, unsigned depth);

/* lircd's rules: a relative path is taken from the including file's
 * folder; the result is a glob, its matches read in sorted order; a
 * pattern that matches nothing adds nothing. */
static int include_cb(void *userdata, const char *child, unsigned line)
{
	struct including *in = userdata;
	char pattern[4096], message[300];
	glob_t g = { 0 };
	int ret = 0, gret;

	(void)line;
	if (child[0] == '/') {
		snprintf(pattern, sizeof(pattern), "%s", child);
	} else {
		const char *slash = strrchr(in->path, '/');
		int dir_len = slash ? (int)(slash - in->path) : 1;

		snprintf(pattern, sizeof(pattern), "%.*s/%s", dir_len, slash ? in->path : ".", child);
	}
	if (in->depth + 1 > INCLUDE_DEPTH_MAX) {
		snprintf(message, sizeof(message), "include \"%.200s\": nested deeper than %d files "
			 "(an include loop?)", child, INCLUDE_DEPTH_MAX);
		set_error(in->load->err, in->path, line, message);
		in->load->reported = true;
		return -ELOOP;
	}
	gret = glob(pattern, 0, NULL, &g);
	if (gret != 0 && gret != GLOB_NOMATCH) {
		set_error(in->load->err, in->path, line, "include: cannot expand the pattern");
		in->load->reported = true;
		globfree(&g);
		return gret == GLOB_NOSPACE ? -ENOMEM : -EIO;
	}
	for (size_t i = 0; gret == 0 && i < g.gl_pathc && ret == 0; i++)
		ret = load_file(in->load, in->km, g.gl_pathv[i], in->depth + 1);
	globfree(&g);
	return ret;
}

static int load_file(struct load *ld, struct ir_keymap *km, const char *path, unsigned depth)
{
	struct ir_keymap *tmp;
	struct ir_parse_error perr = { 0 };
	struct including in = { .load = ld, .path = path, .depth = depth };
	struct ir_lircd_include inc = { .include = include_cb, .userdata = &in };
	char *text = NULL;
	size_t len = 0;
	int ret;

	if (++ld->files > INCLUDE_FILES_MAX) {
		set_error(ld->err, path, 0, "more than 1000 files included");
		ld->reported = true;
		return -E2BIG;
	}
	ret = read_whole_file(path, &text, &len);
	if (ret < 0) {
		set_error(ld->err, path, 0,
			  ret == -EFBIG	     ? "file too large for a keymap"
			  : ret == -ENOTSUP ? "not a regular file (a FIFO or device): refused"
					    : strerror(-ret));
		ld->reported = true;
		return ret;
	}
	ret = ir_keymap_new(&tmp);
	if (ret == 0) {
		in.km = tmp;
		if (looks_like_toml(text)) {
			ret = ir_keymap_parse_toml(tmp, text, len, &perr);
		} else if (ir_rc_maps_looks_like(text)) {
			/* lircd's parser would say "'*' outside 'begin remote'" */
			ret = -EINVAL;
			snprintf(perr.message, sizeof(perr.message),
				 "an ir-keytable rc_maps.cfg (driver, table -> keymap file), not a "
				 "keymap: name it in [daemon] rc_maps");
			perr.line = 0;
		} else
			ret = ir_keymap_parse_lircd_file(tmp, text, len, &inc, &perr);
		if (ret < 0 && !ld->reported)
			set_error(ld->err, path, perr.line,
				  perr.message[0] ? perr.message : strerror(-ret));
		else if (ret == 0 && (ret = ir_keymap_merge(km, tmp)) < 0)
			set_error(ld->err, path, 0, strerror(-ret));
		ld->reported = ld->reported || ret < 0;
	}
	ir_keymap_free(tmp);
	free(text);
	return ret;
}

static bool keymap_file_name(const char *name)
{
	size_t n = strlen(name);

	if (name[0] == '.')
		return false;
	return (n > 5 && strcmp(name + n - 5, ".toml") == 0) ||
	       (n > 5 && strcmp(name + n - 5, ".conf") == 0);
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int ir_keymap_load(struct ir_keymap *km, const char *path, struct ir_keymap_error *err)
{
	DIR *dir = opendir(path);
	struct dirent *ent;
	char **names = NULL;
	size_t count = 0, cap = 0;
	struct load ld = { .err = err };
	int ret = 0;

	if (!dir) {
		if (errno == ENOTDIR)
			return load_file(&ld, km, path, 0);
		ret = -errno;
		set_error(err, path, 0, strerror(-ret));
		return ret;
	}
	while ((ent = readdir(dir)) != NULL) {
		if (!keymap_file_name(ent->d_name))
			continue;
		if (count == cap) {
			char **more = realloc(names, (cap ? cap * 2 : 16) * sizeof(*names));

			if (!more) {
				ret = -ENOMEM;
				break;
			}
			names = more;
			cap = cap ? cap * 2 : 16;
		}
		if (!(names[count] = strdup(ent->d_name))) {
			ret = -ENOMEM;
			break;
		}
		count++;
	}
	closedir(dir);
	if (ret == 0)
		qsort(names, count, sizeof(*names), compare_names);
	for (size_t i = 0; i < count && ret == 0; i++) {
		char full[4096];

		snprintf(full, sizeof(full), "%s/%s", path, names[i]);
		ret = load_file(&ld, km, full, 0);
	}
	for (size_t i = 0; i < count; i++)
		free(names[i]);
	free(names);
	if (ret == -ENOMEM)
		set_error(err, path, 0, strerror(ENOMEM));
	return ret;
}
