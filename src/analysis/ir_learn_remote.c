/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_learn_remote.c - a remote learned from a recording (ir_learn_remote.h).
 *
 * Learning checks each press with what it inferred (ir_learn_pd_decode(),
 * the built-in decoders, a raw comparison) to choose a key's reference
 * press; the check that decides whether a file is written is
 * ir_learn_save()'s, with the file itself loaded back (ir_learn_save.c).
 */
#include "ir_learn_remote.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ir_audio_file.h"
#include "ir_keymap_toml.h"
#include "ir_keymap_write.h"
#include "ir_receiver.h"
#include "ir_timing_io.h"
#include "ir_util.h"

#define READ_FRAMES 4096
/* A frame and its repeats are this far apart at least. */
#define REPEAT_GAP_US 10000

static const char *const default_keys[] = {
	"KEY_1", "KEY_2", "KEY_3", "KEY_4", "KEY_5", "KEY_6", "KEY_7", "KEY_8", "KEY_9",
	"KEY_0", "KEY_A", "KEY_B", "KEY_C", "KEY_D", "KEY_E", "KEY_F", "KEY_G", "KEY_H",
	"KEY_I", "KEY_J", "KEY_K", "KEY_L", "KEY_M", "KEY_N", "KEY_O", "KEY_P", "KEY_Q",
	"KEY_R", "KEY_S", "KEY_T", "KEY_U", "KEY_V", "KEY_W", "KEY_X", "KEY_Y", "KEY_Z",
};

/* ---- reading ---- */

struct capture {
	struct ir_learn_input *in;
	struct ir_edge_buf edges[IR_RECEIVER_MAX_CHANNELS];
	bool oom;
};

static void keep_edge(void *userdata, unsigned channel, const struct ir_edge *edge)
{
	struct capture *cap = userdata;

	if (ir_edge_buf_push(&cap->edges[channel], *edge) < 0)
		cap->oom = true;
}

static void keep_frame(void *userdata, const struct ir_frame *frame)
{
	struct ir_learn_input *in = userdata;

	if (in->frame_count < IR_LEARN_MAX_FRAMES && !(frame->flags & IR_FRAME_REPEAT))
		in->frames[in->frame_count++] = *frame;
}

/* How one channel of a multi-channel recording fared. */
struct channel_score {
	uint64_t frames; /* frames decoded on it */
	double snr_db;   /* its last edges' height over its noise */
	size_t edges;
};

/* Whether channel a carries the remote better than b: more frames
 * decoded, then the higher SNR.  The edge count comes last because noise
 * adds edges: a stereo recording's weaker channel told a burst of noise
 * before the first press as 3 more pulses, which won it the choice when
 * edges came first and gave the learnt file a key of noise. */
static bool channel_better(const struct channel_score *a, const struct channel_score *b)
{
	if (a->frames != b->frames)
		return a->frames > b->frames;
	if (a->snr_db != b->snr_db)
		return a->snr_db > b->snr_db;
	return a->edges > b->edges;
}

/* Picks the channel that carries the remote best (channel_better). */
static unsigned best_channel(struct ir_receiver *rx, const struct capture *cap, unsigned channels)
{
	struct channel_score score[IR_RECEIVER_MAX_CHANNELS] = { { 0 } };
	unsigned best = 0;

	for (unsigned c = 0; c < channels; c++) {
		struct ir_signal_report r = { 0 };

		if (ir_receiver_report(rx, c, &r) < 0)
			continue;
		score[c] = (struct channel_score){ .frames = ir_receiver_channel_frames(rx, c),
						   .snr_db = r.snr_db,
						   .edges = cap->edges[c].len };
		if (channel_better(&score[c], &score[best]))
			best = c;
	}
	return best;
}

