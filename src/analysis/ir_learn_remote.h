/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_learn_remote.h - learning a remote from a recording of its buttons
 * (what `irjack learn` does): the recording is cut into presses, and the
 * presses are read as a protocol irjack decodes, else as inferred
 * pulse_distance or bi-phase parameters (ir_learn.h), else as raw timings
 * averaged over a key's presses; the result is written as an rc_keymaps
 * TOML file only once that file, loaded back, names the presses.
 */
#ifndef IRJACK_IR_LEARN_REMOTE_H
#define IRJACK_IR_LEARN_REMOTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ir_decoder.h"
#include "ir_edge.h"
#include "ir_learn.h"

/* Bounds: presses in a recording, first frames kept, keys learned. */
#define IR_LEARN_MAX_PRESSES 512
#define IR_LEARN_MAX_FRAMES 256
#define IR_LEARN_MAX_KEYS 144

/* A recording: its edges (audio: of the channel with the most) and the
 * frames the default protocols decode in it (no repeats). */
struct ir_learn_input {
	struct ir_edge_buf edges;
	struct ir_frame frames[IR_LEARN_MAX_FRAMES];
	size_t frame_count;
};

/*
 * Reads an audio file (demodulated) or a timing file into `in` (zeroed by
 * the caller; ir_learn_input_free()).  Returns 0, or a negative errno with
 * a message naming `path` in `err`.
 */
int ir_learn_read(const char *path, struct ir_learn_input *in, char *err, size_t err_size);
void ir_learn_input_free(struct ir_learn_input *in);

/* Decodes in->edges (filled by the caller, e.g. from timings it made) with
 * the default protocols into in->frames.  Returns 0 or -ENOMEM. */
int ir_learn_input_decode(struct ir_learn_input *in);

struct ir_learn_options {
	uint32_t gap_us;          /* silence that separates presses */
	const char *const *keys;  /* names of the keys, in press order; NULL: KEY_1, KEY_2 ... */
	size_t key_count;
	size_t per_key;           /* presses per key; 0: presses / keys (1 without names) */
};

enum ir_learn_method {
	IR_LEARN_PROTOCOL,       /* a protocol irjack decodes */
	IR_LEARN_PULSE_DISTANCE,
	IR_LEARN_MANCHESTER,
	IR_LEARN_RAW,
};

struct ir_learned_key {
	const char *name;        /* the options' or a default; not owned */
	enum ir_protocol protocol; /* IR_LEARN_PROTOCOL: the key's (a remote may mix
				    * protocols: Pioneer's nec and pioneer codes) */
	uint64_t scancode;       /* not for raw keys */
	struct ir_edge_buf raw;  /* raw keys: the averaged press */
};

struct ir_learn_result {
	enum ir_learn_method method;
	enum ir_protocol protocol;    /* IR_LEARN_PROTOCOL: the first key's */
	struct ir_learn_pd pd;        /* IR_LEARN_PULSE_DISTANCE */
	struct ir_learn_manchester man; /* IR_LEARN_MANCHESTER */
	size_t presses, presses_ok;   /* found, and re-decoded to their key's code */
	struct ir_learned_key keys[IR_LEARN_MAX_KEYS];
	size_t key_count;
	/* the presses: press p is key p / per_key's, its edges (repeats
	 * included) spans[p] of the input's */
	size_t per_key;
	struct ir_learn_press spans[IR_LEARN_MAX_PRESSES];
};

/*
 * Learns the remote in `in`.  Returns 0 with *res filled
 * (ir_learn_result_free()); -ENODATA when the recording holds no IR;
 * -EINVAL when the presses do not fit the keys asked for (`err` says how);
 * -E2BIG for too many presses or keys; -ENOMEM.
 */
int ir_learn_remote(const struct ir_learn_input *in, const struct ir_learn_options *opt,
		    struct ir_learn_result *res, char *err, size_t err_size);
void ir_learn_result_free(struct ir_learn_result *res);

/* The method's name as rc_keymaps says it ("nec", "pulse_distance" ...). */
const char *ir_learn_method_name(const struct ir_learn_result *res);

/* Writes the result as rc_keymaps [[protocols]] tables named `name` (one
 * per protocol the keys use).  Returns 0 or -EIO. */
int ir_learn_write_toml(FILE *f, const char *name, const struct ir_learn_result *res);

/* How the presses fare with the file learn wrote, loaded back. */
struct ir_learn_check {
	size_t presses, presses_ok; /* all, and those the file names as their key */
	char problem[256];          /* why the file is not written, for the user */
	char warning[256];          /* the first press the file does not name */
};

/*
 * Writes `res` as an rc_keymaps TOML remote named `name` to `path` ("-":
 * standard output), but only after the text has loaded through
 * ir_keymap_load(), the loader `irjack decode --keymap` and irjackd use,
 * and that keymap, with the decoders it brings and the default protocols,
 * has named every key in at least one of its presses of `in` and no press
 * as another key.  The file appears whole (written beside it, then
 * renamed) or not at all.  *check counts the presses the file names.
 *
 * Returns 0; -EINVAL when the check fails (nothing written, `err` says
 * which key or press and why); a negative errno for a file that cannot be
 * written (`err` names it); -ENOMEM.
 */
int ir_learn_save(const struct ir_learn_input *in, const struct ir_learn_result *res,
		  const char *name, const char *path, struct ir_learn_check *check, char *err,
		  size_t err_size);

#endif
