/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_output_kinds.c - uinput, the lircd socket and MQTT as output kinds
 * (ir_output.h) over their modules.  What a reload keeps: the lircd socket
 * (clients stay connected) and the MQTT connection (its offline queue and
 * status) when their settings did not change; the uinput device when its
 * settings did not change and it declares every key the new keymap binds;
 * with per_remote, each remote's device whose keys did not change.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "ir_output_kinds.h"
#include "lircd_net.h"
#include "out_lircd.h"
#include "out_lircdev_cuse.h"
#include "out_mqtt.h"
#include "out_uinput.h"
#include "out_uinput_remotes.h"

static void env_log(const struct ir_output_env *env, int level, const char *message)
{
	if (env->log)
		env->log(env->userdata, level, message);
}

/* ---- uinput ---- */

struct uinput_out {
	struct ir_uinput *dev;              /* one device for everything, or */
	struct ir_uinput_remotes *remotes;  /* one per remote (per_remote) */
	struct ir_output_env env;
};

/* Brings the per-remote devices in line with env->keymap and logs what
 * changed; a device that cannot be made is logged and the rest serve. */
static int uinput_remotes_update(struct uinput_out *u, const struct ir_output_env *env,
				 char *err, size_t err_size)
{
	struct ir_uinput_remotes_change c;
	char line[320];
	int ret = ir_uinput_remotes_update(u->remotes, env->keymap, &c, err, err_size);

	if (ret < 0 && c.created + c.kept == 0)
		return ret;
	if (ret < 0)
		env_log(env, LOG_ERR, err);
	for (size_t i = 0; i < ir_uinput_remotes_count(u->remotes); i++) {
		const char *node = ir_uinput_remotes_devnode(u->remotes, i);

		if (!node)
			continue;
		snprintf(line, sizeof(line), "uinput device %s for remote %s", node,
			 ir_uinput_remotes_remote(u->remotes, i));
		env_log(env, LOG_DEBUG, line);
	}
	snprintf(line, sizeof(line),
		 "uinput per remote: %u device(s) kept, %u created, %u removed, %u failed", c.kept,
		 c.created, c.removed, c.failed);
	env_log(env, LOG_INFO, line);
	return 0;
}

static int uinput_open_remotes(const struct ir_uinput_settings *s,
			       const struct ir_output_env *env, struct uinput_out *u, char *err,
			       size_t err_size)
{
	struct ir_uinput_remotes_config rc = { .name = s->name, .vendor = s->vendor };
	char why[256];
	int ret = ir_uinput_remotes_new(&rc, &u->remotes);

	if (ret == 0)
		ret = uinput_remotes_update(u, env, why, sizeof(why));
	if (ret < 0) {
		snprintf(err, err_size, "uinput: %s (is /dev/uinput there and writable?)",
			 ret == -ENOMEM ? strerror(ENOMEM) : why);
		ir_uinput_remotes_free(u->remotes);
	}
	return ret;
}

static int uinput_open(const void *settings, const struct ir_output_env *env, void **impl,
		       char *err, size_t err_size)
{
	const struct ir_uinput_settings *s = settings;
	struct ir_uinput_config uc = {
		.name = s->name,
		.vendor = s->vendor,
		.product = s->product,
		.keymap = env->keymap,
	};
	struct uinput_out *u = calloc(1, sizeof(*u));
	char line[320];
	int ret;

	if (!u)
		return -ENOMEM;
	u->env = *env;
	if (s->per_remote) {
		ret = uinput_open_remotes(s, env, u, err, err_size);
		if (ret < 0)
			free(u);
		else
			*impl = u;
		return ret;
	}
	ret = ir_uinput_new(&uc, &u->dev);
	if (ret < 0) {
		snprintf(err, err_size, "uinput: %s (is /dev/uinput there and writable?)",
			 strerror(-ret));
		free(u);
		return ret;
	}
	snprintf(line, sizeof(line), "uinput device %s", ir_uinput_devnode(u->dev));
	env_log(env, LOG_INFO, line);
	*impl = u;
	return 0;
}

