/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irjackd_service.h - the running service's state and the parts of the
 * daemon that share it:
 *
 *   irjackd_activation.c   the listening sockets systemd passed
 *   irjackd_transmit.c     transmitters (src/tx/ir_tx.h)
 *   irjackd_send_repeat.c  SEND_START's button, repeated until SEND_STOP
 *   irjackd_requests.c     what lircd clients and MQTT ask to send
 *   irjackd_status.c       the STATUS text (`irjack status`)
 *   irjackd_outputs.c      the outputs (src/outputs/ir_output.h) a
 *                          configuration names, kept or made anew on reload
 *   irjackd_peers.c        sources that read another lircd (type = lircd)
 *   irjackd_sources.c      the sources of a configuration and their frames
 *   irjackd_reload.c       SIGHUP: a new generation or the old one kept
 *   irjackd_run.c          the poll loop
 * (with irjackd_log.c and irjackd_keymaps.c below them all).
 *
 * Each part calls only those listed above it (tools/check-layers checks
 * that no files call each other in a circle).  Everything runs on the
 * loop's thread.  Service time is CLOCK_MONOTONIC
 * minus the moment the service started (µs).
 */
#ifndef IRJACK_IRJACKD_SERVICE_H
#define IRJACK_IRJACKD_SERVICE_H

#include <poll.h>
#include <stdbool.h>
#include <stdint.h>

#include "ir_keymap.h"
#include "ir_keypress.h"
#include "ir_output.h"
#include "ir_source.h"
#include "ir_time.h"
#include "ir_tx.h"
#include "irjackd_config.h"
#include "lircd_peer.h"

struct service;

/* A key read from a lircd peer (irjackd_peers.c): down until its lines stop. */
struct peer_key {
	bool down;
	char remote[IR_LIRCD_LINE_MAX], key[IR_LIRCD_LINE_MAX];
	uint64_t scancode;
	int keycode;
	unsigned repeat;
	struct ir_key_origin origin;
	uint64_t up_us;      /* service time it goes up unless a line comes */
};

struct source {
	struct service *sv;
	const struct irjackd_source *cfg;
	struct ir_source *src;
	struct ir_lircd_peer *peer; /* type = lircd: instead of src */
	struct peer_key peer_key;
	struct ir_keypress *keys;
	struct ir_protocol_set enabled;
	int64_t offset_us;   /* service time minus source time */
	bool offset_known;
	bool ended;          /* a finite source that has delivered everything, or failed */
	bool waiting;        /* could not be opened: src is NULL until a retry opens it */
	uint64_t retry_us;   /* when (service time) the next retry is due */
	uint64_t retry_step_us; /* the wait before that retry: doubles up to SOURCE_RETRY_US */
	char state[96];      /* "running", or what happened last */
	char last[192];      /* the last frame, as text */
	uint64_t last_us;    /* when (service time) */
};

/* What one configuration runs: replaced as a whole on reload. */
struct generation {
	struct irjackd_config *cfg;
	struct ir_keymap *km;
	struct source sources[IRJACKD_MAX_SOURCES];
	unsigned source_count;
	const char *source_names[IRJACKD_MAX_SOURCES]; /* for the outputs */
};

/* SEND_START's button: sent again every frame period until SEND_STOP, at
 * most SEND_REPEAT_MAX times (lircd's --repeat-max default). */
#define SEND_REPEAT_MAX 600
struct send_repeat {
	bool active;
	char remote[IR_LIRCD_LINE_MAX], key[IR_LIRCD_LINE_MAX];
	unsigned mask;               /* the transmitters */
	struct ir_tx_carrier carrier;
	struct ir_edge_buf chunk;    /* one repeat code (or frame) and the gap to the next */
	uint64_t chunk_us;
	uint64_t due_us;             /* service time the next repeat starts */
	unsigned sent;
};

/* The outputs, in the order STATUS lists them and events reach them. */
enum output_slot {
	OUTPUT_LIRCD,
	OUTPUT_UINPUT,
	OUTPUT_JSON,
	OUTPUT_MQTT,
	OUTPUT_LIRCDEV,
	OUTPUT_LCDDEV,
	OUTPUT_SLOTS
};

struct tx_worker;

