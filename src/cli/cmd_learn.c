/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_learn.c - `irjack learn`: presses of a remote's buttons → rc_keymaps
 * TOML, through src/analysis/ir_learn_remote.h; this file reads the
 * options and prints.
 */
#include <errno.h>
#include <stdbool.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "ir_learn_guide.h"
#include "ir_learn_remote.h"
#include "ir_source.h"

static void learn_usage(FILE *out)
{
	fprintf(out,
		"Usage: irjack learn --input FILE [--keys KEY_A,KEY_B,...] [--presses N]\n"
		"                    [--gap MS] [--name REMOTE] -o REMOTE.toml\n"
		"       irjack learn --device SPEC --keys KEY_A,KEY_B,... [--gap MS]\n"
		"                    [--name REMOTE] -o REMOTE.toml\n"
		"\n"
		"With --device (any live source: alsa:..., portaudio:..., lirc:/dev/lirc0,\n"
		"usb:mceusb, or file:REC to replay one), learning is guided as LIRC's\n"
		"irrecord does it: each key is asked for in turn, what was heard is shown\n"
		"(protocol and code, or the length of unknown timings), and a second press\n"
		"must agree with the first before the next key is asked for.  The two\n"
		"presses of every key are then learned as below.\n"
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
		"The file is then loaded back as `irjack decode --keymap` and irjackd load it\n"
		"and every press decoded again with it: the file is written only when it\n"
		"names every key in one of its presses at least and no press as another\n"
		"key (otherwise nothing is written, the reason is printed, exit status 1).\n"
		"The count of presses it names is printed.\n"
		"\n"
		"Options:\n"
		"  -i, --input FILE   the recording\n"
		"  -d, --device SPEC  learn live from this source, key by key (needs --keys)\n"
		"  -k, --keys LIST    key names, comma-separated, assigned to the presses in\n"
		"                     order, N presses each (default: one key per distinct\n"
		"                     code, named KEY_1, KEY_2, ...)\n"
		"  -n, --presses N    presses per key (default: presses / keys)\n"
		"  -g, --gap MS       silence that separates presses (default 100)\n"
		"  -N, --name REMOTE  the remote's name in the file (default: the output\n"
		"                     file's name without .toml; \"learned\" for stdout)\n"
		"  -o, --output FILE  the TOML file to write (\"-\": stdout)\n"
		"  -h, --help         show this help\n"
		"\n"
		"Progress goes to standard error, the count to standard output.\n"
		"\n"
		"Exit status: 0 when the file names every press, 1 when it names some not\n"
		"(written) or a key not at all (not written), 2 on a usage or input error.\n");
}

/* A remote name the TOML writer can quote as it is (and lircd clients
 * can print): printable, no quote or backslash. */
static bool remote_name_ok(const char *name)
{
	if (!*name)
		return false;
	for (const char *c = name; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f || *c == '"' || *c == '\\')
			return false;
	return true;
}

/* The output file's name less its folder and a .toml suffix, characters
 * a name may not have as '_'; "learned" for standard output. */
static void default_name(const char *output, char *name, size_t size)
{
	const char *base = strrchr(output, '/');
	size_t n;

	base = base ? base + 1 : output;
	n = strlen(base);
	if (n > 5 && !strcmp(base + n - 5, ".toml"))
		n -= 5;
	if (!strcmp(output, "-") || n == 0) {
		snprintf(name, size, "learned");
		return;
	}
	if (n >= size)
		n = size - 1;
	for (size_t i = 0; i < n; i++) {
		char c = base[i];

		name[i] = (unsigned char)c < 0x20 || c == 0x7f || c == '"' || c == '\\' ? '_' : c;
	}
	name[n] = '\0';
}

struct learn_args {
	const char *input, *output, *device;
	char name[128]; /* the remote's */
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
		{ "name", required_argument, NULL, 'N' },
		{ "device", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long long v;
	int opt;

	a->opt.gap_us = 100000;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "i:d:k:n:g:o:N:h", options, NULL)) != -1) {
		switch (opt) {
		case 'i':
			a->input = optarg;
			break;
		case 'd':
			a->device = optarg;
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
		case 'N':
			if (!remote_name_ok(optarg) || strlen(optarg) >= sizeof(a->name)) {
				cli_error("--name: '%s': up to %zu printable characters, no quotes "
					  "or backslashes", optarg, sizeof(a->name) - 1);
				return -1;
			}
			snprintf(a->name, sizeof(a->name), "%s", optarg);
			break;
		case 'h':
			learn_usage(stdout);
			return 1;
		default:
			learn_usage(stderr);
			return -1;
		}
	}
	if (optind != argc || !a->input == !a->device || !a->output) {
		cli_error("learn: need --input FILE or --device SPEC, and -o OUTPUT");
		learn_usage(stderr);
		return -1;
	}
	if (a->device && (!a->keylist || a->opt.per_key)) {
		cli_error("learn: --device asks for the keys of --keys, twice each (no --presses)");
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
	if (!a->name[0])
		default_name(a->output, a->name, sizeof(a->name));
	return 0;
}

