/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * out_json.h - the JSON lines output: one line per decoded frame
 * (ir_frame_format_json(), with the source's name and the keymap's button)
 * written to a file or standard output.
 *
 * The writer never waits: lines a slow reader has not taken are kept (up to
 * IR_JSON_BUFFER bytes) and written when the descriptor is writable; beyond
 * that newer lines are dropped and counted.  A reader that fails for good
 * (EPIPE, disk full) loses the buffer, logged once.  Run through the output
 * interface (ir_output.h, kind "json").
 */
#ifndef IRJACK_OUT_JSON_H
#define IRJACK_OUT_JSON_H

/* Unread JSON lines kept for a slow reader before newer ones are dropped. */
#define IR_JSON_BUFFER (64 * 1024)

struct ir_json_settings {
	char path[256]; /* "-": standard output (made non-blocking) */
};

#endif
