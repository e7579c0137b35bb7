/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "irmp_corpus.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir_timing_io.h"

bool irmp_parse_label(const char *line, struct irmp_label *out)
{
	const char *open = strrchr(line, '[');
	unsigned n;
	char name[24];
	long a, c;

	if (!open)
		return false;
	if (sscanf(open, "[ %u (%23[^)]) %li %li", &n, name, &a, &c) != 4)
		return false;
	out->protocol = n;
	snprintf(out->name, sizeof(out->name), "%s", name);
	out->address = (uint32_t)a;
	out->command = (uint32_t)c;
	return true;
}

static uint32_t bitrev(uint32_t v, unsigned nbits)
{
	uint32_t r = 0;

	for (unsigned i = 0; i < nbits; i++, v >>= 1)
		r = r << 1 | (v & 1);
	return r;
}

bool irmp_label_to_rc_core(const struct irmp_label *l, enum ir_protocol *proto,
			   uint64_t *scancode)
{
	uint32_t a = l->address, c = l->command;

	switch (l->protocol) {
	case IRMP_NEC: {
		uint32_t b0 = a & 0xff, b1 = a >> 8;

		if ((b0 ^ b1) == 0xff) {
			*proto = IR_PROTO_NEC;
			*scancode = b0 << 8 | (c & 0xff);
		} else {
			*proto = IR_PROTO_NECX;
			*scancode = b0 << 16 | b1 << 8 | (c & 0xff);
		}
		return true;
	}
	case IRMP_SAMSUNG32:
		*proto = IR_PROTO_NECX;
		*scancode = (a & 0xff) << 16 | (a >> 8) << 8 | (c & 0xff);
		return true;
	case IRMP_APPLE:
		/* Apple frames are NEC frames with vendor bytes 0xEE 0x87, the
		 * command in byte 2 and the pairing ID (IRMP's address) in byte 3:
		 * rc-core nec32 = B1<<24 | B0<<16 | B3<<8 | B2. */
		*proto = IR_PROTO_NEC32;
		*scancode = 0x87u << 24 | 0xeeu << 16 | (a & 0xff) << 8 | (c & 0xff);
		return true;
	case IRMP_JVC: {
		uint32_t v = (a & 0xf) | (c & 0xfff) << 4;

		*proto = IR_PROTO_JVC;
		*scancode = (v & 0xff) << 8 | v >> 8;
		return true;
	}
	case IRMP_SIRCS: {
		unsigned nbits = 12 + (a >> 8);

		if (nbits == 12 || nbits == 15) {
			*proto = nbits == 12 ? IR_PROTO_SONY12 : IR_PROTO_SONY15;
			*scancode = (uint64_t)(c >> 7) << 16 | (c & 0x7f);
			return true;
		}
		if (nbits == 20) {
			uint32_t v = (c & 0x7fff) | (a & 0x1f) << 15;

			*proto = IR_PROTO_SONY20;
			*scancode = (uint64_t)((v >> 7) & 0x1f) << 16 | ((v >> 12) & 0xff) << 8 | (v & 0x7f);
			return true;
		}
		return false;
	}
	case IRMP_RC5:
		*proto = IR_PROTO_RC5;
		*scancode = a << 8 | c;
		return true;
	case IRMP_RC6:
		*proto = IR_PROTO_RC6_0;
		*scancode = a << 8 | c;
		return true;
	case IRMP_RC6A:
		if (a == 0x000f || a == 0x0034 || a == 0x0046) {
			*proto = IR_PROTO_RC6_MCE;
			*scancode = 0x80000000u | a << 16 | (c & 0x7fff);
			return true;
		}
		return false;
	case IRMP_RCMM32: {
		uint32_t v = a << 16 | c;

		*proto = IR_PROTO_RCMM32;
		*scancode = (v & 0x000c0000u) == 0x000c0000u ? v : v & ~0x8000u;
		return true;
	}
	case IRMP_DENON:
		*proto = IR_PROTO_SHARP;
		*scancode = bitrev(a & 0x1f, 5) << 8 | bitrev((c >> 2) & 0xff, 8);
		return true;
	default:
		return false;
	}
}

/* IRMP's protocol numbers (irmpprotocols.h) for the protocols irjack names
 * after IRMP. */
