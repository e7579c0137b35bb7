/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: transmit requests as they arrive from the MQTT broker
 * (anyone who may publish to PREFIX/send writes these bytes).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "send_request.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct irjackd_send_request req;
	char error[256];

	if (irjackd_send_request_parse((const char *)data, size, &req, error, sizeof(error)) == 0) {
		/* what was accepted is within its documented bounds */
		if (req.raw_count > IRJACKD_SEND_RAW_MAX || req.repeats > IRJACKD_SEND_REPEATS_MAX ||
		    !memchr(req.remote, 0, sizeof(req.remote)) || !memchr(req.key, 0, sizeof(req.key)) ||
		    !memchr(req.reply, 0, sizeof(req.reply)))
			__builtin_trap();
	} else if (!memchr(error, 0, sizeof(error)) || !error[0]) {
		__builtin_trap(); /* every refusal says why */
	}
	return 0;
}
