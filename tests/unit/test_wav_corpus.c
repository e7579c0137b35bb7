/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Real sound-card recordings of real remotes, made by other people
 * (../shared/corpus/wav, labels.tsv): every labelled frame decodes to its
 * label through the audio path, as `irjack decode` runs it.  The long
 * air-conditioner frames, which no fixed protocol describes, are checked
 * bit for bit from the demodulated edges (pulse-distance by period).
 * Skipped (exit 77), not passed, when the corpus is absent.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "ir_audio_file.h"
#include "ir_receiver.h"

#define CORPUS_DIR IRJACK_SHARED_DIR "/corpus/wav"
#define MAX_FRAMES 256
#define MAX_EDGES 8192

struct decoded {
	struct ir_frame frames[MAX_FRAMES];
	size_t count;
	/* edges of every channel, with their start times */
	struct {
		struct ir_edge edge;
		uint64_t start_us;
	} edges[IR_RECEIVER_MAX_CHANNELS][MAX_EDGES];
	size_t edge_count[IR_RECEIVER_MAX_CHANNELS];
	uint64_t edge_time[IR_RECEIVER_MAX_CHANNELS];
};

static void on_frame(void *userdata, const struct ir_frame *f)
{
	struct decoded *d = userdata;

	if (d->count < MAX_FRAMES)
		d->frames[d->count++] = *f;
}

static void on_edge(void *userdata, unsigned channel, const struct ir_edge *e)
{
	struct decoded *d = userdata;

	if (d->edge_count[channel] < MAX_EDGES) {
		d->edges[channel][d->edge_count[channel]].edge = *e;
		d->edges[channel][d->edge_count[channel]].start_us = d->edge_time[channel];
		d->edge_count[channel]++;
	}
	if (ir_edge_is_timing(e))
		d->edge_time[channel] += e->duration;
}

static struct decoded *decode_file(const char *name)
{
	char path[512];
	struct ir_audio_file *f;
	struct ir_audio_info info;
	struct ir_receiver_config cfg = { .channel = IR_RECEIVER_CHANNEL_AUTO };
	struct ir_receiver *rx;
	struct decoded *d = calloc(1, sizeof(*d));
	float buf[4096 * 2];
	long got;

	snprintf(path, sizeof(path), "%s/%s", CORPUS_DIR, name);
	assert_non_null(d);
	assert_int_equal(ir_audio_file_open(path, &f, NULL, 0), 0);
	ir_audio_file_info(f, &info);
	assert_true(info.channels <= 2);
	cfg.sample_rate = info.sample_rate;
	cfg.channels = info.channels;
	assert_int_equal(ir_receiver_new(&cfg, on_frame, d, &rx), 0);
	ir_receiver_set_edge_fn(rx, on_edge, d);
	while ((got = ir_audio_file_read(f, buf, 4096)) > 0)
		ir_receiver_process(rx, buf, (size_t)got);
	ir_receiver_flush(rx);
	ir_receiver_free(rx);
	ir_audio_file_close(f);
	return d;
}

/* The bits of a pulse-distance frame in [start, end) seconds on some
 * channel, in the order they were sent: a bit is 1 when its period (pulse +
 * space) is longer than the mean of the shortest and longest bit periods
 * (which stays right however much the receiver stretches its pulses).
 * Returns the number of bits found on the channel with the most. */
static size_t pulse_distance_bits(const struct decoded *d, double start, double end,
				  unsigned char *bits, size_t max_bits)
{
	size_t best = 0;
	unsigned char found[1024];

	for (unsigned c = 0; c < IR_RECEIVER_MAX_CHANNELS; c++) {
		uint32_t periods[1024], lo = UINT32_MAX, hi = 0;
		size_t n = 0, count = 0;

		for (size_t i = 0; i + 1 < d->edge_count[c] && n < 1024; i++) {
			const struct ir_edge *e = &d->edges[c][i].edge;
			double t = d->edges[c][i].start_us / 1e6;

			if (e->kind != IR_PULSE || t < start - 0.002 || t > end)
				continue;
			if (d->edges[c][i + 1].edge.kind != IR_SPACE)
				continue;
			periods[n++] = e->duration + d->edges[c][i + 1].edge.duration;
		}
		/* periods over 3 ms are the header, not bits */
		for (size_t i = 0; i < n; i++) {
			if (periods[i] > 3000)
				continue;
			lo = periods[i] < lo ? periods[i] : lo;
			hi = periods[i] > hi ? periods[i] : hi;
		}
		for (size_t i = 0; i < n && count < sizeof(found); i++)
			if (periods[i] <= 3000)
				found[count++] = periods[i] > (lo + hi) / 2;
		if (count > best) {
			best = count;
			memcpy(bits, found, count < max_bits ? count : max_bits);
		}
	}
	return best;
}

