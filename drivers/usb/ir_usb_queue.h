/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_usb_queue.h - the single-producer single-consumer queue between a USB
 * source's libusb event thread (producer: edges it parsed, keys a receiver
 * decoded, unplug and replug) and the thread that dispatches the source
 * (consumer).  Lock-free: one atomic index per side, so neither side ever
 * waits for the other, and a full queue drops data rather than blocking
 * the USB thread.
 */
#ifndef IRJACK_IR_USB_QUEUE_H
#define IRJACK_IR_USB_QUEUE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir_edge.h"

enum ir_usb_item_kind {
	IR_USB_ITEM_EDGE,   /* `edge` */
	IR_USB_ITEM_KEY,    /* a key the receiver decoded: `protocol`, `scancode`, `toggle` */
	IR_USB_ITEM_GONE,   /* the device vanished */
	IR_USB_ITEM_BACK,   /* the device is open again */
};

struct ir_usb_item {
	uint8_t kind;       /* enum ir_usb_item_kind */
	bool toggle;
	uint16_t protocol;  /* enum ir_protocol */
	struct ir_edge edge;
	uint64_t scancode;
	uint64_t time_us;   /* KEY: when it arrived (monotonic) */
};

/* Slots kept free for GONE/BACK: data stops being queued before they run
 * out, so a state change is never lost to a consumer that fell behind. */
#define IR_USB_QUEUE_RESERVE 4u

struct ir_usb_queue {
	_Atomic size_t head; /* next slot the producer writes */
	_Atomic size_t tail; /* next slot the consumer reads */
	size_t mask;
	struct ir_usb_item *items;
};

/* Allocates `capacity` slots (rounded up to a power of two, at least 16).
 * Returns 0 or -ENOMEM; free with ir_usb_queue_free(). */
int ir_usb_queue_init(struct ir_usb_queue *q, size_t capacity);
void ir_usb_queue_free(struct ir_usb_queue *q);

/* Producer: queues `item`.  Edges and keys are refused (false) when only
 * the reserve is left; GONE and BACK only when the queue is truly full. */
bool ir_usb_queue_push(struct ir_usb_queue *q, const struct ir_usb_item *item);

/* Consumer: takes the oldest item.  False when empty. */
bool ir_usb_queue_pop(struct ir_usb_queue *q, struct ir_usb_item *item);

#endif
