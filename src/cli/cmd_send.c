/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_send.c - `irjack send`: transmit codes or timings as IR carrier audio
 * on a sound card's headphone output (ALSA) or into a WAV file, or through
 * the kernel's LIRC device (/dev/lircN) as timings or as scancodes.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "ir_audio_alsa_out.h"
#include "ir_audio_file.h"
#include "ir_keymap.h"
#include "ir_keymap_file.h"
#ifdef IRJACK_HAVE_LIRC_DEV
#include "ir_lirc_tx.h"
#endif
#include "ir_protocol.h"
#include "ir_synth.h"
#include "ir_timing_io.h"

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
		"  irjack send --keymap /usr/share/lirc/remotes/mceusb/lircd.conf.mceusb mceusb Play\n"
		"  irjack send --device lirc:/dev/lirc0 --transmitters 1 rc5:0x1e0c\n");
}

enum {
	OPT_MODE = 256, OPT_CARRIER, OPT_DUTY, OPT_VOLUME, OPT_RAMP, OPT_RAW, OPT_SCANCODE_MODE,
	OPT_TRANSMITTERS,
};

/* "lirc:PATH" or a bare /dev/lircN names the kernel's LIRC device. */
static const char *lirc_path(const char *device)
{
	if (strncmp(device, "lirc:", 5) == 0)
		return device + 5;
	if (strncmp(device, "/dev/lirc", 9) == 0)
		return device;
	return NULL;
}

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

struct lirc_send {
	const char *path;
	bool scancode_mode;
	bool have_mask;
	uint32_t mask;
	uint32_t carrier, duty;       /* 0 = the protocol's */
	bool carrier_given, duty_given;
	unsigned repeats;
};

#ifdef IRJACK_HAVE_LIRC_DEV
/* Sends through /dev/lircN: the timings in `edges`, or (scancode mode) the
 * codes in argv again, encoded by the kernel.  Returns the exit status. */
static int send_lirc(const struct lirc_send *ls, const struct ir_edge_buf *edges, int argc,
		     char **argv)
{
	struct ir_lirc_tx *tx;
	unsigned count;
	int err = ir_lirc_tx_open(ls->path, &tx);

	if (err < 0) {
		cli_error("%s: %s", ls->path,
			  err == -EOPNOTSUPP ? "this LIRC device cannot transmit" :
			  err == -ENOTTY ? "not a LIRC device" : strerror(-err));
		return 2;
	}
	if (ls->have_mask && (err = ir_lirc_tx_set_transmitters(tx, ls->mask, &count)) < 0) {
		if (err == -EINVAL && count)
			cli_error("%s: --transmitters: the device has %u", ls->path, count);
		else
			cli_error("%s: --transmitters: %s", ls->path,
				  err == -EOPNOTSUPP ? "the device has one fixed output" : strerror(-err));
		goto fail;
	}
	/* A default the device cannot take is fine; one the user asked for
	 * is an error. */
	err = ls->carrier ? ir_lirc_tx_set_carrier(tx, ls->carrier) : 0;
	if (err < 0 && (ls->carrier_given || err != -EOPNOTSUPP)) {
		cli_error("%s: carrier %u Hz: %s", ls->path, ls->carrier,
			  err == -EOPNOTSUPP ? "the device's carrier is fixed" : strerror(-err));
		goto fail;
	}
	err = ls->duty ? ir_lirc_tx_set_duty_cycle(tx, ls->duty) : 0;
	if (err < 0 && (ls->duty_given || err != -EOPNOTSUPP)) {
		cli_error("%s: duty cycle %u%%: %s", ls->path, ls->duty,
			  err == -EOPNOTSUPP ? "the device's duty cycle is fixed" : strerror(-err));
		goto fail;
	}
	if (!ls->scancode_mode) {
		err = ir_lirc_tx_send_edges(tx, edges->edges, edges->len);
		if (err < 0) {
			cli_error("%s: %s", ls->path,
				  err == -ERANGE ? "a pulse is longer than the kernel sends (500 ms)"
						 : strerror(-err));
			goto fail;
		}
	}
	for (int i = 0; ls->scancode_mode && i < argc; i++) {
		enum ir_protocol p;
		uint64_t sc;

		if (cli_parse_proto_scancode(argv[i], &p, &sc) < 0)
			goto fail;
		err = ir_lirc_tx_send_scancode(tx, p, sc, ls->repeats);
		if (err < 0) {
			cli_error("%s: %s: %s", ls->path, argv[i],
				  err == -EPROTONOSUPPORT ? "the kernel has no such protocol" :
				  err == -EINVAL ? "the kernel refused it (encoder module not loaded, or a "
						   "scancode the protocol cannot carry)" : strerror(-err));
			goto fail;
		}
	}
	ir_lirc_tx_free(tx);
	return 0;
fail:
	ir_lirc_tx_free(tx);
	return 2;
}
#endif

/* A button of a keymap: REMOTE KEY, or KEY of the first remote that has
 * it.  Returns 0 or prints why not and returns -1. */
