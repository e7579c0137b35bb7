/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_imon_display.c - iMON VFD and LCD packets, byte for byte.  Every
 * expected packet below is written out by hand from the protocol as the
 * kernel's imon driver and lcdproc's imonlcd describe it (layouts in
 * ir_imon_display.h), not taken from the builder.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "ir_imon_display.h"

static void assert_packet(const struct ir_imon_packets *pk, size_t i, const uint8_t want[8])
{
	assert_true(i < pk->n);
	assert_memory_equal(pk->pkt[i], want, 8);
}

static struct ir_imon_screen text_screen(const char *text)
{
	struct ir_imon_screen s;

	memset(&s, 0, sizeof(s));
	ir_imon_screen_set_text(&s, text);
	return s;
}

/* 2026-12-05, a Saturday, 23:45:07 */
static struct tm clock_time(void)
{
	struct tm tm = { .tm_year = 126, .tm_mon = 11, .tm_mday = 5, .tm_wday = 6,
			 .tm_hour = 23, .tm_min = 45, .tm_sec = 7 };
	return tm;
}

static void vfd_text_is_35_bytes_in_sequenced_packets_then_packet_six(void **state)
{
	(void)state;
	struct ir_imon_screen s = text_screen("Hello|World");
	struct ir_imon_packets pk;
	/* "Hello" + 11 spaces, "World" + 11 spaces, FF FF FF; 7 a packet */
	const uint8_t want[6][8] = {
		{ 'H', 'e', 'l', 'l', 'o', ' ', ' ', 0x00 },
		{ ' ', ' ', ' ', ' ', ' ', ' ', ' ', 0x02 },
		{ ' ', ' ', 'W', 'o', 'r', 'l', 'd', 0x04 },
		{ ' ', ' ', ' ', ' ', ' ', ' ', ' ', 0x06 },
		{ ' ', ' ', ' ', ' ', 0xff, 0xff, 0xff, 0x08 },
		{ 0x01, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0x0a },
	};

	assert_int_equal(ir_imon_screen_packets(IR_IMON_DISPLAY_VFD, 0x0036, &s, true, NULL, &pk), 0);
	assert_int_equal(pk.n, 6);
	for (size_t i = 0; i < 6; i++)
		assert_packet(&pk, i, want[i]);
}

static void vfd_off_is_a_blank_screen(void **state)
{
	(void)state;
	struct ir_imon_screen s = { .kind = IR_IMON_SCREEN_OFF };
	struct ir_imon_packets pk;
	const uint8_t spaces[8] = { ' ', ' ', ' ', ' ', ' ', ' ', ' ', 0x02 };

	assert_int_equal(ir_imon_screen_packets(IR_IMON_DISPLAY_VFD, 0xffdc, &s, false, NULL, &pk), 0);
	assert_int_equal(pk.n, 6);
	assert_packet(&pk, 1, spaces);
}

static void vfd_clock_packets(void **state)
{
	(void)state;
	struct tm tm = clock_time();
	struct ir_imon_screen s = { .kind = IR_IMON_SCREEN_CLOCK };
	struct ir_imon_packets pk;
	/* YY MM-1 DD DOW hh mm ss 40, then 00 00 01 00 00 00 00 42 */
	const uint8_t set[8] = { 26, 11, 5, 6, 23, 45, 7, 0x40 };
	const uint8_t show[8] = { 0, 0, 1, 0, 0, 0, 0, 0x42 };

	assert_int_equal(ir_imon_screen_packets(IR_IMON_DISPLAY_VFD, 0x0044, &s, true, &tm, &pk), 0);
	assert_int_equal(pk.n, 2);
	assert_packet(&pk, 0, set);
	assert_packet(&pk, 1, show);
}

