/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_listen.c - `irjack listen`: decode a live source and print each
 * frame as it arrives, in `irjack decode`'s format.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "ir_keymap.h"
#include "ir_source.h"
#include "out_lircdev_cuse.h"

static void listen_usage(FILE *out)
{
	fprintf(out,
		"Usage: irjack listen [OPTIONS]\n"
		"\n"
		"Decode a live IR source and print one line per frame as it arrives, in\n"
		"the format of 'irjack decode': time of the frame's first pulse (seconds\n"
		"since listening started), protocol and scancode, and the flags 'toggle'\n"
		"and 'repeat'.  The default source is the sound card input 'alsa:default',\n"
		"where a receiver module or a photodiode is wired to the microphone jack.\n"
		"\n"
		"Sources (--device):\n"
		"  alsa:PCM           an ALSA capture PCM: default, hw:1,0, plughw:1,0, or one\n"
		"                     defined in an ALSA configuration; a bare PCM name (hw:1)\n"
		"                     goes to the --backend\n"
		"  portaudio:DEVICE   a PortAudio input (when built in)\n"
		"  lirc:/dev/lircN    the kernel's IR receiver device (when built in)\n"
		"  file:PATH          a recording replayed as if it were live\n"
		"\n"
		"The sound card is read by a capture thread (real-time priority when the\n"
		"system allows it) into a ring of 500 ms; audio that arrives while the ring\n"
		"is full, or that the card overwrote (an overrun), is reported on standard\n"
		"error and the half-decoded frame is dropped.  A card that disappears (USB\n"
		"unplugged) is reopened when it comes back.\n"
		"\n"
		"Options:\n"
		"  -d, --device SPEC      the source (see above; default alsa:default);\n"
		"      --source SPEC      the same\n"
		"  -b, --backend NAME     alsa (default) or portaudio: what reads a bare PCM\n"
		"                         name given to --device\n"
		"  -r, --rate HZ          sample rate to ask the card for (default 48000;\n"
		"                         the rate it gives is used, see --verbose)\n"
		"      --period-us N      capture period in microseconds (default 4000): the\n"
		"                         delay between a frame's end and its line\n"
		"      --format FMT       ALSA sample format to insist on: S16_LE, S24_LE,\n"
		"                         S24_3LE, S32_LE, FLOAT_LE (default: the best the\n"
		"                         card offers, FLOAT_LE first, S16_LE last)\n"
		"  -c, --channel CH       audio channel: left, right, a number from 1, or\n"
		"                         auto (default: every channel the card has)\n"
		"      --polarity POL     auto (default), high (light raises the signal),\n"
		"                         low (light lowers it, as a receiver module does)\n"
		"      --timeout MS       darkness that ends a frame (default 125)\n"
		"  -p, --protocols LIST   decode these protocols or families, comma\n"
		"                         separated (as 'irjack decode --protocols')\n"
		"  -k, --keymap FILE|DIR  name the buttons (rc_keymaps TOML, lircd.conf, or a\n"
		"                         folder of them); repeatable\n"
		"  -j, --json             one JSON object per line (as 'irjack decode --json')\n"
		"      --lircdev NAME     also serve the source as /dev/NAME, a LIRC character\n"
		"                         device (CUSE: libfuse3 and the cuse module), as the\n"
		"                         kernel's lirc_dev serves a receiver: mode2 reads of\n"
		"                         its pulses, spaces and timeouts (for audio the\n"
		"                         demodulator's), scancode reads of its frames;\n"
		"                         for ir-ctl -r, mode2, lircd while this runs\n"
		"  -t, --duration SEC     stop after SEC seconds of audio (of the card's clock,\n"
		"                         counted in samples; wall-clock time for timing\n"
		"                         sources).  Up to 60 s, the ring holds all of it, so\n"
		"                         a device faster than real time loses nothing\n"
		"  -v, --verbose          say on standard error what was opened (format,\n"
		"                         rate, period, real-time priority) and, at the end,\n"
		"                         the counts of samples, frames, overruns and drops\n"
		"  -h, --help             show this help\n"
		"\n"
		"Stops on Ctrl-C (SIGINT) or SIGTERM, or after --duration.\n"
		"\n"
		"Exit status: 0 if at least one frame was decoded, 1 if none, 2 on error.\n"
		"\n"
		"Examples:\n"
		"  irjack listen\n"
		"  irjack listen -d hw:1,0 --channel right --keymap /lib/udev/rc_keymaps\n"
		"  irjack listen -d plughw:1 --duration 10 --json\n"
		"  irjack listen --lircdev lirc-mic   (then: ir-ctl -r -d /dev/lirc-mic)\n");
}

