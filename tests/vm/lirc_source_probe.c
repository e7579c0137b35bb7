/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lirc_source_probe.c - opens a source through ir_source_open() (in the VM:
 * "lirc:/dev/lirc0", "lirc:/dev/lirc0?mode=scancode") and prints every
 * frame as "PROTOCOL:0xSCANCODE" on stdout, events on stderr, until
 * SECONDS have passed or COUNT frames came.  A stand-in for `irjack
 * listen` while that is being written.
 * Usage: lirc_source_probe SPEC SECONDS [COUNT [TIMEOUT_US]]
 *        lirc_source_probe --list   (the lirc backend's device list)
 * Exit: 0 when at least one frame came, 1 when none, 2 on errors.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ir_protocol.h"
#include "ir_source.h"

struct probe {
	unsigned long frames, edges, pulses;
};

static void on_frame(void *userdata, const struct ir_frame *frame)
{
	struct probe *p = userdata;
	const struct ir_protocol_info *info = ir_protocol_get(frame->protocol);

	p->frames++;
	printf("%s:0x%llx%s\n", info ? info->name : "unknown", (unsigned long long)frame->scancode,
	       frame->flags & IR_FRAME_REPEAT ? " repeat" : "");
	fflush(stdout);
}

static void on_edge(void *userdata, unsigned channel, const struct ir_edge *edge)
{
	struct probe *p = userdata;

	(void)channel;
	p->edges++;
	if (edge->kind == IR_PULSE)
		p->pulses++;
	if (edge->kind == IR_CARRIER || edge->kind == IR_OVERFLOW || edge->kind == IR_TIMEOUT)
		fprintf(stderr, "probe: %s %u\n", ir_edge_kind_name((enum ir_edge_kind)edge->kind),
			edge->duration);
}

static void on_event(void *userdata, enum ir_source_event event, const char *message)
{
	(void)userdata;
	fprintf(stderr, "probe: event %d: %s\n", (int)event, message);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct probe p = { 0 };
	struct ir_source_callbacks cb = {
		.frame = on_frame, .edge = on_edge, .event = on_event, .userdata = &p,
	};
	struct ir_source *src;
	struct ir_source_options opt;
	struct ir_source_stats st;
	char err[256];
	double end;
	unsigned long want;
	int ret = 0;

	if (argc == 2 && strcmp(argv[1], "--list") == 0) {
		/* what `irjack devices` will print for this backend */
		const struct ir_source_backend *b = ir_source_backend_find("lirc");

		return b && b->list(stdout, true, true) > 0 ? 0 : 1;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: lirc_source_probe SPEC SECONDS [COUNT [TIMEOUT_US]]\n");
		return 2;
	}
	end = now_s() + atof(argv[2]);
	want = argc > 3 ? strtoul(argv[3], NULL, 0) : 0;
	ir_source_options_init(&opt);
	opt.timeout_us = argc > 4 ? (uint32_t)strtoul(argv[4], NULL, 0) : 0;
	ret = ir_source_open(argv[1], &opt, &cb, &src, err, sizeof(err));
	if (ret < 0) {
		fprintf(stderr, "probe: %s\n", err);
		return 2;
	}
	fprintf(stderr, "probe: ready\n"); /* the test waits for this line before sending */
	while (now_s() < end && (!want || p.frames < want)) {
		struct pollfd pfd = { .fd = ir_source_fd(src), .events = POLLIN };

		if (poll(&pfd, 1, 50) < 0 && errno != EINTR)
			break;
		if (pfd.revents && (ret = ir_source_dispatch(src, err, sizeof(err))) == -ENODATA)
			break; /* a file source has ended */
		if (ret < 0) {
			fprintf(stderr, "probe: %s\n", err);
			ir_source_free(src);
			return 2;
		}
	}
	ir_source_stats(src, &st);
	fprintf(stderr, "probe: %s %s format %s: %lu edges (%lu pulses), %llu frames, %llu reopens\n",
		st.backend, st.device, st.format, p.edges, p.pulses, (unsigned long long)st.frames,
		(unsigned long long)st.reopens);
	ir_source_free(src);
	return p.frames ? 0 : 1;
}
