/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lirc.c - a remote described by a lircd.conf file, read by LIRC's rules.
 *
 * lircd.conf describes a frame as: header, plead, pre_data bits, pre,
 * the button's bits, post, post_data bits, ptrail, foot, then the gap.  A
 * duration matches if it is within eps % or aeps µs of the expected one,
 * whichever is larger (LIRC's defaults 30 % and 100 µs).
 *
 * Decoding: a lircd.conf remote only ever reports its own buttons, so the
 * decoder collects one frame (up to a space longer than any space inside
 * a frame) and matches it against the timings each button (and the
 * toggled variant, and the remote's repeat code) would produce.  This
 * trades speed (a few hundred templates per frame end) for one code path
 * shared by every encoding lircd knows, with the encoder the single
 * statement of each encoding.
 */
#include <stdlib.h>
#include <string.h>

#include "../ir_family.h"
#include "../lirc_remote.h"

/* Edges of the longest frame we collect (raw codes are bounded by the
 * parser to fewer). */
#define LIRC_MAX_EDGES 1024
/* A space inside a frame is never longer than this many times the
 * remote's longest in-frame space. */
#define LIRC_END_FACTOR 2

struct lirc_dec {
	uint32_t edges[LIRC_MAX_EDGES]; /* alternating pulse, space from a pulse */
	size_t n;
	uint64_t start_us;
	uint64_t last_code;
	bool have_last;
};

void lirc_remote_free(void *remote)
{
	struct lirc_remote *r = remote;

	if (!r)
		return;
	for (size_t i = 0; i < r->raw_count; i++)
		free(r->raw[i].durations);
	free(r->raw);
	free(r->codes);
	free(r);
}

static bool has(const struct lirc_remote *r, unsigned f)
{
	return (r->flags & f) != 0;
}

static int put_pair(struct ir_edge_buf *out, uint32_t p, uint32_t s)
{
	int ret = 0;

	if (p)
		ret |= ir_edge_buf_pulse(out, p);
	if (s)
		ret |= ir_edge_buf_space(out, s);
	return ret ? -ENOMEM : 0;
}

/* `n` bits of `v`, MSB first unless REVERSE, in the remote's encoding;
 * `at` is the position of v's bit 0 in the full code (for rc6_mask). */
static int put_bits(const struct lirc_remote *r, struct ir_edge_buf *out, uint64_t v,
		    unsigned n, unsigned at)
{
	int ret = 0;

	if (has(r, LIRC_F_REVERSE))
		v = ir_bitrev(v, n);
	for (unsigned i = n; i-- > 0 && ret == 0;) {
		bool one = (v >> i) & 1;

		if (has(r, LIRC_F_RC5)) {
			/* Manchester: a one is space then pulse. */
			if (one) {
				ret |= ir_edge_buf_space(out, r->sone);
				ret |= ir_edge_buf_pulse(out, r->pone);
			} else {
				ret |= ir_edge_buf_pulse(out, r->pzero);
				ret |= ir_edge_buf_space(out, r->szero);
			}
		} else if (has(r, LIRC_F_RC6)) {
			/* RC-6 is the other Manchester phase; its toggle bit
			 * (toggle_bit_mask, rc6_mask) is twice as long. */
			uint32_t k = 1;

			if (at + i < 64 && ((r->rc6_mask >> (at + i)) & 1))
				k = 2;
			if (one) {
				ret |= ir_edge_buf_pulse(out, r->pone * k);
				ret |= ir_edge_buf_space(out, r->sone * k);
			} else {
				ret |= ir_edge_buf_space(out, r->szero * k);
				ret |= ir_edge_buf_pulse(out, r->pzero * k);
			}
		} else if (has(r, LIRC_F_SPACE_FIRST)) {
			ret |= ir_edge_buf_space(out, one ? r->sone : r->szero);
			ret |= ir_edge_buf_pulse(out, one ? r->pone : r->pzero);
		} else {
			ret = put_pair(out, one ? r->pone : r->pzero, one ? r->sone : r->szero);
		}
	}
	return ret ? -ENOMEM : 0;
}

int lirc_remote_frame(const struct lirc_remote *r, uint64_t code, int repeat,
		      struct ir_edge_buf *out)
{
	unsigned data_bits = r->bits;
	int ret = 0;

	if (has(r, LIRC_F_RAW_CODES)) {
		const struct lirc_raw_code *c;

		if (code >= r->raw_count)
			return -EINVAL;
		c = &r->raw[code];
		for (size_t i = 0; i < c->count && ret == 0; i++)
			ret = i % 2 ? ir_edge_buf_space(out, c->durations[i])
				    : ir_edge_buf_pulse(out, c->durations[i]);
		return ret ? -ENOMEM : 0;
	}
	/* Remotes for drivers that decode in hardware (LIRCCODE: atiusb,
	 * imon, devinput...) give codes but no timings to send. */
	if (!(r->pone | r->sone) || !(r->pzero | r->szero))
		return -EINVAL;
	if (repeat && r->prepeat && r->srepeat) {
		if (has(r, LIRC_F_REPEAT_HEADER))
			ret |= put_pair(out, r->phead, r->shead);
		ret |= put_pair(out, r->prepeat, r->srepeat);
		if (r->ptrail)
			ret |= ir_edge_buf_pulse(out, r->ptrail);
		return ret ? -ENOMEM : 0;
	}
	if (!(repeat && has(r, LIRC_F_NO_HEAD_REP)))
		ret |= put_pair(out, r->phead, r->shead);
	if (r->plead)
		ret |= ir_edge_buf_pulse(out, r->plead);
	ret |= put_bits(r, out, code >> (data_bits + r->post_data_bits), r->pre_data_bits,
			data_bits + r->post_data_bits);
	ret |= put_pair(out, r->pre_p, r->pre_s);
	ret |= put_bits(r, out, code >> r->post_data_bits, data_bits, r->post_data_bits);
	ret |= put_pair(out, r->post_p, r->post_s);
	ret |= put_bits(r, out, code, r->post_data_bits, 0);
	if (r->ptrail)
		ret |= ir_edge_buf_pulse(out, r->ptrail);
	if (!(repeat && has(r, LIRC_F_NO_FOOT_REP)))
		ret |= put_pair(out, r->pfoot, r->sfoot);
	return ret ? -ENOMEM : 0;
}

static uint32_t tolerance(const struct lirc_remote *r, uint32_t expected)
{
	uint32_t rel = (uint32_t)((uint64_t)expected * r->eps / 100);

	return rel > r->aeps ? rel : r->aeps;
}

/* Do the collected edges match `t` (whose trailing space, if any, is the
 * gap and not compared)? */
static bool matches(const struct lirc_remote *r, const struct lirc_dec *d,
		    const struct ir_edge_buf *t)
{
	size_t first = 0, n = t->len;

	/* a leading space (a frame starting with a space-first bit) merges
	 * into the silence before the frame */
	if (n && t->edges[0].kind == IR_SPACE)
		first = 1;
	if (n > first && t->edges[n - 1].kind == IR_SPACE)
		n--;
	if (n <= first || n - first != d->n)
		return false;
	for (size_t i = first; i < n; i++)
		if (!ir_eq_margin(d->edges[i - first], t->edges[i].duration,
				  tolerance(r, t->edges[i].duration)))
			return false;
	return true;
}

static void lirc_reset(void *state)
{
	struct lirc_dec *d = state;

	d->n = 0;
}

/* A space at least this long ends a frame. */
static uint32_t end_space(const struct lirc_remote *r)
{
	uint32_t m = r->shead;
	const uint32_t s[] = { r->sone, r->szero, r->sfoot, r->srepeat, r->pre_s, r->post_s };

	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		if (s[i] > m)
			m = s[i];
	if (has(r, LIRC_F_RC6))
		m *= 2;
	for (size_t i = 0; i < r->raw_count; i++)
		for (size_t j = 1; j < r->raw[i].count; j += 2)
			if (r->raw[i].durations[j] > m)
				m = r->raw[i].durations[j];
	m = m * LIRC_END_FACTOR;
	if (m < 3000)
		m = 3000;
	return m;
}

static void finish(struct lirc_dec *d, struct ir_decode_ctx *ctx, const struct lirc_remote *r)
{
	struct ir_edge_buf t = { 0 };
	size_t count = has(r, LIRC_F_RAW_CODES) ? r->raw_count : r->code_count;

	/* Exact codes first: a button may be another's code with the toggle
	 * bit flipped. */
	for (unsigned v = 0; v < (r->toggle_bit_mask ? 2u : 1u); v++) {
		for (size_t i = 0; i < count; i++) {
			uint64_t code = has(r, LIRC_F_RAW_CODES) ? i : r->codes[i];

			ir_edge_buf_clear(&t);
			if (lirc_remote_frame(r, v ? code ^ r->toggle_bit_mask : code, 0, &t) == 0 &&
			    matches(r, d, &t)) {
				ir_decode_emit(ctx, IR_PROTO_LIRC, code, v, d->start_us);
				d->last_code = code;
				d->have_last = true;
				goto out;
			}
		}
	}
	if (d->have_last && !has(r, LIRC_F_RAW_CODES)) {
		ir_edge_buf_clear(&t);
		if (lirc_remote_frame(r, d->last_code, 1, &t) == 0 && matches(r, d, &t)) {
			static const struct ir_protocol_set lirc_set = {
				.bits = { 0, UINT64_C(1) << (IR_PROTO_LIRC - 64) },
			};

			ir_decode_emit_repeat(ctx, &lirc_set, d->start_us);
		}
	}
out:
	ir_edge_buf_free(&t);
	d->n = 0;
}

static void lirc_decode(void *state, struct ir_decode_ctx *ctx, const struct ir_edge *e)
{
	struct lirc_dec *d = state;
	const struct lirc_remote *r = ir_decode_params(ctx);
	bool pulse = e->kind == IR_PULSE;

	if (!r)
		return;
	if (!pulse && (e->kind == IR_TIMEOUT || e->duration >= end_space(r))) {
		if (d->n)
			finish(d, ctx, r);
		return;
	}
	if (d->n == 0) {
		if (!pulse)
			return;
		d->start_us = ir_decode_now(ctx);
	}
	if (d->n >= LIRC_MAX_EDGES) {
		d->n = 0;
		return;
	}
	d->edges[d->n++] = e->duration;
}

static uint32_t lirc_space_deadline(const void *state, const struct ir_decode_ctx *ctx)
{
	const struct lirc_dec *d = state;
	const struct lirc_remote *r = ir_decode_params(ctx);

	return d->n && r ? end_space(r) : 0;
}

static int lirc_encode_params(const void *params, uint64_t code, unsigned toggle,
			      unsigned repeats, struct ir_edge_buf *out)
{
	const struct lirc_remote *r = params;
	unsigned total = 1 + repeats;
	int ret;

	if (toggle && r->toggle_bit_mask)
		code ^= r->toggle_bit_mask;
	if (r->min_repeat + 1 > total)
		total = r->min_repeat + 1;
	for (unsigned i = 0; i < total; i++) {
		size_t before = out->len;
		uint64_t len = 0;
		uint32_t gap = i ? (r->repeat_gap ? r->repeat_gap : r->gap) : r->gap;

		ret = lirc_remote_frame(r, code, i > 0, out);
		if (ret < 0)
			return ret;
		for (size_t k = before; k < out->len; k++)
			len += out->edges[k].duration;
		/* CONST_LENGTH: the gap is the whole period of a frame. */
		if (has(r, LIRC_F_CONST_LENGTH))
			gap = len + 1000 < gap ? (uint32_t)(gap - len) : 1000;
		if (gap < 1000)
			gap = 1000;
		if (ir_edge_buf_space(out, gap) < 0)
			return -ENOMEM;
	}
	return 0;
}

static const struct ir_protocol_info lirc_infos[] = {
	{
		.id = IR_PROTO_LIRC, .name = "lirc", .family = "lirc",
		.scancode_mask = UINT64_MAX, .carrier_hz = 38000, .unit_us = 0,
		/* LIRC's default aeps; each remote's own eps/aeps rule applies */
		.margin_us = 100, .has_encoder = false, .not_default = true,
		.summary = "a remote from a lircd.conf file, read by LIRC's rules",
	},
};

const struct ir_family ir_family_lirc = {
	.name = "lirc",
	.protocols = lirc_infos,
	.protocol_count = 1,
	.state_size = sizeof(struct lirc_dec),
	.reset = lirc_reset,
	.decode = lirc_decode,
	.space_deadline = lirc_space_deadline,
	.parametric = true,
	.encode_params = lirc_encode_params,
};
