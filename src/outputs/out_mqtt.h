/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * out_mqtt.h - irjackd's MQTT output and transmit requests, through any
 * MQTT broker (libmosquitto).
 *
 * Topics, with PREFIX = topic_prefix (default irjack/<hostname>):
 *   PREFIX/<source>/event   each decoded frame, JSON:
 *       {"source":"mic","protocol":"nec","scancode":1275,"key":"KEY_UP",
 *        "remote":"tv","repeat":false,"toggle":false,"timestamp":1733270000.123}
 *     key and remote are null when no keymap names the frame; timestamp is
 *     the wall-clock time (Unix seconds) when the daemon decoded the frame,
 *     so an event delivered late (after a reconnect) still says when it
 *     happened.  Published with the configured qos, not retained.
 *   PREFIX/status           "online" (retained) once connected; "offline"
 *     (retained) on a clean stop, and by the broker (last will) when the
 *     daemon dies or the connection drops.
 *   PREFIX/send             transmit requests (see send_request.h), read
 *     with qos 1.  Payloads over 4 KiB or malformed are refused.
 *   PREFIX/send/error       {"ok":false,"error":"...","request":"..."}
 *     for every refused or failed request without a "reply" topic; with
 *     one, the answer ({"ok":true} or the error) goes there instead.
 *   PREFIX/display          front-panel display requests (an iMON VFD or
 *     LCD), plain text as the lircd socket's DISPLAY takes them: "TEXT
 *     line1|line2", "ICONS list [TEXT ...]", "CLOCK", "OFF"; at most
 *     IR_MQTT_DISPLAY_MAX bytes.  Only the newest waiting one is shown; a
 *     retained one is shown again after a restart; failures are logged.
 *   PREFIX/remote/<remote>/event  with discovery = yes: each press (not a
 *     repeat) of a keymap button, {"event_type":KEY,"source","protocol",
 *     "scancode"}, only while connected (never queued: a late press must
 *     not fire an automation).
 *   DISCOVERY/event/<node>/<remote>/config  with discovery = yes: one Home
 *     Assistant event entity per keymap remote (retained), event_types =
 *     its button names; <node> = irjack_<topic_prefix or hostname>.
 *   DISCOVERY/device_automation/<node>/<source>_<remote>_<key>/config
 *     with ha_triggers = yes too: a device trigger per source and button
 *     (retained), firing on presses (not repeats).
 *   Configs of this node that are no longer published (after a reload or
 *     restart) are cleared with an empty retained payload: the output
 *     subscribes to <node>'s config topics and answers the stale ones.
 *   A retained request on PREFIX/send is refused (PREFIX/send/error).
 *
 * Delivery: a private thread runs libmosquitto's network loop and
 * reconnects with back-off (1 s doubling to 30 s, back to 1 s once
 * connected).  While disconnected, events wait in a queue of queue_max
 * entries; when it is full the OLDEST event is dropped (a fresh key press
 * matters more than an old one) and counted.  On reconnect the queue is
 * sent in order.  Events already handed to the broker connection with qos
 * 1 or 2 when it drops are resent by libmosquitto (qos 1: a subscriber may
 * see such an event twice, as MQTT's at-least-once allows); with qos 0 they
 * may be lost.
 *
 * Threads: transmit requests are parsed on the network thread and handed
 * to the caller's thread through a bounded queue (IR_MQTT_REQUEST_QUEUE)
 * and an eventfd: the send callback only ever runs inside
 * ir_mqtt_process(), on the thread that calls it.
 */
#ifndef IRJACK_OUT_MQTT_H
#define IRJACK_OUT_MQTT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "ir_decoder.h"
#include "ir_keymap.h"
#include "send_request.h"

#define IR_MQTT_NAME_MAX 64
#define IR_MQTT_PATH_MAX 256

/* The connection and what to publish (irjackd.conf's [output mqtt]). */
struct ir_mqtt_settings {
	char host[IR_MQTT_PATH_MAX];         /* default localhost */
	unsigned port;                       /* 0: 1883, or 8883 with tls */
	char client_id[IR_MQTT_NAME_MAX];    /* empty: irjack-<hostname> */
	char topic_prefix[IR_MQTT_PATH_MAX]; /* empty: irjack/<hostname> */
	char username[IR_MQTT_NAME_MAX];
	char password[IR_MQTT_NAME_MAX];
	char password_file[IR_MQTT_PATH_MAX]; /* read when the output starts */
	bool tls;
	char cafile[IR_MQTT_PATH_MAX];
	char certfile[IR_MQTT_PATH_MAX];
	char keyfile[IR_MQTT_PATH_MAX];
	unsigned qos;        /* events and replies; default 1 */
	unsigned keepalive;  /* seconds; default 60 */
	unsigned queue_max;  /* events held while offline; default 1000 */
	bool discovery;      /* Home Assistant: an event entity per remote */
	bool ha_triggers;    /* ... and a device trigger per button too */
	char discovery_prefix[IR_MQTT_NAME_MAX]; /* default homeassistant */
	unsigned line;       /* where the section starts */
};

/* Requests waiting for the main loop; more are refused as busy. */
#define IR_MQTT_REQUEST_QUEUE 16
#define IR_MQTT_DISPLAY_MAX 512

/* Shows a display request (see PREFIX/display).  Returns 0, or a negative
 * errno with a one-line reason in `error`. */
typedef int (*ir_mqtt_display_fn)(void *userdata, const char *request, char *error,
				  size_t error_size);

/* Carries out a transmit request.  Returns 0, or a negative errno with a
 * one-line reason in `error`. */
typedef int (*ir_mqtt_send_fn)(void *userdata, const struct irjackd_send_request *req,
			       char *error, size_t error_size);

struct ir_mqtt_config {
	const struct ir_mqtt_settings *settings;
	const struct ir_keymap *keymap;     /* for discovery; may be NULL */
	const char *const *source_names;    /* for discovery */
	size_t source_count;
	ir_mqtt_send_fn send;               /* NULL: requests are refused */
	ir_mqtt_display_fn display;         /* NULL: display requests are dropped */
	/* Connections, losses and the final counts, one line each at a
	 * syslog level, from the network thread too; NULL: silent. */
	void (*log)(void *userdata, int level, const char *message);
	void *userdata;
};

struct ir_mqtt;

struct ir_mqtt_stats {
	uint64_t events;          /* frames given to ir_mqtt_frame() */
	uint64_t published;       /* events handed to the broker connection */
	uint64_t dropped;         /* events dropped from the full offline queue */
	uint64_t queued;          /* events waiting now */
	uint64_t connects;        /* successful connections (the first included) */
	uint64_t requests;        /* transmit requests carried out */
	uint64_t rejected;        /* transmit requests refused or failed */
};

/*
 * Starts the output: reads password_file, sets the last will, and starts
 * connecting in the background (a broker that is down is retried, not an
 * error).  Returns 0 and sets *out, or a negative errno with a reason in
 * `error` (an unreadable password file, TLS files libmosquitto refuses,
 * no memory).  Free with ir_mqtt_free().  The settings and source names
 * are copied; the keymap must outlive the output (or its ir_mqtt_rebind()).
 */
int ir_mqtt_new(const struct ir_mqtt_config *cfg, struct ir_mqtt **out, char *error,
		size_t error_size);

/*
 * Stops cleanly: publishes "offline" (waiting up to 2 s for the broker to
 * take it), disconnects, joins the network thread.  Events still queued
 * are dropped.  NULL is allowed.
 */
void ir_mqtt_free(struct ir_mqtt *m);

/*
 * The JSON event published for a frame of source `source` on
 * <prefix>/<source>/event: source, protocol, scancode, rc_protocol and
 * rc_scancode (rc-core's reading, only where it differs: see
 * ir_frame_rc_reading()), key, remote (null when unknown), repeat, toggle,
 * timestamp (`now`, seconds with milliseconds).  Written into buf as
 * snprintf would; returns the full length.
 */
int ir_mqtt_event_payload(const char *source, const struct ir_frame *frame,
			  const struct ir_key_binding *key, const struct timespec *now, char *buf,
			  size_t size);

/* Publishes one decoded frame of source `source` (or queues it while
 * offline).  `key` is the keymap's binding, or NULL. */
void ir_mqtt_frame(struct ir_mqtt *m, const char *source, const struct ir_frame *frame,
		   const struct ir_key_binding *key);

/* Readable (POLLIN) when transmit requests wait for ir_mqtt_process(). */
int ir_mqtt_fd(const struct ir_mqtt *m);

/* Carries out every waiting request through the send callback and
 * publishes the answers. */
void ir_mqtt_process(struct ir_mqtt *m);

void ir_mqtt_get_stats(struct ir_mqtt *m, struct ir_mqtt_stats *out);

/* Whether two [output mqtt] sections make the same output, so that a
 * reload can keep the running one (never, with a password_file: the file
 * may have changed behind the same name). */
bool ir_mqtt_same_settings(const struct ir_mqtt_settings *a, const struct ir_mqtt_settings *b);

/*
 * Carries the output over to a reloaded configuration with the same
 * settings (ir_mqtt_same_settings): the connection, its offline queue and
 * the retained status stay; the keymap, source names and send callback
 * become `cfg`'s (its settings are not looked at), and the discovery
 * configs are published again for the new keymap (those of remotes and
 * buttons gone are cleared).  Returns 0, or
 * -ENOMEM with the output unchanged.
 */
int ir_mqtt_rebind(struct ir_mqtt *m, const struct ir_mqtt_config *cfg);

#endif
