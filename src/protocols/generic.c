/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * generic.c - decoders and encoders for remotes described by timings
 * (rc_keymaps' pulse_distance, pulse_length, manchester and raw protocols,
 * which ir-keytable runs as BPF programs).  One parametric family: the core
 * runs one instance per remote, each reading its struct ir_generic_params.
 *
 *   pulse_distance: [header] bits × (bit_pulse, bit_0_space|bit_1_space) [trailer_pulse]
 *   pulse_length:   [header] bits × (bit_0_pulse|bit_1_pulse, bit_space)
 *   manchester:     [header] bits × (0: zero_pulse zero_space | 1: one_space one_pulse)
 *   raw:            one exact sequence of timings per key
 *
 * Every duration is compared with the remote's `margin` (ir-keytable's
 * default 200 µs).  Defaults when a keymap leaves a parameter out are
 * ir-keytable's BPF defaults (see ir_generic_params_new()).
 */
#include <stdlib.h>
#include <string.h>

#include "ir_family.h"
#include "ir_generic.h"

/* Longest duration a keymap may give: 1 s is far above any IR timing. */
#define GENERIC_MAX_US 1000000
/* Between repeated frames on transmit when the keymap gives no trailer
 * space: 20 ms is more than any bit or header space in rc_keymaps (the
 * longest, Dish Network's header space, is 6045 µs). */
#define GENERIC_FRAME_GAP 20000
/* IR_GENERIC_MAX_RAW_EDGES as text, for the error that names it. */
#define RAW_MAX_TEXT "2048"
_Static_assert(IR_GENERIC_MAX_RAW_EDGES == 2048, "RAW_MAX_TEXT names the raw bound");

enum generic_state {
	STATE_INACTIVE,
	STATE_HEADER_SPACE,
	STATE_BIT_PULSE,
	STATE_BIT_SPACE,
	STATE_TRAILER_PULSE,
};

struct generic_dec {
	enum generic_state state;
	unsigned count;
	uint64_t bits;
	uint64_t start_us;
	/* manchester: inside a bit, after its first half; that half's level */
	bool half;
	bool first_is_pulse;
	/* raw: the last edges seen (durations, alternating), a ring of
	 * raw_len entries from raw_head (the oldest): no copying per edge */
	uint32_t raw_hist[IR_GENERIC_MAX_RAW_EDGES];
	uint64_t raw_start[IR_GENERIC_MAX_RAW_EDGES];
	size_t raw_len, raw_head;
};

static void generic_reset(void *state)
{
	struct generic_dec *d = state;

	d->state = STATE_INACTIVE;
	d->count = 0;
	d->bits = 0;
	d->half = false;
	d->raw_len = 0;
	d->raw_head = 0;
}

static void generic_start(struct generic_dec *d, const struct ir_decode_ctx *ctx)
{
	d->start_us = ir_decode_now(ctx);
	d->count = 0;
	d->bits = 0;
	d->half = false;
}

/* Appends a data bit; returns true when the frame's bits are complete. */
static bool generic_bit(struct generic_dec *d, const struct ir_generic_params *p, unsigned bit)
{
	if (p->reverse)
		d->bits |= (uint64_t)bit << d->count;
	else
		d->bits = d->bits << 1 | bit;
	d->count++;
	return d->count == p->bits;
}

static void generic_emit(struct generic_dec *d, struct ir_decode_ctx *ctx,
			 const struct ir_generic_params *p)
{
	uint64_t scancode = d->bits;
	unsigned toggle = 0;

	if (p->kind == IR_PROTO_MANCHESTER && p->toggle_bit < p->bits) {
		toggle = (unsigned)(scancode >> p->toggle_bit) & 1;
		scancode &= ~(UINT64_C(1) << p->toggle_bit);
	}
	ir_decode_emit(ctx, p->kind, scancode, toggle, d->start_us);
	d->state = STATE_INACTIVE;
}

