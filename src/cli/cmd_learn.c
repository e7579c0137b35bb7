/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_learn.c - `irjack learn`: presses of a remote's buttons → rc_keymaps
 * TOML, through src/analysis/ir_learn_remote.h; this file reads the
 * options and prints.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ir_learn_remote.h"

static void learn_usage(FILE *out)
{
	fprintf(out,
		"Usage: irjack learn --input FILE [--keys KEY_A,KEY_B,...] [--presses N]\n"
		"                    [--gap MS] -o REMOTE.toml\n"
		"\n"
		"Learns a remote from recorded presses of its buttons and writes an\n"
		"ir-keytable rc_keymaps TOML file.  FILE is audio (WAV, FLAC, ...) from a\n"
		"receiver on a microphone input, or timings (mode2, ir-ctl, ...).\n"
		"\n"
		"The recording is cut into presses at silences of at least --gap ms\n"
		"(default 100); within a press only the first frame is used (the rest are\n"
		"repeats).  Then, in order:\n"
		"  1. a protocol irjack decodes reads every press: its scancodes are used;\n"
		"  2. otherwise the pulse/space durations are clustered into a\n"
		"     pulse_distance protocol (header, one pulse width, two space widths,\n"
		"     trailer) and each press's bits become its scancode (frames of at\n"
		"     most 64 bits); or into a bi-phase (manchester) code of one unit\n"
		"     (header optional; a one is space then pulse)\n"
		"  3. otherwise (or for longer frames) the keys are stored as raw timings,\n"
		"     averaged over a key's presses.\n"
		"Every press is then re-decoded with the learned parameters; the count is\n"
		"printed and the exit status is 1 if any press fails.\n"
		"\n"
		"Options:\n"
		"  -i, --input FILE   the recording\n"
		"  -k, --keys LIST    key names, comma-separated, assigned to the presses in\n"
		"                     order, N presses each (default: one key per distinct\n"
		"                     code, named KEY_1, KEY_2, ...)\n"
		"  -n, --presses N    presses per key (default: presses / keys)\n"
		"  -g, --gap MS       silence that separates presses (default 100)\n"
		"  -o, --output FILE  the TOML file to write (\"-\": stdout)\n"
		"  -h, --help         show this help\n"
		"\n"
		"Exit status: 0 when every press re-decodes, 1 when some do not, 2 on a\n"
		"usage or input error.\n");
}

struct learn_args {
	const char *input, *output;
	char *keylist; /* --keys, split in place into keys[] */
	const char *keys[IR_LEARN_MAX_KEYS];
	struct ir_learn_options opt;
};

/* Parses the options; returns 0, 1 after --help, or -1 (reported). */
static int parse_learn_args(int argc, char **argv, struct learn_args *a)
{
	static const struct option options[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "keys", required_argument, NULL, 'k' },
		{ "presses", required_argument, NULL, 'n' },
		{ "gap", required_argument, NULL, 'g' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long long v;
	int opt;

	a->opt.gap_us = 100000;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "i:k:n:g:o:h", options, NULL)) != -1) {
		switch (opt) {
		case 'i':
			a->input = optarg;
			break;
		case 'k':
			free(a->keylist);
			a->keylist = strdup(optarg);
			break;
		case 'n':
			if (cli_parse_uint(optarg, "--presses", 1, 1000, &v) < 0)
				return -1;
			a->opt.per_key = (size_t)v;
			break;
		case 'g':
			if (cli_parse_uint(optarg, "--gap", 5, 10000, &v) < 0)
				return -1;
			a->opt.gap_us = (uint32_t)v * 1000;
			break;
		case 'o':
			a->output = optarg;
			break;
		case 'h':
			learn_usage(stdout);
			return 1;
		default:
			learn_usage(stderr);
			return -1;
		}
	}
	if (optind != argc || !a->input || !a->output) {
		cli_error("learn: need --input FILE and -o OUTPUT");
		learn_usage(stderr);
		return -1;
	}
	for (char *save = NULL, *t = a->keylist ? strtok_r(a->keylist, ",", &save) : NULL; t;
	     t = strtok_r(NULL, ",", &save)) {
		if (a->opt.key_count == IR_LEARN_MAX_KEYS) {
			cli_error("learn: too many keys");
			return -1;
		}
		a->keys[a->opt.key_count++] = t;
	}
	a->opt.keys = a->keys;
	return 0;
}

static int write_result(const char *output, const struct ir_learn_result *res)
{
	FILE *out = strcmp(output, "-") == 0 ? stdout : fopen(output, "w");
	int ret;

	if (!out) {
		cli_error("%s: %s", output, strerror(errno));
		return -1;
	}
	ret = ir_learn_write_toml(out, "learned", res);
	if (out != stdout && fclose(out) != 0)
		ret = -EIO;
	if (ret < 0) {
		cli_error("%s: write error", output);
		return -1;
	}
	return 0;
}

static void print_result(const char *input, const struct ir_learn_result *res)
{
	const char *method = ir_learn_method_name(res);
	const struct ir_learn_pd *pd = &res->pd;

	if (res->method == IR_LEARN_PULSE_DISTANCE)
		fprintf(stderr,
			"learned pulse_distance: header %" PRIu32 "/%" PRIu32 ", bit pulse %" PRIu32
			", spaces %" PRIu32 "/%" PRIu32 ", trailer %" PRIu32 ", %u bits\n",
			pd->header_pulse, pd->header_space, pd->bit_pulse, pd->bit_0_space,
			pd->bit_1_space, pd->trailer_pulse, pd->bits);
	for (size_t k = 0; k < res->key_count; k++)
		fprintf(stderr, "%s: %s 0x%" PRIx64 "%s\n", res->keys[k].name, method,
			res->keys[k].scancode, res->method == IR_LEARN_RAW ? " (raw)" : "");
	printf("%s: %zu/%zu presses re-decode (%s, %zu keys)\n", input, res->presses_ok,
	       res->presses, method, res->key_count);
}

int cmd_learn(int argc, char **argv)
{
	struct learn_args a = { 0 };
	struct ir_learn_input *in = calloc(1, sizeof(*in));
	struct ir_learn_result *res = calloc(1, sizeof(*res));
	char err[512];
	int status = EXIT_USAGE, ret;

	if (!in || !res)
		goto out;
	ret = parse_learn_args(argc, argv, &a);
	if (ret != 0) {
		status = ret > 0 ? 0 : EXIT_USAGE;
		goto out;
	}
	if (ir_learn_read(a.input, in, err, sizeof(err)) < 0) {
		cli_error("%s", err);
		goto out;
	}
	ret = ir_learn_remote(in, &a.opt, res, err, sizeof(err));
	if (ret < 0) {
		cli_error("%s: %s", a.input, err);
		status = ret == -ENODATA ? EXIT_NOTHING : EXIT_USAGE;
		goto out;
	}
	if (write_result(a.output, res) == 0) {
		print_result(a.input, res);
		status = res->presses_ok == res->presses ? 0 : EXIT_NOTHING;
	}
	ir_learn_result_free(res);
out:
	if (in)
		ir_learn_input_free(in);
	free(in);
	free(res);
	free(a.keylist);
	return status;
}
