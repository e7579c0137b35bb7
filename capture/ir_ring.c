/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "ir_ring.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct ir_ring {
	/* Free-running counters; index = counter & mask.  Separate cache
	 * lines so producer and consumer do not false-share. */
	_Alignas(64) atomic_size_t head; /* written by the producer */
	_Alignas(64) atomic_size_t tail; /* written by the consumer */
	_Alignas(64) size_t mask;
	unsigned channels;
	float *buf;
};

int ir_ring_new(size_t frames, unsigned channels, struct ir_ring **out)
{
	if (!out || frames == 0 || channels == 0 || frames > (SIZE_MAX >> 8))
		return -EINVAL;
	size_t cap = 1;
	while (cap < frames)
		cap <<= 1;
	struct ir_ring *r = aligned_alloc(64, sizeof(*r) + (64 - sizeof(*r) % 64) % 64);
	if (!r)
		return -ENOMEM;
	r->buf = calloc(cap * channels, sizeof(float));
	if (!r->buf) {
		free(r);
		return -ENOMEM;
	}
	atomic_init(&r->head, 0);
	atomic_init(&r->tail, 0);
	r->mask = cap - 1;
	r->channels = channels;
	*out = r;
	return 0;
}

void ir_ring_free(struct ir_ring *ring)
{
	if (!ring)
		return;
	free(ring->buf);
	free(ring);
}

size_t ir_ring_capacity(const struct ir_ring *ring)
{
	return ring->mask + 1;
}

size_t ir_ring_fill(const struct ir_ring *ring)
{
	size_t h = atomic_load_explicit(&ring->head, memory_order_acquire);
	size_t t = atomic_load_explicit(&ring->tail, memory_order_acquire);
	return h - t;
}

/* Copies @n frames between the ring at counter @pos and @ext, in at most
 * two pieces because of the wrap. */
static void copy(struct ir_ring *r, size_t pos, float *ext, size_t n, int to_ring)
{
	size_t cap = r->mask + 1, i = pos & r->mask;
	size_t first = n < cap - i ? n : cap - i;
	size_t c = r->channels;
	if (to_ring) {
		memcpy(r->buf + i * c, ext, first * c * sizeof(float));
		memcpy(r->buf, ext + first * c, (n - first) * c * sizeof(float));
	} else {
		memcpy(ext, r->buf + i * c, first * c * sizeof(float));
		memcpy(ext + first * c, r->buf, (n - first) * c * sizeof(float));
	}
}

size_t ir_ring_write(struct ir_ring *r, const float *src, size_t frames)
{
	size_t h = atomic_load_explicit(&r->head, memory_order_relaxed);
	/* acquire: the consumer's reads of those slots finished before it
	 * advanced tail, so we may overwrite them. */
	size_t t = atomic_load_explicit(&r->tail, memory_order_acquire);
	size_t space = r->mask + 1 - (h - t);
	size_t n = frames < space ? frames : space;
	if (n == 0)
		return 0;
	copy(r, h, (float *)src, n, 1);
	/* release: publishes the frames before the new head. */
	atomic_store_explicit(&r->head, h + n, memory_order_release);
	return n;
}

size_t ir_ring_read(struct ir_ring *r, float *dst, size_t frames)
{
	size_t t = atomic_load_explicit(&r->tail, memory_order_relaxed);
	size_t h = atomic_load_explicit(&r->head, memory_order_acquire);
	size_t avail = h - t;
	size_t n = frames < avail ? frames : avail;
	if (n == 0)
		return 0;
	copy(r, t, dst, n, 0);
	atomic_store_explicit(&r->tail, t + n, memory_order_release);
	return n;
}
