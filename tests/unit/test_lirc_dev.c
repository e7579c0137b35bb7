/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_lirc_dev.c - mode2 word and lirc_scancode conversions. */
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

#include <linux/lirc.h>

#include "ir_lirc_dev.h"

static void mode2_words_become_edges(void **state)
{
	(void)state;
	struct ir_edge e;

	assert_int_equal(ir_lirc_mode2_to_edge(0x01000233, &e), 0);
	assert_int_equal(e.kind, IR_PULSE);
	assert_int_equal(e.duration, 0x233);
	assert_int_equal(ir_lirc_mode2_to_edge(0x00001194, &e), 0);
	assert_int_equal(e.kind, IR_SPACE);
	assert_int_equal(e.duration, 4500);
	assert_int_equal(ir_lirc_mode2_to_edge(0x02009470, &e), 0);
	assert_int_equal(e.kind, IR_CARRIER);
	assert_int_equal(e.duration, 38000);
	assert_int_equal(ir_lirc_mode2_to_edge(0x0301e848, &e), 0);
	assert_int_equal(e.kind, IR_TIMEOUT);
	assert_int_equal(e.duration, 125000);
	assert_int_equal(ir_lirc_mode2_to_edge(0x04ffffff, &e), 0);
	assert_int_equal(e.kind, IR_OVERFLOW);
	assert_int_equal(ir_lirc_mode2_to_edge(0x05000010, &e), -EINVAL);
	assert_int_equal(ir_lirc_mode2_to_edge(0x01000000, &e), -EINVAL);
}

static void edges_become_mode2_words(void **state)
{
	(void)state;
	uint32_t w;
	struct ir_edge p = ir_pulse(889), big = ir_pulse(0x1000000);

	assert_int_equal(ir_lirc_edge_to_mode2(&p, &w), 0);
	assert_int_equal(w, 0x01000379);
	assert_int_equal(ir_lirc_edge_to_mode2(&big, &w), -ERANGE);
}

static void scancode_records_become_frames(void **state)
{
	(void)state;
	struct lirc_scancode sc = { .timestamp = 5000000123ull, .flags = LIRC_SCANCODE_FLAG_TOGGLE,
				    .rc_proto = 19, .keycode = 0, .scancode = 0x800f040c };
	struct ir_frame f;
	uint8_t raw[sizeof(sc) + 1];

	assert_int_equal(sizeof(sc), 24);
	memcpy(raw + 1, &sc, sizeof(sc)); /* unaligned on purpose */
	assert_int_equal(ir_lirc_scancode_to_frame(raw + 1, &f), 0);
	assert_int_equal(f.protocol, IR_PROTO_RC6_MCE);
	assert_int_equal(f.scancode, 0x800f040c);
	assert_int_equal(f.flags, IR_FRAME_TOGGLE);
	assert_int_equal(f.start_us, 5000000);
	sc.rc_proto = 200;
	assert_int_equal(ir_lirc_scancode_to_frame(&sc, &f), -EPROTONOSUPPORT);
}

/* A documented fake: sysfs laid out as the kernel does for rc-loopback
 * (rc0 with lirc0) plus a receiver without LIRC (rc10), in a temp dir,
 * since no real rc devices exist on the build machine. */
static void put(const char *root, const char *rel, const char *text)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void mkd(const char *root, const char *rel)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	assert_int_equal(mkdir(p, 0755), 0);
}

static void discovery_reads_fake_sysfs_tree(void **state)
{
	(void)state;
	char root[] = "/tmp/irjack-sysfs-XXXXXX";
	struct ir_lirc_dev_info info[4];
	char cmd[600];

	assert_non_null(mkdtemp(root));
	assert_int_equal(ir_lirc_dev_discover(root, info, 4), -ENOENT);
	mkd(root, "class");
	mkd(root, "class/rc");
	mkd(root, "class/rc/rc10");
	put(root, "class/rc/rc10/uevent", "NAME=rc-empty\nDRV_NAME=imon\nDEV_NAME=iMON Remote\n");
	mkd(root, "class/rc/rc0");
	mkd(root, "class/rc/rc0/lirc0");
	put(root, "class/rc/rc0/uevent", "NAME=rc-empty\nDRV_NAME=rc-loopback\nDEV_NAME=rc-core loopback device\n");
	mkd(root, "class/rc/rc2");
	mkd(root, "class/rc/rc2/lirc1");
	put(root, "class/rc/rc2/uevent", "DRV_NAME=mceusb\n");

	assert_int_equal(ir_lirc_dev_discover(root, info, 4), 3);
	assert_string_equal(info[0].rc_name, "rc0");
	assert_string_equal(info[0].lirc_name, "lirc0");
	assert_string_equal(info[0].driver, "rc-loopback");
	assert_string_equal(info[0].dev_name, "rc-core loopback device");
	assert_string_equal(info[1].rc_name, "rc2");
	assert_string_equal(info[1].lirc_name, "lirc1");
	assert_string_equal(info[1].dev_name, "");
	assert_string_equal(info[2].rc_name, "rc10");
	assert_string_equal(info[2].lirc_name, "");
	assert_string_equal(info[2].driver, "imon");
	assert_int_equal(ir_lirc_dev_discover(root, info, 1), 3);
	assert_string_equal(info[0].rc_name, "rc0"); /* the first by name, whatever readdir's order */
	assert_int_equal(ir_lirc_dev_discover(root, info, 2), 3);
	assert_string_equal(info[0].rc_name, "rc0");
	assert_string_equal(info[1].rc_name, "rc2");

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mode2_words_become_edges),
		cmocka_unit_test(edges_become_mode2_words),
		cmocka_unit_test(scancode_records_become_frames),
		cmocka_unit_test(discovery_reads_fake_sysfs_tree),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
