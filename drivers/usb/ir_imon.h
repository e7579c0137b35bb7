/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_imon.h - SoundGraph iMON receivers that decode on board: which USB ids
 * they have, and what their key packets mean.
 *
 * These receivers (15c2:ffdc and 15c2:0034..0046) decode the remote
 * themselves and send 4-, 5- or 8-byte interrupt packets: iMON PAD codes
 * (protocol "imon", the scancodes of the rc_keymaps imon_pad map), or, when
 * switched to MCE mode, RC-6 MCE codes.  Front-panel buttons and knobs come
 * as 8-byte packets ending in 0xEE.  Pure code, no I/O.
 */
#ifndef IRJACK_IR_IMON_H
#define IRJACK_IR_IMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir_edge.h"
#include "ir_protocol.h"

#define IMON_VENDOR 0x15c2
#define IMON_PRODUCT_FFDC 0xffdc /* the old id shared by many variants */

/* True for the ids of on-board-decoding iMON receivers. */
bool ir_imon_device_known(uint16_t vendor, uint16_t product);

/* The 8-byte OUT packet that selects the receiver's protocol
 * (IR_PROTO_IMON or IR_PROTO_RC6_MCE); returns -EINVAL for others. */
int ir_imon_protocol_packet(enum ir_protocol protocol, uint8_t out[8]);

/* The 8-byte OUT packet that turns front-panel buttons and knobs on. */
void ir_imon_panel_packet(uint8_t out[8]);

enum ir_imon_key_kind {
	IR_IMON_NONE,      /* nothing to report (idle chatter, pad dead zone, association) */
	IR_IMON_PRESS,     /* a remote key press (or its auto-repeat) */
	IR_IMON_RELEASE,   /* the remote key went up */
	IR_IMON_PANEL,     /* a front-panel button or knob step (no release follows) */
};

struct ir_imon_key {
	enum ir_imon_key_kind kind;
	enum ir_protocol protocol; /* IR_PROTO_IMON or IR_PROTO_RC6_MCE (panel: IR_PROTO_OTHER) */
	uint64_t scancode;         /* press/release: the key; panel: the 64-bit packet */
	bool toggle;               /* RC6_MCE: the remote's toggle bit */
};

struct ir_imon_parser {
	uint16_t product;          /* 0xffdc packs pad moves differently */
	enum ir_protocol protocol; /* what the receiver was set to decode */
	uint64_t last_scancode;    /* for releases that do not name their key */
};

/* Prepares a parser for a receiver with USB product id `product`,
 * decoding `protocol` (IR_PROTO_IMON or IR_PROTO_RC6_MCE). */
void ir_imon_parser_init(struct ir_imon_parser *p, uint16_t product, enum ir_protocol protocol);

/*
 * Reads one IN packet of `len` bytes.  Returns 0 and fills *key (kind
 * IR_IMON_NONE when there is nothing to report), or -EINVAL for a packet
 * of a length no iMON sends (anything but 4, 5 or 8 bytes).
 *
 * iMON codes are the packet's first four bytes, big-endian.  Codes ending
 * in 0xB7 with bit 14 set are the release of the same code without it;
 * 0x02000000 releases the last 0x02xxxxxx key.  The pad's moves become the
 * four arrow codes (0x01008000 up, 0x01007f00 down, 0x01000080 left,
 * 0x0100007f right) by their larger axis, as the kernel maps them when
 * its stabiliser is off.  MCE codes (first byte 0x80) are reported in
 * rc-core's RC6_MCE layout (0x800f04xx) with the toggle bit (0x8000) in
 * `toggle`: the receiver also sets bits 0x7000 on some firmware, which the
 * kernel's imon_mce map matches as 0x800ff4xx; dropping them lets the
 * rc6_mce map of an MCE transceiver serve an iMON receiver too.
 */
int ir_imon_parse(struct ir_imon_parser *p, const uint8_t *pkt, size_t len,
		  struct ir_imon_key *key);

/*
 * The first iMON receivers (04e8:ff30, "iMON Station", the kernel's
 * imon_raw driver) do not decode: they sample the receiver's output every
 * 250 µs and send 8-byte interrupt packets.  Bytes 0..4 are 40 samples,
 * most significant bit of byte 0 first, 0 = pulse (light), 1 = space; the
 * last byte numbers the packet 1..10 within a burst (0xff: no data), and
 * packet 10 ends the burst.  Samples of one level are one run even across
 * packets.
 */
#define IMON_RAW_VENDOR 0x04e8
#define IMON_RAW_PRODUCT 0xff30
#define IMON_RAW_SAMPLE_US 250
#define IMON_RAW_PACKET_LEN 8
/* At most this many edges come out of one packet (40 runs, the open
 * pulse, a timeout). */
#define IMON_RAW_MAX_EDGES 42

/* True for the ids of raw-sampling iMON receivers. */
bool ir_imon_raw_device_known(uint16_t vendor, uint16_t product);

struct ir_imon_raw {
	bool in_frame;   /* a pulse was seen since the last burst end */
	bool run_pulse;  /* the level of the run being measured */
	uint32_t run_us; /* its length so far */
};

/* Prepares a parser: idle, waiting for the first pulse. */
void ir_imon_raw_init(struct ir_imon_raw *r);

/*
 * Reads one IN packet.  Writes the runs it completes as edges to out[]
 * (room for IMON_RAW_MAX_EDGES), starting with a pulse: spaces before the
 * first pulse of a burst are idle line, not timing.  The burst's last
 * packet (10) ends the frame: the run in progress is written, then an
 * IR_TIMEOUT edge.  Returns the number of edges, or -EINVAL for a packet
 * that is not 8 bytes long.
 */
int ir_imon_raw_feed(struct ir_imon_raw *r, const uint8_t *pkt, size_t len, struct ir_edge *out);

#endif