static void pulse_distance_decode(struct generic_dec *d, struct ir_decode_ctx *ctx,
				  const struct ir_generic_params *p, bool pulse, uint32_t dur)
{
	uint32_t m = p->margin;

	switch (d->state) {
	case STATE_INACTIVE:
		if (!pulse)
			return;
		if (p->header_pulse && ir_eq_margin(dur, p->header_pulse, m)) {
			generic_start(d, ctx);
			d->state = STATE_HEADER_SPACE;
			return;
		}
		if ((!p->header_pulse || p->header_optional) && ir_eq_margin(dur, p->bit_pulse, m)) {
			generic_start(d, ctx);
			d->state = STATE_BIT_SPACE;
			return;
		}
		return;

	case STATE_HEADER_SPACE:
		if (pulse)
			break;
		if (ir_eq_margin(dur, p->header_space, m)) {
			d->state = STATE_BIT_PULSE;
			return;
		}
		/* An optional header's pulse may have been the first bit's
		 * (Dish Network: 525 vs 440 µs, inside the margin). */
		if (p->header_optional &&
		    (ir_eq_margin(dur, p->bit_0_space, m) || ir_eq_margin(dur, p->bit_1_space, m))) {
			d->state = STATE_BIT_SPACE;
			pulse_distance_decode(d, ctx, p, pulse, dur);
			return;
		}
		break;

	case STATE_BIT_PULSE:
		if (!pulse || !ir_eq_margin(dur, p->bit_pulse, m))
			break;
		d->state = STATE_BIT_SPACE;
		return;

	case STATE_BIT_SPACE: {
		unsigned bit;

		if (pulse)
			break;
		if (ir_eq_margin(dur, p->bit_1_space, m))
			bit = 1;
		else if (ir_eq_margin(dur, p->bit_0_space, m))
			bit = 0;
		else
			break;
		if (!generic_bit(d, p, bit)) {
			d->state = STATE_BIT_PULSE;
			return;
		}
		if (p->trailer_pulse) {
			d->state = STATE_TRAILER_PULSE;
			return;
		}
		/* Without a trailer the frame ends with its last bit's space:
		 * certain once it is over. */
		generic_emit(d, ctx, p);
		return;
	}

	case STATE_TRAILER_PULSE:
		if (!pulse || !ir_eq_margin(dur, p->trailer_pulse, m))
			break;
		generic_emit(d, ctx, p);
		return;
	}
	d->state = STATE_INACTIVE;
}

static void pulse_length_decode(struct generic_dec *d, struct ir_decode_ctx *ctx,
				const struct ir_generic_params *p, bool pulse, uint32_t dur)
{
	uint32_t m = p->margin;

	switch (d->state) {
	case STATE_INACTIVE:
		if (!pulse)
			return;
		if (p->header_pulse && ir_eq_margin(dur, p->header_pulse, m)) {
			generic_start(d, ctx);
			d->state = STATE_HEADER_SPACE;
			return;
		}
		if (p->header_pulse && !p->header_optional)
			return;
		generic_start(d, ctx);
		d->state = STATE_BIT_PULSE;
		pulse_length_decode(d, ctx, p, pulse, dur);
		return;

	case STATE_HEADER_SPACE:
		if (pulse || !ir_eq_margin(dur, p->header_space, m))
			break;
		d->state = STATE_BIT_PULSE;
		return;

	case STATE_BIT_PULSE: {
		unsigned bit;

		if (!pulse)
			break;
		if (ir_eq_margin(dur, p->bit_1_pulse, m))
			bit = 1;
		else if (ir_eq_margin(dur, p->bit_0_pulse, m))
			bit = 0;
		else
			break;
		/* The last bit is certain with its pulse: its space is the
		 * gap after the frame. */
		if (generic_bit(d, p, bit)) {
			generic_emit(d, ctx, p);
			return;
		}
		d->state = STATE_BIT_SPACE;
		return;
	}

	case STATE_BIT_SPACE:
		if (pulse || !ir_eq_margin(dur, p->bit_space, m))
			break;
		d->state = STATE_BIT_PULSE;
		return;

	case STATE_TRAILER_PULSE:
		break;
	}
	d->state = STATE_INACTIVE;
}

/*
 * Manchester: a merged edge may cover two half-bits (the second half of one
 * bit and the first of the next when they share a level), so each edge is
 * eaten one half at a time.  `half` false: at a bit's start.
 */
