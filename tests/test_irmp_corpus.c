/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Real captures made by other people (IRMP's IR-Data, ../shared/corpus/irmp):
 * every labelled frame of a protocol rc-core has decodes to its label.
 * Skipped (exit 77), not passed, when the corpus is absent.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "ir_decoder.h"
#include "ir_timing_io.h"
#include "irmp_corpus.h"
#include "test_util.h"

#define CORPUS_DIR IRJACK_SHARED_DIR "/corpus/irmp"

struct tally {
	unsigned ok[IR_PROTO_COUNT];
	unsigned total[IR_PROTO_COUNT];
	unsigned failures;
};

static struct frame_log log_;

static void check_line(void *userdata, const struct irmp_line *line)
{
	struct tally *t = userdata;
	struct ir_timing_parse_opts opts = { .irmp_sample_rate = line->rate };
	struct ir_edge_buf edges = { 0 };
	struct ir_parse_error err;
	enum ir_protocol proto;
	uint64_t scancode;

	if (!line->labelled || !irmp_label_to_rc_core(&line->label, &proto, &scancode))
		return;
	if (ir_timing_parse(line->samples, strlen(line->samples), IR_FORMAT_IRMP, &opts, &edges,
			    &err) < 0) {
		fprintf(stderr, "%s:%u: %s\n", line->file, line->line_number, err.message);
		t->failures++;
		return;
	}
	decode_edges(NULL, edges.edges, edges.len, &log_);
	t->total[proto]++;
	if (log_.count > 0 && log_.frames[0].protocol == proto && log_.frames[0].scancode == scancode) {
		t->ok[proto]++;
	} else {
		t->failures++;
		fprintf(stderr, "%s:%u: expected %s:0x%llx, got", line->file, line->line_number,
			ir_protocol_get(proto) ? ir_protocol_get(proto)->name : "?",
			(unsigned long long)scancode);
		if (log_.count == 0)
			fprintf(stderr, " nothing");
		for (size_t i = 0; i < log_.count && i < 4; i++)
			fprintf(stderr, " %s:0x%llx",
				ir_protocol_get(log_.frames[i].protocol)->name,
				(unsigned long long)log_.frames[i].scancode);
		fprintf(stderr, "\n");
	}
	ir_edge_buf_free(&edges);
}

static void test_labelled_rc_core_frames_decode(void **state)
{
	static struct tally t;
	unsigned all = 0, all_ok = 0;

	(void)state;
	assert_true(irmp_corpus_walk(CORPUS_DIR, check_line, &t) > 0);
	printf("IRMP corpus, labelled frames of rc-core protocols:\n");
	for (unsigned p = 0; p < IR_PROTO_COUNT; p++) {
		if (!t.total[p])
			continue;
		printf("  %-10s %4u / %4u\n", ir_protocol_get(p) ? ir_protocol_get(p)->name : "?", t.ok[p],
		       t.total[p]);
		all += t.total[p];
		all_ok += t.ok[p];
	}
	printf("  %-10s %4u / %4u\n", "all", all_ok, all);
	/* Every rc-core protocol in the corpus is present. */
	assert_true(all >= 300);
	assert_int_equal(t.failures, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_labelled_rc_core_frames_decode),
	};
	struct stat st;

	if (stat(CORPUS_DIR, &st) != 0) {
		printf("SKIP: %s not present\n", CORPUS_DIR);
		return 77;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
