/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_family.h - what a protocol family (one file in src/protocols/)
 * implements, and the helpers it shares.  Internal to libirjack.
 *
 * A family is one streaming state machine that decodes one or more related
 * protocols (nec/necx/nec32; rc6_0, rc6_6a_20/24/32, rc6_mce ...), in the style of the
 * kernel's drivers/media/rc/ir-*-decoder.c, plus the encoder for them.
 *
 * Decoder rules:
 *  - state lives in the family's own struct (state_size bytes, zeroed by the
 *    core, reset() returns it to idle); no globals;
 *  - every duration comparison goes through ir_eq_margin()/ir_geq_margin();
 *  - a frame is emitted with ir_decode_emit() as soon as its last bit is
 *    certain; if only the silence after the last pulse can tell, the family
 *    waits in a state whose space_deadline() says how much silence it needs
 *    and accepts any space at least that long (the core may then hand it
 *    that much silence early: ir_decoder_space_elapsed() in src/decode);
 *  - IR_TIMEOUT arrives as a space (kind IR_TIMEOUT) whose duration the
 *    core has already set to IR_DURATION_MAX (the line gone idle: as long a
 *    space as there can be), after which the core resets the family anyway.
 */
#ifndef IRJACK_IR_FAMILY_H
#define IRJACK_IR_FAMILY_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include "ir_edge.h"
#include "ir_protocol.h"

struct ir_decode_ctx;

/* encode_repeat()'s answer for a protocol that repeats its whole frame. */
#define IR_ENCODE_FRAME_AGAIN 1

struct ir_family {
	const char *name;
	/* The protocols this family decodes and encodes, with their numbers. */
	const struct ir_protocol_info *protocols;
	size_t protocol_count;
	size_t state_size;
	/* Return `state` to idle. */
	void (*reset)(void *state);
	/* Consume one pulse, space or timeout edge. */
	void (*decode)(void *state, struct ir_decode_ctx *ctx, const struct ir_edge *e);
	/* Optional: the silence (µs after the last pulse) that would complete a
	 * frame in the current state, or 0. */
	uint32_t (*space_deadline)(const void *state, const struct ir_decode_ctx *ctx);
	/* Append one frame of (p, scancode) without trailing gap handling: the
	 * frame's timings ending with its final pulse or the protocol's own
	 * trailer space.  Return 0 or -EINVAL for an unrepresentable scancode. */
	int (*encode)(enum ir_protocol p, uint64_t scancode, unsigned toggle,
		      struct ir_edge_buf *out);
	/* Optional: append the protocol's repeat code (NEC-style).  Protocols
	 * without one repeat the whole frame (a family of both kinds returns
	 * IR_ENCODE_FRAME_AGAIN for those, having appended nothing). */
	int (*encode_repeat)(enum ir_protocol p, uint64_t scancode, struct ir_edge_buf *out);
	/* Optional, for protocols that specialise an rc-core one: the rc-core
	 * protocol and scancode of the same frame (see ir_protocol_rc_core_view). */
	bool (*rc_core_view)(enum ir_protocol p, uint64_t scancode, enum ir_protocol *rc_proto,
			     uint64_t *rc_scancode);
	/* A parametric family (rc_keymaps' pulse_distance..., lircd.conf
	 * remotes) decodes nothing by itself: the core runs one instance per
	 * parameter set a keymap gives (ir_decoder_add_custom()); its decode()
	 * reads the parameters with ir_decode_params().  Such families encode
	 * through encode_params() instead of encode(). */
	bool parametric;
	/* Append the frame for `scancode` with `repeats` repeats as the
	 * parameters say (leading to and including the last repeat's
	 * trailing gap, if the parameters give one).  Return 0, -EINVAL. */
	int (*encode_params)(const void *params, uint64_t scancode, unsigned toggle,
			     unsigned repeats, struct ir_edge_buf *out);
	/* Optional: the carrier the parameters give (Hz, duty cycle in
	 * percent; 0 where they give none). */
	void (*carrier_params)(const void *params, uint32_t *hz, unsigned *duty_pct);
	/* A table family whose rows wait for silence each on their own: the
	 * silence handed early (ir_decode_space_early()) is for the rows
	 * that wait, and the space edge itself still comes after it, for the
	 * others (a row that took the early one skips it). */
	bool space_again;
};