static int uinput_rebind(void *impl, const void *old, const void *settings,
			 const struct ir_output_env *env)
{
	const struct ir_uinput_settings *a = old, *b = settings;
	struct uinput_out *u = impl;
	char err[256];

	if (strcmp(a->name, b->name) || a->vendor != b->vendor || a->product != b->product ||
	    a->per_remote != b->per_remote)
		return -EAGAIN;
	if (u->remotes) {
		/* a reload touches only the remotes that came, went or changed */
		u->env = *env;
		uinput_remotes_update(u, env, err, sizeof(err));
		return 0;
	}
	if (!ir_uinput_has_keys(u->dev, env->keymap))
		return -EAGAIN;
	u->env = *env;
	return 0;
}

static void uinput_key(void *impl, const struct ir_key_event *ev)
{
	struct uinput_out *u = impl;
	int ret;

	if (u->remotes) {
		ret = ir_uinput_remotes_event(u->remotes, ev);
		if (ret == -ENOENT)
			return; /* no remote names the frame: no device is its */
	} else {
		ret = ir_uinput_event(u->dev, ev);
	}
	if (ret < 0)
		env_log(&u->env, LOG_WARNING, "uinput: cannot write an event");
}

static void uinput_status(void *impl, const void *settings, char *line, size_t size)
{
	const struct uinput_out *u = impl;
	size_t len;

	(void)settings;
	if (!u->remotes) {
		snprintf(line, size, "output uinput %s", ir_uinput_devnode(u->dev));
		return;
	}
	snprintf(line, size, "output uinput per remote, %zu device(s)",
		 ir_uinput_remotes_count(u->remotes));
	for (size_t i = 0; i < ir_uinput_remotes_count(u->remotes); i++) {
		const char *node = ir_uinput_remotes_devnode(u->remotes, i);

		len = strlen(line);
		if (len + 1 < size)
			snprintf(line + len, size - len, "%s %s %s", i ? "," : ":",
				 ir_uinput_remotes_remote(u->remotes, i), node ? node : "(none)");
	}
}

static void uinput_close(void *impl)
{
	struct uinput_out *u = impl;

	ir_uinput_free(u->dev);
	ir_uinput_remotes_free(u->remotes);
	free(u);
}

const struct ir_output_kind ir_output_uinput = {
	.name = "uinput",
	.settings_size = sizeof(struct ir_uinput_settings),
	.keeps_running = true,
	.open = uinput_open,
	.rebind = uinput_rebind,
	.key = uinput_key,
	.status = uinput_status,
	.close = uinput_close,
};

/* ---- the lircd socket ---- */

static void lircd_log(void *userdata, const char *message)
{
	const struct ir_output_env *env = userdata;
	char line[320];

	snprintf(line, sizeof(line), "lircd socket: %s", message);
	env_log(env, LOG_WARNING, line);
}

struct lircd_out {
	struct ir_lircd *sock;
	struct ir_output_env env; /* the socket's callbacks' userdata */
};

/* The socket calls back with &lircd_out.env; the program's callbacks get
 * their own userdata. */
static int lircd_send(void *userdata, enum ir_lircd_send kind, const char *remote,
		      const char *key, unsigned repeats, char *error, size_t error_size)
{
	const struct ir_output_env *env = userdata;

	return env->send(env->userdata, kind, remote, key, repeats, error, error_size);
}

static int lircd_set_transmitters(void *userdata, unsigned mask, char *error, size_t error_size)
{
	const struct ir_output_env *env = userdata;

	return env->set_transmitters(env->userdata, mask, error, error_size);
}

static int lircd_display(void *userdata, const char *request, char *error, size_t error_size)
{
	const struct ir_output_env *env = userdata;

	if (!env->display) {
		snprintf(error, error_size, "no display");
		return -ENOTSUP;
	}
	return env->display(env->userdata, request, error, error_size);
}

static unsigned lircd_status_lines(void *userdata, char *buf, size_t size)
{
	const struct ir_output_env *env = userdata;

	return env->status(env->userdata, buf, size);
}

/* Whether a server answers on the UNIX socket `path` (which of the two
 * addresses an -EADDRINUSE is about). */
