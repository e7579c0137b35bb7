/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irjackd_sources.c - a configuration's sources: each a src/pipeline source
 * with its own decoder state and key-press tracker, its frames moved from
 * the source's clock to the service's and handed to the outputs.
 *
 * The offset between the clocks only grows, so a frame is never dated
 * after its arrival and key-ups are never early.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "ir_frame_format.h"
#include "irjackd.h"
#include "irjackd_service.h"

static void on_key(void *userdata, const struct ir_key_event *ev)
{
	struct source *s = userdata;

	outputs_key(s->sv, ev);
}

/* A frame's text line for STATUS: without its time column and padding. */
static void compact_frame_text(char *text)
{
	char *in = text + strspn(text, " ");
	char *out = text;

	in += strcspn(in, " "); /* the time */
	for (in += strspn(in, " "); *in && *in != '\n'; in++)
		if (*in != ' ' || (in[1] != ' ' && in[1] != '\n' && in[1]))
			*out++ = *in;
	*out = '\0';
}

/* `irjack status` shows rc-core's reading of the last frame where it
 * differs, as the JSON and MQTT events carry it: "rc_protocol necx
 * rc_scancode 0x0707fd". */
static void append_rc_reading(const struct ir_frame *frame, char *text, size_t size)
{
	const struct ir_protocol_info *info;
	enum ir_protocol rp;
	uint64_t rs;
	size_t len = strlen(text);

	if (!ir_frame_rc_reading(frame, &rp, &rs) || !(info = ir_protocol_get(rp)))
		return;
	snprintf(text + len, size - len, " rc_protocol %s rc_scancode 0x%" PRIx64, info->name, rs);
}

/* At log level debug, a train no protocol took and each family's reason,
 * as the kernel's decoders log theirs (`irjack decode -v` prints the
 * same).  Families that got past a header, or all when none did. */
static void log_why(void *userdata, uint64_t start_us, uint64_t end_us, size_t edges,
		    const struct ir_decode_reason *reasons, size_t count)
{
	const struct source *s = userdata;
	bool any_progress = count && reasons[0].progress > 0;

	irjackd_log(LOG_DEBUG, "source %s: %zu edges (%.1f ms) no protocol took", s->cfg->name,
		    edges, (double)(end_us - start_us) / 1e3);
	for (size_t i = 0; i < count; i++)
		if (!any_progress || reasons[i].progress > 0)
			irjackd_log(LOG_DEBUG, "source %s: %s", s->cfg->name, reasons[i].text);
}

static void on_frame(void *userdata, const struct ir_frame *frame)
{
	struct source *s = userdata;
	struct service *sv = s->sv;
	struct ir_frame f = *frame;
	uint64_t now = service_now_us(sv);
	int64_t lag = (int64_t)now - (int64_t)frame->end_us;
	struct ir_key_binding key;
	bool named = ir_keymap_lookup(sv->gen->km, frame, &key);

	if (!s->offset_known || lag > s->offset_us) {
		s->offset_us = lag;
		s->offset_known = true;
	}
	f.start_us = (uint64_t)((int64_t)f.start_us + s->offset_us);
	f.end_us = (uint64_t)((int64_t)f.end_us + s->offset_us);
	outputs_frame(sv, &(struct ir_output_frame){
				  .source = s->cfg->name,
				  .frame = frame,
				  .key = named ? &key : NULL,
			  });
	ir_keypress_frame(s->keys, &f);
	ir_frame_format_text(frame, &(struct ir_frame_labels){ .key = named ? key.key : NULL },
			     s->last, sizeof(s->last));
	compact_frame_text(s->last);
	append_rc_reading(frame, s->last, sizeof(s->last));
	s->last_us = now;
	irjackd_log(LOG_DEBUG, "source %s: %s", s->cfg->name, s->last);
}

/* Edges go to the outputs that take them ([output lircdev]'s mode2). */
static void on_edge(void *userdata, unsigned channel, const struct ir_edge *edge)
{
	struct source *s = userdata;

	outputs_edge(s->sv, s->cfg->name, channel, edge);
}

