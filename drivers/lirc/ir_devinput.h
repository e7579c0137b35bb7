/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_devinput.h - what the kernel's rc-core input devices say, as frames:
 * EV_MSC/MSC_SCAN with the protocol selected in sysfs, and keys as lircd's
 * devinput driver codes them (so Debian's devinput.lircd.conf names them).
 *
 * Pure apart from the sysfs reads (every one under a root the caller
 * gives: "/sys" normally, a fake tree in tests).  The source that reads
 * the devices is ir_source_devinput.c (backend "devinput" of ir_source.h).
 */
#ifndef IRJACK_IR_DEVINPUT_H
#define IRJACK_IR_DEVINPUT_H

#include <stddef.h>
#include <stdint.h>

#include <stdbool.h>

#include "ir_decoder.h"
#include "ir_protocol.h"

struct ir_keymap;

/* The protocol groups /sys/class/rc/rcN/protocols names (rc-core's
 * proto_names: "nec" stands for nec, necx and nec32 ...), as bits. */
enum ir_devinput_group {
	IR_DEVINPUT_UNKNOWN = 1u << 0,
	IR_DEVINPUT_OTHER = 1u << 1,
	IR_DEVINPUT_RC5 = 1u << 2,     /* "rc-5": rc5, rc5x_20 */
	IR_DEVINPUT_NEC = 1u << 3,     /* "nec": nec, necx, nec32 */
	IR_DEVINPUT_RC6 = 1u << 4,     /* "rc-6": rc6_0, rc6_6a_20/24/32, rc6_mce */
	IR_DEVINPUT_JVC = 1u << 5,
	IR_DEVINPUT_SONY = 1u << 6,    /* "sony": sony12, sony15, sony20 */
	IR_DEVINPUT_RC5_SZ = 1u << 7,
	IR_DEVINPUT_SANYO = 1u << 8,
	IR_DEVINPUT_SHARP = 1u << 9,
	IR_DEVINPUT_MCE_KBD = 1u << 10,
	IR_DEVINPUT_XMP = 1u << 11,
	IR_DEVINPUT_CEC = 1u << 12,
	IR_DEVINPUT_IMON = 1u << 13,
	IR_DEVINPUT_RCMM = 1u << 14,   /* "rc-mm": rcmm12, rcmm24, rcmm32 */
	IR_DEVINPUT_XBOX_DVD = 1u << 15,
};

/*
 * The groups selected in the text of a protocols file: the names in
 * brackets ("lirc [nec] rc-5" -> IR_DEVINPUT_NEC).  A scancode-only
 * receiver lists only what it decodes, all selected.  "lirc" (raw timings
 * to /dev/lircN) and names this table does not know are skipped.
 */
unsigned ir_devinput_parse_protocols(const char *text);

/* Reads `sysfs_root`/class/rc/`rc_name`/protocols.  Returns the groups
 * selected (maybe 0), or a negative errno (-ENOENT: no such device). */
int ir_devinput_read_protocols(const char *sysfs_root, const char *rc_name);

/*
 * The protocol of a scancode rc-core reported (MSC_SCAN) with `groups`
 * selected: the one group's variant, told apart by the scancode's layout
 * as rc-core's decoders build it (nec: 16 bits, necx 24, nec32 32;
 * rc6_mce: 0x800fxxxx; sony20: a byte at bits 8-15 ...).  With several
 * groups selected the first in the order above; IR_PROTO_UNKNOWN for none.
 */
enum ir_protocol ir_devinput_protocol(unsigned groups, uint32_t scancode);

/* Each group's protocol for `scancode`, in the order of the bits; returns
 * how many were written to `out` (at most `cap`). */
size_t ir_devinput_protocols(unsigned groups, uint32_t scancode, enum ir_protocol *out, size_t cap);

/*
 * lircd's devinput codes for an input event (type, code, value): the
 * 64-bit code its devinput-64 remote holds (type << 48 | code << 32 |
 * value, an auto-repeat's value 2 counted as 1) and the 32-bit one of the
 * older devinput-32 remote (0x80000000 for a key down, | type << 16 |
 * code).
 */
uint64_t ir_devinput_lircd_code(unsigned type, unsigned code, int value);
uint32_t ir_devinput_lircd_code32(unsigned type, unsigned code, int value);

/*
 * One input device's events to frames (what ir_source_devinput.c feeds
 * with what libevdev reads).  One frame per input report (SYN_REPORT):
 * - EV_MSC/MSC_SCAN: the scancode with the protocol of `groups`
 *   (ir_devinput_protocols(); with several, the first the keymap names);
 * - a key press (EV_KEY 1) whose lircd devinput code the keymap holds
 *   (Debian's devinput.lircd.conf; devinput-64 first, then devinput-32,
 *   as lircd's devinput_decode tries them): that remote's frame, then one
 *   repeat frame per MSC_SCAN while the kernel holds the key (rc-core
 *   reports one for every frame or repeat code it receives; the input
 *   layer's auto-repeat, EV_KEY 2 after 500 ms, comes too late for the
 *   key-up timeout, and is used only by a device without MSC_SCAN);
 * - the report's frame is the scancode's when the keymap names it, else
 *   the lircd key's, else the (unnamed) scancode's: a held button never
 *   alternates between two keys.
 */
struct ir_devinput_reader {
	unsigned groups;               /* IR_DEVINPUT_* selected in sysfs */
	bool has_scan;                 /* the device reports MSC_SCAN */
	const struct ir_keymap *keymap; /* may be NULL; must outlive the reader */
	/* the report being collected */
	bool scan_seen;
	uint32_t scan;
	int key_code, key_value;       /* the report's last EV_KEY; value -1: none */
	uint64_t time_us;
	/* the lircd devinput button the kernel holds down */
	bool held;
	int held_key;
	uint16_t held_decoder;
	uint64_t held_code;
};

void ir_devinput_reader_init(struct ir_devinput_reader *r, unsigned groups, bool has_scan,
			     const struct ir_keymap *keymap);

/* Takes one input event (time in the source's µs).  Returns true with
 * *out filled when the event ends a report that makes a frame. */
bool ir_devinput_reader_event(struct ir_devinput_reader *r, unsigned type, unsigned code,
			      int value, uint64_t time_us, struct ir_frame *out);

/* The kernel dropped events (SYN_DROPPED): the report being collected is
 * forgotten. */
void ir_devinput_reader_drop(struct ir_devinput_reader *r);

/* One input device of an rc-core receiver (/sys/class/rc/rcN/inputM/eventK). */
struct ir_devinput_dev {
	char rc_name[32];  /* "rc0" */
	char event[32];    /* "event5": /dev/input/event5 */
};

/* Lists the event devices of every rc-core receiver under `sysfs_root`,
 * sorted by rc name (rc2 before rc10).  Fills at most `cap`; returns how
 * many were found, or a negative errno (-ENOENT: no rc class at all). */
int ir_devinput_discover(const char *sysfs_root, struct ir_devinput_dev *out, size_t cap);

struct ir_lirc_dev_info;
/*
 * The rc-core receivers a "lirc" or "devinput" source with `device` (as its
 * spec gives it) reads, found under `sysfs_root`: for rc_maps.cfg's driver
 * and table.  lirc: "/dev/lircN" or "lircN", "rcN", a driver name, ""
 * (the first with a LIRC node); devinput: "" or "auto" (all), "rcN", a
 * /dev/input path, "name=GLOB" (the device's name).  Options after '?' are
 * ignored.  Fills at most `cap`; returns how many (0: none present now), or
 * -EINVAL for another backend.
 */
int ir_rc_devices_of_source(const char *sysfs_root, const char *backend, const char *device,
			    struct ir_lirc_dev_info *out, size_t cap);

#endif
