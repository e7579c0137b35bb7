/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The demodulator on modelled signals: edges match the timings sent, any
 * block size gives the same edges (and so do the idle path's whole
 * stretches, strided and interleaved input), polarity is found either way
 * (and not from a small transient at the start of a recording), timeouts and
 * silence deadlines fire when due, bad configurations are refused.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ir_channel_sim.h"
#include "ir_demod.h"
#include "ir_protocol.h"

struct edge_log {
	struct ir_edge_buf edges;
	unsigned deadlines;
	uint32_t last_elapsed;
	struct ir_demod *demod;
	uint32_t deadline_to_set;
	uint64_t samples_at_deadline;
	uint64_t *sample_counter;
};

static void log_edge(void *userdata, const struct ir_edge *e)
{
	struct edge_log *log = userdata;

	ir_edge_buf_push(&log->edges, *e);
	if (e->kind == IR_PULSE && log->deadline_to_set)
		ir_demod_set_space_deadline(log->demod, log->deadline_to_set);
}

static void log_space(void *userdata, uint32_t elapsed)
{
	struct edge_log *log = userdata;

	log->deadlines++;
	log->last_elapsed = elapsed;
}

/* Renders (p, sc) with `cfg` and demodulates it in blocks of `block`. */
static void demodulate(const struct ir_channel_config *cfg, enum ir_protocol p, uint64_t sc,
		       size_t block, enum ir_polarity pol, struct edge_log *log)
{
	struct ir_edge_buf frame = { 0 };
	struct ir_demod_config dcfg = { .sample_rate = cfg->sample_rate, .polarity = pol };
	float *samples;
	size_t n;

	assert_int_equal(ir_encode(p, sc, NULL, &frame), 0);
	assert_int_equal(ir_channel_render(cfg, frame.edges, frame.len, &samples, &n), 0);
	assert_int_equal(ir_demod_new(&dcfg, log_edge, log_space, log, &log->demod), 0);
	for (size_t i = 0; i < n; i += block)
		ir_demod_process(log->demod, samples + i, n - i < block ? n - i : block, 1);
	ir_demod_flush(log->demod);
	ir_demod_free(log->demod);
	log->demod = NULL;
	free(samples);
	ir_edge_buf_free(&frame);
}

/* The pulses and spaces of `got` after its leading space equal `want`'s
 * within `tol` µs each. */
static void assert_timings(const struct ir_edge_buf *want, const struct ir_edge_buf *got,
			   uint32_t tol)
{
	size_t g = 0, w = 0;

	while (g < got->len && got->edges[g].kind != IR_PULSE)
		g++;
	/* compare every edge of the frame but its trailing gap */
	for (; w + 1 < want->len; w++, g++) {
		assert_true(g < got->len);
		assert_int_equal(got->edges[g].kind, want->edges[w].kind);
		if (abs((int)got->edges[g].duration - (int)want->edges[w].duration) > (int)tol) {
			fprintf(stderr, "edge %zu: want %u got %u\n", w, want->edges[w].duration,
				got->edges[g].duration);
			fail();
		}
	}
}

static void test_edges_match_the_timings(void **state)
{
	static const unsigned rates[] = { 16000, 44100, 48000, 96000, 192000 };
	struct ir_edge_buf want = { 0 };

	(void)state;
	assert_int_equal(ir_encode(IR_PROTO_NEC, 0x12ab, NULL, &want), 0);
	for (size_t r = 0; r < sizeof(rates) / sizeof(rates[0]); r++) {
		struct ir_channel_config cfg;
		struct edge_log log = { 0 };

		ir_channel_config_default(&cfg);
		cfg.sample_rate = rates[r];
		cfg.ac_tau_ms = 10;
		cfg.snr_db = 30;
		cfg.seed = r;
		demodulate(&cfg, IR_PROTO_NEC, 0x12ab, 1024, IR_POLARITY_AUTO, &log);
		/* within two sample periods and 40 µs */
		assert_timings(&want, &log.edges, 40 + 2 * 1000000 / rates[r]);
		ir_edge_buf_free(&log.edges);
	}
	ir_edge_buf_free(&want);
}