struct service {
	const char *config_path;
	struct generation *gen;
	struct ir_output *outputs[OUTPUT_SLOTS];
	unsigned tx_mask;    /* SET_TRANSMITTERS; 0: chosen per remote */
	struct send_repeat repeat;
	/* irjackd_tx_worker.c: transmitter i's thread, made at its first send */
	struct tx_worker *tx_workers[IRJACKD_MAX_TRANSMITTERS];
	uint64_t start_us;   /* monotonic time of service time 0 */
	uint64_t reloads, reload_failures;
	bool stop;
	/* Random at each start (so a restarted daemon's events are not taken
	 * for ones seen before): who this daemon is to its lircd peers. */
	char instance_id[24];
	/* Listening sockets systemd passed (irjackd_activation.c); 0: none. */
	int activated_unix_fd, activated_tcp_fd;
	char activated_path[108]; /* the UNIX one's path: the lircd socket's */
	/* The last event number seen from each irjackd (irjackd_peers.c). */
#define PEER_SEEN_MAX 16
	struct peer_seen {
		char id[24];
		uint64_t seq, used_us;
	} peer_seen[PEER_SEEN_MAX];
};

static inline uint64_t service_now_us(const struct service *sv)
{
	return ir_monotonic_us() - sv->start_us;
}

/* irjackd_peers.c */
/* Starts connecting source `s` (type = lircd) to its device; 0 or a
 * negative errno (then s->peer is NULL). */
int peer_start(struct service *sv, struct source *s);
/* Reads what the peer sent; a negative errno when the connection ended. */
int peer_dispatch(struct source *s);
/* Releases its held key and closes the connection. */
void peer_close(struct source *s, uint64_t now);
/* Releases the peers' keys whose time has come; the next key-up due, or
 * UINT64_MAX. */
uint64_t peers_keyup(struct generation *g, uint64_t now);

/* irjackd_sources.c */
/* The descriptor to poll for a running source (-1: none) and its events. */
int source_poll_fd(const struct source *s, short *events);
/* A source that cannot be opened (a deleted file, an unplugged card, a
 * USB receiver not plugged in yet) is retried, "waiting" meanwhile: first
 * after SOURCE_RETRY_FIRST_US, the wait doubling up to SOURCE_RETRY_US, so
 * a device that appears during boot is picked up within a quarter second
 * while a long-missing one costs one open attempt every 2 s. */
#define SOURCE_RETRY_FIRST_US 250000u
#define SOURCE_RETRY_US 2000000u
/* Opens the configuration's sources.  strict (the service's start): a
 * source whose device is missing waits like on reload, unless it is
 * `required`; any other failure (a bad spec or option, a device that
 * refuses) is the error.  Otherwise every one that fails is kept
 * "waiting" (logged) and retried by sources_retry(). */
int sources_open(struct service *sv, struct generation *g, bool strict);
/* Retries the waiting sources that are due; returns when the next retry is
 * due (service time), or UINT64_MAX. */
uint64_t sources_retry(struct service *sv, struct generation *g, uint64_t now);
void sources_close(struct service *sv, struct generation *g);
void source_dispatch(struct source *s);
/* Closes the sources and frees the generation (NULL is allowed). */
void generation_free(struct service *sv, struct generation *g);

/* irjackd_requests.c: a DISPLAY request, to every source that has a
 * display (an iMON receiver's VFD or LCD). */
int display_request(void *userdata, const char *request, char *error, size_t error_size);
/* The same for the source named `source` only ("": every source), as
 * [output lcddev] asks: -EINVAL when the request does not fit its display,
 * -ENODEV when it has none (or is unplugged). */
int display_on_request(void *userdata, const char *source, const char *request, char *error,
		       size_t error_size);

/* irjackd_outputs.c */
/* Opens output `slot` if the generation's configuration has it; errors
 * are logged.  Returns 0 or a negative errno. */
int outputs_open(struct service *sv, const struct generation *g, enum output_slot slot);
/* After a reload to `g`: keeps, reopens, opens or closes each output. */
void outputs_reload(struct service *sv, const struct generation *old, const struct generation *g);
void outputs_close(struct service *sv, enum output_slot slot);
void outputs_frame(struct service *sv, const struct ir_output_frame *f);
void outputs_key(struct service *sv, const struct ir_key_event *ev);
void outputs_edge(struct service *sv, const char *source, unsigned channel,
		  const struct ir_edge *edge);
