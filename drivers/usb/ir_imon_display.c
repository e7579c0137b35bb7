/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_imon_display.c - iMON VFD and LCD packets (layouts in the header).
 */
#include "ir_imon_display.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "ir_util.h"

#define VFD_SCREEN_BYTES 35      /* 32 characters and three 0xFF */
#define VFD_CLOCK_TAG 0x40       /* last byte of the clock's first packet */
#define VFD_CLOCK_SHOW 0x42      /* ... and of its second */
#define LCD_ROW_BYTES 96         /* one 8-pixel row: a byte per column */
#define LCD_CELL_WIDTH 6         /* 5 glyph columns and a gap */
#define LCD_FB_BYTES (IMON_LCD_TEXT_PACKETS * 7) /* 192 and 4 pad bytes */
#define LCD_CMD_ICONS 0x01
#define LCD_CMD_INIT 0x02
#define LCD_CMD_CONTRAST 0x03
#define LCD_CMD_BARS 0x10        /* 0x10, 0x11, 0x12 */
#define LCD_CMD_BITMAP 0x20      /* 0x20 .. 0x3B */
#define LCD_DISPLAY_ON 0x40      /* first byte, with the display command */
#define LCD_DISPLAY_OFF 0x08
#define LCD_CLOCK_TAG 0x80

enum ir_imon_display ir_imon_display_for(uint16_t product)
{
	switch (product) {
	case 0x0038: case 0x0039: case 0x0045:
		return IR_IMON_DISPLAY_LCD;
	case 0x0034: case 0x0035:             /* VGA touch screens */
	case 0x003c: case 0x0041: case 0x0042: case 0x0043:
		return IR_IMON_DISPLAY_NONE;
	default:
		return IR_IMON_DISPLAY_VFD;
	}
}

enum ir_imon_display ir_imon_ffdc_display(uint8_t config_byte)
{
	switch (config_byte) {
	case 0x98: /* UltraBay */
	case 0x9f:
		return IR_IMON_DISPLAY_LCD;
	case 0x21: /* Knob */
	case 0x26: /* Inside */
	case 0x4e: /* 2.4G LT, an RF stick */
		return IR_IMON_DISPLAY_NONE;
	default:   /* 0x24 0x30 0x35 0x46 0x7e 0x85 0x9e, and the unknown ones */
		return IR_IMON_DISPLAY_VFD;
	}
}

const char *ir_imon_display_name(enum ir_imon_display d)
{
	return d == IR_IMON_DISPLAY_VFD ? "vfd" : d == IR_IMON_DISPLAY_LCD ? "lcd" : "none";
}

int ir_imon_display_parse(const char *name, enum ir_imon_display *d)
{
	if (!strcasecmp(name, "vfd"))
		*d = IR_IMON_DISPLAY_VFD;
	else if (!strcasecmp(name, "lcd"))
		*d = IR_IMON_DISPLAY_LCD;
	else if (!strcasecmp(name, "auto"))
		*d = IR_IMON_DISPLAY_NONE;
	else
		return -EINVAL;
	return 0;
}

unsigned ir_imon_display_delay_ms(uint16_t product)
{
	return product == 0x0036 ? 20 : 5;
}

/* The command byte of display on/off and the clock, and of the alarm. */
static uint8_t lcd_display_cmd(uint16_t product)
{
	return product == 0xffdc ? 0x50 : 0x88;
}

static uint8_t lcd_alarm_cmd(uint16_t product)
{
	return product == 0xffdc ? 0x51 : 0x8a;
}

void ir_imon_screen_set_text(struct ir_imon_screen *s, const char *text)
{
	unsigned row = 0, col = 0;

	memset(s->line, 0, sizeof(s->line));
	s->text_set = true;
	for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
		if (*c == '|' || *c == '\n') {
			if (++row == IMON_DISPLAY_ROWS)
				break;
			col = 0;
			continue;
		}
		if ((*c & 0xc0) == 0x80)
			continue; /* a UTF-8 continuation byte: its lead gave the '?' */
		if (col < IMON_DISPLAY_COLS)
			s->line[row][col++] = (*c >= 0x20 && *c < 0x7f) ? (char)*c : '?';
	}
}

