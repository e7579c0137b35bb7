/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irjackd_run.c - the service loop: one poll() over the signals
 * (signalfd), every source's descriptor, and the lircd socket; timers for
 * key-ups come from the poll timeout.
 *
 * Every source (sound card, /dev/lircN, USB, or a recording replayed in
 * real time) is a src/pipeline/ir_source.h source with its own decoder state;
 * its capture thread, if any, never waits for this loop.  Frames are moved
 * from the source's clock to the service's (monotonic) clock with an
 * offset that only grows, so a frame is never dated after its arrival and
 * key-ups are never early.
 *
 * SIGHUP reloads the configuration and keymaps: a configuration or keymap
 * that does not load is rejected and the running one stays; otherwise the
 * sources are reopened with the new settings, the lircd socket (clients
 * stay connected) and the uinput device are kept when their settings did
 * not change (uinput is recreated only if it lacks a key the new keymaps
 * bind); the MQTT output is kept (connection, offline queue and status)
 * when its settings did not change, taking the new keymap and announcing
 * its buttons, and made anew otherwise.
 *
 * Transmitters: `alsa` (carrier synthesized on a headphone output), `lirc`
 * (/dev/lircN), `mceusb` (through the running mceusb source: a USB device
 * has one owner) and `file` (mode2 text appended, for tests).  Requests
 * come from the lircd socket (SEND_ONCE, SET_TRANSMITTERS) and MQTT.
 */
#include "irjackd.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/signalfd.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>
#ifdef IRJACK_HAVE_LIBSYSTEMD
#include <systemd/sd-daemon.h>
#endif

#include "ir_audio_alsa_out.h"
#include "ir_decoder.h"
#include "ir_frame_format.h"
#include "ir_keymap_file.h"
#include "ir_keypress.h"
#include "ir_source.h"
#include "ir_synth.h"
#include "ir_timing_io.h"
#include "out_lircd.h"
#include "out_mqtt.h"
#include "out_uinput.h"
#ifdef IRJACK_HAVE_LIRC_DEV
#include "ir_lirc_tx.h"
#endif

/* Unread JSON lines kept for a slow reader before newer ones are dropped. */
#define JSON_BUF_MAX (64 * 1024)

/* Sources without a pollable descriptor are dispatched this often. */
#define POLL_TICK_MS 5

/* ---- logging ---- */

static int log_level = LOG_INFO;

void irjackd_set_log_level(int level)
{
	log_level = level;
}

void irjackd_log(int level, const char *fmt, ...)
{
	static const char *const names[] = {
		[LOG_ERR] = "error", [LOG_WARNING] = "warning", [LOG_NOTICE] = "notice",
		[LOG_INFO] = "info", [LOG_DEBUG] = "debug",
	};
	char line[1024];
	va_list ap;

	if (level > log_level)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (getenv("JOURNAL_STREAM"))
		fprintf(stderr, "<%d>%s\n", level, line);
	else
		fprintf(stderr, "irjackd: %s%s%s\n",
			level <= LOG_WARNING && level >= LOG_ERR ? names[level] : "",
			level <= LOG_WARNING ? ": " : "", line);
}

static void notify(const char *state)
{
#ifdef IRJACK_HAVE_LIBSYSTEMD
	sd_notify(0, state);
#else
	(void)state;
#endif
}

int irjackd_load_keymaps(const struct irjackd_config *cfg, struct ir_keymap **out)
{
	struct ir_keymap *km;
	int ret = ir_keymap_new(&km);

	if (ret < 0)
		return ret;
	for (unsigned i = 0; i < cfg->keymap_count; i++) {
		struct ir_keymap_error err = { 0 };

		ret = ir_keymap_load(km, cfg->keymaps[i], &err);
		if (ret < 0) {
			if (err.parse.line)
				irjackd_log(LOG_ERR, "%s:%u: %s", err.file, err.parse.line,
					    err.parse.message);
			else
				irjackd_log(LOG_ERR, "%s: %s", err.file[0] ? err.file : cfg->keymaps[i],
					    err.parse.message[0] ? err.parse.message : strerror(-ret));
			ir_keymap_free(km);
			return ret;
		}
	}
	*out = km;
	return 0;
}

/* ---- state ---- */

struct service;

struct source {
	struct service *sv;
	const struct irjackd_source *cfg;
	struct ir_source *src;
	struct ir_keypress *keys;
	struct ir_protocol_set enabled;
	int64_t offset_us;   /* service time minus source time */
	bool offset_known;
	bool ended;          /* a finite source that has delivered everything, or failed */
	char state[96];      /* "running", or what happened last */
	char last[128];      /* the last frame, as text */
	uint64_t last_us;    /* when (service time) */
};

/* What one configuration runs: replaced as a whole on reload. */
struct generation {
	struct irjackd_config *cfg;
	struct ir_keymap *km;
	struct source sources[IRJACKD_MAX_SOURCES];
	unsigned source_count;
};

/* SEND_START's button: sent again every frame period until SEND_STOP, at
 * most SEND_REPEAT_MAX times (lircd's --repeat-max default). */
#define SEND_REPEAT_MAX 600
/* The carrier a transmission is meant for; 0 fields: the transmitter's
 * defaults (38 kHz, its own duty cycle). */
struct tx_carrier {
	uint32_t hz;
	unsigned duty_pct;
};
struct send_repeat {
	bool active;
	char remote[IR_LIRCD_LINE_MAX], key[IR_LIRCD_LINE_MAX];
	unsigned mask;               /* the transmitters */
	struct tx_carrier carrier;
	struct ir_edge_buf chunk;    /* one repeat code (or frame) and the gap to the next */
	uint64_t chunk_us;
	uint64_t due_us;             /* service time the next repeat starts */
	unsigned sent;
};

struct service {
	const char *config_path;
	struct generation *gen;
	int json_fd;         /* -1: no JSON output */
	char json_path[IRJACKD_PATH_MAX];
	char *json_buf;      /* lines not yet taken by a slow reader (JSON_BUF_MAX) */
	size_t json_len;
	uint64_t json_dropped;
	bool json_dropping;  /* in a run of dropped lines (warned once per run) */
	struct ir_lircd *lircd;
	struct ir_uinput *uinput;
	struct ir_mqtt *mqtt;
	unsigned tx_mask;    /* SET_TRANSMITTERS; 0: chosen per remote */
	struct send_repeat repeat;
	uint64_t start_us;   /* monotonic time of service time 0 */
	uint64_t reloads, reload_failures;
	bool stop;
};

