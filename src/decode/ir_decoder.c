/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_decoder.c - runs every enabled protocol family on one source's edges,
 * keeps source time, and applies rc-core's repeat-code rule.
 */
#include "ir_decoder.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir_decode_ctx.h"
#include "ir_family.h"

/* rc-core's IR_DEFAULT_TIMEOUT: how long a key stays down after its last
 * frame, on top of the protocol's repeat period. */
#define DEFAULT_KEYUP_TIMEOUT_US 125000u

/* The silence ir_decoder_flush() stands for: longer than any protocol's
 * trailing space or inter-frame gap. */
#define FLUSH_SILENCE_US 1000000u

/* A family's (or a table row's) best reason in the current train. */
struct why_note {
	bool has_why;
	unsigned progress;
	char text[160];
};

struct family_slot {
	const struct ir_family *family;
	void *state;
	const void *params;  /* a parametric family's instance */
	uint16_t decoder_id; /* and its frames' id */
	/* This family was already handed the current space through
	 * ir_decoder_space_elapsed(); it must not see the space edge again. */
	bool got_space_early;
	/* Its best reasons in the current train (ir_decoder_set_why()): one
	 * per protocol of the family (a table family's rows say which). */
	struct why_note *why;
};

struct last_frame {
	bool valid;
	enum ir_protocol protocol;
	uint64_t scancode;
	uint32_t flags;
	uint64_t start_us;
	uint64_t end_us;
	uint16_t decoder_id;
};

/* Frames that end on one edge, held until every family has seen it. */
#define PENDING_MAX 16
/* Two frames are two readings of the same light if they start this close. */
#define SAME_SPAN_US 2000

struct ir_decoder {
	struct ir_frame pending[PENDING_MAX];
	unsigned pending_count;
	struct ir_protocol_set enabled;
	ir_frame_fn fn;
	void *userdata;
	struct family_slot *slots;
	size_t slot_count;
	uint64_t now_us;
	bool after_pulse; /* the last timing edge fed was a pulse */
	bool have_pulse;  /* a pulse was seen since the start, a timeout or a reset */
	uint64_t pulse_end_us;
	uint32_t keyup_timeout_us;
	uint32_t carrier_hz; /* the last IR_CARRIER report; 0 = none */
	struct ir_protocol_set preferred;
	struct last_frame last;
	/* The train for ir_decoder_set_why(): from its first pulse */
	ir_why_fn why_fn;
	void *why_userdata;
	bool in_train, train_took;
	uint64_t train_start_us;
	size_t train_edges;
};

static void queue_frame(void *owner, const struct ir_frame *frame);

/* How many reasons a slot keeps: one per protocol of its family. */
static size_t slot_rows(const struct family_slot *slot)
{
	return slot->family->protocol_count ? slot->family->protocol_count : 1;
}

/* Fills in `slot`'s state and reason notes for `family`: 0 or -ENOMEM
 * (the caller frees what was allocated with the decoder). */
static int slot_init(struct family_slot *slot, const struct ir_family *family)
{
	slot->family = family;
	slot->state = calloc(1, family->state_size ? family->state_size : 1);
	slot->why = calloc(slot_rows(slot), sizeof(*slot->why));
	if (!slot->state || !slot->why)
		return -ENOMEM;
	family->reset(slot->state);
	return 0;
}
static void queue_repeat(void *owner, const struct ir_protocol_set *of, uint64_t start_us,
			 uint64_t end_us);

/* A family's reason: kept if it got further than the one it had for the
 * same protocol row. */
static void note_why(void *owner, void *slot_ptr, unsigned row, unsigned progress,
		     const char *text)
{
	struct family_slot *slot = slot_ptr;
	struct why_note *note;

	(void)owner;
	if (!slot->why || row >= slot_rows(slot))
		return;
	note = &slot->why[row];
	if (note->has_why && progress <= note->progress)
		return;
	note->has_why = true;
	note->progress = progress;
	snprintf(note->text, sizeof(note->text), "%s", text);
}

/* What every family is handed with an edge that starts at dec->now_us,
 * less the slot's own fields (slot_bind()): built once per edge, not once
 * per family (a third of the decoder's own cost per edge was this). */
