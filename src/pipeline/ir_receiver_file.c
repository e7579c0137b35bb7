/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_receiver_file.c - a recording through the receiver, as a sound card's
 * samples would go (shared by `irjack decode` and irjackd's file sources).
 */
#include "ir_receiver.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir_audio_file.h"

#define BLOCK_FRAMES 4096

int ir_receiver_run_file(const char *path, const struct ir_receiver_config *cfg,
			 ir_frame_fn frame_fn, void *userdata, char *error, size_t error_size)
{
	struct ir_receiver_config rcfg = *cfg;
	struct ir_audio_file *f;
	struct ir_audio_info info;
	struct ir_receiver *rx;
	float *buf;
	long got;
	int ret;

	ret = ir_audio_file_open(path, &f, error, error_size);
	if (ret < 0)
		return ret;
	ir_audio_file_info(f, &info);
	if (info.channels > IR_RECEIVER_MAX_CHANNELS) {
		snprintf(error, error_size, "%u channels; at most %d are supported", info.channels,
			 IR_RECEIVER_MAX_CHANNELS);
		ir_audio_file_close(f);
		return -EINVAL;
	}
	if (cfg->channel >= 0 && (unsigned)cfg->channel >= info.channels) {
		snprintf(error, error_size, "has %u channel%s, no channel %d", info.channels,
			 info.channels == 1 ? "" : "s", cfg->channel + 1);
		ir_audio_file_close(f);
		return -EINVAL;
	}
	rcfg.sample_rate = info.sample_rate;
	rcfg.channels = info.channels;
	if (info.channels == 1)
		rcfg.channel = 0;
	ret = ir_receiver_new(&rcfg, frame_fn, userdata, &rx);
	if (ret < 0) {
		snprintf(error, error_size, "cannot decode audio at %u Hz: %s", info.sample_rate,
			 strerror(-ret));
		ir_audio_file_close(f);
		return ret;
	}
	buf = malloc(BLOCK_FRAMES * sizeof(float) * info.channels);
	if (!buf) {
		snprintf(error, error_size, "%s", strerror(ENOMEM));
		ir_receiver_free(rx);
		ir_audio_file_close(f);
		return -ENOMEM;
	}
	while ((got = ir_audio_file_read(f, buf, BLOCK_FRAMES)) > 0)
		ir_receiver_process(rx, buf, (size_t)got);
	ir_receiver_flush(rx);
	if (got < 0)
		snprintf(error, error_size, "read error");
	free(buf);
	ir_receiver_free(rx);
	ir_audio_file_close(f);
	return got < 0 ? -EIO : 0;
}
