/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * out_lircdev.c - the LIRC character device's reads and ioctls (see the
 * header for what lirc_dev does that this follows).
 */
#include "out_lircdev.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/lirc.h>

#include "ir_protocol.h"

/* A fixed-size ring of records of `size` bytes. */
struct ring {
	unsigned char *data;
	size_t size, cap, head, len;
};

struct ir_lircdev_reader {
	struct ir_lircdev *dev;
	struct ir_lircdev_reader *next;
	void *transport;
	uint32_t rec_mode;
	struct ring mode2, scancodes;
};

struct ir_lircdev {
	struct ir_lircdev_config cfg;
	struct ir_lircdev_reader *readers;
	size_t reader_count;
	/* after a timeout: the idle time since, reported as one space before
	 * the next pulse (lirc_dev's gap) */
	bool gap;
	uint64_t gap_us;
	struct ir_lircdev_stats stats;
};

static int ring_init(struct ring *r, size_t size, size_t cap)
{
	r->data = calloc(cap, size);
	r->size = size;
	r->cap = cap;
	return r->data ? 0 : -ENOMEM;
}

static bool ring_put(struct ring *r, const void *rec)
{
	if (r->len == r->cap)
		return false;
	memcpy(r->data + ((r->head + r->len) % r->cap) * r->size, rec, r->size);
	r->len++;
	return true;
}

/* Copies up to max records out; returns how many. */
static size_t ring_get(struct ring *r, unsigned char *out, size_t max)
{
	size_t n = 0;

	while (n < max && r->len) {
		memcpy(out + n * r->size, r->data + r->head * r->size, r->size);
		r->head = (r->head + 1) % r->cap;
		r->len--;
		n++;
	}
	return n;
}

int ir_lircdev_new(const struct ir_lircdev_config *cfg, struct ir_lircdev **out)
{
	struct ir_lircdev *dev;

	if (!cfg || !out)
		return -EINVAL;
	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return -ENOMEM;
	dev->cfg = *cfg;
	*out = dev;
	return 0;
}

void ir_lircdev_free(struct ir_lircdev *dev)
{
	if (!dev)
		return;
	while (dev->readers)
		ir_lircdev_close(dev->readers);
	free(dev);
}

int ir_lircdev_open(struct ir_lircdev *dev, void *transport, struct ir_lircdev_reader **out)
{
	struct ir_lircdev_reader *r = calloc(1, sizeof(*r));

	if (!r)
		return -ENOMEM;
	if (ring_init(&r->mode2, sizeof(uint32_t), IR_LIRCDEV_MODE2_QUEUE) < 0 ||
	    ring_init(&r->scancodes, sizeof(struct lirc_scancode), IR_LIRCDEV_SCANCODE_QUEUE) < 0) {
		free(r->mode2.data);
		free(r);
		return -ENOMEM;
	}
	r->dev = dev;
	r->transport = transport;
	r->rec_mode = LIRC_MODE_MODE2;
	r->next = dev->readers;
	dev->readers = r;
	dev->reader_count++;
	*out = r;
	return 0;
}

void ir_lircdev_close(struct ir_lircdev_reader *r)
{
	struct ir_lircdev_reader **p;

	if (!r)
		return;
	for (p = &r->dev->readers; *p; p = &(*p)->next) {
		if (*p == r) {
			*p = r->next;
			r->dev->reader_count--;
			break;
		}
	}
	free(r->mode2.data);
	free(r->scancodes.data);
	free(r);
}

void *ir_lircdev_reader_transport(const struct ir_lircdev_reader *r)
{
	return r->transport;
}

size_t ir_lircdev_reader_count(const struct ir_lircdev *dev)
{
	return dev->reader_count;
}

void ir_lircdev_get_stats(const struct ir_lircdev *dev, struct ir_lircdev_stats *st)
{
	*st = dev->stats;
}

static uint32_t features(const struct ir_lircdev *dev)
{
	uint32_t f = LIRC_CAN_REC_MODE2;

	if (dev->cfg.resolution_us)
		f |= LIRC_CAN_GET_REC_RESOLUTION;
	return f;
}

