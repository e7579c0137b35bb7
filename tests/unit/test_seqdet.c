/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The sequence detector (dsp/ir_seqdet.c) on its own: told a frame's start
 * (what ir_demod's weak trigger measures), it must decide every run of a
 * frame at README SNR 0 dB (step = 2σ per sample), where a per-sample
 * threshold decision fails (bench_audio limit before it: 9 % and 14 % of
 * frames at 44.1 and 48 kHz through the whole receiver).  The frames are
 * NEC and RC-5 from the encoders, rendered by ir_channel_sim with its
 * noise, hum and AC coupling; a frame counts when every decided pulse and
 * space is within 200 µs of what was sent (the decoders allow more).  The
 * bars sit under what was measured here (in the comments) and far over what
 * the per-sample detector gets.  On noise alone, after a false start, it
 * must take the start back (the first pulse ended where it began) and tell
 * nothing more.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ir_channel_sim.h"
#include "ir_edge.h"
#include "ir_protocol.h"
#include "ir_seqdet.h"

#define MAX_RUNS 256
#define LEAD_MS 20.0
#define TOLERANCE_US 200.0

struct decided {
	double t[MAX_RUNS];
	bool lit[MAX_RUNS];
	unsigned n;
	bool overflow;
};

static void on_edge(void *userdata, double t_us, bool lit)
{
	struct decided *d = userdata;

	if (d->n == MAX_RUNS) {
		d->overflow = true;
		return;
	}
	d->t[d->n] = t_us;
	d->lit[d->n++] = lit;
}

static void test_seqdet_rejects_bad_arguments(void **state)
{
	struct ir_seqdet *sd = NULL;
	struct decided got = { 0 };

	(void)state;
	assert_int_equal(ir_seqdet_new(3999, on_edge, NULL, &got, &sd), -EINVAL);
	assert_int_equal(ir_seqdet_new(1000001, on_edge, NULL, &got, &sd), -EINVAL);
	assert_int_equal(ir_seqdet_new(48000, NULL, NULL, &got, &sd), -EINVAL);
	assert_int_equal(ir_seqdet_new(48000, on_edge, NULL, &got, NULL), -EINVAL);
	assert_null(sd);
	assert_int_equal(ir_seqdet_new(48000, on_edge, NULL, &got, &sd), 0);
	assert_false(ir_seqdet_running(sd));
	ir_seqdet_free(sd);
	ir_seqdet_free(NULL);
}

/* Starts the detector as ir_demod does: the first pulse starts at t0 (the
 * lead), its first 400 µs are the acquisition, the step and baseline come
 * from the samples (the lead's mean, the acquisition's mean). */
static void run_detector(struct ir_seqdet *sd, const float *x, size_t frames, unsigned rate)
{
	double us = 1e6 / rate, t0 = LEAD_MS * 1000, b = 0, a = 0;
	size_t n0 = (size_t)ceil(t0 / us), lead = (size_t)(0.8 * n0);
	size_t acq = (size_t)ceil(400 / us);

	for (size_t i = 0; i < lead; i++)
		b += x[i];
	b /= (double)lead;
	for (size_t i = n0; i < n0 + acq; i++)
		a += x[i] - b;
	a /= (double)acq;
	ir_seqdet_arm(sd, n0);
	for (size_t i = n0; i < n0 + acq; i++)
		ir_seqdet_acquire(sd, x[i]);
	ir_seqdet_start(sd, &(struct ir_seqdet_start){
				    .n = n0 + acq,
				    .t0_us = t0,
				    .step = fabs(a),
				    .baseline = b,
				    .pol = a >= 0 ? 1 : -1,
				    /* 0 dB: σ = step / 2 = 0.25 */
				    .noise2 = 0.0625,
			    });
	for (size_t i = n0 + acq; i < frames; i++)
		ir_seqdet_push(sd, x[i]);
	ir_seqdet_finish(sd);
}

/* True when the decided runs are the sent ones, each within TOLERANCE_US. */
static bool frame_right(const struct decided *got, const struct ir_edge *sent, size_t n_sent)
{
	double t = LEAD_MS * 1000, start = t;
	size_t k = 0;

	if (got->overflow || got->n < n_sent)
		return false;
	/* edge k of got ends sent run k (the first pulse started at t0) */
	for (size_t i = 0; i < n_sent; i++) {
		double end = t + sent[i].duration, got_start = i ? got->t[i - 1] : start;

		if (got->lit[k] != (sent[i].kind != IR_PULSE) ||
		    fabs((got->t[k] - got_start) - sent[i].duration) > TOLERANCE_US)
			return false;
		t = end;
		k++;
	}
	return true;
}

/* Percent of `frames` frames of `proto` decided right at README SNR 0 dB. */
static double success(const char *proto, unsigned rate, double tau_ms, unsigned frames,
		      uint64_t seed)
{
	enum ir_protocol p;
	unsigned ok = 0;

	assert_int_equal(ir_protocol_from_name(proto, &p), 0);
	for (unsigned f = 0; f < frames; f++) {
		struct ir_edge_buf sent = { 0 };
		struct ir_channel_config ch;
		struct decided got = { 0 };
		struct ir_seqdet *sd;
		float *x = NULL;
		size_t n = 0, n_sent, lead = 0;
		uint64_t s = seed * 1000 + f;

		/* (address 0-31, command 0-63: valid for both) */
		assert_int_equal(ir_encode(p, ((s * 2654435761u) % 32) << 8 | (s * 40503u) % 64,
					   &(struct ir_encode_opts){ 0 }, &sent),
				 0);
		/* (a trailing space is the gap; the frame ends with its last pulse) */
		n_sent = sent.len;
		while (n_sent && sent.edges[n_sent - 1].kind != IR_PULSE)
			n_sent--;
		/* (an encoder's leading space is silence: the frame starts at
		 * its first pulse, t0) */
		while (lead < n_sent && sent.edges[lead].kind != IR_PULSE)
			lead++;
		ir_channel_config_default(&ch);
		ch.sample_rate = rate;
		ch.ac_tau_ms = tau_ms;
		ch.snr_db = 0;
		ch.hum_hz = 50;
		ch.hum_level = 0.02;
		ch.invert = s & 1;
		ch.seed = s * 7919 + 1;
		ch.lead_ms = LEAD_MS;
		ch.tail_ms = 60;
		assert_int_equal(ir_channel_render(&ch, sent.edges + lead, sent.len - lead, &x, &n), 0);
		assert_int_equal(ir_seqdet_new(rate, on_edge, NULL, &got, &sd), 0);
		run_detector(sd, x, n, rate);
		ok += frame_right(&got, sent.edges + lead, n_sent - lead);
		ir_seqdet_free(sd);
		free(x);
		ir_edge_buf_free(&sent);
	}
	return 100.0 * ok / frames;
}

static void test_seqdet_decides_frames_at_0_db(void **state)
{
	static const unsigned rates[] = { 44100, 48000, 96000 };
	static const double taus[] = { 0, 5 };

	(void)state;
	for (size_t r = 0; r < 3; r++)
		for (size_t t = 0; t < 2; t++) {
			double nec = success("nec", rates[r], taus[t], 30, 1 + r * 10 + t);
			double rc5 = success("rc5", rates[r], taus[t], 30, 101 + r * 10 + t);

			print_message("%u Hz tau %.0f ms: nec %.0f %%, rc5 %.0f %%\n", rates[r],
				      taus[t], nec, rc5);
			/* measured: 44.1 kHz nec 80 / 67 %, rc5 90 / 100 %
			 * (DC / 5 ms); 48 kHz 97 / 87, 97 / 93; 96 kHz
			 * 100 / 100, 97 / 100 (its edges land on ~45 µs
			 * blocks at 44.1 kHz, on 62 µs ones at 48 kHz: the
			 * misses there are runs off by 4-5 blocks) */
			double bar = rates[r] == 44100 ? 60 : 80;

			assert_true(nec >= bar);
			assert_true(rc5 >= bar);
		}
}

/* White noise at 0 dB's level after a false start: the start is taken back
 * (it does not beat darkness by START_NATS) and nothing else is told. */
static void test_seqdet_noise_alone_stays_dark(void **state)
{
	struct ir_channel_config ch;
	struct ir_edge e[2] = { { .duration = 1000000, .kind = IR_SPACE },
				{ .duration = 10, .kind = IR_SPACE } };
	unsigned total = 0;

	(void)state;
	for (uint64_t seed = 1; seed <= 10; seed++) {
		struct decided got = { 0 };
		struct ir_seqdet *sd;
		float *x = NULL;
		size_t n = 0;

		ir_channel_config_default(&ch);
		ch.sample_rate = 48000;
		ch.ac_tau_ms = 5;
		ch.snr_db = 0;
		ch.hum_hz = 50;
		ch.hum_level = 0.02;
		ch.seed = seed;
		ch.lead_ms = LEAD_MS;
		assert_int_equal(ir_channel_render(&ch, e, 2, &x, &n), 0);
		assert_int_equal(ir_seqdet_new(48000, on_edge, NULL, &got, &sd), 0);
		ir_seqdet_arm(sd, 0);
		ir_seqdet_start(sd, &(struct ir_seqdet_start){ .n = 0, .t0_us = 0, .step = 0.5,
							      .baseline = 0, .pol = 1,
							      .noise2 = 0.0625 });
		for (size_t i = 0; i < n; i++)
			ir_seqdet_push(sd, x[i]);
		ir_seqdet_finish(sd);
		total += got.n;
		ir_seqdet_free(sd);
		free(x);
	}
	/* one edge each: the false pulse taken back at its start (before,
	 * 2 to 19 each: noise read as pulses of up to 200 ms) */
	assert_int_equal(total, 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seqdet_rejects_bad_arguments),
		cmocka_unit_test(test_seqdet_decides_frames_at_0_db),
		cmocka_unit_test(test_seqdet_noise_alone_stays_dark),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
