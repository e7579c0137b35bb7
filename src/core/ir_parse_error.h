/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_parse_error.h - where a parser found its input wrong: every parser of
 * outside input (timing files, keymaps, lircd.conf) reports through it.
 */
#ifndef IRJACK_IR_PARSE_ERROR_H
#define IRJACK_IR_PARSE_ERROR_H

struct ir_parse_error {
	unsigned line;     /* 1-based; 0 if not tied to a line */
	char message[160];
};

#endif