static uint64_t monotonic_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static uint64_t now_us(const struct service *sv)
{
	return monotonic_us() - sv->start_us;
}

/* ---- outputs ---- */

/* Writes what the JSON reader takes now; never waits.  A reader that
 * fails for good (EPIPE, disk full) loses the buffer, once logged. */
static void json_flush(struct service *sv)
{
	while (sv->json_len > 0) {
		ssize_t n = write(sv->json_fd, sv->json_buf, sv->json_len);

		if (n > 0) {
			memmove(sv->json_buf, sv->json_buf + n, sv->json_len - (size_t)n);
			sv->json_len -= (size_t)n;
		} else if (n < 0 && errno == EINTR) {
			continue;
		} else if (n < 0 && errno == EAGAIN) {
			return;
		} else {
			irjackd_log(LOG_ERR, "json output %s: %s; %zu bytes lost", sv->json_path,
				    n < 0 ? strerror(errno) : "nothing written", sv->json_len);
			sv->json_dropped++;
			sv->json_len = 0;
		}
	}
}

static void print_json(struct service *sv, const struct source *s, const struct ir_frame *f)
{
	struct ir_frame_labels labels = { .source = s->cfg->name };
	struct ir_key_binding key;
	char line[1024];

	size_t n;

	if (sv->json_fd < 0)
		return;
	if (ir_keymap_lookup(sv->gen->km, f, &key)) {
		labels.key = key.key;
		labels.remote = key.remote;
	}
	ir_frame_format_json(f, &labels, line, sizeof(line));
	n = strlen(line);
	/* A reader that does not keep up (a stopped pipe) costs at most the
	 * buffer: newer lines are dropped and counted, the service never
	 * waits for it. */
	if (sv->json_len + n > JSON_BUF_MAX) {
		sv->json_dropped++;
		if (!sv->json_dropping)
			irjackd_log(LOG_WARNING, "json output %s: the reader is not keeping up; "
						 "dropping lines", sv->json_path);
		sv->json_dropping = true;
	} else {
		memcpy(sv->json_buf + sv->json_len, line, n);
		sv->json_len += n;
		sv->json_dropping = false;
	}
	json_flush(sv);
}

