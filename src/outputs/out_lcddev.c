/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * out_lcddev.c - /dev/lcd0 with lirc_imon's write semantics through CUSE,
 * and the output kind "lcddev" that passes its writes to a source's
 * display.
 */
#include "out_lcddev.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "cuse_session.h"
#include "ir_output.h"
#include "ir_output_kinds.h"

int ir_lcddev_request(const void *buf, size_t n, char *req, size_t size)
{
	static const char hex[] = "0123456789abcdef";
	const uint8_t *b = buf;
	size_t len = 6;

	if (n == 0 || n > IR_LCDDEV_WRITE_MAX)
		return -EINVAL;
	if (size < 6 + 2 * n + 1)
		return -ENOSPC;
	memcpy(req, "WRITE ", 6);
	for (size_t i = 0; i < n; i++) {
		req[len++] = hex[b[i] >> 4];
		req[len++] = hex[b[i] & 15];
	}
	req[len] = '\0';
	return 0;
}

#ifdef IRJACK_HAVE_CUSE

struct ir_lcddev_cuse {
	struct ir_cuse_session s;
	ir_lcddev_write_fn write;
	void *userdata;
	struct ir_lcddev_stats st;
	char path[80];
};

bool ir_lcddev_cuse_supported(void)
{
	return true;
}

static void on_init_done(void *userdata)
{
	struct ir_lcddev_cuse *c = userdata;

	ir_cuse_session_ready(&c->s);
}

static void on_open(fuse_req_t req, struct fuse_file_info *fi)
{
	struct ir_lcddev_cuse *c = fuse_req_userdata(req);

	c->st.opens++;
	fi->direct_io = 1;
	fi->nonseekable = 1;
	fuse_reply_open(req, fi);
}

static void on_release(fuse_req_t req, struct fuse_file_info *fi)
{
	struct ir_lcddev_cuse *c = fuse_req_userdata(req);

	(void)fi;
	c->st.opens--;
	fuse_reply_err(req, 0);
}

/* lirc_imon's device had no read(): the VFS answered EINVAL. */
static void on_read(fuse_req_t req, size_t size, off_t off, struct fuse_file_info *fi)
{
	(void)size;
	(void)off;
	(void)fi;
	fuse_reply_err(req, EINVAL);
}

/* One write, one screen (VFD) or packet (LCD): the whole write or an error. */
static void on_write(fuse_req_t req, const char *buf, size_t size, off_t off,
		     struct fuse_file_info *fi)
{
	struct ir_lcddev_cuse *c = fuse_req_userdata(req);
	int ret = size == 0 || size > IR_LCDDEV_WRITE_MAX ? -EINVAL
							 : c->write(c->userdata, (const uint8_t *)buf, size);

	(void)off;
	(void)fi;
	if (ret < 0) {
		c->st.refused++;
		fuse_reply_err(req, -ret);
		return;
	}
	c->st.writes++;
	fuse_reply_write(req, size);
}

static const struct cuse_lowlevel_ops cuse_ops = {
	.init_done = on_init_done,
	.open = on_open,
	.read = on_read,
	.write = on_write,
	.release = on_release,
};

int ir_lcddev_cuse_new(const char *name, ir_lcddev_write_fn write, void *userdata,
		       struct ir_lcddev_cuse **out, char *err, size_t err_size)
{
	struct ir_lcddev_cuse *c;
	int ret;