/* ---- the decoder's side, for families (ir_decode_ctx.c) ---- */

/* Is protocol p enabled for this decoder? */
bool ir_decode_enabled(const struct ir_decode_ctx *ctx, enum ir_protocol p);

/* The set ir_decode_enabled() tests (owned by the decoder, valid for this
 * call), for a table family that tests a row per edge: one call, then
 * ir_protocol_set_has() inline. */
const struct ir_protocol_set *ir_decode_enabled_set(const struct ir_decode_ctx *ctx);

/* The parameters of a parametric family's instance (NULL for built-in
 * families). */
const void *ir_decode_params(const struct ir_decode_ctx *ctx);

/* The carrier the source last reported (Hz: a mode2 `carrier` line, a
 * /dev/lircN carrier report, the demodulator's measurement), 0 if none. */
uint32_t ir_decode_carrier(const struct ir_decode_ctx *ctx);

/* Does a loaded keymap name protocol p?  Where two readings of the same
 * light differ only by carrier (pioneer and nec), a keymap naming the
 * rarer one asks for it when the carrier is unknown. */
bool ir_decode_preferred(const struct ir_decode_ctx *ctx, enum ir_protocol p);

/* Is the space being decoded the silence so far, handed over early
 * because space_deadline() asked for it, rather than the space edge? */
bool ir_decode_space_early(const struct ir_decode_ctx *ctx);

/* Source time (µs) at the start of the edge being decoded. */
uint64_t ir_decode_now(const struct ir_decode_ctx *ctx);

/* How long the line was dark before the pulse being decoded (µs), counted
 * from the end of the previous pulse whatever edges or early silence
 * reports came between; UINT32_MAX at the start of the stream and after a
 * timeout or reset.  Meaningful only while decoding a pulse. */
uint32_t ir_decode_space_before(const struct ir_decode_ctx *ctx);

/*
 * Reports a frame.  `start_us` is the source time its first pulse began
 * (the family records ir_decode_now() on its header).  The end time is taken
 * from the edge being decoded: the end of it if it is a pulse, its start if
 * it is a space.  Frames of disabled protocols are dropped here, so a family
 * may emit without checking.
 */
void ir_decode_emit(struct ir_decode_ctx *ctx, enum ir_protocol p, uint64_t scancode,
		    unsigned toggle, uint64_t start_us);

/*
 * Reports a repeat code: the last frame, if it was of one of the protocols in
 * `of` and ended recently enough (rc-core's key-up window), is reported
 * again with IR_FRAME_REPEAT.  Otherwise nothing is reported.
 */
void ir_decode_emit_repeat(struct ir_decode_ctx *ctx, const struct ir_protocol_set *of,
			   uint64_t start_us);

/*
 * Says why the family dropped the frame it was reading, the way the
 * kernel's decoders log it at debug level ("nec: header space 4150 us
 * outside 3937-5067"; start with the protocol or family name).  `progress`
 * is how far the frame had got (edges accepted): of a family's reasons in
 * one train, the one that got furthest is shown.  Formats nothing unless a
 * caller asked for reasons (ir_decoder_set_why()); ir_decode_wants_why()
 * tells a family whether building an argument is worth it.
 */