static void on_key(void *userdata, const struct ir_key_event *ev)
{
	struct source *s = userdata;
	struct service *sv = s->sv;

	if (sv->lircd)
		ir_lircd_broadcast(sv->lircd, ev);
	if (sv->uinput && ir_uinput_event(sv->uinput, ev) < 0)
		irjackd_log(LOG_WARNING, "uinput: cannot write an event");
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

static void on_frame(void *userdata, const struct ir_frame *frame)
{
	struct source *s = userdata;
	struct service *sv = s->sv;
	struct ir_frame f = *frame;
	uint64_t now = now_us(sv);
	int64_t lag = (int64_t)now - (int64_t)frame->end_us;
	struct ir_key_binding key;

	if (!s->offset_known || lag > s->offset_us) {
		s->offset_us = lag;
		s->offset_known = true;
	}
	f.start_us = (uint64_t)((int64_t)f.start_us + s->offset_us);
	f.end_us = (uint64_t)((int64_t)f.end_us + s->offset_us);
	print_json(sv, s, frame);
	if (sv->mqtt)
		ir_mqtt_frame(sv->mqtt, s->cfg->name, frame,
			      ir_keymap_lookup(sv->gen->km, frame, &key) ? &key : NULL);
	ir_keypress_frame(s->keys, &f);
	ir_frame_format_text(frame,
			     &(struct ir_frame_labels){
				     .key = ir_keymap_lookup(sv->gen->km, frame, &key) ? key.key : NULL,
			     },
			     s->last, sizeof(s->last));
	compact_frame_text(s->last);
	s->last_us = now;
	irjackd_log(LOG_DEBUG, "source %s: %s", s->cfg->name, s->last);
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

/* ---- transmit ---- */

static int transmit_audio(const struct irjackd_transmitter *tx, const struct ir_edge_buf *edges,
			  const struct tx_carrier *carrier, char *error, size_t error_size)
{
	struct ir_synth_config sc;
	struct ir_alsa_out *o;
	struct ir_synth *s;
	float block[2 * 1024];
	size_t n;
	int ret;

	ir_synth_config_default(&sc);
	sc.sample_rate = 48000;
	sc.carrier_hz = carrier->hz ? carrier->hz : 38000;
	if (carrier->duty_pct)
		sc.duty_pct = carrier->duty_pct;
	sc.amplitude = (float)tx->volume;
	if (tx->mode[0] && ir_synth_mode_from_name(tx->mode, &sc.mode) < 0) {
		snprintf(error, error_size, "transmitter %s: unknown mode %s", tx->name, tx->mode);
		return -EINVAL;
	}
	ret = ir_synth_new(&sc, edges->edges, edges->len, &s);
	if (ret < 0) {
		snprintf(error, error_size, "transmitter %s: cannot synthesize: %s", tx->name,
			 strerror(-ret));
		return ret;
	}
	ret = ir_alsa_out_new(tx->device[0] ? tx->device : "default", sc.sample_rate, &o);
	if (ret < 0) {
		snprintf(error, error_size, "transmitter %s: %s: %s", tx->name, tx->device,
			 strerror(-ret));
		ir_synth_free(s);
		return ret;
	}
	while ((n = ir_synth_generate(s, block, 1024)) > 0)
		if ((ret = ir_alsa_out_write(o, block, n)) < 0)
			break;
	if (ret >= 0)
		ret = ir_alsa_out_drain(o);
	if (ret < 0)
		snprintf(error, error_size, "transmitter %s: playback failed: %s", tx->name,
			 strerror(-ret));
	ir_alsa_out_free(o);
	ir_synth_free(s);
	return ret < 0 ? ret : 0;
}

static int transmit_lirc(const struct irjackd_transmitter *tx, const struct ir_edge_buf *edges,
			 const struct tx_carrier *carrier, char *error, size_t error_size)
{
#ifdef IRJACK_HAVE_LIRC_DEV
	const char *path = tx->device[0] ? tx->device : "/dev/lirc0";
	struct ir_lirc_tx *lt;
	int ret;

	if (!strncmp(path, "lirc:", 5))
		path += 5;
	ret = ir_lirc_tx_open(path, &lt);
	if (ret < 0) {
		snprintf(error, error_size, "transmitter %s: %s: %s", tx->name, path, strerror(-ret));
		return ret;
	}
	/* a device without carrier or duty control sends anyway, as lircd */
	ret = ir_lirc_tx_set_carrier(lt, carrier->hz ? carrier->hz : 38000);
	if (ret == 0 && carrier->duty_pct)
		ret = ir_lirc_tx_set_duty_cycle(lt, carrier->duty_pct);
	if (ret < 0 && ret != -ENOTSUP && ret != -ENOTTY)
		irjackd_log(LOG_WARNING, "transmitter %s: carrier not set: %s", tx->name,
			    strerror(-ret));
	ret = ir_lirc_tx_send_edges(lt, edges->edges, edges->len);
	if (ret < 0)
		snprintf(error, error_size, "transmitter %s: %s: %s", tx->name, path, strerror(-ret));
	ir_lirc_tx_free(lt);
	return ret;
#else
	(void)edges;
	(void)carrier;
	snprintf(error, error_size, "transmitter %s: LIRC devices are not supported by this build",
		 tx->name);
	return -ENOTSUP;
#endif
}

/* An MCE transceiver sends through the source that holds it: a USB device
 * has one owner. */
static int transmit_usb(struct service *sv, const struct irjackd_transmitter *tx,
			const struct ir_edge_buf *edges, const struct tx_carrier *carrier,
			char *error, size_t error_size)
{
	struct generation *g = sv->gen;

	for (unsigned i = 0; i < g->source_count; i++) {
		const struct source *s = &g->sources[i];

		if (s->cfg->type != IRJACKD_SOURCE_MCEUSB || s->ended)
			continue;
		if (tx->device[0] && strcmp(tx->device, s->cfg->device))
			continue;
		return ir_source_transmit(s->src, edges->edges, edges->len,
					  carrier->hz ? carrier->hz : 38000, 0, error, error_size);
	}
	snprintf(error, error_size,
		 "transmitter %s: no running [source] of type mceusb%s%s to send through", tx->name,
		 tx->device[0] ? " with device " : "", tx->device);
	return -ENODEV;
}

static int transmit_file(const struct irjackd_transmitter *tx, const struct ir_edge_buf *edges,
			 char *error, size_t error_size)
{
	FILE *f = fopen(tx->device, "a");
	int ret;

	if (!f) {
		ret = -errno;
		snprintf(error, error_size, "%s: %s", tx->device, strerror(errno));
		return ret;
	}
	ret = ir_timing_write_mode2(f, edges->edges, edges->len);
	if (fclose(f) != 0 && ret == 0)
		ret = -EIO;
	if (ret < 0)
		snprintf(error, error_size, "%s: %s", tx->device, strerror(-ret));
	return ret;
}

/* Audio and LIRC transmitters play synchronously (a frame is ~100 ms):
 * the loop waits, the capture threads do not. */
static int transmit(struct service *sv, const struct irjackd_transmitter *tx,
		    const struct ir_edge_buf *edges, const struct tx_carrier *carrier, char *error,
		    size_t error_size)
{
	switch (tx->type) {
	case IRJACKD_TX_ALSA:
		return transmit_audio(tx, edges, carrier, error, error_size);
	case IRJACKD_TX_FILE:
		return transmit_file(tx, edges, error, error_size);
	case IRJACKD_TX_LIRC:
		return transmit_lirc(tx, edges, carrier, error, error_size);
	case IRJACKD_TX_MCEUSB:
		return transmit_usb(sv, tx, edges, carrier, error, error_size);
	}
	snprintf(error, error_size, "transmitter %s: unknown type", tx->name);
	return -EINVAL;
}

static bool serves_remote(const struct irjackd_transmitter *t, const char *remote)
{
	char list[IRJACKD_PATH_MAX], *save = NULL;

	if (!t->remotes[0] || !remote)
		return true;
	snprintf(list, sizeof(list), "%s", t->remotes);
	for (char *r = strtok_r(list, ",", &save); r; r = strtok_r(NULL, ",", &save))
		if (!strcasecmp(r, remote))
			return true;
	return false;
}

/*
 * Where a request goes, as a mask over the configured transmitters (bit n
 * for the n-th): the one named `name`; else those SET_TRANSMITTERS chose;
 * else the first that serves `remote` (NULL: any).  0: none.
 */
static unsigned transmitters_for(const struct service *sv, const char *name, const char *remote)
{
	const struct irjackd_config *cfg = sv->gen->cfg;

	if (name && name[0]) {
		for (unsigned i = 0; i < cfg->transmitter_count; i++)
			if (!strcmp(cfg->transmitters[i].name, name))
				return 1u << i;
		return 0;
	}
	if (sv->tx_mask)
		return sv->tx_mask & ((1u << cfg->transmitter_count) - 1);
	for (unsigned i = 0; i < cfg->transmitter_count; i++)
		if (serves_remote(&cfg->transmitters[i], remote))
			return 1u << i;
	return 0;
}

/* Sends `edges` through every transmitter in `mask`; the first error is
 * the one reported. */
static int transmit_mask(struct service *sv, unsigned mask, const struct ir_edge_buf *edges,
			 const struct tx_carrier *carrier, char *error, size_t error_size)
{
	const struct irjackd_config *cfg = sv->gen->cfg;
	int first = 0;

	for (unsigned i = 0; i < cfg->transmitter_count; i++) {
		char err[1024] = "";
		int ret;

		if (!(mask & (1u << i)))
			continue;
		ret = transmit(sv, &cfg->transmitters[i], edges, carrier, err, sizeof(err));
		if (ret < 0) {
			irjackd_log(LOG_WARNING, "%s", err);
			if (!first) {
				first = ret;
				snprintf(error, error_size, "%s", err);
			}
		}
	}
	return first;
}

static void repeat_stop(struct service *sv, const char *why)
{
	struct send_repeat *rp = &sv->repeat;

	if (!rp->active)
		return;
	irjackd_log(LOG_INFO, "send %s %s: repeated %u time%s, %s", rp->remote, rp->key, rp->sent,
		    rp->sent == 1 ? "" : "s", why);
	ir_edge_buf_free(&rp->chunk);
	rp->active = false;
}

static bool same_edges(const struct ir_edge *a, const struct ir_edge *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i].kind != b[i].kind || a[i].duration != b[i].duration)
			return false;
	return true;
}

