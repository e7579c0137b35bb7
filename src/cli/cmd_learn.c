/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_learn.c - `irjack learn`: presses of a remote's buttons → rc_keymaps
 * TOML.  Known protocols first, then inferred pulse_distance parameters,
 * then raw timings; every press is re-decoded with the result before the
 * file is written.
 *
 * The re-decode uses ir_learn_pd_decode() / the built-in decoders / a raw
 * comparison because the TOML loader and generic decoders live in other
 * branches; once merged, load the written file with ir_keymap_load() and
 * attach it with ir_keymap_attach() instead (verify_* below).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ir_audio_file.h"
#include "ir_decoder.h"
#include "ir_keymap_write.h"
#include "ir_learn.h"
#include "ir_receiver.h"
#include "ir_timing_io.h"

#define MAX_PRESSES 512
#define MAX_FRAMES 256

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

struct capture {
	struct ir_edge_buf edges[IR_RECEIVER_MAX_CHANNELS];
	struct ir_frame frames[MAX_FRAMES];
	size_t nframes;
	int oom;
};

static void keep_edge(void *userdata, unsigned channel, const struct ir_edge *edge)
{
	struct capture *cap = userdata;

	if (ir_edge_buf_push(&cap->edges[channel], *edge) < 0)
		cap->oom = 1;
}

static void keep_frame(void *userdata, const struct ir_frame *frame)
{
	struct capture *cap = userdata;

	if (cap->nframes < MAX_FRAMES && !(frame->flags & IR_FRAME_REPEAT))
		cap->frames[cap->nframes++] = *frame;
}

/* Reads audio or timings into cap->edges[0] and decodes them with the
 * default protocols into cap->frames.  Returns 0 or an exit status. */
static int read_input(const char *path, struct capture *cap)
{
	struct ir_audio_file *f = NULL;
	char error[256];

	if (ir_audio_file_open(path, &f, error, sizeof(error)) == 0) {
		struct ir_audio_info info;
		struct ir_receiver_config cfg = { .channel = IR_RECEIVER_CHANNEL_AUTO };
		struct ir_receiver *rx = NULL;
		float *buf;
		long got;

		ir_audio_file_info(f, &info);
		if (info.channels > IR_RECEIVER_MAX_CHANNELS) {
			ir_audio_file_close(f);
			cli_error("%s: has %u channels", path, info.channels);
			return EXIT_USAGE;
		}
		cfg.sample_rate = info.sample_rate;
		cfg.channels = info.channels;
		if (info.channels == 1)
			cfg.channel = 0;
		buf = malloc(4096 * sizeof(float) * info.channels);
		if (!buf || ir_receiver_new(&cfg, keep_frame, cap, &rx) < 0) {
			free(buf);
			ir_audio_file_close(f);
			cli_error("%s: cannot demodulate audio at %u Hz", path, info.sample_rate);
			return EXIT_USAGE;
		}
		ir_receiver_set_edge_fn(rx, keep_edge, cap);
		while ((got = ir_audio_file_read(f, buf, 4096)) > 0)
			ir_receiver_process(rx, buf, (size_t)got);
		ir_receiver_flush(rx);
		/* Keep the channel with the most edges in slot 0. */
		for (unsigned c = 1; c < info.channels; c++) {
			if (cap->edges[c].len > cap->edges[0].len) {
				struct ir_edge_buf t = cap->edges[0];

				cap->edges[0] = cap->edges[c];
				cap->edges[c] = t;
			}
		}
		ir_receiver_free(rx);
		ir_audio_file_close(f);
		free(buf);
		if (got < 0 || cap->oom) {
			cli_error("%s: %s", path, cap->oom ? "out of memory" : "read error");
			return EXIT_USAGE;
		}
		return 0;
	}

	struct ir_parse_error perr = { 0 };
	struct ir_protocol_set set;
	struct ir_decoder *dec = NULL;
	int ret = ir_timing_read_file(path, IR_FORMAT_AUTO, NULL, &cap->edges[0], NULL, &perr);

	if (ret < 0) {
		cli_error("%s: not audio (%s) nor timings (%s)", path, error, strerror(-ret));
		return EXIT_USAGE;
	}
	ir_protocol_set_default(&set);
	if (ir_decoder_new(&set, keep_frame, cap, &dec) < 0)
		return EXIT_USAGE;
	ir_decoder_feed_many(dec, cap->edges[0].edges, cap->edges[0].len);
	ir_decoder_flush(dec);
	ir_decoder_free(dec);
	return 0;
}

