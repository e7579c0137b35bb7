/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Carrier and duty-cycle estimates on photodiode captures at 96 and 192 kHz:
 * within ±1 % of the carrier, and nothing where there is no carrier to see.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "ir_channel_sim.h"
#include "ir_demod.h"
#include "ir_protocol.h"

struct carrier_log {
	unsigned carriers;
	double hz;
	unsigned duty;
};

static void log_edge(void *userdata, const struct ir_edge *e)
{
	struct carrier_log *log = userdata;

	if (e->kind == IR_CARRIER) {
		log->carriers++;
		log->hz = e->duration;
		log->duty = e->duty_cycle;
	}
}

static void measure(enum ir_frontend frontend, unsigned rate, unsigned carrier, unsigned duty,
		    struct carrier_log *log)
{
	struct ir_edge_buf frame = { 0 };
	struct ir_channel_config cfg;
	struct ir_demod_config dcfg = { .sample_rate = rate };
	struct ir_demod *d;
	float *samples;
	size_t n;

	ir_channel_config_default(&cfg);
	cfg.frontend = frontend;
	cfg.sample_rate = rate;
	cfg.carrier_hz = carrier;
	cfg.duty_cycle = duty;
	cfg.ac_tau_ms = 5;
	cfg.snr_db = 25;
	cfg.seed = carrier + duty;
	assert_int_equal(ir_encode(IR_PROTO_NEC, 0x1234, NULL, &frame), 0);
	assert_int_equal(ir_channel_render(&cfg, frame.edges, frame.len, &samples, &n), 0);
	assert_int_equal(ir_demod_new(&dcfg, log_edge, NULL, log, &d), 0);
	ir_demod_process(d, samples, n, 1);
	ir_demod_flush(d);
	ir_demod_free(d);
	free(samples);
	ir_edge_buf_free(&frame);
}

static void test_carrier_within_one_percent(void **state)
{
	static const unsigned rates[] = { 96000, 192000 };
	static const unsigned carriers[] = { 30000, 33000, 36000, 38000, 40000, 56000 };

	(void)state;
	for (size_t r = 0; r < 2; r++) {
		for (size_t c = 0; c < sizeof(carriers) / sizeof(carriers[0]); c++) {
			struct carrier_log log = { 0 };

			/* 2.2 × the carrier must fit the rate */
			if (carriers[c] * 2.2 > rates[r])
				continue;
			measure(IR_FRONTEND_PHOTODIODE, rates[r], carriers[c], 33, &log);
			printf("  %6u Hz: %5u Hz carrier measured as %.0f Hz\n", rates[r], carriers[c],
			       log.hz);
			assert_int_equal(log.carriers, 1);
			assert_true(fabs(log.hz - carriers[c]) <= 0.01 * carriers[c]);
		}
	}
}

static void test_duty_cycle_at_192k(void **state)
{
	static const unsigned duties[] = { 25, 33, 50 };

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		struct carrier_log log = { 0 };

		measure(IR_FRONTEND_PHOTODIODE, 192000, 38000, duties[i], &log);
		printf("  duty %u %% measured as %u %%\n", duties[i], log.duty);
		assert_int_equal(log.carriers, 1);
		assert_true(abs((int)log.duty - (int)duties[i]) <= 5);
	}
}

static void test_no_carrier_where_none_is_visible(void **state)
{
	struct carrier_log log = { 0 };

	(void)state;
	/* a receiver module outputs the envelope only */
	measure(IR_FRONTEND_TSOP, 192000, 38000, 33, &log);
	assert_int_equal(log.carriers, 0);
	/* 56 kHz is beyond what 96 kHz sampling passes: no alias is reported */
	measure(IR_FRONTEND_PHOTODIODE, 96000, 56000, 33, &log);
	assert_int_equal(log.carriers, 0);
	/* below 66 kHz nothing is attempted */
	measure(IR_FRONTEND_PHOTODIODE, 48000, 38000, 33, &log);
	assert_int_equal(log.carriers, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_carrier_within_one_percent),
		cmocka_unit_test(test_duty_cycle_at_192k),
		cmocka_unit_test(test_no_carrier_where_none_is_visible),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