/*
 * SEND_START: the button once and its first repeat's lead-in, then one
 * repeat each frame period from the loop (repeat_due).  The encoder's
 * output for 0, 1 and 2 repeats shows where a repeat starts and how long
 * one lasts with its gap; a remote whose repeats are not a plain suffix
 * (alternating codes) repeats its whole first frame instead.
 */
static int repeat_start(struct service *sv, unsigned mask, const char *remote, const char *key,
			char *error, size_t error_size)
{
	struct send_repeat *rp = &sv->repeat;
	struct ir_edge_buf e[3] = { { 0 } };
	struct ir_edge_buf first = { 0 };
	uint64_t start = now_us(sv);
	int ret = 0;

	for (unsigned r = 0; r < 3 && ret == 0; r++)
		ret = ir_keymap_encode(sv->gen->km, remote, key, r, &e[r]);
	if (ret < 0) {
		snprintf(error, error_size, "cannot encode %s %s: %s", remote, key, strerror(-ret));
		goto out;
	}
	memset(&rp->carrier, 0, sizeof(rp->carrier));
	ir_keymap_carrier(sv->gen->km, remote, key, &rp->carrier.hz, &rp->carrier.duty_pct);
	size_t n0 = e[0].len, n1 = e[1].len;
	if (n0 >= 2 && n1 > n0 && e[2].len > n1 && same_edges(e[0].edges, e[1].edges, n0 - 1) &&
	    same_edges(e[1].edges, e[2].edges, n1 - 1)) {
		/* the frame with the gap to its first repeat; then repeat + gap */
		ret = ir_edge_buf_append(&first, e[1].edges, n0);
		if (ret == 0)
			ret = ir_edge_buf_append(&rp->chunk, e[2].edges + n0, n1 - n0);
	} else {
		ret = ir_edge_buf_append(&first, e[0].edges, n0);
		if (ret == 0)
			ret = ir_edge_buf_append(&rp->chunk, e[0].edges, n0);
	}
	if (ret < 0) {
		snprintf(error, error_size, "%s", strerror(-ret));
		ir_edge_buf_free(&rp->chunk);
		goto out;
	}
	ret = transmit_mask(sv, mask, &first, &rp->carrier, error, error_size);
	if (ret < 0) {
		ir_edge_buf_free(&rp->chunk);
		goto out;
	}
	snprintf(rp->remote, sizeof(rp->remote), "%s", remote);
	snprintf(rp->key, sizeof(rp->key), "%s", key);
	rp->mask = mask;
	rp->chunk_us = ir_edge_buf_duration(&rp->chunk);
	rp->due_us = start + ir_edge_buf_duration(&first);
	rp->sent = 0;
	rp->active = rp->chunk_us > 0;
	if (!rp->active)
		ir_edge_buf_free(&rp->chunk);
out:
	for (unsigned r = 0; r < 3; r++)
		ir_edge_buf_free(&e[r]);
	ir_edge_buf_free(&first);
	return ret;
}

/* The next repeat of SEND_START's button, if it is due. */
static void repeat_due(struct service *sv)
{
	struct send_repeat *rp = &sv->repeat;
	char error[1024] = "";
	uint64_t now;

	if (!rp->active || (now = now_us(sv)) < rp->due_us)
		return;
	if (transmit_mask(sv, rp->mask, &rp->chunk, &rp->carrier, error, sizeof(error)) < 0) {
		repeat_stop(sv, "stopped by a transmit error");
		return;
	}
	rp->sent++;
	/* Keep the period; after a stall (a slow transmitter) restart from now
	 * rather than sending the missed repeats back to back. */
	rp->due_us += rp->chunk_us;
	if (rp->due_us + rp->chunk_us < now)
		rp->due_us = now;
	if (rp->sent >= SEND_REPEAT_MAX)
		repeat_stop(sv, "the limit (SEND_STOP never came)");
}

/*
 * SEND_* from lircd clients, with lircd's rules: one button repeats at a
 * time; SEND_ONCE waits for none (refused while repeating); SEND_STOP
 * names the repeating button, or leaves out its key, or both.
 */
static int on_send(void *userdata, enum ir_lircd_send kind, const char *remote, const char *key,
		   unsigned repeats, char *error, size_t error_size)
{
	struct service *sv = userdata;
	unsigned mask = transmitters_for(sv, NULL, remote);
	struct ir_edge_buf edges = { 0 };
	struct tx_carrier carrier = { 0 };
	int ret;

	if (kind == IR_LIRCD_SEND_STOP) {
		if (!sv->repeat.active) {
			snprintf(error, error_size, "not repeating");
			return -EINVAL;
		}
		if (remote[0] && strcasecmp(remote, sv->repeat.remote)) {
			snprintf(error, error_size, "specified remote does not match");
			return -EINVAL;
		}
		if (key[0] && strcasecmp(key, sv->repeat.key)) {
			snprintf(error, error_size, "specified code does not match");
			return -EINVAL;
		}
		repeat_stop(sv, "SEND_STOP");
		return 0;
	}
	if (sv->repeat.active) {
		snprintf(error, error_size, kind == IR_LIRCD_SEND_START ? "already repeating"
									: "busy: repeating");
		return -EBUSY;
	}
	if (!mask) {
		snprintf(error, error_size, "no transmitter for remote \"%s\"", remote);
		return -ENODEV;
	}
	if (kind == IR_LIRCD_SEND_START) {
		ret = repeat_start(sv, mask, remote, key, error, error_size);
		goto out;
	}
	ret = ir_keymap_encode(sv->gen->km, remote, key, repeats, &edges);
	if (ret < 0) {
		snprintf(error, error_size, "cannot encode %s %s: %s", remote, key, strerror(-ret));
	} else {
		ir_keymap_carrier(sv->gen->km, remote, key, &carrier.hz, &carrier.duty_pct);
		ret = transmit_mask(sv, mask, &edges, &carrier, error, error_size);
	}
out:
	if (ret < 0)
		irjackd_log(LOG_WARNING, "send %s %s: %s", remote, key, error);
	ir_edge_buf_free(&edges);
	return ret;
}

/* SET_TRANSMITTERS: bit n-1 for the n-th [transmitter] of the config. */
static int on_set_transmitters(void *userdata, unsigned mask, char *error, size_t error_size)
{
	struct service *sv = userdata;
	unsigned count = sv->gen->cfg->transmitter_count;

	if (count < 32 && (mask >> count)) {
		snprintf(error, error_size, "cannot set transmitters: %u configured", count);
		return -EINVAL;
	}
	sv->tx_mask = mask;
	irjackd_log(LOG_INFO, "transmitters set to mask 0x%x", mask);
	return 0;
}

