/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_protocol.h - the IR protocols irjack knows: names, scancode layouts,
 * timings, and the encoder that turns (protocol, scancode) into edges.
 *
 * Protocol numbers below 32 are the kernel's enum rc_proto values (uapi
 * <linux/lirc.h>), so a struct lirc_scancode's rc_proto maps one to one.
 * Names and scancode layouts are rc-core's, so ir-keytable keymaps apply
 * unchanged.  Protocols the kernel does not have are numbered from 32 up.
 */
#ifndef IRJACK_IR_PROTOCOL_H
#define IRJACK_IR_PROTOCOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir_edge.h"

enum ir_protocol {
	IR_PROTO_UNKNOWN = 0,
	IR_PROTO_OTHER = 1,
	IR_PROTO_RC5 = 2,
	IR_PROTO_RC5X_20 = 3,
	IR_PROTO_RC5_SZ = 4,
	IR_PROTO_JVC = 5,
	IR_PROTO_SONY12 = 6,
	IR_PROTO_SONY15 = 7,
	IR_PROTO_SONY20 = 8,
	IR_PROTO_NEC = 9,
	IR_PROTO_NECX = 10,
	IR_PROTO_NEC32 = 11,
	IR_PROTO_SANYO = 12,
	IR_PROTO_MCIR2_KBD = 13,
	IR_PROTO_MCIR2_MSE = 14,
	IR_PROTO_RC6_0 = 15,
	IR_PROTO_RC6_6A_20 = 16,
	IR_PROTO_RC6_6A_24 = 17,
	IR_PROTO_RC6_6A_32 = 18,
	IR_PROTO_RC6_MCE = 19,
	IR_PROTO_SHARP = 20,
	IR_PROTO_XMP = 21,
	IR_PROTO_CEC = 22,
	IR_PROTO_IMON = 23,
	IR_PROTO_RCMM12 = 24,
	IR_PROTO_RCMM24 = 25,
	IR_PROTO_RCMM32 = 26,
	IR_PROTO_XBOX_DVD = 27,
	/* 28..31 reserved for future rc-core numbers; irjack's own from 32,
	 * named as IRMP names them.  Their scancodes are IRMP's address << 16 |
	 * command unless a family says otherwise. */
	IR_PROTO_SAMSUNG32 = 32,
	IR_PROTO_SAMSUNG48 = 33,
	IR_PROTO_NEC42 = 34,
	IR_PROTO_APPLE = 35,
	IR_PROTO_ONKYO = 36,
	IR_PROTO_PIONEER = 37,
	IR_PROTO_RCA = 38,
	IR_PROTO_MITSUBISHI = 39,
	IR_PROTO_KASEIKYO = 40,
	IR_PROTO_PANASONIC = 41,
	IR_PROTO_DENON_K = 42,
	IR_PROTO_JVC_K = 43,
	IR_PROTO_MITSUBISHI_K = 44,
	IR_PROTO_GRUNDIG = 45,
	IR_PROTO_NOKIA = 46,
	IR_PROTO_THOMSON = 47,
	IR_PROTO_RECS80 = 48,
	IR_PROTO_RECS80EXT = 49,
	IR_PROTO_BOSE = 50,
	IR_PROTO_BANG_OLUFSEN = 51,
	IR_PROTO_MATSUSHITA = 52,
	IR_PROTO_NUBERT = 53,
	IR_PROTO_RUWIDO = 54,
	IR_PROTO_SIEMENS = 55,
	IR_PROTO_RC6A = 56,
	IR_PROTO_LEGO = 57,
	IR_PROTO_METZ = 58,
	IR_PROTO_FDC = 59,
	IR_PROTO_ORTEK = 60,
	IR_PROTO_TELEFUNKEN = 61,
	IR_PROTO_SAMSUNG = 62,
	IR_PROTO_NEC16 = 63,
	IR_PROTO_RC6A20 = 64,
	IR_PROTO_RC6A28 = 65,
	IR_PROTO_TECHNICS = 66,
	IR_PROTO_SPEAKER = 68,
	IR_PROTO_FAN = 69,
	IR_PROTO_IR60 = 70,
	IR_PROTO_KATHREIN = 71,
	IR_PROTO_RCCAR = 72,
	IR_PROTO_NIKON = 73,
	IR_PROTO_PENTAX = 74,
	IR_PROTO_VINCENT = 75,
	IR_PROTO_SAMSUNGAH = 76,
	/* The US protocols neither rc-core nor IRMP has (irp_table.c), named as
	 * IrpTransmogrifier names them. */
	IR_PROTO_DIRECTV = 77,
	IR_PROTO_DISH_NETWORK = 78,
	IR_PROTO_GICABLE = 79,
	IR_PROTO_ZENITH = 80,
	IR_PROTO_PROTON = 81,
	IR_PROTO_BLAUPUNKT = 82,
	/* 83 for a further named protocol */
	/* IRMP's remaining protocols */
	IR_PROTO_NETBOX = 84,
	IR_PROTO_A1TVBOX = 85,
	IR_PROTO_ROOMBA = 86,
	IR_PROTO_LGAIR = 87,
	IR_PROTO_MERLIN = 88,
	IR_PROTO_S100 = 89,
	IR_PROTO_ACP24 = 90,
	IR_PROTO_MITSU_HEAVY = 91,
	IR_PROTO_IRMP16 = 92,
	IR_PROTO_GREE = 93,
	IR_PROTO_RCII = 94,
	IR_PROTO_MELINERA = 95,
	/* Protocols defined by parameters (rc_keymaps' BPF protocols, learned
	 * remotes): one decoder instance per parameter set. */
	IR_PROTO_PULSE_DISTANCE = 96,
	IR_PROTO_PULSE_LENGTH = 97,
	IR_PROTO_MANCHESTER = 98,
	IR_PROTO_RAW = 99,
	/* A remote from a lircd.conf, decoded by LIRC's rules; the scancode is
	 * LIRC's code (pre_data, data, post_data). */
	IR_PROTO_LIRC = 100,
	IR_PROTO_COUNT = 128,
};

