/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_source.c - what every source shares: the spec, the registry of
 * backends, and the decoder state behind the sink a backend pushes into.
 */
#include "ir_source.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ir_keymap.h"
#include "ir_receiver.h"
#include "ir_source_silence.h"
#include "ir_util.h"

struct ir_source_sink {
	struct ir_source *src;
};

struct ir_source {
	const struct ir_source_backend *backend;
	void *impl;
	struct ir_source_sink sink;
	struct ir_source_options opt;
	struct ir_source_callbacks cb;
	struct ir_receiver *rx;     /* audio */
	struct ir_decoder *dec;     /* timings */
	struct ir_silence silence;  /* live timing sources: idle time as silence */
	unsigned rate, channels;
	uint64_t samples;
	uint64_t frames;
	int error;                  /* first fatal error inside the sink (ENOMEM...) */
	char error_msg[160];
	bool ended;
};

void ir_source_options_init(struct ir_source_options *opt)
{
	memset(opt, 0, sizeof(*opt));
	opt->channel = IR_RECEIVER_CHANNEL_AUTO;
	opt->polarity = IR_POLARITY_AUTO;
}

/* Backends register themselves (IR_SOURCE_BACKEND_REGISTER) before main()
 * runs; the table is read-only from then on. */
#define MAX_BACKENDS 16
static const struct ir_source_backend *backends[MAX_BACKENDS + 1];
static unsigned backend_count;

/* Listing order: live audio, then timing devices, then files; by name
 * within a kind. */
static bool listed_before(const struct ir_source_backend *a, const struct ir_source_backend *b)
{
	if (a->kind != b->kind)
		return a->kind < b->kind;
	return strcmp(a->name, b->name) < 0;
}

int ir_source_register(const struct ir_source_backend *b)
{
	unsigned at;

	if (!b || !b->name || !b->open)
		return -EINVAL;
	if (ir_source_backend_find(b->name))
		return -EEXIST;
	if (backend_count == MAX_BACKENDS)
		return -ENOSPC;
	for (at = backend_count; at > 0 && listed_before(b, backends[at - 1]); at--)
		backends[at] = backends[at - 1];
	backends[at] = b;
	backend_count++;
	return 0;
}

const struct ir_source_backend *const *ir_source_backends(void)
{
	return backends;
}

const struct ir_source_backend *ir_source_backend_find(const char *name)
{
	for (unsigned i = 0; i < backend_count; i++)
		if (strcmp(backends[i]->name, name) == 0)
			return backends[i];
	return NULL;
}

static void sink_fail(struct ir_source *src, int err, const char *what)
{
	if (src->error)
		return;
	src->error = err;
	snprintf(src->error_msg, sizeof(src->error_msg), "%s: %s", what, strerror(-err));
}

static void on_frame(void *userdata, const struct ir_frame *frame)
{
	struct ir_source *src = userdata;

	src->frames++;
	src->cb.frame(src->cb.userdata, frame);
}

static void on_audio_edge(void *userdata, unsigned channel, const struct ir_edge *edge)
{
	struct ir_source *src = userdata;

	src->cb.edge(src->cb.userdata, channel, edge);
}

void ir_source_sink_audio_format(struct ir_source_sink *sink, unsigned rate, unsigned channels)
{
	struct ir_source *src = sink->src;
	struct ir_receiver_config cfg = {
		.sample_rate = rate,
		.channels = channels,
		.channel = channels == 1 ? 0 : src->opt.channel,
		.polarity = src->opt.polarity,
		.timeout_us = src->opt.timeout_us,
		.protocols = src->opt.protocols,
		.keymap = src->opt.keymap,
		.why = src->opt.why,
		.why_userdata = src->opt.why_userdata,
	};
	int ret;

	if (src->rx && rate == src->rate && channels == src->channels)
		return;
	if (src->rx) {
		ir_receiver_flush(src->rx);
		ir_receiver_free(src->rx);
		src->rx = NULL;
	}
	src->rate = rate;
	src->channels = channels;
	if (cfg.channel >= 0 && (unsigned)cfg.channel >= channels) {
		sink_fail(src, -EINVAL, "the device has fewer channels than the one asked for");
		return;
	}
	ret = ir_receiver_new(&cfg, on_frame, src, &src->rx);
	if (ret < 0) {
		sink_fail(src, ret, "cannot decode audio in this format");
		return;
	}
	if (src->cb.edge)
		ir_receiver_set_edge_fn(src->rx, on_audio_edge, src);
}

