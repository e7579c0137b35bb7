/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lircd_peer.h - the reading end of the lircd socket protocol, as lircd
 * --connect: a connection to another lircd's (or irjackd's) UNIX socket or
 * TCP port whose key lines ("%016llx %02x button remote") are handed to
 * the caller, as irw prints them.
 *
 * Right after connecting it says "IRJACK_PEER <own id>": an irjackd
 * answers with its instance id and from then on adds "ORIGIN:SEQ" to each
 * line and holds back the events that came from us (out_lircd.h); a lircd
 * answers ERROR, and its lines are taken as they are.  Reply blocks
 * (BEGIN ... END) are skipped; a line longer than IR_LIRCD_LINE_MAX, or
 * one that is not a key line, is dropped (counted), never trusted.
 *
 * Non-blocking; the embedder polls ir_lircd_peer_fd() for the events
 * ir_lircd_peer_events() asks and calls ir_lircd_peer_process().
 */
#ifndef IRJACK_LIRCD_PEER_H
#define IRJACK_LIRCD_PEER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir_keypress.h"

/* A key line as read. */
struct ir_lircd_peer_key {
	uint64_t scancode;
	unsigned repeat;
	const char *key, *remote;      /* valid during the callback */
	struct ir_key_origin origin;   /* id/seq from the line ("", 0 for a lircd); via: the peer's id */
};

typedef void (*ir_lircd_peer_key_fn)(void *userdata, const struct ir_lircd_peer_key *key);

struct ir_lircd_peer;

/*
 * Starts connecting to `target` (a socket path, or HOST[:PORT]: port 8765
 * by default).  `own_id`: this daemon's instance id (copied).  Returns 0
 * and *out, or a negative errno (the target cannot be reached now: the
 * caller retries later).
 */
int ir_lircd_peer_new(const char *target, const char *own_id, ir_lircd_peer_key_fn fn,
		      void *userdata, struct ir_lircd_peer **out);
void ir_lircd_peer_free(struct ir_lircd_peer *p);

int ir_lircd_peer_fd(const struct ir_lircd_peer *p);
/* POLLOUT while connecting or while the greeting waits, else POLLIN. */
short ir_lircd_peer_events(const struct ir_lircd_peer *p);

/* Connects, greets, reads what is there; keys are reported from inside.
 * Returns 0, or a negative errno when the connection is over (-ECONNRESET
 * for an orderly close): free it and retry later. */
int ir_lircd_peer_process(struct ir_lircd_peer *p);

/* The peer's instance id ("" until it answered, or for a plain lircd). */
const char *ir_lircd_peer_id(const struct ir_lircd_peer *p);
/* Lines dropped as not key lines (outside replies). */
uint64_t ir_lircd_peer_rejected(const struct ir_lircd_peer *p);

/* Parses one key line (without its newline) into *k (key and remote
 * pointing into `line`, which is modified).  Returns 0 or -EINVAL.
 * Exposed for tests and fuzzing. */
int ir_lircd_peer_parse(char *line, struct ir_lircd_peer_key *k);

#endif