static bool same_edges(const struct ir_edge_buf *a, const struct ir_edge_buf *b)
{
	if (a->len != b->len)
		return false;
	return memcmp(a->edges, b->edges, a->len * sizeof(a->edges[0])) == 0;
}

static void test_block_size_independent(void **state)
{
	static const size_t blocks[] = { 1, 37, 4096, 1000000 };
	struct ir_channel_config cfg;
	struct edge_log ref = { 0 };

	(void)state;
	ir_channel_config_default(&cfg);
	cfg.sample_rate = 44100;
	cfg.ac_tau_ms = 2;
	cfg.snr_db = 15;
	cfg.hum_hz = 50;
	cfg.hum_level = 0.2;
	cfg.seed = 7;
	demodulate(&cfg, IR_PROTO_RC6_MCE, 0x800f0416, 4096, IR_POLARITY_AUTO, &ref);
	assert_true(ref.edges.len > 40);
	for (size_t b = 0; b < sizeof(blocks) / sizeof(blocks[0]); b++) {
		struct edge_log log = { 0 };

		demodulate(&cfg, IR_PROTO_RC6_MCE, 0x800f0416, blocks[b], IR_POLARITY_AUTO, &log);
		assert_true(same_edges(&ref.edges, &log.edges));
		ir_edge_buf_free(&log.edges);
	}
	ir_edge_buf_free(&ref.edges);
}

/* Demodulates `samples` (n frames of `channels` interleaved, the signal in
 * channel `ch`) with one demodulator, in blocks of `block` frames; its
 * noise floor at the end in *noise. */
static void demodulate_strided(const float *samples, size_t n, unsigned channels, unsigned ch,
			       unsigned rate, size_t block, struct edge_log *log, double *noise)
{
	struct ir_demod_config dcfg = { .sample_rate = rate };
	struct ir_signal_report rep;

	assert_int_equal(ir_demod_new(&dcfg, log_edge, NULL, log, &log->demod), 0);
	for (size_t i = 0; i < n; i += block)
		ir_demod_process(log->demod, samples + i * channels + ch, n - i < block ? n - i : block,
				 channels);
	ir_demod_flush(log->demod);
	ir_demod_report(log->demod, &rep);
	*noise = rep.noise;
	ir_demod_free(log->demod);
	log->demod = NULL;
}

static size_t count_kind(const struct ir_edge_buf *b, enum ir_edge_kind kind)
{
	size_t k = 0;

	for (size_t i = 0; i < b->len; i++)
		k += b->edges[i].kind == kind;
	return k;
}

/*
 * Frames far apart, so that the line goes idle between them (the idle
 * path, which runs whole stretches of samples at once, SIMD where the
 * machine has it) and leaves it at each frame: the edges are the same as
 * one sample at a time (block 1: never a whole stretch), read every
 * second float of interleaved audio, or through
 * ir_demod_process_interleaved() (which runs an idle channel ahead of
 * the others).  So is the noise floor, to the last bit: the idle path
 * measures it, and a step done otherwise would move it first (the edges
 * stand a small error).
 */
