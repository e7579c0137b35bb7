/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lirc_index.c - the hashes that let the lirc family find the buttons a
 * collected frame may be without making every button's template (see
 * lirc_remote.h).  A 100,000-button remote cost 30-55 ms of CPU per frame
 * when each frame was matched against every template (issue 24).
 *
 * A frame's "shape" is its collected edges (lirc.c's collected_span()),
 * hashed as a sum of one term per (position, duration), so changing one
 * position's duration changes the hash in O(1): the shapes to try for one
 * collected frame (each edge mapped to every alphabet duration within
 * tolerance of it) are walked like an odometer.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "ir_family.h"
#include "lirc_remote.h"

struct shape_slot {
	uint64_t hash; /* the shape's hash with bit 0 set; 0: empty */
	uint64_t code;
};

struct first_slot {
	uint64_t code;
	size_t index; /* + 1; 0: empty */
};

struct lirc_index {
	/* the durations frames are made of: [0] pulses, [1] spaces */
	uint32_t alphabet[2][LIRC_INDEX_ALPHABET];
	unsigned alphabet_len[2];
	struct shape_slot *shapes; /* NULL: too many durations, not indexed */
	size_t shape_mask;
	struct first_slot *firsts;
	size_t first_mask;
};

static uint64_t mix(uint64_t h)
{
	/* splitmix64's finaliser */
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9u;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebu;
	return h ^ (h >> 31);
}

static uint64_t term(size_t position, uint32_t duration)
{
	return mix(((uint64_t)position << 32 | duration) + 0x9e3779b97f4a7c15u);
}

static size_t table_size(size_t entries)
{
	size_t n = 16;

	while (n < entries * 2)
		n *= 2;
	return n;
}

void lirc_index_free(struct lirc_index *ix)
{
	if (!ix)
		return;
	free(ix->shapes);
	free(ix->firsts);
	free(ix);
}

size_t lirc_index_first(const struct lirc_remote *r, uint64_t code)
{
	const struct lirc_index *ix = r->index;

	if (!ix || !ix->firsts)
		return SIZE_MAX;
	for (size_t i = mix(code) & ix->first_mask;; i = (i + 1) & ix->first_mask) {
		if (!ix->firsts[i].index)
			return SIZE_MAX;
		if (ix->firsts[i].code == code)
			return ix->firsts[i].index - 1;
	}
}

static int build_firsts(struct lirc_index *ix, const struct lirc_remote *r)
{
	size_t size = table_size(r->code_count);

	ix->firsts = calloc(size, sizeof(*ix->firsts));
	if (!ix->firsts)
		return -ENOMEM;
	ix->first_mask = size - 1;
	for (size_t c = 0; c < r->code_count; c++) {
		size_t i = mix(r->codes[c]) & ix->first_mask;

		while (ix->firsts[i].index && ix->firsts[i].code != r->codes[c])
			i = (i + 1) & ix->first_mask;
		if (!ix->firsts[i].index)
			ix->firsts[i] = (struct first_slot){ .code = r->codes[c], .index = c + 1 };
	}
	return 0;
}

/* Adds `d` to the alphabet of its kind; false when that one is full. */
static bool alphabet_add(struct lirc_index *ix, unsigned kind, uint32_t d)
{
	for (unsigned i = 0; i < ix->alphabet_len[kind]; i++)
		if (ix->alphabet[kind][i] == d)
			return true;
	if (ix->alphabet_len[kind] == LIRC_INDEX_ALPHABET)
		return false;
	ix->alphabet[kind][ix->alphabet_len[kind]++] = d;
	return true;
}

struct lirc_index *lirc_index_new(const struct lirc_remote *r, size_t shapes)
{
	struct lirc_index *ix = calloc(1, sizeof(*ix));
	size_t size = table_size(shapes);

	if (!ix)
		return NULL;
	ix->shapes = calloc(size, sizeof(*ix->shapes));
	ix->shape_mask = size - 1;
	if (!ix->shapes || build_firsts(ix, r) < 0) {
		lirc_index_free(ix);
		return NULL;
	}
	return ix;
}