static void on_source_event(void *userdata, enum ir_source_event event, const char *message)
{
	struct source *s = userdata;

	switch (event) {
	case IR_SOURCE_XRUN:
		irjackd_log(LOG_WARNING, "source %s: audio lost: %s", s->cfg->name, message);
		break;
	case IR_SOURCE_GONE:
		snprintf(s->state, sizeof(s->state), "gone (%.80s)", message);
		irjackd_log(LOG_WARNING, "source %s: device gone: %s; reopening", s->cfg->name, message);
		break;
	case IR_SOURCE_BACK:
		snprintf(s->state, sizeof(s->state), "running");
		irjackd_log(LOG_INFO, "source %s: device back: %s", s->cfg->name, message);
		break;
	case IR_SOURCE_END:
		snprintf(s->state, sizeof(s->state), "ended");
		irjackd_log(LOG_INFO, "source %s: end of input", s->cfg->name);
		break;
	}
}

void sources_close(struct service *sv, struct generation *g)
{
	uint64_t now = service_now_us(sv);

	for (unsigned i = 0; i < g->source_count; i++) {
		struct source *s = &g->sources[i];

		if (s->keys)
			ir_keypress_release(s->keys, now);
		if (s->peer)
			peer_close(s, now);
		ir_source_free(s->src);
		ir_keypress_free(s->keys);
		memset(s, 0, sizeof(*s));
	}
	g->source_count = 0;
}

/* What the source is opened with: a keymap's protocols are decoded even if
 * the configured list leaves them out. */
static void source_options(struct source *s, const struct generation *g,
			   struct ir_source_options *opt)
{
	const struct irjackd_source *c = s->cfg;
	struct ir_protocol_set named;

	s->enabled = c->protocols;
	ir_keymap_protocols(g->km, &named);
	for (unsigned p = 0; p < IR_PROTO_COUNT; p++)
		if (ir_protocol_set_has(&named, (enum ir_protocol)p))
			ir_protocol_set_add(&s->enabled, (enum ir_protocol)p);
	ir_source_options_init(opt);
	opt->rate = c->rate;
	opt->channel = c->channel;
	opt->polarity = c->polarity;
	opt->timeout_us = c->timeout_us;
	opt->period_us = c->period_us;
	opt->protocols = &s->enabled;
	opt->keymap = g->km;
	opt->realtime = true;
	opt->paced = true;
	opt->start_delay_ms = c->replay_delay_ms;
	if (irjackd_log_enabled(LOG_DEBUG)) {
		opt->why = log_why;
		opt->why_userdata = s;
	}
}

/* A source that could not be opened is kept, "waiting", with no
 * ir_source behind it: nothing reads it (it counts as ended) until a retry
 * opens it (sources_retry()). */
static void source_wait(struct source *s, uint64_t now, const char *why)
{
	s->src = NULL;
	s->ended = true;
	if (!s->waiting)
		s->retry_step_us = SOURCE_RETRY_FIRST_US;
	else if (s->retry_step_us < SOURCE_RETRY_US)
		s->retry_step_us = s->retry_step_us * 2 > SOURCE_RETRY_US ? SOURCE_RETRY_US
									 : s->retry_step_us * 2;
	s->waiting = true;
	s->retry_us = now + s->retry_step_us;
	snprintf(s->state, sizeof(s->state), "waiting (%.80s)", why);
}

/* type = lircd: connects to the peer (irjackd_peers.c). */
static int source_start_peer(struct service *sv, struct source *s)
{
	int ret = peer_start(sv, s);

	if (ret < 0) {
		irjackd_log(LOG_ERR, "source %s (lircd %s): %s", s->cfg->name, s->cfg->device,
			    strerror(-ret));
		source_wait(s, service_now_us(sv), strerror(-ret));
		return ret;
	}
	s->ended = false;
	s->waiting = false;
	snprintf(s->state, sizeof(s->state), "running");
	irjackd_log(LOG_INFO, "source %s: lircd %s", s->cfg->name, s->cfg->device);
	return 0;
}

/* Opens the ir_source of slot `s` (its key-press tracker made already). */
static int source_start(struct service *sv, const struct generation *g, struct source *s)
{
	const struct irjackd_source *c = s->cfg;
	struct ir_source_callbacks cb = { .frame = on_frame, .edge = on_edge,
					  .event = on_source_event, .userdata = s };
	struct ir_source_options opt;
	char spec[IRJACKD_PATH_MAX + 16], err[256];
	int ret;

	if (c->type == IRJACKD_SOURCE_LIRCD)
		return source_start_peer(sv, s);
	source_options(s, g, &opt);
	ret = ir_source_spec_from_kind(irjackd_source_type_name(c->type), c->device, spec,
				       sizeof(spec));
	if (ret < 0 || ret >= (int)sizeof(spec)) {
		irjackd_log(LOG_ERR, "source %s: device name too long", c->name);
		source_wait(s, service_now_us(sv), "device name too long");
		return -ENAMETOOLONG;
	}
	ret = ir_source_open(spec, &opt, &cb, &s->src, err, sizeof(err));
	if (ret < 0) {
		/* a device long missing is retried every 2 s: said once, not each time */
		irjackd_log(s->waiting ? LOG_DEBUG : LOG_ERR, "source %s (%s): %s", c->name, spec,
			    err);
		source_wait(s, service_now_us(sv), err);
		return ret;
	}
	s->ended = false;
	s->waiting = false;
	snprintf(s->state, sizeof(s->state), "running");
	irjackd_log(LOG_INFO, "source %s: %s", c->name, spec);
	return 0;
}

