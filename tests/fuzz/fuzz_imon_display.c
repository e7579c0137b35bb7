/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_imon_display.c - libFuzzer target for display requests (the lircd
 * socket's DISPLAY and the MQTT display topic carry them from clients):
 * the input is a request line; a parsed one is turned into packets for a
 * VFD and an LCD of both command-byte families.  Checked: lines are at
 * most 16 printable ASCII characters, the packet count fits and is what
 * the request asks for, every LCD bitmap packet carries its command byte.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ir_imon_display.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_lines(const struct ir_imon_screen *s)
{
	for (unsigned r = 0; r < IMON_DISPLAY_ROWS; r++) {
		size_t len = strnlen(s->line[r], sizeof(s->line[r]));

		if (len > IMON_DISPLAY_COLS)
			abort();
		for (size_t i = 0; i < len; i++)
			if (s->line[r][i] < 0x20 || s->line[r][i] > 0x7e)
				abort();
	}
}

static void check_packets(enum ir_imon_display d, uint16_t product,
			  const struct ir_imon_screen *s, bool init)
{
	struct tm tm = { .tm_year = 126, .tm_mon = 11, .tm_mday = 5, .tm_hour = 23 };
	struct ir_imon_packets pk;
	size_t want;

	if (s->kind == IR_IMON_SCREEN_WRITE) {
		/* lirc_imon: a VFD write of 1..32 bytes is one screen (six
		 * packets); an LCD write is one whole 8-byte packet, or EINVAL */
		int ret = ir_imon_screen_packets(d, product, s, init, &tm, &pk);

		if (d == IR_IMON_DISPLAY_LCD && s->raw_len != 8) {
			if (ret != -EINVAL)
				abort();
			return;
		}
		if (ret < 0 || pk.n != (d == IR_IMON_DISPLAY_VFD ? IMON_VFD_TEXT_PACKETS : 1))
			abort();
		if (d == IR_IMON_DISPLAY_LCD && memcmp(pk.pkt[0], s->raw, 8) != 0)
			abort();
		return;
	}
	if (ir_imon_screen_packets(d, product, s, init, &tm, &pk) < 0)
		abort();
	if (s->kind == IR_IMON_SCREEN_CLOCK || (s->kind == IR_IMON_SCREEN_OFF && d == IR_IMON_DISPLAY_LCD))
		want = 2;
	else if (d == IR_IMON_DISPLAY_VFD)
		want = s->kind == IR_IMON_SCREEN_OFF || s->text_set ? IMON_VFD_TEXT_PACKETS : 0;
	else
		want = (init ? IMON_LCD_INIT_PACKETS : 0) + (s->text_set ? IMON_LCD_TEXT_PACKETS : 0) +
		       s->icons_set;
	if (pk.n != want || pk.n > IMON_DISPLAY_MAX_PACKETS)
		abort();
	if (d == IR_IMON_DISPLAY_LCD && s->kind == IR_IMON_SCREEN_TEXT && s->text_set) {
		size_t first = init ? IMON_LCD_INIT_PACKETS : 0;

		for (size_t i = 0; i < IMON_LCD_TEXT_PACKETS; i++)
			if (pk.pkt[first + i][7] != 0x20 + i)
				abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char request[1024], err[256];
	struct ir_imon_screen s;

	if (size >= sizeof(request))
		return 0;
	memcpy(request, data, size);
	request[size] = '\0';
	if (ir_imon_screen_parse(request, &s, err, sizeof(err)) < 0) {
		if (!memchr(err, '\0', sizeof(err)) || !err[0])
			abort();
		return 0;
	}
	check_lines(&s);
	check_packets(IR_IMON_DISPLAY_VFD, 0x0036, &s, true);
	check_packets(IR_IMON_DISPLAY_LCD, 0x0038, &s, true);
	check_packets(IR_IMON_DISPLAY_LCD, 0xffdc, &s, false);
	return 0;
}