bool lirc_index_add_shape(struct lirc_index *ix, uint64_t code, const struct ir_edge *edges,
			  size_t n)
{
	uint64_t h = mix(n);
	size_t i;

	if (!ix->shapes)
		return false;
	for (size_t j = 0; j < n; j++) {
		if (!alphabet_add(ix, edges[j].kind == IR_SPACE, edges[j].duration)) {
			/* too many durations: the decoder tries every template */
			free(ix->shapes);
			ix->shapes = NULL;
			return false;
		}
		h += term(j, edges[j].duration);
	}
	h |= 1;
	for (i = h & ix->shape_mask; ix->shapes[i].hash; i = (i + 1) & ix->shape_mask)
		if (ix->shapes[i].hash == h && ix->shapes[i].code == code)
			return true;
	ix->shapes[i] = (struct shape_slot){ .hash = h, .code = code };
	return true;
}

/* The positions of a collected frame that more than one duration of the
 * alphabet matches, and those durations: walked as an odometer. */
struct ambiguity {
	size_t count;
	size_t position[12]; /* 2^12 > LIRC_INDEX_SHAPES_MAX */
	uint32_t choice[12][LIRC_INDEX_ALPHABET];
	unsigned choices[12], at[12];
};

/* Maps edge `j` to the alphabet: adds its term to *h with the first match
 * and notes the others in `a`.  Returns how many match (0: none). */
static unsigned map_edge(const struct lirc_index *ix, const struct lirc_remote *r, size_t j,
			 uint32_t got, uint64_t *h, struct ambiguity *a)
{
	unsigned kind = j % 2, n = 0;

	for (unsigned i = 0; i < ix->alphabet_len[kind]; i++) {
		uint32_t want = ix->alphabet[kind][i];

		if (!ir_eq_margin(got, want, lirc_tolerance(r, want)))
			continue;
		if (n == 0)
			*h += term(j, want);
		if (a->count < 12)
			a->choice[a->count][n] = want;
		n++;
	}
	if (n > 1 && a->count < 12) {
		a->position[a->count] = j;
		a->choices[a->count] = n;
		a->at[a->count++] = 0;
	}
	return n;
}

static size_t visit_shape(const struct lirc_index *ix, uint64_t h,
			  void (*fn)(void *arg, uint64_t code), void *arg)
{
	size_t found = 0;

	h |= 1;
	for (size_t i = h & ix->shape_mask; ix->shapes[i].hash; i = (i + 1) & ix->shape_mask)
		if (ix->shapes[i].hash == h) {
			fn(arg, ix->shapes[i].code);
			found++;
		}
	return found;
}

int lirc_index_candidates(const struct lirc_remote *r, const uint32_t *edges, size_t n,
			  void (*fn)(void *arg, uint64_t code), void *arg)
{
	const struct lirc_index *ix = r->index;
	struct ambiguity a = { 0 };
	uint64_t h, shapes = 1;
	size_t found = 0, k;

	if (!ix || !ix->shapes || n > LIRC_FRAME_EDGES_MAX)
		return -1;
	if (n == 0)
		return 0;
	h = mix(n);
	for (size_t j = 0; j < n; j++) {
		unsigned m = map_edge(ix, r, j, edges[j], &h, &a);

		if (m == 0)
			return 0; /* no frame has a duration here */
		shapes *= m;
		if (shapes > LIRC_INDEX_SHAPES_MAX)
			return -1;
	}
	for (;;) {
		found += visit_shape(ix, h, fn, arg);
		/* the next shape: the odometer's first wheel that can turn */
		for (k = 0; k < a.count; k++) {
			uint32_t *c = a.choice[k];

			h -= term(a.position[k], c[a.at[k]]);
			a.at[k] = (a.at[k] + 1) % a.choices[k];
			h += term(a.position[k], c[a.at[k]]);
			if (a.at[k])
				break;
		}
		if (k == a.count)
			return (int)found;
	}
}