static void lcd_clock_command_byte_depends_on_product(void **state)
{
	(void)state;
	struct tm tm = clock_time();
	struct ir_imon_screen s = { .kind = IR_IMON_SCREEN_CLOCK };
	struct ir_imon_packets pk;
	/* 80 YY MM-1 DD hh mm ss CMD, then 80 00 00 00 00 00 00 ALARM */
	const uint8_t set_0038[8] = { 0x80, 26, 11, 5, 23, 45, 7, 0x88 };
	const uint8_t show_0038[8] = { 0x80, 0, 0, 0, 0, 0, 0, 0x8a };
	const uint8_t set_ffdc[8] = { 0x80, 26, 11, 5, 23, 45, 7, 0x50 };
	const uint8_t show_ffdc[8] = { 0x80, 0, 0, 0, 0, 0, 0, 0x51 };

	assert_int_equal(ir_imon_screen_packets(IR_IMON_DISPLAY_LCD, 0x0038, &s, true, &tm, &pk), 0);
	assert_int_equal(pk.n, 2);
	assert_packet(&pk, 0, set_0038);
	assert_packet(&pk, 1, show_0038);
	assert_int_equal(ir_imon_screen_packets(IR_IMON_DISPLAY_LCD, 0xffdc, &s, true, &tm, &pk), 0);
	assert_packet(&pk, 0, set_ffdc);
	assert_packet(&pk, 1, show_ffdc);
}

static void lcd_first_screen_starts_with_the_init_sequence(void **state)
{
	(void)state;
	struct ir_imon_screen s = text_screen("");
	struct ir_imon_packets pk;
	const uint8_t want[8][8] = {
		{ 0x40, 0, 0, 0, 0, 0, 0, 0x88 },          /* display on */
		{ 0, 0, 0, 0, 0, 0, 0, 0x8a },             /* alarm cleared */
		{ 8, 0x0a, 0x58, 0, 0xff, 0xff, 0xff, 0x03 }, /* contrast 200/1000 = 8/40 */
		{ 0, 0, 0, 0, 0, 0, 0, 0x02 },             /* init */
		{ 0, 0, 0, 0, 0, 0, 0, 0x01 },             /* icons off */
		{ 0, 0, 0, 0, 0, 0, 0, 0x10 },             /* bars off */
		{ 0, 0, 0, 0, 0, 0, 0, 0x11 },
		{ 0, 0, 0, 0, 0, 0, 0, 0x12 },
	};

	assert_int_equal(ir_imon_screen_packets(IR_IMON_DISPLAY_LCD, 0x0038, &s, true, NULL, &pk), 0);
	assert_int_equal(pk.n, 8 + 28);
	for (size_t i = 0; i < 8; i++)
		assert_packet(&pk, i, want[i]);
	/* not again on the next screen */
	assert_int_equal(ir_imon_screen_packets(IR_IMON_DISPLAY_LCD, 0x0038, &s, false, NULL, &pk), 0);
	assert_int_equal(pk.n, 28);
}

static void lcd_text_bitmap_columns_rows_and_padding(void **state)
{
	(void)state;
	/* "I" in the first cell and the last cell of line 2.  The glyph,
	 * rows top down: .###. ..#.. ..#.. ..#.. ..#.. ..#.. .###.
	 * Its columns, bit 7 the top pixel: 00, 82 (rows 0 and 6),
	 * FE (rows 0..6), 82, 00, then the gap 00. */
	struct ir_imon_screen s = text_screen("I|               I");
	struct ir_imon_packets pk;
	const uint8_t first[8] = { 0x00, 0x82, 0xfe, 0x82, 0x00, 0x00, 0x00, 0x20 };
	const uint8_t empty[8] = { 0, 0, 0, 0, 0, 0, 0, 0x21 };
	/* line 2 cell 15 is bytes 96 + 90 = 186..190; packet 26 holds
	 * 182..188, packet 27 holds 189..191 and the pad FF FF FF FF */
	const uint8_t p26[8] = { 0x00, 0x00, 0x00, 0x00, 0x00, 0x82, 0xfe, 0x3a };
	const uint8_t p27[8] = { 0x82, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0x3b };

	assert_int_equal(ir_imon_screen_packets(IR_IMON_DISPLAY_LCD, 0x0038, &s, false, NULL, &pk), 0);
	assert_int_equal(pk.n, 28);
	assert_packet(&pk, 0, first);
	assert_packet(&pk, 1, empty);
	assert_packet(&pk, 26, p26);
	assert_packet(&pk, 27, p27);
	for (size_t i = 0; i < 28; i++)
		assert_int_equal(pk.pkt[i][7], 0x20 + i);
}

