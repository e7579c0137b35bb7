/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irjackd_config.c - the INI configuration, parsed with libinih.  inih does
 * not tell the handler the line, so the reader it is given counts lines:
 * the handler runs right after the line holding its key was read.
 */
#include "irjackd_config.h"
#include "irjackd_lirc_options.h"
#include "lircd_net.h"
#include "ir_util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <syslog.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <ini.h>

#define MAX_SECTIONS (IRJACKD_MAX_SOURCES + IRJACKD_MAX_TRANSMITTERS + 8)

struct parse {
	FILE *f;
	unsigned line;
	struct irjackd_config *cfg;
	struct irjackd_config_error *err;
	bool failed;
	bool section_header; /* a [section] line was read since the last key */
	unsigned header_line; /* the line of the last [section] */
	char header_name[128]; /* its name, to enter it even if no key follows */
	char last_section[128];
	char seen[MAX_SECTIONS][128];
	unsigned seen_count;
	/* the entry the current section fills */
	struct irjackd_source *source;
	struct irjackd_transmitter *tx;
	bool source_has_type, tx_has_type;
};

static int fail(struct parse *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The longest [section] libinih keeps whole (ini.c's MAX_SECTION - 1). */
#define INIH_SECTION_MAX 49

static bool enter_section(struct parse *p, const char *section);

/* A [section] with no key under it never reaches the handler (inih calls
 * it per key), yet "[output mqtt]" alone means "publish with the
 * defaults": enter it when the next header or the end shows it empty. */
static void enter_empty_section(struct parse *p)
{
	unsigned line = p->line;

	if (!p->section_header || p->failed)
		return;
	p->section_header = false;
	p->line = p->header_line;
	snprintf(p->last_section, sizeof(p->last_section), "%s", p->header_name);
	enter_section(p, p->header_name);
	p->line = line;
}

static char *counting_reader(char *str, int num, void *stream)
{
	struct parse *p = stream;
	char *s = fgets(str, num, p->f);

	if (s) {
		const char *c = s;
		size_t len = strlen(s);

		p->line++;
		/* inih reads lines into a fixed buffer (INI_MAX_LINE, 200 in
		 * Debian's build) and parses the rest of a longer one as the next
		 * line: a long device path became "syntax error" on a line
		 * that does not exist */
		if (num > 2 && len == (size_t)num - 1 && s[len - 1] != '\n' && !feof(p->f)) {
			fail(p, "line longer than %d characters", num - 3);
			return NULL;
		}
		/* fgets stopped before the buffer's end, the line's end and the
		 * file's: a NUL byte (/dev/zero was an endless run of empty
		 * lines) */
		if ((len == 0 || (s[len - 1] != '\n' && len < (size_t)num - 1)) && !feof(p->f)) {
			fail(p, "NUL byte: not a text file");
			return NULL;
		}
		while (*c == ' ' || *c == '\t')
			c++;
		/* a section header, even one repeating the last name (inih
		 * would merge the two) */
		if (*c == '[') {
			size_t name_len = strcspn(c + 1, "]\r\n");

			enter_empty_section(p);
			/* inih reports "[name" as an error, then hands the keys
			 * below it to the previous section, which then seemed to
			 * appear twice */
			if (c[1 + name_len] != ']') {
				fail(p, "syntax error: '[' without ']'");
				return NULL;
			}
			p->section_header = true;
			p->header_line = p->line;
			/* inih cuts section names at 49 characters (its
			 * MAX_SECTION, 50): two long names could meet, or a
			 * name be silently shortened */
			if (name_len > INIH_SECTION_MAX) {
				fail(p, "section name longer than %d characters", INIH_SECTION_MAX);
				return NULL;
			}
			/* the name as inih reads it: up to ']', trailing blanks cut */
			while (name_len && (c[name_len] == ' ' || c[name_len] == '\t'))
				name_len--;
			snprintf(p->header_name, sizeof(p->header_name), "%.*s", (int)name_len, c + 1);
		}
	}
	return s;
}

static int fail(struct parse *p, const char *fmt, ...)
{
	va_list ap;

	if (!p->failed) {
		p->failed = true;
		p->err->line = p->line;
		va_start(ap, fmt);
		vsnprintf(p->err->message, sizeof(p->err->message), fmt, ap);
		va_end(ap);
	}
	return 0; /* stops inih */
}

/* The command line's --lirc-options: main() sets it once, before any
 * configuration is read; reloads read it on the loop's thread. */
static char cli_lirc_options[IRJACKD_PATH_MAX];

void irjackd_config_set_lirc_options(const char *path)
{
	snprintf(cli_lirc_options, sizeof(cli_lirc_options), "%s", path ? path : "");
}

void irjackd_config_defaults(struct irjackd_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	snprintf(cfg->lirc_options, sizeof(cfg->lirc_options), "%s", cli_lirc_options);
	cfg->keyup_timeout_ms = 125;
	cfg->log_level = LOG_INFO;
	snprintf(cfg->uinput_name, sizeof(cfg->uinput_name), "irjack");
	cfg->uinput_vendor = 0x1209; /* pid.codes' open-source vendor id */
	cfg->uinput_product = 0x0001;
	snprintf(cfg->lircdev_name, sizeof(cfg->lircdev_name), "lirc-irjack");
	snprintf(cfg->lcddev_name, sizeof(cfg->lcddev_name), "lcd0"); /* lirc_imon's, lcdproc's */
	snprintf(cfg->lircd_path, sizeof(cfg->lircd_path), "/run/irjack/lircd");
	cfg->lircd_mode = 0660;
	snprintf(cfg->json_path, sizeof(cfg->json_path), "-");
	snprintf(cfg->mqtt_cfg.host, sizeof(cfg->mqtt_cfg.host), "localhost");
	cfg->mqtt_cfg.qos = 1;
	cfg->mqtt_cfg.keepalive = 60;
	cfg->mqtt_cfg.queue_max = 1000;
	snprintf(cfg->mqtt_cfg.discovery_prefix, sizeof(cfg->mqtt_cfg.discovery_prefix),
		 "homeassistant");
}

static const char *const source_types[] = { "alsa", "portaudio", "file", "lirc", "mceusb", "imon",
						     "devinput", [IRJACKD_SOURCE_LIRCD] = "lircd" };
static const char *const tx_types[] = { "alsa", "file", "lirc", "mceusb" };

const char *irjackd_source_type_name(enum irjackd_source_type type)
{
	return (unsigned)type < ARRAY_SIZE(source_types) ? source_types[type]
										: "?";
}

const char *irjackd_tx_type_name(enum irjackd_tx_type type)
{
	return (unsigned)type < ARRAY_SIZE(tx_types) ? tx_types[type] : "?";
}

static bool parse_uint(const char *v, unsigned long min, unsigned long max, int base,
		       unsigned long *out)
{
	char *end;
	unsigned long n;

	if (!*v || *v == '-')
		return false;
	errno = 0;
	n = strtoul(v, &end, base);
	if (errno || *end || n < min || n > max)
		return false;
	*out = n;
	return true;
}

static bool parse_bool(const char *v, bool *out)
{
	if (!strcasecmp(v, "yes") || !strcasecmp(v, "true") || !strcmp(v, "1") ||
	    !strcasecmp(v, "on"))
		*out = true;
	else if (!strcasecmp(v, "no") || !strcasecmp(v, "false") || !strcmp(v, "0") ||
		 !strcasecmp(v, "off"))
		*out = false;
	else
		return false;
	return true;
}

static bool copy_value(struct parse *p, char *dst, size_t size, const char *name, const char *v)
{
	if (strlen(v) >= size) {
		fail(p, "%s: value longer than %zu characters", name, size - 1);
		return false;
	}
	memcpy(dst, v, strlen(v) + 1);
	return true;
}

/* A section's name after its kind: "source tv" -> "tv".  Names are words:
 * letters, digits, '-', '_', '.'. */
static const char *section_name(struct parse *p, const char *section, size_t kind_len)
{
	const char *name = section + kind_len;

	while (*name == ' ' || *name == '\t')
		name++;
	if (!*name) {
		fail(p, "[%s] needs a name: [%.*s NAME]", section, (int)kind_len, section);
		return NULL;
	}
	if (strlen(name) >= IRJACKD_NAME_MAX) {
		fail(p, "[%s]: name longer than %d characters", section, IRJACKD_NAME_MAX - 1);
		return NULL;
	}
	for (const char *c = name; *c; c++) {
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (*c >= '0' && *c <= '9') || *c == '-' || *c == '_' || *c == '.')) {
			fail(p, "[%s]: a name is letters, digits, '-', '_' and '.'", section);
			return NULL;
		}
	}
	return name;
}