struct listen_run {
	struct cli_frame_printer print;
	bool verbose;
	struct ir_lircdev_cuse *lircdev; /* --lircdev, or NULL */
	int lircdev_channel;             /* the audio channel it passes on; -1 until a pulse */
};

static void print_frame(void *userdata, const struct ir_frame *frame)
{
	struct listen_run *run = userdata;

	cli_print_frame(&run->print, frame);
	if (run->lircdev) {
		struct ir_key_binding key;
		struct timespec ts;
		int keycode = run->print.keymap && ir_keymap_lookup(run->print.keymap, frame, &key)
				      ? key.keycode
				      : 0;

		clock_gettime(CLOCK_MONOTONIC, &ts); /* lirc_scancode's clock */
		ir_lircdev_frame(ir_lircdev_cuse_device(run->lircdev), frame, keycode,
				 (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec);
	}
	/* Live: the line must appear now, not when a buffer fills. */
	fflush(stdout);
}

/* --lircdev: the edges of one channel (the first with a pulse: in auto
 * mode every channel is demodulated) as the device's mode2. */
static void lircdev_edge(void *userdata, unsigned channel, const struct ir_edge *edge)
{
	struct listen_run *run = userdata;

	if (run->lircdev_channel < 0 && edge->kind == IR_PULSE)
		run->lircdev_channel = (int)channel;
	if (run->lircdev_channel == (int)channel)
		ir_lircdev_edge(ir_lircdev_cuse_device(run->lircdev), edge);
}

static int lircdev_process(void *userdata)
{
	struct listen_run *run = userdata;

	if (ir_lircdev_cuse_process(run->lircdev) < 0) {
		cli_error("%s: the kernel closed the device", ir_lircdev_cuse_path(run->lircdev));
		return -1;
	}
	return 0;
}

static void report_event(void *userdata, enum ir_source_event event, const char *message)
{
	(void)userdata;
	if (event != IR_SOURCE_END)
		cli_error("%s", message);
}

struct listen_args {
	struct listen_run run;
	struct ir_source_options sopt;
	struct cli_live_args live;
	struct ir_protocol_set enabled;
	struct ir_keymap *keymap;
	const char *lircdev; /* --lircdev NAME */
};

/* One option of listen's own: 0, or -1 for a bad value (reported). */
static int listen_option(int opt, const char *arg, struct listen_args *a)
{
	unsigned long long v;
	char bad[64];

	switch (opt) {
	case 'c':
		return cli_parse_channel(arg, &a->sopt.channel);
	case 'P':
		return cli_parse_polarity(arg, &a->sopt.polarity);
	case 'T':
		if (cli_parse_uint(arg, "--timeout", 10, 10000, &v) < 0)
			return -1;
		a->sopt.timeout_us = (uint32_t)v * 1000;
		return 0;
	case 'p':
		if (ir_protocol_set_parse(arg, &a->enabled, bad, sizeof(bad)) == 0)
			return 0;
		cli_error("unknown protocol '%s' (see 'irjack protocols')", bad);
		return -1;
	case 'k':
		return cli_load_keymap(arg, &a->keymap);
	case 'j':
		a->run.print.json = true;
		return 0;
	case 'v':
		a->run.verbose = true;
		return 0;
	case 'L':
		a->lircdev = arg;
		return 0;
	}
	listen_usage(stderr);
	return -1;
}

/* Parses the options; returns 0, 1 after --help, or -1 (reported). */
static int parse_listen_args(int argc, char **argv, struct listen_args *a)
{
	static const struct option options[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "source", required_argument, NULL, 'd' },
		{ "backend", required_argument, NULL, 'b' },
		{ "rate", required_argument, NULL, 'r' },
		{ "period-us", required_argument, NULL, 'U' },
		{ "format", required_argument, NULL, 'F' },
		{ "channel", required_argument, NULL, 'c' },
		{ "polarity", required_argument, NULL, 'P' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "protocols", required_argument, NULL, 'p' },
		{ "keymap", required_argument, NULL, 'k' },
		{ "json", no_argument, NULL, 'j' },
		{ "lircdev", required_argument, NULL, 'L' },
		{ "duration", required_argument, NULL, 't' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "d:b:r:c:p:k:jt:vh", options, NULL)) != -1) {
		int taken = cli_live_option(opt, optarg, &a->live);

		if (taken < 0)
			return -1;
		if (taken)
			continue;
		if (opt == 'h') {
			listen_usage(stdout);
			return 1;
		}
		if (listen_option(opt, optarg, a) < 0)
			return -1;
	}
	if (optind != argc) {
		cli_error("listen: unexpected argument '%s' (the source is given with --device)",
			  argv[optind]);
		return -1;
	}
	return 0;
}

