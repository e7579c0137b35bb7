/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "ir_devinput.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/input-event-codes.h>

#include "ir_keymap.h"
#include "ir_lirc_dev.h"

#define MAX_RC_DEVICES 32

/* rc-core's names in /sys/class/rc/rcN/protocols, group by group */
static const struct {
	const char *name;
	unsigned group;
} group_names[] = {
	{ "unknown", IR_DEVINPUT_UNKNOWN }, { "other", IR_DEVINPUT_OTHER },
	{ "rc-5", IR_DEVINPUT_RC5 },	    { "nec", IR_DEVINPUT_NEC },
	{ "rc-6", IR_DEVINPUT_RC6 },	    { "jvc", IR_DEVINPUT_JVC },
	{ "sony", IR_DEVINPUT_SONY },	    { "rc-5-sz", IR_DEVINPUT_RC5_SZ },
	{ "sanyo", IR_DEVINPUT_SANYO },	    { "sharp", IR_DEVINPUT_SHARP },
	{ "mce_kbd", IR_DEVINPUT_MCE_KBD }, { "xmp", IR_DEVINPUT_XMP },
	{ "cec", IR_DEVINPUT_CEC },	    { "imon", IR_DEVINPUT_IMON },
	{ "rc-mm", IR_DEVINPUT_RCMM },	    { "xbox-dvd", IR_DEVINPUT_XBOX_DVD },
};

unsigned ir_devinput_parse_protocols(const char *text)
{
	unsigned groups = 0;

	while (*text) {
		size_t len;

		text += strspn(text, " \t\n");
		len = strcspn(text, " \t\n");
		/* only the bracketed names are enabled ("[nec]") */
		if (len > 2 && text[0] == '[' && text[len - 1] == ']') {
			for (size_t i = 0; i < sizeof(group_names) / sizeof(group_names[0]); i++)
				if (strlen(group_names[i].name) == len - 2 &&
				    !strncmp(group_names[i].name, text + 1, len - 2))
					groups |= group_names[i].group;
		}
		text += len;
	}
	return groups;
}

int ir_devinput_read_protocols(const char *sysfs_root, const char *rc_name)
{
	char path[PATH_MAX], text[512];
	size_t got;
	FILE *f;

	snprintf(path, sizeof(path), "%s/class/rc/%s/protocols", sysfs_root, rc_name);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	got = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[got] = '\0';
	return (int)ir_devinput_parse_protocols(text);
}

/* One group's variant: the layouts rc-core's decoders give their scancodes. */
static enum ir_protocol group_protocol(unsigned group, uint32_t sc)
{
	switch (group) {
	case IR_DEVINPUT_OTHER:
		return IR_PROTO_OTHER;
	case IR_DEVINPUT_RC5: /* rc5x_20: system << 16 | extension << 8 | command */
		return sc > 0xffff ? IR_PROTO_RC5X_20 : IR_PROTO_RC5;
	case IR_DEVINPUT_NEC: /* address and command checked: 16 bits; address not: 24 */
		return sc > 0xffffff ? IR_PROTO_NEC32 : sc > 0xffff ? IR_PROTO_NECX : IR_PROTO_NEC;
	case IR_DEVINPUT_RC6:
		if ((sc & 0xffff0000u) == 0x800f0000u)
			return IR_PROTO_RC6_MCE;
		return sc <= 0xffff     ? IR_PROTO_RC6_0
		       : sc <= 0xfffff  ? IR_PROTO_RC6_6A_20
		       : sc <= 0xffffff ? IR_PROTO_RC6_6A_24
					: IR_PROTO_RC6_6A_32;
	case IR_DEVINPUT_JVC:
		return IR_PROTO_JVC;
	case IR_DEVINPUT_SONY: /* device << 16 | [extension << 8] | function */
		if (sc & 0xff00)
			return IR_PROTO_SONY20;
		return (sc >> 16) > 0x1f ? IR_PROTO_SONY15 : IR_PROTO_SONY12;
	case IR_DEVINPUT_RC5_SZ:
		return IR_PROTO_RC5_SZ;
	case IR_DEVINPUT_SANYO:
		return IR_PROTO_SANYO;
	case IR_DEVINPUT_SHARP:
		return IR_PROTO_SHARP;
	case IR_DEVINPUT_MCE_KBD:
		return IR_PROTO_MCIR2_KBD;
	case IR_DEVINPUT_XMP:
		return IR_PROTO_XMP;
	case IR_DEVINPUT_CEC:
		return IR_PROTO_CEC;
	case IR_DEVINPUT_IMON:
		return IR_PROTO_IMON;
	case IR_DEVINPUT_RCMM:
		return sc <= 0xfff ? IR_PROTO_RCMM12 : sc <= 0xffffff ? IR_PROTO_RCMM24 : IR_PROTO_RCMM32;
	case IR_DEVINPUT_XBOX_DVD:
		return IR_PROTO_XBOX_DVD;
	default:
		return IR_PROTO_UNKNOWN;
	}
}

