/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_learn_guide.h - guided learning, as LIRC's irrecord does it: the keys
 * are asked for one at a time, each pressed twice (the second press
 * confirms the first), from edges as a live source delivers them.  No I/O:
 * the caller feeds edges and tells the user what the returned step says.
 * At the end the presses become an ir_learn_input (two per key, in key
 * order) for ir_learn_remote() and ir_learn_save().
 */
#ifndef IRJACK_IR_LEARN_GUIDE_H
#define IRJACK_IR_LEARN_GUIDE_H

#include <stddef.h>
#include <stdint.h>

#include "ir_edge.h"
#include "ir_learn_remote.h"

struct ir_learn_guide;

enum ir_learn_step {
	IR_LEARN_STEP_NONE,      /* nothing new: keep feeding */
	IR_LEARN_STEP_HEARD,     /* a first press of the key: ask for it again */
	IR_LEARN_STEP_MISMATCH,  /* the second press differs: it is the first now, ask again */
	IR_LEARN_STEP_CONFIRMED, /* the key is learned: ask for the next */
	IR_LEARN_STEP_DONE,      /* every key learned */
};

/* What the last press was, for the user. */
struct ir_learn_heard {
	const char *key;      /* the key it was a press of (the guide's copy of the name) */
	const char *next_key; /* the key to press now, NULL when done */
	char what[96];        /* "nec 0x4fb", or "unknown timings, 531 durations" */
	char before[96];      /* MISMATCH: what the first press was */
};

/*
 * A guide for keys `keys[0..n)` (names copied), a press ending at a
 * silence of `gap_us` or a timeout edge.  Returns 0, -EINVAL (no keys, too
 * many), -ENOMEM.
 */
int ir_learn_guide_new(const char *const *keys, size_t n, uint32_t gap_us,
		       struct ir_learn_guide **out);
void ir_learn_guide_free(struct ir_learn_guide *g);

/* The key to press now (NULL when done). */
const char *ir_learn_guide_key(const struct ir_learn_guide *g);

/*
 * Feeds one edge.  When it ends a press, returns the step that press made
 * and fills *heard; else IR_LEARN_STEP_NONE.  Negative errno (-ENOMEM, or
 * -E2BIG for a press of more than 4096 durations: light, not a remote;
 * the rest of that press is ignored).
 */
int ir_learn_guide_edge(struct ir_learn_guide *g, const struct ir_edge *e,
			struct ir_learn_heard *heard);

/* The confirmed presses as a learn input (zeroed by the caller; frames
 * decoded): two presses per key, in key order.  Returns 0 or -ENOMEM. */
int ir_learn_guide_input(const struct ir_learn_guide *g, struct ir_learn_input *in);

#endif
