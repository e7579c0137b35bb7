/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_mceusb.h - codec for the Microsoft MCE USB IR transceiver byte stream.
 *
 * Pure code, no I/O: the RX parser turns the bytes of any sequence of USB
 * transfers into edges, the TX builder turns edges into the packets the
 * device plays.  Written from the documented format (see
 * ../shared/notes/rc-core-facts.md), not from the kernel driver.
 */
#ifndef IRJACK_IR_MCEUSB_H
#define IRJACK_IR_MCEUSB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir_edge.h"

/* One sample byte is 50 µs units; 7 bits of length, so at most 127 units. */
#define MCE_UNIT_US 50u
#define MCE_SAMPLE_MAX 127u
#define MCE_PACKET_MAX_SAMPLES 30u

struct ir_mceusb_rx;

/* Creates an RX parser.  Returns 0 and sets *out (owned by the caller, free
 * with ir_mceusb_rx_free()) or -ENOMEM. */
int ir_mceusb_rx_new(struct ir_mceusb_rx **out);
void ir_mceusb_rx_free(struct ir_mceusb_rx *rx);

/* Parses `len` bytes of one USB transfer; packets may span transfers.  Edges
 * whose run is complete are appended to `out` (consecutive samples of one
 * level are merged; the last run is held back until the level changes or a
 * timeout packet ends the burst).  Command responses are skipped (each by
 * its documented length); a carrier cycle count from the learning receiver
 * (9F 15) becomes an IR_CARRIER edge, a timeout report (9F 0C) and the
 * transmit carrier (9F 06) are remembered (ir_mceusb_rx_timeout_us(),
 * ir_mceusb_rx_tx_carrier_hz()).  Returns 0 or -ENOMEM; garbage
 * never fails, it is skipped. */
int ir_mceusb_rx_feed(struct ir_mceusb_rx *rx, const uint8_t *data, size_t len,
		      struct ir_edge_buf *out);

/* Last timeout the device reported, µs (0 = none seen). */
uint32_t ir_mceusb_rx_timeout_us(const struct ir_mceusb_rx *rx);

/* Last transmit carrier the device reported (9F 06), Hz (0 = none seen). */
uint32_t ir_mceusb_rx_tx_carrier_hz(const struct ir_mceusb_rx *rx);

/* Devices whose learning receiver misses one carrier cycle per pulse
 * (most of them: MCE_QUIRK_RX2_UNDERCOUNT) get that cycle added back. */
void ir_mceusb_rx_set_undercount(struct ir_mceusb_rx *rx, bool undercount);

/* Appends the TX packets for `edges` (pulses and spaces; other kinds are
 * ignored) to `out` (caller-allocated, `cap` bytes): the 9F 08 mask header,
 * data packets of at most 30 samples (durations rounded to 50 µs and split
 * at 127 units), and the trailing 0x80.  Returns the number of bytes
 * written, or -ENOSPC, -EINVAL (a duration over IR_DURATION_MAX). */
long ir_mceusb_tx_build(const struct ir_edge *edges, size_t n, uint8_t mask, uint8_t *out,
			size_t cap);

/* The device takes at most this many bytes per OUT write. */
#define MCE_TX_WRITE_MAX 128u

/*
 * Cuts a stream from ir_mceusb_tx_build() into USB writes: the 3-byte mask
 * command alone, then as many whole data packets as fit in `max_write`
 * bytes each (a packet is never split, so the device never sees half a
 * header), the trailing 0x80 riding with the last one.  Stores the end
 * offset of each write in `ends` (at most `max_ends`).  Returns the number
 * of writes, -EINVAL for a stream that is not the builder's, or -ENOSPC.
 */
long ir_mceusb_tx_split(const uint8_t *stream, size_t len, size_t max_write, size_t *ends,
			size_t max_ends);

/* Writes the 4-byte carrier command (9F 06 prescaler divisor) for `hz`
 * (0 = unmodulated).  Returns 4, or -EINVAL for a carrier out of range. */
int ir_mceusb_carrier_cmd(uint32_t hz, uint8_t out[4]);

/* Carrier the device would play for (prescaler, divisor), Hz. */
uint32_t ir_mceusb_carrier_hz(uint8_t prescaler, uint8_t divisor);

#endif