int ir_lircdev_ioctl(struct ir_lircdev_reader *r, unsigned long cmd, uint32_t *arg)
{
	const struct ir_lircdev *dev = r->dev;

	switch (cmd) {
	case LIRC_GET_FEATURES:
		*arg = features(dev);
		return 0;
	case LIRC_GET_REC_MODE:
		*arg = r->rec_mode;
		return 0;
	case LIRC_SET_REC_MODE:
		if (*arg != LIRC_MODE_MODE2 && *arg != LIRC_MODE_SCANCODE)
			return -EINVAL;
		r->rec_mode = *arg;
		return 0;
	case LIRC_GET_REC_RESOLUTION:
		if (!dev->cfg.resolution_us)
			return -ENOTTY;
		*arg = dev->cfg.resolution_us;
		return 0;
	case LIRC_GET_REC_TIMEOUT:
		if (!dev->cfg.timeout_us)
			return -ENOTTY;
		*arg = dev->cfg.timeout_us;
		return 0;
	case LIRC_SET_REC_TIMEOUT_REPORTS:
		return 0; /* lirc_dev accepts it for raw receivers and ignores it */
	default:
		/* the send ioctls (no transmitter), LIRC_SET_REC_TIMEOUT and
		 * LIRC_GET_MIN/MAX_TIMEOUT (no settable timeout), carrier and
		 * wideband settings (none), and anything unknown */
		return -ENOTTY;
	}
}

static struct ring *mode_ring(struct ir_lircdev_reader *r)
{
	return r->rec_mode == LIRC_MODE_SCANCODE ? &r->scancodes : &r->mode2;
}

ssize_t ir_lircdev_read(struct ir_lircdev_reader *r, void *buf, size_t size)
{
	struct ring *ring = mode_ring(r);

	if (size < ring->size || size % ring->size)
		return -EINVAL;
	if (!ring->len)
		return -EAGAIN;
	return (ssize_t)(ring_get(ring, buf, size / ring->size) * ring->size);
}

bool ir_lircdev_readable(const struct ir_lircdev_reader *r)
{
	return mode_ring((struct ir_lircdev_reader *)r)->len > 0;
}

/* Queues one record for every reader (mode2 word or scancode) and wakes
 * the readers whose current mode's queue was empty. */
static void broadcast(struct ir_lircdev *dev, bool scancode, const void *rec)
{
	for (struct ir_lircdev_reader *r = dev->readers; r; r = r->next) {
		struct ring *ring = scancode ? &r->scancodes : &r->mode2;
		bool was_empty = ring->len == 0;

		if (!ring_put(ring, rec)) {
			if (scancode)
				dev->stats.dropped_scancodes++;
			else
				dev->stats.dropped_words++;
			continue;
		}
		if (scancode)
			dev->stats.scancodes++;
		else
			dev->stats.words++;
		if (was_empty && ring == mode_ring(r) && dev->cfg.readable)
			dev->cfg.readable(dev->cfg.userdata, r);
	}
}

static void put_word(struct ir_lircdev *dev, uint32_t word)
{
	broadcast(dev, false, &word);
}

static uint32_t capped(uint64_t us)
{
	return us > LIRC_VALUE_MASK ? LIRC_VALUE_MASK : (uint32_t)us;
}

void ir_lircdev_edge(struct ir_lircdev *dev, const struct ir_edge *e)
{
	switch (e->kind) {
	case IR_OVERFLOW:
		/* lircd reads it as a long space: its decoders reset */
		put_word(dev, LIRC_OVERFLOW(LIRC_VALUE_MASK));
		break;
	case IR_TIMEOUT:
		put_word(dev, LIRC_TIMEOUT(capped(e->duration)));
		dev->gap = true;
		dev->gap_us = 0;
		break;
	case IR_SPACE:
		if (dev->gap)
			dev->gap_us += e->duration; /* reported before the next pulse */
		else
			put_word(dev, LIRC_SPACE(capped(e->duration)));
		break;
	case IR_PULSE:
		if (dev->gap && dev->gap_us)
			put_word(dev, LIRC_SPACE(capped(dev->gap_us)));
		dev->gap = false;
		put_word(dev, LIRC_PULSE(capped(e->duration)));
		break;
	default:
		break; /* IR_CARRIER: no carrier reports (see the header) */
	}
}

void ir_lircdev_frame(struct ir_lircdev *dev, const struct ir_frame *f, int keycode,
		      uint64_t timestamp_ns)
{
	enum ir_protocol proto;
	uint64_t scancode;
	struct lirc_scancode sc;

	if (f->decoder_id || !ir_protocol_rc_core_view(f->protocol, f->scancode, &proto, &scancode))
		return;
	if ((unsigned)proto > RC_PROTO_XBOX_DVD)
		return; /* no rc-core number */
	memset(&sc, 0, sizeof(sc));
	sc.timestamp = timestamp_ns;
	sc.rc_proto = (uint16_t)proto;
	sc.scancode = scancode;
	sc.keycode = keycode > 0 ? (uint32_t)keycode : 0;
	if (f->flags & IR_FRAME_TOGGLE)
		sc.flags |= LIRC_SCANCODE_FLAG_TOGGLE;
	if (f->flags & IR_FRAME_REPEAT)
		sc.flags |= LIRC_SCANCODE_FLAG_REPEAT;
	broadcast(dev, true, &sc);
}
