/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * out_mqtt.c - the MQTT output.  One network thread of our own runs
 * mosquitto_loop() and the reconnect back-off (libmosquitto's
 * loop_forever() gives up for good on a DNS failure and never resets its
 * back-off); the daemon's thread publishes events and carries out the
 * transmit requests the network thread queues for it.
 *
 * Locking: `lock` guards the connection flag, the offline queue, the
 * request queue and the counters.  Callbacks run on the network thread
 * (libmosquitto holds its callback mutex around them) and take `lock`;
 * the daemon's thread takes `lock` and may call mosquitto_publish(), which
 * never takes the callback mutex in threaded mode, so the order is always
 * callback mutex -> lock.
 */
#include "out_mqtt.h"

#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <mosquitto.h>

#include "ir_frame_format.h"
#include "ir_time.h"

#define BACKOFF_MIN_S 1
#define BACKOFF_MAX_S 30
/* How long a clean stop waits for the broker to take "offline". */
#define STOP_WAIT_MS 2000
#define TOPIC_MAX 512

struct pending {
	char *topic;
	char *payload;
};

/* Discovery config topics, sorted once filled. */
struct ir_mqtt_topics {
	char **v;
	size_t count, cap;
};

struct ir_mqtt {
	struct mosquitto *mosq;
	const struct ir_mqtt_settings *s;  /* &settings */
	struct ir_mqtt_settings settings;  /* a copy: outlives a reloaded config */
	const struct ir_keymap *km;
	char **source_names;           /* owned copies, source_count of them */
	size_t source_count;
	ir_mqtt_send_fn send;
	ir_mqtt_display_fn display;
	/* the newest display request not yet shown (a display only needs
	 * the latest screen: a newer one replaces it); under `lock` */
	char display_request[IR_MQTT_DISPLAY_MAX + 1];
	bool display_pending;
	void *userdata;
	void (*log)(void *userdata, int level, const char *message); /* fixed at _new */
	void *log_userdata;

	char host_id[64]; /* the hostname, made topic-safe */
	char prefix[IR_MQTT_PATH_MAX];
	char status_topic[TOPIC_MAX], send_topic[TOPIC_MAX], error_topic[TOPIC_MAX];
	char display_topic[TOPIC_MAX];
	char node_id[80]; /* irjack_<host>: Home Assistant's node and device id */
	char cleanup_event_filter[TOPIC_MAX], cleanup_trigger_filter[TOPIC_MAX];
	struct ir_mqtt_topics discovery_topics; /* what we publish now; under lock */
	char password[256];

	pthread_t thread;
	bool thread_started;
	pthread_mutex_t lock;
	pthread_cond_t cond; /* CLOCK_MONOTONIC */
	bool stop;
	bool connected;
	unsigned backoff_s;
	uint64_t offline_since_us;
	bool connect_failure_logged;
	int offline_mid;
	bool offline_acked;

	struct pending *queue; /* ring of s->queue_max entries */
	size_t queue_head, queue_count;
	bool drop_logged;

	struct irjackd_send_request requests[IR_MQTT_REQUEST_QUEUE];
	size_t request_head, request_count;
	int efd;

	struct ir_mqtt_stats stats;
};

/* One line to the program's logger (from any thread: the logger writes
 * each line whole). */
static void mqtt_log(const struct ir_mqtt *m, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void mqtt_log(const struct ir_mqtt *m, int level, const char *fmt, ...)
{
	char line[512];
	int n = snprintf(line, sizeof(line), "mqtt: ");
	va_list ap;

	if (!m->log)
		return;
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	va_end(ap);
	m->log(m->log_userdata, level, line);
}

static void deadline_after_ms(struct timespec *ts, unsigned ms)
{
	clock_gettime(CLOCK_MONOTONIC, ts);
	ts->tv_sec += ms / 1000;
	ts->tv_nsec += (long)(ms % 1000) * 1000000L;
	if (ts->tv_nsec >= 1000000000L) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000L;
	}
}


/* ---- publishing (lock held) ---- */

static int publish_locked(struct ir_mqtt *m, const char *topic, const char *payload, int qos,
			  bool retain, int *mid)
{
	int rc = mosquitto_publish(m->mosq, mid, topic, (int)strlen(payload), payload, qos, retain);

	return rc == MOSQ_ERR_SUCCESS ? 0 : -EIO;
}

static void pending_free(struct pending *p)
{
	free(p->topic);
	free(p->payload);
	p->topic = p->payload = NULL;
}

/* Drop-oldest: the queue keeps the newest queue_max events. */
static void enqueue_locked(struct ir_mqtt *m, const char *topic, const char *payload)
{
	struct pending p = { strdup(topic), strdup(payload) };

	if (!p.topic || !p.payload || !m->s->queue_max) {
		pending_free(&p);
		m->stats.dropped++;
		return;
	}
	if (m->queue_count == m->s->queue_max) {
		pending_free(&m->queue[m->queue_head]);
		m->queue_head = (m->queue_head + 1) % m->s->queue_max;
		m->queue_count--;
		m->stats.dropped++;
		if (!m->drop_logged) {
			mqtt_log(m, LOG_WARNING, "offline queue full (%u events), dropping the oldest",
				 m->s->queue_max);
			m->drop_logged = true;
		}
	}
	m->queue[(m->queue_head + m->queue_count) % m->s->queue_max] = p;
	m->queue_count++;
}

static size_t flush_queue_locked(struct ir_mqtt *m)
{
	size_t sent = 0;

	while (m->queue_count) {
		struct pending *p = &m->queue[m->queue_head];

		if (publish_locked(m, p->topic, p->payload, (int)m->s->qos, false, NULL) < 0)
			break;
		pending_free(p);
		m->queue_head = (m->queue_head + 1) % m->s->queue_max;
		m->queue_count--;
		m->stats.published++;
		sent++;
	}
	return sent;
}