bool ir_decode_wants_why(const struct ir_decode_ctx *ctx);
void ir_decode_why(struct ir_decode_ctx *ctx, unsigned progress, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * The reason of a hand-written state machine at its failure exit, for
 * families whose states have names: "jvc: bit space, after 5 bits: space
 * 3000 us fits nothing there" (or "...: silence" for a timeout).  `state`
 * indexes `states` (0 is idle: a space there says nothing, a pulse is no
 * start); `bits` is how many the frame had; progress is taken as
 * 1 + 2 × bits (the header as one edge: no more than the family accepted,
 * so a family that counts its edges exactly ranks first on a tie).
 * Formats nothing unless reasons were asked for.
 */
void ir_decode_why_state(struct ir_decode_ctx *ctx, const char *family,
			 const char *const states[], unsigned state, unsigned bits, bool pulse,
			 uint32_t dur);

/* A table family (one state machine, one row of numbers per protocol)
 * says which row it runs next: index `row` into the family's protocols[].
 * Each row then keeps its own reason, as a family of its own would. */
void ir_decode_set_row(struct ir_decode_ctx *ctx, unsigned row);

/* ---- duration helpers ---- */

/* |d - ref| <= margin */
static inline bool ir_eq_margin(uint32_t d, uint32_t ref, uint32_t margin)
{
	return (d > ref ? d - ref : ref - d) <= margin;
}

/* d >= ref - margin */
static inline bool ir_geq_margin(uint32_t d, uint32_t ref, uint32_t margin)
{
	return (uint64_t)d + margin >= ref;
}

/* d <= ref + margin */
static inline bool ir_leq_margin(uint32_t d, uint32_t ref, uint32_t margin)
{
	return (uint64_t)d <= (uint64_t)ref + margin;
}

/* For Manchester-style decoders that eat a merged duration one half-bit at
 * a time: subtract, saturating at 0. */
static inline void ir_edge_consume(struct ir_edge *e, uint32_t us)
{
	e->duration = e->duration > us ? e->duration - us : 0;
}

/* Reverse the low `nbits` bits of v. */
static inline uint64_t ir_bitrev(uint64_t v, unsigned nbits)
{
	uint64_t r = 0;

	for (unsigned i = 0; i < nbits; i++) {
		r = (r << 1) | (v & 1);
		v >>= 1;
	}
	return r;
}

/* ---- the RC-6 leader (rc6_leader.c) ---- */

/* RC-6's and MCIR-2's leader: a prefix pulse, optionally a prefix space,
 * and `nbits` Manchester header bits (a 1 is pulse then space), `unit` µs
 * a half. */
struct ir_rc6_leader_params {
	uint32_t unit, margin; /* a half-bit and its margin (the prefix space's too) */
	uint32_t prefix_pulse, prefix_margin;
	uint32_t prefix_space; /* 0: none (MCIR-2: the first bit's dark half follows) */
	unsigned nbits;
};

/* A family's leader state (in its own state struct; all zero = idle). */
struct ir_rc6_leader {
	unsigned state;   /* 0 .. IR_RC6_LEADER_STATES - 1: idle, prefix space, bit start, bit end */
	unsigned count;   /* header bits read */
	unsigned header;  /* MSB first */
	uint64_t start_us; /* where the prefix pulse began */
};
#define IR_RC6_LEADER_STATES 4

enum ir_rc6_leader_step {
	IR_RC6_LEADER_MORE, /* the edge was taken (or used up): wait for the next */
	IR_RC6_LEADER_DONE, /* the header is in; `ev` holds what is left of the edge */
	IR_RC6_LEADER_FAIL, /* not a leader (the state tells where it broke) */
};

/* Feeds one edge (a copy the caller may go on consuming after DONE) to the
 * leader.  On DONE the leader is idle again, header and start_us kept. */
enum ir_rc6_leader_step ir_rc6_leader_feed(struct ir_rc6_leader *l,
					   const struct ir_rc6_leader_params *p,
					   const struct ir_decode_ctx *ctx, struct ir_edge *ev);

/* ---- a Manchester body (rc6_leader.c), ir_gen_manchester()'s mirror ---- */

/* The bits after RC-6's and MCIR-2's leader: two `unit` halves a bit, a 1
 * is pulse then space, MSB first.  In the family's state (zero: empty). */
struct ir_manchester {
	bool mid;       /* the bit's first half is in */
	unsigned count; /* bits read */
	uint64_t bits;  /* MSB first */
};

enum ir_manchester_step {
	IR_MANCHESTER_NEXT,  /* the edge is used up: wait for the next */
	IR_MANCHESTER_AGAIN, /* a half-bit taken, more of the edge left: feed it again */
	IR_MANCHESTER_DONE,  /* bit `final_bits` is certain: the frame is whole */
	IR_MANCHESTER_FAIL,  /* the edge fits no half-bit, or bit max_bits + 1 */
};

/* Feeds one half-bit's worth of `ev` (a copy the caller goes on with
 * after AGAIN; the caller stops once less than a half is left).  A final
 * 1 is certain once its pulse half is over, a final 0 when its pulse half
 * ends the edge; final_bits 0: the caller decides the end (by silence). */
enum ir_manchester_step ir_manchester_feed(struct ir_manchester *m, uint32_t unit,
					   uint32_t margin, unsigned max_bits, unsigned final_bits,
					   struct ir_edge *ev);

/* ---- encoder helpers (timings in µs; ir_gen.c) ---- */

/* Pulse-distance bits: each bit is `bit_pulse` then space0/space1. */
struct ir_pd_timings {
	uint32_t header_pulse, header_space; /* 0 = none */
	uint32_t bit_pulse, bit_0_space, bit_1_space;
	uint32_t trailer_pulse, trailer_space; /* 0 = none */
	bool msb_first;
};
int ir_gen_pulse_distance(struct ir_edge_buf *out, const struct ir_pd_timings *t,
			  unsigned nbits, uint64_t data);

/* Pulse-length bits: each bit is pulse0/pulse1 then `bit_space`. */
struct ir_pl_timings {
	uint32_t header_pulse, header_space; /* 0 = none */
	uint32_t bit_0_pulse, bit_1_pulse, bit_space;
	uint32_t trailer_space; /* replaces the last bit's space; 0 = keep it */
	bool msb_first;
};
int ir_gen_pulse_length(struct ir_edge_buf *out, const struct ir_pl_timings *t,
			unsigned nbits, uint64_t data);

/* Manchester bits, MSB first: a 1 is `one_first` then the other level for
 * one half each; `half_us` per half-bit. */
int ir_gen_manchester(struct ir_edge_buf *out, uint32_t half_us, bool one_is_pulse_first,
		      unsigned nbits, uint64_t data);

/* ---- the family registry (ir_protocol.c) ---- */

/* Families, each defined in src/protocols/<name>.c. */
extern const struct ir_family ir_family_nec;
extern const struct ir_family ir_family_rc5;
extern const struct ir_family ir_family_rc6;
extern const struct ir_family ir_family_sony;
extern const struct ir_family ir_family_sharp;
extern const struct ir_family ir_family_xmp;
extern const struct ir_family ir_family_rcmm;
extern const struct ir_family ir_family_imon;
extern const struct ir_family ir_family_mce_kbd;
extern const struct ir_family ir_family_kaseikyo;
extern const struct ir_family ir_family_grundig;
extern const struct ir_family ir_family_nubert;
extern const struct ir_family ir_family_ruwido;
extern const struct ir_family ir_family_bang_olufsen;
/* the protocols that differ only in numbers (pulse_distance.c) */
extern const struct ir_family ir_family_pulse_distance_table;
/* the Manchester protocols that differ only in numbers (biphase.c) */
extern const struct ir_family ir_family_biphase_table;
/* bit-serial Netbox keyboards (netbox.c) */
extern const struct ir_family ir_family_netbox;
/* the US protocols of IrpTransmogrifier's catalogue (irp_table.c) */
extern const struct ir_family ir_family_irp_table;
extern const struct ir_family ir_family_lirc; /* parametric: lircd.conf remotes */
/* parametric: rc_keymaps' timing-described remotes (src/protocols/ir_generic.h) */
extern const struct ir_family ir_family_generic;

/* The families, in decode order, NULL-terminated. */
extern const struct ir_family *const ir_families[];

/* The family that decodes/encodes protocol p, or NULL. */
const struct ir_family *ir_protocol_family(enum ir_protocol p);

#endif
