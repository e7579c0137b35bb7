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

int cmd_synth(int argc, char **argv)
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
	struct ir_channel_config cfg;
	struct ir_edge_buf edges = { 0 };
	struct ir_encode_opts eopts = { 0 };
	const char *output = NULL, *timings = NULL;
	enum ir_audio_sample_format format = IR_AUDIO_PCM_16;
	unsigned carrier = 0;
	double gap_ms = 200;
	unsigned long long u;
	float *samples = NULL;
	size_t frames;
	struct ir_audio_writer *w = NULL;
	int opt, ret, status = EXIT_USAGE;

	ir_channel_config_default(&cfg);
	cfg.carrier_hz = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "o:r:n:h", options, NULL)) != -1) {
		switch (opt) {
		case 'o':
			output = optarg;
			break;
		case 'r':
			if (cli_parse_uint(optarg, "--rate", 8000, 192000, &u) < 0)
				goto out;
			cfg.sample_rate = (unsigned)u;
			break;
		case 'F':
			if (strcmp(optarg, "tsop") == 0)
				cfg.frontend = IR_FRONTEND_TSOP;
			else if (strcmp(optarg, "photodiode") == 0)
				cfg.frontend = IR_FRONTEND_PHOTODIODE;
			else {
				cli_error("--frontend: '%s' is not tsop or photodiode", optarg);
				goto out;
			}
			break;
		case 'A':
			if (parse_double(optarg, "--ac-tau-ms", 0, 10000, &cfg.ac_tau_ms) < 0)
				goto out;
			break;
		case 'S':
			if (parse_double(optarg, "--snr-db", -20, 200, &cfg.snr_db) < 0)
				goto out;
			break;
		case 'H': {
			char *colon = strchr(optarg, ':');

			cfg.hum_level = 0.2;
			if (colon) {
				*colon = '\0';
				if (parse_double(colon + 1, "--hum level", 0, 100, &cfg.hum_level) < 0)
					goto out;
			}
			if (parse_double(optarg, "--hum", 1, 1000, &cfg.hum_hz) < 0)
				goto out;
			break;
		}
		case 'C':
			if (parse_double(optarg, "--clip", 1, 1000, &cfg.clip_drive) < 0)
				goto out;
			break;
		case 'a':
			if (parse_double(optarg, "--amplitude", 1e-6, 1, &cfg.amplitude) < 0)
				goto out;
			break;
		case 'D':
			if (parse_double(optarg, "--dc-offset", -1, 1, &cfg.dc_offset) < 0)
				goto out;
			break;
		case 'I':
			cfg.invert = true;
			break;
		case 'J':
			if (parse_double(optarg, "--jitter", 0, 10000, &cfg.jitter_us) < 0)
				goto out;
			break;
		case 'T':
			if (parse_double(optarg, "--stretch", -10000, 10000, &cfg.stretch_us) < 0)
				goto out;
			break;
		case 'c':
			if (cli_parse_uint(optarg, "--carrier", 10000, 500000, &u) < 0)
				goto out;
			carrier = (unsigned)u;
			break;
		case 'd':
			if (cli_parse_uint(optarg, "--duty", 1, 99, &u) < 0)
				goto out;
			cfg.duty_cycle = (unsigned)u;
			break;
		case 'n':
			if (cli_parse_uint(optarg, "--repeats", 0, 1000, &u) < 0)
				goto out;
			eopts.repeats = (unsigned)u;
			break;
		case 'g':
			if (parse_double(optarg, "--gap-ms", 0, 60000, &gap_ms) < 0)
				goto out;
			break;
		case 't':
			timings = optarg;
			break;
		case 'f':
			if (strcmp(optarg, "s16") == 0)
				format = IR_AUDIO_PCM_16;
			else if (strcmp(optarg, "s24") == 0)
				format = IR_AUDIO_PCM_24;
			else if (strcmp(optarg, "s32") == 0)
				format = IR_AUDIO_PCM_32;
			else if (strcmp(optarg, "float") == 0)
				format = IR_AUDIO_FLOAT;
			else if (strcmp(optarg, "u8") == 0)
				format = IR_AUDIO_PCM_U8;
			else {
				cli_error("--format: '%s' is not s16, s24, s32, float or u8", optarg);
				goto out;
			}
			break;
		case 's':
			if (cli_parse_uint(optarg, "--seed", 0, UINT64_MAX, &u) < 0)
				goto out;
			cfg.seed = u;
			break;
		case 'h':
			synth_usage(stdout);
			return 0;
		default:
			synth_usage(stderr);
			goto out;
		}
	}
	if (!output) {
		cli_error("synth: no output file (-o)");
		goto out;
	}
	if (timings) {
		struct ir_parse_error perr;

		if (optind < argc) {
			cli_error("synth: give codes or --timings, not both");
			goto out;
		}
		ret = ir_timing_read_file(timings, IR_FORMAT_AUTO, NULL, &edges, NULL, &perr);
		if (ret < 0) {
			cli_error("%s%s%u: %s", timings, perr.line ? ":" : "", perr.line,
				  ret == -EINVAL ? perr.message : strerror(-ret));
			goto out;
		}
	} else if (optind >= argc) {
		cli_error("synth: nothing to send");
		synth_usage(stderr);
		goto out;
	}
	for (int i = optind; i < argc; i++) {
		enum ir_protocol proto;
		uint64_t scancode;

		if (cli_parse_proto_scancode(argv[i], &proto, &scancode) < 0)
			goto out;
		if (!carrier && !cfg.carrier_hz)
			cfg.carrier_hz = ir_protocol_get(proto)->carrier_hz;
		if (i > optind && ir_edge_buf_space(&edges, (uint32_t)(gap_ms * 1000)) < 0)
			goto out;
		eopts.toggle = (unsigned)(i - optind) & 1;
		ret = ir_encode(proto, scancode, &eopts, &edges);
		if (ret < 0) {
			cli_error("%s: not a valid %s scancode", argv[i], ir_protocol_get(proto)->name);
			goto out;
		}
	}
	if (carrier)
		cfg.carrier_hz = carrier;
	if (!cfg.carrier_hz)
		cfg.carrier_hz = 38000;
	ret = ir_channel_render(&cfg, edges.edges, edges.len, &samples, &frames);
	if (ret < 0) {
		cli_error("synth: cannot render: %s", strerror(-ret));
		goto out;
	}
	ret = ir_audio_writer_open(output, cfg.sample_rate, 1, format, &w);
	if (ret == 0)
		ret = ir_audio_writer_write(w, samples, frames);
	if (w && ir_audio_writer_close(w) < 0 && ret == 0)
		ret = -EIO;
	if (ret < 0) {
		cli_error("%s: %s", output, strerror(-ret));
		goto out;
	}
	status = 0;
out:
	free(samples);
	ir_edge_buf_free(&edges);
	return status;
}
