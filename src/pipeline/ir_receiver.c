/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "ir_receiver.h"

#include "ir_keymap.h"

#include <errno.h>
#include <stdlib.h>

/* Two channels carrying one receiver report the same frame within a few
 * samples of each other; distinct presses of one key are ≥ 40 ms apart. */
#define DUPLICATE_WINDOW_US 5000u
#define RECENT_FRAMES 8

struct channel {
	struct ir_receiver *rx;
	unsigned index;
	struct ir_demod *demod;
	struct ir_decoder *decoder;
	uint64_t frames;
};

struct ir_receiver {
	struct ir_receiver_config cfg;
	ir_frame_fn frame_fn;
	void *userdata;
	ir_receiver_edge_fn edge_fn;
	void *edge_userdata;
	struct channel channels[IR_RECEIVER_MAX_CHANNELS];
	struct ir_demod *demods[IR_RECEIVER_MAX_CHANNELS];
	struct {
		struct ir_frame frame;
		unsigned channel;
	} recent[RECENT_FRAMES];
	unsigned recent_next;
};

static bool is_duplicate(struct ir_receiver *rx, unsigned channel, const struct ir_frame *f)
{
	for (unsigned i = 0; i < RECENT_FRAMES; i++) {
		const struct ir_frame *r = &rx->recent[i].frame;
		uint64_t gap;

		if (rx->recent[i].channel == channel || r->end_us == 0)
			continue;
		gap = r->start_us > f->start_us ? r->start_us - f->start_us : f->start_us - r->start_us;
		if (gap <= DUPLICATE_WINDOW_US && r->protocol == f->protocol &&
		    r->scancode == f->scancode && r->flags == f->flags)
			return true;
	}
	return false;
}

static void on_frame(void *userdata, const struct ir_frame *frame)
{
	struct channel *ch = userdata;
	struct ir_receiver *rx = ch->rx;

	ch->frames++;
	if (is_duplicate(rx, ch->index, frame))
		return;
	rx->recent[rx->recent_next].frame = *frame;
	rx->recent[rx->recent_next].channel = ch->index;
	rx->recent_next = (rx->recent_next + 1) % RECENT_FRAMES;
	rx->frame_fn(rx->userdata, frame);
}

static void on_edge(void *userdata, const struct ir_edge *edge)
{
	struct channel *ch = userdata;
	struct ir_receiver *rx = ch->rx;

	if (rx->edge_fn)
		rx->edge_fn(rx->edge_userdata, ch->index, edge);
	ir_decoder_feed(ch->decoder, edge);
	if (edge->kind == IR_PULSE)
		ir_demod_set_space_deadline(ch->demod, ir_decoder_space_deadline(ch->decoder));
}

static void on_space(void *userdata, uint32_t elapsed_us)
{
	struct channel *ch = userdata;

	ir_decoder_space_elapsed(ch->decoder, elapsed_us);
	/* Another family may need longer still. */
	ir_demod_set_space_deadline(ch->demod, ir_decoder_space_deadline(ch->decoder));
}

int ir_receiver_new(const struct ir_receiver_config *cfg, ir_frame_fn frame_fn, void *userdata,
		    struct ir_receiver **out)
{
	struct ir_receiver *rx;
	struct ir_demod_config dcfg = { 0 };
	int ret = 0;

	if (!cfg || !frame_fn || cfg->channels == 0 || cfg->channels > IR_RECEIVER_MAX_CHANNELS ||
	    (cfg->channel != IR_RECEIVER_CHANNEL_AUTO &&
	     (cfg->channel < 0 || (unsigned)cfg->channel >= cfg->channels)))
		return -EINVAL;
	rx = calloc(1, sizeof(*rx));
	if (!rx)
		return -ENOMEM;
	rx->cfg = *cfg;
	rx->cfg.protocols = NULL;
	rx->frame_fn = frame_fn;
	rx->userdata = userdata;
	dcfg.sample_rate = cfg->sample_rate;
	dcfg.polarity = cfg->polarity;
	dcfg.timeout_us = cfg->timeout_us;
	for (unsigned c = 0; c < cfg->channels && ret == 0; c++) {
		struct channel *ch = &rx->channels[c];

		ch->rx = rx;
		ch->index = c;
		if (cfg->channel != IR_RECEIVER_CHANNEL_AUTO && (unsigned)cfg->channel != c)
			continue;
		ret = ir_demod_new(&dcfg, on_edge, on_space, ch, &ch->demod);
		if (ret == 0)
			ret = ir_decoder_new(cfg->protocols, on_frame, ch, &ch->decoder);
		if (ret == 0 && cfg->keymap)
			ret = ir_keymap_attach(cfg->keymap, ch->decoder);
		if (ret == 0 && cfg->why)
			ir_decoder_set_why(ch->decoder, cfg->why, cfg->why_userdata);
		rx->demods[c] = ch->demod;
	}
	if (ret < 0) {
		ir_receiver_free(rx);
		return ret;
	}
	*out = rx;
	return 0;
}

void ir_receiver_free(struct ir_receiver *rx)
{
	if (!rx)
		return;
	for (unsigned c = 0; c < IR_RECEIVER_MAX_CHANNELS; c++) {
		ir_demod_free(rx->channels[c].demod);
		ir_decoder_free(rx->channels[c].decoder);
	}
	free(rx);
}

void ir_receiver_set_edge_fn(struct ir_receiver *rx, ir_receiver_edge_fn fn, void *userdata)
{
	rx->edge_fn = fn;
	rx->edge_userdata = userdata;
}

void ir_receiver_process(struct ir_receiver *rx, const float *samples, size_t frames)
{
	if (rx->cfg.channel != IR_RECEIVER_CHANNEL_AUTO)
		ir_demod_process(rx->demods[rx->cfg.channel], samples + rx->cfg.channel, frames,
				 rx->cfg.channels);
	else
		ir_demod_process_interleaved(rx->demods, rx->cfg.channels, samples, frames);
}

void ir_receiver_flush(struct ir_receiver *rx)
{
	for (unsigned c = 0; c < rx->cfg.channels; c++) {
		if (!rx->demods[c])
			continue;
		ir_demod_flush(rx->demods[c]);
		ir_decoder_flush(rx->channels[c].decoder);
	}
}

void ir_receiver_reset(struct ir_receiver *rx)
{
	for (unsigned c = 0; c < rx->cfg.channels; c++)
		if (rx->demods[c])
			ir_demod_reset(rx->demods[c]);
}

int ir_receiver_report(struct ir_receiver *rx, unsigned c, struct ir_signal_report *r)
{
	if (c >= rx->cfg.channels || !rx->demods[c])
		return -EINVAL;
	ir_demod_report(rx->demods[c], r);
	return 0;
}

uint64_t ir_receiver_channel_frames(const struct ir_receiver *rx, unsigned c)
{
	return c < IR_RECEIVER_MAX_CHANNELS ? rx->channels[c].frames : 0;
}
