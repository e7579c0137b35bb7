/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_devinput.c - rc-core input devices as frames: the protocol selected
 * in sysfs, the scancode layouts of its variants, lircd's devinput codes
 * (checked against Debian's devinput.lircd.conf) and the device walk over
 * a fake sysfs tree. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include <linux/input-event-codes.h>

#include "ir_devinput.h"
#include "ir_keymap.h"
#include "ir_keymap_file.h"
#include "ir_lirc_dev.h"

#define DEBIAN_DEVINPUT "/etc/lirc/lircd.conf.d/devinput.lircd.conf"

static void only_bracketed_protocols_are_selected(void **state)
{
	(void)state;
	/* a raw receiver: lirc and nec enabled, the others offered */
	assert_int_equal(ir_devinput_parse_protocols("rc-5 [nec] rc-6 jvc [lirc] sony\n"),
			 IR_DEVINPUT_NEC);
	assert_int_equal(ir_devinput_parse_protocols("[rc-5] [rc-6] nec\n"),
			 IR_DEVINPUT_RC5 | IR_DEVINPUT_RC6);
	/* rc-5-sz is its own group, not rc-5 */
	assert_int_equal(ir_devinput_parse_protocols("rc-5 [rc-5-sz]"), IR_DEVINPUT_RC5_SZ);
	assert_int_equal(ir_devinput_parse_protocols("[rc-mm] [xbox-dvd] [mce_kbd]"),
			 IR_DEVINPUT_RCMM | IR_DEVINPUT_XBOX_DVD | IR_DEVINPUT_MCE_KBD);
	assert_int_equal(ir_devinput_parse_protocols("[lirc] [none] [nec"), 0);
	assert_int_equal(ir_devinput_parse_protocols(""), 0);
}

static void scancode_layouts_give_the_variant(void **state)
{
	(void)state;
	/* rc-core's nec decoder: 16 bits when address and command check */
	assert_int_equal(ir_devinput_protocol(IR_DEVINPUT_NEC, 0x0408), IR_PROTO_NEC);
	assert_int_equal(ir_devinput_protocol(IR_DEVINPUT_NEC, 0x04fb08), IR_PROTO_NECX);
	assert_int_equal(ir_devinput_protocol(IR_DEVINPUT_NEC, 0x04fb08f7u), IR_PROTO_NEC32);
	assert_int_equal(ir_devinput_protocol(IR_DEVINPUT_RC6, 0x800f040cu), IR_PROTO_RC6_MCE);
	assert_int_equal(ir_devinput_protocol(IR_DEVINPUT_RC6, 0x000c), IR_PROTO_RC6_0);
	assert_int_equal(ir_devinput_protocol(IR_DEVINPUT_RC6, 0x80f0c), IR_PROTO_RC6_6A_20);
	assert_int_equal(ir_devinput_protocol(IR_DEVINPUT_RC6, 0xa0f0c0), IR_PROTO_RC6_6A_24);
	assert_int_equal(ir_devinput_protocol(IR_DEVINPUT_RC6, 0x12345678), IR_PROTO_RC6_6A_32);
	assert_int_equal(ir_devinput_protocol(IR_DEVINPUT_RC5, 0x1e0c), IR_PROTO_RC5);
	assert_int_equal(ir_devinput_protocol(IR_DEVINPUT_RC5, 0x1e0c3f), IR_PROTO_RC5X_20);
	assert_int_equal(ir_devinput_protocol(IR_DEVINPUT_SONY, 0x010015), IR_PROTO_SONY12);
	assert_int_equal(ir_devinput_protocol(IR_DEVINPUT_SONY, 0x970015), IR_PROTO_SONY15);
	assert_int_equal(ir_devinput_protocol(IR_DEVINPUT_SONY, 0x1a0815), IR_PROTO_SONY20);
	assert_int_equal(ir_devinput_protocol(IR_DEVINPUT_RCMM, 0x123), IR_PROTO_RCMM12);
	assert_int_equal(ir_devinput_protocol(IR_DEVINPUT_RCMM, 0x123456), IR_PROTO_RCMM24);
	assert_int_equal(ir_devinput_protocol(IR_DEVINPUT_RCMM, 0x12345678), IR_PROTO_RCMM32);
	assert_int_equal(ir_devinput_protocol(IR_DEVINPUT_JVC, 0x1234), IR_PROTO_JVC);
	assert_int_equal(ir_devinput_protocol(0, 0x1234), IR_PROTO_UNKNOWN);
}

static void several_groups_are_listed_in_order(void **state)
{
	(void)state;
	enum ir_protocol p[4];

	assert_int_equal(ir_devinput_protocols(IR_DEVINPUT_SONY | IR_DEVINPUT_NEC, 0x0408, p, 4), 2);
	assert_int_equal(p[0], IR_PROTO_NEC);
	assert_int_equal(p[1], IR_PROTO_SONY20); /* bits 8-15 set: an extension byte */
	assert_int_equal(ir_devinput_protocols(IR_DEVINPUT_SONY | IR_DEVINPUT_NEC, 0x0408, p, 1), 1);
	/* the first group wins when one protocol must be named */
	assert_int_equal(ir_devinput_protocol(IR_DEVINPUT_SONY | IR_DEVINPUT_NEC, 0x0408),
			 IR_PROTO_NEC);
}

static void lircd_codes_follow_its_devinput_driver(void **state)
{
	(void)state;
	/* EV_KEY KEY_0 (11) down: devinput-64's pre_data 0x0001, code 11,
	 * post_data 0x00000001; devinput-32's pre_data 0x8001, code 11 */
	assert_true(ir_devinput_lircd_code(EV_KEY, KEY_0, 1) == 0x0001000b00000001ull);
	assert_true(ir_devinput_lircd_code(EV_KEY, KEY_0, 2) == 0x0001000b00000001ull);
	assert_true(ir_devinput_lircd_code(EV_KEY, KEY_0, 0) == 0x0001000b00000000ull);
	assert_true(ir_devinput_lircd_code(EV_MSC, MSC_SCAN, 0x0408) == 0x0004000400000408ull);
	assert_int_equal(ir_devinput_lircd_code32(EV_KEY, KEY_POWER, 1), 0x80010074u);
	assert_int_equal(ir_devinput_lircd_code32(EV_KEY, KEY_POWER, 0), 0x00010074u);
}

/* Debian's file is the reference: every code its devinput-64 remote binds
 * for KEY_VOLUMEUP and KEY_OK is the one computed for that key's press. */
static void debian_devinput_conf_names_the_codes(void **state)
{
	(void)state;
	struct ir_keymap *km;
	struct ir_keymap_error err;
	struct ir_key_binding b;
	struct { int code; const char *name; } keys[] = {
		{ KEY_VOLUMEUP, "KEY_VOLUMEUP" }, { KEY_OK, "KEY_OK" }, { KEY_0, "KEY_0" },
	};

	assert_int_equal(access(DEBIAN_DEVINPUT, R_OK), 0); /* Debian: lirc */
	assert_int_equal(ir_keymap_new(&km), 0);
	assert_int_equal(ir_keymap_load(km, DEBIAN_DEVINPUT, &err), 0);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		bool found64 = false, found32 = false;

		for (size_t k = 0; k < ir_keymap_key_count(km); k++) {
			const struct ir_keymap_key *key = ir_keymap_key_at(km, k);
			const char *remote = ir_keymap_remote_name(km, key->remote);

			if (key->protocol != IR_PROTO_LIRC || strcmp(key->key, keys[i].name))
				continue;
			if (!strcmp(remote, "devinput-64")) {
				assert_true(key->scancode ==
					    ir_devinput_lircd_code(EV_KEY, (unsigned)keys[i].code, 1));
				found64 = true;
				/* and a frame of that code names it */
				struct ir_frame f = { .protocol = IR_PROTO_LIRC,
						      .decoder_id = key->decoder_id,
						      .scancode = key->scancode };
				assert_true(ir_keymap_lookup(km, &f, &b));
				assert_string_equal(b.key, keys[i].name);
				assert_string_equal(b.remote, "devinput-64");
			} else if (!strcmp(remote, "devinput-32")) {
				assert_true(key->scancode ==
					    ir_devinput_lircd_code32(EV_KEY, (unsigned)keys[i].code, 1));
				found32 = true;
			}
		}
		assert_true(found64);
		assert_true(found32);
	}
	ir_keymap_free(km);
}

