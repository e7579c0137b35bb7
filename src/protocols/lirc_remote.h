/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lirc_remote.h - one lircd.conf remote as numbers: what src/formats/lircd_conf.c
 * fills and the "lirc" family (src/protocols/lirc.c) decodes and encodes
 * with.  Internal to libirjack.
 */
#ifndef IRJACK_LIRC_REMOTE_H
#define IRJACK_LIRC_REMOTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* lircd.conf flags (the names lircd.conf.5 documents). */
#define LIRC_F_RAW_CODES 0x0001
#define LIRC_F_RC5 0x0002 /* SHIFT_ENC */
#define LIRC_F_RC6 0x0004
#define LIRC_F_RCMM 0x0008
#define LIRC_F_SPACE_ENC 0x0010
#define LIRC_F_SPACE_FIRST 0x0020
#define LIRC_F_GOLDSTAR 0x0040
#define LIRC_F_GRUNDIG 0x0080
#define LIRC_F_BO 0x0100
#define LIRC_F_SERIAL 0x0200
#define LIRC_F_XMP 0x0400
#define LIRC_F_REVERSE 0x0800
#define LIRC_F_NO_HEAD_REP 0x1000
#define LIRC_F_NO_FOOT_REP 0x2000
#define LIRC_F_CONST_LENGTH 0x4000
#define LIRC_F_REPEAT_HEADER 0x8000

/* A code's fields (pre_data, data, post_data) may each have all 64 bits,
 * and C leaves a shift by the type's width undefined: these give what the
 * field arithmetic means for any n. */
static inline uint64_t lirc_low_bits(uint64_t v, unsigned n)
{
	return n >= 64 ? v : v & ((UINT64_C(1) << n) - 1);
}

static inline uint64_t lirc_shift_left(uint64_t v, unsigned n)
{
	return n >= 64 ? 0 : v << n;
}

static inline uint64_t lirc_shift_right(uint64_t v, unsigned n)
{
	return n >= 64 ? 0 : v >> n;
}

/* LIRC's defaults when a remote does not give eps/aeps. */
#define LIRC_DEFAULT_EPS 30
#define LIRC_DEFAULT_AEPS 100

/* Edges of the longest frame the decoder collects (the parser bounds raw
 * codes below it). */
#define LIRC_FRAME_EDGES_MAX 1024

struct lirc_index;

struct lirc_raw_code {
	uint32_t *durations; /* pulse, space, pulse ... (odd count) */
	size_t count;
};

struct lirc_remote {
	unsigned flags;
	unsigned bits, pre_data_bits, post_data_bits;
	uint64_t pre_data, post_data;
	uint32_t phead, shead, plead, pone, sone, pzero, szero, ptrail;
	uint32_t pfoot, sfoot, prepeat, srepeat, pre_p, pre_s, post_p, post_s;
	/* RCMM, GRUNDIG, BO, GOLDSTAR: the other symbols ("two", "three") */
	uint32_t ptwo, stwo, pthree, sthree;
	/* SERIAL: bit rate, data bits per byte (5..8, default 8), parity
	 * (LIRC_PARITY_*), stop bits in halves (serial_mode 8N1 -> 2) */
	unsigned baud, bits_in_byte, parity, stop_halves;
	uint32_t gap, gap2, repeat_gap;
	uint64_t toggle_bit_mask, toggle_mask;
	uint64_t rc6_mask; /* RC6: the bits sent at double length (the toggle) */
	unsigned eps, aeps, min_repeat;
	uint32_t frequency;
	unsigned duty_cycle;
	/* RAW_CODES remotes: one timing per button; a button's code is its
	 * place in the file counted from 1 (lircd's numbering) */
	struct lirc_raw_code *raw;
	size_t raw_count, raw_cap;
	/* the buttons' codes as lircd holds them once loaded (REVERSE parts
	 * turned round), which the decoder matches frames against */
	uint64_t *codes;
	size_t code_count, code_cap;
	/* set by lirc_remote_prepare(): the longest space inside any frame,
	 * and which edge counts a frame (or repeat frame) can have, as the
	 * decoder collects it (bit n set: n edges, pulse first) */
	uint32_t frame_space_max;
	uint8_t frame_lengths[LIRC_FRAME_EDGES_MAX / 8 + 1];
	/* set by lirc_remote_prepare() for `begin codes` remotes: the hashes
	 * that make a frame's cost independent of the button count
	 * (lirc_index.c); NULL for raw codes or when it could not be made */
	struct lirc_index *index;
};

