/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irjackd_requests.c - what clients ask the service to send: SEND_ONCE,
 * SEND_START, SEND_STOP and SET_TRANSMITTERS on the lircd socket, and the
 * requests of MQTT's send topic; the callbacks of struct ir_output_env.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <syslog.h>

#include "irjackd.h"
#include "irjackd_service.h"

/* SEND_STOP: names the repeating button, or leaves out its key, or both. */
static int send_stop(struct service *sv, const char *remote, const char *key, char *error,
		     size_t error_size)
{
	if (!sv->repeat.active) {
		snprintf(error, error_size, "not repeating");
		return -EINVAL;
	}
	if (remote[0] && strcasecmp(remote, sv->repeat.remote)) {
		snprintf(error, error_size, "specified remote does not match");
		return -EINVAL;
	}
	if (key[0] && strcasecmp(key, sv->repeat.key)) {
		snprintf(error, error_size, "specified code does not match");
		return -EINVAL;
	}
	repeat_stop(sv, "SEND_STOP");
	return 0;
}

static int send_once(struct service *sv, unsigned mask, const char *remote, const char *key,
		     unsigned repeats, char *error, size_t error_size)
{
	struct ir_edge_buf edges = { 0 };
	struct ir_tx_carrier carrier;
	int ret = ir_tx_encode_key(sv->gen->km, remote, key, repeats, &edges, &carrier);

	if (ret < 0)
		snprintf(error, error_size, "cannot encode %s %s: %s", remote, key, strerror(-ret));
	else
		ret = transmit_mask(sv, mask, &edges, &carrier, TX_JOB_ONCE, error, error_size);
	ir_edge_buf_free(&edges);
	return ret;
}

/*
 * SEND_* from lircd clients, with lircd's rules: one button repeats at a
 * time; SEND_ONCE waits for none (refused while repeating).
 */
int transmit_lircd_send(void *userdata, enum ir_lircd_send kind, const char *remote,
			const char *key, unsigned repeats, char *error, size_t error_size)
{
	struct service *sv = userdata;
	unsigned mask = transmitters_for(sv, NULL, remote);
	int ret;

	if (kind == IR_LIRCD_SEND_STOP)
		return send_stop(sv, remote, key, error, error_size);
	if (sv->repeat.active) {
		snprintf(error, error_size, kind == IR_LIRCD_SEND_START ? "already repeating"
									: "busy: repeating");
		return -EBUSY;
	}
	if (!mask) {
		snprintf(error, error_size, "no transmitter for remote \"%s\"", remote);
		return -ENODEV;
	}
	if (kind == IR_LIRCD_SEND_START)
		ret = repeat_start(sv, mask, remote, key, error, error_size);
	else
		ret = send_once(sv, mask, remote, key, repeats, error, error_size);
	if (ret < 0)
		irjackd_log(LOG_WARNING, "send %s %s: %s", remote, key, error);
	return ret;
}

/* SET_TRANSMITTERS: bit n-1 for the n-th [transmitter] of the config. */
int transmit_set_transmitters(void *userdata, unsigned mask, char *error, size_t error_size)
{
	struct service *sv = userdata;
	unsigned count = sv->gen->cfg->transmitter_count;

	if (count < 32 && (mask >> count)) {
		snprintf(error, error_size, "cannot set transmitters: %u configured", count);
		return -EINVAL;
	}
	sv->tx_mask = mask;
	irjackd_log(LOG_INFO, "transmitters set to mask 0x%x", mask);
	return 0;
}

/* The timings and carrier of an MQTT request (already parsed and bounded,
 * see send_request.h). */
static int encode_request(const struct service *sv, const struct irjackd_send_request *req,
			  struct ir_edge_buf *edges, struct ir_tx_carrier *carrier, char *error,
			  size_t error_size)
{
	int ret = 0;

	switch (req->kind) {
	case IRJACKD_SEND_KEY:
		ret = ir_tx_encode_key(sv->gen->km, req->remote, req->key, req->repeats, edges,
				       carrier);
		if (ret == -ENOENT)
			snprintf(error, error_size, "unknown remote or key: %s %s", req->remote,
				 req->key);
		break;
	case IRJACKD_SEND_SCANCODE:
		ret = ir_tx_encode_scancode(req->protocol, req->scancode, req->repeats, edges,
					    carrier);
		break;
	case IRJACKD_SEND_RAW:
		for (size_t i = 0; i < req->raw_count && ret == 0; i++)
			ret = ir_edge_buf_push(edges, i % 2 ? ir_space(req->raw[i])
							    : ir_pulse(req->raw[i]));
		break;
	}
	if (ret < 0 && !error[0])
		snprintf(error, error_size, "cannot encode: %s", strerror(-ret));
	return ret;
}

/* Transmit requests from MQTT, on this thread. */
int transmit_request(void *userdata, const struct irjackd_send_request *req, char *error,
		     size_t error_size)
{
	struct service *sv = userdata;
	const char *remote = req->kind == IRJACKD_SEND_KEY ? req->remote : NULL;
	unsigned mask = transmitters_for(sv, req->transmitter, remote);
	struct ir_edge_buf edges = { 0 };
	struct ir_tx_carrier carrier = { 0 };
	int ret;

	if (!mask) {
		if (req->transmitter[0])
			snprintf(error, error_size, "no transmitter named \"%s\"", req->transmitter);
		else if (remote)
			snprintf(error, error_size, "no transmitter for remote \"%s\"", remote);
		else
			snprintf(error, error_size, "no transmitter configured");
		return -ENODEV;
	}
	ret = encode_request(sv, req, &edges, &carrier, error, error_size);
	if (ret == 0)
		ret = transmit_mask(sv, mask, &edges, &carrier, TX_JOB_ONCE, error, error_size);
	ir_edge_buf_free(&edges);
	return ret;
}

/*
 * DISPLAY from a client: every source whose receiver has a display shows
 * the request (usually one iMON); an error when none has one, or the first
 * error of a display that failed.
 */
int display_request(void *userdata, const char *request, char *error, size_t error_size)
{
	return display_on_request(userdata, "", request, error, error_size);
}

int display_on_request(void *userdata, const char *source, const char *request, char *error,
		       size_t error_size)
{
	struct service *sv = userdata;
	unsigned shown = 0;
	int first_error = 0;

	for (unsigned i = 0; i < sv->gen->source_count; i++) {
		struct source *s = &sv->gen->sources[i];
		char err[256];
		int ret;

		if (!s->src || (source[0] && strcmp(s->cfg->name, source)))
			continue;
		ret = ir_source_display(s->src, request, err, sizeof(err));
		if (ret == -ENOTSUP)
			continue;
		if (ret < 0) {
			if (!first_error) {
				snprintf(error, error_size, "%s: %s", s->cfg->name, err);
				first_error = ret;
			}
			/* [output lcddev] logs its own, once per failing spell: it
			 * writes 8 screens a second */
			if (!source[0])
				irjackd_log(LOG_WARNING, "display on %s: %s", s->cfg->name, err);
			continue;
		}
		shown++;
	}
	if (first_error == -EINVAL)
		return first_error; /* a bad request is bad for every display */
	if (!shown && !first_error) {
		if (source[0])
			snprintf(error, error_size, "source %s has no display now (an iMON VFD or LCD, "
				 "plugged in)", source);
		else
			snprintf(error, error_size, "no source has a display (an iMON VFD or LCD)");
		return -ENODEV;
	}
	return shown ? 0 : first_error;
}