size_t ir_devinput_protocols(unsigned groups, uint32_t scancode, enum ir_protocol *out, size_t cap)
{
	size_t n = 0;

	for (unsigned bit = 1; bit <= IR_DEVINPUT_XBOX_DVD && n < cap; bit <<= 1)
		if (groups & bit)
			out[n++] = group_protocol(bit, scancode);
	return n;
}

enum ir_protocol ir_devinput_protocol(unsigned groups, uint32_t scancode)
{
	enum ir_protocol p = IR_PROTO_UNKNOWN;

	ir_devinput_protocols(groups, scancode, &p, 1);
	return p;
}

uint64_t ir_devinput_lircd_code(unsigned type, unsigned code, int value)
{
	/* EV_KEY = 1: lircd reads auto-repeats (value 2) as presses */
	uint32_t v = (type == 1 && value == 2) ? 1 : (uint32_t)value;

	return (uint64_t)(type & 0xffff) << 48 | (uint64_t)(code & 0xffff) << 32 | v;
}

uint32_t ir_devinput_lircd_code32(unsigned type, unsigned code, int value)
{
	/* lircd sets the top bit for a key (or switch, EV_SW = 5) that is down */
	uint32_t down = ((type == 1 || type == 5) && value != 0) ? 0x80000000u : 0;

	return down | (type & 0x7fff) << 16 | (code & 0xffff);
}

/* Adds rcN's event devices (rcN/inputM/eventK) to out[]. */
static int add_events(const char *sysfs_root, const char *rc_name, struct ir_devinput_dev *out,
		      size_t cap, size_t found)
{
	char path[PATH_MAX];
	struct dirent *de, *ee;
	DIR *d, *e;

	snprintf(path, sizeof(path), "%s/class/rc/%s", sysfs_root, rc_name);
	d = opendir(path);
	if (!d)
		return (int)found;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "input", 5) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/class/rc/%s/%s", sysfs_root, rc_name, de->d_name);
		e = opendir(path);
		while (e && (ee = readdir(e))) {
			if (strncmp(ee->d_name, "event", 5) != 0 ||
			    strlen(ee->d_name) >= sizeof(out->event))
				continue;
			if (found < cap) {
				snprintf(out[found].rc_name, sizeof(out[found].rc_name), "%s", rc_name);
				memcpy(out[found].event, ee->d_name, strlen(ee->d_name) + 1);
			}
			found++;
		}
		if (e)
			closedir(e);
	}
	closedir(d);
	return (int)found;
}

int ir_devinput_discover(const char *sysfs_root, struct ir_devinput_dev *out, size_t cap)
{
	struct ir_lirc_dev_info info[MAX_RC_DEVICES];
	int n = ir_lirc_dev_discover(sysfs_root, info, MAX_RC_DEVICES);
	int found = 0;

	if (n < 0)
		return n;
	for (int i = 0; i < n && i < MAX_RC_DEVICES; i++)
		found = add_events(sysfs_root, info[i].rc_name, out, cap, (size_t)found);
	return found;
}

/* Whether a "devinput" device string names receiver `info`. */
static bool devinput_names(const char *sysfs_root, const char *want,
			   const struct ir_lirc_dev_info *info)
{
	struct ir_devinput_dev devs[MAX_RC_DEVICES];
	char real[PATH_MAX];
	const char *base;
	int n;

	if (!want[0] || !strcmp(want, "auto"))
		return true;
	if (!strncmp(want, "name=", 5))
		return fnmatch(want + 5, info->dev_name, 0) == 0;
	if (want[0] != '/')
		return !strcmp(want, info->rc_name);
	if (!realpath(want, real))
		snprintf(real, sizeof(real), "%s", want);
	base = strrchr(real, '/') + 1;
	n = ir_devinput_discover(sysfs_root, devs, MAX_RC_DEVICES);
	for (int i = 0; i < n && i < MAX_RC_DEVICES; i++)
		if (!strcmp(devs[i].event, base) && !strcmp(devs[i].rc_name, info->rc_name))
			return true;
	return false;
}

/* Whether a "lirc" device string names receiver `info`. */
static bool lirc_names(const char *want, const struct ir_lirc_dev_info *info)
{
	const char *base = strrchr(want, '/') ? strrchr(want, '/') + 1 : want;

	if (!info->lirc_name[0])
		return false;
	if (!want[0])
		return true;
	return !strcmp(base, info->lirc_name) || !strcmp(want, info->rc_name) ||
	       !strcmp(want, info->driver);
}

