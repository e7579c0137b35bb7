/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_imon_display.h - the front-panel displays of SoundGraph iMON
 * receivers: which product has which display, and the 8-byte OUT packets
 * that put text, icons or the clock on them.  Pure code, no I/O: the USB
 * side is ir_imon_panel.h (a device of its own) and the usb source
 * (ir_source_display(), the receiver irjackd already holds).
 *
 * Two displays, two protocols (facts from the kernel's
 * drivers/media/rc/imon.c and lcdproc's imon/imonlcd drivers):
 *
 * VFD (15c2:0036, 0044, and the 0xffdc default): 16x2 characters.  A
 * screen is 32 characters, padded with spaces, then three 0xFF bytes:
 * 35 bytes in five packets of 7 bytes each followed by a sequence byte
 * 0x00, 0x02, 0x04, 0x06, 0x08, then a sixth packet
 * 01 00 00 00 00 FF FF 0A.  The clock: YY MM-1 DD DOW hh mm ss 40, then
 * 00 00 01 00 00 00 00 42.
 *
 * LCD (15c2:0038, 0039, 0045): a 96x16 pixel bitmap plus icons around it.
 * Each packet is 7 data bytes and a command byte last: 0x20..0x3B write
 * 7 bytes each of the 196-byte frame buffer (two 96-byte rows of 8-pixel
 * columns, bit 7 the top pixel, then four 0xFF pad bytes); 0x01 sets the
 * icons (56 bits, least significant byte first), 0x02 is a required
 * init, 0x03 the contrast, 0x10..0x12 the built-in bars; the display
 * on/off and clock command byte is 0x50 on 0xffdc receivers and 0x88 on
 * the others (their alarm byte 0x51 / 0x8A).
 */
#ifndef IRJACK_IR_IMON_DISPLAY_H
#define IRJACK_IR_IMON_DISPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define IMON_PACKET_LEN 8
#define IMON_DISPLAY_COLS 16
#define IMON_DISPLAY_ROWS 2
#define IMON_VFD_TEXT_PACKETS 6
#define IMON_LCD_TEXT_PACKETS 28  /* command bytes 0x20..0x3B */
#define IMON_LCD_INIT_PACKETS 8
/* The most packets one screen takes: LCD init, bitmap and icons. */
#define IMON_DISPLAY_MAX_PACKETS (IMON_LCD_INIT_PACKETS + IMON_LCD_TEXT_PACKETS + 1)
/* The LCD's contrast steps (lcdproc maps its 0..1000 onto 0..40). */
#define IMON_LCD_CONTRAST_MAX 40
#define IMON_LCD_CONTRAST_DEFAULT 8 /* lcdproc's default 200 of 1000 */

enum ir_imon_display {
	IR_IMON_DISPLAY_NONE,
	IR_IMON_DISPLAY_VFD,
	IR_IMON_DISPLAY_LCD,
};

/* The display a 15c2:`product` receiver has, as the kernel's driver
 * decides it from the id: 0038/0039/0045 LCD; 003c/0041..0043 none;
 * 0034/0035 a VGA touch screen (none here); 0xffdc and the rest VFD (an
 * 0xffdc's true kind is in its config byte, which the caller may know
 * better: the display can be named by hand). */
enum ir_imon_display ir_imon_display_for(uint16_t product);

/*
 * The display of a 15c2:ffdc receiver from its configuration byte: byte 6
 * of the 8-byte reports it sends on its IN endpoint (these receivers send
 * reports all the time, keys or not; the kernel's imon driver reads the
 * byte from the report that came in while it set the receiver up).  The
 * kernel's table: 0x24, 0x30, 0x35, 0x46, 0x7e, 0x85, 0x9e VFD; 0x98
 * (UltraBay) and 0x9f LCD; 0x21 (Knob), 0x26 (Inside), 0x4e (2.4G RF
 * stick) none; any other byte: VFD, the kernel's default.
 */
enum ir_imon_display ir_imon_ffdc_display(uint8_t config_byte);

/* The 0xffdc configuration byte's place in an IN report. */
#define IMON_FFDC_CONFIG_BYTE 6

/* "vfd", "lcd", "none". */
const char *ir_imon_display_name(enum ir_imon_display d);

/* Parses "vfd", "lcd" or "auto" (-> IR_IMON_DISPLAY_NONE, meaning "from
 * the product id"); -EINVAL otherwise. */
int ir_imon_display_parse(const char *name, enum ir_imon_display *d);

/* Milliseconds to wait after each packet: the kernel driver waits 5 ms,
 * 20 ms for 15c2:0036, whose VFD loses packets sent faster. */
unsigned ir_imon_display_delay_ms(uint16_t product);

/* What one request puts on the display. */
enum ir_imon_screen_kind {
	IR_IMON_SCREEN_TEXT,  /* lines (and icons, LCD) */
	IR_IMON_SCREEN_CLOCK, /* the display's own clock, set to `now` */
	IR_IMON_SCREEN_OFF,   /* LCD: backlight off; VFD: a blank screen */
	/* What a write() to lirc_imon's /dev/lcd0 sends (`raw`): VFD, 1..32
	 * character bytes, padded with spaces to a 32-byte screen, sent as
	 * is (no '?' for bytes outside ASCII: the VFD's own character ROM
	 * draws them); LCD, exactly one 8-byte packet, sent as is. */
	IR_IMON_SCREEN_WRITE,
};

/* The largest WRITE: a whole VFD screen (an LCD write is one packet). */
#define IMON_WRITE_MAX (IMON_DISPLAY_ROWS * IMON_DISPLAY_COLS)

struct ir_imon_screen {
	enum ir_imon_screen_kind kind;
	bool text_set;        /* send `line` (else leave the text: icons alone) */
	char line[IMON_DISPLAY_ROWS][IMON_DISPLAY_COLS + 1]; /* ASCII, NUL-terminated */
	bool icons_set;       /* LCD: send `icons` (else leave them) */
	uint64_t icons;       /* LCD icon bits (IMON_ICON_*), 56 used */
	uint8_t raw[IMON_WRITE_MAX]; /* IR_IMON_SCREEN_WRITE's bytes */
	size_t raw_len;
};

/*
 * Sets s->line[] (and text_set) from `text`: "|" or a newline separates the two lines,
 * each cut to 16 characters; bytes outside printable ASCII (UTF-8 too)
 * become '?': the VFD's character ROM and the LCD font here agree on
 * ASCII only.  Other fields are left as they are.
 */
void ir_imon_screen_set_text(struct ir_imon_screen *s, const char *text);

/*
 * Parses a comma-separated list of icon names ("music,vol,disc"; "none"
 * for no icon; "all" for every one) into LCD icon bits.  Returns 0, or
 * -EINVAL with the unknown name in `err`.
 */
int ir_imon_icons_parse(const char *list, uint64_t *icons, char *err, size_t err_size);

/* The icon names, space-separated, for --help. */
const char *ir_imon_icon_names(void);

/*
 * Parses a display request as the lircd socket's DISPLAY command and the
 * MQTT display topic carry it: "TEXT line1|line2", "ICONS list", "ICONS
 * list TEXT line1|line2" (the text last: it may hold spaces), "CLOCK",
 * "OFF" or "WRITE HEX" (1..32 bytes in hex digits: a /dev/lcd0 write,
 * what [output lcddev] passes on); keywords in any case.  Fills `s` (reset first).  Returns 0 or
 * -EINVAL with a message.
 */
int ir_imon_screen_parse(const char *request, struct ir_imon_screen *s, char *err,
			 size_t err_size);

/* Packets of one screen, in the order they go out. */
struct ir_imon_packets {
	uint8_t pkt[IMON_DISPLAY_MAX_PACKETS][IMON_PACKET_LEN];
	size_t n;
};

/* VFD: the six packets of a screen of `n` (1..32) character bytes, padded
 * with spaces to 32, as lirc_imon's write() sends them.  Returns 0, or
 * -EINVAL for another size (lirc_imon's answer), `out` then empty. */
int ir_imon_vfd_bytes(const uint8_t *bytes, size_t n, struct ir_imon_packets *out);

/* VFD: the six packets of a 32-character screen (the two lines padded). */
void ir_imon_vfd_text(const char line[IMON_DISPLAY_ROWS][IMON_DISPLAY_COLS + 1],
		      struct ir_imon_packets *out);

/* The two packets that set and show the display's clock (VFD or LCD,
 * `product` picks the LCD's command byte), from local time `tm`. */
int ir_imon_clock(enum ir_imon_display d, uint16_t product, const struct tm *tm,
		  struct ir_imon_packets *out);

/* LCD: the start-up sequence lcdproc's imonlcd sends (display on, alarm
 * cleared, `contrast` 0..40, init, icons off, the three bar packets
 * cleared): IMON_LCD_INIT_PACKETS packets appended to `out`. */
void ir_imon_lcd_init(uint16_t product, unsigned contrast, struct ir_imon_packets *out);

/* LCD: the 28 bitmap packets of two text lines in a 6x8 cell font (16
 * cells of 6 columns: 96 pixels), appended to `out`. */
void ir_imon_lcd_text(const char line[IMON_DISPLAY_ROWS][IMON_DISPLAY_COLS + 1],
		      struct ir_imon_packets *out);

/* LCD: the icon packet, appended to `out`. */
void ir_imon_lcd_icons(uint64_t icons, struct ir_imon_packets *out);

/* LCD: backlight off and alarm cleared (lcdproc's "blank" exit), appended. */
void ir_imon_lcd_off(uint16_t product, struct ir_imon_packets *out);

/*
 * All the packets of `s` for display `d` of receiver `product`, into
 * `out` (reset first).  `init`: the LCD start-up sequence goes first (the
 * first screen after opening, or after a CLOCK or OFF screen: the caller
 * keeps track; a WRITE never gets it: its writer drives the LCD).  `now`:
 * the time for a CLOCK screen.  Returns 0, -ENODEV for
 * IR_IMON_DISPLAY_NONE, or -EINVAL for a WRITE of a size the display
 * does not take (VFD 1..32 bytes, LCD 8), as lirc_imon's write().
 */
int ir_imon_screen_packets(enum ir_imon_display d, uint16_t product,
			   const struct ir_imon_screen *s, bool init, const struct tm *now,
			   struct ir_imon_packets *out);

/* LCD icon bits (the icon packet's 56 bits), as lcdproc's imonlcd names
 * them: top row categories, speakers, codec and format marks, the disc's
 * eight segments and the disc-in arc. */
#define IMON_ICON_SPKR_FL (1ull << 0)
#define IMON_ICON_NEWS (1ull << 1)
#define IMON_ICON_WEBCAST (1ull << 2)
#define IMON_ICON_TV (1ull << 3)
#define IMON_ICON_CD_DVD (1ull << 4)
#define IMON_ICON_PHOTO (1ull << 5)
#define IMON_ICON_MOVIE (1ull << 6)
#define IMON_ICON_MUSIC (1ull << 7)
#define IMON_ICON_VOL (1ull << 33)
#define IMON_ICON_TIME (1ull << 32)
#define IMON_ICON_DISC (0xffull << 40)
#define IMON_ICON_DISC_IN (1ull << 55)
#define IMON_ICON_ALL 0x00ffffffffffffffull

#endif
