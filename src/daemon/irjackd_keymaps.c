/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irjackd_keymaps.c - the keymaps a configuration names, loaded into one
 * keymap, every error logged with its file and line: its `keymap` lines,
 * then what ir-keytable's rc_maps.cfg gives the receivers of its lirc and
 * devinput sources (matched against the rc devices present at load time:
 * a receiver plugged in later gets its keymap on the next reload).
 */
#include "irjackd.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "ir_devinput.h"
#include "ir_keymap_file.h"
#include "ir_lirc_dev.h"
#include "ir_rc_maps.h"

#define MAX_RC 32

static int load_one(struct ir_keymap *km, const char *path)
{
	struct ir_keymap_error err = { 0 };
	int ret = ir_keymap_load(km, path, &err);

	if (ret < 0) {
		if (err.parse.line)
			irjackd_log(LOG_ERR, "%s:%u: %s", err.file, err.parse.line, err.parse.message);
		else
			irjackd_log(LOG_ERR, "%s: %s", err.file[0] ? err.file : path,
				    err.parse.message[0] ? err.parse.message : strerror(-ret));
	}
	return ret;
}

/* The rc devices of the configuration's lirc and devinput sources, each
 * once.  The sysfs root is /sys; IRJACK_SYSFS_ROOT moves it for tests. */
static size_t source_receivers(const struct irjackd_config *cfg, struct ir_lirc_dev_info *rc,
			       size_t cap)
{
	const char *root = getenv("IRJACK_SYSFS_ROOT") ? getenv("IRJACK_SYSFS_ROOT") : "/sys";
	size_t n = 0;

	for (unsigned i = 0; i < cfg->source_count; i++) {
		const struct irjackd_source *s = &cfg->sources[i];
		struct ir_lirc_dev_info found[MAX_RC];
		int got;

		if (s->type != IRJACKD_SOURCE_LIRC && s->type != IRJACKD_SOURCE_DEVINPUT)
			continue;
		got = ir_rc_devices_of_source(root, irjackd_source_type_name(s->type), s->device,
					      found, MAX_RC);
		for (int k = 0; k < got; k++) {
			bool seen = false;

			for (size_t j = 0; j < n; j++)
				seen = seen || !strcmp(rc[j].rc_name, found[k].rc_name);
			if (!seen && n < cap)
				rc[n++] = found[k];
		}
	}
	return n;
}

/* Every entry matching one of the receivers, in file order, each file once. */
static int load_rc_maps(const struct irjackd_config *cfg, struct ir_keymap *km)
{
	struct ir_lirc_dev_info rc[MAX_RC];
	size_t n = source_receivers(cfg, rc, MAX_RC);
	struct ir_parse_error perr;
	struct ir_rc_maps maps;
	char (*loaded)[256] = NULL;
	size_t loaded_n = 0;
	int ret = ir_rc_maps_load(&maps, cfg->rc_maps, &perr);

	if (ret < 0) {
		if (perr.line)
			irjackd_log(LOG_ERR, "%s:%u: %s", cfg->rc_maps, perr.line, perr.message);
		else
			irjackd_log(LOG_ERR, "rc_maps %s: %s", cfg->rc_maps, perr.message);
		return ret;
	}
	if (maps.count && !(loaded = calloc(maps.count, sizeof(*loaded))))
		ret = -ENOMEM;
	for (size_t e = 0; e < maps.count && ret == 0; e++) {
		const struct ir_rc_map_entry *entry = &maps.entries[e];
		char path[256];
		bool wanted = false, dup = false;

		for (size_t i = 0; i < n; i++)
			wanted = wanted || ir_rc_maps_match(entry, rc[i].driver, rc[i].table);
		if (!wanted)
			continue;
		if (ir_rc_maps_resolve(&maps, entry, NULL, path, sizeof(path)) < 0) {
			irjackd_log(LOG_ERR, "%s:%u: keymap %s: not found (in /etc/rc_keymaps or "
					     "/lib/udev/rc_keymaps)",
				    cfg->rc_maps, entry->line, entry->file);
			ret = -ENOENT;
			break;
		}
		for (size_t i = 0; i < loaded_n; i++)
			dup = dup || !strcmp(loaded[i], path);
		if (dup)
			continue;
		memcpy(loaded[loaded_n++], path, sizeof(path));
		irjackd_log(LOG_INFO, "%s:%u: %s %s: keymap %s", cfg->rc_maps, entry->line,
			    entry->driver, entry->table, path);
		ret = load_one(km, path);
	}
	if (ret == 0 && !loaded_n)
		irjackd_log(LOG_INFO, "rc_maps %s: no entry for the receivers present (%zu)",
			    cfg->rc_maps, n);
	free(loaded);
	ir_rc_maps_free(&maps);
	return ret;
}

int irjackd_load_keymaps(const struct irjackd_config *cfg, struct ir_keymap **out)
{
	struct ir_keymap *km;
	int ret = ir_keymap_new(&km);

	if (ret < 0)
		return ret;
	for (unsigned i = 0; i < cfg->keymap_count && ret == 0; i++)
		ret = load_one(km, cfg->keymaps[i]);
	if (ret == 0 && cfg->rc_maps[0])
		ret = load_rc_maps(cfg, km);
	if (ret < 0) {
		ir_keymap_free(km);
		return ret;
	}
	*out = km;
	return 0;
}
