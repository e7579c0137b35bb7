/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_ring: lock-free single-producer/single-consumer ring of float
 * frames (C11 atomics).  One thread may call ir_ring_write(), one other
 * thread ir_ring_read(); anything else needs external locking.
 */
#ifndef IR_RING_H
#define IR_RING_H

#include <stddef.h>

struct ir_ring;

/* Creates a ring holding at least @frames frames of @channels floats
 * (rounded up to a power of two).  Returns 0 and stores the ring in
 * *@out, which the caller frees with ir_ring_free(); -EINVAL or -ENOMEM
 * on error. */
int ir_ring_new(size_t frames, unsigned channels, struct ir_ring **out);

/* Frees the ring; NULL is accepted.  No thread may still use it. */
void ir_ring_free(struct ir_ring *ring);

/* Capacity in frames (a power of two). */
size_t ir_ring_capacity(const struct ir_ring *ring);

/* Producer: copies up to @frames interleaved frames from @src and
 * returns how many fitted.  Never blocks; frames that do not fit are
 * the caller's to count as dropped (the ring does not overwrite what
 * the consumer has not read, which would race with it). */
size_t ir_ring_write(struct ir_ring *ring, const float *src, size_t frames);

/* Consumer: copies up to @frames frames into @dst and returns how many
 * were available.  Never blocks. */
size_t ir_ring_read(struct ir_ring *ring, float *dst, size_t frames);

/* Frames readable now (a lower bound for the consumer, an upper bound
 * for the producer). */
size_t ir_ring_fill(const struct ir_ring *ring);

#endif