static void print_start(struct ir_source *src)
{
	struct ir_source_stats st;

	ir_source_stats(src, &st);
	fprintf(stderr, "irjack: listening on %s:%s (%s, %u Hz, %u channel%s, period %u frames%s)\n",
		st.backend, st.device, st.format, st.rate, st.channels, st.channels == 1 ? "" : "s",
		st.period_frames, st.realtime ? ", real-time priority" : "");
}

static void print_end(struct ir_source *src)
{
	struct ir_source_stats st;

	ir_source_stats(src, &st);
	fprintf(stderr, "irjack: %llu samples, %llu frames, %llu overruns, %llu samples dropped, "
		"%llu reopens\n",
		(unsigned long long)st.samples, (unsigned long long)st.frames,
		(unsigned long long)st.xruns, (unsigned long long)st.dropped,
		(unsigned long long)st.reopens);
}

/* --lircdev NAME: makes /dev/NAME (before the source opens: its first
 * edges go there too).  Returns 0 or -1 (reported). */
static int listen_lircdev(struct listen_args *a)
{
	struct ir_lircdev_cuse_config cc = {
		.name = a->lircdev,
		/* the decoders' default when --timeout is not given */
		.timeout_us = a->sopt.timeout_us ? a->sopt.timeout_us : 125000,
	};
	char err[256];

	if (ir_lircdev_cuse_new(&cc, &a->run.lircdev, err, sizeof(err)) < 0) {
		cli_error("%s", err);
		return -1;
	}
	a->run.lircdev_channel = -1;
	fprintf(stderr, "irjack: LIRC device %s\n", ir_lircdev_cuse_path(a->run.lircdev));
	return 0;
}

/* Opens the source and prints its frames until the end; the exit status. */
static int listen_source(struct listen_args *a, const char *spec)
{
	struct ir_source_callbacks cb = { print_frame, NULL, report_event, NULL, &a->run };
	struct cli_extra_fd extra = { .process = lircdev_process, .userdata = &a->run };
	struct ir_source *src = NULL;
	char err[256];
	int status = EXIT_USAGE, ret;

	cli_enable_keymap_protocols(a->keymap, &a->enabled);
	a->run.print.keymap = a->keymap;
	a->sopt.protocols = &a->enabled;
	a->sopt.keymap = a->keymap;
	cli_source_duration(&a->sopt, a->live.duration_s);
	if (a->lircdev && listen_lircdev(a) < 0)
		return EXIT_USAGE;
	if (a->lircdev)
		cb.edge = lircdev_edge;
	if (ir_source_open(spec, &a->sopt, &cb, &src, err, sizeof(err)) < 0) {
		cli_error("%s", err);
		ir_lircdev_cuse_free(a->run.lircdev);
		return EXIT_USAGE;
	}
	if (a->run.verbose)
		print_start(src);
	if (a->run.lircdev)
		extra.fd = ir_lircdev_cuse_fd(a->run.lircdev);
	ret = cli_run_source_with(src, a->live.duration_s, a->run.lircdev ? &extra : NULL);
	if (ret == 0)
		status = a->run.print.frames ? 0 : EXIT_NOTHING;
	if (a->run.verbose)
		print_end(src);
	ir_source_free(src);
	ir_lircdev_cuse_free(a->run.lircdev);
	return status;
}

int cmd_listen(int argc, char **argv)
{
	static struct listen_args a;
	char spec[512];
	int ret, status = EXIT_USAGE;

	memset(&a, 0, sizeof(a));
	a.live.sopt = &a.sopt;
	ir_source_options_init(&a.sopt);
	a.sopt.realtime = true;
	ir_protocol_set_default(&a.enabled);
	ret = parse_listen_args(argc, argv, &a);
	if (ret != 0)
		status = ret > 0 ? 0 : EXIT_USAGE;
	else if (cli_source_spec(a.live.device, a.live.backend, spec, sizeof(spec)) == 0)
		status = listen_source(&a, spec);
	ir_keymap_free(a.keymap);
	return status;
}