/* Fills `fds` (at most `max`) with what the outputs poll: output slot i's
 * descriptors are fds[first[i]], count[i] of them (OUTPUT_SLOTS each). */
size_t outputs_fds(struct service *sv, struct pollfd *fds, size_t max, size_t *first,
		   size_t *count);
void outputs_process(struct service *sv, const struct pollfd *fds, const size_t *first,
		     const size_t *count);
/* The earliest time an output must be processed without an event
 * (ir_monotonic_us()), or UINT64_MAX. */
uint64_t outputs_due_us(struct service *sv);
bool outputs_keep_running(const struct service *sv);

/* irjackd_activation.c */
/* Takes the sockets systemd passed (sd_listen_fds()): a UNIX stream
 * socket for the lircd socket, a TCP one for its port; others are closed
 * (logged). */
void activation_take(struct service *sv);
/* Closes them (the service stops). */
void activation_close(struct service *sv);

/* irjackd_tx_worker.c */
/* Transmissions waiting for one transmitter, besides the one playing: a
 * SEND_ONCE past them is refused ("busy"). */
#define TX_QUEUE_MAX 4
/* What a transmission is: a SEND_ONCE (or MQTT request), the button of a
 * SEND_START, or one of its repeats (dropped, not sent, by SEND_STOP). */
enum tx_job_kind { TX_JOB_ONCE, TX_JOB_REPEAT_FIRST, TX_JOB_REPEAT };
/* One transmission: the transmitter (a copy: a reload may free the
 * configuration while it plays), opened by the loop; the timings. */
struct tx_job {
	enum tx_job_kind kind;
	struct irjackd_transmitter tx;
	struct ir_tx *t;
	struct ir_edge_buf edges;
	struct ir_tx_carrier carrier;
};
/* Closes the job's transmitter and frees it (NULL is fine). */
void tx_job_free(struct tx_job *job);
/* Queues `job` (the worker owns it from here, even on failure) on
 * transmitter `index`'s thread.  Returns 0; -EBUSY when TX_QUEUE_MAX wait
 * already, -ENOMEM; with `error` filled. */
int tx_worker_submit(struct service *sv, unsigned index, struct tx_job *job, char *error,
		     size_t error_size);
/* Drops the repeats waiting for the transmitters in `mask` and waits up to
 * `wait_ms` for a SEND_START's button or repeat playing to end (SEND_STOP:
 * nothing of it is sent after the reply). */
void tx_workers_stop(struct service *sv, unsigned mask, unsigned wait_ms);
/* Transmissions queued or playing on transmitter `index`. */
unsigned tx_workers_pending(struct service *sv, unsigned index);
/* Plays what was acknowledged (the queue, at most TX_QUEUE_MAX each),
 * drops SEND_START's repeats, ends the threads (the service's end). */
void tx_workers_free(struct service *sv);

/* irjackd_transmit.c */
/* Where a request goes, as a mask over the configured transmitters (bit n
 * for the n-th): the one named `name`; else those SET_TRANSMITTERS chose;
 * else the first that serves `remote` (NULL: any).  0: none. */
unsigned transmitters_for(const struct service *sv, const char *name, const char *remote);
/* Sends `edges` through every configured transmitter in `mask`; the first
 * error is the one reported. */
int transmit_mask(struct service *sv, unsigned mask, const struct ir_edge_buf *edges,
		  const struct ir_tx_carrier *carrier, enum tx_job_kind kind, char *error,
		  size_t error_size);

/* irjackd_requests.c: the callbacks of struct ir_output_env */
int transmit_lircd_send(void *userdata, enum ir_lircd_send kind, const char *remote,
			const char *key, unsigned repeats, char *error, size_t error_size);
int transmit_set_transmitters(void *userdata, unsigned mask, char *error, size_t error_size);
int transmit_request(void *userdata, const struct irjackd_send_request *req, char *error,
		     size_t error_size);

/* irjackd_send_repeat.c */
int repeat_start(struct service *sv, unsigned mask, const char *remote, const char *key,
		 char *error, size_t error_size);
void repeat_due(struct service *sv);
void repeat_stop(struct service *sv, const char *why);

/* irjackd_status.c: STATUS's lines (ir_lircd_config.status) */
unsigned status_lines(void *userdata, char *buf, size_t size);

/* irjackd_reload.c */
void reload(struct service *sv);

#endif