static void test_idle_path_gives_the_same_edges(void **state)
{
	static const size_t blocks[] = { 1, 5, 16, 17, 1024 };
	struct ir_edge_buf frames = { 0 };
	struct ir_channel_config cfg;
	struct edge_log ref = { 0 }, mixed[2];
	struct ir_demod *demods[2];
	struct ir_signal_report rep;
	float *mono, *stereo;
	double noise;
	size_t n;

	(void)state;
	for (int k = 0; k < 4; k++) {
		assert_int_equal(ir_encode(k & 1 ? IR_PROTO_RC5 : IR_PROTO_NEC, 0x0102 + k, NULL, &frames),
				 0);
		/* 300 ms of darkness after each: the timeout (125 ms) and more */
		assert_int_equal(ir_edge_buf_space(&frames, 300000), 0);
	}
	ir_channel_config_default(&cfg);
	cfg.sample_rate = 48000;
	cfg.ac_tau_ms = 2;
	cfg.snr_db = 12;
	cfg.hum_hz = 50;
	cfg.hum_level = 0.2;
	cfg.seed = 11;
	assert_int_equal(ir_channel_render(&cfg, frames.edges, frames.len, &mono, &n), 0);
	stereo = malloc(2 * n * sizeof(*stereo));
	assert_non_null(stereo);
	for (size_t i = 0; i < n; i++) {
		stereo[2 * i] = mono[n - 1 - i] * 0.5f; /* the other channel: other noise */
		stereo[2 * i + 1] = mono[i];
	}
	demodulate_strided(mono, n, 1, 0, cfg.sample_rate, 4096, &ref, &noise);
	assert_true(noise > 0);
	/* the four frames and a timeout after each: the line went idle */
	assert_true(count_kind(&ref.edges, IR_TIMEOUT) >= 4);
	assert_true(count_kind(&ref.edges, IR_PULSE) >= 4 * 14);
	for (size_t b = 0; b < sizeof(blocks) / sizeof(blocks[0]); b++) {
		struct edge_log log = { 0 }, strided = { 0 };
		double noise_b;

		demodulate_strided(mono, n, 1, 0, cfg.sample_rate, blocks[b], &log, &noise_b);
		assert_true(same_edges(&ref.edges, &log.edges));
		assert_true(noise_b == noise);
		demodulate_strided(stereo, n, 2, 1, cfg.sample_rate, blocks[b], &strided, &noise_b);
		assert_true(same_edges(&ref.edges, &strided.edges));
		assert_true(noise_b == noise);
		ir_edge_buf_free(&log.edges);
		ir_edge_buf_free(&strided.edges);
	}
	memset(mixed, 0, sizeof(mixed));
	for (int c = 0; c < 2; c++)
		assert_int_equal(ir_demod_new(&(struct ir_demod_config){ .sample_rate = cfg.sample_rate },
					      log_edge, NULL, &mixed[c], &demods[c]),
				 0);
	for (size_t i = 0; i < n; i += 1000)
		ir_demod_process_interleaved(demods, 2, stereo + 2 * i, n - i < 1000 ? n - i : 1000);
	for (int c = 0; c < 2; c++)
		ir_demod_flush(demods[c]);
	ir_demod_report(demods[1], &rep);
	for (int c = 0; c < 2; c++)
		ir_demod_free(demods[c]);
	assert_true(same_edges(&ref.edges, &mixed[1].edges));
	assert_true(rep.noise == noise);
	ir_edge_buf_free(&mixed[0].edges);
	ir_edge_buf_free(&mixed[1].edges);
	ir_edge_buf_free(&ref.edges);
	ir_edge_buf_free(&frames);
	free(mono);
	free(stereo);
}

/* Both wirings, AC-coupled and clipped or not: the first pulse is found as
 * a pulse, and a forced wrong polarity is not silently "fixed". */
static void test_polarity_found_either_way(void **state)
{
	struct ir_edge_buf want = { 0 };

	(void)state;
	assert_int_equal(ir_encode(IR_PROTO_SONY12, 0x10015, NULL, &want), 0);
	for (int invert = 0; invert < 2; invert++) {
		for (int clip = 0; clip < 2; clip++) {
			struct ir_channel_config cfg;
			struct edge_log log = { 0 };

			ir_channel_config_default(&cfg);
			cfg.invert = invert;
			cfg.clip_drive = clip ? 3 : 0;
			cfg.ac_tau_ms = 5;
			cfg.snr_db = 25;
			demodulate(&cfg, IR_PROTO_SONY12, 0x10015, 512, IR_POLARITY_AUTO, &log);
			assert_timings(&want, &log.edges, 60);
			ir_edge_buf_free(&log.edges);

			/* A receiver module is active low: told so, it agrees with
			 * the uninverted wiring only. */
			memset(&log, 0, sizeof(log));
			demodulate(&cfg, IR_PROTO_SONY12, 0x10015, 512, IR_POLARITY_PULSE_LOW, &log);
			if (!invert)
				assert_timings(&want, &log.edges, 60);
			ir_edge_buf_free(&log.edges);
		}
	}
	ir_edge_buf_free(&want);
}

