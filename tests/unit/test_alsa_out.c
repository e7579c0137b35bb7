/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_alsa_out.c - the playback sink through real alsa-lib: the file PCM
 * `irsink` (../shared/notes/alsa-file-pcm.conf) writes what the program
 * plays into a raw file; it must hold exactly the synthesized samples.
 * Exits 77 when the config is absent.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "ir_audio_alsa_out.h"
#include "ir_protocol.h"
#include "ir_synth.h"

static char conf[4096];

static void play_and_compare(unsigned rate, size_t block)
{
	struct ir_edge_buf b = { 0 };
	struct ir_synth_config cfg;
	struct ir_synth *s;
	struct ir_alsa_out *o;
	char raw[] = "/tmp/irjack-alsa-out-XXXXXX";
	char pcm[256];
	int fd = mkstemp(raw);

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(ir_encode(IR_PROTO_NEC, 0x04fb, &(struct ir_encode_opts){ .repeats = 1 }, &b), 0);
	ir_synth_config_default(&cfg);
	cfg.sample_rate = rate;
	assert_int_equal(ir_synth_new(&cfg, b.edges, b.len, &s), 0);
	size_t total = (size_t)ir_synth_total_frames(s);
	float *st = malloc(2 * total * sizeof(float));

	assert_int_equal(ir_synth_generate(s, st, total), total);
	snprintf(pcm, sizeof(pcm), "irsink:OUT=%s", raw);
	assert_int_equal(ir_alsa_out_new(pcm, rate, &o), 0);
	for (size_t i = 0; i < total; i += block)
		assert_int_equal(ir_alsa_out_write(o, st + 2 * i, total - i < block ? total - i : block), 0);
	assert_int_equal(ir_alsa_out_drain(o), 0);
	assert_int_equal(ir_alsa_out_xruns(o), 0);
	ir_alsa_out_free(o);

	FILE *f = fopen(raw, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	long bytes = ftell(f);
	rewind(f);
	float *got = malloc((size_t)bytes + 1);
	assert_int_equal(fread(got, 1, (size_t)bytes, f), (size_t)bytes);
	fclose(f);
	printf("alsa irsink %u Hz: %zu frames played, %ld bytes in the file (%zu expected as FLOAT_LE stereo)\n",
	       rate, total, bytes, total * 2 * sizeof(float));
	assert_int_equal((size_t)bytes, total * 2 * sizeof(float));
	assert_memory_equal(got, st, (size_t)bytes);
	free(got);
	free(st);
	ir_synth_free(s);
	ir_edge_buf_free(&b);
	unlink(raw);
}

static void test_irsink_gets_exact_samples_48k(void **state)
{
	(void)state;
	play_and_compare(48000, 1000);
}

static void test_irsink_gets_exact_samples_192k(void **state)
{
	(void)state;
	play_and_compare(192000, 4096);
}

static void test_unknown_pcm_is_an_error(void **state)
{
	(void)state;
	struct ir_alsa_out *o = (void *)1;

	assert_true(ir_alsa_out_new("irjack_no_such_pcm", 48000, &o) < 0);
	assert_null(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_irsink_gets_exact_samples_48k),
		cmocka_unit_test(test_irsink_gets_exact_samples_192k),
		cmocka_unit_test(test_unknown_pcm_is_an_error),
	};

	snprintf(conf, sizeof(conf), "%s/notes/alsa-file-pcm.conf", IRJACK_SHARED_DIR);
	if (access(conf, R_OK) != 0 || access("/usr/share/alsa/alsa.conf", R_OK) != 0) {
		printf("skip: %s or /usr/share/alsa/alsa.conf missing\n", conf);
		return 77;
	}
	char path[8300];
	snprintf(path, sizeof(path), "/usr/share/alsa/alsa.conf:%s", conf);
	setenv("ALSA_CONFIG_PATH", path, 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