int ir_rc_devices_of_source(const char *sysfs_root, const char *backend, const char *device,
			    struct ir_lirc_dev_info *out, size_t cap)
{
	struct ir_lirc_dev_info info[MAX_RC_DEVICES];
	char want[PATH_MAX];
	bool lirc = !strcmp(backend, "lirc");
	size_t found = 0;
	int n;

	if (!lirc && strcmp(backend, "devinput"))
		return -EINVAL;
	snprintf(want, sizeof(want), "%.*s", (int)strcspn(device ? device : "", "?"),
		 device ? device : "");
	n = ir_lirc_dev_discover(sysfs_root, info, MAX_RC_DEVICES);
	for (int i = 0; i < n && i < MAX_RC_DEVICES && found < cap; i++) {
		if (lirc ? !lirc_names(want, &info[i]) : !devinput_names(sysfs_root, want, &info[i]))
			continue;
		out[found++] = info[i];
		if (lirc && !want[0])
			break; /* the lirc source reads the first receiver only */
	}
	return (int)found;
}

/* ---- events to frames ---- */

void ir_devinput_reader_init(struct ir_devinput_reader *r, unsigned groups, bool has_scan,
			     const struct ir_keymap *keymap)
{
	memset(r, 0, sizeof(*r));
	r->groups = groups;
	r->has_scan = has_scan;
	r->keymap = keymap;
	r->key_value = -1;
}

void ir_devinput_reader_drop(struct ir_devinput_reader *r)
{
	r->scan_seen = false;
	r->key_value = -1;
}

/* The keymap's lircd devinput button for a press of key `code`. */
static bool find_lircd_key(const struct ir_keymap *km, unsigned code, uint16_t *decoder,
			   uint64_t *lircd_code)
{
	uint64_t c64 = ir_devinput_lircd_code(EV_KEY, code, 1);
	uint64_t c32 = ir_devinput_lircd_code32(EV_KEY, code, 1);

	for (int pass = 0; pass < 2 && km; pass++) {
		for (size_t i = 0; i < ir_keymap_key_count(km); i++) {
			const struct ir_keymap_key *k = ir_keymap_key_at(km, i);

			if (k->protocol == IR_PROTO_LIRC && k->scancode == (pass ? c32 : c64)) {
				*decoder = k->decoder_id;
				*lircd_code = k->scancode;
				return true;
			}
		}
	}
	return false;
}

/* The scancode's frame; true when the keymap names it. */
static bool scan_frame(const struct ir_devinput_reader *r, struct ir_frame *f)
{
	enum ir_protocol protos[16];
	size_t n = ir_devinput_protocols(r->groups, r->scan, protos, 16);
	struct ir_key_binding b;

	memset(f, 0, sizeof(*f));
	f->scancode = r->scan;
	f->start_us = f->end_us = r->time_us;
	for (size_t i = 0; i < n && r->keymap; i++) {
		f->protocol = protos[i];
		if (ir_keymap_lookup(r->keymap, f, &b))
			return true;
	}
	f->protocol = n ? protos[0] : IR_PROTO_UNKNOWN;
	return r->keymap && !n && ir_keymap_lookup(r->keymap, f, &b);
}

static bool report_end(struct ir_devinput_reader *r, struct ir_frame *out)
{
	struct ir_frame sf;
	bool named = r->scan_seen && scan_frame(r, &sf);
	bool pressed = r->key_value == 1, repeat = false, frame = true;

	if (pressed) {
		r->held = find_lircd_key(r->keymap, (unsigned)r->key_code, &r->held_decoder,
					 &r->held_code);
		r->held_key = r->key_code;
	} else if (r->held) {
		repeat = r->has_scan ? r->scan_seen : r->key_value == 2;
	}
	if (named || (!(r->held && (pressed || repeat)) && r->scan_seen)) {
		*out = sf;
	} else if (r->held && (pressed || repeat)) {
		*out = (struct ir_frame){ .protocol = IR_PROTO_LIRC,
					  .decoder_id = r->held_decoder,
					  .scancode = r->held_code,
					  .flags = repeat ? IR_FRAME_REPEAT : 0,
					  .start_us = r->time_us,
					  .end_us = r->time_us };
	} else {
		frame = false;
	}
	if (r->key_value == 0 && r->key_code == r->held_key)
		r->held = false;
	ir_devinput_reader_drop(r);
	return frame;
}

bool ir_devinput_reader_event(struct ir_devinput_reader *r, unsigned type, unsigned code,
			      int value, uint64_t time_us, struct ir_frame *out)
{
	r->time_us = time_us;
	if (type == EV_MSC && code == MSC_SCAN) {
		r->scan_seen = true;
		r->scan = (uint32_t)value;
	} else if (type == EV_KEY) {
		r->key_code = (int)code;
		r->key_value = value;
	} else if (type == EV_SYN && code == SYN_REPORT) {
		return report_end(r, out);
	}
	return false;
}