/* A recording that starts with a disturbance some 10 σ high (a click, the
 * converter settling): either a short bump against the pulses' direction,
 * or a shelf in their direction that the first real pulse sits on.  Neither
 * may become a pulse or set the polarity; the frame's timings come out
 * right and the durations still add up to the recording. */
static void test_start_transient_is_not_a_pulse(void **state)
{
	struct ir_edge_buf want = { 0 };

	(void)state;
	assert_int_equal(ir_encode(IR_PROTO_NEC, 0x12ab, NULL, &want), 0);
	for (int invert = 0; invert < 2; invert++) {
		for (int shelf = 0; shelf < 2; shelf++) {
			struct ir_channel_config cfg;
			struct ir_demod_config dcfg = { .polarity = IR_POLARITY_AUTO };
			struct edge_log log = { 0 };
			float *samples;
			size_t n, from, to;
			double pulse_dir = invert ? 1 : -1, total = 0;

			ir_channel_config_default(&cfg);
			cfg.invert = invert;
			cfg.snr_db = 30;
			cfg.lead_ms = 40;
			cfg.seed = 7 + invert * 2 + shelf;
			dcfg.sample_rate = cfg.sample_rate;
			assert_int_equal(ir_channel_render(&cfg, want.edges, want.len, &samples, &n), 0);
			from = cfg.sample_rate * 5 / 1000;
			/* the shelf lasts into the first pulse (at 40 ms) */
			to = shelf ? cfg.sample_rate * 45 / 1000 : cfg.sample_rate * 9 / 1000;
			for (size_t i = from; i < to && i < n; i++)
				samples[i] += (float)((shelf ? pulse_dir : -pulse_dir) * 0.06);
			assert_int_equal(ir_demod_new(&dcfg, log_edge, NULL, &log, &log.demod), 0);
			ir_demod_process(log.demod, samples, n, 1);
			ir_demod_flush(log.demod);
			ir_demod_free(log.demod);
			if (getenv("IRJACK_TEST_VERBOSE"))
				for (size_t i = 0; i < log.edges.len && i < 8; i++)
					fprintf(stderr, "invert %d shelf %d: %d %u\n", invert, shelf,
						log.edges.edges[i].kind, log.edges.edges[i].duration);
			assert_timings(&want, &log.edges, 60);
			/* the leading darkness is one space, up to the frame */
			assert_int_equal(log.edges.edges[0].kind, IR_SPACE);
			assert_true(fabs(log.edges.edges[0].duration - 40000.0) < 100);
			for (size_t i = 0; i < log.edges.len; i++)
				if (log.edges.edges[i].kind == IR_PULSE ||
				    log.edges.edges[i].kind == IR_SPACE ||
				    log.edges.edges[i].kind == IR_TIMEOUT)
					total += log.edges.edges[i].duration;
			assert_true(fabs(total - n * 1e6 / cfg.sample_rate) < 2);
			ir_edge_buf_free(&log.edges);
			free(samples);
		}
	}
	ir_edge_buf_free(&want);
}

/* Short states on a noise-free input: the light of an A1 TV Box frame
 * (250/150 µs halves) as the LED model in test_synth gives it at 96 kHz.
 * The check for a rising noise floor (which runs on digital silence only)
 * took the frame back as noise after its 5th edge: its detrend mean was
 * seeded afresh at every block, once by the approach of an edge (3/4 of
 * the threshold), and the flat residuals after it counted as near. */