	if (!ir_cuse_name_ok(name)) {
		snprintf(err, err_size, "lcddev name '%s': expected letters, digits, '-', '_', '.'",
			 name ? name : "");
		return -EINVAL;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->write = write;
	c->userdata = userdata;
	snprintf(c->path, sizeof(c->path), "/dev/%s", name);
	ret = ir_cuse_session_start(&c->s, name, &cuse_ops, c, err, err_size);
	if (ret < 0) {
		free(c);
		return ret;
	}
	*out = c;
	return 0;
}

void ir_lcddev_cuse_free(struct ir_lcddev_cuse *c)
{
	if (!c)
		return;
	ir_cuse_session_stop(&c->s);
	free(c);
}

int ir_lcddev_cuse_fd(const struct ir_lcddev_cuse *c)
{
	return fuse_session_fd(c->s.se);
}

int ir_lcddev_cuse_process(struct ir_lcddev_cuse *c)
{
	return ir_cuse_session_process(&c->s);
}

const char *ir_lcddev_cuse_path(const struct ir_lcddev_cuse *c)
{
	return c->path;
}

void ir_lcddev_cuse_stats(const struct ir_lcddev_cuse *c, struct ir_lcddev_stats *st)
{
	*st = c->st;
}

#else /* built without libfuse3 */

bool ir_lcddev_cuse_supported(void)
{
	return false;
}

int ir_lcddev_cuse_new(const char *name, ir_lcddev_write_fn write, void *userdata,
		       struct ir_lcddev_cuse **out, char *err, size_t err_size)
{
	(void)write;
	(void)userdata;
	(void)out;
	if (!ir_cuse_name_ok(name)) {
		snprintf(err, err_size, "lcddev name '%s': expected letters, digits, '-', '_', '.'",
			 name ? name : "");
		return -EINVAL;
	}
	snprintf(err, err_size, "lcddev: irjack was built without libfuse3 (IRJACK_WITH_CUSE)");
	return -ENOTSUP;
}

void ir_lcddev_cuse_free(struct ir_lcddev_cuse *c)
{
	(void)c;
}

int ir_lcddev_cuse_fd(const struct ir_lcddev_cuse *c)
{
	(void)c;
	return -1;
}

int ir_lcddev_cuse_process(struct ir_lcddev_cuse *c)
{
	(void)c;
	return -ENODEV;
}

const char *ir_lcddev_cuse_path(const struct ir_lcddev_cuse *c)
{
	(void)c;
	return NULL;
}

void ir_lcddev_cuse_stats(const struct ir_lcddev_cuse *c, struct ir_lcddev_stats *st)
{
	(void)c;
	memset(st, 0, sizeof(*st));
}

#endif

/* ---- the output kind "lcddev" ---- */

struct lcddev_out {
	struct ir_lcddev_cuse *cuse;
	struct ir_output_env env;
	char source[64];
	bool gone;    /* the kernel closed the device (logged once) */
	bool failing; /* the display's last write failed (logged when it began) */
};

static void lcddev_log(const struct ir_output_env *env, int level, const char *message)
{
	if (env->log)
		env->log(env->userdata, level, message);
}

/* A write from lcdproc: the chosen source's display shows it. */
static int lcddev_write(void *userdata, const uint8_t *buf, size_t n)
{
	struct lcddev_out *l = userdata;
	char req[8 + 2 * IR_LCDDEV_WRITE_MAX], err[256], line[PATH_MAX + sizeof(err)];
	int ret = ir_lcddev_request(buf, n, req, sizeof(req));

	if (ret < 0)
		return ret;
	if (!l->env.display_on)
		return -ENODEV;
	ret = l->env.display_on(l->env.userdata, l->source, req, err, sizeof(err));
	/* a wrong size is the writer's to know; a failing display the log's,
	 * once (lcdproc writes a screen 8 times a second) */
	if (ret < 0 && ret != -EINVAL && !l->failing) {
		snprintf(line, sizeof(line), "%s: %s", ir_lcddev_cuse_path(l->cuse), err);
		lcddev_log(&l->env, LOG_WARNING, line);
	}
	if (ret != -EINVAL)
		l->failing = ret < 0;
	/* lirc_imon: ENODEV when no display is there to take it */
	return ret == -EINVAL || ret == -ENOMEM ? ret : ret < 0 ? -ENODEV : 0;
}

static int lcddev_open(const void *settings, const struct ir_output_env *env, void **impl,
		       char *err, size_t err_size)
{
	const struct ir_lcddev_settings *s = settings;
	struct lcddev_out *l = calloc(1, sizeof(*l));
	char line[320];
	int ret;

	if (!l)
		return -ENOMEM;
	l->env = *env;
	snprintf(l->source, sizeof(l->source), "%s", s->source);
	ret = ir_lcddev_cuse_new(s->name, lcddev_write, l, &l->cuse, err, err_size);
	if (ret < 0) {
		free(l);
		return ret;
	}
	snprintf(line, sizeof(line), "display device %s, for %s", ir_lcddev_cuse_path(l->cuse),
		 l->source[0] ? l->source : "every source with a display");
	lcddev_log(env, LOG_INFO, line);
	*impl = l;
	return 0;
}

static int lcddev_rebind(void *impl, const void *old, const void *settings,
			 const struct ir_output_env *env)
{
	const struct ir_lcddev_settings *a = old, *b = settings;
	struct lcddev_out *l = impl;

	/* the device (and lcdproc's open file) stays while its name does */
	if (strcmp(a->name, b->name))
		return -EAGAIN;
	l->env = *env;
	snprintf(l->source, sizeof(l->source), "%s", b->source);
	return 0;
}

static size_t lcddev_fds(void *impl, struct pollfd *fds, size_t max)
{
	struct lcddev_out *l = impl;

	if (max == 0 || l->gone)
		return 0;
	fds[0] = (struct pollfd){ .fd = ir_lcddev_cuse_fd(l->cuse), .events = POLLIN };
	return 1;
}

static void lcddev_process(void *impl, const struct pollfd *fds, size_t n)
{
	struct lcddev_out *l = impl;
	char line[320];

	if (n == 0 || !(fds[0].revents & (POLLIN | POLLERR | POLLHUP)))
		return;
	if (ir_lcddev_cuse_process(l->cuse) < 0) {
		l->gone = true;
		snprintf(line, sizeof(line), "display device %s: the kernel closed it",
			 ir_lcddev_cuse_path(l->cuse));
		lcddev_log(&l->env, LOG_ERR, line);
	}
}

static void lcddev_status(void *impl, const void *settings, char *line, size_t size)
{
	struct lcddev_out *l = impl;
	struct ir_lcddev_stats st;

	(void)settings;
	ir_lcddev_cuse_stats(l->cuse, &st);
	snprintf(line, size, "output lcddev %s, source %s, %u open, writes %" PRIu64
		 ", refused %" PRIu64, ir_lcddev_cuse_path(l->cuse),
		 l->source[0] ? l->source : "(every display)", st.opens, st.writes, st.refused);
}

static void lcddev_close(void *impl)
{
	struct lcddev_out *l = impl;

	ir_lcddev_cuse_free(l->cuse);
	free(l);
}

const struct ir_output_kind ir_output_lcddev = {
	.name = "lcddev",
	.settings_size = sizeof(struct ir_lcddev_settings),
	.keeps_running = true,
	.open = lcddev_open,
	.rebind = lcddev_rebind,
	.fds = lcddev_fds,
	.process = lcddev_process,
	.status = lcddev_status,
	.close = lcddev_close,
};
