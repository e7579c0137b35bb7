/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irjackd_run.c - the service loop.  So far: file sources (a recording
 * replayed through the same path as a live one) to the JSON output; live
 * sources and the uinput/lircd outputs are wired as their modules land.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir_audio_file.h"
#include "ir_decoder.h"
#include "ir_frame_format.h"
#include "ir_keymap.h"
#include "ir_receiver.h"
#include "ir_timing_io.h"
#include "irjackd_config.h"

int irjackd_run(const struct irjackd_config *cfg, struct ir_keymap *km);

struct run_source {
	const struct irjackd_source *src;
	struct ir_keymap *km;
	FILE *json;
};

static void on_frame(void *userdata, const struct ir_frame *frame)
{
	struct run_source *rs = userdata;
	struct ir_frame_labels labels = { .source = rs->src->name };
	struct ir_key_binding key;
	char line[1024];

	if (ir_keymap_lookup(rs->km, frame, &key)) {
		labels.key = key.key;
		labels.remote = key.remote;
	}
	if (rs->json) {
		ir_frame_format_json(frame, &labels, line, sizeof(line));
		fputs(line, rs->json);
		fflush(rs->json);
	}
}

static int run_file_source(struct run_source *rs)
{
	const struct irjackd_source *s = rs->src;
	struct ir_protocol_set enabled = s->protocols, named;
	int ret;

	ir_keymap_protocols(rs->km, &named);
	for (unsigned p = 0; p < IR_PROTO_COUNT; p++)
		if (ir_protocol_set_has(&named, (enum ir_protocol)p))
			ir_protocol_set_add(&enabled, (enum ir_protocol)p);
	if (ir_audio_file_probe(s->device)) {
		struct ir_audio_file *f;
		struct ir_audio_info info;
		struct ir_receiver_config rcfg = { 0 };
		struct ir_receiver *rx;
		char error[256];
		float *buf;
		long got;

		ret = ir_audio_file_open(s->device, &f, error, sizeof(error));
		if (ret < 0) {
			fprintf(stderr, "irjackd: source %s: %s: %s\n", s->name, s->device, error);
			return ret;
		}
		ir_audio_file_info(f, &info);
		rcfg.sample_rate = info.sample_rate;
		rcfg.channels = info.channels;
		rcfg.channel = info.channels == 1 ? 0 : s->channel;
		rcfg.polarity = s->polarity;
		rcfg.timeout_us = s->timeout_us;
		rcfg.protocols = &enabled;
		rcfg.keymap = rs->km;
		ret = ir_receiver_new(&rcfg, on_frame, rs, &rx);
		buf = ret == 0 ? malloc(4096 * sizeof(float) * info.channels) : NULL;
		if (!buf) {
			fprintf(stderr, "irjackd: source %s: cannot decode %s\n", s->name, s->device);
			if (ret == 0)
				ir_receiver_free(rx);
			ir_audio_file_close(f);
			return ret < 0 ? ret : -ENOMEM;
		}
		while ((got = ir_audio_file_read(f, buf, 4096)) > 0)
			ir_receiver_process(rx, buf, (size_t)got);
		ir_receiver_flush(rx);
		free(buf);
		ir_receiver_free(rx);
		ir_audio_file_close(f);
		return got < 0 ? -EIO : 0;
	} else {
		struct ir_edge_buf edges = { 0 };
		struct ir_parse_error perr;
		struct ir_decoder *dec;

		ret = ir_timing_read_file(s->device, IR_FORMAT_AUTO, NULL, &edges, NULL, &perr);
		if (ret < 0) {
			fprintf(stderr, "irjackd: source %s: %s: %s\n", s->name, s->device,
				ret == -EINVAL ? perr.message : strerror(-ret));
			ir_edge_buf_free(&edges);
			return ret;
		}
		ret = ir_decoder_new(&enabled, on_frame, rs, &dec);
		if (ret == 0 && (ret = ir_keymap_attach(rs->km, dec)) == 0) {
			ir_decoder_feed_many(dec, edges.edges, edges.len);
			ir_decoder_flush(dec);
		}
		ir_decoder_free(dec);
		ir_edge_buf_free(&edges);
		return ret;
	}
}

int irjackd_run(const struct irjackd_config *cfg, struct ir_keymap *km)
{
	FILE *json = NULL;
	int ret = 0;

	if (cfg->json) {
		json = strcmp(cfg->json_path, "-") == 0 ? stdout : fopen(cfg->json_path, "a");
		if (!json) {
			fprintf(stderr, "irjackd: %s: %s\n", cfg->json_path, strerror(errno));
			return -errno;
		}
	}
	for (unsigned i = 0; i < cfg->source_count && ret == 0; i++) {
		struct run_source rs = { .src = &cfg->sources[i], .km = km, .json = json };

		if (cfg->sources[i].type != IRJACKD_SOURCE_FILE) {
			fprintf(stderr, "irjackd: source %s: type %s is not supported by this build yet\n",
				cfg->sources[i].name, irjackd_source_type_name(cfg->sources[i].type));
			ret = -ENOTSUP;
			break;
		}
		ret = run_file_source(&rs);
	}
	if (json && json != stdout)
		fclose(json);
	return ret;
}