static int source_open(struct service *sv, struct generation *g, const struct irjackd_source *c)
{
	struct source *s = &g->sources[g->source_count];
	int ret;

	memset(s, 0, sizeof(*s));
	s->sv = sv;
	s->cfg = c;
	ret = ir_keypress_new(g->km, on_key, s, &s->keys);
	if (ret < 0)
		return ret;
	g->source_count++;
	ir_keypress_set_keyup_timeout(s->keys, g->cfg->keyup_timeout_ms * 1000);
	return source_start(sv, g, s);
}

/* The errors that mean "the device is not there (yet)": worth waiting for
 * at start.  Anything else (a bad option, a device of the wrong kind, no
 * permission) would fail the same way on every retry. */
static bool device_missing(int err)
{
	return err == -ENOENT || err == -ENODEV || err == -ENXIO || err == -EBUSY;
}

int sources_open(struct service *sv, struct generation *g, bool strict)
{
	for (unsigned i = 0; i < g->cfg->source_count; i++) {
		const struct irjackd_source *c = &g->cfg->sources[i];
		int ret;

		g->source_names[i] = c->name;
		ret = source_open(sv, g, c);
		if (ret < 0 && !g->sources[i].waiting)
			return ret;
		if (ret < 0 && strict && (c->required || !device_missing(ret))) {
			if (c->required && device_missing(ret))
				irjackd_log(LOG_ERR, "source %s: required, and its device is missing",
					    c->name);
			return ret;
		}
		if (ret < 0)
			irjackd_log(LOG_WARNING, "source %s: waiting for its device", c->name);
	}
	return 0;
}

uint64_t sources_retry(struct service *sv, struct generation *g, uint64_t now)
{
	uint64_t next = UINT64_MAX;

	for (unsigned i = 0; i < g->source_count; i++) {
		struct source *s = &g->sources[i];

		if (!s->waiting)
			continue;
		if (s->retry_us <= now && source_start(sv, g, s) == 0)
			irjackd_log(LOG_INFO, "source %s: opened on retry", s->cfg->name);
		if (s->waiting && s->retry_us < next)
			next = s->retry_us;
	}
	return next;
}

int source_poll_fd(const struct source *s, short *events)
{
	*events = POLLIN;
	if (s->ended)
		return -1;
	if (s->peer) {
		*events = ir_lircd_peer_events(s->peer);
		return ir_lircd_peer_fd(s->peer);
	}
	return ir_source_fd(s->src);
}

/* A peer's connection ended: its key goes up, and it is retried. */
static void peer_lost(struct source *s, int err)
{
	uint64_t now = service_now_us(s->sv);

	irjackd_log(LOG_WARNING, "source %s: lircd %s: %s; reconnecting", s->cfg->name,
		    s->cfg->device, err == -ECONNRESET ? "closed by the peer" : strerror(-err));
	peer_close(s, now);
	source_wait(s, now, err == -ECONNRESET ? "closed by the peer" : strerror(-err));
}

void source_dispatch(struct source *s)
{
	char err[256];
	int ret;

	if (s->ended)
		return;
	if (s->peer) {
		ret = peer_dispatch(s);
		if (ret < 0)
			peer_lost(s, ret);
		return;
	}
	ret = ir_source_dispatch(s->src, err, sizeof(err));
	if (ret == -ENODATA) {
		s->ended = true;
	} else if (ret < 0) {
		s->ended = true;
		snprintf(s->state, sizeof(s->state), "failed (%.80s)", err);
		irjackd_log(LOG_ERR, "source %s: %s; it is stopped", s->cfg->name, err);
	}
}

void generation_free(struct service *sv, struct generation *g)
{
	if (!g)
		return;
	sources_close(sv, g);
	ir_keymap_free(g->km);
	free(g->cfg);
	free(g);
}