static void manchester_decode(struct generic_dec *d, struct ir_decode_ctx *ctx,
			      const struct ir_generic_params *p, bool pulse, uint32_t dur)
{
	uint32_t m = p->margin;
	struct ir_edge e = { .duration = dur, .kind = pulse ? IR_PULSE : IR_SPACE };

	switch (d->state) {
	case STATE_INACTIVE:
		if (!pulse)
			return;
		generic_start(d, ctx);
		if (p->header_pulse) {
			if (!ir_eq_margin(dur, p->header_pulse, m))
				return;
			d->state = STATE_HEADER_SPACE;
			return;
		}
		/* No header: the first bit's leading space (a 1) is not seen,
		 * so the frame is taken to start with a 1 (RC-5's start bit),
		 * as the encoder insists. */
		d->state = STATE_BIT_PULSE;
		d->half = true;
		d->first_is_pulse = false;
		break;

	case STATE_HEADER_SPACE:
		if (pulse)
			goto fail;
		d->state = STATE_BIT_PULSE;
		if (ir_eq_margin(dur, p->header_space, m))
			return;
		/* header space merged with a 1's leading space */
		if (!ir_eq_margin(dur, p->header_space + p->one_space, m))
			goto fail;
		d->half = true;
		d->first_is_pulse = false;
		return;

	default:
		break;
	}

	while (e.duration > m) {
		uint32_t want;

		if (!d->half) {
			d->first_is_pulse = pulse;
			want = pulse ? p->zero_pulse : p->one_space;
			if (!ir_geq_margin(e.duration, want, m))
				goto fail;
			ir_edge_consume(&e, want);
			d->half = true;
			continue;
		}
		if (pulse == d->first_is_pulse)
			goto fail;
		want = pulse ? p->one_pulse : p->zero_space;
		if (!ir_geq_margin(e.duration, want, m))
			goto fail;
		ir_edge_consume(&e, want);
		d->half = false;
		if (generic_bit(d, p, pulse ? 1 : 0)) {
			generic_emit(d, ctx, p);
			return;
		}
	}
	return;
fail:
	d->state = STATE_INACTIVE;
}

/* The i-th oldest duration the raw decoder keeps. */
static size_t raw_at(const struct generic_dec *d, size_t i)
{
	return (d->raw_head + i) % IR_GENERIC_MAX_RAW_EDGES;
}

/* Raw: keep the recent edges and look for a key whose timings they end with. */
static void raw_decode(struct generic_dec *d, struct ir_decode_ctx *ctx,
		       const struct ir_generic_params *p, bool pulse, uint32_t dur, bool timeout)
{
	size_t slot;

	if (timeout || (!pulse && d->raw_len == 0)) {
		d->raw_len = 0;
		d->raw_head = 0;
		return;
	}
	if (d->raw_len == IR_GENERIC_MAX_RAW_EDGES) {
		d->raw_head = raw_at(d, 1);
		d->raw_len--;
	}
	slot = raw_at(d, d->raw_len);
	d->raw_hist[slot] = dur;
	d->raw_start[slot] = ir_decode_now(ctx);
	d->raw_len++;
	if (!pulse)
		return;
	for (size_t k = 0; k < p->raw_count; k++) {
		const struct ir_generic_raw_key *key = &p->raw[k];
		size_t base, i;

		/* keys start with a pulse and end with one; the window ends
		 * with a pulse, so parity lines up when it starts on one */
		if (key->count > d->raw_len)
			continue;
		base = d->raw_len - key->count;
		for (i = 0; i < key->count; i++)
			if (!ir_eq_margin(d->raw_hist[raw_at(d, base + i)], key->durations[i], p->margin))
				break;
		if (i < key->count)
			continue;
		ir_decode_emit(ctx, IR_PROTO_RAW, k, 0, d->raw_start[raw_at(d, base)]);
		d->raw_len = 0;
		d->raw_head = 0;
		return;
	}
}

static void generic_decode(void *state, struct ir_decode_ctx *ctx, const struct ir_edge *e)
{
	struct generic_dec *d = state;
	const struct ir_generic_params *p = ir_decode_params(ctx);
	bool pulse = e->kind == IR_PULSE;
	uint32_t dur = e->duration;

	if (!p || (e->kind != IR_PULSE && e->kind != IR_SPACE && e->kind != IR_TIMEOUT))
		return;
	switch (p->kind) {
	case IR_PROTO_PULSE_DISTANCE:
		pulse_distance_decode(d, ctx, p, pulse, dur);
		break;
	case IR_PROTO_PULSE_LENGTH:
		pulse_length_decode(d, ctx, p, pulse, dur);
		break;
	case IR_PROTO_MANCHESTER:
		manchester_decode(d, ctx, p, pulse, dur);
		break;
	case IR_PROTO_RAW:
		raw_decode(d, ctx, p, pulse, dur, e->kind == IR_TIMEOUT);
		break;
	default:
		break;
	}
}

/* ---- encoding ---- */