static void lcd_icons_alone_send_one_packet(void **state)
{
	(void)state;
	struct ir_imon_screen s;
	struct ir_imon_packets pk;
	char err[256];
	/* music = bit 7 (byte 0 0x80), vol = bit 33 (byte 4 0x02),
	 * disc_in = bit 55 (byte 6 0x80), command 0x01 */
	const uint8_t want[8] = { 0x80, 0, 0, 0, 0x02, 0, 0x80, 0x01 };

	assert_int_equal(ir_imon_screen_parse("ICONS music,VOL,disc_in", &s, err, sizeof(err)), 0);
	assert_false(s.text_set);
	assert_int_equal(ir_imon_screen_packets(IR_IMON_DISPLAY_LCD, 0x0038, &s, false, NULL, &pk), 0);
	assert_int_equal(pk.n, 1);
	assert_packet(&pk, 0, want);
	/* the VFD has no icons: nothing to send */
	assert_int_equal(ir_imon_screen_packets(IR_IMON_DISPLAY_VFD, 0x0036, &s, false, NULL, &pk), 0);
	assert_int_equal(pk.n, 0);
}

static void lcd_off_is_backlight_off_and_alarm_cleared(void **state)
{
	(void)state;
	struct ir_imon_screen s = { .kind = IR_IMON_SCREEN_OFF };
	struct ir_imon_packets pk;
	const uint8_t off[8] = { 0x08, 0, 0, 0, 0, 0, 0, 0x50 };
	const uint8_t alarm[8] = { 0, 0, 0, 0, 0, 0, 0, 0x51 };

	assert_int_equal(ir_imon_screen_packets(IR_IMON_DISPLAY_LCD, 0xffdc, &s, false, NULL, &pk), 0);
	assert_int_equal(pk.n, 2);
	assert_packet(&pk, 0, off);
	assert_packet(&pk, 1, alarm);
}

static void text_is_cut_to_two_lines_of_sixteen_ascii(void **state)
{
	(void)state;
	struct ir_imon_screen s = text_screen("Caf\xc3\xa9 \x01tab\nThis line is far too long|third");

	assert_true(s.text_set);
	assert_string_equal(s.line[0], "Caf? ?tab");
	assert_string_equal(s.line[1], "This line is far");
}

static void requests_parse_and_bad_ones_say_why(void **state)
{
	(void)state;
	struct ir_imon_screen s;
	char err[256] = "";

	assert_int_equal(ir_imon_screen_parse("text Now playing|Track 2", &s, err, sizeof(err)), 0);
	assert_int_equal(s.kind, IR_IMON_SCREEN_TEXT);
	assert_string_equal(s.line[0], "Now playing");
	assert_string_equal(s.line[1], "Track 2");
	assert_false(s.icons_set);
	assert_int_equal(ir_imon_screen_parse("ICONS music,mp3 TEXT a b|c", &s, err, sizeof(err)), 0);
	assert_true(s.icons_set && s.text_set);
	assert_int_equal(s.icons, (1ull << 7) | (1ull << 25));
	assert_string_equal(s.line[0], "a b");
	assert_int_equal(ir_imon_screen_parse(" Clock", &s, err, sizeof(err)), 0);
	assert_int_equal(s.kind, IR_IMON_SCREEN_CLOCK);
	assert_int_equal(ir_imon_screen_parse("OFF", &s, err, sizeof(err)), 0);
	assert_int_equal(s.kind, IR_IMON_SCREEN_OFF);
	assert_int_equal(ir_imon_screen_parse("OFF now", &s, err, sizeof(err)), -EINVAL);
	assert_int_equal(ir_imon_screen_parse("TEXTS x", &s, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "expected TEXT"));
	assert_int_equal(ir_imon_screen_parse("ICONS music,bogus", &s, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "unknown icon \"bogus\""));
	assert_int_equal(ir_imon_screen_parse("ICONS", &s, err, sizeof(err)), -EINVAL);
}

