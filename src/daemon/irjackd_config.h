/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irjackd_config.h - irjackd's configuration: an INI file (libinih) with a
 * section per source, output and transmitter.
 *
 *   [daemon]              keymap = FILE|DIR (repeatable), keyup_timeout_ms,
 *                         log_level = error|warning|info|debug,
 *                         lirc_options = FILE (LIRC's lirc_options.conf:
 *                         irjackd_lirc_options.h)
 *   [source NAME]         type = alsa|portaudio|file|lirc|mceusb|imon|lircd,
 *                         device, rate, channel = left|right|auto|N,
 *                         polarity = auto|high|low, protocols = LIST,
 *                         timeout_ms, period_us (audio),
 *                         replay_delay_ms (file sources)
 *   [output uinput]       name, vendor, product (0x....), per_remote = yes|no
 *                         (one device per keymap remote, "NAME REMOTE")
 *   [output lircd]        path, mode (octal), simulate = yes|no,
 *                         listen = [ADDR:]PORT (TCP, lircd --listen)
 *   [output json]         path (- for standard output)
 *   [output mqtt]         host, port, client_id, topic_prefix, username,
 *                         password | password_file, tls = yes|no, cafile,
 *                         certfile, keyfile, qos = 0|1|2, keepalive (s),
 *                         queue_max, discovery = yes|no, discovery_prefix
 *   [output lircdev]      name (a node under /dev; default lirc-irjack),
 *                         source (the source that feeds it; default the first)
 *   [output lcddev]       name (a node under /dev; default lcd0), source (the
 *                         type = imon source whose display it drives; default
 *                         every source with a display)
 *   [transmitter NAME]    type = alsa|file|lirc|mceusb, device, mode,
 *                         volume (0..1), remotes = NAME,... (which remotes it
 *                         sends for; empty: all)
 *
 * Every bad value is reported with the file, line, and what was expected;
 * unknown sections and keys are errors (a typo must not pass silently).
 */
#ifndef IRJACK_IRJACKD_CONFIG_H
#define IRJACK_IRJACKD_CONFIG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ir_demod.h"
#include "ir_protocol.h"
#include "out_mqtt.h"

#define IRJACKD_MAX_SOURCES 16
#define IRJACKD_MAX_TRANSMITTERS 8
#define IRJACKD_MAX_KEYMAPS 32
#define IRJACKD_NAME_MAX 64
#define IRJACKD_PATH_MAX 256
/* A configuration file's size: a full one (16 sources, 8 transmitters,
 * every key set) is under 16 KiB. */
#define IRJACKD_CONFIG_FILE_MAX (1u << 20)

enum irjackd_source_type {
	IRJACKD_SOURCE_ALSA,
	IRJACKD_SOURCE_PORTAUDIO,
	IRJACKD_SOURCE_FILE,
	IRJACKD_SOURCE_LIRC,
	IRJACKD_SOURCE_MCEUSB,
	IRJACKD_SOURCE_IMON,
	IRJACKD_SOURCE_DEVINPUT,
	IRJACKD_SOURCE_LIRCD, /* another lircd's socket or TCP port (irjackd_peers.c) */
};

struct irjackd_source {
	char name[IRJACKD_NAME_MAX];
	enum irjackd_source_type type;
	char device[IRJACKD_PATH_MAX]; /* ALSA PCM, file path, /dev/lircN, bus:addr,
					* lircd: a socket path or HOST[:PORT] */
	unsigned rate;                 /* 0: the backend's default (48000) */
	int channel;                   /* 0-based, or -1 for auto */
	enum ir_polarity polarity;
	struct ir_protocol_set protocols;
	uint32_t timeout_us;           /* 0: default */
	unsigned period_us;            /* audio capture period; 0: the backend's (~4 ms) */
	uint32_t replay_delay_ms;      /* file sources: wait this long before replaying */
	/* required = yes: a device missing at start stops the start (exit 1)
	 * instead of being waited for */
	bool required;
	unsigned line;                 /* where the section starts */
};

