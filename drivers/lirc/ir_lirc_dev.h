/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_lirc_dev.h - the kernel LIRC char device (/dev/lircN): conversion of
 * its mode2 words and struct lirc_scancode records.
 *
 * This part is pure (no I/O) apart from the sysfs walk; the source that
 * reads /dev/lircN is ir_source_lirc.c (backend "lirc" of ir_source.h) and
 * the transmitter ir_lirc_tx.h.
 */
#ifndef IRJACK_IR_LIRC_DEV_H
#define IRJACK_IR_LIRC_DEV_H

#include <stddef.h>
#include <stdint.h>

#include "ir_decoder.h"
#include "ir_edge.h"

/* Converts one mode2 word (type in the top byte, µs in the low 24 bits) to
 * an edge.  LIRC_MODE2_FREQUENCY becomes IR_CARRIER, LIRC_MODE2_OVERFLOW
 * IR_OVERFLOW.  Returns 0, or -EINVAL for an unknown type or a zero-length
 * pulse/space (kernel never sends one; treat as corrupt). */
int ir_lirc_mode2_to_edge(uint32_t word, struct ir_edge *out);

/* Converts an edge to a mode2 word.  Returns 0, -ERANGE for a duration over
 * 24 bits, -EINVAL for an unknown kind. */
int ir_lirc_edge_to_mode2(const struct ir_edge *e, uint32_t *word);

/* Converts a 24-byte struct lirc_scancode (as read from the device in
 * LIRC_MODE_SCANCODE) to a frame: rc_proto numbers are irjack's for 0..27,
 * flags map TOGGLE/REPEAT, the timestamp (ns) becomes start_us and end_us.
 * Returns 0, or -EPROTONOSUPPORT for an rc_proto irjack does not know. */
int ir_lirc_scancode_to_frame(const void *lirc_scancode, struct ir_frame *out);



/* One rc-core device found in sysfs. */
struct ir_lirc_dev_info {
	char rc_name[32];     /* "rc0" */
	char lirc_name[32];   /* "lirc0", "" when the device has no LIRC node */
	char driver[64];      /* uevent DRV_NAME, e.g. "rc-loopback" */
	char dev_name[128];   /* uevent DEV_NAME, the device's own name */
	char table[64];       /* uevent NAME, the kernel keymap ("rc-rc6-mce"), as rc_maps.cfg's table */
};

/* Lists rc-core devices under `sysfs_root`/class/rc (sysfs_root is "/sys"
 * normally; tests pass a fake tree laid out the same way).  Fills at most
 * `cap` entries of `out`, sorted by rc name.  Returns the number of devices
 * found (may exceed `cap`), or a negative errno (-ENOENT: no rc class). */
int ir_lirc_dev_discover(const char *sysfs_root, struct ir_lirc_dev_info *out, size_t cap);

#endif
