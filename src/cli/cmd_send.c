/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_send.c - `irjack send`: transmit codes or timings as IR carrier audio
 * on a sound card's headphone output (ALSA) or into a WAV file, or through
 * the kernel's LIRC device (/dev/lircN) as timings or as scancodes.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ir_keymap.h"
#include "ir_keymap_file.h"
#include "ir_protocol.h"
#include "ir_timing_io.h"
#include "ir_tx.h"

static void send_usage(FILE *out)
{
	fprintf(out,
		"Usage: irjack send [OPTIONS] PROTOCOL:SCANCODE...\n"
		"       irjack send [OPTIONS] --raw FILE.mode2\n"
		"       irjack send [OPTIONS] --keymap FILE|DIR [REMOTE] KEY\n"
		"\n"
		"Transmit remote-control codes through IR LEDs on a sound card's\n"
		"headphone output, or write the audio to a WAV file.\n"
		"\n"
		"Wiring (LIRC's audio transmitter): two IR LEDs anti-parallel between the\n"
		"Left and Right tips, through ~68 ohm.  In half-carrier-stereo mode Left\n"
		"plays a sine at half the carrier and Right its inverse; each LED lights\n"
		"on one half-wave, so the light pulses at the full carrier (38 kHz from\n"
		"a 19 kHz tone), which a 44.1/48 kHz card can play.\n"
		"\n"
		"Options:\n"
		"  -d, --device PCM        ALSA playback PCM (default: \"default\"), or\n"
		"                          lirc:/dev/lircN (or /dev/lircN): the kernel's\n"
		"                          LIRC transmitter\n"
		"  -o, --output FILE       write a stereo float WAV instead of playing\n"
		"  -r, --rate HZ           sample rate (default 48000; 8000..768000)\n"
		"      --mode MODE         half-carrier-stereo (default below 96 kHz),\n"
		"                          full-carrier (one LED, default at >= 96 kHz),\n"
		"                          subharmonic (carrier/3 sine; the LED's\n"
		"                          nonlinearity makes the carrier; much weaker)\n"
		"      --carrier HZ        carrier (default: the protocol's, else 38000)\n"
		"      --duty PERCENT      full-carrier duty cycle (default: the\n"
		"                          protocol's, else 33)\n"
		"      --volume PERCENT    amplitude, percent of full scale (default 80)\n"
		"      --ramp-us US        raised-cosine rise and fall of each burst\n"
		"  -n, --repeats N         repeats per code (held key)\n"
		"      --raw FILE          send timings from a mode2 / ir-ctl file\n"
		"  -k, --keymap FILE|DIR   send a button of an rc_keymaps TOML file or a\n"
		"                          lircd.conf remote: KEY (the first remote that\n"
		"                          has it) or REMOTE KEY; carrier and duty cycle\n"
		"                          from the remote (lircd.conf frequency,\n"
		"                          duty_cycle) unless --carrier/--duty say\n"
		"      --scancode-mode     LIRC only: hand the scancode to the kernel's\n"
		"                          encoder (LIRC_MODE_SCANCODE) instead of timings\n"
		"      --transmitters LIST LIRC only: the outputs to use, 1-based (\"1,2\")\n"
		"  -v, --verbose           after playing: the PCM's format, period,\n"
		"                          frames played, wall time, underruns\n"
		"  -h, --help              show this help\n"
		"\n"
		"Exit status: 0 sent; 1 bad arguments; 2 the device or file failed.\n"
		"\n"
		"Examples:\n"
		"  irjack send nec:0x04fb08\n"
		"  irjack send --rate 192000 --mode full-carrier rc5:0x1e0c -d hw:1\n"
		"  irjack send nec:0x04fb -o nec-tx.wav\n"
		"  irjack send --keymap /usr/share/lirc/remotes/mceusb/lircd.conf.mceusb \\\n"
		"      mceusb Play\n"
		"  irjack send --device lirc:/dev/lirc0 --transmitters 1 rc5:0x1e0c\n");
}

