/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * out_lircd.h - a lircd-compatible UNIX socket: what irw, irexec, irsend,
 * Kodi and every lirc_client program talk to.
 *
 * Key presses are broadcast to every client as lircd writes them,
 * "%016llx %02x %s %s\n" (code, repeat count, button, remote).  Clients may
 * send commands, one per line of at most 256 bytes, case-insensitive:
 * VERSION, LIST [remote [button]], SEND_ONCE remote button [repeats],
 * SEND_START remote button, SEND_STOP remote button, SET_TRANSMITTERS n...,
 * SET_INPUTLOG [null] (a file is refused), DRV_OPTION key value (refused:
 * no driver options), and SIMULATE "<16 hex> <2 hex> button remote" when
 * allowed.  Replies are
 * lircd's: "BEGIN\n<command>\nSUCCESS|ERROR\n[DATA\n<n>\n<n lines>]END\n".
 *
 * The server never blocks: sockets are non-blocking, the embedder polls the
 * descriptors ir_lircd_fds() gives and calls ir_lircd_process().  Each
 * client has a bounded output buffer (IR_LIRCD_CLIENT_BUFFER bytes, after
 * what the kernel's socket buffer holds); a client that stops reading is
 * disconnected when it would overflow, so one stuck client can neither
 * block the service nor make it grow.  At most IR_LIRCD_MAX_CLIENTS are
 * connected at once; the next ones are closed as soon as accepted, unless
 * another user holds more than IR_LIRCD_MAX_CLIENTS_PER_UID (then that
 * user's least recently active connection is closed instead).  A line
 * longer than IR_LIRCD_LINE_MAX bytes, or holding a NUL byte, is answered
 * with an ERROR reply and skipped up to its newline; the connection stays.
 */
#ifndef IRJACK_OUT_LIRCD_H
#define IRJACK_OUT_LIRCD_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir_keymap.h"
#include "ir_keypress.h"

#define IR_LIRCD_LINE_MAX 256
#define IR_LIRCD_CLIENT_BUFFER 65536
#define IR_LIRCD_MAX_CLIENTS 64
/* While the server is full, a user (SO_PEERCRED uid) holding more than
 * this many connections loses its least recently active one to another
 * user's new connection; alone, a user may use every slot. */
#define IR_LIRCD_MAX_CLIENTS_PER_UID 16
#define IR_LIRCD_VERSION "0.10.1"

enum ir_lircd_send {
	IR_LIRCD_SEND_ONCE,
	IR_LIRCD_SEND_START,
	IR_LIRCD_SEND_STOP,
};

/* What a configuration says about the socket (irjackd.conf's [output
 * lircd]); the output kind "lircd" (ir_output.h) takes it. */
struct ir_lircd_settings {
	char path[256];
	unsigned mode;  /* the socket's permissions, as given (0 is 0000) */
	bool simulate;  /* allow SIMULATE */
	char listen[128]; /* TCP "[ADDR:]PORT" (lircd --listen); "": none */
	int unix_fd;    /* inherited listening sockets (ir_lircd_config); 0: none */
	int tcp_fd;
	char instance_id[24]; /* this daemon's id for IRJACK_PEER; "": none */
};

struct ir_lircd_config {
	const char *path;         /* the socket's path (only a stale socket is replaced) */
	unsigned mode;            /* its permissions, exactly (0 is 0000; above 0777:
				   * -EINVAL); the file is never wider, not even
				   * briefly */
	bool allow_simulate;      /* SIMULATE is refused unless set */
	/* TCP "[ADDR:]PORT" or "PORT" (lircd --listen; ADDR left out: every
	 * address), served exactly as the UNIX socket; NULL or "": none. */
	const char *listen;
	/* Listening sockets inherited from systemd (socket activation; >= 3),
	 * used instead of binding `path` / `listen`: never closed nor
	 * unlinked here (the caller and systemd own them); 0: none. */
	int unix_fd;
	int tcp_fd;
	/* This daemon's instance id (letters, digits, '-', '_'; at most 23):
	 * IRJACK_PEER, irjack's own command, answers it and marks the client
	 * as that irjackd peer (below); NULL: IRJACK_PEER is unknown. */
	const char *instance_id;
	const struct ir_keymap *keymap; /* for LIST and SEND_*; may be NULL */
	/* Transmit requests; NULL: SEND_* answer "no transmitter".  Return 0, or
	 * a negative errno with a message in `error`.  SEND_STOP's remote and
	 * key may be "" (left out: whichever is repeating). */
	int (*send)(void *userdata, enum ir_lircd_send kind, const char *remote, const char *key,
		    unsigned repeats, char *error, size_t error_size);
	/* SET_TRANSMITTERS mask (bit n-1 for transmitter n); NULL: refused. */
	int (*set_transmitters)(void *userdata, unsigned mask, char *error, size_t error_size);
	/* irjack's own STATUS command (not lircd's): writes text lines (each
	 * ending in '\n') into buf and returns their count; NULL: STATUS is an
	 * unknown directive, as for lircd. */
	unsigned (*status)(void *userdata, char *buf, size_t size);
	/* irjack's own DISPLAY command: the rest of the line is a request for
	 * a front-panel display (iMON: "TEXT l1|l2", "ICONS list", "CLOCK",
	 * "OFF").  Returns 0 or a negative errno with a message in `error`;
	 * NULL: DISPLAY is an unknown directive, as for lircd. */
	int (*display)(void *userdata, const char *request, char *error, size_t error_size);
	/* What an operator should hear about: a client refused at the
	 * IR_LIRCD_MAX_CLIENTS limit, a client dropped because it stopped
	 * reading.  One line without its newline; NULL: silent. */
	void (*log)(void *userdata, const char *message);
	void *userdata;
};

struct ir_lircd;

/* Binds and listens.  Returns 0 and sets *out, or a negative errno:
 * -EADDRINUSE when a server already answers on the path (another irjackd
 * or lircd: it is left alone), -ENOTSOCK when the path is not a socket,
 * -ENAMETOOLONG for a path too long for a UNIX socket, bind errors... */
int ir_lircd_new(const struct ir_lircd_config *cfg, struct ir_lircd **out);
/* Points LIST and SEND_* at another keymap (after a reload); `keymap`
 * must outlive the socket or the next call. */
void ir_lircd_set_keymap(struct ir_lircd *s, const struct ir_keymap *keymap);

/* Disconnects every client, closes the socket and removes its path if it
 * is still the socket we bound (never one another server took since). */
void ir_lircd_free(struct ir_lircd *s);

/* The descriptors to poll (the listening socket and every client: POLLIN,
 * or POLLOUT while its replies or output wait); returns how many were written (at
 * most `max`). */
size_t ir_lircd_fds(const struct ir_lircd *s, struct pollfd *fds, size_t max);

/* Accepts, reads and answers commands, writes pending output: whatever is
 * ready, without blocking. */
void ir_lircd_process(struct ir_lircd *s);

/* When ir_lircd_process() must run again although no descriptor is ready
 * (an ir_monotonic_us() time), or UINT64_MAX for never: the count of
 * clients refused or evicted since the last log line about them is logged
 * at most once a second, and a quiet loop must still write it. */
uint64_t ir_lircd_due_us(const struct ir_lircd *s);

/*
 * Broadcasts a key press or repeat that has a button name (others, and
 * key-up events, are not lircd's business).
 *
 * Loops between daemons: a client that sent "IRJACK_PEER ID" (another
 * irjackd's lircd source) gets each line with a fifth field, "ORIGIN:SEQ"
 * (the instance that decoded the event and its number there, hex), and
 * never gets an event whose origin or `via` (ev->origin) is its own id:
 * an event does not go back to the daemon it came from, nor to the one
 * that decoded it.  The reading side drops an ORIGIN:SEQ it has seen
 * (lircd_peer.h), which breaks longer cycles.  Other clients get lircd's
 * four fields, unchanged.
 */
void ir_lircd_broadcast(struct ir_lircd *s, const struct ir_key_event *event);

/* Makes the socket file anew if it was deleted or replaced under the
 * server (the clients stay connected).  Returns 0 when it was in place, 1
 * when made anew (logged), or a negative errno. */
int ir_lircd_check_socket(struct ir_lircd *s);

/* Clients connected now: one whose end has arrived (its input all served)
 * is not counted, whenever the loop last read it. */
size_t ir_lircd_client_count(struct ir_lircd *s);

/*
 * Answers one command line (without its newline) as the server would,
 * into `reply` (NUL-terminated, truncated at `size`); returns the reply's
 * length.  A SIMULATE line's broadcast goes to every client.  Exposed for
 * tests and fuzzing.
 */
size_t ir_lircd_command(struct ir_lircd *s, const char *line, char *reply, size_t size);

#endif