void ir_source_sink_samples(struct ir_source_sink *sink, const float *interleaved, size_t frames)
{
	struct ir_source *src = sink->src;

	if (!src->rx)
		return;
	if (src->cb.samples)
		src->cb.samples(src->cb.userdata, interleaved, frames);
	ir_receiver_process(src->rx, interleaved, frames);
	src->samples += frames;
}

static int ensure_decoder(struct ir_source *src)
{
	int ret;

	if (src->dec)
		return 0;
	ret = ir_decoder_new(src->opt.protocols, on_frame, src, &src->dec);
	if (ret == 0 && src->opt.keymap)
		ret = ir_keymap_attach(src->opt.keymap, src->dec);
	if (ret == 0 && src->opt.why)
		ir_decoder_set_why(src->dec, src->opt.why, src->opt.why_userdata);
	if (ret < 0) {
		ir_decoder_free(src->dec);
		src->dec = NULL;
		sink_fail(src, ret, "cannot create the decoders");
	}
	return ret;
}

void ir_source_sink_edges(struct ir_source_sink *sink, const struct ir_edge *edges, size_t n)
{
	struct ir_source *src = sink->src;

	if (ensure_decoder(src) < 0)
		return;
	for (size_t i = 0; i < n; i++) {
		if (src->cb.edge)
			src->cb.edge(src->cb.userdata, 0, &edges[i]);
		ir_decoder_feed(src->dec, &edges[i]);
	}
	ir_silence_after_edges(&src->silence, src->dec, edges, n);
	src->samples += n;
}

uint32_t ir_source_sink_space_deadline(struct ir_source_sink *sink)
{
	return sink->src->dec ? ir_decoder_space_deadline(sink->src->dec) : 0;
}

void ir_source_sink_space_elapsed(struct ir_source_sink *sink, uint32_t elapsed_us)
{
	if (sink->src->dec)
		ir_decoder_space_elapsed(sink->src->dec, elapsed_us);
}

void ir_source_sink_frame(struct ir_source_sink *sink, const struct ir_frame *frame)
{
	on_frame(sink->src, frame);
}

void ir_source_sink_event(struct ir_source_sink *sink, enum ir_source_event event,
			  const char *message)
{
	struct ir_source *src = sink->src;

	if (event == IR_SOURCE_END) {
		if (src->rx)
			ir_receiver_flush(src->rx);
		if (src->dec)
			ir_decoder_flush(src->dec);
		src->ended = true;
	} else {
		/* Whatever was half-decoded cannot be finished across lost time. */
		if (src->rx)
			ir_receiver_reset(src->rx);
		if (src->dec)
			ir_decoder_reset(src->dec);
	}
	ir_silence_cancel(&src->silence);
	if (src->cb.event)
		src->cb.event(src->cb.userdata, event, message);
}

/* A bare argument that names a recording rather than a device: a path, or
 * a name with an audio or timing file's suffix. */
static bool names_a_file(const char *spec)
{
	static const char *const suffixes[] = { ".wav", ".flac", ".ogg", ".aiff", ".mode2", ".txt" };
	size_t len = strlen(spec);

	if (strchr(spec, '/'))
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(suffixes); i++) {
		size_t n = strlen(suffixes[i]);

		if (len > n && strcasecmp(spec + len - n, suffixes[i]) == 0)
			return true;
	}
	return false;
}

/* The backend a "NAME:" prefix names, if any. */
static const struct ir_source_backend *prefix_backend(const char *spec, const char *colon)
{
	char name[32];

	if (!colon || (size_t)(colon - spec) >= sizeof(name))
		return NULL;
	memcpy(name, spec, (size_t)(colon - spec));
	name[colon - spec] = '\0';
	return ir_source_backend_find(name);
}

