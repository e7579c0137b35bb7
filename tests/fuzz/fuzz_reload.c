/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: irjackd's reload path in-process, with random source
 * failures (issue 24: a SIGHUP while a source could not be reopened left a
 * NULL source behind, SIGSEGV).  Each input is one reload of the running
 * generation:
 *   byte 0..1  which sources fail to open now (bit i: source i's file is
 *              missing), and which of the waiting ones open on the retry
 *   the rest   the new configuration (INI), as irjackd parses it
 * A configuration that does not parse is rejected and the old generation
 * keeps running, as reload() does.  Otherwise the new generation's sources
 * are opened (failures kept "waiting"), retried, dispatched once, STATUS
 * is written, and only then is the old generation released.  Every source
 * becomes a `file` source (other kinds would reach for hardware the fuzzer
 * does not have: their failures are the same "waiting" path).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* fmemopen */
#endif
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <syslog.h>

#include "irjackd.h"
#include "irjackd_config.h"
#include "irjackd_service.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct service sv;
static char present[64], missing[64];

/* A recording every "present" source replays: one NEC frame. */
static void setup(void)
{
	FILE *f;

	irjackd_set_log_level(LOG_CRIT); /* "waiting for its device" each run */
	snprintf(present, sizeof(present), "/tmp/irjack-fuzz-reload-%d.mode2", (int)getpid());
	snprintf(missing, sizeof(missing), "/tmp/irjack-fuzz-reload-%d.none", (int)getpid());
	f = fopen(present, "w");
	if (!f)
		abort();
	fprintf(f, "pulse 9000\nspace 4500\n");
	for (int i = 0; i < 32; i++)
		fprintf(f, "pulse 560\nspace %d\n", i % 3 ? 560 : 1690);
	fprintf(f, "pulse 560\nspace 100000\n");
	fclose(f);
	sv.gen = calloc(1, sizeof(*sv.gen));
	if (!sv.gen || !(sv.gen->cfg = calloc(1, sizeof(*sv.gen->cfg))) ||
	    ir_keymap_new(&sv.gen->km) < 0)
		abort();
	irjackd_config_defaults(sv.gen->cfg);
}

static struct generation *parse(const uint8_t *data, size_t size, unsigned fail_mask)
{
	struct irjackd_config_error err;
	struct generation *g = calloc(1, sizeof(*g));
	FILE *f;
	int ret = -1;

	if (!g || !(g->cfg = calloc(1, sizeof(*g->cfg))) || ir_keymap_new(&g->km) < 0)
		abort();
	irjackd_config_defaults(g->cfg);
	f = size ? fmemopen((void *)data, size, "r") : NULL;
	if (f) {
		ret = irjackd_config_load_stream(f, "fuzz", g->cfg, &err);
		fclose(f);
	}
	if (ret < 0) {
		generation_free(&sv, g);
		return NULL;
	}
	for (unsigned i = 0; i < g->cfg->source_count; i++) {
		struct irjackd_source *s = &g->cfg->sources[i];

		s->type = IRJACKD_SOURCE_FILE;
		s->required = false;
		s->replay_delay_ms = 0;
		snprintf(s->device, sizeof(s->device), "%s",
			 fail_mask & (1u << i) ? missing : present);
	}
	return g;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool ready;
	unsigned fail_mask, retry_mask;
	struct generation *g;
	char status[8192];

	if (!ready) {
		setup();
		ready = true;
	}
	if (size < 2)
		return 0;
	fail_mask = data[0];
	retry_mask = data[1];
	g = parse(data + 2, size - 2, fail_mask);
	if (!g)
		return 0; /* rejected: the running generation stays */
	if (sources_open(&sv, g, false) < 0) {
		/* reload(): the new sources failed, the old ones keep running */
		generation_free(&sv, g);
		return 0;
	}
	/* some of the waiting ones open on the retry */
	for (unsigned i = 0; i < g->source_count; i++)
		if (retry_mask & (1u << i))
			snprintf(g->cfg->sources[i].device, sizeof(g->cfg->sources[i].device), "%s",
				 present);
	sources_retry(&sv, g, UINT64_MAX - 1);
	for (unsigned i = 0; i < g->source_count; i++)
		if (!g->sources[i].waiting)
			source_dispatch(&g->sources[i]);
	generation_free(&sv, sv.gen);
	sv.gen = g;
	status_lines(&sv, status, sizeof(status));
	return 0;
}