struct press {
	size_t start, len;      /* the first frame's edges */
	uint64_t t0, t1;        /* the press's span in µs */
	const struct ir_frame *frame; /* the first decoded frame in it, or NULL */
	uint64_t code;
	int ok;
};

static const char *const default_keys[] = {
	"KEY_1", "KEY_2", "KEY_3", "KEY_4", "KEY_5", "KEY_6", "KEY_7", "KEY_8", "KEY_9",
	"KEY_0", "KEY_A", "KEY_B", "KEY_C", "KEY_D", "KEY_E", "KEY_F", "KEY_G", "KEY_H",
	"KEY_I", "KEY_J", "KEY_K", "KEY_L", "KEY_M", "KEY_N", "KEY_O", "KEY_P", "KEY_Q",
	"KEY_R", "KEY_S", "KEY_T", "KEY_U", "KEY_V", "KEY_W", "KEY_X", "KEY_Y", "KEY_Z",
};
#define NDEFAULT (sizeof(default_keys) / sizeof(default_keys[0]))

/* Raw verification: every edge within 25 % (+100 µs) of the learned one. */
static int raw_matches(const struct ir_edge *a, size_t na, const struct ir_edge *b, size_t nb)
{
	if (na != nb)
		return 0;
	for (size_t i = 0; i < na; i++) {
		uint32_t x = a[i].duration, y = b[i].duration;
		uint32_t d = x > y ? x - y : y - x;

		if (a[i].kind != b[i].kind || d > y / 4 + 100)
			return 0;
	}
	return 1;
}

