/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_tx_lirc.c - the "lirc" transmitter (src/tx/ir_tx.h) over the kernel's
 * /dev/lircN (ir_lirc_tx.h): timings in LIRC_MODE_PULSE, or scancodes the
 * kernel encodes.  A carrier or duty cycle the device cannot take is
 * skipped unless the user asked for it, as lircd does.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir_lirc_tx.h"
#include "ir_tx.h"

struct lirc_tx {
	struct ir_lirc_tx *dev;
	char path[256];
	void (*warn)(void *userdata, const char *message);
	void *userdata;
};

static const char *open_error(int err)
{
	return err == -EOPNOTSUPP ? "this LIRC device cannot transmit"
	       : err == -ENOTTY   ? "not a LIRC device"
				  : strerror(-err);
}

static int lirc_open(const char *device, const struct ir_tx_options *opt, void **impl, char *err,
		     size_t err_size)
{
	struct lirc_tx *l = calloc(1, sizeof(*l));
	unsigned count = 0;
	int ret;

	if (!l)
		return -ENOMEM;
	snprintf(l->path, sizeof(l->path), "%s", device[0] ? device : "/dev/lirc0");
	l->warn = opt->warn;
	l->userdata = opt->userdata;
	ret = ir_lirc_tx_open(l->path, &l->dev);
	if (ret < 0) {
		snprintf(err, err_size, "%s: %s", l->path, open_error(ret));
		free(l);
		return ret;
	}
	if (opt->emitters && (ret = ir_lirc_tx_set_transmitters(l->dev, opt->emitters, &count)) < 0) {
		if (ret == -EINVAL && count)
			snprintf(err, err_size, "%s: transmitters: the device has %u", l->path, count);
		else
			snprintf(err, err_size, "%s: transmitters: %s", l->path,
				 ret == -EOPNOTSUPP ? "the device has one fixed output" : strerror(-ret));
		ir_lirc_tx_free(l->dev);
		free(l);
		return ret;
	}
	*impl = l;
	return 0;
}

/* Sets one carrier parameter; a refusal fails the send only when the user
 * asked for the value (or the device does not say "cannot"). */
static int set_param(struct lirc_tx *l, int (*set)(struct ir_lirc_tx *, uint32_t), uint32_t value,
		     bool required, const char *what, const char *unit, char *err, size_t err_size)
{
	int ret = set(l->dev, value);
	char msg[320];

	if (ret == 0 || (!required && (ret == -EOPNOTSUPP || ret == -ENOTTY)))
		return 0;
	snprintf(msg, sizeof(msg), "%s: %s %u%s: %s", l->path, what, value, unit,
		 ret == -EOPNOTSUPP ? "the device cannot change it" : strerror(-ret));
	if (required) {
		snprintf(err, err_size, "%s", msg);
		return ret;
	}
	if (l->warn)
		l->warn(l->userdata, msg);
	return 0;
}

static int set_carrier(struct lirc_tx *l, const struct ir_tx_carrier *c, bool always, char *err,
		       size_t err_size)
{
	int ret = 0;

	if (always || c->hz_required)
		ret = set_param(l, ir_lirc_tx_set_carrier, c->hz ? c->hz : IR_CARRIER_DEFAULT_HZ,
				c->hz_required, "carrier", " Hz", err, err_size);
	if (ret == 0 && c->duty_pct && (always || c->duty_required))
		ret = set_param(l, ir_lirc_tx_set_duty_cycle, c->duty_pct, c->duty_required,
				"duty cycle", "%", err, err_size);
	return ret;
}

static int lirc_send(void *impl, const struct ir_edge *edges, size_t n,
		     const struct ir_tx_carrier *carrier, char *err, size_t err_size)
{
	struct lirc_tx *l = impl;
	int ret = set_carrier(l, carrier, true, err, err_size);

	if (ret < 0)
		return ret;
	ret = ir_lirc_tx_send_edges(l->dev, edges, n);
	if (ret < 0)
		snprintf(err, err_size, "%s: %s", l->path,
			 ret == -ERANGE ? "a pulse is longer than the kernel sends (500 ms)"
					: strerror(-ret));
	return ret;
}

/* The kernel sets the protocol's carrier itself: only one the user asked
 * for is set here. */
static int lirc_send_scancode(void *impl, enum ir_protocol protocol, uint64_t scancode,
			      unsigned repeats, const struct ir_tx_carrier *carrier, char *err,
			      size_t err_size)
{
	struct lirc_tx *l = impl;
	const struct ir_protocol_info *info = ir_protocol_get(protocol);
	int ret = set_carrier(l, carrier, false, err, err_size);

	if (ret < 0)
		return ret;
	ret = ir_lirc_tx_send_scancode(l->dev, protocol, scancode, repeats);
	if (ret < 0)
		snprintf(err, err_size, "%s: %s:0x%llx: %s", l->path, info ? info->name : "?",
			 (unsigned long long)scancode,
			 ret == -EPROTONOSUPPORT ? "the kernel has no such protocol"
			 : ret == -EINVAL ? "the kernel refused it (encoder module not loaded, or a "
					    "scancode the protocol cannot carry)"
					  : strerror(-ret));
	return ret;
}

static void lirc_close(void *impl)
{
	struct lirc_tx *l = impl;

	ir_lirc_tx_free(l->dev);
	free(l);
}

static const struct ir_tx_backend ir_tx_backend_lirc = {
	.name = "lirc",
	.summary = "the kernel's LIRC transmitter (/dev/lircN): timings, or scancodes it encodes",
	.open = lirc_open,
	.send = lirc_send,
	.send_scancode = lirc_send_scancode,
	.close = lirc_close,
};

IR_TX_BACKEND_REGISTER(ir_tx_backend_lirc)
