/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_imon.c - key packets of iMON receivers that decode on board (packet
 * layouts as the kernel's imon driver documents them).
 */
#include "ir_imon.h"

#include <errno.h>
#include <string.h>

/* Arrow codes the imon_pad map binds to the pad's four directions. */
#define IMON_PAD_UP 0x01008000u
#define IMON_PAD_DOWN 0x01007f00u
#define IMON_PAD_LEFT 0x01000080u
#define IMON_PAD_RIGHT 0x0100007fu

/* Codes ending in 0xB7 are remote keys; bit 14 set marks the release. */
#define IMON_KEY_SUFFIX 0xb7u
#define IMON_RELEASE_BIT 0x4000u

/* RC6 MCE codes: first byte 0x80; the toggle is bit 15; some firmware also
 * sets bits 12-14, which rc-core's RC6_MCE layout keeps clear. */
#define IMON_MCE_LEAD 0x80u
#define IMON_MCE_TOGGLE 0x8000u
#define IMON_MCE_FIRMWARE_BITS 0x7000u

#define IMON_PANEL_SUFFIX 0xeeu
#define IMON_TOUCH_SUFFIX 0x86u

bool ir_imon_device_known(uint16_t vendor, uint16_t product)
{
	return vendor == IMON_VENDOR &&
	       (product == IMON_PRODUCT_FFDC || (product >= 0x0034 && product <= 0x0046));
}

int ir_imon_protocol_packet(enum ir_protocol protocol, uint8_t out[8])
{
	memset(out, 0, 8);
	out[7] = 0x86;
	if (protocol == IR_PROTO_RC6_MCE)
		out[0] = 0x01;
	else if (protocol != IR_PROTO_IMON)
		return -EINVAL;
	return 0;
}

void ir_imon_panel_packet(uint8_t out[8])
{
	memset(out, 0, 8);
	out[0] = 0x40;
	out[7] = 0x88;
}

void ir_imon_parser_init(struct ir_imon_parser *p, uint16_t product, enum ir_protocol protocol)
{
	memset(p, 0, sizeof(*p));
	p->product = product;
	p->protocol = protocol == IR_PROTO_RC6_MCE ? IR_PROTO_RC6_MCE : IR_PROTO_IMON;
}

static uint32_t be32(const uint8_t *b)
{
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

/* 0xffdc receivers give each pad axis as four magnitude bits in reversed
 * order (bits 3..6 of the byte) and the sign in byte 0. */
static int ffdc_axis(uint8_t b, bool negative)
{
	int v = (b & 0x08) | (b & 0x10) >> 2 | (b & 0x20) >> 4 | (b & 0x40) >> 6;

	return negative ? v - 16 : v;
}

static uint32_t pad_direction(int x, int y)
{
	int ax = x < 0 ? -x : x, ay = y < 0 ? -y : y;

	if (ay > ax)
		return y > 0 ? IMON_PAD_DOWN : IMON_PAD_UP;
	return x > 0 ? IMON_PAD_RIGHT : IMON_PAD_LEFT;
}

static void report(struct ir_imon_parser *p, struct ir_imon_key *key, enum ir_imon_key_kind kind,
		   enum ir_protocol protocol, uint64_t scancode)
{
	key->kind = kind;
	key->protocol = protocol;
	key->scancode = scancode;
	if (kind == IR_IMON_PRESS)
		p->last_scancode = scancode;
}

int ir_imon_parse(struct ir_imon_parser *p, const uint8_t *pkt, size_t len,
		  struct ir_imon_key *key)
{
	uint32_t code;

	memset(key, 0, sizeof(*key));
	key->kind = IR_IMON_NONE;
	key->protocol = p->protocol;
	if (len != 4 && len != 5 && len != 8)
		return -EINVAL;
	/* 0xffdc receivers chatter ff ff ff ... when idle */
	if (pkt[0] == 0xff && pkt[1] == 0xff && pkt[2] == 0xff)
		return 0;
	if (len == 8 && pkt[7] == IMON_PANEL_SUFFIX) {
		uint64_t panel = 0;

		for (int i = 0; i < 8; i++)
			panel = panel << 8 | pkt[i];
		report(p, key, IR_IMON_PANEL, IR_PROTO_OTHER, panel);
		return 0;
	}
	if (len == 8 && pkt[7] == IMON_TOUCH_SUFFIX)
		return 0; /* touchscreen position, not a key */
	if (len == 8 && pkt[0] == 0x00 && pkt[2] == 0xff && pkt[3] == 0xff && pkt[4] == 0xff &&
	    pkt[5] == 0xff)
		return 0; /* 2.4 GHz remote association report */
	code = be32(pkt);

	if (p->protocol == IR_PROTO_RC6_MCE && pkt[0] == IMON_MCE_LEAD) {
		key->toggle = (code & IMON_MCE_TOGGLE) != 0;
		report(p, key, IR_IMON_PRESS, IR_PROTO_RC6_MCE,
		       code & ~(uint32_t)(IMON_MCE_TOGGLE | IMON_MCE_FIRMWARE_BITS));
		return 0;
	}

	/* the pad: newer receivers send 5 bytes, x and y signed in bytes 2-3;
	 * 0xffdc ones 8 bytes with bit 6 of byte 0 set */
	if (len == 5 && pkt[0] == 0x01 && pkt[4] == 0x00) {
		if (pkt[1] != 0) /* a pad button (mouse left/right) */
			report(p, key, IR_IMON_PRESS, IR_PROTO_IMON, code);
		else if (pkt[2] || pkt[3])
			report(p, key, IR_IMON_PRESS, IR_PROTO_IMON,
			       pad_direction((int8_t)pkt[2], (int8_t)pkt[3]));
		return 0;
	}
	if (p->product == IMON_PRODUCT_FFDC && len == 8 && (pkt[0] & 0x40) &&
	    !(pkt[1] & 0x01) && !(pkt[1] & 0x04)) {
		int x = ffdc_axis(pkt[1], pkt[0] & 0x02), y = ffdc_axis(pkt[2], pkt[0] & 0x01);

		if (x || y)
			report(p, key, IR_IMON_PRESS, IR_PROTO_IMON, pad_direction(x, y));
		return 0;
	}

	/* releases that do not name their key */
	if ((pkt[0] == 0x02 && pkt[3] == 0x00 && pkt[1] != 0x80) ||
	    code == 0x688281b7u || code == 0x010081b7u) {
		if (p->last_scancode)
			report(p, key, IR_IMON_RELEASE, IR_PROTO_IMON, p->last_scancode);
		return 0;
	}
	if ((code & 0xff) == IMON_KEY_SUFFIX && (code & IMON_RELEASE_BIT)) {
		report(p, key, IR_IMON_RELEASE, IR_PROTO_IMON, code & ~IMON_RELEASE_BIT);
		return 0;
	}
	if (code)
		report(p, key, IR_IMON_PRESS, IR_PROTO_IMON, code);
	return 0;
}

/* ---- the raw-sampling receivers (04e8:ff30) ---- */

bool ir_imon_raw_device_known(uint16_t vendor, uint16_t product)
{
	return vendor == IMON_RAW_VENDOR && product == IMON_RAW_PRODUCT;
}

void ir_imon_raw_init(struct ir_imon_raw *r)
{
	memset(r, 0, sizeof(*r));
}

int ir_imon_raw_feed(struct ir_imon_raw *r, const uint8_t *pkt, size_t len, struct ir_edge *out)
{
	uint8_t packet_no;
	int n = 0;

	if (len != IMON_RAW_PACKET_LEN)
		return -EINVAL;
	packet_no = pkt[7];
	if (packet_no == 0xff)
		return 0;
	for (unsigned bit = 0; bit < 40; bit++) {
		bool pulse = !(pkt[bit / 8] & (0x80u >> (bit % 8)));

		if (!r->in_frame) {
			if (!pulse)
				continue; /* idle line before the first pulse */
			r->in_frame = true;
			r->run_pulse = true;
			r->run_us = 0;
		}
		if (pulse != r->run_pulse) {
			out[n++] = r->run_pulse ? ir_pulse(r->run_us) : ir_space(r->run_us);
			r->run_pulse = pulse;
			r->run_us = 0;
		}
		r->run_us += IMON_RAW_SAMPLE_US;
	}
	if (packet_no == 10 && r->in_frame) {
		/* the burst is over: a pulse still open ends here; a space
		 * in progress is the start of the idle line */
		if (r->run_pulse) {
			out[n++] = ir_pulse(r->run_us);
			r->run_us = 0;
		}
		out[n++] = (struct ir_edge){ .kind = IR_TIMEOUT, .duration = r->run_us };
		r->in_frame = false;
		r->run_us = 0;
	}
	return n;
}