static bool lircd_path_in_use(const char *path)
{
	int fd = ir_lircd_net_connect(path);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

static int lircd_open(const void *settings, const struct ir_output_env *env, void **impl,
		      char *err, size_t err_size)
{
	const struct ir_lircd_settings *s = settings;
	struct lircd_out *l = calloc(1, sizeof(*l));
	int ret;

	if (!l)
		return -ENOMEM;
	l->env = *env;
	struct ir_lircd_config lc = {
		.path = s->path,
		.mode = s->mode,
		.allow_simulate = s->simulate,
		.listen = s->listen,
		.unix_fd = s->unix_fd,
		.tcp_fd = s->tcp_fd,
		.instance_id = s->instance_id[0] ? s->instance_id : NULL,
		.keymap = env->keymap,
		.send = env->send ? lircd_send : NULL,
		.set_transmitters = env->set_transmitters ? lircd_set_transmitters : NULL,
		.status = env->status ? lircd_status_lines : NULL,
		.display = env->display ? lircd_display : NULL,
		.log = lircd_log,
		.userdata = &l->env,
	};
	ret = ir_lircd_new(&lc, &l->sock);
	if (ret < 0) {
		if (ret == -EADDRINUSE && s->listen[0] && !lircd_path_in_use(s->path))
			snprintf(err, err_size, "lircd listen %s: TCP port in use", s->listen);
		else if (ret == -EADDRNOTAVAIL || (ret == -ENOENT && s->listen[0]))
			snprintf(err, err_size, "lircd listen %s: %s", s->listen,
				 ret == -ENOENT ? "unknown host" : strerror(-ret));
		else if (ret == -EADDRINUSE)
			snprintf(err, err_size,
				 "lircd socket %s: already in use: a daemon (irjackd or lircd) is "
				 "running there; stop it or choose another path",
				 s->path);
		else if (ret == -ENOTSOCK)
			snprintf(err, err_size, "lircd socket %s: exists and is not a socket "
				 "(left alone)", s->path);
		else
			snprintf(err, err_size, "lircd socket %s: %s", s->path, strerror(-ret));
		free(l);
		return ret;
	}
	*impl = l;
	return 0;
}

static int lircd_rebind(void *impl, const void *old, const void *settings,
			const struct ir_output_env *env)
{
	const struct ir_lircd_settings *a = old, *b = settings;
	struct lircd_out *l = impl;

	if (strcmp(a->path, b->path) || a->mode != b->mode || a->simulate != b->simulate ||
	    strcmp(a->listen, b->listen) || a->unix_fd != b->unix_fd || a->tcp_fd != b->tcp_fd ||
	    strcmp(a->instance_id, b->instance_id))
		return -EAGAIN;
	/* a socket file deleted under the daemon comes back on reload */
	if (ir_lircd_check_socket(l->sock) < 0)
		return -EAGAIN;
	l->env = *env;
	ir_lircd_set_keymap(l->sock, env->keymap);
	return 0;
}

static void lircd_key(void *impl, const struct ir_key_event *ev)
{
	struct lircd_out *l = impl;

	ir_lircd_broadcast(l->sock, ev);
}

static size_t lircd_fds(void *impl, struct pollfd *fds, size_t max)
{
	struct lircd_out *l = impl;

	return ir_lircd_fds(l->sock, fds, max);
}

static void lircd_process(void *impl, const struct pollfd *fds, size_t n)
{
	struct lircd_out *l = impl;

	(void)fds;
	(void)n;
	ir_lircd_process(l->sock);
}

static uint64_t lircd_due_us(void *impl)
{
	struct lircd_out *l = impl;

	return ir_lircd_due_us(l->sock);
}

static void lircd_status(void *impl, const void *settings, char *line, size_t size)
{
	const struct ir_lircd_settings *s = settings;
	const struct lircd_out *l = impl;
	size_t clients = ir_lircd_client_count(l->sock);

	snprintf(line, size, "output lircd %s%s%s, %zu client%s", s->path,
		 s->listen[0] || s->tcp_fd > 0 ? ", tcp " : "",
		 s->listen[0] ? s->listen : s->tcp_fd > 0 ? "(systemd)" : "", clients,
		 clients == 1 ? "" : "s");
}

static void lircd_close(void *impl)
{
	struct lircd_out *l = impl;

	ir_lircd_free(l->sock);
	free(l);
}

const struct ir_output_kind ir_output_lircd = {
	.name = "lircd",
	.settings_size = sizeof(struct ir_lircd_settings),
	.keeps_running = true,
	.open = lircd_open,
	.rebind = lircd_rebind,
	.key = lircd_key,
	.fds = lircd_fds,
	.process = lircd_process,
	.due_us = lircd_due_us,
	.status = lircd_status,
	.close = lircd_close,
};

/* ---- MQTT ---- */

static struct ir_mqtt_config mqtt_config(const struct ir_mqtt_settings *s,
					 const struct ir_output_env *env)
{
	return (struct ir_mqtt_config){
		.settings = s,
		.keymap = env->keymap,
		.source_names = env->source_names,
		.source_count = env->source_count,
		.send = env->send_request,
		.display = env->display,
		.log = env->log,
		.userdata = env->userdata,
	};
}

static int mqtt_open(const void *settings, const struct ir_output_env *env, void **impl,
		     char *err, size_t err_size)
{
	struct ir_mqtt_config mc = mqtt_config(settings, env);
	struct ir_mqtt *m;
	char why[256];
	int ret = ir_mqtt_new(&mc, &m, why, sizeof(why));

	if (ret < 0) {
		snprintf(err, err_size, "mqtt: %s", why);
		return ret;
	}
	*impl = m;
	return 0;
}

static int mqtt_rebind(void *impl, const void *old, const void *settings,
		       const struct ir_output_env *env)
{
	struct ir_mqtt_config mc = mqtt_config(settings, env);

	if (!ir_mqtt_same_settings(old, settings))
		return -EAGAIN;
	return ir_mqtt_rebind(impl, &mc) == 0 ? 0 : -EAGAIN;
}

static void mqtt_frame(void *impl, const struct ir_output_frame *f)
{
	ir_mqtt_frame(impl, f->source, f->frame, f->key);
}

static size_t mqtt_fds(void *impl, struct pollfd *fds, size_t max)
{
	if (max == 0)
		return 0;
	fds[0] = (struct pollfd){ .fd = ir_mqtt_fd(impl), .events = POLLIN };
	return 1;
}

static void mqtt_process(void *impl, const struct pollfd *fds, size_t n)
{
	if (n > 0 && (fds[0].revents & POLLIN))
		ir_mqtt_process(impl);
}

static void mqtt_status(void *impl, const void *settings, char *line, size_t size)
{
	const struct ir_mqtt_settings *s = settings;
	struct ir_mqtt_stats ms;

	ir_mqtt_get_stats(impl, &ms);
	snprintf(line, size,
		 "output mqtt %s:%u, events %" PRIu64 ", published %" PRIu64 ", queued %" PRIu64
		 ", dropped %" PRIu64 ", connects %" PRIu64 ", requests %" PRIu64 " (%" PRIu64
		 " rejected)",
		 s->host, s->port, ms.events, ms.published, ms.queued, ms.dropped, ms.connects,
		 ms.requests, ms.rejected);
}

static void mqtt_close(void *impl)
{
	ir_mqtt_free(impl);
}

const struct ir_output_kind ir_output_mqtt = {
	.name = "mqtt",
	.settings_size = sizeof(struct ir_mqtt_settings),
	.keeps_running = true,
	.open = mqtt_open,
	.rebind = mqtt_rebind,
	.frame = mqtt_frame,
	.fds = mqtt_fds,
	.process = mqtt_process,
	.status = mqtt_status,
	.close = mqtt_close,
};

/* ---- the CUSE LIRC device ---- */

struct lircdev_out {
	struct ir_lircdev_cuse *cuse;
	struct ir_output_env env;
	char source[64];  /* the source that feeds it */
	int channel;      /* audio: the channel whose edges it passes on; -1 until a pulse */
	bool gone;        /* the kernel closed the device (logged once) */
};

static void lircdev_bind(struct lircdev_out *l, const struct ir_lircdev_settings *s,
			 const struct ir_output_env *env)
{
	const char *src = s->source[0] ? s->source
					: env->source_count ? env->source_names[0] : "";

	if (strcmp(l->source, src))
		l->channel = -1;
	snprintf(l->source, sizeof(l->source), "%s", src);
	l->env = *env;
}

static int lircdev_open(const void *settings, const struct ir_output_env *env, void **impl,
			char *err, size_t err_size)
{
	const struct ir_lircdev_settings *s = settings;
	struct ir_lircdev_cuse_config cc = { .name = s->name, .timeout_us = s->timeout_us };
	struct lircdev_out *l = calloc(1, sizeof(*l));
	char line[320];
	int ret;

	if (!l)
		return -ENOMEM;
	ret = ir_lircdev_cuse_new(&cc, &l->cuse, err, err_size);
	if (ret < 0) {
		free(l);
		return ret;
	}
	l->channel = -1;
	lircdev_bind(l, s, env);
	snprintf(line, sizeof(line), "lirc device %s, fed by source %s",
		 ir_lircdev_cuse_path(l->cuse), l->source);
	env_log(env, LOG_INFO, line);
	*impl = l;
	return 0;
}

static int lircdev_rebind(void *impl, const void *old, const void *settings,
			  const struct ir_output_env *env)
{
	const struct ir_lircdev_settings *a = old, *b = settings;

	/* the device stays (its readers with it) while its name does */
	if (strcmp(a->name, b->name) || a->timeout_us != b->timeout_us)
		return -EAGAIN;
	lircdev_bind(impl, b, env);
	return 0;
}

static void lircdev_edge(void *impl, const char *source, unsigned channel,
			 const struct ir_edge *edge)
{
	struct lircdev_out *l = impl;

	if (strcmp(source, l->source))
		return;
	/* an audio source in auto mode demodulates every channel; the device
	 * passes on the one the first pulse came from, as one receiver */
	if (l->channel < 0 && edge->kind == IR_PULSE)
		l->channel = (int)channel;
	if (l->channel != (int)channel)
		return;
	ir_lircdev_edge(ir_lircdev_cuse_device(l->cuse), edge);
}

static void lircdev_frame(void *impl, const struct ir_output_frame *f)
{
	struct lircdev_out *l = impl;
	struct timespec ts;
	int keycode = f->key ? f->key->keycode : 0;

	if (strcmp(f->source, l->source))
		return;
	clock_gettime(CLOCK_MONOTONIC, &ts); /* lirc_scancode's clock */
	ir_lircdev_frame(ir_lircdev_cuse_device(l->cuse), f->frame, keycode,
			 (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec);
}

static size_t lircdev_fds(void *impl, struct pollfd *fds, size_t max)
{
	struct lircdev_out *l = impl;

	if (max == 0 || l->gone)
		return 0;
	fds[0] = (struct pollfd){ .fd = ir_lircdev_cuse_fd(l->cuse), .events = POLLIN };
	return 1;
}

static void lircdev_process(void *impl, const struct pollfd *fds, size_t n)
{
	struct lircdev_out *l = impl;
	char line[320];

	if (n == 0 || !(fds[0].revents & (POLLIN | POLLERR | POLLHUP)))
		return;
	if (ir_lircdev_cuse_process(l->cuse) < 0) {
		l->gone = true;
		snprintf(line, sizeof(line), "lirc device %s: the kernel closed it",
			 ir_lircdev_cuse_path(l->cuse));
		env_log(&l->env, LOG_ERR, line);
	}
}

static void lircdev_status(void *impl, const void *settings, char *line, size_t size)
{
	struct lircdev_out *l = impl;
	struct ir_lircdev *dev = ir_lircdev_cuse_device(l->cuse);
	struct ir_lircdev_stats st;

	(void)settings;
	ir_lircdev_get_stats(dev, &st);
	snprintf(line, size,
		 "output lircdev %s, source %s, %zu reader(s), words %" PRIu64
		 ", scancodes %" PRIu64 ", dropped %" PRIu64,
		 ir_lircdev_cuse_path(l->cuse), l->source, ir_lircdev_reader_count(dev), st.words,
		 st.scancodes, st.dropped_words + st.dropped_scancodes);
}

static void lircdev_close(void *impl)
{
	struct lircdev_out *l = impl;

	ir_lircdev_cuse_free(l->cuse);
	free(l);
}

const struct ir_output_kind ir_output_lircdev = {
	.name = "lircdev",
	.settings_size = sizeof(struct ir_lircdev_settings),
	.keeps_running = true,
	.open = lircdev_open,
	.rebind = lircdev_rebind,
	.frame = lircdev_frame,
	.edge = lircdev_edge,
	.fds = lircdev_fds,
	.process = lircdev_process,
	.status = lircdev_status,
	.close = lircdev_close,
};