static struct ir_decode_ctx edge_ctx(struct ir_decoder *dec, uint32_t space_before_us,
				     uint64_t pulse_end_us)
{
	return (struct ir_decode_ctx){
		.enabled = &dec->enabled,
		.space_before_us = space_before_us,
		.now_us = dec->now_us,
		.pulse_end_us = pulse_end_us,
		.carrier_hz = dec->carrier_hz,
		.preferred = &dec->preferred,
		.frame = queue_frame,
		.repeat = queue_repeat,
		.why = dec->why_fn ? note_why : NULL,
		.owner = dec,
	};
}

/* Makes `ctx` family `slot`'s: its instance, its id, its reasons (row 0:
 * a table family's ir_decode_set_row() of the slot before must not
 * carry over). */
static void slot_bind(struct ir_decode_ctx *ctx, const struct family_slot *slot)
{
	ctx->params = slot->params;
	ctx->decoder_id = slot->decoder_id;
	ctx->why_slot = (void *)slot;
	ctx->why_row = 0;
}

/* What family `slot` is handed with an edge that starts at dec->now_us. */
static struct ir_decode_ctx slot_ctx(struct ir_decoder *dec, const struct family_slot *slot,
				     uint32_t space_before_us, uint64_t pulse_end_us)
{
	struct ir_decode_ctx ctx = edge_ctx(dec, space_before_us, pulse_end_us);

	slot_bind(&ctx, slot);
	return ctx;
}

static bool family_has_enabled_protocol(const struct ir_family *f,
					const struct ir_protocol_set *enabled)
{
	for (size_t i = 0; i < f->protocol_count; i++)
		if (ir_protocol_set_has(enabled, f->protocols[i].id))
			return true;
	return false;
}

int ir_decoder_new(const struct ir_protocol_set *enabled, ir_frame_fn fn, void *userdata,
		   struct ir_decoder **out)
{
	struct ir_decoder *dec;
	size_t n = 0;

	if (!fn || !out)
		return -EINVAL;
	dec = calloc(1, sizeof(*dec));
	if (!dec)
		return -ENOMEM;
	if (enabled)
		dec->enabled = *enabled;
	else
		ir_protocol_set_all(&dec->enabled);
	dec->fn = fn;
	dec->userdata = userdata;
	dec->keyup_timeout_us = DEFAULT_KEYUP_TIMEOUT_US;

	for (size_t f = 0; ir_families[f]; f++)
		n++;
	dec->slots = calloc(n, sizeof(*dec->slots));
	if (!dec->slots) {
		ir_decoder_free(dec);
		return -ENOMEM;
	}
	for (size_t f = 0; ir_families[f]; f++) {
		const struct ir_family *family = ir_families[f];
		struct family_slot *slot;

		if (family->parametric || !family_has_enabled_protocol(family, &dec->enabled))
			continue;
		slot = &dec->slots[dec->slot_count++];
		if (slot_init(slot, family) < 0) {
			ir_decoder_free(dec);
			return -ENOMEM;
		}
	}
	*out = dec;
	return 0;
}