/* Feeds one event; returns whether it gave a frame. */
static bool ev(struct ir_devinput_reader *r, unsigned type, unsigned code, int value,
	       struct ir_frame *f)
{
	return ir_devinput_reader_event(r, type, code, value, 1000, f);
}

/* Debian's devinput.lircd.conf and a TOML remote naming NEC 0x0408. */
static struct ir_keymap *reader_keymap(void)
{
	char toml[] = "/tmp/test_devinput_toml.XXXXXX";
	struct ir_keymap *km;
	struct ir_keymap_error err;
	int fd = mkstemp(toml);
	const char *text = "[[protocols]]\nname = \"tv\"\nprotocol = \"nec\"\n"
			   "[protocols.scancodes]\n0x0408 = \"KEY_OK\"\n";

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (int)strlen(text));
	close(fd);
	assert_int_equal(ir_keymap_new(&km), 0);
	assert_int_equal(ir_keymap_load(km, DEBIAN_DEVINPUT, &err), 0);
	assert_int_equal(ir_keymap_load(km, toml, &err), 0);
	unlink(toml);
	return km;
}

/* rc-core's events for a key the kernel maps (NEC 0x04fb = KEY_VOLUMEUP):
 * the press and every further scancode while it is held are the lircd
 * devinput-64 button; auto-repeats and the release add nothing; after the
 * release the scancode alone is an unnamed NEC frame. */
