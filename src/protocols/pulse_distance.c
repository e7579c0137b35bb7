/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pulse_distance.c - the protocols that differ only in numbers: a header,
 * a fixed number of bits each coded as a (pulse, space) pair, an optional
 * stop pulse.  One table row per protocol, one state machine for all of
 * them, one encoder that mirrors it.
 *
 *   frame: header pulse, header space, N × (pulse0|1, space0|1), [stop pulse]
 *
 * Pulse-distance rows have one bit pulse and two spaces (rca, nikon,
 * gree...); pulse-width rows two pulses (roomba); melinera both.  Without
 * a stop pulse the last bit's space is the gap, so its pulse alone must
 * tell it (pulse-width rows only).  A row without a header (mitsubishi)
 * starts at its first bit's pulse; a row may ask for that much darkness
 * before its first pulse (`gap_before`) where its frame would otherwise
 * match the middle of another.  Rows whose pulses are short bursts
 * (recs80, thomson, matsushita, bose) read a bit from pulse + space (`period`):
 * a receiver lengthens the burst and shortens the space by as much.
 *
 * Timings are IRMP's (irmpprotocols.h, irmp.c and irsnd.c, read for the
 * numbers) unless a row says otherwise.  Scancode: IRMP's address << 16 | command, each field read
 * from the bits as received in the protocol's bit order (first bit most
 * significant when msb_first), unless a row has its own layout (lgair's
 * checksum, mitsu_heavy's fixed preamble, acp24's scattered bits).
 *
 * A frame is certain at its last pulse when its length is fixed and no
 * other protocol's frame starts the same way; rows whose header is another
 * protocol's (lgair: NEC's; melinera: inside NEC's margins) wait for
 * `end_space` of silence after it, so a longer NEC frame never passes for
 * them.
 *
 * Margins: each row's `margin` keeps its two bit codes apart (less than
 * half their difference) and its header's `header_margin` is about 15 %.
 *
 * `irjack decode -v`: each row says why it dropped a frame (pd_why()).
 */
#include "ir_family.h"

struct pd_proto {
	enum ir_protocol id;
	uint32_t header_pulse, header_space, header_margin; /* header_pulse 0: no header */
	uint32_t bit_pulse[2], bit_space[2], margin; /* [0] codes a 0, [1] a 1 */
	uint32_t stop_pulse;                         /* 0: none */
	unsigned nbits;
	bool msb_first;
	unsigned addr_off, addr_len, cmd_off, cmd_len;
	uint32_t end_space; /* silence after the last pulse that ends a frame; 0: none needed */
	uint32_t gap;       /* sent after the frame; 0: the frame ends at its stop pulse */
	/* Optional own layout: bits as received <-> scancode and toggle.
	 * read() returns false for a frame that fails the protocol's check. */
	bool (*read)(const uint64_t bits[2], uint64_t *scancode, unsigned *toggle);
	void (*write)(uint64_t bits[2], uint64_t scancode, unsigned toggle);
	uint32_t header_space_margin; /* 0: header_margin */
	uint32_t space_margin;        /* the bit spaces'; 0: margin */
	uint32_t gap_before;          /* darkness before the first pulse; 0: any */
	/* A sync in the middle: after bit `sync_after`, one more bit pulse and
	 * a space of sync_space[0] or [1] (either is taken, [0] is sent);
	 * sync_after 0: none. */
	unsigned sync_after;
	uint32_t sync_space[2];
	/* Receivers lengthen short bursts and shorten the space after them by
	 * as much, so some protocols are read from pulse + space: with
	 * PD_PERIOD_BITS a bit's space (and end_space) is that sum, checked
	 * against bit_pulse + bit_space; with PD_PERIOD_HEADER the header's
	 * too (against header_pulse + header_space). */
	unsigned period;
	unsigned toggle_at; /* the toggle's bit index + 1 (bits as received); 0: none */
	/* A frame without its header whose first pulse comes repeat_gap (less
	 * margin) after the silence that ended a frame began, with that
	 * frame's bits, is a repeat of it (JVC; the encoder's repeats are
	 * such frames); 0: none.  Such a row ends its frames with end_space. */
	uint32_t repeat_gap;
	bool flip_toggle; /* the toggle flips with every frame with a header (rc-core's JVC) */
	/* Repeat codes: the header pulse, a space of repeat_space (0: none)
	 * and a stop pulse (NEC's, for Sanyo); with empty_repeat, the header
	 * and one pulse ended by end_space of silence (Sanyo's own, which
	 * encode_repeat sends). */
	uint32_t repeat_space;
	bool empty_repeat;
	/* The header space the encoder sends where the decoder's window is
	 * centred elsewhere; 0: header_space. */
	uint32_t header_space_sent;
};

#define PD_PERIOD_BITS 1u
#define PD_PERIOD_HEADER 2u

/* ---- bits as received: bit i is the i-th bit of the frame ---- */

static unsigned pd_bit(const uint64_t bits[2], unsigned i)
{
	return (unsigned)(bits[i / 64] >> (i % 64)) & 1;
}

static void pd_set_bit(uint64_t bits[2], unsigned i, unsigned v)
{
	if (v)
		bits[i / 64] |= UINT64_C(1) << (i % 64);
	else
		bits[i / 64] &= ~(UINT64_C(1) << (i % 64));
}

/* `len` bits from bit `off`, the first received most significant when
 * msb_first, least significant otherwise. */
static uint64_t pd_get(const uint64_t bits[2], unsigned off, unsigned len, bool msb_first)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < len; i++) {
		unsigned b = pd_bit(bits, off + i);

		if (msb_first)
			v = v << 1 | b;
		else
			v |= (uint64_t)b << i;
	}
	return v;
}

/* The inverse of pd_get(). */
static void pd_put(uint64_t bits[2], unsigned off, unsigned len, bool msb_first, uint64_t v)
{
	for (unsigned i = 0; i < len; i++)
		pd_set_bit(bits, off + i,
			   (unsigned)(msb_first ? v >> (len - 1 - i) : v >> i) & 1);
}

/* ---- layouts of their own ---- */

/* LG air conditioners (IRMP's lgair): NEC timing, 28 bits MSB first:
 * 8 address, 16 command, 4 checksum = the sum of the command's nibbles
 * (as IRSND computes it). */
static unsigned lgair_checksum(uint64_t command)
{
	return (unsigned)((command >> 12) + (command >> 8) + (command >> 4) + command) & 0xf;
}

static bool lgair_read(const uint64_t bits[2], uint64_t *scancode, unsigned *toggle)
{
	uint64_t address = pd_get(bits, 0, 8, true), command = pd_get(bits, 8, 16, true);

	(void)toggle;
	if (pd_get(bits, 24, 4, true) != lgair_checksum(command))
		return false;
	*scancode = address << 16 | command;
	return true;
}

static void lgair_write(uint64_t bits[2], uint64_t scancode, unsigned toggle)
{
	(void)toggle;
	pd_put(bits, 0, 8, true, scancode >> 16);
	pd_put(bits, 8, 16, true, scancode & 0xffff);
	pd_put(bits, 24, 4, true, lgair_checksum(scancode & 0xffff));
}

/* Mitsubishi Heavy air conditioners: 88 bits MSB first, a fixed 40-bit
 * preamble (IRSND's 4A 75 C3 64 9B), then the 16 bits IRMP reads as the
 * address and the 16 it reads as the command.  The last 16 bits carry no
 * more than IRMP reports; irjack sends them as 0. */
#define MITSU_HEAVY_PREAMBLE UINT64_C(0x4A75C3649B)

static bool mitsu_heavy_read(const uint64_t bits[2], uint64_t *scancode, unsigned *toggle)
{
	(void)toggle;
	if (pd_get(bits, 0, 40, true) != MITSU_HEAVY_PREAMBLE)
		return false;
	*scancode = pd_get(bits, 40, 16, true) << 16 | pd_get(bits, 56, 16, true);
	return true;
}

static void mitsu_heavy_write(uint64_t bits[2], uint64_t scancode, unsigned toggle)
{
	(void)toggle;
	pd_put(bits, 0, 40, true, MITSU_HEAVY_PREAMBLE);
	pd_put(bits, 40, 16, true, scancode >> 16);
	pd_put(bits, 56, 16, true, scancode & 0xffff);
}

/* Stiebel Eltron ACP24: 70 bits, of which IRMP reports 16 as its command
 * (no address): command bit 15-i is frame bit acp24_map[i].  The other
 * bits are sent as 0. */
static const uint8_t acp24_map[16] = { 0,  24, 2,  3,  22, 4,  5,  6,
				       23, 20, 26, 44, 66, 67, 68, 69 };

static bool acp24_read(const uint64_t bits[2], uint64_t *scancode, unsigned *toggle)
{
	uint64_t command = 0;

	(void)toggle;
	for (unsigned i = 0; i < 16; i++)
		command = command << 1 | pd_bit(bits, acp24_map[i]);
	*scancode = command;
	return true;
}

static void acp24_write(uint64_t bits[2], uint64_t scancode, unsigned toggle)
{
	(void)toggle;
	for (unsigned i = 0; i < 16; i++)
		pd_set_bit(bits, acp24_map[i], (unsigned)(scancode >> (15 - i)) & 1);
}