static void test_short_states_are_not_a_noise_rise(void **state)
{
	static const uint32_t light[] = { 245, 307, 245, 151, 482, 320, 482, 164, 245, 307, 482, 320,
					  245, 151, 482, 320, 482, 174, 245, 297, 482, 320, 245, 50000 };
	static const unsigned rates[] = { 48000, 96000, 176400, 192000 };
	struct ir_edge_buf want = { 0 };

	(void)state;
	for (size_t i = 0; i < sizeof(light) / sizeof(light[0]); i++)
		ir_edge_buf_push(&want, i % 2 ? ir_space(light[i]) : ir_pulse(light[i]));
	for (size_t r = 0; r < sizeof(rates) / sizeof(rates[0]); r++) {
		struct ir_channel_config cfg;
		struct ir_demod_config dcfg = { .sample_rate = rates[r], .polarity = IR_POLARITY_AUTO };
		struct edge_log log = { 0 };
		float *samples;
		size_t n;

		ir_channel_config_default(&cfg);
		cfg.sample_rate = rates[r];
		assert_int_equal(ir_channel_render(&cfg, want.edges, want.len, &samples, &n), 0);
		assert_int_equal(ir_demod_new(&dcfg, log_edge, NULL, &log, &log.demod), 0);
		ir_demod_process(log.demod, samples, n, 1);
		ir_demod_flush(log.demod);
		ir_demod_free(log.demod);
		/* the receiver model's own shaping: 60 µs, as elsewhere here */
		assert_timings(&want, &log.edges, 60);
		ir_edge_buf_free(&log.edges);
		free(samples);
	}
	ir_edge_buf_free(&want);
}

static void test_timeout_after_darkness(void **state)
{
	struct ir_channel_config cfg;
	struct edge_log log = { 0 };
	size_t timeouts = 0;
	uint64_t total = 0;

	(void)state;
	ir_channel_config_default(&cfg);
	cfg.tail_ms = 300;
	demodulate(&cfg, IR_PROTO_RC5, 0x1e01, 256, IR_POLARITY_AUTO, &log);
	for (size_t i = 0; i < log.edges.len; i++) {
		if (log.edges.edges[i].kind == IR_TIMEOUT) {
			timeouts++;
			assert_int_equal(log.edges.edges[i].duration, 125000);
		}
		total += log.edges.edges[i].duration;
	}
	assert_int_equal(timeouts, 1);
	/* the edges account for the whole stream: lead-in, the frame with its
	 * gap, the tail (to within a sample) */
	{
		struct ir_edge_buf frame = { 0 };
		long long expected;

		assert_int_equal(ir_encode(IR_PROTO_RC5, 0x1e01, NULL, &frame), 0);
		expected = 20000 + (long long)ir_edge_buf_duration(&frame) + 300000;
		assert_true(llabs((long long)total - expected) <= 21);
		ir_edge_buf_free(&frame);
	}
	ir_edge_buf_free(&log.edges);
}

static void test_space_deadline_fires_once(void **state)
{
	struct ir_channel_config cfg;
	struct edge_log log = { .deadline_to_set = 3000 };

	(void)state;
	ir_channel_config_default(&cfg);
	demodulate(&cfg, IR_PROTO_JVC, 0x1234, 128, IR_POLARITY_AUTO, &log);
	/* one deadline per space longer than 3 ms after a reported pulse: the
	 * trailing silence.  The header space (4.2 ms) follows the stream's
	 * first pulse, which is reported only once the next one starts (it is
	 * provisional until then), so no deadline was set in it. */
	assert_int_equal(log.deadlines, 1);
	assert_true(log.last_elapsed >= 3000 && log.last_elapsed < 3100);
	ir_edge_buf_free(&log.edges);
}

static void test_photodiode_carrier_is_demodulated(void **state)
{
	static const unsigned rates[] = { 48000, 96000, 192000 };
	struct ir_edge_buf want = { 0 };

	(void)state;
	assert_int_equal(ir_encode(IR_PROTO_RC5, 0x0a0b, NULL, &want), 0);
	for (size_t r = 0; r < 3; r++) {
		struct ir_channel_config cfg;
		struct edge_log log = { 0 };

		ir_channel_config_default(&cfg);
		cfg.frontend = IR_FRONTEND_PHOTODIODE;
		cfg.sample_rate = rates[r];
		cfg.carrier_hz = 36000;
		cfg.ac_tau_ms = 10;
		cfg.snr_db = 30;
		demodulate(&cfg, IR_PROTO_RC5, 0x0a0b, 1024, IR_POLARITY_AUTO, &log);
		/* the envelope of a 36 kHz burst: within about one carrier period */
		assert_timings(&want, &log.edges, 60);
		ir_edge_buf_free(&log.edges);
	}
	ir_edge_buf_free(&want);
}