static int encode_keymap_button(const char *path, int argc, char **argv, unsigned repeats,
				struct ir_edge_buf *out, uint32_t *hz, unsigned *duty)
{
	struct ir_keymap *km;
	struct ir_keymap_error kerr = { 0 };
	const char *remote, *key;
	int err, ret = -1;

	if (argc < 1 || argc > 2) {
		cli_error("--keymap takes KEY or REMOTE KEY");
		return -1;
	}
	if (ir_keymap_new(&km) < 0) {
		cli_error("out of memory");
		return -1;
	}
	err = ir_keymap_load(km, path, &kerr);
	if (err < 0) {
		if (kerr.parse.line)
			cli_error("%s:%u: %s", kerr.file, kerr.parse.line, kerr.parse.message);
		else
			cli_error("%s: %s", path, strerror(-err));
		goto out;
	}
	key = argv[argc - 1];
	remote = argc == 2 ? argv[0] : ir_keymap_remote_of_key(km, key);
	if (!remote) {
		cli_error("%s: no remote has a key '%s'", path, key);
		goto out;
	}
	err = ir_keymap_encode(km, remote, key, repeats, out);
	if (err < 0) {
		cli_error("%s: %s %s: %s", path, remote, key,
			  err == -ENOENT ? "no such remote or key"
			  : err == -EINVAL ? "this button has no timings to send"
					   : strerror(-err));
		goto out;
	}
	ir_keymap_carrier(km, remote, key, hz, duty);
	ret = 0;
out:
	ir_keymap_free(km);
	return ret;
}

