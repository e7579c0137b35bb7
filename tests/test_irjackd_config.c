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
			      "\n"
			      "[source dev]\n"
			      "type = lirc\n"
			      "device = /dev/lirc0\n"
			      "[output uinput]\n"
			      "vendor = 0x1234\n"
			      "[output lircd]\n"
			      "path = /tmp/sock\n"
			      "mode = 0666\n"
			      "simulate = yes\n"
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
	assert_int_equal(cfg.source_count, 2);
	assert_string_equal(cfg.sources[0].name, "mic");
	assert_int_equal(cfg.sources[0].type, IRJACKD_SOURCE_ALSA);
	assert_string_equal(cfg.sources[0].device, "default"); /* ALSA's default */
	assert_int_equal(cfg.sources[0].rate, 44100);
	assert_int_equal(cfg.sources[0].channel, 1);
	assert_int_equal(cfg.sources[0].polarity, IR_POLARITY_PULSE_LOW);
	assert_true(ir_protocol_set_has(&cfg.sources[0].protocols, IR_PROTO_RC5));
	assert_false(ir_protocol_set_has(&cfg.sources[0].protocols, IR_PROTO_SONY12));
	assert_int_equal(cfg.sources[1].type, IRJACKD_SOURCE_LIRC);
	assert_true(ir_protocol_set_has(&cfg.sources[1].protocols, IR_PROTO_SONY12));
	assert_true(cfg.uinput);
	assert_int_equal(cfg.uinput_vendor, 0x1234);
	assert_true(cfg.lircd);
	assert_int_equal(cfg.lircd_mode, 0666);
	assert_true(cfg.lircd_simulate);
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
	expect_error("[source a]\ntype = floppy\n", 2, "type");
	expect_error("[source a]\ntype = alsa\nvolume = 1\n", 3, "unknown key 'volume'");
	expect_error("[source a]\ndevice = x\n[source b]\ntype = alsa\n", 1, "no type");
	expect_error("[source a]\ntype = alsa\n[source a]\ntype = alsa\n", 4, "appears twice");
	expect_error("[sauce a]\ntype = alsa\n", 2, "unknown section");
	expect_error("[source]\ntype = alsa\n", 2, "needs a name");
	expect_error("[source a b]\ntype = alsa\n", 2, "letters, digits");
	expect_error("type = alsa\n", 1, "outside any section");
	expect_error("[source a]\ntype = file\n", 1, "needs a device");
	expect_error("[source a]\ntype = alsa\nprotocols = nec,bogus\n", 3, "bogus");
	expect_error("[output lircd]\nmode = 999\n", 2, "octal");
	expect_error("[transmitter t]\ntype = alsa\nvolume = 2\n", 3, "volume");
	expect_error("[daemon]\nlog_level = loud\n", 2, "log_level");
	expect_error("[daemon]\nkeyup_timeout_ms = 100\n", 0, "nothing to do");
	expect_error("[source a]\ntype = alsa\nthis line has no equals sign\n", 3, "syntax");
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
	/* a line longer than libinih's buffer is named, not split in two */
	{
		char text[400];

		snprintf(text, sizeof(text), "[transmitter t]\ntype = file\ndevice = /%0250d\n", 0);
		expect_error(text, 3, "line longer than 197 characters");
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
		cmocka_unit_test(test_missing_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
