/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cuse_session.h - what every irjack CUSE device shares (the LIRC device,
 * out_lircdev_cuse.h; the iMON display device, out_lcddev_cuse.h): the
 * node's name check, and a libfuse3 CUSE session on /dev/cuse that is
 * served one batch of requests at a time from the caller's poll loop.
 * Internal to src/outputs.
 */
#ifndef IRJACK_CUSE_SESSION_H
#define IRJACK_CUSE_SESSION_H

#include <stdbool.h>
#include <stddef.h>

/* Does the name suit a node directly under /dev (letters, digits, '-',
 * '_', '.'; not "." or ".."; 1..63 bytes)? */
bool ir_cuse_name_ok(const char *name);

#ifdef IRJACK_HAVE_CUSE
#define FUSE_USE_VERSION 31
#include <cuse_lowlevel.h>
#include <fuse_lowlevel.h>

struct ir_cuse_session {
	struct fuse_session *se;
	struct fuse_buf buf;
	bool ready;     /* the kernel made the device */
};

/*
 * Starts a session for /dev/`name` with `ops` (their fuse_req_userdata()
 * is `userdata`; ops->init_done must call ir_cuse_session_ready()) and
 * waits up to 2 s until the kernel made the node.  Returns 0, or a
 * negative errno with one line in `err` (-ENOENT/-EACCES for /dev/cuse,
 * -ETIMEDOUT when the kernel never made the node); `s` is then freed.
 */
int ir_cuse_session_start(struct ir_cuse_session *s, const char *name,
			  const struct cuse_lowlevel_ops *ops, void *userdata, char *err,
			  size_t err_size);
/* From ops->init_done: the node exists. */
void ir_cuse_session_ready(struct ir_cuse_session *s);
/* Handles up to 64 pending requests.  0, or -ENODEV once the kernel
 * closed the device. */
int ir_cuse_session_process(struct ir_cuse_session *s);
/* Ends the session (the node goes) and frees its buffer. */
void ir_cuse_session_stop(struct ir_cuse_session *s);
#endif

#endif
