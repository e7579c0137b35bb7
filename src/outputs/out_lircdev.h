/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * out_lircdev.h - a receive-only LIRC character device as the kernel's
 * lirc_dev (drivers/media/rc/lirc_dev.c) serves one for a raw IR receiver,
 * without its transport: a CUSE device (out_lircdev_cuse.c) hands this
 * module its opens, reads, polls and ioctls and passes back what it
 * answers, so every byte and errno is tested on the host.
 *
 * What a reader sees (values from <linux/lirc.h>):
 *   - LIRC_MODE_MODE2 (the default): 32-bit words, LIRC_PULSE/LIRC_SPACE of
 *     the source's edges, LIRC_TIMEOUT(d) when the source gives up waiting,
 *     then, before the next pulse, one LIRC_SPACE of the idle time after
 *     the timeout (the source's own remainder, as lirc_dev measures it),
 *     LIRC_OVERFLOW(0xffffff) when the source lost data.  Carrier
 *     measurements are not passed on (the device does not offer
 *     LIRC_CAN_MEASURE_CARRIER, and lirc_dev reports them only then).
 *   - LIRC_MODE_SCANCODE: struct lirc_scancode per decoded frame, with the
 *     rc-core protocol number (enum rc_proto) and scancode, TOGGLE/REPEAT
 *     flags, the keymap's Linux keycode (0 for none) and a CLOCK_MONOTONIC
 *     timestamp; frames of protocols rc-core has no number for are not
 *     reported (no kernel device could report them).
 *   - reads: a multiple of the record size (4 or 24 bytes) or -EINVAL;
 *     -EAGAIN when nothing is queued (the transport blocks or not).
 *   - each open has its own queues (512 words, 32 scancodes, as lirc_dev);
 *     what does not fit is dropped and counted.
 *   - ioctls as lirc_dev answers for a raw receiver without transmitter:
 *     LIRC_GET_FEATURES = LIRC_CAN_REC_MODE2 (| LIRC_CAN_GET_REC_RESOLUTION
 *     with a resolution), LIRC_GET/SET_REC_MODE (MODE2 or SCANCODE, else
 *     -EINVAL), LIRC_GET_REC_TIMEOUT (the source's timeout; -ENOTTY when
 *     unknown), LIRC_GET_REC_RESOLUTION, LIRC_SET_REC_TIMEOUT_REPORTS
 *     (accepted, no effect, as lirc_dev); the timeout cannot be set (the
 *     source's receiver owns it), so LIRC_SET_REC_TIMEOUT and
 *     LIRC_GET_MIN/MAX_TIMEOUT answer -ENOTTY as lirc_dev does for a device
 *     without max_timeout; every send ioctl and anything else: -ENOTTY.
 */
#ifndef IRJACK_OUT_LIRCDEV_H
#define IRJACK_OUT_LIRCDEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ir_edge.h"
#include "ir_frame.h"

/* Per-open queue sizes: lirc_dev's MAX_IR_EVENT_SIZE and scancode fifo. */
#define IR_LIRCDEV_MODE2_QUEUE 512
#define IR_LIRCDEV_SCANCODE_QUEUE 32

struct ir_lircdev;
struct ir_lircdev_reader;

struct ir_lircdev_config {
	uint32_t timeout_us;    /* the source's end-of-signal timeout; 0: unknown */
	uint32_t resolution_us; /* the source's time resolution; 0: not offered */
	/* Called when a reader's queue for its current mode goes from empty
	 * to not empty (the transport completes a waiting read, wakes a
	 * poll).  May be NULL. */
	void (*readable)(void *userdata, struct ir_lircdev_reader *r);
	void *userdata;
};

struct ir_lircdev_stats {
	uint64_t words, scancodes;       /* queued for readers (each reader counts) */
	uint64_t dropped_words, dropped_scancodes; /* a reader's queue was full */
};

/* Returns 0 and *out, -EINVAL, -ENOMEM. */
int ir_lircdev_new(const struct ir_lircdev_config *cfg, struct ir_lircdev **out);
/* Frees the device and every reader still open. */
void ir_lircdev_free(struct ir_lircdev *dev);

/* A new open file: mode MODE2, empty queues.  `transport` is the caller's
 * (ir_lircdev_reader_transport()).  Returns 0 and *out, or -ENOMEM. */
int ir_lircdev_open(struct ir_lircdev *dev, void *transport, struct ir_lircdev_reader **out);
void ir_lircdev_close(struct ir_lircdev_reader *r);
void *ir_lircdev_reader_transport(const struct ir_lircdev_reader *r);

/*
 * An ioctl: `cmd` as the caller passed it, `*arg` its 32-bit argument (in
 * for _IOW, out for _IOR).  Returns 0 or a negative errno (as above).
 */
int ir_lircdev_ioctl(struct ir_lircdev_reader *r, unsigned long cmd, uint32_t *arg);

/* Copies whole records of the reader's mode into buf: bytes copied,
 * -EINVAL for a bad size, -EAGAIN when nothing is queued. */
ssize_t ir_lircdev_read(struct ir_lircdev_reader *r, void *buf, size_t size);

/* True when a read would return data (poll's POLLIN). */
bool ir_lircdev_readable(const struct ir_lircdev_reader *r);

/* The source's next edge, to every reader. */
void ir_lircdev_edge(struct ir_lircdev *dev, const struct ir_edge *edge);

/* A decoded frame (keycode: the keymap's Linux key, or <= 0 for none;
 * timestamp_ns: CLOCK_MONOTONIC when it was decoded), to every reader. */
void ir_lircdev_frame(struct ir_lircdev *dev, const struct ir_frame *frame, int keycode,
		      uint64_t timestamp_ns);

void ir_lircdev_get_stats(const struct ir_lircdev *dev, struct ir_lircdev_stats *st);
size_t ir_lircdev_reader_count(const struct ir_lircdev *dev);

#endif