static void test_labelled_frames_decode(void **state)
{
	char path[512], line[1024];
	FILE *labels;
	unsigned total = 0, ok = 0;
	char current[256] = "";
	struct decoded *d = NULL;

	(void)state;
	snprintf(path, sizeof(path), "%s/labels.tsv", CORPUS_DIR);
	labels = fopen(path, "r");
	assert_non_null(labels);
	assert_non_null(fgets(line, sizeof(line), labels)); /* header */
	while (fgets(line, sizeof(line), labels)) {
		char file[256], proto[64], sc[64], rep[16], addr[32], cmd[32], note[512] = "";
		unsigned frame;
		double start, end;
		bool good = false;

		if (sscanf(line, "%255[^\t]\t%u\t%lf\t%lf\t%63[^\t]\t%63[^\t]\t%15[^\t]\t%31[^\t]\t%31[^\t\n]\t%511[^\n]",
			   file, &frame, &start, &end, proto, sc, rep, addr, cmd, note) < 9)
			continue;
		if (strcmp(file, current) != 0) {
			free(d);
			d = decode_file(file);
			snprintf(current, sizeof(current), "%s", file);
		}
		total++;
		if (strcmp(proto, "hitachi_ac264") == 0) {
			/* "payload 0x...": the label writes the frame's bits last
			 * sent first (each byte sent LSB first, the last byte
			 * first): bit i sent is bit i from the end of the label. */
			const char *hex = strstr(note, "0x");
			unsigned char got[1024];
			size_t digits, nbits;

			assert_non_null(hex);
			hex += 2;
			digits = strspn(hex, "0123456789abcdefABCDEF");
			nbits = pulse_distance_bits(d, start, end, got, sizeof(got));
			good = nbits == 4 * digits;
			for (size_t i = 0; good && i < nbits; i++) {
				size_t from_end = nbits - 1 - i; /* MSB-first index in the label */
				char digit[2] = { hex[from_end / 4], 0 };
				unsigned v = (unsigned)strtoul(digit, NULL, 16);

				good = ((v >> (3 - from_end % 4)) & 1) == got[i];
			}
		} else {
			bool repeat = strcmp(rep, "yes") == 0;

			for (size_t i = 0; i < d->count && !good; i++) {
				const struct ir_frame *f = &d->frames[i];
				const struct ir_protocol_info *info = ir_protocol_get(f->protocol);
				double t = f->start_us / 1e6;

				if (fabs(t - start) > 0.003 || !!(f->flags & IR_FRAME_REPEAT) != repeat)
					continue;
				if (strcmp(proto, "nec-repeat") == 0) {
					good = repeat;
				} else if (strcmp(sc, "-") != 0) {
					good = info && strcmp(info->name, proto) == 0 &&
					       f->scancode == strtoull(sc, NULL, 0);
				} else {
					/* IRMP's address << 16 | command */
					good = info && strcmp(info->name, proto) == 0 &&
					       f->scancode == (strtoull(addr, NULL, 0) << 16 |
							       strtoull(cmd, NULL, 0));
				}
			}
		}
		if (good)
			ok++;
		else
			fprintf(stderr, "%s frame %u (%s at %.4f s) not decoded\n", file, frame, proto,
				start);
	}
	fclose(labels);
	free(d);
	printf("real recordings: %u / %u labelled frames decoded\n", ok, total);
	assert_true(total >= 20);
	assert_int_equal(ok, total);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_labelled_frames_decode),
	};
	struct stat st;

	if (stat(CORPUS_DIR, &st) != 0) {
		printf("SKIP: %s not present\n", CORPUS_DIR);
		return 77;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
