/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "ir_audio_file.h"
#include "ir_util.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sndfile.h>

struct ir_audio_file {
	SNDFILE *snd;
	SF_INFO info;
};

struct ir_audio_writer {
	SNDFILE *snd;
	unsigned channels;
};

int ir_audio_file_open(const char *path, struct ir_audio_file **out, char *error,
		       size_t error_size)
{
	struct ir_audio_file *f;
	FILE *probe;

	if (error && error_size)
		error[0] = '\0';
	/* Tell "cannot open" from "not audio": libsndfile folds both into
	 * one error. */
	probe = fopen(path, "rb");
	if (!probe) {
		int err = errno;

		if (error && error_size)
			snprintf(error, error_size, "%s", strerror(err));
		return -err;
	}
	fclose(probe);

	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->snd = sf_open(path, SFM_READ, &f->info);
	if (!f->snd) {
		if (error && error_size)
			snprintf(error, error_size, "%s", sf_strerror(NULL));
		free(f);
		return -EMEDIUMTYPE;
	}
	/* Integer formats scale to [-1, 1) rather than being normalised by
	 * their peak. */
	sf_command(f->snd, SFC_SET_NORM_FLOAT, NULL, SF_TRUE);
	*out = f;
	return 0;
}

int ir_audio_file_probe(const char *path)
{
	SF_INFO info = { 0 };
	SNDFILE *snd = sf_open(path, SFM_READ, &info);

	if (!snd)
		return 0;
	sf_close(snd);
	return 1;
}

bool ir_audio_file_has_magic(const char *path)
{
	/* the containers libsndfile reads whose first 4 bytes say so */
	static const char magic[][4] = { "RIFF", "RIFX", "RF64", "FORM", "fLaC",
					 "OggS", ".snd", "caff", "wvpk", "riff" };
	char head[4];
	FILE *f = fopen(path, "rb");
	bool found = false;

	if (!f)
		return false;
	if (fread(head, 1, sizeof(head), f) == sizeof(head))
		for (size_t i = 0; i < ARRAY_SIZE(magic) && !found; i++)
			found = memcmp(head, magic[i], sizeof(head)) == 0;
	fclose(f);
	return found;
}

void ir_audio_file_info(const struct ir_audio_file *f, struct ir_audio_info *info)
{
	SF_FORMAT_INFO major = { .format = f->info.format & SF_FORMAT_TYPEMASK };
	SF_FORMAT_INFO sub = { .format = f->info.format & SF_FORMAT_SUBMASK };

	sf_command(NULL, SFC_GET_FORMAT_INFO, &major, sizeof(major));
	sf_command(NULL, SFC_GET_FORMAT_INFO, &sub, sizeof(sub));
	info->sample_rate = (unsigned)f->info.samplerate;
	info->channels = (unsigned)f->info.channels;
	info->frames = f->info.frames > 0 ? (uint64_t)f->info.frames : 0;
	info->format_name = major.name ? major.name : "unknown";
	info->subtype_name = sub.name ? sub.name : "unknown";
}

long ir_audio_file_read(struct ir_audio_file *f, float *buf, size_t frames)
{
	sf_count_t got = sf_readf_float(f->snd, buf, (sf_count_t)frames);

	if (got < 0 || (got == 0 && sf_error(f->snd) != SF_ERR_NO_ERROR))
		return -EIO;
	return (long)got;
}

void ir_audio_file_close(struct ir_audio_file *f)
{
	if (!f)
		return;
	sf_close(f->snd);
	free(f);
}

static int major_format_for(const char *path)
{
	size_t len = strlen(path);

	if (len >= 5 && strcasecmp(path + len - 5, ".flac") == 0)
		return SF_FORMAT_FLAC;
	return SF_FORMAT_WAV;
}

int ir_audio_writer_open(const char *path, unsigned sample_rate, unsigned channels,
			 enum ir_audio_sample_format format, struct ir_audio_writer **out)
{
	static const int subtypes[] = {
		[IR_AUDIO_PCM_16] = SF_FORMAT_PCM_16, [IR_AUDIO_PCM_24] = SF_FORMAT_PCM_24,
		[IR_AUDIO_PCM_32] = SF_FORMAT_PCM_32, [IR_AUDIO_FLOAT] = SF_FORMAT_FLOAT,
		[IR_AUDIO_PCM_U8] = SF_FORMAT_PCM_U8,
	};
	SF_INFO info = { 0 };
	struct ir_audio_writer *w;
	FILE *probe;

	if ((unsigned)format >= ARRAY_SIZE(subtypes) || channels == 0 ||
	    sample_rate == 0)
		return -EINVAL;
	info.samplerate = (int)sample_rate;
	info.channels = (int)channels;
	info.format = major_format_for(path) | subtypes[format];
	if (!sf_format_check(&info))
		return -EINVAL;
	/* Report the OS's reason for an unwritable path. */
	probe = fopen(path, "wb");
	if (!probe)
		return -errno;
	fclose(probe);

	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->snd = sf_open(path, SFM_WRITE, &info);
	if (!w->snd) {
		free(w);
		return -EIO;
	}
	/* Out-of-range floats clip instead of wrapping around. */
	sf_command(w->snd, SFC_SET_CLIPPING, NULL, SF_TRUE);
	/* No PEAK chunk in float files: it holds the time of writing, so the
	 * same signal written twice gave different files. */
	sf_command(w->snd, SFC_SET_ADD_PEAK_CHUNK, NULL, SF_FALSE);
	w->channels = channels;
	*out = w;
	return 0;
}

int ir_audio_writer_write(struct ir_audio_writer *w, const float *buf, size_t frames)
{
	if (sf_writef_float(w->snd, buf, (sf_count_t)frames) != (sf_count_t)frames)
		return -EIO;
	return 0;
}

int ir_audio_writer_close(struct ir_audio_writer *w)
{
	int ret;

	if (!w)
		return 0;
	ret = sf_close(w->snd) == 0 ? 0 : -EIO;
	free(w);
	return ret;
}
