/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ir_audio_alsa_out.c - alsa-lib playback sink (see ir_audio_alsa_out.h). */
#include "ir_audio_alsa_out.h"

#include <alsa/asoundlib.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

struct ir_alsa_out {
	snd_pcm_t *pcm;
	int s16;              /* 1: the PCM took S16_LE, convert */
	int16_t *conv;        /* one period of converted samples */
	snd_pcm_uframes_t period;
	unsigned xruns;
};

int ir_alsa_out_new(const char *pcm_name, unsigned rate, struct ir_alsa_out **out)
{
	struct ir_alsa_out *o;
	snd_pcm_hw_params_t *hw;
	unsigned r = rate;
	snd_pcm_uframes_t buffer;
	int err;

	*out = NULL;
	o = calloc(1, sizeof(*o));
	if (!o)
		return -ENOMEM;
	err = snd_pcm_open(&o->pcm, pcm_name, SND_PCM_STREAM_PLAYBACK, 0);
	if (err < 0) {
		free(o);
		return err;
	}
	snd_pcm_hw_params_alloca(&hw);
	if ((err = snd_pcm_hw_params_any(o->pcm, hw)) < 0 ||
	    (err = snd_pcm_hw_params_set_access(o->pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED)) < 0)
		goto fail;
	if (snd_pcm_hw_params_set_format(o->pcm, hw, SND_PCM_FORMAT_FLOAT_LE) < 0) {
		if ((err = snd_pcm_hw_params_set_format(o->pcm, hw, SND_PCM_FORMAT_S16_LE)) < 0)
			goto fail;
		o->s16 = 1;
	}
	if ((err = snd_pcm_hw_params_set_channels(o->pcm, hw, 2)) < 0)
		goto fail;
	/* Exactly the rate: a resampler would move the carrier. */
	if ((err = snd_pcm_hw_params_set_rate_resample(o->pcm, hw, 0)) < 0 ||
	    (err = snd_pcm_hw_params_set_rate_near(o->pcm, hw, &r, NULL)) < 0)
		goto fail;
	if (r != rate) {
		err = -EINVAL;
		goto fail;
	}
	/* ~10 ms periods, 4 of them: short enough that drain ends close to the
	 * light, long enough to ride out scheduling jitter. */
	o->period = rate / 100;
	buffer = o->period * 4;
	if ((err = snd_pcm_hw_params_set_period_size_near(o->pcm, hw, &o->period, NULL)) < 0 ||
	    (err = snd_pcm_hw_params_set_buffer_size_near(o->pcm, hw, &buffer)) < 0 ||
	    (err = snd_pcm_hw_params(o->pcm, hw)) < 0)
		goto fail;
	snd_pcm_hw_params_get_period_size(hw, &o->period, NULL);
	if (o->s16) {
		o->conv = malloc(o->period * 2 * sizeof(int16_t));
		if (!o->conv) {
			err = -ENOMEM;
			goto fail;
		}
	}
	*out = o;
	return 0;
fail:
	snd_pcm_close(o->pcm);
	free(o);
	return err;
}

static int write_chunk(struct ir_alsa_out *o, const void *buf, size_t frames, size_t bytes_per_frame)
{
	const char *p = buf;

	while (frames > 0) {
		snd_pcm_sframes_t n = snd_pcm_writei(o->pcm, p, frames);

		if (n == -EAGAIN)
			continue;
		if (n < 0) {
			if (n == -EPIPE || n == -ESTRPIPE)
				o->xruns++;
			int err = snd_pcm_recover(o->pcm, (int)n, 1);

			if (err < 0)
				return err;
			continue;
		}
		p += (size_t)n * bytes_per_frame;
		frames -= (size_t)n;
	}
	return 0;
}

int ir_alsa_out_write(struct ir_alsa_out *o, const float *stereo, size_t frames)
{
	while (frames > 0) {
		size_t n = frames < o->period ? frames : o->period;
		int err;

		if (o->s16) {
			for (size_t i = 0; i < 2 * n; i++) {
				float v = fmaxf(-1.0f, fminf(1.0f, stereo[i]));

				o->conv[i] = (int16_t)lrintf(v * 32767.0f);
			}
			err = write_chunk(o, o->conv, n, 2 * sizeof(int16_t));
		} else {
			err = write_chunk(o, stereo, n, 2 * sizeof(float));
		}
		if (err < 0)
			return err;
		stereo += 2 * n;
		frames -= n;
	}
	return 0;
}

int ir_alsa_out_drain(struct ir_alsa_out *o)
{
	int err = snd_pcm_drain(o->pcm);

	return err < 0 ? err : 0;
}

size_t ir_alsa_out_period(const struct ir_alsa_out *o)
{
	return o->period;
}

const char *ir_alsa_out_format(const struct ir_alsa_out *o)
{
	return o->s16 ? "S16_LE" : "FLOAT_LE";
}

unsigned ir_alsa_out_xruns(const struct ir_alsa_out *o)
{
	return o->xruns;
}

void ir_alsa_out_free(struct ir_alsa_out *o)
{
	if (!o)
		return;
	snd_pcm_close(o->pcm);
	free(o->conv);
	free(o);
}
