/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irjackd_lirc_options.c - lirc_options.conf's [lircd] section onto
 * irjackd's configuration (libinih, lines counted by the reader as in
 * irjackd_config.c).
 */
#include "irjackd_lirc_options.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <syslog.h>
#include <unistd.h>

#include <ini.h>

#include "ir_util.h"
#include "irjackd.h"
#include "lircd_net.h"

struct options {
	const char *path;
	FILE *f;
	unsigned line;
	struct irjackd_config_error *err;
	bool failed;
	char driver[64], device[IRJACKD_PATH_MAX];
	unsigned driver_line;
	char output[IRJACKD_PATH_MAX];
	char configfile[IRJACKD_PATH_MAX];
	unsigned long permission;
	bool has_permission, simulate, has_simulate;
	char listen[128];            /* lircd --listen: "" for its default port */
	bool has_listen;
	char connect[IRJACKD_PATH_MAX]; /* lircd --connect host[:port] */
	unsigned connect_line;
};

/* lircd's options that mean nothing to irjackd (a daemon under systemd,
 * no plugins, key-up by timeout): passed over without a word. */
static const char *const ignored_keys[] = {
	"nodaemon", "pidfile",	      "plugindir",	"repeat-max",	  "effective-user",
	"release",  "release_suffix", "logfile",	"driver-options", "uinput",
	"debug",    "immediate-init", "dynamic-codes",
};

static char *counting_reader(char *str, int num, void *stream)
{
	struct options *o = stream;
	char *s = fgets(str, num, o->f);

	if (s)
		o->line++;
	return s;
}

static int fail(struct options *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct options *o, const char *fmt, ...)
{
	char message[200];
	va_list ap;

	if (o->failed)
		return 0;
	o->failed = true;
	va_start(ap, fmt);
	vsnprintf(message, sizeof(message), fmt, ap);
	va_end(ap);
	o->err->line = 0; /* the message names the file and line: not irjackd.conf's */
	snprintf(o->err->message, sizeof(o->err->message), "%s:%u: %s", o->path, o->line, message);
	return 0;
}

static bool lirc_bool(const char *v, bool *out)
{
	if (!strcasecmp(v, "yes") || !strcasecmp(v, "true") || !strcmp(v, "1") || !strcasecmp(v, "on"))
		*out = true;
	else if (!strcasecmp(v, "no") || !strcasecmp(v, "false") || !strcmp(v, "0") ||
		 !strcasecmp(v, "off"))
		*out = false;
	else
		return false;
	return true;
}

/* lircd's loglevel: a syslog priority (3 error .. 7 debug, 8..10 trace)
 * or its name. */
static bool lirc_loglevel(const char *v, int *out)
{
	static const struct {
		const char *name;
		int level;
	} names[] = { { "error", LOG_ERR },   { "warning", LOG_WARNING }, { "notice", LOG_INFO },
		      { "info", LOG_INFO },   { "debug", LOG_DEBUG },	  { "trace", LOG_DEBUG },
		      { "trace1", LOG_DEBUG }, { "trace2", LOG_DEBUG } };
	char *end;
	long n = strtol(v, &end, 10);

	if (*v && !*end) {
		if (n < 0 || n > 10)
			return false;
		*out = n <= LOG_ERR ? LOG_ERR : n >= LOG_DEBUG ? LOG_DEBUG : n == 5 ? LOG_INFO : (int)n;
		return true;
	}
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		if (!strcasecmp(v, names[i].name)) {
			*out = names[i].level;
			return true;
		}
	}
	return false;
}

static void copy(struct options *o, char *dst, size_t size, const char *name, const char *v)
{
	if (strlen(v) >= size)
		fail(o, "%s: value longer than %zu characters", name, size - 1);
	else
		memcpy(dst, v, strlen(v) + 1);
}

/* listen = [address:]port (lircd --listen; empty: port 8765) and
 * connect = host[:port] (lircd --connect): [output lircd] listen and a
 * [source lircd-connect] type = lircd. */
static void lircd_net_key(struct options *o, const char *name, const char *v)
{
	char host[128];
	unsigned port;

	if (!strcmp(name, "listen")) {
		if (*v && ir_lircd_net_parse(v, 0, host, sizeof(host), &port) < 0)
			fail(o, "listen: expected [address:]port such as 8765, got '%s'", v);
		else
			copy(o, o->listen, sizeof(o->listen), name, *v ? v : "8765");
		o->has_listen = true;
		return;
	}
	if (ir_lircd_net_parse(v, 1, host, sizeof(host), &port) < 0 || !host[0])
		fail(o, "connect: expected host[:port] such as 192.168.1.5:8765, got '%s'", v);
	else
		copy(o, o->connect, sizeof(o->connect), name, v);
	o->connect_line = o->line;
}

