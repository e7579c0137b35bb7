/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: arbitrary audio through the receiver (demodulator,
 * carrier estimator, every decoder).  The first byte picks the rate and
 * the channel count; the rest is 16-bit samples, scaled up and repeated so
 * short inputs still span long pulses.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "ir_receiver.h"

static void ignore_frame(void *userdata, const struct ir_frame *frame)
{
	(void)userdata;
	(void)frame;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned rates[] = { 8000, 44100, 48000, 192000 };
	struct ir_receiver_config cfg = { 0 };
	struct ir_receiver *rx;
	size_t samples, frames;
	float *buf;

	if (size < 3)
		return 0;
	cfg.sample_rate = rates[data[0] & 3];
	cfg.channels = 1 + ((data[0] >> 2) & 1);
	cfg.channel = IR_RECEIVER_CHANNEL_AUTO;
	samples = (size - 1) / 2;
	/* each sample held for `hold` samples: pulses of realistic length */
	unsigned hold = 1 + (data[0] >> 3);
	frames = samples * hold / cfg.channels;
	if (!frames)
		return 0;
	buf = malloc(frames * cfg.channels * sizeof(*buf));
	if (!buf)
		return 0;
	for (size_t i = 0; i < frames * cfg.channels; i++) {
		size_t k = (i / hold) % samples;
		int16_t v = (int16_t)(data[1 + 2 * k] | data[2 + 2 * k] << 8);

		buf[i] = (float)v / 32768.0f;
	}
	if (ir_receiver_new(&cfg, ignore_frame, NULL, &rx) == 0) {
		for (size_t i = 0; i < frames; i += 1000)
			ir_receiver_process(rx, buf + i * cfg.channels,
					    frames - i < 1000 ? frames - i : 1000);
		ir_receiver_flush(rx);
		ir_receiver_free(rx);
	}
	free(buf);
	return 0;
}