static void display_kind_from_product_id(void **state)
{
	(void)state;
	enum ir_imon_display d;

	assert_int_equal(ir_imon_display_for(0x0038), IR_IMON_DISPLAY_LCD);
	assert_int_equal(ir_imon_display_for(0x0045), IR_IMON_DISPLAY_LCD);
	assert_int_equal(ir_imon_display_for(0x0036), IR_IMON_DISPLAY_VFD);
	assert_int_equal(ir_imon_display_for(0xffdc), IR_IMON_DISPLAY_VFD);
	assert_int_equal(ir_imon_display_for(0x0041), IR_IMON_DISPLAY_NONE);
	assert_int_equal(ir_imon_display_for(0x0034), IR_IMON_DISPLAY_NONE);
	assert_int_equal(ir_imon_display_delay_ms(0x0036), 20);
	assert_int_equal(ir_imon_display_delay_ms(0x0038), 5);
	assert_int_equal(ir_imon_display_parse("LCD", &d), 0);
	assert_int_equal(d, IR_IMON_DISPLAY_LCD);
	assert_int_equal(ir_imon_display_parse("oled", &d), -EINVAL);
	struct ir_imon_screen s = text_screen("x");
	struct ir_imon_packets pk;
	assert_int_equal(ir_imon_screen_packets(IR_IMON_DISPLAY_NONE, 0x0041, &s, true, NULL, &pk),
			 -ENODEV);
}

/* lirc_imon's /dev/lcd0 on a VFD: a write of 1..32 bytes is the screen,
 * padded with spaces to 32, then FF FF FF, in five sequenced packets and
 * packet six; bytes outside ASCII go out as written (the VFD's ROM). */
static void vfd_write_pads_short_writes_and_keeps_every_byte(void **state)
{
	struct ir_imon_screen s;
	struct ir_imon_packets pk;
	char err[128];

	(void)state;
	assert_int_equal(ir_imon_screen_parse("write 41e942", &s, err, sizeof(err)), 0);
	assert_int_equal(s.kind, IR_IMON_SCREEN_WRITE);
	assert_int_equal(ir_imon_screen_packets(IR_IMON_DISPLAY_VFD, 0x0044, &s, true, NULL, &pk), 0);
	assert_int_equal(pk.n, 6);
	assert_packet(&pk, 0, (const uint8_t[]){ 'A', 0xe9, 'B', ' ', ' ', ' ', ' ', 0x00 });
	assert_packet(&pk, 1, (const uint8_t[]){ ' ', ' ', ' ', ' ', ' ', ' ', ' ', 0x02 });
	assert_packet(&pk, 4, (const uint8_t[]){ ' ', ' ', ' ', ' ', 0xff, 0xff, 0xff, 0x08 });
	assert_packet(&pk, 5, (const uint8_t[]){ 0x01, 0, 0, 0, 0, 0xff, 0xff, 0x0a });
}

/* 32 bytes fill the screen exactly: byte 32 is the last of packet five's
 * first four; 0 bytes and 33 bytes are refused (lirc_imon: -EINVAL). */
static void vfd_write_sizes_one_to_thirty_two(void **state)
{
	uint8_t screen[33];
	struct ir_imon_packets pk;

	(void)state;
	for (size_t i = 0; i < sizeof(screen); i++)
		screen[i] = (uint8_t)('a' + i % 26);
	assert_int_equal(ir_imon_vfd_bytes(screen, 32, &pk), 0);
	assert_packet(&pk, 4, (const uint8_t[]){ 'c', 'd', 'e', 'f', 0xff, 0xff, 0xff, 0x08 });
	assert_int_equal(ir_imon_vfd_bytes(screen, 0, &pk), -EINVAL);
	assert_int_equal(pk.n, 0);
	assert_int_equal(ir_imon_vfd_bytes(screen, 33, &pk), -EINVAL);
	assert_int_equal(pk.n, 0);
}

/* On an LCD a write is one 8-byte packet sent as it is, with no start-up
 * sequence before it (the writer, lcdproc's imonlcd, sends its own);
 * another size is refused. */