/* What a protocol is, as numbers.  All durations in µs. */
struct ir_protocol_info {
	enum ir_protocol id;
	const char *name;          /* canonical name (rc-core's where it has one) */
	const char *family;        /* decoder family, e.g. "nec" for nec/necx/nec32 */
	uint64_t scancode_mask;    /* bits a valid scancode may have */
	uint32_t carrier_hz;
	uint8_t duty_cycle;        /* percent, 0 = unspecified */
	uint32_t unit_us;          /* the protocol's time unit */
	uint32_t margin_us;        /* decoder tolerance on a bit-level duration */
	uint32_t repeat_period_ms; /* rc-core repeat period: frames of a held key */
	uint32_t frame_period_us;  /* start-to-start spacing of repeated frames (0 = frame + trailing gap) */
	uint32_t min_trailing_space_us; /* silence after a frame before the next (rc-core min_timeout) */
	bool has_toggle;           /* frames carry a toggle bit that flips per key press */
	bool has_encoder;
	bool not_default;          /* left out of the default set (hardware-specific) */
	/* When frames of several protocols end on the same edge and cover the
	 * same span (the same light read two ways: apple and nec32, samsung32
	 * and necx), only those of the highest priority are reported.  0 for
	 * rc-core's protocols; a more specific reading gets more. */
	uint8_t priority;
	const char *summary;       /* one line for `irjack protocols` */
};

/* The info of protocol `p`, or NULL if irjack does not implement it. */
const struct ir_protocol_info *ir_protocol_get(enum ir_protocol p);