/* Demodulates every channel; keeps the one that carries the remote best. */
static int demodulate(const char *path, struct ir_audio_file *f, struct ir_learn_input *in,
		      char *err, size_t err_size)
{
	struct capture cap = { .in = in };
	struct ir_audio_info info;
	struct ir_receiver_config cfg = { .channel = IR_RECEIVER_CHANNEL_AUTO };
	struct ir_receiver *rx = NULL;
	unsigned best = 0;
	float *buf;
	long got;

	ir_audio_file_info(f, &info);
	if (info.channels > IR_RECEIVER_MAX_CHANNELS) {
		snprintf(err, err_size, "%s: has %u channels", path, info.channels);
		return -EINVAL;
	}
	cfg.sample_rate = info.sample_rate;
	cfg.channels = info.channels;
	if (info.channels == 1)
		cfg.channel = 0;
	buf = malloc(READ_FRAMES * sizeof(float) * info.channels);
	if (!buf || ir_receiver_new(&cfg, keep_frame, in, &rx) < 0) {
		free(buf);
		snprintf(err, err_size, "%s: cannot demodulate audio at %u Hz", path, info.sample_rate);
		return -EINVAL;
	}
	ir_receiver_set_edge_fn(rx, keep_edge, &cap);
	while ((got = ir_audio_file_read(f, buf, READ_FRAMES)) > 0)
		ir_receiver_process(rx, buf, (size_t)got);
	ir_receiver_flush(rx);
	best = best_channel(rx, &cap, info.channels);
	ir_receiver_free(rx);
	free(buf);
	in->edges = cap.edges[best];
	for (unsigned c = 0; c < IR_RECEIVER_MAX_CHANNELS; c++)
		if (c != best)
			ir_edge_buf_free(&cap.edges[c]);
	if (got < 0 || cap.oom) {
		snprintf(err, err_size, "%s: %s", path, cap.oom ? "out of memory" : "read error");
		return cap.oom ? -ENOMEM : -EIO;
	}
	return 0;
}

int ir_learn_read(const char *path, struct ir_learn_input *in, char *err, size_t err_size)
{
	struct ir_parse_error perr = { 0 };
	struct ir_audio_file *f = NULL;
	char audio_error[256];
	int ret;

	if (ir_audio_file_open(path, &f, audio_error, sizeof(audio_error)) == 0) {
		ret = demodulate(path, f, in, err, err_size);
		ir_audio_file_close(f);
		return ret;
	}
	ret = ir_timing_read_file(path, IR_FORMAT_AUTO, NULL, &in->edges, NULL, &perr);
	if (ret < 0) {
		snprintf(err, err_size, "%s: not audio (%s) nor timings (%s)", path, audio_error,
			 strerror(-ret));
		return ret;
	}
	ret = ir_learn_input_decode(in);
	if (ret < 0)
		snprintf(err, err_size, "%s", strerror(-ret));
	return ret;
}

/* Decodes in->edges with the protocols of `set` into in->frames. */
static int decode_frames(struct ir_learn_input *in, const struct ir_protocol_set *set)
{
	struct ir_decoder *dec = NULL;
	int ret;

	in->frame_count = 0;
	ret = ir_decoder_new(set, keep_frame, in, &dec);
	if (ret < 0)
		return ret;
	ir_decoder_feed_many(dec, in->edges.edges, in->edges.len);
	ir_decoder_flush(dec);
	ir_decoder_free(dec);
	return 0;
}

int ir_learn_input_decode(struct ir_learn_input *in)
{
	struct ir_protocol_set set;

	ir_protocol_set_default(&set);
	return decode_frames(in, &set);
}

void ir_learn_input_free(struct ir_learn_input *in)
{
	ir_edge_buf_free(&in->edges);
}

/* ---- presses ---- */

struct press {
	size_t start, len;            /* the first frame's edges */
	uint64_t t0, t1;              /* the press's span in µs */
	const struct ir_frame *frame; /* the first decoded frame in it, or NULL */
	uint64_t code;
	bool ok;
};

/* The presses' times and first frames (to the first space of at least
 * REPEAT_GAP_US: the gap between a frame and its repeats). */