/* Sources and transmitters must say what they are. */
static bool leave_section(struct parse *p)
{
	if (p->source && !p->source_has_type) {
		p->line = p->source->line;
		fail(p, "[source %s]: no type (alsa, portaudio, file, lirc, mceusb or imon)",
		     p->source->name);
		return false;
	}
	if (p->tx && !p->tx_has_type) {
		p->line = p->tx->line;
		fail(p, "[transmitter %s]: no type (alsa, file, lirc or mceusb)", p->tx->name);
		return false;
	}
	return true;
}

/* Called on the first key of each section. */
static bool enter_section(struct parse *p, const char *section)
{
	struct irjackd_config *cfg = p->cfg;
	const char *name;

	if (!leave_section(p))
		return false;

	for (unsigned i = 0; i < p->seen_count; i++) {
		if (!strcmp(p->seen[i], section)) {
			fail(p, "[%s] appears twice", section);
			return false;
		}
	}
	if (p->seen_count == MAX_SECTIONS) {
		fail(p, "too many sections (at most %d)", MAX_SECTIONS);
		return false;
	}
	snprintf(p->seen[p->seen_count++], sizeof(p->seen[0]), "%s", section);
	p->source = NULL;
	p->tx = NULL;
	if (!strcmp(section, "daemon") || !strcmp(section, "output uinput") ||
	    !strcmp(section, "output lircd") || !strcmp(section, "output json") ||
	    !strcmp(section, "output mqtt") || !strcmp(section, "output lircdev") ||
	    !strcmp(section, "output lcddev")) {
		if (!strcmp(section, "output lircdev")) {
			cfg->lircdev = true;
			cfg->lircdev_line = p->header_line;
		} else if (!strcmp(section, "output lcddev")) {
			cfg->lcddev = true;
			cfg->lcddev_line = p->header_line;
		} else if (!strcmp(section, "output mqtt")) {
			cfg->mqtt = true;
			cfg->mqtt_cfg.line = p->header_line;
		} else if (!strcmp(section, "output uinput"))
			cfg->uinput = true;
		else if (!strcmp(section, "output lircd"))
			cfg->lircd = true;
		else if (!strcmp(section, "output json"))
			cfg->json = true;
		return true;
	}
	if (!strncmp(section, "source", 6) && (section[6] == ' ' || !section[6])) {
		if (!(name = section_name(p, section, 6)))
			return false;
		if (cfg->source_count == IRJACKD_MAX_SOURCES) {
			fail(p, "too many sources (at most %d)", IRJACKD_MAX_SOURCES);
			return false;
		}
		p->source = &cfg->sources[cfg->source_count++];
		memset(p->source, 0, sizeof(*p->source));
		snprintf(p->source->name, sizeof(p->source->name), "%s", name);
		p->source->channel = -1;
		p->source->line = p->header_line;
		ir_protocol_set_default(&p->source->protocols);
		p->source_has_type = false;
		return true;
	}
	if (!strncmp(section, "transmitter", 11) && (section[11] == ' ' || !section[11])) {
		if (!(name = section_name(p, section, 11)))
			return false;
		if (cfg->transmitter_count == IRJACKD_MAX_TRANSMITTERS) {
			fail(p, "too many transmitters (at most %d)", IRJACKD_MAX_TRANSMITTERS);
			return false;
		}
		p->tx = &cfg->transmitters[cfg->transmitter_count++];
		memset(p->tx, 0, sizeof(*p->tx));
		snprintf(p->tx->name, sizeof(p->tx->name), "%s", name);
		p->tx->volume = 0.5;
		p->tx->line = p->header_line;
		p->tx_has_type = false;
		return true;
	}
	fail(p, "unknown section [%s] (daemon, source NAME, output uinput|lircd|json|mqtt|lircdev|lcddev, "
		"transmitter NAME)",
	     section);
	return false;
}

