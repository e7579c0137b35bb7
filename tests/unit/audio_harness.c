/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "audio_harness.h"

#include <errno.h>
#include <stdio.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ir_decoder.h"
#include "ir_receiver.h"

/* A frame's reported start may differ from the nominal one by the receiver
 * model's stretch and the detector's filter delay. */
#define MATCH_WINDOW_US 3000.0

struct expected {
	enum ir_protocol protocol;
	uint64_t scancode;
	bool repeat;
	double start_us; /* in audio time */
	bool matched;
};

struct run_state {
	struct expected *exp;
	size_t n_exp;
	unsigned matched, false_frames;
	double max_latency_us;
	double now_us; /* audio time at the end of the block being processed */
	struct ir_decoder *check;
	bool check_hit;
	enum ir_protocol check_proto;
	uint64_t check_scancode;
};

static uint64_t next_random(uint64_t *s)
{
	uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static void check_frame(void *userdata, const struct ir_frame *f)
{
	struct run_state *st = userdata;

	if (!(f->flags & IR_FRAME_REPEAT) && f->protocol == st->check_proto &&
	    f->scancode == st->check_scancode)
		st->check_hit = true;
}

/* A random scancode of p whose timings decode back to (p, scancode) itself:
 * a necx code with complementary address bytes is a nec frame, and so on. */
static uint64_t canonical_scancode(struct run_state *st, enum ir_protocol p, uint64_t *seed)
{
	const struct ir_protocol_info *info = ir_protocol_get(p);

	for (int tries = 0; tries < 1000; tries++) {
		uint64_t sc = next_random(seed) & info->scancode_mask;
		struct ir_edge_buf b = { 0 };

		if (p == IR_PROTO_RC6_MCE)
			sc = 0x800f0000u | (sc & 0x7fff);
		if (ir_encode(p, sc, NULL, &b) < 0) {
			ir_edge_buf_free(&b);
			continue;
		}
		st->check_hit = false;
		st->check_proto = p;
		st->check_scancode = sc;
		ir_decoder_reset(st->check);
		ir_decoder_feed_many(st->check, b.edges, b.len);
		ir_decoder_flush(st->check);
		ir_edge_buf_free(&b);
		if (st->check_hit)
			return sc;
	}
	return 0;
}

/* Does frame f stand for the expected one?  All protocols decode here, and
 * one beyond rc-core may win over the rc-core reading of the same light
 * (pioneer over a nec frame with a device code 0xA0-0xAF): its rc-core
 * reading counts too. */
static bool frame_is(const struct expected *e, const struct ir_frame *f)
{
	enum ir_protocol rc_proto;
	uint64_t rc_scancode;

	if (e->protocol == f->protocol && e->scancode == f->scancode)
		return true;
	return f->protocol >= 32 &&
	       ir_protocol_rc_core_view(f->protocol, f->scancode, &rc_proto, &rc_scancode) &&
	       e->protocol == rc_proto && e->scancode == rc_scancode;
}

static void on_frame(void *userdata, const struct ir_frame *f)
{
	struct run_state *st = userdata;
	double start = (double)f->start_us;

	for (size_t i = 0; i < st->n_exp; i++) {
		struct expected *e = &st->exp[i];

		if (e->matched || !frame_is(e, f) ||
		    e->repeat != !!(f->flags & IR_FRAME_REPEAT) ||
		    fabs(e->start_us - start) > MATCH_WINDOW_US)
			continue;
		e->matched = true;
		st->matched++;
		if (getenv("IRJACK_TRIAL_DEBUG") && st->now_us - (double)f->end_us > 3000)
			fprintf(stderr, "late %s 0x%llx by %.0f us\n", ir_protocol_get(f->protocol)->name,
				(unsigned long long)f->scancode, st->now_us - (double)f->end_us);
		if (st->now_us - (double)f->end_us > st->max_latency_us)
			st->max_latency_us = st->now_us - (double)f->end_us;
		return;
	}
	st->false_frames++;
	if (getenv("IRJACK_TRIAL_DEBUG"))
		fprintf(stderr, "false %s 0x%llx at %.6f s\n", ir_protocol_get(f->protocol)->name,
			(unsigned long long)f->scancode, start / 1e6);
}

int audio_decode_edges(const struct ir_channel_config *channel, const struct ir_edge *edges,
		       size_t n, size_t block, enum ir_polarity polarity,
		       const struct ir_protocol_set *protocols,
		       void (*fn)(void *userdata, const struct ir_frame *frame), void *userdata)
{
	float *samples = NULL;
	size_t frames = 0;
	struct ir_receiver_config rcfg = { 0 };
	struct ir_receiver *rx = NULL;
	int ret;

	ret = ir_channel_render(channel, edges, n, &samples, &frames);
	if (ret < 0)
		return ret;
	rcfg.sample_rate = channel->sample_rate;
	rcfg.channels = 1;
	rcfg.channel = 0;
	rcfg.polarity = polarity;
	rcfg.protocols = protocols;
	ret = ir_receiver_new(&rcfg, fn, userdata, &rx);
	if (ret == 0) {
		if (!block)
			block = 1024;
		for (size_t i = 0; i < frames; i += block)
			ir_receiver_process(rx, samples + i, frames - i < block ? frames - i : block);
		ir_receiver_flush(rx);
	}
	ir_receiver_free(rx);
	free(samples);
	return ret;
}

/* Edges [from, to) of one press, and its start in the edge buffer's time. */
struct press_span {
	size_t from, to;
	unsigned frames;
};

/* What the genie has of a trial: the coupling-free signal `dc`, the noise
 * and hum the receiver got on top of the coupled one (`noise`), and for a
 * photodiode `lit`, the coupling-free signal of a burst lasting the whole
 * recording (the carrier a dark unit would have had, lit). */
struct genie_view {
	const float *dc, *noise, *lit;
	size_t n;
	double mid;
};

/* Mean of samples [a, b) of `v`, and of `w` added when not NULL. */
static double span_mean(const float *v, const float *w, size_t a, size_t b)
{
	double sum = 0;

	for (size_t k = a; k < b; k++)
		sum += v[k] + (w ? w[k] : 0);
	return sum / (double)(b - a);
}

/* Receiver module: the unit's mean, with the coupling undone, on the right
 * side of the mid level. */
static bool genie_unit_level(const struct genie_view *g, size_t a, size_t b, bool pulse)
{
	(void)pulse;
	return (span_mean(g->dc, NULL, a, b) > g->mid) == (span_mean(g->dc, g->noise, a, b) > g->mid);
}

/* Photodiode: the unit as sent (s) against the same unit flipped (s': dark,
 * or lit with the carrier of `lit`), decided by correlation with s - s'
 * (the matched filter; it integrates the carrier's whole energy, phase
 * known): right when <noise, s - s'> > -|s - s'|² / 2. */
static bool genie_unit_carrier(const struct genie_view *g, size_t a, size_t b, bool pulse)
{
	double dot = 0, energy = 0;

	for (size_t k = a; k < b; k++) {
		double d = (double)g->dc[k] - (pulse ? 0.0 : (double)g->lit[k]);

		dot += (double)g->noise[k] * d;
		energy += d * d;
	}
	return dot > -energy / 2;
}

/* One press through the genie (see audio_result.genie_matched): true when
 * every unit is decided right. */
static bool genie_press(const struct press_span *p, const struct ir_edge *edges,
			const struct ir_channel_config *ch, const struct genie_view *g)
{
	double unit = 0, t = ch->lead_ms * 1000;
	size_t last = p->to;

	for (size_t i = 0; i < p->from; i++)
		if (ir_edge_is_timing(&edges[i]))
			t += edges[i].duration;

	/* a trailing space is the gap, not the frame */
	while (last > p->from && edges[last - 1].kind != IR_PULSE)
		last--;
	for (size_t i = p->from; i < last; i++)
		if (ir_edge_is_timing(&edges[i]) && (unit == 0 || edges[i].duration < unit))
			unit = edges[i].duration;
	for (size_t i = p->from; i < last; i++) {
		double dur = edges[i].duration, units = floor(dur / unit + 0.5);

		if (!ir_edge_is_timing(&edges[i]))
			continue;
		/* the receiver's stretch (ir_channel_config.stretch_us): the
		 * light it shows lasts longer, the dark after it less; the
		 * units of each run are cut where it shows them */
		dur += edges[i].kind == IR_PULSE ? ch->stretch_us : -ch->stretch_us;
		for (double k = 0; k < units; k++) {
			size_t a = (size_t)ceil((t + k * dur / units) * 1e-6 * ch->sample_rate);
			size_t b = (size_t)ceil((t + (k + 1) * dur / units) * 1e-6 * ch->sample_rate);
			bool pulse = edges[i].kind == IR_PULSE;

			if (b > g->n)
				return false;
			if (b <= a)
				continue;
			if (!(g->lit ? genie_unit_carrier(g, a, b, pulse) : genie_unit_level(g, a, b, pulse)))
				return false;
		}
		t += dur;
	}
	return true;
}

/* Renders, noiseless and without hum, the coupling-free light of one burst
 * as long as `edges` (a photodiode's carrier, lit throughout) into *lit. */
static int render_lit(const struct ir_channel_config *clean, const struct ir_edge_buf *edges,
		      float **lit, size_t *n)
{
	struct ir_edge burst = { .kind = IR_PULSE, .duration = (uint32_t)ir_edge_buf_duration(edges) };

	return ir_channel_render(clean, &burst, 1, lit, n);
}

/* The genie over every press of a trial; `noisy` is what the receiver got. */
static unsigned genie_count(const struct audio_trial *t, const struct ir_edge_buf *edges,
			    const struct press_span *presses, unsigned n_press, const float *noisy,
			    size_t n)
{
	struct ir_channel_config clean = t->channel;
	float *coupled = NULL, *dc = NULL, *lit = NULL;
	size_t n1 = 0, n2 = 0, n3 = 0;
	unsigned ok = 0;

	clean.snr_db = 1000;
	clean.hum_hz = 0;
	if (ir_channel_render(&clean, edges->edges, edges->len, &coupled, &n1) < 0)
		goto out;
	clean.ac_tau_ms = 0;
	if (ir_channel_render(&clean, edges->edges, edges->len, &dc, &n2) < 0 || n1 != n || n2 != n)
		goto out;
	if (clean.frontend == IR_FRONTEND_PHOTODIODE &&
	    (render_lit(&clean, edges, &lit, &n3) < 0 || n3 < n))
		goto out;
	{
		float lo = dc[0], hi = dc[0];
		struct genie_view g = { .dc = dc, .noise = coupled, .lit = lit, .n = n };

		for (size_t k = 0; k < n; k++) {
			coupled[k] = noisy[k] - coupled[k]; /* the noise and hum */
			lo = dc[k] < lo ? dc[k] : lo;
			hi = dc[k] > hi ? dc[k] : hi;
		}
		g.mid = 0.5 * ((double)lo + hi);
		for (unsigned i = 0; i < n_press; i++)
			if (genie_press(&presses[i], edges->edges, &t->channel, &g))
				ok += presses[i].frames;
	}
out:
	free(coupled);
	free(dc);
	free(lit);
	return ok;
}

int audio_trial_run(const struct audio_trial *t, struct audio_result *res)
{
	const struct ir_protocol_info *info = ir_protocol_get(t->protocol);
	struct run_state st = { 0 };
	struct ir_edge_buf edges = { 0 };
	struct press_span *presses = NULL;
	struct ir_protocol_set only;
	uint64_t seed = t->seed * 2654435761u + 1;
	double gap_min = t->gap_min_ms > 0 ? t->gap_min_ms : 60;
	double gap_max = t->gap_max_ms > gap_min ? t->gap_max_ms : gap_min + 240;
	float *samples = NULL;
	size_t frames = 0;
	struct ir_receiver_config rcfg = { 0 };
	struct ir_receiver *rx = NULL;
	int ret;

	memset(res, 0, sizeof(*res));
	if (!info)
		return -EINVAL;
	ir_protocol_set_clear(&only);
	ir_protocol_set_add(&only, t->protocol);
	ret = ir_decoder_new(&only, check_frame, &st, &st.check);
	if (ret < 0)
		return ret;
	st.exp = calloc((size_t)t->frames * (1 + t->repeats), sizeof(*st.exp));
	presses = calloc(t->frames ? t->frames : 1, sizeof(*presses));
	if (!st.exp || !presses) {
		ret = -ENOMEM;
		goto out;
	}
	for (unsigned i = 0; i < t->frames; i++) {
		double gap_ms = gap_min + (gap_max - gap_min) * (double)(next_random(&seed) % 1000) / 1000.0;
		uint64_t sc = canonical_scancode(&st, t->protocol, &seed);
		struct ir_encode_opts o = { .toggle = i & 1, .repeats = t->repeats };
		double start;
		const struct ir_protocol_info *pi = info;

		ret = ir_edge_buf_space(&edges, (uint32_t)(gap_ms * 1000));
		if (ret < 0)
			goto out;
		start = (double)ir_edge_buf_duration(&edges) + t->channel.lead_ms * 1000;
		presses[i].from = edges.len;
		ret = ir_encode(t->protocol, sc, &o, &edges);
		if (ret < 0)
			goto out;
		/* (an encoder's leading space merged into the gap: the
		 * press starts at its first pulse) */
		presses[i].to = edges.len;
		presses[i].frames = 1 + t->repeats;
		for (unsigned k = 0; k <= t->repeats; k++) {
			struct expected *e = &st.exp[st.n_exp++];

			e->protocol = t->protocol;
			e->scancode = sc;
			/* protocols with a repeat code report repeats as such */
			e->repeat = k > 0 && (t->protocol == IR_PROTO_NEC || t->protocol == IR_PROTO_NECX ||
					      t->protocol == IR_PROTO_NEC32);
			e->start_us = start + (double)k * pi->frame_period_us;
		}
	}
	ret = ir_channel_render(&t->channel, edges.edges, edges.len, &samples, &frames);
	if (ret < 0)
		goto out;
	rcfg.sample_rate = t->channel.sample_rate;
	rcfg.channels = 1;
	rcfg.channel = 0;
	rcfg.polarity = t->polarity;
	rcfg.protocols = NULL;
	ret = ir_receiver_new(&rcfg, on_frame, &st, &rx);
	if (ret < 0)
		goto out;
	{
		size_t block = t->block ? t->block : 1024;

		for (size_t i = 0; i < frames; i += block) {
			size_t nb = frames - i < block ? frames - i : block;

			st.now_us = (double)(i + nb) * 1e6 / t->channel.sample_rate;
			ir_receiver_process(rx, samples + i, nb);
		}
		st.now_us = (double)frames * 1e6 / t->channel.sample_rate;
		ir_receiver_flush(rx);
	}
	if (getenv("IRJACK_TRIAL_DEBUG")) {
		for (size_t i = 0; i < st.n_exp; i++)
			if (!st.exp[i].matched)
				fprintf(stderr, "missed %s 0x%llx%s at %.6f s\n",
					ir_protocol_get(st.exp[i].protocol)->name,
					(unsigned long long)st.exp[i].scancode,
					st.exp[i].repeat ? " repeat" : "", st.exp[i].start_us / 1e6);
	}
	res->sent = (unsigned)st.n_exp;
	res->matched = st.matched;
	res->false_frames = st.false_frames;
	res->samples = frames;
	res->max_latency_us = st.max_latency_us;
	if (t->genie)
		res->genie_matched = genie_count(t, &edges, presses, t->frames, samples, frames);
	ret = 0;
out:
	ir_receiver_free(rx);
	ir_decoder_free(st.check);
	free(presses);
	free(st.exp);
	free(samples);
	ir_edge_buf_free(&edges);
	return ret;
}

/* A receiver module's channel as the demodulator's tests and bench_audio
 * limit run it: the defaults, hum 2 % at 50 Hz. */
static void module_channel(struct ir_channel_config *c, unsigned rate, double tau_ms, double snr_db)
{
	ir_channel_config_default(c);
	c->sample_rate = rate;
	c->ac_tau_ms = tau_ms;
	c->snr_db = snr_db;
	c->hum_hz = 50;
	c->hum_level = 0.02;
}

int audio_trial_module(const char *protocol, unsigned rate, double tau_ms, double snr_db,
		       unsigned frames, uint64_t seed, double gap_min_ms, double gap_max_ms,
		       struct audio_result *result)
{
	struct audio_trial t = { .frames = frames, .seed = seed,
				 .gap_min_ms = gap_min_ms, .gap_max_ms = gap_max_ms };

	if (ir_protocol_from_name(protocol, &t.protocol) < 0)
		return -EINVAL;
	module_channel(&t.channel, rate, tau_ms, snr_db);
	t.channel.invert = seed & 1;
	t.channel.seed = seed * 7919;
	return audio_trial_run(&t, result);
}

int audio_trial_limit_point(enum ir_protocol protocol, unsigned rate, double tau_ms, double snr_db,
			    double stretch_us, unsigned frames, uint64_t seed,
			    struct audio_result *result)
{
	struct audio_trial t = { .protocol = protocol, .frames = frames, .seed = seed };

	module_channel(&t.channel, rate, tau_ms, snr_db);
	t.channel.invert = (seed >> 3) & 1;
	t.channel.seed = seed;
	t.channel.stretch_us = stretch_us;
	return audio_trial_run(&t, result);
}

static void on_reference(void *userdata, const struct ir_frame *f)
{
	struct audio_wanted *w = userdata;

	if (!w->have) {
		w->protocol = f->protocol;
		w->scancode = f->scancode;
		w->have = true;
	}
}

static void on_wanted(void *userdata, const struct ir_frame *f)
{
	struct audio_wanted *w = userdata;

	if (f->protocol == w->protocol && f->scancode == w->scancode)
		w->hit = true;
}

int audio_reference_frame(enum ir_protocol p, const struct ir_edge *edges, size_t n,
			  struct audio_wanted *w)
{
	struct ir_protocol_set only;
	struct ir_decoder *dec;

	ir_protocol_set_clear(&only);
	ir_protocol_set_add(&only, p);
	memset(w, 0, sizeof(*w));
	if (ir_decoder_new(&only, on_reference, w, &dec) < 0)
		return -1;
	ir_decoder_feed_many(dec, edges, n);
	ir_decoder_flush(dec);
	ir_decoder_free(dec);
	return w->have ? 0 : -1;
}

const struct audio_cut_frame audio_cut_frames[AUDIO_CUT_FRAMES] = {
	{ "nec", 0x04fb08 & 0xffff, 100 }, { "rc5", 0x0510, 100 }, { "rc6_0", 0x0c23, 100 },
	{ "sony12", 0x010012, 30 },        { "jvc", 0x0312, 100 }, { "sanyo", 0x010c15, 100 },
};

int audio_cut_frame_edges(size_t i, struct ir_edge_buf *b, struct audio_wanted *w)
{
	enum ir_protocol proto;

	if (i >= AUDIO_CUT_FRAMES || ir_protocol_from_name(audio_cut_frames[i].name, &proto) < 0 ||
	    ir_encode(proto, audio_cut_frames[i].scancode, NULL, b) < 0)
		return -1;
	return audio_reference_frame(proto, b->edges, b->len, w);
}

bool audio_decodes_from(const float *s, size_t n, size_t from, unsigned rate, size_t block,
			struct audio_wanted *w,
			void (*edge_fn)(void *userdata, unsigned channel, const struct ir_edge *edge))
{
	struct ir_receiver_config cfg = { .sample_rate = rate, .channels = 1 };
	struct ir_receiver *rx;

	w->hit = false;
	if (ir_receiver_new(&cfg, on_wanted, w, &rx) < 0)
		return false;
	if (edge_fn)
		ir_receiver_set_edge_fn(rx, edge_fn, NULL);
	for (size_t i = from; i < n; i += block)
		ir_receiver_process(rx, s + i, n - i < block ? n - i : block);
	ir_receiver_flush(rx);
	ir_receiver_free(rx);
	return w->hit;
}