static void locate_presses(const struct ir_learn_input *in, const struct ir_learn_press *split,
			   size_t n, struct press *presses)
{
	const struct ir_edge *e = in->edges.edges;
	uint64_t t = 0;
	size_t p = 0;

	for (size_t i = 0; i < in->edges.len && p < n; i++) {
		if (i == split[p].start)
			presses[p].t0 = t;
		if (ir_edge_is_timing(&e[i]))
			t += e[i].duration;
		if (i + 1 == split[p].start + split[p].len)
			presses[p++].t1 = t;
	}
	for (p = 0; p < n; p++) {
		size_t len = 0;

		while (len < split[p].len && !(e[split[p].start + len].kind == IR_SPACE &&
					       e[split[p].start + len].duration >= REPEAT_GAP_US))
			len++;
		presses[p].start = split[p].start;
		presses[p].len = len;
		for (size_t f = 0; f < in->frame_count && !presses[p].frame; f++)
			if (in->frames[f].start_us + 2000 >= presses[p].t0 &&
			    in->frames[f].start_us <= presses[p].t1)
				presses[p].frame = &in->frames[f];
	}
}

/* Names the keys and how many presses each has. */
static int assign_keys(const struct ir_learn_options *opt, size_t npress,
		       struct ir_learn_result *res, size_t *per_key, char *err, size_t err_size)
{
	size_t nkeys = opt->key_count;

	*per_key = opt->per_key;
	if (nkeys) {
		if (!*per_key)
			*per_key = npress / nkeys;
		if (*per_key == 0 || *per_key * nkeys != npress) {
			snprintf(err, err_size, "%zu presses found, %zu keys x %zu presses expected",
				 npress, nkeys, *per_key);
			return -EINVAL;
		}
	} else {
		*per_key = *per_key ? *per_key : 1;
		if (npress % *per_key) {
			snprintf(err, err_size, "%zu presses is not a multiple of %zu", npress, *per_key);
			return -EINVAL;
		}
		nkeys = npress / *per_key;
		if (nkeys > ARRAY_SIZE(default_keys)) {
			snprintf(err, err_size, "%zu keys: name them with --keys", nkeys);
			return -E2BIG;
		}
	}
	if (nkeys > IR_LEARN_MAX_KEYS) {
		snprintf(err, err_size, "too many keys");
		return -E2BIG;
	}
	for (size_t k = 0; k < nkeys; k++)
		res->keys[k].name = opt->key_count ? opt->keys[k] : default_keys[k];
	res->key_count = nkeys;
	return 0;
}

/* ---- the methods ---- */

/* The first press of key `k` that a protocol decoded, or NULL. */
static const struct press *first_decoded(const struct press *presses, size_t k, size_t per_key)
{
	for (size_t j = 0; j < per_key; j++)
		if (presses[k * per_key + j].frame)
			return &presses[k * per_key + j];
	return NULL;
}

/*
 * Every key decoded by a protocol in at least one of its presses: the
 * protocol and scancode of each key's first decoded press.  A press that
 * did not decode (a glitch, the remote not aimed yet) does not stop its
 * key being learned from the others; it is not ok, nor one with another
 * code.
 */
static bool learn_protocol(struct press *presses, size_t npress, size_t per_key,
			   struct ir_learn_result *res)
{
	for (size_t k = 0; k < res->key_count; k++)
		if (!first_decoded(presses, k, per_key))
			return false;
	res->method = IR_LEARN_PROTOCOL;
	for (size_t k = 0; k < res->key_count; k++) {
		const struct ir_frame *f0 = first_decoded(presses, k, per_key)->frame;

		res->keys[k].protocol = f0->protocol;
		res->keys[k].scancode = f0->scancode;
	}
	res->protocol = res->keys[0].protocol;
	for (size_t p = 0; p < npress; p++) {
		const struct ir_frame *f = presses[p].frame;
		const struct ir_learned_key *key = &res->keys[p / per_key];

		presses[p].code = f ? f->scancode : 0;
		presses[p].ok = f && f->protocol == key->protocol && f->scancode == key->scancode;
	}
	return true;
}

typedef int (*bits_fn)(const void *params, const struct ir_edge *e, size_t n, uint8_t *bits,
		       size_t max);

