/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_synth.c - `irjack synth`: what a sound card would record from an IR
 * receiver while a remote sends PROTOCOL:SCANCODE (the channel model that
 * the tests and benchmarks use).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ir_audio_file.h"
#include "ir_channel_sim.h"
#include "ir_timing_io.h"
#include "ir_util.h"

static void synth_usage(FILE *out)
{
	fprintf(out,
		"Usage: irjack synth [OPTIONS] PROTOCOL:SCANCODE... -o OUTPUT.wav\n"
		"       irjack synth [OPTIONS] --timings FILE -o OUTPUT.wav\n"
		"\n"
		"Write the audio a sound card's microphone input would record while a\n"
		"remote sends the given codes (or timings), through a model of the\n"
		"receiver and the card: a receiver module (active low) or a bare photodiode\n"
		"(the carrier itself), the card's AC coupling, anti-alias filter, hum,\n"
		"noise and clipping.  'irjack decode' reads it back; so do the tests.\n"
		"\n"
		"Options:\n"
		"  -o, --output FILE       WAV (or .flac) to write\n"
		"  -r, --rate HZ           sample rate (default 48000; 8000..192000)\n"
		"      --frontend KIND     tsop (default: receiver module) or photodiode\n"
		"      --ac-tau-ms MS      AC coupling time constant (default 0: DC coupled)\n"
		"      --snr-db DB         white noise, SNR = 20 log10(step / 2σ) (default none)\n"
		"      --hum HZ[:LEVEL]    mains hum (50 or 60) at LEVEL × the step (default 0.2)\n"
		"      --clip DRIVE        gain before clipping at full scale (e.g. 3)\n"
		"      --amplitude A       step height, full scale = 1 (default 0.5)\n"
		"      --dc-offset V       added DC offset\n"
		"      --invert            receiver wired the other way round\n"
		"      --jitter US         each duration ± uniform jitter\n"
		"      --stretch US        the receiver lengthens pulses by this\n"
		"      --carrier HZ        photodiode carrier (default: the protocol's)\n"
		"      --duty PERCENT      photodiode duty cycle (default 33)\n"
		"  -n, --repeats N         repeats per code (held key)\n"
		"      --gap-ms MS         silence between codes (default 200)\n"
		"      --timings FILE      render timings from a file instead of codes\n"
		"      --format FMT        sample format: s16 (default), s24, s32, float, u8\n"
		"      --seed N            noise and jitter seed (same seed, same file)\n"
		"  -h, --help              show this help\n"
		"\n"
		"Example:\n"
		"  irjack synth nec:0x04fb --rate 44100 --ac-tau-ms 2 --snr-db 12 -o nec.wav\n");
}

static int parse_double(const char *arg, const char *what, double min, double max, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (!*arg || *end || errno || !isfinite(v) || v < min || v > max) {
		cli_error("%s: '%s' is not a number in %g..%g", what, arg, min, max);
		return -1;
	}
	*out = v;
	return 0;
}

struct synth_args {
	struct ir_channel_config cfg;
	struct ir_encode_opts eopts;
	const char *output, *timings;
	enum ir_audio_sample_format format;
	unsigned carrier;
	double gap_ms;
};

static int parse_frontend(const char *arg, enum ir_frontend *out)
{
	if (strcmp(arg, "tsop") == 0)
		*out = IR_FRONTEND_TSOP;
	else if (strcmp(arg, "photodiode") == 0)
		*out = IR_FRONTEND_PHOTODIODE;
	else {
		cli_error("--frontend: '%s' is not tsop or photodiode", arg);
		return -1;
	}
	return 0;
}