static void kernel_keys_become_lircd_devinput_buttons(void **state)
{
	(void)state;
	struct ir_keymap *km = reader_keymap();
	struct ir_devinput_reader r;
	struct ir_key_binding b;
	struct ir_frame f;

	ir_devinput_reader_init(&r, IR_DEVINPUT_NEC, true, km);
	assert_false(ev(&r, EV_MSC, MSC_SCAN, 0x04fb, &f));
	assert_false(ev(&r, EV_KEY, KEY_VOLUMEUP, 1, &f));
	assert_true(ev(&r, EV_SYN, SYN_REPORT, 0, &f));
	assert_int_equal(f.protocol, IR_PROTO_LIRC);
	assert_true(f.scancode == 0x0001007300000001ull);
	assert_int_equal(f.flags, 0);
	assert_true(ir_keymap_lookup(km, &f, &b));
	assert_string_equal(b.key, "KEY_VOLUMEUP");
	assert_string_equal(b.remote, "devinput-64");
	/* a repeat code: MSC_SCAN alone */
	ev(&r, EV_MSC, MSC_SCAN, 0x04fb, &f);
	assert_true(ev(&r, EV_SYN, SYN_REPORT, 0, &f));
	assert_int_equal(f.protocol, IR_PROTO_LIRC);
	assert_int_equal(f.flags, IR_FRAME_REPEAT);
	assert_true(ir_keymap_lookup(km, &f, &b));
	assert_string_equal(b.key, "KEY_VOLUMEUP");
	/* the input layer's auto-repeat: nothing (the scancodes carry it) */
	ev(&r, EV_KEY, KEY_VOLUMEUP, 2, &f);
	assert_false(ev(&r, EV_SYN, SYN_REPORT, 0, &f));
	ev(&r, EV_KEY, KEY_VOLUMEUP, 0, &f);
	assert_false(ev(&r, EV_SYN, SYN_REPORT, 0, &f));
	/* released: the scancode alone is NEC's, unnamed */
	ev(&r, EV_MSC, MSC_SCAN, 0x04fb, &f);
	assert_true(ev(&r, EV_SYN, SYN_REPORT, 0, &f));
	assert_int_equal(f.protocol, IR_PROTO_NEC);
	assert_true(f.scancode == 0x04fb);
	assert_false(ir_keymap_lookup(km, &f, &b));
	ir_keymap_free(km);
}

/* A scancode the keymap names wins over the kernel's key, press and repeat. */
static void a_named_scancode_wins_over_the_kernel_key(void **state)
{
	(void)state;
	struct ir_keymap *km = reader_keymap();
	struct ir_devinput_reader r;
	struct ir_key_binding b;
	struct ir_frame f;

	ir_devinput_reader_init(&r, IR_DEVINPUT_NEC, true, km);
	for (int i = 0; i < 2; i++) {
		ev(&r, EV_MSC, MSC_SCAN, 0x0408, &f);
		if (i == 0)
			ev(&r, EV_KEY, KEY_OK, 1, &f);
		assert_true(ev(&r, EV_SYN, SYN_REPORT, 0, &f));
		assert_int_equal(f.protocol, IR_PROTO_NEC);
		assert_true(ir_keymap_lookup(km, &f, &b));
		assert_string_equal(b.remote, "tv");
	}
	/* a dropped report gives nothing */
	ev(&r, EV_MSC, MSC_SCAN, 0x0408, &f);
	ir_devinput_reader_drop(&r);
	assert_false(ev(&r, EV_SYN, SYN_REPORT, 0, &f));
	ir_keymap_free(km);
}

/* An input device without MSC_SCAN: its auto-repeats are the repeats. */
static void without_scancodes_auto_repeat_repeats(void **state)
{
	(void)state;
	struct ir_keymap *km = reader_keymap();
	struct ir_devinput_reader r;
	struct ir_frame f;

	ir_devinput_reader_init(&r, 0, false, km);
	ev(&r, EV_KEY, KEY_POWER, 1, &f);
	assert_true(ev(&r, EV_SYN, SYN_REPORT, 0, &f));
	assert_true(f.scancode == ir_devinput_lircd_code(EV_KEY, KEY_POWER, 1));
	assert_int_equal(f.flags, 0);
	ev(&r, EV_KEY, KEY_POWER, 2, &f);
	assert_true(ev(&r, EV_SYN, SYN_REPORT, 0, &f));
	assert_int_equal(f.flags, IR_FRAME_REPEAT);
	ev(&r, EV_KEY, KEY_POWER, 0, &f);
	assert_false(ev(&r, EV_SYN, SYN_REPORT, 0, &f));
	/* a key no keymap has: nothing */
	ev(&r, EV_KEY, KEY_MAX - 1, 1, &f);
	assert_false(ev(&r, EV_SYN, SYN_REPORT, 0, &f));
	ir_keymap_free(km);
}