enum irjackd_tx_type {
	IRJACKD_TX_ALSA,
	IRJACKD_TX_FILE,
	IRJACKD_TX_LIRC,
	IRJACKD_TX_MCEUSB,
};

struct irjackd_transmitter {
	char name[IRJACKD_NAME_MAX];
	enum irjackd_tx_type type;
	char device[IRJACKD_PATH_MAX];
	char mode[32];   /* carrier synthesis mode; empty: by rate */
	double volume;   /* 0..1 */
	char remotes[IRJACKD_PATH_MAX]; /* comma-separated; empty: all */
	unsigned line;
};

struct irjackd_config {
	char path[IRJACKD_PATH_MAX];
	char keymaps[IRJACKD_MAX_KEYMAPS][IRJACKD_PATH_MAX];
	unsigned keymap_count;
	uint32_t keyup_timeout_ms;
	int log_level; /* LOG_ERR..LOG_DEBUG (syslog.h) */
	char lirc_options[IRJACKD_PATH_MAX]; /* LIRC's lirc_options.conf; empty: none */
	/* ir-keytable's rc_maps.cfg: the keymaps it names for the receivers of
	 * the lirc and devinput sources are loaded too; empty: none */
	char rc_maps[IRJACKD_PATH_MAX];

	struct irjackd_source sources[IRJACKD_MAX_SOURCES];
	unsigned source_count;
	struct irjackd_transmitter transmitters[IRJACKD_MAX_TRANSMITTERS];
	unsigned transmitter_count;

	bool uinput;
	char uinput_name[IRJACKD_NAME_MAX];
	uint16_t uinput_vendor, uinput_product;
	bool uinput_per_remote;
	bool lircd;
	char lircd_path[IRJACKD_PATH_MAX];
	unsigned lircd_mode;
	bool lircd_simulate;
	char lircd_listen[128]; /* TCP "[ADDR:]PORT"; "": none */
	bool json;
	char json_path[IRJACKD_PATH_MAX];
	bool mqtt;
	struct ir_mqtt_settings mqtt_cfg; /* [output mqtt] */
	bool lircdev;
	char lircdev_name[IRJACKD_NAME_MAX];
	char lircdev_source[IRJACKD_NAME_MAX]; /* "": the first source */
	unsigned lircdev_line;
	bool lcddev;                           /* [output lcddev] */
	char lcddev_name[IRJACKD_NAME_MAX];
	char lcddev_source[IRJACKD_NAME_MAX]; /* "": every source with a display */
	unsigned lcddev_line;
};

struct irjackd_config_error {
	unsigned line; /* 0: not tied to a line (the file cannot be read) */
	char message[256];
};

/* Sets the defaults (no source, no output, key-up 125 ms, info, the
 * lirc_options file irjackd_config_set_lirc_options() named). */
void irjackd_config_defaults(struct irjackd_config *cfg);

/* `irjackd --lirc-options FILE`: the lirc_options every configuration read
 * from now on starts with (a reload included); irjackd.conf's [daemon]
 * lirc_options replaces it.  `path` is copied; NULL clears it. */
void irjackd_config_set_lirc_options(const char *path);

/*
 * Reads `path` into *cfg (after irjackd_config_defaults()); "" reads no
 * file, as an empty one (the lirc_options file alone).  Returns 0, or
 * a negative errno with `err` filled: -ENOENT etc. when the file cannot be
 * read, -EINVAL for a bad value, unknown section or key, a duplicate name,
 * too many sources/transmitters/keymaps, or a configuration with no
 * source and no transmitter.
 */
int irjackd_config_load(const char *path, struct irjackd_config *cfg,
			struct irjackd_config_error *err);

/* The same from an open stream (not closed); `name` stands for the file
 * in messages. */
int irjackd_config_load_stream(FILE *f, const char *name, struct irjackd_config *cfg,
			       struct irjackd_config_error *err);

const char *irjackd_source_type_name(enum irjackd_source_type type);
const char *irjackd_tx_type_name(enum irjackd_tx_type type);

#endif