/* {"ok":false,"error":"...","request":"..."} (or {"ok":true}) to the
 * request's reply topic or PREFIX/send/error.  `request` may be NULL. */
static void answer(struct ir_mqtt *m, const char *reply, const char *error, const char *request,
		   size_t request_len)
{
	char payload[1024], excerpt[128];
	size_t pos = 0, n;

	if (!error) {
		if (reply && *reply)
			mosquitto_publish(m->mosq, NULL, reply, 11, "{\"ok\":true}", (int)m->s->qos,
					  false);
		return;
	}
	pos = (size_t)snprintf(payload, sizeof(payload), "{\"ok\":false,\"error\":");
	ir_json_append_string(payload, sizeof(payload), &pos, error);
	if (request) {
		/* enough of the request to recognise it, never all 4 KiB */
		n = request_len < sizeof(excerpt) - 1 ? request_len : sizeof(excerpt) - 1;
		memcpy(excerpt, request, n);
		excerpt[n] = '\0';
		ir_appendf(payload, sizeof(payload), &pos, ",\"request\":");
		ir_json_append_string(payload, sizeof(payload), &pos, excerpt);
	}
	if (pos + 2 > sizeof(payload))
		return; /* cannot happen with these sizes */
	payload[pos++] = '}';
	payload[pos] = '\0';
	/* a reply topic from a request refused half-way may be no topic */
	if (!reply || !*reply || mosquitto_pub_topic_check(reply) != MOSQ_ERR_SUCCESS)
		reply = m->error_topic;
	mosquitto_publish(m->mosq, NULL, reply, (int)pos, payload, (int)m->s->qos, false);
}

/* ---- Home Assistant discovery ---- */

static void object_id_append(char *buf, size_t size, size_t *pos, const char *s)
{
	for (; *s && *pos + 1 < size; s++) {
		char c = *s;

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '-'))
			c = '_';
		buf[(*pos)++] = c;
	}
	buf[*pos] = '\0';
}

/* PREFIX/remote/<remote>/event: where an event entity's presses go. */
static void press_topic(const struct ir_mqtt *m, const char *remote, char *topic, size_t size)
{
	size_t pos = (size_t)snprintf(topic, size, "%s/remote/", m->prefix);

	object_id_append(topic, size, &pos, remote);
	ir_appendf(topic, size, &pos, "/event");
}

/* Appends a config topic we publish; false when memory ran out. */
static bool topics_add(struct ir_mqtt_topics *t, const char *topic)
{
	if (t->count == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		char **v = realloc(t->v, cap * sizeof(*v));

		if (!v)
			return false;
		t->v = v;
		t->cap = cap;
	}
	if (!(t->v[t->count] = strdup(topic)))
		return false;
	t->count++;
	return true;
}

static void topics_free(struct ir_mqtt_topics *t)
{
	for (size_t i = 0; i < t->count; i++)
		free(t->v[i]);
	free(t->v);
	memset(t, 0, sizeof(*t));
}

static int topic_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool topics_have(const struct ir_mqtt_topics *t, const char *topic)
{
	return t->count && bsearch(&topic, t->v, t->count, sizeof(*t->v), topic_cmp);
}

/* ,"device":{...},"availability_topic":... shared by every config. */
static void device_append(const struct ir_mqtt *m, char *payload, size_t size, size_t *pos)
{
	char text[128];

	ir_appendf(payload, size, pos, ",\"device\":{\"identifiers\":[");
	ir_json_append_string(payload, size, pos, m->node_id);
	ir_appendf(payload, size, pos, "],\"name\":");
	snprintf(text, sizeof(text), "irjack %s", m->host_id);
	ir_json_append_string(payload, size, pos, text);
	ir_appendf(payload, size, pos, ",\"manufacturer\":\"irjack\",\"model\":\"irjackd\"}");
	ir_appendf(payload, size, pos, ",\"availability_topic\":");
	ir_json_append_string(payload, size, pos, m->status_topic);
	ir_appendf(payload, size, pos,
		   ",\"payload_available\":\"online\",\"payload_not_available\":\"offline\"");
}

/* Whether key k is the first of its remote with its name (a button bound
 * to several scancodes is one event type, one trigger). */
static bool first_of_name(const struct ir_keymap *km, size_t k)
{
	const struct ir_keymap_key *key = ir_keymap_key_at(km, k);

	for (size_t j = 0; j < k; j++) {
		const struct ir_keymap_key *other = ir_keymap_key_at(km, j);

		if (other->remote == key->remote && !strcmp(other->key, key->key))
			return false;
	}
	return true;
}

