/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irjackd's INI configuration: values understood, defaults, and every bad
 * value named with its line.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include <cmocka.h>

#include "irjackd_config.h"

static char path[64];

static int load(const char *text, struct irjackd_config *cfg, struct irjackd_config_error *err)
{
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/irjackd-test-%d.conf", (int)getpid());
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	irjackd_config_defaults(cfg);
	return irjackd_config_load(path, cfg, err);
}

static void test_valid(void **state)
{
	static struct irjackd_config cfg;
	struct irjackd_config_error err;

	(void)state;
	assert_int_equal(load("; comment\n"
			      "[daemon]\n"
			      "keymap = /a.toml\n"
			      "keymap = /b\n"
			      "keyup_timeout_ms = 200\n"
			      "log_level = debug\n"
			      "\n"
			      "[source mic]\n"
			      "type = alsa\n"
			      "rate = 44100\n"
			      "channel = right\n"
			      "polarity = low\n"
			      "protocols = nec,rc5\n"
			      "period_us = 20000\n"
			      "\n"
			      "[source dev]\n"
			      "type = lirc\n"
			      "device = /dev/lirc0\n"
			      "[output uinput]\n"
			      "vendor = 0x1234\n"
			      "per_remote = yes\n"
			      "[output lircd]\n"
			      "path = /tmp/sock\n"
			      "mode = 0666\n"
			      "simulate = yes\n"
			      "[output lircdev]\n"
			      "name = lirc-x\n"
			      "source = dev\n"
			      "[source panel]\n"
			      "type = imon\n"
			      "[output lcddev]\n"
			      "name = lcd3\n"
			      "source = panel\n"
			      "[transmitter tv]\n"
			      "type = alsa\n"
			      "volume = 0.25\n"
			      "mode = full-carrier\n",
			      &cfg, &err),
			 0);
	assert_int_equal(cfg.keymap_count, 2);
	assert_string_equal(cfg.keymaps[1], "/b");
	assert_int_equal(cfg.keyup_timeout_ms, 200);
	assert_int_equal(cfg.log_level, LOG_DEBUG);
	assert_int_equal(cfg.source_count, 3);
	assert_string_equal(cfg.sources[0].name, "mic");
	assert_int_equal(cfg.sources[0].type, IRJACKD_SOURCE_ALSA);
	assert_string_equal(cfg.sources[0].device, "default"); /* ALSA's default */
	assert_int_equal(cfg.sources[0].period_us, 20000);
	assert_int_equal(cfg.sources[1].period_us, 0);
	assert_int_equal(cfg.sources[0].rate, 44100);
	assert_int_equal(cfg.sources[0].channel, 1);
	assert_int_equal(cfg.sources[0].polarity, IR_POLARITY_PULSE_LOW);
	assert_true(ir_protocol_set_has(&cfg.sources[0].protocols, IR_PROTO_RC5));
	assert_false(ir_protocol_set_has(&cfg.sources[0].protocols, IR_PROTO_SONY12));
	assert_int_equal(cfg.sources[1].type, IRJACKD_SOURCE_LIRC);
	assert_true(ir_protocol_set_has(&cfg.sources[1].protocols, IR_PROTO_SONY12));
	assert_true(cfg.uinput);
	assert_int_equal(cfg.uinput_vendor, 0x1234);
	assert_true(cfg.uinput_per_remote);
	assert_true(cfg.lircd);
	assert_int_equal(cfg.lircd_mode, 0666);
	assert_true(cfg.lircd_simulate);
	assert_true(cfg.lircdev);
	assert_string_equal(cfg.lircdev_name, "lirc-x");
	assert_string_equal(cfg.lircdev_source, "dev");
	assert_true(cfg.lcddev);
	assert_string_equal(cfg.lcddev_name, "lcd3");
	assert_string_equal(cfg.lcddev_source, "panel");
	assert_false(cfg.json);
	assert_int_equal(cfg.transmitter_count, 1);
	assert_true(cfg.transmitters[0].volume == 0.25);
	unlink(path);
}

static void expect_error(const char *text, unsigned line, const char *words)
{
	static struct irjackd_config cfg;
	struct irjackd_config_error err;

	int ret = load(text, &cfg, &err);

	if (ret != -EINVAL) {
		fprintf(stderr, "accepted: %s\n", text);
		fail();
	}
	if (err.line != line || !strstr(err.message, words)) {
		fprintf(stderr, "got line %u '%s', want line %u '%s'\n", err.line, err.message, line,
			words);
		fail();
	}
	unlink(path);
}

