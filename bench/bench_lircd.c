/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench_lircd: the lircd socket's LIST for a remote of N buttons (each
 * under nec, necx and nec32, as an rc_keymaps nec keymap gives them), for
 * N = 2,000 and 20,000: time per call and the ratio, which is ~10 when
 * the work grows linearly with the buttons (100 would be quadratic).
 * Usage: bench_lircd [REPEATS]   (default 20 calls per size)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "ir_keymap.h"
#include "out_lircd.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Seconds per LIST of a remote of `buttons` buttons, best of `repeats`. */
static double list_seconds(unsigned buttons, unsigned repeats)
{
	static char reply[1 << 20];
	struct ir_lircd_config cfg = { 0 };
	struct ir_keymap *km;
	struct ir_lircd *s;
	char path[64], key[32];
	double best = 1e9;
	unsigned r;

	if (ir_keymap_new(&km) < 0 || ir_keymap_add_remote(km, "big", &r) < 0)
		exit(1);
	for (unsigned i = 0; i < buttons; i++) {
		snprintf(key, sizeof(key), "KEY_%u", i);
		if (ir_keymap_add_key(km, r, IR_PROTO_NEC, 0, i, key) < 0 ||
		    ir_keymap_add_key(km, r, IR_PROTO_NECX, 0, i, key) < 0 ||
		    ir_keymap_add_key(km, r, IR_PROTO_NEC32, 0, i, key) < 0)
			exit(1);
	}
	snprintf(path, sizeof(path), "/tmp/irjack-bench-lircd-%d", (int)getpid());
	cfg.path = path;
	cfg.keymap = km;
	cfg.mode = 0600;
	if (ir_lircd_new(&cfg, &s) < 0)
		exit(1);
	for (unsigned i = 0; i < repeats; i++) {
		double t0 = now_s(), t;

		if (ir_lircd_command(s, "LIST big", reply, sizeof(reply)) == 0)
			exit(1);
		t = now_s() - t0;
		if (t < best)
			best = t;
	}
	ir_lircd_free(s);
	ir_keymap_free(km);
	return best;
}

int main(int argc, char **argv)
{
	unsigned repeats = argc > 1 ? (unsigned)atoi(argv[1]) : 20;
	double small, large;

	if (repeats == 0)
		repeats = 1;
	small = list_seconds(2000, repeats);
	large = list_seconds(20000, repeats);
	printf("LIST of 2,000 buttons: %.3f ms; of 20,000: %.3f ms; ratio %.1f (linear: ~10)\n",
	       small * 1e3, large * 1e3, large / small);
	return 0;
}
