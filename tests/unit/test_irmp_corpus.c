/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Real captures made by other people (IRMP's IR-Data, ../shared/corpus/irmp):
 * every labelled frame of a protocol rc-core has decodes to its label, and
 * every labelled frame of a protocol irjack names after IRMP decodes to its
 * label in IRMP's convention (address << 16 | command).
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
	enum ir_protocol proto, got;
	uint64_t scancode, got_scancode;

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
	/* Protocols beyond rc-core win over rc-core's reading of the same
	 * frame (apple over nec32, samsung32 over necx): compare rc-core's. */
	if (log_.count > 0 &&
	    ir_protocol_rc_core_view(log_.frames[0].protocol, log_.frames[0].scancode, &got,
				     &got_scancode) &&
	    got == proto && got_scancode == scancode) {
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

/* Decodes with the default protocols plus the label's own (some, like
 * rc6a, are left out of the default set), as a user who names the
 * protocol would. */
static void check_line_irmp_named(void *userdata, const struct irmp_line *line)
{
	struct tally *t = userdata;
	struct ir_timing_parse_opts opts = { .irmp_sample_rate = line->rate };
	struct ir_edge_buf edges = { 0 };
	struct ir_parse_error err;
	struct ir_protocol_set set;
	enum ir_protocol proto;
	uint64_t scancode;

	if (!line->labelled || !irmp_label_to_irjack(&line->label, &proto, &scancode))
		return;
	/* RC6A frames with an MCE customer code are rc-core's rc6_mce, by the
	 * documented priority (rc-core's names stay the default). */
	if (proto == IR_PROTO_RC6A && irmp_label_to_rc_core(&line->label, &proto, &scancode) &&
	    proto != IR_PROTO_RC6_MCE)
		return;
	if (ir_timing_parse(line->samples, strlen(line->samples), IR_FORMAT_IRMP, &opts, &edges,
			    &err) < 0) {
		fprintf(stderr, "%s:%u: %s\n", line->file, line->line_number, err.message);
		t->failures++;
		return;
	}
	ir_protocol_set_default(&set);
	ir_protocol_set_add(&set, proto);
	decode_edges(&set, edges.edges, edges.len, &log_);
	t->total[proto]++;
	if (log_.count > 0 && log_.frames[0].protocol == proto && log_.frames[0].scancode == scancode) {
		t->ok[proto]++;
	} else {
		t->failures++;
		fprintf(stderr, "%s:%u: expected %s:0x%llx, got", line->file, line->line_number,
			ir_protocol_get(proto)->name, (unsigned long long)scancode);
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

static void test_labelled_irmp_named_frames_decode(void **state)
{
	static struct tally t;
	unsigned all = 0, all_ok = 0, protocols = 0;

	(void)state;
	assert_true(irmp_corpus_walk(CORPUS_DIR, check_line_irmp_named, &t) > 0);
	printf("IRMP corpus, labelled frames in IRMP's convention:\n");
	for (unsigned p = 0; p < IR_PROTO_COUNT; p++) {
		if (!t.total[p])
			continue;
		printf("  %-10s %4u / %4u\n", ir_protocol_get(p)->name, t.ok[p], t.total[p]);
		all += t.total[p];
		all_ok += t.ok[p];
		protocols++;
	}
	printf("  %-10s %4u / %4u\n", "all", all_ok, all);
	/* apple, bose, grundig, matsushita, nokia, nubert, rc6a (as rc6_mce),
	 * recs80, samsung32, samsung48, thomson at least. */
	assert_true(protocols >= 11);
	assert_int_equal(t.failures, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_labelled_rc_core_frames_decode),
		cmocka_unit_test(test_labelled_irmp_named_frames_decode),
	};
	struct stat st;

	if (stat(CORPUS_DIR, &st) != 0) {
		printf("SKIP: %s not present\n", CORPUS_DIR);
		return 77;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
