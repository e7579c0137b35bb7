/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irp_table.c - the US protocols that neither rc-core nor IRMP has, as rows
 * of IRP-style parameters over one engine: DirecTV, Dish Network, G.I.
 * Cable, Zenith, Proton and Blaupunkt.  Definitions from IrpTransmogrifier's
 * protocol catalogue (IrpProtocols.xml, read for the numbers).
 *
 * A row is the protocol's IRP written out: headers, a bit alphabet (each
 * symbol a short list of durations, pulse > 0, space < 0, carrying one or
 * two bits), the number of symbols, an optional sync after so many bits,
 * an optional stop pulse.  One state machine reads every row; it matches
 * the durations of the symbols still possible one edge at a time, so it
 * reads pulse-distance (GI Cable, Proton, Dish), 2-bit pulse-width-distance
 * (DirecTV), double-pulse (Zenith) and bi-phase (Blaupunkt: a received
 * edge longer than a symbol's last half is that half plus the next
 * symbol's first, as the kernel's Manchester decoders consume it).  The
 * encoder walks the same alphabet.
 *
 * A frame is certain only at the silence after its last pulse (the row's
 * end_gap), never at its last bit: a longer train is some other protocol's
 * (never cut a frame short).  Zenith's length varies (5..8 function bits):
 * the silence decides it.  Each row's bits go through a small function that checks the checksum and
 * lays out the scancode (IRMP's address << 16 | command; see the infos).
 *
 * Margins: `margin` (µs) on every duration, or 1/16 of it where that is
 * more (long headers and spaces), which keeps each row's alphabet apart
 * (Zenith's 4160 and 5200) and Proton's 8 ms header off NEC16's 9 ms one
 * (Proton 7500..8500).  NEC16's kernel-floor windows (leader >= 7875,
 * header space and sync 3.9-5.1 ms) hold Proton's frames too: where both
 * read one, proton's priority (1) reports it as proton.
 */
#include "ir_family.h"

#define IRP_MAX_SYM_LEN 4
#define IRP_MAX_SYMS 4
#define IRP_MAX_HEADERS 2

enum irp_header_kind {
	HDR_NONE,
	HDR_FRAME, /* a header that data bits follow */
	HDR_DITTO, /* a repeat code: header, stop pulse, nothing else */
};

struct irp_header {
	enum irp_header_kind kind;
	int32_t pulse, space;
};

struct irp_symbol {
	int32_t d[IRP_MAX_SYM_LEN]; /* pulse > 0, space < 0, 0 ends */
};

struct irp_proto {
	enum ir_protocol id;
	uint32_t margin;
	struct irp_header header[IRP_MAX_HEADERS]; /* [0]: first frame, [1]: repeats */
	struct irp_symbol sym[IRP_MAX_SYMS];
	unsigned sym_bits;   /* bits per symbol: 1 or 2 (first bit sent = high bit) */
	unsigned nsym_min, nsym_max; /* symbols per frame; a range ends by silence */
	unsigned sync_after; /* 0: no sync; else symbols before it */
	int32_t sync_pulse, sync_space;
	int32_t stop;        /* stop pulse; 0: none */
	bool merge;          /* bi-phase: a symbol's last half merges into the next's first */
	/* The silence after the frame's last pulse that shows no more bits
	 * follow (never cut a frame short: RC-6 frames start like DirecTV's
	 * repeats, Nokia frames like Blaupunkt's).  A last symbol that ends
	 * dark needs its own space and this much more. */
	uint32_t end_gap;
	uint32_t lead_silence; /* headerless: darkness before the first pulse */
	/* Bits as received (bit i = i-th bit) to scancode; false: no frame
	 * (checksum, Blaupunkt's start/end marker). */
	bool (*scancode)(uint64_t bits, unsigned nbits, uint64_t *sc);
	/* The inverse; -EINVAL for an unrepresentable scancode. */
	int (*bits)(uint64_t sc, uint64_t *bits, unsigned *nsym);
};

/* ---- fields of a received bit string ---- */

/* `len` bits from bit `off` of the bits as received, the first received
 * the most significant when msb (IRP's msb) or the least (its lsb). */
static uint64_t irp_get(uint64_t bits, unsigned off, unsigned len, bool msb)
{
	uint64_t v = (bits >> off) & ((UINT64_C(1) << len) - 1);

	return msb ? ir_bitrev(v, len) : v;
}

static uint64_t irp_put(uint64_t v, unsigned off, unsigned len, bool msb)
{
	v &= (UINT64_C(1) << len) - 1;
	return (msb ? ir_bitrev(v, len) : v) << off;
}

/* DirecTV {38k,600,msb} (D:4, F:8, C:4), C = 7*F:2:6 + 5*F:2:4 + 3*F:2:2 + F:2 */
static unsigned directv_check(uint64_t f)
{
	return (7 * ((f >> 6) & 3) + 5 * ((f >> 4) & 3) + 3 * ((f >> 2) & 3) + (f & 3)) & 15;
}

static bool directv_scancode(uint64_t bits, unsigned nbits, uint64_t *sc)
{
	uint64_t d = irp_get(bits, 0, 4, true), f = irp_get(bits, 4, 8, true);

	(void)nbits;
	if (irp_get(bits, 12, 4, true) != directv_check(f))
		return false;
	*sc = d << 16 | f;
	return true;
}

static int directv_bits(uint64_t sc, uint64_t *bits, unsigned *nsym)
{
	uint64_t f = sc & 0xff;

	*bits = irp_put(sc >> 16, 0, 4, true) | irp_put(f, 4, 8, true) |
		irp_put(directv_check(f), 12, 4, true);
	*nsym = 8;
	return 0;
}

/* Dish Network {57.6k,406,lsb} (F:-6, S:5, D:5): F is sent MSB first */
static bool dish_scancode(uint64_t bits, unsigned nbits, uint64_t *sc)
{
	(void)nbits;
	*sc = irp_get(bits, 11, 5, false) << 16 | irp_get(bits, 6, 5, false) << 8 |
	      irp_get(bits, 0, 6, true);
	return true;
}

static int dish_bits(uint64_t sc, uint64_t *bits, unsigned *nsym)
{
	*bits = irp_put(sc, 0, 6, true) | irp_put(sc >> 8, 6, 5, false) |
		irp_put(sc >> 16, 11, 5, false);
	*nsym = 16;
	return 0;
}

/* G.I. Cable {38.7k,490,lsb} (F:8, D:4, C:4), C = -(D + F:4 + F:4:4) */
static unsigned gicable_check(uint64_t d, uint64_t f)
{
	return (unsigned)(-(d + (f & 15) + (f >> 4))) & 15;
}

static bool gicable_scancode(uint64_t bits, unsigned nbits, uint64_t *sc)
{
	uint64_t f = irp_get(bits, 0, 8, false), d = irp_get(bits, 8, 4, false);

	(void)nbits;
	if (irp_get(bits, 12, 4, false) != gicable_check(d, f))
		return false;
	*sc = d << 16 | f;
	return true;
}

static int gicable_bits(uint64_t sc, uint64_t *bits, unsigned *nsym)
{
	uint64_t f = sc & 0xff, d = (sc >> 16) & 15;

	*bits = f | d << 8 | (uint64_t)gicable_check(d, f) << 12;
	*nsym = 16;
	return 0;
}

/*
 * Zenith {40k,520,msb} (S:1, <1:2|2:2>(F:D)): S, then each of F's D bits
 * (5..8) as two symbols, 01 for a 0 and 10 for a 1.  Scancode
 * (D << 8 | S) << 16 | F.
 */
static bool zenith_scancode(uint64_t bits, unsigned nbits, uint64_t *sc)
{
	unsigned d = (nbits - 1) / 2;
	uint64_t f = 0;

	if (nbits % 2 == 0 || d < 5 || d > 8)
		return false;
	for (unsigned i = 0; i < d; i++) {
		unsigned pair = (unsigned)(bits >> (1 + 2 * i)) & 3; /* first symbol in bit 0 */

		if (pair != 1 && pair != 2)
			return false;
		f = f << 1 | (pair == 1); /* 1,0 received: a 1 */
	}
	*sc = (uint64_t)(d << 8 | (bits & 1)) << 16 | f;
	return true;
}

static int zenith_bits(uint64_t sc, uint64_t *bits, unsigned *nsym)
{
	unsigned d = (unsigned)(sc >> 24) & 0xf;
	uint64_t f = sc & 0xff;

	if (d < 5 || d > 8 || f >> d)
		return -EINVAL;
	*bits = (sc >> 16) & 1;
	for (unsigned i = 0; i < d; i++) {
		unsigned bit = (unsigned)(f >> (d - 1 - i)) & 1;

		*bits |= (uint64_t)(bit ? 1 : 2) << (1 + 2 * i);
	}
	*nsym = 1 + 2 * d;
	return 0;
}

/* Proton {38k,500,lsb} (D:8, sync, F:8) */
static bool proton_scancode(uint64_t bits, unsigned nbits, uint64_t *sc)
{
	(void)nbits;
	*sc = (bits & 0xff) << 16 | ((bits >> 8) & 0xff);
	return true;
}

static int proton_bits(uint64_t sc, uint64_t *bits, unsigned *nsym)
{
	*bits = ((sc >> 16) & 0xff) | (sc & 0xff) << 8;
	*nsym = 16;
	return 0;
}

/*
 * Blaupunkt {30.3k,512,lsb} bi-phase (1:1, F:6, D:3); a press starts and
 * ends with a marker frame of ten 1 bits (no key: D 7 with F 63), which is
 * not reported.
 */
#define BLAUPUNKT_MARKER 0x3ff

static bool blaupunkt_scancode(uint64_t bits, unsigned nbits, uint64_t *sc)
{
	(void)nbits;
	if (!(bits & 1) || bits == BLAUPUNKT_MARKER)
		return false;
	*sc = irp_get(bits, 7, 3, false) << 16 | irp_get(bits, 1, 6, false);
	return true;
}

static int blaupunkt_bits(uint64_t sc, uint64_t *bits, unsigned *nsym)
{
	*bits = 1 | irp_put(sc, 1, 6, false) | irp_put(sc >> 16, 7, 3, false);
	*nsym = 10;
	return *bits == BLAUPUNKT_MARKER ? -EINVAL : 0;
}

#define PD(UNIT, ZERO, ONE) { { { UNIT, -(ZERO) } }, { { UNIT, -(ONE) } } }

static const struct irp_proto irp_protos[] = {
	/* (10,-2 | 5,-2 on repeats), 8 × <1,-1|1,-2|2,-1|2,-2>, 1, -50 */
	{ IR_PROTO_DIRECTV, 299,
	  { { HDR_FRAME, 6000, -1200 }, { HDR_FRAME, 3000, -1200 } },
	  { { { 600, -600 } }, { { 600, -1200 } }, { { 1200, -600 } }, { { 1200, -1200 } } },
	  2, 8, 8, 0, 0, 0, 600, false, 4800, 0, directv_scancode, directv_bits },
	/* 1,-15, 16 × <1,-7|1,-4>, 1,-15 (the stop pulse starts the next frame) */
	{ IR_PROTO_DISH_NETWORK, 200, { { HDR_FRAME, 406, -6090 } }, PD(406, 2842, 1624),
	  1, 16, 16, 0, 0, 0, 406, false, 5000, 0, dish_scancode, dish_bits },
	/* 18,-9, 16 × <1,-4.5|1,-9>, 1, -84; ditto 18,-4.5,1,-178 */
	{ IR_PROTO_GICABLE, 245,
	  { { HDR_FRAME, 8820, -4410 }, { HDR_DITTO, 8820, -2205 } }, PD(490, 2205, 4410),
	  1, 16, 16, 0, 0, 0, 490, false, 6000, 0, gicable_scancode, gicable_bits },
	/* no header: 11..17 × <1,-10|1,-1,1,-8>, -90m */
	{ IR_PROTO_ZENITH, 250, { { HDR_NONE, 0, 0 } },
	  { { { 520, -5200 } }, { { 520, -520, 520, -4160 } } },
	  1, 11, 17, 0, 0, 0, 0, false, 2000, 20000, zenith_scancode, zenith_bits },
	/* 16,-8, D:8, 1,-8, F:8, 1 */
	{ IR_PROTO_PROTON, 249, { { HDR_FRAME, 8000, -4000 } }, PD(500, 500, 1500),
	  1, 16, 16, 8, 500, -4000, 500, false, 6000, 0, proton_scancode, proton_bits },
	/* 1,-5, 10 × <-1,1|1,-1> */
	{ IR_PROTO_BLAUPUNKT, 200, { { HDR_FRAME, 512, -2560 } },
	  { { { -512, 512 } }, { { 512, -512 } } },
	  1, 10, 10, 0, 0, 0, 0, true, 800, 0, blaupunkt_scancode, blaupunkt_bits },
};

#define IRP_COUNT (sizeof(irp_protos) / sizeof(irp_protos[0]))

static const struct ir_protocol_info irp_infos[IRP_COUNT];

/* Row p's name (ir_protocol_get() is the registry's, above this file). */
static const char *irp_name(const struct irp_proto *p)
{
	return irp_infos[p - irp_protos].name;
}

enum irp_state {
	STATE_INACTIVE,
	STATE_HEADER_SPACE, /* after a header pulse: which header the space says */
	STATE_SYMBOL,       /* element `idx` of the symbols in `cand` */
	STATE_SYNC_PULSE,
	STATE_SYNC_SPACE,
	STATE_STOP,         /* the stop pulse after the last symbol */
	STATE_END,          /* the silence after the frame's last pulse */
	STATE_DITTO_STOP,   /* the pulse that ends a repeat code */
};

struct irp_one {
	enum irp_state state;
	unsigned hdr_cand; /* headers whose pulse matched */
	unsigned cand;     /* symbols still possible */
	unsigned idx;      /* element of those symbols next */
	unsigned nsym;     /* symbols received */
	uint64_t bits;
	uint64_t start_us;
	uint32_t last_pulse; /* for a header that a failed frame's last pulse began */
	uint64_t last_pulse_us;
	uint32_t stop;       /* the stop pulse, and when it began (Dish's next header) */
	uint64_t stop_us;
};

struct irp_dec {
	struct irp_one one[IRP_COUNT];
};

static void irp_reset(void *state)
{
	struct irp_dec *d = state;

	for (size_t i = 0; i < IRP_COUNT; i++)
		d->one[i].state = STATE_INACTIVE;
}

static bool irp_eq(const struct irp_proto *p, uint32_t d, int32_t ref)
{
	uint32_t r = (uint32_t)(ref < 0 ? -ref : ref);
	uint32_t m = r / 16 > p->margin ? r / 16 : p->margin;

	return ir_eq_margin(d, r, m);
}

static uint32_t irp_abs(int32_t v)
{
	return (uint32_t)(v < 0 ? -v : v);
}

static unsigned irp_sym_len(const struct irp_symbol *s)
{
	unsigned n = 0;

	while (n < IRP_MAX_SYM_LEN && s->d[n])
		n++;
	return n;
}

static void irp_start_symbols(struct irp_one *o)
{
	o->state = STATE_SYMBOL;
	o->cand = 0;
	o->idx = 0;
}

/* A pulse that may begin a frame: which headers it fits. */
static bool irp_header_pulse(const struct irp_proto *p, struct irp_one *o, uint32_t dur,
			     uint64_t start_us)
{
	o->hdr_cand = 0;
	for (unsigned h = 0; h < IRP_MAX_HEADERS; h++)
		if (p->header[h].kind != HDR_NONE && irp_eq(p, dur, p->header[h].pulse))
			o->hdr_cand |= 1u << h;
	o->nsym = 0;
	o->bits = 0;
	o->start_us = start_us;
	if (o->hdr_cand) {
		o->state = STATE_HEADER_SPACE;
		return true;
	}
	return false;
}

/*
 * Blaupunkt's frames are Grundig's (IRMP: 528 µs bi-phase, pre-bit, ten
 * bits, all-ones info frame) at 512 µs and 30.3 kHz: no timing tells them
 * apart, the carrier does.  As for pioneer over nec, blaupunkt is reported
 * (and outranks grundig) only when the source reports a carrier nearer
 * 30.3 kHz than 38 kHz, or with none known when a loaded keymap names it.
 */
#define BLAUPUNKT_CARRIER 30300
#define BLAUPUNKT_CARRIER_MAX ((BLAUPUNKT_CARRIER + 38000) / 2)

static bool irp_carrier_allows(const struct irp_proto *p, const struct ir_decode_ctx *ctx)
{
	uint32_t carrier = ir_decode_carrier(ctx);

	if (p->id != IR_PROTO_BLAUPUNKT)
		return true;
	if (carrier)
		return carrier > BLAUPUNKT_CARRIER - 4000 && carrier < BLAUPUNKT_CARRIER_MAX;
	return ir_decode_preferred(ctx, p->id);
}

static void irp_emit(const struct irp_proto *p, struct irp_one *o, struct ir_decode_ctx *ctx)
{
	const char *name = irp_name(p);
	unsigned progress = 2 + 2 * o->nsym;
	uint64_t sc;

	if (!p->scancode(o->bits, o->nsym, &sc))
		ir_decode_why(ctx, progress, "%s: %u symbols 0x%llx: check bits wrong (or a marker)",
			      name, o->nsym, (unsigned long long)o->bits);
	else if (!irp_carrier_allows(p, ctx))
		ir_decode_why(ctx, progress, "%s: carrier %u Hz (0: unknown) is not %u Hz", name,
			      ir_decode_carrier(ctx), BLAUPUNKT_CARRIER);
	else
		ir_decode_emit(ctx, p->id, sc, 0, o->start_us);
}

/* A symbol completed: record its bits and decide what comes next.
 * Returns false if the frame is too long. */
static bool irp_symbol_done(const struct irp_proto *p, struct irp_one *o, unsigned sym)
{
	for (unsigned b = p->sym_bits; b-- > 0;)
		o->bits |= (uint64_t)((sym >> b) & 1) << (o->nsym * p->sym_bits + (p->sym_bits - 1 - b));
	o->nsym++;
	if (o->nsym > p->nsym_max)
		return false;
	if (p->sync_after && o->nsym == p->sync_after)
		o->state = STATE_SYNC_PULSE;
	else if (o->nsym == p->nsym_max && p->stop)
		o->state = STATE_STOP;
	else
		irp_start_symbols(o);
	return true;
}

/* Is the symbol element at o->idx the last of the frame's last symbol, a
 * space that the silence after the frame lengthens? */
static bool irp_final_space(const struct irp_proto *p, const struct irp_one *o, uint32_t dur,
			    uint32_t r)
{
	return !p->stop && o->nsym + 1 >= p->nsym_min && (uint64_t)dur >= (uint64_t)r + p->end_gap;
}

/*
 * Element o->idx of the candidate symbols against an edge of `dur`.  On a
 * match updates the candidates (completing a symbol when one ends here) and
 * sets *rest to what a bi-phase merge leaves for the next symbol; returns
 * false when no symbol fits.  *final is set when the frame ended here.
 */
static bool irp_symbol_edge(const struct irp_proto *p, struct irp_one *o, bool pulse,
			    uint32_t dur, uint32_t *rest, bool *final)
{
	unsigned nsyms = 1u << p->sym_bits;
	unsigned cand = o->idx == 0 ? (1u << nsyms) - 1 : o->cand;
	unsigned keep = 0, done = nsyms;

	for (unsigned s = 0; s < nsyms; s++) {
		int32_t e = p->sym[s].d[o->idx];
		bool last = o->idx + 1 == irp_sym_len(&p->sym[s]);
		uint32_t r = irp_abs(e);

		if (!(cand >> s & 1) || !e || (e > 0) != pulse)
			continue;
		if (last && !pulse && irp_final_space(p, o, dur, r)) {
			*final = true;
		} else if (irp_eq(p, dur, e)) {
			*rest = 0;
		} else if (last && p->merge && irp_eq(p, dur, 2 * e)) {
			*rest = dur - r;
		} else {
			continue;
		}
		keep |= 1u << s;
		if (last && done == nsyms)
			done = s;
	}
	if (!keep)
		return false;
	if (done < nsyms)
		return irp_symbol_done(p, o, done);
	o->cand = keep;
	o->idx++;
	return true;
}

/* One edge (or, after a bi-phase merge, the rest of one) in the current
 * state.  Returns false if it breaks the frame. */
static bool irp_step(const struct irp_proto *p, struct irp_one *o, struct ir_decode_ctx *ctx,
		     bool pulse, uint32_t dur, uint32_t *rest)
{
	bool final = false;

	*rest = 0;
	switch (o->state) {
	case STATE_INACTIVE:
		if (!pulse)
			return true;
		if (p->header[0].kind != HDR_NONE)
			return irp_header_pulse(p, o, dur, ir_decode_now(ctx));
		/* headerless (Zenith): a frame starts only after a long silence */
		if (ir_decode_space_before(ctx) < p->lead_silence)
			return false;
		o->nsym = 0;
		o->bits = 0;
		o->start_us = ir_decode_now(ctx);
		irp_start_symbols(o);
		return irp_step(p, o, ctx, pulse, dur, rest);
	case STATE_HEADER_SPACE:
		for (unsigned h = 0; !pulse && h < IRP_MAX_HEADERS; h++) {
			if (!(o->hdr_cand >> h & 1) || !irp_eq(p, dur, p->header[h].space))
				continue;
			if (p->header[h].kind == HDR_DITTO)
				o->state = STATE_DITTO_STOP;
			else
				irp_start_symbols(o);
			return true;
		}
		return false;
	case STATE_SYMBOL:
		if (!irp_symbol_edge(p, o, pulse, dur, rest, &final))
			return false;
		if (final) {
			irp_emit(p, o, ctx);
			o->state = STATE_INACTIVE;
			*rest = 0;
		} else if (pulse && o->nsym == p->nsym_max && !p->stop && o->idx == 0) {
			o->stop = 0; /* a last symbol that ends lit */
			o->state = STATE_END;
		}
		return true;
	case STATE_SYNC_PULSE:
		if (!pulse || !irp_eq(p, dur, p->sync_pulse))
			return false;
		o->state = STATE_SYNC_SPACE;
		return true;
	case STATE_SYNC_SPACE:
		if (pulse || !irp_eq(p, dur, p->sync_space))
			return false;
		irp_start_symbols(o);
		return true;
	case STATE_STOP:
		if (!pulse || !irp_eq(p, dur, p->stop))
			return false;
		o->stop = dur;
		o->stop_us = ir_decode_now(ctx);
		o->state = STATE_END;
		return true;
	case STATE_END:
		if (pulse || dur < p->end_gap)
			return false;
		irp_emit(p, o, ctx);
		o->state = STATE_INACTIVE;
		/* Dish: the stop pulse and this space are the next frame's header */
		if (o->stop && irp_header_pulse(p, o, o->stop, o->stop_us) &&
		    !irp_step(p, o, ctx, pulse, dur, rest))
			o->state = STATE_INACTIVE;
		return true;
	case STATE_DITTO_STOP:
		if (!pulse || !irp_eq(p, dur, p->stop))
			return false;
		struct ir_protocol_set of;

		ir_protocol_set_clear(&of);
		ir_protocol_set_add(&of, p->id);
		ir_decode_emit_repeat(ctx, &of, o->start_us);
		o->state = STATE_INACTIVE;
		return true;
	}
	return false;
}

/* Why the edge broke the frame of row p (irjack decode -v). */
static void irp_why(const struct irp_proto *p, const struct irp_one *o, struct ir_decode_ctx *ctx,
		    bool pulse, uint32_t dur)
{
	const char *name, *what = pulse ? "pulse" : "space";
	unsigned progress = (p->header[0].kind != HDR_NONE ? 2 : 0) + 2 * o->nsym + o->idx;

	if (!ir_decode_wants_why(ctx) || (o->state == STATE_INACTIVE && !pulse))
		return;
	name = irp_name(p);
	switch (o->state) {
	case STATE_INACTIVE:
		ir_decode_why(ctx, 0, "%s: header pulse %u us, not %u", name, dur,
			      irp_abs(p->header[0].pulse ? p->header[0].pulse : p->sym[0].d[0]));
		return;
	case STATE_HEADER_SPACE:
		ir_decode_why(ctx, 1, "%s: header %s %u us, not %u", name, what, dur,
			      irp_abs(p->header[0].space));
		return;
	case STATE_SYMBOL:
		ir_decode_why(ctx, progress, "%s: symbol %u, element %u: %s %u us fits no symbol",
			      name, o->nsym, o->idx, what, dur);
		return;
	case STATE_SYNC_PULSE:
	case STATE_SYNC_SPACE:
		ir_decode_why(ctx, progress, "%s: sync after %u symbols: %s %u us, not %u", name,
			      o->nsym, what, dur,
			      irp_abs(o->state == STATE_SYNC_PULSE ? p->sync_pulse : p->sync_space));
		return;
	case STATE_STOP:
	case STATE_DITTO_STOP:
		ir_decode_why(ctx, progress, "%s: stop %s %u us, not %u", name, what, dur, p->stop);
		return;
	case STATE_END:
		ir_decode_why(ctx, progress, "%s: %u symbols, then %s %u us, not the silence (>= %u) that ends a frame",
			      name, o->nsym, what, dur, p->end_gap);
		return;
	}
}

static void irp_decode_one(const struct irp_proto *p, struct irp_one *o,
			   struct ir_decode_ctx *ctx, bool pulse, uint32_t dur)
{
	uint32_t whole = dur, rest;

	while (irp_step(p, o, ctx, pulse, dur, &rest)) {
		if (!rest)
			goto done;
		dur = rest;
	}
	irp_why(p, o, ctx, pulse, dur);
	o->state = STATE_INACTIVE;
	/* The edge that broke a frame may start the next: a pulse as a header
	 * pulse, a space as the header space after the last pulse (Dish's
	 * frames follow each other with no header pulse of their own). */
	if (pulse) {
		irp_step(p, o, ctx, pulse, dur, &rest);
	} else if (o->last_pulse && p->header[0].kind != HDR_NONE &&
		   irp_header_pulse(p, o, o->last_pulse, o->last_pulse_us) &&
		   !irp_step(p, o, ctx, pulse, dur, &rest)) {
		o->state = STATE_INACTIVE;
	}
done:
	if (pulse) {
		o->last_pulse = whole;
		o->last_pulse_us = ir_decode_now(ctx);
	}
}

static void irp_decode(void *state, struct ir_decode_ctx *ctx, const struct ir_edge *e)
{
	struct irp_dec *d = state;
	bool pulse = e->kind == IR_PULSE;
	uint32_t dur = e->duration;
	const struct ir_protocol_set *enabled = ir_decode_enabled_set(ctx);
	bool why = ir_decode_wants_why(ctx);

	for (size_t i = 0; i < IRP_COUNT; i++) {
		if (!ir_protocol_set_has(enabled, irp_protos[i].id))
			continue;
		/* an idle row takes no space (irp_step()): only pulses and the
		 * rows in a frame are worth the call */
		if (pulse || d->one[i].state != STATE_INACTIVE) {
			if (why) /* the row only names whose reason it is */
				ir_decode_set_row(ctx, (unsigned)i);
			irp_decode_one(&irp_protos[i], &d->one[i], ctx, pulse, dur);
		}
		if (e->kind == IR_TIMEOUT)
			d->one[i].last_pulse = 0;
	}
}

/* No space_deadline(): the rows share one decode() call, and an early
 * silence handed to all of them would break a frame of another row that
 * expects a longer space.  A Zenith frame, and a Blaupunkt frame whose last
 * bit ends dark, are reported when the silence ends or times out. */

/* ---- encoder ---- */

static int irp_push(struct ir_edge_buf *out, int32_t d)
{
	return d > 0 ? ir_edge_buf_pulse(out, (uint32_t)d) : ir_edge_buf_space(out, irp_abs(d));
}

/* One frame of `nsym` symbols of `bits` after header h (HDR_NONE: none). */
static int irp_gen(const struct irp_proto *p, const struct irp_header *h, uint64_t bits,
		   unsigned nsym, struct ir_edge_buf *out)
{
	int ret = 0;

	if (h->kind != HDR_NONE) {
		ret |= irp_push(out, h->pulse);
		ret |= irp_push(out, h->space);
	}
	for (unsigned i = 0; i < nsym && h->kind != HDR_DITTO; i++) {
		unsigned sym = (unsigned)(bits >> (i * p->sym_bits)) & ((1u << p->sym_bits) - 1);

		if (p->sym_bits == 2) /* first bit sent is the symbol's high bit */
			sym = (sym & 1) << 1 | sym >> 1;
		if (p->sync_after && i == p->sync_after) {
			ret |= irp_push(out, p->sync_pulse);
			ret |= irp_push(out, p->sync_space);
		}
		for (unsigned k = 0; k < irp_sym_len(&p->sym[sym]); k++)
			ret |= irp_push(out, p->sym[sym].d[k]);
	}
	if (p->stop)
		ret |= irp_push(out, p->stop);
	return ret ? -ENOMEM : 0;
}

static const struct irp_proto *irp_find(enum ir_protocol id)
{
	for (size_t i = 0; i < IRP_COUNT; i++)
		if (irp_protos[i].id == id)
			return &irp_protos[i];
	return NULL;
}

/* Blaupunkt's marker and the silence after it (44 units) before a press. */
#define BLAUPUNKT_MARKER_GAP (44 * 512)

static int irp_encode(enum ir_protocol id, uint64_t scancode, unsigned toggle,
		      struct ir_edge_buf *out)
{
	const struct irp_proto *p = irp_find(id);
	uint64_t bits;
	unsigned nsym;
	int ret;

	(void)toggle;
	if (!p || p->bits(scancode, &bits, &nsym) < 0)
		return -EINVAL;
	if (id == IR_PROTO_BLAUPUNKT) {
		ret = irp_gen(p, &p->header[0], BLAUPUNKT_MARKER, nsym, out);
		if (ret == 0)
			ret = ir_edge_buf_space(out, BLAUPUNKT_MARKER_GAP) ? -ENOMEM : 0;
		if (ret < 0)
			return ret;
	}
	return irp_gen(p, &p->header[0], bits, nsym, out);
}

/* Held keys: DirecTV's frame with the short header, G.I. Cable's ditto,
 * Dish's frame without a header (the last stop pulse began it); the others
 * resend the frame. */
static int irp_encode_repeat(enum ir_protocol id, uint64_t scancode, struct ir_edge_buf *out)
{
	const struct irp_proto *p = irp_find(id);
	static const struct irp_header none = { HDR_NONE, 0, 0 };
	uint64_t bits;
	unsigned nsym;

	if (!p || p->bits(scancode, &bits, &nsym) < 0)
		return -EINVAL;
	if (id == IR_PROTO_DISH_NETWORK)
		return irp_gen(p, &none, bits, nsym, out);
	if (p->header[1].kind != HDR_NONE)
		return irp_gen(p, &p->header[1], bits, nsym, out);
	return irp_gen(p, &p->header[0], bits, nsym, out);
}

#define IRP_INFO(ID, NAME, MASK, CARRIER, UNIT, MARGIN, PERIOD, GAP, PRIO, SUMMARY)                 \
	{                                                                                  \
		.id = ID, .name = NAME, .family = "irp_table", .scancode_mask = MASK,      \
		.carrier_hz = CARRIER, .duty_cycle = 33, .unit_us = UNIT,                  \
		.margin_us = MARGIN, .repeat_period_ms = 125, .frame_period_us = PERIOD,   \
		.min_trailing_space_us = GAP, .has_encoder = true, .priority = PRIO,       \
		.summary = SUMMARY,                                                        \
	}

/* Row by row, the same protocols as irp_protos. */
static const struct ir_protocol_info irp_infos[IRP_COUNT] = {
	IRP_INFO(IR_PROTO_DIRECTV, "directv", 0xf00ff, 38000, 600, 299, 0, 30000, 0,
		 "DirecTV: 4-bit device, 8-bit function, checksum; 2 bits per pulse/space pair"),
	IRP_INFO(IR_PROTO_DISH_NETWORK, "dish_network", 0x1f1f3f, 57600, 406, 200, 0, 6090, 0,
		 "Dish Network (57.6 kHz): device D << 16 | subdevice S << 8 | 6-bit function"),
	IRP_INFO(IR_PROTO_GICABLE, "gi_cable", 0xf00ff, 38700, 490, 245, 0, 41160, 0,
		 "G.I. Cable: 4-bit device, 8-bit function, checksum; ditto repeats"),
	IRP_INFO(IR_PROTO_ZENITH, "zenith", 0x0f0100ff, 40000, 520, 250, 0, 90000, 0,
		 "Zenith: (D << 8 | S) << 16 | F, F of D = 5..8 bits, S the double-start flag"),
	IRP_INFO(IR_PROTO_PROTON, "proton", 0xff00ff, 38000, 500, 249, 63000, 10000, 1,
		 "Proton: 8-bit device, sync, 8-bit function"),
	IRP_INFO(IR_PROTO_BLAUPUNKT, "blaupunkt", 0x7003f, 30300, 512, 200, 0, 236 * 512, 1,
		 "Blaupunkt (30.3 kHz bi-phase): 3-bit device << 16 | 6-bit function (grundig unless the carrier says 30 kHz)"),
};

_Static_assert(sizeof(irp_infos) / sizeof(irp_infos[0]) == IRP_COUNT, "one info per row");

const struct ir_family ir_family_irp_table = {
	.name = "irp_table",
	.protocols = irp_infos,
	.protocol_count = IRP_COUNT,
	.state_size = sizeof(struct irp_dec),
	.reset = irp_reset,
	.decode = irp_decode,
	.encode = irp_encode,
	.encode_repeat = irp_encode_repeat,
};