/* RCA (Thomson, TCL and other North American TVs), 24 bits MSB first:
 * 4 address, 8 command, then both complemented. */
static bool rca_read(const uint64_t bits[2], uint64_t *scancode, unsigned *toggle)
{
	uint64_t address = pd_get(bits, 0, 4, true), command = pd_get(bits, 4, 8, true);

	(void)toggle;
	if ((address ^ pd_get(bits, 12, 4, true)) != 0xf ||
	    (command ^ pd_get(bits, 16, 8, true)) != 0xff)
		return false;
	*scancode = address << 16 | command;
	return true;
}

static void rca_write(uint64_t bits[2], uint64_t scancode, unsigned toggle)
{
	uint64_t address = (scancode >> 16) & 0xf, command = scancode & 0xff;

	(void)toggle;
	pd_put(bits, 0, 4, true, address);
	pd_put(bits, 4, 8, true, command);
	pd_put(bits, 12, 4, true, ~address);
	pd_put(bits, 16, 8, true, ~command);
}

/* Metz, 19 bits MSB first: toggle, 3-bit address and its complement,
 * 6-bit command and its complement; the toggle flips per key press. */
static bool metz_read(const uint64_t bits[2], uint64_t *scancode, unsigned *toggle)
{
	uint64_t address = pd_get(bits, 1, 3, true), command = pd_get(bits, 7, 6, true);

	if ((address ^ pd_get(bits, 4, 3, true)) != 0x7 ||
	    (command ^ pd_get(bits, 13, 6, true)) != 0x3f)
		return false;
	*toggle = pd_bit(bits, 0);
	*scancode = address << 16 | command;
	return true;
}

static void metz_write(uint64_t bits[2], uint64_t scancode, unsigned toggle)
{
	uint64_t address = (scancode >> 16) & 0x7, command = scancode & 0x3f;

	pd_put(bits, 0, 1, true, toggle & 1);
	pd_put(bits, 1, 3, true, address);
	pd_put(bits, 4, 3, true, ~address);
	pd_put(bits, 7, 6, true, command);
	pd_put(bits, 13, 6, true, ~command);
}

/* LEGO Power Functions, 16 bits MSB first: three data nibbles (IRMP reads
 * the toggle, escape and channel bits as data too: a LEGO receiver acts on
 * every message), then 0xF ^ the three. */
static uint64_t lego_check(uint64_t data)
{
	return 0xf ^ (data >> 8) ^ ((data >> 4) & 0xf) ^ (data & 0xf);
}

static bool lego_read(const uint64_t bits[2], uint64_t *scancode, unsigned *toggle)
{
	uint64_t data = pd_get(bits, 0, 12, true);

	(void)toggle;
	if (pd_get(bits, 12, 4, true) != lego_check(data))
		return false;
	*scancode = data;
	return true;
}

static void lego_write(uint64_t bits[2], uint64_t scancode, unsigned toggle)
{
	(void)toggle;
	pd_put(bits, 0, 12, true, scancode & 0xfff);
	pd_put(bits, 12, 4, true, lego_check(scancode & 0xfff));
}

/* The FDC keyboard, 40 bits LSB first: 0-7 address, 8-19 zero, 20-23 a
 * release/flag nibble R, 24-31 key code C, 32-39 ~C.  IRMP reads bits 0-13
 * as the address and 20-31 as the command (R low, C above); IRSND sends 0
 * in bits 8-23.  Without a capture of the keyboard to say more, frames are
 * taken only as IRSND builds them.  Scancode: A << 16 | C << 4 | R. */
static bool fdc_read(const uint64_t bits[2], uint64_t *scancode, unsigned *toggle)
{
	uint64_t key = pd_get(bits, 24, 8, false);

	(void)toggle;
	if (pd_get(bits, 8, 12, false) || (key ^ pd_get(bits, 32, 8, false)) != 0xff)
		return false;
	*scancode = pd_get(bits, 0, 8, false) << 16 | key << 4 | pd_get(bits, 20, 4, false);
	return true;
}

static void fdc_write(uint64_t bits[2], uint64_t scancode, unsigned toggle)
{
	uint64_t key = (scancode >> 4) & 0xff;

	(void)toggle;
	pd_put(bits, 0, 8, false, scancode >> 16);
	pd_put(bits, 20, 4, false, scancode);
	pd_put(bits, 24, 8, false, key);
	pd_put(bits, 32, 8, false, ~key);
}

/* Samsung's 36-bit format, LSB first: 16 address, (sync), 4-bit ID, 8
 * command, 8 ~command.  Scancode: address << 16 | ID << 8 | command (IRMP
 * puts the ID above the command's 8 bits). */
static bool samsung_read(const uint64_t bits[2], uint64_t *scancode, unsigned *toggle)
{
	uint64_t command = pd_get(bits, 20, 8, false);

	(void)toggle;
	if ((command ^ pd_get(bits, 28, 8, false)) != 0xff)
		return false;
	*scancode = pd_get(bits, 0, 16, false) << 16 | pd_get(bits, 16, 4, false) << 8 | command;
	return true;
}

static void samsung_write(uint64_t bits[2], uint64_t scancode, unsigned toggle)
{
	(void)toggle;
	pd_put(bits, 0, 16, false, scancode >> 16);
	pd_put(bits, 16, 4, false, scancode >> 8);
	pd_put(bits, 20, 8, false, scancode);
	pd_put(bits, 28, 8, false, ~scancode);
}

/* RECS-80 extended: a second start bit, always 1 (not checked: the
 * decoders before this one took any), then toggle, address, command. */
static void recs80ext_write(uint64_t bits[2], uint64_t scancode, unsigned toggle)
{
	pd_set_bit(bits, 0, 1);
	pd_set_bit(bits, 1, toggle & 1);
	pd_put(bits, 2, 4, true, scancode >> 16);
	pd_put(bits, 6, 6, true, scancode);
}

/* A `len`-bit command LSB first, then the same bits inverted: the
 * scancode is the command. */
static bool pd_read_inverted(const uint64_t bits[2], unsigned len, uint64_t *scancode)
{
	uint64_t command = pd_get(bits, 0, len, false);

	if ((command ^ pd_get(bits, len, len, false)) != (UINT64_C(1) << len) - 1)
		return false;
	*scancode = command;
	return true;
}

static void pd_write_inverted(uint64_t bits[2], unsigned len, uint64_t scancode)
{
	pd_put(bits, 0, len, false, scancode);
	pd_put(bits, len, len, false, ~scancode);
}

/* Technics: an 11-bit command, then inverted. */
static bool technics_read(const uint64_t bits[2], uint64_t *scancode, unsigned *toggle)
{
	(void)toggle;
	return pd_read_inverted(bits, 11, scancode);
}

static void technics_write(uint64_t bits[2], uint64_t scancode, unsigned toggle)
{
	(void)toggle;
	pd_write_inverted(bits, 11, scancode);
}

/* Bose: an 8-bit command, then inverted (no address). */
static bool bose_read(const uint64_t bits[2], uint64_t *scancode, unsigned *toggle)
{
	(void)toggle;
	return pd_read_inverted(bits, 8, scancode);
}

static void bose_write(uint64_t bits[2], uint64_t scancode, unsigned toggle)
{
	(void)toggle;
	pd_write_inverted(bits, 8, scancode);
}

/* JVC, rc-core's layout: the first 8 bits as received (the address)
 * above the last 8 (the command), each LSB first. */
static bool jvc_read(const uint64_t bits[2], uint64_t *scancode, unsigned *toggle)
{
	(void)toggle;
	*scancode = pd_get(bits, 0, 8, false) << 8 | pd_get(bits, 8, 8, false);
	return true;
}

static void jvc_write(uint64_t bits[2], uint64_t scancode, unsigned toggle)
{
	(void)toggle;
	pd_put(bits, 0, 8, false, scancode >> 8);
	pd_put(bits, 8, 8, false, scancode);
}

/* Sanyo, 42 bits LSB first: 13 address, 13 ~address, 8 command,
 * 8 ~command; rc-core's scancode address << 8 | command, and as in
 * rc-core only the command is checked against its complement. */
static bool sanyo_read(const uint64_t bits[2], uint64_t *scancode, unsigned *toggle)
{
	uint64_t command = pd_get(bits, 26, 8, false);

	(void)toggle;
	if ((command ^ pd_get(bits, 34, 8, false)) != 0xff)
		return false;
	*scancode = pd_get(bits, 0, 13, false) << 8 | command;
	return true;
}

static void sanyo_write(uint64_t bits[2], uint64_t scancode, unsigned toggle)
{
	(void)toggle;
	pd_put(bits, 0, 13, false, scancode >> 8);
	pd_put(bits, 13, 13, false, ~(scancode >> 8));
	pd_put(bits, 26, 8, false, scancode);
	pd_put(bits, 34, 8, false, ~scancode);
}