static int parse_format(const char *arg, enum ir_audio_sample_format *out)
{
	static const struct {
		const char *name;
		enum ir_audio_sample_format format;
	} formats[] = {
		{ "s16", IR_AUDIO_PCM_16 }, { "s24", IR_AUDIO_PCM_24 }, { "s32", IR_AUDIO_PCM_32 },
		{ "float", IR_AUDIO_FLOAT }, { "u8", IR_AUDIO_PCM_U8 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(formats); i++) {
		if (strcmp(arg, formats[i].name) == 0) {
			*out = formats[i].format;
			return 0;
		}
	}
	cli_error("--format: '%s' is not s16, s24, s32, float or u8", arg);
	return -1;
}

/* --hum HZ[:LEVEL] */
static int parse_hum(char *arg, struct ir_channel_config *cfg)
{
	char *colon = strchr(arg, ':');

	cfg->hum_level = 0.2;
	if (colon) {
		*colon = '\0';
		if (parse_double(colon + 1, "--hum level", 0, 100, &cfg->hum_level) < 0)
			return -1;
	}
	return parse_double(arg, "--hum", 1, 1000, &cfg->hum_hz);
}

/* One option into `a`: 0, or -1 for a bad value (reported). */
static int synth_option(int opt, char *arg, struct synth_args *a)
{
	struct ir_channel_config *cfg = &a->cfg;
	unsigned long long u = 0;
	int ret;

	switch (opt) {
	case 'o': a->output = arg; return 0;
	case 't': a->timings = arg; return 0;
	case 'I': cfg->invert = true; return 0;
	case 'F': return parse_frontend(arg, &cfg->frontend);
	case 'f': return parse_format(arg, &a->format);
	case 'H': return parse_hum(arg, cfg);
	case 'A': return parse_double(arg, "--ac-tau-ms", 0, 10000, &cfg->ac_tau_ms);
	case 'S': return parse_double(arg, "--snr-db", -20, 200, &cfg->snr_db);
	case 'C': return parse_double(arg, "--clip", 1, 1000, &cfg->clip_drive);
	case 'a': return parse_double(arg, "--amplitude", 1e-6, 1, &cfg->amplitude);
	case 'D': return parse_double(arg, "--dc-offset", -1, 1, &cfg->dc_offset);
	case 'J': return parse_double(arg, "--jitter", 0, 10000, &cfg->jitter_us);
	case 'T': return parse_double(arg, "--stretch", -10000, 10000, &cfg->stretch_us);
	case 'g': return parse_double(arg, "--gap-ms", 0, 60000, &a->gap_ms);
	case 'r':
		ret = cli_parse_uint(arg, "--rate", 8000, 192000, &u);
		cfg->sample_rate = (unsigned)u;
		return ret;
	case 'c':
		ret = cli_parse_uint(arg, "--carrier", 10000, 500000, &u);
		a->carrier = (unsigned)u;
		return ret;
	case 'd':
		ret = cli_parse_uint(arg, "--duty", 1, 99, &u);
		cfg->duty_cycle = (unsigned)u;
		return ret;
	case 'n':
		ret = cli_parse_uint(arg, "--repeats", 0, 1000, &u);
		a->eopts.repeats = (unsigned)u;
		return ret;
	case 's':
		ret = cli_parse_uint(arg, "--seed", 0, UINT64_MAX, &u);
		cfg->seed = u;
		return ret;
	}
	return -1;
}

/* Parses the options; returns 0, 1 after --help, or -1 (reported). */
static int parse_synth_args(int argc, char **argv, struct synth_args *a)
{
	static const struct option options[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "rate", required_argument, NULL, 'r' },
		{ "frontend", required_argument, NULL, 'F' },
		{ "ac-tau-ms", required_argument, NULL, 'A' },
		{ "snr-db", required_argument, NULL, 'S' },
		{ "hum", required_argument, NULL, 'H' },
		{ "clip", required_argument, NULL, 'C' },
		{ "amplitude", required_argument, NULL, 'a' },
		{ "dc-offset", required_argument, NULL, 'D' },
		{ "invert", no_argument, NULL, 'I' },
		{ "jitter", required_argument, NULL, 'J' },
		{ "stretch", required_argument, NULL, 'T' },
		{ "carrier", required_argument, NULL, 'c' },
		{ "duty", required_argument, NULL, 'd' },
		{ "repeats", required_argument, NULL, 'n' },
		{ "gap-ms", required_argument, NULL, 'g' },
		{ "timings", required_argument, NULL, 't' },
		{ "format", required_argument, NULL, 'f' },
		{ "seed", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "o:r:n:h", options, NULL)) != -1) {
		if (opt == 'h') {
			synth_usage(stdout);
			return 1;
		}
		if (opt == '?' || opt == ':') {
			synth_usage(stderr);
			return -1;
		}
		if (synth_option(opt, optarg, a) < 0)
			return -1;
	}
	if (!a->output) {
		cli_error("synth: no output file (-o)");
		return -1;
	}
	if (a->timings && optind < argc) {
		cli_error("synth: give codes or --timings, not both");
		return -1;
	}
	if (!a->timings && optind >= argc) {
		cli_error("synth: nothing to send");
		synth_usage(stderr);
		return -1;
	}
	return 0;
}

