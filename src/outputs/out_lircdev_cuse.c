/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * out_lircdev_cuse.c - /dev/NAME through CUSE: libfuse3's CUSE session on
 * /dev/cuse, driven one request at a time from the caller's poll loop.
 */
#include "out_lircdev_cuse.h"

#include "cuse_session.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef IRJACK_HAVE_CUSE

#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* A read larger than this is served in part (mode2 words or scancodes
 * are whole records in either case). */
#define READ_MAX 4096

/* What one open file of the device has besides its reader. */
struct open_file {
	struct ir_lircdev_cuse *c;
	struct open_file *next, **prev; /* the device's list of open files */
	struct ir_lircdev_reader *r;
	fuse_req_t pending;            /* a blocking read waiting for data */
	size_t pending_size;
	struct fuse_pollhandle *ph;    /* a poll waiting for data */
};

struct ir_lircdev_cuse {
	struct ir_lircdev *dev;
	struct ir_cuse_session s;
	struct open_file *files;
	char path[80];
};

bool ir_lircdev_cuse_supported(void)
{
	return true;
}

/* Answers a waiting read and a waiting poll once data came. */
static void on_readable(void *userdata, struct ir_lircdev_reader *r)
{
	struct open_file *f = ir_lircdev_reader_transport(r);
	char buf[READ_MAX];
	ssize_t n;

	(void)userdata;
	if (f->pending) {
		n = ir_lircdev_read(r, buf, f->pending_size);
		if (n >= 0)
			fuse_reply_buf(f->pending, buf, (size_t)n);
		else
			fuse_reply_err(f->pending, (int)-n);
		f->pending = NULL;
	}
	if (f->ph) {
		fuse_lowlevel_notify_poll(f->ph);
		fuse_pollhandle_destroy(f->ph);
		f->ph = NULL;
	}
}

static void on_open(fuse_req_t req, struct fuse_file_info *fi)
{
	struct ir_lircdev_cuse *c = fuse_req_userdata(req);
	struct open_file *f = calloc(1, sizeof(*f));

	if (!f || ir_lircdev_open(c->dev, f, &f->r) < 0) {
		free(f);
		fuse_reply_err(req, ENOMEM);
		return;
	}
	f->c = c;
	f->next = c->files;
	f->prev = &c->files;
	if (c->files)
		c->files->prev = &f->next;
	c->files = f;
	fi->fh = (uint64_t)(uintptr_t)f;
	fi->direct_io = 1;
	fi->nonseekable = 1;
	fuse_reply_open(req, fi);
}

static void file_free(struct open_file *f, bool close_reader)
{
	*f->prev = f->next;
	if (f->next)
		f->next->prev = f->prev;
	if (f->ph)
		fuse_pollhandle_destroy(f->ph);
	if (close_reader)
		ir_lircdev_close(f->r);
	free(f);
}

static void on_release(fuse_req_t req, struct fuse_file_info *fi)
{
	struct open_file *f = (struct open_file *)(uintptr_t)fi->fh;

	if (f->pending)
		fuse_reply_err(f->pending, EBADF);
	file_free(f, true);
	fuse_reply_err(req, 0);
}

/* The reader gave up (a signal): its read ends with EINTR, as a blocked
 * read on a kernel device does. */
static void on_interrupt(fuse_req_t req, void *data)
{
	struct open_file *f = data;

	if (f->pending == req) {
		f->pending = NULL;
		fuse_reply_err(req, EINTR);
	}
}

static void on_read(fuse_req_t req, size_t size, off_t off, struct fuse_file_info *fi)
{
	struct open_file *f = (struct open_file *)(uintptr_t)fi->fh;
	char buf[READ_MAX];
	ssize_t n;

	(void)off;
	if (size > READ_MAX)
		size = READ_MAX - READ_MAX % 24; /* whole words and whole scancodes */
	n = ir_lircdev_read(f->r, buf, size);
	if (n == -EAGAIN && !(fi->flags & O_NONBLOCK)) {
		if (f->pending) {
			fuse_reply_err(req, EBUSY); /* one blocked read per open file */
			return;
		}
		f->pending = req;
		f->pending_size = size;
		fuse_req_interrupt_func(req, on_interrupt, f);
		return;
	}
	if (n < 0)
		fuse_reply_err(req, (int)-n);
	else
		fuse_reply_buf(req, buf, (size_t)n);
}

static void on_ioctl(fuse_req_t req, int cmd, void *arg, struct fuse_file_info *fi,
		     unsigned flags, const void *in_buf, size_t in_bufsz, size_t out_bufsz)
{
	struct open_file *f = (struct open_file *)(uintptr_t)fi->fh;
	unsigned long ucmd = (unsigned)cmd;
	bool in = _IOC_DIR(ucmd) & _IOC_WRITE, out = _IOC_DIR(ucmd) & _IOC_READ;
	uint32_t val = 0;
	int ret;

	(void)arg;
	(void)flags;
	/* every LIRC ioctl carries one __u32; the kernel sized the buffers
	 * from the command (restricted CUSE ioctls) */
	if (_IOC_SIZE(ucmd) != sizeof(val) || (in && in_bufsz < sizeof(val)) ||
	    (out && out_bufsz < sizeof(val))) {
		fuse_reply_err(req, ENOTTY);
		return;
	}
	if (in)
		memcpy(&val, in_buf, sizeof(val));
	ret = ir_lircdev_ioctl(f->r, ucmd, &val);
	if (ret < 0)
		fuse_reply_err(req, -ret);
	else
		fuse_reply_ioctl(req, 0, out ? &val : NULL, out ? sizeof(val) : 0);
}

