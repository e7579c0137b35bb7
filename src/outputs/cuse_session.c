/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cuse_session.c - the CUSE session every irjack character device uses.
 */
#include "cuse_session.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool ir_cuse_name_ok(const char *name)
{
	size_t n = name ? strlen(name) : 0;

	if (n == 0 || n > 63 || !strcmp(name, ".") || !strcmp(name, ".."))
		return false;
	for (const char *c = name; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (*c >= '0' && *c <= '9') || *c == '-' || *c == '_' || *c == '.'))
			return false;
	return true;
}

#ifdef IRJACK_HAVE_CUSE

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

/* libfuse's own messages (an unknown option, a failed read) are the
 * caller's errors already; keep them off stderr. */
static void fuse_quiet(enum fuse_log_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
}

/* Opens /dev/cuse and hands it to the session. */
static int attach_cuse(struct ir_cuse_session *s, char *err, size_t err_size)
{
	char fdpath[32];
	int fd = open("/dev/cuse", O_RDWR | O_CLOEXEC | O_NONBLOCK);
	int ret;

	if (fd < 0) {
		ret = -errno;
		snprintf(err, err_size, "/dev/cuse: %s (%s)", strerror(-ret),
			 ret == -ENOENT ? "is the cuse module loaded? modprobe cuse"
					: "irjack needs read and write access to it");
		return ret;
	}
	/* libfuse takes an open device as "/dev/fd/N" and closes it in
	 * fuse_session_destroy() */
	snprintf(fdpath, sizeof(fdpath), "/dev/fd/%d", fd);
	if (fuse_session_mount(s->se, fdpath) != 0) {
		close(fd);
		snprintf(err, err_size, "libfuse3 did not take /dev/cuse");
		return -EIO;
	}
	return 0;
}

/* Serves the kernel's CUSE_INIT (it asks for the device's name) until the
 * device exists, at most 2 s. */
static int wait_ready(struct ir_cuse_session *s, const char *name, char *err, size_t err_size)
{
	for (int i = 0; i < 200 && !s->ready; i++) {
		struct pollfd p = { .fd = fuse_session_fd(s->se), .events = POLLIN };

		if (poll(&p, 1, 10) > 0 && ir_cuse_session_process(s) < 0)
			break;
	}
	if (s->ready)
		return 0;
	snprintf(err, err_size, "/dev/%s: the kernel did not create the device (is the name taken?)",
		 name);
	return -ETIMEDOUT;
}

int ir_cuse_session_start(struct ir_cuse_session *s, const char *name,
			  const struct cuse_lowlevel_ops *ops, void *userdata, char *err,
			  size_t err_size)
{
	char devname[96];
	const char *dev_info[] = { devname };
	struct cuse_info ci = { .dev_info_argc = 1, .dev_info_argv = dev_info };
	char *argv[] = { "irjack", NULL };
	struct fuse_args args = FUSE_ARGS_INIT(1, argv);
	int ret;

	memset(s, 0, sizeof(*s));
	snprintf(devname, sizeof(devname), "DEVNAME=%s", name);
	fuse_set_log_func(fuse_quiet);
	s->se = cuse_lowlevel_new(&args, &ci, ops, userdata);
	/* the session has parsed what it adds to args ("-osubtype=cuse"...) */
	fuse_opt_free_args(&args);
	if (!s->se) {
		snprintf(err, err_size, "libfuse3 could not start a CUSE session");
		return -ENOMEM;
	}
	ret = attach_cuse(s, err, err_size);
	if (ret == 0)
		ret = wait_ready(s, name, err, err_size);
	if (ret < 0)
		ir_cuse_session_stop(s);
	return ret;
}

void ir_cuse_session_ready(struct ir_cuse_session *s)
{
	s->ready = true;
}

int ir_cuse_session_process(struct ir_cuse_session *s)
{
	/* a bounded batch: other outputs and sources get their turn */
	for (int i = 0; i < 64; i++) {
		int n = fuse_session_receive_buf(s->se, &s->buf);

		if (n == -EAGAIN || n == -EINTR)
			return 0;
		if (n <= 0 || fuse_session_exited(s->se))
			return -ENODEV;
		fuse_session_process_buf(s->se, &s->buf);
	}
	return 0;
}

void ir_cuse_session_stop(struct ir_cuse_session *s)
{
	if (s->se)
		fuse_session_destroy(s->se); /* closes /dev/cuse: the node goes */
	s->se = NULL;
	free(s->buf.mem);
	s->buf.mem = NULL;
}

#endif
