/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_mceusb_devices.h - which USB devices speak the MCE transceiver
 * protocol, and what each one needs: how it is initialised (generation 1,
 * 2 or 3), whether its transmitter mask is inverted, whether it can
 * transmit at all, which interface carries the IR endpoints.
 *
 * The facts (ids and quirks) are those the kernel's mceusb driver
 * documents; the table is our own.  Pure data and pure functions, no I/O.
 */
#ifndef IRJACK_IR_MCEUSB_DEVICES_H
#define IRJACK_IR_MCEUSB_DEVICES_H

#include <stddef.h>
#include <stdint.h>

/* Quirk bits of a device. */
#define MCE_QUIRK_GEN1 0x0001u          /* first generation: vendor control init, 2-byte 0xB1 0x60 prefix on IN data */
#define MCE_QUIRK_GEN3 0x0002u          /* third generation: no resume/wake-version init */
#define MCE_QUIRK_TX_MASK_NORMAL 0x0004u /* mask bits are the ports as numbered; others invert and shift them */
#define MCE_QUIRK_NO_TX 0x0008u         /* receiver only (no emitter wired or present) */
#define MCE_QUIRK_BROKEN_TIMEOUT 0x0010u /* ignores SETIRTIMEOUT: keep the 100 ms default */
#define MCE_QUIRK_RX2_UNDERCOUNT 0x0020u /* learning receiver misses one carrier cycle per pulse */

struct ir_mceusb_device {
	uint16_t vendor, product;
	uint16_t quirks;          /* MCE_QUIRK_* */
	uint8_t interface;        /* the interface holding the IR endpoints */
	const char *name;
};

/* The entry for (vendor, product), or NULL when it is not an MCE device. */
const struct ir_mceusb_device *ir_mceusb_device_find(uint16_t vendor, uint16_t product);

/* Entries 0 .. ir_mceusb_device_count()-1, for listing. */
size_t ir_mceusb_device_count(void);
const struct ir_mceusb_device *ir_mceusb_device_at(size_t i);

/*
 * The byte for the SETIRTXPORTS command (9F 08 mask) that drives the
 * emitters in `ports` (bit 0 = emitter 1, bit 1 = emitter 2; 0 = all).
 * Most second-generation devices number their ports the other way round
 * and one bit up; the table says which do not.
 */
uint8_t ir_mceusb_tx_mask(const struct ir_mceusb_device *dev, unsigned ports);

/*
 * Appends the OUT commands that bring a device of this kind up after it
 * was claimed: resume and wake-version for generations 1-2, then the
 * queries whose answers the RX parser reads (version, port counts,
 * transmitter mask, receiver timeout, receiver sensor), and a receive
 * timeout when `timeout_us` is non-zero and the device honours it.
 * (Generation 1 also needs vendor control requests first; the USB layer
 * sends those.)  Returns the number of bytes written, or -ENOSPC.
 */
long ir_mceusb_init_commands(const struct ir_mceusb_device *dev, uint32_t timeout_us,
			     uint8_t *out, size_t cap);

/* Length of the host-to-device command starting at `cmd` (`avail` bytes
 * there), as ir_mceusb_init_commands() writes them; 0 if unknown. */
size_t ir_mceusb_command_len(const uint8_t *cmd, size_t avail);

#endif
