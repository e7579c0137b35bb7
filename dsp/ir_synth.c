/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ir_synth.c - carrier synthesis for transmit (see ir_synth.h). */
#include "ir_synth.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct burst {
	uint64_t start; /* first frame of light */
	uint64_t end;   /* one past the last */
};

struct ir_synth {
	struct ir_synth_config cfg;
	enum ir_synth_mode mode;
	struct burst *bursts;
	size_t nbursts;
	uint64_t total;
	uint64_t pos;     /* next frame to generate */
	size_t cur;       /* first burst that ends after pos */
	double tone_hz;   /* what the channel actually plays */
	/* Full carrier: a pulse train of duty d, band-limited to its harmonics
	 * below 0.45 x rate.  A naive square wave at 96 kHz aliases its
	 * harmonics back into the band (a 36 kHz square gave light at 12 kHz,
	 * measured in test_synth). */
	double harm[32];
	unsigned nharm;
	double harm_scale;
	double ramp_frames;
};

void ir_synth_config_default(struct ir_synth_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->sample_rate = 48000;
	cfg->mode = IR_SYNTH_AUTO;
	cfg->carrier_hz = 38000;
	cfg->duty_pct = 33;
	cfg->amplitude = 0.8f;
}

enum ir_synth_mode ir_synth_resolve_mode(const struct ir_synth_config *cfg)
{
	if (cfg->mode != IR_SYNTH_AUTO)
		return cfg->mode;
	return cfg->sample_rate >= 96000 ? IR_SYNTH_FULL_CARRIER : IR_SYNTH_HALF_CARRIER_STEREO;
}

static const char *const mode_names[] = {
	[IR_SYNTH_AUTO] = "auto",
	[IR_SYNTH_HALF_CARRIER_STEREO] = "half-carrier-stereo",
	[IR_SYNTH_FULL_CARRIER] = "full-carrier",
	[IR_SYNTH_SUBHARMONIC] = "subharmonic",
};

int ir_synth_mode_from_name(const char *name, enum ir_synth_mode *out)
{
	for (size_t i = 0; i < sizeof(mode_names) / sizeof(mode_names[0]); i++) {
		if (strcmp(name, mode_names[i]) == 0) {
			*out = (enum ir_synth_mode)i;
			return 0;
		}
	}
	return -EINVAL;
}

const char *ir_synth_mode_name(enum ir_synth_mode mode)
{
	if ((unsigned)mode < sizeof(mode_names) / sizeof(mode_names[0]))
		return mode_names[mode];
	return "?";
}

/* Frame of the boundary at `us` µs: round(us * rate / 1e6) in integers, so
 * the position of every boundary depends only on its cumulative time. */
static uint64_t us_to_frame(uint64_t us, unsigned rate)
{
	return (us * rate + 500000) / 1000000;
}

/* The tone the mode plays for cfg's carrier (k: the subharmonic's
 * divisor): 0 and *tone set, or -EINVAL for a mode or tone the card
 * cannot play. */
static int synth_tone(const struct ir_synth_config *cfg, enum ir_synth_mode mode, unsigned k,
		      double *tone)
{
	switch (mode) {
	case IR_SYNTH_HALF_CARRIER_STEREO:
		*tone = cfg->carrier_hz / 2;
		break;
	case IR_SYNTH_FULL_CARRIER:
		*tone = cfg->carrier_hz;
		break;
	case IR_SYNTH_SUBHARMONIC:
		if (k % 2 == 0 || k > 15)
			return -EINVAL;
		*tone = cfg->carrier_hz / k;
		break;
	default:
		return -EINVAL;
	}
	/* 0.45 x rate: a tone closer to Nyquist is attenuated by the DAC's
	 * anti-imaging filter (its pass band ends near 0.45 fs on common codecs). */
	return *tone >= 0.45 * cfg->sample_rate ? -EINVAL : 0;
}

/* The full carrier's harmonics below 0.45 x rate, scaled to a peak of 1. */
static void synth_harmonics(struct ir_synth *s)
{
	double d = s->cfg.duty_pct / 100.0, peak = 0;

	/* Fourier series of a pulse train without its DC term (the output
	 * is AC coupled): sum sin(pi k d)/k cos(2 pi k t). */
	for (unsigned h = 1; h <= 32 && h * s->tone_hz < 0.45 * s->cfg.sample_rate; h++)
		s->harm[s->nharm++] = sin(M_PI * h * d) / h;
	for (int i = 0; i < 1024; i++) {
		double v = 0;

		for (unsigned h = 0; h < s->nharm; h++)
			v += s->harm[h] * cos(2 * M_PI * (h + 1) * (i + 0.5) / 1024);
		peak = fmax(peak, fabs(v));
	}
	s->harm_scale = peak > 0 ? 1 / peak : 0;
}

