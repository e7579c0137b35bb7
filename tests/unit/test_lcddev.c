/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_lcddev.c - [output lcddev]'s host-side half: what a /dev/lcd0
 * write becomes (the display request "WRITE HEX"), which sizes are
 * refused before any display is asked, and the output kind's answer
 * where no CUSE device can be made.  The device itself (CUSE, lcdproc's
 * writes, the packets on the wire) is tested in the VM
 * (tests/vm/guest-display.sh).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "ir_output.h"
#include "out_lcddev.h"

static void a_write_becomes_write_and_its_bytes_in_hex(void **state)
{
	char req[80];

	(void)state;
	assert_int_equal(ir_lcddev_request("Hi\xff\x00", 4, req, sizeof(req)), 0);
	assert_string_equal(req, "WRITE 4869ff00");
}

/* lirc_imon took 1..32 bytes (VFD) or 8 (LCD): 0 and 33 fit no display. */
static void empty_and_oversized_writes_are_refused(void **state)
{
	uint8_t buf[33];
	char req[80];

	(void)state;
	memset(buf, ' ', sizeof(buf));
	assert_int_equal(ir_lcddev_request(buf, 0, req, sizeof(req)), -EINVAL);
	assert_int_equal(ir_lcddev_request(buf, 33, req, sizeof(req)), -EINVAL);
	assert_int_equal(ir_lcddev_request(buf, 32, req, sizeof(req)), 0);
	assert_int_equal(strlen(req), 6 + 64);
	assert_int_equal(ir_lcddev_request(buf, 32, req, 70), -ENOSPC);
}

/* Without /dev/cuse (this host) the kind says why, as lircdev does; a
 * bad name is refused before /dev/cuse is tried.  Where CUSE works, the
 * node appears. */
static void the_kind_opens_only_with_cuse_and_a_good_name(void **state)
{
	const struct ir_output_kind *kind = ir_output_kind_find("lcddev");
	struct ir_lcddev_settings s = { .name = "lcd-test" };
	struct ir_output_env env = { 0 };
	struct ir_output *o = NULL;
	char err[256] = "";
	int ret;

	(void)state;
	assert_non_null(kind);
	assert_true(kind->keeps_running);
	ret = ir_output_open(kind, &s, &env, &o, err, sizeof(err));
	if (ret == 0) {
		/* a host with CUSE and the right to use it: the node is there */
		assert_int_equal(access("/dev/lcd-test", F_OK), 0);
		ir_output_close(o);
		o = NULL;
	} else if (ir_lcddev_cuse_supported()) {
		assert_null(o);
		assert_true(ret == -ENOENT || ret == -EACCES);
		assert_non_null(strstr(err, "/dev/cuse"));
	} else {
		assert_int_equal(ret, -ENOTSUP);
	}
	strcpy(s.name, "../lcd0");
	assert_int_equal(ir_output_open(kind, &s, &env, &o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "'../lcd0'"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_write_becomes_write_and_its_bytes_in_hex),
		cmocka_unit_test(empty_and_oversized_writes_are_refused),
		cmocka_unit_test(the_kind_opens_only_with_cuse_and_a_good_name),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
