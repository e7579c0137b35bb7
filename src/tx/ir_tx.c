/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_tx.c - the transmitter registry, specs, and what every send shares:
 * timing it, and turning a button or a scancode into timings and a carrier.
 */
#include "ir_tx.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir_keymap.h"
#include "ir_time.h"
#include "ir_util.h"

#define MAX_BACKENDS 16

static const struct ir_tx_backend *backends[MAX_BACKENDS];
static unsigned backend_count;

struct ir_tx {
	const struct ir_tx_backend *backend;
	void *impl;
	uint64_t wall_us; /* the last send's */
};

int ir_tx_register(const struct ir_tx_backend *b)
{
	if (!b || !b->name || !b->open || !b->send || !b->close)
		return -EINVAL;
	if (ir_tx_backend_find(b->name))
		return -EEXIST;
	if (backend_count == MAX_BACKENDS)
		return -ENOSPC;
	backends[backend_count++] = b;
	return 0;
}

const struct ir_tx_backend *ir_tx_backend_find(const char *name)
{
	for (unsigned i = 0; i < backend_count; i++)
		if (strcmp(backends[i]->name, name) == 0)
			return backends[i];
	return NULL;
}

void ir_tx_options_init(struct ir_tx_options *opt)
{
	memset(opt, 0, sizeof(*opt));
	opt->mode = IR_SYNTH_AUTO;
	opt->volume = 0.8;
}

/* The backends a spec can name by prefix; anything else is an ALSA PCM. */
static const char *const spec_prefixes[] = { "alsa", "wav", "file", "lirc", "usb" };

/* Splits `spec` into its backend's name and the device after the prefix. */
static const char *split_spec(const char *spec, const char **device)
{
	const char *colon = strchr(spec, ':');
	size_t n = colon ? (size_t)(colon - spec) : strlen(spec);

	if (strncmp(spec, "/dev/lirc", 9) == 0) {
		*device = spec;
		return "lirc";
	}
	for (size_t i = 0; i < ARRAY_SIZE(spec_prefixes); i++) {
		if (strlen(spec_prefixes[i]) == n && strncmp(spec, spec_prefixes[i], n) == 0) {
			*device = colon ? colon + 1 : "";
			return spec_prefixes[i];
		}
	}
	*device = spec;
	return "alsa";
}

const char *ir_tx_spec_backend(const char *spec)
{
	const char *device;

	return spec ? split_spec(spec, &device) : NULL;
}

int ir_tx_open(const char *spec, const struct ir_tx_options *opt, struct ir_tx **out, char *err,
	       size_t err_size)
{
	struct ir_tx_options defaults;
	const struct ir_tx_backend *b;
	const char *device, *name;
	struct ir_tx *tx;
	int ret;

	if (err_size)
		err[0] = '\0';
	if (!spec || !out) {
		snprintf(err, err_size, "bad arguments");
		return -EINVAL;
	}
	if (!opt) {
		ir_tx_options_init(&defaults);
		opt = &defaults;
	}
	name = split_spec(spec, &device);
	b = ir_tx_backend_find(name);
	if (!b) {
		snprintf(err, err_size, "%s: %s transmitters are not built in", spec, name);
		return -EPROTONOSUPPORT;
	}
	tx = calloc(1, sizeof(*tx));
	if (!tx) {
		snprintf(err, err_size, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	tx->backend = b;
	ret = b->open(device, opt, &tx->impl, err, err_size);
	if (ret < 0) {
		free(tx);
		return ret;
	}
	*out = tx;
	return 0;
}

void ir_tx_close(struct ir_tx *tx)
{
	if (!tx)
		return;
	tx->backend->close(tx->impl);
	free(tx);
}

int ir_tx_send(struct ir_tx *tx, const struct ir_edge *edges, size_t n,
	       const struct ir_tx_carrier *carrier, char *err, size_t err_size)
{
	static const struct ir_tx_carrier defaults;
	uint64_t start = ir_monotonic_us();
	int ret;

	if (err_size)
		err[0] = '\0';
	ret = tx->backend->send(tx->impl, edges, n, carrier ? carrier : &defaults, err, err_size);
	tx->wall_us = ir_monotonic_us() - start;
	if (ret < 0 && err_size && !err[0])
		snprintf(err, err_size, "%s", strerror(-ret));
	return ret;
}

int ir_tx_send_scancode(struct ir_tx *tx, enum ir_protocol protocol, uint64_t scancode,
			unsigned repeats, const struct ir_tx_carrier *carrier, char *err,
			size_t err_size)
{
	static const struct ir_tx_carrier defaults;
	uint64_t start = ir_monotonic_us();
	int ret;

	if (err_size)
		err[0] = '\0';
	if (!tx->backend->send_scancode) {
		snprintf(err, err_size, "%s transmitters send timings, not scancodes",
			 tx->backend->name);
		return -EOPNOTSUPP;
	}
	ret = tx->backend->send_scancode(tx->impl, protocol, scancode, repeats,
					 carrier ? carrier : &defaults, err, err_size);
	tx->wall_us = ir_monotonic_us() - start;
	if (ret < 0 && err_size && !err[0])
		snprintf(err, err_size, "%s", strerror(-ret));
	return ret;
}

void ir_tx_stats(const struct ir_tx *tx, struct ir_tx_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (tx->backend->stats)
		tx->backend->stats(tx->impl, st);
	st->backend = tx->backend->name;
	st->wall_us = tx->wall_us;
}

int ir_tx_encode_key(const struct ir_keymap *km, const char *remote, const char *key,
		     unsigned repeats, struct ir_edge_buf *out, struct ir_tx_carrier *carrier)
{
	int ret = ir_keymap_encode(km, remote, key, repeats, out);

	if (ret < 0)
		return ret;
	memset(carrier, 0, sizeof(*carrier));
	ir_keymap_carrier(km, remote, key, &carrier->hz, &carrier->duty_pct);
	return 0;
}

int ir_tx_encode_scancode(enum ir_protocol protocol, uint64_t scancode, unsigned repeats,
			  struct ir_edge_buf *out, struct ir_tx_carrier *carrier)
{
	struct ir_encode_opts opts = { .repeats = repeats };
	const struct ir_protocol_info *info;
	int ret = ir_encode(protocol, scancode, &opts, out);

	if (ret < 0)
		return ret;
	info = ir_protocol_get(protocol);
	if (info && !carrier->hz) {
		carrier->hz = info->carrier_hz;
		carrier->duty_pct = info->duty_cycle;
	}
	return 0;
}