int cmd_send(int argc, char **argv)
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
	const char *device = "default", *output = NULL, *raw = NULL, *keymap = NULL;
	unsigned long long rate = 48000, repeats = 0, carrier = 0, duty = 0, volume = 80, ramp = 0;
	struct ir_synth_config cfg;
	struct ir_edge_buf edges = { 0 };
	uint32_t proto_carrier = 0, proto_duty = 0;
	struct lirc_send lirc = { 0 };
	int c, ret = 1, verbose = 0;

	optind = 1;
	ir_synth_config_default(&cfg);
	while ((c = getopt_long(argc, argv, "d:o:r:n:k:vh", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			device = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		case 'r':
			if (cli_parse_uint(optarg, "--rate", 8000, 768000, &rate) < 0)
				return 1;
			break;
		case 'n':
			if (cli_parse_uint(optarg, "--repeats", 0, 1000, &repeats) < 0)
				return 1;
			break;
		case OPT_MODE:
			if (ir_synth_mode_from_name(optarg, &cfg.mode) < 0) {
				cli_error("unknown --mode '%s' (half-carrier-stereo, full-carrier, subharmonic)",
					  optarg);
				return 1;
			}
			break;
		case OPT_CARRIER:
			if (cli_parse_uint(optarg, "--carrier", 10000, 500000, &carrier) < 0)
				return 1;
			break;
		case OPT_DUTY:
			if (cli_parse_uint(optarg, "--duty", 1, 99, &duty) < 0)
				return 1;
			break;
		case OPT_VOLUME:
			if (cli_parse_uint(optarg, "--volume", 0, 100, &volume) < 0)
				return 1;
			break;
		case OPT_RAMP:
			if (cli_parse_uint(optarg, "--ramp-us", 0, 1000, &ramp) < 0)
				return 1;
			break;
		case OPT_RAW:
			raw = optarg;
			break;
		case 'k':
			keymap = optarg;
			break;
		case OPT_SCANCODE_MODE:
			lirc.scancode_mode = true;
			break;
		case OPT_TRANSMITTERS:
			if (parse_transmitters(optarg, &lirc.mask) < 0)
				return 1;
			lirc.have_mask = true;
			break;
		case 'v':
			verbose = 1;
			break;
		case 'h':
			send_usage(stdout);
			return 0;
		default:
			send_usage(stderr);
			return 1;
		}
	}
	if (!raw && optind >= argc) {
		cli_error("nothing to send: give PROTOCOL:SCANCODE, --raw FILE or --keymap FILE KEY");
		return 1;
	}
	if (keymap) {
		unsigned keymap_duty = 0;

		if (raw) {
			cli_error("--raw and --keymap: give one of them");
			return 1;
		}
		if (encode_keymap_button(keymap, argc - optind, argv + optind, (unsigned)repeats,
					 &edges, &proto_carrier, &keymap_duty) < 0)
			goto out;
		proto_duty = keymap_duty;
		optind = argc; /* the arguments were the button */
	}
	lirc.path = output ? NULL : lirc_path(device);
	if ((lirc.scancode_mode || lirc.have_mask) && !lirc.path) {
		cli_error("--scancode-mode and --transmitters need --device lirc:/dev/lircN");
		return 1;
	}
	if (lirc.scancode_mode && keymap) {
		cli_error("--scancode-mode sends PROTOCOL:SCANCODE arguments, not --keymap buttons");
		return 1;
	}
	if (lirc.scancode_mode && raw) {
		cli_error("--scancode-mode sends scancodes, not --raw timings");
		return 1;
	}
#ifndef IRJACK_HAVE_LIRC_DEV
	if (lirc.path) {
		cli_error("%s: LIRC device support is not built in", device);
		return 1;
	}
#endif
	if (raw) {
		struct ir_parse_error perr;
		int err = ir_timing_read_file(raw, IR_FORMAT_AUTO, NULL, &edges, NULL, &perr);

		if (err < 0) {
			cli_error("%s: %s", raw, strerror(-err));
			goto out;
		}
	}
	for (int i = optind; i < argc && !lirc.scancode_mode; i++) {
		enum ir_protocol p;
		uint64_t sc;
		int err;

		if (cli_parse_proto_scancode(argv[i], &p, &sc) < 0)
			goto out;
		err = ir_encode(p, sc, &(struct ir_encode_opts){ .repeats = (unsigned)repeats }, &edges);
		if (err < 0) {
			cli_error("%s: %s", argv[i],
				  err == -EOPNOTSUPP ? "this protocol has no encoder" : strerror(-err));
			goto out;
		}
		const struct ir_protocol_info *info = ir_protocol_get(p);

		if (!proto_carrier) {
			proto_carrier = info->carrier_hz;
			proto_duty = info->duty_cycle;
		}
	}
#ifdef IRJACK_HAVE_LIRC_DEV
	if (lirc.path) {
		lirc.carrier = carrier ? (uint32_t)carrier : proto_carrier ? proto_carrier : 38000;
		lirc.carrier_given = carrier != 0;
		lirc.duty = duty ? (uint32_t)duty : proto_duty;
		lirc.duty_given = duty != 0;
		lirc.repeats = (unsigned)repeats;
		if (lirc.scancode_mode) /* the kernel sets the protocol's carrier itself */
			lirc.carrier = (uint32_t)carrier;
		ret = send_lirc(&lirc, &edges, argc - optind, argv + optind);
		goto out;
	}
#endif
	cfg.sample_rate = (unsigned)rate;
	cfg.carrier_hz = carrier ? (double)carrier : proto_carrier ? proto_carrier : 38000;
	cfg.duty_pct = duty ? (unsigned)duty : proto_duty ? proto_duty : 33;
	cfg.amplitude = (float)volume / 100.0f;
	cfg.ramp_us = (double)ramp;

	struct ir_synth *s;
	int err = ir_synth_new(&cfg, edges.edges, edges.len, &s);

	if (err < 0) {
		cli_error("cannot make a %.0f Hz carrier in %s mode at %llu Hz (try --rate 96000 or --mode)",
			  cfg.carrier_hz, ir_synth_mode_name(ir_synth_resolve_mode(&cfg)), rate);
		goto out;
	}
	float block[2 * 1024];
	size_t n;

	ret = 2;
	if (output) {
		struct ir_audio_writer *w;

		err = ir_audio_writer_open(output, (unsigned)rate, 2, IR_AUDIO_FLOAT, &w);
		if (err < 0) {
			cli_error("%s: %s", output, strerror(-err));
			goto synth_out;
		}
		while ((n = ir_synth_generate(s, block, 1024)) > 0)
			if ((err = ir_audio_writer_write(w, block, n)) < 0)
				break;
		int cerr = ir_audio_writer_close(w);

		if (err < 0 || cerr < 0) {
			cli_error("%s: write failed", output);
			goto synth_out;
		}
	} else {
		struct ir_alsa_out *o;
		struct timespec t0, t1;
		size_t played = 0;

		err = ir_alsa_out_new(device, (unsigned)rate, &o);
		if (err < 0) {
			cli_error("%s: %s", device, strerror(-err));
			goto synth_out;
		}
		clock_gettime(CLOCK_MONOTONIC, &t0);
		while ((n = ir_synth_generate(s, block, 1024)) > 0) {
			if ((err = ir_alsa_out_write(o, block, n)) < 0)
				break;
			played += n;
		}
		if (err >= 0)
			err = ir_alsa_out_drain(o);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		/* What a test of the real device's timing compares: the audio's
		 * length against the wall time up to the end of drain. */
		if (verbose)
			fprintf(stderr, "%s: %llu Hz %s, period %zu frames (%.1f ms); played %zu frames (%.1f ms) in %.1f ms; %u underruns\n",
				device, rate, ir_alsa_out_format(o), ir_alsa_out_period(o),
				1e3 * (double)ir_alsa_out_period(o) / (double)rate, played,
				1e3 * (double)played / (double)rate,
				1e3 * (double)(t1.tv_sec - t0.tv_sec) + 1e-6 * (double)(t1.tv_nsec - t0.tv_nsec),
				ir_alsa_out_xruns(o));
		ir_alsa_out_free(o);
		if (err < 0) {
			cli_error("%s: playback failed: %s", device, strerror(-err));
			goto synth_out;
		}
	}
	ret = 0;
synth_out:
	ir_synth_free(s);
out:
	ir_edge_buf_free(&edges);
	return ret;
}