/* No keymap: every scancode is a frame of the selected protocol. */
static void without_a_keymap_scancodes_are_frames(void **state)
{
	(void)state;
	struct ir_devinput_reader r;
	struct ir_frame f;

	ir_devinput_reader_init(&r, IR_DEVINPUT_RC5, true, NULL);
	ev(&r, EV_MSC, MSC_SCAN, 0x1e0c, &f);
	ev(&r, EV_KEY, KEY_OK, 1, &f);
	assert_true(ir_devinput_reader_event(&r, EV_SYN, SYN_REPORT, 0, 4242, &f));
	assert_int_equal(f.protocol, IR_PROTO_RC5);
	assert_true(f.scancode == 0x1e0c);
	assert_true(f.start_us == 4242);
	assert_false(ev(&r, EV_SYN, SYN_REPORT, 0, &f));
}

static void put(const char *root, const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void dir(const char *root, const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	assert_int_equal(mkdir(path, 0755), 0);
}

static void fake_sysfs_lists_event_devices_and_protocols(void **state)
{
	(void)state;
	char root[] = "/tmp/test_devinput.XXXXXX";
	char cmd[600];
	struct ir_devinput_dev devs[4];
	struct ir_lirc_dev_info info[4];

	assert_non_null(mkdtemp(root));
	assert_int_equal(ir_devinput_discover(root, devs, 4), -ENOENT);
	dir(root, "class");
	dir(root, "class/rc");
	const char *rcs[] = { "rc10", "rc0", "rc2" }, *events[] = { "event12", "event3", "event4" };
	for (int i = 0; i < 3; i++) {
		char rel[128];

		snprintf(rel, sizeof(rel), "class/rc/%s", rcs[i]);
		dir(root, rel);
		snprintf(rel, sizeof(rel), "class/rc/%s/input%d", rcs[i], i + 20);
		dir(root, rel);
		snprintf(rel, sizeof(rel), "class/rc/%s/input%d/%s", rcs[i], i + 20, events[i]);
		dir(root, rel);
		snprintf(rel, sizeof(rel), "class/rc/%s/input%d/mouse%d", rcs[i], i + 20, i);
		dir(root, rel);
	}
	put(root, "class/rc/rc0/uevent", "NAME=rc-hauppauge\nDRV_NAME=cx88xx\nDEV_NAME=cx88 IR\n");
	put(root, "class/rc/rc0/protocols", "rc-5 nec [rc-6] jvc\n");
	assert_int_equal(ir_devinput_discover(root, devs, 4), 3);
	assert_string_equal(devs[0].rc_name, "rc0");
	assert_string_equal(devs[0].event, "event3");
	assert_string_equal(devs[1].rc_name, "rc2");
	assert_string_equal(devs[2].rc_name, "rc10");
	assert_string_equal(devs[2].event, "event12");
	assert_int_equal(ir_devinput_discover(root, devs, 1), 3);
	assert_string_equal(devs[0].event, "event3");
	assert_int_equal(ir_devinput_read_protocols(root, "rc0"), IR_DEVINPUT_RC6);
	assert_int_equal(ir_devinput_read_protocols(root, "rc7"), -ENOENT);
	/* the uevent's NAME is the kernel keymap: rc_maps.cfg's table */
	assert_int_equal(ir_lirc_dev_discover(root, info, 4), 3);
	assert_string_equal(info[0].table, "rc-hauppauge");
	assert_string_equal(info[0].driver, "cx88xx");
	assert_string_equal(info[1].table, "");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(only_bracketed_protocols_are_selected),
		cmocka_unit_test(scancode_layouts_give_the_variant),
		cmocka_unit_test(several_groups_are_listed_in_order),
		cmocka_unit_test(lircd_codes_follow_its_devinput_driver),
		cmocka_unit_test(debian_devinput_conf_names_the_codes),
		cmocka_unit_test(fake_sysfs_lists_event_devices_and_protocols),
		cmocka_unit_test(kernel_keys_become_lircd_devinput_buttons),
		cmocka_unit_test(a_named_scancode_wins_over_the_kernel_key),
		cmocka_unit_test(without_scancodes_auto_repeat_repeats),
		cmocka_unit_test(without_a_keymap_scancodes_are_frames),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