/* Row by row, the same protocols as pd_infos below. */
static const struct pd_proto pd_protos[] = {
	/* RCA: 4000/4000 header, 500 pulse, 1000 = 0, 2000 = 1, 24 bits, stop
	 * pulse; 56 kHz.  Figures as sbprojects.net gives them and as the
	 * corpus's TCL remote (a sound-card capture) measures: 3982-3999 /
	 * 4017, 500-516 pulses, spaces 983-998 and 1980-1997, 8.4 ms between
	 * frames (DecodeIR's 460 µs at 58 kHz is inside the same tolerance).
	 * The header (the easiest part for a receiver's AGC to lengthen) is
	 * read to within a unit. */
	{ IR_PROTO_RCA, 4000, 4000, 500, { 500, 500 }, { 1000, 2000 }, 250, 500, 24, true,
	  0, 0, 0, 0, 0, 0, rca_read, rca_write, 0, 0, 0, 0, { 0, 0 }, 0, 0, 0, false, 0, false, 0 },
	/* Metz (TVs; IRMP 55, DecodeIR's Metz19): 870/2300 header, 435 pulse,
	 * 960 = 0, 1680 = 1, 19 bits, stop pulse (DecodeIR: 848/2332, 424,
	 * 954/1696). */
	{ IR_PROTO_METZ, 870, 2300, 217, { 435, 435 }, { 960, 1680 }, 217, 435, 19, true,
	  0, 0, 0, 0, 0, 0, metz_read, metz_write, 0, 0, 0, 0, { 0, 0 }, 0, 0, 0, false, 0, false, 0 },
	/* LEGO Power Functions: 158/1026 start, 158 pulse, 263 = 0, 553 = 1,
	 * 16 bits, stop pulse (6, 39, 10 and 21 cycles of 38 kHz).  Six-cycle
	 * bursts are short for a demodulating receiver, which lengthens them
	 * and shortens the spaces after them: every duration is read to within
	 * 140 µs, which keeps the two bit spaces apart (263 + 140 < 553 - 140). */
	{ IR_PROTO_LEGO, 158, 1026, 140, { 158, 158 }, { 263, 553 }, 140, 158, 16, true,
	  0, 0, 0, 0, 0, 0, lego_read, lego_write, 0, 0, 0, 0, { 0, 0 }, 0, 0, 0, false, 0, false, 0 },
	/* FDC keyboard (IRMP 18): 2085/966 header, 300 pulse, 220 = 0, 715 = 1,
	 * 40 bits LSB first, stop pulse.  The header pulse is read to within a
	 * unit (receiver AGC settling), its space to within half of one. */
	{ IR_PROTO_FDC, 2085, 966, 300, { 300, 300 }, { 220, 715 }, 150, 300, 40, false,
	  0, 0, 0, 0, 0, 0, fdc_read, fdc_write, .header_space_margin = 150 },
	/* Telefunken (IRMP 34, e.g. the 1560 TV remotes): a 600/1500 start
	 * bit, 600 pulse, 600 = 0, 1500 = 1, 15 bits MSB first (IRMP's
	 * command), stop pulse.  The start bit is a 1 bit, so a Telefunken
	 * frame is, to within JVC's tolerance, a header-less JVC repeat whose
	 * first bit is 1.  JVC sends those 12-29 ms after the frame before
	 * (IRMP's JVC recordings: 19-26 ms); a Telefunken frame is taken only
	 * after 32 ms of darkness, and is sent 40 ms apart.  IRMP guesses 22 ms
	 * between a Telefunken remote's frames; if a remote keeps to that,
	 * only the first frame of a held key decodes. */
	{ IR_PROTO_TELEFUNKEN, 600, 1500, 300, { 600, 600 }, { 600, 1500 }, 300, 600, 15, true,
	  0, 0, 0, 15, 0, 0, NULL, NULL, .gap_before = 32000 },
	/* Mitsubishi (TVs and VCRs, the M50560 family), DecodeIR's
	 * {32.6k,300}<1,-3|1,-7>(D:8,F:8,1,-80)*: no header, 300 pulse, 900 =
	 * 0, 2100 = 1, 16 bits LSB first (device, function), stop pulse.  The
	 * spaces are 4 units apart: a unit either way reads them.  With no
	 * header, a frame is told from the middle of another by the 10 ms of
	 * darkness before its first pulse: longer than any space inside a
	 * frame with pulses this short (Metz's 2300 µs header space), shorter
	 * than the 24 ms between Mitsubishi's frames. */
	{ IR_PROTO_MITSUBISHI, 0, 0, 0, { 300, 300 }, { 900, 2100 }, 150, 300, 16, false,
	  0, 8, 8, 8, 0, 0, NULL, NULL, .space_margin = 300, .gap_before = 10000 },
	/* Samsung's 36-bit format (IRMP 3 "SAMSUNG", DecodeIR's Samsung36; DVD
	 * and Blu-ray players): NEC-like bits after a 4.5 ms header, 36 bits LSB
	 * first with a sync after the 16-bit address, stop pulse, 5600 µs
	 * sent after it.  IRMP waits 4500 µs at the sync (its samples:
	 * 4050-4950), DecodeIR's IRP 9 units (5040): both are taken.  The nec
	 * family reads the same header and 16 bits, then fails at the sync;
	 * this row fails at a 4.5 ms-header NEC frame's 17th bit. */
	{ IR_PROTO_SAMSUNG, 4500, 4500, 560, { 560, 560 }, { 560, 1680 }, 280, 560, 36, false,
	  0, 0, 0, 0, 0, 5600, samsung_read, samsung_write, .header_space_margin = 280,
	  .sync_after = 16, .sync_space = { 4500, 5040 } },
	/*
	 * Philips RECS-80 and its extended form (Philips, Thomson, Nordmende,
	 * Telefunken, Saba, Technisat, Mivar): 158 µs pulses (6 cycles of 38
	 * kHz), 4902 (0) or 7432 (1) spaces, MSB first, stop pulse; a start
	 * bit of 158 + 7432 (recs80: toggle, 3 address, 6 command bits) or
	 * 158 + 3637 (recs80ext: a 1, toggle, 4 address, 6 command bits).
	 * Receivers stretch a 6-cycle burst (IRMP's and the Mivar recordings:
	 * 159-267 µs) and shorten the space after it by as much, so bits are
	 * read from pulse + space: the periods (3795, 5060, 7590) are 1265 µs
	 * or more apart, ±600 keeps them apart; the pulse must be a short one
	 * (±200).  A frame starts after more darkness than any space inside
	 * one (10 ms); held keys resend it after ~45 ms.
	 */
	{ IR_PROTO_RECS80, 158, 7432, 200, { 158, 158 }, { 4902, 7432 }, 200, 158, 10, true,
	  1, 3, 4, 6, 0, 0, NULL, NULL, 600, 600, 10000, 0, { 0, 0 },
	  .period = PD_PERIOD_BITS | PD_PERIOD_HEADER, .toggle_at = 1 },
	{ IR_PROTO_RECS80EXT, 158, 3637, 200, { 158, 158 }, { 4902, 7432 }, 200, 158, 12, true,
	  2, 4, 6, 6, 0, 0, NULL, recs80ext_write, 600, 600, 10000, 0, { 0, 0 },
	  .period = PD_PERIOD_BITS | PD_PERIOD_HEADER, .toggle_at = 2 },
	/*
	 * Thomson (RCA's European sibling, e.g. the MB100 remote): no header,
	 * 550 pulse, 2000 (0) or 4500 (1) space, 12 bits MSB first (4 address,
	 * toggle, 7 command), stop pulse.  Receivers lengthen pulses and
	 * shorten spaces by about as much (IRMP's recording: 533-667 µs
	 * pulses, 1933-2000 µs spaces): bits are read from pulse + space, as
	 * rc-core reads Sharp's.  ±220 keeps Sharp's 1 bits (320 + 1680 =
	 * 2000, at most 2316 with its ±158 jitter) out of the 0 window
	 * (2330..2770), and every Thomson frame has 0 bits; the pulse only has
	 * to be about the right size (±250).  With no header a frame starts
	 * only after more darkness than any space inside one or any other
	 * protocol's header space (NEC: 4500): 10 ms; a held key's frames are
	 * ~31-35 ms apart.
	 */
	{ IR_PROTO_THOMSON, 0, 0, 0, { 550, 550 }, { 2000, 4500 }, 250, 550, 12, true,
	  0, 4, 5, 7, 0, 0, NULL, NULL, 0, 220, 10000, 0, { 0, 0 },
	  .period = PD_PERIOD_BITS, .toggle_at = 5 },
	/*
	 * Matsushita (Panasonic's older format) and Technics: 3488/3488
	 * header, 872 pulse, 872 (0) or 2616 (1) space, LSB first, stop pulse;
	 * 36 kHz.  matsushita: 12 command then 12 address bits; technics: 11
	 * command bits and the same inverted.  Bits are read from pulse +
	 * space (1744 or 3488, ±400); the header and the pulses have room for
	 * a receiver's AGC on the first burst (±700, ±350).  A Technics
	 * frame's stop pulse looks like the 23rd bit's pulse of a Matsushita
	 * frame: only the silence after it tells.  Inside a frame pulse and
	 * space add up to at most a 1's period, 3888 µs: 3889 (end_space less
	 * the margin) or more ends a Technics frame.
	 */
	{ IR_PROTO_MATSUSHITA, 3488, 3488, 700, { 872, 872 }, { 872, 2616 }, 350, 872, 24, false,
	  12, 12, 0, 12, 0, 0, NULL, NULL, 0, 400, 0, 0, { 0, 0 }, .period = PD_PERIOD_BITS },
	{ IR_PROTO_TECHNICS, 3488, 3488, 700, { 872, 872 }, { 872, 2616 }, 350, 872, 22, false,
	  0, 0, 0, 0, 3889 + 350, 0, technics_read, technics_write, 0, 400, 0, 0, { 0, 0 },
	  .period = PD_PERIOD_BITS },
	/*
	 * JVC: 8400/4200 header (16 and 8 units of 525 µs, 20 cycles of 38
	 * kHz), 525 pulse, 525 (0) or 1575 (1) space, 16 bits LSB first,
	 * stop pulse; margin half a unit.  Held keys send the frame without
	 * its header, ~46 ms start to start (IRMP's recordings: 45.6-46.8;
	 * 19.3-25.9 ms of silence); as in rc-core such a repeat stands for
	 * the frame before it when its bits are that frame's (after at least
	 * rc-core's 35 units of silence), and the toggle flips on every frame
	 * with a header, so that two presses are two presses even within the
	 * key-up time.  A frame is certain once the space after its stop
	 * pulse is longer than any bit space (1575 + 262 = 1837; end_space
	 * 2100 less the margin... plus it: 2362 - 262 = 2100): NEC headers
	 * are measured as short as 8600/4400 (IRMP's nec-repetition.txt),
	 * inside JVC's tolerance, and the 17th pulse of such a NEC frame
	 * passes for JVC's stop pulse.  rc-core waits for 18 ms.
	 */
	{ IR_PROTO_JVC, 8400, 4200, 262, { 525, 525 }, { 525, 1575 }, 262, 525, 16, false,
	  0, 0, 0, 0, 2100 + 262, 0, jvc_read, jvc_write, 0, 0, 0, 0, { 0, 0 },
	  .repeat_gap = 35 * 525, .flip_toggle = true },
	/*
	 * Sanyo (LC7461; also Aiwa, Chinon): NEC's header and bits (unit 563
	 * µs, 21 cycles of 38 kHz), 42 bits, stop pulse, a frame every 108
	 * ms.  The header space is read centred on rc-core's 8 × 563 = 4504
	 * (so that its window is inside) and sent as 4500; the header pulse
	 * to within two units, as for NEC (same header, same receivers: the
	 * easiest part to lengthen, receiver AGC settling).  Held keys send
	 * the header and one pulse; NEC's 9000/2250/563 repeat code is taken
	 * as a Sanyo repeat too (rc-core's NEC decoder repeats whatever key
	 * was down last, Sanyo's included).  A frame, or a repeat's single
	 * pulse, is certain once the silence after it is longer than any bit
	 * space (1688 + 281 = 1969; end_space less the margin: 2252): NEC
	 * timings carry longer frames too (48-bit NEC variants).  rc-core
	 * waits 10 units after a frame and 150 (84 ms) after a repeat code.
	 */
	{ IR_PROTO_SANYO, 9000, 8 * 563, 2 * 563, { 563, 563 }, { 563, 1688 }, 281, 563, 42,
	  false, 0, 0, 0, 0, 4 * 563 + 281, 0, sanyo_read, sanyo_write, 281, 0, 0, 0, { 0, 0 },
	  .repeat_space = 2250, .empty_repeat = true, .header_space_sent = 4500 },
	/*
	 * Bose (Wave systems and others): 1060/1425 header, 550 pulse, 437
	 * (0) or 1425 (1) space, 16 bits LSB first (8 command, then
	 * inverted), stop pulse; 36 kHz.  Receivers lengthen pulses and
	 * shorten spaces by about as much (IRMP's recording: 533-600 µs
	 * pulses, 400-467 µs short spaces): header and bits are read from
	 * pulse + space (2485, 987, 1975: ~500 µs or more apart, ±300), the
	 * pulses to within 250.
	 */
	{ IR_PROTO_BOSE, 1060, 1425, 250, { 550, 550 }, { 437, 1425 }, 250, 550, 16, false,
	  0, 0, 0, 0, 0, 0, bose_read, bose_write, 300, 300, 0, 0, { 0, 0 },
	  .period = PD_PERIOD_BITS | PD_PERIOD_HEADER },
	/* Nikon cameras (ML-L3): 2200 pulse, 27.1 ms space, 2 bits */
	{ IR_PROTO_NIKON, 2200, 27100, 2700, { 500, 500 }, { 1500, 3500 }, 400, 500, 2, true,
	  0, 0, 0, 2, 0, 60000, NULL, NULL, 0, 0, 0, 0, { 0, 0 }, 0, 0, 0, false, 0, false, 0 },
	/* Pentax cameras: 13 ms / 3 ms header, 1000 pulse, 1000 = 0, 3000 = 1 */
	{ IR_PROTO_PENTAX, 13000, 3000, 1500, { 1000, 1000 }, { 1000, 3000 }, 500, 1000, 6, true,
	  0, 0, 0, 6, 0, 60000, NULL, NULL, 0, 0, 0, 0, { 0, 0 }, 0, 0, 0, false, 0, false, 0 },
	/* Vincent amplifiers: 2500/4600 header, 550 pulse, 550 = 0, 1540 = 1 */
	{ IR_PROTO_VINCENT, 2500, 4600, 500, { 550, 550 }, { 550, 1540 }, 275, 550, 32, true,
	  0, 16, 16, 16, 0, 40000, NULL, NULL, 0, 0, 0, 0, { 0, 0 }, 0, 0, 0, false, 0, false, 0 },
	/* Samsung AH air conditioners: 2500/1900 header, 450 pulse, 450 = 0,
	 * 1100 = 1; 48 bits LSB first, IRMP reads bits 0-15 and 32-47 */
	{ IR_PROTO_SAMSUNGAH, 2500, 1900, 400, { 450, 450 }, { 450, 1100 }, 225, 450, 48, false,
	  0, 16, 32, 16, 0, 40000, NULL, NULL, 0, 0, 0, 0, { 0, 0 }, 0, 0, 0, false, 0, false, 0 },
	/* RC cars: 2000/2000 header, 600 pulse, 900 = 0, 450 = 1, 13 bits LSB
	 * first, all command */
	{ IR_PROTO_RCCAR, 2000, 2000, 300, { 600, 600 }, { 900, 450 }, 200, 600, 13, false,
	  0, 0, 0, 13, 0, 40000, NULL, NULL, 0, 0, 0, 0, { 0, 0 }, 0, 0, 0, false, 0, false, 0 },
	/* LG air conditioners: NEC's 9000/4500 header and 560/560/1690 bits,
	 * 28 bits.  NEC's header: wait for the silence after bit 28's stop
	 * pulse (a NEC frame has a bit there, its space at most 1690 µs). */
	{ IR_PROTO_LGAIR, 9000, 4500, 700, { 560, 560 }, { 560, 1690 }, 400, 560, 28, true,
	  0, 0, 0, 0, 4000, 40000, lgair_read, lgair_write, 0, 0, 0, 0, { 0, 0 }, 0, 0, 0, false, 0, false, 0 },
	/* Melinera (Lidl lights): 8800/4100 header; a 0 is 440 pulse + 590
	 * space, a 1 970 + 1140; 8 bits MSB first.  NEC frames fit the header
	 * and the 0 bits: wait for more silence after the stop pulse than
	 * NEC16's 4.5 ms sync space. */
	{ IR_PROTO_MELINERA, 8800, 4100, 700, { 440, 970 }, { 590, 1140 }, 250, 440, 8, true,
	  0, 0, 0, 8, 6000, 40000, NULL, NULL, 0, 0, 0, 0, { 0, 0 }, 0, 0, 0, false, 0, false, 0 },
	/* Gree air conditioners: 12/6 ms header, 900 pulse, 2100 = 0, 700 = 1,
	 * 32 bits LSB first: 16 address, 16 command (IRMP reads only these).
	 * rc-core bounds NEC's leader from below only: the header space
	 * (±800, above the kernel's 5067 µs NEC limit) keeps NEC frames out. */
	{ IR_PROTO_GREE, 12000, 6000, 800, { 900, 900 }, { 2100, 700 }, 500, 900, 32, false,
	  0, 16, 16, 16, 0, 40000, NULL, NULL, 0, 0, 0, 0, { 0, 0 }, 0, 0, 0, false, 0, false, 0 },
	/* IRMP16, IRMP's own data protocol: 842/1052 header, 421 pulse,
	 * 421 = 0, 842 = 1, 16 bits LSB first.  The header margin stays
	 * under 200: Samsung AH's 450 µs pulses at their margin (+200) must
	 * not pass for its 842 µs header pulse. */
	{ IR_PROTO_IRMP16, 842, 1052, 150, { 421, 421 }, { 421, 842 }, 160, 421, 16, false,
	  0, 0, 0, 16, 0, 40000, NULL, NULL, 0, 0, 0, 0, { 0, 0 }, 0, 0, 0, false, 0, false, 0 },
	/* iRobot Roomba: 2790/930 header; a 0 is 930 pulse + 2790 space, a 1
	 * 2790 + 930; 7 bits MSB first, no stop pulse */
	{ IR_PROTO_ROOMBA, 2790, 930, 600, { 930, 2790 }, { 2790, 930 }, 600, 0, 7, true,
	  0, 0, 0, 7, 0, 18000, NULL, NULL, 0, 0, 0, 0, { 0, 0 }, 0, 0, 0, false, 0, false, 0 },
	/* Mitsubishi Heavy air conditioners: 3200/1560 header, 400 pulse,
	 * 430 = 0, 1200 = 1, 88 bits MSB first (layout above) */
	{ IR_PROTO_MITSU_HEAVY, 3200, 1560, 240, { 400, 400 }, { 430, 1200 }, 200, 400, 88, true,
	  0, 0, 0, 0, 0, 40000, mitsu_heavy_read, mitsu_heavy_write, 0, 0, 0, 0, { 0, 0 }, 0, 0, 0, false, 0, false, 0 },
	/* Stiebel Eltron ACP24: 390/950 header, 390 pulse, 950 = 0, 1300 = 1,
	 * 70 bits (layout above) */
	{ IR_PROTO_ACP24, 390, 950, 150, { 390, 390 }, { 950, 1300 }, 150, 390, 70, true,
	  0, 0, 0, 0, 0, 22000, acp24_read, acp24_write, 0, 0, 0, 0, { 0, 0 }, 0, 0, 0, false, 0, false, 0 },
	/* Kathrein: 210/6218 header, 210 pulse, 1400 = 0, 3000 = 1, 13 bits
	 * MSB first: IRMP reads 4 address bits from bit 1, 7 command bits
	 * from bit 5.  Its ±600 µs windows hold Dish Network's 406/6090
	 * header and 1624/2842 spaces, whose frames have 16 bits: wait for
	 * more silence than a bit space (3600) after the stop pulse, or a Dish
	 * frame's first 13 bits pass for Kathrein (never cut a frame short). */
	{ IR_PROTO_KATHREIN, 210, 6218, 600, { 210, 210 }, { 1400, 3000 }, 600, 210, 13, true,
	  1, 4, 5, 7, 4000, 35000, NULL, NULL, 0, 0, 0, 0, { 0, 0 }, 0, 0, 0, false, 0, false, 0 },
};