static int manchester_encode(const struct ir_generic_params *p, uint64_t data,
			     struct ir_edge_buf *out)
{
	int ret = 0;

	if (p->header_pulse) {
		ret |= ir_edge_buf_pulse(out, p->header_pulse);
		ret |= ir_edge_buf_space(out, p->header_space);
	}
	for (unsigned i = 0; i < p->bits; i++) {
		unsigned pos = p->reverse ? i : p->bits - 1 - i;

		if ((data >> pos) & 1) {
			/* a leading space at the very start is not sent */
			if (out->len)
				ret |= ir_edge_buf_space(out, p->one_space);
			ret |= ir_edge_buf_pulse(out, p->one_pulse);
		} else {
			ret |= ir_edge_buf_pulse(out, p->zero_pulse);
			ret |= ir_edge_buf_space(out, p->zero_space);
		}
	}
	return ret ? -ENOMEM : 0;
}

static int generic_encode_params(const void *params, uint64_t scancode, unsigned toggle,
				 unsigned repeats, struct ir_edge_buf *out)
{
	const struct ir_generic_params *p = params;
	uint64_t data = scancode;
	uint64_t first_bit;
	int ret;

	if (!p)
		return -EINVAL;
	if (p->kind != IR_PROTO_RAW && p->bits < 64 && (scancode >> p->bits))
		return -EINVAL;
	if (p->kind == IR_PROTO_MANCHESTER && p->toggle_bit < p->bits) {
		data &= ~(UINT64_C(1) << p->toggle_bit);
		data |= (uint64_t)(toggle & 1) << p->toggle_bit;
	}
	if (p->kind == IR_PROTO_RAW && scancode >= p->raw_count)
		return -EINVAL;
	if (p->kind == IR_PROTO_MANCHESTER && !p->header_pulse) {
		/* bits is 1..64 here (ir_generic_params_set) */
		first_bit = p->reverse ? data & 1 : (data >> (p->bits - 1)) & 1;
		if (!first_bit)
			return -EINVAL; /* the decoder could not see where it starts */
	}

	for (unsigned r = 0; r <= repeats; r++) {
		switch (p->kind) {
		case IR_PROTO_PULSE_DISTANCE: {
			struct ir_pd_timings t = {
				.header_pulse = p->header_pulse, .header_space = p->header_space,
				.bit_pulse = p->bit_pulse, .bit_0_space = p->bit_0_space,
				.bit_1_space = p->bit_1_space, .trailer_pulse = p->trailer_pulse,
				.msb_first = !p->reverse,
			};
			ret = ir_gen_pulse_distance(out, &t, p->bits, data);
			break;
		}
		case IR_PROTO_PULSE_LENGTH: {
			struct ir_pl_timings t = {
				.header_pulse = p->header_pulse, .header_space = p->header_space,
				.bit_0_pulse = p->bit_0_pulse, .bit_1_pulse = p->bit_1_pulse,
				.bit_space = p->bit_space, .msb_first = !p->reverse,
			};
			ret = ir_gen_pulse_length(out, &t, p->bits, data);
			break;
		}
		case IR_PROTO_MANCHESTER:
			/* a repeat's leading space merges into the gap */
			ret = manchester_encode(p, data, out);
			break;
		case IR_PROTO_RAW: {
			const struct ir_generic_raw_key *k = &p->raw[scancode];

			ret = 0;
			for (size_t i = 0; i < k->count && !ret; i++)
				ret = i % 2 ? ir_edge_buf_space(out, k->durations[i])
					    : ir_edge_buf_pulse(out, k->durations[i]);
			break;
		}
		default:
			return -EINVAL;
		}
		if (ret)
			return ret;
		ret = ir_edge_buf_space(out, p->trailer_space > GENERIC_FRAME_GAP ? p->trailer_space
										   : GENERIC_FRAME_GAP);
		if (ret)
			return ret;
	}
	return 0;
}

/* ---- parameters ---- */

struct ir_generic_params *ir_generic_params_new(enum ir_protocol kind)
{
	struct ir_generic_params *p;