static const struct {
	unsigned irmp;
	enum ir_protocol proto;
} irmp_protocols[] = {
	{ 3, IR_PROTO_SAMSUNG },     { 4, IR_PROTO_MATSUSHITA }, { 5, IR_PROTO_KASEIKYO },
	{ 6, IR_PROTO_RECS80 },      { 10, IR_PROTO_SAMSUNG32 }, { 11, IR_PROTO_APPLE },
	{ 12, IR_PROTO_RECS80EXT },  { 13, IR_PROTO_NUBERT },    { 14, IR_PROTO_BANG_OLUFSEN },
	{ 15, IR_PROTO_GRUNDIG },    { 16, IR_PROTO_NOKIA },     { 17, IR_PROTO_SIEMENS },
	{ 18, IR_PROTO_FDC },        { 21, IR_PROTO_RC6A },      { 23, IR_PROTO_RUWIDO },
	{ 24, IR_PROTO_IR60 },       { 25, IR_PROTO_KATHREIN },  { 27, IR_PROTO_NEC16 },
	{ 28, IR_PROTO_NEC42 },      { 29, IR_PROTO_LEGO },      { 30, IR_PROTO_THOMSON },
	{ 31, IR_PROTO_BOSE },       { 33, IR_PROTO_ORTEK },     { 34, IR_PROTO_TELEFUNKEN },
	{ 39, IR_PROTO_SPEAKER },    { 41, IR_PROTO_SAMSUNG48 }, { 44, IR_PROTO_FAN },
	{ 47, IR_PROTO_TECHNICS },   { 48, IR_PROTO_PANASONIC }, { 55, IR_PROTO_METZ },
	{ 56, IR_PROTO_ONKYO },      { 61, IR_PROTO_RC6A20 },    { 62, IR_PROTO_RC6A28 },
};

bool irmp_label_to_irjack(const struct irmp_label *label, enum ir_protocol *proto,
			  uint64_t *scancode)
{
	for (size_t i = 0; i < sizeof(irmp_protocols) / sizeof(irmp_protocols[0]); i++) {
		if (irmp_protocols[i].irmp != label->protocol)
			continue;
		if (!ir_protocol_get(irmp_protocols[i].proto))
			return false;
		*proto = irmp_protocols[i].proto;
		*scancode = (uint64_t)label->address << 16 | label->command;
		return true;
	}
	return false;
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void walk_file(const char *dir, const char *name,
		      void (*fn)(void *userdata, const struct irmp_line *line), void *userdata)
{
	char path[4096];
	FILE *f;
	/* IR-Data lines hold up to tens of thousands of samples. */
	size_t cap = 1u << 20;
	char *buf = malloc(cap);
	struct irmp_line line = { .file = name };
	bool have_label = false;
	struct irmp_label label;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "rb");
	if (!f || !buf) {
		free(buf);
		if (f)
			fclose(f);
		return;
	}
	line.rate = ir_timing_irmp_rate_from_name(name);
	while (fgets(buf, (int)cap, f)) {
		char *hash = strchr(buf, '#');
		size_t n;

		line.line_number++;
		if (hash) {
			/* A comment may carry the label of the next data line;
			 * samples before a '#' are stray (nec.txt line 1). */
			if (irmp_parse_label(hash, &label))
				have_label = true;
			continue;
		}
		n = strlen(buf);
		while (n && isspace((unsigned char)buf[n - 1]))
			buf[--n] = '\0';
		if (n == 0)
			continue;
		line.samples = buf;
		line.labelled = have_label;
		if (have_label)
			line.label = label;
		have_label = false;
		fn(userdata, &line);
	}
	fclose(f);
	free(buf);
}

int irmp_corpus_walk(const char *dir, void (*fn)(void *userdata, const struct irmp_line *line),
		     void *userdata)
{
	DIR *d = opendir(dir);
	struct dirent *ent;
	char **names = NULL;
	size_t count = 0, cap = 0;

	if (!d)
		return -errno;
	while ((ent = readdir(d)) != NULL) {
		size_t len = strlen(ent->d_name);

		if (len < 5 || strcmp(ent->d_name + len - 4, ".txt") != 0)
			continue;
		if (count == cap) {
			cap = cap ? cap * 2 : 64;
			names = realloc(names, cap * sizeof(*names));
			if (!names)
				abort();
		}
		names[count++] = strdup(ent->d_name);
	}
	closedir(d);
	qsort(names, count, sizeof(*names), compare_names);
	for (size_t i = 0; i < count; i++) {
		walk_file(dir, names[i], fn, userdata);
		free(names[i]);
	}
	free(names);
	return (int)count;
}
