/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench_coldstart.h - recordings cut tight, printed:
 *
 *   bench_audio coldstart   the first frame of a recording that begins
 *                           0-5 ms before the first pulse, or inside it,
 *                           per SNR × rate (receiver module, AC coupling
 *                           1 ms, 5 ms and none, both polarities, hum)
 *
 * test_demod_cold_start asserts every cut at 30 dB; this shows where that
 * holds and where it stops as the noise rises, beside the same renderings
 * decoded uncut (what a stream's frames give at that SNR anyway).
 */
#ifndef IRJACK_BENCH_COLDSTART_H
#define IRJACK_BENCH_COLDSTART_H

/* argv[1] is the command; options follow (see the usage text).  Returns the
 * exit status. */
int bench_coldstart_main(int argc, char **argv);

#endif
