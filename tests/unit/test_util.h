/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_util.h - helpers shared by the tests: a frame collector, a seeded
 * PRNG, and the corpus location.
 */
#ifndef IRJACK_TEST_UTIL_H
#define IRJACK_TEST_UTIL_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ir_decoder.h"

#define TEST_MAX_FRAMES 4096

struct frame_log {
	struct ir_frame frames[TEST_MAX_FRAMES];
	size_t count;
	size_t dropped;
};

static inline void frame_log_add(void *userdata, const struct ir_frame *frame)
{
	struct frame_log *log = userdata;

	if (log->count < TEST_MAX_FRAMES)
		log->frames[log->count++] = *frame;
	else
		log->dropped++;
}

/* Decodes `n` edges with the protocols in `enabled` (NULL: all) and a final
 * flush; frames land in `log` (cleared first). */
static inline void decode_edges(const struct ir_protocol_set *enabled, const struct ir_edge *e,
				size_t n, struct frame_log *log)
{
	struct ir_decoder *dec = NULL;

	memset(log, 0, sizeof(*log));
	if (ir_decoder_new(enabled, frame_log_add, log, &dec) < 0)
		abort();
	ir_decoder_feed_many(dec, e, n);
	ir_decoder_flush(dec);
	ir_decoder_free(dec);
}

/* Makes a random value within p's scancode mask a valid scancode: the
 * fixed parts some layouts have (rc6_mce's customer code, as the kernel's
 * ir_loopback selftest draws them; Zenith's 5..8 function bits;
 * Blaupunkt's marker is no key). */
static inline uint64_t valid_scancode(enum ir_protocol p, uint64_t sc)
{
	if (p == IR_PROTO_RC6_MCE)
		sc = 0x800f0000u | (sc & 0x7fff);
	if (p == IR_PROTO_ZENITH) {
		uint64_t d = 5 + (sc >> 24) % 4;

		sc = d << 24 | (sc & 0x10000) | (sc & ((UINT64_C(1) << d) - 1));
	}
	if (p == IR_PROTO_BLAUPUNKT && sc == 0x7003f)
		sc = 0x7003e;
	return sc;
}

/* xorshift64*: reproducible randomness for the tests. */
struct test_rng {
	uint64_t s;
};

static inline uint64_t rng_next(struct test_rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * UINT64_C(2685821657736338717);
}

/* Uniform integer in [-range, +range]. */
static inline int64_t rng_symmetric(struct test_rng *r, uint32_t range)
{
	if (range == 0)
		return 0;
	return (int64_t)(rng_next(r) % (2 * (uint64_t)range + 1)) - (int64_t)range;
}

#endif
