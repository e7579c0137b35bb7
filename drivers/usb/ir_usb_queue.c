/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "ir_usb_queue.h"

#include <errno.h>
#include <stdlib.h>

int ir_usb_queue_init(struct ir_usb_queue *q, size_t capacity)
{
	size_t n = 16;

	while (n < capacity)
		n <<= 1;
	q->items = calloc(n, sizeof(*q->items));
	if (!q->items)
		return -ENOMEM;
	q->mask = n - 1;
	atomic_init(&q->head, 0);
	atomic_init(&q->tail, 0);
	return 0;
}

void ir_usb_queue_free(struct ir_usb_queue *q)
{
	free(q->items);
	q->items = NULL;
}

bool ir_usb_queue_push(struct ir_usb_queue *q, const struct ir_usb_item *item)
{
	size_t head = atomic_load_explicit(&q->head, memory_order_relaxed);
	size_t tail = atomic_load_explicit(&q->tail, memory_order_acquire);
	size_t used = head - tail;
	size_t room = q->mask + 1 - used;
	bool control = item->kind == IR_USB_ITEM_GONE || item->kind == IR_USB_ITEM_BACK;

	if (room == 0 || (!control && room <= IR_USB_QUEUE_RESERVE))
		return false;
	q->items[head & q->mask] = *item;
	/* release: the item is written before the consumer can see it */
	atomic_store_explicit(&q->head, head + 1, memory_order_release);
	return true;
}

bool ir_usb_queue_pop(struct ir_usb_queue *q, struct ir_usb_item *item)
{
	size_t tail = atomic_load_explicit(&q->tail, memory_order_relaxed);
	size_t head = atomic_load_explicit(&q->head, memory_order_acquire);

	if (tail == head)
		return false;
	*item = q->items[tail & q->mask];
	/* release: the slot is read before the producer may reuse it */
	atomic_store_explicit(&q->tail, tail + 1, memory_order_release);
	return true;
}