enum {
	OPT_MODE = 256, OPT_CARRIER, OPT_DUTY, OPT_VOLUME, OPT_RAMP, OPT_RAW, OPT_SCANCODE_MODE,
	OPT_TRANSMITTERS,
};

/* What the options say. */
struct send_args {
	const char *device, *output, *raw, *keymap;
	unsigned long long rate, repeats, carrier, duty, volume, ramp;
	enum ir_synth_mode mode;
	bool scancode_mode, verbose;
	uint32_t emitters; /* --transmitters */
};

/* "1,2" → 0x3 */
static int parse_transmitters(const char *list, uint32_t *mask)
{
	char *end;

	*mask = 0;
	do {
		unsigned long n = strtoul(list, &end, 10);

		if (end == list || n < 1 || n > 32) {
			cli_error("--transmitters: expected 1-based numbers 1..32 separated by commas");
			return -1;
		}
		*mask |= UINT32_C(1) << (n - 1);
		list = end + 1;
	} while (*end == ',');
	if (*end) {
		cli_error("--transmitters: expected 1-based numbers 1..32 separated by commas");
		return -1;
	}
	return 0;
}

/* One option into `a`: 0, or -1 for a bad value (reported). */
static int send_option(int c, const char *arg, struct send_args *a)
{
	switch (c) {
	case 'd': a->device = arg; return 0;
	case 'o': a->output = arg; return 0;
	case 'r': return cli_parse_uint(arg, "--rate", 8000, 768000, &a->rate);
	case 'n': return cli_parse_uint(arg, "--repeats", 0, 1000, &a->repeats);
	case OPT_CARRIER: return cli_parse_uint(arg, "--carrier", 10000, 500000, &a->carrier);
	case OPT_DUTY: return cli_parse_uint(arg, "--duty", 1, 99, &a->duty);
	case OPT_VOLUME: return cli_parse_uint(arg, "--volume", 0, 100, &a->volume);
	case OPT_RAMP: return cli_parse_uint(arg, "--ramp-us", 0, 1000, &a->ramp);
	case OPT_RAW: a->raw = arg; return 0;
	case 'k': a->keymap = arg; return 0;
	case OPT_SCANCODE_MODE: a->scancode_mode = true; return 0;
	case OPT_TRANSMITTERS: return parse_transmitters(arg, &a->emitters);
	case 'v': a->verbose = true; return 0;
	case OPT_MODE:
		if (ir_synth_mode_from_name(arg, &a->mode) == 0)
			return 0;
		cli_error("unknown --mode '%s' (half-carrier-stereo, full-carrier, subharmonic)", arg);
		return -1;
	}
	return -1;
}

/* Parses the options; returns 0, 1 after --help, or -1 (reported). */
static int parse_send_args(int argc, char **argv, struct send_args *a)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "output", required_argument, NULL, 'o' },
		{ "rate", required_argument, NULL, 'r' },
		{ "repeats", required_argument, NULL, 'n' },
		{ "mode", required_argument, NULL, OPT_MODE },
		{ "carrier", required_argument, NULL, OPT_CARRIER },
		{ "duty", required_argument, NULL, OPT_DUTY },
		{ "volume", required_argument, NULL, OPT_VOLUME },
		{ "ramp-us", required_argument, NULL, OPT_RAMP },
		{ "raw", required_argument, NULL, OPT_RAW },
		{ "keymap", required_argument, NULL, 'k' },
		{ "scancode-mode", no_argument, NULL, OPT_SCANCODE_MODE },
		{ "transmitters", required_argument, NULL, OPT_TRANSMITTERS },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	*a = (struct send_args){ .device = "default", .rate = 48000, .volume = 80,
				 .mode = IR_SYNTH_AUTO };
	optind = 1;
	while ((c = getopt_long(argc, argv, "d:o:r:n:k:vh", opts, NULL)) != -1) {
		if (c == 'h') {
			send_usage(stdout);
			return 1;
		}
		if (c == '?' || c == ':') {
			send_usage(stderr);
			return -1;
		}
		if (send_option(c, optarg, a) < 0)
			return -1;
	}
	return 0;
}