/* One device trigger per source and button (ha_triggers = yes). */
static void publish_trigger_locked(struct ir_mqtt *m, const char *source,
				   const struct ir_keymap_key *key, struct ir_mqtt_topics *out)
{
	const char *remote = ir_keymap_remote_name(m->km, key->remote);
	char topic[TOPIC_MAX], payload[2048], text[512];
	size_t pos;

	pos = (size_t)snprintf(topic, sizeof(topic), "%s/device_automation/%s/",
			       m->s->discovery_prefix, m->node_id);
	object_id_append(topic, sizeof(topic), &pos, source);
	object_id_append(topic, sizeof(topic), &pos, "_");
	object_id_append(topic, sizeof(topic), &pos, remote);
	object_id_append(topic, sizeof(topic), &pos, "_");
	object_id_append(topic, sizeof(topic), &pos, key->key);
	ir_appendf(topic, sizeof(topic), &pos, "/config");
	if (pos >= sizeof(topic))
		return;

	pos = (size_t)snprintf(payload, sizeof(payload),
			       "{\"automation_type\":\"trigger\",\"topic\":");
	snprintf(text, sizeof(text), "%s/%s/event", m->prefix, source);
	ir_json_append_string(payload, sizeof(payload), &pos, text);
	ir_appendf(payload, sizeof(payload), &pos, ",\"type\":\"button_short_press\",\"subtype\":");
	snprintf(text, sizeof(text), "%s %s (%s)", remote, key->key, source);
	ir_json_append_string(payload, sizeof(payload), &pos, text);
	ir_appendf(payload, sizeof(payload), &pos, ",\"payload\":");
	snprintf(text, sizeof(text), "%s/%s", remote, key->key);
	ir_json_append_string(payload, sizeof(payload), &pos, text);
	/* repeats of a held key are not new presses */
	ir_appendf(payload, sizeof(payload), &pos,
		   ",\"value_template\":\"{{ '' if value_json.repeat else "
		   "value_json.remote ~ '/' ~ value_json.key }}\"");
	device_append(m, payload, sizeof(payload), &pos);
	ir_appendf(payload, sizeof(payload), &pos, "}");
	if (pos >= sizeof(payload))
		return; /* absurdly long names: no trigger rather than bad JSON */
	if (topics_add(out, topic))
		publish_locked(m, topic, payload, 1, true, NULL);
}

/* One event entity for remote r: event_types = its button names. */
static void publish_event_entity_locked(struct ir_mqtt *m, unsigned r, struct ir_mqtt_topics *out)
{
	const char *remote = ir_keymap_remote_name(m->km, r);
	size_t keys = ir_keymap_key_count(m->km), pos, count = 0;
	/* the name escaped (x6) twice over, the topics, the device; then the keys */
	size_t size = 2048 + 12 * strlen(remote) + 2 * strlen(m->prefix);
	char topic[TOPIC_MAX], text[TOPIC_MAX + 64], *payload;

	for (size_t k = 0; k < keys; k++) {
		const struct ir_keymap_key *key = ir_keymap_key_at(m->km, k);

		if (key->remote == r)
			size += 6 * strlen(key->key) + 4; /* JSON escapes at most x6 */
	}
	pos = (size_t)snprintf(topic, sizeof(topic), "%s/event/%s/", m->s->discovery_prefix,
			       m->node_id);
	object_id_append(topic, sizeof(topic), &pos, remote);
	ir_appendf(topic, sizeof(topic), &pos, "/config");
	if (pos >= sizeof(topic) || !(payload = malloc(size)))
		return;
	pos = (size_t)snprintf(payload, size, "{\"name\":");
	ir_json_append_string(payload, size, &pos, remote);
	snprintf(text, sizeof(text), "%s_", m->node_id);
	ir_appendf(payload, size, &pos, ",\"unique_id\":\"");
	object_id_append(payload, size, &pos, text);
	object_id_append(payload, size, &pos, remote);
	press_topic(m, remote, text, sizeof(text));
	ir_appendf(payload, size, &pos, "\",\"device_class\":\"button\",\"state_topic\":");
	ir_json_append_string(payload, size, &pos, text);
	ir_appendf(payload, size, &pos, ",\"event_types\":[");
	for (size_t k = 0; k < keys; k++) {
		const struct ir_keymap_key *key = ir_keymap_key_at(m->km, k);

		if (key->remote != r || !first_of_name(m->km, k))
			continue;
		ir_appendf(payload, size, &pos, count++ ? "," : "");
		ir_json_append_string(payload, size, &pos, key->key);
	}
	ir_appendf(payload, size, &pos, "]");
	device_append(m, payload, size, &pos);
	ir_appendf(payload, size, &pos, "}");
	if (pos < size && count && topics_add(out, topic))
		publish_locked(m, topic, payload, 1, true, NULL);
	free(payload);
}

/*
 * Publishes the discovery configs of the current keymap (retained) and
 * remembers their topics; then (re)subscribes to every config topic of
 * this node, so that the broker sends the retained ones again and
 * on_discovery_message() clears those no longer published (a remote or
 * button gone after a reload or restart, triggers turned off).
 */
static void publish_discovery_locked(struct ir_mqtt *m)
{
	struct ir_mqtt_topics topics = { 0 };
	size_t keys = m->km ? ir_keymap_key_count(m->km) : 0;
	size_t remotes = m->km ? ir_keymap_remote_count(m->km) : 0;

	if (m->s->discovery) {
		for (unsigned r = 0; r < remotes; r++)
			publish_event_entity_locked(m, r, &topics);
		for (size_t si = 0; m->s->ha_triggers && si < m->source_count; si++)
			for (size_t k = 0; k < keys; k++)
				if (first_of_name(m->km, k))
					publish_trigger_locked(m, m->source_names[si],
							       ir_keymap_key_at(m->km, k), &topics);
	}
	if (topics.count)
		qsort(topics.v, topics.count, sizeof(*topics.v), topic_cmp);
	topics_free(&m->discovery_topics);
	m->discovery_topics = topics;
	mosquitto_subscribe(m->mosq, NULL, m->cleanup_event_filter, 1);
	mosquitto_subscribe(m->mosq, NULL, m->cleanup_trigger_filter, 1);
}

/* A retained config of this node from the broker: cleared (an empty
 * retained payload) when we no longer publish it.  Network thread. */
