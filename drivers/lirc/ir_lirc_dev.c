/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "ir_lirc_dev.h"

#include <errno.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/lirc.h>

int ir_lirc_mode2_to_edge(uint32_t word, struct ir_edge *out)
{
	uint32_t value = word & LIRC_VALUE_MASK;

	memset(out, 0, sizeof(*out));
	out->duration = value;
	switch (word & LIRC_MODE2_MASK) {
	case LIRC_MODE2_PULSE:
		out->kind = IR_PULSE;
		return value ? 0 : -EINVAL;
	case LIRC_MODE2_SPACE:
		out->kind = IR_SPACE;
		return value ? 0 : -EINVAL;
	case LIRC_MODE2_TIMEOUT:
		out->kind = IR_TIMEOUT;
		return 0;
	case LIRC_MODE2_FREQUENCY:
		out->kind = IR_CARRIER;
		return 0;
	case LIRC_MODE2_OVERFLOW:
		/* the value (0xFFFFFF) carries no time */
		out->kind = IR_OVERFLOW;
		out->duration = 0;
		return 0;
	default:
		return -EINVAL;
	}
}

int ir_lirc_edge_to_mode2(const struct ir_edge *e, uint32_t *word)
{
	if (e->kind == IR_OVERFLOW) {
		*word = LIRC_MODE2_OVERFLOW | LIRC_VALUE_MASK;
		return 0;
	}
	if (e->duration > LIRC_VALUE_MASK)
		return -ERANGE;
	switch (e->kind) {
	case IR_PULSE: *word = LIRC_MODE2_PULSE | e->duration; return 0;
	case IR_SPACE: *word = LIRC_MODE2_SPACE | e->duration; return 0;
	case IR_TIMEOUT: *word = LIRC_MODE2_TIMEOUT | e->duration; return 0;
	case IR_CARRIER: *word = LIRC_MODE2_FREQUENCY | e->duration; return 0;
	default: return -EINVAL;
	}
}

int ir_lirc_scancode_to_frame(const void *lirc_scancode, struct ir_frame *out)
{
	struct lirc_scancode sc;

	/* copy: the caller's read buffer need not be aligned */
	memcpy(&sc, lirc_scancode, sizeof(sc));
	if (sc.rc_proto > IR_PROTO_XBOX_DVD)
		return -EPROTONOSUPPORT;
	memset(out, 0, sizeof(*out));
	out->protocol = (enum ir_protocol)sc.rc_proto;
	out->scancode = sc.scancode;
	if (sc.flags & LIRC_SCANCODE_FLAG_TOGGLE)
		out->flags |= IR_FRAME_TOGGLE;
	if (sc.flags & LIRC_SCANCODE_FLAG_REPEAT)
		out->flags |= IR_FRAME_REPEAT;
	out->start_us = sc.timestamp / 1000;
	out->end_us = out->start_us;
	return 0;
}

/* Reads KEY=value from a uevent file into `out` ("" when absent). */
static void uevent_get(const char *path, const char *key, char *out, size_t cap)
{
	char line[256];
	size_t klen = strlen(key);
	FILE *f = fopen(path, "re");

	out[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, klen) == 0 && line[klen] == '=') {
			line[strcspn(line, "\n")] = '\0';
			snprintf(out, cap, "%s", line + klen + 1);
			break;
		}
	}
	fclose(f);
}

static int info_cmp(const void *a, const void *b)
{
	const struct ir_lirc_dev_info *x = a, *y = b;
	size_t lx = strlen(x->rc_name), ly = strlen(y->rc_name);

	/* rc2 before rc10: shorter name first, then lexical */
	if (lx != ly)
		return lx < ly ? -1 : 1;
	return strcmp(x->rc_name, y->rc_name);
}

int ir_lirc_dev_discover(const char *sysfs_root, struct ir_lirc_dev_info *out, size_t cap)
{
	char path[PATH_MAX];
	DIR *d;
	struct dirent *de;
	size_t found = 0;

	snprintf(path, sizeof(path), "%s/class/rc", sysfs_root);
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		struct ir_lirc_dev_info info;
		DIR *sub;
		struct dirent *se;

		if (strncmp(de->d_name, "rc", 2) != 0 || strlen(de->d_name) >= sizeof(info.rc_name))
			continue;
		memset(&info, 0, sizeof(info));
		/* length checked above; memcpy keeps gcc's truncation check quiet */
		memcpy(info.rc_name, de->d_name, strlen(de->d_name) + 1);
		snprintf(path, sizeof(path), "%s/class/rc/%s/uevent", sysfs_root, de->d_name);
		uevent_get(path, "DRV_NAME", info.driver, sizeof(info.driver));
		uevent_get(path, "DEV_NAME", info.dev_name, sizeof(info.dev_name));
		uevent_get(path, "NAME", info.table, sizeof(info.table));
		snprintf(path, sizeof(path), "%s/class/rc/%s", sysfs_root, de->d_name);
		sub = opendir(path);
		while (sub && (se = readdir(sub))) {
			if (strncmp(se->d_name, "lirc", 4) == 0 &&
			    strlen(se->d_name) < sizeof(info.lirc_name)) {
				memcpy(info.lirc_name, se->d_name, strlen(se->d_name) + 1);
				break;
			}
		}
		if (sub)
			closedir(sub);
		/* Insert in order, so that with more devices than `cap` the
		 * first `cap` by name are kept, not the first readdir() gave. */
		size_t kept = found < cap ? found : cap, at = kept;

		while (at > 0 && info_cmp(&info, &out[at - 1]) < 0)
			at--;
		if (at < cap) {
			memmove(&out[at + 1], &out[at], (kept - at - (kept == cap)) * sizeof(*out));
			out[at] = info;
		}
		found++;
	}
	closedir(d);
	return (int)found;
}