static void on_poll(fuse_req_t req, struct fuse_file_info *fi, struct fuse_pollhandle *ph)
{
	struct open_file *f = (struct open_file *)(uintptr_t)fi->fh;

	if (ph) {
		if (f->ph)
			fuse_pollhandle_destroy(f->ph);
		f->ph = ph;
	}
	fuse_reply_poll(req, ir_lircdev_readable(f->r) ? POLLIN | POLLRDNORM : 0);
}

static void on_init_done(void *userdata)
{
	struct ir_lircdev_cuse *c = userdata;

	ir_cuse_session_ready(&c->s);
}

static const struct cuse_lowlevel_ops cuse_ops = {
	.init_done = on_init_done,
	.open = on_open,
	.read = on_read,
	.release = on_release,
	.ioctl = on_ioctl,
	.poll = on_poll,
};

int ir_lircdev_cuse_new(const struct ir_lircdev_cuse_config *cfg, struct ir_lircdev_cuse **out,
			char *err, size_t err_size)
{
	struct ir_lircdev_config lc = { .timeout_us = cfg->timeout_us,
					.resolution_us = cfg->resolution_us,
					.readable = on_readable };
	struct ir_lircdev_cuse *c;
	int ret;

	if (!ir_cuse_name_ok(cfg->name)) {
		snprintf(err, err_size, "lircdev name '%s': expected letters, digits, '-', '_', '.'",
			 cfg->name ? cfg->name : "");
		return -EINVAL;
	}
	c = calloc(1, sizeof(*c));
	if (!c || ir_lircdev_new(&lc, &c->dev) < 0) {
		free(c);
		snprintf(err, err_size, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	snprintf(c->path, sizeof(c->path), "/dev/%s", cfg->name);
	ret = ir_cuse_session_start(&c->s, cfg->name, &cuse_ops, c, err, err_size);
	if (ret < 0) {
		ir_lircdev_cuse_free(c);
		return ret;
	}
	*out = c;
	return 0;
}

void ir_lircdev_cuse_free(struct ir_lircdev_cuse *c)
{
	if (!c)
		return;
	/* blocked readers learn the device is gone, as from lirc_dev */
	for (struct open_file *f = c->files; f; f = f->next) {
		if (f->pending)
			fuse_reply_err(f->pending, ENODEV);
		f->pending = NULL;
	}
	ir_cuse_session_stop(&c->s); /* closes /dev/cuse: the node goes */
	while (c->files)
		file_free(c->files, false); /* ir_lircdev_free() closes the readers */
	ir_lircdev_free(c->dev);
	free(c);
}

int ir_lircdev_cuse_fd(const struct ir_lircdev_cuse *c)
{
	return fuse_session_fd(c->s.se);
}

int ir_lircdev_cuse_process(struct ir_lircdev_cuse *c)
{
	return ir_cuse_session_process(&c->s);
}

struct ir_lircdev *ir_lircdev_cuse_device(struct ir_lircdev_cuse *c)
{
	return c->dev;
}

const char *ir_lircdev_cuse_path(const struct ir_lircdev_cuse *c)
{
	return c->path;
}

#else /* built without libfuse3 */

bool ir_lircdev_cuse_supported(void)
{
	return false;
}

int ir_lircdev_cuse_new(const struct ir_lircdev_cuse_config *cfg, struct ir_lircdev_cuse **out,
			char *err, size_t err_size)
{
	(void)out;
	if (!ir_cuse_name_ok(cfg->name)) {
		snprintf(err, err_size, "lircdev name '%s': expected letters, digits, '-', '_', '.'",
			 cfg->name ? cfg->name : "");
		return -EINVAL;
	}
	snprintf(err, err_size, "lircdev: irjack was built without libfuse3 (IRJACK_WITH_CUSE)");
	return -ENOTSUP;
}

void ir_lircdev_cuse_free(struct ir_lircdev_cuse *c)
{
	(void)c;
}

int ir_lircdev_cuse_fd(const struct ir_lircdev_cuse *c)
{
	(void)c;
	return -1;
}

int ir_lircdev_cuse_process(struct ir_lircdev_cuse *c)
{
	(void)c;
	return -ENODEV;
}

struct ir_lircdev *ir_lircdev_cuse_device(struct ir_lircdev_cuse *c)
{
	(void)c;
	return NULL;
}

const char *ir_lircdev_cuse_path(const struct ir_lircdev_cuse *c)
{
	(void)c;
	return NULL;
}

#endif