static void daemon_key(struct parse *p, const char *name, const char *v)
{
	struct irjackd_config *cfg = p->cfg;
	unsigned long n;

	if (!strcmp(name, "keymap")) {
		if (cfg->keymap_count == IRJACKD_MAX_KEYMAPS) {
			fail(p, "keymap: at most %d keymap lines", IRJACKD_MAX_KEYMAPS);
			return;
		}
		if (copy_value(p, cfg->keymaps[cfg->keymap_count], IRJACKD_PATH_MAX, name, v))
			cfg->keymap_count++;
	} else if (!strcmp(name, "keyup_timeout_ms")) {
		if (!parse_uint(v, 10, 10000, 10, &n))
			fail(p, "keyup_timeout_ms: expected milliseconds from 10 to 10000, got '%s'", v);
		else
			cfg->keyup_timeout_ms = (uint32_t)n;
	} else if (!strcmp(name, "log_level")) {
		static const struct {
			const char *name;
			int level;
		} levels[] = { { "error", LOG_ERR }, { "warning", LOG_WARNING },
			       { "info", LOG_INFO }, { "debug", LOG_DEBUG } };

		for (size_t i = 0; i < ARRAY_SIZE(levels); i++) {
			if (!strcasecmp(v, levels[i].name)) {
				cfg->log_level = levels[i].level;
				return;
			}
		}
		fail(p, "log_level: expected error, warning, info or debug, got '%s'", v);
	} else if (!strcmp(name, "lirc_options")) {
		copy_value(p, cfg->lirc_options, sizeof(cfg->lirc_options), name, v);
	} else if (!strcmp(name, "rc_maps")) {
		copy_value(p, cfg->rc_maps, sizeof(cfg->rc_maps), name, v);
	} else {
		fail(p, "[daemon]: unknown key '%s' (keymap, keyup_timeout_ms, log_level, "
			"lirc_options, rc_maps)",
		     name);
	}
}