static void print_learned(const struct ir_learn_result *res)
{
	const char *method = ir_learn_method_name(res);
	const struct ir_learn_pd *pd = &res->pd;

	fprintf(stderr, "learn: %zu presses, %zu keys x %zu: %s\n", res->presses, res->key_count,
		res->per_key, method);
	if (res->method == IR_LEARN_PULSE_DISTANCE)
		fprintf(stderr,
			"learned pulse_distance: header %" PRIu32 "/%" PRIu32 ", bit pulse %" PRIu32
			", spaces %" PRIu32 "/%" PRIu32 ", trailer %" PRIu32 ", %u bits\n",
			pd->header_pulse, pd->header_space, pd->bit_pulse, pd->bit_0_space,
			pd->bit_1_space, pd->trailer_pulse, pd->bits);
	for (size_t k = 0; k < res->key_count; k++) {
		if (res->method == IR_LEARN_RAW)
			fprintf(stderr, "%s: raw, %zu durations\n", res->keys[k].name,
				res->keys[k].raw.len);
		else
			fprintf(stderr, "%s: %s 0x%" PRIx64 "\n", res->keys[k].name,
				res->method == IR_LEARN_PROTOCOL
					? ir_protocol_get(res->keys[k].protocol)->name : method,
				res->keys[k].scancode);
	}
}

/* Learns from the presses in `in` and writes the checked file; returns the
 * exit status. */
static int learn(struct learn_args *a, struct ir_learn_input *in, struct ir_learn_result *res)
{
	const char *source = a->input ? a->input : a->device;
	struct ir_learn_check check;
	char err[512];
	int ret;

	ret = ir_learn_remote(in, &a->opt, res, err, sizeof(err));
	if (ret < 0) {
		cli_error("%s: %s", source, err);
		return ret == -ENODATA ? EXIT_NOTHING : EXIT_USAGE;
	}
	print_learned(res);
	fprintf(stderr, "learn: checking the file: loading it, decoding every press with it\n");
	ret = ir_learn_save(in, res, a->name, a->output, &check, err, sizeof(err));
	if (ret == -EINVAL) {
		cli_error("%s: not written: %s", a->output, err);
		printf("%s: %zu/%zu presses re-decode (%s, %zu keys)\n", source, check.presses_ok,
		       check.presses, ir_learn_method_name(res), res->key_count);
		return EXIT_NOTHING;
	}
	if (ret < 0) {
		cli_error("%s", err);
		return EXIT_USAGE;
	}
	if (check.presses_ok < check.presses)
		fprintf(stderr, "learn: %s\n", check.warning);
	if (strcmp(a->output, "-") != 0)
		fprintf(stderr, "learn: wrote %s (remote \"%s\")\n", a->output, a->name);
	printf("%s: %zu/%zu presses re-decode (%s, %zu keys)\n", source, check.presses_ok,
	       check.presses, ir_learn_method_name(res), res->key_count);
	return check.presses_ok == check.presses ? 0 : EXIT_NOTHING;
}

static int learn_recording(struct learn_args *a, struct ir_learn_input *in,
			   struct ir_learn_result *res)
{
	char err[512];

	fprintf(stderr, "learn: reading %s\n", a->input);
	if (ir_learn_read(a->input, in, err, sizeof(err)) < 0) {
		cli_error("%s", err);
		return EXIT_USAGE;
	}
	return learn(a, in, res);
}

/* ---- guided, live ---- */

struct live {
	struct ir_learn_guide *guide;
	int channel;  /* the input channel the first pulse came on; -1 before */
	int error;    /* a negative errno from the guide, 0 */
	bool done;
};

static void live_frame(void *userdata, const struct ir_frame *frame)
{
	(void)userdata;
	(void)frame; /* the guide decodes each press itself */
}

