/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irjackd_outputs.c - the outputs a configuration names ([output uinput],
 * [output lircd], [output json], [output mqtt], [output lircdev], [output lcddev])
 * through the output
 * interface (src/outputs/ir_output.h): their settings from the
 * configuration, what the service lends them, and what a reload keeps.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>

#include "irjackd.h"
#include "irjackd_service.h"
#include "out_json.h"
#include "out_lcddev.h"
#include "out_lircd.h"
#include "out_lircdev_cuse.h"
#include "out_mqtt.h"
#include "out_uinput.h"

static const char *const slot_kind[OUTPUT_SLOTS] = {
	[OUTPUT_LIRCD] = "lircd",
	[OUTPUT_UINPUT] = "uinput",
	[OUTPUT_JSON] = "json",
	[OUTPUT_MQTT] = "mqtt",
	[OUTPUT_LIRCDEV] = "lircdev",
	[OUTPUT_LCDDEV] = "lcddev",
};

/* One output's settings, as its kind takes them. */
union output_settings {
	struct ir_lircd_settings lircd;
	struct ir_uinput_settings uinput;
	struct ir_json_settings json;
	struct ir_mqtt_settings mqtt;
	struct ir_lircdev_settings lircdev;
	struct ir_lcddev_settings lcddev;
};

/* The timeout of the source that feeds [output lircdev] (what
 * LIRC_GET_REC_TIMEOUT answers): its own, or the decoders' default. */
static uint32_t lircdev_timeout(const struct irjackd_config *cfg)
{
	for (unsigned i = 0; i < cfg->source_count; i++)
		if (!cfg->lircdev_source[0] || !strcmp(cfg->sources[i].name, cfg->lircdev_source))
			return cfg->sources[i].timeout_us ? cfg->sources[i].timeout_us : 125000;
	return 0;
}

/* Fills *s from the configuration; false when it does not name the output. */
static bool settings_of(const struct service *sv, const struct irjackd_config *cfg,
			enum output_slot slot, union output_settings *s)
{
	memset(s, 0, sizeof(*s));
	switch (slot) {
	case OUTPUT_LIRCD:
		/* systemd's socket is the one clients find, wherever it is */
		snprintf(s->lircd.path, sizeof(s->lircd.path), "%s",
			 sv->activated_unix_fd && sv->activated_path[0] ? sv->activated_path
									: cfg->lircd_path);
		s->lircd.mode = cfg->lircd_mode;
		s->lircd.simulate = cfg->lircd_simulate;
		snprintf(s->lircd.listen, sizeof(s->lircd.listen), "%s", cfg->lircd_listen);
		snprintf(s->lircd.instance_id, sizeof(s->lircd.instance_id), "%s", sv->instance_id);
		s->lircd.unix_fd = sv->activated_unix_fd;
		s->lircd.tcp_fd = sv->activated_tcp_fd;
		return cfg->lircd;
	case OUTPUT_UINPUT:
		snprintf(s->uinput.name, sizeof(s->uinput.name), "%s", cfg->uinput_name);
		s->uinput.vendor = cfg->uinput_vendor;
		s->uinput.product = cfg->uinput_product;
		s->uinput.per_remote = cfg->uinput_per_remote;
		return cfg->uinput;
	case OUTPUT_JSON:
		snprintf(s->json.path, sizeof(s->json.path), "%s", cfg->json_path);
		return cfg->json;
	case OUTPUT_MQTT:
		s->mqtt = cfg->mqtt_cfg;
		return cfg->mqtt;
	case OUTPUT_LIRCDEV:
		snprintf(s->lircdev.name, sizeof(s->lircdev.name), "%s", cfg->lircdev_name);
		snprintf(s->lircdev.source, sizeof(s->lircdev.source), "%s", cfg->lircdev_source);
		s->lircdev.timeout_us = lircdev_timeout(cfg);
		return cfg->lircdev;
	case OUTPUT_LCDDEV:
		snprintf(s->lcddev.name, sizeof(s->lcddev.name), "%s", cfg->lcddev_name);
		snprintf(s->lcddev.source, sizeof(s->lcddev.source), "%s", cfg->lcddev_source);
		return cfg->lcddev;
	case OUTPUT_SLOTS:
		break;
	}
	return false;
}