static void lircd_key(struct options *o, struct irjackd_config *cfg, const char *name,
		      const char *v)
{
	char *end;

	if (!strcmp(name, "driver")) {
		copy(o, o->driver, sizeof(o->driver), name, v);
		o->driver_line = o->line;
	} else if (!strcmp(name, "device")) {
		copy(o, o->device, sizeof(o->device), name, v);
	} else if (!strcmp(name, "configfile")) {
		copy(o, o->configfile, sizeof(o->configfile), name, v);
	} else if (!strcmp(name, "output")) {
		copy(o, o->output, sizeof(o->output), name, v);
	} else if (!strcmp(name, "permission")) {
		o->permission = strtoul(v, &end, 8);
		if (!*v || *end || *v == '-' || o->permission > 0777)
			fail(o, "permission: expected octal permissions such as 666, got '%s'", v);
		o->has_permission = true;
	} else if (!strcmp(name, "allow-simulate")) {
		if (!lirc_bool(v, &o->simulate))
			fail(o, "allow-simulate: expected yes or no, got '%s'", v);
		o->has_simulate = true;
	} else if (!strcmp(name, "loglevel")) {
		if (!lirc_loglevel(v, &cfg->log_level))
			fail(o, "loglevel: expected 3..10 or error, warning, notice, info, debug, "
				"got '%s'",
			     v);
	} else if (!strcmp(name, "listen") || !strcmp(name, "connect")) {
		lircd_net_key(o, name, v);
	} else {
		for (size_t i = 0; i < ARRAY_SIZE(ignored_keys); i++)
			if (!strcmp(name, ignored_keys[i]))
				return;
		irjackd_log(LOG_WARNING, "%s:%u: [lircd]: unknown option '%s'; ignored", o->path,
			    o->line, name);
	}
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct options *o = ((void **)user)[0];
	struct irjackd_config *cfg = ((void **)user)[1];

	if (o->failed)
		return 0;
	/* [lircmd], [modinit], [lircd-uinput]: other programs' */
	if (strcmp(section, "lircd") != 0)
		return 1;
	lircd_key(o, cfg, name, value ? value : "");
	return !o->failed;
}

/* driver + device: one source named "lirc" (or "lirc-options" when
 * irjackd.conf has a source of that name). */
static void add_source(struct options *o, struct irjackd_config *cfg)
{
	struct irjackd_source *s;
	enum irjackd_source_type type;
	bool automatic = !o->device[0] || !strcmp(o->device, "auto");

	if (!o->driver[0])
		return;
	if (!strcmp(o->driver, "default")) {
		type = IRJACKD_SOURCE_LIRC;
	} else if (!strcmp(o->driver, "devinput")) {
		type = IRJACKD_SOURCE_DEVINPUT;
	} else if (!strcmp(o->driver, "audio_alsa") || !strcmp(o->driver, "alsa_usb")) {
		type = IRJACKD_SOURCE_ALSA;
	} else {
		irjackd_log(LOG_WARNING,
			    "%s:%u: driver %s: not supported by irjackd (default, devinput, "
			    "audio_alsa and alsa_usb are); no source added from it: add a "
			    "[source NAME] for the receiver",
			    o->path, o->driver_line, o->driver);
		return;
	}
	if (cfg->source_count == IRJACKD_MAX_SOURCES) {
		o->line = o->driver_line;
		fail(o, "driver: too many sources (at most %d)", IRJACKD_MAX_SOURCES);
		return;
	}
	s = &cfg->sources[cfg->source_count];
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "lirc");
	for (unsigned i = 0; i < cfg->source_count; i++)
		if (!strcmp(cfg->sources[i].name, "lirc"))
			snprintf(s->name, sizeof(s->name), "lirc-options");
	s->type = type;
	s->channel = -1;
	s->line = o->driver_line;
	ir_protocol_set_default(&s->protocols);
	if (type == IRJACKD_SOURCE_LIRC)
		snprintf(s->device, sizeof(s->device), "%s", automatic ? "/dev/lirc0" : o->device);
	else if (type == IRJACKD_SOURCE_DEVINPUT) /* lircd's "name=GLOB" and paths alike */
		snprintf(s->device, sizeof(s->device), "%s", automatic ? "auto" : o->device);
	else /* audio_alsa's "hw:1,0@48000": the PCM before '@' */
		snprintf(s->device, sizeof(s->device), "%.*s", (int)strcspn(o->device, "@"),
			 automatic ? "default" : o->device);
	cfg->source_count++;
}

