/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_encode.c - `irjack encode PROTO:SCANCODE...`: the timings a remote
 * would send, in a format ir-ctl, mode2 readers and irjack itself accept.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "ir_timing_io.h"

static void encode_usage(FILE *out)
{
	fprintf(out,
		"Usage: irjack encode [OPTIONS] PROTOCOL:SCANCODE...\n"
		"\n"
		"Print the IR timings of a key press: the frame, its repeats, and the\n"
		"silence that follows, as the protocol specifies (carrier, unit, frame\n"
		"period).  Several codes are sent one after another.  The output decodes\n"
		"back with 'irjack decode' and can be sent with 'ir-ctl --send'.\n"
		"\n"
		"SCANCODE uses rc-core's layout for the protocol (see 'irjack protocols'),\n"
		"in hex (0x1e01) or decimal.\n"
		"\n"
		"Options:\n"
		"  -n, --repeats N    send N repeats after the frame: the protocol's repeat\n"
		"                     code (NEC) or the whole frame again (default 0)\n"
		"  -t, --toggle       set the toggle bit (RC-5, RC-6 and others that have one)\n"
		"  -f, --format FMT   mode2 (default: 'pulse N'/'space N' lines, preceded by\n"
		"                     'carrier N'), compact ('+N -N', one frame per line),\n"
		"                     binary (LIRC_MODE2 words)\n"
		"  -h, --help         show this help\n"
		"\n"
		"Examples:\n"
		"  irjack encode nec:0x04fb08 --repeats 2\n"
		"  irjack encode -f compact rc5:0x1e01 > power.txt && ir-ctl --send=power.txt\n");
}

/* The codes one after another, after the first one's carrier (except in
 * the binary format, which has no word for it).  Returns 0 or -1. */
static int encode_codes(int argc, char **argv, const struct ir_encode_opts *eopts,
			const char *format, struct ir_edge_buf *edges)
{
	for (int i = 0; i < argc; i++) {
		enum ir_protocol proto;
		uint64_t scancode;
		const struct ir_protocol_info *info;
		int ret;

		if (cli_parse_proto_scancode(argv[i], &proto, &scancode) < 0)
			return -1;
		info = ir_protocol_get(proto);
		if (i == 0 && strcmp(format, "binary") != 0 && info->carrier_hz)
			ir_edge_buf_push(edges, (struct ir_edge){ .duration = info->carrier_hz,
								  .kind = IR_CARRIER,
								  .duty_cycle = info->duty_cycle });
		ret = ir_encode(proto, scancode, eopts, edges);
		if (ret < 0) {
			if (ret == -EOPNOTSUPP)
				cli_error("%s: irjack cannot encode %s", argv[i], info->name);
			else
				cli_error("%s: not a valid %s scancode", argv[i], info->name);
			return -1;
		}
	}
	return 0;
}

int cmd_encode(int argc, char **argv)
{
	static const struct option options[] = {
		{ "repeats", required_argument, NULL, 'n' },
		{ "toggle", no_argument, NULL, 't' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct ir_encode_opts eopts = { 0 };
	const char *format = "mode2";
	struct ir_edge_buf edges = { 0 };
	unsigned long long v;
	int opt, ret = 0;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "n:tf:h", options, NULL)) != -1) {
		switch (opt) {
		case 'n':
			if (cli_parse_uint(optarg, "--repeats", 0, 1000, &v) < 0)
				return EXIT_USAGE;
			eopts.repeats = (unsigned)v;
			break;
		case 't':
			eopts.toggle = 1;
			break;
		case 'f':
			if (strcmp(optarg, "mode2") && strcmp(optarg, "compact") &&
			    strcmp(optarg, "binary")) {
				cli_error("unknown format '%s' (mode2, compact, binary)", optarg);
				return EXIT_USAGE;
			}
			format = optarg;
			break;
		case 'h':
			encode_usage(stdout);
			return 0;
		default:
			encode_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		cli_error("encode: nothing to encode");
		encode_usage(stderr);
		return EXIT_USAGE;
	}
	if (encode_codes(argc - optind, argv + optind, &eopts, format, &edges) < 0) {
		ir_edge_buf_free(&edges);
		return EXIT_USAGE;
	}
	if (strcmp(format, "compact") == 0)
		ret = ir_timing_write_compact(stdout, edges.edges, edges.len);
	else if (strcmp(format, "binary") == 0)
		ret = ir_timing_write_binary(stdout, edges.edges, edges.len);
	else
		ret = ir_timing_write_mode2(stdout, edges.edges, edges.len);
	ir_edge_buf_free(&edges);
	if (ret < 0 || fflush(stdout) != 0) {
		cli_error("write error");
		return EXIT_USAGE;
	}
	return 0;
}