static void test_errors_name_the_line(void **state)
{
	(void)state;
	expect_error("[source a]\ntype = alsa\nrate = 7\n", 3, "rate");
	expect_error("[source a]\ntype = alsa\nperiod_us = 100\n", 3, "period_us");
	expect_error("[source a]\ntype = floppy\n", 2, "type");
	expect_error("[source a]\ntype = alsa\nvolume = 1\n", 3, "unknown key 'volume'");
	expect_error("[source a]\ntype = alsa\n[output uinput]\nper_remote = maybe\n", 4,
		     "per_remote");
	expect_error("[source a]\ntype = alsa\n[output lircdev]\nsource = b\n", 3,
		     "source 'b' is not a [source NAME]");
	expect_error("[source a]\ntype = alsa\n[output lircdev]\nname = ../x\n", 3, "name '../x'");
	expect_error("[transmitter t]\ntype = alsa\n[output lircdev]\n", 3, "no [source NAME]");
	expect_error("[source a]\ntype = alsa\n[output lircdev]\nmode = 0666\n", 4,
		     "unknown key 'mode'");
	expect_error("[source a]\ntype = alsa\n[output lcddev]\nsource = a\n", 3,
		     "source 'a' is not an iMON receiver");
	expect_error("[source a]\ntype = imon\n[output lcddev]\nsource = b\n", 3,
		     "source 'b' is not a [source NAME]");
	expect_error("[source a]\ntype = imon\n[output lcddev]\nname = ..\n", 3, "name '..'");
	expect_error("[source a]\ntype = imon\n[output lcddev]\nsize = 16x2\n", 4,
		     "unknown key 'size'");
	expect_error("[source a]\ndevice = x\n[source b]\ntype = alsa\n", 1, "no type");
	expect_error("[source a]\ntype = alsa\n[source a]\ntype = alsa\n", 4, "appears twice");
	expect_error("[sauce a]\ntype = alsa\n", 2, "unknown section");
	expect_error("[source]\ntype = alsa\n", 2, "needs a name");
	expect_error("[source a b]\ntype = alsa\n", 2, "letters, digits");
	expect_error("type = alsa\n", 1, "outside any section");
	expect_error("[source a]\ntype = file\n", 1, "needs a device");
	expect_error("[source a]\ntype = alsa\nprotocols = nec,bogus\n", 3, "bogus");
	expect_error("[output lircd]\nmode = 999\n", 2, "octal");
	/* 0 used to pass and make a 0666 socket: a mode means what it says */
	expect_error("[output lircd]\nmode = 0\n", 2, "from 0001 to 0777");
	expect_error("[output lircd]\nmode = 0000\n", 2, "from 0001 to 0777");
	expect_error("[output lircd]\nmode = 01000\n", 2, "from 0001 to 0777");
	expect_error("[transmitter t]\ntype = alsa\nvolume = 2\n", 3, "volume");
	expect_error("[daemon]\nlog_level = loud\n", 2, "log_level");
	expect_error("[daemon]\nkeyup_timeout_ms = 100\n", 0, "nothing to do");
	expect_error("[source a]\ntype = alsa\nthis line has no equals sign\n", 3, "syntax");
	/* a header without its closing bracket, not "[source a] appears twice" */
	expect_error("[source a]\ntype = alsa\n[source b\ntype = alsa\n", 3, "without ']'");
	/* the counted limits (IRJACKD_MAX_*, IRJACKD_NAME_MAX) */
	{
		static char text[8192];
		size_t len = 0;

		for (int i = 0; i <= IRJACKD_MAX_SOURCES; i++)
			len += (size_t)snprintf(text + len, sizeof(text) - len,
						"[source s%d]\ntype = alsa\n", i);
		expect_error(text, 2 * IRJACKD_MAX_SOURCES + 2, "too many sources (at most 16)");
		len = 0;
		for (int i = 0; i <= IRJACKD_MAX_TRANSMITTERS; i++)
			len += (size_t)snprintf(text + len, sizeof(text) - len,
						"[transmitter t%d]\ntype = alsa\n", i);
		expect_error(text, 2 * IRJACKD_MAX_TRANSMITTERS + 2,
			     "too many transmitters (at most 8)");
		len = (size_t)snprintf(text, sizeof(text), "[daemon]\n");
		for (int i = 0; i <= IRJACKD_MAX_KEYMAPS; i++)
			len += (size_t)snprintf(text + len, sizeof(text) - len, "keymap = k%d\n", i);
		expect_error(text, IRJACKD_MAX_KEYMAPS + 2, "at most 32 keymap lines");
		snprintf(text, sizeof(text), "[source %042d]\ntype = alsa\n", 0);
		assert_int_equal(load(text, &(struct irjackd_config){ 0 }, &(struct irjackd_config_error){ 0 }), 0);
		snprintf(text, sizeof(text), "[source %043d]\ntype = alsa\n", 0);
		expect_error(text, 1, "section name longer than 49 characters");
	}
	/* a socket path sun_path cannot hold: start used to fail later with
	 * "File name too long" */
	{
		char text[300];

		snprintf(text, sizeof(text), "[output lircd]\npath = /%0107d\n", 0);
		expect_error(text, 2, "longer than 107 characters");
		snprintf(text, sizeof(text), "[output lircd]\npath = /%0106d\n[transmitter t]\n"
			 "type = file\ndevice = x\n", 0);
		assert_int_equal(load(text, &(struct irjackd_config){ 0 },
				      &(struct irjackd_config_error){ 0 }), 0);
	}
	/* a line longer than libinih's buffer is named, not split in two */
	{
		char text[400];

		snprintf(text, sizeof(text), "[transmitter t]\ntype = file\ndevice = /%0250d\n", 0);
		expect_error(text, 3, "line longer than 197 characters");
	}
	/* a section with no key is still read: an empty source has no type,
	 * an unknown one is unknown */
	expect_error("[source a]\ntype = alsa\n[source b]\n[output json]\n", 3, "no type");
	expect_error("[source a]\ntype = alsa\n[sauce]\n", 3, "unknown section");
}