static void live_edge(void *userdata, unsigned channel, const struct ir_edge *edge)
{
	struct live *l = userdata;
	struct ir_learn_heard h;
	int step;

	if (l->done || l->error)
		return;
	if (l->channel < 0 && edge->kind == IR_PULSE)
		l->channel = (int)channel;
	if (l->channel >= 0 && (int)channel != l->channel)
		return;
	step = ir_learn_guide_edge(l->guide, edge, &h);
	if (step == -E2BIG) {
		fprintf(stderr, "learn: more than 4096 durations in one press: light, not a remote?\n");
		return;
	}
	if (step < 0)
		l->error = step;
	else if (step == IR_LEARN_STEP_HEARD)
		fprintf(stderr, "learn: %s: heard %s; press %s again\n", h.key, h.what, h.key);
	else if (step == IR_LEARN_STEP_MISMATCH)
		fprintf(stderr, "learn: %s: heard %s, but first %s; press %s again\n", h.key,
			h.what, h.before, h.key);
	else if (step == IR_LEARN_STEP_CONFIRMED || step == IR_LEARN_STEP_DONE)
		fprintf(stderr, "learn: %s: %s, confirmed\n", h.key, h.what);
	if (step == IR_LEARN_STEP_CONFIRMED)
		fprintf(stderr, "learn: press %s\n", h.next_key);
	l->done = step == IR_LEARN_STEP_DONE;
}

/* Polls and dispatches `src` until the guide is done, the source ends or
 * fails.  Returns 0 when done, -1 otherwise (reported). */
static int run_guide(struct ir_source *src, struct live *l)
{
	char err[256];

	while (!l->done && !l->error) {
		struct pollfd pfd = { .fd = ir_source_fd(src), .events = POLLIN };
		int ret;

		if (pfd.fd >= 0 && poll(&pfd, 1, 1000) < 0 && errno != EINTR) {
			cli_error("poll: %s", strerror(errno));
			return -1;
		}
		if (pfd.fd < 0)
			usleep(5000);
		if (pfd.fd >= 0 && !(pfd.revents & POLLIN))
			continue;
		ret = ir_source_dispatch(src, err, sizeof(err));
		if (ret == -ENODATA && !l->done) {
			cli_error("learn: the source ended before %s was learned",
				  ir_learn_guide_key(l->guide));
			return -1;
		}
		if (ret < 0 && ret != -ENODATA) {
			cli_error("%s", err);
			return -1;
		}
	}
	if (l->error)
		cli_error("learn: %s", strerror(-l->error));
	return l->error ? -1 : 0;
}

static int learn_live(struct learn_args *a, struct ir_learn_input *in,
		      struct ir_learn_result *res)
{
	struct live l = { .channel = -1 };
	struct ir_source_callbacks cb = { .frame = live_frame, .edge = live_edge, .userdata = &l };
	struct ir_source_options sopt;
	struct ir_source *src = NULL;
	char spec[512], err[256];
	int status = EXIT_USAGE;

	if (cli_source_spec(a->device, NULL, spec, sizeof(spec)) < 0)
		return EXIT_USAGE;
	if (ir_learn_guide_new(a->keys, a->opt.key_count, a->opt.gap_us, &l.guide) < 0) {
		cli_error("%s", strerror(ENOMEM));
		return EXIT_USAGE;
	}
	ir_source_options_init(&sopt);
	if (ir_source_open(spec, &sopt, &cb, &src, err, sizeof(err)) < 0) {
		cli_error("%s", err);
		goto out;
	}
	fprintf(stderr, "learn: listening on %s; press %s\n", spec, ir_learn_guide_key(l.guide));
	status = EXIT_NOTHING;
	if (run_guide(src, &l) == 0) {
		ir_source_free(src);
		src = NULL;
		a->opt.per_key = 2;
		if (ir_learn_guide_input(l.guide, in) < 0)
			cli_error("%s", strerror(ENOMEM));
		else
			status = learn(a, in, res);
	}
out:
	ir_source_free(src);
	ir_learn_guide_free(l.guide);
	return status;
}

int cmd_learn(int argc, char **argv)
{
	struct learn_args a = { 0 };
	struct ir_learn_input *in = calloc(1, sizeof(*in));
	struct ir_learn_result *res = calloc(1, sizeof(*res));
	int status = EXIT_USAGE, ret;

	if (!in || !res)
		goto out;
	ret = parse_learn_args(argc, argv, &a);
	if (ret != 0)
		status = ret > 0 ? 0 : EXIT_USAGE;
	else if (a.device)
		status = learn_live(&a, in, res);
	else
		status = learn_recording(&a, in, res);
	ir_learn_result_free(res);
	ir_learn_input_free(in);
out:
	free(in);
	free(res);
	free(a.keylist);
	return status;
}
