/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_timing_io.h - reading and writing the ecosystem's timing formats.
 *
 *  mode2   LIRC mode2 / ir-ctl text: `pulse N`, `space N`, `timeout N`,
 *          `carrier N`, `scancode PROTO:CODE` (encoded on the spot), the
 *          compact `+N -N` form (signs optional: bare numbers alternate,
 *          starting with a pulse), `#` and `//` comments.  Adjacent values
 *          of the same kind merge, as ir-ctl does.
 *  binary  the kernel's LIRC_MODE2 stream: native-endian u32 words, type in
 *          the top byte (SPACE 0, PULSE 1, FREQUENCY 2, TIMEOUT 3,
 *          OVERFLOW 4), µs in the low 24 bits.
 *  lircd   raw codes as in a lircd.conf `begin raw_codes` section: numbers
 *          alternating pulse/space from a pulse, each `name KEY` line
 *          starting a new signal after the remote's `gap` (default 100 ms).
 *          A whole lircd.conf raw remote is accepted.
 *  irmp    IRMP's IR-Data captures: one character per sample ('0'/'_' = IR
 *          active, '1'/'-' = idle), one key press per line, about a second
 *          of silence per newline, `#` comments.  Needs the sample rate.
 *
 * Durations must be 1 .. IR_DURATION_MAX µs.  Errors never crash: a parse
 * failure returns -EINVAL and fills struct ir_parse_error with the 1-based
 * line (the word index for the binary format) and a message.
 */
#ifndef IRJACK_IR_TIMING_IO_H
#define IRJACK_IR_TIMING_IO_H

#include <stdint.h>
#include <stdio.h>

#include "ir_edge.h"
#include "ir_parse_error.h"

enum ir_timing_format {
	IR_FORMAT_AUTO = 0,
	IR_FORMAT_MODE2,
	IR_FORMAT_BINARY,
	IR_FORMAT_LIRCD,
	IR_FORMAT_IRMP,
};

/* The largest timing file read (bytes): far beyond any capture, small
 * enough that a mistaken path cannot exhaust memory. */
#define IR_TIMING_FILE_MAX (256u << 20)

struct ir_timing_parse_opts {
	unsigned irmp_sample_rate; /* Hz for IR_FORMAT_IRMP; 0 = 10000 */
};

/* "mode2", "binary", "lircd", "irmp", "auto" ↔ enum.  from_name returns 0
 * or -ENOENT. */
const char *ir_timing_format_name(enum ir_timing_format fmt);
int ir_timing_format_from_name(const char *name, enum ir_timing_format *out);

/* Guesses the format of `data` (never IR_FORMAT_AUTO): binary if it holds
 * NUL bytes, irmp if its first data line is sample characters, lircd if it
 * looks like a lircd.conf or has `name` lines, mode2 otherwise. */
enum ir_timing_format ir_timing_detect(const void *data, size_t len);

/* IRMP file names carry their rate ("-15kHz", "_20khz"); 10 kHz otherwise. */
unsigned ir_timing_irmp_rate_from_name(const char *path);

/*
 * Parses `len` bytes of `data` in format `fmt` (AUTO: detected) and appends
 * the edges to `out`.  `opts` may be NULL.  Returns 0, -EINVAL with `err`
 * filled (err may be NULL), or -ENOMEM.  On error `out` holds the edges it
 * held before (its allocation may have grown: the caller frees it as ever).
 */
int ir_timing_parse(const void *data, size_t len, enum ir_timing_format fmt,
		    const struct ir_timing_parse_opts *opts, struct ir_edge_buf *out,
		    struct ir_parse_error *err);

/*
 * Reads a whole file (at most IR_TIMING_FILE_MAX bytes; "-" is stdin) and
 * parses it as ir_timing_parse() does.  For IR_FORMAT_IRMP with no rate in
 * `opts`, the rate comes from the file name.  *detected (if not NULL)
 * receives the format used.  Returns 0, a negative errno from opening or
 * reading (-EFBIG past the size limit, -EISDIR for a directory), or
 * ir_timing_parse()'s errors.
 */
int ir_timing_read_file(const char *path, enum ir_timing_format fmt,
			const struct ir_timing_parse_opts *opts, struct ir_edge_buf *out,
			enum ir_timing_format *detected, struct ir_parse_error *err);

/* Writers: mode2 keyword lines; ir-ctl compact text ("+9000 -4500 ...", one
 * frame per line, breaking after spaces ≥ 20 ms); the binary stream.
 * Return 0 or -EIO. */
int ir_timing_write_mode2(FILE *f, const struct ir_edge *edges, size_t n);
int ir_timing_write_compact(FILE *f, const struct ir_edge *edges, size_t n);
int ir_timing_write_binary(FILE *f, const struct ir_edge *edges, size_t n);

#endif