#define PD_INFO_X(ID, NAME, MASK, CARRIER, UNIT, MARGIN, NOT_DEFAULT, SUMMARY)          \
	{                                                                                  \
		.id = ID, .name = NAME, .family = "pd_table",                              \
		.scancode_mask = MASK, .carrier_hz = CARRIER, .duty_cycle = 33,            \
		.unit_us = UNIT, .margin_us = MARGIN, .repeat_period_ms = 125,             \
		.min_trailing_space_us = 10000, .has_encoder = true,                       \
		.not_default = NOT_DEFAULT, .summary = SUMMARY,                            \
	}
#define PD_INFO(ID, NAME, MASK, CARRIER, UNIT, MARGIN, SUMMARY)                          \
	PD_INFO_X(ID, NAME, MASK, CARRIER, UNIT, MARGIN, false, SUMMARY)
/* Left out of the default set: another protocol, at its own margins,
 * reads some of these frames too (see
 * exclusive_pairs in tests/unit/test_protocol_roundtrip.c). */
#define PD_INFO_ND(ID, NAME, MASK, CARRIER, UNIT, MARGIN, SUMMARY)                       \
	PD_INFO_X(ID, NAME, MASK, CARRIER, UNIT, MARGIN, true, SUMMARY)

/* Rows moved here from a file of their own keep their family name. */
static const struct ir_protocol_info pd_infos[] = {
	{
		.id = IR_PROTO_RCA, .name = "rca", .family = "rca", .scancode_mask = 0xf00ff,
		.carrier_hz = 56000, .duty_cycle = 33, .unit_us = 500, .margin_us = 250,
		.repeat_period_ms = 125, .min_trailing_space_us = 8000, .has_encoder = true,
		.summary = "RCA, 4-bit address and 8-bit command with complements, 56 kHz",
	},
	{
		.id = IR_PROTO_METZ, .name = "metz", .family = "metz", .scancode_mask = 0x7003f,
		.carrier_hz = 38000, .duty_cycle = 33, .unit_us = 435, .margin_us = 217,
		.repeat_period_ms = 125, .frame_period_us = 125000,
		.min_trailing_space_us = 20000, .has_toggle = true, .has_encoder = true,
		.summary = "Metz, 3-bit address and 6-bit command with complements, toggle",
	},
	{
		.id = IR_PROTO_LEGO, .name = "lego", .family = "lego", .scancode_mask = 0xfff,
		.carrier_hz = 38000, .duty_cycle = 33, .unit_us = 158, .margin_us = 140,
		.repeat_period_ms = 125, .min_trailing_space_us = 40000, .has_encoder = true,
		.summary = "LEGO Power Functions, 12 data bits and a check nibble",
	},
	{
		.id = IR_PROTO_FDC, .name = "fdc", .family = "fdc", .scancode_mask = 0xff0fff,
		.carrier_hz = 38000, .duty_cycle = 33, .unit_us = 300, .margin_us = 150,
		.repeat_period_ms = 125, .min_trailing_space_us = 60000, .has_encoder = true,
		.summary = "FDC keyboard: 8-bit address, 8-bit key code and a flag nibble",
	},
	{
		.id = IR_PROTO_TELEFUNKEN, .name = "telefunken", .family = "telefunken",
		.scancode_mask = 0x7fff, .carrier_hz = 38000, .duty_cycle = 33, .unit_us = 600,
		.margin_us = 300, .repeat_period_ms = 125, .min_trailing_space_us = 40000,
		.has_encoder = true, .summary = "Telefunken, a start bit and a 15-bit command",
	},
	{
		.id = IR_PROTO_MITSUBISHI, .name = "mitsubishi", .family = "mitsubishi",
		.scancode_mask = 0xff00ff, .carrier_hz = 32600, .duty_cycle = 33, .unit_us = 300,
		.margin_us = 150, .repeat_period_ms = 125, .min_trailing_space_us = 24000,
		.has_encoder = true,
		.summary = "Mitsubishi, 8-bit device and function, no header, 32.6 kHz",
	},
	{
		.id = IR_PROTO_SAMSUNG, .name = "samsung", .family = "samsung",
		.scancode_mask = 0xffff0fff, .carrier_hz = 38000, .duty_cycle = 33, .unit_us = 560,
		.margin_us = 280, .repeat_period_ms = 125, .frame_period_us = 108000,
		.min_trailing_space_us = 5600, .has_encoder = true,
		.summary = "Samsung 36-bit: 16-bit address, sync, 4-bit ID, 8-bit command",
	},
	{
		.id = IR_PROTO_RECS80, .name = "recs80", .family = "recs80",
		.scancode_mask = 0x7003f, .carrier_hz = 38000, .duty_cycle = 33, .unit_us = 158,
		.margin_us = 200, .repeat_period_ms = 125, .min_trailing_space_us = 45000,
		.has_toggle = true, .has_encoder = true,
		.summary = "Philips RECS-80, 3-bit address, 6-bit command, toggle",
	},
	{
		.id = IR_PROTO_RECS80EXT, .name = "recs80ext", .family = "recs80",
		.scancode_mask = 0xf003f, .carrier_hz = 38000, .duty_cycle = 33, .unit_us = 158,
		.margin_us = 200, .repeat_period_ms = 125, .min_trailing_space_us = 45000,
		.has_toggle = true, .has_encoder = true,
		.summary = "RECS-80 extended, 4-bit address, 6-bit command, toggle",
	},
	{
		/* IRMP's recording measured ~33 kHz on the MB100 (IRSND sends
		 * 38 kHz).  The margin declared: each edge of a bit may be off
		 * by half the period tolerance when both err the same way. */
		.id = IR_PROTO_THOMSON, .name = "thomson", .family = "thomson",
		.scancode_mask = 0xf007f, .carrier_hz = 33000, .duty_cycle = 33, .unit_us = 550,
		.margin_us = 110, .repeat_period_ms = 125, .min_trailing_space_us = 35000,
		.has_toggle = true, .has_encoder = true,
		.summary = "Thomson, 4-bit address, 7-bit command, toggle",
	},
	{
		.id = IR_PROTO_MATSUSHITA, .name = "matsushita", .family = "matsushita",
		.scancode_mask = 0xfff0fff, .carrier_hz = 36000, .duty_cycle = 33, .unit_us = 872,
		.margin_us = 200, .repeat_period_ms = 125, .min_trailing_space_us = 40000,
		.has_encoder = true, .summary = "Matsushita, 12-bit address and command",
	},
	{
		.id = IR_PROTO_TECHNICS, .name = "technics", .family = "matsushita",
		.scancode_mask = 0x7ff, .carrier_hz = 36000, .duty_cycle = 33, .unit_us = 872,
		.margin_us = 200, .repeat_period_ms = 125, .min_trailing_space_us = 40000,
		.has_encoder = true,
		.summary = "Technics, 11-bit command sent with its inverse, Matsushita timing",
	},
	{
		.id = IR_PROTO_JVC, .name = "jvc", .family = "jvc", .scancode_mask = 0xffff,
		.carrier_hz = 38000, .duty_cycle = 33, .unit_us = 525, .margin_us = 262,
		.repeat_period_ms = 125, .frame_period_us = 46000,
		.min_trailing_space_us = 35 * 525, .has_encoder = true,
		.summary = "JVC, 8-bit address and command, header-less repeats",
	},
	{
		.id = IR_PROTO_SANYO, .name = "sanyo", .family = "sanyo",
		.scancode_mask = 0x1fffff, .carrier_hz = 38000, .duty_cycle = 33, .unit_us = 563,
		.margin_us = 281, .repeat_period_ms = 125, .frame_period_us = 108000,
		.min_trailing_space_us = 5625, .has_encoder = true,
		.summary = "Sanyo/Aiwa, 13-bit address and 8-bit command with complements",
	},
	{
		/* the margin declared: each edge of a bit may be off by half the
		 * period tolerance when both err the same way */
		.id = IR_PROTO_BOSE, .name = "bose", .family = "bose", .scancode_mask = 0xff,
		.carrier_hz = 36000, .duty_cycle = 33, .unit_us = 550, .margin_us = 150,
		.repeat_period_ms = 125, .min_trailing_space_us = 40000, .has_encoder = true,
		.summary = "Bose, 8-bit command sent with its inverse",
	},
	PD_INFO(IR_PROTO_NIKON, "nikon", 0x3, 38000, 500, 400,
		"Nikon camera release, 2-bit command"),
	PD_INFO(IR_PROTO_PENTAX, "pentax", 0x3f, 38000, 1000, 500,
		"Pentax camera release, 6-bit command"),
	PD_INFO(IR_PROTO_VINCENT, "vincent", 0xffffffff, 38000, 550, 275,
		"Vincent, 16-bit address and command, MSB first"),
	PD_INFO(IR_PROTO_SAMSUNGAH, "samsungah", 0xffffffff, 38000, 450, 225,
		"Samsung AH air conditioner, 48 bits: 16-bit address and command read"),
	PD_INFO(IR_PROTO_RCCAR, "rccar", 0x1fff, 38000, 600, 200,
		"RC car, 13-bit command, LSB first"),
	PD_INFO(IR_PROTO_LGAIR, "lgair", 0xffffff, 38000, 560, 400,
		"LG air conditioner, NEC timing, 28 bits: 8-bit address, 16-bit command, checksum"),
	PD_INFO(IR_PROTO_MELINERA, "melinera", 0xff, 38000, 440, 250,
		"Melinera (Lidl), 8-bit command, pulse and space both code the bit"),
	PD_INFO(IR_PROTO_GREE, "gree", 0xffffffff, 38000, 900, 500,
		"Gree air conditioner, 16-bit address and command, LSB first"),
	PD_INFO(IR_PROTO_IRMP16, "irmp16", 0xffff, 38000, 421, 160,
		"IRMP16 data frames, 16-bit command, LSB first"),
	PD_INFO(IR_PROTO_ROOMBA, "roomba", 0x7f, 38000, 930, 600,
		"iRobot Roomba, 7-bit command, pulse-width"),
	PD_INFO(IR_PROTO_MITSU_HEAVY, "mitsu_heavy", 0xffffffff, 40000, 400, 200,
		"Mitsubishi Heavy air conditioner, 88 bits: 16-bit address and command read"),
	PD_INFO_ND(IR_PROTO_ACP24, "acp24", 0xffff, 38000, 390, 150,
		"Stiebel Eltron ACP24 air conditioner, 70 bits: IRMP's 16-bit command"),
	PD_INFO_ND(IR_PROTO_KATHREIN, "kathrein", 0xf007f, 38000, 210, 150,
		"Kathrein, 4-bit address, 7-bit command, MSB first"),
};