static void on_discovery_message(struct ir_mqtt *m, const struct mosquitto_message *msg)
{
	bool ev = false, trig = false;

	mosquitto_topic_matches_sub(m->cleanup_event_filter, msg->topic, &ev);
	mosquitto_topic_matches_sub(m->cleanup_trigger_filter, msg->topic, &trig);
	if (!ev && !trig)
		return;
	pthread_mutex_lock(&m->lock);
	if (msg->retain && msg->payloadlen > 0 && !topics_have(&m->discovery_topics, msg->topic)) {
		mqtt_log(m, LOG_INFO, "clearing the stale discovery config %s", msg->topic);
		publish_locked(m, msg->topic, "", 1, true, NULL);
	}
	pthread_mutex_unlock(&m->lock);
}

/* ---- callbacks (network thread) ---- */

static void on_connect(struct mosquitto *mosq, void *obj, int rc)
{
	struct ir_mqtt *m = obj;
	uint64_t offline_us;
	char line[600];
	size_t sent;
	int n;

	(void)mosq;
	if (rc != 0) {
		/* retried with back-off like any failure; said once per outage */
		pthread_mutex_lock(&m->lock);
		if (!m->connect_failure_logged)
			mqtt_log(m, LOG_WARNING, "%s:%u refused the connection: %s", m->s->host,
				 m->s->port, mosquitto_connack_string(rc));
		m->connect_failure_logged = true;
		pthread_mutex_unlock(&m->lock);
		return;
	}
	pthread_mutex_lock(&m->lock);
	m->connected = true;
	m->connect_failure_logged = false;
	m->drop_logged = false;
	m->backoff_s = BACKOFF_MIN_S;
	m->stats.connects++;
	offline_us = ir_monotonic_us() - m->offline_since_us;
	publish_locked(m, m->status_topic, "online", 1, true, NULL);
	mosquitto_subscribe(m->mosq, NULL, m->send_topic, 1);
	mosquitto_subscribe(m->mosq, NULL, m->display_topic, 1);
	publish_discovery_locked(m);
	sent = flush_queue_locked(m);
	/* one line: the daemon's thread may be writing too */
	if (m->stats.connects == 1)
		n = snprintf(line, sizeof(line), "connected to %s:%u, topics under %s/", m->s->host,
			     m->s->port, m->prefix);
	else
		n = snprintf(line, sizeof(line), "reconnected to %s:%u after %.2f s", m->s->host,
			     m->s->port, (double)offline_us / 1e6);
	if (n > 0 && (size_t)n < sizeof(line) && (sent || m->stats.dropped))
		snprintf(line + n, sizeof(line) - (size_t)n,
			 ", %zu queued event%s sent, %" PRIu64 " dropped so far", sent,
			 sent == 1 ? "" : "s", m->stats.dropped);
	mqtt_log(m, LOG_INFO, "%s", line);
	pthread_mutex_unlock(&m->lock);
}

static void on_disconnect(struct mosquitto *mosq, void *obj, int rc)
{
	struct ir_mqtt *m = obj;
	bool was_connected;

	(void)mosq;
	pthread_mutex_lock(&m->lock);
	was_connected = m->connected;
	if (was_connected)
		m->offline_since_us = ir_monotonic_us();
	m->connected = false;
	pthread_cond_broadcast(&m->cond);
	pthread_mutex_unlock(&m->lock);
	if (was_connected && rc != 0)
		mqtt_log(m, LOG_WARNING, "connection to %s:%u lost (%s), reconnecting", m->s->host,
			 m->s->port, mosquitto_strerror(rc));
}

static void on_publish(struct mosquitto *mosq, void *obj, int mid)
{
	struct ir_mqtt *m = obj;

	(void)mosq;
	pthread_mutex_lock(&m->lock);
	if (m->offline_mid && mid == m->offline_mid) {
		m->offline_acked = true;
		pthread_cond_broadcast(&m->cond);
	}
	pthread_mutex_unlock(&m->lock);
}

/* A display request: kept as the newest (a retained one too: it restores
 * the screen after a restart), shown by ir_mqtt_process(). */
static void on_display_message(struct ir_mqtt *m, const char *payload, size_t len)
{
	uint64_t one = 1;

	if (len > IR_MQTT_DISPLAY_MAX || memchr(payload, '\0', len)) {
		mqtt_log(m, LOG_WARNING, "display request refused: over %d bytes or binary",
			 IR_MQTT_DISPLAY_MAX);
		return;
	}
	pthread_mutex_lock(&m->lock);
	memcpy(m->display_request, payload, len);
	m->display_request[len] = '\0';
	m->display_pending = true;
	pthread_mutex_unlock(&m->lock);
	if (write(m->efd, &one, sizeof(one)) != (ssize_t)sizeof(one))
		mqtt_log(m, LOG_ERR, "cannot wake the main loop");
}

static void on_message(struct mosquitto *mosq, void *obj, const struct mosquitto_message *msg)
{
	struct ir_mqtt *m = obj;
	struct irjackd_send_request *req;
	char error[256];
	const char *payload = msg->payload ? msg->payload : "";
	size_t len = msg->payloadlen > 0 ? (size_t)msg->payloadlen : 0;
	uint64_t one = 1;
	int ret;

	(void)mosq;
	if (!strcmp(msg->topic, m->display_topic)) {
		on_display_message(m, payload, len);
		return;
	}
	if (strcmp(msg->topic, m->send_topic) != 0) {
		on_discovery_message(m, msg);
		return;
	}
	if (msg->retain) {
		/* a request retained on the broker would transmit again on every
		 * reconnect: refuse it */
		pthread_mutex_lock(&m->lock);
		m->stats.rejected++;
		pthread_mutex_unlock(&m->lock);
		answer(m, NULL, "retained requests are ignored (publish without -r)", payload,
		       len < 128 ? len : 128);
		return;
	}
	pthread_mutex_lock(&m->lock);
	if (m->request_count == IR_MQTT_REQUEST_QUEUE) {
		m->stats.rejected++;
		pthread_mutex_unlock(&m->lock);
		answer(m, NULL, "busy: too many requests waiting", payload, len);
		return;
	}
	req = &m->requests[(m->request_head + m->request_count) % IR_MQTT_REQUEST_QUEUE];
	ret = irjackd_send_request_parse(payload, len, req, error, sizeof(error));
	if (ret < 0) {
		m->stats.rejected++;
		pthread_mutex_unlock(&m->lock);
		answer(m, req->reply, error, payload, len);
		return;
	}
	m->request_count++;
	pthread_mutex_unlock(&m->lock);
	if (write(m->efd, &one, sizeof(one)) != (ssize_t)sizeof(one))
		mqtt_log(m, LOG_ERR, "cannot wake the main loop");
}

