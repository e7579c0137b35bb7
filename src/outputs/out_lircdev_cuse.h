/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * out_lircdev_cuse.h - the LIRC device (out_lircdev.h) as a real character
 * device, /dev/NAME, through the kernel's CUSE (character devices in user
 * space; the `cuse` module) and libfuse3's CUSE API, so every tool written
 * for /dev/lircN (ir-ctl -r, mode2, lircd's default driver) reads a
 * sound-card or USB receiver as if it were a kernel one.
 *
 * Served from the caller's poll loop: poll ir_lircdev_cuse_fd() for POLLIN
 * and call ir_lircdev_cuse_process(); reads that must wait are answered
 * later, when data comes, from inside ir_lircdev_edge()/_frame() on
 * ir_lircdev_cuse_device().  Needs read-write access to /dev/cuse (root,
 * or a udev rule); the node /dev/NAME is made by devtmpfs (mode 0600,
 * root) and udev rules may change its owner and mode.
 */
#ifndef IRJACK_OUT_LIRCDEV_CUSE_H
#define IRJACK_OUT_LIRCDEV_CUSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "out_lircdev.h"

/* What a configuration says ([output lircdev]); the output kind "lircdev"
 * (ir_output.h) takes it. */
struct ir_lircdev_settings {
	char name[64];      /* the node under /dev */
	char source[64];    /* the source that feeds it; "": the first */
	uint32_t timeout_us; /* that source's timeout (LIRC_GET_REC_TIMEOUT); 0: unknown */
};

struct ir_lircdev_cuse_config {
	const char *name;       /* the node under /dev: "lirc-irjack" */
	uint32_t timeout_us;    /* as ir_lircdev_config */
	uint32_t resolution_us;
};

struct ir_lircdev_cuse;

/* False when irjack was built without libfuse3 (IRJACK_WITH_CUSE). */
bool ir_lircdev_cuse_supported(void);

/*
 * Creates /dev/NAME and waits (up to 2 s) until the kernel has made it.
 * Returns 0 and *out, or a negative errno with one line in `err`:
 * -ENOTSUP without libfuse3, -ENOENT/-EACCES for /dev/cuse (module not
 * loaded, no permission), -EINVAL for a bad name, -ETIMEDOUT when the
 * kernel never asked for the device's details.
 */
int ir_lircdev_cuse_new(const struct ir_lircdev_cuse_config *cfg, struct ir_lircdev_cuse **out,
			char *err, size_t err_size);
/* Removes the device (readers get -ENODEV). */
void ir_lircdev_cuse_free(struct ir_lircdev_cuse *c);

int ir_lircdev_cuse_fd(const struct ir_lircdev_cuse *c);
/* Handles the kernel's pending requests (opens, reads, ioctls, polls).
 * Returns 0, or -ENODEV once the kernel has closed the device. */
int ir_lircdev_cuse_process(struct ir_lircdev_cuse *c);

/* The device's logic, to feed edges and frames to. */
struct ir_lircdev *ir_lircdev_cuse_device(struct ir_lircdev_cuse *c);
/* "/dev/NAME" */
const char *ir_lircdev_cuse_path(const struct ir_lircdev_cuse *c);

#endif
