/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_imon_panel.h - an iMON receiver's front-panel display opened on its
 * own (libusb-1.0, synchronous), for `irjack display` when no irjackd
 * holds the receiver.  irjackd shows screens through the receiver it
 * already reads (ir_source_display()).
 */
#ifndef IRJACK_IR_IMON_PANEL_H
#define IRJACK_IR_IMON_PANEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir_imon_display.h"

struct ir_imon_panel;

/*
 * Opens the display of the iMON receiver `device` ("usb:imon",
 * "usb:imon:BUS:ADDR", "imon..." or NULL: the first iMON found) and claims
 * its interface 0 (taking it from the kernel's imon driver only with
 * `detach_kernel`).  `display`: IR_IMON_DISPLAY_NONE to take the kind
 * from the product id (a 15c2:ffdc: from the configuration byte of the
 * first report it sends, ir_imon_ffdc_display()), else the kind to drive.
 * Returns 0 and *out (close with ir_imon_panel_close()), or a negative errno with `err` filled:
 * -ENOENT (no such receiver), -ENODEV (it has no display), -EBUSY,
 * -EACCES, -EINVAL (bad device name).
 */
int ir_imon_panel_open(const char *device, enum ir_imon_display display, bool detach_kernel,
		       struct ir_imon_panel **out, char *err, size_t err_size);

/* The display kind and the receiver's USB product id. */
enum ir_imon_display ir_imon_panel_display(const struct ir_imon_panel *p);
uint16_t ir_imon_panel_product(const struct ir_imon_panel *p);

/* Sends the packets of `s` (the LCD's start-up sequence first, on the
 * first screen) with the kernel driver's spacing.  Returns 0, or a
 * negative errno with `err` filled. */
int ir_imon_panel_show(struct ir_imon_panel *p, const struct ir_imon_screen *s, char *err,
		       size_t err_size);

/* Releases the interface and closes the device (NULL is fine). */
void ir_imon_panel_close(struct ir_imon_panel *p);

#endif