/* connect: one more source, "lircd-connect", reading the peer. */
static void add_connect_source(struct options *o, struct irjackd_config *cfg)
{
	struct irjackd_source *s;

	if (!o->connect[0])
		return;
	if (cfg->source_count == IRJACKD_MAX_SOURCES) {
		o->line = o->connect_line;
		fail(o, "connect: too many sources (at most %d)", IRJACKD_MAX_SOURCES);
		return;
	}
	s = &cfg->sources[cfg->source_count++];
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "lircd-connect");
	s->type = IRJACKD_SOURCE_LIRCD;
	s->channel = -1;
	s->line = o->connect_line;
	ir_protocol_set_default(&s->protocols);
	snprintf(s->device, sizeof(s->device), "%s", o->connect);
}

/* lircd's configfile, by default lircd.conf in its own folder (/etc/lirc);
 * a configfile named explicitly must exist (the keymap loader says so). */
static void add_lircd_conf(struct options *o, struct irjackd_config *cfg)
{
	const char *slash = strrchr(o->path, '/');
	char conf[IRJACKD_PATH_MAX];
	int n = snprintf(conf, sizeof(conf), "%.*s/lircd.conf", slash ? (int)(slash - o->path) : 1,
			 slash ? o->path : ".");

	if (o->configfile[0])
		snprintf(conf, sizeof(conf), "%s", o->configfile);
	else if (n < 0 || (size_t)n >= sizeof(conf) || access(conf, F_OK) < 0)
		return;
	for (unsigned i = 0; i < cfg->keymap_count; i++)
		if (!strcmp(cfg->keymaps[i], conf))
			return;
	if (cfg->keymap_count == IRJACKD_MAX_KEYMAPS) {
		fail(o, "%s: at most %d keymaps", conf, IRJACKD_MAX_KEYMAPS);
		return;
	}
	snprintf(cfg->keymaps[cfg->keymap_count++], IRJACKD_PATH_MAX, "%s", conf);
}

static void apply_output(struct options *o, struct irjackd_config *cfg)
{
	if (cfg->lircd) {
		if (o->has_listen && strcmp(o->listen, cfg->lircd_listen))
			irjackd_log(LOG_INFO, "%s: listen %s: [output lircd] in %s wins", o->path,
				    o->listen, cfg->path);
		if (o->output[0] && strcmp(o->output, cfg->lircd_path))
			irjackd_log(LOG_INFO, "%s: output %s: [output lircd] in %s wins (%s)", o->path,
				    o->output, cfg->path, cfg->lircd_path);
		return;
	}
	cfg->lircd = true;
	if (o->has_listen)
		snprintf(cfg->lircd_listen, sizeof(cfg->lircd_listen), "%s", o->listen);
	if (o->output[0])
		snprintf(cfg->lircd_path, sizeof(cfg->lircd_path), "%s", o->output);
	/* lircd's own defaults: 0666 and no SIMULATE */
	cfg->lircd_mode = o->has_permission ? (unsigned)o->permission : 0666;
	cfg->lircd_simulate = o->has_simulate && o->simulate;
}

int irjackd_lirc_options_apply(const char *path, struct irjackd_config *cfg,
			       struct irjackd_config_error *err)
{
	struct options o = { .path = path, .err = err };
	void *user[2] = { &o, cfg };
	int ret;

	memset(err, 0, sizeof(*err));
	o.f = fopen(path, "r");
	if (!o.f) {
		ret = -errno;
		snprintf(err->message, sizeof(err->message), "lirc_options %s: %s", path,
			 strerror(-ret));
		return ret;
	}
	ret = ini_parse_stream(counting_reader, &o, handler, user);
	fclose(o.f);
	if (!o.failed && ret != 0) {
		o.line = ret > 0 ? (unsigned)ret : 0;
		fail(&o, "syntax error: expected [section] or key = value");
	}
	if (!o.failed) {
		add_source(&o, cfg);
		add_connect_source(&o, cfg);
		apply_output(&o, cfg);
		add_lircd_conf(&o, cfg);
	}
	return o.failed ? -EINVAL : 0;
}