int ir_decoder_add_custom(struct ir_decoder *dec, const struct ir_family *family,
			  const void *params, uint16_t decoder_id)
{
	struct family_slot *slots, *slot;

	if (!dec || !family || !family->parametric || !decoder_id)
		return -EINVAL;
	slots = realloc(dec->slots, (dec->slot_count + 1) * sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	dec->slots = slots;
	slot = &slots[dec->slot_count];
	memset(slot, 0, sizeof(*slot));
	if (slot_init(slot, family) < 0) {
		free(slot->state);
		free(slot->why);
		return -ENOMEM;
	}
	slot->params = params;
	slot->decoder_id = decoder_id;
	dec->slot_count++;
	return 0;
}

void ir_decoder_free(struct ir_decoder *dec)
{
	if (!dec)
		return;
	for (size_t i = 0; i < dec->slot_count; i++) {
		free(dec->slots[i].state);
		free(dec->slots[i].why);
	}
	free(dec->slots);
	free(dec);
}

static void reset_families(struct ir_decoder *dec)
{
	for (size_t i = 0; i < dec->slot_count; i++) {
		dec->slots[i].family->reset(dec->slots[i].state);
		dec->slots[i].got_space_early = false;
	}
}

void ir_decoder_reset(struct ir_decoder *dec)
{
	reset_families(dec);
	dec->after_pulse = false;
	dec->have_pulse = false;
	dec->last.valid = false;
}

void ir_decoder_set_keyup_timeout(struct ir_decoder *dec, uint32_t us)
{
	dec->keyup_timeout_us = us;
}

void ir_decoder_set_preferred(struct ir_decoder *dec, const struct ir_protocol_set *set)
{
	if (set)
		dec->preferred = *set;
	else
		ir_protocol_set_clear(&dec->preferred);
}

uint64_t ir_decoder_time_us(const struct ir_decoder *dec)
{
	return dec->now_us;
}

/* The context for edge `e` at dec->now_us, before any slot is bound. */
static struct ir_decode_ctx edge_ctx_for(struct ir_decoder *dec, const struct ir_edge *e)
{
	uint64_t dark = dec->now_us - dec->pulse_end_us;

	return edge_ctx(dec, !dec->have_pulse || dark > UINT32_MAX ? UINT32_MAX : (uint32_t)dark,
			e->kind == IR_PULSE ? dec->now_us + e->duration : dec->now_us);
}

/* Hands edge `e` to family `slot`, with `ctx` from edge_ctx_for(e). */
static void decode_in_slot(struct family_slot *slot, struct ir_decode_ctx *ctx,
			   const struct ir_edge *e)
{
	/* A timeout is the line gone idle: families see it as the longest
	 * space there can be, whatever the source's timeout was. */
	static const struct ir_edge idle = { .duration = IR_DURATION_MAX, .kind = IR_TIMEOUT };

	slot_bind(ctx, slot);
	slot->family->decode(slot->state, ctx, e->kind == IR_TIMEOUT ? &idle : e);
}

static int feed_edge(struct ir_decoder *dec, const struct ir_edge *edge);
static void flush_pending(struct ir_decoder *dec);

static int cmp_reasons(const void *a, const void *b)
{
	const struct ir_decode_reason *x = a, *y = b;
	int by_family = strcmp(x->family, y->family);

	/* a table family's rows: by their text, which starts with the protocol */
	if (x->progress == y->progress)
		return by_family ? by_family : strcmp(x->text, y->text);
	return x->progress < y->progress ? 1 : -1;
}

static size_t count_rows(const struct ir_decoder *dec)
{
	size_t n = 0;

	for (size_t i = 0; i < dec->slot_count; i++)
		n += slot_rows(&dec->slots[i]);
	return n;
}

/* The end of a train: if nothing took it, the families' reasons. */
static void end_train(struct ir_decoder *dec)
{
	struct ir_decode_reason *reasons;
	size_t n = 0;

	if (dec->why_fn && dec->in_train && !dec->train_took &&
	    (reasons = calloc(count_rows(dec) + 1, sizeof(*reasons)))) {
		for (size_t i = 0; i < dec->slot_count; i++) {
			const struct family_slot *slot = &dec->slots[i];

			for (size_t r = 0; r < slot_rows(slot); r++)
				if (slot->why[r].has_why)
					reasons[n++] = (struct ir_decode_reason){
						.family = slot->family->name,
						.text = slot->why[r].text,
						.progress = slot->why[r].progress,
					};
		}
		qsort(reasons, n, sizeof(*reasons), cmp_reasons);
		dec->why_fn(dec->why_userdata, dec->train_start_us, dec->pulse_end_us,
			    dec->train_edges, reasons, n);
		free(reasons);
	}
	for (size_t i = 0; i < dec->slot_count; i++)
		for (size_t r = 0; r < slot_rows(&dec->slots[i]); r++)
			dec->slots[i].why[r].has_why = false;
	dec->in_train = false;
	dec->train_took = false;
	dec->train_edges = 0;
}

/* Trains for ir_decoder_set_why(): they start at a pulse and end at a
 * timeout or a long silence, after the families have seen it. */
static void track_train(struct ir_decoder *dec, const struct ir_edge *edge)
{
	if (!dec->why_fn)
		return;
	if (edge->kind == IR_PULSE && !dec->in_train) {
		dec->in_train = true;
		dec->train_took = false;
		dec->train_start_us = dec->now_us - edge->duration;
	}
	if (edge->kind == IR_PULSE || edge->kind == IR_SPACE)
		dec->train_edges += dec->in_train;
	if (edge->kind == IR_TIMEOUT || edge->kind == IR_OVERFLOW ||
	    (edge->kind == IR_SPACE && edge->duration >= IR_DECODER_TRAIN_GAP_US))
		end_train(dec);
}

void ir_decoder_set_why(struct ir_decoder *dec, ir_why_fn fn, void *userdata)
{
	end_train(dec);
	dec->why_fn = fn;
	dec->why_userdata = userdata;
}

int ir_decoder_feed(struct ir_decoder *dec, const struct ir_edge *edge)
{
	int ret = feed_edge(dec, edge);

	flush_pending(dec);
	track_train(dec, edge);
	return ret;
}

static int feed_edge(struct ir_decoder *dec, const struct ir_edge *edge)
{
	struct ir_decode_ctx ctx = edge_ctx_for(dec, edge);

	switch (edge->kind) {
	case IR_PULSE:
		for (size_t i = 0; i < dec->slot_count; i++) {
			dec->slots[i].got_space_early = false;
			decode_in_slot(&dec->slots[i], &ctx, edge);
		}
		dec->now_us += edge->duration;
		dec->after_pulse = true;
		dec->have_pulse = true;
		dec->pulse_end_us = dec->now_us;
		return 0;
	case IR_SPACE:
		for (size_t i = 0; i < dec->slot_count; i++) {
			if (dec->slots[i].got_space_early)
				dec->slots[i].got_space_early = false;
			else
				decode_in_slot(&dec->slots[i], &ctx, edge);
		}
		dec->now_us += edge->duration;
		dec->after_pulse = false;
		return 0;
	case IR_TIMEOUT:
		for (size_t i = 0; i < dec->slot_count; i++)
			decode_in_slot(&dec->slots[i], &ctx, edge);
		reset_families(dec);
		dec->now_us += edge->duration;
		dec->after_pulse = false;
		dec->have_pulse = false;
		return 0;
	case IR_OVERFLOW:
		ir_decoder_reset(dec);
		return 0;
	case IR_CARRIER:
		dec->carrier_hz = edge->duration;
		return 0;
	}
	return -EINVAL;
}

int ir_decoder_feed_many(struct ir_decoder *dec, const struct ir_edge *edges, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int ret = ir_decoder_feed(dec, &edges[i]);

		if (ret < 0)
			return ret;
	}
	return 0;
}