#define PD_COUNT (sizeof(pd_protos) / sizeof(pd_protos[0]))
_Static_assert(sizeof(pd_infos) / sizeof(pd_infos[0]) == PD_COUNT, "one info per row");

enum pd_state {
	STATE_INACTIVE,
	STATE_HEADER_SPACE,
	STATE_BIT_PULSE, /* a bit's pulse, or the stop pulse after the last bit */
	STATE_BIT_SPACE,
	STATE_TRAILER,   /* waiting for end_space of silence */
	STATE_REPEAT_PULSE, /* a repeat code's stop pulse */
};

struct pd_one {
	enum pd_state state;
	unsigned count;
	unsigned candidates; /* bit values the current bit's pulse allows: 1 = 0, 2 = 1 */
	bool synced;         /* the row's sync was seen */
	uint32_t pulse;      /* the last pulse (a period row reads the space after it with it) */
	uint64_t bits[2];
	uint64_t start_us;
	/* repeat_gap rows: */
	bool repeat;         /* this frame has no header: a repeat */
	bool chain;          /* a frame (or repeat) just ended: a repeat may follow */
	bool toggle;         /* flip_toggle's, for the decoder's lifetime */
	uint64_t frame_bits; /* the bits of the last frame with a header */
	uint64_t end_us;     /* where the silence after the last frame began */
	bool took_early;     /* took the silence handed early: skip the space edge */
};