/* ---- the network thread ---- */

static void *network_thread(void *arg)
{
	struct ir_mqtt *m = arg;
	bool have_socket = false, first = true;
	struct timespec deadline;
	int rc;

	pthread_mutex_lock(&m->lock);
	while (!m->stop) {
		pthread_mutex_unlock(&m->lock);
		if (!have_socket) {
			rc = first ? mosquitto_connect(m->mosq, m->s->host, (int)m->s->port,
						       (int)m->s->keepalive)
				   : mosquitto_reconnect(m->mosq);
			if (rc == MOSQ_ERR_SUCCESS) {
				have_socket = true;
				first = false;
			} else {
				int err = errno;

				pthread_mutex_lock(&m->lock);
				if (!m->connect_failure_logged && !m->stop)
					mqtt_log(m, LOG_WARNING, "cannot connect to %s:%u: %s; retrying",
						 m->s->host, m->s->port,
						 rc == MOSQ_ERR_ERRNO ? strerror(err)
								      : mosquitto_strerror(rc));
				m->connect_failure_logged = true;
				pthread_mutex_unlock(&m->lock);
			}
		}
		if (have_socket) {
			rc = mosquitto_loop(m->mosq, 1000, 1);
			pthread_mutex_lock(&m->lock);
			if (rc == MOSQ_ERR_SUCCESS)
				continue;
			have_socket = false;
		} else {
			pthread_mutex_lock(&m->lock);
		}
		if (m->stop)
			break;
		deadline_after_ms(&deadline, m->backoff_s * 1000);
		while (!m->stop && pthread_cond_timedwait(&m->cond, &m->lock, &deadline) != ETIMEDOUT)
			;
		m->backoff_s = m->backoff_s * 2 > BACKOFF_MAX_S ? BACKOFF_MAX_S : m->backoff_s * 2;
	}
	pthread_mutex_unlock(&m->lock);
	return NULL;
}

/* ---- the API ---- */

static void make_host_id(char *out, size_t size)
{
	char host[256] = "";

	if (gethostname(host, sizeof(host) - 1) < 0 || !host[0])
		snprintf(host, sizeof(host), "localhost");
	/* topic-safe: no level separator, wildcard, space or control */
	for (char *c = host; *c; c++)
		if (*c == '/' || *c == '+' || *c == '#' || (unsigned char)*c <= 0x20)
			*c = '_';
	snprintf(out, size, "%s", host);
}

static int read_password_file(const char *path, char *out, size_t size, char *error,
			      size_t error_size)
{
	FILE *f = fopen(path, "r");
	size_t len;

	if (!f) {
		int ret = -errno;

		snprintf(error, error_size, "password_file %s: %s", path, strerror(errno));
		return ret;
	}
	if (!fgets(out, (int)size, f))
		out[0] = '\0';
	fclose(f);
	len = strcspn(out, "\r\n");
	out[len] = '\0';
	if (!len) {
		snprintf(error, error_size, "password_file %s: empty first line", path);
		return -EINVAL;
	}
	return 0;
}

/* Undoes a half-made output; `error` is already written. */
static int fail_new(struct ir_mqtt *m, int ret)
{
	ir_mqtt_free(m);
	return ret;
}

static void free_names(char **names, size_t count)
{
	if (!names)
		return;
	for (size_t i = 0; i < count; i++)
		free(names[i]);
	free(names);
}

/* NULL when count is 0 or memory ran out. */
static char **copy_names(const char *const *names, size_t count)
{
	char **copy = count ? calloc(count, sizeof(*copy)) : NULL;

	if (!copy)
		return NULL;
	for (size_t i = 0; i < count; i++) {
		copy[i] = strdup(names[i]);
		if (!copy[i]) {
			free_names(copy, i);
			return NULL;
		}
	}
	return copy;
}

bool ir_mqtt_same_settings(const struct ir_mqtt_settings *a, const struct ir_mqtt_settings *b)
{
	/* a password file may have changed behind the same name */
	if (a->password_file[0] || b->password_file[0])
		return false;
	return !strcmp(a->host, b->host) && a->port == b->port &&
	       !strcmp(a->client_id, b->client_id) && !strcmp(a->topic_prefix, b->topic_prefix) &&
	       !strcmp(a->username, b->username) && !strcmp(a->password, b->password) &&
	       a->tls == b->tls && !strcmp(a->cafile, b->cafile) &&
	       !strcmp(a->certfile, b->certfile) && !strcmp(a->keyfile, b->keyfile) &&
	       a->qos == b->qos && a->keepalive == b->keepalive && a->queue_max == b->queue_max &&
	       a->discovery == b->discovery && a->ha_triggers == b->ha_triggers && !strcmp(a->discovery_prefix, b->discovery_prefix);
}