void ir_decoder_flush(struct ir_decoder *dec)
{
	struct ir_edge silence = { .duration = FLUSH_SILENCE_US, .kind = IR_TIMEOUT };
	struct ir_decode_ctx ctx = edge_ctx_for(dec, &silence);

	for (size_t i = 0; i < dec->slot_count; i++)
		decode_in_slot(&dec->slots[i], &ctx, &silence);
	flush_pending(dec);
	end_train(dec);
	reset_families(dec);
	dec->after_pulse = false;
	dec->have_pulse = false;
}

uint32_t ir_decoder_space_deadline(const struct ir_decoder *dec)
{
	uint32_t best = 0;
	struct ir_decode_ctx ctx;

	if (!dec->after_pulse)
		return 0;
	ctx = edge_ctx((struct ir_decoder *)dec, 0, dec->now_us);
	for (size_t i = 0; i < dec->slot_count; i++) {
		const struct family_slot *slot = &dec->slots[i];
		uint32_t d;

		if (slot->got_space_early || !slot->family->space_deadline)
			continue;
		slot_bind(&ctx, slot);
		d = slot->family->space_deadline(slot->state, &ctx);
		if (d && (!best || d < best))
			best = d;
	}
	return best;
}

void ir_decoder_space_elapsed(struct ir_decoder *dec, uint32_t elapsed_us)
{
	struct ir_edge space = ir_space(elapsed_us);

	if (!dec->after_pulse)
		return;
	for (size_t i = 0; i < dec->slot_count; i++) {
		struct family_slot *slot = &dec->slots[i];
		struct ir_decode_ctx ctx = slot_ctx(dec, slot, 0, dec->now_us);
		uint32_t d;

		if (slot->got_space_early || !slot->family->space_deadline)
			continue;
		d = slot->family->space_deadline(slot->state, &ctx);
		if (!d || d > elapsed_us)
			continue;
		/* a table family's other rows still want the space edge */
		slot->got_space_early = !slot->family->space_again;
		ctx.early_space = true;
		slot->family->decode(slot->state, &ctx, &space);
	}
	flush_pending(dec);
}

/* ---- frames the families report (through ir_decode_ctx.c) ---- */