static void test_reset_reports_overflow(void **state)
{
	struct edge_log log = { 0 };
	struct ir_demod_config cfg = { .sample_rate = 48000 };
	struct ir_demod *d;
	float silence[100] = { 0 };

	(void)state;
	assert_int_equal(ir_demod_new(&cfg, log_edge, NULL, &log, &d), 0);
	ir_demod_process(d, silence, 100, 1);
	ir_demod_reset(d);
	assert_int_equal(log.edges.len, 1);
	assert_int_equal(log.edges.edges[0].kind, IR_OVERFLOW);
	ir_demod_free(d);
	ir_edge_buf_free(&log.edges);
}

static void test_bad_configuration(void **state)
{
	struct ir_demod *d = NULL;
	struct ir_demod_config cfg = { .sample_rate = 1000 };

	(void)state;
	assert_int_equal(ir_demod_new(&cfg, log_edge, NULL, NULL, &d), -EINVAL);
	cfg.sample_rate = 48000;
	assert_int_equal(ir_demod_new(&cfg, NULL, NULL, NULL, &d), -EINVAL);
	cfg.polarity = 5;
	assert_int_equal(ir_demod_new(&cfg, log_edge, NULL, NULL, &d), -EINVAL);
	assert_int_equal(ir_demod_new(NULL, log_edge, NULL, NULL, &d), -EINVAL);
	ir_demod_free(NULL);
}

static void test_signal_report(void **state)
{
	struct ir_channel_config cfg;
	struct edge_log log = { 0 };
	struct ir_edge_buf frame = { 0 };
	struct ir_demod_config dcfg = { .sample_rate = 48000 };
	struct ir_signal_report rep;
	float *samples;
	size_t n;

	(void)state;
	ir_channel_config_default(&cfg);
	cfg.amplitude = 0.4;
	cfg.snr_db = 20;
	cfg.invert = 1; /* light raises the signal */
	assert_int_equal(ir_encode(IR_PROTO_NEC, 0x0102, NULL, &frame), 0);
	assert_int_equal(ir_channel_render(&cfg, frame.edges, frame.len, &samples, &n), 0);
	assert_int_equal(ir_demod_new(&dcfg, log_edge, NULL, &log, &log.demod), 0);
	ir_demod_process(log.demod, samples, n, 1);
	ir_demod_report(log.demod, &rep);
	assert_int_equal(rep.polarity, IR_POLARITY_PULSE_HIGH);
	/* the step is the amplitude; the SNR is 20 dB in the 48 kHz band,
	 * more in the detection band */
	assert_true(fabs(rep.step - 0.4) < 0.04);
	assert_true(rep.snr_db > 20 && rep.snr_db < 35);
	assert_true(rep.peak > 0.2 && rep.peak < 0.5);
	assert_true(rep.edges > 60);
	assert_int_equal(rep.samples, n);
	ir_demod_free(log.demod);
	free(samples);
	ir_edge_buf_free(&frame);
	ir_edge_buf_free(&log.edges);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edges_match_the_timings),
		cmocka_unit_test(test_block_size_independent),
		cmocka_unit_test(test_idle_path_gives_the_same_edges),
		cmocka_unit_test(test_polarity_found_either_way),
		cmocka_unit_test(test_start_transient_is_not_a_pulse),
		cmocka_unit_test(test_short_states_are_not_a_noise_rise),
		cmocka_unit_test(test_timeout_after_darkness),
		cmocka_unit_test(test_space_deadline_fires_once),
		cmocka_unit_test(test_photodiode_carrier_is_demodulated),
		cmocka_unit_test(test_reset_reports_overflow),
		cmocka_unit_test(test_bad_configuration),
		cmocka_unit_test(test_signal_report),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
