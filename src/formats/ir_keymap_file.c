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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ir_keymap_loaders.h"

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

static int load_file(struct ir_keymap *km, const char *path, struct ir_keymap_error *err)
{
	struct ir_keymap *tmp;
	struct ir_parse_error perr = { 0 };
	char *text = NULL;
	size_t len = 0;
	int ret = read_whole_file(path, &text, &len);

	if (ret < 0) {
		set_error(err, path, 0,
			  ret == -EFBIG	     ? "file too large for a keymap"
			  : ret == -ENOTSUP ? "not a regular file (a FIFO or device): refused"
					    : strerror(-ret));
		return ret;
	}
	ret = ir_keymap_new(&tmp);
	if (ret == 0) {
		if (looks_like_toml(text))
			ret = ir_keymap_parse_toml(tmp, text, len, &perr);
		else
			ret = ir_keymap_parse_lircd(tmp, text, len, &perr);
		if (ret < 0)
			set_error(err, path, perr.line,
				  perr.message[0] ? perr.message : strerror(-ret));
		else if ((ret = ir_keymap_merge(km, tmp)) < 0)
			set_error(err, path, 0, strerror(-ret));
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
	int ret = 0;

	if (!dir) {
		if (errno == ENOTDIR)
			return load_file(km, path, err);
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
		ret = load_file(km, full, err);
	}
	for (size_t i = 0; i < count; i++)
		free(names[i]);
	free(names);
	if (ret == -ENOMEM)
		set_error(err, path, 0, strerror(ENOMEM));
	return ret;
}
