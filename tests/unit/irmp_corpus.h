/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irmp_corpus.h - walking IRMP's IR-Data captures (../shared/corpus/irmp)
 * and turning their labels into rc-core (protocol, scancode), for the tests
 * and benchmarks.  The rules are those of the corpus README.
 */
#ifndef IRJACK_TEST_IRMP_CORPUS_H
#define IRJACK_TEST_IRMP_CORPUS_H

#include <stdbool.h>
#include <stdint.h>

#include "ir_protocol.h"

/* IRMP's protocol numbers (irmpprotocols.h) used by the corpus labels. */
enum irmp_protocol {
	IRMP_SIRCS = 1,
	IRMP_NEC = 2,
	IRMP_SAMSUNG = 3,
	IRMP_MATSUSHITA = 4,
	IRMP_KASEIKYO = 5,
	IRMP_RECS80 = 6,
	IRMP_RC5 = 7,
	IRMP_DENON = 8,
	IRMP_RC6 = 9,
	IRMP_SAMSUNG32 = 10,
	IRMP_APPLE = 11,
	IRMP_NUBERT = 13,
	IRMP_GRUNDIG = 15,
	IRMP_NOKIA = 16,
	IRMP_JVC = 20,
	IRMP_RC6A = 21,
	IRMP_THOMSON = 30,
	IRMP_BOSE = 31,
	IRMP_RCMM32 = 36,
	IRMP_SAMSUNG48 = 41,
	IRMP_ONKYO = 56,
};

struct irmp_label {
	unsigned protocol; /* IRMP number */
	char name[24];     /* IRMP's short name, e.g. "SAMSG32" */
	uint32_t address;
	uint32_t command;
};

/* Parses "[ N (NAME) 0xADDR 0xCMD ]" out of a comment line. */
bool irmp_parse_label(const char *line, struct irmp_label *out);

/* The rc-core (protocol, scancode) a label stands for, when rc-core has the
 * protocol; false otherwise (the label is then compared in IRMP's own
 * convention, by the protocols beyond rc-core). */
bool irmp_label_to_rc_core(const struct irmp_label *label, enum ir_protocol *proto,
			   uint64_t *scancode);

/* The irjack protocol and scancode a label stands for in IRMP's own
 * convention (scancode = address << 16 | command), for protocols rc-core
 * does not have; false if irjack has no such protocol. */
bool irmp_label_to_irjack(const struct irmp_label *label, enum ir_protocol *proto,
			  uint64_t *scancode);

/* One data line of a capture with the label that precedes it (if any). */
struct irmp_line {
	const char *file;      /* base name */
	unsigned line_number;  /* 1-based, in the file */
	unsigned rate;         /* samples per second */
	const char *samples;   /* the line's sample characters (NUL-terminated) */
	bool labelled;
	struct irmp_label label;
};

/* Calls fn for every data line of every capture in `dir`, in file-name
 * order.  Returns the number of files read, or -errno if `dir` cannot be
 * opened. */
int irmp_corpus_walk(const char *dir, void (*fn)(void *userdata, const struct irmp_line *line),
		     void *userdata);

#endif