/* Implemented protocols in display order: index 0 .. ir_protocol_count()-1. */
size_t ir_protocol_count(void);
const struct ir_protocol_info *ir_protocol_at(size_t index);

/* Looks a protocol up by name.  Case, '-' and '_' are ignored, and the
 * spellings of ir-keytable/ir-ctl ("rc-5", "rc-mm-32", "mcir2-kbd") and
 * LIRC are accepted as aliases.  Returns 0 and sets *out, or -ENOENT. */
int ir_protocol_from_name(const char *name, enum ir_protocol *out);

/* A set of protocols, e.g. the ones a decoder runs. */
struct ir_protocol_set {
	uint64_t bits[IR_PROTO_COUNT / 64];
};

static inline void ir_protocol_set_clear(struct ir_protocol_set *s)
{
	for (size_t i = 0; i < IR_PROTO_COUNT / 64; i++)
		s->bits[i] = 0;
}

static inline void ir_protocol_set_add(struct ir_protocol_set *s, enum ir_protocol p)
{
	if ((unsigned)p < IR_PROTO_COUNT)
		s->bits[(unsigned)p / 64] |= UINT64_C(1) << ((unsigned)p % 64);
}

static inline void ir_protocol_set_remove(struct ir_protocol_set *s, enum ir_protocol p)
{
	if ((unsigned)p < IR_PROTO_COUNT)
		s->bits[(unsigned)p / 64] &= ~(UINT64_C(1) << ((unsigned)p % 64));
}

static inline bool ir_protocol_set_has(const struct ir_protocol_set *s, enum ir_protocol p)
{
	return (unsigned)p < IR_PROTO_COUNT &&
	       (s->bits[(unsigned)p / 64] >> ((unsigned)p % 64)) & 1;
}

/* Every implemented protocol. */
void ir_protocol_set_all(struct ir_protocol_set *s);

/* What irjack decodes unless told otherwise: every protocol except those
 * rc-core enables only for particular hardware (iMON's raw PAD protocol,
 * whose 416 µs slots also fit other remotes' timings). */
void ir_protocol_set_default(struct ir_protocol_set *s);

/* Parses a comma-separated list of protocol or family names ("nec,rc5",
 * "rc6" = every rc6 variant, "all", "default").  Returns 0, or -ENOENT with the
 * offending name copied to `bad` (if not NULL, `bad_size` bytes). */
int ir_protocol_set_parse(const char *list, struct ir_protocol_set *out,
			  char *bad, size_t bad_size);

/*
 * The rc-core reading of a frame: for an rc-core protocol the frame itself,
 * for a protocol that specialises one (apple is nec32 with Apple's vendor
 * bytes) that protocol's scancode, so rc-core keymaps match it.  Returns
 * true and fills rc_proto/rc_scancode, or false if rc-core has no reading.
 */
bool ir_protocol_rc_core_view(enum ir_protocol p, uint64_t scancode, enum ir_protocol *rc_proto,
			      uint64_t *rc_scancode);

/* Options for ir_encode(). */
struct ir_encode_opts {
	unsigned toggle;  /* toggle bit value for protocols that have one */
	unsigned repeats; /* extra transmissions after the first (repeat codes or whole frames) */
};

/*
 * Appends the timings of one key press to `out`: the frame, `repeats`
 * repetitions (the protocol's repeat code where it has one, otherwise the
 * whole frame with the same toggle), each spaced at the protocol's frame
 * period, and a trailing space of at least the protocol's minimum gap.  The
 * sequence starts with a pulse and ends with a space.
 *
 * Returns 0; -EINVAL if `scancode` has bits outside the protocol's mask or
 * is not representable (e.g. an rc6_mce scancode without its 0x800f0000
 * prefix); -EOPNOTSUPP if the protocol has no encoder; -ENOMEM.
 */
int ir_encode(enum ir_protocol p, uint64_t scancode, const struct ir_encode_opts *opts,
	      struct ir_edge_buf *out);

#endif