static void lcd_write_is_one_packet_as_written(void **state)
{
	struct ir_imon_screen s;
	struct ir_imon_packets pk;
	char err[128];

	(void)state;
	assert_int_equal(ir_imon_screen_parse("WRITE 4000000000000088", &s, err, sizeof(err)), 0);
	assert_int_equal(ir_imon_screen_packets(IR_IMON_DISPLAY_LCD, 0x0038, &s, true, NULL, &pk), 0);
	assert_int_equal(pk.n, 1);
	assert_packet(&pk, 0, (const uint8_t[]){ 0x40, 0, 0, 0, 0, 0, 0, 0x88 });
	assert_int_equal(ir_imon_screen_parse("WRITE 40000000000000", &s, err, sizeof(err)), 0);
	assert_int_equal(ir_imon_screen_packets(IR_IMON_DISPLAY_LCD, 0x0038, &s, true, NULL, &pk),
			 -EINVAL);
	assert_int_equal(ir_imon_screen_parse("WRITE 400000000000008800", &s, err, sizeof(err)), 0);
	assert_int_equal(ir_imon_screen_packets(IR_IMON_DISPLAY_LCD, 0x0038, &s, true, NULL, &pk),
			 -EINVAL);
}

static void write_requests_must_be_whole_hex_bytes(void **state)
{
	struct ir_imon_screen s;
	char err[128];
	char big[80];

	(void)state;
	assert_int_equal(ir_imon_screen_parse("WRITE", &s, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "1 to 32 bytes"));
	assert_int_equal(ir_imon_screen_parse("WRITE 414", &s, err, sizeof(err)), -EINVAL);
	assert_int_equal(ir_imon_screen_parse("WRITE 41zz", &s, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "'zz'"));
	assert_int_equal(ir_imon_screen_parse("WRITE 41 42", &s, err, sizeof(err)), -EINVAL);
	memset(big, '4', 66);
	big[66] = '\0';
	char req[96];
	snprintf(req, sizeof(req), "WRITE %s", big);
	assert_int_equal(ir_imon_screen_parse(req, &s, err, sizeof(err)), -EINVAL);
	req[6 + 64] = '\0'; /* 32 bytes: the most */
	assert_int_equal(ir_imon_screen_parse(req, &s, err, sizeof(err)), 0);
	assert_int_equal(s.raw_len, 32);
	assert_int_equal(s.raw[31], 0x44);
}

/* The kernel's 0xffdc table, byte by byte. */
static void ffdc_display_from_the_config_byte(void **state)
{
	static const uint8_t vfd[] = { 0x24, 0x30, 0x35, 0x46, 0x7e, 0x85, 0x9e, 0x00, 0xff };
	static const uint8_t none[] = { 0x21, 0x26, 0x4e };

	(void)state;
	assert_int_equal(ir_imon_ffdc_display(0x9f), IR_IMON_DISPLAY_LCD);
	assert_int_equal(ir_imon_ffdc_display(0x98), IR_IMON_DISPLAY_LCD);
	for (size_t i = 0; i < sizeof(vfd); i++)
		assert_int_equal(ir_imon_ffdc_display(vfd[i]), IR_IMON_DISPLAY_VFD);
	for (size_t i = 0; i < sizeof(none); i++)
		assert_int_equal(ir_imon_ffdc_display(none[i]), IR_IMON_DISPLAY_NONE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(vfd_text_is_35_bytes_in_sequenced_packets_then_packet_six),
		cmocka_unit_test(vfd_off_is_a_blank_screen),
		cmocka_unit_test(vfd_clock_packets),
		cmocka_unit_test(lcd_clock_command_byte_depends_on_product),
		cmocka_unit_test(lcd_first_screen_starts_with_the_init_sequence),
		cmocka_unit_test(lcd_text_bitmap_columns_rows_and_padding),
		cmocka_unit_test(lcd_icons_alone_send_one_packet),
		cmocka_unit_test(lcd_off_is_backlight_off_and_alarm_cleared),
		cmocka_unit_test(text_is_cut_to_two_lines_of_sixteen_ascii),
		cmocka_unit_test(requests_parse_and_bad_ones_say_why),
		cmocka_unit_test(display_kind_from_product_id),
		cmocka_unit_test(vfd_write_pads_short_writes_and_keeps_every_byte),
		cmocka_unit_test(vfd_write_sizes_one_to_thirty_two),
		cmocka_unit_test(lcd_write_is_one_packet_as_written),
		cmocka_unit_test(write_requests_must_be_whole_hex_bytes),
		cmocka_unit_test(ffdc_display_from_the_config_byte),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