/* The timings to render: a timing file, or the codes encoded one after
 * another with alternating toggles, --gap-ms apart.  Returns 0 or -1. */
static int synth_edges(struct synth_args *a, int argc, char **argv, struct ir_edge_buf *edges)
{
	if (a->timings) {
		struct ir_parse_error perr;
		int ret = ir_timing_read_file(a->timings, IR_FORMAT_AUTO, NULL, edges, NULL, &perr);

		if (ret < 0) {
			if (ret == -EINVAL && perr.line)
				cli_error("%s:%u: %s", a->timings, perr.line, perr.message);
			else
				cli_error("%s: %s", a->timings,
					  ret == -EINVAL ? perr.message : strerror(-ret));
			return -1;
		}
	}
	for (int i = 0; i < argc; i++) {
		enum ir_protocol proto;
		uint64_t scancode;

		if (cli_parse_proto_scancode(argv[i], &proto, &scancode) < 0)
			return -1;
		if (!a->carrier && !a->cfg.carrier_hz)
			a->cfg.carrier_hz = ir_protocol_get(proto)->carrier_hz;
		if (i > 0 && ir_edge_buf_space(edges, (uint32_t)(a->gap_ms * 1000)) < 0)
			return -1;
		a->eopts.toggle = (unsigned)i & 1;
		if (ir_encode(proto, scancode, &a->eopts, edges) < 0) {
			cli_error("%s: not a valid %s scancode", argv[i], ir_protocol_get(proto)->name);
			return -1;
		}
	}
	return 0;
}

/* Renders the receiver's output and writes it; returns 0 or -1. */
static int render(const struct synth_args *a, const struct ir_edge_buf *edges)
{
	struct ir_audio_writer *w = NULL;
	float *samples = NULL;
	size_t frames;
	int ret = ir_channel_render(&a->cfg, edges->edges, edges->len, &samples, &frames);

	if (ret < 0) {
		cli_error("synth: cannot render: %s", strerror(-ret));
		return -1;
	}
	ret = ir_audio_writer_open(a->output, a->cfg.sample_rate, 1, a->format, &w);
	if (ret == 0)
		ret = ir_audio_writer_write(w, samples, frames);
	if (w && ir_audio_writer_close(w) < 0 && ret == 0)
		ret = -EIO;
	free(samples);
	if (ret < 0) {
		cli_error("%s: %s", a->output, strerror(-ret));
		return -1;
	}
	return 0;
}

int cmd_synth(int argc, char **argv)
{
	struct synth_args a = { .format = IR_AUDIO_PCM_16, .gap_ms = 200 };
	struct ir_edge_buf edges = { 0 };
	int ret, status = EXIT_USAGE;

	ir_channel_config_default(&a.cfg);
	a.cfg.carrier_hz = 0;
	ret = parse_synth_args(argc, argv, &a);
	if (ret != 0)
		return ret > 0 ? 0 : EXIT_USAGE;
	if (synth_edges(&a, argc - optind, argv + optind, &edges) == 0 &&
	    cli_check_signal_length(a.timings ? a.timings : "synth", &edges) == 0) {
		if (a.carrier)
			a.cfg.carrier_hz = a.carrier;
		if (!a.cfg.carrier_hz)
			a.cfg.carrier_hz = IR_CARRIER_DEFAULT_HZ;
		if (render(&a, &edges) == 0)
			status = 0;
	}
	ir_edge_buf_free(&edges);
	return status;
}
