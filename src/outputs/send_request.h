/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * send_request.h - a transmit request as it arrives from outside the
 * daemon (an MQTT message today), parsed and bounded before anything acts
 * on it.
 *
 * Accepted forms (surrounding white space ignored):
 *   nec:0x04fb08                       PROTOCOL:SCANCODE (as `irjack send`)
 *   tv KEY_POWER [REPEATS]             REMOTE KEY, as lircd's SEND_ONCE
 *   {"protocol":"nec","scancode":"0x04fb08"}   scancode: number or string
 *   {"remote":"tv","key":"KEY_POWER"}
 *   {"raw":[9000,4500,560,...]}        pulse, space, pulse ... in µs
 * JSON objects may add "repeats" (0..IRJACKD_SEND_REPEATS_MAX), "reply" (a
 * topic for the answer) and "transmitter" (a transmitter's name).  Unknown
 * JSON keys are errors, as in the configuration: a typo must not pass.
 *
 * Whether the remote and key exist is the keymap's business, checked when
 * the request is carried out; everything else is checked here.
 */
#ifndef IRJACK_SEND_REQUEST_H
#define IRJACK_SEND_REQUEST_H

#include <stddef.h>
#include <stdint.h>

#include "ir_protocol.h"

#define IRJACKD_SEND_REQUEST_MAX 4096 /* bytes of payload */
#define IRJACKD_SEND_RAW_MAX 512      /* durations in a raw request */
/* A held key for 5 s of NEC repeat codes (108 ms apart) is ~46 repeats. */
#define IRJACKD_SEND_REPEATS_MAX 50
/* Longer than any protocol's header or frame gap; a longer pulse would
 * only heat the LED. */
#define IRJACKD_SEND_RAW_DURATION_MAX 500000

enum irjackd_send_kind {
	IRJACKD_SEND_SCANCODE,
	IRJACKD_SEND_KEY,
	IRJACKD_SEND_RAW,
};

struct irjackd_send_request {
	enum irjackd_send_kind kind;
	enum ir_protocol protocol; /* SCANCODE */
	uint64_t scancode;         /* SCANCODE, within the protocol's mask */
	char remote[128];          /* KEY */
	char key[64];              /* KEY */
	uint32_t raw[IRJACKD_SEND_RAW_MAX]; /* RAW: pulse, space, ... (µs) */
	size_t raw_count;
	unsigned repeats;
	char reply[256];       /* topic for the answer; empty: the default one */
	char transmitter[64];  /* empty: chosen by remote, else the first */
};

/*
 * Parses `len` bytes of `payload` (not NUL-terminated) into *req.  Returns
 * 0, -EMSGSIZE for a payload over IRJACKD_SEND_REQUEST_MAX bytes, or
 * -EINVAL with a one-line reason in `error`.  Even on -EINVAL, req->reply
 * holds the reply topic when the JSON got far enough to name one, so the
 * error can go where the sender listens.
 */
int irjackd_send_request_parse(const char *payload, size_t len, struct irjackd_send_request *req,
			       char *error, size_t error_size);

#endif
