/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_learn_save.c - one truth for a learned remote (ir_learn_save() in
 * ir_learn_remote.h): the file is checked as the programs that will read it
 * read it.  Its text goes to a temporary file, ir_keymap_load() loads it,
 * every press is decoded again with the default protocols plus what the
 * keymap brings (as `irjack decode --keymap` does), and only a file that
 * names every key, and no press as another key, is renamed into place.
 */
#include "ir_learn_remote.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ir_keymap.h"
#include "ir_keymap_file.h"

/* What the frames of one press are named. */
struct press_names {
	const struct ir_keymap *km;
	const char *want;   /* the press's key */
	const char *other;  /* another key a frame was named, or NULL */
	bool named;         /* a frame was named `want` */
	size_t frames;
};

static void name_frame(void *userdata, const struct ir_frame *frame)
{
	struct press_names *pn = userdata;
	struct ir_key_binding b;

	if (frame->flags & IR_FRAME_REPEAT)
		return; /* a repeat code says "the same key", not which */
	pn->frames++;
	if (!ir_keymap_lookup(pn->km, frame, &b))
		return;
	if (!strcmp(b.key, pn->want))
		pn->named = true;
	else if (!pn->other)
		pn->other = b.key;
}

/* Decodes edges `e` with the keymap as `irjack decode --keymap` would. */
static int decode_press(const struct ir_keymap *km, const struct ir_protocol_set *set,
			const struct ir_edge *e, size_t n, struct press_names *pn)
{
	struct ir_decoder *dec = NULL;
	int ret = ir_decoder_new(set, name_frame, pn, &dec);

	if (ret == 0 && (ret = ir_keymap_attach(km, dec)) == 0) {
		ir_decoder_feed_many(dec, e, n);
		ir_decoder_flush(dec);
	}
	ir_decoder_free(dec);
	return ret;
}

/* Keeps the first message of its kind in `buf`. */
static void note(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;

	if (buf[0])
		return;
	va_start(ap, fmt);
	vsnprintf(buf, size, fmt, ap);
	va_end(ap);
}

/*
 * Every press of `in` decoded with keymap `km`.  Returns 0 when every key
 * is named by one of its presses and no press as another key; -EINVAL
 * (check->problem says which) otherwise; -ENOMEM.
 */
static int check_presses(const struct ir_keymap *km, const struct ir_learn_input *in,
			 const struct ir_learn_result *res, struct ir_learn_check *check)
{
	struct ir_protocol_set set, named;
	bool wrong = false;
	int ret;

	ir_protocol_set_default(&set);
	ir_keymap_protocols(km, &named);
	for (unsigned p = 0; p < IR_PROTO_COUNT; p++)
		if (ir_protocol_set_has(&named, (enum ir_protocol)p))
			ir_protocol_set_add(&set, (enum ir_protocol)p);
	for (size_t k = 0; k < res->key_count; k++) {
		size_t named_presses = 0;

		for (size_t j = 0; j < res->per_key; j++) {
			size_t p = k * res->per_key + j;
			struct press_names pn = { .km = km, .want = res->keys[k].name };

			ret = decode_press(km, &set, in->edges.edges + res->spans[p].start,
					   res->spans[p].len, &pn);
			if (ret < 0)
				return ret;
			check->presses++;
			if (pn.other) {
				wrong = true;
				note(check->problem, sizeof(check->problem), "press %zu (%s) reads as %s",
				     p + 1, pn.want, pn.other);
			} else if (pn.named) {
				named_presses++;
				check->presses_ok++;
			} else {
				note(check->warning, sizeof(check->warning), "press %zu (%s): %s", p + 1,
				     pn.want, pn.frames ? "its frames name no key" : "no frame decodes");
			}
		}
		if (!named_presses) {
			wrong = true;
			note(check->problem, sizeof(check->problem),
			     "%s: none of its %zu presses reads as it", res->keys[k].name, res->per_key);
		}
	}
	return wrong ? -EINVAL : 0;
}

/* Loads `path` and checks the presses against it. */
static int load_and_check(const char *path, const struct ir_learn_input *in,
			  const struct ir_learn_result *res, struct ir_learn_check *check)
{
	struct ir_keymap *km = NULL;
	struct ir_keymap_error kerr = { 0 };
	int ret = ir_keymap_new(&km);

	if (ret < 0)
		return ret;
	ret = ir_keymap_load(km, path, &kerr);
	if (ret < 0) {
		snprintf(check->problem, sizeof(check->problem), "the file does not load: line %u: %s",
			 kerr.parse.line, kerr.parse.message);
		ret = ret == -ENOMEM ? ret : -EINVAL;
	} else {
		ret = check_presses(km, in, res, check);
	}
	ir_keymap_free(km);
	return ret;
}

/* Writes the TOML text to a new temporary file `tmp` (a mkstemp template). */
static int write_temp(char *tmp, const char *name, const struct ir_learn_result *res)
{
	int fd = mkstemp(tmp);
	FILE *f;
	int ret;

	if (fd < 0)
		return -errno;
	/* mkstemp's 0600 would hide the keymap from irjackd's own user */
	if (fchmod(fd, 0644) < 0 || !(f = fdopen(fd, "w"))) {
		ret = -errno;
		close(fd);
		unlink(tmp);
		return ret;
	}
	ret = ir_learn_write_toml(f, name, res);
	if (fclose(f) != 0 && ret == 0)
		ret = -EIO;
	if (ret < 0)
		unlink(tmp);
	return ret;
}

/* Copies file `from` to standard output. */
static int copy_to_stdout(const char *from)
{
	FILE *f = fopen(from, "r");
	char buf[4096];
	size_t n;
	int ret = 0;

	if (!f)
		return -errno;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		if (fwrite(buf, 1, n, stdout) != n)
			ret = -EIO;
	fclose(f);
	return fflush(stdout) == 0 ? ret : -EIO;
}

int ir_learn_save(const struct ir_learn_input *in, const struct ir_learn_result *res,
		  const char *name, const char *path, struct ir_learn_check *check, char *err,
		  size_t err_size)
{
	bool to_stdout = !strcmp(path, "-");
	const char *tmpdir = getenv("TMPDIR");
	char tmp[4096];
	int ret;

	memset(check, 0, sizeof(*check));
	if (to_stdout)
		ret = snprintf(tmp, sizeof(tmp), "%s/irjack-learn-XXXXXX",
			       tmpdir && *tmpdir ? tmpdir : "/tmp");
	else
		ret = snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path);
	if (ret < 0 || (size_t)ret >= sizeof(tmp)) {
		snprintf(err, err_size, "%s: name too long", path);
		return -ENAMETOOLONG;
	}
	ret = write_temp(tmp, name, res);
	if (ret < 0) {
		snprintf(err, err_size, "%s: %s", to_stdout ? tmp : path, strerror(-ret));
		return ret;
	}
	ret = load_and_check(tmp, in, res, check);
	if (ret == 0)
		ret = to_stdout ? copy_to_stdout(tmp) : rename(tmp, path) == 0 ? 0 : -errno;
	if (ret == -EINVAL)
		snprintf(err, err_size, "%s", check->problem);
	else if (ret < 0)
		snprintf(err, err_size, "%s: %s", path, strerror(-ret));
	if (ret < 0 || to_stdout)
		unlink(tmp);
	return ret;
}
