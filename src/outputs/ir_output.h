/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_output.h - where decoded frames and key presses go: one interface over
 * every output (uinput, the lircd socket, JSON lines, MQTT), so a program
 * runs any set of them the same way and a new kind plugs in by registering.
 *
 * An output is opened from its kind's settings struct (copied) and an
 * environment the program lends it (the keymap, the source names, the
 * callbacks that carry out clients' requests, a logger).  The program then
 * hands it every frame and every key event, polls the descriptors it
 * offers and calls ir_output_process() after each poll.  On a reload,
 * ir_output_rebind() keeps a running output whose settings did not change
 * (connections, clients and queues survive) or says it must be made anew.
 *
 * Everything runs on the caller's thread; an output with threads of its
 * own (MQTT) calls back only from inside ir_output_process(), and logs
 * through env->log from any thread.
 */
#ifndef IRJACK_IR_OUTPUT_H
#define IRJACK_IR_OUTPUT_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir_decoder.h"
#include "ir_edge.h"
#include "ir_keymap.h"
#include "ir_keypress.h"
#include "out_lircd.h"
#include "send_request.h"

/* A decoded frame, as outputs get it. */
struct ir_output_frame {
	const char *source;               /* the source's name */
	const struct ir_frame *frame;     /* in the source's time */
	const struct ir_key_binding *key; /* the keymap's button, or NULL */
};

/* What the program lends its outputs.  Pointers must stay valid until the
 * next ir_output_rebind() or ir_output_close(). */
struct ir_output_env {
	const struct ir_keymap *keymap;   /* may be NULL */
	const char *const *source_names;
	size_t source_count;
	/* Requests from clients; NULL members: refused.  See out_lircd.h for
	 * send/set_transmitters/status and out_mqtt.h for send_request. */
	int (*send)(void *userdata, enum ir_lircd_send kind, const char *remote, const char *key,
		    unsigned repeats, char *error, size_t error_size);
	int (*set_transmitters)(void *userdata, unsigned mask, char *error, size_t error_size);
	unsigned (*status)(void *userdata, char *buf, size_t size);
	int (*send_request)(void *userdata, const struct irjackd_send_request *req, char *error,
			    size_t error_size);
	/* A front-panel display request (lircd socket DISPLAY, MQTT display
	 * topic): see out_lircd.h. */
	int (*display)(void *userdata, const char *request, char *error, size_t error_size);
	/* The same for one source's display (`source` "": every source's),
	 * as [output lcddev] passes a /dev/lcd0 write on; 0 or -errno
	 * (-EINVAL: the request does not fit the display). */
	int (*display_on)(void *userdata, const char *source, const char *request, char *error,
			  size_t error_size);
	/* One line (no newline) at a syslog level (LOG_ERR ... LOG_DEBUG); may
	 * be called from an output's own thread.  NULL: silent. */
	void (*log)(void *userdata, int level, const char *message);
	void *userdata;
};

struct ir_output_kind {
	const char *name;      /* "uinput", "lircd", "json", "mqtt" */
	size_t settings_size;  /* the settings struct this kind takes */
	/* A service with this output runs until stopped, not just until its
	 * sources end. */
	bool keeps_running;
	/* Returns 0 and *impl, or a negative errno with one line in `err`. */
	int (*open)(const void *settings, const struct ir_output_env *env, void **impl, char *err,
		    size_t err_size);
	/* 0: kept, now with `env` (and `settings`, equal to `old`); -EAGAIN:
	 * must be made anew; nothing changed then. */
	int (*rebind)(void *impl, const void *old, const void *settings,
		      const struct ir_output_env *env);
	void (*frame)(void *impl, const struct ir_output_frame *f);     /* optional */
	/* Optional: every edge of every source (audio: demodulated; channel:
	 * the input channel, 0 for timing sources), before its frames. */
	void (*edge)(void *impl, const char *source, unsigned channel, const struct ir_edge *edge);
	void (*key)(void *impl, const struct ir_key_event *ev);         /* optional */
	/* Optional: descriptors to poll; returns how many were filled. */
	size_t (*fds)(void *impl, struct pollfd *fds, size_t max);
	/* Optional: after each poll, with the descriptors fds() gave. */
	void (*process)(void *impl, const struct pollfd *fds, size_t n);
	/* Optional: when process() must run although no descriptor is ready
	 * (an ir_monotonic_us() time; UINT64_MAX: no need). */
	uint64_t (*due_us)(void *impl);
	/* Optional: one status line (no newline) for `irjack status`. */
	void (*status)(void *impl, const void *settings, char *line, size_t size);
	void (*close)(void *impl);
};

/* The built-in kinds and those registered, by name; NULL if none. */
const struct ir_output_kind *ir_output_kind_find(const char *name);

/* Adds a kind (a new output: a display, a socket protocol...).  Returns
 * 0, -EEXIST, -ENOSPC, -EINVAL. */
int ir_output_register(const struct ir_output_kind *kind);

struct ir_output;

/* Opens an output of `kind` with `settings` (kind->settings_size bytes,
 * copied).  Returns 0 and *out (ir_output_close()), or a negative errno
 * with the reason in `err`. */
int ir_output_open(const struct ir_output_kind *kind, const void *settings,
		   const struct ir_output_env *env, struct ir_output **out, char *err,
		   size_t err_size);

/* A reloaded configuration: 0 when the output is kept (its settings did
 * not change; it now uses `env`), -EAGAIN when it must be closed and
 * opened anew. */
int ir_output_rebind(struct ir_output *o, const void *settings, const struct ir_output_env *env);

void ir_output_frame(struct ir_output *o, const struct ir_output_frame *f);
void ir_output_key(struct ir_output *o, const struct ir_key_event *ev);
void ir_output_edge(struct ir_output *o, const char *source, unsigned channel,
		    const struct ir_edge *edge);
size_t ir_output_fds(struct ir_output *o, struct pollfd *fds, size_t max);
void ir_output_process(struct ir_output *o, const struct pollfd *fds, size_t n);
/* The kind's due_us(): when ir_output_process() must run without an
 * event (ir_monotonic_us() time), or UINT64_MAX. */
uint64_t ir_output_due_us(struct ir_output *o);
/* Writes the status line into `line` ("" for none). */
void ir_output_status(struct ir_output *o, char *line, size_t size);
bool ir_output_keeps_running(const struct ir_output *o);
const struct ir_output_kind *ir_output_kind(const struct ir_output *o);
/* Stops the output (drains what it may, within its own bounds).  NULL is
 * allowed. */
void ir_output_close(struct ir_output *o);

#endif
