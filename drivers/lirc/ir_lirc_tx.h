/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_lirc_tx.h - the kernel LIRC char device (/dev/lircN) as a transmitter:
 * carrier, duty cycle, transmitter mask, pulse writes (LIRC_MODE_PULSE) and
 * scancode writes (LIRC_MODE_SCANCODE: the kernel encodes).
 *
 * Errors are negative errno values; nothing is printed.
 */
#ifndef IRJACK_IR_LIRC_TX_H
#define IRJACK_IR_LIRC_TX_H

#include <stddef.h>
#include <stdint.h>

#include "ir_edge.h"
#include "ir_protocol.h"

/* The kernel takes at most 1024 values and 500 ms per write (lirc_dev.c:
 * LIRCBUF_SIZE, IR_MAX_DURATION). */
#define IR_LIRC_TX_MAX_VALUES 1024u
#define IR_LIRC_TX_MAX_US 500000u

struct ir_lirc_tx;

/* Opens `path` for writing and reads its features.  Returns 0 and sets
 * *out (free with ir_lirc_tx_free()), -ENOENT, -EACCES, -ENOTTY (not a LIRC
 * device), or -EOPNOTSUPP (the device cannot transmit). */
int ir_lirc_tx_open(const char *path, struct ir_lirc_tx **out);
void ir_lirc_tx_free(struct ir_lirc_tx *tx);

/* The LIRC_GET_FEATURES bits. */
uint32_t ir_lirc_tx_features(const struct ir_lirc_tx *tx);

/* Carrier in Hz / duty cycle in percent (1..99).  Return 0, -EOPNOTSUPP
 * when the device cannot set it, or the device's error (-EINVAL). */
int ir_lirc_tx_set_carrier(struct ir_lirc_tx *tx, uint32_t hz);
int ir_lirc_tx_set_duty_cycle(struct ir_lirc_tx *tx, uint32_t percent);

/* Chooses the transmitters (bit 0 = the first).  Returns 0, -EOPNOTSUPP,
 * or -EINVAL when the mask names a transmitter the device lacks; then
 * *count (if not NULL) is how many the device has (LIRC's convention of a
 * positive ioctl result), else 0. */
int ir_lirc_tx_set_transmitters(struct ir_lirc_tx *tx, uint32_t mask, unsigned *count);

/* One write() worth of pulse/space values (pulse first, odd count), and
 * the space to wait after it before the next one. */
struct ir_lirc_tx_chunk {
	size_t first;      /* index into the values array */
	size_t count;      /* odd */
	uint32_t gap_us;   /* space after the chunk (slept by the caller) */
};

/*
 * Plans the writes for `edges` (pure, no I/O): merges runs of the same
 * level, skips leading spaces, turns timeouts into spaces, ignores carrier
 * and overflow markers, drops the trailing space, and cuts the stream at
 * its longest space wherever a write would exceed the kernel's limits.
 * Fills *values (malloc'd, the caller frees) and *chunks (malloc'd).
 * Returns the number of chunks (0 for no pulse at all), -ERANGE when one
 * pulse is longer than a write may last, or -ENOMEM.
 */
int ir_lirc_tx_plan(const struct ir_edge *edges, size_t n, uint32_t **values,
		    struct ir_lirc_tx_chunk **chunks);

/* Sends `edges` in LIRC_MODE_PULSE (blocks until sent, as the kernel's
 * write does; gaps between writes are slept).  Returns 0, -ERANGE (see
 * ir_lirc_tx_plan), or the device's error. */
int ir_lirc_tx_send_edges(struct ir_lirc_tx *tx, const struct ir_edge *edges, size_t n);

/* Sends one scancode in LIRC_MODE_SCANCODE: the kernel encodes it and sets
 * the protocol's carrier.  `repeats` extra whole frames follow, each after
 * the protocol's trailing silence.  Returns 0, -EPROTONOSUPPORT (not an
 * rc-core protocol), or the device's error (-EINVAL: the kernel has no
 * encoder loaded for it, or rejects the scancode). */
int ir_lirc_tx_send_scancode(struct ir_lirc_tx *tx, enum ir_protocol protocol, uint64_t scancode,
			     unsigned repeats);

#endif
