/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_tx_audio.c - the audio transmitters: the carrier synthesized
 * (dsp/ir_synth.h) and played on an ALSA PCM ("alsa"), or written to a WAV
 * file ("wav").  The PCM is opened for each send, so a send leaves the
 * sound card to other programs between presses.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir_audio_alsa_out.h"
#include "ir_audio_file.h"
#include "ir_synth.h"
#include "ir_tx.h"

#define DEFAULT_RATE 48000u
#define BLOCK_FRAMES 1024

struct audio_tx {
	bool to_file;
	char device[256];
	struct ir_synth_config synth;
	/* the last send's playback, for ir_tx_stats() */
	const char *format;
	size_t period_frames;
	uint64_t frames;
	unsigned underruns;
};

static int audio_open(const char *device, const struct ir_tx_options *opt, bool to_file,
		      void **impl, char *err, size_t err_size)
{
	struct audio_tx *a = calloc(1, sizeof(*a));

	if (!a)
		return -ENOMEM;
	if (to_file && !device[0]) {
		snprintf(err, err_size, "wav: no file name");
		free(a);
		return -EINVAL;
	}
	a->to_file = to_file;
	snprintf(a->device, sizeof(a->device), "%s", device[0] ? device : "default");
	ir_synth_config_default(&a->synth);
	a->synth.sample_rate = opt->rate ? opt->rate : DEFAULT_RATE;
	a->synth.mode = opt->mode;
	a->synth.amplitude = (float)opt->volume;
	a->synth.ramp_us = opt->ramp_us;
	*impl = a;
	return 0;
}

static int alsa_open(const char *device, const struct ir_tx_options *opt, void **impl, char *err,
		     size_t err_size)
{
	return audio_open(device, opt, false, impl, err, err_size);
}

static int wav_open(const char *device, const struct ir_tx_options *opt, void **impl, char *err,
		    size_t err_size)
{
	return audio_open(device, opt, true, impl, err, err_size);
}

static int play_alsa(struct audio_tx *a, struct ir_synth *s, char *err, size_t err_size)
{
	float block[2 * BLOCK_FRAMES];
	struct ir_alsa_out *o;
	size_t n;
	int ret = ir_alsa_out_new(a->device, a->synth.sample_rate, &o);

	if (ret < 0) {
		snprintf(err, err_size, "%s: %s", a->device, strerror(-ret));
		return ret;
	}
	a->frames = 0;
	while ((n = ir_synth_generate(s, block, BLOCK_FRAMES)) > 0) {
		if ((ret = ir_alsa_out_write(o, block, n)) < 0)
			break;
		a->frames += n;
	}
	if (ret >= 0)
		ret = ir_alsa_out_drain(o);
	a->format = ir_alsa_out_format(o);
	a->period_frames = ir_alsa_out_period(o);
	a->underruns = ir_alsa_out_xruns(o);
	ir_alsa_out_free(o);
	if (ret < 0)
		snprintf(err, err_size, "%s: playback failed: %s", a->device, strerror(-ret));
	return ret < 0 ? ret : 0;
}

static int write_wav(struct audio_tx *a, struct ir_synth *s, char *err, size_t err_size)
{
	float block[2 * BLOCK_FRAMES];
	struct ir_audio_writer *w;
	size_t n;
	int ret = ir_audio_writer_open(a->device, a->synth.sample_rate, 2, IR_AUDIO_FLOAT, &w);

	if (ret < 0) {
		snprintf(err, err_size, "%s: %s", a->device, strerror(-ret));
		return ret;
	}
	a->frames = 0;
	while ((n = ir_synth_generate(s, block, BLOCK_FRAMES)) > 0) {
		if ((ret = ir_audio_writer_write(w, block, n)) < 0)
			break;
		a->frames += n;
	}
	if (ir_audio_writer_close(w) < 0 && ret >= 0)
		ret = -EIO;
	if (ret < 0)
		snprintf(err, err_size, "%s: write failed", a->device);
	return ret < 0 ? ret : 0;
}

static int audio_send(void *impl, const struct ir_edge *edges, size_t n,
		      const struct ir_tx_carrier *carrier, char *err, size_t err_size)
{
	struct audio_tx *a = impl;
	struct ir_synth_config cfg = a->synth;
	struct ir_synth *s;
	int ret;

	cfg.carrier_hz = carrier->hz ? carrier->hz : IR_CARRIER_DEFAULT_HZ;
	if (carrier->duty_pct)
		cfg.duty_pct = carrier->duty_pct;
	ret = ir_synth_new(&cfg, edges, n, &s);
	if (ret < 0) {
		snprintf(err, err_size,
			 "cannot make a %.0f Hz carrier in %s mode at %u Hz (try a rate of 96000 "
			 "or another mode)",
			 cfg.carrier_hz, ir_synth_mode_name(ir_synth_resolve_mode(&cfg)),
			 cfg.sample_rate);
		return ret == -ENOMEM ? ret : -EDOM;
	}
	ret = a->to_file ? write_wav(a, s, err, err_size) : play_alsa(a, s, err, err_size);
	ir_synth_free(s);
	return ret;
}

static void audio_stats(void *impl, struct ir_tx_stats *st)
{
	const struct audio_tx *a = impl;

	st->format = a->format;
	st->rate = a->synth.sample_rate;
	st->period_frames = a->period_frames;
	st->frames = a->frames;
	st->underruns = a->underruns;
}

static void audio_close(void *impl)
{
	free(impl);
}

static const struct ir_tx_backend ir_tx_backend_alsa = {
	.name = "alsa",
	.summary = "IR LEDs on a sound card's headphone output: the carrier synthesized and played",
	.open = alsa_open,
	.send = audio_send,
	.stats = audio_stats,
	.close = audio_close,
};

IR_TX_BACKEND_REGISTER(ir_tx_backend_alsa)

static const struct ir_tx_backend ir_tx_backend_wav = {
	.name = "wav",
	.summary = "the headphone audio written to a stereo float WAV file",
	.open = wav_open,
	.send = audio_send,
	.stats = audio_stats,
	.close = audio_close,
};

IR_TX_BACKEND_REGISTER(ir_tx_backend_wav)