int cmd_learn(int argc, char **argv)
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
	const char *input = NULL, *output = NULL;
	char *keylist = NULL;
	const char *keys[NDEFAULT * 4];
	size_t nkeys = 0, per_key = 0, npress, nok = 0;
	unsigned long long v;
	uint32_t gap_us = 100000;
	struct capture *cap = NULL;
	struct press *presses = NULL;
	struct ir_learn_press *split = NULL;
	struct ir_keymap_write_key wkeys[NDEFAULT * 4];
	struct ir_edge_buf avg[NDEFAULT * 4];
	const char *method;
	int opt, status = EXIT_USAGE;

	memset(avg, 0, sizeof(avg));
	optind = 1;
	while ((opt = getopt_long(argc, argv, "i:k:n:g:o:h", options, NULL)) != -1) {
		switch (opt) {
		case 'i':
			input = optarg;
			break;
		case 'k':
			free(keylist);
			keylist = strdup(optarg);
			break;
		case 'n':
			if (cli_parse_uint(optarg, "--presses", 1, 1000, &v) < 0)
				goto out;
			per_key = (size_t)v;
			break;
		case 'g':
			if (cli_parse_uint(optarg, "--gap", 5, 10000, &v) < 0)
				goto out;
			gap_us = (uint32_t)v * 1000;
			break;
		case 'o':
			output = optarg;
			break;
		case 'h':
			learn_usage(stdout);
			status = 0;
			goto out;
		default:
			learn_usage(stderr);
			goto out;
		}
	}
	if (optind != argc || !input || !output) {
		cli_error("learn: need --input FILE and -o OUTPUT");
		learn_usage(stderr);
		goto out;
	}
	if (keylist) {
		for (char *save = NULL, *t = strtok_r(keylist, ",", &save); t;
		     t = strtok_r(NULL, ",", &save)) {
			if (nkeys == sizeof(keys) / sizeof(keys[0])) {
				cli_error("learn: too many keys");
				goto out;
			}
			keys[nkeys++] = t;
		}
	}

	cap = calloc(1, sizeof(*cap));
	split = calloc(MAX_PRESSES, sizeof(*split));
	presses = calloc(MAX_PRESSES, sizeof(*presses));
	if (!cap || !split || !presses)
		goto out;
	status = read_input(input, cap);
	if (status)
		goto out;
	status = EXIT_USAGE;

	const struct ir_edge *e = cap->edges[0].edges;

	npress = ir_learn_split(e, cap->edges[0].len, gap_us, split, MAX_PRESSES);
	if (npress > MAX_PRESSES) {
		cli_error("%s: more than %d presses", input, MAX_PRESSES);
		goto out;
	}
	if (npress == 0) {
		cli_error("%s: no IR found", input);
		status = EXIT_NOTHING;
		goto out;
	}
	/* Times of presses, and each press's first frame (to the first space
	 * ≥ 10 ms: the gap between a frame and its repeats). */
	{
		uint64_t t = 0;
		size_t p = 0;

		for (size_t i = 0; i < cap->edges[0].len && p < npress; i++) {
			if (i == split[p].start)
				presses[p].t0 = t;
			if (ir_edge_is_timing(&e[i]))
				t += e[i].duration;
			if (i + 1 == split[p].start + split[p].len)
				presses[p++].t1 = t;
		}
		for (p = 0; p < npress; p++) {
			size_t len = 0;

			while (len < split[p].len && !(e[split[p].start + len].kind == IR_SPACE &&
						       e[split[p].start + len].duration >= 10000))
				len++;
			presses[p].start = split[p].start;
			presses[p].len = len;
			for (size_t f = 0; f < cap->nframes && !presses[p].frame; f++)
				if (cap->frames[f].start_us + 2000 >= presses[p].t0 &&
				    cap->frames[f].start_us <= presses[p].t1)
					presses[p].frame = &cap->frames[f];
		}
	}
	if (nkeys) {
		if (!per_key)
			per_key = npress / nkeys;
		if (per_key == 0 || per_key * nkeys != npress) {
			cli_error("%s: %zu presses found, %zu keys x %zu presses expected", input,
				  npress, nkeys, per_key);
			goto out;
		}
	} else {
		per_key = per_key ? per_key : 1;
		if (npress % per_key) {
			cli_error("%s: %zu presses is not a multiple of %zu", input, npress, per_key);
			goto out;
		}
		nkeys = npress / per_key;
		if (nkeys > NDEFAULT) {
			cli_error("%s: %zu keys: name them with --keys", input, nkeys);
			goto out;
		}
		for (size_t k = 0; k < nkeys; k++)
			keys[k] = default_keys[k];
	}

	FILE *out = NULL;
	size_t all_known = 1;
	struct ir_learn_pd pd;
	struct ir_learn_manchester man;
	int mret = -EINVAL;

	for (size_t p = 0; p < npress; p++)
		if (!presses[p].frame || presses[p].frame->protocol != presses[p - p % per_key].frame->protocol)
			all_known = 0;
	if (all_known) {
		/* (a) A known protocol: every press decoded, one protocol. */
		method = ir_protocol_get(presses[0].frame->protocol)->name;
		for (size_t p = 0; p < npress; p++) {
			const struct ir_frame *f0 = presses[p - p % per_key].frame;

			presses[p].code = presses[p].frame->scancode;
			presses[p].ok = presses[p].frame->protocol == f0->protocol &&
					presses[p].frame->scancode == f0->scancode;
		}
	} else {
		const struct ir_edge **caps = calloc(npress, sizeof(*caps));
		size_t *lens = calloc(npress, sizeof(*lens));
		int ret = -ENOMEM;

		if (caps && lens) {
			for (size_t p = 0; p < npress; p++) {
				caps[p] = e + presses[p].start;
				lens[p] = presses[p].len;
			}
			ret = ir_learn_pulse_distance(caps, lens, npress, &pd);
		}
		free(caps);
		free(lens);
		if (ret == -ENOMEM)
			goto out;
		if (ret != 0 || pd.bits > 64) {
			const struct ir_edge **c2 = calloc(npress, sizeof(*c2));
			size_t *l2 = calloc(npress, sizeof(*l2));

			mret = -ENOMEM;
			if (c2 && l2) {
				for (size_t p = 0; p < npress; p++) {
					c2[p] = e + presses[p].start;
					l2[p] = presses[p].len;
				}
				mret = ir_learn_manchester(c2, l2, npress, &man);
			}
			free(c2);
			free(l2);
		}
		if (mret == 0 && man.bits <= 64) {
			/* (b') inferred bi-phase */
			uint8_t bits[IR_LEARN_MAX_BITS];

			method = "manchester";
			for (size_t p = 0; p < npress; p++) {
				int nb = ir_learn_manchester_decode(&man, e + presses[p].start,
								    presses[p].len, bits, sizeof(bits));

				presses[p].code = 0;
				for (int b = 0; b < nb; b++)
					presses[p].code = presses[p].code << 1 | bits[b];
				presses[p].ok = nb == (int)man.bits;
			}
			for (size_t p = 0; p < npress; p++)
				if (presses[p].code != presses[p - p % per_key].code)
					presses[p].ok = 0;
		} else if (ret == 0 && pd.bits <= 64) {
			/* (b) inferred pulse_distance */
			uint8_t bits[IR_LEARN_MAX_BITS];

			method = "pulse_distance";
			for (size_t p = 0; p < npress; p++) {
				int nb = ir_learn_pd_decode(&pd, e + presses[p].start, presses[p].len,
							    bits, sizeof(bits));

				presses[p].code = 0;
				for (int b = 0; b < nb; b++)
					presses[p].code = presses[p].code << 1 | bits[b];
				presses[p].ok = nb == (int)pd.bits;
			}
			for (size_t p = 0; p < npress; p++)
				if (presses[p].code != presses[p - p % per_key].code)
					presses[p].ok = 0;
		} else {
			/* (c) raw, averaged over the key's presses of the same length */
			method = "raw";
			for (size_t k = 0; k < nkeys; k++) {
				const struct press *p0 = &presses[k * per_key];

				for (size_t i = 0; i < p0->len; i++) {
					uint64_t sum = 0;
					unsigned cnt = 0;

					for (size_t j = 0; j < per_key; j++) {
						const struct press *pj = &presses[k * per_key + j];

						if (pj->len == p0->len) {
							sum += e[pj->start + i].duration;
							cnt++;
						}
					}
					struct ir_edge a = e[p0->start + i];

					a.duration = (uint32_t)(sum / cnt);
					if (ir_edge_buf_push(&avg[k], a) < 0)
						goto out;
				}
			}
			for (size_t p = 0; p < npress; p++)
				presses[p].ok = raw_matches(e + presses[p].start, presses[p].len,
							    avg[p / per_key].edges, avg[p / per_key].len);
		}
	}
	for (size_t p = 0; p < npress; p++)
		nok += presses[p].ok != 0;
	for (size_t k = 0; k < nkeys; k++)
		wkeys[k] = (struct ir_keymap_write_key){
			.keycode = keys[k],
			.scancode = presses[k * per_key].code,
			.raw = avg[k].edges,
			.raw_len = avg[k].len,
		};

	out = strcmp(output, "-") == 0 ? stdout : fopen(output, "w");
	if (!out) {
		cli_error("%s: %s", output, strerror(errno));
		goto out;
	}
	int wret;

	if (strcmp(method, "pulse_distance") == 0) {
		wret = ir_keymap_write_pulse_distance(out, "learned", &pd, wkeys, nkeys);
	} else if (strcmp(method, "manchester") == 0) {
		wret = ir_keymap_write_manchester(out, "learned", &man, wkeys, nkeys);
	} else if (strcmp(method, "raw") == 0) {
		wret = ir_keymap_write_raw(out, "learned", wkeys, nkeys);
	} else {
		fprintf(out, "[[protocols]]\nname = \"learned\"\nprotocol = \"%s\"\n"
			"[protocols.scancodes]\n", method);
		for (size_t k = 0; k < nkeys; k++)
			fprintf(out, "0x%" PRIx64 " = \"%s\"\n", wkeys[k].scancode, keys[k]);
		wret = ferror(out) ? -EIO : 0;
	}
	if (out != stdout && fclose(out) != 0)
		wret = -EIO;
	if (wret < 0) {
		cli_error("%s: write error", output);
		goto out;
	}
	if (strcmp(method, "pulse_distance") == 0)
		fprintf(stderr,
			"learned pulse_distance: header %" PRIu32 "/%" PRIu32 ", bit pulse %" PRIu32
			", spaces %" PRIu32 "/%" PRIu32 ", trailer %" PRIu32 ", %u bits\n",
			pd.header_pulse, pd.header_space, pd.bit_pulse, pd.bit_0_space,
			pd.bit_1_space, pd.trailer_pulse, pd.bits);
	for (size_t k = 0; k < nkeys; k++)
		fprintf(stderr, "%s: %s 0x%" PRIx64 "%s\n", keys[k], method, wkeys[k].scancode,
			strcmp(method, "raw") == 0 ? " (raw)" : "");
	printf("%s: %zu/%zu presses re-decode (%s, %zu keys)\n", input, nok, npress, method,
	       nkeys);
	status = nok == npress ? 0 : EXIT_NOTHING;
out:
	for (size_t k = 0; k < sizeof(avg) / sizeof(avg[0]); k++)
		ir_edge_buf_free(&avg[k]);
	if (cap)
		for (unsigned c = 0; c < IR_RECEIVER_MAX_CHANNELS; c++)
			ir_edge_buf_free(&cap->edges[c]);
	free(cap);
	free(split);
	free(presses);
	free(keylist);
	return status;
}