int ir_mqtt_rebind(struct ir_mqtt *m, const struct ir_mqtt_config *cfg)
{
	char **names = copy_names(cfg->source_names, cfg->source_count), **old;
	size_t old_count;

	if (!names && cfg->source_count)
		return -ENOMEM;
	pthread_mutex_lock(&m->lock);
	old = m->source_names;
	old_count = m->source_count;
	m->source_names = names;
	m->source_count = cfg->source_count;
	m->km = cfg->keymap;
	m->send = cfg->send;
	m->display = cfg->display;
	m->userdata = cfg->userdata;
	if (m->connected)
		publish_discovery_locked(m); /* the new buttons', the old ones cleared */
	pthread_mutex_unlock(&m->lock);
	free_names(old, old_count);
	return 0;
}

/* The output's state from the configuration, before anything can fail. */
static void init_state(struct ir_mqtt *m, const struct ir_mqtt_config *cfg)
{
	const struct ir_mqtt_settings *s = cfg->settings;
	pthread_condattr_t attr;
	size_t pos;

	m->efd = -1;
	m->settings = *s;
	m->s = &m->settings;
	m->km = cfg->keymap;
	m->source_names = copy_names(cfg->source_names, cfg->source_count);
	m->source_count = m->source_names ? cfg->source_count : 0;
	m->send = cfg->send;
	m->display = cfg->display;
	m->userdata = cfg->userdata;
	m->log = cfg->log;
	m->log_userdata = cfg->userdata;
	m->backoff_s = BACKOFF_MIN_S;
	m->offline_since_us = ir_monotonic_us();
	pthread_mutex_init(&m->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&m->cond, &attr);
	pthread_condattr_destroy(&attr);
	mosquitto_lib_init();
	make_host_id(m->host_id, sizeof(m->host_id));
	if (s->topic_prefix[0])
		snprintf(m->prefix, sizeof(m->prefix), "%s", s->topic_prefix);
	else
		snprintf(m->prefix, sizeof(m->prefix), "irjack/%s", m->host_id);
	snprintf(m->status_topic, sizeof(m->status_topic), "%s/status", m->prefix);
	snprintf(m->send_topic, sizeof(m->send_topic), "%s/send", m->prefix);
	snprintf(m->error_topic, sizeof(m->error_topic), "%s/send/error", m->prefix);
	snprintf(m->display_topic, sizeof(m->display_topic), "%s/display", m->prefix);
	/* one Home Assistant device per daemon: two daemons on one host
	 * (topic prefixes of their own) must not clear each other's configs */
	pos = (size_t)snprintf(m->node_id, sizeof(m->node_id), "irjack_");
	object_id_append(m->node_id, sizeof(m->node_id), &pos,
			 s->topic_prefix[0] ? s->topic_prefix : m->host_id);
	snprintf(m->cleanup_event_filter, sizeof(m->cleanup_event_filter), "%s/event/%s/+/config",
		 s->discovery_prefix, m->node_id);
	snprintf(m->cleanup_trigger_filter, sizeof(m->cleanup_trigger_filter),
		 "%s/device_automation/%s/+/config", s->discovery_prefix, m->node_id);
}

