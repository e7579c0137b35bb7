/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irjackd_reload.c - SIGHUP: the configuration and keymaps read again into
 * a new generation.  A configuration or keymap that does not load is
 * rejected and the running one stays; otherwise the sources are reopened
 * with the new settings (one that cannot open waits, retried) and each output is kept or made anew
 * (irjackd_outputs.c).
 */
#include <stdlib.h>
#include <syslog.h>

#include "irjackd.h"
#include "irjackd_service.h"

/* The new configuration and keymaps, or NULL (logged). */
static struct generation *load_generation(const char *path)
{
	struct irjackd_config_error cerr;
	struct generation *g = calloc(1, sizeof(*g));

	if (!g || !(g->cfg = malloc(sizeof(*g->cfg)))) {
		free(g);
		irjackd_log(LOG_ERR, "reload: out of memory; keeping the running configuration");
		return NULL;
	}
	irjackd_config_defaults(g->cfg);
	if (irjackd_config_load(path, g->cfg, &cerr) < 0) {
		if (cerr.line)
			irjackd_log(LOG_ERR, "%s:%u: %s", path, cerr.line, cerr.message);
		else
			irjackd_log(LOG_ERR, "%s: %s", path, cerr.message);
		goto rejected;
	}
	if (irjackd_load_keymaps(g->cfg, &g->km) < 0)
		goto rejected;
	return g;
rejected:
	irjackd_log(LOG_ERR, "reload rejected; keeping the running configuration");
	free(g->cfg);
	free(g);
	return NULL;
}

static void log_reloaded(const struct generation *g)
{
	size_t remotes = ir_keymap_remote_count(g->km), keys = ir_keymap_key_count(g->km);

	irjackd_log(LOG_INFO, "reloaded: %u source%s, %zu remote%s, %zu button%s", g->source_count,
		    g->source_count == 1 ? "" : "s", remotes, remotes == 1 ? "" : "s", keys,
		    keys == 1 ? "" : "s");
}

void reload(struct service *sv)
{
	struct generation *old = sv->gen, *g;

	irjackd_notify("RELOADING=1");
	irjackd_log(LOG_INFO, "SIGHUP: reloading %s", sv->config_path);
	g = load_generation(sv->config_path);
	if (!g)
		goto rejected;
	/* A sound card or USB device can be opened once: the old sources let
	 * go before the new ones open.  A source that cannot open (a deleted
	 * file, an unplugged receiver) does not undo the reload: it waits and
	 * is retried, as it would be if it went away later. */
	sources_close(sv, old);
	if (sources_open(sv, g, false) < 0) {
		irjackd_log(LOG_ERR, "reload rejected (out of memory); reopening the running "
				     "configuration's sources");
		generation_free(sv, g);
		if (sources_open(sv, old, false) < 0)
			irjackd_log(LOG_ERR, "the running configuration's sources failed to reopen too");
		goto rejected;
	}
	sv->gen = g;
	irjackd_set_log_level(g->cfg->log_level);
	outputs_reload(sv, old, g);
	sv->tx_mask = 0; /* transmitters are numbered anew */
	repeat_stop(sv, "stopped by the reload");
	generation_free(sv, old);
	sv->reloads++;
	log_reloaded(g);
	irjackd_notify("READY=1");
	return;
rejected:
	sv->reload_failures++;
	irjackd_notify("READY=1");
}