static int pd_bits(const void *params, const struct ir_edge *e, size_t n, uint8_t *bits,
		   size_t max)
{
	return ir_learn_pd_decode(params, e, n, bits, max);
}

static int man_bits(const void *params, const struct ir_edge *e, size_t n, uint8_t *bits,
		    size_t max)
{
	return ir_learn_manchester_decode(params, e, n, bits, max);
}

/* Each press's bits as its code; ok when it has `nbits` and the code of
 * its key's first press that has `nbits` (which names the key). */
static void decode_presses(const struct ir_learn_input *in, struct press *presses, size_t npress,
			   size_t per_key, bits_fn fn, const void *params, unsigned nbits,
			   struct ir_learn_result *res)
{
	uint8_t bits[IR_LEARN_MAX_BITS];

	for (size_t p = 0; p < npress; p++) {
		int nb = fn(params, in->edges.edges + presses[p].start, presses[p].len, bits,
			    sizeof(bits));

		presses[p].code = 0;
		for (int b = 0; b < nb; b++)
			presses[p].code = presses[p].code << 1 | bits[b];
		presses[p].ok = nb == (int)nbits;
	}
	for (size_t k = 0; k < res->key_count; k++) {
		const struct press *ref = NULL;

		for (size_t j = 0; j < per_key && !ref; j++)
			if (presses[k * per_key + j].ok)
				ref = &presses[k * per_key + j];
		res->keys[k].scancode = ref ? ref->code : 0;
		for (size_t j = 0; j < per_key; j++)
			if (!ref || presses[k * per_key + j].code != ref->code)
				presses[k * per_key + j].ok = false;
	}
}

/* Pulse-distance, else bi-phase parameters of at most 64 bits.  Returns 1
 * when one fits, 0 when none does, -ENOMEM. */
static int learn_parameters(const struct ir_learn_input *in, struct press *presses,
			    size_t npress, size_t per_key, struct ir_learn_result *res)
{
	const struct ir_edge **caps = calloc(npress, sizeof(*caps));
	size_t *lens = calloc(npress, sizeof(*lens));
	int pd = -ENOMEM, man = -EINVAL;

	if (caps && lens) {
		for (size_t p = 0; p < npress; p++) {
			caps[p] = in->edges.edges + presses[p].start;
			lens[p] = presses[p].len;
		}
		pd = ir_learn_pulse_distance(caps, lens, npress, &res->pd);
		if (pd == -EINVAL || (pd == 0 && res->pd.bits > 64))
			man = ir_learn_manchester(caps, lens, npress, &res->man);
	}
	free(caps);
	free(lens);
	if (pd == -ENOMEM)
		return -ENOMEM;
	if (man == 0 && res->man.bits <= 64) {
		res->method = IR_LEARN_MANCHESTER;
		decode_presses(in, presses, npress, per_key, man_bits, &res->man, res->man.bits,
			       res);
		return 1;
	}
	if (pd == 0 && res->pd.bits <= 64) {
		res->method = IR_LEARN_PULSE_DISTANCE;
		decode_presses(in, presses, npress, per_key, pd_bits, &res->pd, res->pd.bits, res);
		return 1;
	}
	return 0;
}

/* Raw verification: every edge within 25 % (+100 µs) of the learned one. */
static bool raw_matches(const struct ir_edge *a, size_t na, const struct ir_edge *b, size_t nb)
{
	if (na != nb)
		return false;
	for (size_t i = 0; i < na; i++) {
		uint32_t x = a[i].duration, y = b[i].duration;
		uint32_t d = x > y ? x - y : y - x;

		if (a[i].kind != b[i].kind || d > y / 4 + 100)
			return false;
	}
	return true;
}

/* The press of key `k` whose length most of its presses share (the first
 * such): a glitched press, first or not, does not become the key. */
static const struct press *raw_reference(const struct press *presses, size_t k, size_t per_key)
{
	const struct press *key = &presses[k * per_key], *best = key;
	size_t best_count = 0;

	for (size_t i = 0; i < per_key; i++) {
		size_t count = 0;

		for (size_t j = 0; j < per_key; j++)
			count += key[j].len == key[i].len;
		if (count > best_count) {
			best_count = count;
			best = &key[i];
		}
	}
	return best;
}