static const struct {
	const char *name;
	uint64_t bits;
} icon_table[] = {
	{ "fl", 1ull << 0 }, { "news", 1ull << 1 }, { "webcast", 1ull << 2 },
	{ "tv", 1ull << 3 }, { "cd", 1ull << 4 }, { "photo", 1ull << 5 },
	{ "movie", 1ull << 6 }, { "music", 1ull << 7 },
	{ "rr", 1ull << 8 }, { "spdif", 1ull << 9 }, { "rl", 1ull << 10 },
	{ "lfe", 1ull << 11 }, { "sr", 1ull << 12 }, { "sl", 1ull << 13 },
	{ "fr", 1ull << 14 }, { "fc", 1ull << 15 },
	{ "divx", 1ull << 16 }, { "mpg", 1ull << 17 }, { "scr2", 1ull << 18 },
	{ "scr1", 1ull << 19 }, { "hdtv", 1ull << 20 }, { "tv2", 1ull << 21 },
	{ "fit", 1ull << 22 }, { "src", 1ull << 23 },
	{ "ogg", 1ull << 24 }, { "mp3", 1ull << 25 }, { "wma", 1ull << 26 },
	{ "dts", 1ull << 27 }, { "ac3", 1ull << 28 }, { "mpg2", 1ull << 29 },
	{ "wmv", 1ull << 30 }, { "xvid", 1ull << 31 },
	{ "time", 1ull << 32 }, { "vol", 1ull << 33 }, { "rec", 1ull << 34 },
	{ "alarm", 1ull << 35 }, { "sfl", 1ull << 36 }, { "rep", 1ull << 37 },
	{ "wav", 1ull << 38 }, { "wma2", 1ull << 39 },
	{ "disc", IMON_ICON_DISC }, { "disc_in", IMON_ICON_DISC_IN },
	{ "all", IMON_ICON_ALL }, { "none", 0 },
};

const char *ir_imon_icon_names(void)
{
	return "fl news webcast tv cd photo movie music rr spdif rl lfe sr sl fr fc divx mpg "
	       "scr2 scr1 hdtv tv2 fit src ogg mp3 wma dts ac3 mpg2 wmv xvid time vol rec "
	       "alarm sfl rep wav wma2 disc disc_in all none";
}