static void test_mqtt_values(void **state)
{
	static struct irjackd_config cfg;
	struct irjackd_config_error err;

	(void)state;
	/* defaults */
	/* a section alone, every value its default */
	assert_int_equal(load("[transmitter t]\ntype = alsa\n[output mqtt]\n", &cfg, &err), 0);
	assert_true(cfg.mqtt);
	assert_string_equal(cfg.mqtt_cfg.host, "localhost");
	assert_int_equal(cfg.mqtt_cfg.port, 1883);
	assert_int_equal(cfg.mqtt_cfg.qos, 1);
	assert_int_equal(cfg.mqtt_cfg.keepalive, 60);
	assert_int_equal(cfg.mqtt_cfg.queue_max, 1000);
	assert_false(cfg.mqtt_cfg.discovery);
	assert_false(cfg.mqtt_cfg.ha_triggers);
	assert_string_equal(cfg.mqtt_cfg.topic_prefix, ""); /* irjack/<hostname> at run time */
	assert_string_equal(cfg.mqtt_cfg.discovery_prefix, "homeassistant");
	unlink(path);

	/* [output lcddev] alone: lirc_imon's node name, every display */
	assert_int_equal(load("[source p]\ntype = imon\n[output lcddev]\n", &cfg, &err), 0);
	assert_true(cfg.lcddev);
	assert_string_equal(cfg.lcddev_name, "lcd0");
	assert_string_equal(cfg.lcddev_source, "");
	unlink(path);

	assert_int_equal(load("[transmitter t]\ntype = alsa\n"
			      "[output mqtt]\n"
			      "host = 192.0.2.1\n"
			      "client_id = irjack-kitchen\n"
			      "topic_prefix = home/ir/kitchen\n"
			      "username = ir\n"
			      "password_file = /etc/irjack/pw\n"
			      "tls = yes\n"
			      "cafile = /etc/ssl/ca.pem\n"
			      "certfile = /etc/irjack/c.pem\n"
			      "keyfile = /etc/irjack/c.key\n"
			      "qos = 2\n"
			      "keepalive = 30\n"
			      "queue_max = 0\n"
			      "discovery = yes\n"
			      "discovery_prefix = ha\n"
			      "ha_triggers = yes\n",
			      &cfg, &err),
			 0);
	assert_int_equal(cfg.mqtt_cfg.port, 8883); /* TLS default */
	assert_string_equal(cfg.mqtt_cfg.client_id, "irjack-kitchen");
	assert_string_equal(cfg.mqtt_cfg.topic_prefix, "home/ir/kitchen");
	assert_string_equal(cfg.mqtt_cfg.password_file, "/etc/irjack/pw");
	assert_true(cfg.mqtt_cfg.tls);
	assert_string_equal(cfg.mqtt_cfg.keyfile, "/etc/irjack/c.key");
	assert_int_equal(cfg.mqtt_cfg.qos, 2);
	assert_int_equal(cfg.mqtt_cfg.keepalive, 30);
	assert_int_equal(cfg.mqtt_cfg.queue_max, 0);
	assert_true(cfg.mqtt_cfg.discovery);
	assert_string_equal(cfg.mqtt_cfg.discovery_prefix, "ha");
	assert_true(cfg.mqtt_cfg.ha_triggers);
	unlink(path);
}