/* The offline queue and the eventfd that wakes the caller's loop. */
static int alloc_queues(struct ir_mqtt *m, size_t source_count, char *error, size_t error_size)
{
	int rc;

	if ((!m->source_names && source_count) ||
	    (m->s->queue_max && !(m->queue = calloc(m->s->queue_max, sizeof(*m->queue))))) {
		snprintf(error, error_size, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	m->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (m->efd < 0) {
		rc = -errno;
		snprintf(error, error_size, "eventfd: %s", strerror(-rc));
		return rc;
	}
	return 0;
}

/* The libmosquitto handle with its callbacks and last will. */
static int make_client(struct ir_mqtt *m, char *error, size_t error_size)
{
	char client_id[IR_MQTT_NAME_MAX + 8];
	int rc;

	if (m->s->client_id[0])
		snprintf(client_id, sizeof(client_id), "%s", m->s->client_id);
	else
		snprintf(client_id, sizeof(client_id), "irjack-%.*s", IR_MQTT_NAME_MAX - 1,
			 m->host_id);
	/* clean session: transmit requests sent while the daemon was away
	 * are stale, and events are queued by us, not by the broker */
	m->mosq = mosquitto_new(client_id, true, m);
	if (!m->mosq) {
		rc = -errno;
		snprintf(error, error_size, "mosquitto_new: %s", strerror(-rc));
		return rc;
	}
	mosquitto_threaded_set(m->mosq, true);
	mosquitto_connect_callback_set(m->mosq, on_connect);
	mosquitto_disconnect_callback_set(m->mosq, on_disconnect);
	mosquitto_publish_callback_set(m->mosq, on_publish);
	mosquitto_message_callback_set(m->mosq, on_message);
	if (mosquitto_will_set(m->mosq, m->status_topic, 7, "offline", 1, true) != MOSQ_ERR_SUCCESS) {
		snprintf(error, error_size, "cannot set the last will on %s", m->status_topic);
		return -EINVAL;
	}
	return 0;
}

/* Username, password (or password file) and TLS files. */
static int set_credentials(struct ir_mqtt *m, char *error, size_t error_size)
{
	const struct ir_mqtt_settings *s = m->s;
	int rc;

	if (s->password_file[0]) {
		rc = read_password_file(s->password_file, m->password, sizeof(m->password), error,
					error_size);
		if (rc < 0)
			return rc;
	} else {
		snprintf(m->password, sizeof(m->password), "%s", s->password);
	}
	if (s->username[0] &&
	    mosquitto_username_pw_set(m->mosq, s->username, m->password[0] ? m->password : NULL) !=
		    MOSQ_ERR_SUCCESS) {
		snprintf(error, error_size, "cannot set username %s", s->username);
		return -EINVAL;
	}
	if (s->tls && mosquitto_tls_set(m->mosq, s->cafile, NULL, s->certfile[0] ? s->certfile : NULL,
					s->keyfile[0] ? s->keyfile : NULL, NULL) != MOSQ_ERR_SUCCESS) {
		snprintf(error, error_size, "TLS: libmosquitto refused cafile %s or the "
					    "certfile/keyfile (missing or unreadable?)",
			 s->cafile);
		return -EINVAL;
	}
	return 0;
}

int ir_mqtt_new(const struct ir_mqtt_config *cfg, struct ir_mqtt **out, char *error,
		size_t error_size)
{
	struct ir_mqtt *m = calloc(1, sizeof(*m));
	int rc;

	if (!m) {
		snprintf(error, error_size, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	init_state(m, cfg);
	if ((rc = alloc_queues(m, cfg->source_count, error, error_size)) < 0 ||
	    (rc = make_client(m, error, error_size)) < 0 ||
	    (rc = set_credentials(m, error, error_size)) < 0)
		return fail_new(m, rc);
	if (pthread_create(&m->thread, NULL, network_thread, m) != 0) {
		snprintf(error, error_size, "cannot start a thread");
		return fail_new(m, -EAGAIN);
	}
	m->thread_started = true;
	*out = m;
	return 0;
}

/* Waits on cond until `done` (read under lock) or ms pass; lock held. */
static void wait_locked(struct ir_mqtt *m, const bool *done, unsigned ms)
{
	struct timespec deadline;

	deadline_after_ms(&deadline, ms);
	while (!*done && pthread_cond_timedwait(&m->cond, &m->lock, &deadline) != ETIMEDOUT)
		;
}

void ir_mqtt_free(struct ir_mqtt *m)
{
	struct timespec deadline;
	bool disconnected;

	if (!m)
		return;
	if (m->thread_started) {
		pthread_mutex_lock(&m->lock);
		if (m->connected &&
		    publish_locked(m, m->status_topic, "offline", 1, true, &m->offline_mid) == 0)
			wait_locked(m, &m->offline_acked, STOP_WAIT_MS);
		pthread_mutex_unlock(&m->lock);
		/* a clean DISCONNECT: the broker drops the last will */
		mosquitto_disconnect(m->mosq);
		pthread_mutex_lock(&m->lock);
		disconnected = !m->connected;
		if (!disconnected) {
			/* wait_locked() wants a flag that turns true */
			deadline_after_ms(&deadline, 1000);
			while (m->connected &&
			       pthread_cond_timedwait(&m->cond, &m->lock, &deadline) != ETIMEDOUT)
				;
		}
		m->stop = true;
		pthread_cond_broadcast(&m->cond);
		pthread_mutex_unlock(&m->lock);
		clock_gettime(CLOCK_REALTIME, &deadline); /* pthread_timedjoin_np's clock */
		deadline.tv_sec += 3;
		if (pthread_timedjoin_np(m->thread, NULL, &deadline) != 0) {
			/* stuck in a blocking connect() to an unreachable broker
			 * (TCP gives up after minutes): connect() is a
			 * cancellation point.  libmosquitto's state is then
			 * unknown, so the handle is left to the exiting process. */
			mqtt_log(m, LOG_WARNING, "the network thread did not stop; cancelled");
			pthread_cancel(m->thread);
			pthread_join(m->thread, NULL);
			m->mosq = NULL;
		}
		mqtt_log(m, LOG_INFO,
			 "%" PRIu64 " events, %" PRIu64 " published, %" PRIu64
			 " dropped, %zu never sent; %" PRIu64 " connections; %" PRIu64
			 " requests carried out, %" PRIu64 " refused",
			 m->stats.events, m->stats.published, m->stats.dropped, m->queue_count,
			 m->stats.connects, m->stats.requests, m->stats.rejected);
	}
	mosquitto_destroy(m->mosq);
	mosquitto_lib_cleanup();
	for (size_t i = 0; i < m->queue_count; i++)
		pending_free(&m->queue[(m->queue_head + i) % m->s->queue_max]);
	free(m->queue);
	free_names(m->source_names, m->source_count);
	topics_free(&m->discovery_topics);
	if (m->efd >= 0)
		close(m->efd);
	pthread_cond_destroy(&m->cond);
	pthread_mutex_destroy(&m->lock);
	free(m);
}

int ir_mqtt_event_payload(const char *source, const struct ir_frame *frame,
			  const struct ir_key_binding *key, const struct timespec *now, char *buf,
			  size_t size)
{
	const struct ir_protocol_info *info = ir_protocol_get(frame->protocol);
	size_t pos = 0;
	char hex[24];

	if (size)
		buf[0] = '\0';
	ir_appendf(buf, size, &pos, "{\"source\":");
	ir_json_append_string(buf, size, &pos, source);
	ir_appendf(buf, size, &pos, ",\"protocol\":");
	ir_json_append_string(buf, size, &pos, info ? info->name : "unknown");
	/* hex, as every IR tool writes it (send requests take it so too) */
	ir_frame_scancode_hex(frame, hex, sizeof(hex));
	ir_appendf(buf, size, &pos, ",\"scancode\":\"%s\"", hex);
	ir_frame_append_rc_json(frame, true, buf, size, &pos);
	ir_appendf(buf, size, &pos, ",\"key\":");
	if (key && key->key)
		ir_json_append_string(buf, size, &pos, key->key);
	else
		ir_appendf(buf, size, &pos, "null");
	ir_appendf(buf, size, &pos, ",\"remote\":");
	if (key && key->remote)
		ir_json_append_string(buf, size, &pos, key->remote);
	else
		ir_appendf(buf, size, &pos, "null");
	ir_appendf(buf, size, &pos, ",\"repeat\":%s,\"toggle\":%s,\"timestamp\":%lld.%03ld}",
		   frame->flags & IR_FRAME_REPEAT ? "true" : "false",
		   frame->flags & IR_FRAME_TOGGLE ? "true" : "false", (long long)now->tv_sec,
		   now->tv_nsec / 1000000L);
	return (int)pos;
}

/* A press (not a repeat) of a named button to its remote's event entity:
 * {"event_type":KEY,"source","protocol","scancode"}.  Only while
 * connected: a press that waited for the broker must not fire an
 * automation late. */
static void publish_press_locked(struct ir_mqtt *m, const char *source,
				 const struct ir_frame *frame, const struct ir_key_binding *key)
{
	const struct ir_protocol_info *info = ir_protocol_get(frame->protocol);
	char topic[TOPIC_MAX], payload[512], hex[24];
	size_t pos = 0;

	if (!m->s->discovery || !m->connected || !key || !key->key || !key->remote ||
	    (frame->flags & IR_FRAME_REPEAT))
		return;
	press_topic(m, key->remote, topic, sizeof(topic));
	ir_appendf(payload, sizeof(payload), &pos, "{\"event_type\":");
	ir_json_append_string(payload, sizeof(payload), &pos, key->key);
	ir_appendf(payload, sizeof(payload), &pos, ",\"source\":");
	ir_json_append_string(payload, sizeof(payload), &pos, source);
	ir_appendf(payload, sizeof(payload), &pos, ",\"protocol\":");
	ir_json_append_string(payload, sizeof(payload), &pos, info ? info->name : "unknown");
	ir_frame_scancode_hex(frame, hex, sizeof(hex));
	ir_appendf(payload, sizeof(payload), &pos, ",\"scancode\":\"%s\"}", hex);
	if (pos < sizeof(payload))
		publish_locked(m, topic, payload, (int)m->s->qos, false, NULL);
}

void ir_mqtt_frame(struct ir_mqtt *m, const char *source, const struct ir_frame *frame,
		   const struct ir_key_binding *key)
{
	char topic[TOPIC_MAX], payload[1024];
	struct timespec now;
	size_t pos;

	clock_gettime(CLOCK_REALTIME, &now);
	snprintf(topic, sizeof(topic), "%s/%s/event", m->prefix, source);
	pos = (size_t)ir_mqtt_event_payload(source, frame, key, &now, payload, sizeof(payload));
	if (pos >= sizeof(payload))
		return; /* names are bounded well below this */

	pthread_mutex_lock(&m->lock);
	m->stats.events++;
	if (m->connected && publish_locked(m, topic, payload, (int)m->s->qos, false, NULL) == 0)
		m->stats.published++;
	else
		enqueue_locked(m, topic, payload);
	m->stats.queued = m->queue_count;
	publish_press_locked(m, source, frame, key);
	pthread_mutex_unlock(&m->lock);
}

int ir_mqtt_fd(const struct ir_mqtt *m)
{
	return m->efd;
}

/* Shows the pending display request, if any; failures are logged (a
 * display has no reply topic: the screen is its own answer). */
static void process_display(struct ir_mqtt *m)
{
	char request[IR_MQTT_DISPLAY_MAX + 1], error[256] = "";
	int ret;

	pthread_mutex_lock(&m->lock);
	if (!m->display_pending) {
		pthread_mutex_unlock(&m->lock);
		return;
	}
	memcpy(request, m->display_request, sizeof(request));
	m->display_pending = false;
	pthread_mutex_unlock(&m->lock);
	if (!m->display)
		return;
	ret = m->display(m->userdata, request, error, sizeof(error));
	if (ret < 0)
		mqtt_log(m, LOG_WARNING, "display request \"%.64s\": %s", request,
			 error[0] ? error : strerror(-ret));
}

void ir_mqtt_process(struct ir_mqtt *m)
{
	struct irjackd_send_request req;
	uint64_t count;
	char error[256];
	int ret;

	if (read(m->efd, &count, sizeof(count)) < 0 && errno != EAGAIN)
		return;
	process_display(m);
	for (;;) {
		pthread_mutex_lock(&m->lock);
		if (!m->request_count) {
			pthread_mutex_unlock(&m->lock);
			return;
		}
		req = m->requests[m->request_head];
		m->request_head = (m->request_head + 1) % IR_MQTT_REQUEST_QUEUE;
		m->request_count--;
		pthread_mutex_unlock(&m->lock);

		error[0] = '\0';
		if (m->send) {
			ret = m->send(m->userdata, &req, error, sizeof(error));
		} else {
			ret = -ENOTSUP;
			snprintf(error, sizeof(error), "this daemon has no transmitter");
		}
		if (ret < 0 && !error[0])
			snprintf(error, sizeof(error), "%s", strerror(-ret));
		pthread_mutex_lock(&m->lock);
		if (ret < 0)
			m->stats.rejected++;
		else
			m->stats.requests++;
		pthread_mutex_unlock(&m->lock);
		answer(m, req.reply, ret < 0 ? error : NULL, NULL, 0);
	}
}

void ir_mqtt_get_stats(struct ir_mqtt *m, struct ir_mqtt_stats *out)
{
	pthread_mutex_lock(&m->lock);
	*out = m->stats;
	out->queued = m->queue_count;
	pthread_mutex_unlock(&m->lock);
}