/* Transmit requests from MQTT (already parsed and bounded, see
 * send_request.h), on this thread. */
static int on_mqtt_send(void *userdata, const struct irjackd_send_request *req, char *error,
			size_t error_size)
{
	struct service *sv = userdata;
	const char *remote = req->kind == IRJACKD_SEND_KEY ? req->remote : NULL;
	unsigned mask = transmitters_for(sv, req->transmitter, remote);
	struct ir_encode_opts opts = { .repeats = req->repeats };
	struct ir_edge_buf edges = { 0 };
	struct tx_carrier carrier = { 0 };
	const struct ir_protocol_info *info;
	int ret = 0;

	if (!mask) {
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
		ret = ir_keymap_encode(sv->gen->km, req->remote, req->key, req->repeats, &edges);
		if (ret == -ENOENT)
			snprintf(error, error_size, "unknown remote or key: %s %s", req->remote,
				 req->key);
		else if (ret == 0)
			ir_keymap_carrier(sv->gen->km, req->remote, req->key, &carrier.hz,
					  &carrier.duty_pct);
		break;
	case IRJACKD_SEND_SCANCODE:
		ret = ir_encode(req->protocol, req->scancode, &opts, &edges);
		info = ir_protocol_get(req->protocol);
		if (info) {
			carrier.hz = info->carrier_hz;
			carrier.duty_pct = info->duty_cycle;
		}
		break;
	case IRJACKD_SEND_RAW:
		for (size_t i = 0; i < req->raw_count && ret == 0; i++)
			ret = ir_edge_buf_push(&edges, i % 2 ? ir_space(req->raw[i])
							     : ir_pulse(req->raw[i]));
		break;
	}
	if (ret == 0)
		ret = transmit_mask(sv, mask, &edges, &carrier, error, error_size);
	else if (!error[0])
		snprintf(error, error_size, "cannot encode: %s", strerror(-ret));
	ir_edge_buf_free(&edges);
	return ret;
}

static void log_lircd(void *userdata, const char *message)
{
	(void)userdata;
	irjackd_log(LOG_WARNING, "lircd socket: %s", message);
}

/* ---- status (the STATUS command on the lircd socket; `irjack status`) ---- */

static unsigned status_lines(void *userdata, char *buf, size_t size)
{
	struct service *sv = userdata;
	uint64_t now = now_us(sv);
	unsigned lines = 0;
	size_t len = 0;

#define ADD(...)                                                                     \
	do {                                                                         \
		if (len < size) {                                                    \
			int n_ = snprintf(buf + len, size - len, __VA_ARGS__);       \
			if (n_ > 0 && len + (size_t)n_ < size) {                     \
				len += (size_t)n_;                                   \
				lines++;                                             \
			} else {                                                     \
				buf[len] = '\0';                                     \
				len = size;                                          \
			}                                                            \
		}                                                                    \
	} while (0)

	ADD("irjackd " IRJACK_VERSION " up %" PRIu64 " s, config %s, reloads %" PRIu64
	    " (%" PRIu64 " rejected)\n",
	    now / 1000000u, sv->config_path, sv->reloads, sv->reload_failures);
	for (unsigned i = 0; i < sv->gen->source_count; i++) {
		struct source *s = &sv->gen->sources[i];
		struct ir_source_stats st;
		struct ir_signal_report r;
		char level[96] = "", last[192] = "last none";

		ir_source_stats(s->src, &st);
		/* a noise floor under −120 dBFS is digital silence: no SNR to speak of */
		if (ir_source_signal_report(s->src, &r) == 0) {
			if (r.noise < 1e-6)
				snprintf(level, sizeof(level), ", peak %.3f, noise none (digital silence)",
					 r.peak);
			else if (r.snr_db > 0)
				snprintf(level, sizeof(level), ", peak %.3f, snr %.1f dB", r.peak,
					 r.snr_db);
			else
				snprintf(level, sizeof(level), ", peak %.3f, snr unknown", r.peak);
		}
		if (s->last_us)
			snprintf(last, sizeof(last), "last %.120s %.1f s ago", s->last,
				 (double)(now - s->last_us) / 1e6);
		ADD("source %s %s:%s %s, %s %u Hz %u ch, frames %" PRIu64 ", xruns %" PRIu64
		    ", dropped %" PRIu64 ", reopens %" PRIu64 "%s, %s\n",
		    s->cfg->name, st.backend, st.device, s->state, st.format, st.rate, st.channels,
		    st.frames, st.xruns, st.dropped, st.reopens, level, last);
	}
	if (sv->lircd)
		ADD("output lircd %s, %zu client%s\n", sv->gen->cfg->lircd_path,
		    ir_lircd_client_count(sv->lircd), ir_lircd_client_count(sv->lircd) == 1 ? "" : "s");
	if (sv->uinput)
		ADD("output uinput %s\n", ir_uinput_devnode(sv->uinput));
	if (sv->json_fd >= 0)
		ADD("output json %s, %zu bytes waiting, %" PRIu64 " lines dropped\n", sv->json_path,
		    sv->json_len, sv->json_dropped);
	if (sv->mqtt) {
		struct ir_mqtt_stats ms;

		ir_mqtt_get_stats(sv->mqtt, &ms);
		ADD("output mqtt %s:%u, events %" PRIu64 ", published %" PRIu64 ", queued %" PRIu64
		    ", dropped %" PRIu64 ", connects %" PRIu64 ", requests %" PRIu64
		    " (%" PRIu64 " rejected)\n",
		    sv->gen->cfg->mqtt_cfg.host, sv->gen->cfg->mqtt_cfg.port, ms.events, ms.published,
		    ms.queued, ms.dropped, ms.connects, ms.requests, ms.rejected);
	}
	if (sv->repeat.active)
		ADD("repeating %.100s %.100s, %u repeat%s sent\n", sv->repeat.remote, sv->repeat.key,
		    sv->repeat.sent, sv->repeat.sent == 1 ? "" : "s");
#undef ADD
	return lines;
}

/* ---- sources ---- */

