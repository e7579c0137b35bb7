/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_imon_panel.c - an iMON display opened on its own with libusb.
 *
 * Packets go to interface 0's interrupt OUT endpoint, or, on receivers
 * without one, as a HID SET_REPORT control request (21 09 0200 0001 0008),
 * as the kernel's imon driver sends them; each is followed by the
 * driver's pause (5 or 20 ms) so that the display keeps up.
 */
#include "ir_imon_panel.h"

#include <errno.h>
#include <libusb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ir_imon.h"

#define FFDC_REPORT_MS 500  /* an 0xffdc reports every few ms, keys or not */
#define OUT_TIMEOUT_MS 1000 /* the kernel driver waits up to 10 s; 1 s is plenty for 8 bytes */

struct ir_imon_panel {
	libusb_context *ctx;
	libusb_device_handle *h;
	uint16_t product;
	uint8_t ep_out;           /* 0: control transfers */
	enum ir_imon_display display;
	bool shown_text;          /* the LCD was started up and shows text */
};

static int from_libusb(int r)
{
	switch (r) {
	case LIBUSB_ERROR_ACCESS: return -EACCES;
	case LIBUSB_ERROR_NO_DEVICE: return -ENODEV;
	case LIBUSB_ERROR_NOT_FOUND: return -ENOENT;
	case LIBUSB_ERROR_BUSY: return -EBUSY;
	case LIBUSB_ERROR_TIMEOUT: return -ETIMEDOUT;
	case LIBUSB_ERROR_NO_MEM: return -ENOMEM;
	default: return -EIO;
	}
}

/* "usb:imon[:BUS:ADDR]", "imon[:BUS:ADDR]" or NULL: bus/addr -1 for any. */
static int parse_device(const char *device, int *bus, int *addr)
{
	unsigned b, a;
	char tail;

	*bus = *addr = -1;
	if (!device)
		return 0;
	if (!strncmp(device, "usb:", 4))
		device += 4;
	if (strncmp(device, "imon", 4))
		return -EINVAL;
	device += 4;
	if (!*device)
		return 0;
	if (sscanf(device, ":%u:%u%c", &b, &a, &tail) != 2 || b > 255 || a > 127)
		return -EINVAL;
	*bus = (int)b;
	*addr = (int)a;
	return 0;
}

/* The first iMON (at bus:addr when given), referenced; NULL if none. */
static libusb_device *find_imon(libusb_context *ctx, int bus, int addr)
{
	libusb_device **list, *found = NULL;
	ssize_t n = libusb_get_device_list(ctx, &list);

	for (ssize_t i = 0; i < n && !found; i++) {
		struct libusb_device_descriptor d;

		if (libusb_get_device_descriptor(list[i], &d) < 0 ||
		    !ir_imon_device_known(d.idVendor, d.idProduct))
			continue;
		if (bus >= 0 && (libusb_get_bus_number(list[i]) != bus ||
				 libusb_get_device_address(list[i]) != addr))
			continue;
		found = libusb_ref_device(list[i]);
	}
	if (n >= 0)
		libusb_free_device_list(list, 1);
	return found;
}

/* Interface 0's first interrupt endpoint of direction `dir_in`, 0 if none. */
static uint8_t find_endpoint(libusb_device *dev, bool dir_in)
{
	struct libusb_config_descriptor *cfg;
	uint8_t found = 0;

	if (libusb_get_active_config_descriptor(dev, &cfg) < 0)
		return 0;
	if (cfg->bNumInterfaces > 0 && cfg->interface[0].num_altsetting > 0) {
		const struct libusb_interface_descriptor *alt = &cfg->interface[0].altsetting[0];

		for (int e = 0; e < alt->bNumEndpoints && !found; e++) {
			const struct libusb_endpoint_descriptor *ep = &alt->endpoint[e];

			if (!!(ep->bEndpointAddress & LIBUSB_ENDPOINT_IN) == dir_in &&
			    (ep->bmAttributes & LIBUSB_TRANSFER_TYPE_MASK) ==
				    LIBUSB_TRANSFER_TYPE_INTERRUPT)
				found = ep->bEndpointAddress;
		}
	}
	libusb_free_config_descriptor(cfg);
	return found;
}

/* A 15c2:ffdc's display, from the configuration byte of the first report
 * it sends (it sends them all the time); the kernel's default, VFD, when
 * none comes within FFDC_REPORT_MS. */
static enum ir_imon_display ffdc_display(struct ir_imon_panel *p, libusb_device *dev)
{
	uint8_t ep_in = find_endpoint(dev, true), report[IMON_PACKET_LEN];
	int got = 0;

	for (int tries = 0; ep_in && tries < 4; tries++) {
		/* a short report (a 5-byte pad move on newer models) has no such byte */
		if (libusb_interrupt_transfer(p->h, ep_in, report, sizeof(report), &got,
					      FFDC_REPORT_MS) < 0)
			break;
		if (got == IMON_PACKET_LEN)
			return ir_imon_ffdc_display(report[IMON_FFDC_CONFIG_BYTE]);
	}
	return IR_IMON_DISPLAY_VFD;
}

