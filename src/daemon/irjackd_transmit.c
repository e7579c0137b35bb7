/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irjackd_transmit.c - the configured transmitters ([transmitter NAME])
 * through the transmit layer (src/tx/ir_tx.h): which ones a request goes
 * to, and sending through them.
 *
 * A transmitter is opened for each send and closed after it, so a sound
 * card or /dev/lircN is free between presses.  The loop opens it (a
 * missing device is the request's error) and its thread plays it
 * (irjackd_tx_worker.c): sources and clients are served meanwhile.
 * `mceusb` sends through the running mceusb source, which holds the device
 * and goes away with a reload: it is played on the loop, as before.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <syslog.h>

#include "irjackd.h"
#include "irjackd_service.h"

/* The running mceusb source an `mceusb` transmitter sends through. */
static struct ir_source *usb_source_for(const struct service *sv,
					const struct irjackd_transmitter *tx)
{
	const struct generation *g = sv->gen;

	for (unsigned i = 0; i < g->source_count; i++) {
		const struct source *s = &g->sources[i];

		if (s->cfg->type != IRJACKD_SOURCE_MCEUSB || s->ended)
			continue;
		if (tx->device[0] && strcmp(tx->device, s->cfg->device))
			continue;
		return s->src;
	}
	return NULL;
}

/* The transmit layer's spec for a configured transmitter. */
static void tx_spec(const struct irjackd_transmitter *tx, char *spec, size_t size)
{
	const char *d = tx->device;

	switch (tx->type) {
	case IRJACKD_TX_ALSA:
		snprintf(spec, size, "alsa:%s", d[0] ? d : "default");
		return;
	case IRJACKD_TX_FILE:
		snprintf(spec, size, "file:%s", d);
		return;
	case IRJACKD_TX_LIRC:
		snprintf(spec, size, "lirc:%s", !d[0] ? "/dev/lirc0" : strncmp(d, "lirc:", 5) ? d : d + 5);
		return;
	case IRJACKD_TX_MCEUSB:
		snprintf(spec, size, "usb");
		return;
	}
	spec[0] = '\0';
}

static void warn_tx(void *userdata, const char *message)
{
	const struct irjackd_transmitter *tx = userdata;

	irjackd_log(LOG_WARNING, "transmitter %s: %s", tx->name, message);
}

/* mceusb: through the running source, on the loop (a reload closes the
 * source, which a thread could still be sending through). */
static int transmit_here(struct service *sv, const struct irjackd_transmitter *tx,
			 struct ir_tx_options *opt, const struct ir_edge_buf *edges,
			 const struct ir_tx_carrier *carrier, char *err, size_t err_size)
{
	char spec[IRJACKD_PATH_MAX + 16];
	struct ir_tx *t;
	int ret;

	if (!(opt->source = usb_source_for(sv, tx))) {
		snprintf(err, err_size, "no running [source] of type mceusb%s%s to send through",
			 tx->device[0] ? " with device " : "", tx->device);
		return -ENODEV;
	}
	tx_spec(tx, spec, sizeof(spec));
	ret = ir_tx_open(spec, opt, &t, err, err_size);
	if (ret == 0) {
		ret = ir_tx_send(t, edges->edges, edges->len, carrier, err, err_size);
		ir_tx_close(t);
	}
	return ret;
}

/* Transmitter `index` (`tx`) sends `edges`: opened here, played by its
 * thread; mceusb on the loop. */
static int transmit(struct service *sv, unsigned index, const struct irjackd_transmitter *tx,
		    const struct ir_edge_buf *edges, const struct ir_tx_carrier *carrier,
		    enum tx_job_kind kind, char *error, size_t error_size)
{
	char spec[IRJACKD_PATH_MAX + 16], err[768];
	struct ir_tx_options opt;
	struct tx_job *job;
	int ret;

	ir_tx_options_init(&opt);
	opt.volume = tx->volume;
	opt.warn = warn_tx;
	if (tx->mode[0] && ir_synth_mode_from_name(tx->mode, &opt.mode) < 0) {
		snprintf(error, error_size, "transmitter %s: unknown mode %s", tx->name, tx->mode);
		return -EINVAL;
	}
	if (tx->type == IRJACKD_TX_MCEUSB) {
		opt.userdata = (void *)tx;
		ret = transmit_here(sv, tx, &opt, edges, carrier, err, sizeof(err));
		if (ret < 0)
			snprintf(error, error_size, "transmitter %s: %s", tx->name, err);
		return ret;
	}
	job = calloc(1, sizeof(*job));
	if (!job || ir_edge_buf_append(&job->edges, edges->edges, edges->len) < 0) {
		tx_job_free(job);
		snprintf(error, error_size, "transmitter %s: out of memory", tx->name);
		return -ENOMEM;
	}
	job->tx = *tx;
	job->carrier = *carrier;
	job->kind = kind;
	opt.userdata = &job->tx; /* warnings come from its thread */
	tx_spec(tx, spec, sizeof(spec));
	ret = ir_tx_open(spec, &opt, &job->t, err, sizeof(err));
	if (ret < 0) {
		snprintf(error, error_size, "transmitter %s: %s", tx->name, err);
		tx_job_free(job);
		return ret;
	}
	return tx_worker_submit(sv, index, job, error, error_size);
}

static bool serves_remote(const struct irjackd_transmitter *t, const char *remote)
{
	char list[IRJACKD_PATH_MAX], *save = NULL;

	if (!t->remotes[0] || !remote)
		return true;
	snprintf(list, sizeof(list), "%s", t->remotes);
	for (char *r = strtok_r(list, ",", &save); r; r = strtok_r(NULL, ",", &save))
		if (!strcasecmp(r, remote))
			return true;
	return false;
}

/*
 * Where a request goes, as a mask over the configured transmitters (bit n
 * for the n-th): the one named `name`; else those SET_TRANSMITTERS chose;
 * else the first that serves `remote` (NULL: any).  0: none.
 */
unsigned transmitters_for(const struct service *sv, const char *name, const char *remote)
{
	const struct irjackd_config *cfg = sv->gen->cfg;

	if (name && name[0]) {
		for (unsigned i = 0; i < cfg->transmitter_count; i++)
			if (!strcmp(cfg->transmitters[i].name, name))
				return 1u << i;
		return 0;
	}
	if (sv->tx_mask)
		return sv->tx_mask & ((1u << cfg->transmitter_count) - 1);
	for (unsigned i = 0; i < cfg->transmitter_count; i++)
		if (serves_remote(&cfg->transmitters[i], remote))
			return 1u << i;
	return 0;
}

int transmit_mask(struct service *sv, unsigned mask, const struct ir_edge_buf *edges,
		  const struct ir_tx_carrier *carrier, enum tx_job_kind kind, char *error,
		  size_t error_size)
{
	const struct irjackd_config *cfg = sv->gen->cfg;
	int first = 0;

	for (unsigned i = 0; i < cfg->transmitter_count; i++) {
		char err[1024] = "";
		int ret;

		if (!(mask & (1u << i)))
			continue;
		ret = transmit(sv, i, &cfg->transmitters[i], edges, carrier, kind, err, sizeof(err));
		if (ret < 0) {
			irjackd_log(LOG_WARNING, "%s", err);
			if (!first) {
				first = ret;
				snprintf(error, error_size, "%s", err);
			}
		}
	}
	return first;
}
