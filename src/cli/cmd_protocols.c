/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_protocols.c - `irjack protocols`: what irjack decodes and encodes.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "ir_frame_format.h"

static void protocols_usage(FILE *out)
{
	fprintf(out,
		"Usage: irjack protocols [--json]\n"
		"\n"
		"List every protocol irjack decodes: its name (rc-core's where the kernel\n"
		"has the protocol; any of these names, or a family name such as 'rc6',\n"
		"works with --protocols), its decoder family, the mask of valid scancodes,\n"
		"the carrier, the time unit, and whether irjack can also transmit it.\n"
		"Protocols with DEFAULT 'no' are only decoded when asked for by name: like\n"
		"rc-core, irjack enables them only for the hardware that uses them (their\n"
		"timings overlap other protocols').\n"
		"\n"
		"Options:\n"
		"  -j, --json   one JSON object per protocol\n"
		"  -h, --help   show this help\n");
}

int cmd_protocols(int argc, char **argv)
{
	static const struct option options[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool json = false;
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "jh", options, NULL)) != -1) {
		switch (opt) {
		case 'j':
			json = true;
			break;
		case 'h':
			protocols_usage(stdout);
			return 0;
		default:
			protocols_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		cli_error("protocols: unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	/* Columns as wide as the longest name in them. */
	int name_w = (int)strlen("PROTOCOL"), family_w = (int)strlen("FAMILY");

	for (size_t i = 0; i < ir_protocol_count(); i++) {
		const struct ir_protocol_info *p = ir_protocol_at(i);

		if ((int)strlen(p->name) > name_w)
			name_w = (int)strlen(p->name);
		if ((int)strlen(p->family) > family_w)
			family_w = (int)strlen(p->family);
	}
	if (!json)
		printf("%-*s %-*s %-13s %7s %5s %-7s %-6s %s\n", name_w, "PROTOCOL", family_w,
		       "FAMILY", "SCANCODE MASK", "CARRIER", "UNIT", "DEFAULT", "ENCODE",
		       "DESCRIPTION");
	for (size_t i = 0; i < ir_protocol_count(); i++) {
		const struct ir_protocol_info *p = ir_protocol_at(i);

		if (json) {
			char buf[512];
			size_t pos = 0;

			printf("{\"name\":");
			ir_json_append_string(buf, sizeof(buf), &pos, p->name);
			printf("%s,\"family\":", buf);
			pos = 0;
			ir_json_append_string(buf, sizeof(buf), &pos, p->family);
			printf("%s,\"scancode_mask\":%" PRIu64 ",\"carrier\":%u,\"unit_us\":%u,"
			       "\"toggle\":%s,\"encode\":%s,\"default\":%s,\"rc_proto\":%d}\n",
			       buf, p->scancode_mask, p->carrier_hz, p->unit_us,
			       p->has_toggle ? "true" : "false", p->has_encoder ? "true" : "false",
			       p->not_default ? "false" : "true", p->id < 32 ? (int)p->id : -1);
		} else {
			char mask[24];

			snprintf(mask, sizeof(mask), "0x%" PRIx64, p->scancode_mask);
			printf("%-*s %-*s %-13s %7u %5u %-7s %-6s %s\n", name_w, p->name, family_w,
			       p->family, mask, p->carrier_hz, p->unit_us,
			       p->not_default ? "no" : "yes", p->has_encoder ? "yes" : "no",
			       p->summary);
		}
	}
	return 0;
}