/* How configuration files name sources: a kind and a device. */
static const struct {
	const char *kind;
	const char *prefix;         /* the spec up to the device */
	const char *default_device; /* NULL: none, the prefix alone */
} source_kinds[] = {
	{ "alsa", "alsa", "default" },
	{ "portaudio", "portaudio", "default" },
	{ "file", "file", NULL },
	{ "lirc", "lirc", NULL },
	{ "devinput", "devinput", "auto" },
	{ "mceusb", "usb:mceusb", NULL },
	{ "imon", "usb:imon", NULL },
};

int ir_source_spec_from_kind(const char *kind, const char *device, char *spec, size_t size)
{
	for (size_t i = 0; i < ARRAY_SIZE(source_kinds); i++) {
		const char *d = device && device[0] ? device : source_kinds[i].default_device;

		if (strcmp(kind, source_kinds[i].kind))
			continue;
		return d ? snprintf(spec, size, "%s:%s", source_kinds[i].prefix, d)
			 : snprintf(spec, size, "%s", source_kinds[i].prefix);
	}
	return -EINVAL;
}

int ir_source_spec_resolve(const char *device, const char *backend, char *spec, size_t size)
{
	const char *colon = device ? strchr(device, ':') : NULL;
	int len;

	if (backend && !ir_source_backend_find(backend))
		return -EPROTONOSUPPORT;
	if (!backend)
		backend = "alsa";
	if (!device || !*device)
		len = snprintf(spec, size, "%s:default", backend);
	else if (colon) /* "alsa:hw:1" is a spec; "hw:1" or "irfile:IN=/x.raw" a PCM name */
		len = prefix_backend(device, colon) ? snprintf(spec, size, "%s", device)
						    : snprintf(spec, size, "%s:%s", backend, device);
	else if (ir_source_backend_find(device) || names_a_file(device))
		len = snprintf(spec, size, "%s", device);
	else
		len = snprintf(spec, size, "%s:%s", backend, device);
	return len < 0 || (size_t)len >= size ? -ENAMETOOLONG : 0;
}

/* Splits a spec into a backend and its device string: the one parser of
 * source specs. */
static const struct ir_source_backend *parse_spec(const char *spec, const char **device,
						  char *err, size_t err_size)
{
	const struct ir_source_backend *b;
	const char *colon = strchr(spec, ':');

	if (!colon && strncmp(spec, "/dev/lirc", 9) == 0) {
		*device = spec;
		b = ir_source_backend_find("lirc");
		if (!b)
			snprintf(err, err_size, "%s: /dev/lirc support is not built in", spec);
		return b;
	}
	if ((b = prefix_backend(spec, colon))) {
		*device = colon + 1;
		return b;
	}
	if (!colon && (b = ir_source_backend_find(spec))) {
		*device = "";
		return b;
	}
	if (names_a_file(spec)) {
		*device = spec;
		b = ir_source_backend_find("file");
		if (!b)
			snprintf(err, err_size, "%s: file sources are not built in", spec);
		return b;
	}
	snprintf(err, err_size, "%s: unknown source (expected BACKEND:DEVICE with BACKEND one of", spec);
	for (unsigned i = 0; backends[i]; i++) {
		size_t len = strlen(err);

		snprintf(err + len, err_size - len, "%s %s", i ? "," : "", backends[i]->name);
	}
	size_t len = strlen(err);
	snprintf(err + len, err_size - len, ")");
	return NULL;
}