struct pd_dec {
	struct pd_one one[PD_COUNT];
};

static void pd_reset(void *state)
{
	struct pd_dec *d = state;

	for (size_t i = 0; i < PD_COUNT; i++) {
		d->one[i].state = STATE_INACTIVE;
		d->one[i].chain = false;
		d->one[i].took_early = false;
	}
}

static bool pd_read(const struct pd_proto *p, const uint64_t bits[2], uint64_t *scancode,
		    unsigned *toggle)
{
	*toggle = p->toggle_at ? pd_bit(bits, p->toggle_at - 1) : 0;
	if (p->read)
		return p->read(bits, scancode, toggle);
	*scancode = (p->addr_len ? pd_get(bits, p->addr_off, p->addr_len, p->msb_first) << 16 : 0) |
		    pd_get(bits, p->cmd_off, p->cmd_len, p->msb_first);
	return true;
}

static const char *pd_name(const struct pd_proto *p)
{
	return pd_infos[p - pd_protos].name;
}

/* Edges of the frame accepted so far (`irjack decode -v`'s progress). */
static unsigned pd_progress(const struct pd_proto *p, const struct pd_one *o)
{
	return (p->header_pulse ? 2 : 0) + 2 * o->count + 2 * o->synced +
	       (o->state == STATE_BIT_SPACE);
}

/* A repeat code or header-less repeat of row p: the core reports the
 * last frame again if it was p's. */
static void pd_emit_repeat(const struct pd_proto *p, struct pd_one *o, struct ir_decode_ctx *ctx)
{
	struct ir_protocol_set self = { .bits = { 0 } };

	ir_protocol_set_add(&self, p->id);
	ir_decode_emit_repeat(ctx, &self, o->start_us);
	o->state = STATE_INACTIVE;
}

static void pd_emit(const struct pd_proto *p, struct pd_one *o, struct ir_decode_ctx *ctx)
{
	uint64_t scancode;
	unsigned toggle;

	o->state = STATE_INACTIVE;
	if (o->repeat && o->bits[0] != o->frame_bits) {
		ir_decode_why(ctx, pd_progress(p, o), "%s: a repeat whose bits 0x%llx are not the frame's",
			      pd_name(p), (unsigned long long)o->bits[0]);
		return;
	}
	if (!o->repeat && !pd_read(p, o->bits, &scancode, &toggle)) {
		ir_decode_why(ctx, pd_progress(p, o), "%s: %u bits 0x%llx%s: check failed",
			      pd_name(p), o->count, (unsigned long long)o->bits[0],
			      o->count > 64 ? "..." : "");
		return;
	}
	if (o->repeat) {
		pd_emit_repeat(p, o, ctx);
	} else {
		if (p->flip_toggle)
			toggle = o->toggle = !o->toggle;
		o->frame_bits = o->bits[0];
		ir_decode_emit(ctx, p->id, scancode, toggle, o->start_us);
	}
	/* the core may have handed this space over early: time the gap to
	 * a repeat from here */
	o->chain = p->repeat_gap != 0;
	o->end_us = ir_decode_now(ctx);
}

/* The last pulse is in: emit now or wait for the silence that proves it. */
static void pd_frame_done(const struct pd_proto *p, struct pd_one *o, struct ir_decode_ctx *ctx)
{
	if (p->end_space)
		o->state = STATE_TRAILER;
	else
		pd_emit(p, o, ctx);
}

static bool pd_bit_pulse(const struct pd_proto *p, struct pd_one *o, struct ir_decode_ctx *ctx,
			 uint32_t dur);