/* The bursts (in frames) of the n timings, and the total length. */
static void synth_bursts(struct ir_synth *s, const struct ir_edge *edges, size_t n)
{
	const struct ir_synth_config *cfg = &s->cfg;
	uint64_t t = cfg->lead_us;
	int in_pulse = 0;

	for (size_t i = 0; i < n; i++) {
		const struct ir_edge *e = &edges[i];

		if (e->kind == IR_PULSE) {
			uint64_t a = us_to_frame(t, cfg->sample_rate);
			uint64_t b = us_to_frame(t + e->duration, cfg->sample_rate);

			/* Two pulses in a row are one burst: the carrier stays continuous. */
			if (in_pulse && s->nbursts)
				s->bursts[s->nbursts - 1].end = b;
			else if (b > a)
				s->bursts[s->nbursts++] = (struct burst){ a, b };
			in_pulse = b > a || in_pulse;
			t += e->duration;
		} else if (e->kind == IR_SPACE || e->kind == IR_TIMEOUT) {
			t += e->duration;
			in_pulse = 0;
		}
	}
	t += cfg->trail_us;
	s->total = us_to_frame(t, cfg->sample_rate);
}

int ir_synth_new(const struct ir_synth_config *cfg, const struct ir_edge *edges, size_t n,
		 struct ir_synth **out)
{
	struct ir_synth *s;
	enum ir_synth_mode mode = ir_synth_resolve_mode(cfg);
	double tone;
	unsigned k = cfg->subharmonic ? cfg->subharmonic : 3;

	*out = NULL;
	if (cfg->sample_rate < 8000 || cfg->sample_rate > 768000 || !(cfg->carrier_hz > 0) ||
	    cfg->duty_pct > 99 || !(cfg->amplitude >= 0 && cfg->amplitude <= 1) ||
	    !(cfg->ramp_us >= 0) || cfg->ramp_us > 1e6)
		return -EINVAL;
	if (synth_tone(cfg, mode, k, &tone) < 0)
		return -EINVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->cfg = *cfg;
	if (!s->cfg.duty_pct)
		s->cfg.duty_pct = 33;
	s->cfg.subharmonic = k;
	s->mode = mode;
	s->tone_hz = tone;
	s->ramp_frames = cfg->ramp_us * cfg->sample_rate / 1e6;
	if (mode == IR_SYNTH_FULL_CARRIER)
		synth_harmonics(s);
	s->bursts = calloc(n ? n : 1, sizeof(*s->bursts));
	if (!s->bursts) {
		free(s);
		return -ENOMEM;
	}
	synth_bursts(s, edges, n);
	*out = s;
	return 0;
}

void ir_synth_free(struct ir_synth *s)
{
	if (!s)
		return;
	free(s->bursts);
	free(s);
}

uint64_t ir_synth_total_frames(const struct ir_synth *s)
{
	return s->total;
}

void ir_synth_rewind(struct ir_synth *s)
{
	s->pos = 0;
	s->cur = 0;
}

/* One sample of the Left channel `i` frames into a burst of `len` frames. */
static float burst_sample(const struct ir_synth *s, uint64_t i, uint64_t len)
{
	/* Phase at the sample's centre: the first and last samples of a burst
	 * are then never a zero crossing, so the light starts on the burst's
	 * first sample (measured in test_synth). */
	double cycles = s->tone_hz * ((double)i + 0.5) / s->cfg.sample_rate;
	double frac = cycles - floor(cycles);
	double v;

	switch (s->mode) {
	case IR_SYNTH_FULL_CARRIER:
		/* Centred on the pulse: the pulse train is symmetric about 0. */
		v = 0;
		for (unsigned k = 0; k < s->nharm; k++)
			v += s->harm[k] * cos(2 * M_PI * (k + 1) * (frac - 0.5 * s->cfg.duty_pct / 100.0));
		v *= s->harm_scale;
		break;
	default:
		v = sin(2 * M_PI * frac);
		break;
	}
	if (s->ramp_frames > 0) {
		double d = fmin((double)i + 0.5, (double)len - (double)i - 0.5);

		if (d < s->ramp_frames)
			v *= 0.5 - 0.5 * cos(M_PI * d / s->ramp_frames);
	}
	return (float)(v * s->cfg.amplitude);
}

size_t ir_synth_generate(struct ir_synth *s, float *out, size_t max_frames)
{
	size_t done = 0;

	while (done < max_frames && s->pos < s->total) {
		while (s->cur < s->nbursts && s->bursts[s->cur].end <= s->pos)
			s->cur++;
		const struct burst *b = s->cur < s->nbursts ? &s->bursts[s->cur] : NULL;
		float l = 0;

		if (b && s->pos >= b->start)
			l = burst_sample(s, s->pos - b->start, b->end - b->start);
		out[2 * done] = l;
		/* Anti-parallel LEDs need R = -L; a single LED on L does not care. */
		out[2 * done + 1] = s->mode == IR_SYNTH_HALF_CARRIER_STEREO ? -l : l;
		done++;
		s->pos++;
	}
	return done;
}
