/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_learn_guide.c - guided learning, one key at a time (ir_learn_guide.h).
 *
 * A press is the edges from its first pulse to a silence of the gap (or a
 * timeout edge); what it "is" comes from the default decoders, else from
 * the length of its first frame.  Two presses that agree are a key.
 */
#include "ir_learn_guide.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* More durations than any remote sends in one press (a 440-bit frame
 * twice is ~1800): light or noise. */
#define GUIDE_MAX_PRESS 4096
/* A frame and its repeats are at least this far apart (as learn splits). */
#define REPEAT_GAP_US 10000
/* No remote sends a pulse this long: light or a glitch, ignored. */
#define GLITCH_PULSE_US 20000

/* What a press is. */
struct press_id {
	bool decoded;
	enum ir_protocol protocol;
	uint64_t scancode;
	size_t frame_len; /* durations of its first frame */
};

struct ir_learn_guide {
	char **keys;
	size_t key_count, key; /* the key being learned */
	uint32_t gap_us;
	struct ir_edge_buf cur;    /* the press coming in */
	struct ir_edge_buf first;  /* the key's first press, when have_first */
	struct press_id first_id;
	bool have_first;
	bool discarding;           /* the rest of a press that was too long */
	struct ir_edge_buf all;    /* confirmed presses, separated by silence */
};

int ir_learn_guide_new(const char *const *keys, size_t n, uint32_t gap_us,
		       struct ir_learn_guide **out)
{
	struct ir_learn_guide *g;

	if (!n || n > IR_LEARN_MAX_KEYS)
		return -EINVAL;
	g = calloc(1, sizeof(*g));
	if (!g || !(g->keys = calloc(n, sizeof(*g->keys)))) {
		free(g);
		return -ENOMEM;
	}
	g->key_count = n;
	g->gap_us = gap_us;
	for (size_t i = 0; i < n; i++)
		if (!(g->keys[i] = strdup(keys[i]))) {
			ir_learn_guide_free(g);
			return -ENOMEM;
		}
	*out = g;
	return 0;
}

void ir_learn_guide_free(struct ir_learn_guide *g)
{
	if (!g)
		return;
	for (size_t i = 0; i < g->key_count; i++)
		free(g->keys[i]);
	free(g->keys);
	ir_edge_buf_free(&g->cur);
	ir_edge_buf_free(&g->first);
	ir_edge_buf_free(&g->all);
	free(g);
}

const char *ir_learn_guide_key(const struct ir_learn_guide *g)
{
	return g->key < g->key_count ? g->keys[g->key] : NULL;
}

static void first_frame(void *userdata, const struct ir_frame *frame)
{
	struct press_id *id = userdata;

	if (id->decoded || (frame->flags & IR_FRAME_REPEAT))
		return;
	id->decoded = true;
	id->protocol = frame->protocol;
	id->scancode = frame->scancode;
}

/* Reads press `b` with the default protocols. */
static int identify(const struct ir_edge_buf *b, struct press_id *id, char *what, size_t size)
{
	struct ir_protocol_set set;
	struct ir_decoder *dec = NULL;
	int ret;

	memset(id, 0, sizeof(*id));
	while (id->frame_len < b->len && !(b->edges[id->frame_len].kind == IR_SPACE &&
					   b->edges[id->frame_len].duration >= REPEAT_GAP_US))
		id->frame_len++;
	ir_protocol_set_default(&set);
	ret = ir_decoder_new(&set, first_frame, id, &dec);
	if (ret < 0)
		return ret;
	ir_decoder_feed_many(dec, b->edges, b->len);
	ir_decoder_flush(dec);
	ir_decoder_free(dec);
	if (id->decoded)
		snprintf(what, size, "%s 0x%" PRIx64, ir_protocol_get(id->protocol)->name,
			 id->scancode);
	else
		snprintf(what, size, "unknown timings, %zu durations", id->frame_len);
	return 0;
}

static bool same_press(const struct press_id *a, const struct press_id *b)
{
	if (a->decoded || b->decoded)
		return a->decoded && b->decoded && a->protocol == b->protocol &&
		       a->scancode == b->scancode;
	return a->frame_len == b->frame_len;
}