/* The options that go together; reports the first that does not. */
static int check_send_args(const struct send_args *a, bool lirc, int nargs)
{
	const char *why = NULL;

	if (!a->raw && nargs == 0)
		why = "nothing to send: give PROTOCOL:SCANCODE, --raw FILE or --keymap FILE KEY";
	else if (a->keymap && a->raw)
		why = "--raw and --keymap: give one of them";
	else if (a->keymap && (nargs < 1 || nargs > 2))
		why = "--keymap takes KEY or REMOTE KEY";
	else if ((a->scancode_mode || a->emitters) && !lirc)
		why = "--scancode-mode and --transmitters need --device lirc:/dev/lircN";
	else if (a->scancode_mode && a->keymap)
		why = "--scancode-mode sends PROTOCOL:SCANCODE arguments, not --keymap buttons";
	else if (a->scancode_mode && a->raw)
		why = "--scancode-mode sends scancodes, not --raw timings";
	if (why)
		cli_error("%s", why);
	return why ? -1 : 0;
}

/* A button of a keymap: REMOTE KEY, or KEY of the first remote that has
 * it.  Returns 0 or prints why not and returns -1. */
static int encode_keymap_button(const char *path, int argc, char **argv, unsigned repeats,
				struct ir_edge_buf *out, struct ir_tx_carrier *carrier)
{
	struct ir_keymap *km = NULL;
	const char *remote, *key = argv[argc - 1];
	int err, ret = -1;

	if (cli_load_keymap(path, &km) < 0)
		goto out;
	remote = argc == 2 ? argv[0] : ir_keymap_remote_of_key(km, key);
	if (!remote) {
		cli_error("%s: no remote has a key '%s'", path, key);
		goto out;
	}
	err = ir_tx_encode_key(km, remote, key, repeats, out, carrier);
	if (err < 0) {
		cli_error("%s: %s %s: %s", path, remote, key,
			  err == -ENOENT ? "no such remote or key"
			  : err == -EINVAL ? "this button has no timings to send"
					   : strerror(-err));
		goto out;
	}
	ret = 0;
out:
	ir_keymap_free(km);
	return ret;
}

/* The timings to send and the carrier they are meant for, from a keymap
 * button, a timing file or PROTOCOL:SCANCODE arguments.  Returns 0 or -1
 * (reported). */
static int send_timings(const struct send_args *a, int argc, char **argv,
			struct ir_edge_buf *edges, struct ir_tx_carrier *carrier)
{
	if (a->keymap)
		return encode_keymap_button(a->keymap, argc, argv, (unsigned)a->repeats, edges,
					    carrier);
	if (a->raw) {
		struct ir_parse_error perr;
		int err = ir_timing_read_file(a->raw, IR_FORMAT_AUTO, NULL, edges, NULL, &perr);

		if (err < 0) {
			cli_error("%s: %s", a->raw, strerror(-err));
			return -1;
		}
	}
	for (int i = 0; i < argc; i++) {
		enum ir_protocol p;
		uint64_t sc;
		int err;

		if (cli_parse_proto_scancode(argv[i], &p, &sc) < 0)
			return -1;
		err = ir_tx_encode_scancode(p, sc, (unsigned)a->repeats, edges, carrier);
		if (err < 0) {
			cli_error("%s: %s", argv[i],
				  err == -EOPNOTSUPP ? "this protocol has no encoder" : strerror(-err));
			return -1;
		}
	}
	return 0;
}

