/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_tx_usb.c - the "usb" transmitter: an MCE transceiver sends through the
 * source that holds it (a USB device has one owner), ir_source_transmit().
 */
#include <errno.h>
#include <stdio.h>

#include "ir_source.h"
#include "ir_tx.h"

static int usb_open(const char *device, const struct ir_tx_options *opt, void **impl, char *err,
		    size_t err_size)
{
	(void)device;
	if (!opt->source) {
		snprintf(err, err_size, "usb: no running source to send through");
		return -ENODEV;
	}
	*impl = opt->source;
	return 0;
}

static int usb_send(void *impl, const struct ir_edge *edges, size_t n,
		    const struct ir_tx_carrier *carrier, char *err, size_t err_size)
{
	return ir_source_transmit(impl, edges, n, carrier->hz ? carrier->hz : IR_CARRIER_DEFAULT_HZ,
				  0, err, err_size);
}

static void usb_close(void *impl)
{
	(void)impl; /* the source is its owner's */
}

static const struct ir_tx_backend ir_tx_backend_usb = {
	.name = "usb",
	.summary = "a USB transceiver (MCE), through the running usb: source that holds it",
	.open = usb_open,
	.send = usb_send,
	.close = usb_close,
};

IR_TX_BACKEND_REGISTER(ir_tx_backend_usb)