/* Raw timings, averaged over the key's presses of its reference's length. */
static int learn_raw(const struct ir_learn_input *in, struct press *presses, size_t npress,
		     size_t per_key, struct ir_learn_result *res)
{
	const struct ir_edge *e = in->edges.edges;

	res->method = IR_LEARN_RAW;
	for (size_t k = 0; k < res->key_count; k++) {
		const struct press *p0 = raw_reference(presses, k, per_key);

		res->keys[k].scancode = k; /* the loader numbers raw keys in file order */
		for (size_t i = 0; i < p0->len; i++) {
			struct ir_edge a = e[p0->start + i];
			uint64_t sum = 0;
			unsigned cnt = 0;

			for (size_t j = 0; j < per_key; j++) {
				const struct press *pj = &presses[k * per_key + j];

				if (pj->len == p0->len) {
					sum += e[pj->start + i].duration;
					cnt++;
				}
			}
			a.duration = (uint32_t)(sum / cnt);
			if (ir_edge_buf_push(&res->keys[k].raw, a) < 0)
				return -ENOMEM;
		}
	}
	for (size_t p = 0; p < npress; p++)
		presses[p].ok = raw_matches(e + presses[p].start, presses[p].len,
					    res->keys[p / per_key].raw.edges,
					    res->keys[p / per_key].raw.len);
	return 0;
}

static int learn_presses(const struct ir_learn_input *in, struct press *presses, size_t npress,
			 size_t per_key, struct ir_learn_result *res)
{
	int ret = 0;

	if (!learn_protocol(presses, npress, per_key, res)) {
		ret = learn_parameters(in, presses, npress, per_key, res);
		if (ret == 0)
			ret = learn_raw(in, presses, npress, per_key, res);
	}
	if (ret < 0)
		return ret;
	res->presses = npress;
	for (size_t p = 0; p < npress; p++)
		res->presses_ok += presses[p].ok;
	return 0;
}

/*
 * When the default protocols leave presses unread or reading differently
 * from their key, every protocol is tried: those left out of the default
 * set (rc6a, whose toggle the default rc6_6a_32 reading takes for a code
 * bit; fan; imon) may read all of them.  That reading is kept when it reads
 * more presses; a keymap naming such a protocol enables it where it is
 * loaded, so the file check decodes as learning did.
 */
static int try_every_protocol(const struct ir_learn_input *in, const struct ir_learn_press *split,
			      size_t npress, struct ir_learn_result *res)
{
	struct ir_learn_input *alt = malloc(sizeof(*alt));
	struct press *presses = calloc(npress, sizeof(*presses));
	struct ir_learn_result *r2 = calloc(1, sizeof(*r2));
	struct ir_protocol_set set;
	size_t ok = 0;
	int ret = -ENOMEM;

	if (!alt || !presses || !r2)
		goto out;
	alt->edges = in->edges; /* shared, not freed here */
	ir_protocol_set_all(&set);
	ret = decode_frames(alt, &set);
	if (ret < 0)
		goto out;
	locate_presses(alt, split, npress, presses);
	r2->key_count = res->key_count;
	for (size_t k = 0; k < res->key_count; k++)
		r2->keys[k].name = res->keys[k].name;
	if (!learn_protocol(presses, npress, res->per_key, r2))
		goto out;
	for (size_t p = 0; p < npress; p++)
		ok += presses[p].ok;
	if (ok > res->presses_ok) {
		ir_learn_result_free(res);
		r2->presses = npress;
		r2->presses_ok = ok;
		r2->per_key = res->per_key;
		memcpy(r2->spans, res->spans, sizeof(r2->spans));
		*res = *r2;
	}
out:
	free(alt);
	free(presses);
	free(r2);
	return ret;
}

int ir_learn_remote(const struct ir_learn_input *in, const struct ir_learn_options *opt,
		    struct ir_learn_result *res, char *err, size_t err_size)
{
	struct ir_learn_press *split = calloc(IR_LEARN_MAX_PRESSES, sizeof(*split));
	struct press *presses = calloc(IR_LEARN_MAX_PRESSES, sizeof(*presses));
	size_t npress, per_key;
	int ret = -ENOMEM;