static void deliver(struct ir_decoder *dec, const struct ir_frame *frame)
{
	dec->train_took = true;
	dec->last.valid = true;
	dec->last.protocol = frame->protocol;
	dec->last.scancode = frame->scancode;
	dec->last.flags = frame->flags & IR_FRAME_TOGGLE;
	dec->last.start_us = frame->start_us;
	dec->last.end_us = frame->end_us;
	dec->last.decoder_id = frame->decoder_id;
	dec->fn(dec->userdata, frame);
}

/* A frame a loaded keymap's decoder read (a lircd.conf remote) outranks
 * every built-in reading of the same light: the user who loaded the remote
 * means its buttons, as lircd names them whatever else the light is. */
static unsigned frame_priority(const struct ir_frame *f)
{
	const struct ir_protocol_info *info = ir_protocol_get(f->protocol);

	if (f->decoder_id)
		return UINT_MAX;
	return info ? info->priority : 0;
}

/* Two frames start this close only if they are the same light. */
static bool same_light(const struct ir_frame *f, uint64_t start_us)
{
	uint64_t gap = f->start_us > start_us ? f->start_us - start_us : start_us - f->start_us;

	return gap <= SAME_SPAN_US;
}

/*
 * A built-in reading of light that an earlier edge already settled: the
 * first reading to be certain wins unless the later one ranks higher (RC-6
 * ends before the 6.3 ms of darkness that a Sony reading of the same
 * pulses, at rc-core's margins, waits for).
 */
static bool already_read(const struct ir_decoder *dec, const struct ir_frame *f)
{
	const struct ir_protocol_info *info;

	if (f->decoder_id || !dec->last.valid || dec->last.decoder_id ||
	    (f->flags & IR_FRAME_REPEAT) || !same_light(f, dec->last.start_us))
		return false;
	info = ir_protocol_get(dec->last.protocol);
	return frame_priority(f) <= (info ? info->priority : 0);
}

/* Of two readings `g` (queued j-th) and `f` (i-th) of the same light,
 * whether `g` is the one reported.  Two loaded remotes that read the same
 * light (two remotes of a lircd.conf with one code): lircd names it for
 * the first that reads it, and repeats it for that one. */
static bool outranks(const struct ir_frame *g, unsigned j, const struct ir_frame *f, unsigned i)
{
	if (f->decoder_id && g->decoder_id)
		return g->decoder_id < f->decoder_id || (g->decoder_id == f->decoder_id && j < i);
	return frame_priority(g) > frame_priority(f);
}

/* Reports the frames the last edge completed: of two readings of the same
 * light, only the one of higher priority. */
static void flush_pending(struct ir_decoder *dec)
{
	unsigned n = dec->pending_count;

	dec->pending_count = 0;
	for (unsigned i = 0; i < n; i++) {
		const struct ir_frame *f = &dec->pending[i];
		bool outranked = false;

		for (unsigned j = 0; j < n && !outranked; j++) {
			const struct ir_frame *g = &dec->pending[j];

			outranked = j != i && same_light(f, g->start_us) && outranks(g, j, f, i);
		}
		if (!outranked && !already_read(dec, f))
			deliver(dec, f);
	}
}

static void queue_frame(void *owner, const struct ir_frame *frame)
{
	struct ir_decoder *dec = owner;

	if (dec->pending_count == PENDING_MAX)
		flush_pending(dec);
	dec->pending[dec->pending_count++] = *frame;
}

/* rc-core's repeat rule: a repeat code stands for the last frame while
 * that frame's key would still be down. */
static void queue_repeat(void *owner, const struct ir_protocol_set *of, uint64_t start_us,
			 uint64_t end_us)
{
	struct ir_decoder *dec = owner;
	const struct ir_protocol_info *info;
	uint64_t window;

	if (!dec->last.valid || !ir_protocol_set_has(of, dec->last.protocol))
		return;
	info = ir_protocol_get(dec->last.protocol);
	window = (uint64_t)(info ? info->repeat_period_ms : 0) * 1000 + dec->keyup_timeout_us;
	if (start_us < dec->last.end_us || start_us - dec->last.end_us > window)
		return;

	struct ir_frame frame = {
		.protocol = dec->last.protocol,
		.flags = dec->last.flags | IR_FRAME_REPEAT,
		.scancode = dec->last.scancode,
		.start_us = start_us,
		.end_us = end_us,
		.decoder_id = dec->last.decoder_id,
	};

	queue_frame(dec, &frame);
}