static void source_key(struct parse *p, const char *name, const char *v)
{
	struct irjackd_source *s = p->source;
	unsigned long n;

	if (!strcmp(name, "type")) {
		for (size_t i = 0; i < ARRAY_SIZE(source_types); i++) {
			if (!strcmp(v, source_types[i])) {
				s->type = (enum irjackd_source_type)i;
				p->source_has_type = true;
				return;
			}
		}
		fail(p, "type: expected alsa, portaudio, file, lirc, devinput, mceusb, imon or lircd, "
			"got '%s'", v);
	} else if (!strcmp(name, "device")) {
		copy_value(p, s->device, sizeof(s->device), name, v);
	} else if (!strcmp(name, "rate")) {
		if (!parse_uint(v, 8000, 192000, 10, &n))
			fail(p, "rate: expected a sample rate from 8000 to 192000 Hz, got '%s'", v);
		else
			s->rate = (unsigned)n;
	} else if (!strcmp(name, "channel")) {
		if (!strcasecmp(v, "auto"))
			s->channel = -1;
		else if (!strcasecmp(v, "left"))
			s->channel = 0;
		else if (!strcasecmp(v, "right"))
			s->channel = 1;
		else if (parse_uint(v, 1, 8, 10, &n))
			s->channel = (int)n - 1;
		else
			fail(p, "channel: expected left, right, auto or 1..8, got '%s'", v);
	} else if (!strcmp(name, "polarity")) {
		if (!strcasecmp(v, "auto"))
			s->polarity = IR_POLARITY_AUTO;
		else if (!strcasecmp(v, "high"))
			s->polarity = IR_POLARITY_PULSE_HIGH;
		else if (!strcasecmp(v, "low"))
			s->polarity = IR_POLARITY_PULSE_LOW;
		else
			fail(p, "polarity: expected auto, high or low, got '%s'", v);
	} else if (!strcmp(name, "protocols")) {
		char bad[64];

		if (ir_protocol_set_parse(v, &s->protocols, bad, sizeof(bad)) < 0)
			fail(p, "protocols: unknown protocol '%s' (see 'irjack protocols')", bad);
	} else if (!strcmp(name, "timeout_ms")) {
		if (!parse_uint(v, 10, 10000, 10, &n))
			fail(p, "timeout_ms: expected milliseconds from 10 to 10000, got '%s'", v);
		else
			s->timeout_us = (uint32_t)n * 1000;
	} else if (!strcmp(name, "period_us")) {
		if (!parse_uint(v, 250, 1000000, 10, &n))
			fail(p, "period_us: expected microseconds from 250 to 1000000, got '%s'", v);
		else
			s->period_us = (unsigned)n;
	} else if (!strcmp(name, "replay_delay_ms")) {
		if (!parse_uint(v, 0, 600000, 10, &n))
			fail(p, "replay_delay_ms: expected milliseconds from 0 to 600000, got '%s'", v);
		else
			s->replay_delay_ms = (uint32_t)n;
	} else if (!strcmp(name, "required")) {
		if (!parse_bool(v, &s->required))
			fail(p, "required: expected yes or no, got '%s'", v);
	} else {
		fail(p, "[source %s]: unknown key '%s' (type, device, rate, channel, polarity, "
			"protocols, timeout_ms, period_us, replay_delay_ms, required)",
		     s->name, name);
	}
}

static void tx_key(struct parse *p, const char *name, const char *v)
{
	struct irjackd_transmitter *t = p->tx;

	if (!strcmp(name, "type")) {
		for (size_t i = 0; i < ARRAY_SIZE(tx_types); i++) {
			if (!strcmp(v, tx_types[i])) {
				t->type = (enum irjackd_tx_type)i;
				p->tx_has_type = true;
				return;
			}
		}
		fail(p, "type: expected alsa, file, lirc or mceusb, got '%s'", v);
	} else if (!strcmp(name, "device")) {
		copy_value(p, t->device, sizeof(t->device), name, v);
	} else if (!strcmp(name, "mode")) {
		if (strcmp(v, "half-carrier-stereo") && strcmp(v, "full-carrier") &&
		    strcmp(v, "subharmonic"))
			fail(p, "mode: expected half-carrier-stereo, full-carrier or subharmonic, "
				"got '%s'",
			     v);
		else
			copy_value(p, t->mode, sizeof(t->mode), name, v);
	} else if (!strcmp(name, "volume")) {
		char *end;
		double d = strtod(v, &end);

		if (!*v || *end || !(d > 0 && d <= 1))
			fail(p, "volume: expected a number above 0 and at most 1, got '%s'", v);
		else
			t->volume = d;
	} else if (!strcmp(name, "remotes")) {
		copy_value(p, t->remotes, sizeof(t->remotes), name, v);
	} else {
		fail(p, "[transmitter %s]: unknown key '%s' (type, device, mode, volume, remotes)",
		     t->name, name);
	}
}

