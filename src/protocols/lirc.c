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
 * toggled variant, and the remote's repeat code) would produce: one code
 * path shared by every encoding lircd knows, with the encoder the single
 * statement of each encoding.  Where several buttons match (runs of
 * "one 0 833" bits merge, and eps is relative), the closest wins.  An
 * index of the templates' shapes (lirc_index.c) picks the few that can
 * match, so a frame's cost does not grow with the button count.
 *
 * The encodings are lircd's (lib/lirc transmit.c and receive.c, 0.10):
 * SPACE_ENC pulse/space pairs, SPACE_FIRST, RC5/RC6 biphase (a one is
 * space then pulse; rc6_mask bits last twice as long), RCMM, XMP, GOLDSTAR,
 * and GRUNDIG, BO and SERIAL, which lircd decodes but cannot send: for
 * those the frames are what its decoder reads (checked with irsimreceive,
 * test_lircd_irsim).  Codes are held as lircd holds them once loaded
 * (REVERSE parts turned round); the keymap has the code lircd reports.
 */
#include <stdlib.h>
#include <string.h>

#include "ir_family.h"
#include "lirc_remote.h"

/* A space inside a frame is never longer than this many times the
 * remote's longest in-frame space: such a space ends a frame whatever
 * lircd's gap rule (below) says. */
#define LIRC_END_FACTOR 2