int ir_imon_icons_parse(const char *list, uint64_t *icons, char *err, size_t err_size)
{
	const char *p = list;

	*icons = 0;
	while (*p) {
		size_t len = strcspn(p, ",");
		size_t i;

		for (i = 0; i < ARRAY_SIZE(icon_table); i++)
			if (strlen(icon_table[i].name) == len &&
			    !strncasecmp(p, icon_table[i].name, len))
				break;
		if (i == ARRAY_SIZE(icon_table)) {
			snprintf(err, err_size, "unknown icon \"%.*s\" (known: %s)", (int)(len > 32 ? 32 : len),
				 p, ir_imon_icon_names());
			return -EINVAL;
		}
		*icons |= icon_table[i].bits;
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

/* The keyword at *p (followed by a blank or the end): advances past it
 * and the blanks after it. */
static bool keyword(const char **p, const char *word)
{
	size_t len = strlen(word);

	if (strncasecmp(*p, word, len) || ((*p)[len] && !isspace((unsigned char)(*p)[len])))
		return false;
	*p += len;
	while (isspace((unsigned char)**p))
		(*p)++;
	return true;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* "WRITE HEX": 1..32 bytes as pairs of hex digits, nothing after them. */
static int parse_write(const char *p, struct ir_imon_screen *s, char *err, size_t err_size)
{
	size_t len = strcspn(p, " \t\r\n");

	s->kind = IR_IMON_SCREEN_WRITE;
	if (len == 0 || len % 2 || len > 2 * IMON_WRITE_MAX || p[len + strspn(p + len, " \t\r\n")]) {
		snprintf(err, err_size, "WRITE takes 1 to %d bytes as hex digits", IMON_WRITE_MAX);
		return -EINVAL;
	}
	for (size_t i = 0; i < len; i += 2) {
		int hi = hex_digit(p[i]), lo = hex_digit(p[i + 1]);

		if (hi < 0 || lo < 0) {
			snprintf(err, err_size, "WRITE: '%c%c' is not a hex byte", p[i], p[i + 1]);
			return -EINVAL;
		}
		s->raw[s->raw_len++] = (uint8_t)(hi << 4 | lo);
	}
	return 0;
}

int ir_imon_screen_parse(const char *request, struct ir_imon_screen *s, char *err,
			 size_t err_size)
{
	const char *p = request;

	memset(s, 0, sizeof(*s));
	while (isspace((unsigned char)*p))
		p++;
	if (keyword(&p, "WRITE"))
		return parse_write(p, s, err, err_size);
	if (keyword(&p, "CLOCK"))
		s->kind = IR_IMON_SCREEN_CLOCK;
	else if (keyword(&p, "OFF"))
		s->kind = IR_IMON_SCREEN_OFF;
	if (s->kind != IR_IMON_SCREEN_TEXT) {
		if (*p) {
			snprintf(err, err_size, "nothing may follow CLOCK or OFF");
			return -EINVAL;
		}
		return 0;
	}
	s->kind = IR_IMON_SCREEN_TEXT;
	if (keyword(&p, "ICONS")) {
		char list[512];
		size_t len = strcspn(p, " \t");

		if (len == 0 || len >= sizeof(list)) {
			snprintf(err, err_size, "ICONS needs a list of icon names");
			return -EINVAL;
		}
		memcpy(list, p, len);
		list[len] = '\0';
		if (ir_imon_icons_parse(list, &s->icons, err, err_size) < 0)
			return -EINVAL;
		s->icons_set = true;
		p += len;
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			return 0; /* icons alone: the text stays */
	}
	if (!keyword(&p, "TEXT")) {
		snprintf(err, err_size, "expected TEXT line1|line2, ICONS list, CLOCK, OFF or WRITE HEX");
		return -EINVAL;
	}
	ir_imon_screen_set_text(s, p);
	return 0;
}

static uint8_t *next_packet(struct ir_imon_packets *out)
{
	uint8_t *pkt = out->pkt[out->n++];

	memset(pkt, 0, IMON_PACKET_LEN);
	return pkt;
}

int ir_imon_vfd_bytes(const uint8_t *bytes, size_t n, struct ir_imon_packets *out)
{
	static const uint8_t last[IMON_PACKET_LEN - 1] = { 0x01, 0, 0, 0, 0, 0xff, 0xff };
	uint8_t screen[VFD_SCREEN_BYTES];
	unsigned seq = 0;

	out->n = 0;
	if (n == 0 || n > IMON_WRITE_MAX)
		return -EINVAL;
	memset(screen, ' ', IMON_WRITE_MAX);
	memset(screen + IMON_WRITE_MAX, 0xff, VFD_SCREEN_BYTES - IMON_WRITE_MAX);
	memcpy(screen, bytes, n);
	for (unsigned off = 0; off < VFD_SCREEN_BYTES; off += 7, seq += 2) {
		uint8_t *pkt = next_packet(out);

		memcpy(pkt, screen + off, 7);
		pkt[7] = (uint8_t)seq;
	}
	memcpy(next_packet(out), last, sizeof(last));
	out->pkt[out->n - 1][7] = (uint8_t)seq;
	return 0;
}

void ir_imon_vfd_text(const char line[IMON_DISPLAY_ROWS][IMON_DISPLAY_COLS + 1],
		      struct ir_imon_packets *out)
{
	uint8_t screen[IMON_WRITE_MAX];

	memset(screen, ' ', sizeof(screen));
	for (unsigned r = 0; r < IMON_DISPLAY_ROWS; r++)
		memcpy(screen + r * IMON_DISPLAY_COLS, line[r], strnlen(line[r], IMON_DISPLAY_COLS));
	(void)ir_imon_vfd_bytes(screen, sizeof(screen), out);
}

int ir_imon_clock(enum ir_imon_display d, uint16_t product, const struct tm *tm,
		  struct ir_imon_packets *out)
{
	uint8_t *a, *b;

	if (d == IR_IMON_DISPLAY_NONE)
		return -ENODEV;
	a = next_packet(out);
	b = next_packet(out);
	if (d == IR_IMON_DISPLAY_VFD) {
		const uint8_t set[] = { (uint8_t)(tm->tm_year % 100), (uint8_t)tm->tm_mon,
					(uint8_t)tm->tm_mday, (uint8_t)tm->tm_wday,
					(uint8_t)tm->tm_hour, (uint8_t)tm->tm_min,
					(uint8_t)tm->tm_sec, VFD_CLOCK_TAG };

		memcpy(a, set, sizeof(set));
		b[2] = 1;
		b[7] = VFD_CLOCK_SHOW;
		return 0;
	}
	a[0] = LCD_CLOCK_TAG;
	a[1] = (uint8_t)(tm->tm_year % 100);
	a[2] = (uint8_t)tm->tm_mon; /* tm_mon is already month - 1 */
	a[3] = (uint8_t)tm->tm_mday;
	a[4] = (uint8_t)tm->tm_hour;
	a[5] = (uint8_t)tm->tm_min;
	a[6] = (uint8_t)tm->tm_sec;
	a[7] = lcd_display_cmd(product);
	b[0] = LCD_CLOCK_TAG;
	b[7] = lcd_alarm_cmd(product);
	return 0;
}

void ir_imon_lcd_init(uint16_t product, unsigned contrast, struct ir_imon_packets *out)
{
	uint8_t *pkt;

	pkt = next_packet(out); /* display on */
	pkt[0] = LCD_DISPLAY_ON;
	pkt[7] = lcd_display_cmd(product);
	next_packet(out)[7] = lcd_alarm_cmd(product); /* alarm cleared */
	/* contrast: lcdproc's "low contrast" base 00 0A 58 00 FF FF FF 03
	 * with the level in the first byte */
	pkt = next_packet(out);
	memcpy(pkt, (const uint8_t[]){ 0, 0x0a, 0x58, 0, 0xff, 0xff, 0xff, LCD_CMD_CONTRAST }, 8);
	pkt[0] = (uint8_t)(contrast > IMON_LCD_CONTRAST_MAX ? IMON_LCD_CONTRAST_MAX : contrast);
	next_packet(out)[7] = LCD_CMD_INIT;
	next_packet(out)[7] = LCD_CMD_ICONS;
	for (uint8_t i = 0; i < 3; i++)
		next_packet(out)[7] = (uint8_t)(LCD_CMD_BARS + i);
}

/* A 5x7 font of printable ASCII, drawn for irjack: seven rows per glyph,
 * top first, bit 4 the leftmost pixel. */
static const uint8_t font5x7[95][7] = {
	{ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00 }, /* space */
	{ 0x04, 0x04, 0x04, 0x04, 0x04, 0x00, 0x04 }, /* ! */
	{ 0x0a, 0x0a, 0x00, 0x00, 0x00, 0x00, 0x00 }, /* " */
	{ 0x0a, 0x0a, 0x1f, 0x0a, 0x1f, 0x0a, 0x0a }, /* # */
	{ 0x04, 0x0f, 0x14, 0x0e, 0x05, 0x1e, 0x04 }, /* $ */
	{ 0x18, 0x19, 0x02, 0x04, 0x08, 0x13, 0x03 }, /* % */
	{ 0x0c, 0x12, 0x14, 0x08, 0x15, 0x12, 0x0d }, /* & */
	{ 0x04, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00 }, /* ' */
	{ 0x02, 0x04, 0x08, 0x08, 0x08, 0x04, 0x02 }, /* ( */
	{ 0x08, 0x04, 0x02, 0x02, 0x02, 0x04, 0x08 }, /* ) */
	{ 0x00, 0x04, 0x15, 0x0e, 0x15, 0x04, 0x00 }, /* * */
	{ 0x00, 0x04, 0x04, 0x1f, 0x04, 0x04, 0x00 }, /* + */
	{ 0x00, 0x00, 0x00, 0x00, 0x0c, 0x04, 0x08 }, /* , */
	{ 0x00, 0x00, 0x00, 0x1f, 0x00, 0x00, 0x00 }, /* - */
	{ 0x00, 0x00, 0x00, 0x00, 0x00, 0x0c, 0x0c }, /* . */
	{ 0x00, 0x01, 0x02, 0x04, 0x08, 0x10, 0x00 }, /* / */
	{ 0x0e, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0e }, /* 0 */
	{ 0x04, 0x0c, 0x04, 0x04, 0x04, 0x04, 0x0e }, /* 1 */
	{ 0x0e, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1f }, /* 2 */
	{ 0x1f, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0e }, /* 3 */
	{ 0x02, 0x06, 0x0a, 0x12, 0x1f, 0x02, 0x02 }, /* 4 */
	{ 0x1f, 0x10, 0x1e, 0x01, 0x01, 0x11, 0x0e }, /* 5 */
	{ 0x06, 0x08, 0x10, 0x1e, 0x11, 0x11, 0x0e }, /* 6 */
	{ 0x1f, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08 }, /* 7 */
	{ 0x0e, 0x11, 0x11, 0x0e, 0x11, 0x11, 0x0e }, /* 8 */
	{ 0x0e, 0x11, 0x11, 0x0f, 0x01, 0x02, 0x0c }, /* 9 */
	{ 0x00, 0x0c, 0x0c, 0x00, 0x0c, 0x0c, 0x00 }, /* : */
	{ 0x00, 0x0c, 0x0c, 0x00, 0x0c, 0x04, 0x08 }, /* ; */
	{ 0x02, 0x04, 0x08, 0x10, 0x08, 0x04, 0x02 }, /* < */
	{ 0x00, 0x00, 0x1f, 0x00, 0x1f, 0x00, 0x00 }, /* = */
	{ 0x08, 0x04, 0x02, 0x01, 0x02, 0x04, 0x08 }, /* > */
	{ 0x0e, 0x11, 0x01, 0x02, 0x04, 0x00, 0x04 }, /* ? */
	{ 0x0e, 0x11, 0x01, 0x0d, 0x15, 0x15, 0x0e }, /* @ */
	{ 0x0e, 0x11, 0x11, 0x11, 0x1f, 0x11, 0x11 }, /* A */
	{ 0x1e, 0x11, 0x11, 0x1e, 0x11, 0x11, 0x1e }, /* B */
	{ 0x0e, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0e }, /* C */
	{ 0x1c, 0x12, 0x11, 0x11, 0x11, 0x12, 0x1c }, /* D */
	{ 0x1f, 0x10, 0x10, 0x1e, 0x10, 0x10, 0x1f }, /* E */
	{ 0x1f, 0x10, 0x10, 0x1e, 0x10, 0x10, 0x10 }, /* F */
	{ 0x0e, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0f }, /* G */
	{ 0x11, 0x11, 0x11, 0x1f, 0x11, 0x11, 0x11 }, /* H */
	{ 0x0e, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0e }, /* I */
	{ 0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0c }, /* J */
	{ 0x11, 0x12, 0x14, 0x18, 0x14, 0x12, 0x11 }, /* K */
	{ 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1f }, /* L */
	{ 0x11, 0x1b, 0x15, 0x15, 0x11, 0x11, 0x11 }, /* M */
	{ 0x11, 0x11, 0x19, 0x15, 0x13, 0x11, 0x11 }, /* N */
	{ 0x0e, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0e }, /* O */
	{ 0x1e, 0x11, 0x11, 0x1e, 0x10, 0x10, 0x10 }, /* P */
	{ 0x0e, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0d }, /* Q */
	{ 0x1e, 0x11, 0x11, 0x1e, 0x14, 0x12, 0x11 }, /* R */
	{ 0x0f, 0x10, 0x10, 0x0e, 0x01, 0x01, 0x1e }, /* S */
	{ 0x1f, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04 }, /* T */
	{ 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0e }, /* U */
	{ 0x11, 0x11, 0x11, 0x11, 0x11, 0x0a, 0x04 }, /* V */
	{ 0x11, 0x11, 0x11, 0x15, 0x15, 0x15, 0x0a }, /* W */
	{ 0x11, 0x11, 0x0a, 0x04, 0x0a, 0x11, 0x11 }, /* X */
	{ 0x11, 0x11, 0x11, 0x0a, 0x04, 0x04, 0x04 }, /* Y */
	{ 0x1f, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1f }, /* Z */
	{ 0x0e, 0x08, 0x08, 0x08, 0x08, 0x08, 0x0e }, /* [ */
	{ 0x00, 0x10, 0x08, 0x04, 0x02, 0x01, 0x00 }, /* backslash */
	{ 0x0e, 0x02, 0x02, 0x02, 0x02, 0x02, 0x0e }, /* ] */
	{ 0x04, 0x0a, 0x11, 0x00, 0x00, 0x00, 0x00 }, /* ^ */
	{ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x1f }, /* _ */
	{ 0x08, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00 }, /* ` */
	{ 0x00, 0x00, 0x0e, 0x01, 0x0f, 0x11, 0x0f }, /* a */
	{ 0x10, 0x10, 0x16, 0x19, 0x11, 0x11, 0x1e }, /* b */
	{ 0x00, 0x00, 0x0e, 0x10, 0x10, 0x11, 0x0e }, /* c */
	{ 0x01, 0x01, 0x0d, 0x13, 0x11, 0x11, 0x0f }, /* d */
	{ 0x00, 0x00, 0x0e, 0x11, 0x1f, 0x10, 0x0e }, /* e */
	{ 0x06, 0x09, 0x08, 0x1c, 0x08, 0x08, 0x08 }, /* f */
	{ 0x00, 0x0f, 0x11, 0x11, 0x0f, 0x01, 0x0e }, /* g */
	{ 0x10, 0x10, 0x16, 0x19, 0x11, 0x11, 0x11 }, /* h */
	{ 0x04, 0x00, 0x0c, 0x04, 0x04, 0x04, 0x0e }, /* i */
	{ 0x02, 0x00, 0x06, 0x02, 0x02, 0x12, 0x0c }, /* j */
	{ 0x10, 0x10, 0x12, 0x14, 0x18, 0x14, 0x12 }, /* k */
	{ 0x0c, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0e }, /* l */
	{ 0x00, 0x00, 0x1a, 0x15, 0x15, 0x11, 0x11 }, /* m */
	{ 0x00, 0x00, 0x16, 0x19, 0x11, 0x11, 0x11 }, /* n */
	{ 0x00, 0x00, 0x0e, 0x11, 0x11, 0x11, 0x0e }, /* o */
	{ 0x00, 0x00, 0x1e, 0x11, 0x1e, 0x10, 0x10 }, /* p */
	{ 0x00, 0x00, 0x0d, 0x13, 0x0f, 0x01, 0x01 }, /* q */
	{ 0x00, 0x00, 0x16, 0x19, 0x10, 0x10, 0x10 }, /* r */
	{ 0x00, 0x00, 0x0e, 0x10, 0x0e, 0x01, 0x1e }, /* s */
	{ 0x08, 0x08, 0x1c, 0x08, 0x08, 0x09, 0x06 }, /* t */
	{ 0x00, 0x00, 0x11, 0x11, 0x11, 0x13, 0x0d }, /* u */
	{ 0x00, 0x00, 0x11, 0x11, 0x11, 0x0a, 0x04 }, /* v */
	{ 0x00, 0x00, 0x11, 0x11, 0x15, 0x15, 0x0a }, /* w */
	{ 0x00, 0x00, 0x11, 0x0a, 0x04, 0x0a, 0x11 }, /* x */
	{ 0x00, 0x00, 0x11, 0x11, 0x0f, 0x01, 0x0e }, /* y */
	{ 0x00, 0x00, 0x1f, 0x02, 0x04, 0x08, 0x1f }, /* z */
	{ 0x02, 0x04, 0x04, 0x08, 0x04, 0x04, 0x02 }, /* { */
	{ 0x04, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04 }, /* | */
	{ 0x08, 0x04, 0x04, 0x02, 0x04, 0x04, 0x08 }, /* } */
	{ 0x00, 0x00, 0x08, 0x15, 0x02, 0x00, 0x00 }, /* ~ */
};

/* Column `col` (0..4) of `ch` as the LCD stores it: bit 7 the top pixel. */
static uint8_t glyph_column(char ch, unsigned col)
{
	const uint8_t *g = font5x7[(unsigned char)ch >= 0x20 && (unsigned char)ch < 0x7f
					   ? (unsigned char)ch - 0x20 : '?' - 0x20];
	uint8_t out = 0;

	for (unsigned row = 0; row < 7; row++)
		if (g[row] & (0x10 >> col))
			out |= (uint8_t)(0x80 >> row);
	return out;
}

void ir_imon_lcd_text(const char line[IMON_DISPLAY_ROWS][IMON_DISPLAY_COLS + 1],
		      struct ir_imon_packets *out)
{
	uint8_t fb[LCD_FB_BYTES];

	memset(fb, 0, IMON_DISPLAY_ROWS * LCD_ROW_BYTES);
	memset(fb + IMON_DISPLAY_ROWS * LCD_ROW_BYTES, 0xff,
	       LCD_FB_BYTES - IMON_DISPLAY_ROWS * LCD_ROW_BYTES);
	for (unsigned r = 0; r < IMON_DISPLAY_ROWS; r++) {
		size_t len = strnlen(line[r], IMON_DISPLAY_COLS);

		for (size_t c = 0; c < len; c++)
			for (unsigned x = 0; x < 5; x++)
				fb[r * LCD_ROW_BYTES + c * LCD_CELL_WIDTH + x] =
					glyph_column(line[r][c], x);
	}
	for (unsigned i = 0; i < IMON_LCD_TEXT_PACKETS; i++) {
		uint8_t *pkt = next_packet(out);

		memcpy(pkt, fb + i * 7, 7);
		pkt[7] = (uint8_t)(LCD_CMD_BITMAP + i);
	}
}

void ir_imon_lcd_icons(uint64_t icons, struct ir_imon_packets *out)
{
	uint8_t *pkt = next_packet(out);

	for (unsigned i = 0; i < 7; i++)
		pkt[i] = (uint8_t)(icons >> (8 * i));
	pkt[7] = LCD_CMD_ICONS;
}

void ir_imon_lcd_off(uint16_t product, struct ir_imon_packets *out)
{
	uint8_t *pkt = next_packet(out);

	pkt[0] = LCD_DISPLAY_OFF;
	pkt[7] = lcd_display_cmd(product);
	next_packet(out)[7] = lcd_alarm_cmd(product);
}

int ir_imon_screen_packets(enum ir_imon_display d, uint16_t product,
			   const struct ir_imon_screen *s, bool init, const struct tm *now,
			   struct ir_imon_packets *out)
{
	static const char blank[IMON_DISPLAY_ROWS][IMON_DISPLAY_COLS + 1];

	out->n = 0;
	if (d == IR_IMON_DISPLAY_NONE)
		return -ENODEV;
	if (s->kind == IR_IMON_SCREEN_CLOCK)
		return ir_imon_clock(d, product, now, out);
	if (s->kind == IR_IMON_SCREEN_WRITE) {
		if (d == IR_IMON_DISPLAY_VFD)
			return ir_imon_vfd_bytes(s->raw, s->raw_len, out);
		if (s->raw_len != IMON_PACKET_LEN)
			return -EINVAL; /* lirc_imon's LCD takes one whole packet per write */
		memcpy(next_packet(out), s->raw, IMON_PACKET_LEN);
		return 0;
	}
	if (d == IR_IMON_DISPLAY_VFD) {
		/* the VFD has no icons and no off command: OFF is a blank screen */
		if (s->kind == IR_IMON_SCREEN_OFF || s->text_set)
			ir_imon_vfd_text(s->kind == IR_IMON_SCREEN_OFF ? blank : s->line, out);
		return 0;
	}
	if (s->kind == IR_IMON_SCREEN_OFF) {
		ir_imon_lcd_off(product, out);
		return 0;
	}
	if (init)
		ir_imon_lcd_init(product, IMON_LCD_CONTRAST_DEFAULT, out);
	if (s->text_set)
		ir_imon_lcd_text(s->line, out);
	if (s->icons_set)
		ir_imon_lcd_icons(s->icons, out);
	return 0;
}