static int backend_spec(const struct irjackd_source *c, char *spec, size_t size)
{
	const char *d = c->device;

	switch (c->type) {
	case IRJACKD_SOURCE_ALSA:
		return snprintf(spec, size, "alsa:%s", d[0] ? d : "default");
	case IRJACKD_SOURCE_PORTAUDIO:
		return snprintf(spec, size, "portaudio:%s", d[0] ? d : "default");
	case IRJACKD_SOURCE_FILE:
		return snprintf(spec, size, "file:%s", d);
	case IRJACKD_SOURCE_LIRC:
		return snprintf(spec, size, "lirc%s%s", d[0] ? ":" : "", d);
	case IRJACKD_SOURCE_MCEUSB:
		return snprintf(spec, size, "usb:mceusb%s%s", d[0] ? ":" : "", d);
	case IRJACKD_SOURCE_IMON:
		return snprintf(spec, size, "usb:imon%s%s", d[0] ? ":" : "", d);
	}
	return -EINVAL;
}

static void close_sources(struct service *sv, struct generation *g)
{
	uint64_t now = now_us(sv);

	for (unsigned i = 0; i < g->source_count; i++) {
		struct source *s = &g->sources[i];

		if (s->keys)
			ir_keypress_release(s->keys, now);
		ir_source_free(s->src);
		ir_keypress_free(s->keys);
		memset(s, 0, sizeof(*s));
	}
	g->source_count = 0;
}

static int open_sources(struct service *sv, struct generation *g)
{
	const struct irjackd_config *cfg = g->cfg;

	for (unsigned i = 0; i < cfg->source_count; i++) {
		const struct irjackd_source *c = &cfg->sources[i];
		struct source *s = &g->sources[g->source_count];
		struct ir_protocol_set named;
		struct ir_source_options opt;
		struct ir_source_callbacks cb = {
			.frame = on_frame,
			.event = on_source_event,
			.userdata = s,
		};
		char spec[IRJACKD_PATH_MAX + 16], err[256];
		int ret;

		memset(s, 0, sizeof(*s));
		s->sv = sv;
		s->cfg = c;
		snprintf(s->state, sizeof(s->state), "running");
		/* a keymap's protocols are decoded even if the list leaves them out */
		s->enabled = c->protocols;
		ir_keymap_protocols(g->km, &named);
		for (unsigned p = 0; p < IR_PROTO_COUNT; p++)
			if (ir_protocol_set_has(&named, (enum ir_protocol)p))
				ir_protocol_set_add(&s->enabled, (enum ir_protocol)p);
		ir_source_options_init(&opt);
		opt.rate = c->rate;
		opt.channel = c->channel;
		opt.polarity = c->polarity;
		opt.timeout_us = c->timeout_us;
		opt.period_us = c->period_us;
		opt.protocols = &s->enabled;
		opt.keymap = g->km;
		opt.realtime = true;
		opt.paced = true;
		opt.start_delay_ms = c->replay_delay_ms;
		ret = ir_keypress_new(g->km, on_key, s, &s->keys);
		if (ret < 0)
			return ret;
		g->source_count++;
		ir_keypress_set_keyup_timeout(s->keys, cfg->keyup_timeout_ms * 1000);
		if (backend_spec(c, spec, sizeof(spec)) >= (int)sizeof(spec)) {
			irjackd_log(LOG_ERR, "source %s: device name too long", c->name);
			return -ENAMETOOLONG;
		}
		ret = ir_source_open(spec, &opt, &cb, &s->src, err, sizeof(err));
		if (ret < 0) {
			irjackd_log(LOG_ERR, "source %s (%s): %s", c->name, spec, err);
			return ret;
		}
		irjackd_log(LOG_INFO, "source %s: %s", c->name, spec);
	}
	return 0;
}

static void generation_free(struct service *sv, struct generation *g)
{
	if (!g)
		return;
	close_sources(sv, g);
	ir_keymap_free(g->km);
	free(g->cfg);
	free(g);
}

/* ---- outputs ---- */

/* What is still buffered when the output closes gets a second to go. */
static void close_json(struct service *sv)
{
	for (int waited = 0; sv->json_fd >= 0 && sv->json_len > 0 && waited < 1000; waited += 10) {
		struct pollfd p = { .fd = sv->json_fd, .events = POLLOUT };

		if (poll(&p, 1, 10) > 0)
			json_flush(sv);
	}
	if (sv->json_len > 0)
		irjackd_log(LOG_WARNING, "json output %s: %zu bytes not taken by the reader",
			    sv->json_path, sv->json_len);
	if (sv->json_fd > STDOUT_FILENO)
		close(sv->json_fd);
	sv->json_fd = -1;
	sv->json_len = 0;
	sv->json_path[0] = '\0';
}

static int open_json(struct service *sv, const struct irjackd_config *cfg)
{
	close_json(sv);
	if (!cfg->json)
		return 0;
	if (!sv->json_buf && !(sv->json_buf = malloc(JSON_BUF_MAX)))
		return -ENOMEM;
	if (strcmp(cfg->json_path, "-") == 0) {
		int flags = fcntl(STDOUT_FILENO, F_GETFL);

		sv->json_fd = STDOUT_FILENO;
		if (flags >= 0)
			fcntl(STDOUT_FILENO, F_SETFL, flags | O_NONBLOCK);
	} else {
		sv->json_fd = open(cfg->json_path,
				   O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NONBLOCK, 0644);
		if (sv->json_fd < 0) {
			int err = errno;

			irjackd_log(LOG_ERR, "%s: %s", cfg->json_path, strerror(err));
			return -err;
		}
	}
	snprintf(sv->json_path, sizeof(sv->json_path), "%s", cfg->json_path);
	return 0;
}

static int open_lircd(struct service *sv, const struct irjackd_config *cfg,
		      const struct ir_keymap *km)
{
	struct ir_lircd_config lc = {
		.path = cfg->lircd_path,
		.mode = cfg->lircd_mode,
		.allow_simulate = cfg->lircd_simulate,
		.keymap = km,
		.send = on_send,
		.set_transmitters = on_set_transmitters,
		.status = status_lines,
		.log = log_lircd,
		.userdata = sv,
	};
	int ret;

	if (!cfg->lircd)
		return 0;
	ret = ir_lircd_new(&lc, &sv->lircd);
	if (ret < 0)
		irjackd_log(LOG_ERR, "lircd socket %s: %s", cfg->lircd_path, strerror(-ret));
	return ret;
}

