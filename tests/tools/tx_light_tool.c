/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tx_light_tool.c - a test helper for test_send.sh: what the IR LEDs on a
 * headphone output emit for a WAV `irjack send` wrote, as the timings an
 * ideal receiver reads from that light.
 *
 *   tx_light_tool SEND.wav CARRIER_HZ [single]  > light.mode2
 *
 * The stereo audio goes through the LED model (dsp/ir_tx_model: the DAC's
 * reconstruction, then the diode law of two anti-parallel LEDs, or one
 * with `single`); a burst is light above 10 % of the peak, with gaps
 * shorter than two carrier periods joined (a receiver's envelope).  The
 * first line is the light's carrier, measured.  The
 * timings then go through `irjack synth --timings` (the receiver and
 * sound-card model) and `irjack decode`.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir_audio_file.h"
#include "ir_tx_model.h"

int main(int argc, char **argv)
{
	struct ir_audio_file *f;
	struct ir_audio_info info;
	struct ir_tx_model_config tx;
	char error[256];
	float *st = NULL, *light = NULL, peak = 0;
	size_t frames = 0, cap = 0, n = 0;
	unsigned os;
	long got;
	double carrier;

	if (argc < 3 || ir_audio_file_open(argv[1], &f, error, sizeof(error)) < 0) {
		fprintf(stderr, "usage: tx_light_tool SEND.wav CARRIER_HZ [single]\n");
		return 2;
	}
	carrier = atof(argv[2]);
	ir_audio_file_info(f, &info);
	if (info.channels != 2 || carrier <= 0)
		return 2;
	for (;;) {
		if (frames + 4096 > cap) {
			cap = (cap + 4096) * 2;
			st = realloc(st, 2 * cap * sizeof(float));
			if (!st)
				return 2;
		}
		got = ir_audio_file_read(f, st + 2 * frames, 4096);
		if (got <= 0)
			break;
		frames += (size_t)got;
	}
	ir_audio_file_close(f);
	ir_tx_model_config_default(&tx);
	tx.anti_parallel = !(argc > 3 && strcmp(argv[3], "single") == 0);
	os = ir_tx_model_oversample(info.sample_rate);
	if (ir_tx_model_render(&tx, st, frames, os, &light, &n) < 0)
		return 2;
	for (size_t i = 0; i < n; i++)
		peak = fmaxf(peak, light[i]);

	double us_per = 1e6 / ((double)info.sample_rate * os);

	/* the light's carrier over the first 2 ms of light (every frame here
	 * starts with a longer burst): rising crossings of half the peak,
	 * interpolated */
	{
		size_t first_lit = 0, span = (size_t)(2000 / us_per);
		double first = -1, last = -1;
		unsigned crossings = 0;
		float th = 0.5f * peak;

		while (first_lit < n && light[first_lit] <= 0.1f * peak)
			first_lit++;
		for (size_t i = first_lit + 1; i < n && i < first_lit + span; i++) {
			if (light[i - 1] < th && light[i] >= th) {
				double x = (i - 1) + (th - light[i - 1]) / (light[i] - light[i - 1]);

				if (first < 0)
					first = x;
				last = x;
				crossings++;
			}
		}
		if (crossings > 2)
			printf("carrier %ld\n", lround((crossings - 1) / ((last - first) * us_per * 1e-6)));
	}
	size_t gap_max = (size_t)ceil(2e6 / carrier / us_per);
	size_t start = 0, end = 0;
	int in_burst = 0;
	double last_end = 0;

	for (size_t i = 0; i <= n; i++) {
		int lit = i < n && light[i] > 0.1f * peak;

		if (lit && !in_burst) {
			in_burst = 1;
			start = i;
			end = i + 1;
		} else if (lit) {
			end = i + 1;
		} else if (in_burst && (i >= n || i - end > gap_max)) {
			if (last_end > 0)
				printf("space %ld\n", lround(start * us_per - last_end));
			printf("pulse %ld\n", lround((end - start) * us_per));
			last_end = end * us_per;
			in_burst = 0;
		}
	}
	printf("space 100000\n");
	free(st);
	free(light);
	return 0;
}