static int claim(struct ir_imon_panel *p, libusb_device *dev, bool detach_kernel, char *err,
		 size_t err_size)
{
	int r = libusb_open(dev, &p->h);

	if (r < 0) {
		snprintf(err, err_size, "cannot open /dev/bus/usb/%03u/%03u: %s%s",
			 libusb_get_bus_number(dev), libusb_get_device_address(dev),
			 libusb_strerror(r), r == LIBUSB_ERROR_ACCESS ? " (see config/60-irjack.rules)" : "");
		p->h = NULL;
		return from_libusb(r);
	}
	if (detach_kernel) {
		libusb_set_auto_detach_kernel_driver(p->h, 1);
	} else if (libusb_kernel_driver_active(p->h, 0) == 1) {
		snprintf(err, err_size, "the kernel's imon driver holds 15c2:%04x (use --detach-kernel "
			 "to take it over, or write to its /dev/lcd0)", p->product);
		return -EBUSY;
	}
	r = libusb_claim_interface(p->h, 0);
	if (r < 0) {
		snprintf(err, err_size, "cannot claim 15c2:%04x: %s%s", p->product, libusb_strerror(r),
			 r == LIBUSB_ERROR_BUSY ? " (irjackd may hold it: use irjack display "
						  "--socket, or stop it)" : "");
		return from_libusb(r);
	}
	p->ep_out = find_endpoint(dev, false);
	return 0;
}

int ir_imon_panel_open(const char *device, enum ir_imon_display display, bool detach_kernel,
		       struct ir_imon_panel **out, char *err, size_t err_size)
{
	struct ir_imon_panel *p;
	struct libusb_device_descriptor d;
	libusb_device *dev;
	int bus, addr, r;

	*out = NULL;
	if (parse_device(device, &bus, &addr) < 0) {
		snprintf(err, err_size, "%s: expected usb:imon or usb:imon:BUS:ADDR", device);
		return -EINVAL;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	r = libusb_init(&p->ctx);
	if (r < 0) {
		snprintf(err, err_size, "libusb: %s", libusb_strerror(r));
		free(p);
		return from_libusb(r);
	}
	dev = find_imon(p->ctx, bus, addr);
	if (!dev) {
		snprintf(err, err_size, "no iMON receiver found%s", bus >= 0 ? " at that address" : "");
		ir_imon_panel_close(p);
		return -ENOENT;
	}
	libusb_get_device_descriptor(dev, &d);
	p->product = d.idProduct;
	p->display = display != IR_IMON_DISPLAY_NONE ? display : ir_imon_display_for(d.idProduct);
	r = p->display == IR_IMON_DISPLAY_NONE ? -ENODEV : claim(p, dev, detach_kernel, err, err_size);
	/* one id, many models: the receiver's own report says which */
	if (r == 0 && display == IR_IMON_DISPLAY_NONE && d.idProduct == 0xffdc)
		p->display = ffdc_display(p, dev);
	if (p->display == IR_IMON_DISPLAY_NONE) {
		snprintf(err, err_size, "15c2:%04x has no VFD or LCD (name one with --type if it does)",
			 d.idProduct);
		r = -ENODEV;
	}
	libusb_unref_device(dev);
	if (r < 0) {
		ir_imon_panel_close(p);
		return r;
	}
	*out = p;
	return 0;
}

enum ir_imon_display ir_imon_panel_display(const struct ir_imon_panel *p)
{
	return p->display;
}

uint16_t ir_imon_panel_product(const struct ir_imon_panel *p)
{
	return p->product;
}

static int send_packet(struct ir_imon_panel *p, const uint8_t pkt[IMON_PACKET_LEN])
{
	int r, sent = 0;
	unsigned delay = ir_imon_display_delay_ms(p->product);
	struct timespec pause = { 0, (long)delay * 1000000L };

	if (p->ep_out)
		r = libusb_interrupt_transfer(p->h, p->ep_out, (uint8_t *)pkt, IMON_PACKET_LEN, &sent,
					      OUT_TIMEOUT_MS);
	else
		r = libusb_control_transfer(p->h, LIBUSB_ENDPOINT_OUT | LIBUSB_REQUEST_TYPE_CLASS |
						  LIBUSB_RECIPIENT_INTERFACE,
					    0x09, 0x0200, 0x0001, (uint8_t *)pkt, IMON_PACKET_LEN,
					    OUT_TIMEOUT_MS);
	nanosleep(&pause, NULL);
	return r < 0 ? from_libusb(r) : 0;
}

int ir_imon_panel_show(struct ir_imon_panel *p, const struct ir_imon_screen *s, char *err,
		       size_t err_size)
{
	struct ir_imon_packets pk;
	time_t now = time(NULL);
	struct tm tm;
	int r;

	localtime_r(&now, &tm);
	r = ir_imon_screen_packets(p->display, p->product, s, !p->shown_text, &tm, &pk);
	if (r < 0) {
		snprintf(err, err_size, "%s", r == -EINVAL ? "a VFD takes 1 to 32 bytes per write, an "
							     "LCD one 8-byte packet"
							   : "no display");
		return r;
	}
	for (size_t i = 0; i < pk.n; i++) {
		r = send_packet(p, pk.pkt[i]);
		if (r < 0) {
			snprintf(err, err_size, "packet %zu of %zu not sent: %s", i + 1, pk.n,
				 strerror(-r));
			return r;
		}
	}
	p->shown_text = s->kind == IR_IMON_SCREEN_TEXT;
	return 0;
}

void ir_imon_panel_close(struct ir_imon_panel *p)
{
	if (!p)
		return;
	if (p->h) {
		libusb_release_interface(p->h, 0);
		libusb_close(p->h);
	}
	if (p->ctx)
		libusb_exit(p->ctx);
	free(p);
}