static void test_mqtt_errors_name_the_line(void **state)
{
	const char *tx = "[transmitter t]\ntype = alsa\n[output mqtt]\n"; /* section on line 3 */

	(void)state;
	static const struct {
		const char *keys;
		unsigned line;
		const char *words;
	} cases[] = {
		{ "port = 0\n", 4, "port" },
		{ "port = 65536\n", 4, "port" },
		{ "port = http\n", 4, "port" },
		{ "qos = 3\n", 4, "qos" },
		{ "qos = -1\n", 4, "qos" },
		{ "keepalive = 1\n", 4, "keepalive" },
		{ "queue_max = 100001\n", 4, "queue_max" },
		{ "queue_max = lots\n", 4, "queue_max" },
		{ "discovery = maybe\n", 4, "discovery" },
		{ "ha_triggers = 2\n", 4, "ha_triggers" },
		{ "tls = sometimes\n", 4, "tls" },
		{ "host = a b\n", 4, "host" },
		{ "client_id = a b\n", 4, "client_id" },
		{ "topic_prefix = irjack/#\n", 4, "topic_prefix" },
		{ "topic_prefix = irjack/+/x\n", 4, "topic_prefix" },
		{ "topic_prefix = /irjack\n", 4, "topic_prefix" },
		{ "topic_prefix = irjack/\n", 4, "topic_prefix" },
		{ "topic_prefix = irjack//x\n", 4, "topic_prefix" },
		{ "discovery_prefix = ha/#\n", 4, "discovery_prefix" },
		{ "host = h\nusername = u\npassword = p\npassword_file = /f\n", 7, "one or the other" },
		{ "host = h\nusername = u\npassword_file = /f\npassword = p\n", 7, "one or the other" },
		{ "host = h\nbroker = x\n", 5, "unknown key 'broker'" },
		/* the unknown key's message lists every key, the last one too */
		{ "broker = x\n", 4, "(host, port, client_id, topic_prefix, username, password" },
		{ "broker = x\n", 4, ", discovery, discovery_prefix, ha_triggers)" },
		{ "keepalive = 4000\n", 4, "keepalive: expected seconds from 5 to 3600, got '4000'" },
		{ "username = 0123456789012345678901234567890123456789012345678901234567890123456789"
		  "012345678901234567890123456789012345678901234567890123456789012345678901234567890\n",
		  4, "username: value longer than" },
		{ "password = secret\n", 3, "needs a username" },
		{ "cafile = /ca.pem\n", 3, "need tls = yes" },
		{ "tls = yes\n", 3, "needs cafile" },
		{ "tls = yes\ncafile = /ca\ncertfile = /c\n", 3, "go together" },
		{ "host = h\n[output mqtt]\nport = 1\n", 6, "appears twice" },
		{ "[output mqtt]\n", 4, "appears twice" }, /* empty sections count too */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[512];

		snprintf(text, sizeof(text), "%s%s", tx, cases[i].keys);
		expect_error(text, cases[i].line, cases[i].words);
	}
}

static void test_missing_file(void **state)
{
	static struct irjackd_config cfg;
	struct irjackd_config_error err;

	(void)state;
	irjackd_config_defaults(&cfg);
	assert_int_equal(irjackd_config_load("/nonexistent/irjackd.conf", &cfg, &err), -ENOENT);
	assert_int_equal(err.line, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_errors_name_the_line),
		cmocka_unit_test(test_mqtt_values),
		cmocka_unit_test(test_mqtt_errors_name_the_line),
		cmocka_unit_test(test_missing_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