/* Has a repeat_gap row's gap passed since its last frame ended? */
static bool pd_repeat_due(const struct pd_proto *p, const struct pd_one *o,
			  const struct ir_decode_ctx *ctx)
{
	uint64_t gap = ir_decode_now(ctx) - o->end_us;

	return p->repeat_gap &&
	       ir_geq_margin(gap > UINT32_MAX ? UINT32_MAX : (uint32_t)gap, p->repeat_gap, p->margin);
}

/* A pulse that may start a frame: its header pulse, the first bit's pulse
 * of a row without a header or of a header-less repeat.  False (and
 * idle): not a start. */
static bool pd_start(const struct pd_proto *p, struct pd_one *o, struct ir_decode_ctx *ctx,
		     uint32_t dur)
{
	bool chain = o->chain;

	o->state = STATE_INACTIVE;
	o->chain = false;
	o->repeat = false;
	if (p->gap_before && !ir_geq_margin(ir_decode_space_before(ctx), p->gap_before, 0))
		return false;
	if (p->header_pulse && !ir_eq_margin(dur, p->header_pulse, p->header_margin)) {
		if (!chain || !pd_repeat_due(p, o, ctx))
			return false;
		o->repeat = true; /* this pulse is a header-less repeat's first bit's */
	}
	o->pulse = dur;
	o->start_us = ir_decode_now(ctx);
	o->count = 0;
	o->synced = false;
	o->bits[0] = o->bits[1] = 0;
	if (p->header_pulse && !o->repeat) {
		o->state = STATE_HEADER_SPACE;
		return true;
	}
	o->state = STATE_BIT_PULSE;
	if (pd_bit_pulse(p, o, ctx, dur))
		return true;
	o->state = STATE_INACTIVE;
	return false;
}

/* A pulse where a bit or the stop pulse is due.  False: not this frame. */
static bool pd_bit_pulse(const struct pd_proto *p, struct pd_one *o, struct ir_decode_ctx *ctx,
			 uint32_t dur)
{
	bool pulse_width = p->bit_pulse[0] != p->bit_pulse[1];

	o->pulse = dur;
	o->candidates = (unsigned)ir_eq_margin(dur, p->bit_pulse[0], p->margin) |
			(unsigned)ir_eq_margin(dur, p->bit_pulse[1], p->margin) << 1;
	if (o->count == p->nbits) {
		/* the stop pulse: either bit pulse will do where they differ */
		if (!ir_eq_margin(dur, p->stop_pulse, p->margin) && !(pulse_width && o->candidates))
			return false;
		pd_frame_done(p, o, ctx);
		return true;
	}
	if (!o->candidates)
		return false;
	if (!p->stop_pulse && o->count + 1 == p->nbits) {
		/* no stop pulse: the last bit's space is the gap, its pulse tells */
		if (o->candidates == 3)
			return false;
		pd_set_bit(o->bits, o->count++, o->candidates == 2);
		pd_frame_done(p, o, ctx);
		return true;
	}
	o->state = STATE_BIT_SPACE;
	return true;
}

static uint32_t pd_space_margin(const struct pd_proto *p)
{
	return p->space_margin ? p->space_margin : p->margin;
}

/* What row p reads a space as: the space, or (where `flag` is in its
 * period) the pulse before it plus the space. */
static uint32_t pd_sum(const struct pd_proto *p, unsigned flag, uint32_t pulse, uint32_t space)
{
	if (!(p->period & flag))
		return space;
	return space > UINT32_MAX - pulse ? UINT32_MAX : pulse + space;
}

/* Is the sync due where a bit space is? */
static bool pd_sync_due(const struct pd_proto *p, const struct pd_one *o)
{
	return p->sync_after && o->count == p->sync_after && !o->synced;
}

static bool pd_bit_space(const struct pd_proto *p, struct pd_one *o, uint32_t dur)
{
	uint32_t margin = pd_space_margin(p);

	if (pd_sync_due(p, o)) {
		if (!ir_eq_margin(dur, p->sync_space[0], margin) &&
		    !ir_eq_margin(dur, p->sync_space[1], margin))
			return false;
		o->synced = true;
		o->state = STATE_BIT_PULSE;
		return true;
	}
	uint32_t len = pd_sum(p, PD_PERIOD_BITS, o->pulse, dur);

	if ((o->candidates & 2) &&
	    ir_eq_margin(len, pd_sum(p, PD_PERIOD_BITS, p->bit_pulse[1], p->bit_space[1]), margin))
		pd_set_bit(o->bits, o->count, 1);
	else if (!(o->candidates & 1) ||
		 !ir_eq_margin(len, pd_sum(p, PD_PERIOD_BITS, p->bit_pulse[0], p->bit_space[0]),
			       margin))
		return false;
	o->count++;
	o->state = STATE_BIT_PULSE;
	return true;
}

static uint32_t pd_lo(uint32_t ref, uint32_t margin)
{
	return ref > margin ? ref - margin : 0;
}

/* Why a pulse could not start row p's frame. */
static void pd_why_start(const struct pd_proto *p, struct ir_decode_ctx *ctx, uint32_t dur)
{
	uint32_t dark = ir_decode_space_before(ctx);

	if (p->gap_before && !ir_geq_margin(dark, p->gap_before, 0))
		ir_decode_why(ctx, 0, "%s: first pulse after %u us of darkness, wants >= %u",
			      pd_name(p), dark, p->gap_before);
	else if (p->header_pulse)
		ir_decode_why(ctx, 0, "%s: header pulse %u us outside %u-%u", pd_name(p), dur,
			      pd_lo(p->header_pulse, p->header_margin),
			      p->header_pulse + p->header_margin);
	else
		ir_decode_why(ctx, 0, "%s: first pulse %u us outside %u-%u", pd_name(p), dur,
			      pd_lo(p->bit_pulse[0], p->margin), p->bit_pulse[0] + p->margin);
}

/* Why the edge (pulse?, dur) broke row p's frame in o's state. */
static void pd_why(const struct pd_proto *p, const struct pd_one *o, struct ir_decode_ctx *ctx,
		   bool pulse, uint32_t dur)
{
	unsigned progress = pd_progress(p, o), v = pulse ? 0 : 1;
	bool per = !pulse && (p->period & PD_PERIOD_BITS);
	const char *name = pd_name(p), *what = pulse ? "pulse" : per ? "pulse+space" : "space";
	uint32_t hm = p->header_space_margin ? p->header_space_margin : p->header_margin;
	uint32_t m = pulse ? p->margin : pd_space_margin(p);
	/* what a period row compares: pulse + space, both sides */
	uint32_t len = pulse ? dur : pd_sum(p, PD_PERIOD_BITS, o->pulse, dur);
	uint32_t code[2] = { pulse ? p->bit_pulse[0] : pd_sum(p, PD_PERIOD_BITS, p->bit_pulse[0], p->bit_space[0]),
			     pulse ? p->bit_pulse[1] : pd_sum(p, PD_PERIOD_BITS, p->bit_pulse[1], p->bit_space[1]) };
	uint32_t hdr = pd_sum(p, PD_PERIOD_HEADER, p->header_pulse, p->header_space);

	if (!pulse && dur == IR_DURATION_MAX)
		ir_decode_why(ctx, progress, "%s: silence after %u of %u bits", name, o->count,
			      p->nbits);
	else if (o->state == STATE_HEADER_SPACE)
		ir_decode_why(ctx, progress, "%s: header %s %u us outside %u-%u", name,
			      p->period & PD_PERIOD_HEADER ? "pulse+space" : "space",
			      pd_sum(p, PD_PERIOD_HEADER, o->pulse, dur), pd_lo(hdr, hm), hdr + hm);
	else if (o->state == STATE_REPEAT_PULSE)
		ir_decode_why(ctx, progress, "%s: repeat code's pulse %u us outside %u-%u", name, dur,
			      pd_lo(p->stop_pulse, p->margin), p->stop_pulse + p->margin);
	else if (o->state == STATE_TRAILER)
		ir_decode_why(ctx, progress,
			      "%s: %u bits, then a pulse after %u us: not the silence (>= %u) that ends a frame",
			      name, o->count, dur, p->end_space);
	else if (!pulse && pd_sync_due(p, o))
		ir_decode_why(ctx, progress, "%s: sync space %u us after %u bits: not %u or %u (+-%u)",
			      name, dur, o->count, p->sync_space[0], p->sync_space[1], m);
	else if (pulse && o->count == p->nbits)
		ir_decode_why(ctx, progress, "%s: stop pulse %u us outside %u-%u", name, dur,
			      pd_lo(p->stop_pulse, p->margin), p->stop_pulse + p->margin);
	else if ((o->state == STATE_BIT_SPACE) == !pulse)
		ir_decode_why(ctx, progress, "%s: bit %u: %s %u us: not a 0 (%u-%u) nor a 1 (%u-%u)",
			      name, o->count, what, len, pd_lo(code[0], m), code[0] + m,
			      pd_lo(code[1], m), code[1] + m);
	else
		ir_decode_why(ctx, progress, "%s: bit %u: a %s of %u us where a %s is due", name,
			      o->count, what, dur, v ? "pulse" : "space");
}