/* What the service lends its outputs: valid as long as generation `g`. */
static struct ir_output_env env_of(struct service *sv, const struct generation *g)
{
	return (struct ir_output_env){
		.keymap = g->km,
		.source_names = g->source_names,
		.source_count = g->cfg->source_count,
		.send = transmit_lircd_send,
		.set_transmitters = transmit_set_transmitters,
		.status = status_lines,
		.send_request = transmit_request,
		.display = display_request,
		.display_on = display_on_request,
		.log = irjackd_log_line,
		.userdata = sv,
	};
}

int outputs_open(struct service *sv, const struct generation *g, enum output_slot slot)
{
	const struct ir_output_kind *kind = ir_output_kind_find(slot_kind[slot]);
	struct ir_output_env env = env_of(sv, g);
	union output_settings s;
	char err[512];
	int ret;

	if (!settings_of(sv, g->cfg, slot, &s))
		return 0;
	ret = ir_output_open(kind, &s, &env, &sv->outputs[slot], err, sizeof(err));
	if (ret < 0) {
		sv->outputs[slot] = NULL;
		irjackd_log(LOG_ERR, "%s", err);
	}
	return ret;
}

void outputs_reload(struct service *sv, const struct generation *old, const struct generation *g)
{
	(void)old;
	for (unsigned slot = 0; slot < OUTPUT_SLOTS; slot++) {
		struct ir_output_env env = env_of(sv, g);
		union output_settings s;
		bool wanted = settings_of(sv, g->cfg, slot, &s);

		if (sv->outputs[slot] && wanted && ir_output_rebind(sv->outputs[slot], &s, &env) == 0)
			continue;
		ir_output_close(sv->outputs[slot]);
		sv->outputs[slot] = NULL;
		outputs_open(sv, g, slot);
	}
}

void outputs_close(struct service *sv, enum output_slot slot)
{
	ir_output_close(sv->outputs[slot]);
	sv->outputs[slot] = NULL;
}

void outputs_frame(struct service *sv, const struct ir_output_frame *f)
{
	for (unsigned slot = 0; slot < OUTPUT_SLOTS; slot++)
		if (sv->outputs[slot])
			ir_output_frame(sv->outputs[slot], f);
}

void outputs_edge(struct service *sv, const char *source, unsigned channel,
		  const struct ir_edge *edge)
{
	for (unsigned slot = 0; slot < OUTPUT_SLOTS; slot++)
		if (sv->outputs[slot])
			ir_output_edge(sv->outputs[slot], source, channel, edge);
}

void outputs_key(struct service *sv, const struct ir_key_event *ev)
{
	for (unsigned slot = 0; slot < OUTPUT_SLOTS; slot++)
		if (sv->outputs[slot])
			ir_output_key(sv->outputs[slot], ev);
}

size_t outputs_fds(struct service *sv, struct pollfd *fds, size_t max, size_t *first,
		   size_t *count)
{
	size_t n = 0;

	for (unsigned slot = 0; slot < OUTPUT_SLOTS; slot++) {
		first[slot] = n;
		count[slot] = sv->outputs[slot] ? ir_output_fds(sv->outputs[slot], fds + n, max - n) : 0;
		n += count[slot];
	}
	return n;
}

void outputs_process(struct service *sv, const struct pollfd *fds, const size_t *first,
		     const size_t *count)
{
	for (unsigned slot = 0; slot < OUTPUT_SLOTS; slot++)
		if (sv->outputs[slot])
			ir_output_process(sv->outputs[slot], fds + first[slot], count[slot]);
}

uint64_t outputs_due_us(struct service *sv)
{
	uint64_t due = UINT64_MAX;

	for (unsigned slot = 0; slot < OUTPUT_SLOTS; slot++) {
		uint64_t t = sv->outputs[slot] ? ir_output_due_us(sv->outputs[slot]) : UINT64_MAX;

		if (t < due)
			due = t;
	}
	return due;
}

bool outputs_keep_running(const struct service *sv)
{
	for (unsigned slot = 0; slot < OUTPUT_SLOTS; slot++)
		if (sv->outputs[slot] && ir_output_keeps_running(sv->outputs[slot]))
			return true;
	return false;
}
