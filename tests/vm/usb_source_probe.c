/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * usb_source_probe.c - the host side of the VM's USB test: opens SPEC
 * through ir_source_open() exactly as irjackd does and prints, one line
 * each: "OPEN <device>", "EXPECT-INIT <hex>" (the init commands the
 * device should have received), every "FRAME <protocol> 0x<scancode>",
 * every "EVENT GONE|BACK <message>".  Once it has seen FRAMES frames and a
 * BACK, it transmits NEC 0x0408 and 10 repeat codes (over 1 s, long
 * enough to need several USB writes) at 38 kHz on emitter 1, prints
 * "EXPECT-TX <hex>" (the carrier command and the TX builder's packets for
 * those timings) and "SENT", and exits 0.  Exits 1 after TIMEOUT seconds.
 *
 * Flags: "rx": exit 0 as soon as FRAMES frames came (no replug, no
 * transmit: an iMON receiver; FRAMES 0: just open); "detach": open with
 * detach_kernel (irjack's --detach-kernel).
 *
 * Usage: usb_source_probe SPEC FRAMES TIMEOUT [rx] [detach]
 */
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ir_mceusb.h"
#include "ir_mceusb_devices.h"
#include "ir_protocol.h"
#include "ir_source.h"

struct seen {
	unsigned frames, back;
};

static void on_frame(void *userdata, const struct ir_frame *f)
{
	struct seen *s = userdata;
	const struct ir_protocol_info *info = ir_protocol_get(f->protocol);

	printf("FRAME %s 0x%llx\n", info ? info->name : "?", (unsigned long long)f->scancode);
	s->frames++;
}

static void on_event(void *userdata, enum ir_source_event ev, const char *msg)
{
	struct seen *s = userdata;

	if (ev == IR_SOURCE_BACK)
		s->back++;
	printf("EVENT %s %s\n", ev == IR_SOURCE_GONE ? "GONE" : ev == IR_SOURCE_BACK ? "BACK" :
	       ev == IR_SOURCE_XRUN ? "XRUN" : "END", msg);
}

static void print_hex(const char *label, const uint8_t *b, size_t n)
{
	printf("%s ", label);
	for (size_t i = 0; i < n; i++)
		printf("%02x", b[i]);
	printf("\n");
}

static int transmit(struct ir_source *src)
{
	const struct ir_mceusb_device *dev = ir_mceusb_device_find(0x0471, 0x0815);
	struct ir_edge_buf edges = { 0 };
	static uint8_t expect[4096];
	char err[256];
	long n;
	int r;

	struct ir_encode_opts opts = { .repeats = 10 };

	if (ir_encode(IR_PROTO_NEC, 0x0408, &opts, &edges) < 0)
		return 1;
	ir_mceusb_carrier_cmd(38000, expect);
	n = ir_mceusb_tx_build(edges.edges, edges.len, ir_mceusb_tx_mask(dev, 1), expect + 4,
			       sizeof(expect) - 4);
	if (n < 0)
		return 1;
	print_hex("EXPECT-TX", expect, (size_t)n + 4);
	r = ir_source_transmit(src, edges.edges, edges.len, 38000, 1, err, sizeof(err));
	ir_edge_buf_free(&edges);
	if (r < 0) {
		printf("TRANSMIT-FAILED %s\n", err);
		return 1;
	}
	printf("SENT\n");
	return 0;
}

int main(int argc, char **argv)
{
	struct seen seen = { 0 };
	struct ir_source_callbacks cb = { .frame = on_frame, .event = on_event, .userdata = &seen };
	struct ir_source *src;
	struct ir_source_stats st;
	uint8_t init[64];
	char err[256];
	unsigned want;
	time_t deadline;
	long n;
	int r;

	struct ir_source_options opt;
	bool rx_only = false;

	ir_source_options_init(&opt);
	for (int i = 4; i < argc; i++) {
		if (strcmp(argv[i], "rx") == 0)
			rx_only = true;
		else if (strcmp(argv[i], "detach") == 0)
			opt.detach_kernel = true;
		else
			argc = 0;
	}
	if (argc < 4) {
		fprintf(stderr, "usage: usb_source_probe SPEC FRAMES TIMEOUT [rx] [detach]\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	want = (unsigned)atoi(argv[2]);
	deadline = time(NULL) + atoi(argv[3]);
	r = ir_source_open(argv[1], &opt, &cb, &src, err, sizeof(err));
	if (r < 0) {
		printf("OPEN-FAILED %s\n", err);
		return 1;
	}
	ir_source_stats(src, &st);
	printf("OPEN %s\n", st.device);
	n = ir_mceusb_init_commands(ir_mceusb_device_find(0x0471, 0x0815), 0, init, sizeof(init));
	if (n > 0 && !rx_only)
		print_hex("EXPECT-INIT", init, (size_t)n);
	while (time(NULL) < deadline) {
		struct pollfd p = { .fd = ir_source_fd(src), .events = POLLIN };

		poll(&p, 1, 100);
		r = ir_source_dispatch(src, err, sizeof(err));
		if (r < 0) {
			printf("DISPATCH-FAILED %s\n", err);
			break;
		}
		if (rx_only && seen.frames >= want) {
			ir_source_free(src);
			return 0;
		}
		if (seen.frames >= want && seen.back) {
			r = transmit(src);
			ir_source_stats(src, &st);
			printf("STATS reopens=%llu connected=%d edges=%llu frames=%llu\n",
			       (unsigned long long)st.reopens, st.connected,
			       (unsigned long long)st.samples, (unsigned long long)st.frames);
			ir_source_free(src);
			return r;
		}
	}
	printf("TIMEOUT frames=%u back=%u\n", seen.frames, seen.back);
	ir_source_free(src);
	return 1;
}