/* An MQTT topic level path we publish under: no wildcards, no empty
 * levels, no leading or trailing '/'. */
static bool valid_topic_prefix(const char *v)
{
	size_t len = strlen(v);

	if (!len || v[0] == '/' || v[len - 1] == '/' || strstr(v, "//"))
		return false;
	for (const char *c = v; *c; c++)
		if (*c == '+' || *c == '#' || (unsigned char)*c < 0x20)
			return false;
	return true;
}

static bool has_space_or_control(const char *v)
{
	for (const char *c = v; *c; c++)
		if ((unsigned char)*c <= 0x20)
			return true;
	return false;
}

/* A host name or a client id: one word, no spaces or control characters. */
static bool is_one_word(const char *v)
{
	return !has_space_or_control(v);
}

/* One key of [output mqtt]: where its value goes and what it may be. */
struct mqtt_key_def {
	const char *name;
	enum { MQTT_TEXT, MQTT_UINT, MQTT_BOOL } kind;
	size_t at, size;              /* offset in ir_mqtt_settings; TEXT: its buffer */
	unsigned long min, max;       /* UINT */
	bool (*valid)(const char *v); /* TEXT: NULL takes any text */
	const char *expected;         /* for the error: what the value may be */
};

#define TEXT(N, VALID, WHAT) \
	{ #N, MQTT_TEXT, offsetof(struct ir_mqtt_settings, N), sizeof(((struct ir_mqtt_settings *)0)->N), 0, 0, VALID, WHAT }
#define UINT(N, MIN, MAX, WHAT) { #N, MQTT_UINT, offsetof(struct ir_mqtt_settings, N), 0, MIN, MAX, NULL, WHAT }
#define BOOL(N) { #N, MQTT_BOOL, offsetof(struct ir_mqtt_settings, N), 0, 0, 0, NULL, "yes or no" }
static const struct mqtt_key_def mqtt_keys[] = {
	TEXT(host, is_one_word, "a host name or address"),
	UINT(port, 1, 65535, "a TCP port from 1 to 65535"),
	/* MQTT 3.1.1 only promises 23 characters; brokers take more, but no
	 * spaces or control characters in a log-friendly id */
	TEXT(client_id, is_one_word, "a name without spaces or control characters"),
	TEXT(topic_prefix, valid_topic_prefix,
	     "topic levels such as irjack/livingroom (no '+', '#', empty levels or leading/trailing '/')"),
	TEXT(username, NULL, NULL),
	TEXT(password, NULL, NULL),
	TEXT(password_file, NULL, NULL),
	BOOL(tls),
	TEXT(cafile, NULL, NULL),
	TEXT(certfile, NULL, NULL),
	TEXT(keyfile, NULL, NULL),
	UINT(qos, 0, 2, "0, 1 or 2"),
	UINT(keepalive, 5, 3600, "seconds from 5 to 3600"),
	UINT(queue_max, 0, 100000, "a number of events from 0 to 100000"),
	BOOL(discovery),
	TEXT(discovery_prefix, valid_topic_prefix, "topic levels such as homeassistant"),
	BOOL(ha_triggers),
};
#undef TEXT
#undef UINT
#undef BOOL

/* Stores one [output mqtt] value as its definition says. */
static void mqtt_value(struct parse *p, const struct mqtt_key_def *k, const char *v)
{
	char *at = (char *)&p->cfg->mqtt_cfg + k->at;
	unsigned long n;
	bool ok = true;

	switch (k->kind) {
	case MQTT_TEXT:
		if (k->valid && !k->valid(v))
			ok = false;
		else
			copy_value(p, at, k->size, k->name, v);
		break;
	case MQTT_UINT:
		if ((ok = parse_uint(v, k->min, k->max, 10, &n)))
			*(unsigned *)at = (unsigned)n;
		break;
	case MQTT_BOOL:
		ok = parse_bool(v, (bool *)at);
		break;
	}
	if (!ok)
		fail(p, "%s: expected %s, got '%s'", k->name, k->expected, v);
}

static void mqtt_key(struct parse *p, const char *name, const char *v)
{
	const struct ir_mqtt_settings *m = &p->cfg->mqtt_cfg;
	char known[256] = "";

	if (!strcmp(name, "password") && m->password_file[0]) {
		fail(p, "password: password_file is already set (one or the other)");
		return;
	}
	if (!strcmp(name, "password_file") && m->password[0]) {
		fail(p, "password_file: password is already set (one or the other)");
		return;
	}
	for (size_t i = 0; i < sizeof(mqtt_keys) / sizeof(mqtt_keys[0]); i++) {
		if (!strcmp(name, mqtt_keys[i].name)) {
			mqtt_value(p, &mqtt_keys[i], v);
			return;
		}
		snprintf(known + strlen(known), sizeof(known) - strlen(known), "%s%s", i ? ", " : "",
			 mqtt_keys[i].name);
	}
	fail(p, "[output mqtt]: unknown key '%s' (%s)", name, known);
}

/* [output lircd] listen = [ADDR:]PORT; "" or "no": none. */
static void lircd_listen_key(struct parse *p, const char *v)
{
	char host[128];
	unsigned port;

	if (!*v || !strcmp(v, "no")) {
		p->cfg->lircd_listen[0] = '\0';
		return;
	}
	if (ir_lircd_net_parse(v, 0, host, sizeof(host), &port) < 0 ||
	    strlen(v) >= sizeof(p->cfg->lircd_listen))
		fail(p, "listen: expected [ADDR:]PORT such as 8765 or 127.0.0.1:8765 (port "
			"1..65535), got '%s'", v);
	else
		copy_value(p, p->cfg->lircd_listen, sizeof(p->cfg->lircd_listen), "listen", v);
}

static void output_key(struct parse *p, const char *section, const char *name, const char *v)
{
	struct irjackd_config *cfg = p->cfg;
	unsigned long n;

	if (!strcmp(section, "output uinput")) {
		if (!strcmp(name, "name"))
			copy_value(p, cfg->uinput_name, sizeof(cfg->uinput_name), name, v);
		else if (!strcmp(name, "vendor") || !strcmp(name, "product")) {
			if (!parse_uint(v, 0, 0xffff, 0, &n))
				fail(p, "%s: expected a number from 0 to 0xffff, got '%s'", name, v);
			else if (!strcmp(name, "vendor"))
				cfg->uinput_vendor = (uint16_t)n;
			else
				cfg->uinput_product = (uint16_t)n;
		} else if (!strcmp(name, "per_remote")) {
			if (!parse_bool(v, &cfg->uinput_per_remote))
				fail(p, "per_remote: expected yes or no, got '%s'", v);
		} else
			fail(p, "[output uinput]: unknown key '%s' (name, vendor, product, per_remote)",
			     name);
	} else if (!strcmp(section, "output lircd")) {
		if (!strcmp(name, "path") && strlen(v) >= sizeof(((struct sockaddr_un *)0)->sun_path))
			fail(p, "path: longer than %zu characters, the most a socket address holds",
			     sizeof(((struct sockaddr_un *)0)->sun_path) - 1);
		else if (!strcmp(name, "path"))
			copy_value(p, cfg->lircd_path, sizeof(cfg->lircd_path), name, v);
		else if (!strcmp(name, "mode")) {
			/* 0 is refused, not taken as a default: a mode means
			 * what it says, and 0000 would let only root connect */
			if (!parse_uint(v, 1, 0777, 8, &n))
				fail(p, "mode: expected octal permissions from 0001 to 0777 such as "
					"0660, got '%s'", v);
			else
				cfg->lircd_mode = (unsigned)n;
		} else if (!strcmp(name, "simulate")) {
			if (!parse_bool(v, &cfg->lircd_simulate))
				fail(p, "simulate: expected yes or no, got '%s'", v);
		} else if (!strcmp(name, "listen")) {
			lircd_listen_key(p, v);
		} else
			fail(p, "[output lircd]: unknown key '%s' (path, mode, simulate, listen)",
			     name);
	} else if (!strcmp(section, "output mqtt")) {
		mqtt_key(p, name, v);
	} else if (!strcmp(section, "output lircdev")) {
		if (!strcmp(name, "name"))
			copy_value(p, cfg->lircdev_name, sizeof(cfg->lircdev_name), name, v);
		else if (!strcmp(name, "source"))
			copy_value(p, cfg->lircdev_source, sizeof(cfg->lircdev_source), name, v);
		else
			fail(p, "[output lircdev]: unknown key '%s' (name, source)", name);
	} else if (!strcmp(section, "output lcddev")) {
		if (!strcmp(name, "name"))
			copy_value(p, cfg->lcddev_name, sizeof(cfg->lcddev_name), name, v);
		else if (!strcmp(name, "source"))
			copy_value(p, cfg->lcddev_source, sizeof(cfg->lcddev_source), name, v);
		else
			fail(p, "[output lcddev]: unknown key '%s' (name, source)", name);
	} else {
		if (!strcmp(name, "path"))
			copy_value(p, cfg->json_path, sizeof(cfg->json_path), name, v);
		else
			fail(p, "[output json]: unknown key '%s' (path)", name);
	}
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct parse *p = user;

	if (p->failed)
		return 0;
	if (!*section) {
		fail(p, "'%s' is outside any section", name);
		return 0;
	}
	if (p->section_header || strcmp(section, p->last_section) != 0) {
		p->section_header = false;
		snprintf(p->last_section, sizeof(p->last_section), "%s", section);
		if (!enter_section(p, section))
			return 0;
	}
	if (!value || !*value) {
		fail(p, "%s: no value", name);
		return 0;
	}
	if (!strcmp(section, "daemon"))
		daemon_key(p, name, value);
	else if (p->source)
		source_key(p, name, value);
	else if (p->tx)
		tx_key(p, name, value);
	else
		output_key(p, section, name, value);
	return !p->failed;
}

/* A name for a node directly under /dev. */
static bool name_is_node(const char *name)
{
	if (!name[0] || !strcmp(name, ".") || !strcmp(name, ".."))
		return false;
	for (const char *c = name; *c; c++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.", *c))
			return false;
	return true;
}

/* [output lircdev]: a device name for a node under /dev, and the source
 * that feeds it (default: the first). */
static int check_lircdev(struct parse *p)
{
	struct irjackd_config *cfg = p->cfg;
	bool found = !cfg->lircdev_source[0] && cfg->source_count > 0;

	p->line = cfg->lircdev_line;
	if (!name_is_node(cfg->lircdev_name)) {
		fail(p, "[output lircdev]: name '%s': expected letters, digits, '-', '_', '.' "
			"(a node under /dev)", cfg->lircdev_name);
		return -EINVAL;
	}
	for (unsigned i = 0; i < cfg->source_count && !found; i++)
		found = !strcmp(cfg->sources[i].name, cfg->lircdev_source);
	if (!found) {
		if (cfg->lircdev_source[0])
			fail(p, "[output lircdev]: source '%s' is not a [source NAME] of this file",
			     cfg->lircdev_source);
		else
			fail(p, "[output lircdev]: no [source NAME] to feed it");
		return -EINVAL;
	}
	return 0;
}

/* [output lcddev]: a device name for a node under /dev, and (if named)
 * an iMON source, the only kind with a display. */
static int check_lcddev(struct parse *p)
{
	struct irjackd_config *cfg = p->cfg;

	p->line = cfg->lcddev_line;
	if (!name_is_node(cfg->lcddev_name)) {
		fail(p, "[output lcddev]: name '%s': expected letters, digits, '-', '_', '.' "
			"(a node under /dev)", cfg->lcddev_name);
		return -EINVAL;
	}
	if (!cfg->lcddev_source[0])
		return 0;
	for (unsigned i = 0; i < cfg->source_count; i++) {
		if (strcmp(cfg->sources[i].name, cfg->lcddev_source))
			continue;
		if (cfg->sources[i].type == IRJACKD_SOURCE_IMON)
			return 0;
		fail(p, "[output lcddev]: source '%s' is not an iMON receiver (type = imon): "
			"only those have a display", cfg->lcddev_source);
		return -EINVAL;
	}
	fail(p, "[output lcddev]: source '%s' is not a [source NAME] of this file",
	     cfg->lcddev_source);
	return -EINVAL;
}

/* [source] type = lircd: a socket path, or HOST[:PORT] with a host. */
static int check_peer_device(struct parse *p, const struct irjackd_source *s)
{
	char host[128];
	unsigned port;

	if (!ir_lircd_net_is_tcp(s->device))
		return 0;
	if (ir_lircd_net_parse(s->device, 1, host, sizeof(host), &port) < 0 || !host[0]) {
		fail(p, "[source %s]: device: expected a lircd socket path (with a '/') or "
			"HOST[:PORT] such as 192.168.1.5:8765, got '%s'", s->name, s->device);
		return -EINVAL;
	}
	return 0;
}

static int check_complete(struct parse *p)
{
	struct irjackd_config *cfg = p->cfg;

	for (unsigned i = 0; i < cfg->source_count; i++) {
		struct irjackd_source *s = &cfg->sources[i];

		p->line = s->line;
		if (!s->device[0] && (s->type == IRJACKD_SOURCE_FILE || s->type == IRJACKD_SOURCE_LIRC ||
				      s->type == IRJACKD_SOURCE_LIRCD)) {
			fail(p, "[source %s]: type %s needs a device", s->name,
			     irjackd_source_type_name(s->type));
			return -EINVAL;
		}
		if (!s->device[0] && (s->type == IRJACKD_SOURCE_ALSA ||
				      s->type == IRJACKD_SOURCE_PORTAUDIO))
			snprintf(s->device, sizeof(s->device), "default");
		if (!s->device[0] && s->type == IRJACKD_SOURCE_DEVINPUT)
			snprintf(s->device, sizeof(s->device), "auto");
		if (s->type == IRJACKD_SOURCE_LIRCD && check_peer_device(p, s) < 0)
			return -EINVAL;
	}
	for (unsigned i = 0; i < cfg->transmitter_count; i++) {
		struct irjackd_transmitter *t = &cfg->transmitters[i];

		p->line = t->line;
		if (!t->device[0] && (t->type == IRJACKD_TX_FILE || t->type == IRJACKD_TX_LIRC)) {
			fail(p, "[transmitter %s]: type %s needs a device", t->name,
			     irjackd_tx_type_name(t->type));
			return -EINVAL;
		}
		if (!t->device[0] && t->type == IRJACKD_TX_ALSA)
			snprintf(t->device, sizeof(t->device), "default");
	}
	if (cfg->mqtt) {
		struct ir_mqtt_settings *m = &cfg->mqtt_cfg;

		p->line = m->line;
		if ((m->password[0] || m->password_file[0]) && !m->username[0]) {
			fail(p, "[output mqtt]: a password needs a username");
			return -EINVAL;
		}
		if (!m->tls && (m->cafile[0] || m->certfile[0] || m->keyfile[0])) {
			fail(p, "[output mqtt]: cafile, certfile and keyfile need tls = yes");
			return -EINVAL;
		}
		if (m->tls && !m->cafile[0]) {
			fail(p, "[output mqtt]: tls = yes needs cafile (the broker's CA certificate)");
			return -EINVAL;
		}
		if (!m->certfile[0] != !m->keyfile[0]) {
			fail(p, "[output mqtt]: certfile and keyfile go together (a client certificate "
				"and its key)");
			return -EINVAL;
		}
		if (!m->port)
			m->port = m->tls ? 8883 : 1883;
	}
	if (cfg->lircdev && check_lircdev(p) < 0)
		return -EINVAL;
	if (cfg->lcddev && check_lcddev(p) < 0)
		return -EINVAL;
	if (!cfg->source_count && !cfg->transmitter_count) {
		p->line = 0;
		fail(p, "no [source NAME] and no [transmitter NAME]: nothing to do");
		return -EINVAL;
	}
	return 0;
}

/* A configuration is a regular file of at most IRJACKD_CONFIG_FILE_MAX
 * bytes: not a directory, FIFO or device (/dev/zero never ends). */
static int check_regular(FILE *f, struct irjackd_config_error *err)
{
	struct stat st;

	if (fstat(fileno(f), &st) < 0) {
		snprintf(err->message, sizeof(err->message), "%s", strerror(errno));
		return -errno;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(err->message, sizeof(err->message), "is a directory, not a configuration file");
		return -EISDIR;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err->message, sizeof(err->message),
			 "not a regular file (a FIFO or device): refused");
		return -EINVAL;
	}
	if (st.st_size > IRJACKD_CONFIG_FILE_MAX) {
		snprintf(err->message, sizeof(err->message), "larger than %u bytes: refused",
			 IRJACKD_CONFIG_FILE_MAX);
		return -EFBIG;
	}
	return 0;
}

int irjackd_config_load(const char *path, struct irjackd_config *cfg,
			struct irjackd_config_error *err)
{
	FILE *f;
	int fd, ret;

	memset(err, 0, sizeof(*err));
	/* no irjackd.conf: the lirc_options file alone (irjackd --lirc-options) */
	if (!*path) {
		static char empty[1];

		f = fmemopen(empty, 0, "r");
		if (!f)
			return -errno;
		ret = irjackd_config_load_stream(f, "(no irjackd.conf)", cfg, err);
		fclose(f);
		return ret;
	}
	/* O_NONBLOCK: opening a FIFO waits for a writer otherwise */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	f = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (!f) {
		ret = -errno;
		if (fd >= 0)
			close(fd);
		snprintf(err->message, sizeof(err->message), "%s", strerror(-ret));
		return ret;
	}
	ret = check_regular(f, err);
	if (ret == 0)
		ret = irjackd_config_load_stream(f, path, cfg, err);
	fclose(f);
	return ret;
}

int irjackd_config_load_stream(FILE *f, const char *name, struct irjackd_config *cfg,
			       struct irjackd_config_error *err)
{
	struct parse p = { .cfg = cfg, .err = err, .f = f };
	int ret;

	memset(err, 0, sizeof(*err));
	snprintf(cfg->path, sizeof(cfg->path), "%s", name);
	ret = ini_parse_stream(counting_reader, &p, handler, &p);
	if (ret == 0)
		enter_empty_section(&p);
	if (p.failed)
		return -EINVAL;
	if (ret != 0) {
		/* inih's own syntax errors: the line it reports */
		err->line = ret > 0 ? (unsigned)ret : 0;
		snprintf(err->message, sizeof(err->message),
			 ret > 0 ? "syntax error: expected [section] or key = value"
				 : "cannot read the file");
		return -EINVAL;
	}
	if (!leave_section(&p))
		return -EINVAL;
	if (cfg->lirc_options[0]) {
		ret = irjackd_lirc_options_apply(cfg->lirc_options, cfg, err);
		if (ret < 0)
			return ret;
	}
	return check_complete(&p);
}