	if (kind < IR_PROTO_PULSE_DISTANCE || kind > IR_PROTO_RAW)
		return NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->kind = kind;
	p->margin = 200;
	p->toggle_bit = 100;
	switch (kind) {
	case IR_PROTO_PULSE_DISTANCE:
		p->header_pulse = 2125;
		p->header_space = 1875;
		p->bit_pulse = 625;
		p->bit_0_space = 375;
		p->bit_1_space = 1625;
		p->trailer_pulse = 625;
		p->bits = 4;
		break;
	case IR_PROTO_PULSE_LENGTH:
		p->header_pulse = 2125;
		p->header_space = 1875;
		p->bit_space = 625;
		p->bit_0_pulse = 375;
		p->bit_1_pulse = 1625;
		p->bits = 4;
		break;
	case IR_PROTO_MANCHESTER:
		/* RC-5's 889 µs halves, 14 bits */
		p->zero_pulse = p->zero_space = p->one_pulse = p->one_space = 888;
		p->bits = 14;
		break;
	default:
		break;
	}
	return p;
}

void ir_generic_params_free(void *ptr)
{
	struct ir_generic_params *p = ptr;

	if (!p)
		return;
	for (size_t i = 0; i < p->raw_count; i++)
		free(p->raw[i].durations);
	free(p->raw);
	free(p);
}

int ir_generic_params_set(struct ir_generic_params *p, const char *name, int64_t value)
{
	static const struct {
		const char *name;
		size_t offset;
	} durations[] = {
#define D(f) { #f, offsetof(struct ir_generic_params, f) }
		D(margin), D(header_pulse), D(header_space), D(bit_pulse), D(bit_0_space),
		D(bit_1_space), D(bit_space), D(bit_0_pulse), D(bit_1_pulse), D(trailer_pulse),
		D(trailer_space), D(zero_pulse), D(zero_space), D(one_pulse), D(one_space),
#undef D
	};

	for (size_t i = 0; i < sizeof(durations) / sizeof(durations[0]); i++) {
		if (strcmp(name, durations[i].name))
			continue;
		if (value < 0 || value > GENERIC_MAX_US)
			return -ERANGE;
		*(uint32_t *)(void *)((char *)p + durations[i].offset) = (uint32_t)value;
		return 0;
	}
	if (!strcmp(name, "bits")) {
		if (value < 1 || value > IR_GENERIC_MAX_BITS)
			return -ERANGE;
		p->bits = (unsigned)value;
		return 0;
	}
	if (!strcmp(name, "toggle_bit")) {
		if (value < 0 || value > 1000)
			return -ERANGE;
		p->toggle_bit = (unsigned)value;
		return 0;
	}
	if (!strcmp(name, "reverse") || !strcmp(name, "header_optional")) {
		if (value != 0 && value != 1)
			return -ERANGE;
		if (name[0] == 'r')
			p->reverse = value;
		else
			p->header_optional = value;
		return 0;
	}
	/* ir-keytable's BPF programs take these too; irjack decodes the same
	 * frames without them (repeats are whole frames here; the reported
	 * protocol is the generic one). */
	if (!strcmp(name, "repeat_pulse") || !strcmp(name, "repeat_space") ||
	    !strcmp(name, "rc_protocol") || !strcmp(name, "scancode_mask"))
		return value < 0 || value > UINT32_MAX ? -ERANGE : 0;
	return -ENOENT;
}

int ir_generic_params_check(const struct ir_generic_params *p, const char **why)
{
	*why = NULL;
	if (p->header_pulse && !p->header_space && p->kind != IR_PROTO_MANCHESTER)
		*why = "header_pulse needs a header_space";
	switch (p->kind) {
	case IR_PROTO_PULSE_DISTANCE:
		if (!p->bit_pulse || !p->bit_0_space || !p->bit_1_space)
			*why = "bit_pulse, bit_0_space and bit_1_space must be non-zero";
		else if (ir_eq_margin(p->bit_0_space, p->bit_1_space, 2 * p->margin))
			*why = "bit_0_space and bit_1_space are closer than twice the margin";
		break;
	case IR_PROTO_PULSE_LENGTH:
		if (!p->bit_space || !p->bit_0_pulse || !p->bit_1_pulse)
			*why = "bit_space, bit_0_pulse and bit_1_pulse must be non-zero";
		else if (ir_eq_margin(p->bit_0_pulse, p->bit_1_pulse, 2 * p->margin))
			*why = "bit_0_pulse and bit_1_pulse are closer than twice the margin";
		break;
	case IR_PROTO_MANCHESTER:
		if (!p->zero_pulse || !p->zero_space || !p->one_pulse || !p->one_space)
			*why = "zero_pulse, zero_space, one_pulse and one_space must be non-zero";
		else if (p->margin >= p->zero_pulse || p->margin >= p->one_space ||
			 p->margin >= p->zero_space || p->margin >= p->one_pulse)
			*why = "margin must be shorter than every half-bit";
		break;
	case IR_PROTO_RAW:
		if (!p->raw_count)
			*why = "a raw protocol needs [[protocols.raw]] entries";
		break;
	default:
		*why = "not a generic protocol";
	}
	return *why ? -EINVAL : 0;
}