int ir_source_open(const char *spec, const struct ir_source_options *opt,
		   const struct ir_source_callbacks *cb, struct ir_source **out,
		   char *err, size_t err_size)
{
	const struct ir_source_backend *b;
	struct ir_source *src;
	const char *device = NULL;
	bool opened;
	int ret;

	if (err_size)
		err[0] = '\0';
	if (!spec || !cb || !cb->frame || !out) {
		snprintf(err, err_size, "bad arguments");
		return -EINVAL;
	}
	b = parse_spec(spec, &device, err, err_size);
	if (!b)
		return -EPROTONOSUPPORT;
	src = calloc(1, sizeof(*src));
	if (!src) {
		snprintf(err, err_size, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	src->backend = b;
	src->sink.src = src;
	if (opt)
		src->opt = *opt;
	else
		ir_source_options_init(&src->opt);
	src->cb = *cb;
	ir_silence_init_unused(&src->silence);
	ret = b->open(device, &src->opt, &src->sink, &src->impl, err, err_size);
	opened = ret == 0;
	if (ret == 0 && src->error) {
		snprintf(err, err_size, "%s", src->error_msg);
		ret = src->error;
	}
	if (ret == 0 && b->kind == IR_SOURCE_KIND_TIMING && b->fd(src->impl) >= 0) {
		ret = ir_silence_start(&src->silence, b->fd(src->impl));
		if (ret < 0)
			snprintf(err, err_size, "cannot time the silence: %s", strerror(-ret));
	}
	if (ret < 0) {
		if (opened)
			b->close(src->impl);
		if (src->rx)
			ir_receiver_free(src->rx);
		ir_decoder_free(src->dec);
		free(src);
		return ret;
	}
	*out = src;
	return 0;
}

void ir_source_free(struct ir_source *src)
{
	if (!src)
		return;
	src->backend->close(src->impl);
	ir_silence_free(&src->silence);
	if (src->rx)
		ir_receiver_free(src->rx);
	ir_decoder_free(src->dec);
	free(src);
}

int ir_source_fd(const struct ir_source *src)
{
	if (ir_silence_active(&src->silence))
		return src->silence.poll_fd;
	return src->backend->fd(src->impl);
}

int ir_source_dispatch(struct ir_source *src, char *err, size_t err_size)
{
	int ret;

	if (err_size)
		err[0] = '\0';
	if (src->ended)
		return -ENODATA;
	ret = src->backend->dispatch(src->impl);
	/* after the backend: an edge it just read ends the silence first */
	if (ret == 0 && !src->error)
		ir_silence_dispatch(&src->silence, src->dec);
	if (src->error) {
		snprintf(err, err_size, "%s", src->error_msg);
		return src->error;
	}
	if (ret == -ENODATA && !src->ended)
		ir_source_sink_event(&src->sink, IR_SOURCE_END, "end of input");
	if (ret < 0 && ret != -ENODATA && err_size && !err[0])
		snprintf(err, err_size, "%s", strerror(-ret));
	return ret;
}

int ir_source_transmit(struct ir_source *src, const struct ir_edge *edges, size_t n,
		       uint32_t carrier_hz, unsigned ports, char *err, size_t err_size)
{
	if (err_size)
		err[0] = '\0';
	if (!src->backend->transmit) {
		snprintf(err, err_size, "%s sources cannot transmit", src->backend->name);
		return -ENOTSUP;
	}
	return src->backend->transmit(src->impl, edges, n, carrier_hz, ports, err, err_size);
}

int ir_source_display(struct ir_source *src, const char *request, char *err, size_t err_size)
{
	if (err_size)
		err[0] = '\0';
	if (!src->backend->display) {
		snprintf(err, err_size, "%s sources have no display", src->backend->name);
		return -ENOTSUP;
	}
	return src->backend->display(src->impl, request, err, err_size);
}

void ir_source_stats(const struct ir_source *src, struct ir_source_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->backend = src->backend->name;
	src->backend->stats(src->impl, st);
	st->backend = src->backend->name;
	st->samples = src->samples;
	st->frames = src->frames;
	if (src->rx) {
		st->rate = src->rate;
		st->channels = src->channels;
	}
}

int ir_source_signal_report(struct ir_source *src, struct ir_signal_report *r)
{
	unsigned best = 0;
	uint64_t most = 0;

	if (!src->rx)
		return src->dec ? -ENOTSUP : -EAGAIN;
	if (src->channels > 1 && src->opt.channel < 0) {
		for (unsigned c = 0; c < src->channels; c++) {
			uint64_t n = ir_receiver_channel_frames(src->rx, c);

			if (n > most) {
				most = n;
				best = c;
			}
		}
	} else if (src->opt.channel >= 0) {
		best = (unsigned)src->opt.channel;
	}
	return ir_receiver_report(src->rx, best, r);
}
