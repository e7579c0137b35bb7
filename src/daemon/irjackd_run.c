/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irjackd_run.c - the service loop: one poll() over the lircd socket, the
 * signals (signalfd) and the next due time (a frame to replay, a key to
 * release).
 *
 * Sources so far: `file` (a recording or timing file).  Its frames are
 * decoded up front and replayed at their own times from the start, so the
 * outputs see exactly what a live receiver would produce (presses, repeats,
 * key-ups at rc-core's times).  With no lircd output the service is a batch
 * job: it stops once every file is replayed.  Live audio and USB sources
 * join as their modules land.
 *
 * Transmitters so far: `file` (the timings of every SEND_* or MQTT
 * request, as mode2 text appended to the file).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include "ir_audio_file.h"
#include "ir_decoder.h"
#include "ir_frame_format.h"
#include "ir_keymap.h"
#include "ir_keypress.h"
#include "ir_receiver.h"
#include "ir_timing_io.h"
#include "irjackd_config.h"
#include "out_lircd.h"
#include "out_mqtt.h"
#include "out_uinput.h"

int irjackd_run(const struct irjackd_config *cfg, struct ir_keymap *km);

/* Frames one recording may hold; more are dropped with a warning. */
#define MAX_FILE_FRAMES 100000

struct source {
	const struct irjackd_source *cfg;
	struct ir_frame *frames;
	size_t count, next;
	bool truncated;
	bool shifted;
	struct ir_keypress *keys;
};

struct service {
	const struct irjackd_config *cfg;
	struct ir_keymap *km;
	struct source sources[IRJACKD_MAX_SOURCES];
	unsigned source_count;
	FILE *json;
	struct ir_lircd *lircd;
	struct ir_uinput *uinput;
	struct ir_mqtt *mqtt;
	uint64_t start_us; /* monotonic time of source time 0 */
	bool stop;
};

static uint64_t monotonic_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* ---- decoding file sources ---- */

static void collect_frame(void *userdata, const struct ir_frame *frame)
{
	struct source *s = userdata;

	if (!s->frames) {
		s->frames = malloc(MAX_FILE_FRAMES * sizeof(*s->frames));
		if (!s->frames)
			return;
	}
	if (s->count == MAX_FILE_FRAMES) {
		s->truncated = true;
		return;
	}
	s->frames[s->count++] = *frame;
}

static int decode_file(struct source *s, struct ir_keymap *km)
{
	const struct irjackd_source *c = s->cfg;
	struct ir_protocol_set enabled = c->protocols, named;
	int ret;

	ir_keymap_protocols(km, &named);
	for (unsigned p = 0; p < IR_PROTO_COUNT; p++)
		if (ir_protocol_set_has(&named, (enum ir_protocol)p))
			ir_protocol_set_add(&enabled, (enum ir_protocol)p);
	if (ir_audio_file_probe(c->device)) {
		struct ir_receiver_config rcfg = {
			.channel = c->channel,
			.polarity = c->polarity,
			.timeout_us = c->timeout_us,
			.protocols = &enabled,
			.keymap = km,
		};
		char error[256];

		ret = ir_receiver_run_file(c->device, &rcfg, collect_frame, s, error, sizeof(error));
		if (ret < 0)
			fprintf(stderr, "irjackd: source %s: %s: %s\n", c->name, c->device, error);
	} else {
		struct ir_edge_buf edges = { 0 };
		struct ir_parse_error perr;
		struct ir_decoder *dec = NULL;

		ret = ir_timing_read_file(c->device, IR_FORMAT_AUTO, NULL, &edges, NULL, &perr);
		if (ret < 0) {
			if (ret == -EINVAL && perr.line)
				fprintf(stderr, "irjackd: source %s: %s:%u: %s\n", c->name, c->device,
					perr.line, perr.message);
			else
				fprintf(stderr, "irjackd: source %s: %s: %s\n", c->name, c->device,
					ret == -EINVAL ? perr.message : strerror(-ret));
			ir_edge_buf_free(&edges);
			return ret;
		}
		ret = ir_decoder_new(&enabled, collect_frame, s, &dec);
		if (ret == 0 && (ret = ir_keymap_attach(km, dec)) == 0) {
			ir_decoder_feed_many(dec, edges.edges, edges.len);
			ir_decoder_flush(dec);
		}
		ir_decoder_free(dec);
		ir_edge_buf_free(&edges);
	}
	if (s->truncated)
		fprintf(stderr, "irjackd: source %s: more than %d frames, the rest dropped\n", c->name,
			MAX_FILE_FRAMES);
	return ret;
}

/* ---- outputs ---- */

static void print_json(struct service *sv, const struct source *s, const struct ir_frame *f)
{
	struct ir_frame_labels labels = { .source = s->cfg->name };
	struct ir_key_binding key;
	char line[1024];

	if (!sv->json)
		return;
	if (ir_keymap_lookup(sv->km, f, &key)) {
		labels.key = key.key;
		labels.remote = key.remote;
	}
	ir_frame_format_json(f, &labels, line, sizeof(line));
	fputs(line, sv->json);
	fflush(sv->json);
}

/* MQTT: every frame, next to print_json(). */
static void publish_mqtt(struct service *sv, const char *source, const struct ir_frame *f)
{
	struct ir_key_binding key;

	if (sv->mqtt)
		ir_mqtt_frame(sv->mqtt, source, f,
			      ir_keymap_lookup(sv->km, f, &key) ? &key : NULL);
}

static void on_key(void *userdata, const struct ir_key_event *ev)
{
	struct service *sv = userdata;

	if (sv->lircd)
		ir_lircd_broadcast(sv->lircd, ev);
	if (sv->uinput && ir_uinput_event(sv->uinput, ev) < 0)
		fprintf(stderr, "irjackd: uinput: cannot write an event\n");
}

/* The transmitter named `name`, or else the first that serves `remote`
 * (NULL: any remote), or NULL. */
static const struct irjackd_transmitter *find_transmitter(const struct service *sv,
							  const char *name, const char *remote)
{
	for (unsigned i = 0; i < sv->cfg->transmitter_count; i++) {
		const struct irjackd_transmitter *t = &sv->cfg->transmitters[i];
		char list[IRJACKD_PATH_MAX], *save = NULL;

		if (name && name[0]) {
			if (!strcmp(t->name, name))
				return t;
			continue;
		}
		if (!t->remotes[0] || !remote)
			return t;
		snprintf(list, sizeof(list), "%s", t->remotes);
		for (char *r = strtok_r(list, ",", &save); r; r = strtok_r(NULL, ",", &save))
			if (!strcasecmp(r, remote))
				return t;
	}
	return NULL;
}

static int transmit(const struct irjackd_transmitter *tx, const struct ir_edge_buf *edges,
		    char *error, size_t error_size)
{
	FILE *f;
	int ret;

	if (tx->type != IRJACKD_TX_FILE) {
		snprintf(error, error_size, "transmitter %s: type %s not supported by this build yet",
			 tx->name, irjackd_tx_type_name(tx->type));
		return -ENOTSUP;
	}
	f = fopen(tx->device, "a");
	if (!f) {
		ret = -errno;
		snprintf(error, error_size, "%s: %s", tx->device, strerror(errno));
		return ret;
	}
	ret = ir_timing_write_mode2(f, edges->edges, edges->len);
	if (fclose(f) != 0 && ret == 0)
		ret = -errno;
	return ret;
}

/* SEND_* from lircd clients, to the first transmitter that serves the
 * remote. */
static int on_send(void *userdata, enum ir_lircd_send kind, const char *remote, const char *key,
		   unsigned repeats, char *error, size_t error_size)
{
	struct service *sv = userdata;
	const struct irjackd_transmitter *tx = find_transmitter(sv, NULL, remote);
	struct ir_edge_buf edges = { 0 };
	int ret;

	if (!tx) {
		snprintf(error, error_size, "no transmitter for remote \"%s\"", remote);
		return -ENODEV;
	}
	if (kind == IR_LIRCD_SEND_STOP)
		return 0;
	ret = ir_keymap_encode(sv->km, remote, key, kind == IR_LIRCD_SEND_START ? 0 : repeats,
			       &edges);
	if (ret == 0)
		ret = transmit(tx, &edges, error, error_size);
	ir_edge_buf_free(&edges);
	return ret;
}

/* Transmit requests from MQTT (already parsed and bounded, see
 * send_request.h), on this thread. */
static int on_mqtt_send(void *userdata, const struct irjackd_send_request *req, char *error,
			size_t error_size)
{
	struct service *sv = userdata;
	const char *remote = req->kind == IRJACKD_SEND_KEY ? req->remote : NULL;
	const struct irjackd_transmitter *tx = find_transmitter(sv, req->transmitter, remote);
	struct ir_encode_opts opts = { .repeats = req->repeats };
	struct ir_edge_buf edges = { 0 };
	int ret = 0;

	if (!tx) {
		if (req->transmitter[0])
			snprintf(error, error_size, "no transmitter named \"%s\"", req->transmitter);
		else if (remote)
			snprintf(error, error_size, "no transmitter for remote \"%s\"", remote);
		else
			snprintf(error, error_size, "no transmitter configured");
		return -ENODEV;
	}
	switch (req->kind) {
	case IRJACKD_SEND_KEY:
		ret = ir_keymap_encode(sv->km, req->remote, req->key, req->repeats, &edges);
		if (ret == -ENOENT)
			snprintf(error, error_size, "unknown remote or key: %s %s", req->remote,
				 req->key);
		break;
	case IRJACKD_SEND_SCANCODE:
		ret = ir_encode(req->protocol, req->scancode, &opts, &edges);
		break;
	case IRJACKD_SEND_RAW:
		for (size_t i = 0; i < req->raw_count && ret == 0; i++)
			ret = ir_edge_buf_push(&edges, i % 2 ? ir_space(req->raw[i])
							     : ir_pulse(req->raw[i]));
		break;
	}
	if (ret == 0)
		ret = transmit(tx, &edges, error, error_size);
	else if (!error[0])
		snprintf(error, error_size, "cannot encode: %s", strerror(-ret));
	ir_edge_buf_free(&edges);
	return ret;
}

/* ---- the loop ---- */

/* Source time now. */
static uint64_t now_source_us(const struct service *sv)
{
	return monotonic_us() - sv->start_us;
}

/* Replays what is due; returns the next due source time, or UINT64_MAX. */
static uint64_t replay_due(struct service *sv)
{
	uint64_t now = now_source_us(sv), next = UINT64_MAX;

	for (unsigned i = 0; i < sv->source_count; i++) {
		struct source *s = &sv->sources[i];
		uint64_t up;

		if (!s->shifted) {
			/* frames in service time: after the source's replay delay */
			for (size_t k = 0; k < s->count; k++) {
				s->frames[k].start_us += s->cfg->replay_delay_ms * 1000ull;
				s->frames[k].end_us += s->cfg->replay_delay_ms * 1000ull;
			}
			s->shifted = true;
		}
		while (s->next < s->count && s->frames[s->next].end_us <= now) {
			print_json(sv, s, &s->frames[s->next]);
			publish_mqtt(sv, s->cfg->name, &s->frames[s->next]);
			ir_keypress_frame(s->keys, &s->frames[s->next]);
			s->next++;
		}
		ir_keypress_advance(s->keys, now);
		if (s->next < s->count && s->frames[s->next].end_us < next)
			next = s->frames[s->next].end_us;
		up = ir_keypress_keyup_due(s->keys);
		if (up && up < next)
			next = up;
	}
	return next;
}

static bool all_replayed(const struct service *sv)
{
	for (unsigned i = 0; i < sv->source_count; i++)
		if (sv->sources[i].next < sv->sources[i].count ||
		    ir_keypress_keyup_due(sv->sources[i].keys))
			return false;
	return true;
}

static int loop(struct service *sv, int sigfd)
{
	struct pollfd fds[IR_LIRCD_MAX_CLIENTS + 3];

	while (!sv->stop) {
		uint64_t next = replay_due(sv), now;
		size_t n = 0;
		int timeout = -1;

		if (!sv->lircd && !sv->uinput && !sv->mqtt && all_replayed(sv))
			break;
		fds[n++] = (struct pollfd){ .fd = sigfd, .events = POLLIN };
		if (sv->mqtt)
			fds[n++] = (struct pollfd){ .fd = ir_mqtt_fd(sv->mqtt), .events = POLLIN };
		if (sv->lircd)
			n += ir_lircd_fds(sv->lircd, fds + n, sizeof(fds) / sizeof(fds[0]) - n);
		now = now_source_us(sv);
		if (next != UINT64_MAX)
			timeout = next <= now ? 0 : (int)((next - now + 999) / 1000);
		if (poll(fds, n, timeout) < 0 && errno != EINTR)
			return -errno;
		if (fds[0].revents & POLLIN) {
			struct signalfd_siginfo si;

			if (read(sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
				if (si.ssi_signo == SIGHUP)
					fprintf(stderr, "irjackd: SIGHUP: reload is not supported by "
							"this build yet; keeping the running configuration\n");
				else
					sv->stop = true;
			}
		}
		if (sv->mqtt && (fds[1].revents & POLLIN))
			ir_mqtt_process(sv->mqtt);
		if (sv->lircd)
			ir_lircd_process(sv->lircd);
	}
	return 0;
}

int irjackd_run(const struct irjackd_config *cfg, struct ir_keymap *km)
{
	static struct service sv;
	struct sigaction ignore = { .sa_handler = SIG_IGN };
	sigset_t mask;
	int sigfd, ret = 0;

	memset(&sv, 0, sizeof(sv));
	sv.cfg = cfg;
	sv.km = km;
	sigaction(SIGPIPE, &ignore, NULL);
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	sigfd = signalfd(-1, &mask, SFD_CLOEXEC);
	if (sigfd < 0)
		return -errno;
	if (cfg->json) {
		sv.json = strcmp(cfg->json_path, "-") == 0 ? stdout : fopen(cfg->json_path, "a");
		if (!sv.json) {
			ret = -errno;
			fprintf(stderr, "irjackd: %s: %s\n", cfg->json_path, strerror(errno));
			goto out;
		}
	}
	for (unsigned i = 0; i < cfg->source_count; i++) {
		struct source *s = &sv.sources[sv.source_count];

		s->cfg = &cfg->sources[i];
		if (s->cfg->type != IRJACKD_SOURCE_FILE) {
			fprintf(stderr, "irjackd: source %s: type %s is not supported by this build yet\n",
				s->cfg->name, irjackd_source_type_name(s->cfg->type));
			ret = -ENOTSUP;
			goto out;
		}
		sv.source_count++;
		ret = ir_keypress_new(km, on_key, &sv, &s->keys);
		if (ret < 0)
			goto out;
		ir_keypress_set_keyup_timeout(s->keys, cfg->keyup_timeout_ms * 1000);
		ret = decode_file(s, km);
		if (ret < 0)
			goto out;
	}
	if (cfg->lircd) {
		struct ir_lircd_config lc = {
			.path = cfg->lircd_path,
			.mode = cfg->lircd_mode,
			.allow_simulate = cfg->lircd_simulate,
			.keymap = km,
			.send = on_send,
			.userdata = &sv,
		};

		ret = ir_lircd_new(&lc, &sv.lircd);
		if (ret < 0) {
			fprintf(stderr, "irjackd: lircd socket %s: %s\n", cfg->lircd_path, strerror(-ret));
			goto out;
		}
	}
	if (cfg->uinput) {
		struct ir_uinput_config uc = {
			.name = cfg->uinput_name,
			.vendor = cfg->uinput_vendor,
			.product = cfg->uinput_product,
			.keymap = km,
		};

		ret = ir_uinput_new(&uc, &sv.uinput);
		if (ret < 0) {
			fprintf(stderr, "irjackd: uinput: %s (is /dev/uinput there and writable?)\n",
				strerror(-ret));
			goto out;
		}
		fprintf(stderr, "irjackd: uinput device %s\n", ir_uinput_devnode(sv.uinput));
	}
	if (cfg->mqtt) {
		static const char *names[IRJACKD_MAX_SOURCES];
		struct ir_mqtt_config mc = {
			.settings = &cfg->mqtt_cfg,
			.keymap = km,
			.source_names = names,
			.source_count = sv.source_count,
			.send = on_mqtt_send,
			.userdata = &sv,
		};
		char error[256];

		for (unsigned i = 0; i < sv.source_count; i++)
			names[i] = sv.sources[i].cfg->name;
		ret = ir_mqtt_new(&mc, &sv.mqtt, error, sizeof(error));
		if (ret < 0) {
			fprintf(stderr, "irjackd: mqtt: %s\n", error);
			goto out;
		}
	}
	sv.start_us = monotonic_us();
	ret = loop(&sv, sigfd);
	for (unsigned i = 0; i < sv.source_count; i++)
		ir_keypress_release(sv.sources[i].keys, now_source_us(&sv));
out:
	ir_mqtt_free(sv.mqtt);
	ir_lircd_free(sv.lircd);
	ir_uinput_free(sv.uinput);
	for (unsigned i = 0; i < sv.source_count; i++) {
		ir_keypress_free(sv.sources[i].keys);
		free(sv.sources[i].frames);
	}
	if (sv.json && sv.json != stdout)
		fclose(sv.json);
	close(sigfd);
	return ret;
}
