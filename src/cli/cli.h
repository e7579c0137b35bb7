/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cli.h - the irjack command-line program's commands and shared helpers.
 * Exit status convention for every command: 0 success, 1 "nothing found"
 * where a command says so (decode with no frame), 2 usage or input errors.
 */
#ifndef IRJACK_CLI_H
#define IRJACK_CLI_H

#include <stdbool.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ir_demod.h"
#include "ir_protocol.h"

#define EXIT_NOTHING 1
#define EXIT_USAGE 2

int cmd_decode(int argc, char **argv);
int cmd_devices(int argc, char **argv);
int cmd_display(int argc, char **argv);
int cmd_encode(int argc, char **argv);
int cmd_keymap(int argc, char **argv);
int cmd_learn(int argc, char **argv);
int cmd_listen(int argc, char **argv);
int cmd_monitor(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_protocols(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_synth(int argc, char **argv);
int cmd_send(int argc, char **argv);
int cmd_status(int argc, char **argv);

/* An input that is not a regular file (a FIFO, a pipe, a device) is read
 * once, whole, into memory, so that probing its format and reading it do
 * not each open it (a FIFO's second open waits for a new writer). */
#define CLI_INPUT_ONCE_MAX (256u << 20)
/* Sets `use` to the path to read `path` through as often as needed: the
 * path itself for a regular file or "-", else a memory file's
 * /proc/self/fd path (its descriptor in *fd, -1 otherwise: the caller
 * closes it).  Returns 0, or a negative errno (-EISDIR for a directory,
 * -EFBIG past CLI_INPUT_ONCE_MAX). */
int cli_input_once(const char *path, int *fd, char *use, size_t use_size);

/* 0 if `edges` last at most IR_SIGNAL_MAX_US, else -1 with an error
 * naming `what` (checked before anything is rendered or sent). */
int cli_check_signal_length(const char *what, const struct ir_edge_buf *edges);

/* Connects to irjackd's lircd-compatible socket at `path`; prints why not
 * and returns -1, else the descriptor. */
int cli_socket_connect(const char *path);

/*
 * Reads until the reply to `command` (the line as sent, which the reply
 * echoes) is complete (its END line), skipping broadcast key lines that
 * may come first, or until `deadline` (ir_monotonic_ms()).  `buf` holds
 * `size` bytes.  Returns the offset of the reply's BEGIN in buf, or -1
 * after printing why.
 */
long cli_read_reply(int fd, const char *command, char *buf, size_t size, long long deadline);

/* Prints `text`'s words (split at spaces) so that no line passes `width`
 * columns (UTF-8 characters): the cursor is at column `col` (padded to
 * `indent` first), later lines begin with `indent` spaces; a newline ends
 * it.  For help texts built from tables (backends, icon names). */
void cli_print_wrapped(FILE *out, const char *text, int col, int indent, int width);

/* Prints "irjack: <message>\n" to stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Parses "PROTO:SCANCODE" (scancode in C notation: 0x.., decimal).
 * Prints a clear error and returns -1 on failure. */
int cli_parse_proto_scancode(const char *arg, enum ir_protocol *proto, uint64_t *scancode);

/* Parses a whole unsigned number in [min, max]; prints an error naming
 * `what` and returns -1 otherwise. */
int cli_parse_uint(const char *arg, const char *what, unsigned long long min,
		   unsigned long long max, unsigned long long *out);

/* "left", "right", "auto" or a 1-based number → 0-based channel or
 * IR_RECEIVER_CHANNEL_AUTO (-1).  Prints an error and returns -1 if bad. */
int cli_parse_channel(const char *arg, int *channel);

/* "auto", "high", "low" → enum ir_polarity (as int).  Prints an error and
 * returns -1 if bad. */
int cli_parse_polarity(const char *arg, enum ir_polarity *polarity);

/* Loads a keymap file or folder into *keymap (created on first use).
 * Prints "irjack: FILE:LINE: message" and returns -1 on failure (*keymap
 * is still the caller's to free). */
struct ir_keymap;
int cli_load_keymap(const char *path, struct ir_keymap **keymap);

/* How `irjack decode` and `irjack listen` print frames: one line each on
 * stdout, text or JSON, with the button's name when a keymap has it. */
struct ir_frame;
struct cli_frame_printer {
	bool json;
	const char *source;             /* named in each line when not NULL */
	const struct ir_keymap *keymap; /* not owned; NULL: no names */
	unsigned long frames;           /* lines printed so far */
};

/* An ir_frame_fn: `printer` is a struct cli_frame_printer. */
void cli_print_frame(void *printer, const struct ir_frame *frame);

/* Adds the protocols the keymap's remotes name to `enabled` (as
 * ir-keytable -a does); nothing when keymap is NULL. */
void cli_enable_keymap_protocols(const struct ir_keymap *keymap, struct ir_protocol_set *enabled);

/* The source spec for --device DEVICE [--backend BACKEND]: a full spec
 * ("alsa:hw:1", "lirc:/dev/lirc0", "file:x.wav", a path) is kept; a bare
 * ALSA PCM name ("hw:1,0", "default") gets BACKEND: (default alsa); no
 * DEVICE is BACKEND:default.  Prints an error and returns -1 if it does not
 * fit in `out` or BACKEND is unknown. */
int cli_source_spec(const char *device, const char *backend, char *out, size_t out_size);

/* What the live-source options of listen, record and monitor fill in. */
struct ir_source_options;
struct cli_live_args {
	const char *device;           /* -d/--device (--source) SPEC */
	const char *backend;          /* -b/--backend NAME */
	double duration_s;            /* -t/--duration S; 0: until stopped */
	struct ir_source_options *sopt; /* rate (-r), period_us (U), sample_format (F) */
};

/* Takes one of the options every live-source command shares (getopt
 * values 'd', 'b', 'r', 't', and 'U' / 'F' for --period-us / --format).
 * Returns 1 if `opt` was one (stored in *a), 0 if it is not, -1 for a bad
 * value (reported). */
int cli_live_option(int opt, const char *arg, struct cli_live_args *a);

/* --duration SEC for a live source: sets opt->max_frames (at the rate
 * asked for) and, up to 60 s, a ring that holds all of it.  Nothing when
 * duration_s <= 0. */
struct ir_source_options;
void cli_source_duration(struct ir_source_options *opt, double duration_s);

/* Polls and dispatches `src` until SIGINT/SIGTERM (blocked meanwhile and
 * read through a signalfd), the end of the source, or duration_s seconds of
 * audio (samples at the source's rate; wall-clock for timing sources; 0 =
 * no limit).  Returns 0, or -1 on a fatal source error (printed). */
struct ir_source;
int cli_run_source(struct ir_source *src, double duration_s);
/* The same, also polling `extra->fd` and calling extra->process() when it
 * is ready (a negative return stops the loop: -1). */
struct cli_extra_fd {
	int fd;
	int (*process)(void *userdata);
	void *userdata;
};
int cli_run_source_with(struct ir_source *src, double duration_s, const struct cli_extra_fd *extra);

/* True if the argument list asks for help (-h/--help anywhere before "--"). */
bool cli_wants_help(int argc, char **argv);

#endif
