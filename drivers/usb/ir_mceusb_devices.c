/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_mceusb_devices.c - the MCE transceivers irjack drives, with their
 * quirks (ids and quirks as the kernel's mceusb driver lists them).
 */
#include "ir_mceusb_devices.h"
#include "ir_util.h"

#include <errno.h>
#include <string.h>

/* The kinds of device, as quirk sets. */
#define GEN1 (MCE_QUIRK_GEN1 | MCE_QUIRK_TX_MASK_NORMAL | MCE_QUIRK_RX2_UNDERCOUNT)
#define GEN2 MCE_QUIRK_RX2_UNDERCOUNT
#define GEN2_NO_TX MCE_QUIRK_NO_TX
/* "TX_INV" in the kernel's naming: these number their ports normally. */
#define GEN2_MASK_NORMAL MCE_QUIRK_TX_MASK_NORMAL
#define GEN2_MASK_NORMAL_RX2 (MCE_QUIRK_TX_MASK_NORMAL | MCE_QUIRK_RX2_UNDERCOUNT)
#define GEN3 (MCE_QUIRK_GEN3 | MCE_QUIRK_TX_MASK_NORMAL | MCE_QUIRK_RX2_UNDERCOUNT)
#define GEN3_BROKEN_TIMEOUT (GEN3 | MCE_QUIRK_BROKEN_TIMEOUT)
#define TV_TUNER_RX_ONLY MCE_QUIRK_NO_TX

static const struct ir_mceusb_device devices[] = {
	{ 0x045e, 0x006d, GEN1, 0, "Microsoft MCE IR Transceiver (1st generation)" },
	{ 0x045e, 0x00a0, GEN2, 0, "Microsoft MCE IR Transceiver" },
	{ 0x0471, 0x0608, GEN2, 0, "Philips IR Transceiver (Sahara)" },
	{ 0x0471, 0x060c, GEN2_MASK_NORMAL, 0, "Philips IR Transceiver (HP)" },
	{ 0x0471, 0x060d, GEN2, 0, "Philips SRM5100" },
	{ 0x0471, 0x060f, GEN2, 0, "Philips IR Transceiver (Omaura)" },
	{ 0x0471, 0x0613, GEN2, 0, "Philips IR Transceiver (Spinel plus)" },
	{ 0x0471, 0x0815, GEN2, 0, "Philips eHome Infrared Transceiver" },
	{ 0x0471, 0x206c, GEN2, 0, "Philips/Spinel plus IR Transceiver (ASUS)" },
	{ 0x0471, 0x2088, GEN2, 0, "Philips/Spinel plus IR Transceiver (ASUS)" },
	{ 0x0471, 0x2093, GEN2_MASK_NORMAL, 0, "Philips IR Transceiver (Dell)" },
	{ 0x0bda, 0x0161, GEN2, 2, "Realtek MCE IR Receiver and card reader" },
	{ 0x0609, 0x031d, GEN2_MASK_NORMAL_RX2, 0, "SMK/Toshiba G83C0004D410" },
	{ 0x0609, 0x0322, GEN2_MASK_NORMAL, 0, "SMK eHome Infrared Transceiver (Sony VAIO)" },
	{ 0x0609, 0x0334, GEN2_MASK_NORMAL, 0, "SMK eHome Infrared Transceiver (Hauppauge PVR-150)" },
	{ 0x0609, 0x0338, GEN2, 0, "SMK eHome Infrared Transceiver" },
	{ 0x0609, 0x0353, GEN2_NO_TX, 0, "SMK/I-O Data GV-MC7/RCKIT Receiver" },
	{ 0x0609, 0x0357, GEN2_NO_TX, 0, "SMK RXX6000 Infrared Receiver" },
	{ 0x1460, 0x9150, GEN2, 0, "Tatung eHome Infrared Transceiver" },
	{ 0x1308, 0xc001, GEN2, 0, "Shuttle eHome Infrared Transceiver" },
	{ 0x051c, 0xc001, GEN2, 0, "Shuttle eHome Infrared Transceiver" },
	{ 0x107b, 0x3009, GEN2, 0, "Gateway eHome Infrared Transceiver" },
	{ 0x03ee, 0x2501, GEN2, 0, "Mitsumi eHome Infrared Transceiver" },
	{ 0x1784, 0x0001, GEN2_MASK_NORMAL, 0, "Topseed eHome Infrared Transceiver" },
	{ 0x1784, 0x0006, GEN2_MASK_NORMAL, 0, "Topseed HP eHome Infrared Transceiver" },
	{ 0x1784, 0x0007, GEN2_MASK_NORMAL, 0, "Topseed eHome Infrared Transceiver" },
	{ 0x1784, 0x0008, GEN3, 0, "Topseed eHome Infrared Transceiver (3rd generation)" },
	{ 0x1784, 0x000a, GEN2_MASK_NORMAL, 0, "Topseed eHome Infrared Transceiver" },
	{ 0x1784, 0x0011, GEN3_BROKEN_TIMEOUT, 0, "Topseed eHome Infrared Transceiver (3rd generation)" },
	{ 0x179d, 0x0010, GEN2, 0, "Ricavision internal Infrared Transceiver" },
	{ 0x195d, 0x7002, GEN2, 0, "Itron ione Libra Q-11" },
	{ 0x1509, 0x9242, GEN2, 0, "FIC eHome Infrared Transceiver" },
	{ 0x043e, 0x9803, GEN2, 0, "LG eHome Infrared Transceiver" },
	{ 0x147a, 0xe015, GEN2, 0, "Formosa eHome Infrared Transceiver" },
	{ 0x147a, 0xe016, GEN2, 0, "Formosa21 eHome Infrared Receiver" },
	{ 0x147a, 0xe017, GEN2_NO_TX, 0, "Formosa aim / Trust MCE Infrared Receiver" },
	{ 0x147a, 0xe018, GEN2, 0, "Formosa Beanbag Emulation Device" },
	{ 0x147a, 0xe03a, GEN2, 0, "Formosa21 eHome Infrared Receiver" },
	{ 0x147a, 0xe03c, GEN2, 0, "Formosa AIM IR605/A" },
	{ 0x147a, 0xe03e, GEN2, 0, "Formosa Industrial Computing" },
	{ 0x147a, 0xe042, GEN2, 0, "Formosa Industrial Computing" },
	{ 0x1934, 0x5168, GEN2_MASK_NORMAL, 0, "Fintek eHome Infrared Transceiver (HP)" },
	{ 0x1934, 0x0602, GEN2, 0, "Fintek eHome Infrared Transceiver" },
	{ 0x1934, 0x0702, GEN2, 0, "Fintek eHome Infrared Transceiver (AOpen MP45)" },
	{ 0x2304, 0x0225, GEN3, 0, "Pinnacle Remote Kit" },
	{ 0x1019, 0x0f38, GEN2, 0, "Elitegroup Computer Systems IR" },
	{ 0x0fb8, 0x0002, GEN2, 0, "Wistron eHome Infrared Receiver" },
	{ 0x185b, 0x3020, GEN2, 0, "Compro K100" },
	{ 0x185b, 0x3082, GEN2, 0, "Compro K100 v2" },
	{ 0x04eb, 0xe004, GEN2, 0, "Northstar Systems eHome Infrared Transceiver" },
	{ 0x105a, 0x2000, GEN2, 0, "TiVo PC IR Receiver" },
	{ 0x0572, 0x58a1, GEN2, 0, "Conexant Hybrid TV Polaris SDK" },
	{ 0x0572, 0x58a5, TV_TUNER_RX_ONLY, 0, "Conexant Hybrid TV RDU253S Polaris" },
	{ 0x2596, 0x8008, GEN2, 0, "Twisted Melon Manta Mini Receiver" },
	{ 0x2596, 0x8016, GEN2, 0, "Twisted Melon Manta Pico Receiver" },
	{ 0x2596, 0x8042, GEN2, 0, "Twisted Melon Manta Transceiver" },
	{ 0x2040, 0xb130, TV_TUNER_RX_ONLY, 0, "Hauppauge WinTV-HVR-930C-HD" },
	{ 0x2040, 0xb131, TV_TUNER_RX_ONLY, 0, "Hauppauge WinTV-HVR-930C-HD" },
	{ 0x2040, 0xb138, TV_TUNER_RX_ONLY, 0, "Hauppauge WinTV-HVR-930C-HD" },
	{ 0x2040, 0xb139, TV_TUNER_RX_ONLY, 0, "Hauppauge WinTV-HVR-930C-HD" },
	{ 0x2040, 0xb151, TV_TUNER_RX_ONLY, 0, "Hauppauge WinTV-HVR-935C" },
	{ 0x2040, 0xb123, TV_TUNER_RX_ONLY, 0, "Hauppauge WinTV-HVR-955Q" },
	{ 0x2040, 0xb150, TV_TUNER_RX_ONLY, 0, "Hauppauge WinTV-HVR-975" },
	{ 0x2013, 0x0259, TV_TUNER_RX_ONLY, 0, "PCTV hybrid TV" },
	{ 0x2013, 0x025e, TV_TUNER_RX_ONLY, 0, "PCTV hybrid TV" },
	{ 0x03f3, 0x0094, GEN2, 0, "Adaptec / HP eHome Receiver" },
	{ 0x1b80, 0xd3b2, TV_TUNER_RX_ONLY, 0, "Evromedia USB Full Hybrid Full HD" },
	{ 0x15f4, 0x0135, TV_TUNER_RX_ONLY, 0, "Astrometa T2Hybrid" },
};

const struct ir_mceusb_device *ir_mceusb_device_find(uint16_t vendor, uint16_t product)
{
	for (size_t i = 0; i < ARRAY_SIZE(devices); i++)
		if (devices[i].vendor == vendor && devices[i].product == product)
			return &devices[i];
	return NULL;
}

size_t ir_mceusb_device_count(void)
{
	return ARRAY_SIZE(devices);
}

const struct ir_mceusb_device *ir_mceusb_device_at(size_t i)
{
	return i < ir_mceusb_device_count() ? &devices[i] : NULL;
}

#define MCE_ALL_PORTS 0x03u

uint8_t ir_mceusb_tx_mask(const struct ir_mceusb_device *dev, unsigned ports)
{
	ports &= MCE_ALL_PORTS;
	if (!ports)
		ports = MCE_ALL_PORTS;
	if (dev && (dev->quirks & MCE_QUIRK_TX_MASK_NORMAL))
		return (uint8_t)ports;
	/* Inverted boards: port 1 is bit 2, port 2 is bit 1, both is 0x06. */
	return (uint8_t)((ports != MCE_ALL_PORTS ? ports ^ MCE_ALL_PORTS : ports) << 1);
}

struct cmd_writer {
	uint8_t *out;
	size_t cap, len;
	int err;
};

static void put(struct cmd_writer *w, const uint8_t *bytes, size_t n)
{
	if (w->err || w->len + n > w->cap) {
		w->err = -ENOSPC;
		return;
	}
	memcpy(w->out + w->len, bytes, n);
	w->len += n;
}

long ir_mceusb_init_commands(const struct ir_mceusb_device *dev, uint32_t timeout_us,
			     uint8_t *out, size_t cap)
{
	/* Lead byte 0x9F: IR port, 0xFF: system port; then the command. */
	static const uint8_t resume[] = { 0x00, 0xFF, 0xAA };
	static const uint8_t get_wake_version[] = { 0xFF, 0x18 };
	static const uint8_t get_unknown2[] = { 0x9F, 0x05 };
	static const uint8_t get_emulator_version[] = { 0xFF, 0x22 };
	static const uint8_t get_num_ports[] = { 0x9F, 0x16 };
	static const uint8_t get_tx_mask[] = { 0x9F, 0x13 };
	static const uint8_t get_rx_timeout[] = { 0x9F, 0x0D };
	static const uint8_t get_rx_sensor[] = { 0x9F, 0x15 };
	struct cmd_writer w = { .out = out, .cap = cap };
	uint16_t quirks = dev ? dev->quirks : GEN2;

	if (!(quirks & MCE_QUIRK_GEN3)) {
		put(&w, resume, sizeof(resume));
		if (!(quirks & MCE_QUIRK_GEN1)) {
			put(&w, get_wake_version, sizeof(get_wake_version));
			put(&w, get_unknown2, sizeof(get_unknown2));
		}
	}
	put(&w, get_emulator_version, sizeof(get_emulator_version));
	put(&w, get_num_ports, sizeof(get_num_ports));
	if (!(quirks & MCE_QUIRK_NO_TX))
		put(&w, get_tx_mask, sizeof(get_tx_mask));
	if (timeout_us && !(quirks & MCE_QUIRK_BROKEN_TIMEOUT)) {
		/* 9F 0C hi lo, in 50 µs units, rounded up; 16 bits hold 3.2 s */
		uint32_t units = (timeout_us + 49) / 50;
		uint8_t set_timeout[4] = { 0x9F, 0x0C, 0, 0 };

		if (units > 0xFFFF)
			units = 0xFFFF;
		set_timeout[2] = (uint8_t)(units >> 8);
		set_timeout[3] = (uint8_t)units;
		put(&w, set_timeout, sizeof(set_timeout));
	}
	put(&w, get_rx_timeout, sizeof(get_rx_timeout));
	put(&w, get_rx_sensor, sizeof(get_rx_sensor));
	return w.err ? w.err : (long)w.len;
}

size_t ir_mceusb_command_len(const uint8_t *cmd, size_t avail)
{
	size_t len;

	if (avail < 2)
		return 0;
	if (cmd[0] == 0x00)          /* 00 FF AA: resume */
		len = 3;
	else if (cmd[0] != 0x9F && cmd[0] != 0xFF)
		return 0;
	else if (cmd[0] == 0x9F && (cmd[1] == 0x06 || cmd[1] == 0x0C))
		len = 4;             /* carrier, timeout: two argument bytes */
	else if (cmd[0] == 0x9F && (cmd[1] == 0x08 || cmd[1] == 0x14))
		len = 3;             /* TX mask, RX sensor: one */
	else
		len = 2;             /* queries */
	return len <= avail ? len : 0;
}