int ir_generic_params_add_raw(struct ir_generic_params *p, const char *text,
			      uint64_t *scancode, const char **why)
{
	uint32_t buf[IR_GENERIC_MAX_RAW_EDGES + 1];
	size_t n = 0;
	const char *s = text;
	struct ir_generic_raw_key *k;

	*why = NULL;
	while (*s) {
		bool want_pulse = n % 2 == 0;
		unsigned long v = 0;
		size_t digits = 0;

		if (*s == ' ' || *s == '\t' || *s == ',') {
			s++;
			continue;
		}
		if (*s == '+' || *s == '-') {
			if ((*s == '+') != want_pulse) {
				*why = "raw timings must alternate +pulse and -space, starting with a pulse";
				return -EINVAL;
			}
			s++;
		}
		while (*s >= '0' && *s <= '9') {
			v = v * 10 + (unsigned long)(*s - '0');
			if (v > GENERIC_MAX_US) {
				*why = "raw duration out of range (max 1000000 us)";
				return -EINVAL;
			}
			s++;
			digits++;
		}
		if (!digits || v == 0) {
			*why = "raw timings must be non-zero durations in µs";
			return -EINVAL;
		}
		if (n == IR_GENERIC_MAX_RAW_EDGES + 1) {
			*why = "too many raw timings (max " RAW_MAX_TEXT ")";
			return -E2BIG;
		}
		buf[n++] = (uint32_t)v;
	}
	if (n % 2 == 0 && n)
		n--; /* the gap after the last pulse is not part of the key */
	if (!n) {
		*why = "empty raw timings";
		return -EINVAL;
	}
	if (n > IR_GENERIC_MAX_RAW_EDGES) {
		*why = "too many raw timings (max " RAW_MAX_TEXT ")";
		return -E2BIG;
	}
	if (p->raw_count == p->raw_cap) {
		size_t cap = p->raw_cap ? p->raw_cap * 2 : 8;
		struct ir_generic_raw_key *r = realloc(p->raw, cap * sizeof(*r));

		if (!r)
			return -ENOMEM;
		p->raw = r;
		p->raw_cap = cap;
	}
	k = &p->raw[p->raw_count];
	k->durations = malloc(n * sizeof(*k->durations));
	if (!k->durations)
		return -ENOMEM;
	memcpy(k->durations, buf, n * sizeof(*buf));
	k->count = n;
	*scancode = p->raw_count++;
	return 0;
}

static const struct ir_protocol_info generic_infos[] = {
	{
		.id = IR_PROTO_PULSE_DISTANCE, .name = "pulse_distance", .family = "generic",
		.scancode_mask = UINT64_MAX, .carrier_hz = 38000, .margin_us = 200,
		.summary = "timings from a keymap: pulse distance bits (rc_keymaps)",
	},
	{
		.id = IR_PROTO_PULSE_LENGTH, .name = "pulse_length", .family = "generic",
		.scancode_mask = UINT64_MAX, .carrier_hz = 38000, .margin_us = 200,
		.summary = "timings from a keymap: pulse length bits (rc_keymaps)",
	},
	{
		.id = IR_PROTO_MANCHESTER, .name = "manchester", .family = "generic",
		.scancode_mask = UINT64_MAX, .carrier_hz = 36000, .margin_us = 200,
		.has_toggle = true,
		.summary = "timings from a keymap: Manchester bits (rc_keymaps)",
	},
	{
		.id = IR_PROTO_RAW, .name = "raw", .family = "generic",
		.scancode_mask = UINT64_MAX, .carrier_hz = 38000, .margin_us = 200,
		.summary = "timings from a keymap: one raw sequence per key (rc_keymaps)",
	},
};

const struct ir_family ir_family_generic = {
	.name = "generic",
	.protocols = generic_infos,
	.protocol_count = sizeof(generic_infos) / sizeof(generic_infos[0]),
	.state_size = sizeof(struct generic_dec),
	.reset = generic_reset,
	.decode = generic_decode,
	.parametric = true,
	.encode_params = generic_encode_params,
};