	memset(res, 0, sizeof(*res));
	if (!split || !presses)
		goto out;
	npress = ir_learn_split(in->edges.edges, in->edges.len, opt->gap_us, split,
				IR_LEARN_MAX_PRESSES);
	ret = -E2BIG;
	if (npress > IR_LEARN_MAX_PRESSES) {
		snprintf(err, err_size, "more than %d presses", IR_LEARN_MAX_PRESSES);
		goto out;
	}
	ret = -ENODATA;
	if (npress == 0) {
		snprintf(err, err_size, "no IR found");
		goto out;
	}
	locate_presses(in, split, npress, presses);
	memcpy(res->spans, split, npress * sizeof(*split));
	ret = assign_keys(opt, npress, res, &per_key, err, err_size);
	res->per_key = per_key;
	if (ret == 0)
		ret = learn_presses(in, presses, npress, per_key, res);
	if (ret == 0 && res->presses_ok < npress)
		ret = try_every_protocol(in, split, npress, res);
	if (ret == -ENOMEM)
		snprintf(err, err_size, "%s", strerror(ENOMEM));
out:
	free(split);
	free(presses);
	if (ret < 0)
		ir_learn_result_free(res);
	return ret;
}

void ir_learn_result_free(struct ir_learn_result *res)
{
	for (size_t k = 0; k < IR_LEARN_MAX_KEYS; k++)
		ir_edge_buf_free(&res->keys[k].raw);
}

const char *ir_learn_method_name(const struct ir_learn_result *res)
{
	switch (res->method) {
	case IR_LEARN_PROTOCOL:
		return ir_protocol_get(res->protocol)->name;
	case IR_LEARN_PULSE_DISTANCE:
		return "pulse_distance";
	case IR_LEARN_MANCHESTER:
		return "manchester";
	case IR_LEARN_RAW:
		return "raw";
	}
	return "?";
}

int ir_learn_write_toml(FILE *f, const char *name, const struct ir_learn_result *res)
{
	struct ir_keymap_write_key keys[IR_LEARN_MAX_KEYS];
	const char *protocol, *variant;

	for (size_t k = 0; k < res->key_count; k++)
		keys[k] = (struct ir_keymap_write_key){
			.keycode = res->keys[k].name,
			.scancode = res->keys[k].scancode,
			.raw = res->keys[k].raw.edges,
			.raw_len = res->keys[k].raw.len,
		};
	switch (res->method) {
	case IR_LEARN_PULSE_DISTANCE:
		return ir_keymap_write_pulse_distance(f, name, &res->pd, keys, res->key_count);
	case IR_LEARN_MANCHESTER:
		return ir_keymap_write_manchester(f, name, &res->man, keys, res->key_count);
	case IR_LEARN_RAW:
		return ir_keymap_write_raw(f, name, keys, res->key_count);
	case IR_LEARN_PROTOCOL:
		break;
	}
	/* one table per protocol, in the order the keys first use them */
	for (size_t k = 0; k < res->key_count; k++) {
		bool seen = false;

		for (size_t j = 0; j < k; j++)
			seen |= res->keys[j].protocol == res->keys[k].protocol;
		if (seen)
			continue;
		ir_keymap_toml_protocol_name(res->keys[k].protocol, &protocol, &variant);
		fprintf(f, "%s[[protocols]]\nname = \"%s\"\nprotocol = \"%s\"\n", k ? "\n" : "",
			name, protocol);
		if (variant)
			fprintf(f, "variant = \"%s\"\n", variant);
		fprintf(f, "[protocols.scancodes]\n");
		for (size_t j = k; j < res->key_count; j++)
			if (res->keys[j].protocol == res->keys[k].protocol)
				fprintf(f, "0x%" PRIx64 " = \"%s\"\n", keys[j].scancode,
					keys[j].keycode);
	}
	return ferror(f) ? -EIO : 0;
}