/* LIRC's tolerance around an expected duration: eps % or aeps µs,
 * whichever is larger. */
static inline uint32_t lirc_tolerance(const struct lirc_remote *r, uint32_t expected)
{
	uint32_t rel = (uint32_t)((uint64_t)expected * r->eps / 100);

	return rel > r->aeps ? rel : r->aeps;
}

enum { LIRC_PARITY_NONE, LIRC_PARITY_EVEN, LIRC_PARITY_ODD };

/* The code lircd reports for a loaded code (the whole code turned round
 * for REVERSE remotes); its own inverse. */
uint64_t lirc_remote_reported_code(const struct lirc_remote *r, uint64_t loaded);

/* Called once the parser has filled `r`: applies lircd's defaults and
 * works out what the decoder needs.  Returns 0 (a button without a frame
 * is left for the decoder never to match). */
int lirc_remote_prepare(struct lirc_remote *r);

/* Appends the timings of one frame of the loaded `code` (a repeat frame if
 * `repeat`), without the trailing gap.  Returns 0, -EINVAL, -ENOMEM. */
struct ir_edge_buf;
int lirc_remote_frame(const struct lirc_remote *r, uint64_t code, int repeat,
		      struct ir_edge_buf *out);

/*
 * The index of a `begin codes` remote (lirc_index.c).  A frame template's
 * edges come from a small alphabet of durations (header, one, zero, trail
 * and their merged runs), so the frames within tolerance of a collected
 * frame are found by mapping each collected edge to the alphabet's
 * durations within tolerance and looking the resulting shapes up in a
 * hash, instead of making every button's template: a frame costs the same
 * with 10 buttons or 100,000.  lirc_remote_prepare() makes r->index, with
 * the frames of every code c, c ^ toggle_bit_mask, and both again ^
 * toggle_mask.
 */
#define LIRC_INDEX_ALPHABET 32
#define LIRC_INDEX_SHAPES_MAX 4096

/* An index of r->codes (their first places) with room for `shapes`
 * frames; NULL when out of memory.  Release with lirc_index_free() (NULL
 * is fine). */
struct lirc_index *lirc_index_new(const struct lirc_remote *r, size_t shapes);
void lirc_index_free(struct lirc_index *ix);

/* Adds the collected edges (pulse first) of code `code`'s frame.  False
 * once the frames need more than LIRC_INDEX_ALPHABET durations of a kind:
 * the index then answers lirc_index_first() only. */
struct ir_edge;
bool lirc_index_add_shape(struct lirc_index *ix, uint64_t code, const struct ir_edge *edges,
			  size_t n);

/* The first i with r->codes[i] == code, or SIZE_MAX (none, or no index). */
size_t lirc_index_first(const struct lirc_remote *r, uint64_t code);

/*
 * Calls `fn(arg, c)` for every code c of the index (each once at most)
 * whose frame's collected edges could each be within tolerance of
 * `edges[0..n)` (pulse first), and for no other code.  Returns how many it
 * called it for, or -1 when the index cannot tell (no index, or more than
 * LIRC_INDEX_SHAPES_MAX shapes to try): then every code must be tried.
 */
int lirc_index_candidates(const struct lirc_remote *r, const uint32_t *edges, size_t n,
			  void (*fn)(void *arg, uint64_t code), void *arg);

/* Releases a remote made by the parser (and its raw codes). */
void lirc_remote_free(void *remote);

#endif