static int open_uinput(struct service *sv, const struct irjackd_config *cfg,
		       const struct ir_keymap *km)
{
	struct ir_uinput_config uc = {
		.name = cfg->uinput_name,
		.vendor = cfg->uinput_vendor,
		.product = cfg->uinput_product,
		.keymap = km,
	};
	int ret;

	if (!cfg->uinput)
		return 0;
	ret = ir_uinput_new(&uc, &sv->uinput);
	if (ret < 0) {
		irjackd_log(LOG_ERR, "uinput: %s (is /dev/uinput there and writable?)", strerror(-ret));
		return ret;
	}
	irjackd_log(LOG_INFO, "uinput device %s", ir_uinput_devnode(sv->uinput));
	return 0;
}

/* The MQTT output copies its settings and source names (from `names`,
 * filled here, IRJACKD_MAX_SOURCES long) but points at the generation's
 * keymap: a reload rebinds it (ir_mqtt_rebind) or makes it anew. */
static void mqtt_config_for(struct service *sv, const struct generation *g, const char **names,
			    struct ir_mqtt_config *mc)
{
	for (unsigned i = 0; i < g->cfg->source_count; i++)
		names[i] = g->cfg->sources[i].name;
	*mc = (struct ir_mqtt_config){
		.settings = &g->cfg->mqtt_cfg,
		.keymap = g->km,
		.source_names = names,
		.source_count = g->cfg->source_count,
		.send = on_mqtt_send,
		.userdata = sv,
	};
}

static int open_mqtt(struct service *sv, const struct generation *g)
{
	const char *names[IRJACKD_MAX_SOURCES];
	struct ir_mqtt_config mc;
	char error[256];
	int ret;

	if (!g->cfg->mqtt)
		return 0;
	mqtt_config_for(sv, g, names, &mc);
	ret = ir_mqtt_new(&mc, &sv->mqtt, error, sizeof(error));
	if (ret < 0)
		irjackd_log(LOG_ERR, "mqtt: %s", error);
	return ret;
}

/* ---- reload ---- */

/* Carries the running MQTT output over to `g` when its settings did not
 * change: no offline/online flap, the offline queue survives.  False when
 * it must be made anew. */
static bool keep_mqtt(struct service *sv, const struct generation *old,
		      const struct generation *g)
{
	const char *names[IRJACKD_MAX_SOURCES];
	struct ir_mqtt_config mc;

	if (!sv->mqtt || !g->cfg->mqtt ||
	    !ir_mqtt_same_settings(&old->cfg->mqtt_cfg, &g->cfg->mqtt_cfg))
		return false;
	mqtt_config_for(sv, g, names, &mc);
	return ir_mqtt_rebind(sv->mqtt, &mc) == 0;
}

static bool same_lircd(const struct irjackd_config *a, const struct irjackd_config *b)
{
	return a->lircd == b->lircd && !strcmp(a->lircd_path, b->lircd_path) &&
	       a->lircd_mode == b->lircd_mode && a->lircd_simulate == b->lircd_simulate;
}

static bool same_uinput(const struct irjackd_config *a, const struct irjackd_config *b)
{
	return a->uinput == b->uinput && !strcmp(a->uinput_name, b->uinput_name) &&
	       a->uinput_vendor == b->uinput_vendor && a->uinput_product == b->uinput_product;
}

static void reload(struct service *sv)
{
	struct irjackd_config_error cerr;
	struct generation *old = sv->gen, *g;
	int ret;

	notify("RELOADING=1");
	irjackd_log(LOG_INFO, "SIGHUP: reloading %s", sv->config_path);
	g = calloc(1, sizeof(*g));
	if (!g || !(g->cfg = malloc(sizeof(*g->cfg)))) {
		free(g);
		irjackd_log(LOG_ERR, "reload: out of memory; keeping the running configuration");
		goto rejected;
	}
	irjackd_config_defaults(g->cfg);
	ret = irjackd_config_load(sv->config_path, g->cfg, &cerr);
	if (ret < 0) {
		if (cerr.line)
			irjackd_log(LOG_ERR, "%s:%u: %s", sv->config_path, cerr.line, cerr.message);
		else
			irjackd_log(LOG_ERR, "%s: %s", sv->config_path, cerr.message);
		irjackd_log(LOG_ERR, "reload rejected; keeping the running configuration");
		free(g->cfg);
		free(g);
		goto rejected;
	}
	if (irjackd_load_keymaps(g->cfg, &g->km) < 0) {
		irjackd_log(LOG_ERR, "reload rejected; keeping the running configuration");
		free(g->cfg);
		free(g);
		goto rejected;
	}
	/* A sound card or USB device can be opened once: the old sources let
	 * go before the new ones open. */
	close_sources(sv, old);
	if (open_sources(sv, g) < 0) {
		irjackd_log(LOG_ERR, "reload rejected (a source failed); reopening the running "
				     "configuration's sources");
		generation_free(sv, g);
		if (open_sources(sv, old) < 0)
			irjackd_log(LOG_ERR, "the running configuration's sources failed to reopen too");
		goto rejected;
	}
	sv->gen = g;
	irjackd_set_log_level(g->cfg->log_level);
	if (!same_lircd(old->cfg, g->cfg)) {
		ir_lircd_free(sv->lircd);
		sv->lircd = NULL;
		open_lircd(sv, g->cfg, g->km);
	} else if (sv->lircd) {
		ir_lircd_set_keymap(sv->lircd, g->km);
	}
	if (!same_uinput(old->cfg, g->cfg) ||
	    (sv->uinput && !ir_uinput_has_keys(sv->uinput, g->km))) {
		ir_uinput_free(sv->uinput);
		sv->uinput = NULL;
		open_uinput(sv, g->cfg, g->km);
	}
	if (g->cfg->json != old->cfg->json || strcmp(g->cfg->json_path, old->cfg->json_path))
		open_json(sv, g->cfg);
	if (!keep_mqtt(sv, old, g)) {
		ir_mqtt_free(sv->mqtt);
		sv->mqtt = NULL;
		open_mqtt(sv, g);
	}
	sv->tx_mask = 0; /* transmitters are numbered anew */
	repeat_stop(sv, "stopped by the reload");
	generation_free(sv, old);
	sv->reloads++;
	irjackd_log(LOG_INFO, "reloaded: %u source%s, %zu remote%s, %zu button%s",
		    g->source_count, g->source_count == 1 ? "" : "s", ir_keymap_remote_count(g->km),
		    ir_keymap_remote_count(g->km) == 1 ? "" : "s", ir_keymap_key_count(g->km),
		    ir_keymap_key_count(g->km) == 1 ? "" : "s");
	notify("READY=1");
	return;
rejected:
	sv->reload_failures++;
	notify("READY=1");
}