static int append(struct ir_edge_buf *to, const struct ir_edge_buf *from)
{
	for (size_t i = 0; i < from->len; i++)
		if (ir_edge_buf_push(to, from->edges[i]) < 0)
			return -ENOMEM;
	return 0;
}

/* Keeps both presses of the key, each followed by more than the gap. */
static int confirm(struct ir_learn_guide *g)
{
	uint32_t sep = g->gap_us * 2 > 200000 ? g->gap_us * 2 : 200000;

	if (append(&g->all, &g->first) < 0 || ir_edge_buf_space(&g->all, sep) < 0 ||
	    append(&g->all, &g->cur) < 0 || ir_edge_buf_space(&g->all, sep) < 0)
		return -ENOMEM;
	g->have_first = false;
	g->key++;
	return g->key == g->key_count ? IR_LEARN_STEP_DONE : IR_LEARN_STEP_CONFIRMED;
}

/* A press has ended: what it does to the key being learned. */
static int press_done(struct ir_learn_guide *g, struct ir_learn_heard *heard)
{
	struct press_id id;
	struct ir_edge_buf tmp;
	int ret;

	memset(heard, 0, sizeof(*heard));
	heard->key = g->keys[g->key];
	ret = identify(&g->cur, &id, heard->what, sizeof(heard->what));
	if (ret < 0)
		return ret;
	if (!g->have_first) {
		ret = IR_LEARN_STEP_HEARD;
	} else if (same_press(&g->first_id, &id)) {
		ret = confirm(g);
	} else {
		struct press_id unused;

		identify(&g->first, &unused, heard->before, sizeof(heard->before));
		ret = IR_LEARN_STEP_MISMATCH;
	}
	if (ret == IR_LEARN_STEP_HEARD || ret == IR_LEARN_STEP_MISMATCH) {
		/* this press is the key's first now */
		tmp = g->first;
		g->first = g->cur;
		g->cur = tmp;
		g->first_id = id;
		g->have_first = true;
	}
	g->cur.len = 0;
	heard->next_key = ir_learn_guide_key(g);
	return ret;
}

int ir_learn_guide_edge(struct ir_learn_guide *g, const struct ir_edge *e,
			struct ir_learn_heard *heard)
{
	bool ends;

	if (g->key == g->key_count)
		return IR_LEARN_STEP_NONE;
	if (g->discarding) {
		/* until the silence that ends the overlong press */
		g->discarding = !(e->kind == IR_TIMEOUT || e->kind == IR_OVERFLOW ||
				  (e->kind == IR_SPACE && e->duration >= g->gap_us));
		return IR_LEARN_STEP_NONE;
	}
	switch (e->kind) {
	case IR_PULSE:
		if (e->duration > GLITCH_PULSE_US)
			return IR_LEARN_STEP_NONE;
		if (g->cur.len >= GUIDE_MAX_PRESS) {
			g->cur.len = 0;
			g->discarding = true;
			return -E2BIG;
		}
		return ir_edge_buf_push(&g->cur, *e) < 0 ? -ENOMEM : IR_LEARN_STEP_NONE;
	case IR_SPACE:
		if (!g->cur.len)
			return IR_LEARN_STEP_NONE;
		ends = e->duration >= g->gap_us;
		if (!ends)
			return ir_edge_buf_push(&g->cur, *e) < 0 ? -ENOMEM : IR_LEARN_STEP_NONE;
		break;
	case IR_TIMEOUT:
	case IR_OVERFLOW:
		if (!g->cur.len)
			return IR_LEARN_STEP_NONE;
		break;
	default:
		return IR_LEARN_STEP_NONE;
	}
	return press_done(g, heard);
}

int ir_learn_guide_input(const struct ir_learn_guide *g, struct ir_learn_input *in)
{
	if (ir_edge_buf_space(&in->edges, 200000) < 0 || append(&in->edges, &g->all) < 0)
		return -ENOMEM;
	return ir_learn_input_decode(in);
}