/* The kernel encodes each PROTOCOL:SCANCODE argument itself. */
static int send_scancodes(struct ir_tx *tx, const struct send_args *a, int argc, char **argv,
			  const struct ir_tx_carrier *carrier)
{
	char err[512];

	for (int i = 0; i < argc; i++) {
		enum ir_protocol p;
		uint64_t sc;

		if (cli_parse_proto_scancode(argv[i], &p, &sc) < 0)
			return 2;
		if (ir_tx_send_scancode(tx, p, sc, (unsigned)a->repeats, carrier, err,
					sizeof(err)) < 0) {
			cli_error("%s", err);
			return 2;
		}
	}
	return 0;
}

/* What a test of the real device's timing compares: the audio's length
 * against the wall time up to the end of the drain. */
static void print_playback(const struct ir_tx *tx, const char *device)
{
	struct ir_tx_stats st;

	ir_tx_stats(tx, &st);
	if (!st.format)
		return;
	fprintf(stderr,
		"%s: %u Hz %s, period %zu frames (%.1f ms); played %llu frames (%.1f ms) in %.1f ms; "
		"%u underruns\n",
		device, st.rate, st.format, st.period_frames,
		1e3 * (double)st.period_frames / (double)st.rate, (unsigned long long)st.frames,
		1e3 * (double)st.frames / (double)st.rate, (double)st.wall_us / 1e3, st.underruns);
}

static void warn_cli(void *userdata, const char *message)
{
	(void)userdata;
	cli_error("warning: %s", message);
}

/* Opens the transmitter and sends; returns the exit status. */
static int transmit(const struct send_args *a, const char *spec, int argc, char **argv,
		    const struct ir_edge_buf *edges, const struct ir_tx_carrier *carrier)
{
	struct ir_tx_options opt;
	struct ir_tx *tx;
	char err[512];
	int ret;

	ir_tx_options_init(&opt);
	opt.rate = (unsigned)a->rate;
	opt.mode = a->mode;
	opt.volume = (double)a->volume / 100.0;
	opt.ramp_us = (double)a->ramp;
	opt.emitters = a->emitters;
	opt.warn = warn_cli;
	ret = ir_tx_open(spec, &opt, &tx, err, sizeof(err));
	if (ret < 0) {
		cli_error("%s", err);
		return ret == -EPROTONOSUPPORT ? 1 : 2;
	}
	if (a->scancode_mode) {
		ret = send_scancodes(tx, a, argc, argv, carrier);
	} else {
		ret = ir_tx_send(tx, edges->edges, edges->len, carrier, err, sizeof(err));
		if (ret < 0)
			cli_error("%s", err);
		else if (a->verbose)
			print_playback(tx, a->device);
		ret = ret == -EDOM ? 1 : ret < 0 ? 2 : 0;
	}
	ir_tx_close(tx);
	return ret;
}

int cmd_send(int argc, char **argv)
{
	struct send_args a;
	struct ir_edge_buf edges = { 0 };
	struct ir_tx_carrier carrier = { 0 };
	char spec[512];
	bool lirc;
	int ret;

	ret = parse_send_args(argc, argv, &a);
	if (ret != 0)
		return ret > 0 ? 0 : 1;
	if (a.output)
		snprintf(spec, sizeof(spec), "wav:%s", a.output);
	else
		snprintf(spec, sizeof(spec), "%s", a.device);
	lirc = strcmp(ir_tx_spec_backend(spec), "lirc") == 0;
	if (check_send_args(&a, lirc, argc - optind) < 0)
		return 1;
	if (!a.scancode_mode &&
	    (send_timings(&a, argc - optind, argv + optind, &edges, &carrier) < 0 ||
	     cli_check_signal_length(a.raw ? a.raw : "send", &edges) < 0)) {
		ir_edge_buf_free(&edges);
		return 1;
	}
	if (a.carrier) {
		carrier.hz = (uint32_t)a.carrier;
		carrier.hz_required = true;
	}
	if (a.duty) {
		carrier.duty_pct = (unsigned)a.duty;
		carrier.duty_required = true;
	}
	ret = transmit(&a, spec, argc - optind, argv + optind, &edges, &carrier);
	ir_edge_buf_free(&edges);
	return ret;
}