/* ---- the loop ---- */

static bool finished(const struct service *sv)
{
	const struct generation *g = sv->gen;

	if (sv->lircd || sv->uinput || sv->mqtt)
		return false;
	for (unsigned i = 0; i < g->source_count; i++)
		if (!g->sources[i].ended || ir_keypress_keyup_due(g->sources[i].keys))
			return false;
	return true;
}

static void dispatch_source(struct source *s)
{
	char err[256];
	int ret;

	if (s->ended)
		return;
	ret = ir_source_dispatch(s->src, err, sizeof(err));
	if (ret == -ENODATA) {
		s->ended = true;
	} else if (ret < 0) {
		s->ended = true;
		snprintf(s->state, sizeof(s->state), "failed (%.80s)", err);
		irjackd_log(LOG_ERR, "source %s: %s; it is stopped", s->cfg->name, err);
	}
}

static int loop(struct service *sv, int sigfd)
{
	struct pollfd fds[3 + IRJACKD_MAX_SOURCES + IR_LIRCD_MAX_CLIENTS + 1];
	int src_slot[IRJACKD_MAX_SOURCES];

	while (!sv->stop) {
		struct generation *g = sv->gen;
		uint64_t now = now_us(sv), next = UINT64_MAX;
		bool tick = false;
		size_t n = 0;
		int timeout = -1, json_slot = -1;

		for (unsigned i = 0; i < g->source_count; i++) {
			uint64_t up;

			ir_keypress_advance(g->sources[i].keys, now);
			up = ir_keypress_keyup_due(g->sources[i].keys);
			if (up && up < next)
				next = up;
		}
		if (sv->repeat.active && sv->repeat.due_us < next)
			next = sv->repeat.due_us;
		if (finished(sv))
			break;
		fds[n++] = (struct pollfd){ .fd = sigfd, .events = POLLIN };
		if (sv->mqtt)
			fds[n++] = (struct pollfd){ .fd = ir_mqtt_fd(sv->mqtt), .events = POLLIN };
		for (unsigned i = 0; i < g->source_count; i++) {
			struct source *s = &g->sources[i];
			int fd = s->ended ? -1 : ir_source_fd(s->src);

			src_slot[i] = -1;
			if (s->ended)
				continue;
			if (fd < 0) {
				tick = true;
				continue;
			}
			src_slot[i] = (int)n;
			fds[n++] = (struct pollfd){ .fd = fd, .events = POLLIN };
		}
		if (sv->json_len > 0) {
			json_slot = (int)n;
			fds[n++] = (struct pollfd){ .fd = sv->json_fd, .events = POLLOUT };
		}
		if (sv->lircd)
			n += ir_lircd_fds(sv->lircd, fds + n, sizeof(fds) / sizeof(fds[0]) - n);
		if (next != UINT64_MAX)
			timeout = next <= now ? 0 : (int)((next - now + 999) / 1000);
		if (tick && (timeout < 0 || timeout > POLL_TICK_MS))
			timeout = POLL_TICK_MS;
		if (poll(fds, n, timeout) < 0 && errno != EINTR)
			return -errno;
		if (fds[0].revents & POLLIN) {
			struct signalfd_siginfo si;

			if (read(sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
				if (si.ssi_signo == SIGHUP) {
					reload(sv);
					continue; /* the descriptors changed */
				}
				irjackd_log(LOG_INFO, "%s: stopping", strsignal((int)si.ssi_signo));
				sv->stop = true;
			}
		}
		for (unsigned i = 0; i < g->source_count; i++) {
			struct source *s = &g->sources[i];

			if (src_slot[i] >= 0 ? (fds[src_slot[i]].revents != 0)
					     : (!s->ended && tick))
				dispatch_source(s);
		}
		if (sv->mqtt && (fds[1].revents & POLLIN))
			ir_mqtt_process(sv->mqtt);
		if (json_slot >= 0 && fds[json_slot].revents)
			json_flush(sv);
		if (sv->lircd)
			ir_lircd_process(sv->lircd);
		repeat_due(sv);
	}
	return 0;
}

int irjackd_run(const char *config_path, struct irjackd_config *cfg, struct ir_keymap *km)
{
	static struct service sv;
	struct sigaction ignore = { .sa_handler = SIG_IGN };
	sigset_t mask;
	int sigfd, ret = 0, stdout_flags;

	memset(&sv, 0, sizeof(sv));
	sv.json_fd = -1;
	stdout_flags = fcntl(STDOUT_FILENO, F_GETFL); /* JSON to stdout makes it non-blocking */
	sv.config_path = config_path;
	sv.gen = calloc(1, sizeof(*sv.gen));
	if (!sv.gen) {
		free(cfg);
		ir_keymap_free(km);
		return -ENOMEM;
	}
	sv.gen->cfg = cfg;
	sv.gen->km = km;
	irjackd_set_log_level(cfg->log_level);
	sigaction(SIGPIPE, &ignore, NULL);
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	sigfd = signalfd(-1, &mask, SFD_CLOEXEC);
	if (sigfd < 0) {
		ret = -errno;
		goto out;
	}
	sv.start_us = monotonic_us();
	if ((ret = open_json(&sv, cfg)) < 0 || (ret = open_sources(&sv, sv.gen)) < 0 ||
	    (ret = open_lircd(&sv, cfg, km)) < 0 || (ret = open_uinput(&sv, cfg, km)) < 0 ||
	    (ret = open_mqtt(&sv, sv.gen)) < 0)
		goto out;
	notify("READY=1");
	ret = loop(&sv, sigfd);
	notify("STOPPING=1");
	repeat_stop(&sv, "the service stops");
out:
	ir_mqtt_free(sv.mqtt); /* "offline" while the sources still exist */
	generation_free(&sv, sv.gen); /* releases held keys first */
	ir_lircd_free(sv.lircd);
	ir_uinput_free(sv.uinput);
	close_json(&sv);
	free(sv.json_buf);
	if (stdout_flags >= 0)
		fcntl(STDOUT_FILENO, F_SETFL, stdout_flags);
	if (sigfd >= 0)
		close(sigfd);
	return ret;
}
