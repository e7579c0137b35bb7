/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * out_lcddev.h - an iMON front-panel display as lirc_imon's character
 * device, /dev/NAME (lcd0), through CUSE (cuse_session.h), so lcdproc's
 * `imon` (VFD) and `imonlcd` (LCD) drivers write to the receiver irjackd
 * holds as they wrote to the kernel's device.
 *
 * Each write() becomes one display request, "WRITE HEX" (ir_imon_display.h),
 * for the chosen source, which answers as lirc_imon's write() did: a VFD
 * takes 1..32 bytes (the screen, padded with spaces), an LCD one 8-byte
 * packet; another size fails with EINVAL, and a source without a display
 * (or unplugged) with ENODEV.  A write returns once the packets went out.
 * Reads are refused (EINVAL), as lirc_imon's device had no read().
 *
 * The output kind "lcddev" (ir_output.h, [output lcddev] in irjackd)
 * takes struct ir_lcddev_settings and passes the requests to the
 * program's env->display_on().
 */
#ifndef IRJACK_OUT_LCDDEV_H
#define IRJACK_OUT_LCDDEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The largest write any iMON display takes (a VFD screen). */
#define IR_LCDDEV_WRITE_MAX 32

struct ir_lcddev_settings {
	char name[64];   /* the node under /dev: "lcd0" */
	char source[64]; /* the source whose display it drives; "": every one with a display */
};

/*
 * The display request one write of `n` bytes becomes: "WRITE " and the
 * bytes in hex, into `req` (at least 6 + 2 * IR_LCDDEV_WRITE_MAX + 1
 * bytes).  Returns 0, or -EINVAL for 0 or more than IR_LCDDEV_WRITE_MAX
 * bytes (no display takes them), -ENOSPC for a short `req`.
 */
int ir_lcddev_request(const void *buf, size_t n, char *req, size_t size);

/* Called for each write: 0 when the display took it, or a negative errno
 * the writer gets. */
typedef int (*ir_lcddev_write_fn)(void *userdata, const uint8_t *buf, size_t n);

struct ir_lcddev_cuse;

/* False when irjack was built without libfuse3 (IRJACK_WITH_CUSE). */
bool ir_lcddev_cuse_supported(void);

/*
 * Creates /dev/`name` (waits up to 2 s for the kernel to make it) whose
 * writes go to `write`(`userdata`, ...).  Returns 0 and *out, or a
 * negative errno with one line in `err`: -ENOTSUP without libfuse3,
 * -ENOENT/-EACCES for /dev/cuse, -EINVAL for a bad name, -ETIMEDOUT.
 */
int ir_lcddev_cuse_new(const char *name, ir_lcddev_write_fn write, void *userdata,
		       struct ir_lcddev_cuse **out, char *err, size_t err_size);
/* Removes the device. NULL is fine. */
void ir_lcddev_cuse_free(struct ir_lcddev_cuse *c);
/* Poll it for POLLIN, then call ir_lcddev_cuse_process(): 0, or -ENODEV
 * once the kernel closed the device. */
int ir_lcddev_cuse_fd(const struct ir_lcddev_cuse *c);
int ir_lcddev_cuse_process(struct ir_lcddev_cuse *c);
/* "/dev/NAME" */
const char *ir_lcddev_cuse_path(const struct ir_lcddev_cuse *c);

/* What it did since it was made. */
struct ir_lcddev_stats {
	uint64_t writes;   /* taken by the display */
	uint64_t refused;  /* answered with an error */
	unsigned opens;    /* files open now */
};
void ir_lcddev_cuse_stats(const struct ir_lcddev_cuse *c, struct ir_lcddev_stats *st);

#endif