struct lirc_dec {
	uint32_t edges[LIRC_FRAME_EDGES_MAX]; /* alternating pulse, space from a pulse */
	size_t n;
	uint64_t sum; /* µs of the collected edges: lircd's CONST_LENGTH arithmetic */
	uint64_t start_us;
	uint64_t last_code;
	bool have_last;
	/* toggle_mask remotes (lircd's toggle_mask_state): frames seen of
	 * the current press, 0..3; the silence since the last frame, and the
	 * longest that still belongs to the same press */
	unsigned toggle_state;
	uint64_t idle_us, press_gap_max;
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
	lirc_index_free(r->index);
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

static int put_space_pulse(struct ir_edge_buf *out, uint32_t sp, uint32_t p)
{
	int ret = 0;

	if (sp)
		ret |= ir_edge_buf_space(out, sp);
	if (p)
		ret |= ir_edge_buf_pulse(out, p);
	return ret ? -ENOMEM : 0;
}

/* RCMM: two bits per symbol, pulse then a space of four lengths (00 zero,
 * 01 one, 10 two, 11 three). */
static int put_rcmm(const struct lirc_remote *r, struct ir_edge_buf *out, uint64_t v, unsigned n)
{
	const uint32_t p[4] = { r->pzero, r->pone, r->ptwo, r->pthree };
	const uint32_t sp[4] = { r->szero, r->sone, r->stwo, r->sthree };
	int ret = 0;

	if (n % 2)
		return -EINVAL;
	for (unsigned i = n; i >= 2 && ret == 0; i -= 2) {
		unsigned sym = (v >> (i - 2)) & 3;

		ret = put_pair(out, p[sym], sp[sym]);
	}
	return ret;
}

/* XMP: a nibble per symbol, pulse pzero then a space of szero plus the
 * nibble's value times sone. */
static int put_xmp(const struct lirc_remote *r, struct ir_edge_buf *out, uint64_t v, unsigned n)
{
	int ret = 0;

	if (n % 4)
		return -EINVAL;
	for (unsigned i = n; i >= 4 && ret == 0; i -= 4) {
		uint64_t space = r->szero + ((v >> (i - 4)) & 0xf) * (uint64_t)r->sone;

		if (space > IR_DURATION_MAX)
			return -EINVAL;
		ret = put_pair(out, r->pzero, (uint32_t)space);
	}
	return ret;
}

/* GRUNDIG (as lircd's decoder reads it): two bits per symbol, made of
 * space+pulse periods of 2T (zero), 3T (one), 4T (two), 6T (three):
 * 00 = 6T, 01 = 4T 2T, 10 = 3T 3T, 11 = 2T 4T. */
static int put_grundig(const struct lirc_remote *r, struct ir_edge_buf *out, uint64_t v,
		       unsigned n)
{
	int ret = 0;

	if (n % 2)
		return -EINVAL;
	for (unsigned i = n; i >= 2 && ret == 0; i -= 2) {
		switch ((v >> (i - 2)) & 3) {
		case 0:
			ret = put_space_pulse(out, r->sthree, r->pthree);
			break;
		case 1:
			ret = put_space_pulse(out, r->stwo, r->ptwo);
			ret |= put_space_pulse(out, r->szero, r->pzero);
			break;
		case 2:
			ret = put_space_pulse(out, r->sone, r->pone);
			ret |= put_space_pulse(out, r->sone, r->pone);
			break;
		default:
			ret = put_space_pulse(out, r->szero, r->pzero);
			ret |= put_space_pulse(out, r->stwo, r->ptwo);
			break;
		}
	}
	return ret ? -ENOMEM : 0;
}

/* BO (Bang & Olufsen, as lircd reads it): a bit's pulse/space pair
 * depends on the bit before (the first follows a one): after a one, a
 * zero is "one" and a one is "two"; after a zero, a zero is "two" and a
 * one is "three". */
static int put_bo(const struct lirc_remote *r, struct ir_edge_buf *out, uint64_t v, unsigned n,
		  bool *last_one)
{
	int ret = 0;

	for (unsigned i = n; i-- > 0 && ret == 0;) {
		bool one = (v >> i) & 1;

		if (*last_one)
			ret = one ? put_pair(out, r->ptwo, r->stwo) : put_pair(out, r->pone, r->sone);
		else
			ret = one ? put_pair(out, r->pthree, r->sthree)
				  : put_pair(out, r->ptwo, r->stwo);
		*last_one = one;
	}
	return ret;
}

/* SERIAL (an RS-232 frame in light, as lircd reads it): per byte, first
 * byte first, a start pulse of one bit time, the data bits LSB first (a
 * one is a space of sone, a zero a pulse of pzero), the parity bit, and
 * the stop bits as a space. */
static int put_serial(const struct lirc_remote *r, struct ir_edge_buf *out, uint64_t v,
		      unsigned n)
{
	unsigned per = r->bits_in_byte;
	uint32_t base = 1000000 / r->baud;
	int ret = 0;

	if (per == 0 || n % per)
		return -EINVAL;
	for (unsigned i = n; i >= per && ret == 0; i -= per) {
		unsigned byte = (unsigned)((v >> (i - per)) & ((1u << per) - 1));
		unsigned ones = 0;

		ret |= ir_edge_buf_pulse(out, base);
		for (unsigned b = 0; b < per; b++) {
			bool one = (byte >> b) & 1;

			ones += one;
			ret |= one ? ir_edge_buf_space(out, r->sone) : ir_edge_buf_pulse(out, r->pzero);
		}
		if (r->parity != LIRC_PARITY_NONE) {
			/* even parity: the ones, parity bit included, are even */
			bool one = (ones % 2 == 1) == (r->parity == LIRC_PARITY_EVEN);

			ret |= one ? ir_edge_buf_space(out, r->sone) : ir_edge_buf_pulse(out, r->pzero);
		}
		ret |= ir_edge_buf_space(out, base * r->stop_halves / 2);
	}
	return ret ? -ENOMEM : 0;
}

/* `n` bits of `v`, MSB first (REVERSE remotes' codes are already turned
 * round, as lircd does when it loads them), in the remote's encoding;
 * `at` is the position of v's bit 0 in the full code (for rc6_mask). */
static int put_bits(const struct lirc_remote *r, struct ir_edge_buf *out, uint64_t v,
		    unsigned n, unsigned at, bool *bo_last_one)
{
	int ret = 0;

	v = lirc_low_bits(v, n);
	if (has(r, LIRC_F_BO))
		return put_bo(r, out, v, n, bo_last_one);

	if (has(r, LIRC_F_RCMM))
		return put_rcmm(r, out, v, n);
	if (has(r, LIRC_F_XMP))
		return put_xmp(r, out, v, n);
	if (has(r, LIRC_F_GRUNDIG))
		return put_grundig(r, out, v, n);
	if (has(r, LIRC_F_SERIAL))
		return put_serial(r, out, v, n);
	for (unsigned i = n; i-- > 0 && ret == 0;) {
		bool one = (v >> i) & 1;

		if (has(r, LIRC_F_RC5 | LIRC_F_RC6)) {
			/* LIRC's biphase, RC-5 and RC-6 alike: a one is
			 * space then pulse, a zero pulse then space; a bit
			 * in rc6_mask (RC-6's trailer/toggle bit) lasts twice
			 * as long.  (In the RC-6 spec's own terms LIRC's
			 * "one" is a zero: lircd.conf codes are written that
			 * way, so we follow LIRC.) */
			uint32_t k = 1;

			if (at + i < 64 && ((r->rc6_mask >> (at + i)) & 1))
				k = 2;
			if (one) {
				ret |= ir_edge_buf_space(out, r->sone * k);
				ret |= ir_edge_buf_pulse(out, r->pone * k);
			} else {
				ret |= ir_edge_buf_pulse(out, r->pzero * k);
				ret |= ir_edge_buf_space(out, r->szero * k);
			}
		} else if (has(r, LIRC_F_GOLDSTAR) && one) {
			/* GOLDSTAR (as lircd reads it): a one is "two" at an
			 * odd bit (counted from the code's first bit, 0),
			 * "three" at an even one */
			unsigned all = r->pre_data_bits + r->bits + r->post_data_bits;
			bool odd = (all - 1 - (at + i)) % 2;

			ret = put_pair(out, odd ? r->ptwo : r->pthree, odd ? r->stwo : r->sthree);
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
	unsigned data_bits = r->bits, post_bits = r->post_data_bits;
	bool bo_last_one = true;
	int ret = 0;

	if (has(r, LIRC_F_RAW_CODES)) {
		const struct lirc_raw_code *c;

		/* lircd numbers raw codes from 1, in file order */
		if (code == 0 || code > r->raw_count)
			return -EINVAL;
		c = &r->raw[code - 1];
		for (size_t i = 0; i < c->count && ret == 0; i++)
			ret = i % 2 ? ir_edge_buf_space(out, c->durations[i])
				    : ir_edge_buf_pulse(out, c->durations[i]);
		return ret ? -ENOMEM : 0;
	}
	/* Remotes for drivers that decode in hardware (LIRCCODE: atiusb,
	 * imon, devinput...) give codes but no timings to send. */
	if (!(r->pone | r->sone) || !(r->pzero | r->szero))
		return -EINVAL;
	/* SERIAL: a zero is a pulse of pzero, a one a space of sone; a
	 * symbol of no time carries no bit (lircd's own SERIAL decoder never
	 * returns on a remote with "zero 0 ...": irsimreceive hangs) */
	if (has(r, LIRC_F_SERIAL) && (!r->baud || !r->pzero || !r->sone))
		return -EINVAL;
	/* lircd's order: [header] lead, repeat pulse and space, trail */
	if (repeat && r->prepeat && r->srepeat) {
		if (has(r, LIRC_F_REPEAT_HEADER) && r->phead && r->shead)
			ret |= put_pair(out, r->phead, r->shead);
		ret |= put_pair(out, r->plead, 0);
		ret |= put_pair(out, r->prepeat, r->srepeat);
		ret |= put_pair(out, r->ptrail, 0);
		return ret ? -ENOMEM : 0;
	}
	/* lircd's order: header, lead, pre_data, pre, data, post, post_data,
	 * trail, foot (space first) */
	if (has(r, LIRC_F_BO)) {
		/* B&O's start: two "one" periods before the header */
		ret |= put_pair(out, r->pone, r->sone);
		ret |= put_pair(out, r->pone, r->sone);
	}
	if (!(repeat && has(r, LIRC_F_NO_HEAD_REP)) && r->phead && r->shead)
		ret |= put_pair(out, r->phead, r->shead);
	ret |= put_pair(out, r->plead, 0);
	if (ret)
		return -ENOMEM;
	if (r->pre_data_bits) {
		if ((ret = put_bits(r, out, lirc_shift_right(code, data_bits + post_bits), r->pre_data_bits,
				    data_bits + post_bits, &bo_last_one)) < 0)
			return ret;
		if (r->pre_p && r->pre_s && put_pair(out, r->pre_p, r->pre_s) < 0)
			return -ENOMEM;
	}
	if ((ret = put_bits(r, out, lirc_shift_right(code, post_bits), data_bits, post_bits,
			    &bo_last_one)) < 0)
		return ret;
	if (post_bits) {
		if (r->post_p && r->post_s && put_pair(out, r->post_p, r->post_s) < 0)
			return -ENOMEM;
		if ((ret = put_bits(r, out, code, post_bits, 0, &bo_last_one)) < 0)
			return ret;
	}
	ret |= put_pair(out, r->ptrail, 0);
	if (!(repeat && has(r, LIRC_F_NO_FOOT_REP)) && r->pfoot && r->sfoot)
		ret |= put_space_pulse(out, r->sfoot, r->pfoot);
	return ret ? -ENOMEM : 0;
}

static uint32_t tolerance(const struct lirc_remote *r, uint32_t expected)
{
	return lirc_tolerance(r, expected);
}

/* The edges of template `t` as the decoder collects them: a leading space
 * (a frame starting with a space-first bit) merges into the silence before
 * the frame, a trailing one into the gap. */
static void collected_span(const struct ir_edge_buf *t, size_t *first, size_t *end)
{
	*first = t->len && t->edges[0].kind == IR_SPACE ? 1 : 0;
	*end = t->len;
	if (*end > *first && t->edges[*end - 1].kind == IR_SPACE)
		(*end)--;
}

/* How far the collected edges are from `t`: the sum of the differences,
 * or UINT64_MAX when an edge is outside LIRC's tolerance. */
static uint64_t mismatch(const struct lirc_remote *r, const struct lirc_dec *d,
			 const struct ir_edge_buf *t)
{
	size_t first, n;
	uint64_t sum = 0;

	collected_span(t, &first, &n);
	if (n <= first || n - first != d->n)
		return UINT64_MAX;
	for (size_t i = first; i < n; i++) {
		uint32_t got = d->edges[i - first], want = t->edges[i].duration;

		if (!ir_eq_margin(got, want, tolerance(r, want)))
			return UINT64_MAX;
		sum += got > want ? got - want : want - got;
	}
	return sum;
}

static void lirc_reset(void *state)
{
	struct lirc_dec *d = state;

	d->n = 0;
	d->sum = 0;
}

/* A space at least this long ends a frame: twice the longest space of
 * the remote's own symbols, or the longest space inside any of its frames
 * (runs of "one 0 833" bits merge) with LIRC's tolerance, and never under
 * 3 ms.  Frames end earlier by lircd's own rule (gap_needed()). */
static uint32_t end_space(const struct lirc_remote *r)
{
	uint32_t m = r->shead;
	const uint32_t s[] = { r->sone, r->szero, r->stwo, r->sthree, r->sfoot, r->srepeat,
			       r->pre_s, r->post_s };
	uint64_t end;

	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		if (s[i] > m)
			m = s[i];
	if (has(r, LIRC_F_RC6))
		m *= 2;
	end = (uint64_t)m * LIRC_END_FACTOR;
	if (r->frame_space_max + tolerance(r, r->frame_space_max) + 1 > end)
		end = r->frame_space_max + tolerance(r, r->frame_space_max) + 1;
	if (end < 3000)
		end = 3000;
	return end > IR_DURATION_MAX ? IR_DURATION_MAX : (uint32_t)end;
}

/*
 * lircd (receive.c, get_gap()) takes a frame as ended once its last bit is
 * read and the space after it is at least the remote's gap: the smaller of
 * gap and gap2, less the frame's own length for CONST_LENGTH remotes (gap
 * is then the period), repeat_gap after a repeat code, 1000 µs for RCMM.
 * Where lircd's rule depends on which frame it read, the smaller gap is
 * taken: the frame must still match a button to end here.
 */
static uint64_t gap_needed(const struct lirc_remote *r, uint64_t sum)
{
	uint64_t g = r->gap2 && r->gap2 < r->gap ? r->gap2 : r->gap;

	if (has(r, LIRC_F_RCMM))
		return 1000;
	if (has(r, LIRC_F_CONST_LENGTH))
		return g > sum ? g - sum : 0;
	if (r->repeat_gap && r->repeat_gap < g)
		g = r->repeat_gap;
	return g;
}

/* lircd's expect_at_least(): `got` is not shorter than `want` by more than
 * eps % or aeps µs. */
static bool at_least(const struct lirc_remote *r, uint32_t got, uint64_t want)
{
	return got + want * r->eps / 100 >= want || got + r->aeps >= want;
}

static bool length_possible(const struct lirc_remote *r, size_t n)
{
	return n <= LIRC_FRAME_EDGES_MAX && (r->frame_lengths[n / 8] >> (n % 8)) & 1;
}

uint64_t lirc_remote_reported_code(const struct lirc_remote *r, uint64_t loaded)
{
	unsigned all = r->pre_data_bits + r->bits + r->post_data_bits;

	if (!has(r, LIRC_F_REVERSE) || has(r, LIRC_F_RAW_CODES) || all > 64)
		return loaded;
	return ir_bitrev(loaded, all);
}

/* What the decoder needs to know of one template: its longest inner
 * space and its length as collected. */
static void note_template(struct lirc_remote *r, const struct ir_edge_buf *t)
{
	size_t first, end;

	collected_span(t, &first, &end);
	for (size_t i = first; i < end; i++)
		if (t->edges[i].kind == IR_SPACE && t->edges[i].duration > r->frame_space_max)
			r->frame_space_max = t->edges[i].duration;
	if (end > first && end - first <= LIRC_FRAME_EDGES_MAX)
		r->frame_lengths[(end - first) / 8] |= (uint8_t)(1u << ((end - first) % 8));
}

static void note_code(struct lirc_remote *r, uint64_t code, struct ir_edge_buf *t)
{
	/* the frame, its toggled variant, and its repeat frame (a repeat
	 * code, or the frame without header/foot for NO_HEAD_REP...) */
	for (unsigned v = 0; v < 3; v++) {
		if (v == 1 && !r->toggle_bit_mask)
			continue;
		if (v == 2 && has(r, LIRC_F_RAW_CODES))
			continue;
		ir_edge_buf_clear(t);
		if (lirc_remote_frame(r, v == 1 ? code ^ r->toggle_bit_mask : code, v == 2, t) == 0)
			note_template(r, t);
	}
}

/* Makes r->index: the frame of every code, with the toggle bits each way
 * (lirc_remote.h).  Returns 0 or -ENOMEM. */
static int index_codes(struct lirc_remote *r)
{
	const uint64_t masks[4] = { 0, r->toggle_bit_mask, r->toggle_mask,
				    r->toggle_bit_mask ^ r->toggle_mask };
	unsigned variants = r->toggle_mask ? 4 : r->toggle_bit_mask ? 2 : 1;
	struct ir_edge_buf t = { 0 };
	bool indexing = true;

	lirc_index_free(r->index);
	r->index = lirc_index_new(r, r->code_count * variants);
	if (!r->index)
		return -ENOMEM;
	for (size_t i = 0; i < r->code_count && indexing; i++) {
		for (unsigned v = 0; v < variants && indexing; v++) {
			uint64_t c = r->codes[i] ^ masks[v];
			size_t first, end;

			ir_edge_buf_clear(&t);
			if (lirc_remote_frame(r, c, 0, &t) < 0)
				continue; /* a button the decoder never matches */
			collected_span(&t, &first, &end);
			if (end > first && end - first <= LIRC_FRAME_EDGES_MAX)
				indexing = lirc_index_add_shape(r->index, c, t.edges + first,
								end - first);
		}
	}
	ir_edge_buf_free(&t);
	return 0;
}

int lirc_remote_prepare(struct lirc_remote *r)
{
	struct ir_edge_buf t = { 0 };
	size_t count = has(r, LIRC_F_RAW_CODES) ? r->raw_count : r->code_count;

	/* lircd's defaults for SERIAL: one bit time per symbol, 8 data bits */
	if (has(r, LIRC_F_SERIAL) && r->baud) {
		if (!r->pzero && !r->szero)
			r->pzero = 1000000 / r->baud;
		if (!r->pone && !r->sone)
			r->sone = 1000000 / r->baud;
		if (!r->bits_in_byte)
			r->bits_in_byte = 8;
		if (!r->stop_halves)
			r->stop_halves = 2;
	}
	/* A button whose frame cannot be made (no timings, durations past
	 * IR_DURATION_MAX) is one the decoder never matches either: it adds
	 * nothing here, and the remote still loads. */
	r->frame_space_max = 0;
	memset(r->frame_lengths, 0, sizeof(r->frame_lengths));
	for (size_t i = 0; i < count; i++)
		note_code(r, has(r, LIRC_F_RAW_CODES) ? i + 1 : r->codes[i], &t);
	ir_edge_buf_free(&t);
	return has(r, LIRC_F_RAW_CODES) ? 0 : index_codes(r);
}

/* Raw codes: lircd tries them in file order and takes the first whose
 * every duration matches. */
static bool read_raw(const struct lirc_remote *r, const struct lirc_dec *d,
		     struct ir_edge_buf *t, uint64_t *code)
{
	for (size_t i = 1; i <= r->raw_count; i++) {
		ir_edge_buf_clear(t);
		if (lirc_remote_frame(r, i, 0, t) == 0 && mismatch(r, d, t) != UINT64_MAX) {
			*code = i;
			return true;
		}
	}
	return false;
}

/* The closest template so far: the smallest mismatch, and of those the
 * first in lircd's order (every code, then every code with the toggle bit
 * turned round). */
struct closest {
	const struct lirc_remote *r;
	const struct lirc_dec *d;
	struct ir_edge_buf *t;
	uint64_t x, mask;
	uint64_t err, code;
	size_t order;
};

static void try_code(struct closest *b, uint64_t c, size_t order)
{
	uint64_t err;

	if (b->err == 0 && order > b->order)
		return;
	ir_edge_buf_clear(b->t);
	if (lirc_remote_frame(b->r, c, 0, b->t) < 0)
		return;
	err = mismatch(b->r, b->d, b->t);
	if (err < b->err || (err == b->err && err != UINT64_MAX && order < b->order)) {
		b->err = err;
		b->code = c;
		b->order = order;
	}
}

/* lirc_index_candidates()'s callback: the code's place in lircd's order. */
static void try_candidate(void *arg, uint64_t c)
{
	struct closest *b = arg;
	size_t i = lirc_index_first(b->r, c ^ b->x);
	size_t j = b->mask ? lirc_index_first(b->r, c ^ b->x ^ b->mask) : SIZE_MAX;

	if (i != SIZE_MAX)
		try_code(b, c, i);
	else if (j != SIZE_MAX)
		try_code(b, c, b->r->code_count + j);
}

/* The first button whose code is `read`, or `read` with the toggle bits
 * turned round; SIZE_MAX if none. */
static size_t first_button(const struct lirc_remote *r, uint64_t read, uint64_t mask)
{
	size_t i, j;

	if (!r->index) {
		for (i = 0; i < r->code_count; i++)
			if (r->codes[i] == read || (mask && (r->codes[i] ^ mask) == read))
				return i;
		return SIZE_MAX;
	}
	i = lirc_index_first(r, read);
	j = mask ? lirc_index_first(r, read ^ mask) : SIZE_MAX;
	return i < j ? i : j;
}

/*
 * Codes: the code the light carries is the closest template's (lircd reads
 * it bit by bit; runs of same-kind bits merge, and a run of 6 is within
 * 30 % of a run of 8, so the closest stands for its bit-by-bit reading).
 * The button is then named as lircd's get_code() does: the first in file
 * order whose code is the one read, or the one read with the toggle bits
 * turned round; lircd reports that button's code.  The index gives the
 * few templates that can match; without one (or when too many shapes are
 * possible) every template is tried, with the same result.
 */
static bool read_code(const struct lirc_remote *r, const struct lirc_dec *d,
		      struct ir_edge_buf *t, uint64_t *code, unsigned *toggle)
{
	/* toggle_mask: every second frame of a press is sent with these bits
	 * turned round (lircd's get_code() turns them back) */
	struct closest b = { .r = r, .d = d, .t = t, .mask = r->toggle_bit_mask,
			     .x = d->toggle_state % 2 ? r->toggle_mask : 0,
			     .err = UINT64_MAX, .order = SIZE_MAX };
	uint64_t read;
	size_t i;

	if (lirc_index_candidates(r, d->edges, d->n, try_candidate, &b) < 0) {
		for (unsigned v = 0; v < (b.mask ? 2u : 1u) && b.err; v++)
			for (i = 0; i < r->code_count && b.err; i++)
				try_code(&b, (v ? r->codes[i] ^ b.mask : r->codes[i]) ^ b.x,
					 v * r->code_count + i);
	}
	if (b.err == UINT64_MAX)
		return false;
	read = b.code ^ b.x;
	i = first_button(r, read, b.mask);
	if (i == SIZE_MAX)
		return false;
	*code = r->codes[i];
	*toggle = r->codes[i] != read;
	return true;
}

/* Matches the collected frame; emits and returns true if it is one of the
 * remote's frames (a button or the last button's repeat frame). */
static bool match_frame(struct lirc_dec *d, struct ir_decode_ctx *ctx,
			const struct lirc_remote *r)
{
	static const struct ir_protocol_set lirc_set = {
		.bits = { 0, UINT64_C(1) << (IR_PROTO_LIRC - 64) },
	};
	struct ir_edge_buf t = { 0 };
	uint64_t code = 0;
	unsigned toggle = 0;
	bool found;

	found = has(r, LIRC_F_RAW_CODES) ? read_raw(r, d, &t, &code)
					 : read_code(r, d, &t, &code, &toggle);
	if (r->toggle_mask && !has(r, LIRC_F_RAW_CODES)) {
		/* lircd names a toggle_mask button on the second frame of a
		 * press (the one with the mask), and on every second frame
		 * after; a frame that is not the next of the press starts
		 * again */
		d->toggle_state = found ? (d->toggle_state == 3 ? 2 : d->toggle_state + 1) : 0;
		if (found && d->toggle_state % 2) {
			d->last_code = code;
			d->have_last = true;
			ir_edge_buf_free(&t);
			return true;
		}
	}
	if (found) {
		ir_decode_emit(ctx, IR_PROTO_LIRC, lirc_remote_reported_code(r, code), toggle,
			       d->start_us);
		d->last_code = code;
		d->have_last = true;
	} else if (d->have_last && !has(r, LIRC_F_RAW_CODES)) {
		ir_edge_buf_clear(&t);
		found = lirc_remote_frame(r, d->last_code, 1, &t) == 0 &&
			mismatch(r, d, &t) != UINT64_MAX;
		if (found)
			ir_decode_emit_repeat(ctx, &lirc_set, d->start_us);
	}
	ir_edge_buf_free(&t);
	return found;
}

/* lircd's expect_at_most(): `got` is not longer than `want` by more than
 * eps % or aeps µs. */
static bool at_most(const struct lirc_remote *r, uint64_t got, uint64_t want)
{
	return got <= want + want * r->eps / 100 || got <= want + r->aeps;
}

/* The collected frame ends at space `e` (or the end of the input): matches
 * it, and starts the next if it matched or `e` ends every frame.  Returns
 * whether it started the next. */
static bool frame_ended(struct lirc_dec *d, struct ir_decode_ctx *ctx,
			const struct lirc_remote *r, const struct ir_edge *e)
{
	uint64_t gap_max = r->gap2 > r->gap ? r->gap2 : r->gap;
	bool always = e->kind == IR_TIMEOUT || e->duration >= end_space(r);

	if (!match_frame(d, ctx, r) && !always)
		return false;
	/* the longest silence after this frame that keeps the press going */
	if (has(r, LIRC_F_CONST_LENGTH))
		d->press_gap_max = gap_max > d->sum ? gap_max - d->sum : 0;
	else
		d->press_gap_max = gap_max;
	d->idle_us = e->duration;
	lirc_reset(d);
	return true;
}

static void lirc_decode(void *state, struct ir_decode_ctx *ctx, const struct ir_edge *e)
{
	struct lirc_dec *d = state;
	const struct lirc_remote *r = ir_decode_params(ctx);
	bool pulse = e->kind == IR_PULSE;

	if (!r)
		return;
	if (!pulse && d->n && (e->kind == IR_TIMEOUT || e->duration >= end_space(r))) {
		/* a frame ended by the end of the input keeps the start of
		 * its gap */
		if (d->n % 2 == 0)
			d->n--;
		frame_ended(d, ctx, r, e);
		return;
	}
	if (!pulse && d->n && length_possible(r, d->n) &&
	    at_least(r, e->duration, gap_needed(r, d->sum)) && frame_ended(d, ctx, r, e))
		return;
	if (d->n == 0) {
		if (!pulse) {
			d->idle_us += e->duration;
			return;
		}
		/* lircd's sync_rec_buffer(): a longer silence than the gap
		 * starts a new press */
		if (!at_most(r, d->idle_us, d->press_gap_max))
			d->toggle_state = 0;
		d->start_us = ir_decode_now(ctx);
	}
	if (d->n >= LIRC_FRAME_EDGES_MAX) {
		lirc_reset(d);
		return;
	}
	d->edges[d->n++] = e->duration;
	d->sum += e->duration;
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

	/* the keymap holds the code lircd reports; frames are made from the
	 * loaded one */
	code = lirc_remote_reported_code(r, code);
	if (toggle && r->toggle_bit_mask)
		code ^= r->toggle_bit_mask;
	if (r->min_repeat + 1 > total)
		total = r->min_repeat + 1;
	if (r->toggle_mask && total < 2)
		total = 2;
	for (unsigned i = 0; i < total; i++) {
		size_t before = out->len;
		uint64_t len = 0;
		uint32_t gap = i ? (r->repeat_gap ? r->repeat_gap : r->gap) : r->gap;

		/* toggle_mask: lircd sends every second frame with these bits
		 * turned round, and names a button only with both */
		ret = lirc_remote_frame(r, i % 2 ? code ^ r->toggle_mask : code, i > 0, out);
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

/* lircd sends at 38 kHz when a remote gives no frequency (its
 * DEFAULT_FREQ) and leaves the duty cycle to the driver when none. */
static void lirc_carrier_params(const void *params, uint32_t *hz, unsigned *duty_pct)
{
	const struct lirc_remote *r = params;

	*hz = r->frequency ? r->frequency : 38000;
	*duty_pct = r->duty_cycle > 0 && r->duty_cycle < 100 ? r->duty_cycle : 0;
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
	.carrier_params = lirc_carrier_params,
};