/* `why`: ir_decode_wants_why(ctx), asked once per edge by pd_decode(). */
static void pd_decode_one(const struct pd_proto *p, struct pd_one *o, struct ir_decode_ctx *ctx,
			  bool pulse, uint32_t dur, bool why)
{
	bool ok = false;

	switch (o->state) {
	case STATE_INACTIVE:
		if (pulse && !pd_start(p, o, ctx, dur) && why)
			pd_why_start(p, ctx, dur);
		return;
	case STATE_HEADER_SPACE:
		ok = !pulse &&
		     ir_eq_margin(pd_sum(p, PD_PERIOD_HEADER, o->pulse, dur),
				  pd_sum(p, PD_PERIOD_HEADER, p->header_pulse, p->header_space),
				  p->header_space_margin ? p->header_space_margin : p->header_margin);
		if (ok)
			o->state = STATE_BIT_PULSE;
		if (!ok && !pulse && p->repeat_space &&
		    ir_eq_margin(dur, p->repeat_space, pd_space_margin(p))) {
			o->state = STATE_REPEAT_PULSE;
			ok = true;
		}
		break;
	case STATE_BIT_PULSE:
		ok = pulse && pd_bit_pulse(p, o, ctx, dur);
		break;
	case STATE_BIT_SPACE:
		if (!pulse && p->empty_repeat && o->count == 0 &&
		    ir_geq_margin(dur, p->end_space, p->margin)) {
			pd_emit_repeat(p, o, ctx);
			return;
		}
		ok = !pulse && pd_bit_space(p, o, dur);
		break;
	case STATE_REPEAT_PULSE:
		ok = pulse && ir_eq_margin(dur, p->stop_pulse, p->margin);
		if (ok)
			pd_emit_repeat(p, o, ctx);
		break;
	case STATE_TRAILER:
		ok = !pulse && ir_geq_margin(pd_sum(p, PD_PERIOD_BITS, o->pulse, dur), p->end_space,
					     p->margin);
		if (ok)
			pd_emit(p, o, ctx);
		break;
	}
	if (ok)
		return;
	if (why)
		pd_why(p, o, ctx, pulse, dur);
	o->state = STATE_INACTIVE;
	o->chain = false;
	/* the pulse that broke a frame may start the next one */
	if (pulse)
		pd_start(p, o, ctx, dur);
}

/* Does row p wait for silence in o's state (end_space after its last
 * pulse, or after a repeat code's one pulse)? */
static bool pd_waits(const struct pd_proto *p, const struct pd_one *o)
{
	return o->state == STATE_TRAILER ||
	       (p->empty_repeat && o->state == STATE_BIT_SPACE && o->count == 0);
}

static void pd_decode(void *state, struct ir_decode_ctx *ctx, const struct ir_edge *e)
{
	struct pd_dec *d = state;
	bool pulse = e->kind == IR_PULSE, early = ir_decode_space_early(ctx);
	/* (asked once per edge, not per row: ~30 rows see every edge) */
	const struct ir_protocol_set *enabled = ir_decode_enabled_set(ctx);
	bool why = ir_decode_wants_why(ctx);

	for (size_t i = 0; i < PD_COUNT; i++) {
		struct pd_one *o = &d->one[i];

		if (!ir_protocol_set_has(enabled, pd_protos[i].id))
			continue;
		/* silence handed early is for the rows that wait for it; the
		 * others (a header space in progress...) read the space edge */
		if (early && !pd_waits(&pd_protos[i], o))
			continue;
		if (e->kind == IR_SPACE && !early && o->took_early) {
			o->took_early = false;
			continue;
		}
		/* an idle row waits for a pulse: a space (or the timeout) leaves
		 * it as it is (most rows are idle at most edges) */
		if (!pulse && !early && o->state == STATE_INACTIVE && !o->took_early)
			continue;
		o->took_early = early;
		/* an idle row whose header pulse this is not (and that waits
		 * for no repeat): what pd_start() would conclude, without the
		 * call (most rows, at every pulse) */
		if (pulse && !why && o->state == STATE_INACTIVE && !o->chain &&
		    pd_protos[i].header_pulse &&
		    !ir_eq_margin(e->duration, pd_protos[i].header_pulse, pd_protos[i].header_margin)) {
			o->repeat = false;
			continue;
		}
		if (why) /* the row only names whose reason it is */
			ir_decode_set_row(ctx, (unsigned)i);
		pd_decode_one(&pd_protos[i], &d->one[i], ctx, pulse, e->duration, why);
	}
}

/* The most silence any row waiting in STATE_TRAILER needs: handed that
 * much early, every waiting row is satisfied at once. */
static uint32_t pd_space_deadline(const void *state, const struct ir_decode_ctx *ctx)
{
	const struct pd_dec *d = state;
	uint32_t most = 0;

	for (size_t i = 0; i < PD_COUNT; i++) {
		const struct pd_proto *p = &pd_protos[i];
		uint32_t need = p->end_space;

		if (!pd_waits(p, &d->one[i]) || !ir_decode_enabled(ctx, p->id))
			continue;
		/* a period row's silence counts with the pulse before it */
		if (p->period & PD_PERIOD_BITS)
			need = pd_lo(pd_lo(need, p->margin), d->one[i].pulse);
		if (need > most)
			most = need;
	}
	return most;
}

/* The frame of row p for `bits`, ending with its gap (if it has one). */
static int pd_gen(const struct pd_proto *p, const uint64_t bits[2], bool header,
		  struct ir_edge_buf *out)
{
	int ret = 0;

	if (p->header_pulse && header) {
		ret |= ir_edge_buf_pulse(out, p->header_pulse);
		ret |= ir_edge_buf_space(out, p->header_space_sent ? p->header_space_sent
								   : p->header_space);
	}
	for (unsigned i = 0; i < p->nbits; i++) {
		unsigned b = pd_bit(bits, i);
		bool last = i + 1 == p->nbits;

		if (p->sync_after && i == p->sync_after) {
			ret |= ir_edge_buf_pulse(out, p->bit_pulse[0]);
			ret |= ir_edge_buf_space(out, p->sync_space[0]);
		}
		ret |= ir_edge_buf_pulse(out, p->bit_pulse[b]);
		ret |= ir_edge_buf_space(out, last && !p->stop_pulse ? p->gap : p->bit_space[b]);
	}
	if (p->stop_pulse)
		ret |= ir_edge_buf_pulse(out, p->stop_pulse);
	if (p->stop_pulse && p->gap)
		ret |= ir_edge_buf_space(out, p->gap);
	return ret ? -ENOMEM : 0;
}

static const struct pd_proto *pd_find(enum ir_protocol id)
{
	for (size_t i = 0; i < PD_COUNT; i++)
		if (pd_protos[i].id == id)
			return &pd_protos[i];
	return NULL;
}

/* The bits as sent of row p's frame for (scancode, toggle). */
static void pd_write(const struct pd_proto *p, uint64_t bits[2], uint64_t scancode,
		     unsigned toggle)
{
	bits[0] = bits[1] = 0;
	if (p->write) {
		p->write(bits, scancode, toggle);
		return;
	}
	pd_put(bits, p->cmd_off, p->cmd_len, p->msb_first, scancode & 0xffff);
	if (p->addr_len)
		pd_put(bits, p->addr_off, p->addr_len, p->msb_first, scancode >> 16);
	if (p->toggle_at)
		pd_set_bit(bits, p->toggle_at - 1, toggle & 1);
}

static int pd_encode(enum ir_protocol id, uint64_t scancode, unsigned toggle,
		     struct ir_edge_buf *out)
{
	const struct pd_proto *p = pd_find(id);
	uint64_t bits[2];

	if (!p)
		return -EINVAL;
	pd_write(p, bits, scancode, toggle);
	return pd_gen(p, bits, true, out);
}

/* A repeat_gap row's repeat: the frame without its header; an
 * empty_repeat row's: the header and one pulse.  The others send the
 * frame again. */
static int pd_encode_repeat(enum ir_protocol id, uint64_t scancode, struct ir_edge_buf *out)
{
	const struct pd_proto *p = pd_find(id);
	uint64_t bits[2];

	if (!p)
		return -EINVAL;
	if (p->empty_repeat) {
		int ret = ir_edge_buf_pulse(out, p->header_pulse);

		ret |= ir_edge_buf_space(out, p->header_space_sent ? p->header_space_sent
								   : p->header_space);
		ret |= ir_edge_buf_pulse(out, p->stop_pulse);
		return ret ? -ENOMEM : 0;
	}
	if (!p->repeat_gap)
		return IR_ENCODE_FRAME_AGAIN;
	pd_write(p, bits, scancode, 0);
	return pd_gen(p, bits, false, out);
}

const struct ir_family ir_family_pulse_distance_table = {
	.name = "pd_table",
	.protocols = pd_infos,
	.protocol_count = PD_COUNT,
	.state_size = sizeof(struct pd_dec),
	.reset = pd_reset,
	.decode = pd_decode,
	.space_deadline = pd_space_deadline,
	.encode = pd_encode,
	.encode_repeat = pd_encode_repeat,
	.space_again = true,
};
